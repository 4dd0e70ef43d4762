/* trace.h: the recorded trace, the product that every front end renders.
 *
 * trace_build() runs the model on one sentence and records each step of the
 * arithmetic as a struct trace_rec: its stage, operand vectors, result,
 * and the term-by-term expansion of its dot product where it has one;
 * trace_names() gives its symbol, formula and operand names.  The text and
 * JSON formatters and the TUI walk these records; none of them recomputes
 * anything.  Nothing here prints. */
#ifndef ATTN_TRACE_H
#define ATTN_TRACE_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"
#include "scorer.h"
#include "util.h"

struct train_work;

#define TRACE_MAX_TOKENS 64    /* words in a source or target sentence */
#define TRACE_MAX_STEPS 100    /* decoder steps */

/* The stages.  A decoder step's come in the order its architecture's
 * step program records them (trace_stages()); this is Luong's. */
enum trace_stage {
	STAGE_ENCODING,
	STAGE_DECODER, /* the decoder reads y_{t-1} and updates its state s_t */
	STAGE_SCORING,
	STAGE_SOFTMAX,
	STAGE_WEIGHTED_SUM,
	STAGE_CONCAT,
	STAGE_OUTPUT,
	STAGE_COUNT,
	/* the stages of self-attention's program alone (src/self.c), which
	 * uses scoring, softmax, weighted sum (Z), concat and output too */
	STAGE_INPUT = STAGE_COUNT, /* X = embeddings + positional encoding */
	STAGE_PROJECTION,          /* Q, K and V */
	STAGE_ALL_COUNT
};

enum trace_kind {
	REC_EMBED,       /* x_i or y_{t-1}: a word's embedding */
	REC_RNN,         /* h_i or s_t: one RNN step */
	REC_SCORE,       /* e_t,i: one score, with its dot-product terms */
	REC_SCORES,      /* e_t: all n scores */
	REC_SOFTMAX,     /* α_t: max, shifts, exps, sum, weights */
	REC_WEIGHTED,    /* α_t,i·h_i */
	REC_CONTEXT,     /* c_t */
	REC_CONCAT,      /* [c_t; s_t] */
	REC_ATTENTIONAL, /* h̃_t */
	REC_OUTPUT,      /* p_t and the predicted word */
	/* the records of Bahdanau's architecture (src/arch_bahdanau.c) */
	REC_FORWARD,     /* →h_i: one step of the forward encoder RNN */
	REC_BACKWARD,    /* ←h_i: one step of the backward encoder RNN */
	REC_ANNOTATION,  /* h_i = [→h_i; ←h_i] */
	REC_INIT,        /* s_0 = tanh(W_init·←h_1) */
	REC_QUERY,       /* the query of step t, s_{t-1} */
	/* the records of the local windows (src/window_local*.c) */
	REC_POSITION,    /* local-p's p_t = 1 + (n-1)·sigmoid(v_p·tanh(W_p·q)) */
	REC_WINDOW,      /* p_t, and the positions of the window around it */
	REC_GAUSS,       /* local-p: a_t,j = align_j·exp(-(j-p_t)²/(2σ²)) */
	REC_SAMPLE,      /* hard attention's choice l and c_t = h_l
	                    (src/selection_hard.c) */
	REC_EXACT,       /* hard attention's exact view: log p(y_t | l) for
	                    every l, and the Jensen gap */
	REC_GRADIENT,    /* hard --gradient: REINFORCE's pieces */
	REC_SAMPLES,     /* hard --samples: Monte Carlo score gradients */
	REC_GRADPATH,    /* --gradient-paths: dL_t/dh_i by path
	                    (src/gradpath.c), after every step */
	REC_PATCH,       /* attention over an image (src/caption.c): the
	                    annotation a_i of the 2×2 patch of cell i */
	/* the matrix records of self-attention (src/self.c), below */
	REC_X,           /* X = E + PE */
	REC_PROJECT,     /* Q = X W_Qᵀ, K, V, and the output C W_Oᵀ */
	REC_HEAD_SCORES, /* S_h = Q_h K_hᵀ / √d_k */
	REC_MASK,        /* S_h with -inf above the diagonal (--causal) */
	REC_ROW_SOFTMAX, /* A_h: the softmax of each row */
	REC_HEAD_Z,      /* Z_h = A_h V_h */
	REC_HEADS_CONCAT, /* C = [Z_1 Z_2] */
	REC_KIND_COUNT
};

