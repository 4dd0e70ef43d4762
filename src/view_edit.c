/* view_edit.c: what-if edits in the stepper (keys e, u and R).
 *
 * An edit is a --set of the command line made from the screen: the name
 * of a value the screen shows ("step[1].scores[2]") and a number typed.
 * The view cannot trace, so the CLI's retrace (view.h) traces the
 * sentence again with every edit in force; the view shows that trace in
 * place of the first one, each number the edits changed with its old
 * value in a "was" line under it (fmt_mark_changes, as the text trace
 * marks --set).  u takes the last edit back, R all of them. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "num.h"
#include "util.h"
#include "view_key.h"
#include "whatif.h"

#define EDIT_INPUT 32 /* the longest number typed */

struct view_edit {
	const struct trace *base; /* the trace without the edits (borrowed) */
	struct trace *cur;        /* the trace with them (retrace's), or NULL */
	char *args[WHATIF_MAX];   /* the edits in force, "NAME=VALUE" */
	int nargs;
	int open;                 /* the edit line takes the keys */
	int cursor;               /* the value chosen among the screen's */
	char input[EDIT_INPUT];   /* the number typed so far */
	char *msg;                /* why the last number was refused, or NULL */
};

/* One value of the screen that an edit can set. */
struct edit_item {
	enum whatif_what what;
	int index;                /* from 0 */
	double value;
	char name[96];            /* WHATIF_MODEL's: its --set name,
				     "source[je][2]", "general.W[1][3]" */
};

/* The last record of stage st at step t of v's run whose result has len
 * entries, or NULL. */
static const struct trace_rec *edit_rec(const struct view *v,
					enum trace_stage st, int t, int len)
{
	const struct trace *tr = v->tr;
	const struct trace_run *ru = &tr->runs[v->run];
	const struct trace_rec *found = NULL;
	if (t < 1 || t > ru->nsteps)
		return NULL;
	int first = ru->step_first[t - 1];
	int end = t < ru->nsteps ? ru->step_first[t] : ru->first_rec + ru->nrecs;
	for (int k = first; k < end; k++)
		if (tr->recs[k].stage == st && tr->recs[k].len == len &&
		    tr->recs[k].result)
			found = &tr->recs[k];
	return found;
}

/* Appends the entries of the record of stage st (len of them) as values
 * what; returns the new count. */
static int edit_add(const struct view *v, struct edit_item *it, int n,
		    int max, enum trace_stage st, int t, enum whatif_what what,
		    int len)
{
	const struct trace_rec *r = edit_rec(v, st, t, len);
	for (int k = 0; r && k < len && n < max; k++) {
		it[n].what = what;
		it[n].index = k;
		it[n++].value = r->result[k];
	}
	return n;
}

/* Appends the embedding of word w of vocabulary voc (section "source"
 * or "target") as the model's numbers; returns the new count. */
static int edit_add_emb(const struct view *v, struct edit_item *it, int n,
			int max, const char *section, const struct vocab *voc,
			int w)
{
	int E = v->tr->m->E;
	const char *word = voc->words[w];
	char row[80];
	if (strpbrk(word, "[]=") || strlen(word) > 60) /* by its number */
		snprintf(row, sizeof row, "%d", w + 1);
	else
		snprintf(row, sizeof row, "%s", word);
	for (int k = 0; k < E && n < max; k++) {
		it[n].what = WHATIF_MODEL;
		it[n].index = k;
		it[n].value = voc->emb[(size_t)w * (size_t)E + (size_t)k];
		snprintf(it[n++].name, sizeof it->name, "%.8s[%.60s][%d]", section,
			 row, k + 1);
	}
	return n;
}

/* Appends every number of the weights of the run's scorer (general.W,
 * concat.W and v, ...), row by row; returns the new count. */
