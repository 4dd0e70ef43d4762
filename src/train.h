/* train.h: training the attention model by backpropagation through time.
 *
 * Three parts, one module:
 *   train_pairs.c  the pairs file ("source words ||| target words") into
 *                  word indices and vocabularies (doc/training.md);
 *   train.c        the loss, every gradient, and the optimiser: pure
 *                  arithmetic into memory the caller owns, never printing;
 *   train_write.c  a trained model in the model file format, with numbers
 *                  that read back as exactly the same doubles.
 *
 * The model is the one of doc/model.md.  The loss is the cross-entropy of
 * the teacher-forced decoder: for a pair with target words w_1..w_m the
 * decoder is fed <s>, w_1, .., w_m and must predict w_1, .., w_m, </s>.
 * With several scorers the losses of the scorers are added: they share the
 * embeddings, both RNNs and W_c and W_s, and each has its own weights
 * (general: W_a; concat: W_a and v_a). */
#ifndef ATTN_TRAIN_H
#define ATTN_TRAIN_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "scorer.h"
#include "trace.h"
#include "util.h"

#define TRAIN_MAX_WORDS 64     /* words on one side of a pair */
#define TRAIN_MAX_PAIRS 100000 /* pairs in one file */
#define TRAIN_MAX_THREADS 64   /* threads of one training */

/* ---------------------------------------------------------------- pairs */

struct train_pair {
	int nsrc;
	int ntgt;
	int *src;  /* (nsrc) source word indices */
	int *tgt;  /* (ntgt) target word indices, without <s> and </s> */
	int line;  /* where the pair is in its file, from 1 */
	unsigned char *gold; /* (ntgt, nsrc) gold[j * nsrc + i] is 1 if target
	                        word j is aligned to source word i (from 0);
	                        NULL: the pair has no alignment */
	/* an image and its caption (src/caption.c): the encoder plug-in
	 * that reads input in place of the word encoder (Bahdanau's
	 * architecture's train_pair asks it), src being its cells; NULL for
	 * a sentence pair */
	const struct trace_encoder *enc;
	const void *input;
};

/* A parsed pairs file.  The vocabularies hold words only (emb is NULL):
 * either built from the pairs (source words in first-seen order; target
 * <s>, </s>, then first-seen order) or copied from an --init model. */
struct train_data {
	int n;
	struct train_pair *pairs; /* (n) */
	struct vocab src;
	struct vocab tgt;
	int bos;     /* index of <s> in tgt */
	int eos;     /* index of </s> in tgt */
	int max_src; /* the longest source side */
	int max_tgt; /* the longest target side */
	int ntokens; /* predictions per scorer: the sum of ntgt + 1 */
	int naligned; /* pairs with a gold alignment */
};

/* Parses the pairs text text[0..len) (need not be NUL-terminated) into *d.
 * name is used in messages ("NAME:LINE:COL: expected ..., found ...").
 * With init NULL the vocabularies are built from the pairs; with a model,
 * they are the model's, and a word it does not know is an error.  Returns
 * 0, the caller then frees *d with train_data_free(); or -1 with err filled
 * and *d empty. */
int train_pairs_parse(struct train_data *d, const char *text, size_t len,
		      const char *name, const struct model *init,
		      struct errbuf *err);

/* Reads the pairs file at path ("-": standard input) and parses it. */
int train_pairs_load(struct train_data *d, const char *path,
		     const struct model *init, struct errbuf *err);

void train_data_free(struct train_data *d);

/* ----------------------------------------------------------- parameters */

/* Where each weight lives in one flat vector of every weight: the blocks
 * are the model's parameter table (model_param_table) for the sizes and
 * the scorers of the layout, in the order of the model file. */
struct train_layout {
	int arch;            /* the architecture, an enum arch */
	int E, H, A, L;
	int nsrc;            /* source words */
	int ntgt;            /* target words */
	unsigned scorers;    /* the scorers whose weights it holds */
	int feed;            /* 1: input feeding (Luong's architecture), so
	                        decoder.W_x is (H, E + H) */
	int nblocks;
	struct model_param block[MODEL_MAX_PARAMS]; /* (nblocks) */
	size_t off[MODEL_MAX_PARAMS];
	size_t len[MODEL_MAX_PARAMS];
	size_t total;
};

