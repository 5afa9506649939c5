#!/usr/bin/env bash
# An option `linerate -s` would drop is an error naming it, exit 2, before anything listens:
# client options (the client sends its test's), the dashboard's look when -s prints text, and
# sampling options without a CSV to sample for. What -s uses is still accepted (a port check
# proves it listened). No root, no traffic.
. "$(dirname "$0")/../lib.sh"
bad=("-u" "-P 2" "-b 10M" "-l 1400" "-R" "--bidir" "-t 5" "-w 1M" "-M 1400" "-C cubic" "--no-start"
	"--connect-timeout 100" "--theme mono" "--ascii" "-I lo" "--source proc" "--headless --theme mono")
for a in "${bad[@]}"; do lr_plan "-s $a: exit 2 naming it"; done
lr_plan "-s --headless -I lo --csv F: accepted (listens)"
[ -x "$LR_BIN" ] || { lr_skip_plan server_options "no binary at $LR_BIN (run make)"; exit 0; }

work=$(mktemp -d /tmp/lr_so.XXXXXX); lr_cleanup_add "rm -rf $work"
port=$((20000 + RANDOM % 20000))
for a in "${bad[@]}"; do
	# shellcheck disable=SC2086
	timeout 5 "$LR_BIN" -s -p "$port" $a </dev/null >"$work/out" 2>"$work/err"; rc=$?
	name=${a%% *}; [ "$a" = "--headless --theme mono" ] && name=--theme
	if [ "$rc" -eq 2 ] && grep -q -- "$name" "$work/err" && [ "$(wc -l <"$work/err")" -eq 1 ]; then
		pass "-s $a: exit 2 naming it"
	else
		fail "-s $a: exit 2 naming it" "rc $rc: $(cat "$work/err")"
	fi
done
"$LR_BIN" -s -p "$port" --headless -I lo --csv "$work/nic.csv" </dev/null >"$work/out" 2>&1 &
srv=$!; lr_cleanup_add "kill $srv 2>/dev/null"
for ((i = 0; i < 30; i++)); do ss -ltn | grep -q ":$port " && break; sleep 0.1; done
listening() { ss -ltn | grep -q ":$port "; }
check "-s --headless -I lo --csv F: accepted (listens)" listening
kill "$srv"; wait "$srv" 2>/dev/null
exit 0
