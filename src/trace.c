/* trace.c: run the model and record every step of its arithmetic. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "attn.h"
#include "gradpath.h"
#include "i18n.h"
#include "num.h"
#include "selection.h"
#include "trace.h"
#include "window.h"

#define ARENA_CHUNK 4096 /* doubles in one storage block */

/* Returns n zeroed doubles from the trace's storage; they live as long as
 * the trace.  Blocks never move, so records can point into them. */
double *trace_alloc(struct trace *tr, size_t n)
{
	if (tr->nblocks == 0 || tr->last_used + n > tr->last_size) {
		size_t size = n > ARENA_CHUNK ? n : ARENA_CHUNK;
		if (tr->nblocks == tr->cap_blocks) {
			tr->cap_blocks = tr->cap_blocks ? 2 * tr->cap_blocks : 16;
			tr->blocks = xreallocarray(tr->blocks,
						   (size_t)tr->cap_blocks,
						   sizeof *tr->blocks);
		}
		tr->blocks[tr->nblocks++] = xcalloc(size, sizeof(double));
		tr->last_size = size;
		tr->last_used = 0;
		tr->arena_size += size;
	}
	double *p = tr->blocks[tr->nblocks - 1] + tr->last_used;
	tr->last_used += n;
	return p;
}

size_t trace_mem_bytes(const struct trace *tr)
{
	return tr->arena_size * sizeof(double) +
	       (size_t)tr->cap_recs * sizeof *tr->recs +
	       (size_t)tr->cap_blocks * sizeof *tr->blocks;
}

struct trace_rec *trace_rec_new(struct trace *tr, enum trace_kind kind,
				enum trace_stage stage, int run, int t, int i)
{
	if (tr->nrecs == tr->cap_recs) {
		tr->cap_recs = tr->cap_recs ? 2 * tr->cap_recs : 64;
		tr->recs = xreallocarray(tr->recs, (size_t)tr->cap_recs,
					 sizeof *tr->recs);
	}
	struct trace_rec *r = &tr->recs[tr->nrecs++];
	r->nops = 0;
	r->terms = NULL;
	r->nterms = 0;
	r->term_ops[0] = r->term_ops[1] = -1;
	r->divisor = NULL;
	r->note = NULL;
	r->note_op = 0;
	r->win_lo = r->win_hi = 0;
	r->title = NULL;
	r->result_axis = AXIS_NONE;
	r->rows = 1;
	r->row_axis = AXIS_NONE;
	r->head = 0;
	r->key = NULL;
	r->matmul = MATMUL_NONE;
	r->symbol = r->formula = "";
	r->kind = kind;
	r->stage = stage;
	r->run = run;
	r->t = t;
	r->i = i;
	r->word = -1;
	return r;
}

struct trace_operand *trace_rec_op(struct trace_rec *r, enum op_role role,
				   const char *name, const char *key,
				   const double *v, int len, int rows)
{
	struct trace_operand *op = &r->ops[r->nops++];
	op->v = v;
	op->len = len;
	op->rows = rows;
	op->role = role;
	op->axis = AXIS_NONE;
	op->row_axis = AXIS_NONE;
	op->input = role != OP_MID;
	op->name = name;
	op->key = key;
	op->id = key;
	op->scalar = 0;
	return op;
}

void trace_rec_terms(struct trace *tr, struct trace_rec *r, const double *a,
		     int ia, const double *b, int ib, int len)
{
	double *terms = trace_alloc(tr, 2 * (size_t)len);
	for (int k = 0; k < len; k++) {
		terms[2 * k] = a[k];
		terms[2 * k + 1] = b[k];
	}
	r->terms = terms;
	r->nterms = len;
	r->term_ops[0] = ia;
	r->term_ops[1] = ib;
}

/* Sets r's names from nm and its operands' names in order. */
static void rec_name(struct trace_rec *r, const struct rec_names *nm)
{
	r->symbol = nm->symbol;
	r->formula = nm->formula;
	for (int k = 0; k < r->nops; k++)
		r->ops[k].name = nm->op[k] ? nm->op[k] : "";
}

const double *trace_embed(struct trace *tr, const struct vocab *v, int word,
			  int run, int t, int i)
{
	const int E = tr->m->E;
	enum trace_stage stage = run < 0 ? STAGE_ENCODING : STAGE_DECODER;
	struct trace_rec *r = trace_rec_new(tr, REC_EMBED, stage, run, t, i);
	r->word = word;
	r->symbol = run < 0 ? "x_{i}" : "y_{t-1}";
	r->formula = "emb({w})";
	r->result = v->emb + (size_t)word * E;
	r->len = E;
	return r->result;
}

