#!/usr/bin/env bash
# A reverse UDP test with a byte or block count ends when datagrams are lost (issue 30):
# `-u -b 100M -R -n 5M` and `-u -b 100M -R -k 1K` over a veth pair whose client end drops 1 in
# 100 of the data datagrams (nft, counted). iperf3's client ends such a test when it has
# received the count; its paced server sends on until TEST_END, so loss only makes the test a
# little longer. A linerate server that stopped at exactly the count left the client waiting for
# bytes that were lost (killed by timeout). Pairs: linerate -c against iperf3 3.12, 3.18, 3.22
# and linerate -s; iperf3 3.18 and 3.22 -c against linerate -s. Witnesses, none of them
# linerate's arithmetic: the client's exit status 0 within the outer bound (below); the client
# (the receiver) received at least the count, as iperf3's end condition asks; the server's own
# sent count is what nft saw arrive (dropped + passed, one rule each); what the client received
# is what passed less the kernel's RcvbufErrors: exactly for a linerate client, which reads on
# until the server stopped; at most that for iperf3, which counts nothing after its TEST_END.
# One more case: a sender that does stop at the count, iperf3 3.22 -s unpaced (`-b 0`: iperf3
# checks the count in its multi-send loop only): a datagram lost there is never made up, and
# iperf3 3.22's own client waits for it until --rcv-timeout (120 s). linerate -c ends when the
# sequence numbers say the count was sent and the link went quiet: it received exactly what
# passed, less than the count. Bound: the count at -b, plus 1 s (iperf3 3.16+ clients look at
# the count only on their 1 s report tick), plus 5 s of setup and end (a loaded host); a hang
# is killed at 15 s. Root only.
. "$(dirname "$0")/../lib.sh"
RUNS=()	# "CLIENT SERVER ARGS": lr, or the iperf3 build of that Debian suite
for p in "lr bookworm" "lr trixie" "lr sid" "lr lr" "trixie lr" "sid lr"; do
	RUNS+=("$p -b 100M -n 5M" "$p -b 100M -k 1K")
