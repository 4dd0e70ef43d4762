/* fmt_mark.c: --set's marks in the text trace (doc/trace-format.md,
 * "What-if: --set").  Under each line of the edited trace whose numbers
 * differ from the same line of the unedited trace goes a line "was" with
 * the old numbers, each in the column of the new one, the unchanged
 * ones left blank. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "utf8.h"
#include "util.h"

#define MARK_MAX_NUMS 512 /* numbers of a line compared; past it, none */

/* A number of a line: its first byte and its length. */
struct mark_num {
	size_t at, len;
};

static int mark_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* 1 if the byte before a number may not be part of a name ("e_1,2",
 * "h_3" have digits, but no point). */
static int mark_starts(const char *s, size_t i)
{
	char c = i ? s[i - 1] : ' ';
	return !(mark_digit(c) || c == '_' || c == '.' ||
		 (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* The numbers of line s (n bytes) as the trace writes them, "-?D+.D+",
 * into out (max); returns how many, or -1 past max. */
static int mark_nums(const char *s, size_t n, struct mark_num *out, int max)
{
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = i + (s[i] == '-');
		if (j >= n || !mark_digit(s[j]) || !mark_starts(s, i))
			continue;
		while (j < n && mark_digit(s[j]))
			j++;
		if (j + 1 < n && s[j] == '.' && mark_digit(s[j + 1])) {
			for (j++; j < n && mark_digit(s[j]); j++)
				;
			if (count == max)
				return -1;
			out[count].at = i;
			out[count++].len = j - i;
		}
		i = j - 1;
	}
	return count;
}

/* The next byte of a line's words from *p on (up to end, and up to the
 * next number's start, stop), past the spaces and parentheses that a
 * number's sign moves (" 0.5" and "-0.5", "(-0.5)" and "0.5" as a
 * factor); -1 at stop. */
static int mark_word_byte(const char *s, size_t *p, size_t stop)
{
	while (*p < stop && (s[*p] == ' ' || s[*p] == '(' || s[*p] == ')'))
		++*p;
	return *p < stop ? (unsigned char)s[(*p)++] : -1;
}

/* 1 if lines a and b (na, nb bytes, with the numbers an and bn, count
 * of each) are the same but for their numbers (and the spaces and
 * parentheses around them). */
static int mark_same_words(const char *a, size_t na, const struct mark_num *an,
			   const char *b, size_t nb, const struct mark_num *bn,
			   int count)
{
	size_t pa = 0, pb = 0;
	for (int k = 0; k <= count; k++) {
		size_t ea = k < count ? an[k].at : na;
		size_t eb = k < count ? bn[k].at : nb;
		int ca, cb;
		do {
			ca = mark_word_byte(a, &pa, ea);
			cb = mark_word_byte(b, &pb, eb);
			if (ca != cb)
				return 0;
		} while (ca >= 0);
		if (k < count) {
			pa = ea + an[k].len;
			pb = eb + bn[k].len;
		}
	}
	return 1;
}

/* The "was" line under new line s (n bytes, numbers sn) from the old
 * line's numbers on (oldn): the line's indent, "was", then each old
 * number that differs, ending in the column where the new one ends (so
 * their points line up), or a space after the one before.  Returns 1 if
 * a number differed. */
static int mark_was(struct fmt_buf *b, const char *s, size_t n,
		    const struct mark_num *sn, const char *old,
		    const struct mark_num *on, int count)
{
	size_t start = b->len;
	int col = (int)strspn(s, " "), any = 0;
	(void)n;
	fmt_buf_spaces(b, col);
	fmt_buf_put(b, "was", 3);
	col += 3;
	for (int k = 0; k < count; k++) {
		if (sn[k].len == on[k].len &&
		    memcmp(s + sn[k].at, old + on[k].at, sn[k].len) == 0)
			continue;
		int at = utf8_width_n(s, sn[k].at + sn[k].len) - (int)on[k].len;
		at = at > col ? at : col + 1;
		fmt_buf_spaces(b, at - col);
		fmt_buf_put(b, old + on[k].at, on[k].len);
		col = at + (int)on[k].len;
		any = 1;
	}
	if (any)
		fmt_buf_putc(b, '\n');
	else
		b->len = start;
	return any;
}

/* One line of the new text and the same line of the old: the new line,
 * then what marks its changes: the aligned "was" line, or, when the line
 * itself differs (another word), "was: " and the whole old line. */
static void mark_line(struct fmt_buf *b, const char *s, size_t n,
		      const char *old, size_t on)
{
	struct mark_num sn[MARK_MAX_NUMS], onum[MARK_MAX_NUMS];
	fmt_buf_put(b, s, n);
	fmt_buf_putc(b, '\n');
	int ns = mark_nums(s, n, sn, MARK_MAX_NUMS);
	int no = mark_nums(old, on, onum, MARK_MAX_NUMS);
	if (ns < 0 || no < 0 || (n == on && memcmp(s, old, n) == 0))
		return;
	if (ns == no && mark_same_words(s, n, sn, old, on, onum, ns)) {
		mark_was(b, s, n, sn, old, onum, ns);
		return;
	}
	/* another word, or another shape: the old line whole */
	fmt_buf_spaces(b, (int)strspn(s, " "));
	fmt_buf_put(b, "was: ", 5);
	fmt_buf_put(b, old + strspn(old, " "), on - strspn(old, " "));
	fmt_buf_putc(b, '\n');
}

/* The number of lines of s (n bytes, each ended by '\n'). */
static size_t mark_count_lines(const char *s, size_t n)
{
	size_t lines = 0;
	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines;
}

void fmt_mark_changes(struct fmt_buf *b, size_t from, const char *old,
		      size_t oldlen)
{
	size_t n = b->len - from;
	if (!n || !oldlen || b->p[b->len - 1] != '\n' || old[oldlen - 1] != '\n')
		return;
	if (mark_count_lines(b->p + from, n) != mark_count_lines(old, oldlen) ||
	    (n == oldlen && memcmp(b->p + from, old, n) == 0))
		return;
	char *s = xmalloc(n);
	memcpy(s, b->p + from, n);
	b->len = from;
	for (size_t i = 0, j = 0; i < n && j < oldlen;) {
		size_t li = (size_t)((char *)memchr(s + i, '\n', n - i) - s);
		size_t lj = (size_t)((char *)memchr(old + j, '\n', oldlen - j)
				     - old);
		mark_line(b, s + i, li - i, old + j, lj - j);
		i = li + 1;
		j = lj + 1;
	}
	free(s);
}
