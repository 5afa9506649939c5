#!/usr/bin/env bash
# `linerate -s` against hostile and broken peers on 127.0.0.1: silent connections, garbage
# cookies, a 4 GiB length prefix, truncated and ill-typed params, garbage state bytes, clients
# vanishing mid-test, a flood of 200 connections. Each must end only its own attempt; a real
# iperf3 client still completes promptly, the server never exits, and its fd count returns to
# where it started. No root needed.
. "$(dirname "$0")/../lib.sh"
command -v iperf3 >/dev/null || { skip server_hostile "iperf3 not installed"; exit 0; }
command -v python3 >/dev/null || { skip server_hostile "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { skip server_hostile "$LR_BIN not built"; exit 0; }

PORT=$((20000 + RANDOM % 20000))
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
"$LR_BIN" -s -p "$PORT" -B 127.0.0.1 >"$tmp/out" 2>"$tmp/err" &
SPID=$!
lr_cleanup_add "kill $SPID 2>/dev/null"
lr_wait_listen "$PORT" "" 60
fds() { ls /proc/$SPID/fd 2>/dev/null | wc -l; }
alive() { kill -0 $SPID 2>/dev/null; }
FD0=$(fds)

real_client() {	# real_client NAME [iperf3 args]: a 1 s test must pass within 8 s
	local name=$1 t0 rc; shift
	t0=$(date +%s%N)
	timeout 8 iperf3 -c 127.0.0.1 -p "$PORT" -t 1 "$@" >"$tmp/i3.txt" 2>&1; rc=$?
	if [ $rc -eq 0 ]; then
		pass "$name ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
	else
		fail "$name" "iperf3 rc=$rc: $(grep -m1 -i error "$tmp/i3.txt")"
	fi
}

# The hostile peers. Each prints "ok WHAT" or "bad WHAT".
hostile() {
	python3 - "$PORT" "$@" <<'PY'
import json, os, socket, struct, sys, time
port, what = int(sys.argv[1]), sys.argv[2]
COOKIE = b"abcdefghijklmnopqrstuvwxyz2345671234\0"

def conn():
    s = socket.create_connection(("127.0.0.1", port), timeout=15)
    return s

def closed_within(s, secs):
    """True when the server closes s (EOF/RST) within secs; bytes before it are skipped."""
    s.settimeout(secs)
    t0 = time.time()
    try:
        while time.time() - t0 < secs:
            b = s.recv(4096)
            if not b:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
    return False

def rd(s, n):
    b = b""
    while len(b) < n:
        x = s.recv(n - len(b))
        if not x:
            raise EOFError
        b += x
    return b

def start_test(params):
    s = conn(); s.sendall(COOKIE)
    assert rd(s, 1) == b"\x09"
    j = json.dumps(params, separators=(",", ":")).encode()
    s.sendall(struct.pack(">I", len(j)) + j)
    return s

def report(ok, msg):
    print(("ok " if ok else "bad ") + msg); sys.stdout.flush()

if what == "garbage-cookie":
    s = conn(); s.sendall(os.urandom(37))
    report(closed_within(s, 2), what)
elif what == "huge-length":
    s = conn(); s.sendall(COOKIE)
    ok = rd(s, 1) == b"\x09"
    s.sendall(b"\xff\xff\xff\xff")
    report(ok and closed_within(s, 2), what)
elif what == "truncated-vanish":
    s = conn(); s.sendall(COOKIE); rd(s, 1)
    s.sendall(b"\x00\x00\x00\x64{\"tcp\":tr"); s.shutdown(socket.SHUT_WR)
    # the peer sees the server end the attempt once the params stop short (EOF)
    report(closed_within(s, 3), what + ": server closed after params stopped short")
    s.close()
elif what == "bad-types":
    s = start_test({"tcp": True, "parallel": "4", "time": 1})
    b = b""
    try:
        s.settimeout(3)
        while True:
            x = s.recv(16)
            if not x: break
            b += x
    except (socket.timeout, ConnectionResetError):
        pass
    report(b[:1] == b"\xfe", what + " reply=" + b.hex())
elif what == "slow-params":
    # cookie then half a message, then silence: the server gives up after 10 s; meanwhile a
    # second client is told the server is busy, at once.
    s = conn(); s.sendall(COOKIE); rd(s, 1)
    s.sendall(b"\x00\x00\x00\x64{")
    t0 = time.time()
    b = conn(); b.settimeout(2)
    busy = b.recv(1) == b"\xff"
    report(busy, "busy-reply")
    closed = closed_within(s, 13)
    dt = time.time() - t0
    report(closed and 8 <= dt <= 13, f"slow-params closed after {dt:.1f} s")
elif what in ("garbage-state", "vanish"):
    s = start_test({"tcp": True, "omit": 0, "time": 5, "parallel": 1, "len": 131072})
    assert rd(s, 1) == b"\x0a"
    d = conn(); d.sendall(COOKIE)
    assert rd(s, 2) == b"\x01\x02"
    d.sendall(b"x" * 100000)
    if what == "garbage-state":
        s.sendall(b"\x55")
        report(closed_within(s, 2), what)
    else:
        # the peer vanishes (RST) and can see nothing more: the shell checks the server's
        # fds instead (fd_released)
        for x in (s, d):
            x.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            x.close()
elif what == "flood":
    socks = []
    for i in range(200):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError as e:
            pass
    report(len(socks) >= 150, f"flood opened {len(socks)}")
    time.sleep(float(sys.argv[3]))
    for x in socks: x.close()
elif what == "silent":
    # only occupies the server while a real client tests (with-silent-peers)
    socks = [conn() for i in range(5)]
    time.sleep(float(sys.argv[3]))
PY
}

check_hostile() {	# check_hostile NAME ARGS...: every "ok"/"bad" line becomes PASS/FAIL
	local name=$1; shift
	judge_lines "$name" < <(hostile "$@" 2>&1)
}
judge_lines() {	# judge_lines NAME <LINES: a hostile peer's "ok"/"bad" lines as PASS/FAIL
	local line
	while read -r line; do
		case $line in
		ok*) pass "$1: ${line#ok }" ;;
		bad*) fail "$1" "${line#bad }" ;;
		*) fail "$1" "$line" ;;
		esac
	done
}

