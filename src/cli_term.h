/* cli_term.h: whether the terminal that TERM names can show the stepper. */
#ifndef ATTN_CLI_TERM_H
#define ATTN_CLI_TERM_H

#include <stddef.h>

/* 1 if the stepper can draw on standard output: TERM is set, known to
 * terminfo, and can move the cursor.  Otherwise 0, with why filled (size
 * bytes) with the reason, such as "TERM is not set" or "TERM=dumb cannot
 * move the cursor". */
int cli_term_usable(char *why, size_t size);

#endif
