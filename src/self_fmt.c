/* self_fmt.c: the self-attention trace (self.h) as text, JSON, JSON
 * Lines, CSV and Markdown (doc/trace-format.md, "attn-trace self").  It
 * prints what self_build() recorded and computes nothing. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "num.h"
#include "fmt_svg.h"
#include "self.h"
#include "utf8.h"

static const char *const self_wname[MHA_NW] = { "W_Q", "W_K", "W_V", "W_O" };

/* ------------------------------------------------------------------ text */

/* x with prec digits, in parentheses when negative, as a factor. */
static const char *factor(char *buf, double x, int prec)
{
	char n[NUM_BUFSZ];
	fmt_num(n, x, prec);
	snprintf(buf, NUM_BUFSZ + 2, x < 0 ? "(%s)" : "%s", n);
	return buf;
}

/* "  label = a×b + c×d + ... = r": W's row r times x (d terms). */
static void text_rowdot(FILE *out, const char *label, const double *w,
			const double *x, int n, double r, int prec)
{
	char a[NUM_BUFSZ + 2], b[NUM_BUFSZ + 2], res[NUM_BUFSZ];
	fprintf(out, "  %s = ", label);
	for (int c = 0; c < n; c++)
		fprintf(out, "%s%s×%s", c ? " + " : "", factor(a, w[c], prec),
			factor(b, x[c], prec));
	fprintf(out, " = %s\n", fmt_num(res, r, prec));
}

static void text_header(FILE *out, const struct self_trace *t,
			unsigned heads, int prec)
{
	fprintf(out, "%s\nmodel: %s (d_model %d, %d heads of d_k = d_v = %d)\n",
		SELF_FMT_TEXT_VERSION, t->model_name, t->d, SELF_HEADS, t->dk);
	fprintf(out, "attention: %s\n", t->o.cross
		? "cross (queries from the target words; keys and values "
		  "from the source words)"
		: "self (queries, keys and values from the source words)");
	fputs("source:", out);
	for (int j = 0; j < t->n; j++)
		fprintf(out, " %s", t->kwords[j]);
	fprintf(out, " (%d word%s)\n", t->n, t->n == 1 ? "" : "s");
	if (t->o.cross) {
		fputs("target:", out);
		for (int i = 0; i < t->nq; i++)
			fprintf(out, " %s", t->qwords[i]);
		fprintf(out, " (%d word%s)\n", t->nq, t->nq == 1 ? "" : "s");
	}
	fprintf(out, "mask: %s\npositions: %s\nheads shown:",
		t->o.causal ? "causal (s_i,j = -inf where j > i)" : "none",
		t->o.position ? "sin/cos added, from position 0"
			      : "none (--no-position)");
	for (int h = 0; h < SELF_HEADS; h++)
		if (heads & (1u << h))
			fprintf(out, " %d", h + 1);
	fprintf(out, "\nprecision: %d\n", prec);
}

/* Stage 1 for the tokens of one side. */
static void text_inputs(FILE *out, char **words, const double *E,
			const double *PE, const double *X, int n, int d,
			const char *x, int position, int prec)
{
	char label[160];
	for (int i = 0; i < n; i++) {
		if (position)
			snprintf(label, sizeof label, "%s_%d = emb(%s) + PE(%d)",
				 x, i + 1, words[i], i);
		else
			snprintf(label, sizeof label, "%s_%d = emb(%s)", x,
				 i + 1, words[i]);
		fmt_text_line(out, 0, label, X + (size_t)i * d, d, prec);
		if (!position)
			continue;
		snprintf(label, sizeof label, "emb(%s)", words[i]);
		fmt_text_line(out, 2, label, E + (size_t)i * d, d, prec);
		snprintf(label, sizeof label, "PE(%d)", i);
		fmt_text_line(out, 2, label, PE + (size_t)i * d, d, prec);
	}
}

/* Stage 2 for one projection: each row as a matrix-vector product. */
static void text_project(FILE *out, const char *v, const char *W,
			 const double *Wm, const double *X, const char *x,
			 const double *R, int n, int d, int prec)
{
	char label[96];
	for (int i = 0; i < n; i++) {
		snprintf(label, sizeof label, "%s_%d = %s·%s_%d", v, i + 1, W,
			 x, i + 1);
		fmt_text_line(out, 0, label, R + (size_t)i * d, d, prec);
		for (int r = 0; r < d; r++) {
			snprintf(label, sizeof label, "%s_%d[%d]", v, i + 1,
				 r + 1);
			text_rowdot(out, label, Wm + (size_t)r * d,
				    X + (size_t)i * d, d, R[i * d + r], prec);
		}
	}
}

/* Stage 3 of head h, first half: the head's slices, every score term by
 * term, and the mask. */
