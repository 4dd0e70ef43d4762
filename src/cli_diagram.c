/* cli_diagram.c: "attn-trace diagram": the picture of a decoder step as
 * SVG for slides (src/diagram_svg.c), one step or every step, each file
 * written whole or not at all. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "cli_set.h"
#include "cli_diagram.h"
#include "diagram.h"
#include "fmt.h"
#include "i18n.h"
#include "model.h"
#include "num.h"
#include "outfile.h"
#include "raster.h"
#include "tok.h"
#include "trace.h"

struct cli_diagram_opts {
	unsigned scorers;       /* one scorer */
	const char *model_path;
	const char *target;
	const char *output;     /* a file, "-" or NULL: stdout; a directory
				   with --all-steps */
	int arch;
	int feed;               /* --input-feeding: the model must have it */
	int step;               /* from 1 */
	int all;                /* --all-steps */
	int precision;
	int text;               /* --format=text: the stepper's picture */
	int png;                /* --format=png */
	int svg;                /* --format=svg */
	struct raster_size png_size; /* --png-size; w 0: not given */
	int ascii;              /* --ascii: in ASCII, not box drawing */
	int width;              /* --width: the text's columns */
	struct trace_cfg cfg;   /* --window, --window-size */
	struct cli_set set;     /* --set */
};

static void cli_diagram_help(void)
{
	printf(_(
"Usage: attn-trace diagram [OPTION]... [SENTENCE]\n"
"Draw one decoder step of attention as an SVG picture for slides: a box for\n"
"each source word with its state h_i, a line from the query (s_t, or\n"
"s_{t-1} in Bahdanau's architecture) to each box as thick as its weight,\n"
"with the weights written and the largest marked, and the context vector\n"
"and the step's result.  The default sentence is \"%s\".\n"
"\n"
"Options:\n"), DEFAULT_SENTENCE);
	cli_help_options(CLI_CMD_BIT(diagram), 24);
	fputs(_(
"\n"
"Examples:\n"
"  attn-trace diagram --step=2 -o step2.svg je suis étudiant\n"
"  attn-trace diagram --arch=bahdanau --all-steps -o slides/\n"), stdout);
}

/* diagram --format's values: a picture in SVG, in text, or in PNG (the
 * SVG rasterised, src/raster.h) */
static const char *const cli_diagram_formats[] = { "svg", "text", "png" };
#define CLI_DIAGRAM_NFORMATS 3

const char *cli_diagram_format_name(int k)
{
	return k >= 0 && k < CLI_DIAGRAM_NFORMATS ? cli_diagram_formats[k]
						  : NULL;
}

static int cli_diagram_option(struct cli_diagram_opts *o, int c,
			      const char *arg)
{
	switch (c) {
	case 'o': o->output = arg; return 0;
	case 't': o->target = arg; return 0;
	case 'm': o->model_path = arg; return 0;
	case CLI_OPT_all_steps: o->all = 1; return 0;
	case CLI_OPT_ascii: o->ascii = 1; return 0;
	case CLI_OPT_png_size: return cli_png_size(arg, &o->png_size);
	case 'f':
		for (int k = 0; k < CLI_DIAGRAM_NFORMATS; k++)
			if (strcmp(arg, cli_diagram_formats[k]) == 0) {
				o->svg = k == 0;
				o->text = k == 1;
				o->png = k == 2;
				return 0;
			}
		return cli_value_error("--format", arg, cli_diagram_formats,
				       CLI_DIAGRAM_NFORMATS);
	case CLI_OPT_width:
		if (cli_int(arg, 40, 400, &o->width) == 0)
			return 0;
		return cli_usage_errorf("--width expects a whole number from "
					"40 to 400, not '%s'", arg);
	case CLI_OPT_step:
		if (cli_int(arg, 1, TRACE_MAX_STEPS, &o->step) == 0)
			return 0;
		return cli_usage_errorf("--step expects a decoder step from 1 "
					"to %d, not '%s'", TRACE_MAX_STEPS, arg);
	case CLI_OPT_arch:
		if (cli_arch(&o->arch, arg) != 0)
			return EXIT_USAGE;
		return cli_arch_one(o->arch, "diagram");
	case 's':
		o->scorers = trace_scorer_parse(arg);
		if (o->scorers && !(o->scorers & (o->scorers - 1)))
			return 0;
		if (o->scorers)
			return cli_usage_errorf("--scorer: the diagram draws one "
						"scorer's step, not '%s'", arg);
		return cli_scorer_error(arg, 0);
	case 'p':
		if (cli_int(arg, 1, 6, &o->precision) == 0)
			return 0;
		return cli_usage_errorf("--precision expects a whole number "
					"from 1 to 6, not '%s'", arg);
	case CLI_OPT_window:
	case CLI_OPT_window_size:
		return cli_window(&o->cfg, c, arg);
	case CLI_OPT_input_feeding:
		o->feed = 1;
		return 0;
	case CLI_OPT_hard:
		return cli_selection(&o->cfg, c, arg);
	case CLI_OPT_seed:
		return cli_seed(&o->cfg, arg);
	case CLI_OPT_set: return cli_set_add(&o->set, arg);
	case 'h':
		cli_diagram_help();
		return -1;
	default:
		return EXIT_USAGE;
	}
}

