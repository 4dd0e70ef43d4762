#!/bin/sh
# gzip.sh: -o FILE.gz writes gzip (zlib), replaced whole or not at all like
# every -o, and --batch=FILE.gz reads it.  The compressed files are read
# back by Python's gzip module and by zcat, and the batch reads a file that
# Python's gzip wrote, so that attn-trace is not checked against itself.
. "${srcdir:-.}/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to read the gzip files"; exit 77
fi

# gunzip_py FILE: FILE uncompressed by Python's gzip module, to stdout
gunzip_py() {
	"$PYTHON3" -c 'import gzip, sys
sys.stdout.buffer.write(gzip.open(sys.argv[1], "rb").read())' "$1"
}

# is_gzip FILE: FILE starts with gzip's magic bytes 1f 8b and method 8
is_gzip() {
	[ "$(od -An -tx1 -N3 "$1" | tr -d ' ')" = 1f8b08 ]
}

# no_strays WHAT: no temporary file is left in $TMP/o
no_strays() {
	if [ -z "$(find "$TMP/o" -name '.*' -type f)" ]; then
		ok "$1: no temporary file left"
	else
		not_ok "$1: left $(find "$TMP/o" -name '.*' -type f)"
	fi
}

mkdir "$TMP/o"
"$ATTN_TRACE" trace >"$TMP/plain.txt"
run_cmd trace -o "$TMP/o/t.txt.gz"
expect_status 0 "trace -o t.txt.gz"
check "t.txt.gz is gzip" is_gzip "$TMP/o/t.txt.gz"
gunzip_py "$TMP/o/t.txt.gz" >"$TMP/py.txt"
check "Python's gzip reads the trace back byte for byte" \
	cmp -s "$TMP/py.txt" "$TMP/plain.txt"
zcat "$TMP/o/t.txt.gz" >"$TMP/z.txt"
check "zcat reads the trace back byte for byte" \
	cmp -s "$TMP/z.txt" "$TMP/plain.txt"
check "stdout is empty with -o" test ! -s "$TMP/out"
no_strays "trace -o t.txt.gz"

# a batch: sentences and pairs, some 600 lines, written by Python's gzip
"$PYTHON3" - "$TMP/in.batch" "$TMP/in.batch.gz" <<'PY'
import gzip, sys
lines = ["je suis étudiant", "il est médecin ||| he is a doctor",
         "elle reste artiste ||| she remains an artist"] * 200
data = ("\n".join(lines) + "\n").encode("utf-8")
open(sys.argv[1], "wb").write(data)
with gzip.open(sys.argv[2], "wb") as f:
    f.write(data)
PY
check "Python wrote a gzip batch" is_gzip "$TMP/in.batch.gz"
"$ATTN_TRACE" trace --batch="$TMP/in.batch" --format=jsonl --jobs=1 \
	>"$TMP/plain.jsonl"
check "the plain batch traces 600 lines" \
	test "$(wc -l <"$TMP/plain.jsonl")" -eq 600
for j in 1 2; do
	run_cmd trace --batch="$TMP/in.batch.gz" --format=jsonl --jobs=$j \
		-o "$TMP/o/b$j.jsonl.gz"
	expect_status 0 "--batch=in.batch.gz -o b.jsonl.gz --jobs=$j"
	gunzip_py "$TMP/o/b$j.jsonl.gz" >"$TMP/py$j.jsonl"
	check "--jobs=$j: the gzip batch, read back by Python, is the plain one" \
		cmp -s "$TMP/py$j.jsonl" "$TMP/plain.jsonl"
	zcat "$TMP/o/b$j.jsonl.gz" >"$TMP/z$j.jsonl"
	check "--jobs=$j: zcat reads the same bytes" \
		cmp -s "$TMP/z$j.jsonl" "$TMP/plain.jsonl"
done
no_strays "a gzip batch"

