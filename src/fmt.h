/* fmt.h: traces and models to text and JSON.
 *
 * The formatters render what trace_build() recorded and compute nothing
 * but layout.  Each writes to a stdio stream and returns 0, or -1 if the
 * stream reports a write error (the caller reports it). */
#ifndef ATTN_FMT_H
#define ATTN_FMT_H

#include <stdio.h>
#include <string.h>

#include "model.h"
#include "trace.h"

#define FMT_TEXT_VERSION "attn-trace-text/3"
#define FMT_JSON_VERSION "attn-trace-trace/3"
#define FMT_MODEL_JSON_VERSION "attn-trace-model/1"
#define FMT_MODEL_TEXT_VERSION "attn-trace-model-text/1"
/* the traces of self-attention's program (trace.prog TRACE_SELF) */
#define FMT_SELF_TEXT_VERSION "attn-trace-self-text/2"
#define FMT_SELF_JSON_VERSION "attn-trace-self/3"

struct whatif_edit;
struct fmt_buf;
struct fmt_opts {
	int precision;   /* digits after the point, 0..NUM_MAX_PREC */
	int top;         /* output probabilities listed at each step */
	unsigned stages; /* bitmask of (1u << STAGE_x) to print */
	int terms;       /* 1: expand scores and RNN steps term by term;
	                    0: only the results */
	int no_by_word;  /* fmt_text_rec: 1 leaves out the output record's
	                    lists by word (a folded lesson page); 0, as
	                    zeroed, keeps them */
	int compact;     /* JSON: 1 for one line (JSON Lines) */
	int pair;        /* batch: the line of the pair, written into JSON,
	                    CSV and Markdown; 0 outside a batch */
	const char *arch; /* trace --arch=all: the architecture, a first
	                     column "arch" of CSV; NULL otherwise */
	int handout;     /* Markdown: 1 for a handout, its vectors kept on
	                    one line and only the top outputs listed */
	int nset;        /* --set: how many edits set[] holds */
	struct whatif_edit *set; /* (nset) the edits applied to the model,
	                    owned by the caller (struct cli_opts); JSON
	                    writes them as "set", text as a "set" line */
	const struct trace *base; /* text with --set: the unedited trace,
	                    whose numbers each changed one is shown with
	                    (fmt_mark_changes); NULL: no marks */
	int csv_keys;    /* CSV of 'calc': 1 puts the key a row is about
	                    in "source" on every row (the entry's key in a
	                    vector over the keys, as the softmax's) and
	                    leaves "word" empty; 0, as zeroed, the trace's
	                    words */
};

/* --set's marks: b->p[from .. b->len) is the text of one record of the
 * edited trace, old (oldlen bytes) the same record's text in the
 * unedited one.  If both have the same number of lines, each line whose
 * numbers differ is followed by a line "was" with the old numbers in
 * the columns of the new ones (a line whose words differ too: "was: "
 * and the old line).  Text that differs in its number of lines, or is
 * the same, is left as it is. */
void fmt_mark_changes(struct fmt_buf *b, size_t from, const char *old,
		      size_t oldlen);

/* Under record r of tr, a line for each --set of a step's value that
 * r holds, indented by indent: "set by --set: NAME = VALUE, computed
 * OLD", OLD what its formula gave (so a formula whose terms do not add
 * up to the value shown says why).  Nothing for any other record.
 * src/fmt_explain.c. */
void fmt_set_notes(struct fmt_buf *b, const struct trace *tr,
		   const struct trace_rec *r, int precision, int indent);

/* Record r of tr as the text trace writes it, appended to b. */
void fmt_text_rec_buf(struct fmt_buf *b, const struct trace *tr,
		      const struct trace_rec *r, const struct fmt_opts *o);

/* trace --explain (src/fmt_explain.c): where the step's value that e
 * names (whatif_name) comes from, in each run of tr that has it: a line
 * "NAME = VALUE (SCORER run), from:", then the value's record as text,
 * and indented under it the records it is made from, theirs under them,
 * back to the embeddings and the weights; a record written already is
 * named with "as above".  Returns fmt_buf_flush()'s status. */
int fmt_text_explain(FILE *out, const struct trace *tr,
		     const struct whatif_edit *e, const struct fmt_opts *o);