void trace_rnn_sized(struct trace *tr, enum trace_kind kind,
		     const struct rnn *w, const double *x, const double *prev,
		     double *h, int in, int out, int run, int t, int i,
		     const struct rec_names *nm)
{
	double *wx = trace_alloc(tr, (size_t)out);
	double *wh = trace_alloc(tr, (size_t)out);
	double *pre = trace_alloc(tr, (size_t)out);
	attn_rnn_step(wx, wh, pre, h, w->Wx, w->Wh, w->b, x, prev, in, out);

	struct trace_rec *r = trace_rec_new(tr, kind,
					    run < 0 ? STAGE_ENCODING
						    : STAGE_DECODER,
					    run, t, i);
	trace_rec_op(r, OP_MID, NULL, "W_x_x", wx, out, 1);
	trace_rec_op(r, OP_MID, NULL, "W_h_h", wh, out, 1);
	trace_rec_op(r, OP_WEIGHT, NULL, "b", w->b, out, 1);
	trace_rec_op(r, OP_MID, NULL, "pre", pre, out, 1);
	trace_rec_op(r, OP_INPUT, NULL, NULL, prev, out, 1)->id = "prev";
	rec_name(r, nm);
	r->result = h;
	r->len = out;
}

void trace_rnn(struct trace *tr, const struct rnn *w, const double *x,
	       const double *prev, double *h, int run, int t, int i,
	       const struct rec_names *nm)
{
	trace_rnn_sized(tr, REC_RNN, w, x, prev, h, tr->m->E, tr->m->H, run,
			t, i, nm);
}

const double *trace_encode_rnn(struct trace *tr)
{
	static const struct rec_names names = {
		"h_{i}", "tanh(W_x·x_{i} + W_h·h_{i-1} + b)",
		{ "W_x·x_{i}", "W_h·h_{i-1}", "b", "sum", "h_{i-1}" }
	};
	const struct model *m = tr->m;
	double *Hs = trace_alloc(tr, (size_t)tr->n * m->H);
	const double *prev = trace_alloc(tr, (size_t)m->H); /* h_0 = 0 */
	for (int i = 1; i <= tr->n; i++) {
		const double *x = trace_embed(tr, &m->src, tr->src[i - 1],
					      -1, 0, i);
		double *h = Hs + (size_t)(i - 1) * m->H;
		trace_rnn(tr, &m->enc, x, prev, h, -1, 0, i, &names);
		prev = h;
	}
	return Hs;
}

const double *trace_encode_bidir(struct trace *tr)
{
	static const struct rec_names fwd = {
		"→h_{i}", "tanh(W_x^f·x_{i} + W_h^f·→h_{i-1} + b^f)",
		{ "W_x^f·x_{i}", "W_h^f·→h_{i-1}", "b^f", "sum", "→h_{i-1}" }
	};
	static const struct rec_names bwd = {
		"←h_{i}", "tanh(W_x^b·x_{i} + W_h^b·←h_{i+1} + b^b)",
		{ "W_x^b·x_{i}", "W_h^b·←h_{i+1}", "b^b", "sum", "←h_{i+1}" }
	};
	const struct model *m = tr->m;
	const int n = tr->n, E = m->E, H = m->H, D = m->H / 2;
	double *Hs = trace_alloc(tr, (size_t)n * H);
	double *F = trace_alloc(tr, (size_t)n * D);
	double *B = trace_alloc(tr, (size_t)n * D);
	const double *zero = trace_alloc(tr, (size_t)D); /* →h_0, ←h_{n+1} */
	const double **x = xcalloc((size_t)n, sizeof *x);
	const double *prev = zero;

	/* the forward RNN reads x_1 .. x_n */
	for (int i = 1; i <= n; i++) {
		x[i - 1] = trace_embed(tr, &m->src, tr->src[i - 1], -1, 0, i);
		double *h = F + (size_t)(i - 1) * D;
		trace_rnn_sized(tr, REC_FORWARD, &m->enc, x[i - 1], prev, h, E,
				D, -1, 0, i, &fwd);
		prev = h;
	}
	/* the backward RNN reads x_n .. x_1 */
	prev = zero;
	for (int i = n; i >= 1; i--) {
		double *h = B + (size_t)(i - 1) * D;
		trace_rnn_sized(tr, REC_BACKWARD, &m->enc_bwd, x[i - 1], prev,
				h, E, D, -1, 0, i, &bwd);
		prev = h;
	}
	free(x);
	/* the annotations h_i = [→h_i; ←h_i] */
	for (int i = 1; i <= n; i++) {
		double *h = Hs + (size_t)(i - 1) * H;
		const double *f = F + (size_t)(i - 1) * D;
		const double *b = B + (size_t)(i - 1) * D;
		attn_concat(h, f, D, b, D);
		struct trace_rec *r = trace_rec_new(tr, REC_ANNOTATION,
						    STAGE_ENCODING, -1, 0, i);
		trace_rec_op(r, OP_INPUT, "→h_{i}", NULL, f, D, 1);
		trace_rec_op(r, OP_INPUT, "←h_{i}", NULL, b, D, 1);
		r->title = N_("the annotation");
		r->symbol = "h_{i}";
		r->formula = "[→h_{i}; ←h_{i}]";
		r->result = h;
		r->len = H;
	}
	return Hs;
}

