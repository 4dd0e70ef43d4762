/* check_notation.c: the one table of symbols (src/notation.c).
 *
 * Every symbol the formatters print, for every variant (each built-in
 * model and the test models, every scorer they have, every window and
 * selection, teacher-forced and greedy, self- and cross-attention), must
 * be in the table: the text, Markdown and CSV traces, each record's
 * names, the diagram in text and SVG, the quiz and self-attention's own
 * text.  No two entries share a base.  doc/notation.md holds the table
 * as notation_write_md() writes it.  And the glossary finds the symbols
 * of a screen. */
#include "config.h"

#define _GNU_SOURCE 1
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagram.h"
#include "fmt.h"
#include "fmt_svg.h"
#include "glimpse.h"
#include "glimpse_fmt.h"
#include "model.h"
#include "notation.h"
#include "quiz.h"
#include "self.h"
#include "trace.h"
#include "view.h"
#include "view_key.h"
#include "window.h"
#include "selection.h"

/* ---- the unknown symbols found, with where */
static char unknown[8192];
static size_t nunknown;
static const char *where;

/* a JSON key that Markdown prints as a label, such as score_function:
 * ASCII, with a word of three letters or more after a "_" */
static int is_key(const char *tok, size_t len)
{
	int run = 0, after = 0, word = 0;
	for (size_t k = 0; k < len; k++) {
		unsigned char c = (unsigned char)tok[k];
		if (c >= 0x80)
			return 0;
		if (c == '_') {
			after = 1;
			run = 0;
		} else if (c >= 'a' && c <= 'z') {
			if (after && ++run >= 3)
				word = 1;
		} else {
			run = 0;
		}
	}
	return word;
}

static void note_token(const char *tok, size_t len, void *ctx)
{
	(void)ctx;
	if (notation_find(tok, len) >= 0 || is_key(tok, len))
		return;
	char q[80];
	snprintf(q, sizeof q, "\"%.*s\"", (int)len, tok);
	if (strstr(unknown, q))
		return; /* said already */
	nunknown++;
	size_t used = strlen(unknown);
	if (used + strlen(q) + strlen(where) + 8 < 3000)
		snprintf(unknown + used, sizeof unknown - used, "  %s in %s\n",
			 q, where);
}

/* What each matrix multiplies, by the base of the symbol right after
 * its "·" ("[" for a concatenation): W_s·s_1 (Luong's output layer on
 * the decoder state, when it is Bahdanau's U that is) fails here. */
static const struct {
	const char *m, *of;
} PRODUCTS[] = {
	{ "W_s", "|h̃|" }, { "W_c", "|[|" }, { "U", "|s|" }, { "C", "|c|" },
	{ "W_y", "|y|" }, { "W_x", "|x|y|[|φ|" }, { "W_h", "|h|s|" },
	{ "W_a", "|h|s|q|[|" }, { "U_a", "|h|" }, { "U_f", "|f|" },
	{ "W_p", "|s|q|" }, { "W_init", "|←h|" }, { "W_o", "|[|h|" },
	{ "W_Q", "|x|y|" }, { "W_K", "|x|" }, { "W_V", "|x|" },
	{ "W_O", "|z|" }, { "W_x^f", "|x|" }, { "W_x^b", "|x|" },
	{ "W_h^f", "|→h|" }, { "W_h^b", "|←h|" },
};

static int first_tok;

static void first_token(const char *tok, size_t len, void *ctx)
{
	(void)ctx;
	if (first_tok == -2)
		first_tok = notation_find(tok, len);
}

static void check_products(const char *line)
{
	static const char dot[] = "\xc2\xb7"; /* · */
	for (size_t p = 0; p < sizeof PRODUCTS / sizeof PRODUCTS[0]; p++) {
		const char *m = PRODUCTS[p].m;
		size_t n = strlen(m);
		for (const char *at = strstr(line, m); at;
		     at = strstr(at + 1, m)) {
			char before = at > line ? at[-1] : ' ';
			if (strchr("_^", before) || (before >= 'A' &&
			    before <= 'Z') || (before >= 'a' && before <= 'z') ||
			    strncmp(at + n, dot, 2) != 0)
				continue; /* part of another name, or no product */
			const char *x = at + n + 2;
			char base[40] = "|[|";
			if (*x != '[') {
				first_tok = -2;
				notation_scan(x, NOTATION_MATH, first_token, NULL);
				snprintf(base, sizeof base, "|%s|", first_tok >= 0
					 ? notation_table[first_tok].base : "?");
			}
			if (strstr(PRODUCTS[p].of, base) || strstr(unknown, line))
				continue;
			nunknown++;
			size_t used = strlen(unknown);
			if (used + strlen(line) + 80 < 3000)
				snprintf(unknown + used, sizeof unknown - used,
					 "  %s·%s: %s multiplies %s, in \"%s\"\n",
					 m, base, m, PRODUCTS[p].of, line);
		}
	}
}

