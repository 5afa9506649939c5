#!/usr/bin/env bash
# linerate -s's failed tests held against iperf3 3.22's server run the same way (issue 30): each
# case starts `iperf3 -s -1 -J` (3.22) and `linerate -s -1 -J` side by side, runs iperf3 3.22's
# client against each, and compares what the two servers did. Witnesses: iperf3's own -J (its
# server's error object, its client's error or its complete report) and each server's exit.
# - --server-bitrate-limit's window: a 2 s unpaced test under 50M (the default 5 s window) and
#   50M/3 runs to its end on iperf3 (the average is taken only once a whole window has passed);
#   under 50M/1 it is ended after its first second.
# - -J's error object: start, intervals and end as far as known, and "error", for a test over
#   the limit, one asking more than it, a refused authentication, a client killed mid-test;
#   --json-stream's events for a test over the limit (its intervals, "error", "end" {}).
# - -1 after a refused authentication: 3.22 exits (status 0); 3.18 stays up for another client
#   (iperf3 3.21 stopped sending SERVER_ERROR 142 for a refused token and so no longer tells
#   the refusal apart, upstream a15c64a1).
. "$(dirname "$0")/../lib.sh"
lr_plan iperf3_server_fail "limit-window-default limit-window-slash limit-window-1s \
json-error-limit json-stream-error-limit json-error-asked json-error-auth json-error-vanished \
one-off-exits-after-auth"
no() { lr_skip_plan iperf3_server_fail "$1"; exit 0; }
[ -x "$LR_BIN" ] || no "$LR_BIN not built"
command -v python3 >/dev/null || no "python3 not installed"
command -v openssl >/dev/null || no "openssl not installed"
I3DIR=$(lr_iperf3_path sid) || no "iperf3 from sid not installed (scripts/upstream-iperf3.sh)"
I3="$I3DIR/iperf3"
echo "# held against iperf3 $(lr_iperf3_version sid) (sid), server and client"
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
port=$((20000 + RANDOM % 20000))

openssl genrsa -out "$tmp/priv.pem" 2048 2>/dev/null &&
	openssl rsa -in "$tmp/priv.pem" -pubout -out "$tmp/pub.pem" 2>/dev/null ||
	no "openssl could not make a key pair"
printf 'alice,%s\n' "$(printf '%s' '{alice}s3cret' | sha256sum | cut -d' ' -f1)" >"$tmp/users.csv"
AUTH_S=(--rsa-private-key-path "$tmp/priv.pem" --authorized-users-path "$tmp/users.csv")
AUTH_C=(--username alice --rsa-public-key-path "$tmp/pub.pem")

# pair CASE 'SERVER ARGS' 'CLIENT ARGS' [KILL_AFTER]: starts iperf3 -s (i3) and linerate -s (lr),
# each -1 -J (or $SJ) on its own port, and iperf3's client -J against each (killed by SIGKILL
# KILL_AFTER s after its start when given); settle waits for every pair started. Files
# $tmp/CASE.{i3,lr}.{srv,cli}; each server's fate in $tmp/CASE.{i3,lr}.exit: "exit N" within 5 s
# of the clients' end, else "up" (then ended).
SPIDS=() SNAMES=() CPIDS=()
pair() {
	local c=$1 sargs=$2 cargs=$3 kill_after=${4:-} w
	for w in i3 lr; do
		port=$((port + 1))
		if [ $w = i3 ]; then
			set -- "$I3"
		else
			set -- "$LR_BIN"
		fi
		# shellcheck disable=SC2086
		"$@" -s -1 "${SJ:--J}" -p $port $sargs >"$tmp/$c.$w.srv" 2>"$tmp/$c.$w.err" &
		SPIDS+=($!)
		SNAMES+=("$c.$w")
		lr_cleanup_add "kill $! 2>/dev/null"
		lr_wait_listen "$port" "" 60 || echo "# $w -s for $c did not listen"
		# shellcheck disable=SC2086
		IPERF3_PASSWORD=${PW:-s3cret} timeout -s KILL "${kill_after:-20}" "$I3" \
			-c 127.0.0.1 -p $port -J $cargs >"$tmp/$c.$w.cli" 2>&1 &
		CPIDS+=($!)
	done
}
settle() {
	local k i
	wait "${CPIDS[@]}" 2>/dev/null
	for k in "${!SPIDS[@]}"; do
		echo up >"$tmp/${SNAMES[$k]}.exit"
		for ((i = 0; i < 100; i++)); do
			if ! kill -0 "${SPIDS[$k]}" 2>/dev/null; then
				wait "${SPIDS[$k]}"
				echo "exit $?" >"$tmp/${SNAMES[$k]}.exit"
				break
			fi
			sleep 0.05
		done
		kill "${SPIDS[$k]}" 2>/dev/null
		wait "${SPIDS[$k]}" 2>/dev/null
	done
	SPIDS=() SNAMES=() CPIDS=()
}

