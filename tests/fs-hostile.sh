#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a user set on breaking a root-run daemon may not do: hang a request
# thread on a file it controls, exhaust the daemon's fds with
# cgroup.event_control registrations (notify.c, "Notification"), make
# cgroups without end, or keep a clock write going.  Each check is bounded
# in time.
. "${top_srcdir:-.}/tests/fs-lib.sh"

# v1 at 6.1: cgroup.event_control is world-writable, as in the kernel
# (cgroup_file_mode() before 6.18).
mount_fs "$TMP/m" --hierarchy=v1 --kernel=6.1 --cpus=2
M=$TMP/m
MAIN_PID=$FS_PID
mkdir "$M/a" || fail "mkdir a"

# As another user where we are root: the attacker is not root.
if nobody_ready; then
	other=1
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	other=0
	as_user() { "$@"; }
fi
# Waits up to SECONDS for the shell condition COND to hold: 0, or 1 when
# it did not in time (the caller fails, saying what it saw).
wait_for() {	# SECONDS COND
	n=0
	until eval "$2"; do
		n=$((n + 1))
		[ $n -gt $(($1 * 20)) ] && return 1
		sleep 0.05
	done
}
mkdir "$TMP/sync" && chmod 1777 "$TMP/sync" || fail "mkdir sync"

# A second FUSE server, which the writers stop: closing a file of it
# waits for its FLUSH (tests/flushfs.c; memcgfs's own files ask for none).
FLUSHFS=$top_builddir/tests/flushfs
[ -x "$FLUSHFS" ] || fail "no $FLUSHFS"
mkdir "$TMP/s"
if [ "$(id -u)" -eq 0 ]; then
	"$FLUSHFS" -f -o allow_other "$TMP/s" 2>"$TMP/flushfs.log" &
else
	"$FLUSHFS" -f "$TMP/s" 2>"$TMP/flushfs.log" &
fi
VICTIM_PID=$!
FS_PIDS="$FS_PIDS $VICTIM_PID"
FS_MOUNTS="$FS_MOUNTS $TMP/s"
trap 'kill -CONT $VICTIM_PID 2>/dev/null; cleanup' EXIT
wait_mount "$TMP/s" 1 || fail "flushfs did not mount: $(cat "$TMP/flushfs.log")"

# Ten writers open a file of that server, which is then stopped, and pass
# it as their "eventfd"; an eleventh passes it as its control file.  Each
# is refused at once, EINVAL (not an eventfd; not a file of this mount),
# and none pins a thread.
attempt() {	# N EVENTFD CONTROL
	as_user timeout 10 "$SEQREAD" -G "$2" \
		"touch $TMP/sync/ready.$1; while [ ! -e $TMP/sync/go ]; do sleep 0.05; done" \
		"$3" "$M/a/cgroup.event_control" 1M >"$TMP/hang.$1" 2>&1
}
writers=""
for i in 1 2 3 4 5 6 7 8 9 10; do
	attempt $i "$TMP/s/f" "$M/a/memory.usage_in_bytes" &
	writers="$writers $!"
done
attempt 11 eventfd "$TMP/s/f" &
writers="$writers $!"
wait_for 10 '[ "$(ls "$TMP/sync" | grep -c "^ready\.")" -ge 11 ]' ||
	fail "the writers did not open their files"
kill -STOP "$VICTIM_PID"
touch "$TMP/sync/go"
# Their answers (the writers themselves then wait, in their own closes, for
# the stopped server).
wait_for 5 '[ "$(cat "$TMP"/hang.* | grep -c .)" -ge 11 ]' ||
	fail "registrations unanswered after 5 s: $(cat "$TMP"/hang.*)"
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	expect "stopped server's file ($i)" "$(cat "$TMP/hang.$i")" "EINVAL"
done
# Everyone else is still served, at once.
timeout 2 cat "$M/a/memory.stat" >/dev/null || fail "a read after the attempts timed out"
timeout 2 mkdir "$M/b" || fail "mkdir after the attempts timed out"
kill -CONT "$VICTIM_PID"
wait $writers

