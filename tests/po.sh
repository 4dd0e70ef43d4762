#!/bin/sh
# po.sh: the message catalogues are complete and current (po/,
# doc/translating.md).  Every language of po/LINGUAS passes msgfmt --check
# with no untranslated or fuzzy message; po/attn-trace.pot holds exactly
# the messages that xgettext finds in the sources today (with po/Makevars'
# options); po/POTFILES.in lists exactly the files that hold them; and each
# catalogue translates every message of the .pot and no other.  Skipped
# without gettext's tools.
. "$srcdir/tests/lib.sh"

for tool in msgfmt xgettext msgcmp; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "no $tool (Debian: apt-get install gettext)"
		exit 77
	fi
done
po=$top_srcdir/po

# XGETTEXT_OPTIONS from po/Makevars, its continuation lines joined
opts=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$po/Makevars" |
	sed -n 's/^XGETTEXT_OPTIONS *= *//p')
check "po/Makevars sets XGETTEXT_OPTIONS" test -n "$opts"

# the messages of the sources today
grep -v '^#' "$po/POTFILES.in" | grep . >"$TMP/files"
# shellcheck disable=SC2086
(cd "$top_srcdir" && xgettext $opts --add-comments=TRANSLATORS: \
	--files-from="$TMP/files" -o "$TMP/fresh.pot") 2>"$TMP/xerr"
check "xgettext reads the files of po/POTFILES.in" test -s "$TMP/fresh.pot"
if [ -s "$TMP/xerr" ]; then cat "$TMP/xerr"; fi

# po/POTFILES.in: every file of src/ with a message, and no other
# shellcheck disable=SC2086
(cd "$top_srcdir" && xgettext $opts -o "$TMP/all.pot" src/*.c src/*.h)
sed -n 's/^#: //p' "$TMP/all.pot" | tr ' ' '\n' | sed 's/:[0-9]*$//' |
	grep . | sort -u >"$TMP/want"
sort -u "$TMP/files" >"$TMP/have"
if cmp -s "$TMP/want" "$TMP/have"; then
	ok "po/POTFILES.in lists the $(wc -l <"$TMP/want") files with messages"
else
	not_ok "po/POTFILES.in differs from the files with messages (- listed, + missing):"
	diff "$TMP/have" "$TMP/want" | grep '^[<>]' | sed 's/^</-/; s/^>/+/'
fi

# the formats handed to err_set, cli_messagef and cli_error are marked
# at the call (_(), ngettext()), since those functions print what they
# are given: xgettext, taking their format argument as a message, finds
# none that still holds a word (3 letters or more, printf directives
# left out) as a bare string
(cd "$top_srcdir" && xgettext --from-code=UTF-8 -k -kerr_set:2 \
	-kcli_messagef:1 -kcli_error:1 --no-wrap -o "$TMP/bare.pot" src/*.c)
if [ -f "$TMP/bare.pot" ]; then
	awk '/^#: /{at=$0} /^msgid /{m=substr($0, 7); s=1; next}
	     s && /^"/{m=m $0; next} /^msgstr/{if (s) print at " " m; s=0}' \
		"$TMP/bare.pot" |
		sed -E 's/%[-#0-9.*$]*[hljztL]*[a-zA-Z]//g' |
		grep -E '"[^"]*[A-Za-z]{3}' >"$TMP/bare" || :
fi
if [ -s "$TMP/bare" ]; then
	not_ok "messages printed untranslated (mark them with _()):"
	head -20 "$TMP/bare" | sed 's/^/# /'
else
	ok "every format with words given to err_set, cli_messagef and cli_error is marked"
fi

# po/attn-trace.pot: the same messages, both ways
n=$(grep -c '^msgid ' "$TMP/fresh.pot")
s1=0 s2=0
msgcmp --use-untranslated "$po/attn-trace.pot" "$TMP/fresh.pot" \
	2>"$TMP/e1" || s1=$?
msgcmp --use-untranslated "$TMP/fresh.pot" "$po/attn-trace.pot" \
	2>"$TMP/e2" || s2=$?
if [ "$s1" -eq 0 ] && [ "$s2" -eq 0 ]; then
	ok "po/attn-trace.pot is current: $((n - 1)) messages"
else
	not_ok "po/attn-trace.pot is not current (make -C po update-po):"
	cat "$TMP/e1" "$TMP/e2" | head -20
fi

# each language: complete, nothing fuzzy, formats checked, and it
# translates the messages of today
for lang in $(sed 's/#.*//' "$po/LINGUAS"); do
	f=$po/$lang.po
	if ! msgfmt --check --statistics -o "$TMP/$lang.mo" "$f" \
			2>"$TMP/stat"; then
		not_ok "$lang.po: msgfmt --check fails:"
		cat "$TMP/stat"
		continue
	fi
	stat=$(cat "$TMP/stat")
	case $stat in
	*untranslated* | *fuzzy*)
		not_ok "$lang.po: $stat" ;;
	*) ok "$lang.po: $stat" ;;
	esac
	if msgcmp "$f" "$TMP/fresh.pot" 2>"$TMP/e3"; then
		ok "$lang.po translates every message of the sources"
	else
		not_ok "$lang.po lacks messages of the sources (make -C po update-po):"
		head -20 "$TMP/e3"
	fi
	if grep -q '^#~' "$f"; then
		not_ok "$lang.po keeps obsolete messages (#~); drop them"
	else
		ok "$lang.po keeps no obsolete message"
	fi
done
finish
