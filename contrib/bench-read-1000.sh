#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-read-1000.sh: time of `cat MNT/cg*/memory.stat > /dev/null` over N
# cgroups on memcgfs, side by side with memcgfs-constfs (a minimal FUSE
# daemon serving the same tree with constant text: with size-0 files and
# direct I/O as cgroupfs files need; through the page cache, one READ per
# open; through a kept page cache, no READ at all), a tmpfs tree of the same
# files and, with --real-kernel, the kernel's own cgroupfs.  Then the time to
# mkdir and rmdir 10,000 cgroups on memcgfs.
#
#   contrib/bench-read-1000.sh [--builddir DIR] [--runs R] [--hierarchy v1|v2]
#                              [--real-kernel[=DIR]] [--variant LABEL=OPTIONS]...
#                              [N]
#
# --variant mounts one more memcgfs with OPTIONS added, timed in the same
# rounds (e.g. --variant 'pagecache=--pagecache'; LABEL ends at the first =).
# Runs are interleaved (one of each target per round) after two warm-up
# rounds; the medians are printed with their ratios to the constant daemon
# and to the kernel.  Needs root (mounts) and /dev/fuse.
# --real-kernel makes DIR, which must not exist yet, creates the N cgroups in
# it and removes them and DIR after; nothing else is touched.  DIR's parent
# is a cgroup of either hierarchy the memory controller is in:
#  - v1: a directory of the v1 memory hierarchy (default where one is
#    mounted: /sys/fs/cgroup/memory/memcgfs-bench.PID);
#  - cgroup2: a cgroup with "memory" in its cgroup.subtree_control, so its
#    children have memory.stat (default: /sys/fs/cgroup/memcgfs-bench.PID,
#    the root of a stock Debian 12's cgroup2); DIR passes memory on to the
#    N cgroups.  Where memory is in the parent's cgroup.controllers but not
#    its subtree_control, `echo +memory > PARENT/cgroup.subtree_control`.
set -u

builddir=.
runs=11
hier=v1
real=0
if [ -f /sys/fs/cgroup/memory/memory.stat ]; then
	REAL=/sys/fs/cgroup/memory/memcgfs-bench.$$
else
	REAL=/sys/fs/cgroup/memcgfs-bench.$$
fi
n=1000
nvariants=0
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift ;;
	--builddir=*) builddir=${1#*=} ;;
	--runs) runs=$2; shift ;;
	--runs=*) runs=${1#*=} ;;
	--hierarchy) hier=$2; shift ;;
	--hierarchy=*) hier=${1#*=} ;;
	--real-kernel) real=1 ;;
	--real-kernel=*) real=1; REAL=${1#*=} ;;
	--variant) nvariants=$((nvariants + 1)); eval "variant_$nvariants=\$2"; shift ;;
	--variant=*) nvariants=$((nvariants + 1)); eval "variant_$nvariants=\${1#*=}" ;;
	-h|--help) sed -n '2,/^set -u$/p' "$0" | sed '$d'; exit 0 ;;
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
vi=1
while [ $vi -le $nvariants ]; do
	eval "v=\$variant_$vi"
	case $v in
	?*=*) ;;
	*) echo "bench-read-1000.sh: --variant '$v' is not LABEL=OPTIONS" >&2; exit 2 ;;
	esac
	vi=$((vi + 1))
