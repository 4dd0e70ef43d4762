/* lesson.h: lessons, a line-oriented format for teachers (doc/lessons.md).
 *
 * A lesson names a model, a sentence (and optionally a target and a
 * scorer), and holds pages of narrative with directives that show parts of
 * the trace.  The parser never prints; errors come back as
 * "FILE:LINE:COL: expected ..., found ..." in a struct errbuf. */
#ifndef ATTN_LESSON_H
#define ATTN_LESSON_H

#include <stdio.h>

#include "fmt.h"
#include "model.h"
#include "predict.h"
#include "quiz.h"
#include "trace.h"
#include "util.h"

struct accuracy_line; /* accuracy.h */
struct pgm_image;     /* pgm.h */
struct glimpse_model; /* glimpse.h */
struct glimpse_trace;
struct glimpse_quiz_src; /* glimpse_quiz.h */

/* Model files a lesson loads, at most: its own and those of model=, each
 * file once however it is spelled (it is known by device and inode), and
 * only from the lesson's own directory and below it.  With MODEL_MAX_BYTES
 * a file, this bounds what a lesson can make the program read and keep. */
#define LESSON_MAX_MODELS 8
#define LESSON_MAX_BYTES (1u << 20) /* a larger lesson file is refused */
#define LESSON_MAX_PAGES 200
#define LESSON_MAX_BLOCKS 64  /* paragraphs and directives on one page */

/* What a "show" directive shows; SHOW_QUIZ is a "quiz" directive. */
enum show_what {
	SHOW_EMBEDDING,   /* x_i                    needs i */
	SHOW_ENCODER,     /* the RNN step for h_i   needs i */
	SHOW_STATE,       /* the RNN step for s_t   needs t */
	SHOW_SCORE,       /* e_t,i                  needs t, i */
	SHOW_SCORES,      /* every score of step t  needs t */
	SHOW_SOFTMAX,     /* the softmax of step t  needs t */
	SHOW_WEIGHTS,     /* α_t as bars            needs t */
	SHOW_WEIGHTED,    /* α_t,i·h_i              needs t, i */
	SHOW_CONTEXT,     /* c_t and its terms      needs t */
	SHOW_CONCAT,      /* [c_t; s_t] and h̃_t     needs t */
	SHOW_OUTPUT,      /* p_t and the word       needs t */
	SHOW_STAGE,       /* one whole stage of step t: stage=NAME, needs t
	                     (or nothing for stage=encoding) */
	SHOW_HEATMAP,     /* the α matrix of the scorer */
	SHOW_COMPARE,     /* the three scorers side by side at step t */
	SHOW_QUIZ,        /* "quiz STAGE": a question on stage=scoring,
	                     softmax (both need t, i) or weighted-sum (needs
	                     t, k) */
	SHOW_SELF,        /* "show self=STAGE" or "quiz self-KIND": the
	                     self-attention trace (self.h, lesson_self.c) */
	SHOW_DIAGRAM,     /* the picture of step t (diagram.h)  needs t */
	SHOW_WORDS,       /* the word each step predicts, against the
	                     target's (lesson_why.c) */
	SHOW_GRADPATHS,   /* ‖∂L_t/∂h_i‖ by path, a row a source word; needs
	                     'gradient-paths:' (lesson_why.c) */
	SHOW_ACCURACY,    /* word accuracy by source length on 'pairs:', a
	                     line a model of the lesson (lesson_why.c) */
	SHOW_IMAGE,       /* the lesson's 'image:', alone, or with t= beside
	                     α_t over its cells (lesson_image.c) */
	SHOW_GLIMPSE,     /* glimpse t of the 'glimpse:' trace: its numbers
	                     and its retina on the image  needs t */
	SHOW_GLIMPSES,    /* the path of the glimpses, the classifier and
	                     REINFORCE's terms (lesson_image.c) */
	SHOW_COUNT
};

