#!/usr/bin/env bash
# What CI runs (the README's test command): warnings-as-errors builds with gcc and clang, the
# whole suite, the suite again under ASan+UBSan, the threaded unit tests and the app's threads
# (peer view, server dashboard, demo, matrix scripts) under TSan, valgrind,
# bounded fuzzing and the layering check. Each stage is counted by scripts/count.sh: its own
# "N passed, N failed, N skipped" line when it prints one, else its PASS/FAIL/SKIP lines, else one
# pass or one failure by its exit status (a build). A stage that only printed SKIP lines is that
# many skips, never a pass; a stage that fails fails the run. The skipped checks are listed by
# name in one block before the closing line; in CI (CI=true) each of them is a failure
# ("FAIL (skipped in CI) where: name: why"), counted in the closing line's failed.
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
	# nested skip blocks (in CI: their skips listed as failures): listed once, at the end
	"$@" 2>&1 | tee "$log" | grep -vE '^(SKIPPED |FAIL \(skipped in CI\) |skipped (in CI, each a failure )?\([0-9]+\):$)'
	rc=${PIPESTATUS[0]}
	lr_count "$name" "$log" "$rc"
	[ "$rc" -ne 0 ] && stage_fail+=("$name")
	echo "=== $name: exit $rc in $((SECONDS - t0)) s: $_LR_LAST"
	rm -f "$log"
}

if [ -z "${LR_TEST_ALL_SOURCED:-}" ]; then	# tests/selftest/counting.sh sources this for stage()
	stage "gcc -Werror build" make -j"$JOBS" CC=gcc WERROR=1 all
	# clang -Werror over the library, the binary and every unit binary, built with TSan's flags
	# into build-tsan/ (clang's warnings come from its front end, not the optimizer or the
	# sanitizer), so stage-tsan builds nothing again (`make clang` is the -O2 build)
	stage "clang -Werror build (TSan flags, build-tsan/)" make -j"$JOBS" WERROR=1 tsan T=bins
	stage "layers" make check-layers
	# Every check runs once, the binaries that drive our C most under the strictest build (the
	# 30-minute budget on 2 cores cannot hold the whole suite twice): the gcc -O2 build runs
	# the selftests (shell, not our C) and the interop scripts (against Debian's iperf3, at full
	# speed) and builds the unit binaries (stage-mutate's build/) without running them; ASan+UBSan
	# runs the unit tests and every script that drives the binary in namespaces or tmux. The -O2 binary is also what valgrind, the soak and the
	# bench run. `make test` alone runs everything with gcc.
	# iperf3 3.18 and 3.22 from Debian's trixie and sid, for the interop scripts (docs/design.md §9)
	stage "upstream iperf3" sh scripts/upstream-iperf3.sh
	stage "suite (gcc): selftest, interop" \
		env LR_SCRIPT_DIRS="tests/selftest tests/interop" make -j"$JOBS" CC=gcc UNIT= test
	stage "suite (ASan+UBSan): unit, integration, tui" \
		env LR_SCRIPT_DIRS="tests/integration tests/tui" make -j"$JOBS" asan T=test
	for s in scripts/stage-*.sh; do
		[ -f "$s" ] && stage "$(basename "$s" .sh)" bash "$s"
	done

	[ ${#stage_fail[@]} -gt 0 ] && echo "failed stages: ${stage_fail[*]}"
	lr_count_report && [ ${#stage_fail[@]} -eq 0 ]
fi
