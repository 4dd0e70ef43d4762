/* view_predict.c: predict, then reveal, in the lesson stepper.
 *
 * A lesson page with a "predict" line shows its blocks up to it, the
 * line that says what to type and "press z or Enter to answer"; the
 * numbers after it wait.  z, Enter or a digit opens the answer line;
 * Enter checks the answer (predict.h): a wrong one gets the page's hint
 * and a second try, a second wrong one the worked answer, and then, or
 * after a right one, the page shows the rest.  A page once answered
 * stays revealed; leaving a page unanswered starts it afresh. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "predict.h"
#include "view.h"
#include "view_key.h"

/* The lines of the question kept in sight above its feedback. */
#define VP_CONTEXT 4

/* The prediction of page v->pos, or NULL. */
static const struct lesson_predict *vp_pred(const struct view *v)
{
	if (!v->lesson || v->pos < 0 || v->pos >= v->lesson->npages)
		return NULL;
	return v->lesson->pages[v->pos].predict;
}

int view_predict_hidden(const struct view *v)
{
	return vp_pred(v) && !(v->revealed && v->revealed[v->pos]);
}

/* The question in the run shown: the scorer chosen, or the lesson's own
 * on a pinned page, as lesson_page_text_predict renders it. */
static int vp_question(const struct view *v, struct predict_q *q)
{
	struct lesson l = *v->lesson;
	char why[512];
	l.scorer = l.pages[v->pos].pin ? l.own_scorer
		 : (int)v->tr->runs[v->run].scorer;
	return lesson_predict_make(q, &l, vp_pred(v), v->tr,
				   v->fmt.precision, why, sizeof why);
}

char *view_predict_insert(const struct view *v)
{
	char *text = NULL;
	size_t len = 0;
	if (!vp_pred(v))
		return NULL;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (v->predict_open)
		fprintf(f, "%s%s_\n", _("answer> "), v->quiz_input);
	else if (view_predict_hidden(v))
		fputs(_("Press z or Enter to answer, then type it (before "
			"that, letters are the stepper's keys); the numbers "
			"come after your answer.\n"), f);
	if (v->predict_feedback)
		fputs(v->predict_feedback, f);
	fclose(f);
	return text;
}

void view_predict_leave(struct view *v)
{
	free(v->predict_feedback);
	v->predict_feedback = NULL;
	memset(&v->predict, 0, sizeof v->predict);
	v->predict_open = 0;
	v->quiz_input[0] = '\0';
	v->quiz_npart = 0;
}

/* Where the page scrolls once the answer revealed it: its top when the
 * feedback and a few lines under it are in sight from there (v->rows,
 * the body rows last drawn), else the question's last lines above the
 * feedback, the numbers under it. */
static int vp_feedback_line(const struct view *v)
{
	char first[32];
	const char *fb = v->predict_feedback ? v->predict_feedback : "";
	size_t n = strcspn(fb, "\n");
	/* a start that wrapping cannot split: wrapped lines are at least
	 * 40 columns, and this is at most 24 bytes, whole characters */
	n = n > 24 ? 24 : n;
	while (n > 0 && ((unsigned char)fb[n] & 0xC0) == 0x80)
		n--;
	snprintf(first, sizeof first, "%.*s", (int)n, fb);
	int at = n ? view_lesson_line_of(v, first) : -1;
	if (at + VP_CONTEXT <= v->rows) /* in sight from the top */
		return 0;
	return at > VP_CONTEXT ? at - VP_CONTEXT : 0;
}

/* Enter: checks the answer typed. */
static int vp_answer(struct view *v)
{
	struct predict_q q;
	if (vp_question(v, &q) != 0) { /* no question in this run: reveal */
		v->revealed[v->pos] = 1;
		v->predict_open = 0;
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	}
	enum predict_verdict r = predict_answer(&q, &v->predict,
						v->quiz_input);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f) {
		predict_feedback_text(f, &q, r, v->quiz_input);
		if (r == PREDICT_UNREADABLE && v->predict.wrong && q.hint)
			fprintf(f, "Hint: %s\n", q.hint); /* still in sight */
		fclose(f);
	}
	free(v->predict_feedback);
	v->predict_feedback = text;
	v->quiz_input[0] = '\0';
	v->quiz_npart = 0;
	if (v->predict.done) {
		v->revealed[v->pos] = 1;
		v->predict_open = 0;
		v->scroll = vp_feedback_line(v);
	}
	return VIEW_KEY_REDRAW;
}

int view_predict_key(struct view *v, int key)
{
	int enter = key == '\n' || key == '\r' || key == VIEW_KEY_ENTER;
	if (!view_predict_hidden(v))
		return -1;
	if (!v->predict_open) {
		if (key != 'z' && !enter && !(key > 0 && key <= 0xff &&
					      strchr("0123456789-.", key)))
			return -1;
		v->predict_open = 1;
		v->quiz_input[0] = '\0';
		v->quiz_npart = 0;
		v->scroll = VIEW_SCROLL_END; /* the answer line in sight */
		if (key != 'z' && !enter)
			view_quiz_type(v, key);
		return VIEW_KEY_REDRAW;
	}
	if (key == VIEW_KEY_RESIZE)
		return VIEW_KEY_REDRAW;
	if (enter)
		return vp_answer(v);
	if (key == 27) {
		v->predict_open = 0;
		return VIEW_KEY_REDRAW;
	}
	if (key == VIEW_KEY_BACKSPACE || key == 127 || key == '\b') {
		view_quiz_type(v, '\b');
		return VIEW_KEY_REDRAW;
	}
	if (key >= 0 && key <= 0xff)
		return view_quiz_type(v, key) ? VIEW_KEY_REDRAW
			: VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	v->predict_open = 0; /* another key: the line closes, the key acts */
	return -1;
}