/* Every record carries its operands: each a vector or matrix with its
 * role, its name and its shape.  Names are templates, filled in when a
 * front end prints them (trace_names): "{t}" is the decoder step, "{t-1}"
 * the step before, "{i}" the source position, "{i-1}" the one before
 * ("{i+1}" the one after), "{n}"
 * the source length, "{H}" the hidden size, "{h}" a record's head, "{q}" the query the architecture scores with (s_t in
 * Luong's), "{w}" the record's word and "{x}" the source word at {i}.  So
 * "W_a·h_{i}" names W_a·h_2 in the record of e_1,2.  A formatter walks
 * the operands without knowing which scorer or architecture made them,
 * and finds the one it needs by its id (trace_op), never by its
 * position: a record may list its operands in any order.  A template
 * may also name an operand: "{=p}" is operand p's name where names are
 * printed and its value where values are (trace_expand_values).
 *
 * The operands of each kind, by id, in the order recorded; (in
 * parentheses) one that has no id, which no front end looks for.
 * The records that every architecture makes:
 *   REC_EMBED        none
 *   REC_RNN          W_x_x  W_h_h  b  pre (the pre-activation sum)
 *                    prev (h_prev; s_0 = h_n for the decoder's first
 *                    step); input feeding adds feed, h̃_{t-1}
 *   REC_SCORE        the scorer's own (its record() in src/score_*.c)
 *   REC_SCORES       none
 *   REC_SOFTMAX      e  max (len 1)  shifted = e - max  exp = exp(e - max)
 *                    sum (len 1)
 *   REC_WEIGHTED     weight, α_t,i (len 1)  h, h_i
 *   REC_CONTEXT      terms, the n weighted terms, (n, H) row-major
 *   REC_CONCAT       (c_t) (s_t)
 *   REC_ATTENTIONAL  W_c_concat, W_c·[c_t; s_t]
 *   REC_OUTPUT       logits, W_s·h̃_t (V)
 *
 * Bahdanau's (src/arch_bahdanau.c):
 *   REC_FORWARD, REC_BACKWARD  as REC_RNN, H/2 numbers each
 *   REC_ANNOTATION   (→h_i) (←h_i)
 *   REC_INIT         W_init_h, W_init·←h_1  (←h_1)
 *   REC_QUERY        none; its result is s_{t-1}
 *   REC_RNN          W_y_y  U_s  C_c (C·c_t)  b  pre  (s_{t-1})  (c_t)
 *   REC_CONCAT       (s_t) (c_t) (y_{t-1})
 *   REC_OUTPUT       logits, W_o·[s_t; c_t; y_{t-1}] (V)
 *
 * The patch encoder's (src/caption.c), in the encoding stage, i the
 * cell from 1 in reading order:
 *   REC_PATCH        pixels, patch_i, the cell's 4 pixels row-major
 *                    W_patch_x, W_patch·patch_i  (b, b_patch)  (P, P_i)
 *                    pre, their sum; result h_i = tanh(pre) (H)
 *   REC_INIT         mean, h̄ = Σ_i h_i / n  W_init_mean, W_init·h̄;
 *                    result s_0 = tanh(W_init·h̄)
 * The local windows' (src/window_local*.c), in the softmax stage:
 *   REC_POSITION     (the query) (W_p, (H, H)) (v_p)  W_p_q  tanh_W_p_q
 *                    v_p_tanh (1)  sigmoid (1); result p_t (1); terms:
 *                    v_p and tanh(W_p·q)
 *   REC_WINDOW       p, p_t (1)  window, the first and last position (2)
 *                    D (1); result the window's positions (len).  Its
 *                    formula names p and D ("⌊{=p}⌋ ± {#D}"); its note,
 *                    if any, says how the window made p_t (local-m's
 *                    "p_{t} = min({t}, {n})"), note_op being p
 *   REC_SOFTMAX      as above over the window only: win_lo .. win_hi
 *                    (entries outside it 0)
 *   REC_GAUSS        align (n)  gauss, the Gaussian factors (n)  p (1)
 *                    sigma = D/2 (1)  sum, of the weights (1);
 *                    result a_t (n), 0 outside the window
 * Self-attention's (src/self.c; trace.prog TRACE_SELF).  Each record is
 * one matrix: its result has rows rows (row-major, len / rows columns),
 * the rows run over row_axis and the columns over result_axis (tokens:
 * AXIS_SOURCE, the source words; AXIS_TARGET, the target words, which
 * cross-attention's queries are; AXIS_NONE: features).  key is the
 * result's plain name in JSON, head the head from 1 (0: both).  In the
 * order recorded; "q" below is the query tokens (the source words, or the
 * target words for cross-attention), "k" the source words, d = d_model:
 *   REC_X            X (k, d), and for cross-attention first X_q (q, d):
 *                    emb (emb_q), the embeddings  PE (PE_q; absent with
 *                    --no-position)
 *   REC_PROJECT      stage projection: Q (q, d), K (k, d), V (k, d);
 *                    stage output: output (q, d).  (X, or C)  (the
 *                    weight W (d, d)); matmul MATMUL_ABT: row i, column j
 *                    is Σ_c X[i][c]·W[j][c]
 *   REC_HEAD_SCORES  S (q, k) of head h: Q_h (q, d_k) and K_h (k, d_k),
 *                    the head's features h·d_k … of Q and K;  QK (q, k)
 *                    their products;  scale (1) √d_k, the divisor;
 *                    MATMUL_ABT of Q_h and K_h, divided by scale
 *   REC_MASK         S_masked (q, k), only with --causal: scores, S;
 *                    -inf where the key comes after the query
 *   REC_ROW_SOFTMAX  A (q, k): scores, those it weighs (S, or S_masked)
 *                    max (q, 1)  shifted = scores - max (q, k)
 *                    exp (q, k), 0 where masked  sum (q, 1)
 *   REC_HEAD_Z       Z (q, d_k): A  V_h (k, d_k); MATMUL_AB: row i,
 *                    column c is Σ_j A[i][j]·V_h[j][c]
 *   REC_HEADS_CONCAT concat (q, d): (Z of head 1) (Z of head 2)
 * -inf is stored as -INFINITY (JSON null, "-inf" in CSV, "−∞" in text).
 * Hard attention's (src/selection_hard.c), after the soft REC_CONTEXT:
 *   REC_SAMPLE       (α_t)  cumsum  (Σ_i α_t,i·h_i, the soft context it
 *                    replaces)  u (len 1; sample only); i is the chosen
 *                    l, result c_t = h_l.  A window whose weights are
 *                    not a distribution (window_class.unnormalised:
 *                    local-p) has instead (a_t)  sum, Σ_j a_t,j (len 1)
 *                    pi, π_t = a_t / Σ a  cumsum of π  (the soft
 *                    context)  u; then REC_EXACT, REC_GRADIENT and
 *                    REC_SAMPLES are under π_t, and REC_GRADIENT adds
 *                    score_function_p and entropy_term_p, the terms'
 *                    parts on p_t (len 1)
 *   REC_EXACT        (teacher-forced traces) (α_t)  log_p, log p(y_t | l),
 *                    l = 1..n  expected, E_α[log p(y_t | l)] (len 1)
 *                    log_marginal, log Σ_l α_t,l p(y_t | l) (len 1);
 *                    word is y_t, result the Jensen gap (len 1).  In
 *                    Bahdanau's architecture the steps are not
 *                    independent: it is conditioned on the sampled past
 *                    (its title says so)
 *   REC_GRADIENT     (α_t)  R = log p(y_t | l)  baseline, b  advantage,
 *                    R - b  score_function, λ_r·(R - b)·(onehot_l - α)
 *                    (n)  entropy, of α (len 1)  entropy_term,
 *                    λ_e·∂entropy/∂e (n)  backprop, ∂R/∂c_t (H); result
 *                    the gradient on the scores, score_function +
 *                    entropy_term (n)
 *   REC_SAMPLES      u, the N u's  l, the N l's (from 1)  exact, the exact
 *                    ∂E_α[log p]/∂e (n)  estimate, the Monte Carlo
 *                    estimate without a baseline (n)  estimate_baseline,
 *                    with b (n)  variance, variance_baseline (len 1,
 *                    summed over j); result estimate_baseline
 * The gradient paths' (src/gradpath.c), one a run after all the other
 * records, t the step of L_t, word y_t:
 *   REC_GRADPATH     total, dL_t/dh_i (n, H)  direct, its part through
 *                    step t's attention (n, H)  recurrence, the rest,
 *                    total - direct (n, H)  direct_norm, ‖direct‖ (n)
 *                    recurrence_norm (n)  loss, L_t (len 1); result
 *                    ‖total‖ (n)
 */
