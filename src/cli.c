/* cli.c: the command line: subcommands, options, exit statuses. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "cli.h"
#include "cli_options.h"
#include "i18n.h"
#include "lesson.h"
#include "selection.h"
#include "utf8.h"
#include "window.h"
#include "cli_accuracy.h"
#include "cli_heatmap.h"
#include "cli_deck.h"
#include "cli_diagram.h"
#include "cli_lesson.h"
#include "cli_quiz.h"
#include "cli_term.h"
#include "cli_train.h"
#include "cli_vocab.h"
#include "cli_caption.h"
#include "cli_image.h"
#include "cli_glimpse.h"
#include "cli_calc.h"
#include "glimpse.h"
#include "cli_self.h"
#include "outfile.h"
#include "raster.h"
#include "fmt.h"
#include "suggest.h"
#include "model.h"
#include "num.h"
#include "tok.h"
#include "trace.h"
#include "tui.h"
#include "util.h"
#include "view.h"
#include "whatif.h"
#include "window.h"

/* Writes s to out as utf8_safe() shows it: every byte that could drive
 * the terminal written as \xNN.  A message echoes file names, option
 * values and words, which can hold any byte; so does the quiz's echo of a
 * piped answer. */
void cli_put_safe(FILE *out, const char *s)
{
	char *safe = utf8_safe(s);
	fputs(safe, out);
	free(safe);
}

/* "attn-trace: MESSAGE" and a newline on stderr, MESSAGE made safe. */
static void cli_vmessage(const char *fmt, va_list ap)
{
	char small[512], *msg = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small) {
		msg = xmalloc((size_t)n + 1);
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	fputs("attn-trace: ", stderr);
	cli_put_safe(stderr, n < 0 ? fmt : msg);
	fputc('\n', stderr);
	if (msg != small)
		free(msg);
}

void cli_messagef(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vmessage(fmt, ap);
	va_end(ap);
}

void cli_error(const char *msg)
{
	cli_messagef("%s", msg);
}

/* The usage errors speak the user's language: xgettext reads the messages
 * given to these two (po/Makevars) and they are translated here; a message
 * made at run time has no translation and stays as it is. */
int cli_usage_error(const char *msg)
{
	cli_messagef("%s", _(msg));
	fputs(_("Try 'attn-trace --help' for more information.\n"), stderr);
	return EXIT_USAGE;
}

int cli_usage_errorf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vmessage(_(fmt), ap);
	va_end(ap);

	fputs(_("Try 'attn-trace --help' for more information.\n"), stderr);
	return EXIT_USAGE;
}


/* The first name of the comma-separated list that is not a scorer (nor
 * "all", if all), as a new string, empty names included; the whole list
 * if every name is one. */
static char *cli_bad_scorer(const char *list, int all)
{
	for (const char *p = list;; p++) {
		size_t n = strcspn(p, ",");
		char *w = xstrndup(p, n);
		if (scorer_find(w) < 0 && !(all && strcmp(w, "all") == 0))
			return w;
		free(w);
		p += n;
		if (!*p)
			return xstrdup(list);
	}
}

int cli_scorer_error(const char *arg, int all)
{
	const char *cands[SCORER_COUNT + 1];
	char names[256], hint[128] = "";
	char *bad = cli_bad_scorer(arg, all);
	for (int k = 0; k < SCORER_COUNT; k++)
		cands[k] = scorer_get(k)->name;
	cands[SCORER_COUNT] = all ? "all" : NULL;
	const char *near = suggest_closest(bad, cands, SCORER_COUNT + 1);
	if (near)
		snprintf(hint, sizeof hint, _("did you mean '%s'? "), near);
	int whole = strcmp(bad, arg) == 0;
	/* TRANSLATORS: %2$s%3$s%4$s is nothing or " in 'LIST'", %5$s nothing
	 * or "did you mean 'NAME'? ", %6$s the scorers, %7$s nothing or
	 * " or all (several separated by commas)" */
	int rc = cli_usage_errorf("unknown scorer '%s'%s%s%s; %sexpected %s%s",
				  bad, whole ? "" : _(" in '"), whole ? "" : arg,
				  whole ? "" : "'", hint,
				  scorer_names(names, sizeof names, ", ",
					       all ? ", " : _(" or ")),
				  all ? _(" or all (several separated by commas)")
				      : "");

	free(bad);
	return rc;
}

int cli_value_error(const char *what, const char *arg,
		    const char *const *names, int n)
{
	struct fmt_buf b = FMT_BUF_INIT;
	const char *near = suggest_closest(arg, names, n);
	if (near)
		fmt_buf_printf(&b, _("did you mean '%s'? "), near);
	fmt_buf_printf(&b, "%s", _("expected "));
	for (int k = 0; k < n; k++)
		fmt_buf_printf(&b, "%s%s", k == 0 ? "" : k + 1 < n ? _(", ")
			       : _(" or "), names[k]);
	fmt_buf_putc(&b, '\0');
	int rc = cli_usage_errorf("unknown %s '%s'; %s", what, arg, b.p);
	fmt_buf_free(&b);
	return rc;
}

int cli_lang(const char *arg)
{
	if (lesson_set_lang(arg) != 0)
		return cli_usage_errorf("--lang expects en or zh_CN, found "
					"'%s'", arg);
	i18n_set_lang(arg);
	return 0;
}

int cli_color_error(const char *arg)
{
	const char *names[3];
	for (int k = 0; k < 3; k++)
		names[k] = tui_color_name(k);
	return cli_value_error("--color", arg, names, 3);
}

