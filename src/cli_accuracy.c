/* cli_accuracy.c: "attn-trace accuracy": word and exact-match accuracy
 * of greedy decoding by source length, for one or more models on one
 * pairs file, as a table and a text plot, CSV, JSON or an SVG chart
 * (doc/accuracy.md).  The counting is src/accuracy.c's, the writing
 * src/accuracy_fmt.c's. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "cli.h"
#include "cli_accuracy.h"
#include "cli_options.h"
#include "i18n.h"
#include "outfile.h"
#include "raster.h"
#include "scorer.h"
#include "train.h"
#include "window.h"

/* The most lines one chart draws (models times scorers). */
#define ACC_MAX_LINES 16

/* A --model and the settings given before it. */
struct acc_spec {
	const char *model;  /* NULL: the built-in model of the window */
	unsigned scorers;   /* 0: every scorer the model holds */
	struct trace_cfg cfg;
};

struct acc_opts {
	struct acc_spec spec[ACC_MAX_LINES];
	int nspec;
	const char *pairs;
	const char *output;
	enum accuracy_format format;
	struct raster_size png; /* --png-size; w 0: not given */
};

static void cli_accuracy_help(void)
{
	fputs(_(
"Usage: attn-trace accuracy --pairs=FILE [[SETTING]... --model=MODEL]...\n"
"Decode every pair of FILE greedily, as 'trace' does without --target,\n"
"and report, for each source length, the share of target words output\n"
"right (word accuracy, position by position) and of pairs output exactly\n"
"(exact match): a table and a text plot, CSV, JSON or an SVG line chart\n"
"with a line for each model and scorer.\n"
"\n"
"Options (--scorer, --window and --window-size set the lines of the\n"
"--model options after them):\n"), stdout);
	cli_help_options(CLI_CMD_BIT(accuracy), 24);
	fputs(_(
"\n"
"Example:\n"
"  attn-trace accuracy --pairs=data/long-heldout.pairs --model=longattn8 \\\n"
"    --window=fixed --model=longfixed8 --format=svg -o chart.svg\n"), stdout);
}

/* --format's value into o. */
static int cli_accuracy_format(struct acc_opts *o, const char *arg)
{
	const char *names[8];
	int n = 0;
	for (const char *name; (name = accuracy_format_name(n)); n++) {
		names[n] = name;
		if (strcmp(arg, name) == 0) {
			o->format = (enum accuracy_format)n;
			return 0;
		}
	}
	return cli_value_error("format", arg, names, n);
}

/* One option c of argv into o; cur holds the settings for the next
 * --model, and *pending whether one was given since the last. */
static int cli_accuracy_opt(struct acc_opts *o, struct acc_spec *cur,
			    int *pending, int c, const char *arg)
{
	switch (c) {
	case 'm':
		if (o->nspec == ACC_MAX_LINES)
			return cli_usage_errorf("at most %d --model options",
						ACC_MAX_LINES);
		cur->model = arg;
		o->spec[o->nspec++] = *cur;
		*pending = 0;
		return 0;
	case 's':
		*pending = 1;
		cur->scorers = trace_scorer_parse(arg);
		return cur->scorers ? 0 : cli_scorer_error(arg, 1);
	case CLI_OPT_window:
	case CLI_OPT_window_size:
		*pending = 1;
		return cli_window(&cur->cfg, c, arg);
	case CLI_OPT_pairs: o->pairs = arg; return 0;
	case 'o': o->output = arg; return 0;
	case CLI_OPT_png_size: return cli_png_size(arg, &o->png);
	case 'f': return cli_accuracy_format(o, arg);
	case 'h': cli_accuracy_help(); return -1;
	default: /* '?': cli_getopt has said what was wrong */
		return EXIT_USAGE;
	}
}

/* Parses argv into *o.  Returns 0, -1 after --help, or EXIT_USAGE after
 * the message. */
static int cli_accuracy_parse(struct acc_opts *o, int argc, char **argv)
{
	struct acc_spec cur = { NULL, 0, TRACE_CFG_DEFAULT };
	int c, pending = 0;
	memset(o, 0, sizeof *o);
	optind = 1;
	while ((c = cli_getopt(CLI_CMD_BIT(accuracy), argc, argv)) != -1) {
		int rc = cli_accuracy_opt(o, &cur, &pending, c, optarg);
		if (rc != 0)
			return rc;
	}
	if (optind < argc)
		return cli_usage_errorf("'accuracy' takes no sentence, but was "
					"given '%s'", argv[optind]);
	if (!o->pairs)
		return cli_usage_error("'accuracy' needs --pairs=FILE");
	if (o->nspec == 0)
		o->spec[o->nspec++] = cur;
	else if (pending)
		return cli_usage_error("--scorer, --window and --window-size "
				       "apply to the --model options after "
				       "them, and none follows the last");
	for (int k = 0; k < o->nspec; k++)
		if (cli_window_check(o->spec[k].cfg.window,
				     o->spec[k].cfg.window_size) != 0)
			return EXIT_USAGE;
	return cli_png_check(&o->png, o->output, 0);
}

