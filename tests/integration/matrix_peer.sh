#!/usr/bin/env bash
# The matrix's peer columns (docs/design.md §10, issue 13) through a veth between two network
# namespaces. Against `linerate -s` (which shares its samples) every row's peer columns are
# filled, and they equal what the peer's kernel saw, read independently in its namespace around
# each case: drops forced on the peer's veth mid-case (Ethernet frames of a type no protocol
# takes: the kernel counts each in rx_dropped) == the /proc/net/dev delta of that case, FIFO ==
# its delta, peer CPU busy % within slack of /proc/stat over the case, the hottest softirq CPU a
# real CPU. Against `linerate -s --no-peer-stats` the peer columns are empty (unknown, never 0).
# The one-line verdict of each row against the same witnesses: an nft rule in the receiver's
# namespace drops some of case 1's datagrams (its counter is the witness), the verdict quotes that
# loss, this host's forced stack drops and the receiver's with the kernels' numbers; a paced case
# that the kernels saw clean (no drop, FIFO, UDP socket error or retransmits that matter, read
# case by case by a sampler outside linerate) says the test reached its own -b when its
# receiver's veth carried 95 % of it, and never says so under 85 %. Pacing: each case of a
# 2x2x2 grid puts -b x streams x -t within 5 % on the receiver's veth (its kernel's bytes, less
# headers) and by the receiver's own count, on a loaded host too: the pacer repays the time it
# lost waiting for a CPU. No check here skips on a figure linerate measured. Timings are never
# asserted.
source "$(dirname "$0")/../lib.sh"
lr_plan "peer: grid exits 0" "peer: 2 rows" "peer: every row's peer columns filled" \
	"peer: the grid's --csv has the peer's rows (side=peer, its host name), as a plain -c's" \
	"peer: the --csv peer rows' drops on its veth sum to its kernel's delta over the grid"
for i in 1 2; do
	lr_plan "peer: case $i peer_drops == peer kernel rx+tx drop delta" \
		"peer: case $i peer_fifo == peer kernel fifo delta" \
		"peer: case $i peer CPU busy % within 20 points of /proc/stat over the case" \
		"peer: case $i peer softirq CPU is one of the host's CPUs"
done
lr_plan "peer: the forced drops were counted by the peer kernel" \
	"local: the forced drops were counted by the local kernel" \
	"local: case 1 local_drops == local kernel rx+tx drop delta" \
	"local: case 1 local_fifo == local kernel fifo delta" \
	"local: case 1 local CPU busy % within 20 points of /proc/stat over the case" \
	"no-peer-stats: grid exits 0" "no-peer-stats: peer columns empty, local ones filled"
lr_plan "verdict: case 1's lost datagrams == what nft dropped at the receiver" \
	"verdict: case 1 names the receiver's UDP loss with the row's (nft-checked) count" \
	"verdict: case 1 names this host's stack drops with the kernel's count" \
	"verdict: case 1 names the receiver's forced drops with its kernel's count" \
	"verdict: case 2, clean by the kernels, says it reached its own -b as the receiver's veth shows"
lr_plan "grid 2x2x2: exits 0" "grid 2x2x2: 8 rows in SPEC order" \
	"grid 2x2x2: every paced case within 5 % of its target (receiver veth and count)" \
	"grid 2x2x2: the Markdown table reads back into the CSV's numbers and verdicts" \
	"grid 2x2x2: every row clean by the kernels says it reached its own -b as the receiver's veth shows" \
	"grid 2x2x2: peer columns filled in every row" \
	"sighup: exit 1" "sighup: finished rows only, each whole" "sighup: Markdown has the same rows"
need_root "matrix_peer"
command -v python3 >/dev/null || { lr_skip_plan matrix_peer "python3 not installed"; exit 0; }

