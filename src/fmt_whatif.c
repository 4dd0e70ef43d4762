/* fmt_whatif.c: the line that a picture of an edited trace (heatmap,
 * diagram, deck, quiz) says it with: "what-if, with --set NAME=VALUE",
 * so that a slide is never taken for the model's own numbers
 * (doc/trace-format.md, "What-if: --set"). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "trace.h"
#include "whatif.h"

const char *fmt_whatif_note(const struct trace *tr, char *buf, size_t size)
{
	char edits[512], num[NUM_BUFSZ];
	size_t len = 0;
	if (!tr->cfg.nset || size == 0)
		return NULL;
	edits[0] = '\0';
	/* step 1: the edits as given, in their canonical names, each
	 * value in the fewest digits that read back as it */
	for (int k = 0; k < tr->cfg.nset && len < sizeof edits; k++) {
		const struct whatif_edit *e = &tr->cfg.set[k];
		int w = snprintf(edits + len, sizeof edits - len,
				 "%s--set %s=%s", k ? ", " : "", e->name,
				 num_shortest(num, e->value));
		if (w < 0 || (size_t)w >= sizeof edits - len) {
			/* too many to name: the first ones, then "…" */
			strcpy(edits + (len < sizeof edits - 8 ? len
					: sizeof edits - 8), ", …");
			break;
		}
		len += (size_t)w;
	}
	/* step 2: the sentence */
	/* TRANSLATORS: %s the --set options, "--set general.W[2][3]=0.5,
	 * --set step[1].scores[2]=3"; keep them as they are */
	snprintf(buf, size, _("what-if: the trace with %s, not the model's "
			      "own numbers"), edits);
	return buf;
}
