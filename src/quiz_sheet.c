/* quiz_sheet.c: a quiz as a worksheet to print, or as its key, in text,
 * Markdown or HTML (doc/quiz.md, "Worksheets").  The questions and the
 * answers are the text of quiz_text.c, captured and then set in the
 * format, so a worksheet says what the interactive quiz says. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "quiz.h"
#include "utf8.h"

static const char *const quiz_sheet_names[] = { "text", "markdown", "html" };

const char *quiz_sheet_name(int k)
{
	return k >= 0 && k < 3 ? quiz_sheet_names[k] : NULL;
}

int quiz_sheet_parse(const char *name, enum quiz_sheet_format *out)
{
	for (int k = 0; k < 3; k++)
		if (strcmp(name, quiz_sheet_names[k]) == 0) {
			*out = (enum quiz_sheet_format)k;
			return 0;
		}
	return -1;
}

/* s as HTML text: & < > " ' as references, and a byte that starts no
 * valid UTF-8 character, or a control other than the newline and the
 * tab, as U+FFFD, which HTML allows where those are errors. */
static void sheet_html(FILE *out, const char *s)
{
	size_t len;
	for (; *s; s += len) {
		unsigned char c = (unsigned char)*s;
		len = utf8_char_len(s);
		if (len == 0) {
			len = 1;
			fputs("\xef\xbf\xbd", out);
		} else if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&#39;", out);
		else if (len == 1 && ((c < 0x20 && c != '\n' && c != '\t') ||
				      c == 0x7f))
			fputs("\xef\xbf\xbd", out);
		else
			fwrite(s, 1, len, out);
	}
}

/* s as Markdown text: each character that Markdown could read as markup
 * behind a backslash. */
static void sheet_md(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>#!|~&", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* A fenced Markdown code block of text, its fence one backtick longer
 * than the longest run of them in text (and at least three), so that no
 * line of text can end it. */
static void sheet_md_block(FILE *out, const char *text)
{
	int run = 0, longest = 0;
	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	int n = longest >= 3 ? longest + 1 : 3;
	for (int k = 0; k < n; k++)
		fputc('`', out);
	fputs("text\n", out);
	fputs(text, out);
	for (int k = 0; k < n; k++)
		fputc('`', out);
	fputs("\n\n", out);
}

/* The style of the HTML sheet: large type, one question that does not
 * break across pages in print. */
static const char sheet_css[] =
	"body { font-family: sans-serif; max-width: 60em; margin: 2em auto; "
	"padding: 0 1em; line-height: 1.4; }\n"
	"pre { font-size: 1.05em; background: #f4f4f4; padding: 0.6em; "
	"overflow-x: auto; }\n"
	"section { page-break-inside: avoid; break-inside: avoid; "
	"margin-bottom: 2em; }\n"
	".blank { margin-top: 1em; }\n"
	".blank span { display: inline-block; width: 12em; "
	"border-bottom: 1px solid #000; }\n";

int quiz_sheet_begin(FILE *out, enum quiz_sheet_format f, int key,
		     const char *title, const char *subtitle)
{
	const char *what = key ? _("Answer key") : _("Worksheet");
	const char *name = _("Name:");
	switch (f) {
	case QUIZ_SHEET_TEXT:
		fprintf(out, "%s: %s\n%s\n", what, title, subtitle);
		if (!key)
			fprintf(out, "%s ______________________\n", name);
		break;
	case QUIZ_SHEET_MARKDOWN:
		fprintf(out, "# %s: ", what);
		sheet_md(out, title);
		fputs("\n\n", out);
		sheet_md(out, subtitle);
		fputs("\n\n", out);
		if (!key)
			fprintf(out, "%s \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\n\n",
				name);
		break;
	case QUIZ_SHEET_HTML:
		fprintf(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n"
			"<meta charset=\"utf-8\">\n<title>", i18n_html_lang());
		fprintf(out, "%s: ", what);
		sheet_html(out, title);
		fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
			"<h1>%s: ", sheet_css, what);
		sheet_html(out, title);
		fputs("</h1>\n<p>", out);
		sheet_html(out, subtitle);
		fputs("</p>\n", out);
		if (!key)
			{
			fputs("<p class=\"blank\">", out);
			sheet_html(out, name);
			fputs(" <span></span></p>\n", out);
		}
		break;
	}
	return ferror(out) ? -1 : 0;
}

/* What a renderer of quiz_text.c writes for q, as a new string (NULL if
 * it failed). */
static char *sheet_capture(int (*render)(FILE *, const struct quiz_question *),
			   const struct quiz_question *q)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	int rc = render(f, q);
	if (fclose(f) != 0 || rc != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The key of q: its answer, then the worked arithmetic. */
static int sheet_key_text(FILE *out, const struct quiz_question *q)
{
	if (quiz_answer_text(out, q) != 0)
		return -1;
	return quiz_worked_text(out, q);
}

int quiz_sheet_item(FILE *out, enum quiz_sheet_format f, int key, int num,
		    const char *heading, const struct quiz_question *q)
{
	char *text = sheet_capture(key ? sheet_key_text : quiz_prompt_text, q);
	if (!text)
		return -1;
	switch (f) {
	case QUIZ_SHEET_TEXT:
		fprintf(out, "\n%d. %s\n%s", num, heading, text);
		if (!key)
			fprintf(out, "%s %s = ______________\n",
				_("answer:"), q->symbol);
		break;
	case QUIZ_SHEET_MARKDOWN:
		fputs("## ", out);
		fprintf(out, key ? _("Answer %d") : _("Question %d"), num);
		fputs("\n\n", out);
		sheet_md(out, heading);
		fputs("\n\n", out);
		sheet_md_block(out, text);
		if (!key) {
			fprintf(out, "%s ", _("Answer:"));
			sheet_md(out, q->symbol);
			fputs(" = \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\n\n", out);
		}
		break;
	case QUIZ_SHEET_HTML:
		fputs("<section>\n<h2>", out);
		fprintf(out, key ? _("Answer %d") : _("Question %d"), num);
		fputs("</h2>\n<p>", out);
		sheet_html(out, heading);
		fputs("</p>\n<pre>", out);
		sheet_html(out, text);
		fputs("</pre>\n", out);
		if (!key) {
			fputs("<p class=\"blank\">", out);
			sheet_html(out, _("Answer:"));
			fputs(" ", out);
			sheet_html(out, q->symbol);
			fputs(" = <span></span></p>\n", out);
		}
		fputs("</section>\n", out);
		break;
	}
	free(text);
	return ferror(out) ? -1 : 0;
}

int quiz_sheet_end(FILE *out, enum quiz_sheet_format f)
{
	if (f == QUIZ_SHEET_HTML)
		fputs("</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
