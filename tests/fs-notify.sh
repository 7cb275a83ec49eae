#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Notification: poll(2) raises POLLPRI on memory.events when the workload
# hits its limit, on cgroup.events, memory.events.local and
# memory.swap.events (cgroup_file_notify(), kernfs_generic_poll()); PSI files
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
# psi_trigger_destroy(): removing the cgroup wakes a trigger's poller,
# which then sees POLLERR|POLLPRI, however long it meant to wait.
mkdir "$M/gone" || fail "mkdir gone"
expect "psi poller woken by rmdir" \
	"$(timeout 5 "$SEQREAD" "$M/gone/memory.pressure" "w:some 150000 2000000" \
		"x:(sleep 0.3; rmdir $M/gone) &" P:-1 | tail -n1)" "PRI ERR"
# PSI from the emulated stalls: a cgroup under its limit reclaims and
# refaults; its tasks stall, memory.pressure says so, and a trigger of
# 50 ms of stall in a 2 s window fires (psi_trigger_create(),
# update_triggers(), kernel/sched/psi.c)
mkdir "$M/s" "$M/quiet" || fail mkdir
echo 16M > "$M/s/memory.max"
total() { awk '$1 == "'$2'" { sub("total=", "", $5); print $5 }' "$1/memory.pressure"; }
expect "no stall yet" "$(total "$M/s" some)" 0
# update_triggers(): at most one event a window, so under steady pressure
# a poll right after the first event waits, the next window's fires
out=$("$SEQREAD" "$M/s/memory.pressure" "w:some 50000 2000000" \
	"x:echo 'anon=20000 file_read=20000 footprint=64M swap=on turnover=50' > $M/s/memcgfs.workload" \
	P:10000 P:700 P:10000)
expect "pressure trigger fires once a window" "$(echo "$out" | grep -x -e PRI -e timeout |
	tr '\n' ' ')" "PRI timeout PRI "
sleep 2.2
[ "$(total "$M/s" some)" -gt 50000 ] || fail "some total $(total "$M/s" some) us under the limit"
# one thread of the cgroup on each CPU: when it stalls, all of them do
full=$(total "$M/s" full)
[ "$full" -gt 0 ] && [ "$full" -le "$(total "$M/s" some)" ] ||
	fail "full total $full us against some $(total "$M/s" some)"
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
# cgroup.events: the first task makes a cgroup populated, the last one's
# exit unpopulated, and each transition notifies the cgroup and every
# ancestor whose state it changes (cgroup_update_populated(), 7.3's
# css_update_populated(): cgroup_file_notify(&cgrp->events_file)); quiet
# in between
mkdir "$M/e" "$M/e/c" || fail mkdir
populated_polls() {
	"$SEQREAD" "$1" a:4096 P:300 "x:echo preset=sleep > $M/e/c/memcgfs.workload" P:10000 \
		s:0 a:4096 P:300 "x:echo preset=idle > $M/e/c/memcgfs.workload" P:10000 s:0 a:4096 |
		tr '\n' ' '
}
comings="[populated 0 frozen 0 ] timeout PRI ERR =0 [populated 1 frozen 0 ] timeout \
PRI ERR =0 [populated 0 frozen 0 ] "
expect "populated wakes the cgroup" "$(populated_polls "$M/e/c/cgroup.events")" "$comings"
expect "populated wakes the parent" "$(populated_polls "$M/e/cgroup.events")" "$comings"
# a task that comes and goes between two polls: the text is as before,
# but each change was notified (kernfs counts events, not contents)
back_and_forth() {
	"$SEQREAD" "$1" a:4096 P:300 "x:$2" P:10000 s:0 a:4096 | tr '\n' ' '
}
expect "populated and back wakes" "$(back_and_forth "$M/e/cgroup.events" \
	"echo preset=sleep > $M/e/c/memcgfs.workload; echo preset=idle > $M/e/c/memcgfs.workload")" \
	"[populated 0 frozen 0 ] timeout PRI ERR =0 [populated 0 frozen 0 ] "
expect "frozen and back wakes" "$(back_and_forth "$M/e/c/cgroup.events" \
	"echo 1 > $M/e/cgroup.freeze; echo 0 > $M/e/cgroup.freeze")" \
	"[populated 0 frozen 0 ] timeout PRI ERR =0 [populated 0 frozen 0 ] "
# memory.events.local: memcg_memory_event() counts an event in, and
# notifies, the local file of the memcg it is raised on alone.  The max
# and oom events go to the memcg over its limit (mem_over_limit in
# try_charge_memcg(), mem_cgroup_oom()): a parent's limit hit by its
# child's charges wakes the parent's local file, and the child's shows no
# max; the OOM kill goes to the victim's memcg (__oom_kill_process():
# memcg_memory_event_mm()), the child's local file wakes with it alone.
mkdir "$M/l" "$M/p" || fail mkdir
echo 4M > "$M/l/memory.max"
out=$("$SEQREAD" "$M/l/memory.events.local" a:4096 P:300 \
	"x:echo 'anon=50000 footprint=64M swap=off' > $M/l/memcgfs.workload" P:10000 s:0 a:4096)
