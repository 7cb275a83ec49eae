#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Threaded mode with host threads (cgroup.type, kernel/cgroup/cgroup.c):
# a cgroup made threaded joins its parent's domain, which shows "domain
# threaded" and its other children "domain invalid"; a host thread moves
# to a threaded cgroup of its process's domain and no further; the
# process is listed in the thread root's cgroup.procs, the thread in the
# threaded cgroup's cgroup.threads; a threaded cgroup's cgroup.procs and
# cgroup.kill are EOPNOTSUPP, as are domain controllers in a threaded
# subtree; and the memory of a process with a thread in a threaded
# cgroup is charged to the domain's memcg.
. "${top_srcdir:-.}/tests/fs-lib.sh"

[ -x "$HOSTTASK" ] || fail "no $HOSTTASK"
M=$TMP/v2
mount_fs "$M" --hierarchy=v2
echo +memory > "$M/cgroup.subtree_control" || fail "+memory"
mkdir "$M/d" "$M/d/t" "$M/d/u" "$M/r" || fail mkdir

# cgroup_type_write(): only "threaded", once populated or with domain
# controllers enabled not at all
expect "bad type" "$(err write "$M/d/t/cgroup.type" domain)" EINVAL
echo +memory > "$M/d/cgroup.subtree_control" || fail "d +memory"
expect "parent with domain controllers" "$(err write "$M/d/t/cgroup.type" threaded)" EOPNOTSUPP
echo -memory > "$M/d/cgroup.subtree_control" || fail "d -memory"
expect "threaded" "$(err write "$M/d/t/cgroup.type" threaded)" OK
expect "threaded again" "$(err write "$M/d/t/cgroup.type" threaded)" OK
expect "t type" "$(cat "$M/d/t/cgroup.type")" threaded
expect "d type" "$(cat "$M/d/cgroup.type")" "domain threaded"
expect "u type" "$(cat "$M/d/u/cgroup.type")" "domain invalid"
expect "r type" "$(cat "$M/r/cgroup.type")" domain
expect "t controllers" "$(cat "$M/d/t/cgroup.controllers")" ""
expect "domain controllers in a thread root" \
	"$(err write "$M/d/cgroup.subtree_control" +memory)" EOPNOTSUPP
mkdir "$M/d/t/x" || fail "mkdir x"
expect "a threaded cgroup's child" "$(cat "$M/d/t/x/cgroup.type")" "domain invalid"
expect "x threaded" "$(err write "$M/d/t/x/cgroup.type" threaded)" OK
# a child of the root, which may hold domains and threads, that had a
# memory css loses it
mkdir "$M/rt" || fail "mkdir rt"
[ -e "$M/rt/memory.current" ] || fail "rt: no memory css before"
expect "root's threaded child" "$(err write "$M/rt/cgroup.type" threaded)" OK
[ -e "$M/rt/memory.current" ] && fail "rt: a threaded cgroup with a memory css"

# a host process in d, one of its threads moved into t
start_task
cmd threads 1
main=$task
thread=$(ls "/proc/$task/task" | sort -n | tail -1)
echo "$main" > "$M/d/cgroup.procs" || fail "join d"
expect "thread to t" "$(err write "$M/d/t/cgroup.threads" "$thread")" OK
expect "t threads" "$(cat "$M/d/t/cgroup.threads")" "$thread"
expect "d threads" "$(cat "$M/d/cgroup.threads")" "$main"
expect "d procs" "$(cat "$M/d/cgroup.procs")" "$main"
expect "t procs" "$(err read "$M/d/t/cgroup.procs")" EOPNOTSUPP
expect "t kill" "$(err write "$M/d/t/cgroup.kill" 1)" EOPNOTSUPP
expect "thread to an invalid domain" "$(err write "$M/d/u/cgroup.threads" "$thread")" EOPNOTSUPP
expect "thread to another domain" "$(err write "$M/r/cgroup.threads" "$thread")" EOPNOTSUPP
expect "thread to x" "$(err write "$M/d/t/x/cgroup.threads" "$thread")" OK
expect "t populated" "$(grep populated "$M/d/t/cgroup.events")" "populated 1"
expect "populated t not threaded again" "$(err write "$M/d/t/cgroup.type" threaded)" OK
# its memory goes to the domain's memcg
cmd anon 16
[ "$(key_of "$M/d/memory.stat" anon)" -ge $((16 << 20)) ] ||
	fail "the domain's anon: $(key_of "$M/d/memory.stat" anon)"
end_task
wait_unpopulated "$M/d" || fail "exit not seen"
rmdir "$M/d/t/x" "$M/d/t" || fail "rmdir threaded"
expect "d type after" "$(cat "$M/d/cgroup.type")" domain
expect "u type after" "$(cat "$M/d/u/cgroup.type")" domain
echo ok
