/* tui.c: the full-screen stepper.  It lays out and colours the screens
 * that view.c makes from the trace; it formats no numbers of its own. */
#include "config.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "i18n.h"
#include "tui.h"
#include "utf8.h"
#include "util.h"
#include "tui_int.h"
#include "view.h"
#include "view_key.h"

static volatile sig_atomic_t tui_signal;

/* 1 when the terminal cannot be given UTF-8: tui_put() then draws each
 * character outside ASCII as '?', once a column it takes. */
static int tui_ascii;

static void tui_on_signal(int sig)
{
	tui_signal = sig;
}

static const char *const tui_color_names[] = { "auto", "always", "never" };

const char *tui_color_name(int k)
{
	return k >= 0 && k < 3 ? tui_color_names[k] : NULL;
}

int tui_color_parse(const char *s, enum tui_color *out)
{
	for (int k = 0; k < 3; k++)
		if (strcmp(s, tui_color_names[k]) == 0) {
			*out = (enum tui_color)k;
			return 0;
		}
	return -1;
}

/* Decides on colour: NO_COLOR (any non-empty value) turns auto off. */
static int tui_want_color(enum tui_color c)
{
	const char *no = getenv("NO_COLOR");
	if (c == TUI_COLOR_NEVER)
		return 0;
	if (c == TUI_COLOR_AUTO && no && *no)
		return 0;
	return has_colors();
}

static void tui_colors(struct tui *ui)
{
	static const short heat256[HEAT_LEVELS] = { 17, 18, 25, 32, 214, 226 };
	static const short heat8[HEAT_LEVELS] = {
		COLOR_BLACK, COLOR_BLUE, COLOR_BLUE, COLOR_CYAN, COLOR_YELLOW,
		COLOR_YELLOW
	};
	start_color();
	use_default_colors();
	init_pair(PAIR_TITLE, COLOR_WHITE, COLOR_BLUE);
	init_pair(PAIR_STAGE, COLOR_BLACK, COLOR_YELLOW);
	init_pair(PAIR_BAR, COLOR_GREEN, -1);
	init_pair(PAIR_MAX, COLOR_YELLOW, -1);
	init_pair(PAIR_KEYS, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_HEAD, COLOR_CYAN, -1);
	for (int k = 0; k < HEAT_LEVELS; k++)
		init_pair((short)(PAIR_HEAT0 + k),
			  k >= 4 ? COLOR_BLACK : COLOR_WHITE,
			  COLORS >= 256 ? heat256[k] : heat8[k]);
	ui->color = 1;
}

/* The attribute for a role: a colour pair, or bold/reverse in mono. */
attr_t tui_attr(const struct tui *ui, int pair, attr_t mono)
{
	return ui->color ? (attr_t)COLOR_PAIR(pair) : mono;
}

/* Writes s at (y, x), cut to at most maxcols columns; returns the columns
 * used.  Cuts between whole characters, and steps by utf8_char_len, so it
 * stops at the NUL whatever the bytes before it.  A byte that starts no
 * valid UTF-8 character, and a control, is drawn as '?': one column, as
 * utf8_width counts it, and nothing that could drive the terminal.  With
 * tui_ascii, any other character outside ASCII is drawn as one '?' a
 * column, so the screen is laid out as in UTF-8. */
int tui_put(int y, int x, const char *s, int maxcols)
{
	int cols = 0;
	size_t len;
	move(y, x);
	for (; (len = utf8_char_len(s)) > 0; s += len) {
		unsigned char c = (unsigned char)*s;
		char ch[5] = { 0 };
		memcpy(ch, s, len);
		int w = utf8_width(ch);
		if (cols + w > maxcols)
			break;
		cols += w;
		if (len == 1 && (c < 0x20 || c >= 0x7f))
			addch('?');
		else if (len > 1 && tui_ascii)
			for (int k = 0; k < w; k++)
				addch('?');
		else
			addnstr(s, (int)len);
	}
	return cols;
}

int tui_put_cut(const struct tui *ui, int y, int x, const char *s,
		int maxcols)
{
	int cols = tui_put(y, x, s, maxcols);
	if (utf8_width(s) > cols && x + maxcols < COLS) {
		attron(A_BOLD | A_REVERSE);
		tui_put(y, x + maxcols, ui->utf8 ? "›" : ">", 1);
		attroff(A_BOLD | A_REVERSE);
	}
	return cols;
}

