/* label_widths.c: how well src/fmt_svg.c's guess of a label's width
 * (0.62 em a terminal column, 0.66 em in bold) matches the width that
 * librsvg, which draws -o FILE.png, lays the label out at: one word a line
 * on standard input, one line out for each (columns, guess, measured, and
 * measured / guess), then the largest ratio and how many labels are
 * wider than guessed.  doc/architecture.md quotes its figures.
 *
 *   cc -O2 -o label_widths bench/label_widths.c -Isrc -I. \
 *     $(pkg-config --cflags librsvg-2.0) src/libattn.a \
 *     $(pkg-config --libs librsvg-2.0) -lutf8proc -lz -lm
 *   src/attn-trace vocab --source | ./label_widths 20 */
#include "config.h"

#include <librsvg/rsvg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* The width of word's ink set in DejaVu Sans at fs px, bold or not:
 * librsvg's bounding box of the text element (without stroke). */
static double measure(const char *word, int fs, int bold)
{
	char svg[1024];
	snprintf(svg, sizeof svg,
		 "<svg xmlns='http://www.w3.org/2000/svg' width='4000' "
		 "height='200'><text id='t' x='0' y='100' font-family="
		 "'DejaVu Sans' font-size='%d' font-weight='%s'>%s</text>"
		 "</svg>", fs, bold ? "bold" : "normal", word);
	RsvgHandle *h = rsvg_handle_new_from_data((const guint8 *)svg,
						  strlen(svg), NULL);
	RsvgRectangle ink, logical;
	double w = -1;
	if (h && rsvg_handle_get_geometry_for_element(h, "#t", &ink, &logical,
						      NULL))
		w = logical.width;
	if (h)
		g_object_unref(h);
	return w;
}

int main(int argc, char **argv)
{
	int fs = argc > 1 ? atoi(argv[1]) : 20, over = 0, n = 0;
	double worst = 0;
	char line[512];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || strchr(line, '<') || strchr(line, '&'))
			continue;
		for (int bold = 0; bold < 2; bold++) {
			int cols = utf8_width(line);
			double guess = (cols * fs * (bold ? 66 : 62) + 99) / 100;
			double real = measure(line, fs, bold);
			printf("%s\t%s\t%d\t%.0f\t%.1f\t%.2f\n", line,
			       bold ? "bold" : "regular", cols, guess, real,
			       real / guess);
			if (real / guess > worst)
				worst = real / guess;
			over += real > guess;
			n++;
		}
	}
	printf("# %d labels at %d px: %d wider than guessed, largest ratio "
	       "%.2f\n", n, fs, over, worst);
	return 0;
}
