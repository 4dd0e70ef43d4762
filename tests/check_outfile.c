/* check_outfile.c: output files that appear whole or not at all: commit,
 * abort, errors that leave nothing behind, special files, links, and the
 * temporary file removed by a signal. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"

static char dir[4096];

static void setup(void)
{
	const char *base = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/check_outfile.XXXXXX",
		 base && *base ? base : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[8192];
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* dir/name into path (4096 + 256 bytes) and returns it. */
static const char *at(char *path, const char *name)
{
	snprintf(path, 4096 + 256, "%s/%s", dir, name);
	return path;
}

/* The number of entries in dir, . and .. aside. */
static int entries(void)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* The whole content of path, in a static buffer; "" if it is missing. */
static const char *content(const char *path)
{
	static char text[4096];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
	return text;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_commit_creates)
{
	char path[4352];
	struct outfile of;
	struct errbuf err;
	mode_t old = umask(022);
	ck_assert_int_eq(outfile_open(&of, at(path, "align.svg"), &err), 0);
	fputs("<svg/>\n", of.fp);
	/* nothing under the name until the commit */
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(outfile_commit(&of, &err), 0);
	ck_assert_str_eq(content(path), "<svg/>\n");
	ck_assert_int_eq(entries(), 1); /* no temporary file left */
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	umask(old);
}
END_TEST

START_TEST(test_commit_replaces_keeping_mode)
{
	char path[4352];
	struct outfile of;
	struct errbuf err;
	put(at(path, "align.svg"), "old\n");
	ck_assert_int_eq(chmod(path, 0640), 0);
	ck_assert_int_eq(outfile_open(&of, path, &err), 0);
	fputs("new\n", of.fp);
	fflush(of.fp);
	ck_assert_str_eq(content(path), "old\n"); /* readers see the old */
	ck_assert_int_eq(entries(), 2);
	ck_assert_int_eq(outfile_commit(&of, &err), 0);
	ck_assert_str_eq(content(path), "new\n");
	ck_assert_int_eq(entries(), 1);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
}
END_TEST

START_TEST(test_abort_keeps_old)
{
	char path[4352];
	struct outfile of;
	struct errbuf err;
	put(at(path, "align.svg"), "old\n");
	ck_assert_int_eq(outfile_open(&of, path, &err), 0);
	fputs("half a pic", of.fp);
	outfile_abort(&of);
	ck_assert_str_eq(content(path), "old\n");
	ck_assert_int_eq(entries(), 1);
	outfile_abort(&of); /* twice is harmless */
	/* a new name: nothing is created */
	ck_assert_int_eq(outfile_open(&of, at(path, "new.svg"), &err), 0);
	fputs("half", of.fp);
	outfile_abort(&of);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(test_missing_directory)
{
	char path[4352];
	struct outfile of;
	struct errbuf err;
	ck_assert_int_eq(outfile_open(&of, at(path, "no/such/a.svg"), &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));
	outfile_abort(&of); /* harmless after a failed open */
	/* a file where a directory should be */
	put(at(path, "file"), "x");
	ck_assert_int_eq(outfile_open(&of, at(path, "file/a.svg"), &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOTDIR)));
	/* a directory where the file should be */
	ck_assert_int_eq(outfile_open(&of, dir, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(EISDIR)));
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(test_unwritable_directory)
{
	char sub[4352], path[4352 + 16];
	struct outfile of;
	struct errbuf err;
	ck_assert_int_eq(mkdir(at(sub, "ro"), 0555), 0);
	if (access(sub, W_OK) == 0) { /* root writes anywhere */
		rmdir(sub);
		return;
	}
	snprintf(path, sizeof path, "%s/a.svg", sub);
	ck_assert_int_eq(outfile_open(&of, path, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(EACCES)));
	rmdir(sub);
}
END_TEST

/* A name as long as the directory allows: the temporary name is shorter,
 * cut at a character boundary, so the file can still be written.  One
 * byte more is refused at once. */
START_TEST(test_long_name)
{
	char name[512], path[4352 + 512];
	struct outfile of;
	struct errbuf err;
	long max = pathconf(dir, _PC_NAME_MAX);
	if (max < 16 || max > 400)
		return;
	const char *fills[] = { "x", "\xc3\xa9" }; /* 1 byte, then 2 */
	for (int k = 0; k < 2; k++) {
		size_t n = 0, w = strlen(fills[k]);
		while (n + w <= (size_t)max) {
			memcpy(name + n, fills[k], w);
			n += w;
		}
		name[n] = '\0';
		snprintf(path, sizeof path, "%s/%s", dir, name);
		ck_assert_msg(outfile_open(&of, path, &err) == 0, "%s", err.msg);
		const char *base = strrchr(of.tmp, '/') + 1;
		ck_assert_int_le(strlen(base), max);
		/* the kept part of the name ends where a character ends:
		 * its last byte does not start one */
		ck_assert_int_lt((unsigned char)base[strlen(base) - 8], 0xc0);
		ck_assert_int_eq((strlen(base) - 8) % w, 0);
		fputs("new\n", of.fp);
		ck_assert_int_eq(outfile_commit(&of, &err), 0);
		ck_assert_str_eq(content(path), "new\n");
		ck_assert_int_eq(entries(), k + 1);
	}
	memset(name, 'x', (size_t)max + 1);
	name[max + 1] = '\0';
	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_int_eq(outfile_open(&of, path, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENAMETOOLONG)));
	ck_assert_int_eq(entries(), 2);
}
END_TEST

