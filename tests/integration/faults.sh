#!/usr/bin/env bash
# Failure modes a lab throws at linerate, each ending in a clear message and a documented exit
# status (man page, EXIT STATUS): the CSV on a full filesystem (a 64 KiB tmpfs: exit 1, one
# line naming the file, rows left whole; the same under a -c test) and on /dev/full; --procfs trees with /proc/net/dev
# missing, truncated mid-line or unreadable and /proc/stat garbage or unreadable (as uid
# 65534); ethtool as a non-root user; SIGHUP from kill and from a closing terminal (tmux);
# the traffic peer killed with SIGKILL mid-test in both directions (server_hostile.sh covers
# scripted hostile peers; here a real `linerate -c` and `linerate -s` over veth); and the
# other documented exits (usage 2, also a --procfs tree without a readable net/dev; refused, port
# in use, missing CSV directory 1). About 25 s.
source "$(dirname "$0")/../lib.sh"
need_root faults
[ -x "$LR_BIN" ] || { skip faults "$LR_BIN not built"; exit 0; }

work=$(mktemp -d /tmp/lr-faults.XXXXXX); chmod 755 "$work"
[ -n "${LR_KEEP:-}" ] && echo "work dir $work" || lr_cleanup_add "rm -rf $work"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# uid 65534 may not reach the build tree (a clone under a 0700 directory): run a copy from $work
NOBODY_BIN=$work/linerate; cp "$LR_BIN" "$NOBODY_BIN" && chmod 755 "$NOBODY_BIN"

whole_rows() {	# whole_rows FILE: every line has the header's field count, and a final newline
	local f=$1 n
	[ -s "$f" ] || return 1
	n=$(head -1 "$f" | awk -F, '{ print NF }')
	awk -F, -v n="$n" 'NF != n { bad = 1 } END { exit bad }' "$f" || return 1
	[ "$(tail -c 1 "$f" | od -An -tx1 | tr -d ' ')" = 0a ]
}
lines() { grep -c . "$1"; }

# --- 1. CSV on a full filesystem: a 64 KiB tmpfs fills in a few seconds at -i 0.01.
mnt=$work/full; mkdir -p "$mnt"
if mount -t tmpfs -o size=64k lrfaults "$mnt"; then
	lr_cleanup_add "umount $mnt"
	timeout 60 "$LR_BIN" --headless -i 0.01 --csv "$mnt/x.csv" --cpu-csv "$mnt/c.csv" \
		>"$work/full.out" 2>"$work/full.err"
	rc=$?
	check "full tmpfs: exit 1 (rc $rc)" test "$rc" -eq 1
	check "full tmpfs: one stderr line naming the file ($(head -1 "$work/full.err"))" \
		sh -c "[ \$(grep -c . '$work/full.err') -eq 1 ] && grep -q '$mnt/.\.csv' '$work/full.err'"
	check "full tmpfs: interface rows whole, none cut ($(wc -l <"$mnt/x.csv") rows)" \
		whole_rows "$mnt/x.csv"
	check "full tmpfs: CPU rows whole ($(wc -l <"$mnt/c.csv") rows)" whole_rows "$mnt/c.csv"
	check "full tmpfs: more than the header made it" test "$(wc -l <"$mnt/x.csv")" -gt 10
	# the same disk under a -c test (loopback, -t 30): the write error ends the test, exit 1
	# (never taken for stdout's reader gone, which is 0), one line naming the file, rows whole
	rm -f "$mnt/x.csv" "$mnt/c.csv"
	fport=$((20000 + RANDOM % 20000))
	"$LR_BIN" -s -1 -p "$fport" -B 127.0.0.1 >/dev/null 2>&1 &
	fsrv=$!; lr_cleanup_add "kill $fsrv 2>/dev/null"
	lr_wait_listen "$fport"
	t0=$SECONDS
	timeout 60 "$LR_BIN" -c 127.0.0.1 -p "$fport" -t 30 -b 10M -i 0.01 --headless \
		--csv "$mnt/cl.csv" --cpu-csv "$mnt/clc.csv" >"$work/clfull.out" 2>"$work/clfull.err"
	rc=$? secs=$((SECONDS - t0))
	check "full tmpfs under -c: exit 1 within 20 s of a 30 s test (rc $rc, ${secs} s)" \
		test "$rc" -eq 1 -a "$secs" -le 20
	check "full tmpfs under -c: one stderr line naming the file ($(head -1 "$work/clfull.err"))" \
		sh -c "[ \$(grep -c . '$work/clfull.err') -eq 1 ] && grep -q '$mnt/cl.*\.csv' '$work/clfull.err'"
	check "full tmpfs under -c: rows whole" sh -c "$(declare -f whole_rows); whole_rows '$mnt/cl.csv' && whole_rows '$mnt/clc.csv'"
	kill "$fsrv" 2>/dev/null; wait "$fsrv" 2>/dev/null
