/* cli_image.h: "attn-trace image": a PGM image shown as shaded blocks,
 * or written as SVG pixels. */
#ifndef ATTN_CLI_IMAGE_H
#define ATTN_CLI_IMAGE_H

/* attn-trace image [--ascii] [--values] [-o FILE.svg] FILE.pgm; argv[0]
 * is the command word.  Returns the exit status: 1 for a file that is not
 * a PGM image attn-trace reads (nothing is written), 2 for a bad command
 * line. */
int cli_image(int argc, char **argv);

#endif
