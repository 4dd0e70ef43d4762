/* cli_glimpse.h: "attn-trace glimpse": the glimpse model (glimpse.h) on
 * a PGM image, traced number by number; --train and --measure over a
 * .captions set. */
#ifndef ATTN_CLI_GLIMPSE_H
#define ATTN_CLI_GLIMPSE_H

/* attn-trace glimpse [OPTION]... IMAGE.pgm, or --train=CAPTIONS -o
 * FILE, or --measure=CAPTIONS; argv[0] is the command word.  Returns
 * the exit status: 1 for bad input (nothing written), 2 for a bad
 * command line. */
int cli_glimpse(int argc, char **argv);

#endif
