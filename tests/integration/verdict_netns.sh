#!/usr/bin/env bash
# The verdict against independent witnesses, over a veth between two namespaces (issue 20):
# UDP loss forced with a tiny receive buffer at the peer (its kernel's RcvbufErrors rise) and
# at this host (-R), TCP loss forced with an nftables drop rule inside the receiver's namespace
# (the rule's own counter): the verdict names the witness and the place, never "none". A test
# capped by its own -b (TCP, and UDP -P 2) gets no "more streams" advice: whether -b reached
# the wire and whether TCP retransmitted enough to speak first is the kernel's word (this host's
# veth bytes and packets, its namespace's RetransSegs), never the test's own count. In every
# verdict, the goodput the test reports never exceeds the interface's bytes of the same window
# x 8 / seconds, the window is the test's own seconds, and its bytes are inside the kernel's
# delta over the whole run.
# The same steady load reads the same hottest-CPU softirq at -i 0.01 and -i 0.5 (5 points).
# Headless -J is what is read: iperf3's end totals and the "linerate_verdict" object.
source "$(dirname "$0")/../lib.sh"
need_root "verdict_netns"
command -v jq >/dev/null || { skip verdict_netns "jq not installed (scripts/deps.sh)"; exit 0; }
command -v nft >/dev/null || { skip verdict_netns "nft not installed (scripts/deps.sh)"; exit 0; }

U=$(lr_uniq)
A=${U}a B=${U}b IA=${U}x IB=${U}y
ADDR_A=10.204.0.1 ADDR_B=10.204.0.2 PORT=5311
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"

lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
for ns in "$A" "$B"; do	# a quiet link: no IPv6 autoconf chatter in the counters
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
ip netns exec "$B" "$LR_BIN" -s --headless -p "$PORT" >"$work/server.log" 2>&1 &
srv=$!
lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
lr_wait_listen "$PORT" "$B"

udp_rcvbuf_errors() {	# NS -> the namespace's UDP RcvbufErrors (its kernel's own count)
	ip netns exec "$1" awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 }
		else print $c }' /proc/net/snmp
}
if_bytes() {	# NS IF rx|tx
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3_bytes"
}
has() { grep -q -- "$2" <<<"$1"; }	# has TEXT PATTERN
lacks() { ! grep -q -- "$2" <<<"$1"; }
v() {	# NAME JQ-EXPR -> value from the run's JSON
	jq -r "$2" "$work/$1.json"
}

tcp_retrans() {	# NS -> the namespace's TCP RetransSegs (its kernel's own count)
	ip netns exec "$1" awk '/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "RetransSegs") c = i; h = 1 }
		else print $c }' /proc/net/snmp
}
if_packets() {	# NS IF rx|tx
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3_packets"
}

# run NAME SECONDS ARGS...: a headless -J test from A to B; the kernel's deltas over the run in
# $work/NAME.kern: "rx_bytes tx_bytes tx_packets RetransSegs" (A's veth, A's TCP)
run() {
	local name=$1 secs=$2; shift 2
	local rx0 tx0 tp0 re0
	rx0=$(if_bytes "$A" "$IA" rx); tx0=$(if_bytes "$A" "$IA" tx)
	tp0=$(if_packets "$A" "$IA" tx); re0=$(tcp_retrans "$A")
	ip netns exec "$A" timeout $((secs + 20)) "$LR_BIN" --headless -c "$ADDR_B" -p "$PORT" \
		-t "$secs" -J "$@" >"$work/$name.json" 2>"$work/$name.err"
	echo $? >"$work/$name.rc"
	echo "$(($(if_bytes "$A" "$IA" rx) - rx0)) $(($(if_bytes "$A" "$IA" tx) - tx0))" \
		"$(($(if_packets "$A" "$IA" tx) - tp0)) $(($(tcp_retrans "$A") - re0))" >"$work/$name.kern"
}

within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x < hi) }'; }

# capped_as_witnessed NAME CAP_BPS SECS HDR: whether -b reached the wire, in want_capped, by
# the kernel: the payload this host's veth sent over the run (bytes less HDR a packet) against
# CAP_BPS x SECS, in kwire. At 95 % of it or more: capped; under 85 % (the sender did not get
# the CPU): not capped. Between those the kernel cannot tell the verdict's rule (90 % of -b, on
# the test's own sent rate) apart from its own count, so the rule is followed on that rate.
capped_as_witnessed() {
	local name=$1 cap=$2 secs=$3 hdr=$4 ktx kpk sent_bps
	read -r _ ktx kpk _ <"$work/$name.kern"
	kpay=$((ktx - hdr * kpk))
	kwire=$(awk -v p="$kpay" -v c="$cap" -v s="$secs" 'BEGIN { printf "%.4f", p * 8 / (c * s) }')
	sent_bps=$(v "$name" '.end.sum_sent.bits_per_second')
	if within "$kwire" 0.95 1e9; then want_capped=true
	elif within "$kwire" -1e9 0.85; then want_capped=false
	elif within "$sent_bps" "$(awk -v c="$cap" 'BEGIN { print c * 0.9 }')" 1e15; then want_capped=true
	else want_capped=false
	fi
}

