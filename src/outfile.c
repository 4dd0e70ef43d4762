/* outfile.c: an output file that appears whole or not at all (outfile.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gz.h"
#include "i18n.h"
#include "outfile.h"

/* The longest symbolic link read, and the most links followed from the
 * name given (as the kernel's limit). */
#ifdef PATH_MAX
#define OUTFILE_PATH_MAX PATH_MAX
#else
#define OUTFILE_PATH_MAX 4096
#endif
#define OUTFILE_MAX_LINKS 40

/* The most bytes of NAME that the temporary name .NAME.XXXXXX keeps. */
#define OUTFILE_TMP_KEEP 64

/* Signal numbers are below this (glibc's NSIG counts the real-time
 * ones too). */
#ifdef NSIG
#define OUTFILE_NSIG NSIG
#else
#define OUTFILE_NSIG 65
#endif

/* The slots: the temporary paths the handler removes (each points at an
 * open outfile's tmp, NULL when free), the handlers that were there
 * before ours, by signal number, and how many slots are taken (changed
 * only with the signals blocked). */
static const char *volatile outfile_slot[OUTFILE_SLOTS];
static int outfile_taken;
static struct sigaction outfile_old[OUTFILE_NSIG];
static volatile sig_atomic_t outfile_ours[OUTFILE_NSIG]; /* 1: ours is in */

/* Whether sig ends the process unless handled, and can be caught: every
 * such signal must remove the temporary file first.  That is all of them
 * but these (SIGABRT, which abort() raises when memory runs out, is one
 * of those that do). */
static int outfile_fatal(int sig)
{
	switch (sig) {
	case SIGKILL: case SIGSTOP:               /* cannot be caught */
	case SIGCHLD: case SIGCONT: case SIGURG:  /* ignored by default */
#ifdef SIGWINCH
	case SIGWINCH:
#endif
	case SIGTSTP: case SIGTTIN: case SIGTTOU: /* stop the process */
		return 0;
	default:
		return 1;
	}
}

/* Removes the temporary file, puts the earlier handler back and raises the
 * signal again; it is blocked until this returns, so the earlier handler
 * (or the default action) then takes it.  A fault (SIGSEGV ...) raised
 * again this way still ends the process.  Only async-signal-safe calls. */
static void outfile_on_signal(int sig)
{
	int saved = errno;
	for (int k = 0; k < OUTFILE_SLOTS; k++) {
		const char *tmp = outfile_slot[k];
		if (tmp) {
			unlink(tmp);
			outfile_slot[k] = NULL;
		}
	}
	if (sig > 0 && sig < OUTFILE_NSIG && outfile_ours[sig]) {
		sigaction(sig, &outfile_old[sig], NULL);
		outfile_ours[sig] = 0;
	}
	raise(sig);
	errno = saved;
}

/* Blocks every signal that can be blocked; *old gets the mask to put back
 * with SIG_SETMASK. */
