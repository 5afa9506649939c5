#!/usr/bin/env bash
# -J's shape (issue 10): linerate's documents have every key path iperf3's own document of the
# same case has, with a compatible JSON type (our extra keys are listed as a comment), for the
# client (linerate -c -> iperf3 -s against iperf3 -c -> iperf3 -s) and the server (iperf3 -c ->
# linerate -s -J against iperf3 -c -> iperf3 -s -J), in TCP, TCP -R, TCP --bidir, UDP -b 50M,
# UDP -R. Then the values those keys carry, each against a witness other than linerate's own
# arithmetic: the congestion control against the namespace's sysctl (or the -C given, as the
# iperf3 server's own document names it), pmtu against the veth's MTU, snd_cwnd as a whole
# number of MSS, the RTTs ordered and non-zero, and UDP datagram counts against the iperf3
# peer's own count. The reference is the newest upstream iperf3, sid's (3.22 when written, from
# scripts/upstream-iperf3.sh; LR_SHAPE_SUITE=bookworm holds it against Debian 12's 3.12). Two
# namespaces joined by a veth; ports 5470-5471.
. "$(dirname "$0")/../lib.sh"
cases="tcp tcp-R bidir udp udp-R"
for c in $cases; do lr_plan "shape-client-$c" "shape-server-$c"; done
lr_plan congestion-client congestion-client-C congestion-server-R tcpinfo-client \
	tcpinfo-client-bidir tcpinfo-server-R udp-packets-client udp-packets-client-R \
	udp-packets-server udp-packets-server-R
need_root json_shape
command -v python3 >/dev/null || { lr_skip_plan json_shape "python3 not installed"; exit 0; }
command -v iperf3 >/dev/null || { lr_skip_plan json_shape "iperf3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan json_shape "$LR_BIN not built"; exit 0; }
suite=${LR_SHAPE_SUITE:-sid}
d=$(lr_iperf3_path "$suite") || { lr_skip_plan json_shape "iperf3 of $suite not installed (scripts/upstream-iperf3.sh)"; exit 0; }
PATH=${d:+$d:}$PATH
echo "# reference: $(iperf3 --version 2>/dev/null | head -n 1) ($(command -v iperf3))"

tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
u=$(lr_uniq)
nsc=${u}c nss=${u}s
lr_netns_pair "$nsc" "$nss" "${u}a" "${u}b" 10.78.0.1 10.78.0.2 1400	# not the usual 1500: a pmtu copied from nowhere shows
srv=10.78.0.2 p3=5470 plr=5471

wait_listen() {	# wait_listen PORT: up to 3 s for a listener in the server namespace
	local i
	for ((i = 0; i < 60; i++)); do
		ip netns exec "$nss" ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.05
	done
	return 1
}
# one server of each kind for every case; their documents are told apart by the test cookie
ip netns exec "$nss" iperf3 -s -J -p $p3 >"$tmp/i3s.json" 2>"$tmp/i3s.err" &
i3pid=$!
lr_cleanup_add "kill $i3pid 2>/dev/null; wait $i3pid 2>/dev/null"
ip netns exec "$nss" "$LR_BIN" -s -J -p $plr >"$tmp/lrs.json" 2>"$tmp/lrs.err" &
lrpid=$!
lr_cleanup_add "kill $lrpid 2>/dev/null; wait $lrpid 2>/dev/null"
if ! wait_listen $p3 || ! wait_listen $plr; then
	lr_skip_plan json_shape "a server did not listen"
	exit 0
fi

opts() {
	case $1 in
	tcp) echo "" ;; tcp-R) echo "-R" ;; bidir) echo "--bidir" ;;
	udp) echo "-u -b 50M" ;; udp-R) echo "-u -b 50M -R" ;;
	esac
}
i3c() { ip netns exec "$nsc" iperf3 -c $srv -t 1 -J "$@" 2>>"$tmp/c.err"; }
lrc() { ip netns exec "$nsc" "$LR_BIN" -c $srv --headless -t 1 -J "$@" 2>>"$tmp/c.err"; }
# The kernel's own count of the datagrams that reached the client's namespace: IP packets in,
# less TCP segments and ICMP messages (Udp InDatagrams is counted as a socket reads, not as
# datagrams arrive: a closed socket's unread ones are in no Udp counter), plus what either
# veth dropped on the way. Under -R a sender cannot know which of its last datagrams the
# receiver read before it stopped, but it must have sent exactly what arrived.
snmp_get() {	# NS PROTO FIELD: one counter of /proc/net/snmp by its header's name
	ip netns exec "$1" awk -v p="$2:" -v f="$3" '$1 == p && !h { for (i = 2; i <= NF; i++) if ($i == f) c = i; h = 1; next }
		$1 == p && h { print $c; exit }' /proc/net/snmp
}
udp_arrived() {
	local in tcp icmp drops
	in=$(snmp_get "$nsc" Ip InReceives) tcp=$(snmp_get "$nsc" Tcp InSegs) icmp=$(snmp_get "$nsc" Icmp InMsgs)
	drops=$(( $(ip netns exec "$nss" cat "/sys/class/net/${u}b/statistics/tx_dropped") +
		$(ip netns exec "$nsc" cat "/sys/class/net/${u}a/statistics/rx_dropped") ))
	echo $((in - tcp - icmp + drops))
}
for c in $cases; do
	# shellcheck disable=SC2046
	i3c -p $p3 $(opts $c) >"$tmp/ref-$c.json"	# the reference, both ends iperf3
	# shellcheck disable=SC2046
	lrc -p $p3 $(opts $c) >"$tmp/lrc-$c.json"	# our client
	[ "$c" = udp-R ] && a0=$(udp_arrived)
	# shellcheck disable=SC2046
	i3c -p $plr $(opts $c) >"$tmp/i3c-$c.json"	# our server
	[ "$c" = udp-R ] && sleep 0.2 && echo "$(($(udp_arrived) - a0))" >"$tmp/arrived-udp-R"
