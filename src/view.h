/* view.h: what each screen of the stepper shows, without curses.
 *
 * The view model turns a trace (or a lesson) and the stepper's state into a
 * struct view_screen: title, stage strip, narrative, body lines, weight bars
 * and key hints, all as text made by the formatters.  The TUI only lays the
 * screen out and colours it; the tests check screens without a terminal. */
#ifndef ATTN_VIEW_H
#define ATTN_VIEW_H

#include "fmt.h"
#include "lesson.h"
#include "quiz.h"
#include "trace.h"

/* The widest lines the view makes, for a wide terminal: the narrative
 * wraps at VIEW_PROSE_COLS, the arithmetic and lessons at VIEW_TEXT_COLS,
 * so that a line stays readable at 200 columns. */
#define VIEW_PROSE_COLS 80
#define VIEW_TEXT_COLS 100

enum view_mode { VIEW_STEP, VIEW_COMPARE, VIEW_HEATMAP, VIEW_HELP, VIEW_QUIZ,
	VIEW_DIAGRAM, /* the picture of a step (diagram.h), key 'd' */
	VIEW_SELF,    /* a self-attention lesson's own stepper (self_view.h),
	                 keys c, m and d */
	VIEW_WHY      /* "why this number?" (view_why.c), key 'w' */
};

/* A scroll past any body's end: the TUI clamps it to show the bottom. */
#define VIEW_SCROLL_END (1 << 28)

/* view.fold before 't' is pressed on a page: the page's default. */
#define VIEW_FOLD_AUTO (-1)

/* One screen of the trace stepper: a stage at a position. */
struct view_frame {
	enum trace_stage stage;
	int t;    /* decoder step from 1; 0 in the encoder */
	int i;    /* source word from 1 in the encoder; 0 otherwise */
};

struct view {
	const struct trace *tr;     /* borrowed; holds every scorer's run */
	const struct trace *const *archs; /* borrowed: (narchs) the same
	                               sentence in every architecture, tr
	                               among them (tui --arch=all), or NULL;
	                               'a' steps to the next, and compare
	                               puts tr beside the next */
	int narchs;
	const struct lesson *lesson; /* borrowed; NULL when stepping a trace */
	int run;                    /* the scorer shown: an index into runs */
	int pos;                    /* the frame, or the lesson page */
	int nframes;
	struct view_frame *frames;  /* (nframes) for the current run */
	int nstages;
	enum trace_stage stages[STAGE_COUNT]; /* the strip: the stages in
	                               the order the trace's architecture
	                               runs them (trace_stages()) */
	enum view_mode mode;
	int terms;                  /* show term-by-term arithmetic */
	int glossary;               /* key x: the symbols of the screen and
	                               their meanings (src/notation.h) */
	int width;                  /* columns to wrap text to */
	/* what the keys (view_key.h) keep between two keys */
	int scroll;                 /* the first body line shown; the TUI
	                               clamps it to the screen */
	int page_rows;              /* rows that PgUp and PgDn scroll */
	int hscroll;                /* the heatmap's first source column
	                               shown; the TUI clamps it */
	int pending_g;              /* 'g' was pressed; a number follows */
	int g_enter;                /* a g number ended itself: an Enter
	                               next is the number's, swallowed */
	int g_num;                  /* after 'g': the number typed so far,
	                               0 before its first digit */
	int rows;                   /* the body rows the TUI showed at its
	                               last draw (0 before the first): what
	                               Space and Backspace scroll by */
	int nbody;                  /* the body lines of that screen */
	int lines;                  /* the terminal's rows, which the TUI
	                               sets before it draws (0: unknown):
	                               what decides a page's fold */
	int lesson_t;               /* in a lesson, the decoder step that
	                               compare and the picture show (from
	                               1); 0: the page's own */
	int fold;                   /* in a lesson: VIEW_FOLD_AUTO (the
	                               page's default, view_folded()), or 1
	                               folded, 0 unfolded by 't' */
	void *self;                 /* in a self-attention lesson (one
	                               with "show self=" pages): its stepper
	                               (struct self_view, view_self.c),
	                               which c, m and d open; else NULL */
	int self_key;               /* the key that opened it */
	void *why;                  /* "why this number?" (struct view_why,
	                               view_why.c): the records opened and
	                               the cursors, kept as record indices
	                               of tr; NULL until 'w' */
	int present;                /* presentation mode: the help lists
	                               its keys (b, space) too, and each
	                               decoder step opens with its picture */
	int ascii;                  /* the picture in ASCII, not box
	                               drawing (the TUI's locale) */
	unsigned long long quizzes; /* quizzes started: the next one's seed */
	struct fmt_opts fmt;
	/* the quiz (VIEW_QUIZ) */
	struct quiz_question quiz;
	int quiz_answered;          /* 1 once a number was given */
	char quiz_input[64];        /* what the learner has typed so far:
	                               whole characters of valid UTF-8, no
	                               controls, always NUL-terminated */
	unsigned char quiz_part[4]; /* the bytes of a character being typed */
	int quiz_npart;             /* how many bytes of it have come */
	char *quiz_feedback;        /* the verdict, or a hint; NULL at first */
	/* predict, then reveal (view_predict.c), on a lesson page with a
	 * "predict" line; the answer is typed into quiz_input */
	unsigned char *revealed;    /* (lesson->npages) 1: answered */
	int predict_open;           /* 1: the answer line takes the keys */
	struct predict_try predict; /* this page's tries */
	char *predict_feedback;     /* the verdict, the hint or why the text
	                               is not an answer; NULL at first */
	/* edits of the numbers (view_edit.c): keys e, u and R */
	const struct view_retrace *retrace; /* borrowed: how to trace again
	                               with edits, or NULL: no edits */
	void *edit;                 /* struct view_edit while edits or the
	                               edit line exist, else NULL */
	int goal_t, goal_i;         /* tui --goal: make source word goal_i
	                               (from 1) the largest weight at step
	                               goal_t with edits; 0: no goal */
};

