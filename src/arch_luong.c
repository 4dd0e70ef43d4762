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
#include <stdio.h>

#include "arch.h"
#include "attn.h"
#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "train_part.h"

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
	trace_rec_op(r, OP_MID, "W_s·h̃_{t}", NULL, logits, V, 1)->id = "logits";
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
		r->note = m->input_feeding ? N_("s_0 = h_{n}, the last encoder "
					     "state, and h̃_0 = 0")
					   : N_("s_0 = h_{n}, the last encoder state");
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

/* The parameter sections of Luong's, in the model file's order (struct
 * arch_class's params): the decoder's W_x reads [y_{t-1}; h̃_{t-1}] with
 * input feeding, so it is E + H wide. */
static int luong_params(struct model *m, unsigned scorers,
			struct model_param *tab)
{
	const int E = m->E, H = m->H;
	int n = 0;

	model_param_add(&tab[n++], "source", "source", PARAM_SRC_VOCAB, -1, m->src.n,
		E, &m->src.emb);
	model_param_add(&tab[n++], "target", "target", PARAM_TGT_VOCAB, -1, m->tgt.n,
		E, &m->tgt.emb);
	model_param_add(&tab[n++], "encoder.W_x", "encoder W_x", PARAM_MATRIX, -1, H,
		E, &m->enc.Wx);
	model_param_add(&tab[n++], "encoder.W_h", "encoder W_h", PARAM_MATRIX, -1, H,
		H, &m->enc.Wh);
	model_param_add(&tab[n++], "encoder.b", "encoder b", PARAM_MATRIX, -1, MODEL_PARAM_VEC, H,
		&m->enc.b);
	model_param_add(&tab[n++], "decoder.W_x", "decoder W_x", PARAM_MATRIX, -1, H,
		E + (m->input_feeding ? H : 0), &m->dec.Wx);
	model_param_add(&tab[n++], "decoder.W_h", "decoder W_h", PARAM_MATRIX, -1, H,
		H, &m->dec.Wh);
	model_param_add(&tab[n++], "decoder.b", "decoder b", PARAM_MATRIX, -1, MODEL_PARAM_VEC, H,
		&m->dec.b);
	n += model_param_scorers(m, scorers, tab + n);
	n += model_param_mha(m, scorers, tab + n);
	n += model_param_localp(m, scorers, tab + n);
	model_param_add(&tab[n++], "output.W_c", "output W_c, applied to [c_t; s_t]",
		PARAM_MATRIX, -1, H, 2 * H, &m->Wc);
	model_param_add(&tab[n++], "output.W_s", "output W_s", PARAM_WORD_ROWS, -1,
		m->tgt.n, H, &m->Ws);
	return n;
}

/* ---------------------------------------------- the narration
 *
 * What the stepper says of each of Luong's stages (view.c). */

static void luong_narrate_encoding(FILE *f, const struct trace *tr, int i)
{
	const char *w = tr->m->src.words[tr->src[i - 1]];
	if (i == 1)
		/* TRANSLATORS: the stepper's narration of the encoder's first
		 * word: %1$d the word's number, %2$d the source's length,
		 * %3$s the word, %4$d its number again, %5$d the number
		 * before it (0) */
		fprintf(f, _("The encoder reads the source one word at a "
			     "time. Word %1$d of %2$d is \"%3$s\": its "
			     "embedding x_%4$d is looked up, then mixed with the "
			     "previous state h_%5$d (zero before the first "
			     "word) by the RNN step. Every h_i is something "
			     "attention can look at later."), i, tr->n, w, i,
			i - 1);
	else
		fprintf(f, _("The encoder reads the source one word at a "
			     "time. Word %1$d of %2$d is \"%3$s\": its "
			     "embedding x_%4$d is looked up, then mixed with the "
			     "previous state h_%5$d by the RNN step. Every h_i "
			     "is something attention can look at later."), i,
			tr->n, w, i, i - 1);
}