static void text_scores(FILE *out, const struct self_trace *t, int h,
			int prec)
{
	const int n = t->n, nq = t->nq, d = t->d, dk = t->dk, off = h * dk;
	char label[128], a[NUM_BUFSZ], b[NUM_BUFSZ], s[NUM_BUFSZ];

	for (int i = 0; i < nq; i++) {
		snprintf(label, sizeof label, "q_%d[h%d]", i + 1, h + 1);
		fmt_text_line(out, 0, label, t->Q + (size_t)i * d + off, dk, prec);
	}
	for (int j = 0; j < n; j++) {
		snprintf(label, sizeof label, "k_%d[h%d]", j + 1, h + 1);
		fmt_text_line(out, 0, label, t->K + (size_t)j * d + off, dk, prec);
	}
	fprintf(out, "scores: s_i,j = (q_i[h%d]·k_j[h%d]) / √%d\n", h + 1,
		h + 1, dk);
	for (int i = 0; i < nq; i++) {
		const double *S = t->S[h] + (size_t)i * n;
		for (int j = 0; j < n; j++) {
			char fa[NUM_BUFSZ + 2], fb[NUM_BUFSZ + 2];
			fprintf(out, "s_%d,%d = (", i + 1, j + 1);
			for (int c = 0; c < dk; c++)
				fprintf(out, "%s%s×%s", c ? " + " : "",
					factor(fa, t->Q[i * d + off + c], prec),
					factor(fb, t->K[j * d + off + c], prec));
			fmt_num(a, sqrt((double)dk), prec);
			fprintf(out, ") / %s = %s / %s = %s\n", a,
				fmt_num(s, t->dot[h][i * n + j], prec), a,
				fmt_num(b, S[j], prec));
		}
	}
	if (t->o.causal) {
		fputs("causal mask: a query sees no later word\n", out);
		for (int i = 0; i < nq; i++)
			for (int j = 0; j < n; j++)
				if (self_masked(t, i, j))
					fprintf(out, "s_%d,%d = %s -> -inf\n",
						i + 1, j + 1,
						fmt_num(a, t->S[h][i * n + j],
							prec));
	}
}

/* Stage 3 of head h, second half: the softmax of each row. */
static void text_softmax(FILE *out, const struct self_trace *t, int h,
			 int prec)
{
	const int n = t->n, nq = t->nq;
	char label[128], a[NUM_BUFSZ], b[NUM_BUFSZ];

	fputs("softmax of each row:\n", out);
	for (int i = 0; i < nq; i++) {
		const double *M = t->M[h] + (size_t)i * n;
		const double *A = t->A[h] + (size_t)i * n;
		double max = -INFINITY, sum = 0;
		for (int j = 0; j < n; j++)
			if (M[j] > max)
				max = M[j];
		fprintf(out, "row %d (%s): max = %s\n", i + 1, t->qwords[i],
			fmt_num(a, max, prec));
		for (int j = 0; j < n; j++) {
			if (self_masked(t, i, j)) {
				fprintf(out, "  exp(s_%d,%d - max) = exp(-inf) = 0\n",
					i + 1, j + 1);
				continue;
			}
			double e = exp(M[j] - max);
			sum += e;
			fprintf(out, "  exp(s_%d,%d - max) = exp(%s) = %s\n",
				i + 1, j + 1, fmt_num(a, M[j] - max, prec),
				fmt_num(b, e, prec));
		}
		fprintf(out, "  sum = %s\n", fmt_num(a, sum, prec));
		snprintf(label, sizeof label, "α_%d[h%d] (%s)", i + 1, h + 1,
			 t->qwords[i]);
		fmt_text_line(out, 0, label, A, n, prec);
	}
}

/* Stage 4 of head h: the values and z_i term by term. */
static void text_z(FILE *out, const struct self_trace *t, int h, int prec)
{
	const int n = t->n, nq = t->nq, d = t->d, dk = t->dk, off = h * dk;
	char label[128], a[NUM_BUFSZ];

	for (int j = 0; j < n; j++) {
		snprintf(label, sizeof label, "v_%d[h%d] (%s)", j + 1, h + 1,
			 t->kwords[j]);
		fmt_text_line(out, 0, label, t->V + (size_t)j * d + off, dk, prec);
	}
	for (int i = 0; i < nq; i++) {
		for (int c = 0; c < dk; c++) {
			fprintf(out, "z_%d[h%d][%d] = ", i + 1, h + 1, c + 1);
			for (int j = 0; j < n; j++) {
				char fa[NUM_BUFSZ + 2], fb[NUM_BUFSZ + 2];
				fprintf(out, "%s%s×%s", j ? " + " : "",
					factor(fa, t->A[h][i * n + j], prec),
					factor(fb, t->V[j * d + off + c], prec));
			}
			fprintf(out, " = %s\n",
				fmt_num(a, t->Z[h][i * dk + c], prec));
		}
		snprintf(label, sizeof label, "z_%d[h%d]", i + 1, h + 1);
		fmt_text_line(out, 0, label, t->Z[h] + (size_t)i * dk, dk, prec);
	}
}

