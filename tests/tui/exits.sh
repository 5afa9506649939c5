#!/usr/bin/env bash
# What a user meets at the edges (issue 21): terminals the dashboard cannot use are named
# (TERM=dumb, an unknown TERM) with exit 1 (no terminal at all is headless: exit_codes.sh); -I naming no interface is exit 2 in the
# dashboard and headless, before any CSV file exists; a dashboard test that cannot connect exits
# 1 after q; a dashboard test's iperf3 summary and verdict stay on the terminal after q, and V
# reopens a closed verdict; a headless client writing CSV to stdout keeps its summary on stderr.
# Loopback only; kills only what it started.
. "$(dirname "$0")/../lib.sh"
lr_plan tui_exits "term-dumb term-unknown dashboard-bad-iface dashboard-bad-theme headless-no-theme headless-bad-iface \
refused-exit-1 result-after-q verdict-reopens csv-stdout-only esc-mid-test-stays status-expires demo-port-taken-quiet"
command -v tmux >/dev/null || { lr_skip_plan "tmux not installed"; exit 0; }
command -v script >/dev/null || { lr_skip_plan "script (util-linux) not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_ex.XXXXXX)
chmod 755 "$work"
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" ex
port=$((20000 + RANDOM % 20000))

# in_pty TERM ARGS...: runs linerate on a pseudo-terminal with that TERM; output in $work/pty,
# exit status returned
in_pty() {
	local term=$1; shift
	TERM=$term timeout 10 script -qec "$(printf '%q ' "$LR_BIN" "$@")" /dev/null \
		</dev/null >"$work/pty" 2>&1
}
in_pty dumb -i 0.2; rc=$?
check term-dumb test "$rc" -eq 1 -a -n "$(grep 'TERM=dumb cannot move the cursor' "$work/pty")"
in_pty no-such-term-x -i 0.2; rc=$?
check term-unknown test "$rc" -eq 1 -a -n "$(grep 'TERM=no-such-term-x: unknown terminal type' "$work/pty")"
in_pty xterm -I nosuch9; rc=$?
check dashboard-bad-iface test "$rc" -eq 2 -a -n "$(grep "no interface named 'nosuch9'" "$work/pty")"
in_pty xterm --theme nosuch9; rc=$?	# the names there are, on one line, and no screen
check dashboard-bad-theme test "$rc" -eq 2 -a -n "$(grep "theme nosuch9: no such theme; there are default .*mono" "$work/pty")"
out=$("$LR_BIN" --headless -t 1 --theme mono --csv "$work/y.csv" 2>&1); rc=$?	# no screen here
check headless-no-theme test "$rc" -eq 2 -a ! -e "$work/y.csv" -a -n "$(grep -- '--theme: only the dashboard' <<<"$out")"
out=$("$LR_BIN" --headless -t 1 -I nosuch9 --csv "$work/x.csv" 2>&1); rc=$?
check headless-bad-iface test "$rc" -eq 2 -a ! -e "$work/x.csv" -a -n "$(grep nosuch9 <<<"$out")"

# start ARGS...: the dashboard in tmux (80x24); its exit status lands in $work/rc
start() {
	T kill-session -t ex 2>/dev/null
	rm -f "$work/rc"
	printf 'cd %q\n%s 2>%q\necho $? >%q\nsleep 600\n' "$work" "$(printf '%q ' "$LR_BIN" "$@")" \
		"$work/stderr" "$work/rc" >"$work/run.sh"
	lr_tmux_new 80 24 "LANG=C.UTF-8 TERM=screen bash $work/run.sh"
}
screen() { T capture-pane -t ex -p -S -100; }
wait_rc() { local i; for ((i = 0; i < 50; i++)); do [ -s "$work/rc" ] && return 0; sleep 0.1; done; return 1; }

# nothing listens on $port: the test cannot connect; q leaves with 1 and says why
start -i 0.2 -c 127.0.0.1 -p "$port"
wait_screen 'refused|failed|error' 50
T send-keys -t ex q
wait_rc
check refused-exit-1 test "$(cat "$work/rc" 2>/dev/null)" = 1 -a -n "$(grep -i refused "$work/stderr")"

# a 2 s demo test: after it ends, Esc closes the verdict, V reopens it; q leaves the iperf3
# summary and the verdict on the terminal, exit 0
start -i 0.2 --demo -t 2
wait_screen 'next step|Verdict|verdict' 80
T send-keys -t ex Escape
sleep 0.5
closed=$(screen | grep -c 'next step')
T send-keys -t ex V
wait_screen 'next step' 20; reopened=$?
check verdict-reopens test "$closed" -eq 0 -a "$reopened" -eq 0
T send-keys -t ex q
wait_rc
sleep 0.3
check result-after-q test "$(cat "$work/rc" 2>/dev/null)" = 0 -a \
	-n "$(screen | grep 'linerate Done')" -a -n "$(screen | grep -i 'next step')"

# mid-test, Esc twice does not end the test (it says how to), and a message leaves the status
# line after its time instead of lingering
start -i 0.2 --demo
wait_screen 'running' 80
T send-keys -t ex Escape; sleep 0.3; T send-keys -t ex Escape
wait_screen 'a test is running: q quits' 20; said=$?
sleep 0.5
check esc-mid-test-stays test "$said" -eq 0 -a ! -s "$work/rc"
gone=1
for ((i = 0; i < 150; i++)); do
	screen | tail -n 1 | grep -q 'a test is running' || { gone=0; break; }
	sleep 0.1
done
check status-expires test "$gone" -eq 0
T send-keys -t ex q
wait_rc

# --demo when 5201 is taken: it runs on the next port and says nothing of "in use"
if ss -Hltn "sport = :5201" | grep -q .; then
	skip demo-port-taken-quiet "port 5201 is already in use by something else"
else
	lr_bg "$LR_BIN" -s -p 5201 >/dev/null 2>&1; holder=$LR_PID
	lr_wait_listen 5201 "" 60
	start -i 0.2 --demo
	wait_screen 'running' 80; ran=$?
	sleep 0.5
	check demo-port-taken-quiet test "$ran" -eq 0 -a -z "$(screen | grep -i 'in use')"
	T send-keys -t ex q
	wait_rc
	kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
fi

# headless -c with --csv -: stdout is the CSV alone (header + rows of 26 or more fields)
lr_bg "$LR_BIN" -s -1 -p "$port" >/dev/null 2>&1
lr_wait_listen "$port" "" 60
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -i 0.2 --csv - >"$work/out.csv" 2>"$work/err.txt"
rc=$?
bad=$(awk -F, 'NR == 1 && $1 != "time" { b++ } NF < 26 { b++ } END { print b + 0 }' "$work/out.csv")
check csv-stdout-only test "$rc" -eq 0 -a "$bad" -eq 0 -a "$(wc -l <"$work/out.csv")" -gt 2 \
	-a -n "$(grep 'linerate Done' "$work/err.txt")"
lr_summary