else
	skip "full tmpfs" "cannot mount a tmpfs"
fi

# --- 2. /dev/full: the header write fails at once.
for opt in --csv --cpu-csv; do
	timeout 10 "$LR_BIN" --headless -t 2 "$opt" /dev/full >/dev/null 2>"$work/devfull.err"
	rc=$?
	check "$opt /dev/full: exit 1 (rc $rc), one line naming it" \
		sh -c "[ $rc -eq 1 ] && [ \$(grep -c . '$work/devfull.err') -eq 1 ] && grep -q /dev/full '$work/devfull.err'"
done

# --- 2b. The other documented exits (man page EXIT STATUS): 2 for usage, 1 for runtime.
exit_line() {	# exit_line NAME RC MAXLINES REGEX CMD...: exit status, stderr lines, its text
	local name=$1 want=$2 max=$3 re=$4 rc n; shift 4
	timeout 10 "$@" >/dev/null 2>"$work/exit.err"; rc=$?
	n=$(grep -c . "$work/exit.err")
	check "$name: exit $want (rc $rc), $n line(s): $(tail -1 "$work/exit.err")" \
		exit_ok "$rc" "$want" "$n" "$max" "$re"
}
exit_ok() { [ "$1" -eq "$2" ] && [ "$3" -ge 1 ] && [ "$3" -le "$4" ] && grep -qE -- "$5" "$work/exit.err"; }
exit_line "bad value (-i 0)" 2 1 "-i: invalid interval '0'" "$LR_BIN" --headless -i 0
exit_line "unknown option in a cluster (-1j)" 2 1 "unknown option '-j'" "$LR_BIN" -1j	# -Z, -X are iperf3's now (zerocopy, SCTP's -X)
exit_line "--csv in a missing directory" 1 1 "/nonexistent-dir/x.csv" \
	"$LR_BIN" --headless -t 0.3 --csv "$work/nonexistent-dir/x.csv"
exit_line "-I naming no interface" 2 1 "-I: no interface named 'nosuch0'" \
	"$LR_BIN" --headless -t 0.3 -I nosuch0 --csv /dev/null
exit_line "connection refused" 1 1 "cannot connect to 127.0.0.1:1: Connection refused" \
	"$LR_BIN" -c 127.0.0.1 -p 1 -t 1 --headless
bport=$((20000 + RANDOM % 20000))
"$LR_BIN" -s -p "$bport" -B 127.0.0.1 >/dev/null 2>&1 &
bpid=$!; lr_cleanup_add "kill $bpid 2>/dev/null"
for ((i = 0; i < 50; i++)); do ss -Htln "sport = :$bport" | grep -q . && break; sleep 0.1; done
exit_line "server port in use" 1 1 "cannot listen on 127.0.0.1 port $bport: Address already in use" \
	"$LR_BIN" -s -p "$bport" -B 127.0.0.1
kill "$bpid"; wait "$bpid" 2>/dev/null

# --- 3. --procfs trees built from the this-host fixture.
mk_tree() { rm -rf "$work/$1"; cp -r "$LR_TOP/tests/fixtures/this-host/proc" "$work/$1"; chmod -R a+rX "$work/$1"; }
run_tree() {	# run_tree TREE NAME [extra args]: headless 0.5 s on the proc source, CSVs in $work
	local tree=$1 name=$2; shift 2
	timeout 10 "$LR_BIN" --headless --source proc --procfs "$work/$tree" -i 0.1 -t 0.5 \
		--csv "$work/$name.csv" --cpu-csv "$work/$name-cpu.csv" "$@" \
		>"$work/$name.out" 2>"$work/$name.err"
}

mk_tree nodev; rm "$work/nodev/net/dev"
run_tree nodev nodev; rc=$?
check "procfs without net/dev: exit 2, a bad input named (rc $rc)" test "$rc" -eq 2
check "procfs without net/dev: one line naming net/dev ($(grep -c . "$work/nodev.err") lines)" \
	sh -c "grep -q 'nodev/net/dev: No such file' '$work/nodev.err' && [ \$(grep -c . '$work/nodev.err') -eq 1 ]"
timeout 10 "$LR_BIN" --headless --procfs "$work/nodev" -t 0.3 --csv /dev/null 2>/dev/null
check "procfs without net/dev, netlink source: exit 2" test $? -eq 2

