#!/usr/bin/env bash
# The peer view (docs/design.md §10, docs/wire.md (part 2)) through a veth between two network namespaces,
# the server's under its own host name (unshare -u): the peer's CSV rows equal the peer kernel's
# counter deltas over the test (read by `ip -s -j link` around it, the independent witness),
# UDP and TCP -R; peer CPU rows for every CPU; the host column right on both sides; plain
# iperf3 in either role sees nothing new; --no-peer-stats shares nothing; a hostile "server"
# feeding garbage, huge or endless frames cannot crash, bloat or wedge the client.
source "$(dirname "$0")/../lib.sh"
for c in udp tcp-R tcp-bidir; do
	lr_plan "$c: client exits 0" "$c: server offered and a channel came" \
		"$c: peer rx_bytes == peer kernel delta" "$c: peer tx_bytes == peer kernel delta" \
		"$c: peer rx_packets == peer kernel delta" "$c: peer tx_packets == peer kernel delta" \
		"$c: peer rows carry host peerhost" "$c: local rows carry the local host" \
		"$c: peer CPU rows for every peer CPU" "$c: peer rows inside the local run" \
		"$c: peer CPU rows' steal_pct empty (the wire has no steal: unknown, never 0)" \
		"$c: no sanitizer report (client, server)"
done
lr_plan "hostile backwards: the test still completes (exit 0)" \
	"hostile backwards: no huge value from shrinking counters"
lr_plan "rcvbuf: the receiver's socket drops were forced (peer kernel)" \
	"rcvbuf: the report names the receiver peerhost and its RcvbufErrors" \
	"rcvbuf: -J linerate_peer.stack.udp_rcvbuf_errors == peer kernel delta" \
	"rcvbuf: -J peer peak_rx_bps >= the peer kernel's mean rate over the test" \
	"rcvbuf: -J peer rx_bytes total == peer kernel delta"
lr_plan "no-peer-stats: client exits 0" "no-peer-stats: no peer rows" "no-peer-stats: server sent no offer" \
	"iperf3 -s: linerate client exits 0" "iperf3 -s: no peer rows, local rows there" \
	"iperf3 -c: plain client against linerate -s exits 0" "iperf3 -c: server offered nothing" \
	"iperf3 -c: no connection beyond the test's"
for m in garbage huge endless silent; do
	lr_plan "hostile $m: the test still completes (exit 0)" "hostile $m: client ends in bounded time" \
		"hostile $m: no crash" "hostile $m: memory stays bounded" "hostile $m: no peer rows from it"
	[ $m = silent ] || lr_plan "hostile $m: the channel is dropped with a warning"
done
for m in stall badtag badcookie twice; do
	lr_plan "hostile client $m: its test completes" "hostile client $m: the server serves the next test with peer rows"
done
lr_plan "hostile client twice: the second channel is closed at once" \
	"hostile clients: no sanitizer report from the server"
need_root "peer_view"
command -v iperf3 >/dev/null || { lr_skip_plan peer_view "iperf3 not installed (scripts/deps.sh)"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan peer_view "python3 not installed"; exit 0; }

