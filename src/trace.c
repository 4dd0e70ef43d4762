/* trace.c: run the model and record every step of its arithmetic. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "num.h"
#include "trace.h"

#define ARENA_CHUNK 4096 /* doubles in one storage block */

/* Returns n zeroed doubles from the trace's storage; they live as long as
 * the trace.  Blocks never move, so records can point into them. */
static double *trace_alloc(struct trace *tr, size_t n)
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
	}
	double *p = tr->blocks[tr->nblocks - 1] + tr->last_used;
	tr->last_used += n;
	return p;
}

/* Appends a record and returns it.  The array may move on the next call,
 * so fill a record before adding another. */
static struct trace_rec *rec_new(struct trace *tr, enum trace_kind kind,
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
	r->kind = kind;
	r->stage = stage;
	r->run = run;
	r->t = t;
	r->i = i;
	r->word = -1;
	return r;
}

static void rec_op(struct trace_rec *r, const double *v, int len, int input)
{
	struct trace_operand *op = &r->ops[r->nops++];
	op->v = v;
	op->len = len;
	op->input = input;
}

/* An operand computed elsewhere, and one computed by this record. */
#define rec_in(r, v, len) rec_op(r, v, len, 1)
#define rec_mid(r, v, len) rec_op(r, v, len, 0)

/* Records an embedding lookup: x_i (encoder) or y_{t-1} (decoder). */
static const double *record_embed(struct trace *tr, const struct vocab *v,
				  int word, int E, int run, int t, int i)
{
	enum trace_stage stage = run < 0 ? STAGE_ENCODING : STAGE_SCORING;
	struct trace_rec *r = rec_new(tr, REC_EMBED, stage, run, t, i);
	r->word = word;
	r->result = v->emb + (size_t)word * E;
	r->len = E;
	return r->result;
}

/* Records one RNN step into h (H), which the caller allocated. */
static void record_rnn(struct trace *tr, const struct rnn *w, const double *x,
		       const double *prev, double *h, int run, int t, int i)
{
	const struct model *m = tr->m;
	int E = m->E, H = m->H;
	double *wx = trace_alloc(tr, (size_t)H);
	double *wh = trace_alloc(tr, (size_t)H);
	double *pre = trace_alloc(tr, (size_t)H);
	attn_rnn_step(wx, wh, pre, h, w->Wx, w->Wh, w->b, x, prev, E, H);

	struct trace_rec *r = rec_new(tr, REC_RNN,
				      run < 0 ? STAGE_ENCODING : STAGE_SCORING,
				      run, t, i);
	rec_mid(r, wx, H);
	rec_mid(r, wh, H);
	rec_in(r, w->b, H);
	rec_mid(r, pre, H);
	rec_in(r, prev, H);
	r->result = h;
	r->len = H;
}

/* step 1 of the encoder: embed each word and run the RNN over them.
 * Returns the states h_1..h_n, (n, H) row-major. */
static const double *trace_encode(struct trace *tr)
{
	const struct model *m = tr->m;
	double *Hs = trace_alloc(tr, (size_t)tr->n * m->H);
	const double *prev = trace_alloc(tr, (size_t)m->H); /* h_0 = 0 */
	tr->enc_first_rec = tr->nrecs;
	for (int i = 1; i <= tr->n; i++) {
		const double *x = record_embed(tr, &m->src, tr->src[i - 1],
					       m->E, -1, 0, i);
		double *h = Hs + (size_t)(i - 1) * m->H;
		record_rnn(tr, &m->enc, x, prev, h, -1, 0, i);
		prev = h;
	}
	tr->enc_nrecs = tr->nrecs - tr->enc_first_rec;
	return Hs;
}

/* Fills terms (len, 2) with the pairs a_k, b_k of the dot product a·b. */
static const double *pair_terms(struct trace *tr, const double *a,
				const double *b, int len)
{
	double *terms = trace_alloc(tr, 2 * (size_t)len);
	for (int k = 0; k < len; k++) {
		terms[2 * k] = a[k];
		terms[2 * k + 1] = b[k];
	}
	return terms;
}

/* Records e_t,i with its operands and dot-product terms.  mid (A or H)
 * and act (A) are this word's intermediates: W_a·h_i for general, and
 * W_a·[s; h_i] and its tanh for concat. */
