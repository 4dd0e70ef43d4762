/* lesson_why.c: what a lesson shows to compare a model with attention
 * and one without (doc/lessons.md, "Comparing models"; lesson 3):
 *
 *   show words       the word each step predicts, against the target's;
 *   show gradpaths   ‖∂L_t/∂h_i‖ and its two paths, a row a source word,
 *                    from the trace's gradient-path record (gradpath.h);
 *   show accuracy    word accuracy by source length on the 'pairs:'
 *                    file, a line a model of the lesson (accuracy.h);
 *   {accuracy[N]}, {exact[N]}   a figure of that chart.
 *
 * Every number comes from the trace or from accuracy_measure(); nothing
 * here computes one of its own. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "gradpath.h"
#include "i18n.h"
#include "lesson.h"
#include "num.h"
#include "train.h"
#include "utf8.h"
#include "window.h"

/* The alt that a directive or reference with alt (1 + an index, 0: the
 * lesson's own) shows: the one whose trace and figures it reads. */
static const struct lesson_alt *lw_alt(const struct lesson *l, int alt)
{
	const struct lesson_alt *a;
	if (alt <= 0 || alt > l->nalts)
		return NULL;
	a = &l->alts[alt - 1];
	if (a->same < 0)
		return NULL;
	return a->same > 0 ? &l->alts[a->same - 1] : a;
}

/* The accuracy figures of alt (as lw_alt), or NULL without 'pairs:'. */
static const struct accuracy_line *lw_acc(const struct lesson *l, int alt)
{
	const struct lesson_alt *a = lw_alt(l, alt);
	return a ? a->acc : l->acc;
}

/* Measures model m, decoded with the lesson's scorer through window,
 * on the pairs file at path into a new line named name. */
static struct accuracy_line *lw_measure(const struct lesson *l,
					const struct model *m, int window,
					const char *path, const char *name,
					struct errbuf *e)
{
	struct train_data d;
	struct trace_cfg cfg = l->cfg;
	struct accuracy_line *line = xmalloc(sizeof *line);
	memset(line, 0, sizeof *line);
	cfg.window = window;
	cfg.grad_paths = 0; /* greedy decoding: no target to follow */
	if (train_pairs_load(&d, path, m, e) != 0) {
		free(line);
		return NULL;
	}
	int rc = accuracy_measure(line, m, &d, l->pairs, l->scorer, &cfg, e);
	train_data_free(&d);
	if (rc != 0) {
		free(line);
		return NULL;
	}
	line->model = xstrdup(name);
	line->scorer = l->scorer;
	line->cfg = cfg;
	return line;
}

/* Measures the lesson's model and each model= one on 'pairs:'. */
static int lw_measure_all(struct lesson *l, const struct model *m,
			  struct errbuf *err)
{
	struct errbuf e;
	char *path = lesson_resolve(l, l->pairs, 0, &e);
	int rc = -1;
	if (path && (l->acc = lw_measure(l, m, l->cfg.window, path,
					 l->model ? l->model : "toy4",
					 &e)) != NULL) {
		rc = 0;
		for (int k = 0; k < l->nalts && rc == 0; k++) {
			struct lesson_alt *a = &l->alts[k];
			if (a->ready && !(a->acc = lw_measure(l, a->tr.m,
					a->tr.cfg.window, path, a->name, &e)))
				rc = -1;
		}
	}
	if (rc != 0)
		err_set(err, _("%s:%d:%d: cannot measure the accuracy on "
			"'pairs:': %s"), l->path, l->pairs_pos.line,
			l->pairs_pos.col, e.msg);
	free(path);
	return rc;
}

/* Refuses a directive that needs a header key the lesson lacks. */
static int lw_needs(const struct lesson *l, const struct lesson_show *sh,
		    struct errbuf *err)
{
	if (sh->what == SHOW_GRADPATHS && !l->cfg.grad_paths) {
		err_set(err, _("%s:%d:1: expected a 'gradient-paths:' header "
			"(the step whose loss the paths follow) before 'show "
			"gradpaths', found none"), l->path, sh->line);
		return -1;
	}
	if (sh->what == SHOW_ACCURACY && !l->pairs) {
		err_set(err, _("%s:%d:1: expected a 'pairs:' header (the "
			"pairs file to measure on) before 'show accuracy', found "
			"none"), l->path, sh->line);
		return -1;
	}
	return 0;
}

int lesson_why_prepare(struct lesson *l, const struct model *m,
		       struct errbuf *err)
{
	for (int p = 0; p < l->npages; p++)
		for (int b = 0; b < l->pages[p].nblocks; b++) {
			const struct lesson_block *bl = &l->pages[p].blocks[b];
			if (!bl->text && lw_needs(l, &bl->show, err) != 0)
				return -1;
		}
	return l->pairs ? lw_measure_all(l, m, err) : 0;
}

static void lw_line_free(struct accuracy_line *line)
{
	if (line)
		free(line->model);
	free(line);
}

void lesson_why_free(struct lesson *l)
{
	lw_line_free(l->acc);
	l->acc = NULL;
	for (int k = 0; k < l->nalts; k++) {
		lw_line_free(l->alts[k].acc);
		l->alts[k].acc = NULL;
	}
}

