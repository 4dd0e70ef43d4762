/* glimpse_train.c: the glimpse model's backward pass, its training and
 * its measure (glimpse_train.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "glimpse_train.h"
#include "i18n.h"
#include "train.h"

double glimpse_objective(const struct glimpse_model *m,
			 const struct glimpse_trace *tr, const double *adv)
{
	double J = tr->loss;
	for (int t = 0; t < m->steps; t++) {
		double e = tr->reward - m->base[t];
		J += -GLIMPSE_LAMBDA * adv[t] * tr->st[t].log_pi + 0.5 * e * e;
	}
	return J;
}

/* out (cols) = W (rows, cols)ᵀ·v (rows). */
static void gt_matvec_t(double *out, const double *W, const double *v,
			int rows, int cols)
{
	for (int j = 0; j < cols; j++) {
		double s = 0.0;
		for (int i = 0; i < rows; i++)
			s += W[i * cols + j] * v[i];
		out[j] = s;
	}
}

/* dW (rows, cols) += d ⊗ v, db (rows) += d (db may be NULL). */
static void gt_outer(double *dW, double *db, const double *d,
		     const double *v, int rows, int cols)
{
	for (int i = 0; i < rows; i++) {
		for (int j = 0; j < cols; j++)
			dW[i * cols + j] += d[i] * v[j];
		if (db)
			db[i] += d[i];
	}
}

/* Step t back: from dh = dJ/dh_t to dJ/dh_{t-1}: the core's and the
 * glimpse network's gradients, REINFORCE's (into W_l, b_l and on
 * through h_{t-1}) and the baseline's. */
static void gt_step_back(const struct glimpse_model *m,
			 const struct glimpse_trace *tr, int t, double *dh,
			 struct glimpse_model *grad)
{
	const struct glimpse_step *s = &tr->st[t];
	int H = m->hidden, D = m->gsize;
	double da_h[GLIMPSE_MAX_HIDDEN], dg[GLIMPSE_MAX_G];
	/* step 1: through h_t = tanh(a_h) */
	for (int i = 0; i < H; i++)
		da_h[i] = dh[i] * (1.0 - s->h[i] * s->h[i]);
	gt_outer(grad->W_h, grad->b_h, da_h, s->h_prev, H, H);
	gt_outer(grad->W_x, NULL, da_h, s->g, H, D);
	/* step 2: through g_t = tanh(W_g x + b_g) */
	gt_matvec_t(dg, m->W_x, da_h, H, D);
	for (int i = 0; i < D; i++)
		dg[i] *= 1.0 - s->g[i] * s->g[i];
	gt_outer(grad->W_g, grad->b_g, dg, s->x, D, GLIMPSE_IN);
	/* step 3: REINFORCE, -λ A_t ∂ log π / ∂ l̂ through l̂ = tanh(a_l) */
	double dl[2], dhl[GLIMPSE_MAX_HIDDEN];
	for (int k = 0; k < 2; k++)
		dl[k] = -GLIMPSE_LAMBDA * tr->adv[t] * s->dlogpi[k] *
			(1.0 - s->l_hat[k] * s->l_hat[k]);
	gt_outer(grad->W_l, grad->b_l, dl, s->h_prev, 2, H);
	/* step 4: on to h_{t-1}, from the core and from the place */
	gt_matvec_t(dh, m->W_h, da_h, H, H);
	gt_matvec_t(dhl, m->W_l, dl, 2, H);
	for (int i = 0; i < H; i++)
		dh[i] += dhl[i];
	/* step 5: the baseline, ∂ ½(R - b_t)² / ∂ b_t */
	grad->base[t] += m->base[t] - tr->reward;
}

void glimpse_backward(const struct glimpse_model *m,
		      const struct glimpse_trace *tr, struct glimpse_model *grad)
{
	int H = m->hidden, K = m->nclass, T = m->steps;
	double dz[GLIMPSE_MAX_CLASSES], dh[GLIMPSE_MAX_HIDDEN];
	for (int k = 0; k < K; k++)
		dz[k] = tr->p[k] - (k == tr->truth ? 1.0 : 0.0);
	gt_outer(grad->W_c, grad->b_c, dz, tr->st[T - 1].h, K, H);
	gt_matvec_t(dh, m->W_c, dz, K, H);
	for (int t = T - 1; t >= 0; t--)
		gt_step_back(m, tr, t, dh, grad);
}

void glimpse_train_defaults(struct glimpse_train_opts *o)
{
	o->hidden = 8;
	o->gsize = 8;
	o->steps = 3;
	o->sigma = 0.3;
	o->epochs = 3000;
	o->lr = 0.01;
	o->seed = 1;
}

