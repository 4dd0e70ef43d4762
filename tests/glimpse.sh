#!/bin/sh
# glimpse.sh: attn-trace glimpse (src/glimpse*.c).  Every number of the
# JSON trace against PyTorch (tests/glimpse_torch_check.py); the same
# seed gives the same bytes and another seed other draws; bad input and
# bad options are refused with nothing written.
. "$srcdir/tests/lib.sh"
img="$srcdir/data/images"

torch_python_find
if [ -n "$torch_python" ]; then
	check "every number of the glimpse traces agrees with torch" \
		"$torch_python" "$srcdir/tests/glimpse_torch_check.py" "$ATTN_TRACE" "$img"
else
	ok "# SKIP no Python here can import torch"
fi

"$ATTN_TRACE" glimpse --seed=5 -f json "$img/train/bar-x0.pgm" >"$TMP/a.json"
"$ATTN_TRACE" glimpse --seed=5 -f json "$img/train/bar-x0.pgm" >"$TMP/b.json"
"$ATTN_TRACE" glimpse --seed=6 -f json "$img/train/bar-x0.pgm" >"$TMP/c.json"
check "the same seed gives the same bytes" cmp -s "$TMP/a.json" "$TMP/b.json"
check "another seed draws other places" sh -c "! cmp -s $TMP/a.json $TMP/c.json"

# numbers with '.' under a decimal-comma locale: the same bytes
if locale -a 2>/dev/null | grep -qix de_DE.utf8; then
	LC_ALL=de_DE.UTF-8 "$ATTN_TRACE" glimpse --seed=5 --class=bar "$img/train/bar-x0.pgm" >"$TMP/de.txt"
	LC_ALL=C.UTF-8 "$ATTN_TRACE" glimpse --seed=5 --class=bar "$img/train/bar-x0.pgm" >"$TMP/c.txt"
	check "text under de_DE.UTF-8 is the C locale's bytes" cmp -s "$TMP/de.txt" "$TMP/c.txt"
	LC_ALL=de_DE.UTF-8 "$ATTN_TRACE" glimpse --train="$img/train.captions" --epochs=5 -o "$TMP/de.model"
	LC_ALL=C "$ATTN_TRACE" glimpse --train="$img/train.captions" --epochs=5 -o "$TMP/c.model"
	check "a model trained under de_DE.UTF-8 is the C locale's bytes" cmp -s "$TMP/de.model" "$TMP/c.model"
fi

# every retina's boxes show whole, also where they reach past the image:
# with seed 5, glimpse 2 of bar-x1 is at corner (1, 6), so its fovea
# takes columns 5 and 6 and its periphery rows -1 .. 2 and columns 4 .. 7
# (doc/model.md, step 7): each picture has the four corners of both boxes
"$ATTN_TRACE" glimpse --seed=5 "$img/heldout/bar-x1.pgm" >"$TMP/edge.txt"
for g in 1 2 3; do
	awk -v g="$g" '/^[^ ]/ { on = ($1 == "glimpse" && $2 == g) } on' "$TMP/edge.txt" >"$TMP/edge$g.txt"
	for k in ┌ ┐ └ ┘; do
		n=$(grep -o "$k" "$TMP/edge$g.txt" | wc -l)
		check "glimpse $g's picture has both boxes' corner $k" [ "$n" -eq 2 ]
	done
done
check "glimpse 2 is at corner (1, 6)" grep -q "corner (row, column) = (1, 6)" "$TMP/edge2.txt"
check "... and its picture says what lies outside the image" \
	grep -q "^    ·· outside the image (read as 0)$" "$TMP/edge2.txt"
check "glimpse 1, inside the image, has no such line" \
	sh -c "! grep -q 'outside the image' $TMP/edge1.txt"

run_cmd glimpse --class=cat "$img/train/bar-x0.pgm"
expect_status 2 "--class with a class the model lacks"
check "... says so" grep -q "class=cat: expected a class of the model" "$TMP/err"
run_cmd glimpse
expect_status 2 "glimpse with no image"
run_cmd glimpse -f jsn "$img/train/bar-x0.pgm"
expect_status 2 "an unknown format"
check "... names the formats" grep -q "expected text, json, jsonl, csv, markdown, model or svg" "$TMP/err"

printf 'P2\n2 2\n255\n0 0 0\n' >"$TMP/short.pgm"
run_cmd glimpse -o "$TMP/out.txt" "$TMP/short.pgm"
expect_status 1 "a truncated PGM"
check "... names its place" grep -q "short.pgm:5:1: expected pixel 4 of 4" "$TMP/err"
check "... and writes nothing" test ! -e "$TMP/out.txt"

