#!/usr/bin/env bash
# iperf3 3.22's options linerate refused last (issue 30, docs/design.md §9), each held against
# iperf3 3.22 (sid's build) in a namespace of its own (loopback only) and judged by iperf3's own
# printout: -d/--debug's parameters object as iperf3 -d received or sent it, the other end's;
# --server-max-duration's verdict (iperf3 3.22 -s run the same way: its client's exit status and
# last line, the wall clock); --json-stream-full-output's shape against 3.22's own; -F's file
# as the other end (iperf3 3.22 -F) wrote it or read it, by checksum.
. "$(dirname "$0")/../lib.sh"
lr_plan iperf3_options_more "debug-lrc debug-lrs maxdur-over maxdur-sum maxdur-bytes maxdur-equal \
maxdur-lrc jsfull-lrc file-lrc \
file-line-lrc file-lrc-t file-lrc-R file-lrs file-lrs-R file-udp-lrs"
need_root iperf3_options_more
[ -x "$LR_BIN" ] || { lr_skip_plan iperf3_options_more "$LR_BIN not built"; exit 0; }
sid=$(lr_iperf3_path sid) || { lr_skip_plan iperf3_options_more "iperf3 3.22 (sid) not installed (scripts/upstream-iperf3.sh)"; exit 0; }
v=$(lr_iperf3_version sid)
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
ns=$(lr_uniq)
lr_netns_lo "$ns" || { lr_skip_plan iperf3_options_more "cannot create a namespace"; exit 0; }
N=(ip netns exec "$ns")
port=5201

# srv CHECKS CMD...: a server in the namespace on $port, in the background ($spid), stdout in
# $tmp/srv.out, stderr in $tmp/srv.err; when it does not listen, CHECKS fail with its words
srv() {
	local checks=$1 c; shift
	"${N[@]}" "$@" >"$tmp/srv.out" 2>"$tmp/srv.err" &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	lr_wait_listen "$port" "$ns" 60 && return 0
	for c in $checks; do fail "$c" "the server did not listen: $(head -c 200 "$tmp/srv.err")"; done
	return 1
}
srv_wait() {	# the server's own end (-1), bounded
	local i
	for i in $(seq 60); do kill -0 "$spid" 2>/dev/null || break; sleep 0.05; done
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; port=$((port + 1))
}
# jblock FILE LABEL: the JSON object printed after a line LABEL (iperf3 -d's form), compact and
# with sorted keys, so that two printouts of one object compare equal; nothing when absent
jblock() {
	awk -v l="$2" '$0 == l {on = 1; next} on {print} on && /^}/ {exit}' "$1" |
		jq -cS . 2>/dev/null
}
i3() { "${N[@]}" env PATH="$sid:$PATH" timeout 20 iperf3 "$@"; }

# --- -d: the parameters object, as the other end's iperf3 -d printed it --------------------
if srv debug-lrc env PATH="$sid:$PATH" iperf3 -s -1 -d -p "$port"; then
	"${N[@]}" timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" -t 1 -d -J >"$tmp/dc.out" 2>"$tmp/dc.err"
	rc=$?
	srv_wait
	sent=$(jblock "$tmp/dc.err" send_parameters:) got=$(jblock "$tmp/srv.out" get_parameters:)
	echo "# linerate -c -d -J to iperf3 $v -s -d: exit $rc; linerate sent $sent; iperf3 got $got"
	check debug-lrc sh -c "[ $rc -eq 0 ] && jq -e .end.sum_sent.bytes $tmp/dc.out >/dev/null &&
		[ -n '$got' ] && [ '$sent' = '$got' ] && grep -q '^State change' $tmp/dc.err"
fi
if srv debug-lrs "$LR_BIN" -s -1 -d -J -p "$port"; then
	i3 -c 127.0.0.1 -p "$port" -t 1 -d >"$tmp/ds.out" 2>&1
	rc=$?
	srv_wait
	sent=$(jblock "$tmp/ds.out" send_parameters:) got=$(jblock "$tmp/srv.err" get_parameters:)
	echo "# iperf3 $v -c -d to linerate -s -d -J: exit $rc; iperf3 sent $sent; linerate got $got"
	check debug-lrs sh -c "[ $rc -eq 0 ] && jq -e .end $tmp/srv.out >/dev/null &&
		[ -n '$sent' ] && [ '$sent' = '$got' ] && grep -q '^State change' $tmp/srv.err"
fi