u=$(lr_uniq)
A=${u}A S=${u}S IA=${u}a IS=${u}s
ADDR_A=10.203.0.1 ADDR_S=10.203.0.2
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"
lr_netns_pair "$A" "$S" "$IA" "$IS" "$ADDR_A" "$ADDR_S" 1500
for ns in "$A" "$S"; do ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
mac_s=$(ip -n "$S" -o link show "$IS" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
mac_a=$(ip -n "$A" -o link show "$IA" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$A" neigh replace "$ADDR_S" lladdr "$mac_s" dev "$IA" nud permanent
ip -n "$S" neigh replace "$ADDR_A" lladdr "$mac_a" dev "$IS" nud permanent
local_host=$(uname -n)
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)

kstats() {	# NS IF -> "rx_bytes tx_bytes rx_packets tx_packets" from ip -s -j link
	ip -n "$1" -s -j link show dev "$2" | python3 -c '
import json, sys
s = json.load(sys.stdin)[0]["stats64"]
print(s["rx"]["bytes"], s["tx"]["bytes"], s["rx"]["packets"], s["tx"]["packets"])'
}
csv_sum() {	# FILE IF COLUMN SIDE -> sum of COLUMN over that side's rows of IF
	awk -F, -v ifc="$2" -v col="$3" -v side="$4" '
		NR==1 { for (i = 1; i <= NF; i++) { if ($i == col) c = i; if ($i == "side") sd = i }; next }
		$3 == ifc && $sd == side { s += $c } END { printf "%d\n", s }' "$1"
}
col_values() {	# FILE COLUMN SIDE -> sorted unique values of COLUMN in SIDE's rows
	awk -F, -v col="$2" -v side="$3" '
		NR==1 { for (i = 1; i <= NF; i++) { if ($i == col) c = i; if ($i == "side") sd = i }; next }
		$sd == side { print $c }' "$1" | sort -u
}
start_server() {	# LOG [ARGS...]: linerate -s -1 in S under the host name peerhost
	local log=$1; shift
	ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -1 $*" >"$log" 2>&1 &
	srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
	lr_wait_listen 5201 "$S"
}
stop_server() { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; }

# The peer kernel's deltas against the peer rows. The witness brackets the whole test; the rows
# run from the server's first reading (before any data byte: when it offered) to its last
# (after the streams stopped), so the control connection's first and last exchanges (cookie,
# params; results, FINs) fall outside them: a few dozen packets at most, never data.
within() {	# KERNEL CSV MAXDIFF
	[ "$2" -gt 0 ] && [ "$2" -le "$1" ] && [ $(($1 - $2)) -le "$3" ]
}

run_case() {	# NAME CLIENT-ARGS...
	local name=$1; shift
	local f="$work/$name.csv" g="$work/$name-cpu.csv" slog="$work/$name-srv.log"
	start_server "$slog"
	local before after rc t0 t1
	before=($(kstats "$S" "$IS"))
	t0=$(date +%s.%N)
	ip netns exec "$A" timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -t 2 -i 0.2 --csv "$f" \
		--cpu-csv "$g" "$@" >"$work/$name.out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	stop_server
	after=($(kstats "$S" "$IS"))
	check "$name: client exits 0" [ "$rc" -eq 0 ]
	check "$name: server offered and a channel came" grep -q "sharing this host's samples" "$slog"
	local i col kd cs
	local cols=(rx_bytes tx_bytes rx_packets tx_packets) slack=(65536 65536 40 40)
	for i in 0 1 2 3; do
		col=${cols[i]}
		kd=$((after[i] - before[i]))
		cs=$(csv_sum "$f" "$IS" "$col" peer)
		echo "# $name $col: peer kernel delta $kd, peer rows $cs"
		check "$name: peer $col == peer kernel delta" within "$kd" "$cs" "${slack[i]}"
	done
	check "$name: peer rows carry host peerhost" \
		[ "$(col_values "$f" host peer | tr '\n' ' ')" = "peerhost " ]
	check "$name: local rows carry the local host" \
		[ "$(col_values "$f" host local | tr '\n' ' ')" = "$local_host " ]
	check "$name: peer CPU rows for every peer CPU" \
		[ "$(col_values "$g" cpu peer | wc -l)" -eq "$ncpu" ]
	check "$name: peer CPU rows' steal_pct empty (the wire has no steal: unknown, never 0)" \
		[ "$(col_values "$g" steal_pct peer | tr -d '\n')" = "" ]
	check "$name: peer rows inside the local run" awk -F, -v a="$t0" -v b="$t1" '
		NR==1 { for (i = 1; i <= NF; i++) if ($i == "side") sd = i; next }
		$sd == "peer" { n++; if ($1 < a || $1 > b) bad++ } END { exit !(n > 0 && !bad) }' "$f"
	check "$name: no sanitizer report (client, server)" \
		bash -c "! grep -q Sanitizer '$slog' '$work/$name.out'"
}

run_case udp -u -b 100M -l 1400
run_case tcp-R -R -b 200M
run_case tcp-bidir --bidir -b 100M

# Runs with no peer thread (--no-peer-stats, plain iperf3 at either end) and the receiver-loss
# report (the udp case's threads): LR_PEER_VIEW_SUBSET=threads (stage-tsan, whose concern is
# the threads) leaves them to the full run (the ASan+UBSan stage).
not_threads() {
	# Loss at the receiver, forced with a tiny socket buffer on the server (-w): the report names
	# the receiver host and its RcvbufErrors, which the server namespace's /proc/net/snmp witnesses.
	rcvbuf_errs() {
		ip netns exec "$S" awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 } else print $c }' /proc/net/snmp
	}
	start_server "$work/rb-srv.log"
	rb0=$(rcvbuf_errs)
	ip netns exec "$A" timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -u -b 1G -l 1400 -w 4K -t 2 \
		-i 0.2 >"$work/rb.out" 2>&1
	stop_server
	start_server "$work/rb2-srv.log"
	rb1=$(rcvbuf_errs)
	k0=($(kstats "$S" "$IS"))
	t0=$(date +%s.%N)
	ip netns exec "$A" timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -u -b 1G -l 1400 -w 4K -t 2 \
		-i 0.2 -J >"$work/rb.json" 2>"$work/rb.err"
	t1=$(date +%s.%N)
	stop_server
	rb2=$(rcvbuf_errs)
	k1=($(kstats "$S" "$IS"))
	read -r jpeak jrx < <(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["linerate_peer"]
i = [x for x in p["interfaces"] if x["name"] == sys.argv[2]][0]
print(int(i["peak_rx_bps"]), i["rx_bytes"])' "$work/rb.json" "$IS" 2>/dev/null)
	mean=$(awk -v b=$((k1[0] - k0[0])) -v a="$t0" -v z="$t1" 'BEGIN { printf "%d\n", b * 8 / (z - a) }')
	echo "# rcvbuf -J: peer peak rx ${jpeak:-none} bit/s, kernel mean $mean bit/s; rx_bytes ${jrx:-none} of kernel $((k1[0] - k0[0]))"
	named=$(sed -n 's/.*loss on the receiver, peerhost:.*UDP RcvbufErrors (socket receive buffer full) \([0-9]*\).*/\1/p' "$work/rb.out")
	jnum=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["linerate_peer"]["stack"]["udp_rcvbuf_errors"])' "$work/rb.json" 2>/dev/null)
	echo "# rcvbuf: peer kernel RcvbufErrors +$((rb1 - rb0)) (text run), +$((rb2 - rb1)) (-J run); reported ${named:-none}, ${jnum:-none}"
	check "rcvbuf: the receiver's socket drops were forced (peer kernel)" [ $((rb1 - rb0)) -gt 0 ]
	check "rcvbuf: the report names the receiver peerhost and its RcvbufErrors" \
		within "$((rb1 - rb0))" "${named:-0}" 64
	check "rcvbuf: -J linerate_peer.stack.udp_rcvbuf_errors == peer kernel delta" \
		within "$((rb2 - rb1))" "${jnum:-0}" 64
	check "rcvbuf: -J peer peak_rx_bps >= the peer kernel's mean rate over the test" \
		[ "${jpeak:-0}" -ge "$mean" -a "$mean" -gt 0 ]
	check "rcvbuf: -J peer rx_bytes total == peer kernel delta" \
		within "$((k1[0] - k0[0]))" "${jrx:-0}" 65536

	# --no-peer-stats: the server offers nothing; the client's test runs as a plain one.
	f="$work/nops.csv"
	start_server "$work/nops-srv.log" --no-peer-stats
	ip netns exec "$A" timeout 30 "$LR_BIN" --headless -c "$ADDR_S" -t 1 -i 0.2 --csv "$f" >/dev/null 2>&1
	rc=$?
	stop_server
	check "no-peer-stats: client exits 0" [ "$rc" -eq 0 ]
	check "no-peer-stats: no peer rows" [ -z "$(col_values "$f" side peer)" ]
	check "no-peer-stats: server sent no offer" bash -c "! grep -q 'sharing this host' '$work/nops-srv.log'"

	# A plain iperf3 server: it ignores the key; no offer comes, so no channel is ever opened.
	f="$work/ip3s.csv"
	ip netns exec "$S" iperf3 -s -1 >"$work/ip3s-srv.log" 2>&1 &
	isrv=$!; lr_cleanup_add "kill $isrv 2>/dev/null"
	lr_wait_listen 5201 "$S"
	ip netns exec "$A" timeout 30 "$LR_BIN" --headless -c "$ADDR_S" -t 1 -i 0.2 --csv "$f" >/dev/null 2>&1
	rc=$?
	kill "$isrv" 2>/dev/null; wait "$isrv" 2>/dev/null
	check "iperf3 -s: linerate client exits 0" [ "$rc" -eq 0 ]
	check "iperf3 -s: no peer rows, local rows there" \
		[ -z "$(col_values "$f" side peer)" -a "$(col_values "$f" side local)" = local ]

	# A plain iperf3 client against linerate -s: it never asks, so nothing is offered; the server
	# accepts exactly the control connection and the one data connection (counted by nft in S).
	ip netns exec "$S" nft -f - <<-EOF
	table inet $u {
		chain c {
			type filter hook input priority 0;
			tcp dport 5201 tcp flags & (syn | ack) == syn counter
		}
	}
	EOF
	start_server "$work/ip3c-srv.log"
	ip netns exec "$A" timeout 30 iperf3 -c "$ADDR_S" -t 1 >"$work/ip3c.out" 2>&1
	rc=$?
	stop_server
	syns=$(ip netns exec "$S" nft list table inet "$u" | sed -n 's/.*packets \([0-9]*\).*/\1/p' | head -1)
	ip netns exec "$S" nft delete table inet "$u"
	check "iperf3 -c: plain client against linerate -s exits 0" [ "$rc" -eq 0 ]
	check "iperf3 -c: server offered nothing" bash -c "! grep -q 'sharing this host' '$work/ip3c-srv.log'"
	echo "# iperf3 -c: SYNs to port 5201: $syns"
	check "iperf3 -c: no connection beyond the test's" [ "${syns:-0}" -eq 2 ]
}
if [ "${LR_PEER_VIEW_SUBSET:-}" = threads ]; then
	echo "# threads subset: rcvbuf, no-peer-stats, iperf3 -s and iperf3 -c run in the full run"
