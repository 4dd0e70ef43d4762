/* self_view.c: the self-attention stepper's screens and keys, without
 * curses (self_view.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "self_diagram.h"
#include "self_view.h"
#include "utf8.h"
#include "util.h"
#include "view_key.h"

static const char *const stage_title[SELF_STAGE_COUNT] = {
	N_("X = embeddings + positional encoding"),
	N_("Q, K and V"),
	N_("scores, scaling and mask"),
	N_("softmax of each row"),
	N_("Z = A V"),
	N_("concat and W_O"),
};

const char *const self_view_help[] = {
	N_("Keys of the self-attention stepper"),
	"",
	N_("  right, n, space   next stage"),
	N_("  left, p           previous stage"),
	N_("  Home, End         first, last stage"),
	N_("  r, R              the next, previous query row of the bars"),
	N_("  h                 the other head's bars"),
	N_("  d                 the line diagram of the head, and back"),
	N_("  up, down, PgUp, PgDn   scroll"),
	N_("  <, >              scroll a table wider than the screen sideways"),
	N_("                    (a line cut at the edge ends in ›, and one"),
	N_("                    scrolled starts with ‹)"),
	N_("  ?                 this help (any key leaves it)"),
	N_("  q                 quit"),
	NULL
};

/* A growing list of lines. */
struct lines {
	char **v;
	int n, cap;
};

static void push(struct lines *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xreallocarray(l->v, (size_t)l->cap, sizeof *l->v);
	}
	l->v[l->n++] = s;
}

void self_view_init(struct self_view *v, const struct self_trace *t,
		    unsigned heads, int prec, int width)
{
	memset(v, 0, sizeof *v);
	v->t = t;
	v->heads = heads ? heads : (1u << SELF_HEADS) - 1;
	/* only the heads whose records the trace holds */
	if (v->heads & t->tr.self.shown)
		v->heads &= t->tr.self.shown;
	else
		v->heads = t->tr.self.shown;
	while (!(v->heads & (1u << v->head)))
		v->head++;
	v->prec = prec;
	v->width = width;
}

/* The width of the widest of words (n), in columns. */
static int words_cols(char **words, int n)
{
	int w = 0;
	for (int k = 0; k < n; k++)
		if (utf8_width(words[k]) > w)
			w = utf8_width(words[k]);
	return w;
}

/* The lines of matrix W (rows, cols, row stride) of head h as a table:
 * a heading, a line of column numbers, and a row for each query word;
 * shade: each cell starts with a block as dark as its value (weights in
 * [0, 1]). */
static void block(struct lines *out, const struct self_trace *t, int prec,
		  int h, const char *name, const double *W, int rows, int cols,
		  int stride, int shade, int ascii)
{
	static const char *const utf8_blocks[5] = { " ", "░", "▒", "▓", "█" };
	static const char *const ascii_blocks[5] = { " ", ".", ":", "+", "#" };
	const char *const *blocks = ascii ? ascii_blocks : utf8_blocks;
	int ww = words_cols(t->qwords, rows) + 4, cw = prec + 5;
	char *line = NULL, num[NUM_BUFSZ];
	size_t len = 0;
	FILE *f;

	push(out, xasprintf("head %d: %s", h + 1, name));
	f = open_memstream(&line, &len);
	fprintf(f, "%*s", ww, "");
	for (int c = 0; c < cols; c++)
		fprintf(f, "%*d", cw + (shade ? 1 : 0), c + 1);
	fclose(f);
	push(out, line);
	for (int r = 0; r < rows; r++) {
		char lab[16];
		line = NULL;
		f = open_memstream(&line, &len);
		snprintf(lab, sizeof lab, "%d ", r + 1);
		fputs(lab, f);
		fmt_pad(f, t->qwords[r], ww - (int)strlen(lab));
		for (int c = 0; c < cols; c++) {
			double x = W[(size_t)r * stride + c];
			if (isinf(x)) {
				fprintf(f, "%*s", cw + (shade ? 1 : 0), "-inf");
				continue;
			}
			fmt_num(num, x, prec);
			if (shade)
				fprintf(f, " %s%*s", blocks[fmt_shade(x, 5)],
					cw - 1, num);
			else
				fprintf(f, "%*s", cw, num);
		}
		fclose(f);
		push(out, line);
	}
}

/* The blocks of the heads shown, side by side; each block is padded to
 * its widest line.  When width is above 0 and they would take more
 * columns than that, each block goes below the one before instead, so
 * that no head is cut off at the screen's edge. */
