/* cli_options.c: the one table of options, every command's getopt
 * arrays built from it, and 'attn-trace options', its listing for
 * completion. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "accuracy.h"
#include "arch.h"
#include "cli.h"
#include "cli_diagram.h"
#include "cli_options.h"
#include "glimpse_quiz.h"
#include "cli_self.h"
#include "i18n.h"
#include "model.h"
#include "quiz.h"
#include "scorer.h"
#include "selection.h"
#include "self.h"
#include "suggest.h"
#include "trace.h"
#include "tui.h"
#include "utf8.h"
#include "whatif.h"
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

/* How many arguments option argument arg takes from argv: 1 (itself),
 * 2 (its value follows it), or 0 if it names no option or is ambiguous
 * (then the parser, not a guess, says what is wrong). */
static int cli_option_span(const char *arg)
{
	if (arg[1] != '-') { /* -abc: letters, the one that takes a value
				taking the rest or the next argument */
		for (const char *c = arg + 1; *c; c++) {
			const struct cli_option *o = NULL;
			for (size_t k = 0; k < CLI_NOPTIONS && !o; k++)
				if (cli_options[k].letter == *c)
					o = &cli_options[k];
			if (!o)
				return 0;
			if (o->has_arg == required_argument)
				return c[1] ? 1 : 2;
		}
		return arg[1] ? 1 : 0;
	}
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int has = -1;
	for (size_t k = 0; k < CLI_NOPTIONS; k++) {
		const struct cli_option *o = &cli_options[k];
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0') { /* exact: no abbreviation */
			has = o->has_arg;
			break;
		}
		if (has >= 0 && has != o->has_arg)
			return 0;
		has = o->has_arg;
	}
	if (len == 0 || has < 0)
		return 0;
	return has == required_argument && !eq ? 2 : 1;
}

int cli_first_word(int argc, char **argv)
{
	int k = 1;
	while (k < argc && argv[k][0] == '-') {
		if (strcmp(argv[k], "--") == 0)
			return -1;
		int span = cli_option_span(argv[k]);
		if (span == 0)
			return -1;
		k += span;
	}
	return k < argc ? k : -1;
}

/* ---------------------------------------------------------- --help */

struct cli_help {
	size_t opt;           /* its line of cli_options[] */
	unsigned cmds;        /* the --help pages that show it */
	const char *metavar;  /* "LIST" in --scorer=LIST */
	const char *text;     /* its lines, with "@LIST" to fill */
};

