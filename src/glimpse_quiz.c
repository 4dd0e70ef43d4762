/* glimpse_quiz.c: quiz questions on a glimpse trace (glimpse_quiz.h).
 * Every answer and every operand is a number the trace, the model or
 * the image holds; only the worked softmax of the class writes its
 * exponentials out. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "glimpse_quiz.h"
#include "i18n.h"
#include "num.h"

static const char *const gq_names[GLIMPSE_QUIZ_COUNT] = {
	[GLIMPSE_QUIZ_PLACE] = "place",
	[GLIMPSE_QUIZ_DRAW] = "draw",
	[GLIMPSE_QUIZ_RETINA] = "retina",
	[GLIMPSE_QUIZ_GLIMPSE] = "glimpse",
	[GLIMPSE_QUIZ_CORE] = "core",
	[GLIMPSE_QUIZ_CLASS] = "class",
	[GLIMPSE_QUIZ_REINFORCE] = "reinforce",
};

const char *glimpse_quiz_name(int kind)
{
	return kind >= 0 && kind < GLIMPSE_QUIZ_COUNT ? gq_names[kind] : NULL;
}

int glimpse_quiz_parse(const char *name, enum glimpse_quiz_kind *kind)
{
	for (int k = 0; k < GLIMPSE_QUIZ_COUNT; k++)
		if (strcmp(name, gq_names[k]) == 0) {
			*kind = (enum glimpse_quiz_kind)k;
			return 0;
		}
	return -1;
}

void glimpse_quiz_range(const struct glimpse_quiz_src *src,
		     enum glimpse_quiz_kind kind, int *lo, int *hi)
{
	static const int last[GLIMPSE_QUIZ_COUNT] = {
		[GLIMPSE_QUIZ_PLACE] = 2, [GLIMPSE_QUIZ_DRAW] = 2,
		[GLIMPSE_QUIZ_RETINA] = GLIMPSE_RETINA,
		[GLIMPSE_QUIZ_REINFORCE] = 2,
	};
	*lo = kind == GLIMPSE_QUIZ_RETINA ? 5 : 1;
	*hi = kind == GLIMPSE_QUIZ_GLIMPSE ? src->m->gsize
	    : kind == GLIMPSE_QUIZ_CORE ? src->m->hidden
	    : kind == GLIMPSE_QUIZ_CLASS ? src->m->nclass : last[kind];
}

/* The answer of the question, from the trace. */
static double gq_answer(const struct glimpse_trace *tr,
			enum glimpse_quiz_kind kind, int t, int k)
{
	const struct glimpse_step *s = &tr->st[t - 1];
	switch (kind) {
	case GLIMPSE_QUIZ_PLACE: return s->l_hat[k - 1];
	case GLIMPSE_QUIZ_DRAW: return s->l[k - 1];
	case GLIMPSE_QUIZ_RETINA: return s->x[k - 1];
	case GLIMPSE_QUIZ_GLIMPSE: return s->g[k - 1];
	case GLIMPSE_QUIZ_CORE: return s->h[k - 1];
	case GLIMPSE_QUIZ_CLASS: return tr->p[k - 1];
	default: return s->dlogpi[k - 1];
	}
}

/* "l̂_2[1]", "ŷ[bar]", "∂ log π / ∂ l̂_2[1]": what a question asks for. */
static void gq_symbol(char *buf, size_t size,
		      const struct glimpse_quiz_src *src,
		      enum glimpse_quiz_kind kind, int t, int k)
{
	static const char *const fmt[GLIMPSE_QUIZ_COUNT] = {
		"l̂_%d[%d]", "l_%d[%d]", "ρ_%d[%d]", "φ_%d[%d]", "h_%d[%d]",
		"", "∂ log π / ∂ l̂_%d[%d]",
	};
	if (kind == GLIMPSE_QUIZ_CLASS)
		snprintf(buf, size, "ŷ[%s]", src->m->cls[k - 1]);
	else
		snprintf(buf, size, fmt[kind], t, k);
}

