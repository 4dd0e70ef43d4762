/* glimpse.h: the glimpse model of "Recurrent Models of Visual Attention"
 * (Mnih, Heess, Graves and Kavukcuoglu 2014), toy-sized: location-wise
 * hard attention over a PGM image (issue 29, doc/model.md).
 *
 * For t = 1 .. T, with h_0 = 0 and the image's H_img × W_img pixels:
 *
 *   l̂_t = tanh(W_l·h_{t-1} + b_l)                      the proposed place
 *   l_t = l̂_t + σ·ε_t,  ε_t ~ N(0, I), Box–Muller      the drawn place
 *   log π(l_t | l̂_t) = -|ε_t|²/2 - 2 log σ - log 2π
 *   ∂ log π / ∂ l̂_t = (l_t - l̂_t) / σ²
 *   ρ_t: the retina at l_t, 8 numbers (below)
 *   φ_t = tanh(W_g·[ρ_t; l_t] + b_g)                     the glimpse network
 *   h_t = tanh(W_h·h_{t-1} + W_x·φ_t + b_h)              the core RNN
 *
 * then ŷ = softmax(W_o·h_T + b_o) over the classes (W_o and b_o are the
 * model file's sections [W_c] and [b_c]; the symbols are those of
 * doc/notation.md, where W_c and p mean other things).  A place l is
 * (row, column) in [-1, 1]²: -1 the top or left edge of the image, +1 the
 * bottom or right one.  The retina looks around the pixel corner nearest
 * to l clamped to [-1, 1]: row = ⌊(l_1 + 1)/2·H_img + 1/2⌋, col likewise
 * with l_2 and W_img (0 .. H_img, 0 .. W_img).  Its first 4 numbers are
 * the fovea, the 2×2 pixels around that corner (rows row-1, row; columns
 * col-1, col) at full resolution; its last 4 the periphery, the 4×4 pixels
 * around it (rows row-2 .. row+1) averaged in 2×2 blocks; both row-major, a
 * pixel outside the image 0.
 *
 * The draws: u_1, u_2 uniform in [0, 1) (SplitMix64, train_rand_next(),
 * the generator of --hard: the top 53 bits times 2^-53), then
 * ε = √(-2 log(1 - u_1))·(cos 2π·u_2, sin 2π·u_2).
 *
 * The core computes and records and never prints; glimpse_fmt.c writes
 * the trace and the model as text, JSON and SVG. */
#ifndef ATTN_GLIMPSE_H
#define ATTN_GLIMPSE_H

#include <stdint.h>
#include <stdio.h>

#include "pgm.h"
#include "util.h"

#define GLIMPSE_RETINA 8            /* fovea 4, periphery 4 */
#define GLIMPSE_IN (GLIMPSE_RETINA + 2)  /* x_t = [ρ; l_t] */
#define GLIMPSE_MAX_HIDDEN 16       /* H, the core's size */
#define GLIMPSE_MAX_G 16            /* D, the glimpse vector's size */
#define GLIMPSE_MAX_STEPS 8         /* T */
#define GLIMPSE_MAX_CLASSES 8       /* K */
#define GLIMPSE_MAX_WORD 31         /* bytes of a class name */

/* A glimpse model.  Every matrix is row-major with the row length of
 * its shape; the arrays are sized for the largest model. */
struct glimpse_model {
	int hidden;             /* H, 1 .. GLIMPSE_MAX_HIDDEN */
	int gsize;              /* D, 1 .. GLIMPSE_MAX_G */
	int steps;              /* T, 1 .. GLIMPSE_MAX_STEPS */
	int nclass;             /* K, 2 .. GLIMPSE_MAX_CLASSES */
	char cls[GLIMPSE_MAX_CLASSES][GLIMPSE_MAX_WORD + 1];
	double sigma;           /* σ, the draw's spread, > 0 */
	double W_l[2 * GLIMPSE_MAX_HIDDEN];                /* (2, H) */
	double b_l[2];
	double W_g[GLIMPSE_MAX_G * GLIMPSE_IN];           /* (D, 10) */
	double b_g[GLIMPSE_MAX_G];                        /* (D) */
	double W_h[GLIMPSE_MAX_HIDDEN * GLIMPSE_MAX_HIDDEN]; /* (H, H) */
	double W_x[GLIMPSE_MAX_HIDDEN * GLIMPSE_MAX_G];   /* (H, D) */
	double b_h[GLIMPSE_MAX_HIDDEN];                   /* (H) */
	double W_c[GLIMPSE_MAX_CLASSES * GLIMPSE_MAX_HIDDEN]; /* (K, H) */
	double b_c[GLIMPSE_MAX_CLASSES];                  /* (K) */
	double base[GLIMPSE_MAX_STEPS]; /* (T): REINFORCE's baseline b_t */
};

/* The one table of a model's weights: its name (the model file's
 * section [NAME], the key in JSON), and its shape for m's sizes. */
enum glimpse_dim { GD_ONE, GD_TWO, GD_H, GD_D, GD_IN, GD_K, GD_T };
struct glimpse_param {
	const char *name;
	enum glimpse_dim rows, cols;
};
extern const struct glimpse_param glimpse_params[];
extern const int glimpse_nparams;

