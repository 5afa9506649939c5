#!/usr/bin/env bash
# ledger_veth: where did the packets go (docs/design.md §14). Two namespaces joined by a veth
# pair, `linerate -s` in the server's, headless `linerate -c ... -J` in the client's; each case
# makes the loss somewhere a witness other than linerate sees it, and checks the -J
# linerate_ledger against that witness and the receiver's own count:
#   tbf     a tbf root on the client's veth (`tc -s qdisc` is the witness): the sender's qdisc
#           stage within 2 % of tc's dropped delta, the conclusion naming that qdisc on that
#           interface of that host
#   tcp     the same tbf, a TCP test: the sender's qdisc stage within 2 % of tc's dropped delta,
#           the conclusion naming that qdisc (the retransmits are its drops); the receiver's
#           TCP transport stage (TcpExt drops) and ip stage known through the peer view, each
#           = its kernel's delta in the server's namespace (nstat)
#   reverse a tbf on the server's veth and -R: the sender is the peer; its qdisc stage comes
#           through the peer view, within 2 % of `tc -s qdisc` in the server's namespace
#   bidir   the tbf on the client's veth under -u --bidir: the up ledger's qdisc stage within 2 %
#           of tc's dropped delta, the down ledger's (the server's qdisc) = its tc delta, 0;
#           --ledger-csv's rows per direction likewise
#   rcvbuf  -u -b 0 -w 32K: the server's socket overflows; its kernel's RcvbufErrors (nstat in
#           the server's namespace) is the witness: the receiver's transport stage = that delta,
#           ~ the datagrams lost (within 10 %, converted from skbs), the conclusion names the
#           receiver's socket buffer and the -w that sized it
#   nft     an nftables rule at the server drops 1 in 20 of the test's datagrams (its counter is
#           the witness): every stage ~ 0, unaccounted ~ lost, a conclusion that names no counter
#   iperf3  the same nft loss against a plain iperf3 -s (its own port, its own rule): the receiver's stages are unknown (null),
#           never 0, and the conclusion says the receiver's counters are unknown
# The wire stage (the two veths face each other: one link) rides on the tbf, reverse and nft
# runs: `ip -s link` on both ends is the witness that the veth lost nothing (tx delta = rx
# delta, also for the datagrams nft dropped after the veth counted them), and the stage reads
# within its noise floor of 0, never the cause; against iperf3 it is unknown (null).
# --expect rides on three of these runs (no run of its own): the tbf run's loss<=0.1% exits 3
# with its line, whose lost count is tc's dropped delta (2 %) and whose total and percent are
# the -J end's; the nft run's loss<=10% (nft's counter: 1 in 20) exits 0; against iperf3 -s,
# cpu<100% cannot be judged (its CPUs are unknown): exit 3, never a silent pass.
source "$(dirname "$0")/../lib.sh"
need_root ledger_veth
for t in nft jq nstat; do
	command -v "$t" >/dev/null || { fail ledger_veth "$t not installed (scripts/deps.sh)"; exit 0; }
done
[ -x "$LR_BIN" ] || { fail ledger_veth "$LR_BIN not built"; exit 0; }

