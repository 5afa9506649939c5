#!/usr/bin/env bash
# The threaded unit tests (sampler thread and board, traffic stream threads, client/server
# sessions in test_traffic and test_proto) under ThreadSanitizer, built with clang into
# build-tsan/. A listed test that is missing or does not build is a failure by name (never
# dropped from the list); the rest run through tests/run.sh. LR_TSAN_TESTS overrides the list.
set -u
cd "$(dirname "$0")/.."
source scripts/count.sh
JOBS=$(nproc 2>/dev/null || echo 2)
tsan() { make -s B=build-tsan CC=clang WERROR=1 CFLAGS='-O1 -g -fsanitize=thread' \
	LDFLAGS='-fsanitize=thread' "$@"; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
tsan -j"$JOBS" build-tsan/liblinerate.a >"$log" 2>&1 || { cat "$log"; echo "FAIL tsan build of liblinerate.a"; echo "0 passed, 1 failed"; exit 1; }
bins=()
for t in ${LR_TSAN_TESTS:-sampler stream traffic proto server_watch gencol}; do	# every threaded unit test (a missing one fails)
	[ -f "tests/unit/test_$t.c" ] || { echo "FAIL tsan test_$t: tests/unit/test_$t.c is missing" >"$log"; lr_count "tsan build test_$t" "$log" 1; cat "$log"; continue; }
	if tsan "build-tsan/tests/test_$t" >"$log" 2>&1; then
		bins+=("build-tsan/tests/test_$t")
	else
		echo "FAIL tsan build test_$t: does not build" >>"$log"
		tail -n 15 "$log"
		lr_count "tsan build test_$t" "$log" 1
	fi
done
if [ ${#bins[@]} -gt 0 ]; then
	LR_RATE_TOLERANCE=0.3 TSAN_OPTIONS='halt_on_error=1 second_deadlock_stack=1' LR_BUILD=build-tsan \
		tests/run.sh --unit "${bins[@]}" >"$log" 2>&1
	rc=$?
	grep -vE '^(SKIPPED |skipped \([0-9]+\):$|[0-9]+ passed, )' "$log"
	lr_count "tsan unit" "$log" "$rc"
fi
lr_count_report
