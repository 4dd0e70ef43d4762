#!/bin/bash
# options.sh: the one table of options (src/cli_option_list.h) is what
# every command parses, its --help describes and completion offers
# ('attn-trace options'); the values come from the registries.
. "$srcdir/tests/lib.sh"
AT=$ATTN_TRACE

# the options a --help describes: the long names at the start of its
# option lines ("  -s, --scorer=NAME", "      --strict")
help_options() {
	"$AT" "$@" --help | grep -oE '^  (-[a-zA-Z], | +)--[a-z][a-z-]*' |
		grep -oE -- '--[a-z-]+' | sort -u
}
# the options of the table for the commands given
table_options() {
	for c in "$@"; do "$AT" options "$c"; done | sed 's/=$//' | sort -u
}

# trace, tui and model share the main --help and one parser
for c in "trace tui model" lesson quiz heatmap diagram train vocab self image deck accuracy glimpse; do
	first=${c%% *}
	# shellcheck disable=SC2086
	if diff <(help_options "$first") <(table_options $c) >"$TMP/diff"
	then ok "$first --help describes the options of the table, no more"
	else not_ok "$first --help and the table differ: $(cat "$TMP/diff")"; fi
	# every option of the table parses: an unknown one would be refused
	# with "unknown option" before the command looks at anything else
	for o in $(table_options $c); do
		case $o in --help | --version) continue ;; esac
		"$AT" "$first" "$o" >/dev/null 2>"$TMP/err" </dev/null
		if grep -q "unknown option" "$TMP/err"; then
			not_ok "$first takes $o"; fi
	done
	ok "$first parses every option of the table"
done

# an option that is not the command's is refused, with a suggestion
run_cmd vocab --scorer=dot
expect_status 2 "vocab refuses --scorer"
expect_err "unknown option '--scorer=dot'" "vocab names the option it refuses"

# values from the registries, not from a list of their own
values() { "$AT" options "--values=$1" "$2" | grep -v '^@' | tr '\n' ' '; }
check "the windows of --window are the registry's" \
	test "$(values --window trace)" = "$("$AT" options --values=--window train | tr '\n' ' ')"
for w in global local-m local-p; do
	case " $(values --window trace)" in *" $w "*) ok "--window offers $w" ;;
	*) not_ok "--window offers $w: $(values --window trace)" ;; esac
done
check "the scorers of --scorer are 'attn-trace scorers --names' and all" \
	test "$(values --scorer trace)" = "$("$AT" scorers --names | tr '\n' ' ')all "
check "the models of --model are 'attn-trace models --names' but glimpse6" \
	test "$(values -m trace)" = "$("$AT" models --names | grep -vx glimpse6 | tr '\n' ' ')"
check "glimpse --model offers glimpse6" \
	test "$(values -m glimpse)" = "glimpse6 "
check "the stages of trace --stage" test "$(values --stage trace)" = \
	"encoding decoder scoring softmax weighted-sum concat output "
check "the stages of quiz --stage" test "$(values --stage quiz)" = \
	"scoring softmax weighted-sum hard-draw place draw retina glimpse core class reinforce "
check "the formats of trace --format" test "$(values -f trace)" = \
	"text json jsonl csv markdown "
check "the formats of diagram --format" test "$(values -f diagram)" = \
	"svg text png "
