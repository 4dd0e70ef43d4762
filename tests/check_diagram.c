/* check_diagram.c: the diagram of a decoder step (src/diagram.c), built
 * from the records of the built-in models handset4 (Luong's architecture)
 * and bahdanau4 (Bahdanau's), and laid out at 80, 100 and 200 columns. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagram.h"
#include "num.h"
#include "utf8.h"

static struct model M;
static struct trace T;
static struct diagram D;
static char **L;
static int NL;

static void build(const char *model, const char *const *words, int n)
{
	struct errbuf err;
	int src[8];
	ck_assert_int_eq(model_load_named(&M, model, &err), 0);
	for (int i = 0; i < n; i++) {
		src[i] = vocab_find(&M.src, words[i]);
		ck_assert_int_ge(src[i], 0);
	}
	ck_assert_int_eq(trace_build(&T, &M, src, n, NULL, 0,
				     1u << SCORER_dot, NULL, &err), 0);
	ck_assert_int_eq(diagram_build(&D, &T, 0, 1, &err), 0);
	L = NULL;
	NL = 0;
}

static const char *const JE[] = { "je", "suis", "étudiant" };

static void setup_luong(void) { build("handset4", JE, 3); }
static void setup_bahdanau(void) { build("bahdanau4", JE, 3); }

static void teardown(void)
{
	diagram_lines_free(L, NL);
	trace_free(&T);
	model_free(&M);
}

static void render(int width, int ascii)
{
	diagram_lines_free(L, NL);
	NL = diagram_render(&D, width, ascii, 4, &L);
	ck_assert_int_gt(NL, 0);
}

/* the line that shows source word i (from 0) */
static const char *row(int i)
{
	for (int k = 0; k < NL; k++) {
		const char *w = strstr(L[k], D.words[i]);
		if (w && w[strlen(D.words[i])] == ' ' && strstr(L[k], "h_") == NULL
		    && (w[-1] == ' '))
			return L[k];
	}
	ck_abort_msg("no row for %s", D.words[i]);
	return NULL;
}

/* how many times glyph g appears in s */
static int count(const char *s, const char *g)
{
	int c = 0;
	for (const char *p = s; (p = strstr(p, g)); p += strlen(g))
		c++;
	return c;
}

/* the model's own numbers: the diagram points at the records, and they
 * agree with a sum worked out here from the states */
START_TEST(test_luong_values)
{
	const struct trace_rec *sm = trace_find(&T, REC_SOFTMAX, 0, 1, 0);
	const struct trace_rec *s1 = trace_find(&T, REC_RNN, 0, 1, 0);
	const struct trace_rec *at = trace_find(&T, REC_ATTENTIONAL, 0, 1, 0);
	ck_assert_int_eq(D.n, 3);
	ck_assert_str_eq(D.qname, "s_1");
	ck_assert_str_eq(D.rname, "h̃_1");
	ck_assert_int_eq(D.feeds_rnn, 0);
	ck_assert_ptr_null(D.feed); /* handset4 has no input feeding */
	ck_assert_int_eq(D.flen, 0);
	ck_assert_ptr_eq(D.alpha, sm->result);
	ck_assert_ptr_eq(D.query, s1->result);
	ck_assert_ptr_eq(D.result, at->result);
	ck_assert_str_eq(D.words[2], "étudiant");
	/* h_i are the encoder's states, in order */
	for (int i = 0; i < 3; i++) {
		const struct trace_rec *h = trace_find(&T, REC_RNN, -1, 0, i + 1);
		ck_assert_int_eq(D.hlen, h->len);
		for (int k = 0; k < D.hlen; k++)
			ck_assert(D.h[i][k] == h->result[k]);
	}
	/* c_1 = Σ α_1,i·h_i, summed here */
	for (int k = 0; k < D.clen; k++) {
		double c = 0;
		for (int i = 0; i < 3; i++)
			c += D.alpha[i] * D.h[i][k];
		ck_assert_double_eq_tol(D.context[k], c, 1e-12);
	}
	/* handset4 was set so that "je" is looked at first */
	ck_assert_int_eq(D.amax, 0);
	for (int i = 0; i < 3; i++)
		ck_assert(D.alpha[i] <= D.alpha[D.amax]);
	ck_assert_str_eq(D.out, M.tgt.words[T.runs[0].pred[0]]);
	ck_assert(D.out_p > 0 && D.out_p <= 1);
}
END_TEST

