#!/usr/bin/env bash
# The peer view in the real dashboard (tmux, 80x24 and 200x50): against a linerate server with
# its own host name (unshare -u, same loopback), the overview lists the peer's test interface
# under ours, marked with the peer's host name, with a live rx rate while the test runs; against
# a server run with --no-peer-stats nothing of the kind appears. Private tmux server; kills only
# its own processes.
. "$(dirname "$0")/../lib.sh"

lr_plan "80x24: peer host line shown" "80x24: peer lo row with a live rx rate" \
	"200x50: peer host line shown" "200x50: peer lo row with a live rx rate" \
	"80x24: the dashboard's --csv has the peer's rows" \
	"no-peer-stats: no peer line" "no-peer-stats: the status line says the peer shares no counters"
need_root "tui_peer_view"
command -v tmux >/dev/null || { lr_skip_plan tui_peer_view "tmux not installed"; exit 0; }
command -v unshare >/dev/null || { lr_skip_plan tui_peer_view "unshare not installed"; exit 0; }

work=$(mktemp -d /tmp/lr_tuipeer.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" dash 60
port=$((20000 + RANDOM % 20000))

run() {	# NAME W H [SERVER-ARGS...]: server under host name peerhost, dashboard client in tmux
	local name=$1 w=$2 h=$3
	shift 3
	unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -1 -p $port $*" >"$work/$name-srv.log" 2>&1 &
	srv=$!
	lr_cleanup_add "kill $srv 2>/dev/null"
	sleep 0.5
	T kill-session -t dash 2>/dev/null
	lr_tmux_new_sized "$w" "$h" \
		"LANG=C.UTF-8 TERM=screen $LR_BIN -c 127.0.0.1 -p $port -t 8 -b 100M -i 0.2 --csv $work/$name.csv; sleep 60"
	wait_screen 'Streams' 60
	T send-keys -t dash v	# with -c the dashboard opens on the route interface's detail
	wait_screen 'IFACE' 30
}
finish() { T kill-session -t dash 2>/dev/null; kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; }

# the row under the peer line is lo with a live bit rate: a number with a unit (94.5M), not
# "-" or "0" (the wide overview has more columns before the rates: found by their form)
peer_row_live() {
	screen | awk '/on peerhost \(peer\)/ { getline; if ($1 == "lo") for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.]+[kMGT]$/) ok = 1 } END { exit !ok }'
}

for size in 80x24 200x50; do
	run "$size" "${size%x*}" "${size#*x}"
	check "$size: peer host line shown" wait_screen 'on peerhost \(peer\)' 80
	ok=1
	for _ in $(seq 30); do peer_row_live && { ok=0; break; }; sleep 0.1; done
	[ $ok -eq 0 ] || screen | sed 's/^/#   /'
	check "$size: peer lo row with a live rx rate" [ $ok -eq 0 ]
	[ "$size" = 80x24 ] && screen | sed 's/^/#   /' | head -24
	finish
	[ "$size" = 80x24 ] && check "80x24: the dashboard's --csv has the peer's rows" \
		grep -qE ',lo,.*,peer,peerhost(,|$)' "$work/$size.csv"
done

run nops 80 24 --no-peer-stats
check "no-peer-stats: the status line says the peer shares no counters" \
	wait_screen 'peer shares no counters' 40
sleep 1.5
check "no-peer-stats: no peer line" bash -c "! tmux -S '$sock' capture-pane -t dash -p | grep -q 'on peerhost'"
finish
