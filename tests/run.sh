#!/usr/bin/env bash
# Runs the cmocka unit binaries given as arguments, then (unless --unit) every script under
# tests/selftest, tests/integration, tests/tui and tests/interop, and ends with a plain "N passed, N failed" line.
# Scripts report with lines "PASS name", "FAIL name: why", "SKIP name: why" (tests/lib.sh);
# a script that exits non-zero without a FAIL line counts as one failure.
set -u
cd "$(dirname "$0")/.."
unit_only=0
if [ "${1:-}" = "--unit" ]; then unit_only=1; shift; fi
passed=0 failed=0 skipped=0
failures=()

for bin in "$@"; do
	out=$("$bin" 2>&1); rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
	p=${p:-0} f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p)) failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		failures+=("$(basename "$bin")")
		printf '%s\n' "$out" | grep -E '^\[  (FAILED|ERROR)|error:|Error|Assertion|Sanitizer' | head -20
	fi
	printf 'unit %-28s %3d passed, %d failed\n' "$(basename "$bin")" "$p" "$f"
done

if [ "$unit_only" -eq 0 ]; then
	for script in tests/selftest/*.sh tests/integration/*.sh tests/tui/*.sh tests/interop/*.sh; do
		[ -f "$script" ] || continue
		log=$(mktemp)
		timeout --kill-after=10 600 bash "$script" >"$log" 2>&1; rc=$?
		p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1; echo "FAIL $script: exited $rc" >>"$log"
		fi
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		grep -E '^(FAIL|SKIP) ' "$log" | sed "s|^|  $(basename "$script"): |"
		[ "$f" -ne 0 ] && { failures+=("$script"); tail -n 30 "$log" | sed 's/^/    | /'; }
		printf 'script %-32s %3d passed, %d failed, %d skipped\n' "$script" "$p" "$f" "$s"
		rm -f "$log"
	done
fi

[ ${#failures[@]} -gt 0 ] && echo "failures in: ${failures[*]}"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
