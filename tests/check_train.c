/* check_train.c: training.  The analytic gradient of every block of
 * weights against central differences, the loss against the trace's own
 * forward pass, learning a small corpus, the pairs file's errors, the
 * determinism and round trip of the written model, and train_greedy
 * against trace.c on the trained toy model that ships in data/ (what that
 * model decodes and where it looks is tests/check_shipped.c). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "model.h"
#include "selection.h"
#include "trace.h"
#include "train.h"
#include "train_simd.h"
#include "window.h"

/* A corpus for the gradient check: unequal lengths, a repeated word, and
 * a target word ("z") that is never fed to the decoder. */
static const char grad_pairs[] =
	"a b c ||| x y\n"
	"b a ||| y z x\n"
	"c ||| z\n"
	"c c a b ||| x\n";

static const char two_pairs[] =
	"je suis étudiant ||| i am a student\n"
	"zone économique européenne ||| european economic area\n";

static void parse_ok(struct train_data *d, const char *text,
		     const struct model *init)
{
	struct errbuf err;
	if (train_pairs_parse(d, text, strlen(text), "p", init, &err) != 0)
		ck_abort_msg("cannot parse the pairs: %s", err.msg);
}

/* ------------------------------------------------------ gradient check */

/* The largest relative error |a - n| / max(|a|, |n|, 1e-4) over block b
 * between the analytic gradient a and the central difference n.  The
 * floor is the central difference's own noise: with h = 1e-5 the loss's
 * rounding (about 1e-16 of a loss summed over every scorer) becomes some
 * 1e-10 of the difference, so a gradient entry of 1e-6 cannot be checked
 * to 1e-5 of itself. */
static double block_error(struct trainer *t, const struct train_data *d,
			  unsigned scorers, int b)
{
	const double h = 1e-5;
	double worst = 0.0;
	for (size_t k = t->lay.off[b]; k < t->lay.off[b] + t->lay.len[b];
	     k++) {
		double save = t->theta[k];
		t->theta[k] = save + h;
		double up = train_loss(&t->lay, t->theta, NULL, d, scorers,
				       &t->work, NULL);
		t->theta[k] = save - h;
		double down = train_loss(&t->lay, t->theta, NULL, d, scorers,
					 &t->work, NULL);
		t->theta[k] = save;
		double num = (up - down) / (2 * h), a = t->grad[k];
		double scale = fmax(fmax(fabs(a), fabs(num)), 1e-4);
		worst = fmax(worst, fabs(a - num) / scale);
	}
	return worst;
}

/* The same corpus with gold alignments: a target word linked to two
 * source words ("x" of the first pair), a word linked to none ("z" of the
 * second), a pair without an alignment, and a link to the last word. */
static const char grad_aligned_pairs[] =
	"a b c ||| x y ||| 1-1 3-1 2-2\n"
	"b a ||| y z x ||| 1-1 2-3\n"
	"c ||| z\n"
	"c c a b ||| x ||| 4-1\n";

/* Checks every block of a model of architecture arch and sizes E, H, A
 * with the scorers of scorers, every weight random in [-1, 1], on the
 * pairs text with the guided-alignment weight lambda. */
static void grad_check_on(const char *text, double lambda, int arch, int E,
			  int H, int A, unsigned scorers, const char *label)
{
	struct train_data d;
	struct trainer t;
	uint64_t state = 12345;

	parse_ok(&d, text, NULL);
	train_init_random_arch(&t, &d, arch, E, H, A, 8, SCORER_ALL, 7);
	t.work.align_weight = lambda;
	for (size_t k = 0; k < t.lay.total; k++)
		t.theta[k] = train_rand_uniform(&state, -1.0, 1.0);
	train_loss(&t.lay, t.theta, t.grad, &d, scorers, &t.work, NULL);
	printf("gradient check E=%d H=%d A=%d %-7s", E, H, A, label);
	for (int b = 0; b < t.lay.nblocks; b++) {
		double err = block_error(&t, &d, scorers, b);
		printf(" %s %.1e", train_block_name(&t.lay, b), err);
		ck_assert_msg(err < 1e-5, "%s, block %s: relative error %g",
			      label, train_block_name(&t.lay, b), err);
	}
	putchar('\n');
	train_free(&t);
	train_data_free(&d);
}

static void grad_check(int E, int H, int A, unsigned scorers,
		       const char *label)
{
	grad_check_on(grad_pairs, 0.0, ARCH_luong, E, H, A, scorers, label);
}

/* Every registered scorer, alone: a loop test over the registry, so a
 * new scorer is checked without a line here. */
START_TEST(test_grad_each_scorer)
{
	grad_check(3, 2, 2, 1u << _i, scorer_get(_i)->name);
}
END_TEST

/* The guided-alignment term's gradient, for every scorer alone. */
START_TEST(test_grad_aligned_each_scorer)
{
	grad_check_on(grad_aligned_pairs, 0.7, ARCH_luong, 3, 2, 2, 1u << _i,
		      scorer_get(_i)->name);
}
END_TEST

/* The same in Bahdanau's architecture. */
START_TEST(test_grad_aligned_bahdanau)
{
	grad_check_on(grad_aligned_pairs, 0.7, ARCH_bahdanau, 3, 4, 2,
		      1u << _i, scorer_get(_i)->name);
}
END_TEST

START_TEST(test_grad_all)
{
	grad_check(3, 2, 2, SCORER_ALL, "all");
}
END_TEST

/* Bahdanau's architecture: the bidirectional encoder, W_init, the
 * decoder fed c_t (so the context changes later states), W_o, with each
 * scorer (its query s_{t-1}) and with all of them */
START_TEST(test_grad_bahdanau_each_scorer)
{
	if (_i < SCORER_COUNT)
		grad_check_on(grad_pairs, 0.0, ARCH_bahdanau, 3, 4, 2,
			      1u << _i, scorer_get(_i)->name);
	else
		grad_check_on(grad_pairs, 0.0, ARCH_bahdanau, 5, 6, 3,
			      SCORER_ALL, "bahdanau all");
}
END_TEST

START_TEST(test_grad_all_other_shape)
{
	/* every size different, so that no two shapes can be confused */
	grad_check(5, 3, 4, SCORER_ALL, "all");
}
END_TEST

/* A scorer that has no say in the loss gets no gradient. */
START_TEST(test_grad_unused_scorer_zero)
{
	struct train_data d;
	struct trainer t;
	parse_ok(&d, grad_pairs, NULL);
	train_init_random(&t, &d, 3, 2, 2, 8, SCORER_ALL, 3);
	train_loss(&t.lay, t.theta, t.grad, &d, 1u << SCORER_dot, &t.work,
		   NULL);
	for (int b = 0; b < t.lay.nblocks; b++) {
		if (t.lay.block[b].scorer < 0)
			continue;
		for (size_t k = 0; k < t.lay.len[b]; k++)
			ck_assert(t.grad[t.lay.off[b] + k] == 0.0);
	}
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* ------------------------------------------- the loss against the trace */

/* The mean cross-entropy of scorer run of the teacher-forced traces of
 * every pair, from the probabilities that trace.c records. */
static double trace_loss(const struct model *m, const struct train_data *d,
			 enum scorer sc)
{
	double sum = 0.0;
	for (int k = 0; k < d->n; k++) {
		const struct train_pair *p = &d->pairs[k];
		struct trace tr;
		struct errbuf err;
		ck_assert_int_eq(trace_build(&tr, m, p->src, p->nsrc, p->tgt,
					     p->ntgt, 1u << sc, NULL, &err), 0);
		for (int t = 1; t <= p->ntgt + 1; t++) {
			const struct trace_rec *r =
				trace_find(&tr, REC_OUTPUT, 0, t, 0);
			int gold = t <= p->ntgt ? p->tgt[t - 1] : m->eos;
			sum -= log(r->result[gold]);
		}
		trace_free(&tr);
	}
	return sum / d->ntokens;
}

START_TEST(test_loss_matches_trace)
{
	struct train_data d;
	struct trainer t;
	struct train_stats st;
	struct model v;
	parse_ok(&d, grad_pairs, NULL);
	train_init_random(&t, &d, 3, 2, 2, 8, SCORER_ALL, 11);
	train_view(&v, &t.lay, t.theta, &d);
	double all = train_loss(&t.lay, t.theta, NULL, &d, SCORER_ALL,
				&t.work, &st);
	double sum = 0.0;
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		double ref = trace_loss(&v, &d, sc);
		ck_assert_double_eq_tol(st.loss_of[sc], ref, 1e-12);
		sum += ref;
	}
	ck_assert_double_eq_tol(all, sum, 1e-12);
	ck_assert_double_eq_tol(st.loss, sum / SCORER_COUNT, 1e-12);
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* In Bahdanau's architecture too, the loss is that of the traces (whose
 * numbers torch_check and ref_compare check), and greedy decoding picks
 * the trace's words and weights. */
