#!/usr/bin/env bash
# What no output of a run reads is not read every tick (issue 33): watching headless, neither
# CSV nor the endpoint carries the TCP/UDP stack counters, so /proc/net/snmp and netstat stay
# closed, and without --queues-csv or --listen the netdev family's per-queue dump is not asked
# for; and no sampler thread hands each tick over to the writer: the one thread ticks. A traffic
# test's verdict does read the stack, and a --queues-csv run the queues. The witnesses are the
# kernel's fd table of the running process (/proc/PID/fd, netlink sockets by protocol from
# /proc/PID/net/netlink) and its thread count (/proc/PID/status). Loopback in a namespace of its own; runs bounded by -t
# and timeout; kills only its own.
. "$(dirname "$0")/../lib.sh"
lr_plan watch-no-stack-files watch-no-queue-dump watch-one-thread queues-csv-asks-the-dump \
	test-reads-the-stack
need_root unread_sources
[ -x "$LR_BIN" ] || { lr_skip_plan unread_sources "no binary at $LR_BIN (run make)"; exit 0; }

ns=$(lr_uniq)u
lr_netns_lo "$ns" || { lr_skip_plan unread_sources "no network namespace"; exit 0; }
work=$(mktemp -d /tmp/lr_unread.XXXXXX)
lr_cleanup_add "rm -rf $work"

# fds_of NAME PID: what PID holds open, one a line into $work/NAME: a path, or netlink:PROTO
fds_of() {
	local fd t ino
	for fd in /proc/"$2"/fd/*; do
		t=$(readlink "$fd" 2>/dev/null) || continue
		case $t in
		socket:\[*\])
			ino=${t#socket:[}; ino=${ino%]}
			awk -v i="$ino" 'NR > 1 && $NF == i { print "netlink:" $2 }' "/proc/$2/net/netlink" ;;
		*) echo "$t" ;;
		esac
	done >"$work/$1"
	awk '$1 == "Threads:" { print "threads:" $2 }' "/proc/$2/status" >>"$work/$1"
	grep -q '^/proc/stat$' "$work/$1"	# the sampler was up: it holds /proc/stat open
}
# watch NAME ARGS...: a headless run in the namespace, its fds read once its first row is out
watch() {
	local name=$1 i pid
	shift
	nsenter --net="/run/netns/$ns" "$LR_BIN" --headless -i 0.1 -t 3 --csv "$work/$name.csv" "$@" \
		>/dev/null 2>"$work/$name.err" &
	pid=$!
	lr_cleanup_add "kill $pid 2>/dev/null"
	for ((i = 0; i < 100; i++)); do
		[ -f "$work/$name.csv" ] && [ "$(wc -l <"$work/$name.csv")" -ge 3 ] && break
		sleep 0.05
	done
	fds_of "$name" "$pid" || echo "# $name: no fds read: $(tr '\n' ' ' <"$work/$name")"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
stack_open() { grep -Eq '/net/(snmp|netstat)$' "$work/$1"; }
no_stack_open() { ! stack_open "$1"; }
no_queue_dump() { ! grep -q '^netlink:16$' "$work/$1"; }

watch watch --cpu-csv /dev/null
if [ -s "$work/watch" ]; then
	check watch-no-stack-files no_stack_open watch
	check watch-no-queue-dump no_queue_dump watch
	check watch-one-thread grep -qx 'threads:1' "$work/watch"
else
	fail watch-no-stack-files "the watching run's fds were not read"
	fail watch-no-queue-dump "the watching run's fds were not read"
	fail watch-one-thread "the watching run's fds were not read"
fi
watch queues --queues-csv "$work/q.csv"
check queues-csv-asks-the-dump grep -q '^netlink:16$' "$work/queues"

port=$((20000 + RANDOM % 30000))
nsenter --net="/run/netns/$ns" "$LR_BIN" -s -1 -p "$port" >/dev/null 2>&1 &
spid=$!
lr_cleanup_add "kill $spid 2>/dev/null"
if lr_wait_listen "$port" "$ns"; then
	watch test -c 127.0.0.1 -p "$port" -t 2 -b 50M
	check test-reads-the-stack stack_open test
	echo "# a test's threads: $(grep threads: "$work/test")"
else
	fail test-reads-the-stack "the server did not listen on $port"
fi
wait "$spid" 2>/dev/null
lr_summary