static void luong_narrate_state(FILE *f, const struct trace *tr, int run,
				int t)
{
	const struct trace_run *ru = &tr->runs[run];
	const char *y = tr->m->tgt.words[ru->input[t - 1]];
	if (tr->m->input_feeding && t == 1) /* Luong's input feeding */
		fprintf(f, _("Step t=%1$d: the decoder reads \"%2$s\" "
			     "(y_%3$d) and h̃_%3$d, the attentional state of "
			     "the step before (zero before the first step), "
			     "and updates its state, s_%1$d = tanh(W_x·[y_%3$d; "
			     "h̃_%3$d] + W_h·s_%3$d + b). This is input feeding: "
			     "the state remembers where the steps before "
			     "looked."), t, y, t - 1);
	else if (tr->m->input_feeding)
		fprintf(f, _("Step t=%1$d: the decoder reads \"%2$s\" "
			     "(y_%3$d) and h̃_%3$d, the attentional state of "
			     "the step before, and updates its state, s_%1$d = "
			     "tanh(W_x·[y_%3$d; h̃_%3$d] + W_h·s_%3$d + b). This "
			     "is input feeding: the state remembers where the "
			     "steps before looked."), t, y, t - 1);
	else
		fprintf(f, _("Step t=%1$d: the decoder reads \"%2$s\" "
			     "(y_%3$d) and updates its state, s_%1$d = "
			     "tanh(W_x·y_%3$d + W_h·s_%3$d + b)."), t, y, t - 1);
	if (t == 1)
		fprintf(f, _(" It starts from s_0 = h_%d, the encoder's last "
			     "state, so it knows the whole sentence in "
			     "summary."), tr->n);
}

static void luong_narrate_concat(FILE *f, const struct trace *tr, int t)
{
	/* TRANSLATORS: %1$d the step t, %2$d the length of [c_t; s_t] */
	fprintf(f, _("The context c_%1$d and the decoder state s_%1$d are "
		     "stacked into one vector [c_%1$d; s_%1$d] of %2$d numbers, "
		     "context first. W_c mixes them and tanh squashes the "
		     "result into the attentional state h̃_%1$d: what the "
		     "decoder wanted, together with what it found."), t,
		2 * tr->m->H);
}

static void luong_narrate_output(FILE *f, const struct trace *tr, int run,
				 int prec, int t)
{
	const struct trace_rec *r = trace_find(tr, REC_OUTPUT, run, t, 0);
	const char *w = tr->m->tgt.words[r->word];
	char buf[NUM_BUFSZ];
	/* TRANSLATORS: %1$d the number of target words, %2$d the step t,
	 * %3$s the word, %4$s its probability */
	fprintf(f, _("W_s gives each of the %1$d target words a score from "
		     "h̃_%2$d, and a softmax makes the scores probabilities. "
		     "The most likely word, \"%3$s\" (%4$s), is the output of "
		     "step %2$d."), tr->m->tgt.n, t, w,
		fmt_num(buf, r->result[r->word], prec));
	if (tr->ntgt) {
		int want = t <= tr->ntgt ? tr->tgt[t - 1] : tr->m->eos;
		fprintf(f, want == r->word
			? _(" The target is \"%s\", so the model is right.")
			: _(" The target is \"%s\", so the model is wrong."),
			tr->m->tgt.words[want]);
	} else if (r->word == tr->m->eos) {
		fputs(_(" </s> ends the translation."), f);
	} else {
		fputs(_(" Decoding is greedy, so it is the next step's input."),
		      f);
	}
}

/* arch_class.narrate: every stage but the scores, the weights and the
 * context */
static int luong_narrate(FILE *f, const struct trace *tr, int run,
			 enum trace_stage stage, int t, int i, int prec)
{
	switch (stage) {
	case STAGE_ENCODING: luong_narrate_encoding(f, tr, i); return 1;
	case STAGE_DECODER: luong_narrate_state(f, tr, run, t); return 1;
	case STAGE_CONCAT: luong_narrate_concat(f, tr, t); return 1;
	case STAGE_OUTPUT: luong_narrate_output(f, tr, run, prec, t); return 1;
	default: return 0;
	}
}

/* ---------------------------------------------- the training part
 *
 * Luong's architecture in training (src/train_part.h), the forward pass
 * of doc/model.md and its backward pass through time.  With no input
 * feeding the decoder's states s_t depend only on the teacher-forced
 * words, not on attention, so for each pair the encoder and decoder
 * states are computed once; then for each scorer and each step the
 * attention and the output are computed and immediately back-propagated,
 * which adds to dL/ds_t and dL/dh_i; last come the two backward passes
 * through time.  A scorer that reads α_{t-1}, and input feeding, make a
 * step depend on the steps before: then every step runs forward first
 * (luong_tr_pass_seq). */

