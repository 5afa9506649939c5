#!/usr/bin/env bash
# The peer's detail view shows its link, tuning and hints as ours does (issue 12,
# docs/wire.md §P4.1), the real dashboard in tmux at 200x50. Two network namespaces joined
# by a veth (MTU 1420), each under its own host name (unshare -u): the dashboard client in one
# ("lrclient"), `linerate -s` in the other ("peerhost") whose per-netns TCP sysctls are made
# distinctive first. A UDP test at 1 Gbit/s against a 4 KiB receive buffer on the server makes
# its sockets drop. One key (P) opens the peer's detail view: its link line's MTU and driver are
# those `ip link` / `ethtool -i` report in the server's namespace; its tuning line shows the
# server namespace's tcp_rmem / tcp_wmem maxima, congestion control and timestamps setting (not
# the client's); the peer's stack line stays on screen; and the UDP buffer hint is the peer's,
# "on peerhost:", with the peer namespace's net.core.rmem_max. Kills only what it started.
. "$(dirname "$0")/../lib.sh"

lr_plan "P opens the peer's detail" "the peer's link line: MTU == ip link (peer ns)" \
	"the peer's link line: driver == ethtool -i (peer ns)" \
	"the peer's tuning line: tcp_rmem/wmem maxima == peer ns sysctls" \
	"the peer's tuning line: congestion control and timestamps == peer ns sysctls" \
	"the peer's stack line stays on screen" \
	"the peer's hint: on peerhost, its rmem_max" "our side's tuning line is ours" \
	"the overview's peer row: STATE == ip link's state (peer ns)" \
	"fake nicstate: the peer's link line shows its rings 512/4096" \
	"fake nicstate: the peer's link line shows its NUMA node and remote IRQs" \
	"fake nicstate: the ring hint, on fake"
