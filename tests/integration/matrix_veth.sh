#!/usr/bin/env bash
# `linerate -c --matrix` through a veth pair between two network namespaces, against
# `linerate -s`: one row per case in the CSV (header as docs/design.md §10), -J with the same
# rows and verdicts, the Markdown table; each case's receiver bytes equal the server's own count
# of that test (its log), and the server veth's kernel rx_bytes cover them; a bad SPEC exits 2
# before any packet (the kernel's counters do not move, the server sees no test); SIGINT mid-grid
# leaves a CSV of whole rows for the cases that finished. Against Debian's `iperf3 -s` the 2x2x2
# grid: every row in SPEC order, each row's bytes equal iperf3's own JSON count, peer columns
# empty, the busy server retried; its --streams-csv rows carry each case's target in turn: the
# matrix CSV's bitrate_target, and what iperf3 -s says it was told (its target_bitrate). Settling: the client veth's kernel byte counters, read every
# 50 ms from outside linerate (matrix_witness.py), show the link quiet for the settle interval
# before each case after the first (-J's time_start). Timings are never asserted.
source "$(dirname "$0")/../lib.sh"
lr_plan "grid: exits 0" "grid: CSV header exact" "grid: 4 CSV rows, cases 1..4 in order" \
	"grid: -J has the 4 rows with the CSV's keys, then time_start, time_end" \
	"grid: -J receiver_bps and verdict == CSV, each row" \
	"grid: CSV time_start/time_end inside the run's wall clock, in order, each >= -t" \
	"grid: the server ran 4 tests" "grid: kernel rx_bytes of the server veth cover the receivers' bytes"
for i in 1 2 3 4; do lr_plan "grid: case $i receiver bytes == server's own count"; done
lr_plan "grid: each case after the first started on a quiet link (kernel counters, read from outside)"
lr_plan "reverse: row's bytes == server's sent count, covered by the client veth's rx_bytes"
lr_plan "bad spec: exit 2" "bad spec: one line naming the key, with the hint to --help" "bad spec: no packet left" \
	"bad spec: the server saw no test" "bad value: exit 2, names the value"
lr_plan "sigint: exit 1" "sigint: at least one finished row" "sigint: fewer rows than cases" \
	"sigint: one row per test the server completed (its log), none for the interrupted one" \
	"sigint: every row measured its whole -t (seconds >= 0.9 of 1)" \
	"sigint: every row whole (36 fields, newline-terminated)" "sigint: Markdown has the same rows"
lr_plan "omit: the server's test lasted -O + -t" "omit: the row measured -t seconds" \
	"omit: the row's lost datagrams == the case run alone with -O (nft drops 1 in 50)" \
	"omit: the row's receiver bit/s == the case run alone with -O"
lr_plan "alone: a row equals the case run alone (within the noise beside it)"
for r in sigint omit alone; do lr_plan "markdown: $r's table == its CSV (rows, receiver Mbit/s, verdict)"; done
lr_plan "iperf3: exits 0 (busy retried)" "iperf3: the busy server was retried" "iperf3: 8 rows in SPEC order" \
	"iperf3: peer columns empty" "iperf3: -J receiver_bps and verdict == CSV, each row"
for i in 1 2 3 4 5 6 7 8; do lr_plan "iperf3: case $i receiver bytes == iperf3's own count"; done
lr_plan "iperf3: stream rows' target_bps, case by case == the matrix CSV's bitrate_target" \
	"iperf3: stream rows' target_bps, case by case == what iperf3 -s was told (target_bitrate)"
lr_plan "iperf3: each case after the first started on a quiet link (kernel counters, read from outside)"
need_root "matrix_veth"

A=lrA$$ B=lrB$$ IA=lrma$$ IB=lrmb$$
ADDR_A=10.203.0.1 ADDR_B=10.203.0.2
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"

lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
for ns in "$A" "$B"; do	# a silent link: no IPv6 autoconf/MLD, no ARP
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
mac_b=$(ip -n "$B" -o link show "$IB" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
mac_a=$(ip -n "$A" -o link show "$IA" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$A" neigh replace "$ADDR_B" lladdr "$mac_b" dev "$IA" nud permanent
ip -n "$B" neigh replace "$ADDR_A" lladdr "$mac_a" dev "$IB" nud permanent

stat_of() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"; }
tests_done() { grep -c ' done: ' "$work/server.log"; }
wait_listen() { lr_wait_listen "$1" "$B"; }	# PORT: the server in $B listens
witness="$LR_TOP/tests/integration/matrix_witness.py"

# this veth's kernel byte counters every 50 ms, read from outside linerate (the settling's
# witness); ahead of other loads so that its samples keep their pace
ip netns exec "$A" timeout 240 nice -n -10 python3 "$witness" sample "$IA" "$work/link.samples" 230 &
sampler=$!; lr_cleanup_add "kill $sampler 2>/dev/null; wait $sampler 2>/dev/null"
for _ in $(seq 200); do [ -s "$work/link.samples" ] && break; sleep 0.05; done	# python is up

# the server's log is its own per-test report: "received N bytes"
ip netns exec "$B" timeout 300 "$LR_BIN" -s -p 5297 >"$work/server.log" 2>&1 &
srv_pid=$!; lr_cleanup_add "kill $srv_pid 2>/dev/null; wait $srv_pid 2>/dev/null"
wait_listen 5297

# --- the grid: P=1,2 x tcp,udp at -t 1, -J and the CSV ---------------------------------------
want_hdr="case,proto,streams,length,reverse,bitrate_target,window,mss,congestion,seconds,sender_bps,receiver_bps,receiver_pps,retransmits,lost,lost_pct,jitter_ms,local_cpu_busy_pct,local_softirq_max_pct,local_softirq_cpu,peer_cpu_busy_pct,peer_softirq_max_pct,peer_softirq_cpu,local_service_demand_us_per_kb,peer_service_demand_us_per_kb,local_drops,local_fifo,peer_drops,peer_fifo,verdict,time_start,time_end,rtt_idle_us,rtt_p99_us,rr_tps,rr_p99_us"
rx0=$(stat_of "$B" "$IB" rx_bytes)
wall0=$(date +%s.%N)
ip netns exec "$A" timeout 120 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 --matrix "P=1,2;u=tcp,udp" -t 1 \
	-i 0.2 -J --matrix-csv "$work/grid.csv" >"$work/grid.json" 2>"$work/grid.err"
rc=$?
wall1=$(date +%s.%N)
rx1=$(stat_of "$B" "$IB" rx_bytes)
check "grid: exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/grid.err"
check "grid: CSV header exact" test "$(head -1 "$work/grid.csv")" = "$want_hdr"
cases=$(awk -F, 'NR > 1 { printf "%s%s/%s/%s", sep, $1, $3, $2; sep = " " }' "$work/grid.csv")
check "grid: 4 CSV rows, cases 1..4 in order" test "$cases" = "1/1/tcp 2/1/udp 3/2/tcp 4/2/udp"
check "grid: -J has the 4 rows with the CSV's keys, then time_start, time_end" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["linerate_matrix"]
keys = sys.argv[2].split(",")  # time_start, time_end last, as in the CSV
assert len(rows) == 4 and all(list(r.keys()) == keys for r in rows)
assert [(r["case"], r["streams"], r["proto"]) for r in rows] == [(1, 1, "tcp"), (2, 1, "udp"), (3, 2, "tcp"), (4, 2, "udp")]
assert all(r["time_start"] < r["time_end"] for r in rows)
' "$work/grid.json" "$want_hdr"
check "grid: -J receiver_bps and verdict == CSV, each row" python3 "$witness" verdicts "$work/grid.csv" "$work/grid.json"
# the cases' times in the CSV (the columns before the appended rtt_idle_us, rtt_p99_us, rr_tps,
# rr_p99_us)
# against the wall clock around the run: in order, inside the run, each at least its -t 1 long
check "grid: CSV time_start/time_end inside the run's wall clock, in order, each >= -t" \
	awk -F, -v a="$wall0" -v b="$wall1" 'NR > 1 { s = $(NF - 5); e = $(NF - 4)
		if (!(s >= a && e <= b && e - s >= 1 && s >= last)) bad = 1; last = e; n++ }
		END { exit bad || n != 4 }' "$work/grid.csv"
check "grid: the server ran 4 tests" test "$(tests_done)" -eq 4
# each case's bytes (receiver_bps x seconds / 8) against the server's "received N bytes", in
# test order (the server runs one test at a time)
grep ' done: ' "$work/server.log" | sed -n 's/.* received \([0-9]*\) bytes.*/\1/p' >"$work/srv_bytes"
awk -F, 'NR > 1 { printf "%.0f\n", $12 * $10 / 8 }' "$work/grid.csv" >"$work/row_bytes"
for i in 1 2 3 4; do
	s=$(sed -n "${i}p" "$work/srv_bytes"); r=$(sed -n "${i}p" "$work/row_bytes")
	# bps are written to the bit, seconds to the µs: 0.01 % allowed
	check "grid: case $i receiver bytes == server's own count" \
		awk -v s="${s:-0}" -v r="${r:--1}" 'BEGIN { d = s - r; if (d < 0) d = -d; exit !(s > 0 && d <= s * 0.0001 + 2) }'
	[ -n "$s" ] && [ -n "$r" ] && echo "    case $i: server $s, row $r"
done
sum_rows=$(awk '{ s += $1 } END { printf "%.0f", s }' "$work/row_bytes")
krx=$((rx1 - rx0))
echo "    kernel rx_bytes of $IB over the grid: $krx, rows' payload: $sum_rows"
# payload plus headers (TCP/UDP/IP/Ethernet, at most 8 % at MTU 1500) plus control and ACKs
check "grid: kernel rx_bytes of the server veth cover the receivers' bytes" \
	awk -v k="$krx" -v p="$sum_rows" 'BEGIN { exit !(p > 0 && k >= p && k <= p * 1.08 + 2000000) }'
# the link quiet (kernel counters, read from outside) over the interval before each next case
check "grid: each case after the first started on a quiet link (kernel counters, read from outside)" \
	python3 "$witness" settle "$work/link.samples" "$work/grid.json" 0.2

# --- -R: this side receives; the server's sent count and this veth's kernel rx_bytes witness it ---
n0=$(tests_done); rx0=$(stat_of "$A" "$IA" rx_bytes)
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 --matrix "R=1" -u -b 50M -t 1 \
	-i 0.2 --matrix-csv "$work/rev.csv" >/dev/null 2>"$work/rev.err"
rx1=$(stat_of "$A" "$IA" rx_bytes)
sent=$(grep ' done: ' "$work/server.log" | sed -n "$((n0 + 1))p" | sed -n 's/.* sent \([0-9]*\) bytes.*/\1/p')
rrow=$(awk -F, 'NR == 2 { printf "%.0f", $12 * $10 / 8 }' "$work/rev.csv")
lost=$(awk -F, 'NR == 2 { print $15 + 0 }' "$work/rev.csv")
echo "    reverse: server sent ${sent:-?}, row received ${rrow:-?} (lost ${lost:-?} datagrams), kernel rx $((rx1 - rx0))"
# UDP on a veth: what the server sent arrives, less the datagrams counted lost
check "reverse: row's bytes == server's sent count, covered by the client veth's rx_bytes" \
	awk -v s="${sent:-0}" -v r="${rrow:--1}" -v k="$((rx1 - rx0))" -v l="${lost:-0}" 'BEGIN {
		# r is rebuilt from the rounded bit/s x seconds of the CSV: a millionth of slack
		e = s * 1e-6 + 2
		exit !(s > 0 && r <= s + e && r >= s - l * 1500 - e && k >= r && k <= r * 1.08 + 2000000) }'

