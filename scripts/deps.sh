#!/bin/sh
# Installs the Debian 12 packages linerate needs to build, test and benchmark, only when
# missing. Needs root (apt-get). Safe to run again.
set -eu
PKGS="build-essential pkg-config clang libclang-rt-14-dev llvm libnl-3-dev libnl-route-3-dev
libnl-genl-3-dev libncurses-dev libjansson-dev libcmocka-dev iproute2 iperf3 tmux ethtool
valgrind cppcheck clang-format clang-tidy procps kmod nftables python3 iputils-ping jq chromium
libmicrohttpd-dev prometheus man-db libssl-dev openssl faketime"
[ "${1:-}" = "--bench" ] && PKGS="$PKGS nload bmon sysstat ifstat hyperfine time prometheus-node-exporter sockperf iperf"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "linerate: missing packages:$missing (run as root to install)" >&2
		exit 1
	fi
	echo "linerate: installing:$missing"
	apt-get update -qq
	# iperf3's postinst asks whether to start a daemon: answer no, non-interactively.
	echo 'iperf3 iperf3/start_daemon boolean false' | debconf-set-selections 2>/dev/null || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