static int cli_diagram_parse(struct cli_diagram_opts *o, int argc,
			     char **argv)
{
	memset(o, 0, sizeof *o);
	o->scorers = 1u << SCORER_dot;
	o->arch = -1;
	o->step = 0;
	o->precision = 4;
	o->width = 80;
	o->cfg = (struct trace_cfg)TRACE_CFG_DEFAULT;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = cli_getopt(CLI_CMD_BIT(diagram), argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		int rc = cli_diagram_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	if (o->all && o->step)
		return cli_usage_errorf("--step and --all-steps: give one");
	if (o->all && (!o->output || strcmp(o->output, "-") == 0))
		return cli_usage_errorf("--all-steps writes a file a step: "
					"-o DIR names the directory");
	if (!o->step)
		o->step = 1;
	/* box drawing only where the terminal's encoding has it, as the
	 * stepper and heatmap's text do */
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		o->ascii = 1;
	if (o->all && o->text)
		return cli_usage_errorf("--all-steps writes SVG or PNG files, "
					"not --format=text");
	if (!o->all && (o->png || o->svg) &&
	    o->png != raster_name(o->output))
		return cli_usage_errorf("--format=%s: expected -o %s, found "
					"%s", o->png ? "png" : "svg",
					o->png ? "FILE.png" : _("a name that "
					"does not end in .png"),
					o->output ? o->output : _("none"));
	if (cli_window_check(o->cfg.window, o->cfg.window_size) ||
	    cli_png_check(&o->png_size, o->output, o->png))
		return EXIT_USAGE;
	return cli_feed_arch(o->arch, o->feed);
}

/* Opens of on path and writes step t of tr into it, for the caller to
 * commit.  Returns 0, or -1 with err set and nothing left open. */
static int cli_diagram_put(const struct trace *tr, int t, const char *path,
			   const struct cli_diagram_opts *o, struct outfile *of,
			   struct errbuf *err)
{
	struct diagram d;
	if (diagram_build(&d, tr, 0, t, err) != 0)
		return -1;
	if ((o->text ? outfile_open(of, path, err)
		     : outfile_open_picture(of, path, &o->png_size, err)) != 0)
		return -1;
	if (o->text) {
		char **lines, wif[FMT_WHATIF_NOTE];
		int n = diagram_render(&d, o->width, o->ascii, o->precision,
				       &lines);
		if (fmt_whatif_note(tr, wif, sizeof wif)) { /* --set */
			fmt_whatif_wrap(wif, o->width);
			fprintf(of->fp, "%s\n\n", wif);
		}
		for (int k = 0; k < n; k++)
			fprintf(of->fp, "%s\n", lines[k]);
		diagram_lines_free(lines, n);
	} else {
		/* a write error is in the stream's flag: commit reports it */
		(void)diagram_svg(of->fp, &d, o->precision);
	}
	outfile_wrote(of);
	return 0;
}

/* Writes step t of tr to path, whole or not at all.  Returns 0, or -1
 * with err set. */
static int cli_diagram_write(const struct trace *tr, int t, const char *path,
			     const struct cli_diagram_opts *o,
			     struct errbuf *err)
{
	struct outfile of;
	if (cli_diagram_put(tr, t, path, o, &of, err) != 0)
		return -1;
	return outfile_commit(&of, err);
}

/* DIR/step-T.svg (png: .png) for step t; the caller frees it. */
static char *cli_diagram_path(const char *dir, int t, int png)
{
	size_t len = strlen(dir) + 32;
	char *path = xmalloc(len);
	snprintf(path, len, "%s%sstep-%d.%s", dir,
		 dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/", t,
		 png ? "png" : "svg");
	return path;
}

/* Every step of tr into directory dir (made if missing): DIR/step-T.svg
 * (or .png),
 * all written to temporary files first and then put in place together
 * (outfile_commit_all()), so that on an error the files that were there
 * keep their content and nothing of this run is left.  A --model that is
 * one of the files is refused first.  Returns 0, -1 with err set, or
 * EXIT_USAGE after the message. */
static int cli_diagram_all(const struct trace *tr, const char *dir,
			   const struct cli_diagram_opts *o, struct errbuf *err)
{
	int n = tr->runs[0].nsteps, made, opened = 0, rc = 0;
	char *paths[TRACE_MAX_STEPS];
	struct outfile of[TRACE_MAX_STEPS];
	_Static_assert(TRACE_MAX_STEPS <= OUTFILE_SLOTS,
		       "the signal guard covers every step's file");
	for (int t = 0; t < n; t++)
		paths[t] = cli_diagram_path(dir, t + 1, o->png);
	for (int t = 0; t < n && rc == 0; t++)
		if (o->model_path && !model_builtin_name(o->model_path))
			rc = cli_check_overwrite(paths[t], "--model",
						 o->model_path);
	if (rc == 0 && outfile_mkdir(dir, "--all-steps writes DIR/step-T.svg "
				     "or .png into a directory", &made,
				     err) != 0)
		rc = -1;
	while (rc == 0 && opened < n)
		if (cli_diagram_put(tr, opened + 1, paths[opened], o,
				    &of[opened], err) == 0)
			opened++;
		else
			rc = -1;
	if (rc == 0)
		rc = outfile_commit_all(of, n, err);
	else
		for (int k = 0; k < opened; k++)
			outfile_abort(&of[k]);
	if (rc == -1 && made)
		rmdir(dir); /* this run made it: it goes, if empty */
	for (int t = 0; t < n; t++)
		free(paths[t]);
	return rc;
}

int cli_diagram(int argc, char **argv)
{
	struct cli_diagram_opts o;
	struct errbuf err;
	int rc = cli_diagram_parse(&o, argc, argv);
	if (rc > 0)
		return rc;
	if (rc < 0) { /* --help was answered */
		struct outfile of = { .fp = stdout, .is_stdout = 1 };
		if (outfile_commit(&of, &err) == 0)
			return EXIT_OK;
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (o.output && !o.all && o.model_path &&
	    !model_builtin_name(o.model_path) &&
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
	int status = EXIT_DATA;
	if (rc == 0 && (status = cli_set_check_trace(&o.set, &tr)) != 0) {
		trace_free(&tr);
		rc = 1; /* the message is printed */
	} else if (rc == 0) {
		status = EXIT_DATA;
		int nsteps = tr.runs[0].nsteps;
		if (o.all) {
			rc = cli_diagram_all(&tr, o.output, &o, &err);
			if (rc > 0)
				status = rc;
		} else if (o.step > nsteps) {
			/* a bad option value, as self's --row past the words */
			status = cli_usage_errorf(ngettext(
				"--step=%d: this trace has %d decoder step",
				"--step=%d: this trace has %d decoder steps",
				(unsigned long)nsteps), o.step, nsteps);

			rc = 1;
		} else {
			rc = cli_diagram_write(&tr, o.step, o.output, &o,
					       &err);
		}
		trace_free(&tr);
	}
	if (rc < 0)
		cli_messagef("%s", err.msg);
	free(sentence);
	model_free(&m);
	return rc == 0 ? EXIT_OK : status;
}
