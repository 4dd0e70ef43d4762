#!/bin/sh
# locale.sh: numbers print with '.' under a locale whose decimal point is a
# comma, and the bytes are the same as in the C locale.
. "$srcdir/tests/lib.sh"

comma=
for l in de_DE.UTF-8 de_DE.utf8 fr_FR.UTF-8 fr_FR.utf8; do
	if locale -a 2>/dev/null | grep -qix "$(echo "$l" | sed 's/UTF-8/utf8/')"; then
		comma=$l
		break
	fi
done
if [ -z "$comma" ]; then
	echo "no locale with a decimal comma is installed;"
	echo "generate one: sed -i 's/^# *de_DE.UTF-8/de_DE.UTF-8/' /etc/locale.gen && locale-gen"
	[ -n "${ATTN_TRACE_SKIP_LOCALE:-}" ] && exit 77
	not_ok "a comma locale is available"
	finish
	exit 1
fi
check "$comma really uses a decimal comma" \
	test "$(LC_ALL=$comma locale -k decimal_point 2>/dev/null)" = 'decimal_point=","'

for args in "trace --scorer=all" "trace --format=json --scorer=all" \
	"model" "model --format=json" "self --causal" "self --format=json" \
	"self --format=svg" \
	"diagram --window=local-p --model=localp4" \
	"image --ascii --values $srcdir/data/images/train/box-y1-x2.pgm" \
	"image -o - $srcdir/data/images/train/box-y1-x2.pgm"; do
	# shellcheck disable=SC2086
	LC_ALL=C "$ATTN_TRACE" $args >"$TMP/c" 2>&1
	# shellcheck disable=SC2086
	LC_ALL=$comma "$ATTN_TRACE" $args >"$TMP/comma" 2>&1
	check "$args: same bytes under $comma" cmp -s "$TMP/c" "$TMP/comma"
	check "$args: no decimal commas" \
		sh -c "! grep -q '[0-9],[0-9][0-9][0-9]' '$TMP/comma'"
done
# the heatmap's p_t marker is written by printf (%.1f): the same bytes
# (its labels hold "α_1,1 = ...", which the comma check would take for one)
LC_ALL=C "$ATTN_TRACE" heatmap --window=local-p --model=localp4 >"$TMP/c" 2>&1
LC_ALL=$comma "$ATTN_TRACE" heatmap --window=local-p --model=localp4 \
	>"$TMP/comma" 2>&1
check "heatmap --window=local-p: same bytes under $comma" \
	cmp -s "$TMP/c" "$TMP/comma"
finish
