#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench: linerate beside nload, bmon, sar, ifstat and iperf3, all in ONE run, in network
# namespaces this script creates (never touches the host's interfaces). Writes bench/RESULTS.md
# (tables of absolute numbers and linerate/other ratios, the exact commands, the machine), keeping
# the hand-written interpretation between the <!-- interpretation --> markers. Never run by tests.
#
# Parts (BENCH_PARTS, default all): sampler (issue 2), callgrind, dash (issue 3), traffic (issue 4),
# scale (issue 33: bench/sampler_scale.sh, CPU per tick on generated trees, its own section).
# Knobs: BENCH_SAMPLER_SECS=60 BENCH_DASH_SECS=30 BENCH_TRAFFIC_SECS=5 BENCH_REPS=3
#        BENCH_CALLGRIND=1 (0: skip callgrind)  BENCH_RESULTS=FILE  BENCH_KEEP=1 (keep raw files)
#        BENCH_TRAFFIC_CASES="MTU PROTO ARG;..." (a subset of the traffic cases, e.g. "1500 udp 64")
#        LR_BIN=path/to/linerate
set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
S1=${BENCH_SAMPLER_SECS:-60}
S2=${BENCH_DASH_SECS:-30}
S3=${BENCH_TRAFFIC_SECS:-5}
REPS=${BENCH_REPS:-3}
PARTS=${BENCH_PARTS:-"sampler callgrind dash traffic scale"}
[ "${BENCH_CALLGRIND:-1}" = 0 ] && PARTS=${PARTS//callgrind/}
ID=$$
TSOCK=lrbench$ID	# our own tmux server: killing it touches nobody else's sessions

say() { echo "bench: $*" >&2; }
. "$TOP/bench/scratch.sh"	# wait_listen
die() { say "$*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces); run: sudo make bench"
for t in ip tmux jq awk cc make ethtool; do command -v $t >/dev/null || die "missing $t (scripts/deps.sh --bench)"; done

WORK=$(mktemp -d /tmp/lrbench.XXXXXX)
# The binary under test: a plain optimised build of its own (./linerate in a shared tree may be a
# sanitizer build copied there by `make asan`), copied away so a rebuild mid-run cannot change it.
sanitized() { ldd "$1" 2>/dev/null | grep -Eq 'lib(asan|tsan|ubsan|lsan)'; }
if [ -n "${LR_BIN:-}" ]; then
	LR_SRC=$LR_BIN
	LR_BUILD="LR_BIN=$LR_BIN"
elif make -s -C "$TOP" B=build-bench CFLAGS='-O2 -g' LDFLAGS= build-bench/linerate >"$WORK/build.log" 2>&1; then
	LR_SRC=$TOP/build-bench/linerate
	LR_BUILD="make B=build-bench CFLAGS='-O2 -g' LDFLAGS= (the Makefile's default flags)"
else
	say "build-bench failed (see below), falling back to ./linerate"; tail -5 "$WORK/build.log" >&2
	LR_SRC=$TOP/linerate
	LR_BUILD="./linerate (build-bench failed)"
fi
[ -x "$LR_SRC" ] || die "$LR_SRC not built (make linerate)"
sanitized "$LR_SRC" && die "$LR_SRC is a sanitizer build; benchmark a plain build (LR_BIN=...)"
LR=$WORK/linerate
cp "$LR_SRC" "$LR" || die "cannot copy $LR_SRC"
PIDS=()
NSS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	tmux -L "$TSOCK" kill-server 2>/dev/null
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	for p in "${NSS[@]}"; do ip netns del "$p" 2>/dev/null; done
	if [ "${BENCH_KEEP:-0}" = 1 ]; then say "raw files kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

RU=$WORK/rusage
cc -O2 -Wall -Wextra -o "$RU" "$TOP/bench/rusage.c" || die "cannot build bench/rusage.c"
RC=$WORK/readcost
cc -O2 -Wall -Wextra -o "$RC" "$TOP/bench/readcost.c" || die "cannot build bench/readcost.c"

have() { command -v "$1" >/dev/null; }
now() { date +%s.%N; }
# sleep_until T0 SECS: sleeps until SECS after the time T0 (from now())
sleep_until() { local d; d=$(awk -v a="$1" -v s="$2" -v n="$(now)" 'BEGIN { d = a + s - n; print (d > 0 ? d : 0) }'); sleep "$d"; }
# calc EXPR: floating-point arithmetic
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }
# fmt N DIGITS
fmt() { awk -v v="$1" -v d="${2:-2}" 'BEGIN { if (v == "" || v == "-") print "-"; else printf "%.*f\n", d, v }'; }
# ratio A B: A/B with 2 decimals, "-" when either is missing or B is 0
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f\n", a / b }'; }

# Descendants of PID (PID first), from /proc/PID/task/*/children.
tree_pids() {
	local c
	echo "$1"
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree_pids "$c"; done
}
# hwm_kb PID: sum of VmHWM (peak RSS) over the live process tree of PID
hwm_kb() {
	local p s=0 v
	for p in $(tree_pids "$1"); do
		v=$(awk '/^VmHWM:/ { print $2 }' /proc/"$p"/status 2>/dev/null)
		s=$((s + ${v:-0}))
	done
	echo $s
}
# wait_gone PID SECS: waits until PID (not necessarily our child) has ended (a zombie has)
wait_gone() {
	local i st
	for ((i = 0; i < $2 * 20; i++)); do
		st=$(awk '{ sub(/.*\) /, ""); print $1 }' /proc/"$1"/stat 2>/dev/null)
		[ -z "$st" ] || [ "$st" = Z ] && return 0
		sleep 0.05
	done
	return 1
}
# ru_cpu FILE: CPU seconds (user+sys, process and all its descendants) from a rusage file
ru_cpu() { [ -s "$1" ] && awk '{ printf "%.4f\n", ($1 + $2) / 1e6 }' "$1" || echo -; }
ru_us() { [ -s "$1" ] && awk '{ printf "%.3f / %.3f\n", $1 / 1e6, $2 / 1e6 }' "$1" || echo -; }
ru_rss() { [ -s "$1" ] && awk '{ print $3 }' "$1" || echo -; }
# Busy jiffies of the whole machine (all CPUs, everything but idle and iowait) and CLK_TCK.
HZ=$(getconf CLK_TCK)
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }

