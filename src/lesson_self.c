/* lesson_self.c: the self-attention directives of lessons, "show
 * self=STAGE" and "quiz self-KIND" (doc/lessons.md): the traces they
 * show, their text and their questions. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "lesson.h"
#include "self.h"
#include "self_view.h"
#include "tok.h"

/* The words of s in vocabulary v into idx (TRACE_MAX_TOKENS). */
static int ls_words(const char *s, const struct vocab *v, const char *what,
		    int *idx, struct errbuf *err)
{
	struct tok_list tl;
	if (tok_split(&tl, s, TRACE_MAX_TOKENS, what, err) != 0)
		return -1;
	int rc = tl.n == 0 ? -1 : tok_lookup(idx, &tl, v, what, err);
	if (tl.n == 0)
		err_set(err, "%s", strcmp(what, "source") == 0 ?
			_("the source sentence is empty") :
			_("the target sentence is empty"));
	int n = tl.n;
	tok_free(&tl);
	return rc != 0 ? -1 : n;
}

/* Builds variant f of the lesson's self-attention trace. */
static int ls_build(struct lesson *l, const struct model *m, unsigned f,
		    const struct lesson_show *sh, struct errbuf *err)
{
	int ki[TRACE_MAX_TOKENS], qi[TRACE_MAX_TOKENS], n, nq = 0;
	struct self_opts o = { (f & LESSON_SELF_CROSS) != 0,
			       (f & LESSON_SELF_CAUSAL) != 0,
			       !(f & LESSON_SELF_NO_POSITION) };
	struct errbuf e;
	if (o.cross && !l->target) {
		err_set(err, _("%s:%d:1: expected a 'target:' for 'cross' "
			"(its words are the queries), found none"), l->path,
			sh->line);
		return -1;
	}
	n = ls_words(l->sentence, &m->src, "source", ki, &e);
	if (n > 0 && o.cross)
		nq = ls_words(l->target, &m->tgt, "target", qi, &e);
	struct self_trace *t = xcalloc(1, sizeof *t);
	if (n < 0 || nq < 0 ||
	    self_build(t, m, &o, ki, n, qi, nq, 3u, &e) != 0) {
		free(t);
		err_set(err, _("%s:%d:1: cannot show self-attention: %s"),
			l->path, sh->line, e.msg);
		return -1;
	}
	l->selfs[f] = t;
	return 0;
}

/* Checks the numbers of sh against its trace t. */
static int ls_check(const struct lesson *l, const struct lesson_show *sh,
		    const struct self_trace *t, struct errbuf *err)
{
	if (sh->i > t->nq) {
		err_set(err, _("%s:%d:%d: expected i= from 1 to %d (the "
			"query words), found 'i=%d'"), l->path, sh->line, sh->col_i,
			t->nq, sh->i);
		return -1;
	}
	if (sh->j > t->n) {
		err_set(err, _("%s:%d:%d: expected j= from 1 to %d (the "
			"source words), found 'j=%d'"), l->path, sh->line, sh->col_j,
			t->n, sh->j);
		return -1;
	}
	if (sh->k > t->dk) {
		err_set(err, _("%s:%d:%d: expected k= from 1 to %d (z_i of a "
			"head has %d coordinates), found 'k=%d'"), l->path, sh->line,
			sh->col_k, t->dk, t->dk, sh->k);
		return -1;
	}
	return 0;
}

int lesson_self_prepare(struct lesson *l, const struct model *m,
			struct errbuf *err)
{
	for (int p = 0; p < l->npages; p++)
		for (int b = 0; b < l->pages[p].nblocks; b++) {
			const struct lesson_block *bl = &l->pages[p].blocks[b];
			const struct lesson_show *sh = &bl->show;
			if (bl->text || sh->what != SHOW_SELF)
				continue;
			if (!l->selfs[sh->self_flags] &&
			    ls_build(l, m, sh->self_flags, sh, err) != 0)
				return -1;
			if (ls_check(l, sh, l->selfs[sh->self_flags], err) != 0)
				return -1;
		}
	return 0;
}

void lesson_self_free(struct lesson *l)
{
	for (int k = 0; k < LESSON_SELF_VARIANTS; k++) {
		if (l->selfs[k])
			self_free(l->selfs[k]);
		free(l->selfs[k]);
		l->selfs[k] = NULL;
	}
}

void lesson_self_text(FILE *out, const struct lesson *l,
		      const struct lesson_show *sh, const struct fmt_opts *o,
		      int width)
{
	const struct self_trace *t = l->selfs[sh->self_flags];
	if (!t)
		return;
	if (sh->self_quiz) {
		struct quiz_question q;
		struct errbuf err;
		if (lesson_self_quiz_make(&q, l, sh, o->precision, &err) != 0)
			return;
		fputs(_("Quiz: work it out by hand.\n"), out);
		quiz_prompt_text(out, &q);
		return;
	}
	fprintf(out, "(%s-attention%s%s)\n", t->o.cross ? "cross" : "self",
		t->o.causal ? ", causal mask" : "",
		t->o.position ? "" : ", no positional encoding");
	unsigned heads = sh->head ? 1u << (sh->head - 1)
			 : (1u << SELF_HEADS) - 1;
	int per_head = sh->self_stage >= SELF_STAGE_SCORES &&
		       sh->self_stage <= SELF_STAGE_Z;
	if (sh->self_stage == SELF_STAGE_COUNT) {
		self_view_tables(out, t, SELF_STAGE_SOFTMAX, heads, o->precision,
				 width);
		return;
	}
	if (per_head)
		self_view_tables(out, t, (enum self_stage)sh->self_stage, heads,
				 o->precision, width);
	for (int h = 0; h < SELF_HEADS; h++) {
		if (per_head && !(heads & (1u << h)))
			continue;
		if (per_head)
			fprintf(out, _("head %d:\n"), h + 1);
		self_fmt_text_stage(out, t, (enum self_stage)sh->self_stage, h,
				    o->precision, o->terms);
		if (!per_head)
			break;
	}
}

int lesson_self_quiz_make(struct quiz_question *q, const struct lesson *l,
			  const struct lesson_show *sh, int precision,
			  struct errbuf *err)
{
	const struct self_trace *t = l->selfs[sh->self_flags];
	if (!t || !sh->self_quiz) {
		err_set(err, _("not a self-attention quiz"));
		return -1;
	}
	return self_quiz_make(q, t, (enum self_quiz_kind)(sh->self_quiz - 1),
			      sh->head, sh->i, sh->j, sh->k, precision, err);
}
