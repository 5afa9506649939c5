#!/usr/bin/env bash
# What CI runs (the README's test command): warnings-as-errors builds with gcc and clang, the
# whole suite, the suite again under ASan+UBSan, the threaded tests under TSan, valgrind,
# bounded fuzzing and the layering check. Each stage's "N passed, N failed" is added up into
# the closing line.
set -u
cd "$(dirname "$0")/.."
JOBS=$(nproc 2>/dev/null || echo 2)
total_p=0 total_f=0 total_s=0
stage_fail=()

stage() {	# stage NAME CMD...: runs CMD, adds its "N passed, N failed" line if it prints one
	local name=$1; shift
	local log; log=$(mktemp)
	local t0=$SECONDS
	echo "=== $name"
	"$@" 2>&1 | tee "$log"
	local rc=${PIPESTATUS[0]}
	local line; line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	if [ -n "$line" ]; then
		local p f s
		p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
		s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
		total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + ${s:-0}))
		[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && total_f=$((total_f + 1))
	else
		if [ "$rc" -eq 0 ]; then total_p=$((total_p + 1)); else total_f=$((total_f + 1)); fi
	fi
	[ "$rc" -ne 0 ] && stage_fail+=("$name")
	echo "=== $name: exit $rc in $((SECONDS - t0)) s"
	rm -f "$log"
}

stage "gcc -Werror build" make -j"$JOBS" CC=gcc WERROR=1 all
stage "clang -Werror build" make -j"$JOBS" WERROR=1 clang
stage "layers" make check-layers
stage "suite (gcc)" make -j"$JOBS" CC=gcc test
stage "suite (ASan+UBSan): unit, integration, tui, interop" make -j"$JOBS" asan T=test
for s in scripts/stage-*.sh; do
	[ -f "$s" ] && stage "$(basename "$s" .sh)" bash "$s"
done

[ ${#stage_fail[@]} -gt 0 ] && echo "failed stages: ${stage_fail[*]}"
if [ "$total_s" -gt 0 ]; then
	echo "$total_p passed, $total_f failed, $total_s skipped"
else
	echo "$total_p passed, $total_f failed"
fi
[ "$total_f" -eq 0 ] && [ ${#stage_fail[@]} -eq 0 ]
