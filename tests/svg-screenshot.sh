#!/bin/sh
# svg-screenshot.sh: draws an SVG picture (attn-trace heatmap -o FILE.svg)
# into a PNG with headless Chromium, at the size the SVG asks for.
#
#   tests/svg-screenshot.sh align.svg align.png
#   SCALE=2 tests/svg-screenshot.sh align.svg align@2x.png   # sharper slides
#
# Chromium is found as $CHROMIUM, or else as chromium, chromium-browser,
# google-chrome or google-chrome-stable on the PATH (Debian: apt-get install
# chromium).  It runs with a throw-away profile, without the network, and
# without its sandbox, which cannot start as root or in most containers.
# Exit status: 0 when the PNG was written; 1 when Chromium failed (its
# messages are printed); 2 on a bad command line; 77 when there is no
# Chromium.
set -u
usage="usage: [SCALE=N] $0 SVG PNG"
if [ $# -ne 2 ]; then
	echo "$usage" >&2
	exit 2
fi
svg=$1
png=$2
scale=${SCALE:-1}
case $scale in
'' | *[!0-9]* | 0) echo "$0: SCALE must be a whole number from 1" >&2; exit 2 ;;
esac

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
	for b in chromium chromium-browser google-chrome google-chrome-stable; do
		if command -v "$b" >/dev/null 2>&1; then
			browser=$b
			break
		fi
	done
fi
if [ -z "$browser" ]; then
	echo "$0: no Chromium found (set CHROMIUM, or apt-get install chromium)" >&2
	exit 77
fi

# the size from the root element: <svg ... width="W" height="H" ...>
size=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' \
	"$svg" | head -n 1)
if [ -z "$size" ]; then
	echo "$0: $svg: no width and height on the <svg> line" >&2
	exit 1
fi

case $svg in
/*) url=file://$svg ;;
*) url=file://$(pwd)/$svg ;;
esac
case $png in
/*) out=$png ;;
*) out=$(pwd)/$png ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/svg-screenshot.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
to=
if command -v timeout >/dev/null 2>&1; then
	to="timeout 120"
fi
rm -f "$out"
$to "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
	--no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --hide-scrollbars \
	--user-data-dir="$work/profile" --force-device-scale-factor="$scale" \
	--window-size="$size" --screenshot="$out" "$url" >"$work/log" 2>&1
status=$?
if [ "$status" -ne 0 ] || [ ! -s "$out" ]; then
	echo "$0: $browser failed (exit $status):" >&2
	cat "$work/log" >&2
	exit 1
fi
exit 0
