#!/usr/bin/env bash
# Issue 17: graphs are braille where the locale is UTF-8 and ASCII where it is not. The real
# binary in tmux runs --demo (its own server and streams on loopback, no root, stopped by q)
# at 100x30, once with LC_ALL=C.UTF-8 and once with LC_ALL=C; the screen tmux captured must
# hold braille cells (U+2801..U+28FF) in the first and no byte outside ASCII in the second.
# A private tmux socket; kills only what it started.
. "$(dirname "$0")/../lib.sh"
lr_plan "graph glyphs: braille with a UTF-8 locale" "graph glyphs: --graph block has no braille" \
	"graph glyphs: ASCII only with LC_ALL=C" "graph glyphs: q exits 0"
command -v tmux >/dev/null || { lr_skip_plan graph_glyphs "tmux not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan graph_glyphs "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_gg.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" ""	# T only: each glyph case names its session

# run NAME LOCALE ARGS...: the demo in its own tmux window; its exit status in $work/NAME.rc
run() {
	local name=$1 loc=$2
	shift 2
	cat >"$work/$name.sh" <<EOF
export LANG=$loc LC_ALL=$loc TERM=\${TERM:-screen}
"$LR_BIN" --demo -i 0.2 $* 2>"$work/$name.err"
echo \$? >"$work/$name.rc"
sleep 600
EOF
	T new-session -d -s "$name" -x 100 -y 30 "bash $work/$name.sh"
	T set-option -t "$name" status off >/dev/null
}
# the screen once the detail view has had 4 s of traffic (the graphs have a history)
capture() {
	local i
	for ((i = 0; i < 50; i++)); do T capture-pane -t "$1" -p | grep -q "Bitrate\|IFACE" && break; sleep 0.1; done
	sleep 0.5
	T send-keys -t "$1" v
	sleep 4
	T capture-pane -t "$1" -p >"$work/$1.txt"
}
quit() {
	local i
	T send-keys -t "$1" q
	for ((i = 0; i < 50; i++)); do [ -s "$work/$1.rc" ] && break; sleep 0.1; done
	cat "$work/$1.rc" 2>/dev/null
}

braille='\xe2(\xa0[\x81-\xbf]|\xa1[\x80-\xbf]|\xa2[\x80-\xbf]|\xa3[\x80-\xbf])'
run utf8 C.UTF-8
capture utf8
rc1=$(quit utf8)
n=$(LC_ALL=C grep -caP "$braille" "$work/utf8.txt")
echo "UTF-8: $n lines with braille"
if [ "$n" -gt 0 ]; then pass "graph glyphs: braille with a UTF-8 locale"
else fail "graph glyphs: braille with a UTF-8 locale" "none in: $(head -12 "$work/utf8.txt")"; fi

run block C.UTF-8 --graph block
capture block
rc2=$(quit block)
if LC_ALL=C grep -qaP "$braille" "$work/block.txt"; then
	fail "graph glyphs: --graph block has no braille" "braille on screen"
elif LC_ALL=C grep -qaP '\xe2\x96[\x81-\x88]' "$work/block.txt"; then
	pass "graph glyphs: --graph block has no braille"
else
	fail "graph glyphs: --graph block has no braille" "no block glyphs either: $(head -8 "$work/block.txt")"
fi

run plain C
capture plain
rc3=$(quit plain)
if LC_ALL=C grep -qaP '[\x80-\xff]' "$work/plain.txt"; then
	fail "graph glyphs: ASCII only with LC_ALL=C" "$(LC_ALL=C grep -naP '[\x80-\xff]' "$work/plain.txt" | head -3)"
elif grep -qE "Bitrate|IFACE" "$work/plain.txt"; then
	pass "graph glyphs: ASCII only with LC_ALL=C"
else
	fail "graph glyphs: ASCII only with LC_ALL=C" "no dashboard: $(head -5 "$work/plain.txt")"
fi
check "graph glyphs: q exits 0" test "$rc1$rc2$rc3" = 000
exit 0
