#!/usr/bin/env bash
# The Streams pane's latency line in the real dashboard (tmux, 80x24, loopback): against a plain
# iperf3 3.12 server (Debian 12's) the pane says there are no probes and why, and no figure;
# against a linerate server it shows the newest interval's p99 beside the idle baseline (the
# words and the form of the figures: the values are the probes', checked against witnesses in
# tests/integration/latency_probes.sh). Private tmux server; kills only its own processes.
. "$(dirname "$0")/../lib.sh"

lr_plan "iperf3 3.12: the pane says no probes, the peer is a plain iperf3" \
	"iperf3 3.12: no rtt figure" \
	"linerate: the pane shows rtt p99 with the idle baseline and lost"
command -v tmux >/dev/null || { lr_skip_plan tui_latency_pane "tmux not installed"; exit 0; }
command -v iperf3 >/dev/null || { lr_skip_plan tui_latency_pane "iperf3 not installed"; exit 0; }

work=$(mktemp -d /tmp/lr_tuilat.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" dash 60
port=$((20000 + RANDOM % 20000))

run() {	# SERVER...: the server on $port, a dashboard client at 80x24 in tmux
	"$@" >"$work/srv.log" 2>&1 &
	srv=$!
	lr_cleanup_add "kill $srv 2>/dev/null"
	lr_wait_listen "$port" || echo "# the server did not listen"
	T kill-session -t dash 2>/dev/null
	lr_tmux_new_sized 80 24 \
		"LANG=C.UTF-8 TERM=screen $LR_BIN -c 127.0.0.1 -p $port -t 3 -b 50M; sleep 60"
	wait_screen 'Streams' 60
}
finish() { T kill-session -t dash 2>/dev/null; kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; }

run iperf3 -s -1 -p "$port"
check "iperf3 3.12: the pane says no probes, the peer is a plain iperf3" \
	wait_screen 'rtt: no probes, the peer is a plain iperf3' 50
check "iperf3 3.12: no rtt figure" bash -c "! tmux -S '$sock' capture-pane -t dash -p | grep -q 'rtt p99'"
screen | sed 's/^/#   /' | tail -6
finish

run "$LR_BIN" -s -1 -p "$port"
check "linerate: the pane shows rtt p99 with the idle baseline and lost" \
	wait_screen 'rtt p99 [0-9.]+ ms \(idle [0-9.]+\) p50 [0-9.]+ lost [0-9]+' 50
screen | sed 's/^/#   /' | tail -6
finish
lr_summary