expect "own limit wakes local" "$(echo "$out" | grep -x -e "PRI ERR" -e PRI -e timeout |
	tr '\n' ' ')" "timeout PRI ERR "
echo "$out" | grep -q "^max [1-9]" || fail "memory.events.local after the wake: $out"
echo preset=idle > "$M/l/memcgfs.workload"
echo +memory > "$M/p/cgroup.subtree_control" || fail "+memory"
mkdir "$M/p/c" || fail mkdir
echo 4M > "$M/p/memory.max"
"$SEQREAD" "$M/p/memory.events.local" a:4096 P:10000 s:0 a:4096 > "$TMP/p-local" &
p_local=$!
sleep 0.3	# (had it read late, the limit is hit again and again)
out=$("$SEQREAD" "$M/p/c/memory.events.local" a:4096 P:300 \
	"x:echo 'anon=50000 footprint=64M swap=off' > $M/p/c/memcgfs.workload" P:10000 s:0 a:4096 |
	tr '\n' ' ')
wait "$p_local"	# with the child's workload still hitting the limit
echo preset=idle > "$M/p/c/memcgfs.workload"
case $out in
*"] timeout PRI ERR =0 [low 0 high 0 max 0 oom 0 oom_kill "[1-9]*) ;;
*) fail "the child's local file after an OOM kill: $out" ;;
esac
grep -qx "PRI ERR" "$TMP/p-local" && grep -q "^max [1-9]" "$TMP/p-local" ||
	fail "the parent's local file at its limit: $(cat "$TMP/p-local")"
expect "no max under the limit" "$(awk '$1 == "max" { print $2 }' "$M/p/c/memory.events")" 0
expect "no local kill above the victim" \
	"$(awk '$1 == "oom_kill" { print $2 }' "$M/p/memory.events.local")" 0
# memory.swap.events: a swap-out the swap limit refuses raises max and
# fail (__mem_cgroup_try_charge_swap()), which memcg_memory_event()
# notifies on swap_events_file
mkdir "$M/w" || fail mkdir
echo 4M > "$M/w/memory.max"
echo 1M > "$M/w/memory.swap.max"
out=$("$SEQREAD" "$M/w/memory.swap.events" a:4096 P:300 \
	"x:echo 'anon=50000 footprint=64M swap=on' > $M/w/memcgfs.workload" P:10000 s:0 a:4096)
echo preset=idle > "$M/w/memcgfs.workload"
expect "swap limit wakes" "$(echo "$out" | grep -x -e "PRI ERR" -e PRI -e timeout |
	tr '\n' ' ')" "timeout PRI ERR "
echo "$out" | grep -q "^max [1-9]" || fail "memory.swap.events after the wake: $out"
# each refused charge is a max and a fail
awk '$1 == "max" { m = $2 } $1 == "fail" { f = $2 } END { exit !(f >= m) }' \
	"$M/w/memory.swap.events" || fail "swap fail below max: $(cat "$M/w/memory.swap.events")"
# the events go to the folio's own memcg, whichever level refused, and up
# from there: a parent's swap limit counts max in its child's file too
mkdir "$M/w/c" || fail mkdir
echo +memory > "$M/w/cgroup.subtree_control" || fail "+memory"
echo max > "$M/w/memory.max"
echo 4M > "$M/w/c/memory.max"
before=$(awk '$1 == "max" { print $2 }' "$M/w/memory.swap.events")
echo "anon=50000 footprint=64M swap=on" > "$M/w/c/memcgfs.workload" || fail profile
sleep 0.5
echo preset=idle > "$M/w/c/memcgfs.workload"
[ "$(awk '$1 == "max" { print $2 }' "$M/w/c/memory.swap.events")" -gt 0 ] ||
	fail "the child's swap.events under its parent's limit: $(cat "$M/w/c/memory.swap.events")"
[ "$(awk '$1 == "max" { print $2 }' "$M/w/memory.swap.events")" -gt "$before" ] ||
	fail "the parent's swap.events: $(cat "$M/w/memory.swap.events")"
# no room under swap.max: reclaim does not scan anon at all
# (can_reclaim_anon_pages()), so no swap charge is tried, none fails
mkdir "$M/w0" || fail mkdir
echo 4M > "$M/w0/memory.max"
echo 0 > "$M/w0/memory.swap.max"
echo "anon=50000 footprint=64M swap=on" > "$M/w0/memcgfs.workload" || fail profile
sleep 0.5
echo preset=idle > "$M/w0/memcgfs.workload"
expect "swap.max 0: no swap events" "$(cat "$M/w0/memory.swap.events" | tr '\n' ' ')" \
	"high 0 max 0 fail 0 "
