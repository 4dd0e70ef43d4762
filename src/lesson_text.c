/* lesson_text.c: lesson pages as plain text.  Narrative is wrapped here;
 * every number comes from the formatters (fmt.h), which render the
 * records of the trace that lesson_prepare built. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diagram.h"
#include "i18n.h"
#include "lesson.h"
#include "linebreak.h"
#include "window.h"
#include "num.h"
#include "self.h"
#include "trace.h"
#include "utf8.h"

#define LESSON_MIN_WIDTH 10 /* narrower widths are taken as this */

static int lt_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A new string: the words of text (separated by blanks) joined by one
 * space each. */
static char *lt_words(const char *text)
{
	char *t = xmalloc(strlen(text) + 1), *o = t;
	for (const char *s = text; *s; s++) {
		if (!lt_blank(*s))
			*o++ = *s;
		else if (o > t && !lt_blank(s[1]) && s[1])
			*o++ = ' ';
	}
	*o = '\0';
	return t;
}

int lesson_wrap(FILE *out, const char *text, int width)
{
	char *t = lt_words(text);
	size_t n = strlen(t), at = 0, next;
	if (width < LESSON_MIN_WIDTH)
		width = LESSON_MIN_WIDTH;
	while (at < n) {
		size_t end = linebreak_line(t + at, n - at, width, &next);
		fprintf(out, "%.*s\n", (int)end, t + at);
		at += next;
	}
	free(t);
	return ferror(out) ? -1 : 0;
}

/* s and a line of '-' (or '=') as wide as s. */
static void lt_underlined(FILE *out, const char *s, char rule)
{
	int w = utf8_width(s);
	fprintf(out, "%s\n", s);
	for (int k = 0; k < w; k++)
		putc(rule, out);
	putc('\n', out);
}

/* Writes the record (kind, run, t, i) with fmt_text_rec, or a note that
 * the trace has no such record.  Returns 1 if it was there. */
static int lt_rec(FILE *out, const struct trace *tr, enum trace_kind kind,
		  int run, int t, int i, const struct fmt_opts *o)
{
	const struct trace_rec *r = trace_find(tr, kind, run, t, i);
	if (r) {
		fmt_text_rec(out, tr, r, o);
		return 1;
	}
	if (run >= 0)
		fprintf(out, _("(the %s scorer has no step t=%d)\n"),
			trace_scorer_name(tr->runs[run].scorer), t);
	else
		fprintf(out, _("(the sentence has no word i=%d)\n"), i);
	return 0;
}

/* The width of bars that keeps "  word  bar  value  <- largest" within
 * width columns. */
static int lt_bar_width(const struct trace *tr, int prec, int width)
{
	int lw = 0;
	for (int i = 0; i < tr->n; i++) {
		int w = utf8_width(tr->m->src.words[tr->src[i]]);
		if (w > lw)
			lw = w;
	}
	int bw = width - (2 + lw + 2 + 2 + prec + 3 + 12);
	return bw < 8 ? 8 : bw > 40 ? 40 : bw;
}

/* Every record of stage sh->stage at step t of run (the encoder's, for
 * the encoding stage). */
static void lt_stage(FILE *out, const struct trace *tr,
		     const struct lesson_show *sh, int run,
		     const struct fmt_opts *o)
{
	int first = tr->enc_first_rec, count = tr->enc_nrecs;
	if (sh->stage != STAGE_ENCODING) {
		const struct trace_run *ru = &tr->runs[run];
		if (sh->t > ru->nsteps) {
			lt_rec(out, tr, REC_SOFTMAX, run, sh->t, 0, o);
			return;
		}
		first = ru->step_first[sh->t - 1];
		count = (sh->t < ru->nsteps ? ru->step_first[sh->t]
					    : ru->first_rec + ru->nrecs) - first;
	}
	for (int k = first; k < first + count; k++)
		if ((int)tr->recs[k].stage == sh->stage)
			fmt_text_rec(out, tr, &tr->recs[k], o);
}