int glimpse_quiz_make_at(struct quiz_question *q,
			 const struct glimpse_quiz_src *src,
			 enum glimpse_quiz_kind kind, int t, int k,
			 int precision, struct errbuf *err)
{
	int lo, hi;
	memset(q, 0, sizeof *q);
	if ((int)kind < 0 || kind >= GLIMPSE_QUIZ_COUNT) {
		err_set(err, "%s", _("no such question on a glimpse trace"));
		return -1;
	}
	glimpse_quiz_range(src, kind, &lo, &hi);
	if (kind == GLIMPSE_QUIZ_CLASS)
		t = src->tr->steps;
	if (t < 1 || t > src->tr->steps || k < lo || k > hi) {
		err_set(err, _("no %s question at glimpse %d, number %d: "
			       "expected glimpse 1 to %d, number %d to %d"),
			gq_names[kind], t, k, src->tr->steps, lo, hi);
		return -1;
	}
	q->gq = src;
	q->glimpse_kind = kind;
	q->stage = STAGE_SCORING; /* a number to give, as a score is */
	q->t = t;
	q->k = k;
	q->precision = precision < QUIZ_MIN_PREC ? QUIZ_MIN_PREC
		     : precision > QUIZ_MAX_PREC ? QUIZ_MAX_PREC : precision;
	gq_symbol(q->symbol, sizeof q->symbol, src, kind, t, k);
	q->expected = gq_answer(src->tr, kind, t, k);
	q->tolerance = quiz_tolerance(q->expected, q->precision);
	return 0;
}

int glimpse_quiz_make(struct quiz_question *q,
		      const struct glimpse_quiz_src *src,
		      enum glimpse_quiz_kind kind, uint64_t seed,
		      int precision, struct errbuf *err)
{
	int lo = 1, hi = 1;
	uint64_t state = seed;
	if ((int)kind >= 0 && kind < GLIMPSE_QUIZ_COUNT)
		glimpse_quiz_range(src, kind, &lo, &hi);
	for (int tries = 1;; tries++) {
		/* step 1: the glimpse; step 2: the number in it */
		int t = 1 + (int)(quiz_rand(&state) % (uint64_t)src->tr->steps);
		int k = lo + (int)(quiz_rand(&state) % (uint64_t)(hi - lo + 1));
		if (glimpse_quiz_make_at(q, src, kind, t, k, precision,
					 err) != 0)
			return -1;
		/* step 3: an answer that rounds to zero (a dark block of the
		 * retina) is a dull question; draw again, a few times */
		if (tries == QUIZ_TRIES || fabs(q->expected) >=
		    quiz_tolerance(0.0, q->precision) / QUIZ_TOL_UNITS)
			return 0;
	}
}

/* ---------------------------------------------------------------- text */

/* "  label        (n)   [a, b]", as the trace's quiz lines are laid out. */
static void gq_line(FILE *out, const char *label, const double *v, int n,
		    int prec)
{
	fmt_text_line(out, 2, label, v, n, prec);
}

/* x as a factor: negatives in parentheses. */
static char *gq_factor(char *buf, double x, int prec)
{
	char num[NUM_BUFSZ];
	fmt_num(num, x, prec);
	snprintf(buf, NUM_BUFSZ + 2, num[0] == '-' ? "(%s)" : "%s", num);
	return buf;
}

/* "w_1×x_1 + ... + w_n×x_n" */
static void gq_dot(FILE *out, const double *w, const double *x, int n,
		   int prec)
{
	char a[NUM_BUFSZ + 2], b[NUM_BUFSZ + 2];
	for (int j = 0; j < n; j++)
		fprintf(out, "%s%s×%s", j ? " + " : "", gq_factor(a, w[j], prec),
			gq_factor(b, x[j], prec));
}

/* The pixel (row, col) of the image, from 0; 0 outside it. */
static double gq_pixel(const struct pgm_image *im, int row, int col)
{
	if (row < 0 || col < 0 || row >= im->height || col >= im->width)
		return 0.0;
	return pgm_at(im, row, col);
}

/* The four pixels of periphery block k (5 .. 8) of step s, row-major,
 * and the block's top row and left column, from 0. */
static void gq_block(const struct glimpse_quiz_src *src,
		     const struct glimpse_step *s, int k, double px[4],
		     int *r0, int *c0)
{
	int b = k - 5;
	*r0 = s->row - 2 + 2 * (b / 2);
	*c0 = s->col - 2 + 2 * (b % 2);
	for (int i = 0; i < 4; i++)
		px[i] = gq_pixel(src->im, *r0 + i / 2, *c0 + i % 2);
}

