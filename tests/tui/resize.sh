#!/usr/bin/env bash
# The dashboard with --demo traffic in tmux, resized 40 times in about 4 s between 60x15,
# 80x24 and 200x50: it stays alive, then at 80x24 it draws every pane title (Bitrate, Packets,
# Drops & FIFO, CPU, Streams) and the status line within 24 rows of 80 columns, q exits 0,
# `stty -a` is unchanged and nothing reached stderr. Private tmux server. About 12 s.
. "$(dirname "$0")/../lib.sh"

command -v tmux >/dev/null || { skip tui_resize "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { skip tui_resize "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_rsz.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" rsz 40

# The wrapper records linerate's pid (sh execs it), its exit code and the tty modes.
port=$((20000 + RANDOM % 20000))
cat >"$work/run.sh" <<EOF
export LANG=C.UTF-8 LC_ALL= LC_CTYPE=C.UTF-8 TERM=\${TERM:-screen}
cd "$LR_TOP"
stty -a >"$work/stty.before"
sh -c 'echo \$\$ >"$work/pid"; exec "\$0" "\$@"' "$LR_BIN" --demo -p $port -i 0.1 2>"$work/stderr"
rc=\$?
stty -a >"$work/stty.after"	# before rc: the checks read it once rc is there
echo \$rc >"$work/rc"
sleep 600
EOF
lr_tmux_new 80 24 "bash $work/run.sh"
wait_file "$work/pid" 50 || { fail tui_resize "linerate did not start"; lr_summary; exit 1; }
pid=$(cat "$work/pid")
check "demo dashboard up at 80x24" wait_screen 'Streams +running' 80

sizes=("60 15" "80 24" "200 50" "80 24" "60 15" "200 50")
t0=$(date +%s%N)
for ((i = 0; i < 40; i++)); do
	read -r w h <<<"${sizes[i % ${#sizes[@]}]}"
	T resize-window -t rsz -x "$w" -y "$h"
	sleep 0.08
done
ms=$((($(date +%s%N) - t0) / 1000000))
check "40 resizes in ${ms} ms: still running" kill -0 "$pid"

T resize-window -t rsz -x 80 -y 24
for title in 'Bitrate ─' 'Packets ─' 'Drops & FIFO ─' 'CPU ─' 'Streams +running'; do
	check "80x24 after the storm: '$title' drawn" wait_screen "$title" 30
done
check "80x24 after the storm: status line" wait_screen '\? help +q quit$' 30
scr=$(screen)
rows=$(printf '%s\n' "$scr" | wc -l)
cols=$(printf '%s\n' "$scr" | LC_ALL=C.UTF-8 wc -L)	# display width, not bytes
check "80x24 after the storm: $rows rows, widest $cols columns" \
	sh -c "[ $rows -eq 24 ] && [ $cols -le 80 ]"
check "80x24 after the storm: no 'too small' left over" \
	sh -c "! printf '%s\n' \"\$1\" | grep -q 'too small'" _ "$scr"

T send-keys -t rsz q
if wait_file "$work/rc" 80; then
	check "q exits 0 (rc $(cat "$work/rc"))" test "$(cat "$work/rc")" = 0
	check "stty -a unchanged" diff -q "$work/stty.before" "$work/stty.after"
	check "nothing on stderr" test ! -s "$work/stderr"
	[ -s "$work/stderr" ] && head -5 "$work/stderr"
else
	fail "q exits" "no exit within 8 s"
	kill "$pid" 2>/dev/null
fi
lr_summary
