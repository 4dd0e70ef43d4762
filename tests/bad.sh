#!/bin/sh
# bad.sh: the catalogue of malformed and hostile inputs, tests/bad/cases.tsv.
#
# Each case runs attn-trace once and passes when
#   - it exits with the expected status (an exit status of 128 or more, a
#     crash, always fails; so does a case still running after HANG seconds,
#     a guard against a hang, not a speed limit: speed belongs in bench/);
#   - on failure (status 1 or 2): stdout is empty, and stderr is one line
#     starting "attn-trace: " (two for a usage error, status 2) that holds
#     the expected fragment;
#   - on success (status 0): stderr is empty, and stdout holds the fragment.
# A fragment written !TEXT instead says that TEXT must not appear.  A case
# with a sixth field, OUT/ERR, expects exactly OUT lines on stdout and ERR
# on stderr instead (a batch whose good lines are traced and whose bad
# lines are each reported), every stderr line starting "attn-trace: ".
# Every case runs under `ulimit -v MEMCAP` when the program can start that
# way, so a size that is checked only after allocating for it fails too; a
# sanitizer build cannot, and gets ASan's max_allocation_size_mb instead.
# tests/bad/README.md describes the format.
. "$srcdir/tests/lib.sh"
bad="$srcdir/tests/bad"
tiny="$srcdir/tests/data/tiny.model"
HANG=300        # seconds after which a case is taken to hang
MEMCAP=200000   # KiB of virtual memory a case may use

if command -v timeout >/dev/null 2>&1; then
	TIMEOUT="timeout $HANG"
else
	TIMEOUT=
	echo "# no timeout(1): cases run without a time limit"
fi
# (the braces keep the shell's "Aborted" notice quiet)
if { (ulimit -v "$MEMCAP" && exec "$ATTN_TRACE" --version) >/dev/null 2>&1
   } 2>/dev/null; then
	memcap=yes
else
	# AddressSanitizer reserves terabytes of address space; instead it
	# can refuse any one allocation past the cap
	memcap=no
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=$((MEMCAP / 1024))"
	export ASAN_OPTIONS
	echo "# cannot run under ulimit -v $MEMCAP (a sanitizer build?):" \
	     "ASAN_OPTIONS=$ASAN_OPTIONS instead"
fi

# --- generators for inputs too big to keep in the tree ---

# repeat_char N C: N copies of the byte C
repeat_char() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

# words N WORD...: N words, cycling through the WORDs, on one line
words() {
	n=$1
	shift
	echo "$@" | awk -v n="$n" '{
		for (k = 0; k < n; k++)
			printf "%s%s", k ? " " : "", $(k % NF + 1)
		print ""
	}'
}

# model_gen E H A NSRC NTGT W: a model of those sizes whose numbers are
# +W and -W by turns; source words s1.., target words <s> </s> t1..
model_gen() {
	awk -v E="$1" -v H="$2" -v A="$3" -v NS="$4" -v NT="$5" -v W="$6" '
	function row(label, c,    s, j) {
		s = label
		for (j = 0; j < c; j++)
			s = s " " ((k++ % 2) ? "-" W : W)
		print s
	}
	function mat(name, r, c,    i) {
		print "[" name "]"
		for (i = 0; i < r; i++)
			row("", c)
	}
	function targets(c,    i) {
		row("<s>", c)
		row("</s>", c)
		for (i = 1; i <= NT; i++)
			row("t" i, c)
	}
	BEGIN {
		print "attn-trace-model 1"
		print "embedding " E; print "hidden " H; print "attention " A
		print "[source]"
		for (i = 1; i <= NS; i++)
			row("s" i, E)
		print "[target]"
		targets(E)
		mat("encoder.W_x", H, E); mat("encoder.W_h", H, H)
		mat("encoder.b", 1, H)
		mat("decoder.W_x", H, E); mat("decoder.W_h", H, H)
		mat("decoder.b", 1, H)
		mat("general.W", H, H); mat("concat.W", A, 2 * H)
		mat("concat.v", 1, A); mat("output.W_c", H, 2 * H)
		print "[output.W_s]"
		targets(H)
	}'
}

