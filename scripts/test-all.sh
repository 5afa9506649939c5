#!/usr/bin/env bash
# What CI runs (the README's test command): warnings-as-errors builds with gcc and clang, the
# whole suite, the suite again under ASan+UBSan, the threaded tests under TSan, valgrind,
# bounded fuzzing and the layering check. Each stage is counted by scripts/count.sh: its own
# "N passed, N failed, N skipped" line when it prints one, else its PASS/FAIL/SKIP lines, else one
# pass or one failure by its exit status (a build). A stage that only printed SKIP lines is that
# many skips, never a pass; a stage that fails fails the run. The skipped checks are listed by
# name in one block before the closing line.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/count.sh
JOBS=$(nproc 2>/dev/null || echo 2)
stage_fail=()

stage() {	# stage NAME CMD...: runs CMD and counts what it printed
	local name=$1; shift
	local log; log=$(mktemp)
	local t0=$SECONDS rc
	echo "=== $name"
	"$@" 2>&1 | tee "$log" | grep -vE '^(SKIPPED |skipped \([0-9]+\):$)'	# nested skip blocks: listed once, at the end
	rc=${PIPESTATUS[0]}
	lr_count "$name" "$log" "$rc"
	[ "$rc" -ne 0 ] && stage_fail+=("$name")
	echo "=== $name: exit $rc in $((SECONDS - t0)) s: $_LR_LAST"
	rm -f "$log"
}

if [ -z "${LR_TEST_ALL_SOURCED:-}" ]; then	# tests/selftest/counting.sh sources this for stage()
	stage "gcc -Werror build" make -j"$JOBS" CC=gcc WERROR=1 all
	stage "clang -Werror build" make -j"$JOBS" WERROR=1 clang
	stage "layers" make check-layers
	stage "suite (gcc)" make -j"$JOBS" CC=gcc test
	# Under the sanitizers: the unit tests and every script that runs our binaries in namespaces
	# or tmux. Left out: the selftests (they check shell scripts, not our C) and the interop
	# scripts (the same engine paths against Debian's iperf3, ~2 min; the integration scripts
	# drive those paths under ASan already). Both run in the gcc suite above.
	stage "suite (ASan+UBSan): unit, integration, tui" \
		env LR_SCRIPT_DIRS="tests/integration tests/tui" make -j"$JOBS" asan T=test
	for s in scripts/stage-*.sh; do
		[ -f "$s" ] && stage "$(basename "$s" .sh)" bash "$s"
	done

	[ ${#stage_fail[@]} -gt 0 ] && echo "failed stages: ${stage_fail[*]}"
	lr_count_report && [ ${#stage_fail[@]} -eq 0 ]
fi
