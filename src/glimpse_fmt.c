/* glimpse_fmt.c: a glimpse trace as text, with pictures of the glimpses
 * on the image (glimpse_fmt.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "glimpse_fmt.h"
#include "i18n.h"
#include "image_fmt.h"
#include "num.h"
#include "utf8.h"

/* ------------------------------------------------------------ pictures */

/* The picture is a lattice: grid row 2r+1 holds pixel row r, grid row
 * 2r the line above it; in a row, cell 2c+1 (two columns) pixel column
 * c, cell 2c (one column) the line left of it.  Where a retina reaches
 * past the image (a pixel there reads 0), the lattice grows by the
 * pixels it needs, at most 2 a side, drawn as dots, so that every box
 * shows whole. */
#define GF_MARGIN 2
#define GF_ROWS (2 * (PGM_MAX_SIDE + 2 * GF_MARGIN) + 1)
struct gf_pic {
	const char *cell[GF_ROWS][GF_ROWS];
	int rows, cols;         /* 2(H + top + bottom) + 1, likewise */
	int top, left;          /* the margin above and left, in pixels */
};

/* the strokes: [ascii][solid or dotted][across a pixel, across a
 * corner, down, then the corners ┌ ┐ └ ┘] */
static const char *const gf_stroke[2][2][7] = {
	{ { "──", "─", "│", "┌", "┐", "└", "┘" },
	  { "┄┄", "┄", "┆", "┌", "┐", "└", "┘" } },
	{ { "--", "-", "|", "+", "+", "+", "+" },
	  { "..", ".", ":", "+", "+", "+", "+" } },
};

/* The stroke of lattice cell (r, c) on the box of grid rows r0 .. r1
 * and grid columns c0 .. c1, or NULL off its edges. */
static const char *gf_edge(const char *const *s, int r, int c, int r0,
			   int c0, int r1, int c1)
{
	int er = r == r0 || r == r1, ec = c == c0 || c == c1;
	if (er && ec)
		return s[3 + 2 * (r == r1) + (c == c1)];
	if (er)
		return s[c % 2 ? 0 : 1];
	if (ec)
		return s[2];
	return NULL;
}

/* The box of corners (r0, c0) .. (r1, c1) (lattice corners, from 0),
 * clipped to the picture, with the strokes of style. */
static void gf_box(struct gf_pic *p, int r0, int c0, int r1, int c1,
		   int ascii, int style)
{
	const char *const *s = gf_stroke[ascii][style];
	r0 += p->top;
	r1 += p->top;
	c0 += p->left;
	c1 += p->left;
	for (int r = 2 * r0; r <= 2 * r1; r++)
		for (int c = 2 * c0; c <= 2 * c1; c++) {
			if (r < 0 || c < 0 || r >= p->rows || c >= p->cols)
				continue;
			const char *e = gf_edge(s, r, c, 2 * r0, 2 * c0,
						2 * r1, 2 * c1);
			if (e)
				p->cell[r][c] = e;
		}
}

/* The digits that mark the path's corners. */
static const char *const gf_digit[GLIMPSE_MAX_STEPS] = {
	"1", "2", "3", "4", "5", "6", "7", "8"
};

/* v clamped to 0 .. GF_MARGIN. */
static int gf_clamp(int v)
{
	return v < 0 ? 0 : v > GF_MARGIN ? GF_MARGIN : v;
}

/* The margins p needs for the boxes of steps first .. last - 1 (reach
 * 2 pixels from the corner with the periphery, else 1): how far past
 * each edge of im they go, at most GF_MARGIN. */
static void gf_margins(struct gf_pic *p, const struct pgm_image *im,
		       const struct glimpse_trace *tr, int first, int last,
		       int reach)
{
	int top = 0, left = 0, bottom = 0, right = 0;
	for (int t = first; t < last; t++) {
		int R = tr->st[t].row, C = tr->st[t].col;
		top = top > reach - R ? top : reach - R;
		left = left > reach - C ? left : reach - C;
		bottom = bottom > R + reach - im->height ? bottom
			 : R + reach - im->height;
		right = right > C + reach - im->width ? right
			: C + reach - im->width;
	}
	p->top = gf_clamp(top);
	p->left = gf_clamp(left);
	p->rows = 2 * (im->height + p->top + gf_clamp(bottom)) + 1;
	p->cols = 2 * (im->width + p->left + gf_clamp(right)) + 1;
}

/* The picture with the foveas of steps first .. last - 1 (and their
 * peripheries if periphery), and the numbers of steps 0 .. marks - 1 on
 * their corners; if grow, with the margins their boxes need, else the
 * boxes clipped to the image (the stepper's narrow column). */