else
	not_threads
fi

# Hostile servers: the channel misbehaves; the client must end on time, unharmed. The four
# run at once, each against its own fake server on its own port (each test is 10 Mbit/s for
# 3 s and waits; each client's bound is its own wall clock), then are judged one by one.
declare -A fsrvs=()
p=5202
for m in garbage huge endless silent; do
	ip netns exec "$S" python3 "$LR_TOP/tests/tools/fake_peer_server.py" "$m" $p \
		>"$work/h-$m-srv.log" 2>&1 &
	fsrvs[$m]=$!; lr_cleanup_add "kill $! 2>/dev/null"
	p=$((p + 1))
done
p=5202 cpids=()
for m in garbage huge endless silent; do
	lr_wait_listen $p "$S"	# python starts slowly on a loaded machine
	(
		t0=$(date +%s)
		ip netns exec "$A" timeout 60 /usr/bin/time -f 'maxrss_kb %M' "$LR_BIN" --headless \
			-c "$ADDR_S" -p $p -t 3 -b 10M -i 0.2 --csv "$work/h-$m.csv" \
			>"$work/h-$m.out" 2>"$work/h-$m.err"
		echo "$? $t0 $(date +%s)" >"$work/h-$m.rc"
	) &
	cpids+=($!); lr_cleanup_add "kill $! 2>/dev/null"
	p=$((p + 1))
