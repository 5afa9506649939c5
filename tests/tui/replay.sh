#!/usr/bin/env bash
# linerate --replay on a run recorded here: two network namespaces joined by a veth pair, a
# headless `linerate --csv --cpu-csv` sampling the veth for 28 s while a `linerate -c` sends
# 20 Mbit/s (about 4-12 s) and then 100 Mbit/s (about 13.5-21.5 s) to a `linerate -s` in the
# other namespace, then idle: the seeks to +0, +10 and +20 s land in three different rates. The replay in tmux (private server, 100x30) must show, at each recorded
# time its status line names, the rx rate that the CSV row of that time holds (this script reads
# the CSV itself) and, as its clock, the CSV's `time` of that row in local time (the replay runs
# in a zone 5:45 east of UTC: a clock in UTC would be off by hours); p pauses (the shown time
# stands still), [ ] and the arrows while paused seek 10 s (both arrows: +10 s and -10 s), while
# playing the arrows do not seek (the shown time moves only as the wall clock this script reads
# allows at x2), r starts the totals and peaks anew, + and - change the speed (the shown time
# moves at twice the wall clock at x2), the end of the recording stays on screen, traffic keys
# are refused on the status line, q exits 0 with the terminal modes unchanged. The client's own CSV replayed shows its
# peer rows (the server's veth) in the peer view at the rates they hold; SIGTERM exits 0. Bad input (a foreign file, a truncated
# line, another run's file) exits 2 with one line naming the file and line, before any terminal
# is taken; a newer header's extra column is accepted; --report on the mixed runs leaves no file,
# and on the run itself gives the veth's tx peak as the CSV's largest tx_bps over a full
# interval (a sliver row, the stop tick, folded into its neighbour, moves it by its own share).
source "$(dirname "$0")/../lib.sh"
lr_plan "record: headless sampler exit 0" "record: both clients exit 0" \
	"replay: overview with the veth and the status line says replay" \
	"?: the help lists the replay's keys" "Esc closes the help" \
	"p: paused, the shown time stands still" "[: seek back to the start" \
	"]: seek to +10 s shows the CSV's rate of that time" \
	"]: seek to +20 s shows the CSV's rate of that time" \
	"v: the detail view's Bitrate pane shows the same row's rate" \
	"r: totals and peaks from here" \
	"left arrow while paused: seek back to +10 s" "start: the CSV's rate of the first row" \
	"right arrow while paused: seek forward to +20 s" "arrows while playing do not seek" \
	"status line: the clock is the CSV's time of the row shown, in local time" \
	"+: speed x2, the shown time moves at twice the wall clock" "-: speed x1/2 at the lowest" \
	"s: a replay has no traffic keys" "end of the recording stays on screen" \
	"q: exits 0" "q: stty unchanged" \
	"peer rows: the server's veth in the peer view at the CSV's rate" \
	"SIGTERM: exits 0" "SIGTERM: stty unchanged" \
	"bad input: foreign file exit 2, one line naming file:1" \
	"bad input: truncated line exit 2 naming the line" \
	"bad input: another run's file exit 2 naming file:2" \
	"bad input: a newer header's extra column is accepted" \
	"report: mixed runs exit 2 and no output file" \
	"report of the netns run: tx peak is the CSV's max over full intervals"
