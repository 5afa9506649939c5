#!/usr/bin/env bash
# The dashboard's Matrix pane in tmux at 80x24 (root: a veth pair between two network
# namespaces, `linerate -s` in one): the pane appears with the running case highlighted and an
# ETA, finished cases fill in, `s` skips the running case (the server's log shows that test
# ended and no row is written for it), `q` mid-grid exits with the finished rows in the CSV
# (whole) and the same rows in the Markdown table printed after the terminal is back.
. "$(dirname "$0")/../lib.sh"
lr_plan "matrix pane: title and running case at 80x24" "matrix pane: ETA shown" \
	"matrix pane: a finished case fills in" "matrix pane: s skips the running case" \
	"matrix pane: the skipped case has no row" "matrix pane: q exits 1 mid-grid" \
	"matrix pane: CSV rows whole after q" "matrix pane: Markdown after q has the CSV's rows"
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
# case 1 ends after about 2 s: its row fills in (received Mb/s)
check "matrix pane: a finished case fills in" wait_screen "^ +1 TCP x1 -> +[0-9.]+ Mb/s" 60
# skip case 2 once it runs
wait_screen "^ *2 P=2 +running" 40
sleep 0.5
T send-keys -t tm s
wait_screen "^ *3 P=3 +running" 40
# the server's own log: the second test ended by the client, a third one accepted
for _ in $(seq 50); do [ "$(grep -c 'accepted test' "$work/server.log")" -ge 3 ] && break; sleep 0.1; done
check "matrix pane: s skips the running case" test "$(grep -c 'terminated the test' "$work/server.log")" -eq 1 -a \
	"$(grep -c 'accepted test' "$work/server.log")" -ge 3
screen >"$work/pane.txt"
check "matrix pane: the skipped case has no row" \
	awk -F, 'NR > 1 && $1 == 2 { bad = 1 } END { exit bad }' "$work/m.csv"
sleep 0.5
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
assert data.endswith("\n") and len(rows) >= 2 and all(len(r) == 30 for r in rows), rows
' "$work/m.csv"
check "matrix pane: Markdown after q has the CSV's rows" \
	test "$(grep -cE '^\| [0-9]+ \|' "$work/table.md")" -eq "$(rows)"
if [ -n "${LR_DEBUG:-}" ]; then cat "$work/pane.txt"; cat "$work/stderr" "$work/table.md" "$work/m.csv" "$work/server.log"; fi
lr_summary
