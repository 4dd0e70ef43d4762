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
#include "utf8.h"
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

/* note in lines at most cols columns wide, broken between two edits
 * (after the ',' of ", --set "; an edit wider than cols has a line of its
 * own): line k is note[start[k]] for len[k] bytes.  Returns the lines,
 * at most max (the last takes the rest). */
static int fmt_whatif_break(const char *note, int cols, size_t *start,
			    size_t *len, int max)
{
	int n = 0;
	size_t at = 0, end = strlen(note);
	while (at < end && n < max) {
		size_t cut = end;
		/* step 1: too wide, the last break (after the ',' of ", --set ")
		 * that keeps the line within cols, or the first one */
		if (utf8_width_n(note + at, end - at) > cols) {
			size_t best = 0;
			for (const char *p = strstr(note + at, ", --set "); p;
			     p = strstr(p + 2, ", --set ")) {
				size_t here = (size_t)(p - note) + 1;
				if (best && utf8_width_n(note + at, here - at) > cols)
					break;
				best = here;
			}
			if (best)
				cut = best;
		}
		start[n] = at;
		len[n++] = cut - at;
		at = cut < end ? cut + 1 : end; /* the blank after the ',' */
	}
	if (at < end && n) /* more than max lines: the rest on the last */
		len[n - 1] = end - start[n - 1];
	return n;
}

int fmt_whatif_wrap(char *note, int cols)
{
	size_t start[FMT_WHATIF_LINES], len[FMT_WHATIF_LINES];
	int n = fmt_whatif_break(note, cols, start, len, FMT_WHATIF_LINES);
	for (int k = 1; k < n; k++)
		note[start[k] - 1] = '\n'; /* the blank after the ',' */
	return n;
}