tm() { tmux -L "$TSOCK" "$@"; }
# tm_start NAME CMD: detached 120x40 session running CMD (after 0.3 s, so pipe-pane is attached
# before the first byte); echoes the pane's PID (our rusage wrapper, which execs on).
tm_start() {
	tm new-session -d -s "$1" -x 120 -y 40 "sleep 0.3; exec $2" || return 1
	tm display-message -p -t "$1" '#{pane_pid}'
}

netns_new() { ip netns add "$1" && NSS+=("$1") && ip -n "$1" link set lo up; }

MACHINE_CPU=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
DATE_START=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
T_START=$(now)
LR_VER=$("$LR" -v 2>&1 | head -1)
GIT_REV=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')
# Every table comes from a clean tree (docs/design.md §8): a figure of code no commit holds
# cannot be reproduced. BENCH_DIRTY=1 runs anyway and says so in the file.
GIT_DIRTY=$(git -C "$TOP" status --porcelain --untracked-files=no 2>/dev/null | grep -v ' bench/RESULTS.md$')
if [ -n "$GIT_DIRTY" ]; then
	if [ "${BENCH_DIRTY:-0}" != 1 ]; then
		echo "bench: the tree has uncommitted changes (git status): commit them first, or BENCH_DIRTY=1" >&2
		exit 2
	fi
	GIT_REV="$GIT_REV + uncommitted changes (BENCH_DIRTY=1: not reproducible)"
else
	GIT_REV="$GIT_REV, clean tree"
fi