static void record_score(struct trace *tr, enum scorer sc, int run, int t,
			 int i, const double *s, const double *h,
			 const double *e, const double *mid, const double *act)
{
	const struct model *m = tr->m;
	int H = m->H, A = m->A;
	struct trace_rec *r = rec_new(tr, REC_SCORE, STAGE_SCORING, run, t, i);
	r->result = e + i - 1;
	r->len = 1;
	if (sc == SCORER_DOT || sc == SCORER_GENERAL) {
		rec_in(r, s, H);
		rec_in(r, h, H);
		if (sc == SCORER_GENERAL)
			rec_mid(r, mid, H);
		r->terms = pair_terms(tr, s, sc == SCORER_DOT ? h : mid, H);
		r->nterms = H;
		return;
	}
	double *sh = trace_alloc(tr, 2 * (size_t)H);
	attn_concat(sh, s, H, h, H);
	rec_mid(r, sh, 2 * H);
	rec_mid(r, mid, A);
	rec_mid(r, act, A);
	rec_in(r, m->va, A);
	r->terms = pair_terms(tr, m->va, act, A);
	r->nterms = A;
}

/* step 2: score s_t against every h_i with the run's scorer, recording one
 * REC_SCORE per source word and then REC_SCORES.  Returns e_t (n). */
static const double *trace_score(struct trace *tr, enum scorer sc, int run,
				 int t, const double *s, const double *Hs)
{
	const struct model *m = tr->m;
	int n = tr->n, H = m->H, A = m->A;
	double *e = trace_alloc(tr, (size_t)n);
	double *mid = NULL, *act = NULL;
	int w = sc == SCORER_CONCAT ? A : H; /* width of an intermediate */
	if (sc == SCORER_DOT) {
		attn_score_dot(e, s, Hs, n, H);
	} else if (sc == SCORER_GENERAL) {
		mid = trace_alloc(tr, (size_t)n * H);
		attn_score_general(e, mid, s, Hs, m->Wg, n, H);
	} else {
		mid = trace_alloc(tr, (size_t)n * A);
		act = trace_alloc(tr, (size_t)n * A);
		attn_score_concat(e, mid, act, s, Hs, m->Wa, m->va, n, H, A);
	}
	for (int i = 1; i <= n; i++)
		record_score(tr, sc, run, t, i, s, Hs + (size_t)(i - 1) * H, e,
			     mid ? mid + (size_t)(i - 1) * w : NULL,
			     act ? act + (size_t)(i - 1) * A : NULL);
	struct trace_rec *r = rec_new(tr, REC_SCORES, STAGE_SCORING, run, t, 0);
	r->result = e;
	r->len = n;
	return e;
}

/* step 3: the softmax of e_t.  Returns α_t (n). */
static const double *trace_softmax(struct trace *tr, int run, int t,
				   const double *e)
{
	int n = tr->n;
	double *alpha = trace_alloc(tr, (size_t)n);
	double *shifted = trace_alloc(tr, (size_t)n);
	double *ex = trace_alloc(tr, (size_t)n);
	double *max = trace_alloc(tr, 2), *sum = max + 1;
	*max = attn_softmax(alpha, shifted, ex, sum, e, n);

	struct trace_rec *r = rec_new(tr, REC_SOFTMAX, STAGE_SOFTMAX, run, t, 0);
	rec_in(r, e, n);
	rec_mid(r, max, 1);
	rec_mid(r, shifted, n);
	rec_mid(r, ex, n);
	rec_mid(r, sum, 1);
	r->result = alpha;
	r->len = n;
	return alpha;
}

/* step 4: the weighted sum.  Returns c_t (H). */
static const double *trace_weighted(struct trace *tr, int run, int t,
				    const double *alpha, const double *Hs)
{
	int n = tr->n, H = tr->m->H;
	double *terms = trace_alloc(tr, (size_t)n * H);
	double *c = trace_alloc(tr, (size_t)H);
	attn_weighted_sum(c, terms, alpha, Hs, n, H);
	for (int i = 1; i <= n; i++) {
		struct trace_rec *r = rec_new(tr, REC_WEIGHTED,
					      STAGE_WEIGHTED_SUM, run, t, i);
		rec_in(r, alpha + i - 1, 1);
		rec_in(r, Hs + (size_t)(i - 1) * H, H);
		r->result = terms + (size_t)(i - 1) * H;
		r->len = H;
	}
	struct trace_rec *r = rec_new(tr, REC_CONTEXT, STAGE_WEIGHTED_SUM,
				      run, t, 0);
	rec_in(r, terms, n * H);
	r->result = c;
	r->len = H;
	return c;
}

