#!/usr/bin/env bash
# --listen scraped by a real Prometheus (Debian's), both inside a network namespace whose veth
# carries iperf3 traffic to a second namespace. The witnesses are the kernel's own counters
# (/sys/class/net/IF/statistics, read by this script around each query) and Prometheus's own
# functions (resets, rate): the values Prometheus stored equal the kernel's when the link is
# quiet and sit between two kernel reads while traffic flows; no series resets, even across an
# interface deleted and re-created; 404/405 for other paths and methods; idle connections and a
# slow client from the scraper's own address neither block a scrape nor stay forever; the
# first scrape, sent as the process starts, is a whole exposition. promtool checks the format.
source "$(dirname "$0")/../lib.sh"
lr_plan "first scrape, as the process starts: a whole exposition" \
	"promtool check metrics on a scrape" "OpenMetrics on request: content type and # EOF" \
	"prometheus scrapes linerate (up == 1)" \
	"quiet link before: stored counters == kernel's" "traffic: kernel read <= stored <= next kernel read" \
	"quiet link after: stored counters == kernel's" "stored increase == kernel delta over the traffic" \
	"rate() never negative, positive under traffic" "no counter reset seen by prometheus" \
	"re-created interface: no reset, counter kept growing" \
	"404 for another path" "405 + Allow for POST" "/ links to /metrics" \
	"scrape answered (curl -m 2) beside 200 idle connections + a slow client, same address" \
	"one address holds at most 64 connections" "prometheus kept scraping meanwhile" \
	"slow client cut off by the idle timeout"
need_root "prometheus"
for tool in prometheus promtool iperf3 curl jq python3; do
	command -v "$tool" >/dev/null ||
		{ lr_skip_plan prometheus "$tool not installed (scripts/deps.sh installs it)"; exit 0; }
done

u=$(lr_uniq)
A=${u}a B=${u}b IA=${u}x IB=${u}y IC=${u}c ID=${u}d
ADDR_A=10.202.0.1 ADDR_B=10.202.0.2
LPORT=9100 PPORT=9090	# inside namespace A: nothing else listens there
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"

lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
lr_quiet_link "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B"
add_second_pair() {	# IC (in A) <-> ID (in B), 10.203.0.0/24
	ip link add "$IC" netns "$A" type veth peer name "$ID" netns "$B"
	ip -n "$A" addr add 10.203.0.1/24 dev "$IC"; ip -n "$B" addr add 10.203.0.2/24 dev "$ID"
	ip -n "$A" link set "$IC" up; ip -n "$B" link set "$ID" up
}
add_second_pair

inA() { ip netns exec "$A" "$@"; }
kernel() {	# IF -> "rx_bytes tx_bytes rx_packets tx_packets"
	inA sh -c "cd /sys/class/net/$1/statistics && cat rx_bytes tx_bytes rx_packets tx_packets" | tr '\n' ' '
}
# PromQL instant query -> the values of the result, one per line ("" when empty); curl and jq
# start in milliseconds where python3's urllib took most of a second a query on a loaded host
pq() {
	inA curl -sf -m 5 -G --data-urlencode "query=$1" "http://127.0.0.1:$PPORT/api/v1/query" |
		jq -r '.data.result[].value[1]'
}
# settle IF: waits (up to 8 s) until Prometheus has stored IF's current kernel counters, i.e. a
# scrape after the link's last packet landed; the caller then checks what it needs
settle() {
	local i
	for ((i = 0; i < 32; i++)); do [ "$(kernel "$1")" = "$(stored "$1")" ] && return 0; sleep 0.25; done
	return 1
}
stored() {	# IF -> "rx_bytes tx_bytes rx_packets tx_packets" as Prometheus stored them
	local m out=""
	for m in rx_bytes tx_bytes rx_packets tx_packets; do
		out="$out$(pq "linerate_iface_${m}_total{iface=\"$1\"}") "
	done
	echo "$out"
}

# (lr_bg on ip itself: netns exec execs, so the PID killed at exit is the program's)
lr_bg ip netns exec "$A" "$LR_BIN" --headless -i 0.1 --csv /dev/null --listen "127.0.0.1:$LPORT"
# a scraper started with it: its first answer (whatever comes once the port is bound)
for ((i = 0; i < 300; i++)); do
	code=$(inA curl -s -m 8 -o "$work/first.txt" -w '%{http_code}' "http://127.0.0.1:$LPORT/metrics")
	[ "$code" != 000 ] && break
	sleep 0.01
done
check "first scrape, as the process starts: a whole exposition" sh -c \
	"[ '$code' = 200 ] && grep -q '^linerate_iface_rx_bytes_total{iface=\"$IA\"}' '$work/first.txt'"
cat >"$work/prom.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: linerate
    static_configs: [{targets: ['127.0.0.1:$LPORT']}]
