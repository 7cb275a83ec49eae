#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Control files take what the kernel takes, store it and read it back; bad
# writes are refused with the kernel's errno and change nothing.
. "${top_srcdir:-.}/tests/fs-lib.sh"

# wr FILE VALUE WANT_ERRNO [WANT_READBACK]
wr() {
	expect "write '$2' to $1" "$(err write "$1" "$2")" "$3"
	[ $# -ge 4 ] && expect "$1 after '$2'" "$(cat "$1")" "$4"
	return 0
}

mount_fs "$TMP/v2"
C=$TMP/v2/c
mkdir "$C" || fail mkdir
for f in memory.max memory.high memory.swap.max memory.swap.high memory.zswap.max; do
	wr "$C/$f" "1G" OK 1073741824
	wr "$C/$f" " 100M " OK 104857600
	wr "$C/$f" "12345" OK 12288		# rounded down to pages
	wr "$C/$f" "0x2000" OK 8192
	wr "$C/$f" "4k" OK 4096
	wr "$C/$f" "1T" OK 1099511627776
	wr "$C/$f" "abc" EINVAL 1099511627776
	wr "$C/$f" "-1" EINVAL 1099511627776
	wr "$C/$f" "1Q" EINVAL 1099511627776
	wr "$C/$f" "max" OK max
done
wr "$C/memory.min" "8192" OK 8192
wr "$C/memory.low" "2M" OK 2097152
wr "$C/memory.low" "max" OK max
wr "$C/memory.oom.group" "1" OK 1
wr "$C/memory.oom.group" "2" EINVAL 1
wr "$C/memory.oom.group" "0" OK 0
wr "$C/cgroup.freeze" "1" OK 1
expect frozen "$(sed -n 2p "$C/cgroup.events")" "frozen 1"
mkdir "$C/kid" || fail mkdir
expect "child of frozen" "$(sed -n 2p "$C/kid/cgroup.events")" "frozen 1"
wr "$C/cgroup.freeze" "2" ERANGE 1
wr "$C/cgroup.freeze" "-+1" EINVAL 1	# kstrtoll(): one sign only
wr "$C/cgroup.freeze" "0" OK 0
wr "$C/cgroup.max.depth" "1" OK 1
expect "depth limit" "$(err mkdir "$C/kid/deeper")" EAGAIN
wr "$C/cgroup.max.depth" "max" OK max
expect "depth unlimited" "$(err mkdir "$C/kid/deeper")" OK
wr "$C/cgroup.max.descendants" "2" OK 2
expect "descendants limit" "$(err mkdir "$C/third")" EAGAIN
wr "$C/cgroup.max.descendants" "-1" ERANGE 2
wr "$C/cgroup.max.descendants" "max" OK max
rmdir "$C/kid/deeper" "$C/kid" || fail rmdir
wr "$C/cgroup.subtree_control" "+memory" OK memory
wr "$C/cgroup.subtree_control" "+io -memory" OK io
wr "$C/cgroup.subtree_control" "+cpu" ENOENT io	# a controller not offered here
wr "$C/cgroup.subtree_control" "+bogus" EINVAL io
wr "$C/cgroup.subtree_control" "memory" EINVAL io
# a cgroup that enables a domain controller for its children cannot be
# threaded (cgroup_enable_threaded()); tests/fs-threaded.sh has the rest
wr "$C/cgroup.type" "threaded" EOPNOTSUPP domain
wr "$C/cgroup.type" "domain" EINVAL domain
wr "$C/cgroup.subtree_control" "-io" OK ""
wr "$C/cgroup.kill" "1" OK
wr "$C/cgroup.kill" "2" ERANGE
wr "$C/cgroup.procs" "abc" EINVAL
# nothing to reclaim in an empty cgroup: the kernel's EAGAIN
wr "$C/memory.reclaim" "1M" EAGAIN
wr "$C/memory.reclaim" "1M swappiness=60" EAGAIN
wr "$C/memory.reclaim" "1000" OK	# less than a page: nothing asked
wr "$C/memory.reclaim" "1M swappiness=201" EINVAL
wr "$C/memory.reclaim" "x" EINVAL
wr "$C/memory.pressure" "some 150000 2000000" OK
wr "$C/memory.pressure" "half 1 2" EINVAL
# the kernel's sscanf() "some %u %u": blanks optional, no sign
wr "$C/memory.pressure" "some +150000 2000000" EINVAL
wr "$C/memory.pressure" "some 150000 -2000000" EINVAL
wr "$C/memory.pressure" "full150000 2000000" OK
wr "$C/memory.peak" "reset" OK
# a write longer than a page is refused whole (kernfs atomic_write_len)
wr "$C/memory.max" "$(printf '%4100s' 1M)" E2BIG max
wr "$C/memory.max" "$(printf '%4090s' 1M)" OK 1048576
wr "$C/memory.max" "max" OK max
wr "$TMP/v2/memory.reclaim" "1G" EAGAIN
# socket buffers: v2 charges memory and "sock", never the root's
echo "sock 2M" > "$C/memcgfs.charge" || fail "sock charge"
wait_stat "$C/memory.stat" sock -eq 2097152 || fail "sock in memory.stat"
[ "$(cat "$C/memory.current")" -ge 2097152 ] || fail "sock in memory.current"
echo "sock 1M" > "$TMP/v2/memcgfs.charge" || fail "sock charge in the root"
expect "the root's sockets" "$(err write "$TMP/v2/memcgfs.charge" "sock -1M")" EINVAL
echo "sock -2M" > "$C/memcgfs.charge" || fail "sock free"
wait_stat "$C/memory.stat" sock -eq 0 || fail "sock freed"
wait_stat "$TMP/v2/memory.stat" sock -eq 0 || fail "root sock"

mount_fs "$TMP/v1" --hierarchy=v1
C=$TMP/v1/c
mkdir "$C" || fail mkdir
U=9223372036854771712
wr "$C/memory.limit_in_bytes" "1G" OK 1073741824
wr "$C/memory.limit_in_bytes" "12345" OK 12288
wr "$C/memory.limit_in_bytes" "max" EINVAL 12288
wr "$C/memory.limit_in_bytes" "abc" EINVAL 12288
wr "$C/memory.limit_in_bytes" "-1" OK $U
wr "$C/memory.memsw.limit_in_bytes" "1G" EINVAL $U	# below memory's: EINVAL
wr "$C/memory.limit_in_bytes" "512M" OK 536870912
wr "$C/memory.memsw.limit_in_bytes" "1G" OK 1073741824
wr "$C/memory.limit_in_bytes" "2G" EINVAL 536870912	# above memsw: kept
wr "$C/memory.memsw.limit_in_bytes" "256M" EINVAL 1073741824
wr "$C/memory.memsw.limit_in_bytes" "-1" OK $U
wr "$C/memory.limit_in_bytes" "-1" OK $U
wr "$C/memory.kmem.limit_in_bytes" "1G" OK $U		# deprecated: no effect
# socket buffers: not the memcg's until a tcp limit is written
# (memcg_update_tcp_max()), then kmem.tcp's alone, refused at its limit
echo "sock 1M" > "$C/memcgfs.charge" || fail "sock charge"
expect "tcp usage, accounting off" "$(cat "$C/memory.kmem.tcp.usage_in_bytes")" 0
wr "$C/memory.kmem.tcp.limit_in_bytes" "64M" OK 67108864
echo "sock 1M" > "$C/memcgfs.charge" || fail "sock charge"
expect "tcp usage" "$(cat "$C/memory.kmem.tcp.usage_in_bytes")" 1048576
wr "$C/memory.kmem.tcp.limit_in_bytes" "512K" EBUSY 67108864
expect "sock past the limit" "$(err write "$C/memcgfs.charge" "sock 64M")" ENOMEM
expect "tcp failcnt" "$(cat "$C/memory.kmem.tcp.failcnt")" 1
expect "tcp usage at the limit" "$(cat "$C/memory.kmem.tcp.usage_in_bytes")" 67108864
echo "sock -64M" > "$C/memcgfs.charge" || fail "sock free"
expect "tcp usage freed" "$(cat "$C/memory.kmem.tcp.usage_in_bytes")" 0
wr "$C/memory.soft_limit_in_bytes" "1G" OK $U
wr "$C/memory.soft_limit_in_bytes" "x" EINVAL $U
wr "$C/memory.max_usage_in_bytes" "0" OK 0
wr "$C/memory.failcnt" "0" OK 0
wr "$C/memory.swappiness" "10" OK 10
wr "$C/memory.swappiness" "201" EINVAL 10
wr "$C/memory.swappiness" " 5" EINVAL 10		# kstrtoull: no blanks
mkdir "$C/kid" || fail mkdir
expect "swappiness inherited" "$(cat "$C/kid/memory.swappiness")" 10
wr "$C/memory.use_hierarchy" "1" OK 1
wr "$C/memory.use_hierarchy" "0" EINVAL 1
# 7.3 removed charge moving: only 0 is taken, and it reads 0
wr "$C/memory.move_charge_at_immigrate" "3" EINVAL 0
wr "$C/memory.move_charge_at_immigrate" "0" OK 0
wr "$C/memory.oom_control" "1" OK
expect oom_control "$(head -n1 "$C/memory.oom_control")" "oom_kill_disable 1"
wr "$C/memory.oom_control" "2" EINVAL
wr "$TMP/v1/memory.oom_control" "1" EINVAL
wr "$C/memory.force_empty" "0" OK
wr "$TMP/v1/memory.force_empty" "0" EINVAL
wr "$C/notify_on_release" "1" OK 1
wr "$C/cgroup.clone_children" "7" OK 1
wr "$C/cgroup.clone_children" "x" EINVAL 1
wr "$C/cgroup.event_control" "x" EINVAL
wr "$C/tasks" "abc" EINVAL
wr "$TMP/v1/release_agent" "/bin/true" OK /bin/true
wr "$TMP/v1/memory.swappiness" "30" OK 30
mkdir "$TMP/v1/d" || fail mkdir
expect "swappiness from vm_swappiness" "$(cat "$TMP/v1/d/memory.swappiness")" 30
# psi_trigger_create() of 5.10: windows of 500 ms to 10 s, no capability
# rule, no "full" for cpu
mount_fs "$TMP/v2-510" --kernel=5.10
mkdir "$TMP/v2-510/c" || fail mkdir
C=$TMP/v2-510/c
wr "$C/memory.pressure" "some 100000 400000" EINVAL
wr "$C/memory.pressure" "some 100000 1000000" OK
wr "$C/cpu.pressure" "full 100000 1000000" EINVAL
wr "$C/cpu.pressure" "some 100000 1000000" OK

# a v1 memcg whose limit cannot take one more memcg's objects: ENOMEM
mkdir "$TMP/v1/full" || fail mkdir
echo 0 > "$TMP/v1/full/memory.limit_in_bytes" || fail "limit 0"
expect "v1 mkdir under limit 0" "$(err mkdir "$TMP/v1/full/kid")" ENOMEM
[ "$(cat "$TMP/v1/full/memory.failcnt")" -gt 0 ] || fail "no failcnt for the refused memcg"

# 5.10 and 6.1 store the soft limit and the charge-moving bits
# (mem_cgroup_write(), mem_cgroup_move_charge_write() in mm/memcontrol.c)
for k in 5.10 6.1; do
	mount_fs "$TMP/v1-$k" --hierarchy=v1 --kernel=$k
	C=$TMP/v1-$k/c
	mkdir "$C" || fail mkdir
	wr "$C/memory.soft_limit_in_bytes" "1G" OK 1073741824
	wr "$C/memory.soft_limit_in_bytes" "x" EINVAL 1073741824
	wr "$C/memory.soft_limit_in_bytes" "-1" OK $U
	wr "$C/memory.move_charge_at_immigrate" "3" OK 3
	wr "$C/memory.move_charge_at_immigrate" "4" EINVAL 3
done
echo "PASS: fs-write"
