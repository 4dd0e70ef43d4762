#!/bin/sh
# hostile.sh: hostile input and failures, round two (issue 26): closed
# standard descriptors; outputs of several files; other users' links and
# files in shared directories (as root); words that are formulas or
# bidirectional controls; inputs that standard error writes into; quiz
# answers without end; a batch's memory whatever --jobs.
. "$srcdir/tests/lib.sh"
pairs="$srcdir/data/toy.pairs"
tiny="$srcdir/tests/data/tiny.model"

# no_temp DIR WHAT: DIR holds no temporary file (.NAME.XXXXXX)
no_temp() {
	check "$2" test -z "$(ls -A "$1" | grep '^\.')"
}

# === 1. closed standard descriptors ===
# train's progress goes to stderr; closed, it must not go into the model
"$ATTN_TRACE" train --pairs="$pairs" --epochs=3 --every=1 \
	-o "$TMP/fd2.model" 2>&-
status=$?
check "train ... 2>&-: exit 0 (got $status)" test "$status" -eq 0
run_cmd model --model="$TMP/fd2.model"
expect_status 0 "train ... 2>&-: the model written loads"
check "train ... 2>&-: no progress line in the model" \
	test -z "$(grep -i 'epoch' "$TMP/fd2.model" | grep -v '^#')"

# a batch's error messages must not go into its output
printf 'je suis étudiant\nje suis chat\nje suis étudiant\n' >"$TMP/mixed.pairs"
"$ATTN_TRACE" trace --batch="$TMP/mixed.pairs" --format=jsonl \
	-o "$TMP/fd2.jsonl" 2>&-
status=$?
check "a batch with a bad line, 2>&-: exit 1 (got $status)" test "$status" -eq 1
check "a batch, 2>&-: two JSON lines" test "$(wc -l <"$TMP/fd2.jsonl")" -eq 2
check "a batch, 2>&-: no message in the JSON Lines" \
	test -z "$(grep -v '^{' "$TMP/fd2.jsonl")"
for j in 1 2; do
	"$ATTN_TRACE" trace --batch=- --jobs=$j --format=jsonl -o "$TMP/fd1.jsonl" \
		<&- 2>"$TMP/err"
	status=$?
	expect_status 1 "--batch=- <&- --jobs=$j is an error, not an empty input"
	expect_err "stdin: expected input, found standard input closed" \
		"--batch=- <&- --jobs=$j: says why"
	check "--batch=- <&- --jobs=$j: no output file" test ! -e "$TMP/fd1.jsonl"
done
"$ATTN_TRACE" model --model=- <&- >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 1 "model --model=- <&-"
expect_err "standard input: expected input, found standard input closed" \
	"model --model=- <&-: says why"
"$ATTN_TRACE" quiz --count=1 <&- >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 1 "quiz <&-: an error, not the end of the answers"
expect_err "cannot read the answers: expected input, found standard input closed" \
	"quiz <&-: says why"
"$ATTN_TRACE" trace >&- 2>"$TMP/err"
status=$?
expect_status 1 "trace >&-: a write error"
expect_err "write error" "trace >&-: says so"
"$ATTN_TRACE" trace -o "$TMP/fd1.txt" >&- 2>"$TMP/err"
status=$?
expect_status 0 "trace -o FILE >&-: standard output is not needed"
check "trace -o FILE >&-: the file is the trace" \
	test "$(head -n 1 "$TMP/fd1.txt")" = attn-trace-text/3
no_temp "$TMP" "closed descriptors leave no temporary file"

# === 2. outputs of several files ===
# diagram --all-steps: step 3 cannot be written (a directory has its name);
# the files that were there keep their content
mkdir "$TMP/steps"
for t in 1 2 4 5; do echo "old $t" >"$TMP/steps/step-$t.svg"; done
mkdir "$TMP/steps/step-3.svg"
run_cmd diagram --all-steps -o "$TMP/steps"
expect_status 1 "--all-steps with a step that cannot be written"
for t in 1 2 4 5; do
	check "--all-steps failed: step-$t.svg keeps its old content" \
		test "$(cat "$TMP/steps/step-$t.svg")" = "old $t"