need_root "tui_replay"
command -v tmux >/dev/null || { lr_skip_plan tui_replay "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan tui_replay "no binary at $LR_BIN (run make)"; exit 0; }

u=$(lr_uniq)
A=${u}a B=${u}b IA=${u}x IB=${u}y
ADDR_A=10.203.$((RANDOM % 200)).1
ADDR_B=${ADDR_A%.1}.2
port=$((20000 + RANDOM % 20000))
work=$(mktemp -d /tmp/lr_replay.XXXXXX)
[ -n "${LR_KEEP:-}" ] && echo "work dir $work" || lr_cleanup_add "rm -rf $work"
sock="$work/tmux.sock"
lr_cleanup_add "tmux -S $sock kill-server 2>/dev/null"
T() { tmux -S "$sock" "$@"; }

# ---- record
lr_netns_pair "$A" "$B" "$IA" "$IB" "$ADDR_A" "$ADDR_B" 1500
lr_bg timeout 60 ip netns exec "$B" "$LR_BIN" -s -p "$port"
lr_bg bash -c 'timeout 40 ip netns exec "$0" "$1" --headless -t 28 -i 0.5 -I "$2" \
	--csv "$3/if.csv" --cpu-csv "$3/cpu.csv" >"$3/headless.out" 2>&1; echo $? >"$3/headless.rc"' \
	"$A" "$LR_BIN" "$IA" "$work"
sleep 3.5	# the first client's run (and its CSV) begins well after the sampler's
timeout 30 ip netns exec "$A" "$LR_BIN" -c "$ADDR_B" -p "$port" --headless -t 8 -b 20M \
	--csv "$work/client1.csv" >"$work/c1.out" 2>&1
rc1=$?
sleep 1
timeout 30 ip netns exec "$A" "$LR_BIN" -c "$ADDR_B" -p "$port" --headless -t 8 -b 100M \
	>"$work/c2.out" 2>&1
rc2=$?
for ((i = 0; i < 250; i++)); do [ -s "$work/headless.rc" ] && break; sleep 0.1; done
check "record: headless sampler exit 0 ($(cat "$work/headless.rc" 2>/dev/null), $(($(wc -l <"$work/if.csv") - 1)) rows)" \
	sh -c "[ \"\$(cat '$work/headless.rc' 2>/dev/null)\" = 0 ] && [ \$(wc -l <'$work/if.csv') -gt 40 ]"
check "record: both clients exit 0 ($rc1 $rc2)" sh -c "[ $rc1 = 0 ] && [ $rc2 = 0 ]"

# The witness: the CSV's R_COL of interface R_IFC in the rows of R_FILE whose time since the
# recording's first row (t0, of every file replayed) lies in (E - interval - 0.06, E + 0.06]:
# the rows a replay showing +E s may show (E has one decimal). First: tx_bps of IA, the sender.
t0=$(awk -F, 'FNR == 2 && (t == "" || $1 < t) { t = $1 } END { print t }' "$work/if.csv" "$work/cpu.csv")
R_FILE=$work/if.csv R_IFC=$IA R_COL=tx_bps R_FIELD=4
csv_rates() {	# E -> the candidate rates, one a line
	awk -F, -v ifc="$R_IFC" -v col="$R_COL" -v e="$1" -v t0="$t0" \
		'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["iface"] == ifc { d = $c["time"] - t0
			if (d > e - $c["interval"] - 0.06 && d <= e + 0.06) print $c[col] }' "$R_FILE"
}
screen() { T capture-pane -t rp -p; }
# shown_rate: the overview's figure in field R_FIELD of R_IFC's row ("20.1M", "98k", "0") in
# bit/s; at 100 columns the overview's columns are IFACE LINK/MTU RX TX ... (checked below)
shown_rate() {
	screen | awk -v ifc="$R_IFC" -v f="$R_FIELD" '$1 == ifc || $1 == ">" ifc { v = $f; m = 1
		if (v ~ /k$/) m = 1e3; else if (v ~ /M$/) m = 1e6; else if (v ~ /G$/) m = 1e9
		sub(/[kMG]$/, "", v); printf "%.0f\n", v * m; exit }'
}
# the recorded time the status line shows, as seconds since the first tick ("+12.3/25.5 s")
shown_e() { screen | tail -1 | sed -n 's/.* +\([0-9.]*\)\/[0-9.]* s .*/\1/p'; }
# the recorded clock the status line shows before "+E" ("14:02:11.3"), local time of the replay
shown_clock() { screen | tail -1 | sed -n 's/.* \([0-9][0-9]:[0-9][0-9]:[0-9.]*\) +[0-9.]*\/.*/\1/p'; }
# clock_matches E: the shown clock, read as the replay's local time (UTC+5:45, TZ below), is
# within one interval of the `time` of a CSV row at +E (the rows rate_matches takes); prints
# the shown clock and those rows' times as local clocks
LR_TZ=LRT-5:45 LR_TZ_OFF=20700
clock_matches() {
	awk -F, -v ifc="$R_IFC" -v e="$1" -v t0="$t0" -v c="$(shown_clock)" -v off="$LR_TZ_OFF" '
		function hms(x) {	# as the status line prints it: tenths cut, not rounded
			return sprintf("%02d:%02d:%02d.%d", int(x / 3600), int(x % 3600 / 60), int(x % 60),
				       int((x - int(x)) * 10)) }
		BEGIN { n = split(c, h, ":"); sod = n == 3 ? h[1] * 3600 + h[2] * 60 + h[3] : -1e9
			printf "+%s shows %s, csv", e, c }
		NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$k["iface"] == ifc { d = $k["time"] - t0
			if (d > e - $k["interval"] - 0.06 && d <= e + 0.06) {
				r = ($k["time"] + off) % 86400; x = sod - r
				if (x > 43200) x -= 86400; else if (x < -43200) x += 86400
				printf " %s", hms(r)
				if (x >= -0.15 && x <= $k["interval"] + 0.05) ok = 1 } }
		END { printf "; "; exit !ok }' "$R_FILE"
}
# rate_matches E: the shown rate equals (to the overview's 3 significant digits) a candidate row
rate_matches() {
	local e=$1 got want ok=1
	got=$(shown_rate)
	for want in $(csv_rates "$e"); do
		awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d
			exit !(g != "" && d <= w * 0.006 + 1000) }' && ok=0
	done
	echo "shown $got at +$e, csv $(csv_rates "$e" | tr '\n' ' ')"
	return $ok
}
wait_screen() {
	local i
	for ((i = 0; i < ${2:-40}; i++)); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
key() { T send-keys -t rp "$@"; }

# ---- replay in tmux
cat >"$work/run.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=\${TERM:-screen} TZ=$LR_TZ
stty -a >"$work/stty.before"
"$LR_BIN" --replay "$work/if.csv" "$work/cpu.csv" 2>"$work/stderr"
rc=\$?
stty -a >"$work/stty.after"	# before rc: the checks read it once rc is there
echo \$rc >"$work/rc"
sleep 600
EOF
T new-session -d -s rp -x 100 -y 30 "bash $work/run.sh"
T set-option -t rp status off >/dev/null
started() {
	wait_screen "^ 0.5 s +replay +bits +[0-9:.]+ \+[0-9.]+/2[0-9.]+ s x1" 50 &&
		screen | grep -qE '^ IFACE +LINK/MTU +RX bit/s +TX bit/s' && screen | grep -q "$IA"
}
check "replay: overview with the veth and the status line says replay" started
key '?'
check "?: the help lists the replay's keys" wait_screen 'pause / play the recording' 20
key Escape
help_gone() {
	local i
	for ((i = 0; i < 30; i++)); do
		screen | grep -q 'pause / play the recording' || return 0
		sleep 0.1
	done
	return 1
}
check "Esc closes the help" help_gone

key p
wait_screen 'PAUSED' 20
e1=$(shown_e); sleep 1.5; e2=$(shown_e)
still() { screen | tail -1 | grep -q PAUSED && [ -n "$e1" ] && [ "$e1" = "$e2" ]; }
check "p: paused, the shown time stands still (+$e1, +$e2)" still
key '['
check "[: seek back to the start" wait_screen ' \+0\.0/[0-9.]+ s' 20
out=$(rate_matches 0.0)
check "start: the CSV's rate of the first row ($out)" rate_matches 0.0
clock_out=$(clock_matches 0.0) || clock_bad=1
key ']'
wait_screen ' \+10\.0/' 20
sleep 0.3
out=$(rate_matches 10.0)
check "]: seek to +10 s shows the CSV's rate of that time ($out)" rate_matches 10.0
clock_out+=$(clock_matches 10.0) || clock_bad=1
key ']'
wait_screen ' \+20\.0/' 20
sleep 0.3
out=$(rate_matches 20.0)
check "]: seek to +20 s shows the CSV's rate of that time ($out)" rate_matches 20.0
clock_out+=$(clock_matches 20.0) || clock_bad=1
# the detail view of the same tick: the Bitrate pane's tx figure (4 digits) and the CPU pane
key v
wait_screen '^ Bitrate ' 20
detail_ok() {
	local got want ok=1
	got=$(screen | awk '$1 == "tx" && $3 ~ /b\/s$/ { v = $2; m = $3 ~ /^G/ ? 1e9 : $3 ~ /^M/ ? 1e6 : $3 ~ /^k/ ? 1e3 : 1
		printf "%.0f\n", v * m; exit }')
	for want in $(csv_rates 20.0); do
		awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d
			exit !(g != "" && d <= w * 0.0006 + 100) }' && ok=0
	done
	echo "Bitrate pane tx $got, csv $(csv_rates 20.0 | tr '\n' ' ')"
	screen | grep -qE '(^ |[┼┤├│+|-] ?)CPU [─-]' || { echo "no CPU pane"; return 1; }
	return $ok
}
out=$(detail_ok)
check "v: the detail view's Bitrate pane shows the same row's rate ($out)" detail_ok
# r: the totals and peaks start again from the row shown; paused, no row has come since, so the
# Bitrate pane's avg, min and peak are "-" where they held the recording's figures
before=$(screen | grep -oE 'avg [^ ]+  min [^ ]+  peak [^ ]+' | head -1)
key r
reset_ok() {
	wait_screen 'totals and peaks from here' 20 && wait_screen 'avg -  min -  peak -' 20 &&
		[ -n "$before" ] && [ "$before" != "avg -  min -  peak -" ]
}
check "r: totals and peaks from here (before: ${before:-none})" reset_ok
key v
wait_screen '^ IFACE ' 20
key Left
check "left arrow while paused: seek back to +10 s" wait_screen ' \+10\.0/[0-9.]+ s x1 .*PAUSED|PAUSED.* \+10\.0/' 20
# right arrow: 10 s on from where it stands (read before the key: +10.0 when the left arrow held)
ea=$(shown_e)
key Right
for ((i = 0; i < 20; i++)); do eb=$(shown_e); [ "$eb" != "$ea" ] && break; sleep 0.1; done
sleep 0.3
eb=$(shown_e)
check "right arrow while paused: seek forward to +20 s (+$ea -> +$eb)" \
	awk -v a="$ea" -v b="$eb" 'BEGIN { exit !(a != "" && b - a > 9.95 && b - a < 10.05 && b == 20) }'
