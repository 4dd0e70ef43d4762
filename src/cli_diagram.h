/* cli_diagram.h: the command "diagram": the picture of a decoder step as
 * SVG for slides, one step (--step=T) or all (--all-steps -o DIR). */
#ifndef ATTN_CLI_DIAGRAM_H
#define ATTN_CLI_DIAGRAM_H

/* Takes the arguments after the program name, argv[0] being "diagram",
 * and returns the exit status (cli.h): EXIT_OK, EXIT_DATA after an
 * unknown word, a bad model, a step past the end or a file that cannot be
 * written (then no file is left half-written, and with --all-steps none
 * of this run's is left), EXIT_USAGE after a bad command line. */
int cli_diagram(int argc, char **argv);

/* The name of diagram --format's value k (from 0), or NULL past the
 * last. */
const char *cli_diagram_format_name(int k);

#endif
