#!/bin/sh
# batch.sh: trace --batch, the formats, --stage, and -o written atomically.
. "$srcdir/tests/lib.sh"
: "${PYTHON3:=python3}"

cat >"$TMP/pairs" <<'PAIRS'
je suis étudiant ||| i am a student
# a comment, then a blank line

zone économique européenne
je suis chat
zone ||| european ||| area
JE SUIS ÉTUDIANT
PAIRS

run_cmd trace --batch="$TMP/pairs" --format=jsonl
expect_status 1 "a batch with bad lines fails"
expect_err "$TMP/pairs:5: unknown source word \"chat\"" "a bad line is FILE:LINE"
expect_err "$TMP/pairs:6:23: expected an alignment link \"SOURCE-TARGET\" such as 1-1, found \"area\"" \
	"a third field that is not an alignment is refused, at FILE:LINE:COL"
check "the good lines are still traced" test "$(wc -l <"$TMP/out")" -eq 3
check "each JSON line parses, with its line number" "$PYTHON3" -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert [r["line"] for r in rows] == [1, 4, 7], rows
assert rows[0]["target"] == ["i", "am", "a", "student"]
assert "target" not in rows[1] and rows[1]["decoding"] == "greedy"
assert rows[2]["source"] == ["je", "suis", "étudiant"]
' "$TMP/out"

run_cmd trace --batch="$TMP/pairs" --strict --format=jsonl
expect_status 1 "--strict fails too"
check "--strict stops at the first bad line" test "$(wc -l <"$TMP/out")" -eq 2
check "--strict reports only the first error" test "$(wc -l <"$TMP/err")" -eq 1

grep -v chat "$TMP/pairs" | grep -v '|||.*|||' >"$TMP/good"
"$ATTN_TRACE" trace --batch=- --format=json <"$TMP/good" >"$TMP/all.json" 2>"$TMP/err"
status=$?
expect_status 0 "a batch from stdin"
check "--format=json makes one array" "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert isinstance(d, list) and len(d) == 3
' "$TMP/all.json"

# CSV: long form, the same numbers as the JSON
"$ATTN_TRACE" trace --batch="$TMP/good" --format=csv --scorer=all >"$TMP/all.csv"
check "CSV has the documented header" \
	test "$(head -n 1 "$TMP/all.csv")" = "pair,scorer,t,stage,symbol,index,value,word,source,output"
"$ATTN_TRACE" trace --batch="$TMP/good" --format=jsonl --scorer=all >"$TMP/all.jsonl"
check "every CSV weight equals the JSON weight" "$PYTHON3" -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
js = {j["line"]: j for j in map(json.loads, open(sys.argv[2], encoding="utf-8"))}
n = 0
for r in rows:
    if r["stage"] == "softmax" and r["symbol"].startswith("α_") and "," not in r["symbol"]:
        run = [x for x in js[int(r["pair"])]["runs"] if x["scorer"] == r["scorer"]][0]
        want = run["steps"][int(r["t"]) - 1]["weights"][int(r["index"]) - 1]
        assert float(r["value"]) == want, (r, want)
        n += 1
assert n > 30, n
assert any(r["symbol"] == "e_1,2" for r in rows)  # a quoted comma
' "$TMP/all.csv" "$TMP/all.jsonl"
run_cmd trace --format=csv
check "a single trace in CSV has no pair column" \
	test "$(head -n 1 "$TMP/out")" = "scorer,t,stage,symbol,index,value,word,source,output"

run_cmd trace --format=markdown --target="i am a student"
expect_status 0 "Markdown"
check "Markdown has tables" grep -q '^| i | word | e_1,i | α_1,i | α_1,i·h_i |$' "$TMP/out"
check "Markdown names the output word" grep -q '^Output: \*\*i\*\*' "$TMP/out"

# --stage picks what is printed
run_cmd trace --stage=softmax
check "--stage=softmax prints the softmax" grep -q -- '--- softmax ---' "$TMP/out"
check "--stage=softmax prints nothing else" sh -c "! grep -q -- '--- scoring ---\|--- encoding ---\|--- output ---' '$TMP/out'"
run_cmd trace --stage=softmax,output --format=json
check "--stage in JSON keeps only those keys" "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
st = d["runs"][0]["steps"][0]
assert set(st) == {"t", "input", "softmax", "weights", "output"}, set(st)
assert "encoder" not in d
' "$TMP/out"
run_cmd trace --stage=attention
expect_status 2 "an unknown stage"
# the decoder's update is a stage of its own, before the scores
run_cmd trace --stage=decoder
check "--stage=decoder prints the decoder's update" \
	sh -c "grep -q -- '^--- decoder ---\$' '$TMP/out' &&
	       grep -q '^  s_1 = tanh(sum) ' '$TMP/out'"
check "--stage=decoder prints no scores" \
	sh -c "! grep -q -- '--- scoring ---\|^e_1,1' '$TMP/out'"
run_cmd trace
check "the full trace heads the update 'decoder', then the scores" \
	sh -c "grep -A 1 -- '^--- decoder ---\$' '$TMP/out' | grep -q '^y_0 = emb(<s>)' &&
	       grep -B 2 -- '^--- scoring ---\$' '$TMP/out' | grep -q '^  s_1 = tanh(sum) ' &&
	       grep -A 1 -- '^--- scoring ---\$' '$TMP/out' | grep -q '^e_1,1 = '"
run_cmd trace --stage=decoder --format=json
check "--stage=decoder in JSON: the state, no scores" "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert set(d["runs"][0]["steps"][0]) == {"t", "input", "embedding", "state",
                                         "W_x_x", "W_h_h", "b", "pre"}
