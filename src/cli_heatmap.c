/* cli_heatmap.c: "attn-trace heatmap": the alignment matrix as an SVG
 * picture, written whole or not at all. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "caption.h"
#include "cli.h"
#include "cli_options.h"
#include "cli_set.h"
#include "i18n.h"
#include "selection.h"
#include "cli_heatmap.h"
#include "cli_self.h"
#include "fmt.h"
#include "fmt_svg.h"
#include "gradpath.h"
#include "model.h"
#include "num.h"
#include "outfile.h"
#include "raster.h"
#include "self.h"
#include "self_view.h"
#include "tok.h"
#include "trace.h"
#include "util.h"
#include "window.h"

#define CLI_HEATMAP_SENTENCE DEFAULT_SENTENCE

/* The most traces one picture draws: --model options with
 * --gradient-paths, or the architectures of --arch=all. */
#define CLI_HEATMAP_MODELS 4
_Static_assert(ARCH_COUNT <= CLI_HEATMAP_MODELS, "--arch=all's traces");

/* A --model option and the --scorer and --window settings before it,
 * for a picture of several models (--gradient-paths). */
struct cli_heatmap_model {
	const char *path;  /* model_load_arg's argument */
	unsigned scorers;
	int window, window_size;
};

struct cli_heatmap_opts {
	unsigned scorers;       /* one scorer, or SCORER_ALL: side by side */
	const char *model_path; /* NULL: the built-in toy model; else
				   model_load_arg's argument */
	const char *target;     /* NULL: greedy decoding */
	const char *output;     /* NULL or "-": stdout */
	int arch;               /* --arch, an enum arch; -1: not given */
	int feed;               /* --input-feeding: the model must have it */
	struct fmt_svg_opts svg;
	struct raster_size png; /* --png-size; w 0: not given */
	struct trace_cfg cfg;   /* --window, --window-size, --hard, --seed */
	int self;               /* --self: self-attention's heads */
	unsigned heads;         /* --heads, with --self */
	struct self_opts so;    /* --causal, --no-position, --target */
	const char *self_only;  /* an option that needs --self, or NULL */
	const char *not_self;   /* an option --self does not take, or NULL */
	struct cli_heatmap_model models[CLI_HEATMAP_MODELS]; /* each --model */
	int nmodels;
	int pending;            /* a --scorer or --window after the last */
	struct cli_set set;     /* --set: the edits of the one model */
};

static void cli_heatmap_help(void)
{
	printf(_(
"Usage: attn-trace heatmap [OPTION]... [SENTENCE]\n"
"Draw the attention weights of a trace as an SVG picture: a row for each\n"
"output word, a column for each source word, each cell shaded by its\n"
"weight with the value written in it.  The default sentence is\n"
"\"%s\".\n"
"\n"
"On a terminal, with no -o, it shows the weights as a text heatmap instead\n"
"(-o - writes the SVG to the terminal all the same).\n"
"\n"
"Options:\n"), CLI_HEATMAP_SENTENCE);
	cli_help_options(CLI_CMD_BIT(heatmap), 24);
	fputs(_(
"\n"
"-o DIR/ (a name that ends in / or is a directory) writes one slide a\n"
"panel: DIR/heatmap-SCORER.svg for each scorer of --scorer=all.\n"),
	      stdout);
	fputs(_(
"\n"
"Example:\n"
"  attn-trace heatmap --scorer=general --target=\"european economic area\" "
"\\\n"
"      -o align.svg zone économique européenne\n"
"  attn-trace heatmap --self --causal -o heads.svg je suis étudiant\n"
"\n"
"doc/heatmap.md describes the picture and how to turn it into a PNG.\n"),
	      stdout);
}

/* the long options without a letter (CLI_OPT_window is 400) */

/* Applies one option; returns 0, EXIT_USAGE after a message, or -1 after
 * --help. */