#######################################################################################
# Part 1 (issue 2): sampler cost over S1 s at -i 0.1 with 7 interfaces, all tools at once.
#######################################################################################
SUMMARY=""	# key ratios, one table row each, shown first
S1_MD=""
bench_sampler() {
	local ns=lrb${ID}s r=$WORK/sampler t0 name pid
	local -A pids cpu us rss hwm cmd ivl
	mkdir -p "$r"
	netns_new "$ns" || return 1
	for i in 0 1 2; do
		ip -n "$ns" link add bv${i}a type veth peer name bv${i}b
		ip -n "$ns" link set bv${i}a up
		ip -n "$ns" link set bv${i}b up
	done
	local nif
	nif=$(ip -n "$ns" -o link show | wc -l)
	say "sampler: $nif interfaces in netns $ns, all tools for ${S1}s at 0.1 s (or their fastest)"

	local names="linerate nload bmon sar ifstat"
	cmd[linerate]="$LR --headless -i 0.1 -t $S1 --csv /dev/null --cpu-csv /dev/null"
	cmd[nload]="nload -t 100"
	cmd[bmon]="bmon -r 0.1"
	cmd[sar]="sar -n DEV 1"
	cmd[ifstat]="ifstat -a 0.1"
	ivl=([linerate]=0.1 [nload]=0.1 [bmon]=0.1 [sar]=1 [ifstat]=0.1)
	for name in nload bmon sar ifstat; do
		have "${cmd[$name]%% *}" || { say "sampler: ${cmd[$name]%% *} missing, skipped"; names=${names/$name/}; }
	done

	t0=$(now)
	"$RU" "$r/linerate.ru" ip netns exec "$ns" ${cmd[linerate]} >"$r/linerate.out" 2>&1 &
	pids[linerate]=$!; PIDS+=($!)
	for name in $names; do
		case $name in
		nload | bmon)
			pid=$(tm_start "$name" "$RU $r/$name.ru ip netns exec $ns env LANG=C.UTF-8 ${cmd[$name]}")
			pids[$name]=$pid; PIDS+=("$pid") ;;
		sar | ifstat)
			"$RU" "$r/$name.ru" ip netns exec "$ns" env LC_ALL=C ${cmd[$name]} >"$r/$name.out" 2>&1 &
			pids[$name]=$!; PIDS+=($!) ;;
		esac
	done
	sleep_until "$t0" $((S1 - 1))
	for name in $names; do hwm[$name]=$(hwm_kb "${pids[$name]}"); done
	sleep_until "$t0" "$S1"
	for name in $names; do [ "$name" = linerate ] || kill "${pids[$name]}" 2>/dev/null; done
	for name in $names; do
		wait_gone "${pids[$name]}" 10 || { kill -9 "${pids[$name]}" 2>/dev/null; sleep 0.2; }
		wait "${pids[$name]}" 2>/dev/null
		cpu[$name]=$(ru_cpu "$r/$name.ru")
		us[$name]=$(ru_us "$r/$name.ru")
		rss[$name]=$(ru_rss "$r/$name.ru")
	done
	grep -v '^$' "$r/linerate.out" | head -3 >&2

	local ticks lr_tick lightest="" lightname=""
	ticks=$(awk -v s="$S1" 'BEGIN { printf "%d", s / 0.1 + 0.5 }')
	lr_tick=$(calc "${cpu[linerate]} / $ticks * 1e6")
	S1_MD+="### Sampler cost (issue 2): ${S1} s at 0.1 s, ${nif} interfaces, all tools in the same run"$'\n\n'
	S1_MD+="| tool | command | interval s | CPU s | user / sys s | % of a core | CPU µs per sample | peak RSS (KiB, largest process) | VmHWM sum of its processes (KiB) | linerate/tool CPU | linerate/tool CPU per sample | linerate/tool RSS |"$'\n'
	S1_MD+="|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"$'\n'
	local -A pers
	for name in $names; do
		pers[$name]=$(calc "${cpu[$name]} / ($S1 / ${ivl[$name]}) * 1e6")
	done
	for name in $names; do
		local pct
		pct=$(calc "${cpu[$name]} / $S1 * 100")
		S1_MD+="| $name | \`${cmd[$name]}\` | ${ivl[$name]} | $(fmt "${cpu[$name]}" 3) | ${us[$name]} | $(fmt "$pct" 3) | $(fmt "${pers[$name]}" 1) | ${rss[$name]} | ${hwm[$name]} |"
		S1_MD+=" $(ratio "${cpu[linerate]}" "${cpu[$name]}") | $(ratio "${pers[linerate]}" "${pers[$name]}") | $(ratio "${rss[linerate]}" "${rss[$name]}") |"$'\n'
		# the aim compares headless tools at the same interval (sar cannot go below 1 s;
		# nload and bmon are dashboards: the dashboard part compares them with linerate's)
		if [ "$name" = ifstat ] && [ "${cpu[$name]}" != - ] && [ "${ivl[$name]}" = 0.1 ]; then
			if [ -z "$lightest" ] || awk -v a="${cpu[$name]}" -v b="$lightest" 'BEGIN { exit !(a < b) }'; then
				lightest=${cpu[$name]}; lightname=$name
			fi
		fi
	done
	S1_MD+=$'\n'"linerate: **$(fmt "$lr_tick" 1) µs of CPU per tick** ($ticks ticks of 0.1 s; CPU time includes start-up and exit)."$'\n'
	if [ -n "$lightest" ]; then
		local r3 met
		r3=$(ratio "${cpu[linerate]}" "$lightest")
		met=$(awk -v r="$r3" 'BEGIN { print (r != "-" && r <= 0.3334) ? "met" : "NOT met" }')
		S1_MD+="Aim \"at most a third of the lightest headless tool at the same interval\" (0.1 s: ifstat; sar cannot go below 1 s and is compared per sample): linerate/$lightname = $r3: **$met**. nload and bmon draw a dashboard: their columns are for reference, the like-for-like comparison with them is the dashboard part below."$'\n'
	fi
	SUMMARY+="| headless sampler CPU per sample, linerate --headless/ifstat (both at 0.1 s); /sar (1 s) | $(ratio "${pers[linerate]}" "${pers[ifstat]:-}"); $(ratio "${pers[linerate]}" "${pers[sar]:-}") | ≤ 0.33 of ifstat |"$'\n'
	SUMMARY+="| sampler peak RSS (KiB) | ${rss[linerate]} | < 8192 |"$'\n'
	local rssmet
	rssmet=$(awk -v r="${rss[linerate]}" 'BEGIN { print (r != "-" && r < 8192) ? "met" : "NOT met" }')
	S1_MD+="Aim \"peak RSS under 8 MB\": linerate ${rss[linerate]} KiB: **$rssmet**."$'\n\n'
	S1_MD+="Every tool runs inside netns \`$ns\` via \`ip netns exec\` and sees the same interfaces"
	S1_MD+=" ($(ip -n "$ns" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); printf "%s%s", s, $2; s = ", " }'))."
	S1_MD+=" nload and bmon run in detached tmux sessions of 120x40 (LANG=C.UTF-8); sar and ifstat write to a file."
	S1_MD+=" CPU and peak RSS come from wait4() rusage of each tool and every process it started (bench/rusage.c, a child"
	S1_MD+=" subreaper, so sar's sadc is included); the others are stopped with SIGTERM after ${S1} s, linerate stops itself (-t)."
	S1_MD+=" The VmHWM column sums /proc/PID/status VmHWM over each tool's live processes 1 s before the end."$'\n\n'

	# The floor under a tick: raw cost of each read a tick does, and of an empty wake-up.
	ip netns exec "$ns" "$RC" bv0a >"$r/readcost.txt" 2>&1
	if [ -s "$r/readcost.txt" ]; then
		local floor
		floor=$(awk -F'\t' -v n="$nif" '
			/^pread \/proc\/(stat|softirqs|net\/softnet_stat|net\/snmp)\t/ { s += $2 }
			/^netlink/ { s += $2 } /^ethtool GSTATS/ { s += n * $2 } /^empty/ { w = $2 }
			END { printf "%.0f µs of reads + %.0f µs for the wake-up = %.0f µs", s, w, s + w }' "$r/readcost.txt")
		S1_MD+="### The floor under a tick (bench/readcost.c, same netns, ${nif} interfaces, CPU time per call, mean of 2000 calls)"$'\n\n'
		S1_MD+="| operation | µs per call | note |"$'\n|---|---:|---|\n'
		S1_MD+=$(awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$r/readcost.txt")
		S1_MD+=$'\n\n'"A tick that reads /proc/stat, /proc/softirqs, softnet_stat, /proc/net/snmp, one netlink dump and one"
		S1_MD+=" ethtool GSTATS for each of the $nif interfaces (GSSET_INFO only when GSTATS says the count moved), woken once, costs at least $floor (CPU time of the calls, on a"
		S1_MD+=" machine that is also running other work); linerate measured $(fmt "$lr_tick" 0) µs of CPU per tick above, and the"
		S1_MD+=" lightest tool at 0.1 s $(fmt "${lightname:+${pers[$lightname]}}" 0) µs per sample."
		S1_MD+=" Command: \`ip netns exec $ns readcost bv0a\` (bench/readcost.c built with \`cc -O2\`)."$'\n\n'
	fi

	# Callgrind: instructions per tick, from the difference of a 1 s and a 3 s run (start-up cancels).
	if [[ " $PARTS " == *" callgrind "* ]] && have valgrind; then
		say "callgrind: linerate headless 1 s and 5 s at 0.1 s under valgrind"
		# LD_BIND_NOW: callgrind 3.19 sometimes jumps to an unrelocated PLT slot (0x6ae6) on a lazy
		# binding from the sampler thread; memcheck and native runs are clean.
		local t ir=() tk=()
		for t in 1 5; do
			ip netns exec "$ns" env LD_BIND_NOW=1 valgrind --tool=callgrind --callgrind-out-file="$r/cg.$t.out" \
				"$LR" --headless -i 0.1 -t "$t" --csv "$r/cg.$t.csv" --cpu-csv /dev/null \
				>"$r/cg.$t.log" 2>&1
			ir+=("$(awk '/^(summary|totals):/ { print $2; exit }' "$r/cg.$t.out" 2>/dev/null)")
			tk+=("$(awk -F, 'NR > 1 { seen[$1] = 1 } END { print length(seen) }' "$r/cg.$t.csv" 2>/dev/null)")
		done
		local per
		per=$(awk -v a="${ir[0]:-0}" -v b="${ir[1]:-0}" -v ta="${tk[0]:-0}" -v tb="${tk[1]:-0}" \
			'BEGIN { if (tb > ta && b > a) printf "%d", (b - a) / (tb - ta); else print "-" }')
		S1_MD+="### Instructions per tick (callgrind)"$'\n\n'
		S1_MD+="| run | instructions (Ir) | ticks (CSV rows by time) |"$'\n|---|---:|---:|\n'
		S1_MD+="| \`-t 1\` | ${ir[0]:--} | ${tk[0]:--} |"$'\n'"| \`-t 5\` | ${ir[1]:--} | ${tk[1]:--} |"$'\n\n'
		S1_MD+="**$per instructions per tick** (difference of the two runs over the difference in ticks; $nif interfaces)."
		S1_MD+=" Command: \`ip netns exec $ns env LD_BIND_NOW=1 valgrind --tool=callgrind $LR --headless -i 0.1 -t T --csv FILE --cpu-csv /dev/null\`."$'\n\n'
		if have callgrind_annotate && [ -s "$r/cg.5.out" ]; then
			S1_MD+="Where the instructions of the \`-t 5\` run go (callgrind_annotate --inclusive=yes, linerate's own functions, and the top self costs; per tick = Ir / ${tk[1]:-?} ticks, start-up included in the totals):"$'\n\n'
			S1_MD+="| inclusive Ir | % | per tick | function |"$'\n|---:|---:|---:|---|\n'
			S1_MD+=$(callgrind_annotate --inclusive=yes "$r/cg.5.out" 2>/dev/null | awk -v t="${tk[1]:-1}" '
				/file:function/ { on = 1; next }
				on && /\/src\// && n < 16 && match($0, /^ *[0-9,]+ +\( *[0-9.]+%\) +/) {
					ir = $1; pc = substr($0, RSTART, RLENGTH); sub(/^ *[0-9,]+ +\( */, "", pc); sub(/\) +$/, "", pc)
					f = substr($0, RLENGTH + 1); sub(/ \[.*/, "", f); sub(/.*\/src\//, "src/", f)
					irn = ir; gsub(/,/, "", irn); printf "| %s | %s | %d | %s |\n", ir, pc, irn / t, f; n++ }')
			S1_MD+=$'\n\n'"| self Ir | % | per tick | function |"$'\n|---:|---:|---:|---|\n'
			S1_MD+=$(callgrind_annotate "$r/cg.5.out" 2>/dev/null | awk -v t="${tk[1]:-1}" '
				/file:function/ { on = 1; next }
				on && n < 10 && match($0, /^ *[0-9,]+ +\( *[0-9.]+%\) +/) {
					ir = $1; pc = substr($0, RSTART, RLENGTH); sub(/^ *[0-9,]+ +\( */, "", pc); sub(/\) +$/, "", pc)
					f = substr($0, RLENGTH + 1); sub(/ \[.*/, "", f); sub(/.*:/, "", f)
					irn = ir; gsub(/,/, "", irn); printf "| %s | %s | %d | %s |\n", ir, pc, irn / t, f; n++ }')
			S1_MD+=$'\n\n'
		fi
	fi

	# System calls per tick (strace -c), to see the kernel side of a tick.
	if [[ " $PARTS " == *" callgrind "* ]] && have strace; then
		say "strace: linerate headless 5 s at 0.1 s, syscall counts"
		ip netns exec "$ns" strace -f -c -o "$r/strace.txt" "$LR" --headless -i 0.1 -t 5 \
			--csv "$r/st.csv" --cpu-csv /dev/null >/dev/null 2>&1
		local stt
		stt=$(awk -F, 'NR > 1 { seen[$1] = 1 } END { print length(seen) }' "$r/st.csv" 2>/dev/null)
		if [ -s "$r/strace.txt" ] && [ "${stt:-0}" -gt 0 ]; then
			S1_MD+="### System calls per tick (strace -f -c, 5 s at 0.1 s, $stt ticks, start-up included)"$'\n\n'
			S1_MD+="| syscall | calls | per tick |"$'\n|---|---:|---:|\n'
			S1_MD+=$(awk -v t="$stt" '$1 ~ /^[0-9.]+$/ && NF >= 5 { name = $NF; calls = $4; if (name == "total") tot = calls; else printf "%s\t%s\n", name, calls }
				END { }' "$r/strace.txt" | sort -t$'\t' -k2,2nr | head -12 |
				awk -F'\t' -v t="$stt" '{ printf "| %s | %s | %.1f |\n", $1, $2, $2 / t }')
			S1_MD+=$'\n'"| all | $(awk '$NF == "total" { print $4 }' "$r/strace.txt") | $(awk -v t="$stt" '$NF == "total" { printf "%.1f", $4 / t }' "$r/strace.txt") |"$'\n\n'
			S1_MD+="Command: \`ip netns exec $ns strace -f -c linerate --headless -i 0.1 -t 5 --csv FILE --cpu-csv /dev/null\`."$'\n\n'
		fi
	fi
}

#######################################################################################
# Part 2 (issue 3): dashboard bytes/s to the terminal and CPU, 120x40, traffic on one interface.
#######################################################################################
S2_MD=""
bench_dash() {
	local nsd=lrb${ID}d nsp=lrb${ID}p r=$WORK/dash t0 name pid
	local -A pids cpu us rss bytes cmd
	mkdir -p "$r"
	netns_new "$nsd" && netns_new "$nsp" || return 1
	ip link add bdv0 netns "$nsd" type veth peer name bdv1 netns "$nsp"
	ip -n "$nsd" addr add 10.79.0.1/24 dev bdv0
	ip -n "$nsp" addr add 10.79.0.2/24 dev bdv1
	ip -n "$nsd" link set bdv0 up
	ip -n "$nsp" link set bdv1 up
	local rate=${BENCH_DASH_RATE:-200M}
	ip netns exec "$nsp" iperf3 -s -p 5201 >"$r/iperf3-s.out" 2>&1 &
	PIDS+=($!); local spid=$!
	wait_listen "$nsp" 5201
	ip netns exec "$nsd" timeout $((S2 + 15)) iperf3 -c 10.79.0.2 -t $((S2 + 3)) -b "$rate" \
		>"$r/iperf3-c.out" 2>&1 &
	PIDS+=($!); local cpid=$!
	sleep 1
	say "dash: linerate, nload, bmon in tmux 120x40 for ${S2}s, TCP at $rate on bdv0"

	local names="linerate nload bmon"
	cmd[linerate]="$LR -i 0.1"
	cmd[nload]="nload -t 100 bdv0"
	cmd[bmon]="bmon -r 0.1 -p bdv0,lo"
	for name in nload bmon; do
		have "${cmd[$name]%% *}" || { say "dash: ${cmd[$name]%% *} missing, skipped"; names=${names/$name/}; }
	done
	t0=$(now)
	for name in $names; do
		: >"$r/$name.tty"
		pid=$(tm_start "$name" "$RU $r/$name.ru ip netns exec $nsd env LANG=C.UTF-8 ${cmd[$name]}")
		pids[$name]=$pid; PIDS+=("$pid")
		tm pipe-pane -o -t "$name" "cat >> $r/$name.tty"
	done
	local term
	term=$(tm show -gv default-terminal 2>/dev/null || echo '?')
	# The tools start 0.3 s after their session; measure S2 s of their output from then.
	sleep_until "$t0" "$(calc "$S2 + 0.3")"
	for name in $names; do bytes[$name]=$(stat -c %s "$r/$name.tty"); done
	for name in $names; do tm capture-pane -p -t "$name" >"$r/$name.screen" 2>/dev/null; done
	for name in $names; do kill "${pids[$name]}" 2>/dev/null; done
	for name in $names; do
		wait_gone "${pids[$name]}" 10 || kill -9 "${pids[$name]}" 2>/dev/null
		sleep 0.1
		cpu[$name]=$(ru_cpu "$r/$name.ru")
		us[$name]=$(ru_us "$r/$name.ru")
		rss[$name]=$(ru_rss "$r/$name.ru")
	done
	wait "$cpid" 2>/dev/null
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
	local traffic
	traffic=$(awk '/receiver/ { print $(NF-2), $(NF-1) }' "$r/iperf3-c.out" | tail -1)
	[ -n "$traffic" ] || traffic="(iperf3 ended early: $(tail -1 "$r/iperf3-c.out"))"

	S2_MD+="### Dashboard (issue 3): ${S2} s at 120x40, -i 0.1 / -t 100 / -r 0.1, all three in the same run"$'\n\n'
	S2_MD+="| tool | command | bytes to the terminal | bytes/s | CPU s | user / sys s | % of a core | peak RSS (KiB) | linerate/tool bytes/s | linerate/tool CPU |"$'\n'
	S2_MD+="|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"$'\n'
	local bps
	for name in $names; do
		bps=$(calc "${bytes[$name]} / $S2")
		S2_MD+="| $name | \`${cmd[$name]}\` | ${bytes[$name]} | $(fmt "$bps" 0) | $(fmt "${cpu[$name]}" 3) | ${us[$name]} | $(fmt "$(calc "${cpu[$name]} / $S2 * 100")" 2) | ${rss[$name]} |"
		S2_MD+=" $(ratio "${bytes[linerate]}" "${bytes[$name]}") | $(ratio "${cpu[linerate]}" "${cpu[$name]}") |"$'\n'
	done
	SUMMARY+="| dashboard CPU, linerate/nload, /bmon | $(ratio "${cpu[linerate]}" "${cpu[nload]:-}"), $(ratio "${cpu[linerate]}" "${cpu[bmon]:-}") | ≤ 0.5 each |"$'\n'
	SUMMARY+="| dashboard bytes/s to the terminal, linerate/nload, /bmon | $(ratio "${bytes[linerate]}" "${bytes[nload]:-}"), $(ratio "${bytes[linerate]}" "${bytes[bmon]:-}") | < 1 each |"$'\n'
	S2_MD+=$'\n'"Aim: at most half the CPU of each, and fewer bytes/s than each:"
	for name in $names; do
		[ "$name" = linerate ] && continue
		S2_MD+=" vs $name CPU $(ratio "${cpu[linerate]}" "${cpu[$name]}") ($(awk -v r="$(ratio "${cpu[linerate]}" "${cpu[$name]}")" 'BEGIN { print (r != "-" && r <= 0.5) ? "met" : "NOT met" }'))"
		S2_MD+=", bytes/s $(ratio "${bytes[linerate]}" "${bytes[$name]}") ($(awk -v r="$(ratio "${bytes[linerate]}" "${bytes[$name]}")" 'BEGIN { print (r != "-" && r < 1) ? "met" : "NOT met" }'));"
	done
	S2_MD+=$'\n\n'"Traffic: \`iperf3 -c 10.79.0.2 -t $((S2 + 3)) -b $rate\` from netns $nsd over veth bdv0 (MTU 1500)"
	S2_MD+=" to \`iperf3 -s\` in netns $nsp, running through the whole measurement (iperf3 receiver: $traffic)."
	S2_MD+=" Each tool runs in its own detached tmux session (\`tmux new-session -d -x 120 -y 40\`, LANG=C.UTF-8,"
	S2_MD+=" TERM=$term), inside netns $nsd;"
	S2_MD+=" its output is recorded with \`tmux pipe-pane -o 'cat >> FILE'\` from before its first byte, for ${S2} s from its start."
	S2_MD+=" nload is given the loaded interface and bmon a policy that selects it first (\`-p bdv0,lo\`, both still listed)"
	S2_MD+=" so that their graphs move: by default both open on lo, which stays idle and is cheap to draw. linerate's"
	S2_MD+=" overview lists every interface, busiest first."
	S2_MD+=" CPU: wait4() rusage of the tool (bench/rusage.c), over its whole life (~${S2} s)."$'\n\n'
}

#######################################################################################
# Part 3 (issue 4): traffic, linerate<->linerate beside iperf3<->iperf3, veth between netns.
#######################################################################################
S3_MD=""
S3_TSV=""
bench_traffic() {
	local nss=lrb${ID}v nsc=lrb${ID}c r=$WORK/traffic
	mkdir -p "$r"
	netns_new "$nss" && netns_new "$nsc" || return 1
	ip link add btc0 netns "$nsc" type veth peer name bts0 netns "$nss"
	ip -n "$nsc" addr add 10.78.0.1/24 dev btc0
	ip -n "$nss" addr add 10.78.0.2/24 dev bts0
	ip -n "$nsc" link set btc0 up
	ip -n "$nss" link set bts0 up
	CC=$(ip netns exec "$nsc" sysctl -n net.ipv4.tcp_congestion_control)
	S3_TSV=$r/runs.tsv
	: >"$S3_TSV"
	# udp: the veth's tx-udp-segmentation off, so every datagram is a packet on the link as on a
	# NIC without UDP segmentation offload (the headline, docs/design.md §8); udpgso: the same with it on,
	# GSO super-packets crossing the veth whole (linerate only, shown beside, never the headline)
	local cases=("1500 tcp 1" "1500 tcp 2" "1500 udp 64" "1500 udpgso 64" "1500 udp 1400"
		"1500 udpgso 1400" "9000 tcp 1" "9000 tcp 2" "9000 udp 8900" "9000 udpgso 8900")
	[ -n "${BENCH_TRAFFIC_CASES:-}" ] && IFS=';' read -r -a cases <<<"$BENCH_TRAFFIC_CASES"
	local c mtu proto arg tool rep tools
	local total=0
	for c in "${cases[@]}"; do
		set -- $c
		case $2 in tcp) total=$((total + 2 * REPS)) ;; udp) total=$((total + 3 * REPS)) ;; *) total=$((total + REPS)) ;; esac
	done
	say "traffic: $total runs of ${S3}s (cc $CC), veth MTU 1500/9000 between $nsc and $nss"
	local n=0 curmtu=""
	for c in "${cases[@]}"; do
		set -- $c
		mtu=$1 proto=$2 arg=$3
		if [ "$mtu" != "$curmtu" ]; then
			ip -n "$nsc" link set btc0 mtu "$mtu"
			ip -n "$nss" link set bts0 mtu "$mtu"
			curmtu=$mtu
			sleep 0.2
		fi
		tools="iperf3 linerate"
		[ "$proto" = udp ] && tools="iperf3 linerate linerate-nogso"
		[ "$proto" = udpgso ] && tools="linerate"
		local seg=on
		[ "$proto" = udp ] && seg=off
		ip netns exec "$nsc" ethtool -K btc0 tx-udp-segmentation "$seg" 2>/dev/null ||
			say "traffic: cannot set tx-udp-segmentation $seg on btc0"
		for ((rep = 1; rep <= REPS; rep++)); do
			for tool in $tools; do
				n=$((n + 1))
				say "traffic [$n/$total] MTU $mtu $proto $arg $tool (rep $rep)"
				traffic_one "$nss" "$nsc" "$mtu" "$proto" "$arg" "$tool" "$rep" "$r"
			done
		done
	done
	traffic_tables
}

# udp_rcvbuf_errors NS: Udp RcvbufErrors of the namespace (/proc/net/snmp is per netns)
udp_rcvbuf_errors() {
	ip netns exec "$1" awk '/^Udp:/ { if (!h) { for (i = 2; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 }
		else { print $c + 0; exit } }' /proc/net/snmp 2>/dev/null || echo 0
}

# link_rx_packets NS: packets the server's veth received (the kernel's count of what crossed the
# link: one per datagram when the sender's veth segments, one per super-packet when it does not)
link_rx_packets() { ip netns exec "$1" cat /sys/class/net/bts0/statistics/rx_packets 2>/dev/null || echo 0; }

# traffic_cmds TOOL PROTO ARG: sets SRV and CLI (argument strings; the address is 10.78.0.2)
traffic_cmds() {
	local opts
	if [ "$2" = tcp ]; then opts="-P $3 -C $CC"; else opts="-u -b 0 -l $3"; fi
	case $1 in
	iperf3) SRV="iperf3 -s -1 -J"; CLI="iperf3 -c 10.78.0.2 -t $S3 -J $opts" ;;
	linerate) SRV="$LR -s -1"; CLI="$LR -c 10.78.0.2 --headless -t $S3 -J $opts" ;;
	linerate-nogso) SRV="$LR -s -1 --no-gso"; CLI="$LR -c 10.78.0.2 --headless -t $S3 -J $opts --no-gso" ;;
	esac
}

