#!/usr/bin/env bash
# Issue 14's bench: `linerate --report` on long 0.1 s recordings of 8 interfaces and 64 CPUs
# (bench/report_day.py generates them: a diurnal load, noise, one spike per interface). For
# each length in HOURS (default "1 6"): generate, then time the report (wall, CPU, max RSS by
# /usr/bin/time), its output size, and check that every interface's peak in the report's table
# is the generator's own (the witness: the generator printed them). Prints one Markdown row per
# length; the files are deleted after each length. Usage: bench/report_day.sh [HOURS...]
set -u
cd "$(dirname "$0")/.." || exit 1
LR=${LR_BUILD:-build}/linerate
hours=${*:-1 6}
work=$(mktemp -d /work/tmp-report-day.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| recording | CSV size | rows | generate s | report wall s | report CPU s | max RSS MiB | HTML size | peaks equal the generator's |"
echo "|---|---|---|---|---|---|---|---|---|"
for h in $hours; do
	secs=$(awk -v h="$h" 'BEGIN {print h * 3600}')
	t0=$(date +%s.%N)
	python3 bench/report_day.py "$work" "$secs" 0.1 8 64 0.1 >"$work/peaks" || exit 1
	t1=$(date +%s.%N)
	csv=$(du -cb "$work/if.csv" "$work/cpu.csv" | tail -1 | cut -f1)
	rows=$(($(wc -l <"$work/if.csv") + $(wc -l <"$work/cpu.csv") - 2))
	sync
	/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$LR" --report "$work/r.html" \
		"$work/if.csv" "$work/cpu.csv" 2>"$work/err" || { cat "$work/err"; exit 1; }
	read -r wall usr sys rss <"$work/time"
	html=$(stat -c %s "$work/r.html")
	ok=yes
	while read -r ifc peak; do	# the table's exact data-v for rx_peak_bps of that row
		got=$(grep -o "data-iface=\"$ifc\".\{0,600\}" "$work/r.html" | head -1 |
			grep -o 'data-k="rx_peak_bps" data-v="[^"]*"' | head -1 | sed 's/.*data-v="//; s/"//')
		awk -v a="$got" -v b="$peak" 'BEGIN {exit !(a != "" && a + 0 == b + 0)}' ||
			{ ok="no ($ifc: table '$got', generator $peak)"; break; }
	done <"$work/peaks"
	printf '| %s h at 0.1 s | %.2f GB | %d | %.0f | %.1f | %.1f | %.0f | %d KiB | %s |\n' "$h" \
		"$(awk -v b="$csv" 'BEGIN {print b / 1e9}')" "$rows" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$wall" \
		"$(awk -v u="$usr" -v s="$sys" 'BEGIN {print u + s}')" \
		"$(awk -v k="$rss" 'BEGIN {print k / 1024}')" "$((html / 1024))" "$ok"
	rm -f "$work/if.csv" "$work/cpu.csv" "$work/r.html"
done
