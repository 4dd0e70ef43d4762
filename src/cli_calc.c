/* cli_calc.c: "attn-trace calc" (cli_calc.h). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc.h"
#include "calc_view.h"
#include "cli.h"
#include "cli_calc.h"
#include "cli_options.h"
#include "i18n.h"
#include "num.h"
#include "outfile.h"
#include "scorer.h"
#include "tui.h"

enum calc_format { CALC_TEXT, CALC_JSON, CALC_JSONL, CALC_CSV, CALC_MD };
static const char *const calc_formats[] = { "text", "json", "jsonl", "csv",
					     "markdown", NULL };

struct cli_calc_opts {
	const char *arg[3];  /* --query, --keys, --values, or NULL */
	int tui;             /* --tui: the stepper, not a format */
	const char *output;  /* -o; NULL: stdout */
	enum calc_format format;
	struct fmt_opts fo;
};

static void cli_calc_help(void)
{
	fputs(_(
"Usage: attn-trace calc --query=LIST --keys=ROWS [--values=ROWS] [OPTION]...\n"
"  or:  attn-trace calc [OPTION]... FILE\n"
"Attention on any vectors: the scores of a query against n keys by a\n"
"scorer, their softmax and the weighted sum of the values, every number\n"
"term by term.  Vectors have 1 to 16 numbers; the scorer's weights come\n"
"from FILE or are drawn from --seed.  FILE holds a line 'query NUMBERS',\n"
"lines 'key NUMBERS' and 'value NUMBERS', and a line a row of each weight\n"
"('general.W NUMBERS'); '#' starts a comment (doc/trace-format.md).\n"
"\n"
"Options:\n"), stdout);
	cli_help_options(CLI_CMD_BIT(calc), 24);
	fputs(_(
"\n"
"Examples:\n"
"  attn-trace calc --query=1,0.5 --keys='0.2,1;1,-1;0.5,0.5'\n"
"  attn-trace calc -s general --seed=7 -f json --query=1,0 --keys='1,0;0,1'\n"
"  printf 'query 1 0\\nkey 1 0\\nkey 0 1\\n' | attn-trace calc -\n"), stdout);
}

/* One option into *o; 0, 1 after --help, or 2 after a usage error. */
static int cli_calc_opt(struct cli_calc_opts *o, struct calc_in *in, int c)
{
	unsigned long long v;
	switch (c) {
	case CLI_OPT_calc_query: o->arg[0] = optarg; return 0;
	case CLI_OPT_calc_keys: o->arg[1] = optarg; return 0;
	case CLI_OPT_calc_values: o->arg[2] = optarg; return 0;
	case 'o': o->output = optarg; return 0;
	case CLI_OPT_glimpse_tui: o->tui = 1; return 0;
	case 's':
		if ((in->scorer = scorer_find(optarg)) >= 0)
			return 0;
		cli_scorer_error(optarg, 0);
		return 2;
	case 'f':
		for (int k = 0; calc_formats[k]; k++)
			if (strcmp(optarg, calc_formats[k]) == 0) {
				o->format = (enum calc_format)k;
				return 0;
			}
		cli_value_error("format", optarg, calc_formats, 5);
		return 2;
	case 'p':
		if (cli_int(optarg, 0, NUM_MAX_PREC, &o->fo.precision) == 0)
			return 0;
		cli_usage_errorf("--precision expects a whole number from 0 "
				 "to %d, found '%s'", NUM_MAX_PREC, optarg);
		return 2;
	case CLI_OPT_calc_seed:
		if (util_whole(optarg, strlen(optarg), ~0ULL, &v) == 0) {
			in->seed = v;
			return 0;
		}
		cli_usage_errorf("--seed expects a whole number, found '%s'",
				 optarg);
		return 2;
	case 'h': cli_calc_help(); return 1;
	default: return 2; /* '?': cli_getopt has said what was wrong */
	}
}

/* The vectors from the options or from FILE into in; EXIT_OK, or
 * EXIT_USAGE (the command line) or EXIT_DATA (the file) after the
 * message. */
