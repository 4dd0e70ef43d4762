/* imageset.c: the reader of .captions files (imageset.h). */
#include "config.h"

#include "imageset.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "utf8.h"

/* Where the reader is: the file's name for messages and the line. */
struct at {
	const char *name;
	const char *line;   /* the line's first byte: columns count from it */
	int lineno;
};

/* A span of the line: [s, s + n). */
struct span {
	const char *s;
	size_t n;
};

static int col_of(const struct at *at, const char *p)
{
	return (int)(p - at->line) + 1;
}

/* Fails at p with "expected what, found ...": the word at p, or the end
 * of the field (what comes at p is shown up to 20 bytes, made safe). */
static int fail(struct errbuf *err, const struct at *at, const char *p,
		size_t n, const char *what)
{
	if (n == 0) {
		err_set(err, _("%s:%d:%d: expected %s, found nothing"),
			at->name, at->lineno, col_of(at, p), _(what));
		return -1;
	}
	char *shown = xstrndup(p, n > 20 ? 20 : n);
	char *safe = utf8_safe(shown);
	err_set(err, _("%s:%d:%d: expected %s, found \"%s%s\""), at->name,
		at->lineno, col_of(at, p), _(what), safe, n > 20 ? "..." : "");
	free(safe);
	free(shown);
	return -1;
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The words of field f, into w[0 .. max]: w has room for max + 1, so that
 * the first word too many is there to show.  Returns how many words (max
 * + 1 when there are more). */
static int words(struct span f, struct span *w, int max)
{
	int n = 0;
	const char *p = f.s, *end = f.s + f.n;
	for (;;) {
		while (p < end && blank(*p))
			p++;
		if (p == end)
			return n;
		const char *s = p;
		while (p < end && !blank(*p))
			p++;
		w[n].s = s;
		w[n].n = (size_t)(p - s);
		if (n++ == max)
			return n;
	}
}

/* Checks that field f holds exactly one word of at most max bytes, and
 * copies it into out. */
static int one_word(struct span f, char *out, size_t max, const char *what,
		    const struct at *at, struct errbuf *err)
{
	struct span w[2];
	int n = words(f, w, 1);
	if (n == 0)
		return fail(err, at, f.s, 0, what);
	if (n > 1)
		return fail(err, at, w[1].s, w[1].n, N_("\"|||\" after one word"));
	if (w[0].n > max)
		return fail(err, at, w[0].s, w[0].n, what);
	memcpy(out, w[0].s, w[0].n);
	out[w[0].n] = '\0';
	return 0;
}

/* Whether FILE is a relative path without "." or ".." components. */
static int path_ok(const char *file)
{
	if (file[0] == '/')
		return 0;
	for (const char *p = file; *p;) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (e == NULL)
			break;
		p = e + 1;
	}
	return 1;
}

static int read_caption(struct imageset_item *it, struct span f,
			const struct at *at, struct errbuf *err)
{
	struct span w[IMAGESET_MAX_CAPTION + 1];
	int n = words(f, w, IMAGESET_MAX_CAPTION);
	if (n == 0)
		return fail(err, at, f.s, 0, N_("a caption of one word or more"));
	if (n > IMAGESET_MAX_CAPTION)
		return fail(err, at, w[IMAGESET_MAX_CAPTION].s,
			    w[IMAGESET_MAX_CAPTION].n,
			    N_("\"|||\" after at most 16 caption words"));
	for (int i = 0; i < n; i++) {
		if (w[i].n > IMAGESET_MAX_WORD)
			return fail(err, at, w[i].s, w[i].n,
				    N_("a caption word of at most 63 bytes"));
		memcpy(it->caption[i], w[i].s, w[i].n);
		it->caption[i][w[i].n] = '\0';
	}
	it->ncaption = n;
	return 0;
}

