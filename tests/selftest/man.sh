#!/usr/bin/env bash
# The man page as a reader meets it (issue 21): rendered by man -l without troff warnings, with
# the sections a newcomer looks for, and its CSV COLUMNS equal to the headers the binary really
# writes (a headless run of a few ticks is the witness, not the source code).
. "$(dirname "$0")/../lib.sh"
lr_plan man_renders man_sections man_csv_headers
command -v man >/dev/null || { lr_skip_plan "man (man-db) not installed"; exit 0; }
cd "$LR_TOP" || exit 1
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
MANWIDTH=100 man --warnings -l man/linerate.1 >"$work/man.txt" 2>"$work/warn"
check man_renders test -s "$work/man.txt" -a ! -s "$work/warn"
missing=""
for sec in NAME SYNOPSIS DESCRIPTION HEADLESS TRAFFIC SERVER MATRIX REPORT REPLAY KEYS \
	"CSV COLUMNS" GLOSSARY "BOTH ENDS" EXAMPLES "EXIT STATUS"; do
	grep -qx "$sec" "$work/man.txt" || missing="$missing '$sec'"
done
check man_sections test -z "$missing"
[ -n "$missing" ] && echo "# missing sections:$missing"

# the headers a real run writes, against the page's (its lines joined, blanks dropped)
"$LR_BIN" --headless -t 0.3 -i 0.1 --csv "$work/i.csv" --cpu-csv "$work/c.csv" \
	--streams-csv "$work/s.csv" --queues-csv "$work/q.csv" >/dev/null 2>&1
page=$(sed -n '/^CSV COLUMNS/,/^GLOSSARY/p' "$work/man.txt" | tr -d ' \n')
bad=""
for f in i c s q; do
	h=$(head -n1 "$work/$f.csv" 2>/dev/null)
	# followed by the next option: the whole header, not a prefix of a longer one
	[ -n "$h" ] && grep -qF -- "${h}--" <<<"$page" || bad="$bad $f:'$h'"
done
check man_csv_headers test -z "$bad"
[ -n "$bad" ] && echo "# not in the page:$bad"
lr_summary