START_TEST(test_bahdanau_matches_trace)
{
	struct train_data d;
	struct trainer t;
	struct train_stats st;
	struct model v;
	parse_ok(&d, grad_pairs, NULL);
	train_init_random_arch(&t, &d, ARCH_bahdanau, 3, 4, 2, 8, SCORER_ALL,
			       11);
	train_view(&v, &t.lay, t.theta, &d);
	ck_assert_int_eq(v.arch, ARCH_bahdanau);
	train_loss(&t.lay, t.theta, NULL, &d, SCORER_ALL, &t.work, &st);
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		ck_assert_double_eq_tol(st.loss_of[sc], trace_loss(&v, &d, sc),
					1e-12);
	for (int k = 0; k < d.n; k++) {
		const struct train_pair *p = &d.pairs[k];
		struct trace tr;
		struct errbuf err;
		int out[2 * TRAIN_MAX_WORDS + 2];
		double alpha[(2 * TRAIN_MAX_WORDS + 2) * TRAIN_MAX_WORDS];
		ck_assert_int_eq(trace_build(&tr, &v, p->src, p->nsrc, NULL, 0,
					     SCORER_ALL, NULL, &err), 0);
		ck_assert_int_eq(tr.nruns, SCORER_COUNT);
		for (int r = 0; r < tr.nruns; r++) {
			int n = train_greedy(&v, p->src, p->nsrc, r, out,
					     2 * TRAIN_MAX_WORDS + 2, alpha,
					     &t.work);
			ck_assert_int_eq(n, tr.runs[r].nsteps);
			for (int j = 0; j < n; j++) {
				const struct trace_rec *a = trace_find(
					&tr, REC_SOFTMAX, r, j + 1, 0);
				ck_assert_int_eq(out[j], tr.runs[r].pred[j]);
				for (int i = 0; i < p->nsrc; i++)
					ck_assert_double_eq_tol(
						alpha[j * p->nsrc + i],
						a->result[i], 1e-12);
			}
		}
		trace_free(&tr);
	}
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* The guided-alignment term, from the α that trace.c records: for each
 * target word with gold links G, -log Σ_{i in G} α_t,i, summed over the
 * pairs and divided by the count of predictions. */
static double trace_align_term(const struct model *m,
			       const struct train_data *d, enum scorer sc)
{
	double sum = 0.0;
	for (int k = 0; k < d->n; k++) {
		const struct train_pair *p = &d->pairs[k];
		struct trace tr;
		struct errbuf err;
		if (!p->gold)
			continue;
		ck_assert_int_eq(trace_build(&tr, m, p->src, p->nsrc, p->tgt,
					     p->ntgt, 1u << sc, NULL, &err), 0);
		for (int t = 1; t <= p->ntgt; t++) {
			const struct trace_rec *r =
				trace_find(&tr, REC_SOFTMAX, 0, t, 0);
			double mass = 0.0;
			int linked = 0;
			for (int i = 0; i < p->nsrc; i++)
				if (p->gold[(t - 1) * p->nsrc + i]) {
					mass += r->result[i];
					linked = 1;
				}
			if (linked)
				sum -= log(mass);
		}
		trace_free(&tr);
	}
	return sum / d->ntokens;
}

/* With --align-weight=λ the loss of each scorer grows by λ times that
 * term, and by nothing at λ = 0. */
START_TEST(test_align_term_matches_trace)
{
	struct train_data d;
	struct trainer t;
	struct train_stats plain, guided;
	struct model v;
	const double lambda = 0.37;
	parse_ok(&d, grad_aligned_pairs, NULL);
	train_init_random(&t, &d, 3, 2, 2, 8, SCORER_ALL, 11);
	train_view(&v, &t.lay, t.theta, &d);
	train_loss(&t.lay, t.theta, NULL, &d, SCORER_ALL, &t.work, &plain);
	t.work.align_weight = lambda;
	train_loss(&t.lay, t.theta, NULL, &d, SCORER_ALL, &t.work, &guided);
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		double term = trace_align_term(&v, &d, sc);
		ck_assert(term > 0.0);
		ck_assert_double_eq_tol(plain.loss_of[sc], trace_loss(&v, &d, sc),
					1e-12);
		ck_assert_double_eq_tol(guided.loss_of[sc],
					plain.loss_of[sc] + lambda * term,
					1e-12);
	}
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* Bahdanau's model learns the two pairs, with each scorer. */
START_TEST(test_bahdanau_learns_two_pairs)
{
	struct train_data d;
	struct trainer t;
	struct train_opts o;
	struct train_stats first, last;
	struct model v;
	parse_ok(&d, two_pairs, NULL);
	train_opts_default(&o);
	o.epochs = 800;
	o.scorers = 1u << _i;
	train_init_random_arch(&t, &d, ARCH_bahdanau, 4, 4, 4, 8, o.scorers,
			       o.seed);
	train_loss(&t.lay, t.theta, NULL, &d, o.scorers, &t.work, &first);
	train_run(&t, &d, &o, NULL, NULL, &last);
	ck_assert_msg(last.loss < first.loss / 10, "%s: loss %g -> %g",
		      scorer_get(_i)->name, first.loss, last.loss);
	train_view(&v, &t.lay, t.theta, &d);
	ck_assert_int_eq(train_count_exact(&v, &d, _i, &t.work), 2);
	ck_assert(train_weights_ok(&t));
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* The hand-set toy model, taken over with --init, gives the loss of its
 * own traces, and the gradient is finite. */
START_TEST(test_init_model)
{
	struct model m;
	struct train_data d;
	struct trainer t;
	struct train_stats st;
	struct errbuf err;
	struct model v;
	ck_assert_int_eq(model_load_named(&m, "handset4", &err), 0);
	parse_ok(&d, two_pairs, &m);
	ck_assert_int_eq(d.tgt.n, m.tgt.n);
	train_init_model(&t, &d, &m, 0, 8, 1, 1);
	train_view(&v, &t.lay, t.theta, &d);
	ck_assert(memcmp(v.Ws, m.Ws, sizeof *m.Ws * (size_t)m.tgt.n * m.H)
		  == 0);
	train_loss(&t.lay, t.theta, t.grad, &d, SCORER_ALL, &t.work, &st);
	ck_assert_double_eq_tol(st.loss_of[SCORER_general],
				trace_loss(&m, &d, SCORER_general), 1e-12);
	ck_assert_double_eq_tol(st.accuracy, 1.0, 1e-12);
	for (size_t k = 0; k < t.lay.total; k++)
		ck_assert(isfinite(t.grad[k]));
	train_free(&t);
	train_data_free(&d);
	model_free(&m);
}
END_TEST

/* ------------------------------------------------------------ learning */

static int count_calls(const struct train_stats *st, void *ctx)
{
	int *calls = ctx;
	ck_assert_int_eq(st->epoch, ++*calls);
	return 0;
}

/* Each registered scorer alone learns the two pairs (a loop test over the
 * registry), and so do the three of the built-in model together. */
START_TEST(test_learns_two_pairs)
{
	struct train_data d;
	struct trainer t;
	struct train_opts o;
	struct train_stats first, last;
	struct model v;
	int calls = 0;
	parse_ok(&d, two_pairs, NULL);
	train_opts_default(&o);
	o.epochs = 800;
	o.scorers = _i < SCORER_COUNT ? 1u << _i
		    : 1u << SCORER_dot | 1u << SCORER_general |
		      1u << SCORER_concat;
	train_init_random(&t, &d, 4, 4, 4, 8, o.scorers, o.seed);
	train_loss(&t.lay, t.theta, NULL, &d, o.scorers, &t.work, &first);
	ck_assert_int_eq(train_run(&t, &d, &o, count_calls, &calls, &last),
			 800);
	ck_assert_int_eq(calls, 800);
	ck_assert_msg(last.loss < first.loss / 10, "loss %g -> %g",
		      first.loss, last.loss);
	ck_assert_double_eq_tol(last.accuracy, 1.0, 1e-12);
	train_view(&v, &t.lay, t.theta, &d);
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if (o.scorers & (1u << sc))
			ck_assert_int_eq(train_count_exact(&v, &d, sc, &t.work),
					 2);
	ck_assert(train_weights_ok(&t));
	train_free(&t);
	train_data_free(&d);
}
END_TEST

START_TEST(test_sgd_loss_falls)
{
	struct train_data d;
	struct trainer t;
	struct train_opts o;
	struct train_stats first, last;
	parse_ok(&d, two_pairs, NULL);
	train_opts_default(&o);
	o.optim = TRAIN_SGD;
	o.lr = 0.5;
	o.epochs = 300;
	train_init_random(&t, &d, 4, 4, 4, 8, SCORER_ALL, 2);
	train_loss(&t.lay, t.theta, NULL, &d, o.scorers, &t.work, &first);
	train_run(&t, &d, &o, NULL, NULL, &last);
	ck_assert_msg(last.loss < 0.7 * first.loss, "loss %g -> %g",
		      first.loss, last.loss);
	train_free(&t);
	train_data_free(&d);
}
END_TEST

static int stop_at_five(const struct train_stats *st, void *ctx)
{
	(void)ctx;
	return st->epoch == 5;
}

START_TEST(test_progress_stops)
{
	struct train_data d;
	struct trainer t;
	struct train_opts o;
	struct train_stats last;
	parse_ok(&d, two_pairs, NULL);
	train_opts_default(&o);
	train_init_random(&t, &d, 4, 4, 4, 8, SCORER_ALL, 1);
	ck_assert_int_eq(train_run(&t, &d, &o, stop_at_five, NULL, &last), 5);
	ck_assert_int_eq(last.epoch, 5);
	ck_assert_int_eq(t.step, 5);
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* Clipping bounds the step: with SGD, one update moves the weights by at
 * most lr * clip. */
START_TEST(test_clip_bounds_step)
{
	struct train_data d;
	struct trainer t;
	struct train_opts o;
	struct train_stats st;
	parse_ok(&d, grad_pairs, NULL);
	train_opts_default(&o);
	o.optim = TRAIN_SGD;
	o.weight_decay = 0.0;
	o.lr = 1.0;
	o.clip = 1e-3;
	train_init_random(&t, &d, 3, 2, 2, 8, SCORER_ALL, 5);
	double *before = malloc(sizeof *before * t.lay.total);
	memcpy(before, t.theta, sizeof *before * t.lay.total);
	train_epoch(&t, &d, &o, &st);
	double sq = 0.0;
	for (size_t k = 0; k < t.lay.total; k++)
		sq += (t.theta[k] - before[k]) * (t.theta[k] - before[k]);
	ck_assert(st.grad_norm > o.clip);
	ck_assert_double_eq_tol(sqrt(sq), o.clip, 1e-12);
	free(before);
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* ---------------------------------------------------------- bad pairs */

static void bad(const char *text, size_t len, const struct model *init,
		const char *want)
{
	struct train_data d;
	struct errbuf err;
	err.msg[0] = '\0';
	ck_assert_int_eq(train_pairs_parse(&d, text, len, "bad.pairs", init,
					   &err), -1);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(d.n, 0);
}

#define BAD(text, want) bad((text), sizeof(text) - 1, NULL, (want))

START_TEST(test_bad_no_separator)
{
	BAD("je suis ||| i am\nje suis étudiant\n",
	    "bad.pairs:2:18: expected \"|||\" between the source and the "
	    "target words, found end of line");
	BAD("je suis étudiant # ||| i am a student\n",
	    "bad.pairs:1:18: expected \"|||\" between the source and the "
	    "target words, found end of line");
}
END_TEST

START_TEST(test_bad_empty_side)
{
	BAD("  ||| i am\n", "bad.pairs:1:3: expected source words before "
	    "\"|||\", found none");
	BAD("je suis |||   \n", "bad.pairs:1:12: expected target words "
	    "after \"|||\", found end of line");
	BAD("je ||| i ||| 1-1 ||| moi\n", "bad.pairs:1:18: expected "
	    "alignment links, found a third \"|||\"");
	BAD("je ||| ||| 1-1\n", "bad.pairs:1:8: expected target words "
	    "after \"|||\", found \"|||\"");
}
END_TEST

START_TEST(test_bad_text)
{
	BAD("je \xC3 ||| i\n", "bad.pairs:1:4: expected UTF-8 text, found "
	    "the byte 0xC3");
	BAD("je ||| i\nje\x07 ||| i\n", "bad.pairs:2:3: expected text, found "
	    "the control character U+0007");
	BAD("je ||| i \xC2\x85\n", "bad.pairs:1:10: expected text, found "
	    "the control character U+0085");
	bad("je\0 ||| i\n", 10, NULL, "bad.pairs:1:3: expected text, found "
	    "a NUL byte");
}
END_TEST

START_TEST(test_bad_word_sizes)
{
	char text[2048];
	memset(text, 'x', 65);
	strcpy(text + 65, " ||| i\n");
	bad(text, strlen(text), NULL, "bad.pairs:1:1: expected a word of at "
	    "most 64 bytes, found one of 65 bytes");
	text[64] = ' '; /* 64 bytes is fine */
	struct train_data d;
	parse_ok(&d, text, NULL);
	train_data_free(&d);
	/* 65 target words */
	strcpy(text, "je |||");
	for (int k = 0; k < 65; k++)
		strcat(text, " w");
	bad(text, strlen(text), NULL, "bad.pairs:1:136: expected at most 64 "
	    "target words, found more");
}
END_TEST

START_TEST(test_bad_reserved_and_empty)
{
	BAD("je suis ||| i am </s>\n", "bad.pairs:1:18: expected a target "
	    "word, found the reserved word \"</s>\"");
	BAD("", "bad.pairs:1:1: expected at least one pair \"source words "
	    "||| target words\", found end of file");
	BAD("# only a comment\n\n   \n", "bad.pairs:4:1: expected at least "
	    "one pair \"source words ||| target words\", found end of file");
}
END_TEST

/* The grammar that trace --batch shares (src/pairs.h): a byte order mark
 * at the start is skipped, not made part of the first word; letters whose
 * UTF-8 holds the bytes 0x80 .. 0x9F (É is C3 89, € E2 82 AC) are text,
 * not C1 controls. */
START_TEST(test_pairs_bom_and_letters)
{
	struct train_data d;
	parse_ok(&d, "\xEF\xBB\xBFje ||| i\n\xC3\x89TUDIANT ||| \xE2\x82\xAC"
		 " # a comment\n", NULL);
	ck_assert_int_eq(d.n, 2);
	ck_assert_int_eq(d.src.n, 2);
	ck_assert_str_eq(d.src.words[0], "je");
	ck_assert_str_eq(d.src.words[1], "\xC3\x89TUDIANT");
	ck_assert_int_eq(d.tgt.n, 4); /* <s>, </s>, i, € */
	ck_assert_str_eq(d.tgt.words[3], "\xE2\x82\xAC");
	train_data_free(&d);
}
END_TEST

/* A line is at most PAIRS_MAX_LINE (65536) bytes, its newline not
 * counted: one more is refused at the first byte past the limit. */
START_TEST(test_pairs_line_limit)
{
	size_t n = 65536;
	char *text = malloc(n + 2);
	ck_assert_ptr_nonnull(text);
	memcpy(text, "je ||| i", 8);
	memset(text + 8, ' ', n - 8);
	text[n] = '\n';
	text[n + 1] = '\0';
	struct train_data d;
	parse_ok(&d, text, NULL);
	ck_assert_int_eq(d.n, 1);
	train_data_free(&d);
	text[n] = ' ';
	text[n + 1] = '\n';
	bad(text, n + 2, NULL, "bad.pairs:1:65537: expected a line of at most "
	    "65536 bytes, found a longer one");
	free(text);
}
END_TEST

/* With --init, a word must be in the model's vocabulary of its side. */
START_TEST(test_bad_word_in_one_vocabulary)
{
	struct model m;
	struct errbuf err;
	ck_assert_int_eq(model_load_builtin(&m, &err), 0);
	const char *one = "je suis student ||| i am\n";
	bad(one, strlen(one), &m, "bad.pairs:1:9: expected a source word of "
	    "<built-in toy4.model>, found \"student\", which is only in its "
	    "target vocabulary");
	const char *two = "je suis ||| i zone\n";
	bad(two, strlen(two), &m, "bad.pairs:1:15: expected a target word of "
	    "<built-in toy4.model>, found \"zone\", which is only in its "
	    "source vocabulary");
	const char *three = "je suis chat ||| i am\n";
	bad(three, strlen(three), &m, "bad.pairs:1:9: expected a source word "
	    "of <built-in toy4.model>, found \"chat\"");
	model_free(&m);
}
END_TEST

/* Blank lines, comments, CRLF and case are all fine. */
START_TEST(test_good_layout)
{
	struct train_data d;
	const char text[] = "\n# a comment\n   \t\nJe suis|||I am # note\r\n"
			    "je SUIS étudiant ||| i am a student\n";
	parse_ok(&d, text, NULL);
	ck_assert_int_eq(d.n, 2);
	ck_assert_int_eq(d.pairs[0].line, 4);
	ck_assert_int_eq(d.pairs[1].line, 5);
	ck_assert_int_eq(d.src.n, 3);
	ck_assert_str_eq(d.src.words[0], "Je"); /* the first spelling */
	ck_assert_str_eq(d.src.words[2], "étudiant");
	ck_assert_int_eq(d.tgt.n, 6);
	ck_assert_str_eq(d.tgt.words[0], "<s>");
	ck_assert_str_eq(d.tgt.words[1], "</s>");
	ck_assert_str_eq(d.tgt.words[2], "I");
	ck_assert_int_eq(d.pairs[1].src[1], 1);
	ck_assert_int_eq(d.pairs[1].tgt[0], 2);
	ck_assert_int_eq(d.max_src, 3);
	ck_assert_int_eq(d.max_tgt, 4);
	ck_assert_int_eq(d.ntokens, 3 + 5);
	train_data_free(&d);
}
END_TEST

/* ------------------------------------------ determinism and round trip */

/* Trains on two_pairs for 50 epochs from seed and returns the model file
 * text, which the caller frees. */
static char *train_text(uint64_t seed)
{
	struct train_data d;
	struct trainer t;
	struct train_opts o;
	struct train_stats st;
	struct model v;
	char *buf = NULL;
	size_t len = 0;
	parse_ok(&d, two_pairs, NULL);
	train_opts_default(&o);
	o.epochs = 50;
	train_init_random(&t, &d, 4, 3, 2, 8, SCORER_ALL, seed);
	train_run(&t, &d, &o, NULL, NULL, &st);
	train_view(&v, &t.lay, t.theta, &d);
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(train_write_model(f, &v, "a test\n\nof two pairs"),
			 0);
	fclose(f);
	train_free(&t);
	train_data_free(&d);
	return buf;
}

START_TEST(test_same_seed_same_bytes)
{
	char *a = train_text(42), *b = train_text(42), *c = train_text(43);
	ck_assert_str_eq(a, b);
	ck_assert_str_ne(a, c);
	ck_assert(strncmp(a, "# a test\n#\n# of two pairs\n", 26) == 0);
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_written_model_round_trips)
{
	char *text = train_text(9), *again = NULL;
	size_t len = 0;
	struct model m;
	struct errbuf err;
	if (model_parse(&m, text, strlen(text), "written", &err) != 0)
		ck_abort_msg("the written model does not load: %s", err.msg);
	ck_assert_int_eq(m.E, 4);
	ck_assert_int_eq(m.H, 3);
	ck_assert_int_eq(m.A, 2);
	FILE *f = open_memstream(&again, &len);
	train_write_model(f, &m, "a test\n\nof two pairs");
	fclose(f);
	ck_assert_str_eq(text, again); /* every double read back exactly */
	model_free(&m);
	free(text);
	free(again);
}
END_TEST

/* --------------------------------------- the trained toy model in data/ */

static void load_toy(struct model *m, struct train_data *d)
{
	const char *dir = getenv("srcdir");
	char path[4096];
	struct errbuf err;
	snprintf(path, sizeof path, "%s/data/toy4.model", dir ? dir : ".");
	if (model_load_file(m, path, &err) != 0)
		ck_abort_msg("cannot load %s: %s", path, err.msg);
	snprintf(path, sizeof path, "%s/data/toy.pairs", dir ? dir : ".");
	if (train_pairs_load(d, path, m, &err) != 0)
		ck_abort_msg("cannot load %s: %s", path, err.msg);
}

/* train_greedy, which the summary and the file header count with, decodes
 * as trace.c does: the same words and the same weights. */
START_TEST(test_greedy_matches_trace)
{
	struct model m, v;
	struct train_data d;
	struct trainer t;
	struct errbuf err;
	load_toy(&m, &d);
	train_init_model(&t, &d, &m, 0, 8, 1, 1);
	train_view(&v, &t.lay, t.theta, &d);
	for (int k = 0; k < d.n; k++) {
		const struct train_pair *p = &d.pairs[k];
		struct trace tr;
		int out[2 * TRAIN_MAX_WORDS + 2];
		double alpha[(2 * TRAIN_MAX_WORDS + 2) * 3];
		ck_assert_int_eq(trace_build(&tr, &m, p->src, p->nsrc, NULL, 0,
					     SCORER_ALL, NULL, &err), 0);
		/* every scorer the model has (a scorer added since it was
		 * trained has no weights in it) */
		int have = 0;
		for (int sc = 0; sc < SCORER_COUNT; sc++)
			have += (model_scorers(&m) >> sc) & 1;
		ck_assert_int_eq(tr.nruns, have);
		for (int r = 0; r < tr.nruns; r++) {
			int n = train_greedy(&v, p->src, p->nsrc,
					     tr.runs[r].scorer, out,
					     2 * TRAIN_MAX_WORDS + 2, alpha,
					     &t.work);
			ck_assert_int_eq(n, tr.runs[r].nsteps);
			for (int j = 0; j < n; j++) {
				const struct trace_rec *a = trace_find(
					&tr, REC_SOFTMAX, r, j + 1, 0);
				ck_assert_int_eq(out[j], tr.runs[r].pred[j]);
				for (int i = 0; i < p->nsrc; i++)
					ck_assert_double_eq_tol(
						alpha[j * p->nsrc + i],
						a->result[i], 1e-12);
			}
		}
		trace_free(&tr);
	}
	train_free(&t);
	train_data_free(&d);
	model_free(&m);
}
END_TEST

/* The third field: gold[j * nsrc + i] for target word j and source word
 * i, as the links say (worked out by hand from the line). */
START_TEST(test_pairs_gold)
{
	static const unsigned char want[4 * 3] = {
		1, 0, 0,  /* i       <- je */
		0, 1, 0,  /* am      <- suis */
		0, 0, 1,  /* a       <- étudiant */
		0, 0, 1,  /* student <- étudiant */
	};
	struct train_data d;
	parse_ok(&d, "je suis étudiant ||| i am a student ||| 1-1 2-2 3-3 "
		 "3-4 # gold\nzone économique européenne ||| european economic "
		 "area\n", NULL);
	ck_assert_int_eq(d.n, 2);
	ck_assert_int_eq(d.naligned, 1);
	ck_assert_ptr_nonnull(d.pairs[0].gold);
	ck_assert_mem_eq(d.pairs[0].gold, want, sizeof want);
	ck_assert_ptr_null(d.pairs[1].gold);
	train_data_free(&d);
}
END_TEST

START_TEST(test_bad_alignment)
{
	const char *t1 = "a b ||| x y ||| 1-1 3-2\n";
	const char *t2 = "a b ||| x y ||| 1-1 ||| 2-2\n";
	const char *t3 = "a b ||| x y ||| 1 2\n";
	bad(t1, strlen(t1), NULL, "bad.pairs:1:21: expected a source "
	    "position from 1 to 2, found \"3\"");
	bad(t2, strlen(t2), NULL, "bad.pairs:1:21: expected alignment "
	    "links, found a third \"|||\"");
	bad(t3, strlen(t3), NULL, "bad.pairs:1:17: expected an alignment "
	    "link \"SOURCE-TARGET\" such as 1-1, found \"1\"");
}
END_TEST

/* The alignment accuracy of the hand-set model, whose largest weights
 * data/README.md lists (worked by hand: every English word of its two
 * pairs looks hardest at the word it translates, with dot, general and
 * concat): 7 of 7 on the right links; one wrong link (i <- suis) costs
 * one; a word with no link is not counted. */
START_TEST(test_align_count_handset)
{
	static const char *const gold[3] = {
		"je suis étudiant ||| i am a student ||| 1-1 2-2 3-3 3-4\n"
		"zone économique européenne ||| european economic area ||| "
		"1-3 2-2 3-1\n",
		"je suis étudiant ||| i am a student ||| 2-1 2-2 3-3 3-4\n"
		"zone économique européenne ||| european economic area ||| "
		"1-3 2-2 3-1\n",
		"je suis étudiant ||| i am a student ||| 1-1 2-2 3-4\n"
		"zone économique européenne ||| european economic area ||| "
		"1-3 2-2 3-1\n",
	};
	static const int hits[3] = { 7, 6, 6 }, totals[3] = { 7, 7, 6 };
	struct model m, v;
	struct train_data d;
	struct trainer t;
	struct errbuf err;
	int total;
	ck_assert_int_eq(model_load_named(&m, "handset4", &err), 0);
	for (int k = 0; k < 3; k++) {
		parse_ok(&d, gold[k], &m);
		train_init_model(&t, &d, &m, 0, 8, 1, 1);
		train_view(&v, &t.lay, t.theta, &d);
		for (int r = 0; r < 3; r++) {
			const int sc = (int[]){ SCORER_dot, SCORER_general,
						SCORER_concat }[r];
			ck_assert_int_eq(train_align_count(&v, &d, sc, &t.work,
							   &total), hits[k]);
			ck_assert_int_eq(total, totals[k]);
		}
		train_free(&t);
		train_data_free(&d);
	}
	model_free(&m);
}
END_TEST

/* ------------------------------------------------ the local windows */

/* trace_loss through the window of cfg. */
static double trace_loss_cfg(const struct model *m,
			     const struct train_data *d, enum scorer sc,
			     const struct trace_cfg *cfg, double *nearest)
{
	double sum = 0.0;
	for (int k = 0; k < d->n; k++) {
		const struct train_pair *p = &d->pairs[k];
		struct trace tr;
		struct errbuf err;
		ck_assert_msg(trace_build(&tr, m, p->src, p->nsrc, p->tgt,
					  p->ntgt, 1u << sc, cfg, &err) == 0,
			      "%s", err.msg);
		for (int t = 1; t <= p->ntgt + 1; t++) {
			const struct trace_rec *r =
				trace_find(&tr, REC_OUTPUT, 0, t, 0);
			const struct trace_rec *pos =
				trace_find(&tr, REC_POSITION, 0, t, 0);
			int gold = t <= p->ntgt ? p->tgt[t - 1] : m->eos;
			sum -= log(r->result[gold]);
			/* how close p_t comes to a jump of ⌊p_t⌋ (with
			 * one source word, p_t = 1 whatever the weights) */
			if (pos && nearest && p->nsrc > 1) {
				double f = pos->result[0] -
					   floor(pos->result[0]);
				*nearest = fmin(*nearest, fmin(f, 1.0 - f));
			}
		}
		trace_free(&tr);
	}
	return sum / d->ntokens;
}

/* Training through a local window, every weight random in [-1, 1]: the
 * loss is the trace's through the same window (whose numbers torch_check
 * checks), and every block's gradient, W_p and v_p among them, is the
 * central difference's; local-p's W_p and v_p learn, local-m's get no
 * gradient.  ⌊p_t⌋ jumps where p_t crosses a whole number, so each case
 * first makes sure that no p_t lies within 1e-3 of one, which a step of
 * 1e-5 cannot cross.  Luong's architecture through local-m and local-p
 * with D = 1 and 2; then where a step depends on the steps before:
 * Bahdanau's architecture (its query, and so local-p's p_t, is s_{t-1}),
 * input feeding, and the location-aware scorer, which reads the window's
 * final weights of the step before (a_{t-1} under local-p, which need not
 * sum to 1).  After these, every window of the registry in Luong's
 * architecture with D = 1 and every scorer (window_case), so that a new
 * window is checked without an edit here. */
struct window_case {
	int arch, feed, window, D, H;
	unsigned scorers;
	const char *label;
};
static const struct window_case window_cases[] = {
	{ ARCH_luong, 0, WINDOW_local_m, 1, 3, SCORER_ALL, "local-m D=1" },
	{ ARCH_luong, 0, WINDOW_local_m, 2, 3, SCORER_ALL, "local-m D=2" },
	{ ARCH_luong, 0, WINDOW_local_p, 1, 3, SCORER_ALL, "local-p D=1" },
	{ ARCH_luong, 0, WINDOW_local_p, 2, 3, SCORER_ALL, "local-p D=2" },
	{ ARCH_bahdanau, 0, WINDOW_local_p, 1, 4, SCORER_ALL,
	  "bahdanau local-p D=1" },
	{ ARCH_bahdanau, 0, WINDOW_local_p, 2, 4, SCORER_ALL,
	  "bahdanau local-p D=2" },
	{ ARCH_bahdanau, 0, WINDOW_local_m, 1, 4, SCORER_ALL,
	  "bahdanau local-m D=1" },
	{ ARCH_luong, 1, WINDOW_local_p, 1, 2, SCORER_ALL,
	  "input feeding local-p D=1" },
	{ ARCH_luong, 1, WINDOW_local_p, 2, 2, SCORER_ALL,
	  "input feeding local-p D=2" },
	{ ARCH_luong, 0, WINDOW_local_p, 1, 4, 1u << SCORER_location_aware,
	  "location-aware local-p D=1" },
	{ ARCH_luong, 0, WINDOW_local_p, 2, 4, 1u << SCORER_location_aware,
	  "location-aware local-p D=2" },
	{ ARCH_bahdanau, 0, WINDOW_fixed, 0, 4, SCORER_ALL, "bahdanau fixed" },
	{ ARCH_luong, 1, WINDOW_fixed, 0, 2, SCORER_ALL,
	  "input feeding fixed" },
};

#define NWINDOW_CASES ((int)(sizeof window_cases / sizeof window_cases[0]))

/* Case k of test_grad_window_cases: window_cases[k], then window
 * k - NWINDOW_CASES of the registry. */
static struct window_case window_case(int k)
{
	if (k < NWINDOW_CASES)
		return window_cases[k];
	const int w = k - NWINDOW_CASES;
	return (struct window_case){ ARCH_luong, 0, w, 1, 3, SCORER_ALL,
				     window_get(w)->name };
}

/* train_greedy (which the trainer's summary counts with) decodes the
 * pair as the greedy trace through cfg does: the same words and the same
 * final weights, with each scorer of scorers. */
static void greedy_matches_trace_cfg(const struct model *v,
				     const struct train_pair *p,
				     unsigned scorers,
				     const struct trace_cfg *cfg,
				     struct train_work *w)
{
	int out[2 * TRAIN_MAX_WORDS + 2];
	double alpha[(2 * TRAIN_MAX_WORDS + 2) * TRAIN_MAX_WORDS];
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		struct trace tr;
		struct errbuf err;
		if (!(scorers & (1u << sc)))
			continue;
		ck_assert_int_eq(trace_build(&tr, v, p->src, p->nsrc, NULL, 0,
					     1u << sc, cfg, &err), 0);
		int n = train_greedy(v, p->src, p->nsrc, sc, out,
				     2 * TRAIN_MAX_WORDS + 2, alpha, w);
		ck_assert_int_eq(n, tr.runs[0].nsteps);
		for (int j = 0; j < n; j++) {
			const double *a = trace_weights(&tr, 0, j + 1);
			ck_assert_int_eq(out[j], tr.runs[0].pred[j]);
			for (int i = 0; i < p->nsrc; i++)
				ck_assert_double_eq_tol(alpha[j * p->nsrc + i],
							a[i], 1e-12);
		}
		trace_free(&tr);
	}
}

/* 1 if block b of lay is a scorer's weight ("general.W"). */
static int block_is_scorer(const struct train_layout *lay, int b)
{
	const char *name = train_block_name(lay, b);
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		size_t len = strlen(scorer_get(sc)->name);
		if (strncmp(name, scorer_get(sc)->name, len) == 0
		    && name[len] == '.')
			return 1;
	}
	return 0;
}

START_TEST(test_grad_window_cases)
{
	const struct window_case wc = window_case(_i);
	const int window = wc.window, D = wc.D;
	const unsigned scorers = wc.scorers;
	const char *label = wc.label;
	const struct trace_cfg cfg = { .window = window, .window_size = D };
	struct train_data d;
	struct trainer t;
	struct train_stats st;
	struct model v;
	uint64_t state = 4242;
	double nearest = 1.0, sum = 0.0;

	parse_ok(&d, grad_pairs, NULL);
	if (wc.feed)
		train_init_random_feed(&t, &d, 3, wc.H, 2, 8,
				       SCORER_ALL | LOCALP_PARAM_BIT, 5);
	else
		train_init_random_arch(&t, &d, wc.arch, 3,
				       wc.H, 2, 8,
				       SCORER_ALL | LOCALP_PARAM_BIT, 7);
	ck_assert_int_ge(train_block_find(&t.lay, "local-p.W_p"), 0);
	ck_assert_int_ge(train_block_find(&t.lay, "local-p.v_p"), 0);
	t.work.window = window;
	t.work.window_size = D;
	for (size_t k = 0; k < t.lay.total; k++)
		t.theta[k] = train_rand_uniform(&state, -1.0, 1.0);
	train_view(&v, &t.lay, t.theta, &d);
	ck_assert_int_eq(v.arch, wc.arch);
	ck_assert_int_eq(v.input_feeding, wc.feed);
	double all = train_loss(&t.lay, t.theta, t.grad, &d, scorers,
				&t.work, &st);
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		if (!(scorers & (1u << sc)))
			continue;
		double ref = trace_loss_cfg(&v, &d, sc, &cfg, &nearest);
		ck_assert_msg(fabs(st.loss_of[sc] - ref) < 1e-12,
			      "%s, %s: loss %.17g, the trace's %.17g", label,
			      scorer_get(sc)->name, st.loss_of[sc], ref);
		sum += ref;
	}
	ck_assert_double_eq_tol(all, sum, 1e-12);
	for (int k = 0; k < d.n; k++)
		greedy_matches_trace_cfg(&v, &d.pairs[k], scorers, &cfg,
					 &t.work);
	if (window == WINDOW_local_p)
		ck_assert_msg(nearest > 1e-3, "%s: a p_t lies %g from a jump",
			      label, nearest);
	printf("gradient check %s:", label);
	for (int b = 0; b < t.lay.nblocks; b++) {
		double err = block_error(&t, &d, scorers, b);
		double norm = 0.0;
		for (size_t k = 0; k < t.lay.len[b]; k++)
			norm += fabs(t.grad[t.lay.off[b] + k]);
		printf(" %s %.1e", train_block_name(&t.lay, b), err);
		ck_assert_msg(err < 1e-5, "%s, block %s: relative error %g",
			      label, train_block_name(&t.lay, b), err);
		if (strncmp(train_block_name(&t.lay, b), "local-p.", 8) == 0)
			ck_assert(window_get(window)->params & LOCALP_PARAM_BIT
				  ? norm > 1e-6 : norm == 0.0);
		/* no attention: the scores reach nothing, so no scorer's
		 * weight has a gradient, exactly */
		if (window == WINDOW_fixed && block_is_scorer(&t.lay, b))
			ck_assert_msg(norm == 0.0, "%s, block %s: |g| %g",
				      label, train_block_name(&t.lay, b), norm);
	}
	putchar('\n');
	train_free(&t);
	train_data_free(&d);
}
END_TEST


/* A window whose class has no training part is refused by name, never
 * trained as another (issue 32): a throw-away class, as a new
 * window_NAME.c that fills only the trace's part would define it; every
 * registered window has its training part. */
START_TEST(test_window_without_training_refused)
{
	const struct window_class scratch = {
		.name = "scratch-causal",
		.summary = "a throw-away window that only traces",
		.weights = window_get(WINDOW_global)->weights,
	};
	struct window_class half = *window_get(WINDOW_local_m);
	struct errbuf err;

	err.msg[0] = '\0';
	ck_assert_int_eq(train_window_check(&scratch, &err), -1);
	ck_assert_msg(strstr(err.msg, "the window scratch-causal cannot be "
			     "trained: ") == err.msg, "%s", err.msg);
	half.name = "half";
	half.train_back = NULL; /* weights without their backward pass */
	ck_assert_int_eq(train_window_check(&half, &err), -1);
	ck_assert_msg(strstr(err.msg, "the window half cannot be trained")
		      != NULL, "%s", err.msg);
	for (int k = 0; k < WINDOW_COUNT; k++)
		ck_assert_msg(train_window_check(window_get(k), &err) == 0,
			      "%s", window_get(k)->name);
}
END_TEST

/* The same for an architecture: a class with the trace's part alone is
 * refused by name, one with a hook missing too; every registered
 * architecture has its training part. */
START_TEST(test_arch_without_training_refused)
{
	struct arch_class scratch = *arch_get(ARCH_DEFAULT);
	struct errbuf err;

	scratch.name = "scratch-arch";
	scratch.train_begin = NULL;
	scratch.train_encode = NULL;
	scratch.train_step = NULL;
	scratch.train_pair = NULL;
	err.msg[0] = '\0';
	ck_assert_int_eq(train_arch_check(&scratch, &err), -1);
	ck_assert_msg(strstr(err.msg, "the architecture scratch-arch cannot "
			     "be trained: ") == err.msg, "%s", err.msg);
	scratch = *arch_get(ARCH_DEFAULT);
	scratch.name = "half";
	scratch.train_step = NULL; /* no greedy decoding */
	ck_assert_int_eq(train_arch_check(&scratch, &err), -1);
	ck_assert_msg(strstr(err.msg, "the architecture half cannot be "
			     "trained") != NULL, "%s", err.msg);
	for (int k = 0; k < ARCH_COUNT; k++)
		ck_assert_msg(train_arch_check(arch_get(k), &err) == 0, "%s",
			      arch_get(k)->name);
}
END_TEST

/* ---------------------------------------------- hard attention (REINFORCE) */

/* train --hard's loss with the draws fixed: the generator and the
 * baselines set back to the same start before each evaluation, so the same
 * l's are drawn (a step of 1e-5 moves no α across a u). */
static double hard_loss(struct trainer *t, const struct train_data *d,
			unsigned scorers, double *grad)
{
	train_hard_start(&t->work, 99);
	t->work.hard_lambda_r = 0.0;
	t->work.hard_lambda_e = 0.0;
	return train_loss(&t->lay, t->theta, grad, d, scorers, &t->work, NULL);
}

/* With λ_r = λ_e = 0 the gradient of train --hard is the backpropagated
 * part alone: -log p(y_t | l) through h_l, s_t and the output weights, and
 * nothing on the scorer's own weights, whose central difference is 0 too
 * (the loss does not read α once l is fixed).  Every block against central
 * differences, for each scorer that --hard trains. */
START_TEST(test_hard_grad_fixed_draws)
{
	struct train_data d;
	struct trainer t;
	uint64_t state = 4242;
	const double h = 1e-5;

	if (!train_hard_supported(ARCH_luong, 1u << _i))
		return;
	parse_ok(&d, grad_pairs, NULL);
	train_init_random_arch(&t, &d, ARCH_luong, 3, 2, 2, 8, SCORER_ALL, 7);
	for (size_t k = 0; k < t.lay.total; k++)
		t.theta[k] = train_rand_uniform(&state, -1.0, 1.0);
	hard_loss(&t, &d, 1u << _i, t.grad);
	for (int b = 0; b < t.lay.nblocks; b++) {
		double worst = 0.0;
		for (size_t k = t.lay.off[b]; k < t.lay.off[b] + t.lay.len[b];
		     k++) {
			double save = t.theta[k], up, down, num, a = t.grad[k];
			t.theta[k] = save + h;
			up = hard_loss(&t, &d, 1u << _i, NULL);
			t.theta[k] = save - h;
			down = hard_loss(&t, &d, 1u << _i, NULL);
			t.theta[k] = save;
			num = (up - down) / (2 * h);
			worst = fmax(worst, fabs(a - num) /
				     fmax(fmax(fabs(a), fabs(num)), 1e-4));
		}
		ck_assert_msg(worst < 1e-5, "%s, block %s: relative error %g",
			      scorer_get(_i)->name, train_block_name(&t.lay, b),
			      worst);
	}
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* train --hard's full objective with the draws fixed: the generator and
 * the baselines set back to the same start, and each draw's R - b
 * recorded at the point where the gradient is taken (replay 0) and
 * replayed at the others (replay 1), so that the loss read by the central
 * differences is -R + the guided-alignment term + the surrogate
 * -λ_r (R - b) log α_l - λ_e H(α) with R - b held fixed: the objective
 * whose gradient train --hard follows (doc/model.md "Learning it"). */
static double hard_surrogate_loss(struct trainer *t,
				  const struct train_data *d,
				  unsigned scorers, double *grad, double *fix,
				  size_t cap, int replay)
{
	train_hard_start(&t->work, 99);
	t->work.hard_lambda_r = 0.7; /* large, so that a slip shows */
	t->work.hard_lambda_e = 0.3;
	t->work.hard_fix = fix;
	t->work.hard_fix_cap = cap;
	t->work.hard_nfix = 0;
	t->work.hard_fix_replay = replay;
	t->work.hard_pnear = 1.0;
	return train_loss(&t->lay, t->theta, grad, d, scorers, &t->work, NULL);
}

/* The whole gradient of train --hard, REINFORCE's terms included, against
 * central differences of that objective, for every scorer alone and all
 * together, in both architectures, with the guided-alignment term on: in
 * Bahdanau's the score terms reach s_{t-1} and the decoder over time, and
 * location-aware's reach α_{t-1} and the step before's scores. */
/* The cases past the two architectures' loops: Luong's through local-m,
 * and with input feeding (global and local-m), all scorers and
 * location-aware alone, and Bahdanau's through local-m (which train's
 * command line does not offer yet); { input feeding, window, scorer
 * (SCORER_COUNT: all), architecture }. */
static const int hard_more[][4] = {
	{ 0, WINDOW_local_m, SCORER_COUNT, ARCH_luong },
	{ 0, WINDOW_local_m, SCORER_location_aware, ARCH_luong },
	{ 1, WINDOW_global, SCORER_COUNT, ARCH_luong },
	{ 1, WINDOW_global, SCORER_location_aware, ARCH_luong },
	{ 1, WINDOW_local_m, SCORER_COUNT, ARCH_luong },
	{ 0, WINDOW_local_m, SCORER_COUNT, ARCH_bahdanau },
	/* local-p: the draw from π = a / Σa, REINFORCE's terms on p_t too,
	 * which reach W_p and v_p */
	{ 0, WINDOW_local_p, SCORER_COUNT, ARCH_luong },
	{ 0, WINDOW_local_p, SCORER_location_aware, ARCH_luong },
	{ 1, WINDOW_local_p, SCORER_COUNT, ARCH_luong },
	{ 0, WINDOW_local_p, SCORER_COUNT, ARCH_bahdanau },
	{ 0, WINDOW_local_p, SCORER_location_aware, ARCH_bahdanau },
};

START_TEST(test_hard_grad_surrogate)
{
	const int more = _i - 2 * (SCORER_COUNT + 1);
	const int arch = more >= 0 ? hard_more[more][3]
			 : _i <= SCORER_COUNT ? ARCH_luong : ARCH_bahdanau;
	const int feed = more >= 0 && hard_more[more][0];
	const int window = more >= 0 ? hard_more[more][1] : WINDOW_global;
	const int k = more >= 0 ? hard_more[more][2] : _i % (SCORER_COUNT + 1);
	const unsigned scorers = k < SCORER_COUNT ? 1u << k : SCORER_ALL;
	const double h = 1e-5;
	enum { CAP = 4096 };
	double fix[CAP], base;
	struct train_data d;
	struct trainer t;
	uint64_t state = 4343;

	ck_assert(train_hard_supported(arch, scorers));
	parse_ok(&d, grad_aligned_pairs, NULL);
	/* local-p's W_p and v_p, where the window is local-p */
	const unsigned params = SCORER_ALL |
		(window == WINDOW_local_p ? LOCALP_PARAM_BIT : 0);
	if (feed)
		train_init_random_feed(&t, &d, 3, 4, 2, 8, params, 7);
	else
		train_init_random_arch(&t, &d, arch, 3, 4, 2, 8, params, 7);
	/* the gold words may lie outside a local window (train refuses) */
	t.work.align_weight = window == WINDOW_global ? 0.3 : 0.0;
	t.work.window = window;
	t.work.window_size = 1;
	for (size_t j = 0; j < t.lay.total; j++)
		t.theta[j] = train_rand_uniform(&state, -1.0, 1.0);
	base = hard_surrogate_loss(&t, &d, scorers, t.grad, fix, CAP, 0);
	ck_assert(t.work.hard_nfix > 0 && t.work.hard_nfix < CAP);
	/* replaying gives the same loss, bit for bit */
	ck_assert(hard_surrogate_loss(&t, &d, scorers, NULL, fix, CAP, 1) ==
		  base);
	/* ⌊p_t⌋ jumps at whole numbers, which a step of h must not cross */
	if (window == WINDOW_local_p)
		ck_assert_msg(t.work.hard_pnear > 1e-3, "a p_t lies %g from a "
			      "jump", t.work.hard_pnear);
	printf("gradient check --hard %s%s %s %s:",
	       arch == ARCH_luong ? "luong" : "bahdanau",
	       feed ? " input feeding" : "", window_get(window)->name,
	       k < SCORER_COUNT ? scorer_get(k)->name : "all");
	for (int b = 0; b < t.lay.nblocks; b++) {
		double worst = 0.0, norm = 0.0;
		for (size_t j = t.lay.off[b]; j < t.lay.off[b] + t.lay.len[b];
		     j++) {
			double save = t.theta[j], up, down, num, a = t.grad[j];
			t.theta[j] = save + h;
			up = hard_surrogate_loss(&t, &d, scorers, NULL, fix,
						 CAP, 1);
			t.theta[j] = save - h;
			down = hard_surrogate_loss(&t, &d, scorers, NULL, fix,
						   CAP, 1);
			t.theta[j] = save;
			num = (up - down) / (2 * h);
			norm += fabs(a);
			worst = fmax(worst, fabs(a - num) /
				     fmax(fmax(fabs(a), fabs(num)), 1e-4));
		}
		printf(" %s %.1e", train_block_name(&t.lay, b), worst);
		ck_assert_msg(worst < 1e-5, "--hard %s, block %s: relative "
			      "error %g", k < SCORER_COUNT ?
			      scorer_get(k)->name : "all",
			      train_block_name(&t.lay, b), worst);
		/* a trained scorer's own weights learn */
		if (t.lay.block[b].scorer >= 0 &&
		    (scorers & (1u << t.lay.block[b].scorer)))
			ck_assert_msg(norm > 1e-8, "block %s gets no gradient",
				      train_block_name(&t.lay, b));
		/* and local-p's W_p and v_p, through p_t */
		if (strncmp(train_block_name(&t.lay, b), "local-p.", 8) == 0)
			ck_assert_msg(norm > 1e-8, "block %s gets no gradient",
				      train_block_name(&t.lay, b));
	}
	putchar('\n');
	t.work.hard_fix = NULL;
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* train --hard's forward pass is the trace's: for one pair and one
 * scorer the trainer's stream, started at the seed, draws the very u's of
 * `trace --hard --seed`, whose run starts its own stream there; so the
 * loss, Σ -log p(y_t | l_t), is the trace's (its outputs computed with
 * c_t = h_l, after the draws before, in Bahdanau's and with input
 * feeding), and the baseline after the last step is the trace's b, which
 * follows every R; where the trainer keeps every step (location-aware,
 * Bahdanau's, input feeding), each l_t and α_t are the trace's too.  Every
 * scorer, in both architectures, through local-m (Bahdanau's too, which
 * train's command line does not offer yet) and with input feeding, on
 * each pair alone; and through local-p, whose draws are from π = a / Σa. */
START_TEST(test_hard_loss_matches_trace)
{
	static const char *const one[] = {
		"a b c ||| x y\n", "b a ||| y z x\n", "c c a b ||| x z y\n",
	};
	/* { architecture, input feeding, window } */
	static const int cases[][3] = {
		{ ARCH_luong, 0, WINDOW_global },
		{ ARCH_luong, 0, WINDOW_local_m },
		{ ARCH_bahdanau, 0, WINDOW_global },
		{ ARCH_luong, 1, WINDOW_global },
		{ ARCH_luong, 1, WINDOW_local_m },
		{ ARCH_bahdanau, 0, WINDOW_local_m },
		/* local-p: the draws from π = a / Σa, as the trace's */
		{ ARCH_luong, 0, WINDOW_local_p },
		{ ARCH_luong, 1, WINDOW_local_p },
		{ ARCH_bahdanau, 0, WINDOW_local_p },
	};
	const int arch = cases[_i][0], feed = cases[_i][1];
	const int window = cases[_i][2];
	int compared = 0;

	for (size_t k = 0; k < sizeof one / sizeof one[0]; k++) {
		struct train_data d;
		struct trainer t;
		struct train_stats st;
		struct model v;
		uint64_t state = 99 + k;
		const unsigned params = SCORER_ALL |
			(window == WINDOW_local_p ? LOCALP_PARAM_BIT : 0);
		parse_ok(&d, one[k], NULL);
		if (feed)
			train_init_random_feed(&t, &d, 3, 4, 2, 8, params, 3);
		else
			train_init_random_arch(&t, &d, arch, 3, 4, 2, 8,
					       params, 3);
		for (size_t j = 0; j < t.lay.total; j++)
			t.theta[j] = train_rand_uniform(&state, -1.5, 1.5);
		t.work.window = window;
		t.work.window_size = 1;
		train_view(&v, &t.lay, t.theta, &d);
		for (int sc = 0; sc < SCORER_COUNT; sc++) {
			const struct trace_cfg cfg = {
				.window = window, .window_size = 1,
				.selection = SELECTION_hard,
				.seed = 40 + k + (unsigned)sc };
			const struct train_pair *p = &d.pairs[0];
			struct trace tr;
			struct errbuf err;
			double sum = 0.0;
			/* the steps kept for a backward pass over time */
			const int kept = feed || arch == ARCH_bahdanau ||
					 scorer_get(sc)->uses_prev_alpha;
			train_hard_start(&t.work, cfg.seed);
			train_loss(&t.lay, t.theta, NULL, &d, 1u << sc, &t.work,
				   &st);
			ck_assert_msg(trace_build(&tr, &v, p->src, p->nsrc,
						  p->tgt, p->ntgt, 1u << sc,
						  &cfg, &err) == 0, "%s",
				      err.msg);
			for (int s = 1; s <= p->ntgt + 1; s++) {
				const struct trace_rec *r =
					trace_find(&tr, REC_OUTPUT, 0, s, 0);
				int gold = s <= p->ntgt ? p->tgt[s - 1] : v.eos;
				sum -= log(r->result[gold]);
				if (!kept)
					continue;
				/* the draw and every weight of the step */
				ck_assert_msg(trace_find(&tr, REC_SAMPLE, 0, s,
						t.work.hard_l[s] + 1) != NULL,
					      "case %d %s step %d: l %d", _i,
					      scorer_get(sc)->name, s,
					      t.work.hard_l[s] + 1);
				for (int j = 0; j < p->nsrc; j++)
					ck_assert(fabs(trace_weights(&tr, 0, s)[j] -
						t.work.seq_alpha[(size_t)s *
							p->nsrc + j]) < 1e-12);
			}
			sum /= d.ntokens;
			ck_assert_msg(fabs(st.loss_of[sc] - sum) < 1e-12,
				      "case %d pair %zu %s: train %.17g, trace "
				      "%.17g", _i, k, scorer_get(sc)->name,
				      st.loss_of[sc], sum);
			ck_assert_msg(fabs(t.work.hard_b[sc] -
					   tr.runs[0].baseline) < 1e-12,
				      "case %d pair %zu %s: b %.17g, trace's "
				      "%.17g", _i, k, scorer_get(sc)->name,
				      t.work.hard_b[sc], tr.runs[0].baseline);
			trace_free(&tr);
			compared++;
		}
		train_free(&t);
		train_data_free(&d);
	}
	ck_assert_int_eq(compared, 3 * SCORER_COUNT);
}
END_TEST

/* Input feeding (Luong's architecture): every scorer, alone and all
 * together, global and through local-m, every weight random in [-1, 1]
 * (decoder W_x (H, E + H) among them, so a swapped [y; h̃] would show):
 * the loss is the trace's, whose numbers torch_check checks with
 * nn.RNNCell on [y; h̃], and every block's gradient is the central
 * difference's, h̃_t reaching the loss through the later steps too. */
START_TEST(test_grad_input_feeding)
{
	const int window = _i == SCORER_COUNT + 1 ? WINDOW_local_m
						  : WINDOW_global;
	const unsigned scorers = _i < SCORER_COUNT ? 1u << _i : SCORER_ALL;
	const struct trace_cfg cfg = { .window = window, .window_size = 1 };
	struct train_data d;
	struct trainer t;
	struct train_stats st;
	struct model v;
	uint64_t state = 777;
	double sum = 0.0;

	parse_ok(&d, grad_pairs, NULL);
	train_init_random_feed(&t, &d, 3, 2, 2, 8, SCORER_ALL, 5);
	int bx = train_block_find(&t.lay, "decoder.W_x");
	ck_assert_int_eq(t.lay.block[bx].cols, 3 + 2);
	t.work.window = window;
	t.work.window_size = 1;
	for (size_t k = 0; k < t.lay.total; k++)
		t.theta[k] = train_rand_uniform(&state, -1.0, 1.0);
	train_view(&v, &t.lay, t.theta, &d);
	ck_assert_int_eq(v.input_feeding, 1);
	double all = train_loss(&t.lay, t.theta, t.grad, &d, scorers,
				&t.work, &st);
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		if (!(scorers & (1u << sc)))
			continue;
		double ref = trace_loss_cfg(&v, &d, sc, &cfg, NULL);
		ck_assert_double_eq_tol(st.loss_of[sc], ref, 1e-12);
		sum += ref;
	}
	ck_assert_double_eq_tol(all, sum, 1e-12);
	printf("gradient check input feeding %s %s:",
	       _i < SCORER_COUNT ? trace_scorer_name(_i) : "all",
	       window_get(window)->name);
	for (int b = 0; b < t.lay.nblocks; b++) {
		double err = block_error(&t, &d, scorers, b);
		printf(" %s %.1e", train_block_name(&t.lay, b), err);
		ck_assert_msg(err < 1e-5, "input feeding, block %s: relative "
			      "error %g", train_block_name(&t.lay, b), err);
	}
	putchar('\n');
	/* the columns of W_x that read h̃_{t-1} get a gradient */
	double norm = 0.0;
	for (int r = 0; r < 2; r++)
		for (int c = 3; c < 5; c++)
			norm += fabs(t.grad[t.lay.off[bx] + (size_t)r * 5 + c]);
	ck_assert(norm > 1e-6);
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* train --init keeps a model's [local-p.*] sections, trained or not. */
START_TEST(test_init_keeps_local_p)
{
	struct train_data d, d2;
	struct trainer t, t2;
	struct model v;
	parse_ok(&d, grad_pairs, NULL);
	train_init_random_arch(&t, &d, ARCH_luong, 3, 3, 2, 8,
			       (1u << SCORER_dot) | LOCALP_PARAM_BIT, 7);
	train_view(&v, &t.lay, t.theta, &d);
	ck_assert_ptr_nonnull(v.Wp);
	parse_ok(&d2, grad_pairs, &v);
	train_init_model(&t2, &d2, &v, 1u << SCORER_general, 8, 3, 1);
	int b = train_block_find(&t2.lay, "local-p.W_p");
	int b0 = train_block_find(&t.lay, "local-p.W_p");
	ck_assert_int_ge(b, 0);
	ck_assert_int_ge(train_block_find(&t2.lay, "local-p.v_p"), 0);
	for (size_t k = 0; k < t.lay.len[b0]; k++)
		ck_assert_double_eq(t2.theta[t2.lay.off[b] + k],
				    t.theta[t.lay.off[b0] + k]);
	train_free(&t2);
	train_free(&t);
	train_data_free(&d2);
	train_data_free(&d);
}
END_TEST

/* The score-function and entropy terms against the formula worked by
 * hand: α = (0.5, 0.3, 0.2), l = 2 (from 0), R = -0.7, b = -1.2.
 *   λ_r (R - b)(onehot - α) = 0.1 * 0.5 * (-0.5, -0.3, 0.8)
 *                           = (-0.025, -0.015, 0.04)
 *   H = -(0.5 ln 0.5 + 0.3 ln 0.3 + 0.2 ln 0.2) = 1.0296530140645737
 *   -λ_e α_j (ln α_j + H) = -0.002 * (0.5 * 0.33650583..., 0.3 *
 *     -0.17431979..., 0.2 * -0.57978489...)
 *                           = (-3.3650583e-4, 1.0459187e-4, 2.3191396e-4)
 * (ln 0.5 = -0.6931471805599453, ln 0.3 = -1.2039728043259361,
 *  ln 0.2 = -1.6094379124341003). */
START_TEST(test_hard_score_term_by_hand)
{
	const double alpha[3] = { 0.5, 0.3, 0.2 };
	const double H = 1.0296530140645737;
	const double want[3] = {
		-0.025 - 0.002 * 0.5 * (-0.6931471805599453 + H),
		-0.015 - 0.002 * 0.3 * (-1.2039728043259361 + H),
		0.04 - 0.002 * 0.2 * (-1.6094379124341003 + H),
	};
	double out[3];

	train_hard_score_grad(out, alpha, 3, 2, -0.7, -1.2, 0.1, 0.002);
	for (int j = 0; j < 3; j++)
		ck_assert_msg(fabs(out[j] - want[j]) < 1e-15,
			      "term %d: %.17g, expected %.17g", j, out[j],
			      want[j]);
	ck_assert(fabs(want[0] - -0.02533650583) < 1e-10);
	ck_assert(fabs(want[2] - 0.04023191396) < 1e-10);
	/* the terms sum to 0 over j: the scores' shift does not matter */
	ck_assert(fabs(out[0] + out[1] + out[2]) < 1e-15);
}
END_TEST

/* train --hard: the same seed draws the same u's and gives the same
 * weights; another seed, other weights. */
START_TEST(test_hard_same_seed_same_bytes)
{
	struct train_data d;
	struct trainer a, b;
	struct train_opts o;
	struct train_stats st;

	parse_ok(&d, two_pairs, NULL);
	train_opts_default(&o);
	o.scorers = 1u << SCORER_general;
	o.epochs = 20;
	o.selection = SELECTION_hard;
	train_init_random(&a, &d, 4, 4, 4, 4, o.scorers, 3);
	train_init_random(&b, &d, 4, 4, 4, 4, o.scorers, 3);
	train_run(&a, &d, &o, NULL, NULL, &st);
	train_run(&b, &d, &o, NULL, NULL, &st);
	ck_assert(memcmp(a.theta, b.theta, sizeof *a.theta * a.lay.total) == 0);
	/* a different seed draws differently, so the weights differ */
	o.seed = 2;
	train_free(&b);
	train_init_random(&b, &d, 4, 4, 4, 4, o.scorers, 3);
	train_run(&b, &d, &o, NULL, NULL, &st);
	ck_assert(memcmp(a.theta, b.theta, sizeof *a.theta * a.lay.total) != 0);
	train_free(&a);
	train_free(&b);
	train_data_free(&d);
}
END_TEST

/* train_softmax against the formula written out here, bit for bit:
 * exp(x_k - max) (max the first largest), summed in order, each divided
 * by the sum, max + log(sum), and the first largest p_k.  The vectors
 * are random, with repeated values, ±0 and ±inf, and near ties (logits
 * an ulp or a few apart, whose p's may round to the same value so that
 * the first largest p comes before the largest logit). */
START_TEST(test_softmax_bits)
{
	uint64_t rng = 42;
	int moved = 0;

	for (int it = 0; it < 200000; it++) {
		double x[9], p[9], q[9], sum = 0.0, lse, want_lse;
		int n = 1 + (int)(train_rand_next(&rng) % 9), best = 0, top = -1;
		int want_top = 0;
		uint64_t kind = train_rand_next(&rng) % 3;
		double base = train_rand_uniform(&rng, -40.0, 40.0);

		for (int k = 0; k < n; k++) {
			uint64_t r = train_rand_next(&rng);
			if (kind == 0) { /* near ties */
				x[k] = base;
				for (uint64_t j = 0; j < r % 6; j++)
					x[k] = nextafter(x[k], -INFINITY);
			} else if (kind == 1) { /* repeats, zeros, -inf */
				static const double v[] = { 0.0, -0.0, 1.5, -2.25,
							    -INFINITY, 1.5 };
				x[k] = v[r % 6];
			} else {
				x[k] = train_rand_uniform(&rng, -30.0, 30.0);
			}
		}
		if (kind == 1 && train_rand_next(&rng) % 2 == 0)
			x[0] = 1.5; /* a finite maximum */
		for (int k = 1; k < n; k++)
			if (x[k] > x[best])
				best = k;
		if (x[best] == -INFINITY)
			continue; /* no finite maximum: not what training sees */
		for (int k = 0; k < n; k++) {
			q[k] = exp(x[k] - x[best]);
			sum += q[k];
		}
		for (int k = 0; k < n; k++) {
			q[k] /= sum;
			if (q[k] > q[want_top])
				want_top = k;
		}
		want_lse = x[best] + log(sum);
		lse = train_softmax(p, x, n, &top);
		for (int k = 0; k < n; k++)
			ck_assert_msg(memcmp(&p[k], &q[k], sizeof p[k]) == 0,
				      "case %d, p_%d = %.17g, expected %.17g",
				      it, k, p[k], q[k]);
		ck_assert_msg(memcmp(&lse, &want_lse, sizeof lse) == 0,
			      "case %d, log-sum-exp %.17g, expected %.17g",
			      it, lse, want_lse);
		ck_assert_int_eq(top, want_top);
		moved += want_top != best;
		/* in place, as training calls it */
		memcpy(q, x, sizeof x);
		train_softmax(q, q, n, &top);
		ck_assert(memcmp(q, p, sizeof *p * (size_t)n) == 0);
	}
	/* the case of a first largest p before the largest logit was met */
	ck_assert_int_gt(moved, 0);
}
END_TEST

/* --------------------------------------------- the AVX2 kernels (simd) */

/* The awkward values of the kernels' tests: signed zeros, equal values,
 * a subnormal, powers of two and values that round differently in sums
 * taken in another order (so that a reordered sum shows). */
static double simd_value(uint64_t *state)
{
	static const double odd[] = { 0.0, -0.0, 1.0, -1.0, 0.1, 1e-310,
				      -3.0e300, 1e16, 0.5, 0.5 };
	uint64_t r = train_rand_next(state);

	if (r % 4 == 0)
		return odd[(r >> 8) % (sizeof odd / sizeof odd[0])];
	return train_rand_uniform(state, -2.0, 2.0) *
	       ldexp(1.0, (int)((r >> 16) % 41) - 20);
}

/* train_simd_matvec_t and train_simd_linear_back give the bits of the
 * plain formula (each sum from 0.0, or from G and dx, in index order) over
 * every shape up to 30 rows by 14 columns, a row stride longer than the
 * columns, and dx NULL. */
START_TEST(test_simd_kernels_same_bits)
{
	enum { R = 30, C = 14, LD = 17 };
	static double W[R * LD], Wt[C * R], G1[R * LD], G2[R * LD];
	double x[LD], dy[R], out[R], want[R], dx1[LD], dx2[LD];
	uint64_t state = 99;
	int cases = 0;

	if (!train_simd_avx2()) {
		printf("no AVX2: the kernels built for it are not run\n");
		return;
	}
	for (int rows = 1; rows <= R; rows++)
		for (int cols = 1; cols <= C; cols++)
			for (int ld = cols; ld <= cols + 3; ld += 3) {
				for (int k = 0; k < R * LD; k++) {
					W[k] = simd_value(&state);
					G1[k] = G2[k] = simd_value(&state);
				}
				for (int k = 0; k < LD; k++) {
					x[k] = simd_value(&state);
					dx1[k] = dx2[k] = simd_value(&state);
				}
				for (int r = 0; r < R; r++)
					dy[r] = simd_value(&state);
				/* W x through Wᵀ, W (rows, cols) packed */
				for (int r = 0; r < rows; r++) {
					want[r] = 0.0;
					for (int k = 0; k < cols; k++) {
						double wrk = W[r * cols + k];
						Wt[k * rows + r] = wrk;
						want[r] += wrk * x[k];
					}
				}
				train_simd_matvec_t(out, Wt, x, rows, cols);
				ck_assert_msg(memcmp(out, want, sizeof *out *
						     (size_t)rows) == 0,
					      "matvec_t %dx%d", rows, cols);
				/* the backward pass, then without dx */
				for (int k = 0; k < cols; k++)
					for (int r = 0; r < rows; r++) {
						G2[r * ld + k] += dy[r] * x[k];
						dx2[k] += dy[r] * W[r * ld + k];
					}
				train_simd_linear_back(G1, dx1, W, ld, dy, x,
						       rows, cols);
				ck_assert_msg(memcmp(G1, G2, sizeof G1) == 0 &&
					      memcmp(dx1, dx2, sizeof dx1) == 0,
					      "linear_back %dx%d ld %d", rows,
					      cols, ld);
				for (int r = 0; r < rows; r++)
					for (int k = 0; k < cols; k++)
						G2[r * ld + k] += dy[r] * x[k];
				train_simd_linear_back(G1, NULL, W, ld, dy, x,
						       rows, cols);
				ck_assert_msg(memcmp(G1, G2, sizeof G1) == 0,
					      "linear_back %dx%d ld %d, no dx",
					      rows, cols, ld);
				cases++;
			}
	ck_assert_int_eq(cases, R * C * 2);
}
END_TEST

/* The loss and every bit of its gradient are the same with the output
 * layer's AVX2 kernels as with the plain ones, in both architectures. */
START_TEST(test_simd_same_gradient)
{
	const int arch = _i ? ARCH_bahdanau : ARCH_luong;
	struct train_data d;
	struct trainer t;
	uint64_t state = 4242;
	double loss[2], *grad[2];

	if (!train_simd_avx2()) {
		printf("no AVX2: the kernels built for it are not run\n");
		return;
	}
	parse_ok(&d, grad_aligned_pairs, NULL);
	train_init_random_arch(&t, &d, arch, 3, 4, 5, 8, SCORER_ALL, 7);
	t.work.align_weight = 0.3;
	for (size_t k = 0; k < t.lay.total; k++)
		t.theta[k] = train_rand_uniform(&state, -1.0, 1.0);
	for (int simd = 0; simd < 2; simd++) {
		grad[simd] = calloc(t.lay.total, sizeof *grad[simd]);
		ck_assert_ptr_nonnull(grad[simd]);
		t.work.simd = simd;
		loss[simd] = train_loss(&t.lay, t.theta, grad[simd], &d,
					SCORER_ALL, &t.work, NULL);
	}
	ck_assert(memcmp(&loss[0], &loss[1], sizeof loss[0]) == 0);
	for (size_t k = 0; k < t.lay.total; k++)
		ck_assert_msg(memcmp(&grad[0][k], &grad[1][k],
				     sizeof grad[0][k]) == 0,
			      "gradient %zu: %.17g plain, %.17g AVX2", k,
			      grad[0][k], grad[1][k]);
	free(grad[0]);
	free(grad[1]);
	train_free(&t);
	train_data_free(&d);
}
END_TEST

/* ------------------------------------------------------------- threads */

/* A corpus of four chunks (3 TRAIN_CHUNK + 7 pairs): the pairs of
 * grad_aligned_pairs and two more, in an order that varies from chunk to
 * chunk, so that no two chunks' sums are alike. */
static char *chunks_text(void)
{
	static const char *const lines[] = {
		"a b c ||| x y ||| 1-1 3-1 2-2\n",
		"b a ||| y z x ||| 1-1 2-3\n",
		"c ||| z\n",
		"c c a b ||| x ||| 4-1\n",
		"b c ||| x x ||| 2-1 1-2\n",
		"a ||| y z ||| 1-1\n",
	};
	const int n = 3 * TRAIN_CHUNK + 7;
	char *text = malloc((size_t)n * 32), *at = text;
	ck_assert_ptr_nonnull(text);
	for (int k = 0; k < n; k++)
		at = stpcpy(at, lines[(k * k + k / 5) % 6]);
	return text;
}

/* The trainings whose bits the thread count must not change: each
 * architecture, input feeding, both local windows, and hard attention
 * (which trains on one thread whatever it is given). */
static const struct {
	int arch, feed, window, hard;
	double align_weight;
	const char *label;
} thread_cases[] = {
	{ ARCH_luong, 0, WINDOW_global, 0, 0.3, "luong, guided" },
	{ ARCH_bahdanau, 0, WINDOW_global, 0, 0.3, "bahdanau, guided" },
	{ ARCH_luong, 1, WINDOW_local_p, 0, 0.0, "input feeding, local-p" },
	{ ARCH_bahdanau, 0, WINDOW_local_m, 0, 0.0, "bahdanau, local-m" },
	{ ARCH_luong, 0, WINDOW_global, 1, 0.0, "luong, hard" },
};

/* Sets up *t for case k of thread_cases, and *o to train it. */
static void thread_case(struct trainer *t, struct train_opts *o,
			const struct train_data *d, int k)
{
	const unsigned layout = SCORER_ALL |
		(thread_cases[k].window == WINDOW_local_p ? LOCALP_PARAM_BIT
							  : 0u);
	train_opts_default(o);
	o->epochs = 3;
	o->align_weight = thread_cases[k].align_weight;
	o->window = thread_cases[k].window;
	o->window_size = 1;
	o->selection = thread_cases[k].hard ? SELECTION_hard
					    : SELECTION_DEFAULT;
	if (thread_cases[k].feed)
		train_init_random_feed(t, d, 3, 4, 5, 4, layout, 7);
	else
		train_init_random_arch(t, d, thread_cases[k].arch, 3, 4, 5, 4,
				       layout, 7);
}

/* Training on 1, 2 and 3 threads (and more than there are chunks) gives
 * the same weights and the same final measures, bit for bit. */
START_TEST(test_threads_same_bits)
{
	char *text = chunks_text();
	struct train_data d;
	struct trainer t[4];
	struct train_stats last[4];
	const int threads[4] = { 1, 2, 3, 9 };

	parse_ok(&d, text, NULL);
	ck_assert_int_eq(d.n, 3 * TRAIN_CHUNK + 7);
	for (int i = 0; i < 4; i++) {
		struct train_opts o;
		thread_case(&t[i], &o, &d, _i);
		o.threads = threads[i];
		train_run(&t[i], &d, &o, NULL, NULL, &last[i]);
	}
	for (int i = 1; i < 4; i++) {
		ck_assert_msg(memcmp(t[0].theta, t[i].theta, sizeof *t[0].theta
				     * t[0].lay.total) == 0,
			      "%s: %d threads train other weights than one",
			      thread_cases[_i].label, threads[i]);
		ck_assert(memcmp(&last[0].loss, &last[i].loss,
				 sizeof last[0].loss) == 0);
		ck_assert(memcmp(&last[0].grad_norm, &last[i].grad_norm,
				 sizeof last[0].grad_norm) == 0);
		ck_assert(memcmp(last[0].acc_of, last[i].acc_of,
				 sizeof last[0].acc_of) == 0);
	}
	for (int i = 0; i < 4; i++)
		train_free(&t[i]);
	train_data_free(&d);
	free(text);
}
END_TEST

/* Puts w's REINFORCE state (generator and baselines) back to start's. */
static void hard_restart(struct train_work *w, const struct train_work *start)
{
	w->hard_rng = start->hard_rng;
	memcpy(w->hard_b, start->hard_b, sizeof w->hard_b);
}

/* The sum that train_loss and the threads make, built here from its
 * definition (train.h, TRAIN_CHUNK): each chunk's gradient alone (a
 * corpus of one chunk: one running sum), then the chunks added in their
 * order.  train_loss and an epoch on 3 threads give it bit for bit.  With
 * hard attention the draws and baselines run on from chunk to chunk as
 * from pair to pair, so each sum starts from the same state. */
START_TEST(test_threads_chunk_sum)
{
	char *text = chunks_text();
	struct train_data d;
	struct trainer t;
	struct train_opts o;
	struct train_stats st;

	parse_ok(&d, text, NULL);
	thread_case(&t, &o, &d, _i);
	o.clip = 0.0; /* t.grad stays the gradient */
	o.threads = 3;
	t.work.align_weight = o.align_weight;
	t.work.window = o.window;
	t.work.window_size = o.window_size;
	if (o.selection == SELECTION_hard)
		train_hard_start(&t.work, o.seed);
	const struct train_work start = t.work; /* its REINFORCE state */
	double *want = calloc(t.lay.total, sizeof *want);
	double *part = calloc(t.lay.total, sizeof *part);
	double *got = calloc(t.lay.total, sizeof *got);
	ck_assert(want && part && got);
	for (int c = 0; c * TRAIN_CHUNK < d.n; c++) {
		struct train_data one = d; /* the same count of predictions */
		one.pairs = d.pairs + c * TRAIN_CHUNK;
		one.n = d.n - c * TRAIN_CHUNK < TRAIN_CHUNK
			? d.n - c * TRAIN_CHUNK : TRAIN_CHUNK;
		train_loss(&t.lay, t.theta, part, &one, SCORER_ALL, &t.work,
			   NULL);
		for (size_t k = 0; k < t.lay.total; k++)
			want[k] = c ? want[k] + part[k] : part[k];
	}
	hard_restart(&t.work, &start);
	train_loss(&t.lay, t.theta, got, &d, SCORER_ALL, &t.work, NULL);
	ck_assert(memcmp(got, want, sizeof *got * t.lay.total) == 0);
	hard_restart(&t.work, &start);
	train_epoch(&t, &d, &o, &st);
	ck_assert(memcmp(t.grad, want, sizeof *got * t.lay.total) == 0);
	free(want);
	free(part);
	free(got);
	train_free(&t);
	train_data_free(&d);
	free(text);
}
END_TEST

static Suite *train_suite(void)
{
	Suite *s = suite_create("train");
	TCase *tc = tcase_create("gradients");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_grad_each_scorer, 0, SCORER_COUNT);
	tcase_add_test(tc, test_grad_all);
	tcase_add_loop_test(tc, test_grad_window_cases, 0,
			    NWINDOW_CASES + WINDOW_COUNT);
	tcase_add_test(tc, test_init_keeps_local_p);
	tcase_add_test(tc, test_window_without_training_refused);
	tcase_add_test(tc, test_arch_without_training_refused);
	tcase_add_loop_test(tc, test_grad_input_feeding, 0, SCORER_COUNT + 2);
	tcase_add_loop_test(tc, test_hard_grad_fixed_draws, 0, SCORER_COUNT);
	tcase_add_loop_test(tc, test_hard_grad_surrogate, 0,
			    2 * (SCORER_COUNT + 1) +
			    (int)(sizeof hard_more / sizeof hard_more[0]));
	tcase_add_loop_test(tc, test_hard_loss_matches_trace, 0, 9);
	tcase_add_test(tc, test_hard_score_term_by_hand);
	tcase_add_test(tc, test_softmax_bits);
	tcase_add_test(tc, test_hard_same_seed_same_bytes);
	tcase_add_test(tc, test_grad_all_other_shape);
	tcase_add_loop_test(tc, test_grad_bahdanau_each_scorer, 0,
			    SCORER_COUNT + 1);
	tcase_add_test(tc, test_bahdanau_matches_trace);
	tcase_add_loop_test(tc, test_bahdanau_learns_two_pairs, 0,
			    SCORER_COUNT);
	tcase_add_test(tc, test_grad_unused_scorer_zero);
	tcase_add_test(tc, test_loss_matches_trace);
	tcase_add_loop_test(tc, test_grad_aligned_each_scorer, 0,
			    SCORER_COUNT);
	tcase_add_test(tc, test_align_term_matches_trace);
	tcase_add_loop_test(tc, test_grad_aligned_bahdanau, 0, SCORER_COUNT);
	tcase_add_test(tc, test_init_model);
	suite_add_tcase(s, tc);
	tc = tcase_create("learning");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_learns_two_pairs, 0, SCORER_COUNT + 1);
	tcase_add_test(tc, test_sgd_loss_falls);
	tcase_add_test(tc, test_progress_stops);
	tcase_add_test(tc, test_clip_bounds_step);
	suite_add_tcase(s, tc);
	tc = tcase_create("pairs");
	tcase_add_test(tc, test_bad_no_separator);
	tcase_add_test(tc, test_bad_empty_side);
	tcase_add_test(tc, test_bad_text);
	tcase_add_test(tc, test_bad_word_sizes);
	tcase_add_test(tc, test_bad_reserved_and_empty);
	tcase_add_test(tc, test_bad_word_in_one_vocabulary);
	tcase_add_test(tc, test_good_layout);
	tcase_add_test(tc, test_pairs_bom_and_letters);
	tcase_add_test(tc, test_pairs_line_limit);
	tcase_add_test(tc, test_pairs_gold);
	tcase_add_test(tc, test_bad_alignment);
	tcase_add_test(tc, test_align_count_handset);
	suite_add_tcase(s, tc);
	tc = tcase_create("AVX2 kernels");
	tcase_add_test(tc, test_simd_kernels_same_bits);
	tcase_add_loop_test(tc, test_simd_same_gradient, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("threads");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_threads_same_bits, 0,
			    (int)(sizeof thread_cases / sizeof thread_cases[0]));
	tcase_add_loop_test(tc, test_threads_chunk_sum, 0,
			    (int)(sizeof thread_cases / sizeof thread_cases[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("model file");
	tcase_add_test(tc, test_same_seed_same_bytes);
	tcase_add_test(tc, test_written_model_round_trips);
	tcase_add_test(tc, test_greedy_matches_trace);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(train_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