struct lesson_show {
	enum show_what what;
	int t;              /* 0 when not given */
	int i;              /* 0 when not given */
	int scorer;         /* an enum scorer, or -1 for the lesson's own */
	int stage;          /* an enum trace_stage for SHOW_STAGE and
	                       SHOW_QUIZ, else -1 */
	int arithmetic;     /* 1: with the term-by-term arithmetic */
	int line;           /* where it was written, for messages */
	int col_t;          /* byte columns of "t=" and "i=", for messages; */
	int col_i;          /* 0 when not given */
	int k;              /* SHOW_QUIZ: the coordinate of c_t, from 1; 0 when
	                       not given */
	int col_k;          /* the byte column of "k=", or 0 */
	int alt;            /* model=PATH (heatmap only): 1 + an index into
	                       lesson.alts; 0: the lesson's own model */
	int col_model;      /* the byte column of "model=", or 0 */
	int window;         /* window=NAME beside model=: an enum window, or
	                       -1: the lesson's */
	/* SHOW_SELF: */
	int self_quiz;      /* 0: show self=STAGE; else 1 + an enum
	                       self_quiz_kind (quiz self-score, self-weight,
	                       self-z) */
	int self_stage;     /* show: an enum self_stage, or SELF_STAGE_COUNT
	                       for the weights of both heads as a heatmap */
	unsigned self_flags; /* LESSON_SELF_* */
	int head;           /* from 1; 0: every head (show only) */
	int j;              /* quiz: the key word, from 1; 0 when not given */
	int col_head, col_j; /* byte columns of "head=" and "j=", or 0 */
	/* SHOW_QUIZ on the glimpse trace ("quiz glimpse-KIND t=N k=K"): 1 +
	 * an enum glimpse_quiz_kind; 0 for a quiz on the lesson's trace */
	int glimpse_quiz;
};

/* The variant of the self-attention trace a SHOW_SELF directive shows. */
#define LESSON_SELF_CAUSAL 1u      /* "causal": --causal */
#define LESSON_SELF_NO_POSITION 2u /* "no-position": --no-position */
#define LESSON_SELF_CROSS 4u       /* "cross": the lesson's target as
				      queries (cross-attention) */
#define LESSON_SELF_VARIANTS 8

/* One block of a page: a paragraph of narrative or a directive. */
struct lesson_block {
	char *text;              /* a paragraph (lines joined with spaces),
	                            or NULL for a directive */
	int verbatim;            /* 1: text is indented lines joined with
	                            '\n', shown as written, never wrapped */
	struct lesson_show show; /* when text is NULL */
};

/* A number written with a decimal point in a page's narrative ("0.5704",
 * "-0.9866", "2.5"): a claim about the trace, which lesson_check_numbers()
 * checks.  A number written with a backslash before it ("\\2.66") is not
 * one: the backslash is dropped and the number is taken as written. */
struct lesson_num {
	int line, col;  /* where it is written (byte column, from 1) */
	int decimals;   /* the digits after the point */
	double value;
	char text[32];  /* as written, cut short to fit */
};

/* A reference in prose to one value of the trace, written in braces:
 * "{α_1,3}", "{h_3[4]}", "{sum of α_1}", "{e_1,1:2}", "{α_1[je]
 * scorer=general}", "{encoder.W_x[1][1]}" (doc/lessons.md, "References").
 * The parser leaves LESSON_REF_MARK in the block's text where it stood;
 * the renderer fills in the value.  Also a term of a claim. */
#define LESSON_REF_MARK '\x01'
struct lesson_ref {
	int line, col;     /* where it is written (the '{', or the term) */
	char text[128];    /* as written between the braces, for messages */
	char sym[64];      /* the record's symbol, "α_1", or a weight's
	                      section, "encoder.W_x" */
	char op[64];       /* an operand's name, "sum" of "sum of α_1"; "" */
	char idx[2][48];   /* the entry: "3", a word "je", or "" for none;
	                      idx[1] a weight's column */
	int scorer;        /* an enum scorer, or -1: the run shown */
	int alt;           /* model=PATH: 1 + an index into lesson.alts; 0 */
	int window;        /* window=NAME (with model=): an enum window, or
	                      -1: the lesson's */
	int decimals;      /* ":N", or -1: the page's precision */
};

/* A claim about the trace ("claim argmax(α_1) = je"), never shown;
 * lesson_check_claims evaluates it.  A term is a number, a word, a
 * reference or a function of one. */
enum lesson_fn { LFN_NUMBER, LFN_WORD, LFN_VALUE, LFN_ARGMAX, LFN_ARGMIN,
		 LFN_MAX, LFN_MIN, LFN_SUM };
