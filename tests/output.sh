#!/bin/sh
# output.sh: where -o writes: descriptors and devices in place, regular
# files replaced whole; an output that would overwrite an input; signals
# that leave no temporary file; train -o.
. "$srcdir/tests/lib.sh"

# no_temp WHAT: $TMP holds no temporary file (.NAME.XXXXXX)
no_temp() {
	check "$1" test -z "$(ls -A "$TMP" | grep '^\.')"
}

# --- -o names a descriptor or a device: written in place ---
{ echo H; "$ATTN_TRACE" trace -o /dev/stdout; } >"$TMP/kept"
check "-o /dev/stdout keeps what stdout held" test "$(head -n 1 "$TMP/kept")" = H
check "-o /dev/stdout writes after it" test "$(sed -n 2p "$TMP/kept")" = attn-trace-text/1
{ echo H >&2; "$ATTN_TRACE" trace -o /dev/stderr; } 2>"$TMP/kept2"
check "-o /dev/stderr keeps what stderr held" test "$(head -n 1 "$TMP/kept2")" = H
check "-o /dev/stderr writes after it" test "$(sed -n 2p "$TMP/kept2")" = attn-trace-text/1
if [ -e /proc/self/fd ]; then
	{ echo H >&3; "$ATTN_TRACE" trace -o /proc/self/fd/3; } 3>"$TMP/kept3"
	check "-o /proc/self/fd/3 keeps what it held" test "$(head -n 1 "$TMP/kept3")" = H
	check "-o /proc/self/fd/3 writes after it" test "$(sed -n 2p "$TMP/kept3")" = attn-trace-text/1
	{ echo H >&4; "$ATTN_TRACE" model -o /dev/fd/4; } 4>>"$TMP/kept4"
	check "-o /dev/fd/4 (appending) keeps what it held" test "$(head -n 1 "$TMP/kept4")" = H
	check "-o /dev/fd/4 writes the model after it" grep -q '^embedding 4' "$TMP/kept4"
fi
ln -s /dev/stdout "$TMP/out-link"
{ echo H; "$ATTN_TRACE" trace -o "$TMP/out-link"; } >"$TMP/kept5"
check "a link to /dev/stdout keeps what stdout held" test "$(head -n 1 "$TMP/kept5")" = H
check "the link to /dev/stdout is kept" test -L "$TMP/out-link"
rm -f "$TMP/out-link"
check "-o /dev/stdout into a pipe" test "$("$ATTN_TRACE" trace -o /dev/stdout | head -n 1)" = attn-trace-text/1
if mkfifo "$TMP/fifo" 2>/dev/null; then
	head -n 1 "$TMP/fifo" >"$TMP/from-fifo" &
	"$ATTN_TRACE" trace -o "$TMP/fifo" 2>/dev/null
	wait
	check "-o FIFO writes into the FIFO" test "$(cat "$TMP/from-fifo")" = attn-trace-text/1
	check "-o FIFO keeps the FIFO" test -p "$TMP/fifo"
	rm -f "$TMP/fifo"
fi
run_cmd trace -o /dev/null
expect_status 0 "-o /dev/null"
check "/dev/null is still a device" test -c /dev/null
no_temp "-o to descriptors leaves no temporary file"

finish
