#!/usr/bin/env bash
# The real dashboard in tmux (send-keys, capture-pane) at 80x24 and 200x50: pane titles and live
# values appear, every key does what the help says, a resize to 60x15 shows the "too small"
# message and back restores, q / SIGTERM / SIGHUP exit 0 with `stty -a` unchanged, a broken
# theme gives file:line and the default theme. Uses a private tmux server; kills only its own.
. "$(dirname "$0")/../lib.sh"

command -v tmux >/dev/null || { skip tui_dashboard "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { skip tui_dashboard "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_tui.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" dash 40

# start W H ARGS...: a fresh session running linerate through a wrapper that records its pid
# (the sh execs linerate), exit code and the tty modes before and after.
start() {
	local w=$1 h=$2 args
	shift 2
	args=$(printf '%q ' "$@")
	T kill-session -t dash 2>/dev/null
	rm -f "$work"/rc "$work"/pid "$work"/stty.* "$work"/stderr
	cat >"$work/run.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=\${TERM:-screen} ${START_ENV:-}
cd "$LR_TOP"
stty -a >"$work/stty.before"
sh -c 'echo \$\$ >"$work/pid"; exec "\$0" "\$@"' "$LR_BIN" $args 2>"$work/stderr"
rc=\$?
stty -a >"$work/stty.after"	# before rc: the checks read it once rc is there
echo \$rc >"$work/rc"
sleep 600
EOF
	lr_tmux_new_sized "$w" "$h" "bash $work/run.sh"
	wait_file "$work/pid" 50
}

# wait_screen REGEX [TENTHS]: true once the screen matches (grep -E)
wait_gone() {
	local i
	for ((i = 0; i < ${2:-40}; i++)); do
		screen | grep -qE -- "$1" || return 0
		sleep 0.1
	done
	return 1
}
# finished NAME: the run exited 0 and left the terminal modes as it found them
finished() {
	local name=$1
	if ! wait_file "$work/rc" 50; then
		fail "$name" "did not exit"
		return
	fi
	check "$name exits 0" [ "$(cat "$work/rc")" = 0 ]
	if diff -q "$work/stty.before" "$work/stty.after" >/dev/null; then
		pass "$name stty unchanged"
	else
		fail "$name stty unchanged" "$(diff "$work/stty.before" "$work/stty.after" | head -5)"
	fi
}

# Loopback traffic so values are live: a bounded UDP sender (python3), else none.
if command -v python3 >/dev/null; then
	python3 - <<'EOF' &
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.time() + 120
while time.time() < end:
    for _ in range(200):
        s.sendto(b"x" * 1000, ("127.0.0.1", 9))
    time.sleep(0.002)
EOF
	blaster=$!
	lr_cleanup_add "kill $blaster"
fi

# ---- 80x24: overview, live values, every key
start 80 24 -i 0.2
if wait_screen 'IFACE +LINK/MTU +RX bit/s' 50; then pass "80x24 overview"; else
	fail "80x24 overview" "$(screen | head -3)"; fi
check "80x24 status line" wait_screen '^ 0.2 s +(netlink|proc) +bits .*\? help  q quit'
check "80x24 CPU pane" wait_screen '^ CPU'
if [ -n "${blaster:-}" ]; then
	live() { screen | awk '$1 == "lo" || $1 == ">lo" { print $3 }' | grep -qvE '^(0|-)?$'; }
	ok=1
	for ((i = 0; i < 30; i++)); do live && { ok=0; break; }; sleep 0.1; done
	check "live lo rx rate" [ $ok = 0 ]
fi
first=$(screen | awk 'NR > 2 && $1 ~ /^>/ { sub(">", "", $1); print $1; exit }')
second=$(screen | awk 'NR > 2 && NF > 8 && $1 !~ /^>/ && $2 ~ /\// { print $1; exit }')

key '?'
check "? opens help" wait_screen 'linerate keys +theme default'
help_ok() {
	local s k
	s=$(screen)
	for k in 'quit' 'next / previous interface' 'overview / detail' 'next theme' \
		'sample faster' 'pause the display' 'reset totals' 'bits / bytes' 'graph scale' \
		'start / stop' 'bitrate per stream' 'streams \+1' 'TCP / UDP' 'reverse direction'; do
		grep -qE -- "$k" <<<"$s" || { echo "missing: $k" >&2; return 1; }
	done
}
check "help lists every key" help_ok
# issue 28: the help box left the screen beside its lines readable as part of them ("(sampling,
# CSV go on) ts once"): every row of the box is closed by a border on both sides
help_boxed() {
	screen | python3 -c '
import sys
rows = sys.stdin.read().split("\n")
top = [i for i, r in enumerate(rows) if "linerate keys" in r]
if not top: sys.exit("no help box")
t = top[0]; l = rows[t].index("\u250c"); r = rows[t].rindex("\u2510")
bot = [i for i in range(t + 1, len(rows)) if rows[i][l:l + 1] == "\u2514"]
if not bot or rows[bot[0]][r:r + 1] != "\u2518": sys.exit("box not closed below")
bad = [i for i in range(t + 1, bot[0]) if rows[i][l:l + 1] != "\u2502" or rows[i][r:r + 1] != "\u2502"]
sys.exit("rows without a border: %s" % bad if bad else 0)'
}
check "help is a closed box" help_boxed
key Escape
check "Esc closes help" wait_gone 'linerate keys'
key b
check "b: bytes" wait_screen 'RX B/s +TX B/s'
key b
check "b: bits again" wait_screen 'RX bit/s +TX bit/s'
key g
check "g: link scale" wait_screen 'graph scale: link speed'
key g
check "g: log scale" wait_screen 'graph scale: log'
key g
check "g: auto scale" wait_screen 'graph scale: auto'
key +
check "+: faster" wait_screen '^ 0.1 s .*interval 0.1 s'
key -
key -
check "-: slower" wait_screen '^ 0.5 s .*interval 0.5 s'
key p
check "p: paused" wait_screen 'PAUSED'
key p
check "p: resumed" wait_gone 'PAUSED'
key r
check "r: reset" wait_screen 'totals and peaks reset'
key s
check "s without traffic" wait_screen 'no traffic configured'
key ']'
key t
key '?'
check "t: next theme" wait_screen 'linerate keys +theme [a-z-]+ ' 20
check "t: not default" wait_gone 'theme default' 20
key '?'
key v
check "v: detail view" wait_screen 'Bitrate .*Packets'
check "detail: drops and cpu panes" wait_screen 'Drops & FIFO .*CPU'
check "detail: link line of $first" wait_screen "^ $first "
if [ -n "$second" ]; then
	key Tab
	check "Tab: next interface ($second)" wait_screen "^ $second "
	key Left
	check "Left: previous interface" wait_screen "^ $first "
	key Right
	check "Right: next interface" wait_screen "^ $second "
	key v
	check "v: back to the overview" wait_screen 'IFACE'
	key Up
	key Down
	key Enter
	check "Down+Enter: detail of $second" wait_screen "^ $second "
	key v
fi

# ---- resize below 70x20 and back
T resize-window -t dash -x 60 -y 15
check "60x15: too small" wait_screen 'terminal too small \(need 70x20\)'
T resize-window -t dash -x 80 -y 24
check "back to 80x24" wait_gone 'terminal too small'
check "80x24 redrawn" wait_screen 'IFACE|Bitrate'

# ---- idle CPU between ticks (sampler + display) stays low at -i 0.5
pid=$(cat "$work/pid")
if [ -r "/proc/$pid/stat" ]; then
	t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep 3
	t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	hz=$(getconf CLK_TCK)
	# under 5% of one CPU over 3 s
	check "idle CPU $((t1 - t0)) ticks in 3 s" [ $(((t1 - t0) * 100)) -le $((hz * 3 * 5)) ]
fi
key q
finished "q"

# ---- one write() to the terminal a frame: the kernel's count of the process's write calls
# (/proc/PID/io syscw) over 3 s of the wall clock at -i 0.1, with the demo's graphs moving. Left
# alone, ncurses flushed after every cursor move (~45 writes a frame here).
start 120 40 --demo -i 0.1
wait_screen 'Bitrate' 50
pid=$(cat "$work/pid")
sleep 1
if [ -r "/proc/$pid/io" ]; then
	w0=$(awk '/^syscw:/ { print $2 }' "/proc/$pid/io") s0=$(date +%s%N)
	sleep 3
	w1=$(awk '/^syscw:/ { print $2 }' "/proc/$pid/io") s1=$(date +%s%N)
	ticks=$(((s1 - s0) / 100000000 + 1))
	check "one write a frame: $((w1 - w0)) write calls in $ticks ticks" \
		[ $((w1 - w0)) -ge 1 -a $((w1 - w0)) -le $((2 * ticks + 3)) ]
else
	fail "one write a frame" "/proc/$pid/io unreadable"
fi
key q
finished "q (demo)"

# ---- Esc quits (help closed)
start 80 24 -i 0.5
wait_screen 'IFACE' 50
key Escape
finished "Esc"

# ---- 200x50: everything visible at once
start 200 50 -i 0.2
check "200x50 overview" wait_screen 'IFACE +LINK/MTU +STATE' 50
check "200x50 hottest softirq" wait_screen 'hottest softirq'
key v
check "200x50 detail panes" wait_screen 'Bitrate .*Packets'
check "200x50 ceiling line" wait_screen 'wire .*(goodput ceiling|ceiling -)'
check "200x50 tuning line" wait_screen 'rmem_max'
key q
finished "200x50 q"

# ---- colours: the default theme draws in colour; NO_COLOR=1 gives attributes only
colour_sgr() { T capture-pane -t dash -p -e | grep -qP '\x1b\[(3[0-7]|4[0-7]|9[0-7]|38;|48;)'; }
start 80 24 -i 0.2
wait_screen 'IFACE' 50
check "colours by default" colour_sgr
key q
finished "colour q"
START_ENV="NO_COLOR=1" start 80 24 -i 0.2
wait_screen 'IFACE' 50
no_colour_sgr() { ! colour_sgr; }
check "NO_COLOR: no colour sequences" no_colour_sgr
key t
check "NO_COLOR: t still works" wait_screen 'theme [a-z-]+' 20
key q
finished "NO_COLOR q"

# ---- --ascii: no character outside ASCII on screen
start 80 24 -i 0.2 --ascii
wait_screen 'IFACE' 50
key v
wait_screen 'Bitrate' 30
ascii_only() { ! screen | grep -qP '[^\x00-\x7f]'; }
check "--ascii draws ASCII only" ascii_only
key q
finished "ascii q"

# ---- a non-UTF-8 locale: ASCII without being asked
START_ENV="LANG=C LC_CTYPE=C" start 80 24 -i 0.2
wait_screen 'IFACE' 50
key v
wait_screen 'Bitrate' 30
check "C locale draws ASCII only" ascii_only
key q
finished "C locale q"

# ---- -t ends the dashboard like headless
start 80 24 -i 0.2 -t 1
finished "-t 1"

# ---- signals
for sig in TERM HUP INT; do
	start 80 24 -i 0.2
	wait_screen 'IFACE' 50
	kill -"$sig" "$(cat "$work/pid")"
	finished "SIG$sig"
done

# ---- a broken theme: file:line on screen and stderr, the default theme used, still running
start 80 24 -i 0.2 --theme tests/fixtures/themes/broken.theme
check "broken theme: file:line on screen" \
	wait_screen "tests/fixtures/themes/broken.theme:4: unknown colour 'purple'" 50
check "broken theme: dashboard runs" wait_screen 'IFACE'
key '?'
check "broken theme: default theme used" wait_screen 'theme default'
key q
finished "broken theme q"
check "broken theme: stderr has file:line" \
	grep -q "broken.theme:4: unknown colour 'purple'" "$work/stderr"

# ---- CSV while the dashboard runs, as headless writes it
csv="$work/dash.csv"
start 80 24 -i 0.1 --csv "$csv" --cpu-csv "$work/cpu.csv"
wait_screen 'IFACE' 50
sleep 1
key q
finished "csv q"
check "csv header" grep -q '^time,elapsed,iface,interval,rx_bytes' "$csv"
check "csv rows" [ "$(wc -l <"$csv")" -gt 3 ]
check "cpu csv rows" [ "$(wc -l <"$work/cpu.csv")" -gt 3 ]
exit 0
