#!/usr/bin/env bash
# A dead link in the real dashboard (issue 22), tmux at 80x24. Two namespaces joined by a veth,
# `linerate -s` in one, the dashboard client in the other; an nftables rule inside both
# namespaces (a table this script creates there) drops every TCP and UDP packet once data has
# flowed for about a second: a blackhole, no FIN, no RST.
#   bh      UDP -R with --rcv-timeout 1500: within that bound of the rule going in (wall clock,
#           plus slack for a loaded host) the verdict panel says FAILED and why, where the data
#           stopped (seconds into the test, against when the rule went in), and what the NIC
#           measured until then; keys still work (Esc closes the panel, V reopens it), q exits
#           within a second with status 1, the one-line reason on stderr, the --csv whole
#           (a header, every row complete, rows past the failure), `stty -a` unchanged
#           and the alternate screen left.
#   bh_tcp  the same for a TCP sender with --snd-timeout 1000: FAILED, why, where, exit 1.
#   dead    everything dropped from the start, --connect-timeout 1000: the panel says FAILED
#           with no data moved, q exits 1.
# Private tmux server; kills only what it started.
. "$(dirname "$0")/../lib.sh"

lr_plan "bh: the test ran before the blackhole" "bh: a key answers while the link is dead" "bh: FAILED in the verdict panel within the rcv-timeout bound" \
	"bh: the panel says why (no data for 1.5 s)" "bh: the panel says where the data stopped" \
	"bh: the panel shows what the NIC measured" "bh: Esc closes the panel, V reopens it" \
	"bh: q exits within 1 s" "bh: exit status 1" "bh: the reason on stderr" \
	"bh: stty unchanged" "bh: alternate screen left" \
	"bh: the CSV is whole (header, rows after the failure, every row complete)" \
	"bh: the CSV ends with a newline" \
	"bh_tcp: FAILED in the panel within the snd-timeout bound, says why" \
	"bh_tcp: the panel says where the data stopped" "bh_tcp: q exits 1" \
	"dead: FAILED panel, no data moved" "dead: q exits 1"
