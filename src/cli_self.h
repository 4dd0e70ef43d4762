/* cli_self.h: "attn-trace self": self-attention and cross-attention,
 * traced number by number (src/self.h). */
#ifndef ATTN_CLI_SELF_H
#define ATTN_CLI_SELF_H

/* argv[0] is the command word; returns the exit status. */
int cli_self(int argc, char **argv);

#endif