int cli_option_error(int c, char **argv, int optind_now,
		     const struct option *longopts)
{
	const char *arg = argv[optind_now - 1];
	if (c == ':')
		return cli_usage_errorf("option '%s' needs a value", arg);
	if (strncmp(arg, "--", 2) != 0 || !arg[2])
		return cli_usage_errorf("unknown option '%s'", arg);
	size_t len = strcspn(arg + 2, "=");
	char *name = xstrndup(arg + 2, len);
	int n = 0, match = -1, nmatch = 0;
	while (longopts[n].name)
		n++;
	/* "--input-feeding=yes": an option that takes no value, given one
	 * (named or abbreviated as getopt allows, so exact or a unique
	 * prefix) */
	for (int k = 0; k < n && nmatch >= 0; k++)
		if (strcmp(longopts[k].name, name) == 0)
			match = k, nmatch = -1;
		else if (len && strncmp(longopts[k].name, name, len) == 0)
			match = k, nmatch++;
	if (arg[2 + len] == '=' && (nmatch < 0 || nmatch == 1) &&
	    longopts[match].has_arg == no_argument) {
		int rc = cli_usage_errorf("option '--%s' takes no value, but "
					  "was given '%s'",
					  longopts[match].name, arg);
		free(name);
		return rc;
	}
	const char **cands = xreallocarray(NULL, (size_t)n + 1,
					   sizeof *cands);
	for (int k = 0; k < n; k++)
		cands[k] = longopts[k].name;
	const char *near = suggest_closest(name, cands, n);
	int rc;
	if (nmatch > 1) { /* "--w": the start of several options */
		struct fmt_buf b = FMT_BUF_INIT;
		for (int k = 0, seen = 0; k < n; k++)
			if (strncmp(longopts[k].name, name, len) == 0)
				fmt_buf_printf(&b, "%s'--%s'", seen++ == 0 ? ""
					       : seen == nmatch ? " or " : ", ",
					       longopts[k].name);
		fmt_buf_putc(&b, '\0');
		rc = cli_usage_errorf("option '%s' is ambiguous: it could be "
				      "%s", arg, b.p);
		fmt_buf_free(&b);
	} else if (near)
		rc = cli_usage_errorf("unknown option '%s'; did you mean "
				      "'--%s'?", arg, near);
	else
		rc = cli_usage_errorf("unknown option '%s'", arg);
	free(cands);
	free(name);
	return rc;
}

/* --format's values: enum format's names */
static const char *const cli_formats[FORMAT_COUNT] = {
	"text", "json", "jsonl", "csv", "markdown"
};



