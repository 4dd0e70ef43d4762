/* tok.h: sentences to words, and words to vocabulary indices. */
#ifndef ATTN_TOK_H
#define ATTN_TOK_H

#include "model.h"
#include "trace.h"
#include "util.h"

struct tok_list {
	int n;
	char **words; /* (n) NUL-terminated, as typed but in NFC (utf8_nfc) */
};

/* Splits the NUL-terminated sentence s on white space (space, tab, CR, LF,
 * VT, FF) into *out, each word put into NFC (utf8_nfc()), so that a
 * decomposed "é" is the word a composed one is.  Refuses invalid UTF-8,
 * control characters, words of
 * more than MODEL_MAX_WORD bytes and more than max words, filling err with
 * a message that names the word (what is "source" or "target").  Returns 0
 * or -1; on success the caller frees *out with tok_free(). */
int tok_split(struct tok_list *out, const char *s, int max, const char *what,
	      struct errbuf *err);

void tok_free(struct tok_list *t);

/* Looks every word of t up in v, storing the indices in idx (t->n; -1 for
 * an unknown word).  Returns 0, or -1 with err naming every unknown word,
 * what kind of word it is (what: "source", "target"), the closest words
 * of v, and 'attn-trace vocab'. */
int tok_lookup(int *idx, const struct tok_list *t, const struct vocab *v,
	       const char *what, struct errbuf *err);

/* Splits and looks up one sentence as tok_trace() does (punctuation
 * split off, marks v lacks left out) into idx (TRACE_MAX_TOKENS slots).
 * Returns the word count, or -1 with err filled (no words; an unknown
 * word).  The marks left out are listed in marks (size bytes, quoted,
 * comma-separated; "" when none), which may be NULL. */
int tok_sentence(int *idx, const char *sentence, const struct vocab *v,
		 const char *what, char *marks, size_t size,
		 struct errbuf *err);

/* The note of tok_trace_note() into note (size bytes; may be NULL), from
 * the marks left out of the source (smarks) and of the target (tmarks):
 * "left out \".\", which the model does not know", or "" when none. */
void tok_note(char *note, size_t size, const char *smarks,
	      const char *tmarks);

/* Splits and looks up source (and target, if not NULL) in m's
 * vocabularies, and builds their trace with the scorers given (a bitmask)
 * and the attention cfg (NULL: the defaults, trace.h), teacher-forced
 * when there is a target.  Sentence punctuation (. , ! ? ;
 * : " … « » ¡ ¿) at the start or end of a word is split off as a word of
 * its own, traced if the vocabulary has it and left out if not.  Refuses
 * sentences of no words, and <s> or </s> inside a target; every unknown
 * word is named.  Returns 0, or -1 with err filled; the caller frees *tr
 * with trace_free() after a success. */
int tok_trace(struct trace *tr, const struct model *m, const char *source,
	      const char *target, unsigned scorers,
	      const struct trace_cfg *cfg, struct errbuf *err);

/* tok_trace(), and note (size bytes) says which punctuation marks were
 * left out ("left out \".\", which the model does not know"), or is ""
 * when none was.  note may be NULL.  For an image model
 * (caption_is_model()) source is the path of a PGM image, which the
 * trace reads and owns (caption_trace_file()); the target is a caption. */
int tok_trace_note(struct trace *tr, const struct model *m,
		   const char *source, const char *target, unsigned scorers,
		   char *note, size_t size, const struct trace_cfg *cfg,
		   struct errbuf *err);

#endif