/* Lays out the weights of a model of sizes E, H, A, L with nsrc source and
 * ntgt target words and the weights of the scorers in the bitmask. */
void train_layout_init(struct train_layout *l, int arch, int E, int H,
		       int A, int L, int nsrc, int ntgt, unsigned scorers);

/* The name of block b as in the model file: "source", "encoder.W_x" ... */
const char *train_block_name(const struct train_layout *l, int b);

/* The index of the block called name, or -1. */
int train_block_find(const struct train_layout *l, const char *name);

/* Points the weight arrays of *view into theta (l->total) and sets its
 * sizes; the words are borrowed from d.  The view owns nothing: never pass
 * it to model_free().  It can be traced (trace_build) or written. */
void train_view(struct model *view, const struct train_layout *l,
		double *theta, const struct train_data *d);

/* -------------------------------------------------- loss and gradients */

/* Scratch memory for the loss of one pair or for greedy decoding, sized
 * for maxn source words and maxT decoder steps. */
struct train_work {
	int H, A, V, maxn, maxT;
	double *h;      /* (maxn + 1, H) h_0 = 0, h_1 .. h_n */
	double *dh;     /* (maxn + 1, H) dL/dh_i */
	double *s;      /* (maxT + 1, H) s_0 = h_n, s_1 .. s_T */
	double *ds;     /* (maxT + 1, H) dL/ds_t */
	struct score_ws sws; /* the scorer's working memory (scorer.h) */
	double *e;      /* (maxn) scores e_t,i, later dL/de_t,i */
	double *alpha;  /* (maxn) attention weights α_t,i */
	double *dalpha; /* (maxn) dL/dα_t,i; in a forward pass, hard
	                   attention's cumulative sums (selection_hard.c) */
	double *cs;     /* (2H) [c_t; s_t] */
	double *dcs;    /* (2H) dL/d[c_t; s_t] */
	double *ht;     /* (H) h̃_t */
	double *dht;    /* (H) dL/dh̃_t, later dL/d(W_c [c_t; s_t]) */
	double *p;      /* (V) output probabilities, later dL/dlogits */
	/* for a scorer that reads α_{t-1} (uses_prev_alpha): each step's
	 * forward pass kept for the backward pass in reverse order */
	double *seq_ws;    /* (maxT, 2 n W + n AUX + 2 W) the scorer's mid,
	                      act, aux and q */
	double *seq_alpha; /* (maxT + 1, maxn) α_0 (one-hot), α_1 .. α_T */
	double *seq_out;   /* (maxT, 3H + V) [c_t; s_t], h̃_t, dL/dlogits */
	double *dprev;     /* (maxn) dL/dα_t carried back to step t */
	double *dprev_next; /* (maxn) dL/dα_{t-1} made at step t */
	/* Bahdanau's architecture: each direction's states and their
	 * gradients, (maxn + 2, H) rows 0 .. n + 1, and a step's vectors */
	double *hf, *hb, *dhf, *dhb;
	double *scy, *dscy; /* (2H + E) [s_t; c_t; y_{t-1}] and its gradient */
	double *dq, *dnext, *dpre, *dc; /* (H) each */
	/* the output layer's matrix transposed, (2H + E, V) W_oᵀ in
	 * Bahdanau's architecture, (H, V) W_sᵀ in Luong's: the weights stay
	 * the same within train_loss, which makes it for attn_matvec_t */
	double *outT;
	double align_weight; /* λ of the guided-alignment term of the loss
	                        (train --align-weight); 0 (as train_work_init
	                        sets it): the cross-entropy alone */
	/* a local window (train --window): an enum window (WINDOW_DEFAULT =
	 * 0, as train_work_init sets it) and its half-width D; then the
	 * step's window lo .. hi (from 1), and for local-p p_t, σ(v_p·
	 * tanh(W_p q)), tanh(W_p q) (H), align_t and the Gaussian (maxn
	 * each), q being the query (s_t in Luong's architecture, s_{t-1} in
	 * Bahdanau's) */
	int window, window_size, wlo, whi;
	double wpos, wsig;
	double *wth, *walign, *wgauss; /* (H), (maxn), (maxn) */
	/* (maxT, 4 + H + 2 maxn) each step's local-p window as above, kept
	 * for the backward pass where it runs after every step's forward
	 * pass (a scorer that reads α_{t-1}, input feeding, Bahdanau's) */
	double *seq_win;
	/* input feeding: dL/dh̃_t that step t + 1's decoder input sent back,
	 * which Luong's step adds to its own (src/arch_luong.c); NULL: none */
	const double *dht_in;
	/* the selection trained, an enum selection: each step's context,
	 * and its own terms of the loss and gradient, come from its class's
	 * training part (src/selection_*.c).  0 (as train_work_init sets
	 * it): the registry's first, soft. */
	int selection;
	/* train --hard (REINFORCE, doc/model.md "Learning it",
	 * src/selection_hard.c), once train_hard_start has set selection
	 * to hard: each teacher-forced step draws l with u from
	 * hard_rng (SplitMix64, one number a step, in the order pairs,
	 * scorers, steps), uses c_t = h_l, and the scores get the
	 * score-function and entropy terms with hard_b[sc], the baseline of
	 * scorer sc, updated after every step.  Both persist across pairs
	 * and epochs: the trainer sets them once (train_hard_start). */
	uint64_t hard_rng;
	double hard_b[SCORER_COUNT];
	double hard_lambda_r, hard_lambda_e;
	/* the draws of a pair's steps kept for the backward pass: l_t (from
	 * 0) and R_t - b, (maxT + 1) each */
	int *hard_l;
	double *hard_adv;
	/* (maxn) an unnormalised window's (local-p's) π_t = a_t / Σ_j a_t,j,
	 * the distribution a step draws from when the window's weights do
	 * not sum to 1 */
	double *hard_pi;
	/* A test hook (tests/check_train.c), NULL otherwise: with hard_fix,
	 * the loss includes the surrogate whose gradient the scores get,
	 * -λ_r A log α_t,l - λ_e H(α_t) a step (π_t for α_t under local-p),
	 * and A, R - b, is written to
	 * hard_fix[hard_nfix++] (hard_fix_replay 0) or read from it (1), up
	 * to hard_fix_cap draws, so that A stays fixed under a central
	 * difference. */
	double *hard_fix;
	size_t hard_nfix, hard_fix_cap;
	int hard_fix_replay;
	/* with hard_fix, through local-p: the least distance of any p_t
	 * drawn through from a whole number, where ⌊p_t⌋ (the window's
	 * place) jumps; the test sets it (to 1) before the loss */
	double hard_pnear;
	/* the index of the largest p_t,k (the first on ties) of the last
	 * output softmax: the predicted word, for the accuracy */
	int ptop;
	/* The gradient paths (src/gradpath.c), 0 and NULL otherwise: with
	 * probe_t >= 1 only step probe_t's cross-entropy has weight (every
	 * other step's dL/dlogits is scaled by 0: train_step_scale), step
	 * probe_t's attention sends its part of dL/dh_i (h_i as that step's
	 * key and value, everything else held) to probe_direct rather than
	 * straight to w->dh (train_weights_back adds it there after), and
	 * the encoder's backward pass keeps each complete dL/dh_i in
	 * probe_total (train_probe_total) before it goes on through h_i;
	 * (maxn + 1, H) each, rows 1..n */
	int probe_t;
	double *probe_direct, *probe_total;
	/* 1: the output layer runs the AVX2 builds of its kernels
	 * (train_simd.h), as train_work_init sets it when the processor
	 * can; 0: the plain ones (the same bits either way) */
	int simd;
};
/* Allocates *w for the sizes of l; the caller frees it with
 * train_work_free(). */
