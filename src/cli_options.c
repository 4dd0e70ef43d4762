/* cli_options.c: the one table of options, every command's getopt
 * arrays built from it, and 'attn-trace options', its listing for
 * completion. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "cli.h"
#include "cli_diagram.h"
#include "cli_options.h"
#include "cli_self.h"
#include "model.h"
#include "quiz.h"
#include "scorer.h"
#include "self.h"
#include "suggest.h"
#include "trace.h"
#include "tui.h"
#include "window.h"

struct cli_option {
	const char *name;      /* --NAME */
	int code;              /* what cli_getopt returns for it */
	char letter;           /* -LETTER, or 0 */
	int has_arg;           /* no_argument, required_argument, ... */
	unsigned cmds;         /* bits CLI_CMD_BIT of the commands */
	enum cli_values vals;  /* completion's values */
	const char *list;      /* CLI_V_LIST's, separated by spaces */
};

#define NO no_argument
#define REQ required_argument
#define OPTARG optional_argument
#define C(x) CLI_CMD_BIT(x)
#define C_ALL ((1u << CLI_CMD_COUNT) - 1)
#define V(x) CLI_V_##x, NULL
#define L(s) CLI_V_LIST, s
#define OPT(id, nm, sh, arg, cmds_, vals_) \
	{ nm, sh ? sh : CLI_OPT_##id, sh, arg, cmds_, \
	  vals_ },
static const struct cli_option cli_options[] = {
#include "cli_option_list.h"
};
#undef OPT
#define CLI_NOPTIONS (sizeof cli_options / sizeof cli_options[0])

/* The getopt_long arrays of the commands cmds, built once a set. */
static unsigned cli_built = 0;
static struct option cli_long[CLI_NOPTIONS + 1];
static char cli_short[2 * CLI_NOPTIONS + 2];

static void cli_options_build(unsigned cmds)
{
	size_t n = 0;
	char *s = cli_short;
	*s++ = ':'; /* a missing value is ':', not '?' */
	for (size_t k = 0; k < CLI_NOPTIONS; k++) {
		const struct cli_option *o = &cli_options[k];
		if (!(o->cmds & cmds))
			continue;
		cli_long[n++] = (struct option){ o->name, o->has_arg, NULL,
						 o->code };
		if (o->letter) {
			*s++ = o->letter;
			if (o->has_arg == required_argument)
				*s++ = ':';
		}
	}
	cli_long[n] = (struct option){ NULL, 0, NULL, 0 };
	*s = '\0';
	cli_built = cmds;
}

int cli_getopt(unsigned cmds, int argc, char **argv)
{
	if (cli_built != cmds)
		cli_options_build(cmds);
	opterr = 0;
	int c = getopt_long(argc, argv, cli_short, cli_long, NULL);
	if (c == '?' || c == ':') {
		cli_option_error(c, argv, optind, cli_long);
		return '?';
	}
	return c;
}

static const char *const cli_cmd_names[CLI_CMD_COUNT] = {
	"trace", "tui", "model", "lesson", "quiz", "heatmap", "diagram",
	"train", "vocab", "self"
};

