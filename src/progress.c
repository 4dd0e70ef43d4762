/* progress.c: a status line on standard error while a long run works. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
		? snprintf(buf + *used, size - *used, ", %lu:%02lu:%02lu left",
			   s / 3600, s / 60 % 60, s % 60)
		: snprintf(buf + *used, size - *used, ", %lu:%02lu left",
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
	int w = snprintf(buf + *used, size - *used, ", %s %s written",
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

void progress_show(struct progress *p, const char *line, int force)
{
	if (!p->fp || (!force && !progress_due(p)))
		return;
	int w = utf8_width(line);
	fprintf(p->fp, "\r%s%*s", line, p->width > w ? p->width - w : 0, "");
	if (p->width > w) /* back over the padding */
		fprintf(p->fp, "\r%s", line);
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
		fprintf(p->fp, "\r%*s\r", p->width, "");
		fflush(p->fp);
	}
	p->width = 0;
}
