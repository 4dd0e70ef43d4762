/* quiz_text.c: questions, answers and feedback as text.  Every number is
 * one the trace recorded, written by the formatters (fmt.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "glimpse_quiz.h"
#include "i18n.h"
#include "linebreak.h"
#include "num.h"
#include "quiz.h"
#include "self.h"

#define QUIZ_CLOSE 10     /* a wrong answer this many tolerances off is
                             "close" */

/* "  label            (4)   [a, b, c, d]", laid out as the trace does. */
static void qt_line(FILE *out, const char *label, const double *v, int n,
		    int prec)
{
	fmt_text_line(out, 2, label, v, n, prec);
}

static void qt_op(FILE *out, const struct trace *tr,
		  const struct trace_rec *r, int k, int prec)
{
	struct trace_names nm;
	trace_names(tr, r, &nm);
	qt_line(out, nm.op[k], r->ops[k].v, r->ops[k].len, prec);
}

/* The source word at position i (from 1). */
static const char *qt_word(const struct trace *tr, int i)
{
	return tr->m->src.words[tr->src[i - 1]];
}

static void qt_scoring(FILE *out, const struct quiz_question *q)
{
	const struct trace_rec *r = q->rec;
	const struct trace *tr = q->tr;
	struct trace_names nm;
	int p = q->precision;
	trace_names(tr, r, &nm);
	char lead[256];
	/* the scorer's own lead-in, then the two vectors whose products
	 * sum to the score */
	trace_expand(lead, sizeof lead,
		     _(scorer_get(tr->runs[q->run].scorer)->quiz), tr, r);
	fprintf(out, "%s\n", lead);
	for (int k = 0; k < 2; k++)
		if (r->term_ops[k] >= 0)
			qt_op(out, tr, r, r->term_ops[k], p);
	fprintf(out, _("What is the score %s = %s?\n"), q->symbol, nm.formula);
}

static void qt_softmax(FILE *out, const struct quiz_question *q)
{
	if (q->tr->enc) /* an image's: the cells */
		fprintf(out, _("The scores of step %d, one for each cell of "
			       "the image:\n"), q->t);
	else
		fprintf(out, _("The scores of step %d, one for each source "
			       "word:\n"), q->t);
	qt_op(out, q->tr, q->rec, 0, q->precision);
	if (q->rec->win_lo) /* a local window: the softmax over it alone */
		fprintf(out, _("The window of step %d is positions %d .. %d; a "
			  "word outside it weighs 0.\n"), q->t, q->rec->win_lo,
			q->rec->win_hi);
	fprintf(out, _("What is the weight of h_%d (%s), %s = exp(e_%d,%d - max) "
		  "/ Σ_j exp(e_%d,j - max)?\n"), q->i, qt_word(q->tr, q->i),
		q->symbol, q->t, q->i, q->t);
}

static void qt_weighted(FILE *out, const struct quiz_question *q)
{
	const struct trace *tr = q->tr;
	struct trace_names nm;
	fprintf(out, _("The weights of step %d and the encoder states:\n"), q->t);
	trace_names(tr, q->softmax, &nm);
	qt_line(out, nm.symbol, q->softmax->result, q->softmax->len,
		q->precision);
	for (int i = 1; i <= tr->n; i++) {
		const struct trace_rec *w = trace_find(tr, REC_WEIGHTED, q->run,
						       q->t, i);
		char lab[160];
		if (!w)
			continue;
		trace_names(tr, w, &nm);
		const int h = trace_op_at(w, "h");
		snprintf(lab, sizeof lab, "%s (%s)", nm.op[h], qt_word(tr, i));
		qt_line(out, lab, w->ops[h].v, w->ops[h].len, q->precision);
	}
	/* the weights shown above: local-p's a_t (REC_GAUSS), else α_t */
	fprintf(out, _("What is coordinate %d of the context vector, %s = "
		  "Σ_i %s_%d,i·h_i[%d]?\n"), q->k, q->symbol,
		q->softmax->kind == REC_GAUSS ? "a" : "α", q->t, q->k);
}

/* hard-draw: α_t and u_t; the learner adds up the cumulative sums.  A
 * window whose weights are not a distribution (local-p) is drawn from
 * normalised: π_t, which is shown instead. */
