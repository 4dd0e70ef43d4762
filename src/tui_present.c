/* tui_present.c: presentation mode, for a projector: one idea a screen,
 * the stage in large block letters, high contrast, and a step counter. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tui_int.h"
#include "utf8.h"
#include "util.h"

/* From this many columns on, a screen's narrative and arithmetic stand
 * side by side. */
#define PRESENT_TWO_COLS 140

/* The rows around the text: the band, a blank, the "where" line and a
 * blank above it; a blank and the keys below. */
#define PRESENT_CHROME 6

/* A 3x5 block font: '#' is ink.  Letters, digits and a space. */
static const char *const font_rows[37][5] = {
	{ ".#.", "#.#", "###", "#.#", "#.#" }, { "##.", "#.#", "##.", "#.#", "##." },
	{ ".##", "#..", "#..", "#..", ".##" }, { "##.", "#.#", "#.#", "#.#", "##." },
	{ "###", "#..", "##.", "#..", "###" }, { "###", "#..", "##.", "#..", "#.." },
	{ ".##", "#..", "#.#", "#.#", ".##" }, { "#.#", "#.#", "###", "#.#", "#.#" },
	{ "###", ".#.", ".#.", ".#.", "###" }, { "..#", "..#", "..#", "#.#", ".#." },
	{ "#.#", "#.#", "##.", "#.#", "#.#" }, { "#..", "#..", "#..", "#..", "###" },
	{ "#.#", "###", "###", "#.#", "#.#" }, { "##.", "#.#", "#.#", "#.#", "#.#" },
	{ ".#.", "#.#", "#.#", "#.#", ".#." }, { "##.", "#.#", "##.", "#..", "#.." },
	{ ".#.", "#.#", "#.#", "##.", ".##" }, { "##.", "#.#", "##.", "#.#", "#.#" },
	{ ".##", "#..", ".#.", "..#", "##." }, { "###", ".#.", ".#.", ".#.", ".#." },
	{ "#.#", "#.#", "#.#", "#.#", "###" }, { "#.#", "#.#", "#.#", "#.#", ".#." },
	{ "#.#", "#.#", "###", "###", "#.#" }, { "#.#", "#.#", ".#.", "#.#", "#.#" },
	{ "#.#", "#.#", ".#.", ".#.", ".#." }, { "###", "..#", ".#.", "#..", "###" },
	{ "###", "#.#", "#.#", "#.#", "###" }, { ".#.", "##.", ".#.", ".#.", "###" },
	{ "##.", "..#", ".#.", "#..", "###" }, { "##.", "..#", ".#.", "..#", "##." },
	{ "#.#", "#.#", "###", "..#", "..#" }, { "###", "#..", "##.", "..#", "##." },
	{ ".##", "#..", "###", "#.#", "###" }, { "###", "..#", ".#.", ".#.", ".#." },
	{ "###", "#.#", "###", "#.#", "###" }, { "###", "#.#", "###", "..#", "##." },
	{ "...", "...", "...", "...", "..." },
};

/* The glyph of c: letters, digits, and a space for anything else. */
static const char *const *font_glyph(char c)
{
	c = (char)toupper((unsigned char)c);
	if (c >= 'A' && c <= 'Z')
		return font_rows[c - 'A'];
	if (c >= '0' && c <= '9')
		return font_rows[26 + c - '0'];
	return font_rows[36];
}

/* Draws text in block letters at row y, centred, each cell scale columns
 * wide and scale rows tall; returns the rows used. */
static int big_text(const struct tui *ui, int y, const char *text, int scale)
{
	int len = (int)strlen(text), width = len * 4 * scale;
	int x0 = (COLS - width) / 2 > 0 ? (COLS - width) / 2 : 0;
	attr_t a = ui->color ? (attr_t)(COLOR_PAIR(PAIR_MAX) | A_BOLD) : A_BOLD;
	attron(a);
	for (int row = 0; row < 5 * scale; row++)
		for (int k = 0; k < len; k++) {
			const char *const *g = font_glyph(text[k]);
			for (int col = 0; col < 3 * scale; col++) {
				if (g[row / scale][col / scale] != '#')
					continue;
				int x = x0 + k * 4 * scale + col;
				if (x < COLS)
					tui_put(y + row, x, ui->utf8 ? "█" : "#", 1);
			}
		}
	attroff(a);
	return 5 * scale;
}

/* One column of text: lines[scroll ..] from row y, rows rows, at column
 * x, cut to cols columns; the first nbold lines in bold. */
