#!/usr/bin/env bash
# peer_stopped: a `linerate -s` peer stopped mid-test (SIGSTOP for 15 s, then SIGCONT) under the
# three clients that show it (issue 32): the headless client, the dashboard client (tmux) and
# the matrix, each against its own server in its own pair of namespaces, all three at once (the
# run costs one stop, ~22 s, not three). Witnesses: the wall clock, and the stopped server's
# own state in /proc (T while stopped), read when each client ended or marked the peer.
#   headless   -t 2: ends within -t + 8 s (docs/wire.md §9: TEST_END to the results) + 3 s,
#              exit 1, while the server is still stopped; stderr marks the peer stale (the
#              peer view's bound: 3 intervals, at least 2 s) while the server is stopped
#   dashboard  -t 2 -i 0.5, overview: the peer's line says "stale" while the server is stopped
#              and its rows show no rate ("-"), not the last one; the verdict says FAILED
#              within the same bound, the server still stopped
#   matrix     u=tcp,udp -t 2: case 1's row (--matrix-csv, written as the case ends) comes
#              within the bound and says "failed:" with the reason and the stale peer; case 2
#              runs after SIGCONT and has its row (not failed); the grid exits 1
# Only the three servers this script started are signalled, by PID.
source "$(dirname "$0")/../lib.sh"
lr_plan "headless: ends within -t + 8 s + 3 s, exit 1" "headless: ended while the peer was stopped" \
	"headless: the peer's rows came before the stop" "headless: stderr marks the peer stale" \
	"dashboard: the peer line says stale while the peer is stopped" \
	"dashboard: the stale peer row shows no rate" \
	"dashboard: the verdict says FAILED within -t + 8 s + 3 s" \
	"dashboard: ended while the peer was stopped" \
	"matrix: case 1's row within -t + 8 s + 3 s, while the peer was stopped" \
	"matrix: case 1's row says failed, why, and the peer stale" \
	"matrix: case 2 ran after SIGCONT (its row, not failed)" "matrix: exits 1 (a case failed)"
need_root peer_stopped
command -v tmux >/dev/null || { lr_skip_plan peer_stopped "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan peer_stopped "$LR_BIN not built"; exit 0; }

T_S=2 STOP_S=15 BOUND_MS=$(((2 + 8 + 3) * 1000))
work=$(mktemp -d /tmp/lr_stopped.XXXXXX)
[ -n "${LR_KEEP:-}" ] && echo "# work dir $work" || lr_cleanup_add "rm -rf $work"
source "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" dash 60
u=$(lr_uniq)
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
pstate() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }	# T: stopped

# setup K N: namespaces ${u}K{c,s}, 10.214.N.{1,2}; a server named peer$K in the second;
# SPID_K its PID (nsenter, unshare and sh exec: the PID is linerate's).
setup() {
	local k=$1 n=$2 pid
	lr_netns_pair "${u}${k}c" "${u}${k}s" "${u}${k}0" "${u}${k}1" "10.214.$n.1" "10.214.$n.2"
	nsenter --net="/run/netns/${u}${k}s" unshare -u sh -c \
		"hostname peer$k; exec $LR_BIN -s -B 10.214.$n.2" >"$work/$k.srv" 2>&1 &
	pid=$!
	lr_cleanup_add "kill -CONT $pid 2>/dev/null; kill $pid 2>/dev/null"
	lr_wait_listen 5201 "${u}${k}s" || echo "# server $k did not listen"
	eval "SPID_$k=$pid"
}
# stop_later K: once K's server has accepted its test and 0.7 s more have run, SIGSTOP it for
# STOP_S s, then SIGCONT; K.stop / K.cont hold the wall clock (ms)
stop_later() {
	local k=$1 pid
	eval "pid=\$SPID_$k"
	(
		for ((i = 0; i < 100; i++)); do grep -q 'accepted' "$work/$k.srv" && break; sleep 0.05; done
		sleep 0.7
		[ "$(cat "/proc/$pid/comm")" = linerate ] || exit 1
		kill -STOP "$pid" && now_ms >"$work/$k.stop"
		sleep "$STOP_S"
		kill -CONT "$pid" && now_ms >"$work/$k.cont"
	) &
}
n=0
for k in h d m; do setup "$k" $((++n)); done

# headless
(
	t0=$(now_ms)
	ip netns exec "${u}hc" "$LR_BIN" -c 10.214.1.2 --headless -t $T_S -i 0.5 --csv "$work/h.csv" \
		>"$work/h.out" 2>"$work/h.err"
	echo "$? $(($(now_ms) - t0)) $(pstate "$SPID_h")" >"$work/h.end"
) &
hjob=$!
stop_later h