/* Encodes src (n) into w->h rows 1..n (row 0 is h_0 = 0). */
static void luong_tr_encode(const struct model *m, const int *src, int n,
		      struct train_work *w)
{
	const int E = m->E, H = m->H;

	memset(w->h, 0, sizeof *w->h * (size_t)H);
	for (int i = 1; i <= n; i++)
		train_rnn(w->h + (size_t)i * H, &m->enc,
		       m->src.emb + (size_t)src[i - 1] * E,
		       w->h + (size_t)(i - 1) * H, E, H);
}

/* s_t (w->s row t) from s_{t-1} and the word fed at step t. */
static void luong_tr_dec_step(const struct model *m, int word, int t,
			struct train_work *w)
{
	const int H = m->H;

	train_rnn(w->s + (size_t)t * H, &m->dec,
	       m->tgt.emb + (size_t)word * m->E,
	       w->s + (size_t)(t - 1) * H, m->E, H);
}

/* The forward pass of decoder step t with scorer sc, from s_t on: scores,
 * weights, the context c_t by the selection sel, h̃_t and p_t (w->p).
 * Returns log p_t[gold], or 0 if gold is -1. */
static double luong_tr_attend(const struct model *m, const struct score_in *in,
			int sc, int t, int n, int gold,
			const struct selection_class *sel, struct train_work *w)
{
	const int H = m->H;
	const double *s = w->s + (size_t)t * H;
	double logit;

	/* step 1: the scores, by the scorer's own forward function */
	scorer_get(sc)->forward(in, s, w->e, &w->sws);
	/* step 2: the weights, by the window */
	train_window(m, s, t, n, w);
	/* step 3: the context c_t, by the selection, and [c_t; s_t] */
	sel->train_context(w->cs, w->alpha, n, t, w);
	memcpy(w->cs + H, s, sizeof *s * (size_t)H);
	/* step 4: h̃_t = tanh(W_c [c_t; s_t]) */
	attn_matvec(w->ht, m->Wc, w->cs, H, 2 * H);
	for (int k = 0; k < H; k++)
		w->ht[k] = tanh(w->ht[k]);
	/* step 5: p_t = softmax(W_s h̃_t); log p[gold] = logit - log Σ exp */
	train_out_matvec(w, w->p, w->outT, w->ht, m->tgt.n, H);
	logit = gold >= 0 ? w->p[gold] : 0.0;
	logit -= train_softmax(w->p, w->p, m->tgt.n, &w->ptop);
	return gold >= 0 ? logit : 0.0;
}

/* Back through steps 5 and 4 of luong_tr_attend, given its step st (and, with
 * input feeding, w->dht_in): W_s, tanh and W_c, into dL/d[c_t; s_t]
 * (w->dcs), adding dL/ds_t's share to ds (H). */
static void luong_tr_output_back(struct model *g, const struct model *m,
			   double *ds, const struct train_step *st,
			   struct train_work *w)
{
	const int H = m->H, V = m->tgt.n;

	/* step 5: W_s, and dL/dh̃_t = W_sᵀ dL/dlogits */
	memset(w->dht, 0, sizeof *w->dht * (size_t)H);
	train_out_back(w, g->Ws, w->dht, m->Ws, H, st->dy, st->ht, V, H);
	if (w->dht_in) /* input feeding: what step t + 1 read of h̃_t */
		for (int k = 0; k < H; k++)
			w->dht[k] += w->dht_in[k];
	/* step 4: through tanh, then W_c: dL/d[c_t; s_t] */
	for (int k = 0; k < H; k++)
		w->dht[k] *= 1.0 - st->ht[k] * st->ht[k];
	memset(w->dcs, 0, sizeof *w->dcs * 2 * (size_t)H);
	attn_linear_back(g->Wc, w->dcs, m->Wc, 2 * H, w->dht, st->cs, H, 2 * H);
	for (int k = 0; k < H; k++)
		ds[k] += w->dcs[H + k];
}