static void side_by_side(struct lines *body, struct lines *blk, int nblk,
			 int width)
{
	int rows = 0, w[SELF_HEADS] = { 0 }, total = 0;
	for (int b = 0; b < nblk; b++) {
		if (blk[b].n > rows)
			rows = blk[b].n;
		for (int k = 0; k < blk[b].n; k++)
			if (utf8_width(blk[b].v[k]) > w[b])
				w[b] = utf8_width(blk[b].v[k]);
		total += w[b] + (b + 1 < nblk ? 4 : 0);
	}
	if (width > 0 && total > width && nblk > 1) {
		for (int b = 0; b < nblk; b++) {
			if (b)
				push(body, xstrdup(""));
			for (int k = 0; k < blk[b].n; k++)
				push(body, blk[b].v[k]);
			free(blk[b].v);
		}
		return;
	}
	for (int k = 0; k < rows; k++) {
		char *line = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&line, &len);
		for (int b = 0; b < nblk; b++) {
			const char *s = k < blk[b].n ? blk[b].v[k] : "";
			if (b + 1 < nblk)
				fmt_pad(f, s, w[b] + 4);
			else
				fputs(s, f);
		}
		fclose(f);
		size_t n = strlen(line);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		push(body, line);
	}
	for (int b = 0; b < nblk; b++) {
		for (int k = 0; k < blk[b].n; k++)
			free(blk[b].v[k]);
		free(blk[b].v);
	}
}

/* The per-head matrices of stage (scores, softmax or Z) of the heads in
 * heads, side by side. */
/* The value of the record of kind for head h (0-based), as the trace
 * recorded it; NULL if that head's records were not asked for. */
static const double *rec_value(const struct self_trace *t,
			       enum trace_kind kind, int h)
{
	const double *v = NULL;
	for (int k = 0; k < t->tr.nrecs; k++)
		if (t->tr.recs[k].kind == kind && t->tr.recs[k].head == h + 1)
			v = t->tr.recs[k].result; /* the mask after S */
	return v;
}

static void heads_table(struct lines *body, const struct self_trace *t,
			int stage, unsigned heads, int prec, int ascii,
			int width)
{
	struct lines blk[SELF_HEADS];
	int nblk = 0;
	memset(blk, 0, sizeof blk);
	for (int h = 0; h < SELF_HEADS; h++) {
		if (!(heads & t->tr.self.shown & (1u << h)))
			continue; /* not asked for, or not recorded */
		switch (stage) {
		case SELF_STAGE_SCORES:
			block(&blk[nblk++], t, prec, h, t->o.causal
			      ? "e, masked" : "e = QKᵀ/√d_k",
			      rec_value(t, t->o.causal ? REC_MASK
						       : REC_HEAD_SCORES, h),
			      t->nq, t->n, t->n, 0, ascii);
			break;
		case SELF_STAGE_SOFTMAX:
			block(&blk[nblk++], t, prec, h, "A (heatmap)",
			      rec_value(t, REC_ROW_SOFTMAX, h), t->nq, t->n,
			      t->n, 1, ascii);
			break;
		case SELF_STAGE_Z:
			block(&blk[nblk++], t, prec, h, "Z = A V",
			      rec_value(t, REC_HEAD_Z, h), t->nq, t->dk, t->dk,
			      0, ascii);
			break;
		default:
			break;
		}
	}
	side_by_side(body, blk, nblk, width);
	if (stage != SELF_STAGE_Z) {
		char *line = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&line, &len);
		fputs("columns:", f);
		for (int j = 0; j < t->n; j++)
			fprintf(f, " %d %s", j + 1, t->kwords[j]);
		fclose(f);
		push(body, line);
	}
	push(body, xstrdup(""));
}

void self_view_heatmap(FILE *out, const struct self_trace *t,
		       unsigned heads, int prec, int ascii)
{
	struct lines l = { 0 };
	heads_table(&l, t, SELF_STAGE_SOFTMAX, heads, prec, ascii, 0);
	for (int k = 0; k < l.n; k++) {
		fprintf(out, "%s\n", l.v[k]);
		free(l.v[k]);
	}
	free(l.v);
}

void self_view_tables(FILE *out, const struct self_trace *t,
		      enum self_stage stage, unsigned heads, int prec,
		      int width)
{
	struct lines l = { 0 };
	heads_table(&l, t, stage, heads, prec, 0, width);
	for (int k = 0; k < l.n; k++) {
		fprintf(out, "%s\n", l.v[k]);
		free(l.v[k]);
	}
	free(l.v);
}

