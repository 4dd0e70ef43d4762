/* cli_vocab.c: "attn-trace vocab": the source and target words of a
 * model, for a learner who typed a word it does not know. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "cli_vocab.h"
#include "i18n.h"
#include "model.h"

enum { VOCAB_BOTH, VOCAB_SOURCE, VOCAB_TARGET };

static void cli_vocab_help(void)
{
	fputs(_(
"Usage: attn-trace vocab [OPTION]...\n"
"List the words the model knows: its source words (what a sentence may\n"
"hold) and its target words (what it can output, and what --target may\n"
"hold), each under a heading, a word a line.\n"
"\n"
"Options:\n"), stdout);
	cli_help_options(CLI_CMD_BIT(vocab), 24);
}

/* The words of v, a line each, indented by indent columns. */
static void cli_vocab_words(const struct vocab *v, int indent)
{
	for (int k = 0; k < v->n; k++) {
		printf("%*s", indent, "");
		cli_put_safe(stdout, v->words[k]);
		putchar('\n');
	}
}

int cli_vocab(int argc, char **argv)
{
	struct cli_opts o;
	int which = VOCAB_BOTH, c;
	memset(&o, 0, sizeof o);
	o.arch = -1; /* any */
	optind = 1;
	opterr = 0;
	while ((c = cli_getopt(CLI_CMD_BIT(vocab), argc, argv)) != -1) {
		switch (c) {
		case 'm': o.model_path = optarg; break;
		case CLI_OPT_vocab_source: which = VOCAB_SOURCE; break;
		case CLI_OPT_vocab_target: which = VOCAB_TARGET; break;
		case 'h': cli_vocab_help(); return EXIT_OK;
		default: /* '?': cli_getopt has said what was wrong */
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage_errorf("'vocab' takes no sentence, but was "
					"given '%s'", argv[optind]);
	struct model m;
	if (cli_load(&m, &o) != 0)
		return EXIT_DATA;
	if (which == VOCAB_SOURCE || which == VOCAB_TARGET) {
		cli_vocab_words(which == VOCAB_SOURCE ? &m.src : &m.tgt, 0);
	} else {
		printf("source words (%d):\n", m.src.n);
		cli_vocab_words(&m.src, 2);
		printf("target words (%d):\n", m.tgt.n);
		cli_vocab_words(&m.tgt, 2);
	}
	model_free(&m);
	return cli_flush();
}
