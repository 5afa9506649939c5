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

stage_out() {	# stage_out NAME LOG RC SECS [NOTE]: counts what one stage printed, and its line
	lr_count "$1" "$2" "$3"
	[ "$3" -ne 0 ] && stage_fail+=("$1")
	echo "=== $1: exit $3 in $4 s${5:+ ($5)}: $_LR_LAST"
	rm -f "$2"
}
# nested skip blocks (in CI: their skips listed as failures): listed once, at the end
stage_filter() { grep -vE '^(SKIPPED |FAIL \(skipped in CI\) |skipped (in CI, each a failure )?\([0-9]+\):$)'; }

stage() {	# stage NAME CMD...: runs CMD and counts what it printed
	local name=$1; shift
	local log; log=$(mktemp)
	local t0=$SECONDS rc
	echo "=== $name"
	"$@" 2>&1 | tee "$log" | stage_filter
	rc=${PIPESTATUS[0]}
	stage_out "$name" "$log" "$rc" $((SECONDS - t0))
}

# Work-bound CPU-only stages (builds, the layer check, cppcheck, clang-tidy, the fuzz targets'
# build: no network, no clock) run in the background under SCHED_IDLE while the suites run:
# the suites wait on traffic and terminals (7-27 % of two CPUs measured per script), and an
# idle-class process gets a CPU only when nothing else wants it. Their output is kept and
# counted after the suites; nothing runs beside the fuzz runs, the soak, TSan or valgrind.
declare -A bg_log=()
idle() { if chrt -i 0 true 2>/dev/null; then chrt -i 0 "$@"; else nice -n 19 "$@"; fi; }
bg_start() {	# bg_start NAME CMD...: CMD in the background; its output, status and seconds kept
	local name=$1 log; shift
	log=$(mktemp)
	bg_log[$name]=$log
	( t0=$SECONDS; idle "$@" >"$log" 2>&1; echo "$? $((SECONDS - t0))" >"$log.rc" ) &
}
bg_stage() {	# bg_stage NAME: waits for bg_start NAME's job, then shows and counts it like stage
	local name=$1 log=${bg_log[$1]} rc secs
	while [ ! -s "$log.rc" ]; do wait -n 2>/dev/null || sleep 0.2; done
	read -r rc secs <"$log.rc"
	rm -f "$log.rc"
	echo "=== $name"
	stage_filter <"$log"
	stage_out "$name" "$log" "$rc" "$secs" "in the background, idle class"
}

if [ -z "${LR_TEST_ALL_SOURCED:-}" ]; then	# tests/selftest/counting.sh sources this for stage()
	stage "gcc -Werror build" make -j"$JOBS" CC=gcc WERROR=1 all
	# clang -Werror over the library, the binary and every unit binary, built with TSan's flags
	# into build-tsan/ (clang's warnings come from its front end, not the optimizer or the
	# sanitizer), so stage-tsan builds nothing again (`make clang` is the -O2 build)
	bg_start "clang -Werror build (TSan flags, build-tsan/)" make -j"$JOBS" WERROR=1 tsan T=bins
	# (`make check-layers` runs this script; make itself would read build/*.d mid-write)
	bg_start "layers" bash scripts/check-layers.sh
	bg_start stage-lint bash scripts/stage-lint.sh
	bg_start stage-tidy bash scripts/stage-tidy.sh
	# the fuzz library and targets (not counted here: stage-fuzz rebuilds what failed, and says so)
	( idle env FUZZ_BUILD_ONLY=1 bash scripts/fuzz.sh >/dev/null 2>&1 ) &
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
	bg_stage "clang -Werror build (TSan flags, build-tsan/)"
	bg_stage "layers"
	t0=$SECONDS
	wait	# every background job, before the fuzz runs, the soak, TSan and valgrind
	echo "=== background stages done, $((SECONDS - t0)) s after the suites"
	for s in scripts/stage-*.sh; do
		[ -f "$s" ] || continue
		n=$(basename "$s" .sh)
		if [ -n "${bg_log[$n]:-}" ]; then bg_stage "$n"; else stage "$n" bash "$s"; fi
	done

	[ ${#stage_fail[@]} -gt 0 ] && echo "failed stages: ${stage_fail[*]}"
	lr_count_report && [ ${#stage_fail[@]} -eq 0 ]
fi
