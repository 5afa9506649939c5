#!/usr/bin/env bash
# Runs the cmocka unit binaries given as arguments, then (unless --unit) every script under
# tests/selftest, tests/integration, tests/tui and tests/interop (LR_SCRIPT_DIRS overrides the
# list), and ends with the skipped checks by name in one block and a plain
# "N passed, N failed[, N skipped]" line. Scripts report with lines "PASS name", "FAIL name: why",
# "SKIP name: why" (tests/lib.sh). The counting rules are in scripts/count.sh (in CI, CI=true, every
# skip is a failure, listed by name, and the run exits non-zero): a cmocka skip is a
# skip, a script that exits non-zero without a FAIL line is one failure, a binary that prints no
# cmocka summary failed.
set -u
cd "$(dirname "$0")/.."
source scripts/count.sh
unit_only=0
if [ "${1:-}" = "--unit" ]; then unit_only=1; shift; fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for bin in "$@"; do
	"$bin" >"$log" 2>&1
	lr_count "$(basename "$bin")" "$log" $? cmocka
	case $_LR_LAST in
	*" 0 failed,"*) ;;
	*) grep -E '^\[  (FAILED|ERROR)|error:|Error|Assertion|Sanitizer' "$log" | head -20 ;;
	esac
	printf 'unit %-28s %s\n' "$(basename "$bin")" "$_LR_LAST"
done

if [ "$unit_only" -eq 0 ]; then
	for script in $(for d in ${LR_SCRIPT_DIRS:-tests/selftest tests/integration tests/tui tests/interop}; do
		ls "$d"/*.sh 2>/dev/null; done); do
		[ -f "$script" ] || continue
		t0=$SECONDS
		timeout --kill-after=10 600 bash "$script" >"$log" 2>&1
		rc=$?
		[ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$log" && echo "FAIL $script: exited $rc" >>"$log"
		lr_count "$(basename "$script")" "$log" "$rc"
		grep -E '^FAIL ' "$log" | sed "s|^|  $(basename "$script"): |"
		case $_LR_LAST in
		*" 0 failed,"*) ;;
		*) tail -n 30 "$log" | sed 's/^/    | /' ;;
		esac
		printf 'script %-32s %s (%d s)\n' "$script" "$_LR_LAST" $((SECONDS - t0))
	done
fi

lr_count_report
