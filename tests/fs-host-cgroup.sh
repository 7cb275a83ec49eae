#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Host processes run in shadow cgroups of a host v1 memory hierarchy
# (--host_cgroup, src/host/shadow.c): the host kernel accounts their page
# cache too and enforces the emulated limits; the shadows go with the
# emulated cgroups and the daemon, and a restart removes what a daemon
# killed with SIGKILL left.  Needs root and a writable v1 memory
# hierarchy at /sys/fs/cgroup/memory; works in one directory of its own
# there, removed even after a failure.
. "${top_srcdir:-.}/tests/fs-lib.sh"

V1=/sys/fs/cgroup/memory
[ "$(id -u)" -eq 0 ] || skip "not root"
[ "$(stat -f -c %T "$V1" 2>/dev/null)" = cgroupfs ] && [ -w "$V1/memory.limit_in_bytes" ] ||
	[ -w "$V1/cgroup.procs" ] || skip "no writable v1 memory hierarchy at $V1"
H=$V1/memcgfs-test.$$
mkdir "$H" || skip "cannot make $H"
# Removes $H and whatever is below it, its processes moved to $V1 first.
remove_host_tree() {
	for d in $(find "$1" -depth -type d 2>/dev/null); do
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do
			echo "$p" > "$V1/cgroup.procs" 2>/dev/null
		done
		rmdir "$d" 2>/dev/null
	done
}
trap 'cleanup; remove_host_tree "$H"' EXIT

shadows() {
	find "$H" -mindepth 1 -type d | wc -l
}

M=$TMP/v2
mount_fs "$M" --hierarchy=v2 --host_cgroup="$H"
daemon=$FS_PID
echo +memory > "$M/cgroup.subtree_control" || fail "+memory"
mkdir "$M/a" || fail mkdir
start_task
echo "$task" > "$M/a/cgroup.procs" || fail "join"
base=$H/memcgfs.$daemon
[ -d "$base" ] || fail "no $base"
id=$(ls "$base" | grep -x '[0-9]*')
expect "the task runs in a's shadow" "$(cat "$base/$id/cgroup.procs")" "$task"

# anon, and page cache it writes (which /proc does not show), charged
# as the host charges them; a read sees them at once
cmd anon 32
[ "$(key_of "$M/a/memory.stat" anon)" -ge $((32 << 20)) ] || fail "anon: $(key_of "$M/a/memory.stat" anon)"
cmd write "$TMP/written" 16
[ "$(key_of "$M/a/memory.stat" file)" -ge $((16 << 20)) ] ||
	fail "written page cache: $(key_of "$M/a/memory.stat" file)"

# a limit is the shadow's at once; one the usage does not fit under
# (v1 refuses it, EBUSY) OOM-kills as v2's memory.max write does
echo 96M > "$M/a/memory.max" || fail "memory.max"
expect "limit mirrored" "$(cat "$base/$id/memory.limit_in_bytes")" $((96 << 20))
echo 16M > "$M/a/memory.max" || fail "memory.max below usage"
exec 7>&- 8<&-
wait "$task"
expect "killed by the lower limit" "$?" 137
expect "oom_kill" "$(key_of "$M/a/memory.events" oom_kill)" 1
i=0
until [ "$(cat "$base/$id/memory.limit_in_bytes")" = $((16 << 20)) ]; do
	i=$((i + 1))
	[ $i -gt 40 ] && fail "lower limit not mirrored after the kill"
	sleep 0.05
done

# the host kernel's own OOM kill at the limit, mirrored
if [ -z "$(tail -n +2 /proc/swaps)" ]; then
	start_task
	echo "$task" > "$M/a/cgroup.procs" || fail "join again"
	echo "anon 64" >&7
	read -r reply <&8
	exec 7>&- 8<&-
	wait "$task"
	expect "host OOM kill" "$?" 137
	[ "$(key_of "$M/a/memory.events" oom_kill)" -ge 2 ] ||
		fail "host OOM kill not mirrored: $(key_of "$M/a/memory.events" oom_kill)"
