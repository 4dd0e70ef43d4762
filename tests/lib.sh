# lib.sh: shared helpers for the shell tests; source it, then call finish.
# Each check prints "ok - WHAT" or "not ok - WHAT" and the script ends with
# "N passed, N failed" and a failing exit status if anything failed.

: "${srcdir:=.}"
: "${ATTN_TRACE:=src/attn-trace}"
pass=0
fail=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/attn-test.XXXXXX") || exit 99
trap 'rm -rf "$TMP"' EXIT

ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; }

# find_chromium: prints the Chromium to drive, $CHROMIUM or the first of
# chromium, chromium-browser, google-chrome, google-chrome-stable on the
# PATH; prints nothing when there is none
find_chromium() {
	if [ -n "${CHROMIUM:-}" ]; then
		echo "$CHROMIUM"
		return
	fi
	for b in chromium chromium-browser google-chrome google-chrome-stable; do
		if command -v "$b" >/dev/null 2>&1; then
			echo "$b"
			return
		fi
	done
}

# check WHAT COMMAND...: passes when the command succeeds
check() {
	what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# run_cmd ARGS...: runs attn-trace, leaving $TMP/out, $TMP/err and $status
run_cmd() {
	"$ATTN_TRACE" "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
}

# expect_status N WHAT: the last run_cmd exited with N
expect_status() {
	if [ "$status" -eq "$1" ]; then
		ok "$2 (exit $1)"
	else
		not_ok "$2: expected exit $1, got $status; stderr: $(cat "$TMP/err")"
	fi
}

# expect_err FRAGMENT WHAT: the last run_cmd's stderr holds FRAGMENT
expect_err() {
	if grep -qF -- "$1" "$TMP/err"; then
		ok "$2"
	else
		not_ok "$2: stderr lacks '$1': $(cat "$TMP/err")"
	fi
}

# torch_python_find: sets torch_python to the first Python that can import
# torch (TORCH_PYTHON, /usr/bin/python3, then $PYTHON3), or to "" if none
torch_python_find() {
	torch_python=
	for py in "${TORCH_PYTHON:-}" /usr/bin/python3 "${PYTHON3:-}"; do
		[ -n "$py" ] && [ "$py" != no ] || continue
		if "$py" -c 'import torch' >/dev/null 2>&1; then
			torch_python=$py
			return 0
		fi
	done
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
