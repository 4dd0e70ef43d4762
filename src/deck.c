/* deck.c: a trace as a slide deck, one self-contained HTML file (deck.h).
 *
 * The deck is planned first (deck_plan(): a slide for the title, the
 * encoding, each stage of each step and the table of weights, a stage's
 * arithmetic wrapped to the slide's columns and cut into slides of
 * DECK_ROWS rows) so that every slide can say "k / N"; then each slide is
 * written: its heading, its picture (deck_picture()), its arithmetic and
 * its counter.  The style and the script are constant text at the end of
 * the file. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "deck.h"
#include "linebreak.h"
#include "caption.h"
#include "diagram.h"
#include "fmt.h"
#include "fmt_svg.h"
#include "i18n.h"
#include "num.h"
#include "selection.h"
#include "utf8.h"
#include "util.h"
#include "window.h"

/* The arithmetic's room on a slide: 20 px DejaVu Sans Mono (12.04 px a
 * column) in the 1040 px beside the picture, 26 px a row in 880. */
#define DECK_COLS 84
#define DECK_ROWS 32
#define DECK_INDENT 6   /* a wrapped line's continuation */
#define PIC_W 760       /* the picture, drawn at its size (1 px = 1 px) */
#define PIC_WORD 14     /* a word's columns in the picture; longer is cut */
#define PIC_H 900       /* the picture's height at most */
#define PIC_LINE 50     /* the lines under the rows: 28 px, a line apart */

enum deck_kind { DECK_TITLE, DECK_STAGE, DECK_ALIGN };

struct deck_slide {
	enum deck_kind kind;
	int t;                   /* decoder step from 1; 0: the encoding */
	enum trace_stage stage;
	int part, nparts;        /* from 1: a stage cut over several slides */
	char *text;              /* the arithmetic's rows, or NULL */
};

struct deck {
	const struct trace *tr;
	const struct deck_opts *o;
	struct deck_slide *s;    /* (n) */
	int n, cap;
};

static struct deck_slide *deck_add(struct deck *dk, enum deck_kind kind,
				   int t, enum trace_stage stage)
{
	if (dk->n == dk->cap) {
		dk->cap = dk->cap ? 2 * dk->cap : 64;
		dk->s = xreallocarray(dk->s, (size_t)dk->cap, sizeof *dk->s);
	}
	struct deck_slide *s = &dk->s[dk->n++];
	*s = (struct deck_slide){ kind, t, stage, 1, 1, NULL };
	return s;
}

/* Appends line (len bytes, no newline) to b, cut into rows of at most
 * DECK_COLS columns, at a space or a break beside a CJK character
 * (linebreak.h) where there is one, else between two grapheme clusters,
 * each row after the first indented by DECK_INDENT.  Returns the rows. */
static int deck_wrap(struct fmt_buf *b, const char *line, size_t len)
{
	int rows = 0;
	while (len > 0 || rows == 0) {
		int ind = rows ? DECK_INDENT : 0, cols = 0;
		size_t cut = 0, brk = 0, prev = 0;
		while (cut < len) {
			size_t cl = linebreak_cluster_len(line + cut);
			if (cl > len - cut)
				cl = len - cut;
			int w = utf8_width_n(line + cut, cl);
			if (cut > 0 && linebreak_between(line + prev, line + cut))
				brk = cut;
			if (cl == 0 || cols + w > DECK_COLS - ind)
				break;
			cols += w;
			prev = cut;
			cut += cl;
			if (line[cut - cl] == ' ')
				brk = cut;
		}
		if (cut == len || brk == 0)
			brk = cut;
		fmt_buf_spaces(b, ind);
		size_t keep = brk;
		while (keep > 0 && line[keep - 1] == ' ')
			keep--;
		fmt_buf_put(b, line, keep);
		fmt_buf_putc(b, '\n');
		rows++;
		line += brk;
		len -= brk;
		while (len > 0 && *line == ' ') {
			line++;
			len--;
		}
	}
	return rows;
}

/* Record r as the text trace prints it, wrapped: a new string, and its
 * rows in *rows. */
