/* gz.c: gzip streams (zlib) behind ordinary stdio FILEs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "gz.h"

int gz_name(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* errno for the last failure of z: the system's, or EILSEQ for bad data
 * (Z_DATA_ERROR, and a file cut off: Z_BUF_ERROR). */
static int gz_errno(gzFile z)
{
	int code = Z_OK;
	gzerror(z, &code);
	if (code == Z_ERRNO)
		return errno ? errno : EIO;
	if (code == Z_MEM_ERROR)
		return ENOMEM;
	return EILSEQ;
}

/* fopencookie's write: the bytes written, 0 on an error (errno set). */
static ssize_t gz_write(void *cookie, const char *buf, size_t size)
{
	gzFile z = cookie;
	size_t done = 0;
	while (done < size) {
		/* gzwrite takes an unsigned count */
		unsigned chunk = size - done > 1u << 30 ? 1u << 30
						       : (unsigned)(size - done);
		errno = 0;
		int w = gzwrite(z, buf + done, chunk);
		if (w <= 0) {
			errno = gz_errno(z);
			return 0;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

/* fopencookie's read: the bytes read, 0 at the end, -1 on an error. */
static ssize_t gz_read(void *cookie, char *buf, size_t size)
{
	gzFile z = cookie;
	unsigned want = size > 1u << 30 ? 1u << 30 : (unsigned)size;
	errno = 0;
	int r = gzread(z, buf, want), code = Z_OK;
	if (r == 0)
		gzerror(z, &code); /* a cut-off file ends with Z_BUF_ERROR */
	if (r < 0 || code != Z_OK) {
		errno = gz_errno(z);
		return -1;
	}
	return r;
}

/* fopencookie's close: 0, or EOF with errno set. */
static int gz_close(void *cookie)
{
	errno = 0;
	int rc = gzclose(cookie);
	if (rc == Z_OK)
		return 0;
	errno = rc == Z_ERRNO ? (errno ? errno : EIO)
	      : rc == Z_MEM_ERROR ? ENOMEM : EILSEQ;
	return EOF;
}

/* z (NULL: zlib could not start, fd already closed by the caller) behind
 * a stdio stream of mode with io; NULL with errno set, z closed, if the
 * stream cannot be made. */
static FILE *gz_wrap(gzFile z, const char *mode, cookie_io_functions_t io)
{
	if (!z) {
		errno = ENOMEM;
		return NULL;
	}
	gzbuffer(z, 128 * 1024);
	FILE *fp = fopencookie(z, mode, io);
	if (!fp) {
		int e = errno;
		gzclose(z);
		errno = e;
	}
	return fp;
}

FILE *gz_writer(int fd)
{
	gzFile z = gzdopen(fd, "wb6");
	if (!z)
		close(fd);
	cookie_io_functions_t io = { NULL, gz_write, NULL, gz_close };
	return gz_wrap(z, "w", io);
}

FILE *gz_reader(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	gzFile z = gzdopen(fd, "rb");
	if (!z)
		close(fd);
	cookie_io_functions_t io = { gz_read, NULL, NULL, gz_close };
	return gz_wrap(z, "r", io);
}

const char *gz_strerror(int e)
{
	if (e == EILSEQ)
		return "expected gzip data, found a corrupt or cut-off file";
	return strerror(e);
}
