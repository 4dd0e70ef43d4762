/* predict.c: checking a prediction, hint, second try, worked answer. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "num.h"
#include "predict.h"
#include "quiz.h"
#include "utf8.h"

const char *predict_word(const struct predict_q *q, int k)
{
	if (k < 0 || k >= q->nwords)
		return "?";
	return q->names[q->ids ? q->ids[k] : k];
}

static int pr_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* 1 if a and b (b of length n) fold to the same text. */
static int pr_same(const char *a, const char *b, size_t n)
{
	char *x = utf8_fold(a, strlen(a)), *y = utf8_fold(b, n);
	int same = strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

/* The position (from 1) that the answer s[0..n) names, or 0. */
static int pr_word(const struct predict_q *q, const char *s, size_t n)
{
	char buf[16];
	const char *end;
	double v;
	if (n < sizeof buf) {
		snprintf(buf, sizeof buf, "%.*s", (int)n, s);
		if (num_parse(buf, &v, &end) == NUM_OK && *end == '\0')
			return v >= 1 && v <= q->nwords && v == floor(v)
				? (int)v : 0;
	}
	for (int k = 0; k < q->nwords; k++)
		if (pr_same(predict_word(q, k), s, n))
			return k + 1;
	return 0;
}

/* 1 yes, 0 no, -1 neither. */
static int pr_yesno(const char *s, size_t n)
{
	static const char *const yes[] = { "y", "yes" }, *const no[] = {
		"n", "no" };
	for (int k = 0; k < 2; k++) {
		if (n == strlen(yes[k]) && pr_same(yes[k], s, n))
			return 1;
		if (n == strlen(no[k]) && pr_same(no[k], s, n))
			return 0;
	}
	return -1;
}

/* 1 right, 0 wrong, -1 unreadable. */
static int pr_judge(const struct predict_q *q, const char *s, size_t n)
{
	switch (q->kind) {
	case PREDICT_WORD: {
		int k = pr_word(q, s, n);
		return k == 0 ? -1 : k == (int)q->expected;
	}
	case PREDICT_YESNO: {
		int yn = pr_yesno(s, n);
		return yn < 0 ? -1 : yn == (q->expected != 0);
	}
	case PREDICT_NUMBER: {
		if (q->decimals == 0 && memchr(s, '.', n))
			return -1; /* a whole number asked: 2.9 is not one */
		struct quiz_question qq;
		struct quiz_answer a;
		char buf[QUIZ_MAX_ANSWER + 1];
		memset(&qq, 0, sizeof qq);
		qq.expected = q->expected;
		qq.tolerance = 0.5 * pow(10, -q->decimals) * (1 + 1e-9);
		snprintf(buf, sizeof buf, "%.*s", (int)n, s);
		enum quiz_result r = quiz_check(&qq, buf, &a);
		return r == QUIZ_UNPARSEABLE ? -1 : r == QUIZ_RIGHT;
	}
	}
	return -1;
}

enum predict_verdict predict_answer(const struct predict_q *q,
				    struct predict_try *t, const char *text)
{
	if (t->done)
		return t->right ? PREDICT_RIGHT : PREDICT_REVEAL;
	size_t n = strlen(text);
	while (n > 0 && pr_blank(*text))
		text++, n--;
	while (n > 0 && pr_blank(text[n - 1]))
		n--;
	int r = n ? pr_judge(q, text, n) : -1;
	if (r < 0)
		return PREDICT_UNREADABLE;
	if (r) {
		t->done = t->right = 1;
		return PREDICT_RIGHT;
	}
	if (++t->wrong < PREDICT_TRIES)
		return PREDICT_HINT;
	t->done = 1;
	return PREDICT_REVEAL;
}

/* The words of a WORD question, "je, suis or étudiant". */
/* The words of q into buf (size bytes): "je, suis or étudiant", cut
 * short if they do not fit. */
static void pr_words(char *buf, size_t size, const struct predict_q *q)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < q->nwords && at < size; k++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s", k == 0 ? ""
				       : k == q->nwords - 1 ? _(" or ") : ", ",
				       predict_word(q, k));
}

int predict_prompt_text(FILE *out, const struct predict_q *q)
{
	char words[512];
	switch (q->kind) {
	case PREDICT_WORD:
		if (q->nwords <= 12) {
			pr_words(words, sizeof words, q);
			fprintf(out, _("Predict: type one word (%s) or its "
				       "position, then Enter.\n"), words);
		} else {
			fprintf(out, _("Predict: type one word of the model's "
				       "%d, or its position, then Enter.\n"),
				q->nwords);
		}
		break;
	case PREDICT_YESNO:
		fputs(_("Predict: type y (yes) or n (no), then Enter.\n"), out);
		break;
	case PREDICT_NUMBER:
		if (q->decimals == 0)
			fputs(_("Predict: type a whole number, then Enter.\n"),
			      out);
		else
			fprintf(out, ngettext("Predict: type a number with %d "
					      "decimal, then Enter.\n",
					      "Predict: type a number with %d "
					      "decimals, then Enter.\n",
					      (unsigned long)q->decimals),
				q->decimals);
		break;
	}
	return ferror(out) ? -1 : 0;
}

/* Why text is not an answer of q's kind. */
static void pr_unreadable(FILE *out, const struct predict_q *q)
{
	char words[512];
	switch (q->kind) {
	case PREDICT_WORD:
		if (q->nwords <= 12) {
			pr_words(words, sizeof words, q);
			fprintf(out, _("Type one of the words (%s) or a "
				       "position from 1 to %d.\n"), words,
				q->nwords);
		} else {
			fprintf(out, _("Type one of the words or a position "
				       "from 1 to %d.\n"), q->nwords);
		}
		break;
	case PREDICT_YESNO:
		fputs(_("Type y or n.\n"), out);
		break;
	case PREDICT_NUMBER:
		if (q->decimals == 0)
			fputs(_("Type a whole number, without a decimal "
				"point.\n"), out);
		else
			fputs(_("Type a number, such as 0.5.\n"), out);
		break;
	}
}

int predict_feedback_text(FILE *out, const struct predict_q *q,
			  enum predict_verdict v, const char *text)
{
	size_t n = strlen(text);
	while (n > 0 && pr_blank(*text))
		text++, n--;
	while (n > 0 && pr_blank(text[n - 1]))
		n--;
	switch (v) {
	case PREDICT_RIGHT:
		/* TRANSLATORS: %1$s the answer, %2$s how it follows */
		fprintf(out, _("Right: %1$s. %2$s. The numbers below show "
			       "it.\n"),
			q->answer, q->worked);
		break;
	case PREDICT_HINT:
		fprintf(out, _("Not %.*s. Hint: %s Try again.\n"), (int)n, text,
			q->hint ? q->hint : "");
		break;
	case PREDICT_REVEAL:
		fprintf(out, _("Not %.*s either. The answer is %s: %s. The "
			       "numbers below work it out.\n"), (int)n, text,
			q->answer, q->worked);
		break;
	case PREDICT_UNREADABLE:
		pr_unreadable(out, q);
		break;
	}
	return ferror(out) ? -1 : 0;
}