enum lesson_cmp { LCMP_LT, LCMP_LE, LCMP_GT, LCMP_GE, LCMP_EQ, LCMP_NE };
struct lesson_term {
	enum lesson_fn fn;
	double num;           /* LFN_NUMBER */
	char word[48];        /* LFN_WORD */
	struct lesson_ref ref; /* the others */
};
struct lesson_claim {
	int line;
	char text[160];       /* as written after "claim ", for messages */
	enum lesson_cmp cmp;
	struct lesson_term a, b;
};

/* "predict TERM" or "predict A OP B", and its "hint TEXT": the page
 * asks the learner to predict a value of the trace before it shows the
 * blocks from block on (doc/lessons.md, "Predicting first").  The answer
 * is the term's value (argmax: a word; a reference: a number at its :N
 * decimals, or the page's precision), or whether the claim holds. */
struct lesson_predict {
	int line, col;           /* where the term starts */
	int block;               /* the blocks [0, block) are shown before
	                            the answer, the rest after it */
	enum predict_kind kind;
	struct lesson_claim c;   /* YESNO: the claim; else c.a is the term */
	char *hint;              /* NULL until the "hint" line */
	int hint_line;
};

struct lesson_page {
	char *title;
	int line;                /* its "page:" line */
	int nblocks;
	struct lesson_block *blocks;
	int nnums;
	struct lesson_num *nums; /* (nnums) in the order written */
	int nrefs;
	struct lesson_ref *refs; /* (nrefs) in the order written, which is
	                            the order of the marks in the blocks */
	int nclaims;
	struct lesson_claim *claims; /* (nclaims) */
	int fold;                /* "fold": the stepper opens the page with
	                            its arithmetic folded (t unfolds it) */
	struct lesson_predict *predict; /* NULL, or the page's prediction */
	char *pin;               /* "pin REASON": the page stays with the
	                            lesson's scorer when the stepper's s
	                            chooses another, and says REASON; NULL */
};

/* Where a header value starts (line and byte column, from 1), so that
 * lesson_prepare can point at an unknown word; line 0 when absent. */
struct lesson_pos {
	int line;
	int col;
};

/* Another model that directives name with model=PATH, and the trace of
 * the lesson's sentence (and target) on it.  The parser fills name and
 * pos, once for each distinct name; lesson_prepare loads m and builds tr;
 * lesson_free frees them. */
struct lesson_alt {
	char *name;            /* as written: a built-in name or a path,
	                          relative to the lesson's directory */
	struct lesson_pos pos; /* where it is first written */
	int ready;             /* 1: m and tr hold the model and its trace */
	int same;              /* the same file as another model, whose m
	                          and tr it shows: 1 + the index of an
	                          earlier alt, -1 the lesson's own, or 0 */
	int window;            /* window=NAME: an enum window, or -1: the
	                          lesson's; a model is one alt a window */
	struct model m;
	struct trace tr;       /* all three scorers, like the lesson's own */
	struct accuracy_line *acc; /* with 'pairs:', its accuracy by
	                              length (lesson_why.c); else NULL */
};

/* The header keys a lesson may have (lesson.c's table, whose order
 * lesson.head follows). */
#define LESSON_NKEYS 19