u=$(lr_uniq)
NC=${u}c NS=${u}s IC=${u}c0 IS=${u}s0 CA=10.213.31.1 SA=10.213.31.2
lr_netns_pair "$NC" "$NS" "$IC" "$IS" "$CA" "$SA" 1500 || { fail ledger_veth "netns"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
PORT=5301

lr_bg ip netns exec "$NS" "$LR_BIN" -s --headless -p $PORT
lr_wait_listen $PORT "$NS" || { fail ledger_veth "the server did not listen"; exit 0; }

# nstat's absolute value of one counter in a namespace
ctr() { ip netns exec "$1" nstat -az "$2" | awk -v k="$2" '$1 == k { print $2 }'; }
# an interface's packet counter (ip -s link): ipk NS IFACE rx|tx
ipk() { ip -n "$1" -s -j link show "$2" | jq ".[0].stats64.$3.packets"; }
# wire CASE FILE TX0 TX1 RX0 RX1: ip -s saw the sender's tx delta = the receiver's rx delta
# (within 2: an ARP/ND exchange at the edge), and the ledger's wire stage is there (one link),
# within its noise floor of 0 (64 packets, ledger.h); the nft case's conclusion check below
# fails when it is taken for the loss
wire() {
	local st dt=$(($4 - $3)) dr=$(($6 - $5)) n
	st=$(ledger "$2" '.stages[] | select(.stage == "wire")')
	n=$(jq -r .count <<<"$st")
	echo "$1: ip -s link: sender tx +$dt, receiver rx +$dr; ledger wire: $n ($(jq -r .counter <<<"$st"))"
	if [ "$dt" -gt 1000 ] && [ $((dt - dr)) -le 2 ] && [ $((dr - dt)) -le 2 ] &&
		[[ $n =~ ^-?[0-9]+$ ]] && [ "${n#-}" -le 64 ]; then
		pass "$1: the wire stage ~ 0 ($n, ip -s link: tx +$dt rx +$dr)"
	else
		fail "$1: the wire stage ~ 0 (ip -s link: tx +$dt rx +$dr)" "wire '$n'"
	fi
}
# a number of the -J ledger: ledger FILE JQ
ledger() { jq -r ".linerate_ledger$2" "$1"; }
# within A B PCT: both numbers and |A - B| <= PCT % of B
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { n = "^-?[0-9]+([.][0-9]+)?$";
	if (a !~ n || b !~ n) exit 1; d = a - b; if (d < 0) d = -d;
	exit !(d <= p / 100 * (b < 0 ? -b : b)) }'; }

# near_tc CASE COUNT DELTA WHOSE: the ledger's qdisc stage within 2 % of tc's dropped delta
near_tc() {
	if [ "$3" -gt 0 ] && within "$2" "$3" 2; then
		pass "$1: $4 qdisc stage ~ tc -s qdisc's dropped delta ($2 ~ $3)"
	else
		fail "$1: $4 qdisc stage ~ tc -s qdisc's dropped delta" "$2 vs +$3"
	fi
}

# --- tbf: the sender's own qdisc drops most of a UDP test
tcdrops() { ip netns exec "$NC" tc -s qdisc show dev "$IC" | awk '/dropped/ { sub(",", "", $7);
	print $7; exit }'; }
ip netns exec "$NC" tc qdisc replace dev "$IC" root handle 8001: tbf rate 100mbit burst 20k \
	limit 30k || { fail "tbf: cannot add the qdisc"; exit 0; }
d0=$(tcdrops) t0=$(ipk "$NC" "$IC" tx) r0=$(ipk "$NS" "$IS" rx)
ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $PORT -u -b 500M -l 1400 --no-gso -t 1 --headless -J \
	-i 0.25 --ledger-csv "$tmp/tbf.csv" --expect 'rate>=1k,loss<=0.1%' >"$tmp/tbf.json" 2>"$tmp/tbf.err"
rc=$?
d1=$(tcdrops) t1=$(ipk "$NC" "$IC" tx) r1=$(ipk "$NS" "$IS" rx)
st=$(ledger "$tmp/tbf.json" '.stages[] | select(.stage == "qdisc")')
qcount=$(jq -r .count <<<"$st") lost=$(ledger "$tmp/tbf.json" .lost)
c=$(ledger "$tmp/tbf.json" .conclusion)
echo "tbf: tc dropped +$((d1 - d0)), ledger qdisc $qcount, lost $lost: $c"
near_tc tbf "$qcount" "$((d1 - d0))" "the sender's"
wire tbf "$tmp/tbf.json" "$t0" "$t1" "$r0" "$r1"
check "tbf: the conclusion names the sender's qdisc tbf 8001: on its interface and host" \
	grep -q "at the sender's qdisc: tbf 8001: on $(hostname) $IC " <<<"$c"
# --expect: exit 3, the failing line on stderr with the loss tc saw
check "expect: an unmet loss<=0.1% exits 3" test "$rc" = 3
eline=$(grep '^expect loss<=0.1%: ' "$tmp/tbf.err")
echo "expect: $eline"
read -r epct el es < <(sed -nE 's/^expect loss<=0[.]1%: lost ([0-9.]+)% \(([0-9,]+) of ([0-9,]+) datagrams\)$/\1 \2 \3/p' \
	<<<"$eline" | tr -d ,)
jl=$(jq -r '.end.sum.lost_packets' "$tmp/tbf.json") js=$(jq -r '.end.sum.packets' "$tmp/tbf.json")
if [ -n "$el" ] && within "$el" "$((d1 - d0))" 2 && [ "$el/$es" = "$jl/$js" ] &&
	within "$epct" "$(awk -v a="$jl" -v b="$js" 'BEGIN { printf "%.4f", 100 * a / b }')" 0.5; then
	pass "expect: the failing line's loss ~ tc's dropped delta, of -J's datagrams ($el of $es, $epct%)"
else
	fail "expect: the failing line's loss ~ tc's dropped delta" "'$eline' tc +$((d1 - d0)) -J $jl/$js"
fi
check "expect: the met condition says so" grep -q '^expect rate>=1k: met: received ' "$tmp/tbf.err"
check "tbf: the qdisc stage is this host's (the sender)" test "$(jq -r .side <<<"$st")" = local
# UDP counts each datagram its qdisc dropped as a SndbufError too: not twice in the ledger
check "tbf: the qdisc's drops are not counted again as the socket's" test "$(ledger "$tmp/tbf.json" \
	' | .stages[] | select(.stage == "socket") | .count')" -lt $(((d1 - d0) / 20))

# --ledger-csv of the same run: a row per line per interval; the intervals' qdisc rows sum to
# tc's dropped delta, their sent rows to the server's own count (-J's end.sum_received.packets:
# the highest sequence it saw; the tail tbf dropped is the difference), and the receiver's rows
# are empty (the peer reports its count at the end only), never 0. One pass over the file:
# the qdisc rows and their sum, the sent rows and theirs, the received rows and the empty ones,
# the qdisc rows' direction/side
read -r nq csvq ns csvsent nr rempty qdir <<<"$(python3 - "$tmp/tbf.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def of(stage): return [r for r in rows if r["stage"] == stage]
def total(rs): return sum(int(r["count"]) for r in rs if r["count"] != "")
q, s, r = of("qdisc"), of("sent"), of("received")
print(len(q), total(q), len(s), total(s), len(r), sum(1 for x in r if x["count"] == ""),
      ",".join(sorted({x["direction"] + "/" + x["side"] for x in q})) or "-")
PY
)"
peerpk=$(jq -r '.end.sum_received.packets' "$tmp/tbf.json")
echo "tbf csv: $nq intervals, qdisc rows sum $csvq (tc +$((d1 - d0))), sent rows sum $csvsent" \
	"(the server's count $peerpk), received rows empty $rempty of $nr"