static void scan_text(const char *text, enum notation_mode mode)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);
		notation_scan(line, mode, note_token, NULL);
		check_products(line);
		free(line);
		p += n + (nl != NULL);
	}
}

/* SVG: the text between the tags */
static void scan_svg(char *svg)
{
	static const char sub[] = "<tspan baseline-shift=\"sub\"";
	char *w = svg;
	int in_tag = 0, keep = 0; /* keep: the tag joins its neighbours */
	for (char *r = svg; *r; r++) {
		if (*r == '<') {
			/* a subscript is read as typed: W<sub>x</sub> is W_x */
			keep = strncmp(r, sub, sizeof sub - 1) == 0 ||
			       strncmp(r, "</tspan>", 8) == 0;
			if (strncmp(r, sub, sizeof sub - 1) == 0)
				*w++ = '_';
			in_tag = 1;
		} else if (*r == '>' && in_tag) {
			in_tag = 0;
			if (!keep)
				*w++ = ' ';
		} else if (!in_tag) {
			*w++ = *r;
		}
	}
	*w = 0;
	scan_text(svg, NOTATION_PROSE);
}

/* CSV: the symbol column (the fourth, or the fifth with a pair column) */
static void scan_csv(const char *csv, int col)
{
	const char *p = csv;
	while (*p) {
		int c = 0, q = 0;
		char cell[256];
		size_t n = 0;
		for (; *p && (*p != '\n' || q); p++) {
			if (*p == '"')
				q = !q;
			else if (*p == ',' && !q)
				c++;
			else if (c == col && n + 1 < sizeof cell)
				cell[n++] = *p;
		}
		cell[n] = 0;
		if (*p)
			p++;
		if (strcmp(cell, "symbol") != 0)
			notation_scan(cell, NOTATION_MATH, note_token, NULL);
	}
}

/* ---- running a formatter into memory */
typedef int (*fmt_fn)(FILE *, const struct trace *, const struct fmt_opts *);

static char *run_fmt(fmt_fn fn, const struct trace *tr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fmt_opts o;
	fmt_opts_default(&o);
	ck_assert(f != NULL);
	ck_assert_int_eq(fn(f, tr, &o), 0);
	fclose(f);
	return buf;
}

static int csv_fmt(FILE *f, const struct trace *tr, const struct fmt_opts *o)
{
	return fmt_csv_trace(f, tr, o, 1);
}

/* What each kind of record is: the bases its symbol may start with
 * (a record may have no symbol of its own: "").  So a symbol in the
 * table that is given to another quantity (the self-attention scores
 * written s, the decoder state's letter) fails here. */
static const char *const MEANING[REC_KIND_COUNT] = {
	[REC_EMBED] = "|x|y|",
	[REC_RNN] = "|h|s|",
	[REC_SCORE] = "|e|",
	[REC_SCORES] = "|e|",
	[REC_SOFTMAX] = "|α|align|",
	[REC_WEIGHTED] = "|α|a|",
	[REC_CONTEXT] = "|c|c^soft|",
	[REC_CONCAT] = "||",
	[REC_ATTENTIONAL] = "|h̃|",
	[REC_OUTPUT] = "|ŷ|",
	[REC_FORWARD] = "|→h|",
	[REC_BACKWARD] = "|←h|",
	[REC_ANNOTATION] = "|h|",
	[REC_INIT] = "|s|",
	[REC_QUERY] = "|s|",
	[REC_POSITION] = "|p|",
	[REC_WINDOW] = "|window|",
	[REC_GAUSS] = "|a|",
	[REC_SAMPLE] = "|c|c^soft|",
	[REC_EXACT] = "|gap|",
	[REC_GRADIENT] = "|g|",
	[REC_SAMPLES] = "|ĝ|",
	[REC_GRADPATH] = "|L|",
	[REC_X] = "|x|y|",
	[REC_PROJECT] = "|q|k|v|o|",
	[REC_HEAD_SCORES] = "|e|",
	[REC_MASK] = "|e|",
	[REC_ROW_SOFTMAX] = "|α|",
	[REC_HEAD_Z] = "|z|",
	[REC_HEADS_CONCAT] = "|z|",
};

