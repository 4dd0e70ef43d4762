/* cli_trace.c: attn-trace trace: one sentence or a batch of pairs, in
 * text, JSON, JSON Lines, CSV or Markdown, to stdout or to a file that is
 * replaced atomically.  A batch can be traced by several threads (--jobs),
 * with the same output, byte for byte, as by one. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#ifdef HAVE_STDIO_EXT_H
#include <stdio_ext.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "caption.h"
#include "cli.h"
#include "gz.h"
#include "i18n.h"
#include "num.h"
#include "outfile.h"
#include "progress.h"
#include "pairs.h"
#include "tok.h"
#include "util.h"

/* Writes what goes before a trace: the separator from the trace before
 * it, or for the first trace of the output (first is 1) the opening of
 * the JSON array or the CSV header. */
static void trace_sep(FILE *out, const struct cli_opts *o,
		      const struct fmt_opts *fo, int first)
{
	switch (o->format) {
	case FORMAT_TEXT:
		if (!first)
			putc('\n', out);
		break;
	case FORMAT_JSON:
		if (o->batch || o->arch == ARCH_ALL)
			fputs(first ? "[" : ",\n", out);
		break;
	case FORMAT_JSONL:
		break;
	case FORMAT_CSV:
		if (first)
			fmt_csv_header(out, fo);
		break;
	case FORMAT_MARKDOWN:
		if (!first)
			fputs("\n---\n\n", out);
		break;
	}
}

/* Writes the trace itself, in the chosen format: the same bytes wherever
 * it comes in the output. */
static void trace_body(FILE *out, const struct trace *tr,
		       const struct cli_opts *o, const struct fmt_opts *fo)
{
	struct fmt_opts jo = *fo;
	switch (o->format) {
	case FORMAT_TEXT:
		fmt_text_trace(out, tr, fo);
		break;
	case FORMAT_JSON:
		fmt_json_trace(out, tr, fo);
		break;
	case FORMAT_JSONL:
		jo.compact = 1;
		fmt_json_trace(out, tr, &jo);
		break;
	case FORMAT_CSV:
		fmt_csv_trace(out, tr, fo, 0);
		break;
	case FORMAT_MARKDOWN:
		fmt_md_trace(out, tr, fo);
		break;
	}
}

/* Writes one trace in the chosen format.  first is 1 for the first trace
 * of the output, which decides separators and the CSV header. */
static void trace_write(FILE *out, const struct trace *tr,
			const struct cli_opts *o, const struct fmt_opts *fo,
			int first)
{
	trace_sep(out, o, fo, first);
	trace_body(out, tr, o, fo);
}

/* A batch being traced, and what has been written of it. */
struct batch {
	FILE *out;         /* of->fp */
	struct outfile *of;
	const struct model *m;
	const struct cli_opts *o;
	const char *name;  /* the batch file as messages name it */
	int first;         /* 1 until a trace has been written */
	int failed;        /* the lines that failed */
	int read_failed;   /* 1 if reading the batch failed, with ... */
	int read_errno;    /* ... this errno */
	struct progress pg; /* the progress line (progress.h) */
	double done;       /* lines traced or reported, for pg */
	double used;       /* ... and their bytes, with their '\n's */
	double total;      /* the input's size, when it is a regular file
	                      read as it is; else 0 */
};

/* 1 if the target of pl in line is absent or a sentence m can trace. */
static int batch_target_ok(const struct model *m, const char *line,
			   const struct pairs_line *pl)
{
	int tgt[TRACE_MAX_TOKENS];
	struct errbuf err;
	return !pl->has_target || tok_sentence(tgt, line + pl->tgt, &m->tgt,
					       "target", NULL, 0, &err) >= 0;
}

/* Traces one batch line, line[0..len) without its '\n' and with a NUL
 * after it, numbered lineno, into *tr; returns 0, or -1 with err set and
 * *col the byte column of a fault in the line's grammar (pairs.h), or 0
 * for a sentence the model cannot trace.  Called by several threads at
 * once: it reads the model and the options and writes only *tr, *err,
 * *col and the line, which it cuts into its two sides. */
static int batch_trace(struct trace *tr, const struct batch *b, char *line,
		       size_t len, int lineno, size_t *col,
		       struct errbuf *err)
{
	struct pairs_line pl;
	int r = pairs_split(line, len, lineno, 0, &pl, col, err);
	if (r <= 0) {
		if (r == 0) /* never asked: batch_skip() drops these */
			err_set(err, _("expected a pair, found none"));
		return -1;
	}
	*col = 0;
	line[pl.src + pl.nsrc] = '\0';
	if (pl.has_target)
		line[pl.tgt + pl.ntgt] = '\0';
	/* an image model's images are named relative to the batch file,
	 * as a .captions file names them */
	char *img = caption_is_model(b->m)
		? caption_batch_path(b->o->batch, line + pl.src) : NULL;
	int rc = tok_trace(tr, b->m, img ? img : line + pl.src,
			   pl.has_target ? line + pl.tgt : NULL,
			   b->o->scorers, &b->o->cfg, err);
	if (rc != 0 && img) /* the column of the image, or the caption's */
		*col = batch_target_ok(b->m, line, &pl) ? pl.src + 1
							: pl.tgt + 1;
	free(img);
	return rc;
}