static const char *stage_story(const struct self_trace *t, int stage)
{
	switch (stage) {
	case SELF_STAGE_X:
		return t->o.position
			? _("Each word's embedding plus its positional "
			    "encoding PE(pos): sines and cosines of the "
			    "position, from 0, so that the same word in two "
			    "places differs.")
			: _("Each word's embedding, with no positional encoding "
			    "(--no-position): word order is invisible.");
	case SELF_STAGE_QKV:
		return _("Every word makes a query (what it looks for), a key "
			 "(what it offers to be found by) and a value (what it "
			 "hands over): three matrix-vector products, q_i = "
			 "W_Q·x_i.");
	case SELF_STAGE_SCORES:
		return t->o.causal
			? _("Each head compares queries with keys on its own "
			    "features: e_i,j = q_i·k_j / √d_k.  The causal "
			    "mask sets every score of a later word (j > i) to "
			    "-inf.")
			: _("Each head compares queries with keys on its own "
			    "features: e_i,j = q_i·k_j / √d_k, Luong's dot "
			    "score with projections and scaling.");
	case SELF_STAGE_SOFTMAX:
		return _("A softmax over each row turns the scores into "
			 "weights that sum to 1 (a masked score weighs 0).  "
			 "Each head has its own pattern.");
	case SELF_STAGE_Z:
		return _("Each head's output is the weighted sum of the values "
			 "of its features: z_i = Σ_j α_i,j v_j.");
	default:
		return _("The heads' outputs side by side, [z_i[h1]; z_i[h2]], "
			 "and one more matrix-vector product, W_O, mix them "
			 "into the layer's output o_i.");
	}
}

static void render_bars(const struct self_view *v, struct view_screen *s)
{
	const struct self_trace *t = v->t;
	const double *A = rec_value(t, REC_ROW_SOFTMAX, v->head) +
			  (size_t)v->row * t->n;
	int best = 0;
	s->bars = xcalloc((size_t)t->n, sizeof *s->bars);
	s->nbars = t->n;
	for (int j = 1; j < t->n; j++)
		if (A[j] > A[best])
			best = j;
	for (int j = 0; j < t->n; j++) {
		s->bars[j].label = t->kwords[j];
		fmt_num(s->bars[j].value, A[j], v->prec);
		s->bars[j].frac = A[j];
		s->bars[j].is_max = j == best;
	}
	s->bars_title = xasprintf(_("α of row %d (%s), head %d   r: next "
				    "row, h: other head"), v->row + 1,
				  t->qwords[v->row], v->head + 1);
}

void self_view_render(const struct self_view *v, struct view_screen *s)
{
	const struct self_trace *t = v->t;
	struct lines narr = { 0 }, body = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(s, 0, sizeof *s);
	f = open_memstream(&text, &len);
	for (int j = 0; j < t->n; j++)
		fprintf(f, "%s%s", j ? " " : "", t->kwords[j]);
	fclose(f);
	s->title = xasprintf("attn-trace self   %s   [%s%s%s]", text,
			     t->o.cross ? _("cross-attention")
					: _("self-attention"),
			     t->o.causal ? _(", causal") : "",
			     t->o.position ? "" : _(", no positions"));
	free(text);
	s->stage = -1;
	if (v->help) {
		s->where = xstrdup(_("help"));
		for (int k = 0; self_view_help[k]; k++)
			push(&body, xstrdup(self_view_help[k][0]
					    ? _(self_view_help[k]) : ""));
		s->keys = xstrdup(_(" any key: back "));
		s->body = body.v;
		s->nbody = body.n;
		return;
	}
	if (v->diagram) {
		struct self_diagram d;
		s->where = xasprintf(_("line diagram of head %d, query row %d "
					 "(%s)"), v->head + 1, v->row + 1,
				     t->qwords[v->row]);
		view_wrap(&narr.v, &narr.n, &narr.cap,
			  _("Each line joins the query word to a key word and "
			    "is as thick as the head's weight for the pair; a "
			    "masked pair has no line.  r: the next query row, "
			    "h: the other head, d: back to the stages."),
			  v->width < VIEW_PROSE_COLS ? v->width
						     : VIEW_PROSE_COLS, 1);
		if (self_diagram_build(&d, t, v->head, v->row, v->width,
				       v->prec) == 0) {
			for (int k = 0; k < d.nlines; k++) {
				push(&body, d.lines[k]);
				d.lines[k] = NULL;
			}
			d.nlines = 0;
			self_diagram_free(&d);
		}
		s->narr = narr.v;
		s->nnarr = narr.n;
		s->body = body.v;
		s->nbody = body.n;
		s->keys = xstrdup(_(" d back  r row  h head  up/down scroll  ? "
				    "help  q quit "));
		return;
	}
	s->where = xasprintf(_("stage %d of %d: %s"), v->stage + 1,
			     SELF_STAGE_COUNT, _(stage_title[v->stage]));
	view_wrap(&narr.v, &narr.n, &narr.cap, stage_story(t, v->stage),
		  v->width < VIEW_PROSE_COLS ? v->width : VIEW_PROSE_COLS, 1);
	if (v->stage >= SELF_STAGE_SCORES && v->stage <= SELF_STAGE_Z)
		heads_table(&body, t, v->stage, v->heads, v->prec, 0,
			    v->width);
	for (int h = 0; h < SELF_HEADS; h++) {
		int per_head = v->stage >= SELF_STAGE_SCORES &&
			       v->stage <= SELF_STAGE_Z;
		if (per_head && !(v->heads & (1u << h)))
			continue;
		text = NULL;
		f = open_memstream(&text, &len);
		if (per_head)
			fprintf(f, _("head %d:\n"), h + 1);
		self_fmt_text_stage(f, t, (enum self_stage)v->stage, h, v->prec,
				    1);
		fclose(f);
		view_wrap(&body.v, &body.n, &body.cap, text,
			  v->width < VIEW_TEXT_COLS ? v->width : VIEW_TEXT_COLS,
			  0);
		free(text);
		if (!per_head)
			break;
	}
	if (v->stage >= SELF_STAGE_SCORES && v->stage <= SELF_STAGE_Z)
		render_bars(v, s);
	s->narr = narr.v;
	s->nnarr = narr.n;
	s->body = body.v;
	s->nbody = body.n;
	/* ASCII arrows, as the main stepper's key bar writes them: '←'
	 * would be drawn as '?' under a locale that is not UTF-8 */
	s->keys = xstrdup(_(" <-/-> stage  up/down <> scroll  r row  h head  "
			    "d diagram  ? help  q quit "));
}

