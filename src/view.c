/* view.c: what each screen of the stepper shows, without curses. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "caption.h"
#include "i18n.h"
#include "num.h"
#include "diagram.h"
#include "notation.h"
#include "window.h"
#include "utf8.h"
#include "view.h"
#include "linebreak.h"

const char *const view_stage_titles[STAGE_COUNT] = {
	N_("encoding"), N_("decoder"), N_("scoring"), N_("softmax"),
	N_("weighted sum"), N_("concatenation"), N_("output")
};

/* The titles the strip falls back on when the full ones do not fit. */
static const char *const stage_short[STAGE_COUNT] = {
	N_("encoding"), N_("decoder"), N_("scoring"), N_("softmax"),
	N_("weighted sum"), N_("concat"), N_("output")
};

/* The translation of a line of help (src/i18n.h); "" stays "", for
 * gettext would give the catalogue's header. */
static const char *view_tr(const char *s)
{
	return *s ? _(s) : s;
}

const char *const view_help[] = {
	N_("Keys"),
	"",
	N_("  right, space        next screen; on a lesson page, scroll down first"),
	N_("  left, backspace     previous screen; on a lesson page, scroll up first"),
	N_("  n, p                next, previous screen at once"),
	N_("  Home, End           first and last screen"),
	N_("  g then 1-%d          a stage at this step; in a lesson, a page (Enter"),
	N_("                      ends a number that could go on)"),
	N_("  s                   next scorer: %s"),
	N_("  c                   compare the scorers at this step (left, right: a step)"),
	N_("  a                   the next architecture (tui --arch=all)"),
	N_("  m                   the alignment heatmap of this scorer"),
	N_("  t                   show or hide the term-by-term arithmetic (a lesson"),
	N_("                      page folds it if it is longer than the screen)"),
	N_("  c, m, d             in a self-attention lesson: its stages, weights,"),
	N_("                      line diagram (r row, h head, Esc the page)"),
	N_("  d                   the picture of this step (left, right: a step)"),
	N_("  z                   a quiz: compute a value of this step by hand"),
	N_("  w                   why this number? a number of this screen, its"),
	N_("                      formula and what it is made from (Enter on one"),
	N_("                      opens it, Backspace back, j goes to its screen)"),
	N_("  z or Enter          on a lesson page that asks for a prediction:"),
	N_("                      type it, then Enter; the numbers follow"),
	N_("  x                   show or hide the symbols of this screen and "
	   "what they mean"),
	N_("  e                   edit a number of this screen (--set): choose it,"),
	N_("                      type a value, Enter; all is traced again"),
	N_("  u, R                undo the last edit, all the edits"),
	N_("  up, down, PgUp, PgDn scroll a long screen"),
	N_("  ? or h              this help"),
	N_("  q                   quit (Esc leaves help, compare and heatmap)"),
	"",
	/* TRANSLATORS: %t is not printf's: the stages' names go there */
	/* xgettext:no-c-format */
	N_("Stages, in the order of a step: %t."),
	N_("Press any key to go back."),
	NULL
};

const char *const view_help_present[] = {
	N_("  Presentation mode:"),
	N_("  b                   blank the screen; any key brings it back"),
	N_("  space               pause or resume the autoplay (--autoplay)"),
	"",
	NULL
};

/* A growing list of strings. */
struct strlist {
	int n, cap;
	char **v;
};

static void sl_push(struct strlist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xreallocarray(l->v, (size_t)l->cap, sizeof *l->v);
	}
	l->v[l->n++] = s;
}

/* Columns taken by the grapheme cluster at p, which is
 * linebreak_cluster_len(p) bytes long: a byte that starts no valid
 * sequence counts one. */
static int u8_cols(const char *p)
{
	return utf8_width_n(p, linebreak_cluster_len(p));
}

/* How a line is wrapped: prose breaks between words but not inside a
 * formula; arithmetic breaks before " + " or before a vector's '['.
 * Both break beside CJK characters too, as linebreak.h says. */
enum wrap_kind { WRAP_PROSE, WRAP_ARITH };

/* Where the piece of text from p that fits in room columns (lead of them
 * taken) should end: the end of the text if it fits; else, for prose, the
 * last space or break beside a CJK character outside parentheses and
 * away from '=', '+' and '×'; for arithmetic, the last " + ", else the
 * space before a '[' that then fits whole, else the last space or CJK
 * break; else anywhere between two grapheme clusters. */
static const char *wrap_break(const char *p, int lead, int room,
			      enum wrap_kind kind)
{
	int cols = lead, depth = 0;
	const char *q = p, *prev = NULL, *space = NULL, *good = NULL,
		   *plus = NULL, *brack = NULL;
	for (; *q; prev = q, q += linebreak_cluster_len(q)) {
		if (prev && linebreak_between(prev, q)) {
			space = q;
			if (depth == 0)
				good = q;
		}
		if (cols + u8_cols(q) > room)
			break;
		if (*q == '(' || *q == '[')
			depth++;
		else if ((*q == ')' || *q == ']') && depth > 0)
			depth--;
		if (*q == ' ' && q > p) {
			space = q;
			if (q[1] == '+' && q[2] == ' ')
				plus = q;
			if (q[1] == '[' && depth == 0)
				brack = q;
			if (depth == 0 && !strchr("=+", q[-1]) &&
			    !strchr("=+", q[1]) && strncmp(q + 1, "×", 2) &&
			    (q - p < 2 || strncmp(q - 2, "×", 2)))
				good = q;
		}
		cols += u8_cols(q);
	}
	if (!*q)
		return q;
	/* a vector that would fit whole on the next line goes there */
	if (brack && utf8_width(brack + 1) > room - lead)
		brack = NULL;
	const char *brk = kind == WRAP_PROSE ? (good ? good : space)
			: plus ? plus : brack ? brack : space;
	return brk ? brk : q;
}

/* The widest run of padding in line (three spaces or more, after the
 * first word), or NULL; its length in *len. */
static const char *pad_run(const char *line, size_t *len)
{
	const char *run = NULL, *p = line;
	*len = 0;
	while (*p == ' ')
		p++;
	while (*p) {
		size_t n = strspn(p, " ");
		if (n >= 3 && n > *len) {
			*len = n;
			run = p;
		}
		p += n ? n : 1;
	}
	return run;
}

/* The columns by which lines padded to a column (the text trace pads its
 * labels to one) overrun width at most: what squeeze() takes out of each
 * line's padding, so that a short vector does not wrap at 80 columns and
 * the columns of a block stay aligned. */
static int squeeze_cols(const char *text, int width)
{
	int over = 0;
	const char *p = text;
	while (*p) {
		size_t len = strcspn(p, "\n"), run;
		char *line = xstrndup(p, len);
		int w = utf8_width(line) - width;
		if (pad_run(line, &run) && w > over)
			over = w;
		free(line);
		p += len + (p[len] ? 1 : 0);
	}
	return over;
}

/* line with cut spaces taken out of its padding, leaving two at least.
 * Caller frees. */
static char *squeeze(const char *line, int cut)
{
	size_t run;
	const char *at = pad_run(line, &run);
	if (!at || cut <= 0)
		return xstrdup(line);
	size_t n = (size_t)cut < run - 2 ? (size_t)cut : run - 2;
	char *s = xmalloc(strlen(line) + 1);
	memcpy(s, line, (size_t)(at - line));
	strcpy(s + (at - line), at + n);
	return s;
}

/* Appends line to l, wrapped at width columns; continuation lines start
 * with indent spaces. */
