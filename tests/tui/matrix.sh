#!/usr/bin/env bash
# The dashboard's Matrix pane in tmux at 80x24 (root: a veth pair between two network
# namespaces, `linerate -s` in one): the pane appears with the running case highlighted and an
# ETA, finished cases fill in, `s` skips the running case (the server's log shows that test
# ended and no row is written for it), `q` mid-grid exits with the finished rows in the CSV
# (whole) and the same rows in the Markdown table printed after the terminal is back.
# While case 1 runs, the other panes are live: the interface pane's rx and tx rates of the
# test veth agree (0.5x-2x) with the kernel's own byte counters of that veth read from sysfs
# over the same seconds, and the CPU pane's busy % agree (within 30 points) with /proc/stat's.
# Then a second grid (P=1,2, -t 2) runs to its end while this script samples the pane: its
# ETA never rises while a case runs, falls as the grid runs, and stays within 50 % (at least
# 1.5 s) of the wall-clock time that actually remained until the pane said the grid ended.
. "$(dirname "$0")/../lib.sh"
lr_plan "matrix pane: title and running case at 80x24" "matrix pane: ETA shown" \
	"matrix pane: a finished case fills in" "matrix pane: s skips the running case" \
	"matrix pane: the skipped case has no row" \
	"matrix pane: s while settling passes the next case over unstarted" "matrix pane: q exits 1 mid-grid" \
	"matrix pane: CSV rows whole after q" "matrix pane: Markdown after q has the CSV's rows" \
	"live panes: the interface pane's rx/tx rates match the veth's kernel counters" \
	"live panes: the CPU pane's busy % matches /proc/stat" \
	"matrix ETA: the grid runs to its end" "matrix ETA: never rises while a case runs" \
	"matrix ETA: falls as the grid runs" "matrix ETA: within 50 % of the wall-clock time left"
need_root "tui_matrix"
command -v tmux >/dev/null || { lr_skip_plan tui_matrix "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tui_matrix "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_tm.XXXXXX)
sock="$work/tmux.sock"
lr_cleanup_add "rm -rf $work"
lr_cleanup_add "tmux -S $sock kill-server"
T() { tmux -S "$sock" "$@"; }
A=lrA$$ B=lrB$$ IA=lrta$$ IB=lrtb$$
lr_netns_pair "$A" "$B" "$IA" "$IB" 10.204.0.1 10.204.0.2 1500

ip netns exec "$B" timeout 300 "$LR_BIN" -s -p 5296 >"$work/server.log" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
sleep 0.5

{
	echo 'export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=${TERM:-screen}'
	echo "cd '$work'"
	echo "sh -c 'echo \$\$ >\"$work/pid\"; exec \"\$@\"' sh ip netns exec $A '$LR_BIN' -c 10.204.0.2 -p 5296 --matrix 'P=1,2,3,4,5' -t 2 -i 0.25 --matrix-csv '$work/m.csv' 2>'$work/stderr'"
	echo "echo \$? >'$work/rc'"
	echo "sleep 600"
} >"$work/run.sh"
T new-session -d -s tm -x 80 -y 24 "bash $work/run.sh"
T set-option -t tm status off >/dev/null
screen() { T capture-pane -t tm -p; }
wait_screen() {
	local i
	for ((i = 0; i < ${2:-50}; i++)); do screen | grep -qE -- "$1" && return 0; sleep 0.1; done
	return 1
}
wait_file() { local i; for ((i = 0; i < $2; i++)); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }
rows() { echo $(($(wc -l <"$work/m.csv") - 1)); }

if wait_screen "Matrix.*0 of 5 done" 50 && screen | grep -qE "^ *1 P=1 +running"; then
	pass "matrix pane: title and running case at 80x24"
else
	fail "matrix pane: title and running case at 80x24" "$(screen | grep -m1 Matrix)"
fi
check "matrix pane: ETA shown" wait_screen "ETA [0-9]+ s" 20