# fd_released NAME FDS_BEFORE: the kernel's view of the server (/proc/PID/fd) is back to no
# more fds than before the attempt, within 3 s: the server ended that attempt.
fd_released() {
	local i n
	for ((i = 0; i < 60; i++)); do n=$(fds); [ "$n" -le "$2" ] && break; sleep 0.05; done
	if [ "$n" -le "$2" ]; then
		pass "$1: server released the attempt's sockets (fds $2 before, $n after)"
	else
		fail "$1" "server holds $n fds 3 s after, $2 before the attempt"
	fi
}

# slow-params waits out the server's 10 s params timeout: against a second server of its own,
# meanwhile (the first serves every other case); that server is then checked as the first is:
# it serves a real client, holds no fd more than before, and ends on SIGTERM.
PORT2=$((PORT + 1))
"$LR_BIN" -s -p "$PORT2" -B 127.0.0.1 >"$tmp/out2" 2>"$tmp/err2" &
SPID2=$!
lr_cleanup_add "kill $SPID2 2>/dev/null"
lr_wait_listen "$PORT2" "" 60
FD2=$(ls /proc/$SPID2/fd 2>/dev/null | wc -l)
PORT=$PORT2 hostile slow-params >"$tmp/slow" 2>&1 & SLOWPID=$!

real_client baseline
hostile silent 6 >/dev/null & HPID=$!
sleep 0.3
real_client with-silent-peers
check_hostile garbage-cookie garbage-cookie
check_hostile huge-length huge-length
pre=$(fds)
check_hostile truncated-vanish truncated-vanish
fd_released truncated-vanish "$pre"
real_client after-truncated
check_hostile bad-types bad-types
check_hostile garbage-state garbage-state
real_client after-garbage-state
pre=$(fds)
check_hostile vanish vanish
fd_released vanish "$pre"
real_client after-vanish -P 2
hostile flood 4 >"$tmp/flood" 2>&1 & FPID=$!
# its connections opened (it says so, then holds them 4 s)
for ((i = 0; i < 100; i++)); do [ -s "$tmp/flood" ] && break; sleep 0.05; done
real_client during-flood
wait $FPID; grep -q '^ok' "$tmp/flood" && pass "flood: $(cat "$tmp/flood")" || fail flood "$(cat "$tmp/flood")"
wait $SLOWPID
judge_lines slow-params <"$tmp/slow"
PORT=$PORT2 real_client after-slow-params
for ((i = 0; i < 60; i++)); do n=$(ls /proc/$SPID2/fd 2>/dev/null | wc -l); [ "$n" -le "$FD2" ] && break; sleep 0.05; done
check "second server: no fd leak ($FD2 -> $n)" test "$n" -eq "$FD2"
kill -TERM $SPID2
for ((i = 0; i < 40; i++)); do kill -0 $SPID2 2>/dev/null || break; sleep 0.05; done
if kill -0 $SPID2 2>/dev/null; then fail "second server: sigterm" "still running 2 s after SIGTERM"
else wait $SPID2; check "second server: sigterm-exit-0" test $? -eq 0; fi
wait $HPID
real_client after-all -u -b 10M
for ((i = 0; i < 60; i++)); do FD1=$(fds); [ "$FD1" -le "$FD0" ] && break; sleep 0.05; done
check server-alive alive
if [ "$FD1" -eq "$FD0" ]; then pass "no fd leak ($FD0 -> $FD1)"; else fail fd-leak "$FD0 -> $FD1: $(ls -l /proc/$SPID/fd | tail -n +2 | head -20)"; fi
kill -TERM $SPID
for ((i = 0; i < 40; i++)); do alive || break; sleep 0.05; done
if alive; then fail sigterm "still running 2 s after SIGTERM"; else wait $SPID; check "sigterm-exit-0" test $? -eq 0; fi
n=$(grep -c . "$tmp/err")
echo "# server log: $n lines"; grep -v 'done:\|accepted' "$tmp/err" | sort | uniq -c | sort -rn | head -12 | sed 's/^/# /'