struct lesson {
	char *path;       /* as given, for messages */
	char *base;       /* the file that relative file names (model:,
	                     pairs:, model=) resolve against and whose
	                     directory is the lesson's tree: for a
	                     translation ("translates:") its original,
	                     DIR/../ORIGINAL; else NULL, the lesson's own */
	char *head[LESSON_NKEYS]; /* each header key's value as written
	                             (NULL: absent), in the order of
	                             lesson_key_name */
	struct lesson_pos head_pos[LESSON_NKEYS];
	char *next;       /* what the last page says comes next (NULL: says
	                     nothing); set by whoever found the lesson */
	char *title;
	char *goal;       /* "By the end you will ..." */
	char *translates; /* "translates:": the English lesson's file name,
	                     in the parent directory; NULL */
	struct lesson_pos translates_pos;
	char *model;      /* NULL or "toy4": the built-in trained model;
	                     "handset4": the built-in hand-set model; else a
	                     path, relative paths resolved against the
	                     lesson's directory */
	char *sentence;
	char *target;     /* NULL: greedy decoding */
	int scorer;       /* enum scorer; dot unless the lesson says; a
	                     stepper that switches scorers shows a copy of
	                     the lesson with this changed */
	int own_scorer;   /* the scorer the lesson says, which a page with
	                     "pin" keeps whatever scorer shows */
	unsigned scorers; /* the scorers traced ("scorers:"); SCORER_ALL:
	                     every one the model has the weights of */
	int arch;         /* "arch:", an enum arch the model must be of
	                     (without "model:", its built-in model); -1 */
	struct trace_cfg cfg; /* "window:", "window-size:", "hard:" and
	                         "seed:" (TRACE_CFG_DEFAULT) */
	struct lesson_pos model_pos, sentence_pos, target_pos, arch_pos;
	int input_feeding; /* "input-feeding:": 1 yes, 0 no (the model must
	                      have it, or not; yes without "model:" means
	                      the built-in feed4); -1: not said */
	struct lesson_pos feed_pos;
	/* "scorer:", "scorers:", "window:" and "window-size:", so that a
	 * clash with the model points at the key that asks for it */
	struct lesson_pos scorer_pos, scorers_pos, window_pos, window_size_pos;
	struct lesson_pos grad_pos;  /* "gradient-paths:" */
	char *pairs;      /* "pairs:": a pairs file of the lesson's tree, for
	                     show accuracy and {accuracy[N]}; NULL */
	struct lesson_pos pairs_pos;
	struct accuracy_line *acc; /* the lesson's own model's accuracy on
	                              pairs (lesson_why.c); NULL */
	/* "image:", "glimpse:" and "class:" (lesson_image.c): the PGM file
	 * of the lesson's tree whose caption the trace is (without
	 * "model:", of the built-in caption4), the glimpse model run on it
	 * with the draws of "seed:", and the image's true class; NULL */
	char *image, *glimpse, *cls;
	struct lesson_pos image_pos, glimpse_pos, cls_pos;
	struct pgm_image *img;       /* the image, read by lesson_prepare */
	struct glimpse_model *gm;    /* the glimpse model, and its run */
	struct glimpse_trace *gt;
	struct glimpse_quiz_src *gqs; /* gm, img and gt, for glimpse quizzes */
	int npages;
	struct lesson_page *pages;
	int nalts;
	struct lesson_alt *alts; /* (nalts) the models of model= directives */
	/* the self-attention traces that SHOW_SELF directives show, one for
	 * each variant (LESSON_SELF_* flags) they use; lesson_prepare builds
	 * them on the lesson's model, lesson_free frees them */
	struct self_trace *selfs[LESSON_SELF_VARIANTS];
};

/* The real path of the file name (a model file, with model set, or a
 * pairs file the lesson names), relative to the lesson's directory (for
 * a translation, its original's: see base) unless it starts with '/', if it lies in that directory or below it,
 * every symbolic link and ".." resolved; newly allocated.  Else NULL with
 * e set ("expected [a built-in model (...) or ]a file in the lesson's
 * directory or below it, found ..."). */
char *lesson_resolve(const struct lesson *l, const char *name, int model,
		     struct errbuf *e);

/* lesson_why.c: the directives and references of the lesson "why
 * attention" (doc/lessons.md, "Comparing models").
 * lesson_why_prepare measures each model of the lesson (its own, m, and
 * every model= one) on the 'pairs:' file, and checks that the
 * directives that need 'gradient-paths:' or 'pairs:' have them
 * ("PATH:LINE:COL: expected ..."); returns 0 or -1 with err set.
 * lesson_why_free frees what it made.  lesson_why_text writes a
 * SHOW_WORDS, SHOW_GRADPATHS or SHOW_ACCURACY directive of tr's run.
 * lesson_why_value is the value of {accuracy[N]} or {exact[N]}: 1 with
 * *v set, -1 with why set, 0 when r names neither. */
int lesson_why_prepare(struct lesson *l, const struct model *m,
		       struct errbuf *err);
void lesson_why_free(struct lesson *l);
void lesson_why_text(FILE *out, const struct lesson *l,
		     const struct lesson_show *sh, const struct trace *tr,
		     int run, const struct fmt_opts *o, int width);
