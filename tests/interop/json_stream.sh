#!/usr/bin/env bash
# --json-stream (issue 10, docs/design.md §9) as iperf3 3.17+ writes it: one JSON object a line,
# {"event":"start"|"interval"|"end"|"error"|..., "data":...}, start first and end last, "start"
# carrying the -J start block and "end" the -J end block. For the client (against linerate's
# and iperf3's servers) and for `linerate -s --json-stream` (against iperf3's client). Each run
# is judged against a witness other than the stream itself: the same program's -J document for
# the start block's keys, iperf3 3.12's own -J for the keys it has, and the peer's own byte
# count (iperf3's -J, or linerate's end totals) for the intervals' sum.
. "$(dirname "$0")/../lib.sh"
lr_plan lrc-lrs-events lrc-lrs-start-keys lrc-lrs-sums lrc-lrs-bidir-sums lrc-lrs-bidir-ledgers lrc-lrs-linerate-events lrc-bidir-interval-keys-312 lrc-i3s-events \
lrc-i3s-start-keys-312 lrc-i3s-sums lrs-i3c-events lrs-i3c-start-keys lrs-i3c-start-keys-312 \
lrs-i3c-sums lrs-udp-reverse-sums lrc-error-events
command -v python3 >/dev/null || { lr_skip_plan json_stream "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan json_stream "$LR_BIN not built"; exit 0; }
have_i3=$(command -v iperf3)
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
port=5492

wait_listen() { lr_wait_listen "$1" "" 60; }	# wait_listen PORT: up to 3 s, on loopback
srv_start() {	# srv_start OUT CMD...: a server on $port ($spid), stdout to OUT
	local out=$1; shift
	"$@" >"$out" 2>"$tmp/srv.err" &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen "$port"
}
srv_stop() { kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; }

# judge PYTHON FILES...: one python run (python starts slowly on a loaded machine) for a
# section's checks; it calls verdict(NAME, WHY) per check, WHY "" when it passed, and prints
# "# notes". Helpers: events(f) the stream's lines parsed (a line that is not JSON fails the
# checks), load(f) one JSON document, shape(ev), keys(o), isum(ev).
judge() {
	local code=$1 out line; shift
	out=$(python3 - "$@" 2>&1 <<PY
import json, sys
def load(f):
    return json.load(open(f))
def events(f):
    return [json.loads(l) for l in open(f) if l.strip()]
def verdict(name, why):
    print("V %s %s" % (name, why or "ok"))
def shape(ev):
    """'' when the events are iperf3's: start, interval..., end (error and server output
    events only before end); else why not."""
    names = [e.get("event") for e in ev]
    print("# events: %s" % " ".join("%s x%d" % (n, names.count(n)) for n in dict.fromkeys(names)))
    if any(set(e) != {"event", "data"} for e in ev):
        return "an event is not {event, data}"
    if not names or names[0] != "start" or names[-1] != "end" or names.count("start") != 1 \
            or names.count("end") != 1:
        return "not start ... end: %s" % names
    mid = names[1:-1]
    k = len([n for n in mid if n == "interval"])
    if k < 2 or mid[:k] != ["interval"] * k or any(n not in ("server_output_json",
            "server_output_text", "error", "linerate_verdict", "linerate_ledger",
            "linerate_cycles", "linerate_latency", "linerate_expect", "linerate_peer")
            for n in mid[k:]):
        return "not intervals then end: %s" % names
    return ""
def keys(o):
    return sorted(o.keys())
def same_keys(s, j):
    """The keys where two start blocks differ (nested objects by their keys)."""
    return [k for k in sorted(set(s) | set(j)) if k not in s or k not in j or
            (isinstance(j[k], dict) and keys(s[k]) != keys(j[k])) or
            (isinstance(j[k], list) and j[k] and keys(s[k][0]) != keys(j[k][0]))]
# keys iperf3 added after 3.12 (3.21's iperf_api.c: on_test_start, connect_msg)
NEWER = {"fq_rate", "target_bitrate"}
NEWER_TS = {"bidir", "fqrate", "interval", "gso", "gro"}
def not_in_312(s, i3):
    print("# iperf3 3.12's start keys linerate has not: %s" % [k for k in keys(i3) if k not in s])
    return [k for k in keys(s) if k not in i3 and k not in NEWER] + \
        ["test_start." + k for k in keys(s["test_start"])
         if k not in i3["test_start"] and k not in NEWER_TS]
def isum(ev):
    return sum(e["data"]["sum"]["bytes"] for e in ev if e["event"] == "interval")
def run(name, f):
    try:
        verdict(name, f())
    except Exception as e:
        verdict(name, "%s: %s" % (type(e).__name__, e))
$code
PY
)
	grep '^#' <<<"$out"
	while read -r line; do
		set -- $line
		case "$line" in
		"V "*" ok") pass "$2" ;;
		"V "*) fail "$2" "${line#V $2 }" ;;
		esac
	done <<<"$out"
	grep -qv '^[#V]' <<<"$out" && grep -v '^[#V]' <<<"$out" | sed 's/^/# python: /' | tail -n 3
	return 0
}