EOF
lr_bg ip netns exec "$A" prometheus --config.file="$work/prom.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" --log.level=warn 2>"$work/prometheus.log"
for _ in $(seq 50); do
	inA curl -sf "http://127.0.0.1:$PPORT/-/ready" >/dev/null 2>&1 && break
	sleep 0.2
done

inA curl -s "http://127.0.0.1:$LPORT/metrics" >"$work/scrape.txt"
if inA promtool check metrics <"$work/scrape.txt" >"$work/promtool.out" 2>&1 &&
	grep -q "linerate_iface_rx_bytes_total{iface=\"$IA\"}" "$work/scrape.txt"; then
	pass "promtool check metrics on a scrape"
else
	fail "promtool check metrics on a scrape" "$(head -c 300 "$work/promtool.out")"
fi
inA curl -s -D "$work/om.hdr" -H 'Accept: application/openmetrics-text;version=1.0.0' \
	"http://127.0.0.1:$LPORT/metrics" >"$work/om.txt"
check "OpenMetrics on request: content type and # EOF" sh -c \
	"grep -qi '^content-type: application/openmetrics-text; version=1.0.0' '$work/om.hdr' &&
	 [ \"\$(tail -n1 '$work/om.txt')\" = '# EOF' ] && grep -q '^# TYPE linerate_iface_rx_bytes counter' '$work/om.txt'"

# Prometheus applies new targets on a 5 s tick: wait for the first scrape, then a few more
for _ in $(seq 60); do [ "$(pq 'up{job="linerate"}' 2>/dev/null)" = 1 ] && break; sleep 0.25; done
check "prometheus scrapes linerate (up == 1)" test "$(pq 'up{job="linerate"}')" = 1
settle "$IA"

k0=$(kernel "$IA"); v0=$(stored "$IA")
if [ -n "${v0// /}" ] && [ "$k0" = "$v0" ]; then pass "quiet link before: stored counters == kernel's"
else fail "quiet link before: stored counters == kernel's" "kernel [$k0] stored [$v0]"; fi

# ---- traffic, idle connections and a slow client at the same time ----
ip netns exec "$B" iperf3 -s -1 -p 5302 >/dev/null 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
lr_wait_listen 5302 "$B"
inA iperf3 -c "$ADDR_B" -p 5302 -t 5 -b 200M >/dev/null 2>&1 &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
# 200 idle connections and one client that sends half a request, then waits, all from the
# scraper's own address (as any local process could)
inA python3 - "$LPORT" >"$work/hold.out" 2>&1 <<'EOF' &
import select, socket, sys, time
dst = ("127.0.0.1", int(sys.argv[1]))
idle = []
for _ in range(200):
    s = socket.socket(); s.settimeout(3)
    try:
        s.connect(dst); idle.append(s)
    except OSError:
        s.close()
slow = socket.create_connection(dst, timeout=3)
slow.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")   # never finished
t0 = time.monotonic()
time.sleep(1.5)
def alive(s):
    r, _, _ = select.select([s], [], [], 0)
    if not r:
        return True
    try:
        return s.recv(1, socket.MSG_PEEK) != b""
    except OSError:
        return False
print("held", sum(alive(s) for s in idle), flush=True)
print("holding", flush=True)
cut = -1
while time.monotonic() - t0 < 16:
    r, _, _ = select.select([slow], [], [], 0.2)
    if r:
        try:
            gone = slow.recv(1024) == b""
        except OSError:   # reset: refused at once
            gone = True
        if gone:
            cut = time.monotonic() - t0; break
print("slow_cut %.1f" % cut, flush=True)
time.sleep(max(0, t0 + 4 - time.monotonic()))   # the idle ones stay past the scrape
EOF
hold=$!; lr_cleanup_add "kill $hold 2>/dev/null"
# its connections made and held
for ((i = 0; i < 100; i++)); do grep -q '^holding' "$work/hold.out" && break; sleep 0.1; done
held_from=$(date +%s)
code=$(inA curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$LPORT/metrics")
check "scrape answered (curl -m 2) beside 200 idle connections + a slow client, same address" \
	test "$code" = 200
k1=$(kernel "$IA"); sleep 2.5; v=$(stored "$IA"); k2=$(kernel "$IA")
read -r k1rx k1tx k1rp k1tp <<<"$k1"; read -r vrx vtx vrp vtp <<<"$v"; read -r k2rx k2tx k2rp k2tp <<<"$k2"
if [ -n "$vtp" ] && [ "$k1tx" -le "$vtx" ] && [ "$vtx" -le "$k2tx" ] && [ "$k1rx" -le "$vrx" ] &&
	[ "$vrx" -le "$k2rx" ] && [ "$k1tp" -le "$vtp" ] && [ "$vtp" -le "$k2tp" ] && [ "$k2tx" -gt "$k1tx" ]; then
	pass "traffic: kernel read <= stored <= next kernel read"
else
	fail "traffic: kernel read <= stored <= next kernel read" "kernel [$k1] stored [$v] kernel [$k2]"
fi
code404=$(inA curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LPORT/nope")
check "404 for another path" test "$code404" = 404
inA curl -s -o /dev/null -D "$work/405.hdr" -X POST -d x=1 "http://127.0.0.1:$LPORT/metrics"
check "405 + Allow for POST" sh -c "head -n1 '$work/405.hdr' | grep -q ' 405' && grep -qi '^allow: GET' '$work/405.hdr'"
check "/ links to /metrics" sh -c "ip netns exec $A curl -s http://127.0.0.1:$LPORT/ | grep -q 'href=\"/metrics\"'"

# the second veth deleted and re-created between scrapes, with traffic before and after
inA ping -q -c 20 -i 0.02 10.203.0.2 >/dev/null 2>&1
settle "$IC"
before_tx=$(pq "linerate_iface_tx_bytes_total{iface=\"$IC\"}")
ip -n "$A" link del "$IC"
# a scrape without it: Prometheus has marked the series stale (2 s at the most, as before)
for ((i = 0; i < 20; i++)); do [ -z "$(pq "linerate_iface_tx_bytes_total{iface=\"$IC\"}")" ] && break; sleep 0.1; done
add_second_pair
inA ping -q -c 5 -i 0.02 10.203.0.2 >/dev/null 2>&1
wait "$cli"
# the link is quiet again: a scrape after its last packet landed, so after IC's pings too (IC's
# own stored counter goes on from its first life: it never equals the new device's)
settle "$IA"
# linerate finds the new device at its next interface scan: wait (5 s at most) for a scrape
# that has it back, then judge what it stored
for ((i = 0; i < 50; i++)); do
	after_tx=$(pq "linerate_iface_tx_bytes_total{iface=\"$IC\"}")
	[ -n "$after_tx" ] && break
	sleep 0.1
done
resets_c=$(pq "resets(linerate_iface_tx_bytes_total{iface=\"$IC\"}[1m])")
if [ -n "$before_tx" ] && [ -n "$after_tx" ] && [ "${resets_c:-1}" = 0 ] && [ "$after_tx" -gt "$before_tx" ]; then
	pass "re-created interface: no reset, counter kept growing"
else
	fail "re-created interface: no reset, counter kept growing" "before $before_tx after $after_tx resets $resets_c"
fi

k3=$(kernel "$IA"); v3=$(stored "$IA")
if [ -n "${v3// /}" ] && [ "$k3" = "$v3" ]; then pass "quiet link after: stored counters == kernel's"
else fail "quiet link after: stored counters == kernel's" "kernel [$k3] stored [$v3]"; fi
read -r a b c d <<<"$k0"; read -r e f g h <<<"$k3"; kd="$((e - a)) $((f - b)) $((g - c)) $((h - d))"
read -r a b c d <<<"$v0"; read -r e f g h <<<"$v3"; vd="$((e - a)) $((f - b)) $((g - c)) $((h - d))"
check "stored increase == kernel delta over the traffic" test "$kd" = "$vd" -a "${kd%% *}" -gt 0
rmin=$(pq "min_over_time(rate(linerate_iface_rx_bytes_total{iface=\"$IA\"}[3s])[120s:1s])")
rmax=$(pq "max_over_time(rate(linerate_iface_tx_bytes_total{iface=\"$IA\"}[3s])[120s:1s])")
check "rate() never negative, positive under traffic" awk -v a="$rmin" -v b="$rmax" \
	'BEGIN { exit !(a != "" && b != "" && a + 0 >= 0 && b + 0 > 1e6) }'
nres=""	# resets() drops the name: one family at a time
for fam in iface_rx_bytes iface_tx_bytes iface_rx_packets iface_tx_packets cpu_seconds softirqs \
	softnet_processed; do
	nres="$nres$(pq "sum(resets(linerate_${fam}_total[2m]))") "
done
check "no counter reset seen by prometheus" test "$nres" = "0 0 0 0 0 0 0 "

wait "$hold"
held=$(sed -n 's/^held //p' "$work/hold.out"); cut=$(sed -n 's/^slow_cut //p' "$work/hold.out")
check "one address holds at most 64 connections" test -n "$held" -a "${held:-999}" -le 64 -a "${held:-0}" -ge 1
span=$(($(date +%s) - held_from))
ups=$(pq "min_over_time(up{job=\"linerate\"}[${span}s])")
check "prometheus kept scraping meanwhile" test "$ups" = 1
check "slow client cut off by the idle timeout" awk -v c="${cut:--1}" 'BEGIN { exit !(c >= 8 && c <= 14) }'
[ -n "${LR_VERBOSE:-}" ] && cat "$work/hold.out"
exit 0