static void cli_help(void)
{
	/* TRANSLATORS: the commands' names, the options and the words in
	 * capitals stay as they are; keep the text under column 22 */
	printf(_(
"Usage: attn-trace [COMMAND] [OPTION]... [SENTENCE]\n"
"Trace the arithmetic of attention in a tiny sequence-to-sequence model,\n"
"stage by stage: encoding, decoder, scoring, softmax, weighted sum,\n"
"concatenation and output.\n"
"\n"
"Commands:\n"
"  trace [SENTENCE]   print a full trace (the default command; the default\n"
"                     sentence is \"%s\")\n"
"  tui [SENTENCE]     step through the trace full-screen (what a bare\n"
"                     attn-trace does on a terminal that TERM describes;\n"
"                     elsewhere it prints the trace, with a note)\n"
"  lessons            list the lessons\n"
"  lesson NAME        follow a lesson in the stepper (--plain: as text);\n"
"                     lesson --check FILE... validates lesson files\n"
"  quiz [SENTENCE]    compute values of the trace by hand (quiz --help)\n"
"  heatmap [SENTENCE] the alignment matrix as an SVG picture (heatmap --help)\n"
"  diagram [SENTENCE] the picture of a decoder step as SVG (diagram --help)\n"
"  deck [SENTENCE]    the trace as slides, one HTML file (deck --help)\n"
"  train --pairs=FILE train a model on sentence pairs (train --help)\n"
"  accuracy --pairs=FILE  word and exact-match accuracy by source length,\n"
"                     as a table, a text plot or a chart (accuracy --help)\n"
"  model              print every weight of the model\n"
"  scorers            list the score functions and their formulas\n"
"  models             list the models built into the program\n"
"  vocab              list the words the model knows (vocab --help)\n"
"  self [SENTENCE]    self-attention with two heads, number by number;\n"
"                     --target: cross-attention (self --help)\n"
"  image FILE.pgm     show a PGM image as shaded blocks, or as SVG pixels\n"
"                     with -o (image --help)\n"
"  caption FILE.pgm   soft attention over the image's 3x3 cells, number\n"
"                     by number, as the decoder says its caption\n"
"                     (caption --help)\n"
"  glimpse FILE.pgm   glimpses at an image (Mnih et al. 2014), number by\n"
"                     number; --train, --measure (glimpse --help)\n"
"  calc --query=LIST --keys=ROWS  attention on any vectors, term by term\n"
"                     (calc --help)\n"
"  options [COMMAND]  the options a command takes; --values=OPTION: the\n"
"                     values of one (options --help)\n"
"  help [COMMAND]     this help, or a command's (as COMMAND --help)\n"
"\n"
"Sentence punctuation (. , ! ? ...) is split off words and left out, with\n"
"a note, unless the model knows it.\n"
"\n"
"Options of trace, tui and model:\n"), DEFAULT_SENTENCE);
	cli_help_options(CLI_CMDS_COMMON, 24);
	fputs(_(
"\n"
"Examples:\n"
"  attn-trace trace --scorer=all \"je suis étudiant\"\n"
"  attn-trace trace --target=\"european economic area\" "
"zone économique européenne\n"
"  attn-trace trace --batch=pairs.txt --format=csv -o traces.csv\n"
"  attn-trace lesson softmax\n"
"  attn-trace tui --present --autoplay=8\n"
"\n"
"New to attention?  'attn-trace lessons' lists lessons that explain each\n"
"stage; 'attn-trace lesson 1' starts the first.\n"
"\n"
"Exit status: 0 on success, 1 on bad input or a write error, 2 on a bad\n"
"command line.  See attn-trace(1) for the keys of the stepper and the\n"
"model, trace and lesson formats.\n"),
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

int cli_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

int cli_jobs(const char *arg, int *n)
{
	if (cli_int(arg, 1, JOBS_MAX, n) == 0)
		return 0;
	return cli_usage_errorf("--jobs expects a whole number from 1 to %d, "
				"not '%s'", JOBS_MAX, arg);
}

int cli_jobs_default(void)
{
	int n = util_processors();
	return n > JOBS_DEFAULT_MAX ? JOBS_DEFAULT_MAX : n;
}


const char *cli_format_name(int k)
{
	return k >= 0 && k < FORMAT_COUNT ? cli_formats[k] : NULL;
}


/* Adds the comma-separated stage names of arg to o's stages. */
static int cli_stages(struct cli_opts *o, const char *arg)
{
	char *list = xstrdup(arg), *save = NULL;
	if (!o->stages_set)
		o->fmt.stages = 0;
	o->stages_set = 1;
	for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int k = 0;
		while (k < STAGE_COUNT && strcmp(w, trace_stage_name((enum trace_stage)k)))
			k++;
		if (k == STAGE_COUNT) {
			const char *names[STAGE_COUNT];
			for (int j = 0; j < STAGE_COUNT; j++)
				names[j] = trace_stage_name((enum trace_stage)j);
			int rc = cli_value_error("stage", w, names, STAGE_COUNT);
			free(list);
			return rc;
		}
		o->fmt.stages |= 1u << k;
		/* scoring keeps the decoder's update it held before that had
		 * a stage of its own, so that old lists print what they did */
		if (k == STAGE_SCORING)
			o->fmt.stages |= 1u << STAGE_DECODER;
	}
	free(list);
	if (o->fmt.stages == 0)
		return cli_usage_error("--stage needs at least one stage");
	return 0;
}

/* --autoplay=SECONDS: from 0.5 to 3600, decimals allowed; implies
 * --present. */
static int cli_autoplay(struct cli_opts *o, const char *arg)
{
	double sec;
	const char *end;
	if (num_parse(arg, &sec, &end) != NUM_OK || *end || sec < 0.5 ||
	    sec > 3600) {
		char msg[256];
		snprintf(msg, sizeof msg, _("--autoplay expects seconds from 0.5 "
			 "to 3600, not '%s'"), arg);
		return cli_usage_error(msg);
	}
	o->autoplay_ms = (int)(sec * 1000 + 0.5);
	o->present = 1;
	return 0;
}

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
		return cli_scorer_error(arg, 1);
	case 'm': o->model_path = arg; return 0;
	case 't': o->target = arg; return 0;
	case 'f':
		for (int k = 0; k < FORMAT_COUNT; k++)
			if (strcmp(arg, cli_formats[k]) == 0) {
				o->format = (enum format)k;
				return 0;
			}
		return cli_value_error("format", arg, cli_formats,
				       FORMAT_COUNT);
	case CLI_OPT_batch: o->batch = arg; return 0;
	case CLI_OPT_lang: return cli_lang(arg);
	case CLI_OPT_strict: o->strict = 1; return 0;
	case CLI_OPT_quiet: o->quiet = 1; return 0;
	case 'j': return cli_jobs(arg, &o->jobs);
	case 'o': o->output = arg; return 0;
	case CLI_OPT_stage:
		return cli_stages(o, arg);
	case CLI_OPT_present: o->present = 1; return 0;
	case CLI_OPT_autoplay:
		return cli_autoplay(o, arg);
	case CLI_OPT_arch:
		return cli_arch(&o->arch, arg);
	case CLI_OPT_window:
	case CLI_OPT_window_size:
		return cli_window(&o->cfg, c, arg);
	case CLI_OPT_input_feeding:
		o->feed = 1;
		return 0;
	case CLI_OPT_set:
		if (o->fmt.nset == WHATIF_MAX)
			return cli_usage_errorf("--set:%d:1: expected at most %d "
						"--set", WHATIF_MAX + 1,
						WHATIF_MAX);
		o->set_arg[o->fmt.nset++] = arg;
		o->fmt.set = o->set_edits;
		o->cfg.set = o->set_edits; /* the intermediates' */
		o->cfg.nset = o->fmt.nset;
		return 0;
	case CLI_OPT_explain: o->explain = arg; return 0;
	case CLI_OPT_goal: o->goal = arg; return 0;
	case CLI_OPT_hard:
		o->cfg_set = 1;
		return cli_selection(&o->cfg, c, arg);
	case CLI_OPT_seed:
		o->cfg_set = 1;
		return cli_seed(&o->cfg, arg);
	case CLI_OPT_gradient:
		o->cfg_set = 1;
		o->cfg.hard_gradient = 1;
		return 0;
	case CLI_OPT_gradient_paths:
		o->cfg_set = 1;
		return cli_gradient_paths(&o->cfg, arg);
	case CLI_OPT_samples:
		o->cfg_set = 1;
		if (cli_int(arg, 1, CLI_MAX_SAMPLES, &o->cfg.hard_samples) == 0)
			return 0;
		return cli_usage_errorf("--samples expects a whole number from "
					"1 to %d, not '%s'", CLI_MAX_SAMPLES,
					arg);
	case 'p':
		if (cli_int(arg, 0, NUM_MAX_PREC, &o->fmt.precision) == 0)
			return 0;
		snprintf(msg, sizeof msg, _("--precision expects a whole number "
			 "from 0 to %d, not '%s'"), NUM_MAX_PREC, arg);
		return cli_usage_error(msg);
	case CLI_OPT_handout:
		o->fmt.handout = 1;
		return 0;
	case CLI_OPT_top:
		if (cli_int(arg, 0, MODEL_MAX_VOCAB, &o->fmt.top) == 0)
			return 0;
		snprintf(msg, sizeof msg, _("--top expects a whole number from 0 "
			 "to %d, not '%s'"), MODEL_MAX_VOCAB, arg);
		return cli_usage_error(msg);
	case CLI_OPT_color:
		if (tui_color_parse(arg, &o->color) == 0)
			return 0;
		return cli_color_error(arg);
	case 'h': cli_help(); return -1;
	case 'V': cli_version(); return -1;
	default: return EXIT_USAGE; /* getopt has said what was wrong */
	}
}

int cli_selection(struct trace_cfg *cfg, int opt, const char *arg)
{
	const char *name = cli_option_name(opt);
	int s = selection_by_option(name), n;
	const struct selection_class *c = selection_get(s);
	int k = arg ? selection_value(c, arg, strlen(arg), &n) : 0;
	char what[64];

	if (k < 0) {
		snprintf(what, sizeof what, "--%s %s", name, c->value_noun);
		return cli_value_error(what, arg, c->values, n);
	}
	cfg->selection = s;
	c->set(cfg, k);
	return 0;
}

int cli_gradient_paths(struct trace_cfg *cfg, const char *arg)
{
	cfg->grad_paths = -1; /* the last step */
	if (!arg || cli_int(arg, 1, TRACE_MAX_STEPS, &cfg->grad_paths) == 0)
		return 0;
	return cli_usage_errorf("--gradient-paths expects a step from 1 to "
				"%d, not '%s'", TRACE_MAX_STEPS, arg);
}