mk_tree trunc
# net/dev cut in the middle of its fourth line (ifb0); /proc/stat replaced by random bytes.
head -c $(($(head -3 "$work/trunc/net/dev" | wc -c) + 40)) \
	"$LR_TOP/tests/fixtures/this-host/proc/net/dev" >"$work/trunc/net/dev"
head -c 600 /dev/urandom >"$work/trunc/stat"
run_tree trunc trunc; rc=$?
check "truncated net/dev + garbage stat: keeps running, exit 0 (rc $rc)" test "$rc" -eq 0
check "truncated net/dev: the whole line (lo) is sampled" grep -q ',lo,' "$work/trunc.csv"
check "truncated net/dev: the cut line (ifb0) is left out, not half-read" \
	sh -c "! grep -q ',ifb0,' '$work/trunc.csv'"
check "garbage stat: CPU percentages empty (unknown), rows whole" \
	sh -c "awk -F, 'NR > 1 && \$5 \$6 \$7 \$8 \$9 != \"\" { bad = 1 } NR > 1 { n++ } END { exit bad || !n }' '$work/trunc-cpu.csv'"
check "truncated/garbage: CSVs whole" sh -c "$(declare -f whole_rows); whole_rows '$work/trunc.csv' && whole_rows '$work/trunc-cpu.csv'"

mk_tree unr; chmod 000 "$work/unr/stat" "$work/unr/softirqs" "$work/unr/net/softnet_stat" \
	"$work/unr/interrupts"
mkdir -p "$work/out"; chmod 777 "$work/out"
nobody timeout 10 "$NOBODY_BIN" --headless --source proc --procfs "$work/unr" -i 0.1 -t 0.5 \
	--csv "$work/out/unr.csv" --cpu-csv "$work/out/unr-cpu.csv" >/dev/null 2>"$work/unr.err"
rc=$?
check "unreadable stat/softirqs/softnet/interrupts (uid 65534): exit 0 (rc $rc)" test "$rc" -eq 0
check "unreadable: one warning per unreadable file" \
	test "$(grep -c 'Permission denied' "$work/unr.err")" -ge 3
check "unreadable: interface rows still sampled" grep -q ',lo,' "$work/out/unr.csv"
chmod 000 "$work/unr/net/dev"
nobody timeout 10 "$NOBODY_BIN" --headless --source proc --procfs "$work/unr" -i 0.1 -t 0.5 \
	--csv /dev/null >/dev/null 2>"$work/unr2.err"
rc=$?
check "unreadable net/dev (uid 65534): exit 2 naming it (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'unr/net/dev: Permission denied' '$work/unr2.err'"

# --- 4. ethtool as a non-root user, on a veth pair in a namespace.
ns=$(lr_uniq)e
ip netns add "$ns" && lr_cleanup_add "ip netns del $ns"
ip -n "$ns" link add fve0 type veth peer name fve1
ip -n "$ns" link set fve0 up; ip -n "$ns" link set fve1 up; ip -n "$ns" link set lo up
nsenter --net="/run/netns/$ns" setpriv --reuid=65534 --regid=65534 --clear-groups \
	timeout 10 "$NOBODY_BIN" --headless -i 0.1 -t 1 --csv "$work/out/eth.csv" >/dev/null 2>"$work/eth.err"
rc=$?
check "non-root (uid 65534, no capabilities): runs, exit 0 (rc $rc)" test "$rc" -eq 0
check "non-root: veth rows whole" sh -c "$(declare -f whole_rows); whole_rows '$work/out/eth.csv' && grep -q ',fve0,' '$work/out/eth.csv'"
# nic_fifo, nic_drop (ethtool): empty or a number, never garbage.
check "non-root: driver columns empty or numeric" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^nic_/) c[i] = 1; next }
		{ for (i in c) if ($i !~ /^[0-9]*$/) bad = 1 } END { exit bad }' "$work/out/eth.csv"

