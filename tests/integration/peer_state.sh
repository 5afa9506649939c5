#!/usr/bin/env bash
# The peer's state over the wire (docs/wire.md §P4.1), between two network namespaces, the
# server's under its own host name (unshare -u). Each value the client reports for the peer is
# checked against what the peer namespace's own tools say:
#  link:   -J linerate_peer's interface mtu / speed / rings / driver / NUMA node against
#          `ip link`, `ethtool`, `ethtool -g`, `ethtool -i` and sysfs in the server's namespace
#          (veth: speed 10000, the MTU as set, no rings: unknown must stay null, never 0);
#  tuning: -J linerate_peer.tuning against the server namespace's per-netns sysctls, made
#          distinctive there first (tcp_rmem/tcp_wmem/tcp_congestion_control/tcp_timestamps);
#  cpus:   the peer CPU rows' node column against /sys/devices/system/node;
#  queues: an ifb with 4 queues holds the server's address and receives everything arriving on
#          its veth (tc ingress, u32 match-all, mirred), so it is the peer's test interface: the
#          peer's --queues-csv rows (side=peer), summed per queue, equal the deltas of the server
#          kernel's own per-queue counters (`ethtool -S` before and after);
#  hostile: a fake server sending oversized queue tables / malformed state fields cannot
#          crash or bloat the client, and its malformed frames end the channel with a warning;
#  old:    linerate as it was before the state fields (built from git once, cached under
#          build/), as the server and as the client: the test and the counters still work and
#          the state it never sent stays unknown.
source "$(dirname "$0")/../lib.sh"
lr_plan "link: client exits 0" "link: mtu == ip link (peer ns)" "link: speed == ethtool (peer ns)" \
	"link: rings == ethtool -g (peer ns), unknown stays null" "link: driver == ethtool -i (peer ns)" \
	"link: numa_node == sysfs (peer ns)" \
	"tuning: tcp_rmem == peer ns sysctl" "tuning: tcp_wmem == peer ns sysctl" \
	"tuning: tcp_congestion == peer ns sysctl" "tuning: tcp_timestamps == peer ns sysctl" \
	"tuning: rmem_max/netdev_max_backlog == peer ns sysctl" \
	"cpus: peer CPU rows' node == sysfs" \
	"queues: setup (ifb, ingress, mirred)" "queues: client exits 0" \
	"queues: the peer's test interface is the ifb" \
	"queues: peer queue rows per queue == peer kernel ethtool -S deltas" \
	"queues: local and peer queue rows apart (side, host)" \
	"queues: no sanitizer report (client, server)"
for m in bigqueues badstate oddstate; do
	lr_plan "hostile $m: the test still completes (exit 0)" "hostile $m: no crash" \
		"hostile $m: memory stays bounded"
done
lr_plan "softnet: the report's backlog drops == what the peer sent, by CPU" \
	"softnet: -J stack.softnet == what the peer sent"
lr_plan "old server: the test completes, the peer's counters arrive" \
	"old server: its link state and tuning stay unknown (null), never 0" \
	"old client: the test completes against this server, with peer rows"
lr_plan "hostile bigqueues: the channel is dropped with a warning" \
	"hostile badstate: the channel is dropped with a warning" \
	"hostile oddstate: accepted at the bounds, control characters neutralised"
need_root "peer_state"
for t in ethtool tc python3; do
	command -v "$t" >/dev/null || { lr_skip_plan peer_state "$t not installed"; exit 0; }
done