# ---- the other panes, live while case 1 runs: samples of the pane beside the witnesses (the
# time, /proc/stat's CPU lines, the veth's byte counters in sysfs), about one interval apart
# (few forks a sample, so that a loaded host still takes several inside case 1: the veth's
# counters from /proc/PID/net/dev of the client, which runs in $A)
live_sample() {
	{
		echo "@ ${EPOCHREALTIME/,/.}"
		grep '^cpu[0-9]' /proc/stat
		awk -v i="$IA:" '$1 == i { print "bytes", $2, $10 }' "/proc/$(cat "$work/pid")/net/dev"
		screen
	} >>"$work/live.txt"
}
if wait_screen "^ *1 P=1 +running +[0-9.]+ s" 30; then
	for _ in 1 2 3 4 5 6; do live_sample; sleep 0.05; done
fi
# live_judge rates|cpu: prints the figures; exit 0 held, 1 not, 3 too few samples in case 1 (the
# window is the pane's own "running" seconds, a figure of linerate's: too few is a failure)
live_judge() {
	python3 "$LR_TOP/tests/tools/tui_matrix_judge.py" live "$1" "$work/live.txt"
}
for what in rates cpu; do
	name="live panes: the interface pane's rx/tx rates match the veth's kernel counters"
	[ $what = cpu ] && name="live panes: the CPU pane's busy % matches /proc/stat"
	out=$(live_judge $what 2>&1)
	case $? in
	0) pass "$name ($out)" ;;
	*) fail "$name" "$out" ;;
	esac
done
# case 1 ends after about 2 s: its row fills in (received Mb/s)
check "matrix pane: a finished case fills in" wait_screen "^ +1 TCP x1 -> +[0-9.]+ Mb/s" 60
# skip case 2 once it runs
# (its test running: the pane names case 2 already while the link settles after case 1)
wait_screen "^ *2 P=2 +running +[0-9.]+ s" 60
T send-keys -t tm s
wait_screen "^ *3 P=3 +running" 40
# the server's own log: the second test ended by the client, a third one accepted
for _ in $(seq 50); do [ "$(grep -c 'accepted test' "$work/server.log")" -ge 3 ] && break; sleep 0.1; done
check "matrix pane: s skips the running case" test "$(grep -c 'terminated the test' "$work/server.log")" -eq 1 -a \
	"$(grep -c 'accepted test' "$work/server.log")" -ge 3
screen >"$work/pane.txt"
check "matrix pane: the skipped case has no row" \
	awk -F, 'NR > 1 && $1 == 2 { bad = 1 } END { exit bad }' "$work/m.csv"
# s while the link settles after case 3 passes case 4 over before it starts: the server never
# sees it (no fourth test accepted before case 5's, no second terminated one)
if wait_screen "^ +3 TCP x3 -> +[0-9.]+ Mb/s" 60; then
	T send-keys -t tm s
	wait_screen "^ *5 P=5 +running +[0-9.]+ s" 40
	for _ in $(seq 50); do [ "$(grep -c 'accepted test' "$work/server.log")" -ge 4 ] && break; sleep 0.1; done
	acc=$(grep -c 'accepted test' "$work/server.log"); term=$(grep -c 'terminated the test' "$work/server.log")
	echo "    after s while settling: the server accepted $acc tests, $term terminated"
	if [ "$term" -ge 2 ]; then
		skip "matrix pane: s while settling passes the next case over unstarted" \
			"the key came after case 4 had started (this host was slow): it was stopped instead"
	else
		check "matrix pane: s while settling passes the next case over unstarted" \
			test "$acc" -eq 4 -a "$(awk -F, 'NR > 1 && $1 == 4' "$work/m.csv" | wc -l)" -eq 0
	fi
else
	fail "matrix pane: s while settling passes the next case over unstarted" "case 3's row never showed"
