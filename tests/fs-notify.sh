#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Notification: poll(2) raises POLLPRI on memory.events when the workload
# hits its limit (cgroup_file_notify(), kernfs_generic_poll()); PSI files
# poll as psi_trigger_poll() does; v1 cgroup.event_control signals real
# eventfds for a usage threshold, an OOM, vmpressure and removal, with the
# kernel's errors (memcg_write_event_control(), mm/memcontrol-v1.c).
. "${top_srcdir:-.}/tests/fs-lib.sh"

mount_fs "$TMP/v2" --cpus=2
M=$TMP/v2
mkdir "$M/n" || fail mkdir
echo 4M > "$M/n/memory.max"
expect "quiet file waits" "$("$SEQREAD" "$M/n/memory.events" a:4096 P:300 | tail -n1)" timeout
# a file the kernel never notifies: POLLPRI never comes
expect "stat file never notifies" "$("$SEQREAD" "$M/n/memory.stat" P:300)" timeout
out=$("$SEQREAD" "$M/n/memory.events" a:4096 \
	"x:echo 'anon=50000 footprint=64M swap=off' > $M/n/memcgfs.workload" P:10000 \
	"x:echo preset=idle > $M/n/memcgfs.workload; sleep 0.1" s:0 a:4096 P:300)
polls=$(echo "$out" | grep -x -e "PRI ERR" -e PRI -e timeout | tr '\n' ' ')
# woken by the change, then quiet again once the fd has read it
expect "limit hit wakes poll" "$polls" "PRI ERR timeout "
echo "$out" | grep -q "^max [1-9]" || fail "memory.events after the wake: $out"
echo preset=idle > "$M/n/memcgfs.workload"
expect "psi without trigger" "$("$SEQREAD" "$M/n/memory.pressure" P:300)" "PRI ERR"
expect "psi trigger waits" \
	"$("$SEQREAD" "$M/n/memory.pressure" "w:some 150000 2000000" P:300 | tail -n1)" timeout
# PSI from the emulated stalls: a cgroup under its limit reclaims and
# refaults; its tasks stall, memory.pressure says so, and a trigger of
# 50 ms of stall in a 2 s window fires (psi_trigger_create(),
# update_triggers(), kernel/sched/psi.c)
mkdir "$M/s" "$M/quiet" || fail mkdir
echo 16M > "$M/s/memory.max"
total() { awk '$1 == "'$2'" { sub("total=", "", $5); print $5 }' "$1/memory.pressure"; }
expect "no stall yet" "$(total "$M/s" some)" 0
out=$("$SEQREAD" "$M/s/memory.pressure" "w:some 50000 2000000" \
	"x:echo 'anon=20000 file_read=20000 footprint=64M swap=on turnover=50' > $M/s/memcgfs.workload" \
	P:10000)
expect "pressure trigger fires" "$(echo "$out" | tail -n1)" PRI
sleep 2.2
[ "$(total "$M/s" some)" -gt 50000 ] || fail "some total $(total "$M/s" some) us under the limit"
avg10=$(awk '$1 == "some" { sub("avg10=", "", $2); print $2 }' "$M/s/memory.pressure")
[ "$avg10" != 0.00 ] || fail "some avg10 stays 0.00 after a period under pressure"
# oomd's case: anonymous memory without swap, nothing to reclaim; each
# charge over the limit still goes through every priority of reclaim
# MAX_RECLAIM_RETRIES times inside psi_memstall_enter() before the OOM
# killer (try_charge_memcg()): the stalls show although nothing is freed
mkdir "$M/o" || fail mkdir
echo 16M > "$M/o/memory.max"
echo "anon=20000 footprint=64M" > "$M/o/memcgfs.workload" || fail profile
sleep 1
echo preset=idle > "$M/o/memcgfs.workload"
kills=$(awk '$1 == "oom_kill" { print $2 }' "$M/o/memory.events")
[ "$kills" -gt 0 ] || fail "no OOM kill over the limit without swap"
[ "$(total "$M/o" some)" -gt 0 ] || fail "$kills OOM kills, no memory stall"
child=$(total "$M/s" some)	# first: the root's read, later, collects more
[ "$(total "$M" some)" -ge "$child" ] || fail "the root's stall below its child's"
expect "an idle sibling does not stall" "$(total "$M/quiet" some)" 0
echo preset=idle > "$M/s/memcgfs.workload"

mount_fs "$TMP/v1" --hierarchy=v1 --cpus=2
M=$TMP/v1
mkdir "$M/t" "$M/o" "$M/p" "$M/r" "$M/other" || fail mkdir
ev() { "$SEQREAD" -E "$@" | tr '\n' ' '; }
expect "threshold" "$(ev "$M/t/memory.usage_in_bytes" "$M/t/cgroup.event_control" 1M 10000 \
	"echo 'anon=20000 footprint=8M' > $M/t/memcgfs.workload")" "OK signalled "
