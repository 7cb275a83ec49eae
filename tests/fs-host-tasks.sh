#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Host processes in emulated cgroups (src/host): a pid written to
# cgroup.procs, tasks or cgroup.threads joins; it is listed, moves, makes
# populated 1, keeps rmdir EBUSY, leaves at its exit (and pollers of
# cgroup.events hear it), and cgroup.kill and cgroup.freeze act on it.
# Its memory is charged from /proc: anon and mapped page cache, kept
# across a move, freed at its exit (page cache stays), and a limit OOM-
# kills it; an exec replaces what it had.
. "${top_srcdir:-.}/tests/fs-lib.sh"

[ -x "$HOSTTASK" ] || fail "no $HOSTTASK"

# A host process of three threads; its pid in $task, its threads
# ascending in $threads.
start_threads() {
	start_task
	cmd threads 2
	threads=$(ls "/proc/$task/task" | sort -n | tr '\n' ' ')
}

# The state letter of a process (/proc/PID/stat), "T" when stopped.
state() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1
}

# Waits up to 2 s for process $1 to be in state $2.
wait_state() {
	i=0
	while [ "$(state "$1")" != "$2" ]; do
		i=$((i + 1))
		[ $i -gt 40 ] && return 1
		sleep 0.05
	done
}

lines() {
	tr '\n' ' ' < "$1" | sed 's/ $//'
}

