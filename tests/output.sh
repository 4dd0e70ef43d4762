#!/bin/sh
# output.sh: where -o writes: descriptors and devices in place, regular
# files replaced whole; an output that would overwrite an input; signals
# that leave no temporary file; train -o.
. "$srcdir/tests/lib.sh"

# no_temp WHAT: $TMP holds no temporary file (.NAME.XXXXXX); removes any
# there is, so that the next check starts afresh
no_temp() {
	check "$1" test -z "$(ls -A "$TMP" | grep '^\.')"
	rm -f "$TMP"/.[!.]*
}

# --- -o names a descriptor or a device: written in place ---
{ echo H; "$ATTN_TRACE" trace -o /dev/stdout; } >"$TMP/kept"
check "-o /dev/stdout keeps what stdout held" test "$(head -n 1 "$TMP/kept")" = H
check "-o /dev/stdout writes after it" test "$(sed -n 2p "$TMP/kept")" = attn-trace-text/3
{ echo H >&2; "$ATTN_TRACE" trace -o /dev/stderr; } 2>"$TMP/kept2"
check "-o /dev/stderr keeps what stderr held" test "$(head -n 1 "$TMP/kept2")" = H
check "-o /dev/stderr writes after it" test "$(sed -n 2p "$TMP/kept2")" = attn-trace-text/3
if [ -e /proc/self/fd ]; then
	{ echo H >&3; "$ATTN_TRACE" trace -o /proc/self/fd/3; } 3>"$TMP/kept3"
	check "-o /proc/self/fd/3 keeps what it held" test "$(head -n 1 "$TMP/kept3")" = H
	check "-o /proc/self/fd/3 writes after it" test "$(sed -n 2p "$TMP/kept3")" = attn-trace-text/3
	{ echo H >&4; "$ATTN_TRACE" model -o /dev/fd/4; } 4>>"$TMP/kept4"
	check "-o /dev/fd/4 (appending) keeps what it held" test "$(head -n 1 "$TMP/kept4")" = H
	check "-o /dev/fd/4 writes the model after it" grep -q '^embedding 4' "$TMP/kept4"
fi
ln -s /dev/stdout "$TMP/out-link"
{ echo H; "$ATTN_TRACE" trace -o "$TMP/out-link"; } >"$TMP/kept5"
check "a link to /dev/stdout keeps what stdout held" test "$(head -n 1 "$TMP/kept5")" = H
check "the link to /dev/stdout is kept" test -L "$TMP/out-link"
rm -f "$TMP/out-link"
check "-o /dev/stdout into a pipe" test "$("$ATTN_TRACE" trace -o /dev/stdout | head -n 1)" = attn-trace-text/3
if mkfifo "$TMP/fifo" 2>/dev/null; then
	head -n 1 "$TMP/fifo" >"$TMP/from-fifo" &
	"$ATTN_TRACE" trace -o "$TMP/fifo" 2>/dev/null
	wait
	check "-o FIFO writes into the FIFO" test "$(cat "$TMP/from-fifo")" = attn-trace-text/3
	check "-o FIFO keeps the FIFO" test -p "$TMP/fifo"
	rm -f "$TMP/fifo"
fi
run_cmd trace -o /dev/null
expect_status 0 "-o /dev/null"
check "/dev/null is still a device" test -c /dev/null
no_temp "-o to descriptors leaves no temporary file"

# --- names: as long as the directory allows, dangling links ---
max=$(getconf NAME_MAX "$TMP" 2>/dev/null || echo 255)
long=$(printf "%${max}s" "" | tr ' ' x)
run_cmd trace -o "$TMP/$long"
expect_status 0 "-o a name of NAME_MAX ($max) bytes"
check "the long name is written" test "$(head -n 1 "$TMP/$long")" = attn-trace-text/3
rm -f "$TMP/$long"
no_temp "a long name leaves no temporary file"
run_cmd trace -o "$TMP/${long}x"
expect_status 1 "-o a name one byte too long"
expect_err "File name too long" "the long name is refused"
ln -s target.txt "$TMP/dangling"
run_cmd trace -o "$TMP/dangling"
expect_status 0 "-o a dangling link"
check "the dangling link is kept" test -L "$TMP/dangling"
check "the file it names is written" test "$(head -n 1 "$TMP/target.txt")" = attn-trace-text/3
rm -f "$TMP/dangling" "$TMP/target.txt"

