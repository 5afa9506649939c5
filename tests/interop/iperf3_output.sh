#!/usr/bin/env bash
# iperf3's output habits carry over (issue 10): -J intervals follow -i and add up to the peer's
# own end count (Debian's iperf3 -s, and linerate -s); -T TITLE prefixes every text line and
# is the JSON's "title"; --timestamps, --logfile, --forceflush, --pidfile and -D as iperf3's;
# --theme is the colour theme now that -T is iperf3's title. Loopback only.
. "$(dirname "$0")/../lib.sh"
lr_plan iperf3_output "json-intervals-i3-tcp json-intervals-i3-tcp-R json-intervals-i3-udp \
json-intervals-lr-tcp json-intervals-lr-tcp-R title-text title-json timestamps logfile \
pidfile daemon title-needs-traffic-mode format-fixed verbose"
command -v iperf3 >/dev/null || { lr_skip_plan "iperf3 not installed"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan "$LR_BIN not built"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
port=$((20000 + RANDOM % 20000))

wait_listen() { lr_wait_listen "$1" "" 60; }	# wait_listen PORT: up to 3 s, on loopback

# intervals NAME CLIENT_JSON SERVER_JSON REPORT_S: the client's intervals are REPORT_S long
# (the last may be shorter), contiguous from 0, and their bytes add up to what the other end
# counted in its own -J output (the receiver's count, or for -R the sender's).
intervals() {
	local out line
	out=$(intervals_py "$@")
	grep '^#' <<<"$out"
	line=$(grep -E '^(PASS|FAIL) ' <<<"$out" | tail -n1)
	case $line in
	"PASS $1") pass "$1" ;;
	*) fail "$1" "${line#FAIL "$1": }" ;;
	esac
}
intervals_py() {
	python3 - "$@" <<'PY'
import json, sys
name, fc, fs, every = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
try:
    c, s = json.load(open(fc)), json.load(open(fs))
except Exception as e:
    print(f"FAIL {name}: cannot read the JSON: {e}"); sys.exit(0)
iv = c.get("intervals", [])
if len(iv) < 2:
    print(f"FAIL {name}: {len(iv)} intervals"); sys.exit(0)
t, errs = 0.0, []
for k, x in enumerate(iv):
    a, b = x["sum"]["start"], x["sum"]["end"]
    if abs(a - t) > 1e-6:
        errs.append(f"interval {k} starts at {a}, not {t}")
    if k < len(iv) - 1 and abs((b - a) - every) > 0.02:
        errs.append(f"interval {k} lasts {b - a:.3f} s, not {every}")
    t = b
total = sum(x["sum"]["bytes"] for x in iv)
rev = c["start"]["test_start"]["reverse"]
udp = c["start"]["test_start"]["protocol"] == "UDP"
se = s["end"]
# the other end's own count: what it received (forward), what it sent (-R)
if rev:
    other = se["sum_sent"]["bytes"] if "sum_sent" in se else se["streams"][0]["udp"]["bytes"]
elif udp:
    other = c["end"]["sum_sent"]["bytes"]	# a UDP sender's own count (the receiver may lose)
else:
    other = se["sum_received"]["bytes"]
# iperf3 3.16+ sends from a thread of its own per stream, and its sender count is read before
# that thread is stopped: a block it sent last can be missing from it (3.21 against itself
# differs by 1 to 35 blocks). Against such a sender the receiver's count may exceed it by one
# block per stream and no more; every other pair is exact.
slack = 0
ver = s.get("start", {}).get("version", "")
if rev and not udp and ver.startswith("iperf 3.") and int(ver.split(".")[1].split()[0]) >= 16:
    slack = c["start"]["test_start"]["blksize"] * c["start"]["test_start"]["num_streams"]
if not 0 <= total - other <= slack:
    errs.append(f"intervals add up to {total}, the other end counted {other}"
                + (f" (allowed: up to {slack} more)" if slack else ""))
print(f"# {name}: {len(iv)} intervals, sum {total}, other end {other}")
print(f"FAIL {name}: " + "; ".join(errs) if errs else f"PASS {name}")
PY
}

# i3pair NAME SERVER(i3|lr) CLIENT_ARGS...: one test on loopback, both ends' -J kept
i3pair() {
	local name=$1 kind=$2; shift 2
	if [ "$kind" = i3 ]; then
		lr_bg iperf3 -s -1 -p "$port" -J >"$tmp/$name.srv.json" 2>/dev/null
	else
		lr_bg "$LR_BIN" -s -1 -p "$port" >/dev/null 2>&1
	fi
	local spid=$LR_PID
	wait_listen "$port" || { fail "$name" "server did not listen"; return; }
	timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -J "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	local rc=$?
	wait "$spid" 2>/dev/null
	[ "$rc" -eq 0 ] || { fail "$name" "client exit $rc: $(head -c 300 "$tmp/$name.err")"; return 1; }
	return 0
}

i3pair json-intervals-i3-tcp i3 -t 2 -i 0.5 &&
	intervals json-intervals-i3-tcp "$tmp/json-intervals-i3-tcp.json" "$tmp/json-intervals-i3-tcp.srv.json" 0.5
i3pair json-intervals-i3-tcp-R i3 -t 2 -R &&
	intervals json-intervals-i3-tcp-R "$tmp/json-intervals-i3-tcp-R.json" "$tmp/json-intervals-i3-tcp-R.srv.json" 1
