#!/usr/bin/env bash
# A headless test run against Debian's iperf3 server in a network namespace: samples and
# traffic in one run on one clock. The three CSVs agree with each other (same tick times), the
# streams CSV sums to linerate's own -J totals and to iperf3's report of the same run, and the
# interface CSV carried at least those bytes (plus headers). The -J output has the verdict.
source "$(dirname "$0")/../lib.sh"
need_root "headless_csvs"
command -v iperf3 >/dev/null || { skip headless_csvs "iperf3 not installed"; exit 0; }
command -v jq >/dev/null || { skip headless_csvs "jq not installed (scripts/deps.sh)"; exit 0; }

A=lrhA$$ B=lrhB$$ IA=lrha$$ IB=lrhb$$
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
lr_netns_pair "$A" "$B" "$IA" "$IB" 10.205.0.1 10.205.0.2 1500
ip netns exec "$B" iperf3 -s -1 -J -p 5287 >"$work/iperf3.json" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
sleep 0.5

for proto in tcp udp; do
	opts=(-t 3); [ "$proto" = udp ] && opts+=(-u -b 200M -l 1400)
	[ "$proto" = udp ] && { ip netns exec "$B" iperf3 -s -1 -J -p 5287 >"$work/iperf3.json" 2>&1 & srv=$!; sleep 0.5; }
	ip netns exec "$A" "$LR_BIN" -c 10.205.0.2 -p 5287 --headless -i 0.1 "${opts[@]}" -J \
		--csv "$work/nic.csv" --cpu-csv "$work/cpu.csv" --streams-csv "$work/streams.csv" \
		>"$work/lr.json" 2>"$work/lr.err"
	rc=$?
	wait "$srv"
	check "$proto: headless client exits 0" test "$rc" -eq 0
	sent=$(jq '.end.sum_sent.bytes' "$work/lr.json")
	i3=$(jq '.end.sum_received.bytes' "$work/iperf3.json")	# the server received
	csv_bytes=$(awk -F, 'NR > 1 && $4 == "send" { s += $6 } END { printf "%.0f", s }' "$work/streams.csv")
	nic_tx=$(awk -F, -v i="$IA" 'NR > 1 && $3 == i { s += $6 } END { printf "%.0f", s }' "$work/nic.csv")
	echo "$proto: linerate sent $sent, streams.csv $csv_bytes, iperf3 counted $i3, $IA tx $nic_tx"
	check "$proto: streams CSV sums to linerate's own total" test "$csv_bytes" = "$sent"
	if [ "$proto" = udp ]; then
		# datagram counts exact: what iperf3 received plus what it counted lost (its
		# sequence numbers) is every 1400-byte datagram linerate says it sent; a loaded
		# receiver may lose some, which moves them between the two, not the sum
		i3n=$(jq '.end.sum.packets' "$work/iperf3.json")
		i3lost=$(jq '.end.sum.lost_packets' "$work/iperf3.json")
		echo "udp: iperf3 counted $i3n datagrams, $i3lost of them lost; linerate sent $((sent / 1400))"
		check "udp: iperf3's datagram count (received + lost) == linerate's sent datagrams" \
			test "$((i3n * 1400))" = "$sent"
	else
		check "$proto: iperf3's report agrees within 1%" awk -v a="$sent" -v b="$i3" \
			'BEGIN { d = (a - b) / a; exit !(a > 0 && d < 0.01 && d > -0.01) }'
	fi
	check "$proto: the NIC carried the stream bytes plus headers (1.00-1.10x)" awk -v a="$csv_bytes" \
		-v n="$nic_tx" 'BEGIN { r = n / a; exit !(a > 0 && r >= 1.0 && r <= 1.10) }'
	check "$proto: one clock: CPU rows at the interface rows' times" \
		cmp <(awk -F, 'NR > 1 { print $1 }' "$work/nic.csv" | sort -u) \
		<(awk -F, 'NR > 1 { print $1 }' "$work/cpu.csv" | sort -u)
	check "$proto: one clock: stream rows at interface rows' times" \
		test -z "$(comm -23 <(awk -F, 'NR > 1 { print $1 }' "$work/streams.csv" | sort -u) \
			<(awk -F, 'NR > 1 { print $1 }' "$work/nic.csv" | sort -u))"
	check "$proto: -J has the verdict for $IA" test "$(jq -r '.linerate_verdict.interface' "$work/lr.json")" = "$IA" ||
		{ jq -c 'keys' "$work/lr.json"; cat "$work/lr.err"; }
done
exit 0
