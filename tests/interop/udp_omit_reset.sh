#!/usr/bin/env bash
# -O on a UDP server resets the per-stream stats at the omit mark, as iperf3's reset does
# (issue 10): iperf3 3.12 -c -u -O 1 -> linerate -s, and the same against iperf3 -s beside it,
# on the loopback of a fresh namespace.
# - jitter: nft zeroes the microseconds of the send time in the iperf3 header of every odd-numbered one
#   of the first 10 datagrams (20/s; the header's sequence number picks them), all within the
#   omitted second: their transit looks up to 1 s longer, a jitter of ~100 ms at the mark. The
#   jitter the server reports after the mark is no more than iperf3 -s reports + 2 ms (iperf3
#   times its reads, linerate takes the kernel's arrival stamps: lower under load); without
#   the reset tens of ms of it are still there after 20 more datagrams.
# - loss: nft drops (at input) the odd-numbered ones of the first 50 datagrams (100/s), again all in
#   the omitted second (its counter is the witness that it did); both servers report 0 lost
#   after the mark, and as many packets as the client sent after it. Root only.
. "$(dirname "$0")/../lib.sh"
lr_plan "omit jitter: lr -s vs iperf3 -s" "omit loss: lr -s 0 lost after the mark" \
	"omit loss: iperf3 -s reference" "omit loss: packets after the mark"
need_root udp_omit_reset
command -v iperf3 >/dev/null || { lr_skip_plan udp_omit_reset "iperf3 not installed"; exit 0; }
command -v nft >/dev/null || { lr_skip_plan udp_omit_reset "nft not installed"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan udp_omit_reset "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan udp_omit_reset "$LR_BIN not built"; exit 0; }

PORT=5562
ns=$(lr_uniq)o
lr_netns_lo "$ns" || { lr_skip_plan udp_omit_reset "netns"; exit 0; }
tmp=$(mktemp -d); [ -n "$LR_KEEP" ] || lr_cleanup_add "rm -rf $tmp"; [ -n "$LR_KEEP" ] && echo "# $tmp"
in_ns() { ip netns exec "$ns" "$@"; }

wait_listen() { lr_wait_listen "$PORT" "$ns" 60; }

# The iperf3 header's sequence number (u32 at payload offset 8: bits 128..159 of the transport
# header) picks the datagrams the impairment applies to: no race with the server's mark.
SEQ='@th,128,32'

# run SERVER(lr|i3) MODE(jitter|loss) TAG: one iperf3 -c -u -O 1 -t 1 test.
run() {
	local s=$1 mode=$2 tag=$3 spid
	in_ns nft delete table inet lrom 2>/dev/null
	if [ "$mode" = loss ]; then
		in_ns nft -f - <<EOF
table inet lrom {
	chain imp { type filter hook input priority 0;
		udp dport $PORT udp length > 100 $SEQ <= 50 @th,159,1 == 1 counter drop; }
}
EOF
		args=(-b 800K)	# 100 datagrams/s
	else
		in_ns nft add table inet lrom
		in_ns nft add chain inet lrom imp '{ type filter hook output priority 0; }'
		in_ns nft add rule inet lrom imp udp dport $PORT udp length '>' 100 $SEQ '<=' 10 \
			@th,159,1 == 1 counter @th,96,32 set 0
		args=(-b 160K)	# 20 datagrams/s
	fi
	if [ "$s" = lr ]; then
		in_ns "$LR_BIN" -s -1 -p "$PORT" -J >"$tmp/s-$tag.json" 2>"$tmp/s-$tag.err" &
	else
		in_ns iperf3 -s -1 -p "$PORT" -J >"$tmp/s-$tag.json" 2>"$tmp/s-$tag.err" &
	fi
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen || { echo "server did not listen" >"$tmp/c-$tag.json"; kill "$spid"; return; }
	in_ns timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -u -l 1000 "${args[@]}" -t 1 -O 1 -J \
		>"$tmp/c-$tag.json" 2>&1
	wait "$spid" 2>/dev/null
	in_ns nft list chain inet lrom imp | awk '/counter packets/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }' >"$tmp/hits-$tag"
}

# prints "jitter_ms lost packets client_packets" as the server reported them (its own -J)
# and the iperf3 client's sender packets after the mark
summary() {
	python3 - "$tmp/s-$1.json" "$tmp/c-$1.json" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))["end"]["sum"]
    c = json.load(open(sys.argv[2]))["end"]["sum"]
    print("%.3f %d %d %d" % (s["jitter_ms"], s["lost_packets"], s["packets"], c["packets"]))
except Exception as e:
    print("ERR %s" % e)
PY
}

run lr jitter lj; lj=$(summary lj)
run i3 jitter ij; ij=$(summary ij)
echo "# jitter case (jitter_ms lost packets client_packets): linerate -s $lj; iperf3 -s $ij (headers changed: $(cat "$tmp/hits-lj" 2>/dev/null), $(cat "$tmp/hits-ij" 2>/dev/null))"
case "$lj $ij" in
*ERR*) fail "omit jitter: lr -s vs iperf3 -s" "no result: lr $lj; iperf3 $ij" ;;
*) set -- $lj; a=$1; set -- $ij; b=$1
	hl=$(cat "$tmp/hits-lj" 2>/dev/null) hi=$(cat "$tmp/hits-ij" 2>/dev/null)
	if [ "${hl:-0}" -eq 0 ] || [ "${hi:-0}" -eq 0 ]; then
		fail "omit jitter: lr -s vs iperf3 -s" "nft changed nothing (${hl:-?}, ${hi:-?}): the case tested nothing"
	elif awk -v a="$a" -v b="$b" 'BEGIN { exit !(a - b < 2.0) }'; then
		pass "omit jitter: lr -s vs iperf3 -s: $a ms against iperf3's $b ms after the omitted second"
	else
		fail "omit jitter: lr -s vs iperf3 -s" "linerate -s reports $a ms, iperf3 -s $b ms (the omitted second's jitter kept?)"
	fi ;;
esac

run lr loss ll; ll=$(summary ll)
run i3 loss il; il=$(summary il)
dl=$(cat "$tmp/hits-ll" 2>/dev/null) di=$(cat "$tmp/hits-il" 2>/dev/null)
echo "# loss case (jitter_ms lost packets client_packets): linerate -s $ll (nft dropped ${dl:-?} in the omitted second); iperf3 -s $il (dropped ${di:-?})"
check_loss() {	# NAME RESULT DROPS
	local name=$1 res=$2 drops=$3
	case $res in ERR*) fail "$name" "no result: $res"; return ;; esac
	set -- $res
	if [ "${drops:-0}" -eq 0 ]; then
		fail "$name" "the nft rule dropped nothing: the case tested nothing"
	elif [ "$2" -eq 0 ]; then
		pass "$name: 0 lost after the mark ($drops dropped before it)"
	else
		fail "$name" "$2 lost after the mark (nft dropped $drops before it, none after)"
	fi
}
check_loss "omit loss: lr -s 0 lost after the mark" "$ll" "$dl"
check_loss "omit loss: iperf3 -s reference" "$il" "$di"
case $ll in
ERR*) fail "omit loss: packets after the mark" "no result" ;;
*) set -- $ll
	if [ $(( $3 > $4 ? $3 - $4 : $4 - $3 )) -le 2 ]; then
		pass "omit loss: packets after the mark: server $3, iperf3 client sent $4"
	else
		fail "omit loss: packets after the mark" "server counted $3, the iperf3 client sent $4"
	fi ;;
esac
lr_summary
