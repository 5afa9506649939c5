#!/usr/bin/env bash
# The exit status table (README "Exit status", man EXIT STATUS), mode by mode: 0 done, 1 the test
# or a resource failed, 2 usage (a bad option or value, an input named on the command line that
# is missing or unreadable, a mode without a headless form run without a terminal); 3 an
# --expect condition not met or not judgeable (ledger_veth.sh, on its runs; here a malformed COND
# is usage, exit 2 before any traffic: port 1 would fail the test, exit 1). No terminal here: the dashboard modes take their headless form (plain
# sampling is CSV on stdout, -c -J into a file is iperf3's JSON, checked by jq against a
# `linerate -s -1` on 127.0.0.1). A closed stdout (`| head`) is a normal end: exit 0, nothing
# said, the CSV files whole. The table's other rows are checked where their mode is: faults.sh
# (bad values, -I naming no interface, refused, port in use, a CSV in a missing directory),
# server_options.sh, report.sh, replay.sh, matrix_veth.sh, tui/exits.sh (terminals the dashboard
# cannot use). Loopback only; every run bounded by timeout; kills only its own.
. "$(dirname "$0")/../lib.sh"
lr_plan usage-missing-procfs usage-missing-sysfs \
	dashboard-no-terminal-is-csv dashboard-J-no-terminal-is-json \
	headless-closed-pipe headless-closed-pipe-files-whole headless-sigterm \
	client-J-to-file client-J-server-one-off client-closed-pipe \
	explain-ok explain-missing explain-not-a-dump explain-csv-write-error \
	report-ok report-missing report-out-dir replay-missing replay-no-terminal matrix-refused \
	demo-no-terminal demo-headless help version-text version-closed-pipe version-write-error
command -v jq >/dev/null || { lr_skip_plan exit_codes "jq not installed (scripts/deps.sh)"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan exit_codes "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan exit_codes "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_xc.XXXXXX)
lr_cleanup_add "rm -rf $work"
fix=$LR_TOP/tests/fixtures
free_port() {	# a loopback port nothing listens on now
	local p
	while :; do
		p=$((20000 + RANDOM % 30000))
		ss -Hltn "sport = :$p" | grep -q . || { echo "$p"; return; }
	done
}
# run NAME WANT ARGS...: the status of linerate ARGS (stdin not a terminal), and one line on
# stderr when it fails (nothing when it does not)
run() {
	local name=$1 want=$2 rc lines want_lines
	shift 2
	timeout 20 "$LR_BIN" "$@" </dev/null >"$work/out" 2>"$work/err"
	rc=$?
	lines=$(wc -l <"$work/err")
	[ "$want" -eq 0 ] && want_lines=0 || want_lines=1
	if [ "$rc" -eq "$want" ] && [ "$lines" -eq "$want_lines" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc (want $want), stderr: $(head -c 200 "$work/err")"
	fi
}
# whole FILE: a CSV whose header and every row have the same number of fields, rows > 0
whole() { awk -F, 'NR == 1 { n = NF } NF != n { bad++ } END { exit !(NR > 1 && !bad) }' "$1"; }
# closed_stdout ARGS...: linerate's status writing to a pipe whose reader has already gone
closed_stdout() {
	python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.run(sys.argv[1:], stdout=w, stdin=subprocess.DEVNULL, timeout=20).returncode)' \
		"$LR_BIN" "$@"
}

# ---- usage
run usage-missing-procfs 2 --headless -t 0.3 --procfs "$work/no-such-dir"
run usage-missing-sysfs 2 --headless -t 0.3 --sysfs "$work/no-such-dir"
run usage-bad-expect 2 -c 127.0.0.1 -p 1 -t 1 --headless --expect 'rate>=1G,loss<=0.1'
check usage-bad-expect-names-it grep -qxF -- "linerate: --expect: 'loss<=0.1': a percentage needs % \
after the number (loss<=0.1%, cpu<90%) (see linerate --help)" "$work/err"

# ---- the dashboard without a terminal: its headless form
timeout 20 "$LR_BIN" -t 0.3 -i 0.1 </dev/null 2>"$work/err" | cat >"$work/plain.csv"
rc=${PIPESTATUS[0]}
check dashboard-no-terminal-is-csv test "$rc" -eq 0 -a ! -s "$work/err" \
	-a "$(head -c 17 "$work/plain.csv")" = "time,elapsed,ifac" -a "$(wc -l <"$work/plain.csv")" -gt 1
