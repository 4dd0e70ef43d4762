/* fmt_csv.c: a recorded trace as CSV in long form, one number a row. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "fmt.h"
#include "num.h"

/* Whether s is a decimal number (a sign, digits, a fraction, an
 * exponent), which a spreadsheet reads as that number: never a formula. */
static int csv_number(const char *s)
{
	static const char digits[] = "0123456789";
	const char *p = s + (*s == '-' || *s == '+');
	size_t n = strspn(p, digits);
	if (!n)
		return 0;
	p += n;
	if (*p == '.') {
		if (!(n = strspn(++p, digits)))
			return 0;
		p += n;
	}
	if (*p == 'e' || *p == 'E') {
		p += 1 + (p[1] == '-' || p[1] == '+');
		if (!(n = strspn(p, digits)))
			return 0;
		p += n;
	}
	return *p == '\0';
}

/* Whether the text cell s (a word) would run as a formula in a
 * spreadsheet: it starts with =, +, -, @, a tab or a carriage return and
 * is not a number.  Such a cell is written the way OWASP's "CSV
 * Injection" advises: a single quote before it, and the whole quoted. */
static int csv_formula(const char *s)
{
	return *s && strchr("=+-@\t\r", *s) && !csv_number(s);
}

/* A CSV field, quoted when it holds a comma, a quote or a line break,
 * and neutralised when it could run as a formula (csv_formula()). */
void fmt_csv_field(FILE *out, const char *s)
{
	int formula = csv_formula(s);
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	if (formula)
		putc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', out);
		putc(*s, out);
	}
	putc('"', out);
}

/* Copies s to p, quoted and neutralised as fmt_csv_field() writes it, and
 * returns the byte after it (no NUL); p has room for 2·strlen(s) + 3
 * bytes. */
static char *csv_field_put(char *p, const char *s)
{
	int formula = csv_formula(s);
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		size_t n = strlen(s);
		memcpy(p, s, n);
		return p + n;
	}
	*p++ = '"';
	if (formula)
		*p++ = '\'';
	for (; *s; s++) {
		if (*s == '"')
			*p++ = '"';
		*p++ = *s;
	}
	*p++ = '"';
	return p;
}

/* The rows of one vector: a row a component.  The fields before the index
 * are the same on every row, so they are put together once in head, and
 * each row is put together in row and written with one fwrite. */
/* The word entry k of a vector over axis stands for, or "". */
static const char *csv_word(const struct trace *tr, enum op_axis axis, int k)
{
	switch (axis) {
	case AXIS_SOURCE: return tr->m->src.words[tr->src[k]];
	case AXIS_VOCAB: return tr->m->tgt.words[k];
	case AXIS_TARGET: return tr->m->tgt.words[tr->tgt[k]];
	case AXIS_NONE: break;
	}
	return "";
}

/* The fields after the value: the word of the entry, the source word of
 * the record's position and the word the decoder wrote at its step, each
 * "" where there is none; written at p, which has room for 3 · 130
 * bytes.  Returns the byte after them.  With keys ('calc', whose source
 * words are the keys k1 .. kn), the key a row is about goes in the
 * source column on every row: the entry's in a vector over the keys
 * (α_1, e - max), else the record's (e_1,2, α_1,2·v_2); a learner found
 * k1 under "source" for the scores but under "word" for the softmax. */
static char *csv_words_put(char *p, const struct trace *tr,
			   const struct trace_rec *r, enum op_axis axis, int k,
			   int keys)
{
	*p++ = ',';
	if (!keys)
		p = csv_field_put(p, csv_word(tr, axis, k));
	*p++ = ',';
	if (keys && axis == AXIS_SOURCE)
		p = csv_field_put(p, csv_word(tr, axis, k));
	else if (r->i > 0)
		p = csv_field_put(p, tr->m->src.words[tr->src[r->i - 1]]);
	*p++ = ',';
	if (r->run >= 0)
		p = csv_field_put(p, tr->m->tgt.words[
			tr->runs[r->run].pred[r->t - 1]]);
	return p;
}