static void present_column(const struct tui *ui, char *const *lines, int n,
			   int nbold, int scroll, int y, int rows, int x,
			   int cols)
{
	for (int k = 0; k < rows && scroll + k < n; k++) {
		attr_t a = scroll + k < nbold ? A_BOLD : A_NORMAL;
		attron(a);
		tui_put_cut(ui, y + k, x, lines[scroll + k], cols);
		attroff(a);
	}
}

/* The marks of text cut off: "more above" in row y, "more below" in row
 * bottom - 1, from column x. */
static void present_marks(const struct tui *ui, int above, int below, int y,
			  int bottom, int x)
{
	attron(A_BOLD | A_REVERSE);
	if (above) {
		move(y, x);
		clrtoeol();
		tui_put(y, x, ui->utf8 ? _(" ↑ more above: up or PgUp ")
				       : _(" ^ more above: up or PgUp "),
			COLS - x - 1);
	}
	if (below) {
		move(bottom - 1, x);
		clrtoeol();
		tui_put(bottom - 1, x, ui->utf8
			? _(" ↓ more below: down or PgDn ")
			: _(" v more below: down or PgDn "), COLS - x - 1);
	}
	attroff(A_BOLD | A_REVERSE);
}

/* The layout of the text: one column, centred, cols wide; or, when
 * two, the narrative in a column cols wide from the left margin and the
 * arithmetic beside it, rcols wide. */
struct present_lay {
	int two;
	int cols, rcols;
	int x, rx;
};

/* The rows the text of s takes in layout l. */
static int present_rows(const struct view_screen *s,
			const struct present_lay *l)
{
	if (l->two)
		return s->nnarr > s->nbody ? s->nnarr : s->nbody;
	return s->nnarr + (s->nnarr && s->nbody ? 1 : 0) + s->nbody;
}

/* The narrative (bold), a blank line and the arithmetic of s, scrolled
 * by v.scroll, from row y to row bottom (exclusive), laid out as l says.
 * Lines that do not fit are marked: "more above" in the top row, "more
 * below" in the last. */
static void present_text(struct tui *ui, const struct view_screen *s, int y,
			 int bottom, const struct present_lay *l)
{
	int n = present_rows(s, l), rows = bottom - y, *scroll = &ui->v.scroll;
	if (rows < 1)
		return;
	if (*scroll > n - rows)
		*scroll = n - rows > 0 ? n - rows : 0;
	if (l->two) {
		present_column(ui, s->narr, s->nnarr, s->nnarr, *scroll, y, rows,
			       l->x, l->cols);
		present_column(ui, s->body, s->nbody, 0, *scroll, y, rows, l->rx,
			       COLS - l->rx - 2);
	} else {
		char **all = xcalloc((size_t)n + 1, sizeof *all);
		int k = 0;
		for (int j = 0; j < s->nnarr; j++)
			all[k++] = s->narr[j];
		if (s->nnarr && s->nbody)
			all[k++] = "";
		for (int j = 0; j < s->nbody; j++)
			all[k++] = s->body[j];
		present_column(ui, all, n, s->nnarr, *scroll, y, rows, l->x,
			       COLS - l->x - 2);
		free(all);
	}
	present_marks(ui, *scroll > 0, *scroll + rows < n, y, bottom, l->x);
}

/* The big title of the screen: the stage, or the lesson page, in English
 * whatever the locale: the block letters of font_rows are A-Z and 0-9. */
static void present_title(const struct tui *ui, const struct view_screen *s,
			  char *buf, size_t size)
{
	if (ui->v.lesson)
		snprintf(buf, size, _("page %d"), ui->v.pos + 1);
	else if (ui->v.mode == VIEW_DIAGRAM)
		snprintf(buf, size, _("step %d"), view_step(&ui->v) > 0
			 ? view_step(&ui->v) : 1);
	else if (s->stage >= 0)
		snprintf(buf, size, "%s", view_stage_titles[s->stage]);

	else
		snprintf(buf, size, "attn-trace");
}

/* The top band: what is traced, and the counter with the autoplay state. */
static void present_band(const struct tui *ui, const struct view_screen *s)
{
	char right[96];
	int total, num = view_screen_number(&ui->v, &total) + 1;
	snprintf(right, sizeof right, "%s  %d / %d ",
		 !ui->autoplay_ms ? "" : ui->paused ? _("paused")
		 : ui->utf8 ? _("▶ autoplay") : _("> autoplay"),
		 num, total);
	attr_t a = tui_attr(ui, PAIR_TITLE, A_REVERSE);
	int w = utf8_width(right);
	tui_band(0, "", a);
	attron(a);
	tui_put(0, 1, s->title, COLS - w - 4);
	attron(A_BOLD);
	if (COLS - w - 1 > 0)
		tui_put(0, COLS - w - 1, right, w);
	attroff(a | A_BOLD);
}