static void wrap_push(struct strlist *l, const char *line, int width,
		      int indent, enum wrap_kind kind, int cut)
{
	char *text = squeeze(line, cut);
	const char *p = text;
	int lead = 0;
	if (!*text)
		sl_push(l, xstrdup(""));
	while (*p) {
		int room = width > lead + 8 ? width : lead + 8;
		const char *brk = wrap_break(p, lead, room, kind);
		if (brk == p) /* one character wider than the room */
			brk += linebreak_cluster_len(p);
		char *s = xmalloc((size_t)(brk - p) + (size_t)lead + 1);
		memset(s, ' ', (size_t)lead);
		memcpy(s + lead, p, (size_t)(brk - p));
		s[lead + (brk - p)] = '\0';
		sl_push(l, s);
		p = brk;
		while (*p == ' ')
			p++;
		lead = indent;
	}
	free(text);
}

/* Splits text into lines and wraps each into l, the padding of
 * arithmetic squeezed first. */
static void wrap_text(struct strlist *l, const char *text, int width,
		      int indent, enum wrap_kind kind)
{
	const char *p = text;
	int cut = kind == WRAP_ARITH ? squeeze_cols(text, width) : 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);
		wrap_push(l, line, width, indent, kind, cut);
		free(line);
		p += len + (nl ? 1 : 0);
	}
}

/* The columns to wrap text to: the view's width, at most cap. */
static int view_cols(const struct view *v, int cap)
{
	return v->width < cap ? v->width : cap;
}

/* Builds the frames of the current run: one a source word for the
 * encoder, then for each decoder step one a stage, in the strip's order. */
static void frames_build(struct view *v)
{
	const struct trace *tr = v->tr;
	const struct trace_run *ru = &tr->runs[v->run];
	free(v->frames);
	v->nframes = 0;
	v->frames = xcalloc((size_t)(tr->n + STAGE_COUNT * ru->nsteps),
			    sizeof *v->frames);
	for (int i = 1; i <= tr->n; i++)
		v->frames[v->nframes++] = (struct view_frame){ STAGE_ENCODING, 0, i };
	for (int t = 1; t <= ru->nsteps; t++)
		for (int k = 0; k < v->nstages; k++)
			if (v->stages[k] != STAGE_ENCODING)
				v->frames[v->nframes++] =
					(struct view_frame){ v->stages[k], t, 0 };
}

int view_stage_index(const struct view *v, enum trace_stage st)
{
	for (int k = 0; k < v->nstages; k++)
		if (v->stages[k] == st)
			return k;
	return -1;
}

/* The columns of the strip's items and separators, after the first
 * column. */
static int strip_cols(const struct view_strip_item *items, int n)
{
	int cols = 0;
	for (int k = 0; k < n; k++)
		cols += utf8_width(items[k].text) + (k ? VIEW_STRIP_SEP : 0);
	return cols;
}

int view_strip(const struct view *v, int stage, int cols,
	       struct view_strip_item items[STAGE_COUNT])
{
	/* the TUI starts at column 1 and leaves the last one free */
	for (int pass = 0; pass < 3; pass++) {
		const char *const *titles = pass < 2 ? view_stage_titles
						     : stage_short;
		for (int k = 0; k < v->nstages; k++) {
			enum trace_stage st = v->stages[k];
			items[k].stage = st;
			items[k].current = (int)st == stage;
			if (pass == 0 || items[k].current)
				snprintf(items[k].text, sizeof items[k].text,
					 " %d %s ", k + 1, _(titles[st]));
			else
				snprintf(items[k].text, sizeof items[k].text,
					 "%s", _(titles[st]));
		}
		if (strip_cols(items, v->nstages) <= cols - 2)
			break;
	}
	return v->nstages;
}

void view_init(struct view *v, const struct trace *tr,
	       const struct lesson *l, int precision, int width)
{
	memset(v, 0, sizeof *v);
	v->tr = tr;
	v->lesson = l;
	v->terms = 1;
	v->fold = VIEW_FOLD_AUTO;
	v->width = width;
	fmt_opts_default(&v->fmt);
	v->fmt.precision = precision;
	v->nstages = trace_stages(tr, v->stages);
	if (l)
		for (int k = 0; k < tr->nruns; k++)
			if ((int)tr->runs[k].scorer == l->scorer)
				v->run = k;
	frames_build(v);
	view_self_init(v);
	if (l)
		v->revealed = xcalloc((size_t)l->npages + 1, 1);
}

void view_free(struct view *v)
{
	free(v->quiz_feedback);
	free(v->predict_feedback);
	free(v->revealed);
	view_edit_free(v);
	free(v->frames);
	view_self_free(v);
	view_why_free(v);
	memset(v, 0, sizeof *v);
}

int view_count(const struct view *v)
{
	return v->lesson ? v->lesson->npages : v->nframes;
}

int view_screen_number(const struct view *v, int *total)
{
	*total = view_count(v);
	if (!v->present || v->lesson)
		return v->pos;
	int t = v->frames[v->pos].t;
	*total += v->tr->runs[v->run].nsteps; /* a picture a step */
	return v->pos + (t > 1 ? t - 1 : 0) +
	       (v->mode == VIEW_DIAGRAM && t >= 1);
}

void view_goto(struct view *v, int pos)
{
	int n = view_count(v), old = v->pos;
	v->pos = pos < 0 ? 0 : pos >= n ? n - 1 : pos;
	if (v->lesson && v->pos != old)
		view_predict_leave(v);
}

void view_move(struct view *v, int delta)
{
	view_goto(v, v->pos + delta);
}

/* The first directive of lesson page p that names a step, or NULL.  A
 * page with a quiz has none: its weights would give the answer away. */
static const struct lesson_show *page_show(const struct view *v, int p)
{
	const struct lesson_page *pg = &v->lesson->pages[p];
	const struct lesson_show *found = NULL;
	for (int k = 0; k < pg->nblocks; k++) {
		const struct lesson_block *b = &pg->blocks[k];
		if (b->text)
			continue;
		if (b->show.what == SHOW_QUIZ)
			return NULL;
		if (!found && b->show.t > 0)
			found = &b->show;
	}
	return found;
}

int view_step(const struct view *v)
{
	if (v->lesson) {
		const struct lesson_show *sh = page_show(v, v->pos);
		if (v->lesson_t > 0 && v->mode != VIEW_STEP)
			return v->lesson_t; /* compare and the picture moved */
		return sh ? sh->t : 0;
	}
	return v->frames[v->pos].t;
}

/* The frame of stage st at step t (word i in the encoder), t clamped to
 * the run; -1 if the stage is not there. */
static int frame_find(const struct view *v, enum trace_stage st, int t,
		      int i)
{
	int nsteps = v->tr->runs[v->run].nsteps;
	if (t > nsteps)
		t = nsteps;
	for (int k = 0; k < v->nframes; k++) {
		const struct view_frame *f = &v->frames[k];
		if (f->stage == st &&
		    (st == STAGE_ENCODING ? f->i == (i ? i : 1) : f->t == t))
			return k;
	}
	return -1;
}

void view_goto_stage(struct view *v, enum trace_stage stage)
{
	if (v->lesson) {
		view_goto(v, (int)stage);
		return;
	}
	int t = v->frames[v->pos].t;
	int k = frame_find(v, stage, t ? t : 1, 0);
	if (k >= 0)
		v->pos = k;
}

int view_goto_number(struct view *v, int n)
{
	if (v->lesson) {
		if (n < 1 || n > v->lesson->npages)
			return -1;
		view_goto(v, n - 1);
		return 0;
	}
	if (n < 1 || n > v->nstages)
		return -1;
	view_goto_stage(v, v->stages[n - 1]);
	return 0;
}

