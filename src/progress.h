/* progress.h: a status line on standard error while a long run works
 * (trace --batch, train), when standard error is a terminal.
 *
 * The line is drawn with a carriage return and rewritten in place, padded
 * with spaces over what a longer line left (no escape codes), at most
 * every PROGRESS_EVERY seconds, and cleared before any other message.
 * It goes to standard error only, so standard output and -o files are
 * the same bytes with or without it. */
#ifndef ATTN_PROGRESS_H
#define ATTN_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

#define PROGRESS_EVERY 0.1 /* seconds between two draws */

struct progress {
	FILE *fp;      /* the terminal drawn on; NULL: no progress */
	double start;  /* progress_clock() at progress_start() */
	double last;   /* at the last draw, or < 0 before any */
	int width;     /* columns of the line on the screen; 0: none */
};

/* Seconds on a monotonic clock. */
double progress_clock(void);

/* Starts p, drawing on fp if on is 1 and fp is a terminal, else never. */
void progress_start(struct progress *p, FILE *fp, int on);

/* 1 if p draws and a line is due (PROGRESS_EVERY since the last). */
int progress_due(const struct progress *p);

/* The status into buf (size bytes): "DONE UNITS", then as far as they are
 * known ", RATE UNITS/s" (elapsed > 0), ", P%" and ", M:SS left" (frac,
 * the part done, in (0, 1); < 0: unknown) and ", N MiB written" (bytes
 * >= 0).  Numbers with '.', whatever the locale. */
void progress_format(char *buf, size_t size, double done, const char *units,
		     double elapsed, double frac, double bytes);

/* progress_format() without "DONE UNITS": what follows it, each part
 * starting with ", " ("" when nothing is known), to follow a line of the
 * caller's own. */
void progress_tail(char *buf, size_t size, double done, const char *units,
		   double elapsed, double frac, double bytes);

/* Draws line, if p draws and force is 1 or a line is due, cut to one
 * column less than the terminal's width (TIOCGWINSZ; 80 if it does not
 * say), so that it never wraps. */
void progress_show(struct progress *p, const char *line, int force);

/* Ends the line on the screen with a newline, so that it stays. */
void progress_keep(struct progress *p);

/* Clears the line on the screen, if any, so that a message can be
 * printed in its place. */
void progress_clear(struct progress *p);

#endif
