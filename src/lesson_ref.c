/* lesson_ref.c: references in lesson prose to the values of the trace
 * ("{α_1,3}"), which the renderer fills in, and claims about them
 * ("claim argmax(α_1) = je"), which lesson --check evaluates
 * (doc/lessons.md, "References" and "Claims").  A lesson never types a
 * number of the trace: it names the value, and the value is looked up by
 * the names the formatters print (trace_names), so a renamed symbol needs
 * only the lesson's text changed. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "lesson.h"
#include "num.h"
#include "window.h"

/* --- the walk over a trace's numbers --------------------------------- */

int lesson_walk(const struct trace *tr, int run, int want_names,
		int (*visit)(void *ctx, const struct trace_rec *r, int op,
			     const double *v, int len,
			     const struct trace_names *nm),
		void *ctx)
{
	struct trace_names nm;
	memset(&nm, 0, sizeof nm);
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if (run != -2 && r->run != -1 && r->run != run)
			continue;
		if (want_names)
			trace_names(tr, r, &nm);
		int rc = visit(ctx, r, -1, r->result, r->len, &nm);
		for (int o = 0; !rc && o < r->nops; o++)
			rc = visit(ctx, r, o, r->ops[o].v, r->ops[o].len, &nm);
		if (rc)
			return rc;
	}
	return 0;
}

/* --- parsing --------------------------------------------------------- */

static int lr_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int lr_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return 0;
	return 1;
}

/* The position the digits s say, from 1; 0 for one past INT_MAX / 2. */
static int lr_pos(const char *s)
{
	long v = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((v = v * 10 + (*s - '0')) > INT_MAX / 2)
			return 0;
	return (int)v;
}

/* Whether s[0..n) can be an entry's index: digits, or a word without
 * blanks, brackets or the separators of a symbol (';', ',', '·'). */
static int lr_index_ok(const char *s, size_t n)
{
	if (n == 0 || n >= 48)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (lr_blank(s[k]) || strchr("[];,", s[k]) ||
		    (k + 1 < n && memcmp(s + k, "\xC2\xB7", 2) == 0))
			return 0;
	return 1;
}

/* Cuts up to two "[IDX]" from the end of s (n bytes), into r->idx. */
static size_t lr_indices(struct lesson_ref *r, const char *s, size_t n)
{
	char got[2][48];
	int k = 0;
	while (k < 2 && n > 2 && s[n - 1] == ']') {
		size_t open = n - 1;
		while (open > 0 && s[open] != '[')
			open--;
		if (s[open] != '[' || open == 0 ||
		    !lr_index_ok(s + open + 1, n - 2 - open))
			break;
		snprintf(got[k++], sizeof got[0], "%.*s", (int)(n - 2 - open),
			 s + open + 1);
		n = open;
	}
	/* written row first: the last cut is the first index */
	for (int j = 0; j < k; j++)
		snprintf(r->idx[j], sizeof r->idx[0], "%s", got[k - 1 - j]);
	return n;
}

#define LR_ERR(at, ...) (snprintf(why, size, __VA_ARGS__), *bad = (at), -1)

/* Cuts the options scorer=NAME and model=PATH from the end of s[b..*n),
 * into r and the model's span.  Returns 0, or -1 with why and *bad. */
static int lr_options(struct lesson_ref *r, const char *s, size_t b,
		      size_t *n, size_t *model_off, size_t *model_len,
		      char *why, size_t size, size_t *bad)
{
	for (;;) {
		size_t w = *n;
		while (w > b && !lr_blank(s[w - 1]))
			w--;
		if (w == b)
			return 0;
		if (*n - w > 7 && memcmp(s + w, "scorer=", 7) == 0) {
			char name[32];
			snprintf(name, sizeof name, "%.*s", (int)(*n - w - 7),
				 s + w + 7);
			if (r->scorer >= 0 || (r->scorer = scorer_find(name)) < 0)
				return LR_ERR(w, "expected one scorer=NAME, "
					      "a scorer of 'attn-trace "
					      "scorers', found '%.*s'",
					      (int)(*n - w), s + w);
		} else if (*n - w > 7 && memcmp(s + w, "window=", 7) == 0) {
			char name[32], names[96];
			snprintf(name, sizeof name, "%.*s", (int)(*n - w - 7),
				 s + w + 7);
			if (r->window >= 0)
				return LR_ERR(w, "expected window=NAME once, "
					      "found it again");
			if ((r->window = window_find(name)) < 0)
				return LR_ERR(w + 7, "expected a window (%s) "
					      "after 'window=', found '%.*s'",
					      window_names(names, sizeof names),
					      (int)(*n - w - 7), s + w + 7);
		} else if (*n - w > 6 && memcmp(s + w, "model=", 6) == 0) {
			if (*model_len)
				return LR_ERR(w, "expected model=PATH once, "
					      "found it again");
			*model_off = w + 6;
			*model_len = *n - w - 6;
		} else {
			return 0;
		}
		*n = w;
		while (*n > b && lr_blank(s[*n - 1]))
			(*n)--;
	}
}