# Registrations whose eventfds are closed go, and their fds with them,
# while their writer lives on: a thousand, then the daemon holds what it
# held before (at most the writer's pidfd more).
fds() { ls "/proc/$MAIN_PID/fd" | wc -l; }
before=$(fds)
as_user "$SEQREAD" -N 1000 "$M/a/memory.usage_in_bytes" "$M/a/cgroup.event_control" 1M 8000 \
	>"$TMP/churn" 2>&1 &
churner=$!
wait_for 10 'grep -q . "$TMP/churn"' ||
	fail "a thousand registrations took over 10 s"
expect "a thousand short registrations" "$(cat "$TMP/churn")" "OK"
wait_for 4 '[ "$(fds)" -le $((before + 1)) ]' ||
	fail "the daemon holds $(fds) fds, $before before the registrations"
kill "$churner"
wait "$churner"
# ... and another user registers as before.
expect "another user registers" \
	"$(timeout 5 "$SEQREAD" -E "$M/a/memory.usage_in_bytes" "$M/a/cgroup.event_control" 1M 10)" \
	"OK
timeout"

# After all of it, SIGTERM still ends the daemon, and its mount.
kill -TERM "$MAIN_PID"
wait_for 5 '! kill -0 "$MAIN_PID" 2>/dev/null' ||
	fail "SIGTERM did not end the daemon in 5 s"
wait_mount "$M" 0 || fail "still mounted"

# What one user may hold at once is bounded (--event_limit): beyond it
# ENOMEM, and another user is not affected.
mount_fs "$TMP/m" --hierarchy=v1 --kernel=6.1 --cpus=2 --event_limit=4
mkdir "$M/a" || fail "mkdir a"
holders=""
for i in 1 2 3 4; do
	as_user "$SEQREAD" -E "$M/a/memory.usage_in_bytes" "$M/a/cgroup.event_control" 1M +3000 \
		>"$TMP/held.$i" 2>&1 &
	holders="$holders $!"
done
wait_for 5 '[ "$(cat "$TMP"/held.* 2>/dev/null | grep -c OK)" -ge 4 ]' ||
	fail "four registrations did not all answer: $(cat "$TMP"/held.*)"
expect "a fifth of one user's" \
	"$(as_user "$SEQREAD" -E "$M/a/memory.usage_in_bytes" "$M/a/cgroup.event_control" 1M 10)" \
	"ENOMEM"
if [ "$other" -eq 1 ]; then
	expect "another user's first" \
		"$(timeout 5 "$SEQREAD" -E "$M/a/memory.usage_in_bytes" "$M/a/cgroup.event_control" 1M 10)" \
		"OK
timeout"
fi
wait $holders

# mkdir stops at the daemon's bound (--max_cgroups), live and dying
# cgroups alike, with ENOMEM; a removal makes room again.
mount_fs "$TMP/b" --cpus=2 --max_cgroups=4
mkdir "$TMP/b/p" "$TMP/b/p/c" "$TMP/b/q" "$TMP/b/r" || fail "four mkdirs under the bound"
expect "a fifth cgroup" "$(err mkdir "$TMP/b/s")" ENOMEM
expect "a fifth, nested" "$(err mkdir "$TMP/b/p/d")" ENOMEM
rmdir "$TMP/b/r" || fail "rmdir r"
expect "after a removal" "$(err mkdir "$TMP/b/s")" OK
# A removed cgroup held open keeps its node (not its cgroup: see below),
# which counts until its last fd goes: its entries are dropped from the
# kernel's cache after rmdir, so the kernel forgets the inode then.
exec 9<"$TMP/b/s/cgroup.procs"
rmdir "$TMP/b/s" || fail "rmdir s"
expect "a removed one held open counts" "$(err mkdir "$TMP/b/t")" ENOMEM
exec 9<&-
wait_for 5 'mkdir "$TMP/b/t" 2>/dev/null' || fail "the node stayed after its last fd"
expect "the default bound" "$("$MEMCGFS" --help | grep -c max_cgroups)" 1