# --- a bad SPEC: exit 2 before any traffic ------------------------------------------------------
tx0=$(stat_of "$A" "$IA" tx_packets); n0=$(tests_done)
ip netns exec "$A" timeout 20 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 --matrix "P=1,2;x=3" -t 1 \
	--matrix-csv "$work/bad.csv" >"$work/bad.out" 2>"$work/bad.err"
rc=$?
sleep 0.3
tx1=$(stat_of "$A" "$IA" tx_packets)
check "bad spec: exit 2" test "$rc" -eq 2
check "bad spec: one line naming the key, with the hint to --help" test "$(wc -l <"$work/bad.err")" -eq 1 -a \
	"$(grep -c "unknown key 'x'.*(see linerate --help)" "$work/bad.err")" -eq 1
check "bad spec: no packet left" test "$tx1" -eq "$tx0"
check "bad spec: the server saw no test" test "$(tests_done)" -eq "$n0"
ip netns exec "$A" timeout 20 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 --matrix "u=udp;l=64,70000" \
	-t 1 2>"$work/bad2.err" >/dev/null
rc=$?
check "bad value: exit 2, names the value" test "$rc" -eq 2 -a "$(grep -c "70000" "$work/bad2.err")" -eq 1

# --- SIGINT mid-grid: the rows are the tests the server completed, each whole -------------------
n0=$(tests_done)
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 --matrix "P=1,2,3,4" -t 1 -i 0.2 \
	--matrix-csv "$work/int.csv" >"$work/int.md" 2>"$work/int.err" &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
