/* selection_hard.c: hard attention (Xu et al. 2015, "Show, Attend and
 * Tell", §4.1): the context is the state of one source word l, drawn
 * from the weights, instead of their average:
 *
 *   cumsum_t,j = α_t,1 + ... + α_t,j
 *   u = (x >> 11)·2^-53, x the next output of the run's SplitMix64
 *   l = the first j with u < cumsum_t,j               (--hard=sample)
 *   l = the first j with the largest α_t,j            (--hard=argmax)
 *   c_t = h_l
 *
 * Each run has one generator stream, its state in trace_run.rng, set to
 * the trace's seed (--seed) at the run's first step and advanced once a
 * step; every u is recorded, so a trace can be replayed.  The soft
 * context Σ_i α_t,i·h_i is recorded too, beside the one that replaces
 * it.
 *
 * A window whose weights a_t are not a distribution (local-p's sum to
 * Σ_j a_t,j < 1: window_class.unnormalised) is drawn from normalised,
 *
 *   π_t,j = a_t,j / Σ_k a_t,k
 *
 * and π_t takes α_t's place in the cumulative sums, the exact view, the
 * score-function and entropy terms and the Monte Carlo samples.  Under
 * local-p π_t = softmax over the window of z_j = e_t,j - (j - p_t)²/(2σ²),
 * so REINFORCE's terms reach p_t too (doc/model.md); the soft context it
 * replaces stays Σ_j a_t,j·h_j. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "attn.h"
#include "fmt.h"
#include "i18n.h"
#include "selection.h"
#include "train.h"
#include "window.h"

/* One step of SplitMix64 (Steele, Lea and Flood 2014): advances *s and
 * returns the next 64 bits. */
