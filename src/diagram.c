/* diagram.c: the picture of one decoder step as lines of text (diagram.h).
 *
 * Layout, one row a source word, the query on the right:
 *
 *    ┌──────────┬─────────────┐
 *    │ je       │ +█ -▒ +▓ -░ │◄━━━━━━━━━━━━━━ 0.8123 ◄ largest ─┐
 *    │ suis     │ +░ +░ -· +░ │◄──── 0.1234 ─────────────────────┼── s_1
 *    │ étudiant │ -░ +░ +▒ -▓ │◄┄ 0.0643 ────────────────────────┘
 *    └──────────┴─────────────┘
 *
 * then the context, the result and the output word, each with its
 * numbers (under input feeding, h̃_{t-1} and its arrow into s_t first).
 * A state's cell is its sign and a shade of its magnitude, so that
 * positive and negative read apart without colour. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diagram.h"
#include "window.h"
#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "utf8.h"

int diagram_build(struct diagram *d, const struct trace *tr, int run, int t,
		  struct errbuf *err)
{
	memset(d, 0, sizeof *d);
	if (run < 0 || run >= tr->nruns || t < 1 || t > tr->runs[run].nsteps) {
		err_set(err, _("no step %d in this trace"), t);
		return -1;
	}
	d->tr = tr;
	d->run = run;
	d->t = t;
	d->n = tr->n;
	const struct trace_rec *sm = trace_find(tr, REC_SOFTMAX, run, t, 0);
	const struct trace_rec *ctx = trace_find(tr, REC_CONTEXT, run, t, 0);
	const struct trace_rec *dec = trace_find(tr, REC_RNN, run, t, 0);
	const struct trace_rec *q = trace_find(tr, REC_QUERY, run, t, 0);
	const struct trace_rec *att = trace_find(tr, REC_ATTENTIONAL, run, t, 0);
	const struct trace_rec *out = trace_find(tr, REC_OUTPUT, run, t, 0);
	if (!sm || !ctx || !dec || !out || sm->len != tr->n) {
		err_set(err, _("step %d has no attention to draw"), t);
		return -1;
	}
	/* the weights the context was made with: a local-p window's are the
	 * softmax times the Gaussian */
	d->alpha = trace_weights(tr, run, t);
	if (!d->alpha)
		d->alpha = sm->result;
	/* hard attention: the drawn word, whose state is the context */
	const struct trace_rec *smp = NULL;
	for (int k = tr->runs[run].step_first[t - 1];
	     k < tr->nrecs && tr->recs[k].run == run && tr->recs[k].t == t; k++)
		if (tr->recs[k].kind == REC_SAMPLE)
			smp = &tr->recs[k];
	const struct trace_rec *win = trace_find(tr, REC_WINDOW, run, t, 0);
	if (win) {
		d->has_pt = 1;
		d->pt = trace_op(win, "p")->v[0];
		d->win_lo = (int)trace_op(win, "window")->v[0];
		d->win_hi = (int)trace_op(win, "window")->v[1];
	}
	d->note[0] = '\0';
	if (win && window_get(tr->cfg.window)->diagram_note)
		trace_expand(d->note, sizeof d->note,
			     _(window_get(tr->cfg.window)->diagram_note), tr,
			     win);
	for (int i = 0; i < d->n; i++)
		if (d->alpha[i] > d->alpha[d->amax])
			d->amax = i;
	for (int i = 0; i < d->n; i++) {
		const struct trace_rec *w = trace_find(tr, REC_WEIGHTED, run, t,
						       i + 1);
		const struct trace_rec *e = w ? NULL
			: trace_find(tr, REC_ANNOTATION, -1, 0, i + 1);
		if (!w && !e)
			e = trace_find(tr, REC_RNN, -1, 0, i + 1);
		if (!w && !e) {
			err_set(err, _("no state h_%d in this trace"), i + 1);
			return -1;
		}
		d->h[i] = w ? trace_op(w, "h")->v : e->result;
		d->hlen = w ? trace_op(w, "h")->len : e->len;
		d->words[i] = tr->m->src.words[tr->src[i]];
	}
	/* the query: its own record (Bahdanau's s_{t-1}), else the decoder's
	 * new state, s_t */
	const struct trace_rec *qr = q ? q : dec;
	d->query = qr->result;
	d->qlen = qr->len;
	snprintf(d->qname, sizeof d->qname, "s_%d", t + tr->query_off);
	d->context = smp ? smp->result : ctx->result;
	d->clen = smp ? smp->len : ctx->len;
	d->sampled = smp ? smp->i : 0;
	/* c_t feeds the RNN when the step records its context first */
	d->feeds_rnn = ctx < dec;
	/* input feeding: the RNN's record carries h̃_{t-1} ("feed") */
	const struct trace_operand *feed = trace_op_key(dec, "feed");
	if (feed) {
		d->feed = feed->v;
		d->flen = feed->len;
	}
	if (att && !d->feeds_rnn) {
		d->result = att->result;
		d->rlen = att->len;
		snprintf(d->rname, sizeof d->rname, "h̃_%d", t);
	} else {
		d->result = dec->result;
		d->rlen = dec->len;
		snprintf(d->rname, sizeof d->rname, "s_%d", t);
	}
	if (out->word >= 0 && out->word < tr->m->tgt.n) {
		d->out = tr->m->tgt.words[out->word];
		d->out_p = out->result[out->word];
	} else {
		d->out = "?";
	}
	return 0;
}