# SIGINT once the first row is in the CSV (the second case is then running)
for _ in $(seq 100); do
	[ -f "$work/int.csv" ] && [ "$(wc -l <"$work/int.csv")" -ge 2 ] && break
	sleep 0.1
done
sleep 0.7
kill -INT "$cli"
wait "$cli"; rc=$?
rows=$(($(wc -l <"$work/int.csv") - 1))
echo "    interrupted after $rows row(s)"
check "sigint: exit 1" test "$rc" -eq 1
check "sigint: at least one finished row" test "$rows" -ge 1
check "sigint: fewer rows than cases" test "$rows" -lt 4
completed=$(($(tests_done) - n0))
echo "    the server completed $completed test(s) of the grid"
check "sigint: one row per test the server completed (its log), none for the interrupted one" \
	test "$rows" -eq "$completed"
check "sigint: every row measured its whole -t (seconds >= 0.9 of 1)" \
	awk -F, 'NR > 1 && !($10 >= 0.9) { bad = 1 } END { exit bad || NR < 2 }' "$work/int.csv"
check "sigint: every row whole (36 fields, newline-terminated)" python3 -c '
import csv, sys
data = open(sys.argv[1], newline="").read()
rows = list(csv.reader(data.splitlines()))
assert data.endswith("\n") and all(len(r) == 36 for r in rows), rows
' "$work/int.csv"
check "sigint: Markdown has the same rows" test "$(grep -cE '^\| [0-9]+ \|' "$work/int.md")" -eq "$rows"

# --- -O: a case is the single test with -O (the engine omits on both ends). nft drops 1 in 50
# of the datagrams at the receiver for the whole run (omitted second included); the matrix's row
# between two single `-u -b 20M -O 1 -t 1` runs: its loss and rate equal theirs (the noise beside
# it, at least 20 % / 3 datagrams and 3 %). A row charged with the omitted second's loss (what
# the matrix did when it marked its own -O) reads twice the loss -----------------------------------
have_nft=0
lr_nft_udp_drop "$B" lromit 5297 50 && have_nft=1
alone_omit() {
	ip netns exec "$A" timeout 30 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 -u -b 20M -O 1 -t 1 -J \
		>"$work/omit_alone$1.json" 2>/dev/null
}
alone_omit 1
n0=$(tests_done)
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 --matrix "u=udp;b=20M" -O 1 -t 1 \
	-i 0.2 --matrix-csv "$work/omit.csv" >"$work/omit.md" 2>"$work/omit.err"
secs=$(grep ' done: ' "$work/server.log" | sed -n "$((n0 + 1))p" | sed -n 's/.* in \([0-9.]*\) s$/\1/p')
alone_omit 2
[ "$have_nft" = 1 ] && ip netns exec "$B" nft delete table inet lromit
echo "    server's test: ${secs:-?} s"
check "omit: the server's test lasted -O + -t" awk -v s="${secs:-0}" 'BEGIN { exit !(s >= 1.9) }'
check "omit: the row measured -t seconds" \
	awk -F, 'NR == 2 { exit !($10 > 0.8 && $10 < 1.3) } END { if (NR != 2) exit 1 }' "$work/omit.csv"
single_omit() { jq -r "$1" "$work/omit_alone$2.json" 2>/dev/null; }
bracket() {	# NAME ROW A1 A2 REL ABS: ROW within [min - tol, max + tol], tol = max(spread, REL*max, ABS)
	echo "    $1: alone ${3:-?}, matrix row ${2:-?}, alone ${4:-?}"
	awk -v r="${2:-x}" -v a="${3:-x}" -v b="${4:-x}" -v rel="$5" -v abs="$6" 'BEGIN {
		if (r !~ /^[0-9.e+]+$/ || a !~ /^[0-9.e+]+$/ || b !~ /^[0-9.e+]+$/) exit 1
		lo = a < b ? a : b; hi = a < b ? b : a; tol = hi - lo
		if (tol < rel * hi) tol = rel * hi
		if (tol < abs) tol = abs
		exit !(r >= lo - tol && r <= hi + tol) }'
}
if [ "$have_nft" = 1 ]; then
	check "omit: the row's lost datagrams == the case run alone with -O (nft drops 1 in 50)" \
		bracket "lost" "$(awk -F, 'NR == 2 { print $15 }' "$work/omit.csv")" \
		"$(single_omit .end.sum.lost_packets 1)" "$(single_omit .end.sum.lost_packets 2)" 0.2 3
