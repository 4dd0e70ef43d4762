/* cli.c: the command line: subcommands, options, exit statuses. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_lesson.h"
#include "fmt.h"
#include "model.h"
#include "num.h"
#include "tok.h"
#include "trace.h"
#include "tui.h"

#define DEFAULT_SENTENCE "je suis étudiant"

enum format { FORMAT_TEXT, FORMAT_JSON };

/* Everything the options can set. */
struct cli_opts {
	unsigned scorers;
	const char *model_path; /* NULL: the built-in toy model */
	const char *target;     /* NULL: greedy decoding */
	enum format format;
	struct fmt_opts fmt;
	enum tui_color color;
};

static void cli_error(const char *msg)
{
	fprintf(stderr, "attn-trace: %s\n", msg);
}

static int cli_usage_error(const char *msg)
{
	fprintf(stderr, "attn-trace: %s\nTry 'attn-trace --help' for more "
		"information.\n", msg);
	return EXIT_USAGE;
}

static void cli_help(void)
{
	fputs(
"Usage: attn-trace [COMMAND] [OPTION]... [SENTENCE]\n"
"Trace the arithmetic of attention in a tiny sequence-to-sequence model,\n"
"step by step: encoding, scoring, softmax, weighted sum, concatenation and\n"
"the output word.\n"
"\n"
"Commands:\n"
"  trace [SENTENCE]   print a full trace (the default command; the default\n"
"                     sentence is \"" DEFAULT_SENTENCE "\")\n"
"  tui [SENTENCE]     step through the trace full-screen (what a bare\n"
"                     attn-trace does on a terminal)\n"
"  lessons            list the lessons\n"
"  lesson NAME        follow a lesson in the stepper (--plain: as text);\n"
"                     lesson --check FILE... validates lesson files\n"
"  model              print every weight of the model\n"
"\n"
"Options:\n"
"  -s, --scorer=NAME     dot, general, concat or all (default dot)\n"
"  -m, --model=FILE      read the model from FILE instead of the built-in\n"
"                        toy model\n"
"  -t, --target=SENTENCE teacher-force the decoder with this translation\n"
"                        instead of decoding greedily\n"
"  -f, --format=FORMAT   text or json (default text)\n"
"  -p, --precision=N     digits after the point in text, 0 to 17 (default 4)\n"
"      --top=N           output probabilities listed at each step\n"
"                        (default 3)\n"
"      --color=WHEN      colours in the stepper: auto, always or never\n"
"                        (default auto; NO_COLOR turns auto off)\n"
"  -h, --help            display this help and exit\n"
"  -V, --version         output version information and exit\n"
"\n"
"Examples:\n"
"  attn-trace trace --scorer=all \"je suis étudiant\"\n"
"  attn-trace trace --target=\"european economic area\" "
"zone économique européenne\n"
"  attn-trace trace --format=json je suis étudiant | jq '.runs[0].steps[0]'\n"
"  attn-trace lesson softmax\n"
"\n"
"Exit status: 0 on success, 1 on bad input or a write error, 2 on a bad\n"
"command line.  See attn-trace(1) for the keys of the stepper and the\n"
"model, trace and lesson formats.\n",
		stdout);
}

static void cli_version(void)
{
	fputs(PACKAGE_NAME " " PACKAGE_VERSION "\n"
	      "Copyright (C) 2026 the attn-trace developers.\n"
	      "License MIT: <https://opensource.org/licenses/MIT>.\n"
	      "This is free software: you are free to change and redistribute "
	      "it.\nThere is NO WARRANTY, to the extent permitted by law.\n",
	      stdout);
}

/* Parses a whole number in [lo, hi]; returns 0 or -1. */
static int cli_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

enum { OPT_TOP = 256, OPT_COLOR };

