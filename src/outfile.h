/* outfile.h: an output file that appears whole or not at all.
 *
 * outfile_open() gives a stream to write to.  For a regular file (or one
 * that does not exist yet) the stream is a temporary file in the same
 * directory, ".NAME.XXXXXX"; outfile_commit() checks that every byte was
 * written and renames it over NAME, so a reader never sees half a file and
 * an error never leaves one behind.  "-" or NULL is standard output.
 * Symbolic links that the path ends in are followed and kept: the file
 * they lead to is replaced, or created if a link dangles.  A path that
 * leads to one of this process's descriptors (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N) is written through that descriptor, at its offset, as
 * ">&N" would; and a path that names something other than a regular file
 * (/dev/null, a FIFO, a terminal) is written in place, since renaming
 * over it would replace it.
 *
 * Symbolic links in a sticky, world-writable directory (/tmp) are
 * followed only when they belong to this process's user or to the
 * directory's owner, as the kernel's fs.protected_symlinks does.  A file
 * replaced keeps its mode, and its owner and group where this process may
 * give them (root may; sed -i does the same); a set-user-ID or
 * set-group-ID bit is dropped when its owner or group cannot be kept.
 * Other names of the file (hard links) keep the old content.
 *
 * While a temporary file exists, every signal that would end the process
 * removes it (all but SIGKILL, which cannot be caught, and those that are
 * ignored or stop the process by default): the handler unlink()s the
 * temporary paths it knows (async-signal-safe), puts back the handler that
 * was there before and raises the signal again, so the program still dies
 * of the signal (or the earlier handler runs).  Signals that were ignored
 * stay ignored, but SIGABRT, since abort() ends the process anyway: so
 * running out of memory (util_out_of_memory() aborts) removes it too.
 * A path that ends in ".gz" (not "-", nor a descriptor's name) is
 * written compressed, as gzip (zlib): of->fp takes the uncompressed bytes,
 * and the commit writes the gzip trailer before it renames.  A path
 * given to outfile_open_picture() that ends in ".png" is written as PNG
 * (src/raster.h): of->fp takes the SVG into memory, and the commit
 * rasterises it into the temporary file before it renames; outfile_open()
 * refuses such a name, as both refuse names that raster_check_name()
 * does.
 *
 * There are OUTFILE_SLOTS such slots, one an outfile open at the same
 * time: more are not covered.  The slots are the only global state here,
 * and no function prints. */
#ifndef ATTN_OUTFILE_H
#define ATTN_OUTFILE_H

#include <stdio.h>

#include "raster.h"
#include "util.h"

/* The outfiles open at the same time that the signal handler covers:
 * more than the steps of a trace (diagram --all-steps). */
#define OUTFILE_SLOTS 128

struct outfile {
	FILE *fp;      /* write here until commit or abort */
	FILE *raw;     /* NAME.gz: the file's own stream, which fp (gz.h)
	                  compresses into; else NULL */
	char *path;    /* the name given, for messages; NULL for stdout */
	char *target;  /* the file that the temporary replaces; NULL when
	                  writing in place */
	char *tmp;     /* the temporary file, or NULL when writing in place */
	int is_stdout;
	int guarded;   /* 1 while the signal slot holds tmp */
	int err;       /* errno of the first write that failed, or 0 */
	int png;       /* 1: NAME.png; fp is a memory stream of the SVG, and
	                  raw the file's own stream */
	char *svg;     /* the memory stream's buffer (open_memstream) */
	size_t svg_len;
	struct raster_size box; /* the PNG's box, with png */
};

/* Whether writing to out (NULL or "-": standard output) would write into
 * the regular file that the input in ("-": standard input) is: the same
 * device and inode, however the two are spelled (./, //, links, hard
 * links, /dev/stdout ...).  1 or 0; something other than a regular file
 * (a terminal, /dev/null, a pipe) is never the same, nor is a name that
 * does not exist. */
int outfile_same_file(const char *out, const char *in);

/* Whether descriptor fd (standard error, say) writes into the regular
 * file that the input in ("-": standard input) is, as
 * outfile_same_file(). */
int outfile_same_fd(int fd, const char *in);

/* Opens path for writing ("-" or NULL: stdout) and sets of->fp.  Returns
 * 0, or -1 with err set to "PATH: REASON" (the temporary file cannot be
 * created, the directory does not exist ...); then nothing was created and
 * *of needs no outfile_abort(). */
int outfile_open(struct outfile *of, const char *path, struct errbuf *err);

/* outfile_open() for a picture that is written as SVG: a path that ends
 * in ".png" is written as PNG instead, fitted to box (NULL, or a box of width 0:
 * RASTER_BOX_W by RASTER_BOX_H).  The same returns; err also says why a name is
 * refused (raster_check_name(): no PNG in this build, ".png.gz",
 * ".jpg" ...), before anything is created. */
int outfile_open_picture(struct outfile *of, const char *path,
			 const struct raster_size *box, struct errbuf *err);

/* Call after writing to of->fp, while errno is as the write left it: if
 * the stream has failed, keeps the reason for outfile_commit()'s message.
 * (A write larger than the stream's buffer fails at once, long before the
 * final flush.) */
void outfile_wrote(struct outfile *of);

/* Finishes the file: flushes the stream, checks it for write errors,
 * closes it (not stdout) and renames the temporary file over the target.
 * Returns 0, or -1 with err set to "PATH: REASON" ("write error: REASON"
 * for stdout); on error the temporary file is removed and an earlier file
 * of that name is left as it was.  Either way *of is finished with. */
int outfile_commit(struct outfile *of, struct errbuf *err);

/* Finishes n files together, so that every one is replaced or none:
 * each is flushed, checked and closed first, and only when all are whole
 * are the temporary files renamed over their targets, one after the
 * other.  Returns 0, or -1 with err set for the first that failed; then
 * every temporary file is removed, and the files that were there keep
 * their content (unless a rename itself fails after another has been
 * made, which within one directory takes a failing disk).  Either way
 * of[0 .. n) are finished with. */
int outfile_commit_all(struct outfile *of, int n, struct errbuf *err);

/* The directory of a command that writes several files (diagram
 * --all-steps, heatmap -o DIR/): dir, made (as mkdir does, not its
 * parents) if it does not exist; *made is set if this call made it.
 * Returns 0, or -1 with err set to "DIR: REASON (HINT)". */
int outfile_mkdir(const char *dir, const char *hint, int *made,
		  struct errbuf *err);

/* Gives up: closes the stream (not stdout) and removes the temporary file,
 * leaving an earlier file of that name as it was.  Harmless on an outfile
 * that was committed, aborted, or that failed to open. */
void outfile_abort(struct outfile *of);

#endif