static char *deck_rec_text(const struct deck *dk, const struct trace_rec *r,
			   int *rows)
{
	struct fmt_opts fo;
	fmt_opts_default(&fo);
	fo.precision = dk->o->precision;
	fo.no_by_word = 1; /* as the whole trace prints the output */
	char *raw = NULL;
	size_t rawlen = 0;
	FILE *f = open_memstream(&raw, &rawlen);
	if (!f)
		util_out_of_memory();
	fmt_text_rec(f, dk->tr, r, &fo);
	struct fmt_buf note = FMT_BUF_INIT; /* a value --set gave: says so,
					       as the text trace does */
	fmt_set_notes(&note, dk->tr, r, fo.precision, 0);
	if (note.len)
		fwrite(note.p, 1, note.len, f);
	fmt_buf_free(&note);
	fclose(f);
	struct fmt_buf b = FMT_BUF_INIT;
	*rows = 0;
	for (const char *p = raw; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		*rows += deck_wrap(&b, p, len);
		p += len + (nl != NULL);
	}
	free(raw);
	fmt_buf_putc(&b, '\0');
	return b.p;
}

/* The records of stage st at step t (0: the encoder) of run 0, in the
 * order they were made: [*first, *end), filtered by stage. */
static void deck_range(const struct trace *tr, int t, int *first, int *end)
{
	const struct trace_run *ru = &tr->runs[0];
	if (t == 0) {
		*first = tr->enc_first_rec;
		*end = tr->enc_first_rec + tr->enc_nrecs;
		return;
	}
	*first = ru->step_first[t - 1];
	*end = t < ru->nsteps ? ru->step_first[t] : ru->first_rec + ru->nrecs;
}

/* Starts a slide of stage st at step t that goes on from slide *cur. */
static void deck_more(struct deck *dk, struct fmt_buf *page, int t,
		      enum trace_stage st)
{
	fmt_buf_putc(page, '\0');
	dk->s[dk->n - 1].text = page->p;
	*page = (struct fmt_buf)FMT_BUF_INIT;
	deck_add(dk, DECK_STAGE, t, st);
}

/* The slides of stage st at step t: its records' text, a record kept
 * whole on one slide when it fits on one, cut between rows when not. */
static void deck_plan_stage(struct deck *dk, int t, enum trace_stage st)
{
	int first, end, used = 0, start = dk->n;
	struct fmt_buf page = FMT_BUF_INIT;
	deck_range(dk->tr, t, &first, &end);
	deck_add(dk, DECK_STAGE, t, st);
	for (int k = first; k < end; k++) {
		const struct trace_rec *r = &dk->tr->recs[k];
		if (r->stage != st)
			continue;
		int rows;
		char *text = deck_rec_text(dk, r, &rows);
		if (used > 0 && used + rows > DECK_ROWS) {
			deck_more(dk, &page, t, st);
			used = 0;
		}
		for (const char *p = text; *p;) { /* row by row */
			const char *nl = strchr(p, '\n');
			if (used == DECK_ROWS) {
				deck_more(dk, &page, t, st);
				used = 0;
			}
			fmt_buf_put(&page, p, (size_t)(nl - p) + 1);
			used++;
			p = nl + 1;
		}
		free(text);
	}
	fmt_buf_putc(&page, '\0');
	dk->s[dk->n - 1].text = page.p;
	for (int k = start; k < dk->n; k++) {
		dk->s[k].part = k - start + 1;
		dk->s[k].nparts = dk->n - start;
	}
}

/* Every slide of the deck, in order. */
static void deck_plan(struct deck *dk)
{
	enum trace_stage order[STAGE_COUNT];
	int nst = trace_stages(dk->tr, order);
	deck_add(dk, DECK_TITLE, 0, STAGE_ENCODING);
	deck_plan_stage(dk, 0, STAGE_ENCODING);
	for (int t = 1; t <= dk->tr->runs[0].nsteps; t++)
		for (int k = 0; k < nst; k++)
			if (order[k] != STAGE_ENCODING)
				deck_plan_stage(dk, t, order[k]);
	deck_add(dk, DECK_ALIGN, 0, STAGE_ENCODING);
}

static void deck_free(struct deck *dk)
{
	for (int k = 0; k < dk->n; k++)
		free(dk->s[k].text);
	free(dk->s);
}

/* A text of the picture at (x, y): size px, class cls, its words with
 * subscripts set (fmt_svg_math()); bold if set. */