# --- --server-max-duration: iperf3 3.22's client against iperf3 3.22 -s and linerate -s -----
# md SERVER MAX CLIENT-ARGS...: iperf3 3.22's client against SERVER (iperf3 or linerate) -s -1
# --server-max-duration MAX; its exit status in $md_rc, its last line in $md_line, the whole
# seconds it took in $md_secs
md() {
	local which=$1 max=$2 t0; shift 2
	md_rc=none md_line= md_secs=
	if [ "$which" = iperf3 ]; then
		srv "" env PATH="$sid:$PATH" iperf3 -s -1 -p "$port" --server-max-duration "$max"
	else
		srv "" "$LR_BIN" -s -1 -p "$port" --server-max-duration "$max"
	fi || return
	t0=$SECONDS
	i3 -c 127.0.0.1 -p "$port" "$@" >"$tmp/md.out" 2>&1
	md_rc=$? md_line=$(tail -n 1 "$tmp/md.out") md_secs=$((SECONDS - t0))
	srv_wait
}
# NAME MAX CLIENT-ARGS: over (-t 3 > 2), the sum (-t 1 -O 1 > 1), no -t (-n: time 0), equal
for c in "maxdur-over 2 -t 3" "maxdur-sum 1 -t 1 -O 1" "maxdur-bytes 5 -n 1M" "maxdur-equal 1 -t 1"; do
	set -- $c
	name=$1 max=$2; shift 2
	md iperf3 "$max" "$@"
	want_rc=$md_rc want_line=$md_line
	md linerate "$max" "$@"
	echo "# iperf3 $v -c $* to -s --server-max-duration $max: iperf3 -s: exit $want_rc, $want_line"
	echo "#   linerate -s: exit $md_rc in $md_secs s, $md_line"
	ok=0
	if [ "$md_rc" = "$want_rc" ] && { [ "$md_rc" = 0 ] || [ "$md_line" = "$want_line" ]; }; then
		# refused before the test: well under its -t (3 s)
		[ "$name" != maxdur-over ] || [ "$md_secs" -lt 2 ] && ok=1
	fi
	check "$name" [ $ok -eq 1 ]
done
if srv maxdur-lrc env PATH="$sid:$PATH" iperf3 -s -1 -p "$port" --server-max-duration 2; then
	t0=$SECONDS
	"${N[@]}" timeout 20 "$LR_BIN" -c 127.0.0.1 -p "$port" -t 3 >"$tmp/mc.out" 2>&1
	rc=$? secs=$((SECONDS - t0))
	srv_wait
	echo "# linerate -c -t 3 to iperf3 $v -s --server-max-duration 2: exit $rc in ${secs} s: $(tail -n 1 "$tmp/mc.out")"
	check maxdur-lrc sh -c "[ $rc -eq 1 ] && [ $secs -lt 3 ] &&
		grep -q \"requested duration exceeds the server's maximum permitted limit\" $tmp/mc.out"
fi

# --- --json-stream-full-output: the events, then -J's whole object (iperf3 3.22's shape) ------
# jshape FILE: "events E1,E2,..; object keys K1,K2..; intervals N (events M); end equal 0|1"
jshape() {
	python3 - "$1" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
ev = []
while lines and lines[0].startswith('{"event"'):
	ev.append(json.loads(lines.pop(0)))
try:
	full = json.loads("\n".join(lines))
except ValueError:
	full = {}
names = [e["event"] for e in ev]
ends = [e["data"] for e in ev if e["event"] == "end"]
same = int(bool(ends) and ends[-1] == full.get("end"))
print("events %s; object keys %s; intervals %d (events %d); end equal %d" % (
	",".join(n for n in names if not n.startswith("linerate_")), ",".join(sorted(full)),
	len(full.get("intervals", [])), names.count("interval"), same))
PY
}
jsrun() {	# jsrun OUT CLIENT-CMD...: against iperf3 3.22 -s -1
	local out=$1; shift
	srv jsfull-lrc env PATH="$sid:$PATH" iperf3 -s -1 -p "$port" || return 1
	"${N[@]}" timeout 20 "$@" -c 127.0.0.1 -p "$port" -t 1 --json-stream \
		--json-stream-full-output >"$out" 2>&1
	srv_wait
}
if jsrun "$tmp/js.ref" env PATH="$sid:$PATH" iperf3 && jsrun "$tmp/js.lr" "$LR_BIN"; then
	want=$(jshape "$tmp/js.ref" | sed 's/; object keys /&*/') got=$(jshape "$tmp/js.lr")
	echo "# iperf3 $v -c -t 1 --json-stream --json-stream-full-output: $(jshape "$tmp/js.ref")"
	echo "# linerate -c, the same: $got (linerate_* events and keys are linerate's own)"
	# iperf3's events in order and its keys among ours; the object's intervals those streamed
	check jsfull-lrc python3 -c "