int lesson_ref_parse(struct lesson_ref *r, const char *s, size_t n,
		     size_t *model_off, size_t *model_len, char *why,
		     size_t size, size_t *bad)
{
	size_t b = 0;
	memset(r, 0, sizeof *r);
	r->scorer = -1;
	r->window = -1;
	r->decimals = -1;
	*model_off = *model_len = 0;
	snprintf(r->text, sizeof r->text, "%.*s", (int)n, s);
	while (b < n && lr_blank(s[b]))
		b++;
	while (n > b && lr_blank(s[n - 1]))
		n--;
	if (lr_options(r, s, b, &n, model_off, model_len, why, size,
		       bad) != 0)
		return -1;
	if (r->window >= 0 && !*model_len)
		return LR_ERR(b, "expected model=PATH beside window=NAME (the "
			      "window the other model is traced through), "
			      "found window= alone in '{%s}'", r->text);
	/* ":N", fewer decimals */
	size_t c = n;
	while (c > b && s[c - 1] >= '0' && s[c - 1] <= '9')
		c--;
	if (c < n && c > b + 1 && s[c - 1] == ':') {
		if (n - c > 2 || atoi(s + c) > NUM_MAX_PREC)
			return LR_ERR(c, "expected decimals from 0 to %d after "
				      "':', found '%.*s'", NUM_MAX_PREC,
				      (int)(n - c), s + c);
		r->decimals = atoi(s + c);
		n = c - 1;
	}
	/* "OP of SYM" */
	size_t of = 0;
	for (size_t k = b; k + 4 <= n; k++)
		if (memcmp(s + k, " of ", 4) == 0)
			of = k;
	size_t sb = of ? of + 4 : b;
	size_t end = n;
	if (of) {
		size_t oe = lr_indices(r, s + b, of - b);
		snprintf(r->op, sizeof r->op, "%.*s", (int)oe, s + b);
	} else {
		end = sb + lr_indices(r, s + sb, n - sb);
	}
	while (sb < end && lr_blank(s[sb]))
		sb++;
	if (sb >= end || (of && !r->op[0]))
		return LR_ERR(sb, "expected the name of a value of the trace, "
			      "such as {α_1,1} or {h_3[4]}, found '{%.*s}'",
			      (int)(n > b ? n - b : 0), s + b);
	if (end - sb >= sizeof r->sym)
		return LR_ERR(sb, "expected a symbol of the trace, found "
			      "'%.*s', which is too long", (int)(end - sb),
			      s + sb);
	snprintf(r->sym, sizeof r->sym, "%.*s", (int)(end - sb), s + sb);
	return 0;
}

/* The comparisons, longest first so that "<=" is not read as "<". */
static const struct { const char *s; enum lesson_cmp c; } lr_cmps[] = {
	{ "<=", LCMP_LE }, { ">=", LCMP_GE }, { "!=", LCMP_NE },
	{ "<", LCMP_LT }, { ">", LCMP_GT }, { "=", LCMP_EQ },
};

static const struct { const char *s; enum lesson_fn f; } lr_fns[] = {
	{ "argmax(", LFN_ARGMAX }, { "argmin(", LFN_ARGMIN },
	{ "max(", LFN_MAX }, { "min(", LFN_MIN }, { "sum(", LFN_SUM },
};

/* One term of a claim, s[0..n) at offset off of the claim. */
static int lr_term(struct lesson_term *t, const char *s, size_t n,
		   size_t off, size_t *moff, size_t *mlen, char *why,
		   size_t size, size_t *bad)
{
	memset(t, 0, sizeof *t);
	*moff = *mlen = 0;
	while (n > 0 && lr_blank(*s))
		s++, n--, off++;
	while (n > 0 && lr_blank(s[n - 1]))
		n--;
	char buf[64];
	snprintf(buf, sizeof buf, "%.*s", (int)n, s);
	const char *e;
	if (n > 0 && n < sizeof buf && num_parse(buf, &t->num, &e) == NUM_OK &&
	    *e == '\0') {
		t->fn = LFN_NUMBER;
		return 0;
	}
	t->fn = LFN_VALUE;
	for (size_t k = 0; k < sizeof lr_fns / sizeof lr_fns[0]; k++) {
		size_t fl = strlen(lr_fns[k].s);
		if (n > fl && memcmp(s, lr_fns[k].s, fl) == 0) {
			if (s[n - 1] != ')')
				return LR_ERR(off + n, "expected ')' closing "
					      "'%s', found the end of the "
					      "term", lr_fns[k].s);
			t->fn = lr_fns[k].f;
			s += fl;
			off += fl;
			n -= fl + 1;
			break;
		}
	}
	if (n > 0 && s[0] == '{' && s[n - 1] == '}') /* braces may be kept */
		s++, n -= 2, off++;
	if (lesson_ref_parse(&t->ref, s, n, moff, mlen, why, size, bad) != 0) {
		*bad += off;
		return -1;
	}
	*moff += *mlen ? off : 0;
	return 0;
}