const double *trace_scores(struct trace *tr, int run, int t, const double *s,
			   const struct score_in *in, struct score_ws *ws)
{
	const struct scorer_class *sc = scorer_get(tr->runs[run].scorer);
	const int n = tr->n, W = SCORE_WS_WIDTH(tr->m);
	double *e = trace_alloc(tr, (size_t)n);
	/* fresh storage for this step's intermediates, which the records
	 * point into */
	ws->mid = trace_alloc(tr, (size_t)n * W);
	ws->act = trace_alloc(tr, (size_t)n * W);
	ws->q = trace_alloc(tr, 2 * (size_t)W);
	if (sc->uses_prev_alpha)
		ws->aux = trace_alloc(tr, (size_t)n * SCORE_WS_AUX(tr->m));
	sc->forward(in, s, e, ws);
	for (int i = 0; i < n; i++) {
		struct score_view v = { tr, NULL, in, ws, s, i };
		v.r = trace_rec_new(tr, REC_SCORE, STAGE_SCORING, run, t, i + 1);
		v.r->symbol = "e_{t},{i}";
		v.r->result = e + i;
		v.r->len = 1;
		sc->record(&v);
	}
	struct trace_rec *r = trace_rec_new(tr, REC_SCORES, STAGE_SCORING,
					    run, t, 0);
	r->symbol = "e_{t}";
	r->formula = "(e_{t},1 .. e_{t},{n})";
	r->result = e;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
	return e;
}

const double *trace_softmax(struct trace *tr, int run, int t,
			    const double *e)
{
	static const struct rec_names names = {
		"α_{t}", "exp(e_{t},i - max) / Σ_j exp(e_{t},j - max)",
		{ "e_{t}", "max", "e - max", "exp(e - max)", "sum" }
	};
	int n = tr->n;
	double *alpha = trace_alloc(tr, (size_t)n);
	double *shifted = trace_alloc(tr, (size_t)n);
	double *ex = trace_alloc(tr, (size_t)n);
	double *max = trace_alloc(tr, 2), *sum = max + 1;
	*max = attn_softmax(alpha, shifted, ex, sum, e, n);

	struct trace_rec *r = trace_rec_new(tr, REC_SOFTMAX, STAGE_SOFTMAX,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, NULL, NULL, e, n, 1)->id = "e";
	trace_rec_op(r, OP_MID, NULL, NULL, max, 1, 1)->id = "max";
	trace_rec_op(r, OP_MID, NULL, NULL, shifted, n, 1)->id = "shifted";
	trace_rec_op(r, OP_MID, NULL, NULL, ex, n, 1)->id = "exp";
	trace_rec_op(r, OP_MID, NULL, NULL, sum, 1, 1)->id = "sum";
	r->ops[0].axis = r->ops[2].axis = r->ops[3].axis = AXIS_SOURCE;
	rec_name(r, &names);
	r->result = alpha;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
	return alpha;
}