# tiny_with PATTERN: tiny.model with the first line matching PATTERN (an awk
# regular expression) replaced by standard input
tiny_with() {
	cat >"$TMP/splice"
	awk -v pat="$1" -v repl="$TMP/splice" '
	!done && $0 ~ pat {
		while ((getline l < repl) > 0)
			print l
		done = 1
		next
	}
	{ print }' "$tiny"
}

# tiny_padded SIZE: tiny.model padded with comment lines to SIZE bytes
tiny_padded() {
	cat "$tiny"
	yes '# padding' | head -c $(($1 - $(wc -c <"$tiny")))
}

# lesson_head: the header of a lesson, and a blank line
lesson_head() {
	printf 'title: A generated lesson\nsentence: je suis étudiant\n\n'
}

# lesson_padded SIZE: a one-page lesson padded with comments to SIZE bytes
lesson_padded() {
	{ lesson_head; printf 'page: Padding\nText.\n'; } >"$TMP/lesson-head"
	cat "$TMP/lesson-head"
	yes '# padding' | head -c $(($1 - $(wc -c <"$TMP/lesson-head")))
}

# lesson_pages N: a lesson of N pages, each with a directive
lesson_pages() {
	lesson_head
	awk -v n="$1" 'BEGIN {
		for (k = 1; k <= n; k++)
			printf "page: Page %d\nshow weights t=1\n\n", k
	}'
}

# gen_file NAME OUT: writes the generated input NAME into OUT
gen_file() {
	case $1 in
	long-word.model)	# a 1 MB word
		{ repeat_char 1048576 x; echo " 1 2 3"; } | tiny_with '^trois' ;;
	long-row.model)		# a 1 MB row of [encoder.W_x]
		{ yes 0.5 | head -n 262144 | tr '\n' ' '; echo; } |
			tiny_with '^ 0.5 -0.4' ;;
	long-comment.model)	# a 1 MB comment line: accepted
		{ cat "$tiny"; printf '#'; repeat_char 1048576 c; echo; } ;;
	dim-64.model)		# E = H = A = 64, the limit
		model_gen 64 64 64 3 3 0.01 ;;
	dim-64-max.model)	# the largest dimensions and weights
		model_gen 64 64 64 3 3 1e6 ;;
	markers-only.model)	# no target words but <s> and </s>
		model_gen 1 1 1 1 0 0.5 ;;
	vocab-4096.model)	# 4096 source words, the limit
		model_gen 1 1 1 4096 1 0.5 ;;
	vocab-4097.model)
		model_gen 1 1 1 4097 1 0.5 ;;
	target-4097.model)	# 4097 target words with <s> and </s>
		model_gen 1 1 1 1 4095 0.5 ;;
	size-16mib.model)	# exactly 16 MiB: accepted
		tiny_padded 16777216 ;;
	size-16mib-plus1.model)
		tiny_padded 16777217 ;;
	size-1gib-sparse.model)	# a 1 GiB file with no data in it
		dd if=/dev/zero bs=1 count=1 seek=1073741823 2>/dev/null ;;
	lesson-pages-10000.lesson)	# 10,000 pages; 200 is the limit
		lesson_pages 10000 ;;
	lesson-pages-200.lesson)	# exactly 200 pages: accepted
		lesson_pages 200 ;;
	lesson-line-1mb.lesson)	# a paragraph of one 1,000,000-byte line
		lesson_head
		printf 'page: A long line\n'
		repeat_char 1000000 x
		echo ;;
	lesson-verbatim-lines.lesson)	# 110,000 verbatim lines, 1 MB
		lesson_head
		printf 'page: Verbatim\n'
		yes '							x' | head -n 110000 ;;
	lesson-paragraph-lines.lesson)	# a paragraph of 500,000 lines
		lesson_head
		printf 'page: Paragraph\n'
		yes x | head -n 500000 ;;
	lesson-size-1mib.lesson)	# exactly 1 MiB: accepted
		lesson_padded 1048576 ;;
	lesson-size-1mib-plus1.lesson)
		lesson_padded 1048577 ;;
	calc-keys-65.calc)	# one key over calc's 64
		awk 'BEGIN { print "query 1 0"
			for (k = 1; k <= 65; k++) print "key 1 " k }' ;;
	calc-values-65.calc)	# 64 keys, then one value over the 64
		awk 'BEGIN { print "query 1 0"
			for (k = 1; k <= 64; k++) print "key 1 " k
			for (k = 1; k <= 65; k++) print "  value " k }' ;;
	batch-lines-10000.pairs)	# 10,000 good lines, short ones: the
		# case is about the count (a sanitizer build formats numbers
		# slowly, and each trace holds about 500 of them)
		awk 'BEGIN {
			for (k = 0; k < 10000; k++)
				print k % 2 ? "suis ||| am" : "je ||| i"
		}' ;;
	batch-line-64k.pairs)	# a line of 65536 bytes, the limit: a word
		# and blanks, then a good line
		printf 'je'
		repeat_char 65534 ' '
		echo
		echo "je suis étudiant" ;;
	batch-line-64k-plus1.pairs)	# 65537 bytes, then a good line
		printf 'je'
		repeat_char 65535 ' '
		echo
		echo "je suis étudiant" ;;
	pairs-line-64k-plus1.pairs)	# the same with a target, for train
		printf 'je ||| i'
		repeat_char 65530 ' '
		echo
		echo "je suis étudiant ||| i am a student" ;;
	batch-word-1mb.pairs)	# a line of one 1 MB word, then a good line
		repeat_char 1048576 x
		echo
		echo "je suis étudiant" ;;
	batch-words-1mb.pairs)	# a 1 MB line of words, then a good line
		words 349525 je
		echo "je suis étudiant" ;;
	out-same.pairs)		# an input that -o names again
		echo "je suis étudiant ||| i am a student" ;;
	words-10000.txt)	words 10000 je suis étudiant ;;
	words-65.txt)		words 65 je suis étudiant ;;
	words-64.txt)		words 64 je suis étudiant ;;
	target-65.txt)		words 65 i am a student ;;
	target-64.txt)		words 64 i am a student ;;
	word-100kb.txt)		repeat_char 102400 x ;;
	word-65b.txt)		repeat_char 65 x ;;
	word-64b.txt)		repeat_char 64 x ;;
	*)	return 1 ;;
	esac >"$2"
}

