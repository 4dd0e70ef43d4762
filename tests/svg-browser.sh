#!/bin/sh
# svg-browser.sh: every kind of SVG picture attn-trace writes (heatmap of
# every variant, step diagram of every step and variant, self-attention's
# heatmap and line diagram, cross-attention, the gradient paths, accuracy,
# caption, glimpse, image, the caption model's step diagram), at every
# length from 1 to 12 source words (a caption of each length), loaded one by
# one in ONE headless Chromium and fitted into 1920x1080 as on a slide;
# every text measured: none under 20 px, no two that meet (0.5 px of
# tolerance), none outside its picture (tests/svg_browser.py,
# doc/heatmap.md "Legible from the back row").  The deck is held to the
# same rule by tests/deck-browser.sh.  Skipped (77) without Chromium or
# Python, except under CI=true, where it must run.
# SVG_SHOTS=DIR keeps 1920x1080 screenshots of a few pictures there;
# SVG_BROWSER_LENGTHS="1 4 12" measures those sentence lengths only.
. "$srcdir/tests/lib.sh"
need() {
	if [ "${CI:-}" = true ]; then
		echo "$1, and CI=true: this test must run in CI"; exit 1
	fi
	echo "$1"; exit 77
}
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	need "python3 is needed to drive the browser"
fi
browser=$(find_chromium)
if [ -z "$browser" ]; then
	need "no Chromium (set CHROMIUM, or apt-get install chromium)"
fi
"$PYTHON3" "$srcdir/tests/svg_browser.py" "$ATTN_TRACE" "$browser" \
	"$srcdir" ${SVG_SHOTS:+"$SVG_SHOTS"}