u=$(lr_uniq)
A=${u}A B=${u}B IA=${u}a IB=${u}b
ADDR_A=10.204.0.1 ADDR_B=10.204.0.2
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"
lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
for ns in "$A" "$B"; do	# a silent link: no IPv6 autoconf/MLD, no ARP
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
mac_b=$(ip -n "$B" -o link show "$IB" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
mac_a=$(ip -n "$A" -o link show "$IA" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$A" neigh replace "$ADDR_B" lladdr "$mac_b" dev "$IA" nud permanent
ip -n "$B" neigh replace "$ADDR_A" lladdr "$mac_a" dev "$IB" nud permanent
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)

# The peer veth's /proc/net/dev (in its namespace): "drops fifo", rx and tx summed
# (rx drop is rx_dropped + rx_missed_errors, fifo rx_fifo_errors; tx drop, tx fifo).
dev_of() {	# NS IF
	ip netns exec "$1" cat /proc/net/dev | awk -v i="$2:" '$1 == i {
		print $5 + $13, $6 + $14 }'
}
peer_dev() { dev_of "$B" "$IB"; }
local_dev() { dev_of "$A" "$IA"; }
# The receiver's UDP InErrors (socket buffers full, bad checksums): its own drops of datagrams
# that nft let through
peer_udp_errors() { ip netns exec "$B" awk '/^Udp:/ { n++; if (n == 2) print $4 }' /proc/net/snmp; }
# /proc/stat's cpu line: "busy total" in ticks (idle and iowait are not busy)
cpu_stat() { awk '$1 == "cpu" { t = 0; for (k = 2; k <= NF; k++) t += $k; print t - $5 - $6, t }' /proc/stat; }

# Frames of an EtherType no protocol takes: the receiving kernel drops each (rx_dropped). The
# sender starts ahead (python starts slowly on a loaded host) and sends its burst when $work/go
# appears.
injector() {	# N NS IF DST SRC
	ip netns exec "$2" python3 - "$3" "$4" "$5" "$1" "$work/go" <<'PY' &
import os, socket, sys, time
ifname, dst, src, n, go = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
frame = bytes.fromhex(dst.replace(":", "")) + bytes.fromhex(src.replace(":", "")) + b"\x88\xb5" + bytes(46)
open(go + ".up." + ifname, "w").close()	# ready
for _ in range(6000):
	if os.path.exists(go):
		break
	time.sleep(0.01)
else:
	sys.exit(1)
for _ in range(n):	# a burst: well inside the backlog (netdev_max_backlog, 1000)
	s.send(frame)
PY
	LR_PID=$!; lr_cleanup_add "kill $LR_PID 2>/dev/null"
}

wait_listen() { lr_wait_listen 5299 "$B"; }	# the server in $B listens on 5299
ip netns exec "$B" timeout 120 "$LR_BIN" -s -p 5299 >"$work/server.log" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
wait_listen

# The kernels' counters case by case, read by a sampler outside linerate in $A (its own
# /proc/net) and through the server's process in $B (/proc/PID/net): matrix_witness.py kernel.
witness="$LR_TOP/tests/integration/matrix_witness.py"
ksample() {	# OUT CSV ROWS: started before the grid, it stops once the CSV has ROWS rows
	ip netns exec "$A" python3 "$witness" kernel "$1" 150 "$2" "$3" "$srv" "$IA" "$IB" 2>"$1.err" &
	ks=$!; lr_cleanup_add "kill $ks 2>/dev/null"
	lr_wait_lines "$1" 1 100 || { echo "    the kernel sampler did not start: $(head -c 300 "$1.err")"; }
}
kstop() {	# the grid ended: its sampler stops by itself on its last row (else now)
	local i
	for ((i = 0; i < 40; i++)); do kill -0 "$ks" 2>/dev/null || break; sleep 0.05; done
	kill "$ks" 2>/dev/null; wait "$ks" 2>/dev/null
}

# case 1's datagrams (UDP -l 1400 to the server's port), 1 in 50 of the packets dropped at the
# receiver by nft in its namespace; its counter is the witness of the loss. A veth carries a
# UDP GSO super-packet whole: datagrams = (bytes - 28 per packet) / 1400.
have_nft=0
lr_nft_udp_drop "$B" lrmatrix 5299 50 && have_nft=1
nft_dgrams() {
	ip netns exec "$B" nft list chain inet lrmatrix in |
		sed -n 's/.*counter packets \([0-9]*\) bytes \([0-9]*\).*/\1 \2/p' |
		awk '{p += $1; b += $2} END {printf "%d\n", (b - 28 * p) / 1400 + 0.5}'
}

# --- against linerate -s: 2 cases of 3 s; 150 drops forced early in case 1 ---------------------
injector 150 "$A" "$IA" "$mac_b" "$mac_a"; inj_b=$LR_PID	# onto the peer's veth
injector 90 "$B" "$IB" "$mac_a" "$mac_b"; inj_a=$LR_PID	# and onto ours: the local columns
for _ in $(seq 300); do [ -e "$work/go.up.$IA" ] && [ -e "$work/go.up.$IB" ] && break; sleep 0.02; done
ksample "$work/grid.ks" "$work/grid.csv" 2
read -r d0 f0 <<<"$(peer_dev)"; read -r b0 t0 <<<"$(cpu_stat)"; read -r ld0 lf0 <<<"$(local_dev)"; ue0=$(peer_udp_errors)
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5299 --matrix "u=udp,tcp" -b 50M -l 1400 -t 3 \
	-i 0.2 --matrix-csv "$work/grid.csv" --csv "$work/grid.ifaces.csv" >"$work/grid.md" 2>"$work/grid.err" &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
