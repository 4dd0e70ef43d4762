/* linebreak.c: where text may be broken into lines, by display width
 * (the rule is in linebreak.h). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <utf8proc.h>

#include "linebreak.h"
#include "utf8.h"

/* No line starts with one of these (closing punctuation, and the marks
 * that belong to what comes before them). */
static const int32_t lb_closing[] = {
	')', ']', '}', ',', '.', ';', ':', '!', '?', '%',
	0x2019, 0x201D, 0x2026,                 /* ’ ” … */
	0x3001, 0x3002, 0x3005, 0x3009, 0x300B, /* 、。々〉》 */
	0x300D, 0x300F, 0x3011, 0x3015, 0x3017, /* 」』】〕〗 */
	0x3019, 0x301B, 0x301E, 0x301F, 0x303B, /* 〙〛〞〟〻 */
	0x309D, 0x309E, 0x30FB, 0x30FC, 0x30FD, /* ゝゞ・ーヽ */
	0x30FE,
	0xFF01, 0xFF05, 0xFF09, 0xFF0C, 0xFF0E, /* ！％），． */
	0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, /* ：；？］｝ */
	0xFF60, 0xFF61, 0xFF63, 0xFF64,         /* ｠｡｣､ */
};

/* No line ends with one of these (opening punctuation, and the signs
 * that belong to what comes after them). */
static const int32_t lb_opening[] = {
	'(', '[', '{', '$',
	0x2018, 0x201C,                         /* ‘ “ */
	0x3008, 0x300A, 0x300C, 0x300E, 0x3010, /* 〈《「『【 */
	0x3014, 0x3016, 0x3018, 0x301A, 0x301D, /* 〔〖〘〚〝 */
	0xFF04, 0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, /* ＄（［｛｟ */
	0xFF62, 0xFFE5, 0xFFE6,                 /* ｢￥￦ */
};

static int lb_in(int32_t cp, const int32_t *set, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (set[k] == cp)
			return 1;
	return 0;
}

/* The code point at s (len bytes of it), or -1 if it is not valid. */
static int32_t lb_cp(const char *s, size_t len)
{
	utf8proc_int32_t cp;
	if (len == 0 || utf8_valid_prefix(s, len) != len ||
	    utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len,
			     &cp) != (utf8proc_ssize_t)len)
		return -1;
	return cp;
}

static int32_t lb_first(const char *s)
{
	return lb_cp(s, utf8_char_len(s));
}

size_t linebreak_cluster_len(const char *s)
{
	size_t len = utf8_char_len(s), n;
	utf8proc_int32_t state = 0;
	int32_t a = lb_cp(s, len), b;
	if (a < 0)
		return len;
	while ((n = utf8_char_len(s + len)) > 0 &&
	       (b = lb_cp(s + len, n)) >= 0 &&
	       !utf8proc_grapheme_break_stateful(a, b, &state)) {
		len += n;
		a = b;
	}
	return len;
}

static int lb_cp_cjk(int32_t cp)
{
	if (cp < 0)
		return 0;
	if (cp >= 0xFF61 && cp <= 0xFF9F) /* halfwidth kana, punctuation */
		return 1;
	if ((cp >= 0xFF10 && cp <= 0xFF19) || (cp >= 0xFF21 && cp <= 0xFF3A) ||
	    (cp >= 0xFF41 && cp <= 0xFF5A)) /* fullwidth digits, letters */
		return 0;
	return utf8proc_charwidth(cp) == 2;
}

int linebreak_is_cjk(const char *s)
{
	return lb_cp_cjk(lb_first(s));
}

static int lb_blank(char c)
{
	return c == ' ' || c == '\t';
}

int linebreak_between(const char *a, const char *b)
{
	int32_t ca = lb_first(a), cb = lb_first(b);
	if (!*a || !*b || lb_blank(*a) || lb_blank(*b))
		return 0;
	if (lb_in(cb, lb_closing, sizeof lb_closing / sizeof *lb_closing) ||
	    lb_in(ca, lb_opening, sizeof lb_opening / sizeof *lb_opening))
		return 0;
	return lb_cp_cjk(ca) || lb_cp_cjk(cb);
}

/* s[0..end) without its trailing blanks: their length. */
static size_t lb_trim(const char *s, size_t end)
{
	while (end > 0 && lb_blank(s[end - 1]))
		end--;
	return end;
}

size_t linebreak_line(const char *s, size_t n, int room, size_t *next)
{
	size_t pos = 0, prev = 0, end = n;
	int cols = 0, have = 0;
	while (pos < n) {
		int brk = pos > 0 && ((lb_blank(s[pos]) && !lb_blank(s[prev])) ||
				      linebreak_between(s + prev, s + pos));
		if (brk && cols > room) {
			if (!have)
				end = pos; /* the first piece, too wide */
			break;
		}
		if (brk) {
			end = pos;
			have = 1;
		}
		size_t cl = linebreak_cluster_len(s + pos);
		if (cl == 0 || cl > n - pos)
			cl = n - pos;
		cols += utf8_width_n(s + pos, cl);
		prev = pos;
		pos += cl;
	}
	if (pos >= n && (cols <= room || !have))
		end = n;
	end = lb_trim(s, end);
	size_t at = end;
	while (at < n && lb_blank(s[at]))
		at++;
	*next = at;
	return end;
}