static int first_k;

static void first_entry(const char *tok, size_t len, void *ctx)
{
	(void)ctx;
	if (first_k == -2)
		first_k = notation_find(tok, len);
}

static void check_meaning(const struct trace_rec *r, const char *symbol)
{
	char base[40];
	first_k = -2;
	notation_scan(symbol, NOTATION_MATH, first_entry, NULL);
	snprintf(base, sizeof base, "|%s|", first_k >= 0
		 ? notation_table[first_k].base : "");
	if (symbol[0] == '[')
		strcpy(base, "||"); /* a concatenation */
	if (MEANING[r->kind] && strstr(MEANING[r->kind], base))
		return;
	if (strstr(unknown, symbol))
		return; /* said already */
	nunknown++;
	size_t used = strlen(unknown);
	if (used + 200 < 3000)
		snprintf(unknown + used, sizeof unknown - used,
			 "  record kind %d's symbol \"%s\" is not one of "
			 "%s, in %s\n", r->kind, symbol, MEANING[r->kind]
			 ? MEANING[r->kind] : "(none)", where);
}

/* every name of record r, as math */
static void scan_rec(const struct trace *tr, const struct trace_rec *r)
{
	struct trace_names nm;
	char buf[256];
	trace_names(tr, r, &nm);
	check_meaning(r, nm.symbol);
		notation_scan(nm.symbol, NOTATION_MATH, note_token, NULL);
	notation_scan(nm.formula, NOTATION_MATH, note_token, NULL);
	for (int o = 0; o < r->nops; o++)
		notation_scan(nm.op[o], NOTATION_MATH, note_token, NULL);
	if (r->title) {
		trace_expand(buf, sizeof buf, r->title, tr, r);
		notation_scan(buf, NOTATION_PROSE, note_token, NULL);
	}
	if (r->note) {
		trace_expand(buf, sizeof buf, r->note, tr, r);
		notation_scan(buf, NOTATION_PROSE, note_token, NULL);
	}
}

/* every record's names; a matrix record's, those of each row */
static void scan_records(const struct trace *tr)
{
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if (tr->prog == TRACE_TRANSLATE) {
			scan_rec(tr, r);
			continue;
		}
		for (int row = 0; row < r->rows; row++) {
			struct trace_rec cell;
			trace_cell(tr, r, row, 0, &cell);
			scan_rec(tr, &cell);
		}
	}
}

/* the diagram of each step of each run, in text and SVG */
static void scan_diagrams(const struct trace *tr)
{
	for (int run = 0; run < tr->nruns; run++)
		for (int t = 1; t <= tr->runs[run].nsteps; t++) {
			struct diagram d;
			struct errbuf err;
			char **lines, *svg = NULL;
			size_t len = 0;
			if (diagram_build(&d, tr, run, t, &err) != 0)
				continue;
			int n = diagram_render(&d, 100, 0, 4, &lines);
			for (int k = 0; k < n; k++)
				notation_scan(lines[k], NOTATION_PROSE,
					      note_token, NULL);
			diagram_lines_free(lines, n);
			FILE *f = open_memstream(&svg, &len);
			diagram_svg(f, &d, 4);
			fclose(f);
			scan_svg(svg);
			free(svg);
		}
}

static void scan_quiz(const struct trace *tr)
{
	static const enum trace_stage st[] = { STAGE_SCORING, STAGE_SOFTMAX,
					       STAGE_WEIGHTED_SUM };
	for (int run = 0; run < tr->nruns; run++)
		for (size_t s = 0; s < sizeof st / sizeof st[0]; s++) {
			struct quiz_question q;
			struct errbuf err;
			char *buf = NULL;
			size_t len = 0;
			if (quiz_make(&q, tr, run, st[s], 7, 4, &err) != 0)
				continue;
			FILE *f = open_memstream(&buf, &len);
			quiz_prompt_text(f, &q);
			quiz_answer_text(f, &q);
			quiz_worked_text(f, &q);
			fclose(f);
			scan_text(buf, NOTATION_PROSE);
			free(buf);
		}
}

