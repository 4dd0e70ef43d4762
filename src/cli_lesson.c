/* cli_lesson.c: "attn-trace lessons" and "attn-trace lesson". */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "cli_lesson.h"
#include "cli_term.h"
#include "fmt.h"
#include "i18n.h"
#include "lesson.h"
#include "num.h"
#include "tui.h"
#include "utf8.h"

#define CLI_LESSON_WIDTH 76 /* the default width of plain text */

struct cli_lesson_opts {
	int plain;             /* 1: print the text, even on a terminal */
	int no_answers;        /* 1: plain text without the quizzes' answers */
	int check;             /* 1: check lesson files */
	int present;           /* 1: the stepper in presentation mode */
	int width;             /* columns for plain text */
	enum tui_color color;
	struct fmt_opts fmt;
};

static void cli_lesson_help(void)
{
	fputs(_(
"Usage: attn-trace lesson NAME [OPTION]...\n"
"       attn-trace lesson --check FILE...\n"
"       attn-trace lessons\n"
"Step through a lesson on attention, page by page, beside the numbers of a\n"
"real trace.  NAME is a lesson's number (3), its name (softmax) or the path\n"
"of a .lesson file; 'attn-trace lessons' lists the lessons there are.\n"
"\n"
"Options:\n"), stdout);
	cli_help_options(CLI_CMD_BIT(lesson), 23);
	fputs(_(
"\n"
"The lessons are in $ATTN_TRACE_LESSONS if it is set, else where the\n"
"program was installed (run from its build tree: the source tree's).\n"
"This one reads them from "), stdout);
	cli_put_safe(stdout, lesson_dir());
	fputs(_(".\nThe lesson format is described in doc/lessons.md.\n"),
	      stdout);
}

/* Applies one option; returns 0, EXIT_USAGE after a message, or -1 after
 * --help. */
static int cli_lesson_option(struct cli_lesson_opts *o, int c,
			     const char *arg)
{
	switch (c) {
	case CLI_OPT_plain: o->plain = 1; return 0;
	case CLI_OPT_no_answers: o->no_answers = 1; return 0;
	case CLI_OPT_check: o->check = 1; return 0;
	case CLI_OPT_lang: return cli_lang(arg);
	case CLI_OPT_present: o->present = 1; return 0;
	case CLI_OPT_width:
		if (cli_int(arg, 20, 1000, &o->width) == 0)
			return 0;
		return cli_usage_errorf("--width expects a whole number "
					      "from 20 to 1000, not '%s'", arg);
	case 'p':
		if (cli_int(arg, 0, NUM_MAX_PREC,
				   &o->fmt.precision) == 0)
			return 0;
		return cli_usage_errorf("--precision expects a whole "
					      "number from 0 to 17, not '%s'",
					      arg);
	case CLI_OPT_color:
		if (tui_color_parse(arg, &o->color) == 0)
			return 0;
		return cli_color_error(arg);
	case 'h':
		cli_lesson_help();
		return -1;
	default:
		return EXIT_USAGE;
	}
}

/* Parses argv from optind 1 into *o.  Returns 0, -1 after --help, or
 * EXIT_USAGE after a message. */
