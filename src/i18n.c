/* i18n.c: binding the program's message catalogue (src/i18n.h). */
#include "config.h"

#include <locale.h>
#include <stdlib.h>

#include "i18n.h"
#include "paths.h"

void i18n_init(void)
{
	const char *dir = getenv("ATTN_TRACE_LOCALEDIR");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	textdomain(PACKAGE);
}