/* The size a dimension stands for in m. */
int glimpse_dim_size(const struct glimpse_model *m, enum glimpse_dim d);
/* The numbers of parameter k of m (rows·cols of them, row-major). */
double *glimpse_param_ptr(struct glimpse_model *m, int k);

/* One glimpse of a trace: every number of step t. */
struct glimpse_step {
	double h_prev[GLIMPSE_MAX_HIDDEN]; /* h_{t-1} (H) */
	double a_l[2];          /* W_l·h_{t-1} + b_l */
	double l_hat[2];        /* tanh(a_l) */
	double u[2];            /* the uniform draws */
	double eps[2];          /* the standard normal draw */
	double l[2];            /* l̂ + σ·ε (or the held place) */
	double log_pi;          /* log π(l | l̂) */
	double dlogpi[2];       /* (l - l̂)/σ², ∂ log π / ∂ l̂ */
	int row, col;           /* the retina's corner (row, column) */
	double x[GLIMPSE_IN];   /* [fovea 4; periphery 4; l] */
	double a_g[GLIMPSE_MAX_G];  /* W_g·x + b_g (D) */
	double g[GLIMPSE_MAX_G];    /* tanh(a_g) (D) */
	double a_h[GLIMPSE_MAX_HIDDEN]; /* W_h·h_{t-1} + W_x·g + b_h (H) */
	double h[GLIMPSE_MAX_HIDDEN];   /* tanh(a_h), h_t (H) */
};

/* How a run's places are drawn. */
enum glimpse_draw {
	GLIMPSE_SAMPLE, /* l = l̂ + σε, ε from the seed's generator */
	GLIMPSE_MEAN,   /* l = l̂ (ε = 0): the deterministic policy */
	GLIMPSE_HELD    /* l given (ε = (l - l̂)/σ): a gradient check */
};

/* A whole run: T steps, the classifier, and (with a true class) the
 * reward and REINFORCE's terms. */
struct glimpse_trace {
	int steps;              /* T */
	enum glimpse_draw draw; /* how the places came */
	uint64_t seed;          /* the draws' seed */
	struct glimpse_step st[GLIMPSE_MAX_STEPS];
	double z[GLIMPSE_MAX_CLASSES];  /* W_c·h_T + b_c (K) */
	double p[GLIMPSE_MAX_CLASSES];  /* softmax(z) (K) */
	int pred;               /* argmax p, the first of equals */
	int truth;              /* the true class, or -1: unknown */
	double loss;            /* -log p_truth (truth >= 0) */
	double reward;          /* R = 1 if pred == truth, else 0 */
	double adv[GLIMPSE_MAX_STEPS];  /* A_t = R - b_t */
};

/* The names of enum glimpse_draw: "sample", "mean", "held". */
const char *glimpse_draw_name(enum glimpse_draw d);

/* The next standard normal pair from *rng: u[0], u[1] and eps, as above. */
void glimpse_normal(uint64_t *rng, double u[2], double eps[2]);

/* The retina at the corner (row, col) of im: out[0..3] the fovea,
 * out[4..7] the periphery (see above). */
void glimpse_retina(const struct pgm_image *im, int row, int col,
		    double *out);

/* The corner nearest to l (2), clamped to [-1, 1], in im. */
void glimpse_corner(const struct pgm_image *im, const double *l, int *row,
		    int *col);

/* Runs m on im into *tr.  draw says how the places come: from *rng
 * (GLIMPSE_SAMPLE; rng advances), ε = 0, or held (2T numbers of held,
 * row-major).  truth: the true class, or -1.  Pure: no printing. */
void glimpse_run(const struct glimpse_model *m, const struct pgm_image *im,
		 enum glimpse_draw draw, uint64_t *rng, const double *held,
		 int truth, struct glimpse_trace *tr);

/* The class called name in m, or -1. */
int glimpse_class_find(const struct glimpse_model *m, const char *name);

/* ------------------------------------------------------ model files */

/* Reads a glimpse model from text (len bytes; doc/model-format.md's
 * "glimpse models"); name is the file's name for the errors
 * "NAME:LINE:COL: expected ..., found ...".  Returns 0, or -1 with err
 * set and *m all zero. */
int glimpse_model_parse(struct glimpse_model *m, const char *text,
			size_t len, const char *name, struct errbuf *err);

/* Reads the model path, or the built-in model called path ("glimpse6").
 * Returns 0, or -1 with err set. */
int glimpse_model_load(struct glimpse_model *m, const char *path,
		       struct errbuf *err);

/* 1 if path names a glimpse model: the built-in glimpse6, or a file
 * whose first line that is neither blank nor a comment starts with the
 * format's first word; else 0 (no message: a file that cannot be read
 * is left to the reader that takes it). */
int glimpse_model_is(const char *path);

/* Writes m as a model file, every number in its shortest exact form;
 * comment (may be NULL) opens it, its lines prefixed "# ".  Returns 0,
 * or -1 on a write error. */
int glimpse_model_write(FILE *out, const struct glimpse_model *m,
			const char *comment);

/* The built-in model's name and its text (data/glimpse6.model). */
#define GLIMPSE_BUILTIN "glimpse6"
extern const unsigned char model_glimpse6_text[];
extern const size_t model_glimpse6_len;

#endif
