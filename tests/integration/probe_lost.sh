#!/usr/bin/env bash
# probe_lost: latency probes whose answers the link loses (docs/wire.md §L4) are counted lost,
# never as a round trip, and only once their 2 s are up. A linerate server in one namespace of
# a veth pair, a linerate client -t 3 -d in the other, whose input an nftables rule cuts for
# every UDP datagram (the probes' answers; the test is TCP), counting them. Witnesses: the
# rule's own counter and the server's own count of answers (its log), against the client's
# engine line (-d): every probe the client sent was answered by the server and dropped by the
# rule; none came back as a latency; those sent more than 2 s before the end are lost, the
# rest of the last 2 s still in flight (not lost early). ~6 s.
source "$(dirname "$0")/../lib.sh"
lr_plan "probe_lost: the test itself ran (exit 0)" \
	"probe_lost: the server answered every probe the client sent" \
	"probe_lost: nftables dropped every answer the server sent" \
	"probe_lost: no answer reached the client, no round trip counted" \
	"probe_lost: probes older than 2 s lost, the last 2 s in flight"
need_root probe_lost
command -v nft >/dev/null || { lr_skip_plan probe_lost "nft not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan probe_lost "$LR_BIN not built"; exit 0; }

u=$(lr_uniq)
C=${u}c S=${u}s ADDR_C=10.216.0.1 ADDR_S=10.216.0.2
work=$(mktemp -d /tmp/lr_probe_lost.XXXXXX)
[ -n "${LR_KEEP:-}" ] && echo "# work dir $work" || lr_cleanup_add "rm -rf $work"
lr_netns_pair "$C" "$S" "${u}x" "${u}y" "$ADDR_C" "$ADDR_S" 1500
ip netns exec "$C" nft -f - <<'NFT'
table inet lrprobe {
	counter answers {}
	chain in {
		type filter hook input priority 0;
		meta l4proto udp counter name answers drop
	}
}
NFT
lr_bg ip netns exec "$S" timeout 20 "$LR_BIN" -s -1 >"$work/srv.log" 2>&1
srv=$LR_PID
lr_wait_listen 5201 "$S"
ip netns exec "$C" timeout 20 "$LR_BIN" --headless -c "$ADDR_S" -t 3 -b 10M -d \
	>"$work/cli.out" 2>"$work/cli.err"
rc=$?
wait "$srv" 2>/dev/null
check "probe_lost: the test itself ran (exit 0)" test "$rc" = 0

line=$(grep -m1 'latency probes: sent' "$work/cli.err")
echo "# client: $line"
num() { sed -n "s/.*[ (]$1 \([0-9]*\).*/\1/p" <<<"$line"; }
sent=$(num sent) answered=$(num answered) idle=$(num idle) load=$(num load) lost=$(num lost)
inflight=$(sed -n 's/.*in flight \([0-9]*\).*/\1/p' <<<"$line")
served=$(sed -n 's/.*: \([0-9]*\) latency probes answered.*/\1/p' "$work/srv.log")
dropped=$(ip netns exec "$C" nft list counter inet lrprobe answers |
	sed -n 's/.*packets \([0-9]*\).*/\1/p')
echo "# server answered ${served:-?}, nftables dropped ${dropped:-?}"
if [ -n "$sent" ] && [ "$sent" -gt 0 ] && [ "$served" = "$sent" ]; then
	pass "probe_lost: the server answered every probe the client sent"
else
	fail "probe_lost: the server answered every probe the client sent" \
		"client sent '${sent:-}', server answered '${served:-}'"
fi
check "probe_lost: nftables dropped every answer the server sent" \
	test -n "$dropped" -a "$dropped" = "$served"
check "probe_lost: no answer reached the client, no round trip counted" \
	test "$answered" = 0 -a "$idle" = 0 -a "$load" = 0
# -t 3 and a 2 s timeout: about a third of the probes are lost by the end, the rest in flight
if [ -n "$lost" ] && [ "$lost" -gt 0 ] && [ "$inflight" -gt 0 ] &&
	[ $((lost + inflight)) = "$sent" ]; then
	pass "probe_lost: probes older than 2 s lost, the last 2 s in flight"
else
	fail "probe_lost: probes older than 2 s lost, the last 2 s in flight" "$line"
fi
lr_summary
