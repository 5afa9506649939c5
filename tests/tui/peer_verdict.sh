#!/usr/bin/env bash
# The dashboard's verdict panel over both ends (issues 12 and 20), tmux at 80x24. Two network
# namespaces joined by a veth, each under its own host name (unshare -u): the dashboard client
# in one ("lrclient"), `linerate -s` in the other ("peerhost"). A UDP test at 1 Gbit/s against
# a 4 KiB receive buffer on the server (-w 4K) makes the receiver's sockets drop; when the test
# ends the panel names the receiving host and its counter, and the count it shows equals the
# server namespace's own /proc/net/snmp RcvbufErrors delta over the test. The panel never names
# the client's host as the receiver. Private tmux server; kills only what it started.
. "$(dirname "$0")/../lib.sh"

lr_plan "the receiver's sockets dropped (peer kernel)" "the panel names the receiving host" \
	"the panel's RcvbufErrors == the peer kernel's delta" "the panel does not name the local host" \
	"the panel's where line is the ledger's: the receiver's socket on peerhost" \
	"after q the printed result names peerhost and the same count"
need_root "tui_peer_verdict"
command -v tmux >/dev/null || { lr_skip_plan tui_peer_verdict "tmux not installed"; exit 0; }
command -v unshare >/dev/null || { lr_skip_plan tui_peer_verdict "unshare not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tui_peer_verdict "no binary at $LR_BIN (run make)"; exit 0; }

u=$(lr_uniq)
A=${u}A S=${u}S IA=${u}a IS=${u}s ADDR_A=10.203.7.1 ADDR_S=10.203.7.2
lr_netns_pair "$A" "$S" "$IA" "$IS" "$ADDR_A" "$ADDR_S" 1500 ||
	{ lr_skip_plan tui_peer_verdict "cannot create the namespaces"; exit 0; }
for ns in "$A" "$S"; do ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
work=$(mktemp -d /tmp/lr_tuipv.XXXXXX)
chmod 755 "$work"
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" pv
rcvbuf_errs() {	# the server namespace's UDP RcvbufErrors (its kernel's own count)
	ip netns exec "$S" awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 } else print $c }' /proc/net/snmp
}
# the panel's "peer saw" text, its wrapped rows joined (the panel's text column starts at 17)
panel_row() {	# LABEL -> the row's text
	screen | awk -v l="$1" '
		index($0, l) == 5 { on = 1; s = substr($0, 17, 60); next }
		on && substr($0, 5, 12) ~ /^ *$/ && substr($0, 17, 60) !~ /^ *$/ { s = s " " substr($0, 17, 60); next }
		on { exit }
		END { gsub(/  +/, " ", s); print s }'
}

ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -1 -B $ADDR_S" >"$work/srv.log" 2>&1 &
srv=$!
lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
lr_wait_listen 5201 "$S" 60
rb0=$(rcvbuf_errs)
printf 'hostname lrclient\nLANG=C.UTF-8 TERM=screen %q -c %q -u -b 1G -l 1400 -w 4K -t 2 -i 0.2\nsleep 600\n' \
	"$LR_BIN" "$ADDR_S" >"$work/run.sh"
lr_tmux_new 80 24 "ip netns exec $A unshare -u bash $work/run.sh"
wait_screen 'peer saw' 200; seen=$?
sleep 0.3
rb1=$(rcvbuf_errs)
screen | sed 's/^/#   /'
peer=$(panel_row 'peer saw')
where=$(panel_row 'where')
shown=$(sed -n 's/.*UDP RcvbufErrors (socket receive buffer full) \([0-9]*\).*/\1/p' <<<"$peer")
echo "# peer kernel RcvbufErrors +$((rb1 - rb0)); the panel: ${shown:-none} ($peer)"
check "the receiver's sockets dropped (peer kernel)" test $((rb1 - rb0)) -gt 0
check "the panel names the receiving host" grep -q '^on the receiver, peerhost: ' <<<"$peer"
check "the panel's RcvbufErrors == the peer kernel's delta" test "${shown:--1}" -eq $((rb1 - rb0))
check "the panel does not name the local host" bash -c "[ $seen -eq 0 ] && ! grep -q lrclient <<<'$peer'"
# one ledger over both ends: the place is the receiving host's socket, not "this host"
check "the panel's where line is the ledger's: the receiver's socket on peerhost" \
	grep -q "at the receiver's transport: UDP RcvbufErrors on peerhost" <<<"$where"
# q: the result stays on the terminal, the peer's part as headless prints it
T send-keys -t pv q
wait_screen 'loss on the receiver, peerhost' 30
printed=$(T capture-pane -t pv -p -J -S -60 | sed -n 's/.*loss on the receiver, peerhost: UDP RcvbufErrors (socket receive buffer full) \([0-9]*\).*/\1/p' | tail -1)
echo "# after q: the printed peer loss ${printed:-none}"
check "after q the printed result names peerhost and the same count" test "${printed:--1}" -eq $((rb1 - rb0))
lr_summary