int self_view_key(struct self_view *v, int key)
{
	const int last = SELF_STAGE_COUNT - 1;
	int stage = v->stage;

	if (v->help) {
		v->help = 0;
		return key == 'q' ? VIEW_KEY_QUIT : VIEW_KEY_REDRAW;
	}
	switch (key) {
	case 'q': case 'Q':
		return VIEW_KEY_QUIT;
	case VIEW_KEY_RIGHT: case 'n': case ' ': case VIEW_KEY_ENTER: case '\n':
		stage++;
		break;
	case VIEW_KEY_LEFT: case 'p':
		stage--;
		break;
	case VIEW_KEY_HOME:
		stage = 0;
		break;
	case VIEW_KEY_END:
		stage = last;
		break;
	case 'r':
		v->row = (v->row + 1) % v->t->nq;
		return VIEW_KEY_REDRAW;
	case 'R':
		v->row = (v->row + v->t->nq - 1) % v->t->nq;
		return VIEW_KEY_REDRAW;
	case 'h':
		do
			v->head = (v->head + 1) % SELF_HEADS;
		while (!(v->heads & (1u << v->head)));
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_DOWN:
		v->scroll++;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_UP:
		if (v->scroll == 0)
			return VIEW_KEY_BEEP;
		v->scroll--;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_NPAGE:
		v->scroll += v->page_rows > 0 ? v->page_rows : 1;
		return VIEW_KEY_REDRAW;
	case '>':
		v->hscroll += SELF_VIEW_HSTEP;
		return VIEW_KEY_REDRAW;
	case '<':
		if (v->hscroll == 0)
			return VIEW_KEY_BEEP;
		v->hscroll -= v->hscroll < SELF_VIEW_HSTEP ? v->hscroll
			: SELF_VIEW_HSTEP;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_PPAGE:
		v->scroll -= v->page_rows > 0 ? v->page_rows : 1;
		if (v->scroll < 0)
			v->scroll = 0;
		return VIEW_KEY_REDRAW;
	case 'd': case 'D':
		v->diagram = !v->diagram;
		v->scroll = 0;
		return VIEW_KEY_REDRAW;
	case '?':
		v->help = 1;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_RESIZE:
		return VIEW_KEY_REDRAW;
	default:
		return VIEW_KEY_DONE;
	}
	if (stage < 0 || stage > last)
		return VIEW_KEY_BEEP;
	v->stage = stage;
	v->scroll = 0;
	v->hscroll = 0;
	return VIEW_KEY_REDRAW;
}
