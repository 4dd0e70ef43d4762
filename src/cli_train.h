/* cli_train.h: the command "train": fit the model's weights to a pairs
 * file by backpropagation through time, and write the model file. */
#ifndef ATTN_CLI_TRAIN_H
#define ATTN_CLI_TRAIN_H

/* Takes the arguments after the program name, argv[0] being the word
 * "train", and returns the exit status (cli.h): EXIT_OK; EXIT_DATA after a
 * bad pairs or --init file, a training that diverged or a write error;
 * EXIT_USAGE after a bad command line.  Progress goes to stderr (one
 * updating line on a terminal, plain lines otherwise), and messages as
 * "attn-trace: ...". */
int cli_train(int argc, char **argv);

#endif
