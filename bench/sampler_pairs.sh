#!/bin/bash
# SPDX-License-Identifier: MIT
# linerate's headless sampler beside ifstat at -i 0.1 (issue 33), in paired rounds: each round
# runs `linerate --headless` (and an older build, LR_BASE, when given) and `ifstat -a 0.1` at the
# same time for SECS seconds in one network namespace of 3 veth pairs + lo that this script
# creates, so the machine's other load falls on all of them alike. CPU from wait4() rusage
# (bench/rusage.c), peak RSS as /proc/PID/status VmHWM 1 s before the end. Writes the
# "sampler_pairs" section of bench/RESULTS.md. Never run by tests, never asserts.
# Knobs: PAIRS_ROUNDS=5 PAIRS_SECS=20 LR_BIN=path LR_BASE=path BENCH_RESULTS=FILE
set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
ROUNDS=${PAIRS_ROUNDS:-5}
SECS=${PAIRS_SECS:-20}
say() { echo "sampler_pairs: $*" >&2; }
die() { say "$*"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (a network namespace)"
command -v ifstat >/dev/null || die "ifstat missing (scripts/deps.sh --bench)"

. "$TOP/bench/scratch.sh"
bench_scratch pairs

if [ -z "${LR_BIN:-}" ]; then
	make -s -C "$TOP" B=build-bench CFLAGS='-O2 -g' LDFLAGS= build-bench/linerate \
		>"$WORK/build.log" 2>&1 || { tail -5 "$WORK/build.log" >&2; exit 1; }
	LR_BIN=$TOP/build-bench/linerate
fi
cp "$LR_BIN" "$WORK/linerate" || exit 1
TOOLS="linerate ifstat"
if [ -n "${LR_BASE:-}" ]; then
	cp "$LR_BASE" "$WORK/linerate-base" || exit 1
	TOOLS="linerate linerate-base ifstat"
fi
cc -O2 -Wall -Wextra -o "$WORK/rusage" "$TOP/bench/rusage.c" || die "cannot build bench/rusage.c"

ip netns add "$NS" && ip -n "$NS" link set lo up || die "cannot create netns $NS"
for i in 0 1 2; do
	ip -n "$NS" link add pr${i}a type veth peer name pr${i}b &&
		ip -n "$NS" link set pr${i}a up && ip -n "$NS" link set pr${i}b up || die "veth"
done
NIF=$(ip -n "$NS" -o link show | wc -l)

cmd_of() {
	case $1 in
	linerate | linerate-base)
		echo "$WORK/$1 --headless -i 0.1 -t $SECS --csv /dev/null --cpu-csv /dev/null" ;;
	ifstat) echo "ifstat -a 0.1" ;;
	esac
}
hwm() { awk '/^VmHWM:/ { print $2 }' /proc/"$1"/status 2>/dev/null; }
# the tool's own PID under rusage -> ip netns exec (which execs): the child of the wrapper
child_of() { cat /proc/"$1"/task/*/children 2>/dev/null | awk '{ print $1; exit }'; }

: >"$WORK/runs.tsv"
for ((r = 1; r <= ROUNDS; r++)); do
	say "round $r of $ROUNDS (${SECS} s)"
	declare -A pid=()
	for t in $TOOLS; do
		"$WORK/rusage" "$WORK/$t.$r.ru" ip netns exec "$NS" env LC_ALL=C $(cmd_of "$t") \
			>"$WORK/$t.$r.out" 2>&1 &
		pid[$t]=$!
		PIDS+=($!)
	done
	sleep $((SECS - 1))
	declare -A peak=()
	for t in $TOOLS; do peak[$t]=$(hwm "$(child_of "${pid[$t]}")"); done
	sleep 1
	kill "$(child_of "${pid[ifstat]}")" 2>/dev/null
	for t in $TOOLS; do
		wait "${pid[$t]}" 2>/dev/null
		# user_us sys_us maxrss_kb
		read -r u s x _ <"$WORK/$t.$r.ru"
		printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$t" "$(((u + s) / 1000))" "${peak[$t]:-}" "$x" \
			>>"$WORK/runs.tsv"
	done
	PIDS=()
done

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
REV=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')
section=$(awk -F'\t' -v secs="$SECS" -v nif="$NIF" -v rounds="$ROUNDS" -v load="$LOAD" -v rev="$REV" \
	-v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v tools="$TOOLS" '
	{ ms[$1, $2] = $3; hwm[$1, $2] = $4; rss[$1, $2] = $5 }
	function us(r, t) { return ms[r, t] * 1000 / (secs / 0.1) }
	function range(t, what,   r, lo, hi, v) {
		for (r = 1; r <= rounds; r++) {
			v = what == "us" ? us(r, t) : what == "hwm" ? hwm[r, t] : what == "ratio" ? us(r, t) / us(r, "ifstat") : us(r, t) / us(r, "linerate")
			if (r == 1 || v < lo) lo = v
			if (r == 1 || v > hi) hi = v
		}
		return sprintf(what == "us" || what == "hwm" ? "%.0f..%.0f" : "%.2f..%.2f", lo, hi)
	}
	END {
		n = split(tools, T, " ")
		printf "### Headless sampler beside ifstat at 0.1 s, paired rounds (issue 33; bench/sampler_pairs.sh)\n\n"
		printf "%s, %s; linerate %s. %d rounds of %d s; in each, the tools below ran at the same time in one network namespace with %d interfaces (3 veth pairs and lo). CPU µs per sample = (user + sys from wait4() rusage, start-up and exit included) / (%d s / 0.1 s); peak RSS = VmHWM of the tool'"'"'s process 1 s before the end. Ranges are lowest..highest over the rounds; ratios are taken per round.\n\n", date, "load average " load " at the end", rev, rounds, secs, nif, secs
		printf "| tool | command | CPU µs per sample | /ifstat per round | peak RSS KiB (VmHWM) |\n|---|---|---:|---:|---:|\n"
		for (i = 1; i <= n; i++) {
			t = T[i]; c = t == "ifstat" ? "ifstat -a 0.1" : "linerate --headless -i 0.1 -t " secs " --csv /dev/null --cpu-csv /dev/null"
			printf "| %s | `%s` | %s | %s | %s |\n", t, c, range(t, "us"), t == "ifstat" ? "1" : range(t, "ratio"), range(t, "hwm")
		}
		if (tools ~ /linerate-base/)
			printf "\nlinerate-base is an older build (LR_BASE) in the same rounds: base/this build per round %s.\n", range("linerate-base", "base")
		printf "\n<details><summary>every round</summary>\n\n| round | tool | CPU ms | VmHWM KiB | maxrss KiB |\n|---:|---|---:|---:|---:|\n"
		for (r = 1; r <= rounds; r++) for (i = 1; i <= n; i++) printf "| %d | %s | %d | %s | %s |\n", r, T[i], ms[r, T[i]], hwm[r, T[i]], rss[r, T[i]]
		printf "\n</details>\n"
	}' "$WORK/runs.tsv")
echo "$section"
[ -f "$OUT" ] && python3 "$TOP/bench/results_section.py" "$OUT" sampler_pairs "$section"
