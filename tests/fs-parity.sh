#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgroup v2 core behaviour the kernel has and clients rely on: controllers
# given by the parent's subtree_control (files appear and go), PSI files
# hidden by cgroup.pressure, the io controller's files, frozen time in
# cgroup.stat.local, and delegation: a cgroup and its files belong to the
# fsuid/fsgid of the process that made them (kernel/cgroup/cgroup.c).
. "${top_srcdir:-.}/tests/fs-lib.sh"

mount_fs "$TMP/v2" --flush_period_ms=50
M=$TMP/v2

# ---- controllers (cgroup_control(), cgroup_subtree_control_write()) ----
expect "root subtree_control" "$(cat "$M/cgroup.subtree_control")" "io memory"
mkdir "$M/x" "$M/x/y" || fail mkdir
expect "x controllers" "$(cat "$M/x/cgroup.controllers")" "io memory"
expect "y controllers" "$(wc -c < "$M/x/y/cgroup.controllers")" 0
expect "y without memory" "$(err read "$M/x/y/memory.stat")" ENOENT
expect "y without io" "$(err read "$M/x/y/io.max")" ENOENT
ls "$M/x/y" | grep -v '^memory\.pressure$' | grep -q '^memory\.' && fail "y lists memory files"
expect "y core psi file" "$(err read "$M/x/y/memory.pressure")" OK
expect "y +memory unavailable" "$(err write "$M/x/y/cgroup.subtree_control" +memory)" ENOENT
expect "x +memory" "$(err write "$M/x/cgroup.subtree_control" +memory)" OK
expect "y memory appears" "$(err read "$M/x/y/memory.stat")" OK
expect "y controllers now" "$(cat "$M/x/y/cgroup.controllers")" memory
ls "$M/x/y" | grep -q '^memory\.max$' || fail "y does not list memory.max"
expect "y still without io" "$(err read "$M/x/y/io.max")" ENOENT
expect "root -memory busy" "$(err write "$M/cgroup.subtree_control" -memory)" EBUSY
# the no-internal-process rule (cgroup_vet_subtree_control_enable())
mkdir "$M/busy" || fail mkdir
echo preset=sleep > "$M/busy/memcgfs.workload"
expect "tasks inside: no domain controllers below" \
	"$(err write "$M/busy/cgroup.subtree_control" +memory)" EBUSY
echo preset=idle > "$M/busy/memcgfs.workload"
expect "no tasks: fine" "$(err write "$M/busy/cgroup.subtree_control" +memory)" OK
rmdir "$M/busy"
expect "x +io +bogus: unknown word" "$(err write "$M/x/cgroup.subtree_control" "+io +bogus")" EINVAL
# a controller the kernel has but x's parent does not offer: ENOENT, and
# io, which comes after cpu in subsystem order, is not enabled either
expect "x +io +cpu: not offered" "$(err write "$M/x/cgroup.subtree_control" "+io +cpu")" ENOENT
# an fd opened before the controller goes reads ENODEV after (kernfs)
out=$("$SEQREAD" "$M/x/y/memory.stat" r:5 "x:echo -memory > $M/x/cgroup.subtree_control" s:0 r:5)
expect "open fd after -memory" "$(echo "$out" | tail -n1)" ENODEV
expect "y memory gone" "$(err read "$M/x/y/memory.stat")" ENOENT
expect "x subtree_control" "$(wc -c < "$M/x/cgroup.subtree_control")" 0
# Subsystem order decides which error comes first: io before memory.  y
# has io only, and its child z enables io: "-io +memory" on y is EBUSY
# (io), not ENOENT (memory).
echo +io > "$M/x/cgroup.subtree_control" && echo +io > "$M/x/y/cgroup.subtree_control" &&
	mkdir "$M/x/y/z" && echo +io > "$M/x/y/z/cgroup.subtree_control" || fail "io setup"