clock_out+=$(clock_matches 20.0) || clock_bad=1
if [ -z "${clock_bad:-}" ]; then
	pass "status line: the clock is the CSV's time of the row shown, in local time (${clock_out%; })"
else
	fail "status line: the clock is the CSV's time of the row shown, in local time" "$clock_out"
fi
key Left	# back to +10 s for the speed
wait_screen ' \+10\.0/[0-9.]+ s x1 .*PAUSED|PAUSED.* \+10\.0/' 20

# speed: x2, then play; the shown time must move twice as fast as this script's clock
key '+'
wait_screen ' x2' 20
key p
sleep 0.5
ta=$(date +%s.%N); ea=$(shown_e)
# while it plays, the arrows (picking the interface, as live) must not seek: each moves the
# shown time only by what x2 allows in the wall-clock time around it
sleep 1.2
t1=$(date +%s.%N) e1=$(shown_e); key Right; sleep 0.4
t2=$(date +%s.%N) e2=$(shown_e); key Left; sleep 0.4
t3=$(date +%s.%N) e3=$(shown_e)
no_seek() {
	awk -v t1="$t1" -v t2="$t2" -v t3="$t3" -v e1="$e1" -v e2="$e2" -v e3="$e3" 'BEGIN {
		exit !(e1 != "" && e2 != "" && e3 != "" && e2 - e1 >= 0 && e2 - e1 <= 2 * (t2 - t1) + 0.6 &&
			e3 - e2 >= 0 && e3 - e2 <= 2 * (t3 - t2) + 0.6) }'
}
check "arrows while playing do not seek (+$e1, right: +$e2, left: +$e3 at x2 over $(awk -v a="$t1" -v b="$t3" 'BEGIN { printf "%.1f", b - a }') s)" no_seek
sleep 2
tb=$(date +%s.%N); eb=$(shown_e)
ratio=$(awk -v ta="$ta" -v tb="$tb" -v ea="$ea" -v eb="$eb" 'BEGIN { printf "%.2f", (eb - ea) / (tb - ta) }')
check "+: speed x2, the shown time moves at twice the wall clock (ratio $ratio: +$ea -> +$eb)" \
	awk -v r="$ratio" 'BEGIN { exit !(r > 1.6 && r < 2.4) }'