struct view_screen {
	char *title;        /* the top line */
	int stage;          /* the stage to highlight in the strip, or -1 */
	char *where;        /* "stage 3 of 7: scoring   t=1 of 5   screen 5 of 38" */
	int nnarr;
	char **narr;        /* narrative, wrapped */
	int nbody;
	char **body;        /* vectors and arithmetic, wrapped */
	int nbars;
	struct fmt_bar *bars; /* the current α_t, or none */
	char *bars_title;   /* the title of the bars, or of the picture */
	int npicture;
	char **picture;     /* an image's trace: in place of the bars, the
	                       image beside its pixels shaded by α_t and the
	                       cells' weights (caption_fmt_rows), a line a
	                       pixel row; or none */
	char *keys;         /* the key hints of the bottom line */
};

/* Sets v up to step through tr (every run) or, when l is not NULL, through
 * the pages of lesson l, whose trace tr is.  width is the text width. */
void view_init(struct view *v, const struct trace *tr,
	       const struct lesson *l, int precision, int width);
void view_free(struct view *v);

/* Steps through the next of v->archs after v->tr (the first after the
 * last), the same sentence in another architecture, at the same stage
 * and step and with the same scorer where it has it.  Returns -1 if
 * there is no other. */
int view_swap_arch(struct view *v);

/* The stages' titles, by enum trace_stage ("weighted sum"). */
extern const char *const view_stage_titles[STAGE_COUNT];

/* One item of the stage strip. */
struct view_strip_item {
	enum trace_stage stage;
	int current;   /* the stage shown: the TUI highlights it */
	char text[32]; /* " 4 softmax " (numbered) or "softmax" */
};

/* The width of the separator the TUI draws between two items (" › "). */
#define VIEW_STRIP_SEP 3

/* Fills items with the strip of v's stages, in v->stages' order, for cols
 * columns, stage (or -1) the current one: every title numbered if that
 * fits, else only the current one, else the current one numbered and the
 * short titles ("concat").  Returns how many (v->nstages). */
int view_strip(const struct view *v, int stage, int cols,
	       struct view_strip_item items[STAGE_COUNT]);

/* The place of stage st in v's strip, from 0; -1 if it is not there. */
int view_stage_index(const struct view *v, enum trace_stage st);

/* Moves: to frame/page pos (clamped), by delta, to the first frame of a
 * stage at the current step (or lesson page number stage + 1), and to the
 * next scorer, keeping the stage and step. */
