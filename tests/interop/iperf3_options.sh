#!/usr/bin/env bash
# iperf3's options carried over (issue 10, docs/design.md §9), each against Debian's iperf3 on loopback
# and judged by a witness that does not take linerate's word: iperf3's own -J report, the
# kernel's socket options (tests/tools/sockpeek: getsockopt on the other process's sockets),
# the system calls (strace), the wall clock. Every check would fail if the option were ignored.
. "$(dirname "$0")/../lib.sh"
lr_plan iperf3_options "server-output-text server-output-json lrs-json-report lrc-server-output \
lrc-sockopts i3-honours-lrc-params lrs-honours-i3-params lrs-udp-dont-fragment lrs-udp-gro \
dscp-name lrs-no-gso \
bytes-lrc bytes-i3c-R blocks-i3c-udp blocks-lrc udp-64bit-lrc udp-64bit-i3c extra-data \
family-6 family-4 zerocopy skip-rx-copy-server repeating-payload-lrc repeating-payload-server \
idle-timeout bitrate-limit-asked bitrate-limit-running json-stream"
need_root iperf3_options	# pidfd_getfd on another process's sockets
command -v iperf3 >/dev/null || { lr_skip_plan iperf3_options "iperf3 not installed"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan iperf3_options "python3 not installed"; exit 0; }
PEEK=$(dirname "$LR_BIN")/tools/sockpeek
[ -x "$LR_BIN" ] && [ -x "$PEEK" ] || { lr_skip_plan iperf3_options "$LR_BIN or sockpeek not built"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
port=$((20000 + RANDOM % 20000))
have_strace=$(command -v strace)

wait_listen() { lr_wait_listen "$1" "" 60; }	# wait_listen PORT: up to 3 s, on loopback
next_port() { port=$((port + 1)); }

# judge NAME PYTHON FILES...: the python prints "# notes" and last "ok" or why not.
judge() {
	local name=$1 code=$2 out; shift 2
	out=$(python3 - "$@" 2>&1 <<PY
import json, sys
def load(f):
    return json.load(open(f))
$code
PY
)
	grep '^#' <<<"$out"
	if [ "$(grep -v '^#' <<<"$out" | tail -n1)" = ok ]; then pass "$name"
	else fail "$name" "$(grep -v '^#' <<<"$out" | tail -n1)"; fi
}

# srv_start CMD...: a server on $port in the background ($spid), its stdout in $tmp/srv.out
srv_start() {
	"$@" >"$tmp/srv.out" 2>"$tmp/srv.err" &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen "$port"
}
srv_stop() { kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; }

# --- --get-server-output and linerate -s's own report -------------------------------------
next_port
if srv_start "$LR_BIN" -s -p "$port"; then
	iperf3 -c 127.0.0.1 -p "$port" -t 1 -J --get-server-output >"$tmp/gso.json" 2>&1
	judge server-output-text '
c = load(sys.argv[1]); t = c.get("server_output_text", "")
print("# %d chars" % len(t))
print("ok" if "Accepted connection" in t and "receiver" in t else "no server_output_text: %r" % t[:80])' "$tmp/gso.json"
	srv_stop
fi
next_port
if srv_start "$LR_BIN" -s -p "$port" -J; then
	iperf3 -c 127.0.0.1 -p "$port" -t 2 -J --get-server-output >"$tmp/gsoj.json" 2>&1
	iperf3 -c 127.0.0.1 -p "$port" -t 2 -R -J >"$tmp/lrsj2.json" 2>&1
	srv_stop
	judge server-output-json '
c = load(sys.argv[1]); s = c.get("server_output_json")
if not isinstance(s, dict): print("no server_output_json object"); sys.exit()
a = c["end"]["sum_sent"]["bytes"]; b = s["end"]["sum_received"]["bytes"]
print("# iperf3 sent %d, the server report received %d" % (a, b))
print("ok" if a > 0 and abs(a - b) <= a / 100 else "disagree")' "$tmp/gsoj.json"
	# linerate -s -J: one document per test; its intervals add up to what the iperf3 client
	# reports the server received / sent
	judge lrs-json-report '
import re
docs = []; dec = json.JSONDecoder(); txt = open(sys.argv[1]).read().strip(); i = 0
while i < len(txt):
    d, i = dec.raw_decode(txt, i); docs.append(d)
    while i < len(txt) and txt[i].isspace(): i += 1
if len(docs) != 2: print("%d documents for 2 tests" % len(docs)); sys.exit()
for d, f, key in ((docs[0], sys.argv[2], "sum_received"), (docs[1], sys.argv[3], "sum_sent")):
    c = load(f)
    iv = sum(x["sum"]["bytes"] for x in d["intervals"] if not x["sum"]["omitted"])
    mine = d["end"][key]["bytes"]; theirs = c["end"][key]["bytes"]
    print("# %s: intervals %d, server end %d, iperf3 client %d" % (key, iv, mine, theirs))
    if "accepted_connection" not in d["start"] or len(d["intervals"]) < 2 or iv != mine or mine != theirs:
        print("%s does not add up" % key); sys.exit()
print("ok")' "$tmp/srv.out" "$tmp/gsoj.json" "$tmp/lrsj2.json"
fi
next_port
if srv_start iperf3 -s -1 -p "$port"; then
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -J --get-server-output >"$tmp/lgso.json" 2>"$tmp/lgso.err"
	srv_stop
	judge lrc-server-output '
c = load(sys.argv[1]); t = c.get("server_output_text", "")
print("ok" if "receiver" in t and "Accepted connection" in t else "no server_output_text from iperf3: %r" % t[:80])' "$tmp/lgso.json"
fi

# --- socket options, seen by the kernel ---------------------------------------------------
peek_during() {	# peek_during OUT PEEKPID CLIENT...: sockpeek PEEKPID 1 s into the client's run
	local out=$1 pp=$2; shift 2
	"$@" >"$tmp/$out.client" 2>&1 &
	local cp=$!
	sleep 1
	[ "$pp" = client ] && pp=$cp
	"$PEEK" "$pp" "$port" >"$tmp/$out.peek" 2>&1
	wait $cp
}
next_port
cport=$((port + 20000 > 65000 ? port - 10000 : port + 20000))
if srv_start iperf3 -s -1 -p "$port"; then
	peek_during lrc client "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 -P 2 -N -S 0x10 \
		--fq-rate 50M --cport "$cport" --cntl-ka=7/3/4 --dont-fragment
	cat "$tmp/lrc.peek"
	check lrc-sockopts sh -c "grep -c 'local=$cport .*nodelay=1 tos=16 .*maxpacing=6250000 pmtudisc=2' $tmp/lrc.peek | grep -q 1 &&
		grep -q 'local=$((cport + 1)) .*nodelay=1 tos=16 .*maxpacing=6250000' $tmp/lrc.peek &&
		grep -q 'keepalive=1 keepidle=7 keepintvl=3 keepcnt=4' $tmp/lrc.peek"
	srv_stop
fi
next_port
if srv_start iperf3 -s -1 -p "$port"; then	# iperf3 applies what linerate's params asked
	peek_during i3p "$spid" "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 -N -S 0x10 --fq-rate 50M
	cat "$tmp/i3p.peek"
	check i3-honours-lrc-params grep -q 'nodelay=1 tos=.* tclass=16 maxpacing=6250000' "$tmp/i3p.peek"
	srv_stop
fi
next_port
if srv_start "$LR_BIN" -s -p "$port"; then	# linerate -s applies what iperf3's params asked
	peek_during lrsp "$spid" iperf3 -c 127.0.0.1 -p "$port" -t 2 -N -S 0x20 --fq-rate 40M
	cat "$tmp/lrsp.peek"
	check lrs-honours-i3-params grep -q 'nodelay=1 tos=32 tclass=32 maxpacing=5000000' "$tmp/lrsp.peek"
	peek_during lrsdf "$spid" iperf3 -c 127.0.0.1 -p "$port" -t 2 -u -b 1M --dont-fragment
	cat "$tmp/lrsdf.peek"
	check lrs-udp-dont-fragment grep -q '^udp .*pmtudisc=2' "$tmp/lrsdf.peek"
	check lrs-udp-gro grep -q '^udp .*gro=1$' "$tmp/lrsdf.peek"	# the receiver's default path
	peek_during dscp client "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 --dscp EF
	check dscp-name grep -q 'tos=184' "$tmp/dscp.peek"
	srv_stop
fi
next_port
if srv_start "$LR_BIN" -s --no-gso -p "$port"; then	# the server's own --no-gso: plain recvmmsg
	peek_during lrsng "$spid" iperf3 -c 127.0.0.1 -p "$port" -t 2 -u -b 1M
	cat "$tmp/lrsng.peek"
	check lrs-no-gso sh -c "grep -q '^udp ' $tmp/lrsng.peek && ! grep -q '^udp .*gro=1' $tmp/lrsng.peek"
	srv_stop
fi

# --- -n / -k: the count ends the test, exactly (iperf3's own count) ---------------------
next_port
if srv_start iperf3 -s -1 -J -p "$port"; then
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -n 50M -J >"$tmp/n.json" 2>&1
	srv_stop
	judge bytes-lrc '
s = load(sys.argv[1])["end"]["sum_received"]["bytes"]; print("# iperf3 received %d" % s)
print("ok" if s == 50 * 2**20 else "iperf3 received %d, not 50M" % s)' "$tmp/srv.out"
fi
next_port
if srv_start iperf3 -s -1 -J -p "$port"; then
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -k 100 -l 64K -J >"$tmp/k.json" 2>&1
	srv_stop
	judge blocks-lrc '
s = load(sys.argv[1])["end"]["sum_received"]["bytes"]; print("# iperf3 received %d" % s)
print("ok" if s == 100 * 65536 else "iperf3 received %d, not 100 x 64K" % s)' "$tmp/srv.out"
fi
next_port
if srv_start "$LR_BIN" -s -p "$port"; then
	timeout 20 iperf3 -c 127.0.0.1 -p "$port" -n 50M -R -J >"$tmp/nR.json" 2>&1
	judge bytes-i3c-R '
e = load(sys.argv[1])["end"]; r = e["sum_received"]["bytes"]; print("# iperf3 received %d" % r)
print("ok" if r == 50 * 2**20 else "iperf3 received %d, not 50M" % r)' "$tmp/nR.json"
	timeout 20 iperf3 -c 127.0.0.1 -p "$port" -k 300 -u -l 1000 -b 10M -J >"$tmp/k3.json" 2>&1
	judge blocks-i3c-udp '
# the witness is the count the iperf3 client sent: 3.12 stops at the 300th block; 3.16+ checks
# -k in its main loop only and overshoots it (3.21 against itself: ~12500 blocks at 100M, its first second)
e = load(sys.argv[1])["end"]; s = e["sum"]; sent = e["sum_sent"]["packets"] if "sum_sent" in e else s["packets"]
print("# %r, iperf3 sent %d" % (s, sent))
v = load(sys.argv[1])["start"]["version"]; old = int(v.split(".")[1].split()[0]) < 16
# what linerate -s received: 3.16+ carries it as sum_received; 3.12 as the lost count beside it
recv = e["sum_received"]["packets"] if "sum_received" in e else s["packets"] - s["lost_packets"]
print("ok" if recv == sent and s["lost_packets"] == 0 and (sent == 300 or not old)
      else "not every datagram iperf3 sent (%d) arrived, or not 300 from a 3.12 client" % sent)' "$tmp/k3.json"
	# --udp-counters-64bit: a server reading 32-bit sequence numbers would count losses
	timeout 20 iperf3 -c 127.0.0.1 -p "$port" -u -b 20M -l 1400 -t 1 --udp-counters-64bit -J >"$tmp/u64.json" 2>&1
	judge udp-64bit-i3c '
s = load(sys.argv[1])["end"]["sum"]; print("# %r" % s)
print("ok" if s["packets"] > 100 and s["lost_packets"] == 0 else "losses: the server read 32-bit sequences")' "$tmp/u64.json"
	srv_stop
fi
next_port
if srv_start iperf3 -s -1 -J -p "$port"; then
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -u -b 20M -l 1400 --udp-counters-64bit \
		--extra-data "hello parity" -J >"$tmp/lu64.json" 2>&1
	srv_stop
	judge udp-64bit-lrc '
s = load(sys.argv[1])["end"]["sum"]; print("# %r" % s)
print("ok" if s["packets"] > 100 and s["lost_packets"] == 0 else "iperf3 counted losses")' "$tmp/srv.out"
	judge extra-data '
print("ok" if load(sys.argv[1]).get("extra_data") == "hello parity" else "iperf3 did not get it")' "$tmp/srv.out"
fi
# -6 reaches iperf3 over ::1; -4 refuses an IPv6-only name (ignored, it would connect)
next_port
if srv_start iperf3 -s -1 -J -p "$port"; then
	"$LR_BIN" -c ::1 -p "$port" --headless -t 1 -6 >/dev/null 2>&1
	srv_stop
	judge family-6 "
h = load(sys.argv[1])['start']['accepted_connection']['host']; print('# iperf3 accepted %s' % h)
print('ok' if h == '::1' else 'not over ::1')" "$tmp/srv.out"
fi
"$LR_BIN" -c ::1 -p "$port" --headless -t 1 -4 >/dev/null 2>"$tmp/f4.err"
rc=$?
check family-4 sh -c "[ $rc -ne 0 ] && grep -q 'cannot resolve ::1' $tmp/f4.err"

# --- data paths, seen in the system calls --------------------------------------------------
if [ -n "$have_strace" ]; then
	next_port
	if srv_start iperf3 -s -1 -p "$port"; then
		strace -f -qq -e trace=sendfile,sendto,sendmsg -o "$tmp/z.strace" \
			"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -Z >/dev/null 2>&1
		srv_stop
		check zerocopy grep -Eq 'sendfile\(|MSG_ZEROCOPY' "$tmp/z.strace"
	fi
	next_port
	strace -f -qq -s 16 -e trace=recvfrom,sendto -o "$tmp/srv.strace" \
		"$LR_BIN" -s -p "$port" >/dev/null 2>&1 &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	if wait_listen "$port"; then
		"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 --skip-rx-copy >/dev/null 2>&1
		iperf3 -c 127.0.0.1 -p "$port" -t 1 -R --repeating-payload >/dev/null 2>&1
		sleep 0.3
		check skip-rx-copy-server grep -q 'MSG_TRUNC' "$tmp/srv.strace"
		check repeating-payload-server grep -q 'sendto(.*"0123456789012345"' "$tmp/srv.strace"
	fi
	# strace stays while its child runs: the server goes first (its PID, found by parent)
	kill "$(ps -o pid= --ppid "$spid")" 2>/dev/null
	srv_stop
	next_port
	if srv_start iperf3 -s -1 -p "$port"; then
		strace -f -qq -s 16 -e trace=sendto -o "$tmp/rp.strace" \
			"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 --repeating-payload >/dev/null 2>&1
		srv_stop
		check repeating-payload-lrc grep -q 'sendto(.*"0123456789012345"' "$tmp/rp.strace"
	fi
else
	for n in zerocopy skip-rx-copy-server repeating-payload-server repeating-payload-lrc; do
		skip "$n" "strace not installed"
	done
fi

# --- server-only options ---------------------------------------------------------------------
next_port
t0=$(date +%s.%N)
timeout 10 "$LR_BIN" -s -1 -p "$port" --idle-timeout 1 >/dev/null 2>&1
rc=$?
el=$(python3 -c "import time; print(round(time.time() - $t0, 2))")
echo "# --idle-timeout 1 with -1: exit $rc after $el s"
check idle-timeout python3 -c "import sys; sys.exit(0 if $rc == 0 and 0.9 <= $el <= 4 else 1)"
next_port
if srv_start "$LR_BIN" -s -p "$port" --server-bitrate-limit 100M/1; then
	iperf3 -c 127.0.0.1 -p "$port" -t 2 -b 500M -J >"$tmp/lim1.json" 2>&1
	judge bitrate-limit-asked '
e = load(sys.argv[1]).get("error", ""); print("# " + e)
print("ok" if "server limit" in e else "iperf3 ran the test")' "$tmp/lim1.json"
	timeout 20 iperf3 -c 127.0.0.1 -p "$port" -t 5 -J >"$tmp/lim2.json" 2>&1
	judge bitrate-limit-running '
e = load(sys.argv[1]).get("error", ""); print("# " + e)
print("ok" if "server limit" in e else "an unlimited test ran past the limit")' "$tmp/lim2.json"
	srv_stop
fi

# --- output -------------------------------------------------------------------------------------
next_port
if srv_start iperf3 -s -1 -J -p "$port"; then
	"$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 --json-stream >"$tmp/js.out" 2>&1
	srv_stop
	judge json-stream '
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
names = [e["event"] for e in ev]; print("# events: %s" % " ".join(names))
s = load(sys.argv[2])["end"]["sum_received"]["bytes"]
iv = sum(e["data"]["sum"]["bytes"] for e in ev if e["event"] == "interval")
end = ev[-1]["data"]["sum_sent"]["bytes"] if names and names[-1] == "end" else -1
print("# intervals %d, end %d, iperf3 received %d" % (iv, end, s))
ok = names[0] == "start" and names.count("interval") >= 2 and iv == end and abs(end - s) <= s / 100
print("ok" if ok else "stream does not add up")' "$tmp/js.out" "$tmp/srv.out"
fi
