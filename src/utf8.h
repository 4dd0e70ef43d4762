/* utf8.h: the little UTF-8 that attn-trace needs, independent of locale. */
#ifndef ATTN_UTF8_H
#define ATTN_UTF8_H

#include <stddef.h>

/* Returns the number of bytes in the longest valid UTF-8 prefix of s[0..n).
 * Overlong forms, surrogates and code points past U+10FFFF are invalid. */
size_t utf8_valid_prefix(const char *s, size_t n);

/* Returns the length in bytes of the character at s, a NUL-terminated
 * string: that of the valid UTF-8 sequence it starts (1 to 4), 1 for a byte
 * that starts none (a stray or cut-off byte, an overlong form...), and 0
 * at the NUL.  It never reads past the NUL, so stepping a string by it
 * stops there, whatever the bytes. */
size_t utf8_char_len(const char *s);

/* Returns a newly allocated, case-folded copy of the UTF-8 string
 * s[0..n), in Unicode Normalization Form C: every capital becomes its
 * small letter by Unicode's simple lower-case mapping (utf8proc), code
 * point by code point, so that "ÉTUDIANT" and "étudiant" fold alike; ß
 * and other letters without a one-letter small form are kept.  Invalid
 * bytes are copied unchanged (and the copy is then not normalised).
 * This is how every word is matched: the model's, the sentence's, the
 * pairs file's.  The caller frees it. */
char *utf8_fold(const char *s, size_t n);

/* Returns a newly allocated copy of s[0..n) in Unicode Normalization Form
 * C (utf8proc), so that "e" followed by U+0301 becomes the one character
 * "é" a keyboard may also have typed.  A string that is not valid UTF-8,
 * or holds a NUL, is copied as it is, for the caller to refuse.  The
 * result may be shorter or (rarely) longer than n.  The caller frees
 * it. */
char *utf8_nfc(const char *s, size_t n);

/* Returns the number of terminal columns s (valid UTF-8, NUL-terminated)
 * takes, by utf8proc's widths (East Asian wide characters 2, combining
 * marks 0); controls and invalid bytes count 1 each. */
int utf8_width(const char *s);

/* The same for the n bytes s[0..n), which need not end in a NUL. */
int utf8_width_n(const char *s, size_t n);

/* Returns the number of code points in the NUL-terminated string s. */
size_t utf8_len(const char *s);

/* Returns the length in bytes (2 or 3) of the bidirectional formatting
 * character that s[0..n) starts with, or 0 if it starts with none: the
 * embeddings and overrides U+202A .. U+202E, the isolates U+2066 ..
 * U+2069 and the marks U+200E, U+200F and U+061C.  Such a character
 * changes the order in which a terminal shows the text around it, so
 * that what a reader sees is not what is there. */
size_t utf8_bidi_len(const char *s, size_t n);

/* The code point of the bidirectional formatting character at s, which
 * utf8_bidi_len() found there: U+202E is 0x202E. */
unsigned long utf8_bidi_code(const char *s);

/* Returns a newly allocated copy of the NUL-terminated s in which every
 * byte that could drive a terminal or is not UTF-8 is written as the four
 * characters \xNN: the C0 controls but the tab, DEL, the C1 controls
 * (U+0080 .. U+009F), the bidirectional formatting characters
 * (utf8_bidi_len(), each of their bytes) and every byte that is not part
 * of a valid UTF-8 character.  The copy is valid UTF-8 with no control but tab, so it can
 * be printed, put into JSON or into a model file's comment, and read
 * back.  This is how attn-trace shows every name it did not make: file
 * names above all.  The caller frees it. */
char *utf8_safe(const char *s);

#endif
