#!/bin/sh
# svg.sh: attn-trace heatmap: its command line, its output file written
# whole or not at all, the SVG parsed with a real XML parser and checked
# against the JSON trace, and the picture drawn by headless Chromium.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to parse the SVG"; exit 77
fi
run_cmd heatmap --help
if [ "$status" -ne 0 ] && grep -q "unknown command 'heatmap'" "$TMP/err"; then
	echo "this attn-trace has no heatmap command (src/cli.c does not call"
	echo "cli_heatmap yet)"
	exit 77
fi
check_py="$srcdir/tests/svg_check.py"
shot="$srcdir/tests/svg-screenshot.sh"

# --- the command line ---
expect_status 0 "heatmap --help"
check "heatmap --help shows the usage" \
	grep -q '^Usage: attn-trace heatmap' "$TMP/out"
run_cmd heatmap --scorer=no-such-scorer
expect_status 2 "heatmap: unknown scorer"
expect_err "Try 'attn-trace --help'" "heatmap: the usage hint"
run_cmd heatmap --precision=18
expect_status 2 "heatmap: precision out of range"
run_cmd heatmap --frob
expect_status 2 "heatmap: unknown option"
expect_err "unknown option '--frob'" "heatmap: the unknown option is named"
run_cmd heatmap -o
expect_status 2 "heatmap: -o without a file"
run_cmd heatmap je suis chat
expect_status 1 "heatmap: unknown source word"
expect_err 'unknown source word "chat"' "heatmap: the unknown word is named"
run_cmd heatmap --target="i am </s>"
expect_status 1 "heatmap: </s> in a target"

# --- the output file ---
run_cmd heatmap
expect_status 0 "heatmap to stdout"
cp "$TMP/out" "$TMP/stdout.svg"
run_cmd heatmap -o "$TMP/align.svg"
expect_status 0 "heatmap -o FILE"
check "-o FILE holds what stdout gets" cmp -s "$TMP/align.svg" "$TMP/stdout.svg"
check "-o FILE prints nothing" test ! -s "$TMP/out"
run_cmd heatmap --output=- --precision=4 je suis étudiant
check "-o - is stdout, and the defaults are dot, precision 4, je suis étudiant" \
	cmp -s "$TMP/out" "$TMP/stdout.svg"
run_cmd heatmap
check "the same bytes every time" cmp -s "$TMP/out" "$TMP/stdout.svg"
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	LC_ALL=de_DE.UTF-8 "$ATTN_TRACE" heatmap >"$TMP/de.svg" 2>"$TMP/err"
	check "the same bytes in a comma locale" cmp -s "$TMP/de.svg" "$TMP/stdout.svg"
else
	echo "# no de_DE.UTF-8 locale: the comma-locale check is skipped"
fi

echo "old picture" >"$TMP/keep.svg"
run_cmd heatmap -o "$TMP/keep.svg" je suis chat
check "a data error leaves the old file" grep -qx "old picture" "$TMP/keep.svg"
run_cmd heatmap -o "$TMP/no/such/dir/a.svg"
expect_status 1 "a missing directory"
expect_err "attn-trace: $TMP/no/such/dir: cannot create a file in this directory: No such file or directory (to write $TMP/no/such/dir/a.svg)" \
	"the missing directory is blamed, and the file named"
run_cmd heatmap -o /dev/full
expect_status 1 "-o /dev/full"
expect_err "attn-trace: /dev/full: No space left on device" \
	"a full device is reported with the file's name"
"$ATTN_TRACE" heatmap >/dev/full 2>"$TMP/err"
status=$?
expect_status 1 "stdout on a full disk"
expect_err "write error" "a full stdout is reported"
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
	run_cmd heatmap -o "$TMP/ro/a.svg"
	expect_status 1 "an unwritable directory"
	expect_err "Permission denied" "an unwritable directory is explained"
	chmod 755 "$TMP/ro"
fi
check "no temporary file is left behind" \
	sh -c "! ls -A '$TMP' | grep -q '^\\.'"

# --- the SVG against the JSON trace ---
# svg_same NAME ARGS...: the heatmap and the JSON trace of ARGS agree
svg_same() {
	name=$1
	shift
	prec=4
	for a in "$@"; do
		case $a in --precision=*) prec=${a#--precision=} ;; esac
	done
	"$ATTN_TRACE" heatmap "$@" -o "$TMP/$name.svg" 2>"$TMP/err" &&
	"$ATTN_TRACE" trace --format=json "$@" >"$TMP/$name.json" 2>>"$TMP/err" &&
	"$PYTHON3" "$check_py" svg "$TMP/$name.svg" "$TMP/$name.json" "$prec"
}
check "the default heatmap matches its trace" svg_same je
check "precision 2" svg_same je2 --precision=2
check "precision 0" svg_same je0 --precision=0
check "precision 17" svg_same je17 --precision=17
check "the three scorers side by side, teacher-forced, long words" \
	svg_same zone --scorer=all --target="european economic area" \
	zone économique européenne
check "general, greedy" svg_same general --scorer=general \
	zone économique européenne
check "wrong outputs show their target" svg_same wrong --scorer=concat \
	--target="area economic european" zone économique européenne
check "the wrong outputs are there to show" \
	grep -q 'class="target"' "$TMP/wrong.svg"