#define TRACE_MAX_OPS 10

/* What a vector's entries run over, so a front end can name each entry's
 * word: features (a state, a weight), the source positions (e_t, α_t),
 * or the target vocabulary (the logits, p_t). */
enum op_axis { AXIS_NONE, AXIS_SOURCE, AXIS_VOCAB,
	       AXIS_TARGET /* the target words, tr->tgt */ };

/* How a matrix record's result is the product of two of its operands,
 * A = ops[term_ops[0]] and B = ops[term_ops[1]] (divided by *divisor if
 * set): none, A·Bᵀ or A·B. */
enum trace_matmul { MATMUL_NONE, MATMUL_ABT, MATMUL_AB };

enum op_role {
	OP_INPUT,  /* computed elsewhere: s_t, h_i */
	OP_WEIGHT, /* a weight of the model: b, v_a, a row of W */
	OP_MID     /* an intermediate result of this record */
};

struct trace_operand {
	const double *v;  /* (len) points into the trace's storage */
	int len;
	int rows;         /* the shape: rows of len / rows numbers */
	int input;        /* 1: role OP_INPUT or OP_WEIGHT; 0: OP_MID */
	enum op_role role;
	enum op_axis axis; /* a matrix's: its columns' */
	enum op_axis row_axis; /* a matrix's rows' (self-attention's) */
	const char *name; /* template: "W_a·h_{i}" */
	const char *key;  /* the plain name of an intermediate in JSON
	                     ("W_a_h"), or NULL */
	const char *id;   /* its name within its record kind, by which a
	                     reader finds it (trace_op): the key when it
	                     has one, else set by the recorder ("e", "max");
	                     never printed.  NULL: found by no reader */
	int scalar;       /* 1: one number by its definition (R, a variance),
	                     which JSON writes as a number; 0: a list, even
	                     of one number (a vector when H = 1) */
};

