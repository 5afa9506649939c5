#!/usr/bin/env bash
# ThreadSanitizer, built with clang into build-tsan/: the threaded unit tests (sampler thread and
# board, traffic stream threads, client/server sessions in test_traffic and test_proto), then the
# scripts that drive the app layer's threads through the binary (peer view frames both ways and
# hostile peers: peer_client.c, peer_server.c; the server dashboard's watch: mode_server.c,
# server_watch.c; --demo's in-process server: demo.c; a matrix grid with skip and stop:
# matrix_run.c, session.c). A listed test or script that is missing or does not build is a
# failure by name (never dropped from the list). The scripts run with TSAN_OPTIONS' log_path: TSan
# reports and goes on, and a server the script kills exits however it exits, so tests/run.sh
# (LR_SAN_LOGS) fails a script for every report file it left. LR_TSAN_TESTS and LR_TSAN_SCRIPTS
# override the lists. In test-all the clang -Werror stage has built build-tsan/ already (make tsan
# T=bins): the builds here only check that it is current.
set -u
cd "$(dirname "$0")/.."
source scripts/count.sh
JOBS=$(nproc 2>/dev/null || echo 2)
tsan() { make -s B=build-tsan CC=clang WERROR=1 CFLAGS='-O1 -g -fsanitize=thread' \
	LDFLAGS='-fsanitize=thread' "$@"; }
log=$(mktemp) reports=$(mktemp -d)	# reports: TSan's log_path for the scripts
trap 'rm -rf "$log" "$reports"' EXIT
tsan -j"$JOBS" build-tsan/liblinerate.a >"$log" 2>&1 || { cat "$log"; echo "FAIL tsan build of liblinerate.a"; echo "0 passed, 1 failed"; exit 1; }
have_bin=1
if ! tsan -j"$JOBS" build-tsan/linerate >"$log" 2>&1; then	# the scripts' binary
	have_bin=0
	tail -n 15 "$log"
	echo "FAIL tsan build of linerate" >"$log"
	lr_count "tsan build linerate" "$log" 1
	cat "$log"
fi
bins=()
for t in ${LR_TSAN_TESTS:-sampler stream traffic proto server_watch gencol probe}; do	# every threaded unit test (a missing one fails)
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
scripts=()
for s in ${LR_TSAN_SCRIPTS:-tests/integration/peer_view.sh tests/tui/server_dashboard.sh \
	tests/tui/demo_udp_lost.sh tests/tui/matrix.sh}; do	# a missing one fails
	[ -f "$s" ] && scripts+=("$s") && continue
	echo "FAIL tsan $s: missing" >"$log"; lr_count "tsan $s" "$log" 1; cat "$log"
done
if [ ${#scripts[@]} -gt 0 ] && [ "$have_bin" -eq 1 ]; then
	# peer_view.sh's threads subset: its runs without a peer thread are the ASan stage's
	TSAN_OPTIONS="log_path=$reports/tsan second_deadlock_stack=1" LR_SAN_LOGS=$reports \
		LR_PEER_VIEW_SUBSET=threads LR_BUILD=build-tsan LR_SCRIPTS="${scripts[*]}" tests/run.sh >"$log" 2>&1
	rc=$?
	grep -vE '^(SKIPPED |skipped \([0-9]+\):$|[0-9]+ passed, )' "$log"
	lr_count "tsan scripts" "$log" "$rc"
fi
lr_count_report
