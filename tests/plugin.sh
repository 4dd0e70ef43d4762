#!/bin/bash
# plugin.sh (issue 32's acceptance): a new window and a new scorer are
# each one file in src/ plus one registry line.  In a scratch copy of the
# tree it adds tests/plugin/window_causal.c (a causal window: the softmax
# over the 2D+1 source words that end at min(t, n)) and
# tests/plugin/score_cosine.c (e = s·h / (|s| |h|), with its backward
# pass), as doc/architecture.md says: the file in src/, WINDOW(causal) in
# src/window_list.h, SCORER(cosine) in src/scorer_list.h, and the file in
# Makefile.am's src_libattn_a_SOURCES (automake lists every source; make
# reruns automake and config.status itself).  It builds only the program
# and tests/check_train, reusing the objects and configure's results of
# this build when it is in the source tree (else configuring the copy
# with this build's arguments), then checks that they trace (the scores
# are the cosines of the JSON's states, the weights are 0 outside the
# window), that 'train --window=causal' trains through the causal window
# (its final loss is the trace's through causal, not local-m's or
# global's), and that the registry-wide gradient checks of check_train
# pass for both.
. "$srcdir/tests/lib.sh"
src=$(cd "$srcdir" && pwd)
build=$(cd "$(dirname "$ATTN_TRACE")/.." && pwd)
tree=$TMP/tree
PY=${PYTHON3:-python3}

# the copy: sources, and when the build is in the tree, its objects too
mkdir "$tree"
tar -C "$src" --exclude=./.git --exclude='./tests/*.log' \
	--exclude='./tests/*.trs' --exclude=./autom4te.cache -cf - . |
	tar -C "$tree" -xf -
chmod -R u+w "$tree"
if [ "$src" != "$build" ]; then
	# a build elsewhere (make distcheck): configure the copy in place as
	# this build was configured
	rm -f "$tree/config.status"
	# (config.status quotes an argument only when it needs quotes)
	args=$("$build/config.status" --config |
		sed -e "s/'--srcdir=[^']*'//" -e "s/--srcdir=[^ ]*//")
	(cd "$tree" && eval "./configure -q $args") >"$TMP/configure.log" 2>&1 ||
		{ not_ok "configure the copy: $(tail -5 "$TMP/configure.log")"; finish; }
fi

# the two plug-ins: one file and one registry line each, and the sources
# line of Makefile.am
cp "$src/tests/plugin/window_causal.c" "$src/tests/plugin/score_cosine.c" \
	"$tree/src/"
echo 'WINDOW(causal)' >>"$tree/src/window_list.h"
echo 'SCORER(cosine)' >>"$tree/src/scorer_list.h"
echo 'src_libattn_a_SOURCES += src/window_causal.c src/score_cosine.c' \
	>>"$tree/Makefile.am"
# a make of its own, not a submake of make check's (its jobserver);
# src/paths.h first, a built source that naming targets does not make
if (cd "$tree" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make src/paths.h && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -j2 src/attn-trace tests/check_train) >"$TMP/make.log" 2>&1; then
	ok "the copy with the two plug-ins builds"
else
	not_ok "the copy with the two plug-ins builds: $(grep -m5 -E 'error|Error' "$TMP/make.log")"
	finish
fi
# the compiler's warnings (FILE:LINE:COL: warning: ...)
if grep -qE '^[^ ]+:[0-9]+:[0-9]+: warning:' "$TMP/make.log"; then
	not_ok "the build gives no warning: $(grep -m5 -E ':[0-9]+: warning:' "$TMP/make.log")"
else ok "the build gives no warning"; fi
AT=$tree/src/attn-trace

# the registries list them
check "'scorers' lists cosine" sh -c "'$AT' scorers --names | grep -qx cosine"
check "--window takes causal" \
	sh -c "'$AT' options --values=--window trace | grep -qx causal"

