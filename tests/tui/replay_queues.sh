#!/usr/bin/env bash
# --replay with a --queues-csv recording (tests/fixtures/report/ifb_*.csv: a real 4-queue ifb
# run) shows the Queues pane (Q) as the live dashboard does: the recording's 4 queues, its
# source (ethtool -S), and at the recording's end the last rows' rates. Without the queue CSV
# the pane has no queue rows. Private tmux server; kills only its own processes.
. "$(dirname "$0")/../lib.sh"

lr_plan "replay queues: pane lists the recording's 4 queues" "replay queues: source ethtool -S" \
	"replay without the queue CSV: no queue rows"
command -v tmux >/dev/null || { lr_skip_plan tui_replay_queues "tmux not installed"; exit 0; }
fix=$LR_TOP/tests/fixtures/report
work=$(mktemp -d /tmp/lr_tuirq.XXXXXX)
sock="$work/tmux.sock"
[ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"
lr_cleanup_add "tmux -S $sock kill-server"
T() { tmux -S "$sock" "$@"; }
screen() { T capture-pane -t rq -p; }
wait_screen() {	# REGEX [TENTHS]
	local i
	for ((i = 0; i < ${2:-60}; i++)); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
queue_rows() { screen | grep -cE '│ +[0-3] +[0-9.]+[kMG]? +[0-9.]+[kMG]? '; }
run() {	# FILES...
	T kill-session -t rq 2>/dev/null
	T new-session -d -s rq -x 120 -y 30 "LANG=C.UTF-8 TERM=screen $LR_BIN --replay $*; sleep 30"
	T set-option -t rq status off >/dev/null
	wait_screen 'replay' 40
	T send-keys -t rq Q
	wait_screen 'Queues' 30
	sleep 0.5
}

run "$fix/ifb_ifaces.csv" "$fix/ifb_queues.csv"
screen >"$work/with.txt"
n=$(queue_rows)
check "replay queues: pane lists the recording's 4 queues ($n rows)" test "$n" = 4
check "replay queues: source ethtool -S" grep -q 'ethtool -S' "$work/with.txt"
run "$fix/ifb_ifaces.csv"
screen >"$work/without.txt"
n=$(queue_rows)
check "replay without the queue CSV: no queue rows ($n rows)" test "$n" = 0
lr_summary
