/* view_why.c: "why this number?" in the stepper, key 'w' (issue 31).
 *
 * On a trace's screen, 'w' lists the numbers the screen shows (its
 * records: each e_t,i, α_t, c_t, h̃_t, ŷ_t, h_i...).  Enter on one shows
 * its record as trace --explain writes it (its formula with its operands
 * filled in; the weights and the embedding that end the chain) and under
 * it the records it is made from, each one Enter opens in turn: a stack,
 * Backspace goes back one.  j takes the stepper to the screen that
 * computed the record picked; Esc (or w) goes back to the screen 'w' was
 * pressed on.  The walk is --explain's (fmt_explain_makers), so text and
 * stepper follow the same chain.  Only record indices are kept: the
 * trace (v->tr) may be swapped for an edited one between two keys. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "view.h"
#include "view_key.h"

#define WHY_DEPTH 64 /* records opened one in another, at most */

struct view_why {
	int depth;              /* records opened: stack[0 .. depth) */
	int stack[WHY_DEPTH];   /* their indices in v->tr->recs */
	int cur[WHY_DEPTH + 1]; /* the cursor at each depth, from 0 */
};

struct why_list {
	const struct trace *tr;
	int n;
	int k[FMT_EXPLAIN_MAX_KIDS];
};

static void why_collect(const struct trace_rec *r, void *ctx)
{
	struct why_list *l = ctx;
	if (r->result && r->len > 0 && l->n < FMT_EXPLAIN_MAX_KIDS)
		l->k[l->n++] = (int)(r - l->tr->recs);
}

/* The depth shown: w's, less any record that is not in v->tr (an
 * edited trace in its place). */
static int why_depth(const struct view *v)
{
	const struct view_why *w = v->why;
	int d = 0;
	while (d < w->depth && w->stack[d] < v->tr->nrecs)
		d++;
	return d;
}

/* The records to pick from at depth d: the frame's numbers (d 0), else
 * the makers of the record opened last. */
static void why_items(const struct view *v, int d, struct why_list *l)
{
	const struct view_why *w = v->why;
	l->tr = v->tr;
	l->n = 0;
	if (d > 0)
		l->n = fmt_explain_makers(v->tr, w->stack[d - 1], l->k);
	else
		view_frame_each(v, &v->frames[v->pos], why_collect, l);
}

/* Record k's text as --explain writes it (full: with its leaves), or
 * its first line alone, without its indent. */
static char *why_text(const struct view *v, int k, int full)
{
	struct fmt_buf b = FMT_BUF_INIT;
	struct fmt_opts o = v->fmt;
	o.terms = 1;
	if (full)
		fmt_explain_rec_buf(&b, v->tr, k, &o);
	else
		fmt_text_rec_buf(&b, v->tr, &v->tr->recs[k], &o);
	fmt_buf_putc(&b, '\0');
	char *t = b.p ? b.p : xstrdup("");
	if (!full) { /* the line that starts with its symbol (ŷ_t's comes
		       after its logits), else past a note said before it */
		struct trace_names nm;
		trace_names(v->tr, &v->tr->recs[k], &nm);
		size_t sl = strlen(nm.symbol);
		char *from = NULL, *nl = strchr(t, '\n');
		for (char *l = t; l && *l && !from; l = strchr(l, '\n'),
		     l = l ? l + 1 : NULL) {
			const char *c = l + strspn(l, " ");
			if (sl && strncmp(c, nm.symbol, sl) == 0 && c[sl] == ' ')
				from = l;
		}
		if (!from && v->tr->recs[k].note && nl && nl[1])
			from = nl + 1;
		if (from && from != t)
			memmove(t, from, strlen(from) + 1);
		size_t sp = strspn(t, " ");
		memmove(t, t + sp, strlen(t + sp) + 1);
		t[strcspn(t, "\n")] = '\0';
	}
	size_t len = strlen(t);
	while (len && t[len - 1] == '\n')
		t[--len] = '\0';
	return t;
}

struct why_lines {
	char **v;
	int n, cap;
};

/* The body of the why screen into *out; returns the line of the
 * cursor's item (-1: none). */
static int why_body(const struct view *v, struct why_lines *out)
{
	const struct view_why *w = v->why;
	int d = why_depth(v), at = -1, width = v->width > 0 ? v->width : 80;
	struct why_list l;
	why_items(v, d, &l);
	if (d > 0) {
		char *t = why_text(v, w->stack[d - 1], 1);
		view_wrap(&out->v, &out->n, &out->cap, t, width, 0);
		free(t);
		view_wrap(&out->v, &out->n, &out->cap, " ", width, 1);
		view_wrap(&out->v, &out->n, &out->cap, l.n
			  ? _("Made from (Enter: why that one?):")
			  : _("Made from nothing the trace computed: the "
			      "model's numbers above end the chain."),
			  width, 1);
	} else if (!l.n)
		view_wrap(&out->v, &out->n, &out->cap,
			  _("This screen shows no number."), width, 1);
	for (int j = 0; j < l.n; j++) {
		char *t = why_text(v, l.k[j], 0);
		char *line = xasprintf("%s %s", j == w->cur[d] ? ">" : " ", t);
		if (j == w->cur[d])
			at = out->n;
		view_wrap(&out->v, &out->n, &out->cap, line, width, 0);
		free(line);
		free(t);
	}
	return at;
}