/* Stages 3 and 4 of head h, as the whole trace shows them. */
static void text_head(FILE *out, const struct self_trace *t, int h, int prec)
{
	fprintf(out, "\n--- 3. head %d: features %d-%d of q, k and v ---\n",
		h + 1, h * t->dk + 1, (h + 1) * t->dk);
	text_scores(out, t, h, prec);
	text_softmax(out, t, h, prec);
	fprintf(out, "\n--- 4. head %d: z_i = Σ_j α_i,j v_j[h%d] ---\n",
		h + 1, h + 1);
	text_z(out, t, h, prec);
}

/* Stage 1: X. */
static void text_x(FILE *out, const struct self_trace *t, int prec)
{
	if (t->o.cross) {
		fputs("queries (target words):\n", out);
		text_inputs(out, t->qwords, t->Eq, t->PEq, t->Xq, t->nq, t->d,
			    "y", t->o.position, prec);
		fputs("keys and values (source words):\n", out);
	}
	text_inputs(out, t->kwords, t->Ek, t->PEk, t->Xk, t->n, t->d, "x",
		    t->o.position, prec);
}

/* Stage 2: Q, K and V. */
static void text_qkv(FILE *out, const struct self_trace *t, int prec)
{
	const char *xq = t->o.cross ? "y" : "x";
	text_project(out, "q", "W_Q", t->W[MHA_Q], t->Xq, xq, t->Q, t->nq,
		     t->d, prec);
	text_project(out, "k", "W_K", t->W[MHA_K], t->Xk, "x", t->K, t->n,
		     t->d, prec);
	text_project(out, "v", "W_V", t->W[MHA_V], t->Xk, "x", t->V, t->n,
		     t->d, prec);
}

/* Stage 5: the concat and W_O. */
static void text_out(FILE *out, const struct self_trace *t, int prec)
{
	const int d = t->d;
	char label[96];
	for (int i = 0; i < t->nq; i++) {
		snprintf(label, sizeof label, "c_%d = [z_%d[h1]; z_%d[h2]]",
			 i + 1, i + 1, i + 1);
		fmt_text_line(out, 0, label, t->C + (size_t)i * d, d, prec);
		snprintf(label, sizeof label, "o_%d = W_O·c_%d (%s)", i + 1,
			 i + 1, t->qwords[i]);
		fmt_text_line(out, 0, label, t->Y + (size_t)i * d, d, prec);
		for (int r = 0; r < d; r++) {
			snprintf(label, sizeof label, "o_%d[%d]", i + 1, r + 1);
			text_rowdot(out, label, t->W[MHA_O] + (size_t)r * d,
				    t->C + (size_t)i * d, d, t->Y[i * d + r],
				    prec);
		}
	}
}

void self_fmt_text_stage(FILE *out, const struct self_trace *t,
			 enum self_stage st, int head, int prec)
{
	switch (st) {
	case SELF_STAGE_X: text_x(out, t, prec); break;
	case SELF_STAGE_QKV: text_qkv(out, t, prec); break;
	case SELF_STAGE_SCORES: text_scores(out, t, head, prec); break;
	case SELF_STAGE_SOFTMAX: text_softmax(out, t, head, prec); break;
	case SELF_STAGE_Z: text_z(out, t, head, prec); break;
	case SELF_STAGE_OUT: text_out(out, t, prec); break;
	case SELF_STAGE_COUNT: break;
	}
}

