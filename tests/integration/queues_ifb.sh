#!/usr/bin/env bash
# Per-queue counters on a real multi-queue device with plain traffic: an ifb with 4 queues in a
# namespace receives everything that arrives on the namespace's veth (tc ingress, u32 match-all,
# mirred redirect). The queue CSV's rows, summed per
# queue, must equal the kernel's own per-queue counters (`ethtool -S`, read before linerate
# starts and after it ends, nothing else moving in between), and the queues together must equal
# the interface's counters in the --csv rows of the same run.
source "$(dirname "$0")/../lib.sh"
lr_plan queues_ifb_setup queues_ifb_header queues_ifb_source queues_ifb_per_queue \
	queues_ifb_sum_iface
need_root "queues_ifb"
for t in ethtool tc; do
	command -v "$t" >/dev/null || { lr_skip_plan "$t not installed"; exit 0; }
done
cd "$LR_TOP" || exit 1
B=${LR_BUILD:-build}
LR=$B/linerate
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"

u=$(lr_uniq)
NA=${u}a NB=${u}b IA=${u}a IB=${u}b IFB=${u}q
lr_ifb_netns "$NA" "$NB" "$IA" "$IB" 10.211.0.1 10.211.0.2 "$IFB" ||
	{ lr_skip_plan "$LR_IFB_ERR"; exit 0; }
pass queues_ifb_setup

ip netns exec "$NB" "$LR" -s -p 5311 >"$work/server.log" 2>&1 &
spid=$!; lr_cleanup_add "kill $spid 2>/dev/null; wait $spid 2>/dev/null"
lr_wait_listen 5311 "$NB"
ip netns exec "$NB" ethtool -S "$IFB" >"$work/before"
ip netns exec "$NB" "$LR" --headless -I "$IFB" -i 0.2 -t 4 --queues-csv "$work/q.csv" \
	--csv "$work/i.csv" >"$work/headless.log" 2>&1 &
hpid=$!; lr_cleanup_add "kill $hpid 2>/dev/null; wait $hpid 2>/dev/null"
# its first queue row written: it has its starting reading before any traffic
lr_wait_lines "$work/q.csv" 2 50
ip netns exec "$NA" "$LR" -c 10.211.0.2 -p 5311 -u -b 20M -P 4 -t 1.5 --headless \
	>"$work/client.log" 2>&1
wait "$hpid"
ip netns exec "$NB" ethtool -S "$IFB" >"$work/after"

want='time,elapsed,iface,queue,interval,rx_packets,rx_bytes,tx_packets,tx_bytes,rx_drops,tx_drops,rx_pps,tx_pps,cpu,cpu_softirq_pct,source,side,host'
check queues_ifb_header test "$(head -n1 "$work/q.csv")" = "$want"
n_src=$(awk -F, 'NR > 1 && $16 != "ethtool"' "$work/q.csv" | wc -l)
n_rows=$(awk -F, 'NR > 1' "$work/q.csv" | wc -l)
if [ "$n_rows" -gt 0 ] && [ "$n_src" -eq 0 ]; then
	pass queues_ifb_source
else
	fail queues_ifb_source "$n_rows rows, $n_src not from ethtool"
fi

# the kernel's per-queue deltas: "queue rx_packets rx_bytes tx_packets tx_bytes"
kernel() {
	join <(sed -n 's/^ *\([rt]x\)_queue_\([0-9]*\)_\(packets\|bytes\): \([0-9]*\)$/\2_\1_\3 \4/p' \
		"$work/before" | sort) \
	     <(sed -n 's/^ *\([rt]x\)_queue_\([0-9]*\)_\(packets\|bytes\): \([0-9]*\)$/\2_\1_\3 \4/p' \
		"$work/after" | sort) | awk '{split($1, k, "_"); d[k[1]" "k[2]"_"k[3]] = $3 - $2}
		END {for (q = 0; q < 4; q++) print q, d[q" rx_packets"], d[q" rx_bytes"],
			d[q" tx_packets"], d[q" tx_bytes"]}'
}
kernel >"$work/kernel"
awk -F, 'NR > 1 {p[$4] += $6; b[$4] += $7; tp[$4] += $8; tb[$4] += $9}
	END {for (q = 0; q < 4; q++) print q, p[q] + 0, b[q] + 0, tp[q] + 0, tb[q] + 0}' \
	"$work/q.csv" >"$work/csv"
if cmp -s "$work/kernel" "$work/csv" && awk '{s += $2} END {exit !(s > 1000)}' "$work/kernel"; then
	pass queues_ifb_per_queue
else
	fail queues_ifb_per_queue "kernel (queue rxp rxb txp txb): $(tr '\n' ';' <"$work/kernel") csv: $(tr '\n' ';' <"$work/csv")"
fi

# the queues together against the interface's own rows (rx_packets is column 7 of --csv)
qsum=$(awk '{s += $2} END {print s}' "$work/csv")
isum=$(awk -F, -v i="$IFB" 'NR > 1 && $3 == i {s += $7} END {print s + 0}' "$work/i.csv")
check queues_ifb_sum_iface test "$qsum" = "$isum"

lr_summary