static void gf_draw(FILE *out, const struct pgm_image *im,
		    const struct glimpse_trace *tr, int first, int last,
		    int periphery, int marks, int ascii, int grow)
{
	static struct gf_pic p;
	const char *outside = ascii ? "x " : "··";
	gf_margins(&p, im, tr, first, grow ? last : first,
		   periphery ? 2 : 1);
	for (int r = 0; r < p.rows; r++)
		for (int c = 0; c < p.cols; c++) {
			int pr = r / 2 - p.top, pc = c / 2 - p.left;
			int in = pr >= 0 && pc >= 0 && pr < im->height &&
				 pc < im->width;
			p.cell[r][c] = c % 2 == 0 ? " "
				       : r % 2 == 0 || in ? "  " : outside;
			if (in && r % 2 && c % 2)
				p.cell[r][c] = image_shade(image_level(
					im->raw[pr * im->width + pc],
					im->maxval), ascii);
		}
	for (int t = first; t < last; t++) {
		int R = tr->st[t].row, C = tr->st[t].col;
		if (periphery)
			gf_box(&p, R - 2, C - 2, R + 2, C + 2, ascii, 1);
		gf_box(&p, R - 1, C - 1, R + 1, C + 1, ascii, 0);
	}
	for (int t = 0; t < marks; t++)
		p.cell[2 * (tr->st[t].row + p.top)]
		      [2 * (tr->st[t].col + p.left)] = gf_digit[t];
	for (int r = 0; r < p.rows; r++) {
		fputs("    ", out);
		for (int c = 0; c < p.cols; c++)
			fputs(p.cell[r][c], out);
		fputc('\n', out);
	}
	if (p.rows > 2 * im->height + 1 || p.cols > 2 * im->width + 1)
		fprintf(out, _("    %s outside the image (read as 0)\n"),
			outside);
}

void glimpse_fmt_picture(FILE *out, const struct pgm_image *im,
			 const struct glimpse_trace *tr, int first, int last,
			 int path, int ascii)
{
	gf_draw(out, im, tr, first, last, !path, path ? tr->steps : 0, ascii,
		1);
}

void glimpse_fmt_picture_at(FILE *out, const struct pgm_image *im,
			    const struct glimpse_trace *tr, int t, int ascii)
{
	if (t < tr->steps)
		gf_draw(out, im, tr, t, t + 1, 1, t + 1, ascii, 0);
	else
		gf_draw(out, im, tr, 0, tr->steps, 0, tr->steps, ascii, 0);
}

/* ---------------------------------------------------------------- text */

/* "  label = [v]\n" */
static void gf_vec(FILE *out, const char *label, const double *v, int n,
		   int prec)
{
	fprintf(out, "  %s = ", label);
	fmt_text_vec(out, v, n, prec);
	fputc('\n', out);
}

/* "  label = x\n" */
static void gf_num(FILE *out, const char *label, double x, int prec)
{
	char num[NUM_BUFSZ];
	fprintf(out, "  %s = %s\n", label, num_fixed(num, x, prec));
}

/* Step t's place: l̂, the draw, l and the Gaussian's terms. */
static void gf_place(FILE *out, const struct glimpse_model *m,
		     const struct glimpse_step *s, int t, int prec)
{
	char lab[160];
	snprintf(lab, sizeof lab, "W_l·h_%d + b_l", t - 1);
	gf_vec(out, lab, s->a_l, 2, prec);
	snprintf(lab, sizeof lab, "l̂_%d = tanh(W_l·h_%d + b_l)", t, t - 1);
	gf_vec(out, lab, s->l_hat, 2, prec);
	gf_vec(out, "u (SplitMix64)", s->u, 2, prec);
	gf_vec(out, "ε = √(-2 log(1 - u_1))·(cos 2π·u_2, sin 2π·u_2)", s->eps,
	       2, prec);
	char sg[NUM_BUFSZ];
	snprintf(lab, sizeof lab, "l_%d = l̂_%d + σ·ε, σ = %s", t, t,
		 num_fixed(sg, m->sigma, prec));
	gf_vec(out, lab, s->l, 2, prec);
	snprintf(lab, sizeof lab,
		 "log π(l_%d | l̂_%d) = -|ε|²/2 - 2 log σ - log 2π", t, t);
	gf_num(out, lab, s->log_pi, prec);
	snprintf(lab, sizeof lab, "∂ log π / ∂ l̂_%d = (l_%d - l̂_%d)/σ²", t,
		 t, t);
	gf_vec(out, lab, s->dlogpi, 2, prec);
}