expect "io first" "$(err write "$M/x/y/cgroup.subtree_control" "-io +memory")" EBUSY
expect "memory alone" "$(err write "$M/x/y/cgroup.subtree_control" "+memory")" ENOENT
echo -io > "$M/x/y/z/cgroup.subtree_control" && rmdir "$M/x/y/z" &&
	echo -io > "$M/x/y/cgroup.subtree_control" && echo -io > "$M/x/cgroup.subtree_control" ||
	fail "io teardown"
# "-memory" kills the children's memory css and "+memory" makes new ones
# (kill_css(), mem_cgroup_css_alloc()): settings and events do not come
# back, nor do the old limits hold the tasks meanwhile
echo +memory > "$M/x/cgroup.subtree_control" || fail "+memory"
echo 2M > "$M/x/y/memory.max" && echo 1M > "$M/x/y/memory.low" &&
	echo 1 > "$M/x/y/memory.oom.group" || fail "y settings"
echo 'anon=20000 footprint=8M swap=off' > "$M/x/y/memcgfs.workload"
sleep 0.5
echo preset=idle > "$M/x/y/memcgfs.workload"
[ "$(awk '$1 == "max" { print $2 }' "$M/x/y/memory.events")" -gt 0 ] || fail "no max event under 2M"
echo -memory > "$M/x/cgroup.subtree_control" || fail "-memory"
# the old 2M no longer limits y's tasks: x's memory.current goes past it
echo 'anon=20000 footprint=6M swap=off' > "$M/x/y/memcgfs.workload"
sleep 0.5
[ "$(cat "$M/x/memory.current")" -gt $((4 * 1024 * 1024)) ] ||
	fail "y still held at 2M without a memory css: x uses $(cat "$M/x/memory.current")"
echo preset=idle > "$M/x/y/memcgfs.workload"
echo +memory > "$M/x/cgroup.subtree_control" || fail "+memory again"
expect "a new css's max" "$(cat "$M/x/y/memory.max")" max
expect "a new css's low" "$(cat "$M/x/y/memory.low")" 0
expect "a new css's oom.group" "$(cat "$M/x/y/memory.oom.group")" 0
expect "a new css's events" "$(awk '$1 == "max" || $1 == "oom_kill" { print $2 }' "$M/x/y/memory.events" | tr '\n' ' ')" "0 0 "
echo -memory > "$M/x/cgroup.subtree_control" || fail "-memory again"

# ---- PSI files and cgroup.pressure (cgroup_pressure_write()) ----
expect "cgroup.pressure" "$(cat "$M/x/cgroup.pressure")" 1
expect "cpu.pressure" "$(cat "$M/x/cpu.pressure" | cut -d' ' -f1 | tr '\n' ' ')" "some full "
expect "cgroup.pressure 2" "$(err write "$M/x/cgroup.pressure" 2)" ERANGE
expect "cgroup.pressure x" "$(err write "$M/x/cgroup.pressure" x)" EINVAL
expect "cgroup.pressure 0" "$(err write "$M/x/cgroup.pressure" 0)" OK
for f in cpu.pressure memory.pressure io.pressure; do
	expect "$f hidden" "$(err read "$M/x/$f")" ENOENT
done
expect "cgroup.pressure read 0" "$(cat "$M/x/cgroup.pressure")" 0
expect "cgroup.pressure 1" "$(err write "$M/x/cgroup.pressure" 1)" OK
expect "memory.pressure back" "$(err read "$M/x/memory.pressure")" OK