/* Counts a line of len bytes done, and draws the progress line if it
 * is due (or force is 1: the input is about to be waited for): lines,
 * their rate, the part of the input done and the time left when its size
 * is known, and the bytes written so far when the output can tell
 * (compressed bytes for a .gz). */
static void batch_progress(struct batch *b, size_t len, int force)
{
	if (!b->pg.fp)
		return;
	if (len) {
		b->done++;
		b->used += (double)len;
	}
	if (!force && !progress_due(&b->pg))
		return;
	off_t at = ftello(b->of->raw ? b->of->raw : b->of->fp);
	char line[200];
	progress_format(line, sizeof line, b->done, "lines",
			progress_clock() - b->pg.start,
			b->total > 0 ? b->used / b->total : -1.0,
			at >= 0 ? (double)at : -1.0);
	progress_show(&b->pg, line, 1);
}

/* Reports a bad line as NAME:LINE:COL: message, or NAME:LINE: message
 * when col is 0, after clearing the progress line. */
static void batch_report(struct batch *b, int lineno, size_t col,
			 const char *msg)
{
	progress_clear(&b->pg);
	if (col > 0)
		cli_messagef("%s:%d:%zu: %s", b->name, lineno, col, msg);
	else
		cli_messagef("%s:%d: %s", b->name, lineno, msg);
}

/* 1 if line lineno, len bytes, is a blank line or a comment, which the
 * batch skips; a bad line is not skipped, so that it is reported. */
static int batch_skip(const char *line, size_t len, int lineno)
{
	struct pairs_line pl;
	struct errbuf err;
	size_t col;
	return pairs_split(line, len, lineno, 0, &pl, &col, &err) == 0;
}

/* Traces and writes one batch line; returns 0, or -1 after reporting
 * it.  *mem (if mem is not NULL) gets the bytes its trace took. */
static int batch_line(struct batch *b, int lineno, char *line, size_t len,
		      size_t *mem)
{
	struct errbuf err;
	struct trace tr;
	size_t col;
	if (batch_trace(&tr, b, line, len, lineno, &col, &err) != 0) {
		batch_report(b, lineno, col, err.msg);
		return -1;
	}
	struct fmt_opts fo = b->o->fmt;
	fo.pair = lineno;
	trace_write(b->out, &tr, b->o, &fo, b->first);
	outfile_wrote(b->of);
	b->first = 0;
	if (mem)
		*mem = trace_mem_bytes(&tr);
	trace_free(&tr);
	return 0;
}

/* Reports line lineno as longer than PAIRS_MAX_LINE; returns -1. */
static int batch_long(struct batch *b, int lineno)
{
	struct errbuf err;
	size_t col;
	pairs_long_error(&col, &err);
	batch_report(b, lineno, col, err.msg);
	return -1;
}

static int jobs_readable(int fd);

/* 1 if reading in would not wait, or there is no progress line (the
 * question is only asked to draw it before waiting). */
static int batch_readable(const struct batch *b, FILE *in)
{
	return !b->pg.fp || jobs_readable(fileno(in));
}

/* Traces the batch one line after the other (--jobs=1).  Lines are read
 * by pairs_getline(), into one buffer of the longest line allowed, so that
 * a read error is never taken for the end of the input, and a line too
 * long is never held whole. */
static void batch_serial(struct batch *b, FILE *in)
{
	char *line = xmalloc(PAIRS_MAX_LINE + 1);
	enum pairs_read r = PAIRS_END;
	int lineno = 0, bad;
	size_t len;
	while (!ferror(b->out) &&
	       (batch_progress(b, 0, !batch_readable(b, in)),
		r = pairs_getline(in, line, &len)) != PAIRS_END &&
	       r != PAIRS_ERROR) {
		lineno++;
		if (r == PAIRS_LONG)
			bad = batch_long(b, lineno);
		else if (batch_skip(line, len, lineno))
			continue;
		else
			bad = batch_line(b, lineno, line, len, NULL);
		batch_progress(b, len + 1, 0);
		if (bad != 0) {
			b->failed++;
			if (b->o->strict)
				break;
		}
	}
	if (r == PAIRS_ERROR) {
		b->read_failed = 1;
		b->read_errno = errno ? errno : EIO;
	}
	free(line);
}