/* A full-width line in attribute a. */
void tui_band(int y, const char *s, attr_t a)
{
	attron(a);
	mvhline(y, 0, ' ', COLS);
	tui_put(y, 1, s, COLS - 2);
	attroff(a);
}

/* The strip of stage names (view_strip()), the current one highlighted. */
static void tui_strip(const struct tui *ui, const struct view *v, int y,
		      int stage)
{
	struct view_strip_item items[STAGE_COUNT];
	int n = view_strip(v, stage, COLS, items), x = 1;
	for (int k = 0; k < n; k++) {
		attr_t a = items[k].current
			? tui_attr(ui, PAIR_STAGE, A_REVERSE | A_BOLD) : A_NORMAL;
		attron(a);
		x += tui_put(y, x, items[k].text, COLS - x - 1);
		attroff(a);
		if (k + 1 < n)
			x += tui_put(y, x, ui->utf8 ? " › " : " > ", COLS - x - 1);
	}
}

/* The weight bars, one row a source word, from row y; a bar of weight 1
 * takes TUI_BAR_COLS columns at most. */
void tui_bars(const struct tui *ui, int y, const struct view_screen *s)
{
	int lw = 0;
	for (int i = 0; i < s->nbars; i++) {
		int w = utf8_width(s->bars[i].label);
		lw = w > lw ? w : lw;
	}
	attron(A_BOLD);
	tui_put(y++, 1, s->bars_title, COLS - 2);
	attroff(A_BOLD);
	int bw = COLS - lw - 24;
	if (bw > TUI_BAR_COLS) /* a wide terminal: bars of a readable length */
		bw = TUI_BAR_COLS;
	for (int i = 0; i < s->nbars; i++, y++) {
		const struct fmt_bar *b = &s->bars[i];
		attr_t a = b->is_max ? tui_attr(ui, PAIR_MAX, A_BOLD | A_REVERSE)
				     : tui_attr(ui, PAIR_BAR, A_NORMAL);
		tui_put(y, 3, b->label, lw);
		int n = (int)(b->frac * bw + 0.5);
		if (n > bw) /* an edited weight above 1 (--set, key e) */
			n = bw;
		attron(a);
		for (int k = 0; k < n; k++)
			tui_put(y, 5 + lw + k, ui->utf8 ? "█" : "#", 1);
		attroff(a);
		mvprintw(y, 6 + lw + bw, "%s", b->value);
		if (b->is_max) {
			attron(A_BOLD);
			tui_put(y, 8 + lw + bw + (int)strlen(b->value), "<", 1);
			attroff(A_BOLD);
		}
		if (b->is_drawn) { /* hard attention's l */
			attron(A_BOLD);
			/* TRANSLATORS: marks the word hard attention drew */
			tui_put(y, 10 + lw + bw + (int)strlen(b->value),
				_("drawn"), COLS - 11 - lw - bw -
				(int)strlen(b->value));
			attroff(A_BOLD);
		}
	}
}

/* An image's picture (view_screen.picture) from row y: its title, then
 * its lines as the view made them. */
static void tui_picture(int y, const struct view_screen *s)
{
	attron(A_BOLD);
	tui_put(y++, 1, s->bars_title, COLS - 2);
	attroff(A_BOLD);
	for (int k = 0; k < s->npicture; k++)
		tui_put(y++, 1, s->picture[k], COLS - 2);
}

/* The widths of the heatmap's row labels (*rw) and cells (*cw): a cell
 * holds a shade, a weight and its source word, cut to HEAT_WORD_COLS. */
static void heat_widths(const struct tui *ui, int *rw, int *cw)
{
	const struct trace *tr = ui->v.tr;
	const struct trace_run *ru = &tr->runs[ui->v.run];
	*rw = 6;
	*cw = ui->v.fmt.precision + 8;
	for (int t = 0; t < ru->nsteps; t++) {
		int w = utf8_width(tr->m->tgt.words[ru->pred[t]]);
		*rw = w > *rw ? w : *rw;
	}
	for (int i = 0; i < tr->n; i++) {
		int w = utf8_width(tr->m->src.words[tr->src[i]]);
		w = (w < HEAT_WORD_COLS ? w : HEAT_WORD_COLS) + 4;
		*cw = w > *cw ? w : *cw;
	}
	*rw = *rw < HEAT_WORD_COLS ? *rw : HEAT_WORD_COLS;
}

