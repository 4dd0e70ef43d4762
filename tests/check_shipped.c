/* check_shipped.c: the model that ships built into attn-trace (toy4,
 * trained from data/toy.pairs by `make toy-model`) does what issues 6 and
 * 12 ask of it, with each registered scorer:
 *
 *   - greedy decoding of every source sentence of data/toy.pairs writes
 *     exactly its target, then </s>;
 *   - "je suis étudiant", decoded greedily, says "i am a student" looking
 *     hardest at je, suis, étudiant, étudiant;
 *   - under teacher forcing, each English word of every pair of
 *     data/toy.pairs and of data/heldout.pairs (which training never saw)
 *     looks hardest (the largest α) at the French word it translates, so
 *     the attention of "zone économique européenne ||| european economic
 *     area" crosses over.
 *
 * The translations below are written from the meaning of the words, not
 * read from the program or from the files' gold alignments.  The files
 * are read from $srcdir here, with a reader of its own, not with the
 * trainer's. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "selection.h"
#include "tok.h"
#include "trace.h"
#include "window.h"

#define MAX_PAIRS 64
#define MAX_LINE 512

struct pair {
	const char *file; /* "toy.pairs" or "heldout.pairs" */
	int line;
	char src[MAX_LINE];
	char tgt[MAX_LINE];
};

static struct pair P[MAX_PAIRS];
static int NP, NTRAIN; /* pairs, and how many of them are training pairs */
static struct model M;

/* Copies s into out (MAX_LINE bytes) without its leading and trailing
 * blanks. */
static void trimmed(char *out, const char *s)
{
	size_t n;
	s += strspn(s, " \t");
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	snprintf(out, MAX_LINE, "%.*s", (int)n, s);
}

/* Reads $srcdir/data/NAME: "source ||| target ||| alignment" lines,
 * '#' comments, blank lines; appends its pairs to P. */
static void read_pairs(const char *name)
{
	const char *dir = getenv("srcdir");
	char path[4096], buf[MAX_LINE];
	snprintf(path, sizeof path, "%s/data/%s", dir ? dir : ".", name);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	for (int line = 1; fgets(buf, sizeof buf, f); line++) {
		char *hash = strchr(buf, '#'), *bar;
		if (hash)
			*hash = '\0';
		buf[strcspn(buf, "\r\n")] = '\0';
		if (strspn(buf, " \t") == strlen(buf))
			continue;
		bar = strstr(buf, "|||");
		ck_assert_msg(bar != NULL, "%s:%d: no |||", path, line);
		ck_assert_int_lt(NP, MAX_PAIRS);
		*bar = '\0';
		P[NP].line = line;
		P[NP].file = name;
		trimmed(P[NP].src, buf);
		bar += 3; /* the target, then the gold alignment, not used here */
		if (strstr(bar, "|||"))
			*strstr(bar, "|||") = '\0';
		trimmed(P[NP].tgt, bar);
		NP++;
	}
	fclose(f);
}

static void setup(void)
{
	struct errbuf err;
	NP = 0;
	read_pairs("toy.pairs");
	NTRAIN = NP;
	read_pairs("heldout.pairs");
	ck_assert_msg(model_load_builtin(&M, &err) == 0, "%s", err.msg);
}

static void teardown(void)
{
	model_free(&M);
}

/* Splits s on blanks into words[] (at most max); returns the count. */
static int split(char *s, char **words, int max)
{
	int n = 0;
	for (char *w = strtok(s, " \t"); w && n < max; w = strtok(NULL, " \t"))
		words[n++] = w;
	return n;
}

/* The position (from 0) of the largest weight of α_t in run r. */
static int largest(const struct trace *tr, int r, int t)
{
	const struct trace_rec *a = trace_find(tr, REC_SOFTMAX, r, t, 0);
	ck_assert_ptr_nonnull(a);
	int best = 0;
	for (int i = 1; i < tr->n; i++)
		if (a->result[i] > a->result[best])
			best = i;
	return best;
}