int lesson_why_value(const struct lesson *l, const struct lesson_ref *r,
		     double *v, char *why, size_t size);

/* lesson_self.c: the self-attention directives.  lesson_self_prepare
 * builds the traces they show on m and checks their numbers ("PATH:LINE:
 * COL: expected ..."); returns 0 or -1 with err set.  lesson_self_free
 * frees them.  lesson_self_text writes a directive as lesson_show_text
 * does; lesson_self_quiz_make makes the question of a quiz one. */
int lesson_self_prepare(struct lesson *l, const struct model *m,
			struct errbuf *err);
void lesson_self_free(struct lesson *l);
void lesson_self_text(FILE *out, const struct lesson *l,
		      const struct lesson_show *sh, const struct fmt_opts *o,
		      int width);
int lesson_self_quiz_make(struct quiz_question *q, const struct lesson *l,
			  const struct lesson_show *sh, int precision,
			  struct errbuf *err);

/* lesson_image.c: lessons on an image (doc/lessons.md, "Lessons on an
 * image"; lessons 21 and 22).  lesson_image_trace reads 'image:' (a file
 * of the lesson's tree) and traces its caption with m, an image model,
 * into tr as caption_build() does, teacher-forced with 'target:'.
 * lesson_image_prepare runs the 'glimpse:' model on the image with
 * 'seed:''s draws and checks the image directives ("PATH:LINE:COL:
 * expected ...").  Both return 0 or -1 with err set; lesson_image_free
 * frees what they made.  lesson_image_text writes a SHOW_IMAGE,
 * SHOW_GLIMPSE or SHOW_GLIMPSES directive (run: the caption's run).
 * lesson_image_vec finds the vector of the glimpse trace that r names
 * (its symbol and step: l̂_1, ρ_2, p, R ...): 1 with *v and *len set,
 * -1 with why set, 0 when r names none (or the lesson has no glimpse);
 * lesson_image_value is its entry (as lesson_why_value), and
 * lesson_image_word the index from 1 of a class name on r's axis, or
 * 0.  lesson_image_walk calls visit(ctx, sym, v, len) for each vector
 * of the glimpse trace, named as a reference names it ("l̂_1", "p"), for
 * lesson --check's proposals; nothing without 'glimpse:'. */
int lesson_image_trace(struct lesson *l, const struct model *m,
		       const int *tgt, int ntgt, struct trace *tr,
		       struct errbuf *err);
int lesson_image_prepare(struct lesson *l, struct errbuf *err);
void lesson_image_free(struct lesson *l);
/* The question of a "quiz glimpse-KIND" directive sh on l's glimpse
 * trace (glimpse_quiz.h), as lesson_quiz_make makes the others'. */
int lesson_glimpse_quiz_make(struct quiz_question *q, const struct lesson *l,
			     const struct lesson_show *sh, int precision,
			     struct errbuf *err);
void lesson_image_text(FILE *out, const struct lesson *l,
		       const struct lesson_show *sh, const struct trace *tr,
		       int run, const struct fmt_opts *o);
int lesson_image_vec(const struct lesson *l, const struct lesson_ref *r,
		     const double **v, int *len, char *why, size_t size);
int lesson_image_value(const struct lesson *l, const struct lesson_ref *r,
		       double *v, char *why, size_t size);
int lesson_image_word(const struct lesson *l, const struct lesson_ref *r,
		      const char *word);
void lesson_image_walk(const struct lesson *l,
		       void (*visit)(void *ctx, const char *sym,
				     const double *v, int len),
		       void *ctx);

/* Parses lesson text text[0..len) named path.  Returns 0, or -1 with err
 * filled ("PATH:LINE:COL: expected ..., found ...").  The caller frees *l
 * with lesson_free(), also after a failure. */
int lesson_parse(struct lesson *l, const char *text, size_t len,
		 const char *path, struct errbuf *err);

/* Reads and parses the lesson file at path.  Same contract. */
int lesson_load(struct lesson *l, const char *path, struct errbuf *err);

void lesson_free(struct lesson *l);