traffic_one() {
	local nss=$1 nsc=$2 mtu=$3 proto=$4 arg=$5 tool=$6 rep=$7 r=$8
	local f="$r/$mtu-$proto-$arg-$tool-$rep" spid b0 b1
	traffic_cmds "$tool" "$proto" "$arg"
	"$RU" "$f.srv.ru" ip netns exec "$nss" $SRV >"$f.srv.out" 2>&1 &
	spid=$!; PIDS+=($spid)
	if ! wait_listen "$nss" 5201; then
		say "traffic: server did not listen: $(tail -1 "$f.srv.out")"
		kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
		return
	fi
	b0=$(busy_jiffies)
	local e0 e1 l0 l1
	e0=$(udp_rcvbuf_errors "$nss")
	l0=$(link_rx_packets "$nss")
	"$RU" "$f.cli.ru" timeout -k 2 $((S3 + 20)) ip netns exec "$nsc" $CLI >"$f.json" 2>"$f.cli.err"
	b1=$(busy_jiffies)
	e1=$(udp_rcvbuf_errors "$nss")
	l1=$(link_rx_packets "$nss")
	wait_gone "$spid" 5 || kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	local cpu_c cpu_s mcpu
	cpu_c=$(ru_cpu "$f.cli.ru"); cpu_s=$(ru_cpu "$f.srv.ru")
	mcpu=$(calc "($b1 - $b0) / $HZ")
	# From the client's JSON (iperf3's shape): receiver bytes, sender bytes and seconds.
	local j
	j=$(jq -r '[.end.sum_received.bytes // "-", .end.sum_sent.bytes // "-", .end.sum_sent.seconds // "-",
		.end.sum_received.seconds // "-", .end.sum_sent.retransmits // "-", .error // ""] | @tsv' \
		"$f.json" 2>/dev/null)
	[ -n "$j" ] || j=$'-\t-\t-\t-\t-\tno JSON'
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mtu" "$proto" "$arg" "$tool" "$rep" \
		"$j" "$cpu_c" "$cpu_s" "$mcpu" "$(head -c 200 "$f.cli.err" | tr '\t\n' '  ')" \
		"$((e1 - e0))" "$((l1 - l0))" >>"$S3_TSV"
}