key '-'; key '-'; key '-'
check "-: speed x1/2 at the lowest" wait_screen ' x1/2' 20
key s
check "s: a replay has no traffic keys" wait_screen 'no traffic keys' 20
for k in + + + + +; do key "$k"; done
if wait_screen ' x16 end' 100; then
	e1=$(shown_e); sleep 1.5
	stays() { screen | tail -1 | grep -q ' end' && screen | grep -q "$IA" && [ "$(shown_e)" = "$e1" ]; }
	check "end of the recording stays on screen (+$e1)" stays
else
	fail "end of the recording stays on screen" "$(screen | tail -1)"
fi
key q
for ((i = 0; i < 50; i++)); do [ -s "$work/rc" ] && break; sleep 0.1; done
check "q: exits 0 (rc $(cat "$work/rc" 2>/dev/null), $(head -1 "$work/stderr"))" \
	sh -c "[ \"\$(cat '$work/rc' 2>/dev/null)\" = 0 ]"
if diff -q "$work/stty.before" "$work/stty.after" >/dev/null 2>&1; then
	pass "q: stty unchanged"
else
	fail "q: stty unchanged" "$(diff "$work/stty.before" "$work/stty.after" 2>&1 | head -3)"
fi

# ---- the client's own CSV: its peer rows (the server's veth, side=peer) in the peer view, at
# the recorded time; then SIGTERM ends the replay cleanly
t0=$(awk -F, 'NR == 2 { print $1 }' "$work/client1.csv")
R_FILE=$work/client1.csv R_IFC=$IB R_COL=rx_bps R_FIELD=3
rm -f "$work/rc" "$work/pid" "$work/stty.after"
cat >"$work/run.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=\${TERM:-screen} TZ=UTC
stty -a >"$work/stty.before"
sh -c 'echo \$\$ >"$work/pid"; exec "\$0" "\$@"' "$LR_BIN" --replay "$work/client1.csv" 2>"$work/stderr"
rc=\$?
stty -a >"$work/stty.after"	# before rc: the checks read it once rc is there
echo \$rc >"$work/rc"
sleep 600
EOF
T kill-session -t rp
T new-session -d -s rp -x 100 -y 30 "bash $work/run.sh"
T set-option -t rp status off >/dev/null
wait_screen ' replay ' 50
sleep 2.5
key p
wait_screen 'PAUSED' 20
sleep 0.3
e=$(shown_e)
out=$(rate_matches "$e")
peer_ok() { screen | grep -qE '^ on .*\(peer\)' && rate_matches "$e" >/dev/null; }
check "peer rows: the server's veth in the peer view at the CSV's rate ($out)" peer_ok
kill -TERM "$(cat "$work/pid")"
for ((i = 0; i < 50; i++)); do [ -s "$work/stty.after" ] && break; sleep 0.1; done
check "SIGTERM: exits 0 (rc $(cat "$work/rc" 2>/dev/null))" sh -c "[ \"\$(cat '$work/rc' 2>/dev/null)\" = 0 ]"
if diff -q "$work/stty.before" "$work/stty.after" >/dev/null 2>&1; then
	pass "SIGTERM: stty unchanged"