/* A writable file in a directory where no file can be created: the
 * message blames the directory. */
START_TEST(test_unwritable_directory_blamed)
{
	char sub[4352], path[4352 + 16];
	struct outfile of;
	struct errbuf err;
	ck_assert_int_eq(mkdir(at(sub, "ro"), 0755), 0);
	snprintf(path, sizeof path, "%s/a.svg", sub);
	put(path, "old\n");
	ck_assert_int_eq(chmod(sub, 0555), 0);
	if (access(sub, W_OK) != 0) { /* root writes anywhere */
		ck_assert_int_eq(outfile_open(&of, path, &err), -1);
		ck_assert_msg(strncmp(err.msg, sub, strlen(sub)) == 0 &&
			      strncmp(err.msg + strlen(sub), ": ", 2) == 0,
			      "%s", err.msg);
		ck_assert_ptr_nonnull(strstr(err.msg, strerror(EACCES)));
		ck_assert_str_eq(content(path), "old\n");
	}
	chmod(sub, 0755);
	unlink(path);
	rmdir(sub);
	/* even root cannot create files in /proc/self */
	if (access("/proc/self/comm", W_OK) != 0)
		return;
	ck_assert_int_eq(outfile_open(&of, "/proc/self/comm", &err), -1);
	ck_assert_msg(strncmp(err.msg, "/proc/self: ", 12) == 0, "%s", err.msg);
}
END_TEST