int cli_seed(struct trace_cfg *cfg, const char *arg)
{
	unsigned long long v;
	if (util_whole(arg, strlen(arg), ULLONG_MAX, &v) != 0)
		return cli_usage_errorf("--seed expects a whole number from 0 "
					"to 18446744073709551615, not '%s'",
					arg);
	cfg->seed = v;
	return 0;
}

int cli_png_size(const char *arg, struct raster_size *box)
{
	struct errbuf err;
	if (raster_size_parse(arg, box, &err) == 0)
		return 0;
	return cli_usage_error(err.msg);
}

int cli_png_check(const struct raster_size *box, const char *output,
		  int png)
{
	if (box->w > 0 && !png && !raster_name(output))
		return cli_usage_error("--png-size sizes a PNG: it needs "
				       "-o FILE.png");
	return 0;
}

int cli_hard_check(const struct trace_cfg *cfg, const char *target)
{
	const char *opt = cfg->hard_gradient ? "--gradient"
			: cfg->hard_samples ? "--samples" : NULL;
	if (!opt)
		return 0;
	if (!selection_get(cfg->selection)->draws || !target)
		return cli_usage_errorf("%s needs --%s and --target: the "
					"reward is log P of the target word",
					opt, selection_draws_option());
	return 0;
}

/* Parses the options of argv (from optind 1) into *o.  Returns 0, -1 when
 * --help or --version has been answered, or EXIT_USAGE. */
