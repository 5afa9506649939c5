#!/usr/bin/env bash
# The Queues pane on a real multi-queue device (issue 15), the real dashboard in tmux at 80x24:
# an ifb with 4 queues in a namespace receives everything that arrives on the namespace's veth
# (tc ingress, u32 match-all, mirred redirect). Two UDP tests run at once from the other
# namespace: one stream at 40 Mbit/s and three at 4 Mbit/s, so one queue is clearly the
# hottest whatever the hash does. At 80x24 Q opens the pane in place of Packets; at 132x43 it
# is its own band beside Packets without a key. While the load runs, its first row must be the
# queue whose rx_packets the kernel (`ethtool -S` on the ifb, read around one second) counted
# most, and its rx p/s must match that queue's kernel rate over that second (30 % slack: the
# pane's interval is up to a tick away from the witness's); the overview's HOT Q column must
# name that queue too. The ifb has no IRQ: its queues' CPU is unknown and must be drawn "-",
# never 0.
# Private tmux server; kills only what it started.
. "$(dirname "$0")/../lib.sh"

lr_plan "queues_tui: 80x24: Q opens the Queues pane (Packets gone)" \
	"queues_tui: 80x24: the hottest row is the kernel's hottest queue" \
	"queues_tui: 80x24: its rx p/s == the kernel's rate of that queue" \
	"queues_tui: 80x24: the ifb's CPU is shown unknown (-)" \
	"queues_tui: 80x24: Q again brings Packets back" \
	"queues_tui: 132x43: the Queues band beside Packets without a key" \
	"queues_tui: 132x43: the hottest row is the kernel's hottest queue" \
	"queues_tui: 132x43: its rx p/s == the kernel's rate of that queue" \
	"queues_tui: 132x43: the ifb's CPU is shown unknown (-)" \
	"queues_tui: 132x43: the overview's HOT Q is the kernel's hottest queue"
need_root "queues_tui"
for t in tmux ethtool tc; do
	command -v "$t" >/dev/null || { lr_skip_plan queues_tui "$t not installed"; exit 0; }
done
[ -x "$LR_BIN" ] || { lr_skip_plan queues_tui "no binary at $LR_BIN (run make)"; exit 0; }

u=$(lr_uniq)
NA=${u}a NB=${u}b IA=${u}a IB=${u}b IFB=${u}q
work=$(mktemp -d /tmp/lr_tuiq.XXXXXX)
chmod 755 "$work"
lr_cleanup_add "rm -rf $work"
lr_ifb_netns "$NA" "$NB" "$IA" "$IB" 10.212.0.1 10.212.0.2 "$IFB" ||
	{ lr_skip_plan queues_tui "$LR_IFB_ERR"; exit 0; }
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" q
# "queue rx_packets" of the ifb, per queue
kq() { ip netns exec "$NB" ethtool -S "$IFB" | sed -n 's/^ *rx_queue_\([0-9]*\)_packets: \([0-9]*\)$/\1 \2/p'; }
si() { awk -v s="$1" 'BEGIN { m = 1; u = substr(s, length(s)); if (u == "k") m = 1e3; else if (u == "M") m = 1e6; if (m > 1) s = substr(s, 1, length(s) - 1); printf "%.0f\n", s * m }'; }

for p in 5321 5322; do
	ip netns exec "$NB" "$LR_BIN" -s -p "$p" >"$work/srv$p.log" 2>&1 &
	lr_cleanup_add "kill $! 2>/dev/null"