/* /proc refuses new files even to root. */
START_TEST(test_unwritable_proc)
{
	struct outfile of;
	struct errbuf err;
	if (access("/proc/self", F_OK) != 0)
		return;
	ck_assert_int_eq(outfile_open(&of, "/proc/attn-trace.svg", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/proc: "));
	ck_assert_ptr_nonnull(strstr(err.msg, "/proc/attn-trace.svg"));
}
END_TEST

/* A full disk shows at the commit, and nothing is left in /dev. */
START_TEST(test_dev_full)
{
	struct outfile of;
	struct errbuf err;
	ck_assert_int_eq(outfile_open(&of, "/dev/full", &err), 0);
	ck_assert_ptr_null(of.tmp); /* a device is written in place */
	fputs("<svg/>\n", of.fp);
	ck_assert_int_eq(outfile_commit(&of, &err), -1);
	ck_assert_str_eq(err.msg, "/dev/full: No space left on device");
	DIR *d = opendir("/dev");
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	while ((e = readdir(d)))
		ck_assert_msg(strncmp(e->d_name, ".full.", 6) != 0,
			      "left /dev/%s", e->d_name);
	closedir(d);
}
END_TEST

/* A write error in a temporary file (the file size limit): the commit
 * fails and removes it, and the old file stays. */
START_TEST(test_error_removes_temp)
{
	char path[4352];
	struct outfile of;
	struct errbuf err;
	struct rlimit old, small;
	put(at(path, "align.svg"), "old\n");
	ck_assert_int_eq(outfile_open(&of, path, &err), 0);
	ck_assert_ptr_nonnull(of.tmp);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 16;
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	for (int k = 0; k < 100; k++)
		fputs("a line of the new picture\n", of.fp);
	int rc = outfile_commit(&of, &err);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(EFBIG)));
	ck_assert_str_eq(content(path), "old\n");
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(test_stdout)
{
	struct outfile of;
	struct errbuf err;
	ck_assert_int_eq(outfile_open(&of, "-", &err), 0);
	ck_assert_ptr_eq(of.fp, stdout);
	ck_assert_int_eq(outfile_commit(&of, &err), 0);
	ck_assert_int_eq(outfile_open(&of, NULL, &err), 0);
	ck_assert_ptr_eq(of.fp, stdout);
	outfile_abort(&of);
	ck_assert_int_eq(fileno(stdout), 1); /* still open */
}
END_TEST

/* A link to a regular file: the file is replaced and the link kept. */
START_TEST(test_symlink_followed)
{
	char path[4352], link[4352];
	struct outfile of;
	struct errbuf err;
	put(at(path, "real.svg"), "old\n");
	ck_assert_int_eq(symlink("real.svg", at(link, "link.svg")), 0);
	ck_assert_int_eq(outfile_open(&of, link, &err), 0);
	fputs("new\n", of.fp);
	ck_assert_int_eq(outfile_commit(&of, &err), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_str_eq(content(path), "new\n");
	ck_assert_int_eq(entries(), 2);
}
END_TEST

/* A name of this process's descriptor (/proc/self/fd/N, /dev/fd/N) is
 * written through the descriptor, after what it already holds, and the
 * file it leads to is not replaced. */
START_TEST(test_descriptor_in_place)
{
	char path[4352], name[64];
	struct outfile of;
	struct errbuf err;
	if (access("/proc/self/fd", F_OK) != 0)
		return;
	put(at(path, "log.txt"), "");
	FILE *f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	fputs("kept\n", f);
	fflush(f);
	struct stat before, after;
	ck_assert_int_eq(stat(path, &before), 0);
	const char *names[] = { "/proc/self/fd/%d", "/dev/fd/%d" };
	for (int k = 0; k < 2; k++) {
		snprintf(name, sizeof name, names[k], fileno(f));
		ck_assert_int_eq(outfile_open(&of, name, &err), 0);
		ck_assert_ptr_null(of.tmp);
		fprintf(of.fp, "new %d\n", k);
		ck_assert_int_eq(outfile_commit(&of, &err), 0);
	}
	ck_assert_str_eq(content(path), "kept\nnew 0\nnew 1\n");
	ck_assert_int_eq(stat(path, &after), 0);
	ck_assert(before.st_ino == after.st_ino); /* the same file */
	ck_assert_int_eq(fputs("still open\n", f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

/* A descriptor open only for reading cannot be written. */
START_TEST(test_descriptor_read_only)
{
	char path[4352], name[64];
	struct outfile of;
	struct errbuf err;
	if (access("/proc/self/fd", F_OK) != 0)
		return;
	put(at(path, "in.txt"), "input\n");
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	snprintf(name, sizeof name, "/proc/self/fd/%d", fileno(f));
	ck_assert_int_eq(outfile_open(&of, name, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "expected a descriptor open for "
				     "writing"));
	fclose(f);
	ck_assert_str_eq(content(path), "input\n");
	ck_assert_int_eq(entries(), 1);
}
END_TEST

/* A dangling link: the file it names is created and the link kept. */
START_TEST(test_symlink_dangling)
{
	char path[4352], link[4352];
	struct outfile of;
	struct errbuf err;
	ck_assert_int_eq(symlink("new.svg", at(link, "link.svg")), 0);
	ck_assert_int_eq(outfile_open(&of, link, &err), 0);
	fputs("new\n", of.fp);
	ck_assert_int_eq(outfile_commit(&of, &err), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_str_eq(content(at(path, "new.svg")), "new\n");
	ck_assert_int_eq(entries(), 2);
}
END_TEST

/* A loop of links is an error that creates nothing. */
START_TEST(test_symlink_loop)
{
	char a[4352], b[4352];
	struct outfile of;
	struct errbuf err;
	ck_assert_int_eq(symlink("b", at(a, "a")), 0);
	ck_assert_int_eq(symlink("a", at(b, "b")), 0);
	ck_assert_int_eq(outfile_open(&of, a, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ELOOP)));
	ck_assert_int_eq(outfile_open(&of, "", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));
	ck_assert_int_eq(entries(), 2);
}
END_TEST

/* In a child: opens n files dir/f0 ... (as diagram --all-steps does),
 * writes part of each, and raises SIGTERM: the child must die of it, and
 * every temporary file must be gone. */
static void sigterm_writing(int n)
{
	char path[4352];
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct outfile of[8];
		struct errbuf err;
		signal(SIGTERM, SIG_DFL); /* not Check's handler */
		for (int k = 0; k < n && k < 8; k++) {
			char name[32];
			snprintf(name, sizeof name, "f%d", k);
			if (outfile_open(&of[k], at(path, name), &err) != 0)
				_exit(3);
			fputs("half", of[k].fp);
			fflush(of[k].fp);
		}
		raise(SIGTERM);
		_exit(4); /* not reached */
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGTERM);
	ck_assert_int_eq(entries(), 0);
}

/* SIGTERM while the file is being written: the process still dies of it,
 * and the temporary file is gone. */
START_TEST(test_signal_removes_temp)
{
	sigterm_writing(1);
}
END_TEST

/* In a child, with sig's disposition set to disp (not Check's handler):
 * opens dir/align.svg, writes part of it, then dies the way die() says.
 * Returns the child's wait status. */
static int die_writing(void (*die)(int), int sig, void (*disp)(int))
{
	char path[4352];
	at(path, "align.svg");
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };
		struct outfile of;
		struct errbuf err;
		setrlimit(RLIMIT_CORE, &no_core);
		signal(sig, disp);
		if (!freopen("/dev/null", "w", stderr))
			_exit(5);
		if (outfile_open(&of, path, &err) != 0)
			_exit(3);
		fputs("half", of.fp);
		fflush(of.fp);
		die(sig);
		_exit(4); /* not reached */
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

static void die_raise(int sig)
{
	raise(sig);
}

static void die_out_of_memory(int sig)
{
	(void)sig;
	util_out_of_memory();
}

/* Every signal that ends the process removes the temporary file, and the
 * process still dies of it. */
START_TEST(test_fatal_signals_remove_temp)
{
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
			     SIGXFSZ, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM,
			     SIGPROF, SIGXCPU, SIGABRT, SIGSEGV, SIGRTMIN,
			     SIGRTMAX };
	for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
		int status = die_writing(die_raise, sigs[k], SIG_DFL);
		ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sigs[k],
			      "signal %d: status %d", sigs[k], status);
		ck_assert_msg(entries() == 0, "signal %d left a file", sigs[k]);
	}
}
END_TEST

/* Running out of memory aborts, and removes the temporary file. */
START_TEST(test_out_of_memory_removes_temp)
{
	int status = die_writing(die_out_of_memory, SIGABRT, SIG_DFL);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	ck_assert_int_eq(entries(), 0);
	/* ignoring SIGABRT does not stop abort() */
	status = die_writing(die_out_of_memory, SIGABRT, SIG_IGN);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	ck_assert_int_eq(entries(), 0);
}
END_TEST

/* The handlers are installed only while a temporary file exists, and an
 * ignored signal stays ignored. */
START_TEST(test_handlers_restored)
{
	char path[4352];
	struct outfile of;
	struct errbuf err;
	struct sigaction sa;
	signal(SIGINT, SIG_DFL); /* Check may have its own */
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	ck_assert_int_eq(outfile_open(&of, at(path, "a.svg"), &err), 0);
	sigaction(SIGTERM, NULL, &sa);
	ck_assert(sa.sa_handler != SIG_DFL);
	sigaction(SIGHUP, NULL, &sa);
	ck_assert(sa.sa_handler == SIG_IGN);
	ck_assert_int_eq(outfile_commit(&of, &err), 0);
	sigaction(SIGTERM, NULL, &sa);
	ck_assert(sa.sa_handler == SIG_DFL);
	sigaction(SIGINT, NULL, &sa);
	ck_assert(sa.sa_handler == SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}
END_TEST

/* outfile_commit_all: one file that cannot be finished (a write error
 * kept by outfile_wrote) means none is renamed, and the old ones keep
 * their content; with all whole, all are replaced. */
START_TEST(test_commit_all_or_none)
{
	char path[3][4352];
	struct outfile of[3];
	struct errbuf err;
	for (int k = 0; k < 3; k++) {
		char name[32];
		snprintf(name, sizeof name, "step-%d.svg", k + 1);
		put(at(path[k], name), "old\n");
	}
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(outfile_open(&of[k], path[k], &err), 0);
		fputs("new\n", of[k].fp);
	}
	/* the last one cannot be written: its descriptor is made read-only,
	 * so that the flush fails, as a full disk would */
	int ro = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(ro, 0);
	ck_assert_int_ge(dup2(ro, fileno(of[2].fp)), 0);
	close(ro);
	ck_assert_int_ne(outfile_commit_all(of, 3, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "step-3.svg: "));
	for (int k = 0; k < 3; k++)
		ck_assert_str_eq(content(path[k]), "old\n");
	ck_assert_int_eq(entries(), 3); /* no temporary file */
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(outfile_open(&of[k], path[k], &err), 0);
		fputs("new\n", of[k].fp);
	}
	ck_assert_int_eq(outfile_commit_all(of, 3, &err), 0);
	for (int k = 0; k < 3; k++)
		ck_assert_str_eq(content(path[k]), "new\n");
	ck_assert_int_eq(entries(), 3);
}
END_TEST