static void pic_text(FILE *out, const char *cls, int x, int y, int size,
		     int bold, const char *s)
{
	fprintf(out, "<text class=\"%s\" x=\"%d\" y=\"%d\" font-size=\"%d\"%s>",
		cls, x, y, size, bold ? " font-weight=\"bold\"" : "");
	fmt_svg_math(out, s);
	fputs("</text>\n", out);
}

/* Word w as the picture shows it: its first PIC_WORD columns at most,
 * whole grapheme clusters (a wide character that would end past them is
 * left out), and "…" when it is longer, into buf (size bytes). */
static const char *pic_word(char *buf, size_t size, const char *w)
{
	size_t k = 0;
	int cols = 0;
	while (w[k]) {
		size_t cl = linebreak_cluster_len(w + k);
		int cw = utf8_width_n(w + k, cl);
		if (cols + cw > PIC_WORD)
			break;
		cols += cw;
		k += cl;
	}
	snprintf(buf, size, "%.*s%s", (int)k, w, w[k] ? "…" : "");
	return buf;
}

/* The picture's rows: rh px each from top, the words' column ending at
 * wx, the weights' at ax, the lines from lx to the query box at qx, qy. */
struct pic_lay {
	int rh, top, wx, ax, lx, qx, qy, bottom;
};

/* The lines of text under the rows: the context, the result, the
 * output, and input feeding's and a window's. */
static int pic_lines(const struct diagram *d)
{
	return 3 + (d->feed != NULL) + (d->win_lo > 0);
}

static void pic_layout(struct pic_lay *L, const struct diagram *d)
{
	int words = 0;
	for (int i = 0; i < d->n; i++) {
		int c = utf8_width(d->words[i]);
		c = c > PIC_WORD ? PIC_WORD + 1 : c;
		words = c > words ? c : words;
	}
	/* the rows share what the lines under them leave of PIC_H */
	L->rh = (PIC_H - 64 - 44 - 24 - PIC_LINE * pic_lines(d)) / d->n;
	if (L->rh > 100)
		L->rh = 100;
	L->top = 64;
	L->wx = 96 + (words + 2) * 19;     /* bold 26 px: 0.7 em a column */
	L->ax = L->wx + 14;
	L->lx = L->ax + 120;
	L->qx = PIC_W - 170;
	L->qy = L->top + d->n * L->rh / 2 - 50;
	if (L->qy < L->top)
		L->qy = L->top;
	L->bottom = L->top + d->n * L->rh;
	if (L->qy + 100 > L->bottom) /* the query's box below the rows */
		L->bottom = L->qy + 100;
}

/* The rows of the source words: h_i, the word, its weight and its line
 * to the query (lines first, under the texts). */
static void pic_rows(FILE *out, const struct diagram *d, const struct pic_lay *L,
		     const double *e, int lines, int prec)
{
	char num[NUM_BUFSZ], lab[96], word[64];
	for (int i = 0; lines && i < d->n; i++) {
		double a = d->alpha[i];
		int y = L->top + i * L->rh + L->rh / 2;
		fprintf(out, "<line class=\"w\" data-i=\"%d\"", i + 1);
		diagram_svg_data(out, "data-alpha", &a, 1);
		if (e)
			diagram_svg_data(out, "data-e", &e[i], 1);
		fprintf(out, " x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#08519c\" stroke-linecap=\"round\" "
			"stroke-width=\"%.2f\" stroke-opacity=\"%.3f\"/>\n",
			L->lx, y, L->qx, L->qy + 50, 3 + 21 * a, 0.45 + 0.55 * a);
	}
	for (int i = 0; i < d->n; i++) {
		int y = L->top + i * L->rh + L->rh / 2 + 10;
		fprintf(out, "<g class=\"h%s\" data-i=\"%d\"",
			d->sampled == i + 1 ? " drawn" : "", i + 1);
		diagram_svg_data(out, "data-h", d->h[i], d->hlen);
		fputs(">\n", out);
		snprintf(lab, sizeof lab, "h_%d", i + 1);
		pic_text(out, "hi", 16, y, 28, 0, lab);
		snprintf(lab, sizeof lab, "%s%s", d->sampled == i + 1 ? "● " : "",
			 pic_word(word, sizeof word, d->words[i]));
		pic_text(out, "word", 96, y, 26, 1, lab);
		if (lines)
			pic_text(out, "a", L->ax, y, 24, i == d->amax,
				 num_fixed(num, d->alpha[i], prec));
		fputs("</g>\n", out);
	}
}

