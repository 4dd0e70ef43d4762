/* lesson_image.c: lessons on an image (doc/lessons.md, "Lessons on an
 * image"; lessons 21 and 22):
 *
 *   image: FILE.pgm    the lesson's trace is the caption of the image
 *                      (caption_build(), the built-in caption4 unless
 *                      'model:' names another image model);
 *   glimpse: MODEL     the glimpse model (glimpse6 or a file of the
 *                      lesson's tree) run on it with 'seed:''s draws,
 *                      with 'class:' the image's true class;
 *   show image [t=N]   the image, or beside it α_t over its cells;
 *   show glimpse t=N   glimpse N's numbers and its retina on the image;
 *   show glimpses      their path, the classifier and REINFORCE's terms;
 *   {l̂_1[2]}, {ŷ[dot]} ...  values of the glimpse trace.
 *
 * Every number comes from caption_build() or glimpse_run(); the
 * pictures are caption_fmt.c's and glimpse_fmt.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caption.h"
#include "glimpse.h"
#include "glimpse_fmt.h"
#include "glimpse_quiz.h"
#include "i18n.h"
#include "image_fmt.h"
#include "lesson.h"
#include "pgm.h"

/* Reads 'image:' (a file of the lesson's tree) into l->img. */
static int li_read(struct lesson *l, struct errbuf *err)
{
	struct errbuf e;
	char *path = lesson_resolve(l, l->image, 0, &e);
	l->img = xcalloc(1, sizeof *l->img);
	if (!path || pgm_load(l->img, path, &e) != 0 ||
	    caption_check_image(l->img, l->image, &e) != 0) {
		err_at(err, l->path, l->image_pos.line, l->image_pos.col,
		       "cannot read the image: %s", e.msg);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

int lesson_image_trace(struct lesson *l, const struct model *m,
		       const int *tgt, int ntgt, struct trace *tr,
		       struct errbuf *err)
{
	struct errbuf e;
	if (l->sentence) {
		err_at(err, l->path, l->sentence_pos.line, l->sentence_pos.col,
		       "expected 'image:' or 'sentence:' (what the lesson "
		       "traces), found both");
		return -1;
	}
	if (caption_check_model(m, &e) != 0) {
		struct lesson_pos at = l->model ? l->model_pos : l->image_pos;
		err_at(err, l->path, at.line, at.col, "expected an image model "
		       "for 'image:', found another: %s", e.msg);
		return -1;
	}
	if (li_read(l, err) != 0)
		return -1;
	/* the source words are the cells, as messages about i= say */
	size_t size = 1;
	for (int k = 0; k < CAPTION_CELLS; k++)
		size += strlen(caption_cell_names[k]) + 1;
	l->sentence = xcalloc(1, size);
	for (int k = 0; k < CAPTION_CELLS; k++)
		strcat(strcat(l->sentence, k ? " " : ""), caption_cell_names[k]);
	if (caption_build(tr, m, l->img, tgt, ntgt, l->scorers, &l->cfg,
			  &e) != 0) {
		err_set(err, "%s:%d:%d: %s", l->path, l->image_pos.line,
			l->image_pos.col, e.msg);
		return -1;
	}
	return 0;
}

/* The glimpse model 'glimpse:' names: built in, or a file of the tree. */
static int li_glimpse_model(struct lesson *l, struct errbuf *err)
{
	struct errbuf e;
	char *path = strcmp(l->glimpse, GLIMPSE_BUILTIN) == 0
		     ? xstrdup(l->glimpse) : lesson_resolve(l, l->glimpse, 0,
							    &e);
	l->gm = xcalloc(1, sizeof *l->gm);
	if (!path || glimpse_model_load(l->gm, path, &e) != 0) {
		err_at(err, l->path, l->glimpse_pos.line, l->glimpse_pos.col,
		       "cannot load the glimpse model (%s, or a file of the "
		       "lesson's tree): %s", GLIMPSE_BUILTIN, e.msg);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/* Runs the glimpse model on the image with the draws of 'seed:'. */
static int li_glimpse_run(struct lesson *l, struct errbuf *err)
{
	int truth = -1;
	if (li_glimpse_model(l, err) != 0)
		return -1;
	if (l->cls && (truth = glimpse_class_find(l->gm, l->cls)) < 0) {
		err_at(err, l->path, l->cls_pos.line, l->cls_pos.col,
		       "expected a class of the glimpse model (%s, ...), "
		       "found '%s'", l->gm->cls[0], l->cls);
		return -1;
	}
	uint64_t rng = l->cfg.seed;
	l->gt = xcalloc(1, sizeof *l->gt);
	glimpse_run(l->gm, l->img, GLIMPSE_SAMPLE, &rng, NULL, truth, l->gt);
	l->gt->seed = l->cfg.seed;
	l->gqs = xcalloc(1, sizeof *l->gqs);
	*l->gqs = (struct glimpse_quiz_src){ l->gm, l->img, l->gt };
	return 0;
}

/* A glimpse quiz: the lesson's glimpses, and its t= and k= in them. */
static int li_check_quiz(const struct lesson *l, const struct lesson_show *sh,
			 struct errbuf *err)
{
	struct quiz_question q;
	struct errbuf e;
	const char *kind = glimpse_quiz_name(sh->glimpse_quiz - 1);
	/* t= and k= are there: the directive's rules need them */
	if (!l->gqs) {
		err_at(err, l->path, sh->line, 1, "expected %s header before "
		       "'quiz glimpse-%s', found none",
		       _("'image:' and 'glimpse:'"), kind);
		return -1;
	}
	int cls = sh->glimpse_quiz - 1 == GLIMPSE_QUIZ_CLASS;
	if (!cls && sh->t > l->gm->steps) {
		err_at(err, l->path, sh->line, sh->col_t, "expected t= from 1 "
		       "to %d (the glimpse model takes %d glimpses), found "
		       "'t=%d'", l->gm->steps, l->gm->steps, sh->t);
		return -1;
	}
	if (glimpse_quiz_make_at(&q, l->gqs, sh->glimpse_quiz - 1, sh->t, sh->k,
				 QUIZ_MIN_PREC, &e) != 0) {
		/* then k= is out of range: say which k= there are */
		int lo, hi;
		glimpse_quiz_range(l->gqs, sh->glimpse_quiz - 1, &lo, &hi);
		err_at(err, l->path, sh->line, sh->col_k, "expected k= from %d "
		       "to %d for 'quiz glimpse-%s'%s, found 'k=%d'", lo, hi,
		       kind, cls ? _(" (a class, from 1)") : "", sh->k);
		return -1;
	}
	return 0;
}

int lesson_glimpse_quiz_make(struct quiz_question *q, const struct lesson *l,
			     const struct lesson_show *sh, int precision,
			     struct errbuf *err)
{
	if (!l->gqs || !sh->glimpse_quiz) {
		err_set(err, "%s", _("no such question on a glimpse trace"));
		return -1;
	}
	return glimpse_quiz_make_at(q, l->gqs, sh->glimpse_quiz - 1, sh->t,
				    sh->k, precision, err);
}

/* What directive sh needs that the lesson lacks, or its t= past the
 * glimpses: 0, or -1 with err. */
static int li_check(const struct lesson *l, const struct lesson_show *sh,
		    struct errbuf *err)
{
	int image = sh->what == SHOW_IMAGE;
	if (sh->glimpse_quiz)
		return li_check_quiz(l, sh, err);
	if (sh->what != SHOW_IMAGE && sh->what != SHOW_GLIMPSE &&
	    sh->what != SHOW_GLIMPSES)
		return 0;
	if (image ? !l->img : !l->gt) {
		err_at(err, l->path, sh->line, 1, "expected %s header before "
		       "'show %s', found none", image ? _("an 'image:'")
		       : _("'image:' and 'glimpse:'"), image ? "image" :
		       sh->what == SHOW_GLIMPSE ? "glimpse" : "glimpses");
		return -1;
	}
	if (sh->what == SHOW_GLIMPSE && sh->t > l->gm->steps) {
		err_at(err, l->path, sh->line, sh->col_t, "expected t= from 1 to "
		       "%d (the glimpse model takes %d glimpses), found "
		       "'t=%d'", l->gm->steps, l->gm->steps, sh->t);
		return -1;
	}
	return 0;
}

int lesson_image_prepare(struct lesson *l, struct errbuf *err)
{
	const struct lesson_pos *at = l->glimpse ? &l->glimpse_pos
				      : &l->cls_pos;
	if ((l->glimpse || l->cls) && !(l->image && l->glimpse)) {
		err_at(err, l->path, at->line, at->col, "expected %s before "
		       "'%s:', found none", l->image ? "'glimpse:'" :
		       _("'image:' (the image it looks at)"), l->glimpse ?
		       "glimpse" : "class");
		return -1;
	}
	if (l->image && l->nalts > 0) {
		err_at(err, l->path, l->alts[0].pos.line, l->alts[0].pos.col,
		       "expected no model= in a lesson on an image (it "
		       "traces one image model), found %s",
		       l->alts[0].name);
		return -1;
	}
	if (l->glimpse && li_glimpse_run(l, err) != 0)
		return -1;
	for (int p = 0; p < l->npages; p++)
		for (int b = 0; b < l->pages[p].nblocks; b++) {
			const struct lesson_block *bl = &l->pages[p].blocks[b];
			if (!bl->text && li_check(l, &bl->show, err) != 0)
				return -1;
		}
	return 0;
}

void lesson_image_free(struct lesson *l)
{
	free(l->img);
	free(l->gm);
	free(l->gt);
	free(l->gqs);
	l->gqs = NULL;
	l->img = NULL;
	l->gm = NULL;
	l->gt = NULL;
}

void lesson_image_text(FILE *out, const struct lesson *l,
		       const struct lesson_show *sh, const struct trace *tr,
		       int run, const struct fmt_opts *o)
{
	switch (sh->what) {
	case SHOW_IMAGE:
		if (sh->t > 0 && sh->t <= tr->runs[run].nsteps)
			caption_fmt_step(out, tr, run, sh->t, 0);
		else if (sh->t > 0) /* a run that stopped earlier */
			fprintf(out, "(the %s scorer's run has no step %d)\n",
				trace_scorer_name(tr->runs[run].scorer), sh->t);
		else
			image_fmt_text(out, l->img, l->image, 0, 0);
		return;
	case SHOW_GLIMPSE:
		glimpse_fmt_step(out, l->gm, l->img, l->gt, sh->t,
				 o->precision, 0);
		return;
	case SHOW_GLIMPSES:
		fprintf(out, "the path of the glimpses (1 .. %d at their "
			"corners; the boxes: their foveas)\n", l->gm->steps);
		glimpse_fmt_picture(out, l->img, l->gt, 0, l->gm->steps, 1, 0);
		glimpse_fmt_classify(out, l->gm, l->gt, o->precision);
		return;
	default:
		return;
	}
}

/* ---- references to the glimpse trace */

/* The values a reference can name: a symbol of glimpse_fmt_text's
 * lines, with "_t" for the glimpses' (t from 1; h_0 too). */
enum li_sym { LI_LHAT, LI_L, LI_U, LI_EPS, LI_LOGPI, LI_DLOGPI, LI_RHO,
	      LI_PHI, LI_H, LI_RBAR, LI_DELTA, LI_YHAT, LI_R, LI_SIGMA };
static const struct { const char *name; int stepped; } li_syms[] = {
	[LI_LHAT] = { "l̂", 1 }, [LI_L] = { "l", 1 }, [LI_U] = { "u", 1 },
	[LI_EPS] = { "ε", 1 }, [LI_LOGPI] = { "log π", 1 },
	[LI_DLOGPI] = { "∂ log π / ∂ l̂", 1 }, [LI_RHO] = { "ρ", 1 },
	[LI_PHI] = { "φ", 1 }, [LI_H] = { "h", 1 },
	[LI_RBAR] = { "R̄", 1 }, [LI_DELTA] = { "δ", 1 },
	[LI_YHAT] = { "ŷ", 0 }, [LI_R] = { "R", 0 }, [LI_SIGMA] = { "σ", 0 },
};
#define LI_NSYMS ((int)(sizeof li_syms / sizeof li_syms[0]))

/* The symbol of sym, and its step into *t (-1: none written). */
static int li_sym(const char *sym, int *t)
{
	const char *us = strrchr(sym, '_');
	size_t n = strlen(sym);
	*t = -1;
	if (us && us[1] && strspn(us + 1, "0123456789") == strlen(us + 1) &&
	    strlen(us + 1) < 3) {
		*t = atoi(us + 1);
		n = (size_t)(us - sym);
	}
	for (int k = 0; k < LI_NSYMS; k++)
		if (strlen(li_syms[k].name) == n &&
		    memcmp(li_syms[k].name, sym, n) == 0 &&
		    li_syms[k].stepped == (*t >= 0))
			return k;
	return -1;
}

/* The vector of symbol k at glimpse t (1 .. T; h also 0). */
static const double *li_vec(const struct lesson *l, int k, int t, int *len)
{
	const struct glimpse_model *m = l->gm;
	const struct glimpse_trace *g = l->gt;
	const struct glimpse_step *s = &g->st[t > 0 ? t - 1 : 0];
	*len = 2;
	switch ((enum li_sym)k) {
	case LI_LHAT: return s->l_hat;
	case LI_L: return s->l;
	case LI_U: return s->u;
	case LI_EPS: return s->eps;
	case LI_DLOGPI: return s->dlogpi;
	case LI_LOGPI: *len = 1; return &s->log_pi;
	case LI_RHO: *len = GLIMPSE_RETINA; return s->x;
	case LI_PHI: *len = m->gsize; return s->g;
	case LI_H: *len = m->hidden; return t == 0 ? s->h_prev : s->h;
	case LI_RBAR: *len = 1; return &m->base[t - 1];
	case LI_DELTA: *len = 1; return &g->adv[t - 1];
	case LI_YHAT: *len = m->nclass; return g->p;
	case LI_R: *len = 1; return &g->reward;
	case LI_SIGMA: *len = 1; return &m->sigma;
	}
	return NULL;
}

int lesson_image_vec(const struct lesson *l, const struct lesson_ref *r,
		     const double **v, int *len, char *why, size_t size)
{
	int t, k;
	if (!l->gt || r->op[0] || (k = li_sym(r->sym, &t)) < 0)
		return 0;
	if (li_syms[k].stepped && (t > l->gm->steps || (t == 0 &&
				   k != LI_H))) {
		snprintf(why, size, _("expected a glimpse from %d to %d, found "
			 "'{%s}'"), k == LI_H ? 0 : 1, l->gm->steps, r->text);
		return -1;
	}
	if ((k == LI_R || k == LI_DELTA) && l->gt->truth < 0) {
		snprintf(why, size, _("expected a 'class:' header (the reward "
			 "needs the true class) for '{%s}', found none"),
			 r->text);
		return -1;
	}
	*v = li_vec(l, k, t, len);
	return 1;
}

int lesson_image_word(const struct lesson *l, const struct lesson_ref *r,
		      const char *word)
{
	int t, k;
	if (!l->gt || r->op[0] || (k = li_sym(r->sym, &t)) < 0 ||
	    k != LI_YHAT)
		return 0;
	return glimpse_class_find(l->gm, word) + 1;
}

int lesson_image_value(const struct lesson *l, const struct lesson_ref *r,
		       double *v, char *why, size_t size)
{
	const double *vec;
	int len, rc = lesson_image_vec(l, r, &vec, &len, why, size);
	if (rc <= 0)
		return rc;
	const char *x = r->idx[0];
	int at = !x[0] && len == 1 ? 1 : lesson_image_word(l, r, x);
	if (!at && x[0] >= '1' && x[0] <= '9' &&
	    strspn(x, "0123456789") == strlen(x) && strlen(x) < 4)
		at = atoi(x);
	if (at < 1 || at > len || r->idx[1][0]) {
		snprintf(why, size, _("expected an entry of %s from 1 to %d%s, "
			 "found '{%s}'"), r->sym, len, lesson_image_word(l, r,
			 l->gm->cls[0]) ? _(" or a class") : "", r->text);
		return -1;
	}
	*v = vec[at - 1];
	return 1;
}

void lesson_image_walk(const struct lesson *l,
		       void (*visit)(void *ctx, const char *sym,
				     const double *v, int len),
		       void *ctx)
{
	char sym[64];
	int len;
	for (int k = 0; l->gt && k < LI_NSYMS; k++) {
		if ((k == LI_R || k == LI_DELTA) && l->gt->truth < 0)
			continue;
		if (!li_syms[k].stepped) {
			const double *v = li_vec(l, k, 0, &len);
			visit(ctx, li_syms[k].name, v, len);
			continue;
		}
		for (int t = k == LI_H ? 0 : 1; t <= l->gm->steps; t++) {
			const double *v = li_vec(l, k, t, &len);
			snprintf(sym, sizeof sym, "%s_%d", li_syms[k].name, t);
			visit(ctx, sym, v, len);
		}
	}
}
