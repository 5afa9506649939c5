#!/usr/bin/env bash
# rr_veth: --rr, netperf's request/response test (DESIGN section 16), between two linerates on
# a quiet veth pair (namespaces, no IPv6, neighbours pinned: the link carries the test alone).
# Witnesses are the server's own -J count, the veth's kernel counters (ip -s link), the wall
# clock and nftables' drop counter; never the client's arithmetic restated.
#   tcp_count    TCP_RR -P 2: the server's transactions (its -J) equal the client's (each flow
#                waits for the answer in flight at the end)
#   tcp_veth     the bytes the client's veth carried both ways lie between transactions x
#                (REQ+RESP) and that plus the headers of the packets it counted (+ setup)
#   tcp_clock    transactions/s x seconds gives the transactions, and the seconds lie within
#                -t and the run's wall clock
#   tcp_peer_role, tcp_rr_roles   the client's -J: the peer is the answering end, the loss
#                ledger is the requests' way only and the cycles' ends are asker and answerer
#                (neither end is a bulk test's sender or receiver)
#   udp_count    UDP_RR: the server's count equals the client's, nothing lost on a clean link
#   udp_lost     nft drops 1 in 100 requests at the server: the client's lost count equals nft's
#                counter, no late answer, and the server answered what arrived
#   matrix_rr    --matrix 'rr=0,1': the rr=1 row's rr_tps lies between the server's own count
#                over the case's wall-clock span and that count over -t; the rr=0 row has none
#   plain_iperf3_3.12, plain_iperf3_3.22   against Debian 12's iperf3 -s and upstream 3.22's:
#                one line naming the server, exit 4, within 5 s, and no data stream ever
#                connected (iperf3's own -J)
source "$(dirname "$0")/../lib.sh"
lr_plan tcp_count tcp_veth tcp_clock tcp_peer_role tcp_rr_roles udp_count udp_lost matrix_rr plain_iperf3_3.12 plain_iperf3_3.22
need_root rr_veth
[ -x "$LR_BIN" ] || { lr_skip_plan rr_veth "$LR_BIN not built"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan rr_veth "python3 not installed"; exit 0; }

u=$(lr_uniq)
NC=${u}c NS=${u}s IC=${u}c0 IS=${u}s0 CA=10.213.34.1 SA=10.213.34.2 PORT=5201
lr_netns_pair "$NC" "$NS" "$IC" "$IS" "$CA" "$SA" 1500 || { fail rr_veth_setup netns; exit 0; }
lr_quiet_link "$NC" "$NS" "$IC" "$IS" "$CA" "$SA"
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"

# the server's -J: one document per test, appended
ip netns exec "$NS" "$LR_BIN" -s -B "$SA" -p $PORT -J >"$tmp/srv.json" 2>"$tmp/srv.err" &
SPID=$!
lr_cleanup_add "kill $SPID 2>/dev/null; wait $SPID 2>/dev/null"
lr_wait_listen $PORT "$NS" || { fail rr_veth_setup "the server does not listen"; exit 0; }