for h in v1 v2; do
	mount_fs "$TMP/$h" --hierarchy=$h
	M=$TMP/$h
	mkdir "$M/a" "$M/b" "$M/a/c" || fail mkdir
	if [ $h = v1 ]; then threadfile=tasks; else threadfile=cgroup.threads; fi

	# joining: listed here, not in the root; populated up the tree
	sleep 60 &
	s=$!
	FS_PIDS="$FS_PIDS $s"
	echo "$s" > "$M/a/c/cgroup.procs" || fail "$h join"
	expect "$h joined" "$(lines "$M/a/c/cgroup.procs")" "$s"
	expect "$h its thread" "$(lines "$M/a/c/$threadfile")" "$s"
	grep -qx "$s" "$M/cgroup.procs" && fail "$h joined task still in the root"
	grep -qx "$$" "$M/cgroup.procs" || fail "$h the shell not in the root"
	if [ $h = v2 ]; then
		expect "$h populated" "$(key_of "$M/a/c/cgroup.events" populated)" 1
		expect "$h parent populated" "$(key_of "$M/a/cgroup.events" populated)" 1
	fi
	expect "$h rmdir with a host task" "$(err rmdir "$M/a/c")" EBUSY
	expect "$h rmdir of its parent" "$(err rmdir "$M/a")" EBUSY
	# into the cgroup it is in: succeeds, changes nothing
	expect "$h join again" "$(err write "$M/a/c/cgroup.procs" "$s")" OK
	expect "$h still one" "$(lines "$M/a/c/cgroup.procs")" "$s"

	# moving: the old cgroup empties, the new one fills
	echo "$s" > "$M/b/cgroup.procs" || fail "$h move"
	expect "$h moved out" "$(wc -c < "$M/a/c/cgroup.procs")" 0
	expect "$h moved in" "$(lines "$M/b/cgroup.procs")" "$s"
	if [ $h = v2 ]; then
		expect "$h old populated" "$(key_of "$M/a/cgroup.events" populated)" 0
		# a thread moves only within its domain: here, nowhere else
		expect "$h thread to another domain" \
			"$(err write "$M/a/c/cgroup.threads" "$s")" EOPNOTSUPP
		expect "$h thread where it is" "$(err write "$M/b/cgroup.threads" "$s")" OK
	fi
	rmdir "$M/a/c" || fail "$h rmdir after the move"
	mkdir "$M/a/c" || fail mkdir

	# freeze stops it, thaw lets it go on; joining a frozen cgroup stops,
	# leaving it continues
	if [ $h = v2 ]; then
		echo 1 > "$M/b/cgroup.freeze"
		wait_state "$s" T || fail "$h frozen task runs: $(state "$s")"
		echo 0 > "$M/b/cgroup.freeze"
		wait_state "$s" S || fail "$h thawed task stopped: $(state "$s")"
		echo 1 > "$M/a/cgroup.freeze"
		echo "$s" > "$M/a/c/cgroup.procs" || fail "$h join frozen"
		wait_state "$s" T || fail "$h task in a frozen cgroup runs"
		echo "$s" > "$M/b/cgroup.procs" || fail "$h leave frozen"
		wait_state "$s" S || fail "$h task out of a frozen cgroup stopped"
		echo 0 > "$M/a/cgroup.freeze"

		# a poller of cgroup.events hears the exit; then rmdir works
		out=$("$SEQREAD" "$M/b/cgroup.events" a:4096 "x:kill $s" P:2000 | tail -n1)
		expect "$h exit wakes cgroup.events" "$out" "PRI ERR"
		wait "$s" 2>/dev/null
		expect "$h emptied by the exit" "$(key_of "$M/b/cgroup.events" populated)" 0
	else
		kill "$s"
		wait "$s" 2>/dev/null
		wait_unpopulated "$M/b" || fail "$h exit not seen"
	fi
	expect "$h rmdir after the exit" "$(err rmdir "$M/b")" OK

	# the root: back out of every emulated cgroup
	sleep 60 &
	s=$!
	FS_PIDS="$FS_PIDS $s"
	echo "$s" > "$M/a/cgroup.procs" || fail "$h join a"
	echo "$s" > "$M/cgroup.procs" || fail "$h back to the root"
	grep -qx "$s" "$M/cgroup.procs" || fail "$h not back in the root"
	expect "$h a empty" "$(wc -c < "$M/a/cgroup.procs")" 0
	kill "$s"

	# cgroup.kill: every process of the subtree
	if [ $h = v2 ]; then
		sleep 60 &
		k1=$!
		sleep 60 &
		k2=$!
		FS_PIDS="$FS_PIDS $k1 $k2"
		echo "$k1" > "$M/a/cgroup.procs" && echo "$k2" > "$M/a/c/cgroup.procs" ||
			fail "$h join for kill"
		echo 1 > "$M/a/cgroup.kill" || fail "$h kill"
		wait "$k1"
		expect "$h killed" "$?" 137
		wait "$k2"
		expect "$h killed below" "$?" 137
		wait_unpopulated "$M/a" || fail "$h killed tasks' exit not seen"
	fi

	# threads: a process joins whole; one thread moves apart (v1 tasks)
	start_threads
	proc=$task
	set -- $threads
	echo "$proc" > "$M/a/cgroup.procs" || fail "$h join threads"
	expect "$h all threads" "$(lines "$M/a/$threadfile")" "$1 $2 $3"
	if [ $h = v1 ]; then
		echo "$3" > "$M/a/c/tasks" || fail "v1 move a thread"
		expect "v1 thread apart" "$(lines "$M/a/c/tasks")" "$3"
		expect "v1 the rest" "$(lines "$M/a/tasks")" "$1 $2"
		# v1 cgroup.procs: the process of any thread here
		expect "v1 procs of a thread's cgroup" "$(lines "$M/a/c/cgroup.procs")" "$proc"
		expect "v1 rmdir of a thread's cgroup" "$(err rmdir "$M/a/c")" EBUSY
		# the leader alone: the others stay
		echo "$1" > "$M/tasks" || fail "v1 leader to the root"
		grep -qx "$1" "$M/tasks" || fail "v1 leader not in the root"
		expect "v1 leader gone" "$(lines "$M/a/tasks")" "$2"
		expect "v1 c kept its thread" "$(lines "$M/a/c/tasks")" "$3"
		grep -qx "$2" "$M/tasks" && fail "v1 a thread followed its leader"
		# the process again: every thread with it
		echo "$proc" > "$M/a/c/cgroup.procs" || fail "v1 whole again"
		expect "v1 whole" "$(lines "$M/a/c/tasks")" "$1 $2 $3"
		expect "v1 a empty" "$(wc -c < "$M/a/tasks")" 0
	fi
	end_task
	wait_unpopulated "$M/a" || fail "$h threads' exit not seen"
	wait_unpopulated "$M/a/c" || fail "$h threads' exit not seen below"
	rmdir "$M/a/c" "$M/a" || fail "$h rmdir at the end"

	# memory, from /proc: what the process makes is charged to its
	# cgroup; a move leaves it where it was; its exit frees its anon and
	# leaves its page cache charged
	if [ $h = v1 ]; then
		usage=memory.usage_in_bytes anon=rss cache=cache limit=memory.limit_in_bytes
		peak=memory.max_usage_in_bytes
	else
		echo +memory > "$M/cgroup.subtree_control" || fail "+memory"
		usage=memory.current anon=anon cache=file limit=memory.max peak=memory.peak
	fi
	mkdir "$M/m1" "$M/m2" || fail mkdir
	start_task
	echo "$task" > "$M/m1/cgroup.procs" || fail "$h join m1"
	cmd anon 32
	wait_stat "$M/m1/memory.stat" $anon -ge $((32 << 20)) || fail "$h anon not charged"
	[ "$(cat "$M/m1/$usage")" -ge $((32 << 20)) ] || fail "$h usage without the anon"
	cmd file "$TMP/pagecache" 8
	wait_stat "$M/m1/memory.stat" $cache -ge $((8 << 20)) || fail "$h mapped page cache not charged"
	echo "$task" > "$M/m2/cgroup.procs" || fail "$h move"
	sleep 0.3
	[ "$(key_of "$M/m1/memory.stat" $anon)" -ge $((32 << 20)) ] || fail "$h anon left with the move"
	[ "$(key_of "$M/m2/memory.stat" $anon)" -lt $((1 << 20)) ] || fail "$h anon followed the move"
	# 32 MiB freed (where they were charged), then 16 MiB made (here): two
	# looks apart, as /proc shows the net change between two
	cmd free
	wait_stat "$M/m1/memory.stat" $anon -lt $((1 << 20)) || fail "$h freed anon still charged"
	cmd anon 16
	wait_stat "$M/m2/memory.stat" $anon -ge $((16 << 20)) || fail "$h new anon not charged"
	end_task
	wait_stat "$M/m2/memory.stat" $anon -lt $((1 << 20)) || fail "$h anon stays after the exit"
	[ "$(key_of "$M/m1/memory.stat" $cache)" -ge $((8 << 20)) ] || fail "$h page cache went with the exit"
	expect "$h no charge lost" "$(key_of "$M/memcgfs.audit" lost)" 0

	# a child that joins, makes its memory and is gone well within one
	# HOST_SAMPLE_MS look is charged all the same: a process just placed
	# is looked at every 10 ms
	mkdir "$M/f1" || fail mkdir
	start_task
	echo "$task" > "$M/f1/cgroup.procs" || fail "$h join f1"
	cmd anon 32
	sleep 0.04
	end_task
	wait_unpopulated "$M/f1" || fail "$h exit from f1 not seen"
	[ "$(cat "$M/f1/$peak")" -ge $((24 << 20)) ] ||
		fail "$h a short-lived process's memory never charged: peak $(cat "$M/f1/$peak")"
	rmdir "$M/f1" || fail "$h rmdir f1"

	# a runtime's child joins, then execs: what the old image made in the
	# root goes with its mm, the new image's pages are the cgroup's
	mkdir "$M/m3" || fail mkdir
	start_task
	cmd anon 16
	echo "$task" > "$M/m3/cgroup.procs" || fail "$h join m3"
	sleep 0.2
	cmd exec
	cmd anon 8
	wait_stat "$M/m3/memory.stat" $anon -ge $((8 << 20)) || fail "$h the new image's anon not charged"
	[ "$(key_of "$M/m3/memory.stat" $anon)" -lt $((12 << 20)) ] || fail "$h the old image's anon charged"
	end_task
	wait_unpopulated "$M/m3" || fail "$h exit after exec not seen"
	wait_stat "$M/m3/memory.stat" $anon -lt $((1 << 20)) || fail "$h anon stays after the exec's exit"
	rmdir "$M/m3" || fail "$h rmdir m3"

	# memory.high (v2): charges over it raise "high" events and the
	# process sleeps its penalty stopped (mem_cgroup_handle_over_high());
	# with the mark lifted it goes on and all it made is charged
	if [ $h = v2 ]; then
		mkdir "$M/hi" || fail mkdir
		echo 8M > "$M/hi/memory.high" || fail "memory.high"
		start_task
		echo "$task" > "$M/hi/cgroup.procs" || fail "$h join hi"
		cmd anon 24
		wait_stat "$M/hi/memory.events" high -ge 1 || fail "$h no high event"
		wait_state "$task" T || fail "$h over memory.high, never throttled"
		expect "$h no max event under high" "$(key_of "$M/hi/memory.events" max)" 0
		echo max > "$M/hi/memory.high"
		wait_stat "$M/hi/memory.stat" anon -ge $((24 << 20)) || fail "$h throttled for good"
		wait_state "$task" S || fail "$h stopped after its throttle"
		end_task
		wait_unpopulated "$M/hi" || fail "$h exit from hi not seen"
		rmdir "$M/hi" || fail "rmdir hi"
	fi

	# a limit the process's memory meets: the OOM killer kills it
	echo $((16 << 20)) > "$M/m2/$limit" || fail "$h limit"
	start_task
	echo "$task" > "$M/m2/cgroup.procs" || fail "$h join m2"
	echo "anon 64" >&7
	read -r reply <&8
	wait_gone "$task" || fail "$h over its limit and alive"
	exec 7>&- 8<&-
	wait "$task"
	expect "$h OOM-killed" "$?" 137
	if [ $h = v1 ]; then
		expect "$h oom_kill" "$(key_of "$M/m2/memory.oom_control" oom_kill)" 1
	else
		expect "$h oom_kill" "$(key_of "$M/m2/memory.events" oom_kill)" 1
	fi
	[ "$(cat "$M/m2/$usage")" -le $((16 << 20)) ] || fail "$h usage over the limit"
	wait_unpopulated "$M/m2" || fail "$h killed task's exit not seen"
	expect "$h no charge lost after the kill" "$(key_of "$M/memcgfs.audit" lost)" 0

	# memory.oom.group (v2): the emulated OOM killer takes the victim
	# and the rest of the group
	[ $h = v1 ] || oom_group_case "$M"