/* Loads the lesson's model (built-in or file) into *m, and builds into *tr
 * the trace of its sentence with ALL THREE scorers (so that compare and
 * scorer switching work), teacher-forced if it has a target.  Does the
 * same for each model that a directive names with model=, into l->alts.
 * Then checks every directive against its trace: t and i in range, and so
 * on, with errors "PATH:LINE:COL: expected ..., found ...".  Returns 0, or
 * -1 with err filled; on failure *m, *tr and the alternative models are
 * freed.  On success the caller frees *tr, then *m; lesson_free() frees
 * the alternative models. */
int lesson_prepare(struct lesson *l, struct model *m, struct trace *tr,
		   struct errbuf *err);

/* Reports each number written with a decimal point in a page's prose
 * (struct lesson_num) that is not marked as a literal ("\\2.66"): a
 * trace's number is a reference, never typed.  The message proposes the
 * reference: the value the page can show (every value of tr and of the
 * models of the page's model= directives, and their weights) that rounds
 * to it at the decimals written, the lesson's own run first, else the
 * nearest:  report(ctx, "PATH:LINE:COL: expected a reference ...
 * {α_1[3]} ..., found '0.9079'").  Needs lesson_prepare to have
 * succeeded.  Returns how many there are. */
int lesson_check_numbers(const struct lesson *l, const struct trace *tr,
			 void (*report)(void *ctx, const char *msg),
			 void *ctx);

/* lesson_ref.c.  lesson_ref_parse reads the reference s[0..n) (what is
 * between the braces) into *r, and the span of its model=PATH into
 * *model_off, *model_len (0 when none); returns 0, or -1 with why set to
 * "expected ..., found ..." and *bad to the offset in s it is about. */
int lesson_ref_parse(struct lesson_ref *r, const char *s, size_t n,
		     size_t *model_off, size_t *model_len, char *why,
		     size_t size, size_t *bad);

/* Reads the claim s[0..n) (after "claim ") into *c, as lesson_ref_parse
 * does; the model spans of its two terms go to model_off[2] and
 * model_len[2]. */
int lesson_claim_parse(struct lesson_claim *c, const char *s, size_t n,
		       size_t model_off[2], size_t model_len[2], char *why,
		       size_t size, size_t *bad);

/* Reads what "predict" asks, s[0..n) (after "predict "), into pr->kind
 * and pr->c: a claim 'A OP B' (y or n), argmax(...) or argmin(...) (a
 * word), or another term (a number).  As lesson_claim_parse. */
int lesson_predict_parse(struct lesson_predict *pr, const char *s, size_t n,
			 size_t model_off[2], size_t model_len[2], char *why,
			 size_t size, size_t *bad);

/* Makes the question of prediction pr in the run of l->scorer (a
 * stepper that switched scorers passes a copy of l with it changed): the
 * answer from the trace, numbers at pr's ":N" decimals or else at
 * precision.  Returns 0, or -1 with why set ("expected ..., found ...")
 * when a term does not resolve in that run or an argmax has no one
 * answer (two entries tie at 4 decimals).  *q borrows from l and tr. */
int lesson_predict_make(struct predict_q *q, const struct lesson *l,
			const struct lesson_predict *pr,
			const struct trace *tr, int precision, char *why,
			size_t size);

/* The value reference r names in tr (or in its model='s trace), with
 * run instead of the lesson's scorer when r names none and run >= 0.
 * Returns 0 with *v set, or -1 with why set ("expected ..., found ...
 * (hint)"). */
int lesson_ref_value(const struct lesson *l, const struct lesson_ref *r,
		     const struct trace *tr, int run, double *v, char *why,
		     size_t size);

/* Text with each LESSON_REF_MARK replaced by the value of the next
 * reference of pg, from *next on (which it advances), at precision
 * decimals (or the reference's own); a value that does not resolve in
 * this run is shown as "?".  Newly allocated. */
char *lesson_ref_fill(const struct lesson *l, const struct lesson_page *pg,
		      int *next, const char *text, const struct trace *tr,
		      int precision);

/* Checks that every reference and every claim's terms resolve in the
 * lesson's own run ("PATH:LINE:COL: expected ..."): every lesson command
 * does, through lesson_prepare.  Returns 0 or -1 with err set. */
int lesson_refs_prepare(const struct lesson *l, const struct trace *tr,
			struct errbuf *err);

