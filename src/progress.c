/* progress.c: a status line on standard error while a long run works. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "num.h"
#include "progress.h"
#include "utf8.h"

double progress_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_start(struct progress *p, FILE *fp, int on)
{
	memset(p, 0, sizeof *p);
	p->fp = on && fp && isatty(fileno(fp)) ? fp : NULL;
	p->start = progress_clock();
	p->last = -1.0;
}

int progress_due(const struct progress *p)
{
	return p->fp && (p->last < 0 ||
			 progress_clock() - p->last >= PROGRESS_EVERY);
}

/* Moves *used past the w bytes that snprintf said it wrote into buf
 * (size bytes), or to the end of what fits. */
static void progress_add(size_t size, size_t *used, int w)
{
	if (w > 0)
		*used += (size_t)w < size - *used ? (size_t)w : size - *used - 1;
}

/* Appends ", M:SS left" (or H:MM:SS) for secs into buf at *used. */
static void progress_left(char *buf, size_t size, size_t *used, double secs)
{
	unsigned long s = secs < 0 ? 0 : secs > 359999 ? 359999
				   : (unsigned long)(secs + 0.5);
	int w = s >= 3600
		? snprintf(buf + *used, size - *used, _(", %lu:%02lu:%02lu left"),
			   s / 3600, s / 60 % 60, s % 60)
		: snprintf(buf + *used, size - *used, _(", %lu:%02lu left"),
			   s / 60, s % 60);
	progress_add(size, used, w);
}

/* Appends ", N UNIT written" into buf at *used. */
static void progress_bytes(char *buf, size_t size, size_t *used,
			   double bytes)
{
	static const char *unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	char num[NUM_BUFSZ];
	int k = 0;
	while (bytes >= 1024.0 && k < 4)
		bytes /= 1024.0, k++;
	int w = snprintf(buf + *used, size - *used, _(", %s %s written"),
			 num_fixed(num, bytes, k ? 1 : 0), unit[k]);
	progress_add(size, used, w);
}

void progress_tail(char *buf, size_t size, double done, const char *units,
		   double elapsed, double frac, double bytes)
{
	char b[NUM_BUFSZ];
	size_t used = 0;
	int w;
	buf[0] = '\0';
	if (elapsed > 0) {
		w = snprintf(buf, size, ", %s %s/s",
			     num_fixed(b, done / elapsed, 0), units);
		progress_add(size, &used, w);
	}
	if (frac > 0 && frac < 1 && used < size - 1) {
		w = snprintf(buf + used, size - used, ", %d%%",
			     (int)(100.0 * frac));
		progress_add(size, &used, w);
		if (elapsed > 0 && used < size - 1)
			progress_left(buf, size, &used,
				      elapsed * (1.0 - frac) / frac);
	}
	if (bytes >= 0 && used < size - 1)
		progress_bytes(buf, size, &used, bytes);
}

void progress_format(char *buf, size_t size, double done, const char *units,
		     double elapsed, double frac, double bytes)
{
	char a[NUM_BUFSZ];
	int w = snprintf(buf, size, "%s %s", num_fixed(a, done, 0), units);
	size_t used = w < 0 ? 0 : (size_t)w < size ? (size_t)w : size - 1;
	if (used < size - 1)
		progress_tail(buf + used, size - used, done, units, elapsed,
			      frac, bytes);
}

/* The columns of the terminal p draws on, or 80 when it does not say. */
static int progress_cols(const struct progress *p)
{
	struct winsize ws;
	if (ioctl(fileno(p->fp), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* Cuts buf, a whole line of UTF-8, to at most max columns, at a
 * character's start; returns its width. */
static int progress_fit(char *buf, int max)
{
	size_t len = strlen(buf);
	int w = utf8_width(buf);
	while (w > max && len > 0) {
		do
			len--;
		while (len > 0 && ((unsigned char)buf[len] & 0xC0) == 0x80);
		buf[len] = '\0';
		w = utf8_width(buf);
	}
	return w;
}

void progress_show(struct progress *p, const char *line, int force)
{
	char buf[512];
	if (!p->fp || (!force && !progress_due(p)))
		return;
	/* never as wide as the terminal: a line that wrapped would leave its
	 * first rows behind at each redraw ("\r" goes back one row only) */
	const int max = progress_cols(p) - 1;
	snprintf(buf, sizeof buf, "%s", line);
	int w = progress_fit(buf, max > 0 ? max : 1);
	int pad = (p->width < max ? p->width : max) - w;
	fprintf(p->fp, "\r%s%*s", buf, pad > 0 ? pad : 0, "");
	if (pad > 0) /* back over the padding */
		fprintf(p->fp, "\r%s", buf);
	fflush(p->fp);
	p->width = w;
	p->last = progress_clock();
}

void progress_keep(struct progress *p)
{
	if (p->fp && p->width > 0)
		fputc('\n', p->fp);
	p->width = 0;
}

void progress_clear(struct progress *p)
{
	if (p->fp && p->width > 0) {
		const int max = progress_cols(p) - 1;
		fprintf(p->fp, "\r%*s\r", p->width < max ? p->width : max, "");
		fflush(p->fp);
	}
	p->width = 0;
}
