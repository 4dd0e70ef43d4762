#!/bin/sh
# homes.sh: each variant has one home (issue 32's acceptance).  Outside
# src/arch_*.c no file of src/ names a particular architecture
# (ARCH_luong, ...), outside src/window_*.c none a window (WINDOW_global,
# ...), outside src/selection_*.c none a selection (SELECTION_hard, ...),
# and outside src/score_*.c none a scorer but the documented default, the
# registry's first (SCORER_dot).  The names are read from the registry
# headers, so a new variant is held here too; comments are left out (a
# comment that names a variant tests for none).
#   homes.sh DIR  checks DIR instead of src/ (the mutation check).
. "$srcdir/tests/lib.sh"

dir=${1:-"$srcdir/src"}

# strip FILE: FILE without its /* ... */ and // comments
strip() {
	awk '{
		out = ""; s = $0
		while (s != "") {
			if (inc) {
				k = index(s, "*/")
				if (!k) { s = ""; break }
				s = substr(s, k + 2); inc = 0
				continue
			}
			k = index(s, "/*"); l = index(s, "//")
			if (l && (!k || l < k)) { out = out substr(s, 1, l - 1); s = ""; break }
			if (!k) { out = out s; s = ""; break }
			out = out substr(s, 1, k - 1); s = substr(s, k + 2); inc = 1
		}
		print FILENAME ":" FNR ": " out
	}' "$1"
}

# axis PREFIX LIST HOME DEFAULT: no PREFIX_<name> of LIST's names in a
# file of $dir but the registry's headers and those whose name starts
# with HOME; DEFAULT (may be empty) is allowed everywhere
axis() {
	prefix=$1 list=$2 home=$3 dflt=$4
	names=$(sed -n "s/^$prefix(\([A-Za-z0-9_]*\))\$/\1/p" "$dir/$list")
	if [ -z "$names" ]; then
		not_ok "$list lists no $prefix(NAME)"
		return
	fi
	pat=
	for n in $names; do
		[ "$n" = "$dflt" ] && continue
		pat="$pat${pat:+|}${prefix}_$n"
	done
	: >"$TMP/hits"
	for f in "$dir"/*.c "$dir"/*.h; do
		b=$(basename "$f")
		case $b in "$home"*.c|"$list") continue ;; esac
		strip "$f" | grep -E "($pat)([^A-Za-z0-9_]|\$)" >>"$TMP/hits"
	done
	if [ -s "$TMP/hits" ]; then
		not_ok "a particular $prefix outside $home*.c:
$(cat "$TMP/hits")"
	else
		ok "no ${prefix}_NAME of $list outside $home*.c ($(echo $names))"
	fi
}

axis ARCH arch_list.h arch_ ""
axis WINDOW window_list.h window_ ""
axis SELECTION selection_list.h selection_ ""
axis SCORER scorer_list.h score_ \
	"$(sed -n 's/^SCORER(\([A-Za-z0-9_]*\))$/\1/p' "$dir/scorer_list.h" |
	   head -n 1)"
finish
