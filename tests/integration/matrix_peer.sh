#!/usr/bin/env bash
# The matrix's peer columns (DESIGN.md section 10, issue 13) through a veth between two network
# namespaces. Against `linerate -s` (which shares its samples) every row's peer columns are
# filled, and they equal what the peer's kernel saw, read independently in its namespace around
# each case: drops forced on the peer's veth mid-case (Ethernet frames of a type no protocol
# takes: the kernel counts each in rx_dropped) == the /proc/net/dev delta of that case, FIFO ==
# its delta, peer CPU busy % within slack of /proc/stat over the case, the hottest softirq CPU a
# real CPU. Against `linerate -s --no-peer-stats` the peer columns are empty (unknown, never 0).
# Timings are never asserted.
source "$(dirname "$0")/../lib.sh"
lr_plan "peer: grid exits 0" "peer: 2 rows" "peer: every row's peer columns filled"
for i in 1 2; do
	lr_plan "peer: case $i peer_drops == peer kernel rx+tx drop delta" \
		"peer: case $i peer_fifo == peer kernel fifo delta" \
		"peer: case $i peer CPU busy % within 20 points of /proc/stat over the case" \
		"peer: case $i peer softirq CPU is one of the host's CPUs"
done
lr_plan "peer: the forced drops were counted by the peer kernel" \
	"no-peer-stats: grid exits 0" "no-peer-stats: peer columns empty, local ones filled"
need_root "matrix_peer"
command -v python3 >/dev/null || { lr_skip_plan matrix_peer "python3 not installed"; exit 0; }

u=$(lr_uniq)
A=${u}A B=${u}B IA=${u}a IB=${u}b
ADDR_A=10.204.0.1 ADDR_B=10.204.0.2
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"
lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
for ns in "$A" "$B"; do	# a silent link: no IPv6 autoconf/MLD, no ARP
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
mac_b=$(ip -n "$B" -o link show "$IB" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
mac_a=$(ip -n "$A" -o link show "$IA" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$A" neigh replace "$ADDR_B" lladdr "$mac_b" dev "$IA" nud permanent
ip -n "$B" neigh replace "$ADDR_A" lladdr "$mac_a" dev "$IB" nud permanent
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)

# The peer veth's /proc/net/dev (in its namespace): "drops fifo", rx and tx summed
# (rx drop is rx_dropped + rx_missed_errors, fifo rx_fifo_errors; tx drop, tx fifo).
peer_dev() {
	ip netns exec "$B" cat /proc/net/dev | awk -v i="$IB:" '$1 == i {
		print $5 + $13, $6 + $14 }'
}
# /proc/stat's cpu line: "busy total" in ticks (idle and iowait are not busy)
cpu_stat() { awk '$1 == "cpu" { t = 0; for (k = 2; k <= NF; k++) t += $k; print t - $5 - $6, t }' /proc/stat; }

# Frames of an EtherType no protocol takes, A -> B's veth: B's kernel drops each (rx_dropped)
inject() {	# N
	ip netns exec "$A" python3 - "$IA" "$mac_b" "$mac_a" "$1" <<'PY'
import socket, sys
ifname, dst, src, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
frame = bytes.fromhex(dst.replace(":", "")) + bytes.fromhex(src.replace(":", "")) + b"\x88\xb5" + bytes(46)
for _ in range(n):	# a burst: well inside the backlog (netdev_max_backlog, 1000)
	s.send(frame)
PY
}

ip netns exec "$B" timeout 120 "$LR_BIN" -s -p 5299 >"$work/server.log" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
sleep 0.5

# --- against linerate -s: 2 cases of 3 s; 150 drops forced early in case 1 ---------------------
read -r d0 f0 <<<"$(peer_dev)"; read -r b0 t0 <<<"$(cpu_stat)"
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5299 --matrix "u=udp,tcp" -b 50M -t 3 \
	-i 0.2 --matrix-csv "$work/grid.csv" >"$work/grid.md" 2>"$work/grid.err" &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
# the drops go in once case 1's data is seen flowing on the peer's veth (its window has
# opened; it lasts 3 s)
rxb0=$(ip netns exec "$B" cat "/sys/class/net/$IB/statistics/rx_bytes")
for _ in $(seq 200); do
	[ "$(ip netns exec "$B" cat "/sys/class/net/$IB/statistics/rx_bytes")" -gt $((rxb0 + 2000000)) ] && break
	sleep 0.02