# Medians over the repetitions, then the tables.
traffic_tables() {
	local agg=$WORK/traffic/agg.tsv
	# columns of runs.tsv: 1 mtu 2 proto 3 arg 4 tool 5 rep 6 rbytes 7 sbytes 8 ssecs 9 rsecs 10 retr
	# 11 error 12 cpu_c 13 cpu_s 14 machine_cpu 15 stderr 16 UDP RcvbufErrors delta (receiver netns)
	# 17 packets the receiver's veth got (rx_packets delta)
	awk -F'\t' '
	function med(key, n,   i, j, t, a) {
		n = cnt[key]
		if (n == 0) return "-"
		for (i = 1; i <= n; i++) a[i] = v[key, i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function put(k, name, x) { if (x != "-" && x != "") { cnt[k SUBSEP name]++; v[k SUBSEP name, cnt[k SUBSEP name]] = x } }
	{
		k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		runs[k]++
		if ($6 == "-" || $6 == 0 || $8 == "-" || $8 == 0) { fails[k]++; next }
		gbps = $6 * 8 / $8 / 1e9
		put(k, "gbps", gbps)
		cpu = $12 + $13
		put(k, "cpu", cpu)
		put(k, "cpug", cpu / ($6 * 8 / 1e9))
		put(k, "mcpug", $14 / ($6 * 8 / 1e9))
		if ($2 ~ /^udp/) {
			put(k, "dps", $6 / $3 / $8)
			put(k, "lpps", $17 / $8)
			put(k, "sdps", $7 / $3 / $8)
			put(k, "rcvbuf", $16)
			put(k, "loss", $7 > 0 ? ($7 - $6) / $7 * 100 : "-")
		} else put(k, "retr", $10)
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]; split(k, p, SUBSEP)
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", p[1], p[2], p[3], p[4],
				med(k SUBSEP "gbps"), med(k SUBSEP "dps"), med(k SUBSEP "loss"), med(k SUBSEP "retr"),
				med(k SUBSEP "cpu"), med(k SUBSEP "cpug"), med(k SUBSEP "mcpug"), fails[k] + 0,
				med(k SUBSEP "sdps"), med(k SUBSEP "rcvbuf"), med(k SUBSEP "lpps")
		}
	}' "$S3_TSV" >"$agg"

	S3_MD+="### Traffic (issue 4): ${S3} s per run, median of $REPS run(s), veth between two netns, congestion control $CC"$'\n\n'
	S3_MD+="| MTU | test | tool | Gbit/s received | packets/s on the link (receiver veth) | datagrams/s received | datagrams/s sent | loss % | UDP RcvbufErrors (receiver netns) | TCP retransmits | CPU s (client+server) | CPU s per Gbit (client+server) | CPU s per Gbit (whole machine) | failed runs |"$'\n'
	S3_MD+="|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"$'\n'
	local mtu proto arg tool g d l rt c cg mg fl sd rb test
	while IFS=$'\t' read -r mtu proto arg tool g d l rt c cg mg fl sd rb lp; do
		test=$(traffic_name "$proto" "$arg")
		[ "$proto" = tcp ] && rb=- lp=-
		S3_MD+="| $mtu | $test | $tool | $(fmt "$g" 3) | $(fmt "$lp" 0) | $(fmt "$d" 0) | $(fmt "$sd" 0) | $(fmt "$l" 2) | $(fmt "$rb" 0) | $(fmt "$rt" 0) | $(fmt "$c" 2) | $(fmt "$cg" 3) | $(fmt "$mg" 3) | $fl |"$'\n'
	done <"$agg"

	S3_MD+=$'\n'"Ratios linerate/iperf3 (same case, same run). UDP leads with datagrams/s delivered (the receiver's"
	S3_MD+=" own count: what reached the application, never what the link carried and the receiver then dropped),"
	S3_MD+=" the veth's tx-udp-segmentation off so that every datagram is a packet as on a NIC without UDP"
	S3_MD+=" segmentation offload (the same work for both tools, docs/design.md §8); packets/s on the link beside"
	S3_MD+=" it. The aims are judged on those like-for-like delivered figures only. Last, not judged: linerate with"
	S3_MD+=" the veth's segmentation on, whose GSO super-packets cross the veth whole (inflated by the veth)."$'\n\n'
	S3_MD+="| MTU | test | Gbit/s | datagrams/s delivered | packets/s on the link | CPU s per Gbit | --no-gso: Gbit/s | --no-gso: datagrams/s delivered | --no-gso: CPU s per Gbit | not judged: GSO across the veth, datagrams/s | aim (issue 4, on delivered datagrams/s) |"$'\n'
	S3_MD+="|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"$'\n'
	local -A G D CG LP
	while IFS=$'\t' read -r mtu proto arg tool g d l rt c cg mg fl sd rb lp; do
		G[$mtu/$proto/$arg/$tool]=$g; D[$mtu/$proto/$arg/$tool]=$d; CG[$mtu/$proto/$arg/$tool]=$cg
		LP[$mtu/$proto/$arg/$tool]=$lp
	done <"$agg"
	local seen="" k aim rg rd rl rn rb2 kg
	while IFS=$'\t' read -r mtu proto arg tool g d l rt c cg mg fl sd rb lp; do
		k=$mtu/$proto/$arg
		[ "$proto" = udpgso ] && continue	# shown beside its udp case
		[[ " $seen " == *" $k "* ]] && continue
		seen+=" $k"
		test=$(traffic_name "$proto" "$arg")
		rg=$(ratio "${G[$k/linerate]:-}" "${G[$k/iperf3]:-}")
		if [ "$proto" = udp ]; then
			kg=$mtu/udpgso/$arg
			# delivered: the receiver's count (loss excluded), the link's segmentation off
			rd=$(ratio "${D[$k/linerate]:-}" "${D[$k/iperf3]:-}")
			rl=$(ratio "${LP[$k/linerate]:-}" "${LP[$k/iperf3]:-}")
			rn=$(ratio "${D[$k/linerate-nogso]:-}" "${D[$k/iperf3]:-}")
			rb2=$(ratio "${D[$kg/linerate]:-}" "${D[$k/iperf3]:-}")
			case $arg in
			64) aim=">= 10x: $(ge "$rd" 10); --no-gso >= 1.5x: $(ge "$rn" 1.5)" ;;
			1400) aim=">= 3x: $(ge "$rd" 3)" ;;
			*) aim="(none stated)" ;;
			esac
			SUMMARY+="| MTU $mtu $test datagrams/s delivered (veth segmentation off), linerate/iperf3 (GSO; --no-gso) | $rd; $rn | $(case $arg in 64) echo "≥ 10; ≥ 1.5" ;; 1400) echo "≥ 3" ;; *) echo - ;; esac) |"$'\n'
			SUMMARY+="| not judged: MTU $mtu $test datagrams/s with GSO super-packets across the veth, linerate/iperf3 | $rb2 | - |"$'\n'
			S3_MD+="| $mtu | $test | $rg | $rd | $rl | $(ratio "${CG[$k/linerate]:-}" "${CG[$k/iperf3]:-}") |"
			S3_MD+=" $(ratio "${G[$k/linerate-nogso]:-}" "${G[$k/iperf3]:-}") | $rn | $(ratio "${CG[$k/linerate-nogso]:-}" "${CG[$k/iperf3]:-}") | $rb2 | $aim |"$'\n'
		else
			SUMMARY+="| MTU $mtu $test Gbit/s, linerate/iperf3 | $rg | ≥ 1 |"$'\n'
			S3_MD+="| $mtu | $test | $rg | - | - | $(ratio "${CG[$k/linerate]:-}" "${CG[$k/iperf3]:-}") | - | - | - | - | >= 1x: $(ge "$rg" 1) |"$'\n'
		fi
	done <"$agg"

	S3_MD+=$'\n'"Commands (server in netns $nss, 10.78.0.2; client in netns $nsc, 10.78.0.1; veth btc0/bts0 at the MTU shown):"$'\n\n'
	local p
	for p in "tcp N" "udp L"; do
		set -- $p
		for tool in iperf3 linerate linerate-nogso; do
			[ "$1" = tcp ] && [ "$tool" = linerate-nogso ] && continue
			traffic_cmds "$tool" "$1" "$2"
			S3_MD+="- $tool $1: server \`$SRV\`, client \`$CLI\`"$'\n'
		done
	done
	S3_MD+=$'\n'"Packets on the link are the receiving veth's rx_packets over the run (the kernel's count; a few"
	S3_MD+=" hundred control-connection packets included) divided by the sender's seconds; the UDP cases set"
	S3_MD+=" \`ethtool -K btc0 tx-udp-segmentation off\` on the sender's veth first (\`on\` for the GSO case beside)."
	S3_MD+=" Datagrams are counted at the application, from the receiver's report in the client's JSON"
	S3_MD+=" (\`end.sum_received.bytes\` / datagram size)."
	S3_MD+=" Gbit/s = received bytes × 8 / the sender's test seconds (\`end.sum_sent.seconds\`), the same for both tools"
	S3_MD+=" (the receivers' own seconds differ in how they count the end of the test). Loss % = (sent − received) / sent, from"
	S3_MD+=" the two byte sums; UDP RcvbufErrors is the receiver namespace's /proc/net/snmp counter over the run (socket"
	S3_MD+=" buffer full; the kernel counts a GRO super-packet once). CPU s (client+server): wait4() rusage of the client and of the one-off server (-1) of that run;"
	S3_MD+=" the whole-machine figure is the busy time of all CPUs from /proc/stat over the client's run (it includes softirq work"
	S3_MD+=" that the kernel does not charge to either process, and anything else running on the machine)."$'\n\n'
}
traffic_name() {
	case $1 in
	tcp) echo "TCP -P $2" ;;
	udp) echo "UDP -b 0 -l $2" ;;
	*) echo "UDP -b 0 -l $2, GSO across the veth" ;;
	esac
}
ge() { awk -v r="$1" -v a="$2" 'BEGIN { if (r == "-") print "n/a"; else print (r >= a) ? "met" : "NOT met" }'; }

