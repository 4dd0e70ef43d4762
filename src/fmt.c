/* fmt.c: the pieces every formatter shares. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "utf8.h"
#include "util.h"

void fmt_opts_default(struct fmt_opts *o)
{
	o->precision = 4;
	o->top = 3;
	o->stages = (1u << STAGE_COUNT) - 1;
	o->terms = 1;
	o->no_by_word = 0;
	o->handout = 0;
	o->compact = 0;
	o->pair = 0;
	o->arch = NULL;
	o->nset = 0;
	o->set = NULL;
	o->base = NULL;
	o->csv_keys = 0;
}

void fmt_buf_grow(struct fmt_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len <= n)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void fmt_buf_int(struct fmt_buf *b, int v)
{
	char *p = fmt_buf_room(b, 12);
	b->len += (size_t)(num_itoa(p, v) - p);
}

void fmt_buf_printf(struct fmt_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(fmt_buf_room(b, (size_t)n + 1), (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

int fmt_buf_flush(struct fmt_buf *b, FILE *out)
{
	if (b->len > 0)
		fwrite(b->p, 1, b->len, out);
	b->len = 0;
	return ferror(out) ? -1 : 0;
}

void fmt_buf_free(struct fmt_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* The room fmt_buf_put_cols() asks for: strings of up to FMT_COLS_SHORT
 * - 2 bytes are measured as they are copied, longer ones the general
 * way. */
#define FMT_COLS_SHORT 64

int fmt_buf_put_cols(struct fmt_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *q = fmt_buf_room(b, FMT_COLS_SHORT);
	size_t i = 0, less = 0; /* bytes that are no column of their own */

	/* The usual string, short and made of ASCII and two-byte code points
	 * below U+0400, is copied in one pass that also measures it: no
	 * strlen, no utf8_width(), no memcpy.  Those code points take a column
	 * each (utf8_width() has none of them wide), but for the combining
	 * marks U+0300 .. U+036F (lead byte 0xcc, or 0xcd before 0xb0), which
	 * take none: the tilde of "h̃".  Each byte is stored before it is
	 * looked at (the NUL too, which the caller's next bytes overwrite). */
	while (i < FMT_COLS_SHORT - 2) {
		unsigned c = p[i], c1;
		q[i] = (char)c;
		if (c - 1 < 0x7f) { /* ASCII, not the NUL */
			i++;
			continue;
		}
		if (c == 0) {
			b->len += i;
			return (int)(i - less);
		}
		c1 = p[i + 1];
		if (c < 0xc2 || c > 0xcf || (c1 & 0xc0) != 0x80)
			break;
		q[i + 1] = (char)c1;
		i += 2;
		less += 1 + (c == 0xcc || (c == 0xcd && c1 < 0xb0));
	}
	/* anything else, the general way: b->len has not moved, so what the
	 * loop copied is simply written again */
	fmt_buf_puts(b, s);
	return utf8_width(s);
}

void fmt_buf_pad(struct fmt_buf *b, const char *s, int width)
{
	fmt_buf_spaces(b, width - fmt_buf_put_cols(b, s));
}

void fmt_pad(FILE *out, const char *s, int width)
{
	struct fmt_buf b = FMT_BUF_INIT;
	fmt_buf_pad(&b, s, width);
	fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
}

#define FMT_VEC_SMALL 32 /* numbers of a vector kept on the stack */
#define FMT_VEC_COPY 24  /* bytes of a number copied at once (< NUM_BUFSZ) */

/* fmt_buf_text_vec() of whole numbers (prec < 0): "[ 3, 10,  1]", each
 * right-aligned to the widest, with no column for a sign. */
static void fmt_buf_whole_vec(struct fmt_buf *b, const double *v, int n)
{
	char num[NUM_BUFSZ];
	int width = 1;
	for (int k = 0; k < n; k++) {
		int w = (int)strlen(num_fixed(num, v[k], 0));
		if (w > width)
			width = w;
	}
	fmt_buf_putc(b, '[');
	for (int k = 0; k < n; k++) {
		num_fixed(num, v[k], 0);
		if (k)
			fmt_buf_put(b, ", ", 2);
		fmt_buf_spaces(b, width - (int)strlen(num));
		fmt_buf_puts(b, num);
	}
	fmt_buf_putc(b, ']');
}

/* Every number is formatted once, into num (n slots of NUM_BUFSZ), and its
 * width kept, then they are written right-aligned to the widest. */
void fmt_buf_text_vec(struct fmt_buf *b, const double *v, int n, int prec)
{
	char small[FMT_VEC_SMALL][NUM_BUFSZ];
	unsigned char small_len[FMT_VEC_SMALL];
	char (*num)[NUM_BUFSZ] = small;
	unsigned char *len = small_len;
	size_t width;

	if (prec < 0) {
		fmt_buf_whole_vec(b, v, n);
		return;
	}
	if (n > FMT_VEC_SMALL) {
		num = xcalloc((size_t)n, sizeof *num);
		len = xcalloc((size_t)n, sizeof *len);
	}
	width = num_fixed_many(num, len, v, n, prec);
	/* the sign column is always reserved, so that the numbers of one
	 * vector line up with those of the next whatever their signs */
	for (int k = 0; k < n; k++)
		if (num[k][0] != '-' && len[k] + 1u > width)
			width = len[k] + 1u;
	/* room for the fixed-size copies below to run past the end */
	char *p = fmt_buf_room(b, (size_t)n * (width + 2) + 2 + FMT_VEC_COPY),
	     *start = p;
	*p++ = '[';
	for (int k = 0; k < n; k++) {
		size_t pad = width - len[k];
		/* the usual short pad and number as copies of a constant size
		 * (a few instructions, not a call), the bytes past them
		 * overwritten by what comes next */
		if (pad <= 8 && len[k] <= FMT_VEC_COPY) {
			memcpy(p, "        ", 8);
			memcpy(p + pad, num[k], FMT_VEC_COPY);
		} else {
			memset(p, ' ', pad);
			memcpy(p + pad, num[k], len[k]);
		}
		/* every number followed by ", ", with no test for the last:
		 * the ']' goes over its separator */
		memcpy(p + width, ", ", 2);
		p += width + 2;
	}
	if (n > 0)
		p -= 2;
	*p++ = ']';
	b->len += (size_t)(p - start);
	if (num != small) {
		free(num);
		free(len);
	}
}