static int edit_add_scorer(const struct view *v, struct edit_item *it, int n,
			   int max)
{
	static struct model_param tab[MODEL_MAX_PARAMS];
	int sc = (int)v->tr->runs[v->run].scorer;
	/* the table only reads m: where each section is kept, and its shape */
	int np = model_param_table((struct model *)v->tr->m, 1u << sc, tab);
	for (int p = 0; p < np; p++) {
		const struct model_param *e = &tab[p];
		if (e->scorer != sc || !*e->slot)
			continue;
		for (int r = 0; r < e->rows; r++)
			for (int c = 0; c < e->cols && n < max; c++) {
				it[n].what = WHATIF_MODEL;
				it[n].index = r * e->cols + c;
				it[n].value = (*e->slot)[r * e->cols + c];
				if (e->vector)
					snprintf(it[n].name, sizeof it->name,
						 "%.47s[%d]", e->section, c + 1);
				else
					snprintf(it[n].name, sizeof it->name,
						 "%.47s[%d][%d]", e->section, r + 1,
						 c + 1);
				n++;
			}
	}
	return n;
}

/* The values of the screen shown that an edit can set, into it (max);
 * returns how many: at the scoring the scores e_t and the state s_t,
 * then the scorer's weights; the weights α_t; the context c_t; at the
 * decoder the state s_t, then the embedding of the word it reads; in the
 * encoder, the embedding of the word it reads. */
static int edit_items(const struct view *v, struct edit_item *it, int max)
{
	const struct view_frame *fr = &v->frames[v->pos];
	const struct trace *tr = v->tr;
	int n = 0, H = tr->m->H, len = tr->n;
	switch (fr->stage) {
	case STAGE_SCORING:
		n = edit_add(v, it, n, max, STAGE_SCORING, fr->t,
			     WHATIF_SCORES, len);
		n = edit_add(v, it, n, max, STAGE_DECODER, fr->t,
			     WHATIF_STATE, H);
		n = edit_add_scorer(v, it, n, max);
		break;
	case STAGE_ENCODING:
		if (!tr->enc && fr->i >= 1 && fr->i <= tr->n) /* words, not
							   an image's cells */
			n = edit_add_emb(v, it, n, max, "source", &tr->m->src,
					 tr->src[fr->i - 1]);
		break;
	case STAGE_SOFTMAX:
		n = edit_add(v, it, n, max, STAGE_SOFTMAX, fr->t,
			     WHATIF_WEIGHTS, len);
		break;
	case STAGE_WEIGHTED_SUM:
		n = edit_add(v, it, n, max, STAGE_WEIGHTED_SUM, fr->t,
			     WHATIF_CONTEXT, H);
		break;
	case STAGE_DECODER:
		n = edit_add(v, it, n, max, STAGE_DECODER, fr->t,
			     WHATIF_STATE, H);
		if (fr->t >= 1 && fr->t <= tr->runs[v->run].nsteps)
			n = edit_add_emb(v, it, n, max, "target", &tr->m->tgt,
					 tr->runs[v->run].input[fr->t - 1]);
		break;
	default:
		break;
	}
	return n;
}

#define EDIT_MAX_ITEMS (2 * TRACE_MAX_TOKENS + 1024)

/* The --set name of item it at step t. */
static void edit_name(char *buf, size_t size, const struct edit_item *it,
		      int t)
{
	if (it->what == WHATIF_MODEL)
		snprintf(buf, size, "%s", it->name);
	else
		snprintf(buf, size, "step[%d].%s[%d]", t,
			 whatif_keys[it->what - 1].key, it->index + 1);
}

/* Shows the trace of the edits in force (args[0 .. n)), or the unedited
 * one for none; returns 0, or -1 with err (nothing changed). */
static int edit_retrace(struct view *v, struct view_edit *e, int n,
			struct errbuf *err)
{
	struct trace *tr = NULL;
	if (n > 0) {
		tr = v->retrace->make(v->retrace->ctx,
				      (const char *const *)e->args, n, err);
		if (!tr)
			return -1;
	}
	view_swap_trace(v, tr ? tr : e->base);
	if (e->cur)
		v->retrace->free(v->retrace->ctx, e->cur);
	e->cur = tr;
	return 0;
}

