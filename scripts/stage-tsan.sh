#!/usr/bin/env bash
# The threaded unit tests (sampler thread, board, traffic stream threads, client/server
# sessions) under ThreadSanitizer, built with clang into build-tsan/.
set -u
cd "$(dirname "$0")/.."
JOBS=$(nproc 2>/dev/null || echo 2)
make -s -j"$JOBS" B=build-tsan CC=clang WERROR=1 CFLAGS='-O1 -g -fsanitize=thread' \
	LDFLAGS='-fsanitize=thread' build-tsan/liblinerate.a || { echo "0 passed, 1 failed"; exit 1; }
bins=()
for t in sampler stream traffic client server proto board; do
	[ -f "tests/unit/test_$t.c" ] || continue
	make -s B=build-tsan CC=clang WERROR=1 CFLAGS='-O1 -g -fsanitize=thread' \
		LDFLAGS='-fsanitize=thread' "build-tsan/tests/test_$t" && bins+=("build-tsan/tests/test_$t")
done
LR_RATE_TOLERANCE=0.3 TSAN_OPTIONS='halt_on_error=1 second_deadlock_stack=1' LR_BUILD=build-tsan tests/run.sh --unit "${bins[@]}"