# a cut-off gzip file is an error that leaves the old output as it was:
# cut in the deflate data, and in the trailer (its CRC and length)
size=$(wc -c <"$TMP/in.batch.gz")
printf 'old\n' >"$TMP/o/keep.gz"
for cut in $((size / 2)):1 $((size - 4)):2; do
	j=${cut#*:}
	head -c "${cut%:*}" "$TMP/in.batch.gz" >"$TMP/cut.gz"
	run_cmd trace --batch="$TMP/cut.gz" --format=jsonl --jobs=$j \
		-o "$TMP/o/keep.gz"
	expect_status 1 "--jobs=$j: a gzip batch cut at byte ${cut%:*} fails"
	expect_err "cut.gz: expected gzip data, found a corrupt or cut-off file" \
		"--jobs=$j: the cut-off file is named"
	check "--jobs=$j: the old output is kept" \
		test "$(cat "$TMP/o/keep.gz")" = old
done
no_strays "a cut-off gzip batch"

# a failed run (an unknown word) leaves no .gz file and no temporary
run_cmd trace -o "$TMP/o/none.txt.gz" "je suis zzz"
expect_status 1 "an unknown word with -o none.txt.gz"
check "no none.txt.gz is left" test ! -e "$TMP/o/none.txt.gz"
no_strays "a failed trace -o FILE.gz"

# --model=FILE.gz and --pairs=FILE.gz (and --init) read gzip, compressed
# here by Python's gzip module
gzip_py() {
	"$PYTHON3" -c 'import gzip, shutil, sys
with open(sys.argv[1], "rb") as i, gzip.open(sys.argv[2], "wb") as o:
    shutil.copyfileobj(i, o)' "$1" "$2"
}
model="$srcdir/data/localp4.model"
gzip_py "$model" "$TMP/m.model.gz"
check "Python wrote gzip" is_gzip "$TMP/m.model.gz"
for f in text json csv; do
	"$ATTN_TRACE" trace --model="$model" --window=local-p --format=$f \
		>"$TMP/m.plain" 2>&1
	"$ATTN_TRACE" trace --model="$TMP/m.model.gz" --window=local-p \
		--format=$f >"$TMP/m.gz.out" 2>&1
	check "--model=FILE.gz traces as the plain model ($f, but its name)" \
		sh -c "sed 's#$TMP/m.model.gz#MODEL#' '$TMP/m.gz.out' >'$TMP/a' &&
		       sed 's#$model#MODEL#' '$TMP/m.plain' >'$TMP/b' &&
		       cmp -s '$TMP/a' '$TMP/b'"
done
"$ATTN_TRACE" model --format=json --model="$model" | sed 1,2d >"$TMP/mj.plain"
"$ATTN_TRACE" model --format=json --model="$TMP/m.model.gz" | sed 1,2d \
	>"$TMP/mj.gz"
check "model --model=FILE.gz prints the same weights" \
	cmp -s "$TMP/mj.plain" "$TMP/mj.gz"
pairs="$srcdir/data/toy.pairs"
gzip_py "$pairs" "$TMP/p.pairs.gz"
run_cmd train --pairs="$pairs" --epochs=3 --quiet -o "$TMP/o/a.model"
run_cmd train --pairs="$TMP/p.pairs.gz" --epochs=3 --quiet -o "$TMP/o/b.model"
expect_status 0 "train --pairs=FILE.gz"
check "--pairs=FILE.gz trains the same model (but the file's name)" \
	sh -c "grep -v 'toy.pairs\|p.pairs.gz\|a.model\|b.model' '$TMP/o/a.model' >'$TMP/a' &&
	       grep -v 'toy.pairs\|p.pairs.gz\|a.model\|b.model' '$TMP/o/b.model' >'$TMP/b' &&
	       cmp -s '$TMP/a' '$TMP/b' && [ -s '$TMP/a' ]"
gzip_py "$TMP/o/a.model" "$TMP/a.model.gz"
run_cmd train --pairs="$pairs" --init="$TMP/a.model.gz" --epochs=0 --quiet \
	-o "$TMP/o/c.model"
expect_status 0 "train --init=FILE.gz"
check "--init=FILE.gz starts from its weights" \
	sh -c "sed -n '/^attn-trace-model/,\$p' '$TMP/o/a.model' >'$TMP/a' &&
	       sed -n '/^attn-trace-model/,\$p' '$TMP/o/c.model' >'$TMP/b' &&
	       cmp -s '$TMP/a' '$TMP/b'"
check "--init=FILE.gz: the new header tells the old one's story" \
	grep -q "says of itself:" "$TMP/o/c.model"
head -c 200 "$TMP/m.model.gz" >"$TMP/cut.model.gz"
run_cmd trace --model="$TMP/cut.model.gz"
expect_status 1 "a cut-off --model=FILE.gz fails"
expect_err "cut.model.gz: expected gzip data, found a corrupt or cut-off file" \
	"the cut-off model is named"
printf 'je suis ||| i am\n' >"$TMP/bad.pairs"
gzip_py "$TMP/bad.pairs" "$TMP/bad.pairs.gz"
printf 'je suis ||| i am ||| 9-9\n' >"$TMP/bad.pairs"
gzip_py "$TMP/bad.pairs" "$TMP/bad.pairs.gz"
run_cmd train --pairs="$TMP/bad.pairs.gz" --epochs=1 -o "$TMP/o/d.model"
expect_status 1 "a bad line in --pairs=FILE.gz"
expect_err "bad.pairs.gz:1:" "its error names the file, its line and column"

# only a name ending in .gz is compressed
run_cmd trace -o "$TMP/o/t.txt"
check "-o t.txt is plain text" cmp -s "$TMP/o/t.txt" "$TMP/plain.txt"
finish