# the oom_kill event of a cgroup whose anonymous memory has no swap to go
# to: the max events wake a poller first; it polls again until the kill
# (mem_cgroup_oom() -> __oom_kill_process(): memcg_memory_event_mm(mm,
# MEMCG_OOM_KILL) notifies events_file)
mkdir "$M/k" || fail mkdir
echo 4M > "$M/k/memory.max"
echo "anon=50000 footprint=64M swap=off" > "$M/k/memcgfs.workload" || fail profile
end=$(($(date +%s) + 30))
kills=0
while [ "$kills" = 0 ] && [ "$(date +%s)" -lt "$end" ]; do
	out=$("$SEQREAD" "$M/k/memory.events" P:10000 a:4096)
	expect "memory.events wakes" "$(echo "$out" | sed -n 1p)" "PRI ERR"
	kills=$(echo "$out" | awk '$1 == "oom_kill" { print $2 }')
done
echo preset=idle > "$M/k/memcgfs.workload"
[ "$kills" -ge 1 ] || fail "no oom_kill woke a poller in 30 s"

# inotify: IN_MODIFY as cgroup_file_notify() raises it (kernfs_notify()),
# from the daemon's own write, which only root's daemon can make
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$M/in" || fail mkdir
	echo 1M > "$M/in/memory.max"
	expect "inotify: quiet" "$("$SEQREAD" -I "$M/in/memory.events" 300)" timeout
	expect "inotify: memory.events" "$("$SEQREAD" -I "$M/in/memory.events" 3000 \
		"echo 'max 1' > $M/in/memcgfs.charge")" modified
	expect "inotify: memory.events.local" "$("$SEQREAD" -I "$M/in/memory.events.local" 3000 \
		"echo 'oom 1' > $M/in/memcgfs.charge")" modified
	# an event below changes the parent's hierarchical file only
	mkdir "$M/in/c" || fail mkdir
	expect "inotify: the parent's memory.events" "$("$SEQREAD" -I "$M/in/memory.events" 3000 \
		"echo 'max 1' > $M/in/c/memcgfs.charge")" modified
	expect "inotify: not the parent's local" "$("$SEQREAD" -I "$M/in/memory.events.local" 300 \
		"echo 'max 1' > $M/in/c/memcgfs.charge")" timeout
	expect "inotify: cgroup.events" "$("$SEQREAD" -I "$M/in/cgroup.events" 3000 \
		"echo 1 > $M/in/cgroup.freeze")" modified
	# the daemon's write is its own: root's is still EINVAL, the file empty
	expect "inotify: a write to memory.events" "$(err write "$M/in/memory.events" x)" EINVAL
	expect "inotify: size" "$(stat -c %s "$M/in/memory.events")" 0
	echo 0 > "$M/in/cgroup.freeze"
	rmdir "$M/in/c" "$M/in" || fail rmdir
fi

mount_fs "$TMP/v1" --hierarchy=v1 --cpus=2
M=$TMP/v1
mkdir "$M/t" "$M/o" "$M/p" "$M/r" "$M/s" "$M/other" || fail mkdir
ev() { "$SEQREAD" -E "$@" | tr '\n' ' '; }
expect "threshold" "$(ev "$M/t/memory.usage_in_bytes" "$M/t/cgroup.event_control" 1M 10000 \
	"echo 'anon=20000 footprint=8M' > $M/t/memcgfs.workload")" "OK signalled "
echo preset=idle > "$M/t/memcgfs.workload"
# memsw thresholds (__mem_cgroup_threshold(memcg, true), memory+swap):
# crossed on the way up to 8M, not one at 64M
expect "memsw threshold" "$(ev "$M/s/memory.memsw.usage_in_bytes" "$M/s/cgroup.event_control" \
	1M 10000 "echo 'anon=20000 footprint=8M' > $M/s/memcgfs.workload")" "OK signalled "
expect "memsw threshold not reached" "$(ev "$M/s/memory.memsw.usage_in_bytes" \
	"$M/s/cgroup.event_control" 64M 1500)" "OK timeout "
echo preset=idle > "$M/s/memcgfs.workload"
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
# eventfd_ctx_fileget() of a file that is no eventfd, before cfd is looked at
expect "efd not an eventfd" "$("$SEQREAD" -F "$M/t/memory.usage_in_bytes" \
	"$M/t/cgroup.event_control" 1M 100 | tr '\n' ' ')" "EINVAL "
expect "efd not an eventfd, cfd closed" "$("$SEQREAD" -F - "$M/t/cgroup.event_control" - 100 |
	tr '\n' ' ')" "EINVAL "
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
