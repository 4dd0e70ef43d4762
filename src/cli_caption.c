/* cli_caption.c: "attn-trace caption": the trace of soft attention over
 * an image's cells (src/caption.h) in text or JSON. */
#include "config.h"

#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "caption.h"
#include "cli.h"
#include "cli_caption.h"
#include "cli_options.h"
#include "arch.h"
#include "fmt.h"
#include "i18n.h"
#include "imageset.h"
#include "outfile.h"
#include "train.h"
#include "num.h"
#include "pgm.h"
#include "tok.h"

/* The built-in image model (data/caption4.model). */
#define CLI_CAPTION_MODEL "caption4"

enum cli_caption_format { CAPTION_TEXT, CAPTION_JSON, CAPTION_WEIGHTS,
			  CAPTION_SVG, CAPTION_JSONL, CAPTION_CSV,
			  CAPTION_MD, CAPTION_NFORMATS };
static const char *const cli_caption_formats[CAPTION_NFORMATS] = {
	"text", "json", "weights", "svg", "jsonl", "csv", "markdown"
};

struct cli_caption_opts {
	const char *model;   /* --model; NULL: the built-in caption4 */
	const char *target;  /* --target: the caption to teacher-force */
	unsigned scorers;    /* --scorer; default dot */
	int format;          /* an enum cli_caption_format */
	int precision;
	/* training (--captions): */
	const char *captions; /* the training set */
	const char *heldout;  /* the set to measure on */
	const char *output;   /* -o: the model file */
	int epochs;
	struct trace_cfg cfg; /* its seed: --seed */
	int scorers_given;    /* --scorer was given */
};