' "$TMP/out"
# a list written before the decoder had a stage prints what it did:
# scoring still holds the update; the CSV's rows say its stage, decoder,
# as the text and the JSON do
for f in json csv markdown; do
	"$ATTN_TRACE" trace --format=$f --stage=scoring >"$TMP/old.$f"
	"$ATTN_TRACE" trace --format=$f --stage=decoder,scoring >"$TMP/new.$f"
	check "--stage=scoring in $f keeps the update" cmp -s "$TMP/old.$f" "$TMP/new.$f"
done
check "--stage=scoring in JSON has the state and the scores" "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert set(d["runs"][0]["steps"][0]) == {"t", "input", "embedding", "state",
                                         "W_x_x", "W_h_h", "b", "pre",
                                         "scores"}
' "$TMP/old.json"
check "CSV: the rows of s_1 say decoder, the stage the text heads them" \
	sh -c "grep -q '^dot,1,decoder,s_1,1,' '$TMP/old.csv' &&
	       ! grep -q '^[^,]*,[0-9]*,scoring,s_1,' '$TMP/old.csv'"

# the README's R recipe, in Python: the weights of the first pair of a
# file whose first pair is not on line 1 (data/heldout.pairs: line 9)
"$ATTN_TRACE" trace --batch="$srcdir/data/heldout.pairs" --scorer=all \
	--format=csv -o "$TMP/held.csv"
check "README's R recipe: min(pair) finds the first pair's weights" \
	"$PYTHON3" -c '
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8"))
        if r["stage"] == "softmax" and re.match(r"^α_[0-9]+$", r["symbol"])]
first = min(int(r["pair"]) for r in rows)
tab = {}
for r in rows:
    if int(r["pair"]) == first and r["scorer"] == "dot":
        tab[(int(r["t"]), int(r["index"]))] = float(r["value"])
assert first == 9, first  # the first line that is not a comment
assert not [r for r in rows if r["pair"] == "1"]  # what pair == 1 found
# je suis médecin -> i am a doctor: 5 steps of 3 weights, each summing to 1
assert sorted(tab) == [(t, i) for t in range(1, 6) for i in range(1, 4)], sorted(tab)
for t in range(1, 6):
    assert abs(sum(tab[(t, i)] for i in range(1, 4)) - 1) < 1e-12
' "$TMP/held.csv"

# -o: the file appears whole, or not at all
run_cmd trace -o "$TMP/trace.txt"
expect_status 0 "-o FILE"
"$ATTN_TRACE" trace >"$TMP/stdout.txt"
check "-o writes what stdout would get" cmp -s "$TMP/trace.txt" "$TMP/stdout.txt"
check "-o leaves no temporary file" test "$(ls -A "$TMP" | grep -c '^\.trace')" -eq 0
run_cmd trace -o "$TMP/trace.txt" je suis chat
expect_status 1 "-o with an unknown word"
check "a failed run leaves the old file as it was" cmp -s "$TMP/trace.txt" "$TMP/stdout.txt"
run_cmd trace -o /dev/full
expect_status 1 "-o /dev/full"
expect_err "No space left on device" "a full disk is reported"
run_cmd trace -o "$TMP/no/such/dir/t.txt"
expect_status 1 "-o into a missing directory"

# a read error is an error, never the end of the input: a line longer
# than memory allows (300 MB under a 200 MB cap) once made getline() fail
# with ENOMEM, and the batch ended there with exit 0 and no word; the line
# is now refused at its 65537th byte, from a pipe, by one thread and by
# two, without being held
huge_line() {
	printf 'je ||| i\n'
	head -c 300000000 /dev/zero | tr '\0' x
	printf '\nje ||| i\n'
}
if (ulimit -v 200000 && exec "$ATTN_TRACE" --version) >/dev/null 2>&1; then
	for j in 1 2; do
		huge_line | (ulimit -v 200000 && exec "$ATTN_TRACE" trace \
			--batch=- --jobs=$j --format=jsonl) >"$TMP/out" 2>"$TMP/err"
		status=$?
		expect_status 1 "a 300 MB line, --jobs=$j"
		expect_err "stdin:2:65537: expected a line of at most 65536 bytes" \
			"the line is refused at FILE:LINE:COL, --jobs=$j"
		check "the lines around it are traced, --jobs=$j" \
			test "$(grep -c '"line": [13],' "$TMP/out")" -eq 2
	done
else
	echo "# cannot run under ulimit -v (a sanitizer build?): no 300 MB line"
fi

# a run killed part-way leaves the old file or nothing, never a part; the
# input ends only after the signal, however fast the threads trace it
i=0
while [ $i -lt 1000 ]; do
	echo "zone économique européenne ||| european economic area"
	echo "je suis étudiant"
	i=$((i + 1))
done >"$TMP/many"
slow_many() { cat "$TMP/many"; sleep 1; }
echo "old content" >"$TMP/killed.txt"
slow_many | timeout -s KILL 0.3 "$ATTN_TRACE" trace --batch=- --scorer=all \
	-o "$TMP/killed.txt" 2>/dev/null
check "a killed run leaves the old content" test "$(cat "$TMP/killed.txt")" = "old content"
rm -f "$TMP"/.killed.txt.*
slow_many | timeout -s TERM 0.3 "$ATTN_TRACE" trace --batch=- --scorer=all \
	-o "$TMP/termed.txt" 2>/dev/null
check "SIGTERM part-way leaves no file" test ! -e "$TMP/termed.txt"
check "SIGTERM part-way leaves no temporary file" \
	test "$(ls -A "$TMP" | grep -c '^\.termed')" -eq 0
finish