static int cli_lesson_parse(struct cli_lesson_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->width = CLI_LESSON_WIDTH;
	o->color = TUI_COLOR_AUTO;
	fmt_opts_default(&o->fmt);
	optind = 1;
	opterr = 0;
	int c;
	while ((c = cli_getopt(CLI_CMD_BIT(lesson), argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		int rc = cli_lesson_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Loads and prepares the lesson at path, printing any error.  Returns 0;
 * on success the caller frees *l, *tr and *m. */
static int cli_lesson_open(const char *path, struct lesson *l,
			   struct model *m, struct trace *tr)
{
	struct errbuf err;
	if (lesson_load(l, path, &err) == 0 &&
	    lesson_prepare(l, m, tr, &err) == 0)
		return 0;
	cli_messagef("%s", err.msg);
	lesson_free(l);
	return -1;
}

static void cli_lesson_close(struct lesson *l, struct model *m,
			     struct trace *tr)
{
	trace_free(tr);
	model_free(m);
	lesson_free(l);
}

static void cli_lesson_report(void *ctx, const char *msg)
{
	(void)ctx;
	cli_messagef("%s", msg);
}

/* --check FILE...: "FILE: ok" for each good file; an error for each
 * number typed in the prose without the literal mark, each claim that is
 * false and each directive that shows nothing. */
static int cli_lesson_check(const struct cli_lesson_opts *o, int argc,
			    char **argv)
{
	int rc = EXIT_OK;
	if (optind >= argc)
		return cli_usage_error("--check needs at least "
				       "one lesson file");
	for (int k = optind; k < argc; k++) {
		struct lesson l;
		struct model m;
		struct trace tr;
		if (cli_lesson_open(argv[k], &l, &m, &tr) != 0) {
			rc = EXIT_DATA;
			continue;
		}
		int nbad = lesson_check_numbers(&l, &tr, cli_lesson_report, NULL);
		nbad += lesson_check_claims(&l, &tr, cli_lesson_report, NULL);
		nbad += lesson_check_predicts(&l, &tr, &o->fmt,
					      cli_lesson_report, NULL);
		nbad += lesson_check_shows(&l, &tr, &o->fmt, cli_lesson_report,
					   NULL);
		nbad += lesson_check_translation(&l, cli_lesson_report, NULL);
		if (nbad) {
			rc = EXIT_DATA;
		} else {
			char *safe = utf8_safe(argv[k]);
			printf("%s: ok\n", safe);
			free(safe);
		}
		cli_lesson_close(&l, &m, &tr);
	}
	int wrc = cli_flush();
	return rc != EXIT_OK ? rc : wrc;
}

/* Shows the lesson: the stepper on a terminal, else plain text. */
static int cli_lesson_show(const struct cli_lesson_opts *o, const char *name)
{
	struct errbuf err;
	char *path = lesson_find(name, &err);
	if (!path) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	struct lesson l;
	struct model m;
	struct trace tr;
	int rc = cli_lesson_open(path, &l, &m, &tr);
	if (rc == 0)
		l.next = lesson_next(path);
	free(path);
	if (rc != 0)
		return EXIT_DATA;
	char why[160];
	int tty = !o->plain && isatty(STDOUT_FILENO);
	if (tty && !cli_term_usable(why, sizeof why)) {
		cli_messagef(_("note: %s, so here is the lesson as text"), why);
		tty = 0;
	}
	if (tty) {
		struct tui_opts to = { .color = o->color,
				       .precision = o->fmt.precision,
				       .start_scorer = l.scorer,
				       .present = o->present };
		rc = tui_run_lesson(&l, &tr, &to);
	} else {
		lesson_plain(stdout, &l, &tr, &o->fmt, o->width,
			     !o->no_answers);
		rc = cli_flush();
	}
	cli_lesson_close(&l, &m, &tr);
	return rc;
}

int cli_lesson(int argc, char **argv)
{
	struct cli_lesson_opts o;
	int rc = cli_lesson_parse(&o, argc, argv);
	if (rc != 0)
		return rc < 0 ? cli_flush() : rc;
	if (o.check)
		return cli_lesson_check(&o, argc, argv);
	if (o.present && o.plain)
		return cli_usage_error("--present steps through a lesson on "
				       "the terminal; --plain prints it: "
				       "give one of them");
	if (optind >= argc)
		return cli_usage_error("'lesson' needs the number "
				       "or name of a lesson; 'attn-trace "
				       "lessons' lists them");

	if (optind + 1 < argc)
		return cli_usage_errorf("'lesson' takes one lesson, but "
					      "was also given '%s'",
					      argv[optind + 1]);
	return cli_lesson_show(&o, argv[optind]);
}

/* cli_lesson_split() of a path made safe already. */
static void cli_lesson_split_safe(const char *path, char *num, size_t nsize,
				  char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t d = strspn(base, "0123456789");
	size_t n = strlen(base) - strlen(".lesson");
	if (d > 0 && base[d] == '-' && d < n) {
		snprintf(num, nsize, "%.*s", (int)d, base);
		base += d + 1;
		n -= d + 1;
	} else {
		num[0] = '\0';
	}
	snprintf(name, size, "%.*s", (int)n, base);
}

/* "03-softmax.lesson" -> number "03" and name "softmax", as utf8_safe()
 * shows them: a file name can hold any byte. */
static void cli_lesson_split(const char *path, char *num, size_t nsize,
			     char *name, size_t size)
{
	char *safe = utf8_safe(path);
	cli_lesson_split_safe(safe, num, nsize, name, size);
	free(safe);
}

/* One line of the list: "NN  name  title", or an error on stderr. */
static int cli_lesson_row(const char *path, int namew)
{
	struct lesson l;
	struct errbuf err;
	char num[32], name[1024]; /* a NAME_MAX name, every byte \xNN */
	if (lesson_load(&l, path, &err) != 0) {
		cli_messagef("%s", err.msg);
		lesson_free(&l);
		return -1;
	}
	cli_lesson_split(path, num, sizeof num, name, sizeof name);
	fmt_pad(stdout, num, 2);
	fputs("  ", stdout);
	fmt_pad(stdout, name, namew);
	printf("  %s\n", l.title);
	lesson_free(&l);
	return 0;
}

int cli_lessons(int argc, char **argv)
{
	struct cli_lesson_opts o;
	int rc = cli_lesson_parse(&o, argc, argv);
	if (rc != 0)
		return rc < 0 ? cli_flush() : rc;
	if (optind < argc)
		return cli_usage_errorf("'lessons' takes no arguments, "
					      "but was given '%s'", argv[optind]);
	struct errbuf err;
	char **paths, num[32], name[1024];
	int n = lesson_list(&paths, &err), namew = 0;
	if (n < 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (n == 0)
		cli_messagef(_("no lessons in %s (set "
			"ATTN_TRACE_LESSONS to the directory that holds the "
			"*.lesson files)"), lesson_dir());
	for (int k = 0; k < n; k++) {
		cli_lesson_split(paths[k], num, sizeof num, name, sizeof name);
		if (utf8_width(name) > namew)
			namew = utf8_width(name);
	}
	rc = n == 0 ? EXIT_DATA : EXIT_OK;
	for (int k = 0; k < n; k++) {
		if (cli_lesson_row(paths[k], namew) != 0)
			rc = EXIT_DATA;
		free(paths[k]);
	}
	free(paths);
	int wrc = cli_flush();
	return rc != EXIT_OK ? rc : wrc;
}