done
RUNS+=("lr sid -b 0 -k 1K")	# the sender that stops at the count
# shellcheck disable=SC2086	# "CLIENT SERVER ARGS" splits into words on purpose
for r in "${RUNS[@]}"; do set -- $r; lr_plan "udp count lossy: $1-$2 ${r#* * }"; done
need_root udp_count_lossy
command -v python3 >/dev/null || { lr_skip_plan udp_count_lossy "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan udp_count_lossy "$LR_BIN not built"; exit 0; }

PORT=5566
id=$(lr_uniq) nc=${id}c ns=${id}s
lr_netns_pair "$nc" "$ns" vc"$id" vs"$id" 10.77.1.1 10.77.1.2 1500 ||
	{ lr_skip_plan udp_count_lossy "netns"; exit 0; }
# linerate sends UDP in GSO trains (one skb of many datagrams) that a veth passes whole: the
# server's end segments them, so nft sees, drops and counts datagrams, as a wire would carry them
ip netns exec "$ns" ethtool -K vs"$id" tx-udp-segmentation off >/dev/null 2>&1 ||
	{ lr_skip_plan udp_count_lossy "ethtool cannot turn the veth's UDP segmentation off"; exit 0; }
# 1 in 100 datagrams from the server's port, in the client's namespace: the reverse data
lr_nft_udp_drop "$nc" lrlossy "$PORT" 100 sport ||
	{ lr_skip_plan udp_count_lossy "nft cannot drop here"; exit 0; }
# and a second rule counts the data datagrams that passed: dropped + passed is what arrived
ip netns exec "$nc" nft add rule inet lrlossy in udp sport "$PORT" udp length \> 100 counter accept ||
	{ lr_skip_plan udp_count_lossy "nft cannot count here"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"

# nft's counters: "DROPPED PASSED" data datagrams
counters() {
	ip netns exec "$nc" nft list table inet lrlossy |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p' | tr '\n' ' '
}
# the client kernel's own drops: a full receive buffer (Udp RcvbufErrors)
rcvbuf_errors() { ip netns exec "$nc" awk '/^Udp:/ { if (h) print $6; else h = 1 }' /proc/net/snmp; }

# end SIDE: the command that runs that side (lr, or an iperf3 suite's build)
end_cmd() {
	if [ "$1" = lr ]; then echo "$LR_BIN"; else echo "${iperf3_dir[$1]:+${iperf3_dir[$1]}/}iperf3"; fi
}
declare -A iperf3_dir iperf3_ver
for s in bookworm trixie sid; do
	d=$(lr_iperf3_path "$s") || continue
	iperf3_dir[$s]=$d iperf3_ver[$s]=$(lr_iperf3_version "$s")
done
name_of() { if [ "$1" = lr ]; then echo linerate; else echo "iperf3 ${iperf3_ver[$1]}"; fi; }

for r in "${RUNS[@]}"; do
	# shellcheck disable=SC2086
	set -- $r
	cs=$1 ss=$2 m=${r#* * } missing=
	for e in "$cs" "$ss"; do
		[ "$e" = lr ] || [ -n "${iperf3_ver[$e]:-}" ] || missing=$e
	done
	name="udp count lossy: $cs-$ss $m"
	if [ -n "$missing" ]; then
		skip "$name" "iperf3 build '$missing' not installed (scripts/upstream-iperf3.sh)"
		continue
	fi
	read -r d0 a0 <<<"$(counters)"
	r0=$(rcvbuf_errors)
	ip netns exec "$ns" "$(end_cmd "$ss")" -s -1 -p "$PORT" >"$tmp/s.out" 2>&1 &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	if ! lr_wait_listen "$PORT" "$ns" 100; then
		kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
		fail "$name" "$(name_of "$ss") server did not listen"; continue
	fi
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	ip netns exec "$nc" timeout 15 "$(end_cmd "$cs")" -c 10.77.1.2 -p "$PORT" -J -u \
		-R $m >"$tmp/c.json" 2>"$tmp/c.err"
	rc=$?
	t1=$(date +%s.%N)
	for _ in $(seq 30); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null	# -s -1 has ended by now
	read -r d1 a1 <<<"$(counters)"
	r1=$(rcvbuf_errors)
	echo "# $(name_of "$cs") -c -R $m -> $(name_of "$ss") -s: exit $rc in $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") s, nft dropped $((d1 - d0)) passed $((a1 - a0)), RcvbufErrors +$((r1 - r0))"
	out=$(python3 - "$tmp/c.json" "$rc" "$t0" "$t1" "$((d1 - d0))" "$m" "$((r1 - r0))" "$((a1 - a0))" "$cs" <<'PY'
import json, sys
f, rc, t0, t1, drop, mode, rbe, passed, client = sys.argv[1:]
rc, took, drop, rbe, passed = int(rc), float(t1) - float(t0), int(drop), int(rbe), int(passed)
_, rate, num, unit = mode.split()
rate_bps = int(rate.rstrip("M")) * 1000000
if rc != 0:
    print("BAD exit status %d after %.1f s%s" % (rc, took, " (killed: the hang)" if rc == 124 else ""))
    sys.exit(0)
try:
    j = json.load(open(f))
    blk = j["start"]["test_start"]["blksize"]
    sent = j["end"]["sum_sent"]["bytes"]          # the server's own count (results exchange)
    got = j["end"]["sum_received"]["bytes"]       # the client's own count
except Exception as e:
    print("BAD no result in the client's -J: %s" % e)
    sys.exit(0)
count = int(unit[:-1]) * (1 << 20 if unit.endswith("M") else 1 << 10)
if num == "-k":
    count *= blk
bound = (count * 8 / rate_bps if rate_bps else 0) + 1 + 5
# read after the receiver stopped counting: an iperf3 client counts nothing after its TEST_END,
# so what the server sent while TEST_END reached it is never counted (how much depends on the
# host's scheduling: shown, not judged); a linerate client reads on until the server has
# stopped (docs/wire.md §5), so it counts every datagram that arrived
late = passed - rbe - got // blk
late_max = 0 if client == "lr" else passed
txt = ("received %d, server sent %d, nft dropped %d passed %d x %d, RcvbufErrors +%d, %d read "
       "after TEST_END, %.2f s" % (got, sent, drop, passed, blk, rbe, late, took))
if took > bound:
    print("BAD took %.2f s, bound %.2f s: %s" % (took, bound, txt))
elif drop == 0:
    print("BAD nft dropped nothing: the loss this test is about did not happen: " + txt)
elif rate_bps and got < count:
    print("BAD received less than the count %d: %s" % (count, txt))
elif not rate_bps and (sent < count or got >= count):
    print("BAD not a sender that stopped at the count %d, or no loss at its end: %s"
          % (count, txt))
elif sent != (drop + passed) * blk:
    print("BAD the server's sent count is not what reached the client's namespace: " + txt)
elif got % blk or late < 0 or late > late_max:
    print("BAD received is not what passed nft less RcvbufErrors%s: %s"
          % ("" if late_max == 0 else " or less", txt))
else:
    print("OK " + txt)
PY
)
	case $out in
	OK*) pass "$name: $(name_of "$cs") -> $(name_of "$ss"): ${out#OK }" ;;
	*) fail "$name" "$(name_of "$cs") -> $(name_of "$ss"): ${out#BAD }"; sed 's/^/#   /' "$tmp/c.err" | head -3 ;;
	esac
done
lr_summary
