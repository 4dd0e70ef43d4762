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
#include <stdio.h>

#include "arch.h"
#include "attn.h"
#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "train_part.h"

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
	r->title = N_("the decoder's first state");
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
	r->note = N_("the context c_{t} enters the RNN");
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
		     V, 1)->id = "logits";
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
	r->title = N_("the query");
	r->symbol = "s_{t-1}";
	r->formula = t > 1 ? "the state that step {t-1} made"
		     : tr->enc ? "the decoder's first state, from h̄"
			       : "the decoder's first state, from ←h_1";
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

/* The parameter sections of Bahdanau's, in the model file's order
 * (struct arch_class's params): a bidirectional encoder of H/2 units a
 * direction, s_0 from ←h_1, a decoder fed [y_{t-1}; c_t], and the output
 * read from [s_t; c_t; y_{t-1}]. */
static int bahdanau_params(struct model *m, unsigned scorers,
			   struct model_param *tab)
{
	const int E = m->E, H = m->H, D = m->H / 2;
	int n = 0;

	model_param_add(&tab[n++], "source", "source", PARAM_SRC_VOCAB, -1, m->src.n,
		E, &m->src.emb);
	model_param_add(&tab[n++], "target", "target", PARAM_TGT_VOCAB, -1, m->tgt.n,
		E, &m->tgt.emb);
	model_param_add(&tab[n++], "forward.W_x", "forward encoder W_x", PARAM_MATRIX,
		-1, D, E, &m->enc.Wx);
	model_param_add(&tab[n++], "forward.W_h", "forward encoder W_h", PARAM_MATRIX,
		-1, D, D, &m->enc.Wh);
	model_param_add(&tab[n++], "forward.b", "forward encoder b", PARAM_MATRIX, -1,
		MODEL_PARAM_VEC, D, &m->enc.b);
	model_param_add(&tab[n++], "backward.W_x", "backward encoder W_x",
		PARAM_MATRIX, -1, D, E, &m->enc_bwd.Wx);
	model_param_add(&tab[n++], "backward.W_h", "backward encoder W_h",
		PARAM_MATRIX, -1, D, D, &m->enc_bwd.Wh);
	model_param_add(&tab[n++], "backward.b", "backward encoder b", PARAM_MATRIX,
		-1, MODEL_PARAM_VEC, D, &m->enc_bwd.b);
	model_param_add(&tab[n++], "decoder.W_init", "decoder W_init, applied to ←h_1",
		PARAM_MATRIX, -1, H, D, &m->Winit);
	model_param_add(&tab[n++], "decoder.W_y", "decoder W_y, applied to y_{t-1}",
		PARAM_MATRIX, -1, H, E, &m->dec.Wx);
	model_param_add(&tab[n++], "decoder.W_s", "decoder U, applied to s_{t-1}",
		PARAM_MATRIX, -1, H, H, &m->dec.Wh);
	model_param_add(&tab[n++], "decoder.W_c", "decoder C, applied to c_t",
		PARAM_MATRIX, -1, H, H, &m->Wcd);
	model_param_add(&tab[n++], "decoder.b", "decoder b", PARAM_MATRIX, -1, MODEL_PARAM_VEC, H,
		&m->dec.b);
	n += model_param_patch(m, scorers, tab + n);
	n += model_param_scorers(m, scorers, tab + n);
	n += model_param_localp(m, scorers, tab + n);
	model_param_add(&tab[n++], "output.W_o",
		"output W_o, applied to [s_t; c_t; y_{t-1}]", PARAM_WORD_ROWS,
		-1, m->tgt.n, 2 * H + E, &m->Wo);
	return n;
}

/* ---------------------------------------------- the narration
 *
 * What the stepper says of each of Bahdanau's stages (view.c). */

static void bahdanau_narrate_encoding(FILE *f, const struct trace *tr,
				      int i)
{
	int n = tr->n;
	/* TRANSLATORS: %1$d the word's number i, %2$d the source's length
	 * n, %3$s the word */
	fprintf(f, _("The encoder reads the source twice, with two small "
		     "RNNs: forwards, so →h_%1$d has read words 1 to %1$d, and "
		     "backwards, so ←h_%1$d has read words %2$d to %1$d. Word "
		     "%1$d of %2$d is \"%3$s\"; its annotation h_%1$d = "
		     "[→h_%1$d; ←h_%1$d] knows the word and both of its "
		     "sides."), i, n, tr->m->src.words[tr->src[i - 1]]);
	if (i == n)
		fputs(_(" The decoder starts from s_0 = tanh(W_init·←h_1): "
			"the backward RNN's last state, which has read the "
			"whole sentence."), f);
}