static void gq_prompt_place(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_model *m = q->gq->m;
	const struct glimpse_step *s = &q->gq->tr->st[q->t - 1];
	const int p = q->precision, k = q->k;
	char lab[64], num[NUM_BUFSZ];
	fprintf(out, _("Glimpse %d: the location network reads the core's "
		       "state h_%d with row %d of W_l (the %s):\n"), q->t,
		q->t - 1, k, k == 1 ? _("row") : _("column"));
	snprintf(lab, sizeof lab, "h_%d", q->t - 1);
	gq_line(out, lab, s->h_prev, m->hidden, p);
	snprintf(lab, sizeof lab, "W_l[%d]", k);
	gq_line(out, lab, m->W_l + (k - 1) * m->hidden, m->hidden, p);
	fprintf(out, "  b_l[%d] = %s\n", k, fmt_num(num, m->b_l[k - 1], p));
	fprintf(out, _("What is the place the policy points at, %s = "
		       "tanh(W_l[%d]·h_%d + b_l[%d])?\n"), q->symbol, k,
		q->t - 1, k);
}

static void gq_prompt_draw(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_step *s = &q->gq->tr->st[q->t - 1];
	const int p = q->precision;
	char lab[64], num[NUM_BUFSZ];
	fprintf(out, _("Glimpse %d: the policy points at l̂_%d, and the draw "
		       "ε_%d moves it by σ:\n"), q->t, q->t, q->t);
	snprintf(lab, sizeof lab, "l̂_%d", q->t);
	gq_line(out, lab, s->l_hat, 2, p);
	snprintf(lab, sizeof lab, "ε_%d", q->t);
	gq_line(out, lab, s->eps, 2, p);
	fprintf(out, "  σ = %s\n", fmt_num(num, q->gq->m->sigma, p));
	fprintf(out, _("What is the place drawn, %s = l̂_%d[%d] + σ·ε_%d[%d] "
		       "(the %s)?\n"), q->symbol, q->t, q->k, q->t, q->k,
		q->k == 1 ? _("row") : _("column"));
}

static void gq_prompt_retina(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_step *s = &q->gq->tr->st[q->t - 1];
	double px[4];
	int r0, c0;
	char a[NUM_BUFSZ];
	gq_block(q->gq, s, q->k, px, &r0, &c0);
	fprintf(out, _("Glimpse %d looks around the pixel corner (row, column) "
		       "= (%d, %d).  Its periphery averages the 4×4 pixels "
		       "around it in 2×2 blocks; block %d holds these pixels, "
		       "rows and columns from 1 (a pixel outside the image "
		       "reads 0):\n"), q->t,
		s->row, s->col, q->k - 4);
	for (int i = 0; i < 4; i++) {
		int r = r0 + i / 2, c = c0 + i % 2;
		fmt_num(a, px[i], q->precision);
		if (r < 0 || c < 0 || r >= q->gq->im->height ||
		    c >= q->gq->im->width)
			/* TRANSLATORS: a pixel's row and column, from 1 */
			fprintf(out, _("  row %d, column %d: %s (outside the "
				       "image)\n"), r + 1, c + 1, a);
		else
			fprintf(out, _("  row %d, column %d: %s\n"), r + 1,
				c + 1, a);
	}
	fprintf(out, _("What is %s, the mean of the block?\n"), q->symbol);
}

static void gq_prompt_glimpse(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_model *m = q->gq->m;
	const struct glimpse_step *s = &q->gq->tr->st[q->t - 1];
	const int p = q->precision, k = q->k;
	char lab[64], num[NUM_BUFSZ];
	fprintf(out, _("Glimpse %d: the glimpse network reads what the retina "
		       "saw and where, [ρ_%d; l_%d], with row %d of W_g:\n"),
		q->t, q->t, q->t, k);
	snprintf(lab, sizeof lab, "[ρ_%d; l_%d]", q->t, q->t);
	gq_line(out, lab, s->x, GLIMPSE_IN, p);
	snprintf(lab, sizeof lab, "W_g[%d]", k);
	gq_line(out, lab, m->W_g + (k - 1) * GLIMPSE_IN, GLIMPSE_IN, p);
	fprintf(out, "  b_g[%d] = %s\n", k, fmt_num(num, m->b_g[k - 1], p));
	fprintf(out, _("What is %s = tanh(W_g[%d]·[ρ_%d; l_%d] + b_g[%d])?\n"),
		q->symbol, k, q->t, q->t, k);
}

