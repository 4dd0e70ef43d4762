/* view_key.c: the stepper's keys, without curses: a table from key to
 * handler for stepping, and the keys of an open quiz. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "view_key.h"

/* Handlers: each returns VIEW_KEY_* flags. */
/* Next and previous: a screen, in the comparison a decoder step, and in
 * the heatmap a source column. */
/* 1 if the screen shown is the last of a decoder step, the one that in
 * presentation mode the step's picture follows: the picture sums up the
 * arithmetic of its step, so it comes after it. */
static int step_last(const struct view *v)
{
	return !v->lesson && v->frames[v->pos].t >= 1 &&
	       (v->pos == v->nframes - 1 ||
		v->frames[v->pos + 1].t != v->frames[v->pos].t);
}

int view_scroll_first(int *scroll, int rows, int nbody, int dir)
{
	int step = rows - 1; /* the last row says "more below" */
	if (rows < 2 || nbody <= rows)
		return 0;
	if (dir > 0) {
		if (*scroll + rows >= nbody)
			return 0;
		*scroll += step;
		return 1;
	}
	if (*scroll <= 0)
		return 0;
	*scroll = *scroll > step ? *scroll - step : 0;
	return 1;
}

/* A lesson page turned by delta: the new page opens at its top (forward)
 * or its bottom (back), with its own fold. */
static int lesson_turn(struct view *v, int delta)
{
	int pos = v->pos;
	if (view_scroll_first(&v->scroll, v->rows, v->nbody, delta))
		return VIEW_KEY_REDRAW;
	view_move(v, delta);
	if (v->pos == pos)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP; /* the first or last */
	v->scroll = delta > 0 ? 0 : VIEW_SCROLL_END;
	v->fold = VIEW_FOLD_AUTO;
	v->nbody = v->rows = 0; /* unknown until the page is drawn */
	return VIEW_KEY_REDRAW;
}

static int key_next(struct view *v)
{
	if (v->mode == VIEW_STEP && v->lesson)
		return lesson_turn(v, 1);
	if (v->mode != VIEW_HEATMAP)
		v->scroll = 0;
	if (v->mode == VIEW_HEATMAP)
		v->hscroll++;
	else if (v->mode == VIEW_COMPARE)
		view_move_step(v, 1);
	else if (v->mode == VIEW_DIAGRAM && v->present) {
		if (v->pos == v->nframes - 1)
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP; /* the end */
		v->mode = VIEW_STEP; /* from the picture to the next step */
		view_move(v, 1);
	} else if (v->mode == VIEW_DIAGRAM)
		view_move_step(v, 1);
	else if (v->present && step_last(v))
		v->mode = VIEW_DIAGRAM; /* the step's picture, after it */
	else
		view_move(v, 1);
	return VIEW_KEY_REDRAW;
}

static int key_prev(struct view *v)
{
	if (v->mode == VIEW_STEP && v->lesson)
		return lesson_turn(v, -1);
	if (v->mode != VIEW_HEATMAP)
		v->scroll = 0;
	if (v->mode == VIEW_HEATMAP)
		v->hscroll -= v->hscroll > 0;
	else if (v->mode == VIEW_COMPARE)
		view_move_step(v, -1);
	else if (v->mode == VIEW_DIAGRAM && v->present)
		v->mode = VIEW_STEP; /* back to the step's last screen */
	else if (v->mode == VIEW_DIAGRAM)
		view_move_step(v, -1);
	else {
		int pos = v->pos;
		view_move(v, -1);
		if (v->present && v->pos != pos && step_last(v))
			v->mode = VIEW_DIAGRAM; /* the previous step's picture */
	}
	return VIEW_KEY_REDRAW;
}

/* n and p: the next and previous screen or page at once, unscrolled. */
static int key_page(struct view *v, int delta)
{
	if (v->mode != VIEW_STEP || !v->lesson)
		return delta > 0 ? key_next(v) : key_prev(v);
	v->rows = v->nbody = 0; /* no scrolling first */
	int r = lesson_turn(v, delta);
	v->scroll = 0;
	return r;
}
static int key_n(struct view *v) { return key_page(v, 1); }
static int key_p(struct view *v) { return key_page(v, -1); }

/* Home and End: the first and last screen, or the heatmap's first and
 * last columns (the TUI clamps hscroll to what fits). */