void view_set_run(struct view *v, int run)
{
	if (run < 0 || run >= v->tr->nruns || run == v->run)
		return;
	struct view_frame f = v->lesson ? (struct view_frame){ 0, 0, 0 }
					: v->frames[v->pos];
	v->run = run;
	if (v->lesson)
		return;
	frames_build(v);
	int k = frame_find(v, f.stage, f.t, f.i);
	v->pos = k >= 0 ? k : v->nframes - 1;
}

void view_move_step(struct view *v, int delta)
{
	if (v->lesson) { /* compare and the picture: a step, not a page */
		int n = v->tr->runs[v->run].nsteps, t = view_step(v);
		t = (t > 0 ? t : 1) + delta;
		v->lesson_t = t < 1 ? 1 : t > n ? n : t;
		return;
	}
	const struct view_frame *f = &v->frames[v->pos];
	int t = (f->t ? f->t : 1) + delta;
	enum trace_stage st = f->stage == STAGE_ENCODING ? STAGE_SCORING : f->stage;
	int k = frame_find(v, st, t < 1 ? 1 : t, 0);
	if (k >= 0)
		v->pos = k;
}

/* The trace of v->archs after v->tr (the first after the last), or
 * NULL if there is no other. */
static const struct trace *view_next_arch(const struct view *v)
{
	int k = 0;

	if (v->narchs < 2)
		return NULL;
	while (k < v->narchs && v->archs[k] != v->tr)
		k++;
	return v->archs[(k + 1) % v->narchs];
}

int view_swap_arch(struct view *v)
{
	const struct trace *next = view_next_arch(v);

	if (!next || v->lesson)
		return -1;
	struct view_frame f = v->frames[v->pos];
	int sc = v->tr->runs[v->run].scorer;
	v->tr = next;
	v->run = trace_run_of(v->tr, sc) >= 0 ? trace_run_of(v->tr, sc) : 0;
	v->nstages = trace_stages(v->tr, v->stages);
	frames_build(v);
	int k = frame_find(v, f.stage, f.t, f.i);
	v->pos = k >= 0 ? k : v->nframes - 1;
	return 0;
}

void view_swap_trace(struct view *v, const struct trace *tr)
{
	struct view_frame f = v->frames[v->pos];
	v->tr = tr;
	frames_build(v);
	int k = frame_find(v, f.stage, f.t, f.i);
	v->pos = k >= 0 ? k : v->nframes - 1;
}

void view_next_scorer(struct view *v)
{
	view_set_run(v, (v->run + 1) % v->tr->nruns);
}

/* The source word and weight that step t of the run attends to most. */
/* The source word of the largest of step t's softmax weights (weights:
 * 0), or of the weights the context is made with (1: under local-p a_t,
 * which the Gaussian has moved); its weight into *a. */
static int top_weight(const struct view *v, int t, int weights, double *a)
{
	const struct trace_rec *r = trace_find(v->tr, REC_SOFTMAX, v->run, t, 0);
	const double *w = weights ? trace_weights(v->tr, v->run, t)
				  : r ? r->result : NULL;
	int best = 0;
	for (int i = 1; w && i < v->tr->n; i++)
		if (w[i] > w[best])
			best = i;
	*a = w ? w[best] : 0;
	return best;
}

static const char *src_word(const struct view *v, int i)
{
	return v->tr->m->src.words[v->tr->src[i]];
}

static void narrate_scores(FILE *f, const struct view *v, int t)
{
	const double *e = trace_find(v->tr, REC_SCORES, v->run, t, 0)->result;
	char buf[NUM_BUFSZ];
	int best = 0;
	for (int i = 1; i < v->tr->n; i++)
		if (e[i] > e[best])
			best = i;
	/* TRANSLATORS: %1$d the query's step, %2$s the scorer's name,
	 * %3$s its formula and prose, %4$d,%5$d the largest score's
	 * indices, %6$s its value, %7$s its source word */
	fprintf(f, _("Now s_%1$d is compared with every encoder state. The "
		     "%2$s scorer computes e_t,i = %3$s. The larger the score, "
		     "the better h_i fits what the decoder needs now: here the "
		     "largest is e_%4$d,%5$d = %6$s, for \"%7$s\"."),
		t + v->tr->query_off,
		trace_scorer_name(v->tr->runs[v->run].scorer),
		_(scorer_get(v->tr->runs[v->run].scorer)->prose), t,
		best + 1,
		fmt_num(buf, e[best], v->fmt.precision), src_word(v, best));
}

static void narrate_softmax(FILE *f, const struct view *v, int t)
{
	const struct trace_rec *r = trace_find(v->tr, REC_SOFTMAX, v->run, t, 0);
	char b1[NUM_BUFSZ], b2[NUM_BUFSZ], b3[NUM_BUFSZ], b4[NUM_BUFSZ];
	double a;
	int best = top_weight(v, t, 0, &a);
	const struct trace_rec *win = trace_find(v->tr, REC_WINDOW, v->run,
						 t, 0);
	int gauss = trace_find(v->tr, REC_GAUSS, v->run, t, 0) != NULL;
	if (!win) {
		/* TRANSLATORS: %1$s the largest score, %2$s the sum of the
		 * exponentials, %3$s the word weighted most, %4$d,%5$d its
		 * indices, %6$s its weight */
		fprintf(f, _("The softmax turns the scores into weights that "
			     "are positive and add up to 1: subtract the "
			     "largest score (%1$s) so that no exponential "
			     "overflows, take exp of each, and divide by their "
			     "sum (%2$s). \"%3$s\" gets the most attention, "
			     "α_%4$d,%5$d = %6$s."),
			fmt_num(b1, trace_op(r, "max")->v[0], v->fmt.precision),
			fmt_num(b2, trace_op(r, "sum")->v[0], v->fmt.precision),
			src_word(v, best), t, best + 1,
			fmt_num(b3, a, v->fmt.precision));
		return;
	}
	/* a local window: the softmax runs over positions lo..hi only */
	/* TRANSLATORS: %1$d to %2$d the window's positions, %3$d the step
	 * t, %4$s p_t, %5$s the largest score, %6$s the sum of the
	 * exponentials, %7$s the word weighted most, %8$s the weight's
	 * symbol (α or align), %9$d,%10$d its indices, %11$s its weight */
	fprintf(f, _("The softmax runs over the window only, positions %1$d "
		     "to %2$d around p_%3$d = %4$s: subtract the largest score "
		     "in it (%5$s), take exp of each, and divide by their sum "
		     "(%6$s), so the weights in the window add up to 1 and "
		     "every word outside it gets 0. \"%7$s\" gets the most, "
		     "%8$s_%9$d,%10$d = %11$s."),
		(int)trace_op(win, "window")->v[0],
		(int)trace_op(win, "window")->v[1], t,
		fmt_num(b1, trace_op(win, "p")->v[0], v->fmt.precision),
		fmt_num(b2, trace_op(r, "max")->v[0], v->fmt.precision),
		fmt_num(b3, trace_op(r, "sum")->v[0], v->fmt.precision),
		src_word(v, best), gauss ? "align" : "α", t, best + 1,
		fmt_num(b4, a, v->fmt.precision));
	if (gauss)
		fprintf(f, _(" local-p then multiplies each by a Gaussian "
			     "factor that favours the words near p_%1$d, and "
			     "does not renormalise: the final weights a_%1$d,i "
			     "add up to less than 1."), t);
}