/* A record holds numbers, where they belong, and the templates of its
 * names; the names themselves ("h_1", "s_1·h_2", "W_x·x_1") are made by
 * trace_names() when a front end prints them.  JSON prints none, and a
 * batch trace has thousands of records a sentence pair. */
struct trace_rec {
	enum trace_kind kind;
	enum trace_stage stage;
	int run;          /* index into trace.runs; -1 for the encoder */
	int t;            /* decoder step from 1; 0 in the encoder */
	int i;            /* source position from 1; 0 when none */
	int word;         /* REC_EMBED: the word; REC_OUTPUT: the prediction;
	                     -1 otherwise.  Source words for the encoder,
	                     target words for the decoder. */
	const char *title;   /* plain words before the symbol in text, as
	                        learners call it ("the context vector"), or
	                        NULL; a matrix record's: a line said before
	                        it ("softmax of each row") */
	const char *symbol;  /* templates of its names */
	const char *formula;
	int nops;
	struct trace_operand ops[TRACE_MAX_OPS];
	const double *result; /* (len) */
	int len;
	enum op_axis result_axis;
	const double *terms;  /* (nterms, 2): the pairs a_k, b_k whose products
	                         sum to a REC_SCORE's result; NULL otherwise */
	int nterms;
	int term_ops[2];      /* the operands the factors come from, or -1 */
	const double *divisor; /* (1) the sum of the terms is divided by it
	                          (scaled), or NULL */
	const char *note;     /* a template said before the record with the
	                         values of operand note_op ("s_0 = h_{n}, the
	                         last encoder state"), or NULL */
	int note_op;
	int win_lo, win_hi; /* REC_SOFTMAX of a local window: the positions
			       (from 1) it ran over; 0, 0 for all */
	/* a matrix record's (self-attention's); 1, AXIS_NONE, 0, NULL and
	 * MATMUL_NONE in every other */
	int rows;             /* the result's rows */
	enum op_axis row_axis;
	int head;             /* the head from 1, or 0 */
	const char *key;      /* the result's plain name in JSON ("Q") */
	enum trace_matmul matmul;
};

/* The names of one record, as every front end shows them. */
struct trace_names {
	char symbol[48];  /* "h_1", "e_1,2", "α_1", "[c_1; s_1]", "h̃_1" */
	char formula[96]; /* "s_1·h_2", "tanh(W_c·[c_1; s_1])" ... */
	char op[TRACE_MAX_OPS][64]; /* the operands', e.g. "W_x·x_1" */
};

