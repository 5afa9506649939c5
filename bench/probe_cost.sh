#!/bin/bash
# SPDX-License-Identifier: MIT
# What the latency probes (issue 34, design.md §16) cost the test they ride beside: the same TCP
# test run with the probes on and with `--no-latency`, REPS pairs in alternating order, through a
# veth between two namespaces, at full speed and through a tbf at 20 Mbit/s (where 100 probes a
# second weigh most). Two figures per case:
# - the share of the test's direction the probes take: the requests (-J's probes sent; the
#   answers travel the other way, beside the ACKs) x their bytes on the wire (64 payload + 8 UDP
#   + 20 IPv4 + 14 Ethernet), as % of the delivered rate;
# - the delivered rate on - off per pair (the receiver's bits/s in -J), mean and spread: this
#   holds the run-to-run noise of the traffic as well, so read it beside the first.
# Aim (issue 34): the probes' cost < 1 % of the rate. Writes its section of bench/RESULTS.md
# (SECTION=probes) unless BENCH_RESULTS=-. Knobs: REPS=5 SECS=3 LR_BIN. Never run by tests.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
REPS=${REPS:-5} SECS=${SECS:-3}
LR=${LR_BIN:-$TOP/build/linerate}
say() { echo "probe_cost: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (network namespaces)"; exit 1; }
[ -x "$LR" ] || { say "no $LR (make)"; exit 1; }
source "$TOP/bench/scratch.sh"
bench_pair pb 10.208.0 || { say "cannot make the namespaces"; exit 1; }
ip netns exec "$NS2" "$LR" -s -p 5311 >"$WORK/server.log" 2>&1 &
PIDS+=($!)
sleep 0.5

# run MODE -> "receiver_bps link_bytes_of_probes"
run() {
	local extra=""
	[ "$1" = off ] && extra=--no-latency
	ip netns exec "$NS" "$LR" -c "$ADDR2" -p 5311 -t "$SECS" -J $extra >"$WORK/c.json" \
		2>"$WORK/c.err" || say "client ($1) failed: $(head -1 "$WORK/c.err")"
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
p = (j.get("linerate_latency") or {}).get("probes") or {}
n = p.get("sent") or 0
print("%.0f %d" % (j["end"]["sum_received"]["bits_per_second"], n * (64 + 8 + 20 + 14)))' \
		"$WORK/c.json" 2>/dev/null || echo "0 0"
	sleep 0.3
}

rows="" raw=""
for case in veth tbf20M; do
	if [ "$case" = tbf20M ]; then
		tc -n "$NS" qdisc add dev "$IF" root tbf rate 20mbit burst 32kb limit 128kb || exit 1
	fi
	: >"$WORK/pairs"
	for r in $(seq "$REPS"); do
		if [ $((r % 2)) = 1 ]; then order="on off"; else order="off on"; fi
		for m in $order; do
			read -r bps pb < <(run "$m")
			[ "$m" = on ] && { on=$bps; onpb=$pb; } || off=$bps
			raw+="| $case | $r | $m | $bps | $pb |"$'\n'
			say "$case rep $r $m: $bps bit/s, probes $pb bytes on the link"
		done
		echo "$on $off $onpb" >>"$WORK/pairs"
	done
	rows+=$(awk -v secs="$SECS" -v c="$case" '
		{ d[NR] = ($1 - $2) / $2 * 100; share[NR] = $3 * 8 / secs / $1 * 100; on += $1; off += $2 }
		function stats(x, n,   i, m, v, lo, hi) {
			for (i = 1; i <= n; i++) { m += x[i]; if (i == 1 || x[i] < lo) lo = x[i]; if (i == 1 || x[i] > hi) hi = x[i] }
			m /= n; for (i = 1; i <= n; i++) v += (x[i] - m) ^ 2; v = n > 1 ? sqrt(v / (n - 1)) : 0
			return sprintf("%+.3f (%+.3f..%+.3f, sd %.3f)", m, lo, hi, v) }
		END { n = NR
			printf "| %s | %d | %.4g / %.4g | %s | %s |\n", c, n, on / n / 1e9, off / n / 1e9,
				stats(share, n), stats(d, n) }' "$WORK/pairs")$'\n'
done

section=$(cat <<MD
### Latency probes' cost (issue 34): the test's rate with and without them (bench/probe_cost.sh)

$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) vCPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end;
$($LR -v 2>&1 | head -1). Per pair: \`linerate -c B -t $SECS -J\` (TCP, one stream) with the probes on and with
\`--no-latency\`, in alternating order, $REPS pairs, through a veth between two namespaces, at full speed and
through \`tbf rate 20mbit burst 32kb limit 128kb\` on the sender. Probes' share: their requests, which travel with the
test's data (-J's probes sent, the idle baseline's included), x 106 bytes on the wire, as % of the delivered rate. Rate difference: on - off per
pair, % of off: it carries the traffic's own run-to-run noise. Aim: < 1 %.

| case | pairs | delivered on / off, Gbit/s | probes' share of the test's direction, % | rate on - off, % |
|---|---:|---:|---|---|
${rows%$'\n'}

<details><summary>every run</summary>

| case | pair | probes | delivered bit/s | probe requests' bytes on the wire |
|---|---:|---|---:|---:|
${raw%$'\n'}

</details>
MD
)
echo "$section"
if [ "$OUT" != - ]; then
	python3 "$TOP/bench/results_section.py" "$OUT" "${SECTION:-probes}" "$section"
	say "wrote its section of $OUT"
fi
