/* cli_accuracy.h: the accuracy command (cli_accuracy.c). */
#ifndef ATTN_CLI_ACCURACY_H
#define ATTN_CLI_ACCURACY_H

/* attn-trace accuracy [OPTION]...: accuracy by source length of greedy
 * decoding on a pairs file.  Returns the exit status. */
int cli_accuracy(int argc, char **argv);

#endif