static void qt_hard_draw(FILE *out, const struct quiz_question *q)
{
	char buf[NUM_BUFSZ];
	const struct trace_operand *pi = trace_op_key(q->rec, "pi");
	const char *d = pi ? "π" : "α";
	if (q->tr->enc)
		fprintf(out, _("Hard attention draws one cell of the image at "
			       "step %d. The weights, and the number u drawn "
			       "for it:\n"), q->t);
	else
		fprintf(out, _("Hard attention draws one source word at step "
			       "%d. The weights, and the number u drawn for "
			       "it:\n"), q->t);
	if (pi) {
		fprintf(out, _("(local-p's weights a_%d add up to %s, less than 1: "
			  "the draw is from π_%d = a_%d / Σ_j a_%d,j)\n"), q->t,
			fmt_num(buf, trace_op_key(q->rec, "sum")->v[0],
				q->precision), q->t, q->t, q->t);
		qt_op(out, q->tr, q->rec, (int)(pi - q->rec->ops),
		      q->precision);
	} else {
		qt_op(out, q->tr, q->rec, 0, q->precision);
	}
	fprintf(out, "  u_%d = %s\n", q->t,
		fmt_num(buf, trace_op_key(q->rec, "u")->v[0], q->precision));
	fprintf(out, _("Add up the weights in order: cumsum_%d,j = %s_%d,1 + ... + "
		  "%s_%d,j.\nWhich word is drawn, %s = the first j with u_%d < "
		  "cumsum_%d,j?\n"), q->t, d, q->t, d, q->t, q->symbol, q->t, q->t);
}

static int qt_prompt(FILE *out, const struct quiz_question *q)
{
	char buf[NUM_BUFSZ];
	if (q->stage == QUIZ_HARD_DRAW && !q->st) {
		qt_hard_draw(out, q);
		fprintf(out, _("Give the position j, from 1 to %d.\n"), q->tr->n);
		return ferror(out) ? -1 : 0;
	}
	if (q->gq)
		glimpse_quiz_prompt_text(out, q);
	else if (q->st)
		self_quiz_prompt_text(out, q);
	else if (q->stage == STAGE_SCORING)
		qt_scoring(out, q);
	else if (q->stage == STAGE_SOFTMAX)
		qt_softmax(out, q);
	else
		qt_weighted(out, q);
	fprintf(out, _("Give %d decimal places; an answer within %s × (1 + |%s|) "
		  "counts.\n"), q->precision,
		fmt_num(buf, quiz_tolerance(0.0, q->precision), q->precision),
		q->symbol);
	return ferror(out) ? -1 : 0;
}

char *quiz_value(char *buf, const struct quiz_question *q, double v)
{
	if (q->stage == QUIZ_HARD_DRAW && !q->st) {
		snprintf(buf, NUM_BUFSZ, "%d", (int)v);
		return buf;
	}
	return fmt_num(buf, v, q->precision);
}