int self_fmt_text(FILE *out, const struct self_trace *t, unsigned heads,
		  int prec)
{
	text_header(out, t, heads, prec);
	fputs("\n--- 1. X = embeddings + positional encoding ---\n", out);
	text_x(out, t, prec);
	fputs("\n--- 2. Q, K and V: each row a matrix-vector product ---\n",
	      out);
	text_qkv(out, t, prec);
	for (int h = 0; h < SELF_HEADS; h++)
		if (heads & (1u << h))
			text_head(out, t, h, prec);
	fprintf(out, "\n--- 5. concat(z[h1], z[h2]) and W_O ---\n");
	text_out(out, t, prec);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ JSON */

/* A matrix as rows of shortest numbers, -inf as null; every row cols
 * wide out of a row stride of stride. */
static void json_mat(struct fmt_buf *b, const double *W, int rows, int cols,
		     int stride)
{
	fmt_buf_putc(b, '[');
	for (int r = 0; r < rows; r++) {
		fmt_buf_puts(b, r ? ", [" : "[");
		for (int c = 0; c < cols; c++) {
			double x = W[(size_t)r * stride + c];
			fmt_buf_puts(b, c ? ", " : "");
			if (isinf(x))
				fmt_buf_puts(b, "null");
			else
				fmt_buf_json_num(b, x);
		}
		fmt_buf_putc(b, ']');
	}
	fmt_buf_putc(b, ']');
}

static void json_words(struct fmt_buf *b, char **w, int n)
{
	fmt_buf_putc(b, '[');
	for (int k = 0; k < n; k++) {
		fmt_buf_puts(b, k ? ", " : "");
		fmt_buf_json_string(b, w[k]);
	}
	fmt_buf_putc(b, ']');
}

/* ",\n \"key\": " or ", \"key\": " */
static void json_key(struct fmt_buf *b, const char *key, int compact,
		     int indent)
{
	fmt_buf_puts(b, ",");
	if (!compact) {
		fmt_buf_putc(b, '\n');
		fmt_buf_spaces(b, indent);
	} else {
		fmt_buf_putc(b, ' ');
	}
	fmt_buf_printf(b, "\"%s\": ", key);
}

int self_fmt_json(FILE *out, const struct self_trace *t, unsigned heads,
		  int compact)
{
	struct fmt_buf b = FMT_BUF_INIT;
	const int d = t->d, dk = t->dk, n = t->n, nq = t->nq;
	int first = 1;

	fmt_buf_printf(&b, "{\"format\": \"%s\"", SELF_FMT_JSON_VERSION);
	json_key(&b, "model", compact, 1);
	fmt_buf_json_string(&b, t->model_name);
	json_key(&b, "attention", compact, 1);
	fmt_buf_puts(&b, t->o.cross ? "\"cross\"" : "\"self\"");
	json_key(&b, "causal", compact, 1);
	fmt_buf_puts(&b, t->o.causal ? "true" : "false");
	json_key(&b, "position", compact, 1);
	fmt_buf_puts(&b, t->o.position ? "true" : "false");
	json_key(&b, "d_model", compact, 1);
	fmt_buf_int(&b, d);
	json_key(&b, "num_heads", compact, 1);
	fmt_buf_int(&b, SELF_HEADS);
	json_key(&b, "d_k", compact, 1);
	fmt_buf_int(&b, dk);
	json_key(&b, "source", compact, 1);
	json_words(&b, t->kwords, n);
	json_key(&b, "queries", compact, 1);
	json_words(&b, t->qwords, nq);
	for (int k = 0; k < MHA_NW; k++) {
		json_key(&b, self_wname[k], compact, 1);
		json_mat(&b, t->W[k], d, d, d);
	}
	struct { const char *key; const double *M; int rows; } mats[] = {
		{ "E_q", t->Eq, nq }, { "PE_q", t->PEq, nq }, { "X_q", t->Xq, nq },
		{ "E_kv", t->Ek, n }, { "PE_kv", t->PEk, n }, { "X_kv", t->Xk, n },
		{ "Q", t->Q, nq }, { "K", t->K, n }, { "V", t->V, n },
	};
	for (size_t k = 0; k < sizeof mats / sizeof mats[0]; k++) {
		json_key(&b, mats[k].key, compact, 1);
		json_mat(&b, mats[k].M, mats[k].rows, d, d);
	}
	json_key(&b, "heads", compact, 1);
	fmt_buf_putc(&b, '[');
	for (int h = 0; h < SELF_HEADS; h++) {
		if (!(heads & (1u << h)))
			continue;
		fmt_buf_puts(&b, first ? "" : ",");
		if (!compact)
			fmt_buf_puts(&b, first ? "\n  " : "\n  ");
		else if (!first)
			fmt_buf_putc(&b, ' ');
		first = 0;
		fmt_buf_printf(&b, "{\"head\": %d", h + 1);
		json_key(&b, "features", compact, 3);
		fmt_buf_printf(&b, "[%d, %d]", h * dk, (h + 1) * dk);
		json_key(&b, "Q", compact, 3);
		json_mat(&b, t->Q + h * dk, nq, dk, d);
		json_key(&b, "K", compact, 3);
		json_mat(&b, t->K + h * dk, n, dk, d);
		json_key(&b, "V", compact, 3);
		json_mat(&b, t->V + h * dk, n, dk, d);
		json_key(&b, "QK", compact, 3);
		json_mat(&b, t->dot[h], nq, n, n);
		json_key(&b, "scale", compact, 3);
		fmt_buf_json_num(&b, sqrt((double)dk));
		json_key(&b, "S", compact, 3);
		json_mat(&b, t->S[h], nq, n, n);
		json_key(&b, "S_masked", compact, 3);
		json_mat(&b, t->M[h], nq, n, n);
		json_key(&b, "A", compact, 3);
		json_mat(&b, t->A[h], nq, n, n);
		json_key(&b, "Z", compact, 3);
		json_mat(&b, t->Z[h], nq, dk, dk);
		fmt_buf_putc(&b, '}');
	}
	fmt_buf_putc(&b, ']');
	json_key(&b, "concat", compact, 1);
	json_mat(&b, t->C, nq, d, d);
	json_key(&b, "output", compact, 1);
	json_mat(&b, t->Y, nq, d, d);
	fmt_buf_puts(&b, "}\n");
	int rc = fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
	return rc;
}

/* ------------------------------------------------------------------- CSV */

/* One row a number: attention,head,matrix,row,col,row_word,col_word,value
 * (head empty for the matrices of both heads, col_word empty but for the
 * token-by-token matrices). */
static void csv_mat(FILE *out, const struct self_trace *t, int head,
		    const char *name, const double *W, int rows, int cols,
		    int stride, char **rw, char **cw)
{
	char buf[NUM_BUFSZ];
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			double x = W[(size_t)r * stride + c];
			fprintf(out, "%s,", t->o.cross ? "cross" : "self");
			if (head)
				fprintf(out, "%d", head);
			fprintf(out, ",%s,%d,%d,", name, r + 1, c + 1);
			if (rw)
				fmt_csv_field(out, rw[r]);
			putc(',', out);
			if (cw)
				fmt_csv_field(out, cw[c]);
			fprintf(out, ",%s\n", isinf(x) ? "-inf"
				: num_shortest(buf, x));
		}
}