static void gq_prompt_core(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_model *m = q->gq->m;
	const struct glimpse_step *s = &q->gq->tr->st[q->t - 1];
	const int p = q->precision, k = q->k, t = q->t;
	char lab[64], num[NUM_BUFSZ];
	fprintf(out, _("Glimpse %d: the core RNN reads its state h_%d and the "
		       "glimpse vector φ_%d, with row %d of W_h and of W_x:\n"),
		t, t - 1, t, k);
	snprintf(lab, sizeof lab, "h_%d", t - 1);
	gq_line(out, lab, s->h_prev, m->hidden, p);
	snprintf(lab, sizeof lab, "W_h[%d]", k);
	gq_line(out, lab, m->W_h + (k - 1) * m->hidden, m->hidden, p);
	snprintf(lab, sizeof lab, "φ_%d", t);
	gq_line(out, lab, s->g, m->gsize, p);
	snprintf(lab, sizeof lab, "W_x[%d]", k);
	gq_line(out, lab, m->W_x + (k - 1) * m->gsize, m->gsize, p);
	fprintf(out, "  b_h[%d] = %s\n", k, fmt_num(num, m->b_h[k - 1], p));
	fprintf(out, _("What is %s = tanh(W_h[%d]·h_%d + W_x[%d]·φ_%d + "
		       "b_h[%d])?\n"), q->symbol, k, t - 1, k, t, k);
}

static void gq_prompt_class(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_model *m = q->gq->m;
	fprintf(out, _("After the last glimpse the classifier scores the "
		       "classes, z = W_o·h_%d + b_o, one for each of %d "
		       "classes ("), q->t, m->nclass);
	for (int c = 0; c < m->nclass; c++)
		fprintf(out, "%s%s", c ? ", " : "", m->cls[c]);
	fputs("):\n", out);
	gq_line(out, "z", q->gq->tr->z, m->nclass, q->precision);
	fprintf(out, _("What is the probability of %s, %s = exp(z_%d - max) / "
		       "Σ_j exp(z_j - max)?\n"), m->cls[q->k - 1], q->symbol,
		q->k);
}

static void gq_prompt_reinforce(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_step *s = &q->gq->tr->st[q->t - 1];
	const int p = q->precision, t = q->t;
	char lab[64], num[NUM_BUFSZ];
	fprintf(out, _("Glimpse %d: REINFORCE moves l̂_%d along the gradient of "
		       "log π(l_%d | l̂_%d), the log-density of the place drawn "
		       "under the Gaussian around l̂_%d.  The draw put l_%d = "
		       "l̂_%d + σ·ε_%d:\n"), t, t, t, t, t, t, t, t);
	snprintf(lab, sizeof lab, "l_%d", t);
	gq_line(out, lab, s->l, 2, p);
	snprintf(lab, sizeof lab, "l̂_%d", t);
	gq_line(out, lab, s->l_hat, 2, p);
	snprintf(lab, sizeof lab, "ε_%d", t);
	gq_line(out, lab, s->eps, 2, p);
	fprintf(out, "  σ = %s\n", fmt_num(num, q->gq->m->sigma, p));
	fprintf(out, _("What is %s = (l_%d[%d] - l̂_%d[%d]) / σ² = ε_%d[%d] / "
		       "σ?\n"), q->symbol, t, q->k, t, q->k, t, q->k);
}

int glimpse_quiz_prompt_text(FILE *out, const struct quiz_question *q)
{
	static void (*const prompt[GLIMPSE_QUIZ_COUNT])(
		FILE *, const struct quiz_question *) = {
		gq_prompt_place, gq_prompt_draw, gq_prompt_retina,
		gq_prompt_glimpse, gq_prompt_core, gq_prompt_class,
		gq_prompt_reinforce,
	};
	prompt[q->glimpse_kind](out, q);
	return ferror(out) ? -1 : 0;
}

/* "pre = w·x + ... + b = a" then "symbol = tanh(a) = answer". */
static void gq_worked_tanh(FILE *out, const struct quiz_question *q,
			   const char *pre, const double *w1,
			   const double *x1, int n1, const double *w2,
			   const double *x2, int n2, double bias, double a)
{
	const int p = q->precision;
	char b[NUM_BUFSZ + 2], c[NUM_BUFSZ];
	fprintf(out, "%s = ", pre);
	gq_dot(out, w1, x1, n1, p);
	if (n2) {
		fputs(" + ", out);
		gq_dot(out, w2, x2, n2, p);
	}
	fprintf(out, " + %s = %s\n", gq_factor(b, bias, p), fmt_num(c, a, p));
	fprintf(out, "%s = tanh(%s) = %s\n", q->symbol, fmt_num(c, a, p),
		fmt_num(b, q->expected, p));
}

