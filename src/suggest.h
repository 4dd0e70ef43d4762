/* suggest.h: how far apart two words are, and the name a misspelt one
 * most likely meant, for "did you mean" in errors: misspelt commands,
 * options, scorers, lesson names and words of a vocabulary. */
#ifndef ATTN_SUGGEST_H
#define ATTN_SUGGEST_H

#include <stddef.h>

/* Splits the NUL-terminated s into code points; a byte that starts no
 * valid UTF-8 character stands for itself, past U+10FFFF.  Returns the
 * count; the caller frees *out (count + 1 elements). */
size_t suggest_code_points(const char *s, unsigned long **out);

/* The edit distance (insertions, deletions, substitutions, and swaps of
 * two neighbours, each one edit: the optimal string alignment distance)
 * between a[0..na) and b[0..nb); row is scratch space for 3 (nb + 1)
 * numbers. */
size_t suggest_edit_distance(const unsigned long *a, size_t na,
			     const unsigned long *b, size_t nb, size_t *row);

/* suggest_edit_distance between two NUL-terminated strings, in code points,
 * compared case-folded (utf8_fold), so "Trace" is 0 from "trace". */
size_t suggest_distance(const char *a, const char *b);

/* The name of names[0..n) that word most likely meant: the closest one by
 * suggest_distance(), if it is close enough for the length of word (1
 * edit up to 3 characters, 2 up to 6, else 3), or else the only name that
 * starts with word (at least 2 characters of it).  The first in the list
 * wins a tie.  Returns names[k], or NULL when none is close; an exact
 * match is returned too.  NULL entries of names are skipped. */
const char *suggest_closest(const char *word, const char *const *names,
			    int n);

#endif