static void cli_caption_help(void)
{
	fputs(_(
"Usage: attn-trace caption [OPTION]... FILE.pgm\n"
"Soft attention over an image (Show, Attend and Tell), number by number.\n"
"The 6x6 image is read as 3x3 cells of 2x2 pixels; a patch encoder turns\n"
"each cell's pixels into an annotation h_i = tanh(W_patch.patch_i +\n"
"b_patch + pos_i), and Bahdanau's decoder, from s_0 = tanh(W_init.h-bar),\n"
"attends over the nine cells with the chosen scorer at every word of the\n"
"caption.  The trace shows each patch's pixels and annotation, the\n"
"scores, the softmax over the cells, the context, the decoder's step and\n"
"the output word.\n"
"\n"
"Options:\n"), stdout);
	cli_help_options(CLI_CMD_BIT(caption), 24);
	fputs(_(
"\n"
"Examples:\n"
"  attn-trace caption data/images/train/bar-x0.pgm\n"
"  attn-trace caption --scorer=all --format=json IMAGE.pgm\n"),
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
		o->scorers_given = 1;
		return o->scorers ? 0 : cli_scorer_error(arg, 1);
	case CLI_OPT_captions: o->captions = arg; return 0;
	case CLI_OPT_heldout: o->heldout = arg; return 0;
	case 'o': o->output = arg; return 0;
	case CLI_OPT_seed: return cli_seed(&o->cfg, arg);
	case CLI_OPT_epochs:
		if (cli_int(arg, 0, 1000000, &o->epochs) == 0)
			return 0;
		return cli_usage_errorf("--epochs expects a whole number from "
					"0 to 1000000, not '%s'", arg);
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
	o->epochs = 3000;
	o->cfg.seed = 1;
	optind = 1;
	while ((c = cli_getopt(CLI_CMD_BIT(caption), argc, argv)) != -1)
		if ((rc = cli_caption_opt(o, c, optarg)) != 0)
			return rc < 0 ? -1 : -(EXIT_USAGE + 1);
	return optind;
}

/* Traces the image at path with m as o asks into *tr, as every tracing
 * command does (tok_trace_note(): the trace reads and owns the image);
 * returns 0, or EXIT_DATA after a message. */
static int cli_caption_trace(struct trace *tr, const struct model *m,
			     const char *path,
			     const struct cli_caption_opts *o)
{
	struct errbuf err;
	if (caption_check_model(m, &err) != 0 ||
	    tok_trace_note(tr, m, path, o->target, o->scorers, NULL, 0, NULL,
			   &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* The recipe of an image model (doc/model.md): Bahdanau's architecture
 * at the toy's sizes, the patch encoder, guided alignment of the place
 * words on the object's cells. */
#define CAPTION_E 4
#define CAPTION_H 4
#define CAPTION_A 4
#define CAPTION_ALIGN 0.3

/* Writes the comment of the trained model into b: the recipe and what it
 * measured on the training set and the held-out one. */
static void cli_caption_comment(struct fmt_buf *b, const struct model *v,
				const struct cli_caption_opts *o,
				const struct imageset *train,
				const struct imageset *held,
				const struct train_stats *last)
{
	struct caption_score s;
	struct errbuf err;
	const char *base = strrchr(o->captions, '/');
	fmt_buf_printf(b, "trained by attn-trace caption --captions=%s "
		       "--epochs=%d --seed=%llu --scorer=", base ? base + 1
		       : o->captions, o->epochs, o->cfg.seed);
	for (int sc = 0, k = 0; sc < SCORER_COUNT; sc++)
		if (o->scorers & (1u << sc))
			fmt_buf_printf(b, "%s%s", k++ ? "," : "",
				       scorer_get(sc)->name);
	fmt_buf_puts(b, "\n(doc/model.md, \"Attention over an image\"); "
		     "the embedding, hidden and attention sizes 4.\n");
	fmt_buf_printf(b, "Adam, learning rate 0.01, weight decay 0.2, clip "
		       "5; guided alignment %.1f of each place word on the "
		       "object's cells.\nAfter %d epochs: loss %.6f per "
		       "prediction, accuracy %.1f%%.\n", CAPTION_ALIGN,
		       last->epoch, last->loss, 100.0 * last->accuracy);
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		if (!(o->scorers & (1u << sc)))
			continue;
		if (caption_measure(v, train, sc, &s, &err) != 0)
			continue;
		fmt_buf_printf(b, "%s: training images captioned exactly "
			       "%d/%d", scorer_get(sc)->name, s.exact,
			       s.images);
		if (held && caption_measure(v, held, sc, &s, &err) == 0)
			fmt_buf_printf(b, ";\n  held out: %d/%d exactly, "
				       "place words whose largest weight is on "
				       "the object %d/%d", s.exact, s.images,
				       s.on_object, s.place_words);
		fmt_buf_putc(b, '\n');
	}
}

/* Trains on d and writes the model into o->output; returns the exit
 * status. */
static int cli_caption_fit(const struct cli_caption_opts *o,
			   const struct train_data *d,
			   const struct imageset *train,
			   const struct imageset *held)
{
	struct trainer t;
	struct train_opts to;
	struct train_stats last;
	struct model v;
	struct outfile of;
	struct errbuf err;
	struct fmt_buf b = FMT_BUF_INIT;
	train_opts_default(&to);
	to.scorers = o->scorers;
	to.epochs = o->epochs;
	to.seed = o->cfg.seed;
	to.align_weight = CAPTION_ALIGN;
	to.positions = CAPTION_CELLS;
	train_init_random_arch(&t, d, arch_find("bahdanau"), CAPTION_E,
			       CAPTION_H, CAPTION_A, CAPTION_CELLS,
			       o->scorers | PATCH_PARAM_BIT, to.seed);
	caption_init_unused(&t);
	train_run(&t, d, &to, NULL, NULL, &last);
	train_view(&v, &t.lay, t.theta, d);
	v.name = (char *)o->output;
	cli_caption_comment(&b, &v, o, train, held, &last);
	fmt_buf_putc(&b, '\0');
	int rc = EXIT_DATA;
	if (!train_weights_ok(&t))
		cli_messagef(_("training diverged: a weight is not finite"));
	else if (outfile_open(&of, o->output, &err) != 0)
		cli_messagef("%s", err.msg);
	else {
		train_write_model(of.fp, &v, b.p);
		outfile_wrote(&of);
		if (outfile_commit(&of, &err) == 0)
			rc = EXIT_OK;
		else
			cli_messagef("%s", err.msg);
	}
	fmt_buf_free(&b);
	train_free(&t);
	return rc;
}

/* attn-trace caption --captions=FILE -o MODEL: trains an image model. */
static int cli_caption_train(struct cli_caption_opts *o)
{
	struct imageset train = { 0, NULL }, held = { 0, NULL };
	struct train_data d;
	struct errbuf err;
	if (!o->output)
		return cli_usage_errorf("--captions needs -o FILE, the model "
					"to write");
	if (!o->scorers_given)
		o->scorers = SCORER_ALL;
	if (imageset_load(&train, o->captions, &err) != 0 ||
	    (o->heldout && imageset_load(&held, o->heldout, &err) != 0) ||
	    caption_data(&d, &train, o->captions, &err) != 0) {
		cli_messagef("%s", err.msg);
		imageset_free(&train);
		imageset_free(&held);
		return EXIT_DATA;
	}
	int rc = cli_caption_fit(o, &d, &train, o->heldout ? &held : NULL);
	train_data_free(&d);
	imageset_free(&train);
	imageset_free(&held);
	return rc;
}

/* The trace in o->format to -o FILE (whole or not at all) or stdout;
 * returns the exit status. */
static int cli_caption_write(const struct cli_caption_opts *o,
			     const struct trace *tr, const char *name)
{
	struct outfile of;
	struct errbuf err;
	struct fmt_opts fo;
	fmt_opts_default(&fo);
	fo.precision = o->precision;
	if (outfile_open(&of, o->output ? o->output : "-", &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	switch (o->format) {
	case CAPTION_JSON: fmt_json_trace(of.fp, tr, &fo); break;
	case CAPTION_JSONL:
		fo.compact = 1;
		fmt_json_trace(of.fp, tr, &fo);
		break;
	case CAPTION_CSV: fmt_csv_trace(of.fp, tr, &fo, 1); break;
	case CAPTION_MD: fmt_md_trace(of.fp, tr, &fo); break;
	case CAPTION_SVG: caption_fmt_svg(of.fp, tr, name); break;
	case CAPTION_WEIGHTS:
		caption_fmt_weights(of.fp, tr, strcmp(nl_langinfo(CODESET),
						      "UTF-8") != 0);
		break;
	default: fmt_text_trace(of.fp, tr, &fo); break;
	}
	outfile_wrote(&of);
	if (outfile_commit(&of, &err) != 0) {
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
	if (o.captions && first < argc)
		return cli_usage_errorf("'caption --captions' trains on the "
					"set, and reads no image '%s'",
					argv[first]);
	if (o.captions)
		return cli_caption_train(&o);
	if (first >= argc)
		return cli_usage_errorf("'caption' needs the PGM image to "
					"caption");
	if (first + 1 < argc)
		return cli_usage_errorf("'caption' reads one image, but was "
					"also given '%s'", argv[first + 1]);
	const char *path = argv[first];
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	struct model m;
	struct trace tr;
	struct errbuf err;
	if (model_load_arg(&m, o.model ? o.model : CLI_CAPTION_MODEL,
			   &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	int rc = cli_caption_trace(&tr, &m, path, &o);
	if (rc == EXIT_OK) {
		rc = cli_caption_write(&o, &tr, name);
		trace_free(&tr);
	}
	model_free(&m);
	return rc;
}