void view_goto(struct view *v, int pos);
void view_move(struct view *v, int delta);
void view_goto_stage(struct view *v, enum trace_stage stage);
/* What 'g' then a digit does: to the stage numbered n (from 1) in the
 * strip at this step, or in a lesson to page n.  Returns 0, or -1 if
 * there is none such (nothing moves). */
int view_goto_number(struct view *v, int n);
void view_next_scorer(struct view *v);
/* Moves to the same stage delta decoder steps on (clamped); from the
 * encoder, to the scores.  In a lesson, delta pages on. */
void view_move_step(struct view *v, int delta);
void view_set_run(struct view *v, int run);

/* view_self.c: a self-attention lesson's own stepper.  view_self_init
 * gives v->self a stepper if v's lesson has self-attention pages (else
 * NULL), view_self_free frees it.  view_self_open ('c': the stage of the
 * page's directive, 'm': the weights, 'd': the line diagram of its head
 * and row) opens it in VIEW_SELF on the trace of this page's directive
 * (else the nearest one's); it beeps in a lesson without one.
 * view_self_key handles a key there (Esc or the opening key: back to
 * the page), view_self_render fills its screen.  All return or take
 * what view_key and view_render do. */
void view_self_init(struct view *v);
void view_self_free(struct view *v);
int view_self_open(struct view *v, int key);
int view_self_key(struct view *v, int key);
void view_self_render(const struct view *v, struct view_screen *s);

/* view_why.c: "why this number?", key 'w' on a trace's screen.
 * view_why_open opens VIEW_WHY on the numbers of the frame shown (beeps
 * in a lesson); view_why_key handles a key there (up/down pick, Enter
 * the record of the one picked and what it is made from, Backspace back
 * one, j the stepper to the frame that computed it, Esc or w back to the
 * frame); view_why_render fills its screen but the title, which
 * view_render sets; view_why_free frees it.
 * view_why_at: the record index shown (-1: the list of the frame's
 * numbers), and in *picked the record the cursor is on (-1: none). */
int view_why_open(struct view *v);
int view_why_key(struct view *v, int key);
void view_why_render(const struct view *v, struct view_screen *s);
void view_why_free(struct view *v);
int view_why_at(const struct view *v, int *picked);

/* Calls fn(r, ctx) for each record that frame fr of v shows, in the
 * order the stepper writes them. */
void view_frame_each(const struct view *v, const struct view_frame *fr,
		     void (*fn)(const struct trace_rec *r, void *ctx),
		     void *ctx);

/* In a lesson: 1 if page v->pos is shown with its term-by-term arithmetic
 * folded.  Pressing 't' decides it (v->fold); else a page with a 'fold'
 * line starts folded, and so does a page
 * when its arithmetic alone takes more lines than a lesson page has rows
 * on the terminal (v->lines less the 6 rows of the title, the strip,
 * the page line, a blank, "more below" and the keys; with v->lines 0,
 * unknown, it starts unfolded).  A page without such arithmetic is never
 * folded. */
int view_folded(const struct view *v);
/* The index of the first line of lesson page v->pos, as the stepper
 * wraps and folds it now, that holds needle; -1 if none does. */
int view_lesson_line_of(const struct view *v, const char *needle);

/* In a lesson: 1 if page v->pos has term-by-term arithmetic that 't'
 * can fold. */
int view_foldable(const struct view *v);

/* How many frames or pages there are. */
int view_count(const struct view *v);

/* The number of the screen shown, from 0, and in *total how many there
 * are: the frame or lesson page, except that presentation mode adds the
 * picture of each decoder step after the step's last screen, so that
 * every screen has a number of its own. */
int view_screen_number(const struct view *v, int *total);

/* The current decoder step (from 1), or 0 in the encoder. */
int view_step(const struct view *v);

/* Starts a quiz on the current screen: the lesson page's quiz directive,
 * else a question on this screen's stage (scoring, softmax or weighted
 * sum; scoring elsewhere) at this step, picked by seed.  Returns 0, or -1
 * with err filled; on success the mode is VIEW_QUIZ. */
int view_quiz_start(struct view *v, unsigned long long seed,
		    struct errbuf *err);