#define HELP(id, cmds_, mv, txt) \
	{ (size_t)(CLI_OPT_##id - CLI_OPT_FIRST_ - 1), cmds_, mv, txt },
static const struct cli_help cli_helps[] = {
#include "cli_help_list.h"
};
#undef HELP
#define CLI_NHELPS (sizeof cli_helps / sizeof cli_helps[0])

static const char *cli_scorer_name_nth(int k)
{
	return k < SCORER_COUNT ? scorer_get(k)->name : NULL;
}

static const char *cli_window_nth(int k);
static const char *cli_stage_nth(int k);

/* The lists a help text fills in ("@scorers"), from their registries:
 * the separator before the last name (NULL: a comma, as before the
 * others).  Each list wraps at 80 columns (cli_help_list). */
static const struct cli_help_fill {
	const char *name;
	const char *(*nth)(int);
	const char *last;
} cli_help_fills[] = {
	{ "scorers", cli_scorer_name_nth, NULL },
	{ "windows", cli_window_nth, N_(" or ") },
	{ "formats", cli_format_name, N_(" or ") },
	{ "stages", cli_stage_nth, NULL },
	{ "accuracy-formats", accuracy_format_name, N_(" or ") },
};

/* Prints names[0..n), separated by ", " and last before the last, then
 * tail and a newline, wrapped at 80 display columns under column 24
 * (utf8_width: a translated tail or separator may hold wide characters),
 * the cursor being at column col. */
static void cli_help_list(int col, const char *const *names, int n,
			  const char *last, const char *tail)
{
	for (int k = 0; k < n || *tail; k++) {
		char word[160];
		if (k >= n) { /* the tail, a word at a time */
			size_t wl = strcspn(tail + 1, " ") + 1;
			snprintf(word, sizeof word, "%.*s", (int)wl, tail);
			tail += wl;
		} else {
			snprintf(word, sizeof word, "%s%s%s", k == 0 ? "" :
				 k + 1 == n && last ? last : " ", names[k],
				 k + 1 < n && !(k + 2 == n && last) ? "," : "");
		}
		int len = utf8_width(word);
		if (col > 24 && col + len > 80 && word[0] == ' ') {
			fputs("\n                       ", stdout);
			col = 23;
		}
		fputs(word, stdout);
		col += len;
	}
	putchar('\n');
}

/* Prints the line s (len bytes) of a help text and its newline, the
 * cursor being at column col, with its "@LIST", if any, filled in. */
static void cli_help_line(const char *s, size_t len, int col)
{
	const char *at = memchr(s, '@', len), *names[64];
	const struct cli_help_fill *f = NULL;
	int n = 0;

	if (!at) {
		printf("%.*s\n", (int)len, s);
		return;
	}
	size_t w = strspn(at + 1, "abcdefghijklmnopqrstuvwxyz-");
	for (size_t k = 0; k < sizeof cli_help_fills / sizeof *cli_help_fills;
	     k++)
		if (strlen(cli_help_fills[k].name) == w &&
		    strncmp(at + 1, cli_help_fills[k].name, w) == 0)
			f = &cli_help_fills[k];
	if (!f) { /* not a list: the line as it is */
		printf("%.*s\n", (int)len, s);
		return;
	}
	const char *rest = at + 1 + w;
	int restlen = (int)(len - (size_t)(rest - s));
	while (n < 64 && (names[n] = f->nth(n)))
		n++;
	printf("%.*s", (int)(at - s), s);
	char tail[128];
	snprintf(tail, sizeof tail, "%.*s", restlen, rest);
	cli_help_list(col + utf8_width_n(s, (size_t)(at - s)), names, n,
		      f->last ? _(f->last) : NULL, tail);
}

void cli_help_options(unsigned cmds, int col)
{
	for (size_t k = 0; k < CLI_NHELPS; k++) {
		const struct cli_help *h = &cli_helps[k];
		const struct cli_option *o = &cli_options[h->opt];
		int n;

		if (!(h->cmds & cmds))
			continue;
		if (o->letter)
			n = printf("  -%c, --%s", o->letter, o->name);
		else
			n = printf("      --%s", o->name);
		if (o->has_arg != no_argument)
			n += printf(o->has_arg == optional_argument ? "[=%s]"
				    : "=%s", h->metavar);
		printf("%*s", n < col ? col - n : 1, "");
		for (const char *t = _(h->text);; t++) {

			size_t len = strcspn(t, "\n");
			cli_help_line(t, len, col);
			t += len;
			if (!*t)
				break;
			printf("%*s", col, "");
		}
	}
}

const char *cli_option_name(int code)
{
	for (size_t k = 0; k < CLI_NOPTIONS; k++)
		if (cli_options[k].code == code)
			return cli_options[k].name;
	return NULL;
}

static const char *const cli_cmd_names[CLI_CMD_COUNT] = {
	"trace", "tui", "model", "lesson", "quiz", "heatmap", "diagram",
	"train", "vocab", "self", "image", "deck", "accuracy", "caption", "glimpse",
	"calc"
};

/* Value k (from 0) of each registry, or NULL past the last: adapters
 * for those whose listing is not already of this shape. */
static const char *cli_scorer_nth(int k)
{
	return k < SCORER_COUNT ? scorer_get(k)->name
	       : k == SCORER_COUNT ? "all" : NULL;
}

static const char *cli_arch_nth(int k)
{
	return k < ARCH_COUNT ? arch_get(k)->name : k == ARCH_COUNT ? "all"
						    : NULL;
}

static const char *cli_window_nth(int k)
{
	return k < WINDOW_COUNT ? window_get(k)->name : NULL;
}

static const char *cli_model_nth(int k)
{
	return model_builtin_nth((size_t)k, NULL);
}

static const char *cli_stage_nth(int k)
{
	return k < STAGE_COUNT ? trace_stage_name((enum trace_stage)k) : NULL;
}

/* QUIZ_STAGES, then hard-draw (QUIZ_HARD_DRAW), then a glimpse model's
 * questions (glimpse_quiz.h) */
static const char *cli_quiz_stage_nth(int k)
{
	for (int st = 0; st <= STAGE_COUNT; st++)
		if ((st == STAGE_COUNT || (QUIZ_STAGES >> st & 1)) && k-- == 0)
			return quiz_stage_name((enum trace_stage)st);
	return glimpse_quiz_name(k);
}

static const char *cli_heads_nth(int k)
{
	static const char *const digits[] = { "1", "2", "3", "4", "5", "6",
					      "7", "8", "9" };
	return k < SELF_HEADS && k < 9 ? digits[k] : NULL;
}

/* --explain: a step's values (whatif_keys), at step 1, entry 1 */
/* --set's names: the built-in model's sections, each at its first
 * number ("source[1][1]", "general.W[1][1]"), then a step's values that
 * --set can set (whatif_keys' settable ones).  The sections are those
 * of the default model; another --model may have more (local-p's,
 * Bahdanau's). */
static const char *cli_set_name_nth(int k)
{
	static struct model_param tab[MODEL_MAX_PARAMS];
	static int n = -1;
	static char name[96];
	if (n < 0) {
		struct model m;
		struct errbuf err;
		n = 0;
		if (model_load_builtin(&m, &err) == 0) {
			n = model_param_table(&m, model_scorers(&m), tab);
			model_free(&m); /* the names and shapes stay */
		}
	}
	if (k < n) {
		const struct model_param *e = &tab[k];
		snprintf(name, sizeof name, e->vector || e->rows == 0
			 ? "%s[1]" : "%s[1][1]", e->section);
		return name;
	}
	for (int j = 0; j < WHATIF_WHAT_COUNT - 1; j++)
		if (whatif_keys[j].settable && k-- == n) {
			snprintf(name, sizeof name, "step[1].%s[1]",
				 whatif_keys[j].key);
			return name;
		}
	return NULL;
}

static const char *cli_step_value_nth(int k)
{
	static char name[64];
	if (k >= WHATIF_WHAT_COUNT - 1)
		return NULL;
	snprintf(name, sizeof name, "step[1].%s[1]", whatif_keys[k].key);
	return name;
}

static const char *(*const cli_registry_nth[])(int) = {
	[CLI_V_SCORERS] = cli_scorer_nth,
	[CLI_V_ARCHS] = cli_arch_nth,
	[CLI_V_WINDOWS] = cli_window_nth,
	[CLI_V_MODELS] = cli_model_nth,
	[CLI_V_FORMATS] = cli_format_name,
	[CLI_V_SELF_FORMATS] = cli_self_format_name,
	[CLI_V_STAGES] = cli_stage_nth,
	[CLI_V_QUIZ_STAGES] = cli_quiz_stage_nth,
	[CLI_V_QUIZ_FORMATS] = quiz_sheet_name,
	[CLI_V_DIAGRAM_FORMATS] = cli_diagram_format_name,
	[CLI_V_ACCURACY_FORMATS] = accuracy_format_name,
	[CLI_V_HEADS] = cli_heads_nth,
	[CLI_V_COLORS] = tui_color_name,
	[CLI_V_STEP_VALUES] = cli_step_value_nth,
	[CLI_V_SET_NAMES] = cli_set_name_nth,
};

/* Prints the values of option o from their registry, a line each, after
 * the marker that completion reads (see cli_options_cmd). */
static void cli_values_print(const struct cli_option *o)
{
	const char *name;
	if (o->vals == CLI_V_SCORERS || o->vals == CLI_V_STAGES ||
	    o->vals == CLI_V_QUIZ_STAGES || o->vals == CLI_V_HEADS)
		puts("@list");
	if (o->vals == CLI_V_FILE || o->vals == CLI_V_MODELS)
		puts("@file");
	if (o->vals == CLI_V_TARGET_WORDS)
		puts("@target-words");
	if (o->vals == CLI_V_NONE && o->has_arg != no_argument)
		puts("@any");
	if (o->vals == CLI_V_LIST) {
		for (const char *p = o->list; *p; p += strspn(p, " ")) {
			size_t n = strcspn(p, " ");
			printf("%.*s\n", (int)n, p);
			p += n;
		}
	}
	if (o->vals == CLI_V_SELECTION) {
		const struct selection_class *c =
			selection_get(selection_by_option(o->name));
		for (int k = 0; c->values[k]; k++)
			puts(c->values[k]);
	}
	if ((size_t)o->vals < sizeof cli_registry_nth / sizeof *cli_registry_nth
	    && cli_registry_nth[o->vals])
		for (int k = 0; (name = cli_registry_nth[o->vals](k)); k++)
			puts(name);
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

static const char options_usage[] = N_(
	"usage: attn-trace options [--values=OPTION] [COMMAND]\n"
	"  the options COMMAND takes (without one, those of a bare attn-trace),\n"
	"  a line each; with --values=OPTION (--window, -s or window), the\n"
	"  values that option takes, from the registries\n");

int cli_options_cmd(int argc, char **argv)
{
	const char *values = NULL;
	char dashed[64];
	int cmd = -1, k = 1, found = 0;
	if (k < argc && (strcmp(argv[k], "--help") == 0 ||
			 strcmp(argv[k], "-h") == 0)) {
		fputs(_(options_usage), stdout);
		return cli_flush();
	}
	if (k < argc && strncmp(argv[k], "--values=", 9) == 0)
		values = argv[k++] + 9;
	if (values && values[0] != '-') { /* a bare name: --values=window */
		snprintf(dashed, sizeof dashed, "--%s", values);
		values = dashed;
	}
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
		if (values && cli_option_is(o, values)) {
			cli_values_print(o);
			found = 1;
		}
	}
	if (values && !found)
		return cli_usage_errorf("'%s' is not an option of %s ('attn-trace "
					"options%s%s' lists them)", values,
					cmd < 0 ? _("a bare attn-trace")
						: cli_cmd_names[cmd],
					cmd < 0 ? "" : " ",
					cmd < 0 ? "" : cli_cmd_names[cmd]);
	return cli_flush();
}