static void gq_worked_class(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_trace *tr = q->gq->tr;
	const int K = q->gq->m->nclass, p = q->precision;
	char a[NUM_BUFSZ], b[NUM_BUFSZ];
	double max = tr->z[0], sum = 0;
	for (int c = 1; c < K; c++)
		if (tr->z[c] > max)
			max = tr->z[c];
	fprintf(out, "max = %s\n", fmt_num(a, max, p));
	for (int c = 0; c < K; c++) {
		double e = exp(tr->z[c] - max);
		sum += e;
		fprintf(out, "exp(z_%d - max) = exp(%s) = %s\n", c + 1,
			fmt_num(a, tr->z[c] - max, p), fmt_num(b, e, p));
	}
	fprintf(out, "sum = %s\n", fmt_num(a, sum, p));
	fprintf(out, "%s = exp(z_%d - max) / sum = %s\n", q->symbol, q->k,
		fmt_num(b, q->expected, p));
}

int glimpse_quiz_worked_text(FILE *out, const struct quiz_question *q)
{
	const struct glimpse_model *m = q->gq->m;
	const struct glimpse_step *s = &q->gq->tr->st[q->t - 1];
	const int p = q->precision, k = q->k, t = q->t;
	char lab[96], a[NUM_BUFSZ + 2], b[NUM_BUFSZ + 2], c[NUM_BUFSZ];
	double px[4];
	int r0, c0;
	switch ((enum glimpse_quiz_kind)q->glimpse_kind) {
	case GLIMPSE_QUIZ_PLACE:
		snprintf(lab, sizeof lab, "W_l[%d]·h_%d + b_l[%d]", k, t - 1, k);
		gq_worked_tanh(out, q, lab, m->W_l + (k - 1) * m->hidden,
			       s->h_prev, m->hidden, NULL, NULL, 0,
			       m->b_l[k - 1], s->a_l[k - 1]);
		break;
	case GLIMPSE_QUIZ_DRAW:
		fprintf(out, "%s = %s + %s×%s = %s\n", q->symbol,
			fmt_num(c, s->l_hat[k - 1], p),
			gq_factor(a, m->sigma, p), gq_factor(b, s->eps[k - 1], p),
			fmt_num(lab, q->expected, p));
		break;
	case GLIMPSE_QUIZ_RETINA:
		gq_block(q->gq, s, k, px, &r0, &c0);
		fprintf(out, "%s = (", q->symbol);
		for (int i = 0; i < 4; i++)
			fprintf(out, "%s%s", i ? " + " : "",
				fmt_num(c, px[i], p));
		fprintf(out, ") / 4 = %s\n", fmt_num(c, q->expected, p));
		break;
	case GLIMPSE_QUIZ_GLIMPSE:
		snprintf(lab, sizeof lab, "W_g[%d]·[ρ_%d; l_%d] + b_g[%d]", k, t,
			 t, k);
		gq_worked_tanh(out, q, lab, m->W_g + (k - 1) * GLIMPSE_IN, s->x,
			       GLIMPSE_IN, NULL, NULL, 0, m->b_g[k - 1],
			       s->a_g[k - 1]);
		break;
	case GLIMPSE_QUIZ_CORE:
		snprintf(lab, sizeof lab, "W_h[%d]·h_%d + W_x[%d]·φ_%d + b_h[%d]",
			 k, t - 1, k, t, k);
		gq_worked_tanh(out, q, lab, m->W_h + (k - 1) * m->hidden,
			       s->h_prev, m->hidden, m->W_x + (k - 1) * m->gsize,
			       s->g, m->gsize, m->b_h[k - 1], s->a_h[k - 1]);
		break;
	case GLIMPSE_QUIZ_CLASS:
		gq_worked_class(out, q);
		break;
	default:
		fmt_num(c, m->sigma, p);
		fprintf(out, "%s = (%s - %s) / %s²", q->symbol,
			fmt_num(lab, s->l[k - 1], p),
			gq_factor(a, s->l_hat[k - 1], p), c);
		fprintf(out, " = %s / %s = %s\n", gq_factor(b, s->eps[k - 1], p),
			c, fmt_num(lab, q->expected, p));
		break;
	}
	return ferror(out) ? -1 : 0;
}