static void outfile_block(sigset_t *old)
{
	sigset_t set;
	sigfillset(&set);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Installs the handler for every fatal signal but those that were ignored,
 * which stay ignored.  SIGABRT gets it even then: abort() ends the process
 * whatever SIGABRT's disposition. */
static void outfile_catch(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = outfile_on_signal;
	sigfillset(&sa.sa_mask);
	for (int sig = 1; sig < OUTFILE_NSIG; sig++) {
		if (!outfile_fatal(sig) ||
		    sigaction(sig, &sa, &outfile_old[sig]) != 0)
			continue; /* glibc keeps a few real-time ones */
		outfile_ours[sig] = 1;
		if (outfile_old[sig].sa_handler == SIG_IGN && sig != SIGABRT) {
			sigaction(sig, &outfile_old[sig], NULL);
			outfile_ours[sig] = 0;
		}
	}
}

/* Puts tmp in a free slot, and installs the handlers with the first;
 * unless every slot is taken.  Called with the signals blocked. */
static void outfile_guard(struct outfile *of)
{
	for (int k = 0; k < OUTFILE_SLOTS; k++)
		if (!outfile_slot[k]) {
			outfile_slot[k] = of->tmp;
			of->guarded = k + 1;
			if (outfile_taken++ == 0)
				outfile_catch();
			return;
		}
}

/* Empties of's slot, and puts the earlier handlers back with the last. */
static void outfile_unguard(struct outfile *of)
{
	if (!of->guarded)
		return;
	sigset_t old;
	outfile_block(&old);
	outfile_slot[of->guarded - 1] = NULL;
	if (--outfile_taken == 0)
		for (int sig = 1; sig < OUTFILE_NSIG; sig++)
			if (outfile_ours[sig]) {
				sigaction(sig, &outfile_old[sig], NULL);
				outfile_ours[sig] = 0;
			}
	of->guarded = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void outfile_release(struct outfile *of)
{
	outfile_unguard(of);
	free(of->path);
	free(of->target);
	free(of->tmp);
	free(of->svg);
	of->path = of->target = of->tmp = of->svg = NULL;
	of->fp = NULL;
	of->is_stdout = 0;
}

static int outfile_fail(struct outfile *of, int e, struct errbuf *err)
{
	err_set(err, "%s: %s", of->path, strerror(e ? e : EIO));
	return -1;
}

/* For a NAME.gz, puts a gzip stream over of->fp (which becomes of->raw)
 * writing through a duplicate of its descriptor, so that the trailer can
 * be written (and checked) before the file is synced and closed.  Returns
 * 0, or -1 with errno set and of->fp as it was. */
static int outfile_gz(struct outfile *of)
{
	if (!gz_name(of->path))
		return 0;
	int copy = fcntl(fileno(of->fp), F_DUPFD_CLOEXEC, 0);
	FILE *z = copy >= 0 ? gz_writer(copy) : NULL;
	if (!z)
		return -1;
	of->raw = of->fp;
	of->fp = z;
	return 0;
}

/* The stream that the caller writes into, over the file's own: gzip for
 * NAME.gz (outfile_gz()), or for NAME.png a memory stream of the SVG,
 * which outfile_finish() rasterises.  Returns 0, or -1 with errno set and
 * of->fp as it was. */
static int outfile_wrap(struct outfile *of)
{
	if (!of->png)
		return outfile_gz(of);
	FILE *m = open_memstream(&of->svg, &of->svg_len);
	if (!m)
		return -1;
	of->raw = of->fp;
	of->fp = m;
	return 0;
}

/* Writes in place: path names something that is not a regular file. */
static int outfile_open_direct(struct outfile *of, struct errbuf *err)
{
	of->fp = fopen(of->path, "w");
	if (of->fp && outfile_wrap(of) == 0)
		return 0;
	if (of->fp) {
		int e = errno;
		fclose(of->fp);
		errno = e;
	}
	outfile_fail(of, errno, err);
	outfile_release(of);
	return -1;
}

/* Writes through a duplicate of this process's descriptor fd, which the
 * path names (/dev/stdout, /proc/self/fd/N): at the descriptor's offset,
 * truncating nothing, as a shell's >&N would. */
static int outfile_open_fd(struct outfile *of, int fd, struct errbuf *err)
{
	int flags = fcntl(fd, F_GETFL), copy = -1;
	if (flags != -1 && (flags & O_ACCMODE) == O_RDONLY) {
		err_set(err, _("%s: expected a descriptor open for writing, "
			"found one open only for reading"), of->path);
		outfile_release(of);
		return -1;
	}
	if (flags != -1 && (copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)) >= 0 &&
	    (of->fp = fdopen(copy, "w")) != NULL)
		return 0;
	int e = errno;
	if (copy >= 0)
		close(copy);
	outfile_fail(of, e, err);
	outfile_release(of);
	return -1;
}

/* The directory part of path ("DIR/" of "DIR/NAME", "" of "NAME") joined
 * to rel, or rel alone if it is absolute.  The caller frees it. */
static char *outfile_join(const char *path, const char *rel)
{
	const char *slash = strrchr(path, '/');
	size_t dir = rel[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
	size_t len = strlen(rel);
	char *p = xmalloc(dir + len + 1);
	memcpy(p, path, dir);
	memcpy(p + dir, rel, len + 1);
	return p;
}

/* The content of the symbolic link path, or NULL with errno set. */
static char *outfile_readlink(const char *path)
{
	char buf[OUTFILE_PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof buf);
	if (n < 0)
		return NULL;
	if ((size_t)n >= sizeof buf) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	buf[n] = '\0';
	return xstrdup(buf);
}

/* The descriptor of this process that the link path (lst: its lstat)
 * stands for, as /proc/self/fd/N does (and /dev/fd/N and /dev/stdout,
 * which lead there): a link of /proc whose name N is one of our open
 * descriptors and that leads to the same file.  -1 if it is not one. */
static int outfile_descriptor(const char *path, const struct stat *lst)
{
	struct stat proc, st, fst;
	const char *name = strrchr(path, '/');
	name = name ? name + 1 : path;
	if (lstat("/proc/self", &proc) != 0 || proc.st_dev != lst->st_dev)
		return -1;
	long n = 0;
	for (const char *c = name; *c; c++) {
		if (*c < '0' || *c > '9' || n > INT_MAX / 10)
			return -1;
		n = n * 10 + (*c - '0');
	}
	if (!*name || fstat((int)n, &fst) != 0 || stat(path, &st) != 0 ||
	    st.st_dev != fst.st_dev || st.st_ino != fst.st_ino)
		return -1;
	return (int)n;
}

/* Whether following the link cur (lst: its lstat) is refused, as the
 * kernel's fs.protected_symlinks refuses it: the link is in a sticky,
 * world-writable directory (/tmp), and neither this process's effective
 * user nor the directory's owner owns it.  attn-trace follows the links
 * itself, so the kernel's own check never sees them.  Returns the owner
 * of the directory in *dir_uid. */
static int outfile_protected(const char *cur, const struct stat *lst,
			     uid_t *dir_uid)
{
	struct stat d;
	memset(&d, 0, sizeof d);
	char *dir = outfile_join(cur, ".");
	int r = stat(dir, &d) == 0 && (d.st_mode & S_ISVTX) &&
		(d.st_mode & S_IWOTH) && lst->st_uid != geteuid() &&
		lst->st_uid != d.st_uid;
	free(dir);
	*dir_uid = d.st_uid;
	return r;
}

/* Follows the symbolic links that path ends in (not those of its
 * directories) to the name that writing to path writes to, which need
 * not exist yet: a dangling link gives the name it points to, so that the
 * link is kept.  A link that outfile_protected() refuses is not followed.
 * *fd gets the descriptor of this process that the chain reaches
 * (outfile_descriptor()), or -1.  Returns the name, which the caller
 * frees, or NULL with err set to "PATH: REASON" (ELOOP, a link refused,
 * or why the name cannot be looked up: ENAMETOOLONG, EACCES ...). */
static char *outfile_follow(const char *path, int *fd, struct errbuf *err)
{
	char *cur = xstrdup(path);
	struct stat lst;
	uid_t owner;
	*fd = -1;
	for (int k = 0; k <= OUTFILE_MAX_LINKS; k++) {
		if (lstat(cur, &lst) != 0) {
			if (errno == ENOENT)
				return cur;
			break;
		}
		if (!S_ISLNK(lst.st_mode) ||
		    (*fd = outfile_descriptor(cur, &lst)) >= 0)
			return cur;
		if (outfile_protected(cur, &lst, &owner)) {
			err_set(err, _("%s: expected a link of user %ld or of "
				"the directory's owner %ld in a sticky, "
				"world-writable directory, found one of user "
				"%ld: not followed"), path, (long)geteuid(),
				(long)owner, (long)lst.st_uid);
			free(cur);
			return NULL;
		}
		char *to = outfile_readlink(cur);
		if (!to)
			break;
		char *next = outfile_join(cur, to);
		free(to);
		free(cur);
		cur = next;
		errno = ELOOP;
	}
	err_set(err, "%s: %s", path, strerror(errno));
	free(cur);
	return NULL;
}

/* "DIR/.NAME.XXXXXX" for target "DIR/NAME", NAME cut to its first
 * OUTFILE_TMP_KEEP bytes (at a UTF-8 character boundary) so that the
 * temporary name is legal wherever a name of OUTFILE_TMP_KEEP + 8 bytes
 * is, however long NAME itself may be. */
static char *outfile_tmp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
	size_t keep = strlen(target + dir);
	if (keep > OUTFILE_TMP_KEEP) {
		keep = OUTFILE_TMP_KEEP;
		while (keep > 0 &&
		       ((unsigned char)target[dir + keep] & 0xc0) == 0x80)
			keep--; /* the first byte dropped continues a char */
	}
	char *tmp = xmalloc(dir + keep + 9);
	memcpy(tmp, target, dir);
	tmp[dir] = '.';
	memcpy(tmp + dir + 1, target + dir, keep);
	memcpy(tmp + dir + 1 + keep, ".XXXXXX", 8);
	return tmp;
}

/* The temporary file cannot be created: the directory is to blame (it is
 * read-only, missing, full ...), and the message names it first. */
static int outfile_dir_fail(struct outfile *of, int e, struct errbuf *err)
{
	const char *slash = strrchr(of->target, '/');
	int len = !slash ? 1 : slash == of->target ? 1
		: (int)(slash - of->target);
	err_set(err, _("%.*s: cannot create a file in this directory: %s "
		"(to write %s)"), len, slash ? of->target : ".",
		strerror(e ? e : EIO), of->path);
	return -1;
}

/* Gives the temporary file fd the owner, group and mode of the file it
 * replaces (old), as far as this process may (root may give any owner,
 * another user only a group of theirs), as sed -i does; or for a new
 * file, 0666 less the umask.  A set-user-ID or set-group-ID bit is kept
 * only with the owner or group it goes with, so a file that was another
 * user's never becomes a set-ID file of this one.  Returns 0, or -1 with
 * errno set. */
static int outfile_owner_mode(int fd, const struct stat *old)
{
	if (!old) {
		mode_t mask = umask(0);
		umask(mask);
		return fchmod(fd, 0666 & ~mask);
	}
	mode_t mode = old->st_mode & 07777;
	struct stat now;
	if (fstat(fd, &now) != 0)
		return -1;
	if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
	    fchown(fd, old->st_uid, old->st_gid) != 0 &&
	    fchown(fd, (uid_t)-1, old->st_gid) != 0) {
		/* neither: the file stays ours, and the bits go below */
	}
	if (fstat(fd, &now) != 0)
		return -1;
	if (now.st_uid != old->st_uid)
		mode &= ~(mode_t)S_ISUID;
	if (now.st_gid != old->st_gid)
		mode &= ~(mode_t)S_ISGID;
	return fchmod(fd, mode);
}

