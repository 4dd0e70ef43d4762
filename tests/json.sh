#!/bin/sh
# json.sh: the JSON output parses with a real JSON parser and has the keys
# the format promises.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to parse the JSON"; exit 77
fi

# keys FILE KIND: parses FILE and checks its keys with Python
keys() {
	"$PYTHON3" - "$1" "$2" <<'PY'
import json, sys
path, kind = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    doc = json.load(f)
def need(obj, *names):
    for n in names:
        if n not in obj:
            sys.exit("missing key %r" % n)
if kind == "trace":
    need(doc, "format", "source", "encoder", "runs")
    assert doc["format"] == "attn-trace-trace/3"
    for enc in doc["encoder"]:
        need(enc, "token", "embedding", "state")
    for run in doc["runs"]:
        need(run, "scorer", "steps")
        for st in run["steps"]:
            need(st, "t", "input", "state", "scores", "weights", "weighted",
                 "context", "concat", "attentional", "output")
            need(st["output"], "token", "probs")
            n = len(doc["source"])
            assert len(st["scores"]) == n and len(st["weights"]) == n
            assert abs(sum(st["weights"]) - 1) < 1e-12
            assert abs(sum(st["output"]["probs"]) - 1) < 1e-12
else:
    need(doc, "format", "embedding_dim", "hidden_dim", "attention_dim",
         "source_embeddings", "target_embeddings", "encoder", "decoder",
         "general", "concat", "output")
    assert doc["format"] == "attn-trace-model/1"
    need(doc["encoder"], "W_x", "W_h", "b")
    need(doc["concat"], "W", "v")
    need(doc["output"], "W_c", "W_s", "vocab")
    H = doc["hidden_dim"]
    assert len(doc["output"]["W_c"]) == H and len(doc["output"]["W_c"][0]) == 2 * H
    assert len(doc["output"]["W_s"]) == len(doc["output"]["vocab"])
PY
}

"$ATTN_TRACE" trace --format=json >"$TMP/a.json"
check "greedy dot trace is valid JSON" keys "$TMP/a.json" trace
"$ATTN_TRACE" trace --format=json --scorer=all \
	--target="european economic area" zone économique européenne >"$TMP/b.json"
check "teacher-forced trace with every scorer is valid JSON" keys "$TMP/b.json" trace
check "the target is listed" grep -q '"target": \["european", "economic", "area"\]' "$TMP/b.json"
check "UTF-8 words are written as UTF-8" grep -q '"économique"' "$TMP/b.json"
"$ATTN_TRACE" trace --format=json --model="$srcdir/tests/data/tiny.model" \
	--scorer=concat un deux trois >"$TMP/c.json"
check "tiny model trace is valid JSON" keys "$TMP/c.json" trace
"$ATTN_TRACE" model --format=json >"$TMP/m.json"
check "model JSON is valid" keys "$TMP/m.json" model
# a matrix with one row (H = 1) is still a list of rows, as
# doc/model.md gives its shape; a bias or v_a is a list
"$ATTN_TRACE" train --pairs="$srcdir/data/toy.pairs" --hidden=1 --epochs=0 \
	--scorer=all -o "$TMP/h1.model" 2>/dev/null
"$ATTN_TRACE" model --format=json --model="$TMP/h1.model" >"$TMP/h1.json"
check "H = 1: one-row matrices are lists of one row, vectors lists" \
	"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["hidden_dim"] == 1
for g, k in [("encoder", "W_x"), ("encoder", "W_h"), ("decoder", "W_x"),
             ("general", "W"), ("output", "W_c")]:
    m = d[g][k]
    assert len(m) == 1 and isinstance(m[0], list), (g, k, m)
assert all(isinstance(r, list) and len(r) == 1 for r in d["additive"]["U"])
for g, k in [("encoder", "b"), ("decoder", "b"), ("concat", "v")]:
    assert all(isinstance(x, float) or isinstance(x, int) for x in d[g][k])
' "$TMP/h1.json"
check "json.tool accepts the trace" "$PYTHON3" -m json.tool "$TMP/b.json" /dev/null
if command -v jq >/dev/null 2>&1; then
	# --scorer=all: a run for every scorer the model has the weights of
	# (toy4: all but the scorers added since it was trained), as the
	# text trace's header names them
	nsc=$("$ATTN_TRACE" trace --scorer=all | sed -n 's/^scorers: //p' | wc -w)
	check "jq accepts the trace, a run a scorer" \
		jq -e --argjson n "$nsc" '.runs | length == $n' "$TMP/b.json"
fi
# shortest round-trip numbers: 0.1 and friends are never padded out
check "numbers are written in their shortest form" \
	sh -c "! grep -Eq '[0-9]\.[0-9]*0000000[0-9]|99999999' '$TMP/m.json'"
finish