int self_fmt_csv(FILE *out, const struct self_trace *t, unsigned heads)
{
	const int d = t->d, dk = t->dk, n = t->n, nq = t->nq;
	fputs("attention,head,matrix,row,col,row_word,col_word,value\n", out);
	for (int k = 0; k < MHA_NW; k++)
		csv_mat(out, t, 0, self_wname[k], t->W[k], d, d, d, NULL, NULL);
	csv_mat(out, t, 0, "E_q", t->Eq, nq, d, d, t->qwords, NULL);
	csv_mat(out, t, 0, "PE_q", t->PEq, nq, d, d, t->qwords, NULL);
	csv_mat(out, t, 0, "X_q", t->Xq, nq, d, d, t->qwords, NULL);
	csv_mat(out, t, 0, "E_kv", t->Ek, n, d, d, t->kwords, NULL);
	csv_mat(out, t, 0, "PE_kv", t->PEk, n, d, d, t->kwords, NULL);
	csv_mat(out, t, 0, "X_kv", t->Xk, n, d, d, t->kwords, NULL);
	csv_mat(out, t, 0, "Q", t->Q, nq, d, d, t->qwords, NULL);
	csv_mat(out, t, 0, "K", t->K, n, d, d, t->kwords, NULL);
	csv_mat(out, t, 0, "V", t->V, n, d, d, t->kwords, NULL);
	for (int h = 0; h < SELF_HEADS; h++) {
		if (!(heads & (1u << h)))
			continue;
		csv_mat(out, t, h + 1, "QK", t->dot[h], nq, n, n, t->qwords,
			t->kwords);
		csv_mat(out, t, h + 1, "S", t->S[h], nq, n, n, t->qwords,
			t->kwords);
		csv_mat(out, t, h + 1, "S_masked", t->M[h], nq, n, n,
			t->qwords, t->kwords);
		csv_mat(out, t, h + 1, "A", t->A[h], nq, n, n, t->qwords,
			t->kwords);
		csv_mat(out, t, h + 1, "Z", t->Z[h], nq, dk, dk, t->qwords,
			NULL);
	}
	csv_mat(out, t, 0, "concat", t->C, nq, d, d, t->qwords, NULL);
	csv_mat(out, t, 0, "output", t->Y, nq, d, d, t->qwords, NULL);
	return ferror(out) ? -1 : 0;
}

/* -------------------------------------------------------------- Markdown */

/* A table: a row for each row word (or number), a column for each column
 * word (or feature number). */