/* Creates the temporary file beside of->target, with the signals blocked
 * until it is guarded. */
static int outfile_open_temp(struct outfile *of, const struct stat *old,
			     struct errbuf *err)
{
	of->tmp = outfile_tmp_name(of->target);
	sigset_t mask;
	outfile_block(&mask);
	int fd = mkstemp(of->tmp), e = errno, created = fd >= 0;
	if (fd >= 0) {
		outfile_guard(of);
		if (outfile_owner_mode(fd, old) != 0 ||
		    !(of->fp = fdopen(fd, "w")) || outfile_wrap(of) != 0) {
			e = errno;
			if (of->fp)
				fclose(of->fp); /* and fd */
			else
				close(fd);
			of->fp = NULL;
			unlink(of->tmp);
			fd = -1;
		}
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (fd >= 0)
		return 0;
	if (created)
		outfile_fail(of, e, err);
	else
		outfile_dir_fail(of, e, err);
	outfile_release(of);
	return -1;
}

/* stat() of path, or fstat() of fd for "-" (and NULL). */
static int outfile_stat(const char *path, int fd, struct stat *st)
{
	if (!path || strcmp(path, "-") == 0)
		return fstat(fd, st);
	return stat(path, st);
}

/* Whether in is the regular file that o (a stat) is. */
static int outfile_same_stat(const struct stat *o, const char *in)
{
	struct stat i;
	if (!in || outfile_stat(in, STDIN_FILENO, &i) != 0)
		return 0;
	return S_ISREG(i.st_mode) && i.st_dev == o->st_dev &&
	       i.st_ino == o->st_ino;
}

int outfile_same_file(const char *out, const char *in)
{
	struct stat o;
	return outfile_stat(out, STDOUT_FILENO, &o) == 0 &&
	       outfile_same_stat(&o, in);
}

int outfile_same_fd(int fd, const char *in)
{
	struct stat o;
	return fstat(fd, &o) == 0 && outfile_same_stat(&o, in);
}

/* outfile_open() and outfile_open_picture(): box is NULL for what is not
 * a picture. */
static int outfile_open_as(struct outfile *of, const char *path,
			   const struct raster_size *box, struct errbuf *err)
{
	memset(of, 0, sizeof *of);
	if (raster_check_name(path, box != NULL, err) != 0)
		return -1;
	if (!path || strcmp(path, "-") == 0) {
		of->fp = stdout;
		of->is_stdout = 1;
		return 0;
	}
	of->path = xstrdup(path);
	of->png = box && raster_name(path);
	if (box)
		of->box = *box;
	int fd = -1;
	char *target = *path ? outfile_follow(path, &fd, err) : NULL;
	if (!target) {
		if (!*path)
			outfile_fail(of, ENOENT, err);
		outfile_release(of);
		return -1;
	}
	if (fd >= 0) {
		free(target);
		return outfile_open_fd(of, fd, err);
	}
	struct stat st;
	int exists = stat(target, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		free(target);
		return outfile_open_direct(of, err);
	}
	of->target = target;
	return outfile_open_temp(of, exists ? &st : NULL, err);
}

int outfile_open(struct outfile *of, const char *path, struct errbuf *err)
{
	return outfile_open_as(of, path, NULL, err);
}

int outfile_open_picture(struct outfile *of, const char *path,
			 const struct raster_size *box, struct errbuf *err)
{
	static const struct raster_size slide = { RASTER_BOX_W, RASTER_BOX_H };
	return outfile_open_as(of, path, box && box->w > 0 ? box : &slide,
			       err);
}

/* Flushes and checks standard output, which stays open. */
static int outfile_commit_stdout(struct outfile *of, struct errbuf *err)
{
	errno = 0;
	int bad = fflush(stdout) != 0 || ferror(stdout), e = errno;
	if (of->err)
		e = of->err;
	outfile_release(of);
	if (!bad)
		return 0;
	err_set(err, _("write error: %s"), strerror(e ? e : EIO));
	return -1;
}

void outfile_wrote(struct outfile *of)
{
	if (of->fp && of->err == 0 && ferror(of->fp))
		of->err = errno ? errno : EIO;
}

/* NAME.png: rasterises the SVG that of->svg holds into the file's own
 * stream, of->fp.  Returns 0, or -1 with *e set to the errno of a write
 * that failed, or else with *e 0 and err set to "PATH: REASON". */
static int outfile_rasterise(struct outfile *of, int *e, struct errbuf *err)
{
	struct errbuf why;
	int rc = raster_png(of->fp, of->svg, of->svg_len, &of->box, e, &why);
	free(of->svg);
	of->svg = NULL;
	if (rc != 0 && *e == 0)
		err_set(err, "%s: %s", of->path, why.msg);
	return rc;
}

/* Step 1 of a commit: flushes of's stream, checks it for write errors,
 * syncs a temporary file and closes it (not stdout).  Returns 0, or -1
 * with err set; either way of->fp is gone, and the temporary file is
 * still there. */
static int outfile_finish(struct outfile *of, struct errbuf *err)
{
	if (of->is_stdout)
		return outfile_commit_stdout(of, err);
	if (!of->fp) {
		err_set(err, "%s: %s", of->path ? of->path : "-",
			strerror(EBADF));
		return -1;
	}
	errno = 0;
	int bad = fflush(of->fp) != 0 || ferror(of->fp);
	int e = of->err ? of->err : errno;
	if (of->raw) { /* the gzip trailer, or the SVG, now whole */
		if (fclose(of->fp) != 0 && !bad)
			bad = 1, e = errno;
		of->fp = of->raw;
		of->raw = NULL;
	}
	if (!bad && of->png && outfile_rasterise(of, &e, err) != 0) {
		fclose(of->fp);
		of->fp = NULL;
		return e ? outfile_fail(of, e, err) : -1;
	}
	if (!bad && of->tmp && fsync(fileno(of->fp)) != 0)
		bad = 1, e = errno;
	if (fclose(of->fp) != 0 && !bad)
		bad = 1, e = errno;
	of->fp = NULL;
	return bad ? outfile_fail(of, e, err) : 0;
}

int outfile_commit_all(struct outfile *of, int n, struct errbuf *err)
{
	int bad = 0, k;
	/* step 1: every file whole, or none renamed */
	for (k = 0; k < n && !bad; k++)
		bad = outfile_finish(&of[k], err) != 0;
	/* step 2: the renames, one after the other */
	for (k = 0; k < n && !bad; k++)
		if (of[k].tmp && rename(of[k].tmp, of[k].target) != 0)
			bad = outfile_fail(&of[k], errno, err) != 0;
		else
			outfile_release(&of[k]);
	/* step 3: the temporary files left, and nothing else, go */
	for (k = 0; k < n; k++)
		outfile_abort(&of[k]);
	return bad ? -1 : 0;
}

int outfile_commit(struct outfile *of, struct errbuf *err)
{
	return outfile_commit_all(of, 1, err);
}

void outfile_abort(struct outfile *of)
{
	if (of->raw) {
		fclose(of->fp);
		of->fp = of->raw;
		of->raw = NULL;
	}
	if (of->fp && !of->is_stdout)
		fclose(of->fp);
	else if (of->is_stdout)
		fflush(stdout);
	of->fp = NULL;
	if (of->tmp)
		unlink(of->tmp);
	outfile_release(of);
}

int outfile_mkdir(const char *dir, const char *hint, int *made,
		  struct errbuf *err)
{
	struct stat st;
	*made = 0;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		errno = ENOTDIR;
	} else if (errno == ENOENT && mkdir(dir, 0777) == 0) {
		*made = 1;
		return 0;
	}
	err_set(err, "%s: %s (%s)", dir, strerror(errno), hint);
	return -1;
}