static const struct option cli_long_opts[] = {
	{ "scorer", required_argument, NULL, 's' },
	{ "model", required_argument, NULL, 'm' },
	{ "target", required_argument, NULL, 't' },
	{ "format", required_argument, NULL, 'f' },
	{ "precision", required_argument, NULL, 'p' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Applies one option; returns 0, EXIT_USAGE after a message, or -1 when
 * the option was --help or --version (already handled). */
static int cli_option(struct cli_opts *o, int c, const char *arg)
{
	char msg[256];
	switch (c) {
	case 's':
		o->scorers = trace_scorer_parse(arg);
		if (o->scorers)
			return 0;
		snprintf(msg, sizeof msg, "unknown scorer '%s'; expected dot, "
			 "general, concat or all", arg);
		return cli_usage_error(msg);
	case 'm': o->model_path = arg; return 0;
	case 't': o->target = arg; return 0;
	case 'f':
		if (strcmp(arg, "text") == 0 || strcmp(arg, "json") == 0) {
			o->format = arg[0] == 't' ? FORMAT_TEXT : FORMAT_JSON;
			return 0;
		}
		snprintf(msg, sizeof msg, "unknown format '%s'; expected text "
			 "or json", arg);
		return cli_usage_error(msg);
	case 'p':
		if (cli_int(arg, 0, NUM_MAX_PREC, &o->fmt.precision) == 0)
			return 0;
		snprintf(msg, sizeof msg, "--precision expects a whole number "
			 "from 0 to %d, not '%s'", NUM_MAX_PREC, arg);
		return cli_usage_error(msg);
	case OPT_TOP:
		if (cli_int(arg, 0, MODEL_MAX_VOCAB, &o->fmt.top) == 0)
			return 0;
		snprintf(msg, sizeof msg, "--top expects a whole number from 0 "
			 "to %d, not '%s'", MODEL_MAX_VOCAB, arg);
		return cli_usage_error(msg);
	case OPT_COLOR:
		if (tui_color_parse(arg, &o->color) == 0)
			return 0;
		snprintf(msg, sizeof msg, "unknown --color '%s'; expected auto, "
			 "always or never", arg);
		return cli_usage_error(msg);
	case 'h': cli_help(); return -1;
	case 'V': cli_version(); return -1;
	default: return EXIT_USAGE; /* getopt has said what was wrong */
	}
}

/* Parses the options of argv (from optind 1) into *o.  Returns 0, -1 when
 * --help or --version has been answered, or EXIT_USAGE. */
static int cli_parse(struct cli_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->scorers = 1u << SCORER_DOT;
	fmt_opts_default(&o->fmt);
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":s:m:t:f:p:hV", cli_long_opts,
				NULL)) != -1) {
		if (c == '?' || c == ':') {
			char msg[256];
			snprintf(msg, sizeof msg, c == '?' ? "unknown option "
				 "'%s'" : "option '%s' needs a value",
				 argv[optind - 1]);
			return cli_usage_error(msg);
		}
		int rc = cli_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Joins argv[first..argc) with spaces, or returns dflt if there is none.
 * The caller frees the result. */
static char *cli_join(int argc, char **argv, int first, const char *dflt)
{
	if (first >= argc)
		return xstrdup(dflt);
	size_t len = 1;
	for (int k = first; k < argc; k++)
		len += strlen(argv[k]) + 1;
	char *s = xmalloc(len), *p = s;
	for (int k = first; k < argc; k++)
		p += sprintf(p, "%s%s", k > first ? " " : "", argv[k]);
	return s;
}

static int cli_load(struct model *m, const struct cli_opts *o)
{
	struct errbuf err;
	int rc = o->model_path ? model_load_file(m, o->model_path, &err)
			       : model_load_builtin(m, &err);
	if (rc != 0)
		cli_error(err.msg);
	return rc;
}

/* Checks that the output reached its destination. */
static int cli_flush(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "attn-trace: write error: %s\n", strerror(errno));
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* Turns a sentence into vocabulary indices; idx has TRACE_MAX_TOKENS
 * slots.  Returns the word count, or -1 after printing the error. */
static int cli_words(int *idx, const char *sentence, const struct vocab *v,
		     const char *what)
{
	struct tok_list tl;
	struct errbuf err;
	if (tok_split(&tl, sentence, TRACE_MAX_TOKENS, what, &err) != 0) {
		cli_error(err.msg);
		return -1;
	}
	int n = tl.n;
	if (n == 0) {
		snprintf(err.msg, sizeof err.msg, "the %s sentence has no "
			 "words", what);
		cli_error(err.msg);
		n = -1;
	} else if (tok_lookup(idx, &tl, v, what, &err) != 0) {
		cli_error(err.msg);
		n = -1;
	}
	tok_free(&tl);
	return n;
}

/* Refuses <s> and </s> inside a target sentence: the decoder adds them. */
static int cli_check_target(const struct model *m, const int *tgt, int n)
{
	for (int k = 0; k < n; k++) {
		if (tgt[k] != m->bos && tgt[k] != m->eos)
			continue;
		fprintf(stderr, "attn-trace: the target sentence must not "
			"contain \"%s\"; the decoder starts with <s> and "
			"stops at </s> by itself\n", m->tgt.words[tgt[k]]);
		return -1;
	}
	return 0;
}

/* Builds into *tr the trace of sentence (and o->target) with the scorers
 * given; returns 0, or EXIT_DATA after printing the error. */
static int cli_build(struct trace *tr, const struct model *m,
		     const struct cli_opts *o, const char *sentence,
		     unsigned scorers)
{
	int src[TRACE_MAX_TOKENS], tgt[TRACE_MAX_TOKENS];
	int n = cli_words(src, sentence, &m->src, "source");
	if (n < 0)
		return EXIT_DATA;
	int ntgt = 0;
	if (o->target) {
		ntgt = cli_words(tgt, o->target, &m->tgt, "target");
		if (ntgt < 0 || cli_check_target(m, tgt, ntgt) != 0)
			return EXIT_DATA;
	}
	struct errbuf err;
	if (trace_build(tr, m, src, n, ntgt ? tgt : NULL, ntgt, scorers,
			&err) != 0) {
		cli_error(err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

static int cli_trace_run(const struct model *m, const struct cli_opts *o,
			 const char *sentence)
{
	struct trace tr;
	int rc = cli_build(&tr, m, o, sentence, o->scorers);
	if (rc != EXIT_OK)
		return rc;
	if (o->format == FORMAT_JSON)
		fmt_json_trace(stdout, &tr);
	else
		fmt_text_trace(stdout, &tr, &o->fmt);
	trace_free(&tr);
	return cli_flush();
}

/* The stepper on the trace of every scorer, starting with the one asked
 * for. */
static int cli_tui_run(const struct model *m, const struct cli_opts *o,
		       const char *sentence)
{
	struct trace tr;
	int rc = cli_build(&tr, m, o, sentence, SCORER_ALL);
	if (rc != EXIT_OK)
		return rc;
	struct tui_opts to = { o->color, o->fmt.precision, SCORER_DOT };
	for (int k = 0; k < SCORER_COUNT; k++)
		if (o->scorers == 1u << k)
			to.start_scorer = k;
	rc = tui_run_trace(&tr, &to);
	trace_free(&tr);
	return rc;
}

static int cli_tui(int argc, char **argv, const struct cli_opts *o)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_error("the stepper needs a terminal; 'attn-trace trace' "
			  "prints the same trace as text");
		return EXIT_DATA;
	}
	struct model m;
	if (cli_load(&m, o) != 0)
		return EXIT_DATA;
	char *sentence = cli_join(argc, argv, optind, DEFAULT_SENTENCE);
	int rc = cli_tui_run(&m, o, sentence);
	free(sentence);
	model_free(&m);
	return rc;
}

static int cli_trace(int argc, char **argv, const struct cli_opts *o)
{
	struct model m;
	if (cli_load(&m, o) != 0)
		return EXIT_DATA;
	char *sentence = cli_join(argc, argv, optind, DEFAULT_SENTENCE);
	int rc = cli_trace_run(&m, o, sentence);
	free(sentence);
	model_free(&m);
	return rc;
}

static int cli_model(int argc, char **argv, const struct cli_opts *o)
{
	if (optind < argc) {
		char msg[256];
		snprintf(msg, sizeof msg, "'model' takes no sentence, but was "
			 "given '%s'", argv[optind]);
		return cli_usage_error(msg);
	}
	struct model m;
	if (cli_load(&m, o) != 0)
		return EXIT_DATA;
	if (o->format == FORMAT_JSON)
		fmt_json_model(stdout, &m);
	else
		fmt_text_model(stdout, &m, &o->fmt);
	model_free(&m);
	return cli_flush();
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv, const struct cli_opts *o);
} cli_commands[] = {
	{ "trace", cli_trace },
	{ "model", cli_model },
	{ "tui", cli_tui },
	{ "lessons", NULL },
	{ "lesson", NULL },
};

int cli_main(int argc, char **argv)
{
	int (*run)(int, char **, const struct cli_opts *) = cli_trace;
	/* a first argument that is not an option names the command */
	if (argc > 1 && argv[1][0] != '-') {
		size_t k, count = sizeof cli_commands / sizeof cli_commands[0];
		for (k = 0; k < count; k++)
			if (strcmp(argv[1], cli_commands[k].name) == 0)
				break;
		if (k == count) {
			char msg[256];
			snprintf(msg, sizeof msg, "unknown command '%s'; "
				 "expected trace, model, tui, lessons or lesson",
				 argv[1]);
			return cli_usage_error(msg);
		}
		run = cli_commands[k].run;
		argv++; /* the command word plays argv[0] for getopt */
		argc--;
		if (!run) /* the lesson commands parse their own options */
			return strcmp(argv[0], "lesson") == 0
				? cli_lesson(argc, argv) : cli_lessons(argc, argv);
	} else if (argc == 1 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		run = cli_tui; /* a bare attn-trace on a terminal */
	}
	struct cli_opts o;
	int rc = cli_parse(&o, argc, argv);
	if (rc != 0)
		return rc < 0 ? cli_flush() : rc;
	return run(argc, argv, &o);
}
