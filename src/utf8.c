/* utf8.c: the little UTF-8 that attn-trace needs, independent of locale. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include <utf8proc.h>

#include "utf8.h"
#include "util.h"

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

/* The small letter of cp by Unicode's simple lower-case mapping
 * (utf8proc_tolower), or cp itself. */
static unsigned long utf8_fold_cp(unsigned long cp)
{
	return (unsigned long)utf8proc_tolower((utf8proc_int32_t)cp);
}

/* Folds s[0..n) code point by code point into out (room for 4n bytes),
 * copying invalid bytes unchanged; returns the bytes written. */
static size_t utf8_fold_raw(const char *s, size_t n, char *out)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, len;
	unsigned long cp;

	while (i < n) {
		len = utf8_decode(u + i, n - i, &cp);
		if (len == 0) {
			out[o++] = s[i++];
			continue;
		}
		o += utf8_encode(utf8_fold_cp(cp), out + o);
		i += len;
	}
	return o;
}

/* Folding may change a character's length (U+0130 is 2 bytes, its small
 * letter 'i' one), so the result is sized afresh; it is then put into
 * NFC, which the folding of a decomposed word may have left. */
char *utf8_fold(const char *s, size_t n)
{
	char *raw = xmalloc(4 * n + 1);
	size_t len = utf8_fold_raw(s, n, raw);
	char *out = utf8_nfc(raw, len);

	free(raw);
	return out;
}

char *utf8_nfc(const char *s, size_t n)
{
	utf8proc_uint8_t *dst = NULL;
	utf8proc_ssize_t len;

	if (utf8_valid_prefix(s, n) < n || memchr(s, '\0', n))
		return xstrndup(s, n); /* not text utf8proc takes: as is */
	len = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n,
			   &dst, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
	if (len == UTF8PROC_ERROR_NOMEM)
		util_out_of_memory();
	if (len < 0)
		return xstrndup(s, n);
	char *out = xstrndup((const char *)dst, (size_t)len);
	free(dst);
	return out;
}

/* Invalid bytes and the C0 and C1 controls take one column each (they
 * are shown escaped); every other character takes what utf8proc says. */
int utf8_width(const char *s)
{
	return utf8_width_n(s, strlen(s));
}

int utf8_width_n(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, len;
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
		if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
			w++;
		else
			w += utf8proc_charwidth((utf8proc_int32_t)cp);
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

/* The length of the character at s (n bytes left) that may be copied as
 * it is, or 0 if its first byte is to be written as \xNN. */
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
