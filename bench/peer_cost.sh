#!/bin/bash
# SPDX-License-Identifier: MIT
# What the peer view (issue 12) costs each end: the same fixed-rate test run with the peer view
# on and off (`--no-peer-stats` on the client: it does not ask, the server then samples
# nothing), REPS times each in alternating order, through a veth between two network
# namespaces. Client: CPU time of the whole process (bench/rusage.c); server: a persistent
# `linerate -s`, its utime+stime (/proc/PID/stat, dead threads included) read around each test.
# The difference on - off of each pair is reported as % of one core over the test's length,
# mean and spread (min..max, sample standard deviation). Aim (issue 12): < 1 % of a core per end.
# Writes its section of bench/RESULTS.md (<!-- section:SECTION:begin/end -->, SECTION=peer) unless
# BENCH_RESULTS=-. Knobs: REPS=5 SECS=10 INTERVALS="0.5 0.1" RATE=50M SECTION LR_BIN. Never run
# by tests. A low RATE (1M) leaves less of the traffic's own run-to-run noise in the difference.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
REPS=${REPS:-5} SECS=${SECS:-10} INTERVALS=${INTERVALS:-"0.5 0.1"} RATE=${RATE:-50M}
LR=${LR_BIN:-$TOP/build/linerate}
say() { echo "peer_cost: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (network namespaces)"; exit 1; }
[ -x "$LR" ] || { say "no $LR (make)"; exit 1; }
WORK=$(mktemp -d /tmp/lrpeercost.XXXXXX)
A=lrpcA$$ B=lrpcB$$ IA=lrpca$$ IB=lrpcb$$
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	ip netns del "$A" 2>/dev/null; ip netns del "$B" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
cc -O2 -Wall -Wextra -o "$WORK/rusage" "$TOP/bench/rusage.c" || exit 1
ip netns add "$A" && ip netns add "$B" || exit 1
ip link add "$IA" netns "$A" type veth peer name "$IB" netns "$B"
ip -n "$A" addr add 10.207.0.1/24 dev "$IA"; ip -n "$B" addr add 10.207.0.2/24 dev "$IB"
for ns in "$A" "$B"; do ip -n "$ns" link set lo up; done
ip -n "$A" link set "$IA" up; ip -n "$B" link set "$IB" up
clk=$(getconf CLK_TCK)
ip netns exec "$B" "$LR" -s -p 5310 >"$WORK/server.log" 2>&1 &
srv=$!; PIDS+=("$srv")
sleep 0.5
srv_cpu() { awk -v hz="$clk" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$srv/stat"; }

# run IV MODE -> "client_cpu_s server_cpu_s"
run() {
	local iv=$1 mode=$2 s0 s1 extra=""
	[ "$mode" = off ] && extra=--no-peer-stats
	s0=$(srv_cpu)
	ip netns exec "$A" "$WORK/rusage" "$WORK/ru" "$LR" --headless -c 10.207.0.2 -p 5310 -u -b "$RATE" \
		-t "$SECS" -i "$iv" --csv "$WORK/c.csv" $extra >/dev/null 2>"$WORK/client.err" ||
		say "client ($iv $mode) failed: $(head -1 "$WORK/client.err")"
	sleep 0.3	# the server's test and its sampler have ended
	s1=$(srv_cpu)
	awk -v s0="$s0" -v s1="$s1" '{ printf "%.3f %.3f\n", ($1 + $2) / 1e6, s1 - s0 }' "$WORK/ru"
}

rows=""
raw=""
c_on="" c_off="" s_on="" s_off=""
for iv in $INTERVALS; do
	: >"$WORK/pairs"
	for r in $(seq "$REPS"); do
		if [ $((r % 2)) = 1 ]; then order="on off"; else order="off on"; fi
		for m in $order; do
			read -r c s < <(run "$iv" "$m")
			if [ "$m" = on ]; then c_on=$c s_on=$s; else c_off=$c s_off=$s; fi
			# the side column by its name: the CSV has grown columns after it
			peer_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "side") k = i; next }
				k && $k == "peer"' "$WORK/c.csv" | wc -l)
			raw+="| $iv | $r | $m | $c | $s | $peer_rows |"$'\n'
			say "-i $iv rep $r $m: client ${c} s, server ${s} s CPU, $peer_rows peer rows"
		done
		echo "$c_on $c_off $s_on $s_off" >>"$WORK/pairs"
	done
	rows+=$(awk -v secs="$SECS" -v iv="$iv" '
		{ dc[NR] = ($1 - $2) / secs * 100; ds[NR] = ($3 - $4) / secs * 100
		  con += $1; coff += $2; son += $3; soff += $4 }
		function stats(d, n,   i, m, v, lo, hi) {
			for (i = 1; i <= n; i++) { m += d[i]; if (i == 1 || d[i] < lo) lo = d[i]; if (i == 1 || d[i] > hi) hi = d[i] }
			m /= n; for (i = 1; i <= n; i++) v += (d[i] - m) ^ 2; v = n > 1 ? sqrt(v / (n - 1)) : 0
			return sprintf("%+.2f (%+.2f..%+.2f, sd %.2f)", m, lo, hi, v) }
		END { n = NR
			printf "| %s | %d | %.2f / %.2f | %s | %.2f / %.2f | %s |\n", iv, n,
				con / n / secs * 100, coff / n / secs * 100, stats(dc, n),
				son / n / secs * 100, soff / n / secs * 100, stats(ds, n) }' "$WORK/pairs")$'\n'
done

section=$(cat <<MD
### Peer view cost (issue 12): each end, on vs off, at -b $RATE (bench/peer_cost.sh)

$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) vCPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end (other work on the
machine shows here); $($LR -v 2>&1 | head -1). Per pair: the same ${SECS} s UDP test at -b $RATE through a veth between
two namespaces, \`linerate --headless -c 10.207.0.2 -u -b $RATE -t $SECS -i IV --csv FILE\` with the peer view on and
with \`--no-peer-stats\` (the server, \`linerate -s\`, then samples nothing), in alternating order; $REPS pairs per
interval. CPU as % of one core over the ${SECS} s: client = the whole process (bench/rusage.c), server = the
persistent server's utime+stime around each test. Difference = on - off per pair: mean (min..max, sd). Aim: < 1 %.

| -i | pairs | client on / off % | client difference, % of a core | server on / off % | server difference, % of a core |
|---:|---:|---:|---|---:|---|
${rows%$'\n'}

<details><summary>every run</summary>

| -i | pair | peer view | client CPU s | server CPU s | peer rows in the client's CSV |
|---:|---:|---|---:|---:|---:|
${raw%$'\n'}

</details>
MD
)
echo "$section"
if [ "$OUT" != - ]; then
	python3 "$TOP/bench/results_section.py" "$OUT" "${SECTION:-peer}" "$section"
	say "wrote its section of $OUT"
fi
