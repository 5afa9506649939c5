#!/usr/bin/env bash
# --listen with the peer view (issue 16): a linerate client in namespace A tests against
# `linerate -s` in namespace B (host name peerhost, unshare -u) and serves the peer's samples
# beside its own, labelled side="peer" and host="peerhost". Witnesses: promtool check metrics on
# the scrapes; the peer kernel's own rx_bytes (/sys in B, read right before and after each
# scrape) bracket the scraped peer counter; a real Prometheus (Debian's) scrapes it at 1 s and
# stores the peer's series with no reset. Against `linerate -s --no-peer-stats` no series has
# side="peer". Then: a sampler tick is not delayed by scrapes: tick lateness (the CSV's interval
# minus -i) with and without 10 scrapes/s, reported (never asserted: a shared host's
# scheduling is not a test's to judge); asserted only that both runs produced lateness samples.
source "$(dirname "$0")/../lib.sh"
lr_plan "peer: client exits 0" "peer: promtool check metrics on every scrape" \
	"peer: side=\"peer\" series for the peer's test interface, host peerhost" \
	"peer: scraped peer rx_bytes between two reads of the peer kernel's" \
	"peer: scraped peer rx_bytes never goes backwards" \
	"peer: a peer CPU series per CPU (mode idle)" \
	"peer: the local series keep no side label" \
	"prometheus: stored the peer's rx_bytes series (up == 1)" \
	"prometheus: no reset in the peer's series" \
	"prometheus: stored peer rx_bytes <= the peer kernel's delta over the test" \
	"no-peer-stats: no side=\"peer\" series" \
	"lateness: ticks measured without scrapes" "lateness: ticks measured with 10 scrapes/s" \
	"lateness: the scrapes were served"
need_root "prometheus_peer"
for tool in promtool prometheus curl jq python3; do
	command -v "$tool" >/dev/null ||
		{ lr_skip_plan prometheus_peer "$tool not installed (scripts/deps.sh installs it)"; exit 0; }
done

u=$(lr_uniq)
A=${u}A S=${u}S IA=${u}a IS=${u}s
ADDR_A=10.206.0.1 ADDR_S=10.206.0.2
LPORT=9102 PPORT=9092	# inside namespace A
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"
lr_netns_pair "$A" "$S" "$IA" "$IS" "$ADDR_A" "$ADDR_S" 1500
lr_quiet_link "$A" "$S" "$IA" "$IS" "$ADDR_A" "$ADDR_S"
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
inA() { ip netns exec "$A" "$@"; }
peer_rx() { ip netns exec "$S" cat "/sys/class/net/$IS/statistics/rx_bytes"; }
start_server() {	# ARGS...: linerate -s in S under the host name peerhost
	ip netns exec "$S" unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -p 5302 $*" \
		>"$work/server.log" 2>&1 &
	srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
	lr_wait_listen 5302 "$S"
}
stop_server() { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; }
pq() {	# PromQL instant query -> the values, one per line (curl and jq: python3's urllib took up
	# to a second a query on a loaded host)
	inA curl -sf -m 5 -G --data-urlencode "query=$1" "http://127.0.0.1:$PPORT/api/v1/query" |
		jq -r '.data.result[].value[1]'
}

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

# --- a 6 s UDP test, scraped every 0.5 s between two reads of the peer kernel's rx_bytes ----------
start_server
k0=$(peer_rx)
inA timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -p 5302 -u -b 50M -t 6 -i 0.2 --csv /dev/null \
	--listen "127.0.0.1:$LPORT" >"$work/client.out" 2>&1 &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
n=0
: >"$work/brackets"
sleep 1.5
while kill -0 "$cli" 2>/dev/null && [ $n -lt 12 ]; do
	kb=$(peer_rx)
	inA curl -sf -o "$work/scrape$n.txt" "http://127.0.0.1:$LPORT/metrics" || break
	ka=$(peer_rx)
	v=$(sed -n "s/^linerate_iface_rx_bytes_total{iface=\"$IS\",side=\"peer\",host=\"peerhost\"} \([0-9]*\)$/\1/p" "$work/scrape$n.txt")
	echo "$((kb - k0)) ${v:-x} $((ka - k0))" >>"$work/brackets"
	n=$((n + 1))
	sleep 0.5
done
wait "$cli"; rc=$?
k1=$(peer_rx)
stop_server
check "peer: client exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/client.out"
echo "    $n scrapes during the test; peer kernel rx delta over it $((k1 - k0))"
bad=0
for ((i = 0; i < n; i++)); do
	promtool check metrics <"$work/scrape$i.txt" >"$work/promtool$i.out" 2>&1 || { bad=1; sed 's/^/    /' "$work/promtool$i.out" | head -5; }
done
check "peer: promtool check metrics on every scrape" test "$n" -ge 3 -a "$bad" -eq 0
check "peer: side=\"peer\" series for the peer's test interface, host peerhost" \
	test "$(grep -c "^linerate_iface_rx_bytes_total{iface=\"$IS\",side=\"peer\",host=\"peerhost\"}" "$work/scrape$((n - 1)).txt" 2>/dev/null)" = 1
