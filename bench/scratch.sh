# SPDX-License-Identifier: MIT
# Sourced by the single-purpose benches that need one network namespace: bench_scratch TAG
# makes WORK (a directory) and NS (a namespace name, not yet created) of their own and an empty
# PIDS; on exit every PID in PIDS is ended and waited for, NS deleted and WORK removed.
bench_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	ip netns del "$NS" 2>/dev/null
	rm -rf "$WORK"
}
bench_scratch() {
	WORK=$(mktemp -d "/tmp/lr$1.XXXXXX")
	NS=lr$1$$
	PIDS=()
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM HUP
}
