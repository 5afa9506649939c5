#!/usr/bin/env bash
# Latency under load (issue 34, docs/design.md §16) between two network namespaces, each figure
# held against a witness the probes do not compute:
#  tbf:     a tbf root on the sender's veth with a deep queue (rate 20mbit burst 32kb limit 2mb)
#           and UDP at 40 Mbit/s (-w 3M: a socket buffer deeper than the queue) fills it (tc -s qdisc's backlog, polled during the
#           test), so a probe behind it waits that backlog's drain time at 20 Mbit/s (~0.8 s);
#           p99 under load is at least half of what tc's backlog says, the idle baseline far
#           below it, and the verdict says latency rose and names that qdisc. The server's own
#           count of the probes it answered equals the client's answered.
#  nft:     the server's namespace drops 1 in 4 small UDP datagrams (the probes; the load is
#           TCP): the probes never answered equal nft's counter, every answered one is in the
#           histograms (idle + load counts == the server's own answered count) and in exactly
#           one interval (idle + the intervals' answered == the same count), and the lost
#           ones are said as lost, never as a latency.
#  iperf3:  against a plain iperf3 3.12 -s, no probes: -J's state is "unoffered", the figures
#           are null (never 0), and the verdict says the peer is a plain iperf3.
source "$(dirname "$0")/../lib.sh"
lr_plan "tbf: client exits 0" "tbf: tc saw the queue fill (backlog >= 1 MB)" \
	"tbf: p99 under load >= half the drain time of tc's backlog at 20 Mbit/s" \
	"tbf: idle p99 < a tenth of that drain time" \
	"tbf: verdict: latency rose, names the tbf on the sender's veth" \
	"tbf: answered == the server's own count" \
	"nft: client exits 0" "nft: probes lost + unanswered at the end == nft counter (> 0)" \
	"nft: idle + load round trips == the server's answered count" \
	"nft: idle + each interval's answered == the server's answered count" \
	"nft: verdict says the probes lost" \
	"iperf3 3.12: client exits 0" "iperf3 3.12: state unoffered, figures null" \
	"iperf3 3.12: verdict says the peer is a plain iperf3"
need_root "latency_probes"
for t in tc nft iperf3 python3; do
	command -v "$t" >/dev/null || { lr_skip_plan latency_probes "$t not installed (scripts/deps.sh)"; exit 0; }
done

u=$(lr_uniq)
A=${u}a B=${u}b IA=${u}x IB=${u}y
ADDR_A=10.214.0.1 ADDR_B=10.214.0.2
work=$(mktemp -d); [ -n "${LR_KEEP:-}" ] || lr_cleanup_add "rm -rf $work"; echo "work dir $work"
lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
lr_quiet_link "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B"
inA() { ip netns exec "$A" "$@"; }
inB() { ip netns exec "$B" "$@"; }
lr_bg ip netns exec "$B" "$LR_BIN" -s -p 5301 2>"$work/srv.err" >/dev/null
lr_wait_listen 5301 "$B" || fail "server" "linerate -s did not listen"
served() {	# the server's own count of probes answered in its Nth test (its log line)
	sed -n 's/.*: \([0-9]*\) latency probes answered.*/\1/p' "$work/srv.err" | sed -n "$1p"
}
wait_served() {	# N: until the server has logged its Nth test's count (3 s at most)
	local i
	for ((i = 0; i < 30; i++)); do [ -n "$(served "$1")" ] && return; sleep 0.1; done
}
jq_py() {	# FILE EXPR: EXPR over the -J document j (python), printed
	python3 -c "import json,sys; j=json.load(open(sys.argv[1])); l=j.get('linerate_latency') or {}
v=j.get('linerate_verdict') or {}; print($2)" "$1" 2>/dev/null
}

# --- tbf: a deep queue on the sender's egress
inA tc qdisc add dev "$IA" root handle 1: tbf rate 20mbit burst 32kb limit 2mb
inA "$LR_BIN" -c "$ADDR_B" -p 5301 -u -b 40M -l 1400 --no-gso -w 3M -t 2 -J >"$work/tbf.json" 2>"$work/tbf.err" &
cpid=$!
bl=0	# tc's backlog, polled while the test runs: the witness of the queue's depth
while kill -0 "$cpid" 2>/dev/null; do
	b=$(inA tc -s qdisc show dev "$IA" | sed -n 's/^ *backlog \([0-9]*\)b.*/\1/p' | head -1)
	[ "${b:-0}" -gt "$bl" ] && bl=$b
	sleep 0.05