done
no_temp "$TMP/steps" "--all-steps failed: no temporary file"
rmdir "$TMP/steps/step-3.svg"
run_cmd diagram --all-steps -o "$TMP/steps"
expect_status 0 "--all-steps over old files"
check "--all-steps: every step replaced" \
	test "$(grep -l '^<svg' "$TMP/steps"/step-*.svg | wc -l)" -eq 5
# an input that is one of the files is refused, and kept
cat "$srcdir/data/toy4.model" >"$TMP/steps/step-2.svg"
cp "$TMP/steps/step-2.svg" "$TMP/step2.orig"
run_cmd diagram --all-steps --model="$TMP/steps/step-2.svg" -o "$TMP/steps/"
expect_status 2 "--all-steps: a --model that is DIR/step-2.svg is refused"
expect_err "expected a file other than the input --model=" "--all-steps: the input is named"
check "--all-steps: the model is untouched" cmp -s "$TMP/steps/step-2.svg" "$TMP/step2.orig"
mkdir "$TMP/models"
cp "$pairs" "$TMP/models/luong.model"
run_cmd train --arch=all --pairs="$TMP/models/luong.model" -o "$TMP/models" \
	--epochs=1 -q
expect_status 2 "train --arch=all: --pairs that is DIR/luong.model is refused"
check "train --arch=all: the pairs are untouched" cmp -s "$TMP/models/luong.model" "$pairs"
ln "$TMP/models/luong.model" "$TMP/hard.pairs"
run_cmd train --arch=all --pairs="$pairs" --heldout="$TMP/hard.pairs" \
	-o "$TMP/models/" --epochs=1 -q
expect_status 2 "train --arch=all: --heldout, a hard link of DIR/luong.model, is refused"
# the second model cannot be written whole (the file size limit, between
# the two models' sizes, measured first; ulimit -f counts blocks of 512
# bytes in some shells and of 1024 in others): the first keeps its old
# content
mkdir "$TMP/sizes"
"$ATTN_TRACE" train --arch=all --pairs="$pairs" -o "$TMP/sizes" --epochs=1 -q
s1=$(wc -c <"$TMP/sizes/luong.model")
s2=$(wc -c <"$TMP/sizes/bahdanau.model")
if (ulimit -f 1; head -c 1000 /dev/zero >"$TMP/unit") 2>/dev/null; then
	unit=1024
else
	unit=512
fi
rm -f "$TMP/unit"
echo "old luong" >"$TMP/models/luong.model"
echo "old bahdanau" >"$TMP/models/bahdanau.model"
if [ $((s2 - s1)) -gt $((2 * unit)) ]; then
	(trap '' XFSZ; ulimit -f $(((s1 + s2) / 2 / unit)); exec "$ATTN_TRACE" \
		train --arch=all --pairs="$pairs" -o "$TMP/models" --epochs=1 \
		-q) >"$TMP/out" 2>"$TMP/err"
	status=$?
	expect_status 1 "train --arch=all: the second model past ulimit -f"
	expect_err "bahdanau.model: File too large" "train --arch=all: the full file is named"
	check "train --arch=all failed: luong.model keeps its old content" \
		test "$(cat "$TMP/models/luong.model")" = "old luong"
	check "train --arch=all failed: bahdanau.model keeps its old content" \
		test "$(cat "$TMP/models/bahdanau.model")" = "old bahdanau"
	no_temp "$TMP/models" "train --arch=all failed: no temporary file"
else
	echo "# the models are $s1 and $s2 bytes: no file size limit between them"
fi
# a signal while both temporary files are open removes both
timeout -s TERM 1 "$ATTN_TRACE" train --arch=all --pairs="$pairs" \
	-o "$TMP/models" --epochs=10000000 -q 2>/dev/null
