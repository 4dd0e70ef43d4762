/* fmt_view.c: bars, the alignment heatmap and the scorer comparison, as
 * text and as pieces that the stepper lays out. */
#include "config.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "fmt.h"
#include "i18n.h"
#include "window.h"
#include "num.h"
#include "utf8.h"

char *fmt_num(char *buf, double x, int prec)
{
	return num_fixed(buf, x, prec);
}

int fmt_bars(struct fmt_bar *bars, const struct trace *tr, int run, int t,
	     int prec)
{
	const double *a = trace_weights(tr, run, t);
	if (!a)
		return 0;
	int best = 0;
	for (int i = 0; i < tr->n; i++) {
		bars[i].label = tr->m->src.words[tr->src[i]];
		num_fixed(bars[i].value, a[i], prec);
		bars[i].frac = a[i];
		bars[i].is_max = 0;
		bars[i].is_drawn = trace_find(tr, REC_SAMPLE, run, t, i + 1)
				   != NULL;
		if (a[i] > a[best])
			best = i;
	}
	bars[best].is_max = 1;
	return tr->n;
}

/* Writes a bar of frac * width columns in eighths of a block. */
static void bar_draw(FILE *out, double frac, int width)
{
	static const char *const part[8] = {
		"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"
	};
	int eighths = (int)(frac * width * 8 + 0.5), used = eighths / 8;
	for (int k = 0; k < used; k++)
		fputs("█", out);
	if (eighths % 8) {
		fputs(part[eighths % 8], out);
		used++;
	}
	for (; used < width; used++)
		putc(' ', out);
}

static int words_width(const struct vocab *v, const int *w, int n)
{
	int width = 0;
	for (int k = 0; k < n; k++) {
		int c = utf8_width(v->words[w[k]]);
		if (c > width)
			width = c;
	}
	return width;
}

void fmt_text_bars(FILE *out, const struct trace *tr, int run, int t,
		   int bar_width, int prec)
{
	struct fmt_bar *bars = xcalloc((size_t)tr->n, sizeof *bars);
	int n = fmt_bars(bars, tr, run, t, prec);
	int lw = words_width(&tr->m->src, tr->src, tr->n);
	for (int i = 0; i < n; i++) {
		fputs("  ", out);
		fmt_pad(out, bars[i].label, lw + 2);
		bar_draw(out, bars[i].frac, bar_width);
		fprintf(out, "  %s%s%s\n", bars[i].value,
			bars[i].is_max ? _("  <- largest") : "",
			bars[i].is_drawn ? _("  <- drawn (hard)") : "");
	}
	free(bars);
}

int fmt_shade(double a, int levels)
{
	int k = (int)(a * levels);
	if (k < 0)
		k = 0;
	return k >= levels ? levels - 1 : k;
}

const double *fmt_heat_row(const struct trace *tr, int run, int t, int drawn,
			   double *buf)
{
	if (!drawn) /* the weights the context was made with */
		return trace_weights(tr, run, t);
	for (int i = 1; i <= tr->n; i++)
		if (trace_find(tr, REC_SAMPLE, run, t, i)) {
			for (int j = 0; j < tr->n; j++)
				buf[j] = j == i - 1;
			return buf;
		}
	return NULL;
}

void fmt_text_heatmap(FILE *out, const struct trace *tr, int run, int prec,
		      int ascii)
{
	fmt_text_heatmap_drawn(out, tr, run, prec, ascii, 0);
}

const char *fmt_heat_window_note(const struct trace *tr, int run, char *buf,
				 size_t size)
{
	const char *note = window_get(tr->cfg.window)->heatmap_note;
	const struct trace_rec *w = trace_find(tr, REC_WINDOW, run, 1, 0);
	if (!note || !w)
		return NULL;
	trace_expand(buf, size, _(note), tr, w);
	return buf;
}

/* Adds "p_t = X" to the list b, after ", ", or on a new line where the
 * line would pass 80 columns: an item is never broken. */
static void hm_item(struct fmt_buf *b, int t, const char *x)
{
	char item[64];
	int len = snprintf(item, sizeof item, "p_%d = %s", t, x);
	size_t nl = 0;
	for (size_t k = 0; k < b->len; k++)
		if (b->p[k] == '\n')
			nl = k + 1;
	if (b->len && (int)(b->len - nl) + 2 + len > 80)
		fmt_buf_printf(b, ",\n%s", item);
	else
		fmt_buf_printf(b, "%s%s", b->len ? ", " : "", item);
}

