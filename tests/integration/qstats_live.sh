#!/usr/bin/env bash
# The qstats collector against the running kernel, read only (no traffic is sent to any host
# device): for every device that answers netdev qstats-get (here the virtio_net interface), the
# sum of its queues' counters read through lr_qstats (tests/tools/qstats_dump.c) must bracket
# the device's own counters in /sys/class/net/IF/statistics read in between: the kernel's
# per-device counters are the witness. Skips by name on a kernel or device without qstats.
source "$(dirname "$0")/../lib.sh"
lr_plan qstats_live_build qstats_live_devices qstats_live_bracket
cd "$LR_TOP" || exit 1
B=${LR_BUILD:-build}
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
tool=$B/tools/qstats_dump
if ! make -s B="$B" "$tool" >"$work/make.log" 2>&1; then
	fail qstats_live_build "$(tail -n 5 "$work/make.log")"
	exit 1
fi
pass qstats_live_build

"$tool" >"$work/q0" 2>"$work/err"; rc=$?
if [ "$rc" -eq 3 ]; then
	skip qstats_live_devices "the kernel has no netdev qstats-get ($(cat "$work/err"))"
	skip qstats_live_bracket "the kernel has no netdev qstats-get"
	lr_summary; exit 0
fi
if [ "$rc" -ne 0 ] || [ ! -s "$work/q0" ]; then
	[ "$rc" -ne 0 ] && fail qstats_live_devices "exit $rc: $(cat "$work/err")" ||
		skip qstats_live_devices "no device here answers qstats-get"
	skip qstats_live_bracket "no per-queue counters to compare"
	lr_summary; exit 0
fi
pass qstats_live_devices

# sum per device and direction: "ifindex dir packets bytes"
sums() { awk '{p[$1" "$3]+=$4; b[$1" "$3]+=$5} END {for (k in p) print k, p[k], b[k]}' "$1" | sort; }
bad=0 compared=0
for ifindex in $(awk '{print $1}' "$work/q0" | sort -u); do
	dev=$(ip -o link show | awk -F': ' -v i="$ifindex" '$1 == i {print $2}' | cut -d@ -f1)
	[ -n "$dev" ] || continue
	for try in 1 2 3 4 5; do	# a device in use moves: read qstats, sysfs, qstats
		"$tool" "$ifindex" >"$work/a"
		rxp=$(cat "/sys/class/net/$dev/statistics/rx_packets")
		rxb=$(cat "/sys/class/net/$dev/statistics/rx_bytes")
		txp=$(cat "/sys/class/net/$dev/statistics/tx_packets")
		txb=$(cat "/sys/class/net/$dev/statistics/tx_bytes")
		"$tool" "$ifindex" >"$work/b"
		sums "$work/a" >"$work/sa"; sums "$work/b" >"$work/sb"
		ok=$(join -j1 <(awk '{print $1"/"$2, $3, $4}' "$work/sa") \
			<(awk '{print $1"/"$2, $3, $4}' "$work/sb") | awk -v rxp="$rxp" -v rxb="$rxb" \
			-v txp="$txp" -v txb="$txb" '
			$1 ~ /rx$/ { if (!($2 <= rxp && rxp <= $4 && $3 <= rxb && rxb <= $5)) bad = 1 }
			$1 ~ /tx$/ { if (!($2 <= txp && txp <= $4 && $3 <= txb && txb <= $5)) bad = 1 }
			END { print bad ? "no" : "yes" }')
		[ "$ok" = yes ] && break
	done
	compared=$((compared + 1))
	if [ "$ok" != yes ]; then
		bad=1
		echo "  $dev: queues $(tr '\n' ' ' <"$work/sa") vs sysfs rx $rxp/$rxb tx $txp/$txb"
	fi
done
if [ "$compared" -eq 0 ]; then
	skip qstats_live_bracket "no qstats device visible in this namespace's link list"
elif [ "$bad" -eq 0 ]; then
	pass qstats_live_bracket
else
	fail qstats_live_bracket "queue sums do not bracket the device counters"
fi
lr_summary