/* The directives that show one record, or a record for each word. */
static void lt_records(FILE *out, const struct trace *tr,
		       const struct lesson_show *sh, int run,
		       const struct fmt_opts *o)
{
	int t = sh->t, i = sh->i;
	switch (sh->what) {
	case SHOW_EMBEDDING:
		lt_rec(out, tr, REC_EMBED, i ? -1 : run, i ? 0 : t, i, o);
		break;
	case SHOW_ENCODER:
		if (arch_get(tr->arch)->bidir) { /* both directions, h_i */
			if (lt_rec(out, tr, REC_FORWARD, -1, 0, i, o) &&
			    lt_rec(out, tr, REC_BACKWARD, -1, 0, i, o))
				lt_rec(out, tr, REC_ANNOTATION, -1, 0, i, o);
			break;
		}
		lt_rec(out, tr, REC_RNN, -1, 0, i, o);
		break;
	case SHOW_STATE: lt_rec(out, tr, REC_RNN, run, t, 0, o); break;
	case SHOW_SCORE: lt_rec(out, tr, REC_SCORE, run, t, i, o); break;
	case SHOW_SCORES:
		for (int k = 1; k <= tr->n; k++)
			if (!lt_rec(out, tr, REC_SCORE, run, t, k, o))
				return;
		lt_rec(out, tr, REC_SCORES, run, t, 0, o);
		break;
	case SHOW_SOFTMAX: lt_rec(out, tr, REC_SOFTMAX, run, t, 0, o); break;
	case SHOW_WEIGHTED:
		for (int k = i ? i : 1; k <= (i ? i : tr->n); k++)
			if (!lt_rec(out, tr, REC_WEIGHTED, run, t, k, o))
				return;
		break;
	case SHOW_CONTEXT:
		/* hard attention: the soft context, then the draw */
		if (lt_rec(out, tr, REC_CONTEXT, run, t, 0, o))
			for (int k = 1; k <= tr->n; k++)
				if (trace_find(tr, REC_SAMPLE, run, t, k))
					lt_rec(out, tr, REC_SAMPLE, run, t, k,
					       o);
		/* with a target: the exact view, every l tried */
		if (trace_find(tr, REC_EXACT, run, t, 0))
			lt_rec(out, tr, REC_EXACT, run, t, 0, o);
		break;
	case SHOW_CONCAT:
		/* then h̃_t where the architecture makes one (Bahdanau's
		 * has its [s_t; c_t; y_{t-1}] alone) */
		if (lt_rec(out, tr, REC_CONCAT, run, t, 0, o) &&
		    trace_find(tr, REC_ATTENTIONAL, run, t, 0))
			lt_rec(out, tr, REC_ATTENTIONAL, run, t, 0, o);
		break;
	case SHOW_OUTPUT: lt_rec(out, tr, REC_OUTPUT, run, t, 0, o); break;
	default: break;
	}
}

/* The picture of step t of run (diagram.h), laid out for width columns
 * (80 when the width is not known). */
static void lt_diagram(FILE *out, const struct trace *tr, int run, int t,
		       int precision, int width)
{
	struct diagram d;
	struct errbuf err;
	char **lines;
	if (diagram_build(&d, tr, run, t, &err) != 0) {
		fprintf(out, "%s\n", err.msg);
		return;
	}
	int n = diagram_render(&d, width > 0 ? width : 80, 0, precision,
			       &lines);
	for (int k = 0; k < n; k++)
		fprintf(out, "%s\n", lines[k]);
	diagram_lines_free(lines, n);
}

/* A directive that shows the decoder says which scorer it uses when that
 * is not the lesson's own. */
static int lt_names_run(const struct lesson_show *sh, int run,
			const struct lesson *l, const struct trace *tr)
{
	int decoder = sh->what == SHOW_EMBEDDING ? sh->t > 0 :
		      sh->what == SHOW_STAGE ? sh->stage != STAGE_ENCODING :
		      sh->what != SHOW_ENCODER && sh->what != SHOW_COMPARE &&
		      sh->what != SHOW_HEATMAP && sh->what != SHOW_WEIGHTS &&
		      sh->what != SHOW_ACCURACY && sh->what != SHOW_GLIMPSE &&
		      sh->what != SHOW_GLIMPSES;
	return decoder && tr->runs[run].scorer != l->scorer;
}

/* The run that directive sh uses: run when it is >= 0 and sh names no
 * scorer, else lesson_show_run(), within the runs there are. */
static int lt_run(const struct lesson *l, const struct lesson_show *sh,
		  const struct trace *tr, int run)
{
	if (run < 0 || sh->scorer >= 0)
		run = lesson_show_run(l, sh, tr);
	return run < 0 ? 0 : run >= tr->nruns ? tr->nruns - 1 : run;
}