void fmt_text_heatmap_drawn(FILE *out, const struct trace *tr, int run,
			    int prec, int ascii, int drawn)
{
	static const char *const blocks[5] = { " ", "░", "▒", "▓", "█" };
	static const char *const shades[5] = { " ", ".", ":", "+", "#" };
	const struct trace_run *ru = &tr->runs[run];
	const struct vocab *tv = &tr->m->tgt;
	char buf[NUM_BUFSZ];
	int rw = words_width(tv, ru->pred, ru->nsteps);
	int cw = words_width(&tr->m->src, tr->src, tr->n);
	if (cw < prec + 4)
		cw = prec + 4;
	/* TRANSLATORS: %1$s what the cells are ("alignment α"), %2$s the
	 * scorer's name */
	fprintf(out, _("%1$s, %2$s scorer: a row for each output word, a "
		       "column for each source word\n"), drawn
		? _("the drawn words l (hard attention)")
		: window_get(tr->cfg.window)->unnormalised
		? _("final weights a (align × the Gaussian)") : _("alignment α"),
		trace_scorer_name(ru->scorer));
	char note[256];
	if (fmt_heat_window_note(tr, run, note, sizeof note))
		fprintf(out, "%s\n", note);
	else if (trace_find(tr, REC_WINDOW, run, 1, 0)) {
		fprintf(out, _("%s window, D = %d: | marks the window's "
			       "edges, * the word ⌊p_t⌋, the weights outside it "
			       "are 0\n"),
			window_get(tr->cfg.window)->name, tr->cfg.window_size);
	}
	double *one = xcalloc((size_t)tr->n, sizeof *one);
	/* p_t goes at the end of its row when the row still fits 80
	 * columns, else in a list under the table */
	int pt_inline = rw + 2 + tr->n * (cw + 1) + 1 + 8 +
		snprintf(NULL, 0, "%d", ru->nsteps) + prec + 3 <= 80;
	struct fmt_buf pts = FMT_BUF_INIT;
	fmt_pad(out, "", rw + 2);
	for (int i = 0; i < tr->n; i++) {
		fputs(" ", out);
		fmt_pad(out, tr->m->src.words[tr->src[i]], cw);
	}
	putc('\n', out);
	for (int t = 1; t <= ru->nsteps; t++) {
		const double *a = fmt_heat_row(tr, run, t, drawn, one);
		fmt_pad(out, tv->words[ru->pred[t - 1]], rw + 2);
		/* a local window: '|' at its edges, '*' before ⌊p_t⌋'s cell */
		const struct trace_rec *w = trace_find(tr, REC_WINDOW, run, t, 0);
		const double *bounds = w ? trace_op(w, "window")->v : NULL;
		double pt = w ? trace_op(w, "p")->v[0] : 0;
		int lo = w ? (int)bounds[0] : 0, hi = w ? (int)bounds[1] : 0;
		int pc = w ? (int)floor(pt) : 0;
		if (!a) { /* drawn, and the step drew nothing */
			putc('\n', out);
			continue;
		}
		for (int i = 0; i < tr->n; i++) {
			int lvl = fmt_shade(a[i], 5);
			fprintf(out, "%c%s%c", w && (i + 1 == lo || i == hi) ? '|'
				: ' ', (ascii ? shades : blocks)[lvl],
				i + 1 == pc ? '*' : ' ');
			num_fixed(buf, a[i], prec);
			if (i + 1 < tr->n || (w && hi == tr->n))
				fmt_pad(out, buf, cw - 2);
			else
				fputs(buf, out);
		}
		if (w && hi == tr->n)
			putc('|', out);
		if (w && pt_inline)
			fprintf(out, " p_%d = %s", t, num_fixed(buf, pt, prec));
		else if (w)
			hm_item(&pts, t, num_fixed(buf, pt, prec));
		putc('\n', out);
	}
	if (pts.len) {
		fwrite(pts.p, 1, pts.len, out);
		fputc('\n', out);
	}
	fmt_buf_free(&pts);
	free(one);
}

/* One row of the comparison: entry k of the record (kind, run, t) for each
 * run, right-aligned in columns of colw, with a short bar when bar > 0. */
static void compare_row(FILE *out, const struct trace *tr, const char *label,
			int lw, enum trace_kind kind, int t, int k, int prec,
			int colw, int bar, int from, int to)
{
	char buf[NUM_BUFSZ];
	fputs("  ", out);
	fmt_pad(out, label, lw);
	for (int run = from; run < to; run++) {
		const struct trace_rec *r = trace_find(tr, kind, run, t, 0);
		const char *cell = r ? num_fixed(buf, r->result[k], prec) : "-";
		int w = (int)strlen(cell) + (bar ? bar + 1 : 0);
		fprintf(out, "%*s%s", colw - w, "", cell);
		if (bar) {
			putc(' ', out);
			bar_draw(out, r ? r->result[k] : 0, bar);
		}
	}
	putc('\n', out);
}