u=$(lr_uniq)
A=${u}A S=${u}S IA=${u}a IS=${u}s IFB=${u}q
ADDR_A=10.204.0.1 ADDR_S=10.204.0.2 MTU=1420
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"
lr_netns_pair "$A" "$S" "$IA" "$IS" "$ADDR_A" "$ADDR_S" "$MTU"
for ns in "$A" "$S"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
done
mac_s=$(ip -n "$S" -o link show "$IS" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
mac_a=$(ip -n "$A" -o link show "$IA" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$A" neigh replace "$ADDR_S" lladdr "$mac_s" dev "$IA" nud permanent
ip -n "$S" neigh replace "$ADDR_A" lladdr "$mac_a" dev "$IS" nud permanent
# distinctive per-netns sysctls on the server's side (not the defaults, not the client's)
ip netns exec "$S" sysctl -qw net.ipv4.tcp_rmem="4096 131072 7340032"
ip netns exec "$S" sysctl -qw net.ipv4.tcp_wmem="4096 32768 5242880"
ip netns exec "$S" sysctl -qw net.ipv4.tcp_congestion_control=reno
ip netns exec "$S" sysctl -qw net.ipv4.tcp_timestamps=0

start_server() {	# LOG: linerate -s -1 in S under the host name peerhost
	ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -1" >"$1" 2>&1 &
	srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
	lr_wait_listen 5201 "$S" 100
}
stop_server() { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; }
jpeer() {	# FILE PYTHON-EXPR over p (linerate_peer) and i (the interface named $2)
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["linerate_peer"]
i = ([x for x in p["interfaces"] if x["name"] == sys.argv[2]] or [{}])[0]
v = eval(sys.argv[3])
print("null" if v is None else " ".join(str(x) for x in v) if isinstance(v, list) else v)' "$1" "$2" "$3" 2>/dev/null
}
nullify() { [ -n "$1" ] && echo "$1" || echo null; }

# ---- link, tuning, cpus: a TCP test over the plain veth ----
start_server "$work/link-srv.log"
ip netns exec "$A" timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -t 2 -b 50M -i 0.2 -J \
	--cpu-csv "$work/cpu.csv" >"$work/link.json" 2>"$work/link.err"
rc=$?
stop_server
check "link: client exits 0" [ "$rc" -eq 0 ]
want=$(ip -n "$S" -o link show "$IS" | sed -n 's/.* mtu \([0-9]*\).*/\1/p')
got=$(jpeer "$work/link.json" "$IS" 'i.get("mtu")')
echo "# link mtu: peer ns $want, reported $got"
check "link: mtu == ip link (peer ns)" [ "$got" = "$want" -a "$want" = "$MTU" ]
want=$(ip netns exec "$S" ethtool "$IS" 2>/dev/null | sed -n 's/^[[:space:]]*Speed: \([0-9]*\)Mb\/s/\1/p')
got=$(jpeer "$work/link.json" "$IS" 'i.get("speed_mbps")')
echo "# link speed: peer ns ethtool ${want:-unknown}, reported $got"
check "link: speed == ethtool (peer ns)" [ "$got" = "$(nullify "$want")" ]
# ethtool -g: "Current hardware settings:" block's RX / TX, "Pre-set maximums:" block's
rings() {
	ip netns exec "$S" ethtool -g "$IS" 2>/dev/null | awk '
		/^Pre-set maximums/ { b = "max" } /^Current hardware/ { b = "cur" }
		/^RX:/ { r[b] = $2 } /^TX:/ { t[b] = $2 }
		END { if (r["cur"] == "") print "null null null null";
		      else print r["cur"], r["max"], t["cur"], t["max"] }'
}
want=$(rings)
got=$(jpeer "$work/link.json" "$IS" '[i.get(k) for k in ("ring_rx", "ring_rx_max", "ring_tx", "ring_tx_max")]' |
	sed 's/None/null/g')
echo "# link rings (rx rx_max tx tx_max): peer ns ethtool -g '$want', reported '$got'"
check "link: rings == ethtool -g (peer ns), unknown stays null" [ -n "$want" -a "$got" = "$want" ]
want=$(ip netns exec "$S" ethtool -i "$IS" 2>/dev/null | sed -n 's/^driver: //p')
got=$(jpeer "$work/link.json" "$IS" 'i.get("driver")')
echo "# link driver: peer ns ${want:-none}, reported $got"
check "link: driver == ethtool -i (peer ns)" [ "$got" = "$(nullify "$want")" ]
want=$(ip netns exec "$S" cat "/sys/class/net/$IS/device/numa_node" 2>/dev/null)
[ "${want:-1}" -lt 0 ] 2>/dev/null && want=""
got=$(jpeer "$work/link.json" "$IS" 'i.get("numa_node")')
echo "# link numa_node: peer ns sysfs ${want:-none}, reported $got"
check "link: numa_node == sysfs (peer ns)" [ "$got" = "$(nullify "$want")" ]

sc() {	# the peer namespace's sysctl; "null" where it has none (not every one is per-netns)
	local v
	v=$(ip netns exec "$S" sysctl -n "$1" 2>/dev/null | tr -s '\t ' ' ')
	echo "${v:-null}"
}
got=$(jpeer "$work/link.json" x 'p["tuning"]["tcp_rmem"]')
echo "# tuning tcp_rmem: peer ns '$(sc net.ipv4.tcp_rmem)', reported '$got' (client ns '$(sysctl -n net.ipv4.tcp_rmem | tr -s '\t ' ' ')')"
check "tuning: tcp_rmem == peer ns sysctl" [ "$got" = "$(sc net.ipv4.tcp_rmem)" -a "$got" = "4096 131072 7340032" ]
got=$(jpeer "$work/link.json" x 'p["tuning"]["tcp_wmem"]')
check "tuning: tcp_wmem == peer ns sysctl" [ "$got" = "$(sc net.ipv4.tcp_wmem)" -a "$got" = "4096 32768 5242880" ]
got=$(jpeer "$work/link.json" x 'p["tuning"]["tcp_congestion"]')
echo "# tuning tcp_congestion: peer ns $(sc net.ipv4.tcp_congestion_control), reported $got"
check "tuning: tcp_congestion == peer ns sysctl" [ "$got" = "$(sc net.ipv4.tcp_congestion_control)" -a "$got" = reno ]
got=$(jpeer "$work/link.json" x 'p["tuning"]["tcp_timestamps"]')
check "tuning: tcp_timestamps == peer ns sysctl" [ "$got" = "$(sc net.ipv4.tcp_timestamps)" -a "$got" = 0 ]
got=$(jpeer "$work/link.json" x '[p["tuning"]["rmem_max"], p["tuning"]["netdev_max_backlog"]]' |
	sed 's/None/null/g')
want="$(sc net.core.rmem_max) $(sc net.core.netdev_max_backlog)"
echo "# tuning rmem_max netdev_max_backlog: peer ns '$want', reported '$got'"
check "tuning: rmem_max/netdev_max_backlog == peer ns sysctl" [ "$got" = "$want" ]

# the node of each CPU as sysfs lists it ("cpu node"), against the peer's CPU rows' node column
for d in /sys/devices/system/node/node[0-9]*; do
	[ -d "$d" ] || continue
	n=${d##*node}
	for c in "$d"/cpu[0-9]*; do [ -e "$c" ] && echo "${c##*cpu} $n"; done
done | sort -n >"$work/nodes.want"
awk -F, 'NR==1 { for (i = 1; i <= NF; i++) { if ($i == "side") sd = i; if ($i == "node") nd = i; if ($i == "cpu") c = i }; next }
	$sd == "peer" { print $c, $nd }' "$work/cpu.csv" | sort -un >"$work/nodes.got"
echo "# cpus: sysfs $(wc -l <"$work/nodes.want") CPUs with a node, peer rows $(sort -u "$work/nodes.got" | tr '\n' ';' | head -c 120)"
if [ -s "$work/nodes.want" ]; then
	check "cpus: peer CPU rows' node == sysfs" cmp -s "$work/nodes.want" "$work/nodes.got"
else
	skip "cpus: peer CPU rows' node == sysfs" "no /sys/devices/system/node here"
fi

# ---- queues: the server's address on a 4-queue ifb fed from its veth ----
if lr_ifb_add "$S" "$IS" "$IFB"; then
	# the source address of the route back to the client lives on the ifb: the server's
	# route lookup (collect/route.c) names the ifb; the packets still leave by the veth
	ip netns exec "$S" sysctl -qw net.ipv4.conf.all.rp_filter=0
	ip -n "$S" addr del "$ADDR_S/24" dev "$IS"
	ip -n "$S" addr add "$ADDR_S/32" dev "$IFB"
	ip -n "$S" route add "$ADDR_A/32" dev "$IS" src "$ADDR_S"
	pass "queues: setup (ifb, ingress, mirred)"
	start_server "$work/q-srv.log"
	ip netns exec "$S" ethtool -S "$IFB" >"$work/before"
	ip netns exec "$A" timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -u -b 20M -P 4 -t 2 -i 0.2 \
		--queues-csv "$work/q.csv" >"$work/q.out" 2>&1
	rc=$?
	stop_server
	ip netns exec "$S" ethtool -S "$IFB" >"$work/after"
	check "queues: client exits 0" [ "$rc" -eq 0 ]
	check "queues: the peer's test interface is the ifb" grep -q "^  $IFB: rx" "$work/q.out"
	# the kernel's per-queue deltas: "queue rx_packets rx_bytes tx_packets tx_bytes"
	kq() { sed -n 's/^ *\([rt]x\)_queue_\([0-9]*\)_\(packets\|bytes\): \([0-9]*\)$/\2_\1_\3 \4/p' "$1" | sort; }
	join <(kq "$work/before") <(kq "$work/after") | awk '{split($1, k, "_"); d[k[1]" "k[2]"_"k[3]] = $3 - $2}
		END {for (q = 0; q < 4; q++) print q, d[q" rx_packets"], d[q" rx_bytes"], d[q" tx_packets"], d[q" tx_bytes"]}' \
		>"$work/kernel"
	awk -F, -v i="$IFB" 'NR > 1 && $3 == i && $17 == "peer" {p[$4] += $6; b[$4] += $7; tp[$4] += $8; tb[$4] += $9}
		END {for (q = 0; q < 4; q++) print q, p[q] + 0, b[q] + 0, tp[q] + 0, tb[q] + 0}' \
		"$work/q.csv" >"$work/csv"
	echo "# queues kernel (q rxp rxb txp txb): $(tr '\n' ';' <"$work/kernel")"
	echo "# queues peer rows:                  $(tr '\n' ';' <"$work/csv")"
	# the rows run from the server's first reading (its offer) to its last (the streams
	# stopped): the control connection's first and last exchanges fall outside, a few dozen
	# packets at most over all queues, never data
	check "queues: peer queue rows per queue == peer kernel ethtool -S deltas" awk '
		NR == FNR { k[$1] = $0; next }
		{ split(k[$1], w, " "); for (f = 2; f <= 5; f++) { d = w[f] - $f; if (d < 0) bad++;
		  else if (f % 2 == 0) dp += d; else db += d }; tot += w[2] }
		END { exit !(FNR == 4 && !bad && dp <= 40 && db <= 65536 && tot > 1000) }' \
		"$work/kernel" "$work/csv"
	check "queues: local and peer queue rows apart (side, host)" awk -F, -v i="$IFB" -v h="$(uname -n)" '
		NR > 1 && $17 == "peer" { if ($18 != "peerhost" || $3 != i) bad++; n++ }
		NR > 1 && $17 == "local" { if ($18 != h || $3 == i) bad++ }
		END { exit !(n > 0 && !bad) }' "$work/q.csv"
	check "queues: no sanitizer report (client, server)" \
		bash -c "! grep -q Sanitizer '$work/q-srv.log' '$work/q.out'"
else
	for c in "queues: setup (ifb, ingress, mirred)" "queues: client exits 0" \
		"queues: the peer's test interface is the ifb" \
		"queues: peer queue rows per queue == peer kernel ethtool -S deltas" \
		"queues: local and peer queue rows apart (side, host)" \
		"queues: no sanitizer report (client, server)"; do
		skip "$c" "$LR_IFB_ERR"
	done
fi

# ---- hostile: a fake server's state fields ----
# an unharmed client stays under 10 MiB here; ASan's shadow and quarantine add ~100 MiB
rss_max=100000
grep -q __asan_init "$LR_BIN" 2>/dev/null && rss_max=300000
ip -n "$S" addr add "$ADDR_S/24" dev "$IS" 2>/dev/null
for m in bigqueues badstate oddstate; do
	f="$work/h-$m"
	ip netns exec "$S" python3 "$LR_TOP/tests/tools/fake_peer_server.py" "$m" 5201 \
		>"$f-srv.log" 2>&1 &
	fsrv=$!; lr_cleanup_add "kill $fsrv 2>/dev/null"
	lr_wait_listen 5201 "$S" 100
	ip netns exec "$A" timeout 60 /usr/bin/time -f 'maxrss_kb %M' "$LR_BIN" --headless \
		-c "$ADDR_S" -t 2 -b 10M -i 0.2 --queues-csv "$f.q.csv" >"$f.out" 2>"$f.err"
	rc=$?
	kill "$fsrv" 2>/dev/null; wait "$fsrv" 2>/dev/null
	rss=$(sed -n 's/^maxrss_kb \([0-9]*\)/\1/p' "$f.err")
	echo "# hostile $m: rc $rc, max RSS ${rss:-?} KiB; $(grep -m1 'peer' "$f.err")"
	check "hostile $m: the test still completes (exit 0)" [ "$rc" -eq 0 ]
	check "hostile $m: no crash" bash -c "[ $rc -lt 128 ] && ! grep -q Sanitizer '$f.err'"
	check "hostile $m: memory stays bounded" [ "${rss:-999999}" -lt "$rss_max" ]
done
check "hostile bigqueues: the channel is dropped with a warning" grep -q 'queues.*peer view ended' "$work/h-bigqueues.err"
check "hostile badstate: the channel is dropped with a warning" grep -q 'peer view ended' "$work/h-badstate.err"
# oddstate: every count at its bound (4 x 256 queues): taken; its driver / congestion names'
# escape sequences reach neither the report nor the CSV
n_rows=$(awk -F, 'NR > 1 && $17 == "peer"' "$work/h-oddstate.q.csv" | wc -l)
echo "# hostile oddstate: $n_rows peer queue rows; report: $(grep -m1 'fk0' "$work/h-oddstate.out")"
check "hostile oddstate: accepted at the bounds, control characters neutralised" bash -c "
	[ $n_rows -ge 1024 ] && ! grep -q 'the server sent' '$work/h-oddstate.err' &&
	grep -q 'fk0: rx' '$work/h-oddstate.out' && ! LC_ALL=C grep -q \$'\\x1b' '$work/h-oddstate.out' '$work/h-oddstate.q.csv'"
# ---- an older linerate at either end: the tree just before the state fields ----
# (0473abe added them to the frames: `git log -S'"ring_rx_max"' -- src`; this is its parent,
# built once and cached under build/ by lr_build_at; LR_OLD_BIN names another build instead)
old_checks=("old server: the test completes, the peer's counters arrive"
	"old server: its link state and tuning stay unknown (null), never 0"
	"old client: the test completes against this server, with peer rows")
OLD_COMMIT=fc8febc0833cc057f0e42da5519ad0426942c272
if [ -n "${LR_OLD_BIN:-}" ]; then
	old_why="LR_OLD_BIN=$LR_OLD_BIN"
	[ -x "$LR_OLD_BIN" ] || old_why="LR_OLD_BIN=$LR_OLD_BIN is not an executable"
elif lr_build_at "$OLD_COMMIT"; then
	LR_OLD_BIN=$LR_AT_BIN old_why="linerate at ${OLD_COMMIT:0:12}: $LR_AT_WHY"
else
	old_why=$LR_AT_WHY
fi
echo "# old linerate: $old_why"
if [ -x "${LR_OLD_BIN:-}" ]; then
	ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_OLD_BIN -s -1" >"$work/old-srv.log" 2>&1 &
	srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
	lr_wait_listen 5201 "$S" 100
	ip netns exec "$A" timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -t 2 -b 20M -i 0.2 -J \
		>"$work/old-srv.json" 2>"$work/old-srv.err"
	rc=$?
	stop_server
	got=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["linerate_peer"]
keys = ("ring_rx", "ring_rx_max", "ring_tx", "ring_tx_max", "driver", "numa_node")
print(len(p["interfaces"]), sum(i["rx_bytes"] for i in p["interfaces"]),
      all(i[k] is None for i in p["interfaces"] for k in keys), p["tuning"] is None)' "$work/old-srv.json" 2>/dev/null)
	echo "# old server: rc $rc; interfaces, rx_bytes, state all null, tuning null: ${got:-none}"
	check "${old_checks[0]}" awk -v rc="$rc" '{ exit !(rc == 0 && $1 > 0 && $2 > 1000000) }' <<<"${got:-0 0}"
	check "${old_checks[1]}" awk '{ exit !($3 == "True" && $4 == "True") }' <<<"${got:-0 0}"
	start_server "$work/new-srv.log"
	ip netns exec "$A" timeout 40 "$LR_OLD_BIN" --headless -c "$ADDR_S" -t 2 -b 20M -i 0.2 \
		--csv "$work/old-cli.csv" >"$work/old-cli.out" 2>&1
	rc=$?
	stop_server
	peer_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "side") sd = i; next }
		$sd == "peer"' "$work/old-cli.csv" | wc -l)
	echo "# old client: rc $rc, $peer_rows peer rows; $(grep -m1 'peer' "$work/old-cli.out")"
	check "${old_checks[2]}" [ "$rc" -eq 0 -a "$peer_rows" -gt 0 ]
else
	for c in "${old_checks[@]}"; do fail "$c" "no linerate from before the state fields: $old_why"; done
fi

# ---- softnet: the peer's per-CPU backlog drops in the verdict's loss sentence and -J ----
# (a real peer's cannot be forced here: netdev_max_backlog is host-wide, not per namespace)
for out in text json; do
	ip netns exec "$S" env FAKE_PEER_LOG="$work/sn-$out.sent" python3 \
		"$LR_TOP/tests/tools/fake_peer_server.py" softnet 5201 >"$work/sn-$out-srv.log" 2>&1 &
	fsrv=$!; lr_cleanup_add "kill $fsrv 2>/dev/null"
	lr_wait_listen 5201 "$S" 100
	ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_S" -t 2 -b 10M -i 0.2 \
		$([ $out = json ] && echo -J) >"$work/sn.$out" 2>"$work/sn-$out.err"
	kill "$fsrv" 2>/dev/null; wait "$fsrv" 2>/dev/null
done
# the client holds the newest frame it read; the fake logged every frame it sent, and the last
# ones may not have been read before the test ended: the totals are those of one frame n <= sent
n=$(sed -n 's/.*softnet backlog drops \([0-9]*\) (cpu3 \([0-9]*\) cpu1 \([0-9]*\); netdev_max_backlog 1000).*/\1 \2 \3/p' "$work/sn.text")
sent=$(cat "$work/sn-text.sent" 2>/dev/null)
echo "# softnet text: '$n' (drops cpu3 cpu1), fake peer's last frame $sent; $(grep -m1 'loss on' "$work/sn.text")"
check "softnet: the report's backlog drops == what the peer sent, by CPU" awk -v s="${sent:-0}" '
	{ k = $2 / 40; exit !(k >= 1 && k <= s && $2 == 40 * k && $3 == k && $1 == 41 * k) }' <<<"${n:-0 0 0}"
j=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["linerate_peer"]["stack"]["softnet"]
print(s["dropped"], s["squeezed"], " ".join("%d:%d" % (c["cpu"], c["dropped"]) for c in s["top_cpus"]))' "$work/sn.json" 2>/dev/null)
sent=$(cat "$work/sn-json.sent" 2>/dev/null)
echo "# softnet -J: '$j', fake peer's last frame $sent"
check "softnet: -J stack.softnet == what the peer sent" awk -v s="${sent:-0}" '
	{ k = $1 / 41; exit !(k >= 1 && k <= s && $1 == 41 * k && $2 == 8 * k && $3 == "3:" 40 * k && $4 == "1:" k && NF == 4) }' <<<"${j:-0}"
lr_summary