done
wait "${cpids[@]}"
for m in garbage huge endless silent; do
	f="$work/h-$m.csv"
	read -r rc t0 t1 <"$work/h-$m.rc" || rc=255 t0=0 t1=999
	kill "${fsrvs[$m]}" 2>/dev/null; wait "${fsrvs[$m]}" 2>/dev/null
	rss=$(sed -n 's/^maxrss_kb \([0-9]*\)/\1/p' "$work/h-$m.err")
	echo "# hostile $m: rc $rc in $((t1 - t0)) s, max RSS ${rss:-?} KiB; $(grep -m1 'peer' "$work/h-$m.err")"
	check "hostile $m: the test still completes (exit 0)" [ "$rc" -eq 0 ]
	[ $m = silent ] || check "hostile $m: the channel is dropped with a warning" \
		grep -q 'peer view ended' "$work/h-$m.err"
	check "hostile $m: client ends in bounded time" [ $((t1 - t0)) -le 20 ]
	check "hostile $m: no crash" bash -c "[ $rc -lt 128 ] && ! grep -q Sanitizer '$work/h-$m.err'"
	check "hostile $m: memory stays bounded" [ "${rss:-999999}" -lt 100000 ]
	check "hostile $m: no peer rows from it" [ -z "$(col_values "$f" side peer)" ]