else
	fail "SIGTERM: stty unchanged" "$(diff "$work/stty.before" "$work/stty.after" 2>&1 | head -3)"
fi

# ---- bad input (stdin is no terminal here: a file accepted gets as far as "needs a terminal",
# exit 2: --replay has no headless form)
one_line() {	# ERRFILE RC WANT_RC PATTERN
	[ "$2" = "$3" ] && [ "$(wc -l <"$1")" -eq 1 ] && grep -qE -- "$4" "$1"
}
printf 'Date,Time,Throughput\n2026-12-01,10:00,9.41 Gbits/sec\n' >"$work/foreign.csv"
"$LR_BIN" --replay "$work/if.csv" "$work/foreign.csv" </dev/null >/dev/null 2>"$work/e1"
rc=$?
check "bad input: foreign file exit 2, one line naming file:1 (rc $rc: $(head -1 "$work/e1"))" \
	one_line "$work/e1" "$rc" 2 'foreign.csv:1: not a CSV linerate wrote'
size=$(stat -c %s "$work/if.csv")
head -c $((size - 9)) "$work/if.csv" >"$work/cut.csv"
lines=$(wc -l <"$work/cut.csv")
"$LR_BIN" --replay "$work/cut.csv" </dev/null >/dev/null 2>"$work/e2"
rc=$?
check "bad input: truncated line exit 2 naming the line (rc $rc: $(head -1 "$work/e2"))" \
	one_line "$work/e2" "$rc" 2 "cut.csv:$((lines + 1)): truncated last line"
