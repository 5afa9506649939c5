#!/usr/bin/env bash
# clang-tidy over src/ with the checks chosen in .clang-tidy (warnings are errors), two
# processes at a time, the largest files first so that no long file is left running alone at the
# end. About 120 s on two cores (CI, 2026-12). Prints the findings, PASS/FAIL and "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
source tests/lib.sh
LR_FAILED=0
tidy=${CLANG_TIDY:-clang-tidy}
command -v "$tidy" >/dev/null || { fail "clang-tidy" "$tidy not installed (scripts/deps.sh)"; lr_summary; exit 1; }
flags="-std=c11 -D_GNU_SOURCE -Iinclude"	# LR_THEMEDIR, LR_VERSION have defaults
flags="$flags $(pkg-config --cflags libnl-3.0 libnl-route-3.0 libnl-genl-3.0 jansson ncursesw)"
out=$(mktemp); [ -n "${LR_KEEP:-}" ] && echo "output in $out" || lr_cleanup_add "rm -f $out"
export LR_TIDY_FLAGS=$flags
# shellcheck disable=SC2016
ls -S src/*/*.c | xargs -P "$(nproc 2>/dev/null || echo 2)" -n 4 \
	bash -c '"$0" --quiet "$@" -- $LR_TIDY_FLAGS' "$tidy" >"$out" 2>&1
rc=${PIPESTATUS[1]}
n=$(grep -cE '(warning|error): ' "$out")
check "clang-tidy clean over src/ ($n findings, exit $rc, checks in .clang-tidy)" \
	test "$n" -eq 0 -a "$rc" -eq 0
[ "$n" -ne 0 ] || [ "$rc" -ne 0 ] && grep -E -A3 '(warning|error): ' "$out" | head -60
lr_summary