int lesson_claim_parse(struct lesson_claim *c, const char *s, size_t n,
		       size_t model_off[2], size_t model_len[2], char *why,
		       size_t size, size_t *bad)
{
	memset(c, 0, sizeof *c);
	snprintf(c->text, sizeof c->text, "%.*s", (int)n, s);
	size_t at = 0, len = 0;
	for (size_t k = 0; k + 2 < n && !len; k++) {
		if (!lr_blank(s[k]))
			continue;
		for (size_t j = 0; j < sizeof lr_cmps / sizeof lr_cmps[0]; j++) {
			size_t cl = strlen(lr_cmps[j].s);
			if (k + 1 + cl < n && memcmp(s + k + 1, lr_cmps[j].s,
						     cl) == 0 &&
			    lr_blank(s[k + 1 + cl])) {
				at = k + 1;
				len = cl;
				c->cmp = lr_cmps[j].c;
				break;
			}
		}
	}
	if (!len)
		return LR_ERR(0, "expected a claim 'A OP B' with OP one of <, "
			      "<=, >, >=, =, != between blanks, found '%.*s'",
			      (int)n, s);
	if (lr_term(&c->a, s, at, 0, &model_off[0], &model_len[0], why, size,
		    bad) != 0 ||
	    lr_term(&c->b, s + at + len, n - at - len, at + len, &model_off[1],
		    &model_len[1], why, size, bad) != 0)
		return -1;
	/* the index of argmax(...) may be a word: "argmax(α_1) = je" */
	if ((c->a.fn == LFN_ARGMAX || c->a.fn == LFN_ARGMIN) &&
	    c->b.fn == LFN_VALUE && !c->b.ref.op[0] && !c->b.ref.idx[0][0] &&
	    c->b.ref.scorer < 0 && !model_len[1]) {
		c->b.fn = LFN_WORD;
		snprintf(c->b.word, sizeof c->b.word, "%.47s", c->b.ref.sym);
	}
	if (c->a.fn == LFN_NUMBER || c->a.fn == LFN_WORD)
		return LR_ERR(0, "expected a value of the trace on the left "
			      "of the claim, found the number '%s'",
			      c->text);
	return 0;
}

/* --- resolving ------------------------------------------------------- */

/* What a reference's name found, before its entry is picked. */
struct lr_found {
	const char *sym, *op;       /* what to match */
	const double *v;            /* (len) */
	int len;
	enum op_axis axis;
	char near[2][48];           /* the first and last symbol that share
	                               its prefix ("α_1", "α_5"), for a hint */
	char ops[160];              /* the operands of the symbol, for a hint */
	int near_less;              /* 1: near[] names symbols with a comma
	                               fewer ("α_1" for "α_9,3") */
};

static int lr_commas(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == ',';
	return n;
}

static int lr_prefix_len(const char *s)
{
	const char *u = strchr(s, '_');
	return u ? (int)(u - s) + 1 : (int)strlen(s);
}

static int lr_visit(void *ctx, const struct trace_rec *r, int op,
		    const double *v, int len, const struct trace_names *nm)
{
	struct lr_found *f = ctx;
	int p = lr_prefix_len(f->sym);
	/* a hint: the first and last symbol of its kind ("α_1" to "α_5") */
	if (op == -1 && strncmp(nm->symbol, f->sym, (size_t)p) == 0 &&
	    lr_prefix_len(nm->symbol) == p && !strpbrk(nm->symbol, " [") &&
	    !strstr(nm->symbol, "\xC2\xB7") &&
	    lr_commas(nm->symbol) == lr_commas(f->sym) - (f->near_less)) {
		if (!f->near[0][0])
			snprintf(f->near[0], sizeof f->near[0], "%s",
				 nm->symbol);
		snprintf(f->near[1], sizeof f->near[1], "%s", nm->symbol);
	}
	if (strcmp(nm->symbol, f->sym) != 0)
		return 0;
	if (!f->op[0]) {
		if (op != -1 || !v)
			return 0;
		f->v = v;
		f->len = len;
		f->axis = r->result_axis;
		return 1;
	}
	if (op < 0)
		return 0;
	size_t used = strlen(f->ops);
	if (used + strlen(nm->op[op]) + 3 < sizeof f->ops)
		snprintf(f->ops + used, sizeof f->ops - used, "%s%s",
			 used ? ", " : "", nm->op[op]);
	if (strcmp(nm->op[op], f->op) != 0 || !v)
		return 0;
	f->v = v;
	f->len = len;
	f->axis = r->ops[op].axis;
	return 1;
}