/* --- a batch on several threads ---
 *
 * The main thread reads the lines into chunks and hands them to the
 * workers through a ring of slots; a worker traces every line of a chunk
 * and formats it into memory, all but the separator before it; the main
 * thread then writes the chunks out strictly in the order of the input,
 * with the separators, and reports the bad lines on stderr in the same
 * order.  So whether a trace is the first, which line stops a strict
 * batch, and every byte of stdout and stderr are decided by one thread,
 * as in batch_serial().  At most twice as many chunks as workers are in
 * flight, and a chunk holds at most JOBS_CHUNK_LINES lines and about
 * JOBS_CHUNK_OUT bytes of output, so that the output held in memory stays
 * near JOBS_RING_OUT, or one trace a worker if they are larger (see
 * jobs_plan()).  When the input
 * pauses (a pipe, a terminal), the lines read so far are traced and
 * written out before waiting for more, so that a batch fed line by line
 * is answered line by line.
 *
 * The memory of the lines in flight, their traces and their output, is
 * bounded by JOBS_MEM whatever the number of workers: each line's cost is
 * estimated from its length and the costs of the lines traced before it
 * (jobs_cost()), and a line is handed out only when it fits into what is
 * left.  A line larger than JOBS_MEM, or of a cost still unknown (the
 * first), is traced by the main thread once nothing is in flight,
 * straight into the output as batch_serial() does (jobs_direct()).  So a
 * batch of huge traces (a model at the size limits, --scorer=all) holds
 * what --jobs=1 holds, one trace, with any number of workers.
 *
 * The workers share the model and the options, which nothing changes
 * while they run, and num.c's tables, filled by num_init() before they
 * start; every other function they reach keeps its state on the stack or
 * in the trace. */

#define JOBS_CHUNK_LINES 64             /* lines a chunk holds at most */
#define JOBS_CHUNK_OUT ((size_t)1 << 20)  /* output bytes a chunk aims at */
#define JOBS_RING_OUT ((size_t)32 << 20)  /* ... and all the chunks in flight */
#define JOBS_CHUNK_IN ((size_t)256 << 10) /* input bytes that end a chunk */
#define JOBS_READ_SIZE ((size_t)64 << 10) /* the input's buffer, at first */
#define JOBS_STACK ((size_t)256 << 10)    /* a worker's stack */
#define JOBS_MEM ((size_t)256 << 20)      /* traces and output in flight */
#define JOBS_TRIM ((size_t)16 << 20)      /* a line this large is given back */

/* One line of a chunk. */
struct job_line {
	int lineno;
	size_t in, len;      /* the line: text[in .. in + len), then a NUL */
	size_t out, outlen;  /* its trace: out[out .. out + outlen) */
	char *msg;           /* NULL if traced; else why the line failed */
	size_t col;          /* ... and where, or 0 (batch_report) */
	size_t cost;         /* bytes its trace and output took */
};

/* Lines to trace, and, once traced, their output. */
struct job_chunk {
	struct job_line *lines;
	int n, cap;
	char *text;          /* the lines read, each with a NUL after it */
	size_t textlen, textcap;
	FILE *ms;            /* the traces are written here ... */
	char *out;           /* ... and kept here: open_memstream() */
	size_t outsize;      /* (open_memstream's, unused) */
	size_t outlen;       /* the bytes of the traces in out */
	size_t est;          /* the bytes its lines are expected to take */
	int done;            /* under the lock: the workers are done with it */
};

/* The ring of chunks, counted from 0 as they are read: slot k % nring
 * holds chunk k.  Chunks [emitted, filled) are in flight: the workers
 * take them in turn ([taken, filled) are waiting for one), and the main
 * thread writes out chunk emitted once it is done, then reads the next
 * chunk into its slot. */
struct jobs {
	struct batch *b;
	pthread_mutex_t lock;
	pthread_cond_t ready;    /* a chunk to take, or stop: for the workers */
	pthread_cond_t done;     /* a chunk done: for the main thread */
	struct job_chunk *ring;
	unsigned long nring;     /* twice the workers */
	unsigned long filled, taken, emitted;
	int stop;                /* the workers are to exit */
	/* the largest cost of a line traced, per byte of the line plus one
	 * and per its square (0 before any): jobs_cost() */
	double per_byte, per_byte2;
};

/* The input, read with read(2) rather than stdio so that the main thread
 * knows whether the next line is there or would be waited for.  buf
 * starts at JOBS_READ_SIZE bytes and grows to hold the longest line, which
 * is at most PAIRS_MAX_LINE: a longer one is skipped, not held. */
struct jobs_in {
	int fd;                  /* -1: read fp (a gzip file: gz.h) */
	FILE *fp;
	char *buf;
	size_t start, end, cap;  /* buf[start .. end) is read, not yet used */
	size_t scan;             /* no '\n' in buf[start .. scan) */
	int eof, err;            /* the end of the input; a read's errno */
	int skip;                /* the rest of a line too long is skipped */
	int over;                /* every line has been handed out */
};

/* 1 if reading fd would not wait (there are bytes, the end, or an error
 * to read, or poll(2) cannot tell; or fd is -1, a stream that decompresses
 * a file, which never waits long). */
static int jobs_readable(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int r;
	if (fd < 0)
		return 1;
	while ((r = poll(&p, 1, 0)) < 0 && errno == EINTR)
		;
	return r != 0;
}

/* read(2) from a stream: the bytes read, 0 at the end, -1 with errno. */
static ssize_t jobs_fread(FILE *fp, char *buf, size_t size)
{
	errno = 0;
	size_t got = fread(buf, 1, size, fp);
	if (got == 0 && ferror(fp))
		return -1;
	return (ssize_t)got;
}