void train_work_init(struct train_work *w, const struct train_layout *l,
		     int maxn, int maxT);
void train_work_free(struct train_work *w);

/* What one pass over the data measured, before the update. */
struct train_stats {
	int epoch;                     /* from 1; 0 before training */
	int epochs;                    /* how many there will be */
	unsigned scorers;              /* the scorers trained */
	double loss;                   /* mean cross-entropy per prediction,
	                                  averaged over the scorers */
	double accuracy;               /* share of teacher-forced predictions
	                                  that are right, over the scorers */
	double loss_of[SCORER_COUNT];  /* the same for each scorer */
	double acc_of[SCORER_COUNT];
	double grad_norm;              /* global norm before clipping */
};

/* The pairs whose gradient, loss and counts one running sum collects:
 * train_loss sums each chunk of TRAIN_CHUNK consecutive pairs (the first
 * chunk, pairs 0 .. TRAIN_CHUNK - 1, then the next) from zero, pair after
 * pair, and adds the chunks' sums in chunk order.  The chunks are the
 * threads' units of work (train_opts.threads), and their size is fixed, so
 * the sums, and the model, are the same bits whatever the number of
 * threads; up to TRAIN_CHUNK pairs make one chunk, one running sum. */
#define TRAIN_CHUNK 64

/* The objective L = sum over the scorers of the mean cross-entropy per
 * prediction, over every pair of d, plus, when w->align_weight λ is not 0,
 * for each target word t of a pair with a gold alignment that links it to
 * the source words G_t, λ times -log Σ_{i in G_t} α_t,i, divided by the same
 * count of predictions (guided alignment).  Writes dL/dtheta into grad (l->total)
 * unless grad is NULL, fills *st if not NULL (all but epoch, epochs and
 * grad_norm), and returns L.  theta is not changed.  Runs in the calling
 * thread alone, summing by chunks (TRAIN_CHUNK) as the trainer's threads
 * do: the same bits as train_epoch with any train_opts.threads. */