/* One row of the heatmap: output word t's weights, columns [first, end). */
static void heat_row(const struct tui *ui, int y, int t, int rw, int cw,
		     int first, int end)
{
	static const char *const ascii = " .:-=+#";
	const struct trace *tr = ui->v.tr;
	const struct trace_run *ru = &tr->runs[ui->v.run];
	struct fmt_bar *bars = xcalloc((size_t)tr->n, sizeof *bars);
	fmt_bars(bars, tr, ui->v.run, t, ui->v.fmt.precision);
	tui_put(y, 1, tr->m->tgt.words[ru->pred[t - 1]], rw);
	for (int i = first; i < end; i++) {
		int lvl = fmt_shade(bars[i].frac, HEAT_LEVELS);
		char cell[80];
		char shade = ui->color ? ' ' : ascii[lvl];
		snprintf(cell, sizeof cell, "%c%c %-*s", shade, shade, cw - 4,
			 bars[i].value);
		attr_t a = ui->color ? (attr_t)COLOR_PAIR(PAIR_HEAT0 + lvl)
				     : bars[i].is_max ? A_REVERSE | A_BOLD
						      : A_NORMAL;
		attron(a);
		tui_put(y, rw + 2 + (i - first) * cw, cell, cw - 1);
		attroff(a);
	}
	free(bars);
}

/* The alignment heatmap of the current scorer from row y: a row for each
 * output word, a column for each source word, the cells shaded by α.
 * What does not fit scrolls: the rows with v.scroll, the columns with
 * v.hscroll, and the top line says which are shown. */
static void tui_heatmap(struct tui *ui, int y)
{
	const struct trace *tr = ui->v.tr;
	const struct trace_run *ru = &tr->runs[ui->v.run];
	int rw, cw;
	heat_widths(ui, &rw, &cw);
	int fit = (COLS - rw - 1) / cw, rows = LINES - 4 - (y + 2);
	fit = fit < 1 ? 1 : fit > tr->n ? tr->n : fit;
	rows = rows < 1 ? 1 : rows > ru->nsteps ? ru->nsteps : rows;
	int *first = &ui->v.hscroll, *top = &ui->v.scroll;
	*first = *first > tr->n - fit ? tr->n - fit : *first;
	*top = *top > ru->nsteps - rows ? ru->nsteps - rows : *top;
	char info[200];
	if (fit < tr->n || rows < ru->nsteps)
		snprintf(info, sizeof info, _("output words %d-%d of %d (up, down), "
			 "source words %d-%d of %d (left, right)"), *top + 1,
			 *top + rows, ru->nsteps, *first + 1, *first + fit, tr->n);
	else
		snprintf(info, sizeof info, _("rows: output words   columns: "
			 "source words   cells: the weights %s"),
			 /* the weights the context was made with:
			  * local-p's a_t,i (trace_weights) */
			 trace_find(tr, REC_GAUSS, ui->v.run, 1, 0)
			 ? "a_t,i" : "α_t,i");
	tui_put(y++, 1, info, COLS - 2);
	y++;
	attron(A_BOLD);
	for (int i = *first; i < *first + fit; i++) {
		const char *w = tr->m->src.words[tr->src[i]];
		int x = rw + 5 + (i - *first) * cw;
		if (utf8_width(w) <= cw - 4) {
			tui_put(y, x, w, cw - 4);
		} else { /* abbreviated, and marked so */
			x += tui_put(y, x, w, cw - 5);
			tui_put(y, x, ui->utf8 ? "…" : "~", 1);
		}
	}
	attroff(A_BOLD);
	for (int k = 1; k <= rows; k++)
		heat_row(ui, y + k, *top + k, rw, cw, *first, *first + fit);
	int ly = y + rows + 2;
	tui_put(ly, 1, ui->color ? _("darker to brighter: weight 0 to 1; "
		"s switches the scorer") : _("shades \" .:-=+#\": weight 0 to 1, "
		"the largest of each row in reverse; s switches the scorer"),
		COLS - 2);
	char note[256]; /* the window's word on it (fixed: one column) */
	if (fmt_heat_window_note(tr, ui->v.run, note, sizeof note))
		tui_put(ly + 1, 1, note, COLS - 2);
}