static int key_home(struct view *v)
{
	if (v->mode == VIEW_HEATMAP)
		v->hscroll = 0;
	else
		view_goto(v, 0);
	return VIEW_KEY_REDRAW;
}
static int key_quit(struct view *v) { (void)v; return VIEW_KEY_QUIT; }
/* s: the next scorer; a self-attention lesson has none to switch. */
static int key_scorer(struct view *v)
{
	if (v->self)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	view_next_scorer(v);
	return VIEW_KEY_REDRAW;
}
static int key_goto(struct view *v)
{
	v->pending_g = 1;
	v->g_num = 0;
	return VIEW_KEY_REDRAW;
}

static int key_end(struct view *v)
{
	if (v->mode == VIEW_HEATMAP)
		v->hscroll = v->tr->n;
	else
		view_goto(v, view_count(v) - 1);
	return VIEW_KEY_REDRAW;
}

/* x: the symbols of the screen and their meanings, shown or hidden */
static int key_glossary(struct view *v)
{
	v->glossary = !v->glossary;
	return VIEW_KEY_REDRAW;
}

/* t: the term-by-term arithmetic, shown or hidden; in a lesson, the
 * page's fold. */
static int key_terms(struct view *v)
{
	if (v->lesson && v->mode == VIEW_STEP) {
		if (!view_foldable(v))
			return VIEW_KEY_BEEP; /* nothing on the page to fold */
		v->fold = !view_folded(v);
	} else
		v->terms = !v->terms;
	return VIEW_KEY_REDRAW;
}

/* Opens a mode, or goes back to stepping if it is open already. */
static int key_mode(struct view *v, enum view_mode m)
{
	v->mode = v->mode == m ? VIEW_STEP : m;
	return VIEW_KEY_REDRAW;
}

/* c, m and d in a self-attention lesson: its own stepper; in another
 * lesson, compare and the picture start at the page's step. */
static int key_compare(struct view *v)
{
	if (v->self)
		return view_self_open(v, 'c');
	v->lesson_t = 0;
	return key_mode(v, VIEW_COMPARE);
}
static int key_arch(struct view *v)
{
	if (view_swap_arch(v) != 0)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	return VIEW_KEY_REDRAW;
}
static int key_heatmap(struct view *v)
{
	if (v->self)
		return view_self_open(v, 'm');
	v->hscroll = 0;
	return key_mode(v, VIEW_HEATMAP);
}
static int key_help(struct view *v) { return key_mode(v, VIEW_HELP); }
/* The picture of this step; from the encoder, of step 1. */
static int key_diagram(struct view *v)
{
	if (v->self)
		return view_self_open(v, 'd');
	v->lesson_t = 0;
	for (int k = 0; v->mode != VIEW_DIAGRAM && !v->lesson &&
	     view_step(v) < 1 && k < v->nframes; k++)
		if (v->frames[k].t == 1) {
			view_goto(v, k);
			break;
		}
	return key_mode(v, VIEW_DIAGRAM);
}

static int key_back(struct view *v)
{
	v->mode = VIEW_STEP;
	return VIEW_KEY_REDRAW;
}

static int key_down(struct view *v) { v->scroll++; return VIEW_KEY_REDRAW; }

static int key_pgdn(struct view *v)
{
	v->scroll += v->page_rows;
	return VIEW_KEY_REDRAW;
}

static int key_up(struct view *v)
{
	v->scroll = v->scroll > 0 ? v->scroll - 1 : 0;
	return VIEW_KEY_REDRAW;
}

static int key_pgup(struct view *v)
{
	v->scroll = v->scroll > v->page_rows ? v->scroll - v->page_rows : 0;
	return VIEW_KEY_REDRAW;
}

/* A quiz on this screen, its seed from the count of quizzes and the
 * position; a screen with no quiz beeps. */
static int key_quiz(struct view *v)
{
	struct errbuf err;
	if (v->self && !lesson_page_quiz(v->lesson, v->pos))
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP; /* no Luong trace */
	v->quizzes++;
	if (view_quiz_start(v, v->quizzes * 7919u + (unsigned)v->pos, &err))
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	return VIEW_KEY_REDRAW;
}