START_TEST(test_corpus_is_there)
{
	/* 22 sentences "subject verb profession", 8 three-word and 8
	 * two-word noun phrases */
	ck_assert_int_eq(NTRAIN, 38);
	ck_assert_int_eq(NP - NTRAIN, 17);
	ck_assert_str_eq(M.name, "<built-in toy4.model>");
	ck_assert_int_eq(M.E, 4);
}
END_TEST

/* Greedy decoding reproduces each pair's target, then </s>, with scorer
 * _i (dot, general, concat). */
/* 1 if the built-in model has no weights of scorer sc: a scorer added
 * after it was last trained (make toy-model trains them in), which these
 * tests then skip. */
static int toy4_lacks(int sc)
{
	return !(model_scorers(&M) & (1u << sc));
}

START_TEST(test_greedy_reproduces_every_pair)
{
	if (toy4_lacks(_i))
		return;
	for (int k = 0; k < NTRAIN; k++) {
		struct trace tr;
		struct errbuf err;
		char tgt[MAX_LINE], *want[64];
		ck_assert_msg(tok_trace(&tr, &M, P[k].src, NULL, 1u << _i, NULL,
					&err) == 0, "line %d: %s", P[k].line,
			      err.msg);
		snprintf(tgt, sizeof tgt, "%s", P[k].tgt);
		int n = split(tgt, want, 64);
		const struct trace_run *run = &tr.runs[0];
		ck_assert_int_eq(run->scorer, _i);
		ck_assert_msg(run->nsteps == n + 1 && run->stopped,
			      "line %d, %s: %d steps for %d words", P[k].line,
			      trace_scorer_name(_i), run->nsteps, n);
		for (int j = 0; j < n; j++)
			ck_assert_msg(strcmp(M.tgt.words[run->pred[j]],
					     want[j]) == 0,
				      "line %d, %s: word %d is %s, not %s",
				      P[k].line, trace_scorer_name(_i), j + 1,
				      M.tgt.words[run->pred[j]], want[j]);
		ck_assert_int_eq(run->pred[n], M.eos);
		trace_free(&tr);
	}
}
END_TEST

/* What each English word means in French, written here by hand, apart
 * from the alignments of data/toy.pairs; "a" and "an" are left out, as
 * they have no word of their own in French. */
static const struct {
	const char *en, *fr;
} DICT[] = {
	{ "i", "je" },
	{ "he", "il" },
	{ "she", "elle" },
	{ "am", "suis" },
	{ "is", "est" },
	{ "remain", "reste" },
	{ "remains", "reste" },
	{ "become", "deviens" },
	{ "becomes", "devient" },
	{ "student", "étudiant" },
	{ "artist", "artiste" },
	{ "engineer", "ingénieur" },
	{ "doctor", "médecin" },
	{ "european", "européenne" },
	{ "economic", "économique" },
	{ "social", "sociale" },
	{ "agricultural", "agricole" },
	{ "central", "centrale" },
	{ "area", "zone" },
	{ "policy", "politique" },
	{ "region", "région" },
	{ "bank", "banque" },
};

static const char *translate(const char *en)
{
	for (size_t k = 0; k < sizeof DICT / sizeof DICT[0]; k++)
		if (strcmp(DICT[k].en, en) == 0)
			return DICT[k].fr;
	return NULL;
}

/* Checks, with scorer, that each target word of src ||| tgt but "a" and
 * "an" looks hardest at its translation (DICT). */