check "tbf csv: its header is csv.md §8's" test "$(head -1 "$tmp/tbf.csv")" = \
	"time,elapsed,interval,direction,side,host,stage,counter,count,unit,datagrams,approx"
if [ "$nq" -ge 3 ] && [ "$((d1 - d0))" -gt 0 ] && within "$csvq" "$((d1 - d0))" 2; then
	pass "tbf csv: the $nq intervals' qdisc rows sum to tc -s's dropped delta ($csvq ~ $((d1 - d0)))"
else
	fail "tbf csv: the intervals' qdisc rows sum to tc -s's dropped delta" "$nq rows, $csvq vs +$((d1 - d0))"
fi
if [ "$ns" = "$nq" ] && within "$csvsent" "$peerpk" 1; then
	pass "tbf csv: the sent rows sum to the server's own count ($csvsent ~ $peerpk)"
else
	fail "tbf csv: the sent rows sum to the server's own count" "$ns rows, $csvsent vs $peerpk"
fi
check "tbf csv: the receiver's count is empty in every interval, never 0" \
	test "$nr" -gt 0 -a "$rempty" = "$nr"
check "tbf csv: the direction is up, the qdisc rows this host's" test "$qdir" = "up/local"

# --- tcp: the same tbf under a TCP test (Linux 6.x, linerate at both ends)
# the sum of nstat counters (absolute) in a namespace: sumctr NS NAME...
sumctr() { local ns=$1; shift; ip netns exec "$ns" nstat -az "$@" | awk 'NR > 1 && $1 !~ /^#/ {
	s += $2 } END { print s + 0 }'; }