/* --explain's walk, for the stepper's "why this number?" (view_why.c)
 * too.  fmt_explain_makers: the records that record k of tr is made from
 * (the makers of its operands, found by address; see fmt_explain.c), in
 * the order they were computed, into kids (room for FMT_EXPLAIN_MAX_KIDS);
 * returns how many.  fmt_explain_rec_buf: record k as --explain writes it
 * at the top, appended to b: its text, then, indented, a --set of it and
 * what ends the chain under it (a weight of the model, the model's
 * embedding of a word). */
#define FMT_EXPLAIN_MAX_KIDS 128
int fmt_explain_makers(const struct trace *tr, int k, int *kids);
void fmt_explain_rec_buf(struct fmt_buf *b, const struct trace *tr, int k,
			 const struct fmt_opts *o);

/* The defaults: precision 4, top 3, every stage, with the terms. */
void fmt_opts_default(struct fmt_opts *o);

/* The whole trace as text (doc/trace-format.md). */
int fmt_text_trace(FILE *out, const struct trace *tr,
		   const struct fmt_opts *o);

/* One record as text, as it appears in the whole trace: the lines for that
 * step of the arithmetic alone; the output record adds its logits and p_t
 * labelled with their words ("p_1 by word: <s> 0.0005, ...").  For the TUI
 * and lessons. */
void fmt_text_rec(FILE *out, const struct trace *tr,
		  const struct trace_rec *r, const struct fmt_opts *o);

/* One line of a text trace, "  label      (4)   [a, b, c, d]": indent
 * spaces, the label padded to the shape column, the shape and v with prec
 * digits.  For the quiz, which shows vectors as the trace does. */
void fmt_text_line(FILE *out, int indent, const char *label,
		   const double *v, int n, int prec);

/* The whole trace as one JSON object and a newline (doc/trace-format.md);
 * only the keys of the stages in o->stages, on one line if o->compact. */
int fmt_json_trace(FILE *out, const struct trace *tr,
		   const struct fmt_opts *o);

/* The trace as CSV in long form, one number a row:
 * scorer,t,stage,symbol,index,value (with a leading pair column when
 * o->pair is set), and a header line when header is set. */
int fmt_csv_trace(FILE *out, const struct trace *tr, const struct fmt_opts *o,
		  int header);

/* The header line that fmt_csv_trace() writes when header is set. */
void fmt_csv_header(FILE *out, const struct fmt_opts *o);
/* Writes s as one CSV field: quoted when it holds a comma, a quote or a
 * line break (a quote doubled), and prefixed with ' inside quotes when a
 * spreadsheet could run it as a formula. */
void fmt_csv_field(FILE *out, const char *s);

/* s as Markdown text that shows as typed (doc/trace-format.md,
 * "Markdown": <, > and & as entities, the markup characters escaped). */
void fmt_md_text(FILE *out, const char *s);

/* "`[a, b]`": v (n) as fmt_text_vec() writes it with prec digits, as
 * Markdown code so that it keeps its spacing. */
void fmt_md_vec(FILE *out, const double *v, int n, int prec);

/* The trace as Markdown tables for handouts. */
int fmt_md_trace(FILE *out, const struct trace *tr, const struct fmt_opts *o);


/* The section of a self-attention trace (trace.prog TRACE_SELF) that
 * record r belongs to, numbered as doc/trace-format.md lists them: 1 X,
 * 2 Q, K and V, 3 a head's scores and softmax, 4 its Z, 5 the concat and
 * W_O; its title into title (size bytes) unless title is NULL. */
int fmt_mat_section(const struct trace *tr, const struct trace_rec *r,
		    char *title, size_t size);

/* Every weight of the model, as text or as one JSON object. */
int fmt_text_model(FILE *out, const struct model *m,
		   const struct fmt_opts *o);
int fmt_json_model(FILE *out, const struct model *m);

/* Text put together in memory.  The trace formatters build a whole trace
 * in one and write it out with one fwrite: a stdio call for each label,
 * bracket and number would cost as much as formatting the number. */
struct fmt_buf {
	char *p;
	size_t len, cap;
};
#define FMT_BUF_INIT { NULL, 0, 0 }

