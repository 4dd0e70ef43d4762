/* main.c: attn-trace, the attention mechanism traced step by step. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "util.h"

/* Makes sure descriptors 0, 1 and 2 are open, before anything is opened:
 * else the next file opened (a model written, a batch's temporary file)
 * would take the number, and what goes to standard error would go into
 * it.  A closed one gets /dev/null, open the wrong way round: standard
 * input for writing only, standard output and error for reading only, so
 * that reading a closed standard input fails (EBADF: "Bad file
 * descriptor") rather than finding an empty input, and writing to a
 * closed standard output fails as it would have; standard error's
 * messages are lost, as they were.  Exits with status 1 (EXIT_DATA) if
 * /dev/null cannot be opened. */
static void main_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got != fd)
			_exit(EXIT_DATA); /* nothing can be said: 2 is closed */
		util_note_closed(fd);
	}
}

int main(int argc, char **argv)
{
	main_std_fds();
	/* The user's locale for the terminal (LC_CTYPE) and the messages'
	 * language (LC_MESSAGES; src/i18n.h), but LC_NUMERIC forced back to
	 * "C", so that printf and strtod write and read numbers with '.'
	 * whatever the locale (the formatters force it too; tests/locale.sh
	 * runs under a comma locale).  No other category changes a byte the
	 * program writes: nothing calls strcoll, strftime or localeconv. */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	i18n_init();
	/* a closed pipe (attn-trace trace | head -1) ends the program quietly,
	 * even if the parent left SIGPIPE ignored */
	signal(SIGPIPE, SIG_DFL);
	return cli_main(argc, argv);
}
