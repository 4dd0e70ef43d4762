/* arch_luong.c: Luong et al. (2015)'s decoder step, global attention.
 *
 *   s_t = tanh(W_x·y_{t-1} + W_h·s_{t-1} + b)     the RNN first
 *   e_t,i = score(s_t, h_i)                        then attention, with
 *   α_t = softmax(e_t),  c_t = Σ_i α_t,i·h_i       the new state as query
 *   h̃_t = tanh(W_c·[c_t; s_t])
 *   ŷ_t = softmax(W_s·h̃_t)
 *
 * With input feeding (the model's line "input-feeding yes", §3.3) the
 * RNN reads [y_{t-1}; h̃_{t-1}] instead of y_{t-1}, h̃_0 = 0, and its W_x
 * is (H, E + H):
 *
 *   s_t = tanh(W_x·[y_{t-1}; h̃_{t-1}] + W_h·s_{t-1} + b)
 *
 * The step program records exactly these, in this order. */
#include "config.h"

#include <math.h>

#include "arch.h"
#include "attn.h"

#include <string.h>

static const struct rec_names luong_rnn_names = {
	"s_{t}", "tanh(W_x·y_{t-1} + W_h·s_{t-1} + b)",
	{ "W_x·y_{t-1}", "W_h·s_{t-1}", "b", "sum", "s_{t-1}" }
};

static const struct rec_names luong_feed_names = {
	"s_{t}", "tanh(W_x·[y_{t-1}; h̃_{t-1}] + W_h·s_{t-1} + b)",
	{ "W_x·[y_{t-1}; h̃_{t-1}]", "W_h·s_{t-1}", "b", "sum", "s_{t-1}" }
};

/* Step 1 with input feeding: the RNN reads [y_{t-1}; h̃_{t-1}], h̃_{t-1}
 * being the attentional state of the run's step t - 1 (h̃_0 = 0); the
 * record carries h̃_{t-1} as an operand (JSON "feed") too. */
static void luong_feed_rnn(struct trace *tr, int run, int t, const double *y,
			   const double *prev, double *s)
{
	const struct model *m = tr->m;
	const int E = m->E, H = m->H;
	const struct trace_rec *before = NULL;
	/* the run is still being recorded: look back from the last record */
	for (int k = tr->nrecs - 1; t > 1 && k >= 0 && !before; k--)
		if (tr->recs[k].kind == REC_ATTENTIONAL &&
		    tr->recs[k].run == run && tr->recs[k].t == t - 1)
			before = &tr->recs[k];
	double *feed = trace_alloc(tr, (size_t)H);
	double *x = trace_alloc(tr, (size_t)(E + H));
	if (before)
		memcpy(feed, before->result, sizeof *feed * (size_t)H);
	attn_concat(x, y, E, feed, H);
	trace_rnn_sized(tr, REC_RNN, &m->dec, x, prev, s, E + H, H, run, t, 0,
			&luong_feed_names);
	struct trace_rec *r = &tr->recs[tr->nrecs - 1];
	trace_rec_op(r, OP_INPUT, "h̃_{t-1}", "feed", feed, H, 1);
}

/* step 5: [c_t; s_t], h̃_t and ŷ_t.  Returns the predicted word. */
static int luong_output(struct trace *tr, int run, int t, const double *c,
			const double *s)
{
	const struct model *m = tr->m;
	int H = m->H, V = m->tgt.n;
	double *cs = trace_alloc(tr, 2 * (size_t)H);
	attn_concat(cs, c, H, s, H);
	struct trace_rec *r = trace_rec_new(tr, REC_CONCAT, STAGE_CONCAT,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, "c_{t}", NULL, c, H, 1);
	trace_rec_op(r, OP_INPUT, "s_{t}", NULL, s, H, 1);
	r->symbol = "[c_{t}; s_{t}]";
	r->formula = "c_{t} then s_{t}";
	r->result = cs;
	r->len = 2 * H;

	double *pre = trace_alloc(tr, (size_t)H);
	double *ht = trace_alloc(tr, (size_t)H);
	attn_matvec(pre, m->Wc, cs, H, 2 * H);
	attn_tanh(ht, pre, H);
	r = trace_rec_new(tr, REC_ATTENTIONAL, STAGE_CONCAT, run, t, 0);
	trace_rec_op(r, OP_MID, "W_c·[c_{t}; s_{t}]", "W_c_concat", pre, H,
		     1);
	r->symbol = "h̃_{t}";
	r->formula = "tanh(W_c·[c_{t}; s_{t}])";
	r->result = ht;
	r->len = H;

	double *logits = trace_alloc(tr, (size_t)V);
	double *p = trace_alloc(tr, (size_t)V);
	double *shifted = trace_alloc(tr, (size_t)V);
	double *ex = trace_alloc(tr, (size_t)V);
	double sum;
	attn_matvec(logits, m->Ws, ht, V, H);
	attn_softmax(p, shifted, ex, &sum, logits, V);
	r = trace_rec_new(tr, REC_OUTPUT, STAGE_OUTPUT, run, t, 0);
	trace_rec_op(r, OP_MID, "W_s·h̃_{t}", NULL, logits, V, 1);
	r->symbol = "ŷ_{t}";
	r->formula = "softmax(W_s·h̃_{t})";
	r->result = p;
	r->len = V;
	r->ops[0].axis = r->result_axis = AXIS_VOCAB;
	r->word = attn_argmax(p, V);
	return r->word;
}