int diagram_level(double a)
{
	return a >= 0.5 ? 3 : a >= 0.25 ? 2 : a >= 0.1 ? 1 : 0;
}

/* The glyphs, box drawing or ASCII. */
struct glyphs {
	const char *h, *v, *tl, *tr, *bl, *br, *tt, *bt;
	const char *shade[5];     /* a cell's magnitude, 0 to 4 */
	const char *minus;
	const char *line[DIAGRAM_LEVELS];
	const char *arrow, *mark, *brk_top, *brk_mid, *brk_mid_q, *brk_bot,
		*brk_top_q, *win, *pt, *ell, *to;
};

static const struct glyphs utf8_glyphs = {
	"─", "│", "┌", "┐", "└", "┘", "┬", "┴",
	{ "·", "░", "▒", "▓", "█" }, "−",
	{ "┄", "─", "━", "█" },
	"◄", "◄", "┐", "┤", "┼", "┘", "┬", "▌", "▶", "…", "──►"
};

static const struct glyphs ascii_glyphs = {
	"-", "|", "+", "+", "+", "+", "+", "+",
	{ ".", ":", "=", "%", "#" }, "-",
	{ ".", "-", "=", "#" },
	"<", "<-", "+", "|", "+", "+", "+", "|", ">", "~", "-->"
};

static void rep(struct fmt_buf *b, const char *s, int n)
{
	for (int k = 0; k < n; k++)
		fmt_buf_puts(b, s);
}

/* Appends s cut to at most cols columns (the last one then the ellipsis)
 * and padded to cols. */
static void put_cut(struct fmt_buf *b, const char *s, int cols,
		    const struct glyphs *g)
{
	int w = utf8_width(s);
	if (w <= cols) {
		fmt_buf_puts(b, s);
		fmt_buf_spaces(b, cols - w);
		return;
	}
	int used = 0;
	size_t len;
	for (; (len = utf8_char_len(s)) > 0; s += len) {
		char ch[8] = { 0 };
		memcpy(ch, s, len < 5 ? len : 4);
		int cw = utf8_width(ch);
		if (used + cw > cols - 1)
			break;
		fmt_buf_put(b, s, len);
		used += cw;
	}
	fmt_buf_puts(b, g->ell);
	fmt_buf_spaces(b, cols - 1 - used);
}

/* The cells of v (its first DIAGRAM_CELLS numbers): 3 columns each but
 * the last, 2. */