done
printf 'LANG=C.UTF-8 TERM=screen %q -I %q -i 0.5\nsleep 600\n' "$LR_BIN" "$IFB" >"$work/run.sh"
# load: one UDP stream at 40 Mbit/s and three at 4 Mbit/s, 8 s, bounded
load() {
	ip netns exec "$NA" "$LR_BIN" -c 10.212.0.2 -p 5321 -u -b 40M -P 1 -t 8 --headless \
		>"$work/c1.log" 2>&1 &
	c1=$!; lr_cleanup_add "kill $c1 2>/dev/null"
	ip netns exec "$NA" "$LR_BIN" -c 10.212.0.2 -p 5322 -u -b 4M -P 3 -t 8 --headless \
		>"$work/c2.log" 2>&1 &
	c2=$!; lr_cleanup_add "kill $c2 2>/dev/null"
}
# witness: a screen capture into $work/shot in the middle of one second, and the kernel's
# hottest queue ($kq_hot) and its rx_packets rate ($kq_pps) over that second
witness() {
	kq >"$work/k0"; t0=$(date +%s.%N)
	sleep 0.5
	screen >"$work/shot"
	sleep 0.5
	kq >"$work/k1"; t1=$(date +%s.%N)
	read -r kq_hot kq_pps < <(join "$work/k0" "$work/k1" |
		awk -v t0="$t0" -v t1="$t1" '{ r = ($3 - $2) / (t1 - t0); if (r > best) { best = r; q = $1 } }
			END { printf "%s %.0f\n", q, best }')
}
# the pane's first row under its header ("  q  rx p/s ..."), right of any pane border
first_row() {
	local hy
	hy=$(awk '/rx p\/s +tx p\/s/ { print NR; exit }' "$work/shot")
	[ -n "$hy" ] || { echo ""; return; }
	sed -n "$((hy + 1))p" "$work/shot" | awk -F'│' '{ print $NF }'
}
# check_row SIZE: the first row names the kernel's hottest queue at its rate, CPU unknown
check_row() {
	local row pane_q pane_pps cpu
	row=$(first_row)
	pane_q=$(awk '{ print $1 }' <<<"$row")
	pane_pps=$(si "$(awk '{ print $2 }' <<<"$row")")
	echo "$1: kernel: hottest queue $kq_hot at $kq_pps p/s; pane: [$row]"
	check "queues_tui: $1: the hottest row is the kernel's hottest queue" test "$pane_q" = "$kq_hot"
	if awk -v a="$pane_pps" -v b="$kq_pps" 'BEGIN { exit !(a > 0 && b > 100 && a >= b * 0.7 && a <= b * 1.3) }'; then
		pass "queues_tui: $1: its rx p/s == the kernel's rate of that queue"
	else
		fail "queues_tui: $1: its rx p/s == the kernel's rate of that queue" "pane $pane_pps, kernel $kq_pps"
	fi
	cpu=$(awk '{ print $(NF - 1), $NF }' <<<"$row")
	check "queues_tui: $1: the ifb's CPU is shown unknown (-)" test "$cpu" = "- -"
}
start() {	# W H
	T kill-session -t q 2>/dev/null
	sleep 0.3	# the previous dashboard gone
	lr_tmux_new_sized "$1" "$2" "ip netns exec $NB bash $work/run.sh"
	wait_screen "$IFB" 50
	sleep 0.5
}

# 80x24: Q puts the pane in place of Packets
start 80 24
load
T send-keys -t q Q
# pane titles ("Packets ─"), not the status line's "Q: Packets again"
if wait_screen "Queues .*max/mean [0-9]" 60 && ! screen | grep -q "Packets ─"; then
	pass "queues_tui: 80x24: Q opens the Queues pane (Packets gone)"
else
	fail "queues_tui: 80x24: Q opens the Queues pane (Packets gone)" "$(screen | head -5 | tr '\n' '|')"
fi
sleep 2	# the load settles
witness
check_row 80x24
T send-keys -t q Q
if wait_screen "Packets ─" 30 && ! screen | grep -q "Queues ─"; then
	pass "queues_tui: 80x24: Q again brings Packets back"
else
	fail "queues_tui: 80x24: Q again brings Packets back" "$(screen | sed -n 3p)"
fi
T send-keys -t q q
wait "$c1" "$c2" 2>/dev/null

# 132x43: the detail view (where -I starts) has the pane as its own band beside Packets, no
# key needed; the overview (v)'s HOT Q names the kernel's hottest queue
start 132 43
load
if wait_screen "Queues .*max/mean [0-9]" 60 && screen | grep -q "Packets ─"; then
	pass "queues_tui: 132x43: the Queues band beside Packets without a key"
else
	fail "queues_tui: 132x43: the Queues band beside Packets without a key" "$(screen | grep -n "─" | head -4 | tr '\n' '|')"
fi
sleep 2
witness
check_row 132x43
T send-keys -t q v
wait_screen "HOT Q" 30
sleep 0.5
witness
hot=$(awk -v i="$IFB" '$1 == ">" i || $1 == i { for (k = 2; k <= NF; k++) if ($k ~ /^q[0-9]+$/) { print substr($k, 2); exit } }' "$work/shot")
echo "132x43 overview: kernel's hottest queue $kq_hot, HOT Q q$hot"
check "queues_tui: 132x43: the overview's HOT Q is the kernel's hottest queue" test "$hot" = "$kq_hot"
T send-keys -t q q
wait "$c1" "$c2" 2>/dev/null
lr_summary