need_root "tui_peer_state"
command -v tmux >/dev/null || { lr_skip_plan tui_peer_state "tmux not installed"; exit 0; }
command -v unshare >/dev/null || { lr_skip_plan tui_peer_state "unshare not installed"; exit 0; }
command -v ethtool >/dev/null || { lr_skip_plan tui_peer_state "ethtool not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tui_peer_state "no binary at $LR_BIN (run make)"; exit 0; }

u=$(lr_uniq)
A=${u}A S=${u}S IA=${u}a IS=${u}s ADDR_A=10.203.9.1 ADDR_S=10.203.9.2
lr_netns_pair "$A" "$S" "$IA" "$IS" "$ADDR_A" "$ADDR_S" 1420 ||
	{ lr_skip_plan tui_peer_state "cannot create the namespaces"; exit 0; }
for ns in "$A" "$S"; do ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
ip netns exec "$S" sysctl -qw net.ipv4.tcp_rmem="4096 131072 7340032"
ip netns exec "$S" sysctl -qw net.ipv4.tcp_wmem="4096 32768 5242880"
ip netns exec "$S" sysctl -qw net.ipv4.tcp_congestion_control=reno
ip netns exec "$S" sysctl -qw net.ipv4.tcp_timestamps=0
work=$(mktemp -d /tmp/lr_tuips.XXXXXX)
chmod 755 "$work"
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" ps

ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -1 -B $ADDR_S" >"$work/srv.log" 2>&1 &
srv=$!
lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
lr_wait_listen 5201 "$S" 60
printf 'hostname lrclient\nLANG=C.UTF-8 TERM=screen %q -c %q -u -b 1G -l 1400 -w 4K -t 12 -i 0.5\nsleep 600\n' \
	"$LR_BIN" "$ADDR_S" >"$work/run.sh"
lr_tmux_new_sized 200 50 "ip netns exec $A unshare -u bash $work/run.sh"
wait_screen "peerhost:$IS rx [0-9]" 100
sleep 1
T send-keys -t ps P
wait_screen "on peerhost +$IS" 20
# the hint needs a tick with UDP receive-buffer errors on the peer: give it a few
wait_screen "hint +on peerhost: UDP rcvbuf errors" 60
screen >"$work/peer"
sed 's/^/#   /' "$work/peer" | head -4
grep 'hint' "$work/peer" | sed 's/^/#   /'
check "P opens the peer's detail" grep -qE "^ on peerhost +$IS " "$work/peer"
link=$(grep -E "^ on peerhost +$IS " "$work/peer" | head -1)
mtu=$(ip -n "$S" -o link show "$IS" | sed -n 's/.* mtu \([0-9]*\).*/\1/p')
drv=$(ip netns exec "$S" ethtool -i "$IS" | sed -n 's/^driver: //p')
echo "# peer ns: mtu $mtu, driver $drv"
check "the peer's link line: MTU == ip link (peer ns)" grep -q "MTU $mtu " <<<"$link"
check "the peer's link line: driver == ethtool -i (peer ns)" grep -qE "  $drv( |$)" <<<"$link"
# the tuning line (row 2): sizes as the view prints them (7340032 -> 7M, 5242880 -> 5M)
tune=$(sed -n 2p "$work/peer")
rmax=$(ip netns exec "$S" sysctl -n net.ipv4.tcp_rmem | awk '{ printf "%dM", $3 / 1048576 }')
wmax=$(ip netns exec "$S" sysctl -n net.ipv4.tcp_wmem | awk '{ printf "%dM", $3 / 1048576 }')
cc=$(ip netns exec "$S" sysctl -n net.ipv4.tcp_congestion_control)
ts=$(ip netns exec "$S" sysctl -n net.ipv4.tcp_timestamps)
echo "# peer ns: tcp_rmem max $rmax, tcp_wmem max $wmax, $cc, timestamps $ts; row 2: $tune"
check "the peer's tuning line: tcp_rmem/wmem maxima == peer ns sysctls" \
	grep -q "tcp_rmem $rmax wmem $wmax" <<<"$tune"
tsw=ts; [ "$ts" = 0 ] && tsw=ts-off
check "the peer's tuning line: congestion control and timestamps == peer ns sysctls" \
	bash -c "grep -q '  $cc  ' <<<'$tune' && grep -qE ' $tsw( |\$)' <<<'$tune'"
check "the peer's stack line stays on screen" grep -q "peer's stack" "$work/peer"
rmem=$(ip netns exec "$S" sysctl -n net.core.rmem_max)
check "the peer's hint: on peerhost, its rmem_max" \
	grep -qE "hint +on peerhost: UDP rcvbuf errors .*/s: raise net.core.rmem_max \($rmem\)" "$work/peer"
# P again: our own side, our own sysctls
T send-keys -t ps P
sleep 0.6
ours=$(screen | sed -n 2p)
lrmax=$(ip netns exec "$A" sysctl -n net.ipv4.tcp_rmem | awk '{ r = $3 / 1048576; printf (r == int(r) ? "%dM" : "%.1fM"), r }')
echo "# ours: tcp_rmem max $lrmax; row 2: $ours"
check "our side's tuning line is ours" bash -c "grep -q 'tcp_rmem $lrmax ' <<<'$ours' && ! grep -q reno <<<'$ours'"
# v: the overview lists the peer's interfaces under "on peerhost (peer)"; their STATE comes over
# the wire (docs/wire.md §P4.1 operstate): the peer's veth says what its own `ip link` says
T send-keys -t ps v
wait_screen "on peerhost \(peer\)" 20
screen >"$work/ov"
pstate=$(ip -n "$S" -o link show "$IS" | sed -n 's/.* state \([A-Z]*\) .*/\1/p' | tr 'A-Z' 'a-z')
prow=$(sed -n '/on peerhost (peer)/,$p' "$work/ov" | grep -E "^ +$IS " | head -1)
echo "# peer ns: $IS state $pstate; overview: $prow"
check "the overview's peer row: STATE == ip link's state (peer ns)" \
	bash -c '[ -n "$1" ] && grep -qE "^ +$2 .* $1 " <<<"$3"' _ "$pstate" "$IS" "$prow"
T kill-session -t ps 2>/dev/null
kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null

# A peer NIC in trouble, as a fake server states it (no NIC here has rings or two NUMA nodes):
# what it sent is what the peer's detail view must show, and the hint is the peer's.
ip netns exec "$S" python3 "$LR_TOP/tests/tools/fake_peer_server.py" nicstate 5201 >"$work/fake.log" 2>&1 &
fsrv=$!
lr_cleanup_add "kill $fsrv 2>/dev/null; wait $fsrv 2>/dev/null"
for ((i = 0; i < 60; i++)); do
	ip netns exec "$S" ss -Hltn "sport = :5201" | grep -q . && break
	sleep 0.1
done
printf 'hostname lrclient\nLANG=C.UTF-8 TERM=screen %q -c %q -b 10M -t 8 -i 0.5\nsleep 600\n' \
	"$LR_BIN" "$ADDR_S" >"$work/run.sh"
lr_tmux_new_sized 200 50 "ip netns exec $A unshare -u bash $work/run.sh"
wait_screen "fake:fk0 rx [0-9]" 100
sleep 1
T send-keys -t ps P
wait_screen "hint +on fake: rx ring" 40
screen >"$work/fake"
sed 's/^/#   /' "$work/fake" | head -2
grep 'hint' "$work/fake" | sed 's/^/#   /'
link=$(grep -E "^ on fake +fk0 " "$work/fake" | head -1)
check "fake nicstate: the peer's link line shows its rings 512/4096" grep -q "ring rx 512/4096" <<<"$link"
check "fake nicstate: the peer's link line shows its NUMA node and remote IRQs" \
	grep -q "node 1, IRQs on node 0" <<<"$link"
check "fake nicstate: the ring hint, on fake" \
	grep -qE "hint +on fake: rx ring 512 of 4096: ethtool -G fk0 rx 4096" "$work/fake"
T kill-session -t ps 2>/dev/null
lr_summary