#define CELLS_COLS (3 * DIAGRAM_CELLS - 1)
static void put_cells(struct fmt_buf *b, const double *v, int len,
		      const struct glyphs *g)
{
	for (int k = 0; k < DIAGRAM_CELLS; k++) {
		if (k)
			fmt_buf_putc(b, ' ');
		if (k >= len) {
			fmt_buf_puts(b, "  ");
			continue;
		}
		double a = fabs(v[k]);
		int lvl = (int)(a * 4 + 0.5);
		if (lvl > 4)
			lvl = 4;
		fmt_buf_puts(b, v[k] < 0 && lvl ? g->minus : "+");
		fmt_buf_puts(b, g->shade[lvl]);
	}
}

/* v's numbers with signs: 1 + 3 + prec columns each and a blank between */
static int put_nums(struct fmt_buf *b, const double *v, int len, int prec)
{
	char num[NUM_BUFSZ];
	int cols = 0;
	for (int k = 0; k < len; k++) {
		if (k)
			fmt_buf_putc(b, ' ');
		num_fixed(num, v[k], prec);
		if (num[0] != '-')
			fmt_buf_putc(b, '+');
		fmt_buf_puts(b, num);
		cols += (k ? 1 : 0) + 3 + prec;
	}
	return cols;
}

/* Adds the line in b, cut to cols columns between whole characters, to
 * the lines. */
static void push(char ***lines, int *n, int *cap, struct fmt_buf *b, int cols)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*lines = xreallocarray(*lines, (size_t)*cap, sizeof **lines);
	}
	fmt_buf_putc(b, '\0');
	size_t at = 0, len;
	for (int used = 0; (len = utf8_char_len(b->p + at)) > 0; at += len) {
		char ch[8] = { 0 };
		memcpy(ch, b->p + at, len < 5 ? len : 4);
		int w = utf8_width(ch);
		if (used + w > cols)
			break;
		used += w;
	}
	(*lines)[(*n)++] = xstrndup(b->p, at);
	b->len = 0;
}

/* Input feeding: the row of h̃_{t-1}, labelled lab columns wide, and
 * under it the arrow that takes it into the RNN that makes s_t:
 *
 *    h̃_1  +█ +█ −░ +█  +0.9669 ...  step 1's attentional state
 *     └──► s_2 = tanh(W_x·[y_1; h̃_1] + W_h·s_1 + b): input feeding
 */
static void put_feed(struct fmt_buf *b, const struct diagram *d, int lab,
		     int width, int prec, int ascii, const struct glyphs *g,
		     char ***lines, int *nl, int *cap, int cols)
{
	const int t = d->t, p = t - 1;
	char name[24], what[64];
	snprintf(name, sizeof name, ascii ? "h~_%d" : "h̃_%d", p);
	if (p > 0)
		snprintf(what, sizeof what, _("fed back from step %d"), p);
	else
		snprintf(what, sizeof what, "%s", _("zero: no step before"));
	int w = fmt_buf_put_cols(b, name);
	fmt_buf_spaces(b, lab - w);
	fmt_buf_putc(b, ' ');
	put_cells(b, d->feed, d->flen, g);
	fmt_buf_puts(b, "  ");
	int shown = d->flen, room = width - (lab + 1 + CELLS_COLS + 2);
	if (shown * (4 + prec) > room)
		shown = room / (4 + prec);
	if (shown < 0)
		shown = 0;
	put_nums(b, d->feed, shown, prec);
	if (shown < d->flen)
		fmt_buf_printf(b, " %s", g->ell);
	int used = lab + 1 + CELLS_COLS + 2 + shown * (4 + prec);
	if (width - used > (int)strlen(what) + 4) /* bytes: surely fits */
		fmt_buf_printf(b, "  %s", what);
	push(lines, nl, cap, b, cols);
	fmt_buf_printf(b, " %s%s%s s_%d = tanh(W_x%s[y_%d; %s] + W_h%ss_%d + b): "
		       "input feeding", g->bl, g->h, ascii ? "->" : "─►", t,
		       ascii ? "*" : "·", p, name, ascii ? "*" : "·", p);
	push(lines, nl, cap, b, cols);
}

