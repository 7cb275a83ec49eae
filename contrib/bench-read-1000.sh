#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-read-1000.sh: time of `cat MNT/cg*/memory.stat > /dev/null` over N
# cgroups on memcgfs, side by side with memcgfs-constfs (a minimal FUSE
# daemon serving the same tree with constant text: once with size-0 files
# and direct I/O as cgroupfs files need, once through the page cache), a
# tmpfs tree of the same files and, with --real-kernel, the kernel's own v1
# cgroupfs.  Then the time to mkdir and rmdir 10,000 cgroups on memcgfs.
#
#   contrib/bench-read-1000.sh [--builddir DIR] [--runs R] [--hierarchy v1|v2]
#                              [--real-kernel] [N]
#
# Runs are interleaved (one of each target per round) after two warm-up
# rounds; the medians are printed.  Needs root (mounts) and /dev/fuse.
# --real-kernel creates and removes cgroups only under
# /sys/fs/cgroup/memory/memcgfs-bench/.
set -u

builddir=.
runs=11
hier=v1
real=0
n=1000
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift ;;
	--builddir=*) builddir=${1#*=} ;;
	--runs) runs=$2; shift ;;
	--runs=*) runs=${1#*=} ;;
	--hierarchy) hier=$2; shift ;;
	--hierarchy=*) hier=${1#*=} ;;
	--real-kernel) real=1 ;;
	-h|--help) sed -n '2,17p' "$0"; exit 0 ;;
	-*) echo "bench-read-1000.sh: unknown option $1" >&2; exit 2 ;;
	*) n=$1 ;;
	esac
	shift
done

MEMCGFS=$builddir/memcgfs
CONSTFS=$builddir/contrib/memcgfs-constfs
for b in "$MEMCGFS" "$CONSTFS"; do
	[ -x "$b" ] || { echo "bench-read-1000.sh: no $b (use --builddir)" >&2; exit 2; }
done

T=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-bench.XXXXXX")
REAL=/sys/fs/cgroup/memory/memcgfs-bench
MOUNTS=""
cleanup() {
	for m in $MOUNTS; do
		fusermount3 -u "$m" 2>/dev/null || umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	if [ $real = 1 ] && [ -d "$REAL" ]; then
		for d in "$REAL"/cg[0-9]*; do [ -d "$d" ] && rmdir "$d"; done
		rmdir "$REAL"
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ns() { date +%s%N; }

wait_mounted() {
	i=0
	while ! mountpoint -q "$1"; do
		i=$((i + 1))
		[ $i -gt 200 ] && { echo "no mount at $1" >&2; exit 1; }
		sleep 0.05
	done
}

names() { i=0; while [ $i -lt "$n" ]; do echo "cg$i"; i=$((i + 1)); done; }
mkdirs() {	# mkdirs DIR: cg0 .. cg(n-1), in batches (few processes)
	names > "$T/names.list"
	(cd "$1" && xargs mkdir < "$T/names.list") || { echo "mkdir in $1 failed" >&2; exit 1; }
}

# ---- the trees ----------------------------------------------------------
mkdir -p "$T/memcgfs" "$T/constfs" "$T/pagecache" "$T/tmpfs"
"$MEMCGFS" --hierarchy="$hier" "$T/memcgfs" || exit 1
MOUNTS="$MOUNTS $T/memcgfs"
mkdirs "$T/memcgfs"
cat "$T/memcgfs/cg0/memory.stat" > "$T/text"
ls "$T/memcgfs/cg0" > "$T/names"

"$CONSTFS" -o "text=$T/text,names=$T/names,max_read=4096" "$T/constfs" || exit 1
MOUNTS="$MOUNTS $T/constfs"
"$CONSTFS" -o "text=$T/text,names=$T/names,pagecache" "$T/pagecache" || exit 1
MOUNTS="$MOUNTS $T/pagecache"
wait_mounted "$T/constfs"
wait_mounted "$T/pagecache"
mkdirs "$T/constfs"
mkdirs "$T/pagecache"

if mount -t tmpfs -o size=256m memcgfs-bench "$T/tmpfs" 2>/dev/null; then
	MOUNTS="$MOUNTS $T/tmpfs"
fi
mkdirs "$T/tmpfs"
for d in "$T/tmpfs"/cg[0-9]*; do cp "$T/text" "$d/memory.stat"; done

targets="memcgfs constfs pagecache tmpfs"
if [ $real = 1 ]; then
	if [ ! -d /sys/fs/cgroup/memory ]; then
		echo "bench-read-1000.sh: no v1 memory hierarchy at /sys/fs/cgroup/memory" >&2
		exit 1
	fi
	mkdir "$REAL" || exit 1
	mkdirs "$REAL"
	ln -s "$REAL" "$T/kernel"
	targets="$targets kernel"
fi

# ---- reads --------------------------------------------------------------
echo "memcgfs $("$MEMCGFS" --version | head -n1 | cut -d' ' -f2), hierarchy $hier," \
     "$n cgroups, $(nproc) CPUs, $runs runs after 2 warm-up rounds"
echo "command: cat DIR/cg[0-9]*/memory.stat > /dev/null"
round=0
while [ $round -lt $((runs + 2)) ]; do
	for t in $targets; do
		start=$(now_ns)
		sh -c "cat $T/$t/cg[0-9]*/memory.stat > /dev/null" || { echo "read of $t failed" >&2; exit 1; }
		end=$(now_ns)
		[ $round -ge 2 ] && echo $(((end - start) / 1000)) >> "$T/times.$t"
	done
	round=$((round + 1))
done

median_us() { sort -n "$T/times.$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
base=$(median_us constfs)
printf '%-44s %10s %10s\n' "target" "median ms" "/ constfs"
for t in $targets; do
	m=$(median_us "$t")
	case $t in
	memcgfs) label="memcgfs ($hier)" ;;
	constfs) label="memcgfs-constfs (size 0, direct I/O)" ;;
	pagecache) label="memcgfs-constfs -o pagecache (real sizes)" ;;
	tmpfs) label="tmpfs tree of the same files" ;;
	kernel) label="kernel v1 cgroupfs" ;;
	esac
	awk -v l="$label" -v m="$m" -v b="$base" \
		'BEGIN { printf "%-44s %10.1f %10.2f\n", l, m / 1000, m / b }'
done

# ---- mkdir of 10,000 cgroups -----------------------------------------------
mkdir -p "$T/many"
"$MEMCGFS" --hierarchy="$hier" "$T/many" || exit 1
MOUNTS="$MOUNTS $T/many"
n=10000
names > "$T/names.list"
start=$(now_ns)
mkdirs "$T/many"
end=$(now_ns)
awk -v ns=$((end - start)) 'BEGIN { printf "mkdir of 10000 cgroups on memcgfs: %.0f ms (%.1f us each)\n", ns / 1e6, ns / 1e7 }'
start=$(now_ns)
(cd "$T/many" && xargs rmdir < "$T/names.list")
end=$(now_ns)
awk -v ns=$((end - start)) 'BEGIN { printf "rmdir of 10000 cgroups on memcgfs: %.0f ms (%.1f us each)\n", ns / 1e6, ns / 1e7 }'
