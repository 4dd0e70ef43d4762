/* cli.h: the command line: subcommands, options, exit statuses. */
#ifndef ATTN_CLI_H
#define ATTN_CLI_H

/* Exit statuses, documented in the man page. */
#define EXIT_OK 0
#define EXIT_DATA 1  /* bad input: an unknown word, a bad model, a write error */
#define EXIT_USAGE 2 /* a bad command line */

/* Runs the program on argv and returns its exit status.  Errors are
 * printed on stderr as "attn-trace: ..." and never abort. */
int cli_main(int argc, char **argv);

#endif