/* Reads more of the input into in->buf, keeping buf[start .. end);
 * returns -1 without reading when that would wait and may_wait is 0,
 * else 0 (in->eof or in->err set at the end or on an error). */
static int jobs_read(struct jobs_in *in, int may_wait)
{
	if (!may_wait && !jobs_readable(in->fd))
		return -1;
	if (in->start > 0) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->scan -= in->start;
		in->start = 0;
	}
	if (in->end == in->cap) {
		in->cap *= 2;
		in->buf = xrealloc(in->buf, in->cap);
	}
	ssize_t got = in->fd >= 0
		? read(in->fd, in->buf + in->end, in->cap - in->end)
		: jobs_fread(in->fp, in->buf + in->end, in->cap - in->end);
	if (got > 0)
		in->end += (size_t)got;
	else if (got == 0)
		in->eof = 1;
	else if (errno != EINTR)
		in->err = errno;
	return 0;
}

/* Sets *line and *len to the next line of the input without its '\n'
 * (the last one may have none), and returns 1; returns 2 for a line
 * longer than PAIRS_MAX_LINE, which it skips; returns 0 at the end of the
 * input or after a read error, and -1 when the next line has not all
 * arrived and may_wait is 0. */
static int jobs_getline(struct jobs_in *in, char **line, size_t *len,
			int may_wait)
{
	for (;;) {
		char *nl = memchr(in->buf + in->scan, '\n', in->end - in->scan);
		size_t stop = nl ? (size_t)(nl - in->buf) : in->end;
		int ended = in->eof || in->err;
		if (in->skip || stop - in->start > PAIRS_MAX_LINE) {
			int was = in->skip;
			in->start = in->scan = stop + (nl != NULL);
			in->skip = !nl;
			if (!was)
				return 2;
			if (nl)
				continue;
		} else if (nl || (ended && in->start < in->end)) {
			*line = in->buf + in->start;
			*len = stop - in->start;
			in->start = in->scan = stop + (nl != NULL);
			return 1;
		}
		in->scan = in->end;
		if (ended) {
			in->over = 1;
			return 0;
		}
		if (jobs_read(in, may_wait) < 0)
			return -1;
	}
}

/* Adds a line numbered lineno to c and returns it, zeroed but for its
 * number. */
static struct job_line *jobs_add(struct job_chunk *c, int lineno)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->lines = xreallocarray(c->lines, (size_t)c->cap,
					 sizeof *c->lines);
	}
	struct job_line *l = &c->lines[c->n++];
	memset(l, 0, sizeof *l);
	l->lineno = lineno;
	return l;
}

/* Adds line lineno, too long to be read, to c as a line already failed:
 * the workers leave it alone. */
static void jobs_add_long(struct job_chunk *c, int lineno)
{
	struct job_line *l = jobs_add(c, lineno);
	struct errbuf err;
	pairs_long_error(&l->col, &err);
	l->msg = xstrdup(err.msg);
}

/* The bytes a line of len bytes is expected to take, traced and
 * formatted: the larger of the costs seen so far scaled linearly and
 * quadratically by the line's length (a trace grows with the source
 * words times the decoder steps), so that it errs on the large side;
 * SIZE_MAX before any line has been traced. */
static size_t jobs_cost(const struct jobs *j, size_t len)
{
	if (j->per_byte <= 0.0)
		return SIZE_MAX;
	double n = (double)len + 1.0, lin = j->per_byte * n,
	       quad = j->per_byte2 * n * n, e = lin > quad ? lin : quad;
	return e >= (double)(SIZE_MAX / 2) ? SIZE_MAX / 2 : (size_t)e + 1;
}

/* The bytes the chunks in flight are expected to take (saturating). */
static size_t jobs_in_flight(const struct jobs *j)
{
	size_t sum = 0;
	for (unsigned long k = j->emitted; k < j->filled; k++) {
		size_t e = j->ring[k % j->nring].est;
		sum = e > SIZE_MAX - sum ? SIZE_MAX : sum + e;
	}
	return sum;
}

/* Reads lines into the empty chunk c, numbering them from *lineno and
 * leaving out those batch_serial() skips, until it holds max lines or
 * JOBS_CHUNK_IN bytes or the input ends, or the next line's cost would
 * not fit into JOBS_MEM with the chunks in flight (a line whose cost is
 * unknown or larger than JOBS_MEM is left to jobs_direct()).  Waits for
 * input only for the first line and only if may_wait is set.  Returns 1
 * if it stopped because the next line would be waited for; 2 if it added
 * nothing because the first line does not fit until a chunk in flight is
 * written out; 3 if it added nothing because nothing is in flight and the
 * first line is for jobs_direct(): it is at c->text, *direct bytes with a
 * NUL after them, numbered *lineno; else 0. */
