#!/bin/sh
# gradpath.sh: trace --gradient-paths (doc/model.md, "The gradient
# paths"): every number against PyTorch autograd
# (tests/gradpath_torch_check.py), for each architecture, input feeding,
# the windows and every scorer; and the option's errors.
. "$srcdir/tests/lib.sh"

# the errors come first: they need no torch
run_cmd trace --gradient-paths je suis étudiant
expect_status 2 "--gradient-paths without --target is refused"
expect_err "--gradient-paths needs --target" "it says why"
run_cmd trace --gradient-paths=5 --target="i am" je suis
expect_status 1 "a step past the last is refused"
expect_err "step must be from 1 to 3" "it names the steps"
run_cmd trace --gradient-paths=0 --target="i am" je suis
expect_status 2 "step 0 is refused"
run_cmd trace --hard --gradient-paths --target="i am" je suis
expect_status 1 "hard attention is refused"
expect_err "need soft attention" "it says why"
run_cmd tui --gradient-paths --target="i am" je suis
expect_status 2 "tui refuses it"
# opt-in: without it the trace has no trace of it
run_cmd trace --format=json --target="i am" je suis
check "no gradient_paths without the option" \
	sh -c "! grep -q gradient_paths '$TMP/out'"
# the text: L_t, and one block a source word
run_cmd trace --gradient-paths --target="i am a student" je suis étudiant
expect_status 0 "the text trace with the gradient paths"
check "the text names L_5 and every h_i" sh -c \
	"grep -q '^L_5 = -log ŷ_5\[</s>\] = ' '$TMP/out' &&
	 grep -q '^∂L_5/∂h_3 (étudiant) ' '$TMP/out' &&
	 grep -q '^  through the recurrence ' '$TMP/out'"

# the picture: each bar's data-value is the JSON's norm, and its text is
# legible on a 1920 px slide
run_cmd heatmap --gradient-paths --scorer=dot,concat -o "$TMP/gp.svg" \
	--target="european economic area" zone économique européenne
expect_status 0 "heatmap --gradient-paths draws the bar chart"
run_cmd trace --gradient-paths --scorer=dot,concat --format=json \
	--target="european economic area" zone économique européenne
mv "$TMP/out" "$TMP/gp.json"
py=
for p in /usr/bin/python3 "${PYTHON3:-}"; do
	[ -n "$p" ] && [ "$p" != no ] && "$p" -c '' 2>/dev/null && { py=$p; break; }
done
check "every bar is the norm the JSON holds, in order" "$py" - \
	"$TMP/gp.svg" "$TMP/gp.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
doc = json.load(open(sys.argv[2], encoding="utf-8"))
ns = "{http://www.w3.org/2000/svg}"
panels = [g for g in svg.iter(ns + "g") if g.get("class") == "panel"]
assert len(panels) == len(doc["runs"]) == 2, len(panels)
for g, run in zip(panels, doc["runs"]):
    assert g.get("data-scorer") == run["scorer"]
    gp = run["gradient_paths"]
    for key in ("total", "direct", "recurrence"):
        bars = [r for r in g.iter(ns + "rect") if r.get("class") == key]
        assert [float(b.get("data-value")) for b in bars] == \
            gp[key + "_norm"], key
        assert [int(b.get("data-i")) for b in bars] == [1, 2, 3]
# on one scale: a larger value is never a shorter bar, in any panel
bars = [(float(r.get("data-value")), int(r.get("height")))
        for r in svg.iter(ns + "rect") if r.get("data-value")]
for v1, h1 in bars:
    for v2, h2 in bars:
        assert v1 <= v2 or h1 >= h2, (v1, h1, v2, h2)
assert len(bars) == 18
PY
check "its smallest text is 20 px or more at 1920 px wide, no overlap" \
	"$py" "$srcdir/tests/svg_fontsize.py" --strict "$TMP/gp.svg"
# one notation: the title's L_4, the legend's and each panel's ∂L_4/∂h_i
# and "step 4" (they said L and step t while the title said L_4)
grep -oE '(L|step )(<tspan[^>]*>)?[0-9t]+' "$TMP/gp.svg" |
	sed 's/<tspan[^>]*>//; s/ //' | sort | uniq -c >"$TMP/gp.steps"
check "the SVG names one step, L_4, in its title, legend and panels ($(tr -s ' \n' ' ' <"$TMP/gp.steps"))" \
	sh -c "grep -qE '^ +[0-9]+ L4$' '$TMP/gp.steps' && grep -qE '^ +1 step4$' '$TMP/gp.steps' && test \$(wc -l <'$TMP/gp.steps') -eq 2 && ! grep -q 'L/∂' '$TMP/gp.svg'"
