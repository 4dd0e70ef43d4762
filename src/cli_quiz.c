/* cli_quiz.c: "attn-trace quiz": questions on the arithmetic of attention,
 * asked on stdout and answered line by line on stdin (doc/quiz.md). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "cli.h"
#include "cli_options.h"
#include "cli_set.h"
#include "cli_quiz.h"
#include "fmt.h"
#include "glimpse_quiz.h"
#include "i18n.h"
#include "lesson.h"
#include "model.h"
#include "num.h"
#include "quiz.h"
#include "tok.h"
#include "trace.h"
#include "util.h"

#define CLI_QUIZ_SENTENCE DEFAULT_SENTENCE
#define CLI_QUIZ_COUNT 3
#define CLI_QUIZ_MAX_COUNT 100

struct cli_quiz_opts {
	unsigned stages;        /* bitmask of (1u << STAGE_x); 0: all three */
	int stages_given;       /* --stage named a stage of a trace */
	unsigned gkinds;        /* --stage's glimpse questions: bitmask of
				   (1u << GLIMPSE_QUIZ_x); 0: all */
	const char *word_only;  /* the last option given that asks about a
				   word model ("--scorer"), or NULL */
	uint64_t seed;
	int have_seed;
	int scorer;              /* an enum scorer */
	const char *model_path; /* NULL: the built-in toy model; else
				   model_load_arg's argument */
	const char *target;     /* NULL: greedy decoding */
	int arch;               /* --arch, an enum arch; -1: not given */
	int feed;               /* --input-feeding: the model must have it */
	int count;
	int precision;
	int answers;            /* 1: print the answers, read nothing */
	int sheet;              /* 1: --worksheet, 2: --key; 0: neither */
	enum quiz_sheet_format format; /* of --worksheet and --key */
	int format_set;         /* --format was given */
	struct trace_cfg cfg;   /* --window, --window-size, --hard; its draws
				   are seeded by --seed */
	struct cli_set set;     /* --set */
};

/* The state of one quiz. */
struct cli_quiz_run {
	const struct cli_quiz_opts *o;
	const struct trace *trs[ARCH_COUNT]; /* question j asks about
	                                        trs[j % ntr] */
	int ntr;
	const struct glimpse_quiz_src *gq; /* a glimpse quiz: the questions
	                                      ask about it; else NULL */
	const char *image;      /* a glimpse quiz: the image's name */
	const char *gmodel;     /* a glimpse quiz: --model */
	char line[QUIZ_MAX_ANSWER + 1]; /* the last line read */
	int echo;               /* 1: stdin is not a terminal, so write each
	                           answer after the prompt */
	int asked;              /* questions answered */
	int right;
};

static void cli_quiz_help(void)
{
	printf(_(
"Usage: attn-trace quiz [OPTION]... [SENTENCE]\n"
"  or:  attn-trace quiz --model=glimpse6 [OPTION]... IMAGE.pgm\n"
"Ask questions on the arithmetic of attention at one step of a trace: a\n"
"score, a weight or one coordinate of the context vector.  Type each answer\n"
"and press Enter; a wrong answer is met with the worked arithmetic.  The\n"
"answers are read from standard input, so a quiz can be scripted.  The\n"
"default sentence is \"%s\".\n"
"On a glimpse model (glimpse6, or a file of glimpse --train) the questions\n"
"are on its glimpses at the image, its places drawn with --seed: where the\n"
"policy points, the place drawn, the retina, the glimpse and core vectors,\n"
"the class, and REINFORCE's score function.\n"
"\n"
"Options:\n"), CLI_QUIZ_SENTENCE);

	cli_help_options(CLI_CMD_BIT(quiz), 24);
	fputs(_(
"\n"
"An answer counts when it is within 5 units of the last digit shown, times\n"
"(1 + |the value|): 0.0005 × (1 + |value|) at the default precision.  An\n"
"answer that is not a number is asked again; q, or the end of the input,\n"
"ends the quiz.  The last line is the score, \"score: R of N\".\n"
"\n"
"Exit status: 0 when the quiz ran, whatever the score; 1 on bad input or a\n"
"read or write error; 2 on a bad command line.\n"), stdout);
}