double train_loss(const struct train_layout *l, const double *theta,
		  double *grad, const struct train_data *d, unsigned scorers,
		  struct train_work *w, struct train_stats *st);

/* --------------------------------------------------------- the trainer */

enum train_optim { TRAIN_ADAM, TRAIN_SGD };

struct train_opts {
	unsigned scorers;       /* bitmask of (1u << SCORER_x) */
	int epochs;             /* full passes over the pairs, one update each */
	double lr;              /* learning rate */
	double weight_decay;    /* decoupled: each update first scales the
	                           weights by 1 - lr * weight_decay */
	double clip;            /* largest global gradient norm; 0: no clip */
	enum train_optim optim;
	double beta1, beta2, eps; /* Adam */
	uint64_t seed;          /* for the initial weights */
	int freeze_shared;      /* 1: update only the weights the scorers
	                           trained own; keep every other as it is */
	int positions;          /* L for a new model with location weights;
	                           0: the longest source side */
	double align_weight;    /* λ of the guided-alignment term (see
	                           train_loss); 0: none */
	int window, window_size; /* train --window: an enum window, and D */
	int selection;          /* an enum selection, SELECTION_DEFAULT
	                           (soft) the default; another (train --hard:
	                           REINFORCE, either architecture, every
	                           scorer, input feeding, every window) is
	                           started by its train_start with seed */
	int threads;            /* the most threads that train_epoch and
	                           train_run share the pairs among, a chunk
	                           (TRAIN_CHUNK) each at a time; 0 or 1: the
	                           calling thread alone.  The model is the
	                           same bits whatever it is.  With hard, one
	                           thread: REINFORCE's draws and baselines
	                           run on from pair to pair in order */
};

/* The defaults, the recipe of data/toy4.model: all scorers, 3000
 * epochs, Adam (0.9, 0.999, 1e-8) with learning rate 0.01, weight decay
 * 0.2, clip 5, seed 1. */
void train_opts_default(struct train_opts *o);

struct trainer {
	struct train_layout lay;
	double *theta; /* (lay.total) the weights */
	double *grad;  /* (lay.total) */
	double *m1;    /* (lay.total) Adam's first moment */
	double *m2;    /* (lay.total) Adam's second moment */
	unsigned char *frozen; /* (lay.nblocks) 1: the block is not updated */
	long step;     /* updates made */
	struct train_work work;
	/* the self/cross-attention weights of the --init model (each (E, E),
	 * or NULL): the translation loss does not use them, so they are kept
	 * as they were and written into the trained model (train_view) */
	double *mha[MHA_GROUPS][MHA_NW];
	/* train_epoch's threads beyond the calling one (which uses work),
	 * allocated by the first epoch that runs them: each one's scratch,
	 * and the gradients of the chunks summed and not yet added */
	int nthreads;            /* threads allocated for, from 1 */
	struct train_work *peer; /* (nthreads - 1) */
	double *chunk;           /* (1 or 4 nthreads, lay.total): one with
	                            one thread, four a thread with more;
	                            NULL until a chunk after the first
	                            needs it */
};

