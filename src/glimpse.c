/* glimpse.c: the glimpse model's forward pass, recorded (glimpse.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "glimpse.h"
#include "train.h"

#define GLIMPSE_PI 3.14159265358979323846

const struct glimpse_param glimpse_params[] = {
	{ "W_l", GD_TWO, GD_H }, { "b_l", GD_ONE, GD_TWO },
	{ "W_g", GD_D, GD_IN }, { "b_g", GD_ONE, GD_D },
	{ "W_h", GD_H, GD_H }, { "W_x", GD_H, GD_D }, { "b_h", GD_ONE, GD_H },
	{ "W_c", GD_K, GD_H }, { "b_c", GD_ONE, GD_K },
	{ "baseline", GD_ONE, GD_T },
};
const int glimpse_nparams =
	(int)(sizeof glimpse_params / sizeof glimpse_params[0]);

int glimpse_dim_size(const struct glimpse_model *m, enum glimpse_dim d)
{
	switch (d) {
	case GD_ONE: return 1;
	case GD_TWO: return 2;
	case GD_H: return m->hidden;
	case GD_D: return m->gsize;
	case GD_IN: return GLIMPSE_IN;
	case GD_K: return m->nclass;
	case GD_T: return m->steps;
	}
	return 0;
}

double *glimpse_param_ptr(struct glimpse_model *m, int k)
{
	double *const p[] = { m->W_l, m->b_l, m->W_g, m->b_g, m->W_h, m->W_x,
			      m->b_h, m->W_c, m->b_c, m->base };
	return p[k];
}

int glimpse_class_find(const struct glimpse_model *m, const char *name)
{
	for (int k = 0; k < m->nclass; k++)
		if (strcmp(m->cls[k], name) == 0)
			return k;
	return -1;
}

const char *glimpse_draw_name(enum glimpse_draw d)
{
	switch (d) {
	case GLIMPSE_SAMPLE: return "sample";
	case GLIMPSE_MEAN: return "mean";
	case GLIMPSE_HELD: return "held";
	}
	return "?";
}

void glimpse_normal(uint64_t *rng, double u[2], double eps[2])
{
	for (int k = 0; k < 2; k++)
		u[k] = (double)(train_rand_next(rng) >> 11) *
		       (1.0 / 9007199254740992.0);
	double r = sqrt(-2.0 * log(1.0 - u[0]));
	double a = 2.0 * GLIMPSE_PI * u[1];
	eps[0] = r * cos(a);
	eps[1] = r * sin(a);
}

/* Pixel (r, c) of im, 0 outside it. */
static double glimpse_px(const struct pgm_image *im, int r, int c)
{
	if (r < 0 || c < 0 || r >= im->height || c >= im->width)
		return 0.0;
	return pgm_at(im, r, c);
}

void glimpse_retina(const struct pgm_image *im, int row, int col,
		    double *out)
{
	/* step 1: the fovea, rows row-1, row and columns col-1, col */
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			out[2 * i + j] = glimpse_px(im, row - 1 + i,
						    col - 1 + j);
	/* step 2: the periphery, 4×4 from (row-2, col-2), 2×2 means */
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++) {
			int r = row - 2 + 2 * i, c = col - 2 + 2 * j;
			out[4 + 2 * i + j] =
				(glimpse_px(im, r, c) + glimpse_px(im, r, c + 1) +
				 glimpse_px(im, r + 1, c) +
				 glimpse_px(im, r + 1, c + 1)) / 4.0;
		}
}

/* The corner index 0 .. n nearest to v in [-1, 1] (clamped). */
static int glimpse_axis(double v, int n)
{
	if (v < -1.0)
		v = -1.0;
	if (v > 1.0)
		v = 1.0;
	return (int)floor((v + 1.0) / 2.0 * n + 0.5);
}

void glimpse_corner(const struct pgm_image *im, const double *l, int *row,
		    int *col)
{
	*row = glimpse_axis(l[0], im->height);
	*col = glimpse_axis(l[1], im->width);
}

/* out (rows) = W (rows, cols)·v + b, summed in index order. */
static void glimpse_affine(double *out, const double *W, const double *v,
			   const double *b, int rows, int cols)
{
	for (int i = 0; i < rows; i++) {
		double s = b ? b[i] : 0.0;
		for (int j = 0; j < cols; j++)
			s += W[i * cols + j] * v[j];
		out[i] = s;
	}
}