timeout 20 "$LR_BIN" -t 0.3 -i 0.1 -J </dev/null >"$work/run.json" 2>"$work/err"
rc=$?
check dashboard-J-no-terminal-is-json test "$rc" -eq 0 -a ! -s "$work/err" -a \
	"$(jq -r '.linerate_run | type' "$work/run.json" 2>/dev/null)" = object

# ---- headless: a closed pipe is a normal end; a signal too
timeout 20 "$LR_BIN" --headless -i 0.1 --csv - --cpu-csv "$work/cpu.csv" 2>"$work/err" | head -n 2 >/dev/null
rc=${PIPESTATUS[0]}
check headless-closed-pipe test "$rc" -eq 0 -a ! -s "$work/err"
check headless-closed-pipe-files-whole whole "$work/cpu.csv"
timeout 20 "$LR_BIN" --headless -i 0.1 --csv "$work/sig.csv" 2>"$work/err" &
pid=$!
lr_cleanup_add "kill $pid 2>/dev/null"
lr_wait_lines "$work/sig.csv" 2
kill -TERM "$pid"
wait "$pid"
rc=$?
check headless-sigterm test "$rc" -eq 0 -a ! -s "$work/err"

# ---- -c: -J into a file (no --headless: stdout is no terminal) against a linerate -s -1
port=$(free_port)
lr_bg timeout 20 "$LR_BIN" -s -1 -p "$port" -J >"$work/server.json" 2>"$work/server.err"
srv=$LR_PID
lr_wait_listen "$port" || echo "# the server did not listen on $port"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" -t 1 -J </dev/null >"$work/client.json" 2>"$work/err"
rc=$?
check client-J-to-file test "$rc" -eq 0 -a ! -s "$work/err" -a \
	"$(jq '.end.sum_sent.bytes > 0' "$work/client.json" 2>/dev/null)" = true
wait "$srv"
rc=$?
check client-J-server-one-off test "$rc" -eq 0 -a \
	"$(jq '.end.sum_received.bytes > 0' "$work/server.json" 2>/dev/null)" = true
port=$(free_port)
lr_bg timeout 20 "$LR_BIN" -s -1 -p "$port" >/dev/null 2>&1
srv=$LR_PID
lr_wait_listen "$port" || echo "# the server did not listen on $port"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" -t 10 -i 0.1 </dev/null 2>"$work/err" | head -n 2 >/dev/null
rc=${PIPESTATUS[0]}
wait "$srv"	# -1: it ends with the test the client stopped
srv_rc=$?
check client-closed-pipe test "$rc" -eq 0 -a ! -s "$work/err" -a "$srv_rc" -eq 0

# ---- --explain, --report, --replay: inputs named on the command line
run explain-ok 0 --explain "$fix/explain/i40e-fifo.txt"
run explain-missing 2 --explain "$work/no-such-dump.txt"
run explain-not-a-dump 2 --explain /dev/null
run explain-csv-write-error 1 --explain "$fix/explain/i40e-fifo.txt" --csv /dev/full
run report-ok 0 --report "$work/r.html" "$fix/report/headless_ifaces.csv"
run report-missing 2 --report "$work/r.html" "$work/no-such.csv"
run report-out-dir 1 --report "$work/no-such-dir/r.html" "$fix/report/headless_ifaces.csv"
run replay-missing 2 --replay "$work/no-such.csv"
run replay-no-terminal 2 --replay "$fix/report/headless_ifaces.csv"

# ---- --matrix, --demo, --help, --version
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$(free_port)" --matrix 'P=1' -t 1 </dev/null \
	>"$work/out" 2>"$work/err"
rc=$?
check matrix-refused test "$rc" -eq 1 -a -n "$(grep -i refused "$work/err")"
run demo-no-terminal 2 --demo
run demo-headless 2 --demo --headless -t 1
run help 0 --help
# the one line names the build: the version its Makefile stamped beside the binary
stamp=$(dirname "$LR_BIN")/version.stamp
out=$("$LR_BIN" --version 2>&1)
rc=$?
if [ -f "$stamp" ]; then
	check version-text test "$rc" -eq 0 -a "$out" = "linerate $(cat "$stamp")"
else
	check version-text grep -qxE 'linerate [[:alnum:]._-]+' <<<"$out"
fi
closed_stdout --version 2>"$work/err"
rc=$?
check version-closed-pipe test "$rc" -eq 0 -a ! -s "$work/err"
"$LR_BIN" --version >/dev/full 2>"$work/err"
rc=$?
check version-write-error test "$rc" -eq 1 -a "$(wc -l <"$work/err")" -eq 1
lr_summary