/* s past its first cols columns (whole characters). */
static const char *tui_skip_cols(const char *s, int cols)
{
	size_t len;
	char ch[5];
	for (; cols > 0 && (len = utf8_char_len(s)) > 0; s += len) {
		memset(ch, 0, sizeof ch);
		memcpy(ch, s, len);
		cols -= utf8_width(ch);
	}
	return s;
}

/* The first column of the body to show: *hs clamped so that the widest
 * line's end is on the screen; 0 where the body does not scroll
 * sideways. */
static int tui_body_hscroll(const struct tui *ui, const struct view_screen *s)
{
	int *hs = ui->sc ? ui->sc->hscroll : NULL, widest = 0;
	if (!hs)
		return 0;
	for (int k = 0; k < s->nbody; k++)
		if (utf8_width(s->body[k]) > widest)
			widest = utf8_width(s->body[k]);
	if (*hs > widest - (COLS - 2))
		*hs = widest - (COLS - 2) > 0 ? widest - (COLS - 2) : 0;
	return *hs;
}

/* Draws the body lines from row y to row bottom (exclusive), scrolled;
 * a line cut at the right ends in ›, one scrolled past its start begins
 * with ‹. */
/* The rows the narrative takes above the body at most. */
#define TUI_NARR_ROWS 6

static void tui_body(struct tui *ui, const struct view_screen *s, int y,
		     int bottom)
{
	int rows = bottom - y, *scroll = ui->sc ? ui->sc->scroll : &ui->v.scroll;
	int hs = tui_body_hscroll(ui, s);
	ui->v.rows = rows; /* what Space and Backspace scroll by */
	ui->v.nbody = s->nbody;
	if (*scroll > s->nbody - rows)
		*scroll = s->nbody - rows > 0 ? s->nbody - rows : 0;
	for (int k = 0; k < rows && *scroll + k < s->nbody; k++) {
		const char *line = s->body[*scroll + k];
		/* with the stepper's edits: the old values (fmt_mark's "was"
		 * lines) stand out */
		attr_t was = ui->v.edit && !ui->sc && !ui->v.lesson &&
			     strncmp(line + strspn(line, " "), "was", 3) == 0
			     ? tui_attr(ui, PAIR_MAX, A_BOLD) : 0;
		attron(was);
		tui_put_cut(ui, y + k, 1, tui_skip_cols(line, hs), COLS - 2);
		attroff(was);
		if (hs > 0 && utf8_width(line) > 0) {
			attron(A_BOLD | A_REVERSE);
			tui_put(y + k, 0, ui->utf8 ? "‹" : "<", 1);
			attroff(A_BOLD | A_REVERSE);
		}
	}
	if (*scroll + rows < s->nbody) {
		attron(A_BOLD);
		mvhline(bottom - 1, 0, ' ', COLS);
		/* in a lesson page, Space scrolls before it turns the page */
		int page = !ui->sc && ui->v.lesson && ui->v.mode == VIEW_STEP;
		tui_put(bottom - 1, 1, ui->utf8 ? "↓" : "v", 1);
		tui_put(bottom - 1, 3, page ? _("more below: space, down or PgDn")
			: _("more below: down or PgDn"), COLS - 4);

		attroff(A_BOLD);
	}
}

/* 1 if the weight bars would push a lesson page's own lines below the fold
 * while, without them, fewer are: the page's text comes first, and its
 * shows print the weights it speaks of (issue 25: at 80x24 what the prose
 * points at is on the screen). */
static int tui_bars_crowd(const struct tui *ui, const struct view_screen *s,
			 int y, int bottom)
{
	if (ui->sc || !ui->v.lesson || ui->v.mode != VIEW_STEP)
		return 0;
	return s->nbody > bottom - s->nbars - 2 - y;
}