/* Markdown's \_ and \[ as the characters they stand for */
static void unescape_md(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++)
		if (!(r[0] == '\\' && r[1] && strchr("_[]*|`", r[1])))
			*w++ = *r;
	*w = 0;
}

/* 1: scan the stepper's screens too (one selection of each kind,
 * teacher-forced: the screens of the others are the same) */
static int heavy = 1;

/* every screen of the stepper, for each run: its narrative and body,
 * the terms shown, and the compare and diagram screens of each step */
static void scan_stepper(const struct trace *tr)
{
	struct view v;
	view_init(&v, tr, NULL, 4, 100);
	v.terms = 1;
	for (int run = 0; run < tr->nruns; run++) {
		for (int pos = 0; pos < view_count(&v); pos++) {
			struct view_screen s;
			view_goto(&v, pos);
			for (int mode = 0; mode < 2; mode++) {
				v.mode = mode ? VIEW_COMPARE : VIEW_STEP;
				view_render(&v, &s);
				scan_text(s.title, NOTATION_PROSE);
				for (int k = 0; k < s.nnarr; k++)
					scan_text(s.narr[k], NOTATION_PROSE);
				for (int k = 0; k < s.nbody; k++)
					scan_text(s.body[k], NOTATION_PROSE);
				if (s.bars_title)
					scan_text(s.bars_title, NOTATION_PROSE);
				view_screen_free(&s);
			}
			v.mode = VIEW_STEP;
		}
		view_next_scorer(&v);
	}
	view_free(&v);
}

static void scan_trace(const struct trace *tr)
{
	char *s = run_fmt(fmt_text_trace, tr);
	scan_text(s, NOTATION_PROSE);
	free(s);
	s = run_fmt(fmt_md_trace, tr);
	unescape_md(s);
	scan_text(s, NOTATION_PROSE);
	free(s);
	s = run_fmt(csv_fmt, tr);
	scan_csv(s, 3);
	free(s);
	scan_records(tr);
	if (tr->prog == TRACE_TRANSLATE) {
		/* the heatmap, as SVG and as text */
		char *buf = NULL;
		size_t len = 0;
		struct fmt_svg_opts so;
		fmt_svg_opts_default(&so);
		FILE *f = open_memstream(&buf, &len);
		fmt_svg_heatmap(f, tr, FMT_SVG_ALL_RUNS, &so);
		for (int run = 0; run < tr->nruns; run++)
			fmt_text_heatmap(f, tr, run, 4, 0);
		fclose(f);
		scan_svg(buf);
		free(buf);
		scan_diagrams(tr);
		scan_quiz(tr);
		if (heavy)
			scan_stepper(tr);
	}
}

/* the indices of words, or the first ones of the vocabulary */
static void words(const struct vocab *v, const char *const *w, int n,
		  int *out)
{
	for (int k = 0; k < n; k++) {
		out[k] = vocab_find(v, w[k]);
		if (out[k] < 0)
			out[k] = v->n - 1 - k % v->n;
	}
}

static const char *const SRC[] = { "je", "suis", "étudiant" };
static const char *const TGT[] = { "i", "am", "a", "student" };

/* Traces m with every scorer it has, under every window and selection
 * it takes, teacher-forced and greedy, and scans each; and m's weights
 * as `model` prints them. */
