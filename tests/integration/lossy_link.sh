#!/usr/bin/env bash
# lossy_link: a lossy or dead link never hangs a test (issue 22). Two namespaces joined by veth,
# `linerate -s` in the server's; nftables rules in a table inside the namespaces, added and
# removed by this script while tests run. Each case checks, by wall clock and by what the kernel
# (nft counters) and the peer reported: the bound, the one-line message, the exit status, the
# CSV, and that the same server runs the next test.
#   loss5        5 % of the UDP to the server dropped, LR_LOSSY_RUNS runs (default 20, as the
#                issue asks; -t 0.5 each: the hang it guards against was in the stream setup):
#                exit 0, each within -t + 3 s, the loss reported equal to the datagrams nft dropped
#   setup_half   half of the 4-byte setup datagrams (udp length 12) dropped both ways: every run
#                completes, no setup datagram counted as data; also against a plain iperf3 -s
#   udp_dead     all UDP to the server dropped from the start: bounded, message, exit 1
#   all_dead     everything to the server dropped from the start (--connect-timeout 2000)
#   blackhole    all traffic dropped (both ways) after 1 s of a TCP test (default bounds; CSV
#                checked) and of a UDP -R test (--rcv-timeout: sooner, says where data stopped)
#   sigstop      the server process stopped mid-test (SIGCONT afterwards; --rcv-timeout 2000)
#   ctl_reset    the client's control connection reset by the server side (nft tcp reset)
#   reply_lost   every setup reply dropped, one stream: TEST_START answers (also vs iperf3 -s)
#   bh_snd       blackhole of a TCP test with --snd-timeout: the data stream fails, sooner
#   srv_rcv      `linerate -s --rcv-timeout`: UDP to it dropped mid-test, it ends the test (144)
source "$(dirname "$0")/../lib.sh"
need_root lossy_link
command -v nft >/dev/null || { skip lossy_link "nft (nftables) not installed"; exit 0; }
command -v python3 >/dev/null || { skip lossy_link "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { skip lossy_link "$LR_BIN not built"; exit 0; }

RUNS=${LR_LOSSY_RUNS:-20}
u=$(lr_uniq)
NC=${u}c NS=${u}s IC=${u}c0 IS=${u}s0 CA=10.213.22.1 SA=10.213.22.2
lr_netns_pair "$NC" "$NS" "$IC" "$IS" "$CA" "$SA" 1500 || { fail lossy_link_setup "netns"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"

# One table per namespace, chain `in` on the input hook; rules come and go with nft_set.
for ns in "$NC" "$NS"; do
	ip netns exec "$ns" nft -f - <<-'EOF' || { fail lossy_link_setup "nft table"; exit 0; }
	table inet lrlossy {
		chain in { type filter hook input priority 0; policy accept; }
	}
	EOF
done
nft_set() { # nft_set NS RULE...: the chain holds only this rule (none without RULE)
	local ns=$1; shift
	{
		echo "flush chain inet lrlossy in"
		[ $# -eq 0 ] || echo "add rule inet lrlossy in $* counter drop"
	} | ip netns exec "$ns" nft -f -
}
nft_count() { # packets the rules of NS's chain matched
	ip netns exec "$1" nft list chain inet lrlossy in |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}'
}
# What else the server's kernel dropped, in packets: UDP RcvbufErrors and the veth's rx drops.
# A packet there may be a GSO super-packet of up to 64 datagrams (the sender's UDP_SEGMENT).
# Read through the server process's /proc/PID/net (its namespace's own files): one awk, where
# `ip netns exec` per read cost a large part of each loss5 run on a loaded host.
kern_drops() {
	awk -v ifc="$IS:" '/^Udp:/ {n++; if (n == 2) s += $6}
		{sub(/^ +/, "")} index($0, ifc) == 1 {split(substr($0, length(ifc) + 1), f, " "); s += f[4]}
		END {print s + 0}' "/proc/$SPID/net/snmp" "/proc/$SPID/net/dev"
}
# nft_swap NS LEN RULE...: the IPv4 UDP datagrams of LEN payload bytes the chain dropped so far,
# then the chain holds only RULE with its counter at 0 (none without RULE): the two in one
# namespace entry. A veth carries a UDP GSO super-packet whole, so one dropped packet may be
# several datagrams: count its bytes (one 28-byte IPv4+UDP header per packet).
nft_swap() {
	local ns=$1 len=$2; shift 2
	{
		echo "flush chain inet lrlossy in"
		[ $# -eq 0 ] || echo "add rule inet lrlossy in $* counter drop"
	} | ip netns exec "$ns" sh -c 'nft list chain inet lrlossy in && nft -f -' |
		sed -n 's/.*counter packets \([0-9]*\) bytes \([0-9]*\).*/\1 \2/p' |
		awk -v len="$len" '{p += $1; b += $2} END {printf "%d\n", (b - 28 * p) / len + 0.5}'
	[ "${PIPESTATUS[1]}" -eq 0 ]
}

start_server() { # start_server [linerate|iperf3 [ARGS]]: SPID, its output in $tmp/srv*.log
	local kind=${1:-linerate}
	shift
	if [ "$kind" = iperf3 ]; then
		ip netns exec "$NS" iperf3 -s -B "$SA" >"$tmp/srv_iperf3.log" 2>&1 &
	else
		ip netns exec "$NS" "$LR_BIN" -s -B "$SA" "$@" >>"$tmp/srv.log" 2>&1 &
	fi
	SPID=$!
	lr_cleanup_add "kill -CONT $SPID 2>/dev/null; kill $SPID 2>/dev/null"
	for ((i = 0; i < 60; i++)); do
		ip netns exec "$NS" ss -Hltn "sport = :5201" | grep -q . && return 0
		sleep 0.05
	done
	return 1
}
stop_server() { kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; }

# client NAME ARGS...: runs the client, hard-capped at 40 s; sets RC, MS (wall clock), files
# $tmp/NAME.out and $tmp/NAME.err.
client() {
	local name=$1 t0=${EPOCHREALTIME/./}; shift
	ip netns exec "$NC" timeout -s KILL 40 "$LR_BIN" -c "$SA" --headless "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err"
	RC=$?
	MS=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
}
# The one line that says what failed: stderr lines that are not warnings.
errline() { grep -v '^linerate: warning:' "$tmp/$1.err"; }
one_line() { [ "$(errline "$1" | wc -l)" -eq 1 ]; }
# json NAME .a.b: a number from the client's -J output ("" when absent); jq starts in
# milliseconds where python3 takes most of a second on a loaded host
if command -v jq >/dev/null; then
	json() { jq -r "$2 // empty" "$tmp/$1.out" 2>/dev/null; }
else
	json() {
		python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.')[1:]: d = d[k]
print(d)" "$tmp/$1.out" "$2" 2>/dev/null
	}
fi

# next_ok NAME: the same server runs a 0.5 s test; while it is still ending the failed one it
# answers "busy" at once: retried for up to 15 s.
next_ok() {
	local name=$1 t0=${EPOCHREALTIME/./} waited
	for ((k = 0; k < 30; k++)); do
		client "$name.next" -t 0.5
		[ $RC -eq 0 ] && break
		grep -q busy "$tmp/$name.next.err" || break
		sleep 0.5
	done
	waited=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
	if [ $RC -eq 0 ]; then
		pass "${name}_next_test (server ready, next test done ${waited} ms after the failure)"
	else
		fail "${name}_next_test" "rc=$RC: $(head -c 300 "$tmp/$name.next.err")"
	fi
}

# bounded NAME LIMIT_MS WANT_RC PATTERN: checks a finished client run.
bounded() {
	local name=$1 limit=$2 want=$3 pat=$4
	if [ "$MS" -le "$limit" ] && [ "$RC" -eq "$want" ]; then
		pass "${name}_bound (exit $RC after $MS ms, bound $limit ms)"
	else
		fail "${name}_bound" "exit $RC (want $want) after $MS ms (bound $limit ms)"
	fi
	if one_line "$name" && errline "$name" | grep -Eq "$pat"; then
		pass "${name}_message ($(errline "$name"))"
	else
		fail "${name}_message" "want one line matching /$pat/, got: $(head -c 400 "$tmp/$name.err")"
	fi
}

# in_bg_after SEC CMD...: runs CMD after SEC seconds, in the background (BGPID).
in_bg_after() { local s=$1; shift; ( sleep "$s"; "$@" ) & BGPID=$!; lr_cleanup_add "kill $BGPID 2>/dev/null"; }

start_server || { fail lossy_link_setup "linerate -s did not listen"; exit 0; }
lap() { echo "# $1 done at ${SECONDS} s"; }

# ---- loss5: 5 % random drop of the UDP to the server ----
LEN=1200 T=0.5 worst=0 bad=0 nolost=0 detail=""
nft_swap "$NS" $LEN udp dport 5201 numgen random mod 20 == 0 >/dev/null
e1=$(kern_drops)
for ((r = 1; r <= RUNS; r++)); do
	e0=$e1
	client loss5 -u -b 50M -l $LEN -t $T -J
	# this run's drops, and a fresh rule (counter 0) for the next run
	if [ $r -lt "$RUNS" ]; then
		drops=$(nft_swap "$NS" $LEN udp dport 5201 numgen random mod 20 == 0)
	else
		drops=$(nft_swap "$NS" $LEN)
	fi
	e1=$(kern_drops)
	[ "$MS" -gt "$worst" ] && worst=$MS
	lost=$(json loss5 .end.sum.lost_packets)
	if [ $RC -ne 0 ] || [ "$MS" -gt 3500 ] || [ -z "$lost" ]; then
		bad=$((bad + 1))
		detail="$detail run $r: rc=$RC ${MS} ms lost='$lost' $(head -c 200 "$tmp/loss5.err");"
		continue
	fi
	# The receiver's loss against the kernel's count of what nft dropped (setup datagrams
	# and the trailing drops after the last datagram that arrived are not loss; socket
	# buffer overflows are)
	if [ "$lost" -lt $((drops - 20)) ] || [ "$lost" -gt $((drops + 64 * (e1 - e0) + 5)) ]; then
		nolost=$((nolost + 1))
		detail="$detail run $r: lost $lost, nft dropped $drops, other kernel drops $((e1 - e0));"
	fi
done
if [ $bad -eq 0 ]; then
	pass "loss5_runs ($RUNS runs of -t $T at 5 % drop: all exit 0, the longest ${worst} ms)"
else
	fail "loss5_runs" "$bad of $RUNS runs failed or took > $T + 3 s:$detail"
fi
if [ $bad -eq 0 ] && [ $nolost -eq 0 ]; then
	pass "loss5_loss_reported (each run's lost datagrams match what nft dropped)"
elif [ $bad -eq 0 ]; then
	fail "loss5_loss_reported" "$detail"
fi

lap loss5

# ---- setup_half: half of the setup datagrams dropped, requests (server side) and replies
# (client side); two streams so that a lost reply to the first one needs the server's answer
# to the resend ----
setup_half() { # setup_half NAME RUNS ARGS...
	local name=$1 n=$2 ok=0 tries=0 notdata=0 worst=0 detail="" f r; shift 2
	nft_set "$NS" udp dport 5201 udp length 12 numgen random mod 2 == 0
	nft_set "$NC" udp sport 5201 udp length 12 numgen random mod 2 == 0
	# the drops are random: two runs of at least 8 setup datagrams all passed once (pre-check
	# 20, p = 1/256), so up to 4 more runs until nft has dropped one
	for ((r = 1; r <= n || (tries == 0 && r <= n + 4); r++)); do
		client "$name" -u -b 10M -l $LEN -t 1 -P 2 -J "$@"
		[ "$MS" -gt "$worst" ] && worst=$MS
		if [ $RC -eq 0 ]; then
			ok=$((ok + 1))
			# a setup datagram counted as data would leave 4 bytes over
			for f in sum_received sum_sent; do
				b=$(json "$name" ".end.$f.bytes")
				[ -n "$b" ] && [ $((b % LEN)) -eq 0 ] || { notdata=$((notdata + 1)); detail="$detail run $r: $f bytes $b;"; }
			done
		else
			detail="$detail run $r: rc=$RC ${MS} ms $(head -c 200 "$tmp/$name.err");"
		fi
		tries=$(( $(nft_count "$NS") + $(nft_count "$NC") ))
	done
	n=$((r - 1))
	nft_set "$NS"; nft_set "$NC"
	if [ $ok -eq "$n" ] && [ "$tries" -gt 0 ]; then
		pass "${name}_completes ($n runs, $tries setup datagrams dropped by nft, the longest ${worst} ms)"
	elif [ "$tries" -eq 0 ]; then
		fail "${name}_completes" "nft dropped no setup datagram: the case did not happen"
	else
		fail "${name}_completes" "$ok of $n runs completed:$detail"
	fi
	if [ $ok -gt 0 ] && [ $notdata -eq 0 ]; then
		pass "${name}_not_data (every byte count a multiple of -l $LEN)"
	elif [ $ok -gt 0 ]; then
		fail "${name}_not_data" "$detail"
	fi
}
setup_half setup_half 3
setup_half setup_half_rev 2 -R

# reply_lost: every setup reply dropped (client side); one stream, so TEST_START on the control
# connection is the only answer the client gets (a plain iperf3 server never answers a resend)
reply_lost() { # reply_lost NAME ARGS...
	local name=$1; shift
	nft_set "$NC" udp sport 5201 udp length 12
	client "$name" -u -b 10M -l $LEN -t 1 -J "$@"
	n=$(nft_count "$NC")
	nft_set "$NC"
	if [ $RC -eq 0 ] && [ "$n" -gt 0 ] && [ "$MS" -le 4000 ]; then
		pass "$name (nft dropped $n replies; done in $MS ms)"
	else
		fail "$name" "rc=$RC after $MS ms, $n replies dropped: $(head -c 300 "$tmp/$name.err")"
	fi
}
reply_lost reply_lost
reply_lost reply_lost_rev -R

lap setup_half

# ---- udp_dead: all UDP to the server dropped from the start ----
nft_set "$NS" meta l4proto udp
client udp_dead -u -b 10M -t 2
n=$(nft_count "$NS")
nft_set "$NS"
bounded udp_dead 12000 1 "setup of UDP data stream 1"
[ "$n" -gt 1 ] && pass "udp_dead_resent (nft dropped $n setup datagrams)" ||
	fail "udp_dead_resent" "nft dropped $n datagrams: no resend"
next_ok udp_dead

# everything to the server dropped from the start: the control connect ends at --connect-timeout
nft_set "$NS" meta l4proto '{ tcp, udp }'
client all_dead -t 2 --connect-timeout 2000
n=$(nft_count "$NS")
nft_set "$NS"
bounded all_dead 4000 1 "cannot connect to .*no answer within 2.0 s \(--connect-timeout\)"
[ "$n" -gt 0 ] && pass "all_dead_dropped (nft dropped $n SYNs)" || fail "all_dead_dropped" "nothing dropped"

lap udp_dead

# ---- blackhole: every packet between the two dropped after 1 s ----
blackhole() { nft_set "$NS" meta l4proto '{ tcp, udp }' && nft_set "$NC" meta l4proto '{ tcp, udp }'; }
in_bg_after 1 blackhole
client bh_tcp -t 2 --csv "$tmp/bh.csv" --streams-csv "$tmp/bh_streams.csv"
wait $BGPID
nft_set "$NS"; nft_set "$NC"
bounded bh_tcp 12000 1 "went silent|acknowledged nothing|reset"
python3 - "$tmp/bh.csv" "$tmp/bh_streams.csv" <<'PY' && pass "bh_tcp_csv (both CSVs whole: a header, rows, every row complete)" || fail "bh_tcp_csv" "$(cat "$tmp/csv.why" 2>/dev/null)"
import sys
why = open(sys.argv[1].rsplit("/", 1)[0] + "/csv.why", "w")
for path, first in ((sys.argv[1], "time,elapsed,iface,"), (sys.argv[2], "time,elapsed,stream,")):
    data = open(path).read()
    lines = data.split("\n")
    if not data.endswith("\n") or not lines[0].startswith(first):
        why.write(f"{path}: header {lines[0][:40]!r}, ends with newline: {data.endswith(chr(10))}"); sys.exit(1)
    rows = [l for l in lines[1:] if l]
    n = lines[0].count(",")
    if len(rows) < 2 or any(r.count(",") != n for r in rows):
        why.write(f"{path}: {len(rows)} rows, field counts {set(r.count(',') for r in rows)} vs {n}"); sys.exit(1)
PY
next_ok bh_tcp

# UDP -R with --rcv-timeout: ends sooner, and says where the data stopped
in_bg_after 1 blackhole
client bh_udp -u -R -b 10M -t 4 --rcv-timeout 1500
wait $BGPID
nft_set "$NS"; nft_set "$NC"
bounded bh_udp 4500 1 "no data from the server for 1.5 s"
# the rule goes in ~1 s after the client started (nft itself takes a moment on a loaded host),
# its test began after the setup (~0.1-0.3 s)
if errline bh_udp | grep -Eq "arrived (0\.[5-9]|1\.[0-5])[0-9]* s into the test"; then
	pass "bh_udp_where (the message says the data stopped ~1 s in)"
else
	fail "bh_udp_where" "$(errline bh_udp)"
fi
next_ok bh_udp

# TCP with --snd-timeout: the data stream fails once the server acknowledges nothing for 1 s
in_bg_after 1 blackhole
client bh_snd -t 5 --snd-timeout 1000
wait $BGPID
nft_set "$NS"; nft_set "$NC"
bounded bh_snd 4000 1 "acknowledged nothing for 1000 ms \(--snd-timeout\)"
next_ok bh_snd

lap blackhole

# ---- sigstop: the server process stopped mid-test ----
in_bg_after 1 kill -STOP "$SPID"
client sigstop -t 2 --rcv-timeout 2000
wait $BGPID
kill -CONT "$SPID"
bounded sigstop 5000 1 "went silent.*--rcv-timeout"
next_ok sigstop

lap sigstop

# ---- ctl_reset: the control connection reset (TCP test: the data connections stay) ----
in_bg_after 1 sh -c "port=\$(sed -n 's/.*accepted test from .*\]*:\([0-9]*\)\$/\1/p' '$tmp/srv.log' | tail -1); ip netns exec '$NS' nft flush chain inet lrlossy in; ip netns exec '$NS' nft add rule inet lrlossy in ip saddr $CA tcp sport \$port counter reject with tcp reset"
client ctl_reset -t 2
wait $BGPID
n=$(nft_count "$NS")
nft_set "$NS"
bounded ctl_reset 5000 1 "reset"
[ "$n" -gt 0 ] && pass "ctl_reset_happened (nft reset $n packets)" || fail "ctl_reset_happened" "the rule matched nothing"
next_ok ctl_reset

lap ctl_reset

# ---- the server's own --rcv-timeout: data to it dropped after 1 s, the control connection up
stop_server
if start_server linerate --rcv-timeout 1500; then
	in_bg_after 1 nft_set "$NS" meta l4proto udp
	client srv_rcv -u -b 10M -t 5
	wait $BGPID
	nft_set "$NS"
	bounded srv_rcv 4000 1 "iperf3 error 144: it received no data for its --rcv-timeout"
	if grep -q "no data for 1.5 s (--rcv-timeout); ended" "$tmp/srv.log"; then
		pass "srv_rcv_logged (the server says why it ended the test)"
	else
		fail "srv_rcv_logged" "$(tail -3 "$tmp/srv.log")"
	fi
	next_ok srv_rcv
else
	fail srv_rcv "linerate -s --rcv-timeout 1500 did not listen"
fi

# ---- against a plain iperf3 server: resent setup datagrams (requests lost) ----
if command -v iperf3 >/dev/null; then
	stop_server
	if start_server iperf3; then
		nft_set "$NS" udp dport 5201 udp length 12 numgen random mod 2 == 0
		ok=0 n=3 detail=""
		for ((r = 1; r <= n; r++)); do
			client setup_iperf3 -u -b 10M -l $LEN -t 1 -P 2
			[ $RC -eq 0 ] && ok=$((ok + 1)) || detail="$detail run $r: rc=$RC $(head -c 200 "$tmp/setup_iperf3.err");"
		done
		dropped=$(nft_count "$NS")
		nft_set "$NS"
		if [ $ok -eq $n ] && [ "$dropped" -gt 0 ]; then
			pass "setup_half_iperf3 ($n runs against iperf3 -s, $dropped setup requests dropped)"
		elif [ "$dropped" -eq 0 ]; then
			fail "setup_half_iperf3" "nft dropped nothing: the case did not happen"
		else
			fail "setup_half_iperf3" "$ok of $n completed:$detail"
		fi
		reply_lost reply_lost_iperf3
	else
		fail setup_half_iperf3 "iperf3 -s did not listen"
	fi
	stop_server
else
	skip setup_half_iperf3 "iperf3 not installed"
fi
stop_server
# a sanitizer build (LR_BUILD=build-asan) reports on stderr and may still exit 0
if grep -l -E "runtime error|Sanitizer" "$tmp"/*.err "$tmp"/srv*.log >/dev/null 2>&1; then
	fail sanitizer_clean "$(grep -h -m3 -E "runtime error|Sanitizer" "$tmp"/*.err "$tmp"/srv*.log)"
else
	pass sanitizer_clean
fi
lr_summary