check "train --arch=all killed: luong.model kept" \
	test "$(cat "$TMP/models/luong.model")" = "old luong"
no_temp "$TMP/models" "train --arch=all killed: neither temporary file is left"

# === 3. other users' links and files (as root) ===
if [ "$(id -u)" -ne 0 ]; then
	echo "# not root: the sticky-directory and owner tests are skipped"
else
	# attn-trace follows the links of -o itself, so the kernel's own
	# protection never applies; it is turned off where it can be, to show
	# that the refusal is attn-trace's
	ps=/proc/sys/fs/protected_symlinks
	saved=
	if [ -w "$ps" ] && saved=$(cat "$ps") && echo 0 >"$ps" 2>/dev/null; then
		trap 'echo "$saved" >"$ps"; rm -rf "$TMP"' EXIT
	else
		saved=
		echo "# fs.protected_symlinks is $(cat "$ps" 2>/dev/null || echo unknown) and stays"
	fi
	mallory=4242 # a user id that need not exist
	mkdir -m 1777 "$TMP/shared" "$TMP/victim"
	echo precious >"$TMP/victim/file"
	ln -s ../victim/file "$TMP/shared/out"
	chown -h "$mallory:$mallory" "$TMP/shared/out"
	run_cmd trace -o "$TMP/shared/out"
	expect_status 1 "root -o another user's link in a sticky directory"
	expect_err "sticky, world-writable directory, found one of user $mallory" \
		"the link's owner is named"
	check "the file the link points to is untouched" \
		test "$(cat "$TMP/victim/file")" = precious
	check "the link is still a link" test -L "$TMP/shared/out"
	ln -s ../victim/new "$TMP/shared/dangling"
	chown -h "$mallory:$mallory" "$TMP/shared/dangling"
	run_cmd trace -o "$TMP/shared/dangling"
	expect_status 1 "root -o another user's dangling link in a sticky directory"
	check "no file is created where it points" test ! -e "$TMP/victim/new"
	run_cmd diagram --all-steps -o "$TMP/shared/dangling"
	expect_status 1 "--all-steps through another user's link is refused too"
	# the caller's own link, and the directory owner's, are followed
	ln -s ../victim/mine "$TMP/shared/mine"
	run_cmd trace -o "$TMP/shared/mine"
	expect_status 0 "root -o its own link in a sticky directory"
	check "its own link is followed" grep -q attn-trace-text "$TMP/victim/mine"
	mkdir -m 1777 "$TMP/owned"
	chown "$mallory" "$TMP/owned"
	ln -s ../victim/owners "$TMP/owned/link"
	chown -h "$mallory" "$TMP/owned/link"
	run_cmd trace -o "$TMP/owned/link"
	expect_status 0 "-o the directory owner's link in a sticky directory"
	check "the owner's link is followed" grep -q attn-trace-text "$TMP/victim/owners"
	# a link in a sticky directory that is not world-writable is followed
	mkdir -m 1775 "$TMP/group"
	ln -s ../victim/group "$TMP/group/link"
	chown -h "$mallory" "$TMP/group/link"
	run_cmd trace -o "$TMP/group/link"
	expect_status 0 "-o a link in a sticky directory that is not world-writable"

	# root replacing another user's set-user-ID file keeps its owner
	mkdir "$TMP/own"
	echo old >"$TMP/own/f"
	chown "$mallory:$mallory" "$TMP/own/f"
	chmod 6755 "$TMP/own/f"
	run_cmd trace -o "$TMP/own/f"
	expect_status 0 "root -o another user's set-ID file"
	check "the file is replaced" grep -q attn-trace-text "$TMP/own/f"
	check "it keeps its owner and group ($(stat -c %u:%g "$TMP/own/f"))" \
		test "$(stat -c %u:%g "$TMP/own/f")" = "$mallory:$mallory"
	check "it keeps its mode ($(stat -c %a "$TMP/own/f"))" \
		test "$(stat -c %a "$TMP/own/f")" = 6755
	# another user, who cannot give the file away, drops the set-ID bits
	if command -v setpriv >/dev/null 2>&1; then
		chmod 711 "$TMP"
		chmod 777 "$TMP/own"
		echo old >"$TMP/own/g"
		chown 4243:4243 "$TMP/own/g"
		chmod 6777 "$TMP/own/g"
		setpriv --reuid=$mallory --regid=$mallory --clear-groups \
			"$ATTN_TRACE" trace -o "$TMP/own/g" >"$TMP/out" 2>"$TMP/err"
		status=$?
		expect_status 0 "a user replaces another's set-ID file in its directory"
		check "the new file is the user's ($(stat -c %u:%g "$TMP/own/g"))" \
			test "$(stat -c %u:%g "$TMP/own/g")" = "$mallory:$mallory"
		check "and has no set-ID bit ($(stat -c %a "$TMP/own/g"))" \
			test "$(stat -c %a "$TMP/own/g")" = 777
	else
		echo "# no setpriv: the set-ID bits of a non-root user are not tested"
	fi
	[ -n "$saved" ] && echo "$saved" >"$ps"