static void scan_model(const struct model *m, const char *name)
{
	int src[3], tgt[4];
	char *buf = NULL;
	size_t len = 0;
	struct fmt_opts fo;
	fmt_opts_default(&fo);
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(fmt_text_model(f, m, &fo), 0);
	fclose(f);
	where = name;
	scan_text(buf, NOTATION_PROSE);
	free(buf);
	words(&m->src, SRC, 3, src);
	words(&m->tgt, TGT, 4, tgt);
	for (int w = 0; w < WINDOW_COUNT; w++)
		for (int sel = 0; sel < 4; sel++)
			for (int forced = 0; forced < 2; forced++) {
				struct trace_cfg cfg = TRACE_CFG_DEFAULT;
				struct trace tr;
				struct errbuf err;
				char at[160];
				cfg.window = w;
				cfg.selection = sel ? SELECTION_hard
						    : SELECTION_soft;
				cfg.hard_rule = sel == 2;
				cfg.hard_gradient = sel == 3 && forced;
				cfg.hard_samples = sel == 3 && forced ? 3 : 0;
				cfg.seed = 5;
				cfg.grad_paths = !sel && forced ? -1 : 0;
				if (trace_build(&tr, m, src, 3,
						forced ? tgt : NULL,
						forced ? 4 : 0, model_scorers(m),
						&cfg, &err) != 0)
					continue; /* a window it cannot take */
				heavy = sel <= 1 && forced;
				snprintf(at, sizeof at, "%s, window %d, "
					 "selection %d%s", name, w, sel,
					 forced ? ", teacher-forced" : "");
				where = at;
				scan_trace(&tr);
				trace_free(&tr);
			}
}

static void scan_self(const struct model *m, int cross, int causal)
{
	struct self_opts o = { cross, causal, 1 };
	struct self_trace t;
	struct errbuf err;
	int src[3], tgt[4];
	static const char *const SRC2[] = { "zone", "économique",
					    "européenne" };
	static const char *const TGT2[] = { "european", "economic", "area",
					    "area" };
	words(&m->src, SRC2, 3, src);
	words(&m->tgt, TGT2, 3, tgt);
	ck_assert_msg(self_build(&t, m, &o, src, 3, tgt, 3, 3, &err) == 0,
		      "%s", err.msg);
	where = cross ? "cross-attention" : causal ? "causal self" : "self";
	scan_trace(&t.tr);
	for (int st = 0; st < SELF_STAGE_COUNT; st++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		self_fmt_text_stage(f, &t, st, 0, 4, 1);
		self_fmt_svg(f, &t, 3, 4);
		for (int kind = 0; kind < 3; kind++) {
			struct quiz_question q;
			if (self_quiz_make(&q, &t, kind, 1, 2, 1, 1, 4,
					   &err) != 0)
				continue;
			self_quiz_prompt_text(f, &q);
			self_quiz_worked_text(f, &q);
		}
		fclose(f);
		scan_svg(buf);
		free(buf);
	}
	self_free(&t);
}

/* The glimpse model's text trace (glimpse6 on a held-out bar, with its
 * class, so the learning lines too): every symbol it prints. */
static void scan_glimpse(void)
{
	static struct glimpse_model gm;
	static struct glimpse_trace gt;
	struct pgm_image im;
	struct errbuf err;
	char path[4096], *buf = NULL;
	size_t len = 0;
	const char *dir = getenv("srcdir");
	uint64_t rng = 5;
	snprintf(path, sizeof path, "%s/data/images/heldout/bar-x1.pgm",
		 dir ? dir : ".");
	ck_assert_msg(glimpse_model_load(&gm, GLIMPSE_BUILTIN, &err) == 0,
		      "%s", err.msg);
	ck_assert_msg(pgm_load(&im, path, &err) == 0, "%s", err.msg);
	glimpse_run(&gm, &im, GLIMPSE_SAMPLE, &rng, NULL,
		    glimpse_class_find(&gm, "bar"), &gt);
	FILE *f = open_memstream(&buf, &len);
	glimpse_fmt_text(f, &gm, GLIMPSE_BUILTIN, &im, "bar-x1.pgm", &gt, 4,
			 0);
	fclose(f);
	where = "glimpse's text trace";
	scan_text(buf, NOTATION_PROSE);
	free(buf);
}

START_TEST(test_formatters_use_only_the_table)
{
	struct model m;
	struct errbuf err;
	const char *name;
	unknown[0] = 0;
	nunknown = 0;
	for (size_t k = 0; (name = model_builtin_nth(k, NULL)) != NULL; k++) {
		ck_assert_msg(model_load_named(&m, name, &err) == 0, "%s",
			      err.msg);
		if (strcmp(name, "self4") == 0) {
			scan_self(&m, 0, 0);
			scan_self(&m, 0, 1);
			scan_self(&m, 1, 0);
		} else {
			scan_model(&m, name);
		}
		model_free(&m);
	}
	static const char *const files[] = { "tiny.model", "bahdanau.model",
					     "localp.model",
					     "localp-bahdanau.model" };
	for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
		char path[4096];
		const char *dir = getenv("srcdir");
		snprintf(path, sizeof path, "%s/tests/data/%s",
			 dir ? dir : ".", files[k]);
		ck_assert_msg(model_load_file(&m, path, &err) == 0, "%s",
			      err.msg);
		scan_model(&m, files[k]);
		model_free(&m);
	}
	scan_glimpse();
	ck_assert_msg(nunknown == 0, "%zu symbols printed that "
		      "src/notation.c does not list, or that a record of "
		      "another meaning uses:\n%s", nunknown, unknown);
}
END_TEST