int view_edit_open(struct view *v)
{
	struct edit_item it[1];
	if (!v->retrace || v->lesson || v->mode != VIEW_STEP ||
	    edit_items(v, it, 1) == 0)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	struct view_edit *e = v->edit;
	if (!e) {
		e = v->edit = xcalloc(1, sizeof *e);
		e->base = v->tr;
	}
	e->open = 1;
	e->cursor = 0;
	e->input[0] = '\0';
	free(e->msg);
	e->msg = NULL;
	v->scroll = 0; /* the edit line is at the top */
	return VIEW_KEY_REDRAW;
}

/* Sets the value chosen to the number typed. */
static int edit_apply(struct view *v, struct view_edit *e)
{
	struct edit_item *it = xmalloc(EDIT_MAX_ITEMS * sizeof *it);
	int n = edit_items(v, it, EDIT_MAX_ITEMS);
	struct errbuf err;
	char name[112];
	if (!e->input[0] || n == 0 || e->nargs == WHATIF_MAX) {
		free(it);
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	}
	if (e->cursor >= n)
		e->cursor = n - 1;
	edit_name(name, sizeof name, &it[e->cursor], v->frames[v->pos].t);
	free(it);
	e->args[e->nargs] = xasprintf("%s=%s", name, e->input);
	free(e->msg);
	e->msg = NULL;
	if (edit_retrace(v, e, e->nargs + 1, &err) != 0) {
		free(e->args[e->nargs]);
		e->msg = xstrdup(err.msg); /* the number stays, to mend */
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	}
	e->nargs++;
	e->input[0] = '\0';
	return VIEW_KEY_REDRAW;
}

int view_edit_key(struct view *v, int key)
{
	struct view_edit *e = v->edit;
	if (!e || !e->open)
		return -1;
	size_t len = strlen(e->input);
	int n;
	switch (key) {
	case 27:
		e->open = 0;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_RESIZE:
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_NPAGE: case VIEW_KEY_PPAGE: /* the body scrolls, so
		the numbers below the line can be seen while editing */
		return -1;
	case VIEW_KEY_UP:
	case VIEW_KEY_DOWN:
	case '\t': {
		struct edit_item *all = xmalloc(EDIT_MAX_ITEMS * sizeof *all);
		n = edit_items(v, all, EDIT_MAX_ITEMS);
		free(all);
		if (n > 0)
			e->cursor = (e->cursor + (key == VIEW_KEY_UP ? n - 1 : 1))
				    % n;
		return VIEW_KEY_REDRAW;
	}
	case '\n': case '\r': case VIEW_KEY_ENTER:
		return edit_apply(v, e);
	case VIEW_KEY_BACKSPACE: case 127: case '\b':
		if (!len)
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
		e->input[len - 1] = '\0';
		return VIEW_KEY_REDRAW;
	case 'u':
		return view_edit_undo(v);
	case 'R':
		return view_edit_reset(v);
	default:
		break;
	}
	if (key >= 0 && key <= 0xff && key && strchr("0123456789.-+e", key) &&
	    len + 1 < sizeof e->input) {
		e->input[len] = (char)key;
		e->input[len + 1] = '\0';
		return VIEW_KEY_REDRAW;
	}
	return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
}

int view_edit_undo(struct view *v)
{
	struct view_edit *e = v->edit;
	struct errbuf err;
	if (!e || !e->nargs)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	free(e->msg);
	e->msg = NULL;
	if (edit_retrace(v, e, e->nargs - 1, &err) != 0) {
		e->msg = xstrdup(err.msg);
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	}
	free(e->args[--e->nargs]);
	return VIEW_KEY_REDRAW;
}

int view_edit_reset(struct view *v)
{
	struct view_edit *e = v->edit;
	struct errbuf err;
	if (!e || !e->nargs)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	edit_retrace(v, e, 0, &err); /* the unedited trace: no retrace */
	while (e->nargs > 0)
		free(e->args[--e->nargs]);
	free(e->msg);
	e->msg = NULL;
	return VIEW_KEY_REDRAW;
}

