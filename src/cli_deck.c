/* cli_deck.c: "attn-trace deck": the trace of a sentence in one variant
 * as a slide deck for a browser (src/deck.c), one HTML file written whole
 * or not at all. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_deck.h"
#include "cli_options.h"
#include "cli_set.h"
#include "deck.h"
#include "i18n.h"
#include "model.h"
#include "outfile.h"
#include "tok.h"
#include "trace.h"

struct cli_deck_opts {
	unsigned scorers;       /* one scorer */
	const char *model_path;
	const char *target;
	const char *output;     /* a file, "-" or NULL: stdout */
	int arch;
	int feed;               /* --input-feeding */
	int precision;
	struct trace_cfg cfg;   /* --window, --window-size, --hard, --seed */
	struct cli_set set;     /* --set */
};

static void cli_deck_help(void)
{
	printf(_(
"Usage: attn-trace deck [OPTION]... [SENTENCE]\n"
"Write the trace of a sentence as a slide deck: one HTML file with\n"
"everything inline (no network, no other file) that any browser shows.\n"
"A slide for each stage of each decoder step, its picture beside its\n"
"arithmetic; the keys → and ← step, Home and End go to the first and the\n"
"last slide.  Without scripts the page shows every slide in order, and it\n"
"prints a slide a page.  The default sentence is \"%s\".\n"
"\n"
"Options:\n"), DEFAULT_SENTENCE);
	cli_help_options(CLI_CMD_BIT(deck), 24);
	fputs(_(
"\n"
"Example:\n"
"  attn-trace deck --arch=bahdanau -o deck.html je suis étudiant\n"), stdout);
}

static int cli_deck_option(struct cli_deck_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'o': o->output = arg; return 0;
	case 't': o->target = arg; return 0;
	case 'm': o->model_path = arg; return 0;
	case CLI_OPT_arch:
		if (cli_arch(&o->arch, arg) != 0)
			return EXIT_USAGE;
		return cli_arch_one(o->arch, "deck");
	case 's':
		o->scorers = trace_scorer_parse(arg);
		if (o->scorers && !(o->scorers & (o->scorers - 1)))
			return 0;
		if (o->scorers)
			return cli_usage_errorf("--scorer: a deck shows one "
						"scorer's trace, not '%s'", arg);
		return cli_scorer_error(arg, 0);
	case 'p':
		if (cli_int(arg, 1, 6, &o->precision) == 0)
			return 0;
		return cli_usage_errorf("--precision expects a whole number "
					"from 1 to 6, not '%s'", arg);
	case CLI_OPT_window:
	case CLI_OPT_window_size:
		return cli_window(&o->cfg, c, arg);
	case CLI_OPT_input_feeding: o->feed = 1; return 0;
	case CLI_OPT_hard: return cli_selection(&o->cfg, c, arg);
	case CLI_OPT_seed: return cli_seed(&o->cfg, arg);
	case CLI_OPT_set: return cli_set_add(&o->set, arg);
	case 'h':
		cli_deck_help();
		return -1;
	default:
		return EXIT_USAGE;
	}
}

static int cli_deck_parse(struct cli_deck_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->scorers = 1u << SCORER_dot;
	o->arch = -1;
	o->precision = 4;
	o->cfg = (struct trace_cfg)TRACE_CFG_DEFAULT;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = cli_getopt(CLI_CMD_BIT(deck), argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		int rc = cli_deck_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	if (cli_window_check(o->cfg.window, o->cfg.window_size))
		return EXIT_USAGE;
	return cli_feed_arch(o->arch, o->feed);
}

/* The deck of tr into o->output, whole or not at all.  Returns 0, or -1
 * with err set. */
static int cli_deck_write(const struct trace *tr, const struct cli_deck_opts *o,
			  struct errbuf *err)
{
	struct outfile of;
	struct deck_opts d = { o->precision };
	if (outfile_open(&of, o->output, err) != 0)
		return -1;
	if (deck_html(of.fp, tr, &d) != 0 && !ferror(of.fp)) {
		outfile_abort(&of);
		err_set(err, _("%s: the trace has no step to show"),
			o->output ? o->output : "-");
		return -1;
	}
	outfile_wrote(&of);
	return outfile_commit(&of, err);
}

int cli_deck(int argc, char **argv)
{
	struct cli_deck_opts o;
	struct errbuf err;
	int rc = cli_deck_parse(&o, argc, argv);
	if (rc > 0)
		return rc;
	if (rc < 0) /* --help was answered */
		return cli_flush();
	if (o.output && o.model_path && !model_builtin_name(o.model_path) &&
	    cli_check_overwrite(o.output, "--model", o.model_path))
		return EXIT_USAGE;
	struct model m;
	if (cli_load_window(&m, o.model_path, o.arch, o.feed,
			    o.cfg.window) != 0)
		return EXIT_DATA;
	if (cli_set_apply(&o.set, &m, &o.cfg) != 0) {
		model_free(&m);
		return EXIT_USAGE;
	}
	char *sentence = cli_join(argc, argv, optind, DEFAULT_SENTENCE);
	struct trace tr;
	char note[320];
	rc = tok_trace_note(&tr, &m, sentence, o.target, o.scorers, note,
			    sizeof note, &o.cfg, &err);
	if (rc == 0 && note[0])
		cli_messagef(_("note: %s"), note);
	if (rc == 0 && cli_set_check_trace(&o.set, &tr) != 0) {
		trace_free(&tr);
		free(sentence);
		model_free(&m);
		return EXIT_USAGE;
	}
	if (rc == 0) {
		rc = cli_deck_write(&tr, &o, &err);
		trace_free(&tr);
	}
	if (rc != 0)
		cli_messagef("%s", err.msg);
	free(sentence);
	model_free(&m);
	return rc == 0 ? EXIT_OK : EXIT_DATA;
}
