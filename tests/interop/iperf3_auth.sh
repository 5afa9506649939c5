#!/usr/bin/env bash
# iperf3's authentication (issue 10, docs/design.md §9) on loopback, with throw-away keys made here by
# `openssl genrsa` / `openssl rsa -pubout`: linerate's client against Debian's iperf3 3.12
# server, iperf3's client against `linerate -s`, linerate at both ends; wrong passwords and
# missing tokens refused by each server; a skewed client clock (iperf3's own client under
# faketime); bad key and users files refused before any traffic. Witnesses: iperf3's own exit
# status, error text and -J report, the listening sockets (ss).
. "$(dirname "$0")/../lib.sh"
lr_plan iperf3_auth "lrc-i3s lrc-i3s-wrong-password lrc-i3s-padding-mismatch i3c-lrs \
i3c-lrs-wrong-password i3c-lrs-no-token i3c-lrs-padding-mismatch lrc-lrs lrc-lrs-wrong-password \
lrs-without-keys-ignores-token i3c-skew-refused \
i3c-skew-threshold lrc-token-oaep-openssl lrc-token-pkcs1-openssl bad-users-line bad-private-key \
bad-public-key no-password"
command -v iperf3 >/dev/null || { lr_skip_plan iperf3_auth "iperf3 not installed"; exit 0; }
command -v openssl >/dev/null || { lr_skip_plan iperf3_auth "openssl not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan iperf3_auth "$LR_BIN not built"; exit 0; }
i3_auth=$(iperf3 -v 2>/dev/null | grep -c authentication)
# The token's RSA padding: iperf3 3.17+ defaults to OAEP and has --use-pkcs1-padding; 3.12 knows
# only PKCS#1 v1.5. Linerate defaults to OAEP as 3.17+ does: I3PAD is what linerate's side
# needs to match the iperf3 here, OTHERPAD what does not match it.
if iperf3 --help 2>&1 | grep -q -- --use-pkcs1-padding; then
	I3PAD=(); OTHERPAD=(--use-pkcs1-padding); i3pad=OAEP
else
	I3PAD=(--use-pkcs1-padding); OTHERPAD=(); i3pad="PKCS#1 v1.5"
fi
echo "# $(iperf3 -v 2>/dev/null | head -n1): token padding $i3pad"
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
port=$((20000 + RANDOM % 20000))
next_port() { port=$((port + 1)); }

openssl genrsa -out "$tmp/priv.pem" 2048 2>/dev/null &&
	openssl rsa -in "$tmp/priv.pem" -pubout -out "$tmp/pub.pem" 2>/dev/null ||
	{ lr_skip_plan iperf3_auth "openssl could not make a key pair"; exit 0; }
# the users file as iperf3's docs make it: sha256 of "{user}password", by coreutils
printf '# test users\nalice,%s\n' "$(printf '%s' '{alice}s3cret' | sha256sum | cut -d' ' -f1)" \
	>"$tmp/users.csv"
export IPERF3_PASSWORD=s3cret
LRC_AUTH=(--username alice --rsa-public-key-path "$tmp/pub.pem")
LRS_AUTH=(--rsa-private-key-path "$tmp/priv.pem" --authorized-users-path "$tmp/users.csv")

wait_listen() { lr_wait_listen "$1" "" 60; }	# wait_listen PORT: up to 3 s, on loopback
# srv_start CMD...: a server on $port in the background ($spid), its output in $tmp/srv.out
srv_start() {
	"$@" >"$tmp/srv.out" 2>&1 &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	wait_listen "$port"
}
srv_stop() { kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; }
# i3_bytes FILE: iperf3 -J's end.sum_received.bytes (0 when absent)
i3_bytes() { python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["end"]["sum_received"]["bytes"])
except Exception: print(0)' "$1"; }
# lrc OUT ARGS...: linerate's client (headless), exit status in $rc, output in OUT
lrc() { local out=$1; shift; timeout 30 "$LR_BIN" -c 127.0.0.1 -p "$port" -t 1 --headless "$@" \
	>"$out" 2>&1; rc=$?; }
# i3c OUT ARGS...: iperf3's client, -J, exit status in $rc
i3c() { local out=$1; shift; timeout 30 iperf3 -c 127.0.0.1 -p "$port" -t 1 -J "$@" >"$out" 2>&1
	rc=$?; }
# i3t OUT ARGS...: the same in text: iperf3 3.12 -J exits 0 even after an error, text exits 1
i3t() { local out=$1; shift; timeout 30 iperf3 -c 127.0.0.1 -p "$port" -t 1 "$@" >"$out" 2>&1
	rc=$?; }

# --- linerate client -> Debian's iperf3 server (3.12; or 3.17+ first in PATH) ---------------------------------------
if [ "$i3_auth" -eq 0 ]; then
	for c in lrc-i3s lrc-i3s-wrong-password lrc-i3s-padding-mismatch; do
		skip "$c" "this iperf3 is built without authentication (iperf3 -v)"
	done
else
	next_port
	if srv_start iperf3 -s -p "$port" -J "${LRS_AUTH[@]}"; then
		lrc "$tmp/a.out" "${LRC_AUTH[@]}" "${I3PAD[@]}"
		# iperf3 -s -J writes one document per test: its own received bytes are the witness
		got=$(python3 -c 'import json,sys
t=open(sys.argv[1]).read(); d=json.JSONDecoder(); i=0; best=0
while i < len(t):
    t2=t[i:].lstrip()
    if not t2: break
    try: o,n=d.raw_decode(t2)
    except ValueError: break
    i=len(t)-len(t2)+n
    best=max(best, o.get("end",{}).get("sum_received",{}).get("bytes",0))
print(best)' "$tmp/srv.out" 2>/dev/null)
		if [ "$rc" -eq 0 ] && grep -q receiver "$tmp/a.out" && [ "${got:-0}" -gt 0 ]; then
			pass lrc-i3s
		else
			fail lrc-i3s "exit $rc: $(tail -n2 "$tmp/a.out" | tr '\n' ' ')"
		fi
		# a refusal: 3.12 to 3.20 send SERVER_ERROR 142 "test authorization failed" (and
		# linerate says so, nothing more); 3.21+ close the connection after the parameters and
		# linerate names the likely cause
		refused='error 142: test authorization failed (access denied)) while waiting for CREATE_STREAMS$\|closed or reset the control connection while waiting for CREATE_STREAMS (how an iperf3 3.21+ server refuses a token'
		IPERF3_PASSWORD=wrong lrc "$tmp/b.out" "${LRC_AUTH[@]}" "${I3PAD[@]}"
		if [ "$rc" -ne 0 ] && grep -q "$refused" "$tmp/b.out"; then
			pass lrc-i3s-wrong-password
		else
			fail lrc-i3s-wrong-password "exit $rc: $(tail -n1 "$tmp/b.out")"
		fi
		lrc "$tmp/c.out" "${LRC_AUTH[@]}" "${OTHERPAD[@]}"	# iperf3 cannot decrypt it
		if [ "$rc" -ne 0 ] && grep -q "$refused" "$tmp/c.out"; then
			pass lrc-i3s-padding-mismatch
		else
			fail lrc-i3s-padding-mismatch "exit $rc: $(tail -n1 "$tmp/c.out")"
		fi
		srv_stop
		echo "# iperf3 -s received ${got:-0} bytes; refusals it logged: $(grep -c \
			'test authorization failed' "$tmp/srv.out") (3.12 logs 2; 3.17+ none)"
	else
		for c in lrc-i3s lrc-i3s-wrong-password lrc-i3s-padding-mismatch; do
			fail "$c" "iperf3 -s did not listen"; done
		srv_stop
	fi
fi

# --- iperf3 client -> linerate -s ------------------------------------------------------------
next_port
if srv_start "$LR_BIN" -s -p "$port" --headless "${LRS_AUTH[@]}" "${I3PAD[@]}"; then
	i3c "$tmp/d.json" "${LRC_AUTH[@]}"
	b=$(i3_bytes "$tmp/d.json")
	if [ "$rc" -eq 0 ] && [ "$b" -gt 0 ]; then pass i3c-lrs
	else fail i3c-lrs "iperf3 exit $rc, received $b bytes: $(grep -m1 error "$tmp/d.json")"; fi
	IPERF3_PASSWORD=wrong i3t "$tmp/e.json" "${LRC_AUTH[@]}"
	if [ "$rc" -ne 0 ] && grep -q "test authorization failed" "$tmp/e.json"; then
		pass i3c-lrs-wrong-password
	else
		fail i3c-lrs-wrong-password "iperf3 exit $rc: $(tail -n1 "$tmp/e.json")"
	fi
	i3t "$tmp/f.json"	# no --username: no token
	if [ "$rc" -ne 0 ] && grep -q "test authorization failed" "$tmp/f.json"; then
		pass i3c-lrs-no-token
	else
		fail i3c-lrs-no-token "iperf3 exit $rc: $(tail -n1 "$tmp/f.json")"
	fi
	grep -q "no authentication token" "$tmp/srv.out" ||
		echo "# linerate -s did not say why it refused the tokenless test"
	srv_stop
else
	for c in i3c-lrs i3c-lrs-wrong-password i3c-lrs-no-token; do
		fail "$c" "linerate -s did not listen: $(head -n1 "$tmp/srv.out")"; done
	srv_stop
fi
# the same iperf3 token against a linerate server at the other padding: refused, and the
# server's message names the padding it expected
next_port
if srv_start "$LR_BIN" -s -p "$port" --headless "${LRS_AUTH[@]}" "${OTHERPAD[@]}"; then
	i3t "$tmp/g.json" "${LRC_AUTH[@]}"
	if [ "$rc" -ne 0 ] && grep -q "test authorization failed" "$tmp/g.json" &&
		grep -qi "padding" "$tmp/srv.out"; then
		pass i3c-lrs-padding-mismatch
	else
		fail i3c-lrs-padding-mismatch "iperf3 exit $rc; server: $(tail -n1 "$tmp/srv.out")"
	fi
	srv_stop
else
	fail i3c-lrs-padding-mismatch "linerate -s did not listen: $(head -n1 "$tmp/srv.out")"
	srv_stop
fi
# --- linerate at both ends (OAEP, the default) ---
next_port
if srv_start "$LR_BIN" -s -p "$port" --headless "${LRS_AUTH[@]}"; then
	lrc "$tmp/h.out" "${LRC_AUTH[@]}"
	# the server prints its summary once the client has its results: up to 3 s after
	for ((i = 0; i < 60; i++)); do grep -q receiver "$tmp/srv.out" && break; sleep 0.05; done
	if [ "$rc" -eq 0 ] && grep -q receiver "$tmp/h.out" && grep -q receiver "$tmp/srv.out"; then
		pass lrc-lrs
	else
		fail lrc-lrs "exit $rc: $(tail -n2 "$tmp/h.out" | tr '\n' ' ')"
	fi
	IPERF3_PASSWORD=wrong lrc "$tmp/i.out" "${LRC_AUTH[@]}"
	if [ "$rc" -ne 0 ] && grep -q "test authorization failed" "$tmp/i.out" &&
		grep -q "user alice: unknown, or the password does not match" "$tmp/srv.out"; then
		pass lrc-lrs-wrong-password
	else
		fail lrc-lrs-wrong-password "exit $rc: $(tail -n1 "$tmp/i.out")"
	fi
	srv_stop
else
	for c in lrc-lrs lrc-lrs-wrong-password; do
		fail "$c" "linerate -s did not listen: $(head -n1 "$tmp/srv.out")"; done
	srv_stop
fi

# -1 after a refused test: iperf3_server_fail.sh, held against iperf3 3.22's server

# --- a server without keys accepts any test and ignores a token, as iperf3 ------------------
next_port
if srv_start "$LR_BIN" -s -p "$port" --headless; then
	i3c "$tmp/l.json" "${LRC_AUTH[@]}"
	b=$(i3_bytes "$tmp/l.json")
	if [ "$rc" -eq 0 ] && [ "$b" -gt 0 ]; then pass lrs-without-keys-ignores-token
	else fail lrs-without-keys-ignores-token "iperf3 exit $rc, received $b bytes"; fi
	srv_stop
else
	fail lrs-without-keys-ignores-token "linerate -s did not listen"
	srv_stop
fi

# --- a skewed client clock: iperf3's own client under faketime (its token's ts) -------------
if ! command -v faketime >/dev/null; then
	skip i3c-skew-refused "faketime not installed (scripts/deps.sh)"
	skip i3c-skew-threshold "faketime not installed (scripts/deps.sh)"
else
	next_port
	if srv_start "$LR_BIN" -s -p "$port" --headless "${LRS_AUTH[@]}" "${I3PAD[@]}"; then
		rc=0	# the token's ts is iperf3's time(): 60 s ahead of the server's clock
		FAKETIME_DONT_FAKE_MONOTONIC=1 timeout 30 faketime -f "+60s" iperf3 -c 127.0.0.1 \
			-p "$port" -t 1 "${LRC_AUTH[@]}" >"$tmp/m.json" 2>&1 || rc=$?
		if [ "$rc" -ne 0 ] && grep -q "test authorization failed" "$tmp/m.json" &&
			grep -q "clocks 60 s apart\|clocks 59 s apart\|clocks 61 s apart" "$tmp/srv.out"; then
			pass i3c-skew-refused
		else
			fail i3c-skew-refused "iperf3 exit $rc; server: $(grep -m1 authorization "$tmp/srv.out")"
		fi
		srv_stop
	else
		fail i3c-skew-refused "linerate -s did not listen"
		srv_stop
	fi
	next_port
	if srv_start "$LR_BIN" -s -p "$port" --headless "${LRS_AUTH[@]}" "${I3PAD[@]}" \
		--time-skew-threshold 120; then
		rc=0
		FAKETIME_DONT_FAKE_MONOTONIC=1 timeout 30 faketime -f "+60s" iperf3 -c 127.0.0.1 \
			-p "$port" -t 1 -J "${LRC_AUTH[@]}" >"$tmp/n.json" 2>&1 || rc=$?
		b=$(i3_bytes "$tmp/n.json")
		if [ "$rc" -eq 0 ] && [ "$b" -gt 0 ]; then pass i3c-skew-threshold
		else fail i3c-skew-threshold "iperf3 exit $rc, received $b bytes"; fi
		srv_stop
	else
		fail i3c-skew-threshold "linerate -s did not listen"
		srv_stop
	fi
fi

# --- our client's token as iperf3 3.17+ (OAEP) and <= 3.16 (PKCS#1) servers read it: captured
# by a listener that plays iperf3's server up to the params, decrypted by openssl itself ------
capture_params() {	# capture_params FILE: one client's params JSON into FILE, then error 142
	python3 - "$port" "$1" <<'PY' &
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); s.settimeout(20)
c, _ = s.accept(); c.settimeout(10)
def need(n):
    b = b""
    while len(b) < n:
        x = c.recv(n - len(b))
        if not x: raise SystemExit(1)
        b += x
    return b
need(37); c.sendall(b"\x09")
body = need(struct.unpack(">I", need(4))[0])
open(sys.argv[2], "wb").write(body)
c.sendall(b"\xfe" + struct.pack(">ii", 142, 0)); c.close()
PY
	cpid=$!
	lr_cleanup_add "kill $cpid 2>/dev/null"
	wait_listen "$port"
}
for mode in oaep pkcs1; do
	next_port
	name=lrc-token-$mode-openssl
	if ! capture_params "$tmp/p_$mode.json"; then fail "$name" "the capture did not listen"; continue; fi
	extra=()
	[ "$mode" = pkcs1 ] && extra=(--use-pkcs1-padding)
	t0=$(date +%s)
	lrc "$tmp/o_$mode.out" "${LRC_AUTH[@]}" "${extra[@]}"
	wait "$cpid" 2>/dev/null
	plain=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["authtoken"])' \
		"$tmp/p_$mode.json" 2>/dev/null | openssl base64 -d -A 2>/dev/null |
		openssl pkeyutl -decrypt -inkey "$tmp/priv.pem" -pkeyopt "rsa_padding_mode:$mode" \
			2>/dev/null | tr '\n' '|')
	ts=${plain##*ts:   }
	if [[ "$plain" == "user: alice|pwd:  s3cret|ts:   "* ]] && [[ "$ts" =~ ^[0-9]+$ ]] &&
		[ $((ts - t0)) -ge 0 ] && [ $((ts - t0)) -le 5 ] && [ "$rc" -ne 0 ] &&
		grep -q "test authorization failed" "$tmp/o_$mode.out"; then
		pass "$name"
	else
		fail "$name" "openssl read \"$plain\" (clock $t0), client exit $rc"
	fi
done

# --- bad input: one line naming the file (and line), exit 2, nothing listening or sent --------
# exit2_named NAME WANT ARGS...: linerate ARGS exits 2 with one line containing WANT, and no
# listener appeared on $port
exit2_named() {
	local name=$1 want=$2 out; shift 2
	next_port
	out=$(timeout 10 "$LR_BIN" "$@" -p "$port" 2>&1 </dev/null)
	local r=$? lines
	lines=$(printf '%s\n' "$out" | grep -c .)
	if [ "$r" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$want" <<<"$out" &&
		! ss -Hltn "sport = :$port" | grep -q .; then
		pass "$name"
	else
		fail "$name" "exit $r, $lines lines: $out"
	fi
}
printf 'alice,%s\nbob;%s\n' "$(printf '%064d' 0)" "$(printf '%064d' 0)" >"$tmp/bad_users.csv"
exit2_named bad-users-line "--authorized-users-path $tmp/bad_users.csv line 2:" \
	-s --rsa-private-key-path "$tmp/priv.pem" --authorized-users-path "$tmp/bad_users.csv"
exit2_named bad-private-key "--rsa-private-key-path $tmp/pub.pem: not an unencrypted PEM" \
	-s --rsa-private-key-path "$tmp/pub.pem" --authorized-users-path "$tmp/users.csv"
# the client's bad key: exit 2 before connecting (a plain iperf3 -s would log the connection)
next_port
if srv_start iperf3 -s -p "$port"; then
	out=$(timeout 10 "$LR_BIN" -c 127.0.0.1 -p "$port" -t 1 --headless --username alice \
		--rsa-public-key-path "$tmp/users.csv" 2>&1)
	r=$?
	sleep 0.2
	if [ "$r" -eq 2 ] && [ "$(grep -c . <<<"$out")" -eq 1 ] &&
		grep -qF -- "--rsa-public-key-path $tmp/users.csv: not a PEM public key" <<<"$out" &&
		! grep -q "Accepted connection" "$tmp/srv.out"; then
		pass bad-public-key
	else
		fail bad-public-key "exit $r: $out"
	fi
	out=$(env -u IPERF3_PASSWORD timeout 10 "$LR_BIN" -c 127.0.0.1 -p "$port" -t 1 --headless \
		"${LRC_AUTH[@]}" 2>&1)
	r=$?
	sleep 0.2
	if [ "$r" -eq 2 ] && grep -q "IPERF3_PASSWORD" <<<"$out" &&
		! grep -q "Accepted connection" "$tmp/srv.out"; then
		pass no-password
	else
		fail no-password "exit $r: $out"
	fi
	srv_stop
else
	fail bad-public-key "iperf3 -s did not listen"
	fail no-password "iperf3 -s did not listen"
	srv_stop
fi
lr_summary