# A removed cgroup's open files and working directories keep its inodes,
# not the cgroup: kernfs's open files pin the kernfs_node, and a file's
# ops reach the cgroup only under kernfs_get_active(), which fails once it
# is removed, so only css references keep a cgroup dying.  A delegatee
# limited to five descendants makes and removes 200, each left open (an
# fd, every tenth a working directory too) and its parent's listing open:
# none is left dying, and the next mkdir succeeds.
mount_fs "$TMP/d" --kernel=6.12 --cpus=2 --flush_period_ms=50
D=$TMP/d
mkdir "$D/u" "$D/p" || fail "mkdir u p"
for d in "$D" "$D/u" "$D/p"; do
	echo +memory > "$d/cgroup.subtree_control" || fail "+memory in $d"
done
echo 5 > "$D/u/cgroup.max.descendants" || fail "max.descendants"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 "$D/u" "$D/u/cgroup.procs" "$D/u/cgroup.subtree_control" ||
		fail "delegate u"
fi
as_user bash -c '
	set -e
	u=$1	# and $2: where the pids of the working directories go
	exec 3<"$u"
	ls "$u" >/dev/null
	for i in $(seq 200); do
		mkdir "$u/c$i"
		exec {fd}<"$u/c$i/memory.stat"
		if [ $((i % 10)) -eq 0 ]; then
			cd "$u/c$i"
			sleep 30 &
			echo $! >>"$2"
			cd /
		fi
		rmdir "$u/c$i"
	done
	grep nr_dying_descendants "$u/cgroup.stat"
	mkdir "$u/last" && echo made
' sh "$D/u" "$TMP/sync/holders" >"$TMP/held.out" 2>&1 || fail "the delegatee: $(cat "$TMP/held.out")"
expect "dying after 200 removals held open" "$(cat "$TMP/held.out")" "nr_dying_descendants 0
made"
expect "the root's dying" "$(key_of "$D/cgroup.stat" nr_dying_descendants)" 0
# A cgroup whose pages are charged stays dying while they pin its css (6.12
# has no reparenting of LRU pages), its open file or not, until reclaim
# frees them.
mkdir "$D/p/c" || fail "mkdir c"
echo "file_read=20000 footprint=4M" > "$D/p/c/memcgfs.workload" || fail "profile"
sleep 0.5
echo preset=idle > "$D/p/c/memcgfs.workload"
sleep 0.3
exec 8<"$D/p/c/memory.stat"
rmdir "$D/p/c" || fail "rmdir c"
expect "charged, removed, open" "$(key_of "$D/p/cgroup.stat" nr_dying_descendants)" 1
expect "reclaim" "$(err write "$D/p/memory.reclaim" 1G)" EAGAIN
expect "reclaimed, still open" "$(key_of "$D/p/cgroup.stat" nr_dying_descendants)" 0
expect "its fd" "$(err read /dev/fd/8)" ENODEV
exec 8<&-
kill $(cat "$TMP/sync/holders") 2>/dev/null

# An hour of a manual clock asked for, then SIGINT: the write ends with
# the signal (FUSE_INTERRUPT), not an emulated hour later.
mount_fs "$TMP/c" --clock=manual --cpus=2 --workload=seed001
mkdir "$TMP/c/busy" || fail "mkdir busy"
start=$(date +%s%N)
timeout -s INT 0.5 sh -c "echo 3600s > $TMP/c/memcgfs.clock" 2>/dev/null
took=$((($(date +%s%N) - start) / 1000000))
[ "$took" -lt 3000 ] || fail "a clock write went on for $took ms after SIGINT"
timeout 2 cat "$TMP/c/memcgfs.clock" >/dev/null || fail "the clock is still busy"
echo "PASS: fs-hostile"
