/* cli_calc.h: "attn-trace calc": attention on any vectors, typed on the
 * command line or read from a file, traced term by term (calc.h). */
#ifndef ATTN_CLI_CALC_H
#define ATTN_CLI_CALC_H

/* attn-trace calc [OPTION]... [FILE]; argv[0] is the command word.
 * Returns the exit status: 1 for a bad file (nothing written), 2 for a
 * bad command line, bad --query, --keys or --values among them. */
int cli_calc(int argc, char **argv);

#endif