/* Entries lo .. hi (from 1) of v apply, the others' values are left empty
 * (lo 0: every entry applies). */
static void csv_vec(FILE *out, const struct trace *tr,
		    const struct trace_rec *r, const struct fmt_opts *o,
		    const char *symbol, const double *v, int len,
		    enum op_axis axis, int lo, int hi)
{
	char head[256], row[256 + 16 + NUM_BUFSZ + 3 * (2 * MODEL_MAX_WORD + 4)];
	char *p = head;
	size_t nhead;
	const char *scorer = r->run < 0 ? ""
			   : trace_scorer_name(tr->runs[r->run].scorer);
	const char *stage = trace_stage_name(r->stage);
	if (2 * strlen(symbol) + strlen(scorer) + strlen(stage) + 40 >
	    sizeof head) { /* never, with the trace's symbols and labels */
		for (int k = 0; k < len; k++) {
			if (o->arch)
				fprintf(out, "%s,", o->arch);
			if (o->pair)
				fprintf(out, "%d,", o->pair);
			fprintf(out, "%s,%d,%s,", scorer, r->t, stage);
			fmt_csv_field(out, symbol);
			fprintf(out, ",%d,%s", k + 1, lo && (k + 1 < lo ||
				k + 1 > hi) ? "" : num_shortest(row, v[k]));
			*csv_words_put(row, tr, r, axis, k, o->csv_keys) = '\0';
			fprintf(out, "%s\n", row);
		}
		return;
	}
	if (o->arch) {
		p = stpcpy(p, o->arch);
		*p++ = ',';
	}
	if (o->pair) {
		p = num_itoa(p, o->pair);
		*p++ = ',';
	}
	p = stpcpy(p, scorer);
	*p++ = ',';
	p = num_itoa(p, r->t);
	*p++ = ',';
	p = stpcpy(p, stage);
	*p++ = ',';
	p = csv_field_put(p, symbol);
	*p++ = ',';
	nhead = (size_t)(p - head);
	memcpy(row, head, nhead);
	for (int k = 0; k < len; k++) {
		p = num_itoa(row + nhead, k + 1);
		*p++ = ',';
		if (!lo || (k + 1 >= lo && k + 1 <= hi))
			p += num_shortest_len(p, v[k]);
		p = csv_words_put(p, tr, r, axis, k, o->csv_keys);
		*p++ = '\n';
		fwrite(row, 1, (size_t)(p - row), out);
	}
}

void fmt_csv_header(FILE *out, const struct fmt_opts *o)
{
	fprintf(out, "%s%sscorer,t,stage,symbol,index,value,word,source,"
		"output\n", o->arch ? "arch," : "", o->pair ? "pair," : "");
}

/* ------------------------------------------------------ matrix records */

/* Self-attention's trace (trace.prog TRACE_SELF), a number a row:
 * attention,head,stage,matrix,row,col,row_word,col_word,value; the
 * weights first (head and stage empty), then each record's intermediates
 * with a plain name and its result. */
static void csv_mat(FILE *out, const struct trace *tr, const char *stage,
		    int head, const char *name, const double *v, int len,
		    int rows, enum op_axis row_axis, enum op_axis col_axis)
{
	char buf[NUM_BUFSZ];
	const int cols = len / rows;
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++) {
			const char *rw = trace_axis_word(tr, row_axis, i);
			const char *cw = trace_axis_word(tr, col_axis, j);
			double x = v[i * cols + j];
			fputs(tr->self.cross ? "cross," : "self,", out);
			if (head)
				fprintf(out, "%d", head);
			fprintf(out, ",%s,", stage);
			fmt_csv_field(out, name);
			fprintf(out, ",%d,%d,", i + 1, j + 1);
			fmt_csv_field(out, rw ? rw : "");
			putc(',', out);
			fmt_csv_field(out, cw ? cw : "");
			fprintf(out, ",%s\n", x == -INFINITY ? "-inf"
						   : num_shortest(buf, x));
		}
}