static void md_mat(FILE *out, const char *title, const double *W, int rows,
		   int cols, int stride, char **rw, char **cw, int prec)
{
	char buf[NUM_BUFSZ];
	fprintf(out, "\n### %s\n\n|   |", title);
	for (int c = 0; c < cols; c++) {
		putc(' ', out);
		if (cw)
			fmt_md_text(out, cw[c]);
		else
			fprintf(out, "%d", c + 1);
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (int c = 0; c < cols; c++)
		fputs("---:|", out);
	putc('\n', out);
	for (int r = 0; r < rows; r++) {
		fputs("| ", out);
		if (rw)
			fmt_md_text(out, rw[r]);
		else
			fprintf(out, "%d", r + 1);
		fputs(" |", out);
		for (int c = 0; c < cols; c++) {
			double x = W[(size_t)r * stride + c];
			fprintf(out, " %s |", isinf(x) ? "−∞"
				: fmt_num(buf, x, prec));
		}
		putc('\n', out);
	}
}

int self_fmt_md(FILE *out, const struct self_trace *t, unsigned heads,
		int prec)
{
	const int d = t->d, dk = t->dk, n = t->n, nq = t->nq;
	char title[128];

	fprintf(out, "# %s-attention of:", t->o.cross ? "Cross" : "Self");
	for (int j = 0; j < n; j++) {
		putc(' ', out);
		fmt_md_text(out, t->kwords[j]);
	}
	if (t->o.cross) {
		fputs(" (queries:", out);
		for (int i = 0; i < nq; i++) {
			putc(' ', out);
			fmt_md_text(out, t->qwords[i]);
		}
		putc(')', out);
	}
	fprintf(out, "\n\nModel ");
	fmt_md_text(out, t->model_name);
	fprintf(out, ": d_model %d, %d heads of d_k = d_v = %d; mask: %s; "
		"positions: %s.\n", d, SELF_HEADS, dk,
		t->o.causal ? "causal" : "none",
		t->o.position ? "sin/cos added" : "none");
	fputs("\n## 1. X = embeddings + positional encoding\n", out);
	if (t->o.cross) {
		md_mat(out, "E_q: embeddings of the target words", t->Eq, nq,
		       d, d, t->qwords, NULL, prec);
		md_mat(out, "PE_q: their positional encoding", t->PEq, nq, d,
		       d, t->qwords, NULL, prec);
		md_mat(out, "X_q = E_q + PE_q", t->Xq, nq, d, d, t->qwords,
		       NULL, prec);
	}
	md_mat(out, "E_kv: embeddings of the source words", t->Ek, n, d, d,
	       t->kwords, NULL, prec);
	md_mat(out, "PE_kv: their positional encoding", t->PEk, n, d, d,
	       t->kwords, NULL, prec);
	md_mat(out, "X_kv = E_kv + PE_kv", t->Xk, n, d, d, t->kwords, NULL,
	       prec);
	fputs("\n## 2. Q, K and V\n", out);
	md_mat(out, "Q = X W_Qᵀ", t->Q, nq, d, d, t->qwords, NULL, prec);
	md_mat(out, "K = X W_Kᵀ", t->K, n, d, d, t->kwords, NULL, prec);
	md_mat(out, "V = X W_Vᵀ", t->V, n, d, d, t->kwords, NULL, prec);
	for (int h = 0; h < SELF_HEADS; h++) {
		if (!(heads & (1u << h)))
			continue;
		fprintf(out, "\n## 3. Head %d\n", h + 1);
		snprintf(title, sizeof title, "QK: q_i·k_j on the features "
			 "of head %d", h + 1);
		md_mat(out, title, t->dot[h], nq, n, n, t->qwords, t->kwords,
		       prec);
		snprintf(title, sizeof title, "Scores S = Q K%s / √%d, head %d",
			 "ᵀ", dk, h + 1);
		md_mat(out, title, t->S[h], nq, n, n, t->qwords, t->kwords,
		       prec);
		if (t->o.causal) {
			snprintf(title, sizeof title, "Masked scores, head %d",
				 h + 1);
			md_mat(out, title, t->M[h], nq, n, n, t->qwords,
			       t->kwords, prec);
		}
		snprintf(title, sizeof title, "Weights A = softmax of each "
			 "row, head %d", h + 1);
		md_mat(out, title, t->A[h], nq, n, n, t->qwords, t->kwords,
		       prec);
		snprintf(title, sizeof title, "Z = A V, head %d", h + 1);
		md_mat(out, title, t->Z[h], nq, dk, dk, t->qwords, NULL,
		       prec);
	}
	fputs("\n## 5. Concat and W_O\n", out);
	md_mat(out, "concat(Z_1, Z_2)", t->C, nq, d, d, t->qwords, NULL, prec);
	md_mat(out, "Output = concat W_Oᵀ", t->Y, nq, d, d, t->qwords, NULL,
	       prec);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------- SVG */

#define SVG_CELL 64   /* a cell is this wide */
#define SVG_ROW 32    /* and this high */
#define SVG_FS 13     /* the font size */
#define SVG_GAP 40    /* between two heads */

/* The estimated width in px of s at the font size: 0.62 em a column. */
static int svg_text_px(const char *s)
{
	return (int)(utf8_width(s) * SVG_FS * 0.62 + 0.5);
}

int self_fmt_svg(FILE *out, const struct self_trace *t, unsigned heads,
		 int prec)
{
	int label = 0, top = 0, nh = 0;
	for (int i = 0; i < t->nq; i++)
		if (svg_text_px(t->qwords[i]) > label)
			label = svg_text_px(t->qwords[i]);
	for (int j = 0; j < t->n; j++)
		if (svg_text_px(t->kwords[j]) > top)
			top = svg_text_px(t->kwords[j]);
	for (int h = 0; h < SELF_HEADS; h++)
		nh += (heads >> h) & 1;
	label += 16;
	const int spill = top * 7 / 10; /* how far the last column's label
					   reaches right, at -45 degrees */
	top = spill + 70;
	const int panel = label + t->n * SVG_CELL;
	const int width = 20 + nh * panel + (nh - 1) * SVG_GAP + 20 + spill;
	const int height = top + t->nq * SVG_ROW + 30;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\" font-size=\"%d\">\n", width, height, width,
		height, FMT_SVG_FONTS, SVG_FS);
	fprintf(out, "<title>%s-attention weights A, a panel for each head"
		"%s</title>\n", t->o.cross ? "cross" : "self",
		t->o.causal ? " (causal mask)" : "");
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#ffffff\"/>\n", width, height);
	int x0 = 20;
	for (int h = 0; h < SELF_HEADS; h++) {
		if (!(heads & (1u << h)))
			continue;
		const int gx = x0 + label;
		fprintf(out, "<g class=\"head\" id=\"head%d\">\n", h + 1);
		fprintf(out, "<text x=\"%d\" y=\"22\" font-weight=\"bold\">head "
			"%d: rows are queries, columns keys</text>\n", x0, h + 1);
		for (int j = 0; j < t->n; j++) {
			int cx = gx + j * SVG_CELL + SVG_CELL / 2;
			fprintf(out, "<text transform=\"translate(%d %d) "
				"rotate(-45)\">", cx, top - 8);
			fmt_svg_text(out, t->kwords[j]);
			fputs("</text>\n", out);
		}
		for (int i = 0; i < t->nq; i++) {
			int y = top + i * SVG_ROW;
			fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
				gx - 8, y + SVG_ROW / 2 + SVG_FS / 3);
			fmt_svg_text(out, t->qwords[i]);
			fputs("</text>\n", out);
			for (int j = 0; j < t->n; j++) {
				double a = t->A[h][i * t->n + j];
				char hex[8], num[NUM_BUFSZ];
				int x = gx + j * SVG_CELL;
				fmt_svg_ramp(a, hex);
				fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
					"height=\"%d\" fill=\"%s\" "
					"stroke=\"#ffffff\"/>\n", x, y, SVG_CELL,
					SVG_ROW, hex);
				fprintf(out, "<text x=\"%d\" y=\"%d\" "
					"text-anchor=\"middle\" fill=\"%s\">%s"
					"</text>\n", x + SVG_CELL / 2,
					y + SVG_ROW / 2 + SVG_FS / 3,
					fmt_svg_dark(a) ? "#ffffff" : "#000000",
					self_masked(t, i, j) ? "−∞"
					: fmt_num(num, a, prec));
			}
		}
		fputs("</g>\n", out);
		x0 += panel + SVG_GAP;
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ quiz */

int self_quiz_make(struct quiz_question *q, const struct self_trace *t,
		   enum self_quiz_kind kind, int head, int i, int j, int k,
		   int precision, struct errbuf *err)
{
	memset(q, 0, sizeof *q);
	if (head < 1 || head > SELF_HEADS || i < 1 || i > t->nq ||
	    (kind != SELF_QUIZ_Z && (j < 1 || j > t->n)) ||
	    (kind == SELF_QUIZ_Z && (k < 1 || k > t->dk))) {
		err_set(err, "no such number in the self-attention trace");
		return -1;
	}
	if (precision < QUIZ_MIN_PREC)
		precision = QUIZ_MIN_PREC;
	if (precision > QUIZ_MAX_PREC)
		precision = QUIZ_MAX_PREC;
	q->st = t;
	q->self_kind = kind;
	q->head = head;
	q->i = i;
	q->j = j;
	q->k = k;
	q->t = 1;
	q->precision = precision;
	const int h = head - 1;
	switch (kind) {
	case SELF_QUIZ_SCORE:
		q->stage = STAGE_SCORING;
		snprintf(q->symbol, sizeof q->symbol, "s_%d,%d[h%d]", i, j, head);
		q->expected = t->S[h][(i - 1) * t->n + j - 1];
		break;
	case SELF_QUIZ_WEIGHT:
		q->stage = STAGE_SOFTMAX;
		snprintf(q->symbol, sizeof q->symbol, "α_%d,%d[h%d]", i, j, head);
		q->expected = t->A[h][(i - 1) * t->n + j - 1];
		break;
	case SELF_QUIZ_Z:
		q->stage = STAGE_WEIGHTED_SUM;
		snprintf(q->symbol, sizeof q->symbol, "z_%d[h%d][%d]", i, head, k);
		q->expected = t->Z[h][(i - 1) * t->dk + k - 1];
		break;
	}
	q->tolerance = quiz_tolerance(q->expected, precision);
	return 0;
}

/* A row of numbers with -inf for a masked score, "  label   [a, -inf]". */
static void quiz_row(FILE *out, const char *label, const double *v, int n,
		     int prec)
{
	char buf[NUM_BUFSZ];
	fputs("  ", out);
	fmt_pad(out, label, 36);
	fprintf(out, "(%d)   [", n);
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? ", " : "",
			isinf(v[k]) ? "-inf" : fmt_num(buf, v[k], prec));
	fputs("]\n", out);
}

