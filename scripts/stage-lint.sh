#!/usr/bin/env bash
# Static checks that must stay clean: cppcheck (warning, portability, performance) over src/.
set -u
cd "$(dirname "$0")/.."
source tests/lib.sh
out=$(cppcheck --quiet --enable=warning,portability,performance --inline-suppr \
	--suppress=missingIncludeSystem --error-exitcode=1 -D__linux__ -Iinclude src 2>&1)
check "cppcheck clean over src/" test -z "$out"
[ -n "$out" ] && echo "$out" | head -30
lr_summary