done
# The kernel's directory: ours alone, made and removed by this run, in a
# cgroup whose children have the memory controller (real_hier: v1 or v2).
real_hier=
if [ $real = 1 ]; then
	if [ -e "$REAL" ] || [ -L "$REAL" ]; then
		echo "bench-read-1000.sh: $REAL exists; remove it or name another with --real-kernel=DIR" >&2
		exit 2
	fi
	parent=$(dirname "$REAL")
	if [ -f "$parent/memory.stat" ] && [ -f "$parent/memory.use_hierarchy" ]; then
		real_hier=v1
	elif [ -f "$parent/cgroup.controllers" ]; then
		if ! grep -qw memory "$parent/cgroup.controllers"; then
			echo "bench-read-1000.sh: $parent is a cgroup2 directory without the memory controller" \
			     "(cgroup.controllers: $(cat "$parent/cgroup.controllers")): --real-kernel=DIR needs" \
			     "DIR in a v1 memory hierarchy or in a cgroup2 cgroup with memory" >&2
			exit 2
		fi
		if ! grep -qw memory "$parent/cgroup.subtree_control" 2>/dev/null; then
			echo "bench-read-1000.sh: $parent does not give its children the memory controller" \
			     "(no memory in its cgroup.subtree_control): echo +memory >" \
			     "$parent/cgroup.subtree_control, or name another DIR with --real-kernel=DIR" >&2
			exit 2
		fi
		real_hier=v2
	else
		echo "bench-read-1000.sh: $parent is neither a directory of a v1 memory hierarchy nor" \
		     "a cgroup2 directory: --real-kernel=DIR needs DIR in one of them, with the memory controller" >&2
		exit 2
	fi
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-bench.XXXXXX")
MOUNTS=""
real_made=0
cleanup() {
	for m in $MOUNTS; do
		fusermount3 -u "$m" 2>/dev/null || umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	if [ $real_made = 1 ]; then
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
mkdir -p "$T/memcgfs" "$T/constfs" "$T/pagecache" "$T/keepcache" "$T/tmpfs"
"$MEMCGFS" --hierarchy="$hier" "$T/memcgfs" || exit 1
MOUNTS="$MOUNTS $T/memcgfs"
mkdirs "$T/memcgfs"
cat "$T/memcgfs/cg0/memory.stat" > "$T/text"
ls "$T/memcgfs/cg0" > "$T/names"
targets="memcgfs"
vi=1
while [ $vi -le $nvariants ]; do
	eval "v=\$variant_$vi"
	mkdir -p "$T/variant$vi"
	# shellcheck disable=SC2086 # the variant's options are words
	"$MEMCGFS" --hierarchy="$hier" ${v#*=} "$T/variant$vi" || exit 1
	MOUNTS="$MOUNTS $T/variant$vi"
	mkdirs "$T/variant$vi"
	targets="$targets variant$vi"
	vi=$((vi + 1))
done

"$CONSTFS" -o "text=$T/text,names=$T/names,max_read=4096" "$T/constfs" || exit 1
MOUNTS="$MOUNTS $T/constfs"
"$CONSTFS" -o "text=$T/text,names=$T/names,pagecache" "$T/pagecache" || exit 1
MOUNTS="$MOUNTS $T/pagecache"
"$CONSTFS" -o "text=$T/text,names=$T/names,pagecache,keep_cache" "$T/keepcache" || exit 1
MOUNTS="$MOUNTS $T/keepcache"
for m in constfs pagecache keepcache; do
	wait_mounted "$T/$m"
	mkdirs "$T/$m"
done
targets="$targets constfs pagecache keepcache"

if mount -t tmpfs -o size=256m memcgfs-bench "$T/tmpfs" 2>/dev/null; then
	MOUNTS="$MOUNTS $T/tmpfs"
fi
mkdirs "$T/tmpfs"
for d in "$T/tmpfs"/cg[0-9]*; do cp "$T/text" "$d/memory.stat"; done
targets="$targets tmpfs"

if [ $real = 1 ]; then
	mkdir "$REAL" || exit 1
	real_made=1
	if [ $real_hier = v2 ]; then
		echo +memory > "$REAL/cgroup.subtree_control" ||
			{ echo "cannot enable memory in $REAL/cgroup.subtree_control" >&2; exit 1; }
	fi
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
kbase=0
[ $real = 1 ] && kbase=$(median_us kernel)
printf '%-50s %10s %10s %10s\n' "target" "median ms" "/ constfs" "/ kernel"
for t in $targets; do
	m=$(median_us "$t")
	case $t in
	memcgfs) label="memcgfs ($hier)" ;;
	variant*) eval "v=\$variant_${t#variant}"; label="memcgfs ($hier) ${v%%=*}" ;;
	constfs) label="memcgfs-constfs (size 0, direct I/O)" ;;
	pagecache) label="memcgfs-constfs -o pagecache (a READ per open)" ;;
	keepcache) label="memcgfs-constfs -o pagecache,keep_cache" ;;
	tmpfs) label="tmpfs tree of the same files" ;;
	kernel) label="kernel $real_hier cgroupfs" ;;
	esac
	awk -v l="$label" -v m="$m" -v b="$base" -v k="$kbase" \
		'BEGIN { printf "%-50s %10.1f %10.2f", l, m / 1000, m / b;
			 if (k > 0) printf " %10.2f", m / k; else printf " %10s", "-";
			 printf "\n" }'
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
