#!/usr/bin/env bash
# The dashboard driving traffic, in tmux: --demo shows traffic on lo without root; then (root)
# `linerate -c` in one network namespace against `linerate -s` and against Debian's `iperf3 -s`
# in another (veth pair): traffic in the bitrate pane within 2 ticks, `s` stops it (the kernel's
# counters go flat) and starts it again, `]` doubles a UDP target and the kernel's counters
# follow within 10 % (the streams CSV's target_bps with them), `>` adds a stream, the verdict panel, `q` mid-test exits 0 with complete
# CSVs and the server goes on serving another client. Kills only the processes it started.
. "$(dirname "$0")/../lib.sh"

command -v tmux >/dev/null || { skip tui_traffic "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { skip tui_traffic "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_tt.XXXXXX)
chmod 755 "$work"
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" tt 40
IV=0.5

# start W H PREFIX... -- ARGS...: linerate in a fresh tmux session, run through PREFIX (netns,
# setpriv); records its pid and exit code.
start() {
	local w=$1 h=$2 pre=() args
	shift 2
	while [ "$1" != "--" ]; do pre+=("$1"); shift; done
	shift
	args=$(printf '%q ' "$@")
	T kill-session -t tt 2>/dev/null
	rm -f "$work"/rc "$work"/pid
	cat >"$work/run.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=\${TERM:-screen}
cd "$work"
sh -c 'echo \$\$ >"$work/pid"; exec "\$@"' sh ${pre[*]:+$(printf '%q ' "${pre[@]}")} "$LR_BIN" $args 2>"$work/stderr"
echo \$? >"$work/rc"
sleep 600
EOF
	chmod 644 "$work/run.sh"
	lr_tmux_new "$w" "$h" "bash $work/run.sh"
	wait_file "$work/pid" 50
}
# The number of stream rows in the Streams pane with a non-zero achieved rate.
live_streams() {
	screen | awk '/ Streams /{ on = 1; next }
		on && $2 ~ /^(tx|rx)$/ { split(substr($0, 20, 12), v, " "); if (v[1] + 0 > 0) n++ }
		END { print n + 0 }'
}
wait_live() {	# wait_live N TENTHS: at least N streams with a rate on screen
	local i
	for ((i = 0; i < $2; i++)); do [ "$(live_streams)" -ge "$1" ] && return 0; sleep 0.1; done
	return 1
}
exited_ok() {	# exited_ok NAME
	if wait_file "$work/rc" 50; then check "$1 exits 0" [ "$(cat "$work/rc")" = 0 ]
	else fail "$1" "did not exit"; fi
}

# ---- --demo: in-process server and streams on lo, no root
demo_user=()
lr_bin_saved=$LR_BIN
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	# uid 65534 may not reach the build tree (a clone under a 0700 directory): use a copy
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$LR_BIN" 2>/dev/null ||
		{ cp "$LR_BIN" "$work/linerate" && chmod 755 "$work/linerate" && LR_BIN=$work/linerate; }
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$LR_BIN" 2>/dev/null &&
		demo_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
start 100 40 "${demo_user[@]}" -- --demo -i $IV
LR_BIN=$lr_bin_saved
if wait_live 2 60; then pass "demo: 2 streams live on lo${demo_user:+ as uid 65534}"; else
	fail "demo: streams live" "$(screen | tail -12)"; fi
check "demo: lo selected (detail view)" wait_screen '^ lo +speed'
if screen | awk '/^ tx /{ print $2 }' | head -1 | grep -qvE '^(0|-)$'; then
	pass "demo: lo tx rate in the bitrate pane"; else fail "demo: bitrate pane" "$(screen | head -12)"; fi
key q
exited_ok "demo q"

# --no-start waits for s; -t 2 ends the test by itself, with the verdict panel
start 100 40 "${demo_user[@]}" -- --demo -i $IV -t 2 --no-start
check "demo --no-start: idle" wait_screen 'Streams  idle .*no test running|no test running: s starts one' 30
key s
check "demo s: running" wait_screen 'Streams  running' 40
check "demo -t 2: verdict at the end" wait_screen 'Verdict: TCP x2 -> 127.0.0.1, [0-9.]+ s, done' 80
check "demo -t 2: state done" wait_screen 'Streams  done'
key Enter
check "demo Enter closes the verdict" sh -c "sleep 0.5; ! tmux -S '$sock' capture-pane -t tt -p | grep -q 'Verdict:'"
key q
exited_ok "demo after -t"

# SIGTERM and SIGHUP mid-test: streams stop, exit 0
for sig in TERM HUP; do
	start 100 40 "${demo_user[@]}" -- --demo -i $IV
	wait_live 2 60
	kill -$sig "$(cat "$work/pid")"
	exited_ok "demo SIG$sig mid-test"
done
[ -n "${demo_user[*]}" ] || [ "$(id -u)" != 0 ] || skip "demo as non-root" "binary not readable by uid 65534"

# ---- root: network namespaces
if [ "$(id -u)" -ne 0 ]; then
	skip tui_traffic_netns "needs root (network namespaces); CI runs it as root"
	lr_summary
	exit
fi
A=$(lr_uniq)a B=$(lr_uniq)b IA=tta$$ IB=ttb$$
lr_netns_pair "$A" "$B" "$IA" "$IB" 10.77.1.1 10.77.1.2 1500 || { fail netns "cannot create"; exit 1; }
txb() { ip netns exec "$A" cat /sys/class/net/$IA/statistics/tx_bytes; }
# rate_bps SECONDS: the kernel's tx bit rate of the client's veth over SECONDS
rate_bps() {
	local a b
	a=$(txb); sleep "$1"; b=$(txb)
	echo $(( (b - a) * 8 * 10 / ${1/./} ))	# SECONDS given as N.N
}