/* The position (from 0) that word w has on axis, or -1. */
static int lr_word(const struct trace *tr, enum op_axis axis, const char *w)
{
	const struct model *m = tr->m;
	switch (axis) {
	case AXIS_SOURCE:
		for (int k = 0; k < tr->n; k++)
			if (strcmp(m->src.words[tr->src[k]], w) == 0)
				return k;
		return -1;
	case AXIS_TARGET:
		for (int k = 0; k < tr->ntgt; k++)
			if (strcmp(m->tgt.words[tr->tgt[k]], w) == 0)
				return k;
		return -1;
	case AXIS_VOCAB:
		for (int k = 0; k < m->tgt.n; k++)
			if (strcmp(m->tgt.words[k], w) == 0)
				return k;
		return -1;
	case AXIS_NONE:
		return -1;
	}
	return -1;
}

/* The entry idx ("3" or a word) of v: 0 with *out, or -1 with why. */
static int lr_entry(const struct trace *tr, const struct lesson_ref *r,
		    const char *what, const double *v, int len,
		    enum op_axis axis, const char *idx, double *out,
		    char *why, size_t size)
{
	int k;
	if (!idx[0]) {
		if (len == 1) {
			*out = v[0];
			return 0;
		}
		snprintf(why, size, _("expected one entry of %s, which has %d "
			   "(write {%s[1]}), found '{%s}'"), what, len, what,
			 r->text);
		return -1;
	}
	if (lr_digits(idx, strlen(idx)))
		k = lr_pos(idx) - 1;
	else if ((k = lr_word(tr, axis, idx)) < 0) {
		snprintf(why, size, _("expected an entry of %s, from 1 to %d%s, "
			   "found '[%s]' in '{%s}'"), what, len,
			 axis == AXIS_SOURCE ? _(" or a word of the sentence") :
			 axis == AXIS_VOCAB ? _(" or a target word of the model")
			 : "", idx, r->text);
		return -1;
	}
	if (k < 0 || k >= len) {
		snprintf(why, size, _("expected an entry of %s from 1 to %d, "
			   "found '[%s]' in '{%s}'"), what, len, idx, r->text);
		return -1;
	}
	*out = v[k];
	return 0;
}

/* A weight of the model by its section: "{encoder.W_x[1][1]}". */
static int lr_weight(const struct trace *tr, const struct lesson_ref *r,
		     double *v, char *why, size_t size)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	struct model *m = (struct model *)tr->m; /* the table only reads */
	int n = model_param_table(m, model_scorers(m), tab);
	for (int p = 0; p < n; p++) {
		if (strcmp(tab[p].section, r->sym) != 0 || !*tab[p].slot)
			continue;
		int rows = tab[p].rows, cols = tab[p].cols;
		if (tab[p].kind == PARAM_SRC_VOCAB ||
		    tab[p].kind == PARAM_TGT_VOCAB)
			continue;
		int i = lr_pos(r->idx[0]), j = r->idx[1][0] ? lr_pos(r->idx[1])
							    : 1;
		if (rows == 1 && !r->idx[1][0])
			j = i, i = 1;
		if (!lr_digits(r->idx[0], strlen(r->idx[0])) || i < 1 ||
		    i > rows || j < 1 || j > cols) {
			snprintf(why, size, _("expected a weight of %s, %d × %d "
				   "(write {%s[ROW][COLUMN]}), found '{%s}'"),
				 r->sym, rows, cols, r->sym, r->text);
			return -1;
		}
		*v = (*tab[p].slot)[(i - 1) * cols + (j - 1)];
		return 0;
	}
	snprintf(why, size, _("expected a section of the model %s, found '%s' "
		   "in '{%s}'"), tr->m->name, r->sym, r->text);
	return -1;
}

/* The trace that reference r reads: its model='s or tr. */
static const struct trace *lr_trace(const struct lesson *l,
				    const struct lesson_ref *r,
				    const struct trace *tr)
{
	struct lesson_show sh;
	memset(&sh, 0, sizeof sh);
	sh.alt = r->alt;
	return lesson_show_trace(l, &sh, tr);
}

/* Finds the vector r names in run of t: 0, or -1 with why. */
static int lr_find(const struct trace *t, const struct lesson_ref *r,
		   int run, struct lr_found *f, char *why, size_t size)
{
	char sym[64];
	memset(f, 0, sizeof *f);
	f->sym = r->sym;
	f->op = r->op;
	if (lesson_walk(t, run, 1, lr_visit, f))
		return 0;
	/* "α_1,3" is entry 3 of α_1 when nothing is named α_1,3 */
	const char *comma = strrchr(r->sym, ',');
	if (!r->op[0] && !r->idx[0][0] && comma &&
	    lr_digits(comma + 1, strlen(comma + 1))) {
		struct lr_found g;
		memset(&g, 0, sizeof g);
		snprintf(sym, sizeof sym, "%.*s", (int)(comma - r->sym), r->sym);
		g.sym = sym;
		g.op = "";
		if (lesson_walk(t, run, 1, lr_visit, &g)) {
			*f = g;
			f->sym = NULL;
			return 1;
		}
	}
	if (!f->near[0][0] && !r->op[0] && lr_commas(r->sym) > 0) {
		struct lr_found g;
		memset(&g, 0, sizeof g);
		g.sym = r->sym;
		g.op = "\x01"; /* matches nothing: only the hint is wanted */
		g.near_less = 1;
		lesson_walk(t, run, 1, lr_visit, &g);
		memcpy(f->near, g.near, sizeof f->near);
	}
	const char *whose = run >= 0 ? trace_scorer_name(t->runs[run].scorer)
				     : "";
	if (r->op[0] && f->ops[0])
		snprintf(why, size, _("expected an operand of %s (%s), found "
			   "'%s' in '{%s}'"), r->sym, f->ops, r->op, r->text);
	else if (f->near[0][0])
		snprintf(why, size, _("expected a value of the trace, found "
			   "'{%s}' (the %s scorer's run has %s to %s)"), r->text,
			 whose, f->near[0], f->near[1]);
	else
		snprintf(why, size, _("expected a value of the trace (a symbol "
			   "the trace prints, such as h_1, s_1, e_1,1, α_1, "
			   "c_1 or p_1), found '{%s}'"), r->text);
	return -1;
}