/* Whether directive sh is on a pinned page. */
static int lt_show_pinned(const struct lesson *l, const struct lesson_show *sh)
{
	for (int p = 0; p < l->npages; p++)
		for (int b = 0; b < l->pages[p].nblocks; b++)
			if (&l->pages[p].blocks[b].show == sh)
				return l->pages[p].pin != NULL;
	return 0;
}

int lesson_quiz_make(struct quiz_question *q, const struct lesson *l,
		     const struct lesson_show *sh, const struct trace *tr,
		     int run, int precision, struct errbuf *err)
{
	if (lt_show_pinned(l, sh)) /* the page shows its own scorer's */
		run = trace_run_of(tr, l->own_scorer);
	if (sh->what == SHOW_SELF)
		return lesson_self_quiz_make(q, l, sh, precision, err);
	if (sh->glimpse_quiz)
		return lesson_glimpse_quiz_make(q, l, sh, precision, err);
	return quiz_make_at(q, tr, lt_run(l, sh, tr, run),
			    (enum trace_stage)sh->stage, sh->t, sh->i, sh->k,
			    precision, err);
}

/* A quiz directive: its question, without the answer. */
static void lt_quiz(FILE *out, const struct lesson *l,
		    const struct lesson_show *sh, const struct trace *tr,
		    const struct fmt_opts *o, int run, int width)
{
	struct quiz_question q;
	struct errbuf err;
	if (lesson_quiz_make(&q, l, sh, tr, run, o->precision, &err) != 0) {
		lt_rec(out, tr, REC_SOFTMAX, run, sh->t, 0, o);
		return;
	}
	fputs(_("Quiz: work it out by hand.\n"), out);
	/* wrapped at the page's width, so that the page's own wrapping
	 * leaves it whole */
	quiz_prompt_text_cols(out, &q, width > 0 ? width : 80);
}

int lesson_show_text(FILE *out, const struct lesson *l,
		     const struct lesson_show *sh, const struct trace *tr,
		     const struct fmt_opts *o, int run, int width)
{
	struct fmt_opts fo = *o;
	if (sh->what == SHOW_SELF) {
		lesson_self_text(out, l, sh, o, width);
		return ferror(out) ? -1 : 0;
	}
	fo.terms = sh->arithmetic && o->terms; /* o->terms 0: folded */
	fo.no_by_word = !o->terms; /* folded: the output's lists by word too */
	tr = lesson_show_trace(l, sh, tr);
	if (run < 0 || sh->scorer >= 0)
		run = lesson_show_run(l, sh, tr);
	if (run < 0)
		run = 0;
	if (run >= tr->nruns)
		run = tr->nruns - 1;
	if (sh->alt > 0 && l->alts[sh->alt - 1].window >= 0)
		fprintf(out, _("(the model %s, window %s)\n"),
			l->alts[sh->alt - 1].name,
			window_get(l->alts[sh->alt - 1].window)->name);
	else if (sh->alt > 0)
		fprintf(out, _("(the model %s)\n"), l->alts[sh->alt - 1].name);
	if (lt_names_run(sh, run, l, tr))
		fprintf(out, _("(%s scorer)\n"),
			trace_scorer_name(tr->runs[run].scorer));
	switch (sh->what) {
	case SHOW_STAGE:
		lt_stage(out, tr, sh, run, &fo);
		break;
	case SHOW_WEIGHTS:
		/* TRANSLATORS: α_%1$d is the symbol, %2$s a scorer's name */
		fprintf(out, _("the attention weights α_%d, %s scorer:\n"), sh->t,
			trace_scorer_name(tr->runs[run].scorer));
		if (sh->t <= tr->runs[run].nsteps)
			fmt_text_bars(out, tr, run, sh->t,
				      lt_bar_width(tr, fo.precision, width),
				      fo.precision);
		else
			lt_rec(out, tr, REC_SOFTMAX, run, sh->t, 0, &fo);
		break;
	case SHOW_HEATMAP:
		fmt_text_heatmap(out, tr, run, fo.precision, 0);
		break;
	case SHOW_COMPARE:
		fmt_text_compare(out, tr, sh->t, fo.precision, width);
		break;
	case SHOW_DIAGRAM:
		lt_diagram(out, tr, run, sh->t, fo.precision, width);
		break;
	case SHOW_QUIZ:
		lt_quiz(out, l, sh, tr, &fo, run, width);
		break;
	case SHOW_WORDS:
	case SHOW_GRADPATHS:
	case SHOW_ACCURACY:
		lesson_why_text(out, l, sh, tr, run, &fo, width);
		break;
	case SHOW_IMAGE:
	case SHOW_GLIMPSE:
	case SHOW_GLIMPSES:
		lesson_image_text(out, l, sh, tr, run, &fo);
		break;
	default:
		lt_records(out, tr, sh, run, &fo);
		break;
	}
	return ferror(out) ? -1 : 0;
}