/* How a trace attends, besides its architecture (the model's) and its
 * scorer (the run's): the other two axes of a variant.  Each is a
 * registry like the scorers': the window (src/window.h) decides which
 * source words a step may weigh and how, the selection
 * (src/selection.h) how the weights make the context.  A NULL cfg is
 * TRACE_CFG_DEFAULT: global and soft, Luong's (2015) global attention. */
struct trace_cfg {
	int window;        /* an enum window; WINDOW_DEFAULT (global) is 0 */
	int window_size;   /* D, a local window's half-width */
	int selection;     /* an enum selection: SELECTION_soft, ... */
	unsigned long long seed; /* a sampling selection's generator */
	int hard_rule;     /* hard: 0 samples l ~ α, 1 takes the argmax */
	int hard_gradient; /* hard, teacher-forced: record REINFORCE's pieces */
	int hard_samples;  /* hard, teacher-forced: N Monte Carlo samples of
	                      the score gradient, or 0 */
	int grad_paths;    /* teacher-forced: record the gradient paths of
	                      L_t at step t (src/gradpath.h); -1 the last
	                      step, 0 none */
};

#define TRACE_CFG_DEFAULT { 0, 1, 0, 0, 0, 0, 0, 0 }

struct trace_run {
	int scorer;       /* an enum scorer */
	int nsteps;
	int first_rec;    /* index of the run's first record in trace.recs */
	int nrecs;
	int *input;       /* (nsteps) target word fed at step t = k + 1 */
	int *pred;        /* (nsteps) predicted target word at step k + 1 */
	int *step_first;  /* (nsteps) index of step k + 1's first record */
	int stopped;      /* greedy: 1 if it predicted </s>, 0 if it hit the
	                     step limit */
	const double *weights; /* (n) the weights the last step made its
	                          context with (trace_attend) */
	unsigned long long rng; /* hard: the run's SplitMix64 state, set to
	                           cfg.seed at its first step */
	unsigned long long mc_rng; /* hard --samples: the Monte Carlo stream,
	                              set to ~cfg.seed at the first step */
	double baseline;  /* hard --gradient: b, 0 before the first step */
};

/* What self-attention's program ran with (src/self.c). */
struct trace_self {
	int cross;    /* 1: queries from the target words tgt */
	int causal;   /* 1: the causal mask */
	int position; /* 1: the positional encoding was added */
	int heads;    /* h */
	int d, dk;    /* d_model and d_k = d_v = d / h */
	unsigned shown; /* the heads recorded: bit h - 1 for head h */
};

enum trace_prog { TRACE_TRANSLATE, TRACE_SELF };

/* An encoder plug-in: what turns a trace's input (tr->input) into the
 * states attention reads, in place of the architecture's word encoder;
 * the architecture's step program decodes from them as from h_1 .. h_n.
 * src/caption.c's patch encoder reads an image.  encode records the
 * encoder and returns the n states (n, H); start records and returns
 * s_0 (H).  Both record into the encoding stage and never print. */
struct fmt_buf;

struct trace_encoder {
	const char *name;    /* "patch": the text header, JSON's "encoder_kind" */
	const char *summary; /* one line for the text header */
	const char *items;   /* what the n source items are: "cells" */
	const double *(*encode)(struct trace *tr);
	const double *(*start)(struct trace *tr, const double *Hs);
	/* training (src/train_part.h's work space): encodes input into
	 * w->h rows 1..n and s_0 into w->s row 0, as encode and start do;
	 * and back from dL/dh_i (w->dh rows 1..n) and dL/ds_0 (w->ds row
	 * 0), adding to the gradient g of the encoder's weights */
	void (*train_encode)(const struct model *m, const void *input, int n,
			     struct train_work *w);
	void (*train_back)(struct model *g, const struct model *m,
			   const void *input, int n, struct train_work *w);
	/* the stepper's narration (view.c) of the encoding of item i (from
	 * 1), numbers with prec digits; NULL: the architecture's */
	void (*narrate)(FILE *f, const struct trace *tr, int i, int prec);
	/* the JSON trace's "input" value (fmt_json.c), one line: what the
	 * encoder read, e.g. the image's file values; NULL: none */
	void (*json_input)(struct fmt_buf *b, const struct trace *tr);
};