done
wait "$cpid"; rc=$?
check "tbf: client exits 0" test "$rc" -eq 0
check "tbf: tc saw the queue fill (backlog >= 1 MB)" test "$bl" -ge 1000000
drain_us=$((bl * 8 / 20))	# bytes * 8 / 20 Mbit/s, in us
p99=$(jq_py "$work/tbf.json" "int(l['load']['p99_us'])") idle=$(jq_py "$work/tbf.json" "int(l['idle']['p99_us'])")
echo "# tc backlog peak $bl bytes: drain $drain_us us; p99 under load ${p99:-?} us, idle ${idle:-?} us"
check "tbf: p99 under load >= half the drain time of tc's backlog at 20 Mbit/s" \
	test "${p99:-0}" -ge $((drain_us / 2)) -a "${p99:-0}" -le 2000000
check "tbf: idle p99 < a tenth of that drain time" test -n "$idle" -a "${idle:-0}" -lt $((drain_us / 10))
vl=$(jq_py "$work/tbf.json" "v.get('latency')"); echo "# verdict: $vl"
check "tbf: verdict: latency rose, names the tbf on the sender's veth" \
	grep -q "latency under load rose from .* at p99: the sender's qdisc backlog (tbf 1: on $IA)" <<<"$vl"
ans=$(jq_py "$work/tbf.json" "l['probes']['answered']")
wait_served 1
echo "# answered: client ${ans:-?}, server $(served 1)"
check "tbf: answered == the server's own count" test -n "$ans" -a "${ans:-x}" = "$(served 1)"
inA tc qdisc del dev "$IA" root

# --- nft: the server's namespace drops 1 in 4 probes (small UDP; the load is TCP)
inB nft -f - <<-EOF2
table inet ${u}lat {
	chain in {
		type filter hook input priority 0; policy accept;
		udp length < 200 numgen inc mod 4 == 1 counter drop
	}
}
EOF2
lr_cleanup_add "ip netns exec $B nft delete table inet ${u}lat 2>/dev/null"
inA "$LR_BIN" -c "$ADDR_B" -p 5301 -b 50M -t 2 -J >"$work/nft.json" 2>"$work/nft.err"
check "nft: client exits 0" test $? -eq 0
dropped=$(inB nft list table inet "${u}lat" | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
unans=$(jq_py "$work/nft.json" "l['probes']['lost'] + l['probes']['unanswered_at_end']")
lost=$(jq_py "$work/nft.json" "l['probes']['lost']")
echo "# nft dropped ${dropped:-?}; unanswered ${unans:-?} (lost ${lost:-?}, the rest within the 2 s time-out at the end)"
check "nft: probes lost + unanswered at the end == nft counter (> 0)" test "${dropped:-0}" -gt 0 -a "${unans:-x}" = "${dropped:-y}"
wait_served 2
rtts=$(jq_py "$work/nft.json" "l['idle']['count'] + l['load']['count']")
echo "# round trips kept ${rtts:-?}, server answered $(served 2)"
check "nft: idle + load round trips == the server's answered count" test -n "$rtts" -a "${rtts:-x}" = "$(served 2)"
ivs=$(jq_py "$work/nft.json" "l['idle']['count'] + sum(i['answered'] for i in l['intervals'])")
echo "# idle + the intervals' answered ${ivs:-?} ($(jq_py "$work/nft.json" "len(l['intervals'])") intervals)"
check "nft: idle + each interval's answered == the server's answered count" \
	test -n "$ivs" -a "${ivs:-x}" = "$(served 2)"
vl=$(jq_py "$work/nft.json" "v.get('latency')"); echo "# verdict: $vl"
check "nft: verdict says the probes lost" grep -q "; ${lost:-x} of [0-9]* probes lost" <<<"$vl"
inB nft delete table inet "${u}lat"

# --- a plain iperf3 3.12 server: no probes
lr_bg ip netns exec "$B" iperf3 -s -p 5302 >/dev/null 2>&1
lr_wait_listen 5302 "$B" || fail "iperf3 3.12 server" "did not listen"
inA "$LR_BIN" -c "$ADDR_B" -p 5302 -t 1 -J >"$work/ip3.json" 2>"$work/ip3.err"
check "iperf3 3.12: client exits 0" test $? -eq 0
check "iperf3 3.12: state unoffered, figures null" test "$(jq_py "$work/ip3.json" \
	"(l['state'], l['idle']['p99_us'], l['load']['p99_us'], l['probes']['sent'], len(l['intervals']))")" \
	= "('unoffered', None, None, None, 0)"
check "iperf3 3.12: verdict says the peer is a plain iperf3" \
	grep -q "plain iperf3" <<<"$(jq_py "$work/ip3.json" "v.get('latency')")"
lr_summary