/* A paragraph, wrapped, or a verbatim block, with its references
 * filled in from *ref on. */
static void lt_prose(FILE *out, const struct lesson *l,
		     const struct lesson_page *pg, int *ref,
		     const struct lesson_block *bl, const struct trace *tr,
		     const struct fmt_opts *o, int width)
{
	char *text = lesson_ref_fill(l, pg, ref, bl->text, tr, o->precision);
	if (bl->verbatim)
		fprintf(out, "%s\n", text);
	else
		lesson_wrap(out, text, width);
	free(text);
}

/* The lesson that page pg is rendered with: l, or, when the page is
 * pinned and the scorer key chose another scorer, a copy in *own with the
 * lesson's own scorer, after a note that says why. */
static const struct lesson *lt_pinned(FILE *out, const struct lesson *l,
				      const struct lesson_page *pg,
				      struct lesson *own, int width)
{
	if (!pg->pin || l->scorer == l->own_scorer)
		return l;
	*own = *l;
	own->scorer = l->own_scorer;
	size_t size = strlen(pg->pin) + 64;
	char *note = xmalloc(size);
	/* TRANSLATORS: %1$s the scorer's name, %2$s the lesson's reason */
	snprintf(note, size, _("(This page stays with the %1$s scorer: %2$s)"),
		 trace_scorer_name(own->scorer), pg->pin);
	putc('\n', out);
	lesson_wrap(out, note, width);
	free(note);
	return own;
}

/* What one directive shows, in a few words, into buf: "the softmax of
 * step 1".  The words name the trace's own symbols (doc/notation.md). */
static void lt_show_what(char *buf, size_t size, const struct lesson_show *sh,
			 const struct trace *tr)
{
	static const char *const self_what[SELF_STAGE_COUNT + 1] = {
		N_("self-attention's inputs X"), N_("the queries, keys and values"),
		N_("the scores and the mask"), N_("the softmax of each row"),
		N_("each head's output Z = A V"), N_("the heads joined and W_O"),
		N_("both heads' weights as heatmaps")
	};
	int t = sh->t, i = sh->i;
	switch (sh->what) {
	case SHOW_EMBEDDING:
		if (i > 0)
			snprintf(buf, size, _("the embedding x_%d"), i);
		else
			snprintf(buf, size, _("the word step %d reads, y_%d"), t,
				 t - 1);
		return;
	case SHOW_ENCODER:
		snprintf(buf, size, _("the encoder step that makes h_%d"), i);
		return;
	case SHOW_STATE:
		snprintf(buf, size, _("the decoder step that makes s_%d"), t);
		return;
	case SHOW_SCORE:
		snprintf(buf, size, _("the score e_%d,%d"), t, i);
		return;
	case SHOW_SCORES:
		snprintf(buf, size, _("the scores of step %d"), t);
		return;
	case SHOW_SOFTMAX:
		snprintf(buf, size, _("the softmax of step %d"), t);
		return;
	case SHOW_WEIGHTS:
		snprintf(buf, size, _("the weights %s_%d as bars"),
			 trace_weight_symbol(tr), t);
		return;
	case SHOW_WEIGHTED:
		if (i > 0)
			snprintf(buf, size, _("word %d's share of c_%d"), i, t);
		else
			snprintf(buf, size, _("each word's share of c_%d"), t);
		return;
	case SHOW_CONTEXT:
		snprintf(buf, size, _("the context c_%d"), t);
		return;
	case SHOW_CONCAT:
		snprintf(buf, size, _("the concatenation of step %d"), t);
		return;
	case SHOW_OUTPUT:
		snprintf(buf, size, _("the output of step %d"), t);
		return;
	case SHOW_STAGE:
		if (t > 0)
			snprintf(buf, size, _("the %s stage of step %d"),
				 trace_stage_name(sh->stage), t);
		else
			snprintf(buf, size, _("the %s stage"),
				 trace_stage_name(sh->stage));
		return;
	case SHOW_HEATMAP:
		snprintf(buf, size, "%s", sh->alt ? _("another model's heatmap")
			 : _("the alignment heatmap"));
		return;
	case SHOW_COMPARE:
		snprintf(buf, size, _("the scorers side by side at step %d"), t);
		return;
	case SHOW_QUIZ:
		snprintf(buf, size, "%s", _("a question for you"));
		return;
	case SHOW_SELF:
		snprintf(buf, size, "%s", sh->self_quiz ? _("a question for you")
			 : _(self_what[sh->self_stage]));
		return;
	case SHOW_DIAGRAM:
		snprintf(buf, size, _("the picture of step %d"), t);
		return;
	case SHOW_WORDS:
		snprintf(buf, size, "%s", sh->alt
			 ? _("the words another model predicts")
			 : _("the words the model predicts"));
		return;
	case SHOW_GRADPATHS:
		snprintf(buf, size, "%s", sh->alt
			 ? _("the gradient paths of another model")
			 : _("the gradient paths of the model"));
		return;
	case SHOW_ACCURACY:
		snprintf(buf, size, "%s", _("word accuracy by source length"));
		return;
	case SHOW_IMAGE:
		if (t > 0)
			snprintf(buf, size, _("the weights of step %d over the "
					      "image"), t);
		else
			snprintf(buf, size, "%s", _("the image"));
		return;
	case SHOW_GLIMPSE:
		snprintf(buf, size, _("glimpse %d"), t);
		return;
	case SHOW_GLIMPSES:
		snprintf(buf, size, "%s",
			 _("the path of the glimpses and the class"));
		return;
	case SHOW_COUNT:
		break;
	}
	snprintf(buf, size, "?");
}