fi

# === 4. words that are formulas or bidirectional controls ===
# CSV cells: a word that starts with =, +, -, @ is neutralised (OWASP: a
# single quote before it, the cell quoted), a word that is a number is not
sed -e 's/^un  /=1+1/' -e 's/^deux /-2   /' -e 's/^trois /@SUM(A1)/' \
    -e 's/^one  /+cmd /' -e 's/^two  /-0.5 /' "$tiny" >"$TMP/formula.model"
run_cmd trace --model="$TMP/formula.model" --format=csv --target='+cmd -0.5' \
	-- =1+1 -2 '@SUM(A1)'
expect_status 0 "a model of formula words traces to CSV"
check "=1+1 is written \"'=1+1\"" grep -qF ",x_1,1,0.5,,\"'=1+1\"," "$TMP/out"
check "@SUM(A1) is written \"'@SUM(A1)\"" grep -qF ",\"'@SUM(A1)\"," "$TMP/out"
check "+cmd is written \"'+cmd\"" grep -qF ",\"'+cmd\"," "$TMP/out"
check "the word -2, a number, stays -2; the value -1 stays -1" \
	grep -q ',x_2,1,-1,,-2,$' "$TMP/out"
check "the word -0.5, a number, stays -0.5" grep -q ',-0\.5$' "$TMP/out"
check "no cell starts with =, @ or +" \
	test -z "$(grep -E '(^|,)[=@+]' "$TMP/out")"
# bidirectional controls: refused in a model word, escaped in a file name
rlo=$(printf '\342\200\256')
sed "s/^deux /d${rlo}x /" "$tiny" >"$TMP/bidi.model"
run_cmd model --model="$TMP/bidi.model"
expect_status 1 "a model word with U+202E is refused"
expect_err "bidi.model:12:2: expected text, found the bidirectional control U+202E" \
	"the word's FILE:LINE:COL is given"
for cp in '\342\200\252' '\342\200\256' '\342\201\246' '\342\201\251' \
	  '\342\200\216' '\342\200\217' '\330\234'; do
	c=$(printf "$cp")
	sed "s/^deux /d${c}x /" "$tiny" >"$TMP/bidi2.model"
	run_cmd model --model="$TMP/bidi2.model"
	expect_status 1 "a model word with $cp is refused"
done
printf 'je suis %s\n' "$rlo" >"$TMP/bidi.pairs"
run_cmd trace --batch="$TMP/bidi.pairs"
expect_status 1 "a batch line with U+202E"
expect_err "bidi.pairs:1:9: expected text, found the bidirectional control U+202E" \
	"the batch line's column is given"