/* The query's box, and the weights' heading over their column. */
static void pic_query(FILE *out, const struct diagram *d,
		      const struct pic_lay *L)
{
	char lab[48];
	fprintf(out, "<g class=\"q\"");
	diagram_svg_data(out, "data-q", d->query, d->qlen);
	fprintf(out, "><rect x=\"%d\" y=\"%d\" width=\"150\" height=\"100\" "
		"rx=\"10\" fill=\"#f7f7f7\" stroke=\"#222222\" "
		"stroke-width=\"3\"/>\n", L->qx, L->qy);
	pic_text(out, "qname", L->qx + 20, L->qy + 40, 32, 1, d->qname);
	pic_text(out, "qlabel", L->qx + 20, L->qy + 84, 22, 0, _("the query"));
	fputs("</g>\n", out);
	snprintf(lab, sizeof lab, "%s_%d,i", trace_weight_symbol(d->tr), d->t);
	pic_text(out, "ahead", L->ax, 36, 28, 0, lab);
}

/* The lines under the rows, from baseline y: the context, the step's
 * result, its output word; a window and p_t; input feeding.  Returns the
 * picture's height, which pic_height() works out beforehand. */
static int pic_bottom(FILE *out, const struct diagram *d, int y, int prec)
{
	char num[NUM_BUFSZ], lab[160], pt[NUM_BUFSZ];
	const char *ws = trace_weight_symbol(d->tr);
	if (d->sampled > 0)
		snprintf(lab, sizeof lab, _("c_%d = h_%d, the word drawn"), d->t,
			 d->sampled);
	else
		snprintf(lab, sizeof lab, "c_%d = Σ_i %s_%d,i h_i", d->t, ws, d->t);
	fprintf(out, "<g class=\"c\"");
	diagram_svg_data(out, "data-c", d->context, d->clen);
	fputs(">\n", out);
	pic_text(out, "ctx", 16, y += 44, 28, 0, lab);
	fputs("</g>\n", out);
	if (d->feeds_rnn)
		snprintf(lab, sizeof lab, _("c_%d feeds the RNN: s_%d"), d->t,
			 d->t);
	else
		snprintf(lab, sizeof lab, "%s = tanh(W_c·[c_%d; s_%d])", d->rname,
			 d->t, d->t);
	pic_text(out, "r", 16, y += PIC_LINE, 28, 0, lab);
	if (d->feed) {
		snprintf(lab, sizeof lab, _("s_%d read h̃_%d (input feeding)"), d->t,
			 d->t - 1);
		pic_text(out, "feed", 16, y += PIC_LINE, 28, 0, lab);
	}
	snprintf(lab, sizeof lab, _("output “%s”, P = %s"), d->out,
		 num_fixed(num, d->out_p, prec));
	pic_text(out, "o", 16, y += PIC_LINE, 28, 1, lab);
	if (d->win_lo > 0) {
		snprintf(lab, sizeof lab, _("window: positions %d..%d"), d->win_lo,
			 d->win_hi);
		if (d->has_pt)
			snprintf(lab + strlen(lab), sizeof lab - strlen(lab),
				 ", p_%d = %s", d->t, num_fixed(pt, d->pt, prec));
		pic_text(out, "win", 16, y += PIC_LINE, 28, 0, lab);
	}
	return y + 24;
}

static int pic_height(const struct diagram *d, const struct pic_lay *L)
{
	return L->bottom + 44 + PIC_LINE * (pic_lines(d) - 1) + 24;
}

/* A local window's frame round the rows it weighs. */
static void pic_window(FILE *out, const struct diagram *d,
		       const struct pic_lay *L)
{
	if (d->win_lo <= 0 || d->win_hi < d->win_lo || d->win_hi > d->n)
		return;
	fprintf(out, "<rect class=\"window\" x=\"6\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" fill=\"none\" stroke=\"#7b3294\" "
		"stroke-width=\"3\" stroke-dasharray=\"10 6\"/>\n",
		L->top + (d->win_lo - 1) * L->rh + 2, L->lx - 12,
		(d->win_hi - d->win_lo + 1) * L->rh - 4);
}

/* The picture of step t (0: the encoding, the words and h_i alone), as
 * an inline SVG PIC_W wide, drawn at its size.  Returns 0, or -1 when the
 * step has no attention to draw (nothing is written). */
