/* deck.h: a trace as a slide deck, one self-contained HTML file.
 *
 * deck_html() writes one HTML document with everything inline (CSS,
 * script, SVG): a title slide, the encoding, then a slide for each stage
 * of each decoder step in the order the step program recorded them
 * (trace_stages()), and last the weights of every step as a table.  A
 * stage slide shows its picture (the step's attention lines, drawn from
 * the view model of diagram.h, the one the stepper's d key and
 * "attn-trace diagram" draw) beside its arithmetic (its records as the
 * text trace prints them, fmt_text_rec()); a stage too long for one slide
 * goes on over several, "(2 of 3)".  The script steps through the slides
 * with → ← Home End and animates the attention lines from one step's
 * weights to the next's; without it the page shows every slide in order,
 * and it prints a slide a page.  Like every formatter it computes
 * nothing but layout; the same trace gives the same bytes, and numbers
 * are written with '.' whatever the locale. */
#ifndef ATTN_DECK_H
#define ATTN_DECK_H

#include <stdio.h>

#include "trace.h"

/* The slide's geometry, in CSS px: the deck is laid out for a 1920×1080
 * slide and scaled by its script to the window. */
#define DECK_W 1920
#define DECK_H 1080

struct deck_opts {
	int precision;      /* digits after the point, 1 to 6 */
};

/* Writes the deck of run 0 of tr (a translation trace) to out.  Returns
 * 0, or -1 if the stream reports a write error or tr has no run; the
 * caller reports it.  It allocates only through xmalloc (which aborts
 * when memory runs out) and frees what it allocated. */
int deck_html(FILE *out, const struct trace *tr, const struct deck_opts *o);

#endif