link() { # rx_bytes rx_packets tx_bytes tx_packets of the client's veth
	ip -n "$NC" -s -j link show "$IC" | python3 -c 'import json,sys
s = json.load(sys.stdin)[0]["stats64"]
print(s["rx"]["bytes"], s["rx"]["packets"], s["tx"]["bytes"], s["tx"]["packets"])'
}
# client NAME ARGS...: the client's -J in $tmp/NAME.json, RC, wall clock in WALL (s)
client() {
	local name=$1 t0=${EPOCHREALTIME/./}; shift
	ip netns exec "$NC" timeout -s KILL 30 "$LR_BIN" -c "$SA" -p $PORT --rr -J "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
	RC=$?
	WALL=$(( ${EPOCHREALTIME/./} - t0 ))
	WALL=$((WALL / 1000000)).$(printf %06d $((WALL % 1000000)))
}
# witness NAME DOC CHECK...: python over the client's -J ($c), the server's DOC-th -J document
# ($s, counted from 0) and the figures in the environment; prints PASS/FAIL lines
witness() {
	local name=$1 doc=$2; shift 2
	python3 - "$tmp/$name.json" "$tmp/srv.json" "$doc" "$@" <<-'PY'
	import json, os, sys
	c = json.load(open(sys.argv[1]))["linerate_rr"]
	text, docs, i = open(sys.argv[2]).read(), [], 0
	dec = json.JSONDecoder()
	while text[i:].strip():
	    while text[i].isspace():
	        i += 1
	    d, i = dec.raw_decode(text, i)
	    docs.append(d)
	s = docs[int(sys.argv[3])].get("linerate_rr", {}) if len(docs) > int(sys.argv[3]) else {}
	e = {k: float(v) for k, v in os.environ.items() if k.startswith("W_")}
	for chk in sys.argv[4:]:
	    name, expr = chk.split("=", 1)
	    try:
	        ok = eval(expr)
	    except Exception as x:
	        ok, expr = False, expr + " raised " + repr(x)
	    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + expr +
	          " with client " + json.dumps({k: v for k, v in c.items() if k != "histogram"}) +
	          " server transactions " + str(s.get("transactions")) + " env " + str(e)))
	PY
}
count() { # count < witness output: PASS/FAIL into the summary
	local l
	while read -r l; do
		case $l in
		PASS\ *) pass "${l#PASS }" ;;
		FAIL\ *) l=${l#FAIL }; fail "${l%%:*}" "${l#*: }" ;;
		esac
	done
}

# TCP_RR, 2 flows of 1000-byte requests and 2000-byte answers: large enough that a doubled
# count cannot hide in the headers
read -r rb0 rp0 tb0 tp0 < <(link)
client tcp -P 2 -l 1000,2000 -t 2
read -r rb1 rp1 tb1 tp1 < <(link)
if [ "$RC" -ne 0 ]; then
	fail tcp_count "client exit $RC: $(head -c 300 "$tmp/tcp.err")"
else
	W_BYTES=$((rb1 - rb0 + tb1 - tb0)) W_PKTS=$((rp1 - rp0 + tp1 - tp0)) W_WALL=$WALL \
	witness tcp 0 >"$tmp/w" \
		"tcp_count=c['transactions'] > 0 and s['transactions'] == c['transactions']" \
		"tcp_veth=c['transactions'] * 3000 <= e['W_BYTES'] <= (c['transactions'] + 2) * 3000 + e['W_PKTS'] * 100 + 65536" \
		"tcp_clock=abs(c['transactions_per_s'] * c['seconds'] - c['transactions']) <= 1 and 2 <= c['seconds'] <= e['W_WALL']"
	count <"$tmp/w"
fi
# the peer's block names what the server did: it took the requests and answered, it was not
# "the receiver" of a bulk test
role=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["linerate_peer"]["role"])' \
	"$tmp/tcp.json" 2>/dev/null)
check "tcp_peer_role: the peer's role under --rr is answerer ($role)" test "$role" = answerer
# the ledger is the requests' way only, and the cycles' two ends ask and answer: neither is a
# bulk test's sender or receiver
roles=$(python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))
print(j["linerate_ledger"].get("requests_only"), *[e["role"] for e in j["linerate_cycles"]["ends"]])' \
	"$tmp/tcp.json" 2>/dev/null)
check "tcp_rr_roles: ledger of the requests only, cycles' ends asker and answerer ($roles)" \
	test "$roles" = "True asker answerer"

# UDP_RR on the clean link
client udp -u -P 2 -l 200,200 -t 1
if [ "$RC" -ne 0 ]; then
	fail udp_count "client exit $RC: $(head -c 300 "$tmp/udp.err")"
else
	witness udp 1 >"$tmp/w" \
		"udp_count=c['transactions'] > 0 and c['lost'] == 0 and s['transactions'] == c['transactions']"
	count <"$tmp/w"
fi

# UDP_RR with 1 in 100 requests dropped at the server's input (udp length > 100: the setup
# datagrams pass); each drop costs its flow the 200 ms timeout
if ! lr_nft_udp_drop "$NS" lrrr $PORT 100; then
	fail udp_lost "nft cannot add the drop rule here"
