#!/usr/bin/env bash
# Runs the cmocka unit binaries given as arguments, then (unless --unit) every script under
# tests/selftest, tests/integration, tests/tui and tests/interop (LR_SCRIPT_DIRS overrides the
# list, LR_SCRIPTS names the scripts themselves), and ends with the skipped checks by name in one
# block and a plain "N passed, N failed[, N skipped]" line. Scripts report with lines "PASS name",
# "FAIL name: why", "SKIP name: why" (tests/lib.sh). The counting rules are in scripts/count.sh (in
# CI, CI=true, every skip is a failure, listed by name, and the run exits non-zero): a cmocka skip
# is a skip, a script that exits non-zero without a FAIL line is one failure, a binary that prints
# no cmocka summary failed. With LR_SAN_LOGS set (the directory the sanitizer's log_path writes
# into: TSan reports and goes on, and the process may be one the script kills), a report file a
# script left there fails that script (shown, then removed).
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
	dirs=${LR_SCRIPT_DIRS:-tests/selftest tests/integration tests/tui tests/interop}
	for script in ${LR_SCRIPTS:-$(for d in $dirs; do ls "$d"/*.sh 2>/dev/null; done)}; do
		[ -f "$script" ] || continue
		t0=$SECONDS
		timeout --kill-after=10 600 bash "$script" >"$log" 2>&1
		rc=$?
		[ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$log" && echo "FAIL $script: exited $rc" >>"$log"
		for f in ${LR_SAN_LOGS:+"$LR_SAN_LOGS"/*}; do
			[ -f "$f" ] || continue
			what=$(grep -m1 -E 'WARNING|ERROR' "$f" || echo 'a sanitizer report')
			echo "FAIL $script: $what (${f##*/})" >>"$log"
			sed 's/^/    # /' "$f" | head -n 60
			rm -f "$f"
			rc=1	# counted even when the script's own closing line says 0 failed
		done
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
