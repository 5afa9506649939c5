#!/usr/bin/env bash
# Qdisc drops (issue 27): a tbf root on the sending veth (rate 50mbit burst 10k limit 15k) drops
# most of a 200 Mbit/s UDP test. The witnesses are the kernel's own: `tc -s qdisc` (dropped,
# overlimits, requeues, read before and after each step), the sending namespace's UDP counters
# (OutDatagrams + SndbufErrors: every datagram handed to a socket) and the receiving veth's
# rx_packets; the receiver is a plain iperf3. Checked: the test's --csv qdisc columns sum to
# tc's deltas exactly; sender minus receiver is the qdisc's drops (within 2 %); a monitoring
# linerate's Prometheus counter starts at tc's count, follows it exactly when the link is quiet
# and stays between reads while traffic flows; a replaced root qdisc is an empty interval in the
# CSV and no reset in Prometheus. The test runs with --no-gso: with UDP GSO the qdisc counts a
# GSO packet it drops whole as one drop (measured: 8225 drops for 27118 datagrams lost).
source "$(dirname "$0")/../lib.sh"
lr_plan "qdisc: test run exits 0" "qdisc: csv qdisc_drops sum == tc dropped delta" \
	"qdisc: csv qdisc_overlimits sum == tc overlimits delta" \
	"qdisc: csv qdisc_requeues sum == tc requeues delta" \
	"qdisc: csv backlog known on every row, within the 15k limit" \
	"qdisc: sent - received == qdisc drops within 2%" \
	"qdisc: prometheus first value == tc dropped" \
	"qdisc: prometheus between tc reads under traffic" \
	"qdisc: prometheus == tc dropped when quiet" "qdisc: prometheus increase == tc delta" \
	"qdisc: replaced root: an empty csv interval, no huge value" \
	"qdisc: replaced root: prometheus no reset, no more than tc counted"
need_root "qdisc_tbf"
for t in tc curl iperf3 python3; do
	command -v "$t" >/dev/null || { lr_skip_plan qdisc_tbf "$t not installed (scripts/deps.sh)"; exit 0; }
done

u=$(lr_uniq)
A=${u}a B=${u}b IA=${u}x IB=${u}y
ADDR_A=10.213.0.1 ADDR_B=10.213.0.2
LPORT=9110	# inside namespace A: nothing else listens there
TBF=(root handle 1: tbf rate 50mbit burst 10k limit 15k)
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"

lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
lr_quiet_link "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B"
ip netns exec "$A" tc qdisc add dev "$IA" "${TBF[@]}"

inA() { ip netns exec "$A" "$@"; }
tc_stat() {	# dropped | overlimits | requeues of IA's root, as tc -s prints it
	inA tc -s qdisc show dev "$IA" | awk -v w="$1" '/^ Sent/ { gsub(/[(),]/, " ");
		for (i = 1; i < NF; i++) if ($i == w) { print $(i + 1); exit } }'
}
udp_sent() {	# datagrams handed to UDP sockets in A: OutDatagrams + SndbufErrors
	inA awk '/^Udp:/ { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		print $c["OutDatagrams"] + $c["SndbufErrors"]; exit }' /proc/net/snmp
}
rx_packets() { ip netns exec "$B" cat "/sys/class/net/$IB/statistics/rx_packets"; }
blast() {	# SECONDS of 1400-byte datagrams from A to a closed port of B, as fast as they go
	inA python3 -c "
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.time() + float(sys.argv[1])
while time.time() < end:
    s.sendto(b'x' * 1400, ('$ADDR_B', 5999))" "$1"
}
scrape() {	# IA's tbf drops_total as linerate serves it ("" when absent)
	inA curl -sf -m 3 "http://127.0.0.1:$LPORT/metrics" | awk -v i="$IA" \
		'index($0, "linerate_qdisc_drops_total{iface=\"" i "\",qdisc=\"tbf\",handle=\"1:\",parent=\"root\"}") == 1 { print $2 }'
}
settle() {	# waits (5 s at most) until the scrape equals tc's count; prints the last scrape
	local i v
	for ((i = 0; i < 50; i++)); do
		v=$(scrape)
		[ -n "$v" ] && [ "$v" = "$(tc_stat dropped)" ] && break
		sleep 0.1
	done
	echo "$v"
}
csv_sum() {	# FILE COLUMN: "sum rows empty max" over IA's rows
	awk -F, -v ifc="$IA" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		c && $3 == ifc { n++; if ($c == "") e++; else { s += $c; if ($c + 0 > m) m = $c + 0 } }
		END { if (c) printf "%d %d %d %d\n", s, n, e, m; else print "-1 0 1 -1" }' "$1"
}

# drops before anyone watches: the exporter must start from the kernel's count, not from 0
blast 0.2
d0=$(tc_stat dropped)
lr_bg ip netns exec "$A" "$LR_BIN" --headless -i 0.1 -t 60 --csv "$work/mon.csv" \
	--listen "127.0.0.1:$LPORT"
for ((i = 0; i < 50; i++)); do [ -n "$(scrape)" ] && break; sleep 0.1; done
p0=$(scrape)
if [ -n "$p0" ] && [ "${d0:-0}" -gt 0 ] && [ "$p0" = "$d0" ]; then
	pass "qdisc: prometheus first value == tc dropped"