static void narrate_weighted(FILE *f, const struct view *v, int t)
{
	char buf[NUM_BUFSZ];
	double a;
	int best = top_weight(v, t, 1, &a);
	/* local-p makes the context with a_t = align_t × the Gaussian */
	const char *w = trace_weight_symbol(v->tr);
	/* what the source items are: an image's cells, else words */
	const char *item = v->tr->enc ? _("cell") : _("word");
	/* TRANSLATORS: %1$d the step t, %2$s the weight's symbol (α or a),
	 * %3$d the index of the largest weight, %4$s its value, %5$s its
	 * source word */
	if (a > 0.5) /* "mostly" is a claim: more than half of it */
		fprintf(f, _("The context vector c_%1$d is the encoder states "
			     "averaged with the attention weights: each h_i is "
			     "multiplied by %2$s_%1$d,i and the products are "
			     "added. With %2$s_%1$d,%3$d = %4$s, c_%1$d is "
			     "mostly h_%3$d, the state of \"%5$s\"."), t, w,
			best + 1, fmt_num(buf, a, v->fmt.precision),
			src_word(v, best));
	else
		/* TRANSLATORS: as above; the largest weight is 0.5 or less */
		fprintf(f, _("The context vector c_%1$d is the encoder states "
			     "averaged with the attention weights: each h_i is "
			     "multiplied by %2$s_%1$d,i and the products are "
			     "added. The largest weight, %2$s_%1$d,%3$d = %4$s, "
			     "is on h_%3$d, the state of \"%5$s\", but it is not "
			     "half of the whole: c_%1$d is a blend."), t, w,
			best + 1, fmt_num(buf, a, v->fmt.precision),
			src_word(v, best));
	for (int i = 1; i <= v->tr->n; i++) { /* hard attention */
		const struct trace_rec *r = trace_find(v->tr, REC_SAMPLE,
						      v->run, t, i);
		if (!r)
			continue;
		const struct trace_operand *u = trace_op_key(r, "u");
		if (u && trace_op_key(r, "pi"))
			/* TRANSLATORS: %1$d the step t, %2$s the random
			 * number u, %3$d the item drawn, %4$s its name,
			 * %5$s "word" or "cell" */
			fprintf(f, _(" Hard attention keeps one %5$s instead. "
				     "These weights add up to less than 1, so "
				     "it draws from them divided by their sum, "
				     "π_%1$d: u = %2$s falls below "
				     "cumsum_%1$d,%3$d first, so l = %3$d and "
				     "c_%1$d = h_%3$d, the state of \"%4$s\"."),
				t, fmt_num(buf, u->v[0], v->fmt.precision),
				i, src_word(v, i - 1), item);
		else if (u)
			/* TRANSLATORS: %1$s the random number u, %2$d the
			 * step t, %3$d the item drawn, %4$s its name, %5$s
			 * "word" or "cell" */
			fprintf(f, _(" Hard attention keeps one %5$s instead: "
				     "u = %1$s falls below cumsum_%2$d,%3$d "
				     "first, so l = %3$d and c_%2$d = h_%3$d, the "
				     "state of \"%4$s\"."),
				fmt_num(buf, u->v[0], v->fmt.precision),
				t, i, src_word(v, i - 1), item);
		else
			/* TRANSLATORS: %1$d the step t, %2$d the item kept,
			 * %3$s its name, %4$s "word" or "cell" */
			fprintf(f, _(" Hard attention (argmax) keeps the "
				     "%4$s of the largest weight instead: "
				     "c_%1$d = h_%2$d, the state of \"%3$s\"."),
				t, i, src_word(v, i - 1), item);
	}
}

/* The architecture narrates its own stages (arch_class.narrate); the
 * scores, the weights and the context are every architecture's. */
static void narrate(FILE *f, const struct view *v, const struct view_frame *fr)
{
	const struct arch_class *a = arch_get(v->tr->arch);

	const struct window_class *w = window_get(v->tr->cfg.window);

	if (fr->stage == STAGE_ENCODING && v->tr->enc &&
	    v->tr->enc->narrate) { /* an encoder plug-in's own words */
		v->tr->enc->narrate(f, v->tr, fr->i, v->fmt.precision);
		return;
	}
	if (a->narrate(f, v->tr, v->run, fr->stage, fr->t, fr->i,
		       v->fmt.precision))
		return;
	if (w->narrate && w->narrate(f, v->tr, v->run, fr->stage, fr->t,
				     v->fmt.precision))
		return;
	switch (fr->stage) {
	case STAGE_SCORING: narrate_scores(f, v, fr->t); break;
	case STAGE_SOFTMAX: narrate_softmax(f, v, fr->t); break;
	case STAGE_WEIGHTED_SUM: narrate_weighted(f, v, fr->t); break;
	case STAGE_ENCODING: /* the architecture's */
	case STAGE_DECODER:
	case STAGE_CONCAT:
	case STAGE_OUTPUT:
	case STAGE_COUNT: /* and STAGE_INPUT: self-attention's */
	case STAGE_PROJECTION:
	case STAGE_ALL_COUNT:
		break;
	}
}

/* What frame_body hands an architecture's screen hook. */
struct frame_ctx {
	FILE *f;
	const struct view *v;
	const struct fmt_opts *o;
};

static void frame_show(const struct trace_rec *r, void *ctx)
{
	const struct frame_ctx *c = ctx;
	view_edit_rec(c->f, c->v, r, c->o); /* fmt_text_rec, edits marked */
}

/* Writes the records of frame fr with the text formatter: those the
 * architecture's screen hook lists, or the stage's in the order the step
 * program made them; the encoder's of word i, and s_0 after the last
 * word's. */
static void frame_body(FILE *f, const struct view *v, const struct view_frame *fr)
{
	struct fmt_opts o = v->fmt;
	o.terms = v->terms;
	struct frame_ctx c = { f, v, &o };
	view_frame_each(v, fr, frame_show, &c);
}

void view_frame_each(const struct view *v, const struct view_frame *fr,
		     void (*fn)(const struct trace_rec *r, void *ctx),
		     void *ctx)
{
	const struct trace *tr = v->tr;
	const struct arch_class *a = arch_get(tr->arch);
	int run = fr->stage == STAGE_ENCODING ? -1 : v->run;
	if (a->screen) {
		a->screen(tr, run, fr->stage, fr->t, fr->i, fn, ctx);
		return;
	}
	const struct trace_run *ru = &tr->runs[v->run];
	int first = tr->enc_first_rec, end = first + tr->enc_nrecs;
	if (run >= 0) {
		first = ru->step_first[fr->t - 1];
		end = fr->t < ru->nsteps ? ru->step_first[fr->t]
					 : ru->first_rec + ru->nrecs;
	}
	for (int k = first; k < end; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if (r->stage != fr->stage)
			continue;
		if (run < 0 && r->i != fr->i &&
		    !(r->kind == REC_INIT && fr->i == tr->n))
			continue;
		fn(r, ctx);
	}
}

/* Runs fn into a memory stream and returns what it wrote (caller frees). */
#define CAPTURE(out, call)                                                 \
	do {                                                               \
		size_t cap_len_ = 0;                                       \
		FILE *cap_f_ = open_memstream(&(out), &cap_len_);          \
		if (!cap_f_) {                                             \
			(out) = xstrdup("");                               \
			break;                                             \
		}                                                          \
		FILE *f = cap_f_;                                          \
		call;                                                      \
		fclose(cap_f_);                                            \
	} while (0)