t_launch=$(date +%s.%N)
# the drops go in once case 1's data is seen flowing on the peer's veth (its window has
# opened; it lasts 3 s)
rxb0=$(ip netns exec "$B" cat "/sys/class/net/$IB/statistics/rx_bytes")
for _ in $(seq 200); do
	[ "$(ip netns exec "$B" cat "/sys/class/net/$IB/statistics/rx_bytes")" -gt $((rxb0 + 2000000)) ] && break
	sleep 0.02
done
t_inj=$(date +%s.%N)
touch "$work/go"
wait "$inj_b" "$inj_a"
echo "    drops injected $(awk -v a="$t_launch" -v b="$t_inj" 'BEGIN { printf "%.2f", b - a }') s to $(awk -v a="$t_launch" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s after the client started"
# the first row is written when case 1 ended; case 2 starts after the link settled
for _ in $(seq 100); do
	[ "$(wc -l <"$work/grid.csv" 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.05
done
read -r d1 f1 <<<"$(peer_dev)"; read -r b1 t1 <<<"$(cpu_stat)"; read -r ld1 lf1 <<<"$(local_dev)"; ue1=$(peer_udp_errors)
wait "$cli"; rc=$?
read -r d2 f2 <<<"$(peer_dev)"; read -r b2 t2 <<<"$(cpu_stat)"; read -r ld2 lf2 <<<"$(local_dev)"
kstop
nft_lost=-1
if [ "$have_nft" = 1 ]; then
	nft_lost=$(nft_dgrams)
	ip netns exec "$B" nft delete table inet lrmatrix
fi
check "peer: grid exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/grid.err"
check "peer: 2 rows" test "$(($(wc -l <"$work/grid.csv") - 1))" -eq 2
# columns: 18 local busy, 20 local softirq cpu, 21 peer busy, 22 peer softirq max, 23 peer
# softirq cpu, 25 peer service demand, 28 peer drops, 29 peer fifo
awk -F, 'NR > 1 { printf "    case %s: local busy %s%%, peer busy %s%%, peer softirq %s%% on CPU %s, peer us/KB %s, peer drops %s, fifo %s\n", $1, $18, $21, $22, $23, $25, $28, $29 }' "$work/grid.csv"
check "peer: every row's peer columns filled" \
	awk -F, 'NR > 1 { n++; if ($21 == "" || $22 == "" || $23 == "" || $25 == "" || $28 == "" || $29 == "") bad = 1 }
		END { exit bad || n != 2 }' "$work/grid.csv"
check "peer: the forced drops were counted by the peer kernel" test "$((d1 - d0))" -ge 150
# the peer's rows of --csv (docs/csv.md §1 "Both ends"): its veth's drop columns, summed over
# the grid, against its kernel's /proc/net/dev delta (every forced drop fell inside case 1,
# while the peer view was up)
peer_csv() {	# the peer rows of IB: "rows host drops"
	awk -F, -v i="$IB" 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		$c["side"] == "peer" && $c["iface"] == i { n++; h = $c["host"]
			d += $c["rx_dropped"] + $c["tx_dropped"] + $c["rx_missed"] }
		END { printf "%d %s %d\n", n, h, d }' "$work/grid.ifaces.csv"
}
read -r pn ph pd <<<"$(peer_csv)"
echo "    --csv: $pn peer rows of $IB (host '$ph'), drops $pd; its kernel: $((d2 - d0))"
check "peer: the grid's --csv has the peer's rows (side=peer, its host name), as a plain -c's" \
	test "$pn" -ge 10 -a "$ph" = "$(ip netns exec "$B" uname -n)"
check "peer: the --csv peer rows' drops on its veth sum to its kernel's delta over the grid" \
	test "$pd" -eq "$((d2 - d0))"
echo "    peer kernel: case 1 drops $((d1 - d0)) fifo $((f1 - f0)), case 2 drops $((d2 - d1)) fifo $((f2 - f1))"
kd=("$((d1 - d0))" "$((d2 - d1))"); kf=("$((f1 - f0))" "$((f2 - f1))")
kb=("$(awk -v b="$((b1 - b0))" -v t="$((t1 - t0))" 'BEGIN { printf "%.2f", t ? 100 * b / t : -1 }')"
	"$(awk -v b="$((b2 - b1))" -v t="$((t2 - t1))" 'BEGIN { printf "%.2f", t ? 100 * b / t : -1 }')")
for i in 1 2; do
	row=$(awk -F, -v n=$((i + 1)) 'NR == n' "$work/grid.csv")
	col() { echo "$row" | cut -d, -f"$1"; }
	echo "    case $i: /proc/stat busy over the case ${kb[i - 1]}%"
	check "peer: case $i peer_drops == peer kernel rx+tx drop delta" test "$(col 28)" = "${kd[i - 1]}"
	check "peer: case $i peer_fifo == peer kernel fifo delta" test "$(col 29)" = "${kf[i - 1]}"
	check "peer: case $i peer CPU busy % within 20 points of /proc/stat over the case" \
		awk -v p="$(col 21)" -v k="${kb[i - 1]}" 'BEGIN { d = p - k; if (d < 0) d = -d
			exit !(p != "" && p >= 0 && p <= 100 && k >= 0 && d <= 20) }'
	check "peer: case $i peer softirq CPU is one of the host's CPUs" \
		awk -v c="$(col 23)" -v n="$ncpu" 'BEGIN { exit !(c != "" && c >= 0 && c < n) }'
