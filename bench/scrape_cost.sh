#!/bin/bash
# SPDX-License-Identifier: MIT
# Scrape cost of --listen (issue 16) on a large host's /proc: 1152 CPUs and 49 interfaces
# (bench/gen_bigtree.py, read through --procfs), beside Debian's prometheus-node-exporter with
# only its netdev and softnet collectors against the same tree. Per exporter: scrape latency
# (p50/p99 of SCRAPES sequential GETs on one keep-alive connection, client-side wall time) and
# CPU per scrape (the exporter's utime+stime over the scrapes, less its own idle rate measured
# just before, for linerate's sampler ticks). In a network namespace of its own (lo only).
# Writes its section of bench/RESULTS.md (between <!-- section:scrape:begin/end -->) unless
# BENCH_RESULTS=- (stdout only). Knobs: SCRAPES=300 NCPU=1152 NIF=49 LR_BIN. Never run by tests.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
N=${SCRAPES:-300} NCPU=${NCPU:-1152} NIF=${NIF:-49}
LR=${LR_BIN:-$TOP/build/linerate}
NE=$(command -v prometheus-node-exporter || true)
say() { echo "scrape_cost: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (a network namespace)"; exit 1; }
[ -x "$LR" ] || { say "no $LR (make)"; exit 1; }
. "$TOP/bench/scratch.sh"
bench_scratch scrape

python3 "$TOP/bench/gen_bigtree.py" "$NCPU" "$NIF" "$WORK/tree" || exit 1
cp "$TOP/tests/fixtures/pcp-snmp-3.19.0/proc/net/snmp" "$WORK/tree/proc/net/snmp"
mkdir -p "$WORK/tree/sys/class/net"
ip netns add "$NS" && ip -n "$NS" link set lo up || exit 1
clk=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }	# utime + stime, whole process
# scrape PORT N -> "p50_ms p99_ms bytes" (keep-alive connection, sequential)
scrape() {
	ip netns exec "$NS" python3 - "$1" "$2" <<'PY'
import http.client, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
lat, size = [], 0
for _ in range(n):
    t = time.monotonic()
    c.request("GET", "/metrics")
    r = c.getresponse()
    body = r.read()
    lat.append(time.monotonic() - t)
    assert r.status == 200, r.status
    size = len(body)
lat.sort()
print("%.3f %.3f %d" % (lat[len(lat) // 2] * 1e3, lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e3, size))
PY
}
# measure NAME PID PORT: idle rate over 5 s, then N scrapes
measure() {
	local pid=$2 port=$3 c0 c1 c2 t0 t1 t2 res
	sleep 3	# the first samples are in
	c0=$(cpu_ticks "$pid"); t0=$(date +%s.%N)
	sleep 5
	c1=$(cpu_ticks "$pid"); t1=$(date +%s.%N)
	res=$(scrape "$port" "$N") || { say "$1: scrapes failed"; echo "- - - - -"; return; }
	c2=$(cpu_ticks "$pid"); t2=$(date +%s.%N)
	# CPU per scrape in ms: (used - idle rate x duration) / N
	awk -v c0="$c0" -v c1="$c1" -v c2="$c2" -v t0="$t0" -v t1="$t1" -v t2="$t2" -v n="$N" -v hz="$clk" -v r="$res" 'BEGIN {
		idle = (c1 - c0) / hz / (t1 - t0); used = (c2 - c1) / hz; dur = t2 - t1
		split(r, a, " ")
		printf "%s %s %s %.3f %.4f\n", a[1], a[2], a[3], (used - idle * dur) / n * 1e3, idle }'
}

ip netns exec "$NS" "$LR" --headless --procfs "$WORK/tree/proc" --sysfs "$WORK/tree/sys" --source proc \
	-i 1 --csv /dev/null --listen 127.0.0.1:9181 2>"$WORK/lr.err" &
PIDS+=($!)
read -r l50 l99 lsize lcpu lidle < <(measure linerate "${PIDS[-1]}" 9181)
kill "${PIDS[-1]}"; wait "${PIDS[-1]}" 2>/dev/null
ne_line="| prometheus-node-exporter (netdev, softnet) | - | - | - | - | not installed (scripts/deps.sh --bench) |"
nev="-"
if [ -n "$NE" ]; then
	nev=$("$NE" --version 2>&1 | head -1)
	ip netns exec "$NS" "$NE" --path.procfs="$WORK/tree/proc" --path.sysfs="$WORK/tree/sys" \
		--collector.disable-defaults --collector.netdev --collector.softnet \
		--web.listen-address=127.0.0.1:9182 --log.level=warn 2>"$WORK/ne.err" &
	PIDS+=($!)
	read -r n50 n99 nsize ncpu nidle < <(measure node_exporter "${PIDS[-1]}" 9182)
	ne_line="| prometheus-node-exporter (netdev, softnet) | $n50 | $n99 | $ncpu | $nsize | reads /proc on each scrape; idle $(awk -v i="$nidle" 'BEGIN { printf "%.1f", i * 1e3 }') ms CPU/s |"
fi
section=$(cat <<MD
### Prometheus scrape cost (issue 16): $NCPU CPUs, $NIF interfaces (bench/scrape_cost.sh)

$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) vCPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end (other work on the
machine shows here). The tree: \`python3 bench/gen_bigtree.py $NCPU $NIF DIR\` (+ a captured /proc/net/snmp).
$N sequential scrapes per exporter on one keep-alive connection, client wall time; CPU per scrape = the
exporter's utime+stime over the scrapes less its idle rate (linerate's sampler ticks) measured over the 5 s before.

| exporter | p50 ms | p99 ms | CPU ms per scrape | bytes | notes |
|---|---:|---:|---:|---:|---|
| linerate --listen (\`linerate --headless --procfs DIR/proc --sysfs DIR/sys --source proc -i 1 --listen 127.0.0.1:9181\`) | $l50 | $l99 | $lcpu | $lsize | serves the newest snapshot, reads nothing per scrape; sampler idle $(awk -v i="$lidle" 'BEGIN { printf "%.1f", i * 1e3 }') ms CPU/s at -i 1 |
$ne_line

node_exporter: \`prometheus-node-exporter --path.procfs=DIR/proc --path.sysfs=DIR/sys --collector.disable-defaults --collector.netdev --collector.softnet\` ($nev).
The two do not serve the same series: linerate also serves per-CPU times and softirqs ($NCPU x 8 + $NCPU x 2 series) that node_exporter's cpu collector (off here) would add.
MD
)
echo "$section"
if [ "$OUT" != - ]; then
	python3 "$TOP/bench/results_section.py" "$OUT" "scrape" "$section"
	say "wrote its section of $OUT"
fi
