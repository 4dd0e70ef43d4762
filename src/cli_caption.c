/* cli_caption.c: "attn-trace caption": the trace of soft attention over
 * an image's cells (src/caption.h) in text or JSON. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "caption.h"
#include "cli.h"
#include "cli_caption.h"
#include "cli_options.h"
#include "fmt.h"
#include "num.h"
#include "pgm.h"
#include "tok.h"

/* The built-in image model (data/caption4.model). */
#define CLI_CAPTION_MODEL "caption4"

enum cli_caption_format { CAPTION_TEXT, CAPTION_JSON, CAPTION_NFORMATS };
static const char *const cli_caption_formats[CAPTION_NFORMATS] = {
	"text", "json"
};

struct cli_caption_opts {
	const char *model;   /* --model; NULL: the built-in caption4 */
	const char *target;  /* --target: the caption to teacher-force */
	unsigned scorers;    /* --scorer; default dot */
	int format;          /* an enum cli_caption_format */
	int precision;
};

static void cli_caption_help(void)
{
	fputs(
"Usage: attn-trace caption [OPTION]... FILE.pgm\n"
"Soft attention over an image (Show, Attend and Tell), number by number.\n"
"The 6x6 image is read as 3x3 cells of 2x2 pixels; a patch encoder turns\n"
"each cell's pixels into an annotation h_i = tanh(W_patch.patch_i +\n"
"b_patch), and Bahdanau's decoder, starting from s_0 = tanh(W_init.h-bar),\n"
"attends over the nine cells with the chosen scorer at every word of the\n"
"caption.  The trace shows each patch's pixels and annotation, the\n"
"scores, the softmax over the cells, the context, the decoder's step and\n"
"the output word.\n"
"\n"
"Options:\n", stdout);
	cli_help_options(CLI_CMD_BIT(caption), 24);
	fputs(
"\n"
"Examples:\n"
"  attn-trace caption data/images/train/bar-x0.pgm\n"
"  attn-trace caption --scorer=all --format=json IMAGE.pgm\n",
	      stdout);
}

/* One option; returns 0, -1 after --help, or EXIT_USAGE. */
static int cli_caption_opt(struct cli_caption_opts *o, int c,
			   const char *arg)
{
	switch (c) {
	case 'm': o->model = arg; return 0;
	case 't': o->target = arg; return 0;
	case 's':
		o->scorers = trace_scorer_parse(arg);
		return o->scorers ? 0 : cli_scorer_error(arg, 1);
	case 'f': /* --format */
		for (int k = 0; k < CAPTION_NFORMATS; k++)
			if (strcmp(arg, cli_caption_formats[k]) == 0) {
				o->format = k;
				return 0;
			}
		return cli_value_error("format", arg, cli_caption_formats,
				       CAPTION_NFORMATS);
	case 'p':
		if (cli_int(arg, 0, NUM_MAX_PREC, &o->precision) == 0)
			return 0;
		return cli_usage_errorf("--precision expects a whole number "
					"from 0 to %d, not '%s'", NUM_MAX_PREC,
					arg);
	case 'h':
		cli_caption_help();
		return -1;
	default: /* '?': cli_getopt has said what was wrong */
		return EXIT_USAGE;
	}
}

/* Parses the options into *o and returns optind, or -1 after --help, or
 * -(EXIT_USAGE + 1) after a usage error. */
static int cli_caption_parse(struct cli_caption_opts *o, int argc,
			     char **argv)
{
	int c, rc;
	memset(o, 0, sizeof *o);
	o->scorers = 1u << SCORER_dot;
	o->precision = 4;
	optind = 1;
	while ((c = cli_getopt(CLI_CMD_BIT(caption), argc, argv)) != -1)
		if ((rc = cli_caption_opt(o, c, optarg)) != 0)
			return rc < 0 ? -1 : -(EXIT_USAGE + 1);
	return optind;
}

/* Traces im with m as o asks into *tr; returns 0, or EXIT_DATA after a
 * message. */
static int cli_caption_trace(struct trace *tr, const struct model *m,
			     const struct pgm_image *im, const char *name,
			     const struct cli_caption_opts *o)
{
	int tgt[TRACE_MAX_TOKENS], ntgt = 0;
	struct errbuf err;
	if (caption_check_image(im, name, &err) != 0 ||
	    caption_check_model(m, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (o->target) {
		ntgt = tok_sentence(tgt, o->target, &m->tgt, "caption", NULL,
				    0, &err);
		if (ntgt < 0) {
			cli_messagef("%s", err.msg);
			return EXIT_DATA;
		}
	}
	if (caption_build(tr, m, im, o->target ? tgt : NULL, ntgt,
			  o->scorers, NULL, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

int cli_caption(int argc, char **argv)
{
	struct cli_caption_opts o;
	int first = cli_caption_parse(&o, argc, argv);
	if (first < 0)
		return first == -1 ? EXIT_OK : -first - 1;
	if (first >= argc)
		return cli_usage_errorf("'caption' needs the PGM image to "
					"caption");
	if (first + 1 < argc)
		return cli_usage_errorf("'caption' reads one image, but was "
					"also given '%s'", argv[first + 1]);
	const char *path = argv[first];
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	static struct pgm_image im;
	struct model m;
	struct trace tr;
	struct errbuf err;
	if (pgm_load(&im, path, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (model_load_arg(&m, o.model ? o.model : CLI_CAPTION_MODEL,
			   &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	int rc = cli_caption_trace(&tr, &m, &im, name, &o);
	if (rc == EXIT_OK) {
		struct fmt_opts fo;
		fmt_opts_default(&fo);
		fo.precision = o.precision;
		if (o.format == CAPTION_JSON)
			fmt_json_trace(stdout, &tr, &fo);
		else
			fmt_text_trace(stdout, &tr, &fo);
		trace_free(&tr);
		rc = cli_flush();
	}
	model_free(&m);
	return rc;
}
