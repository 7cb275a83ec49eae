#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# From a fresh Debian 12 machine: installs what is missing, builds memcgfs
# in this tree, and runs the main job: mounts a cgroup v2 hierarchy with
# four cgroups running the seed 001 workload mix (one under a memory.max),
# shows their statistics, then mounts a v1 hierarchy and shows a v1
# memory.stat, and unmounts.  Runs as root, or as a normal user where
# /dev/fuse is usable (Debian's mode 0666) once the packages are installed.
set -eu
cd "$(dirname "$0")/.."

contrib/install-deps.sh
[ -x configure ] || ./autogen.sh >/dev/null
[ -f Makefile ] || ./configure -q
make -s -j"$(nproc)"

mnt=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs.XXXXXX")
cleanup() {
	for m in "$mnt/v2" "$mnt/v1"; do
		mountpoint -q "$m" 2>/dev/null && fusermount3 -u "$m"
	done
	rm -rf "$mnt"
}
trap cleanup EXIT
mkdir "$mnt/v2" "$mnt/v1"

# wait_mount DIR: the daemon forks into the background once mounted.
wait_mount() {
	for _ in $(seq 100); do mountpoint -q "$1" && return 0; sleep 0.05; done
	echo "quickstart: no mount at $1" >&2
	exit 1
}

echo "== cgroup v2, 4 emulated CPUs, 2 NUMA nodes, Linux 7.3 layout, workload seed001"
./memcgfs --cpus=4 --nodes=2 --workload=seed001 "$mnt/v2"
wait_mount "$mnt/v2"
# The root is 0555, as the kernel's; a normal user gives it to itself.
[ "$(id -u)" -eq 0 ] || chmod u+w "$mnt/v2"
for i in 1 2 3 4; do mkdir "$mnt/v2/job$i"; done
echo 32M > "$mnt/v2/job1/memory.max"
sleep 3
for i in 1 2 3 4; do
	printf 'job%s memory.current %s\n' "$i" "$(cat "$mnt/v2/job$i/memory.current")"
done
echo "-- job1/memory.events (under memory.max=32M)"
cat "$mnt/v2/job1/memory.events"
echo "-- job2/memory.stat"
cat "$mnt/v2/job2/memory.stat"
echo "-- job2/memory.numa_stat (first lines)"
head -n 4 "$mnt/v2/job2/memory.numa_stat"
echo "-- job2/memcgfs.workload"
cat "$mnt/v2/job2/memcgfs.workload"
echo "-- job4: rmdir with tasks is EBUSY; cgroup.kill ends them, then rmdir"
rmdir "$mnt/v2/job4" 2>/dev/null || echo "rmdir job4: busy, $(cat "$mnt/v2/job4/cgroup.procs" | wc -l) process"
echo 1 > "$mnt/v2/job4/cgroup.kill"
rmdir "$mnt/v2/job4"
fusermount3 -u "$mnt/v2"

echo "== cgroup v1, 2 emulated CPUs, workload file-reader"
./memcgfs --hierarchy=v1 --cpus=2 --workload=file-reader "$mnt/v1"
wait_mount "$mnt/v1"
# The v1 root is 0555, as the kernel's: only root makes cgroups at the top
# whatever the mode.  A normal user gives the top to itself.
[ "$(id -u)" -eq 0 ] || chmod u+w "$mnt/v1"
mkdir "$mnt/v1/reader"
sleep 2
echo "-- reader/memory.stat"
cat "$mnt/v1/reader/memory.stat"
echo "-- reader/memory.numa_stat"
cat "$mnt/v1/reader/memory.numa_stat"
fusermount3 -u "$mnt/v1"
echo "== done: 'make check' runs the tests, memcgfs(8) has the rest"