/* Makes room for n more bytes (the slow path of fmt_buf_room).  A whole
 * trace is tens of kilobytes: its formatter asks for that much at once
 * rather than copy a small buffer again and again as it grows. */
void fmt_buf_grow(struct fmt_buf *b, size_t n);
#define FMT_BUF_TRACE ((size_t)64 << 10)

/* Returns where the next n bytes go; b->len is the caller's to advance.
 * (Always a real buffer, even for n = 0: "<=" makes the first call
 * allocate, so that no caller hands memcpy or memset a null pointer.) */
static inline char *fmt_buf_room(struct fmt_buf *b, size_t n)
{
	if (b->cap - b->len <= n)
		fmt_buf_grow(b, n);
	return b->p + b->len;
}

static inline void fmt_buf_put(struct fmt_buf *b, const char *s, size_t n)
{
	memcpy(fmt_buf_room(b, n), s, n);
	b->len += n;
}

static inline void fmt_buf_putc(struct fmt_buf *b, char c)
{
	*fmt_buf_room(b, 1) = c;
	b->len++;
}

static inline void fmt_buf_puts(struct fmt_buf *b, const char *s)
{
	fmt_buf_put(b, s, strlen(s));
}

void fmt_buf_int(struct fmt_buf *b, int v); /* "%d" */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void fmt_buf_printf(struct fmt_buf *b, const char *fmt, ...); /* %s, %d */

/* Writes out what b holds and empties it; returns 0, or -1 if out has a
 * write error. */
int fmt_buf_flush(struct fmt_buf *b, FILE *out);
void fmt_buf_free(struct fmt_buf *b);

/* fmt_pad, fmt_text_vec, fmt_json_vec and fmt_json_string into a buffer. */
void fmt_buf_pad(struct fmt_buf *b, const char *s, int width);
void fmt_buf_text_vec(struct fmt_buf *b, const double *v, int n, int prec);
void fmt_buf_json_vec(struct fmt_buf *b, const double *v, int n);
void fmt_buf_json_num(struct fmt_buf *b, double x); /* shortest form */
void fmt_buf_json_string(struct fmt_buf *b, const char *s);

/* Appends s (UTF-8) and returns the terminal columns it takes, as
 * fmt_pad() counts them; a label put together from pieces (each whole
 * code points) is padded with fmt_buf_spaces() by the sum of theirs. */
int fmt_buf_put_cols(struct fmt_buf *b, const char *s);
/* Appends n spaces, none if n <= 0: 8 at a time, the last store running
 * past them into the room of fmt_buf_room() (a trace pads hundreds of
 * thousands of labels, most by a few columns, where a call to memset
 * would cost more than the stores). */
static inline void fmt_buf_spaces(struct fmt_buf *b, int n)
{
	char *p;
	if (n <= 0)
		return;
	p = fmt_buf_room(b, (size_t)n + 8);
	for (int k = 0; k < n; k += 8)
		memcpy(p + k, "        ", 8);
	b->len += (size_t)n;
}

/* Writes s (UTF-8) as a JSON string with its quotes, escaping '"', '\\'
 * and every control character. */
void fmt_json_string(FILE *out, const char *s);

/* Writes v (n) as "[a, b, c]" with prec digits, each number right-aligned
 * to the same width. */
void fmt_text_vec(FILE *out, const double *v, int n, int prec);

/* The digits to print operand k of record r with: -1 for whole numbers
 * (--samples' drawn positions l, which the text, Markdown and the
 * stepper write as 3, not 3.0000), else prec.  fmt_buf_text_vec() and
 * fmt_text_vec() write a vector with prec -1 as whole numbers,
 * "[3, 1, 3]". */
int fmt_op_prec(const struct trace_rec *r, int k, int prec);

/* The formula of scorer sc as the runs of tr use it: the class's
 * ("e_t,i = s_t·h_i") when the query is s_t, else with each s_t written
 * s_{t-1} (Bahdanau's), into buf (size bytes).  Returns the one to show. */
const char *fmt_scorer_formula(const struct trace *tr, int sc, char *buf,
			       size_t size);