static void bahdanau_narrate_query(FILE *f, const struct trace *tr, int t)
{
	if (t == 1 && tr->enc) /* an encoder plug-in: s_0 from the mean */
		fprintf(f, _("Step t=%1$d starts with attention, before the "
			     "decoder moves: the query is s_%2$d, the state "
			     "that W_init made from h̄, the mean of the "
			     "annotations. Bahdanau's decoder attends first "
			     "and steps afterwards; Luong's steps first and "
			     "attends with the new state."),
			t, t - 1);
	else if (t == 1)
		fprintf(f, _("Step t=%1$d starts with attention, before the "
			     "decoder moves: the query is s_%2$d, the state "
			     "that W_init made from ←h_1. Bahdanau's decoder "
			     "attends first and steps afterwards; Luong's "
			     "steps first and attends with the new state."),
			t, t - 1);
	else
		fprintf(f, _("Step t=%1$d starts with attention, before the "
			     "decoder moves: the query is s_%2$d, the state "
			     "the previous step ended with. Bahdanau's decoder "
			     "attends first and steps afterwards; Luong's "
			     "steps first and attends with the new state."),
			t, t - 1);
}

static void bahdanau_narrate_state(FILE *f, const struct trace *tr, int run,
				   int t)
{
	const struct trace_run *ru = &tr->runs[run];
	/* TRANSLATORS: %1$s the word fed, %2$d the step before t, %3$d
	 * the step t */
	fprintf(f, _("Now the decoder steps: it reads \"%1$s\" (y_%2$d) and "
		     "the context c_%3$d, s_%3$d = tanh(W_y·y_%2$d + U·s_%2$d + "
		     "C·c_%3$d + b). The term C·c_%3$d is how what attention "
		     "found enters the decoder, and through s_%3$d every later "
		     "step. (The paper's GRU, with both gates fixed open.)"),
		tr->m->tgt.words[ru->input[t - 1]], t - 1, t);
}

static void bahdanau_narrate_output(FILE *f, const struct trace *tr, int run,
				    int prec, int t)
{
	const struct trace_rec *r = trace_find(tr, REC_OUTPUT, run, t, 0);
	char buf[NUM_BUFSZ];
	/* TRANSLATORS: %1$d the step t, %2$d the step before, %3$d the
	 * number of target words, %4$s the likeliest, %5$s its
	 * probability */
	fprintf(f, _("W_o reads the new state, the context and the word "
		     "fed, [s_%1$d; c_%1$d; y_%2$d], and gives each of the %3$d "
		     "target words a score; a softmax makes them probabilities "
		     "(a linear readout where the paper has maxout). The most "
		     "likely word, \"%4$s\" (%5$s), is the output of step "
		     "%1$d."), t, t - 1, tr->m->tgt.n,
		tr->m->tgt.words[r->word],
		fmt_num(buf, r->result[r->word], prec));
}

/* arch_class.narrate: the encoder, the query before the scores (then
 * the shared narration of the scores follows), the decoder's step and
 * the output */
static int bahdanau_narrate(FILE *f, const struct trace *tr, int run,
			    enum trace_stage stage, int t, int i, int prec)
{
	switch (stage) {
	case STAGE_ENCODING: bahdanau_narrate_encoding(f, tr, i); return 1;
	case STAGE_SCORING:
		bahdanau_narrate_query(f, tr, t);
		fputc(' ', f);
		return 0;
	case STAGE_DECODER: bahdanau_narrate_state(f, tr, run, t); return 1;
	case STAGE_OUTPUT:
		bahdanau_narrate_output(f, tr, run, prec, t);
		return 1;
	default: return 0;
	}
}

/* ---------------------------------------------- the training part
 *
 * Bahdanau's architecture in training (src/train_part.h): the forward
 * pass of train.c's doc/model.md, and its backward pass through time. */

/* The bidirectional encoder: w->hf rows 1..n the forward states (row 0 is
 * →h_0 = 0), w->hb rows 1..n the backward ones (row n + 1 is ←h_{n+1} =
 * 0), and w->h rows 1..n the annotations [→h_i; ←h_i]; then s_0 =
 * tanh(W_init ←h_1) into w->s row 0. */
static void bahdanau_train_encode(const struct model *m, const int *src, int n,
			    struct train_work *w)
{
	const int E = m->E, H = m->H, D = m->H / 2;