static int jobs_fill(struct jobs *j, struct job_chunk *c, struct jobs_in *in,
		     int max, int *lineno, int may_wait, size_t *direct)
{
	size_t used = jobs_in_flight(j), busy = j->filled > j->emitted;
	c->est = 0;
	while (c->n < max && c->textlen < JOBS_CHUNK_IN) {
		char *line;
		size_t len;
		int got = jobs_getline(in, &line, &len, may_wait && c->n == 0);
		if (got <= 0)
			return got < 0;
		++*lineno;
		if (got == 2) {
			jobs_add_long(c, *lineno);
			continue;
		}
		if (c->textcap - c->textlen < len + 1) {
			while (c->textcap - c->textlen < len + 1)
				c->textcap = c->textcap ? 2 * c->textcap : 4096;
			c->text = xrealloc(c->text, c->textcap);
		}
		char *copy = c->text + c->textlen;
		memcpy(copy, line, len);
		copy[len] = '\0';
		if (batch_skip(copy, len, *lineno))
			continue;
		size_t e = jobs_cost(j, len);
		if (e > JOBS_MEM && c->n == 0 && !busy) {
			*direct = len; /* copied at c->text, not added */
			return 3;
		}
		if ((c->n > 0 || busy) && (e > JOBS_MEM - c->est ||
		     used > JOBS_MEM - c->est - e)) {
			/* it waits for room: read again next time */
			in->start = in->scan = (size_t)(line - in->buf);
			--*lineno;
			return c->n == 0 ? 2 : 0;
		}
		struct job_line *l = jobs_add(c, *lineno);
		l->in = c->textlen;
		l->len = len;
		c->textlen += len + 1;
		c->est += e; /* each at most JOBS_MEM */
	}
	return 0;
}

/* After a line that took cost bytes, gives freed memory back to the
 * system if that was much: each worker has its own malloc arena, which
 * would keep a huge trace's memory after it is freed, and with n workers
 * n traces' worth, however few are in flight. */
static void jobs_give_back(size_t cost)
{
#ifdef __GLIBC__
	if (cost > JOBS_TRIM)
		malloc_trim(0);
#else
	(void)cost;
#endif
}

/* A worker's part: traces every line of c into c->out.  A strict batch
 * stops at the first bad line, since nothing after it is written.
 *
 * Each slot of the ring keeps its memory stream from one chunk to the
 * next and starts again at its beginning, so that its buffer, once grown,
 * is neither grown again nor given back (growing one copies it and clears
 * the new part).  One thread at a time uses it: the worker that traces
 * the chunk, then the main thread that writes it out. */
static void jobs_trace_chunk(const struct batch *b, struct job_chunk *c)
{
	FILE *ms = c->ms;
	if (!ms) {
		ms = c->ms = open_memstream(&c->out, &c->outsize);
		if (!ms)
			util_out_of_memory();
#ifdef HAVE___FSETLOCKING
		/* no lock for every putc: the stream is one thread's */
		__fsetlocking(ms, FSETLOCKING_BYCALLER);
#endif
	} else if (fseeko(ms, 0, SEEK_SET) != 0) {
		util_out_of_memory();
	}
	for (int k = 0; k < c->n; k++) {
		struct job_line *l = &c->lines[k];
		struct errbuf err;
		struct trace tr;
		if (!l->msg && batch_trace(&tr, b, c->text + l->in, l->len,
					   l->lineno, &l->col, &err) != 0)
			l->msg = xstrdup(err.msg);
		if (l->msg) {
			if (b->o->strict) {
				/* nothing after it is written */
				for (int j = k + 1; j < c->n; j++)
					free(c->lines[j].msg);
				c->n = k + 1;
				break;
			}
			continue;
		}
		struct fmt_opts fo = b->o->fmt;
		fo.pair = l->lineno;
		off_t at = ftello(ms);
		trace_body(ms, &tr, b->o, &fo);
		off_t end = ftello(ms);
		l->cost = trace_mem_bytes(&tr) + (size_t)(end - at);
		trace_free(&tr);
		jobs_give_back(l->cost);
		if (at < 0 || end < at)
			util_out_of_memory(); /* a memory stream fails for want of memory */
		l->out = (size_t)at;
		l->outlen = (size_t)(end - at);
	}
	off_t len = ftello(ms);
	/* the flush points c->out at the bytes written */
	if (len < 0 || fflush(ms) != 0 || ferror(ms))
		util_out_of_memory();
	c->outlen = (size_t)len;
}