/* The page's opener, one line that says what the page shows: "On this
 * page: the score e_1,1; the weights α_1 as bars.", each directive's words
 * once, in their order.  A page without a directive has none. */
static void lt_opener(FILE *out, const struct lesson_page *pg,
		      const struct trace *tr, int width)
{
	char line[1024], what[160];
	size_t at = (size_t)snprintf(line, sizeof line, "%s", _("On this page: "));
	int n = 0;
	for (int b = 0; b < pg->nblocks; b++) {
		if (pg->blocks[b].text)
			continue;
		lt_show_what(what, sizeof what, &pg->blocks[b].show, tr);
		if (strstr(line, what) || at + strlen(what) + 3 >= sizeof line)
			continue; /* each once */
		/* TRANSLATORS: what separates the items of "On this page:
		 * a; b; c." */
		at += (size_t)snprintf(line + at, sizeof line - at, "%s%s",
				       n++ ? _("; ") : "", what);
	}
	if (n == 0)
		return;
	/* TRANSLATORS: the full stop that ends "On this page: ..." */
	at = strlen(line);
	snprintf(line + at, sizeof line - at, "%s", _("."));
	lesson_wrap(out, line, width);
}

/* Prediction pr's line of what to type, and insert after it. */
static void lt_predict(FILE *out, const struct lesson *l,
		       const struct lesson_predict *pr,
		       const struct trace *tr, const struct fmt_opts *o,
		       const char *insert)
{
	struct predict_q q;
	char why[512];
	if (lesson_predict_make(&q, l, pr, tr, o->precision, why,
				sizeof why) != 0)
		/* TRANSLATORS: %1$s the scorer's name, %2$s why not */
		fprintf(out, _("(no prediction in the %1$s scorer's run: "
			       "%2$s)\n"),
			trace_scorer_name(l->scorer), why);
	else
		predict_prompt_text(out, &q);
	if (insert)
		fputs(insert, out);
}