static unsigned long long hard_splitmix64(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* A double uniform in [0, 1): the top 53 bits of x times 2^-53. */
static double hard_unit(unsigned long long x)
{
	return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

/* REINFORCE's coefficients (doc/model.md): the score-function term's
 * λ_r, the entropy bonus's λ_e, and the baseline's decay. */
#define HARD_LAMBDA_R 0.1
#define HARD_LAMBDA_E 0.002
#define HARD_DECAY 0.9

/* l from u and the cumulative sums cum (n) of the weights a: the first j
 * with u < cum_j, or the last word with a weight. */
static int hard_pick(double u, const double *cum, const double *a, int n)
{
	int l;
	for (l = 0; l < n && !(u < cum[l]); l++)
		;
	if (l == n)
		for (l = n - 1; l > 0 && a[l] <= 0; l--)
			;
	return l;
}

/* The REC_GAUSS record of step t of run, while the step is being
 * recorded (trace_find knows only finished steps), or NULL. */
static const struct trace_rec *hard_gauss(const struct trace *tr, int run,
					  int t)
{
	for (int k = tr->nrecs - 1; k >= 0; k--) {
		const struct trace_rec *r = &tr->recs[k];
		if (r->run != run || r->t != t)
			break;
		if (r->kind == REC_GAUSS)
			return r;
	}
	return NULL;
}

/* --gradient: R = log p(y_t | l), the baseline R̄ (before this step's
 * update), R - R̄, the score-function term, the entropy term and the backpropagated
 * ∂R/∂c_t.  a is the distribution l was drawn from: α_t, or π_t when pi
 * is set; then, if the step has local-p's Gaussian (REC_GAUSS, p_t and
 * σ), the two terms' parts on p_t as well: ∂log π_l/∂p_t = (l - Σ_j π_t,j·j)
 * / σ² and ∂H/∂p_t = Σ_j ∂H/∂z_j·(j - p_t)/σ². */
static void hard_gradient(struct trace *tr, int run, int t, const double *q,
			  const double *a, const double *Hs, int l,
			  const double *lp, double b0, int pi)
{
	const struct model *m = tr->m;
	struct trace_run *ru = &tr->runs[run];
	int n = tr->n, H = m->H;
	int y = t <= tr->ntgt ? tr->tgt[t - 1] : m->eos;
	const struct trace_rec *gs = pi ? hard_gauss(tr, run, t) : NULL;
	double *v = trace_alloc(tr, 4 + 3 * (size_t)n + (size_t)H + 2);
	double *R = v, *b = v + 1, *adv = v + 2, *ent = v + 3;
	double *sf = v + 4, *de = sf + n, *g = de + n, *dc = g + n;
	double *sfp = dc + H, *dep = sfp + 1; /* TRACE_MAX_OPS: no sum */
	double *work = trace_alloc(tr, ARCH_LOGP_WORK(m));
	*R = lp[l];
	*b = b0;
	*adv = *R - *b;
	double h = 0;
	for (int j = 0; j < n; j++)
		if (a[j] > 0)
			h -= a[j] * log(a[j]);
	*ent = h;
	for (int j = 0; j < n; j++) {
		sf[j] = HARD_LAMBDA_R * *adv * ((j == l) - a[j]);
		de[j] = a[j] > 0 ? HARD_LAMBDA_E * -a[j] * (log(a[j]) + h) : 0;
		g[j] = sf[j] + de[j];
	}
	if (gs) { /* z_j = e_j - (j - p_t)²/(2σ²): ∂z_j/∂p_t = (j - p_t)/σ² */
		double p = gs->ops[2].v[0];
		double s2 = gs->ops[3].v[0] * gs->ops[3].v[0];
		double mean = 0, dh = 0;
		for (int j = 0; j < n; j++) {
			mean += a[j] * (j + 1);
			dh += de[j] * (j + 1 - p);
		}
		*sfp = HARD_LAMBDA_R * *adv * (l + 1 - mean) / s2;
		*dep = dh / s2;
	}
	arch_get(tr->arch)->log_prob(m, Hs + (size_t)l * H, q,
				     ru->input[t - 1], y, work, dc);

	struct trace_rec *r = trace_rec_new(tr, REC_GRADIENT,
					    STAGE_WEIGHTED_SUM, run, t, 0);
	trace_rec_op(r, OP_INPUT, pi ? "π_{t}" : "α_{t}", NULL, a, n, 1);
	trace_rec_op(r, OP_MID, "R = log P(y_{t} | l)", "R", R, 1, 1)->scalar = 1;
	trace_rec_op(r, OP_MID, "R̄", "baseline", b, 1, 1)->scalar = 1;
	trace_rec_op(r, OP_MID, "R - R̄", "advantage", adv, 1, 1)->scalar = 1;
	trace_rec_op(r, OP_MID, pi ? "λ_r·(R - R̄)·(onehot_l - π_{t})"
				   : "λ_r·(R - R̄)·(onehot_l - α_{t})",
		     "score_function", sf, n, 1);
	trace_rec_op(r, OP_MID, pi ? "entropy(π_{t})" : "entropy(α_{t})", "entropy", ent,
		     1, 1)->scalar = 1;
	trace_rec_op(r, OP_MID, "λ_e·∂entropy/∂e_{t}", "entropy_term", de, n, 1);
	trace_rec_op(r, OP_MID, "∂R/∂c_{t} (backpropagated into h_l)",
		     "backprop", dc, H, 1);
	if (gs) {
		trace_rec_op(r, OP_MID, "λ_r·(R - R̄)·(l - Σ_j π_{t},j·j)/σ²",
			     "score_function_p", sfp, 1, 1)->scalar = 1;
		trace_rec_op(r, OP_MID, "λ_e·∂entropy/∂p_{t}", "entropy_term_p", dep,
			     1, 1)->scalar = 1;
	}
	r->ops[0].axis = r->ops[4].axis = r->ops[6].axis = AXIS_SOURCE;
	r->word = y;
	r->title = N_("the learning signal on the scores");
	r->symbol = "g_{t}";
	r->formula = "score-function term + entropy term";
	r->result = g;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
}

/* --samples=N: N draws from the run's Monte Carlo stream, the estimates
 * of ∂E_α[log p(y_t | l)]/∂e from them with and without the baseline R̄
 * of this step, and the exact gradient α_j·(log p_j - E_α[log p]); α_t
 * is π_t when pi is set. */
static void hard_samples(struct trace *tr, int run, int t, const double *a,
			 const double *cum, const double *lp, double b, int pi)
{
	struct trace_run *ru = &tr->runs[run];
	int n = tr->n, N = tr->cfg.hard_samples;
	double *us = trace_alloc(tr, 2 * (size_t)N), *ls = us + N;
	double *v = trace_alloc(tr, 3 * (size_t)n + 2);
	double *ex = v, *mc = v + n, *mcb = mc + n, *var = mcb + n;
	double *varb = var + 1;
	double *sq = trace_alloc(tr, 2 * (size_t)n), *sqb = sq + n;
	if (t == 1)
		ru->mc_rng = ~tr->cfg.seed;
	double mean = 0;
	for (int j = 0; j < n; j++)
		mean += a[j] * lp[j];
	for (int j = 0; j < n; j++)
		ex[j] = a[j] * (lp[j] - mean);
	for (int k = 0; k < N; k++) {
		us[k] = hard_unit(hard_splitmix64(&ru->mc_rng));
		int l = hard_pick(us[k], cum, a, n);
		ls[k] = l + 1;
		for (int j = 0; j < n; j++) {
			double d = (j == l) - a[j];
			double g0 = lp[l] * d, g1 = (lp[l] - b) * d;
			mc[j] += g0;
			mcb[j] += g1;
		}
	}
	for (int j = 0; j < n; j++) {
		mc[j] /= N;
		mcb[j] /= N;
	}
	/* the variance of one sample's estimate, summed over the
	 * coordinates: the mean squared distance from the estimate, in a
	 * second pass over the draws (never below 0, as E[g²] - E[g]² can be
	 * by rounding) */
	for (int k = 0; k < N; k++) {
		int l = (int)ls[k] - 1;
		for (int j = 0; j < n; j++) {
			double d = (j == l) - a[j];
			double g0 = lp[l] * d - mc[j], g1 = (lp[l] - b) * d - mcb[j];
			sq[j] += g0 * g0;
			sqb[j] += g1 * g1;
		}
	}
	*var = *varb = 0;
	for (int j = 0; j < n; j++) {
		*var += sq[j] / N;
		*varb += sqb[j] / N;
	}
	struct trace_rec *r = trace_rec_new(tr, REC_SAMPLES, STAGE_WEIGHTED_SUM,
					    run, t, 0);
	trace_rec_op(r, OP_MID, "u (Monte Carlo)", "u", us, N, 1);
	trace_rec_op(r, OP_MID, "l (Monte Carlo)", "l", ls, N, 1);
	trace_rec_op(r, OP_MID, pi ? "exact ∂E_π[log P]/∂e_{t}"
				   : "exact ∂E_α[log P]/∂e_{t}", "exact", ex, n,
		     1);
	trace_rec_op(r, OP_MID, "estimate, no baseline", "estimate", mc, n,
		     1);
	trace_rec_op(r, OP_MID, "estimate, with R̄", "estimate_baseline", mcb,
		     n, 1);
	trace_rec_op(r, OP_MID, "variance, no baseline", "variance", var, 1,
		     1)->scalar = 1;
	trace_rec_op(r, OP_MID, "variance, with R̄", "variance_baseline",
		     varb, 1, 1)->scalar = 1;
	r->ops[2].axis = r->ops[3].axis = r->ops[4].axis = AXIS_SOURCE;
	r->title = N_("Monte Carlo");
	r->symbol = "ĝ_{t}";
	r->formula = pi ? "(1/N) Σ_m (R_m - R̄)·(onehot_l_m - π_{t})"
			: "(1/N) Σ_m (R_m - R̄)·(onehot_l_m - α_{t})";
	r->result = mcb;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
}

/* The exact view of a teacher-forced step: log p(y_t | l) for every l
 * (the architecture's log_prob with c = h_l), their expectation under α,
 * the log of the mixture Σ_l α_l p(y_t | l), and the gap between them;
 * α_t is π_t when pi is set. */
static const double *hard_exact(struct trace *tr, int run, int t,
				const double *q, const double *a,
				const double *Hs, int pi)
{
	const struct model *m = tr->m;
	const struct arch_class *arch = arch_get(tr->arch);
	int n = tr->n, H = m->H;
	int word = tr->runs[run].input[t - 1];
	int y = t <= tr->ntgt ? tr->tgt[t - 1] : m->eos;
	double *lp = trace_alloc(tr, (size_t)n + 3);
	double *ex = lp + n, *lm = ex + 1, *gap = lm + 1;
	double *work = trace_alloc(tr, ARCH_LOGP_WORK(m));
	for (int l = 0; l < n; l++)
		lp[l] = arch->log_prob(m, Hs + (size_t)l * H, q, word, y, work,
				       NULL);
	/* E_α[log p], summed in index order over the words with a weight */
	double e = 0, top = -HUGE_VAL, sum = 0;
	for (int l = 0; l < n; l++)
		if (a[l] > 0) {
			e += a[l] * lp[l];
			if (log(a[l]) + lp[l] > top)
				top = log(a[l]) + lp[l];
		}
	/* log Σ α_l p_l = top + log Σ exp(log α_l + log p_l - top) */
	for (int l = 0; l < n; l++)
		if (a[l] > 0)
			sum += exp(log(a[l]) + lp[l] - top);
	*ex = e;
	*lm = top + log(sum);
	*gap = *lm - *ex;

	struct trace_rec *r = trace_rec_new(tr, REC_EXACT, STAGE_WEIGHTED_SUM,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, pi ? "π_{t}" : "α_{t}", NULL, a, n, 1);
	trace_rec_op(r, OP_MID, "log P(y_{t} | l)", "log_p", lp, n, 1);
	trace_rec_op(r, OP_MID, pi ? "E_π[log P(y_{t} | l)]"
				   : "E_α[log P(y_{t} | l)]", "expected", ex, 1,
		     1);
	trace_rec_op(r, OP_MID, pi ? "log Σ_l π_{t},l·P(y_{t} | l)"
				   : "log Σ_l α_{t},l·P(y_{t} | l)",
		     "log_marginal", lm, 1, 1);
	r->ops[0].axis = r->ops[1].axis = AXIS_SOURCE;
	r->word = y;
	r->title = !trace_steps_chained(tr) ? N_("the Jensen gap")
		: arch_get(tr->arch)->chained_title;
	r->symbol = "gap_{t}";
	r->formula = pi ? "log Σ_l π·P - E_π[log P]"
			: "log Σ_l α·P - E_α[log P]";
	r->result = gap;
	r->len = 1;
	return lp;
}

static const double *hard_context(struct trace *tr, int run, int t,
				  const double *q, const double *a,
				  const double *Hs)
{
	int n = tr->n, H = tr->m->H;
	struct trace_run *ru = &tr->runs[run];
	const double *soft = trace_context(tr, run, t, a, Hs);
	struct trace_rec *sr = &tr->recs[tr->nrecs - 1];
	sr->title = N_("the soft context");
	sr->symbol = "c^soft_{t}";

	/* the distribution l is drawn from: the weights themselves, or, if
	 * the window's need not sum to 1, π = a / Σ a */
	int pi = window_get(tr->cfg.window)->unnormalised;
	const double *d = a;
	double *sum = NULL;
	if (pi) {
		double *w = trace_alloc(tr, (size_t)n + 1);
		sum = w + n;
		for (int j = 0; j < n; j++)
			*sum += a[j];
		for (int j = 0; j < n; j++)
			w[j] = a[j] / *sum;
		d = w;
	}
	double *cum = trace_alloc(tr, (size_t)n + 1), *u = cum + n;
	double acc = 0;
	for (int j = 0; j < n; j++)
		cum[j] = acc += d[j];
	int l; /* from 0 */
	int sample = tr->cfg.hard_rule == 0;
	if (sample) {
		if (t == 1)
			ru->rng = tr->cfg.seed;
		*u = hard_unit(hard_splitmix64(&ru->rng));
		/* rounding may leave cumsum_n at or below u: then the
		 * last word with a weight */
		l = hard_pick(*u, cum, d, n);
	} else {
		l = attn_argmax(a, n); /* the argmax of a is π's */
	}
	double *c = trace_alloc(tr, (size_t)H);
	for (int k = 0; k < H; k++)
		c[k] = Hs[(size_t)l * H + k];

	struct trace_rec *r = trace_rec_new(tr, REC_SAMPLE, STAGE_WEIGHTED_SUM,
					    run, t, l + 1);
	trace_rec_op(r, OP_INPUT, pi ? "a_{t}" : "α_{t}", NULL, a, n, 1);
	if (pi) {
		trace_rec_op(r, OP_MID, sample
			     ? "Σ_j a_{t},j (below 1: l is drawn from π_{t})"
			     : "Σ_j a_{t},j (below 1: π_{t} rescales a_{t})",
			     "sum", sum, 1, 1);
		trace_rec_op(r, OP_MID, "π_{t} = a_{t} / Σ_j a_{t},j", "pi", d,
			     n, 1);
		r->ops[2].axis = AXIS_SOURCE;
	}
	trace_rec_op(r, OP_MID, "cumsum_{t}", "cumsum", cum, n, 1);
	trace_rec_op(r, OP_INPUT, "c^soft_{t}", NULL, soft, H, 1);
	if (sample)
		trace_rec_op(r, OP_MID, "u_{t}", "u", u, 1, 1);
	r->ops[0].axis = r->ops[pi ? 3 : 1].axis = AXIS_SOURCE;
	r->title = N_("the hard context");
	r->symbol = "c_{t}";
	r->formula = sample ? "h_{i}, l = the first j with u_{t} < cumsum_{t},j"
		     : pi ? "h_{i}, l = the first j with the largest π_{t},j"
			  : "h_{i}, l = the first j with the largest α_{t},j";
	r->result = c;
	r->len = H;
	if (tr->ntgt) {
		const double *lp = hard_exact(tr, run, t, q, d, Hs, pi);
		/* the baseline: 0 before the run's first step, then
		 * R̄ ← 0.9·R̄ + 0.1·R after each */
		if (t == 1)
			ru->baseline = 0;
		double b = ru->baseline;
		ru->baseline = HARD_DECAY * b + (1 - HARD_DECAY) * lp[l];
		if (tr->cfg.hard_gradient)
			hard_gradient(tr, run, t, q, d, Hs, l, lp, b, pi);
		if (tr->cfg.hard_samples > 0)
			hard_samples(tr, run, t, d, cum, lp, b, pi);
	}
	return c;
}

/* ---------------------------------------------- training (REINFORCE) */

/* train --hard (doc/model.md "Learning it"): at each teacher-forced step
 * l is drawn from α_t (π_t under an unnormalised window) with one u of
 * w->hard_rng, the context is h_l, the loss is -R = -log p(y_t | l), and
 * the scores get minus scale times the score-function and entropy terms
 * (train_hard_score_grad) with the baseline w->hard_b[sc], updated after
 * each step, with or without a gradient, so that a pass that only
 * measures draws the same way. */

void train_hard_start(struct train_work *w, uint64_t seed)
{
	w->selection = SELECTION_hard;
	w->hard_rng = seed;
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		w->hard_b[sc] = 0.0;
	w->hard_lambda_r = TRAIN_HARD_LAMBDA_R;
	w->hard_lambda_e = TRAIN_HARD_LAMBDA_E;
}

void train_hard_score_grad(double *out, const double *alpha, int n, int l,
			   double R, double b, double lambda_r,
			   double lambda_e)
{
	double H = 0.0;

	/* each log α_j once, kept in out_j until out_j is made */
	for (int j = 0; j < n; j++)
		if (alpha[j] > 0.0) {
			out[j] = log(alpha[j]);
			H -= alpha[j] * out[j];
		}
	for (int j = 0; j < n; j++) {
		double lg = alpha[j] > 0.0 ? out[j] : 0.0;
		out[j] = lambda_r * (R - b) * ((j == l) - alpha[j]);
		if (alpha[j] > 0.0)
			out[j] -= lambda_e * alpha[j] * (lg + H);
	}
}

/* The distribution a step draws from: the weights alpha (n), or, under
 * a window whose weights do not sum to 1, π_t = a_t / Σ_j a_t,j (into
 * w->hard_pi), summed and divided in index order as hard_context does. */
static const double *hard_train_dist(const double *alpha, int n,
				     struct train_work *w)
{
	double sum = 0.0;

	if (!window_get(w->window)->unnormalised)
		return alpha;
	for (int j = 0; j < n; j++)
		sum += alpha[j];
	for (int j = 0; j < n; j++)
		w->hard_pi[j] = alpha[j] / sum;
	return w->hard_pi;
}

/* c = h_l, l drawn from the distribution of α_t by hard_context's rule,
 * with the next u of w->hard_rng; l is kept in w->hard_l[t].  The
 * cumulative sums go through w->dalpha, free in a forward pass. */
static void hard_train_context(double *c, const double *alpha, int n,
			       int t, struct train_work *w)
{
	const double *d = hard_train_dist(alpha, n, w);
	double *cum = w->dalpha, acc = 0.0;
	int l;

	for (int j = 0; j < n; j++)
		cum[j] = acc += d[j];
	l = hard_pick(hard_unit(train_rand_next(&w->hard_rng)), cum, d, n);
	w->hard_l[t] = l;
	memcpy(c, w->h + (size_t)(l + 1) * w->H, sizeof *c * (size_t)w->H);
}

/* A = R - b of a draw; with the test hook w->hard_fix, recorded there,
 * or replayed from it (train.h). */
static double hard_train_adv(struct train_work *w, double R, double b)
{
	double adv = R - b;

	if (w->hard_fix && w->hard_nfix < w->hard_fix_cap) {
		if (w->hard_fix_replay)
			adv = w->hard_fix[w->hard_nfix];
		else
			w->hard_fix[w->hard_nfix] = adv;
		w->hard_nfix++;
	}
	return adv;
}

/* The test hook's share of the loss of one step: the surrogate
 * -(λ_r A log π_l + λ_e H(π)), whose gradient on the scores is minus
 * train_hard_score_grad's; 0 without w->hard_fix. */
static double hard_train_surrogate(const struct train_work *w,
				   const double *pi, int n, int l,
				   double adv)
{
	double H = 0.0;

	if (!w->hard_fix)
		return 0.0;
	for (int j = 0; j < n; j++)
		if (pi[j] > 0.0)
			H -= pi[j] * log(pi[j]);
	return -(w->hard_lambda_r * adv * log(pi[l]) +
		 w->hard_lambda_e * H);
}

/* A_t = R - b kept in w->hard_adv[t], then b <- 0.9 b + 0.1 R. */
static double hard_train_reward(struct train_work *w, const double *alpha,
				int n, int t, int sc, double R)
{
	const double b = w->hard_b[sc];
	double loss;

	w->hard_adv[t] = hard_train_adv(w, R, b);
	loss = hard_train_surrogate(w, hard_train_dist(alpha, n, w), n,
				    w->hard_l[t], w->hard_adv[t]);
	w->hard_b[sc] = TRAIN_HARD_DECAY * b + (1.0 - TRAIN_HARD_DECAY) * R;
	return loss;
}

/* c_t = h_l: dL/dh_l += dc, and nothing reaches α_t this way. */
static void hard_train_context_back(const double *dc, const double *alpha,
				    const double *dalpha_in, int n, int t,
				    struct train_work *w)
{
	double *dh = w->dh + (size_t)(w->hard_l[t] + 1) * w->H;

	(void)alpha;
	(void)dalpha_in;
	(void)n;
	for (int k = 0; k < w->H; k++)
		dh[k] += dc[k];
}

/* dL/de_t: dalpha_in (dL/dα_t that the next step's scorer sent back; NULL:
 * none) back through the window, minus scale times the score-function and
 * entropy terms (an ascent direction).  Under an unnormalised window (alpha
 * is a_t, the step's window state in w) the draw was from π_t = softmax
 * over the window of z, so the terms are on z, with π_t for α_t, and the
 * window sends them on to its own weights (window_class.train_draw_back). */
static void hard_train_scores_back(struct model *g, const struct model *m,
				   const double *q, double *dq,
				   const double *alpha,
				   const double *dalpha_in, int n, int t,
				   double scale, struct train_work *w)
{
	const struct window_class *wc = window_get(w->window);

	if (dalpha_in) {
		memcpy(w->dalpha, dalpha_in, sizeof *w->dalpha * (size_t)n);
		wc->train_back(g, m, q, dq, alpha, n, w);
	} else {
		memset(w->e, 0, sizeof *w->e * (size_t)n);
	}
	train_hard_score_grad(w->dalpha, hard_train_dist(alpha, n, w), n,
			      w->hard_l[t], w->hard_adv[t], 0.0,
			      w->hard_lambda_r, w->hard_lambda_e);
	for (int j = 0; j < n; j++)
		w->e[j] -= scale * w->dalpha[j];
	if (wc->train_draw_back)
		wc->train_draw_back(g, m, q, dq, w->dalpha, scale, n, w);
}

/* ------------------------------------------------------- its option */

/* --hard[=RULE], a lesson's "hard: RULE": how l is chosen */
static const char *const hard_rules[] = { "sample", "argmax", NULL };

static void hard_set(struct trace_cfg *cfg, int k)
{
	cfg->hard_rule = k;
}

static void hard_json(struct fmt_buf *b, const struct trace_cfg *cfg)
{
	fmt_buf_printf(b, " \"hard_rule\": \"%s\", \"seed\": %llu,",
		       hard_rules[cfg->hard_rule], cfg->seed);
}

const struct selection_class selection_hard = {
	.name = "hard",
	.summary = "the context is the state of one source word, sampled "
		   "from the weights (or their argmax)",
	.context = hard_context,
	.train_context = hard_train_context,
	.train_reward = hard_train_reward,
	.train_context_back = hard_train_context_back,
	.train_scores_back = hard_train_scores_back,
	.train_serial = 1,
	.option = "hard",
	.values = hard_rules,
	.value_noun = "rule",
	.set = hard_set,
	.draws = 1,
	.json = hard_json,
	.train_start = train_hard_start,
	.train_value = 0,
	.train_value_why = "the draws REINFORCE learns from",
	.greedy = 1,
	.train_note = "Hard attention (--hard): each step draws one source "
		      "word l;\nthe scores learn by REINFORCE "
		      "(doc/training.md).",
};
