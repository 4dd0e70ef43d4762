/* cli_self.c: "attn-trace self": self-attention (or, with --target,
 * cross-attention) with two heads, in every trace format, to standard
 * output or atomically to -o FILE. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "cli_self.h"
#include "cli_term.h"
#include "fmt.h"
#include "i18n.h"
#include "model.h"
#include "num.h"
#include "outfile.h"
#include "raster.h"
#include "self.h"
#include "self_diagram.h"
#include "self_view.h"
#include "tok.h"
#include "tui.h"

#define CLI_SELF_MODEL "self4"

struct cli_self_opts {
	const char *model_path; /* NULL: the built-in self4 */
	const char *target;     /* NULL: self-attention */
	const char *output;     /* NULL or "-": stdout */
	int format;             /* an index of cli_self_formats */
	int format_set;         /* --format was given */
	enum tui_color color;
	int precision;
	unsigned heads;         /* bit h: show head h + 1 */
	int row;                /* --row: the query row, from 1; 0: unset */
	struct raster_size png; /* --png-size; w 0: not given */
	struct self_opts so;
};

static void cli_self_help(void)
{
	printf(_(
"Usage: attn-trace self [OPTION]... [SENTENCE]\n"
"Trace self-attention with two heads, number by number: X = embeddings +\n"
"positional encoding; Q, K and V, each row a matrix-vector product; for\n"
"each head the scores q_i·k_j / √d_k term by term, the causal mask, the\n"
"softmax of each row and Z = A V; then concat(Z_1, Z_2) and W_O.  With\n"
"--target the queries come from the target words instead\n"
"(cross-attention).  The default sentence is \"%s\".\n"
"\n"
"Options:\n"), DEFAULT_SENTENCE);
	cli_help_options(CLI_CMD_BIT(self), 24);
	fputs(_(
"\n"
"On a terminal, with no --format and no -o, it opens the stepper: a\n"
"screen a stage, the two heads side by side, a heatmap of each head's\n"
"weights, and the α bars of one query row (r: next row, h: other head,\n"
"d: the line diagram of the head).\n"
"\n"
"Examples:\n"
"  attn-trace self zone économique européenne\n"
"  attn-trace self --causal --heads=1 je suis étudiant\n"
"  attn-trace self --causal --format=diagram-svg --row=3 -o lines.svg \\\n"
"      je suis étudiant\n"
"  attn-trace self --target=\"european economic area\" --format=json \\\n"
"      zone économique européenne\n"
"\n"
"doc/model.md explains the arithmetic and the self4 model;\n"
"doc/trace-format.md the names of every matrix.\n"), stdout);
}

enum { SELF_TEXT, SELF_JSON, SELF_JSONL, SELF_CSV, SELF_MARKDOWN, SELF_SVG,
       SELF_DIAGRAM_SVG, SELF_NFORMATS };

static const char *const cli_self_formats[SELF_NFORMATS] = {
	"text", "json", "jsonl", "csv", "markdown", "svg", "diagram-svg"
};

const char *cli_self_format_name(int k)
{
	return k >= 0 && k < SELF_NFORMATS ? cli_self_formats[k] : NULL;
}

/* --heads=LIST: head numbers from 1 to SELF_HEADS, separated by commas. */
int cli_self_heads(const char *arg, unsigned *heads)
{
	const char *p = arg;
	unsigned mask = 0;
	for (;;) {
		if (*p < '1' || *p > '0' + SELF_HEADS ||
		    (p[1] != ',' && p[1] != '\0'))
			return cli_usage_errorf("--heads expects head numbers "
						"from 1 to %d separated by "
						"commas, not '%s'", SELF_HEADS,
						arg);
		mask |= 1u << (*p - '1');
		if (p[1] == '\0')
			break;
		p += 2;
	}
	*heads = mask;
	return 0;
}