"$LR_BIN" --replay "$work/if.csv" "$work/client1.csv" </dev/null >/dev/null 2>"$work/e3"
rc=$?
check "bad input: another run's file exit 2 naming file:2 (rc $rc: $(head -1 "$work/e3"))" \
	one_line "$work/e3" "$rc" 2 'client1.csv:2: a run that began .* not the same run'
awk 'NR == 1 { print $0 ",from_the_future"; next } { print $0 ",42" }' "$work/if.csv" >"$work/newer.csv"
"$LR_BIN" --replay "$work/newer.csv" </dev/null >/dev/null 2>"$work/e4"
rc=$?
check "bad input: a newer header's extra column is accepted (rc $rc: $(head -1 "$work/e4"))" \
	one_line "$work/e4" "$rc" 2 'needs a terminal'
"$LR_BIN" --report "$work/mixed.html" "$work/if.csv" "$work/client1.csv" 2>"$work/e5"
rc=$?
check "report: mixed runs exit 2 and no output file (rc $rc: $(head -1 "$work/e5"))" \
	sh -c "[ $rc = 2 ] && [ ! -e '$work/mixed.html' ] && [ ! -e '$work/mixed.html.tmp' ] && grep -q 'client1.csv:2:' '$work/e5'"
# the report of the same netns run: its tx peak of the veth is the CSV's largest tx_bps of a
# full interval
"$LR_BIN" --report "$work/run.html" "$work/if.csv" "$work/cpu.csv" 2>"$work/e6"
rc=$?
peak_ok() {
	python3 - "$work" "$IA" <<'EOF'
import csv, re, sys
work, ifc = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(work + "/if.csv")) if r["iface"] == ifc]
ivmax = max(float(r["interval"]) for r in rows)
full = [r for r in rows if float(r["interval"]) >= 0.25 * ivmax]	# a rate's honest span
sliver = [r for r in rows if float(r["interval"]) < 0.25 * ivmax]	# folded into a neighbour
mx = max(float(r["tx_bps"]) for r in full)
ivmin = min(float(r["interval"]) for r in full)
s_secs = sum(float(r["interval"]) for r in sliver)
s_bits = sum(8 * float(r["tx_bytes"]) for r in sliver)
doc = open(work + "/run.html", encoding="utf-8").read()
row = doc[doc.index('data-iface="%s"' % ifc):]
row = row[:row.index("</tr>")]
got = float(re.search(r'data-k="tx_peak_bps" data-v="([^"]+)"', row).group(1))
lo, hi = mx * ivmin / (ivmin + s_secs), mx + s_bits / ivmin
print("full intervals' max %.1f, %d sliver row(s), report %.1f" % (mx, len(sliver), got))
sys.exit(0 if mx > 50e6 and lo * (1 - 1e-9) <= got <= hi * (1 + 1e-12) else 1)
EOF
}
out=$(peak_ok 2>&1)
prc=$?
check "report of the netns run: tx peak is the CSV's max over full intervals (rc $rc, $out)" sh -c "[ $rc = 0 ] && [ $prc = 0 ]"
lr_summary