run_cmd trace --model="$TMP/no${rlo}such.model"
expect_status 1 "a missing model whose name holds U+202E"
expect_err 'no\xe2\x80\xaesuch.model' "the name is shown escaped"
check "no raw U+202E reaches the terminal" test -z "$(grep "$rlo" "$TMP/err")"

# === 5. reads without end ===
printf 'je suis étudiant\nje suis chat\n' >"$TMP/grow.pairs"
cp "$TMP/grow.pairs" "$TMP/grow.orig"
for j in 1 2; do
	timeout 10 "$ATTN_TRACE" trace --batch="$TMP/grow.pairs" --jobs=$j \
		>/dev/null 2>>"$TMP/grow.pairs"
	status=$?
	expect_status 2 "trace --batch=P 2>>P --jobs=$j is refused up front"
	check "trace --batch=P 2>>P --jobs=$j: P is untouched" \
		cmp -s "$TMP/grow.pairs" "$TMP/grow.orig"
done
ln -s grow.pairs "$TMP/grow.link"
timeout 10 "$ATTN_TRACE" trace --batch="$TMP/grow.link" >/dev/null 2>>"$TMP/grow.pairs"
status=$?
expect_status 2 "trace --batch=LINK 2>>P is refused"
cat "$tiny" >"$TMP/m.model"
cp "$TMP/m.model" "$TMP/m.orig"
timeout 10 "$ATTN_TRACE" trace --model="$TMP/m.model" nope >/dev/null \
	2>>"$TMP/m.model"
status=$?
expect_status 2 "trace --model=M 2>>M is refused"
check "trace --model=M 2>>M: the model is untouched" cmp -s "$TMP/m.model" "$TMP/m.orig"
# the quiz's answer line is capped: a long line is skipped, not held
answer=$("$ATTN_TRACE" quiz --seed=42 --count=1 --answers |
	sed -n 's/^(answer: .* = \(.*\))$/\1/p')
check "quiz --answers gives the answer ($answer)" test -n "$answer"
{ head -c 2000 /dev/zero | tr '\0' 1; echo; echo "$answer"; } |
	"$ATTN_TRACE" quiz --seed=42 --count=1 >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 0 "quiz: a 2000-byte answer line"
check "quiz: the long line is not read" grep -q "an answer longer than 1024 bytes, not read" "$TMP/out"
check "quiz: the next line is the answer, and right" grep -q "^score: 1 of 1" "$TMP/out"
if (ulimit -v 100000 && exec "$ATTN_TRACE" --version) >/dev/null 2>&1; then
	{ head -c 150000000 /dev/zero | tr '\0' 1; echo; echo "$answer"; } |
		(ulimit -v 100000 && exec "$ATTN_TRACE" quiz --seed=42 --count=1) \
		>"$TMP/out" 2>"$TMP/err"
	status=$?
	expect_status 0 "quiz: a 150 MB answer line under ulimit -v 100000"
	check "quiz: after the 150 MB line the answer is read" \
		grep -q "^score: 1 of 1" "$TMP/out"
else
	echo "# cannot run under ulimit -v (a sanitizer build?): no 150 MB answer"
fi