else
	echo "note: swap on: the host would swap, not kill; host OOM case not run"
fi
wait_unpopulated "$M/a" || fail "exit not seen"
rmdir "$M/a" || fail rmdir
[ -d "$base/$id" ] && fail "shadow left after rmdir"

# kernel memory: a v1 host counts one kmem; its stacks are the threads'
mkdir "$M/k" || fail "mkdir k"
start_task
echo "$task" > "$M/k/cgroup.procs" || fail "join k"
cmd threads 64
wait_stat "$M/k/memory.stat" kernel_stack -ge $((64 * 16384)) ||
	fail "kernel stacks: $(key_of "$M/k/memory.stat" kernel_stack)"

# socket buffers: the host counts them in the shadow's kmem.tcp once the
# daemon switched it on; v2 charges them to memory.current and "sock"
before=$(cat "$M/k/memory.current")
cmd sock
wait_stat "$M/k/memory.stat" sock -ge $((256 << 10)) ||
	fail "socket buffers: $(key_of "$M/k/memory.stat" sock)"
sock=$(key_of "$M/k/memory.stat" sock)
[ "$(cat "$M/k/memory.current")" -ge $((before + sock / 2)) ] ||
	fail "sock not in memory.current: $before -> $(cat "$M/k/memory.current"), sock $sock"
cmd unsock
wait_stat "$M/k/memory.stat" sock -eq 0 || fail "sockets closed: $(key_of "$M/k/memory.stat" sock)"

# memory.reclaim takes the host's page cache (the shadow's limit squeezed
# and put back), and the emulated charges follow
cmd write "$TMP/reclaimed" 32
[ "$(key_of "$M/k/memory.stat" file)" -ge $((32 << 20)) ] || fail "page cache before reclaim"
echo 24M > "$M/k/memory.reclaim" || fail "memory.reclaim of host page cache"
[ "$(key_of "$M/k/memory.stat" file)" -le $((8 << 20)) ] ||
	fail "page cache after reclaim: $(key_of "$M/k/memory.stat" file)"
expect "limit put back" "$(cat "$base/$(ls "$base" | grep -x '[0-9]*' | tail -1)/memory.limit_in_bytes")" \
	"$(cat "$H/memory.limit_in_bytes")"
end_task
wait_unpopulated "$M/k" || fail "exit from k not seen"
rmdir "$M/k" || fail "rmdir k"

# memory.oom.group: the host kills one process at the limit, the daemon
# the rest of the group; "oom" on g, the memcg out of memory
if [ -z "$(tail -n +2 /proc/swaps)" ]; then
	oom_group_case "$M"
	expect "oom" "$(key_of "$TMP/g.events" oom)" 1
fi

# unmount: the base goes
fusermount3 -u "$M" || fail unmount
wait_gone "$daemon" || fail "daemon did not end"
expect "nothing left after unmount" "$(shadows)" 0

# SIGKILL: the shadow and its task stay; the next daemon removes them
mount_fs "$M" --hierarchy=v2 --host_cgroup="$H"
daemon=$FS_PID
echo +memory > "$M/cgroup.subtree_control" && mkdir "$M/k" || fail mkdir
start_task
echo "$task" > "$M/k/cgroup.procs" || fail "join k"
kill -9 "$daemon"
wait "$daemon" 2>/dev/null
fusermount3 -u "$M" 2>/dev/null || umount -l "$M"
[ "$(shadows)" -ge 2 ] || fail "a killed daemon's shadows went"
mount_fs "$M" --hierarchy=v2 --host_cgroup="$H"
expect "a killed daemon's shadows removed" "$(shadows)" 1
grep -qx "$task" "$H/cgroup.procs" || fail "its task not moved to $H"
end_task
echo ok