static void tui_too_small(void)
{
	char msg[128];
	erase();
	snprintf(msg, sizeof msg, _("Please enlarge the terminal to at least "
				    "%dx%d (it is %dx%d)."), MIN_COLS, MIN_LINES,
		 COLS, LINES);
	int len = (int)strlen(msg), w = COLS > 0 ? COLS : 1;
	/* lines of whole characters, w display columns at most (a
	 * translation may hold wide ones), at least one character each */
	for (int y = 0, off = 0; off < len && y < LINES - 1; y++) {
		int end = off, cols = 0;
		size_t n;
		while ((n = utf8_char_len(msg + end)) > 0) {
			char ch[8] = { 0 };
			memcpy(ch, msg + end, n < 7 ? n : 7);
			if (cols + utf8_width(ch) > w && end > off)
				break;
			cols += utf8_width(ch);
			end += (int)n;
		}
		mvaddnstr(y, 0, msg + off, end - off);
		off = end;
	}
	if (LINES > 2)
		mvaddnstr(LINES - 1, 0, _("q quits"), COLS);
	refresh();
}

static void tui_draw(struct tui *ui)
{
	struct view_screen s;
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		tui_too_small();
		return;
	}
	if (ui->blank) {
		erase();
		refresh();
		return;
	}
	if (ui->present && !ui->sc &&
	    (ui->v.mode == VIEW_STEP || ui->v.mode == VIEW_DIAGRAM)) {
		tui_draw_present(ui);
		return;
	}
	if (ui->sc) {
		ui->sc->render(ui->sc->ctx, COLS - 2, &s);
	} else {
		ui->v.width = COLS - 2;
		ui->v.lines = LINES;
		view_render(&ui->v, &s);
	}
	erase();
	tui_band(0, s.title, tui_attr(ui, PAIR_TITLE, A_REVERSE));
	if (!ui->sc && !ui->v.self) /* self-attention has not these stages */
		tui_strip(ui, &ui->v, 1, s.stage);
	attron(tui_attr(ui, PAIR_HEAD, A_BOLD));
	tui_put(2, 1, s.where, COLS - 2);
	attroff(tui_attr(ui, PAIR_HEAD, A_BOLD));
	int y = 4, bottom = LINES - 1;
	for (int k = 0; k < s.nnarr && k < TUI_NARR_ROWS; k++)
		tui_put(y++, 1, s.narr[k], COLS - 2);
	if (s.nnarr)
		y++;
	/* narrative past its rows goes on at the top of the body, where
	 * it scrolls, rather than being cut off mid-sentence */
	char **body = s.body;
	int nbody = s.nbody;
	if (s.nnarr > TUI_NARR_ROWS) {
		int more = s.nnarr - TUI_NARR_ROWS;
		s.body = xcalloc((size_t)(more + 1 + nbody), sizeof *s.body);
		for (int k = 0; k < more; k++)
			s.body[k] = s.narr[TUI_NARR_ROWS + k];
		s.body[more] = (char *)"";
		for (int k = 0; k < nbody; k++)
			s.body[more + 1 + k] = body[k];
		s.nbody = more + 1 + nbody;
	}
	if (s.nbars && bottom - s.nbars - 1 - y >= 4 &&
	    !tui_bars_crowd(ui, &s, y, bottom))
		bottom -= s.nbars + 2;
	else
		s.nbars = 0;
	if (s.npicture && bottom - s.npicture - 1 - y >= 4)
		bottom -= s.npicture + 2;
	else
		s.npicture = 0;
	if (ui->v.mode == VIEW_HEATMAP && !ui->v.tr->enc)
		tui_heatmap(ui, y); /* an image's is the view's body */
	else
		tui_body(ui, &s, y, bottom);
	if (s.nbars)
		tui_bars(ui, bottom + 1, &s);
	if (s.npicture)
		tui_picture(bottom + 1, &s);
	tui_band(LINES - 1, s.keys, tui_attr(ui, PAIR_KEYS, A_REVERSE));
	refresh();
	if (s.body != body) { /* the lines are narr's and body's */
		free(s.body);
		s.body = body;
		s.nbody = nbody;
	}
	view_screen_free(&s);
}

/* The key code of view_key.h for what getch() returned: a byte as it
 * is, a curses key by the table, any other curses key VIEW_KEY_OTHER. */