# gen NAME: generates NAME into $TMP once and prints its path
gen() {
	if [ ! -f "$TMP/gen/$1" ]; then
		mkdir -p "$TMP/gen"
		gen_file "$1" "$TMP/gen/$1.t" || {
			echo "bad.sh: no generator for '$1'" >&2
			return 1
		}
		mv "$TMP/gen/$1.t" "$TMP/gen/$1"
	fi
	printf '%s\n' "$TMP/gen/$1"
}

# fifo NAME: makes a FIFO called NAME in $TMP/fifo (once), with no writer,
# and prints its path: a read that opens it waits forever
fifo() {
	mkdir -p "$TMP/fifo"
	[ -p "$TMP/fifo/$1" ] || mkfifo "$TMP/fifo/$1" || return 1
	printf '%s\n' "$TMP/fifo/$1"
}

# --- running one case ---

# invoke STDIN ARGS...: runs attn-trace under the limits; sets $status
invoke() {
	stdin=$1
	shift
	if [ "$memcap" = yes ]; then
		(ulimit -v "$MEMCAP" && exec $TIMEOUT "$ATTN_TRACE" "$@") \
			<"$stdin" >"$TMP/out" 2>"$TMP/err"
	else
		$TIMEOUT "$ATTN_TRACE" "$@" <"$stdin" >"$TMP/out" 2>"$TMP/err"
	fi
	status=$?
}

# has FILE FRAGMENT: FILE holds FRAGMENT, or lacks TEXT if it is !TEXT
has() {
	case $2 in
	!*) ! grep -qF -- "${2#!}" "$1" ;;
	*) grep -qF -- "$2" "$1" ;;
	esac
}

# lines FILE: the number of lines of FILE, a last one without '\n' included
lines() {
	grep -c '' "$1"
}

# input_text INPUT: the text of a sentence input ("..." or gen:NAME)
input_text() {
	case $1 in
	gen:*) cat "$(gen "${1#gen:}")" ;;
	\"*\") x=${1#\"}; printf '%b' "${x%\"}" ;;
	*) return 1 ;;
	esac
}

# input_file INPUT: the path of a model input (NAME in tests/bad or gen:NAME)
input_file() {
	case $1 in
	gen:*) gen "${1#gen:}" ;;
	*) printf '%s\n' "$bad/$1" ;;
	esac
}