static int read_box(struct imageset_item *it, struct span f,
		    const struct at *at, struct errbuf *err)
{
	static const char *const what[4] = {
		N_("the box's top row (a whole number from 0)"),
		N_("the box's left column (a whole number from 0)"),
		N_("the box's height (a whole number from 1)"),
		N_("the box's width (a whole number from 1)") };
	struct span w[5];
	int n = words(f, w, 4);
	if (n > 4)
		return fail(err, at, w[4].s, w[4].n, N_("the end of the line "
			    "after the box's four numbers"));
	int v[4];
	for (int i = 0; i < 4; i++) {
		unsigned long long x;
		if (i >= n)
			return fail(err, at, f.s + f.n, 0, what[i]);
		if (util_whole(w[i].s, w[i].n, PGM_MAX_SIDE, &x) != 0 ||
		    (i >= 2 && x == 0))
			return fail(err, at, w[i].s, w[i].n, what[i]);
		v[i] = (int)x;
	}
	it->box_row = v[0];
	it->box_col = v[1];
	it->box_height = v[2];
	it->box_width = v[3];
	return 0;
}

/* The directory part of path, with its '/', or "" (a copy to free). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xstrndup(path, (size_t)(slash - path + 1)) : xstrdup("");
}

/* Reads the image of it, named relative to dir, and checks that the box
 * lies inside it; boxfield is where the box was written. */
static int read_image(struct imageset_item *it, const char *dir,
		      struct span filefield, struct span boxfield,
		      const struct at *at, struct errbuf *err)
{
	size_t n = strlen(dir) + strlen(it->file) + 1;
	char *p = xmalloc(n);
	snprintf(p, n, "%s%s", dir, it->file);
	int rc = pgm_load(&it->image, p, err);
	if (rc != 0 && access(p, F_OK) != 0) {
		/* no such file: the place is this line, not the image */
		struct span w[2];
		words(filefield, w, 1);
		err_set(err, _("%s:%d:%d: expected the name of a PGM image "
			"beside the captions file or under it, found %s, "
			"which does not exist"), at->name, at->lineno,
			col_of(at, w[0].s), p);
	}
	free(p);
	if (rc != 0)
		return -1;
	if (it->box_row + it->box_height > it->image.height ||
	    it->box_col + it->box_width > it->image.width) {
		err_set(err, _("%s:%d:%d: expected a box inside the %d×%d "
			"image, found rows %d to %d and columns %d to %d"),
			at->name,
			at->lineno, col_of(at, boxfield.s), it->image.width,
			it->image.height, it->box_row,
			it->box_row + it->box_height - 1, it->box_col,
			it->box_col + it->box_width - 1);
		return -1;
	}
	return 0;
}

/* Splits the line [s, e) at "|||" into f[0 .. 4); returns the number of
 * fields found (more than 4 stops at 5). */
static int fields(const char *s, const char *e, struct span *f)
{
	int n = 0;
	const char *p = s;
	for (;;) {
		const char *bar = NULL;
		for (const char *q = p; q + 3 <= e; q++)
			if (q[0] == '|' && q[1] == '|' && q[2] == '|') {
				bar = q;
				break;
			}
		if (n < 4) {
			f[n].s = p;
			f[n].n = (size_t)((bar ? bar : e) - p);
		}
		n++;
		if (bar == NULL || n > 4)
			return n;
		p = bar + 3;
	}
}

/* Checks the bytes of a line: valid UTF-8, no control character but a
 * tab. */
static int line_bytes(const char *s, size_t n, const struct at *at,
		      struct errbuf *err)
{
	size_t ok = utf8_valid_prefix(s, n);
	if (ok < n)
		return fail(err, at, s + ok, 1, N_("valid UTF-8"));
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
			return fail(err, at, s + i, 1, N_("a printable character"));
	return 0;
}

