#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Host processes in emulated cgroups (src/host): a pid written to
# cgroup.procs, tasks or cgroup.threads joins; it is listed, moves, makes
# populated 1, keeps rmdir EBUSY, leaves at its exit (and pollers of
# cgroup.events hear it), and cgroup.kill and cgroup.freeze act on it.
. "${top_srcdir:-.}/tests/fs-lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 (the multi-threaded task)"

# A host process of three threads that lives 60 s; its pid in $proc, its
# threads ascending in $threads.
start_threads() {
	python3 -c 'import threading, time
[threading.Thread(target=time.sleep, args=(60,), daemon=True).start() for _ in range(2)]
time.sleep(60)' &
	proc=$!
	FS_PIDS="$FS_PIDS $proc"
	i=0
	while [ "$(ls "/proc/$proc/task" | wc -l)" -lt 3 ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "python3 made no threads"
		sleep 0.05
	done
	threads=$(ls "/proc/$proc/task" | sort -n | tr '\n' ' ')
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
	kill "$proc"
	wait "$proc" 2>/dev/null
	wait_unpopulated "$M/a" || fail "$h threads' exit not seen"
	wait_unpopulated "$M/a/c" || fail "$h threads' exit not seen below"
	rmdir "$M/a/c" "$M/a" || fail "$h rmdir at the end"
done

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