done

echo "    local kernel: case 1 drops $((ld1 - ld0)) fifo $((lf1 - lf0))"
row=$(awk -F, 'NR == 2' "$work/grid.csv")
check "local: the forced drops were counted by the local kernel" test "$((ld1 - ld0))" -ge 90
check "local: case 1 local_drops == local kernel rx+tx drop delta" test "$(echo "$row" | cut -d, -f26)" = "$((ld1 - ld0))"
check "local: case 1 local_fifo == local kernel fifo delta" test "$(echo "$row" | cut -d, -f27)" = "$((lf1 - lf0))"
check "local: case 1 local CPU busy % within 20 points of /proc/stat over the case" \
	awk -v p="$(echo "$row" | cut -d, -f18)" -v k="${kb[0]}" 'BEGIN { d = p - k; if (d < 0) d = -d
		exit !(p != "" && p >= 0 && p <= 100 && d <= 20) }'

# --- the verdicts of that grid, against the witnesses: nft's count of the datagrams it dropped at
# the receiver (case 1), the local kernel's count of the frames dropped here, a clean case 2 ------
vcol() { python3 -c 'import csv, sys; print(list(csv.DictReader(open(sys.argv[1])))[int(sys.argv[2]) - 1][sys.argv[3]])' \
	"$work/grid.csv" "$@" 2>/dev/null; }
# judge_clean NAME SAMPLES CSV [CASE...]: matrix_witness.py clean over the rows (all when
# none): those the kernels saw clean say the test reached its own -b when the receiver's veth
# carried it, never when it carried far less. Which rows are clean, and what reached the wire,
# is the kernels' word, never the rows' own; none clean: a skip with the kernels' reasons.
judge_clean() {
	local name=$1 samples=$2 csv=$3 out rc; shift 3
	out=$(python3 "$witness" clean "$samples" "$csv" 3 "$@"); rc=$?
	[ -n "$out" ] && echo "$out"
	case $rc in
	0) pass "$name" ;;
	3) skip "$name" "the kernels saw no case clean: $(sed 's/^ *//' <<<"$out" | paste -sd ';' -)" ;;
	*) fail "$name" "a verdict of a case the kernels saw clean disagrees with them" ;;
	esac
}
v1=$(vcol 1 verdict); lost1=$(vcol 1 lost)
echo "    case 1: nft dropped $nft_lost datagrams at the receiver, the row lost $lost1; verdict: $v1"
echo "    case 2: verdict: $(vcol 2 verdict)"
if [ "$have_nft" = 1 ]; then
	echo "    the receiver's UDP InErrors over case 1: $((ue1 - ue0))"
	if [ "$((ue1 - ue0))" -ne 0 ]; then	# a saturated receiver dropped at its sockets too
		skip "verdict: case 1's lost datagrams == what nft dropped at the receiver" \
			"the receiver's sockets dropped too (UDP InErrors +$((ue1 - ue0))): lost $lost1 >= nft's $nft_lost, equality not judged"
	else
		# a dropped last datagram has no successor to show its gap: the receiver may count one less
		check "verdict: case 1's lost datagrams == what nft dropped at the receiver" \
			awk -v l="${lost1:--9}" -v n="$nft_lost" 'BEGIN { exit !(n > 0 && (l == n || l == n - 1)) }'
	fi
	# the witness first, by the receiver's count; then the ledger's next step: no counter on
	# either end saw an nft drop, so the firewall (never "read the receiver's counters")
	names_udp_loss() {
		[[ "$v1" == "loss: UDP $lost1 of "*" datagrams ("*"%, the receiver's count)"* &&
			"$v1" == *"; check the firewall on both ends (nft list ruleset)"* &&
			"$v1" != *"read the receiver's counters"* ]]
	}
	check "verdict: case 1 names the receiver's UDP loss (nft-checked) and the firewall" names_udp_loss