echo preset=idle > "$M/t/memcgfs.workload"
echo 4M > "$M/o/memory.limit_in_bytes"
expect "oom" "$(ev "$M/o/memory.oom_control" "$M/o/cgroup.event_control" - 10000 \
	"echo 'anon=50000 footprint=64M swap=off' > $M/o/memcgfs.workload")" "OK signalled "
echo preset=idle > "$M/o/memcgfs.workload"
echo 8M > "$M/p/memory.limit_in_bytes"
expect "pressure" "$(ev "$M/p/memory.pressure_level" "$M/p/cgroup.event_control" low,local 10000 \
	"echo 'file_read=50000 footprint=64M' > $M/p/memcgfs.workload")" "OK signalled "
echo preset=idle > "$M/p/memcgfs.workload"
# vmpressure_calc_level(): reclaim of clean page cache frees what it scans,
# pressure 0, never "critical"; anonymous memory without swap cannot be
# reclaimed, the reclaim goes down every priority, and vmpressure_prio()
# reports critical windows
mkdir "$M/p/c" "$M/q" "$M/q/c" || fail mkdir
expect "clean cache is not critical" "$(ev "$M/p/memory.pressure_level" "$M/p/cgroup.event_control" \
	critical 1500 "echo 'file_read=50000 footprint=64M' > $M/p/memcgfs.workload")" "OK timeout "
echo preset=idle > "$M/p/memcgfs.workload"
echo 4M > "$M/p/c/memory.limit_in_bytes"
echo 4M > "$M/q/c/memory.limit_in_bytes"
expect "unreclaimable is critical" "$(ev "$M/p/c/memory.pressure_level" "$M/p/c/cgroup.event_control" \
	critical 10000 "echo 'anon=50000 footprint=64M swap=off' > $M/p/c/memcgfs.workload")" \
	"OK signalled "
echo preset=idle > "$M/p/c/memcgfs.workload"
# do_try_to_free_pages() scans lru_size >> priority: a memcg with little
# on its lists reaches the critical priorities even on clean cache
mkdir "$M/p/small" || fail mkdir
echo 512K > "$M/p/small/memory.limit_in_bytes"
expect "a small memcg's reclaim is critical" "$(ev "$M/p/small/memory.pressure_level" \
	"$M/p/small/cgroup.event_control" critical 10000 \
	"echo 'file_read=50000 footprint=64M' > $M/p/small/memcgfs.workload")" "OK signalled "
echo preset=idle > "$M/p/small/memcgfs.workload"
# vmpressure_event() up the hierarchy: a "default" listener of the parent
# hears nothing a listener below heard; a "hierarchy" one hears it anyway
"$SEQREAD" -E "$M/q/memory.pressure_level" "$M/q/cgroup.event_control" critical 6000 \
	> "$TMP/q-default" &
q_default=$!
"$SEQREAD" -E "$M/q/memory.pressure_level" "$M/q/cgroup.event_control" critical,hierarchy 6000 \
	> "$TMP/q-hier" &
q_hier=$!
sleep 0.5
# (the child's listener stays registered until the workload is idle again)
expect "child hears" "$(ev "$M/q/c/memory.pressure_level" "$M/q/c/cgroup.event_control" \
	critical +3000 "echo 'anon=50000 footprint=64M swap=off' > $M/q/c/memcgfs.workload; \
	(sleep 2; echo preset=idle > $M/q/c/memcgfs.workload) &")" "OK signalled "
wait "$q_default" "$q_hier"
expect "default parent passed over" "$(tr '\n' ' ' < "$TMP/q-default")" "OK timeout "
expect "hierarchy parent hears" "$(tr '\n' ' ' < "$TMP/q-hier")" "OK signalled "
expect "removal" "$(ev "$M/r/memory.oom_control" "$M/r/cgroup.event_control" - 5000 \
	"rmdir $M/r")" "OK signalled "
# the kernel's errors, in its order
expect "closed control fd" "$(ev - "$M/t/cgroup.event_control" - 100)" "EBADF "
expect "not an event file" "$(ev "$M/t/memory.stat" "$M/t/cgroup.event_control" - 100)" "EINVAL "
expect "other cgroup" \
	"$(ev "$M/other/memory.usage_in_bytes" "$M/t/cgroup.event_control" 1M 100)" "EINVAL "
expect "bad threshold" "$(ev "$M/t/memory.usage_in_bytes" "$M/t/cgroup.event_control" abc 100)" \
	"EINVAL "
expect "bad level" "$(ev "$M/p/memory.pressure_level" "$M/p/cgroup.event_control" high 100)" \
	"EINVAL "
expect "bad mode" "$(ev "$M/p/memory.pressure_level" "$M/p/cgroup.event_control" low,up 100)" \
	"EINVAL "
expect "syntax" "$(err write "$M/t/cgroup.event_control" "1x 2")" EINVAL
# simple_strtoul(): no sign
expect "signed efd" "$(err write "$M/t/cgroup.event_control" "-1 3")" EINVAL
expect "plus efd" "$(err write "$M/t/cgroup.event_control" "+3 4")" EINVAL
expect "efd not open" "$(err write "$M/t/cgroup.event_control" "998 999")" EBADF
exit 0