const double *trace_context(struct trace *tr, int run, int t,
			    const double *alpha, const double *Hs)
{
	int n = tr->n, H = tr->m->H;
	double *terms = trace_alloc(tr, (size_t)n * H);
	double *c = trace_alloc(tr, (size_t)H);
	/* local-p's weights are not the softmax's α: a_t = align_t × its
	 * Gaussian factors */
	int a = window_get(tr->cfg.window)->unnormalised;
	attn_weighted_sum(c, terms, alpha, Hs, n, H);
	for (int i = 1; i <= n; i++) {
		struct trace_rec *r = trace_rec_new(tr, REC_WEIGHTED,
						    STAGE_WEIGHTED_SUM,
						    run, t, i);
		trace_rec_op(r, OP_INPUT, a ? "a_{t},{i}" : "α_{t},{i}", NULL,
			     alpha + i - 1, 1, 1)->id = "weight";
		trace_rec_op(r, OP_INPUT, "h_{i}", NULL,
			     Hs + (size_t)(i - 1) * H, H, 1)->id = "h";
		r->symbol = a ? "a_{t},{i}·h_{i}" : "α_{t},{i}·h_{i}";
		r->formula = a ? "a_{t},{i} × h_{i}" : "α_{t},{i} × h_{i}";
		r->result = terms + (size_t)(i - 1) * H;
		r->len = H;
	}
	struct trace_rec *r = trace_rec_new(tr, REC_CONTEXT,
					    STAGE_WEIGHTED_SUM, run, t, 0);
	trace_rec_op(r, OP_INPUT, "terms", NULL, terms, n * H, n)->id = "terms";
	r->title = N_("the context vector");
	r->symbol = "c_{t}";
	r->formula = a ? "Σ_i a_{t},i·h_i" : "Σ_i α_{t},i·h_i";
	r->result = c;
	r->len = H;
	return c;
}

const double *trace_attend(struct trace *tr, int run, int t, const double *q,
			  const double *Hs, const struct score_in *in,
			  struct score_ws *ws)
{
	const double *e = trace_scores(tr, run, t, q, in, ws);
	const double *a = window_get(tr->cfg.window)->weights(tr, run, t, q,
							      e);
	tr->runs[run].weights = a;
	return selection_get(tr->cfg.selection)->context(tr, run, t, q, a,
							 Hs);
}

const char *trace_weight_symbol(const struct trace *tr)
{
	return window_get(tr->cfg.window)->unnormalised ? "a" : "α";
}

int trace_steps_chained(const struct trace *tr)
{
	return arch_get(tr->arch)->chained || tr->m->input_feeding;
}

const double *trace_weights(const struct trace *tr, int run, int t)
{
	const struct trace_rec *r = trace_find(tr, REC_GAUSS, run, t, 0);
	if (!r)
		r = trace_find(tr, REC_SOFTMAX, run, t, 0);
	return r ? r->result : NULL;
}

/* Decodes with one scorer, teacher-forced or greedy, recording each step
 * with the architecture's step program. */
static void trace_decode(struct trace *tr, int run, int sc,
			 const struct arch_class *arch, const double *Hs,
			 const double *s0)
{
	const struct model *m = tr->m;
	const struct scorer_class *cls = scorer_get(sc);
	int H = m->H;
	int limit = tr->ntgt ? tr->ntgt + 1 : tr->max_steps;
	struct trace_run *ru = &tr->runs[run];
	struct score_in in;
	struct score_ws ws = { NULL, NULL, NULL, NULL, NULL, NULL };

	ru->scorer = sc;
	ru->first_rec = tr->nrecs;
	ru->input = xcalloc((size_t)limit, sizeof *ru->input);
	ru->pred = xcalloc((size_t)limit, sizeof *ru->pred);
	ru->step_first = xcalloc((size_t)limit, sizeof *ru->step_first);
	scorer_input(&in, m, sc, Hs, tr->n);
	if (cls->prepare) {
		ws.key = trace_alloc(tr, (size_t)tr->n * SCORE_WS_WIDTH(m));
		cls->prepare(&in, &ws);
	}
	const double *prev = s0;
	int word = m->bos;
	double *alpha0 = trace_alloc(tr, (size_t)tr->n);
	alpha0[0] = 1.0; /* α_0: one-hot on the first source word */
	in.prev_alpha = alpha0;
	for (int t = 1; t <= limit; t++) {
		ru->input[t - 1] = word;
		ru->step_first[t - 1] = tr->nrecs;
		double *s = trace_alloc(tr, (size_t)H);
		int pred = arch->step(tr, run, t, word, prev, s, Hs, &in, &ws);
		ru->pred[t - 1] = pred;
		ru->nsteps = t;
		prev = s;
		/* α_t, for a scorer that reads the last step's weights */
		if (ru->weights)
			in.prev_alpha = ru->weights;
		if (tr->ntgt) {
			word = t <= tr->ntgt ? tr->tgt[t - 1] : m->eos;
		} else if (pred == m->eos) {
			ru->stopped = 1;
			break;
		} else {
			word = pred;
		}
	}
	ru->nrecs = tr->nrecs - ru->first_rec;
}