int lesson_page_text_predict(FILE *out, const struct lesson *l, int p,
			     const struct trace *tr, const struct fmt_opts *o,
			     int width, int hide, const char *insert)
{
	if (p < 0 || p >= l->npages)
		return 0;
	const struct lesson_page *pg = &l->pages[p];
	const struct lesson_predict *pr = pg->predict;
	struct lesson own;
	int ref = 0;
	lt_underlined(out, pg->title, '-');
	lt_opener(out, pg, tr, width);
	l = lt_pinned(out, l, pg, &own, width);
	for (int b = 0; b < pg->nblocks; b++) {
		const struct lesson_block *bl = &pg->blocks[b];
		if (pr && b == pr->block) {
			putc('\n', out);
			lt_predict(out, l, pr, tr, o, insert);
			if (hide)
				return ferror(out) ? -1 : 0;
		}
		putc('\n', out);
		if (!bl->text)
			lesson_show_text(out, l, &bl->show, tr, o, -1, width);
		else
			lt_prose(out, l, pg, &ref, bl, tr, o, width);
	}
	if (p == l->npages - 1 && l->next) { /* where to go from here */
		putc('\n', out);
		lesson_wrap(out, l->next, width);
	}
	return ferror(out) ? -1 : 0;
}

int lesson_page_text(FILE *out, const struct lesson *l, int p,
		     const struct trace *tr, const struct fmt_opts *o,
		     int width)
{
	return lesson_page_text_predict(out, l, p, tr, o, width, 0, NULL);
}

/* 1 if page p has answers for [answers]: a quiz or a prediction. */
static int lt_has_answers(const struct lesson *l, int p)
{
	return lesson_page_quiz(l, p) || l->pages[p].predict;
}

const struct lesson_show *lesson_page_quiz(const struct lesson *l, int p)
{
	if (p < 0 || p >= l->npages)
		return NULL;
	const struct lesson_page *pg = &l->pages[p];
	for (int b = 0; b < pg->nblocks; b++)
		if (!pg->blocks[b].text && (pg->blocks[b].show.what == SHOW_QUIZ
		    || (pg->blocks[b].show.what == SHOW_SELF &&
			pg->blocks[b].show.self_quiz)))
			return &pg->blocks[b].show;
	return NULL;
}

int lesson_page_answers(FILE *out, const struct lesson *l, int p,
			const struct trace *tr, const struct fmt_opts *o)
{
	if (p < 0 || p >= l->npages || !lt_has_answers(l, p))
		return 0;
	const struct lesson_page *pg = &l->pages[p];
	putc('\n', out);
	if (pg->predict) {
		struct predict_q q;
		char why[512];
		if (lesson_predict_make(&q, l, pg->predict, tr, o->precision,
					why, sizeof why) == 0)
			fprintf(out, q.kind == PREDICT_YESNO ?
				_("(prediction: %s? %s)\n") :
				_("(prediction: %s = %s)\n"), q.symbol,
				q.answer);
	}
	for (int b = 0; b < pg->nblocks; b++) {
		const struct lesson_show *sh = &pg->blocks[b].show;
		struct quiz_question q;
		struct errbuf err;
		if (pg->blocks[b].text || (sh->what != SHOW_QUIZ &&
		    !(sh->what == SHOW_SELF && sh->self_quiz)) ||
		    lesson_quiz_make(&q, l, sh, tr, -1, o->precision,
				     &err) != 0)
			continue;
		char buf[NUM_BUFSZ];
		fprintf(out, _("(answer: %s = %s)\n"), q.symbol,

			quiz_value(buf, &q, q.expected));
	}
	return ferror(out) ? -1 : 0;
}

/* "Sentence: je suis étudiant" and the like, wrapped. */
static void lt_field(FILE *out, const char *name, const char *value,
		     int width)
{
	/* TRANSLATORS: a field of a lesson's head: "Sentence: je suis" */
	const char *form = _("%s: %s");
	size_t n = strlen(name) + strlen(value) + strlen(form);
	char *s = xmalloc(n);
	snprintf(s, n, form, name, value);


	lesson_wrap(out, s, width);
	free(s);
}

/* A wrapped line's continuation, beyond the line's own indent, as the
 * deck indents the arithmetic it wraps. */
#define LT_CONT 6

/* Writes the n bytes of line (no '\n') at most width columns wide: a line
 * that fits as it is, else broken by the rule of linebreak.h (never in a
 * number or a symbol), each row after the first indented LT_CONT columns
 * more than the line.  The prose is wrapped already; what comes here too
 * wide is a formatter's line, the arithmetic of a step. */