/* Sets up *t for data d with sizes E, H, A and an "attention first" start
 * drawn from seed:
 *   embeddings             uniform in [-1, 1]
 *   W_x of both RNNs, general W_a, concat W_a and v_a, W_s, and the half of
 *   W_c that reads c_t     uniform in [-1/sqrt(fan-in), 1/sqrt(fan-in)]
 *   encoder W_h            0: each h_i starts as its own word alone
 *   decoder W_h            the identity: the first query s_1 starts close
 *                          to h_n, and each query close to the one before
 *   the half of W_c that reads s_t, both biases   0: at first the output
 *                          can only be reached through the context c_t
 * The caller frees *t with train_free(). */
void train_init_random(struct trainer *t, const struct train_data *d,
		       int E, int H, int A, int L, unsigned scorers,
		       uint64_t seed);

/* train_init_random for a model of architecture arch (an enum arch; H
 * even for bahdanau).  Bahdanau's blocks start the same way: W_x of both
 * encoder directions, W_init, W_y, W_c and W_o drawn, both W_h 0, the
 * decoder's W_s the identity, the biases 0. */
void train_init_random_arch(struct trainer *t, const struct train_data *d,
			    int arch, int E, int H, int A, int L,
			    unsigned scorers, uint64_t seed);

/* train_init_random for Luong's architecture with input feeding (train
 * --input-feeding): the decoder reads [y_{t-1}; h̃_{t-1}], h̃_0 = 0, and
 * its W_x (H, E + H) starts uniform in ±1/sqrt(E + H). */
void train_init_random_feed(struct trainer *t, const struct train_data *d,
			    int E, int H, int A, int L, unsigned scorers,
			    uint64_t seed);

/* Sets up *t with the weights of m, whose vocabularies d was parsed with
 * (train_pairs_parse with init m), and the weights of the scorers that m
 * lacks drawn from seed as train_init_random does (their L is m's, or L
 * when m has none).  The layout holds those of scorers, and with
 * keep_others m's other scorers too (the caller then freezes the shared
 * weights, so that theirs stay right: train_freeze_shared); without it
 * they are left out, as the training would change the states they were
 * learnt on.  m's self/cross-attention weights, which no loss here
 * trains, are copied into t->mha as they are. */
void train_init_model(struct trainer *t, const struct train_data *d,
		      const struct model *m, unsigned scorers, int L,
		      uint64_t seed, int keep_others);

/* Keeps every block that the scorers in the bitmask do not own as it is:
 * no gradient step and no weight decay (train --freeze-shared). */
void train_freeze_shared(struct trainer *t, unsigned scorers);

void train_free(struct trainer *t);

/* Returns 1 if every weight of t is finite and no larger in magnitude than
 * MODEL_MAX_WEIGHT (so that the model file can be read back), else 0. */
int train_weights_ok(const struct trainer *t);

/* Called after each epoch with its statistics; return non-zero to stop. */
typedef int (*train_progress_fn)(const struct train_stats *st, void *ctx);

/* One epoch: the loss and gradient over all of d, on up to o->threads
 * threads (t->work's settings set from o; the other threads' scratch
 * allocated at the first epoch that needs them), the gradient clipped to
 * o->clip, and one update.  Fills *st. */
void train_epoch(struct trainer *t, const struct train_data *d,
		 const struct train_opts *o, struct train_stats *st);

/* Runs o->epochs epochs, calling progress (if not NULL) after each; a
 * non-zero return from it stops the training early.  Then measures the
 * final weights with one more pass (no update) into *last, whose epoch is
 * the number of epochs run.  Returns that number. */
int train_run(struct trainer *t, const struct train_data *d,
	      const struct train_opts *o, train_progress_fn progress,
	      void *ctx, struct train_stats *last);

/* ------------------------------------------------------- the results */

