#!/bin/sh
# set-fronts.sh: --set on heatmap, diagram, deck and quiz (issue 31 point
# 1; doc/trace-format.md, "What-if: --set").  tests/set_fronts.py checks
# the numbers each front end draws from edited traces against
# `trace --set ... --format=json` of the same edits (which
# tests/torch_set.py checks against torch) and that each says it is a
# what-if; here, a bad --set gets trace's --set:N:COL error, exit 2, and
# no file, and the commands that draw what --set cannot edit refuse it.
. "$srcdir/tests/lib.sh"
if [ -z "${PYTHON3:-}" ] || [ "$PYTHON3" = no ]; then
	echo "python3 is needed to read the pictures"; exit 77
fi
top=$(cd "$srcdir" && pwd)

check "heatmap, diagram, deck and quiz draw the edited trace" \
	"$PYTHON3" "$top/tests/set_fronts.py" "$ATTN_TRACE" "$TMP"

# the text pictures and the sheets say so too
wif="what-if: the trace with --set general.W[2][3]=0.5, --set step[1].scores[2]=3"
run_cmd diagram --format=text --scorer=general --set='general.W[2][3]=0.5' \
	--set='step[1].e[2]=3'
# its first lines (broken between two edits to fit --width), up to a blank
check "diagram --format=text: its first lines are the what-if" \
	test "$(sed '/^$/q' "$TMP/out" | tr '\n' ' ' | cut -c1-${#wif})" = "$wif"
for sheet in --worksheet --key; do
	run_cmd quiz "$sheet" --seed=1 --scorer=general \
		--set='general.W[2][3]=0.5' --set='step[1].e[2]=3'
	check "quiz $sheet: the sheet says it is a what-if" \
		grep -qF -- "$wif" "$TMP/out"
done

# bad CMD OUT FRAGMENT WHAT ARGS...: CMD ARGS exits 2 with the error
# FRAGMENT, as trace does, and writes nothing to stdout nor to OUT
bad() {
	cmd=$1 out=$2 frag=$3 what=$4
	shift 4
	rm -rf "$out"
	run_cmd "$cmd" "$@"
	expect_status 2 "$cmd: $what"
	expect_err "$frag" "$cmd: $what: message"
	if [ -s "$TMP/out" ] || [ -e "$out" ]; then
		not_ok "$cmd: $what: something was written"
	else
		ok "$cmd: $what: nothing written"
	fi
}
# the same messages as trace's
run_cmd trace --set=bogus=1
unknown=$(head -1 "$TMP/err")
check "trace's message for an unknown name" \
	grep -qF -- "--set:1:1: unknown name 'bogus'" "$TMP/err"
for cmd in heatmap diagram deck quiz; do
	o=$TMP/$cmd.out
	case $cmd in quiz) opt=--answers ;; *) opt="-o $o" ;; esac
	# shellcheck disable=SC2086
	bad "$cmd" "$o" "$unknown" "unknown name" $opt --set=bogus=1
	# shellcheck disable=SC2086
	bad "$cmd" "$o" "--set:2:11: index '5' out of range: expected 1 to 4" \
		"index out of range" $opt --scorer=general \
		--set='general.W[1][1]=1' --set='general.W[5][1]=1'
	# shellcheck disable=SC2086
	bad "$cmd" "$o" "--set:1:17: expected a finite number, found 'inf'" \
		"a value that is not finite" $opt --set='general.W[1][1]=inf'
	# after tracing: a step the trace did not make
	# shellcheck disable=SC2086
	bad "$cmd" "$o" "--set:1:6: step '9' out of range" "step out of range" \
		$opt --set='step[9].scores[1]=1'
	# shellcheck disable=SC2086
	bad "$cmd" "$o" "--set:1:1: step[1].scores[1] is set while the trace runs, which --hard does not follow" \
		"--hard" $opt --hard --set='step[1].scores[1]=1'
done
bad heatmap "$TMP/h.svg" "--set:1:1: --self draws self-attention" "--self" \
	-o "$TMP/h.svg" --self --set='general.W[1][1]=1'
bad heatmap "$TMP/h.svg" "--set:1:1: --arch=all draws" "--arch=all" \
	-o "$TMP/h.svg" --arch=all --set='general.W[1][1]=1'
bad heatmap "$TMP/h.svg" "--set:1:1: the picture of --gradient-paths" \
	"--gradient-paths" -o "$TMP/h.svg" --gradient-paths --target='i am' \
	--set='general.W[1][1]=1'
bad quiz "$TMP/none" "--set:1:1: --arch=all asks" "--arch=all" \
	--answers --arch=all --set='general.W[1][1]=1'
bad quiz "$TMP/none" "--set:1:1: a glimpse model's quiz" "a glimpse model" \
	--answers --model=glimpse6 --set='general.W[1][1]=1' image.pgm

# a quiz whose every question --set answers says so, and asks nothing
run_cmd quiz --answers --stage=weighted-sum --target=i \
	--set='step[1].weights[1]=0' --set='step[2].weights[1]=0' 
expect_status 1 "quiz: every question given by --set"
expect_err "asks for a number that --set gives" \
	"quiz: every question given by --set: message"
finish