i3pair json-intervals-i3-udp i3 -t 2 -i 0.25 -u -b 50M &&
	intervals json-intervals-i3-udp "$tmp/json-intervals-i3-udp.json" "$tmp/json-intervals-i3-udp.srv.json" 0.25
# against linerate -s the server's count is in the client's own end block (the results exchange)
for case in tcp tcp-R; do
	args="-t 2 -i 0.5"; [ "$case" = tcp-R ] && args="$args -R"
	# shellcheck disable=SC2086
	i3pair "json-intervals-lr-$case" lr $args &&
		intervals "json-intervals-lr-$case" "$tmp/json-intervals-lr-$case.json" "$tmp/json-intervals-lr-$case.json" 0.5
done

# -T: every text line carries the title; the JSON has it as "title"
lr_bg "$LR_BIN" -s -1 -p "$port" >/dev/null 2>&1; spid=$LR_PID
wait_listen "$port"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -T box7 >"$tmp/title.txt" 2>&1
wait "$spid" 2>/dev/null
n=$(grep -c . "$tmp/title.txt"); bad=$(grep -vc '^box7:  ' "$tmp/title.txt")
check title-text test "$n" -gt 5 -a "$bad" -eq 0
lr_bg "$LR_BIN" -s -1 -p "$port" >/dev/null 2>&1; spid=$LR_PID
wait_listen "$port"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -J -T box7 >"$tmp/title.json" 2>/dev/null
wait "$spid" 2>/dev/null
check title-json python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])).get("title") != "box7")' "$tmp/title.json"

# --timestamps=FORMAT: every line starts with the formatted time
lr_bg "$LR_BIN" -s -1 -p "$port" >/dev/null 2>&1; spid=$LR_PID
wait_listen "$port"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 --timestamps='%Y@' >"$tmp/ts.txt" 2>&1
wait "$spid" 2>/dev/null
bad=$(grep -vcE "^$(date +%Y)@" "$tmp/ts.txt")
check timestamps test "$(grep -c . "$tmp/ts.txt")" -gt 5 -a "$bad" -eq 0

# --logfile: nothing on stdout, the lines in the file (server: its banner too), --forceflush
lr_bg "$LR_BIN" -s -1 -p "$port" --logfile "$tmp/srv.log" >/dev/null 2>&1; spid=$LR_PID
wait_listen "$port"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 --logfile "$tmp/cli.log" --forceflush >"$tmp/cli.out" 2>&1
wait "$spid" 2>/dev/null
check logfile test ! -s "$tmp/cli.out" -a "$(grep -c 'linerate Done' "$tmp/cli.log")" -eq 1 \
	-a "$(grep -c 'Server listening' "$tmp/srv.log")" -eq 1

# --pidfile: our PID while we run, gone after
lr_bg "$LR_BIN" -s -p "$port" --pidfile "$tmp/lr.pid" >/dev/null 2>&1; spid=$LR_PID
wait_listen "$port"
got=$(cat "$tmp/lr.pid" 2>/dev/null)
kill "$spid"; wait "$spid" 2>/dev/null
check pidfile test "$got" = "$spid" -a ! -e "$tmp/lr.pid"

# -D: the server goes to the background (the command returns), serves a test, its pidfile
# names it; ended by that PID
timeout 5 "$LR_BIN" -s -D -p "$port" --pidfile "$tmp/d.pid" --logfile "$tmp/d.log"
drc=$?
wait_listen "$port"
dpid=$(cat "$tmp/d.pid" 2>/dev/null)
[ -n "$dpid" ] && lr_cleanup_add "kill $dpid"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 >"$tmp/d.out" 2>&1
crc=$?
check daemon test "$drc" -eq 0 -a -n "$dpid" -a "$crc" -eq 0 -a "$(grep -c 'linerate Done' "$tmp/d.out")" -eq 1
[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
# its listener must be gone before the next server binds the same port (a server that ends
# stops its threads first: up to a second or two; the next one failed to bind, once)
for ((i = 0; i < 100; i++)); do [ -n "$dpid" ] && [ -e "/proc/$dpid" ] || break; sleep 0.1; done

# -f m: every bitrate in Mbits/sec; -f K: in KBytes/sec (iperf3's units); -V: its extra lines
lr_bg "$LR_BIN" -s -p "$port" >/dev/null 2>&1; spid=$LR_PID
wait_listen "$port"
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -f m >"$tmp/fm.txt" 2>&1
timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 1 -f K -V >"$tmp/fK.txt" 2>&1
kill "$spid"; wait "$spid" 2>/dev/null
rates() { grep -oE '[0-9.]+ [KMGT]?(bits|Bytes)/sec' "$1" | awk '{print $2}' | sort -u | tr '\n' ' '; }
check format-fixed test "$(rates "$tmp/fm.txt")" = "Mbits/sec " -a "$(rates "$tmp/fK.txt")" = "KBytes/sec "
check verbose test -n "$(grep '^Starting Test: protocol: TCP' "$tmp/fK.txt")" \
	-a -n "$(grep '^Test Complete. Summary Results:' "$tmp/fK.txt")" -a -z "$(grep 'Starting Test' "$tmp/fm.txt")"

# -T shapes iperf3's text: in the dashboard it is an error naming it, exit 2
out=$("$LR_BIN" -T x 2>&1 </dev/null); rc=$?
check title-needs-traffic-mode test "$rc" -eq 2 -a -n "$(grep -- '-T' <<<"$out")"
lr_summary
