/* utf8.c: the little UTF-8 that attn-trace needs, independent of locale. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"
#include "util.h"

/* A closed range of code points. */
struct utf8_range {
	unsigned long lo, hi;
};

/* East Asian wide and fullwidth characters: two columns. */
static const struct utf8_range utf8_wide[] = {
	{ 0x1100, 0x115F },   /* Hangul Jamo initials */
	{ 0x2E80, 0x303E },   /* CJK radicals .. CJK symbols */
	{ 0x3041, 0xA4CF },   /* kana .. Yi */
	{ 0xAC00, 0xD7A3 },   /* Hangul syllables */
	{ 0xF900, 0xFAFF },   /* CJK compatibility ideographs */
	{ 0xFE30, 0xFE4F },   /* CJK compatibility forms */
	{ 0xFF00, 0xFF60 },   /* fullwidth forms */
	{ 0xFFE0, 0xFFE6 },   /* fullwidth signs */
	{ 0x1F300, 0x1F64F }, /* pictographs and emoticons */
	{ 0x1F900, 0x1F9FF }, /* supplemental pictographs */
	{ 0x20000, 0x3FFFD }, /* CJK extensions B and beyond */
};

/* Combining marks and other zero-width characters: no column. */
static const struct utf8_range utf8_zero[] = {
	{ 0x0300, 0x036F }, /* combining diacritical marks */
	{ 0x0483, 0x0489 }, /* Cyrillic combining marks */
	{ 0x0591, 0x05BD }, /* Hebrew points */
	{ 0x0610, 0x061A }, /* Arabic marks */
	{ 0x064B, 0x065F }, /* Arabic vowel marks */
	{ 0x0E31, 0x0E31 }, /* Thai */
	{ 0x0E34, 0x0E3A },
	{ 0x0E47, 0x0E4E },
	{ 0x1AB0, 0x1AFF }, /* combining diacritical marks extended */
	{ 0x1DC0, 0x1DFF }, /* combining diacritical marks supplement */
	{ 0x200B, 0x200F }, /* zero width space, joiners, marks */
	{ 0x20D0, 0x20FF }, /* combining marks for symbols */
	{ 0xFE00, 0xFE0F }, /* variation selectors */
	{ 0xFE20, 0xFE2F }, /* combining half marks */
};

/* Decodes the code point at s[0..n), n >= 1.  Returns its length in bytes
 * (1 to 4), or 0 if s does not start with a valid UTF-8 sequence. */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned long *cp)
{
	size_t len, i;
	unsigned long c = s[0], min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF)
		len = 2, c &= 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, c &= 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

/* Writes cp as UTF-8 into out and returns its length. */
static size_t utf8_encode(unsigned long cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t utf8_valid_prefix(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, len;
	unsigned long cp;

	while (i < n) {
		len = utf8_decode(u + i, n - i, &cp);
		if (len == 0)
			break;
		i += len;
	}
	return i;
}

size_t utf8_char_len(const char *s)
{
	unsigned long cp;

	if (!*s)
		return 0;
	size_t len = utf8_decode((const unsigned char *)s, strnlen(s, 4), &cp);
	return len ? len : 1;
}

/* In blocks where capitals and small letters alternate, returns the small
 * letter of cp; caps_odd says whether the capitals sit at odd code points. */
static unsigned long utf8_pair(unsigned long cp, int caps_odd)
{
	return (int)(cp & 1) == caps_odd ? cp + 1 : cp;
}

/* Latin Extended-A, U+0100..U+017F. */
static unsigned long utf8_fold_latin_a(unsigned long cp)
{
	if (cp == 0x0130 || cp == 0x0131 || cp == 0x0138 || cp == 0x0149 ||
	    cp == 0x017F)
		return cp; /* dotted I, dotless i, kra, 'n, long s */
	if (cp == 0x0178)
		return 0x00FF; /* Y with diaeresis */
	if (cp <= 0x0137 || (cp >= 0x014A && cp <= 0x0177))
		return utf8_pair(cp, 0);
	return utf8_pair(cp, 1); /* 0139..0148 and 0179..017E */
}

/* Greek, U+0370..U+03FF. */
static unsigned long utf8_fold_greek(unsigned long cp)
{
	if (cp >= 0x0391 && cp <= 0x03AB && cp != 0x03A2)
		return cp + 0x20;
	if (cp == 0x0386)
		return 0x03AC;
	if (cp >= 0x0388 && cp <= 0x038A)
		return cp + 0x25;
	if (cp == 0x038C)
		return 0x03CC;
	if (cp == 0x038E || cp == 0x038F)
		return cp + 0x3F;
	if (cp == 0x0370 || cp == 0x0372 || cp == 0x0376 ||
	    (cp >= 0x03D8 && cp <= 0x03EF))
		return utf8_pair(cp, 0);
	if (cp == 0x037F)
		return 0x03F3;
	if (cp == 0x03CF)
		return 0x03D7;
	return cp;
}

/* Cyrillic, U+0400..U+052F. */
static unsigned long utf8_fold_cyrillic(unsigned long cp)
{
	if (cp <= 0x040F)
		return cp + 0x50;
	if (cp <= 0x042F)
		return cp + 0x20;
	if ((cp >= 0x0460 && cp <= 0x0481) || (cp >= 0x048A && cp <= 0x04BF) ||
	    cp >= 0x04D0)
		return utf8_pair(cp, 0);
	if (cp == 0x04C0)
		return 0x04CF;
	if (cp >= 0x04C1 && cp <= 0x04CE)
		return utf8_pair(cp, 1);
	return cp;
}

/* Returns the small letter of a capital cp, or cp itself. */
static unsigned long utf8_fold_cp(unsigned long cp)
{
	if (cp >= 'A' && cp <= 'Z')
		return cp + 0x20;
	if (cp >= 0x00C0 && cp <= 0x00DE && cp != 0x00D7)
		return cp + 0x20;
	if (cp >= 0x0100 && cp <= 0x017F)
		return utf8_fold_latin_a(cp);
	if (cp >= 0x0370 && cp <= 0x03FF)
		return utf8_fold_greek(cp);
	if (cp >= 0x0400 && cp <= 0x052F)
		return utf8_fold_cyrillic(cp);
	return cp;
}

/* Every mapping above stays within its UTF-8 length (1 or 2 bytes), so the
 * result is exactly as long as s.  Invalid bytes are copied unchanged. */
char *utf8_fold(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	char *out = xmalloc(n + 1);
	char enc[4];
	size_t i = 0, len;
	unsigned long cp;

	while (i < n) {
		len = utf8_decode(u + i, n - i, &cp);
		if (len == 0) {
			out[i] = s[i];
			i++;
			continue;
		}
		if (utf8_encode(utf8_fold_cp(cp), enc) == len)
			memcpy(out + i, enc, len);
		else
			memcpy(out + i, s + i, len);
		i += len;
	}
	out[n] = '\0';
	return out;
}

static int utf8_in(const struct utf8_range *r, size_t n, unsigned long cp)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cp >= r[i].lo && cp <= r[i].hi)
			return 1;
	return 0;
}