# ---- io controller (blk-throttle.c tg_set_limit(), blk-iocost.c) ----
expect "io.max empty" "$(wc -c < "$M/x/io.max")" 0
expect "io.max set" "$(err write "$M/x/io.max" "8:0 wbps=1048576 riops=100")" OK
expect "io.max read" "$(cat "$M/x/io.max")" "8:0 rbps=max wbps=1048576 riops=100 wiops=max"
expect "io.max 0" "$(err write "$M/x/io.max" "8:0 rbps=0")" ERANGE
expect "io.max key" "$(err write "$M/x/io.max" "8:0 xbps=5")" EINVAL
expect "io.max device" "$(err write "$M/x/io.max" "9:9 rbps=5")" ENODEV
# the kernel's vsscanf() "%u:%u" takes no sign (glibc's would: ENODEV)
expect "io.max signed major" "$(err write "$M/x/io.max" "-8:0 rbps=5")" EINVAL
expect "io.max signed minor" "$(err write "$M/x/io.max" "8:+0 rbps=5")" EINVAL
# "%llu" takes no sign either, and wraps: 2^64 is 0, ERANGE
expect "io.max signed value" "$(err write "$M/x/io.max" "8:0 rbps=-5")" EINVAL
expect "io.max 2^64" "$(err write "$M/x/io.max" "8:0 wiops=18446744073709551616")" ERANGE
expect "io.max syntax" "$(err write "$M/x/io.max" "sda rbps=5")" EINVAL
expect "io.max kept" "$(cat "$M/x/io.max")" "8:0 rbps=max wbps=1048576 riops=100 wiops=max"
expect "io.max unset" "$(err write "$M/x/io.max" "8:0 wbps=max riops=max")" OK
expect "io.max empty again" "$(wc -c < "$M/x/io.max")" 0
expect "io.weight" "$(cat "$M/x/io.weight")" "default 100"
expect "io.weight 500" "$(err write "$M/x/io.weight" 500)" OK
expect "io.weight default 7" "$(err write "$M/x/io.weight" "default 7")" OK
expect "io.weight 0" "$(err write "$M/x/io.weight" 0)" EINVAL
expect "io.weight +5" "$(err write "$M/x/io.weight" +5)" EINVAL
expect "io.weight default +5" "$(err write "$M/x/io.weight" "default +5")" EINVAL
expect "io.weight read" "$(cat "$M/x/io.weight")" "default 7"
# no ioc on 8:0 yet (blkg_conf_prep(); tests/fs-iocost.sh has the rest)
expect "io.weight device" "$(err write "$M/x/io.weight" "8:0 50")" EOPNOTSUPP
[ -e "$M/io.max" ] && fail "io.max on the root"

# ---- frozen time (cgroup_core_local_stat_show(), 6.18 on) ----
expect "stat.local" "$(cat "$M/x/cgroup.stat.local")" "frozen_usec 0"
echo 1 > "$M/x/cgroup.freeze"
sleep 0.2
echo 0 > "$M/x/cgroup.freeze"
us=$(cut -d' ' -f2 "$M/x/cgroup.stat.local")
[ "$us" -ge 150000 ] && [ "$us" -lt 5000000 ] || fail "frozen_usec $us after 0.2 s"
us_y=$(cut -d' ' -f2 "$M/x/y/cgroup.stat.local")
[ "$us_y" -ge 150000 ] || fail "child frozen_usec $us_y: the parent's freeze counts"
sleep 0.1
expect "stat.local stopped" "$(cut -d' ' -f2 "$M/x/cgroup.stat.local")" "$us"