int lesson_ref_value(const struct lesson *l, const struct lesson_ref *r,
		     const struct trace *tr, int run, double *v, char *why,
		     size_t size)
{
	const struct trace *t = lr_trace(l, r, tr);
	int why_rc = lesson_why_value(l, r, v, why, size);
	if (why_rc != 0) /* {accuracy[N]}, {exact[N]} */
		return why_rc > 0 ? 0 : -1;
	int image_rc = lesson_image_value(l, r, v, why, size);
	if (image_rc != 0) /* {l̂_1[1]}, {p[dot]}: the glimpse trace */
		return image_rc > 0 ? 0 : -1;
	if (strchr(r->sym, '.') && !r->op[0])
		return lr_weight(t, r, v, why, size);
	if (r->scorer >= 0 || run < 0)
		run = trace_run_of(t, r->scorer >= 0 ? r->scorer : l->scorer);
	else if (t != tr)
		run = trace_run_of(t, tr->runs[run].scorer);
	if (run < 0) {
		snprintf(why, size, _("expected a scorer of the lesson's trace, "
			   "found %s in '{%s}', which it lacks"),
			 trace_scorer_name(r->scorer >= 0 ? r->scorer
				 : l->scorer), r->text);
		return -1;
	}
	struct lr_found f;
	int rc = lr_find(t, r, run, &f, why, size);
	if (rc < 0)
		return -1;
	if (rc == 1) { /* "α_1,3": the entry is after the comma */
		const char *comma = strrchr(r->sym, ',');
		char sym[64];
		snprintf(sym, sizeof sym, "%.*s", (int)(comma - r->sym), r->sym);
		return lr_entry(t, r, sym, f.v, f.len, f.axis, comma + 1, v,
				why, size);
	}
	char what[140];
	snprintf(what, sizeof what, "%s%s%s", r->op, r->op[0] ? " of " : "",
		 r->sym);
	return lr_entry(t, r, what, f.v, f.len, f.axis, r->idx[0], v, why,
			size);
}

/* --- rendering ------------------------------------------------------- */

char *lesson_ref_fill(const struct lesson *l, const struct lesson_page *pg,
		      int *next, const char *text, const struct trace *tr,
		      int precision)
{
	size_t marks = 0, len = strlen(text);
	for (size_t k = 0; k < len; k++)
		marks += text[k] == LESSON_REF_MARK;
	char *out = xmalloc(len + marks * NUM_BUFSZ + 1), *o = out;
	int run = trace_run_of(tr, l->scorer);
	for (size_t k = 0; k < len; k++) {
		if (text[k] != LESSON_REF_MARK) {
			*o++ = text[k];
			continue;
		}
		const struct lesson_ref *r = *next < pg->nrefs
			? &pg->refs[(*next)++] : NULL;
		double v;
		char why[512];
		if (r && lesson_ref_value(l, r, tr, run, &v, why,
					  sizeof why) == 0)
			o += num_fixed_len(o, v, r->decimals >= 0 ? r->decimals
					   : precision);
		else
			*o++ = '?';
	}
	*o = '\0';
	return out;
}

/* --- checking -------------------------------------------------------- */

/* A claim's term in run: 0 with *v (an index from 1 for argmax), or -1
 * with why. */
