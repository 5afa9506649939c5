#!/bin/bash
# SPDX-License-Identifier: MIT
# --rr against the anchors on one veth between two network namespaces, in one run (issue 34):
# linerate --rr, sockperf 3.7's ping-pong (`sockperf sr` / `sockperf pp --mps=max --full-rtt`)
# and iperf 2.1.8's bounceback (`iperf -s` / `iperf -c --bounceback --bounceback-period 0`), at
# the same sizes (SIZE bytes each way, one transaction in flight, one flow), TCP and UDP where
# the tool has it; then latency under load: iperf's --bounceback-congest (a full-duplex TCP
# stream beside the bounceback) against linerate --rr beside a linerate --bidir bulk test.
# Transactions/s and the round trip's p50/p99 as each tool reports them, and linerate's as
# ratios. iperf 2.1.8 gives its bounceback latencies only as 100 us bins and a mean: its p50/p99
# are the bins' upper edges ("<=") and no ratio is drawn from them. Each case REPS times in
# turn, the median run kept. Writes its section of bench/RESULTS.md (section rr) unless
# BENCH_RESULTS=-. Knobs: SECS=5 REPS=3 SIZE=64 LR_BIN. Never run by tests.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
SECS=${SECS:-5} REPS=${REPS:-3} SIZE=${SIZE:-64}
LR=$(realpath "${LR_BIN:-$TOP/build/linerate}")
say() { echo "rr: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (network namespaces)"; exit 1; }
[ -x "$LR" ] || { say "no $LR (make)"; exit 1; }
for t in sockperf iperf python3; do
	command -v $t >/dev/null || { say "$t missing: scripts/deps.sh --bench"; exit 1; }
done
source "$TOP/bench/scratch.sh"
bench_scratch rr
B=${NS}b IA=lrrra$$ IB=lrrrb$$ SA=10.209.0.2
bench_cleanup_rr() { bench_cleanup; ip netns del "$B" 2>/dev/null; }
trap bench_cleanup_rr EXIT
ip netns add "$NS" && ip netns add "$B" || exit 1
ip link add "$IA" netns "$NS" type veth peer name "$IB" netns "$B"
ip -n "$NS" addr add 10.209.0.1/24 dev "$IA"; ip -n "$B" addr add $SA/24 dev "$IB"
for n in "$NS" "$B"; do ip -n "$n" link set lo up; done
ip -n "$NS" link set "$IA" up; ip -n "$B" link set "$IB" up
inb() { ip netns exec "$B" "$@"; }
ina() { ip netns exec "$NS" "$@"; }
inb "$LR" -s -p 5501 >"$WORK/lr_srv.log" 2>&1 & PIDS+=($!)
inb "$LR" -s -p 5502 >"$WORK/lr_srv2.log" 2>&1 & PIDS+=($!)
inb sockperf sr -i $SA -p 5503 >"$WORK/sp_udp.log" 2>&1 & PIDS+=($!)
inb sockperf sr --tcp -i $SA -p 5504 >"$WORK/sp_tcp.log" 2>&1 & PIDS+=($!)
inb iperf -s -p 5505 >"$WORK/ip2.log" 2>&1 & PIDS+=($!)
sleep 1

# each prints "tps p50_us p99_us" (p50/p99 "-" unknown)
lr_rr() { # lr_rr [-u] [--load]
	local u="" load=0 bg=""
	[ "${1:-}" = -u ] && u=-u
	[ "${1:-}" = --load ] && load=1
	if [ $load = 1 ]; then
		ina "$LR" -c $SA -p 5502 --bidir -t $((SECS + 2)) -J >"$WORK/bulk.json" 2>&1 </dev/null &
		bg=$!
		sleep 1
	fi
	ina "$LR" -c $SA -p 5501 --rr $u -l "$SIZE" -t "$SECS" -J </dev/null >"$WORK/lr.json" 2>/dev/null
	if [ -n "$bg" ]; then
		wait "$bg"
		python3 -c 'import json,sys
e = json.load(open(sys.argv[1]))["end"]
print("%.2f" % ((e["sum_received"]["bits_per_second"] + e["sum_received_bidir_reverse"]["bits_per_second"]) / 1e9))' \
			"$WORK/bulk.json" >>"$WORK/bulk_gbps" 2>/dev/null || say "the bulk test failed: $(head -c 200 "$WORK/bulk.json")"
	fi
	python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["linerate_rr"]
print(r["transactions_per_s"], r["latency_us"]["p50"], r["latency_us"]["p99"])' "$WORK/lr.json" ||
		echo "- - -"
}
sp_pp() { # sp_pp [--tcp]
	local port=5503
	[ "${1:-}" = --tcp ] && port=5504
	ina sockperf pp ${1:-} -i $SA -p $port -t "$SECS" -m "$SIZE" --mps=max --full-rtt \
		>"$WORK/sp.out" 2>&1 </dev/null
	sed 's/\x1b\[[0-9;]*m//g' "$WORK/sp.out" | awk '
		/\[Valid Duration\]/ { for (i = 1; i <= NF; i++) { if ($i ~ /^RunTime=/) { sub(/RunTime=/, "", $i); t = $i }
			if ($i ~ /^ReceivedMessages=/) { sub(/ReceivedMessages=/, "", $i); n = $i } } }
		/percentile 50.000 =/ { p50 = $NF } /percentile 99.000 =/ { p99 = $NF }
		END { if (t > 0) printf "%.1f %s %s\n", n / t, p50, p99; else print "- - -" }'
}
ip2_bb() { # ip2_bb [--bounceback-congest]
	ina iperf -c $SA -p 5505 --bounceback ${1:-} --bounceback-period 0 -l "$SIZE" -t "$SECS" \
		-i "$SECS" >"$WORK/ip2.out" 2>&1 </dev/null
	# the last summary line: "... N=avg/min/max/stdev ms ..."; the PDF: bin:count in 100 us bins
	python3 - "$WORK/ip2.out" <<-'PY'
	import re, sys
	txt = open(sys.argv[1]).read()
	s = [m for m in re.finditer(r"(\d+\.\d+)-(\d+\.\d+) sec .*?\s(\d+)=([\d.]+)/", txt)]
	pdf = re.findall(r"bin\(w=(\d+)us\):cnt\((\d+)\)=([\d:,]+)", txt)
	if not s or not pdf:
	    print("- - -"); sys.exit()
	m = s[-1]
	tps = int(m.group(3)) / (float(m.group(2)) - float(m.group(1)))
	w, n, bins = int(pdf[-1][0]), int(pdf[-1][1]), pdf[-1][2]
	def q(f):
	    c = 0
	    for b in bins.split(","):
	        k, v = b.split(":")
	        c += int(v)
	        if c >= f * n:
	            return "<=%d" % (int(k) * w)
	print("%.1f %s %s" % (tps, q(0.5), q(0.99)))
	PY
}