int lesson_why_value(const struct lesson *l, const struct lesson_ref *r,
		     double *v, char *why, size_t size)
{
	int exact = strcmp(r->sym, "exact") == 0;
	if (r->op[0] || (!exact && strcmp(r->sym, "accuracy") != 0))
		return 0;
	const struct accuracy_line *a = lw_acc(l, r->alt);
	if (!a) {
		snprintf(why, size, _("expected a 'pairs:' header (the pairs "
			 "file to measure on) for '{%s}', found none"), r->text);
		return -1;
	}
	const char *x = r->idx[0];
	char *end;
	long n = strtol(x, &end, 10);
	const struct accuracy_count *c = strcmp(x, "all") == 0 ? &a->all :
		(x[0] >= '0' && x[0] <= '9' && !*end && n > 0 &&
		 n <= PAIRS_MAX_WORDS && a->by_len[n].pairs > 0)
		? &a->by_len[n] : NULL;
	if (!c || r->idx[1][0]) {
		int lo = 0, hi = 0;
		for (int k = 1; k <= PAIRS_MAX_WORDS; k++)
			if (a->by_len[k].pairs > 0) {
				lo = lo ? lo : k;
				hi = k;
			}
		snprintf(why, size, _("expected a source length of the pairs "
			 "(%d to %d) or all, as in {%s[12]}, found '{%s}'"), lo,
			 hi, r->sym, r->text);
		return -1;
	}
	*v = exact ? accuracy_share(c->exact, c->pairs)
		   : accuracy_share(c->words_right, c->words);
	return 1;
}

/* --- rendering ------------------------------------------------------- */

/* The words each step of run predicts, a ✗ after each that is not the
 * target's word at its step, then how many are. */
static void lw_words(FILE *out, const struct trace *tr, int run, int width)
{
	const struct trace_run *r = &tr->runs[run];
	size_t size = 64, at = 0;
	char *text = xmalloc(size);
	int right = 0;
	text[0] = '\0';
	for (int k = 0; k < r->nsteps; k++) {
		const char *w = tr->m->tgt.words[r->pred[k]];
		int gold = !tr->tgt ? -1 : k < tr->ntgt ? tr->tgt[k] : tr->m->eos;
		int ok = gold < 0 || r->pred[k] == gold;
		right += ok && gold >= 0;
		size_t need = at + strlen(w) + 8;
		if (need > size)
			text = xrealloc(text, size = 2 * need);
		at += (size_t)snprintf(text + at, size - at, "%s%s%s",
				       k ? " " : "", w, ok ? "" : "✗");
	}
	lesson_wrap(out, text, width > 2 ? width - 2 : width);
	free(text);
	if (tr->tgt)
		fprintf(out, "%d of %d words are the target's (✗: not the "
			"target's word at that step)\n", right, r->nsteps);
}

/* s, padded with blanks on the left (right set) or right to cols
 * terminal columns. */
static void lw_cell(FILE *out, const char *s, int cols, int right)
{
	int pad = cols - utf8_width(s);
	if (right)
		fprintf(out, "%*s%s", pad > 0 ? pad : 0, "", s);
	else
		fprintf(out, "%s%*s", s, pad > 0 ? pad : 0, "");
}

/* The gradient paths of run, a row a source word: ‖∂L_t/∂h_i‖, then its
 * parts through step t's attention (direct) and through the recurrence,
 * as the text trace names them; L_t itself is a reference away, {L_t of
 * ‖∂L_t/∂h_i‖}, so that the table fits a terminal's page. */
static void lw_gradpaths(FILE *out, const struct trace *tr, int run,
			 int prec)
{
	const struct trace_rec *g = gradpath_find(tr, run);
	char num[NUM_BUFSZ], sym[32];
	if (!g) {
		fputs("(no gradient paths in this run)\n", out);
		return;
	}
	int t = gradpath_step(tr);
	const double *col[3] = { g->result, trace_op(g, "direct_norm")->v,
				 trace_op(g, "recurrence_norm")->v };
	snprintf(sym, sizeof sym, "‖∂L_%d/∂h_i‖", t);
	const char *head[3] = { sym, "‖direct‖", "‖through the recurrence‖" };
	const int cols[3] = { 14, 12, 26 };
	fputs("  i  word      ", out);
	for (int k = 0; k < 3; k++)
		lw_cell(out, head[k], cols[k], 1);
	fputc('\n', out);
	for (int i = 0; i < tr->n; i++) {
		fprintf(out, " %2d  ", i + 1);
		lw_cell(out, tr->m->src.words[tr->src[i]], 10, 0);
		for (int k = 0; k < 3; k++)
			lw_cell(out, num_fixed(num, col[k][i], prec), cols[k], 1);
		fputc('\n', out);
	}
}

/* The accuracy chart of every model of the lesson. */
static void lw_accuracy(FILE *out, const struct lesson *l)
{
	struct accuracy_line lines[1 + LESSON_MAX_MODELS + 2];
	int n = 0;
	if (l->acc)
		lines[n++] = *l->acc;
	for (int k = 0; k < l->nalts && n < (int)(sizeof lines /
						  sizeof *lines); k++)
		if (l->alts[k].acc)
			lines[n++] = *l->alts[k].acc;
	struct accuracy_report rep = { lines, n, l->pairs };
	fprintf(out, "word accuracy against source length, greedy decoding "
		"of %s\n(a row a fifth; * where two lines meet):\n",
		accuracy_base(l->pairs));
	accuracy_write_plot(out, &rep, 5);
}

void lesson_why_text(FILE *out, const struct lesson *l,
		     const struct lesson_show *sh, const struct trace *tr,
		     int run, const struct fmt_opts *o, int width)
{
	switch (sh->what) {
	case SHOW_WORDS:
		lw_words(out, tr, run, width);
		return;
	case SHOW_GRADPATHS:
		lw_gradpaths(out, tr, run, o->precision);
		return;
	case SHOW_ACCURACY:
		lw_accuracy(out, l);
		return;
	default:
		return;
	}
}
