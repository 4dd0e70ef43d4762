/* cli.h: the command line: subcommands, options, exit statuses, and the
 * helpers that the subcommand files share. */
#ifndef ATTN_CLI_H
#define ATTN_CLI_H

#include <stdio.h>

#include "fmt.h"
#include "model.h"
#include "raster.h"
#include "tui.h"
#include "whatif.h"

/* Exit statuses, documented in the man page. */
#define EXIT_OK 0
#define EXIT_DATA 1  /* bad input: an unknown word, a bad model, a write error */
#define EXIT_USAGE 2 /* a bad command line */

#define DEFAULT_SENTENCE "je suis étudiant"

/* --jobs: the most threads a batch may be given, and the most it gets by
 * default (one a processor, up to this many). */
#define JOBS_MAX 64
#define JOBS_DEFAULT_MAX 16

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_JSONL, FORMAT_CSV,
	      FORMAT_MARKDOWN };
#define FORMAT_COUNT (FORMAT_MARKDOWN + 1)

/* The name of format k (an enum format), or NULL past the last:
 * --format's values. */
const char *cli_format_name(int k);

/* Everything the common options can set. */
struct cli_opts {
	unsigned scorers;
	int arch;               /* --arch: an enum arch, -1 when not given */
	const char *model_path; /* NULL: the built-in toy model; else
				   model_load_arg's argument */
	const char *target;     /* NULL: greedy decoding */
	enum format format;
	struct fmt_opts fmt;
	enum tui_color color;
	const char *batch;      /* --batch FILE, "-" for stdin */
	const char *output;     /* -o FILE; NULL or "-" for stdout */
	int strict;             /* --strict: stop a batch at its first error */
	int quiet;              /* --quiet: no progress line for a batch */
	int jobs;               /* --jobs: threads of a batch; 0: the default */
	int stages_set;         /* --stage was given */
	int present;            /* tui --present */
	int autoplay_ms;        /* tui --autoplay=SECONDS, in ms; 0: off */
	struct trace_cfg cfg;   /* --window, --window-size, --hard, --seed:
	                           the attention's axes */
	int cfg_set;            /* --hard or --seed was given */
	int feed;               /* --input-feeding: the model must have it */
	const char *set_arg[WHATIF_MAX]; /* (fmt.nset) the --set arguments */
	const char *explain;    /* --explain NAME, or NULL */
	const char *goal;       /* tui --goal step[T].weights=WORD, or NULL */
	struct whatif_edit set_edits[WHATIF_MAX]; /* fmt.set: as applied */
};

/* The option opt (a code of cli_getopt) that chooses a selection
 * (selection_class.option: --hard[=sample|argmax]), with its value arg
 * (NULL: the class's first), into *cfg.  Returns 0, or EXIT_USAGE after
 * a message.  Shared by every command that traces. */
int cli_selection(struct trace_cfg *cfg, int opt, const char *arg);
/* --gradient-paths[=T] into cfg->grad_paths (-1, the last step, without
 * T); returns 0, or EXIT_USAGE after a message. */
int cli_gradient_paths(struct trace_cfg *cfg, const char *arg);
/* --gradient and --samples need a selection that draws and a target
 * (target: --target's value, NULL without it).  Returns 0, or
 * EXIT_USAGE after a message. */
int cli_hard_check(const struct trace_cfg *cfg, const char *target);
#define CLI_MAX_SAMPLES 100000
int cli_seed(struct trace_cfg *cfg, const char *arg);

/* Runs the program on argv and returns its exit status.  Errors are
 * printed on stderr as "attn-trace: ..." and never abort. */
int cli_main(int argc, char **argv);

/* Writes s to out with every byte that could drive the terminal written
 * as \xNN instead: the C0 controls but the tab, DEL, the C1 controls
 * (U+0080 .. U+009F) and bytes that are not UTF-8.  For any text the
 * user did not type as a sentence: file names, words, piped answers. */
void cli_put_safe(FILE *out, const char *s);

/* Prints "attn-trace: msg", with the bytes of msg that could drive the
 * terminal (controls, bytes that are not UTF-8) written as \xNN. */
void cli_error(const char *msg);

/* The same with a printf-style message: every error message goes through
 * here or cli_usage_errorf(). */
void cli_messagef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "attn-trace: msg" and the hint to try --help; returns EXIT_USAGE. */
int cli_usage_error(const char *msg);

/* The same with a printf-style message. */
int cli_usage_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses a whole number in [lo, hi] into *out; returns 0 or -1. */
int cli_int(const char *s, int lo, int hi, int *out);

/* Parses --jobs' value arg into *n; returns 0, or EXIT_USAGE after the
 * usage error. */
int cli_jobs(const char *arg, int *n);

/* The threads of a batch or a training without --jobs: one a processor
 * it may run on, at most JOBS_DEFAULT_MAX. */
int cli_jobs_default(void);

/* Parses --png-size=arg into *box: 0, or EXIT_USAGE after the message. */
int cli_png_size(const char *arg, struct raster_size *box);

/* Refuses a --png-size (box->w > 0) that sizes no PNG: output is not a
 * FILE.png and png (a directory of PNG files) is 0.  Returns 0, or
 * EXIT_USAGE after the message. */
int cli_png_check(const struct raster_size *box, const char *output,
		  int png);

/* Joins argv[first..argc) with spaces, or copies dflt if there is none.
 * The caller frees the result. */
char *cli_join(int argc, char **argv, int first, const char *dflt);

