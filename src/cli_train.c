/* cli_train.c: "attn-trace train": options, progress on stderr, and the
 * trained model written to a file.  The arithmetic is in train.c. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "cli.h"
#include "cli_options.h"
#include "cli_train.h"
#include "gz.h"
#include "i18n.h"
#include "model.h"
#include "num.h"
#include "outfile.h"
#include "progress.h"
#include "selection.h"
#include "trace.h"
#include "train.h"
#include "util.h"
#include "window.h"

#define CLI_TRAIN_MAX_EPOCHS 10000000

struct cli_train_opts {
	struct train_opts t;
	const char *pairs;    /* the pairs file */
	const char *out;      /* the model file to write; "-": stdout */
	const char *init;     /* NULL: random weights */
	const char *heldout;  /* NULL: no held-out pairs to measure */
	int E, H, A, L;       /* sizes; 0: not given */
	int arch;             /* --arch, an enum arch; -1: not given */
	int feed;             /* --input-feeding */
	int every;            /* plain progress every this many epochs */
	int quiet;
};

static void cli_train_help(void)
{
	fputs(_(
"Usage: attn-trace train --pairs=FILE -o OUT.model [OPTION]...\n"
"Train the model's weights on the sentence pairs of FILE, by\n"
"backpropagation through time, and write them to OUT.model.  Each line of\n"
"FILE is a pair \"source words ||| target words\" (see doc/training.md).\n"
"\n"
"Options:\n"), stdout);
	cli_help_options(CLI_CMD_BIT(train), 24);
	fputs(_(
"\n"
"Example:\n"
"  attn-trace train --pairs=data/toy.pairs -o toy.model --seed=1\n"
"  attn-trace trace --model=toy.model --scorer=all zone économique "
"européenne\n"), stdout);
}

/* Parses a decimal number (num_parse: '.' whatever the locale) in
 * [lo, hi]; returns 0 or -1. */