/* Back through decoder step t after luong_tr_attend, from what it kept in st:
 * adds to the gradients, to dL/ds_t and to dL/dh_i.  dalpha_in (n), if
 * not NULL, is the part of dL/dα_t that later steps sent back (a scorer
 * that reads α_{t-1}). */
static void luong_tr_attend_back(struct train_pass *p, int t, const struct train_step *st,
			   const double *dalpha_in, struct train_work *w)
{
	const int H = p->m->H;
	double *ds = w->ds + (size_t)t * H;

	luong_tr_output_back(p->g, p->m, ds, st, w);
	train_weights_back(p, t, w->s + (size_t)t * H, ds, st->alpha, dalpha_in,
			w->dcs, w);
}

/* Back through time in the decoder (steps T..1), then into h_n = s_0. */
static void luong_tr_decoder_back(struct model *g, const struct model *m,
			    const struct train_pair *pr, int T,
			    struct train_work *w)
{
	const int E = m->E, H = m->H;

	for (int t = T; t >= 1; t--) {
		int word = train_input(m, pr->tgt, t);
		train_rnn_back(&g->dec, &m->dec, w->ds + (size_t)t * H,
			    w->s + (size_t)t * H,
			    m->tgt.emb + (size_t)word * E,
			    w->s + (size_t)(t - 1) * H,
			    g->tgt.emb + (size_t)word * E,
			    w->ds + (size_t)(t - 1) * H, E, H);
	}
	for (int k = 0; k < H; k++)
		w->dh[(size_t)pr->nsrc * H + k] += w->ds[k];
}

/* Back through time in the encoder (positions n..1). */
static void luong_tr_encoder_back(struct model *g, const struct model *m,
			    const int *src, int n, struct train_work *w)
{
	const int E = m->E, H = m->H;

	for (int i = n; i >= 1; i--) {
		train_probe_total(w, i, 0, w->dh + (size_t)i * H, H);
		train_rnn_back(&g->enc, &m->enc, w->dh + (size_t)i * H,
			    w->h + (size_t)i * H,
			    m->src.emb + (size_t)src[i - 1] * E,
			    w->h + (size_t)(i - 1) * H,
			    g->src.emb + (size_t)src[i - 1] * E,
			    w->dh + (size_t)(i - 1) * H, E, H);
	}
}

/* dL/dlogits = scale (p - onehot(gold)), in p (V) itself. */
static void luong_tr_dlogits_here(double *p, int V, int gold, double scale)
{
	p[gold] -= 1.0;
	for (int k = 0; k < V; k++)
		p[k] *= scale;
}

/* The summed cross-entropy of every prediction of scorer sc for one pair
 * whose states are in w, when no step depends on the steps before, so
 * that each is back-propagated as soon as it is made; counts right
 * predictions in *right.  With g, adds scale times the gradient to g and
 * to dL/ds_t and dL/dh_i.  The selection of w makes each context (hard:
 * from a draw, its loss -log p(y_t | l) and REINFORCE's terms on the
 * scores besides, src/selection_hard.c). */
static double luong_tr_pass(struct model *g, const struct model *m,
			    const struct train_pair *pr, int sc,
			    double scale, struct train_work *w, int *right)
{
	const struct train_step st = { w->alpha, w->cs, w->ht, w->p };
	struct train_pass p;

	train_pass_begin(&p, g, m, pr, sc, scale, w, right);
	for (int t = 1; t <= p.T; t++) {
		int gold = train_gold(&p, t);
		double R = luong_tr_attend(m, &p.in, sc, t, p.n, gold, p.sel, w);
		train_step_loss(&p, t, gold, R, w);
		if (!g)
			continue;
		luong_tr_dlogits_here(w->p, m->tgt.n, gold,
				      train_step_scale(&p, t, w));
		luong_tr_attend_back(&p, t, &st, NULL, w);
	}
	return train_pass_end(&p, w);
}

/* The decoder's input with input feeding, x = [y_{t-1}; h̃_{t-1}], into
 * w->scy (feed: h̃_{t-1}, H numbers; NULL: h̃_0 = 0). */
static void luong_tr_feed_input(const struct model *m, int word, const double *feed,
			  struct train_work *w)
{
	const int E = m->E, H = m->H;