# each --help page is built from the help table (src/cli_help_list.h):
# an option once a page, its value as the option table says (--NAME=X
# for a value, --NAME[=X] for an optional one), and the lists in its
# text from the registries
# kinds CMD...: the options of the table, as --NAME, --NAME= or --NAME[=
kinds() {
	for c in "$@"; do "$AT" options "$c"; done | sort -u | awk '
		{ n = $0; sub(/=$/, "", n); eq[n] += ($0 != n); pl[n] += ($0 == n) }
		END { for (n in eq) print n (eq[n] && pl[n] ? "[=" : eq[n] ? "=" : "") }' |
		sort
}
for c in "trace tui model" lesson quiz heatmap diagram train vocab self image glimpse; do
	first=${c%% *}
	"$AT" "$first" --help |
		grep -oE '^(  -[a-zA-Z], |      )--[a-z][a-z-]*(\[?=)?' |
		sed 's/^ *\(-[a-zA-Z], \)*//' >"$TMP/heads"
	check "$first --help describes each option once" \
		test "$(sed 's/=$//; s/\[$//' "$TMP/heads" | sort | uniq -d)" = ""
	# shellcheck disable=SC2086
	check "$first --help gives each option's value as the table does" \
		test "$(sort "$TMP/heads")" = "$(kinds $c)"
done
"$AT" --help >"$TMP/main"
# joined OPTION: the values of OPTION of trace as a sentence lists them
joined() {
	"$AT" options "--values=$1" trace | grep -v '^@' | awk '{ a[NR] = $0 }
		END { for (i = 1; i <= NR; i++)
			printf "%s%s", i == 1 ? "" : i == NR ? " or " : ", ", a[i] }'
}
# the help with its wrapped lines joined again
tr -s ' \n' '  ' <"$TMP/main" >"$TMP/main1"
check "the main --help lists the windows of the registry" \
	grep -qF "$(joined --window); local-p needs" "$TMP/main1"
check "the main --help lists the scorers of the registry" \
	grep -qF "scorers: $("$AT" scorers --names | paste -sd, | sed 's/,/, /g')" \
	"$TMP/main1"
# every --help fits 80 columns (characters: the English help has no wide
# ones; a combining mark, as in h̄, takes none), but for the line that
# names the lessons directory, as long as its path is
for c in "" trace tui heatmap diagram deck quiz lesson lessons model train \
	vocab self image glimpse caption calc accuracy scorers models; do
	# shellcheck disable=SC2086
	"$AT" $c --help >"$TMP/h" 2>&1
	check "${c:-the main} --help fits 80 columns" /usr/bin/python3 -c '
import sys, unicodedata
sys.exit(any(sum(0 if unicodedata.combining(c) else 1 for c in l) > 80
             for l in open(sys.argv[1], encoding="utf-8").read().split("\n")
             if "reads them from" not in l))
' "$TMP/h"
done
check "the main --help lists the formats of --format" \
	grep -qF "$(joined -f) (default text)" "$TMP/main"
check "the main --help lists the stages of --stage" \
	test "$(sed -n '/--stage=LIST/,/comma-separated/p' "$TMP/main" |
		tr -s ' \n' '  ' | sed 's/.*these stages: //; s/ (comma.*//')" = \
	"$(values --stage trace | sed 's/ $//; s/ /, /g')"
check "a comma list is marked" test "$("$AT" options --values=--scorer trace | head -1)" = "@list"
check "a value with nothing to offer is @any" \
	test "$("$AT" options --values=--precision trace)" = "@any"
check "an option without a value has no values" \
	test -z "$("$AT" options --values=--strict trace)"
run_cmd options nosuch
expect_status 2 "options refuses an unknown command"
check "--values takes a bare name as --values=--NAME" \
	test "$("$AT" options --values=scorer trace)" = "$("$AT" options --values=--scorer trace)"
run_cmd options --values=--nosuch trace
expect_status 2 "options --values refuses an option the command lacks"
expect_err "'--nosuch' is not an option of trace" "and says so"
run_cmd options --values=--heads train
expect_status 2 "options --values refuses another command's option"
run_cmd options --help
expect_status 0 "options --help"
check "options --help prints its usage" grep -q "^usage: attn-trace options" "$TMP/out"
check "--help lists the options command" sh -c "'$AT' --help | grep -q '^  options \\[COMMAND\\]'"
check "help --commands lists the commands" \
	test "$("$AT" help --commands | tr '\n' ' ')" = \
	"trace tui model lessons lesson quiz heatmap diagram deck train accuracy scorers models vocab self image caption glimpse calc options help "
finish
