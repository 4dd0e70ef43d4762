/* train_pairs.c: the pairs file a model is trained on, one pair a line:
 *
 *     source words ||| target words
 *
 * The lines are cut and split by pairs.c, the grammar that trace --batch
 * reads too; here the words become vocabularies and indices.  Every error
 * names the line and byte column ("FILE:LINE:COL: expected ..., found
 * ...").  The format is documented in doc/training.md. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"
#include "train.h"
#include "utf8.h"

enum tp_side { TP_SOURCE, TP_TARGET };

static const char *const tp_side_names[] = { "source", "target" };

/* The state of one parse. */
struct tp_parse {
	const char *name;          /* for messages */
	const struct model *init;  /* NULL: build the vocabularies */
	struct train_data *d;
	struct errbuf *err;
	int lineno;
	const char *line;          /* the current line */
	int cap_pairs;
	int cap_vocab[2];
};

static int tp_err(struct tp_parse *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fills err with "NAME:LINE:COL: " (COL is byte offset off + 1) and the
 * formatted text; returns -1. */
static int tp_err(struct tp_parse *p, size_t off, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	err_set(p->err, "%s:%d:%zu: %s", p->name, p->lineno, off + 1, what);
	return -1;
}

/* Returns the index of the folded word in v, or -1. */
static int tp_find(const struct vocab *v, const char *folded)
{
	for (int k = 0; k < v->n; k++)
		if (strcmp(v->folded[k], folded) == 0)
			return k;
	return -1;
}

/* Adds word w[0..len) (folded: folded, which v takes over) to v. */
static int tp_add(struct tp_parse *p, enum tp_side side, const char *w,
		  size_t len, char *folded)
{
	struct vocab *v = side == TP_SOURCE ? &p->d->src : &p->d->tgt;
	int *cap = &p->cap_vocab[side];

	if (v->n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		v->words = xreallocarray(v->words, (size_t)*cap,
					 sizeof *v->words);
		v->folded = xreallocarray(v->folded, (size_t)*cap,
					  sizeof *v->folded);
	}
	v->words[v->n] = utf8_nfc(w, len);
	v->folded[v->n] = folded;
	return v->n++;
}

/* Looks up (or, without an init model, adds) the word at line[off..off+len)
 * of the given side.  Returns its index, or -1 with err filled. */
static int tp_word(struct tp_parse *p, enum tp_side side, size_t off,
		   size_t len)
{
	const char *w = p->line + off, *what = tp_side_names[side];
	char *folded = utf8_fold(w, len);
	const struct vocab *v;
	int k;

	if (side == TP_TARGET && (strcmp(folded, "<s>") == 0 ||
				  strcmp(folded, "</s>") == 0)) {
		free(folded);
		return tp_err(p, off, "expected a target word, found the "
			      "reserved word \"%.*s\"", (int)len, w);
	}
	if (p->init) {
		v = side == TP_SOURCE ? &p->init->src : &p->init->tgt;
		k = tp_find(v, folded);
		if (k < 0) {
			const struct vocab *o = side == TP_SOURCE
				? &p->init->tgt : &p->init->src;
			int other = tp_find(o, folded) >= 0;
			free(folded);
			return tp_err(p, off, "expected a %s word of %s, found "
				      "\"%.*s\"%s%s%s", what, p->init->name,
				      (int)len, w, other ? ", which is only in "
				      "its " : "", other ? tp_side_names[!side]
				      : "", other ? " vocabulary" : "");
		}
		free(folded);
		return k;
	}
	v = side == TP_SOURCE ? &p->d->src : &p->d->tgt;
	k = tp_find(v, folded);
	if (k >= 0) {
		free(folded);
		return k;
	}
	if (v->n == MODEL_MAX_VOCAB) {
		free(folded);
		return tp_err(p, off, "expected at most %d %s words, found "
			      "more", MODEL_MAX_VOCAB, what);
	}
	return tp_add(p, side, w, len, folded);
}

static int tp_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Reads the words of one side, line[from..to), into a new array *out of
 * *count indices. */
static int tp_side(struct tp_parse *p, enum tp_side side, size_t from,
		   size_t to, int **out, int *count)
{
	const char *what = tp_side_names[side];
	int idx[TRAIN_MAX_WORDS], n = 0;

	for (size_t i = from; i < to;) {
		size_t start;
		while (i < to && tp_blank(p->line[i]))
			i++;
		if (i >= to)
			break;
		start = i;
		while (i < to && !tp_blank(p->line[i]))
			i++;
		if (i - start > MODEL_MAX_WORD)
			return tp_err(p, start, "expected a word of at most "
				      "%d bytes, found one of %zu bytes",
				      MODEL_MAX_WORD, i - start);
		if (n == TRAIN_MAX_WORDS)
			return tp_err(p, start, "expected at most %d %s words, "
				      "found more", TRAIN_MAX_WORDS, what);
		if ((idx[n] = tp_word(p, side, start, i - start)) < 0)
			return -1;
		n++;
	}
	*out = xreallocarray(NULL, (size_t)(n ? n : 1), sizeof **out);
	memcpy(*out, idx, sizeof *idx * (size_t)n);
	*count = n;
	return 0;
}

/* Sets pr->gold from the alignment of pl, which pairs_split() checked
 * against the sides. */
static void tp_gold(struct tp_parse *p, const struct pairs_line *pl,
		    struct train_pair *pr)
{
	const int max = PAIRS_MAX_WORDS * PAIRS_MAX_WORDS;
	struct pairs_link *links = xreallocarray(NULL, (size_t)max,
						 sizeof *links);
	int n = pairs_align(p->line, pl, links, max);

	pr->gold = xcalloc((size_t)pr->ntgt * (size_t)pr->nsrc,
			   sizeof *pr->gold);
	for (int k = 0; k < n; k++)
		pr->gold[links[k].tgt * pr->nsrc + links[k].src] = 1;
	free(links);
	p->d->naligned++;
}

/* Reads the current line, split into pl, as one more pair. */
static int tp_pair(struct tp_parse *p, const struct pairs_line *pl)
{
	struct train_data *d = p->d;
	struct train_pair *pr;

	if (d->n == TRAIN_MAX_PAIRS)
		return tp_err(p, 0, "expected at most %d pairs, found more",
			      TRAIN_MAX_PAIRS);
	if (d->n == p->cap_pairs) {
		p->cap_pairs = p->cap_pairs ? 2 * p->cap_pairs : 16;
		d->pairs = xreallocarray(d->pairs, (size_t)p->cap_pairs,
					 sizeof *d->pairs);
	}
	pr = &d->pairs[d->n++];
	memset(pr, 0, sizeof *pr);
	pr->line = p->lineno;
	if (tp_side(p, TP_SOURCE, pl->src, pl->src + pl->nsrc, &pr->src,
		    &pr->nsrc) != 0 ||
	    tp_side(p, TP_TARGET, pl->tgt, pl->tgt + pl->ntgt, &pr->tgt,
		    &pr->ntgt) != 0)
		return -1;
	if (pl->has_align)
		tp_gold(p, pl, pr);
	if (pr->nsrc > d->max_src)
		d->max_src = pr->nsrc;
	if (pr->ntgt > d->max_tgt)
		d->max_tgt = pr->ntgt;
	d->ntokens += pr->ntgt + 1;
	return 0;
}

/* Starts the vocabularies: the init model's words, or <s> and </s>. */
static void tp_vocab_start(struct tp_parse *p)
{
	struct train_data *d = p->d;

	if (!p->init) {
		tp_add(p, TP_TARGET, "<s>", 3, xstrdup("<s>"));
		tp_add(p, TP_TARGET, "</s>", 4, xstrdup("</s>"));
		d->bos = 0;
		d->eos = 1;
		return;
	}
	for (int side = 0; side < 2; side++) {
		const struct vocab *v = side == TP_SOURCE ? &p->init->src
							  : &p->init->tgt;
		for (int k = 0; k < v->n; k++)
			tp_add(p, side, v->words[k], strlen(v->words[k]),
			       xstrdup(v->folded[k]));
	}
	d->bos = p->init->bos;
	d->eos = p->init->eos;
}

/* Reads every line of text[0..len). */
static int tp_lines(struct tp_parse *p, const char *text, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *start = text + pos, *nl;
		struct pairs_line pl;
		struct errbuf e;
		size_t n, col;
		int r;
		nl = memchr(start, '\n', len - pos);
		n = nl ? (size_t)(nl - start) : len - pos;
		pos += n + (nl != NULL);
		p->lineno++;
		p->line = start;
		r = pairs_split(start, n, p->lineno, 1, &pl, &col, &e);
		if (r < 0)
			return tp_err(p, col - 1, "%s", e.msg);
		if (r > 0 && tp_pair(p, &pl) != 0)
			return -1;
	}
	if (p->d->n > 0)
		return 0;
	p->lineno++;
	return tp_err(p, 0, "expected at least one pair \"source words "
		      "||| target words\", found end of file");
}

