/* caption_train.c: training an image model on a set of captioned images
 * with train.c's driver, and measuring where its attention looks
 * (caption.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "attn.h"
#include "caption.h"
#include "fmt.h"
#include "i18n.h"
#include "train.h"

static const char *const caption_place_words[] = {
	"top", "bottom", "left", "right", "middle"
};

int caption_place_word(const char *word)
{
	for (size_t k = 0; k < sizeof caption_place_words /
			       sizeof *caption_place_words; k++)
		if (strcmp(word, caption_place_words[k]) == 0)
			return 1;
	return 0;
}

int caption_cell_on_object(const struct imageset_item *it, int cell)
{
	return imageset_box_overlap(it, CAPTION_PATCH * (cell / CAPTION_GRID),
				    CAPTION_PATCH * (cell % CAPTION_GRID),
				    CAPTION_PATCH, CAPTION_PATCH) > 0.0;
}

/* Appends image it's pair line to b: the cells ||| the caption ||| the
 * gold links of its place words to the cells its object covers. */
static void caption_pair_line(struct fmt_buf *b,
			      const struct imageset_item *it)
{
	for (int i = 0; i < CAPTION_CELLS; i++)
		fmt_buf_printf(b, "%s%s", i ? " " : "", caption_cell_names[i]);
	fmt_buf_puts(b, " |||");
	for (int j = 0; j < it->ncaption; j++)
		fmt_buf_printf(b, " %s", it->caption[j]);
	fmt_buf_puts(b, " |||");
	for (int j = 0; j < it->ncaption; j++)
		for (int i = 0; caption_place_word(it->caption[j]) &&
				i < CAPTION_CELLS; i++)
			if (caption_cell_on_object(it, i))
				fmt_buf_printf(b, " %d-%d", i + 1, j + 1);
	fmt_buf_putc(b, '\n');
}

int caption_data(struct train_data *d, const struct imageset *set,
		 const char *name, struct errbuf *err)
{
	struct fmt_buf b = FMT_BUF_INIT;
	for (int k = 0; k < set->n; k++)
		caption_pair_line(&b, &set->item[k]);
	int rc = train_pairs_parse(d, b.p, b.len, name, NULL, err);
	fmt_buf_free(&b);
	if (rc != 0)
		return -1;
	for (int k = 0; k < d->n; k++) {
		d->pairs[k].enc = &caption_encoder;
		d->pairs[k].input = &set->item[k].image;
	}
	return 0;
}

void caption_init_unused(struct trainer *t)
{
	static const char *const unused[] = {
		"source", "forward.W_x", "forward.W_h", "forward.b",
		"backward.W_x", "backward.W_h", "backward.b", "decoder.W_init"
	};
	for (size_t k = 0; k < sizeof unused / sizeof *unused; k++) {
		int b = train_block_find(&t->lay, unused[k]);
		if (b < 0)
			continue;
		memset(t->theta + t->lay.off[b], 0,
		       sizeof *t->theta * t->lay.len[b]);
		t->frozen[b] = 1;
	}
}

/* The caption of it in m's words into tgt; returns its length, or -1 if
 * m lacks a word. */
static int caption_words(const struct model *m,
			 const struct imageset_item *it, int *tgt)
{
	for (int j = 0; j < it->ncaption; j++)
		if ((tgt[j] = vocab_find(&m->tgt, it->caption[j])) < 0)
			return -1;
	return it->ncaption;
}

/* Adds image it's counts with scorer sc to *s. */
static int caption_measure_one(const struct model *m,
			       const struct imageset_item *it, int sc,
			       struct caption_score *s, struct errbuf *err)
{
	int tgt[IMAGESET_MAX_CAPTION];
	struct trace tr;
	int n = caption_words(m, it, tgt);
	if (n < 0) {
		err_set(err, _("line %d: a caption word the model does not know"),
			it->line);
		return -1;
	}
	if (caption_build(&tr, m, &it->image, NULL, 0, 1u << sc, NULL,
			  err) != 0)
		return -1;
	const struct trace_run *ru = &tr.runs[0];
	int exact = ru->stopped && ru->nsteps == n + 1;
	for (int j = 0; exact && j < n; j++)
		exact = ru->pred[j] == tgt[j];
	s->images++;
	s->exact += exact;
	trace_free(&tr);
	if (caption_build(&tr, m, &it->image, tgt, n, 1u << sc, NULL,
			  err) != 0)
		return -1;
	for (int j = 0; j < n; j++) {
		if (!caption_place_word(it->caption[j]))
			continue;
		const double *a = trace_weights(&tr, 0, j + 1);
		int best = 0;
		for (int i = 1; i < CAPTION_CELLS; i++)
			if (a[i] > a[best])
				best = i;
		s->place_words++;
		s->on_object += caption_cell_on_object(it, best);
	}
	trace_free(&tr);
	return 0;
}

int caption_measure(const struct model *m, const struct imageset *set,
		    int sc, struct caption_score *s, struct errbuf *err)
{
	memset(s, 0, sizeof *s);
	for (int k = 0; k < set->n; k++)
		if (caption_measure_one(m, &set->item[k], sc, s, err) != 0)
			return -1;
	return 0;
}