/* Step t's retina, glimpse network and core. */
static void gf_sense(FILE *out, const struct glimpse_model *m,
		     const struct glimpse_step *s, int t, int prec)
{
	char lab[160];
	fprintf(out, _("  retina at corner (row, column) = (%d, %d): fovea "
		"rows %d-%d, columns %d-%d; periphery rows %d-%d, columns "
		"%d-%d (from 1)\n"),
		s->row, s->col, s->row, s->row + 1, s->col, s->col + 1,
		s->row - 1, s->row + 2, s->col - 1, s->col + 2);
	gf_vec(out, _("fovea ρ_1..4"), s->x, 4, prec);
	gf_vec(out, _("periphery ρ_5..8 (2×2 means)"), s->x + 4, 4, prec);
	snprintf(lab, sizeof lab, "[ρ_%d; l_%d]", t, t);
	gf_vec(out, lab, s->x, GLIMPSE_IN, prec);
	snprintf(lab, sizeof lab, "W_g·[ρ_%d; l_%d] + b_g", t, t);
	gf_vec(out, lab, s->a_g, m->gsize, prec);
	snprintf(lab, sizeof lab, "φ_%d = tanh(W_g·[ρ_%d; l_%d] + b_g)", t, t, t);
	gf_vec(out, lab, s->g, m->gsize, prec);
	snprintf(lab, sizeof lab, "W_h·h_%d + W_x·φ_%d + b_h", t - 1, t);
	gf_vec(out, lab, s->a_h, m->hidden, prec);
	snprintf(lab, sizeof lab, "h_%d = tanh(W_h·h_%d + W_x·φ_%d + b_h)", t,
		 t - 1, t);
	gf_vec(out, lab, s->h, m->hidden, prec);
}

/* The classifier, and with a true class the loss and REINFORCE's. */
void glimpse_fmt_classify(FILE *out, const struct glimpse_model *m,
			const struct glimpse_trace *tr, int prec)
{
	char lab[160], num[NUM_BUFSZ];
	int T = m->steps;
	fprintf(out, "\n%s\n", _("classifier"));
	snprintf(lab, sizeof lab, "W_o·h_%d + b_o", T);
	gf_vec(out, lab, tr->z, m->nclass, prec);
	snprintf(lab, sizeof lab, "ŷ = softmax(W_o·h_%d + b_o)", T);
	gf_vec(out, lab, tr->p, m->nclass, prec);
	for (int k = 0; k < m->nclass; k++)
		fprintf(out, "%s ŷ[%s] = %s", k ? "," : "   ", m->cls[k],
			num_fixed(num, tr->p[k], prec));
	fputc('\n', out);
	fprintf(out, _("  class: %s\n"), m->cls[tr->pred]);
	if (tr->truth < 0)
		return;
	fputc('\n', out);
	fprintf(out, _("learning (true class %s)\n"), m->cls[tr->truth]);
	snprintf(lab, sizeof lab, "loss -log ŷ[%s]", m->cls[tr->truth]);
	gf_num(out, lab, tr->loss, prec);
	gf_num(out, _("reward R (1 if the class is right)"), tr->reward, prec);
	for (int t = 0; t < T; t++) {
		snprintf(lab, sizeof lab, "R̄_%d = %s, δ_%d = R - R̄_%d", t + 1,
			 num_fixed(num, m->base[t], prec), t + 1, t + 1);
		gf_num(out, lab, tr->adv[t], prec);
		double d[2] = { tr->adv[t] * tr->st[t].dlogpi[0],
				tr->adv[t] * tr->st[t].dlogpi[1] };
		snprintf(lab, sizeof lab,
			 "REINFORCE δ_%d·∂ log π / ∂ l̂_%d (ascent)", t + 1,
			 t + 1);
		gf_vec(out, lab, d, 2, prec);
	}
}

void glimpse_fmt_step(FILE *out, const struct glimpse_model *m,
		      const struct pgm_image *im,
		      const struct glimpse_trace *tr, int t, int prec,
		      int ascii)
{
	const struct glimpse_step *s = &tr->st[t - 1];
	char lab[32];
	fprintf(out, _("glimpse %d of %d\n"), t, m->steps);
	snprintf(lab, sizeof lab, "h_%d", t - 1);
	gf_vec(out, lab, s->h_prev, m->hidden, prec);
	gf_place(out, m, s, t, prec);
	gf_sense(out, m, s, t, prec);
	glimpse_fmt_picture(out, im, tr, t - 1, t, 0, ascii);
}

int glimpse_fmt_text(FILE *out, const struct glimpse_model *m,
		     const char *mname, const struct pgm_image *im,
		     const char *name, const struct glimpse_trace *tr,
		     int prec, int ascii)
{
	char *safe = utf8_safe(name), *msafe = utf8_safe(mname);
	fprintf(out, _("glimpses on %s (%d%s%d pixels), model %s: %d "
		"glimpses, seed %llu\n"), safe, im->width, ascii ? "x" : "×", im->height,
		msafe, m->steps, (unsigned long long)tr->seed);
	free(safe);
	free(msafe);
	for (int t = 0; t < m->steps; t++) {
		fputc('\n', out);
		glimpse_fmt_step(out, m, im, tr, t + 1, prec, ascii);
	}
	glimpse_fmt_classify(out, m, tr, prec);
	fputc('\n', out);
	fprintf(out, _("the path of the glimpses (1 .. %d at their corners; "
		"the boxes: their foveas)\n"), m->steps);
	glimpse_fmt_picture(out, im, tr, 0, m->steps, 1, ascii);
	return ferror(out) ? -1 : 0;
}