/* The usage error of an unknown value arg of an option, what naming it
 * ("format", "--stage"): "unknown WHAT 'ARG'; did you mean 'NAME'?
 * expected A, B or C", names[0..n) being the values it takes, from
 * their registry.  Returns EXIT_USAGE. */
int cli_value_error(const char *what, const char *arg,
		    const char *const *names, int n);

/* --lang=arg on lesson, tui and quiz: the lessons (lesson_set_lang) and
 * the messages (i18n_set_lang) in that language.  0, or EXIT_USAGE after
 * the message. */
int cli_lang(const char *arg);

/* cli_value_error of --color=arg. */
int cli_color_error(const char *arg);

/* Parses --arch=arg into *arch (an enum arch, or ARCH_ALL for "all"): 0,
 * or EXIT_USAGE after the message. */
int cli_arch(int *arch, const char *arg);

/* Refuses --arch=all (arch ARCH_ALL) for command cmd, which takes one
 * architecture: 0, or EXIT_USAGE after the message. */
int cli_arch_one(int arch, const char *cmd);

/* The one parser of --window=NAME (opt CLI_OPT_window: a name of the
 * registry, with "did you mean") and --window-size=D (CLI_OPT_window_size,
 * src/cli_options.h: a whole number from 0) into *cfg, for every command
 * that traces.  Returns 0, or EXIT_USAGE after the message. */
int cli_window(struct trace_cfg *cfg, int opt, const char *arg);
/* Refuses a --window-size below what --window's window takes (window:
 * an enum window; local-p's D is 1 or more): 0, or EXIT_USAGE after the
 * message.  Every command that traces calls it after its options. */
int cli_window_check(int window, int size);

/* The built-in model of architecture arch (an enum arch), with input
 * feeding when feed is 1 and the architecture has it (Luong's: feed4);
 * Bahdanau's decoder reads c_{t-1} already, so it keeps bahdanau4. */
const char *cli_builtin_model(int arch, int feed);

/* Refuses --input-feeding (feed 1) with --arch=bahdanau: 0, or EXIT_USAGE
 * after the message. */
int cli_feed_arch(int arch, int feed);

/* cli_load_arch, and with feed 1 (--input-feeding) a model that has input
 * feeding: without a path, cli_builtin_model(arch, 1); a model that lacks
 * it is refused, naming it and what to do.  Returns 0, or -1 after
 * printing the error. */
int cli_load_feed(struct model *m, const char *path, int arch, int feed);

/* Loads the model that path names (model_load_arg) into *m, checking that
 * it is of architecture arch (an enum arch, -1: any); without a path,
 * the built-in model of that architecture.  Returns 0, or -1 after
 * printing the error. */
int cli_load_arch(struct model *m, const char *path, int arch);

/* cli_load_feed, but without path or feed the built-in model of the
 * window's class (window: an enum window) where it names one and arch
 * (if not -1) is its architecture: --window=local-p alone is localp4.
 * 0, or -1 after the message. */
int cli_load_window(struct model *m, const char *path, int arch, int feed,
		    int window);

/* Loads the model of the options (the built-in one by default) into *m;
 * returns 0, or -1 after printing the error. 
 * Then applies the --set edits (fmt.set filled); a bad one returns
 * EXIT_USAGE after its --set:N:COL message, m freed. */
int cli_load(struct model *m, const struct cli_opts *o);

/* Whether the intermediate --set edits of o were in tr (whatif_check_trace):
 * returns 0, or EXIT_USAGE after the error is printed. */
int cli_set_check(const struct trace *tr, const struct cli_opts *o);

/* Refuses an output (-o out; NULL or "-": standard output) that would
 * overwrite the input that option opt reads (in; "-": standard input, NULL:
 * none), however either is spelled.  Returns 0, or EXIT_USAGE after the
 * message; or EXIT_USAGE with no message when standard error is that
 * input, which the message would change (2>>BATCH). */
int cli_check_overwrite(const char *out, const char *opt, const char *in);

/* Refuses two options that both read standard input ("-"): returns 0, or
 * EXIT_USAGE after the message. */
int cli_check_stdin(const char *opt1, const char *in1, const char *opt2,
		    const char *in2);

/* Refuses an -o that would overwrite the --model or the --batch file of
 * the options, and a --model and a --batch that both read standard input:
 * returns 0, or EXIT_USAGE after the message. */
int cli_check_inputs(const struct cli_opts *o);

/* Flushes stdout; returns EXIT_OK, or EXIT_DATA after reporting a write
 * error. */
int cli_flush(void);

/* The trace command (cli_trace.c): one sentence, or a batch, in any
 * format, to stdout or atomically to -o FILE. */
int cli_trace(int argc, char **argv, const struct cli_opts *o);

/* The usage error of an unknown name in --scorer=arg: names the first
 * name of the list that is not a scorer, the scorer it most likely meant
 * ("did you mean"), and the scorers there are; returns EXIT_USAGE.  all:
 * whether "all" is allowed. */
int cli_scorer_error(const char *arg, int all);

struct option;
/* The usage error of getopt_long's answer c ('?' or ':') for the option
 * argv[optind_now - 1]: an unknown long option gets the option of longopts
 * it most likely meant ("did you mean '--scorer'?").  Returns EXIT_USAGE. */
int cli_option_error(int c, char **argv, int optind_now,
		     const struct option *longopts);

/* 1 if --tui can run: standard input and output are terminals that
 * cli_term_usable() accepts; else 0 after the message "--tui needs a
 * terminal that can draw the stepper: WHY" (glimpse and calc --tui). */
int cli_term_tui_ok(void);

#endif