static int tui_keycode(int ch)
{
	static const struct {
		int curses, view;
	} map[] = {
		{ KEY_RIGHT, VIEW_KEY_RIGHT }, { KEY_LEFT, VIEW_KEY_LEFT },
		{ KEY_UP, VIEW_KEY_UP }, { KEY_DOWN, VIEW_KEY_DOWN },
		{ KEY_HOME, VIEW_KEY_HOME }, { KEY_END, VIEW_KEY_END },
		{ KEY_NPAGE, VIEW_KEY_NPAGE }, { KEY_PPAGE, VIEW_KEY_PPAGE },
		{ KEY_BACKSPACE, VIEW_KEY_BACKSPACE }, { KEY_ENTER, VIEW_KEY_ENTER },
		{ KEY_RESIZE, VIEW_KEY_RESIZE },
	};
	if (ch >= 0 && ch <= 0xff)
		return ch;
	for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
		if (map[k].curses == ch)
			return map[k].view;
	return VIEW_KEY_OTHER;
}

/* Presentation keys: b blanks the screen, space pauses the autoplay. */
static int tui_present_key(struct tui *ui, int ch)
{
	if (ui->blank) {
		ui->blank = 0;
		return VIEW_KEY_REDRAW;
	}
	if (ch == 'b' || ch == 'B') {
		ui->blank = 1;
		return VIEW_KEY_REDRAW;
	}
	if (ch == ' ' && ui->autoplay_ms) {
		ui->paused = !ui->paused;
		ui->elapsed_ms = 0;
		return VIEW_KEY_REDRAW;
	}
	return -1;
}

/* Handles a key from getch(): the presentation's own keys, then the
 * stepper's (view_key.h).  Returns VIEW_KEY_* flags. */
static int tui_key(struct tui *ui, int ch)
{
	int key = tui_keycode(ch);
	if (ui->sc) {
		int r = ui->sc->key(ui->sc->ctx, key, LINES / 2);
		if (r & VIEW_KEY_BEEP)
			beep();
		return r;
	}
	if (ui->present && ui->v.mode != VIEW_QUIZ && key != VIEW_KEY_RESIZE) {
		int r = tui_present_key(ui, key);
		if (r >= 0)
			return r;
		ui->elapsed_ms = 0; /* a manual step restarts the timer */
	}
	ui->v.page_rows = LINES / 2;
	int r = view_key(&ui->v, key);
	if (r & VIEW_KEY_BEEP)
		beep();
	return r;
}

/* The signals whose default action ends the program and that a handler
 * can catch and return from: each must give the terminal back, so each
 * only sets tui_signal, and the loop ends and restores the terminal.
 * (SIGSEGV and the other faults cannot be returned from; abort() from
 * the allocators runs the fatal hook.) */
static const int tui_sigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF
};
#define TUI_NSIGS ((int)(sizeof tui_sigs / sizeof tui_sigs[0]))

/* Installs handler for tui_sigs, saving the old actions in old
 * (TUI_NSIGS). */
static void tui_signals(void (*handler)(int), struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (int k = 0; k < TUI_NSIGS; k++)
		sigaction(tui_sigs[k], &sa, &old[k]);
}

static void tui_signals_restore(const struct sigaction *old)
{
	for (int k = 0; k < TUI_NSIGS; k++)
		sigaction(tui_sigs[k], &old[k], NULL);
}

/* endwin() once, from whichever exit path comes first. */
static int tui_active;

static void tui_end(void)
{
	if (tui_active) {
		tui_active = 0;
		endwin();
	}
}

/* Advances the autoplay by ms of idle time; returns 1 if the screen
 * changed. */
static int tui_tick(struct tui *ui, int ms)
{
	if (!ui->present || !ui->autoplay_ms || ui->paused || ui->blank)
		return 0;
	ui->elapsed_ms += ms;
	if (ui->elapsed_ms < ui->autoplay_ms)
		return 0;
	ui->elapsed_ms = 0;
	int total;
	if (view_screen_number(&ui->v, &total) + 1 >= total) {
		ui->paused = 1; /* the end: stop, and say so */
		return 1;
	}
	view_key(&ui->v, VIEW_KEY_RIGHT); /* a step's screens, then its picture */
	ui->v.scroll = 0;
	return 1;
}

