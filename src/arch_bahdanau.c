/* arch_bahdanau.c: Bahdanau et al. (2015)'s architecture.
 *
 *   →h_i = tanh(W_x^f·x_i + W_h^f·→h_{i-1} + b^f)   a bidirectional
 *   ←h_i = tanh(W_x^b·x_i + W_h^b·←h_{i+1} + b^b)   encoder, H/2 units a
 *   h_i = [→h_i; ←h_i]                              direction
 *   s_0 = tanh(W_init·←h_1)
 *
 * and each decoder step, attention first, with the previous state as the
 * query, and the context fed to the RNN:
 *
 *   e_t,i = score(s_{t-1}, h_i)
 *   α_t = softmax(e_t),  c_t = Σ_i α_t,i·h_i
 *   s_t = tanh(W_y·y_{t-1} + U·s_{t-1} + C·c_t + b)
 *   ŷ_t = softmax(W_o·[s_t; c_t; y_{t-1}])
 *
 * The decoder cell is the paper's GRU with both gates fixed open, and the
 * readout is linear where the paper's is a maxout layer.  The step
 * program records exactly these, in this order. */
#include "config.h"

#include <math.h>

#include "arch.h"
#include "attn.h"

/* s_0 = tanh(W_init·←h_1): ←h_1 is the second half of h_1, the backward
 * RNN's last state (it has read the whole sentence) */
static const double *bahdanau_start(struct trace *tr, const double *Hs)
{
	const struct model *m = tr->m;
	const int H = m->H, D = m->H / 2;
	const double *b1 = Hs + D;
	double *pre = trace_alloc(tr, (size_t)H);
	double *s0 = trace_alloc(tr, (size_t)H);

	attn_matvec(pre, m->Winit, b1, H, D);
	attn_tanh(s0, pre, H);
	struct trace_rec *r = trace_rec_new(tr, REC_INIT, STAGE_ENCODING,
					    -1, 0, 0);
	trace_rec_op(r, OP_MID, "W_init·←h_1", "W_init_h", pre, H, 1);
	trace_rec_op(r, OP_INPUT, "←h_1", NULL, b1, D, 1);
	r->title = "the decoder's first state";
	r->symbol = "s_0";
	r->formula = "tanh(W_init·←h_1)";
	r->result = s0;
	r->len = H;
	return s0;
}

/* step 4: s_t = tanh(W_y·y_{t-1} + U·s_{t-1} + C·c_t + b) into s */
static void bahdanau_rnn(struct trace *tr, int run, int t, const double *y,
			 const double *prev, const double *c, double *s)
{
	const struct model *m = tr->m;
	const int E = m->E, H = m->H;
	double *wy = trace_alloc(tr, (size_t)H);
	double *ws = trace_alloc(tr, (size_t)H);
	double *wc = trace_alloc(tr, (size_t)H);
	double *pre = trace_alloc(tr, (size_t)H);

	attn_matvec(wy, m->dec.Wx, y, H, E);
	attn_matvec(ws, m->dec.Wh, prev, H, H);
	attn_matvec(wc, m->Wcd, c, H, H);
	for (int k = 0; k < H; k++)
		pre[k] = wy[k] + ws[k] + wc[k] + m->dec.b[k];
	attn_tanh(s, pre, H);

	struct trace_rec *r = trace_rec_new(tr, REC_RNN, STAGE_DECODER, run,
					    t, 0);
	trace_rec_op(r, OP_MID, "W_y·y_{t-1}", "W_y_y", wy, H, 1);
	trace_rec_op(r, OP_MID, "U·s_{t-1}", "U_s", ws, H, 1);
	trace_rec_op(r, OP_MID, "C·c_{t}", "C_c", wc, H, 1);
	trace_rec_op(r, OP_WEIGHT, "b", "b", m->dec.b, H, 1);
	trace_rec_op(r, OP_MID, "sum", "pre", pre, H, 1);
	trace_rec_op(r, OP_INPUT, "s_{t-1}", NULL, prev, H, 1);
	trace_rec_op(r, OP_INPUT, "c_{t}", NULL, c, H, 1);
	r->symbol = "s_{t}";
	r->formula = "tanh(W_y·y_{t-1} + U·s_{t-1} + C·c_{t} + b)";
	r->note = "the context c_{t} enters the RNN";
	r->note_op = 6;
	r->result = s;
	r->len = H;
}