static int lr_term_value(const struct lesson *l, const struct lesson_term *t,
			 const struct trace *tr, int run, double *v,
			 char *why, size_t size)
{
	if (t->fn == LFN_NUMBER) {
		*v = t->num;
		return 0;
	}
	if (t->fn == LFN_VALUE)
		return lesson_ref_value(l, &t->ref, tr, run, v, why, size);
	const struct trace *tt = lr_trace(l, &t->ref, tr);
	int rr = t->ref.scorer >= 0 ? trace_run_of(tt, t->ref.scorer)
		 : tt == tr ? run : trace_run_of(tt, tr->runs[run].scorer);
	struct lr_found f;
	int image = lesson_image_vec(l, &t->ref, &f.v, &f.len, why, size);
	if (image < 0)
		return -1;
	if (!image && (rr < 0 ||
		       lr_find(tt, &t->ref, rr, &f, why, size) != 0)) {
		if (rr < 0)
			snprintf(why, size, _("expected a run of the scorer in "
				   "'%s'"), t->ref.text);
		return -1;
	}
	double best = f.v[0], sum = 0;
	int at = 0;
	for (int k = 0; k < f.len; k++) {
		sum += f.v[k];
		if ((t->fn == LFN_ARGMIN || t->fn == LFN_MIN) ? f.v[k] < best
							       : f.v[k] > best)
			best = f.v[k], at = k;
	}
	*v = t->fn == LFN_SUM ? sum : (t->fn == LFN_MAX || t->fn == LFN_MIN)
		? best : at + 1;
	return 0;
}

/* The index a word names, on the axis of the argmax term a. */
static int lr_word_index(const struct lesson *l, const struct lesson_term *a,
			 const char *w, const struct trace *tr, int run,
			 double *v)
{
	const struct trace *tt = lr_trace(l, &a->ref, tr);
	int rr = a->ref.scorer >= 0 ? trace_run_of(tt, a->ref.scorer) : run;
	struct lr_found f;
	char why[256];
	int cls = lesson_image_word(l, &a->ref, w); /* argmax(p) = dot */
	if (cls > 0) {
		*v = cls;
		return 0;
	}
	if (rr < 0 || lr_find(tt, &a->ref, rr, &f, why, sizeof why) != 0)
		return -1;
	int k = lr_word(tt, f.axis, w);
	*v = k + 1;
	return k < 0 ? -1 : 0;
}

static int lr_holds(enum lesson_cmp c, double a, double b)
{
	switch (c) {
	case LCMP_LT: return a < b;
	case LCMP_LE: return a <= b;
	case LCMP_GT: return a > b;
	case LCMP_GE: return a >= b;
	case LCMP_EQ: return a == b;
	case LCMP_NE: return a != b;
	}
	return 0;
}

/* Evaluates claim c in run: 1 true, 0 false, -1 a term does not resolve
 * (why says which). */
static int lr_claim(const struct lesson *l, const struct lesson_claim *c,
		    const struct trace *tr, int run, double *a, double *b,
		    char *why, size_t size)
{
	if (lr_term_value(l, &c->a, tr, run, a, why, size) != 0)
		return -1;
	if (c->b.fn == LFN_WORD) {
		if (lr_word_index(l, &c->a, c->b.word, tr, run, b) != 0) {
			snprintf(why, size, _("expected a word of the vector of "
				   "'%s', found '%s'"), c->a.ref.text, c->b.word);
			return -1;
		}
	} else if (lr_term_value(l, &c->b, tr, run, b, why, size) != 0) {
		return -1;
	}
	/* equal numbers: equal as the page shows them */
	double x = *a, y = *b;
	if (c->a.fn != LFN_ARGMAX && c->a.fn != LFN_ARGMIN &&
	    (c->cmp == LCMP_EQ || c->cmp == LCMP_NE)) {
		char p[NUM_BUFSZ], q[NUM_BUFSZ];
		x = strcmp(num_fixed(p, x, 4), num_fixed(q, y, 4)) != 0;
		y = 0;
	}
	return lr_holds(c->cmp, x, y);
}

/* 0 if the terms of c (the left one alone, unless both) resolve in
 * run, else -1 with why. */
static int lr_claim_terms(const struct lesson *l,
			  const struct lesson_claim *c, int both,
			  const struct trace *tr, int run, char *why,
			  size_t size)
{
	double a, b;
	if (both)
		return lr_claim(l, c, tr, run, &a, &b, why, size) < 0 ? -1 : 0;
	return lr_term_value(l, &c->a, tr, run, &a, why, size);
}

/* The scorer a claim names with scorer=, or -1 when it names none and
 * must hold in every run. */
static int lr_pinned(const struct lesson_claim *c)
{
	const struct lesson_term *t[2] = { &c->a, &c->b };
	for (int k = 0; k < 2; k++)
		if (t[k]->fn != LFN_NUMBER && t[k]->fn != LFN_WORD &&
		    t[k]->ref.scorer >= 0)
			return t[k]->ref.scorer;
	return -1;
}