/* Step t's place: l̂, the draw, l and the Gaussian's terms. */
static void glimpse_place(const struct glimpse_model *m,
			  enum glimpse_draw draw, uint64_t *rng,
			  const double *held, struct glimpse_step *s)
{
	double sg = m->sigma;
	glimpse_affine(s->a_l, m->W_l, s->h_prev, m->b_l, 2, m->hidden);
	for (int k = 0; k < 2; k++)
		s->l_hat[k] = tanh(s->a_l[k]);
	s->u[0] = s->u[1] = 0.0;
	s->eps[0] = s->eps[1] = 0.0;
	if (draw == GLIMPSE_SAMPLE)
		glimpse_normal(rng, s->u, s->eps);
	for (int k = 0; k < 2; k++) {
		if (draw == GLIMPSE_HELD) {
			s->l[k] = held[k];
			s->eps[k] = (s->l[k] - s->l_hat[k]) / sg;
		} else {
			s->l[k] = s->l_hat[k] + sg * s->eps[k];
		}
		s->dlogpi[k] = (s->l[k] - s->l_hat[k]) / (sg * sg);
	}
	s->log_pi = -0.5 * (s->eps[0] * s->eps[0] + s->eps[1] * s->eps[1]) -
		    2.0 * log(sg) - log(2.0 * GLIMPSE_PI);
}

/* Step t after its place: the retina, the glimpse network, the core. */
static void glimpse_sense(const struct glimpse_model *m,
			  const struct pgm_image *im, struct glimpse_step *s)
{
	int H = m->hidden, D = m->gsize;
	double wx[GLIMPSE_MAX_HIDDEN];
	glimpse_corner(im, s->l, &s->row, &s->col);
	glimpse_retina(im, s->row, s->col, s->x);
	s->x[GLIMPSE_RETINA] = s->l[0];
	s->x[GLIMPSE_RETINA + 1] = s->l[1];
	glimpse_affine(s->a_g, m->W_g, s->x, m->b_g, D, GLIMPSE_IN);
	for (int i = 0; i < D; i++)
		s->g[i] = tanh(s->a_g[i]);
	glimpse_affine(s->a_h, m->W_h, s->h_prev, NULL, H, H);
	glimpse_affine(wx, m->W_x, s->g, m->b_h, H, D);
	for (int i = 0; i < H; i++) {
		s->a_h[i] += wx[i];
		s->h[i] = tanh(s->a_h[i]);
	}
}

/* The classifier, and with a true class the loss, reward and A_t. */
static void glimpse_classify(const struct glimpse_model *m, int truth,
			     struct glimpse_trace *tr)
{
	int K = m->nclass;
	const double *h = tr->st[m->steps - 1].h;
	glimpse_affine(tr->z, m->W_c, h, m->b_c, K, m->hidden);
	double mx = tr->z[0], sum = 0.0;
	tr->pred = 0;
	for (int k = 1; k < K; k++)
		if (tr->z[k] > mx) {
			mx = tr->z[k];
			tr->pred = k;
		}
	for (int k = 0; k < K; k++)
		sum += tr->p[k] = exp(tr->z[k] - mx);
	for (int k = 0; k < K; k++)
		tr->p[k] /= sum;
	tr->truth = truth;
	tr->loss = tr->reward = 0.0;
	if (truth < 0)
		return;
	tr->loss = -(tr->z[truth] - mx - log(sum));
	tr->reward = tr->pred == truth ? 1.0 : 0.0;
	for (int t = 0; t < m->steps; t++)
		tr->adv[t] = tr->reward - m->base[t];
}

void glimpse_run(const struct glimpse_model *m, const struct pgm_image *im,
		 enum glimpse_draw draw, uint64_t *rng, const double *held,
		 int truth, struct glimpse_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	tr->steps = m->steps;
	tr->draw = draw;
	for (int t = 0; t < m->steps; t++) {
		struct glimpse_step *s = &tr->st[t];
		if (t > 0)
			memcpy(s->h_prev, tr->st[t - 1].h,
			       sizeof s->h_prev);
		glimpse_place(m, draw, rng, held ? held + 2 * t : NULL, s);
		glimpse_sense(m, im, s);
	}
	glimpse_classify(m, truth, tr);
}