struct trace {
	const struct model *m; /* borrowed; must outlive the trace */
	int n;              /* source length */
	int *src;           /* (n) source word indices */
	int ntgt;           /* target length, 0 when decoding greedily */
	int *tgt;           /* (ntgt) target word indices, or NULL */
	int max_steps;      /* the greedy step limit that applied */
	struct trace_cfg cfg; /* the window and the selection */
	int nruns;
	struct trace_run runs[SCORER_COUNT];
	int arch;           /* the model's architecture, an enum arch */
	int query_off;      /* the query of step t is s_{t + query_off} */
	int enc_first_rec;  /* the encoder's records */
	int enc_nrecs;
	int nrecs;
	struct trace_rec *recs; /* (nrecs) in the order they were computed */
	/* storage that the records point into */
	int cap_recs;
	double **blocks;    /* blocks of doubles that never move */
	int nblocks;
	int cap_blocks;
	size_t last_used;   /* doubles handed out from the last block */
	size_t last_size;   /* doubles in the last block */
	size_t arena_size;  /* doubles in all the blocks */
	/* which program made the records: trace_build()'s translation, or
	 * self-attention's (self_build(): n source words src, and for
	 * cross-attention ntgt target words tgt as the queries; no runs) */
	enum trace_prog prog;
	struct trace_self self;
	/* the encoder plug-in and what it reads (trace_build_enc), or NULL
	 * for the architecture's word encoder */
	const struct trace_encoder *enc;
	const void *input;
	/* frees input in trace_free() when the trace owns it (an image read
	 * for it, caption_trace_file()); NULL when input is borrowed */
	void (*input_free)(void *input);
};

/* Runs model m on the source word indices src[0..n) and records the trace
 * into *tr.  scorers is a bitmask of (1u << SCORER_x) and the runs come in
 * the enum's order; cfg chooses the window and the selection (NULL: the
 * defaults).  With tgt (ntgt >= 1 words) the decoder is teacher-
 * forced; with tgt NULL it decodes greedily until it predicts </s> or
 * reaches min(2n + 2, TRACE_MAX_STEPS) steps.  Returns 0, or -1 with err
 * filled when a length is out of range.  The caller owns *tr and releases
 * it with trace_free(); m must outlive it. */
int trace_build(struct trace *tr, const struct model *m, const int *src,
		int n, const int *tgt, int ntgt, unsigned scorers,
		const struct trace_cfg *cfg, struct errbuf *err);

/* trace_build() with the encoder plug-in enc reading input in place of
 * the architecture's word encoder: src (n) are still the source "words"
 * the front ends name the states by (an image's cells).  input must
 * outlive the trace. */
int trace_build_enc(struct trace *tr, const struct model *m,
		    const struct trace_encoder *enc, const void *input,
		    const int *src, int n, const int *tgt, int ntgt,
		    unsigned scorers, const struct trace_cfg *cfg,
		    struct errbuf *err);

void trace_free(struct trace *tr);

/* Fills *nm with the names of record r of trace tr.  A name too long for
 * its field (a long word in "emb(word)") is cut short. */
void trace_names(const struct trace *tr, const struct trace_rec *r,
		 struct trace_names *nm);

/* trace_names() for a front end that prints only some of them: parts is
 * a mask of the TRACE_NAME_ values, and the names not asked for may be
 * left empty ("").  A text trace prints about half of them. */
enum {
	TRACE_NAME_SYMBOL = 1,
	TRACE_NAME_FORMULA = 2,
	TRACE_NAME_OPS = 4,
	TRACE_NAME_ALL = 7
};
void trace_names_part(const struct trace *tr, const struct trace_rec *r,
		      struct trace_names *nm, unsigned parts);

/* The weights step t of run made its context with: the REC_GAUSS
 * record's result if the window has one (local-p), else the softmax's. */
const double *trace_weights(const struct trace *tr, int run, int t);

/* 1 if a decoder step depends on the attention of the steps before it
 * (Bahdanau's architecture: c_{t-1} made s_{t-1}; input feeding:
 * h̃_{t-1} enters s_t), so that under hard attention teacher-forced steps
 * are conditioned on the earlier draws; 0 in Luong's without input
 * feeding. */
int trace_steps_chained(const struct trace *tr);

/* The symbol of the weights a step makes its context with, for the front
 * ends to name them by: "α", or "a" for a window whose weights are not
 * the softmax's (local-p's a_t = align_t × the Gaussian). */
const char *trace_weight_symbol(const struct trace *tr);
/* The word that entry k (from 0) of an axis stands for, or NULL for
 * AXIS_NONE (features). */
