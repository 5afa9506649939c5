#!/usr/bin/env bash
# --listen in the dashboard serves the peer's series too (as headless does, issue 16): a
# dashboard client (tmux) tests against a linerate server under its own host name (unshare -u,
# same loopback) and is scraped while the test runs. Witnesses: promtool check metrics; a
# side="peer",host="peerhost" rx_bytes series for lo whose value is above 0 and at most what
# the kernel's lo rx_bytes counted since before the server started. Private tmux server; kills
# only its own processes.
. "$(dirname "$0")/../lib.sh"

lr_plan "dash peer: promtool check metrics" "dash peer: side=\"peer\" lo series, host peerhost" \
	"dash peer: peer rx_bytes within the kernel's lo delta"
need_root "tui_prometheus_dash_peer"
for t in tmux unshare curl promtool; do
	command -v "$t" >/dev/null || { lr_skip_plan tui_prometheus_dash_peer "$t not installed"; exit 0; }
done

work=$(mktemp -d /tmp/lr_tuiprom.XXXXXX)
lr_cleanup_add "rm -rf $work"
. "$LR_TOP/tests/lib_tmux.sh"
lr_tmux_init "$work" dash
port=$((20000 + RANDOM % 20000))
lport=$((port + 1))
lo_rx() { cat /sys/class/net/lo/statistics/rx_bytes; }

k0=$(lo_rx)
unshare -u sh -c "hostname peerhost; exec $LR_BIN -s -1 -p $port" >"$work/srv.log" 2>&1 &
srv=$!
lr_cleanup_add "kill $srv 2>/dev/null"
sleep 0.5
T new-session -d -s dash -x 120 -y 40 \
	"LANG=C.UTF-8 TERM=screen $LR_BIN -c 127.0.0.1 -p $port -t 6 -b 50M -i 0.2 --listen 127.0.0.1:$lport; sleep 30"
got=""
for _ in $(seq 40); do	# until the peer's series show (the test's first frames), at most 4 s
	sleep 0.1
	curl -sf --max-time 2 "http://127.0.0.1:$lport/metrics" >"$work/m" 2>/dev/null || continue
	grep -q 'side="peer"' "$work/m" && { got=1; break; }
done
sleep 1
curl -sf --max-time 2 "http://127.0.0.1:$lport/metrics" >"$work/m2" 2>/dev/null && [ -n "$got" ] &&
	cp "$work/m2" "$work/m"
k1=$(lo_rx)
T kill-session -t dash 2>/dev/null
kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null

if [ -s "$work/m" ] && promtool check metrics <"$work/m" >"$work/pt" 2>&1; then
	pass "dash peer: promtool check metrics"
else
	fail "dash peer: promtool check metrics" "$(head -c 300 "$work/pt" 2>/dev/null) (scrape $(wc -c <"$work/m" 2>/dev/null) bytes)"
fi
line=$(grep '^linerate_iface_rx_bytes_total{' "$work/m" | grep 'iface="lo"' | grep 'side="peer"' | grep 'host="peerhost"')
check "dash peer: side=\"peer\" lo series, host peerhost" test -n "$line"
v=${line##* }
if [ -n "$v" ] && awk -v v="$v" -v d="$((k1 - k0))" 'BEGIN {exit !(v > 0 && v <= d)}'; then
	pass "dash peer: peer rx_bytes within the kernel's lo delta"
else
	fail "dash peer: peer rx_bytes within the kernel's lo delta" "scraped '$v', kernel lo delta $((k1 - k0))"
fi
lr_summary