int train_pairs_parse(struct train_data *d, const char *text, size_t len,
		      const char *name, const struct model *init,
		      struct errbuf *err)
{
	struct tp_parse p;

	memset(d, 0, sizeof *d);
	memset(&p, 0, sizeof p);
	p.name = name;
	p.init = init;
	p.d = d;
	p.err = err;
	tp_vocab_start(&p);
	if (tp_lines(&p, text, len) != 0) {
		train_data_free(d);
		return -1;
	}
	return 0;
}

int train_pairs_load(struct train_data *d, const char *path,
		     const struct model *init, struct errbuf *err)
{
	size_t len;
	char *text;
	int r;

	memset(d, 0, sizeof *d);
	text = util_read_file(path, MODEL_MAX_BYTES, &len, err);
	if (text == NULL)
		return -1;
	r = train_pairs_parse(d, text, len, path, init, err);
	free(text);
	return r;
}

static void tp_vocab_free(struct vocab *v)
{
	for (int k = 0; k < v->n; k++) {
		free(v->words[k]);
		free(v->folded[k]);
	}
	free(v->words);
	free(v->folded);
	free(v->emb);
}

void train_data_free(struct train_data *d)
{
	for (int k = 0; k < d->n; k++) {
		free(d->pairs[k].src);
		free(d->pairs[k].tgt);
		free(d->pairs[k].gold);
	}
	free(d->pairs);
	tp_vocab_free(&d->src);
	tp_vocab_free(&d->tgt);
	memset(d, 0, sizeof *d);
}