# ---- a memcg's own memory is charged to its parent (mem_cgroup_alloc()
# under set_active_memcg(parent) in mem_cgroup_css_alloc()) ----
mkdir "$M/objs" || fail mkdir
echo +memory > "$M/objs/cgroup.subtree_control"
# the periodic flush (50 ms here) folds the updates in
stat_key() { sleep 0.15; awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }
expect "no children, no percpu" "$(stat_key "$M/objs" percpu)" 0
kern0=$(stat_key "$M/objs" kernel)
mkdir "$M/objs/k1" || fail mkdir
p1=$(stat_key "$M/objs" percpu); kern1=$(stat_key "$M/objs" kernel)
[ "$p1" -gt 0 ] || fail "a child's percpu not charged to its parent"
[ "$kern1" -gt "$kern0" ] || fail "a child's objects not in the parent's kernel memory"
[ "$(cat "$M/objs/memory.current")" -ge "$kern1" ] || fail "memory.current below kernel"
mkdir "$M/objs/k2" || fail mkdir
expect "two children, twice the percpu" "$(stat_key "$M/objs" percpu)" $((2 * p1))
# the objects are charged in bytes through the CPU's object stock
# (obj_cgroup_charge()): the second memcg's use the first one's spare
# bytes, so two take at most twice the pages of one, and at least the
# pages of their percpu bytes
kern2=$(stat_key "$M/objs" kernel)
[ $((kern2 - kern0)) -le $((2 * (kern1 - kern0))) ] || fail "two memcgs' objects: $kern2 bytes of kernel"
[ $((kern2 - kern0)) -ge $((2 * p1 / 4096 * 4096)) ] || fail "two memcgs' objects: $kern2 bytes of kernel"
rmdir "$M/objs/k1" "$M/objs/k2"
expect "given back at rmdir" "$(stat_key "$M/objs" percpu)" 0
# what is freed goes back into the stock, which gives back the pages over
# one (refill_obj_stock()): at most one page stays charged until a drain
kern3=$(stat_key "$M/objs" kernel)
[ "$kern3" = "$kern0" ] || [ "$kern3" = $((kern0 + 4096)) ] || fail "kernel $kern3 after rmdir, was $kern0"
echo 0 > "$M/objs/memory.max"
expect "no room for a memcg" "$(err mkdir "$M/objs/k3")" ENOMEM
[ -e "$M/objs/k3" ] && fail "the refused cgroup exists"
echo max > "$M/objs/memory.max"
# only a cgroup with a memory css has objects: one made where the parent
# does not enable memory charges nothing, until +memory makes its css
# (cgroup_apply_control_enable() -> mem_cgroup_css_alloc()); -memory
# kills it and gives its objects back (css_free_rwork_fn())
mkdir "$M/objs/nomem" "$M/objs/nomem/a" || fail mkdir
expect "no memory css, no percpu" "$(stat_key "$M/objs/nomem" percpu)" 0
echo +memory > "$M/objs/nomem/cgroup.subtree_control" || fail "+memory"
expect "+memory charges the child's objects" "$(stat_key "$M/objs/nomem" percpu)" "$p1"
echo -memory > "$M/objs/nomem/cgroup.subtree_control" || fail "-memory"
expect "-memory gives them back" "$(stat_key "$M/objs/nomem" percpu)" 0
echo 0 > "$M/objs/nomem/memory.max"
expect "+memory with no room" "$(err write "$M/objs/nomem/cgroup.subtree_control" +memory)" ENOMEM
expect "subtree_control unchanged" "$(wc -c < "$M/objs/nomem/cgroup.subtree_control")" 0
expect "nothing charged" "$(stat_key "$M/objs/nomem" percpu)" 0
echo max > "$M/objs/nomem/memory.max"
rmdir "$M/objs/nomem/a" "$M/objs/nomem" || fail rmdir

# ---- a directory's times move with its children only once it has kernfs
# iattrs (kernfs_add_one(), __kernfs_remove(): a setattr, an xattr, or a
# creator other than root gives it some) ----
mkdir "$M/times" || fail mkdir
t0=$(stat -c %y "$M/times")
sleep 0.05
mkdir "$M/times/k" || fail mkdir
if [ "$(id -u)" -eq 0 ]; then
	expect "no iattrs: times kept" "$(stat -c %y "$M/times")" "$t0"
else	# a non-root creator's directory has iattrs from the start
	[ "$(stat -c %y "$M/times")" != "$t0" ] || fail "iattrs of a user's cgroup: mkdir kept the times"