static int cli_self_option(struct cli_self_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'm': o->model_path = arg; return 0;
	case 't': o->target = arg; o->so.cross = 1; return 0;
	case 'o': o->output = arg; return 0;
	case CLI_OPT_causal: o->so.causal = 1; return 0;
	case CLI_OPT_png_size: return cli_png_size(arg, &o->png);
	case CLI_OPT_no_position: o->so.position = 0; return 0;
	case CLI_OPT_heads: return cli_self_heads(arg, &o->heads);
	case 'f':
		for (int k = 0; k < SELF_NFORMATS; k++)
			if (strcmp(arg, cli_self_formats[k]) == 0) {
				o->format = k;
				o->format_set = 1;
				return 0;
			}
		return cli_value_error("format", arg, cli_self_formats,
				       SELF_NFORMATS);
	case CLI_OPT_row:
		if (cli_int(arg, 1, SELF_MAX_WORDS, &o->row) == 0)
			return 0;
		return cli_usage_errorf("--row expects a query row from 1 to "
					"%d, not '%s'", SELF_MAX_WORDS, arg);
	case CLI_OPT_color:
		if (tui_color_parse(arg, &o->color) == 0)
			return 0;
		return cli_color_error(arg);
	case 'p':
		if (cli_int(arg, 0, NUM_MAX_PREC, &o->precision) == 0)
			return 0;
		return cli_usage_errorf("--precision expects a whole number "
					"from 0 to %d, not '%s'", NUM_MAX_PREC,
					arg);
	case 'h':
		cli_self_help();
		return -1;
	default:
		return EXIT_USAGE;
	}
}

