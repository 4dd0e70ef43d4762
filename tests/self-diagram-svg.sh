#!/bin/sh
# self-diagram-svg.sh: attn-trace self --format=diagram-svg (and the
# heatmaps of --format=svg, checked the same way): its options,
# no file on an error, the SVG parsed as XML and its weights compared with
# the JSON trace, and the picture drawn by headless Chromium (skipped
# without it).
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to parse the SVG"; exit 77
fi
check_py="$srcdir/tests/self_diagram_check.py"
shot="$srcdir/tests/svg-screenshot.sh"

# --- the command line ---
run_cmd self --help
check "self --help names diagram-svg" grep -q 'diagram-svg' "$TMP/out"
check "self --help names --row" grep -q -- '--row=I' "$TMP/out"
run_cmd self --format=diagram-svg --row=0
expect_status 2 "self: --row=0"
expect_err "--row expects a query row from 1 to 64, not '0'" "self: --row's range"
run_cmd self --format=diagram-svg --row=4 je suis étudiant
expect_status 2 "self: --row past the words"
expect_err "--row 4 is past the 3 query words" "self: says how many"
run_cmd self --format=json --row=2
expect_status 2 "self: --row with another format"
expect_err "--row picks the query row of the stepper and of --format=diagram-svg, not of --format=json" \
	"self: --row belongs to the diagram"
mkdir "$TMP/empty"
run_cmd self --format=diagram-svg --row=9 -o "$TMP/empty/d.svg" je suis
check "self: no file from a row past the words" \
	sh -c "[ -z \"\$(ls -A '$TMP/empty')\" ]"

# --- the numbers, against the JSON trace ---
# one N ROW ARG...: the diagram of row ROW ("": the default) of self ARG...
one() {
	n=$1 row=$2
	shift 2
	"$ATTN_TRACE" self "$@" --format=json >"$TMP/$n.json"
	run_cmd self ${row:+--row=$row} --format=diagram-svg -o "$TMP/$n.svg" "$@"
	expect_status 0 "diagram-svg $n: $*, row ${row:-1}"
	check "diagram-svg $n: XML whose weights are the JSON's" \
		"$PYTHON3" "$check_py" svg "$TMP/$n.svg" "$TMP/$n.json"
}
one 1 "" je suis étudiant
one 2 "" --causal je suis étudiant
one 3 3 --causal je suis étudiant
one 4 2 --no-position je suis étudiant
one 5 2 --heads=2 --causal je suis étudiant
one 6 2 --target="european economic area" --causal zone économique européenne
one 7 1 --target="european economic area" zone économique européenne
# the heatmaps of --format=svg read the same records
run_cmd self --format=svg -o "$TMP/h2.svg" --causal je suis étudiant
check "self --format=svg: the cells are the JSON's weights (causal)" \
	"$PYTHON3" "$check_py" heatmap "$TMP/h2.svg" "$TMP/2.json"
run_cmd self --format=svg -o "$TMP/h6.svg" --causal \
	--target="european economic area" zone économique européenne
check "self --format=svg: the cells are the JSON's weights (cross)" \
	"$PYTHON3" "$check_py" heatmap "$TMP/h6.svg" "$TMP/6.json"
run_cmd self --format=svg -o "$TMP/h5.svg" --heads=2 --causal je suis étudiant
check "self --format=svg: the cells are the JSON's weights (head 2)" \
	"$PYTHON3" "$check_py" heatmap "$TMP/h5.svg" "$TMP/5.json"
# at 12 words two heads do not fit a slide with their numbers at 20 px
# (doc/heatmap.md): the numbers yield to tooltips, a row's largest framed
w12=$("$ATTN_TRACE" vocab --source --model=self4 | grep -v '^<' | head -n 6 |
	tr '\n' ' ')