	memset(w->hf, 0, sizeof *w->hf * (size_t)D);
	memset(w->hb + (size_t)(n + 1) * D, 0, sizeof *w->hb * (size_t)D);
	for (int i = 1; i <= n; i++)
		train_rnn(w->hf + (size_t)i * D, &m->enc,
		       m->src.emb + (size_t)src[i - 1] * E,
		       w->hf + (size_t)(i - 1) * D, E, D);
	for (int i = n; i >= 1; i--)
		train_rnn(w->hb + (size_t)i * D, &m->enc_bwd,
		       m->src.emb + (size_t)src[i - 1] * E,
		       w->hb + (size_t)(i + 1) * D, E, D);
	for (int i = 1; i <= n; i++) {
		memcpy(w->h + (size_t)i * H, w->hf + (size_t)i * D,
		       sizeof *w->h * (size_t)D);
		memcpy(w->h + (size_t)i * H + D, w->hb + (size_t)i * D,
		       sizeof *w->h * (size_t)D);
	}
	attn_matvec(w->s, m->Winit, w->hb + D, H, D);
	for (int k = 0; k < H; k++)
		w->s[k] = tanh(w->s[k]);
}

/* Decoder step t of Bahdanau's, from s_{t-1} (w->s row t - 1) and the
 * word fed: the scores of s_{t-1} (in->prev_alpha set by the caller),
 * α_t (w->alpha, through the window of w with the query s_{t-1}), s_t
 * (w->s row t), [s_t; c_t; y_{t-1}] (scy, 2H + E: w->scy, or where the
 * pass keeps it for the backward pass) and p_t (w->p).  Returns log
 * p_t[gold], or 0 if gold is -1. */
static double bahdanau_tr_step(const struct model *m, const struct score_in *in,
			   int sc, int t, int n, int word, int gold,
			   double *scy, const struct selection_class *sel,
			   struct train_work *w)
{
	const int E = m->E, H = m->H, V = m->tgt.n, O = 2 * H + E;
	const double *q = w->s + (size_t)(t - 1) * H;
	const double *y = m->tgt.emb + (size_t)word * E;
	double *s = w->s + (size_t)t * H, logit;
	double wy[MODEL_MAX_DIM], ws[MODEL_MAX_DIM], wc[MODEL_MAX_DIM];

	scorer_get(sc)->forward(in, q, w->e, &w->sws);
	train_window(m, q, t, n, w); /* the softmax, over the window if any */
	sel->train_context(scy + H, w->alpha, n, t, w); /* c_t */
	/* s_k = tanh(W_y y + W_s s_{t-1} + W_c c_t + b), each product a
	 * attn_dot, added in that order */
	attn_matvec(wy, m->dec.Wx, y, H, E);
	attn_matvec(ws, m->dec.Wh, q, H, H);
	attn_matvec(wc, m->Wcd, scy + H, H, H);
	for (int k = 0; k < H; k++)
		s[k] = scy[k] = tanh(wy[k] + ws[k] + wc[k] + m->dec.b[k]);
	for (int k = 0; k < E; k++)
		scy[2 * H + k] = y[k];
	train_out_matvec(w, w->p, w->outT, scy, V, O);
	logit = gold >= 0 ? w->p[gold] : 0.0;
	logit -= train_softmax(w->p, w->p, V, &w->ptop);
	return gold >= 0 ? logit : 0.0;
}

/* The backward pass of step t of Bahdanau's decoder after attention:
 * p_t = softmax(W_o [s_t; c_t; y_{t-1}]) and s_t = tanh(W_y y_{t-1} +
 * W_s s_{t-1} + W_c c_t + b), given [s_t; c_t; y_{t-1}] as the forward
 * pass made it (scy, c_t the context step t made: Σ α h, or h_l under
 * hard attention), dL/dlogits (scaled) and dL/ds_t from step t + 1
 * (w->dnext).  Adds to the gradients of W_o, the decoder and y_{t-1}'s
 * embedding, and leaves dL/dc_t in w->dc and the decoder's part of
 * dL/ds_{t-1} in w->dq. */