done

# A "server" whose cumulative counters shrink: rows never carry the 2^64 wrap of a difference.
f="$work/h-back.csv"
ip netns exec "$S" python3 "$LR_TOP/tests/tools/fake_peer_server.py" backwards 5201 \
	>"$work/h-back-srv.log" 2>&1 &
fsrv=$!; lr_cleanup_add "kill $fsrv 2>/dev/null"
lr_wait_listen 5201 "$S"
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_S" -t 2 -b 10M -i 0.2 --csv "$f" \
	>/dev/null 2>&1
rc=$?
kill "$fsrv" 2>/dev/null; wait "$fsrv" 2>/dev/null
echo "# hostile backwards: rc $rc, fk0 rows: $(grep -c '^[^,]*,[^,]*,fk0,' "$f")"
check "hostile backwards: the test still completes (exit 0)" [ "$rc" -eq 0 ]
check "hostile backwards: no huge value from shrinking counters" awk -F, '
	$3 == "fk0" { n++; if ($5 + 0 > 1000000) bad++ } END { exit !(n > 0 && !bad) }' "$f"

# Hostile clients against one long-running server: a channel never read, a wrong tag, another
# test's cookie, two channels. Each test completes, and the server goes on serving the next
# test with its peer view.
ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s" >"$work/hc-srv.log" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
lr_wait_listen 5201 "$S"
for m in stall badtag badcookie twice; do
	f="$work/hc-$m.csv"
	ip netns exec "$A" timeout 30 python3 "$LR_TOP/tests/tools/fake_peer_client.py" "$m" \
		"$ADDR_S" 5201 2 >"$work/hc-$m.out" 2>&1
	check "hostile client $m: its test completes" grep -q '^done' "$work/hc-$m.out"
	ip netns exec "$A" timeout 30 "$LR_BIN" --headless -c "$ADDR_S" -t 1 -i 0.2 --csv "$f" \
		>/dev/null 2>&1
	check "hostile client $m: the server serves the next test with peer rows" \
		[ "$(col_values "$f" host peer)" = peerhost ]
done
check "hostile client twice: the second channel is closed at once" \
	grep -q '^second closed' "$work/hc-twice.out"
stop_server
check "hostile clients: no sanitizer report from the server" \
	bash -c "! grep -q Sanitizer '$work/hc-srv.log'"