/* step 5: [c_t; s_t], h̃_t and p_t.  Returns the predicted word. */
static int trace_output(struct trace *tr, int run, int t, const double *c,
			const double *s)
{
	const struct model *m = tr->m;
	int H = m->H, V = m->tgt.n;
	double *cs = trace_alloc(tr, 2 * (size_t)H);
	attn_concat(cs, c, H, s, H);
	struct trace_rec *r = rec_new(tr, REC_CONCAT, STAGE_CONCAT, run, t, 0);
	rec_in(r, c, H);
	rec_in(r, s, H);
	r->result = cs;
	r->len = 2 * H;

	double *pre = trace_alloc(tr, (size_t)H);
	double *ht = trace_alloc(tr, (size_t)H);
	attn_matvec(pre, m->Wc, cs, H, 2 * H);
	attn_tanh(ht, pre, H);
	r = rec_new(tr, REC_ATTENTIONAL, STAGE_CONCAT, run, t, 0);
	rec_mid(r, pre, H);
	r->result = ht;
	r->len = H;

	double *logits = trace_alloc(tr, (size_t)V);
	double *p = trace_alloc(tr, (size_t)V);
	double *shifted = trace_alloc(tr, (size_t)V);
	double *ex = trace_alloc(tr, (size_t)V);
	double sum;
	attn_matvec(logits, m->Ws, ht, V, H);
	attn_softmax(p, shifted, ex, &sum, logits, V);
	r = rec_new(tr, REC_OUTPUT, STAGE_OUTPUT, run, t, 0);
	rec_mid(r, logits, V);
	r->result = p;
	r->len = V;
	r->word = attn_argmax(p, V);
	return r->word;
}

