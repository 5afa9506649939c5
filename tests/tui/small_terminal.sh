#!/usr/bin/env bash
# Issue 21: an 80-column terminal under a tmux status line (80x23) and the smallest size (70x20)
# get the reduced dashboard, never "too small"; below 70x20 the message names the size it needs.
# `linerate -s` before any client: its Streams pane says it waits for a client on its port
# (`s` starts nothing there). tmux with its own socket, loopback only, a free port; kills only
# what it started.
. "$(dirname "$0")/../lib.sh"
lr_plan "small terminal: 80x23 is the dashboard, not too small" \
	"small terminal: server Streams pane waits for a client on its port" \
	"small terminal: 70x20 is the dashboard, not too small" \
	"small terminal: 69x20 says too small (need 70x20)" \
	"small terminal: no line cut against the right edge at 80x23 and 70x20" \
	"small terminal: q exits 0"
command -v tmux >/dev/null || { lr_skip_plan small_terminal "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan small_terminal "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_st.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" st 40
port=$((26000 + $$ % 2000))
while ss -ltn | grep -q ":$port "; do port=$((port + 1)); done

cat >"$work/run.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=\${TERM:-screen}
"$LR_BIN" -s -p $port 2>"$work/stderr"
echo \$? >"$work/rc"
sleep 600
EOF
# 80x23: what a 24-row terminal leaves under tmux's status line
lr_tmux_new 80 23 "bash $work/run.sh"
size() { T display -p -t st '#{pane_width}x#{pane_height}'; }
# a line whose last column holds text (not a title's rule): something ran into the edge (the
# views keep it blank). Characters, not bytes: grep in a UTF-8 locale.
edge_clean() {
	! screen | LC_ALL=C.UTF-8 grep -E "^.{$((${1%x*} - 1))}[^ ─-]" | sed 's/^/edge: /' | grep .
}

wait_screen "IFACE|listening" 50
echo "pane: $(size)"
if [ "$(size)" = 80x23 ] && wait_screen "IFACE" 30 && ! screen | grep -q "too small"; then
	pass "small terminal: 80x23 is the dashboard, not too small"
else
	fail "small terminal: 80x23 is the dashboard, not too small" "$(size): $(screen | head -3)"
fi
T send-keys -t st v
check "small terminal: server Streams pane waits for a client on its port" \
	wait_screen "waiting for a client on port $port" 30
sleep 0.6
edge23=$(edge_clean 80x23 && echo ok)
T resize-window -t st -x 70 -y 20
if wait_screen "Bitrate" 30 && [ "$(size)" = 70x20 ] && ! screen | grep -q "too small"; then
	pass "small terminal: 70x20 is the dashboard, not too small"
else
	fail "small terminal: 70x20 is the dashboard, not too small" "$(size): $(screen | head -3)"
fi
sleep 0.6
edge20=$(edge_clean 70x20 && echo ok)
screen
if [ "$edge23" = ok ] && [ "$edge20" = ok ]; then
	pass "small terminal: no line cut against the right edge at 80x23 and 70x20"
else
	fail "small terminal: no line cut against the right edge at 80x23 and 70x20" "80x23 ${edge23:-bad}, 70x20 ${edge20:-bad}"
fi
T resize-window -t st -x 69 -y 20
check "small terminal: 69x20 says too small (need 70x20)" wait_screen 'terminal too small \(need 70x20\)' 30
T resize-window -t st -x 80 -y 24
wait_screen "Bitrate" 30
T send-keys -t st q
for ((i = 0; i < 50; i++)); do [ -s "$work/rc" ] && break; sleep 0.1; done
check "small terminal: q exits 0" test "$(cat "$work/rc" 2>/dev/null)" = 0 || cat "$work/stderr"
exit 0