else
	fail "qdisc: prometheus first value == tc dropped" "tc $d0 scraped '$p0'"
fi

ip netns exec "$B" iperf3 -s -1 -p 5213 >/dev/null 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
lr_wait_listen 5213 "$B"
t1_d=$(tc_stat dropped) t1_o=$(tc_stat overlimits) t1_r=$(tc_stat requeues)
u1=$(udp_sent) r1=$(rx_packets)
inA "$LR_BIN" -c "$ADDR_B" -p 5213 -u -b 200M -l 1400 -t 2 --no-gso --headless \
	--csv "$work/run.csv" >"$work/run.out" 2>&1 &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
sleep 1
k1=$(tc_stat dropped); pm=$(scrape); k2=$(tc_stat dropped)
wait "$cli"; rc=$?
t2_d=$(tc_stat dropped) t2_o=$(tc_stat overlimits) t2_r=$(tc_stat requeues)
u2=$(udp_sent) r2=$(rx_packets)
check "qdisc: test run exits 0" test "$rc" -eq 0

read -r sd n ed _ <<<"$(csv_sum "$work/run.csv" qdisc_drops)"
if [ "$n" -gt 0 ] && [ "$ed" -eq 0 ] && [ "$sd" -eq $((t2_d - t1_d)) ] && [ "$sd" -gt 1000 ]; then
	pass "qdisc: csv qdisc_drops sum == tc dropped delta"
else
	fail "qdisc: csv qdisc_drops sum == tc dropped delta" "csv $sd ($n rows, $ed empty) tc $((t2_d - t1_d))"
fi
read -r so _ eo _ <<<"$(csv_sum "$work/run.csv" qdisc_overlimits)"
check "qdisc: csv qdisc_overlimits sum == tc overlimits delta" \
	test "$so" -eq $((t2_o - t1_o)) -a "$eo" -eq 0 -a "$so" -gt 0
read -r sr _ er _ <<<"$(csv_sum "$work/run.csv" qdisc_requeues)"
check "qdisc: csv qdisc_requeues sum == tc requeues delta" test "$sr" -eq $((t2_r - t1_r)) -a "$er" -eq 0
read -r _ nb eb mb <<<"$(csv_sum "$work/run.csv" qdisc_backlog_bytes)"
check "qdisc: csv backlog known on every row, within the 15k limit" \
	test "$nb" -gt 0 -a "$eb" -eq 0 -a "$mb" -le 15360
lost=$(( (u2 - u1) - (r2 - r1) ))
if awk -v l="$lost" -v d="$sd" 'BEGIN { exit !(d > 0 && (l - d) ^ 2 <= (0.02 * d) ^ 2) }'; then
	pass "qdisc: sent - received == qdisc drops within 2%"
else
	fail "qdisc: sent - received == qdisc drops within 2%" \
		"sent $((u2 - u1)) received $((r2 - r1)): $lost; qdisc $sd"
fi
if [ -n "$pm" ] && [ "$t1_d" -le "$pm" ] && [ "$pm" -le "$k2" ] && [ "$k2" -gt "$k1" ]; then
	pass "qdisc: prometheus between tc reads under traffic"
else
	fail "qdisc: prometheus between tc reads under traffic" "tc $t1_d <= scraped '$pm' <= tc $k2 (then $k1)"
fi
p2=$(settle)
check "qdisc: prometheus == tc dropped when quiet" test "$p2" = "$t2_d"
check "qdisc: prometheus increase == tc delta" test $((p2 - p0)) -eq $((t2_d - d0))

# the root deleted and added back: a new qdisc whose counters start again from 0
inA tc qdisc del dev "$IA" root
inA tc qdisc add dev "$IA" "${TBF[@]}"
blast 0.3
d3=$(tc_stat dropped) t3=$(date +%s.%N)
for ((i = 0; i < 50; i++)); do	# the monitor has sampled past the blast's end
	awk -F, -v t="$t3" 'END { exit !($1 > t) }' "$work/mon.csv" && break
	sleep 0.1
done
p3=$(scrape)
kill "$LR_PID" 2>/dev/null; wait "$LR_PID" 2>/dev/null
read -r _ nm em mm <<<"$(csv_sum "$work/mon.csv" qdisc_drops)"
if [ "$nm" -gt 0 ] && [ "$em" -ge 1 ] && [ "$mm" -lt 2147483648 ]; then
	pass "qdisc: replaced root: an empty csv interval, no huge value"
else
	fail "qdisc: replaced root: an empty csv interval, no huge value" "$nm rows, $em empty, largest $mm"
fi
if [ -n "$p3" ] && [ "$d3" -gt 0 ] && [ "$p3" -ge "$p2" ] && [ "$p3" -le $((p2 + d3)) ]; then
	pass "qdisc: replaced root: prometheus no reset, no more than tc counted"
else
	fail "qdisc: replaced root: prometheus no reset, no more than tc counted" \
		"before $p2, after '$p3', the new qdisc dropped $d3"
fi
[ -n "${LR_VERBOSE:-}" ] && echo "tc drops $d0 -> $t2_d, run $sd; sent-received $lost; new qdisc $d3"
exit 0