int fmt_op_prec(const struct trace_rec *r, int k, int prec)
{
	const char *key = r->ops[k].key;
	return r->kind == REC_SAMPLES && key && strcmp(key, "l") == 0 ? -1
								       : prec;
}

void fmt_text_vec(FILE *out, const double *v, int n, int prec)
{
	struct fmt_buf b = FMT_BUF_INIT;
	fmt_buf_text_vec(&b, v, n, prec);
	fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
}

void fmt_buf_json_string(struct fmt_buf *b, const char *s)
{
	fmt_buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fmt_buf_put(b, "\\\"", 2); break;
		case '\\': fmt_buf_put(b, "\\\\", 2); break;
		case '\n': fmt_buf_put(b, "\\n", 2); break;
		case '\r': fmt_buf_put(b, "\\r", 2); break;
		case '\t': fmt_buf_put(b, "\\t", 2); break;
		case '\b': fmt_buf_put(b, "\\b", 2); break;
		case '\f': fmt_buf_put(b, "\\f", 2); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				char *q = fmt_buf_room(b, 6);
				memcpy(q, "\\u00", 4);
				q[4] = "0123456789abcdef"[*p >> 4];
				q[5] = "0123456789abcdef"[*p & 15];
				b->len += 6;
			} else {
				fmt_buf_putc(b, (char)*p);
			}
		}
	}
	fmt_buf_putc(b, '"');
}

void fmt_json_string(FILE *out, const char *s)
{
	struct fmt_buf b = FMT_BUF_INIT;
	fmt_buf_json_string(&b, s);
	fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
}

void fmt_buf_json_vec(struct fmt_buf *b, const double *v, int n)
{
	char *p = fmt_buf_room(b, (size_t)n * (NUM_BUFSZ + 2) + 2), *start = p;
	*p++ = '[';
	p = num_shortest_join(p, v, n, ", ", 2);
	*p++ = ']';
	b->len += (size_t)(p - start);
}

void fmt_buf_json_num(struct fmt_buf *b, double x)
{
	char *p = fmt_buf_room(b, NUM_BUFSZ);
	b->len += num_shortest_len(p, x);
}

void fmt_json_vec(FILE *out, const double *v, int n)
{
	struct fmt_buf b = FMT_BUF_INIT;
	fmt_buf_json_vec(&b, v, n);
	fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
}

void fmt_json_mat(FILE *out, const double *W, int rows, int cols)
{
	putc('[', out);
	for (int r = 0; r < rows; r++) {
		fputs(r ? ", " : "", out);
		fmt_json_vec(out, W + (size_t)r * cols, cols);
	}
	putc(']', out);
}

const char *fmt_scorer_formula(const struct trace *tr, int sc, char *buf,
			       size_t size)
{
	const char *f = _(scorer_get(sc)->formula), *p = f;
	size_t n = 0;

	if (tr->query_off == 0)
		return f;
	/* every "s_t" that is the query becomes "s_{t-1}" */
	while (*p && n + 8 < size) {
		if (p[0] == 's' && p[1] == '_' && p[2] == 't' &&
		    (p == f || !isalnum((unsigned char)p[-1]))) {
			memcpy(buf + n, "s_{t-1}", 7);
			n += 7;
			p += 3;
		} else {
			buf[n++] = *p++;
		}
	}
	buf[n] = '\0';
	return buf;
}

int fmt_mat_section(const struct trace *tr, const struct trace_rec *r,
		    char *title, size_t size)
{
	const int h = r->head, dk = tr->self.dk;
	int sec;
	switch (r->stage) {
	case STAGE_INPUT: sec = 1; break;
	case STAGE_PROJECTION: sec = 2; break;
	case STAGE_SCORING:
	case STAGE_SOFTMAX: sec = 3; break;
	case STAGE_WEIGHTED_SUM: sec = 4; break;
	default: sec = 5; break;
	}
	if (!title)
		return sec;
	switch (sec) {
	case 1: snprintf(title, size, "%s",
			 _("X = embeddings + positional encoding"));
		break;
	case 2: snprintf(title, size, "%s", _("Q, K and V: each row a "
			 "matrix-vector product"));
		break;
	case 3: snprintf(title, size, _("head %d: features %d-%d of q, k and v"),
			 h, (h - 1) * dk + 1, h * dk);
		break;
	case 4: snprintf(title, size, _("head %d: z_i = Σ_j α_i,j v_j[h%d]"), h,
			 h);
		break;
	default:
		snprintf(title, size, "%s", _("concat(z[h1], z[h2]) and W_O"));
		break;
	}
	return sec;
}