fi
T send-keys -t tm q
wait_file "$work/rc" 50
rc=$(cat "$work/rc" 2>/dev/null)
check "matrix pane: q exits 1 mid-grid" test "${rc:-x}" = 1
# the table is printed on the terminal once it is back: the pane's history, wrapped lines joined
T capture-pane -t tm -p -J -S -300 >"$work/table.md"
check "matrix pane: CSV rows whole after q" \
	python3 -c '
import csv, sys
data = open(sys.argv[1], newline="").read()
rows = list(csv.reader(data.splitlines()))
assert data.endswith("\n") and len(rows) >= 2 and all(len(r) == 36 for r in rows), rows
' "$work/m.csv"
check "matrix pane: Markdown after q has the CSV's rows" \
	test "$(grep -cE '^\| [0-9]+ \|' "$work/table.md")" -eq "$(rows)"

# ---- a grid that runs to its end: the ETA the pane shows against the wall clock. The pane
# every ~0.1 s (one capture, read by bash: a sample costs no more): the wall-clock time, the
# cases done, the running case ("N-" while its test has not begun: the pane names the next
# case while the link settles after the one before) and the ETA; then the time of the first
# sample whose pane says the grid ended.
{
	echo 'export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=${TERM:-screen}'
	echo "cd '$work'"
	echo "ip netns exec $A '$LR_BIN' -c 10.204.0.2 -p 5296 --matrix 'P=1,2' -t 2 -i 0.25 --matrix-csv '$work/m2.csv' 2>'$work/stderr2'"
	echo "echo \$? >'$work/rc2'"
	echo "sleep 600"
} >"$work/run2.sh"
T kill-session -t tm
T new-session -d -s tm -x 80 -y 24 "bash $work/run2.sh"
T set-option -t tm status off >/dev/null
re_end='Matrix [^[:alnum:]]* 2 of 2 cases: ' re_eta='([0-9]+) of 2 done, ETA ([0-9]+) s'
re_run='([0-9]+) P=[0-9] +running( +[0-9.]+ s)?'
for ((i = 0; i < 300; i++)); do
	t=${EPOCHREALTIME/,/.} s=$(screen)
	if [[ $s =~ $re_end ]]; then echo "$t end"; break; fi
	if [[ $s =~ $re_eta ]]; then
		done_eta="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
		if [[ $s =~ $re_run ]]; then
			c=${BASH_REMATCH[1]}
			[ -n "${BASH_REMATCH[2]}" ] || c+=-
			echo "$t ${done_eta% *} $c ${done_eta#* }"
		fi
	fi
	sleep 0.1
done >"$work/eta.txt"
T send-keys -t tm q
wait_file "$work/rc2" 50
rows2=$(($(wc -l 2>/dev/null <"$work/m2.csv" || echo 1) - 1)) rc2=$(cat "$work/rc2" 2>/dev/null)
grid_ended() { grep -q ' end$' "$work/eta.txt" && [ "$rc2" = 0 ] && [ "$rows2" = 2 ]; }
check "matrix ETA: the grid runs to its end ($(grep -c . "$work/eta.txt") samples, rc $rc2, $rows2 rows)" \
	grid_ended
for what in rise falls near; do
	case $what in
	rise) name="matrix ETA: never rises while a case runs" ;;
	falls) name="matrix ETA: falls as the grid runs" ;;
	near) name="matrix ETA: within 50 % of the wall-clock time left" ;;
	esac
	# too few samples of the pane's ETA (or its end never shown) is a failure, never a skip
	out=$(python3 "$LR_TOP/tests/tools/tui_matrix_judge.py" eta $what "$work/eta.txt" 2>&1)
	case $? in
	0) pass "$name ($out)" ;;
	*) fail "$name" "$out" ;;
	esac
done
if [ -n "${LR_DEBUG:-}" ]; then cat "$work/pane.txt"; cat "$work/stderr" "$work/table.md" "$work/m.csv" "$work/server.log" "$work/eta.txt"; fi
lr_summary
