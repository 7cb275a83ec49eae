#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memcgfs-run: cgget (cgroup-tools), which finds cgroupfs through
# /proc/self/mountinfo, reads the emulated v1 and v2 hierarchies and prints
# their values; the mount table, /proc/cgroups and /proc/self/cgroup agree
# with the emulation; --cgroup makes a cgroup the command's own; the exit
# status passes through; nothing is left behind.  /proc/cgroups is the
# release's; v1 has the machine's other hierarchies (systemd-cgtop prints
# the emulated cgroups); MEMCGFS_ROOT reaches the manual clock; the daemon
# is the build tree's and prints nothing into the command's output.  The
# JVM sizes its heap from the emulated limit, where one is installed.
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
# 7.3 as Debian builds it (CONFIG_MEMCG_V1 and CONFIG_CPUSETS_V1 off):
# cgroup1_subsys_absent() leaves memory and cpuset out of /proc/cgroups
grep -q "^cpu	0	2	1$" "$TMP/out" || { cat "$TMP/out"; fail "v2: /proc/cgroups"; }
grep -qE "^(memory|cpuset)	" "$TMP/out" && { cat "$TMP/out"; fail "v2 7.3: memory in /proc/cgroups"; }
grep -qx "0::/" "$TMP/out" || fail "v2: /proc/self/cgroup is not the namespace's root"

# 6.12 lists every subsystem, num_cgroups as the cgroups come and go
run "--kernel=6.12" '
	mkdir /sys/fs/cgroup/a /sys/fs/cgroup/b
	cat /proc/cgroups
	rmdir /sys/fs/cgroup/b
	grep "^memory" /proc/cgroups'
expect "6.12 /proc/cgroups" "$(cut -f1 "$TMP/out" | tr '\n' ' ')" \
	"#subsys_name cpuset cpu cpuacct blkio memory devices freezer net_cls perf_event net_prio hugetlb pids rdma misc memory "
expect "6.12 memory row" "$(tail -n1 "$TMP/out")" "memory	0	2	1"

# MEMCGFS_ROOT: the emulated root, its manual clock too, below --cgroup
run "--clock=manual --cgroup=/deep/job" '
	echo 2s > "$MEMCGFS_ROOT/memcgfs.clock"
	cat "$MEMCGFS_ROOT/memcgfs.clock"
	test -d "$MEMCGFS_ROOT/deep/job"'
expect "MEMCGFS_ROOT clock" "$(cat "$TMP/out")" 2000000000

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
	expect "v1: one memory mount" "$(grep -c ',memory$' "$TMP/out")" 1
	grep -q " cgroup2 " "$TMP/out" && { cat "$TMP/out"; fail "v1: a cgroup2 mount"; }
	# the machine's other v1 hierarchies, each mounted again
	machine=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup" &&
		$5 ~ "^/sys/fs/cgroup/[^/]*$") print $5; break } }' /proc/self/mountinfo | sort | tr '\n' ' ')
	expect "v1: the machine's hierarchies" \
		"$(awk '$2 == "cgroup" { print $1 }' "$TMP/out" | sort | tr '\n' ' ')" "$machine"
	# /proc/cgroups: 6.12's controllers; the machine's hierarchy ids for
	# those it mounts, memory's with the emulated cgroups at the start
	run "--hierarchy=v1 --kernel=6.12" 'mkdir /sys/fs/cgroup/memory/a; cat /proc/cgroups'
	expect "v1 6.12 /proc/cgroups" "$(cut -f1 "$TMP/out" | tr '\n' ' ')" \
		"#subsys_name cpuset cpu cpuacct blkio memory devices freezer net_cls perf_event net_prio hugetlb pids rdma misc "
	expect "v1 memory row" "$(awk '$1 == "memory" { print $3, $4 }' "$TMP/out")" "1 1"
	[ "$(awk '$1 == "memory" { print $2 }' "$TMP/out")" = \
	  "$(awk '$1 == "memory" { print $2 }' /proc/cgroups)" ] || fail "v1: memory's hierarchy id"
	# systemd-cgtop walks name=systemd, memory ... where the machine has them
	if command -v systemd-cgtop >/dev/null 2>&1 && [ -d /sys/fs/cgroup/systemd ]; then
		run "--hierarchy=v1" '
			M=/sys/fs/cgroup/memory
			mkdir $M/web $M/db
			echo "anon 64M" > $M/web/memcgfs.charge
			echo "file 16M" > $M/db/memcgfs.charge
			systemd-cgtop -b -n 1 --order=memory'
		grep -qE '^/web +- +- +64.0M' "$TMP/out" || { cat "$TMP/out"; fail "systemd-cgtop /web"; }
		grep -qE '^/db +- +- +16.0M' "$TMP/out" || { cat "$TMP/out"; fail "systemd-cgtop /db"; }
	fi
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
# standard input reaches the command, and the signals it ignores are
# those it would ignore run without memcgfs-run (Ctrl-C still ends it)
expect "stdin" "$(echo hi | "$RUN" -- cat)" hi
expect "ignored signals" "$("$RUN" -- grep SigIgn /proc/self/status)" \
	"$(grep SigIgn /proc/self/status)"
