/* lesson_dir.c: where the lessons are, and finding one by number, by name
 * or by path. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "lesson.h"
#include "paths.h"
#include "suggest.h"
#include "utf8.h"

#define LESSON_EXT ".lesson"

/* 1 if paths a and b name the same directory (or file). */
static int ld_same(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* 1 if this process is the program in the build tree it was built in
 * (ABS_TOP_BUILDDIR/src/attn-trace), not an installed copy: the directory
 * of /proc/self/exe is ABS_TOP_BUILDDIR/src.  0 wherever /proc/self/exe
 * cannot say, so such a system uses the installed lessons. */
static int ld_uninstalled(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0 || (size_t)n >= sizeof exe - 1)
		return 0;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash || strcmp(slash + 1, "attn-trace") != 0)
		return 0;
	*slash = '\0';
	return ld_same(exe, ABS_TOP_BUILDDIR "/src");
}

const char *lesson_dir(void)
{
	const char *env = getenv("ATTN_TRACE_LESSONS");
	if (env && *env)
		return env;
	return ld_uninstalled() ? ABS_TOP_SRCDIR "/lessons"
				: PKGDATADIR "/lessons";
}

const char *lesson_installed_dir(void)
{
	return PKGDATADIR "/lessons";
}

/* 1 if name ends in ".lesson" and has something before it. */
static int ld_is_lesson(const char *name)
{
	size_t n = strlen(name), e = strlen(LESSON_EXT);
	return n > e && name[0] != '.' &&
	       strcmp(name + n - e, LESSON_EXT) == 0;
}

static int ld_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir "/" name, newly allocated. */
static char *ld_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *s = xmalloc(n);
	snprintf(s, n, "%s/%s", dir, name);
	return s;
}

/* The file names of the lessons in dir, sorted, into *names; returns the
 * count, or -1 with err filled. */