static void lt_fit_line(FILE *out, const char *line, size_t n, int width,
			int nl)
{
	char *s = xstrndup(line, n);
	if (utf8_width(s) <= width) {
		fprintf(out, "%s%s", s, nl ? "\n" : "");
		free(s);
		return;
	}
	size_t ind = strspn(s, " ");
	int cont = (int)ind + LT_CONT;
	if (cont > width / 2)
		cont = (int)ind;
	size_t at = ind;
	for (int row = 0; at < n; row++) {
		int pad = row ? cont : (int)ind;
		size_t next, start = at;
		size_t len = linebreak_line(s + at, n - at, width - pad, &next);
		at += next > 0 ? next : n - at;
		fprintf(out, "%*s%.*s%s", pad, "", (int)len, s + start,
			at < n || nl ? "\n" : "");
	}
	free(s);
}

/* Writes page p as lesson_page_text() does, every line at most width
 * columns wide (lt_fit_line()). */
static int lt_page_fit(FILE *out, const struct lesson *l, int p,
		       const struct trace *tr, const struct fmt_opts *o,
		       int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	int rc = lesson_page_text(f, l, p, tr, o, width);
	if (fclose(f) != 0)
		rc = -1;
	for (size_t at = 0; rc == 0 && at < len;) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;
		lt_fit_line(out, buf + at, n, width, nl != NULL);
		at += n + (nl != NULL);
	}
	free(buf);
	return rc;
}

static int lt_plain_pages(FILE *out, const struct lesson *l,
			  const struct trace *tr, const struct fmt_opts *o,
			  int width, int answers);

int lesson_plain(FILE *out, const struct lesson *l, const struct trace *tr,
		 const struct fmt_opts *o, int width, int answers)
{
	lt_underlined(out, l->title, '=');
	putc('\n', out);
	if (l->goal)
		lt_field(out, _("Goal"), l->goal, width);
	if (l->image)
		lt_field(out, _("Image"), l->image, width);
	if (l->glimpse) {
		char g[160];
		if (l->cls)
			/* TRANSLATORS: %1$s the glimpse model, %2$llu the
			 * seed of the draws, %3$s the image's true class */
			snprintf(g, sizeof g, _("%1$s, seed %2$llu, true class "
						"%3$s"), l->glimpse,
				 (unsigned long long)l->cfg.seed, l->cls);
		else
			snprintf(g, sizeof g, _("%1$s, seed %2$llu"),
				 l->glimpse, (unsigned long long)l->cfg.seed);
		lt_field(out, _("Glimpses"), g, width);
	}
	if (!l->image)
		lt_field(out, _("Sentence"), l->sentence, width);
	if (l->glimpse) /* the caption trace beside it is not its subject */
		return lt_plain_pages(out, l, tr, o, width, answers);
	lt_field(out, l->image ? _("Caption") : _("Target"), l->target
		 ? l->target
		 : _("none (the model decodes greedily)"), width);
	lt_field(out, _("Scorer"), trace_scorer_name(l->scorer), width);
	if (l->cfg.window != WINDOW_DEFAULT) {
		char win[64];
		if (window_get(l->cfg.window)->sizeless)
			snprintf(win, sizeof win, "%s",
				 window_get(l->cfg.window)->name);
		else
			snprintf(win, sizeof win, "%s, D = %d",
				 window_get(l->cfg.window)->name,
				 l->cfg.window_size);
		lt_field(out, _("Window"), win, width);
	}
	lt_field(out, _("Model"), tr->m->name, width);
	return lt_plain_pages(out, l, tr, o, width, answers);
}

/* lesson_plain's pages, and after them the answers when asked for. */
static int lt_plain_pages(FILE *out, const struct lesson *l,
			  const struct trace *tr, const struct fmt_opts *o,
			  int width, int answers)
{
	int quizzes = 0;
	for (int p = 0; p < l->npages; p++) {
		/* TRANSLATORS: a page's header in lesson --plain: page 1 of 5 */
		fprintf(out, _("\n\n[page %d of %d]\n"), p + 1, l->npages);
		if (lt_page_fit(out, l, p, tr, o, width) != 0)
			return -1;
		quizzes += lt_has_answers(l, p);
	}
	if (!answers || !quizzes)
		return ferror(out) ? -1 : 0;
	fputs(_("\n\n[answers]\n"), out);
	for (int p = 0; p < l->npages; p++) {
		if (!lt_has_answers(l, p))
			continue;
		fprintf(out, _("\npage %d:"), p + 1);
		lesson_page_answers(out, l, p, tr, o);
	}
	return ferror(out) ? -1 : 0;
}
