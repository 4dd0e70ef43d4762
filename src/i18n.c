/* i18n.c: binding the program's message catalogue (src/i18n.h). */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "paths.h"

void i18n_init(void)
{
	const char *dir = getenv("ATTN_TRACE_LOCALEDIR");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	textdomain(PACKAGE);
}

void i18n_set_lang(const char *lang)
{
	if (strcmp(lang, "en") == 0) {
		setlocale(LC_MESSAGES, "C"); /* no catalogue: the msgids */
		return;
	}
	setenv("LANGUAGE", lang, 1);
	const char *cur = setlocale(LC_MESSAGES, NULL);
	if (!cur || strcmp(cur, "C") == 0 || strncmp(cur, "C.", 2) == 0 ||
	    strcmp(cur, "POSIX") == 0) {
		char name[64];
		snprintf(name, sizeof name, "%s.UTF-8", lang);
		if (!setlocale(LC_MESSAGES, name))
			setlocale(LC_MESSAGES, "C.UTF-8");
	}
	bind_textdomain_codeset(PACKAGE, "UTF-8");
}

const char *i18n_html_lang(void)
{
	/* TRANSLATORS: "html-lang:" then your language's BCP 47 tag, as in
	 * <html lang="zh-CN">: html-lang:zh-CN */
	const char *t = _("html-lang:en");
	return strncmp(t, "html-lang:", 10) == 0 && t[10] ? t + 10 : "en";
}
