#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# runc runs a busybox container whose cgroupsPath is in an emulated v1
# hierarchy, under memcgfs-run --hierarchy=v1 --own-hierarchies (the
# machine's other v1 hierarchies as directories of the run's own, where
# runc makes the container's cgroups) with a host cgroup source: the
# container's memory limit is the emulated memcg's, an allocation over it
# is OOM-killed and counted in the emulated memory.oom_control, and nothing
# is left in the machine's hierarchies afterwards.  Needs root, runc, a
# static busybox and a writable v1 memory hierarchy; skips otherwise.
. "${top_srcdir:-.}/tests/fs-lib.sh"

RUN=$top_builddir/memcgfs-run
V1=/sys/fs/cgroup/memory
[ "$(id -u)" -eq 0 ] || skip "not root"
command -v runc >/dev/null 2>&1 || skip "no runc"
BUSYBOX=$(command -v busybox) || skip "no busybox (Debian package busybox-static)"
file -L "$BUSYBOX" 2>/dev/null | grep -q static || ldd "$BUSYBOX" 2>&1 | grep -q "not a dynamic" ||
	skip "$BUSYBOX is not static"
[ "$(stat -f -c %T "$V1" 2>/dev/null)" = cgroupfs ] && [ -w "$V1/cgroup.procs" ] ||
	skip "no writable v1 memory hierarchy at $V1"
[ -d /sys/fs/cgroup/devices ] || skip "no v1 devices hierarchy, which runc needs"
export MEMCGFS TMPDIR="$TMP"
H=$V1/memcgfs-runc.$$
mkdir "$H" || skip "cannot make $H"
trap 'cleanup; rmdir "$H" 2>/dev/null' EXIT

# a bundle: busybox as /bin/sh and dd, a minimal OCI config (no cgroup
# mount: runc would bind the host memory cgroup of the process, its shadow,
# which the emulated hierarchy does not have) with a 32M limit
B=$TMP/bundle
mkdir -p "$B/rootfs/bin" "$B/rootfs/proc" "$B/rootfs/dev"
cp "$BUSYBOX" "$B/rootfs/bin/busybox"
for c in sh dd echo; do ln -s busybox "$B/rootfs/bin/$c"; done
cat > "$B/config.json" <<JSON
{
	"ociVersion": "1.0.2",
	"process": {
		"terminal": false,
		"user": { "uid": 0, "gid": 0 },
		"args": [ "sh", "-c", "dd if=/dev/zero of=/dev/null bs=64M count=1; echo after" ],
		"env": [ "PATH=/bin" ],
		"cwd": "/"
	},
	"root": { "path": "rootfs" },
	"mounts": [
		{ "destination": "/proc", "type": "proc", "source": "proc" },
		{ "destination": "/dev", "type": "tmpfs", "source": "tmpfs",
		  "options": [ "nosuid", "mode=755" ] }
	],
	"linux": {
		"cgroupsPath": "/job/c1",
		"resources": { "memory": { "limit": 33554432, "swap": 33554432 } },
		"namespaces": [ { "type": "pid" }, { "type": "mount" }, { "type": "ipc" },
				{ "type": "uts" } ]
	}
}
JSON

# run detached, wait for it to stop, then read its memcg before runc
# deletes it
cat > "$TMP/in.sh" <<SH
set -e
cd "$B"
runc --root "$TMP/runc" run -d -b "$B" c1 > "$TMP/ctr.out" 2>&1
i=0
until runc --root "$TMP/runc" state c1 | grep -q '"status": "stopped"'; do
	i=\$((i + 1))
	[ \$i -le 100 ] || { echo "container did not stop"; exit 1; }
	sleep 0.1
done
cat /sys/fs/cgroup/memory/job/c1/memory.limit_in_bytes
grep '^oom_kill ' /sys/fs/cgroup/memory/job/c1/memory.oom_control
runc --root "$TMP/runc" delete c1
SH
"$RUN" --hierarchy=v1 --own-hierarchies --host_cgroup="$H" -- sh "$TMP/in.sh" > "$TMP/out" 2>&1 ||
	{ cat "$TMP/out" "$TMP/ctr.out"; fail "runc under memcgfs-run"; }
expect "the container's limit, emulated" "$(sed -n 1p "$TMP/out")" 33554432
expect "the container's OOM kill, emulated" "$(sed -n 2p "$TMP/out")" "oom_kill 1"
grep -q "^after" "$TMP/ctr.out" || fail "the container's shell did not go on: $(cat "$TMP/ctr.out")"
grep -q "records out" "$TMP/ctr.out" && fail "dd survived its limit"
left=$(ls -d /sys/fs/cgroup/*/memcgfs-run.* 2>/dev/null)
[ -z "$left" ] || fail "left in the machine's hierarchies: $left"
expect "no shadow left" "$(find "$H" -mindepth 1 -type d | wc -l)" 0
echo ok
