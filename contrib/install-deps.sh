#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian 12 packages memcgfs needs to build and test, if any is
# missing.  Idempotent and quiet; needs root (or sudo) only when installing.
set -eu
# gnuplot-nox draws the experiments' plots (memcgfs-bench experiment).
packages="build-essential autoconf automake autoconf-archive libtool pkg-config
	libglib2.0-dev libfuse3-dev fuse3 check gnuplot-nox cgroup-tools"
missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
log=$(mktemp)
if ! { $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
	cat "$log"
	rm -f "$log"
	echo "install-deps: apt-get failed" >&2
	exit 1
fi
rm -f "$log"
