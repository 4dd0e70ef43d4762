/* view_self.c: a self-attention lesson's keys c, m and d (lessons on
 * self4).  Its trace is self-attention's, not Luong's, so these keys
 * open the self-attention stepper (self_view.h) on the trace the page
 * shows, not the Luong stepper's compare, heatmap and picture, which on
 * self4 have no decoder to show. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "self_view.h"
#include "view.h"
#include "view_key.h"

/* The first self-attention directive of page p, or NULL. */
static const struct lesson_show *page_self_show(const struct lesson *l, int p)
{
	const struct lesson_page *pg = &l->pages[p];
	for (int b = 0; b < pg->nblocks; b++)
		if (!pg->blocks[b].text && pg->blocks[b].show.what == SHOW_SELF)
			return &pg->blocks[b].show;
	return NULL;
}

/* The directive the keys open the stepper on: this page's, else that of
 * the nearest page before it, else of the first page after it. */
static const struct lesson_show *view_self_show(const struct view *v)
{
	for (int p = v->pos; p >= 0; p--)
		if (page_self_show(v->lesson, p))
			return page_self_show(v->lesson, p);
	for (int p = v->pos + 1; p < v->lesson->npages; p++)
		if (page_self_show(v->lesson, p))
			return page_self_show(v->lesson, p);
	return NULL;
}

void view_self_init(struct view *v)
{
	v->self = NULL;
	if (!v->lesson)
		return;
	for (int p = 0; p < v->lesson->npages; p++)
		if (page_self_show(v->lesson, p)) {
			v->self = xcalloc(1, sizeof(struct self_view));
			return;
		}
}

void view_self_free(struct view *v)
{
	free(v->self);
	v->self = NULL;
}

/* The stage a directive is about: its stage; a heatmap's or a weight
 * quiz's, the softmax; a score quiz's, the scores; a quiz on z, Z. */
static int show_stage(const struct lesson_show *sh)
{
	static const int quiz_stage[] = { SELF_STAGE_SCORES, SELF_STAGE_SOFTMAX,
					  SELF_STAGE_Z };
	if (sh->self_quiz >= 1 && sh->self_quiz <= 3)
		return quiz_stage[sh->self_quiz - 1];
	return sh->self_stage < SELF_STAGE_COUNT ? sh->self_stage
						 : SELF_STAGE_SOFTMAX;
}

int view_self_open(struct view *v, int key)
{
	const struct lesson_show *sh = view_self_show(v);
	struct self_view *sv = v->self;
	if (!sv || !sh || !v->lesson->selfs[sh->self_flags])
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	self_view_init(sv, v->lesson->selfs[sh->self_flags], 0,
		       v->fmt.precision, v->width);
	if (sh->head >= 1 && (sv->heads & (1u << (sh->head - 1))))
		sv->head = sh->head - 1;
	if (sh->i >= 1 && sh->i <= sv->t->nq)
		sv->row = sh->i - 1;
	sv->stage = key == 'm' ? SELF_STAGE_SOFTMAX : show_stage(sh);
	sv->diagram = key == 'd';
	v->self_key = key;
	v->mode = VIEW_SELF;
	v->scroll = 0;
	return VIEW_KEY_REDRAW;
}

int view_self_key(struct view *v, int key)
{
	struct self_view *sv = v->self;
	if (!sv->help && (key == 27 || key == v->self_key)) {
		v->mode = VIEW_STEP; /* back to the page */
		v->scroll = 0;
		return VIEW_KEY_REDRAW;
	}
	if (!sv->help && (key == 'c' || key == 'm'))
		return view_self_open(v, key);
	sv->scroll = v->scroll;
	sv->page_rows = v->page_rows;
	int r = self_view_key(sv, key);
	v->scroll = sv->scroll;
	return r;
}

void view_self_render(const struct view *v, struct view_screen *s)
{
	struct self_view *sv = v->self;
	sv->width = v->width;
	self_view_render(sv, s);
	free(s->keys);
	s->keys = xstrdup(sv->help ? _("any key: back  q quit")
			  : sv->diagram ? _("r row  h head  up/down scroll  "
					    "Esc the page  ? help  q quit")
			  : _("<-/-> stage  r row  h head  d diagram  Esc the "
			      "page  ? help  q quit"));
}
