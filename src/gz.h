/* gz.h: gzip streams (zlib) behind ordinary stdio FILEs.
 *
 * A FILE that gz_writer() or gz_reader() gives is read and written with
 * stdio as any other (fputs, getline, ferror), so that a formatter, the
 * batch reader and outfile.c need not know that the bytes are compressed.
 * Built on fopencookie() (glibc, musl).  No function prints. */
#ifndef ATTN_GZ_H
#define ATTN_GZ_H

#include <stdio.h>

/* Whether path names a gzip file: it ends in ".gz" (and is more than
 * that).  1 or 0; NULL and "-" are not. */
int gz_name(const char *path);

/* A stream that compresses what is written to it (gzip, level 6) onto
 * descriptor fd, which it takes over: fclose() writes the gzip trailer and
 * closes fd, and reports (EOF, errno) a write that failed.  Returns NULL
 * with errno set, fd then closed, when zlib cannot start. */
FILE *gz_writer(int fd);

/* A stream that reads the gzip file path uncompressed (a file that is
 * not gzip is read as it is, as zcat -f does).  Returns NULL with errno set
 * when path cannot be opened.  A read error sets ferror() with errno: the
 * system's, or EILSEQ for data that is not valid gzip (a cut-off or
 * corrupt file). */
FILE *gz_reader(const char *path);

/* strerror(e), but for EILSEQ, the error of a gz_reader() given data
 * that is not gzip: "expected gzip data, found a corrupt or cut-off
 * file". */
const char *gz_strerror(int e);

#endif