#######################################################################################
for part in $PARTS; do
	case $part in
	sampler) bench_sampler ;;
	callgrind) ;;	# run inside bench_sampler (same namespace)
	dash) bench_dash ;;
	traffic) bench_traffic ;;
	# writes the "scale" section of $OUT and bench/sampler_scale.svg, kept below
	scale) [ -f "$OUT" ] && BENCH_RESULTS=$OUT "$TOP/bench/sampler_scale.sh" ;;
	*) die "unknown part $part" ;;
	esac
done

T_END=$(now)
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
ELAPSED=$(awk -v a="$T_START" -v b="$T_END" 'BEGIN { printf "%d", b - a }')

# Keep the hand-written interpretation of the previous RESULTS.md.
INTERP=""
if [ -f "$OUT" ]; then
	INTERP=$(awk '/<!-- interpretation:begin -->/ { on = 1; next } /<!-- interpretation:end -->/ { on = 0 } on' "$OUT")
fi
[ -n "$INTERP" ] || INTERP="(hand-written interpretation of the latest run goes here)"
# The classifier on driver counter names its rules were not written from (cheap, no traffic):
# bench/classify_unseen.sh writes its own section, kept below with the others.
[ -f "$OUT" ] && BENCH_RESULTS=$OUT make -s -C "$TOP" bench-classify >/dev/null
# Sections the single-purpose benches write (bench/scrape_cost.sh, bench/peer_cost.sh,
# bench/classify_unseen.sh), kept as they are until those scripts run again.
SECTIONS=""
if [ -f "$OUT" ]; then
	SECTIONS=$(awk '/<!-- section:[a-z_]*:begin -->/ { on = 1 } on { print } /<!-- section:[a-z_]*:end -->/ { on = 0; print "" }' "$OUT")