/* The scorers measured when --scorer is not given: those whose own
 * weights model m holds, or dot if it holds none (a scorer without
 * weights, dot or scaled, works with every model, trained with it or
 * not). */
static unsigned cli_accuracy_trained(const struct model *m)
{
	unsigned held = model_scorers(m), own = 0;
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if ((held >> sc & 1) && scorer_get(sc)->nparams > 0)
			own |= 1u << sc;
	return own ? own : 1u << SCORER_dot;
}

/* Measures the pairs text[0..len) (named name) with spec's model, a line
 * for each of its scorers, appended to lines (*n of them so far).
 * Returns 0, or EXIT_DATA after the message. */
static int cli_accuracy_spec(const struct acc_spec *s, const char *text,
			     size_t len, const char *name,
			     struct accuracy_line *lines, int *n)
{
	struct model m;
	struct train_data d;
	struct errbuf err;
	if (cli_load_window(&m, s->model, -1, 0, s->cfg.window) != 0)
		return EXIT_DATA;
	unsigned scorers = s->scorers ? s->scorers : cli_accuracy_trained(&m);
	const struct window_class *w = window_get(s->cfg.window);
	const char *shown = s->model ? s->model
			    : w->model ? w->model : cli_builtin_model(-1, 0);
	int rc = train_pairs_parse(&d, text, len, name, &m, &err);
	int parsed = rc == 0;
	for (int sc = 0; rc == 0 && sc < SCORER_COUNT; sc++) {
		if (!(scorers >> sc & 1))
			continue;
		struct accuracy_line *l = &lines[*n];
		memset(l, 0, sizeof *l);
		if (*n == ACC_MAX_LINES) {
			err_set(&err, _("expected at most %d lines (models "
				"times scorers), found more"), ACC_MAX_LINES);
			rc = -1;
		} else if ((rc = model_check_scorer(&m, sc, &err)) == 0 &&
			   (rc = accuracy_measure(l, &m, &d, name, sc, &s->cfg,
						  &err)) == 0) {
			l->model = xstrdup(shown);
			l->scorer = sc;
			l->cfg = s->cfg;
			(*n)++;
		}
	}
	if (parsed)
		train_data_free(&d);
	model_free(&m);
	if (rc != 0)
		cli_messagef("%s", err.msg);
	return rc == 0 ? 0 : EXIT_DATA;
}

/* Writes the report, whole or not at all.  Returns 0 or EXIT_DATA. */
static int cli_accuracy_write(const struct acc_opts *o,
			      const struct accuracy_report *r)
{
	struct outfile of;
	struct errbuf err;
	if ((o->format == ACCURACY_SVG
	     ? outfile_open_picture(&of, o->output, &o->png, &err)
	     : outfile_open(&of, o->output, &err)) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	accuracy_write(of.fp, r, o->format);
	outfile_wrote(&of);
	if (outfile_commit(&of, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* Refuses an -o that would overwrite the pairs or a model file. */
static int cli_accuracy_inputs(const struct acc_opts *o)
{
	if (cli_check_overwrite(o->output, "--pairs", o->pairs))
		return EXIT_USAGE;
	for (int k = 0; k < o->nspec; k++) {
		const char *path = o->spec[k].model;
		if (path && !model_builtin_name(path) &&
		    (cli_check_overwrite(o->output, "--model", path) ||
		     cli_check_stdin("--pairs", o->pairs, "--model", path)))
			return EXIT_USAGE;
	}
	return 0;
}

int cli_accuracy(int argc, char **argv)
{
	struct acc_opts o;
	int rc = cli_accuracy_parse(&o, argc, argv);
	if (rc != 0)
		return rc < 0 ? cli_flush() : rc;
	if ((rc = cli_accuracy_inputs(&o)) != 0)
		return rc;
	struct errbuf err;
	/* a name that the output cannot have, before the decoding */
	if (raster_check_name(o.output, o.format == ACCURACY_SVG, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	size_t len;
	char *text = util_read_file(o.pairs, MODEL_MAX_BYTES, &len, &err);
	if (!text) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	const char *name = strcmp(o.pairs, "-") == 0 ? "stdin" : o.pairs;
	struct accuracy_line *lines = xcalloc(ACC_MAX_LINES, sizeof *lines);
	int n = 0;
	for (int k = 0; rc == 0 && k < o.nspec; k++)
		rc = cli_accuracy_spec(&o.spec[k], text, len, name, lines, &n);
	if (rc == 0) {
		struct accuracy_report r = { lines, n, name };
		rc = cli_accuracy_write(&o, &r);
	}
	for (int k = 0; k < n; k++)
		free(lines[k].model);
	free(lines);
	free(text);
	return rc;
}