# dashboard: a wrapper leaves the exit status; the overview (v) shows the peer's rows
cat >"$work/d.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= TERM=screen
ip netns exec ${u}dc $LR_BIN -c 10.214.2.2 -t $T_S -i 0.5 2>"$work/d.err"
echo \$? >"$work/d.rc"
sleep 30
EOF
d0=$(now_ms)
lr_tmux_new_sized 100 30 "bash $work/d.sh"
stop_later d

# matrix
(
	t0=$(now_ms)
	ip netns exec "${u}mc" "$LR_BIN" -c 10.214.3.2 --headless --matrix 'u=tcp,udp' -t $T_S \
		--matrix-csv "$work/m.csv" >"$work/m.out" 2>"$work/m.err"
	echo "$? $(($(now_ms) - t0))" >"$work/m.end"
) &
mjob=$!
m0=$(now_ms)
stop_later m
( for ((i = 0; i < 400; i++)); do
	[ -s "$work/m.csv" ] && [ "$(wc -l <"$work/m.csv")" -ge 2 ] && break; sleep 0.05
done; echo "$(($(now_ms) - m0)) $(pstate "$SPID_m")" >"$work/m.row1" ) &

# the dashboard's screens, read while everything runs: when the peer line first says stale
# (and the server's state then), when the verdict first says FAILED (and the state then)
wait_screen 'Streams' 60 && key v
dstale=no dend_ms=none dend_state=none
: >"$work/d.row"
for ((i = 0; i < 250; i++)); do
	screen >"$work/d.screen"
	if [ "$dstale" = no ] && grep -q 'on peerd (peer): stale' "$work/d.screen"; then
		dstale="$(pstate "$SPID_d")"
		# the row under it: the peer's interface, its rate columns "-"
		awk '/on peerd \(peer\): stale/ { getline; print }' "$work/d.screen" >"$work/d.row"
	fi
	if grep -q FAILED "$work/d.screen"; then
		dend_ms=$(($(now_ms) - d0)) dend_state=$(pstate "$SPID_d")
		break
	fi
	sleep 0.1
done
wait "$hjob" "$mjob"

# headless
read -r hrc hms hstate <"$work/h.end"
check "headless: ends within -t + 8 s + 3 s, exit 1 (rc $hrc after $hms ms)" \
	test "$hrc" -eq 1 -a "$hms" -le $BOUND_MS
check "headless: ended while the peer was stopped (its state: $hstate)" test "$hstate" = T
hstop=$(cat "$work/h.stop")
check "headless: the peer's rows came before the stop" grep -q ',peer,peerh' "$work/h.csv"
check "headless: stderr marks the peer stale" grep -q 'nothing from peerh.*stale' "$work/h.err"
sed 's/^/#   /' "$work/h.err"

# dashboard
check "dashboard: the peer line says stale while the peer is stopped (its state: $dstale)" \
	test "$dstale" = T
sed 's/^/#   /' "$work/d.row"
check "dashboard: the stale peer row shows no rate (rx, tx bit/s '-')" \
	awk 'END { exit !(NR == 1 && $4 == "-" && $5 == "-") }' "$work/d.row"
# (+ 2 s: d0 is taken before tmux and the dashboard start)
check "dashboard: the verdict says FAILED within -t + 8 s + 3 s (${dend_ms} ms from its start)" \
	test "$dend_ms" != none -a "${dend_ms/none/0}" -le $((BOUND_MS + 2000))
check "dashboard: ended while the peer was stopped (its state: $dend_state)" test "$dend_state" = T

# matrix
read -r mrow1 mstate1 <"$work/m.row1"
read -r mrc mms <"$work/m.end"
check "matrix: case 1's row within -t + 8 s + 3 s ($mrow1 ms), while the peer was stopped ($mstate1)" \
	test "$mrow1" -le $BOUND_MS -a "$mstate1" = T
# the verdict by name: it is quoted, and columns are appended after it
verdict_of() { python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(rows[int(sys.argv[2]) - 1]["verdict"] if len(rows) >= int(sys.argv[2]) else "")' "$work/m.csv" "$1"; }
v1=$(verdict_of 1)
echo "#   case 1: $v1"
check "matrix: case 1's row says failed, why, and the peer stale" \
	grep -Eq '^failed: the server went silent.*peer stale' <<<"$v1"
check "matrix: case 2 ran after SIGCONT (its row, not failed)" \
	bash -c '[ "$(awk -F, "NR == 3 { print \$1 }" "$1")" = 2 ] && v=$2 && [ -n "$v" ] && [ "${v#failed}" = "$v" ]' _ "$work/m.csv" "$(verdict_of 2)"
check "matrix: exits 1 (a case failed; rc $mrc after $mms ms)" test "$mrc" -eq 1
lr_summary