need_root "tui_blackhole"
command -v tmux >/dev/null || { lr_skip_plan tui_blackhole "tmux not installed"; exit 0; }
command -v nft >/dev/null || { lr_skip_plan tui_blackhole "nft (nftables) not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tui_blackhole "no binary at $LR_BIN (run make)"; exit 0; }

u=$(lr_uniq)
NC=${u}c NS=${u}s IC=${u}c0 IS=${u}s0 CA=10.213.23.1 SA=10.213.23.2
lr_netns_pair "$NC" "$NS" "$IC" "$IS" "$CA" "$SA" 1500 ||
	{ lr_skip_plan tui_blackhole "cannot create the namespaces"; exit 0; }
work=$(mktemp -d /tmp/lr_tuibh.XXXXXX)
chmod 755 "$work"
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" bh
for ns in "$NC" "$NS"; do
	ip netns exec "$ns" nft -f - <<-'EOF' || { lr_skip_plan tui_blackhole "nft table"; exit 0; }
	table inet lrbh {
		chain in { type filter hook input priority 0; policy accept; }
	}
	EOF
done
blackhole() {	# on: every TCP/UDP packet into either namespace dropped; off: none
	local ns
	for ns in "$NC" "$NS"; do
		{
			echo "flush chain inet lrbh in"
			[ "$1" = on ] && echo "add rule inet lrbh in meta l4proto { tcp, udp } counter drop"
		} | ip netns exec "$ns" nft -f -
	done
}

# a fresh server per case: the one a blackhole cut off ends its own test on its own bounds
start_server() {
	[ -n "${srv:-}" ] && { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; }
	ip netns exec "$NS" "$LR_BIN" -s -B "$SA" >>"$work/srv.log" 2>&1 &
	srv=$!
	lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
	lr_wait_listen 5201 "$NS" 60
}
start_server

# start ARGS...: the dashboard in NC, in tmux at 80x24; its exit status goes to $work/rc, then
# the terminal's settings (stty -a) after it
start() {
	T kill-session -t bh 2>/dev/null
	rm -f "$work/rc" "$work/stty.after" "$work/stderr"
	printf 'cd %q\nstty -a >%q\nip netns exec %q %s 2>%q\necho $? >%q\nstty -a >%q\nsleep 600\n' \
		"$work" "$work/stty.before" "$NC" "$(printf '%q ' "$LR_BIN" "$@")" "$work/stderr" \
		"$work/rc" "$work/stty.after" >"$work/run.sh"
	lr_tmux_new 80 24 "LANG=C.UTF-8 TERM=screen bash $work/run.sh"
}
now() { date +%s.%N; }
# elapsed A B [MAX]: B - A in seconds (3 decimals); exit status: <= MAX
elapsed() { awk -v a="$1" -v b="$2" -v m="${3:-1e9}" 'BEGIN { printf "%.3f\n", b - a; exit !(b - a <= m) }'; }

# ---- bh: the link dies mid-test ----
blackhole off
start -c "$SA" -u -R -b 10M -t 8 -i 0.2 --rcv-timeout 1500 --csv "$work/bh.csv"
wait_screen ' running ' 100; ran=$?
trun=$(now)
sleep 1
rx0=$(ip netns exec "$NC" cat "/sys/class/net/$IC/statistics/rx_bytes")
blackhole on
t0=$(now)
check "bh: the test ran before the blackhole" test "$ran" -eq 0 -a "$rx0" -gt 1000000
# the link is dead, the test not yet failed: a key still answers at once
T send-keys -t bh b
wait_screen 'rates in bytes/s' 5; answered=$?
T send-keys -t bh b
check "bh: a key answers while the link is dead" test "$answered" -eq 0
seen=1
for ((i = 0; i < 100; i++)); do
	screen | grep -q 'FAILED' && { seen=0; break; }
	sleep 0.05
done
t1=$(now)
# the bound: --rcv-timeout (1.5 s) after the last datagram, plus the panel's closing tick and a
# loaded host's slack
took=$(elapsed "$t0" "$t1")
echo "# bh: FAILED on screen $took s after the rule went in (rcv-timeout 1.5 s)"
screen | sed 's/^/#   /'
check "bh: FAILED in the verdict panel within the rcv-timeout bound" \
	awk -v s="$seen" -v d="$took" 'BEGIN { exit !(s == 0 && d <= 3.5) }'
panel=$(screen)
check "bh: the panel says why (no data for 1.5 s)" grep -q 'FAILED.*no data' <<<"$panel"
# "data stopped X s into the test": X is when the rule went in, by the wall clock, counted
# from when the screen first said ' running ' (that lags the data's start by up to a screen
# poll and a tick: 0.3 s; the data's last tick is up to a tick and a poll early: 0.5 s)
into=$(sed -n 's/.*data stopped \([0-9.]*\) s into.*/\1/p' <<<"$panel" | head -1)
rule=$(elapsed "$trun" "$t0")
echo "# bh: the panel says the data stopped ${into:-?} s into the test; the rule went in $rule s after ' running ' showed"
check "bh: the panel says where the data stopped" \
	awk -v x="${into:--1}" -v r="$rule" 'BEGIN { exit !(x >= r - 0.5 && x <= r + 0.4) }'
check "bh: the panel shows what the NIC measured" grep -qE "line rate +$IC rx [0-9.]+ [kMG]b/s" <<<"$panel"
T send-keys -t bh Escape
sleep 0.4
closed=$(screen | grep -c 'FAILED')
T send-keys -t bh V
wait_screen 'FAILED' 20; reopened=$?
check "bh: Esc closes the panel, V reopens it" test "$closed" -eq 0 -a "$reopened" -eq 0
tq=$(now)
T send-keys -t bh q
for ((i = 0; i < 40; i++)); do [ -s "$work/rc" ] && break; sleep 0.05; done
tr=$(now)
echo "# bh: q to exit $(elapsed "$tq" "$tr") s"
check "bh: q exits within 1 s" awk -v a="$tq" -v b="$tr" 'BEGIN { exit !(b - a <= 1.0) }' 
check "bh: exit status 1" test "$(cat "$work/rc" 2>/dev/null)" = 1
echo "# bh: stderr: $(head -c 300 "$work/stderr")"
check "bh: the reason on stderr" grep -q 'no data' "$work/stderr"
sleep 0.3
check "bh: stty unchanged" diff -q "$work/stty.before" "$work/stty.after"
check "bh: alternate screen left" test "$(T display-message -p -t bh '#{alternate_on}')" = 0
# the CSV of the whole run, whole: a header, rows past the failure, every row complete, closed
check "bh: the CSV is whole (header, rows after the failure, every row complete)" awk -F, '
	NR == 1 { n = NF; ok = ($1 == "time"); next }
	NF != n { bad++ } { rows++; last = $2 }
	END { exit !(ok && rows > 10 && !bad && last > 3) }' "$work/bh.csv"
check "bh: the CSV ends with a newline" test "$(tail -c 1 "$work/bh.csv" | od -An -c | tr -d ' ')" = '\n'
blackhole off

# ---- bh_tcp: the same for a TCP sender with --snd-timeout ----
start_server
start -c "$SA" -b 50M -t 8 -i 0.2 --snd-timeout 1000
wait_screen ' running ' 100; ran=$?
sleep 1
blackhole on
t0=$(now)
wait_screen 'FAILED' 60; seen=$?
took=$(elapsed "$t0" "$(now)")
echo "# bh_tcp: FAILED on screen $took s after the rule went in (snd-timeout 1 s)"
panel=$(screen)
[ "$seen" -eq 0 ] || sed "s/^/#   /" <<<"$panel"
check "bh_tcp: FAILED in the panel within the snd-timeout bound, says why" \
	awk -v r="$ran" -v s="$seen" -v d="$took" -v why="$(grep -c 'FAILED.*acknowledged' <<<"$panel")" \
	'BEGIN { exit !(r == 0 && s == 0 && d <= 3.5 && why > 0) }'
check "bh_tcp: the panel says where the data stopped" grep -q 'data stopped [0-9.]* s into the test' <<<"$panel"
T send-keys -t bh q
for ((i = 0; i < 40; i++)); do [ -s "$work/rc" ] && break; sleep 0.05; done
check "bh_tcp: q exits 1" test "$(cat "$work/rc" 2>/dev/null)" = 1
blackhole off

# ---- dead: nothing gets through from the start ----
blackhole on
start -c "$SA" -t 4 -i 0.2 --connect-timeout 1000
wait_screen 'FAILED' 80; seen=$?
panel=$(screen)
grep 'FAILED' <<<"$panel" | sed "s/^/#   /"
check "dead: FAILED panel, no data moved" test "$seen" -eq 0 -a -n "$(grep "no data moved" <<<"$panel")" -a -n "$(grep "FAILED.*cannot connect" <<<"$panel")"
T send-keys -t bh q
for ((i = 0; i < 40; i++)); do [ -s "$work/rc" ] && break; sleep 0.05; done
check "dead: q exits 1" test "$(cat "$work/rc" 2>/dev/null)" = 1
blackhole off
lr_summary