	memcpy(w->scy, m->tgt.emb + (size_t)word * E, sizeof *w->scy * (size_t)E);
	if (feed)
		memcpy(w->scy + E, feed, sizeof *w->scy * (size_t)H);
	else
		memset(w->scy + E, 0, sizeof *w->scy * (size_t)H);
}

/* s_t (w->s row t) with input feeding: the decoder reads x = [y_{t-1};
 * h̃_{t-1}] (luong_tr_feed_input). */
static void luong_tr_dec_step_feed(const struct model *m, int word, int t,
			     const double *feed, struct train_work *w)
{
	const int E = m->E, H = m->H;

	luong_tr_feed_input(m, word, feed, w);
	train_rnn(w->s + (size_t)t * H, &m->dec, w->scy, w->s + (size_t)(t - 1) * H,
	       E + H, H);
}

/* The backward pass of luong_tr_dec_step_feed at step t (feed: h̃_{t-1}, NULL
 * for h̃_0 = 0), given dL/ds_t in w->ds row t: adds to the decoder's
 * gradients, to the fed word's embedding and to dL/ds_{t-1}, and leaves
 * dL/dh̃_{t-1} in w->dnext, for step t - 1's luong_tr_attend_back (w->dht_in). */
static void luong_tr_dec_step_feed_back(struct model *g, const struct model *m,
				  int word, int t, const double *feed,
				  struct train_work *w)
{
	const int E = m->E, H = m->H;

	luong_tr_feed_input(m, word, feed, w);
	memset(w->dscy, 0, sizeof *w->dscy * (size_t)(E + H));
	train_rnn_back(&g->dec, &m->dec, w->ds + (size_t)t * H,
		    w->s + (size_t)t * H, w->scy, w->s + (size_t)(t - 1) * H,
		    w->dscy, w->ds + (size_t)(t - 1) * H, E + H, H);
	for (int k = 0; k < E; k++)
		g->tgt.emb[(size_t)word * E + k] += w->dscy[k];
	memcpy(w->dnext, w->dscy + E, sizeof *w->dnext * (size_t)H);
}

/* The backward pass of luong_tr_pass_seq, from step T to 1: each step
 * reads what its forward pass kept (its struct train_step), the scorer adds
 * dL/dα_{t-1} to w->dprev_next, and with input feeding the decoder's
 * step runs back too, into dL/ds_0 = dL/dh_n. */
static void luong_tr_seq_back(struct train_pass *p, struct train_work *w)
{
	const struct model *m = p->m;
	const int H = m->H, n = p->n, O = 3 * H + m->tgt.n;
	const int feed = m->input_feeding;

	if (feed) { /* the states are this scorer's own */
		memset(w->ds, 0, sizeof *w->ds * (size_t)(p->T + 1) * H);
		memset(w->dnext, 0, sizeof *w->dnext * (size_t)H);
		w->dht_in = w->dnext;
	}
	memset(w->dprev, 0, sizeof *w->dprev * (size_t)n);
	for (int t = p->T; t >= 1; t--) {
		const double *o = w->seq_out + (size_t)(t - 1) * O;
		const struct train_step st = { w->seq_alpha + (size_t)t * n, o,
					    o + 2 * H, o + 3 * H };
		train_seq_step(p, t, w);
		train_window_recall(w, n, t);
		memset(w->dprev_next, 0, sizeof *w->dprev_next * (size_t)n);
		w->sws.dprev = w->dprev_next;
		luong_tr_attend_back(p, t, &st, w->dprev, w);
		w->sws.dprev = NULL;
		train_swap(&w->dprev, &w->dprev_next);
		if (feed) /* the decoder's step t; dL/dh̃_{t-1} into w->dnext */
			luong_tr_dec_step_feed_back(p->g, m, train_input(m, p->pr->tgt, t),
					      t, t > 1 ? o - O + 2 * H : NULL, w);
	}
	if (feed) {
		w->dht_in = NULL;
		for (int k = 0; k < H; k++)
			w->dh[(size_t)n * H + k] += w->ds[k];
	}
}