int quiz_answer_text(FILE *out, const struct quiz_question *q)
{
	char buf[NUM_BUFSZ];
	fprintf(out, "%s = %s", q->symbol, quiz_value(buf, q, q->expected));
	if (q->stage == QUIZ_HARD_DRAW && !q->st)
		fprintf(out, " (%s)", qt_word(q->tr, (int)q->expected));
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* A number as a factor: negatives in parentheses, as traces write them. */
static void qt_factor(FILE *out, double x, int prec)
{
	char buf[NUM_BUFSZ];
	fmt_num(buf, x, prec);
	fprintf(out, buf[0] == '-' ? "(%s)" : "%s", buf);
}

/* c_t[k] written out from the recorded terms: α_t,i×h_i[k] for each i. */
static void qt_coordinate(FILE *out, const struct quiz_question *q)
{
	char buf[NUM_BUFSZ];
	fprintf(out, "%s = ", q->symbol);
	for (int i = 1; i <= q->tr->n; i++) {
		const struct trace_rec *w = trace_find(q->tr, REC_WEIGHTED,
						       q->run, q->t, i);
		if (!w)
			continue;
		fputs(i > 1 ? " + " : "", out);
		qt_factor(out, trace_op(w, "weight")->v[0], q->precision);
		fputs("×", out);
		qt_factor(out, trace_op(w, "h")->v[q->k - 1], q->precision);
	}
	fprintf(out, " = %s\n", fmt_num(buf, q->expected, q->precision));
}

static int qt_worked(FILE *out, const struct quiz_question *q)
{
	struct fmt_opts o;
	struct trace_names nm;
	if (q->gq)
		return glimpse_quiz_worked_text(out, q);
	if (q->st)
		return self_quiz_worked_text(out, q);
	fmt_opts_default(&o);
	o.precision = q->precision;
	o.terms = 1;
	trace_names(q->tr, q->rec, &nm);
	if (q->stage == STAGE_SOFTMAX)
		fprintf(out, "%s = %s\n", nm.symbol, nm.formula);
	if (q->stage == STAGE_WEIGHTED_SUM)
		for (int i = 1; i <= q->tr->n; i++) {
			const struct trace_rec *w = trace_find(
				q->tr, REC_WEIGHTED, q->run, q->t, i);
			if (w)
				fmt_text_rec(out, q->tr, w, &o);
		}
	fmt_text_rec(out, q->tr, q->rec, &o);
	if (q->stage == STAGE_WEIGHTED_SUM)
		qt_coordinate(out, q);
	return ferror(out) ? -1 : 0;
}

static int qt_worked_cols(FILE *out, const struct quiz_question *q,
			  int cols);

int quiz_feedback_text(FILE *out, const struct quiz_question *q,
		       const struct quiz_answer *a)
{
	return quiz_feedback_text_cols(out, q, a, 80);
}

int quiz_feedback_text_cols(FILE *out, const struct quiz_question *q,
			    const struct quiz_answer *a, int cols)
{
	char buf[NUM_BUFSZ];
	switch (a->result) {
	case QUIZ_RIGHT:
		fputs(_("right: "), out);
		return quiz_answer_text(out, q);
	case QUIZ_WRONG:
		fprintf(out, _("not quite: %s = %s, not "), q->symbol,
			quiz_value(buf, q, q->expected));
		fputs(a->text, out);
		if (q->stage != QUIZ_HARD_DRAW &&
		    fabs(a->value - q->expected) <= QUIZ_CLOSE * q->tolerance)
			fprintf(out, _(" (close: give %d decimal places)"),
				q->precision);
		fputs(_(".\nThe worked arithmetic:\n"), out);
		return qt_worked_cols(out, q, cols);
	default:
		fprintf(out, "%s\n", a->hint ? a->hint : _("Type a number."));
		return ferror(out) ? -1 : 0;
	}
}

/* Writes text with each line wider than QT_COLS display columns broken
 * where linebreak_line() breaks (at a blank, never inside a number or a
 * symbol), the lines after the first of it indented by QT_INDENT, so a
 * question or its worked arithmetic reads whole on an 80-column
 * terminal. */
enum { QT_COLS = 80, QT_INDENT = 4 };
static void qt_wrap(FILE *out, const char *text, int cols)
{
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n"), at = 0, next;
		int room = cols;
		do {
			size_t end = linebreak_line(s + at, n - at, room, &next);
			fprintf(out, "%*s%.*s\n", room < cols ? QT_INDENT : 0,
				"", (int)end, s + at);
			at += next;
			room = cols - QT_INDENT;
		} while (at < n);
		s += n + (s[n] == '\n');
	}
}

/* Runs fn into memory, then writes what it wrote wrapped (qt_wrap). */
static int qt_wrapped(FILE *out, const struct quiz_question *q,
		      int (*fn)(FILE *, const struct quiz_question *), int cols)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -1;
	int rc = fn(m, q);
	if (fclose(m) != 0)
		rc = -1;
	if (rc == 0)
		qt_wrap(out, buf, cols);
	free(buf);
	return rc != 0 || ferror(out) ? -1 : 0;
}

int quiz_prompt_text(FILE *out, const struct quiz_question *q)
{
	return qt_wrapped(out, q, qt_prompt, QT_COLS);
}

int quiz_prompt_text_cols(FILE *out, const struct quiz_question *q,
			  int cols)
{
	return qt_wrapped(out, q, qt_prompt, cols < 40 ? 40 : cols);
}

int quiz_worked_text(FILE *out, const struct quiz_question *q)
{
	return qt_wrapped(out, q, qt_worked, QT_COLS);
}

static int qt_worked_cols(FILE *out, const struct quiz_question *q,
			  int cols)
{
	return qt_wrapped(out, q, qt_worked, cols < 40 ? 40 : cols);
}
