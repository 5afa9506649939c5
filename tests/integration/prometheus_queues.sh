#!/usr/bin/env bash
# Per-queue Prometheus counters (issue 16) on a real multi-queue device: an ifb with 4 queues in
# a namespace receives everything arriving on the namespace's veth (tc ingress, u32 match-all,
# mirred redirect), as in queues_ifb.sh. linerate --headless --listen samples it; a scrape on
# the quiet link before traffic and one after, each next to an `ethtool -S` read: each queue's
# counter increase between the scrapes equals the kernel's own per-queue delta (the witness),
# the 4 queues are all there and moved, and promtool accepts the text.
source "$(dirname "$0")/../lib.sh"
lr_plan prom_queues_setup prom_queues_promtool prom_queues_four_series \
	prom_queues_increase_equals_ethtool prom_queues_never_backwards
need_root "prom_queues"
for t in ethtool tc curl promtool; do
	command -v "$t" >/dev/null || { lr_skip_plan "$t not installed"; exit 0; }
done
cd "$LR_TOP" || exit 1
B=${LR_BUILD:-build}
LR=$B/linerate
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"

u=$(lr_uniq)
NA=${u}a NB=${u}b IA=${u}a IB=${u}b IFB=${u}q
LPORT=9109
lr_ifb_netns "$NA" "$NB" "$IA" "$IB" 10.212.0.1 10.212.0.2 "$IFB" ||
	{ lr_skip_plan "$LR_IFB_ERR"; exit 0; }
pass prom_queues_setup

ip netns exec "$NB" "$LR" -s -p 5312 >"$work/server.log" 2>&1 &
spid=$!; lr_cleanup_add "kill $spid 2>/dev/null; wait $spid 2>/dev/null"
ip netns exec "$NB" "$LR" --headless -I "$IFB" -i 0.2 -t 8 --csv /dev/null \
	--listen "127.0.0.1:$LPORT" >"$work/headless.log" 2>&1 &
hpid=$!; lr_cleanup_add "kill $hpid 2>/dev/null; wait $hpid 2>/dev/null"
scrape() { ip netns exec "$NB" curl -sf --max-time 3 "http://127.0.0.1:$LPORT/metrics"; }
for _ in $(seq 30); do scrape >/dev/null && break; sleep 0.1; done
sleep 0.6	# two ticks: the queues have been read
scrape >"$work/s1"; ip netns exec "$NB" ethtool -S "$IFB" >"$work/e1"
ip netns exec "$NA" "$LR" -c 10.212.0.2 -p 5312 -u -b 20M -P 4 -t 1.5 --headless \
	>"$work/client.log" 2>&1
sleep 1	# the link is quiet again; a few ticks sample its end
scrape >"$work/s2"; ip netns exec "$NB" ethtool -S "$IFB" >"$work/e2"
sleep 0.5
scrape >"$work/s3"

if promtool check metrics <"$work/s2" >"$work/promtool.out" 2>&1; then
	pass prom_queues_promtool
else
	fail prom_queues_promtool "$(head -c 300 "$work/promtool.out")"
fi

# "queue rx_packets rx_bytes" from a scrape / from ethtool -S
scraped() {
	awk -v i="$IFB" '/^linerate_queue_rx_(packets|bytes)_total\{/ && index($0, "iface=\"" i "\"") {
		m = ($0 ~ /rx_packets/) ? "p" : "b"; q = $0; sub(/.*queue="/, "", q); sub(/".*/, "", q)
		v[q, m] = $2; n[q] = 1}
		END {for (q in n) print q, v[q, "p"], v[q, "b"]}' "$1" | sort -n
}
ethtool_rx() {
	sed -n 's/^ *rx_queue_\([0-9]*\)_\(packets\|bytes\): \([0-9]*\)$/\1 \2 \3/p' "$1" |
		awk '{v[$1, $2] = $3; n[$1] = 1} END {for (q in n) print q, v[q, "packets"], v[q, "bytes"]}' |
		sort -n
}
delta() { join "$1" "$2" | awk '{print $1, $4 - $2, $5 - $3}'; }
scraped "$work/s1" >"$work/p1"; scraped "$work/s2" >"$work/p2"; scraped "$work/s3" >"$work/p3"
ethtool_rx "$work/e1" >"$work/k1"; ethtool_rx "$work/e2" >"$work/k2"
if [ "$(cut -d' ' -f1 "$work/p2" | tr '\n' ' ')" = "0 1 2 3 " ]; then
	pass prom_queues_four_series
else
	fail prom_queues_four_series "queues scraped: $(cut -d' ' -f1 "$work/p2" | tr '\n' ' ')"
fi
delta "$work/p1" "$work/p2" >"$work/dp"
delta "$work/k1" "$work/k2" >"$work/dk"
moved=$(awk '$2 > 0' "$work/dk" | wc -l)
echo "per-queue rx (queue packets bytes): scrape increase $(tr '\n' ';' <"$work/dp") ethtool -S delta $(tr '\n' ';' <"$work/dk")"
if [ -s "$work/dk" ] && cmp -s "$work/dp" "$work/dk" && [ "$moved" -ge 2 ]; then
	pass prom_queues_increase_equals_ethtool
else
	fail prom_queues_increase_equals_ethtool "scrape deltas (q pkts bytes): $(tr '\n' ';' <"$work/dp") ethtool: $(tr '\n' ';' <"$work/dk") ($moved queues moved)"
fi
if join "$work/p2" "$work/p3" | awk '$4 < $2 || $5 < $3 {bad = 1} END {exit bad}' &&
	join "$work/p1" "$work/p2" | awk '$4 < $2 || $5 < $3 {bad = 1} END {exit bad}'; then
	pass prom_queues_never_backwards
else
	fail prom_queues_never_backwards "$(tr '\n' ';' <"$work/p1") / $(tr '\n' ';' <"$work/p2") / $(tr '\n' ';' <"$work/p3")"
fi
lr_summary