/* Parses a seed: decimal digits only, 0 to 2^64 - 1.  Returns 0 or -1. */
static int cli_quiz_seed(const char *s, uint64_t *out)
{
	char *end;
	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* The usage errors of an unknown --stage and --format, naming the
 * values from their registries. */
static int cli_quiz_stage_error(const char *arg)
{
	const char *names[STAGE_COUNT + 1 + GLIMPSE_QUIZ_COUNT];
	int n = 0;
	for (int k = 0; k <= STAGE_COUNT; k++)
		if (k == STAGE_COUNT || (QUIZ_STAGES >> k & 1))
			names[n++] = quiz_stage_name((enum trace_stage)k);
	for (int k = 0; k < GLIMPSE_QUIZ_COUNT; k++)
		names[n++] = glimpse_quiz_name(k);
	return cli_value_error("--stage", arg, names, n);
}

static int cli_quiz_format_error(const char *arg)
{
	const char *names[8];
	int n = 0;
	while (n < 8 && (names[n] = quiz_sheet_name(n)))
		n++;
	return cli_value_error("--format", arg, names, n);
}

/* The options that take a value and check it. */
static int cli_quiz_value(struct cli_quiz_opts *o, int c, const char *arg)
{
	enum trace_stage st;
	enum glimpse_quiz_kind gk;
	unsigned sc;
	switch (c) {
	case CLI_OPT_quiz_stage:
		if (quiz_stage_parse(arg, &st) == 0) {
			o->stages |= 1u << st;
			o->stages_given = 1;
			return 0;
		}
		if (glimpse_quiz_parse(arg, &gk) != 0)
			return cli_quiz_stage_error(arg);
		o->gkinds |= 1u << gk;
		return 0;
	case CLI_OPT_seed:
		if (cli_quiz_seed(arg, &o->seed) == 0) {
			o->have_seed = 1;
			return 0;
		}
		return cli_usage_errorf("--seed expects a whole number "
			"from 0 to 18446744073709551615, not '%s'", arg);
	case CLI_OPT_count:
		if (cli_int(arg, 1, CLI_QUIZ_MAX_COUNT, &o->count) == 0)
			return 0;
		return cli_usage_errorf("--count expects a whole number "
					    "from 1 to 100, not '%s'", arg);
	case CLI_OPT_quiz_format:
		o->format_set = 1;
		if (quiz_sheet_parse(arg, &o->format) == 0)
			return 0;
		return cli_quiz_format_error(arg);
	case 'p':
		if (cli_int(arg, QUIZ_MIN_PREC, QUIZ_MAX_PREC,
				 &o->precision) == 0)
			return 0;
		return cli_usage_errorf("--precision expects a whole "
			"number from 2 to 8 in a quiz, not '%s'", arg);
	default: /* 's' */
		o->word_only = "--scorer";
		sc = trace_scorer_parse(arg);
		for (int k = 0; k < SCORER_COUNT; k++)
			if (sc == 1u << k) {
				o->scorer = k;
				return 0;
			}
		return cli_scorer_error(arg, 0);
	}
}

/* Applies one option; returns 0, EXIT_USAGE after a message, or -1 after
 * --help. */
static int cli_quiz_option(struct cli_quiz_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'm': o->model_path = arg; return 0;
	case CLI_OPT_arch:
		o->word_only = "--arch";
		return cli_arch(&o->arch, arg) != 0 ? EXIT_USAGE : 0;
	case CLI_OPT_window:
	case CLI_OPT_window_size:
		o->word_only = c == CLI_OPT_window ? "--window"
						   : "--window-size";
		return cli_window(&o->cfg, c, arg);
	case CLI_OPT_input_feeding:
		o->word_only = "--input-feeding";
		o->feed = 1;
		return 0;
	case 't':
		o->word_only = "--target";
		o->target = arg;
		return 0;
	case CLI_OPT_answers: o->answers = 1; return 0;
	case CLI_OPT_lang: return cli_lang(arg);
	case CLI_OPT_worksheet: o->sheet |= 1; return 0;
	case CLI_OPT_key: o->sheet |= 2; return 0;
	case CLI_OPT_hard:
		o->word_only = "--hard";
		return cli_selection(&o->cfg, c, arg);
	case CLI_OPT_set: return cli_set_add(&o->set, arg);
	case 'h': cli_quiz_help(); return -1;
	case CLI_OPT_quiz_stage: case CLI_OPT_seed: case CLI_OPT_count: case 'p': case 's':
	case CLI_OPT_quiz_format:
		return cli_quiz_value(o, c, arg);
	default: return EXIT_USAGE;
	}
}