/* The set's classes, in the order of first appearance, into m. */
static int gt_classes(struct glimpse_model *m, const struct imageset *set,
		      struct errbuf *err)
{
	for (int i = 0; i < set->n; i++) {
		const char *c = set->item[i].cls;
		if (glimpse_class_find(m, c) >= 0)
			continue;
		if (m->nclass == GLIMPSE_MAX_CLASSES ||
		    strlen(c) > GLIMPSE_MAX_WORD) {
			err_set(err, _("line %d: expected at most %d classes of "
				"at most %d bytes, found '%s'"),
				set->item[i].line, GLIMPSE_MAX_CLASSES,
				GLIMPSE_MAX_WORD, c);
			return -1;
		}
		strcpy(m->cls[m->nclass++], c);
	}
	if (m->nclass < 2) {
		err_set(err, _("expected images of at least 2 classes, found %d"),
			m->nclass);
		return -1;
	}
	return 0;
}

/* A new model of o's sizes: the matrices uniform in ±1/√(columns),
 * the biases and the baseline 0 (so the first glimpse looks at the
 * centre). */
static void gt_init(struct glimpse_model *m,
		    const struct glimpse_train_opts *o, uint64_t *rng)
{
	m->hidden = o->hidden;
	m->gsize = o->gsize;
	m->steps = o->steps;
	m->sigma = o->sigma;
	for (int k = 0; k < glimpse_nparams; k++) {
		int rows = glimpse_dim_size(m, glimpse_params[k].rows);
		int cols = glimpse_dim_size(m, glimpse_params[k].cols);
		double *v = glimpse_param_ptr(m, k), a = 1.0 / sqrt(cols);
		if (glimpse_params[k].rows == GD_ONE)
			continue;
		for (int i = 0; i < rows * cols; i++)
			v[i] = train_rand_uniform(rng, -a, a);
	}
}

/* One Adam update of every weight of m from the gradient g (divided
 * by n), with the moments m1, m2 and the step number step (from 1). */
static void gt_adam(struct glimpse_model *m, struct glimpse_model *g,
		    struct glimpse_model *m1, struct glimpse_model *m2,
		    double lr, int n, int step)
{
	double c1 = 1.0 - pow(0.9, step), c2 = 1.0 - pow(0.999, step);
	for (int k = 0; k < glimpse_nparams; k++) {
		int cnt = glimpse_dim_size(m, glimpse_params[k].rows) *
			  glimpse_dim_size(m, glimpse_params[k].cols);
		double *w = glimpse_param_ptr(m, k), *d = glimpse_param_ptr(g, k);
		double *a = glimpse_param_ptr(m1, k), *b = glimpse_param_ptr(m2, k);
		for (int i = 0; i < cnt; i++) {
			double gi = d[i] / n;
			a[i] = 0.9 * a[i] + 0.1 * gi;
			b[i] = 0.999 * b[i] + 0.001 * gi * gi;
			w[i] -= lr * (a[i] / c1) / (sqrt(b[i] / c2) + 1e-8);
		}
	}
}

int glimpse_train(struct glimpse_model *m, const struct imageset *set,
		  const struct glimpse_train_opts *o, double *final_loss,
		  struct errbuf *err)
{
	static struct glimpse_model g, m1, m2;
	static struct glimpse_trace tr;
	uint64_t rng = o->seed;
	memset(m, 0, sizeof *m);
	if (gt_classes(m, set, err) != 0)
		return -1;
	gt_init(m, o, &rng);
	memset(&m1, 0, sizeof m1);
	memset(&m2, 0, sizeof m2);
	for (int e = 1; e <= o->epochs; e++) {
		double J = 0.0;
		memset(&g, 0, sizeof g);
		for (int i = 0; i < set->n; i++) {
			const struct imageset_item *it = &set->item[i];
			glimpse_run(m, &it->image, GLIMPSE_SAMPLE, &rng, NULL,
				    glimpse_class_find(m, it->cls), &tr);
			J += glimpse_objective(m, &tr, tr.adv);
			glimpse_backward(m, &tr, &g);
		}
		gt_adam(m, &g, &m1, &m2, o->lr, set->n, e);
		*final_loss = J / set->n;
	}
	return 0;
}

int glimpse_on_object(const struct glimpse_step *s,
		      const struct imageset_item *it)
{
	return imageset_box_overlap(it, s->row - 1, s->col - 1, 2, 2) > 0.0;
}

void glimpse_measure(const struct glimpse_model *m, const struct imageset *set,
		     struct glimpse_measure *r)
{
	static struct glimpse_trace tr;
	memset(r, 0, sizeof *r);
	for (int i = 0; i < set->n; i++) {
		const struct imageset_item *it = &set->item[i];
		int y = glimpse_class_find(m, it->cls);
		if (y < 0)
			continue;
		glimpse_run(m, &it->image, GLIMPSE_MEAN, NULL, NULL, y, &tr);
		r->n++;
		r->correct += tr.pred == y;
		for (int t = 0; t < m->steps; t++) {
			r->glimpses++;
			r->on_object += glimpse_on_object(&tr.st[t], it);
		}
	}
}