/* The table of fmt_text_compare() for the runs [from, to). */
static void compare_table(FILE *out, const struct trace *tr, int t, int prec,
			  int lw, int colw, int from, int to)
{
	const struct model *m = tr->m;
	char lab[32];
	fmt_pad(out, "", lw + 2);
	for (int run = from; run < to; run++)
		fprintf(out, "%*s", colw, trace_scorer_name(tr->runs[run].scorer));
	putc('\n', out);
	for (int i = 0; i < tr->n; i++) {
		snprintf(lab, sizeof lab, "e_%d,%d %s", t, i + 1,
			 m->src.words[tr->src[i]]);
		compare_row(out, tr, lab, lw, REC_SCORES, t, i, prec, colw, 0,
			    from, to);
	}
	for (int i = 0; i < tr->n; i++) {
		snprintf(lab, sizeof lab, "α_%d,%d %s", t, i + 1,
			 m->src.words[tr->src[i]]);
		compare_row(out, tr, lab, lw, REC_SOFTMAX, t, i, prec, colw, 4,
			    from, to);
	}
	for (int k = 0; k < m->H; k++) {
		snprintf(lab, sizeof lab, "c_%d[%d]", t, k + 1);
		compare_row(out, tr, lab, lw, REC_CONTEXT, t, k, prec, colw, 0,
			    from, to);
	}
	fputs("  ", out);
	fmt_pad(out, _("output"), lw);
	for (int run = from; run < to; run++) {
		const struct trace_rec *r = trace_find(tr, REC_OUTPUT, run, t, 0);
		const char *w = r ? m->tgt.words[r->word] : "-";
		fprintf(out, "%*s%s", colw - utf8_width(w), "", w);
	}
	putc('\n', out);
}

void fmt_text_compare_arch(FILE *out, const struct trace *a, int ra,
			   const struct trace *b, int t, int prec)
{
	const struct trace *tr[2] = { a, b };
	int sc = a->runs[ra].scorer, run[2] = { ra, trace_run_of(b, sc) };
	int lw = words_width(&a->m->src, a->src, a->n) + 7, colw = prec + 14;
	char lab[32], buf[NUM_BUFSZ], head[48];
	fprintf(out, _("the architectures side by side at step t=%d, %s "
		       "scorer\n"), t, trace_scorer_name(sc));
	fmt_pad(out, "", lw + 2);
	for (int k = 0; k < 2; k++) {
		snprintf(head, sizeof head, "%s", arch_get(tr[k]->arch)->name);
		fprintf(out, "%*s", colw, head);
	}
	putc('\n', out);
	fputs("  ", out);
	fmt_pad(out, _("the query"), lw);
	for (int k = 0; k < 2; k++) {
		snprintf(head, sizeof head, "s_%d", t + tr[k]->query_off);
		fprintf(out, "%*s", colw, run[k] >= 0 ? head : "-");
	}
	putc('\n', out);
	for (int kind = 0; kind < 2; kind++)
		for (int i = 0; i < a->n; i++) {
			snprintf(lab, sizeof lab, "%s_%d,%d %s",
				 kind ? "α" : "e", t, i + 1,
				 a->m->src.words[a->src[i]]);
			fputs("  ", out);
			fmt_pad(out, lab, lw);
			for (int k = 0; k < 2; k++) {
				const struct trace_rec *r = run[k] < 0 ? NULL :
					trace_find(tr[k], kind ? REC_SOFTMAX
							      : REC_SCORES,
						   run[k], t, 0);
				const char *cell = r ? num_fixed(buf,
					r->result[i], prec) : "-";
				int w = (int)strlen(cell) + (kind ? 5 : 0);
				fprintf(out, "%*s%s", colw - w, "", cell);
				if (kind) {
					putc(' ', out);
					bar_draw(out, r ? r->result[i] : 0, 4);
				}
			}
			putc('\n', out);
		}
	fputs("  ", out);
	fmt_pad(out, _("output"), lw);
	for (int k = 0; k < 2; k++) {
		const struct trace_rec *r = run[k] < 0 ? NULL :
			trace_find(tr[k], REC_OUTPUT, run[k], t, 0);
		const char *w = r ? tr[k]->m->tgt.words[r->word] : "-";
		fprintf(out, "%*s%s", colw - utf8_width(w), "", w);
	}
	putc('\n', out);
}

void fmt_text_compare(FILE *out, const struct trace *tr, int t, int prec,
		      int width)
{
	int lw = words_width(&tr->m->src, tr->src, tr->n) + 7;
	int colw = prec + 12;
	int per = width > 0 ? (width - lw - 2) / colw : tr->nruns;
	if (per < 1)
		per = 1;
	fprintf(out, _("the scorers side by side at step t=%d\n"), t);
	/* as many scorers a table as fit the width, the tables one under
	 * the other */
	for (int from = 0; from < tr->nruns; from += per) {
		int to = from + per < tr->nruns ? from + per : tr->nruns;
		if (from)
			putc('\n', out);
		compare_table(out, tr, t, prec, lw, colw, from, to);
	}
}