static void *jobs_worker(void *arg)
{
	struct jobs *j = arg;
	pthread_mutex_lock(&j->lock);
	for (;;) {
		while (!j->stop && j->taken == j->filled)
			pthread_cond_wait(&j->ready, &j->lock);
		if (j->stop)
			break;
		struct job_chunk *c = &j->ring[j->taken++ % j->nring];
		pthread_mutex_unlock(&j->lock);
		jobs_trace_chunk(j->b, c);
		pthread_mutex_lock(&j->lock);
		c->done = 1;
		pthread_cond_signal(&j->done);
	}
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* Empties a chunk for the next lines, keeping its buffers. */
static void jobs_clear(struct job_chunk *c)
{
	for (int k = 0; k < c->n; k++)
		free(c->lines[k].msg);
	c->outlen = 0;
	c->n = 0;
	c->textlen = 0;
}

/* Writes out a traced chunk, as batch_serial() would have written its
 * lines; returns 1 to stop (a strict batch at a bad line, or a write
 * error), else 0. */
static int jobs_write(struct batch *b, const struct job_chunk *c)
{
	for (int k = 0; k < c->n; k++) {
		const struct job_line *l = &c->lines[k];
		if (ferror(b->out))
			return 1;
		if (l->msg) {
			batch_report(b, l->lineno, l->col, l->msg);
			b->failed++;
			batch_progress(b, l->len + 1, 0);
			if (b->o->strict)
				return 1;
			continue;
		}
		struct fmt_opts fo = b->o->fmt;
		fo.pair = l->lineno;
		trace_sep(b->out, b->o, &fo, b->first);
		fwrite(c->out + l->out, 1, l->outlen, b->out);
		outfile_wrote(b->of);
		b->first = 0;
		batch_progress(b, l->len + 1, 0);
	}
	return 0;
}

/* Learns from a line of len bytes that took cost bytes (jobs_cost()). */
static void jobs_learn(struct jobs *j, size_t len, size_t cost)
{
	double n = (double)len + 1.0, c = (double)cost;
	if (c / n > j->per_byte)
		j->per_byte = c / n;
	if (c / (n * n) > j->per_byte2)
		j->per_byte2 = c / (n * n);
}

/* Waits for the oldest chunk in flight, writes it out and frees its slot;
 * returns jobs_write()'s answer.  *per_line gets the output bytes of its
 * traces, a line on average, when it has some. */
static int jobs_emit(struct jobs *j, size_t *per_line)
{
	struct job_chunk *c = &j->ring[j->emitted % j->nring];
	pthread_mutex_lock(&j->lock);
	while (!c->done)
		pthread_cond_wait(&j->done, &j->lock);
	pthread_mutex_unlock(&j->lock);
	int stop = jobs_write(j->b, c);
	int traced = 0;
	for (int k = 0; k < c->n; k++) {
		traced += !c->lines[k].msg;
		if (!c->lines[k].msg)
			jobs_learn(j, c->lines[k].len, c->lines[k].cost);
	}
	if (traced)
		*per_line = c->outlen / (size_t)traced + 1;
	if (c->outlen > 2 * JOBS_CHUNK_OUT && c->ms) {
		/* a chunk of huge traces: give its buffer back rather than
		 * keep it for chunks that may not need it */
		fclose(c->ms);
		free(c->out);
		c->ms = NULL;
		c->out = NULL;
	}
	jobs_clear(c);
	j->emitted++;
	return stop;
}

/* Plans the next chunk from the output bytes of a line, as last seen
 * (per_line, 0 before any): sets *lines to the lines it takes, about
 * JOBS_CHUNK_OUT bytes of output (less with many workers, so that the
 * ring holds about JOBS_RING_OUT), and returns how many chunks may be in
 * flight: the whole ring, or fewer when the traces are so large that even
 * chunks of one line would hold more than JOBS_RING_OUT, but always one a
 * worker.  Until a trace has been written its size is unknown, and the
 * chunks take a line each. */
static unsigned long jobs_plan(const struct jobs *j, size_t per_line,
			       int *lines)
{
	size_t aim = JOBS_RING_OUT / j->nring, n;
	if (aim > JOBS_CHUNK_OUT)
		aim = JOBS_CHUNK_OUT;
	n = per_line ? aim / per_line : 1;
	n = n < 1 ? 1 : n > JOBS_CHUNK_LINES ? JOBS_CHUNK_LINES : n;
	*lines = (int)n;
	if (!per_line || per_line <= aim)
		return j->nring;
	unsigned long fit = (unsigned long)(JOBS_RING_OUT / per_line);
	return fit < j->nring / 2 ? j->nring / 2 : fit > j->nring ? j->nring
	     : fit;
}

/* Traces line lineno, text[0..len) with a NUL after it, in the main
 * thread, straight into the output as batch_serial() does, while nothing
 * is in flight; its cost, had it been formatted into memory, is taken as
 * twice its trace's.  Returns 1 to stop (a strict batch at a bad line, or
 * a write error), else 0. */
static int jobs_direct(struct jobs *j, char *text, size_t len, int lineno)
{
	struct batch *b = j->b;
	size_t mem = 0;
	if (ferror(b->out))
		return 1;
	int bad = batch_line(b, lineno, text, len, &mem);
	batch_progress(b, len + 1, 0);
	if (bad != 0) {
		b->failed++;
		return b->o->strict;
	}
	jobs_learn(j, len, 2 * mem);
	return 0;
}

/* The main thread's part: reads, hands out and writes chunks until the
 * input ends or the batch stops; returns 1 if it stopped early. */
static int jobs_main(struct jobs *j, struct jobs_in *in)
{
	size_t per_line = 0;
	int lineno = 0, stop = 0;
	while (!stop) {
		int lines;
		unsigned long room = jobs_plan(j, per_line, &lines);
		if (!in->over && j->filled - j->emitted < room) {
			struct job_chunk *c = &j->ring[j->filled % j->nring];
			size_t direct;
			int got = jobs_fill(j, c, in, lines, &lineno,
					    j->filled == j->emitted, &direct);
			if (got == 3 && !(stop = jobs_direct(j, c->text, direct,
							      lineno)) &&
			    !memchr(in->buf + in->start, '\n',
				    in->end - in->start) &&
			    !jobs_readable(in->fd)) {
				fflush(j->b->out); /* answered before waiting */
				batch_progress(j->b, 0, 1);
			}
			if (c->n > 0) {
				pthread_mutex_lock(&j->lock);
				c->done = 0;
				j->filled++;
				pthread_cond_signal(&j->ready);
				pthread_mutex_unlock(&j->lock);
			}
			if (got == 2) /* no room: write out the oldest */
				stop = jobs_emit(j, &per_line);
			if (got != 1)
				continue;
			/* the next line is not there yet: write out all
			 * that has come before waiting for it */
			while (!stop && j->emitted < j->filled)
				stop = jobs_emit(j, &per_line);
			fflush(j->b->out);
			batch_progress(j->b, 0, 1);
			continue;
		}
		if (j->emitted == j->filled)
			break;
		stop = jobs_emit(j, &per_line);
	}
	return stop;
}

/* Starts up to n workers with the signals that the program or its output
 * file handle blocked, so that those reach the main thread as before;
 * returns how many started. */
static int jobs_start(struct jobs *j, pthread_t *tid, int n)
{
	sigset_t all, old;
	pthread_attr_t attr;
	int started = 0;
	size_t stack = JOBS_STACK;
#ifdef PTHREAD_STACK_MIN
	if (stack < (size_t)PTHREAD_STACK_MIN)
		stack = (size_t)PTHREAD_STACK_MIN;
#endif
	sigfillset(&all);
	/* the signals of a fault, a trap or abort() stay with the thread
	 * that caused them */
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGTRAP);
	sigdelset(&all, SIGSYS);
	sigdelset(&all, SIGABRT);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_attr_init(&attr) == 0) {
		pthread_attr_setstacksize(&attr, stack);
		while (started < n &&
		       pthread_create(&tid[started], &attr, jobs_worker, j) == 0)
			started++;
		pthread_attr_destroy(&attr);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

/* Traces the batch with n worker threads; falls back on batch_serial()
 * when no thread can be started. */
static void batch_parallel(struct batch *b, FILE *in, int n)
{
	struct jobs j;
	memset(&j, 0, sizeof j);
	j.b = b;
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.ready, NULL);
	pthread_cond_init(&j.done, NULL);
	num_init();
	pthread_t *tid = xreallocarray(NULL, (size_t)n, sizeof *tid);
	int started = jobs_start(&j, tid, n);
	if (started == 0) {
		free(tid);
		pthread_cond_destroy(&j.done);
		pthread_cond_destroy(&j.ready);
		pthread_mutex_destroy(&j.lock);
		batch_serial(b, in);
		return;
	}
	j.nring = 2 * (unsigned long)started;
	j.ring = xcalloc(j.nring, sizeof *j.ring);
	struct jobs_in rd = { .fd = fileno(in), .fp = in,
			      .cap = JOBS_READ_SIZE };
	rd.buf = xmalloc(rd.cap);

	int stopped = jobs_main(&j, &rd);

	pthread_mutex_lock(&j.lock);
	j.stop = 1;
	pthread_cond_broadcast(&j.ready);
	pthread_mutex_unlock(&j.lock);
	for (int k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	/* a read error past the line that stopped the batch is never
	 * reached by the serial batch either */
	if (rd.err && !stopped) {
		b->read_failed = 1;
		b->read_errno = rd.err;
	}
	for (unsigned long k = 0; k < j.nring; k++) {
		struct job_chunk *c = &j.ring[k];
		jobs_clear(c);
		if (c->ms)
			fclose(c->ms);
		free(c->out);
		free(c->lines);
		free(c->text);
	}
	free(j.ring);
	free(rd.buf);
	free(tid);
	pthread_cond_destroy(&j.done);
	pthread_cond_destroy(&j.ready);
	pthread_mutex_destroy(&j.lock);
}

/* Starts b's progress line: on standard error when it is a terminal,
 * unless --quiet, or the output goes to a terminal too.  The input's size
 * gives the part done when it is a regular file not decompressed. */
static void batch_progress_start(struct batch *b, FILE *in)
{
	int out_tty = b->of->is_stdout && isatty(STDOUT_FILENO);
	progress_start(&b->pg, stderr, !b->o->quiet && !out_tty);
	struct stat st;
	if (fileno(in) >= 0 && fstat(fileno(in), &st) == 0 &&
	    S_ISREG(st.st_mode))
		b->total = (double)st.st_size;
}

/* Traces every pair of the batch file with the threads of --jobs; returns
 * how many lines failed, or -1 if the file cannot be read to its end. */
static int batch_run(struct outfile *of, const struct model *m,
		     const struct cli_opts *o)
{
	int std = strcmp(o->batch, "-") == 0;
	struct batch b = { .out = of->fp, .of = of, .m = m, .o = o,
			   .name = std ? "stdin" : o->batch, .first = 1 };
	FILE *in = std ? stdin : gz_name(o->batch) ? gz_reader(o->batch)
						   : fopen(o->batch, "r");
	if (!in) {
		cli_messagef("%s: %s", b.name, strerror(errno));
		return -1;
	}
	batch_progress_start(&b, in);
	int jobs = o->jobs ? o->jobs : cli_jobs_default();
	if (jobs > 1)
		batch_parallel(&b, in, jobs);
	else
		batch_serial(&b, in);
	progress_clear(&b.pg);
	if (b.read_failed) {
		cli_messagef("%s: %s", b.name, std ?
			util_stdin_error(b.read_errno) :
			gz_strerror(b.read_errno));
		b.failed++;
	}
	if (o->format == FORMAT_JSON) {
		fputs(b.first ? "[]\n" : "]\n", of->fp);
		outfile_wrote(of);
	}
	if (!std)
		fclose(in);
	/* an input not read to its end (a closed stdin, a directory, EIO)
	 * leaves no output file: what it would hold is not the batch */
	return b.read_failed ? -1 : b.failed;
}

/* Traces the sentence of the command line; returns 0 or -1. */
static int single_run(struct outfile *of, const struct model *m,
		      const struct cli_opts *o, const char *sentence)
{
	struct trace tr;
	struct errbuf err;
	char note[320];
	if (tok_trace_note(&tr, m, sentence, o->target, o->scorers, note,
			   sizeof note, &o->cfg, &err) != 0) {
		cli_error(err.msg);
		return -1;
	}
	if (note[0])
		cli_messagef(_("note: %s"), note);
	trace_write(of->fp, &tr, o, &o->fmt, 1);
	outfile_wrote(of);
	trace_free(&tr);
	return 0;
}

/* trace --arch=all: the sentence in every architecture, each on its
 * built-in model, one after the other (a JSON array; CSV with a first
 * column "arch").  Returns 0 or -1. */
static int all_run(struct outfile *of, const struct cli_opts *o,
		   const char *sentence)
{
	for (int a = 0; a < ARCH_COUNT; a++) {
		struct model m;
		struct trace tr;
		struct errbuf err;
		struct fmt_opts fo = o->fmt;
		char note[320];
		if (cli_load_feed(&m, NULL, a, o->feed) != 0)
			return -1;
		if (tok_trace_note(&tr, &m, sentence, o->target, o->scorers,
				   note, sizeof note, &o->cfg, &err) != 0) {
			cli_error(err.msg);
			model_free(&m);
			return -1;
		}
		if (note[0] && a == 0)
			cli_messagef(_("note: %s"), note);
		if (o->format == FORMAT_CSV)
			fo.arch = arch_get(a)->name;
		trace_write(of->fp, &tr, o, &fo, a == 0);
		outfile_wrote(of);
		trace_free(&tr);
		model_free(&m);
	}
	if (o->format == FORMAT_JSON)
		fputs("]\n", of->fp);
	return 0;
}

int cli_trace(int argc, char **argv, const struct cli_opts *o)
{
	if (o->present)
		return cli_usage_error("--present and --autoplay work with "
				       "'tui'; 'trace' prints text");
	if (o->batch && (optind < argc || o->target))
		return cli_usage_error("--batch reads its sentences from the "
				       "file; give no sentence or --target");
	if (cli_check_inputs(o))
		return EXIT_USAGE;
	if (o->arch == ARCH_ALL && (o->model_path || o->batch))
		return cli_usage_errorf("--arch=all traces one sentence on the "
					"built-in model of each architecture; "
					"drop %s", o->batch ? "--batch" : "--model");
	if (o->arch == ARCH_ALL && o->fmt.nset)
		return cli_usage_error("--set edits one model; drop --arch=all");
	struct model m;
	int lrc = 0;
	if (o->arch == ARCH_ALL)
		memset(&m, 0, sizeof m); /* each run loads its own */
	else if ((lrc = cli_load(&m, o)) != 0)
		return lrc == EXIT_USAGE ? EXIT_USAGE : EXIT_DATA;
	struct outfile of;
	struct errbuf err;
	if (outfile_open(&of, o->output, &err) != 0) {
		cli_error(err.msg);
		model_free(&m);
		return EXIT_DATA;
	}
	int failed;
	if (o->batch) {
		failed = batch_run(&of, &m, o);
	} else {
		char *sentence = cli_join(argc, argv, optind, DEFAULT_SENTENCE);
		failed = (o->arch == ARCH_ALL ? all_run(&of, o, sentence)
					      : single_run(&of, &m, o, sentence))
			 != 0;
		free(sentence);
	}
	model_free(&m);
	/* a run that failed outright, or a strict batch that stopped, leaves
	 * the old file alone; a batch with some bad lines keeps the good */
	if (failed < 0 || (failed && (o->strict || !o->batch))) {
		outfile_abort(&of);
		return EXIT_DATA;
	}
	if (outfile_commit(&of, &err) != 0) {
		cli_error(err.msg);
		return EXIT_DATA;
	}
	return failed ? EXIT_DATA : EXIT_OK;
}