/* The bottom line: the keys that apply now.  "space resume" while the
 * autoplay is paused, the scroll keys when the text does not fit. */
static void present_keys(const struct tui *ui, int scrolls)
{
	char keys[160];
	snprintf(keys, sizeof keys, _("%s   <- -> step   %sb blank   ? help   "
		 "q quit"), !ui->autoplay_ms ? _("space next")
		 : ui->paused ? _("space resume") : _("space pause"),
		 scrolls ? _("up/down scroll   ") : "");

	attron(A_DIM);
	tui_put(LINES - 1, 1, keys, COLS - 2);
	attroff(A_DIM);
}

/* Renders the screen into *s for layout l: in two columns, the
 * narrative wrapped to its column and the arithmetic to the other. */
static void present_render(struct tui *ui, struct view_screen *s,
			   const struct present_lay *l)
{
	ui->v.width = l->two ? l->rcols : l->cols;
	view_render(&ui->v, s);
	if (!l->two)
		return;
	struct view_screen left;
	ui->v.width = l->cols;
	view_render(&ui->v, &left);
	char **narr = s->narr;
	int nnarr = s->nnarr;
	s->narr = left.narr;
	s->nnarr = left.nnarr;
	left.narr = narr;
	left.nnarr = nnarr;
	view_screen_free(&left);
}

/* Chooses the layout: two columns from PRESENT_TWO_COLS on, for a screen
 * with both narrative and arithmetic; else one column up to
 * VIEW_TEXT_COLS wide.  Fills *s. */
static void present_layout(struct tui *ui, struct view_screen *s,
			   struct present_lay *l)
{
	memset(l, 0, sizeof *l);
	l->cols = COLS - 8 < VIEW_TEXT_COLS ? COLS - 8 : VIEW_TEXT_COLS;
	l->x = (COLS - l->cols) / 2 > 1 ? (COLS - l->cols) / 2 : 1;
	present_render(ui, s, l);
	if (COLS < PRESENT_TWO_COLS || !s->nnarr || !s->nbody)
		return;
	view_screen_free(s);
	l->two = 1;
	l->x = 3;
	l->cols = (COLS - 10) * 2 / 5;
	if (l->cols > VIEW_PROSE_COLS)
		l->cols = VIEW_PROSE_COLS;
	l->rx = l->x + l->cols + 4;
	l->rcols = COLS - l->rx - 2;
	present_render(ui, s, l);
}

/* The scale of the block letters of title: the largest (up to 3) at
 * which they fit beside text rows of text, or 0 when even the smallest
 * would leave the text short of room: then the letters yield to it. */
static int present_scale(const char *title, int text)
{
	int len = (int)strlen(title);
	for (int scale = 3; scale >= 1; scale--)
		if (len * 4 * scale <= COLS - 4 &&
		    PRESENT_CHROME + 5 * scale + 1 + text <= LINES &&
		    (scale == 1 || 10 * scale + 12 <= LINES))
			return scale;
	return 0;
}

void tui_draw_present(struct tui *ui)
{
	struct view_screen s;
	struct present_lay l;
	char title[64];
	present_layout(ui, &s, &l);
	erase();
	present_band(ui, &s);
	present_title(ui, &s, title, sizeof title);
	int bars = s.nbars ? s.nbars + 2 : 0, rows = present_rows(&s, &l);
	int scale = present_scale(title, rows + bars);
	if (!scale && rows + bars > LINES - PRESENT_CHROME + 1)
		s.nbars = bars = 0; /* the bars repeat α: they yield next */
	int y = scale ? 2 + big_text(ui, 2, title, scale) + 1 : 1;
	int ww = utf8_width(s.where);
	attron(A_BOLD);
	tui_put(y, (COLS - ww) / 2 > 0 ? (COLS - ww) / 2 : 0, s.where, COLS);
	attroff(A_BOLD);
	y += 2;
	int bottom = LINES - 2 - bars;
	present_text(ui, &s, y, bottom, &l);
	if (s.nbars)
		tui_bars(ui, bottom + 1, &s);
	present_keys(ui, present_rows(&s, &l) > bottom - y);
	refresh();
	view_screen_free(&s);
}