static int deck_picture(FILE *out, const struct deck *dk, int t)
{
	struct diagram d;
	struct errbuf err;
	struct pic_lay L;
	if (diagram_build(&d, dk->tr, 0, t ? t : 1, &err) != 0)
		return -1;
	const struct trace_rec *sc = trace_find(dk->tr, REC_SCORES, 0, d.t, 0);
	pic_layout(&L, &d);
	int h = t ? pic_height(&d, &L) : L.bottom + 24;
	fprintf(out, "<svg class=\"pic\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\" data-step=\"%d\">\n", PIC_W, h, PIC_W, h,
		FMT_SVG_FONTS, d.t);
	if (t) {
		pic_window(out, &d, &L);
		pic_query(out, &d, &L);
	}
	if (t && dk->tr->enc == &caption_encoder && L.qy >= L.top + 180) {
		/* an image: its weights over its cells, above the query */
		fputs("<g class=\"image\">\n", out);
		caption_svg_step(out, dk->tr, d.run, d.t, L.qx - 8, L.top, 28);
		fputs("</g>\n", out);
	}
	pic_rows(out, &d, &L, sc && sc->len == d.n ? sc->result : NULL, t != 0,
		 dk->o->precision);
	if (t && pic_bottom(out, &d, L.bottom, dk->o->precision) != h)
		return -1; /* pic_height() and pic_bottom() disagree */
	fputs("</svg>\n", out);
	return 0;
}

/* Writes s escaped as HTML text. */
static void deck_esc(FILE *out, const char *s)
{
	fmt_svg_text(out, s);
}

/* Writes s escaped as HTML text, its subscripts set as <sub>. */
static void deck_math(FILE *out, const char *s)
{
	fmt_svg_math_tags(out, s, "<sub>", "</sub>");
}

/* The words of v (indices into voc) joined by spaces. */
static void deck_words(FILE *out, const struct vocab *voc, const int *v, int n)
{
	for (int k = 0; k < n; k++) {
		if (k)
			putc(' ', out);
		deck_esc(out, voc->words[v[k]]);
	}
}

/* The variant in words: "luong · dot (e_t,i = s_t·h_i) · global · soft". */
static void deck_variant(FILE *out, const struct trace *tr)
{
	char f[160];
	int sc = tr->runs[0].scorer;
	fprintf(out, "%s · %s: ", arch_registry[tr->arch]->name,
		trace_scorer_name(sc));
	deck_math(out, fmt_scorer_formula(tr, sc, f, sizeof f));
	fprintf(out, _(" · window %s"), window_get(tr->cfg.window)->name);
	if (window_get(tr->cfg.window)->model) /* a local window's D */
		fprintf(out, ", D = %d", tr->cfg.window_size);
	fprintf(out, _(" · %s attention"),
		selection_get(tr->cfg.selection)->name);
	if (tr->m->input_feeding)
		fputs(_(" · input feeding"), out);
}

/* The title slide's body. */
static void deck_title(FILE *out, const struct deck *dk)
{
	const struct trace *tr = dk->tr;
	const struct trace_run *ru = &tr->runs[0];
	fprintf(out, "<h1>%s</h1>\n<dl class=\"facts\">\n<dt>%s</dt><dd>",
		_("Attention, step by step"), _("source"));
	deck_words(out, &tr->m->src, tr->src, tr->n);
	fprintf(out, "</dd>\n<dt>%s</dt><dd>", _("output"));
	deck_words(out, &tr->m->tgt, ru->pred, ru->nsteps);
	fputs("</dd>\n", out);
	if (tr->ntgt) {
		fprintf(out, "<dt>%s</dt><dd>", _("target"));
		deck_words(out, &tr->m->tgt, tr->tgt, tr->ntgt);
		fprintf(out, "%s</dd>\n", _(" (teacher-forced)"));
	}
	fprintf(out, "<dt>%s</dt><dd>", _("variant"));
	deck_variant(out, tr);
	fputs("</dd>\n", out);
	fprintf(out, "<dt>%s</dt><dd>", _("model"));
	deck_esc(out, tr->m->name);
	fputs("</dd>\n", out);
	char wif[FMT_WHATIF_NOTE];
	if (fmt_whatif_note(tr, wif, sizeof wif)) { /* --set */
		fprintf(out, "<dt>%s</dt><dd class=\"whatif-edits\">",
			_("what-if"));
		deck_esc(out, wif);
		fputs("</dd>\n", out);
	}
	fprintf(out, "</dl>\n<p class=\"keys\">%s</p>\n", _("→ or Space: the "
		"next slide · ←: the one before · Home, End: the first, the "
		"last"));
}