static int luong_step(struct trace *tr, int run, int t, int word,
		      const double *prev, double *s, const double *Hs,
		      const struct score_in *in, struct score_ws *ws)
{
	const struct model *m = tr->m;
	/* step 1: the decoder reads y_{t-1} and updates its state */
	const double *y = trace_embed(tr, &m->tgt, word, run, t, 0);
	if (m->input_feeding)
		luong_feed_rnn(tr, run, t, y, prev, s);
	else
		trace_rnn(tr, &m->dec, y, prev, s, run, t, 0, &luong_rnn_names);
	if (t == 1) { /* where the decoder starts */
		struct trace_rec *r = &tr->recs[tr->nrecs - 1];
		r->note = m->input_feeding ? "s_0 = h_{n}, the last encoder "
					     "state, and h̃_0 = 0"
					   : "s_0 = h_{n}, the last encoder state";
		r->note_op = 4;
	}
	/* steps 2-4: score s_t against every h_i, the weights (the
	 * softmax), the context vector */
	const double *c = trace_attend(tr, run, t, s, Hs, in, ws);
	/* step 5: the attentional state and the output */
	return luong_output(tr, run, t, c, s);
}

/* s_0 = h_n: the decoder starts where the encoder stopped */
static const double *luong_start(struct trace *tr, const double *Hs)
{
	return Hs + (size_t)(tr->n - 1) * tr->m->H;
}

/* log p(y | c) = log softmax(W_s·tanh(W_c·[c; s_t]))[y] */
static double luong_log_prob(const struct model *m, const double *c,
			     const double *s, int word, int y, double *work,
			     double *dc)
{
	int H = m->H, V = m->tgt.n;
	double *cs = work, *ht = cs + 2 * H, *logits = ht + H;
	(void)word;
	attn_concat(cs, c, H, s, H);
	attn_matvec(ht, m->Wc, cs, H, 2 * H);
	attn_tanh(ht, ht, H);
	attn_matvec(logits, m->Ws, ht, V, H);
	double lp = arch_log_softmax_at(logits, V, y);
	if (dc) {
		/* ∂/∂logits = onehot_y - ŷ; back through W_s, tanh, W_c's
		 * first H columns */
		double *dpre = cs, *dl = logits + V; /* cs is done with */
		for (int k = 0; k < V; k++)
			dl[k] = (k == y) - exp(arch_log_softmax_at(logits, V,
								   k));
		for (int i = 0; i < H; i++) {
			double g = 0;
			for (int k = 0; k < V; k++)
				g += m->Ws[(size_t)k * H + i] * dl[k];
			dpre[i] = g * (1 - ht[i] * ht[i]);
		}
		for (int j = 0; j < H; j++) {
			double g = 0;
			for (int i = 0; i < H; i++)
				g += m->Wc[(size_t)i * 2 * H + j] * dpre[i];
			dc[j] = g;
		}
	}
	return lp;
}

const struct arch_class arch_luong = {
	.name = "luong",
	.summary = "the RNN steps first, then attention with s_t as the query",
	.query_off = 0,
	.encode = trace_encode_rnn,
	.start = luong_start,
	.step = luong_step,
	.log_prob = luong_log_prob,
};