# --- linerate client -> linerate server -------------------------------------------------------
if srv_start "$tmp/s1.out" "$LR_BIN" -s -p "$port"; then
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 -P 2 --json-stream >"$tmp/c1.jsl" 2>"$tmp/c1.err"
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -P 2 -J >"$tmp/c1.json" 2>/dev/null
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 --bidir --json-stream >"$tmp/c1b.jsl" 2>/dev/null
	srv_stop
	judge '
ev = events(sys.argv[1])
run("lrc-lrs-events", lambda: shape(ev))
def start_keys():
    s, j = ev[0]["data"], load(sys.argv[2])["start"]
    print("# stream start: %s" % keys(s))
    bad = same_keys(s, j)
    return "start differs from -J start in %s" % bad if bad else \
        "" if len(s["connected"]) == 2 else "not 2 streams connected"
run("lrc-lrs-start-keys", start_keys)
def sums():
    end = ev[-1]["data"]
    iv, sent, rcvd = isum(ev), end["sum_sent"]["bytes"], end["sum_received"]["bytes"]
    print("# intervals %d, end sum_sent %d, the server received %d" % (iv, sent, rcvd))
    return "" if iv == sent and abs(rcvd - sent) <= 131072 else "intervals do not add up"
run("lrc-lrs-sums", sums)
def bidir():
    b = events(sys.argv[3]); end = b[-1]["data"]
    iv = [e["data"] for e in b if e["event"] == "interval"]
    up, down = sum(x["sum"]["bytes"] for x in iv), sum(x["sum_bidir_reverse"]["bytes"] for x in iv)
    print("# --bidir: intervals up %d down %d, end sum_sent %d, sum_received_bidir_reverse %d"
          % (up, down, end["sum_sent"]["bytes"], end["sum_received_bidir_reverse"]["bytes"]))
    return "" if up == end["sum_sent"]["bytes"] and down == end["sum_received_bidir_reverse"]["bytes"] \
        and up > 0 and down > 0 else "--bidir intervals do not add up per direction"
run("lrc-lrs-bidir-sums", bidir)
def bidir_ledgers():
    # --bidir: one loss ledger per direction, each its own event before "end", as -J names them
    b = events(sys.argv[3])
    led = {e["event"]: e["data"] for e in b if e["event"].startswith("linerate_ledger")}
    dirs = [led.get(k, {}).get("direction")
            for k in ("linerate_ledger", "linerate_ledger_bidir_reverse")]
    print("# --bidir ledger events: %s" % dirs)
    return "" if dirs == ["up", "down"] and b[-1]["event"] == "end" else \
        "no ledger per direction: %s" % dirs