TCPX=(TcpExtTCPBacklogDrop TcpExtTCPRcvQDrop TcpExtTCPZeroWindowDrop TcpExtTCPOFODrop)
IPX=(IpInDiscards IpInHdrErrors IpInAddrErrors IpReasmFails)
d0=$(tcdrops) x0=$(sumctr "$NS" "${TCPX[@]}") i0=$(sumctr "$NS" "${IPX[@]}")
ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $PORT -t 1 --headless -J >"$tmp/tcp.json" 2>"$tmp/tcp.err"
d1=$(tcdrops) x1=$(sumctr "$NS" "${TCPX[@]}") i1=$(sumctr "$NS" "${IPX[@]}")
ip netns exec "$NC" tc qdisc del dev "$IC" root
qcount=$(ledger "$tmp/tcp.json" '.stages[] | select(.stage == "qdisc") | .count')
c=$(ledger "$tmp/tcp.json" .conclusion)
echo "tcp: tc dropped +$((d1 - d0)), ledger qdisc $qcount," \
	"retransmits $(ledger "$tmp/tcp.json" .lost): $c"
near_tc tcp "$qcount" "$((d1 - d0))" "the sender's"
check "tcp: the conclusion puts the retransmits at the sender's qdisc tbf 8001: on its host" \
	grep -q "lost segments at the sender's qdisc: tbf 8001: on $(hostname) $IC " <<<"$c"
st=$(ledger "$tmp/tcp.json" '.stages[] | select(.stage == "transport")')
got="$(jq -r .count <<<"$st") $(jq -r .counter <<<"$st" | cut -c1-7)"
check "tcp: the receiver's transport stage is TcpExt's drops = its kernel's delta ($((x1 - x0)))" \
	test "$got" = "$((x1 - x0)) TcpExt "
got=$(ledger "$tmp/tcp.json" '.stages[] | select(.stage == "ip" and .side == "peer") | .count')
check "tcp: the receiver's ip stage = its kernel's Ip drop delta ($((i1 - i0)))" \
	test "$got" = "$((i1 - i0))"

# --- spurious: TCP -R with nothing dropping. The server's retransmits that the client's D-SACKs
# call spurious (the veth's per-CPU backlogs reorder a stream whose thread moves between CPUs)
# come in the peer view's TcpExt TCPDSACKRecvSegs and are taken off the loss; the witness is
# the server namespace's own kernel (nstat), the sender's count of the same retransmits.
sumsp() { sumctr "$NS" TcpExtTCPDSACKRecvSegs; }
s0=$(sumsp) r0=$(sumctr "$NS" TcpRetransSegs)
ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $PORT -R -t 1 --headless -J >"$tmp/spur.json" \
	2>"$tmp/spur.err"
s1=$(sumsp) r1=$(sumctr "$NS" TcpRetransSegs)
sp=$(ledger "$tmp/spur.json" .spurious) rt=$(ledger "$tmp/spur.json" .retransmitted)
c=$(ledger "$tmp/spur.json" .conclusion)
echo "spurious: the server's kernel retransmitted $((r1 - r0)), D-SACKed $((s1 - s0)); the" \
	"ledger: retransmitted $rt, spurious $sp, lost $(ledger "$tmp/spur.json" .lost): $c"
want=$((s1 - s0 < rt ? s1 - s0 : rt))
check "spurious: the ledger's spurious retransmits = the server kernel's D-SACKed delta ($sp ~ $want, within 2)" \
	test "$sp" -ge $((want - 2)) -a "$sp" -le $((want + 2))
if [ $((s1 - s0)) -gt 0 ] && [ $((s1 - s0)) -ge $((9 * (r1 - r0) / 10)) ]; then
	check "spurious: with $((s1 - s0)) of $((r1 - r0)) retransmits D-SACKed, no firewall is blamed" \
		eval '! grep -q firewall <<<"$c"'
else
	check "spurious: the conclusion names the loss or no loss ($((s1 - s0)) of $((r1 - r0)) D-SACKed)" \
		grep -qE "^(no loss|reordered|unaccounted|[0-9]+ of)" <<<"$c"
fi

# --- reverse: the server sends through its own tbf (-R); its qdisc comes in the peer view
stcdrops() { ip netns exec "$NS" tc -s qdisc show dev "$IS" | awk '/dropped/ { sub(",", "", $7);
	print $7; exit }'; }
ip netns exec "$NS" tc qdisc replace dev "$IS" root handle 8002: tbf rate 100mbit burst 20k \
	limit 30k || { fail "reverse: cannot add the qdisc"; exit 0; }
