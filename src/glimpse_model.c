/* glimpse_model.c: glimpse model files, read and written (glimpse.h;
 * the format: doc/model-format.md, "Glimpse models"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glimpse.h"
#include "i18n.h"
#include "model.h"
#include "num.h"
#include "util.h"

#define GLIMPSE_MAGIC "attn-trace-glimpse"
#define GLIMPSE_MAX_FILE (1024 * 1024)

/* The reader's place: the text, the line being read and its number. */
struct gm_reader {
	const char *name;
	const char *text, *end;   /* the whole text */
	const char *line, *eol;   /* the line, comment and CR cut off */
	const char *pos;          /* the next byte of the line */
	int lineno;
	struct errbuf *err;
};

/* Moves to the next line that is not blank or a comment; 0 at the end. */
static int gm_next_line(struct gm_reader *r)
{
	while (r->text < r->end) {
		const char *nl = memchr(r->text, '\n', (size_t)(r->end - r->text));
		const char *e = nl ? nl : r->end;
		r->line = r->pos = r->text;
		r->text = nl ? nl + 1 : r->end;
		r->lineno++;
		const char *hash = memchr(r->line, '#', (size_t)(e - r->line));
		r->eol = hash ? hash : e;
		if (!hash && r->eol > r->line && r->eol[-1] == '\r')
			r->eol--;
		const char *p = r->line;
		while (p < r->eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p < r->eol)
			return 1;
	}
	r->line = r->pos = r->eol = r->end;
	return 0;
}

/* The next word of the line into w (cap bytes), its column into *col;
 * 0 at the end of the line.  A word of cap bytes or more becomes its
 * first 20 and "...", which no key, class name or number is. */
static int gm_word(struct gm_reader *r, char *w, size_t cap, int *col)
{
	while (r->pos < r->eol && (*r->pos == ' ' || *r->pos == '\t'))
		r->pos++;
	*col = (int)(r->pos - r->line) + 1;
	const char *s = r->pos;
	while (r->pos < r->eol && *r->pos != ' ' && *r->pos != '\t')
		r->pos++;
	size_t n = (size_t)(r->pos - s);
	if (n >= cap) /* a word no key, class or number is: say so */
		snprintf(w, cap, "%.*s...", (int)(cap > 24 ? 20 : 0), s);
	else {
		memcpy(w, s, n);
		w[n] = '\0';
	}
	return r->pos > s;
}

/* The error "NAME:LINE:COL: expected WHAT, found 'W'" (or the end). */
static int gm_fail(struct gm_reader *r, int col, const char *what,
		   const char *found)
{
	if (found && *found)
		err_set(r->err, _("%s:%d:%d: expected %s, found '%s'"), r->name,
			r->lineno, col, what, found);
	else
		err_set(r->err, _("%s:%d:%d: expected %s, found the end of %s"),
			r->name, r->lineno, col, what,
			r->line == r->end ? _("the file") : _("the line"));
	return -1;
}

/* The next line, which must start with the word key; *col after it. */
static int gm_key(struct gm_reader *r, const char *key, int *col)
{
	char w[64], what[96];
	snprintf(what, sizeof what, "'%s'", key);
	if (!gm_next_line(r))
		return gm_fail(r, 1, what, "");
	gm_word(r, w, sizeof w, col);
	if (strcmp(w, key) != 0)
		return gm_fail(r, *col, what, w);
	return 0;
}

/* The line "KEY N" with N whole in lo .. hi. */
static int gm_size(struct gm_reader *r, const char *key, int lo, int hi,
		   int *out)
{
	char w[64], what[96];
	int col;
	double v;
	const char *end;
	if (gm_key(r, key, &col))
		return -1;
	snprintf(what, sizeof what, _("a whole number from %d to %d"), lo, hi);
	if (!gm_word(r, w, sizeof w, &col) || num_parse(w, &v, &end) ||
	    *end || v != floor(v) || v < lo || v > hi)
		return gm_fail(r, col, what, w);
	*out = (int)v;
	if (gm_word(r, w, sizeof w, &col))
		return gm_fail(r, col, "the end of the line", w);
	return 0;
}