# === 6. a batch's memory whatever --jobs ===
# a model at the size limits (64 dimensions, 4096 words a side), generated;
# lines of 32 words whose traces take about 150 MB each with every scorer
gen_big() {
	awk 'function num() { k++; return (k * 7919 % 2001 - 1000) / 20000 }
	function row(label, c,    s, j) {
		s = label; for (j = 0; j < c; j++) s = s " " num(); print s }
	function mat(name, r, c,    i) {
		print "[" name "]"; for (i = 0; i < r; i++) row("", c) }
	function targets(c,    i) {
		row("<s>", c); row("</s>", c)
		for (i = 1; i <= 4094; i++) row("t" i, c) }
	BEGIN {
		D = 64
		print "attn-trace-model 1"
		print "embedding " D; print "hidden " D; print "attention " D
		print "positions " D
		print "[source]"; for (i = 1; i <= 4096; i++) row("s" i, D)
		print "[target]"; targets(D)
		mat("encoder.W_x", D, D); mat("encoder.W_h", D, D)
		mat("encoder.b", 1, D); mat("decoder.W_x", D, D)
		mat("decoder.W_h", D, D); mat("decoder.b", 1, D)
		mat("general.W", D, D); mat("concat.W", D, 2 * D)
		mat("concat.v", 1, D); mat("location.W", D, D)
		mat("additive.W", D, D); mat("additive.U", D, D)
		mat("additive.v", 1, D); mat("location-aware.W", D, D)
		mat("location-aware.V", D, D); mat("location-aware.U", D, 2)
		mat("location-aware.b", 1, D); mat("location-aware.w", 1, D)
		mat("location-aware.F", 2, 3); mat("output.W_c", D, 2 * D)
		print "[output.W_s]"; targets(D)
	}'
}
# the first line, whose cost is unknown, is traced by the main thread: a
# batch fed line by line is still answered line by line (the answer to
# the first line comes before the second is sent; 20 s is a hang guard)
if mkfifo "$TMP/in.fifo" "$TMP/out.fifo" 2>/dev/null; then
	"$ATTN_TRACE" trace --batch=- --jobs=2 --format=jsonl \
		<"$TMP/in.fifo" >"$TMP/out.fifo" 2>/dev/null &
	exec 3>"$TMP/in.fifo" 4<"$TMP/out.fifo"
	echo "je suis étudiant" >&3
	timeout 20 head -n 1 <&4 >"$TMP/first"
	first_rc=$?
	echo "je suis étudiant" >&3
	exec 3>&-
	cat <&4 >"$TMP/rest"
	exec 4<&-
	wait
	check "--jobs=2 fed line by line: the first line is answered before the second is sent" \
		test "$first_rc" -eq 0
	check "--jobs=2 fed line by line: the first answer is line 1's" \
		grep -q '"line": 1,' "$TMP/first"
	check "--jobs=2 fed line by line: then the second" \
		grep -q '"line": 2,' "$TMP/rest"
fi
# (not measured in a sanitizer build, which cannot start under ulimit -v:
# its quarantine keeps freed memory, and its traces take ten times longer)
if [ "${HOSTILE_SKIP_MEMORY:-}" = yes ] ||
   ! (ulimit -v 200000 && exec "$ATTN_TRACE" --version) >/dev/null 2>&1; then
	echo "# the batch's memory is not measured (HOSTILE_SKIP_MEMORY, or a sanitizer build)"
elif [ -x /usr/bin/time ]; then
	gen_big >"$TMP/big.model"
	awk 'BEGIN { for (l = 0; l < 4; l++) { s = ""
		for (i = 1; i <= 32; i++) s = s (i > 1 ? " " : "") "s" (l * 64 + i)
		print s } }' >"$TMP/big.pairs"
	for j in 1 4; do
		/usr/bin/time -f %M -o "$TMP/rss$j" "$ATTN_TRACE" trace \
			--model="$TMP/big.model" --scorer=all --stage=softmax \
			--format=csv --batch="$TMP/big.pairs" --jobs=$j |
			cksum >"$TMP/sum$j"
	done
	rss1=$(tail -n 1 "$TMP/rss1")
	rss4=$(tail -n 1 "$TMP/rss4")
	echo "# max RSS: --jobs=1 $rss1 KiB, --jobs=4 $rss4 KiB"
	check "a batch of huge traces: the same output at -j1 and -j4" \
		cmp -s "$TMP/sum1" "$TMP/sum4"
	check "a batch of huge traces: -j4 holds at most 1.25 times -j1 ($rss4 vs $rss1 KiB)" \
		test "$rss4" -le $((rss1 * 5 / 4))
	rm -f "$TMP/big.model"
else
	echo "# no /usr/bin/time: the batch's memory is not measured"
fi

finish
