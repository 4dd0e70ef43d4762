/* cli_glimpse.c: "attn-trace glimpse" (cli_glimpse.h). */
#include "config.h"

#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_glimpse.h"
#include "i18n.h"
#include "cli_options.h"
#include "glimpse.h"
#include "glimpse_batch.h"
#include "cli_term.h"
#include "glimpse_view.h"
#include "tui.h"
#include "view.h"
#include "glimpse_fmt.h"
#include "glimpse_train.h"
#include "imageset.h"
#include "num.h"
#include "outfile.h"

enum gc_format { GC_TEXT, GC_JSON, GC_JSONL, GC_CSV, GC_MD, GC_MODEL,
		 GC_SVG };
static const char *const gc_formats[] = { "text", "json", "jsonl", "csv",
					  "markdown", "model", "svg", NULL };

struct cli_glimpse_opts {
	const char *model;    /* -m: a file or GLIMPSE_BUILTIN */
	const char *output;   /* -o; NULL: stdout */
	const char *cls;      /* --class; NULL: unknown */
	const char *train;    /* --train CAPTIONS */
	const char *measure;  /* --measure CAPTIONS */
	const char *batch;    /* --batch LIST */
	enum gc_format format;
	unsigned long long seed;
	int epochs;           /* --epochs, 0: the default */
	int precision, ascii, mean, tui;
};

static void cli_glimpse_help(void)
{
	fputs(_(
"Usage: attn-trace glimpse [OPTION]... IMAGE.pgm\n"
"  or:  attn-trace glimpse --train=CAPTIONS -o MODEL [--epochs=N] [--seed=N]\n"
"  or:  attn-trace glimpse --measure=CAPTIONS [-m MODEL]\n"
"  or:  attn-trace glimpse --batch=LIST [OPTION]...\n"
"  or:  attn-trace glimpse --tui [OPTION]... IMAGE.pgm\n"
"The glimpse model of Mnih et al. (2014), \"Recurrent Models of Visual\n"
"Attention\", on a PGM image, number by number: at each of T steps a core\n"
"RNN proposes a place l-hat = tanh(W_l h + b_l), the place l is drawn\n"
"around it, l = l-hat + sigma eps (eps standard normal, from u by\n"
"Box-Muller), a retina reads 2x2 pixels there and a 4x4 region averaged\n"
"to 2x2, a glimpse network phi = tanh(W_g [retina; l] + b_g) and the\n"
"core h = tanh(W_h h + W_x phi + b_h) take it in, and after the last\n"
"glimpse softmax(W_o h + b_o) names the class (doc/model.md).\n"
"\n"
"Options:\n"), stdout);
	cli_help_options(CLI_CMD_BIT(glimpse), 24);
	fputs(_(
"\n"
"Examples:\n"
"  attn-trace glimpse data/images/heldout/bar-x1.pgm --class=bar\n"
"  attn-trace glimpse -f svg -o glimpses.svg data/images/train/box-y0-x0.pgm\n"
"  attn-trace glimpse --measure=data/images/heldout.captions\n"
"  attn-trace glimpse -f csv data/images/heldout/dot-y1-x4.pgm\n"
"  ls data/images/heldout/*.pgm >images.list\n"
"  attn-trace glimpse --batch=images.list -f jsonl\n"),
	      stdout);
}