static int ld_names(const char *dir, char ***names, struct errbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, cap = 0;
	*names = NULL;
	if (!d) {
		err_set(err, _("cannot open the lesson directory %s: %s (set "
			"ATTN_TRACE_LESSONS to the directory that holds the "
			"*.lesson files)"), dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (!ld_is_lesson(e->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			*names = xreallocarray(*names, (size_t)cap,
					       sizeof **names);
		}
		(*names)[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(*names, (size_t)n, sizeof **names, ld_cmp);
	return n;
}

static void ld_free_names(char **names, int n)
{
	for (int k = 0; k < n; k++)
		free(names[k]);
	free(names);
}

int lesson_list(char ***paths, struct errbuf *err)
{
	const char *dir = lesson_dir();
	int n = ld_names(dir, paths, err);
	for (int k = 0; k < n; k++) {
		char *full = ld_join(dir, (*paths)[k]);
		free((*paths)[k]);
		(*paths)[k] = lesson_localize(full);
		free(full);
	}
	return n;
}

char *lesson_next(const char *path)
{
	struct errbuf err;
	char **paths = NULL, *next = NULL;
	int n = lesson_list(&paths, &err), at = -1;
	for (int k = 0; k < n && at < 0; k++)
		if (ld_same(paths[k], path))
			at = k;
	if (at >= 0 && at + 1 == n) {
		next = xstrdup(_("This was the last lesson; attn-trace "
				 "lessons lists them all."));
	} else if (at >= 0) {
		const char *file = strrchr(paths[at + 1], '/');
		struct lesson l;
		int num = atoi(file ? file + 1 : paths[at + 1]);
		int ok = lesson_load(&l, paths[at + 1], &err) == 0;
		size_t size = strlen(paths[at + 1]) + 256 +
			      (ok && l.title ? strlen(l.title) : 0);
		next = xmalloc(size);
		/* TRANSLATORS: %1$d the next lesson's number, %2$s its
		 * title */
		snprintf(next, size, _("Next: lesson %1$d, \"%2$s\": "
				       "attn-trace lesson %1$d"), num,
			 ok && l.title ? l.title : "");
		if (ok)
			lesson_free(&l);
	}
	for (int k = 0; k < n; k++)
		free(paths[k]);
	free(paths);
	return next;
}

/* The name of a lesson file, newly allocated: "softmax" for
 * "06-softmax.lesson" and for "softmax.lesson". */
static char *ld_name(const char *file)
{
	size_t d = strspn(file, "0123456789");
	size_t n = strlen(file) - strlen(LESSON_EXT);
	if (d > 0 && d < n && file[d] == '-')
		return xstrndup(file + d + 1, n - d - 1);
	return xstrndup(file, n);
}

/* 1 if a and b are the same but for case, as words are matched. */
static int ld_same_folded(const char *a, const char *b)
{
	char *fa = utf8_fold(a, strlen(a)), *fb = utf8_fold(b, strlen(b));
	int same = strcmp(fa, fb) == 0;
	free(fa);
	free(fb);
	return same;
}

/* 1 if file is the lesson that want names: "3" or "03" matches "03-x.lesson"
 * and "softmax" (in any case) matches "NN-softmax.lesson" (or
 * "softmax.lesson"), as "06-softmax" matches "06-softmax.lesson".  With
 * renamed set, a full name matches by its name alone, whatever its number:
 * "19-local", the name local had before the lessons were renumbered,
 * matches "17-local.lesson". */
static int ld_match(const char *file, const char *want, int number,
		    int renamed)
{
	size_t d = strspn(file, "0123456789");
	if (number >= 0)
		return d > 0 && d <= 6 && file[d] == '-' &&
		       atoi(file) == number;
	size_t n = strlen(file) - strlen(LESSON_EXT);
	char *whole = xstrndup(file, n), *name = ld_name(file);
	size_t wd = strspn(want, "0123456789");
	int yes = renamed ? wd > 0 && want[wd] == '-' &&
			    ld_same_folded(name, want + wd + 1)
			  : ld_same_folded(whole, want) ||
			    ld_same_folded(name, want);
	free(whole);
	free(name);
	return yes;
}

/* Writes " (did you mean 'NAME'?)" into hint for the lesson of names[0..n)
 * that want most likely meant, or "" if none is close. */
static void ld_suggest(char *hint, size_t size, char **names, int n,
		       const char *want)
{
	char **short_names = xreallocarray(NULL, (size_t)n + 1,
					   sizeof *short_names);
	for (int k = 0; k < n; k++)
		short_names[k] = ld_name(names[k]);
	const char *near = suggest_closest(want,
					   (const char *const *)short_names, n);
	hint[0] = '\0';
	if (near)
		snprintf(hint, size, _("; did you mean '%s'?"), near);
	for (int k = 0; k < n; k++)
		free(short_names[k]);
	free(short_names);
}

/* The number that name writes, or -1 if it is not all digits. */
static int ld_number(const char *name)
{
	size_t d = strspn(name, "0123456789");
	if (d == 0 || name[d] != '\0' || d > 6)
		return -1;
	return atoi(name);
}

char *lesson_find(const char *name, struct errbuf *err)
{
	size_t len = strlen(name), e = strlen(LESSON_EXT);
	if (strchr(name, '/') || (len > e && strcmp(name + len - e,
						    LESSON_EXT) == 0))
		return xstrdup(name);
	const char *dir = lesson_dir();
	char **names;
	int n = ld_names(dir, &names, err), number = ld_number(name);
	if (n < 0)
		return NULL;
	char *found = NULL, hint[160] = "";
	/* an exact name first, then an old full name by its name alone */
	for (int pass = 0; pass < 2 && !found; pass++)
		for (int k = 0; k < n && !found; k++)
			if (ld_match(names[k], name, number, pass)) {
				char *en = ld_join(dir, names[k]);
				found = lesson_localize(en);
				free(en);
			}
	if (!found && number < 0)
		ld_suggest(hint, sizeof hint, names, n, name);
	ld_free_names(names, n);
	if (!found)
		err_set(err, number >= 0 ? _("no lesson number \"%s\" in "
			"%s%s ('attn-trace lessons' lists them; "
			"ATTN_TRACE_LESSONS names another directory)")
			: _("no lesson named \"%s\" in %s%s ('attn-trace "
			"lessons' lists them; ATTN_TRACE_LESSONS names "
			"another directory)"), name, dir, hint);
	return found;
}