median() { # median of REPS lines "tps p50 p99" by tps
	sort -g | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'
}
declare -A R
cases=${CASES:-"lr_tcp sp_tcp ip2_tcp lr_udp sp_udp lr_load ip2_load"}
for c in $cases; do : >"$WORK/$c"; done
for r in $(seq "$REPS"); do
	for c in $cases; do
		case $c in
		lr_tcp) lr_rr ;; lr_udp) lr_rr -u ;; lr_load) lr_rr --load ;;
		sp_tcp) sp_pp --tcp ;; sp_udp) sp_pp ;;
		ip2_tcp) ip2_bb ;; ip2_load) ip2_bb --bounceback-congest ;;
		esac >>"$WORK/$c"
		say "rep $r $c: $(tail -1 "$WORK/$c")"
	done
done
for c in $cases; do R[$c]=$(median <"$WORK/$c"); done

ratio() { # ratio A B: A / B, "-" when either is unknown or a bin edge
	awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a / b; else printf "-" }'
}
row() { # row TEST TOOL KEY LRKEY
	local t p50 p99 lt l50 l99
	read -r t p50 p99 <<<"${R[$3]}"
	read -r lt l50 l99 <<<"${R[$4]}"
	if [ "$3" = "$4" ]; then
		printf '| %s | %s | %.0f | %s | %s | | | |\n' "$1" "$2" "$t" "$p50" "$p99"
	else
		printf '| %s | %s | %.0f | %s | %s | %s | %s | %s |\n' "$1" "$2" "$t" "$p50" "$p99" \
			"$(ratio "$lt" "$t")" "$(ratio "$l50" "$p50")" "$(ratio "$l99" "$p99")"
	fi
}
table="### --rr against sockperf and iperf 2 (bench/rr.sh)

$SIZE-byte requests and $SIZE-byte answers, one flow, one transaction in flight, ${SECS} s per
run, median of $REPS runs by transactions/s, on one veth between two namespaces of a
$(nproc)-CPU host ($(uname -r)); sockperf $(sockperf --version 2>&1 | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -1), $(iperf -v 2>&1 | awk '{print $1, $3}').
Ratios are linerate's figure over the tool's: transactions/s above 1 is linerate faster, a
latency below 1 is linerate quicker. Under load: beside a full-duplex TCP bulk stream on the same
veth (iperf's own --bounceback-congest; for linerate a \`linerate -c --bidir\` test to a second
server; that bulk test moved $(sort -g "$WORK/bulk_gbps" 2>/dev/null | tr '\n' ' ')Gbit/s both ways together in
its runs). iperf 2.1.8's bounceback latencies come only as 100 us bins: its p50/p99 are bin edges.

| test | tool | transactions/s | p50 us | p99 us | linerate/tool tps | p50 | p99 |
|---|---|---|---|---|---|---|---|
$(row TCP_RR "linerate --rr" lr_tcp lr_tcp)
$(row TCP_RR "sockperf pp --tcp" sp_tcp lr_tcp)
$(row TCP_RR "iperf --bounceback" ip2_tcp lr_tcp)
$(row UDP_RR "linerate --rr -u" lr_udp lr_udp)
$(row UDP_RR "sockperf pp" sp_udp lr_udp)
$(row "TCP_RR under load" "linerate --rr + --bidir bulk" lr_load lr_load)
$(row "TCP_RR under load" "iperf --bounceback-congest" ip2_load lr_load)"
echo "$table"
[ "$OUT" = - ] || python3 "$TOP/bench/results_section.py" "$OUT" rr "$table"
