# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the tests/fs-*.sh tests: finds the binaries, skips (77) where
# FUSE cannot be used, mounts with a time limit and always unmounts.
#
#   mount_fs DIR [memcgfs options]   mount in the foreground, in the background;
#                                    sets FS_PID and FS_ROOT_MODE (the root's
#                                    mode as mounted); skips if FUSE refuses
#   fail MESSAGE                     print and exit 1
#   expect NAME GOT WANT             compare two strings
#   err OP ARGS...                   errno name of one system call (seqread -e)

: "${top_builddir:=.}"
: "${top_srcdir:=.}"
MEMCGFS=$top_builddir/memcgfs
SEQREAD=$top_builddir/tests/seqread

skip() {
	echo "SKIP: $*"
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "$MEMCGFS" ] || fail "no $MEMCGFS"
[ -x "$SEQREAD" ] || fail "no $SEQREAD"
[ -c /dev/fuse ] || skip "no /dev/fuse"
{ : < /dev/fuse; } 2>/dev/null || skip "/dev/fuse not usable"
command -v fusermount3 >/dev/null 2>&1 || skip "no fusermount3"
command -v mountpoint >/dev/null 2>&1 || skip "no mountpoint(1)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-test.XXXXXX") || fail "mktemp"
FS_MOUNTS=""
FS_PIDS=""