/* Evaluates every claim of every page in each run of the trace in which
 * its terms resolve (every run the stepper's scorer key can show; one
 * run when a term names scorer=), and calls report(ctx, "PATH:LINE:1:
 * expected ..., found ...") for each that is false.  Returns how many
 * were false. */
int lesson_check_claims(const struct lesson *l, const struct trace *tr,
			void (*report)(void *ctx, const char *msg),
			void *ctx);

/* Visits every number of tr's records: run -1 the encoder's, else those
 * of the encoder and of that run; -2 every run.  visit(ctx, rec, op,
 * v, len, names) gets each record's result (op -1) and each operand
 * (op >= 0), with names filled when want_names is set.  A non-zero
 * return stops the walk and is returned. */
int lesson_walk(const struct trace *tr, int run, int want_names,
		int (*visit)(void *ctx, const struct trace_rec *r, int op,
			     const double *v, int len,
			     const struct trace_names *nm),
		void *ctx);

/* Reports each directive that shows nothing on tr (a stage its
 * architecture does not have: "PATH:LINE:1: expected a directive that
 * shows something ..."), rendering each as lesson_page_text does.
 * Returns how many. */
int lesson_check_shows(const struct lesson *l, const struct trace *tr,
		       const struct fmt_opts *o,
		       void (*report)(void *ctx, const char *msg), void *ctx);

/* Reports each prediction ("predict") that lesson --check refuses:
 * one whose question cannot be made in a run the stepper's s can show
 * (the pinned run alone on a pinned page): a term that does not resolve,
 * an argmax tied at 4 decimals; and one whose answer the page shows
 * before it, in a reference to its symbol or a directive whose text
 * names it ("PATH:LINE:1: expected the numbers that answer 'predict
 * argmax(α_1)' (line 9) after it, found a directive before it that shows
 * α_1").  Returns how many. */
int lesson_check_predicts(const struct lesson *l, const struct trace *tr,
			  const struct fmt_opts *o,
			  void (*report)(void *ctx, const char *msg),
			  void *ctx);

/* The trace that directive sh shows: that of its model= model, or tr, the
 * lesson's own.  Needs lesson_prepare to have succeeded. */
const struct trace *lesson_show_trace(const struct lesson *l,
				      const struct lesson_show *sh,
				      const struct trace *tr);

/* Writes page p (0-based) as plain text: its title, its paragraphs
 * wrapped at width columns, and each directive rendered with the
 * formatters (fmt.h); a quiz directive shows its question, not its answer.
 * This is exactly what the stepper shows for the page; with o->terms 0,
 * without the term-by-term arithmetic (a page the stepper folds).
 * Returns 0 or -1 on a write error. */
int lesson_page_text(FILE *out, const struct lesson *l, int p,
		     const struct trace *tr, const struct fmt_opts *o,
		     int width);

/* As lesson_page_text, with the page's prediction (if it has one): its
 * line of what to type, then insert (NULL: nothing; the stepper's answer
 * line and verdict), and, with hide set, nothing after them: the blocks
 * that answer the prediction wait until the learner has answered. */
int lesson_page_text_predict(FILE *out, const struct lesson *l, int p,
			     const struct trace *tr, const struct fmt_opts *o,
			     int width, int hide, const char *insert);

/* The run (an index into tr->runs, which lesson_prepare fills with the
 * lesson's scorers in registry order) that directive sh shows: its own
 * scorer=, else the lesson's scorer; -1 if tr has no run of it. */
int lesson_show_run(const struct lesson *l, const struct lesson_show *sh,
		    const struct trace *tr);

/* Writes one directive as lesson_page_text does, with run instead of
 * lesson_show_run() when run >= 0 and sh names no scorer of its own (for
 * a stepper that switches scorers).  A step that the run does not have is
 * written as a note, not an error.  Returns 0 or -1 on a write error. */
int lesson_show_text(FILE *out, const struct lesson *l,
		     const struct lesson_show *sh, const struct trace *tr,
		     const struct fmt_opts *o, int run, int width);

/* The first quiz directive of page p (0-based), or NULL if it has none. */
const struct lesson_show *lesson_page_quiz(const struct lesson *l, int p);

/* Makes the question that quiz directive sh asks (quiz.h), with run
 * instead of lesson_show_run() when run >= 0 and sh names no scorer of its
 * own, as lesson_show_text does.  Returns 0, or -1 with err filled when
 * that run has no such step (after a switch of scorer).  *q borrows tr. */