static int cli_heatmap_option(struct cli_heatmap_opts *o, int c,
			      const char *arg)
{
	switch (c) {
	case 'o': o->output = arg; return 0;
	case 't': o->target = arg; return 0;
	case 'm':
		if (o->nmodels == CLI_HEATMAP_MODELS)
			return cli_usage_errorf("at most %d --model options",
						CLI_HEATMAP_MODELS);
		o->model_path = arg;
		o->models[o->nmodels++] = (struct cli_heatmap_model){
			arg, o->scorers, o->cfg.window, o->cfg.window_size };
		o->pending = 0;
		return 0;
	case CLI_OPT_png_size: return cli_png_size(arg, &o->png);
	case CLI_OPT_self: o->self = 1; return 0;
	case CLI_OPT_causal:
		o->so.causal = 1;
		o->self_only = "--causal";
		return 0;
	case CLI_OPT_no_position:
		o->so.position = 0;
		o->self_only = "--no-position";
		return 0;
	case CLI_OPT_heads:
		o->self_only = "--heads";
		return cli_self_heads(arg, &o->heads);
	case CLI_OPT_arch:
		o->not_self = "--arch";
		return cli_arch(&o->arch, arg) != 0 ? EXIT_USAGE : 0;
	case CLI_OPT_window:
	case CLI_OPT_window_size:
		o->not_self = c == CLI_OPT_window ? "--window" : "--window-size";
		o->pending = 1;
		return cli_window(&o->cfg, c, arg);
	case CLI_OPT_input_feeding:
		o->not_self = "--input-feeding";
		o->feed = 1;
		return 0;
	case 's':
		o->not_self = "--scorer";
		o->pending = 1;
		o->scorers = trace_scorer_parse(arg);
		if (o->scorers)
			return 0;
		return cli_scorer_error(arg, 1);
	case 'p':
		if (cli_int(arg, 0, NUM_MAX_PREC,
				    &o->svg.precision) == 0)
			return 0;
		return cli_usage_errorf("--precision expects a whole "
					       "number from 0 to 17, not '%s'",
					       arg);
	case CLI_OPT_hard:
		o->not_self = "--hard";
		return cli_selection(&o->cfg, c, arg);
	case CLI_OPT_seed:
		o->not_self = "--seed";
		return cli_seed(&o->cfg, arg);
	case CLI_OPT_gradient_paths:
		o->not_self = "--gradient-paths";
		return cli_gradient_paths(&o->cfg, arg);
	case CLI_OPT_set: return cli_set_add(&o->set, arg);
	case CLI_OPT_show:
		o->not_self = "--show";
		if (strcmp(arg, "weights") == 0 || strcmp(arg, "drawn") == 0) {
			o->svg.drawn = arg[0] == 'd';
			return 0;
		}
		return cli_usage_errorf("unknown --show '%s'; expected weights "
					"or drawn", arg);
	case 'h':
		cli_heatmap_help();
		return -1;
	default:
		return EXIT_USAGE;
	}
}

/* Parses argv from optind 1 into *o.  Returns 0, -1 after --help, or
 * EXIT_USAGE after a message. */
