#!/usr/bin/env bash
# `linerate -s` headless against Debian's iperf3 as the CLIENT, in a network namespace: the
# server prints iperf3's server lines, and what they say agrees with the iperf3 client's own
# -J report of the same test (the witness): the summary's receiver transfer is the client's
# sum_received.bytes in iperf3's units, UDP lost/total are its lost_packets/packets exactly,
# and the interval lines add up to the summary (UDP datagrams exactly, bytes within rounding).
# The UDP test loses 1 in 50 of its datagrams to nft, whose counter is what the server counts
# lost (so a count of datagrams received cannot pass for the highest sequence number); the
# intervals it sends back to the client (--get-server-output) add up to its summary too.
# Under -R the server sends and, as iperf3 -s, prints only its sender line: its transfer is the
# client's sum_sent (the server's count as the client got it), its UDP total at least the
# highest datagram the client's receiver saw (sum_received.packets), and above it only by what
# was in flight when the client's TEST_END stopped its counting (1 %, at least 64 datagrams).
source "$(dirname "$0")/../lib.sh"
cases=(udp udp-R tcp tcp-R)
for c in "${cases[@]}"; do
	side="receiver transfer = client's sum_received"
	[ "${c#*-}" = R ] && side="sender transfer = client's sum_sent"
	lr_plan "$c: server exits 0" "$c: accepted + connected lines" "$c: $side" \
		"$c: interval bytes add up to the summary"
done
lr_plan "udp: lost/total = client's lost_packets/packets" "udp: the server's lost = nft's drops" "udp-R: sender's total = client's sum_received.packets + in flight" \
	"udp: interval datagrams add up to the summary" \
	"udp: --get-server-output's interval datagrams add up to the summary"
need_root "server_lines"
command -v iperf3 >/dev/null || { lr_skip_plan server_lines "iperf3 not installed"; exit 0; }
command -v jq >/dev/null || { lr_skip_plan server_lines "jq not installed (scripts/deps.sh)"; exit 0; }

A=lrsA$$ B=lrsB$$ IA=lrsa$$ IB=lrsb$$
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
lr_netns_pair "$A" "$B" "$IA" "$IB" 10.206.0.1 10.206.0.2 1500

# iperf3's transfer column: 1024-based, 3 significant digits
fmt='function fmt(b,  u, i) { split("Bytes KBytes MBytes GBytes TBytes", u, " "); i = 1
	while (b >= 1024 * 0.99 && i < 5) { b /= 1024; i++ }
	if (b < 9.995) return sprintf("%4.2f %s", b, u[i]); if (b < 99.95) return sprintf("%4.1f %s", b, u[i])
	return sprintf("%4.0f %s", b, u[i]) }
function bytes(v, u) { return v * (u == "KBytes" ? 1024 : u == "MBytes" ? 1048576 : u == "GBytes" ? 1073741824 : 1) }'