/* luong_tr_pass for what makes a step depend on the steps before: a
 * scorer that reads α_{t-1}, and input feeding.  Every step runs forward,
 * keeping what the backward pass needs (the scorer's working values, α_t,
 * [c_t; s_t], h̃_t, dL/dlogits, the window's and the selection's state),
 * then back from step T to 1, carrying dL/dα_t from step t + 1 to step t
 * (luong_tr_seq_back).
 *
 * With input feeding the decoder states depend on the attention of the
 * steps before (h̃_{t-1} enters step t; under hard attention, made with
 * c_{t-1} = h_{l_{t-1}}, so every later step depends on the draws), so
 * each scorer has its own and the decoder runs inside the forward loop;
 * each step's dL/dh̃_t is its output's plus what step t + 1's decoder
 * input sent back. */
static double luong_tr_pass_seq(struct model *g, const struct model *m,
				const struct train_pair *pr, int sc,
				double scale, struct train_work *w, int *right)
{
	const int H = m->H, V = m->tgt.n, O = 3 * H + V;
	struct train_pass p;

	train_pass_begin(&p, g, m, pr, sc, scale, w, right);
	for (int t = 1; t <= p.T; t++) {
		int gold = train_gold(&p, t);
		double *o = w->seq_out + (size_t)(t - 1) * O, R;
		if (m->input_feeding) /* the decoder reads [y_{t-1}; h̃_{t-1}] */
			luong_tr_dec_step_feed(m, train_input(m, pr->tgt, t), t,
					 t > 1 ? o - O + 2 * H : NULL, w);
		train_seq_step(&p, t, w);
		R = luong_tr_attend(m, &p.in, sc, t, p.n, gold, p.sel, w);
		train_step_loss(&p, t, gold, R, w);
		train_seq_keep(&p, t, w);
		memcpy(o, w->cs, sizeof *o * 2 * (size_t)H);
		memcpy(o + 2 * H, w->ht, sizeof *o * (size_t)H);
		if (g)
			train_dlogits(o + 3 * H, w->p, V, gold,
				      train_step_scale(&p, t, w));
	}
	if (g)
		luong_tr_seq_back(&p, w);
	return train_pass_end(&p, w);
}

/* One pair with every scorer of scorers: the forward pass, and with g the
 * backward pass adding scale times the gradient. */
static void luong_train_pair(struct model *g, const struct model *m,
		    const struct train_pair *pr, unsigned scorers,
		    double scale, struct train_work *w,
		    double loss[SCORER_COUNT], int right[SCORER_COUNT])
{
	const int H = m->H, n = pr->nsrc, T = pr->ntgt + 1;

	/* step 1: encode; step 2: the teacher-forced decoder states */
	luong_tr_encode(m, pr->src, n, w);
	memcpy(w->s, w->h + (size_t)n * H, sizeof *w->s * (size_t)H);
	if (m->input_feeding) { /* the states depend on the scorer */
		if (g)
			memset(w->dh, 0, sizeof *w->dh * (size_t)(n + 1) * H);
		for (int sc = 0; sc < SCORER_COUNT; sc++)
			if (scorers & (1u << sc))
				loss[sc] += luong_tr_pass_seq(g, m, pr, sc,
							      scale, w,
							      &right[sc]);
		if (g)
			luong_tr_encoder_back(g, m, pr->src, n, w);
		return;
	}
	for (int t = 1; t <= T; t++)
		luong_tr_dec_step(m, train_input(m, pr->tgt, t), t, w);
	if (g) {
		memset(w->dh, 0, sizeof *w->dh * (size_t)(n + 1) * H);
		memset(w->ds, 0, sizeof *w->ds * (size_t)(T + 1) * H);
	}
	/* step 3: attention and output, forward and back, for each scorer */
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if (scorers & (1u << sc))
			loss[sc] += (scorer_get(sc)->uses_prev_alpha
				     ? luong_tr_pass_seq : luong_tr_pass)(
					g, m, pr, sc, scale, w, &right[sc]);
	if (!g)
		return;
	/* step 4: back through the decoder; step 5: through the encoder */
	luong_tr_decoder_back(g, m, pr, T, w);
	luong_tr_encoder_back(g, m, pr->src, n, w);
}

/* The training part's hooks (struct arch_class) */

