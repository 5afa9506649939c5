#!/usr/bin/env bash
# `linerate -s --csv/--cpu-csv/--streams-csv` records while it serves: an iperf3 client's test
# through a veth between two namespaces, the server's interface rows for its veth sum to the
# kernel's counter deltas exactly over the run, and its streams CSV (the incoming test's
# streams) sums to what the iperf3 client's own -J report says the server received. Every
# stream row's target_bps is the rate the client told the server (iperf3's own -J
# test_start.target_bitrate: "bandwidth" in its parameters), for the streams it receives and,
# under -R, for those it sends.
source "$(dirname "$0")/../lib.sh"
cases=(tcp udp)
for c in "${cases[@]}"; do
	lr_plan "$c: server exits 0" "$c: rx_bytes sum == kernel delta" "$c: tx_bytes sum == kernel delta" \
		"$c: rx_packets sum == kernel delta" "$c: tx_packets sum == kernel delta" \
		"$c: streams CSV recv bytes == client's sum_received" "$c: cpu CSV has rows" \
		"$c: target_bps on every stream row == iperf3's target_bitrate"
done
lr_plan "back-to-back: server exits 0 on SIGINT" "back-to-back: rx_bytes sum == kernel delta" \
	"back-to-back: streams CSV per test == each client's sum_received" \
	"back-to-back: target_bps per test == each client's target_bitrate (-b 20M, 100M, -R -b 20M)"
need_root "server_csv"
command -v iperf3 >/dev/null || { lr_skip_plan server_csv "iperf3 not installed"; exit 0; }
command -v jq >/dev/null || { lr_skip_plan server_csv "jq not installed (scripts/deps.sh)"; exit 0; }