# --- 5. SIGHUP: from kill, and from a terminal that closes (tmux kills its pane: SSH drop).
timeout 20 "$LR_BIN" --headless -i 0.01 --csv "$work/hup.csv" >/dev/null 2>"$work/hup.err" &
hpid=$!
# mid-run: its rows are being written (a header and rows there)
lr_wait_lines "$work/hup.csv" 10 150
kill -HUP "$hpid"; wait "$hpid"; rc=$?
check "SIGHUP (kill): exit 0 (rc $rc)" test "$rc" -eq 0
check "SIGHUP (kill): rows whole, the last one too" whole_rows "$work/hup.csv"
if command -v tmux >/dev/null; then
	sock=lrf$$
	tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
		"$LR_BIN --headless -i 0.01 --csv $work/tty.csv; echo \$? > $work/tty.rc"
	lr_cleanup_add "tmux -L $sock kill-server"
	lr_wait_lines "$work/tty.csv" 10 150
	tpid=$(tmux -L "$sock" list-panes -F '#{pane_pid}' 2>/dev/null)
	lpid=$(pgrep -P "$tpid" 2>/dev/null | head -1)
	tmux -L "$sock" kill-server
	for ((i = 0; i < 50; i++)); do [ -n "$lpid" ] && kill -0 "$lpid" 2>/dev/null || break; sleep 0.1; done
	check "terminal closed (tmux kill-server): linerate gone within 5 s" \
		sh -c "[ -n '$lpid' ] && ! kill -0 '$lpid' 2>/dev/null"
	check "terminal closed: rows whole, the last one too" whole_rows "$work/tty.csv"
else
	skip "terminal closed" "tmux not installed"
fi

# --- 6. The traffic peer killed mid-test (veth between two namespaces).
A=$(lr_uniq)a B=$(lr_uniq)b
lr_netns_pair "$A" "$B" "fpa$$" "fpb$$" 10.211.0.1 10.211.0.2 1500
# Not shell functions: a background function is a subshell, and $! would not be linerate.
inA=(nsenter --net="/run/netns/$A") inB=(nsenter --net="/run/netns/$B")
wait_listen() { lr_wait_listen "$1" "$B"; }

for mode in tcp udp; do
	extra=(); [ "$mode" = udp ] && extra=(-u -b 200M)
	"${inB[@]}" "$LR_BIN" -s -p 5311 >"$work/srv-$mode.log" 2>&1 &
	spid=$!; lr_cleanup_add "kill -9 $spid 2>/dev/null"
	wait_listen 5311
	"${inA[@]}" timeout 30 "$LR_BIN" -c 10.211.0.2 -p 5311 -t 10 "${extra[@]}" --headless -i 0.1 \
		--csv "$work/k-$mode.csv" --streams-csv "$work/ks-$mode.csv" \
		>"$work/k-$mode.out" 2>"$work/k-$mode.err" &
	cpid=$!
	# mid-test: the streams' rows are coming (a header and 5 ticks of them)
	lr_wait_lines "$work/ks-$mode.csv" 6
	{ kill -9 "$spid"; wait "$spid"; } 2>/dev/null; t0=$(date +%s%N)
	wait "$cpid"; rc=$?; ms=$((($(date +%s%N) - t0) / 1000000))
	check "$mode: server killed -9 mid-test: client exits 1 (rc $rc) within 5 s ($ms ms)" \
		sh -c "[ $rc -eq 1 ] && [ $ms -lt 5000 ]"
	check "$mode: server killed: the last stderr line names it ($(tail -1 "$work/k-$mode.err"))" \
		grep -qi 'server\|peer\|connection' <(tail -1 "$work/k-$mode.err")
	check "$mode: server killed: interface and stream CSVs whole" \
		sh -c "$(declare -f whole_rows); whole_rows '$work/k-$mode.csv' && whole_rows '$work/ks-$mode.csv'"
done

"${inB[@]}" "$LR_BIN" -s -p 5312 >"$work/srv2.log" 2>&1 &
spid=$!; lr_cleanup_add "kill -9 $spid 2>/dev/null"
wait_listen 5312
for args in "" "-R" "-u -b 100M"; do
	# shellcheck disable=SC2086
	"${inA[@]}" "$LR_BIN" -c 10.211.0.2 -p 5312 -t 10 $args --headless -i 0.1 >/dev/null 2>&1 &
	cpid=$!; sleep 1.5; kill -9 "$cpid"; wait "$cpid" 2>/dev/null
	t0=$(date +%s%N)
	"${inA[@]}" timeout 20 "$LR_BIN" -c 10.211.0.2 -p 5312 -t 1 --headless -i 0.1 >/dev/null \
		2>"$work/next.err"
	rc=$?; ms=$((($(date +%s%N) - t0) / 1000000))
	check "client${args:+ $args} killed -9 mid-test: the server serves the next test (rc $rc, $ms ms)" \
		sh -c "[ $rc -eq 0 ] && kill -0 $spid"
done
kill -TERM "$spid"; wait "$spid"; rc=$?
check "server after killed clients: SIGTERM exits 0 (rc $rc)" test "$rc" -eq 0
lr_summary
