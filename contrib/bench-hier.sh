#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-hier.sh: how long mkdir, a refused rmdir (EBUSY), the tasks' exit
# (memcgfs.workload preset=idle) and rmdir take while every emulated CPU
# runs the workers of NCGROUPS busy cgroups.  With two build directories
# both are mounted at once, under the same load, and the probes alternate
# between them; the ratios are first over second.
#
#   contrib/bench-hier.sh [--cpus N] [--probes P] [--preset NAME] \
#       BUILDDIR [BUILDDIR2] [NCGROUPS]
#
# Prints per build and operation the median over P probes, its 95%
# distribution-free interval (order statistics), and the ratio of the
# medians.  Needs root (mounts) and /dev/fuse.
set -u

cpus=80
probes=15
preset=seed001
builds=()
n=500
while [ $# -gt 0 ]; do
	case $1 in
	--cpus) cpus=$2; shift ;;
	--cpus=*) cpus=${1#*=} ;;
	--probes) probes=$2; shift ;;
	--probes=*) probes=${1#*=} ;;
	--preset) preset=$2; shift ;;
	--preset=*) preset=${1#*=} ;;
	-h|--help) sed -n '2,14p' "$0"; exit 0 ;;
	-*) echo "bench-hier.sh: unknown option $1" >&2; exit 2 ;;
	*) if [ -d "$1" ]; then builds+=("$1"); else n=$1; fi ;;
	esac
	shift
done
[ ${#builds[@]} -ge 1 ] && [ ${#builds[@]} -le 2 ] ||
	{ echo "bench-hier.sh: one or two build directories" >&2; exit 2; }
for b in "${builds[@]}"; do
	[ -x "$b/memcgfs" ] || { echo "bench-hier.sh: no $b/memcgfs" >&2; exit 2; }
done

T=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-bench-hier.XXXXXX")
cleanup() {
	for i in "${!builds[@]}"; do
		mountpoint -q "$T/m$i" && fusermount3 -uz "$T/m$i"
	done
	rm -rf "$T"
}
trap cleanup EXIT

for i in "${!builds[@]}"; do
	mkdir "$T/m$i"
	"${builds[$i]}/memcgfs" --cpus="$cpus" --workload="preset=$preset" "$T/m$i" || exit 1
	for _ in $(seq 100); do mountpoint -q "$T/m$i" && break; sleep 0.05; done
	echo "bench-hier.sh: ${builds[$i]}: $n busy cgroups on $cpus CPUs" >&2
	for c in $(seq "$n"); do mkdir "$T/m$i/cg$c"; done
done
sleep 5	# every worker under way

# op KIND PATH: the system call alone, timed in perl; prints "seconds errno".
op() {
	perl -MTime::HiRes=time -e '
		my ($kind, $path) = @ARGV; my ($ok, $f); my $t = time;
		if ($kind eq "mkdir") { $ok = mkdir $path }
		elsif ($kind eq "rmdir") { $ok = rmdir $path }
		else { $ok = open($f, ">", "$path/memcgfs.workload") && syswrite($f, "preset=idle\n") }
		printf "%.6f %d\n", time - $t, $ok ? 0 : $! + 0;' "$1" "$2"
}

: > "$T/times"
for p in $(seq "$probes"); do
	for i in "${!builds[@]}"; do
		d="$T/m$i/probe$p"
		read -r s e < <(op mkdir "$d")
		echo "$i mkdir $s $e" >> "$T/times"
		read -r s e < <(op rmdir "$d")	# its workload runs: EBUSY
		echo "$i rmdir-busy $s $e" >> "$T/times"
		read -r s e < <(op idle "$d")
		echo "$i idle $s $e" >> "$T/times"
		read -r s e < <(op rmdir "$d")
		echo "$i rmdir $s $e" >> "$T/times"
	done
done

# The expected errno of each operation: anything else is a failed probe.
awk '($2 == "rmdir-busy" && $4 != 16) || ($2 != "rmdir-busy" && $4 != 0) {
	printf "bench-hier.sh: build %d %s: errno %d\n", $1, $2, $4; bad = 1 }
	END { exit bad }' "$T/times" >&2 || exit 1

# stats BUILD OP: median and the 95% interval of the median, in ms.
stats() {
	awk -v b="$1" -v o="$2" '$1 == b && $2 == o { print $3 * 1000 }' "$T/times" | sort -g |
	awk '{ v[NR] = $1 }
	END {
		n = NR; med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		# largest j with P(Binomial(n, 1/2) < j) <= 0.025
		j = 0; cum = 0; pk = 0.5 ^ n
		for (k = 0; k < n; k++) {
			if (cum + pk > 0.025) break
			cum += pk; j = k + 1; pk = pk * (n - k) / (k + 1)
		}
		if (j < 1) printf "%.1f [n too small]", med
		else printf "%.1f [%.1f, %.1f]", med, v[j], v[n - j + 1]
	}'
}

echo "$probes probes per build, $n busy cgroups (preset=$preset), --cpus=$cpus;"
echo "ms: median [95% interval of the median]"
for o in mkdir rmdir-busy idle rmdir; do
	line=$(printf "%-11s" "$o")
	for i in "${!builds[@]}"; do
		line="$line  build$((i + 1)) $(stats "$i" "$o")"
	done
	if [ ${#builds[@]} -eq 2 ]; then
		m1=$(stats 0 "$o"); m2=$(stats 1 "$o")
		line="$line  ratio $(awk -v a="${m1%% *}" -v b="${m2%% *}" 'BEGIN { printf "%.2fx", a / b }')"
	fi
	echo "$line"
done
for i in "${!builds[@]}"; do echo "build$((i + 1)): ${builds[$i]}"; done