done

# a delegated user (v2, cgroup_procs_write_permission()): root brings the
# user's process into the delegated subtree, where the user moves it, its
# memory is charged, and the user's cgroup.kill ends it
if nobody_ready; then
	M=$TMP/v2
	mkdir "$M/deleg" || fail mkdir
	chown 65534:65534 "$M/deleg" "$M/deleg/cgroup.procs" "$M/deleg/cgroup.subtree_control" \
		"$M/deleg/cgroup.kill" || fail chown
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c \
		"echo +memory > $M/deleg/cgroup.subtree_control && mkdir $M/deleg/job $M/deleg/job2" ||
		fail "delegatee mkdir"
	rm -f "$TMP/task.in" "$TMP/task.out"
	mkfifo "$TMP/task.in" "$TMP/task.out" || fail mkfifo
	setpriv --reuid=65534 --regid=65534 --clear-groups "$HOSTTASK" \
		< "$TMP/task.in" > "$TMP/task.out" &
	task=$!
	FS_PIDS="$FS_PIDS $task"
	exec 7>"$TMP/task.in" 8<"$TMP/task.out"
	cmd threads 0
	expect "delegatee brings a task from the root" \
		"$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SEQREAD" -e write \
			"$M/deleg/cgroup.procs" "$task")" EACCES
	echo "$task" > "$M/deleg/job2/cgroup.procs" || fail "root delegates the task"
	expect "delegatee moves it" \
		"$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SEQREAD" -e write \
			"$M/deleg/job/cgroup.procs" "$task")" OK
	expect "delegatee's task placed" "$(lines "$M/deleg/job/cgroup.procs")" "$task"
	cmd anon 8
	wait_stat "$M/deleg/job/memory.stat" anon -ge $((8 << 20)) ||
		fail "delegatee's task's anon not charged"
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 1 > $M/deleg/cgroup.kill" ||
		fail "delegatee's cgroup.kill"
	exec 7>&- 8<&-
	wait "$task"
	expect "delegatee's kill" "$?" 137
	wait_unpopulated "$M/deleg/job" || fail "delegatee's task's exit not seen"
	wait_stat "$M/deleg/job/memory.stat" anon -lt $((1 << 20)) ||
		fail "delegatee's task's anon stays"
	setpriv --reuid=65534 --regid=65534 --clear-groups rmdir "$M/deleg/job" "$M/deleg/job2" ||
		fail "delegatee rmdir"
	rmdir "$M/deleg"
