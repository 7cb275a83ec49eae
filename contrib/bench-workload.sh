#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-workload.sh: latency of `cat memory.stat` through memcgfs while the
# workers of every emulated CPU charge flat out, side by side with the same
# tree idle.  Prints the median and 99th percentile of each.
#
#   contrib/bench-workload.sh [--builddir DIR] [--cpus N] [--reads R] [NCGROUPS]
#
# Needs root (mounts) and /dev/fuse.
set -u

builddir=.
cpus=$(nproc)
reads=300
n=100
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift ;;
	--builddir=*) builddir=${1#*=} ;;
	--cpus) cpus=$2; shift ;;
	--cpus=*) cpus=${1#*=} ;;
	--reads) reads=$2; shift ;;
	--reads=*) reads=${1#*=} ;;
	-h|--help) sed -n '2,8p' "$0"; exit 0 ;;
	-*) echo "bench-workload.sh: unknown option $1" >&2; exit 2 ;;
	*) n=$1 ;;
	esac
	shift
done
MEMCGFS=$builddir/memcgfs
[ -x "$MEMCGFS" ] || { echo "bench-workload.sh: no $MEMCGFS (use --builddir)" >&2; exit 2; }

# Rates far above what a step may do: every worker runs without sleeping.
FLAT_OUT="anon=100000000 file_read=100000000 file_write=100000000 slab=1000000 kernel=1000000 footprint=4M reclaim=100000 swap=on"

T=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-bench.XXXXXX")
cleanup() {
	mountpoint -q "$T/mnt" && fusermount3 -u "$T/mnt"
	rm -rf "$T"
}
trap cleanup EXIT
mkdir "$T/mnt"
"$MEMCGFS" --cpus="$cpus" "$T/mnt" || exit 1
for _ in $(seq 100); do mountpoint -q "$T/mnt" && break; sleep 0.05; done
echo "bench-workload.sh: making $n cgroups" >&2
for i in $(seq "$n"); do mkdir "$T/mnt/cg$i"; done

# sample LABEL: R timed cats of random cgroups' memory.stat, in microseconds
sample() {
	: > "$T/$1"
	for _ in $(seq "$reads"); do
		f=$T/mnt/cg$((RANDOM % n + 1))/memory.stat
		t0=$EPOCHREALTIME
		cat "$f" > /dev/null
		t1=$EPOCHREALTIME
		echo $(( (${t1/./} - ${t0/./}) )) >> "$T/$1"
	done
	sort -n "$T/$1" -o "$T/$1"
}
pct() {	# pct FILE P
	sed -n "$(( ($(wc -l < "$1") * $2 + 99) / 100 ))p" "$1"
}

echo "memcgfs, $n cgroups, $cpus emulated CPUs on $(nproc) cores, $reads reads each"
echo "command: cat MNT/cgN/memory.stat (whole process, microseconds)"
echo "bench-workload.sh: $reads reads, workers idle" >&2
sample idle
for i in $(seq "$n"); do echo "$FLAT_OUT" > "$T/mnt/cg$i/memcgfs.workload"; done
sleep 1
echo "bench-workload.sh: $reads reads, workers flat out" >&2
sample busy
cur=$(cat "$T/mnt/cg1/memory.stat" | awk '$1 == "pgfault" { print $2 }')
printf '%-34s %10s %10s\n' "workers" "median us" "p99 us"
printf '%-34s %10s %10s\n' "idle" "$(pct "$T/idle" 50)" "$(pct "$T/idle" 99)"
printf '%-34s %10s %10s\n' "flat out on every CPU" "$(pct "$T/busy" 50)" "$(pct "$T/busy" 99)"
echo "(cg1 pgfault after the busy sample: $cur)"