import sys
w, g = sys.argv[1].split('; '), sys.argv[2].split('; ')
keys = set(g[1][len('object keys '):].split(','))
sys.exit(not (w[0] == g[0] and set(w[1][len('object keys *'):].split(',')) <= keys and
	g[2].split(' (')[0] == 'intervals %s' % g[2].split('events ')[1].rstrip(')') and
	g[3] == 'end equal 1' and w[3] == 'end equal 1'))" "$want" "$got"
fi

# --- -F: a file's bytes, both roles, both directions: the written copy's checksum -----------
head -c 300001 /dev/urandom >"$tmp/src.bin"	# not a whole number of 128 KiB blocks
sum0=$(md5sum <"$tmp/src.bin")
# fcase NAME SERVER-CMD... -- CLIENT-CMD...: one -1 server, one client; then the copy $tmp/dst
fcase() {
	local name=$1 s=() c t0; shift
	while [ "$1" != -- ]; do s+=("$1"); shift; done
	shift
	rm -f "$tmp/dst"
	srv "$name" "${s[@]}" -s -1 -p "$port" || return
	t0=$SECONDS
	"${N[@]}" timeout 20 "$@" -c 127.0.0.1 -p "$port" >"$tmp/f.c" 2>&1
	c=$? f_secs=$((SECONDS - t0))
	srv_wait
	got=$(md5sum <"$tmp/dst" 2>/dev/null)
	echo "# $name (iperf3 $v): ${s[*]##*/} -s, ${*##*/} -c: exit $c in $f_secs s; copy $(stat -c %s "$tmp/dst" 2>/dev/null) bytes"
	# file-lrc-t: ended at the file's end, well before its -t 5
	check "$name" [ "$c:$got:$([ "$name" != file-lrc-t ] || [ "$f_secs" -lt 4 ] && echo in-time)" = \
		"0:$sum0:in-time" ]
}
fcase file-lrc env PATH="$sid:$PATH" iperf3 -F "$tmp/dst" -- "$LR_BIN" -F "$tmp/src.bin"
# iperf3's "Sent ... of FILE" line under the sender's, as iperf3 3.22's own client prints it
mine=$(grep -A1 ' sender$' "$tmp/f.c" | grep '^        Sent ')
if srv file-line-lrc env PATH="$sid:$PATH" iperf3 -s -1 -p "$port"; then
	i3 -c 127.0.0.1 -p "$port" -F "$tmp/src.bin" >"$tmp/fl.c" 2>&1
	srv_wait
	theirs=$(grep -A1 ' sender$' "$tmp/fl.c" | grep '^        Sent ')
	echo "# iperf3 $v -c -F: '$theirs'; linerate -c -F: '$mine'"
	check file-line-lrc [ "${theirs:-none}" = "$mine" ]
fi
# under -t the client's sender ends the test at the file's end (iperf3 3.22's client: ~1 s)
fcase file-lrc-t env PATH="$sid:$PATH" iperf3 -F "$tmp/dst" -- "$LR_BIN" -t 5 -F "$tmp/src.bin"
fcase file-lrc-R env PATH="$sid:$PATH" iperf3 -F "$tmp/src.bin" -- "$LR_BIN" -R -t 1 -F "$tmp/dst"
fcase file-lrs "$LR_BIN" -F "$tmp/dst" -- env PATH="$sid:$PATH" iperf3 -F "$tmp/src.bin"
fcase file-lrs-R "$LR_BIN" -F "$tmp/src.bin" -- env PATH="$sid:$PATH" iperf3 -R -t 1 -F "$tmp/dst"
if srv file-udp-lrs "$LR_BIN" -s -1 -p "$port" -F "$tmp/dst"; then
	i3 -c 127.0.0.1 -p "$port" -u -t 1 >"$tmp/fu.c" 2>&1
	rc=$?
	srv_wait
	echo "# iperf3 $v -c -u to linerate -s -F: exit $rc: $(tail -n 1 "$tmp/fu.c")"
	# iperf3 3.22 -s -F says the same (its error 34)
	check file-udp-lrs sh -c "[ $rc -eq 1 ] && grep -qx 'iperf3: error - cannot transfer file using UDP' $tmp/fu.c"
fi
lr_summary