/* One option into *o; 0, 1 after --help, or EXIT_USAGE + 2. */
static int cli_glimpse_opt(struct cli_glimpse_opts *o, int c)
{
	unsigned long long v;
	switch (c) {
	case 'm': o->model = optarg; return 0;
	case 'o': o->output = optarg; return 0;
	case 'f':
		for (int k = 0; gc_formats[k]; k++)
			if (strcmp(optarg, gc_formats[k]) == 0) {
				o->format = (enum gc_format)k;
				return 0;
			}
		cli_value_error("format", optarg, gc_formats, 7);
		return 2;
	case 'p':
		if (cli_int(optarg, 0, NUM_MAX_PREC, &o->precision) == 0)
			return 0;
		cli_usage_errorf("--precision expects a whole number from 0 "
				 "to %d, found '%s'", NUM_MAX_PREC, optarg);
		return 2;
	case CLI_OPT_seed:
		if (util_whole(optarg, strlen(optarg), ~0ULL, &v) == 0) {
			o->seed = v;
			return 0;
		}
		cli_usage_errorf("--seed expects a whole number, found '%s'",
				 optarg);
		return 2;
	case CLI_OPT_glimpse_epochs:
		if (cli_int(optarg, 1, 1000000, &o->epochs) == 0)
			return 0;
		cli_usage_errorf("--epochs expects a whole number from 1 to "
				 "1000000, found '%s'", optarg);
		return 2;
	case CLI_OPT_ascii: o->ascii = 1; return 0;
	case CLI_OPT_glimpse_mean: o->mean = 1; return 0;
	case CLI_OPT_glimpse_class: o->cls = optarg; return 0;
	case CLI_OPT_glimpse_train: o->train = optarg; return 0;
	case CLI_OPT_glimpse_measure: o->measure = optarg; return 0;
	case CLI_OPT_glimpse_batch: o->batch = optarg; return 0;
	case CLI_OPT_glimpse_tui: o->tui = 1; return 0;
	case 'h': cli_glimpse_help(); return 1;
	default: return 2; /* '?': cli_getopt has said what was wrong */
	}
}

/* Parses the options into *o and returns optind, or -1 after --help, or
 * -(EXIT_USAGE + 1) after a usage error. */
static int cli_glimpse_parse(struct cli_glimpse_opts *o, int argc,
			     char **argv)
{
	int c, rc;
	memset(o, 0, sizeof *o);
	o->model = GLIMPSE_BUILTIN;
	o->seed = 1;
	o->precision = 4;
	optind = 1;
	while ((c = cli_getopt(CLI_CMD_BIT(glimpse), argc, argv)) != -1)
		if ((rc = cli_glimpse_opt(o, c)) != 0)
			return rc == 1 ? -1 : -(EXIT_USAGE + 1);
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		o->ascii = 1;
	return optind;
}

