/* main.c: attn-trace, the attention mechanism traced step by step. */
#include "config.h"

#include <locale.h>

#include "cli.h"

int main(int argc, char **argv)
{
	/* UTF-8 for the terminal; LC_NUMERIC stays "C", and the formatters
	 * force '.' whatever it says. */
	setlocale(LC_CTYPE, "");
	return cli_main(argc, argv);
}
