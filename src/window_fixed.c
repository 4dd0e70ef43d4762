/* window_fixed.c: no attention, the baseline.  Every decoder step's
 * context is the encoder's last state h_n, the same at every step: the
 * fixed context of the classic encoder-decoder (Cho et al. 2014's RNN
 * Encoder-Decoder conditions every step on one summary vector c = h_n;
 * Sutskever et al. 2014 start the decoder from it).
 *
 *   α_t = (0, ..., 0, 1): weight 1 on h_n, 0 elsewhere, so c_t = h_n
 *
 * It is the window of the one position n: its weight is the softmax of
 * the one score e_t,n, exp(0) / exp(0) = 1 whatever the score, so the
 * scorer's scores are computed and recorded but change nothing, and
 * their gradient is exactly 0.  The rest of the step (the concatenation,
 * h̃_t, the output) is that of the architecture, unchanged, so that the
 * baseline and attention differ in the context alone. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "train.h"
#include "window.h"

/* Records the window of step t: p_t = n, positions n .. n, D = 0. */
static void fixed_record(struct trace *tr, int run, int t)
{
	double *v = trace_alloc(tr, 5), *p = v, *bounds = v + 1;
	double *pos = v + 4;
	*p = tr->n;
	bounds[0] = bounds[1] = tr->n;
	bounds[2] = 0; /* D */
	*pos = tr->n;
	struct trace_rec *r = trace_rec_new(tr, REC_WINDOW, STAGE_SOFTMAX,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, "p_{t}", "p", p, 1, 1);
	trace_rec_op(r, OP_MID, "window", "window", bounds, 2, 1);
	trace_rec_op(r, OP_INPUT, "D", NULL, bounds + 2, 1, 1);
	r->title = N_("the window");
	r->symbol = "window_{t}";
	r->ops[2].id = "D";
	r->formula = "{#p} .. {#p}";
	r->note = N_("p_{t} = n = {n}: the last source word, at every step, "
		  "whatever the scores (no attention)");
	r->note_op = -1; /* the note says p_t's value */
	r->result = pos;
	r->len = 1;
}

static const double *fixed_weights(struct trace *tr, int run, int t,
				   const double *q, const double *e)
{
	(void)q;
	fixed_record(tr, run, t);
	const double *alpha = window_local_softmax(tr, run, t, e, tr->n,
						   tr->n, "α_{t}");
	tr->recs[tr->nrecs - 1].formula =
		"1 at i = {n} (the softmax of e_{t},{n} alone: exp(0) / exp(0), "
		"whatever the score), 0 elsewhere";
	return alpha;
}

/* Training's weights: the same softmax over position n alone. */
static void fixed_train_weights(const struct model *m, const double *q,
				int t, int n, struct train_work *w)
{
	(void)m;
	(void)q;
	(void)t;
	w->wlo = w->whi = n;
	memset(w->alpha, 0, sizeof *w->alpha * (size_t)n);
	train_softmax_weights(w->alpha + n - 1, w->e + n - 1, 1);
}

/* window_class.narrate: the scores are computed and unused, the weight
 * is on h_n, the context is h_n, at every step. */
static int fixed_narrate(FILE *f, const struct trace *tr, int run,
			 enum trace_stage stage, int t, int prec)
{
	const char *last = tr->m->src.words[tr->src[tr->n - 1]];
	const int sc = tr->runs[run].scorer;
	(void)prec;
	switch (stage) {
	case STAGE_SCORING:
		/* TRANSLATORS: %1$s the scorer's name, %2$d the step t,
		 * %3$s its formula and prose, %4$d the source's length */
		fprintf(f, _("The %1$s scorer computes e_%2$d,i = %3$s for "
			     "every encoder state, as it would for attention. "
			     "Nothing uses them: under the fixed window there "
			     "is no attention, and the context will be h_%4$d "
			     "whatever the scores are."), trace_scorer_name(sc), t,
			_(scorer_get(sc)->prose), tr->n);
		return 1;
	case STAGE_SOFTMAX:
		/* TRANSLATORS: %1$d the source's length n, %2$s its last
		 * word, %3$d the step t */
		fprintf(f, _("No attention: the fixed window gives h_%1$d, "
			     "the state of the last source word \"%2$s\", the "
			     "weight 1 and every other word 0, at every step. "
			     "(It is the softmax of the one score e_%3$d,%1$d: "
			     "exp(0) / exp(0) = 1, whatever the score.)"), tr->n,
			last, t);
		return 1;
	case STAGE_WEIGHTED_SUM:
		fprintf(f, _("The context vector c_%d is h_%d, the "
			     "encoder's last state, the same at every step: "
			     "the whole sentence squeezed into one vector of %d "
			     "numbers, as in the encoder-decoder without "
			     "attention (Cho et al. 2014). Attention would let "
			     "each step look back at every word instead."), t,
			tr->n, tr->m->H);
		return 1;
	default:
		return 0;
	}
}

const struct window_class window_fixed = {
	.name = "fixed",
	.summary = N_("no attention: every step's context is h_n, the last "
		      "encoder state, whatever the scores"),
	.weights = fixed_weights,
	.sizeless = 1,
	.narrate = fixed_narrate,
	.heatmap_note = N_("fixed window, no attention: all weight on h_{n}, "
			   "the last word"),
	.diagram_note = N_("step {t}: no attention: c_{t} = h_{n} at every "
			   "step"),
	.no_alignment = N_("its weight is on h_n at every step, whatever the "
			   "scores, so it aligns no word"),
	.train_weights = fixed_train_weights,
	.train_back = window_train_softmax_back,
};
