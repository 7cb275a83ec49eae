#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Compares the stat update hot path of two builds side by side.  It runs
# each build's `memcgfs-bench --runs 31 hotpath` (per era, the fastest of
# 31 runs of 2^22 updates into a depth-3 cgroup) INVOCATIONS times,
# alternating old and new so that the machine's slow phases fall on both
# alike, then prints per era the median over invocations of those minima
# for each build and their ratio.
#
# usage: contrib/bench-hotpath-ab.sh OLD_BUILDDIR NEW_BUILDDIR [INVOCATIONS]
#        (default 12 invocations; each takes a few seconds)
set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 OLD_BUILDDIR NEW_BUILDDIR [INVOCATIONS]" >&2
	exit 2
fi
old=$1/memcgfs-bench
new=$2/memcgfs-bench
n=${3:-12}
for b in "$old" "$new"; do
	if [ ! -x "$b" ]; then
		echo "$0: no $b (build it first)" >&2
		exit 2
	fi
done
case $n in
''|*[!0-9]*|0) echo "$0: INVOCATIONS must be a positive number" >&2; exit 2 ;;
esac

out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	"$old" --runs 31 hotpath | sed 's/^/old /' >>"$out"
	"$new" --runs 31 hotpath | sed 's/^/new /' >>"$out"
	i=$((i + 1))
done

echo "ns per update into a depth-3 cgroup: median over $n alternating invocations of"
echo "each build's fastest of 31 runs"
printf '  %-8s %10s %10s %10s\n' era old new new/old
# Per era: sort each build's minima, take the median, print the ratio.
for era in $(awk '$1 == "old" { print $2 }' "$out" | awk '!seen[$0]++'); do
	o=$(awk -v e="$era" '$1 == "old" && $2 == e { print $3 }' "$out" | sort -g |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	w=$(awk -v e="$era" '$1 == "new" && $2 == e { print $3 }' "$out" | sort -g |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	awk -v e="$era" -v o="$o" -v w="$w" \
		'BEGIN { printf "  %-8s %10.2f %10.2f %9.3fx\n", e, o, w, w / o }'
done