static const struct {
	int key;
	int (*fn)(struct view *v);
	int keep_scroll; /* 1: the key scrolls; 0: a new screen starts at top */
} view_keys[] = {
	{ VIEW_KEY_RIGHT, key_next, 1 }, { ' ', key_next, 1 }, { 'n', key_n, 1 },
	{ VIEW_KEY_LEFT, key_prev, 1 }, { VIEW_KEY_BACKSPACE, key_prev, 1 },
	{ 127, key_prev, 1 }, { '\b', key_prev, 1 }, { 'p', key_p, 1 },
	{ VIEW_KEY_HOME, key_home, 0 }, { VIEW_KEY_END, key_end, 0 },
	{ 'g', key_goto, 1 }, { 's', key_scorer, 0 }, { 'c', key_compare, 0 },
	{ 'z', key_quiz, 0 }, { 'a', key_arch, 0 }, { 'w', view_why_open, 0 },
	{ 'm', key_heatmap, 0 }, { 't', key_terms, 1 }, { '?', key_help, 0 },
	{ 'd', key_diagram, 0 }, { 'x', key_glossary, 1 },
	{ 'e', view_edit_open, 1 }, { 'u', view_edit_undo, 1 },
	{ 'R', view_edit_reset, 1 },
	{ 'h', key_help, 0 }, { 'q', key_quit, 0 }, { 'Q', key_quit, 0 },
	{ 27, key_back, 0 }, { VIEW_KEY_DOWN, key_down, 1 }, { 'j', key_down, 1 },
	{ VIEW_KEY_UP, key_up, 1 }, { 'k', key_up, 1 },
	{ VIEW_KEY_NPAGE, key_pgdn, 1 }, { VIEW_KEY_PPAGE, key_pgup, 1 },
};

/* Keys while a quiz is open: typing, Backspace, Enter, and Esc. */
static int view_quiz_key(struct view *v, int key)
{
	if (key == VIEW_KEY_RESIZE)
		return VIEW_KEY_REDRAW;
	if (v->quiz_answered || key == 27) {
		view_quiz_end(v);
		return VIEW_KEY_REDRAW;
	}
	if (key == '\n' || key == '\r' || key == VIEW_KEY_ENTER)
		view_quiz_answer(v);
	else if (key == VIEW_KEY_BACKSPACE || key == 127 || key == '\b')
		view_quiz_type(v, '\b');
	else if (key >= 0 && key <= 0xff && !view_quiz_type(v, key))
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	return VIEW_KEY_REDRAW;
}

/* The help: the keys that scroll scroll it (Space first, as on a
 * page), and any other key leaves it. */
static int view_help_key(struct view *v, int key)
{
	if (key == VIEW_KEY_DOWN || key == 'j')
		return key_down(v);
	if (key == VIEW_KEY_UP || key == 'k')
		return key_up(v);
	if (key == VIEW_KEY_NPAGE)
		return key_pgdn(v);
	if (key == VIEW_KEY_PPAGE)
		return key_pgup(v);
	if (key == VIEW_KEY_RESIZE ||
	    (key == ' ' && view_scroll_first(&v->scroll, v->rows, v->nbody, 1)))
		return VIEW_KEY_REDRAW;
	v->scroll = 0;
	return key_back(v);
}

/* Goes to the number typed after 'g' and ends the prompt. */
static int goto_typed(struct view *v)
{
	int n = v->g_num;
	v->pending_g = 0;
	v->g_num = 0;
	if (view_goto_number(v, n) != 0)
		return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	v->mode = VIEW_STEP;
	v->scroll = 0;
	v->fold = VIEW_FOLD_AUTO;
	v->rows = v->nbody = 0;
	return VIEW_KEY_REDRAW;
}

/* The keys after 'g': digits make the number, and it is gone to at once
 * when no further digit could make another (g 4 of 7 stages, g 12 of 14
 * pages), else at Enter; Backspace takes a digit back, a digit that would
 * make too large a number beeps, a resize keeps the prompt, and any other
 * key cancels it. */
static int view_goto_key(struct view *v, int key)
{
	int max = v->lesson ? v->lesson->npages : v->nstages;
	if (key >= '0' && key <= '9') {
		int n = v->g_num * 10 + (key - '0');
		if (n < 1 || n > max)
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
		v->g_num = n;
		if (n * 10 <= max)
			return VIEW_KEY_REDRAW;
		v->g_enter = 1; /* an Enter after a number that was whole
				   ends it, as ever: it is not the page's */
		return goto_typed(v);
	}
	if (key == '\n' || key == '\r' || key == VIEW_KEY_ENTER)
		return v->g_num ? goto_typed(v) : VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
	if (key == VIEW_KEY_BACKSPACE || key == 127 || key == '\b') {
		v->g_num /= 10;
		return VIEW_KEY_REDRAW;
	}
	if (key != VIEW_KEY_RESIZE) { /* the prompt said: it cancels */
		v->pending_g = 0;
		v->g_num = 0;
	}
	return VIEW_KEY_REDRAW;
}