# The test-window checks, for every verdict: DIR is up (client sends) or down (-R).
window_checks() {
	local name=$1 secs=$2 dir=$3 ok=1 col goodput bytes seconds krx ktx kbytes
	if [ "$(cat "$work/$name.rc")" != 0 ] || ! jq -e '.linerate_verdict' "$work/$name.json" >/dev/null 2>&1; then
		fail "$name: a verdict in the JSON" "exit $(cat "$work/$name.rc"): $(head -c 300 "$work/$name.err")"
		return 1
	fi
	col=tx_bytes; [ "$dir" = down ] && col=rx_bytes
	goodput=$(v "$name" '.end.sum_received.bits_per_second')
	bytes=$(v "$name" ".linerate_verdict.$col")
	seconds=$(v "$name" '.linerate_verdict.seconds')
	read -r krx ktx _ <"$work/$name.kern"
	kbytes=$ktx; [ "$dir" = down ] && kbytes=$krx
	check "$name: the verdict covers the test's own window" \
		test "$(v "$name" '.linerate_verdict.test_window')" = true
	check "$name: window seconds within 5% of -t $secs ($seconds)" \
		awk -v s="$seconds" -v t="$secs" 'BEGIN { exit !(s > t * 0.95 && s < t * 1.05) }'
	# 1 % slack: a paced (-b) test's bytes come in bursts, and the window's edges are ticks, so
	# the window can end just before a burst the test's own seconds include (seen: 194.98 Mb/s
	# goodput against 194.7 on the NIC); a wrong window or interface is off by far more
	check "$name: goodput $goodput <= NIC $col*8/seconds (+1 %)" \
		awk -v g="$goodput" -v b="$bytes" -v s="$seconds" 'BEGIN { exit !(g > 0 && g <= b * 8 / s * 1.01) }'
	check "$name: NIC $col of the window ($bytes) <= kernel delta of the whole run ($kbytes)" \
		test "$bytes" -le "$kbytes"
}

# --- UDP, the peer's socket buffer overflows (-w 16K at the server) ---
b0=$(udp_rcvbuf_errors "$B")
run udp_peer 3 -u -b 1G -P 2 -w 16K
b1=$(udp_rcvbuf_errors "$B")
if window_checks udp_peer 3 up; then
	lost=$(v udp_peer '.end.sum.lost_packets')
	check "udp_peer: the receiver counted loss ($lost)" test "${lost:-0}" -gt 0
	check "udp_peer: the receiver's kernel saw it (RcvbufErrors +$((b1 - b0)))" test $((b1 - b0)) -gt 0
	check "udp_peer: the verdict takes the receiver's count" \
		test "$(v udp_peer '.linerate_verdict.loss.receiver_lost')" = "$lost"
	check "udp_peer: the witness is named" grep -q "the receiver's count" \
		<<<"$(v udp_peer '.linerate_verdict.loss.witnesses')"
	check "udp_peer: the place is the receiver" grep -q "at the receiver" \
		<<<"$(v udp_peer '.linerate_verdict.loss.where')"
	next=$(v udp_peer '.linerate_verdict.next_step')
	check "udp_peer: not \"no bottleneck\"" lacks "$next" 'no bottleneck'
	# 42 bytes a packet: Ethernet, IP, UDP (a GSO skb counts once: the payload is high by
	# a little, never low)
	capped_as_witnessed udp_peer 2e9 3 42
	capped=$(v udp_peer '.linerate_verdict.capped_by_bitrate')
	check "udp_peer: capped_by_bitrate as the kernel's bytes say -b 1G x 2 reached the wire ($kwire of it: $want_capped)" \
		test "$capped" = "$want_capped"
	capped_no_more_streams() { [ "$capped" != true ] || lacks "$next" 'more streams'; }
	check "udp_peer: capped: no \"more streams\"" capped_no_more_streams
fi