d0=$(stcdrops) t0=$(ipk "$NS" "$IS" tx) r0=$(ipk "$NC" "$IC" rx)
ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $PORT -R -u -b 500M -l 1400 --no-gso -t 1 --headless \
	-J >"$tmp/rev.json" 2>"$tmp/rev.err"
d1=$(stcdrops) t1=$(ipk "$NS" "$IS" tx) r1=$(ipk "$NC" "$IC" rx)
ip netns exec "$NS" tc qdisc del dev "$IS" root
st=$(ledger "$tmp/rev.json" '.stages[] | select(.stage == "qdisc")')
qcount=$(jq -r .count <<<"$st")
echo "reverse: tc dropped +$((d1 - d0)), ledger qdisc $qcount ($(jq -r .side <<<"$st")):" \
	"$(ledger "$tmp/rev.json" .conclusion)"
near_tc reverse "$qcount" "$((d1 - d0))" "the peer sender's"
wire reverse "$tmp/rev.json" "$t0" "$t1" "$r0" "$r1"
c=$(ledger "$tmp/rev.json" .conclusion)
check "reverse: the conclusion names the peer's tbf 8002: on its interface" \
	grep -q "at the sender's qdisc: tbf 8002: on [^ ]* $IS " <<<"$c"

# --- bidir: a tbf on the client's veth only, both directions at once (-u --bidir): the up
# direction leaves through it, the down one through the server's veth (no tbf). Each direction
# its own ledger: up's qdisc stage is this host's, within 2 % of tc's dropped delta; down's is
# the server's, = its tc dropped delta, which is 0; the --ledger-csv rows of each direction sum
# to their witness.
ip netns exec "$NC" tc qdisc replace dev "$IC" root handle 8003: tbf rate 100mbit burst 20k \
	limit 30k || { fail "bidir: cannot add the qdisc"; exit 0; }
d0=$(tcdrops) s0=$(stcdrops)
ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $PORT --bidir -u -b 300M -l 1400 --no-gso -t 1 \
	--headless -J -i 0.25 --ledger-csv "$tmp/bidir.csv" >"$tmp/bidir.json" 2>"$tmp/bidir.err"
d1=$(tcdrops) s1=$(stcdrops)
ip netns exec "$NC" tc qdisc del dev "$IC" root
# one jq pass: each direction's name, qdisc side and count, lost, conclusion
read -r upd upside upq downd downside downq downlost <<<"$(jq -r '[.linerate_ledger,
	.linerate_ledger_bidir_reverse] | map(., (.stages[] | select(.stage == "qdisc")))
	| [.[0].direction, .[1].side, .[1].count, .[2].direction, .[3].side, .[3].count,
	.[2].lost] | map(tostring) | join(" ")' "$tmp/bidir.json")"
c=$(ledger "$tmp/bidir.json" .conclusion)
echo "bidir: client tc dropped +$((d1 - d0)), server tc +$((${s1:-0} - ${s0:-0}));" \
	"$upd qdisc $upq ($upside), $downd qdisc $downq ($downside), down lost $downlost: $c"
near_tc bidir "$upq" "$((d1 - d0))" "the up direction's (this host's)"
check "bidir: the up ledger's conclusion names its direction and tbf 8003: on this host" \
	grep -q "^up (client -> server): .* at the sender's qdisc: tbf 8003: on $(hostname) $IC " \
	<<<"$c"
check "bidir: the down ledger's qdisc stage is the server's, = its tc dropped delta (0)" \
	test "$downd/$downside/$downq" = "down/peer/$((${s1:-0} - ${s0:-0}))" -a "$downq" = 0
# each ledger's sent and lost are its own direction's, as iperf3's end block reports them (the
# server's counts: what it received of up and its loss, what it sent down), not both summed
got=$(jq -r '[.linerate_ledger.sent, .linerate_ledger.lost, .linerate_ledger_bidir_reverse.sent,
	.end.sum_sent.packets, .end.sum_received.lost_packets, .end.sum_sent_bidir_reverse.packets]
	| "\(.[0]) \(.[1]) \(.[2]) / \(.[3]) \(.[4]) \(.[5])"' "$tmp/bidir.json")
