/* util.h: allocation that never returns NULL, error buffers, file reading,
 * the processor count. */
#ifndef ATTN_UTIL_H
#define ATTN_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* The x* allocators print "attn-trace: out of memory" and abort when the
 * system has no memory left; they never return NULL.  The caller owns the
 * result and frees it with free(). */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What the x* allocators do when memory runs out, for the other ways of
 * finding that out (a memory stream, newlocale): runs the fatal hook,
 * prints "attn-trace: out of memory" and aborts. */
_Noreturn void util_out_of_memory(void);

/* How many processors this process may run on: those of its affinity mask
 * (what taskset or a cpuset leaves it) where the system has one, else
 * those online; at least 1.  A CPU quota (cgroup cpu.max) is not
 * counted. */
int util_processors(void);

/* The whole number written in v (n bytes, not NUL-terminated): decimal
 * digits only (no sign, no space), at most max, into *out; returns 0, or
 * -1 with *out unchanged.  The one parser of the values that the command
 * line and a lesson's keys share (--seed and seed:, --window-size and
 * window-size:). */
int util_whole(const char *v, size_t n, unsigned long long max,
	       unsigned long long *out);

/* Registers fn to run before the x* allocators print their message and
 * abort, so that the stepper can give the terminal back first (abort()
 * runs no atexit handler); NULL removes it.  It runs at most once: it is
 * removed before it is called, so an allocation that fails inside it
 * aborts at once.  fn should not allocate. */
void util_set_fatal_hook(void (*fn)(void));

/* An error message that climbs back to main.  Functions that can fail take a
 * struct errbuf *, fill it, and return a non-zero status. */
struct errbuf {
	char msg[1024];
};

/* Sets err->msg from a printf-style format; err may be NULL.  Numbers in
 * error messages are formatted in the C locale. */
void err_set(struct errbuf *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Sets err->msg to "PATH:LINE:COL: " followed by the catalogue's
 * translation of fmt, formatted; the place stays untranslated so that
 * editors and tests can parse it in every language.  err may be NULL.
 * xgettext takes fmt as a message (po/Makevars: --keyword=err_at:5). */
void err_at(struct errbuf *err, const char *path, int line, int col,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Reads the whole of PATH ("-" is standard input) into a NUL-terminated
 * buffer that the caller frees; *len gets its length without the NUL.
 * Refuses files larger than max_bytes, and a PATH that is not a regular
 * file ("PATH: expected a regular file, found a FIFO"): a FIFO, a device
 * or a directory, which it never opens for a read that could wait.
 * A PATH ending in ".gz" is read uncompressed (gz_reader(); max_bytes
 * then bounds the uncompressed bytes, and corrupt gzip data is an error).
 * Returns NULL and fills err on failure. */
char *util_read_file(const char *path, size_t max_bytes, size_t *len,
		     struct errbuf *err);

/* Notes that descriptor fd (0, 1 or 2) was closed when the program
 * started (main.c opens /dev/null on it), and tells whether it was, so
 * that a read of a closed standard input can say so.  0 to 2 only. */
void util_note_closed(int fd);
int util_was_closed(int fd);

/* The message for a read of "-" that failed with errno e: "standard input
 * is closed" when it was closed at the start (util_note_closed()), else
 * strerror(e). */
const char *util_stdin_error(int e);

/* What util_read_line() read. */
enum util_line {
	UTIL_LINE,   /* a line */
	UTIL_LONG,   /* a line longer than the cap, read to its end, not kept */
	UTIL_END,    /* the end of the input */
	UTIL_ERROR   /* a read error, errno says which */
};

/* Reads the next line of in into buf, which holds max + 1 bytes:
 * buf[0..*len) without its '\n', and a NUL after it.  A line longer than
 * max bytes is read to its end but not kept (UTIL_LONG, *len 0 and buf
 * ""), so that no line, however long, is held whole and nothing is
 * allocated.  The end of the input and a read error are told apart with
 * feof and ferror, never from the return value alone. */
enum util_line util_read_line(FILE *in, char *buf, size_t max, size_t *len);

#endif
