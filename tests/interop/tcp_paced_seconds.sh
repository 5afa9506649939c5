#!/usr/bin/env bash
# A paced TCP receiver's seconds are the test's, as iperf3's are (issue 10): `-b 10M -t 3` (and
# with -O 1) to linerate -s, from linerate -c and from iperf3 3.12 -c, on the loopback of a
# fresh namespace. The server's sum_received.seconds (its own -J) is within 2 % of -t, and its
# receiver bit/s within 5 % of 10 Mbit/s; independent witnesses: the received bytes over -t
# (what a stopwatch gives) agree with that bit/s within 5 %, and iperf3 <-> iperf3 in the same
# case, run beside it, is printed for reference. It used to end at the last byte, up to one
# 128 KiB block (105 ms at 10 Mbit/s) before the test's end: 3.5-5 % above the target. Root only.
. "$(dirname "$0")/../lib.sh"
lr_plan "tcp paced seconds: lr -c" "tcp paced seconds: lr -c -O 1" \
	"tcp paced seconds: iperf3 -c" "tcp paced seconds: iperf3 -c -O 1"
need_root tcp_paced_seconds
command -v iperf3 >/dev/null || { lr_skip_plan tcp_paced_seconds "iperf3 not installed"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan tcp_paced_seconds "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tcp_paced_seconds "$LR_BIN not built"; exit 0; }

PORT=5563
T=3
ns=$(lr_uniq)t
lr_netns_lo "$ns" || { lr_skip_plan tcp_paced_seconds "netns"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
in_ns() { ip netns exec "$ns" "$@"; }

wait_listen() { lr_wait_listen "$PORT" "$ns" 60; }

# run CLIENT SERVER TAG ARGS...: one test; the server's -J in $tmp/s-TAG.json
run() {
	local c=$1 s=$2 tag=$3 spid
	shift 3
	if [ "$s" = lr ]; then
		in_ns "$LR_BIN" -s -1 -p "$PORT" -J >"$tmp/s-$tag.json" 2>"$tmp/s-$tag.err" &
	else
		in_ns iperf3 -s -1 -p "$PORT" -J >"$tmp/s-$tag.json" 2>&1 &
	fi
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen || { kill "$spid"; return; }
	if [ "$c" = lr ]; then
		in_ns timeout 30 "$LR_BIN" -c 127.0.0.1 -p "$PORT" --headless -J -b 10M -t "$T" "$@" \
			>"$tmp/c-$tag.json" 2>"$tmp/c-$tag.err"
	else
		in_ns timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -J -b 10M -t "$T" "$@" >"$tmp/c-$tag.json" 2>&1
	fi
	wait "$spid" 2>/dev/null
}

# judge NAME TAG REF: the server's receiver seconds and bit/s
judge() {
	local out
	out=$(verdict "$@")
	case $out in
	OK*) pass "$1: ${out#OK }" ;;
	*) fail "$1" "${out#BAD }" ;;
	esac
}
verdict() {
	python3 - "$1" "$tmp/s-$2.json" "$tmp/s-$3.json" "$T" <<'PY'
import json, sys
name, f, fref, t = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
try:
    r = json.load(open(f))["end"]["sum_received"]
except Exception as e:
    print(f"BAD no server result: {e}"); sys.exit(0)
try:
    ref = json.load(open(fref))["end"]["sum_received"]
    reftxt = "%.4f s, %.3f Mbit/s" % (ref["seconds"], ref["bits_per_second"] / 1e6)
except Exception as e:
    reftxt = f"no result ({e})"
secs, bps, stopwatch = r["seconds"], r["bits_per_second"], r["bytes"] * 8 / t
txt = "receiver %.4f s, %.3f Mbit/s, bytes/-t %.3f Mbit/s (iperf3 <-> iperf3: %s)" % (
    secs, bps / 1e6, stopwatch / 1e6, reftxt)
bad = []
if abs(secs - t) > 0.02 * t:
    bad.append("seconds %.4f not within 2 %% of %g" % (secs, t))
if abs(bps - 10e6) > 0.05 * 10e6:
    bad.append("%.3f Mbit/s not within 5 %% of 10" % (bps / 1e6))
if abs(bps - stopwatch) > 0.05 * stopwatch:
    bad.append("bit/s disagrees with bytes/-t")
print("BAD " + "; ".join(bad) + ": " + txt if bad else "OK " + txt)
PY
}

run i3 i3 ref
run i3 i3 refo -O 1
run lr lr l
judge "tcp paced seconds: lr -c" l ref
run lr lr lo -O 1
judge "tcp paced seconds: lr -c -O 1" lo refo
run i3 lr i
judge "tcp paced seconds: iperf3 -c" i ref
run i3 lr io -O 1
judge "tcp paced seconds: iperf3 -c -O 1" io refo
lr_summary