check "bidir: each ledger's sent and lost are its direction's, as -J's end block ($got)" \
	test "${got% / *}" = "${got#* / }"
read -r cu cd cdn dsent <<<"$(python3 - "$tmp/bidir.csv" <<'PY'
import csv, sys
q = {"up": 0, "down": 0}
n = {"up": 0, "down": 0}
sent = 0
for r in csv.DictReader(open(sys.argv[1])):
    if r["stage"] == "qdisc":
        q[r["direction"]] += int(r["count"] or 0)
        n[r["direction"]] += 1
    if r["stage"] == "sent" and r["direction"] == "down":
        sent += int(r["count"] or 0)
print(q["up"], q["down"], n["down"], sent)
PY
)"
if [ "$cdn" -ge 3 ] && within "$cu" "$((d1 - d0))" 2 && [ "$cd" = 0 ]; then
	pass "bidir csv: up's qdisc rows sum to tc's dropped delta ($cu ~ $((d1 - d0))), down's $cdn to 0"
else
	fail "bidir csv: each direction's qdisc rows sum to its tc" "up $cu vs +$((d1 - d0)), down $cd in $cdn rows"
fi
# the down rows' sent: this host's receivers' count and gaps, against the server's own count of
# what it sent (-J end.sum_sent_bidir_reverse, from the server's results)
ssent=$(jq -r .end.sum_sent_bidir_reverse.packets "$tmp/bidir.json")
if within "$dsent" "$ssent" 1; then
	pass "bidir csv: down's sent rows sum to the server's own count ($dsent ~ $ssent)"
else
	fail "bidir csv: down's sent rows sum to the server's own count" "$dsent vs $ssent"
fi

# --- rcvbuf: the receiver's socket buffer, sized by -w
r0=$(ctr "$NS" UdpRcvbufErrors)
ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $PORT -u -b 0 -l 1400 -w 32K -t 2 --headless -J \
	>"$tmp/rcvbuf.json" 2>"$tmp/rcvbuf.err"
r1=$(ctr "$NS" UdpRcvbufErrors)
lost=$(ledger "$tmp/rcvbuf.json" .lost)
st=$(ledger "$tmp/rcvbuf.json" '.stages[] | select(.stage == "transport")')
tcount=$(jq -r .count <<<"$st") tdg=$(jq -r .datagrams <<<"$st")
echo "rcvbuf: kernel RcvbufErrors +$((r1 - r0)), ledger transport $tcount skbs ~ $tdg," \
	"lost $lost: $(ledger "$tmp/rcvbuf.json" .conclusion)"
if [ "$((r1 - r0))" -gt 0 ] && [ "$tcount" = "$((r1 - r0))" ]; then
	pass "rcvbuf: the receiver's transport stage = its kernel's RcvbufErrors delta ($tcount)"
else
	fail "rcvbuf: the receiver's transport stage = its kernel's RcvbufErrors delta" \
		"ledger $tcount, kernel +$((r1 - r0))"
fi
if [ "$lost" -gt 0 ] 2>/dev/null && within "$tdg" "$lost" 10; then
	pass "rcvbuf: the transport stage in datagrams ~ the datagrams lost ($tdg ~ $lost)"
else
	fail "rcvbuf: the transport stage in datagrams ~ the datagrams lost" "$tdg vs $lost"
fi
c=$(ledger "$tmp/rcvbuf.json" .conclusion) a=$(ledger "$tmp/rcvbuf.json" .advice)
check "rcvbuf: the conclusion names the receiver's socket buffer on the server's host" \
	grep -q "at the receiver's transport: UDP RcvbufErrors on " <<<"$c"
check "rcvbuf: the advice names the -w that sized it" grep -q -- "-w 32768" <<<"$a"
check "rcvbuf: the verdict says what the ledger says" \
	grep -qF "$c" <<<"$(jq -r .linerate_verdict.loss.where "$tmp/rcvbuf.json")"

# --- nft: a filter drops 1 in 20 at the server: no counter sees it
lr_nft_udp_drop "$NS" lrledger $PORT 20 || { fail "nft: cannot add the rule"; exit 0; }
t0=$(ipk "$NC" "$IC" tx) r0=$(ipk "$NS" "$IS" rx)
ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $PORT -u -b 100M -l 1400 --no-gso -t 2 --headless -J \
	--expect 'loss<=10%' >"$tmp/nft.json" 2>"$tmp/nft.err"
