/* glimpse_batch.h: the list of images of "attn-trace glimpse --batch"
 * (doc/trace-format.md, "Glimpses").  One image a line:
 *
 *     PATH [||| CLASS]
 *
 * PATH is a PGM image, a relative one named from the list's directory (as
 * a .captions file names its images, imageset.h); CLASS, optional, one
 * of the model's classes, the true class.  '#' starts a comment to the
 * end of the line; blank and comment lines are skipped; a byte order
 * mark at the start is skipped; a line ends with LF or CR LF.  Errors
 * are "NAME:LINE:COLUMN: expected ..., found ...", columns counting
 * bytes from 1.  The parser never prints and keeps no state. */
#ifndef ATTN_GLIMPSE_BATCH_H
#define ATTN_GLIMPSE_BATCH_H

#include <stddef.h>

#include "glimpse.h"
#include "util.h"

/* The most images a list, and its largest size in bytes. */
#define GLIMPSE_BATCH_MAX 4096
#define GLIMPSE_BATCH_MAX_BYTES (1024 * 1024)

/* One image of a list. */
struct glimpse_batch_item {
	char *path;     /* dir + PATH, or PATH if absolute (owned) */
	int truth;      /* the class's index in the model, or -1 */
	int line;       /* the line of the list, from 1 */
};

/* A list: n images in the order of the file. */
struct glimpse_batch {
	int n;
	struct glimpse_batch_item *item; /* n of them; NULL when n is 0 */
};

/* Parses len bytes of text (the list called name in messages; dir, the
 * directory relative paths are named from, with its '/', or "") into *b,
 * the classes looked up in m.  Returns 0, or -1 with err set and *b
 * empty. */
int glimpse_batch_parse(struct glimpse_batch *b, const char *text,
			size_t len, const char *name, const char *dir,
			const struct glimpse_model *m, struct errbuf *err);

/* Reads the list path ("-": standard input, paths named from the
 * current directory) as glimpse_batch_parse.  Returns 0 or -1 with err
 * set. */
int glimpse_batch_load(struct glimpse_batch *b, const char *path,
		       const struct glimpse_model *m, struct errbuf *err);

/* Frees what *b owns; *b is empty after. */
void glimpse_batch_free(struct glimpse_batch *b);

#endif
