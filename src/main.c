/* main.c: attn-trace, the attention mechanism traced step by step. */
#include "config.h"

#include <locale.h>
#include <signal.h>

#include "cli.h"

int main(int argc, char **argv)
{
	/* UTF-8 for the terminal; LC_NUMERIC stays "C", and the formatters
	 * force '.' whatever it says. */
	setlocale(LC_CTYPE, "");
	/* a closed pipe (attn-trace trace | head -1) ends the program quietly,
	 * even if the parent left SIGPIPE ignored */
	signal(SIGPIPE, SIG_DFL);
	return cli_main(argc, argv);
}
