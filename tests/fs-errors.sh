#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every error of the issue's table and of ../shared/spec/cgroupfs-behaviour.md.
. "${top_srcdir:-.}/tests/fs-lib.sh"

for h in v1 v2; do
	mount_fs "$TMP/$h" --hierarchy=$h
	M=$TMP/$h
	mkdir "$M/a" "$M/a/b" || fail mkdir
	expect "$h create" "$(err creat "$M/a/newfile")" EACCES
	touch "$M/a/newfile" 2>/dev/null && fail "$h touch succeeded"
	expect "$h unlink" "$(err unlink "$M/a/memory.stat")" EPERM
	expect "$h unlink missing" "$(err unlink "$M/a/nothing")" ENOENT
	expect "$h mknod" "$(err mknod "$M/a/fifo")" EPERM
	# a regular file goes to vfs_create(): no ->create is EACCES
	expect "$h mknod regular" "$(err mkreg "$M/a/reg")" EACCES
	expect "$h O_DIRECT" "$(err odirect "$M/a/memory.stat")" EINVAL
	expect "$h fsync dir" "$(err fsyncdir "$M/a")" EINVAL
	# kernfs_iop_rename(): flags are EINVAL before anything else
	expect "$h renameat2 flags" "$(err noreplace "$M/a/b" "$M/a/b3")" EINVAL
	expect "$h pid parse" "$(err write "$M/a/cgroup.procs" 99999999999)" EINVAL
	# cgroup_procs_write_start(): no such task is ESRCH (an emulated id is
	# no host task); 0 is the writer, a host task, which joins
	# (tests/fs-host-tasks.sh has the rest of joining)
	expect "$h no such pid" "$(err write "$M/a/cgroup.procs" 4194305)" ESRCH
	expect "$h pid 0" "$(err write "$M/a/cgroup.procs" 0)" OK
	wait_unpopulated "$M/a" || fail "$h the writer's exit not seen"
	if [ $h = v1 ]; then threads=tasks; else threads=cgroup.threads; fi
	# cgroup_attach_permissions(): a thread moves only within its domain,
	# and with no threaded cgroups each cgroup is its own (v1: no rule)
	if [ $h = v2 ]; then
		expect "$h a thread to another domain" "$(err write "$M/a/$threads" $$)" EOPNOTSUPP
	fi
	# cgroup_procs_write_start(): a kthread with PF_NO_SETAFFINITY
	# (0x04000000, the 9th field of /proc/PID/stat) is EINVAL, before
	# any permission check (ksoftirqd/N, migration/N have it)
	kthread=$(for f in /proc/[0-9]*/stat; do
		sed 's/.*) //' "$f" 2>/dev/null | awk -v f="$f" \
			'int($7 / 67108864) % 2 == 1 { split(f, p, "/"); print p[3]; exit 1 }' ||
			break
	done)
	if [ -n "$kthread" ]; then
		expect "$h a kthread" "$(err write "$M/a/cgroup.procs" "$kthread")" EINVAL
		expect "$h a kthread's thread" "$(err write "$M/a/$threads" "$kthread")" EINVAL
	else
		echo "note: no task with PF_NO_SETAFFINITY visible: kthread case not run"
	fi
	# kthreadd keeps no_cgroup_migration (cgroup_init_kthreadd()): EINVAL
	if [ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ]; then
		expect "$h kthreadd" "$(err write "$M/a/cgroup.procs" 2)" EINVAL
	fi
	if [ $h = v2 ]; then
		# cgroup_migrate_vet_dst(): no tasks where controllers are
		# enabled for the children (the root excepted)
		echo +memory > "$M/a/cgroup.subtree_control" || fail "+memory"
		expect "$h pid into a cgroup with controllers" \
			"$(err write "$M/a/cgroup.procs" $$)" EBUSY
		# where the task is already: the root, as the kernel allows
		expect "$h pid into the root" "$(err write "$M/cgroup.procs" $$)" OK
		echo -memory > "$M/a/cgroup.subtree_control" || fail "-memory"
		# cgroup_subtree_control_write(): a controller the kernel has
		# but the parent does not offer is ENOENT, and the write
		# changes nothing; disabling it is a no-op; a v1-only or
		# unknown name is EINVAL.
		for c in cpu cpuset pids hugetlb rdma perf_event misc; do
			expect "$h +$c" "$(err write "$M/a/cgroup.subtree_control" "+$c")" ENOENT
		done
		expect "$h +memory +pids" \
			"$(err write "$M/a/cgroup.subtree_control" "+memory +pids")" ENOENT
		expect "$h nothing enabled" "$(cat "$M/a/cgroup.subtree_control")" ""
		expect "$h -cpu" "$(err write "$M/a/cgroup.subtree_control" "-cpu")" OK
		expect "$h +cpuacct" "$(err write "$M/a/cgroup.subtree_control" "+cpuacct")" EINVAL
		expect "$h +bogus" "$(err write "$M/a/cgroup.subtree_control" "+bogus")" EINVAL
		expect "$h memory unsigned" "$(err write "$M/a/cgroup.subtree_control" "memory")" EINVAL
	fi
	expect "$h symlink" "$(err symlink x "$M/a/sym")" EPERM
	expect "$h link" "$(err link "$M/a/memory.stat" "$M/a/l")" EPERM
	expect "$h rmdir busy" "$(err rmdir "$M/a")" EBUSY
	expect "$h rmdir root" "$(err rmdir "$M")" EBUSY
	expect "$h rmdir file" "$(err rmdir "$M/a/memory.stat")" ENOTDIR
	expect "$h rmdir missing" "$(err rmdir "$M/a/zz")" ENOENT
	expect "$h mkdir exists" "$(err mkdir "$M/a/b")" EEXIST
	expect "$h mkdir over a file" "$(err mkdir "$M/a/memory.stat")" EEXIST
	expect "$h mkdir ." "$(err mkdir "$M/a/.")" EEXIST
	expect "$h mkdir .." "$(err mkdir "$M/a/..")" EEXIST
	# kernfs takes names longer than NAME_MAX (Linux 6.18 took 4000
	# bytes).  The host's FUSE module passes up to 1024 bytes, and up to
	# PATH_MAX - 1 from Linux 6.14 (fc->name_max = FUSE_NAME_MAX once
	# max_pages is negotiated); longer is its ENAMETOOLONG.
	ok=$(printf '%01000d' 0)
	expect "$h mkdir 1000 bytes" "$(err mkdir "$M/a/$ok")" OK
	ls "$M/a" | grep -qx "$ok" || fail "$h 1000-byte name not listed"
	rmdir "$M/a/$ok" || fail "rmdir 1000"
	if [ "$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')" -ge 6014 ]; then
		ok=$(printf '%04000d' 0)
		expect "$h mkdir 4000 bytes" "$(err mkdir "$M/a/$ok")" OK
		rmdir "$M/a/$ok" || fail "rmdir 4000"
		long=$(printf '%04096d' 0)
		expect "$h mkdir 4096 bytes" "$(err mkdir "$M/a/$long")" ENAMETOOLONG
	fi
	nl='x