/* step 5: [s_t; c_t; y_{t-1}] and ŷ_t.  Returns the predicted word. */
static int bahdanau_output(struct trace *tr, int run, int t,
			   const double *s, const double *c, const double *y)
{
	const struct model *m = tr->m;
	const int E = m->E, H = m->H, V = m->tgt.n, W = 2 * H + E;
	double *scy = trace_alloc(tr, (size_t)W);

	attn_concat(scy, s, H, c, H);
	for (int k = 0; k < E; k++)
		scy[2 * H + k] = y[k];
	struct trace_rec *r = trace_rec_new(tr, REC_CONCAT, STAGE_OUTPUT,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, "s_{t}", NULL, s, H, 1);
	trace_rec_op(r, OP_INPUT, "c_{t}", NULL, c, H, 1);
	trace_rec_op(r, OP_INPUT, "y_{t-1}", NULL, y, E, 1);
	r->symbol = "[s_{t}; c_{t}; y_{t-1}]";
	r->formula = "s_{t}, then c_{t}, then y_{t-1}";
	r->result = scy;
	r->len = W;

	double *logits = trace_alloc(tr, (size_t)V);
	double *p = trace_alloc(tr, (size_t)V);
	double *shifted = trace_alloc(tr, (size_t)V);
	double *ex = trace_alloc(tr, (size_t)V);
	double sum;
	attn_matvec(logits, m->Wo, scy, V, W);
	attn_softmax(p, shifted, ex, &sum, logits, V);
	r = trace_rec_new(tr, REC_OUTPUT, STAGE_OUTPUT, run, t, 0);
	trace_rec_op(r, OP_MID, "W_o·[s_{t}; c_{t}; y_{t-1}]", NULL, logits,
		     V, 1);
	r->symbol = "ŷ_{t}";
	r->formula = "softmax(W_o·[s_{t}; c_{t}; y_{t-1}])";
	r->result = p;
	r->len = V;
	r->ops[0].axis = r->result_axis = AXIS_VOCAB;
	r->word = attn_argmax(p, V);
	return r->word;
}

static int bahdanau_step(struct trace *tr, int run, int t, int word,
			 const double *prev, double *s, const double *Hs,
			 const struct score_in *in, struct score_ws *ws)
{
	const struct model *m = tr->m;
	/* step 1: the query is the state before this step */
	struct trace_rec *r = trace_rec_new(tr, REC_QUERY, STAGE_SCORING, run,
					    t, 0);
	r->title = "the query";
	r->symbol = "s_{t-1}";
	r->formula = t == 1 ? "the decoder's first state, from ←h_1"
			    : "the state that step {t-1} made";
	r->result = prev;
	r->len = m->H;
	/* steps 1-3: score s_{t-1} against every h_i, softmax, context */
	const double *c = trace_attend(tr, run, t, prev, Hs, in, ws);
	/* step 4: the RNN reads y_{t-1} and c_t */
	const double *y = trace_embed(tr, &m->tgt, word, run, t, 0);
	bahdanau_rnn(tr, run, t, y, prev, c, s);
	/* step 5: the output reads s_t, c_t and y_{t-1} */
	return bahdanau_output(tr, run, t, s, c, y);
}

/* log p(y | c) = log softmax(W_o·[s; c; y_{t-1}])[y], where
 * s = tanh(W_y·y_{t-1} + U·s_{t-1} + C·c + b): the context enters
 * the RNN too */
static double bahdanau_log_prob(const struct model *m, const double *c,
				const double *prev, int word, int y,
				double *work, double *dc)
{
	const int E = m->E, H = m->H, V = m->tgt.n, W = 2 * H + E;
	const double *yv = m->tgt.emb + (size_t)word * E;
	double *pre = work, *scy = pre + H, *logits = scy + W;
	double *wy = logits + V, *ws = wy + H, *wc = ws + H;
	/* summed in the order bahdanau_rnn sums them */
	attn_matvec(wy, m->dec.Wx, yv, H, E);
	attn_matvec(ws, m->dec.Wh, prev, H, H);
	attn_matvec(wc, m->Wcd, c, H, H);
	for (int k = 0; k < H; k++)
		pre[k] = wy[k] + ws[k] + wc[k] + m->dec.b[k];
	attn_tanh(scy, pre, H);
	for (int k = 0; k < H; k++)
		scy[H + k] = c[k];
	for (int k = 0; k < E; k++)
		scy[2 * H + k] = yv[k];
	attn_matvec(logits, m->Wo, scy, V, W);
	double lp = arch_log_softmax_at(logits, V, y);
	if (dc) {
		/* ∂/∂logits = onehot_y - p, back through W_o to c directly
		 * and to s, and from s through tanh and C to c */
		double *dl = wc + H, *dpre = pre;
		for (int k = 0; k < V; k++)
			dl[k] = (k == y) - exp(arch_log_softmax_at(logits, V,
								   k));
		for (int j = 0; j < 2 * H; j++) {
			double g = 0;
			for (int k = 0; k < V; k++)
				g += m->Wo[(size_t)k * W + j] * dl[k];
			if (j < H)
				dpre[j] = g * (1 - scy[j] * scy[j]);
			else
				dc[j - H] = g;
		}
		for (int j = 0; j < H; j++) {
			double g = 0;
			for (int i = 0; i < H; i++)
				g += m->Wcd[(size_t)i * H + j] * dpre[i];
			dc[j] += g;
		}
	}
	return lp;
}

const struct arch_class arch_bahdanau = {
	.name = "bahdanau",
	.summary = "attention first with s_{t-1} as the query, then the RNN "
		   "reads [y_{t-1}; c_t]; a bidirectional encoder",
	.query_off = -1,
	.encode = trace_encode_bidir,
	.start = bahdanau_start,
	.step = bahdanau_step,
	.log_prob = bahdanau_log_prob,
};
