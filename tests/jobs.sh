#!/bin/sh
# jobs.sh: trace --batch --jobs=N writes the same bytes on stdout and
# stderr, and exits with the same status, as --jobs=1, whatever N: every
# format, bad lines, --strict, an empty batch, standard input, -o FILE.
. "$srcdir/tests/lib.sh"

# The good pairs of the toy corpus, which the built-in model knows.
grep -v '^#' "$srcdir/data/toy.pairs" | grep -v '^ *$' >"$TMP/toy"
check "the toy corpus has pairs" test "$(wc -l <"$TMP/toy")" -ge 10

# mixed N: N lines of pairs, with bad lines among them: unknown words, a
# third field that is no alignment, NUL bytes, invalid UTF-8, an empty source, a control character,
# and blank lines, comments and CRLF line ends, which are not bad; the
# last line has no '\n'.  (\001 stands for the NUL byte until tr.)
mixed() {
	awk -v n="$1" '
	{ pair[npair++] = $0 }
	END {
		for (k = 1; k <= n; k++) {
			p = pair[(k * 7) % npair]
			if (k % 50 == 0) line = ""
			else if (k % 37 == 0) line = "# comment " k
			else if (k % 29 == 0) line = "je suis chat"
			else if (k % 31 == 0) line = "zone ||| european ||| area"
			else if (k % 43 == 0) line = "je suis\001étudiant"
			else if (k % 47 == 0) line = "je suis ||| i am a teacher"
			else if (k % 53 == 0) line = "je \377 suis"
			else if (k % 59 == 0) line = "   ||| i am"
			else if (k % 61 == 0) line = "je \033suis"
			else if (k % 41 == 0) line = p "\r"
			else if (k % 5 == 0) line = toupper(p)
			else if (k % 3 == 0) { line = p; sub(/ \|\|\|.*/, "", line) }
			else line = p
			printf "%s%s", line, k < n ? "\n" : ""
		}
	}' "$TMP/toy" | tr '\001' '\000'
}

# good N BAD...: N good lines, with the line "je suis chat" at each line
# number BAD
good() {
	n=$1
	shift
	awk -v n="$n" -v bad="$*" '
	BEGIN { split(bad, b, " "); for (k in b) isbad[b[k]] = 1 }
	{ pair[npair++] = $0 }
	END {
		for (k = 1; k <= n; k++)
			print isbad[k] ? "je suis chat" : pair[k % npair]
	}' "$TMP/toy"
}

# run_jobs J FEED ARGS...: runs attn-trace ARGS... --jobs=J with the output
# of the command FEED on its standard input; leaves $TMP/out.J, $TMP/err.J
# and $TMP/status.J
run_jobs() {
	j=$1 feed=$2
	shift 2
	$feed | "$ATTN_TRACE" "$@" --jobs="$j" >"$TMP/out.$j" 2>"$TMP/err.$j"
	echo $? >"$TMP/status.$j"
}

# same WHAT FEED ARGS...: --jobs=2, 3 and 8 give the stdout, stderr and
# exit status of --jobs=1; with -o, the file written too (ARGS name it
# $TMP/o.J, which is copied to $TMP/file.J).
same() {
	what=$1 feed=$2
	shift 2
	why=
	for j in 1 2 3 8; do
		rm -f "$TMP/o.J"
		run_jobs "$j" "$feed" "$@"
		if [ -e "$TMP/o.J" ]; then cp "$TMP/o.J" "$TMP/file.$j"
		else rm -f "$TMP/file.$j"; fi
		[ "$j" -eq 1 ] && continue
		cmp -s "$TMP/status.1" "$TMP/status.$j" ||
			why="$why exit $(cat "$TMP/status.$j") with --jobs=$j;"
		cmp -s "$TMP/out.1" "$TMP/out.$j" ||
			why="$why stdout differs with --jobs=$j;"
		cmp -s "$TMP/err.1" "$TMP/err.$j" ||
			why="$why stderr differs with --jobs=$j;"
		if [ -e "$TMP/file.1" ] || [ -e "$TMP/file.$j" ]; then
			cmp -s "$TMP/file.1" "$TMP/file.$j" ||
				why="$why the -o file differs with --jobs=$j;"
		fi
	done
	if [ -z "$why" ]; then ok "$what"; else not_ok "$what:$why"; fi
}

