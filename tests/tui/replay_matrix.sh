#!/usr/bin/env bash
# --replay of a matrix run and of a run with -b, both recorded here through a veth pair between
# two network namespaces (a `linerate -s` in one, the clients in the other):
# - the matrix ("P=1,2;u=tcp,udp", -t 1) replayed with its own --csv and --streams-csv at 80x24
#   (private tmux server): the Matrix pane fills in as live. The script watches the screen
#   while it plays at x1: it starts with "0 of 4 done", the done count only grows, each case's
#   row first shows at a recorded time (status line "+E s") no earlier than the cases' own
#   measured seconds (the matrix CSV's `seconds`, summed up to it) allow, and each row shows
#   the receiver rate the matrix CSV holds, as the pane formats it (receiver_bps / 1e6, %.2f);
#   the end shows "4 of 4 cases: ended".
# - the matrix CSV alone: every row shown finished from the start, the pane and the status line
#   say there are no times, and the rows carry the CSV's rates.
# - a client run with -b 20M -P 2: its --streams-csv holds target_bps = 20000000 on every row
#   (the -b given), and the replay's Streams pane (v, the detail view) shows "20.00 Mb/s" as
#   each stream's target; a streams CSV from before the column (the loopback fixture) shows
#   "unrecorded", never "unlimited".
# Timings are never asserted beyond "not before the case could have ended".
source "$(dirname "$0")/../lib.sh"
lr_plan "record: matrix exit 0 with 4 rows" "record: -b 20M client exit 0" \
	"record: target_bps is the -b on every stream row" \
	"timed: starts with 0 of 4 done" "timed: the done count only grows" \
	"timed: each row first shows no earlier than its case could end" \
	"timed: every case's row shows the CSV's receiver rate" "timed: ends with 4 of 4 cases: ended" \
	"alone: the pane says no times" "alone: the status line says rows shown finished" \
	"alone: every case's row shows the CSV's receiver rate" \
	"streams: each stream's target is the recorded -b" \
	"streams: an older CSV's target is unrecorded, not unlimited"
