/* tui_present.c: presentation mode, for a projector: one idea a screen,
 * the stage in large block letters, high contrast, and a step counter. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tui_int.h"
#include "utf8.h"

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

/* The narrative (bold), a blank line and the arithmetic of s, scrolled
 * by v.scroll, in a column of width cols centred from row y to row bottom
 * (exclusive).  Lines that do not fit are marked: "more above" in the top
 * row, "more below" in the last. */
static void present_text(struct tui *ui, const struct view_screen *s, int y,
			 int bottom, int cols)
{
	int n = s->nnarr + (s->nnarr && s->nbody ? 1 : 0) + s->nbody;
	int rows = bottom - y, *scroll = &ui->v.scroll;
	int x = (COLS - cols) / 2 > 1 ? (COLS - cols) / 2 : 1;
	if (rows < 1)
		return;
	if (*scroll > n - rows)
		*scroll = n - rows > 0 ? n - rows : 0;
	for (int k = 0; k < rows && *scroll + k < n; k++) {
		int at = *scroll + k;
		int body = at - s->nnarr - (s->nnarr ? 1 : 0);
		const char *line = at < s->nnarr ? s->narr[at]
				 : body < 0 ? "" : s->body[body];
		attr_t a = at < s->nnarr ? A_BOLD : A_NORMAL;
		attron(a);
		tui_put(y + k, x, line, COLS - x - 1);
		attroff(a);
	}
	attron(A_BOLD | A_REVERSE);
	if (*scroll > 0) {
		move(y, x);
		clrtoeol();
		tui_put(y, x, ui->utf8 ? " ↑ more above: up or PgUp "
				       : " ^ more above: up or PgUp ", COLS - x - 1);
	}
	if (*scroll + rows < n) {
		move(bottom - 1, x);
		clrtoeol();
		tui_put(bottom - 1, x, ui->utf8 ? " ↓ more below: down or PgDn "
				     : " v more below: down or PgDn ", COLS - x - 1);
	}
	attroff(A_BOLD | A_REVERSE);
}

/* The big title of the screen: the stage, or the lesson page. */
static void present_title(const struct tui *ui, const struct view_screen *s,
			  char *buf, size_t size)
{
	if (ui->v.lesson)
		snprintf(buf, size, "page %d", ui->v.pos + 1);
	else if (ui->v.mode == VIEW_DIAGRAM)
		snprintf(buf, size, "step %d", view_step(&ui->v) > 0
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
	snprintf(right, sizeof right, "%s  %d / %d ",
		 !ui->autoplay_ms ? "" : ui->paused ? "paused"
		 : ui->utf8 ? "▶ autoplay" : "> autoplay",
		 ui->v.pos + 1, view_count(&ui->v));
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
	snprintf(keys, sizeof keys, "%s   <- -> step   %sb blank   ? help   "
		 "q quit", !ui->autoplay_ms ? "space next"
		 : ui->paused ? "space resume" : "space pause",
		 scrolls ? "up/down scroll   " : "");
	attron(A_DIM);
	tui_put(LINES - 1, 1, keys, COLS - 2);
	attroff(A_DIM);
}

void tui_draw_present(struct tui *ui)
{
	struct view_screen s;
	char title[64];
	int width = COLS - 8 < 90 ? COLS - 8 : 90;
	ui->v.width = width;
	view_render(&ui->v, &s);
	erase();
	present_band(ui, &s);
	present_title(ui, &s, title, sizeof title);
	int len = (int)strlen(title), scale = 1;
	while (scale < 3 && len * 4 * (scale + 1) <= COLS - 4 &&
	       10 * (scale + 1) + 12 <= LINES)
		scale++;
	int y = 2 + big_text(ui, 2, title, scale) + 1;
	int ww = utf8_width(s.where);
	attron(A_BOLD);
	tui_put(y, (COLS - ww) / 2 > 0 ? (COLS - ww) / 2 : 0, s.where, COLS);
	attroff(A_BOLD);
	y += 2;
	int bottom = LINES - 2 - (s.nbars ? s.nbars + 2 : 0);
	present_text(ui, &s, y, bottom, width);
	if (s.nbars)
		tui_bars(ui, bottom + 1, &s);
	present_keys(ui, s.nnarr + s.nbody + 1 > bottom - y);
	refresh();
	view_screen_free(&s);
}
