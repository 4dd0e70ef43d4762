/* cli_caption.h: "attn-trace caption": soft attention over a 6×6 image's
 * 3×3 cells as a decoder says its caption (src/caption.h), traced number
 * by number. */
#ifndef ATTN_CLI_CAPTION_H
#define ATTN_CLI_CAPTION_H

/* attn-trace caption [OPTION]... FILE.pgm; argv[0] is the command word.
 * Returns the exit status: 1 for an image, model or caption that cannot
 * be traced (nothing is written), 2 for a bad command line. */
int cli_caption(int argc, char **argv);

#endif