int trace_build(struct trace *tr, const struct model *m, const int *src,
		int n, const int *tgt, int ntgt, unsigned scorers,
		const struct trace_cfg *cfg, struct errbuf *err)
{
	return trace_build_enc(tr, m, NULL, NULL, src, n, tgt, ntgt, scorers,
			       cfg, err);
}

int trace_build_enc(struct trace *tr, const struct model *m,
		    const struct trace_encoder *enc, const void *input,
		    const int *src, int n, const int *tgt, int ntgt,
		    unsigned scorers, const struct trace_cfg *cfg,
		    struct errbuf *err)
{
	static const struct trace_cfg defaults = TRACE_CFG_DEFAULT;
	memset(tr, 0, sizeof *tr);
	tr->cfg = cfg ? *cfg : defaults;
	if (n < 1 || n > TRACE_MAX_TOKENS) {
		err_set(err, _("the source sentence must have 1 to %d words, "
			"not %d"), TRACE_MAX_TOKENS, n);
		return -1;
	}
	if (ntgt < 0 || ntgt > TRACE_MAX_TOKENS) {
		err_set(err, _("the target sentence must have at most %d words, "
			"not %d"), TRACE_MAX_TOKENS, ntgt);
		return -1;
	}
	if (scorers == SCORER_ALL) { /* "all": every scorer that can run */
		scorers = model_scorers(m);
		for (int sc = 0; sc < SCORER_COUNT; sc++)
			if (scorer_uses_positions(sc) && n > m->L)
				scorers &= ~(1u << sc);
	}
	if ((scorers & SCORER_ALL) == 0) {
		err_set(err, _("no scorer was chosen"));
		return -1;
	}
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		if (!(scorers & (1u << sc)))
			continue;
		if (model_check_scorer(m, sc, err) != 0)
			return -1;
		if (scorer_uses_positions(sc) && n > m->L) {
			err_set(err, ngettext("the %s scorer of this model "
				"knows %d source position (\"positions %d\"), "
				"and the sentence has %d words", "the %s scorer "
				"of this model knows %d source positions "
				"(\"positions %d\"), and the sentence has %d "
				"words", m->L), scorer_get(sc)->name, m->L, m->L,
				n);
			return -1;
		}
	}
	if (tr->cfg.window_size < 0) {
		err_set(err, _("the window size must be at least 0, not %d"),
			tr->cfg.window_size);
		return -1;
	}
	if (window_get(tr->cfg.window)->check &&
	    window_get(tr->cfg.window)->check(m, &tr->cfg, err) != 0)
		return -1;
	if (gradpath_check(m, &tr->cfg, tgt ? ntgt : 0, err) != 0)
		return -1;
	tr->m = m;
	tr->n = n;
	tr->src = xcalloc((size_t)n, sizeof *tr->src);
	memcpy(tr->src, src, sizeof *src * (size_t)n);
	if (tgt && ntgt > 0) {
		tr->ntgt = ntgt;
		tr->tgt = xcalloc((size_t)ntgt, sizeof *tr->tgt);
		memcpy(tr->tgt, tgt, sizeof *tgt * (size_t)ntgt);
	}
	tr->max_steps = 2 * n + 2 < TRACE_MAX_STEPS ? 2 * n + 2
						    : TRACE_MAX_STEPS;
	const struct arch_class *arch = arch_get(m->arch);
	tr->arch = m->arch;
	tr->query_off = arch->query_off;
	tr->enc_first_rec = tr->nrecs;
	tr->enc = enc;
	tr->input = input;
	const double *Hs = enc ? enc->encode(tr) : arch->encode(tr);
	const double *s0 = enc ? enc->start(tr, Hs) : arch->start(tr, Hs);
	tr->enc_nrecs = tr->nrecs - tr->enc_first_rec;
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if (scorers & (1u << sc))
			trace_decode(tr, tr->nruns++, sc, arch, Hs, s0);
	for (int run = 0; tr->cfg.grad_paths && run < tr->nruns; run++)
		gradpath_record(tr, run);
	return 0;
}