# --- an output that would overwrite an input is refused, however the two
# are spelled; the input stays as it was
printf 'je suis étudiant ||| i am a student\n' >"$TMP/in.pairs"
cp "$TMP/in.pairs" "$TMP/in.orig"
ln -s in.pairs "$TMP/link.pairs"
ln "$TMP/in.pairs" "$TMP/hard.pairs"
# refused WHAT OPTION: the last run was refused and in.pairs is untouched
refused() {
	expect_status 2 "$1"
	expect_err "expected a file other than the input $2" "$1: the input is named"
	check "$1: the input is untouched" cmp -s "$TMP/in.pairs" "$TMP/in.orig"
	cp "$TMP/in.orig" "$TMP/in.pairs" # for the next case, if not
}
run_cmd trace --batch="$TMP/in.pairs" -o "$TMP/in.pairs"
refused "trace --batch=X -o X" --batch=
run_cmd trace --batch="$TMP/in.pairs" -o "$TMP/.//in.pairs"
refused "-o spelled with ./ and //" --batch=
run_cmd trace --batch="$TMP/in.pairs" -o "$TMP/link.pairs"
refused "-o a link to the batch file" --batch=
run_cmd trace --batch="$TMP/hard.pairs" -o "$TMP/in.pairs"
refused "-o a hard link of the batch file" --batch=
"$ATTN_TRACE" trace --batch=- -o "$TMP/in.pairs" <"$TMP/in.pairs" >"$TMP/out" 2>"$TMP/err"
status=$?
refused "--batch=- from the file that -o names" --batch=-
"$ATTN_TRACE" trace --batch="$TMP/in.pairs" >>"$TMP/in.pairs" 2>"$TMP/err"
status=$?
refused "stdout appended to the batch file" --batch=
"$ATTN_TRACE" trace --batch="$TMP/in.pairs" -o /dev/stdout >>"$TMP/in.pairs" 2>"$TMP/err"
status=$?
refused "-o /dev/stdout appended to the batch file" --batch=
run_cmd train --pairs="$TMP/in.pairs" -o "$TMP/in.pairs" --epochs=1 -q
refused "train --pairs=X -o X" --pairs=
run_cmd train --pairs="$TMP/link.pairs" -o "$TMP/hard.pairs" --epochs=1 -q
refused "train --pairs=LINK -o HARDLINK" --pairs=
"$ATTN_TRACE" train --pairs=- -o "$TMP/in.pairs" --epochs=1 -q <"$TMP/in.pairs" >"$TMP/out" 2>"$TMP/err"
status=$?
refused "train --pairs=- from the file that -o names" --pairs=-
cat "$srcdir/data/toy4.model" >"$TMP/m.model" # writable, as a copy of a read-only tree
cp "$TMP/m.model" "$TMP/m.orig"
run_cmd trace --model="$TMP/m.model" -o "$TMP/m.model"
expect_status 2 "trace --model=X -o X"
expect_err "expected a file other than the input --model=" "trace: the model is named"
check "trace --model=X -o X: the model is untouched" cmp -s "$TMP/m.model" "$TMP/m.orig"
cp "$TMP/m.orig" "$TMP/m.model"
run_cmd model --model="$TMP/m.model" -o "$TMP/m.model"
expect_status 2 "model --model=X -o X"
check "model --model=X -o X: the model is untouched" cmp -s "$TMP/m.model" "$TMP/m.orig"
# a built-in model's name is not a file, even if a file has that name
(cd "$TMP" && "$ATTN_TRACE" trace --model=toy4 -o toy4 >/dev/null 2>&1)
check "--model=toy4 -o toy4 writes the file toy4" grep -q '^attn-trace-text/3' "$TMP/toy4"
# --init=X -o X continues the training of X, which is read whole first
run_cmd train --pairs="$srcdir/data/toy.pairs" --init="$TMP/m.model" \
	-o "$TMP/m.model" --epochs=2 -q
expect_status 0 "train --init=X -o X is allowed"
run_cmd trace --model="$TMP/m.model"
expect_status 0 "the model written over its --init loads"
# /dev/null in and out is no overwrite
run_cmd trace --batch=/dev/null -o /dev/null
expect_status 0 "--batch=/dev/null -o /dev/null"
no_temp "refused outputs leave no temporary file"

# --- one standard input for two inputs
run_cmd trace --model=- --batch=-
expect_status 2 "--model=- --batch=-"
expect_err "standard input" "--model=- --batch=-: standard input is named"
run_cmd train --init=- --pairs=- -o "$TMP/x.model"
expect_status 2 "train --init=- --pairs=-"
expect_err "standard input" "--init=- --pairs=-: standard input is named"
check "train --init=- --pairs=- creates nothing" test ! -e "$TMP/x.model"

# --- train -o: atomic, and checked before training
pairs="$srcdir/data/toy.pairs"
cat "$srcdir/data/toy4.model" >"$TMP/good.model"
cp "$TMP/good.model" "$TMP/good.orig"
timeout 300 "$ATTN_TRACE" train --pairs="$pairs" -o "$TMP/no/such/x.model" \
	--epochs=10000000 -q >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 1 "train -o into a missing directory fails before training"