void self_quiz_prompt_text(FILE *out, const struct quiz_question *q)
{
	const struct self_trace *t = q->st;
	const int h = q->head - 1, d = t->d, dk = t->dk, off = h * dk;
	const int i = q->i - 1, p = q->precision;
	char label[96];
	switch (q->self_kind) {
	case SELF_QUIZ_SCORE:
		fprintf(out, "Head %d compares the query of %s with the key of "
			"%s on its features %d-%d:\n", q->head, t->qwords[i],
			t->kwords[q->j - 1], off + 1, off + dk);
		snprintf(label, sizeof label, "q_%d[h%d]", q->i, q->head);
		fmt_text_line(out, 2, label, t->Q + (size_t)i * d + off, dk, p);
		snprintf(label, sizeof label, "k_%d[h%d]", q->j, q->head);
		fmt_text_line(out, 2, label, t->K + (size_t)(q->j - 1) * d + off,
			      dk, p);
		fprintf(out, "What is the score %s = (q_%d[h%d]·k_%d[h%d]) / "
			"√%d?\n", q->symbol, q->i, q->head, q->j, q->head, dk);
		break;
	case SELF_QUIZ_WEIGHT:
		fprintf(out, "The scores of row %d (%s) in head %d%s:\n", q->i,
			t->qwords[i], q->head, t->o.causal
			? ", after the causal mask" : "");
		snprintf(label, sizeof label, "s_%d[h%d]", q->i, q->head);
		quiz_row(out, label, t->M[h] + (size_t)i * t->n, t->n, p);
		fprintf(out, "What is the weight of %s, %s = exp(s_%d,%d - max) "
			"/ Σ_j exp(s_%d,j - max)?\n", t->kwords[q->j - 1],
			q->symbol, q->i, q->j, q->i);
		break;
	default:
		fprintf(out, "The weights of row %d (%s) in head %d and the "
			"values:\n", q->i, t->qwords[i], q->head);
		snprintf(label, sizeof label, "α_%d[h%d]", q->i, q->head);
		fmt_text_line(out, 2, label, t->A[h] + (size_t)i * t->n, t->n, p);
		for (int j = 0; j < t->n; j++) {
			snprintf(label, sizeof label, "v_%d[h%d] (%s)", j + 1,
				 q->head, t->kwords[j]);
			fmt_text_line(out, 2, label, t->V + (size_t)j * d + off,
				      dk, p);
		}
		fprintf(out, "What is coordinate %d of %s's output, %s = "
			"Σ_j α_%d,j·v_j[h%d][%d]?\n", q->k, t->qwords[i],
			q->symbol, q->i, q->head, q->k);
		break;
	}
}