static int read_line(struct imageset_item *it, const struct at *at,
		     const char *end, const char *dir, struct errbuf *err)
{
	static const char *const fieldnames =
		"FILE ||| CLASS ||| CAPTION ||| ROW COL HEIGHT WIDTH";
	struct span f[4];
	int n = fields(at->line, end, f);
	if (n != 4) {
		const char *p = n < 4 ? end : f[3].s + f[3].n;
		err_set(err, n < 4 ? _("%s:%d:%d: expected four fields, %s, "
					"found fewer")
				   : _("%s:%d:%d: expected four fields, %s, "
				       "found more"),
			at->name, at->lineno, col_of(at, p), fieldnames);
		return -1;
	}
	memset(it, 0, sizeof *it);
	it->line = at->lineno;
	if (one_word(f[0], it->file, sizeof it->file - 1,
		     N_("the image's file name"), at, err) != 0)
		return -1;
	if (!path_ok(it->file)) {
		struct span w[2];
		words(f[0], w, 1);
		return fail(err, at, w[0].s, w[0].n, N_("a relative path "
			    "without \".\" or \"..\" (an image beside the "
			    "captions file or under it)"));
	}
	if (one_word(f[1], it->cls, IMAGESET_MAX_WORD,
		     N_("the image's class, one word of at most 63 bytes"), at,
		     err) != 0 ||
	    read_caption(it, f[2], at, err) != 0 ||
	    read_box(it, f[3], at, err) != 0)
		return -1;
	return read_image(it, dir, f[0], f[3], at, err);
}

/* Whether [s, e) holds nothing but blanks. */
static int empty(const char *s, const char *e)
{
	while (s < e && blank(*s))
		s++;
	return s == e;
}

int imageset_parse(struct imageset *set, const char *buf, size_t len,
		   const char *name, const char *dir, struct errbuf *err)
{
	struct at at = { name, buf, 0 };
	const char *p = buf, *end = buf + len;
	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		at.line = p;
		at.lineno++;
		if (e > p && e[-1] == '\r')
			e--;
		const char *hash = memchr(p, '#', (size_t)(e - p));
		if (hash)
			e = hash;
		if (line_bytes(p, (size_t)(e - p), &at, err) != 0)
			return -1;
		if (!empty(p, e)) {
			if (set->n == IMAGESET_MAX) {
				err_set(err, _("%s:%d:1: expected at most %d "
					"images, found more"), name, at.lineno,
					IMAGESET_MAX);
				return -1;
			}
			set->item = xreallocarray(set->item, (size_t)set->n + 1,
						  sizeof *set->item);
			if (read_line(&set->item[set->n], &at, e, dir, err))
				return -1;
			set->n++;
		}
		p = nl ? nl + 1 : end;
	}
	if (set->n == 0) {
		err_set(err, _("%s:%d:1: expected an image a line (FILE ||| "
			"CLASS ||| CAPTION ||| ROW COL HEIGHT WIDTH), found "
			"none"),
			name, at.lineno + 1);
		return -1;
	}
	return 0;
}

int imageset_load(struct imageset *set, const char *path, struct errbuf *err)
{
	size_t len;
	memset(set, 0, sizeof *set);
	char *buf = util_read_file(path, IMAGESET_MAX_BYTES, &len, err);
	if (buf == NULL)
		return -1;
	if (memchr(buf, '\0', len) != NULL) {
		err_set(err, _("%s: expected text, found a NUL byte"), path);
		free(buf);
		return -1;
	}
	char *dir = strcmp(path, "-") == 0 ? xstrdup("") : dir_of(path);
	int rc = imageset_parse(set, buf, len, strcmp(path, "-") == 0
				? "standard input" : path, dir, err);
	free(dir);
	free(buf);
	if (rc != 0)
		imageset_free(set);
	return rc;
}

void imageset_free(struct imageset *set)
{
	free(set->item);
	set->item = NULL;
	set->n = 0;
}

int imageset_in_box(const struct imageset_item *it, int row, int col)
{
	return row >= it->box_row && row < it->box_row + it->box_height &&
	       col >= it->box_col && col < it->box_col + it->box_width;
}

double imageset_box_overlap(const struct imageset_item *it, int row, int col,
			    int height, int width)
{
	int in = 0;
	for (int r = row; r < row + height; r++)
		for (int c = col; c < col + width; c++)
			in += imageset_in_box(it, r, c);
	return height * width > 0 ? (double)in / (height * width) : 0.0;
}
