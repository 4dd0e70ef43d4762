/* cli_heatmap.h: the command "heatmap": the alignment matrix of a trace as
 * an SVG picture (doc/heatmap.md). */
#ifndef ATTN_CLI_HEATMAP_H
#define ATTN_CLI_HEATMAP_H

/* Takes the arguments after the program name, argv[0] being the command
 * word "heatmap", and returns the exit status (cli.h): EXIT_OK, EXIT_DATA
 * after an unknown word, a bad model or a file that cannot be written (the
 * output file is then left as it was), EXIT_USAGE after a bad command
 * line.  Messages go to stderr as "attn-trace: ...". */
int cli_heatmap(int argc, char **argv);

#endif