/* Greedy decoding with scorer sc of the source words src (n), as the trace
 * does it: until </s> or min(2n + 2, max, w->maxT) words.  Writes the
 * predicted words, </s> included, to out (max) and, if alpha is not NULL,
 * each step's attention weights to alpha (max, n).  Returns the number of
 * steps, or 0 if n is not from 1 to w->maxn.  m may be a view. */
int train_greedy(const struct model *m, const int *src, int n,
		 int sc, int *out, int max, double *alpha,
		 struct train_work *w);

/* Counts the pairs of d that greedy decoding with sc reproduces exactly
 * (the target words, then </s>). */
int train_count_exact(const struct model *m, const struct train_data *d,
		      int sc, struct train_work *w);

/* Alignment accuracy: for every pair of d with a gold alignment and every
 * target word of it aligned to some source word, whether the largest
 * attention weight of its teacher-forced step with scorer sc (the step
 * that predicts it) is on a source word it is aligned to.  Returns how
 * many are, and sets *total to how many were counted (0: d has no
 * alignment).  Pairs longer than w was sized for, or than the location
 * scorer's positions, are skipped.  m may be
 * a view. */
int train_align_count(const struct model *m, const struct train_data *d,
		      int sc, struct train_work *w, int *total);

/* α (n) = softmax(e), as train_softmax computes it, without the log; the
 * windows' training parts (src/window_*.c) make their weights with it. */
void train_softmax_weights(double *alpha, const double *e, int n);

struct window_class;

/* Whether training can use the window class wc (src/window.h): 0 if it
 * has a training part; else -1 with err set to "the window NAME cannot
 * be trained: ...".  train refuses such a window by name, and never
 * trains another in its place. */
int train_window_check(const struct window_class *wc, struct errbuf *err);

/* 0 if the architecture class a (src/arch.h) has a training part (its
 * train_* hooks); else -1 with err set to "the architecture NAME cannot
 * be trained: ...": one training cannot handle is refused by name. */
struct arch_class;
int train_arch_check(const struct arch_class *a, struct errbuf *err);

/* ------------------------------------------------ hard attention */

#define TRAIN_HARD_LAMBDA_R 0.1   /* λ_r, as selection_hard.c */
#define TRAIN_HARD_LAMBDA_E 0.002 /* λ_e */
#define TRAIN_HARD_DECAY 0.9      /* b <- 0.9 b + 0.1 R */

/* p (n) = softmax(x), the output softmax of training (p may be x): the
 * same bits as exp(x_k - max) for each k, summed in index order, each
 * divided by the sum, where max is the first largest x_k.  Returns
 * max + log of the sum; stores in *top the index of the first largest
 * p_k, as attn_argmax(p, n) would find it.  n >= 1. */
double train_softmax(double *p, const double *x, int n, int *top);

/* Turns on REINFORCE in w (src/selection_hard.c): selection = hard,
 * hard = 1, the generator's state seed, every baseline 0, λ_r and λ_e
 * the values above. */
void train_hard_start(struct train_work *w, uint64_t seed);

/* Whether train --hard can train the scorers with architecture arch
 * (every scorer, in both architectures, through every window). */
int train_hard_supported(int arch, unsigned scorers);

/* The ascent direction on the scores of one step (src/selection_hard.c;
 * n words, weights alpha, the drawn word l, reward R, baseline b): out_j
 * = λ_r (R - b)(onehot_l,j - α_j) - λ_e α_j (log α_j + H), H = -Σ α log
 * α (0 log 0 = 0).  out must not be alpha. */
void train_hard_score_grad(double *out, const double *alpha, int n, int l,
			   double R, double b, double lambda_r,
			   double lambda_e);

/* ------------------------------------------------------------- the PRNG */

/* splitmix64: returns the next 64 random bits of the state *s. */
uint64_t train_rand_next(uint64_t *s);

/* A double uniform in [lo, hi), from 53 random bits. */
double train_rand_uniform(uint64_t *s, double lo, double hi);

/* ---------------------------------------------------------- the writer */

/* Writes m (a view is fine) in the model file format (doc/model-format.md)
 * with every number in its shortest form that reads back as the same
 * double.  comment (may be NULL) opens the file, each of its lines
 * prefixed with "# ".  Returns 0, or -1 if the stream reports an error. */
int train_write_model(FILE *out, const struct model *m, const char *comment);

#endif