static void render_title(const struct view *v, struct view_screen *s)
{
	const struct trace *tr = v->tr;
	char *src = NULL, *tgt = NULL;
	const char *image = caption_image_name(tr);
	if (image) { /* an image: its file's name, not its cells */
		const char *slash = strrchr(image, '/');
		src = xstrdup(slash ? slash + 1 : image);
	} else
		CAPTURE(src, for (int i = 0; i < tr->n; i++)
			fprintf(f, "%s%s", i ? " " : "", src_word(v, i)));
	if (tr->ntgt)
		CAPTURE(tgt, for (int k = 0; k < tr->ntgt; k++)
			fprintf(f, "%s%s", k ? " " : "",
				tr->m->tgt.words[tr->tgt[k]]));
	const char *sc = trace_scorer_name(tr->runs[v->run].scorer);
	if (v->lesson)
		s->title = xasprintf(_("attn-trace lesson: %s"), v->lesson->title);
	else
		/* TRANSLATORS: the stepper's title: source -> target, the
		 * scorer, then ", " and the architecture or nothing */
		s->title = xasprintf(_("attn-trace   %s -> %s   [%s scorer%s%s]"),
				     src, tgt ? tgt : _("(greedy)"), sc,
				     tr->arch != ARCH_DEFAULT || v->narchs > 1
				     ? ", " : "",
				     tr->arch != ARCH_DEFAULT || v->narchs > 1
				     ? arch_get(tr->arch)->name : "");
	free(src);
	free(tgt);
}

static void sl_free(struct strlist *l);

/* The lines of text, allocated, into l (the last without a newline
 * too). */
static void sl_lines(struct strlist *l, const char *text)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		sl_push(l, xstrndup(p, n));
		p += n + (nl != NULL);
	}
}

/* m on an image's trace: every step's word above the image with its
 * pixels shaded by α_t and the cells' weights (caption_fmt_rows), as
 * many steps side by side as the width holds, a row of them after
 * another. */
static void render_image_heatmap(const struct view *v, struct strlist *body)
{
	const struct trace_run *ru = &v->tr->runs[v->run];
	struct strlist *panel = xcalloc((size_t)ru->nsteps, sizeof *panel);
	int pw = 0;
	for (int t = 1; t <= ru->nsteps; t++) {
		char *text = NULL;
		int w = v->tr->ntgt ? (t <= v->tr->ntgt ? v->tr->tgt[t - 1]
				       : v->tr->m->eos) : ru->pred[t - 1];
		sl_push(&panel[t - 1], xasprintf("  t=%d: %s", t,
					       v->tr->m->tgt.words[w]));
		CAPTURE(text, caption_fmt_rows(f, v->tr, v->run, t, v->ascii));
		sl_lines(&panel[t - 1], text);
		free(text);
		for (int k = 0; k < panel[t - 1].n; k++) {
			int cw = utf8_width(panel[t - 1].v[k]);
			pw = cw > pw ? cw : pw;
		}
	}
	pw += 2; /* the gap between panels */
	int across = v->width / pw < 1 ? 1 : v->width / pw;
	for (int t0 = 0; t0 < ru->nsteps; t0 += across) {
		int end = t0 + across < ru->nsteps ? t0 + across : ru->nsteps;
		for (int k = 0; k < panel[t0].n; k++) {
			char *line = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&line, &len);
			if (!f)
				abort(); /* only when memory runs out */
			for (int t = t0; t < end; t++)
				if (t + 1 < end)
					fmt_pad(f, panel[t].v[k], pw);
				else
					fputs(panel[t].v[k], f);
			fclose(f);
			sl_push(body, line);
		}
		sl_push(body, xstrdup(""));
	}
	for (int t = 0; t < ru->nsteps; t++)
		sl_free(&panel[t]);
	free(panel);
}

/* An image's trace: the image and its pixels shaded by α_t, with the
 * cells' weights, as lines, in place of the bars. */
static void render_picture(const struct view *v, struct view_screen *s,
			   int t)
{
	char *text = NULL;
	struct strlist l = { 0 };
	CAPTURE(text, caption_fmt_rows(f, v->tr, v->run, t, v->ascii));
	for (char *p = text, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		sl_push(&l, xstrndup(p, (size_t)(nl - p)));
	}
	free(text);
	s->picture = l.v;
	s->npicture = l.n;
	struct fmt_bar bars[CAPTION_CELLS];
	int drawn = -1; /* hard attention's cell, as the bars mark it */
	for (int i = 0; i < fmt_bars(bars, v->tr, v->run, t, 2) &&
	     i < CAPTION_CELLS; i++)
		if (bars[i].is_drawn)
			drawn = i;
	const char *sc = trace_scorer_name(v->tr->runs[v->run].scorer);
	if (drawn >= 0)
		s->bars_title = xasprintf(_("the image and α_%d over its cells "
					    "(%s); drawn: cell %d, \"%s\""),
					  t, sc, drawn + 1,
					  src_word(v, drawn));
	else
		s->bars_title = xasprintf(_("the image and α_%d over its cells "
					    "(%s)"), t, sc);
}

static void render_bars(const struct view *v, struct view_screen *s, int t)
{
	if (t < 1 || t > v->tr->runs[v->run].nsteps)
		return;
	if (v->lesson && v->lesson->glimpse) /* a glimpse lesson's subject */
		return;                      /* is not the caption's weights */
	if (v->tr->enc == &caption_encoder) {
		render_picture(v, s, t);
		return;
	}
	s->bars = xcalloc((size_t)v->tr->n, sizeof *s->bars);
	s->nbars = fmt_bars(s->bars, v->tr, v->run, t, v->fmt.precision);
	/* local-p's bars are the final weights a_t = align_t × Gaussian */
	s->bars_title = xasprintf(_("attention weights %s_%d (%s)"),
				  trace_weight_symbol(v->tr), t,
				  trace_scorer_name(v->tr->runs[v->run].scorer));
}

/* Presentation mode's output screen leads with its outcome: the lines
 * "top K: ..." and "output word: ..." move to the top of body, before
 * the logits and probabilities of every target word. */
static void lead_outcome(struct strlist *body)
{
	int k = 0;
	/* the lines' words before their numbers, as fmt_text writes them */
	const char *top = _("top %d:"), *word = _("output word: %s");
	size_t ntop = strcspn(top, "%"), nword = strcspn(word, "%");
	for (int j = 0; j < body->n; j++) {
		if (strncmp(body->v[j], top, ntop) != 0 &&
		    strncmp(body->v[j], word, nword) != 0)
			continue;
		char *line = body->v[j];
		memmove(body->v + k + 1, body->v + k,
			(size_t)(j - k) * sizeof *body->v);
		body->v[k++] = line;
	}
}

static void render_step(const struct view *v, struct view_screen *s,
			struct strlist *narr, struct strlist *body)
{
	const struct view_frame *fr = &v->frames[v->pos];
	const struct trace_run *ru = &v->tr->runs[v->run];
	char *text = NULL;
	int at = view_stage_index(v, fr->stage), total;
	int num = view_screen_number(v, &total) + 1;
	s->stage = (int)fr->stage;
	if (fr->stage == STAGE_ENCODING && v->tr->enc)
		s->where = xasprintf(_("stage %d of %d: %s   cell %d of %d   "
				       "screen %d of %d"), at + 1, v->nstages,
				     _(view_stage_titles[fr->stage]), fr->i,
				     v->tr->n, num, total);
	else if (fr->stage == STAGE_ENCODING)
		s->where = xasprintf(_("stage %d of %d: %s   word %d of %d   "
				       "screen %d of %d"), at + 1, v->nstages,
				     _(view_stage_titles[fr->stage]), fr->i,
				     v->tr->n, num, total);
	else
		s->where = xasprintf(_("stage %d of %d: %s   step t=%d of %d   "
				       "screen %d of %d"), at + 1, v->nstages,
				     _(view_stage_titles[fr->stage]),
				     fr->t, ru->nsteps, num, total);
	CAPTURE(text, narrate(f, v, fr));
	wrap_text(narr, text, view_cols(v, VIEW_PROSE_COLS), 0, WRAP_PROSE);
	free(text);
	if ((text = view_edit_text(v))) { /* the edit line, the edits */
		wrap_text(body, text, view_cols(v, VIEW_TEXT_COLS), 6,
			  WRAP_ARITH);
		free(text);
	}
	CAPTURE(text, frame_body(f, v, fr));
	wrap_text(body, text, view_cols(v, VIEW_TEXT_COLS), 6, WRAP_ARITH);
	free(text);
	if (v->present && fr->stage == STAGE_OUTPUT)
		lead_outcome(body);
	/* the weights, once the step has them */
	if (fr->stage != STAGE_ENCODING &&
	    at >= view_stage_index(v, STAGE_SOFTMAX))
		render_bars(v, s, fr->t);
}

