#!/bin/sh
# Upstream iperf3 releases for the interop tests, from Debian's own archive only (docs/design.md
# §9): Debian 12 ships 3.12; trixie carries 3.18 and sid the newest upstream (3.22 when this was
# written). Each suite's iperf3, libiperf0, libc6, libssl3t64 and libsctp1 are downloaded with a
# side sources list and private apt state and cache (the system's apt configuration is never
# touched), unpacked with dpkg-deb -x into one prefix per suite, and run through that prefix's
# own loader by a wrapper, so the newer glibc never meets the system's.
#
#   scripts/upstream-iperf3.sh [DIR]     DIR defaults to /opt/linerate-iperf3
#
# Leaves DIR/bin/iperf3-SUITE (iperf3-trixie, iperf3-sid), DIR/path-SUITE/iperf3 (the same, for
# a PATH that makes it the iperf3 a script runs) and prints each one's version line.
# Safe to run again: a suite whose wrapper already runs is kept. Needs root (apt-get download
# of a suite this machine's lists do not carry) or a writable DIR that is already filled.
set -eu
DIR=${1:-${LR_UPSTREAM_IPERF3:-/opt/linerate-iperf3}}
SUITES=${LR_UPSTREAM_SUITES:-trixie sid}
PKGS="iperf3 libiperf0 libc6 libssl3t64 libsctp1"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
MIRROR=${LR_DEBIAN_MIRROR:-http://deb.debian.org/debian}

works() { "$DIR/bin/iperf3-$1" --version 2>/dev/null | head -n 1 | grep -q '^iperf 3'; }

todo=""
for s in $SUITES; do works "$s" || todo="$todo $s"; done
if [ -n "$todo" ] && [ "$(id -u)" -ne 0 ]; then
	for s in $todo; do echo "SKIP upstream-iperf3-$s: not installed in $DIR, and apt-get needs root"; done
	exit 0
fi
if [ -n "$todo" ]; then
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
		echo "upstream-iperf3: apt-get and dpkg-deb are needed (Debian)" >&2; exit 1; }
	[ -r "$KEYRING" ] || { echo "upstream-iperf3: $KEYRING missing (debian-archive-keyring)" >&2; exit 1; }
	apt=$DIR/apt
	rm -rf "$apt"
	mkdir -p "$apt/state/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$DIR/bin"
	: >"$apt/sources.list"
	for s in $todo; do echo "deb [signed-by=$KEYRING] $MIRROR $s main" >>"$apt/sources.list"; done
	# apt's own user (_apt) drops privileges for downloads; the private dirs are root's
	chmod 755 "$DIR" "$apt" "$apt/debs"
	set -- -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State="$apt/state" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/var/lib/dpkg/status -o APT::Sandbox::User=root
	apt-get "$@" update >"$apt/update.log" 2>&1 || {
		echo "upstream-iperf3: apt-get update of$todo failed:" >&2; tail -n 3 "$apt/update.log" >&2; exit 1; }
	for s in $todo; do
		p=$DIR/$s
		rm -rf "$p" "$apt/debs/$s"
		mkdir -p "$p" "$apt/debs/$s"
		want=""
		for k in $PKGS; do want="$want $k/$s"; done
		# shellcheck disable=SC2086
		(cd "$apt/debs/$s" && apt-get "$@" download $want) >"$apt/download-$s.log" 2>&1 || {
			echo "upstream-iperf3: apt-get download from $s failed:" >&2
			tail -n 3 "$apt/download-$s.log" >&2; exit 1; }
		for d in "$apt/debs/$s"/*.deb; do dpkg-deb -x "$d" "$p"; done
		lib=$p/usr/lib/x86_64-linux-gnu
		[ -x "$lib/ld-linux-x86-64.so.2" ] && [ -x "$p/usr/bin/iperf3" ] || {
			echo "upstream-iperf3: $s: no loader or iperf3 in the unpacked packages" >&2; exit 1; }
		cat >"$DIR/bin/iperf3-$s" <<EOF
#!/bin/sh
# iperf3 from Debian $s, run by its own loader and libraries (scripts/upstream-iperf3.sh)
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$p/usr/bin/iperf3" "\$@"
EOF
		chmod 755 "$DIR/bin/iperf3-$s"
		works "$s" || { echo "upstream-iperf3: $s: the wrapper does not run iperf3" >&2; exit 1; }
	done
	rm -rf "$apt"
fi
for s in $SUITES; do
	works "$s" || continue
	mkdir -p "$DIR/path-$s" && ln -sf "../bin/iperf3-$s" "$DIR/path-$s/iperf3"
	echo "$DIR/bin/iperf3-$s: $("$DIR/bin/iperf3-$s" --version | head -n 1)"; done