else
	skip "omit: the row's lost datagrams == the case run alone with -O (nft drops 1 in 50)" "nft unavailable"
fi
# 10 %: a paced second on a loaded host catches up in bursts (a row once read 20.84M between
# two 19.58M runs); a row timed over -O + -t would read half
check "omit: the row's receiver bit/s == the case run alone with -O" \
	bracket "receiver bit/s" "$(awk -F, 'NR == 2 { print $12 }' "$work/omit.csv")" \
	"$(single_omit .end.sum_received.bits_per_second 1)" "$(single_omit .end.sum_received.bits_per_second 2)" 0.1 0

# --- a row equals the same case run alone: UDP paced at 20M, the matrix's row between two single
# runs (before and after it, so a load that drifts is inside the bracket); allowed: their
# difference (the run-to-run noise beside it), at least 3 % -----------------------------------------
alone() {
	ip netns exec "$A" timeout 30 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 -u -b 20M -t 1 -J \
		>"$work/alone$1.json" 2>/dev/null
}
alone 1
ip netns exec "$A" timeout 30 "$LR_BIN" --headless -c "$ADDR_B" -p 5297 -u --matrix "b=20M" -t 1 -i 0.2 \
	--matrix-csv "$work/alone.csv" >"$work/alone.md" 2>/dev/null
alone 2
single() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"])' "$1" 2>/dev/null; }
a1=$(single "$work/alone1.json"); a2=$(single "$work/alone2.json")
row=$(awk -F, 'NR == 2 { print $12 }' "$work/alone.csv")
echo "    receiver bit/s: alone ${a1:-?}, matrix row ${row:-?}, alone ${a2:-?}"
check "alone: a row equals the case run alone (within the noise beside it)" \
	awk -v r="${row:-0}" -v a="${a1:-0}" -v b="${a2:-0}" 'BEGIN {
		lo = a < b ? a : b; hi = a < b ? b : a; tol = hi - lo
		if (tol < 0.03 * hi) tol = 0.03 * hi
		exit !(r > 0 && a > 0 && b > 0 && r >= lo - tol && r <= hi + tol) }'

# --- the Markdown tables on stdout: each of the runs above, against its own CSV ------------------
for r in int:sigint omit:omit alone:alone; do
	check "markdown: ${r#*:}'s table == its CSV (rows, receiver Mbit/s, verdict)" \
		python3 "$witness" verdicts "$work/${r%%:*}.csv" "$work/${r%%:*}.md"
done

# --- against Debian's iperf3 -s: the 2x2x2 grid, busy retried, peer columns empty ----------------
ip3_spec="P=1,2;u=tcp,udp;b=10M,20M"
ip3_cases="1/1/tcp/10000000 2/1/tcp/20000000 3/1/udp/10000000 4/1/udp/20000000 5/2/tcp/10000000 6/2/tcp/20000000 7/2/udp/10000000 8/2/udp/20000000"
if ! command -v iperf3 >/dev/null; then
	for c in "exits 0 (busy retried)" "the busy server was retried" "8 rows in SPEC order" \
		"peer columns empty" "-J receiver_bps and verdict == CSV, each row" \
		"each case after the first started on a quiet link (kernel counters, read from outside)" \
		"stream rows' target_bps, case by case == the matrix CSV's bitrate_target" \
		"stream rows' target_bps, case by case == what iperf3 -s was told (target_bitrate)"; do
		skip "iperf3: $c" "iperf3 not installed (scripts/deps.sh)"
	done
	for i in 1 2 3 4 5 6 7 8; do
		skip "iperf3: case $i receiver bytes == iperf3's own count" "iperf3 not installed (scripts/deps.sh)"
	done