static void luong_train_begin(const struct model *m, struct train_work *w)
{
	attn_transpose(w->outT, m->Ws, m->tgt.n, m->H);
}

/* h_1..h_n, and s_0 = h_n */
static void luong_train_encode(const struct model *m, const int *src, int n,
			       struct train_work *w)
{
	luong_tr_encode(m, src, n, w);
	memcpy(w->s, w->h + (size_t)n * m->H, sizeof *w->s * (size_t)m->H);
}

static void luong_train_step(const struct model *m, const struct score_in *in,
			     int sc, int t, int n, int word,
			     const struct selection_class *sel,
			     struct train_work *w)
{
	if (m->input_feeding) /* h̃_{t-1} is still in w->ht */
		luong_tr_dec_step_feed(m, word, t, t > 1 ? w->ht : NULL, w);
	else
		luong_tr_dec_step(m, word, t, w);
	luong_tr_attend(m, in, sc, t, n, -1, sel, w);
}

/* The stepper's screen of a stage (arch_class.screen): Luong's layout
 * by record kind, the scores before their vector, the weighted terms
 * before the context, and under hard attention the draw after the soft
 * context it replaces, its exact view and learning signal. */
static void luong_screen(const struct trace *tr, int run,
			 enum trace_stage stage, int t, int i,
			 void (*show)(const struct trace_rec *r, void *ctx),
			 void *ctx)
{
	static const enum trace_kind kinds[STAGE_COUNT][2] = {
		[STAGE_ENCODING] = { REC_EMBED, REC_RNN },
		[STAGE_DECODER] = { REC_EMBED, REC_RNN },
		[STAGE_SCORING] = { REC_SCORES, REC_SCORES },
		[STAGE_SOFTMAX] = { REC_SOFTMAX, REC_SOFTMAX },
		[STAGE_WEIGHTED_SUM] = { REC_WEIGHTED, REC_CONTEXT },
		[STAGE_CONCAT] = { REC_CONCAT, REC_ATTENTIONAL },
		[STAGE_OUTPUT] = { REC_OUTPUT, REC_OUTPUT },
	};
	if (stage == STAGE_SCORING) {
		for (int j = 1; j <= tr->n; j++)
			show(trace_find(tr, REC_SCORE, run, t, j), ctx);
		show(trace_find(tr, REC_SCORES, run, t, 0), ctx);
		return;
	}
	if (stage == STAGE_WEIGHTED_SUM)
		for (int j = 1; j <= tr->n; j++)
			show(trace_find(tr, REC_WEIGHTED, run, t, j), ctx);
	for (int k = 0; k < 2; k++) {
		if (k == 1 && kinds[stage][1] == kinds[stage][0])
			break;
		if (stage == STAGE_WEIGHTED_SUM && k == 0)
			continue;
		const struct trace_rec *r = trace_find(tr, kinds[stage][k],
						      run, t, i);
		if (r)
			show(r, ctx);
	}
	if (stage == STAGE_WEIGHTED_SUM) {
		const struct trace_run *ru = &tr->runs[run];
		int end = t < ru->nsteps ? ru->step_first[t]
					 : ru->first_rec + ru->nrecs;
		for (int k = ru->step_first[t - 1]; k < end; k++)
			if (tr->recs[k].kind >= REC_SAMPLE &&
			    tr->recs[k].kind <= REC_SAMPLES)
				show(&tr->recs[k], ctx);
	}
}

const struct arch_class arch_luong = {
	.screen = luong_screen,
	.name = "luong",
	.summary = N_("the RNN steps first, then attention with s_t as the query"),
	.query_off = 0,
	.model = "toy4",
	.feed_model = "feed4",
	/* TRANSLATORS: the architecture's name in prose: "%s decoder",
	 * "input feeding is %s" */
	.owner = N_("Luong's"),
	.chained_title = N_("the Jensen gap (given the sampled past: the fed "
			    "h̃_{t-1} carries the earlier draws)"),
	.encode = trace_encode_rnn,
	.start = luong_start,
	.step = luong_step,
	.log_prob = luong_log_prob,
	.params = luong_params,
	.narrate = luong_narrate,
	.train_begin = luong_train_begin,
	.train_encode = luong_train_encode,
	.train_step = luong_train_step,
	.train_pair = luong_train_pair,
};