/* Takes one typed byte c (0 to 255: ASCII, or one byte of a UTF-8
 * character), or '\b' to remove the character being typed or else the
 * last one.  A character joins the answer only once all its bytes have
 * come, and only if it is valid UTF-8, not a control, and fits whole; so
 * the answer is valid UTF-8 whatever bytes arrive.  Returns 1 if c was
 * taken, 0 if it was refused (a byte that is not UTF-8, a control, a
 * character with no room left, or any key once the question is
 * answered); a refused byte changes nothing but to drop a character cut
 * short before it. */
int view_quiz_type(struct view *v, int c);

/* Checks the typed answer.  An answer that is not a number leaves the
 * question open with a hint; returns 1 once the question is answered. */
int view_quiz_answer(struct view *v);

/* Leaves the quiz and frees its text. */
void view_quiz_end(struct view *v);

/* view_predict.c.  view_predict_hidden: 1 if page v->pos has a
 * prediction not yet answered, whose blocks after it are hidden.
 * view_predict_insert: what the page shows under its line of what to
 * type (the answer line, "press z or Enter", the verdict), newly
 * allocated, or NULL.  view_predict_key: a key while the prediction is
 * hidden (z, Enter or a digit opens the answer line; there, bytes type,
 * Enter answers, Esc closes); returns VIEW_KEY_* flags, or -1 for a key
 * it leaves to the stepper.  view_predict_leave: forgets the page's
 * tries and verdict (another page is shown). */
int view_predict_hidden(const struct view *v);
char *view_predict_insert(const struct view *v);
int view_predict_key(struct view *v, int key);
void view_predict_leave(struct view *v);

/* view_edit.c: what-if edits in the stepper, the --set of the command
 * line made from the screen.  The view cannot trace: retrace->make
 * traces the sentence again with the --set arguments args (n, each
 * "step[T].KEY[K]=VALUE", after the command line's own), returning a
 * trace that retrace->free frees, or NULL with err (a bad number, a
 * name the trace does not have).
 * 'e' (view_edit_open) opens the edit line on a screen of a decoder
 * step: a list of the values it shows that --set can set, by their
 * names; up and down (or Tab) move, a number typed and Enter sets the
 * one chosen and the screen is traced again; Esc closes it.  'u'
 * (view_edit_undo) takes the last edit back, 'R' (view_edit_reset) all
 * of them.  Each returns VIEW_KEY_* flags; they beep without a retrace
 * (a lesson, --arch=all) or with nothing to undo.  view_edit_key: a key
 * while the edit line is open, or -1 when it is closed.
 * view_edit_rec writes record r of v->tr as fmt_text_rec does, and
 * under each line whose numbers the edits changed a "was" line with
 * the old ones (fmt_mark_changes).  view_edit_text: the lines under a
 * step's body (the list and the typed value, the edits in force as
 * --set arguments), newly allocated, or NULL.  view_edit_free frees the
 * edits and shows the unedited trace again. */
struct errbuf;
struct view_retrace {
	void *ctx;
	struct trace *(*make)(void *ctx, const char *const *args, int n,
			      struct errbuf *err);
	void (*free)(void *ctx, struct trace *tr);
};
int view_edit_open(struct view *v);
int view_edit_key(struct view *v, int key);
int view_edit_undo(struct view *v);
int view_edit_reset(struct view *v);
void view_edit_rec(FILE *f, const struct view *v, const struct trace_rec *r,
		   const struct fmt_opts *o);
char *view_edit_text(const struct view *v);
/* The key hints while the edit line is open, newly allocated; else NULL. */
char *view_edit_keys(const struct view *v);
void view_edit_free(struct view *v);
/* Shows tr in place of v->tr, at the same stage, step and scorer. */
void view_swap_trace(struct view *v, const struct trace *tr);

/* Fills *s with the current screen.  Free it with view_screen_free. */
void view_render(const struct view *v, struct view_screen *s);
void view_screen_free(struct view_screen *s);

/* Appends the lines of text to the array *lines of *n lines (room for
 * *cap; all three start at 0 and NULL), each a new string, wrapped at
 * width columns as the stepper wraps its narrative (prose) or its
 * arithmetic (continuation lines indented).  For other steppers (the
 * self-attention one, self_view.c). */
void view_wrap(char ***lines, int *n, int *cap, const char *text, int width,
	       int prose);

/* The lines of the help screen, NULL-terminated, static; and those that
 * presentation mode adds after the first two. */
extern const char *const view_help[];
extern const char *const view_help_present[];

#endif
