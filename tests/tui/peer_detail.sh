#!/usr/bin/env bash
# Both ends on one screen (issue 12), the real dashboard in tmux at 80x24 and 200x50. Two
# network namespaces joined by a veth, each under its own host name (unshare -u): the dashboard
# client in one ("lrclient"), `linerate -s` in the other ("peerhost"); a TCP test paced at
# 200 Mbit/s. While it runs, without a key press, our detail view shows a line for the peer
# (host:interface, rx/tx rate, drops, FIFO, hottest softirq CPU), and its rx rate matches the
# peer kernel's own rx_bytes rate over the same second (sysfs in the server's namespace,
# 25 % slack: the peer's row covers its own interval, up to a tick away from ours). One key (P)
# opens the peer's detail view: its link line names the peer host and interface, its Bitrate
# pane's rx rate matches the peer kernel's again, its Packets pane's rx p/s the peer kernel's
# rx_packets rate; P again is our side. Private tmux server; kills only what it started.
. "$(dirname "$0")/../lib.sh"

for size in 80x24 200x50; do
	lr_plan "$size: the peer line names peerhost and its interface" \
		"$size: the peer line's rx rate == the peer kernel's" \
		"$size: the peer line shows drops, FIFO and the hottest softirq CPU" \
		"$size: P opens the peer's detail (on peerhost + its interface)" \
		"$size: the peer's Bitrate rx == the peer kernel's" \
		"$size: the peer's Packets rx p/s == the peer kernel's" \
		"$size: P again is our side"
done
need_root "tui_peer_detail"
command -v tmux >/dev/null || { lr_skip_plan tui_peer_detail "tmux not installed"; exit 0; }
command -v unshare >/dev/null || { lr_skip_plan tui_peer_detail "unshare not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tui_peer_detail "no binary at $LR_BIN (run make)"; exit 0; }

u=$(lr_uniq)
A=${u}A S=${u}S IA=${u}a IS=${u}s ADDR_A=10.203.8.1 ADDR_S=10.203.8.2
lr_netns_pair "$A" "$S" "$IA" "$IS" "$ADDR_A" "$ADDR_S" 1500 ||
	{ lr_skip_plan tui_peer_detail "cannot create the namespaces"; exit 0; }
for ns in "$A" "$S"; do ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
work=$(mktemp -d /tmp/lr_tuipd.XXXXXX)
chmod 755 "$work"
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" pd
kern() { ip netns exec "$S" cat "/sys/class/net/$IS/statistics/$1"; }
# witness COUNTER CMD...: runs CMD (a screen capture into $work/shot) in the middle of one
# second and prints the peer kernel's COUNTER rate over that second (per second)
witness() {
	local c=$1 a b t0 t1
	shift
	a=$(kern "$c"); t0=$(date +%s.%N)
	sleep 0.5
	"$@"
	sleep 0.5
	b=$(kern "$c"); t1=$(date +%s.%N)
	awk -v a="$a" -v b="$b" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.0f\n", (b - a) / (t1 - t0) }'
}
shot() { screen >"$work/shot"; }
# si NUM[kMG] -> the number
si() { awk -v s="$1" 'BEGIN { m = 1; u = substr(s, length(s)); if (u == "k") m = 1e3; else if (u == "M") m = 1e6; else if (u == "G") m = 1e9; if (m > 1) s = substr(s, 1, length(s) - 1); printf "%.0f\n", s * m }'; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b > 0 && a >= b * 0.75 && a <= b * 1.25) }'; }

for size in 80x24 200x50; do
	w=${size%x*} h=${size#*x}
	ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -1 -B $ADDR_S" >"$work/srv.log" 2>&1 &
	srv=$!
	lr_cleanup_add "kill $srv 2>/dev/null"
	lr_wait_listen 5201 "$S" 60
	printf 'hostname lrclient\nLANG=C.UTF-8 TERM=screen %q -c %q -b 200M -t 12 -i 0.5\nsleep 600\n' \
		"$LR_BIN" "$ADDR_S" >"$work/run.sh"
	T kill-session -t pd 2>/dev/null
	lr_tmux_new_sized "$w" "$h" "ip netns exec $A unshare -u bash $work/run.sh"
	wait_screen "peerhost:$IS rx [0-9]" 100
	sleep 1
	# our detail view, no key pressed: the peer line
	kbps=$(witness rx_bytes shot)
	kbps=$((kbps * 8))
	line=$(grep -E "peerhost:$IS rx " "$work/shot" | head -1)
	echo "# $size peer line: $line"
	echo "# $size peer kernel rx: $kbps bit/s"
	check "$size: the peer line names peerhost and its interface" test -n "$line"
	shown=$(sed -n 's/.* rx \([0-9.]*[kMG]\{0,1\}\) tx .*/\1/p' <<<"$line")
	check "$size: the peer line's rx rate == the peer kernel's" near "$(si "${shown:-0}")" "$kbps"
	check "$size: the peer line shows drops, FIFO and the hottest softirq CPU" \
		grep -qE 'drop [0-9.]+[kMG]? fifo [0-9.]+[kMG]? /s +softirq [0-9]+% c[0-9]+' <<<"$line"
	# one key: the peer's detail view
	T send-keys -t pd P
	wait_screen "on peerhost +$IS" 20
	kbps=$(witness rx_bytes shot)
	kbps=$((kbps * 8))
	echo "# $size peer detail, peer kernel rx $kbps bit/s:"
	sed 's/^/#   /' "$work/shot" | head -12
	check "$size: P opens the peer's detail (on peerhost + its interface)" grep -qE "^ on peerhost +$IS " "$work/shot"
	read -r num unit < <(sed -n 's/^ rx \([0-9.]*\) \([kMG]\{0,1\}\)b\/s .*/\1 \2/p' "$work/shot" | head -1)
	check "$size: the peer's Bitrate rx == the peer kernel's" near "$(si "${num:-0}${unit}")" "$kbps"
	kpps=$(witness rx_packets shot)
	read -r num unit < <(sed -n 's/.*│ rx \([0-9.]*\) \([kMG]\{0,1\}\)p\/s .*/\1 \2/p' "$work/shot" | head -1)
	echo "# $size peer's Packets rx ${num:-?}${unit} p/s, peer kernel $kpps p/s"
	check "$size: the peer's Packets rx p/s == the peer kernel's" near "$(si "${num:-0}${unit}")" "$kpps"
	T send-keys -t pd P
	sleep 0.4
	check "$size: P again is our side" bash -c "tmux -S '$sock' capture-pane -t pd -p | grep -qE '^ $IA ' && ! tmux -S '$sock' capture-pane -t pd -p | grep -q '^ on peerhost'"
	T kill-session -t pd 2>/dev/null
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
done
lr_summary