static void check_alignment(const char *src, const char *tgt, int scorer,
			    const char *file, int line)
{
	char sbuf[MAX_LINE], tbuf[MAX_LINE], *sw[64], *tw[64];
	snprintf(sbuf, sizeof sbuf, "%s", src);
	snprintf(tbuf, sizeof tbuf, "%s", tgt);
	int n = split(sbuf, sw, 64), m = split(tbuf, tw, 64);
	struct trace tr;
	struct errbuf err;
	ck_assert_msg(tok_trace(&tr, &M, src, tgt, 1u << scorer, NULL, &err) == 0,
		      "%s:%d: %s", file, line, err.msg);
	ck_assert_int_eq(tr.n, n);
	for (int j = 0; j < m; j++) {
		const char *fr = translate(tw[j]);
		if (strcmp(tw[j], "a") == 0 || strcmp(tw[j], "an") == 0)
			continue;
		ck_assert_msg(fr != NULL, "%s:%d: no translation of %s",
			      file, line, tw[j]);
		int got = largest(&tr, 0, j + 1);
		ck_assert_msg(strcmp(sw[got], fr) == 0, "%s:%d, %s: %s looks "
			      "hardest at %s, not at %s", file, line,
			      trace_scorer_name(scorer), tw[j], sw[got], fr);
	}
	trace_free(&tr);
}

/* The word-order pair of the issue: the first English word looks at the
 * last French word, the last at the first. */
START_TEST(test_word_order_pair_crosses_over)
{
	if (toy4_lacks(_i))
		return;
	const char *src = "zone économique européenne";
	const char *tgt = "european economic area";
	int line = 0;
	for (int k = 0; k < NTRAIN; k++)
		if (strcmp(P[k].src, src) == 0 && strcmp(P[k].tgt, tgt) == 0)
			line = P[k].line;
	ck_assert_msg(line > 0, "the pair is not in data/toy.pairs");
	check_alignment(src, tgt, _i, "toy.pairs", line);
}
END_TEST

/* The first example of the README and the stepper, "je suis étudiant",
 * greedily decoded (no --target, as a newcomer first runs it): je -> i,
 * suis -> am, étudiant -> student, and "a" looks at étudiant too. */
START_TEST(test_default_sentence_aligns)
{
	struct trace tr;
	struct errbuf err;
	if (toy4_lacks(_i))
		return;
	static const char *const want[] = { "i", "am", "a", "student" };
	static const int at[] = { 0, 1, 2, 2 };
	ck_assert_msg(tok_trace(&tr, &M, "je suis étudiant", NULL, 1u << _i, NULL,
				&err) == 0, "%s", err.msg);
	ck_assert_int_eq(tr.runs[0].nsteps, 5);
	for (int t = 1; t <= 4; t++) {
		ck_assert_str_eq(M.tgt.words[tr.runs[0].pred[t - 1]],
				 want[t - 1]);
		ck_assert_msg(largest(&tr, 0, t) == at[t - 1],
			      "%s: %s looks hardest at word %d, not %d",
			      trace_scorer_name(_i), want[t - 1],
			      largest(&tr, 0, t) + 1, at[t - 1] + 1);
	}
	trace_free(&tr);
}
END_TEST

/* The same for every pair of the corpus, and of data/heldout.pairs,
 * which training never saw. */
START_TEST(test_every_pair_aligns)
{
	if (toy4_lacks(_i))
		return;
	for (int k = 0; k < NP; k++)
		check_alignment(P[k].src, P[k].tgt, _i, P[k].file,
				P[k].line);
}
END_TEST

/* localp4, the built-in model of the local-p window (D = 1, make
 * localp-model), traced through it with scorer _i: greedy decoding
 * reproduces every training pair, and on "zone économique européenne"
 * p_t walks backwards, as the English words of the noun phrase reverse
 * the French ones: european (européenne, word 3), economic (économique,
 * 2), area (zone, 1); so p_1 > p_2 > p_3, and the Gaussian around p_t
 * gives its largest weight to words 3, 2, 1 in turn. */