rc=$?
t1=$(ipk "$NC" "$IC" tx) r1=$(ipk "$NS" "$IS" rx)
dropped=$(ip netns exec "$NS" nft -j list table inet lrledger |
	jq '[.nftables[].rule? // empty | .expr[] | .counter? // empty | .packets] | add')
lost=$(ledger "$tmp/nft.json" .lost) una=$(ledger "$tmp/nft.json" .unaccounted)
echo "nft: nft dropped $dropped, lost $lost, unaccounted $una: $(ledger "$tmp/nft.json" .conclusion)"
if [ "$dropped" -gt 0 ] 2>/dev/null && within "$lost" "$dropped" 2; then
	pass "nft: the receiver's lost count ~ nft's counter ($lost ~ $dropped)"
else
	fail "nft: the receiver's lost count ~ nft's counter" "$lost vs $dropped"
fi
if within "$una" "$lost" 5; then
	pass "nft: unaccounted ~ lost ($una ~ $lost)"
else
	fail "nft: unaccounted ~ lost" "$una vs $lost ($(ledger "$tmp/nft.json" '.stages'))"
fi
# the veth counted every datagram nft then dropped: ip -s's rx delta is the sender's tx delta
wire nft "$tmp/nft.json" "$t0" "$t1" "$r0" "$r1"
check "expect: loss<=10% with nft dropping 1 in 20 is met: exit 0" test "$rc" = 0
check "expect: its line says met" grep -q '^expect loss<=10%: met: lost ' "$tmp/nft.err"
check "nft: the conclusion says unaccounted and names no stage as the cause" \
	bash -c '[[ $1 == unaccounted:* && $1 != *" at the sender"* && $1 != *" at the receiver"* ]]' \
	_ "$(ledger "$tmp/nft.json" .conclusion)"

# --- iperf3: a plain iperf3 -s shares no counters: its stages are unknown, never 0
if command -v iperf3 >/dev/null; then
	lr_nft_udp_drop "$NS" lrledger3 $((PORT + 1)) 20 || { fail "iperf3: cannot add the rule"; exit 0; }
	lr_bg ip netns exec "$NS" iperf3 -s -p $((PORT + 1))
	lr_wait_listen $((PORT + 1)) "$NS" || { fail "iperf3: did not listen"; exit 0; }
	ip netns exec "$NC" "$LR_BIN" -c "$SA" -p $((PORT + 1)) -u -b 50M -l 1400 --no-gso -t 1 --headless -J \
		--expect 'cpu<100%' >"$tmp/ip3.json" 2>"$tmp/ip3.err"
	rc=$?
	check "expect (iperf3 $(iperf3 -v | awk 'NR == 1 { print $2 }')): cpu<100% cannot be judged: exit 3" \
		test "$rc" = 3
	check "expect: its line says the peer's CPUs are unknown" grep -qF \
		"expect cpu<100%: cannot be judged: the peer's CPU times are unknown (a plain iperf3 shares none)" \
		"$tmp/ip3.err"
	check "cycles: the peer's CPUs are unknown (null), never 0" test \
		"$(jq -r '.linerate_cycles.ends[] | select(.side == "peer") | .cpus' "$tmp/ip3.json")" = null
	n=$(ledger "$tmp/ip3.json" ' | [.stages[] | select(.side == "peer" and .count == null)] | length')
	m=$(ledger "$tmp/ip3.json" ' | [.stages[] | select(.side == "peer")] | length')
	if [ "$m" -gt 0 ] 2>/dev/null && [ "$n" = "$m" ]; then
		pass "iperf3: the receiver's $m stages are unknown (null), never 0"
	else
		fail "iperf3: the receiver's stages are unknown" "$n of $m null"
	fi
	check "iperf3: the wire stage is there (one link) and unknown (null), never 0" test \
		"$(ledger "$tmp/ip3.json" '.stages[] | select(.stage == "wire") | .count')" = null
	check "iperf3: the conclusion says the receiver's counters are unknown" \
		grep -q "receiver's are unknown" <<<"$(ledger "$tmp/ip3.json" .conclusion)"
else
	fail "iperf3: not installed (scripts/deps.sh)"
fi
lr_summary