done
inject 150
# the first row is written when case 1 ended; case 2 starts after the link settled
for _ in $(seq 100); do
	[ "$(wc -l <"$work/grid.csv" 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.05
done
read -r d1 f1 <<<"$(peer_dev)"; read -r b1 t1 <<<"$(cpu_stat)"
wait "$cli"; rc=$?
read -r d2 f2 <<<"$(peer_dev)"; read -r b2 t2 <<<"$(cpu_stat)"
check "peer: grid exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/grid.err"
check "peer: 2 rows" test "$(($(wc -l <"$work/grid.csv") - 1))" -eq 2
# columns: 18 local busy, 20 local softirq cpu, 21 peer busy, 22 peer softirq max, 23 peer
# softirq cpu, 25 peer service demand, 28 peer drops, 29 peer fifo
awk -F, 'NR > 1 { printf "    case %s: local busy %s%%, peer busy %s%%, peer softirq %s%% on CPU %s, peer us/KB %s, peer drops %s, fifo %s\n", $1, $18, $21, $22, $23, $25, $28, $29 }' "$work/grid.csv"
check "peer: every row's peer columns filled" \
	awk -F, 'NR > 1 { n++; if ($21 == "" || $22 == "" || $23 == "" || $25 == "" || $28 == "" || $29 == "") bad = 1 }
		END { exit bad || n != 2 }' "$work/grid.csv"
check "peer: the forced drops were counted by the peer kernel" test "$((d1 - d0))" -ge 150
echo "    peer kernel: case 1 drops $((d1 - d0)) fifo $((f1 - f0)), case 2 drops $((d2 - d1)) fifo $((f2 - f1))"
kd=("$((d1 - d0))" "$((d2 - d1))"); kf=("$((f1 - f0))" "$((f2 - f1))")
kb=("$(awk -v b="$((b1 - b0))" -v t="$((t1 - t0))" 'BEGIN { printf "%.2f", t ? 100 * b / t : -1 }')"
	"$(awk -v b="$((b2 - b1))" -v t="$((t2 - t1))" 'BEGIN { printf "%.2f", t ? 100 * b / t : -1 }')")
for i in 1 2; do
	row=$(awk -F, -v n=$((i + 1)) 'NR == n' "$work/grid.csv")
	col() { echo "$row" | cut -d, -f"$1"; }
	echo "    case $i: /proc/stat busy over the case ${kb[i - 1]}%"
	check "peer: case $i peer_drops == peer kernel rx+tx drop delta" test "$(col 28)" = "${kd[i - 1]}"
	check "peer: case $i peer_fifo == peer kernel fifo delta" test "$(col 29)" = "${kf[i - 1]}"
	check "peer: case $i peer CPU busy % within 20 points of /proc/stat over the case" \
		awk -v p="$(col 21)" -v k="${kb[i - 1]}" 'BEGIN { d = p - k; if (d < 0) d = -d
			exit !(p != "" && p >= 0 && p <= 100 && k >= 0 && d <= 20) }'
	check "peer: case $i peer softirq CPU is one of the host's CPUs" \
		awk -v c="$(col 23)" -v n="$ncpu" 'BEGIN { exit !(c != "" && c >= 0 && c < n) }'
done

# --- against linerate -s --no-peer-stats: nothing shared, the peer columns stay empty ---------
kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
ip netns exec "$B" timeout 60 "$LR_BIN" -s -p 5299 --no-peer-stats >"$work/server2.log" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
sleep 0.5
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5299 --matrix "u=udp" -b 20M -t 1 \
	-i 0.2 --matrix-csv "$work/none.csv" >/dev/null 2>"$work/none.err"
check "no-peer-stats: grid exits 0" test $? -eq 0
check "no-peer-stats: peer columns empty, local ones filled" \
	awk -F, 'NR > 1 { n++; if (($21 $22 $23 $25 $28 $29) != "" || $18 == "" || $26 == "") bad = 1 }
		END { exit bad || n != 1 }' "$work/none.csv"
lr_summary
