#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian 12 packages memcgfs needs to build and test, if any is
# missing (--ci: also what .ci/run needs to build the Debian package).
# Idempotent; says what it does.  Needs root only when installing: a normal
# user is told the exact command (or it goes through sudo where there is one).
#
# On a machine that just booted, apt may be busy (unattended upgrades, cloud
# init): it waits for apt's locks up to MEMCGFS_APT_WAIT seconds (default
# 300), saying so, then gives up.  MEMCGFS_APT_LOCKS lists other lock files
# to watch (tests/install-deps.sh uses its own).
set -eu
# gnuplot-nox draws the experiments' plots (memcgfs-bench experiment);
# man-db reads the man pages (man -l man/memcgfs.8), and a minimal Debian
# 12 (a container, debootstrap) has none.
packages="build-essential autoconf automake autoconf-archive libtool pkg-config
	libglib2.0-dev libfuse3-dev fuse3 check gnuplot-nox cgroup-tools man-db"
# CI also builds the package (debhelper, git) and runs a busybox container
# with runc under memcgfs-run (tests/fs-runc.sh, skipped without them).
[ "${1:-}" = --ci ] && packages="$packages debhelper git runc busybox-static"
wait_max=${MEMCGFS_APT_WAIT:-300}
apt_locks=${MEMCGFS_APT_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock
	/var/lib/apt/lists/lock /var/cache/apt/archives/lock}
say() { echo "install-deps: $*"; }

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
say "missing:$missing"

command=(env DEBIAN_FRONTEND=noninteractive apt-get)
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		say "installing needs root; run as root:"
		echo "    apt-get update && apt-get install -y --no-install-recommends$missing"
		exit 1
	fi
	say "installing through sudo"
	command=(sudo "${command[@]}")
fi

# The pid holding one of apt's and dpkg's locks (fcntl locks, which
# `apt-get` takes), or nothing.  perl is part of every Debian system.
apt_lock_holder() {
	perl -MFcntl -e '
		for my $f (@ARGV) {
			open(my $fh, "<", $f) or next;
			my $lk = pack("s s x![q] q q i x![q]", F_WRLCK, 0, 0, 0, 0);
			fcntl($fh, F_GETLK, $lk) or next;
			my ($type, undef, undef, undef, $pid) = unpack("s s x![q] q q i x![q]", $lk);
			if ($type != F_UNLCK) { print "$pid\n"; exit 0 }
		}' $apt_locks 2>/dev/null
}
waited=0
while holder=$(apt_lock_holder) && [ -n "$holder" ]; do
	if [ "$waited" -ge "$wait_max" ]; then
		say "apt is still locked by pid $holder after ${wait_max} s: giving up (MEMCGFS_APT_WAIT=SECONDS waits longer)"
		exit 1
	fi
	[ "$waited" -eq 0 ] &&
		say "apt is locked by pid $holder ($(ps -o comm= -p "$holder" 2>/dev/null || echo "?")): waiting up to ${wait_max} s"
	sleep 1
	waited=$((waited + 1))
done

# Between our look and apt's, another apt may start: apt then waits too.
lock_wait=(-o "DPkg::Lock::Timeout=$wait_max")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
say "apt-get update"
if ! "${command[@]}" "${lock_wait[@]}" update -qq >"$log" 2>&1; then
	cat "$log"
	say "apt-get update failed" >&2
	exit 1
fi
say "apt-get install --no-install-recommends$missing (a minute or two on a fresh machine)"
# apt-get's own lines for each package, as they come.
{ "${command[@]}" "${lock_wait[@]}" install -y -q --no-install-recommends $missing 2>&1 || :; } |
	tee "$log" | awk '/^(Unpacking|Setting up) / { print "install-deps:   " $0; fflush() }'
for p in $missing; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		tail -n 20 "$log"
		say "apt-get install failed ($p is not installed)" >&2
		exit 1
	fi
done
say "done"