/* Parses argv from optind 1 into *o.  Returns 0, -1 after --help, or
 * EXIT_USAGE after a message. */
static int cli_quiz_parse(struct cli_quiz_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->scorer = SCORER_dot;
	o->arch = -1;
	o->cfg = (struct trace_cfg)TRACE_CFG_DEFAULT;
	o->count = CLI_QUIZ_COUNT;
	o->precision = 4;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = cli_getopt(CLI_CMD_BIT(quiz), argc, argv)) != -1) {
		if (c == '?')
			return EXIT_USAGE;
		int rc = cli_quiz_option(o, c, optarg);
		if (rc != 0)
			return rc;
	}
	if (!o->have_seed)
		o->seed = (uint64_t)time(NULL);
	o->cfg.seed = o->seed;
	if (!o->stages)
		o->stages = QUIZ_STAGES;
	if (cli_window_check(o->cfg.window, o->cfg.window_size))
		return EXIT_USAGE;
	if (o->sheet == 3 || (o->sheet && o->answers))
		return cli_usage_error("--worksheet, --key and --answers each "
				       "print the quiz another way: give one");
	if (o->format_set && !o->sheet)
		return cli_usage_error("--format sets the format of "
				       "--worksheet and --key; give one");
	return cli_feed_arch(o->arch, o->feed);
}

/* Loads the model of architecture arch (-1: the model's own) and builds
 * the trace of sentence with the one scorer.  Returns 0, or EXIT_DATA
 * after printing the error; on success the caller frees *tr, then *m. */