/* One symbol, one meaning: no base twice, and each entry found by its
 * own base and, for an indexed one, by its base with an index. */
START_TEST(test_one_meaning_each)
{
	for (int k = 0; k < notation_count; k++) {
		const struct notation_entry *e = &notation_table[k];
		ck_assert_msg(e->name[0] && e->meaning[0], "%s", e->symbol);
		for (int j = 0; j < k; j++)
			ck_assert_msg(strcmp(e->base, notation_table[j].base),
				      "%s twice", e->base);
		ck_assert_int_eq(notation_find(e->base, strlen(e->base)), k);
		if (e->indexed) {
			char tok[64];
			snprintf(tok, sizeof tok, "%s_2,3", e->base);
			ck_assert_int_eq(notation_find(tok, strlen(tok)), k);
		}
	}
}
END_TEST

static int find(const char *s)
{
	return notation_find(s, strlen(s));
}

START_TEST(test_find)
{
	ck_assert_int_ge(find("e_1,2"), 0);
	ck_assert_int_eq(find("e_1,2"), find("e"));
	ck_assert_int_eq(find("h̃_3"), find("h̃"));
	ck_assert_int_ne(find("h̃_3"), find("h"));
	ck_assert_int_eq(find("→h_{i-1}"), find("→h"));
	ck_assert_int_eq(find("W_h^f"), find("W_h^f"));
	ck_assert_int_ne(find("W_h^f"), find("W_h"));
	ck_assert_int_eq(find("K_hᵀ"), find("K"));
	ck_assert_int_eq(find("σ²"), find("σ"));
	/* a name is not an index: W_s is not "W" at s, nor s_a an s */
	ck_assert_int_eq(find("W_q"), -1);
	ck_assert_int_eq(find("s_a"), -1);
	ck_assert_int_eq(find("W_a_1"), -1); /* W_a is never indexed */
	ck_assert_int_eq(find("S"), -1);     /* the old self scores */
}
END_TEST

static char seen[1024];

static void collect(const char *tok, size_t len, void *ctx)
{
	(void)ctx;
	size_t used = strlen(seen);
	snprintf(seen + used, sizeof seen - used, "%.*s|", (int)len, tok);
}

static const char *scan(const char *s, enum notation_mode mode)
{
	seen[0] = 0;
	notation_scan(s, mode, collect, NULL);
	return seen;
}

START_TEST(test_scan)
{
	ck_assert_str_eq(scan("e_1,2 = s_1·h_2 = 0.9765", NOTATION_PROSE),
			 "e_1,2|s_1|h_2|");
	/* prose words and a lone letter away from math are not symbols */
	ck_assert_str_eq(scan("A query sees a word, D = 2", NOTATION_PROSE),
			 "D|");
	ck_assert_str_eq(scan("(R - R̄)·(onehot_l - α_1)", NOTATION_PROSE),
			 "R|R̄|onehot_l|α_1|");
	ck_assert_str_eq(scan("q_1[h2] (zone)", NOTATION_PROSE), "q_1|[h]|");
	ck_assert_str_eq(scan("a / Σa, 2σ² and 0.5×h_2", NOTATION_PROSE),
			 "a|Σ|σ|h_2|");
	ck_assert_str_eq(scan("R = log P(y_1 | l)", NOTATION_MATH),
			 "R|P|y_1|l|");
	ck_assert_str_eq(scan("F_1 times them, term by term", NOTATION_MATH),
			 "F_1|");
	ck_assert_str_eq(scan("je → i, ← back", NOTATION_PROSE), "");
}
END_TEST