fi
chmod 755 "$M/times"
t1=$(stat -c %y "$M/times")
sleep 0.05
rmdir "$M/times/k"
[ "$(stat -c %y "$M/times")" != "$t1" ] || fail "iattrs: rmdir left the parent's mtime"
rmdir "$M/times"
# a file's times: a truncation (`>`: do_truncate() asks for mtime and
# ctime) moves them, a write alone does not (kernfs_fop_write_iter()),
# utimensat() sets them (__kernfs_setattr()), chmod moves only the ctime
# of a file that has iattrs
f=$M/x/memory.high
t0=$(stat -c %y "$f")
sleep 0.05
echo max >> "$f" || fail "append"
expect "a write keeps the times" "$(stat -c %y "$f")" "$t0"
echo max > "$f" || fail "truncating write"
[ "$(stat -c %y "$f")" != "$t0" ] || fail "truncation left the mtime"
touch -d "2020-01-01 00:00:00 UTC" "$f" || fail touch
expect "utimensat mtime" "$(stat -c %Y "$f")" 1577836800
expect "utimensat atime" "$(stat -c %X "$f")" 1577836800
chmod 644 "$f" || fail chmod
expect "chmod keeps the mtime" "$(stat -c %Y "$f")" 1577836800
[ "$(stat -c %Z "$f")" -gt 1577836800 ] || fail "chmod left the ctime"
# truncate(2) asks for no time (vfs_truncate()), ftruncate() (what
# truncate(1) calls) for both
touch -d "2020-01-01 00:00:00 UTC" "$f" || fail touch
perl -e 'truncate($ARGV[0], 0) or die "$!\n"' "$f" || fail "truncate(2)"
expect "truncate(2) keeps the mtime" "$(stat -c %Y "$f")" 1577836800
truncate -s 0 "$f" || fail "ftruncate()"
[ "$(stat -c %Y "$f")" -gt 1577836800 ] || fail "ftruncate() kept the mtime"

# ---- extended attributes (kernfs_xattr_handlers[], fs/kernfs/inode.c) ----
expect "set user xattr" "$(err setx "$M/x" user.oomd_kill 1)" OK
expect "get user xattr" "$(err getx "$M/x" user.oomd_kill)" 1
# trusted.* needs CAP_SYS_ADMIN (xattr_permission()): root only
if [ "$(id -u)" -eq 0 ]; then trusted=OK; else trusted=EPERM; fi
expect "set trusted on a file" "$(err setx "$M/x/memory.max" trusted.mark ab)" $trusted
expect "create existing" "$(err setx "$M/x" user.oomd_kill 2 create)" EEXIST
expect "replace missing" "$(err setx "$M/x" user.none 2 replace)" ENODATA
expect "other namespace" "$(err setx "$M/x" system.foo 1)" EOPNOTSUPP
expect "list" "$(err listx "$M/x" | tr '\n' ' ')" "user.oomd_kill "
if [ $trusted = OK ]; then
	expect "list file" "$(err listx "$M/x/memory.max" | tr '\n' ' ')" "trusted.mark "
fi
expect "remove" "$(err rmx "$M/x" user.oomd_kill)" OK
expect "remove again" "$(err rmx "$M/x" user.oomd_kill)" ENODATA
i=0; while [ $i -lt 128 ]; do err setx "$M/x" user.n$i v >/dev/null; i=$((i + 1)); done
expect "129th user xattr" "$(err setx "$M/x" user.n128 v)" ENOSPC
# the limit counts a replace as one more name (simple_xattr_limits_inc())
expect "replacing at the limit" "$(err setx "$M/x" user.n127 w)" ENOSPC
expect "ENOSPC before EEXIST" "$(err setx "$M/x" user.n127 w create)" ENOSPC
expect "removing one" "$(err rmx "$M/x" user.n0)" OK
expect "then replacing" "$(err setx "$M/x" user.n127 w)" OK

# ---- frozen tasks make no page events; thawed, they go on ----
events() { awk '$1 == "page_events" { print $2 }' "$1/memcgfs.workload_stat"; }
echo "anon=2000 footprint=4M" > "$M/x/memcgfs.workload"
sleep 0.2
echo 1 > "$M/x/cgroup.freeze"
e0=$(events "$M/x"); sleep 0.3; e1=$(events "$M/x")
expect "frozen page events" "$e1" "$e0"
expect "frozen tasks stay" "$(wc -l < "$M/x/cgroup.procs")" 1
echo 0 > "$M/x/cgroup.freeze"
sleep 0.3
[ "$(events "$M/x")" -gt "$e1" ] || fail "thawed tasks make no page events"
echo preset=idle > "$M/x/memcgfs.workload"