/* Decodes with one scorer, teacher-forced or greedy, recording each step. */
static void trace_decode(struct trace *tr, int run, enum scorer sc,
			 const double *Hs)
{
	const struct model *m = tr->m;
	int H = m->H;
	int limit = tr->ntgt ? tr->ntgt + 1 : tr->max_steps;
	struct trace_run *ru = &tr->runs[run];
	ru->scorer = sc;
	ru->first_rec = tr->nrecs;
	ru->input = xcalloc((size_t)limit, sizeof *ru->input);
	ru->pred = xcalloc((size_t)limit, sizeof *ru->pred);
	ru->step_first = xcalloc((size_t)limit, sizeof *ru->step_first);
	const double *prev = Hs + (size_t)(tr->n - 1) * H; /* s_0 = h_n */
	int word = m->bos;
	for (int t = 1; t <= limit; t++) {
		ru->input[t - 1] = word;
		ru->step_first[t - 1] = tr->nrecs;
		const double *y = record_embed(tr, &m->tgt, word, m->E, run, t, 0);
		double *s = trace_alloc(tr, (size_t)H);
		record_rnn(tr, &m->dec, y, prev, s, run, t, 0);
		const double *e = trace_score(tr, sc, run, t, s, Hs);
		const double *alpha = trace_softmax(tr, run, t, e);
		const double *c = trace_weighted(tr, run, t, alpha, Hs);
		int pred = trace_output(tr, run, t, c, s);
		ru->pred[t - 1] = pred;
		ru->nsteps = t;
		prev = s;
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
		struct errbuf *err)
{
	memset(tr, 0, sizeof *tr);
	if (n < 1 || n > TRACE_MAX_TOKENS) {
		err_set(err, "the source sentence must have 1 to %d words, "
			"not %d", TRACE_MAX_TOKENS, n);
		return -1;
	}
	if (ntgt < 0 || ntgt > TRACE_MAX_TOKENS) {
		err_set(err, "the target sentence must have at most %d words, "
			"not %d", TRACE_MAX_TOKENS, ntgt);
		return -1;
	}
	if ((scorers & SCORER_ALL) == 0) {
		err_set(err, "no scorer was chosen");
		return -1;
	}
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
	const double *Hs = trace_encode(tr);
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if (scorers & (1u << sc))
			trace_decode(tr, tr->nruns++, (enum scorer)sc, Hs);
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
	memset(tr, 0, sizeof *tr);
}

/* A name put together piece by piece: thousands of them a sentence pair
 * in a text trace, so no format strings.  A name too long for its field
 * is cut short, as snprintf would cut it.  The names this file makes
 * first and builds others from ("s_1", "[c_1; s_1]") keep their lengths,
 * so that they are copied without being measured again. */
struct nb {
	char *buf;
	char *p;
	char *end; /* the byte kept for the NUL */
};

static inline struct nb nb_at(char *buf, size_t size)
{
	struct nb b = { buf, buf, buf + size - 1 };
	return b;
}

static inline void nb_put(struct nb *b, const char *s, size_t n)
{
	if (n > (size_t)(b->end - b->p))
		n = (size_t)(b->end - b->p);
	memcpy(b->p, s, n);
	b->p += n;
}

#ifdef __GNUC__
#define NB_NOINLINE __attribute__((noinline))
#else
#define NB_NOINLINE
#endif

/* nb_put() of a literal that does not fit whole: out of line, as rare as
 * it is (and so that the compiler, inlining it with a literal's size,
 * does not warn of copies it would never make). */
static NB_NOINLINE void nb_put_cut(struct nb *b, const char *s, size_t n)
{
	nb_put(b, s, n);
}

/* nb_put() of a literal: when it fits, as it does but in a name cut
 * short, a copy of a constant size, which the compiler turns into a few
 * moves rather than a call to memcpy. */
static inline void nb_lit(struct nb *b, const char *s, size_t n)
{
	if (n <= (size_t)(b->end - b->p)) {
		memcpy(b->p, s, n);
		b->p += n;
	} else {
		nb_put_cut(b, s, n);
	}
}

#define NB_LIT(b, s) nb_lit(b, s, sizeof s - 1)

/* Bytes that nb_name() copies at once. */
#define NB_SHORT 16

/* nb_put() of a name of n bytes made here, in a buffer of more than
 * NB_SHORT bytes (24 for the short ones: with just NB_SHORT, the compiler
 * warns of the copy of a longer n that never comes): when it is that
 * short and fits, one copy of a constant size, not a call to memcpy.  The
 * bytes copied past the name are overwritten by the next piece, or lie
 * past the NUL. */
static inline void nb_name(struct nb *b, const char *s, size_t n)
{
	if (n <= NB_SHORT && (size_t)(b->end - b->p) >= NB_SHORT) {
		memcpy(b->p, s, NB_SHORT);
		b->p += n;
	} else {
		nb_put(b, s, n);
	}
}

/* A string of unknown length: a vocabulary word. */
static void nb_str(struct nb *b, const char *s)
{
	nb_put(b, s, strlen(s));
}

static inline void nb_int(struct nb *b, int v)
{
	char num[12];

	if (v >= 0 && v < 10 && b->p < b->end) { /* t and i, nearly always */
		*b->p++ = (char)('0' + v);
		return;
	}
	nb_put(b, num, (size_t)(num_itoa(num, v) - num));
}

/* Ends the name; returns its length. */
static inline size_t nb_end(struct nb *b)
{
	*b->p = '\0';
	return (size_t)(b->p - b->buf);
}

/* buf = the literal s */
#define NAME_LIT(buf, size, s) name_lit(buf, size, s, sizeof s - 1)
static inline void name_lit(char *buf, size_t size, const char *s, size_t n)
{
	struct nb b = nb_at(buf, size);
	nb_lit(&b, s, n);
	nb_end(&b);
}

/* buf = the name s (n bytes) of nb_name() */
static inline void name_copy(char *buf, size_t size, const char *s, size_t n)
{
	struct nb b = nb_at(buf, size);
	nb_name(&b, s, n);
	nb_end(&b);
}

/* buf = "<a>_<v>", such as "s_1", for a literal a (of sizeof a - 1
 * bytes): the commonest name.  Returns its length. */
#define NAME_SUB(buf, size, a, v) name_sub(buf, size, a, sizeof a - 1, v)
static inline size_t name_sub(char *buf, size_t size, const char *a,
			      size_t n, int v)
{
	struct nb b = nb_at(buf, size);
	nb_lit(&b, a, n);
	NB_LIT(&b, "_");
	nb_int(&b, v);
	return nb_end(&b);
}

/* buf = "<a>_<t>,<i>", such as "e_1,2", for a literal a.  Returns its
 * length. */
#define NAME_SUB2(buf, size, a, t, i) \
	name_sub2(buf, size, a, sizeof a - 1, t, i)
static inline size_t name_sub2(char *buf, size_t size, const char *a,
			       size_t n, int t, int i)
{
	struct nb b = nb_at(buf, size);
	nb_lit(&b, a, n);
	NB_LIT(&b, "_");
	nb_int(&b, t);
	NB_LIT(&b, ",");
	nb_int(&b, i);
	return nb_end(&b);
}

/* The names of a score's operands: "s_t" and "h_i", then W_a·h_i for
 * general, or the three stages of concat and v_a. */
static void names_score(const struct trace *tr, const struct trace_rec *r,
			struct trace_names *nm, unsigned parts)
{
	char ls[24], lh[24], op[3][64];
	size_t nls, nlh, nop;
	enum scorer sc = tr->runs[r->run].scorer;
	struct nb b;

	NAME_SUB2(nm->symbol, sizeof nm->symbol, "e", r->t, r->i);
	if (!(parts & (TRACE_NAME_FORMULA | TRACE_NAME_OPS)))
		return;
	nls = NAME_SUB(ls, sizeof ls, "s", r->t);
	nlh = NAME_SUB(lh, sizeof lh, "h", r->i);
	if (sc == SCORER_DOT || sc == SCORER_GENERAL) {
		name_copy(nm->op[0], sizeof nm->op[0], ls, nls);
		name_copy(nm->op[1], sizeof nm->op[1], lh, nlh);
		b = nb_at(nm->formula, sizeof nm->formula);
		nb_name(&b, ls, nls);
		if (sc == SCORER_DOT) {
			NB_LIT(&b, "·");
			nb_name(&b, lh, nlh);
		} else {
			NB_LIT(&b, "·(W_a·");
			nb_name(&b, lh, nlh);
			NB_LIT(&b, ")");
		}
		nb_end(&b);
		if (sc == SCORER_GENERAL) {
			b = nb_at(nm->op[2], sizeof nm->op[2]);
			NB_LIT(&b, "W_a·");
			nb_name(&b, lh, nlh);
			nb_end(&b);
		}
		return;
	}
	/* "[s_t; h_i]" and the names built on it */
	b = nb_at(op[0], sizeof op[0]);
	NB_LIT(&b, "[");
	nb_name(&b, ls, nls);
	NB_LIT(&b, "; ");
	nb_name(&b, lh, nlh);
	NB_LIT(&b, "]");
	nop = nb_end(&b);
	b = nb_at(op[1], sizeof op[1]);
	NB_LIT(&b, "W_a·");
	nb_put(&b, op[0], nop);
	nop = nb_end(&b);
	b = nb_at(op[2], sizeof op[2]);
	NB_LIT(&b, "tanh(");
	nb_put(&b, op[1], nop);
	NB_LIT(&b, ")");
	nop = nb_end(&b);
	b = nb_at(nm->formula, sizeof nm->formula);
	NB_LIT(&b, "v_a·");
	nb_put(&b, op[2], nop);
	nb_end(&b);
	if (!(parts & TRACE_NAME_OPS))
		return;
	for (int k = 0; k < 3; k++)
		memcpy(nm->op[k], op[k], sizeof op[k]);
	NAME_LIT(nm->op[3], sizeof nm->op[3], "v_a");
}

/* The names of an RNN step: h_i of the encoder, s_t of the decoder. */
static void names_rnn(const struct trace_rec *r, struct trace_names *nm,
		      unsigned parts)
{
	char in[24], pv[24];
	int enc = r->run < 0, k = enc ? r->i : r->t;
	size_t nin, npv;
	struct nb b;

	if (enc) {
		nin = NAME_SUB(in, sizeof in, "x", k);
		npv = NAME_SUB(pv, sizeof pv, "h", k - 1);
		NAME_SUB(nm->symbol, sizeof nm->symbol, "h", k);
	} else {
		nin = NAME_SUB(in, sizeof in, "y", k - 1);
		npv = NAME_SUB(pv, sizeof pv, "s", k - 1);
		NAME_SUB(nm->symbol, sizeof nm->symbol, "s", k);
	}
	if (!(parts & (TRACE_NAME_FORMULA | TRACE_NAME_OPS)))
		return;
	b = nb_at(nm->formula, sizeof nm->formula);
	NB_LIT(&b, "tanh(W_x·");
	nb_name(&b, in, nin);
	NB_LIT(&b, " + W_h·");
	nb_name(&b, pv, npv);
	NB_LIT(&b, " + b)");
	nb_end(&b);
	if (!(parts & TRACE_NAME_OPS))
		return;
	b = nb_at(nm->op[0], sizeof nm->op[0]);
	NB_LIT(&b, "W_x·");
	nb_name(&b, in, nin);
	nb_end(&b);
	b = nb_at(nm->op[1], sizeof nm->op[1]);
	NB_LIT(&b, "W_h·");
	nb_name(&b, pv, npv);
	nb_end(&b);
	NAME_LIT(nm->op[2], sizeof nm->op[2], "b");
	NAME_LIT(nm->op[3], sizeof nm->op[3], "sum");
	name_copy(nm->op[4], sizeof nm->op[4], pv, npv);
}

/* The formula "<a><op><c>" of a record whose two operands are the names
 * a and c (of na and nc bytes, from nb_name()), and those operands. */
static void names_pair(struct trace_names *nm, const char *a, size_t na,
		       const char *op, const char *c, size_t nc)
{
	struct nb b = nb_at(nm->formula, sizeof nm->formula);
	nb_name(&b, a, na);
	nb_str(&b, op);
	nb_name(&b, c, nc);
	nb_end(&b);
	name_copy(nm->op[0], sizeof nm->op[0], a, na);
	name_copy(nm->op[1], sizeof nm->op[1], c, nc);
}

/* The names of step t's softmax and weighted sum. */
static void names_softmax(const struct trace_rec *r, struct trace_names *nm,
			  unsigned parts)
{
	struct nb b;
	char num[12];
	size_t n = (size_t)(num_itoa(num, r->t) - num);

	NAME_SUB(nm->symbol, sizeof nm->symbol, "α", r->t);
	if (parts & TRACE_NAME_OPS) {
		NAME_SUB(nm->op[0], sizeof nm->op[0], "e", r->t);
		NAME_LIT(nm->op[1], sizeof nm->op[1], "max");
		NAME_LIT(nm->op[2], sizeof nm->op[2], "e - max");
		NAME_LIT(nm->op[3], sizeof nm->op[3], "exp(e - max)");
		NAME_LIT(nm->op[4], sizeof nm->op[4], "sum");
	}
	if (!(parts & TRACE_NAME_FORMULA))
		return;
	b = nb_at(nm->formula, sizeof nm->formula);
	NB_LIT(&b, "exp(e_");
	nb_put(&b, num, n);
	NB_LIT(&b, ",i - max) / Σ_j exp(e_");
	nb_put(&b, num, n);
	NB_LIT(&b, ",j - max)");
	nb_end(&b);
}

static void names_weighted(const struct trace_rec *r, struct trace_names *nm,
			   unsigned parts)
{
	char a[24], h[24];
	size_t na, nh;
	struct nb b;

	na = NAME_SUB2(a, sizeof a, "α", r->t, r->i);
	nh = NAME_SUB(h, sizeof h, "h", r->i);
	b = nb_at(nm->symbol, sizeof nm->symbol);
	nb_name(&b, a, na);
	NB_LIT(&b, "·");
	nb_name(&b, h, nh);
	nb_end(&b);
	if (!(parts & (TRACE_NAME_FORMULA | TRACE_NAME_OPS)))
		return;
	names_pair(nm, a, na, " × ", h, nh);
}

/* The names of step t's concatenation, attentional state and output. */
static void names_output(const struct trace_rec *r, struct trace_names *nm,
			 unsigned parts)
{
	char c[24], s[24], cs[40];
	size_t nc, ns, ncs, nop;
	int t = r->t;
	struct nb b;

	nc = NAME_SUB(c, sizeof c, "c", t);
	ns = NAME_SUB(s, sizeof s, "s", t);
	b = nb_at(cs, sizeof cs);
	NB_LIT(&b, "[");
	nb_name(&b, c, nc);
	NB_LIT(&b, "; ");
	nb_name(&b, s, ns);
	NB_LIT(&b, "]");
	ncs = nb_end(&b);
	switch (r->kind) {
	case REC_CONTEXT:
		name_copy(nm->symbol, sizeof nm->symbol, c, nc);
		b = nb_at(nm->formula, sizeof nm->formula);
		NB_LIT(&b, "Σ_i α_");
		nb_int(&b, t);
		NB_LIT(&b, ",i·h_i");
		nb_end(&b);
		NAME_LIT(nm->op[0], sizeof nm->op[0], "terms");
		break;
	case REC_CONCAT:
		name_copy(nm->symbol, sizeof nm->symbol, cs, ncs);
		if (!(parts & (TRACE_NAME_FORMULA | TRACE_NAME_OPS)))
			break;
		names_pair(nm, c, nc, " then ", s, ns);
		break;
	case REC_ATTENTIONAL:
		NAME_SUB(nm->symbol, sizeof nm->symbol, "h̃", t);
		b = nb_at(nm->op[0], sizeof nm->op[0]);
		NB_LIT(&b, "W_c·");
		nb_name(&b, cs, ncs);
		nop = nb_end(&b);
		b = nb_at(nm->formula, sizeof nm->formula);
		NB_LIT(&b, "tanh(");
		nb_name(&b, nm->op[0], nop);
		NB_LIT(&b, ")");
		nb_end(&b);
		break;
	default: /* REC_OUTPUT */
		NAME_SUB(nm->symbol, sizeof nm->symbol, "p", t);
		nop = NAME_SUB(nm->op[0], sizeof nm->op[0], "W_s·h̃", t);
		b = nb_at(nm->formula, sizeof nm->formula);
		NB_LIT(&b, "softmax(");
		nb_name(&b, nm->op[0], nop);
		NB_LIT(&b, ")");
		nb_end(&b);
		break;
	}
}

void trace_names(const struct trace *tr, const struct trace_rec *r,
		 struct trace_names *nm)
{
	trace_names_part(tr, r, nm, TRACE_NAME_ALL);
}

void trace_names_part(const struct trace *tr, const struct trace_rec *r,
		      struct trace_names *nm, unsigned parts)
{
	int enc = r->run < 0;

	nm->symbol[0] = nm->formula[0] = '\0';
	for (int k = 0; k < TRACE_MAX_OPS; k++)
		nm->op[k][0] = '\0';
	switch (r->kind) {
	case REC_EMBED: {
		struct nb b = nb_at(nm->formula, sizeof nm->formula);
		if (enc)
			NAME_SUB(nm->symbol, sizeof nm->symbol, "x", r->i);
		else
			NAME_SUB(nm->symbol, sizeof nm->symbol, "y", r->t - 1);
		NB_LIT(&b, "emb(");
		nb_str(&b, (enc ? &tr->m->src : &tr->m->tgt)->words[r->word]);
		NB_LIT(&b, ")");
		nb_end(&b);
		break;
	}
	case REC_RNN:
		names_rnn(r, nm, parts);
		break;
	case REC_SCORE:
		names_score(tr, r, nm, parts);
		break;
	case REC_SCORES: {
		struct nb b = nb_at(nm->formula, sizeof nm->formula);
		char num[12];
		size_t n = (size_t)(num_itoa(num, r->t) - num);
		NAME_SUB(nm->symbol, sizeof nm->symbol, "e", r->t);
		if (!(parts & TRACE_NAME_FORMULA))
			break;
		NB_LIT(&b, "(e_");
		nb_put(&b, num, n);
		NB_LIT(&b, ",1 .. e_");
		nb_put(&b, num, n);
		NB_LIT(&b, ",");
		nb_int(&b, tr->n);
		NB_LIT(&b, ")");
		nb_end(&b);
		break;
	}
	case REC_SOFTMAX:
		names_softmax(r, nm, parts);
		break;
	case REC_WEIGHTED:
		names_weighted(r, nm, parts);
		break;
	case REC_CONTEXT:
	case REC_CONCAT:
	case REC_ATTENTIONAL:
	case REC_OUTPUT:
		names_output(r, nm, parts);
		break;
	case REC_KIND_COUNT:
		break;
	}
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

static const char *const scorer_names[SCORER_COUNT] = {
	"dot", "general", "concat"
};
static const char *const stage_names[STAGE_COUNT] = {
	"encoding", "scoring", "softmax", "weighted-sum", "concat", "output"
};

const char *trace_scorer_name(enum scorer s)
{
	return (unsigned)s < SCORER_COUNT ? scorer_names[s] : "?";
}

const char *trace_stage_name(enum trace_stage s)
{
	return (unsigned)s < STAGE_COUNT ? stage_names[s] : "?";
}

unsigned trace_scorer_parse(const char *name)
{
	if (strcmp(name, "all") == 0)
		return SCORER_ALL;
	for (int k = 0; k < SCORER_COUNT; k++)
		if (strcmp(name, scorer_names[k]) == 0)
			return 1u << k;
	return 0;
}