run("lrc-lrs-bidir-ledgers", bidir_ledgers)
def ours():
    # -J carries linerate_verdict, linerate_ledger, linerate_cycles and linerate_peer: the stream
    # carries them as events, with the same keys, the peer (the receiving server) witnessing at
    # least what was sent
    got = {e["event"]: e["data"] for e in ev if e["event"].startswith("linerate_")}
    j, sent = load(sys.argv[2]), ev[-1]["data"]["sum_sent"]["bytes"]
    print("# linerate events: %s" % sorted(got))
    for k in ("linerate_verdict", "linerate_ledger", "linerate_cycles", "linerate_peer"):
        if k not in got:
            return "no %s event" % k
        if keys(got[k]) != keys(j[k]):
            return "%s keys differ from -J: %s" % (k, sorted(set(got[k]) ^ set(j[k])))
    p = got["linerate_peer"]
    rx = sum(i["rx_bytes"] for i in p["interfaces"])
    print("# peer %s: complete %s, rx_bytes %d, client sent %d" % (p["role"], p["complete"], rx, sent))
    return "" if p["role"] == "receiver" and p["complete"] and rx >= sent else \
        "the peer event does not witness the test"
run("lrc-lrs-linerate-events", ours)' "$tmp/c1.jsl" "$tmp/c1.json" "$tmp/c1b.jsl"
else
	for c in lrc-lrs-events lrc-lrs-start-keys lrc-lrs-sums lrc-lrs-bidir-sums \
		lrc-lrs-bidir-ledgers lrc-lrs-linerate-events; do fail $c "linerate -s did not listen"; done
fi

# --- linerate client -> iperf3 server --------------------------------------------------------
port=$((port + 1))
if [ -z "$have_i3" ]; then
	for c in lrc-i3s-events lrc-i3s-start-keys-312 lrc-i3s-sums lrc-bidir-interval-keys-312; do
		skip $c "iperf3 not installed"; done
elif srv_start "$tmp/s2.json" iperf3 -s -1 -J -p "$port"; then
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 --json-stream >"$tmp/c2.jsl" 2>"$tmp/c2.err"
	wait "$spid"
	srv_start "$tmp/s2b.json" iperf3 -s -1 -p "$port"
	iperf3 -c 127.0.0.1 -p "$port" -t 1 --bidir -J >"$tmp/i3c.json" 2>/dev/null	# iperf3's client -J
	wait "$spid"
	judge '
ev = events(sys.argv[1])
run("lrc-i3s-events", lambda: shape(ev))
def k312():
    s, i3 = ev[0]["data"], load(sys.argv[2])["start"]
    bad = not_in_312(s, i3)
    lack = [k for k in keys(i3) if k not in s]
    # the same loopback, the same defaults: iperf3 reads the same numbers
    diff = [k for k in ("tcp_mss_default", "sndbuf_actual", "rcvbuf_actual", "sock_bufsize")
            if s.get(k) != i3.get(k)]
    for k in ("tcp_mss_default", "sndbuf_actual", "rcvbuf_actual"):
        print("# %s: linerate %s, iperf3 3.12 %s" % (k, s.get(k), i3.get(k)))
    return "keys iperf3 3.12 (or later) does not have: %s" % bad if bad else \
        "iperf3 3.12 client keys missing: %s" % lack if lack else \
        "values differ from iperf3 3.12: %s" % diff if diff else ""
run("lrc-i3s-start-keys-312", k312)
def sums():
    iv, sent = isum(ev), ev[-1]["data"]["sum_sent"]["bytes"]
    got = load(sys.argv[3])["end"]["sum_received"]["bytes"]
    print("# intervals %d, end sum_sent %d, iperf3 -s received %d" % (iv, sent, got))
    return "" if iv == sent and abs(iv - got) <= 131072 else "intervals do not add up to what iperf3 received"
run("lrc-i3s-sums", sums)
def bidir_keys():
    mine = [e["data"] for e in events(sys.argv[4]) if e["event"] == "interval"][0]
    i3 = load(sys.argv[2])["intervals"][0]
    # per-stream TCP_INFO (rtt, snd_cwnd, pmtu, ...) only iperf3 has: the sums are compared
    bad = [k for k in ("sum", "sum_bidir_reverse") if k not in mine or keys(mine[k]) != keys(i3[k])]
    return "interval %s keys differ from iperf3 3.12 --bidir -J" % bad if bad else ""