A=lrcA$$ B=lrcB$$ IA=lrca$$ IB=lrcb$$ ADDR_A=10.207.0.1 ADDR_B=10.207.0.2
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
for ns in "$A" "$B"; do	# a silent link: no IPv6 autoconf/MLD, no ARP during the run
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
mac_b=$(ip -n "$B" -o link show "$IB" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
mac_a=$(ip -n "$A" -o link show "$IA" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$A" neigh replace "$ADDR_B" lladdr "$mac_b" dev "$IA" nud permanent
ip -n "$B" neigh replace "$ADDR_A" lladdr "$mac_a" dev "$IB" nud permanent

kernel_counters() {	# NS IF -> "rx_bytes tx_bytes rx_packets tx_packets" (/proc/net/dev in NS)
	ip netns exec "$1" awk -v i="$2:" '$1 == i { print $2, $10, $3, $11 }' /proc/net/dev
}
targets() {	# STREAMS_CSV DIRECTION PROTOCOL -> the distinct target_bps of those rows ("none": no row)
	awk -F, -v d="$2" -v p="$3" 'NR==1 { for (i = 1; i <= NF; i++) if ($i == "target_bps") c = i; next }
		$4 == d && $5 == p { t[c ? $c : "nocolumn"] = 1 }
		END { n = 0; for (k in t) { printf "%s%s", n++ ? " " : "", k == "" ? "empty" : k }
		      if (!n) printf "none" }' "$1"
}
csv_sum() {	# FILE IF COLUMN
	awk -F, -v ifc="$2" -v col="$3" 'NR==1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$3 == ifc { s += $c } END { printf "%.0f\n", s }' "$1"
}

for c in "${cases[@]}"; do
	opts=(-t 3); [ "$c" = udp ] && opts+=(-u -b 100M -l 1400)
	before=$(kernel_counters "$B" "$IB")
	ip netns exec "$B" "$LR_BIN" -s -1 -p 5293 -I "$IB" -i 0.1 --csv "$work/$c.nic.csv" \
		--cpu-csv "$work/$c.cpu.csv" --streams-csv "$work/$c.streams.csv" >"$work/$c.srv.txt" 2>&1 &
	srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
	sleep 0.7
	ip netns exec "$A" iperf3 -c "$ADDR_B" -p 5293 "${opts[@]}" -J >"$work/$c.cli.json" 2>&1
	wait "$srv"; rc=$?
	after=$(kernel_counters "$B" "$IB")
	check "$c: server exits 0" test "$rc" -eq 0 || cat "$work/$c.srv.txt"
	read -r b_rx b_tx b_rxp b_txp <<<"$before"
	read -r a_rx a_tx a_rxp a_txp <<<"$after"
	f="$work/$c.nic.csv"
	echo "$c: kernel rx $((a_rx - b_rx)) B / $((a_rxp - b_rxp)) pkts, CSV rx $(csv_sum "$f" "$IB" rx_bytes) B / $(csv_sum "$f" "$IB" rx_packets) pkts"
	check "$c: rx_bytes sum == kernel delta" test "$(csv_sum "$f" "$IB" rx_bytes)" = "$((a_rx - b_rx))"
	check "$c: tx_bytes sum == kernel delta" test "$(csv_sum "$f" "$IB" tx_bytes)" = "$((a_tx - b_tx))"
	check "$c: rx_packets sum == kernel delta" test "$(csv_sum "$f" "$IB" rx_packets)" = "$((a_rxp - b_rxp))"
	check "$c: tx_packets sum == kernel delta" test "$(csv_sum "$f" "$IB" tx_packets)" = "$((a_txp - b_txp))"
	sb=$(awk -F, 'NR > 1 && $4 == "recv" { s += $6 } END { printf "%.0f", s }' "$work/$c.streams.csv")
	rb=$(jq '.end.sum_received.bytes' "$work/$c.cli.json")
	echo "$c: streams CSV recv $sb bytes; iperf3 client's sum_received $rb"
	check "$c: streams CSV recv bytes == client's sum_received" test "$sb" = "$rb"
	check "$c: cpu CSV has rows" test "$(wc -l <"$work/$c.cpu.csv")" -gt 2
	tg=$(targets "$work/$c.streams.csv" recv "$c"); want=$(jq '.start.test_start.target_bitrate' "$work/$c.cli.json")
	echo "$c: streams CSV target_bps $tg; iperf3's target_bitrate $want"
	check "$c: target_bps on every stream row == iperf3's target_bitrate" test "$tg" = "$want"
done

# One server, two tests back to back (the second starts as the first ends): each test's
# streams start a new generation only once the sampler has read the last one's final counts.
before=$(kernel_counters "$B" "$IB")
ip netns exec "$B" "$LR_BIN" -s -p 5294 -I "$IB" --csv "$work/bb.nic.csv" \
	--streams-csv "$work/bb.streams.csv" >"$work/bb.srv.txt" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
sleep 0.7
ip netns exec "$A" iperf3 -c "$ADDR_B" -p 5294 -t 2 -b 20M -J >"$work/bb1.json" 2>&1
ip netns exec "$A" iperf3 -c "$ADDR_B" -p 5294 -t 2 -u -b 100M -l 1400 -J >"$work/bb2.json" 2>&1
ip netns exec "$A" iperf3 -c "$ADDR_B" -p 5294 -t 2 -b 20M -R -J >"$work/bb3.json" 2>&1	# the server sends
sleep 0.3
kill -INT "$srv"; wait "$srv"; rc=$?
after=$(kernel_counters "$B" "$IB")
check "back-to-back: server exits 0 on SIGINT" test "$rc" -eq 0 || cat "$work/bb.srv.txt"
read -r b_rx _ <<<"$before"; read -r a_rx _ <<<"$after"
check "back-to-back: rx_bytes sum == kernel delta" test "$(csv_sum "$work/bb.nic.csv" "$IB" rx_bytes)" = "$((a_rx - b_rx))"
got=$(awk -F, 'NR > 1 && $4 == "recv" { s[$5] += $6 } END { printf "%.0f %.0f", s["tcp"], s["udp"] }' "$work/bb.streams.csv")
want="$(jq '.end.sum_received.bytes' "$work/bb1.json") $(jq '.end.sum_received.bytes' "$work/bb2.json")"
echo "back-to-back: streams CSV tcp/udp $got; the clients' sum_received $want"
check "back-to-back: streams CSV per test == each client's sum_received" test "$got" = "$want"
got="$(targets "$work/bb.streams.csv" recv tcp)/$(targets "$work/bb.streams.csv" recv udp)/$(targets "$work/bb.streams.csv" send tcp)"
want=$(for i in 1 2 3; do jq -j '.start.test_start.target_bitrate' "$work/bb$i.json"; [ $i = 3 ] || printf /; done)
echo "back-to-back: target_bps tcp recv/udp recv/tcp send (-R) $got; the clients' target_bitrate $want"
check "back-to-back: target_bps per test == each client's target_bitrate (-b 20M, 100M, -R -b 20M)" \
	test "$got" = "$want"
exit 0