# they trace: every score is the cosine of the step's state s_t and h_i,
# worked out here from the JSON's vectors; the weights are 0 outside
# min(t, n) - 2D .. min(t, n) and sum to 1 inside
cat >"$TMP/check_trace.py" <<'PY'
import json, math, sys
D = int(sys.argv[1])
d = json.load(sys.stdin)
H = [e["state"] for e in d["encoder"]]
n = len(H)
def cos(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
steps = d["runs"][0]["steps"]
assert d["runs"][0]["scorer"] == "cosine", d["runs"][0]["scorer"]
for st in steps:
    t = st["t"]
    for i in range(n):
        want = cos(st["state"], H[i])
        assert abs(st["scores"][i] - want) < 1e-12, (t, i, st["scores"][i], want)
    last = min(t, n)
    first = max(1, last - 2 * D)
    w = st["weights"]
    assert all(w[i] == 0 for i in range(n) if not first <= i + 1 <= last), (t, w)
    assert all(w[i] > 0 for i in range(first - 1, last)), (t, w)
    assert abs(sum(w) - 1) < 1e-12, (t, w)
    assert st["window"]["name"] == "causal"
print(len(steps))
PY
for D in 0 1 2; do
	if out=$("$AT" trace --scorer=cosine --window=causal --window-size=$D \
		--format=json --target="european economic area" \
		"zone économique européenne" | "$PY" "$TMP/check_trace.py" $D 2>&1)
	then ok "trace, cosine through causal, D = $D: $out steps checked"
	else not_ok "trace, cosine through causal, D = $D: $out"; fi
done
"$AT" trace --scorer=all --window=causal >"$TMP/all.txt" 2>&1
check "--scorer=all runs cosine too" grep -q '^==== cosine scorer' "$TMP/all.txt"

# the text trace prints the window's own words from its record (its note
# and formula, with the values of the operands they name), never
# local-m's p_t = min(t, n) or the shared ⌊p_t⌋ ± D: n = 3, D = 1, so at
# step 1 p_1 = 1 - 1 = 0 and the window is 1 - 2 .. 1 clipped to 1 .. 1;
# at step 3 p_3 = 3 - 1 = 2 and the window is 1 .. 3
"$AT" trace --scorer=dot --window=causal --window-size=1 \
	--target="european economic area" "zone économique européenne" \
	>"$TMP/causal.txt" 2>&1
for line in 'p_1 = min(1, 3) - 1 = 0.0000' \
	'window_1 = min(1, 3) - 2·D .. min(1, 3) = min(1, 3) - 2·1 .. min(1, 3), within 1 .. 3: positions 1 .. 1: zone (1)' \
	'p_3 = min(3, 3) - 1 = 2.0000' \
	'window_3 = min(3, 3) - 2·D .. min(3, 3) = min(3, 3) - 2·1 .. min(3, 3), within 1 .. 3: positions 1 .. 3: zone (1) économique (2) européenne (3)'
do
	check "the text trace says: $line" grep -qxF "$line" "$TMP/causal.txt"
done
check "and not local-m's p_t = min(t, n) or ⌊p_t⌋ ± D" \
	sh -c "! grep -qE '= min\([0-9], 3\) =|⌊p_' '$TMP/causal.txt'"
# and the Markdown handout too (a whole-number p_t as a whole number)
"$AT" trace --scorer=dot --window=causal --window-size=1 --format=markdown \
	--target="european economic area" "zone économique européenne" \
	>"$TMP/causal.md" 2>&1
for line in 'p_3 = min(3, 3) - 1 = 2' \
	'The window: min(3, 3) - 2·D .. min(3, 3) = min(3, 3) - 2·1 .. min(3, 3), positions 1 .. 3 (zone économique européenne)'
do
	check "the Markdown says: $line" grep -qxF "$line" "$TMP/causal.md"
done
check "and not local-m's p_t = min(t, n) or ⌊p_t⌋ ± D" \
	sh -c "! grep -qE '= min\([0-9], 3\) =|⌊p_' '$TMP/causal.md'"

# they train: the final loss that train reports is the loss of the trace
# through the causal window of the model it wrote, and not through
# local-m's or global's
"$AT" train --pairs="$src/data/toy.pairs" --init=toy4 --scorer=cosine \
	--window=causal --window-size=1 --epochs=2 --seed=1 -o "$TMP/c.model" \
	>"$TMP/train.out" 2>"$TMP/err"
status=$?
cp "$TMP/err" "$TMP/train.err"
expect_status 0 "train --window=causal --scorer=cosine"
cat >"$TMP/loss.py" <<'PY'
import json, math, sys
tot = n = 0
for line in sys.stdin:
    d = json.loads(line)
    for st, w in zip(d["runs"][0]["steps"], d["target"] + ["</s>"]):
        tot -= math.log(st["output"]["probs"][d["vocab"].index(w)])
        n += 1
print("%.6f" % (tot / n))
PY
loss_through() {
	"$AT" trace --model="$TMP/c.model" --scorer=cosine --window="$1" \
		--window-size=1 --format=jsonl --batch="$src/data/toy.pairs" \
		2>/dev/null | "$PY" "$TMP/loss.py"
}
said=$(sed -n 's/.*the final weights: loss \([0-9.]*\),.*/\1/p' "$TMP/train.err")
causal=$(loss_through causal)
check "train's final loss ($said) is the trace's through causal ($causal)" \
	test -n "$said" -a "$said" = "$causal"
for other in local-m global; do
	loss=$(loss_through $other)
	check "and not the trace's through $other ($loss)" \
		test -n "$loss" -a "$loss" != "$said"
done
check "the model says it was trained through causal" \
	grep -q -- '--window=causal' "$TMP/c.model"

# the registry-wide gradient checks (tests/check_train.c): every scorer
# alone and together, and every window of the registry
if (cd "$tree" && CK_RUN_CASE=gradients tests/check_train) >"$TMP/grad.log" 2>&1
then ok "check_train's gradient checks with the plug-ins"
else not_ok "check_train's gradient checks with the plug-ins: $(grep -m3 -E 'Failure|Error' "$TMP/grad.log")"; fi
check "the gradient check ran the cosine scorer" \
	grep -q '^gradient check E=3 H=2 A=2 cosine ' "$TMP/grad.log"
check "the gradient check ran the causal window" \
	grep -q '^gradient check causal: ' "$TMP/grad.log"
finish