# --- UDP -R: this host receives, its own socket buffer overflows ---
a0=$(udp_rcvbuf_errors "$A")
run udp_local 3 -u -R -b 1G -w 16K
a1=$(udp_rcvbuf_errors "$A")
if window_checks udp_local 3 down; then
	sock=$(v udp_local '.linerate_verdict.loss.socket_rcvbuf')
	echo "# udp_local: lost $(v udp_local .linerate_ledger.lost) of $(v udp_local .linerate_ledger.sent):" \
		"$(v udp_local '.linerate_verdict.loss.where')"
	check "udp_local: this host's kernel saw it (RcvbufErrors +$((a1 - a0)))" test $((a1 - a0)) -gt 0
	check "udp_local: the verdict's socket count ($sock) is in the kernel's (+$((a1 - a0)))" \
		awk -v v="$sock" -v k=$((a1 - a0)) 'BEGIN { exit !(v > 0 && v <= k) }'
	# the place is the ledger's (both ends read): this host, the receiver, its sockets
	check "udp_local: the place is the receiver's sockets, on this host" \
		grep -q "at the receiver's transport: UDP RcvbufErrors on $(hostname)" \
		<<<"$(v udp_local '.linerate_verdict.loss.where')"
	check "udp_local: the ledger's transport stage is this host's" test "$(v udp_local \
		'.linerate_ledger.stages[] | select(.stage == "transport") | .side')" = local
	check "udp_local: the next step is the socket buffer" grep -q "rmem_max" \
		<<<"$(v udp_local '.linerate_verdict.next_step')"
fi

# --- TCP through an nftables drop rule in the receiver's namespace ---
ip netns exec "$B" nft -f - <<NFT
table inet $U {
	chain in {
		type filter hook input priority 0;
		tcp dport $PORT meta length > 1000 numgen random mod 1000 < 5 counter drop
	}
}
NFT
lr_cleanup_add "ip netns exec $B nft delete table inet $U"
dsack() { ip netns exec "$A" nstat -az TcpExtTCPDSACKRecvSegs | awk '$1 ~ /DSACK/ { print $2 }'; }
ds0=$(dsack)
run tcp_drop 3
ds1=$(dsack)
dropped=$(ip netns exec "$B" nft list table inet "$U" | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
ip netns exec "$B" nft delete table inet "$U"
if window_checks tcp_drop 3 up; then
	retr=$(v tcp_drop '.end.sum_sent.retransmits')
	check "tcp_drop: the rule dropped ($dropped)" test "${dropped:-0}" -gt 0
	check "tcp_drop: the sender retransmitted ($retr)" test "${retr:-0}" -gt 0
	check "tcp_drop: the verdict takes the retransmits" \
		test "$(v tcp_drop '.linerate_verdict.loss.tcp_retransmits')" = "$retr"
	check "tcp_drop: the witness is named" grep -q "retransmitted" \
		<<<"$(v tcp_drop '.linerate_verdict.loss.witnesses')"
	# no counter read on either end saw the nft drop: unaccounted, the firewall next (with
	# TCP's ip and transport stages read at both ends, every stage is read: "no counter")
	echo "# tcp_drop: ledger retransmitted $(v tcp_drop .linerate_ledger.retransmitted), spurious" \
		"$(v tcp_drop .linerate_ledger.spurious), lost $(v tcp_drop .linerate_ledger.lost):" \
		"$(v tcp_drop '.linerate_verdict.loss.where')"
	# the retransmits the receiver D-SACKed (a few: nft drops whole GSO skbs, real loss) are
	# spurious and off the loss; the rest is what no counter saw
	lost=$(v tcp_drop .linerate_ledger.lost)
	check "tcp_drop: the ledger's retransmitted are the sender's ($retr)" \
		test "$(v tcp_drop .linerate_ledger.retransmitted)" = "$retr"
	sp=$(v tcp_drop .linerate_ledger.spurious)
	check "tcp_drop: the spurious ones are the sender kernel's D-SACKed delta ($sp of +$((ds1 - ds0)), within 2 %)" \
		awk -v a="$sp" -v b="$((ds1 - ds0))" 'BEGIN { d = a - b; exit !(a ~ /^[0-9]+$/ && d * d <= (0.02 * b + 2) ^ 2) }'
	check "tcp_drop: the place is unaccounted, of the $lost lost segments" \
		grep -qE "unaccounted: (no counter on either end saw|the counters read saw none of) the $lost lost segments" \
		<<<"$(v tcp_drop '.linerate_verdict.loss.where')"
	check "tcp_drop: the next step is the firewall" grep -q "nft list ruleset" \
		<<<"$(v tcp_drop '.linerate_verdict.next_step')"
fi

# --- TCP capped by its own -b, no loss ---
# What the verdict must say is read off the kernel, never off the test's own counts: whether -b
# reached the wire (capped_as_witnessed: 66 bytes a packet, Ethernet, IP, TCP with timestamps),
# and the namespace's TCP retransmits (RetransSegs) against that payload (the verdict's rule:
# 0.1 %, in 1448-byte segments). Retransmits under 0.05 %: the next step is to raise -b when
# capped (never "more streams"), and not when not; over 0.2 %: they speak first. Between those
# bounds the kernel cannot tell the verdict's rule apart from its own count, so the verdict must
# follow its rule on the test's own figures.
run tcp_capped 2 -b 200M
if window_checks tcp_capped 2 up; then
	capped_as_witnessed tcp_capped 200e6 2 66
	read -r _ _ _ kre <"$work/tcp_capped.kern"
	kretr=$(awk -v r="$kre" -v p="$kpay" 'BEGIN { printf "%.6f", (p > 0 ? r * 1448 / p : 1) }')
	retr=$(v tcp_capped '.end.sum_sent.retransmits')
	sent=$(v tcp_capped '.end.sum_sent.bytes')
	sent_bps=$(v tcp_capped '.end.sum_sent.bits_per_second')
	capped=$(v tcp_capped '.linerate_verdict.capped_by_bitrate')
	next=$(v tcp_capped '.linerate_verdict.next_step')
	echo "    tcp_capped: the kernel: $kpay payload bytes ($kwire of -b x -t), $kre segments retransmitted ($kretr of the payload); the test's own: $retr retransmits, $sent_bps bit/s sent; capped $capped; next: $next"
	check "tcp_capped: capped_by_bitrate as the kernel's bytes say -b reached the wire ($want_capped)" \
		test "$capped" = "$want_capped"
	if within "$kretr" 0.002 1e9; then want_next='TCP retransmitted'
	elif within "$kretr" 0.0005 0.002 && awk -v r="$retr" -v b="$sent" 'BEGIN { exit !(r * 1448 >= 0.001 * b) }'; then
		want_next='TCP retransmitted'	# the verdict's rule on its own count
	elif [ "$capped" = true ]; then want_next='raise -b'
	else want_next='not raise -b'
	fi
	next_as_witnessed() {
		case $want_next in
		'not raise -b') lacks "$next" 'raise -b' ;;
		*) has "$next" "$want_next" ;;
		esac && { [ "$capped" != true ] || lacks "$next" 'more streams'; }
	}
	check "tcp_capped: the next step as the kernel's retransmits call for ($want_next; capped: never \"more streams\")" \
		next_as_witnessed
	check "tcp_capped: the veth's 10000 Mbit/s is nominal (link kind veth)" \
		test "$(v tcp_capped '.linerate_verdict.link_nominal_why')" = veth