int lesson_refs_prepare(const struct lesson *l, const struct trace *tr,
			struct errbuf *err)
{
	char why[512];
	double v, w;
	int own = trace_run_of(tr, l->scorer);
	for (int p = 0; p < l->npages; p++) {
		const struct lesson_page *pg = &l->pages[p];
		for (int k = 0; k < pg->nrefs; k++) {
			const struct lesson_ref *r = &pg->refs[k];
			if (lesson_ref_value(l, r, tr, own, &v, why,
					     sizeof why) != 0) {
				err_set(err, "%s:%d:%d: %s", l->path, r->line,
					r->col, why);
				return -1;
			}
		}
		if (pg->predict && lr_claim_terms(l, &pg->predict->c,
		    pg->predict->kind == PREDICT_YESNO, tr, own, why,
		    sizeof why) != 0) {
			err_set(err, "%s:%d:%d: %s", l->path, pg->predict->line,
				pg->predict->col, why);
			return -1;
		}
		for (int k = 0; k < pg->nclaims; k++) {
			const struct lesson_claim *c = &pg->claims[k];
			if (lr_claim(l, c, tr, own, &v, &w, why,
				     sizeof why) < 0) {
				err_set(err, "%s:%d:7: %s", l->path, c->line,
					why);
				return -1;
			}
		}
	}
	return 0;
}

/* A side of a claim for a message: a position for argmax, else a
 * number at 4 decimals. */
static const char *lr_num(char *buf, double v, const struct lesson_claim *c)
{
	if (c->a.fn == LFN_ARGMAX || c->a.fn == LFN_ARGMIN) {
		snprintf(buf, NUM_BUFSZ, _("position %d"), (int)v);
		return buf;
	}
	return num_fixed(buf, v, 4);
}

int lesson_check_claims(const struct lesson *l, const struct trace *tr,
			void (*report)(void *ctx, const char *msg),
			void *ctx)
{
	int bad = 0;
	for (int p = 0; p < l->npages; p++) {
		const struct lesson_page *pg = &l->pages[p];
		for (int k = 0; k < pg->nclaims; k++) {
			const struct lesson_claim *c = &pg->claims[k];
			/* a pinned page shows the lesson's scorer alone */
			int pin = pg->pin ? l->own_scorer : lr_pinned(c);
			int own = trace_run_of(tr, pin >= 0 ? pin : l->scorer);
			for (int j = 0; j < tr->nruns; j++) {
				int run = pin >= 0 ? own : j;
				double a, b;
				char why[512], msg[1024], x[NUM_BUFSZ],
				     y[NUM_BUFSZ];
				int rc = lr_claim(l, c, tr, run, &a, &b, why,
						  sizeof why);
				if (rc == 0) {
					snprintf(msg, sizeof msg, _("%s:%d:7: "
						 "expected a claim that holds "
						 "in the %s scorer's run%s, "
						 "found '%s' false (%s against "
						 "%s)"), l->path, c->line,
						 trace_scorer_name(
						 tr->runs[run].scorer),
						 pin >= 0 ? "" : _(" (a claim "
						 "that names no scorer= holds "
						 "in every run the stepper's s "
						 "key shows)"), c->text,
						 lr_num(x, a, c), lr_num(y, b, c));
					report(ctx, msg);
					bad++;
					break;
				}
				if (pin >= 0)
					break;
			}
		}
	}
	return bad;
}

/* --- predictions ------------------------------------------------------ */

/* Where s[0..n) holds a comparison between blanks, as a claim does:
 * the offset of the blank before it, or -1. */
static int lr_cmp_at(const char *s, size_t n)
{
	for (size_t k = 0; k + 2 < n; k++)
		for (size_t j = 0; lr_blank(s[k]) &&
		     j < sizeof lr_cmps / sizeof lr_cmps[0]; j++) {
			size_t cl = strlen(lr_cmps[j].s);
			if (k + 1 + cl < n && memcmp(s + k + 1, lr_cmps[j].s,
						     cl) == 0 &&
			    lr_blank(s[k + 1 + cl]))
				return (int)k;
		}
	return -1;
}

/* s[0..n) as a name to show: without braces and ":N" decimals. */
static char *lr_shown(char *buf, size_t size, const char *s, size_t n)
{
	size_t o = 0;
	for (size_t k = 0; k < n && o + 1 < size; k++) {
		if (s[k] == '{' || s[k] == '}')
			continue;
		if (s[k] == ':' && k + 1 < n && s[k + 1] >= '0' &&
		    s[k + 1] <= '9') {
			while (k + 1 < n && s[k + 1] >= '0' && s[k + 1] <= '9')
				k++;
			continue;
		}
		buf[o++] = s[k];
	}
	buf[o] = '\0';
	return buf;
}

int lesson_predict_parse(struct lesson_predict *pr, const char *s, size_t n,
			 size_t model_off[2], size_t model_len[2], char *why,
			 size_t size, size_t *bad)
{
	struct lesson_claim *c = &pr->c;
	model_off[1] = model_len[1] = 0;
	if (lr_cmp_at(s, n) >= 0) {
		pr->kind = PREDICT_YESNO;
		return lesson_claim_parse(c, s, n, model_off, model_len, why,
					  size, bad);
	}
	memset(c, 0, sizeof *c);
	snprintf(c->text, sizeof c->text, "%.*s", (int)n, s);
	if (lr_term(&c->a, s, n, 0, &model_off[0], &model_len[0], why, size,
		    bad) != 0)
		return -1;
	if (c->a.fn == LFN_NUMBER)
		return LR_ERR(0, "expected a value of the trace to predict "
			      "(argmax(α_1), {e_1,1:1}) or a claim 'A OP B', "
			      "found the number '%s'", c->text);
	pr->kind = c->a.fn == LFN_ARGMAX || c->a.fn == LFN_ARGMIN
		   ? PREDICT_WORD : PREDICT_NUMBER;
	return 0;
}