# check_lines OUT/ERR: the line counts of stdout and stderr, and every
# stderr line an "attn-trace: " message; sets $why if not
check_lines() {
	want_out=${1%/*} want_err=${1#*/}
	got_out=$(lines "$TMP/out")
	got_err=$(lines "$TMP/err")
	if [ "$got_out" -ne "$want_out" ]; then
		why="$got_out lines on stdout, expected $want_out"
	elif [ "$got_err" -ne "$want_err" ]; then
		why="$got_err lines on stderr, expected $want_err"
	elif grep -v '^attn-trace: ' "$TMP/err" | grep -q ''; then
		why="a stderr line does not start with 'attn-trace: '"
	fi
}

# check_failure STATUS: one "attn-trace: " line on stderr (two for a usage
# error), nothing on stdout; sets $why if not
check_failure() {
	nl=$(lines "$TMP/err")
	max=1
	[ "$1" -eq 2 ] && max=2
	if [ -s "$TMP/out" ]; then
		why="printed on stdout"
	elif [ "$nl" -lt 1 ] || [ "$nl" -gt "$max" ]; then
		why="$nl lines on stderr, expected 1 to $max"
	elif [ "$(wc -l <"$TMP/err")" -ne "$nl" ]; then
		why="stderr does not end with a newline"
	elif ! head -n 1 "$TMP/err" | grep -q '^attn-trace: '; then
		why="stderr does not start with 'attn-trace: '"
	fi
}

# run_case NAME KIND INPUT STATUS FRAGMENT [OUT/ERR]
run_case() {
	name=$1 kind=$2 input=$3 want=$4 frag=$5 counts=${6:-}
	stdin=/dev/null
	case $kind in
	model) set -- model --model="$(input_file "$input")" ;;
	lesson) set -- lesson --check "$(input_file "$input")" ;;
	batch) set -- trace --batch="$(input_file "$input")" --format=jsonl ;;
	model-stdin) stdin=$(input_file "$input"); set -- model --model=- ;;
	quiz-stdin) stdin=$(input_file "$input"); set -- quiz --seed=42 --count=1 ;;
	sentence) set -- trace -- "$(input_text "$input")" ;;
	target) set -- trace --target="$(input_text "$input")" \
		je suis étudiant ;;
	args) eval "set -- $input" ;;
	*) not_ok "$name: unknown kind '$kind'"; return ;;
	esac
	invoke "$stdin" "$@"
	why=
	if [ "$status" -eq 124 ] && [ -n "$TIMEOUT" ]; then
		why="still running after ${HANG}s: it hangs"
	elif [ "$status" -ge 128 ]; then
		why="crashed (exit $status)"
	elif [ "$status" -ne "$want" ]; then
		why="exit $status, expected $want"
	elif [ -n "$counts" ]; then
		check_lines "$counts"
	elif [ "$want" -eq 0 ]; then
		[ -s "$TMP/err" ] && why="printed on stderr"
	else
		check_failure "$want"
	fi
	if [ -n "$why" ]; then
		:
	elif [ "$want" -eq 0 ] && ! has "$TMP/out" "$frag"; then
		why="stdout does not match '$frag'"
	elif [ "$want" -ne 0 ] && ! has "$TMP/err" "$frag"; then
		why="stderr does not match '$frag'"
	fi
	if [ -z "$why" ]; then
		ok "$name ($kind, exit $want)"
	else
		not_ok "$name: $why; stderr: $(head -c 300 "$TMP/err")"
	fi
}

# --- the catalogue ---

count=0
while IFS='	' read -r name kind input want frag counts <&3; do
	case $name in '' | '#'*) continue ;; esac
	count=$((count + 1))
	run_case "$name" "$kind" "$input" "$want" "$frag" "$counts"
done 3<"$bad/cases.tsv"
check "the catalogue has at least 180 cases ($count)" test "$count" -ge 180

# every file of tests/bad is a case, so none is forgotten
for f in "$bad"/*; do
	b=${f##*/}
	case $b in cases.tsv | README.md) continue ;; esac
	if ! cut -f 3 "$bad/cases.tsv" | grep -qF -- "$b"; then
		not_ok "tests/bad/$b is in no case"
	fi
done

finish
