/* cli_lesson.h: the commands "lessons" (list them) and "lesson" (step
 * through one, print it, or check lesson files). */
#ifndef ATTN_CLI_LESSON_H
#define ATTN_CLI_LESSON_H

/* Each takes the arguments after the program name, argv[0] being the
 * command word, and returns the exit status (cli.h): EXIT_OK, EXIT_DATA
 * after a bad lesson, a missing directory or a write error, EXIT_USAGE
 * after a bad command line.  Messages go to stderr as "attn-trace: ...". */
int cli_lessons(int argc, char **argv);
int cli_lesson(int argc, char **argv);

#endif
