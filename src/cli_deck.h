/* cli_deck.h: the command "deck": a sentence's trace as a slide deck,
 * one self-contained HTML file (src/deck.h). */
#ifndef ATTN_CLI_DECK_H
#define ATTN_CLI_DECK_H

/* Takes the arguments after the program name, argv[0] being "deck", and
 * returns the exit status (cli.h): EXIT_OK; EXIT_DATA after an unknown
 * word, a bad model or a file that cannot be written (then no file is
 * left half-written); EXIT_USAGE after a bad command line. */
int cli_deck(int argc, char **argv);

#endif