/* Row i's line under a window with a diagram_note (fixed): inside the
 * window, the weight's line to the context c_t; outside, none. */
static void diagram_fixed_line(struct fmt_buf *b, const struct diagram *d,
			       int i, int barw, int prec,
			       const struct glyphs *g)
{
	char num[NUM_BUFSZ];
	double a = d->alpha[i];
	if (i + 1 < d->win_lo || i + 1 > d->win_hi)
		return;
	int len = (int)(a * barw + 0.5);
	fmt_buf_putc(b, ' ');
	rep(b, g->line[diagram_level(a)], len < 1 ? 1 : len);
	fmt_buf_putc(b, ' ');
	fmt_buf_put(b, num, num_fixed_len(num, a, prec));
	fmt_buf_printf(b, " %s c_%d = h_%d", g->to, d->t, i + 1);
}

int diagram_render(const struct diagram *d, int width, int ascii,
		   int precision, char ***lines)
{
	const struct glyphs *g = ascii ? &ascii_glyphs : &utf8_glyphs;
	struct fmt_buf b = FMT_BUF_INIT;
	char num[NUM_BUFSZ];
	int nl = 0, cap = 0, prec = precision < 1 ? 1 : precision > 6 ? 6
		: precision;
	*lines = NULL;
	int cols = width < 1 ? 1 : width; /* where the lines are cut */
	if (width < 40)
		width = 40;
	int marks = d->win_lo > 0 || d->has_pt; /* the window's column */
	int ww = 4;
	for (int i = 0; i < d->n; i++) {
		int w = utf8_width(d->words[i]);
		if (w > ww)
			ww = w;
	}
	int wmax = width >= 140 ? 16 : 10;
	if (ww > wmax)
		ww = wmax;
	/* the states' numbers in the boxes when there is room for them */
	int hn = d->hlen < DIAGRAM_CELLS ? d->hlen : DIAGRAM_CELLS;
	int numcols = width >= 140 ? hn * (4 + prec) - 1 + 2 : 0;
	int box = (marks ? 2 : 0) + 1 + 1 + ww + 3 + CELLS_COLS + numcols + 2;
	int qcols = 3 + utf8_width(d->qname); /* "── s_1" after the bracket */
	/* the line: arrow, bar, blank, α, the marks, blank, run to bracket */
	/* the marks' room: " <- largest, sampled" in the user's language */
	int mk = 4 + utf8_width(_("largest")) +
		 (d->sampled > 0 ? 2 + utf8_width(_("sampled")) : 0);
	int tail = 1 + 1 + 2 + prec + 1 + mk + 2 + 1 + qcols;
	int barw = width - box - tail;
	if (barw > 60)
		barw = 60;
	if (barw < 6)
		barw = 6;

	/* the heading */
	if (d->note[0])
		fmt_buf_puts(&b, d->note);
	else
		fmt_buf_printf(&b, d->feeds_rnn
			       ? _("step %d: the query %s (the state before the "
				   "step) weighs each state h_i")
			       : _("step %d: the query %s (the decoder's new "
				   "state) weighs each state h_i"),
			       d->t, d->qname);
	push(lines, &nl, &cap, &b, cols);
	/* the top border */
	fmt_buf_spaces(&b, marks ? 2 : 0);
	fmt_buf_puts(&b, g->tl);
	rep(&b, g->h, ww + 2);
	fmt_buf_puts(&b, g->tt);
	rep(&b, g->h, CELLS_COLS + numcols + 2);
	fmt_buf_puts(&b, g->tr);
	push(lines, &nl, &cap, &b, cols);

	int qrow = (d->n - 1) / 2;
	int ptrow = d->has_pt ? (int)floor(d->pt + 0.5) : 0;
	int linecols = 1 + barw + 1 + 2 + prec + mk + 2;
	for (int i = 0; i < d->n; i++) {
		if (marks) {
			if (ptrow == i + 1)
				fmt_buf_puts(&b, g->pt);
			else if (d->win_lo > 0 && i + 1 >= d->win_lo
				 && i + 1 <= d->win_hi)
				fmt_buf_puts(&b, g->win);
			else
				fmt_buf_putc(&b, ' ');
			fmt_buf_putc(&b, ' ');
		}
		fmt_buf_puts(&b, g->v);
		fmt_buf_putc(&b, ' ');
		put_cut(&b, d->words[i], ww, g);
		fmt_buf_putc(&b, ' ');
		fmt_buf_puts(&b, g->v);
		fmt_buf_putc(&b, ' ');
		put_cells(&b, d->h[i], d->hlen, g);
		if (numcols) {
			fmt_buf_spaces(&b, 2);
			put_nums(&b, d->h[i], hn, prec);
		}
		fmt_buf_putc(&b, ' ');
		fmt_buf_puts(&b, g->v);
		if (d->note[0]) { /* fixed: one line, from h_n to c_t */
			diagram_fixed_line(&b, d, i, barw, prec, g);
			push(lines, &nl, &cap, &b, cols);
			continue;
		}
		/* the line from the query: as long and as thick as α */
		double a = d->alpha[i];
		int len = (int)(a * barw + 0.5);
		if (len < 1)
			len = 1;
		int used = 1 + len + 1;
		fmt_buf_puts(&b, g->arrow);
		rep(&b, g->line[diagram_level(a)], len);
		fmt_buf_putc(&b, ' ');
		size_t nlen = num_fixed_len(num, a, prec);
		fmt_buf_put(&b, num, nlen);
		used += (int)nlen;
		int big = i == d->amax, smp = d->sampled == i + 1;
		if (big || smp) {
			/* TRANSLATORS: the marks of the largest weight's
			 * and the drawn word's line in the step diagram */
			const char *lg = _("largest"), *sm = _("sampled");
			fmt_buf_printf(&b, " %s %s%s%s", g->mark,
				       big ? lg : "", big && smp ? ", " : "",
				       smp ? sm : "");
			used += 2 + utf8_width(g->mark)
				+ (big ? utf8_width(lg) : 0)
				+ (big && smp ? 2 : 0)
				+ (smp ? utf8_width(sm) : 0);
		}
		fmt_buf_putc(&b, ' ');
		rep(&b, g->h, linecols - used - 1);
		/* the bracket that gathers the lines at the query */
		if (d->n == 1)
			fmt_buf_puts(&b, g->h);
		else if (i == 0)
			fmt_buf_puts(&b, qrow == 0 ? g->brk_top_q : g->brk_top);
		else if (i == d->n - 1)
			fmt_buf_puts(&b, g->brk_bot);
		else
			fmt_buf_puts(&b, i == qrow ? g->brk_mid_q : g->brk_mid);
		if (i == qrow) {
			rep(&b, g->h, 2);
			fmt_buf_printf(&b, " %s", d->qname);
		}
		push(lines, &nl, &cap, &b, cols);
	}
	/* the bottom border */
	fmt_buf_spaces(&b, marks ? 2 : 0);
	fmt_buf_puts(&b, g->bl);
	rep(&b, g->h, ww + 2);
	fmt_buf_puts(&b, g->bt);
	rep(&b, g->h, CELLS_COLS + numcols + 2);
	fmt_buf_puts(&b, g->br);
	push(lines, &nl, &cap, &b, cols);

	/* the variants' marks, in words */
	if (d->win_lo > 0 || d->has_pt || d->sampled > 0) {
		if (d->win_lo > 0)
			fmt_buf_printf(&b, "%s window: positions %d..%d  ",
				       g->win, d->win_lo, d->win_hi);
		if (d->has_pt) {
			num_fixed(num, d->pt, prec);
			fmt_buf_printf(&b, "%s p_%d = %s  ", g->pt, d->t, num);
		}
		if (d->sampled > 0)
			fmt_buf_printf(&b, _("sampled: h_%d (%s)"), d->sampled,
				       d->words[d->sampled - 1]);
		push(lines, &nl, &cap, &b, cols);
	}

	/* the query, the context and the result, with their numbers */
	int lab = 1 + utf8_width(d->rname) > 4 ? 1 + utf8_width(d->rname) : 4;
	struct {
		const char *name, *what;
		const double *v;
		int len;
	} rows[3] = {
		{ d->qname, _("the query"), d->query, d->qlen },
		{ NULL, NULL, d->context, d->clen },
		{ d->rname, d->feeds_rnn ? _("the new state")
		  : _("the attentional state"),
		  d->result, d->rlen },
	};
	char cname[24], rname[24], hl[48], cw[48];

	/* α_t, or local-p's a_t (align × the Gaussian), makes the context */
	snprintf(cw, sizeof cw, _("Σ %s·h_i, the context"),
		 trace_weight_symbol(d->tr));
	rows[1].what = cw;
	snprintf(cname, sizeof cname, "c_%d", d->t);
	rows[1].name = cname;
	if (d->sampled > 0) { /* hard attention: c_t is the drawn state */
		snprintf(hl, sizeof hl, _("= h_%d, drawn"),
			 d->sampled);
		rows[1].what = hl;
	}
	if (ascii) {
		if (d->sampled <= 0)
			rows[1].what = "sum of a_i*h_i, the context";
		if (!d->feeds_rnn) {
			snprintf(rname, sizeof rname, "h~_%d", d->t);
			rows[2].name = rname;
		}
	}
	for (int k = 0; k < 3; k++) {
		if (k == 0 && d->feed)
			put_feed(&b, d, lab, width, prec, ascii, g, lines, &nl,
				 &cap, cols);
		int w = fmt_buf_put_cols(&b, rows[k].name);
		fmt_buf_spaces(&b, lab - w);
		fmt_buf_putc(&b, ' ');
		put_cells(&b, rows[k].v, rows[k].len, g);
		fmt_buf_puts(&b, "  ");
		int shown = rows[k].len;
		int room = width - (lab + 1 + CELLS_COLS + 2);
		if (shown * (4 + prec) > room)
			shown = room / (4 + prec);
		if (shown < 0)
			shown = 0;
		put_nums(&b, rows[k].v, shown, prec);
		if (shown < rows[k].len)
			fmt_buf_printf(&b, " %s", g->ell);
		int used = lab + 1 + CELLS_COLS + 2 + shown * (4 + prec);
		/* bytes, not columns: a label of wide or non-ASCII
		 * characters is shown only when it surely fits */
		if (width - used > (int)strlen(rows[k].what) + 4)
			fmt_buf_printf(&b, "  %s", rows[k].what);
		push(lines, &nl, &cap, &b, cols);
	}
	num_fixed(num, d->out_p, prec);
	if (d->feeds_rnn)
		fmt_buf_printf(&b, "c_%d feeds the RNN: s_%d = f(s_%d, y_%d, c_%d)",
			       d->t, d->t, d->t - 1, d->t - 1, d->t);
	else
		fmt_buf_printf(&b, "%s = tanh(W_c%s[c_%d; s_%d])", rows[2].name,
			       ascii ? "*" : "·", d->t, d->t);
	fmt_buf_printf(&b, _(" %s output \"%s\"  P = %s"), g->to, d->out, num);
	push(lines, &nl, &cap, &b, cols);
	fmt_buf_free(&b);
	return nl;
}

void diagram_lines_free(char **lines, int n)
{
	for (int k = 0; k < n; k++)
		free(lines[k]);
	free(lines);
}
