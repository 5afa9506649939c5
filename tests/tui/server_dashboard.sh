#!/usr/bin/env bash
# `linerate -s` on a terminal is the dashboard (tmux, 80x24) and a plain iperf3 client's test
# shows in its Streams pane and its graphs: running, with the rate the iperf3 client itself reports (loosely:
# the screen is one tick, the client's figure the whole test); the test ends as done; a second
# test cut by `q` mid-run: linerate exits 0, the iperf3 client is told (server terminated) and
# ends at once, the terminal is sane again (stty: echo, icanon). Loopback only, a free port.
. "$(dirname "$0")/../lib.sh"
lr_plan "server dashboard: Streams pane shows the incoming test running" \
	"server dashboard: rate on screen within 30% of iperf3's report" \
	"server dashboard: the graphs draw the incoming test" \
	"server dashboard: the test ends as done" "server dashboard: q mid-test exits 0" \
	"server dashboard: the iperf3 client is told and ends" "server dashboard: terminal sane after q"
command -v tmux >/dev/null || { lr_skip_plan server_dashboard "tmux not installed"; exit 0; }
command -v iperf3 >/dev/null || { lr_skip_plan server_dashboard "iperf3 not installed"; exit 0; }
command -v jq >/dev/null || { lr_skip_plan server_dashboard "jq not installed (scripts/deps.sh)"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan server_dashboard "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_sd.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" sd 40
port=$((24000 + $$ % 2000))
while ss -ltn | grep -q ":$port "; do port=$((port + 1)); done

cat >"$work/run.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=\${TERM:-screen}
sh -c 'echo \$\$ >"$work/pid"; exec "\$@"' sh "$LR_BIN" -s -p $port 2>"$work/stderr"
rc=\$?
stty -a >"$work/stty"	# before rc: the checks read it once rc is there
echo \$rc >"$work/rc"
sleep 600
EOF
lr_tmux_new 80 24 "bash $work/run.sh"
# the Streams pane's sum row: the second rate on it is the achieved one, in bit/s
achieved() {
	screen | awk '/^ sum / { n = 0; s = $0
		while (match(s, /[0-9.]+ [kMGT]?b\/s/)) { n++; v = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			if (n == 2) { split(v, p, " "); m = substr(p[2], 1, 1); f = m == "k" ? 1e3 : m == "M" ? 1e6 : m == "G" ? 1e9 : m == "T" ? 1e12 : 1
				printf "%.0f\n", p[1] * f; exit } } }'
}
wait_screen "listening on port $port|Streams" 50 || { fail "server dashboard: Streams pane shows the incoming test running" "no dashboard"; screen; exit 0; }

iperf3 -c 127.0.0.1 -p "$port" -t 4 -b 200M -J >"$work/i1.json" 2>&1 &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
if wait_screen "Streams +running +TCP x1 <- 127\.0\.0\.1" 40; then
	pass "server dashboard: Streams pane shows the incoming test running"
else
	fail "server dashboard: Streams pane shows the incoming test running" "$(screen | grep Streams)"
fi
sleep 2
seen=$(achieved)
screen | grep -A3 ' Streams '
# issue 28: the numbers moved while the Bitrate and Packets graphs stayed blank (the sampler kept
# no history for -s): 2 s of 200 Mbit/s leave dots in the graphs (braille cells, U+2801-U+28FF),
# counted in the Bitrate and Packets panes only (the CPU pane keeps its own history)
screen >"$work/graphs.txt"
dots=$(python3 -c '
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
top = next((i for i, l in enumerate(lines) if " Bitrate " in l), len(lines))
end = next((i for i in range(top + 1, len(lines)) if "\u2500" in lines[i]), len(lines))
print(sum(0x2801 <= ord(c) <= 0x28ff for l in lines[top + 1:end] for c in l))' "$work/graphs.txt")
[ "$dots" -ge 4 ] || cat "$work/graphs.txt"
check "server dashboard: the graphs draw the incoming test" test "$dots" -ge 4
wait "$cli"
want=$(jq '.end.sum_received.bits_per_second' "$work/i1.json")
echo "on screen: ${seen:-nothing} bit/s; iperf3 client reports $want bit/s"
check "server dashboard: rate on screen within 30% of iperf3's report" awk -v a="${seen:-0}" -v b="$want" \
	'BEGIN { exit !(b > 0 && a > 0.7 * b && a < 1.3 * b) }'
check "server dashboard: the test ends as done" wait_screen "Streams +done +TCP" 30

iperf3 -c 127.0.0.1 -p "$port" -t 20 -b 100M >"$work/i2.txt" 2>&1 &
cli=$!; lr_cleanup_add "kill $cli 2>/dev/null"
wait_screen "Streams +running" 40
sleep 1
T send-keys -t sd q
for ((i = 0; i < 50; i++)); do [ -s "$work/rc" ] && break; sleep 0.1; done
check "server dashboard: q mid-test exits 0" test "$(cat "$work/rc" 2>/dev/null)" = 0 || cat "$work/stderr"
for ((i = 0; i < 50; i++)); do kill -0 "$cli" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$cli" 2>/dev/null; then
	fail "server dashboard: the iperf3 client is told and ends" "iperf3 still running 5 s after q"
else
	check "server dashboard: the iperf3 client is told and ends" grep -qi "server has terminated" "$work/i2.txt" ||
		cat "$work/i2.txt"
fi
for ((i = 0; i < 20; i++)); do [ -s "$work/stty" ] && break; sleep 0.1; done
check "server dashboard: terminal sane after q" grep -qE '(^| )icanon( |$)' "$work/stty"
grep -qE '(^| )echo( |$)' "$work/stty" || fail "server dashboard: terminal sane after q" "no echo: $(cat "$work/stty")"
exit 0
