#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memcgfs-run: cgget (cgroup-tools), which finds cgroupfs through
# /proc/self/mountinfo, reads the emulated v1 and v2 hierarchies and prints
# their values; the mount table, /proc/cgroups and /proc/self/cgroup agree
# with the emulation; --cgroup makes a cgroup the command's own; the exit
# status passes through; nothing is left behind.  The JVM's view too, where
# one is installed.
. "${top_srcdir:-.}/tests/fs-lib.sh"

RUN=$top_builddir/memcgfs-run
[ -x "$RUN" ] || fail "no $RUN"
[ "$(id -u)" -eq 0 ] || skip "memcgfs-run is tested as root"
command -v cgget >/dev/null 2>&1 || skip "no cgget (Debian package cgroup-tools)"
export MEMCGFS TMPDIR="$TMP"
unshare --mount --cgroup --propagation private true 2>/dev/null ||
	skip "cannot make mount and cgroup namespaces here"

# Runs a shell script under memcgfs-run; fails with the script's output.
run() {
	opts=$1
	shift
	# shellcheck disable=SC2086
	"$RUN" $opts -- sh -ec "$*" > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "memcgfs-run $opts: $*"; }
}

# ---- v2 ----
# cgget -v prints a multi-line value with a tab before each line after the
# first: sed takes them off to compare with the file.
run "--clock=manual --nodes=2" '
	C=/sys/fs/cgroup
	mkdir $C/job
	echo 64M > $C/job/memory.max
	echo "anon 10M node=1" > $C/job/memcgfs.charge
	echo "oom_kill 2" > $C/job/memcgfs.charge
	test "$(cgget -n -v -r memory.max /job)" = "$(cat $C/job/memory.max)"
	test "$(cgget -n -v -r memory.current /job)" = 10485760
	cgget -n -v -r memory.stat /job | sed "s/^\t//" | cmp - $C/job/memory.stat
	cgget -n -v -r memory.numa_stat /job | sed "s/^\t//" | cmp - $C/job/memory.numa_stat
	cgget -n -v -r memory.events /job | sed "s/^\t//" | grep -qx "oom_kill 2"
	awk "{ for (i = 7; i <= NF; i++) if (\$i == \"-\") { print \$5, \$(i + 1); break } }" \
		/proc/self/mountinfo | grep -E " cgroup2?\$"
	cat /proc/cgroups /proc/self/cgroup'
grep -qx "/sys/fs/cgroup cgroup2" "$TMP/out" || { cat "$TMP/out"; fail "v2: no cgroup2 mount at /sys/fs/cgroup"; }
expect "v2: cgroup mounts" "$(grep -cE ' cgroup2?$' "$TMP/out")" 1
grep -q "^memory	0	1	1$" "$TMP/out" || { cat "$TMP/out"; fail "v2: /proc/cgroups"; }
grep -qx "0::/" "$TMP/out" || fail "v2: /proc/self/cgroup is not the namespace's root"

# --cgroup: the cgroup is the command's own, at the hierarchy's place.
run "--cgroup=/apps/web" '
	echo 32M > /sys/fs/cgroup/memory.max
	test "$(cgget -n -v -r memory.max /)" = 33554432
	test -e /sys/fs/cgroup/memory.current	# not the root: it has every file
	mkdir /sys/fs/cgroup/worker
	cgget -n -v -r cgroup.stat / | grep -qx "nr_descendants 1"'

# ---- v1 ----
if "$RUN" --hierarchy=v1 -- true >/dev/null 2>&1; then
	run "--hierarchy=v1 --cpus=2" '
		M=/sys/fs/cgroup/memory
		mkdir $M/job
		echo 48M > $M/job/memory.limit_in_bytes
		echo "file 4M" > $M/job/memcgfs.charge
		test "$(cgget -n -v -r memory.limit_in_bytes /job)" = 50331648
		test "$(cgget -n -v -r memory.usage_in_bytes /job)" = "$(cat $M/job/memory.usage_in_bytes)"
		cgget -n -v -r memory.stat /job | sed "s/^\t//" | cmp - $M/job/memory.stat
		awk "{ for (i = 7; i <= NF; i++) if (\$i == \"-\") { print \$5, \$(i + 1), \$(i + 3); break } }" \
			/proc/self/mountinfo | grep -E " cgroup2? "'
	grep -q "^/sys/fs/cgroup/memory cgroup rw,memory$" "$TMP/out" ||
		{ cat "$TMP/out"; fail "v1: no cgroup memory mount"; }
	expect "v1: cgroup mounts" "$(grep -cE ' cgroup2? ' "$TMP/out")" 1
else
	echo "v1 not tested: this machine's memory controller cannot be mounted as v1"
fi

# The exit status passes through, and the run leaves nothing behind.
st=0
"$RUN" -- sh -c 'exit 7' || st=$?
expect "exit status" "$st" 7
st=0
"$RUN" --kernel=1.0 -- true 2>/dev/null || st=$?
expect "bad memcgfs option" "$st" 2
ls -d "$TMP"/memcgfs-run.* 2>/dev/null && fail "a work directory was left"

# The JVM's container support (jdk.internal.platform), where installed.
if command -v java >/dev/null 2>&1; then
	run "--cgroup=/jvm" 'echo 256M > /sys/fs/cgroup/memory.max; java -XshowSettings:system -version'
	grep -q "Provider: cgroupv2" "$TMP/out" || { cat "$TMP/out"; fail "JVM v2 provider"; }
	grep -q "Memory Limit: 256.00M" "$TMP/out" || { cat "$TMP/out"; fail "JVM v2 limit"; }
	if "$RUN" --hierarchy=v1 -- true >/dev/null 2>&1; then
		run "--hierarchy=v1 --cgroup=/jvm" \
			'echo 128M > /sys/fs/cgroup/memory/memory.limit_in_bytes; java -XshowSettings:system -version'
		grep -q "Provider: cgroupv1" "$TMP/out" || { cat "$TMP/out"; fail "JVM v1 provider"; }
		grep -q "Memory Limit: 128.00M" "$TMP/out" || { cat "$TMP/out"; fail "JVM v1 limit"; }
	fi
else
	echo "JVM not tested: no java"
fi
echo "PASS: fs-run"