/* A signal while several outfiles are open removes every temporary
 * file, not only the first one's. */
START_TEST(test_signal_removes_every_temp)
{
	sigterm_writing(8);
}
END_TEST

/* Slots are given back: after a commit and an abort, a new outfile is
 * guarded again, and the handlers are the earlier ones when none is
 * open. */
START_TEST(test_slots_reused)
{
	char a[4352], b[4352];
	struct outfile of[2];
	struct errbuf err;
	struct sigaction before, now;
	sigaction(SIGTERM, NULL, &before);
	ck_assert_int_eq(outfile_open(&of[0], at(a, "a"), &err), 0);
	ck_assert_int_eq(outfile_open(&of[1], at(b, "b"), &err), 0);
	ck_assert_int_ne(of[0].guarded, 0);
	ck_assert_int_ne(of[1].guarded, 0);
	ck_assert_int_ne(of[0].guarded, of[1].guarded);
	ck_assert_int_eq(outfile_commit(&of[0], &err), 0);
	sigaction(SIGTERM, NULL, &now);
	ck_assert(now.sa_handler != before.sa_handler); /* b is guarded */
	outfile_abort(&of[1]);
	sigaction(SIGTERM, NULL, &now);
	ck_assert(now.sa_handler == before.sa_handler);
	ck_assert_int_eq(entries(), 1); /* a */
}
END_TEST