expect_err "$TMP/no/such: cannot create a file in this directory" "train: the directory is named"
# a full disk (the file size limit, SIGXFSZ ignored) keeps the old model
(trap '' XFSZ; ulimit -f 1; exec "$ATTN_TRACE" train --pairs="$pairs" \
	-o "$TMP/good.model" --epochs=1 -q) >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 1 "train -o past ulimit -f"
expect_err "good.model: File too large" "train: the full disk is reported"
check "train -o past ulimit -f keeps the old model" cmp -s "$TMP/good.model" "$TMP/good.orig"
no_temp "train -o past ulimit -f leaves no temporary file"
{ (ulimit -c 0; ulimit -f 1; exec "$ATTN_TRACE" train --pairs="$pairs" \
	-o "$TMP/good.model" --epochs=1 -q); } 2>/dev/null
status=$?
check "train -o past ulimit -f dies of SIGXFSZ (status $status)" \
	test "$(kill -l "$status" 2>/dev/null)" = XFSZ
check "train killed by SIGXFSZ keeps the old model" cmp -s "$TMP/good.model" "$TMP/good.orig"
no_temp "train killed by SIGXFSZ leaves no temporary file"
run_cmd train --pairs="$pairs" -o /dev/full --epochs=1 -q
expect_status 1 "train -o /dev/full"
expect_err "/dev/full: No space left on device" "train: /dev/full is reported"
{ echo H; "$ATTN_TRACE" train --pairs="$pairs" -o /dev/stdout --epochs=1 -q; } >"$TMP/kept6"
check "train -o /dev/stdout keeps what stdout held" test "$(head -n 1 "$TMP/kept6")" = H
check "train -o /dev/stdout writes the model after it" \
	grep -qx "attn-trace-model 1" "$TMP/kept6"
timeout -s TERM 1 "$ATTN_TRACE" train --pairs="$pairs" -o "$TMP/good.model" \
	--epochs=10000000 -q 2>/dev/null
check "train killed while training keeps the old model" cmp -s "$TMP/good.model" "$TMP/good.orig"
no_temp "train killed while training leaves no temporary file"
run_cmd train --pairs="$pairs" -o "$TMP/good.model" --epochs=1 -q
expect_status 0 "train -o over an old model"
run_cmd trace --model="$TMP/good.model"
expect_status 0 "the new model loads"
no_temp "train -o leaves no temporary file"

# --- every command reports a full standard output, --help included
for cmd in trace tui model lessons lesson quiz heatmap train scorers; do
	"$ATTN_TRACE" $cmd --help >/dev/full 2>"$TMP/err"
	status=$?
	expect_status 1 "$cmd --help >/dev/full"
	expect_err "write error" "$cmd --help: the full disk is reported"
done
"$ATTN_TRACE" --version >/dev/full 2>"$TMP/err"
status=$?
expect_status 1 "--version >/dev/full"

# --- a run that dies part-way leaves no temporary file, whatever kills
# it; the input ends only after the signal
i=0
while [ $i -lt 200 ]; do
	echo "je suis étudiant"
	i=$((i + 1))
done >"$TMP/many"
slow_many() { cat "$TMP/many"; sleep 1; }
for sig in QUIT PIPE ALRM USR1 USR2 TERM; do
	slow_many | timeout --preserve-status -s "$sig" 0.5 "$ATTN_TRACE" trace \
		--batch=- -o "$TMP/killed.txt" 2>/dev/null
	status=$?
	check "SIG$sig part-way: the program dies of it (status $status)" \
		test "$(kill -l "$status" 2>/dev/null)" = "$sig"
	check "SIG$sig part-way leaves no file" test ! -e "$TMP/killed.txt"
	no_temp "SIG$sig part-way leaves no temporary file"
done
# SIGXFSZ: the file size limit, reached by the first write
{ (ulimit -c 0; ulimit -f 1; exec "$ATTN_TRACE" trace --scorer=all \
	--format=json -o "$TMP/big.json"); } 2>/dev/null
status=$?
check "past ulimit -f: the program dies of SIGXFSZ (status $status)" \
	test "$(kill -l "$status" 2>/dev/null)" = XFSZ
check "past ulimit -f: no file" test ! -e "$TMP/big.json"
no_temp "past ulimit -f: no temporary file"
# with SIGXFSZ ignored, the write fails and is reported instead
echo "old" >"$TMP/big.json"
(trap '' XFSZ; ulimit -f 1; exec "$ATTN_TRACE" trace --scorer=all --format=json \
	-o "$TMP/big.json") 2>"$TMP/err"
status=$?
expect_status 1 "past ulimit -f with SIGXFSZ ignored"
expect_err "big.json: File too large" "the file size limit is reported"
check "past ulimit -f: the old file is kept" test "$(cat "$TMP/big.json")" = old
rm -f "$TMP/big.json"
no_temp "past ulimit -f with SIGXFSZ ignored: no temporary file"

finish