int lesson_quiz_make(struct quiz_question *q, const struct lesson *l,
		     const struct lesson_show *sh, const struct trace *tr,
		     int run, int precision, struct errbuf *err);

/* Writes the answers to the prediction and the quiz directives of page
 * p, one line each, "(prediction: argmax(α_1): je)", "(answer: e_1,1 =
 * 0.9765)", or nothing when it has none.  lesson_plain
 * writes them at the end of each page.  Returns 0 or -1. */
int lesson_page_answers(FILE *out, const struct lesson *l, int p,
			const struct trace *tr, const struct fmt_opts *o);

/* Writes the paragraph text (UTF-8, words separated by blanks, joined
 * here by one space) wrapped at width columns by linebreak_line(): at
 * blanks and beside CJK characters, never inside a number or a symbol; a
 * word wider than width gets a line of its own.  Every line ends with '\n'.  Returns 0 or -1. */
int lesson_wrap(FILE *out, const char *text, int width);

/* The whole lesson as plain text: a header (title, goal, sentence), then
 * every page in turn; with answers set, the answers to its quizzes
 * collected at the end, page by page, so that a handout can be folded.
 * For handouts and `attn-trace lesson NAME --plain [--no-answers]`. */
int lesson_plain(FILE *out, const struct lesson *l, const struct trace *tr,
		 const struct fmt_opts *o, int width, int answers);

/* The lesson directory: $ATTN_TRACE_LESSONS if set and not empty; else,
 * for the program run from the build tree it was built in, the source
 * tree's lessons; else the installed ones, PKGDATADIR "/lessons".  Never
 * the current directory.  Returns a static string. */
const char *lesson_dir(void);

/* The installed lesson directory, PKGDATADIR "/lessons" (a static
 * string). */
const char *lesson_installed_dir(void);

/* Resolves a lesson named by number ("3"), by name ("softmax", matching
 * the file "NN-softmax.lesson"), or by path (anything with a '/' or ending
 * in ".lesson").  Returns a newly allocated path, or NULL with err filled
 * (naming what was looked for and where). */
char *lesson_find(const char *name, struct errbuf *err);

/* Lists the lessons of lesson_dir() in order into *paths (allocated, each
 * allocated); returns the count, or -1 with err filled. */
int lesson_list(char ***paths, struct errbuf *err);

/* What follows the lesson at path among those of lesson_dir(), as the
 * last page says it: "Next: lesson 6, \"Softmax: ...\": attn-trace
 * lesson 6", or that it was the last one.  Newly allocated; NULL when the
 * lesson is not one of them. */
char *lesson_next(const char *path);

/* lesson_lang.c: translated lessons (doc/translating.md).
 * lesson_set_lang forces a language ("en", or one that has a directory
 * of translations, "zh_CN"): 0, or -1 for one it does not know.
 * lesson_lang is that language, else the one gettext would choose (none
 * in the C locale, else LANGUAGE's list, else LC_MESSAGES): "en" or
 * "zh_CN".  lesson_localize returns (newly allocated) the translation of
 * the lesson at path, DIR/LANG/FILE, if it exists, else a copy of path.
 * lesson_check_translation reports each way a translation (a lesson with
 * "translates:") differs from its original in what it means: the header
 * values other than words (lesson_key_words), the page count, and on
 * each page the directives in order, the references, claims, numbers
 * typed, prediction, fold and pin ("PATH:LINE:COL: expected ... as in
 * ORIG, found ..."); returns how many. */
/* The name of header key k (0 <= k < LESSON_NKEYS), "model"; and 1 if
 * it holds words that a translation translates (title, goal,
 * translates), 0 if its value must be the original's. */
const char *lesson_key_name(int k);
/* The path of the original that a translation at path names with
 * "translates: FILE": DIR/../FILE, or ../FILE; newly allocated. */
char *lesson_original_path(const char *path, const char *file);
int lesson_key_words(int k);

int lesson_set_lang(const char *lang);
const char *lesson_lang(void);
char *lesson_localize(const char *path);
int lesson_check_translation(const struct lesson *t,
			     void (*report)(void *ctx, const char *msg),
			     void *ctx);

#endif