none() { :; }

mixed 400 >"$TMP/mixed"
good 300 >"$TMP/good"
: >"$TMP/empty"
cat_mixed() { cat "$TMP/mixed"; }
cat_good() { cat "$TMP/good"; }
# the input in bursts, so that the threads catch up with it and wait
slow_mixed() {
	sed -n '1,10p' "$TMP/mixed"
	sleep 0.3
	sed -n '11,150p' "$TMP/mixed"
	sleep 0.3
	sed -n '151,$p' "$TMP/mixed"
}

# the batch holds what the comparisons are about
run_jobs 1 none trace --batch="$TMP/mixed" --format=jsonl
check "the mixed batch fails (exit 1)" test "$(cat "$TMP/status.1")" -eq 1
check "the mixed batch has more than 300 traces" \
	test "$(grep -c '' "$TMP/out.1")" -gt 300
check "the mixed batch has more than 40 bad lines" \
	test "$(grep -c '' "$TMP/err.1")" -gt 40
check "a NUL byte is among them" grep -q 'found a NUL byte' "$TMP/err.1"
check "a bad alignment is among them" grep -q 'such as 1-1, found "area"' "$TMP/err.1"

for f in text json jsonl csv markdown; do
	same "$f: a batch with bad lines" none \
		trace --batch="$TMP/mixed" --format="$f"
	same "$f: --strict" none \
		trace --batch="$TMP/mixed" --format="$f" --strict
	same "$f: an empty batch" none \
		trace --batch="$TMP/empty" --format="$f"
	same "$f: a batch on standard input" cat_mixed \
		trace --batch=- --format="$f"
	same "$f: -o FILE" none \
		trace --batch="$TMP/mixed" --format="$f" -o "$TMP/o.J"
done
same "--scorer=all --stage and --precision" none trace --batch="$TMP/mixed" \
	--scorer=all --stage=softmax,output --precision=6 --top=2
same "the handset4 model, teacher-forced and greedy" none \
	trace --batch="$TMP/mixed" --model=handset4 --format=csv
same "standard input that arrives in bursts" slow_mixed \
	trace --batch=- --format=jsonl
same "an empty standard input" none trace --batch=- --format=json
same "all good lines" none trace --batch="$TMP/good" --format=json
same "all good lines, -o FILE" none trace --batch="$TMP/good" -o "$TMP/o.J"

# --strict with the bad line at the start, in the middle and at either side
# of the chunks' edges.  With twice as many chunks in flight as threads,
# the chunks hold a line each until the first trace is written out (its
# size then known), and then, with the short traces of the toy model, 64
# lines each: with --jobs=2 they end after lines 1, 2, 3, 4, 68, 132 ...,
# with --jobs=3 after 1 to 6, 70, 134 ..., with --jobs=8 after 1 to 16, 80,
# 144, 208, 272.
for bad in 1 2 4 5 6 7 16 17 68 69 70 71 80 81 132 133 134 135 144 145 \
	208 209 299 300; do
	good 300 "$bad" $((bad + 1)) $((bad + 40)) >"$TMP/strict"
	same "--strict, bad line $bad (jsonl)" none \
		trace --batch="$TMP/strict" --format=jsonl --strict
done
for bad in 16 17 64 65; do
	good 300 "$bad" >"$TMP/strict"
	same "--strict, bad line $bad (text, -o FILE)" none \
		trace --batch="$TMP/strict" --strict -o "$TMP/o.J"
	same "--strict, bad line $bad (csv on standard input)" cat_good \
		trace --batch=- --strict --format=csv