/* The head: magic, sizes, sigma, classes. */
static int gm_head(struct gm_reader *r, struct glimpse_model *m)
{
	char w[64];
	int col, ver;
	const char *end;
	if (gm_key(r, GLIMPSE_MAGIC, &col))
		return -1;
	if (!gm_word(r, w, sizeof w, &col) || strcmp(w, "1") != 0)
		return gm_fail(r, col, "the version 1", w);
	if (gm_size(r, "hidden", 1, GLIMPSE_MAX_HIDDEN, &m->hidden) ||
	    gm_size(r, "glimpse", 1, GLIMPSE_MAX_G, &m->gsize) ||
	    gm_size(r, "steps", 1, GLIMPSE_MAX_STEPS, &ver) ||
	    (m->steps = ver, 0))
		return -1;
	if (gm_key(r, "sigma", &col))
		return -1;
	if (!gm_word(r, w, sizeof w, &col) ||
	    num_parse(w, &m->sigma, &end) || *end || !(m->sigma > 0.0) ||
	    m->sigma > 10.0)
		return gm_fail(r, col, "a number above 0, at most 10", w);
	if (gm_key(r, "classes", &col))
		return -1;
	while (gm_word(r, w, sizeof w, &col)) {
		if (m->nclass == GLIMPSE_MAX_CLASSES ||
		    strlen(w) > GLIMPSE_MAX_WORD ||
		    glimpse_class_find(m, w) >= 0)
			return gm_fail(r, col, "a new class name of at most 31 "
				       "bytes, at most 8 classes", w);
		strcpy(m->cls[m->nclass++], w);
	}
	if (m->nclass < 2)
		return gm_fail(r, col, "at least two class names", "");
	return 0;
}

/* One section's numbers, a line a row. */
static int gm_rows(struct gm_reader *r, double *v, int rows, int cols)
{
	char w[64], what[64];
	int col;
	const char *end;
	for (int i = 0; i < rows; i++) {
		if (!gm_next_line(r))
			return gm_fail(r, 1, _("another row of numbers"), "");
		for (int j = 0; j < cols; j++) {
			snprintf(what, sizeof what, _("number %d of %d of the row"),
				 j + 1, cols);
			if (!gm_word(r, w, sizeof w, &col) ||
			    num_parse(w, &v[i * cols + j], &end) || *end ||
			    fabs(v[i * cols + j]) > 1e6)
				return gm_fail(r, col, what, w);
		}
		if (gm_word(r, w, sizeof w, &col))
			return gm_fail(r, col, "the end of the row", w);
	}
	return 0;
}

/* The sections, each once, in any order. */
static int gm_sections(struct gm_reader *r, struct glimpse_model *m)
{
	int seen[16] = { 0 }, col, n = 0;
	char w[64];
	while (gm_next_line(r)) {
		gm_word(r, w, sizeof w, &col);
		int k = -1;
		for (int j = 0; j < glimpse_nparams; j++) {
			char sec[40];
			snprintf(sec, sizeof sec, "[%s]", glimpse_params[j].name);
			if (strcmp(w, sec) == 0)
				k = j;
		}
		if (k < 0 || seen[k])
			return gm_fail(r, col, k < 0 ? "a section such as [W_l]"
				       : "a section not seen before", w);
		seen[k] = 1;
		n++;
		if (gm_rows(r, glimpse_param_ptr(m, k),
			    glimpse_dim_size(m, glimpse_params[k].rows),
			    glimpse_dim_size(m, glimpse_params[k].cols)))
			return -1;
	}
	for (int k = 0; k < glimpse_nparams; k++)
		if (!seen[k]) {
			err_set(r->err, _("%s:%d:1: expected the section [%s], "
				"found the end of the file"), r->name, r->lineno,
				glimpse_params[k].name);
			return -1;
		}
	return n == glimpse_nparams ? 0 : -1;
}