sed 's/^/    kernel before, scraped, kernel after: /' "$work/brackets" | tail -4
# the peer's sums start at its first reading (after k0) and end at its newest frame (before the
# scrape): at most the kernel's count after the scrape; at least what the kernel had one scrape
# earlier (frames come every 0.2 s), less the control connection's bytes before the first reading
check "peer: scraped peer rx_bytes between two reads of the peer kernel's" awk -v n="$n" '
	{ if ($2 == "x" || $2 > $3) bad = 1; if (NR > 1 && $2 < prev - 65536) bad = 1; prev = $1 }
	END { exit bad || NR != n || NR < 3 }' "$work/brackets"
check "peer: scraped peer rx_bytes never goes backwards" awk '
	{ if ($2 == "x" || (NR > 1 && $2 < last)) bad = 1; last = $2 } END { exit bad || NR < 3 }' "$work/brackets"
check "peer: a peer CPU series per CPU (mode idle)" \
	test "$(grep -c '^linerate_cpu_seconds_total{cpu="[0-9]*",mode="idle",side="peer",host="peerhost"}' "$work/scrape$((n - 1)).txt")" -eq "$ncpu"
check "peer: the local series keep no side label" \
	test "$(grep -c "^linerate_iface_rx_bytes_total{iface=\"$IA\"} " "$work/scrape$((n - 1)).txt")" -eq 1
sel="linerate_iface_rx_bytes_total{iface=\"$IS\",side=\"peer\",host=\"peerhost\"}"
# Prometheus's scrapes are in (the client and its --listen are gone: nothing more comes)
for ((i = 0; i < 30; i++)); do stored=$(pq "max_over_time(${sel}[2m])"); [ -n "$stored" ] && break; sleep 0.1; done
echo "    prometheus: stored peer rx_bytes max ${stored:-none}, peer kernel delta $((k1 - k0))"
check "prometheus: stored the peer's rx_bytes series (up == 1)" \
	test -n "$stored" -a "$(pq 'max_over_time(up{job="linerate"}[2m])')" = 1
check "prometheus: no reset in the peer's series" test "$(pq "resets(${sel}[2m])")" = 0
check "prometheus: stored peer rx_bytes <= the peer kernel's delta over the test" \
	awk -v s="${stored:--1}" -v k="$((k1 - k0))" 'BEGIN { exit !(s > 0 && s <= k) }'

# --- --no-peer-stats: nothing labelled side="peer" --------------------------------------------
start_server --no-peer-stats
inA timeout 40 "$LR_BIN" --headless -c "$ADDR_S" -p 5302 -u -b 10M -t 3 -i 0.2 --csv /dev/null \
	--listen "127.0.0.1:$LPORT" >"$work/client2.out" 2>&1 &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
sleep 2
inA curl -sf -o "$work/none.txt" "http://127.0.0.1:$LPORT/metrics"
wait "$cli"
stop_server
check "no-peer-stats: no side=\"peer\" series" \
	sh -c "test -s '$work/none.txt' && ! grep -q 'side=\"peer\"' '$work/none.txt'"

# --- tick lateness with and without 10 scrapes/s (reported, not asserted) -----------------------
lateness() {	# NAME SCRAPES(0|1): 5 s of headless sampling at -i 0.1 in A (lo and the veth)
	inA timeout 30 "$LR_BIN" --headless -i 0.1 -t 5 --csv "$work/late_$1.csv" \
		--listen "127.0.0.1:$LPORT" >/dev/null 2>&1 &
	local pid=$!
	if [ "$2" = 1 ]; then	# 10/s from one process (a curl per scrape cannot keep up here)
		inA python3 - "$LPORT" "$pid" >"$work/codes" <<'PY'
import os, sys, time, urllib.request
port, pid = sys.argv[1], int(sys.argv[2])
time.sleep(0.5)
t = time.monotonic()
while True:
	try:
		os.kill(pid, 0)
	except OSError:
		break
	try:
		r = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=2)
		r.read()
		print(r.status, flush=True)
	except Exception as e:
		print("error", e, flush=True)
	t += 0.1
	time.sleep(max(0, t - time.monotonic()))
PY
	fi
	wait "$pid"
	awk -F, 'NR > 1 && $3 == "lo" { late = ($4 - 0.1) * 1000; if (late < 0) late = 0; print late }' \
		"$work/late_$1.csv" | sort -g >"$work/late_$1.txt"
}
pct() { awk '{ v[NR] = $1 } END { if (!NR) { print "- - - 0"; exit }
	i = int(NR * 0.5); if (i < 1) i = 1; j = int(NR * 0.99); if (j < 1) j = 1
	printf "%.3f %.3f %.3f %d\n", v[i], v[j], v[NR], NR }' "$1"; }
lateness quiet 0
lateness scraped 1
read -r q50 q99 qmax qn < <(pct "$work/late_quiet.txt")
read -r s50 s99 smax sn < <(pct "$work/late_scraped.txt")
scrapes=$(grep -c '^200$' "$work/codes")
echo "    tick lateness without scrapes: p50 ${q50} ms, p99 ${q99} ms, max ${qmax} ms ($qn ticks)"
echo "    tick lateness with 10 scrapes/s asked: p50 ${s50} ms, p99 ${s99} ms, max ${smax} ms ($sn ticks, $scrapes scrapes served in ~4.5 s)"
check "lateness: ticks measured without scrapes" test "$qn" -ge 20
check "lateness: ticks measured with 10 scrapes/s" test "$sn" -ge 20
check "lateness: the scrapes were served" test "$scrapes" -ge 20
lr_summary
