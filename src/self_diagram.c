/* self_diagram.c: the line diagram of one self-attention head, without
 * curses (self_diagram.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "num.h"
#include "self_diagram.h"
#include "utf8.h"
#include "util.h"

static const char glyph[SELF_DIAGRAM_LEVELS] = { ' ', '.', '-', '=', '#' };

int self_diagram_level(double w)
{
	int l = 1 + (int)floor(w * 4);
	if (l < 1)
		l = 1;
	if (l > SELF_DIAGRAM_LEVELS - 1)
		l = SELF_DIAGRAM_LEVELS - 1;
	return l;
}

/* The REC_ROW_SOFTMAX record of head h (0-based), or NULL. */
static const struct trace_rec *softmax_rec(const struct self_trace *t, int h)
{
	for (int k = 0; k < t->tr.nrecs; k++)
		if (t->tr.recs[k].kind == REC_ROW_SOFTMAX &&
		    t->tr.recs[k].head == h + 1)
			return &t->tr.recs[k];
	return NULL;
}

static void push(struct self_diagram *d, char *s, int *cap)
{
	if (d->nlines == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		d->lines = xreallocarray(d->lines, (size_t)*cap,
					 sizeof *d->lines);
	}
	d->lines[d->nlines++] = s;
}

/* s cut to at most width columns, in place. */
static void cut(char *s, int width)
{
	int cols = 0;
	size_t k = 0;
	while (s[k]) {
		size_t len = utf8_char_len(s + k);
		char c[8];
		if (len == 0 || len >= sizeof c)
			len = 1;
		memcpy(c, s + k, len);
		c[len] = '\0';
		int w = utf8_width(c);
		if (cols + w > width)
			break;
		cols += w;
		k += len;
	}
	s[k] = '\0';
	while (k > 0 && s[k - 1] == ' ')
		s[--k] = '\0';
}

static int words_cols(char *const *w, int n)
{
	int m = 0;
	for (int k = 0; k < n; k++)
		if (utf8_width(w[k]) > m)
			m = utf8_width(w[k]);
	return m;
}

int self_diagram_build(struct self_diagram *d, const struct self_trace *t,
		       int head, int row, int width, int prec)
{
	const struct trace_rec *r;
	int cap = 0, lo, hi;

	memset(d, 0, sizeof *d);
	if (head < 0 || head >= SELF_HEADS || row < -1 || row >= t->nq)
		return -1;
	r = softmax_rec(t, head);
	if (!r)
		return -1;
	d->head = head;
	d->row = row;
	d->nq = t->nq;
	d->n = t->n;
	d->qwords = t->qwords;
	d->kwords = t->kwords;
	lo = row < 0 ? 0 : row;
	hi = row < 0 ? t->nq : row + 1;
	d->npairs = (hi - lo) * t->n;
	d->pairs = xcalloc((size_t)d->npairs, sizeof *d->pairs);
	for (int i = lo; i < hi; i++) {
		struct self_diagram_pair *p = d->pairs + (size_t)(i - lo) * t->n;
		int best = -1;
		for (int j = 0; j < t->n; j++) {
			size_t at = (size_t)i * t->n + j;
			p[j].i = i;
			p[j].j = j;
			p[j].w = r->result[at];
			/* operand 0: the scores weighed, -inf where masked */
			p[j].masked = isinf(r->ops[0].v[at]) &&
				      r->ops[0].v[at] < 0;
			p[j].level = p[j].masked ? 0
						 : self_diagram_level(p[j].w);
			if (!p[j].masked && (best < 0 || p[j].w > p[best].w))
				best = j;
		}
		if (best >= 0)
			p[best].is_max = 1;
	}

	/* the picture: for each row, a fan from the query to every key */
	int qw = words_cols(t->qwords, t->nq) + 4;
	int kw = words_cols(t->kwords, t->n) + 4;
	int tail = prec + 3 + 12; /* the weight and "  <- largest" */
	int len = width - qw - 3 - kw - tail;
	char num[NUM_BUFSZ];
	if (len > 24)
		len = 24;
	if (len < 4)
		len = 4;
	char *head_line = xmalloc(80);
	snprintf(head_line, 80, "head %d: a line from each query to each "
		 "key, as thick as its weight", head + 1);
	push(d, head_line, &cap);
	push(d, xstrdup("  . under 0.25   - under 0.5   = under 0.75   "
			"# 0.75 and over"), &cap);
	for (int i = lo; i < hi; i++) {
		const struct self_diagram_pair *p =
			d->pairs + (size_t)(i - lo) * t->n;
		int mid = (t->n - 1) / 2;
		push(d, xstrdup(""), &cap);
		for (int j = 0; j < t->n; j++) {
			char *line = NULL, lab[16];
			size_t sz = 0;
			FILE *f = open_memstream(&line, &sz);
			if (j == mid) {
				snprintf(lab, sizeof lab, "%d ", i + 1);
				fputs(lab, f);
				fmt_pad(f, t->qwords[i], qw - (int)strlen(lab));
				fputs("--", f);
			} else {
				fprintf(f, "%*s", qw + 2, "");
			}
			fputc(t->n == 1 ? '-' : j == 0 ? '.' :
			      j == t->n - 1 ? '\'' : '+', f);
			for (int c = 0; c < len; c++)
				fputc(glyph[p[j].level], f);
			snprintf(lab, sizeof lab, " %d ", j + 1);
			fputs(lab, f);
			fmt_pad(f, t->kwords[j], kw - (int)strlen(lab) + 1);
			if (p[j].masked) {
				fprintf(f, " %*s", prec + 3, "masked");
			} else {
				fmt_num(num, p[j].w, prec);
				fprintf(f, " %*s", prec + 3, num);
				if (p[j].is_max)
					fputs("  <- largest", f);
			}
			fclose(f);
			push(d, line, &cap);
		}
	}
	for (int k = 0; k < d->nlines; k++)
		cut(d->lines[k], width);
	return 0;
}

void self_diagram_free(struct self_diagram *d)
{
	for (int k = 0; k < d->nlines; k++)
		free(d->lines[k]);
	free(d->lines);
	free(d->pairs);
	memset(d, 0, sizeof *d);
}
