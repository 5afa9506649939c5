#!/usr/bin/env bash
# What `linerate --replay` costs to open a long recording: an hour of 8 interfaces and 64 CPUs at
# 0.1 s (bench/report_day.py DIR 3600 0.1 8 64 0.1, the README's example) replayed in a private
# tmux server (100x30). Timed by /usr/bin/time (wall, CPU, max RSS) from the start to the first
# frame that shows the status line's "replay" (the rows are all read before the dashboard draws),
# then `q`. The witness of "loaded" is the screen itself. Writes its section of bench/RESULTS.md
# (between <!-- section:replay_load:begin/end -->) unless BENCH_RESULTS=- (stdout only).
# Usage: bench/replay_load.sh [SECONDS]   (default 3600)
set -u
cd "$(dirname "$0")/.." || exit 1
source tests/lib.sh
source tests/lib_tmux.sh
LR=$(realpath "${LR_BUILD:-build}/linerate")
OUT=${BENCH_RESULTS:-bench/RESULTS.md}
secs=${1:-3600}
work=$(mktemp -d /work/tmp-replay-load.XXXXXX 2>/dev/null || mktemp -d)
lr_cleanup_add "rm -rf $work"
lr_tmux_init "$work" replay 10
python3 bench/report_day.py "$work" "$secs" 0.1 8 64 0.1 >/dev/null || exit 1
csv=$(du -cb "$work/if.csv" "$work/cpu.csv" | tail -1 | cut -f1)
rows=$(($(wc -l <"$work/if.csv") + $(wc -l <"$work/cpu.csv") - 2))
sync
t0=$(date +%s.%N)
lr_tmux_new_sized 100 30 "/usr/bin/time -f '%e %U %S %M' -o $work/time $LR --replay $work/if.csv $work/cpu.csv 2>$work/err"
# up to 10 minutes for the first frame (a slow or loaded machine); the time is what it took
if ! wait_screen ' replay ' 6000; then
	echo "replay_load: no frame within 600 s: $(head -c 300 "$work/err")" >&2
	exit 1
fi
t1=$(date +%s.%N)
key q
wait_file "$work/time" 300 || { echo "replay_load: did not exit after q" >&2; exit 1; }
read -r wall usr sys rss <"$work/time"
first=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
row=$(printf '| %s s at 0.1 s, 8 interfaces, 64 CPUs | %.0f MB | %d | %s | %.1f | %.1f | %.0f |' \
	"$secs" "$(awk -v b="$csv" 'BEGIN {print b / 1e6}')" "$rows" "$first" "$wall" \
	"$(awk -v u="$usr" -v s="$sys" 'BEGIN {print u + s}')" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')")
echo "$row"
section=$(cat <<MD
### Opening a long recording in --replay (bench/replay_load.sh)

$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) vCPUs (load average $(cut -d' ' -f1-3 /proc/loadavg) at the end:
wall time is the scheduler's). \`bench/report_day.py DIR $secs 0.1 8 64 0.1\` generates the recording;
\`linerate --replay if.csv cpu.csv\` runs in tmux (100x30) under /usr/bin/time; "first frame" is the
wall clock from the start until the screen shows the replay's status line (every row is read before
the first frame), then \`q\`. A replay holds its rows in memory (up to 4 million per kind); the
report (section above) reads any length in bounded memory.

| recording | CSV | rows | first frame s | wall s (to q) | CPU s | max RSS MiB |
|---|---:|---:|---:|---:|---:|---:|
$row
MD
)
if [ "$OUT" != - ]; then
	python3 bench/results_section.py "$OUT" "replay_load" "$section"
	echo "wrote its section of $OUT"
fi