/* The table of every step's weights (fmt_heat_row(), as the heatmaps),
 * each cell shaded on the heatmap's ramp. */
static void deck_align(FILE *out, const struct deck *dk)
{
	const struct trace *tr = dk->tr;
	const struct trace_run *ru = &tr->runs[0];
	char num[NUM_BUFSZ], hex[8];
	fputs("<table class=\"align\"><thead><tr><th></th>", out);
	for (int i = 0; i < tr->n; i++) {
		fputs("<th>", out);
		deck_esc(out, tr->m->src.words[tr->src[i]]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (int t = 1; t <= ru->nsteps; t++) {
		const double *a = fmt_heat_row(tr, 0, t, 0, NULL);
		fputs("<tr><th>", out);
		deck_esc(out, tr->m->tgt.words[ru->pred[t - 1]]);
		fputs("</th>", out);
		for (int i = 0; a && i < tr->n; i++) {
			fmt_svg_ramp(a[i], hex);
			fprintf(out, "<td style=\"background:%s;color:%s\"", hex,
				fmt_svg_dark(a[i]) ? "#ffffff" : "#000000");
			diagram_svg_data(out, "data-w", &a[i], 1);
			fprintf(out, ">%s</td>", num_fixed(num, a[i],
							   dk->o->precision));
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* Stage s's name (trace_stage_name()'s word) in the user's language. */
static const char *deck_stage(enum trace_stage s)
{
	static const char *const words[STAGE_COUNT] = {
		N_("encoding"), N_("decoder"), N_("scoring"), N_("softmax"),
		N_("weighted-sum"), N_("concat"), N_("output")
	};
	return (unsigned)s < STAGE_COUNT ? _(words[s]) : trace_stage_name(s);
}

/* The heading of slide s: its words into buf (size bytes). */
static const char *deck_heading(char *buf, size_t size, const struct deck *dk,
				const struct deck_slide *s)
{
	const struct trace_run *ru = &dk->tr->runs[0];
	char part[32] = "";
	if (s->nparts > 1)
		snprintf(part, sizeof part, _(" (%d of %d)"), s->part,
			 s->nparts);
	if (s->kind == DECK_ALIGN)
		snprintf(buf, size, _("Every step's weights %s_t,i"),
			 trace_weight_symbol(dk->tr));
	else if (s->t == 0 && dk->tr->enc) /* an image's cells */
		snprintf(buf, size, _("Encoding: the image, cell by cell%s"),
			 part);
	else if (s->t == 0)
		snprintf(buf, size, _("Encoding: the source, word by word%s"),
			 part);
	else
		snprintf(buf, size, _("Step %d of %d · %s%s"), s->t,
			 ru->nsteps, deck_stage(s->stage), part);
	return buf;
}

/* The line under a step's heading: what the decoder reads and outputs. */
static void deck_sub(FILE *out, const struct deck *dk, const struct deck_slide *s)
{
	const struct trace_run *ru = &dk->tr->runs[0];
	const struct vocab *v = &dk->tr->m->tgt;
	fputs("<p class=\"sub\">", out);
	if (s->kind == DECK_ALIGN && dk->tr->enc) {
		fputs(_("a row for each step, its output word first; a column "
			"for each cell of the image"), out);
	} else if (s->kind == DECK_ALIGN) {
		fputs(_("a row for each step, its output word first; a column "
			"for each source word"), out);
	} else if (s->t == 0 && dk->tr->enc) {
		deck_math(out, _("each cell's pixels patch_i and its "
			  "annotation h_i"));
	} else if (s->t == 0) {
		deck_math(out, _("each word's embedding x_i and the encoder's "
			  "state h_i"));
	} else {
		fputs(_("the decoder reads “"), out);
		deck_esc(out, v->words[ru->input[s->t - 1]]);
		fputs(_("” and outputs “"), out);
		deck_esc(out, v->words[ru->pred[s->t - 1]]);
		fputs(_("”"), out);
	}
	fputs("</p>\n", out);
}

/* Slide k (from 0). */
static int deck_slide(FILE *out, const struct deck *dk, int k)
{
	const struct deck_slide *s = &dk->s[k];
	char head[160];
	fprintf(out, "<section class=\"slide\" id=\"slide-%d\" data-t=\"%d\" "
		"data-stage=\"%s\">\n", k + 1, s->t, s->kind == DECK_TITLE
		? "title" : s->kind == DECK_ALIGN ? "weights"
		: trace_stage_name(s->stage));
	if (s->kind == DECK_TITLE) {
		deck_title(out, dk);
	} else {
		fputs("<header><h2>", out);
		deck_math(out, deck_heading(head, sizeof head, dk, s));
		fputs("</h2>\n", out);
		deck_sub(out, dk, s);
		fputs("</header>\n<div class=\"body\">\n", out);
		if (s->kind == DECK_ALIGN)
			deck_align(out, dk);
		else if (deck_picture(out, dk, s->t) != 0)
			return -1;
		if (s->text) {
			fputs("<pre class=\"math\">", out);
			fmt_svg_math_cols(out, s->text);
			fputs("</pre>\n", out);
		}
		fputs("</div>\n", out);
	}
	char wif[FMT_WHATIF_NOTE];
	if (s->kind != DECK_TITLE &&
	    fmt_whatif_note(dk->tr, wif, sizeof wif)) { /* every slide says so */
		fputs("<p class=\"whatif\">", out);
		deck_esc(out, wif);
		fputs("</p>\n", out);
	}
	fprintf(out, "<p class=\"count\">%d / %d</p>\n</section>\n", k + 1,
		dk->n);
	return 0;
}

/* The style: a slide of DECK_W × DECK_H; without the script, every slide
 * in order; with it (html.js), the current one alone, scaled to the
 * window; printed, a slide a page. */
static const char deck_css[] =
"*{box-sizing:border-box}\n"
"body{margin:0;background:#d9d9d9;color:#111111;"
"font-family:'DejaVu Sans',Arial,Helvetica,sans-serif}\n"
"sub{font-size:80%;line-height:0}\n"
".slide{position:relative;width:1920px;height:1080px;margin:0 auto 24px;"
"padding:28px 40px 0;background:#ffffff;overflow:hidden}\n"
".slide header{height:124px}\n"
".slide h1{font-size:64px;margin:120px 0 48px}\n"
".slide h2{font-size:44px;margin:0 0 8px;line-height:1.2}\n"
".sub{font-size:26px;margin:0;color:#444444}\n"
".body{display:flex;gap:40px;align-items:flex-start}\n"
".pic{flex:none}\n"
".math{flex:none;margin:0;width:1040px;font-size:20px;line-height:28px;"
"font-family:'DejaVu Sans Mono',monospace;white-space:pre}\n"
".math .sb{display:inline-block}\n"
".math sub{font-size:100%;vertical-align:-0.15em}\n"
".facts{display:grid;grid-template-columns:220px 1fr;gap:18px 24px;"
"font-size:34px;margin:0}\n"
".facts dt{color:#555555}.facts dd{margin:0}\n"
".keys{font-size:28px;color:#555555;margin-top:64px}\n"
".count{position:absolute;right:40px;top:28px;margin:0;font-size:26px;"
"color:#555555}\n"
".whatif{position:absolute;left:40px;bottom:12px;margin:0;font-size:24px;"
"font-weight:bold;color:#b2182b}\n"
".align{border-collapse:collapse;font-size:22px}\n"
".align th,.align td{padding:4px 10px;text-align:center}\n"
".align td{font-family:'DejaVu Sans Mono',monospace;min-width:96px}\n"
".align tbody th{text-align:right}\n"
"line.w{transition:stroke-width .8s ease,stroke-opacity .8s ease}\n"
".drawn text{fill:#7b3294}\n"
".slide[data-stage=encoding] .hi,.slide[data-stage=encoding] .word,"
".slide[data-stage=decoder] .q text,.slide[data-stage=scoring] .a,"
".slide[data-stage=softmax] .a,.slide[data-stage=weighted-sum] .ctx,"
".slide[data-stage=concat] .r,.slide[data-stage=output] .o"
"{fill:#b2182b}\n"
".slide[data-stage=decoder] .q rect{stroke:#b2182b;stroke-width:5px}\n"
"html.js body{overflow:hidden;background:#ffffff}\n"
"html.js #deck{position:absolute;left:0;top:0;width:1920px;"
"transform-origin:0 0}\n"
"html.js .slide{display:none;margin:0}\n"
"html.js .slide.current{display:block}\n"
"@page{size:1920px 1080px;margin:0}\n"
"@media print{body{background:#ffffff}"
"html.js body{overflow:visible}"
"html.js #deck{position:static;transform:none!important}"
"html.js .slide,.slide{display:block;margin:0;break-after:page;"
"page-break-after:always}}\n";

/* The script: the keys, the counter in the address (#slide-K), the
 * scale to the window, and the lines' animation from one step to the
 * next (each line starts at the last slide's width and opacity, and its
 * CSS transition takes it to its own). */
static const char deck_js[] =
"(function(){'use strict';\n"
"var d=document,deck=d.getElementById('deck'),"
"S=[].slice.call(d.querySelectorAll('.slide')),cur=-1;\n"
"d.documentElement.classList.add('js');\n"
"function fit(){var k=Math.min(innerWidth/1920,innerHeight/1080);"
"deck.style.transform='scale('+k+')';}\n"
"function animate(a,b){if(a.dataset.t===b.dataset.t)return;"
"var la=a.querySelectorAll('line.w'),lb=b.querySelectorAll('line.w'),i;"
"if(!la.length||la.length!==lb.length)return;\n"
"for(i=0;i<lb.length;i++){lb[i].style.transition='none';"
"lb[i].style.strokeWidth=la[i].getAttribute('stroke-width')+'px';"
"lb[i].style.strokeOpacity=la[i].getAttribute('stroke-opacity');}\n"
"b.getBoundingClientRect();\n"
"for(i=0;i<lb.length;i++){lb[i].style.transition='';"
"lb[i].style.strokeWidth='';lb[i].style.strokeOpacity='';}}\n"
"function show(k){k=Math.max(0,Math.min(S.length-1,k));if(k===cur)return;"
"var old=cur>=0?S[cur]:null;if(old)old.classList.remove('current');"
"S[k].classList.add('current');if(old)animate(old,S[k]);cur=k;"
"if(location.hash!=='#'+S[k].id)history.replaceState(null,'','#'+S[k].id);"
"d.body.dataset.slide=k+1;}\n"
"var keys={ArrowRight:1,PageDown:1,' ':1,ArrowDown:1,"
"ArrowLeft:-1,PageUp:-1,ArrowUp:-1};\n"
"d.addEventListener('keydown',function(e){"
"if(e.altKey||e.ctrlKey||e.metaKey)return;"
"if(e.key==='Home')show(0);else if(e.key==='End')show(S.length-1);"
"else if(keys[e.key])show(cur+keys[e.key]);else return;"
"e.preventDefault();});\n"
"addEventListener('resize',fit);\n"
"addEventListener('hashchange',function(){var e=d.getElementById("
"location.hash.slice(1));var k=S.indexOf(e);if(k>=0)show(k);});\n"
"fit();var e=location.hash?d.getElementById(location.hash.slice(1)):null;"
"show(Math.max(0,S.indexOf(e)));})();\n";

int deck_html(FILE *out, const struct trace *tr, const struct deck_opts *o)
{
	if (tr->nruns < 1 || tr->prog != TRACE_TRANSLATE)
		return -1;
	struct deck dk = { tr, o, NULL, 0, 0 };
	int rc = 0;
	deck_plan(&dk);
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta "
		"charset=\"utf-8\">\n<meta name=\"generator\" "
		"content=\"attn-trace\">\n<title>attn-trace: ",
		i18n_html_lang());
	deck_words(out, &tr->m->src, tr->src, tr->n);
	fprintf(out, " (%s)</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		"<main id=\"deck\">\n", trace_scorer_name(tr->runs[0].scorer),
		deck_css);
	for (int k = 0; k < dk.n && rc == 0; k++)
		rc = deck_slide(out, &dk, k);
	fprintf(out, "</main>\n<script>\n%s</script>\n</body>\n</html>\n",
		deck_js);
	deck_free(&dk);
	return rc != 0 || ferror(out) ? -1 : 0;
}