/* Opens o->output (or stdout) into *of; EXIT_OK or EXIT_DATA. */
static int cli_glimpse_open(struct outfile *of, const char *path)
{
	struct errbuf err;
	if (outfile_open(of, path ? path : "-", &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* Commits *of; EXIT_OK or EXIT_DATA. */
static int cli_glimpse_commit(struct outfile *of)
{
	struct errbuf err;
	outfile_wrote(of);
	if (outfile_commit(of, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* The last component of path, for a model's comment that is the same
 * bytes wherever the set lies. */
static const char *cli_glimpse_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* --train: a new model from the set into o->output. */
static int cli_glimpse_train(const struct cli_glimpse_opts *o)
{
	static struct imageset set;
	static struct glimpse_model m;
	struct glimpse_train_opts to;
	struct errbuf err;
	struct outfile of;
	struct glimpse_measure r;
	double loss;
	char comment[1024];
	if (!o->output)
		return cli_usage_errorf("--train needs -o FILE, the model to "
					"write");
	if (imageset_load(&set, o->train, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	glimpse_train_defaults(&to);
	to.seed = o->seed;
	if (o->epochs)
		to.epochs = o->epochs;
	int rc = glimpse_train(&m, &set, &to, &loss, &err);
	if (rc != 0) {
		imageset_free(&set);
		cli_messagef("%s: %s", o->train, err.msg);
		return EXIT_DATA;
	}
	glimpse_measure(&m, &set, &r);
	int n = set.n;
	imageset_free(&set);
	snprintf(comment, sizeof comment,
		 "A glimpse model (doc/model.md), trained by attn-trace with\n"
		 "\n  attn-trace glimpse --train=%s --epochs=%d --seed=%llu\n\n"
		 "%d images; Adam (lr %g), one update an epoch, one draw a "
		 "glimpse.\nAfter %d epochs: objective %.6f an image; with the "
		 "mean policy\n%d/%d images classified right, %d/%d glimpses "
		 "on the object.", cli_glimpse_base(o->train), to.epochs,
		 (unsigned long long)to.seed, n, to.lr, to.epochs, loss,
		 r.correct, r.n, r.on_object, r.glimpses);
	if ((rc = cli_glimpse_open(&of, o->output)) != EXIT_OK)
		return rc;
	glimpse_model_write(of.fp, &m, comment);
	return cli_glimpse_commit(&of);
}

/* --measure: the model's accuracy and glimpses on the object. */
static int cli_glimpse_measure(const struct cli_glimpse_opts *o,
			       const struct glimpse_model *m)
{
	static struct imageset set;
	struct errbuf err;
	struct glimpse_measure r;
	if (imageset_load(&set, o->measure, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	glimpse_measure(m, &set, &r);
	imageset_free(&set);
	printf("%s with %s, the mean policy (l = l-hat):\n"
	       "  images classified right: %d/%d (%.1f%%)\n"
	       "  glimpses on the object (fovea overlapping its box): "
	       "%d/%d (%.1f%%)\n", o->measure, o->model, r.correct, r.n,
	       r.n ? 100.0 * r.correct / r.n : 0.0, r.on_object, r.glimpses,
	       r.glimpses ? 100.0 * r.on_object / r.glimpses : 0.0);
	return cli_flush();
}

/* The trace tr of m on im (called name) to out in o->format; line, the
 * line of a --batch list or 0, and k, the trace's place in the output
 * (from 0), for what comes between traces. */
static void cli_glimpse_write(FILE *out, const struct cli_glimpse_opts *o,
			      const struct glimpse_model *m,
			      const struct pgm_image *im, const char *name,
			      const struct glimpse_trace *tr, int line, int k)
{
	struct glimpse_out go = { line, o->format == GC_JSONL, o->precision,
				  k == 0 };
	switch (o->format) {
	case GC_TEXT:
		if (line)
			fprintf(out, "%simage: line %d\n", k ? "\n" : "",
				line);
		glimpse_fmt_text(out, m, o->model, im, name, tr, o->precision,
				 o->ascii);
		break;
	case GC_JSON:
		if (line)
			fputs(k ? ",\n" : "[\n", out);
		glimpse_fmt_json_out(out, m, o->model, im, name, tr, &go);
		break;
	case GC_JSONL:
		glimpse_fmt_json_out(out, m, o->model, im, name, tr, &go);
		break;
	case GC_CSV: glimpse_fmt_csv(out, m, o->model, im, name, tr, &go);
		break;
	case GC_MD:
		if (k)
			fputs("\n---\n\n", out);
		glimpse_fmt_md(out, m, o->model, im, name, tr, &go);
		break;
	case GC_MODEL: break; /* cli_glimpse() wrote it */
	case GC_SVG: glimpse_fmt_svg(out, m, im, name, tr); break;
	}
}

/* Runs m on im with o's draws and the class truth into *tr. */
static void cli_glimpse_run(const struct cli_glimpse_opts *o,
			    const struct glimpse_model *m,
			    const struct pgm_image *im, int truth,
			    struct glimpse_trace *tr)
{
	uint64_t rng = o->seed;
	glimpse_run(m, im, o->mean ? GLIMPSE_MEAN : GLIMPSE_SAMPLE, &rng,
		    NULL, truth, tr);
	tr->seed = o->seed;
}

static void cli_glimpse_render(void *ctx, int width, struct view_screen *s)
{
	struct glimpse_view *v = ctx;
	v->width = width;
	glimpse_view_render(v, s);
}

static int cli_glimpse_key(void *ctx, int key, int page_rows)
{
	struct glimpse_view *v = ctx;
	v->page_rows = page_rows;
	return glimpse_view_key(v, key);
}

/* --tui: the stepper on tr; its exit status. */
static int cli_glimpse_tui(const struct cli_glimpse_opts *o,
			   const struct glimpse_model *m,
			   const struct pgm_image *im, const char *name,
			   const struct glimpse_trace *tr)
{
	static struct glimpse_view v;
	if (!cli_term_tui_ok())
		return EXIT_DATA;
	glimpse_view_init(&v, m, o->model, im, name, tr, o->precision,
			  o->ascii, 80);
	struct tui_screens sc = { &v, cli_glimpse_render, cli_glimpse_key,
				  &v.scroll, NULL };
	struct tui_opts to = { TUI_COLOR_AUTO, o->precision, -1, 0, 0, NULL,
			       0, NULL, 0, 0 };
	return tui_run_screens(&sc, &to);
}

/* The trace of m on the image path, written in o->format. */
static int cli_glimpse_trace(const struct cli_glimpse_opts *o,
			     const struct glimpse_model *m, const char *path)
{
	static struct pgm_image im;
	static struct glimpse_trace tr;
	struct errbuf err;
	struct outfile of;
	int truth = -1, rc;
	if (o->cls && (truth = glimpse_class_find(m, o->cls)) < 0)
		return cli_usage_errorf("--class=%s: expected a class of the "
					"model, found none of that name",
					o->cls);
	if (pgm_load(&im, path, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	cli_glimpse_run(o, m, &im, truth, &tr);
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	if (o->tui)
		return cli_glimpse_tui(o, m, &im, name, &tr);
	if ((rc = cli_glimpse_open(&of, o->output)) != EXIT_OK)
		return rc;
	cli_glimpse_write(of.fp, o, m, &im, name, &tr, 0, 0);
	return cli_glimpse_commit(&of);
}

/* Loads every image of the list b, to check them all before a byte is
 * written; EXIT_OK or EXIT_DATA after "LIST:LINE: the image's error". */
static int cli_glimpse_check(const struct glimpse_batch *b, const char *list)
{
	static struct pgm_image im;
	struct errbuf err;
	for (int k = 0; k < b->n; k++)
		if (pgm_load(&im, b->item[k].path, &err) != 0) {
			cli_messagef("%s:%d: %s", strcmp(list, "-") == 0 ?
				     _("standard input") : list,
				     b->item[k].line, err.msg);
			return EXIT_DATA;
		}
	return EXIT_OK;
}

/* --batch: the trace of every image of the list, one after another. */
static int cli_glimpse_batch(const struct cli_glimpse_opts *o,
			     const struct glimpse_model *m)
{
	static struct glimpse_batch b;
	static struct pgm_image im;
	static struct glimpse_trace tr;
	struct errbuf err;
	struct outfile of;
	int rc;
	if (o->format == GC_SVG)
		return cli_usage_errorf("--batch writes text, json, jsonl, csv "
					"or markdown, not one svg picture");
	if (o->cls)
		return cli_usage_errorf("--batch takes each image's class "
					"from its line (PATH ||| CLASS), not "
					"--class");
	if (glimpse_batch_load(&b, o->batch, m, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if ((rc = cli_glimpse_check(&b, o->batch)) != EXIT_OK ||
	    (rc = cli_glimpse_open(&of, o->output)) != EXIT_OK) {
		glimpse_batch_free(&b);
		return rc;
	}
	for (int k = 0; k < b.n; k++) {
		pgm_load(&im, b.item[k].path, &err); /* read once already */
		cli_glimpse_run(o, m, &im, b.item[k].truth, &tr);
		cli_glimpse_write(of.fp, o, m, &im, b.item[k].path, &tr,
				  b.item[k].line, k);
	}
	if (o->format == GC_JSON)
		fputs("\n]\n", of.fp);
	glimpse_batch_free(&b);
	return cli_glimpse_commit(&of);
}

int cli_glimpse(int argc, char **argv)
{
	struct cli_glimpse_opts o;
	static struct glimpse_model m;
	struct errbuf err;
	int first = cli_glimpse_parse(&o, argc, argv);
	if (first < 0)
		return first == -1 ? EXIT_OK : -first - 1;
	if (o.train || o.measure || o.batch || o.format == GC_MODEL) {
		if (first < argc)
			return cli_usage_errorf("'glimpse' takes no image with "
						"--train, --measure, --batch "
						"or --format=model, but was "
						"given '%s'", argv[first]);
		if (o.train)
			return cli_glimpse_train(&o);
	} else if (first >= argc) {
		return cli_usage_errorf("'glimpse' needs the PGM image to "
					"look at");
	} else if (first + 1 < argc) {
		return cli_usage_errorf("'glimpse' looks at one image, but was "
					"also given '%s'", argv[first + 1]);
	}
	if (glimpse_model_load(&m, o.model, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (o.measure)
		return cli_glimpse_measure(&o, &m);
	if (o.tui && (o.batch || o.format != GC_TEXT || o.output))
		return cli_usage_errorf("--tui steps through one image on the "
					"terminal: not with --batch, --format "
					"or -o");
	if (o.batch && o.format != GC_MODEL)
		return cli_glimpse_batch(&o, &m);
	if (o.format == GC_MODEL) {
		struct outfile of;
		int rc = cli_glimpse_open(&of, o.output);
		if (rc != EXIT_OK)
			return rc;
		glimpse_fmt_model_json(of.fp, &m, o.model);
		return cli_glimpse_commit(&of);
	}
	return cli_glimpse_trace(&o, &m, first < argc ? argv[first] : NULL);
}