int self_quiz_worked_text(FILE *out, const struct quiz_question *q)
{
	const struct self_trace *t = q->st;
	const int h = q->head - 1, d = t->d, dk = t->dk, off = h * dk;
	const int i = q->i - 1, p = q->precision;
	char a[NUM_BUFSZ], b[NUM_BUFSZ], fa[NUM_BUFSZ + 2], fb[NUM_BUFSZ + 2];
	switch (q->self_kind) {
	case SELF_QUIZ_SCORE:
		fprintf(out, "%s = (", q->symbol);
		for (int c = 0; c < dk; c++)
			fprintf(out, "%s%s×%s", c ? " + " : "",
				factor(fa, t->Q[i * d + off + c], p),
				factor(fb, t->K[(q->j - 1) * d + off + c], p));
		fmt_num(a, sqrt((double)dk), p);
		fprintf(out, ") / %s = %s / %s = %s\n", a,
			fmt_num(b, t->dot[h][i * t->n + q->j - 1], p), a,
			fmt_num(fa, q->expected, p));
		break;
	case SELF_QUIZ_WEIGHT: {
		const double *M = t->M[h] + (size_t)i * t->n;
		double max = -INFINITY, sum = 0;
		for (int j = 0; j < t->n; j++)
			if (M[j] > max)
				max = M[j];
		fprintf(out, "max = %s\n", fmt_num(a, max, p));
		for (int j = 0; j < t->n; j++) {
			double e = isinf(M[j]) ? 0 : exp(M[j] - max);
			sum += e;
			if (isinf(M[j]))
				fprintf(out, "exp(s_%d,%d - max) = exp(-inf) = 0\n",
					q->i, j + 1);
			else
				fprintf(out, "exp(s_%d,%d - max) = exp(%s) = %s\n",
					q->i, j + 1, fmt_num(a, M[j] - max, p),
					fmt_num(b, e, p));
		}
		fprintf(out, "sum = %s\n", fmt_num(a, sum, p));
		fprintf(out, "%s = exp(s_%d,%d - max) / sum = %s\n", q->symbol,
			q->i, q->j, fmt_num(b, q->expected, p));
		break;
	}
	default:
		fprintf(out, "%s = ", q->symbol);
		for (int j = 0; j < t->n; j++)
			fprintf(out, "%s%s×%s", j ? " + " : "",
				factor(fa, t->A[h][i * t->n + j], p),
				factor(fb, t->V[j * d + off + q->k - 1], p));
		fprintf(out, " = %s\n", fmt_num(a, q->expected, p));
		break;
	}
	return ferror(out) ? -1 : 0;
}