fi

# --- the same steady load at -i 0.01 and -i 0.5: the hottest CPU within 5 points ---
# One load, two witnesses at once (so other work on a shared host weighs on both alike): the
# test runs at -i 0.01 and its verdict names the hottest CPU's softirq over 0.5 s blocks; a
# second, independent sampler at -i 0.5 writes --cpu-csv beside it, whose busiest row inside
# the test is the same figure. Before the CPU window, -i 0.01 read 100 % (10 ms ticks).
cpu_check() {
	local t0 t1
	ip netns exec "$A" "$LR_BIN" --headless -i 0.5 -t 6 --cpu-csv "$work/cpu05.csv" \
		>/dev/null 2>&1 &
	local smp=$!
	sleep 0.8
	t0=$(date +%s.%N)
	run cpu_fast 3 -b 1G -A 1 -i 0.01
	t1=$(date +%s.%N)
	# the test is over: the witness has its rows (-t 6 only bounds it); SIGTERM ends it with
	# its CSV whole
	kill -TERM "$smp" 2>/dev/null
	wait "$smp"
	window_checks cpu_fast 3 up >/dev/null || return 2
	fast=$(v cpu_fast '.linerate_verdict.hottest_softirq_pct')
	# rows that lie inside the test: they end after it started (+ one row) and before it ended
	slow=$(awk -F, -v a="$t0" -v b="$t1" 'NR > 1 && $1 - $4 >= a + 0.2 && $1 <= b && $8 != "" {
		if ($8 > m) m = $8; n++ } END { if (n >= 3) print m + 0; else print "none" }' "$work/cpu05.csv")
	[ "$slow" != none ] || return 2
	seen="$seen ${fast%.*}/${slow%.*}"
	awk -v a="$slow" -v b="$fast" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 5) }'
}
seen=""
for try in 1 2; do	# a burst of someone else's work can land on one figure's block only
	cpu_check; rc=$?
	[ $rc = 1 ] || break
done
case $rc in
0) pass "cpu: hottest softirq at -i 0.01 (verdict) and -i 0.5 (beside it) within 5 points (%:$seen)" ;;
2) fail "cpu: both witnesses gave a CPU figure" "$(head -c 300 "$work/cpu_fast.err")" ;;
*) fail "cpu: hottest softirq at -i 0.01 (verdict) and -i 0.5 (beside it) within 5 points" "(%:$seen)" ;;
esac

lr_summary