else
	skip "verdict: case 1's lost datagrams == what nft dropped at the receiver" "nft (nftables) not installed"
	skip "verdict: case 1 names the receiver's UDP loss with the row's (nft-checked) count" "nft (nftables) not installed"
fi
names_stack_drops() { [[ "$v1" == "loss: "*"stack $((ld1 - ld0)) ($IA rx/tx_dropped)"* ]]; }
check "verdict: case 1 names this host's stack drops with the kernel's count" names_stack_drops
names_peer_drops() { [[ "$v1" == "loss: "*"the receiver's test interfaces: ${kd[0]} dropped (its kernel's count)"* ]]; }
check "verdict: case 1 names the receiver's forced drops with its kernel's count" names_peer_drops
echo "    local kernel: case 2 drops $((ld2 - ld1)) fifo $((lf2 - lf1))"
if [ "$((ld2 - ld1 + lf2 - lf1))" -ne 0 ]; then
	fail "verdict: case 2, clean by the kernels, says it reached its own -b as the receiver's veth shows" "the local kernel dropped in case 2"
else
	judge_clean "verdict: case 2, clean by the kernels, says it reached its own -b as the receiver's veth shows" "$work/grid.ks" "$work/grid.csv" 2
fi

# --- a 2x2x2 grid of paced cases: every row, each within 5 % of its target, the Markdown table
# reads back into the CSV's numbers, the peer's columns in every row ---------------------------
ksample "$work/g8.ks" "$work/g8.csv" 8
ip netns exec "$A" timeout 120 "$LR_BIN" --headless -c "$ADDR_B" -p 5299 --matrix "P=1,2;u=udp,tcp;b=10M,20M" \
	-t 3 -i 0.2 --matrix-csv "$work/g8.csv" >"$work/g8.md" 2>"$work/g8.err"
rc=$?
kstop
check "grid 2x2x2: exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/g8.err"
cases=$(awk -F, 'NR > 1 { printf "%s%s/%s/%s/%s", sep, $1, $3, $2, $6; sep = " " }' "$work/g8.csv")
check "grid 2x2x2: 8 rows in SPEC order" test "$cases" = "1/1/udp/10000000 2/1/udp/20000000 3/1/tcp/10000000 4/1/tcp/20000000 5/2/udp/10000000 6/2/udp/20000000 7/2/tcp/10000000 8/2/tcp/20000000"
# (-t 3: TCP's first second runs ahead of -b while the socket buffer fills, by ~4 %, and the
# server's receiver seconds start at its first byte: at -t 2 a 10M TCP case reads +5.2 %)
awk -F, 'NR > 1 { printf "    case %s: P=%s %s b=%s: sent %.3f, received %.3f Mbit/s in %s s (local CPU busy %s%%)\n", $1, $3, $2, $6, $11 / 1e6, $12 / 1e6, $10, $18 }' "$work/g8.csv"
# judged on every host, loaded or not: the pacer repays what it fell behind while its thread
# waited for a CPU (up to 1 s of debt, at a bounded catch-up pace), so the bytes of -t seconds
# are on the wire whatever the load; the witnesses are the receiver's kernel and its own count
check "grid 2x2x2: every paced case within 5 % of its target (receiver veth and count)" \
	python3 "$witness" pace "$work/g8.ks" "$work/g8.csv" 3 5