START_TEST(test_glossary)
{
	const char *screen[] = {
		"--- scoring ---",
		"e_1,2 = s_1·h_2 = 0.9765",
		"A word the decoder reads, and the context c_1",
		NULL,
	};
	int out[16];
	int n = notation_glossary(screen, 4, out, 16);
	/* in the table's order: h, s, e, c */
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(out[0], find("h"));
	ck_assert_int_eq(out[1], find("s"));
	ck_assert_int_eq(out[2], find("e"));
	ck_assert_int_eq(out[3], find("c"));
	ck_assert_int_eq(notation_glossary(screen, 4, out, 2), 2);
	const char *plain[] = { "A plain sentence, with a word or two." };
	ck_assert_int_eq(notation_glossary(plain, 1, out, 16), 0);
	char line[256];
	notation_line(line, sizeof line, find("h̃"), 6);
	ck_assert_str_eq(line, "h̃_t     attentional state: Luong's "
			 "tanh(W_c·[c_t; s_t]), what the output layer reads");
}
END_TEST

static int body_has(const struct view_screen *s, const char *start)
{
	for (int k = 0; k < s->nbody; k++)
		if (strncmp(s->body[k], start, strlen(start)) == 0)
			return 1;
	return 0;
}

/* The stepper's key x: the screen's symbols and their meanings below it,
 * and x again hides them. */
START_TEST(test_glossary_key)
{
	struct model m;
	struct errbuf err;
	struct trace tr;
	struct view v;
	struct view_screen s;
	int src[3];
	ck_assert_int_eq(model_load_named(&m, "toy4", &err), 0);
	words(&m.src, SRC, 3, src);
	ck_assert_int_eq(trace_build(&tr, &m, src, 3, NULL, 0, 1, NULL,
				     &err), 0);
	view_init(&v, &tr, NULL, 4, 80);
	view_render(&v, &s);
	ck_assert(!body_has(&s, "Symbols on this screen"));
	view_screen_free(&s);
	ck_assert_int_eq(view_key(&v, 'x'), VIEW_KEY_REDRAW);
	view_render(&v, &s);
	/* the encoder's first screen: x_1 = emb(je), h_1 = tanh(W_x·x_1 +
	 * W_h·h_0 + b) */
	ck_assert(body_has(&s, "Symbols on this screen (x hides them):"));
	ck_assert(body_has(&s, "x_i  "));
	ck_assert(body_has(&s, "h_i  "));
	ck_assert(body_has(&s, "W_x  "));
	ck_assert(!body_has(&s, "α_t,i"));
	view_screen_free(&s);
	view_key(&v, 'x');
	view_render(&v, &s);
	ck_assert(!body_has(&s, "Symbols on this screen"));
	view_screen_free(&s);
	view_free(&v);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* doc/notation.md holds, between its two marker lines, exactly what
 * notation_write_md() writes. */
START_TEST(test_doc_is_the_table)
{
	const char *dir = getenv("srcdir");
	char path[4096], *doc = NULL, *want = NULL;
	size_t dlen = 0, wlen = 0;
	snprintf(path, sizeof path, "%s/doc/notation.md", dir ? dir : ".");
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	FILE *d = open_memstream(&doc, &dlen);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, d);
	fclose(f);
	fclose(d);
	FILE *w = open_memstream(&want, &wlen);
	ck_assert_int_eq(notation_write_md(w), 0);
	fclose(w);
	const char *begin = "<!-- generated from src/notation.c: begin -->\n";
	const char *a = strstr(doc, begin), *b;
	ck_assert_msg(a != NULL, "no begin marker in %s", path);
	a += strlen(begin);
	b = strstr(a, "<!-- generated from src/notation.c: end -->");
	ck_assert_msg(b != NULL, "no end marker in %s", path);
	if ((size_t)(b - a) != wlen || memcmp(a, want, wlen) != 0) {
		FILE *o = fopen("notation-table.md", "w");
		if (o) {
			fputs(want, o);
			fclose(o);
		}
		ck_abort_msg("%s differs from the table in src/notation.c; "
			     "the table as it should be is in "
			     "notation-table.md", path);
	}
	free(doc);
	free(want);
}
END_TEST

static Suite *notation_suite(void)
{
	Suite *s = suite_create("notation");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_one_meaning_each);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_scan);
	tcase_add_test(tc, test_glossary);
	tcase_add_test(tc, test_glossary_key);
	tcase_add_test(tc, test_doc_is_the_table);
	tcase_add_test(tc, test_formatters_use_only_the_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(notation_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
