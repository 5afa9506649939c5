# Shared helpers for the shell tests (sourced). Each check prints one line the runner counts:
# PASS name | FAIL name: why | SKIP name: why.
# Namespaces and links a test creates are registered with lr_cleanup_add and removed on any
# exit (trap), processes by PID only.
LR_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LR_BIN=${LR_BIN:-$LR_TOP/${LR_BUILD:-build}/linerate}	# the build under test (make sets LR_BUILD)
_lr_cleanups=()

# The tests' Python uses the standard library only. A pyenv shim first in PATH costs 0.6 s per
# start on an idle machine (1.8 s loaded) against 0.04 s for Debian's own: take Debian's.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	_lr_pydir=${TMPDIR:-/tmp}/linerate-tests-python.$(id -u)
	mkdir -p "$_lr_pydir" && ln -sf /usr/bin/python3 "$_lr_pydir/python3" &&
		PATH=$_lr_pydir:$PATH
fi

LR_PASSES=0 LR_FAILS=0 LR_SKIPS=0
pass() { echo "PASS $1"; LR_PASSES=$((LR_PASSES + 1)); }
fail() { echo "FAIL $1: ${2:-}"; LR_FAILED=1; LR_FAILS=$((LR_FAILS + 1)); }
# For scripts run on their own (CI stages): the closing line, and the exit status.
lr_summary() {
	if [ "$LR_SKIPS" -gt 0 ]; then
		echo "$LR_PASSES passed, $LR_FAILS failed, $LR_SKIPS skipped"
	else
		echo "$LR_PASSES passed, $LR_FAILS failed"
	fi
	[ "$LR_FAILS" -eq 0 ]
}
skip() { echo "SKIP $1: ${2:-}"; LR_SKIPS=$((LR_SKIPS + 1)); }
check() {	# check NAME CMD...: PASS when CMD succeeds
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}