judge_clean "grid 2x2x2: every row clean by the kernels says it reached its own -b as the receiver's veth shows" "$work/g8.ks" "$work/g8.csv"
md_readback() {
	python3 "$witness" verdicts "$work/g8.csv" "$work/g8.md" && md_numbers
}
md_numbers() { python3 - "$work/g8.md" "$work/g8.csv" <<'PY'
import csv, sys
md = [l for l in open(sys.argv[1]) if l.startswith("| ")]
head = [c.strip() for c in md[0].strip().strip("|").split("|")]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(md) - 1 == len(rows) == 8, (len(md), len(rows))
# Markdown column -> (CSV column, scale, decimals)
cols = {"Streams": ("streams", 1, 0), "Sender Mbit/s": ("sender_bps", 1e6, 2),
	"Receiver Mbit/s": ("receiver_bps", 1e6, 2), "Receiver kpps": ("receiver_pps", 1e3, 2),
	"Retr": ("retransmits", 1, 0), "Lost %": ("lost_pct", 1, 4), "Jitter ms": ("jitter_ms", 1, 3),
	"CPU % local": ("local_cpu_busy_pct", 1, 2), "CPU % remote": ("peer_cpu_busy_pct", 1, 2),
	"Softirq max %": ("local_softirq_max_pct", 1, 2), "Softirq CPU": ("local_softirq_cpu", 1, 0),
	"us/KB local": ("local_service_demand_us_per_kb", 1, 3),
	"us/KB remote": ("peer_service_demand_us_per_kb", 1, 3), "Drops": ("local_drops", 1, 0),
	"FIFO": ("local_fifo", 1, 0)}
for line, r in zip(md[1:], rows):
	cells = dict(zip(head, [c.strip() for c in line.strip().strip("|").split("|")]))
	assert cells["Case"] == r["case"] and cells["Proto"] == r["proto"], (cells, r)
	for t, (c, scale, dec) in cols.items():
		# both are rounded (the CSV to its own digits): one unit of the table's last digit
		if r[c] == "":
			assert cells[t] == "-", (r["case"], t, cells[t])
		else:
			assert abs(float(cells[t]) - float(r[c]) / scale) <= 10 ** -dec + 1e-9, (r["case"], t, cells[t], r[c])
PY
}
check "grid 2x2x2: the Markdown table reads back into the CSV's numbers and verdicts" md_readback
check "grid 2x2x2: peer columns filled in every row" \
	awk -F, 'NR > 1 { n++; if ($21 == "" || $23 == "" || $28 == "" || $29 == "") bad = 1 } END { exit bad || n != 8 }' "$work/g8.csv"

# --- SIGHUP (an SSH drop) mid-grid: the finished rows written, the files closed -----------------
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5299 --matrix "P=1,2,3,4" -t 1 -i 0.2 \
	--matrix-csv "$work/hup.csv" >"$work/hup.md" 2>"$work/hup.err" &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
for _ in $(seq 100); do
	[ -f "$work/hup.csv" ] && [ "$(wc -l <"$work/hup.csv")" -ge 2 ] && break
	sleep 0.1
done
sleep 0.7
kill -HUP "$cli"
wait "$cli"; rc=$?
rows=$(($(wc -l <"$work/hup.csv") - 1))
echo "    hung up after $rows row(s)"
check "sighup: exit 1" test "$rc" -eq 1
check "sighup: finished rows only, each whole" python3 -c '
import csv, sys
data = open(sys.argv[1], newline="").read()
rows = list(csv.reader(data.splitlines()))
assert data.endswith("\n") and all(len(r) == 36 for r in rows), rows
assert 1 <= len(rows) - 1 < 4
' "$work/hup.csv"
check "sighup: Markdown has the same rows" test "$(grep -cE '^\| [0-9]+ \|' "$work/hup.md")" -eq "$rows"

# --- against linerate -s --no-peer-stats: nothing shared, the peer columns stay empty ---------
kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
ip netns exec "$B" timeout 60 "$LR_BIN" -s -p 5299 --no-peer-stats >"$work/server2.log" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
wait_listen
ip netns exec "$A" timeout 60 "$LR_BIN" --headless -c "$ADDR_B" -p 5299 --matrix "u=udp" -b 20M -t 1 \
	-i 0.2 --matrix-csv "$work/none.csv" >/dev/null 2>"$work/none.err"
check "no-peer-stats: grid exits 0" test $? -eq 0
check "no-peer-stats: peer columns empty, local ones filled" \
	awk -F, 'NR > 1 { n++; if (($21 $22 $23 $25 $28 $29) != "" || $18 == "" || $26 == "") bad = 1 }
		END { exit bad || n != 1 }' "$work/none.csv"
lr_summary