# judge NAME PYTHON ARGS...: the python prints "# notes" and last "ok" or why not.
judge() {
	local name=$1 code=$2 out
	shift 2
	out=$(python3 - "$@" 2>&1 <<PY
import json, sys
def load(f):
    try:
        return json.load(open(f))
    except Exception as e:
        return {"unreadable": str(e)}
def paths(o, p=""):	# the key tree: every path, lists' items merged
    out = set()
    if isinstance(o, dict):
        out.add(p + "{}")
        for k, v in o.items():
            out |= paths(v, p + "/" + k)
    elif isinstance(o, list):
        out.add(p + "[]")
        for v in o:
            out |= paths(v, p + "[]")
    else:
        out.add(p)
    return out
def outcome(f):	# a client's -J: how its test ended (how many intervals is timing, not outcome)
    j = load(f)
    if "error" in j:
        return "ended: " + j["error"]
    print("# %s: %d intervals" % (f.rsplit("/", 1)[-1], len(j.get("intervals", []))))
    return "ran to its end" if "end" in j and "sum_sent" in j["end"] else "ran, no end report"
$code
PY
)
	grep '^#' <<<"$out"
	if [ "$(grep -v '^#' <<<"$out" | tail -n1)" = ok ]; then pass "$name"
	else fail "$name" "$(grep -v '^#' <<<"$out" | tail -n1)"; fi
}

# the same outcome at both servers' clients, and iperf3's as named
same_outcome='
i3, lr = outcome(sys.argv[1]), outcome(sys.argv[2])
print("# iperf3 -s: %s; linerate -s: %s" % (i3, lr))
print("ok" if i3 == lr and i3.startswith(sys.argv[3]) else "linerate -s did otherwise")'
# the servers' -J documents: an error object each, the same key tree, the same error text
same_error='
a, b = load(sys.argv[1]), load(sys.argv[2])
ea, eb = a.get("error"), b.get("error")
print("# iperf3 -s error: %r; linerate -s error: %r" % (ea, eb))
d = sorted(paths(a) ^ paths(b))
for x in d[:6]:
    print("# only in %s: %s" % ("iperf3" if x in paths(a) else "linerate", x))
want = sys.argv[3] if len(sys.argv) > 3 else ea
print("ok" if ea and eb == want and not d else "the -J error objects differ")'

# the limit's cases at once (each over 50M by far, whatever the load), then the others
pair lim5 "--server-bitrate-limit 50M" "-t 2"
pair lim3 "--server-bitrate-limit 50M/3" "-t 2"
pair lim1 "--server-bitrate-limit 50M/1" "-t 2"
SJ=--json-stream pair jslim "--server-bitrate-limit 50M/1" "-t 2"
settle
pair asked "--server-bitrate-limit 100M" "-t 1 -b 500M"	# refused at its parameters
PW=wrong pair auth "${AUTH_S[*]}" "-t 1 ${AUTH_C[*]}"
pair vanish "" "-t 3" 1.5
settle
judge limit-window-default "$same_outcome" "$tmp/lim5.i3.cli" "$tmp/lim5.lr.cli" ran
judge limit-window-slash "$same_outcome" "$tmp/lim3.i3.cli" "$tmp/lim3.lr.cli" ran
judge limit-window-1s "$same_outcome" "$tmp/lim1.i3.cli" "$tmp/lim1.lr.cli" ended
judge json-error-limit "$same_error" "$tmp/lim1.i3.srv" "$tmp/lim1.lr.srv"
judge json-stream-error-limit '
ev = [[json.loads(l) for l in open(f) if l.strip()] for f in sys.argv[1:3]]
# the events in order, a run of intervals as one (how many fit before the limit is timing)
names = [[n for i, n in enumerate(x) if i == 0 or n != x[i - 1]]
         for x in [[e.get("event") for e in y] for y in ev]]
err = [[e["data"] for e in x if e.get("event") == "error"] for x in ev]
end = [[e["data"] for e in x if e.get("event") == "end"] for x in ev]
print("# iperf3 -s: %s %s; linerate -s: %s %s" % (" ".join(names[0]), err[0], " ".join(names[1]),
      err[1]))
print("ok" if names[0] == names[1] and err[0] == err[1] != [] and end[0] == end[1] == [{}]
      else "the events differ")' "$tmp/jslim.i3.srv" "$tmp/jslim.lr.srv"
judge json-error-asked "$same_error" "$tmp/asked.i3.srv" "$tmp/asked.lr.srv"
# a wrong password: 3.22's -J says "error - no error" (3.21's change lost the reason); linerate
# says what 3.18 and earlier say
judge json-error-auth "$same_error" "$tmp/auth.i3.srv" "$tmp/auth.lr.srv" \
	"error - test authorization failed"
echo "# -1 after the refusal: iperf3 -s $(cat "$tmp/auth.i3.exit"), linerate -s" \
	"$(cat "$tmp/auth.lr.exit")"
check one-off-exits-after-auth [ "$(cat "$tmp/auth.i3.exit") $(cat "$tmp/auth.lr.exit")" = \
	"exit 0 exit 0" ]
judge json-error-vanished "$same_error" "$tmp/vanish.i3.srv" "$tmp/vanish.lr.srv"
lr_summary