else
	client udplost -u -P 2 -l 200,200 -t 2
	W_NFT=$(ip netns exec "$NS" nft list table inet lrrr |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
	if [ "$RC" -ne 0 ]; then
		fail udp_lost "client exit $RC: $(head -c 300 "$tmp/udplost.err")"
	else
		W_NFT=$W_NFT witness udplost 2 >"$tmp/w" \
			"udp_lost=e['W_NFT'] > 0 and c['lost'] == e['W_NFT'] and c['late'] == 0 and s['transactions'] == c['transactions']"
		count <"$tmp/w"
	fi
fi

# the matrix: a bulk case (the server's 4th document) and an rr one (its 5th)
ip netns exec "$NC" timeout -s KILL 40 "$LR_BIN" -c "$SA" -p $PORT --matrix 'rr=0,1' -t 1 \
	--matrix-csv "$tmp/m.csv" </dev/null >"$tmp/m.out" 2>"$tmp/m.err"
RC=$?
python3 - "$tmp/m.csv" "$tmp/srv.json" "$RC" <<-'PY' >"$tmp/w"
	import csv, json, sys
	rows = list(csv.DictReader(open(sys.argv[1])))
	text, docs, i, dec = open(sys.argv[2]).read(), [], 0, json.JSONDecoder()
	while text[i:].strip():
	    while text[i].isspace():
	        i += 1
	    d, i = dec.raw_decode(text, i)
	    docs.append(d)
	try:
	    s = docs[4]["linerate_rr"]["transactions"]
	    r0, r1 = rows
	    span = float(r1["time_end"]) - float(r1["time_start"])
	    tps = float(r1["rr_tps"])
	    ok = (sys.argv[3] == "0" and r0["rr_tps"] == "" and r0["rr_p99_us"] == "" and
	          "linerate_rr" not in docs[3] and s > 0 and s / span <= tps <= s / 1.0 * 1.001 and
	          0 < float(r1["rr_p99_us"]) <= span * 1e6)
	    why = "exit %s, server %d transactions, rr_tps %s over %.3f s, p99 %s, rr=0 row %r" % (
	        sys.argv[3], s, tps, span, r1["rr_p99_us"], (r0["rr_tps"], r0["rr_p99_us"]))
	except Exception as x:
	    ok, why = False, "exit %s: %r" % (sys.argv[3], x)
	print("PASS matrix_rr" if ok else "FAIL matrix_rr: " + why)
	PY
count <"$tmp/w"
kill $SPID 2>/dev/null; wait $SPID 2>/dev/null

# plain iperf3 -s, Debian 12's (3.12) and upstream 3.22 (sid): the client stops before any
# data, names the server, exit 4; iperf3's own -J saw no data stream
plain() { # plain SUITE NAME
	local suite=$1 name=$2 d ver conn
	if ! d=$(lr_iperf3_path "$suite"); then
		skip "$name" "iperf3 of $suite not installed (scripts/upstream-iperf3.sh)"
		return
	fi
	ver=$(lr_iperf3_version "$suite")
	ip netns exec "$NS" env PATH="${d:+$d:}$PATH" iperf3 -s -1 -J -B "$SA" -p $PORT \
		>"$tmp/ip3.json" 2>&1 &
	IPID=$!
	lr_cleanup_add "kill $IPID 2>/dev/null; wait $IPID 2>/dev/null"
	lr_wait_listen $PORT "$NS" || { fail "$name" "iperf3 $ver -s does not listen"; return; }
	client plain -t 1
	timeout 5 tail --pid=$IPID -f /dev/null	# iperf3 -1 ends with the test
	kill $IPID 2>/dev/null; wait $IPID 2>/dev/null
	conn=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["start"]["connected"]))' \
		"$tmp/ip3.json" 2>/dev/null)
	if [ "$RC" -eq 4 ] && [ "$(wc -l <"$tmp/plain.err")" -eq 1 ] &&
		grep -q "^linerate: --rr needs a linerate server at $SA: " "$tmp/plain.err" &&
		python3 -c "import sys; sys.exit(float('$WALL') >= 5)" && [ "$conn" = 0 ]; then
		pass "$name # iperf3 $ver"
	else
		fail "$name" "iperf3 $ver: exit $RC in ${WALL}s, data streams at iperf3: '$conn', stderr: $(head -c 300 "$tmp/plain.err")"
	fi
}
plain bookworm plain_iperf3_3.12
plain sid plain_iperf3_3.22
lr_summary