/* Writes v (n) as a JSON array of shortest round-trip numbers. */
void fmt_json_vec(FILE *out, const double *v, int n);

/* Writes W (rows, cols) as a JSON array of rows. */
void fmt_json_mat(FILE *out, const double *W, int rows, int cols);

/* Writes s padded with spaces to width terminal columns. */
void fmt_pad(FILE *out, const char *s, int width);

/* Writes x with prec digits after the point into buf (NUM_BUFSZ bytes) and
 * returns it; the one way front ends turn a number into text. */
char *fmt_num(char *buf, double x, int prec);

/* One attention weight as a bar, for the stepper and for plain text. */
struct fmt_bar {
	const char *label; /* the source word, borrowed from the model */
	char value[64];    /* α formatted with the precision */
	double frac;       /* α, from 0 to 1: the share of the bar to fill */
	int is_max;        /* 1 for the largest weight (the first of equals) */
	int is_drawn;      /* 1 for hard attention's chosen word l */
};

/* Fills bars (tr->n) with α_t of run `run`; returns tr->n, or 0 if there
 * is no such step. */
int fmt_bars(struct fmt_bar *bars, const struct trace *tr, int run, int t,
	     int prec);

/* α_t as text bars, one line a source word, bar_width columns at most:
 * "  étudiant   ████████▋      0.5716  <- largest". */
void fmt_text_bars(FILE *out, const struct trace *tr, int run, int t,
		   int bar_width, int prec);

/* The shade level, 0 .. levels - 1, of a weight a in [0, 1]. */
int fmt_shade(double a, int levels);

/* The alignment matrix of run as text: a row for each decoder step (its
 * output word), a column for each source word, each cell α with a shade
 * (UTF-8 blocks, or ASCII " .:+#" when ascii is set). */
/* Row t of a heatmap of run: α_t, or with drawn the one-hot of hard
 * attention's chosen word (written into buf, tr->n numbers); NULL when
 * the step has none. */
const double *fmt_heat_row(const struct trace *tr, int run, int t, int drawn,
			   double *buf);

/* The line a heatmap of run of tr says under its caption about its
 * window (window_class.heatmap_note, fixed's: why one column is lit),
 * expanded into buf (size bytes); returns buf, or NULL if the window has
 * none. */
const char *fmt_heat_window_note(const struct trace *tr, int run, char *buf,
				 size_t size);

/* The line a picture of tr says it is a what-if with, when tr was traced
 * with --set edits (tr->cfg.set): "what-if: the trace with --set
 * NAME=VALUE, ..., not the model's own numbers", into buf (size bytes,
 * 1024 holds 32 edits; more end in "…"); returns buf, or NULL without
 * edits.  src/fmt_whatif.c. */
const char *fmt_whatif_note(const struct trace *tr, char *buf, size_t size);
#define FMT_WHATIF_NOTE 1024
/* Breaks note (fmt_whatif_note's) in place into lines at most cols
 * columns wide, between two edits (the blank after the ',' of ", --set "
 * becomes '\n'; an edit wider than cols has a line of its own), at most
 * FMT_WHATIF_LINES (the last takes the rest).  Returns the lines. */
int fmt_whatif_wrap(char *note, int cols);
#define FMT_WHATIF_LINES 8

/* fmt_text_heatmap, with drawn: the one-hot of each step's drawn word. */
void fmt_text_heatmap_drawn(FILE *out, const struct trace *tr, int run,
			    int prec, int ascii, int drawn);

void fmt_text_heatmap(FILE *out, const struct trace *tr, int run, int prec,
		      int ascii);

/* The runs of tr side by side at step t: a column for each scorer, and
 * rows for its scores e_t,i, its weights α_t,i (a short bar each), its
 * context c_t and its output word; as many columns a table as fit width
 * (all when width <= 0), the tables one under the other. */
/* The run ra of trace a and the run of the same scorer in trace b (the
 * same sentence in two architectures) side by side at step t: the query,
 * the scores, the weights with short bars and the output word. */
void fmt_text_compare_arch(FILE *out, const struct trace *a, int ra,
			   const struct trace *b, int t, int prec);

void fmt_text_compare(FILE *out, const struct trace *tr, int t, int prec,
		      int width);

#endif
