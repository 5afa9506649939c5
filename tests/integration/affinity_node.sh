#!/usr/bin/env bash
# NUMA locality (issue 19) on loopback, no root needed:
#  - `-A node:0` pins every stream thread, client and server, to node 0's CPUs. The witnesses
#    are the kernel's /proc/PID/task/TID/status Cpus_allowed_list and this machine's own
#    /sys/devices/system/node/node0/cpulist. Both processes start under `taskset -c W` (one CPU
#    of node 0), so a stream thread showing node 0's whole list was widened by linerate's pinning,
#    and the other threads still show W. A node-0 of a single CPU cannot tell the two apart: SKIP.
#  - `-A node:K` for a node that does not exist: one line, exit 2.
#  - --csv / --cpu-csv through the hand-made two-node --sysfs capture: numa_node and node equal
#    the capture's own numa_node files and nodeN/cpulist (read here by the shell, not by linerate).
source "$(dirname "$0")/../lib.sh"
lr_plan "client stream threads on node 0's CPUs" "server stream threads on node 0's CPUs" \
	"other threads keep the taskset CPU" "-A node:K of a missing node: usage error, exit 2" \
	"--csv numa_node equals the capture's numa_node" "--cpu-csv node equals the capture's cpulist"
[ -x "$LR_BIN" ] || { lr_skip_plan affinity "$LR_BIN not built"; exit 0; }

tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
if [ -r /sys/devices/system/node/node0/cpulist ]; then
	node0=$(cat /sys/devices/system/node/node0/cpulist)
else
	node0=$(cat /sys/devices/system/cpu/online)	# no NUMA in this kernel: node 0 is all
fi
w=${node0%%[,-]*}	# node 0's first CPU

# thread_lists PID: "comm<TAB>Cpus_allowed_list" per thread
thread_lists() {
	local t
	for t in /proc/"$1"/task/*; do
		printf '%s\t%s\n' "$(cat "$t/comm" 2>/dev/null)" \
			"$(awk '/^Cpus_allowed_list:/ { print $2 }' "$t/status" 2>/dev/null)"
	done
}

if [ "$node0" = "$w" ]; then
	for c in "client stream threads on node 0's CPUs" "server stream threads on node 0's CPUs" \
		"other threads keep the taskset CPU"; do
		skip "affinity: $c" "node 0 has one CPU ($node0): pinning and taskset look the same"
	done
else
	port=$((20000 + RANDOM % 20000))
	taskset -c "$w" "$LR_BIN" -s -1 -p "$port" -B 127.0.0.1 -A node:0 >"$tmp/srv" 2>&1 &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	lr_wait_listen "$port" "" 60
	taskset -c "$w" "$LR_BIN" -c 127.0.0.1 -p "$port" -t 3 -P 2 -b 100M -A node:0 --headless \
		>"$tmp/cli" 2>&1 &
	cpid=$!
	lr_cleanup_add "kill $cpid 2>/dev/null"
	for ((i = 0; i < 40; i++)); do	# until both sides' stream threads exist
		thread_lists $cpid >"$tmp/ct"; thread_lists $spid >"$tmp/st"
		[ "$(grep -c '^lr-stream' "$tmp/ct")" -ge 2 ] &&
			[ "$(grep -c '^lr-stream' "$tmp/st")" -ge 2 ] && break
		sleep 0.1
	done
	echo "# node0 $node0, taskset $w; client threads: $(tr '\t\n' '= ' <"$tmp/ct")"
	echo "# server threads: $(tr '\t\n' '= ' <"$tmp/st")"
	check "affinity: client stream threads on node 0's CPUs" awk -F'\t' -v want="$node0" \
		'$1 ~ /^lr-stream/ { n++; if ($2 != want) bad++ } END { exit !(n >= 2 && !bad) }' "$tmp/ct"
	check "affinity: server stream threads on node 0's CPUs" awk -F'\t' -v want="$node0" \
		'$1 ~ /^lr-stream/ { n++; if ($2 != want) bad++ } END { exit !(n >= 2 && !bad) }' "$tmp/st"
	check "affinity: other threads keep the taskset CPU" awk -F'\t' -v w="$w" \
		'$1 !~ /^lr-stream/ && $2 != "" { n++; if ($2 != w) bad++ } END { exit !(n >= 2 && !bad) }' \
		"$tmp/ct" "$tmp/st"
	wait $cpid; wait $spid
fi

missing=$(( $(ls -d /sys/devices/system/node/node* 2>/dev/null | sed 's/.*node//' | sort -n | tail -1) + 1 ))
"$LR_BIN" -c 127.0.0.1 -t 1 -A "node:$missing" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "affinity: -A node:K of a missing node: usage error, exit 2" \
	[ "$rc" -eq 2 -a "$(wc -l <"$tmp/err")" -eq 1 ]

fx=$LR_TOP/tests/fixtures/handmade-numa/numa2
timeout 10 "$LR_BIN" --headless --procfs "$fx/proc" --sysfs "$fx/sys" -t 1 -i 0.2 \
	--csv "$tmp/if.csv" --cpu-csv "$tmp/cpu.csv" 2>/dev/null
# the last row of each interface against the capture's numa_node file (-1 and none: empty)
want_if=$(for d in lo eth0 eth1; do
	v=$(cat "$fx/sys/class/net/$d/device/numa_node" 2>/dev/null); [ "$v" = -1 ] && v=
	echo "$d=$v"; done | sort | tr '\n' ' ')
got_if=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "iface") a = i; if ($i == "numa_node") b = i }; next }
	{ last[$a] = $b } END { for (k in last) print k "=" last[k] }' "$tmp/if.csv" | sort | tr '\n' ' ')
echo "# numa_node: want $want_if got $got_if"
check "affinity: --csv numa_node equals the capture's numa_node" [ -n "$got_if" -a "$want_if" = "$got_if" ]
want_cpu=$(for f in "$fx"/sys/devices/system/node/node*/cpulist; do
	n=${f%/cpulist}; n=${n##*node}
	tr ',' '\n' <"$f" | awk -v n="$n" -F- 'NF { e = NF > 1 ? $2 : $1; for (c = $1; c <= e; c++) print c "=" n }'
	done | sort -t= -k1n | tr '\n' ' ')
got_cpu=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "cpu") a = i; if ($i == "node") b = i }; next }
	{ last[$a] = $b } END { for (k in last) print k "=" last[k] }' "$tmp/cpu.csv" | sort -t= -k1n | tr '\n' ' ')
echo "# node: want $want_cpu got $got_cpu"
check "affinity: --cpu-csv node equals the capture's cpulist" [ -n "$got_cpu" -a "$want_cpu" = "$got_cpu" ]