/* Prints the values of option o from their registry, a line each. */
static void cli_values_print(const struct cli_option *o)
{
	const char *name, *what;
	if (o->vals == CLI_V_SCORERS || o->vals == CLI_V_STAGES ||
	    o->vals == CLI_V_QUIZ_STAGES || o->vals == CLI_V_HEADS)
		puts("@list");
	switch (o->vals) {
	case CLI_V_NONE:
		if (o->has_arg != no_argument)
			puts("@any");
		break;
	case CLI_V_HEADS:
		for (int k = 1; k <= SELF_HEADS; k++)
			printf("%d\n", k);
		break;
	case CLI_V_FILE: puts("@file"); break;
	case CLI_V_TARGET_WORDS: puts("@target-words"); break;
	case CLI_V_SCORERS:
		for (int k = 0; k < SCORER_COUNT; k++)
			puts(scorer_get(k)->name);
		puts("all");
		break;
	case CLI_V_ARCHS:
		for (int k = 0; k < ARCH_COUNT; k++)
			puts(arch_get(k)->name);
		puts("all");
		break;
	case CLI_V_WINDOWS:
		for (int k = 0; k < WINDOW_COUNT; k++)
			puts(window_get(k)->name);
		break;
	case CLI_V_MODELS:
		puts("@file");
		for (size_t k = 0; (name = model_builtin_nth(k, &what)); k++)
			puts(name);
		break;
	case CLI_V_FORMATS:
		for (int k = 0; k < FORMAT_COUNT; k++)
			puts(cli_format_name(k));
		break;
	case CLI_V_SELF_FORMATS:
		for (int k = 0; (name = cli_self_format_name(k)); k++)
			puts(name);
		break;
	case CLI_V_STAGES:
		for (int k = 0; k < STAGE_COUNT; k++)
			puts(trace_stage_name((enum trace_stage)k));
		break;
	case CLI_V_QUIZ_STAGES:
		for (int k = 0; k <= STAGE_COUNT; k++)
			if (k == STAGE_COUNT || (QUIZ_STAGES >> k & 1))
				puts(quiz_stage_name((enum trace_stage)k));
		break;
	case CLI_V_QUIZ_FORMATS:
		for (int k = 0; (name = quiz_sheet_name(k)); k++)
			puts(name);
		break;
	case CLI_V_DIAGRAM_FORMATS:
		for (int k = 0; (name = cli_diagram_format_name(k)); k++)
			puts(name);
		break;
	case CLI_V_COLORS:
		for (int k = 0; (name = tui_color_name(k)); k++)
			puts(name);
		break;
	case CLI_V_HARD_RULES:
		for (int k = 0; (name = cli_hard_rule_name(k)); k++)
			puts(name);
		break;
	case CLI_V_LIST:
		for (const char *p = o->list; *p; p += strspn(p, " ")) {
			size_t n = strcspn(p, " ");
			printf("%.*s\n", (int)n, p);
			p += n;
		}
		break;
	}
}

/* The index of the command called name, or -1. */
static int cli_cmd_find(const char *name)
{
	for (int k = 0; k < CLI_CMD_COUNT; k++)
		if (strcmp(name, cli_cmd_names[k]) == 0)
			return k;
	return -1;
}

/* Whether o is the option that word names: "--NAME" or "-LETTER". */
static int cli_option_is(const struct cli_option *o, const char *word)
{
	if (word[0] == '-' && word[1] == '-')
		return strcmp(word + 2, o->name) == 0;
	return word[0] == '-' && o->letter && word[1] == o->letter &&
	       !word[2];
}

int cli_options_cmd(int argc, char **argv)
{
	const char *values = NULL;
	int cmd = -1, k = 1;
	if (k < argc && strncmp(argv[k], "--values=", 9) == 0)
		values = argv[k++] + 9;
	if (k < argc && (cmd = cli_cmd_find(argv[k++])) < 0)
		return cli_usage_errorf("'options' expects a command that "
					"takes options, not '%s'", argv[k - 1]);
	if (k < argc)
		return cli_usage_errorf("usage: attn-trace options "
					"[--values=OPTION] [COMMAND]");
	/* without a command: those of a bare attn-trace, the common ones */
	unsigned cmds = cmd < 0 ? CLI_CMDS_COMMON : 1u << cmd;
	for (size_t j = 0; j < CLI_NOPTIONS; j++) {
		const struct cli_option *o = &cli_options[j];
		if (!(o->cmds & cmds))
			continue;
		if (!values && o->has_arg != required_argument)
			printf("--%s\n", o->name);
		if (!values && o->has_arg != no_argument)
			printf("--%s=\n", o->name);
		if (values && cli_option_is(o, values))
			cli_values_print(o);
	}
	return cli_flush();
}