done
run_jobs 3 none trace --batch="$TMP/strict" --strict --format=jsonl
check "--strict stops at the bad line with threads" \
	test "$(grep -c '' "$TMP/out.3")" -eq 64
check "--strict reports only it with threads" \
	test "$(grep -c '' "$TMP/err.3")" -eq 1
check "... as FILE:LINE" grep -q "^attn-trace: $TMP/strict:65: unknown source word \"chat\"" "$TMP/err.3"

# -o FILE: a strict batch that stops leaves the old file
echo "old content" >"$TMP/kept"
good 300 200 >"$TMP/strict"
"$ATTN_TRACE" trace --batch="$TMP/strict" --strict --jobs=3 -o "$TMP/kept" \
	2>/dev/null
check "a strict batch that stops with threads leaves the old file" \
	test "$(cat "$TMP/kept")" = "old content"
check "... and no temporary file" \
	test "$(ls -A "$TMP" | grep -c '^\.kept')" -eq 0

# the default, and a sentence, which --jobs leaves alone
run_jobs 1 none trace --batch="$TMP/mixed" --format=csv
"$ATTN_TRACE" trace --batch="$TMP/mixed" --format=csv >"$TMP/out.default" \
	2>"$TMP/err.default"
check "without --jobs, the same output" cmp -s "$TMP/out.1" "$TMP/out.default"
check "without --jobs, the same errors" cmp -s "$TMP/err.1" "$TMP/err.default"
"$ATTN_TRACE" trace je suis étudiant >"$TMP/one.1"
run_cmd trace -j 4 je suis étudiant
expect_status 0 "-j N with a sentence"
check "-j N with a sentence changes nothing" cmp -s "$TMP/one.1" "$TMP/out"
run_cmd trace -j4 --batch="$TMP/good" --format=jsonl
expect_status 0 "-jN"

# a write error stops the batch; a closed pipe ends it quietly
run_cmd trace --batch="$TMP/good" --jobs=3 -o /dev/full
expect_status 1 "--jobs=3 -o /dev/full"
expect_err "No space left on device" "a full disk is reported with threads"
"$ATTN_TRACE" trace --batch="$TMP/good" --jobs=3 --scorer=all 2>"$TMP/err" |
	head -c 100 >/dev/null
check "a closed pipe ends a batch with threads quietly" test ! -s "$TMP/err"

# traces are written as soon as the input pauses, not when it ends
if mkfifo "$TMP/fifo" 2>/dev/null; then
	# the shell of the background job opens stream only once the fifo
	# has a writer, which may be after the first look below: make it now
	: >"$TMP/stream"
	"$ATTN_TRACE" trace --batch=- --format=jsonl --jobs=2 \
		<"$TMP/fifo" >"$TMP/stream" 2>&1 &
	pid=$!
	exec 7>"$TMP/fifo"
	printf 'je suis étudiant\nzone économique européenne\n' >&7
	tries=0
	while [ "$(wc -l <"$TMP/stream")" -lt 2 ] && [ $tries -lt 300 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	check "traces come out while the input is still open" \
		test "$(wc -l <"$TMP/stream")" -eq 2
	echo "banque centrale européenne" >&7
	exec 7>&-
	wait "$pid"
	status=$?
	check "... and the rest at its end (exit $status)" \
		test "$status" -eq 0 -a "$(wc -l <"$TMP/stream")" -eq 3
fi

# a run killed part-way with threads leaves no file and no temporary file
# (the input ends only after the signal)
slow_good() { cat "$TMP/good"; sleep 1; }
slow_good | timeout -s TERM 0.3 "$ATTN_TRACE" trace --batch=- --scorer=all \
	--jobs=3 -o "$TMP/termed.txt" 2>/dev/null
check "SIGTERM part-way with threads leaves no file" test ! -e "$TMP/termed.txt"
check "SIGTERM part-way with threads leaves no temporary file" \
	test "$(ls -A "$TMP" | grep -c '^\.termed')" -eq 0
finish
