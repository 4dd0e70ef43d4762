#!/bin/sh
# caption-front.sh: an image model in the ordinary tracing commands
# (issue 29): 'trace --model=caption4 IMAGE.pgm' is 'caption IMAGE.pgm';
# the CSV, JSONL and Markdown of an image's trace hold the JSON trace's
# numbers (tests/caption_formats.py); a --batch of images named relative
# to the batch file, its bad lines reported FILE:LINE:COLUMN; the refusals
# (a local window, a missing or malformed PGM) with exit 1 and no output
# file.  The --hard trace of an image is checked against PyTorch by
# tests/caption.sh (tests/caption_torch_check.py).
. "$srcdir/tests/lib.sh"
AT=$ATTN_TRACE
case $AT in /*) ;; *) AT=$(pwd)/$AT ATTN_TRACE=$(pwd)/$ATTN_TRACE ;; esac
top=$(cd "$srcdir" && pwd)
img=$top/data/images

run_cmd trace --model=caption4 "$img/train/bar-x0.pgm"
expect_status 0 "trace --model=caption4 IMAGE"
"$AT" caption "$img/train/bar-x0.pgm" >"$TMP/caption.txt" 2>&1
check "trace --model=caption4 IMAGE is 'caption IMAGE' byte for byte" \
	cmp -s "$TMP/out" "$TMP/caption.txt"

check "csv, jsonl and markdown hold the JSON trace's numbers" \
	"$PYTHON3" "$top/tests/caption_formats.py" "$AT" caption4 \
	"$img/train/bar-x0.pgm" "a bar on the left"

# a batch: images relative to the batch file's directory, run from
# elsewhere; each JSONL line the trace of its image alone
mkdir "$TMP/set" "$TMP/set/img" "$TMP/elsewhere"
cp "$img/train/bar-x0.pgm" "$img/heldout/dot-y0-x0.pgm" "$TMP/set/img/"
cat >"$TMP/set/batch.txt" <<'EOF'
# images, relative to this file
img/bar-x0.pgm ||| a bar on the left
img/dot-y0-x0.pgm
EOF
cd "$TMP/elsewhere" || exit 99
run_cmd trace --model=caption4 --format=jsonl --batch=../set/batch.txt
expect_status 0 "--batch of images named relative to the batch file"
check "--batch: two JSONL lines" test "$(wc -l <"$TMP/out")" -eq 2
"$AT" trace --model=caption4 --format=json --target="a bar on the left" \
	"$TMP/set/img/bar-x0.pgm" >"$TMP/one.json"
"$AT" trace --model=caption4 --format=json "$TMP/set/img/dot-y0-x0.pgm" \
	>"$TMP/two.json"
check "--batch: each line is the trace of its image and caption, with its line number" \
	"$PYTHON3" -c 'import json, sys
lines = open(sys.argv[1]).read().splitlines()
want = [json.load(open(p)) for p in sys.argv[2:]]
got = [json.loads(l) for l in lines]
at = [g.pop("line", None) for g in got]
# the image is named as the batch resolved it, relative to the batch file
names = [g["input"].pop("image") for g in got]
for w in want:
    w["input"].pop("image")
sys.exit(got != want or at != [2, 3] or
         names != ["../set/img/bar-x0.pgm", "../set/img/dot-y0-x0.pgm"])' \
	"$TMP/out" "$TMP/one.json" "$TMP/two.json"

# bad lines: file:line:column, the good lines still traced
printf 'P2\n6 6\n255\n1 2 3\n' >"$TMP/set/img/short.pgm"
cat >"$TMP/set/bad.txt" <<'EOF'
img/bar-x0.pgm ||| a bar on the left
img/short.pgm ||| a bar
img/missing.pgm
img/bar-x0.pgm ||| a zebra
EOF
run_cmd trace --model=caption4 --format=jsonl --batch=../set/bad.txt
expect_status 1 "--batch with bad images"
expect_err "../set/bad.txt:2:1: ../set/img/short.pgm:5:1: expected pixel 4 of 36" \
	"--batch: a truncated PGM is FILE:LINE:COL then the PGM's own place"
expect_err "../set/bad.txt:3:1: " "--batch: a missing image is FILE:LINE:COL"
expect_err "../set/bad.txt:4:20: unknown target word \"zebra\"" \
	"--batch: an unknown caption word is at the caption's column"
check "--batch: the good line is still traced" \
	test "$(wc -l <"$TMP/out")" -eq 1
cd "$TMP" || exit 99

# the heatmap of an image: each word's weights over the image, the cells'
# weights written to 2 decimals in reading order, a panel a step
run_cmd heatmap --model=caption4 --scorer=general \
	--target="a bar on the left" -o "$TMP/heat.svg" "$img/train/bar-x0.pgm"
expect_status 0 "heatmap --model=caption4 IMAGE"
"$AT" trace --model=caption4 --scorer=general --target="a bar on the left" \
	--format=json "$img/train/bar-x0.pgm" >"$TMP/heat.json"
check "heatmap: each step's panel holds its word and the JSON's nine weights" \
	"$PYTHON3" -c 'import json, re, sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
texts = [t.text for t in root.iter(ns + "text")]
nums = [x for x in texts if re.fullmatch(r"[01]\.\d\d", x or "")]
words = [t.text for t in root.iter(ns + "text") if t.get("class") == "word"]
run = json.load(open(sys.argv[2]))["runs"][0]
want = ["%.2f" % a for st in run["steps"] for a in st["weights"]]
said = ["t=%d: %s" % (k + 1, w) for k, w in enumerate(run["output"])]
sys.exit(not (nums == want and words == said and len(want) == 6 * 9))' \
	"$TMP/heat.svg" "$TMP/heat.json"

# the quiz on an image: the score it asks for, worked out here from the
# JSON trace (s_{t-1}·h_i, the query of step t and cell i's annotation)
"$AT" quiz --model=caption4 --count=1 --seed=1 "$img/train/bar-x0.pgm" \
	</dev/null >"$TMP/quiz.q" 2>&1
"$AT" trace --model=caption4 --format=json "$img/train/bar-x0.pgm" \
	>"$TMP/greedy.json"
answer=$("$PYTHON3" -c 'import json, re, sys
q = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"What is the score e_(\d+),(\d+) = s_\d+·h_\d+\?", q)
d = json.load(open(sys.argv[2]))
t, i = int(m.group(1)), int(m.group(2))
s = d["runs"][0]["steps"][t - 1]["query"]
h = d["encoder"][i - 1]["annotation"]
print("%.4f" % sum(a * b for a, b in zip(s, h)))' "$TMP/quiz.q" "$TMP/greedy.json")
echo "$answer" | "$AT" quiz --model=caption4 --count=1 --seed=1 \
	"$img/train/bar-x0.pgm" >"$TMP/quiz.out" 2>&1
check "quiz on an image: the score worked out from the JSON ($answer) is right" \
	grep -qx "score: 1 of 1" "$TMP/quiz.out"
check "quiz on an image: it names the cell" \
	grep -q "encoder state h_[1-9] (\(top\|left\|middle\|right\|bottom\)" "$TMP/quiz.q"

# the step diagram: a box a cell, each line's weight the JSON's
run_cmd diagram --model=caption4 --step=5 -o "$TMP/step5.svg" \
	"$img/train/bar-x0.pgm"
expect_status 0 "diagram --model=caption4 IMAGE"
check "diagram: nine cells, each line's alpha the JSON's weight" \
	"$PYTHON3" -c 'import json, sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
got = [float(l.get("data-alpha")) for l in root.iter(ns + "line")
       if l.get("class") == "weight"]
want = json.load(open(sys.argv[2]))["runs"][0]["steps"][4]["weights"]
sys.exit(got != want)' "$TMP/step5.svg" "$TMP/greedy.json"
check "diagram: the image panel writes the JSON's nine weights in its cells" \
	"$PYTHON3" -c 'import json, sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
g = [e for e in root.iter(ns + "g") if e.get("class") == "image"]
cells = [r for r in g[0].iter(ns + "rect") if r.get("class") == "image-cell"]
nums = [t.text for t in g[0].iter(ns + "text")][:9]
want = json.load(open(sys.argv[2]))["runs"][0]["steps"][4]["weights"]
sys.exit(not (len(g) == 1 and len(cells) == 9 and
              nums == ["%.2f" % a for a in want]))' \
	"$TMP/step5.svg" "$TMP/greedy.json"
run_cmd deck --model=caption4 -o "$TMP/deck.html" "$img/train/bar-x0.pgm"
expect_status 0 "deck --model=caption4 IMAGE"
check "deck: the slides name the cells" grep -q "bottom-right" "$TMP/deck.html"
check "deck: the encoding is an image's, cell by cell, with no word or embedding" \
	sh -c "grep -q 'Encoding: the image, cell by cell' '$TMP/deck.html' &&
	       grep -q 'column for each cell of the image' '$TMP/deck.html' &&
	       ! grep -q 'word by word\|embedding x\|for each source word' '$TMP/deck.html'"
check "deck: each step's picture writes the JSON's weights over the image" \
	"$PYTHON3" -c 'import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
pics = re.findall(r"<svg class=\"pic\".*?</svg>", html, re.S)
got = {}
for p in pics:
    m = re.search(r"<g class=\"image\">(.*?)</g>", p, re.S)
    if m:
        t = int(re.search(r"data-step=\"(\d+)\"", p).group(1))
        got.setdefault(t, re.findall(r">([01]\.\d\d)</text>", m.group(1)))
steps = json.load(open(sys.argv[2]))["runs"][0]["steps"]
want = {k + 1: ["%.2f" % a for a in st["weights"]] for k, st in enumerate(steps)}
sys.exit(got != want)' "$TMP/deck.html" "$TMP/greedy.json"

# refusals: exit 1, and -o leaves no file
for w in local-m local-p fixed; do
	run_cmd trace --model=caption4 --window=$w -o "$TMP/w.json" \
		"$img/train/bar-x0.pgm"
	expect_status 1 "--window=$w over an image"
	expect_err "--window=$w centres on a position of a sentence" \
		"--window=$w: an image's cells have no order, said"
	check "--window=$w: no output file" test ! -e "$TMP/w.json"
done
# caption -o FILE writes the trace there (it printed to stdout, ignoring
# -o), and caption's csv, jsonl and markdown are trace's
run_cmd caption -f json -o "$TMP/o1.json" "$img/train/bar-x0.pgm"
expect_status 0 "caption -o FILE"
"$AT" caption -f json "$img/train/bar-x0.pgm" >"$TMP/o2.json"
check "caption -o FILE: the file is the trace, stdout empty" \
	sh -c "cmp -s '$TMP/o1.json' '$TMP/o2.json' && test ! -s '$TMP/out'"
run_cmd caption -o "$TMP/nodir/x.json" "$img/train/bar-x0.pgm"
expect_status 1 "caption -o into a missing directory"
check "caption -o into a missing directory writes nothing" \
	test ! -e "$TMP/nodir"
for f in csv jsonl markdown; do
	"$AT" caption -f $f "$img/train/bar-x0.pgm" >"$TMP/capf.$f"
	"$AT" trace --model=caption4 -f $f "$img/train/bar-x0.pgm" >"$TMP/trf.$f"
	check "caption -f $f is trace --model=caption4 -f $f" \
		sh -c "test -s '$TMP/capf.$f' && cmp -s '$TMP/capf.$f' '$TMP/trf.$f'"
done

# --gradient-paths reaches the cells (the numbers: caption.sh, against
# torch); the chart has a group of bars a cell, named as the cells are
run_cmd heatmap --model=caption4 --target="a bar on the left" \
	--gradient-paths -o "$TMP/gp.svg" "$img/train/bar-x0.pgm"
expect_status 0 "heatmap --gradient-paths over an image"
check "--gradient-paths over an image: the chart names the nine cells" \
	"$PYTHON3" -c 'import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
cells = ["top-left", "top", "top-right", "left", "middle", "right",
         "bottom-left", "bottom", "bottom-right"]
sys.exit(not all(re.search(">%s</text>" % c, t) for c in cells))' "$TMP/gp.svg"
run_cmd trace --model=caption4 --gradient-paths "$img/train/bar-x0.pgm"
expect_status 2 "--gradient-paths over an image without a caption"
expect_err "--gradient-paths needs --target" "it says why"
printf 'P2\n6 6\n255\n0 0 x\n' >"$TMP/bad.pgm"
run_cmd trace --model=caption4 -o "$TMP/b.json" "$TMP/bad.pgm"
expect_status 1 "a malformed PGM"
expect_err "bad.pgm:4:5: expected pixel 3 of 36" \
	"a malformed PGM: FILE:LINE:COL"
check "a malformed PGM: no output file" test ! -e "$TMP/b.json"
printf 'P5\n6 6\n255\n0123456789' >"$TMP/cut.pgm"
run_cmd trace --model=caption4 --format=csv -o "$TMP/c.csv" "$TMP/cut.pgm"
expect_status 1 "a binary PGM cut short"
expect_err "cut.pgm: byte 22: expected pixel 11 of 36" \
	"a binary PGM cut short: FILE: byte N (10 pixels after 11 header bytes)"
check "a binary PGM cut short: no output file" test ! -e "$TMP/c.csv"
run_cmd trace --model=caption4
expect_status 1 "an image model given no image"
expect_err "is an image model, which reads the PGM image named where a sentence would be: je suis étudiant: " \
	"no image: the default sentence is named as the missing image"
finish