/* The rows of a lesson page that are not its body: the title, the strip,
 * the page line, a blank, "more below" and the keys. */
#define VIEW_LESSON_FRAME_ROWS 6

/* Appends page v->pos to body as the stepper wraps it, with the
 * term-by-term arithmetic (terms) or without. */
static void lesson_lines(const struct view *v, int terms, struct strlist *body)
{
	struct lesson l = *v->lesson; /* the scorer key switches the runs */
	struct fmt_opts fo = v->fmt;
	char *text = NULL;
	int w = view_cols(v, VIEW_TEXT_COLS);
	l.scorer = (int)v->tr->runs[v->run].scorer;
	fo.terms = terms;
	char *insert = view_predict_insert(v);
	CAPTURE(text, lesson_page_text_predict(f, &l, v->pos, v->tr, &fo, w,
					       view_predict_hidden(v),
					       insert));
	free(insert);
	wrap_text(body, text, w, 6, WRAP_ARITH);
	free(text);
}

static void sl_free(struct strlist *l)
{
	for (int k = 0; k < l->n; k++)
		free(l->v[k]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* The lines that folding page v->pos takes away: those of its
 * term-by-term arithmetic. */
static int fold_lines(const struct view *v)
{
	struct strlist all = { 0 }, folded = { 0 };
	lesson_lines(v, 1, &all);
	lesson_lines(v, 0, &folded);
	int n = all.n - folded.n;
	sl_free(&all);
	sl_free(&folded);
	return n;
}

/* Whether page v->pos shows folded, when folding takes fold lines away:
 * as the learner chose with t, or, until then, when the page has a 'fold'
 * line or its arithmetic alone is longer than the room for the page. */
static int fold_now(const struct view *v, int fold)
{
	if (v->fold != VIEW_FOLD_AUTO)
		return v->fold;
	if (v->lesson->pages[v->pos].fold) /* the page says so */
		return 1;
	return v->lines > 0 && fold > v->lines - VIEW_LESSON_FRAME_ROWS;
}

int view_lesson_line_of(const struct view *v, const char *needle)
{
	struct strlist all = { 0 }, part = { 0 };
	lesson_lines(v, 1, &all);
	lesson_lines(v, 0, &part);
	int fold = all.n - part.n;
	const struct strlist *keep = fold > 0 && fold_now(v, fold) ? &part
								  : &all;
	int at = -1;
	for (int k = 0; k < keep->n && at < 0; k++)
		if (strstr(keep->v[k], needle))
			at = k;
	sl_free(&all);
	sl_free(&part);
	return at;
}

int view_folded(const struct view *v)
{
	int fold = v->lesson ? fold_lines(v) : 0;
	return fold > 0 && fold_now(v, fold);
}

int view_foldable(const struct view *v)
{
	return v->lesson && fold_lines(v) > 0;
}

static void render_lesson(const struct view *v, struct view_screen *s,
			  struct strlist *body)
{
	const struct lesson_show *sh = page_show(v, v->pos);
	struct strlist all = { 0 }, part = { 0 }; /* with and without terms */
	lesson_lines(v, 1, &all);
	lesson_lines(v, 0, &part);
	int fold = all.n - part.n, folded = fold > 0 && fold_now(v, fold);
	struct strlist *keep = folded ? &part : &all;

	s->stage = sh && sh->stage >= 0 ? sh->stage : -1;
	/* TRANSLATORS: a lesson page's place: page 1 of 5   [dot scorer] */
	s->where = xasprintf(_("page %d of %d   [%s%s]%s"), v->pos + 1,
			     v->lesson->npages, v->self ? _("self-attention")
			     : trace_scorer_name(v->tr->runs[v->run].scorer),
			     v->self ? "" : _(" scorer"),
			     folded ? _("   arithmetic folded: t shows it")
			     : fold > 0 ? _("   t folds the arithmetic") : "");
	for (int k = 0; k < keep->n; k++) /* the lines move to body */
		sl_push(body, keep->v[k]);
	keep->n = 0;
	sl_free(&all);
	sl_free(&part);
	if (sh && !view_predict_hidden(v)) /* the bars would answer it */
		render_bars(v, s, sh->t);
}

/* The key hints of a stepping screen, most useful first: as many as fit
 * the width, and always "? help" and "q quit" at the end.  In a lesson
 * the keys a page asks for (t to fold its arithmetic, z for its quiz, d
 * for its picture) come before the views of the trace, so that at 80
 * columns they stay on the bar; "? help" lists every key. */
static char *step_keys(const struct view *v)
{
	static const char *const trace_hints[] = {
		N_("<-/-> step"), N_("g stage"), N_("s scorer"),
		N_("w why?"), N_("c compare"), N_("m heatmap"), N_("z quiz"),
		N_("t terms"), N_("d picture")
	};
	static const char *const lesson_hints[] = {
		N_("space/<-/-> page"), N_("g page"), N_("t fold"), N_("z quiz"),
		N_("d picture"), N_("s scorer"), N_("c compare"), N_("m heatmap")
	};
	static const char *const self_hints[] = {
		N_("space/<-/-> page"), N_("g page"), N_("t fold"), N_("z quiz"),
		N_("d diagram"), N_("m weights"), N_("c stages")
	};
	const char *const *hints = v->self ? self_hints : v->lesson
				   ? lesson_hints : trace_hints;
	const char *tail = _("? help  q quit");
	int n = v->self ? (int)(sizeof self_hints / sizeof *self_hints)
		: v->lesson ? (int)(sizeof lesson_hints / sizeof *lesson_hints)
		: (int)(sizeof trace_hints / sizeof *trace_hints), cols;
	for (;; n--) {
		/* display columns: a translation may hold wide characters */
		cols = utf8_width(tail);
		for (int k = 0; k < n; k++)
			cols += utf8_width(_(hints[k])) + 2;
		if (cols <= v->width || n == 0)
			break;
	}
	size_t size = strlen(tail) + 1;
	for (int k = 0; k < n; k++)
		size += strlen(_(hints[k])) + 2;
	char *keys = xmalloc(size), *p = keys;
	for (int k = 0; k < n; k++)
		p += sprintf(p, "%s  ", _(hints[k]));
	strcpy(p, tail);
	return keys;
}

/* The key hints of the bottom line: those that apply in this mode, and
 * after 'g' what it waits for. */
static char *render_keys(const struct view *v)
{
	if (v->pending_g) {
		int max = v->lesson ? v->lesson->npages : v->nstages;
		char typed[16] = "";
		if (v->g_num)
			snprintf(typed, sizeof typed, "%d", v->g_num);
		return xasprintf(_("g: type a %s number, 1 to %d%s (any other "
				   "key cancels): %s_"), v->lesson ? _("page")
				 : _("stage"), max, max >= 10 ? _(", then Enter")
				 : "", typed);
	}
	char *edit = view_edit_keys(v);
	if (edit)
		return edit;
	switch (v->mode) {
	case VIEW_STEP: return step_keys(v);
	case VIEW_COMPARE:
		return xstrdup(_("<-/-> step  s scorer  Esc back  q quit"));
	case VIEW_HEATMAP:
		return xstrdup(_("arrows, PgUp, PgDn scroll  s scorer  Esc back  "
				 "q quit"));
	case VIEW_HELP:
		return xstrdup(_("up, down, space scroll  any other key: back  "
				 "q quit"));
	case VIEW_DIAGRAM:
		return xstrdup(v->present ? _("<-/-> step  d arithmetic  q quit")
			       : _("<-/-> step  s scorer  d arithmetic  Esc back  "
				   "q quit"));
	case VIEW_QUIZ:
		return xstrdup(v->quiz_answered ? _("any key: back to the trace")
			       : _("type a number, Enter answers, Esc leaves"));

	case VIEW_SELF: /* view_self_render() sets its own */
	case VIEW_WHY:  /* and view_why_render() */
		break;
	}
	return xstrdup("");
}

/* The help's line line, its "%t" (at) replaced by the numbered stages. */
static void help_stages(FILE *f, const struct view *v, const char *line,
			const char *at)
{
	fprintf(f, "%.*s", (int)(at - line), line);
	for (int k = 0; k < v->nstages; k++)
		fprintf(f, "%s%d %s", k ? ", " : "", k + 1,
			view_stage_titles[v->stages[k]]);
	fputs(at + 2, f);
}

/* The picture of the step shown (of step 1 from the encoder), laid out
 * for the view's width. */
static void render_diagram(const struct view *v, struct view_screen *s,
			   struct strlist *body)
{
	struct diagram d;
	struct errbuf err;
	char **lines;
	int t = view_step(v), total;
	if (t < 1)
		t = 1;
	s->stage = -1;
	if (v->present && !v->lesson) {
		int num = view_screen_number(v, &total) + 1;
		s->where = xasprintf(_("the picture of step t=%d of %d   "
				       "screen %d of %d"), t,
				     v->tr->runs[v->run].nsteps, num, total);
	} else
		s->where = xasprintf(_("the picture of step t=%d of %d"), t,
				     v->tr->runs[v->run].nsteps);
	if (diagram_build(&d, v->tr, v->run, t, &err) != 0) {
		sl_push(body, xstrdup(err.msg));
		return;
	}
	int n = diagram_render(&d, v->width, v->ascii, v->fmt.precision, &lines);
	for (int k = 0; k < n; k++)
		sl_push(body, lines[k]);
	free(lines);
}

/* Key x: below the screen, each symbol it shows with its meaning, from
 * the one table (src/notation.c). */
static void render_glossary(const struct view *v, struct view_screen *s,
			    struct strlist *body)
{
	int n = 1 + s->nnarr + body->n, k = 0, idx[128], width = 0;
	const char **lines = xmalloc((size_t)n * sizeof *lines);
	lines[k++] = s->title;
	for (int j = 0; j < s->nnarr; j++)
		lines[k++] = s->narr[j];
	for (int j = 0; j < body->n; j++)
		lines[k++] = body->v[j];
	int m = notation_glossary(lines, k, idx, 128);
	free(lines);
	for (int j = 0; j < m; j++) {
		int w = utf8_width(notation_table[idx[j]].symbol);
		width = w > width ? w : width;
	}
	sl_push(body, xstrdup(""));
	wrap_text(body, m ? _("Symbols on this screen (x hides them):")
			  : _("No symbols on this screen (x hides this)."),
		  view_cols(v, VIEW_PROSE_COLS), 0, WRAP_PROSE);
	int cols = view_cols(v, VIEW_PROSE_COLS);
	/* the meanings hang under each other, unless the screen is too
	 * narrow for that: then under the continuation indent of 6 */
	int ind = width + 2 + 8 <= cols ? width + 2 : 6;
	for (int j = 0; j < m; j++) {
		char line[512];
		wrap_text(body, notation_line(line, sizeof line, idx[j], width),
			  cols, ind, WRAP_PROSE);
	}
}

/* Appends a line of the help to body, wrapped at the screen's width
 * under the column of the keys' meanings, so that no line is cut. */
/* 1 if line k of view_help speaks of keys that work here: c, m and d
 * open a self-attention lesson's own stepper where there is one (v->self,
 * view_key.c) and compare, the heatmap and the picture elsewhere, so the
 * help lists each key once, with what it does on this screen. */
static int help_applies(const struct view *v, int k)
{
	static const char self_keys[] = "  c, m, d ";
	const char *l = view_help[k];
	int self = strncmp(l, self_keys, sizeof self_keys - 1) == 0 ||
		   (k > 0 && strncmp(view_help[k - 1], self_keys,
				     sizeof self_keys - 1) == 0 &&
		    strncmp(l, "    ", 4) == 0);
	int trace = strncmp(l, "  ", 2) == 0 && strchr("cmd", l[2]) &&
		    l[2] && l[3] == ' ';
	return self ? v->self != NULL : trace ? v->self == NULL : 1;
}

static void help_push(const struct view *v, struct strlist *body,
		      const char *line)
{
	wrap_push(body, line, v->width > 0 ? v->width : 80, 22, WRAP_PROSE,
		  0);
}

void view_render(const struct view *v, struct view_screen *s)
{
	struct strlist narr = { 0 }, body = { 0 };
	char *text = NULL;
	int t = view_step(v);
	if (v->mode == VIEW_SELF) {
		view_self_render(v, s);
		return;
	}
	if (v->mode == VIEW_WHY) { /* the stepper's title, its own rest */
		memset(s, 0, sizeof *s);
		render_title(v, s);
		view_why_render(v, s);
		return;
	}
	memset(s, 0, sizeof *s);
	render_title(v, s);
	if (v->mode == VIEW_HELP) {
		s->stage = -1;
		s->where = xstrdup(_("help"));
		for (int k = 0; view_help[k]; k++) {
			char names[256];
			const char *hl = view_tr(view_help[k]);
			for (int j = 0; k == 2 && v->present &&
			     view_help_present[j]; j++)
				sl_push(&body,
					xstrdup(view_tr(view_help_present[j])));
			if (!help_applies(v, k))
				continue;
			/* the one line that lists the scorers, from the
			 * registry; those of the stages, from the trace */
			const char *at = strstr(hl, "%s");
			const char *st = strstr(hl, "%t");
			if (at) {
				text = xasprintf("%.*s%s",
					(int)(at - hl), hl,
					scorer_names(names, sizeof names, ", ",
						     ", "));
				help_push(v, &body, text);
				free(text);
				text = NULL;
			} else if (strstr(hl, "%d")) {
				sl_push(&body, xasprintf(hl,
					v->lesson ? v->lesson->npages
						  : v->nstages));
			} else if (st) {
				CAPTURE(text, help_stages(f, v, hl, st));
				wrap_text(&body, text,
					  view_cols(v, VIEW_PROSE_COLS), 0,
					  WRAP_PROSE);
				free(text);
				text = NULL;
			} else {
				help_push(v, &body, hl);

			}
		}
	} else if (v->mode == VIEW_COMPARE) {
		s->stage = -1;
		s->where = xasprintf(_("compare the scorers at step t=%d"), t ? t : 1);
		CAPTURE(text, fmt_text_compare(f, v->tr, t ? t : 1,
					       v->fmt.precision, v->width);
			if (view_next_arch(v)) {
				putc('\n', f);
				fmt_text_compare_arch(f, v->tr, v->run,
						      view_next_arch(v),
						      t ? t : 1,
						      v->fmt.precision);
			});
		wrap_text(&body, text, v->width, 6, WRAP_ARITH);
	} else if (v->mode == VIEW_QUIZ) {
		s->stage = (int)v->quiz.stage;
		s->where = xasprintf(_("quiz: work it out by hand, step t=%d"),
				     v->quiz.t);
		CAPTURE(text, quiz_prompt_text_cols(f, &v->quiz,
			view_cols(v, VIEW_TEXT_COLS)));
		wrap_text(&body, text, view_cols(v, VIEW_TEXT_COLS), 6,
			  WRAP_ARITH);
		sl_push(&body, xstrdup(""));
		if (!v->quiz_answered)
			sl_push(&body, xasprintf("%s%s_", _("answer> "),
						 v->quiz_input));
		if (v->quiz_feedback)
			wrap_text(&body, v->quiz_feedback,
				  view_cols(v, VIEW_TEXT_COLS), 6, WRAP_ARITH);
	} else if (v->mode == VIEW_DIAGRAM) {
		render_diagram(v, s, &body);
	} else if (v->mode == VIEW_HEATMAP && v->tr->enc) {
		s->stage = -1;
		s->where = xasprintf(_("each word's weights over the image, "
				       "the %s scorer"),
				     trace_scorer_name(v->tr->runs[v->run].scorer));
		render_image_heatmap(v, &body);
	} else if (v->mode == VIEW_HEATMAP) {
		s->stage = -1;
		s->where = xasprintf(_("the alignment heatmap of the %s scorer"),
				     trace_scorer_name(v->tr->runs[v->run].scorer));
	} else if (v->lesson) {
		render_lesson(v, s, &body);
	} else {
		render_step(v, s, &narr, &body);
	}
	free(text);
	s->nnarr = narr.n;
	s->narr = narr.v;
	if (v->glossary && v->mode != VIEW_HELP)
		render_glossary(v, s, &body);
	s->nbody = body.n;
	s->body = body.v;
	s->keys = render_keys(v);
}

void view_screen_free(struct view_screen *s)
{
	for (int k = 0; k < s->nnarr; k++)
		free(s->narr[k]);
	for (int k = 0; k < s->nbody; k++)
		free(s->body[k]);
	free(s->narr);
	free(s->body);
	free(s->bars);
	free(s->bars_title);
	for (int k = 0; k < s->npicture; k++)
		free(s->picture[k]);
	free(s->picture);
	free(s->title);
	free(s->where);
	free(s->keys);
	memset(s, 0, sizeof *s);
}

int view_quiz_start(struct view *v, unsigned long long seed,
		    struct errbuf *err)
{
	int rc;
	view_quiz_end(v);
	const struct lesson_show *sh = v->lesson ? lesson_page_quiz(v->lesson, v->pos)
						 : NULL;
	if (sh) {
		rc = lesson_quiz_make(&v->quiz, v->lesson, sh, v->tr, v->run,
				      v->fmt.precision, err);
	} else {
		int t = view_step(v);
		enum trace_stage st = v->lesson ? STAGE_SCORING
						: v->frames[v->pos].stage;
		if (!(QUIZ_STAGES & (1u << st)))
			st = STAGE_SCORING;
		if (t < 1) {
			rc = quiz_make(&v->quiz, v->tr, v->run, st, seed,
				       v->fmt.precision, err);
		} else {
			/* this step; the word or coordinate from the seed */
			int n = st == STAGE_WEIGHTED_SUM ? v->tr->m->H : v->tr->n;
			int pick = (int)(seed % (unsigned long long)n) + 1;
			rc = quiz_make_at(&v->quiz, v->tr, v->run, st, t,
					  pick, pick, v->fmt.precision, err);
		}
	}
	if (rc == 0)
		v->mode = VIEW_QUIZ;
	return rc;
}

/* Bytes in the UTF-8 sequence that lead byte c starts; 0 if c starts
 * none (a continuation byte, 0xC0, 0xC1, 0xF5 and above). */
static size_t quiz_lead_len(unsigned char c)
{
	return c < 0x80 ? 1 : c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3
	     : c < 0xf5 ? 4 : 0;
}

/* 1 if the whole character ch (len bytes) may go into the box: valid
 * UTF-8 and no control (C0, DEL, C1), so that it can drive no terminal. */
static int quiz_char_ok(const unsigned char *ch, size_t len)
{
	if (utf8_valid_prefix((const char *)ch, len) != len)
		return 0;
	if (len == 1)
		return ch[0] >= 0x20 && ch[0] != 0x7f;
	return !(ch[0] == 0xc2 && ch[1] < 0xa0);
}

/* Backspace: drops the character being typed, else the last whole one. */
static void quiz_backspace(struct view *v)
{
	size_t len = strlen(v->quiz_input);
	if (v->quiz_npart) {
		v->quiz_npart = 0;
		return;
	}
	while (len > 0 && ((unsigned char)v->quiz_input[len - 1] & 0xC0) == 0x80)
		len--; /* a UTF-8 continuation byte */
	if (len > 0)
		len--;
	v->quiz_input[len] = '\0';
}

/* The bytes of one character arrive one by one and are held in quiz_part
 * until the character is whole; only then, if it is valid and fits whole,
 * does it join quiz_input, which is thus valid UTF-8 at every moment. */
int view_quiz_type(struct view *v, int c)
{
	if (v->quiz_answered)
		return 0;
	if (c == '\b') {
		quiz_backspace(v);
		return 1;
	}
	if (c < 0 || c > 0xff)
		return 0;
	unsigned char b = (unsigned char)c;
	if (v->quiz_npart && (b & 0xC0) != 0x80)
		v->quiz_npart = 0; /* a character cut short: dropped */
	if (!v->quiz_npart && !quiz_lead_len(b))
		return 0; /* a stray continuation or a byte of no UTF-8 */
	v->quiz_part[v->quiz_npart++] = b;
	size_t need = quiz_lead_len(v->quiz_part[0]);
	if ((size_t)v->quiz_npart < need)
		return 1;
	v->quiz_npart = 0;
	size_t len = strlen(v->quiz_input);
	if (!quiz_char_ok(v->quiz_part, need) ||
	    len + need >= sizeof v->quiz_input)
		return 0;
	memcpy(v->quiz_input + len, v->quiz_part, need);
	v->quiz_input[len + need] = '\0';
	return 1;
}

int view_quiz_answer(struct view *v)
{
	struct quiz_answer a;
	char *text = NULL;
	if (v->quiz_answered)
		return 1;
	enum quiz_result r = quiz_check(&v->quiz, v->quiz_input, &a);
	CAPTURE(text, quiz_feedback_text_cols(f, &v->quiz, &a,
					      view_cols(v, VIEW_TEXT_COLS)));
	free(v->quiz_feedback);
	v->quiz_feedback = text;
	if (r == QUIZ_UNPARSEABLE) {
		v->quiz_input[0] = '\0';
		v->quiz_npart = 0;
		return 0;
	}
	v->quiz_answered = 1;
	return 1;
}

void view_quiz_end(struct view *v)
{
	free(v->quiz_feedback);
	v->quiz_feedback = NULL;
	v->quiz_answered = 0;
	v->quiz_input[0] = '\0';
	v->quiz_npart = 0;
	if (v->mode == VIEW_QUIZ)
		v->mode = VIEW_STEP;
}

void view_wrap(char ***lines, int *n, int *cap, const char *text, int width,
	       int prose)
{
	struct strlist l = { *n, *cap, *lines };
	if (prose)
		wrap_text(&l, text, width, 0, WRAP_PROSE);
	else
		wrap_text(&l, text, width, 6, WRAP_ARITH);
	*lines = l.v;
	*n = l.n;
	*cap = l.cap;
}