void trace_free(struct trace *tr)
{
	for (int k = 0; k < tr->nruns; k++) {
		free(tr->runs[k].input);
		free(tr->runs[k].pred);
		free(tr->runs[k].step_first);
	}
	for (int k = 0; k < tr->nblocks; k++)
		free(tr->blocks[k]);
	free(tr->blocks);
	free(tr->recs);
	free(tr->src);
	free(tr->tgt);
	if (tr->input_free)
		tr->input_free((void *)tr->input);
	memset(tr, 0, sizeof *tr);
}

/* Names are filled in from their templates here, thousands of them a
 * sentence pair in a text trace: so no format strings, and the literal
 * pieces are copied whole. */

/* Appends the decimal v to p; returns the byte after it. */
static inline char *name_int(char *p, int v)
{
	if (v >= 0 && v < 10) { /* t and i, nearly always */
		*p++ = (char)('0' + v);
		return p;
	}
	return num_itoa(p, v);
}

/* What "{x}" stands for in record r: returns the bytes (into num when
 * they are a number) and their length in *n, or NULL for an unknown
 * placeholder. */
static const char *name_field(const struct trace *tr,
			      const struct trace_rec *r, const char *f,
			      size_t fn, char *num, size_t *n)
{
	const char *s = NULL;
	int v = 0;

	switch (f[0]) {
	case 't': v = r->t + (fn == 3 ? (f[1] == '+' ? 1 : -1) * (f[2] - '0')
				      : 0); break;
	case 'i': v = r->i + (fn == 3 ? (f[1] == '+' ? 1 : -1) * (f[2] - '0')
				      : 0); break;
	case 'n': v = tr->n; break;
	case 'H': v = tr->m->H; break;
	case 'h': v = r->head; break;
	case 'q': /* the query: s_{t + query_off} */
		num[0] = 's';
		num[1] = '_';
		*n = (size_t)(name_int(num + 2, r->t + tr->query_off) - num);
		return num;
	case 'w':
		s = (r->run < 0 && r->row_axis != AXIS_TARGET ? &tr->m->src
							       : &tr->m->tgt)->words[r->word];
		break;
	case 'x':
		s = tr->m->src.words[tr->src[r->i - 1]];
		break;
	default:
		return NULL;
	}
	if (s) {
		*n = strlen(s);
		return s;
	}
	*n = (size_t)(name_int(num, v) - num);
	return num;
}

/* What "{=id}" or "{#id}" stands for in record r: the name of r's
 * operand id when prec < 0; else its first number, with prec decimals
 * ('=') or as a whole number ('#').  Into buf (size bytes, at least
 * NUM_BUFSZ); returns its length, 0 when r has no such operand. */
static size_t op_field(const struct trace *tr, const struct trace_rec *r,
		       const char *f, size_t fn, int prec, char *buf,
		       size_t size)
{
	char id[32];
	const struct trace_operand *op;

	if (fn - 1 >= sizeof id)
		return 0;
	memcpy(id, f + 1, fn - 1);
	id[fn - 1] = '\0';
	op = trace_op(r, id);
	if (!op)
		return 0;
	if (prec < 0)
		return trace_expand(buf, size, op->name ? op->name : op->id,
				    tr, r);
	if (f[0] == '#')
		return (size_t)(num_itoa(buf, (int)op->v[0]) - buf);
	return num_fixed_len(buf, op->v[0], prec);
}

/* trace_expand() the plain way, a byte at a time: for a template too
 * long for the cache below, a name near the end of its buffer, and one
 * that names an operand ("{=p}"), whose value it writes with prec
 * decimals, or whose name when prec < 0. */
static size_t expand_slow(char *buf, size_t size, const char *tpl,
			  const struct trace *tr, const struct trace_rec *r,
			  int prec)
{
	char *p = buf, *end = buf + size - 1, num[NUM_BUFSZ + 32];
	const char *s = tpl;

	for (;;) {
		while (*s != '{' && *s != '\0' && p < end)
			*p++ = *s++;
		if (*s != '{')
			break; /* the end, or the buffer is full */
		const char *f = ++s;
		while (*s != '}' && *s != '\0')
			s++;
		size_t n, fn = (size_t)(s - f);
		const char *piece = num;
		if (fn > 1 && (f[0] == '=' || f[0] == '#'))
			n = op_field(tr, r, f, fn, prec, num, sizeof num);
		else
			piece = name_field(tr, r, f, fn, num, &n);
		if (*s == '}')
			s++;
		if (!piece)
			continue;
		if (n > (size_t)(end - p))
			n = (size_t)(end - p); /* cut short */
		memcpy(p, piece, n);
		p += n;
	}
	*p = '\0';
	return (size_t)(p - buf);
}