int glimpse_model_parse(struct glimpse_model *m, const char *text,
			size_t len, const char *name, struct errbuf *err)
{
	struct gm_reader r = { name, text, text + len, NULL, NULL, NULL, 0,
			       err };
	memset(m, 0, sizeof *m);
	if (memchr(text, '\0', len)) {
		err_set(err, _("%s: expected text, found a NUL byte"), name);
		return -1;
	}
	if (gm_head(&r, m) || gm_sections(&r, m)) {
		memset(m, 0, sizeof *m);
		return -1;
	}
	return 0;
}

int glimpse_model_load(struct glimpse_model *m, const char *path,
		       struct errbuf *err)
{
	if (strcmp(path, GLIMPSE_BUILTIN) == 0)
		return glimpse_model_parse(m, (const char *)model_glimpse6_text,
					   model_glimpse6_len, GLIMPSE_BUILTIN,
					   err);
	size_t len;
	if (model_builtin_name(path) && access(path, F_OK) != 0) {
		/* a built-in model of words or of captions, not a file */
		err_set(err, _("expected a glimpse model (%s, or a file of "
			       "glimpse --train), found \"%s\", a built-in "
			       "model of sentences or captions"),
			GLIMPSE_BUILTIN, path);
		return -1;
	}
	char *text = util_read_file(path, GLIMPSE_MAX_FILE, &len, err);
	if (!text)
		return -1;
	int rc = glimpse_model_parse(m, text, len, path, err);
	free(text);
	return rc;
}

int glimpse_model_is(const char *path)
{
	if (strcmp(path, GLIMPSE_BUILTIN) == 0)
		return 1;
	struct errbuf err;
	size_t len;
	char *text = util_read_file(path, GLIMPSE_MAX_FILE, &len, &err);
	if (!text)
		return 0;
	const char *p = text, *end = text + len;
	/* the first line that is neither blank nor a comment */
	while (p < end && (*p == '#' || *p == '\n' || *p == '\r' ||
			   *p == ' ' || *p == '\t')) {
		if (*p == '#')
			while (p < end && *p != '\n')
				p++;
		else
			p++;
	}
	size_t n = strlen(GLIMPSE_MAGIC);
	int is = (size_t)(end - p) >= n && memcmp(p, GLIMPSE_MAGIC, n) == 0;
	free(text);
	return is;
}

int glimpse_model_write(FILE *out, const struct glimpse_model *m,
			const char *comment)
{
	char num[NUM_BUFSZ];
	struct glimpse_model *mm = (struct glimpse_model *)m;
	for (const char *p = comment; p && *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		fprintf(out, n ? "# %.*s\n" : "#\n", n, p);
		p = nl ? nl + 1 : p + n;
	}
	fprintf(out, "%s%s 1\nhidden %d\nglimpse %d\nsteps %d\nsigma %s\n"
		"classes", comment ? "\n" : "", GLIMPSE_MAGIC, m->hidden,
		m->gsize, m->steps, num_shortest(num, m->sigma));
	for (int k = 0; k < m->nclass; k++)
		fprintf(out, " %s", m->cls[k]);
	fputc('\n', out);
	for (int k = 0; k < glimpse_nparams; k++) {
		int rows = glimpse_dim_size(m, glimpse_params[k].rows);
		int cols = glimpse_dim_size(m, glimpse_params[k].cols);
		const double *v = glimpse_param_ptr(mm, k);
		fprintf(out, "\n[%s]\n", glimpse_params[k].name);
		for (int i = 0; i < rows; i++)
			for (int j = 0; j < cols; j++)
				fprintf(out, "%s%c", num_shortest(num, v[i * cols + j]),
					j + 1 < cols ? ' ' : '\n');
	}
	return ferror(out) ? -1 : 0;
}
