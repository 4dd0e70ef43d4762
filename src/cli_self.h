/* cli_self.h: "attn-trace self": self-attention and cross-attention,
 * traced number by number (src/self.h). */
#ifndef ATTN_CLI_SELF_H
#define ATTN_CLI_SELF_H

/* argv[0] is the command word; returns the exit status. */
int cli_self(int argc, char **argv);

struct model;
struct self_opts;
struct self_trace;

/* For the commands that draw self-attention too (heatmap --self): loads
 * the model (model_path, or NULL for the built-in self4), splits sentence
 * (and target, for cross-attention) as attn-trace self does, and builds
 * *t recording the heads in heads.  Returns 0 (the caller frees t, then
 * m), or EXIT_DATA after a message. */
int cli_self_trace(struct self_trace *t, struct model *m,
		   const char *model_path, const char *sentence,
		   const char *target, const struct self_opts *so,
		   unsigned heads);

/* --heads=LIST into *heads (bit h: head h + 1); returns 0, or EXIT_USAGE
 * after a message. */
int cli_self_heads(const char *arg, unsigned *heads);

/* The name of self's format k (from 0), or NULL past the last: the
 * values of self --format. */
const char *cli_self_format_name(int k);

#endif