run_cmd heatmap --gradient-paths zone économique européenne
expect_status 2 "heatmap --gradient-paths without --target is refused"

# Markdown: L_T, the norms and the vectors of each run are the JSON's,
# rounded to --precision (CSV: tests/json_csv.py maps every row)
run_cmd trace --gradient-paths --scorer=dot,concat --format=markdown \
	--precision=6 --stage=softmax \
	--target="european economic area" zone économique européenne
mv "$TMP/out" "$TMP/gp.md"
check "Markdown: every gradient path is the JSON's, to 6 places" "$py" - \
	"$TMP/gp.md" "$TMP/gp.json" <<'PY'
import json, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
doc = json.load(open(sys.argv[2], encoding="utf-8"))
parts = md.split("\n### Gradient paths of L_")[1:]
assert len(parts) == len(doc["runs"]) == 2, len(parts)
near = lambda a, b: abs(float(a) - b) <= 0.5e-6 + 1e-12
words = ["zone", "économique", "européenne"]
for part, run in zip(parts, doc["runs"]):
    part = part.split("\n## ")[0]   # up to the next scorer's section
    g = run["gradient_paths"]
    assert part.startswith("%d\n" % g["t"]), part[:20]
    loss = re.search(r"^L_(\d+) = -log ŷ_\d+\[(.*)\] = (\S+)$", part, re.M)
    assert int(loss[1]) == g["t"] and loss[2] == g["word"].replace(
        "<", "&lt;").replace(">", "&gt;") and near(loss[3], g["loss"]), loss
    rows = [l.split(" | ") for l in part.split("\n") if re.match(r"\| \d", l)]
    assert len(rows) == 2 * len(words), rows
    for i, r in enumerate(rows[:3]):   # | i | word | norms... |
        assert r[0] == "| %d" % (i + 1) and r[1] == words[i], r
        for cell, key in zip(r[2:], ("total_norm", "direct_norm",
                                     "recurrence_norm")):
            assert near(cell.rstrip(" |"), g[key][i]), (cell, key, i)
    for i, r in enumerate(rows[3:]):   # | i | word | `[vectors]` |
        assert r[1] == words[i], r
        for cell, key in zip(r[2:], ("total", "direct", "recurrence")):
            got = re.findall(r"-?\d+\.\d+", cell)
            assert len(got) == len(g[key][i]) and all(
                near(a, b) for a, b in zip(got, g[key][i])), (cell, key, i)
PY

# two models in one picture, for a slide: the attention model and the
# baseline, --scorer and --window applying to the --model after them (as
# in accuracy); each panel's bars are its own model's JSON norms, each
# model on a scale of its own, the legend's step is the title's L_t, and
# the whole picture fits 1920x1080 with no text under 20 px
long_src="la vache aime le chat et la poule grise chante" # words, unquoted
long_tgt="the cow likes the cat and the grey hen sings"
run_cmd heatmap --gradient-paths --scorer=general --model=longattn8 \
	--window=fixed --model=longfixed8 --target="$long_tgt" \
	-o "$TMP/two.svg" $long_src
expect_status 0 "heatmap --gradient-paths with two --model options"
"$ATTN_TRACE" trace --gradient-paths --scorer=general --model=longattn8 \
	--format=json --target="$long_tgt" $long_src >"$TMP/attn.json"
"$ATTN_TRACE" trace --gradient-paths --scorer=general --model=longfixed8 \
	--window=fixed --format=json --target="$long_tgt" $long_src \
	>"$TMP/fixed.json"
check "two models: each panel is its model's JSON, on its own scale" "$py" - \
	"$TMP/two.svg" "$TMP/attn.json" "$TMP/fixed.json" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
