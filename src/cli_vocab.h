/* cli_vocab.h: "attn-trace vocab": the words a model knows. */
#ifndef ATTN_CLI_VOCAB_H
#define ATTN_CLI_VOCAB_H

/* attn-trace vocab [--model=FILE] [--source | --target]; argv[0] is the
 * command word.  Returns the exit status. */
int cli_vocab(int argc, char **argv);

#endif