/* Runs the event loop on an initialised view; returns the exit status. */
static int tui_loop(struct tui *ui, const struct tui_opts *o)
{
	struct sigaction old[TUI_NSIGS];
	tui_signal = 0;
	tui_signals(tui_on_signal, old);
	if (!initscr()) {
		tui_signals_restore(old);
		fputs(_("attn-trace: cannot start the terminal interface\n"),
		      stderr);
		return 1;
	}
	tui_active = 1;
	atexit(tui_end);
	util_set_fatal_hook(tui_end); /* abort() runs no atexit handler */
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(50);
	timeout(100); /* wake up to see the signal flag */
	if (tui_want_color(o->color))
		tui_colors(ui);
	int redraw = 1, done = 0;
	while (!done && !tui_signal) {
		if (redraw)
			tui_draw(ui);
		int ch = getch();
		if (ch == ERR) {
			redraw = tui_tick(ui, 100);
			continue;
		}
		int r = tui_key(ui, ch);
		redraw = (r & VIEW_KEY_REDRAW) || ch == KEY_RESIZE;
		done = r & VIEW_KEY_QUIT;
	}
	tui_end();
	tui_signals_restore(old);
	return tui_signal ? 128 + tui_signal : 0; /* as a shell reports it */
}

/* Sets LC_CTYPE for the screen; returns 1 if it is UTF-8.  The C and
 * POSIX locales (LANG unset, as under cron, ssh or a container) say
 * nothing of the terminal, which is nearly always UTF-8 today, so they
 * are taken as C.UTF-8.  Any other locale is the user's word: if it is
 * not UTF-8, or no UTF-8 locale exists, the caller draws ASCII. */
static int tui_locale(void)
{
	static const char *const utf8_names[] = { "C.UTF-8", "C.utf8",
						  "en_US.UTF-8" };
	const char *cur = setlocale(LC_CTYPE, NULL);
	if (cur && (strcmp(cur, "C") == 0 || strcmp(cur, "POSIX") == 0))
		for (size_t k = 0; k < sizeof utf8_names / sizeof *utf8_names; k++)
			if (setlocale(LC_CTYPE, utf8_names[k]))
				break;
	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static int tui_start(const struct trace *tr, const struct lesson *l,
		     const struct tui_opts *o)
{
	struct tui ui;
	char *locale = xstrdup(setlocale(LC_CTYPE, NULL));
	memset(&ui, 0, sizeof ui);
	ui.utf8 = tui_locale();
	tui_ascii = !ui.utf8;
	ui.present = o->present;
	ui.autoplay_ms = o->present ? o->autoplay_ms : 0;
	view_init(&ui.v, tr, l, o->precision, MIN_COLS - 2);
	ui.v.present = o->present;
	ui.v.ascii = !ui.utf8;
	ui.v.archs = l ? NULL : o->archs;
	ui.v.narchs = l ? 0 : o->narchs;
	ui.v.retrace = l || o->archs ? NULL : o->retrace;
	if (ui.v.retrace) {
		ui.v.goal_t = o->goal_t;
		ui.v.goal_i = o->goal_i;
	}
	for (int k = 0; !l && k < tr->nruns; k++)
		if ((int)tr->runs[k].scorer == o->start_scorer)
			view_set_run(&ui.v, k);
	int rc = tui_loop(&ui, o);
	view_free(&ui.v);
	setlocale(LC_CTYPE, locale);
	free(locale);
	return rc;
}

int tui_run_trace(const struct trace *tr, const struct tui_opts *o)
{
	return tui_start(tr, NULL, o);
}

int tui_run_screens(const struct tui_screens *sc, const struct tui_opts *o)
{
	struct tui ui;
	char *locale = xstrdup(setlocale(LC_CTYPE, NULL));
	memset(&ui, 0, sizeof ui);
	ui.utf8 = tui_locale();
	tui_ascii = !ui.utf8;
	ui.sc = sc;
	int rc = tui_loop(&ui, o);
	setlocale(LC_CTYPE, locale);
	free(locale);
	return rc;
}

int tui_run_lesson(const struct lesson *l, const struct trace *tr,
		   const struct tui_opts *o)
{
	return tui_start(tr, l, o);
}