lr_cleanup_add() { _lr_cleanups+=("$*"); }
_lr_cleanup_run() {
	local i
	for ((i = ${#_lr_cleanups[@]} - 1; i >= 0; i--)); do eval "${_lr_cleanups[i]}" >/dev/null 2>&1; done
	_lr_cleanups=()
}
trap _lr_cleanup_run EXIT
trap 'exit 130' INT TERM

# lr_plan CHECK...: the checks this script will run, named up front, so that a script skipped
# as a whole (need_root) counts each of them as a skip by name instead of one skip.
_lr_plan=()
lr_plan() { _lr_plan+=("$@"); }

# lr_skip_plan NAME WHY: the whole script cannot run: one SKIP per planned check (or one for
# NAME when nothing was planned). The caller exits.
lr_skip_plan() {
	local c
	if [ ${#_lr_plan[@]} -eq 0 ]; then
		skip "$1" "$2"
	else
		for c in "${_lr_plan[@]}"; do skip "$1: $c" "$2"; done
	fi
}

need_root() {	# need_root NAME: prints SKIP (one per planned check) and exits 0 when not root
	if [ "$(id -u)" -ne 0 ]; then
		lr_skip_plan "$1" "needs root (network namespaces); CI runs it as root"
		exit 0
	fi
}

# lr_netns_pair NS_A NS_B IF_A IF_B ADDR_A ADDR_B MTU: two namespaces joined by a veth pair,
# addresses in 10.x inside the namespaces only (never routed anywhere else).
lr_netns_pair() {
	local a=$1 b=$2 ia=$3 ib=$4 addra=$5 addrb=$6 mtu=${7:-1500}
	ip netns add "$a" && lr_cleanup_add "ip netns del $a"
	ip netns add "$b" && lr_cleanup_add "ip netns del $b"
	ip link add "$ia" netns "$a" mtu "$mtu" type veth peer name "$ib" netns "$b" mtu "$mtu"
	ip -n "$a" addr add "$addra/24" dev "$ia"
	ip -n "$b" addr add "$addrb/24" dev "$ib"
	ip -n "$a" link set lo up; ip -n "$b" link set lo up
	ip -n "$a" link set "$ia" up; ip -n "$b" link set "$ib" up
}

# lr_quiet_link NS_A NS_B IF_A IF_B ADDR_A ADDR_B: a silent link between the two ends of an
# lr_netns_pair: no IPv6 (autoconf, MLD) in either namespace and each side's neighbour pinned
# (no ARP), so the link's counters move only with the test's own traffic.
lr_quiet_link() {
	local a=$1 b=$2 ia=$3 ib=$4 addra=$5 addrb=$6 ns
	for ns in "$a" "$b"; do ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
	ip -n "$a" neigh replace "$addrb" lladdr "$(_lr_mac "$b" "$ib")" dev "$ia" nud permanent
	ip -n "$b" neigh replace "$addra" lladdr "$(_lr_mac "$a" "$ia")" dev "$ib" nud permanent
}
_lr_mac() { ip -n "$1" -o link show "$2" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'; }

# Runs a command in the background and registers its PID for kill on exit. Sets LR_PID.
lr_bg() {
	"$@" &
	LR_PID=$!
	lr_cleanup_add "kill $LR_PID 2>/dev/null; wait $LR_PID 2>/dev/null"
}

# Unique short names so parallel or leftover runs never collide.
lr_uniq() { echo "lr$$$RANDOM" | cut -c1-10; }
# lr_netns_lo NS: a namespace with only its loopback up (a private port space and its own
# /proc/net/snmp), removed on exit. Non-zero when it could not be made.
lr_netns_lo() {
	ip netns add "$1" || return 1
	lr_cleanup_add "ip netns del $1"
	ip -n "$1" link set lo up
}

# lr_wait_listen PORT [NS [TRIES]]: polls (every 0.05 s, TRIES times, default 100: 5 s) until a
# TCP socket listens on PORT, in namespace NS when given; fails when none came. The real
# condition a client needs, where a fixed sleep is either too short on a loaded host or wasted.
lr_wait_listen() {
	local port=$1 ns=${2:-} n=${3:-100} i
	local in=()
	[ -z "$ns" ] || in=(ip netns exec "$ns")
	for ((i = 0; i < n; i++)); do
		"${in[@]}" ss -Hltn "sport = :$port" | grep -q . && return 0
		sleep 0.05
	done
	return 1
}

# lr_ifb_add NS IF IFB: in NS an ifb with 4 queues that receives everything arriving on IF (tc
# ingress, u32 match-all, mirred redirect): a real multi-queue device with per-queue kernel
# counters (`ethtool -S`). On failure returns 1 with the reason in LR_IFB_ERR (a kernel may lack
# ifb, the ingress qdisc, u32 or mirred): the caller skips.
lr_ifb_add() {
	local ns=$1 dev=$2 ifb=$3
	if ! LR_IFB_ERR=$({
		ip -n "$ns" link add "$ifb" numtxqueues 4 numrxqueues 4 type ifb &&
		ip -n "$ns" link set "$ifb" up &&
		ip netns exec "$ns" tc qdisc add dev "$dev" handle ffff: ingress &&
		ip netns exec "$ns" tc filter add dev "$dev" parent ffff: protocol all u32 match u32 0 0 \
			action mirred egress redirect dev "$ifb"
	} 2>&1); then
		LR_IFB_ERR="no ifb, ingress qdisc, u32 or mirred here: ${LR_IFB_ERR:0:200}"
		return 1
	fi
	LR_IFB_ERR=
}

# lr_ifb_netns NA NB IA IB ADDR_A ADDR_B IFB: lr_netns_pair with no IPv6 chatter on the devices,
# and lr_ifb_add NB IB IFB. On failure returns 1 with the reason in LR_IFB_ERR.
lr_ifb_netns() {
	local na=$1 nb=$2 ia=$3 ib=$4 addra=$5 addrb=$6 ifb=$7 ns
	if ! lr_netns_pair "$na" "$nb" "$ia" "$ib" "$addra" "$addrb" 1500; then
		LR_IFB_ERR="cannot create the namespaces"
		return 1
	fi
	for ns in "$na" "$nb"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	done
	lr_ifb_add "$nb" "$ib" "$ifb"
}

# lr_wait_lines FILE N [TENTHS]: polls (every 0.1 s, TENTHS times, default 100) until FILE has
# at least N lines (a CSV's header and rows being written); fails when it never did.
lr_wait_lines() {
	local i n
	for ((i = 0; i < ${3:-100}; i++)); do
		n=$(wc -l 2>/dev/null <"$1") && [ "$n" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# lr_nft_udp_drop NS TABLE PORT N [dport|sport]: in NS's own nftables, a table TABLE whose input
# chain "in" drops 1 in N of the UDP datagrams to PORT (sport: from PORT, a reverse test's data)
# and counts them (a loss whose witness is nft's counter); removed at exit. Non-zero when nft
# cannot (the caller skips by name).
lr_nft_udp_drop() {
	command -v nft >/dev/null || return 1
	ip netns exec "$1" nft -f - <<-EOF || return 1
	table inet $2 {
		chain in {
			type filter hook input priority 0; policy accept;
			udp ${5:-dport} $3 udp length > 100 numgen inc mod $4 == $(($4 / 2)) counter drop
		}
	}
	EOF
	lr_cleanup_add "ip netns exec $1 nft delete table inet $2 2>/dev/null"
}

# lr_build_at COMMIT: this repository's linerate as it was at COMMIT, for checks against an
# older build (a peer from before a wire change). Built once from `git archive COMMIT` (plain
# -O2, warnings not errors; nothing of the caller's make or sanitizer flags) and cached by the
# full commit id in $LR_TOP/build/at-<id>/linerate, so later runs reuse it. Sets LR_AT_BIN to
# the binary and LR_AT_WHY to how it came ("built in N s", "cached"); returns 1 when it cannot
# (the commit is not in this clone, or the build failed) with the reason in LR_AT_WHY: the
# caller fails its checks by name. CI clones the whole history.
lr_build_at() {
	local c dir tmp rc t0=$SECONDS
	LR_AT_BIN=
	local git=(git -c safe.directory="$LR_TOP" -C "$LR_TOP")	# root in a clone it does not own
	if ! c=$("${git[@]}" rev-parse -q --verify "$1^{commit}" 2>/dev/null); then
		LR_AT_WHY="commit $1 is not in this clone ($("${git[@]}" rev-parse --is-shallow-repository 2>/dev/null | sed 's/true/a shallow clone/; s/false/a full clone/'))"
		return 1
	fi
	dir=$LR_TOP/build/at-$c LR_AT_BIN=$LR_TOP/build/at-$c/linerate
	if [ -x "$LR_AT_BIN" ]; then
		LR_AT_WHY="cached in ${dir#"$LR_TOP"/}"
		return 0
	fi
	mkdir -p "$dir" || { LR_AT_WHY="cannot create $dir"; return 1; }
	(
		# one build at a time per commit; a second caller waits and finds it built
		command -v flock >/dev/null && flock 9
		[ -x "$dir/linerate" ] && exit 3
		exec >"$dir/build.log" 2>&1
		tmp=$(mktemp -d "$dir/src.XXXXXX") || exit 1
		trap 'rm -rf "$tmp"' EXIT
		"${git[@]}" archive "$c" | tar -x -C "$tmp" || exit 1
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u LDFLAGS -u CC \
			make -C "$tmp" -j"$(nproc 2>/dev/null || echo 2)" B=build CC=gcc CFLAGS='-O2' LDFLAGS= \
			WERROR=0 VERSION="at-${c:0:12}" build/linerate || exit 1
		mv -f "$tmp/build/linerate" "$dir/linerate"
	) 9>"$dir/lock"
	rc=$?
	if [ "$rc" -eq 3 ]; then
		LR_AT_WHY="cached in ${dir#"$LR_TOP"/}"
	elif [ "$rc" -eq 0 ] && [ -x "$LR_AT_BIN" ]; then
		LR_AT_WHY="built in $((SECONDS - t0)) s into ${dir#"$LR_TOP"/}"
	else
		LR_AT_WHY="the build of ${c:0:12} failed (${dir#"$LR_TOP"/}/build.log): $(tail -n 3 "$dir/build.log" | tr '\n' ' ')"
		LR_AT_BIN=
		return 1
	fi
}

# The iperf3 builds the interop tests hold linerate against (docs/design.md §9): Debian 12's own
# (3.12, first in PATH) and the upstream releases scripts/upstream-iperf3.sh unpacked from
# Debian's newer suites (trixie: 3.18, sid: the newest, 3.22 when written).
LR_UPSTREAM_IPERF3=${LR_UPSTREAM_IPERF3:-/opt/linerate-iperf3}
LR_IPERF3_SUITES=${LR_IPERF3_SUITES:-bookworm trixie sid}
# lr_iperf3_path SUITE: a directory to put first in PATH so that `iperf3` is that suite's build
# (empty for bookworm, the system's); non-zero when that build is not installed.
lr_iperf3_path() {
	[ "$1" = bookworm ] && { command -v iperf3 >/dev/null; return; }
	[ -x "$LR_UPSTREAM_IPERF3/path-$1/iperf3" ] && echo "$LR_UPSTREAM_IPERF3/path-$1"
}
# lr_iperf3_version SUITE: "3.22" and the like, from the build's own --version line
lr_iperf3_version() {
	local d
	d=$(lr_iperf3_path "$1") || return 1
	PATH=${d:+$d:}$PATH iperf3 --version 2>/dev/null | sed -n '1s/^iperf \([0-9.]*\).*/\1/p'
}
