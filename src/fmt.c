/* fmt.c: the pieces every formatter shares. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "num.h"
#include "utf8.h"
#include "util.h"

void fmt_opts_default(struct fmt_opts *o)
{
	o->precision = 4;
	o->top = 3;
	o->stages = (1u << STAGE_COUNT) - 1;
	o->terms = 1;
	o->compact = 0;
	o->pair = 0;
}

/* The columns s takes, as utf8_width() counts them: an ASCII byte is a
 * code point of width 1, and utf8_width(), which looks each code point up
 * in its tables, is asked only about the runs of other bytes (a UTF-8
 * sequence never holds an ASCII byte, so cutting there splits none). */
static int fmt_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char run[32];
	int w = 0;

	while (*p != '\0') {
		size_t n = 0;
		if (*p < 0x80) {
			p++;
			w++;
			continue;
		}
		while (p[n] >= 0x80)
			n++;
		if (n >= sizeof run) /* a long run: the rest in one go */
			return w + utf8_width((const char *)p);
		memcpy(run, p, n);
		run[n] = '\0';
		w += utf8_width(run);
		p += n;
	}
	return w;
}

void fmt_pad(FILE *out, const char *s, int width)
{
	char line[256];
	size_t n = strlen(s);
	int pad = width - fmt_width(s);

	if (pad < 0)
		pad = 0;
	if (n + (size_t)pad <= sizeof line) { /* the usual label: one fwrite */
		memcpy(line, s, n);
		memset(line + n, ' ', (size_t)pad);
		fwrite(line, 1, n + (size_t)pad, out);
		return;
	}
	fwrite(s, 1, n, out);
	for (; pad > 0; pad -= (int)sizeof line) {
		memset(line, ' ', sizeof line);
		fwrite(line, 1, pad < (int)sizeof line ? (size_t)pad : sizeof line,
		       out);
	}
}

/* A line put together in memory and written with one fwrite: far cheaper
 * than a stdio call for every piece.  fmt_line_room() makes room for n
 * more bytes, writing out what is there if need be. */
struct fmt_line {
	FILE *out;
	size_t len;
	char buf[4096];
};

static char *fmt_line_room(struct fmt_line *l, size_t n)
{
	if (l->len + n > sizeof l->buf) {
		fwrite(l->buf, 1, l->len, l->out);
		l->len = 0;
	}
	return l->buf + l->len;
}

static void fmt_line_put(struct fmt_line *l, const char *s, size_t n)
{
	memcpy(fmt_line_room(l, n), s, n);
	l->len += n;
}

static void fmt_line_end(struct fmt_line *l)
{
	fwrite(l->buf, 1, l->len, l->out);
	l->len = 0;
}

#define FMT_VEC_SMALL 32 /* numbers of a vector kept on the stack */

/* Every number is formatted once, into num (n slots of NUM_BUFSZ), and its
 * width kept, then they are written right-aligned to the widest. */
void fmt_text_vec(FILE *out, const double *v, int n, int prec)
{
	char small[FMT_VEC_SMALL][NUM_BUFSZ];
	unsigned char small_len[FMT_VEC_SMALL];
	char (*num)[NUM_BUFSZ] = small;
	unsigned char *len = small_len;
	struct fmt_line line;
	int width = 0;

	if (n > FMT_VEC_SMALL) {
		num = xcalloc((size_t)n, sizeof *num);
		len = xcalloc((size_t)n, sizeof *len);
	}
	for (int k = 0; k < n; k++) {
		len[k] = (unsigned char)strlen(num_fixed(num[k], v[k], prec));
		if (len[k] > width)
			width = len[k];
	}
	line.out = out;
	line.len = 0;
	fmt_line_put(&line, "[", 1);
	for (int k = 0; k < n; k++) {
		char *p = fmt_line_room(&line, (size_t)width + 2);
		size_t pad = (size_t)(width - len[k]);
		if (k) {
			*p++ = ',';
			*p++ = ' ';
		}
		memset(p, ' ', pad);
		memcpy(p + pad, num[k], len[k]);
		line.len += (k ? 2 : 0) + pad + len[k];
	}
	fmt_line_put(&line, "]", 1);
	fmt_line_end(&line);
	if (num != small) {
		free(num);
		free(len);
	}
}

void fmt_json_string(FILE *out, const char *s)
{
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				putc(*p, out);
		}
	}
	putc('"', out);
}

void fmt_json_vec(FILE *out, const double *v, int n)
{
	struct fmt_line line;

	line.out = out;
	line.len = 0;
	fmt_line_put(&line, "[", 1);
	for (int k = 0; k < n; k++) {
		char *p = fmt_line_room(&line, NUM_BUFSZ + 2);
		if (k) {
			*p++ = ',';
			*p++ = ' ';
		}
		line.len += (k ? 2 : 0) + strlen(num_shortest(p, v[k]));
	}
	fmt_line_put(&line, "]", 1);
	fmt_line_end(&line);
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