printf 'attn-trace-glimpse 1\nhidden 0\n' >"$TMP/bad.model"
run_cmd glimpse -m "$TMP/bad.model" "$img/train/bar-x0.pgm"
expect_status 1 "a bad model file"
check "... names its place" grep -q "bad.model:2:8: expected a whole number" "$TMP/err"

run_cmd glimpse -m caption4 "$img/train/bar-x0.pgm"
expect_status 1 "a built-in model that is not a glimpse model"
expect_err 'expected a glimpse model (glimpse6, or a file of glimpse --train), found "caption4", a built-in model of sentences or captions' \
	"... says what it is, not 'No such file'"

run_cmd glimpse --train="$img/train.captions"
expect_status 2 "--train without -o"

# The SVG: well-formed, a fovea box a glimpse at the trace's corners
# (64 px a pixel, the image two pixels in from the page's margin).
"$ATTN_TRACE" glimpse -f svg -o "$TMP/g.svg" --seed=3 "$img/train/box-y0-x0.pgm"
"$ATTN_TRACE" glimpse -f json --seed=3 "$img/train/box-y0-x0.pgm" >"$TMP/g.json"
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	check "the SVG draws each glimpse's fovea at its corner" "$PYTHON3" - "$TMP/g.svg" "$TMP/g.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg, doc = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
foveas = [r for r in svg.iter(ns + "rect") if r.get("class") == "fovea"]
assert len(foveas) == len(doc["steps"]), len(foveas)
left, top = 30 + 2 * 64, 30 + 28 + 2 * 34 + 2 * 64
for r, st in zip(foveas, doc["steps"]):
    R, C = st["corner"]
    assert (int(r.get("x")), int(r.get("y"))) == (left + (C - 1) * 64,
                                                top + (R - 1) * 64), st
PY
fi

# Each glimpse's number: in a disc in the middle of a cell of the
# two-pixel margin round the image (where no frame line runs and no
# pixel's number is), the free one nearest its corner, in the order of
# the glimpses; a dot on the corner and a line from it to the number.
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	for f in "$img"/train/box-y0-x0.pgm "$img"/heldout/dot-y2-x2.pgm "$img"/train/bar-x0.pgm; do
		b=$(basename "$f" .pgm)
		"$ATTN_TRACE" glimpse -f svg -o "$TMP/n-$b.svg" "$f"
		"$ATTN_TRACE" glimpse -f json "$f" >"$TMP/n-$b.json"
		check "$b: each glimpse's number sits in the margin cell nearest its corner" "$PYTHON3" - "$TMP/n-$b.svg" "$TMP/n-$b.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg, doc = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
W, H, S = doc["width"], doc["height"], 64
left, top = 30 + 2 * S, 30 + 28 + 2 * 34 + 2 * S
g = [g for g in svg.iter(ns + "g") if g.get("class") == "corners"][0]
texts = {t.text: t for t in g.iter(ns + "text")}
circles = [(int(c.get("cx")), int(c.get("cy")), int(c.get("r")))
           for c in g.iter(ns + "circle")]
lines = [tuple(int(l.get(k)) for k in ("x1", "y1", "x2", "y2"))
         for l in g.iter(ns + "line")]
margin = [(x, y) for y in range(-2, H + 2) for x in range(-2, W + 2)
          if not (0 <= x < W and 0 <= y < H)]