/* outfile_same_fd: a descriptor open on the input is the input. */
START_TEST(test_same_fd)
{
	char path[4352], other[4352];
	put(at(path, "in.pairs"), "je\n");
	put(at(other, "other"), "x\n");
	int fd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(outfile_same_fd(fd, path), 1);
	ck_assert_int_eq(outfile_same_fd(fd, other), 0);
	ck_assert_int_eq(outfile_same_fd(fd, NULL), 0);
	close(fd);
	fd = open("/dev/null", O_WRONLY);
	ck_assert_int_eq(outfile_same_fd(fd, "/dev/null"), 0);
	close(fd);
}
END_TEST

static Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("outfile");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_commit_creates);
	tcase_add_test(tc, test_commit_replaces_keeping_mode);
	tcase_add_test(tc, test_abort_keeps_old);
	tcase_add_test(tc, test_missing_directory);
	tcase_add_test(tc, test_unwritable_directory);
	tcase_add_test(tc, test_unwritable_proc);
	tcase_add_test(tc, test_long_name);
	tcase_add_test(tc, test_unwritable_directory_blamed);
	tcase_add_test(tc, test_dev_full);
	tcase_add_test(tc, test_error_removes_temp);
	tcase_add_test(tc, test_stdout);
	tcase_add_test(tc, test_symlink_followed);
	tcase_add_test(tc, test_descriptor_in_place);
	tcase_add_test(tc, test_descriptor_read_only);
	tcase_add_test(tc, test_symlink_dangling);
	tcase_add_test(tc, test_symlink_loop);
	tcase_add_test(tc, test_signal_removes_temp);
	tcase_add_test(tc, test_handlers_restored);
	tcase_add_test(tc, test_fatal_signals_remove_temp);
	tcase_add_test(tc, test_out_of_memory_removes_temp);
	tcase_add_test(tc, test_commit_all_or_none);
	tcase_add_test(tc, test_signal_removes_every_temp);
	tcase_add_test(tc, test_slots_reused);
	tcase_add_test(tc, test_same_fd);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(outfile_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
