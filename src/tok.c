/* tok.c: sentences to words, and words to vocabulary indices. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caption.h"
#include "i18n.h"
#include "tok.h"
#include "utf8.h"

static int tok_is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

/* The kind of word or sentence that what ("source" or "target") names,
 * in the user's language, for the messages below. */
static const char *tok_side(const char *what)
{
	/* TRANSLATORS: the kind of word or sentence in "the %s sentence"
	 * and "a %s word" (源句子, 源词) */
	return strcmp(what, "target") == 0 ? _("target") : _("source");
}

/* Checks one word w[0..len); returns 0 or -1 with err filled. */
static int tok_check_word(const char *w, size_t len, const char *what,
			  struct errbuf *err)
{
	size_t ok = utf8_valid_prefix(w, len);
	if (ok < len) {
		err_set(err, _("the %s sentence is not valid UTF-8 (byte %zu of "
			"a word)"), tok_side(what), ok + 1);
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
			err_set(err, _("the %s sentence holds a control "
				"character (code %u)"), tok_side(what), c);
			return -1;
		}
	}
	if (len > MODEL_MAX_WORD) {
		int shown = 20;
		while (shown > 0 && ((unsigned char)w[shown] & 0xC0) == 0x80)
			shown--; /* do not split a character */
		err_set(err, _("a %s word is longer than %d bytes: \"%.*s...\""),
			tok_side(what), MODEL_MAX_WORD, shown, w);
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
		/* the word as typed, in NFC: "e" + U+0301 is "é" */
		char *nfc = utf8_nfc(w, (size_t)(p - w));
		if (tok_check_word(nfc, strlen(nfc), what, err) != 0) {
			free(nfc);
			goto fail;
		}
		if (out->n == max) {
			err_set(err, _("the %s sentence has more than %d words"),
				tok_side(what), max);
			free(nfc);
			goto fail;
		}
		if (out->n == cap) {
			cap = cap ? 2 * cap : 8;
			out->words = xreallocarray(out->words, (size_t)cap,
						   sizeof *out->words);
		}
		out->words[out->n++] = nfc;
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
		/* TRANSLATORS: the separators of a list of words: "a", "b" or "c" */
		const char *sep = j == 0 ? "" : j == n - 1 ? _(" or ") : _(", ");
		int w = snprintf(buf + used, size - used, "%s\"%s\"", sep,
				 v->words[keep[j]]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* The error of one unknown word, with its closest words. */
static void tok_unknown_one(const struct vocab *v, const char *word,
			    const char *what, struct errbuf *err)
{
	char near[512];
	tok_suggest(near, sizeof near, v, word, strcmp(what, "target") == 0);
	if (near[0] == '\0')
		err_set(err, _("unknown %s word \"%s\"; the model has no %s "
			"words to suggest"), tok_side(what), word, tok_side(what));
	else
		err_set(err, _("unknown %s word \"%s\"; the closest %s words "
			"are %s; 'attn-trace vocab' lists them all"), tok_side(what), word,
			tok_side(what), near);
}

/* The error of several unknown words (idx[k] < 0), each with the word
 * closest to it: "unknown source words "chat" (closest "je") and ...". */
static void tok_unknown_many(const int *idx, const struct tok_list *t,
			     const struct vocab *v, const char *what,
			     int count, struct errbuf *err)
{
	char list[768];
	size_t used = 0;
	int seen = 0;
	list[0] = '\0';
	for (int k = 0; k < t->n && used < sizeof list; k++) {
		if (idx[k] >= 0)
			continue;
		char near[512];
		int w;
		/* TRANSLATORS: the separators of a list of words: "a", "b"
		 * and "c" */
		const char *sep = seen == 0 ? "" : seen == count - 1 ?
			_(" and ") : _(", ");
		seen++;
		tok_suggest(near, sizeof near, v, t->words[k],
			    strcmp(what, "target") == 0);
		/* the closest one alone: the first quoted word */
		char *end = near[0] ? strchr(near + 1, '"') : NULL;
		if (end)
			end[1] = '\0';
		w = end ? snprintf(list + used, sizeof list - used,
				   _("%s\"%s\" (closest %s)"), sep,
				   t->words[k], near)
			  : snprintf(list + used, sizeof list - used,
				     "%s\"%s\"", sep, t->words[k]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	err_set(err, _("unknown %s words %s; 'attn-trace vocab' lists the "
		"words the model knows"), tok_side(what), list);
}

int tok_lookup(int *idx, const struct tok_list *t, const struct vocab *v,
	       const char *what, struct errbuf *err)
{
	int unknown = 0, first = -1;
	for (int k = 0; k < t->n; k++) {
		idx[k] = vocab_find(v, t->words[k]);
		if (idx[k] < 0 && unknown++ == 0)
			first = k;
	}
	if (unknown == 1)
		tok_unknown_one(v, t->words[first], what, err);
	else if (unknown > 1)
		tok_unknown_many(idx, t, v, what, unknown, err);
	return unknown ? -1 : 0;
}

/* The length in bytes of the sentence punctuation mark at s, or 0: . , !
 * ? ; : " and the marks of French and Spanish (… « » ¡ ¿).  The
 * apostrophe is not one: it belongs to words such as "aujourd'hui". */
static size_t tok_punct_len(const char *s)
{
	static const char *const marks[] = {
		".", ",", "!", "?", ";", ":", "\"", "…", "«", "»", "¡", "¿"
	};
	for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++) {
		size_t n = strlen(marks[k]);
		if (strncmp(s, marks[k], n) == 0)
			return n;
	}
	return 0;
}

/* Appends the word w[0..len) to *t (capacity *cap). */
static void tok_push(struct tok_list *t, int *cap, const char *w, size_t len)
{
	if (t->n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		t->words = xreallocarray(t->words, (size_t)*cap,
					 sizeof *t->words);
	}
	t->words[t->n++] = xstrndup(w, len);
}

/* Splits the punctuation marks at the start and the end of each word of
 * in into words of their own, each mark one word ("étudiant." becomes
 * "étudiant" "."), into *out.  Marks inside a word stay. */
static void tok_split_punct(struct tok_list *out, const struct tok_list *in)
{
	int cap = 0;
	memset(out, 0, sizeof *out);
	for (int k = 0; k < in->n; k++) {
		const char *w = in->words[k], *end = w + strlen(w);
		size_t p;
		while (w < end && (p = tok_punct_len(w)) > 0) {
			tok_push(out, &cap, w, p);
			w += p;
		}
		/* the marks at the end, found from the left */
		const char *core_end = w, *q = w;
		while (q < end) {
			p = tok_punct_len(q);
			q += p ? p : utf8_char_len(q);
			if (!p)
				core_end = q;
		}
		if (core_end > w)
			tok_push(out, &cap, w, (size_t)(core_end - w));
		for (q = core_end; q < end; q += p) {
			p = tok_punct_len(q);
			tok_push(out, &cap, q, p);
		}
	}
}

/* Appends "\"mark\"" to the note of the marks left out, once each. */
static void tok_note_mark(char *note, size_t size, const char *mark)
{
	char quoted[16];
	snprintf(quoted, sizeof quoted, "\"%s\"", mark);
	if (!note || strstr(note, quoted))
		return;
	size_t used = strlen(note);
	snprintf(note + used, size - used, "%s%s", used ? ", " : "", quoted);
}

/* Splits sentence into words, with punctuation marks split off; a mark
 * the vocabulary v lacks is left out and added to note (size bytes).
 * Returns 0 with *tl filled, or -1 with err filled. */
static int tok_words_split(struct tok_list *tl, const char *sentence,
			   const struct vocab *v, const char *what,
			   char *note, size_t size, struct errbuf *err)
{
	struct tok_list typed, split;
	int cap = 0;
	if (tok_split(&typed, sentence, TRACE_MAX_TOKENS, what, err) != 0)
		return -1;
	tok_split_punct(&split, &typed);
	tok_free(&typed);
	memset(tl, 0, sizeof *tl);
	for (int k = 0; k < split.n; k++) {
		const char *w = split.words[k];
		if (tok_punct_len(w) == strlen(w) && vocab_find(v, w) < 0)
			tok_note_mark(note, size, w);
		else
			tok_push(tl, &cap, w, strlen(w));
	}
	tok_free(&split);
	if (tl->n > TRACE_MAX_TOKENS) {
		err_set(err, _("the %s sentence has more than %d words"), tok_side(what),
			TRACE_MAX_TOKENS);
		tok_free(tl);
		return -1;
	}
	return 0;
}

/* Splits and looks up one sentence into idx (TRACE_MAX_TOKENS); returns
 * the word count or -1.  Punctuation marks that v lacks are left out and
 * named in note (size bytes; may be NULL). */
static int tok_words(int *idx, const char *sentence, const struct vocab *v,
		     const char *what, char *note, size_t size,
		     struct errbuf *err)
{
	struct tok_list tl;
	if (tok_words_split(&tl, sentence, v, what, note, size, err) != 0)
		return -1;
	int n = tl.n;
	if (n == 0 && note && note[0]) {
		err_set(err, _("the %s sentence has no words but %s, which the "
			"model does not know"), tok_side(what), note);
		n = -1;
	} else if (n == 0) {
		err_set(err, _("the %s sentence has no words"), tok_side(what));
		n = -1;
	} else if (tok_lookup(idx, &tl, v, what, err) != 0) {
		n = -1;
	}
	tok_free(&tl);
	return n;
}

int tok_sentence(int *idx, const char *sentence, const struct vocab *v,
		 const char *what, char *marks, size_t size,
		 struct errbuf *err)
{
	if (marks && size)
		marks[0] = '\0';
	return tok_words(idx, sentence, v, what, marks, size, err);
}

int tok_trace(struct trace *tr, const struct model *m, const char *source,
	      const char *target, unsigned scorers,
	      const struct trace_cfg *cfg, struct errbuf *err)
{
	return tok_trace_note(tr, m, source, target, scorers, NULL, 0, cfg,
			      err);
}

void tok_note(char *note, size_t size, const char *smarks,
	      const char *tmarks)
{
	if (!note)
		return;
	note[0] = '\0';
	if (smarks[0] && tmarks[0])
		snprintf(note, size, _("left out %s of the source and %s of "
			 "the target, which the model does not know"), smarks,
			 tmarks);
	else if (smarks[0] || tmarks[0])
		snprintf(note, size, _("left out %s, which the model does "
			 "not know"), smarks[0] ? smarks : tmarks);
}

/* Splits and looks up the target into tgt (TRACE_MAX_TOKENS) as
 * tok_trace_note() does, the marks left out into tmarks (size bytes);
 * returns the word count or -1 with err filled. */
static int tok_target(int *tgt, const struct model *m, const char *target,
		      char *tmarks, size_t size, struct errbuf *err)
{
	int ntgt = tok_words(tgt, target, &m->tgt, "target", tmarks, size,
			     err);
	for (int k = 0; k < ntgt; k++)
		if (tgt[k] == m->bos || tgt[k] == m->eos) {
			err_set(err, _("the target sentence must not contain "
				"\"%s\"; the decoder starts with <s> and stops "
				"at </s> by itself"), m->tgt.words[tgt[k]]);
			return -1;
		}
	return ntgt;
}

int tok_trace_note(struct trace *tr, const struct model *m,
		   const char *source, const char *target, unsigned scorers,
		   char *note, size_t size, const struct trace_cfg *cfg,
		   struct errbuf *err)
{
	int src[TRACE_MAX_TOKENS], tgt[TRACE_MAX_TOKENS];
	char smarks[128] = "", tmarks[128] = "";
	int image = caption_is_model(m), n = 0, ntgt = 0;
	tok_note(note, size, "", "");
	if (!image && (n = tok_words(src, source, &m->src, "source", smarks,
				     sizeof smarks, err)) < 0)
		return -1;
	if (target && (ntgt = tok_target(tgt, m, target, tmarks,
					 sizeof tmarks, err)) < 0)
		return -1;
	tok_note(note, size, smarks, tmarks);
	if (image) /* the source is the path of the image */
		return caption_trace_file(tr, m, source, ntgt ? tgt : NULL,
					  ntgt, scorers, cfg, err);
	return trace_build(tr, m, src, n, ntgt ? tgt : NULL, ntgt, scorers,
			   cfg, err);
}