void view_edit_free(struct view *v)
{
	struct view_edit *e = v->edit;
	if (!e)
		return;
	v->tr = e->base;
	if (e->cur)
		v->retrace->free(v->retrace->ctx, e->cur);
	while (e->nargs > 0)
		free(e->args[--e->nargs]);
	free(e->msg);
	free(e);
	v->edit = NULL;
}

/* Text that fn(f, ...) writes, newly allocated, its length in *len. */
static char *edit_capture(const struct trace *tr, const struct trace_rec *r,
			  const struct fmt_opts *o, size_t *len)
{
	char *p = NULL;
	*len = 0;
	FILE *f = open_memstream(&p, len);
	if (!f)
		return NULL;
	fmt_text_rec(f, tr, r, o);
	fclose(f);
	return p;
}

void view_edit_rec(FILE *f, const struct view *v, const struct trace_rec *r,
		   const struct fmt_opts *o)
{
	const struct view_edit *e = v->edit;
	const struct trace *base = e && e->cur ? e->base : NULL;
	long k = r - v->tr->recs;
	const struct trace_rec *rb = base && k >= 0 && k < base->nrecs
				     ? &base->recs[k] : NULL;
	if (!rb || rb->kind != r->kind || rb->stage != r->stage ||
	    rb->run != r->run || rb->t != r->t || rb->i != r->i) {
		fmt_text_rec(f, v->tr, r, o);
		return;
	}
	size_t nlen, olen;
	char *now = edit_capture(v->tr, r, o, &nlen);
	char *old = edit_capture(base, rb, o, &olen);
	if (now) {
		struct fmt_buf b = FMT_BUF_INIT;
		fmt_buf_put(&b, now, nlen);
		if (old)
			fmt_mark_changes(&b, 0, old, olen);
		fmt_set_notes(&b, v->tr, r, o->precision, 0);
		fwrite(b.p, 1, b.len, f);
		fmt_buf_free(&b);
	}
	free(now);
	free(old);
}

/* The source word of the largest weight of α_t in run of tr, or NULL. */
static const char *edit_best(const struct trace *tr, int run, int t)
{
	const struct trace_rec *r = run < tr->nruns
				    ? trace_find(tr, REC_SOFTMAX, run, t, 0)
				    : NULL;
	int best = 0;
	if (!r || r->len < 1 || r->len > tr->n || tr->enc) /* an image's
							      cells: no words */
		return NULL;
	for (int i = 1; i < r->len; i++)
		if (r->result[i] > r->result[best])
			best = i;
	return tr->m->src.words[tr->src[best]];
}

/* Which word the edits make win at this step: a line "largest weight
 * at t=T: WORD (unedited: WORD)", from the traces' α_t. */
static void edit_winner(FILE *f, const struct view *v,
			const struct view_edit *e)
{
	int t = v->frames[v->pos].t;
	const char *now = t >= 1 ? edit_best(v->tr, v->run, t) : NULL;
	const char *was = t >= 1 ? edit_best(e->base, v->run, t) : NULL;
	if (now && was)
		/* TRANSLATORS: %1$d the step t, %2$s and %3$s source words */
		fprintf(f, _("largest weight at t=%1$d: %2$s (unedited: "
			     "%3$s)\n"), t, now, was);
}

/* The goal's line (tui --goal): whether source word v->goal_i has the
 * largest weight at step v->goal_t in the trace shown, with the weights
 * that decide it, read from the trace. */
