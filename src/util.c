/* util.c: allocation that never returns NULL, error buffers, file reading,
 * the processor count. */
#include "config.h"

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifdef HAVE_SCHED_GETAFFINITY
#include <sched.h>
#endif
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gz.h"
#include "i18n.h"
#include "util.h"

/* The first read of a stream of unknown size asks for this many bytes. */
#define UTIL_READ_CHUNK ((size_t)64 << 10)

/* The standard descriptors closed at the start: bit fd. */
static unsigned util_closed;

void util_note_closed(int fd)
{
	if (fd >= 0 && fd <= 2)
		util_closed |= 1u << fd;
}

int util_was_closed(int fd)
{
	return fd >= 0 && fd <= 2 && (util_closed >> fd & 1u);
}

const char *util_stdin_error(int e)
{
	if (e == EBADF && util_was_closed(0))
		return _("expected input, found standard input closed");
	return strerror(e ? e : EIO);
}

/* What to run before aborting; see util_set_fatal_hook(). */
static void (*util_fatal_hook)(void);

void util_set_fatal_hook(void (*fn)(void))
{
	util_fatal_hook = fn;
}

_Noreturn void util_out_of_memory(void)
{
	void (*hook)(void) = util_fatal_hook;

	util_fatal_hook = NULL; /* once, even if the hook runs out too */
	if (hook != NULL)
		hook();
	fputs("attn-trace: out of memory\n", stderr);
	abort();
}

int util_processors(void)
{
	long n;

#ifdef HAVE_SCHED_GETAFFINITY
	/* the affinity mask, which taskset and a container's cpuset narrow;
	 * a machine with more processors than a cpu_set_t holds (1024) makes
	 * the call fail, and is counted as online below */
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		int k = CPU_COUNT(&set);
		if (k > 0)
			return k;
	}