cleanup() {
	for m in $FS_MOUNTS; do
		if mountpoint -q "$m"; then
			fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
		fi
	done
	for p in $FS_PIDS; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

# Waits up to 10 s for DIR to be (1) or not be (0) a mount point.
wait_mount() {
	i=0
	while :; do
		if mountpoint -q "$1"; then [ "$2" = 1 ] && return 0
		else [ "$2" = 0 ] && return 0
		fi
		i=$((i + 1))
		[ $i -gt 200 ] && return 1
		sleep 0.05
	done
}

mount_fs() {
	dir=$1
	shift
	mkdir -p "$dir"
	"$MEMCGFS" -f "$@" "$dir" >"$TMP/daemon.out" 2>"$TMP/daemon.log" &
	FS_PID=$!
	FS_PIDS="$FS_PIDS $FS_PID"
	FS_MOUNTS="$FS_MOUNTS $dir"
	i=0
	while ! mountpoint -q "$dir"; do
		if ! kill -0 "$FS_PID" 2>/dev/null; then
			if grep -qiE "permission|not permitted|device not found|fusermount" "$TMP/daemon.log"; then
				skip "FUSE mount refused: $(head -n1 "$TMP/daemon.log")"
			fi
			fail "memcgfs exited: $(cat "$TMP/daemon.log")"
		fi
		i=$((i + 1))
		[ $i -gt 200 ] && fail "no mount at $dir after 10 s"
		sleep 0.05
	done
	# The root is 0555 in either hierarchy, as the kernel's: only root,
	# whom modes do not stop, makes cgroups at the top.  A normal user's
	# test does what root does when it delegates, and gives the top to its
	# owner.
	FS_ROOT_MODE=$(stat -c %A "$dir")
	[ "$(id -u)" -eq 0 ] || chmod u+w "$dir" || fail "chmod u+w $dir"
}

expect() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

err() {
	"$SEQREAD" -e "$@"
}

# wait_stat FILE KEY OP N: waits up to 3 s for KEY of FILE to compare
# (test's -ge, -lt ...) with N
wait_stat() {
	i=0
	until [ "$(key_of "$1" "$2")" "$3" "$4" ]; do
		i=$((i + 1))
		if [ $i -gt 60 ]; then
			echo "$1: $2 $(key_of "$1" "$2"), want $3 $4" >&2
			return 1
		fi
		sleep 0.05
	done
}

# oom_group_case MNT: memory.oom.group on MNT/g (16M, made and removed
# here), with tests/hosttask and the caller's source of host memory: a
# task faults 64M there beside two sleeping members, one of them at
# OOM_SCORE_ADJ_MIN where this root may set it (that takes
# CAP_SYS_RESOURCE, which some containers drop).  The victim and the
# other member are killed, the OOM_SCORE_ADJ_MIN one is kept, g has one
# oom_group_kill, and oom_kill counts the victim twice, as the kernel's
# scan meets it before it has exited (oom_kill_process()).  g's last
# memory.events is left in $TMP/g.events.
oom_group_case() {
	mkdir "$1/g" || fail "mkdir g"
	echo 16M > "$1/g/memory.max" && echo 1 > "$1/g/memory.oom.group" || fail "g limits"
	sleep 600 &
	member=$!
	sleep 600 &
	safe=$!
	FS_PIDS="$FS_PIDS $member $safe"
	members=1
	if ! echo -1000 2>/dev/null > "/proc/$safe/oom_score_adj"; then
		echo "note: no CAP_SYS_RESOURCE: no OOM_SCORE_ADJ_MIN member"
		members=2
	fi
	echo "$member" > "$1/g/cgroup.procs" && echo "$safe" > "$1/g/cgroup.procs" ||
		fail "join g"
	start_task
	echo "$task" > "$1/g/cgroup.procs" || fail "join g"
	echo "anon 64" >&7
	read -r reply <&8
	wait_gone "$member" "$task" || fail "group not killed"
	exec 7>&- 8<&-
	wait "$task"
	expect "group victim" "$?" 137
	wait "$member"
	expect "group member killed" "$?" 137
	if [ $members = 1 ]; then
		kill -0 "$safe" || fail "OOM_SCORE_ADJ_MIN member killed"
		kill "$safe"
	fi
	cat "$1/g/memory.events" > "$TMP/g.events"
	expect "oom_group_kill" "$(key_of "$TMP/g.events" oom_group_kill)" 1
	expect "oom_kill: the victim twice, the members" \
		"$(key_of "$TMP/g.events" oom_kill)" $((2 + members))
	wait "$safe"
	wait_unpopulated "$1/g" || fail "g not emptied"
	rmdir "$1/g" || fail "rmdir g"
}

# wait_gone PID...: waits up to 5 s for every process named to have
# exited; false if one has not
wait_gone() {
	i=0
	for pid; do
		while kill -0 "$pid" 2>/dev/null; do
			i=$((i + 1))
			[ $i -gt 100 ] && return 1
			sleep 0.05
		done
	done
}

# wait_unpopulated DIR: waits up to 5 s for cgroup DIR to have no task
# (its host tasks' exit seen); v2 reads cgroup.events, v1 tasks
wait_unpopulated() {
	i=0
	while :; do
		if [ -e "$1/cgroup.events" ]; then
			grep -qx "populated 0" "$1/cgroup.events" && return 0
		else
			[ -z "$(cat "$1/tasks")" ] && return 0
		fi
		i=$((i + 1))
		[ $i -gt 100 ] && return 1
		sleep 0.05
	done
}

# A tests/hosttask process driven through two FIFOs (fds 7 and 8):
# start_task starts one, its pid in $task; cmd LINE runs one command and
# fails the test unless it answers ok; end_task lets it exit and waits.
HOSTTASK=$top_builddir/tests/hosttask
start_task() {
	rm -f "$TMP/task.in" "$TMP/task.out"
	mkfifo "$TMP/task.in" "$TMP/task.out" || fail mkfifo
	"$HOSTTASK" < "$TMP/task.in" > "$TMP/task.out" &
	task=$!
	FS_PIDS="$FS_PIDS $task"
	exec 7>"$TMP/task.in" 8<"$TMP/task.out"
}
cmd() {
	echo "$*" >&7
	read -r reply <&8
	[ "$reply" = ok ] || fail "hosttask $*: $reply"
}
end_task() {
	echo exit >&7
	exec 7>&- 8<&-
	wait "$task"
}

# nobody_ready: true where the test, as root, can act as user nobody
# (65534) with setpriv(1): nobody reaches $TMP (made 0755) and the
# binaries it runs.  make check names them by a path relative to the
# build, which nobody follows even in a tree it cannot read (a checkout in
# root's 0700 home); where it cannot, they are copied to $TMP/bin and
# MEMCGFS, SEQREAD and HOSTTASK name the copies.  Says why when not, unless
# only because we are not root.
nobody_ready() {
	[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 || return 1
	chmod 755 "$TMP"
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$TMP"; then
		echo "as nobody: skipped, nobody cannot reach $TMP (TMPDIR=${TMPDIR:-})"
		return 1
	fi
	for v in MEMCGFS SEQREAD HOSTTASK; do
		eval "f=\$$v"
		[ -x "$f" ] || continue
		setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$f" && continue
		mkdir -p "$TMP/bin" && cp "$f" "$TMP/bin/" || fail "cannot copy $f to $TMP/bin"
		eval "$v=\$TMP/bin/\${f##*/}"
	done
}

# key_of FILE KEY: the value of one "key value" line (memory.stat,
# cgroup.stat, memory.events)
key_of() {
	awk -v k="$2" '$1 == k { print $2 }' "$1"
}
