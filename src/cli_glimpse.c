/* cli_glimpse.c: "attn-trace glimpse" (cli_glimpse.h). */
#include "config.h"

#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_glimpse.h"
#include "cli_options.h"
#include "glimpse.h"
#include "glimpse_fmt.h"
#include "glimpse_train.h"
#include "imageset.h"
#include "num.h"
#include "outfile.h"

enum gc_format { GC_TEXT, GC_JSON, GC_MODEL, GC_SVG };
static const char *const gc_formats[] = { "text", "json", "model", "svg",
					  NULL };

struct cli_glimpse_opts {
	const char *model;    /* -m: a file or GLIMPSE_BUILTIN */
	const char *output;   /* -o; NULL: stdout */
	const char *cls;      /* --class; NULL: unknown */
	const char *train;    /* --train CAPTIONS */
	const char *measure;  /* --measure CAPTIONS */
	enum gc_format format;
	unsigned long long seed;
	int epochs;           /* --epochs, 0: the default */
	int precision, ascii, mean;
};

static void cli_glimpse_help(void)
{
	fputs(
"Usage: attn-trace glimpse [OPTION]... IMAGE.pgm\n"
"  or:  attn-trace glimpse --train=CAPTIONS -o MODEL [--epochs=N] [--seed=N]\n"
"  or:  attn-trace glimpse --measure=CAPTIONS [-m MODEL]\n"
"The glimpse model of Mnih et al. (2014), \"Recurrent Models of Visual\n"
"Attention\", on a PGM image, number by number: at each of T steps a core\n"
"RNN proposes a place l-hat = tanh(W_l h + b_l), the place l is drawn\n"
"around it, l = l-hat + sigma eps (eps standard normal, from u by\n"
"Box-Muller), a retina reads 2x2 pixels there and a 4x4 region averaged\n"
"to 2x2, a glimpse network g = tanh(W_g [retina; l] + b_g) and the core\n"
"h = tanh(W_h h + W_x g + b_h) take it in, and after the last glimpse\n"
"softmax(W_c h + b_c) names the class (doc/model.md).\n"
"\n"
"Options:\n", stdout);
	cli_help_options(CLI_CMD_BIT(glimpse), 24);
	fputs(
"\n"
"Examples:\n"
"  attn-trace glimpse data/images/heldout/bar-x1.pgm --class=bar\n"
"  attn-trace glimpse -f svg -o glimpses.svg data/images/train/box-y0-x0.pgm\n"
"  attn-trace glimpse --measure=data/images/heldout.captions\n",
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
		cli_value_error("format", optarg, gc_formats, 4);
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
	uint64_t rng = o->seed;
	glimpse_run(m, &im, o->mean ? GLIMPSE_MEAN : GLIMPSE_SAMPLE, &rng,
		    NULL, truth, &tr);
	tr.seed = o->seed;
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	if ((rc = cli_glimpse_open(&of, o->output)) != EXIT_OK)
		return rc;
	switch (o->format) {
	case GC_TEXT:
		glimpse_fmt_text(of.fp, m, o->model, &im, name, &tr,
				 o->precision, o->ascii);
		break;
	case GC_JSON: glimpse_fmt_json(of.fp, m, o->model, &im, name, &tr);
		break;
	case GC_MODEL: break; /* cli_glimpse() wrote it */
	case GC_SVG: glimpse_fmt_svg(of.fp, m, &im, name, &tr); break;
	}
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
	if (o.train || o.measure || o.format == GC_MODEL) {
		if (first < argc)
			return cli_usage_errorf("'glimpse' takes no image with "
						"--train, --measure or "
						"--format=model, but was "
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