# the server namespace's UDP RcvbufErrors (datagrams the kernel dropped at the socket)
rcvbuf_errors() {
	ip netns exec "$B" awk '/^Udp:/ { if (!h) { for (i = 2; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 }
		else { print $c + 0; exit } }' /proc/net/snmp
}
for c in "${cases[@]}"; do
	opts=(-t 3); [ "${c%-R}" = udp ] && opts+=(-u -b 50M -l 1400); [ "${c#*-}" = R ] && opts+=(-R)
	# udp: 1 in 50 of the datagrams dropped on the way in (nft counts them), so that a sequence
	# number and a count of datagrams received are not the same figure
	if [ "$c" = udp ]; then
		opts+=(--get-server-output)	# the same intervals, as the server sends them back
		lr_nft_udp_drop "$B" lrsloss 5291 50 || fail "udp: nft drops 1 in 50" "nft cannot"
		e0=$(rcvbuf_errors)
	fi
	ip netns exec "$B" "$LR_BIN" -s -1 -p 5291 >"$work/srv.txt" 2>"$work/srv.err" &
	srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
	sleep 0.5
	ip netns exec "$A" iperf3 -c 10.206.0.2 -p 5291 "${opts[@]}" -J >"$work/cli.json" 2>&1
	wait "$srv"; rc=$?
	if [ "$c" = udp ]; then
		e1=$(rcvbuf_errors)
		dropped=$(ip netns exec "$B" nft list table inet lrsloss 2>/dev/null | grep -oP 'counter packets \K[0-9]+')
		ip netns exec "$B" nft delete table inet lrsloss 2>/dev/null
	fi
	check "$c: server exits 0" test "$rc" -eq 0 || cat "$work/srv.err"
	check "$c: accepted + connected lines" grep -q "^Accepted connection from 10.206.0.1, port" "$work/srv.txt"
	grep -q "local 10.206.0.2 port 5291 connected to 10.206.0.1 port" "$work/srv.txt" ||
		fail "$c: accepted + connected lines" "no '[  1] local ... connected to' line"
	role=receiver sum=sum_received side="receiver transfer = client's sum_received"
	[ "${c#*-}" = R ] && role=sender sum=sum_sent side="sender transfer = client's sum_sent"
	got=$(grep " $role\$" "$work/srv.txt" | tail -1 | grep -oP 'sec\s+\K[0-9.]+ \S*Bytes')
	rb=$(jq ".end.$sum.bytes" "$work/cli.json")
	want=$(awk "$fmt"' BEGIN { print fmt('"$rb"') }' | sed 's/^ *//')
	echo "$c: server's $role line says '$got'; the iperf3 client's $sum is $rb bytes = '$want'"
	check "$c: $side" test "$got" = "$want"
	# the interval lines (before the "- - -" line), [SUM] lines left out when there are streams
	isum=$(awk "$fmt"' /^- - -/ { exit } /sec/ && !/SUM/ { for (i = 1; i < NF; i++) if ($i == "sec") { s += bytes($(i + 1), $(i + 2)); break } }
		END { printf "%.0f", s }' "$work/srv.txt")
	# -R: the server's intervals count what it sent (sum_sent: its count less what was still
	# queued at the end, so 1 %); else what it received (the 3-digit rounding, 0.5 %)
	tol=0.005; ib=$rb
	[ "${c#*-}" = R ] && tol=0.01
	echo "$c: interval lines add up to $isum bytes; the summary's side $ib"
	check "$c: interval bytes add up to the summary" awk -v a="$isum" -v b="$ib" -v t="$tol" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= t * b + 1024) }'
	if [ "$c" = udp ]; then
		lt=$(grep ' receiver$' "$work/srv.txt" | grep -oP '[0-9]+/[0-9]+ \(' | tr -d ' (')
		want="$(jq -r '"\(.end.sum_received.lost_packets // .end.sum.lost_packets)/\(.end.sum_received.packets // .end.sum.packets)"' "$work/cli.json")"
		echo "$c: server's lost/total $lt; iperf3 client's $want"
		check "$c: lost/total = client's lost_packets/packets" test "$lt" = "$want"
		# what nft dropped is what the server counts lost: all but one dropped after the last
		# datagram that came (no later sequence number shows it), plus the socket's overflows
		echo "$c: nft dropped ${dropped:-?}, RcvbufErrors +$((e1 - e0)), the server's lost ${lt%/*}"
		check "$c: the server's lost = nft's drops" awk -v l="${lt%/*}" -v d="${dropped:-}" -v r="$((e1 - e0))" \
			'BEGIN { exit !(d != "" && d > 0 && l >= d - 1 && l <= d + r) }'
	elif [ "$c" = udp-R ]; then
		lt=$(grep ' sender$' "$work/srv.txt" | grep -oP '[0-9]+/[0-9]+ \(' | tr -d ' (')
		want=$(jq -r '.end.sum_received.packets // .end.sum.packets' "$work/cli.json")
		echo "$c: server's sender line 0/total $lt; iperf3 client's received up to datagram $want"
		check "$c: sender's total = client's sum_received.packets + in flight" awk -v lt="$lt" -v w="$want" \
			'BEGIN { split(lt, p, "/"); t = p[2] + 0; s = 0.01 * w; if (s < 64) s = 64
				exit !(lt ~ /^0\/[0-9]+$/ && w > 0 && t >= w && t <= w + s) }'
	fi
	if [ "$c" = udp ]; then
		it=$(awk '/^- - -/ { exit } / ms +[0-9]+\/[0-9]+ / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, p, "/"); l += p[1]; t += p[2] } }
			END { print l "/" t }' "$work/srv.txt")
		echo "udp: interval lines add up to $it datagrams"
		check "udp: interval datagrams add up to the summary" test "$it" = "$lt"
		it=$(jq -r '.server_output_text // ""' "$work/cli.json" | awk '/^- - -/ { exit }
			/ ms +[0-9]+\/[0-9]+ / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, p, "/"); l += p[1]; t += p[2] } }
			END { print l "/" t }')
		echo "udp: --get-server-output's interval lines add up to $it datagrams"
		check "udp: --get-server-output's interval datagrams add up to the summary" test "$it" = "$lt"
	fi
	[ -n "$LR_FAILED" ] && { echo "--- server output:"; cat "$work/srv.txt"; }
done
exit 0