int view_key(struct view *v, int key)
{
	int g_enter = v->g_enter;
	v->g_enter = 0;
	if (g_enter && (key == '\n' || key == '\r' || key == VIEW_KEY_ENTER))
		return VIEW_KEY_DONE;
	if (v->mode == VIEW_QUIZ)
		return view_quiz_key(v, key);
	int edit = v->edit ? view_edit_key(v, key) : -1; /* the edit line */
	if (edit >= 0)
		return edit;
	if (v->pending_g)
		return view_goto_key(v, key);
	if (v->mode == VIEW_SELF)
		return view_self_key(v, key);
	if (v->mode == VIEW_WHY)
		return view_why_key(v, key);
	if (v->mode == VIEW_HELP && key != 'q' && key != 'Q')
		return view_help_key(v, key);
	if (v->mode == VIEW_STEP && v->lesson) { /* predict, then reveal */
		int r = view_predict_key(v, key);
		if (r >= 0)
			return r;
	}
	/* on a lesson page with a quiz, a number typed starts the answer */
	if (v->mode == VIEW_STEP && v->lesson && key >= 0 && key <= 0xff &&
	    strchr("0123456789-.", key) && key &&
	    lesson_page_quiz(v->lesson, v->pos)) {
		int r = key_quiz(v);
		if (v->mode == VIEW_QUIZ)
			view_quiz_type(v, key);
		return r;
	}
	if (key == VIEW_KEY_RESIZE)
		return VIEW_KEY_REDRAW;
	for (size_t k = 0; k < sizeof view_keys / sizeof view_keys[0]; k++) {
		if (view_keys[k].key != key)
			continue;
		int (*fn)(struct view *) = view_keys[k].fn;
		/* c, m and d would show the numbers of a page whose prediction
		 * is not answered yet, and give it away */
		if ((fn == key_compare || fn == key_heatmap ||
		     fn == key_diagram) && view_predict_hidden(v))
			return VIEW_KEY_REDRAW | VIEW_KEY_BEEP;
		int side = v->mode == VIEW_HEATMAP &&
			   (fn == key_next || fn == key_prev || fn == key_home ||
			    fn == key_end);
		if (!view_keys[k].keep_scroll && !side)
			v->scroll = 0;
		return view_keys[k].fn(v);
	}
	return VIEW_KEY_DONE;
}

int view_pager_key(const struct view_pager *p, int key)
{
	int screen = *p->screen;
	if (*p->help) {
		*p->help = 0;
		return key == 'q' ? VIEW_KEY_QUIT : VIEW_KEY_REDRAW;
	}
	switch (key) {
	case 'q': case 'Q': return VIEW_KEY_QUIT;
	case '?': *p->help = 1; return VIEW_KEY_REDRAW;
	case VIEW_KEY_RIGHT: case 'n': case ' ': case VIEW_KEY_ENTER:
	case '\n': screen++; break;
	case VIEW_KEY_LEFT: case 'p': screen--; break;
	case VIEW_KEY_HOME: screen = 0; break;
	case VIEW_KEY_END: screen = p->last; break;
	case VIEW_KEY_DOWN: ++*p->scroll; return VIEW_KEY_REDRAW;
	case VIEW_KEY_NPAGE: *p->scroll += p->page_rows; return VIEW_KEY_REDRAW;
	case VIEW_KEY_UP: case VIEW_KEY_PPAGE:
		if (*p->scroll == 0)
			return VIEW_KEY_BEEP;
		*p->scroll -= key == VIEW_KEY_UP ? 1 : p->page_rows;
		if (*p->scroll < 0)
			*p->scroll = 0;
		return VIEW_KEY_REDRAW;
	case VIEW_KEY_RESIZE: return VIEW_KEY_REDRAW;
	default: return VIEW_KEY_BEEP;
	}
	if (screen < 0 || screen > p->last)
		return VIEW_KEY_BEEP;
	*p->screen = screen;
	*p->scroll = 0;
	return VIEW_KEY_REDRAW;
}