#define UTF8_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Invalid bytes take one column each. */
int utf8_width(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n = strlen(s), len;
	unsigned long cp;
	int w = 0;

	while (i < n) {
		len = utf8_decode(u + i, n - i, &cp);
		if (len == 0) {
			w++;
			i++;
			continue;
		}
		i += len;
		if (utf8_in(utf8_zero, UTF8_COUNT(utf8_zero), cp))
			continue;
		w += utf8_in(utf8_wide, UTF8_COUNT(utf8_wide), cp) ? 2 : 1;
	}
	return w;
}

/* Invalid bytes count one each. */
size_t utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n = strlen(s), len, count = 0;
	unsigned long cp;

	while (i < n) {
		len = utf8_decode(u + i, n - i, &cp);
		i += len ? len : 1;
		count++;
	}
	return count;
}

/* The length of the character at s (n bytes left) that may be copied as
 * it is, or 0 if its first byte is to be written as \xNN. */
unsigned long utf8_bidi_code(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	if (s[0] < 0xE0)
		return ((s[0] & 0x1Ful) << 6) | (s[1] & 0x3Ful);
	return ((s[0] & 0x0Ful) << 12) | ((s[1] & 0x3Ful) << 6) |
	       (s[2] & 0x3Ful);
}

size_t utf8_bidi_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	if (n >= 2 && s[0] == 0xD8 && s[1] == 0x9C)
		return 2;                                 /* U+061C */
	if (n < 3 || s[0] != 0xE2)
		return 0;
	if (s[1] == 0x80 && (s[2] == 0x8E || s[2] == 0x8F ||
			     (s[2] >= 0xAA && s[2] <= 0xAE)))
		return 3;           /* U+200E, U+200F, U+202A .. U+202E */
	if (s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9)
		return 3;                         /* U+2066 .. U+2069 */
	return 0;
}

static size_t utf8_safe_char(const unsigned char *s, size_t n)
{
	size_t len;
	if (*s < 0x80)
		return (*s < 0x20 && *s != '\t') || *s == 0x7F ? 0 : 1;
	len = *s >= 0xF0 ? 4 : *s >= 0xE0 ? 3 : 2;
	if (len > n || utf8_valid_prefix((const char *)s, len) != len ||
	    utf8_bidi_len((const char *)s, len))
		return 0;
	return s[0] == 0xC2 && s[1] < 0xA0 ? 0 : len;
}

char *utf8_safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), used = 0;
	char *out;

	if (n > (SIZE_MAX - 1) / 4)
		util_out_of_memory();
	out = xmalloc(4 * n + 1); /* at worst, every byte as \xNN */

	while (n > 0) {
		size_t len = utf8_safe_char(p, n);
		if (len == 0) {
			snprintf(out + used, 5, "\\x%02x", *p);
			used += 4;
			len = 1;
		} else {
			memcpy(out + used, p, len);
			used += len;
		}
		p += len;
		n -= len;
	}
	out[used] = '\0';
	return out;
}