# killed by timeout(1), which signals its process group, or by a TERM to
# memcgfs-run's pid alone: the command ends, and so does the run, leaving
# nothing behind
st=0
timeout 3 "$RUN" -- sh -c "echo \$\$ > $TMP/cmd.1; exec sleep 60" || st=$?
expect "timed out" "$st" 124
"$RUN" -- sh -c "echo \$\$ > $TMP/cmd.2; exec sleep 60" &
run_pid=$!
i=0
until [ -s "$TMP/cmd.2" ]; do
	i=$((i + 1))
	[ $i -gt 200 ] && fail "the command under memcgfs-run never started"
	sleep 0.05
done
kill -TERM "$run_pid"
st=0
wait "$run_pid" || st=$?
expect "killed" "$st" 143
for f in cmd.1 cmd.2; do
	kill -0 "$(cat "$TMP/$f")" 2>/dev/null && fail "the command outlived memcgfs-run ($f)"
done
ls -d "$TMP"/memcgfs-run.* 2>/dev/null && fail "a killed run left its work directory"
# the daemon beside the script, without MEMCGFS; nothing but the command's
# output on stdout
expect "the command's output alone" "$(env -u MEMCGFS "$RUN" -- echo hello)" hello

# The JVM's container support (jdk.internal.platform for the report,
# HotSpot's os::Linux for the heap), where installed.  HotSpot needs
# cpuset, cpu, cpuacct and memory enabled in /proc/cgroups: at 6.12, on v1
# where the machine has those hierarchies.  (A 7.3 built as Debian builds
# it lists no cpuset there, nor memory on v2, and a JDK that reads only
# /proc/cgroups ignores the limit, as on that kernel.)
# MaxHeapSize: a quarter of the limit or more, never more than it.
heap() {
	awk '$2 == "MaxHeapSize" { print $4 }' "$TMP/out"
}
if command -v java >/dev/null 2>&1; then
	jvm='java -XshowSettings:system -XX:+PrintFlagsFinal -version 2>&1'
	run "--kernel=6.12 --cgroup=/jvm" "echo 256M > /sys/fs/cgroup/memory.max; $jvm"
	grep -q "Provider: cgroupv2" "$TMP/out" || { cat "$TMP/out"; fail "JVM v2 provider"; }
	grep -q "Memory Limit: 256.00M" "$TMP/out" || { cat "$TMP/out"; fail "JVM v2 limit"; }
	[ "$(heap)" -ge $((64 << 20)) ] && [ "$(heap)" -le $((256 << 20)) ] ||
		fail "JVM v2 MaxHeapSize $(heap) for a 256M memory.max"
	if "$RUN" --hierarchy=v1 -- true >/dev/null 2>&1; then
		run "--hierarchy=v1 --kernel=6.12 --cgroup=/jvm" \
			"echo 128M > /sys/fs/cgroup/memory/memory.limit_in_bytes; $jvm"
		grep -q "Provider: cgroupv1" "$TMP/out" || { cat "$TMP/out"; fail "JVM v1 provider"; }
		grep -q "Memory Limit: 128.00M" "$TMP/out" || { cat "$TMP/out"; fail "JVM v1 limit"; }
		[ "$(heap)" -ge $((32 << 20)) ] && [ "$(heap)" -le $((128 << 20)) ] ||
			fail "JVM v1 MaxHeapSize $(heap) for a 128M limit_in_bytes"
	fi
else
	echo "JVM not tested: no java"
fi
echo "PASS: fs-run"