static void edit_goal(FILE *f, const struct view *v)
{
	const struct trace *tr = v->tr;
	int t = v->goal_t, g = v->goal_i - 1;
	const struct trace_rec *r = NULL;
	if (t >= 1 && t <= tr->runs[v->run].nsteps) {
		r = trace_find(tr, REC_GAUSS, v->run, t, 0); /* as
						trace_weights() picks */
		if (!r)
			r = trace_find(tr, REC_SOFTMAX, v->run, t, 0);
	}
	/* a weight for each source word, or no line (a window's softmax
	 * over fewer) */
	const double *w = r && r->result && r->len == tr->n ? r->result
							   : NULL;
	char a[NUM_BUFSZ], b[NUM_BUFSZ];
	if (!w || g < 0 || g >= tr->n)
		return;
	int best = 0;
	for (int i = 1; i < tr->n; i++)
		if (w[i] > w[best])
			best = i;
	const char *word = tr->m->src.words[tr->src[g]];
	if (best == g) /* the largest: a tie with another is not a win */
		for (int i = 0; i < tr->n; i++)
			if (i != g && w[i] == w[g])
				best = i;
	if (best == g)
		/* TRANSLATORS: %1$s a source word, %2$d the step t, %3$d the
		 * word's place, %4$s its weight */
		fprintf(f, _("goal reached: %1$s has the largest weight at "
			     "t=%2$d, α_%2$d,%3$d = %4$s\n"), word, t, g + 1,
			fmt_num(a, w[g], v->fmt.precision));
	else
		/* TRANSLATORS: %1$s a source word, %2$d the step t, %3$d its
		 * place, %4$s its weight, %5$s the word that has the largest
		 * one, %6$d that word's place, %7$s its weight */
		fprintf(f, _("goal: make %1$s the largest weight at t=%2$d; "
			     "not yet: α_%2$d,%3$d = %4$s, but %5$s has "
			     "α_%2$d,%6$d = %7$s (e edits a number)\n"), word, t,
			g + 1, fmt_num(a, w[g], v->fmt.precision),
			tr->m->src.words[tr->src[best]], best + 1,
			fmt_num(b, w[best], v->fmt.precision));
}

char *view_edit_text(const struct view *v)
{
	const struct view_edit *e = v->edit;
	if (v->goal_t && v->frames[v->pos].t >= 1 && (!e || !e->nargs) &&
	    (!e || !e->open)) { /* a goal, no edit yet */
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (!f)
			return NULL;
		edit_goal(f, v);
		fputc('\n', f);
		fclose(f);
		return text;
	}
	if (!e || (!e->open && !e->nargs))
		return NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (e->open) {
		struct edit_item *it = xmalloc(EDIT_MAX_ITEMS * sizeof *it);
		int n = edit_items(v, it, EDIT_MAX_ITEMS);
		int c = e->cursor < n ? e->cursor : n - 1;
		char name[112], num[64];
		if (n > 0) {
			edit_name(name, sizeof name, &it[c],
				  v->frames[v->pos].t);
			/* TRANSLATORS: %1$s a value's --set name, %2$s its
			 * value, %3$d of %4$d its place among the screen's */
			fprintf(f, _("edit > %1$s = %2$s   (up/down: %3$d of "
				     "%4$d)\n"), name,
				fmt_num(num, it[c].value, v->fmt.precision),
				c + 1, n);
			fprintf(f, _("new value> %s_\n"), e->input);
		} else
			fprintf(f, "%s\n", _("no value on this screen to edit"));
		free(it);
		if (e->msg)
			fprintf(f, "%s\n", e->msg);
	}
	if (e->nargs) {
		fputs(_("edits (u undoes, R resets):"), f);
		for (int k = 0; k < e->nargs; k++)
			fprintf(f, " --set %s", e->args[k]);
		fputc('\n', f);
		if (v->goal_t)
			edit_goal(f, v);
		else
			edit_winner(f, v, e);
	}
	if (e->open && !e->nargs && v->goal_t)
		edit_goal(f, v);
	fputc('\n', f);
	fclose(f);
	return text;
}

char *view_edit_keys(const struct view *v)
{
	const struct view_edit *e = v->edit;
	if (!e || !e->open || v->mode != VIEW_STEP)
		return NULL;
	return xstrdup(_("up/down choose  type, Enter sets  PgDn scroll  "
			 "u undo  R reset  Esc close"));
}