static int cli_calc_input(const struct cli_calc_opts *o, struct calc_in *in,
			  int argc, char **argv, int first)
{
	static const char *const names[] = { "query", "keys", "values" };
	struct errbuf err;
	if (first < argc) {
		if (first + 1 < argc || o->arg[0] || o->arg[1] || o->arg[2])
			return cli_usage_errorf("'calc' reads one FILE, or "
						"--query and --keys, not both");
		if (calc_parse_file(in, argv[first], &err) != 0) {
			cli_messagef("%s", err.msg);
			return EXIT_DATA;
		}
		return EXIT_OK;
	}
	if (!o->arg[0] || !o->arg[1])
		return cli_usage_errorf("'calc' needs --query and --keys, or "
					"a FILE");
	for (int k = 0; k < 3; k++)
		if (o->arg[k] && calc_parse_arg(in, names[k], o->arg[k],
						&err) != 0)
			return cli_usage_errorf("%s", err.msg);
	if (calc_finish(in, "calc", &err) != 0)
		return cli_usage_errorf("%s", err.msg);
	return EXIT_OK;
}

static void cli_calc_render(void *ctx, int width, struct view_screen *s)
{
	struct calc_view *v = ctx;
	v->width = width;
	calc_view_render(v, s);
}

static int cli_calc_key(void *ctx, int key, int page_rows)
{
	struct calc_view *v = ctx;
	v->page_rows = page_rows;
	return calc_view_key(v, key);
}

/* --tui: the stepper on c; its exit status. */
static int cli_calc_tui(const struct cli_calc_opts *o, const struct calc *c)
{
	static struct calc_view v;
	if (!cli_term_tui_ok())
		return EXIT_DATA;
	calc_view_init(&v, c, o->fo.precision, 80);
	struct tui_screens sc = { &v, cli_calc_render, cli_calc_key,
				  &v.scroll, NULL };
	struct tui_opts to = { TUI_COLOR_AUTO, o->fo.precision, -1, 0, 0,
			       NULL, 0, NULL, 0, 0 };
	int rc = tui_run_screens(&sc, &to);
	calc_view_free(&v);
	return rc;
}

/* The trace of in written in o->format to o->output. */
static int cli_calc_write(const struct cli_calc_opts *o,
			  const struct calc_in *in)
{
	static struct calc c;
	struct errbuf err;
	struct outfile of;
	if (calc_build(&c, in, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (o->tui) {
		int rc = cli_calc_tui(o, &c);
		calc_free(&c);
		return rc;
	}
	if (outfile_open(&of, o->output ? o->output : "-", &err) != 0) {
		calc_free(&c);
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	switch (o->format) {
	case CALC_TEXT: calc_fmt_text(of.fp, &c, &o->fo); break;
	case CALC_JSON: calc_fmt_json(of.fp, &c, &o->fo); break;
	case CALC_JSONL:
		calc_fmt_json(of.fp, &c, &(struct fmt_opts){ .compact = 1 });
		break;
	case CALC_CSV: {
		struct fmt_opts fo = o->fo;
		fo.csv_keys = 1; /* the key in one column, "source" */
		fmt_csv_trace(of.fp, &c.tr, &fo, 1);
		break;
	}
	case CALC_MD: calc_fmt_md(of.fp, &c, &o->fo); break;
	}
	calc_free(&c);
	outfile_wrote(&of);
	if (outfile_commit(&of, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

int cli_calc(int argc, char **argv)
{
	static struct calc_in in;
	struct cli_calc_opts o;
	int c, rc;
	memset(&o, 0, sizeof o);
	memset(&in, 0, sizeof in);
	fmt_opts_default(&o.fo);
	in.seed = 1;
	optind = 1;
	while ((c = cli_getopt(CLI_CMD_BIT(calc), argc, argv)) != -1)
		if ((rc = cli_calc_opt(&o, &in, c)) != 0)
			return rc == 1 ? EXIT_OK : EXIT_USAGE;
	rc = cli_calc_input(&o, &in, argc, argv, optind);
	if (rc == EXIT_OK && argc > optind)
		rc = calc_finish(&in, argv[optind], &(struct errbuf){ 0 })
			     ? EXIT_DATA : EXIT_OK;
	if (rc == EXIT_OK)
		rc = cli_calc_write(&o, &in);
	calc_in_free(&in);
	return rc;
}
