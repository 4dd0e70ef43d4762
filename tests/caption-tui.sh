#!/bin/sh
# caption-tui.sh: the stepper on an image (tmux, 80x24): the title names
# the image, the encoding screens narrate the patch encoder cell by cell,
# and from the softmax on each step shows the image beside its pixels
# shaded by the step's weights, with the nine weights to 2 decimals; the
# weights on screen are those of the JSON trace (worked out here from
# it), the six pixel rows all on the 24-line screen; m shows every
# word's weights over the image, side by side as the width holds them.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui-lib.sh"
top=$(cd "$srcdir" && pwd)
pic=$top/data/images/train/bar-x0.pgm

LC_ALL=C.UTF-8 "$ATTN_TRACE" trace --model=caption4 --format=json "$pic" \
	>"$TMP/trace.json"
# the rows of cells' weights of step 5, as the screen must show them
"$PYTHON3" -c 'import json, sys
a = json.load(open(sys.argv[1]))["runs"][0]["steps"][4]["weights"]
for r in range(3):
    print("  ".join("%.2f" % x for x in a[3 * r:3 * r + 3]))' \
	"$TMP/trace.json" >"$TMP/rows"
check "the JSON trace gives three rows of weights for step 5" \
	test "$(wc -l <"$TMP/rows")" -eq 3

start cap 80 24 "'$ATTN_TRACE' tui --model=caption4 --color=never '$pic'"
expect cap "attn-trace   bar-x0.pgm -> (greedy)   [dot scorer, bahdanau]" \
	"the title names the image file"
expect cap "cell 1 of 9" "the encoding steps through the cells"
expect cap "The patch encoder reads the image as 3×3 cells" \
	"the encoding is narrated as the patch encoder's"
# the scoring narrative is 7 lines at 80 columns: its end goes on at
# the top of the body, not cut off after 6 (the largest score's cell)
best=$("$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1]))
e = d["runs"][0]["steps"][0]["scores"]
print(d["source"][e.index(max(e))])' "$TMP/trace.json")
keys cap g 2
expect cap "stage 2 of 6: scoring   step t=1 of 6" "g 2: the scoring"
expect cap "for \"$best\"." "the scoring narrative ends on screen: the largest score's cell ($best)"
keys cap g 3
expect cap "stage 3 of 6: softmax   step t=1 of 6" "g 3: the softmax"
expect cap "the image and α_1 over its cells (dot)" \
	"the softmax shows the image and its weights"
for k in $(seq 20); do keys cap Right; done
expect cap "stage 3 of 6: softmax   step t=5 of 6" "20 screens on: step 5"
expect cap "the image and α_5 over its cells (dot)" "step 5's picture"
screen cap >"$TMP/screen"
check "80x24: step 5's three rows of weights are the JSON's, in order" \
	"$PYTHON3" -c 'import sys
rows = open(sys.argv[2]).read().split("\n")[:3]
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
at = [k for k, l in enumerate(lines) for r in rows[:1]
      if l.rstrip().endswith(r)]
ok = len(at) == 1 and all(lines[at[0] + 2 * j].rstrip().endswith(rows[j])
                          for j in range(3))
sys.exit(not ok)' "$TMP/screen" "$TMP/rows"
check "80x24: the picture's six pixel rows are on the screen, above the keys" \
	"$PYTHON3" -c 'import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
t = [k for k, l in enumerate(lines) if "α_5 over its cells" in l]
sys.exit(not (len(t) == 1 and t[0] + 7 <= 23 and
              "q quit" in lines[23] and lines[t[0] + 1].startswith("   ")))' \
	"$TMP/screen"
# m: every word's weights over the image, two panels a row at 100x30
keys cap q
wait_exit cap 0 "q quits"
LC_ALL=C.UTF-8 "$ATTN_TRACE" trace --model=caption4 --format=json "$pic" |
	"$PYTHON3" -c 'import json, sys
d = json.load(sys.stdin)["runs"][0]["steps"]
for t in (2, 3):   # steps 3 and 4, side by side: their first rows
    print("  ".join("%.2f" % x for x in d[t]["weights"][:3]))' \
	>"$TMP/rows34"
start capm 100 30 "'$ATTN_TRACE' tui --model=caption4 --color=never '$pic'"
expect capm "cell 1 of 9" "100x30: the stepper opens"
keys capm m
expect capm "each word's weights over the image, the dot scorer" \
	"m on an image: each word's weights over the image"
screen capm >"$TMP/heat"
check "m: steps 3 and 4 side by side, each row of weights the JSON's" \
	"$PYTHON3" -c 'import sys
rows = open(sys.argv[2]).read().split("\n")[:2]
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
head = [k for k, l in enumerate(lines) if "t=3: on" in l and "t=4: the" in l]
ok = len(head) == 1 and lines[head[0] + 1].find(rows[0]) >= 0 and \
    lines[head[0] + 1].rstrip().endswith(rows[1]) and \
    lines[head[0] + 1].find(rows[0]) < lines[head[0] + 1].rfind(rows[1])
sys.exit(not ok)' "$TMP/heat" "$TMP/rows34"
keys capm Escape
expect capm "cell 1 of 9" "Esc: back to the step"
keys capm q
wait_exit capm 0 "q quits"

# heatmap on a terminal: each word beside the image and its weights, the
# text of 'caption --format=weights'
start heat 80 24 "'$ATTN_TRACE' heatmap --model=caption4 --scorer=dot '$pic'"
expect heat "t=5: left  (the image; α_5 over its cells)" \
	"heatmap on a terminal: step 5's word over the image"
expect heat "$(sed -n 3p "$TMP/rows")" \
	"heatmap on a terminal: step 5's last row of weights is the JSON's"

# --hard: the picture's title names the cell drawn, the JSON's l
LC_ALL=C.UTF-8 "$ATTN_TRACE" trace --model=caption4 --format=json --hard \
	--seed=3 "$pic" >"$TMP/hard.json"
drawn=$("$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1]))
l = d["runs"][0]["steps"][2]["hard"]["l"]
print("drawn: cell %d, \"%s\"" % (l, d["source"][l - 1]))' "$TMP/hard.json")
start hard 80 24 "'$ATTN_TRACE' tui --model=caption4 --hard --seed=3 --color=never '$pic'"
expect hard "cell 1 of 9" "--hard: the stepper opens"
keys hard g 4
expect hard "stage 4 of 6: weighted sum   step t=1" "g 4: the weighted sum"
expect hard "Hard attention keeps" "--hard: the weighted sum narrates the draw"
expect_not hard "keeps one word" "--hard: an image's draw keeps a cell, not a word"
for k in $(seq 10); do keys hard Right; done
expect hard "the image and α_3 over its cells (dot); $drawn" \
	"--hard: step 3's picture names the cell drawn ($drawn)"
keys hard q
wait_exit hard 0 "q quits"
finish