fi

# The pid a test's shell wrote to $TMP/go.early, once it has (5 s).
child_pid() {
	i=0
	until [ -s "$TMP/go.early" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && return 1
		sleep 0.05
	done
	cat "$TMP/go.early"
}

# forks (cgroup_post_fork()): what a placed process forks is where it is,
# listed at once, and cgroup.kill kills it too; what it forked before it
# was placed stays in the root
M=$TMP/v2
mkdir "$M/f" || fail mkdir
rm -f "$TMP/go"
mkfifo "$TMP/go" || fail mkfifo
sh -c 'sleep 60 & echo $! > "$1.early"; cat "$1" > /dev/null; sleep 60 & sleep 60' sh "$TMP/go" &
parent=$!
FS_PIDS="$FS_PIDS $parent"
early=$(child_pid) || fail "no early child"
FS_PIDS="$FS_PIDS $early"
echo "$parent" > "$M/f/cgroup.procs" || fail "join f"
echo > "$TMP/go"
i=0
until [ "$(wc -l < "$M/f/cgroup.procs")" -eq 3 ]; do
	i=$((i + 1))
	[ $i -gt 60 ] && fail "forked children not in f: $(lines "$M/f/cgroup.procs")"
	sleep 0.05
done
grep -qx "$parent" "$M/f/cgroup.procs" || fail "the parent left f"
grep -qx "$early" "$M/cgroup.procs" || fail "a child forked before the move left the root"
grep -qx "$early" "$M/f/cgroup.procs" && fail "a child forked before the move followed"
grep -qxFf "$M/f/cgroup.procs" "$M/cgroup.procs" && fail "f's tasks also in the root"
echo 1 > "$M/f/cgroup.kill" || fail "kill f"
wait "$parent"
expect "forking parent killed" "$?" 137
wait_unpopulated "$M/f" || fail "f's children not killed"
kill -0 "$early" 2>/dev/null || fail "the root's child was killed"
kill "$early"
# placed, back in the root, forking there, placed again: that child
# stays in the root
rm -f "$TMP/go" "$TMP/go.early"
mkfifo "$TMP/go" || fail mkfifo
sh -c 'cat "$1" > /dev/null; sleep 60 & echo $! > "$1.early"; cat "$1" > /dev/null' sh "$TMP/go" &
parent=$!
FS_PIDS="$FS_PIDS $parent"
echo "$parent" > "$M/f/cgroup.procs" && echo "$parent" > "$M/cgroup.procs" || fail "f and back"
echo > "$TMP/go"
early=$(child_pid) || fail "no child forked in the root"
FS_PIDS="$FS_PIDS $early"
sleep 0.3
echo "$parent" > "$M/f/cgroup.procs" || fail "f again"
sleep 0.3
expect "a child forked in the root stays" "$(lines "$M/f/cgroup.procs")" "$parent"
echo > "$TMP/go"
wait "$parent"
kill "$early"
wait_unpopulated "$M/f" || fail "f not emptied"
rmdir "$M/f" || fail "rmdir f"

# the daemon's end: a task it stopped goes on
M=$TMP/v2
mkdir "$M/z" || fail mkdir
sleep 60 &
s=$!
FS_PIDS="$FS_PIDS $s"
echo "$s" > "$M/z/cgroup.procs" && echo 1 > "$M/z/cgroup.freeze" || fail "freeze at the end"
wait_state "$s" T || fail "not stopped"
fusermount3 -u "$M" || fail unmount
wait_mount "$M" 0 || fail "still mounted"
wait_state "$s" S || fail "a task the daemon froze stays stopped after it"
kill "$s"
echo ok