static int cli_heatmap_parse(struct cli_heatmap_opts *o, int argc,
			     char **argv)
{
	memset(o, 0, sizeof *o);
	o->scorers = 1u << SCORER_dot;
	o->arch = -1;
	o->cfg = (struct trace_cfg)TRACE_CFG_DEFAULT;
	fmt_svg_opts_default(&o->svg);
	o->heads = (1u << SELF_HEADS) - 1;
	o->so.position = 1;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = cli_getopt(CLI_CMD_BIT(heatmap), argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		int rc = cli_heatmap_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	if (o->svg.drawn && !selection_get(o->cfg.selection)->draws)
		return cli_usage_errorf("--show=drawn needs --%s",
					selection_draws_option());
	if (o->cfg.grad_paths && (!o->target || o->arch == ARCH_ALL))
		return cli_usage_error("--gradient-paths needs --target, and "
				       "one architecture");
	if (o->nmodels > 1 && !o->cfg.grad_paths)
		return cli_usage_error("several --model options draw their "
				       "--gradient-paths side by side; the "
				       "weights take one --model");
	if (o->nmodels > 1 && o->pending)
		return cli_usage_error("with several --model options, --scorer, "
				       "--window and --window-size apply to "
				       "the --model options after them, and "
				       "none follows the last");
	for (int k = 0; o->nmodels > 1 && k < o->nmodels; k++)
		if (cli_window_check(o->models[k].window,
				     o->models[k].window_size))
			return EXIT_USAGE;
	if (o->self && cli_set_refuse(&o->set, _("--self draws "
			"self-attention, whose model --set does not edit")))
		return EXIT_USAGE;
	if (o->nmodels > 1 && cli_set_refuse(&o->set, _("several --model "
			"options draw several models, and --set edits one")))
		return EXIT_USAGE;
	if (o->cfg.grad_paths && cli_set_refuse(&o->set, _("the picture of "
			"--gradient-paths does not say it is a what-if; trace "
			"--gradient-paths takes --set")))
		return EXIT_USAGE;
	if (o->arch == ARCH_ALL && cli_set_refuse(&o->set, _("--arch=all "
			"draws the built-in model of each architecture, and "
			"--set edits one")))
		return EXIT_USAGE;
	if (o->self && o->not_self)
		return cli_usage_errorf("--self draws self-attention, which "
					"takes no %s", o->not_self);
	if (!o->self && o->self_only)
		return cli_usage_errorf("%s is an option of --self", o->self_only);
	o->so.cross = o->self && o->target;
	if (cli_window_check(o->cfg.window, o->cfg.window_size) ||
	    cli_png_check(&o->png, o->output, 0))
		return EXIT_USAGE;
	return cli_feed_arch(o->arch, o->feed);
}

/* heatmap --self: the weights of each head of self-attention, as
 * attn-trace self --format=svg draws them, or as the self stepper's
 * shaded tables on a terminal.  Returns the exit status. */
static int cli_heatmap_self(const struct cli_heatmap_opts *o,
			    const char *sentence)
{
	struct model m;
	struct self_trace t;
	struct errbuf err;
	int rc = cli_self_trace(&t, &m, o->model_path, sentence, o->target,
				&o->so, o->heads);
	if (rc != 0)
		return rc;
	if (!o->output && isatty(STDOUT_FILENO)) {
		self_view_heatmap(stdout, &t, o->heads, o->svg.precision,
				  strcmp(nl_langinfo(CODESET), "UTF-8") != 0);
		cli_messagef(_("note: the heatmap as text, since standard output "
			     "is a terminal; -o FILE.svg writes the SVG "
			     "picture"));
	} else {
		struct outfile of;
		rc = outfile_open_picture(&of, o->output, &o->png, &err);
		if (rc == 0) {
			self_fmt_svg(of.fp, &t, o->heads, o->svg.precision);
			outfile_wrote(&of);
			rc = outfile_commit(&of, &err);
		}
		if (rc != 0) {
			cli_messagef("%s", err.msg);
			rc = EXIT_DATA;
		}
	}
	self_free(&t);
	model_free(&m);
	return rc;
}

/* The name an image's heatmap is titled with: its file, or "standard
 * input". */
static const char *cli_heatmap_image(const struct trace *tr)
{
	const char *name = caption_image_name(tr);
	return strcmp(name, "-") == 0 ? "standard input" : name;
}

/* Whether out names a directory: it ends in '/' or is one. */
static int cli_heatmap_is_dir(const char *out)
{
	struct stat st;
	if (!out || strcmp(out, "-") == 0)
		return 0;
	return out[strlen(out) - 1] == '/' ||
	       (stat(out, &st) == 0 && S_ISDIR(st.st_mode));
}

/* DIR/heatmap-SCORER.svg for run r of tr, DIR/heatmap-ARCH-SCORER.svg
 * when several architectures are drawn; the caller frees it. */
static char *cli_heatmap_path(const char *dir, const struct trace *tr,
			      int r, int archs)
{
	return xasprintf("%s%sheatmap%s%s-%s.svg", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/",
			 archs ? "-" : "", archs ? arch_get(tr->arch)->name
			 : "", trace_scorer_name(tr->runs[r].scorer));
}

/* One slide a panel (doc/heatmap.md, "Legible from the back row"):
 * every run of the ntr traces into directory dir (made if missing), each
 * the picture `heatmap --scorer=S` draws, all written to temporary files
 * first and put in place together (outfile_commit_all()).  Returns 0, or
 * -1 with err set and nothing of this run left. */
static int cli_heatmap_dir(const struct trace *const *trs, int ntr,
			   const char *dir, const struct cli_heatmap_opts *o,
			   struct errbuf *err)
{
	struct outfile of[SCORER_COUNT * ARCH_COUNT];
	int n = 0, made, rc = outfile_mkdir(dir, "heatmap -o DIR/ writes "
					    "DIR/heatmap-SCORER.svg, one a "
					    "panel", &made, err);
	_Static_assert(SCORER_COUNT * ARCH_COUNT <= OUTFILE_SLOTS,
		       "the signal guard covers every panel's file");
	for (int j = 0; j < ntr && rc == 0; j++)
		for (int r = 0; r < trs[j]->nruns && rc == 0; r++) {
			char *path = cli_heatmap_path(dir, trs[j], r, ntr > 1);
			rc = outfile_open(&of[n], path, err);
			free(path);
			if (rc != 0)
				break;
			if (fmt_svg_heatmap(of[n].fp, trs[j], r, &o->svg) != 0 &&
			    !ferror(of[n].fp)) {
				err_set(err, _("cannot draw the heatmap"));
				rc = -1;
			}
			outfile_wrote(&of[n++]);
		}
	if (rc == 0)
		rc = outfile_commit_all(of, n, err);
	else
		for (int k = 0; k < n; k++)
			outfile_abort(&of[k]);
	if (rc != 0 && made)
		rmdir(dir); /* this run made it: it goes, if empty */
	return rc;
}

/* Writes the picture of the ntr traces (one for each architecture
 * drawn, or for each --model with --gradient-paths, labelled by labels,
 * or NULL) to the output, whole or not at all.  Returns 0, or -1 with err
 * set. */
static int cli_heatmap_write(const struct trace *const *trs, int ntr,
			     const char *const *labels,
			     const struct cli_heatmap_opts *o,
			     struct errbuf *err)
{
	struct outfile of;
	if (!o->cfg.grad_paths && !caption_image_name(trs[0]) &&
	    cli_heatmap_is_dir(o->output))
		return cli_heatmap_dir(trs, ntr, o->output, o, err);
	if (outfile_open_picture(&of, o->output, &o->png, err) != 0)
		return -1;
	int rc;
	if (o->cfg.grad_paths)
		rc = fmt_svg_gradpaths(of.fp, trs, labels, ntr);
	else if (caption_image_name(trs[0])) /* each word over the image */
		rc = caption_fmt_svg(of.fp, trs[0], cli_heatmap_image(trs[0]));
	else if (ntr > 1)
		rc = fmt_svg_heatmaps(of.fp, trs, ntr, &o->svg);
	else
		rc = fmt_svg_heatmap(of.fp, trs[0], trs[0]->nruns > 1
					 ? FMT_SVG_ALL_RUNS : 0, &o->svg);
	outfile_wrote(&of);
	if (rc != 0 && !ferror(of.fp)) {
		outfile_abort(&of);
		err_set(err, _("cannot draw the heatmap"));
		return -1;
	}
	/* a write error is in the stream's error flag, and commit reports it */
	return outfile_commit(&of, err);
}

/* The heatmap of every run of the ntr traces as text, for a terminal,
 * each trace headed by its label (labels, or NULL) or by its
 * architecture when there are several, and a
 * note on stderr that says how to get the picture.  Returns 0. */
static int cli_heatmap_text(const struct trace *const *trs, int ntr,
			    const char *const *labels,
			    const struct cli_heatmap_opts *o)
{
	int ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	char note[FMT_WHATIF_NOTE];
	if (fmt_whatif_note(trs[0], note, sizeof note)) { /* --set */
		fmt_whatif_wrap(note, 80);
		printf("%s\n\n", note);
	}
	for (int k = 0; k < ntr; k++) {
		const struct trace *tr = trs[k];
		if (labels)
			printf("%s%s, the %s window\n\n", k ? "\n" : "",
			       labels[k], window_get(tr->cfg.window)->name);
		else if (ntr > 1)
			printf("%s%s architecture (%s)\n\n", k ? "\n" : "",
			       arch_get(tr->arch)->name,
			       cli_builtin_model(tr->arch, o->feed));
		if (!o->cfg.grad_paths && caption_image_name(tr)) {
			caption_fmt_weights(stdout, tr, ascii);
			continue;
		}
		for (int run = 0; run < tr->nruns; run++) {
			if (run > 0)
				putchar('\n');
			if (o->cfg.grad_paths) { /* the text trace's lines */
				struct fmt_opts fo;
				fmt_opts_default(&fo);
				fo.precision = o->svg.precision;
				fmt_text_rec(stdout, tr, gradpath_find(tr, run),
					     &fo);
				continue;
			}
			fmt_text_heatmap_drawn(stdout, tr, run,
					       o->svg.precision, ascii,
					       o->svg.drawn);
		}
	}
	cli_messagef(_("note: the heatmap as text, since standard output is a "
		     "terminal; -o FILE.svg writes the SVG picture"));
	return 0;
}

/* Loads the model of trace k of those drawn (--arch=all's k-th
 * architecture, the k-th --model with the settings before it when there
 * are several, or the one model) into *m, adding 1 to *loaded, makes the
 * edits of set (--set) to it, and traces sentence into *tr.  Returns 0,
 * EXIT_USAGE after a --set message, or 1 after another. */
static int cli_heatmap_one(const struct cli_heatmap_opts *o, int k,
			   const char *sentence, struct model *m,
			   struct trace *tr, int *loaded, struct cli_set *set)
{
	char note[320];
	struct errbuf err;
	struct trace_cfg cfg = o->cfg;
	const struct cli_heatmap_model *spec = &o->models[k];
	const int many = o->nmodels > 1;
	if (many) {
		cfg.window = spec->window;
		cfg.window_size = spec->window_size;
	}
	if (cli_load_window(m, many ? spec->path : o->model_path,
			    o->arch == ARCH_ALL ? k : o->arch, o->feed,
			    cfg.window) != 0)
		return 1;
	(*loaded)++;
	if (cli_set_apply(set, m, &cfg) != 0)
		return EXIT_USAGE;
	if (tok_trace_note(tr, m, sentence, o->target,
			   many ? spec->scorers : o->scorers, note,
			   sizeof note, &cfg, &err) != 0) {
		cli_messagef("%s", err.msg);
		return 1;
	}
	if (cli_set_check_trace(set, tr) != 0) {
		trace_free(tr);
		return EXIT_USAGE;
	}
	if (note[0] && k == 0)
		cli_messagef(_("note: %s"), note);
	return 0;
}

int cli_heatmap(int argc, char **argv)
{
	struct cli_heatmap_opts o;
	int rc = cli_heatmap_parse(&o, argc, argv);
	struct errbuf err;
	if (rc > 0)
		return rc;
	if (rc < 0) { /* --help was answered */
		struct outfile of = { .fp = stdout, .is_stdout = 1 };
		if (outfile_commit(&of, &err) == 0)
			return EXIT_OK;
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (o.arch == ARCH_ALL && o.model_path)
		return cli_usage_error("--arch=all draws the built-in model of "
				       "each architecture; drop --model");
	for (int k = 0; k < o.nmodels; k++)
		if (o.output && !model_builtin_name(o.models[k].path) &&
		    cli_check_overwrite(o.output, "--model", o.models[k].path))
			return EXIT_USAGE;
	if (o.self) {
		char *sentence = cli_join(argc, argv, optind,
					  CLI_HEATMAP_SENTENCE);
		rc = cli_heatmap_self(&o, sentence);
		free(sentence);
		return rc;
	}
	/* the architectures drawn: the one asked for (-1: the model's), or
	 * every one; or each --model's gradient paths */
	int many = o.nmodels > 1;
	int ntr = many ? o.nmodels : o.arch == ARCH_ALL ? ARCH_COUNT : 1;
	struct model m[CLI_HEATMAP_MODELS];
	struct trace tr[CLI_HEATMAP_MODELS];
	const struct trace *trs[CLI_HEATMAP_MODELS];
	const char *labels[CLI_HEATMAP_MODELS];
	char *sentence = cli_join(argc, argv, optind, CLI_HEATMAP_SENTENCE);
	int built = 0, loaded = 0;
	rc = 0;
	for (; rc == 0 && built < ntr; built++) {
		rc = cli_heatmap_one(&o, built, sentence, &m[built],
				     &tr[built], &loaded, &o.set);
		if (rc != 0)
			break;
		trs[built] = &tr[built];
		labels[built] = o.models[built].path;
	}
	if (rc == 0) {
		if (!o.output && isatty(STDOUT_FILENO))
			rc = cli_heatmap_text(trs, ntr, many ? labels : NULL, &o);
		else if (cli_heatmap_write(trs, ntr, many ? labels : NULL, &o,
					   &err) != 0) {
			cli_messagef("%s", err.msg);
			rc = 1;
		}
	}
	for (int k = 0; k < built; k++)
		trace_free(&tr[k]);
	for (int k = 0; k < loaded; k++)
		model_free(&m[k]);
	free(sentence);
	return rc == 0 ? EXIT_OK : rc == EXIT_USAGE ? EXIT_USAGE : EXIT_DATA;
}