for opt in --causal --target="european economic area am i a european economic area am i a"; do
	"$ATTN_TRACE" self --format=json "$opt" $w12 $w12 >"$TMP/12.json"
	run_cmd self --format=svg -o "$TMP/h12.svg" "$opt" $w12 $w12
	check "self --format=svg, 12 words, $opt: no numbers in the cells" \
		sh -c "! grep -q 'class=\"value\"' '$TMP/h12.svg'"
	check "self --format=svg, 12 words, $opt: tooltips and frames are the JSON's" \
		"$PYTHON3" "$check_py" heatmap "$TMP/h12.svg" "$TMP/12.json"
done

# heatmap --self draws the same heatmaps as self --format=svg
run_cmd heatmap --self --causal -o "$TMP/hs2.svg" je suis étudiant
expect_status 0 "heatmap --self --causal"
check "heatmap --self: the same picture as self --format=svg" \
	cmp -s "$TMP/hs2.svg" "$TMP/h2.svg"
run_cmd heatmap --self --causal --heads=2 -o "$TMP/hs5.svg" je suis étudiant
check "heatmap --self --heads=2: the JSON's weights of head 2" \
	"$PYTHON3" "$check_py" heatmap "$TMP/hs5.svg" "$TMP/5.json"
run_cmd heatmap --self --causal --target="european economic area" \
	-o "$TMP/hs6.svg" zone économique européenne
check "heatmap --self --target: cross-attention's weights" \
	"$PYTHON3" "$check_py" heatmap "$TMP/hs6.svg" "$TMP/6.json"
run_cmd heatmap --self --scorer=general
expect_status 2 "heatmap --self --scorer"
expect_err "--self draws self-attention, which takes no --scorer" \
	"heatmap --self: says --scorer does not belong"
run_cmd heatmap --causal
expect_status 2 "heatmap --causal without --self"
expect_err "--causal is an option of --self" "heatmap: --causal needs --self"
run_cmd heatmap --self --heads=3
expect_status 2 "heatmap --self --heads=3"
run_cmd heatmap --self --model=toy4
expect_status 1 "heatmap --self on a model without self-attention"
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$ATTN_TRACE' heatmap --self --causal je suis" /dev/null \
		>"$TMP/tty" 2>&1
	check "heatmap --self on a terminal: a shaded table a head" \
		grep -q 'head 1: A (heatmap).*head 2: A (heatmap)' "$TMP/tty"
	check "heatmap --self on a terminal: a masked weight is 0" \
		grep -q '^1 je .*1\.0000 .*0\.0000' "$TMP/tty"
	check "heatmap --self on a terminal: no SVG, and a note" \
		sh -c "! grep -q '<svg' '$TMP/tty' && grep -q 'note: .*-o FILE.svg' '$TMP/tty'"
	LC_ALL=C script -qec "'$ATTN_TRACE' heatmap --self je suis" /dev/null \
		>"$TMP/tty" 2>&1
	check "heatmap --self in the C locale: ASCII shades" \
		sh -c "tr -d '\\r' <'$TMP/tty' | LC_ALL=C grep -q '[^ -~]' && exit 1 || exit 0"
else
	echo "# script(1) is missing: the terminal heatmap is not tested"
fi

run_cmd self --format=diagram-svg --causal je suis étudiant
cp "$TMP/out" "$TMP/again"
run_cmd self --format=diagram-svg --causal je suis étudiant
check "diagram-svg: the same bytes twice" cmp -s "$TMP/out" "$TMP/again"
check "diagram-svg: stdout without -o" grep -q '^<svg' "$TMP/out"

# --- the picture, drawn by Chromium ---
sh "$shot" "$TMP/3.svg" "$TMP/3.png" >"$TMP/shot.err" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
	echo "# skip: no Chromium for the screenshot"
else
	check "Chromium draws the line diagram" [ $rc -eq 0 ]
	check "the screenshot shows the chosen row's widest lines" \
		"$PYTHON3" "$check_py" png "$TMP/3.png" "$TMP/3.svg"
fi

finish