/* q's words: those of the axis of the vector that argmax term a reads. */
static int lr_predict_words(struct predict_q *q, const struct lesson *l,
			    const struct lesson_term *a,
			    const struct trace *tr, int run, char *why,
			    size_t size)
{
	const struct trace *tt = lr_trace(l, &a->ref, tr);
	int rr = a->ref.scorer >= 0 ? trace_run_of(tt, a->ref.scorer)
		 : tt == tr ? run : trace_run_of(tt, tr->runs[run].scorer);
	struct lr_found f;
	if (rr < 0 || lr_find(tt, &a->ref, rr, &f, why, size) != 0)
		return -1;
	const struct model *m = tt->m;
	switch (f.axis) {
	case AXIS_SOURCE:
		q->names = (const char *const *)m->src.words;
		q->ids = tt->src;
		q->nwords = tt->n;
		break;
	case AXIS_TARGET:
		q->names = (const char *const *)m->tgt.words;
		q->ids = tt->tgt;
		q->nwords = tt->ntgt;
		break;
	case AXIS_VOCAB:
		q->names = (const char *const *)m->tgt.words;
		q->ids = NULL;
		q->nwords = m->tgt.n;
		break;
	case AXIS_NONE:
		snprintf(why, size, _("expected a vector over words to predict "
			   "the argmax of, found '%s', whose entries are not "
			   "words"), a->ref.text);
		return -1;
	}
	/* one right answer: no other entry ties with it as shown */
	char x[NUM_BUFSZ], y[NUM_BUFSZ];
	num_fixed(x, f.v[(int)q->expected - 1], 4);
	for (int k = 0; k < f.len; k++)
		if (k != (int)q->expected - 1 &&
		    strcmp(num_fixed(y, f.v[k], 4), x) == 0) {
			snprintf(why, size, _("expected a prediction with one "
				   "right answer, found '%s' tied between "
				   "positions %d and %d (%s)"), a->ref.text,
				 (int)q->expected, k + 1, x);
			return -1;
		}
	return 0;
}

int lesson_predict_make(struct predict_q *q, const struct lesson *l,
			const struct lesson_predict *pr,
			const struct trace *tr, int precision, char *why,
			size_t size)
{
	const struct lesson_claim *c = &pr->c;
	int run = trace_run_of(tr, l->scorer);
	double a, b;
	char x[NUM_BUFSZ], name[160];
	memset(q, 0, sizeof *q);
	q->kind = pr->kind;
	q->hint = pr->hint;
	lr_shown(q->symbol, sizeof q->symbol, c->text, strlen(c->text));
	if (run < 0) {
		snprintf(why, size, _("expected a run of the %s scorer"),
			 trace_scorer_name(l->scorer));
		return -1;
	}
	if (pr->kind == PREDICT_YESNO) {
		int rc = lr_claim(l, c, tr, run, &a, &b, why, size);
		if (rc < 0)
			return -1;
		q->expected = rc;
		snprintf(q->answer, sizeof q->answer, "%s", rc ? "yes" : "no");
		lr_shown(name, sizeof name, c->text,
			 (size_t)lr_cmp_at(c->text, strlen(c->text)));
		/* TRANSLATORS: %1$s a value's symbol, %2$s its value,
		 * %3$s the claim */
		snprintf(q->worked, sizeof q->worked, rc
			 ? _("%1$s is %2$s, so '%3$s' holds")
			 : _("%1$s is %2$s, so '%3$s' does not hold"),
			 name, lr_num(x, a, c), lr_shown(name + 80, 80,
			 c->text, strlen(c->text)));
		return 0;
	}
	if (lr_term_value(l, &c->a, tr, run, &a, why, size) != 0)
		return -1;
	q->expected = a;
	if (pr->kind == PREDICT_WORD) {
		if (lr_predict_words(q, l, &c->a, tr, run, why, size) != 0)
			return -1;
		snprintf(q->answer, sizeof q->answer, "%s",
			 predict_word(q, (int)a - 1));
		snprintf(q->worked, sizeof q->worked, "%s = %d (%s)", c->text,
			 (int)a, q->answer);
		return 0;
	}
	q->decimals = c->a.ref.decimals >= 0 ? c->a.ref.decimals : precision;
	num_fixed(q->answer, a, q->decimals);
	snprintf(q->worked, sizeof q->worked, "%s = %s",
		 lr_shown(name, sizeof name, c->text, strlen(c->text)),
		 num_fixed(x, a, precision > q->decimals ? precision
						       : q->decimals));
	return 0;
}