START_TEST(test_bahdanau_values)
{
	const struct trace_rec *q = trace_find(&T, REC_QUERY, 0, 1, 0);
	const struct trace_rec *s1 = trace_find(&T, REC_RNN, 0, 1, 0);
	ck_assert_ptr_nonnull(q);
	ck_assert_str_eq(D.qname, "s_0");
	ck_assert_str_eq(D.rname, "s_1");
	ck_assert_int_eq(D.feeds_rnn, 1);
	ck_assert_ptr_eq(D.query, q->result);
	ck_assert_ptr_eq(D.result, s1->result);
	for (int i = 0; i < 3; i++) {
		const struct trace_rec *a = trace_find(&T, REC_ANNOTATION, -1,
						       0, i + 1);
		for (int k = 0; k < D.hlen; k++)
			ck_assert(D.h[i][k] == a->result[k]);
	}
	/* c_1 feeds the RNN: operand 6 of s_1's record is c_1 */
	for (int k = 0; k < D.clen; k++)
		ck_assert(s1->ops[6].v[k] == D.context[k]);
	render(80, 0);
	ck_assert(count(L[0], "s_0") == 1);
	ck_assert_ptr_nonnull(strstr(L[0], "before the step"));
	int feeds = 0;
	for (int k = 0; k < NL; k++)
		feeds += strstr(L[k], "c_1 feeds the RNN: s_1 = f(s_0, y_0, c_1)")
			!= NULL;
	ck_assert_int_eq(feeds, 1);
}
END_TEST