static int cli_self_parse(struct cli_self_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->precision = 4;
	o->heads = (1u << SELF_HEADS) - 1;
	o->so.position = 1;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = cli_getopt(CLI_CMD_BIT(self), argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		int rc = cli_self_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	return cli_png_check(&o->png, o->output, 0);
}

/* The words of s in vocabulary v into *idx (allocated) and *n, split as
 * the trace command splits them (tok_sentence); the punctuation marks v
 * lacks are left out and listed in marks (size bytes). */
static int cli_self_words(const char *s, const struct vocab *v,
			  const char *what, int **idx, int *n, char *marks,
			  size_t size, struct errbuf *err)
{
	*idx = xcalloc(TRACE_MAX_TOKENS, sizeof **idx);
	*n = tok_sentence(*idx, s, v, what, marks, size, err);
	return *n < 0 ? -1 : 0;
}

int cli_self_trace(struct self_trace *t, struct model *m,
		   const char *model_path, const char *sentence,
		   const char *target, const struct self_opts *so,
		   unsigned heads)
{
	struct errbuf err;
	if (model_load_arg(m, model_path ? model_path : CLI_SELF_MODEL,
			   &err) != 0) {
		cli_error(err.msg);
		return EXIT_DATA;
	}
	int *ki = NULL, *qi = NULL, n = 0, nq = 0;
	/* the model first: its words are no use without the weights */
	int rc = self_check_model(m, so->cross ? MHA_CROSS : MHA_SELF, &err);
	char smarks[128] = "", tmarks[128] = "", note[320];
	if (rc == 0)
		rc = cli_self_words(sentence, &m->src, "source", &ki, &n,
				    smarks, sizeof smarks, &err);
	if (rc == 0 && so->cross)
		rc = cli_self_words(target, &m->tgt, "target", &qi, &nq,
				    tmarks, sizeof tmarks, &err);
	tok_note(note, sizeof note, smarks, tmarks);
	if (rc == 0 && note[0])
		cli_messagef(_("note: %s"), note);
	if (rc == 0)
		rc = self_build(t, m, so, ki, n, qi, nq, heads, &err);
	free(ki);
	free(qi);
	if (rc != 0) {
		cli_error(err.msg);
		model_free(m);
		return EXIT_DATA;
	}
	return 0;
}

static int cli_self_write(const struct self_trace *t,
			  const struct cli_self_opts *o, struct errbuf *err)
{
	struct outfile of;
	struct fmt_opts fo;
	fmt_opts_default(&fo);
	fo.precision = o->precision;
	int picture = o->format == SELF_SVG || o->format == SELF_DIAGRAM_SVG;
	if ((picture ? outfile_open_picture(&of, o->output, &o->png, err)
		     : outfile_open(&of, o->output, err)) != 0)
		return -1;
	switch (o->format) {
	case SELF_TEXT: fmt_text_trace(of.fp, &t->tr, &fo); break;
	case SELF_JSON: fmt_json_trace(of.fp, &t->tr, &fo); break;
	case SELF_JSONL:
		fo.compact = 1;
		fmt_json_trace(of.fp, &t->tr, &fo);
		break;
	case SELF_CSV: fmt_csv_trace(of.fp, &t->tr, &fo, 1); break;
	case SELF_MARKDOWN: fmt_md_trace(of.fp, &t->tr, &fo); break;
	case SELF_SVG: self_fmt_svg(of.fp, t, o->heads, o->precision); break;
	case SELF_DIAGRAM_SVG:
		self_diagram_svg(of.fp, t, o->heads,
				 o->row ? o->row - 1 : 0, o->precision);
		break;
	}
	outfile_wrote(&of);
	return outfile_commit(&of, err);
}

static void cli_self_render(void *ctx, int width, struct view_screen *s)
{
	struct self_view *v = ctx;
	v->width = width;
	self_view_render(v, s);
}

static int cli_self_key(void *ctx, int key, int page_rows)
{
	struct self_view *v = ctx;
	v->page_rows = page_rows;
	return self_view_key(v, key);
}

/* The stepper on t; returns its exit status. */
static int cli_self_tui(const struct self_trace *t,
			const struct cli_self_opts *o)
{
	struct self_view v;
	self_view_init(&v, t, o->heads, o->precision, 78);
	if (o->row)
		v.row = o->row - 1;
	struct tui_screens sc = { &v, cli_self_render, cli_self_key,
				  &v.scroll, &v.hscroll };
	struct tui_opts to = { o->color, o->precision, -1, 0, 0, NULL, 0,
			       NULL, 0, 0 };
	return tui_run_screens(&sc, &to);
}

/* 1 if the stepper is what to show: no --format, no -o, and a terminal
 * that can draw it. */
static int cli_self_wants_tui(const struct cli_self_opts *o)
{
	char why[160];
	return !o->format_set && !o->output && isatty(STDIN_FILENO) &&
	       isatty(STDOUT_FILENO) && cli_term_usable(why, sizeof why);
}

int cli_self(int argc, char **argv)
{
	struct cli_self_opts o;
	struct errbuf err;
	int rc = cli_self_parse(&o, argc, argv);
	if (rc != 0) /* -1: --help was answered (cli_main flushes it) */
		return rc < 0 ? EXIT_OK : rc;
	if (o.row && o.format != SELF_DIAGRAM_SVG && !cli_self_wants_tui(&o))
		return cli_usage_errorf("--row picks the query row of the "
					"stepper and of --format=diagram-svg, "
					"not of --format=%s",
					cli_self_formats[o.format]);
	if (o.output && o.model_path && !model_builtin_name(o.model_path) &&
	    cli_check_overwrite(o.output, "--model", o.model_path))
		return EXIT_USAGE;
	struct model m;
	struct self_trace t;
	char *sentence = cli_join(argc, argv, optind, DEFAULT_SENTENCE);
	rc = cli_self_trace(&t, &m, o.model_path, sentence, o.target, &o.so,
			    o.heads);
	free(sentence);
	if (rc != 0)
		return rc;
	int status = EXIT_OK;
	if (o.row > t.nq) {
		cli_usage_errorf("--row %d is past the %d query words", o.row,
				 t.nq);
		self_free(&t);
		status = EXIT_USAGE;
		rc = 1;
	}
	if (rc == 0) {
		if (cli_self_wants_tui(&o))
			status = cli_self_tui(&t, &o);
		else
			rc = cli_self_write(&t, &o, &err);
		self_free(&t);
	}
	if (rc < 0)
		cli_error(err.msg);
	model_free(&m);
	return rc < 0 ? EXIT_DATA : status;
}