START_TEST(test_localp4)
{
	static const char *const want[] = { "european", "economic", "area" };
	const struct trace_cfg cfg = { .window = WINDOW_local_p, .window_size = 1 };
	struct model m;
	struct errbuf err;
	struct trace tr;

	ck_assert_msg(model_load_named(&m, "localp4", &err) == 0, "%s",
		      err.msg);
	if (!(model_scorers(&m) & (1u << _i))) {
		model_free(&m);
		return;
	}
	for (int k = 0; k < NTRAIN; k++) {
		char tgt[MAX_LINE], *words[64];
		ck_assert_msg(tok_trace(&tr, &m, P[k].src, NULL, 1u << _i, &cfg,
					&err) == 0, "line %d: %s", P[k].line,
			      err.msg);
		snprintf(tgt, sizeof tgt, "%s", P[k].tgt);
		int n = split(tgt, words, 64);
		const struct trace_run *run = &tr.runs[0];
		ck_assert_msg(run->nsteps == n + 1 && run->stopped,
			      "localp4 line %d, %s: %d steps for %d words",
			      P[k].line, trace_scorer_name(_i), run->nsteps, n);
		for (int j = 0; j < n; j++)
			ck_assert_msg(strcmp(m.tgt.words[run->pred[j]],
					     words[j]) == 0,
				      "localp4 line %d, %s: word %d is %s, not %s",
				      P[k].line, trace_scorer_name(_i), j + 1,
				      m.tgt.words[run->pred[j]], words[j]);
		trace_free(&tr);
	}
	ck_assert_int_eq(tok_trace(&tr, &m, "zone économique européenne",
				   NULL, 1u << _i, &cfg, &err), 0);
	double p[4];
	for (int t = 1; t <= 3; t++) {
		const struct trace_rec *r = trace_find(&tr, REC_POSITION, 0,
						       t, 0);
		const struct trace_rec *a = trace_find(&tr, REC_GAUSS, 0, t, 0);
		ck_assert_ptr_nonnull(r);
		ck_assert_ptr_nonnull(a);
		p[t] = r->result[0];
		ck_assert_str_eq(m.tgt.words[tr.runs[0].pred[t - 1]],
				 want[t - 1]);
		/* the Gaussian peaks at the word nearest p_t: 3, 2, 1 */
		const struct trace_operand *g = NULL;
		for (int o = 0; o < a->nops; o++)
			if (a->ops[o].key && strcmp(a->ops[o].key, "gauss") == 0)
				g = &a->ops[o];
		ck_assert_ptr_nonnull(g);
		int best = 0;
		for (int j = 1; j < tr.n; j++)
			if (g->v[j] > g->v[best])
				best = j;
		ck_assert_int_eq(best + 1, 4 - t);
	}
	ck_assert_msg(p[1] > p[2] && p[2] > p[3], "p_t = %g, %g, %g", p[1],
		      p[2], p[3]);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* feed4, the built-in model with input feeding (make feed-model), with
 * scorer _i: greedy decoding, which feeds each h̃_t to the next step,
 * reproduces every training pair. */
START_TEST(test_feed4_reproduces_every_pair)
{
	struct model m;
	struct errbuf err;
	struct trace tr;

	ck_assert_msg(model_load_named(&m, "feed4", &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(m.input_feeding, 1);
	if (!(model_scorers(&m) & (1u << _i))) {
		model_free(&m);
		return;
	}
	for (int k = 0; k < NTRAIN; k++) {
		char tgt[MAX_LINE], *words[64];
		ck_assert_msg(tok_trace(&tr, &m, P[k].src, NULL, 1u << _i, NULL,
					&err) == 0, "line %d: %s", P[k].line,
			      err.msg);
		snprintf(tgt, sizeof tgt, "%s", P[k].tgt);
		int n = split(tgt, words, 64);
		const struct trace_run *run = &tr.runs[0];
		ck_assert_msg(run->nsteps == n + 1 && run->stopped,
			      "feed4 line %d, %s: %d steps for %d words",
			      P[k].line, trace_scorer_name(_i), run->nsteps, n);
		for (int j = 0; j < n; j++)
			ck_assert_msg(strcmp(m.tgt.words[run->pred[j]],
					     words[j]) == 0,
				      "feed4 line %d, %s: word %d is %s, not %s",
				      P[k].line, trace_scorer_name(_i), j + 1,
				      m.tgt.words[run->pred[j]], words[j]);
		trace_free(&tr);
	}
	model_free(&m);
}
END_TEST

/* ---- hard4 (data/hard4.model, `make hard-model`): toy4's recipe trained
 * with train --hard.  Under --hard=argmax (each step's context is the
 * state of the word with the largest α) greedy decoding writes the target
 * of every training pair, with every scorer; and the word-order pair
 * crosses over with dot, general, concat and scaled (location puts
 * "european" on économique: data/README.md). */
static void setup_hard(void)
{
	struct errbuf err;
	NP = 0;
	read_pairs("toy.pairs");
	NTRAIN = NP;
	ck_assert_msg(model_load_named(&M, "hard4", &err) == 0, "%s",
		      err.msg);
}

START_TEST(test_hard4_argmax_reproduces_every_pair)
{
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	if (toy4_lacks(_i))
		return;
	cfg.selection = SELECTION_hard;
	cfg.hard_rule = 1;
	for (int k = 0; k < NTRAIN; k++) {
		struct trace tr;
		struct errbuf err;
		char tgt[MAX_LINE], *want[64];
		ck_assert_msg(tok_trace(&tr, &M, P[k].src, NULL, 1u << _i, &cfg,
					&err) == 0, "line %d: %s", P[k].line,
			      err.msg);
		ck_assert_int_eq(tr.cfg.selection, SELECTION_hard);
		snprintf(tgt, sizeof tgt, "%s", P[k].tgt);
		int n = split(tgt, want, 64);
		const struct trace_run *run = &tr.runs[0];
		ck_assert_msg(run->nsteps == n + 1 && run->stopped,
			      "line %d, %s: %d steps for %d words", P[k].line,
			      trace_scorer_name(_i), run->nsteps, n);
		for (int j = 0; j < n; j++)
			ck_assert_msg(strcmp(M.tgt.words[run->pred[j]],
					     want[j]) == 0,
				      "line %d, %s: word %d is %s, not %s",
				      P[k].line, trace_scorer_name(_i), j + 1,
				      M.tgt.words[run->pred[j]], want[j]);
		ck_assert_int_eq(run->pred[n], M.eos);
		trace_free(&tr);
	}
}
END_TEST

START_TEST(test_hard4_word_order_pair_crosses_over)
{
	if (toy4_lacks(_i) || _i == SCORER_location)
		return;
	check_alignment("zone économique européenne",
			"european economic area", _i, "toy.pairs", 0);
}
END_TEST


static Suite *shipped_suite(void)
{
	Suite *s = suite_create("shipped");
	TCase *tc = tcase_create("toy4");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_corpus_is_there);
	tcase_add_loop_test(tc, test_greedy_reproduces_every_pair, 0,
			    SCORER_COUNT);
	tcase_add_loop_test(tc, test_word_order_pair_crosses_over, 0,
			    SCORER_COUNT);
	tcase_add_loop_test(tc, test_default_sentence_aligns, 0,
			    SCORER_COUNT);
	tcase_add_loop_test(tc, test_every_pair_aligns, 0, SCORER_COUNT);
	tcase_add_loop_test(tc, test_localp4, 0, SCORER_COUNT);
	tcase_add_loop_test(tc, test_feed4_reproduces_every_pair, 0,
			    SCORER_COUNT);
	suite_add_tcase(s, tc);
	tc = tcase_create("hard4");
	tcase_add_checked_fixture(tc, setup_hard, teardown);
	tcase_add_loop_test(tc, test_hard4_argmax_reproduces_every_pair, 0,
			    SCORER_COUNT);
	tcase_add_loop_test(tc, test_hard4_word_order_pair_crosses_over, 0,
			    SCORER_COUNT);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(shipped_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
