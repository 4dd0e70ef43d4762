/* fmt.c: the pieces every formatter shares. */
#include "config.h"

#include <string.h>

#include "fmt.h"
#include "num.h"
#include "utf8.h"

void fmt_opts_default(struct fmt_opts *o)
{
	o->precision = 4;
	o->top = 3;
	o->stages = (1u << STAGE_COUNT) - 1;
	o->terms = 1;
	o->compact = 0;
	o->pair = 0;
}

void fmt_pad(FILE *out, const char *s, int width)
{
	fputs(s, out);
	for (int w = utf8_width(s); w < width; w++)
		putc(' ', out);
}

void fmt_text_vec(FILE *out, const double *v, int n, int prec)
{
	char buf[NUM_BUFSZ];
	int width = 0;
	for (int k = 0; k < n; k++) {
		int w = (int)strlen(num_fixed(buf, v[k], prec));
		if (w > width)
			width = w;
	}
	putc('[', out);
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%*s", k ? ", " : "", width,
			num_fixed(buf, v[k], prec));
	putc(']', out);
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
	char buf[NUM_BUFSZ];
	putc('[', out);
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? ", " : "", num_shortest(buf, v[k]));
	putc(']', out);
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