START_TEST(test_no_step)
{
	struct diagram d;
	struct errbuf err;
	ck_assert_int_eq(diagram_build(&d, &T, 0, 0, &err), -1);
	ck_assert_int_eq(diagram_build(&d, &T, 0, T.runs[0].nsteps + 1, &err),
			 -1);
	ck_assert_int_eq(diagram_build(&d, &T, 5, 1, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no step"));
}
END_TEST

/* shapes and labels: a box a word, each with its α; the query once */
START_TEST(test_shape)
{
	render(80, 0);
	ck_assert_ptr_nonnull(strstr(L[0], "s_1"));
	ck_assert_ptr_nonnull(strstr(L[1], "┌"));
	ck_assert_ptr_nonnull(strstr(L[5], "└"));
	int largest = 0, query = 0;
	for (int i = 0; i < 3; i++) {
		const char *r = row(i);
		char a[32];
		snprintf(a, sizeof a, " %.4f", D.alpha[i]);
		ck_assert_msg(strstr(r, a) != NULL, "%s lacks%s", r, a);
		ck_assert_int_eq(count(r, "│"), 3);
		largest += strstr(r, "largest") != NULL;
		query += strstr(r, "── s_1") != NULL;
	}
	ck_assert_ptr_nonnull(strstr(row(D.amax), "◄ largest"));
	ck_assert_int_eq(largest, 1);
	ck_assert_int_eq(query, 1);
	/* the bracket gathers the three lines, the query on the middle one */
	ck_assert_ptr_nonnull(strstr(row(0), "┐"));
	ck_assert_ptr_nonnull(strstr(row(1), "┼── s_1"));
	ck_assert_ptr_nonnull(strstr(row(2), "┘"));
	/* the result: c_1, h̃_1 and the output word with its probability */
	int c = 0, h = 0, out = 0;
	for (int k = 0; k < NL; k++) {
		c += strncmp(L[k], "c_1 ", 4) == 0;
		h += strncmp(L[k], "h̃_1 ", strlen("h̃_1 ")) == 0
			&& strstr(L[k], "attentional") != NULL;
		out += strstr(L[k], "h̃_1 = tanh(W_c·[c_1; s_1]) ──► output \"")
			!= NULL;
	}
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(h, 1);
	ck_assert_int_eq(out, 1);
}
END_TEST

/* a cell's sign is the state's: '+' or '−' before its shade (bahdanau4's
 * states have both) */
START_TEST(test_cells_signs)
{
	int neg = 0, pos = 0;
	render(80, 0);
	for (int i = 0; i < 3; i++) {
		const char *r = row(i);
		const char *p = strstr(r, "│ ") + 1;   /* after the word */
		p = strstr(p + 1, "│ ") + strlen("│ ");
		for (int k = 0; k < DIAGRAM_CELLS && k < D.hlen; k++) {
			double v = D.h[i][k];
			if (fabs(v) >= 0.125) {
				neg += v < 0;
				pos += v > 0;
				if (v < 0)
					ck_assert_msg(strncmp(p, "−", 3) == 0,
						      "h_%d[%d] %s", i + 1, k, p);
				else
					ck_assert_msg(*p == '+', "h_%d[%d] %s",
						      i + 1, k, p);
			}
			p += v < 0 && fabs(v) >= 0.125 ? 3 : 1;
			p += utf8_char_len(p) + 1; /* the shade, the blank */
		}
	}
	ck_assert_int_gt(neg, 0);
	ck_assert_int_gt(pos, 0);
}
END_TEST

/* the lines: a larger weight is never thinner nor shorter */
START_TEST(test_thickness_order)
{
	static const char *const glyph[DIAGRAM_LEVELS] = { "┄", "─", "━", "█" };
	for (double a = 0; a <= 1; a += 0.01)
		ck_assert_int_le(diagram_level(a), diagram_level(a + 0.01));
	ck_assert_int_eq(diagram_level(0), 0);
	ck_assert_int_eq(diagram_level(1), DIAGRAM_LEVELS - 1);
	render(100, 0);
	int len[3], lvl[3];
	for (int i = 0; i < 3; i++) {
		const char *r = strstr(row(i), "│◄") + strlen("│◄");
		lvl[i] = diagram_level(D.alpha[i]);
		len[i] = 0;
		while (strncmp(r, glyph[lvl[i]], strlen(glyph[lvl[i]])) == 0) {
			r += strlen(glyph[lvl[i]]);
			len[i]++;
		}
		ck_assert_int_ge(len[i], 1);
	}
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (D.alpha[i] > D.alpha[j]) {
				ck_assert_int_ge(len[i], len[j]);
				ck_assert_int_ge(lvl[i], lvl[j]);
			}
	ck_assert_int_gt(len[D.amax], len[(D.amax + 1) % 3]);
}
END_TEST

static int widest(void)
{
	int w = 0;
	for (int k = 0; k < NL; k++)
		if (utf8_width(L[k]) > w)
			w = utf8_width(L[k]);
	return w;
}

/* fits 80 columns (and 24 rows); uses 100 and 200 */
START_TEST(test_widths)
{
	render(80, 0);
	int w80 = widest();
	ck_assert_int_le(w80, 80);
	ck_assert_int_le(NL, 24 - 4);  /* the stepper's title, strip, keys */
	/* the states' numbers only in the widest boxes */
	char h1[32];
	snprintf(h1, sizeof h1, "%+.4f", D.h[0][0]);
	ck_assert_ptr_null(strstr(row(0), h1));
	render(100, 0);
	int w100 = widest();
	ck_assert_int_le(w100, 100);
	ck_assert_int_gt(w100, w80);
	ck_assert_ptr_null(strstr(row(0), h1));
	render(200, 0);
	int w200 = widest();
	ck_assert_int_le(w200, 200);
	ck_assert_int_gt(w200, w100);
	ck_assert_ptr_nonnull(strstr(row(0), h1));
	/* too narrow a width: the lines are cut there, between characters */
	render(30, 0);
	ck_assert_int_eq(widest(), 30);
	for (int k = 0; k < NL; k++)
		ck_assert_int_eq(utf8_valid_prefix(L[k], strlen(L[k])),
				 strlen(L[k]));
	render(0, 0);
	ck_assert_int_le(widest(), 1);
}
END_TEST

/* the C locale: nothing but ASCII, apart from the words themselves */
START_TEST(test_ascii)
{
	render(80, 1);
	for (int k = 0; k < NL; k++) {
		char *s = xstrdup(L[k]), *p;
		while ((p = strstr(s, "étudiant")))
			memset(p, 'x', strlen("étudiant"));
		for (p = s; *p; p++)
			ck_assert_msg((unsigned char)*p < 0x80, "line %d: %s", k,
				      L[k]);
		free(s);
	}
	ck_assert_ptr_nonnull(strstr(row(D.amax), "<- largest"));
	ck_assert_ptr_nonnull(strstr(row(1), "+-- s_1"));
	ck_assert_ptr_nonnull(strstr(L[1], "+-"));
	ck_assert_int_le(widest(), 80);
	int sum = 0;
	for (int k = 0; k < NL; k++)
		sum += strstr(L[k], "h~_1") != NULL || strstr(L[k], "h̃_1") != NULL;
	ck_assert_int_ge(sum, 1);
}
END_TEST

/* the variants' marks: a window, p_t and a sampled position */
START_TEST(test_variant_marks)
{
	render(80, 0);
	for (int k = 0; k < NL; k++) {
		ck_assert_ptr_null(strstr(L[k], "window"));
		ck_assert_ptr_null(strstr(L[k], "sampled"));
	}
	D.win_lo = 2;
	D.win_hi = 3;
	D.has_pt = 1;
	D.pt = 2.4;
	D.sampled = 3;
	render(80, 0);
	ck_assert_int_eq(strncmp(row(0), "  │", strlen("  │")), 0);
	ck_assert_int_eq(strncmp(row(1), "▶ │", strlen("▶ │")), 0);
	ck_assert_int_eq(strncmp(row(2), "▌ │", strlen("▌ │")), 0);
	ck_assert_ptr_nonnull(strstr(row(2), "sampled"));
	ck_assert_ptr_null(strstr(row(0), "sampled"));
	int said = 0;
	for (int k = 0; k < NL; k++)
		said += strstr(L[k], "window: positions 2..3") != NULL
			&& strstr(L[k], "p_1 = 2.4000") != NULL
			&& strstr(L[k], "sampled: h_3 (étudiant)") != NULL;
	ck_assert_int_eq(said, 1);
	ck_assert_int_le(widest(), 80);
	/* the largest and the sampled on one row */
	D.sampled = D.amax + 1;
	render(80, 1);
	ck_assert_ptr_nonnull(strstr(row(D.amax), "<- largest, sampled"));
	ck_assert_int_eq(strncmp(row(1), "> |", 3), 0);
	ck_assert_int_le(widest(), 80);
}
END_TEST

/* the SVG: the numbers exactly, and the variants' marks when set */
START_TEST(test_svg)
{
	char *buf = NULL, want[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(diagram_svg(f, &D, 4), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "<svg xmlns="));
	ck_assert_ptr_nonnull(strstr(buf, "data-step=\"1\""));
	ck_assert_ptr_null(strstr(buf, "class=\"window\""));
	ck_assert_ptr_null(strstr(buf, "sampled"));
	/* α_1,1 exactly, as the shortest form that reads back */
	char num[NUM_BUFSZ];
	snprintf(want, sizeof want, "data-alpha=\"%s\"",
		 num_shortest(num, D.alpha[0]));
	ck_assert_ptr_nonnull(strstr(buf, want));
	ck_assert_ptr_nonnull(strstr(buf, "◀ largest"));
	free(buf);
	D.win_lo = 1;
	D.win_hi = 2;
	D.has_pt = 1;
	D.pt = 1.5;
	D.sampled = 2;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(diagram_svg(f, &D, 4), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "class=\"window\" data-lo=\"1\" "
				     "data-hi=\"2\""));
	ck_assert_ptr_nonnull(strstr(buf, "class=\"pt\" data-value=\"1.5\""));
	ck_assert_ptr_nonnull(strstr(buf, "p<tspan baseline-shift=\"sub\" font-size=\"75%\">1</tspan> = 1.5000: "
				     "the Gaussian&apos;s centre"));
	ck_assert_ptr_nonnull(strstr(buf, "window: positions 1..2"));
	/* the sampled mark under α_1,2's label (before α_1,3's), once */
	const char *lab = strstr(buf, "α<tspan baseline-shift=\"sub\" font-size=\"75%\">1,2</tspan> = ");
	ck_assert_ptr_nonnull(lab);
	const char *smp = strstr(buf, "● sampled: c<tspan baseline-shift=\"sub\" font-size=\"75%\">1</tspan> = h"
				 "<tspan baseline-shift=\"sub\" font-size=\"75%\">2</tspan>");
	ck_assert_ptr_nonnull(smp);
	const char *next = strstr(lab, "α<tspan baseline-shift=\"sub\" font-size=\"75%\">1,3</tspan> = ");
	ck_assert(smp > lab && (!next || smp < next));
	ck_assert_ptr_null(strstr(smp + 1, "● sampled"));
	ck_assert_ptr_nonnull(strstr(buf, "= h<tspan baseline-shift=\"sub\" font-size=\"75%\">2</tspan>, drawn"));
	free(buf);
}
END_TEST

/* Input feeding (feed4): the diagram of step t shows h̃_{t-1}, the
 * attentional state of step t - 1 (0 at step 1), and the arrow that
 * takes it into the RNN that made s_t.  That the vector is the one the
 * RNN read is worked out here: tanh(W_x·[y_{t-1}; h̃_{t-1}] + W_h·s_{t-1}
 * + b), summed in this file from the model's weights, is s_t. */
static void setup_feed(void) { build("feed4", JE, 3); }

START_TEST(test_feed)
{
	struct errbuf err;
	const int E = M.E, H = M.H;
	ck_assert_int_eq(M.input_feeding, 1);
	ck_assert_int_ge(T.runs[0].nsteps, 3);
	for (int t = 1; t <= T.runs[0].nsteps; t++) {
		ck_assert_int_eq(diagram_build(&D, &T, 0, t, &err), 0);
		ck_assert_ptr_nonnull(D.feed);
		ck_assert_int_eq(D.flen, H);
		const struct trace_rec *prev = trace_find(&T, REC_ATTENTIONAL,
							  0, t - 1, 0);
		const struct trace_rec *sp = t > 1
			? trace_find(&T, REC_RNN, 0, t - 1, 0) : NULL;
		int differs = 0;
		for (int k = 0; k < H; k++) {
			ck_assert(D.feed[k] == (t > 1 ? prev->result[k] : 0.0));
			/* not s_{t-1}, the other state of the last step */
			differs += sp && D.feed[k] != sp->result[k];
		}
		ck_assert(t == 1 || differs > 0);
		/* s_t from the feed, the word read and s_{t-1} */
		int y = t > 1 ? T.runs[0].pred[t - 2] : M.bos;
		const double *s0 = sp ? sp->result
			: trace_find(&T, REC_RNN, -1, 0, 3)->result;
		for (int j = 0; j < H; j++) {
			double a = M.dec.b[j];
			for (int k = 0; k < E; k++)
				a += M.dec.Wx[j * (E + H) + k] *
				     M.tgt.emb[y * E + k];
			for (int k = 0; k < H; k++)
				a += M.dec.Wx[j * (E + H) + E + k] * D.feed[k];
			for (int k = 0; k < H; k++)
				a += M.dec.Wh[j * H + k] * s0[k];
			ck_assert_double_eq_tol(tanh(a), D.query[j], 1e-12);
		}
	}
	/* the text, at 80 columns: the row of h̃_1, the arrow into s_2, then
	 * the query s_2 */
	ck_assert_int_eq(diagram_build(&D, &T, 0, 2, &err), 0);
	render(80, 0);
	int at = -1;
	for (int k = 0; k < NL; k++) {
		ck_assert_int_le(utf8_width(L[k]), 80);
		if (strncmp(L[k], "h̃_1  ", strlen("h̃_1  ")) == 0 && at < 0)
			at = k;
	}
	ck_assert_int_ge(at, 0);
	char num[NUM_BUFSZ];
	for (int k = 0; k < H; k++) {
		num_fixed(num, D.feed[k], 4);
		ck_assert_ptr_nonnull(strstr(L[at], num));
	}
	ck_assert_ptr_nonnull(strstr(L[at], "fed back from step 1"));
	ck_assert_str_eq(L[at + 1], " └──► s_2 = tanh(W_x·[y_1; h̃_1] + "
			 "W_h·s_1 + b): input feeding");
	ck_assert(strncmp(L[at + 2], "s_2 ", 4) == 0);
	/* ASCII */
	render(80, 1);
	int ascii = 0;
	for (int k = 0; k < NL; k++)
		ascii += strcmp(L[k], " +--> s_2 = tanh(W_x*[y_1; h~_1] + "
				"W_h*s_1 + b): input feeding") == 0
			&& strncmp(L[k - 1], "h~_1 ", 5) == 0;
	ck_assert_int_eq(ascii, 1);
	/* step 1: h̃_0 = 0 */
	ck_assert_int_eq(diagram_build(&D, &T, 0, 1, &err), 0);
	render(80, 0);
	int zero = 0;
	for (int k = 0; k < NL; k++)
		zero += strncmp(L[k], "h̃_0  +· +· +· +·  +0.0000 +0.0000 "
				"+0.0000 +0.0000  zero: no step before",
				strlen("h̃_0  +· +· +· +·  +0.0000 +0.0000 "
				       "+0.0000 +0.0000  zero: no step before"))
			== 0;
	ck_assert_int_eq(zero, 1);
	/* the SVG: the box of h̃_1 with its exact numbers, and the arrow */
	ck_assert_int_eq(diagram_build(&D, &T, 0, 2, &err), 0);
	char *buf = NULL, want[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(diagram_svg(f, &D, 4), 0);
	fclose(f);
	int n = snprintf(want, sizeof want, "<g class=\"feed\" data-values=\"");
	for (int k = 0; k < H; k++)
		n += snprintf(want + n, sizeof want - (size_t)n, "%s%s",
			      k ? " " : "", num_shortest(num, D.feed[k]));
	ck_assert_ptr_nonnull(strstr(buf, want));
	/* the formula with its subscripts set as subscripts */
	ck_assert_ptr_nonnull(strstr(buf, ">input feeding:</text>"));
	ck_assert_ptr_nonnull(strstr(buf, ">s<tspan baseline-shift=\"sub\" font-size=\"75%\">2</tspan>"
				     " = tanh(W<tspan baseline-shift=\"sub\" font-size=\"75%\">x</tspan>·[y<tspan baseline-shift=\"sub\" font-size=\"75%\">1"
				     "</tspan>; h̃<tspan baseline-shift=\"sub\" font-size=\"75%\">1</tspan>] + W"
				     "<tspan baseline-shift=\"sub\" font-size=\"75%\">h</tspan>·s<tspan baseline-shift=\"sub\" font-size=\"75%\">1"
				     "</tspan> + b)"));
	ck_assert_ptr_nonnull(strstr(buf, "class=\"feed-arrow\""));
	free(buf);
}
END_TEST

/* without input feeding nothing of it is drawn */
START_TEST(test_no_feed_drawn)
{
	char *buf = NULL;
	size_t len = 0;
	render(200, 0);
	for (int k = 0; k < NL; k++)
		ck_assert_ptr_null(strstr(L[k], "input feeding"));
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(diagram_svg(f, &D, 4), 0);
	fclose(f);
	ck_assert_ptr_null(strstr(buf, "class=\"feed"));
	ck_assert_ptr_null(strstr(buf, "input feeding"));
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diagram");
	TCase *lu = tcase_create("luong");
	tcase_add_checked_fixture(lu, setup_luong, teardown);
	tcase_add_test(lu, test_luong_values);
	tcase_add_test(lu, test_no_step);
	tcase_add_test(lu, test_shape);
	tcase_add_test(lu, test_thickness_order);
	tcase_add_test(lu, test_widths);
	tcase_add_test(lu, test_ascii);
	tcase_add_test(lu, test_variant_marks);
	tcase_add_test(lu, test_svg);
	tcase_add_test(lu, test_no_feed_drawn);
	suite_add_tcase(s, lu);
	TCase *ba = tcase_create("bahdanau");
	tcase_add_checked_fixture(ba, setup_bahdanau, teardown);
	tcase_add_test(ba, test_bahdanau_values);
	tcase_add_test(ba, test_cells_signs);
	tcase_add_test(ba, test_no_feed_drawn);
	suite_add_tcase(s, ba);
	TCase *fe = tcase_create("feeding");
	tcase_add_checked_fixture(fe, setup_feed, teardown);
	tcase_add_test(fe, test_feed);
	suite_add_tcase(s, fe);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