else
	ip netns exec "$B" timeout 120 iperf3 -s -p 5298 -J >"$work/iperf3.json" 2>&1 &
	ip3=$!; lr_cleanup_add "kill $ip3 2>/dev/null; wait $ip3 2>/dev/null"
	wait_listen 5298
	# keep the server busy for the matrix's first attempt: one test at a time, as iperf3
	ip netns exec "$A" timeout 20 iperf3 -c "$ADDR_B" -p 5298 -u -b 1M -t 1 >/dev/null 2>&1 &
	busy=$!
	for _ in $(seq 100); do	# its control connection is up: the server is taken
		ip netns exec "$B" ss -Htn state established "sport = :5298" | grep -q . && break
		sleep 0.02
	done
	ip netns exec "$A" timeout 90 "$LR_BIN" --headless -c "$ADDR_B" -p 5298 --matrix "$ip3_spec" -t 1 -i 0.2 \
		-J --matrix-csv "$work/ip3.csv" --streams-csv "$work/ip3_streams.csv" >"$work/ip3.json" \
		2>"$work/ip3.err"
	rc=$?
	wait "$busy"
	check "iperf3: exits 0 (busy retried)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/ip3.err"
	check "iperf3: the busy server was retried" grep -q "busy; again in" "$work/ip3.err"
	cases=$(awk -F, 'NR > 1 { printf "%s%s/%s/%s/%s", sep, $1, $3, $2, $6; sep = " " }' "$work/ip3.csv")
	check "iperf3: 8 rows in SPEC order" test "$cases" = "$ip3_cases"
	check "iperf3: peer columns empty" \
		awk -F, 'NR > 1 && ($21 $22 $23 $25 $28 $29) != "" { bad = 1 } END { exit bad }' "$work/ip3.csv"
	check "iperf3: -J receiver_bps and verdict == CSV, each row" python3 "$witness" verdicts "$work/ip3.csv" "$work/ip3.json"
	kill "$ip3" 2>/dev/null; wait "$ip3" 2>/dev/null
	# iperf3 -s -J: one JSON object per test that ran (the busy client's first, then the
	# matrix's 8; a refused attempt writes none); its receiver's bytes
	python3 - "$work/iperf3.json" "$work/ip3_told" >"$work/ip3_bytes" <<'PY' || true
import json, sys
text, dec, pos, out, told = open(sys.argv[1]).read(), json.JSONDecoder(), 0, [], []
while True:
    while pos < len(text) and text[pos] not in '{':
        pos += 1
    if pos >= len(text):
        break
    o, pos = dec.raw_decode(text, pos)
    e = o.get("end", {})
    s = e.get("sum_received") or e.get("sum")
    if s:
        out.append(int(s["bytes"]))
        told.append(str(o.get("start", {}).get("test_start", {}).get("target_bitrate")))
print("    iperf3 -s reported %d tests" % len(out), file=sys.stderr)
for b in out[-8:] if len(out) == 9 else []:
    print(b)
open(sys.argv[2], "w").write(" ".join(told[-8:] if len(told) == 9 else []))
PY
	awk -F, 'NR > 1 { printf "%.0f\n", $12 * $10 / 8 }' "$work/ip3.csv" >"$work/ip3_rows"
	for i in 1 2 3 4 5 6 7 8; do
		s=$(sed -n "${i}p" "$work/ip3_bytes"); r=$(sed -n "${i}p" "$work/ip3_rows")
		[ -n "$s" ] && [ -n "$r" ] && echo "    case $i: iperf3 $s, row $r"
		check "iperf3: case $i receiver bytes == iperf3's own count" \
			awk -v s="${s:-0}" -v r="${r:--1}" 'BEGIN { d = s - r; if (d < 0) d = -d; exit !(s > 0 && d <= s * 0.0001 + 2) }'
	done
	check "iperf3: each case after the first started on a quiet link (kernel counters, read from outside)" \
		python3 "$witness" settle "$work/link.samples" "$work/ip3.json" 0.2
	# the cases' targets alternate (b=10M,20M fastest), so each case is one run of equal
	# targets in the stream rows, in case order
	runs=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "target_bps") c = i; next }
		{ t = c ? $c : "nocolumn"; if (t == "") t = "empty"; if (NR == 2 || t != last) printf "%s%s", sep, t; sep = " "; last = t }' \
		"$work/ip3_streams.csv")
	bt=$(awk -F, 'NR > 1 { printf "%s%s", sep, $6; sep = " " }' "$work/ip3.csv")
	echo "    stream rows' targets, run by run: $runs"
	echo "    matrix CSV bitrate_target: $bt; iperf3 -s told: $(cat "$work/ip3_told")"
	check "iperf3: stream rows' target_bps, case by case == the matrix CSV's bitrate_target" \
		test "$runs" = "$bt"
	check "iperf3: stream rows' target_bps, case by case == what iperf3 -s was told (target_bitrate)" \
		test "$runs" = "$(cat "$work/ip3_told")"
fi
lr_summary
