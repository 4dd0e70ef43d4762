/* cli_term.c: whether the terminal that TERM names can show the stepper.
 * It asks terminfo directly, in a file of its own, because <term.h>
 * defines macros (lines, columns, ...) that would clash elsewhere. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "cli_term.h"
#include "i18n.h"

int cli_term_usable(char *why, size_t size)
{
	const char *term = getenv("TERM");
	int err = 0;
	if (!term || !*term) {
		snprintf(why, size, _("TERM is not set"));
		return 0;
	}
	/* setupterm copies TERM's entry; nothing is drawn */
	if (setupterm(term, STDOUT_FILENO, &err) != OK) {
		snprintf(why, size, _("TERM=%s is %s"), term, err == 1 ?
			 _("a hardcopy terminal") : err == 0 ?
			 _("unknown to terminfo") : _("unknown (no terminfo "
			 "database was found)"));
		return 0;
	}
	const char *cup = tigetstr("cup");
	int ok = cup && cup != (char *)-1;
	del_curterm(cur_term);
	if (!ok)
		snprintf(why, size, _("TERM=%s cannot move the cursor"), term);
	return ok;
}
