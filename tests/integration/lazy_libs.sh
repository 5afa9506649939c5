#!/usr/bin/env bash
# A run that neither serves --listen nor authenticates does not map libmicrohttpd (and gnutls
# through it) or libcrypto: about 4 MB of peak RSS (issue 33, bench/RESULTS.md). The witness is
# the kernel's /proc/PID/maps of the running process; the --listen run beside it shows that
# reading maps sees the library once it is loaded. Loopback only; each run bounded by -t and
# timeout; kills only its own.
. "$(dirname "$0")/../lib.sh"
lr_plan headless-maps-no-http-or-crypto listen-maps-libmicrohttpd
[ -x "$LR_BIN" ] || { lr_skip_plan lazy_libs "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_lazy.XXXXXX)
lr_cleanup_add "rm -rf $work"
# maps_of NAME PID: the library file names that PID's child maps, one a line, into $work/NAME
# (PID is timeout's: its child is linerate)
maps_of() {
	local child
	child=$(awk '{ print $1; exit }' /proc/"$2"/task/*/children 2>/dev/null)
	[ -n "$child" ] && awk '$6 ~ /\.so/ { n = split($6, p, "/"); print p[n] }' "/proc/$child/maps" |
		sort -u >"$work/$1" && [ -s "$work/$1" ]
}
# wait_csv FILE: until the sampler has written a row after the header (5 s at most)
wait_csv() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -f "$1" ] && [ "$(wc -l <"$1")" -ge 2 ] && return 0
		sleep 0.05
	done
	return 1
}

lr_bg timeout 10 "$LR_BIN" --headless -i 0.1 -t 1 --csv "$work/a.csv" --cpu-csv /dev/null
pid=$LR_PID
if wait_csv "$work/a.csv" && maps_of headless "$pid" && grep -q '^libc\.so' "$work/headless"; then
	if grep -Eq '^lib(microhttpd|gnutls|crypto)\.so' "$work/headless"; then
		fail headless-maps-no-http-or-crypto "mapped: $(grep -E '^lib(microhttpd|gnutls|crypto)' "$work/headless" | tr '\n' ' ')"
	else
		pass headless-maps-no-http-or-crypto
	fi
else
	fail headless-maps-no-http-or-crypto "no row, or its maps unreadable"
fi
wait "$pid" 2>/dev/null

port=$((20000 + RANDOM % 30000))
lr_bg timeout 10 "$LR_BIN" --headless -i 0.1 -t 1 --csv /dev/null --listen "127.0.0.1:$port"
pid=$LR_PID
if lr_wait_listen "$port" && maps_of listen "$pid"; then
	check listen-maps-libmicrohttpd grep -q '^libmicrohttpd\.so' "$work/listen"
else
	fail listen-maps-libmicrohttpd "nothing listened on 127.0.0.1:$port"
fi
wait "$pid" 2>/dev/null
lr_summary