fi

versions() {
	echo "- linerate: $LR_VER (git $GIT_REV), built with $LR_BUILD; \`linerate\` in the commands below is that binary"
	have iperf3 && echo "- $(iperf3 --version | head -1)"
	have nload && echo "- $(nload --help 2>&1 | awk '/^nload version/ { print; exit }')"
	have bmon && echo "- $(bmon -V 2>&1 | head -1)"
	have sar && echo "- $(sar -V 2>&1 | head -1)"
	have ifstat && echo "- $(ifstat -v 2>&1 | head -1)"
	have tmux && echo "- $(tmux -V)"
	have valgrind && echo "- $(valgrind --version)"
}

TMP_OUT=$WORK/RESULTS.md
{
	echo "# linerate benchmarks"
	echo
	echo "Generated by \`make bench\` (bench/run.sh); only the interpretation below is written by hand."
	echo
	echo "## Interpretation"
	echo
	echo "<!-- interpretation:begin -->"
	echo "$INTERP"
	echo "<!-- interpretation:end -->"
	echo
	echo "## Machine and run"
	echo
	echo "- date: $DATE_START, $ELAPSED s for the whole run"
	echo "- CPU: $MACHINE_CPU, nproc $(nproc); kernel $(uname -r); $(awk '/MemTotal/ { printf "%d MiB RAM", $2 / 1024 }' /proc/meminfo)"
	echo "- load average (1/5/15 min) at start: $LOAD_START; at end: $LOAD_END (other work on the machine shows here)"
	echo "- parts: $PARTS; BENCH_SAMPLER_SECS=$S1 BENCH_DASH_SECS=$S2 BENCH_TRAFFIC_SECS=$S3 BENCH_REPS=$REPS"
	versions
	echo
	echo "## Results"
	echo
	if [ -n "$SUMMARY" ]; then
		echo "### Key ratios of this run (details and absolute numbers below)"
		echo
		echo "| measure | linerate/other | aim (issues 2-4) |"
		echo "|---|---:|---|"
		printf '%s\n' "$SUMMARY"
	fi
	printf '%s' "$S1_MD" "$S2_MD" "$S3_MD"
	if [ -n "$S3_TSV" ] && [ -s "$S3_TSV" ]; then
		echo "### Traffic: every run"
		echo
		echo "| MTU | proto | -P/-l | tool | rep | received bytes | sent bytes | sender s | receiver s | retransmits | error | client CPU s | server CPU s | machine CPU s | UDP RcvbufErrors | receiver veth rx_packets |"
		echo "|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
		awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $16, $17 }' "$S3_TSV"
		echo
	fi
	[ -n "$SECTIONS" ] && printf '%s\n' "$SECTIONS"
} >"$TMP_OUT"
# Commands read better with the binary's name than with its temporary path.
sed -i "s|$LR|linerate|g" "$TMP_OUT"
cp "$TMP_OUT" "$OUT"
say "wrote $OUT ($ELAPSED s)"