need_root "tui_replay_matrix"
command -v tmux >/dev/null || { lr_skip_plan tui_replay_matrix "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tui_replay_matrix "no binary at $LR_BIN (run make)"; exit 0; }

u=$(lr_uniq)
A=${u}a B=${u}b IA=${u}x IB=${u}y
ADDR_A=10.204.$((RANDOM % 200)).1
ADDR_B=${ADDR_A%.1}.2
port=$((20000 + RANDOM % 20000))
work=$(mktemp -d /tmp/lr_replaymx.XXXXXX)
[ -n "${LR_KEEP:-}" ] && echo "work dir $work" || lr_cleanup_add "rm -rf $work"
sock="$work/tmux.sock"
lr_cleanup_add "tmux -S $sock kill-server 2>/dev/null"
T() { tmux -S "$sock" "$@"; }
fix=$LR_TOP/tests/fixtures/report

# ---- record
lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
lr_bg timeout 90 ip netns exec "$B" "$LR_BIN" -s -p "$port" >"$work/srv.log" 2>&1
sleep 0.5
timeout 60 ip netns exec "$A" "$LR_BIN" --headless -c "$ADDR_B" -p "$port" \
	--matrix "P=1,2;u=tcp,udp" -t 1 -i 0.2 -I "$IA" --csv "$work/if.csv" \
	--streams-csv "$work/st.csv" --matrix-csv "$work/mx.csv" >"$work/mx.md" 2>"$work/mx.err"
rc=$?
rows=$(($(wc -l <"$work/mx.csv" 2>/dev/null || echo 1) - 1))
check "record: matrix exit 0 with 4 rows ($rc, $rows)" test "$rc" = 0 -a "$rows" = 4
timeout 30 ip netns exec "$A" "$LR_BIN" --headless -c "$ADDR_B" -p "$port" -b 20M -P 2 -t 3 \
	-i 0.2 -I "$IA" --csv "$work/tif.csv" --streams-csv "$work/tst.csv" >"$work/t.out" 2>&1
rc=$?
check "record: -b 20M client exit 0 ($rc)" test "$rc" = 0
# the witness: the -b given on the command line, against the column read by its name (the
# "latency" rows carry the probes, not a stream)
tg=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["stream"] != "latency" { n++; if ($c["target_bps"] != "20000000") bad++ }
	END { print n + 0, bad + 0 }' "$work/tst.csv")
check "record: target_bps is the -b on every stream row ($tg: rows, others)" \
	sh -c "[ '${tg% *}' -gt 0 ] && [ '${tg#* }' = 0 ]"

screen() { T capture-pane -t rp -p; }
wait_screen() {
	local i
	for ((i = 0; i < ${2:-40}; i++)); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# a session that outlives every replay: killing the last one ends the tmux server, and a
# new-session racing that exit found no server (seen once under ASan in CI)
T new-session -d -s keep -x 20 -y 5 "sleep 600"
start() {	# FILES...: a replay at 80x24 in a fresh session
	T kill-session -t rp 2>/dev/null
	T new-session -d -s rp -x 80 -y 24 \
		"LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=screen TZ=UTC $LR_BIN --replay $*; sleep 60"
	T set-option -t rp status off >/dev/null
}
# the CSV's receiver rate of each case as the pane prints it: "CASE RATE" lines
awk -F, 'NR > 1 { printf "%d %.2f\n", $1, $12 / 1e6 }' "$work/mx.csv" >"$work/want"
# the cumulative measured seconds up to each case: "CASE SECONDS" lines
awk -F, 'NR > 1 { s += $10; printf "%d %.3f\n", $1, s }' "$work/mx.csv" >"$work/cum"
# the pane's rows on a screen: "CASE RATE" (the number before "Mb/s")
pane_rows() { awk '/Mb\/s/ && $1 ~ /^[0-9]+$/ { for (i = 2; i < NF; i++) if ($(i + 1) == "Mb/s") { print $1, $i; break } }'; }
rates_match() {	# a file of "CASE RATE" seen against want: every case, equal
	local seen=$1
	sort -u "$seen" >"$seen.u"
	echo "    shown: $(tr '\n' ' ' <"$seen.u")  csv: $(tr '\n' ' ' <"$work/want")"
	[ "$(awk '{ print $1 }' "$seen.u" | sort -u | wc -l)" = 4 ] && diff -q "$seen.u" "$work/want" >/dev/null
}

# ---- the matrix with its run's CSVs, watched while it plays at x1
start "$work/if.csv" "$work/st.csv" "$work/mx.csv"
wait_screen 'replay' 40
: >"$work/seen"; : >"$work/done_seq"; : >"$work/first"
for ((i = 0; i < 400; i++)); do
	screen >"$work/scr"
	e=$(tail -1 "$work/scr" | sed -n 's/.* +\([0-9.]*\) s .*/\1/p')
	sed -n 's/.*Matrix ─ \([0-9]*\) of 4 done.*/\1/p; s/.*Matrix ─ \([0-9]*\) of 4 cases: ended.*/\1/p' \
		"$work/scr" >>"$work/done_seq"
	pane_rows <"$work/scr" | while read -r c r; do
		echo "$c $r" >>"$work/seen"
		grep -q "^$c " "$work/first" || echo "$c ${e:-0}" >>"$work/first"
	done
	grep -q ' end ' <(tail -1 "$work/scr") && grep -q '4 of 4 cases: ended' "$work/scr" && break
	sleep 0.1
done
screen >"$work/end.txt"
check "timed: starts with 0 of 4 done ($(head -1 "$work/done_seq"))" test "$(head -1 "$work/done_seq")" = 0
check "timed: the done count only grows ($(uniq "$work/done_seq" | tr '\n' ' '))" \
	awk 'NR > 1 && $1 < p { bad = 1 } { p = $1 } END { exit bad || NR == 0 }' "$work/done_seq"
echo "    first shown at +s: $(sort -n "$work/first" | tr '\n' ' ')  cases' seconds so far: $(tr '\n' ' ' <"$work/cum")"
check "timed: each row first shows no earlier than its case could end" \
	awk 'NR == FNR { cum[$1] = $2; next } { n++; if ($2 < cum[$1] - 0.25) bad = 1 }
		END { exit bad || n != 4 }' "$work/cum" "$work/first"
check "timed: every case's row shows the CSV's receiver rate" rates_match "$work/seen"
check "timed: ends with 4 of 4 cases: ended" grep -q 'Matrix ─ 4 of 4 cases: ended' "$work/end.txt"

# ---- the matrix CSV alone
start "$work/mx.csv"
wait_screen 'Matrix' 40
sleep 0.3
screen >"$work/alone.txt"
check "alone: the pane says no times" grep -q '4 of 4 cases: no times: all shown finished' "$work/alone.txt"
check "alone: the status line says rows shown finished" \
	sh -c "tail -1 '$work/alone.txt' | grep -q 'matrix CSV alone: rows shown finished'"
pane_rows <"$work/alone.txt" >"$work/alone_rows"
check "alone: every case's row shows the CSV's receiver rate" rates_match "$work/alone_rows"

# ---- the Streams pane's target
start "$work/tif.csv" "$work/tst.csv"
wait_screen 'replay' 40
T send-keys -t rp v
wait_screen 'Streams' 30
# both streams' rows, drawn once the replay reaches them (slower under ASan): up to 5 s
for ((i = 0; i < 50; i++)); do
	[ "$(screen | grep -cE '^ [0-9]+ +tx +20\.00 Mb/s ')" = 2 ] && break
	sleep 0.1
done
screen >"$work/streams.txt"
n=$(grep -cE '^ [0-9]+ +tx +20\.00 Mb/s ' "$work/streams.txt")
check "streams: each stream's target is the recorded -b ($n of 2 rows say 20.00 Mb/s)" test "$n" = 2
start "$fix/loopback_ifaces.csv" "$fix/loopback_streams.csv"
wait_screen 'replay' 40
T send-keys -t rp v
wait_screen 'Streams' 30
wait_screen '^ 1 +tx +' 50
screen >"$work/old.txt"
check "streams: an older CSV's target is unrecorded, not unlimited" \
	sh -c "grep -qE '^ 1 +tx +unrecorded ' '$work/old.txt' && ! grep -q unlimited '$work/old.txt'"
lr_summary
