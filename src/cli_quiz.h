/* cli_quiz.h: the command "quiz": questions on one step of a trace,
 * answered on standard input (doc/quiz.md). */
#ifndef ATTN_CLI_QUIZ_H
#define ATTN_CLI_QUIZ_H

/* Takes the arguments after the program name, argv[0] being "quiz", and
 * returns the exit status (cli.h): EXIT_OK when the quiz ran, whatever
 * the score (also when the input ended early); EXIT_DATA after an unknown
 * word, a bad model, or a read or write error; EXIT_USAGE after a bad
 * command line.  Messages go to stderr as "attn-trace: ...". */
int cli_quiz(int argc, char **argv);

#endif