# ---- delegation (cgroup_create(), cgroup_add_file(): current_fsuid()) ----
if ! nobody_ready; then
	echo "delegation: skipped, needs root and setpriv(1) to act as another user, who reaches \$TMP"
	exit 0
fi
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
mkdir "$M/deleg" || fail mkdir
echo +memory > "$M/deleg/cgroup.subtree_control" || fail "+memory"
chown 65534:65534 "$M/deleg" "$M/deleg/cgroup.procs" "$M/deleg/cgroup.subtree_control"
as_nobody mkdir "$M/deleg/job" || fail "nobody cannot mkdir in a delegated cgroup"
expect "owner" "$(stat -c %u:%g "$M/deleg/job")" 65534:65534
expect "file owner" "$(stat -c %u:%g "$M/deleg/job/memory.max")" 65534:65534
as_nobody sh -c "echo 64M > $M/deleg/job/memory.max" || fail "nobody cannot set its limit"
expect "limit" "$(cat "$M/deleg/job/memory.max")" 67108864
as_nobody sh -c "echo +memory > $M/deleg/job/cgroup.subtree_control" || fail "nobody +memory"
as_nobody mkdir "$M/deleg/job/task" || fail "nobody cannot nest"
expect "nested file owner" "$(stat -c %u "$M/deleg/job/task/memory.high")" 65534
expect "outside" "$(as_nobody "$SEQREAD" -e write "$M/x/cgroup.freeze" 1)" EACCES
# psi_trigger_create(): windows that are not whole 2 s need CAP_SYS_RESOURCE
expect "psi 1 s window, unprivileged" \
	"$(as_nobody "$SEQREAD" "$M/deleg/job/memory.pressure" "w:some 100000 1000000")" EINVAL
expect "psi 2 s window, unprivileged" \
	"$(as_nobody "$SEQREAD" "$M/deleg/job/memory.pressure" "w:some 100000 2000000")" +19
capeff=$(awk '$1 == "CapEff:" { print $2 }' /proc/self/status)
if [ $(( 0x$capeff >> 24 & 1 )) -eq 1 ]; then want=+19; else want=EINVAL; fi
expect "psi 1 s window, root (CAP_SYS_RESOURCE: $want)" \
	"$("$SEQREAD" "$M/deleg/job/memory.pressure" "w:some 100000 1000000")" $want
# ... of the opener (file->f_cred), not of the writer: an fd root opened
# takes a 1 s window from nobody
if [ $want = +19 ]; then
	exec 3>"$M/deleg/job/memory.pressure"
	as_nobody sh -c 'echo "some 100000 1000000" >&3' 2>/dev/null ||
		fail "a trigger on root's fd, written by nobody, refused"
	exec 3>&-
fi
expect "outside mkdir" "$(as_nobody "$SEQREAD" -e mkdir "$M/x/z")" EACCES
expect "own limit above" "$(as_nobody "$SEQREAD" -e write "$M/deleg/memory.max" 1G)" EACCES
# files a root write makes appear belong to root, as cgroup_add_file() does;
# they come and go as children of a directory nobody made, which has
# iattrs: its times move (kernfs_add_one(), __kernfs_remove())
t0=$(stat -c %y "$M/deleg/job/task")
sleep 0.05
echo -memory > "$M/deleg/job/cgroup.subtree_control"
echo +memory > "$M/deleg/job/cgroup.subtree_control"
expect "re-created file owner" "$(stat -c %u "$M/deleg/job/task/memory.high")" 0
[ "$(stat -c %y "$M/deleg/job/task")" != "$t0" ] || fail "controller files came and went, times kept"
exit 0