size_t trace_expand_values(char *buf, size_t size, const char *tpl,
			   const struct trace *tr, const struct trace_rec *r,
			   int prec)
{
	return expand_slow(buf, size, tpl, tr, r, prec < 0 ? 0 : prec);
}

/* A template taken apart once: its literal pieces, kept with room to be
 * copied 16 bytes at a time, and the placeholders between them.  Each
 * thread keeps its own small table of them, found by the template's
 * address (templates are string literals that live as long as the
 * program). */
#define TPL_SEGS 8
#define TPL_LIT 96
#define TPL_SLOTS 256 /* a few dozen templates exist */
struct tpl {
	const char *src;         /* the template, NULL for an empty slot */
	int ok;                  /* 0: too long to take apart */
	int nseg;
	struct {
		unsigned char off, len; /* the literal before the field */
		char field[4];          /* "t", "t-1", ...; "" at the end */
	} seg[TPL_SEGS];
	char lit[TPL_LIT + 16];
};
static _Thread_local struct tpl tpl_cache[TPL_SLOTS];

/* Takes tpl apart into *c. */
static void tpl_compile(struct tpl *c, const char *tpl)
{
	const char *s = tpl;
	size_t used = 0;

	memset(c, 0, sizeof *c);
	c->src = tpl;
	for (int k = 0; k < TPL_SEGS; k++) {
		const char *open = strchr(s, '{');
		size_t n = open ? (size_t)(open - s) : strlen(s);
		if (used + n > TPL_LIT || n > 255)
			return;
		memcpy(c->lit + used, s, n);
		c->seg[k].off = (unsigned char)used;
		c->seg[k].len = (unsigned char)n;
		used += n;
		c->nseg = k + 1;
		if (!open) {
			c->ok = 1;
			return;
		}
		const char *close = strchr(open, '}');
		if (!close || close - open - 1 > 3 || open[1] == '=' ||
		    open[1] == '#')
			return; /* an operand's: expand_slow's */
		memcpy(c->seg[k].field, open + 1, (size_t)(close - open - 1));
		s = close + 1;
	}
}

size_t trace_expand(char *buf, size_t size, const char *tpl,
		    const struct trace *tr, const struct trace_rec *r)
{
	size_t h = ((size_t)tpl >> 2) % TPL_SLOTS;
	struct tpl *c = &tpl_cache[h];
	char *p = buf, *end = buf + size - 1, num[16];

	/* linear probing; a full table reuses the first slot */
	for (int probe = 0; c->src != tpl && c->src && probe < 8; probe++)
		c = &tpl_cache[(h + (size_t)probe + 1) % TPL_SLOTS];
	if (c->src != tpl) {
		if (c->src)
			c = &tpl_cache[h];
		tpl_compile(c, tpl);
	}
	if (!c->ok)
		return expand_slow(buf, size, tpl, tr, r, -1);
	for (int k = 0; k < c->nseg; k++) {
		size_t n = c->seg[k].len;
		const char *f = c->seg[k].field, *piece;
		if ((size_t)(end - p) < n + 16)
			return expand_slow(buf, size, tpl, tr, r, -1);
		for (size_t j = 0; j < n; j += 16) /* whole blocks: moves */
			memcpy(p + j, c->lit + c->seg[k].off + j, 16);
		p += n;
		if (!f[0])
			break;
		if (f[1] == '\0' && (f[0] == 't' || f[0] == 'i')) {
			int v = f[0] == 't' ? r->t : r->i;
			if (v >= 0 && v < 10) { /* nearly always */
				*p++ = (char)('0' + v);
				continue;
			}
		}
		piece = name_field(tr, r, f, strlen(f), num, &n);
		if (!piece)
			continue;
		if ((size_t)(end - p) < n)
			return expand_slow(buf, size, tpl, tr, r, -1);
		memcpy(p, piece, n);
		p += n;
	}
	*p = '\0';
	return (size_t)(p - buf);
}

const char *trace_axis_word(const struct trace *tr, enum op_axis axis, int k)
{
	switch (axis) {
	case AXIS_SOURCE: return tr->m->src.words[tr->src[k]];
	case AXIS_TARGET: return tr->m->tgt.words[tr->tgt[k]];
	case AXIS_VOCAB: return tr->m->tgt.words[k];
	case AXIS_NONE: break;
	}
	return NULL;
}

