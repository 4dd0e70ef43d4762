/* i18n.h: messages in the user's language (GNU gettext; doc/translating.md).
 *
 * _("text") returns the translation of a message for the locale's
 * LC_MESSAGES (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), or the text itself
 * when there is none, under LANG=C, or when the program was configured
 * with --disable-nls; ngettext(one, many, n) chooses the form of a
 * number n by the language's rules.  N_("text") only marks a message for xgettext, in a
 * table initialiser where a call cannot go: the code that prints the entry
 * passes it through _() then.  The strings returned belong to the catalogue
 * and are never freed.
 *
 * Messages only: machine formats (JSON, JSONL and CSV keys, the model
 * format, option names) and numbers are never translated, and numbers
 * always print with '.' (src/num.h; LC_NUMERIC stays "C"). */
#ifndef ATTN_I18N_H
#define ATTN_I18N_H

#if ENABLE_NLS
#include <libintl.h>
#define _(text) gettext(text)
#else
#define _(text) ((char *)(text))
#define ngettext(one, many, n) ((char *)((n) == 1 ? (one) : (many)))
#define textdomain(domain) ((void)(domain))
#define bindtextdomain(domain, dir) ((void)(domain), (void)(dir))
#define bind_textdomain_codeset(domain, set) ((void)(domain), (void)(set))
#endif
#define N_(text) text

/* Binds the program's catalogue: from $ATTN_TRACE_LOCALEDIR if it is set
 * and not empty (the tests point it at catalogues built for them), else
 * from LOCALEDIR, where 'make install' puts them.  Call after setlocale(). */
void i18n_init(void);

/* --lang: the messages in lang, whatever the locale says: "en" the
 * program's own (English), else a catalogue's language ("zh_CN"), in
 * UTF-8.  Sets LANGUAGE, and LC_MESSAGES to lang's UTF-8 locale (else
 * C.UTF-8) when it is C, where gettext would not read LANGUAGE. */
void i18n_set_lang(const char *lang);

/* The language of the messages as an HTML lang tag (BCP 47: "en",
 * "zh-CN"), for the pages attn-trace writes in it; the catalogue says
 * which. */
const char *i18n_html_lang(void);

#endif