panels = [g for g in svg.iter(ns + "g") if g.get("class") == "panel"]
assert len(panels) == 2, len(panels)
want = [("longattn8", "global", sys.argv[2]), ("longfixed8", "fixed", sys.argv[3])]
for g, (model, window, path) in zip(panels, want):
    assert (g.get("data-model"), g.get("data-window")) == (model, window), \
        g.attrib
    gp = json.load(open(path, encoding="utf-8"))["runs"][0]["gradient_paths"]
    assert gp["t"] == 11, gp["t"]
    bars = []
    for key in ("total", "direct", "recurrence"):
        mine = [r for r in g.iter(ns + "rect") if r.get("class") == key]
        assert [float(b.get("data-value")) for b in mine] == \
            gp[key + "_norm"], (model, key)
        bars += [(float(b.get("data-value")), int(b.get("height")))
                 for b in mine]
    # its own scale: the tallest bar is the largest norm, and it is at
    # least half the plot's height (ticks of 1, 2 or 5 x 10^k)
    top = max(bars)
    assert top[1] == max(h for _, h in bars) and top[1] >= 290 / 2.5, top
    # the baseline's direct path reaches h_n alone
    if window == "fixed":
        assert gp["direct_norm"][:-1] == [0] * 9 and gp["direct_norm"][-1] > 0
# one notation: the title's L_11, the legend's step 11, the panels' L_11
text = lambda e: "".join(e.itertext())
title = [text(e) for e in svg.iter(ns + "text") if e.get("class") == "title"]
assert title[0].startswith("How the loss L11 = "), title
legend = [text(e) for g in svg.iter(ns + "g") if g.get("class") == "legend"
          for e in g.iter(ns + "text")]
assert legend[1] == "direct: through the attention of step 11", legend
for g in panels:
    head = [text(e) for e in g.iter(ns + "text")
            if e.get("class") == "panel-title"][0]
    assert "‖∂L11/∂hi‖" in head, head
w, h = map(float, svg.get("viewBox").split()[2:])
assert w <= 1920 and h <= 1080, (w, h)
PY
check "two models: 20 px or more on a 1920x1080 slide, no overlap" \
	"$py" "$srcdir/tests/svg_fontsize.py" --strict "$TMP/two.svg"
run_cmd heatmap --scorer=general --model=longattn8 --window=fixed \
	--model=longfixed8 -o "$TMP/x.svg" $long_src
expect_status 2 "several --model options without --gradient-paths"
run_cmd heatmap --gradient-paths --model=longattn8 --model=longfixed8 \
	--window=fixed --target="$long_tgt" -o "$TMP/x.svg" $long_src
expect_status 2 "a --window after the last of several --model options"
expect_err "none follows the last" "it says why"
check "nothing is written on a usage error" test ! -e "$TMP/x.svg"
cp "$srcdir/data/longattn8.model" "$TMP/a.model"
run_cmd heatmap --gradient-paths --model="$TMP/a.model" --window=fixed \
	--model=longfixed8 --target="$long_tgt" -o "$TMP/a.model" $long_src
expect_status 2 "-o naming the first of several --model files is refused"
check "and the model file is left as it was" \
	cmp -s "$TMP/a.model" "$srcdir/data/longattn8.model"

# the no-attention baseline (the window "fixed", all weight on h_n):
# the direct path reaches h_n alone, exactly
if "$ATTN_TRACE" options --values=--window trace | grep -qx fixed; then
	for arch in luong bahdanau; do
		run_cmd trace --arch=$arch --window=fixed --gradient-paths \
			--format=json --target="european economic area" \
			zone économique européenne
		check "baseline, $arch: the direct path reaches h_n alone" "$py" -c '
import json, sys
g = json.load(open(sys.argv[1]))["runs"][0]["gradient_paths"]
assert g["direct_norm"][:-1] == [0, 0] and g["direct_norm"][-1] > 0, g
assert min(g["recurrence_norm"][:-1]) > 0, g' "$TMP/out"
	done
fi

torch_python_find
if [ -z "$torch_python" ]; then
	echo "no Python here can import torch: the numbers are not checked"
	finish
	exit $?
fi
for c in data/toy4.model data/bahdanau4.model data/feed4.model \
	data/handset4.model tests/data/tiny.model tests/data/bahdanau.model \
	"data/localp4.model local-p:1" \
	"tests/data/localp.model local-m:1,local-p:2" \
	"tests/data/localp-bahdanau.model local-m:1,local-p:1" \
	"tests/data/feed.model global:0,local-p:1" \
	$(if "$ATTN_TRACE" options --values=--window trace | grep -qx fixed
	  then echo "data/toy4.model@fixed:0 data/bahdanau4.model@fixed:0"; fi); do
	c=$(echo "$c" | tr @ ' ')
	set -- $c
	check "$*: the gradient paths agree with torch autograd" \
		"$torch_python" "$srcdir/tests/gradpath_torch_check.py" \
		"$ATTN_TRACE" "$srcdir/$1" ${2:+"$2"}
done
finish