static void bahdanau_tr_step_back(struct model *g, const struct model *m, int t,
			      int word, const double *scy,
			      const double *dlogits, struct train_work *w)
{
	const int E = m->E, H = m->H, V = m->tgt.n, O = 2 * H + E;
	const double *y = m->tgt.emb + (size_t)word * E;
	double *gy = g->tgt.emb + (size_t)word * E;
	const double *qv = w->s + (size_t)(t - 1) * H;
	const double *s = w->s + (size_t)t * H, *c = scy + H;

	memset(w->dscy, 0, sizeof *w->dscy * (size_t)O);
	train_out_back(w, g->Wo, w->dscy, m->Wo, O, dlogits, scy, V, O);
	/* s_t also fed step t + 1 (w->dnext) */
	for (int k = 0; k < H; k++) {
		w->dpre[k] = (w->dscy[k] + w->dnext[k]) * (1.0 - s[k] * s[k]);
		g->dec.b[k] += w->dpre[k];
		w->dc[k] = w->dscy[H + k];
	}
	for (int k = 0; k < E; k++)
		gy[k] += w->dscy[2 * H + k];
	memset(w->dq, 0, sizeof *w->dq * (size_t)H);
	attn_linear_back(g->dec.Wx, gy, m->dec.Wx, E, w->dpre, y, H, E);
	attn_linear_back(g->dec.Wh, w->dq, m->dec.Wh, H, w->dpre, qv, H, H);
	attn_linear_back(g->Wcd, w->dc, m->Wcd, H, w->dpre, c, H, H);
}

/* The backward pass of bahdanau_tr_pass, from step T to 1: the output
 * and the decoder's step (bahdanau_tr_step_back), then the context, the
 * window and the scores of the query s_{t-1} (train_weights_back), carrying
 * dL/ds_t (w->dnext) and dL/dα_t (w->dprev) to the step before. */
static void bahdanau_tr_back(struct train_pass *p, struct train_work *w)
{
	const struct model *m = p->m;
	const int H = m->H, n = p->n, O = 2 * H + m->E, V = m->tgt.n;

	memset(w->dprev, 0, sizeof *w->dprev * (size_t)n);
	memset(w->dnext, 0, sizeof *w->dnext * (size_t)H);
	for (int t = p->T; t >= 1; t--) {
		const double *o = w->seq_out + (size_t)(t - 1) * (O + V);
		const double *qv = w->s + (size_t)(t - 1) * H;
		const double *alpha = w->seq_alpha + (size_t)t * n;
		train_seq_step(p, t, w);
		bahdanau_tr_step_back(p->g, m, t, train_input(m, p->pr->tgt, t), o,
				  o + O, w);
		train_window_recall(w, n, t); /* p_t reads s_{t-1} too */
		memset(w->dprev_next, 0, sizeof *w->dprev_next * (size_t)n);
		w->sws.dprev = w->dprev_next;
		train_weights_back(p, t, qv, w->dq, alpha, w->dprev, w->dc, w);
		w->sws.dprev = NULL;
		train_swap(&w->dprev, &w->dprev_next);
		memcpy(w->dnext, w->dq, sizeof *w->dq * (size_t)H);
	}
	for (int k = 0; k < H; k++)
		w->ds[k] += w->dnext[k];
}

/* One pair with scorer sc in Bahdanau's architecture, the encoder already
 * run: every step forward, keeping what the backward pass needs (the
 * decoder's states depend on attention, so each scorer has its own;
 * under hard attention c_t = h_l feeds the decoder RNN and the output,
 * and s_{t-1} carries the earlier draws), then back from step T to 1
 * (bahdanau_tr_back).  Adds to dL/dh_i (w->dh) and dL/ds_0 (w->ds row
 * 0). */
static double bahdanau_tr_pass(struct model *g, const struct model *m,
			       const struct train_pair *pr, int sc,
			       double scale, struct train_work *w, int *right)
{
	const int O = 2 * m->H + m->E, V = m->tgt.n;
	struct train_pass p;

	train_pass_begin(&p, g, m, pr, sc, scale, w, right);
	for (int t = 1; t <= p.T; t++) {
		int gold = train_gold(&p, t);
		/* [s_t; c_t; y_{t-1}] and dL/dlogits, kept */
		double *o = w->seq_out + (size_t)(t - 1) * (O + V), R;
		train_seq_step(&p, t, w);
		R = bahdanau_tr_step(m, &p.in, sc, t, p.n, train_input(m, pr->tgt, t),
				 gold, o, p.sel, w);
		train_step_loss(&p, t, gold, R, w);
		train_seq_keep(&p, t, w);
		train_dlogits(o + O, w->p, V, gold, train_step_scale(&p, t, w));
	}
	if (g)
		bahdanau_tr_back(&p, w);
	return train_pass_end(&p, w);
}

/* Back through s_0 = tanh(W_init ←h_1) and the two encoder RNNs, given
 * dL/ds_0 (w->ds row 0) and dL/dh_i (w->dh rows 1..n). */
