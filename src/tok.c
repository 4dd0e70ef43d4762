/* tok.c: sentences to words, and words to vocabulary indices. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tok.h"
#include "utf8.h"

static int tok_is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

/* Checks one word w[0..len); returns 0 or -1 with err filled. */
static int tok_check_word(const char *w, size_t len, const char *what,
			  struct errbuf *err)
{
	size_t ok = utf8_valid_prefix(w, len);
	if (ok < len) {
		err_set(err, "the %s sentence is not valid UTF-8 (byte %zu of "
			"a word)", what, ok + 1);
		return -1;
	}
	for (size_t k = 0; k < len; k++) {
		/* w is valid UTF-8: C0 controls and DEL are single bytes,
		 * and the C1 controls U+0080 .. U+009F are 0xC2 0x80..0x9F */
		unsigned c = (unsigned char)w[k];
		if (c == 0xC2 && k + 1 < len)
			c = (unsigned char)w[k + 1];
		else if (c >= 0x80)
			continue;
		if (c < 0x20 || (c >= 0x7F && c < 0xA0)) {
			err_set(err, "the %s sentence holds a control "
				"character (code %u)", what, c);
			return -1;
		}
	}
	if (len > MODEL_MAX_WORD) {
		int shown = 20;
		while (shown > 0 && ((unsigned char)w[shown] & 0xC0) == 0x80)
			shown--; /* do not split a character */
		err_set(err, "a %s word is longer than %d bytes: \"%.*s...\"",
			what, MODEL_MAX_WORD, shown, w);
		return -1;
	}
	return 0;
}

int tok_split(struct tok_list *out, const char *s, int max, const char *what,
	      struct errbuf *err)
{
	memset(out, 0, sizeof *out);
	int cap = 0;
	const char *p = s;
	for (;;) {
		while (*p && tok_is_space((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		const char *w = p;
		while (*p && !tok_is_space((unsigned char)*p))
			p++;
		size_t len = (size_t)(p - w);
		if (tok_check_word(w, len, what, err) != 0)
			goto fail;
		if (out->n == max) {
			err_set(err, "the %s sentence has more than %d words",
				what, max);
			goto fail;
		}
		if (out->n == cap) {
			cap = cap ? 2 * cap : 8;
			out->words = xreallocarray(out->words, (size_t)cap,
						   sizeof *out->words);
		}
		out->words[out->n++] = xstrndup(w, len);
	}
fail:
	tok_free(out);
	return -1;
}

void tok_free(struct tok_list *t)
{
	for (int k = 0; k < t->n; k++)
		free(t->words[k]);
	free(t->words);
	memset(t, 0, sizeof *t);
}

/* Writes "a, b or c" for the closest words of v to word into buf, or ""
 * when there is none to give.  A target may not hold <s> or </s>
 * (tok_trace refuses them), so with markers set they are left out. */
static void tok_suggest(char *buf, size_t size, const struct vocab *v,
			const char *word, int markers)
{
	int near[7], keep[5], n = 0;
	int k = vocab_closest(v, word, near, 7);
	size_t used = 0;
	for (int j = 0; j < k && n < 5; j++)
		if (!markers || (strcmp(v->words[near[j]], "<s>") != 0 &&
				 strcmp(v->words[near[j]], "</s>") != 0))
			keep[n++] = near[j];
	buf[0] = '\0';
	for (int j = 0; j < n && used < size; j++) {
		const char *sep = j == 0 ? "" : j == n - 1 ? " or " : ", ";
		int w = snprintf(buf + used, size - used, "%s\"%s\"", sep,
				 v->words[keep[j]]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

int tok_lookup(int *idx, const struct tok_list *t, const struct vocab *v,
	       const char *what, struct errbuf *err)
{
	for (int k = 0; k < t->n; k++) {
		idx[k] = vocab_find(v, t->words[k]);
		if (idx[k] >= 0)
			continue;
		char near[512];
		tok_suggest(near, sizeof near, v, t->words[k],
			    strcmp(what, "target") == 0);
		if (near[0] == '\0')
			err_set(err, "unknown %s word \"%s\"; the model has "
				"no %s words to suggest", what, t->words[k],
				what);
		else
			err_set(err, "unknown %s word \"%s\"; the closest %s "
				"words are %s", what, t->words[k], what, near);
		return -1;
	}
	return 0;
}

/* Splits and looks up one sentence into idx (TRACE_MAX_TOKENS); returns
 * the word count or -1. */
static int tok_words(int *idx, const char *sentence, const struct vocab *v,
		     const char *what, struct errbuf *err)
{
	struct tok_list tl;
	if (tok_split(&tl, sentence, TRACE_MAX_TOKENS, what, err) != 0)
		return -1;
	int n = tl.n;
	if (n == 0) {
		err_set(err, "the %s sentence has no words", what);
		n = -1;
	} else if (tok_lookup(idx, &tl, v, what, err) != 0) {
		n = -1;
	}
	tok_free(&tl);
	return n;
}

int tok_trace(struct trace *tr, const struct model *m, const char *source,
	      const char *target, unsigned scorers, struct errbuf *err)
{
	int src[TRACE_MAX_TOKENS], tgt[TRACE_MAX_TOKENS];
	int n = tok_words(src, source, &m->src, "source", err);
	if (n < 0)
		return -1;
	int ntgt = 0;
	if (target) {
		ntgt = tok_words(tgt, target, &m->tgt, "target", err);
		if (ntgt < 0)
			return -1;
		for (int k = 0; k < ntgt; k++)
			if (tgt[k] == m->bos || tgt[k] == m->eos) {
				err_set(err, "the target sentence must not "
					"contain \"%s\"; the decoder starts with "
					"<s> and stops at </s> by itself",
					m->tgt.words[tgt[k]]);
				return -1;
			}
	}
	return trace_build(tr, m, src, n, ntgt ? tgt : NULL, ntgt, scorers, err);
}