static int cli_parse(struct cli_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->scorers = 1u << SCORER_dot;
	o->arch = -1;
	o->cfg = (struct trace_cfg)TRACE_CFG_DEFAULT;
	fmt_opts_default(&o->fmt);
	optind = 1;
	opterr = 0;
	int c;
	while ((c = cli_getopt(CLI_CMDS_COMMON, argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		int rc = cli_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	if (!o->batch && cli_hard_check(&o->cfg, o->target))
		return EXIT_USAGE;
	if (!o->batch && o->cfg.grad_paths && !o->target)
		return cli_usage_error("--gradient-paths needs --target: L_t "
				       "is the cross-entropy of the target "
				       "word at step t");
	if (o->fmt.handout && o->format != FORMAT_MARKDOWN)
		return cli_usage_error("--handout needs --format=markdown: it "
				       "is a Markdown handout");
	if (cli_window_check(o->cfg.window, o->cfg.window_size))
		return EXIT_USAGE;
	return cli_feed_arch(o->arch, o->feed);
}

/* Joins argv[first..argc) with spaces, or returns dflt if there is none.
 * The caller frees the result. */
char *cli_join(int argc, char **argv, int first, const char *dflt)
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

int cli_arch(int *arch, const char *arg)
{
	const char *cands[ARCH_COUNT + 1];
	*arch = strcmp(arg, "all") == 0 ? ARCH_ALL : arch_find(arg);
	if (*arch >= 0)
		return 0;
	for (int k = 0; k < ARCH_COUNT; k++)
		cands[k] = arch_get(k)->name;
	cands[ARCH_COUNT] = "all";
	return cli_value_error("architecture", arg, cands, ARCH_COUNT + 1);
}


int cli_window(struct trace_cfg *cfg, int opt, const char *arg)
{
	const char *cands[WINDOW_COUNT];
	if (opt == CLI_OPT_window_size) {
		unsigned long long d;
		if (util_whole(arg, strlen(arg), TRACE_MAX_TOKENS, &d) == 0) {
			cfg->window_size = (int)d;
			return 0;
		}
		return cli_usage_errorf("--window-size expects a whole number "
					"from 0 to %d, not '%s'",
					TRACE_MAX_TOKENS, arg);
	}
	cfg->window = window_find(arg);
	if (cfg->window >= 0)
		return 0;
	for (int k = 0; k < WINDOW_COUNT; k++)
		cands[k] = window_get(k)->name;
	return cli_value_error("window", arg, cands, WINDOW_COUNT);
}

int cli_window_check(int window, int size)
{
	const struct window_class *w = window_get(window);
	if (size >= w->min_size)
		return 0;
	return cli_usage_errorf("--window=%s needs a --window-size of at "
				"least %d (%s), not %d", w->name, w->min_size,
				w->min_size_why, size);
}

int cli_arch_one(int arch, const char *cmd)
{
	if (arch != ARCH_ALL)
		return 0;
	return cli_usage_errorf("--arch=all works with 'trace', 'tui', "
				"'heatmap', 'quiz' and 'train'; '%s' takes "
				"one architecture", cmd);
}

int cli_load_arch(struct model *m, const char *path, int arch)
{
	struct errbuf err;
	if (arch >= 0 && arch < ARCH_COUNT && !path)
		path = arch_builtin_model(arch); /* the architecture's own */
	if (model_load_arg(m, path, &err) != 0) {
		cli_error(err.msg);
		return -1;
	}
	if (arch >= 0 && m->arch != arch) {
		cli_messagef(_("%s is a model of the %s architecture, and --arch "
			     "asks for %s"), m->name, arch_get(m->arch)->name,
			     arch_get(arch)->name);
		model_free(m);
		return -1;
	}
	return 0;
}


const char *cli_builtin_model(int arch, int feed)
{
	const struct arch_class *c = arch_get(arch >= 0 && arch < ARCH_COUNT
					      ? arch : ARCH_DEFAULT);

	return feed && c->feed_model ? c->feed_model : c->model;
}

int cli_feed_arch(int arch, int feed)
{
	const struct arch_class *c;

	if (!feed || arch < 0 || arch >= ARCH_COUNT)
		return 0;
	c = arch_get(arch);
	if (c->feed_model)
		return 0;
	return cli_usage_errorf("--input-feeding is %s: %s decoder %s; drop "
				"--arch=%s or --input-feeding",
				_(arch_feed_owner()), _(c->owner),
				_(c->no_feed), c->name);
}

int cli_load_feed(struct model *m, const char *path, int arch, int feed)
{
	/* without a model, the architecture's own with input feeding; for
	 * one with no input-feeding variant (--arch=all) its own, as it is */
	if (!path && feed) {
		if (arch >= 0 && arch < ARCH_COUNT &&
		    !arch_get(arch)->feed_model)
			return cli_load_arch(m, NULL, arch);
		path = cli_builtin_model(arch, 1);
	}
	if (cli_load_arch(m, path, arch) != 0)
		return -1;
	if (!feed || m->input_feeding)
		return 0;
	if (!arch_get(m->arch)->feed_model)
		cli_messagef(_("%s is a model of the %s architecture, whose "
			     "decoder %s: input feeding is %s; drop "
			     "--input-feeding, or give a model trained with "
			     "'train --input-feeding' (the built-in feed4 is "
			     "one)"), m->name, arch_get(m->arch)->name,
			     _(arch_get(m->arch)->no_feed),
			     _(arch_feed_owner()));
	else
		cli_messagef(_("%s has no input feeding, and --input-feeding "
			     "asks for it; drop --input-feeding, or give a "
			     "model trained with 'train --input-feeding' (the "
			     "built-in feed4 is one)"), m->name);
	model_free(m);
	return -1;
}

/* The built-in model of window's class (window_class.model), when no
 * path or feed asks for another and arch, if given, is its
 * architecture: 0 with it in *m, or -1 with nothing loaded. */
static int cli_load_own(struct model *m, const char *path, int arch,
			int feed, int window)
{
	const char *own = window_get(window)->model;
	struct errbuf err;

	if (path || feed || !own || model_load_arg(m, own, &err) != 0)
		return -1;
	if (arch >= 0 && m->arch != arch) {
		model_free(m);
		return -1;
	}
	return 0;
}

int cli_load_window(struct model *m, const char *path, int arch, int feed,
		    int window)
{
	if (cli_load_own(m, path, arch, feed, window) == 0)
		return 0;
	return cli_load_feed(m, path, arch, feed);
}

int cli_load(struct model *m, const struct cli_opts *o)
{
	if (cli_load_window(m, o->model_path, o->arch, o->feed,
			    o->cfg.window) != 0)
		return -1;
	for (int k = 0; k < o->fmt.nset; k++) {
		struct errbuf err;
		if (whatif_apply(m, o->set_arg[k], k + 1, &o->fmt.set[k],
				 &err) != 0) {
			cli_usage_error(err.msg);
			model_free(m);
			return EXIT_USAGE;
		}
	}
	struct errbuf err;
	if (whatif_check_cfg(o->fmt.set, o->fmt.nset, &o->cfg, &err) != 0) {
		cli_usage_error(err.msg);
		model_free(m);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_set_check(const struct trace *tr, const struct cli_opts *o)
{
	struct errbuf err;
	if (whatif_check_trace(o->fmt.set, o->fmt.nset, tr, &err) == 0)
		return 0;
	cli_usage_error(err.msg);
	return EXIT_USAGE;
}

int cli_check_overwrite(const char *out, const char *opt, const char *in)
{
	/* every message would go into the input (2>>BATCH: without end);
	 * refused before anything is read, and without a word, which would
	 * change the input too */
	if (outfile_same_fd(STDERR_FILENO, in))
		return EXIT_USAGE;
	if (!outfile_same_file(out, in))
		return 0;
	if (!out || strcmp(out, "-") == 0)
		return cli_usage_errorf("standard output: expected a file other "
					"than the input %s=%s, found the same "
					"file", opt, in);
	return cli_usage_errorf("-o %s: expected a file other than the input "
				"%s=%s, found the same file", out, opt, in);
}

int cli_check_stdin(const char *opt1, const char *in1, const char *opt2,
		    const char *in2)
{
	if (!in1 || !in2 || strcmp(in1, "-") != 0 || strcmp(in2, "-") != 0)
		return 0;
	return cli_usage_errorf("%s=- and %s=- cannot both read standard "
				"input; expected a file for one of them", opt1,
				opt2);
}

/* The --model of the options as a file that an output could overwrite:
 * NULL for the built-in models, which are named, not read. */
static const char *cli_model_file(const struct cli_opts *o)
{
	const char *p = o->model_path;
	return p && !model_builtin_name(p) ? p : NULL;
}

/* Refuses an -o that would overwrite the --model or the --batch file, and
 * a --model and a --batch that both read standard input: returns 0 or
 * EXIT_USAGE. */
int cli_check_inputs(const struct cli_opts *o)
{
	if (cli_check_stdin("--model", o->model_path, "--batch", o->batch) ||
	    cli_check_overwrite(o->output, "--model", cli_model_file(o)) ||
	    cli_check_overwrite(o->output, "--batch", o->batch))
		return EXIT_USAGE;
	return 0;
}

int cli_flush(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_messagef(_("write error: %s"),
			strerror(errno ? errno : EIO));
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* The stepper's edits (view_edit.c): the sentence traced again on the
 * model m with the command line's --set and then the stepper's, each
 * "step[T].KEY[K]=VALUE" and numbered after the command line's. */
struct cli_retrace {
	const struct model *m;
	const struct cli_opts *o;
	const char *sentence;
};

/* A trace with the edits it was made with, which it points to, and its
 * own copy of the model when an edit is the model's. */
struct cli_retraced {
	struct trace tr; /* first: the trace is the whole to free */
	struct whatif_edit set[WHATIF_MAX];
	struct model m;  /* read again for the edits of a weight or an
			    embedding (own), which the unedited trace's
			    model must not see */
	int own;
};

static struct trace *cli_retrace_make(void *ctx, const char *const *args,
				      int n, struct errbuf *err)
{
	const struct cli_retrace *c = ctx;
	int have = c->o->fmt.nset;
	if (have + n > WHATIF_MAX) {
		err_set(err, _("--set:%d:1: expected at most %d --set"),
			have + n, WHATIF_MAX);
		return NULL;
	}
	struct cli_retraced *r = xcalloc(1, sizeof *r);
	struct model m = *c->m; /* whatif_apply reads H of it: a step's
				   value leaves the model alone */
	struct model *use = &m;
	if (have) /* without --set, fmt.set is NULL: no memcpy from it */
		memcpy(r->set, c->o->fmt.set, (size_t)have * sizeof *r->set);
	int model_edit = 0;
	for (int k = 0; k < n; k++)
		model_edit |= strncmp(args[k], "step[", 5) != 0;
	if (model_edit) { /* a copy of its own: the model read again, with
			     the command line's edits of it */
		const char *path = c->o->model_path;
		if (path && strcmp(path, "-") == 0) {
			err_set(err, _("a model read from standard input is "
				       "read once: the stepper can set a "
				       "step's value, not the model's numbers"));
			free(r);
			return NULL;
		}
		if (cli_load_window(&r->m, path, c->o->arch, c->o->feed,
				    c->o->cfg.window) != 0) {
			err_set(err, _("%s could not be read again"),
				c->m->name);
			free(r);
			return NULL;
		}
		r->own = 1;
		use = &r->m;
		for (int k = 0; k < have; k++)
			if (c->o->fmt.set[k].what == WHATIF_MODEL &&
			    whatif_apply(use, c->o->set_arg[k], k + 1, &r->set[k],
					 err) != 0)
				goto fail;
	}
	for (int k = 0; k < n; k++)
		if (whatif_apply(use, args[k], have + k + 1, &r->set[have + k],
				 err) != 0)
			goto fail;
	struct trace_cfg cfg = c->o->cfg;
	cfg.set = r->set;
	cfg.nset = have + n;
	if (whatif_check_cfg(r->set, have + n, &cfg, err) != 0 ||
	    tok_trace_note(&r->tr, r->own ? &r->m : c->m, c->sentence,
			   c->o->target, SCORER_ALL, NULL, 0, &cfg, err) != 0)
		goto fail;
	if (whatif_check_trace(r->set, have + n, &r->tr, err) != 0) {
		trace_free(&r->tr);
		goto fail;
	}
	return &r->tr;
fail:
	if (r->own)
		model_free(&r->m);
	free(r);
	return NULL;
}

static void cli_retrace_free(void *ctx, struct trace *tr)
{
	struct cli_retraced *r = (struct cli_retraced *)tr; /* its first
							       member */
	(void)ctx;
	trace_free(tr);
	if (r->own)
		model_free(&r->m);
	free(r);
}

/* The stepper on the trace of every scorer of the models ms (n, one an
 * architecture under --arch=all), starting with the scorer asked for,
 * on the first. */
static int cli_tui_run(const struct model *ms, int n,
		       const struct cli_opts *o, const char *sentence)
{
	struct trace trs[ARCH_COUNT];
	const struct trace *archs[ARCH_COUNT];
	struct errbuf err;
	char note[320];
	int made = 0, rc = EXIT_DATA;
	for (; made < n; made++) {
		if (tok_trace_note(&trs[made], &ms[made], sentence, o->target,
				   SCORER_ALL, note, sizeof note, &o->cfg,
				   &err) != 0) {
			cli_error(err.msg);
			goto out;
		}
		archs[made] = &trs[made];
		if ((rc = cli_set_check(&trs[made], o)) != 0) {
			made++;
			goto out;
		}
		rc = EXIT_DATA;
	}
	if (note[0]) /* the stepper takes the screen: a line before it */
		cli_messagef(_("note: %s"), note);
	struct tui_opts to = { o->color, o->fmt.precision, SCORER_dot,
			       o->present, o->autoplay_ms,
			       n > 1 ? archs : NULL, n > 1 ? n : 0, NULL, 0, 0 };
	struct cli_retrace rc_ctx = { &ms[0], o, sentence };
	struct view_retrace retrace = { &rc_ctx, cli_retrace_make,
					cli_retrace_free };
	if (n == 1)
		to.retrace = &retrace;
	if (o->goal && n > 1) {
		rc = cli_usage_error("--goal is for the edits of one model; "
				     "drop --arch=all");
		goto out;
	}
	if (o->goal && (trs[0].enc ||
	    whatif_goal(&trs[0], o->goal, &to.goal_t, &to.goal_i, &err) != 0)) {
		if (trs[0].enc)
			rc = cli_usage_error("--goal names a word of a sentence; "
					     "an image's cells have none");
		else
			rc = cli_usage_error(err.msg);
		goto out;
	}
	for (int k = 0; k < SCORER_COUNT; k++)
		if (o->scorers == 1u << k)
			to.start_scorer = k;
	rc = tui_run_trace(&trs[0], &to);
out:
	while (made-- > 0)
		trace_free(&trs[made]);
	return rc;
}

/* Refuses the options that only 'trace' takes. */
static int cli_trace_only(const struct cli_opts *o, const char *cmd)
{
	const char *opt = o->batch ? "--batch" : o->strict ? "--strict"
			: o->jobs ? "--jobs" : o->stages_set ? "--stage"
			: o->quiet ? "--quiet"
			: o->cfg.grad_paths ? "--gradient-paths" : NULL;
	char sel[64];
	if (!opt && o->cfg_set && strcmp(cmd, "model") == 0) {
		/* the option of the selection given, or --seed */
		snprintf(sel, sizeof sel, "--%s",
			 o->cfg.selection != SELECTION_DEFAULT
			 ? selection_get(o->cfg.selection)->option : "seed");
		opt = sel;
	}
	if (!opt && o->present && strcmp(cmd, "tui") != 0)
		opt = o->autoplay_ms ? "--autoplay" : "--present";
	if (!opt && o->output && strcmp(cmd, "tui") == 0)
		opt = "--output";
	if (!opt)
		return 0;
	char msg[256];
	snprintf(msg, sizeof msg, _("%s does not work with '%s'"), opt, cmd);
	return cli_usage_error(msg);
}

static int cli_tui(int argc, char **argv, const struct cli_opts *o)
{
	if (cli_trace_only(o, "tui"))
		return EXIT_USAGE;
	char why[160];
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_error(_("the stepper needs a terminal; 'attn-trace trace' "
			  "prints the same trace as text"));
		return EXIT_DATA;
	}
	if (!cli_term_usable(why, sizeof why)) {
		cli_messagef(_("the stepper cannot draw here: %s; 'attn-trace "
			     "trace' prints the same trace as text"), why);
		return EXIT_DATA;
	}
	/* --arch=all: every architecture of the registry, each on its
	 * built-in model (with --input-feeding, its input-feeding variant's
	 * where it has one); 'a' steps from one to the next */
	struct model ms[ARCH_COUNT];
	int n = 0;
	if (o->arch == ARCH_ALL && o->model_path)
		return cli_usage_error("--arch=all steps through the built-in "
				       "model of each architecture; drop "
				       "--model");
	int lrc = o->arch != ARCH_ALL ? cli_load(&ms[n++], o) : 0;
	if (lrc != 0)
		return lrc == EXIT_USAGE ? EXIT_USAGE : EXIT_DATA;
	for (; o->arch == ARCH_ALL && n < ARCH_COUNT; n++)
		if (cli_load_feed(&ms[n], NULL, n, o->feed) != 0) {
			while (n-- > 0)
				model_free(&ms[n]);
			return EXIT_DATA;
		}
	char *sentence = cli_join(argc, argv, optind, DEFAULT_SENTENCE);
	int rc = cli_tui_run(ms, n, o, sentence);
	free(sentence);
	while (n-- > 0)
		model_free(&ms[n]);
	return rc;
}

static int cli_model(int argc, char **argv, const struct cli_opts *o)
{
	if (optind < argc) {
		char msg[256];
		snprintf(msg, sizeof msg, _("'model' takes no sentence, but was "
			 "given '%s'"), argv[optind]);
		return cli_usage_error(msg);
	}
	if (cli_trace_only(o, "model"))
		return EXIT_USAGE;
	if (o->format != FORMAT_TEXT && o->format != FORMAT_JSON)
		return cli_usage_error("'model' writes text or json");
	if (cli_arch_one(o->arch, "model"))
		return EXIT_USAGE;
	struct model m;
	struct outfile of;
	struct errbuf err;
	if (cli_check_inputs(o))
		return EXIT_USAGE;
	int lrc = cli_load(&m, o);
	if (lrc != 0)
		return lrc == EXIT_USAGE ? EXIT_USAGE : EXIT_DATA;
	if (outfile_open(&of, o->output, &err) != 0) {
		cli_error(err.msg);
		model_free(&m);
		return EXIT_DATA;
	}
	if (o->format == FORMAT_JSON)
		fmt_json_model(of.fp, &m);
	else
		fmt_text_model(of.fp, &m, &o->fmt);
	outfile_wrote(&of);
	model_free(&m);
	if (outfile_commit(&of, &err) != 0) {
		cli_error(err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* attn-trace scorers [--names]: the registry of scorers, a line each:
 * its name, its formula and what it is; with --names, the names alone
 * (for completion). */
static int cli_scorers(int argc, char **argv)
{
	int names_only = argc == 2 && strcmp(argv[1], "--names") == 0;
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0)) {
		fputs(_("Usage: attn-trace scorers [--names]\n"
			"List the score functions attention can use, with "
			"their formulas and the\nweights each needs in a "
			"model; --names lists their names alone.\n"), stdout);
		return cli_flush();
	}
	if (argc > 1 && !names_only)
		return cli_usage_errorf("'scorers' takes only --names, not '%s'",
					argv[1]);
	for (int k = 0; k < SCORER_COUNT; k++) {
		const struct scorer_class *c = scorer_get(k);
		if (names_only) {
			printf("%s\n", c->name);
			continue;
		}
		/* TRANSLATORS: the weights' section names follow */
		printf("%-9s %s\n          %s\n          %s", c->name,
		       _(c->formula), _(c->summary), _("weights:"));
		for (int j = 0; j < c->nparams; j++)
			printf(" [%s.%s]", c->name, c->params[j].key);
		printf("%s\n", c->nparams ? "" : _(" none"));
	}
	return cli_flush();
}

/* "attn-trace models": the line of the built-in struct model name, in
 * a names' column w wide; EXIT_OK or EXIT_DATA. */
static int cli_models_one(const char *name, int w, const char *what)
{
	struct model m;
	struct errbuf err;
	if (model_load_named(&m, name, &err) != 0) {
		cli_error(err.msg);
		return EXIT_DATA;
	}
	if (model_mha(&m) & MHA_PARAM_BIT(MHA_SELF))
		/* a model of attn-trace self (src/self.h: two heads) */
		printf(model_mha(&m) & MHA_PARAM_BIT(MHA_CROSS)
		       ? _("%-*s self-attention and cross-attention, "
			   "embedding %d, 2 heads of d_k %d\n%*s %s\n")
		       : _("%-*s self-attention, embedding %d, 2 heads "
			   "of d_k %d\n%*s %s\n"), w, name, m.E,
		       m.E / 2, w, "", _(what));
	else
		printf(_("%-*s %s architecture, embedding %d, hidden "
			 "%d, attention %d\n%*s %s\n"), w, name,
		       arch_get(m.arch)->name, m.E, m.H, m.A, w, "",
		       _(what));
	model_free(&m);
	return EXIT_OK;
}

/* The same for the built-in glimpse model name (glimpse.h). */
static int cli_models_glimpse(const char *name, int w, const char *what)
{
	static struct glimpse_model g;
	struct errbuf err;
	if (glimpse_model_load(&g, name, &err) != 0) {
		cli_error(err.msg);
		return EXIT_DATA;
	}
	printf(_("%-*s glimpse model, %d glimpses, hidden %d, glimpse %d, "
		 "%d classes\n%*s %s\n"), w, name, g.steps, g.hidden,
	       g.gsize, g.nclass, w, "", _(what));
	return EXIT_OK;
}

/* attn-trace models [--names]: the models built into the program, a
 * line each: name, architecture, sizes and what it is; with --names, the
 * names alone (for completion). */
static int cli_models(int argc, char **argv)
{
	int names_only = argc == 2 && strcmp(argv[1], "--names") == 0;
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0)) {
		fputs(_("Usage: attn-trace models [--names]\n"
			"List the models built into the program, which "
			"--model names; --names lists\ntheir names "
			"alone.\n"), stdout);
		return cli_flush();
	}
	if (argc > 1 && !names_only)
		return cli_usage_errorf("'models' takes only --names, not '%s'",
					argv[1]);
	const char *name, *what, *cmd;
	int w = 0; /* the names' column: the longest name */
	for (size_t k = 0; (name = model_builtin_each(k, NULL, NULL)); k++)
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
	for (size_t k = 0; (name = model_builtin_each(k, &what, &cmd)); k++) {
		int rc = names_only ? (printf("%s\n", name), EXIT_OK)
			 : cmd ? cli_models_glimpse(name, w, what)
			       : cli_models_one(name, w, what);
		if (rc != EXIT_OK)
			return rc;
	}
	return cli_flush();
}

static int cli_help_cmd(int argc, char **argv);

/* The commands: those that share the common options (run), and those
 * that parse their own (own; argv[0] is the command word). */
static const struct {
	const char *name;
	int (*run)(int argc, char **argv, const struct cli_opts *o);
	int (*own)(int argc, char **argv);
} cli_commands[] = {
	{ "trace", cli_trace, NULL },
	{ "tui", cli_tui, NULL },
	{ "model", cli_model, NULL },
	{ "lessons", NULL, cli_lessons },
	{ "lesson", NULL, cli_lesson },
	{ "quiz", NULL, cli_quiz },
	{ "heatmap", NULL, cli_heatmap },
	{ "diagram", NULL, cli_diagram },
	{ "deck", NULL, cli_deck },
	{ "train", NULL, cli_train },
	{ "accuracy", NULL, cli_accuracy },
	{ "scorers", NULL, cli_scorers },
	{ "models", NULL, cli_models },
	{ "vocab", NULL, cli_vocab },
	{ "self", NULL, cli_self },
	{ "image", NULL, cli_image },
	{ "caption", NULL, cli_caption },
	{ "glimpse", NULL, cli_glimpse },
	{ "calc", NULL, cli_calc },
	{ "options", NULL, cli_options_cmd },
	{ "help", NULL, cli_help_cmd },
};

#define CLI_NCOMMANDS (sizeof cli_commands / sizeof cli_commands[0])

/* The index of the command called name, or -1. */
static int cli_command_find(const char *name)
{
	for (size_t k = 0; k < CLI_NCOMMANDS; k++)
		if (strcmp(name, cli_commands[k].name) == 0)
			return (int)k;
	return -1;
}

/* The usage error of an unknown command: the command it most likely
 * meant, or the list of commands. */
static int cli_command_error(const char *word)
{
	const char *names[CLI_NCOMMANDS];
	char list[256];
	size_t used = 0;
	for (size_t k = 0; k < CLI_NCOMMANDS; k++) {
		names[k] = cli_commands[k].name;
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
					 k == 0 ? "" : k + 1 == CLI_NCOMMANDS ?
					 " or " : ", ", names[k]);
		if (used >= sizeof list)
			used = sizeof list - 1;
	}
	const char *near = suggest_closest(word, names, (int)CLI_NCOMMANDS);
	if (near)
		return cli_usage_errorf("unknown command '%s'; did you mean "
					"'%s'?", word, near);
	return cli_usage_errorf("unknown command '%s'; expected %s", word,
				list);
}

/* attn-trace help [COMMAND]: the help of the program, or of a command
 * (as COMMAND --help gives it); help --commands: the commands' names. */
static int cli_help_cmd(int argc, char **argv)
{
	if (argc > 2)
		return cli_usage_errorf("'help' takes one command, but was "
					"also given '%s'", argv[2]);
	if (argc == 2 && strcmp(argv[1], "--commands") == 0) {
		/* the commands, a line each, for completion */
		for (size_t k = 0; k < CLI_NCOMMANDS; k++)
			puts(cli_commands[k].name);
		return EXIT_OK;
	}
	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		cli_help();
		return EXIT_OK;
	}
	int k = cli_command_find(argv[1]);
	if (k < 0)
		return cli_command_error(argv[1]);
	if (!cli_commands[k].own) { /* the common options: the main help */
		cli_help();
		return EXIT_OK;
	}
	char *args[] = { argv[1], (char *)"--help", NULL };
	int rc = cli_commands[k].own(2, args);
	return rc < 0 ? EXIT_OK : rc;
}

/* The status of a command that returned rc: a success is one only if
 * everything it printed reached standard output (--help, say, which
 * returns before any check of its own). */
static int cli_done(int rc)
{
	return rc == EXIT_OK ? cli_flush() : rc;
}

/* A bare attn-trace: the stepper on a terminal that can show it, else
 * the text trace, with a one-line note that says why and that there are
 * lessons. */
static int (*cli_bare(void))(int, char **, const struct cli_opts *)
{
	char why[160];
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_messagef(_("note: the trace of \"%s\"; 'attn-trace lessons' "
			     "lists lessons that explain each step"),
			     DEFAULT_SENTENCE);
		return cli_trace;
	}
	if (cli_term_usable(why, sizeof why))
		return cli_tui;
	cli_messagef(_("note: %s, so here is the text trace, not the stepper; "
		     "'attn-trace lessons' lists lessons that explain each "
		     "step"), why);
	return cli_trace;
}

int cli_main(int argc, char **argv)
{
	int (*run)(int, char **, const struct cli_opts *) = cli_trace;
	/* the command may follow options ("--lang=zh_CN lesson 1"): its
	 * word moves to the front, the options keep their order after it */
	int w = argc > 2 && argv[1][0] == '-' ? cli_first_word(argc, argv)
					      : -1;
	if (w > 1 && cli_command_find(argv[w]) >= 0) {
		char *cmd = argv[w];
		memmove(argv + 2, argv + 1, (size_t)(w - 1) * sizeof *argv);
		argv[1] = cmd;
	}
	/* a first argument that is not an option names the command */
	if (argc > 1 && argv[1][0] != '-') {
		int k = cli_command_find(argv[1]);
		if (k < 0)
			return cli_command_error(argv[1]);
		run = cli_commands[k].run;
		argv++; /* the command word plays argv[0] for getopt */
		argc--;
		if (cli_commands[k].own)
			return cli_done(cli_commands[k].own(argc, argv));
	} else if (argc == 1) {
		run = cli_bare();
	}
	struct cli_opts o;
	int rc = cli_parse(&o, argc, argv);
	if (rc != 0)
		return rc < 0 ? cli_flush() : rc;
	return cli_done(run(argc, argv, &o));
}

int cli_term_tui_ok(void)
{
	char why[160];
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) &&
	    cli_term_usable(why, sizeof why))
		return 1;
	cli_messagef(_("--tui needs a terminal that can draw the stepper%s%s"),
		     isatty(STDOUT_FILENO) ? ": " : "",
		     isatty(STDOUT_FILENO) ? why : "");
	return 0;
}