static void bahdanau_tr_encode_back(struct model *g, const struct model *m,
			  const int *src, int n, struct train_work *w)
{
	const int E = m->E, H = m->H, D = m->H / 2;

	memset(w->dhf, 0, sizeof *w->dhf * (size_t)(n + 2) * D);
	memset(w->dhb, 0, sizeof *w->dhb * (size_t)(n + 2) * D);
	for (int i = 1; i <= n; i++)
		for (int k = 0; k < D; k++) {
			w->dhf[(size_t)i * D + k] = w->dh[(size_t)i * H + k];
			w->dhb[(size_t)i * D + k] =
				w->dh[(size_t)i * H + D + k];
		}
	for (int k = 0; k < H; k++)
		w->dpre[k] = w->ds[k] * (1.0 - w->s[k] * w->s[k]);
	attn_linear_back(g->Winit, w->dhb + D, m->Winit, D, w->dpre, w->hb + D,
		       H, D);
	/* the forward RNN read x_1 .. x_n: back from n; the backward one
	 * read x_n .. x_1: back from 1 */
	for (int i = n; i >= 1; i--) {
		train_probe_total(w, i, 0, w->dhf + (size_t)i * D, D);
		train_rnn_back(&g->enc, &m->enc, w->dhf + (size_t)i * D,
			    w->hf + (size_t)i * D,
			    m->src.emb + (size_t)src[i - 1] * E,
			    w->hf + (size_t)(i - 1) * D,
			    g->src.emb + (size_t)src[i - 1] * E,
			    w->dhf + (size_t)(i - 1) * D, E, D);
	}
	for (int i = 1; i <= n; i++) {
		train_probe_total(w, i, D, w->dhb + (size_t)i * D, D);
		train_rnn_back(&g->enc_bwd, &m->enc_bwd, w->dhb + (size_t)i * D,
			    w->hb + (size_t)i * D,
			    m->src.emb + (size_t)src[i - 1] * E,
			    w->hb + (size_t)(i + 1) * D,
			    g->src.emb + (size_t)src[i - 1] * E,
			    w->dhb + (size_t)(i + 1) * D, E, D);
	}
}

/* bahdanau_train_pair for a model of Bahdanau's architecture. */
static void bahdanau_train_pair(struct model *g, const struct model *m,
			  const struct train_pair *pr, unsigned scorers,
			  double scale, struct train_work *w,
			  double loss[SCORER_COUNT], int right[SCORER_COUNT])
{
	const int H = m->H, n = pr->nsrc;

	if (pr->enc) /* an encoder plug-in: an image's cells */
		pr->enc->train_encode(m, pr->input, n, w);
	else
		bahdanau_train_encode(m, pr->src, n, w);
	if (g) {
		memset(w->dh, 0, sizeof *w->dh * (size_t)(n + 1) * H);
		memset(w->ds, 0, sizeof *w->ds * (size_t)H);
	}
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if (scorers & (1u << sc))
			loss[sc] += bahdanau_tr_pass(g, m, pr, sc, scale, w,
						     &right[sc]);
	if (g && pr->enc)
		pr->enc->train_back(g, m, pr->input, n, w);
	else if (g)
		bahdanau_tr_encode_back(g, m, pr->src, n, w);
}

/* The training part's hooks (struct arch_class) */

static void bahdanau_train_begin(const struct model *m, struct train_work *w)
{
	attn_transpose(w->outT, m->Wo, m->tgt.n, 2 * m->H + m->E);
}

static void bahdanau_train_step(const struct model *m,
				const struct score_in *in, int sc, int t,
				int n, int word,
				const struct selection_class *sel,
				struct train_work *w)
{
	bahdanau_tr_step(m, in, sc, t, n, word, -1, w->scy, sel, w);
}

const struct arch_class arch_bahdanau = {
	.name = "bahdanau",
	.summary = N_("attention first with s_{t-1} as the query, then the RNN "
		      "reads [y_{t-1}; c_t]; a bidirectional encoder"),
	.query_off = -1,
	.model = "bahdanau4",
	.no_feed = N_("already reads the context c_{t-1}"),
	/* TRANSLATORS: the architecture's name in prose: "%s decoder",
	 * "input feeding is %s" */
	.owner = N_("Bahdanau's"),
	.bidir = 1,
	.chained = 1,
	.chained_title = N_("the Jensen gap (given the sampled past: s_{t-1} "
			    "carries the earlier draws)"),
	.encode = trace_encode_bidir,
	.start = bahdanau_start,
	.step = bahdanau_step,
	.log_prob = bahdanau_log_prob,
	.params = bahdanau_params,
	.narrate = bahdanau_narrate,
	.train_begin = bahdanau_train_begin,
	.train_encode = bahdanau_train_encode,
	.train_step = bahdanau_train_step,
	.train_pair = bahdanau_train_pair,
};