static int cli_train_real(const char *s, double lo, double hi, double *out)
{
	const char *end;
	double v;

	if (num_parse(s, &v, &end) != NUM_OK || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Applies a size option (--embedding, --hidden, --attention). */
static int cli_train_size(const char *name, const char *arg, int *out)
{
	if (cli_int(arg, 1, MODEL_MAX_DIM, out) == 0)
		return 0;
	return cli_usage_errorf("--%s expects a whole number from 1 to "
				     "%d, not '%s'", name, MODEL_MAX_DIM, arg);
}

/* Applies the options that take numbers. */
static int cli_train_number(struct cli_train_opts *o, int c, const char *arg)
{
	switch (c) {
	case CLI_OPT_epochs:
		if (cli_int(arg, 0, CLI_TRAIN_MAX_EPOCHS,
				  &o->t.epochs) == 0)
			return 0;
		return cli_usage_errorf("--epochs expects a whole number "
					     "from 0 to %d, not '%s'",
					     CLI_TRAIN_MAX_EPOCHS, arg);
	case CLI_OPT_lr:
		if (cli_train_real(arg, 1e-12, 1e3, &o->t.lr) == 0)
			return 0;
		return cli_usage_errorf("--lr expects a number from 1e-12 "
					     "to 1000, not '%s'", arg);
	case CLI_OPT_weight_decay:
		if (cli_train_real(arg, 0.0, 1e3, &o->t.weight_decay) == 0)
			return 0;
		return cli_usage_errorf("--weight-decay expects a number "
					     "from 0 to 1000, not '%s'", arg);
	case CLI_OPT_align_weight:
		if (cli_train_real(arg, 0.0, 1e3, &o->t.align_weight) == 0)
			return 0;
		return cli_usage_errorf("--align-weight expects a number "
					     "from 0 to 1000, not '%s'", arg);
	case CLI_OPT_clip:
		if (cli_train_real(arg, 0.0, 1e12, &o->t.clip) == 0)
			return 0;
		return cli_usage_errorf("--clip expects a number from 0 "
					     "to 1e12, not '%s'", arg);
	case CLI_OPT_seed: {
		unsigned long long seed;
		if (util_whole(arg, strlen(arg), UINT64_MAX, &seed) == 0) {
			o->t.seed = seed;
			return 0;
		}
		return cli_usage_errorf("--seed expects a whole number "
					     "from 0 to 18446744073709551615, "
					     "not '%s'", arg);
	}
	case CLI_OPT_every:
		if (cli_int(arg, 1, CLI_TRAIN_MAX_EPOCHS, &o->every) == 0)
			return 0;
		return cli_usage_errorf("--every expects a whole number "
					     "from 1 to %d, not '%s'",
					     CLI_TRAIN_MAX_EPOCHS, arg);
	case 'j': return cli_jobs(arg, &o->t.threads);
	case CLI_OPT_embedding: return cli_train_size("embedding", arg, &o->E);
	case CLI_OPT_hidden: return cli_train_size("hidden", arg, &o->H);
	case CLI_OPT_positions: return cli_train_size("positions", arg, &o->L);
	default: return cli_train_size("attention", arg, &o->A);
	}
}

/* train --hard[=sample]: the option opt of a selection, which training
 * takes with one value (selection_class.train_value) only.  Returns 0 or
 * EXIT_USAGE after a message. */
static int cli_train_selection(struct cli_train_opts *o, int opt,
			       const char *arg)
{
	const char *name = cli_option_name(opt);
	int s = selection_by_option(name), n;
	const struct selection_class *c = selection_get(s);
	int k = arg ? selection_value(c, arg, strlen(arg), &n)
		    : c->train_value;

	if (k == c->train_value) {
		o->t.selection = s; /* its draws start at --seed */
		return 0;
	}
	return cli_usage_errorf("train --%s takes only '%s' (%s), not '%s'",
				name, c->values[c->train_value],
				c->train_value_why, arg);
}

/* " with --hard=argmax": how greedy decoding reads a model trained with
 * the selection of o (selection_class.greedy), into buf; "" for the
 * default.  Returns buf. */
static const char *cli_train_greedy(char *buf, size_t size,
				    const struct cli_train_opts *o)
{
	const struct selection_class *c = selection_get(o->t.selection);

	buf[0] = '\0';
	if (o->t.selection != SELECTION_DEFAULT)
		snprintf(buf, size, " with --%s=%s", c->option,
			 c->values[c->greedy]);
	return buf;
}

/* Applies one option; returns 0, EXIT_USAGE after a message, or -1 after
 * --help. */
static int cli_train_option(struct cli_train_opts *o, int c, const char *arg)
{
	switch (c) {
	case CLI_OPT_pairs: o->pairs = arg; return 0;
	case 'o': o->out = arg; return 0;
	case CLI_OPT_init: o->init = arg; return 0;
	case CLI_OPT_heldout: o->heldout = arg; return 0;
	case CLI_OPT_arch:
		return cli_arch(&o->arch, arg) != 0 ? EXIT_USAGE : 0;
	case CLI_OPT_freeze_shared: o->t.freeze_shared = 1; return 0;
	case CLI_OPT_input_feeding: o->feed = 1; return 0;
	case CLI_OPT_window:
	case CLI_OPT_window_size: {
		struct trace_cfg cfg = { .window = o->t.window,
					 .window_size = o->t.window_size };
		int rc = cli_window(&cfg, c, arg);
		o->t.window = cfg.window;
		o->t.window_size = cfg.window_size;
		return rc;
	}
	case CLI_OPT_hard:
		return cli_train_selection(o, c, arg);
	case 'q': o->quiet = 1; return 0;
	case 'h': cli_train_help(); return -1;
	case 's':
		if ((o->t.scorers = trace_scorer_parse(arg)) != 0)
			return 0;
		return cli_scorer_error(arg, 1);
	case CLI_OPT_optimizer:
		if (strcmp(arg, "adam") == 0 || strcmp(arg, "sgd") == 0) {
			o->t.optim = arg[0] == 'a' ? TRAIN_ADAM : TRAIN_SGD;
			return 0;
		}
		return cli_usage_errorf("unknown optimizer '%s'; expected "
					     "adam or sgd", arg);
	default: return cli_train_number(o, c, arg);
	}
}

/* Checks what the options say together. */
static int cli_train_check(const struct cli_train_opts *o, int argc,
			   char **argv)
{
	struct errbuf err;

	if (optind < argc)
		return cli_usage_errorf("'train' takes no sentence, but "
					     "was given '%s'", argv[optind]);
	if (!o->pairs)
		return cli_usage_errorf("'train' needs --pairs=FILE, the "
					     "sentence pairs to learn");
	if (!o->out)
		return cli_usage_errorf("'train' needs -o FILE, the model "
					     "file to write");
	if (o->init && (o->E || o->H || o->A))
		return cli_usage_errorf("--init takes the sizes from its "
					     "model; drop --embedding, --hidden "
					     "and --attention");
	if (o->arch == ARCH_ALL && o->init)
		return cli_usage_errorf("--init starts from a model of one "
					"architecture; --arch=all trains each "
					"from random weights");
	if (o->arch == ARCH_ALL && strcmp(o->out, "-") == 0)
		return cli_usage_errorf("--arch=all writes a model file for "
					"each architecture; -o must name a "
					"directory, not standard output");
	for (int k = 0; k < ARCH_COUNT && o->H % 2 != 0; k++)
		if ((o->arch == k || o->arch == ARCH_ALL) &&
		    arch_get(k)->bidir)
			return cli_usage_errorf("--arch=%s splits the hidden "
						"size between the encoder's two "
						"directions; expected an even "
						"--hidden, not %d",
						arch_get(k)->name, o->H);
	if (o->arch >= 0 && o->arch < ARCH_COUNT) {
		int rc = cli_feed_arch(o->arch, o->feed);
		if (rc != 0)
			return rc;
	}
	if (o->t.window != WINDOW_DEFAULT && o->t.align_weight > 0.0)
		return cli_usage_errorf("--align-weight and --window=%s do not "
					"go together: the gold words may lie "
					"outside the window",
					window_get(o->t.window)->name);
	if (cli_window_check(o->t.window, o->t.window_size))
		return EXIT_USAGE;
	if (train_window_check(window_get(o->t.window), &err))
		return cli_usage_error(err.msg);
	for (int k = 0; k < ARCH_COUNT; k++)
		if ((o->arch == k || o->arch == ARCH_ALL ||
		     (o->arch < 0 && !o->init && k == ARCH_DEFAULT)) &&
		    train_arch_check(arch_get(k), &err))
			return cli_usage_error(err.msg);
	if (o->t.freeze_shared && !o->init)
		return cli_usage_errorf("--freeze-shared keeps the weights "
					"of an --init model, but no --init "
					"was given");
	/* -o may be the --init model: it is read whole before training, and
	 * replaced only once the new one is written whole */
	if (cli_check_stdin("--init", o->init, "--pairs", o->pairs) ||
	    cli_check_stdin("--heldout", o->heldout, "--pairs", o->pairs) ||
	    cli_check_stdin("--heldout", o->heldout, "--init", o->init) ||
	    cli_check_overwrite(o->out, "--heldout", o->heldout) ||
	    cli_check_overwrite(o->out, "--pairs", o->pairs))
		return EXIT_USAGE;
	return 0;
}

/* Parses argv into *o.  Returns 0, -1 after --help, or EXIT_USAGE. */
static int cli_train_parse(struct cli_train_opts *o, int argc, char **argv)
{
	int c, rc;

	memset(o, 0, sizeof *o);
	train_opts_default(&o->t);
	o->every = 100;
	o->arch = -1;
	o->t.window_size = 1;
	o->t.threads = cli_jobs_default();
	optind = 1;
	opterr = 0;
	while ((c = cli_getopt(CLI_CMD_BIT(train), argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		if ((rc = cli_train_option(o, c, optarg)) != 0)
			return rc;
	}
	return cli_train_check(o, argc, argv);
}

/* ---------------------------------------------------------- progress */

struct cli_train_progress {
	int tty;    /* stderr is a terminal: one line, rewritten */
	int every;  /* otherwise a line every this many epochs */
	int quiet;
	struct progress pg; /* the line on a terminal (progress.h) */
};

/* Writes "epoch E/N  loss L  accuracy A%" for st into buf. */
static const char *cli_train_status(char *buf, size_t size,
				    const struct train_stats *st)
{
	char loss[NUM_BUFSZ], acc[NUM_BUFSZ];

	snprintf(buf, size, "epoch %d/%d  loss %s  accuracy %s%%", st->epoch,
		 st->epochs, num_fixed(loss, st->loss, 6),
		 num_fixed(acc, 100.0 * st->accuracy, 1));
	return buf;
}

static int cli_train_report(const struct train_stats *st, void *ctx)
{
	struct cli_train_progress *pr = ctx;
	int last = st->epoch == st->epochs;
	char line[256];

	if (pr->quiet)
		return 0;
	cli_train_status(line, sizeof line, st);
	if (pr->tty) {
		/* rewriting the line costs more than an epoch: every
		 * PROGRESS_EVERY s, with the rate and the time left */
		if (!last && st->epoch != 1 && !progress_due(&pr->pg))
			return 0;
		size_t n = strlen(line);
		progress_tail(line + n, sizeof line - n, st->epoch, "epochs",
			      progress_clock() - pr->pg.start,
			      (double)st->epoch / st->epochs, -1.0);
		progress_show(&pr->pg, line, 1);
		if (last)
			progress_keep(&pr->pg);
	} else if (st->epoch % pr->every == 0 || last || st->epoch == 1) {
		fprintf(stderr, "%s\n", line);
	}
	return 0;
}

/* ------------------------------------------------------------ output */

/* The name of a path without its directories. */
static const char *cli_train_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The scorers trained as --scorer gives them: "all", or "dot,general". */
static const char *cli_train_scorers(char *buf, size_t size,
				     unsigned scorers)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int sc = 0; sc < SCORER_COUNT && used < size; sc++)
		if (scorers & (1u << sc))
			used += (size_t)snprintf(buf + used, size - used,
						 "%s%s", used ? "," : "",
						 trace_scorer_name(sc));
	return buf;
}

/* Writes the settings as a canonical command line into buf: the same
 * settings give the same text, whatever the paths and option order. */
static void cli_train_command(char *buf, size_t size,
			      const struct cli_train_opts *o,
			      const struct trainer *t)
{
	char lr[NUM_BUFSZ], wd[NUM_BUFSZ], clip[NUM_BUFSZ], start[320];
	char names[256], pos[96 + NUM_BUFSZ] = "";

	if (o->init)
		snprintf(start, sizeof start, "--init=%s%s",
			 cli_train_base(o->init),
			 o->t.freeze_shared ? " --freeze-shared" : "");
	else
		snprintf(start, sizeof start, "--seed=%llu --embedding=%d "
			 "--hidden=%d --attention=%d%s%s%s",
			 (unsigned long long)o->t.seed, t->lay.E, t->lay.H,
			 t->lay.A, t->lay.arch != ARCH_DEFAULT ? " --arch=" : "",
			 t->lay.arch != ARCH_DEFAULT ? arch_get(t->lay.arch)->name
						     : "",
			 t->lay.feed ? " --input-feeding" : "");
	/* the options of the scorers' weights, on a line of their own */
	if (o->L || o->t.align_weight > 0.0 || o->t.window != WINDOW_DEFAULT ||
	    o->t.selection != SELECTION_DEFAULT) {
		char aw[NUM_BUFSZ];
		size_t used = (size_t)snprintf(pos, sizeof pos, "\n   ");
		if (o->L)
			used += (size_t)snprintf(pos + used, sizeof pos - used,
						 " --positions=%d", o->L);
		if (o->t.align_weight > 0.0)
			used += (size_t)snprintf(pos + used, sizeof pos - used,
				 " --align-weight=%s",
				 num_shortest(aw, o->t.align_weight));
		if (o->t.window != WINDOW_DEFAULT)
			snprintf(pos + strlen(pos), sizeof pos - strlen(pos),
				 " --window=%s", window_get(o->t.window)->name);
		if (o->t.window != WINDOW_DEFAULT &&
		    !window_get(o->t.window)->sizeless)
			snprintf(pos + strlen(pos), sizeof pos - strlen(pos),
				 " --window-size=%d", o->t.window_size);
		if (o->t.selection != SELECTION_DEFAULT)
			snprintf(pos + strlen(pos), sizeof pos - strlen(pos),
				 " --%s", selection_get(o->t.selection)->option);
	}
	snprintf(buf, size, "attn-trace train --pairs=%s --scorer=%s "
		 "--epochs=%d\n    --optimizer=%s --lr=%s --weight-decay=%s "
		 "--clip=%s\n    %s%s", cli_train_base(o->pairs),
		 cli_train_scorers(names, sizeof names, o->t.scorers),
		 o->t.epochs,
		 o->t.optim == TRAIN_ADAM ? "adam" : "sgd",
		 num_shortest(lr, o->t.lr), num_shortest(wd, o->t.weight_decay),
		 num_shortest(clip, o->t.clip), start, pos);
}

/* The pairs of d that greedy decoding with scorer sc reproduces through
 * the trace itself, with the selection trained and its greedy value, as
 * "trace --hard=argmax" decodes: a model trained with --hard is meant to
 * be read so. */
static int cli_train_count_greedy(const struct model *m,
				  const struct train_data *d, int sc,
				  const struct cli_train_opts *o)
{
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	int count = 0;

	cfg.window = o->t.window;
	cfg.window_size = o->t.window_size;
	cfg.selection = o->t.selection;
	selection_get(cfg.selection)->set(&cfg,
					  selection_get(cfg.selection)->greedy);
	for (int k = 0; k < d->n; k++) {
		const struct train_pair *pr = &d->pairs[k];
		struct trace tr;
		struct errbuf err;
		if (trace_build(&tr, m, pr->src, pr->nsrc, NULL, 0, 1u << sc,
				&cfg, &err) != 0)
			continue; /* not decoded: not reproduced */
		const struct trace_run *ru = &tr.runs[0];
		int same = ru->nsteps == pr->ntgt + 1 &&
			   ru->pred[pr->ntgt] == m->eos;
		for (int j = 0; same && j < pr->ntgt; j++)
			same = ru->pred[j] == pr->tgt[j];
		count += same;
		trace_free(&tr);
	}
	return count;
}

/* Writes into buf how greedy decoding does: "16/16 pairs with dot, ...";
 * for a model trained with --hard, decoding with --hard=argmax. */
static void cli_train_exact(char *buf, size_t size, struct trainer *t,
			    const struct train_data *d,
			    const struct cli_train_opts *o)
{
	struct model v;
	size_t used = 0;

	buf[0] = '\0';
	train_view(&v, &t->lay, t->theta, d);
	for (int sc = 0; sc < SCORER_COUNT && used < size; sc++) {
		if (!(o->t.scorers & (1u << sc)))
			continue;
		int right = o->t.selection != SELECTION_DEFAULT
			    ? cli_train_count_greedy(&v, d, sc, o)
				      : train_count_exact(&v, d, sc, &t->work);
		int n = snprintf(buf + used, size - used, "%s%d/%d%s with %s",
				 used ? ", " : "", right, d->n,
				 used ? "" : " pairs", trace_scorer_name(sc));
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Writes into buf the alignment accuracy of d with each scorer trained,
 * "dot 97.5% (117/120), general ...", measured with work w; or "" when d
 * has no gold alignment. */
static void cli_train_align(char *buf, size_t size, struct trainer *t,
			    const struct train_data *d, unsigned scorers,
			    struct train_work *w)
{
	struct model v;
	size_t used = 0;

	buf[0] = '\0';
	if (d->naligned == 0)
		return;
	train_view(&v, &t->lay, t->theta, d);
	for (int sc = 0; sc < SCORER_COUNT && used < size; sc++) {
		char pct[NUM_BUFSZ];
		int total, hits, n;
		if (!(scorers & (1u << sc)))
			continue;
		hits = train_align_count(&v, d, sc, w, &total);
		n = snprintf(buf + used, size - used, "%s%s %s%% (%d/%d)",
			     used ? ", " : "", trace_scorer_name(sc),
			     num_fixed(pct, total ? 100.0 * hits / total : 0.0,
				       1), hits, total);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Writes how the weights were set and updated into buf. */
static void cli_train_method(char *buf, size_t size,
			     const struct cli_train_opts *o)
{
	char clip[NUM_BUFSZ], clipped[96] = "no gradient clipping";

	if (o->t.clip > 0.0)
		snprintf(clipped, sizeof clipped, "the gradient clipped to "
			 "global norm %s", num_shortest(clip, o->t.clip));
	snprintf(buf, size, "%s, full batch: one update an epoch;\n%s%s.\n%s",
		 o->t.optim == TRAIN_ADAM ? "Adam (beta1 0.9, beta2 0.999, "
		 "eps 1e-8)" : "Plain SGD", clipped,
		 o->t.weight_decay > 0.0 ? "; decoupled weight decay" : "",
		 o->init ? "Started from the weights of the --init model." :
		 "An \"attention first\" random start: embeddings uniform in "
		 "[-1, 1];\nW_x, W_a, v_a, W_s and W_c's c_t half uniform in "
		 "+-1/sqrt(fan-in);\nencoder W_h 0, decoder W_h the identity, "
		 "W_c's s_t half 0, biases 0.");
}

/* Writes into buf (size bytes) the comment that opens the --init model
 * file init, each line indented by two spaces, so that a model trained in
 * steps tells every step; "" when init is a built-in model or has no
 * comment.  A line too long for a model's comment is cut short. */
static void cli_train_init_story(char *buf, size_t size, const char *init)
{
	char line[256];
	size_t used = 0;

	buf[0] = '\0';
	if (!init || model_builtin_name(init) || strcmp(init, "-") == 0)
		return;
	FILE *fp = gz_name(init) ? gz_reader(init) : fopen(init, "r");
	if (!fp)
		return;
	while (fgets(line, sizeof line, fp) && line[0] == '#') {
		const char *text = line + 1 + (line[1] == ' ');
		size_t len = strcspn(text, "\r\n");
		int n = snprintf(buf + used, size - used, "\n%s%.*s",
				 len ? "  " : "", (int)len, text);
		if (n < 0 || (size_t)n >= size - used) {
			buf[used] = '\0'; /* keep whole lines only */
			break;
		}
		used += (size_t)n;
		if (len == strlen(text)) /* a line longer than the buffer */
			while (fgets(line, sizeof line, fp) &&
			       !strchr(line, '\n'))
				;
	}
	fclose(fp);
}

/* Writes the comment that opens the model file into buf. */
static void cli_train_header(char *buf, size_t size,
			     const struct cli_train_opts *o,
			     struct trainer *t, const struct train_data *d,
			     const struct train_data *h,
			     const struct train_stats *st)
{
	char cmd[1024], method[512], exact[256], align[400], aligned[1024];
	char loss[NUM_BUFSZ], acc[NUM_BUFSZ], aw[NUM_BUFSZ], guided[320] = "";
	char story[4096], before[64] = "", with[64];

	if (o->t.align_weight > 0.0)
		snprintf(guided, sizeof guided, "\nPlus %s times -log(the "
			 "attention on the gold source words) of each\ntarget "
			 "word that has a gold alignment (guided alignment).",
			 num_shortest(aw, o->t.align_weight));
	if (o->t.selection != SELECTION_DEFAULT) {
		size_t used = strlen(guided);
		snprintf(guided + used, sizeof guided - used, "\n%s",
			 selection_get(o->t.selection)->train_note);
	}
	cli_train_command(cmd, sizeof cmd, o, t);
	cli_train_method(method, sizeof method, o);
	cli_train_init_story(story, sizeof story, o->init);
	if (story[0])
		snprintf(before, sizeof before, "\nThe --init model, %s, says of "
			 "itself:", cli_train_base(o->init));
	cli_train_exact(exact, sizeof exact, t, d, o);
	const struct window_class *w = window_get(o->t.window);
	align[0] = aligned[0] = '\0';
	if (w->no_alignment) /* it would mean nothing: say why */
		snprintf(aligned, sizeof aligned, "\nAlignment accuracy: not "
			 "measured through the %s window:\n%s.", w->name,
			 _(w->no_alignment));
	else
		cli_train_align(align, sizeof align, t, d, o->t.scorers,
				&t->work);
	if (align[0])
		snprintf(aligned, sizeof aligned, "\nAlignment accuracy (the "
			 "largest teacher-forced attention weight\non a gold "
			 "source word), of the training pairs:\n%s.", align);
	if (align[0] && h) {
		struct train_work hw;
		size_t used = strlen(aligned);
		train_work_init(&hw, &t->lay, h->max_src, h->max_tgt + 1);
		hw.window = t->work.window;
		hw.window_size = t->work.window_size;
		cli_train_align(align, sizeof align, t, h, o->t.scorers, &hw);
		train_work_free(&hw);
		if (align[0])
			snprintf(aligned + used, sizeof aligned - used,
				 "\nOf the held-out pairs (%s):\n%s.",
				 cli_train_base(o->heldout), align);
	}
	snprintf(buf, size,
		 "%s: trained by " PACKAGE_NAME " " PACKAGE_VERSION
		 ", not set by hand, with\n\n  %s\n\n"
		 "%d pairs, %d source words, %d target words (with <s> and "
		 "</s>).\nLoss: the cross-entropy of every teacher-forced "
		 "prediction (the target\nwords, then </s>), summed over "
		 "the scorers trained.%s\n%s\n"
		 "After %d epochs: loss %s per prediction, accuracy %s%%.\n"
		 "Greedy decoding%s reproduces, of the training pairs,\n%s.%s\n"
		 "How to train, and the pairs format: doc/training.md.%s%s",
		 strcmp(o->out, "-") == 0 ? "model" : cli_train_base(o->out),
		 cmd, d->n, d->src.n, d->tgt.n, guided, method, st->epoch,
		 num_fixed(loss, st->loss, 6),
		 num_fixed(acc, 100.0 * st->accuracy, 1),
		 cli_train_greedy(with, sizeof with, o), exact, aligned, before,
		 story);
}

/* Writes the model of t, with its header, to of (opened on o->out), to
 * be committed by the caller.  Returns EXIT_OK. */
static int cli_train_write(const struct cli_train_opts *o, struct outfile *of,
			   struct trainer *t, const struct train_data *d,
			   const struct train_data *h,
			   const struct train_stats *st)
{
	char header[9000];
	struct model v;

	cli_train_header(header, sizeof header, o, t, d, h, st);
	train_view(&v, &t->lay, t->theta, d);
	/* the --init model's self/cross-attention weights, as they were */
	memcpy(v.mha, t->mha, sizeof v.mha);
	/* a write error stays in the stream, and the commit reports it */
	train_write_model(of->fp, &v, header);
	outfile_wrote(of);
	return EXIT_OK;
}

/* Loads the --heldout pairs into *h, in the vocabularies of d: a word
 * that the training pairs lack is refused now, before the training. */
static int cli_train_heldout(const struct cli_train_opts *o,
			     const struct train_data *d, struct train_data *h)
{
	struct model words;
	struct errbuf err;

	memset(&words, 0, sizeof words);
	words.name = (char *)(o->init ? o->init : o->pairs);
	words.src = d->src;
	words.tgt = d->tgt;
	words.bos = d->bos;
	words.eos = d->eos;
	if (train_pairs_load(h, o->heldout, &words, &err) == 0)
		return 0;
	cli_messagef("%s", err.msg);
	return EXIT_DATA;
}

/* Loads the pairs (and the --init model) and sets up the trainer. */
static int cli_train_setup(const struct cli_train_opts *o, struct trainer *t,
			   struct train_data *d)
{
	struct model init;
	struct errbuf err;
	int rc = 0;
	/* the window's own weights (local-p's W_p and v_p) join the
	 * weights trained */
	const unsigned own = window_get(o->t.window)->params;

	memset(&init, 0, sizeof init);
	if (o->init && model_load_arg(&init, o->init, &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	if (o->init && o->arch >= 0 && init.arch != o->arch) {
		cli_messagef(_("%s is a model of the %s architecture, and --arch "
			     "asks for %s"), init.name, arch_get(init.arch)->name,
			     arch_get(o->arch)->name);
		model_free(&init);
		return EXIT_DATA;
	}
	if (o->init && train_arch_check(arch_get(init.arch), &err)) {
		cli_messagef("%s", err.msg);
		model_free(&init);
		return EXIT_DATA;
	}
	if (train_pairs_load(d, o->pairs, o->init ? &init : NULL, &err) != 0) {
		cli_messagef("%s", err.msg);
		rc = EXIT_DATA;
	} else if (o->init) {
		if (o->feed && !init.input_feeding) {
			cli_messagef(_("%s has no input feeding, and "
				     "--input-feeding asks for it; a model's "
				     "decoder keeps the input it was made with"),
				     init.name);
			model_free(&init);
			return EXIT_DATA;
		}
		train_init_model(t, d, &init, o->t.scorers | own,
				 o->L ? o->L : d->max_src, o->t.seed,
				 o->t.freeze_shared);
		if (o->t.freeze_shared)
			train_freeze_shared(t, o->t.scorers | own);
	} else if (o->feed) {
		train_init_random_feed(t, d, o->E ? o->E : 4, o->H ? o->H : 4,
				       o->A ? o->A : 4,
				       o->L ? o->L : d->max_src,
				       o->t.scorers | own, o->t.seed);
	} else {
		train_init_random_arch(t, d, o->arch < 0 ? ARCH_DEFAULT : o->arch,
				       o->E ? o->E : 4, o->H ? o->H : 4,
				       o->A ? o->A : 4,
				       o->L ? o->L : d->max_src,
				       o->t.scorers | own, o->t.seed);
	}
	t->work.window = o->t.window;
	t->work.window_size = o->t.window_size;
	model_free(&init);
	/* a scorer with a row a source position (location's W_loc) has
	 * none for a longer sentence: refuse it, as the trace does */
	for (int sc = 0; rc == 0 && sc < SCORER_COUNT; sc++) {
		if (!(o->t.scorers & (1u << sc)) || !scorer_uses_positions(sc))
			continue;
		int k = 0;
		while (k < d->n && d->pairs[k].nsrc <= t->lay.L)
			k++;
		if (k == d->n)
			break; /* every scorer of the kind has the same L */
		if (o->init)
			cli_messagef(_("%s:%d:1: this source side has %d words, "
				     "and the %s scorer of %s knows %d source "
				     "positions; a model keeps the positions "
				     "it was made with"), o->pairs,
				     d->pairs[k].line, d->pairs[k].nsrc,
				     scorer_get(sc)->name, o->init, t->lay.L);
		else
			cli_messagef(_("%s:%d:1: this source side has %d words, "
				     "more than the %d source positions of "
				     "--positions=%d; give --positions=%d or "
				     "more, or leave it out"), o->pairs,
				     d->pairs[k].line, d->pairs[k].nsrc,
				     t->lay.L, t->lay.L, d->max_src);
		rc = EXIT_DATA;
	}
	if (rc == 0 && o->t.selection != SELECTION_DEFAULT &&
	    !train_hard_supported(t->lay.arch, o->t.scorers)) {
		cli_messagef(_("train --%s cannot train the %s architecture"),
			     selection_get(o->t.selection)->option,
			     arch_get(t->lay.arch)->name);
		rc = EXIT_USAGE;
	}
	return rc;
}

/* Prints the alignment accuracy of the training pairs d and of the
 * held-out pairs h, where they have gold alignments. */
static void cli_train_print_align(const struct cli_train_opts *o,
				  struct trainer *t, const struct train_data *d,
				  const struct train_data *h)
{
	char align[400];
	struct train_work hw;
	const struct window_class *w = window_get(o->t.window);

	if (w->no_alignment) {
		fprintf(stderr, "alignment accuracy: not measured through the "
			"%s window: %s\n", w->name, _(w->no_alignment));
		return;
	}
	cli_train_align(align, sizeof align, t, d, o->t.scorers, &t->work);
	if (align[0])
		fprintf(stderr, "alignment accuracy on the training pairs: "
			"%s\n", align);
	if (!o->heldout)
		return;
	train_work_init(&hw, &t->lay, h->max_src, h->max_tgt + 1);
	hw.window = t->work.window;
	hw.window_size = t->work.window_size;
	cli_train_align(align, sizeof align, t, h, o->t.scorers, &hw);
	train_work_free(&hw);
	fprintf(stderr, "alignment accuracy on the held-out pairs (%s): %s\n",
		cli_train_base(o->heldout), align[0] ? align :
		"none, as they have no gold alignment");
}

/* Trains, reports and writes to of, for the caller to commit. */
static int cli_train_run(const struct cli_train_opts *o, struct outfile *of,
			 struct trainer *t, const struct train_data *d,
			 const struct train_data *h)
{
	struct cli_train_progress pr = { isatty(STDERR_FILENO), o->every,
					 o->quiet, { 0 } };
	progress_start(&pr.pg, stderr, !o->quiet);
	struct train_stats st;
	char exact[256], secs[NUM_BUFSZ], loss[NUM_BUFSZ], acc[NUM_BUFSZ];
	char with[64];
	double start = progress_clock();

	train_run(t, d, &o->t, cli_train_report, &pr, &st);
	num_fixed(secs, progress_clock() - start, 3);
	if (!train_weights_ok(t)) {
		cli_messagef(_("the training diverged: a weight became NaN or "
			     "larger than %s; try a smaller --lr"),
			     MODEL_MAX_WEIGHT_TEXT);
		return EXIT_DATA;
	}
	if (!o->quiet) {
		cli_train_exact(exact, sizeof exact, t, d, o);
		fprintf(stderr, "trained %d epochs in %s s; the final weights: "
			"loss %s, accuracy %s%%\ngreedy decoding%s reproduces "
			"%s\n", st.epoch, secs, num_fixed(loss, st.loss, 6),
			num_fixed(acc, 100.0 * st.accuracy, 1),
			cli_train_greedy(with, sizeof with, o), exact);
		cli_train_print_align(o, t, d, h);
	}
	return cli_train_write(o, of, t, d, o->heldout ? h : NULL, &st);
}

/* Trains the model o asks for and writes it to of, for the caller to
 * commit.  Returns EXIT_OK, or EXIT_DATA after the message. */
static int cli_train_one(const struct cli_train_opts *o, struct outfile *of)
{
	struct train_data d, h;
	struct trainer t;

	memset(&t, 0, sizeof t);
	memset(&d, 0, sizeof d);
	memset(&h, 0, sizeof h);
	int rc = cli_train_setup(o, &t, &d);
	if (rc == EXIT_OK && o->heldout)
		rc = cli_train_heldout(o, &d, &h);
	if (rc == EXIT_OK)
		rc = cli_train_run(o, of, &t, &d, &h);
	train_free(&t);
	train_data_free(&d);
	train_data_free(&h);
	return rc;
}

int cli_train(int argc, char **argv)
{
	struct cli_train_opts o;
	struct errbuf err;
	int rc = cli_train_parse(&o, argc, argv);

	if (rc != 0)
		return rc < 0 ? cli_flush() : rc;
	/* --arch=all: a model of each architecture, DIR/NAME.model */
	int n = o.arch == ARCH_ALL ? ARCH_COUNT : 1, opened = 0;
	struct cli_train_opts each[ARCH_COUNT];
	char *paths[ARCH_COUNT] = { NULL };
	struct outfile of[ARCH_COUNT];
	for (int k = 0; k < n; k++) {
		each[k] = o;
		if (n == 1)
			continue;
		size_t len = strlen(o.out);
		const char *name = arch_get(k)->name;
		paths[k] = xmalloc(len + strlen(name) + 8);
		sprintf(paths[k], "%s%s%s.model", o.out,
			len && o.out[len - 1] == '/' ? "" : "/", name);
		each[k].out = paths[k];
		each[k].arch = k;
		/* input feeding where the architecture has it */
		each[k].feed = o.feed && arch_get(k)->feed_model != NULL;
	}
	struct stat sb;
	/* no model file of the directory may be an input */
	for (int k = 0; n > 1 && rc == EXIT_OK && k < n; k++)
		if (cli_check_overwrite(each[k].out, "--pairs", o.pairs) ||
		    cli_check_overwrite(each[k].out, "--heldout", o.heldout))
			rc = EXIT_USAGE;
	if (rc == EXIT_OK && n > 1 &&
	    (stat(o.out, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
		cli_messagef(_("%s: expected a directory for the model of each "
			     "architecture (--arch=all)"), o.out);
		rc = EXIT_DATA;
	}
	/* the outputs first: a path that cannot be written fails now, not
	 * after minutes of training */
	for (; rc == EXIT_OK && opened < n; opened++)
		if (outfile_open(&of[opened], each[opened].out, &err) != 0) {
			cli_messagef("%s", err.msg);
			rc = EXIT_DATA;
			break;
		}
	for (int k = 0; rc == EXIT_OK && k < n; k++) {
		if (n > 1 && !o.quiet)
			fprintf(stderr, "%s%s architecture, to %s\n",
				k ? "\n" : "", arch_get(k)->name, each[k].out);
		rc = cli_train_one(&each[k], &of[k]);
	}
	/* every model is written, or none: the old ones are kept */
	if (rc != EXIT_OK) {
		for (int k = 0; k < opened; k++)
			outfile_abort(&of[k]);
	} else if (outfile_commit_all(of, n, &err) != 0) {
		cli_messagef("%s", err.msg);
		rc = EXIT_DATA;
	}
	for (int k = 0; k < n; k++)
		free(paths[k]);
	return rc;
}