static int csv_mat_trace(FILE *out, const struct trace *tr)
{
	fputs("attention,head,stage,matrix,row,col,row_word,col_word,value\n",
	      out);
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		for (int j = 0; j < r->nops; j++)
			if (r->ops[j].role == OP_WEIGHT)
				csv_mat(out, tr, "", 0, r->ops[j].name,
					r->ops[j].v, r->ops[j].len,
					r->ops[j].rows, AXIS_NONE, AXIS_NONE);
	}
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		const char *stage = trace_stage_name(r->stage);
		for (int j = 0; j < r->nops; j++)
			if (r->ops[j].key)
				csv_mat(out, tr, stage, r->head, r->ops[j].key,
					r->ops[j].v, r->ops[j].len,
					r->ops[j].rows, r->ops[j].row_axis,
					r->ops[j].axis);
		csv_mat(out, tr, stage, r->head, r->key, r->result, r->len,
			r->rows, r->row_axis, r->result_axis);
	}
	return ferror(out) ? -1 : 0;
}

/* A run's gradient paths (--gradient-paths), record r, whatever --stage
 * keeps, as the text trace: L_t; for each source word i, dL_t/dh_i and
 * its two parts, H rows each whose source is word i ("∂L_3/∂h_2",
 * "∂L_3/∂h_2 direct", "∂L_3/∂h_2 through the recurrence"); then the
 * norms, a row a source word ("‖∂L_3/∂h_i‖", "‖direct‖", "‖through the
 * recurrence‖"). */
static void csv_gradpath(FILE *out, const struct trace *tr,
			 const struct trace_rec *r, const struct fmt_opts *o)
{
	const int H = tr->m->H;
	struct trace_rec ri = *r; /* r at source position i, for its rows */
	char sym[96];

	snprintf(sym, sizeof sym, "L_%d", r->t);
	csv_vec(out, tr, r, o, sym, trace_op_key(r, "loss")->v, 1, AXIS_NONE,
		0, 0);
	for (int i = 0; i < tr->n; i++) {
		ri.i = i + 1;
		for (int k = 0; k < 3; k++) {
			snprintf(sym, sizeof sym, "∂L_%d/∂h_%d%s%s", r->t,
				 i + 1, k ? " " : "", k ? r->ops[k].name : "");
			csv_vec(out, tr, &ri, o, sym,
				r->ops[k].v + (size_t)i * H, H, AXIS_NONE, 0,
				0);
		}
	}
	snprintf(sym, sizeof sym, "‖∂L_%d/∂h_i‖", r->t);
	csv_vec(out, tr, r, o, sym, r->result, r->len, AXIS_SOURCE, 0, 0);
	for (int k = 3; k < 5; k++)
		csv_vec(out, tr, r, o, r->ops[k].name, r->ops[k].v,
			r->ops[k].len, AXIS_SOURCE, 0, 0);
}

int fmt_csv_trace(FILE *out, const struct trace *tr, const struct fmt_opts *o,
		  int header)
{
	if (tr->prog == TRACE_SELF)
		return csv_mat_trace(out, tr);
	if (header)
		fmt_csv_header(out, o);
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		struct trace_names nm;
		if (r->kind == REC_GRADPATH) {
			csv_gradpath(out, tr, r, o);
			continue;
		}
		if (!(o->stages & (1u << r->stage)) || r->kind == REC_SCORES)
			continue;
		trace_names(tr, r, &nm);
		/* the intermediates a record computed, then its result; a
		 * softmax over a local window computes e - max and exp(e -
		 * max) inside it only, so the words outside have no value */
		int lo = r->kind == REC_SOFTMAX ? r->win_lo : 0;
		for (int j = 0; j < r->nops; j++)
			if (!r->ops[j].input)
				csv_vec(out, tr, r, o, nm.op[j], r->ops[j].v,
					r->ops[j].len, r->ops[j].axis,
					r->ops[j].axis == AXIS_SOURCE ? lo : 0,
					r->win_hi);
		csv_vec(out, tr, r, o, nm.symbol, r->result, r->len,
			r->result_axis, 0, 0);
	}
	return ferror(out) ? -1 : 0;
}