# one_server NAME CMD...: the checks against one kind of server (already listening on PORT)
run_against() {
	local name=$1 port=$2 srv_pid=$3 r1 r2 a b t0
	start 100 40 ip netns exec "$A" -- -c 10.77.1.2 -p "$port" -u -b 50M -i $IV \
		--csv "$work/nic.csv" --streams-csv "$work/streams.csv"
	t0=$(date +%s.%N)
	# traffic in the bitrate pane within 2 ticks (+ half a tick of slack for tmux)
	if wait_screen "^ tx [1-9][0-9.]* [kMG]b/s" 15; then
		pass "$name: traffic in the bitrate pane within 2 ticks"
	else
		fail "$name: traffic within 2 ticks" "$(screen | head -6)"
	fi
	check "$name: route interface $IA selected" wait_screen "^ $IA "
	wait_live 1 30
	r1=$(rate_bps 2.0)
	key ']'
	check "$name: ] says the new rate" wait_screen 'bitrate 100 Mbit/s per stream'
	sleep 1
	r2=$(rate_bps 2.0)
	if awk -v a="$r1" -v b="$r2" 'BEGIN { exit !(a > 0 && b / (2 * a) > 0.9 && b / (2 * a) < 1.1) }'; then
		pass "$name: ] doubles the UDP rate (kernel $r1 -> $r2 bit/s)"
	else
		fail "$name: ] doubles the UDP rate" "kernel $r1 -> $r2 bit/s"
	fi
	key s
	sleep $(awk -v i=$IV 'BEGIN { print 2 * i }')
	a=$(txb); sleep 1; b=$(txb)
	check "$name: s stops (kernel tx flat within 2 ticks: $((b - a)) bytes/s)" [ $((b - a)) -lt 20000 ]
	check "$name: verdict panel" wait_screen 'Verdict: UDP x1'
	check "$name: verdict shows achieved and next step" \
		sh -c "tmux -S '$sock' capture-pane -t tt -p | grep -q 'achieved' &&
		       tmux -S '$sock' capture-pane -t tt -p | grep -q 'next step'"
	key Escape
	check "$name: Esc closes the verdict" sh -c "sleep 0.5; ! tmux -S '$sock' capture-pane -t tt -p | grep -q 'Verdict:'"
	key s
	if wait_live 1 30; then
		a=$(txb); sleep 1; b=$(txb)
		check "$name: s starts again (kernel tx $((b - a)) bytes/s)" [ $((b - a)) -gt 1000000 ]
	else
		fail "$name: s starts again" "$(screen | tail -10)"
	fi
	key '>'
	check "$name: > says restarting" wait_screen 'restarting with 2 streams'
	if wait_live 2 40 && screen | grep -q 'UDP x2'; then pass "$name: > shows 2 streams"; else
		fail "$name: > adds a stream" "$(screen | tail -10)"; fi
	key q
	exited_ok "$name q mid-test"
	# CSVs complete: a header, rows, a final newline; the streams file has both streams
	check "$name: nic CSV complete" sh -c "[ \$(wc -l <'$work/nic.csv') -gt 5 ] &&
		[ \"\$(tail -c1 '$work/nic.csv' | od -An -c | tr -d ' ')\" = '\\n' ]"
	check "$name: streams CSV has 2 streams" sh -c "awk -F, 'NR > 1 { s[\$3] = 1 } END { exit length(s) < 2 }' '$work/streams.csv'"
	# each row's target_bps, run by run: the -b 50M given, then the 100M that ] doubled the
	# kernel's rate to (above), through the restarts after it
	tg=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "target_bps") c = i; next }
		{ t = c ? $c : "nocolumn"; if (t == "") t = "empty"
		  if (t != last) { printf "%s%s", sep, t; sep = " " } last = t }' "$work/streams.csv")
	check "$name: streams CSV target_bps follows ] (-b 50M, then 100M: $tg)" \
		test "$tg" = "50000000 100000000"
	# SIGHUP (an SSH drop) mid-test: exit 0 too
	start 100 40 ip netns exec "$A" -- -c 10.77.1.2 -p "$port" -i $IV
	wait_live 1 40
	kill -HUP "$(cat "$work/pid")"
	exited_ok "$name SIGHUP mid-test"
	# the server goes on serving
	check "$name: server still running" kill -0 "$srv_pid"
	if ip netns exec "$A" timeout 20 "$LR_BIN" -c 10.77.1.2 -p "$port" -t 1 --headless \
		>"$work/second.out" 2>&1 && grep -q receiver "$work/second.out"; then
		pass "$name: a second client completes a test"
	else
		fail "$name: second client" "$(tail -3 "$work/second.out")"
	fi
}

lr_bg ip netns exec "$B" "$LR_BIN" -s -p 5301 >"$work/lrsrv.log" 2>&1
srv=$LR_PID
lr_wait_listen 5301 "$B"
run_against "linerate -s" 5301 "$srv"

if command -v iperf3 >/dev/null; then
	lr_bg ip netns exec "$B" iperf3 -s -p 5302 >"$work/iperf3.log" 2>&1
	srv=$LR_PID
	lr_wait_listen 5302 "$B"
	run_against "iperf3 -s" 5302 "$srv"
else
	skip "iperf3 -s" "iperf3 not installed"
fi
lr_summary