void trace_cell(const struct trace *tr, const struct trace_rec *r, int row,
		int col, struct trace_rec *cell)
{
	*cell = *r;
	cell->i = row + 1;
	cell->t = col + 1;
	cell->word = -1;
	/* an operand's row may run past the result's rows (K_h's rows are
	 * the source words, the scores' the queries): no word then */
	if (r->row_axis == AXIS_SOURCE && row < tr->n)
		cell->word = tr->src[row];
	else if (r->row_axis == AXIS_TARGET && row < tr->ntgt)
		cell->word = tr->tgt[row];
}

void trace_names(const struct trace *tr, const struct trace_rec *r,
		 struct trace_names *nm)
{
	trace_names_part(tr, r, nm, TRACE_NAME_ALL);
}

void trace_names_part(const struct trace *tr, const struct trace_rec *r,
		      struct trace_names *nm, unsigned parts)
{
	trace_expand(nm->symbol, sizeof nm->symbol, r->symbol, tr, r);
	nm->formula[0] = '\0';
	if ((parts & TRACE_NAME_FORMULA) && r->formula) /* NULL: none */
		trace_expand(nm->formula, sizeof nm->formula, r->formula, tr, r);
	for (int k = 0; k < TRACE_MAX_OPS; k++) {
		nm->op[k][0] = '\0';
		if ((parts & TRACE_NAME_OPS) && k < r->nops)
			trace_expand(nm->op[k], sizeof nm->op[k],
				     r->ops[k].name, tr, r);
	}
}

const struct trace_operand *trace_op_key(const struct trace_rec *r,
					 const char *key)
{
	for (int k = 0; k < r->nops; k++)
		if (r->ops[k].key && strcmp(r->ops[k].key, key) == 0)
			return &r->ops[k];
	return NULL;
}

int trace_op_at(const struct trace_rec *r, const char *id)
{
	for (int k = 0; k < r->nops; k++)
		if (r->ops[k].id && strcmp(r->ops[k].id, id) == 0)
			return k;
	return -1;
}

const struct trace_operand *trace_op(const struct trace_rec *r,
				     const char *id)
{
	int k = trace_op_at(r, id);
	return k < 0 ? NULL : &r->ops[k];
}

int trace_run_of(const struct trace *tr, int sc)
{
	for (int k = 0; k < tr->nruns; k++)
		if (tr->runs[k].scorer == sc)
			return k;
	return -1;
}

const struct trace_rec *trace_find(const struct trace *tr, enum trace_kind kind,
				   int run, int t, int i)
{
	int first = tr->enc_first_rec, count = tr->enc_nrecs;
	if (run >= 0) {
		if (run >= tr->nruns)
			return NULL;
		const struct trace_run *ru = &tr->runs[run];
		if (t < 1 || t > ru->nsteps)
			return NULL;
		first = ru->step_first[t - 1];
		count = (t < ru->nsteps ? ru->step_first[t]
					: ru->first_rec + ru->nrecs) - first;
	}
	for (int k = first; k < first + count; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if (r->kind == kind && r->t == t && r->i == i)
			return r;
	}
	return NULL;
}

static const char *const stage_names[STAGE_ALL_COUNT] = {
	"encoding", "decoder", "scoring", "softmax", "weighted-sum", "concat",
	"output", "input", "projection"
};

const char *trace_scorer_name(int sc)
{
	return sc >= 0 && sc < SCORER_COUNT ? scorer_get(sc)->name : "?";
}

const char *trace_stage_name(enum trace_stage s)
{
	return (unsigned)s < STAGE_ALL_COUNT ? stage_names[s] : "?";
}

int trace_stages(const struct trace *tr, enum trace_stage order[STAGE_COUNT])
{
	unsigned seen = 1u << STAGE_ENCODING;
	int n = 0;
	order[n++] = STAGE_ENCODING;
	/* the first step of the first run, as the step program made it */
	if (tr->nruns > 0 && tr->runs[0].nsteps > 0) {
		const struct trace_run *ru = &tr->runs[0];
		int first = ru->step_first[0];
		int end = ru->nsteps > 1 ? ru->step_first[1]
					 : ru->first_rec + ru->nrecs;
		for (int k = first; k < end; k++) {
			enum trace_stage st = tr->recs[k].stage;
			if ((unsigned)st < STAGE_COUNT && !(seen & (1u << st))) {
				seen |= 1u << st;
				order[n++] = st;
			}
		}
	}
	return n;
}

unsigned trace_scorer_parse(const char *name)
{
	return scorer_parse(name);
}
