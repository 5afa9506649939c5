# SPDX-License-Identifier: MIT
# Sourced by the single-purpose benches that need one network namespace: bench_scratch TAG
# makes WORK (a directory) and NS (a namespace name, not yet created) of their own and an empty
# PIDS; on exit every PID in PIDS is ended and waited for, NS (and bench_pair's NS2) deleted
# and WORK removed.
bench_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	ip netns del "$NS" 2>/dev/null
	[ -n "${NS2:-}" ] && ip netns del "$NS2" 2>/dev/null
	rm -rf "$WORK"
}
bench_scratch() {
	WORK=$(mktemp -d "/tmp/lr$1.XXXXXX")
	NS=lr$1$$
	PIDS=()
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM HUP
}
# bench_pair TAG NET: bench_scratch TAG, then NS and NS2 joined by a veth, IF in NS (NET.1/24) and
# IF2 in NS2 (NET.2/24), both up; ADDR2 is NS2's address. Non-zero when the kernel refuses.
bench_pair() {
	bench_scratch "$1"
	NS2=${NS}b IF=${NS}x IF2=${NS}y ADDR2=$2.2
	ip netns add "$NS" && ip netns add "$NS2" &&
		ip link add "$IF" netns "$NS" type veth peer name "$IF2" netns "$NS2" &&
		ip -n "$NS" addr add "$2.1/24" dev "$IF" && ip -n "$NS2" addr add "$ADDR2/24" dev "$IF2" &&
		ip -n "$NS" link set lo up && ip -n "$NS2" link set lo up &&
		ip -n "$NS" link set "$IF" up && ip -n "$NS2" link set "$IF2" up
}
# wait_listen NS PORT: waits up to 5 s for a TCP listener on PORT in NS; non-zero if none came.
wait_listen() {
	local i
	for ((i = 0; i < 100; i++)); do
		ip netns exec "$1" ss -Hltn "sport = :$2" 2>/dev/null | grep -q . && return 0
		sleep 0.05
	done
	return 1
}
