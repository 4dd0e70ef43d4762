/* linebreak.h: where text may be broken into lines, by display width.
 *
 * The rule, the one every wrapper of attn-trace follows (doc/lessons.md,
 * "How text is laid out"):
 *   - widths are terminal columns, utf8_width()'s: a wide or fullwidth
 *     character takes 2, a combining mark 0;
 *   - a grapheme cluster (a character with the combining marks that
 *     follow it) is never split;
 *   - a line may break at a blank (space or tab), which is dropped;
 *   - a line may break on either side of a CJK character (a wide one:
 *     ideographs, kana, hangul, fullwidth punctuation), except that no
 *     line starts with closing punctuation (，。、）」 ... and , . ; : ! ?
 *     ) ] } %) and none ends with opening punctuation (（「《 ... ( [ { “);
 *   - nowhere else: a run of characters that are neither blank nor CJK
 *     (a number such as 0.4213 or -1.5e-3, a symbol such as α_1,1, h_3[2]
 *     or s̃_t, a Latin word) is one unbreakable word.
 * Independent of the locale; no stdio. */
#ifndef ATTN_LINEBREAK_H
#define ATTN_LINEBREAK_H

#include <stddef.h>

/* Returns the length in bytes of the grapheme cluster that starts at s
 * (NUL-terminated): its character and every combining mark, joiner or
 * other extension that utf8proc joins to it; 1 for a byte that starts no
 * valid UTF-8 character; 0 at the NUL. */
size_t linebreak_cluster_len(const char *s);

/* Returns 1 if a line may break between the cluster that starts at a and
 * the one that starts at b, right after it with nothing between, by the
 * rule above; 0 if not, and always 0 when either is a blank (a blank is
 * a break of its own, which callers handle). */
int linebreak_between(const char *a, const char *b);

/* Returns 1 if the cluster at s is CJK for the rule above: its first
 * character is wide (utf8proc width 2) but not a fullwidth letter or
 * digit, or is a halfwidth katakana or halfwidth CJK punctuation. */
int linebreak_is_cjk(const char *s);

/* The first line of s[0..n), a part of a NUL-terminated UTF-8 string,
 * when lines are at most room columns wide (a '\n' counts as an ordinary
 * character, so split the lines first): returns its length in bytes,
 * trailing blanks left out, and sets *next to where the next line starts
 * (blanks skipped; n at the end).  The line is the longest that ends at
 * a break and fits; when even the first unbreakable piece is wider than
 * room, the line is that piece, whole: a word is never cut. */
size_t linebreak_line(const char *s, size_t n, int room, size_t *next);

#endif