int view_why_at(const struct view *v, int *picked)
{
	const struct view_why *w = v->why;
	*picked = -1;
	if (!w || v->mode != VIEW_WHY)
		return -1;
	int d = why_depth(v);
	struct why_list l;
	why_items(v, d, &l);
	if (w->cur[d] < l.n)
		*picked = l.k[w->cur[d]];
	return d ? w->stack[d - 1] : -1;
}

int view_why_open(struct view *v)
{
	if (v->lesson || v->mode != VIEW_STEP || v->nframes < 1)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	if (!v->why)
		v->why = xcalloc(1, sizeof(struct view_why));
	memset(v->why, 0, sizeof(struct view_why));
	v->mode = VIEW_WHY;
	v->scroll = 0;
	return VIEW_KEY_REDRAW;
}

void view_why_free(struct view *v)
{
	free(v->why);
	v->why = NULL;
}

/* Scrolls so that the cursor's line is on the screen (v->rows, the body
 * rows of the last draw; the last says "more below"). */
static void why_follow(struct view *v)
{
	struct why_lines b = { 0 };
	int at = why_body(v, &b);
	for (int k = 0; k < b.n; k++)
		free(b.v[k]);
	free(b.v);
	if (at < 0 || v->rows < 3)
		return;
	if (at < v->scroll)
		v->scroll = at;
	else if (at > v->scroll + v->rows - 2)
		v->scroll = at - (v->rows - 2);
}

/* The frame that shows record k: its stage, step and word; -1 if none. */
struct why_find {
	const struct trace_rec *r;
	int found;
};
static void why_match(const struct trace_rec *r, void *ctx)
{
	struct why_find *f = ctx;
	f->found |= r == f->r;
}
static int why_frame(const struct view *v, int k)
{
	for (int p = 0; p < v->nframes; p++) {
		struct why_find f = { &v->tr->recs[k], 0 };
		if (v->frames[p].stage != v->tr->recs[k].stage)
			continue;
		view_frame_each(v, &v->frames[p], why_match, &f);
		if (f.found)
			return p;
	}
	return -1;
}

int view_why_key(struct view *v, int key)
{
	struct view_why *w = v->why;
	w->depth = why_depth(v);
	int d = w->depth;
	struct why_list l;
	why_items(v, d, &l);
	if (w->cur[d] >= l.n)
		w->cur[d] = l.n ? l.n - 1 : 0;
	switch (key) {
	case 'q': case 'Q':
		return VIEW_KEY_QUIT;
	case 27: case 'w': /* back to the screen 'w' was pressed on */
		v->mode = VIEW_STEP;
		v->scroll = 0;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_UP: case VIEW_KEY_DOWN:
		if (key == VIEW_KEY_UP ? w->cur[d] == 0 : w->cur[d] + 1 >= l.n)
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
		w->cur[d] += key == VIEW_KEY_UP ? -1 : 1;
		why_follow(v);
		return VIEW_KEY_REDRAW;
	case '\n': case '\r': case VIEW_KEY_ENTER:
		if (!l.n || d >= WHY_DEPTH)
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
		w->stack[w->depth++] = l.k[w->cur[d]];
		w->cur[w->depth] = 0;
		v->scroll = 0;
		why_follow(v);
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_BACKSPACE: case 127: case '\b':
		if (!d)
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
		w->depth--;
		v->scroll = 0;
		why_follow(v);
		return VIEW_KEY_REDRAW;
	case 'j': { /* the stepper to the screen that computed it */
		int k = l.n ? l.k[w->cur[d]] : d ? w->stack[d - 1] : -1;
		int p = k >= 0 ? why_frame(v, k) : -1;
		if (p < 0)
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
		view_goto(v, p);
		v->mode = VIEW_STEP;
		v->scroll = 0;
		return VIEW_KEY_REDRAW;
	}
	case VIEW_KEY_NPAGE:
		v->scroll += v->page_rows;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_PPAGE:
		v->scroll = v->scroll > v->page_rows ? v->scroll - v->page_rows
						     : 0;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_RESIZE:
		return VIEW_KEY_REDRAW;
	default:
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	}
}

void view_why_render(const struct view *v, struct view_screen *s)
{
	const struct view_why *w = v->why;
	int d = why_depth(v);
	struct why_lines b = { 0 };
	why_body(v, &b);
	s->stage = -1;
	if (d > 0) {
		struct trace_names nm;
		trace_names(v->tr, &v->tr->recs[w->stack[d - 1]], &nm);
		s->where = xasprintf(_("why this number? %s (%d deep)"),
				     nm.symbol, d);
	} else
		s->where = xstrdup(_("why this number? the numbers of this "
				     "screen"));
	s->nbody = b.n;
	s->body = b.v;
	s->keys = xstrdup(_("up/down pick  Enter why?  j go there  "
			    "Backspace back  Esc leave  q quit"));
}