#endif
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n;
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		util_out_of_memory();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	p = calloc(nmemb, size);
	if (p == NULL)
		util_out_of_memory();
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		util_out_of_memory();
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		util_out_of_memory();
	return xrealloc(ptr, nmemb * size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		util_out_of_memory();
	char *s = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* Copies at most n bytes of s, stopping at a NUL, and NUL-terminates. */
char *xstrndup(const char *s, size_t n)
{
	const char *nul = memchr(s, '\0', n);
	size_t len = nul ? (size_t)(nul - s) : n;
	char *p;

	if (len == SIZE_MAX)
		util_out_of_memory();
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Callers keep messages locale-proof by using only %s, %c, %d-style integer
 * conversions (which no locale changes without the ' flag) and numbers that
 * num_fixed() or num_shortest() already wrote. */
void err_set(struct errbuf *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	if (vsnprintf(err->msg, sizeof err->msg, fmt, ap) < 0)
		snprintf(err->msg, sizeof err->msg, "attn-trace: bad message");
	va_end(ap);
}

void err_at(struct errbuf *err, const char *path, int line, int col,
	    const char *fmt, ...)
{
	char what[sizeof err->msg];
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	if (vsnprintf(what, sizeof what, _(fmt), ap) < 0)
		snprintf(what, sizeof what, "attn-trace: bad message");
	va_end(ap);
	err_set(err, "%s:%d:%d: %s", path, line, col, what);
}

/* Reads f to its end into a buffer of at most max_bytes (plus a NUL).
 * Returns the buffer, or NULL with *too_big set or errno left from the
 * failed read. */
static char *util_read_stream(FILE *f, size_t max_bytes, size_t *len,
			      int *too_big)
{
	size_t cap, n = 0, got;
	char *buf;

	if (max_bytes == SIZE_MAX)
		max_bytes--; /* keep room for the NUL */
	cap = max_bytes < UTIL_READ_CHUNK ? max_bytes : UTIL_READ_CHUNK;
	buf = xmalloc(cap + 1);
	*too_big = 0;
	for (;;) {
		if (n == cap) {
			if (cap == max_bytes) {
				/* full: one more byte means too big */
				if (fgetc(f) != EOF) {
					*too_big = 1;
					break;
				}
				if (ferror(f))
					break;
				*len = n;
				buf[n] = '\0';
				return buf;
			}
			cap = cap > max_bytes / 2 ? max_bytes : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0 && ferror(f))
			break;
		if (got == 0 || feof(f)) {
			*len = n;
			buf[n] = '\0';
			return buf;
		}
	}
	free(buf);
	return NULL;
}

/* Refuses early a regular file that is already too large, without reading
 * it.  Returns 0 if f may be read. */
static int util_check_size(FILE *f, size_t max_bytes)
{
	struct stat st;

	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	return st.st_size >= 0 && (uintmax_t)st.st_size > (uintmax_t)max_bytes;
}

/* What st is, for "expected a regular file, found ...". */
static const char *util_file_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return _("a directory");
	if (S_ISFIFO(st->st_mode))
		return _("a FIFO");
	if (S_ISCHR(st->st_mode))
		return _("a character device");
	if (S_ISBLK(st->st_mode))
		return _("a block device");
	if (S_ISSOCK(st->st_mode))
		return _("a socket");
	return _("a special file");
}

/* Opens path for reading if it is a regular file.  The open does not
 * block (O_NONBLOCK: a FIFO with no writer would wait forever), and what
 * was opened is checked with fstat, so a file swapped in between cannot
 * slip through.  Returns the stream, or NULL with err filled. */
static FILE *util_open_regular(const char *path, struct errbuf *err)
{
	struct stat st;
	FILE *f;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		err_set(err, _("%s: expected a regular file, found %s"), path,
			util_file_kind(&st));
		close(fd);
		return NULL;
	}
	/* reads of a regular file never wait; clear the flag anyway */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fdopen(fd, "rb");
	if (f == NULL) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

char *util_read_file(const char *path, size_t max_bytes, size_t *len,
		     struct errbuf *err)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *shown = is_stdin ? "standard input" : path;
	FILE *f = is_stdin ? stdin : util_open_regular(path, err);
	int gz = !is_stdin && gz_name(path);
	char *buf = NULL;
	int too_big = 0, saved;

	if (f == NULL)
		return NULL;
	if (gz) { /* a regular file: read it uncompressed */
		fclose(f);
		if ((f = gz_reader(path)) == NULL) {
			err_set(err, "%s: %s", path, strerror(errno));
			return NULL;
		}
	}
	errno = 0;
	if (!gz && util_check_size(f, max_bytes))
		too_big = 1;
	else
		buf = util_read_stream(f, max_bytes, len, &too_big);
	saved = errno;
	if (!is_stdin)
		fclose(f);
	if (too_big)
		err_set(err, _("%s: file is larger than %zu bytes"), shown,
			max_bytes);
	else if (buf == NULL)
		err_set(err, "%s: %s", shown, is_stdin ?
			util_stdin_error(saved) : gz_strerror(saved ? saved : EIO));
	return buf;
}

enum util_line util_read_line(FILE *in, char *buf, size_t max, size_t *len)
{
	size_t n = 0;
	int c, too_long = 0;

	*len = 0;
	buf[0] = '\0';
	while ((c = getc(in)) != EOF && c != '\n') {
		if (n < max)
			buf[n++] = (char)c;
		else
			too_long = 1; /* the rest is read, not kept */
	}
	if (c == EOF && ferror(in))
		return UTIL_ERROR;
	if (too_long) {
		buf[0] = '\0';
		return UTIL_LONG;
	}
	if (c == EOF && n == 0)
		return UTIL_END;
	buf[n] = '\0';
	*len = n;
	return UTIL_LINE;
}

int util_whole(const char *v, size_t n, unsigned long long max,
	       unsigned long long *out)
{
	unsigned long long x = 0;

	if (n == 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		unsigned d = (unsigned)(v[k] - '0');
		if (v[k] < '0' || v[k] > '9' || x > (max - d) / 10 ||
		    d > max)
			return -1;
		x = 10 * x + d;
	}
	*out = x;
	return 0;
}
