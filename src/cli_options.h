/* cli_options.h: the one table of options (src/cli_option_list.h), from
 * which every command's getopt parser and the completion listing
 * ('attn-trace options') are built. */
#ifndef ATTN_CLI_OPTIONS_H
#define ATTN_CLI_OPTIONS_H

/* The commands that take options, as bits of an option's COMMANDS. */
enum cli_cmd { CLI_CMD_trace, CLI_CMD_tui, CLI_CMD_model, CLI_CMD_lesson,
	       CLI_CMD_quiz, CLI_CMD_heatmap, CLI_CMD_diagram, CLI_CMD_train,
	       CLI_CMD_vocab, CLI_CMD_self, CLI_CMD_image,
	       CLI_CMD_deck, CLI_CMD_accuracy, CLI_CMD_caption,
	       CLI_CMD_glimpse, CLI_CMD_calc,
	       CLI_CMD_COUNT };
#define CLI_CMD_BIT(x) (1u << CLI_CMD_##x)
/* the commands that share cli.c's parser */
#define CLI_CMDS_COMMON (CLI_CMD_BIT(trace) | CLI_CMD_BIT(tui) | \
			 CLI_CMD_BIT(model))

/* The codes that cli_getopt returns for options without a letter
 * (those with one return the letter). */
enum cli_opt_code {
	CLI_OPT_FIRST_ = 255,
#define OPT(id, name, sh, arg, cmds, vals) CLI_OPT_##id,
#include "cli_option_list.h"
#undef OPT
	CLI_OPT_END_
};

/* Where an option's values come from, for completion. */
enum cli_values { CLI_V_NONE, CLI_V_FILE, CLI_V_SCORERS, CLI_V_ARCHS,
		  CLI_V_WINDOWS, CLI_V_MODELS, CLI_V_TARGET_WORDS,
		  CLI_V_FORMATS, CLI_V_SELF_FORMATS, CLI_V_STAGES,
		  CLI_V_QUIZ_STAGES, CLI_V_QUIZ_FORMATS, CLI_V_DIAGRAM_FORMATS,
		  CLI_V_ACCURACY_FORMATS, CLI_V_HEADS, CLI_V_COLORS,
		  CLI_V_STEP_VALUES, CLI_V_SET_NAMES, CLI_V_SELECTION,
		  CLI_V_LIST };

/* The next option of argv for the commands cmds (bits CLI_CMD_BIT):
 * its code (the letter, or CLI_OPT_ID) with optarg its value; -1 after
 * the last; or '?' after printing the usage error of an unknown or
 * malformed option ("did you mean"), when the caller returns
 * EXIT_USAGE.  Sets opterr to 0; the caller sets optind. */
int cli_getopt(unsigned cmds, int argc, char **argv);

/* The index in argv of its first argument that is neither an option
 * nor an option's value, when the options before it are all known ones;
 * -1 if there is none, or an option before it is unknown or ambiguous,
 * or "--" comes first.  So "attn-trace --lang=zh_CN lesson 1" finds its
 * command after the options. */
int cli_first_word(int argc, char **argv);

/* Prints the options part of the --help of the commands cmds (bits
 * CLI_CMD_BIT; CLI_CMDS_COMMON: the main help), from the help table
 * src/cli_help_list.h: each option's letter, name and argument, and its
 * text from column col. */
void cli_help_options(unsigned cmds, int col);

/* The name of the option whose code (as cli_getopt returns it) is code,
 * without its dashes ("hard"), or NULL. */
const char *cli_option_name(int code);

/* attn-trace options [--values=OPTION] [COMMAND]: the options COMMAND
 * takes (without one, those of a bare attn-trace), a line each: "--NAME"
 * without a value, "--NAME=" with one, both for an optional one; with --values, the values of
 * --OPTION (or -LETTER) for COMMAND, from their registries, a line
 * each, after "@list" if it takes several separated by commas; "@file"
 * or "@target-words" for a file or the model's words, "@any" for a value
 * with nothing to offer, nothing for an option without a value.  For
 * completion and for tests. */
int cli_options_cmd(int argc, char **argv);

#endif