done
# -C: an algorithm other than the namespace's default, when the kernel has one
cc_def=$(ip netns exec "$nsc" cat /proc/sys/net/ipv4/tcp_congestion_control)
cc_alt=""
for a in $(cat /proc/sys/net/ipv4/tcp_available_congestion_control); do
	[ "$a" != "$cc_def" ] && { cc_alt=$a; break; }
done
[ -n "$cc_alt" ] && lrc -p $p3 -C "$cc_alt" >"$tmp/lrc-C.json"
sleep 0.3	# the servers' last documents
kill $i3pid $lrpid 2>/dev/null
wait $i3pid $lrpid 2>/dev/null
mtu=$(ip -n "$nsc" -o link show "${u}a" | sed -n 's/.* mtu \([0-9]*\).*/\1/p')
cc_srv=$(ip netns exec "$nss" cat /proc/sys/net/ipv4/tcp_congestion_control)

out=$(python3 - "$tmp" "$cases" "$mtu" "$cc_def" "$cc_srv" "$cc_alt" 2>&1 <<'PY'
import json, sys
tmp, cases, mtu, cc_def, cc_srv, cc_alt = sys.argv[1:7]
cases, mtu = cases.split(), int(mtu)
def docs(f):
    try:
        t = open(f).read()
    except OSError:
        return []
    d, i, out = json.JSONDecoder(), 0, []
    while True:
        rest = t[i:].lstrip()
        if not rest:
            return out
        try:
            o, n = d.raw_decode(rest)
        except ValueError:
            return out
        out.append(o)
        i = len(t) - len(rest) + n
def one(f):
    d = docs(f)
    return d[-1] if d else None
def cookie(d):
    return d.get("start", {}).get("cookie")
srv = {}
for f in ("i3s.json", "lrs.json"):
    for d in docs("%s/%s" % (tmp, f)):
        srv[(f, cookie(d))] = d
def server_doc(f, client):
    return srv.get((f, cookie(client))) if client else None
def verdict(name, why):
    print("V %s %s" % (name, why or "ok"))
def run(name, f):
    try:
        verdict(name, f())
    except Exception as e:
        verdict(name, "%s: %s" % (type(e).__name__, e))
def tname(v):
    if isinstance(v, bool): return "bool"
    if isinstance(v, (int, float)): return "number"
    if isinstance(v, str): return "string"
    if v is None: return "null"
    return "array" if isinstance(v, list) else "object"
def paths(v, p="", acc=None):
    acc = {} if acc is None else acc
    acc.setdefault(p or "/", set()).add(tname(v))
    if isinstance(v, dict):
        for k, x in v.items():
            paths(x, p + "/" + k, acc)
    elif isinstance(v, list):
        for x in v:
            paths(x, p + "[]", acc)
    return acc
def shape(ref, ours, what):
    if ref is None:
        return "no iperf3 %s document" % what
    if ours is None:
        return "no linerate %s document" % what
    r, o = paths(ref), paths(ours)
    missing = sorted(k for k in r if k not in o)
    types = sorted(k for k in r if k in o and not (r[k] & o[k]))
    extra = [k for k in o if k not in r and (k.rsplit("/", 1)[0] in r or
             k.rsplit("/", 1)[0].rstrip("[]") in r)]
    print("# %s: %d key paths, %d in iperf3's; ours also: %s" % (what, len(o), len(r),
          " ".join(sorted(extra)) or "-"))
    if missing:
        return "missing %s" % missing
    return "type differs: %s" % [(k, sorted(r[k]), sorted(o[k])) for k in types] if types else ""
for c in cases:
    ref, lrc, i3c = [one("%s/%s-%s.json" % (tmp, w, c)) for w in ("ref", "lrc", "i3c")]
    run("shape-client-" + c, lambda: shape(ref, lrc, "client " + c))
    run("shape-server-" + c, lambda: shape(server_doc("i3s.json", ref),
                                           server_doc("lrs.json", i3c), "server " + c))
D = {c: one("%s/lrc-%s.json" % (tmp, c)) for c in cases}
S = {c: server_doc("lrs.json", one("%s/i3c-%s.json" % (tmp, c))) for c in cases}
W = {c: server_doc("i3s.json", D[c]) for c in cases}	# iperf3 -s's own view of our client
I = {c: one("%s/i3c-%s.json" % (tmp, c)) for c in cases}	# iperf3 -c's own view of our server
def congestion_client():
    e, w = D["tcp"]["end"], W["tcp"]["end"]
    print("# client: sender %s receiver %s; namespace %s, iperf3 -s says it used %s" % (
        e.get("sender_tcp_congestion"), e.get("receiver_tcp_congestion"), cc_def,
        w.get("receiver_tcp_congestion")))
    if e.get("sender_tcp_congestion") != cc_def:
        return "sender_tcp_congestion %s, the namespace's is %s" % (e.get("sender_tcp_congestion"), cc_def)
    if e.get("receiver_tcp_congestion") != w.get("receiver_tcp_congestion"):
        return "receiver_tcp_congestion is not what iperf3 -s used"
    r = D["tcp-R"]["end"]
    if r.get("receiver_tcp_congestion") != cc_def or r.get("sender_tcp_congestion") != W["tcp-R"]["end"].get("sender_tcp_congestion"):
        return "-R: sender/receiver congestion swapped or wrong: %s" % {k: v for k, v in r.items() if "congestion" in k}
    return ""
run("congestion-client", congestion_client)
def congestion_c():
    if not cc_alt:
        return None
    d = one("%s/lrc-C.json" % tmp)
    e, w = d["end"], server_doc("i3s.json", d)["end"]
    print("# -C %s: sender %s receiver %s (iperf3 -s: %s)" % (cc_alt, e.get("sender_tcp_congestion"),
          e.get("receiver_tcp_congestion"), w.get("receiver_tcp_congestion")))
    return "" if e.get("sender_tcp_congestion") == cc_alt == e.get("receiver_tcp_congestion") == \
        w.get("receiver_tcp_congestion") else "-C %s not reported as used on both ends" % cc_alt
if cc_alt:
    run("congestion-client-C", congestion_c)
else:
    print("S congestion-client-C the kernel has one congestion control only")
def congestion_server():
    e = S["tcp-R"]["end"]
    print("# server -R: sender %s (namespace %s)" % (e.get("sender_tcp_congestion"), cc_srv))
    return "" if e.get("sender_tcp_congestion") == cc_srv else "sender_tcp_congestion is not the server namespace's"
run("congestion-server-R", congestion_server)
def tcpinfo(d, name):
    """Every TCP sender interval and the end's summary against the witnesses: the veth's
    MTU, the MSS (start's tcp_mss_default) dividing the congestion window, the RTT order."""
    mss = d["start"].get("tcp_mss_default") or 0
    ivs = [s for iv in d["intervals"] for s in iv["streams"] if s.get("sender") and "snd_cwnd" in s]
    if not ivs:
        return "%s: no sender interval with snd_cwnd" % name
    # (snd_wnd may be 0 at an instant: a receiver that closed its window)
    bad = [s for s in ivs if s["pmtu"] != mtu or s["snd_cwnd"] <= 0 or s["rtt"] <= 0 or
           (mss and s["snd_cwnd"] % mss)]
    print("# %s: %d intervals, cwnd %s, rtt %s us, pmtu %s, mss %s" % (name, len(ivs),
          [s["snd_cwnd"] for s in ivs], [s["rtt"] for s in ivs], sorted({s["pmtu"] for s in ivs}), mss))
    if bad:
        return "%s: interval values not real: %s" % (name, bad[0])
    for st in d["end"]["streams"]:
        s = st.get("sender", {})
        if not s.get("sender") or "max_rtt" not in s:
            continue
        if not (s["max_rtt"] >= s["mean_rtt"] >= s["min_rtt"] > 0 and s["max_snd_cwnd"] > 0
                and s["max_snd_wnd"] > 0):
            return "%s: end summary %s" % (name, s)
        mine = [x for iv in d["intervals"] for x in iv["streams"]
                if x["socket"] == s["socket"] and "snd_cwnd" in x]
        if mine and s["max_snd_cwnd"] != max(x["snd_cwnd"] for x in mine):
            return "%s: max_snd_cwnd is not the intervals' largest" % name
    return ""
run("tcpinfo-client", lambda: tcpinfo(D["tcp"], "client"))
run("tcpinfo-client-bidir", lambda: tcpinfo(D["bidir"], "client --bidir"))
run("tcpinfo-server-R", lambda: tcpinfo(S["tcp-R"], "server -R"))
def isum(d, key="packets"):
    return sum(s.get(key, 0) for iv in d["intervals"] for s in iv["streams"])
def arrived():
    try:
        return int(open("%s/arrived-udp-R" % tmp).read())
    except (OSError, ValueError):
        return -1
def udp(d, w, name, ours, theirs, sends, witness=None):
    """Our intervals' datagrams add up to our end count, which is the iperf3 peer's own. Under
    -R the server sends until the client's TEST_END reaches it, and a datagram still in flight
    then is never counted: iperf3 <-> iperf3 shows it too (3.21: 4323 sent, 4322 received)."""
    iv, end, peer = isum(d), d["end"][ours]["packets"], w["end"][theirs]["packets"]
    print("# %s: intervals %d datagrams, end %s %d, iperf3's %s %d" % (name, iv, ours, end, theirs, peer))
    sent, rcvd = (end, peer) if sends else (peer, end)
    if witness is not None:	# the kernel's count of what arrived, not a slack
        # less each stream's 4-byte connect reply (protocols/iperf3-wire: UDP's handshake)
        witness -= len(d["end"]["streams"])
        print("# %s: the client's namespace saw %d test datagrams arrive" % (name, witness))
        return "" if iv == end and sent == witness and rcvd <= sent and iv > 0 else \
            "%s: datagram counts differ (sent %d, arrived %d, received %d)" % (name, sent, witness, rcvd)
    slack = 2 if "-R" in name else 0
    return "" if iv == end and 0 <= sent - rcvd <= slack and iv > 0 else \
        "%s: datagram counts differ" % name
run("udp-packets-client", lambda: udp(D["udp"], W["udp"], "client", "sum_sent", "sum_received", True))
run("udp-packets-client-R", lambda: udp(D["udp-R"], W["udp-R"], "client -R", "sum_received", "sum_sent", False))
run("udp-packets-server", lambda: udp(S["udp"], I["udp"], "server", "sum_received", "sum_sent", False))
run("udp-packets-server-R", lambda: udp(S["udp-R"], I["udp-R"], "server -R", "sum_sent", "sum_received", True,
                                        arrived()))
PY
)
grep '^#' <<<"$out"
while read -r line; do
	set -- $line
	case "$line" in
	"V "*" ok") pass "$2" ;;
	"V "*) fail "$2" "${line#V $2 }" ;;
	"S "*) skip "$2" "${line#S $2 }" ;;
	esac
done <<<"$out"
grep -qv '^[#VS]' <<<"$out" && grep -v '^[#VS]' <<<"$out" | sed 's/^/# python: /' | tail -n 5
[ -s "$tmp/c.err" ] && sed 's/^/# stderr: /' "$tmp/c.err" | head -n 5
true