# words that XML must escape, in a model of their own
sed -e 's/^un /a\&b<"c"> /' -e 's/^three /x'"'"'y\&z /' \
	"$srcdir/tests/data/tiny.model" >"$TMP/esc.model"
check "the escape model loads" sh -c \
	"\"\$ATTN_TRACE\" model --model=\"$TMP/esc.model\" >/dev/null"
check "words with & < > \" ' are escaped" svg_same esc --model="$TMP/esc.model" \
	--scorer=all --target="one x'y&z" 'a&b<"c">' deux trois
check "no raw & or < from a word" sh -c "! grep -qF 'a&b<' '$TMP/esc.svg'"

# --- a local window's marks: p_t's dots and their path keep off every
# value, for 1, 3, 5 and 8 words, p_t at the first and the last word,
# windows clipped at either edge, local-m and local-p, both architectures
# (svg_check.py marks works out the boxes from the coordinates) ---
bl="$srcdir/tests/data/localp-bahdanau.model"
for w in "je" "je suis étudiant" \
	"zone économique européenne sociale agricole" \
	"il est artiste elle devient médecin je reste"; do
	for opt in "--model=localp4 --window=local-p --window-size=1" \
		"--model=localp4 --window=local-p --window-size=3" \
		"--window=local-m --window-size=0" \
		"--window=local-m --window-size=2" \
		"--arch=bahdanau --window=local-m --window-size=1"; do
		# shellcheck disable=SC2086
		"$ATTN_TRACE" heatmap $opt -o "$TMP/marks.svg" $w
		check "heatmap $opt, $w: p_t's marks cross no number" \
			"$PYTHON3" "$check_py" marks "$TMP/marks.svg"
	done
done
for w in "deux" "un deux trois" "un deux trois deux un" \
	"trois deux un un deux trois deux un"; do
	for d in 1 2; do
		"$ATTN_TRACE" heatmap --model="$bl" --arch=bahdanau --window=local-p \
			--window-size=$d -o "$TMP/marks.svg" $w
		check "heatmap, Bahdanau's local-p, D = $d, $w: p_t's marks cross no number" \
			"$PYTHON3" "$check_py" marks "$TMP/marks.svg"
	done
done

# --- the picture, drawn by Chromium ---
if ! command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1 &&
   ! command -v chromium-browser >/dev/null 2>&1 &&
   ! command -v google-chrome >/dev/null 2>&1; then
	echo "# no Chromium (apt-get install chromium): the screenshots are skipped"
	finish
	exit
fi
for name in je zone esc; do
	check "Chromium draws $name.svg" sh "$shot" "$TMP/$name.svg" "$TMP/$name.png"
	check "$name.png has the size, the border and the cells of $name.svg" \
		"$PYTHON3" "$check_py" png "$TMP/$name.png" "$TMP/$name.svg" 1
done
check "Chromium draws at scale 2" \
	env SCALE=2 sh "$shot" "$TMP/je.svg" "$TMP/je2x.png"
check "the scale-2 picture is twice the size" \
	"$PYTHON3" "$check_py" png "$TMP/je2x.png" "$TMP/je.svg" 2
run_shot() {
	sh "$shot" "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
}
run_shot "$TMP/je.svg"
expect_status 2 "svg-screenshot.sh needs two files"
run_shot "$TMP/je.json" "$TMP/x.png"
expect_status 1 "svg-screenshot.sh refuses a file that is not an SVG"

# --- one slide a panel: -o DIR/ (doc/heatmap.md, "Legible from the back
# row"): a file a scorer, each the picture of that scorer alone ---
run_cmd heatmap --scorer=all -o "$TMP/slides/" je suis étudiant
expect_status 0 "heatmap --scorer=all -o DIR/ makes DIR"
scorers=$("$ATTN_TRACE" scorers | awk '/^[^ ]/ { print $1 }')
n=0
for s in $scorers; do
	n=$((n + 1))
	"$ATTN_TRACE" heatmap --scorer="$s" -o "$TMP/one.svg" je suis étudiant
	check "-o DIR/: heatmap-$s.svg is heatmap --scorer=$s's picture" \
		cmp -s "$TMP/one.svg" "$TMP/slides/heatmap-$s.svg"
done
check "-o DIR/: one file a scorer ($n), nothing else" \
	test "$(ls "$TMP/slides" | wc -l)" -eq "$n"
run_cmd heatmap --arch=all -o "$TMP/archs" je suis
check "-o NAME with no / that is not a directory: one file" \
	test -f "$TMP/archs"
run_cmd heatmap --arch=all -o "$TMP/arch-slides/" je suis
check "-o DIR/ under --arch=all: a file an architecture" \
	test "$(cd "$TMP/arch-slides" && ls | tr '\n' ' ')" = \
	"heatmap-bahdanau-dot.svg heatmap-luong-dot.svg "
run_cmd heatmap --scorer=all -o "$TMP/keep.svg/" je suis
expect_status 1 "-o FILE/ on a file: refused"
expect_err "Not a directory" "-o FILE/ on a file: says why"
check "-o FILE/ on a file: the file is kept" grep -qx "old picture" \
	"$TMP/keep.svg"
run_cmd heatmap --scorer=all -o "$TMP/new-slides/" je suis chat
expect_status 1 "-o DIR/ and an unknown word"
check "-o DIR/ and a data error: no directory left" \
	test ! -e "$TMP/new-slides"

finish