taken = []
for k, st in enumerate(doc["steps"]):
    R, C = st["corner"]
    free = [c for c in margin if c not in taken]
    d = lambda c: (c[0] + 0.5 - C) ** 2 + (c[1] + 0.5 - R) ** 2
    best = min(d(c) for c in free)
    cells = [c for c in free if d(c) == best]
    t = texts[str(k + 1)]
    bx, by = int(t.get("x")), int(t.get("y")) - 22 // 3
    cell = ((bx - left - S // 2) // S, (by - top - S // 2) // S)
    assert (bx - left - S // 2) % S == 0 and (by - top - S // 2) % S == 0, \
        (k, bx, by)
    assert cell in cells, (k + 1, cell, cells)
    taken.append(cell)
    x, y = left + C * S, top + R * S
    assert (x, y, 8) in circles and (bx, by, 17) in circles, (k + 1, circles)
    assert (x, y, bx, by) in lines, (k + 1, lines)
assert len(set(taken)) == len(taken) == len(texts), taken
PY
	done
fi

# No frame line crosses a pixel's number: each edge of each fovea and
# periphery box, widened by half its stroke, misses every number's box,
# estimated from DejaVu Sans's advances (a digit 0.636 em, '.' 0.318 em;
# 0.93 em above the baseline, 0.24 below), on every training image.
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	for f in "$img"/train/*.pgm; do
		"$ATTN_TRACE" glimpse -f svg -o "$TMP/g-$(basename "$f" .pgm).svg" "$f"
	done
	check "no glimpse frame crosses a pixel's number" "$PYTHON3" - "$TMP"/g-*.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
EM = {".": 0.318}
for path in sys.argv[1:]:
    svg = ET.parse(path).getroot()
    px = [g for g in svg.iter(ns + "g") if g.get("class") == "pixels"][0]
    fs = float(px.get("font-size"))
    boxes = []
    for t in px.iter(ns + "text"):
        w = sum(EM.get(c, 0.636) for c in t.text) * fs
        x, y = float(t.get("x")), float(t.get("y"))
        boxes.append((x - w / 2, y - 0.93 * fs, x + w / 2, y + 0.24 * fs,
                      t.text))
    for r in svg.iter(ns + "rect"):
        if r.get("class") not in ("fovea", "periphery"):
            continue
        x, y = float(r.get("x")), float(r.get("y"))
        w, h = float(r.get("width")), float(r.get("height"))
        s = float(r.get("stroke-width")) / 2
        edges = [(x - s, y - s, x + s, y + h + s),
                 (x + w - s, y - s, x + w + s, y + h + s),
                 (x - s, y - s, x + w + s, y + s),
                 (x - s, y + h - s, x + w + s, y + h + s)]
        for e in edges:
            for b in boxes:
                if e[0] < b[2] and b[0] < e[2] and e[1] < b[3] and b[1] < e[3]:
                    sys.exit("%s: the %s at %g,%g crosses %r at %g,%g" % (
                        path, r.get("class"), x, y, b[4], b[0], b[1]))
PY
fi

# The built-in model, rebuilt byte for byte (make glimpse-model).
run_cmd glimpse --train="$img/train.captions" -o "$TMP/glimpse6.model"
expect_status 0 "glimpse --train"
check "data/glimpse6.model is rebuilt byte for byte" \
	cmp -s "$TMP/glimpse6.model" "$srcdir/data/glimpse6.model"
run_cmd glimpse --train="$img/train.captions" --epochs=20 --seed=2 -o "$TMP/s2.model"
run_cmd glimpse --train="$img/train.captions" --epochs=20 --seed=3 -o "$TMP/s3.model"
check "another seed trains another model" \
	sh -c "! cmp -s $TMP/s2.model $TMP/s3.model"

# --measure, counted again here from each image's --mean JSON trace and
# the object's box in the .captions file: the class, and whether a pixel
# of the fovea (rows R-1, R and columns C-1, C of the corner) is in the
# box.  The built-in model must classify every training image and most
# held-out ones.
if [ -n "${PYTHON3:-}" ] && [ "$PYTHON3" != no ]; then
	for set in train heldout; do
		run_cmd glimpse --measure="$img/$set.captions"
		cp "$TMP/out" "$TMP/measure-$set"
		grep -v '^#' "$img/$set.captions" | grep . |
		while IFS= read -r line; do
			f=${line%% |||*}
			"$ATTN_TRACE" glimpse --mean -f json "$img/$f"
		done >"$TMP/traces-$set"
		check "glimpse --measure on $set.captions counts as the traces do" \
		"$PYTHON3" - "$img/$set.captions" "$TMP/traces-$set" "$TMP/measure-$set" "$set" <<'PY'
import json, re, sys
caps, traces, measure, which = sys.argv[1:5]
items = []
for line in open(caps, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    f, cls, cap, box = [p.strip() for p in line.split("|||")]
    items.append((cls, [int(v) for v in box.split()]))
dec, text, docs = json.JSONDecoder(), open(traces).read(), []
pos = 0
while pos < len(text.rstrip()):
    doc, pos = dec.raw_decode(text, pos)
    docs.append(doc)
    while pos < len(text) and text[pos].isspace():
        pos += 1
assert len(docs) == len(items), (len(docs), len(items))
right = on = glimpses = 0
for (cls, (r0, c0, h, w)), doc in zip(items, docs):
    right += doc["class"] == cls
    for st in doc["steps"]:
        R, C = st["corner"]
        glimpses += 1
        on += any(r0 <= r < r0 + h and c0 <= c < c0 + w
                  for r in (R - 1, R) for c in (C - 1, C))
out = open(measure).read()
want = "classified right: %d/%d" % (right, len(items))
assert want in out, (want, out)
want = "on the object (fovea overlapping its box): %d/%d" % (on, glimpses)
assert want in out, (want, out)
if which == "train":
    assert right == len(items), right
else:
    assert right >= 0.8 * len(items), right
print("%s: %d/%d right, %d/%d glimpses on the object" % (which, right,
      len(items), on, glimpses))
PY
	done
fi
finish