static int cli_quiz_build(const struct cli_quiz_opts *o, int arch,
			  const char *sentence, struct model *m,
			  struct trace *tr, struct cli_set *set)
{
	struct errbuf err;
	char note[320];
	struct trace_cfg cfg = o->cfg;
	if (cli_load_window(m, o->model_path, arch, o->feed,
			    o->cfg.window) != 0)
		return EXIT_DATA; /* the message is printed */
	if (cli_set_apply(set, m, &cfg) != 0) {
		model_free(m);
		return EXIT_USAGE;
	}
	int rc = tok_trace_note(tr, m, sentence, o->target, 1u << o->scorer,
				note, sizeof note, &cfg, &err);
	if (rc == 0 && cli_set_check_trace(set, tr) != 0) {
		trace_free(tr);
		model_free(m);
		return EXIT_USAGE;
	}
	if (rc != 0)
		model_free(m);
	else if (note[0])
		cli_messagef(_("note: %s"), note);
	if (rc != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/* The stage of question number j (from 0): the chosen stages in turn. */
static enum trace_stage cli_quiz_stage(unsigned stages, int j)
{
	int n = 0, k;
	for (k = 0; k <= (int)QUIZ_HARD_DRAW; k++)
		n += (stages >> k) & 1;
	j %= n;
	for (k = 0; k <= (int)QUIZ_HARD_DRAW; k++)
		if (((stages >> k) & 1) && j-- == 0)
			break;
	return (enum trace_stage)k;
}

/* What the quiz asks about, "3 questions on "je suis", dot scorer",
 * allocated. */
static char *cli_quiz_title(const struct cli_quiz_run *qr,
			    const char *sentence)
{
	const struct cli_quiz_opts *o = qr->o;
	char *title = NULL;
	size_t len = 0;
	FILE *t = open_memstream(&title, &len);
	if (!t) /* open_memstream fails only when memory runs out */
		abort();
	if (qr->gq)
		/* TRANSLATORS: the count, the model's name, the image's */
		fprintf(t, ngettext("%d question on the glimpses of %s at %s",
				    "%d questions on the glimpses of %s at %s",
				    (unsigned long)o->count),
			o->count, qr->gmodel, qr->image);
	else
		/* TRANSLATORS: the count, the sentence, the scorer's name,
		   then either nothing or ", each architecture in turn" */
		fprintf(t, ngettext("%d question on \"%s\", %s scorer%s",
				    "%d questions on \"%s\", %s scorer%s",
				    (unsigned long)o->count),
			o->count, sentence, trace_scorer_name(o->scorer),
			qr->ntr > 1 ? _(", each architecture in turn") : "");
	fclose(t);
	return title;
}

/* Writes line (which ends with its newline) wrapped at 80 columns. */
static void cli_quiz_wrap(char *line)
{
	size_t n = strlen(line);
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	lesson_wrap(stdout, line, 80);
}

static void cli_quiz_header(const struct cli_quiz_run *qr,
			    const char *sentence)
{
	const struct cli_quiz_opts *o = qr->o;
	char *title = cli_quiz_title(qr, sentence);
	/* TRANSLATORS: %s is what the quiz asks about, "3 questions on
	 * ..." */
	char *line = xasprintf(_("attn-trace quiz: %s\n"), title);
	cli_quiz_wrap(line); /* a long path breaks at a blank */
	free(line);
	free(title);
	printf(_("seed %" PRIu64 " (the same options with --seed=%" PRIu64
		 " ask these questions again)\n"), o->seed, o->seed);
	char wif[FMT_WHATIF_NOTE];
	if (!qr->gq && fmt_whatif_note(qr->trs[0], wif, sizeof wif)) {
		line = xasprintf("%s\n", wif); /* --set */
		cli_quiz_wrap(line);
		free(line);
	}
	if (qr->gq) {
		line = xasprintf(_("(attn-trace glimpse --model=%s --seed=%"
				   PRIu64 " %s traces these glimpses)\n"),
				 qr->gmodel, o->seed, qr->image);
		cli_quiz_wrap(line);
		free(line);
	}
	if (!o->answers)
		puts(_("Type each answer and press Enter; q or the end of the "
		       "input ends the quiz."));
}

/* Reads one answer line into qr->line (quiz_read_answer()).  Returns 1,
 * 0 at the end of the input (or q), or -1 after a read error (printed),
 * which is never taken for the end. */
static int cli_quiz_read(struct cli_quiz_run *qr)
{
	fputs(_("answer> "), stdout);
	if (cli_flush() != EXIT_OK)
		return -1;
	errno = 0;
	enum quiz_read r = quiz_read_answer(stdin, qr->line);
	if (r == QUIZ_READ_END || r == QUIZ_READ_ERROR) {
		putchar('\n');
		if (r == QUIZ_READ_END)
			return 0;
		cli_messagef(_("cannot read the answers: %s"),
			util_stdin_error(errno));
		return -1;
	}
	if (r == QUIZ_READ_LONG)
		printf(_("(an answer longer than %d bytes, not read)\n"),
		       QUIZ_MAX_ANSWER);
	else if (qr->echo) { /* the answer is bytes from a pipe: shown safe */
		cli_put_safe(stdout, qr->line);
		putchar('\n');
	}
	return r == QUIZ_READ_QUIT ? 0 : 1;
}

/* Asks question q until it gets a number.  Returns 1 after an answer, 0
 * when the input ended, -1 after an error (printed). */
static int cli_quiz_ask(struct cli_quiz_run *qr, const struct quiz_question *q)
{
	struct quiz_answer a;
	for (;;) {
		int rc = cli_quiz_read(qr);
		if (rc <= 0)
			return rc;
		if (quiz_check(q, qr->line, &a) != QUIZ_UNPARSEABLE)
			break;
		quiz_feedback_text(stdout, q, &a);
	}
	qr->asked++;
	qr->right += a.result == QUIZ_RIGHT;
	quiz_feedback_text(stdout, q, &a);
	return 1;
}

/* cli_quiz_make for a glimpse quiz: the kinds of --stage in turn (all
 * seven when none is given), "place at glimpse 2" or "class after
 * glimpse 3". */
static int cli_quiz_make_glimpse(const struct cli_quiz_run *qr,
				 uint64_t *state, int j,
				 struct quiz_question *q, char *heading,
				 size_t size)
{
	const struct cli_quiz_opts *o = qr->o;
	struct errbuf err;
	unsigned kinds = o->gkinds ? o->gkinds
				   : (1u << GLIMPSE_QUIZ_COUNT) - 1;
	int n = 0, k;
	for (k = 0; k < GLIMPSE_QUIZ_COUNT; k++)
		n += (kinds >> k) & 1;
	j %= n;
	for (k = 0; k < GLIMPSE_QUIZ_COUNT; k++)
		if (((kinds >> k) & 1) && j-- == 0)
			break;
	if (glimpse_quiz_make(q, qr->gq, (enum glimpse_quiz_kind)k,
			      quiz_rand(state), o->precision, &err) != 0) {
		cli_messagef("%s", err.msg);
		return -1;
	}
	/* TRANSLATORS: %1$s is a question's kind as --stage names it
	 * (place, draw, retina, glimpse, core, class, reinforce), which
	 * stays in English */
	snprintf(heading, size, k == GLIMPSE_QUIZ_CLASS
		 ? _("%s after glimpse %d") : _("%s at glimpse %d"),
		 glimpse_quiz_name(k), q->t);
	return 0;
}

/* Makes question j (from 0) into *q, the next pick from *state, and
 * writes what it is about into heading ("scoring at step t=2", and the
 * architecture under --arch=all).  Returns 0, or -1 after an error
 * (printed). */
static int cli_quiz_make(const struct cli_quiz_run *qr, uint64_t *state,
			 int j, struct quiz_question *q, char *heading,
			 size_t size)
{
	const struct cli_quiz_opts *o = qr->o;
	struct errbuf err;
	if (qr->gq)
		return cli_quiz_make_glimpse(qr, state, j, q, heading, size);
	enum trace_stage st = cli_quiz_stage(o->stages, j);
	const struct trace *tr = qr->trs[j % qr->ntr];
	if (quiz_make(q, tr, 0, st, quiz_rand(state), o->precision,
		      &err) != 0) {
		cli_messagef("%s", err.msg);
		return -1;
	}
	/* TRANSLATORS: %1$s is a stage as --stage names it (scoring,
	 * softmax, weighted-sum, hard-draw), which stays in English */
	int n = snprintf(heading, size, _("%s at step t=%d"),
			 quiz_stage_name(st), q->t);
	if (qr->ntr > 1 && n > 0 && (size_t)n < size)
		snprintf(heading + n, size - (size_t)n,
			 _(", %s architecture (%s)"), arch_get(tr->arch)->name,
			 cli_builtin_model(tr->arch, o->feed));
	return 0;
}

/* Where a worksheet's question stands: its trace and its step. */
struct cli_sheet_step {
	const void *src;        /* the trace or glimpse_quiz_src; NULL: none */
	int t;
};

/* Question j of a worksheet, as cli_quiz_make, drawn again (up to 64
 * times) while it stands at the step of an earlier question on the same
 * trace: a softmax question shows e_t, which holds a scoring question's
 * answer, and a weighted-sum question α_t, a softmax question's.  A
 * sheet with more questions than steps keeps the 64th draw.  at (j + 1)
 * gets where question j stands. */
static int cli_sheet_make(const struct cli_quiz_run *qr, uint64_t *state,
			  int j, struct quiz_question *q, char *heading,
			  size_t size, struct cli_sheet_step *at)
{
	for (int tries = 1;; tries++) {
		int clash = 0;
		if (cli_quiz_make(qr, state, j, q, heading, size) != 0)
			return -1;
		const void *src = q->gq ? (const void *)q->gq
			: q->st ? NULL : (const void *)q->tr;
		for (int k = 0; k < j && src; k++)
			clash |= at[k].src == src && at[k].t == q->t;
		if (!clash || tries == 64) {
			at[j].src = src;
			break;
		}
	}
	at[j].t = q->t;
	return 0;
}

/* Question j (from 0): makes it, prints it, and asks it (or prints its
 * answer).  Returns as cli_quiz_ask. */
static int cli_quiz_question(struct cli_quiz_run *qr, uint64_t *state, int j)
{
	const struct cli_quiz_opts *o = qr->o;
	struct quiz_question q;
	char heading[160];
	if (cli_quiz_make(qr, state, j, &q, heading, sizeof heading) != 0)
		return -1;
	printf(_("\nquestion %d of %d: %s\n"), j + 1, o->count, heading);
	quiz_prompt_text(stdout, &q);
	if (!o->answers)
		return cli_quiz_ask(qr, &q);
	char buf[NUM_BUFSZ];
	printf(_("(answer: %s = %s)\n"), q.symbol, quiz_value(buf, &q, q.expected));
	quiz_worked_text(stdout, &q);
	return 1;
}

/* --worksheet or --key: the questions (or their answers) set as a sheet
 * in o->format, from the same picks as the quiz.  Returns the exit
 * status. */
static int cli_quiz_sheet(const struct cli_quiz_run *qr, const char *sentence)
{
	const struct cli_quiz_opts *o = qr->o;
	uint64_t state = o->seed;
	int key = o->sheet == 2;
	char *title = NULL, *sub = NULL, heading[160];
	size_t slen = 0;
	FILE *s = open_memstream(&sub, &slen);
	if (!s) /* open_memstream fails only when memory runs out */
		abort();
	title = cli_quiz_title(qr, sentence);
	if (key)
		fprintf(s, _("seed %" PRIu64 " (attn-trace quiz --worksheet "
			     "--seed=%" PRIu64 " and the same options give the "
			     "questions)"), o->seed, o->seed);
	else
		fprintf(s, _("seed %" PRIu64 " (attn-trace quiz --key --seed=%"
			     PRIu64 " and the same options give the answers)"),
			o->seed, o->seed);
	char wif[FMT_WHATIF_NOTE];
	if (!qr->gq && fmt_whatif_note(qr->trs[0], wif, sizeof wif))
		fprintf(s, "; %s", wif); /* --set */
	fclose(s);
	int rc = quiz_sheet_begin(stdout, o->format, key, title, sub);
	struct cli_sheet_step at[CLI_QUIZ_MAX_COUNT];
	for (int j = 0; j < o->count && rc == 0; j++) {
		struct quiz_question q;
		if (cli_sheet_make(qr, &state, j, &q, heading, sizeof heading,
				   at) != 0) {
			rc = -1;
			break;
		}
		rc = quiz_sheet_item(stdout, o->format, key, j + 1, heading, &q);
	}
	if (rc == 0)
		rc = quiz_sheet_end(stdout, o->format);
	free(title);
	free(sub);
	if (rc == 0)
		return cli_flush();
	cli_flush(); /* says what failed to be written, if that was it */
	return EXIT_DATA;
}

/* The questions in turn, then the score.  Returns the exit status. */
static int cli_quiz_loop(struct cli_quiz_run *qr, const char *sentence)
{
	const struct cli_quiz_opts *o = qr->o;
	uint64_t state = o->seed;
	int rc = 1, j;
	cli_quiz_header(qr, sentence);
	for (j = 0; j < o->count && rc > 0; j++) {
		rc = cli_quiz_question(qr, &state, j);
		if (rc < 0 || cli_flush() != EXIT_OK)
			return EXIT_DATA;
	}
	if (o->answers)
		return cli_flush();
	if (rc == 0)
		printf(ngettext("The quiz stopped after %d of %d question.\n",
				"The quiz stopped after %d of %d questions.\n",
				(unsigned long)o->count),
		       qr->asked, o->count);
	printf(_("\nscore: %d of %d\n"), qr->right, qr->asked);

	return cli_flush();
}

/* The glimpse quiz's kinds from their table, "place, draw, ... and
 * reinforce", into buf. */
static char *cli_quiz_kinds(char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int k = 0; k < GLIMPSE_QUIZ_COUNT && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      k == 0 ? "" : k == GLIMPSE_QUIZ_COUNT - 1
				      ? _(" and ") : _(", "),
				      glimpse_quiz_name(k));
	return buf;
}

/* The quiz on a glimpse model's trace of the image argv[optind], its
 * places drawn with --seed.  Returns the exit status. */
static int cli_quiz_glimpse(const struct cli_quiz_opts *o, int argc,
			    char **argv)
{
	static struct glimpse_model m;
	static struct pgm_image im;
	static struct glimpse_trace tr;
	struct errbuf err;
	if (o->word_only)
		return cli_usage_errorf("%s asks about a model of words; %s "
					"is a glimpse model", o->word_only,
					o->model_path);
	char kinds[160];
	if (o->stages_given)
		return cli_usage_errorf("--stage: a glimpse model's questions "
					"are %s", cli_quiz_kinds(kinds,
								 sizeof kinds));
	if (argc - optind != 1)
		return cli_usage_error("a glimpse quiz asks about one image: "
				       "give its PGM file");
	if (glimpse_model_load(&m, o->model_path, &err) != 0 ||
	    pgm_load(&im, argv[optind], &err) != 0) {
		cli_messagef("%s", err.msg);
		return EXIT_DATA;
	}
	uint64_t rng = o->seed;
	glimpse_run(&m, &im, GLIMPSE_SAMPLE, &rng, NULL, -1, &tr);
	tr.seed = o->seed;
	struct glimpse_quiz_src src = { &m, &im, &tr };
	const char *name = strcmp(argv[optind], "-") == 0 ? "standard input"
							  : argv[optind];
	struct cli_quiz_run qr = { .o = o, .echo = !isatty(STDIN_FILENO),
				   .gq = &src, .image = name,
				   .gmodel = o->model_path };
	return o->sheet ? cli_quiz_sheet(&qr, name) : cli_quiz_loop(&qr, name);
}

int cli_quiz(int argc, char **argv)
{
	struct cli_quiz_opts o;
	int rc = cli_quiz_parse(&o, argc, argv);
	if (rc != 0)
		return rc < 0 ? cli_flush() : rc;
	if (o.model_path && glimpse_model_is(o.model_path) &&
	    cli_set_refuse(&o.set, _("a glimpse model's quiz asks about its "
				     "glimpses, which --set does not edit")))
		return EXIT_USAGE;
	if (o.arch == ARCH_ALL && cli_set_refuse(&o.set, _("--arch=all asks "
			"about the built-in model of each architecture, and "
			"--set edits one")))
		return EXIT_USAGE;
	if (o.model_path && glimpse_model_is(o.model_path))
		return cli_quiz_glimpse(&o, argc, argv);
	char kinds[160];
	if (o.gkinds)
		return cli_usage_errorf("--stage: %s ask about a glimpse model "
					"(--model=glimpse6)",
					cli_quiz_kinds(kinds, sizeof kinds));
	if (o.arch == ARCH_ALL && o.model_path) {
		return cli_usage_error("--arch=all asks about the built-in model "
				       "of each architecture; drop --model");
	}
	char *sentence = cli_join(argc, argv, optind, CLI_QUIZ_SENTENCE);
	struct model m[ARCH_COUNT];
	struct trace tr[ARCH_COUNT];
	struct cli_quiz_run qr = { .o = &o, .echo = !isatty(STDIN_FILENO) };
	int ntr = o.arch == ARCH_ALL ? ARCH_COUNT : 1;
	for (rc = EXIT_OK; rc == EXIT_OK && qr.ntr < ntr; qr.ntr++) {
		rc = cli_quiz_build(&o, ntr > 1 ? qr.ntr : o.arch, sentence,
				    &m[qr.ntr], &tr[qr.ntr], &o.set);
		qr.trs[qr.ntr] = &tr[qr.ntr];
	}
	if (rc == EXIT_OK)
		rc = o.sheet ? cli_quiz_sheet(&qr, sentence)
			     : cli_quiz_loop(&qr, sentence);
	else
		qr.ntr--; /* the last one failed and freed its model */
	for (int k = 0; k < qr.ntr; k++) {
		trace_free(&tr[k]);
		model_free(&m[k]);
	}
	free(sentence);
	return rc;
}