run("lrc-bidir-interval-keys-312", bidir_keys)' "$tmp/c2.jsl" "$tmp/i3c.json" "$tmp/s2.json" "$tmp/c1b.jsl"
else
	for c in lrc-i3s-events lrc-i3s-start-keys-312 lrc-i3s-sums lrc-bidir-interval-keys-312; do
		fail $c "iperf3 -s did not listen"; done
fi

# --- iperf3 client -> linerate -s --json-stream (and -J, and iperf3 -s -J, for the keys) ------
port=$((port + 1))
if [ -z "$have_i3" ]; then
	for c in lrs-i3c-events lrs-i3c-start-keys lrs-i3c-start-keys-312 lrs-i3c-sums \
		lrs-udp-reverse-sums; do skip $c "iperf3 not installed"; done
elif srv_start "$tmp/s3.jsl" "$LR_BIN" -s -p "$port" --json-stream; then
	iperf3 -c 127.0.0.1 -p "$port" -t 2 -P 2 -J >"$tmp/c3.json" 2>&1
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 -u -b 10M -R >/dev/null 2>&1
	sleep 0.2	# the second test's end event
	srv_stop
	srv_start "$tmp/s3.json" "$LR_BIN" -s -1 -p "$port" -J
	iperf3 -c 127.0.0.1 -p "$port" -t 1 -P 2 >/dev/null 2>&1
	wait "$spid"
	srv_start "$tmp/s312.json" iperf3 -s -1 -J -p "$port"
	iperf3 -c 127.0.0.1 -p "$port" -t 1 >/dev/null 2>&1
	wait "$spid"
	judge '
ev = events(sys.argv[1])
ends = [i for i, e in enumerate(ev) if e["event"] == "end"]
a, b = (ev[:ends[0] + 1], ev[ends[0] + 1:]) if ends else (ev, [])
run("lrs-i3c-events", lambda: shape(a) or shape(b))
def start_keys():
    s, j = a[0]["data"], load(sys.argv[2])["start"]
    print("# server stream start: %s" % keys(s))
    bad = same_keys(s, j)
    return "start differs from linerate -s -J start in %s" % bad if bad else ""
run("lrs-i3c-start-keys", start_keys)
def k312():
    bad = not_in_312(a[0]["data"], load(sys.argv[3])["start"])
    return "keys iperf3 3.12 -s (or later) does not have: %s" % bad if bad else ""
run("lrs-i3c-start-keys-312", k312)
def sums():
    iv, end = isum(a), a[-1]["data"]["sum_received"]["bytes"]
    sent = load(sys.argv[4])["end"]["sum_sent"]["bytes"]
    print("# server intervals %d, its end sum_received %d, iperf3 -c sent %d" % (iv, end, sent))
    return "" if iv == end and abs(iv - sent) <= 131072 else "intervals do not add up"
run("lrs-i3c-sums", sums)
def udp():
    iv, end = isum(b), b[-1]["data"]["sum_sent"]["bytes"]
    print("# server (sending, UDP) intervals %d, its end sum_sent %d" % (iv, end))
    return "" if end > 0 and iv == end else "intervals do not add up"
run("lrs-udp-reverse-sums", udp)' "$tmp/s3.jsl" "$tmp/s3.json" "$tmp/s312.json" "$tmp/c3.json"
else
	for c in lrs-i3c-events lrs-i3c-start-keys lrs-i3c-start-keys-312 lrs-i3c-sums \
		lrs-udp-reverse-sums; do fail $c "linerate -s --json-stream did not listen"; done
fi

# --- a failed test: "error" then "end", as iperf3 (no start: nothing ran) -------------------
port=$((port + 1))
"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 --json-stream --connect-timeout 500 \
	>"$tmp/e.jsl" 2>/dev/null
rc=$?
judge '
def err():
    ev = events(sys.argv[1]); names = [e["event"] for e in ev]
    print("# exit %s, events %s, error %r" % (sys.argv[2], names, ev[0]["data"] if ev else None))
    return "" if sys.argv[2] == "1" and names == ["error", "end"] and \
        isinstance(ev[0]["data"], str) else "not error then end"
run("lrc-error-events", err)' "$tmp/e.jsl" "$rc"
lr_summary