y'
	expect "$h mkdir newline" "$(err mkdir "$M/a/$nl")" EINVAL
	expect "$h mkdir in file" "$(err mkdir "$M/a/memory.stat/x")" ENOTDIR
	# cgroup's kernfs opens a file in a mode it has no handler for and
	# fails the read or write (no KERNFS_ROOT_EXTRA_OPEN_PERM_CHECK);
	# that is for root: the mode bits stop a normal user at open
	if [ $h = v1 ]; then wo=memory.force_empty; else wo=memory.reclaim; fi
	if [ "$(id -u)" -eq 0 ]; then
		expect "$h open read-only for writing" "$(err openw "$M/a/memory.stat")" OK
		expect "$h write read-only" "$(err write "$M/a/memory.stat" 1)" EINVAL
		expect "$h open write-only for reading" "$(err openr "$M/a/$wo")" OK
		expect "$h read write-only" "$(err read "$M/a/$wo")" EINVAL
	else
		expect "$h open read-only for writing" "$(err openw "$M/a/memory.stat")" EACCES
		expect "$h open write-only for reading" "$(err openr "$M/a/$wo")" EACCES
	fi
done
M=$TMP/v1
expect "v1 pressure_level read" "$(err read "$M/a/memory.pressure_level")" EINVAL
old=$(cat "$M/a/memory.limit_in_bytes")
expect "v1 bad limit" "$(err write "$M/a/memory.limit_in_bytes" abc)" EINVAL
expect "v1 old limit kept" "$(cat "$M/a/memory.limit_in_bytes")" "$old"
expect "v1 root limit" "$(err write "$M/memory.limit_in_bytes" 1M)" EINVAL
expect "v1 mv in place" "$(err rename "$M/a/b" "$M/a/b2")" OK
# __cgroup1_procs_write(): a writer other than root moves only tasks whose
# uid or suid is its euid
if nobody_ready; then
	chmod 666 "$M/a/tasks"
	expect "v1 another user's task" \
		"$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SEQREAD" -e write "$M/a/tasks" 1)" \
		EACCES
	expect "v1 its own task" \
		"$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SEQREAD" -e write "$M/a/tasks" 0)" \
		OK
	# ... the opener's (of->file->f_cred), not the writer's: root's fd
	# written by nobody moves root's task
	sleep 60 &
	rootsleep=$!
	exec 3>"$M/a/tasks"
	expect "v1 another user's task, root's fd" \
		"$(LC_ALL=C setpriv --reuid=65534 --regid=65534 --clear-groups perl -e \
			'open(my $f, ">&=3") or die; syswrite($f, "'$rootsleep'\n") and print "OK\n"')" \
		OK
	exec 3>&-
	grep -qx "$rootsleep" "$M/a/tasks" || fail "v1 root's task not moved by root's fd"
	kill $rootsleep
	# cgroup_procs_write_permission(): v2 asks for write permission on
	# cgroup.procs of the common ancestor of the task's cgroup and the
	# destination; a host task starts in the root, so a delegatee of a
	# subtree cannot bring one in (EACCES), whoever owns the destination
	V=$TMP/v2
	mkdir "$V/deleg" || fail mkdir
	chown -R 65534:65534 "$V/deleg"
	nobody() { setpriv --reuid=65534 --regid=65534 "$@"; }
	expect "v2 delegatee, task in the root" \
		"$(nobody --clear-groups "$SEQREAD" -e write "$V/deleg/cgroup.procs" 0)" EACCES
	# the root's file writable through a supplementary group of the
	# opener: the check passes, and the migration cannot be made
	chgrp 4242 "$V/cgroup.procs" && chmod g+w "$V/cgroup.procs"
	expect "v2 delegatee without the root's group" \
		"$(nobody --clear-groups "$SEQREAD" -e write "$V/deleg/cgroup.procs" 0)" EACCES
	expect "v2 delegatee in the root's group" \
		"$(nobody --groups=4242 "$SEQREAD" -e write "$V/deleg/cgroup.procs" 0)" OK
	chmod g-w "$V/cgroup.procs"
	chgrp 0 "$V/cgroup.procs"
	wait_unpopulated "$V/deleg" || fail "v2 deleg: the writer's exit not seen"
	rmdir "$V/deleg"
fi

# a removed cgroup's file, read on: the rest of the rendering (seq_file's
# buffer), then ENODEV
mkdir "$M/gone2" || fail mkdir
out=$("$SEQREAD" "$M/gone2/memory.stat" r:6 "x:rmdir $M/gone2" r:6 s:0 r:6)
expect "rest after rmdir" "$(echo "$out" | sed -n 2p)" "[0"
expect "new read after rmdir" "$(echo "$out" | sed -n 5p)" ENODEV
# a removed cgroup's files, still open: ENODEV
mkdir "$M/gone" || fail mkdir
exec 3<"$M/gone/memory.stat"
rmdir "$M/gone" || fail rmdir
cat <&3 >/dev/null 2>"$TMP/enodev" && fail "read of a removed cgroup succeeded"
grep -q "No such device" "$TMP/enodev" || fail "read of a removed cgroup: $(cat "$TMP/enodev")"
exec 3<&-
echo "PASS: fs-errors"