const char *trace_axis_word(const struct trace *tr, enum op_axis axis, int k);

/* Entry (row, col), from 0, of matrix record r, as a record of its own
 * whose names trace_names() fills: in its templates "{i}" is row + 1,
 * "{i-1}" row, "{t}" col + 1, "{w}" the row's word and "{h}" the head.
 * row may be an operand's row past the result's rows, which has no
 * word ({w} must not be used then). */
void trace_cell(const struct trace *tr, const struct trace_rec *r, int row,
		int col, struct trace_rec *cell);

/* The operand of r whose plain name (key) is key, or NULL. */
const struct trace_operand *trace_op_key(const struct trace_rec *r,
					 const char *key);

/* The operand of r named id (its id, the table above), or NULL if r has
 * none: so a front end finds an operand by its name, never by its
 * position, and a record may list its operands in any order. */
const struct trace_operand *trace_op(const struct trace_rec *r,
				     const char *id);

/* The index in r->ops (and in trace_names' op) of the operand named id,
 * or -1. */
int trace_op_at(const struct trace_rec *r, const char *id);

/* Returns the index of the run of scorer sc in tr, or -1 if tr has none. */
int trace_run_of(const struct trace *tr, int sc);

/* Returns the first record of the given kind for (run, t, i), or NULL.
 * run is -1 for the encoder. */
const struct trace_rec *trace_find(const struct trace *tr, enum trace_kind kind,
				   int run, int t, int i);

/* The scorer's name ("dot"; "?" when out of range), and the stage's:
 * "encoding", "decoder", "scoring", "softmax", "weighted-sum", "concat",
 * "output"; self-attention's own "input" and "projection". */
const char *trace_scorer_name(int sc);
const char *trace_stage_name(enum trace_stage s);

/* Fills order with the stages tr shows, in its order: the encoding, then
 * a decoder step's stages in the order the step program recorded them
 * (Luong's: decoder, scoring, softmax, weighted sum, concat, output;
 * Bahdanau's: scoring, softmax, weighted sum, decoder, output).  A stage
 * the step records nothing in is left out.  Returns how many. */
int trace_stages(const struct trace *tr, enum trace_stage order[STAGE_COUNT]);

/* Parses a scorer name, "all", or a comma-separated list of names.
 * Returns the bitmask, or 0 if a name is unknown. */
unsigned trace_scorer_parse(const char *name);

/* Fills buf (size bytes) with the template tpl for record r of tr: its
 * "{t}", "{i}" ... replaced as described above.  Cut short to fit.
 * Returns the length. */
size_t trace_expand(char *buf, size_t size, const char *tpl,
		    const struct trace *tr, const struct trace_rec *r);

/* trace_expand() that writes the values of the operands a template
 * names: "{=id}" is the first number of operand id (trace_op) with prec
 * decimals, "{#id}" it as a whole number.  trace_expand() and
 * trace_names() write the operand's name there instead, so one template,
 * "⌊{=p}⌋ ± {#D}", gives the formula "⌊p_1⌋ ± D" and its values
 * "⌊2.4171⌋ ± 1".  An operand r lacks gives "". */
size_t trace_expand_values(char *buf, size_t size, const char *tpl,
			   const struct trace *tr, const struct trace_rec *r,
			   int prec);

/* ---- for the step programs and the scorers (src/arch_*.c, score_*.c) */

/* The bytes of memory tr holds, its records and its storage blocks, for
 * a batch that bounds the memory of the traces in flight. */
size_t trace_mem_bytes(const struct trace *tr);

/* Returns n zeroed doubles that live as long as the trace. */
double *trace_alloc(struct trace *tr, size_t n);

/* Appends a record and returns it.  The array may move on the next call,
 * so fill a record before adding another. */
struct trace_rec *trace_rec_new(struct trace *tr, enum trace_kind kind,
				enum trace_stage stage, int run, int t, int i);

/* Adds an operand (len numbers in rows rows) to r and returns it (its
 * scalar flag 0, for the caller to set). */
struct trace_operand *trace_rec_op(struct trace_rec *r, enum op_role role, const char *name,
		  const char *key, const double *v, int len, int rows);

/* Sets r's terms to the pairs a_k, b_k (len of them) whose products sum
 * to its result; ia and ib are the operands they come from, or -1. */
void trace_rec_terms(struct trace *tr, struct trace_rec *r, const double *a,
		     int ia, const double *b, int ib, int len);

#endif
