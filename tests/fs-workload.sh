#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Workloads through the file system: memcgfs.workload, counters that agree
# with each other while workers charge, limits and reclaim, v1 and v2.
. "${top_srcdir:-.}/tests/fs-lib.sh"

# flush_key KEY: one value of the root's memcgfs.flush_stats
flush_key() {
	awk -v k="$1" '$1 == k { print $2 }' "$M/memcgfs.flush_stats"
}

# render_of FILE: "renders nanoseconds" of one file of memcgfs.read_stats
render_of() {
	awk -v f="$1" 'BEGIN { r = "0 0" } $1 == f { r = $2 " " $3 } END { print r }' \
		"$M/memcgfs.read_stats"
}

# work_of CGROUP KEY1 KEY2: two values of CGROUP/memcgfs.workload_stat
work_of() {
	awk -v a="$2" -v b="$3" '$1 == a { x = $2 } $1 == b { y = $2 } END { print x, y }' \
		"$M/$1/memcgfs.workload_stat"
}

# settle CGROUP: waits (10 s at most) until an idle cgroup has no page under
# dirty or writeback state: then its workers leave it alone altogether.
settle() {
	i=0
	while :; do
		cat "$1/memory.stat" > "$TMP/settle"
		[ "$(key_of "$TMP/settle" file_dirty)" = 0 ] &&
			[ "$(key_of "$TMP/settle" file_writeback)" = 0 ] && break
		i=$((i + 1))
		[ $i -gt 100 ] && fail "$1: writeback does not finish"
		sleep 0.1
	done
	sleep 0.2	# a step in flight, then a periodic flush
}

# stocked WHAT CURRENT INUSE: memory.current runs ahead of the pages in use
# by what the CPUs' charge stocks hold (consume_stock()/refill_stock()):
# less than a MEMCG_CHARGE_BATCH (64) per CPU and memcg of the subtree.
stocked() {
	[ "$2" -ge "$3" ] && [ "$2" -lt $(( $3 + 3 * 2 * 64 * 4096 )) ] ||
		fail "$1: $2 is not $3 plus at most the stocks"
}

mount_fs "$TMP/v2" --cpus=3 --nodes=2 --flush_period_ms=50 --workload=seed001
M=$TMP/v2
mkdir "$M/a" "$M/a/b" || fail mkdir
# a runs tasks (the seed001 default), so it cannot give its children the
# memory controller (cgroup_vet_subtree_control_enable()) until they exit
expect "+memory with tasks" "$(err write "$M/a/cgroup.subtree_control" +memory)" EBUSY
# the periodic flusher shows in the root's flush counters
sleep 0.2
periodic=$(awk '$1 == "periodic" { print $2 }' "$M/memcgfs.flush_stats")
[ "$periodic" -gt 0 ] || fail "no periodic flush counted"
expect "flush_stats keys" "$(cut -d' ' -f1 "$M/memcgfs.flush_stats" | tr '\n' ' ')" \
	"flushes forced periodic skipped side_flushes reclaim refault visited flush_usec \
base_flushes base_visited base_flush_usec io_flushes io_visited io_flush_usec \
callback_nsec aggregate_nsec changed_items callbacks_untimed percpu_loads \
changed_hist_0 changed_hist_1 changed_hist_2 changed_hist_3 changed_hist_4 changed_hist_5 \
changed_hist_6 changed_hist_7 changed_hist_8 changed_hist_9 changed_hist_10 changed_hist_11 \
changed_hist_12 changed_hist_13 changed_hist_14 changed_hist_15 changed_hist_16_up \
shadow_count dirty_throttle kernel_usec read_usec periodic_usec reclaim_usec refault_usec \
shadow_count_usec dirty_throttle_usec side_usec links link_waits memory_links "
# the periodic flusher's time is its own, and the workers link pairs
[ "$(flush_key periodic_usec)" -gt 0 ] || fail "no periodic flush time"
[ "$(flush_key links)" -gt 0 ] || fail "no updater slow path counted"
# memcg's callbacks are timed, the memcg-wide aggregation within them; a
# read of memory.stat under a busy workload makes them run
visited=$(flush_key visited)
cat "$M/a/memory.stat" > /dev/null
sleep 0.1
[ "$(flush_key visited)" -gt "$visited" ] || fail "visited stays at $visited"
cb=$(flush_key callback_nsec)
agg=$(flush_key aggregate_nsec)
[ "$agg" -gt 0 ] && [ "$cb" -ge "$agg" ] || fail "callback_nsec $cb, aggregate_nsec $agg"
[ "$(flush_key changed_items)" -gt 0 ] || fail "no changed items counted"
# The histogram counts every visit once, each bucket its items; the open
# last bucket at least 16 each.  A flush may run between two keys: the
# check reads a snapshot that two reads in a row agree on.
i=0
until cat "$M/memcgfs.flush_stats" > "$TMP/fs1" && cat "$M/memcgfs.flush_stats" > "$TMP/fs2" &&
	cmp -s "$TMP/fs1" "$TMP/fs2"; do
	i=$((i + 1))
	[ $i -gt 50 ] && fail "memcgfs.flush_stats never still"
	sleep 0.05
done
awk '$1 == "visited" { v = $2 } $1 == "changed_items" { c = $2 }
	$1 ~ /^changed_hist_/ { k = substr($1, 14); n += $2
		if (k == "16_up") { up = $2 } else { low += k * $2 } }
	END { if (n != v || low + 16 * up > c || (up == 0 && low != c)) {
		print "visited " v ", histogram " n ", changed " c ", low " low ", 16+ " up; exit 1 } }' \
	"$TMP/fs1" || fail "changed_hist does not add up"
# memcgfs.read_stats: each cat of memory.stat is one render (the second
# read continues the snapshot), timed; reading read_stats counts itself
read0=$(render_of memory.stat)
cat "$M/a/memory.stat" > /dev/null
read1=$(render_of memory.stat)
expect "memory.stat renders" "${read1% *}" $((${read0% *} + 1))
[ "${read1#* }" -gt "${read0#* }" ] || fail "memory.stat render time: $read0 -> $read1"
[ "$(render_of memcgfs.read_stats)" != "0 0" ] || fail "read_stats does not count itself"
# cpu.stat and io.stat flush their own trees (split in 7.3)
base=$(flush_key base_flushes)
cat "$M/a/cpu.stat" > /dev/null
expect "cpu.stat flushes the base tree" "$(flush_key base_flushes)" $((base + 1))
[ "$(flush_key base_visited)" -gt 0 ] || fail "no base callback"
io=$(flush_key io_flushes)
cat "$M/a/io.stat" > /dev/null
expect "io.stat flushes the io tree" "$(flush_key io_flushes)" $((io + 1))
# memcgfs.workload_stat: the workload's own progress in each cgroup; a
# busy cgroup's page events and charges grow, an idle one's stay put
# (set_profile returns once no step runs the old profile)
expect "workload_stat keys" "$(cut -d' ' -f1 "$M/a/memcgfs.workload_stat" | tr '\n' ' ')" \
	"page_events pages_charged pages_uncharged stat_updates reclaim_batches charge_stall_usec steps "
mkdir "$M/q" || fail mkdir
echo preset=idle > "$M/q/memcgfs.workload" || fail "set idle"
busy0=$(work_of a page_events pages_charged)
idle0=$(work_of q page_events pages_charged)
sleep 0.3
busy1=$(work_of a page_events pages_charged)
idle1=$(work_of q page_events pages_charged)
[ "${busy1% *}" -gt "${busy0% *}" ] || fail "busy page_events: $busy0 -> $busy1"
[ "${busy1#* }" -gt "${busy0#* }" ] || fail "busy pages_charged: $busy0 -> $busy1"
expect "idle workload_stat" "$idle1" "$idle0"
expect "root workload_stat" "$(work_of . page_events steps)" "0 0"
rmdir "$M/q" || fail rmdir
expect "default profile" "$(grep '^file_write=' "$M/a/b/memcgfs.workload")" "file_write=2000"
expect "root idle" "$(grep '^anon=' "$M/memcgfs.workload")" "anon=0"
expect "bad profile" "$(err write "$M/a/memcgfs.workload" "anon=lots")" EINVAL
expect "kept" "$(grep '^anon=' "$M/a/memcgfs.workload")" "anon=4000"
expect "new profile" "$(err write "$M/a/memcgfs.workload" "preset=file-reader footprint=16M")" OK
expect "read back" "$(grep '^file_read=' "$M/a/memcgfs.workload")" "file_read=50000"
sleep 1
cur=$(cat "$M/a/memory.current")
[ "$cur" -gt 0 ] || fail "memory.current stays 0 under a workload"
[ "$(key_of "$M/a/memory.stat" pgfault)" -gt 0 ] || fail "no pgfault"

# Quiet the workers, let writeback and the periodic flush settle, then the
# counters of one rendering must agree exactly.
echo preset=idle > "$M/a/memcgfs.workload" || fail "set idle"
echo preset=idle > "$M/a/b/memcgfs.workload" || fail "set idle"
# a's tasks are gone: b gets the memory controller and its files
echo +memory > "$M/a/cgroup.subtree_control" || fail "+memory"
settle "$M/a"
settle "$M/a/b"
for cg in "$M/a" "$M/a/b"; do
	s=$TMP/stat
	cat "$cg/memory.stat" > "$s"
	anon=$(key_of "$s" anon); file=$(key_of "$s" file); kernel=$(key_of "$s" kernel)
	stocked "$cg current" "$(cat "$cg/memory.current")" $((anon + file + kernel))
	lru=$(( $(key_of "$s" inactive_anon) + $(key_of "$s" active_anon) +
		$(key_of "$s" inactive_file) + $(key_of "$s" active_file) +
		$(key_of "$s" unevictable) ))
	expect "$cg LRU" "$lru" $((anon + file))
	n0=$(awk '$1 == "file" { sub("N0=", "", $2); print $2 }' "$cg/memory.numa_stat")
	n1=$(awk '$1 == "file" { sub("N1=", "", $3); print $3 }' "$cg/memory.numa_stat")
	expect "$cg numa file" $((n0 + n1)) "$file"
	peak=$(cat "$cg/memory.peak")
	[ "$peak" -ge "$(cat "$cg/memory.current")" ] || fail "$cg peak below current"
done

# memory.reclaim takes what it asks for; memory.max reclaims down to itself.
before=$(cat "$M/a/memory.current")
expect "reclaim" "$(err write "$M/a/memory.reclaim" 1M)" OK
after=$(cat "$M/a/memory.current")
[ $((before - after)) -ge 1048576 ] || fail "reclaim freed $((before - after)) bytes"
sleep 0.2
# shrunk slab counts in what was reclaimed, not in pgsteal
cat "$M/a/memory.stat" > "$TMP/stat"
steal=$(key_of "$TMP/stat" pgsteal_proactive)
[ "$steal" -gt 0 ] || fail "no pgsteal_proactive"
[ "$(key_of "$TMP/stat" pgscan_proactive)" -ge "$steal" ] || fail "pgscan below pgsteal"
expect "max" "$(err write "$M/a/memory.max" 4M)" OK
[ "$(cat "$M/a/memory.current")" -le 4194304 ] || fail "usage above memory.max"
expect "busy" "$(err write "$M/a/memcgfs.workload" "anon=50000 footprint=64M")" OK
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(cat "$M/a/memory.current")" -le 4194304 ] || fail "usage above memory.max under load"
	sleep 0.05
done
[ "$(awk '$1 == "max" { print $2 }' "$M/a/memory.events")" -gt 0 ] || fail "no max event"
[ "$(awk '$1 == "oom_kill" { print $2 }' "$M/a/memory.events")" -gt 0 ] || fail "no oom_kill"
# A cgroup with tasks cannot be removed (cgroup_destroy_locked()); it
# lists its process and threads, and is populated up the tree.
echo preset=multi-fault > "$M/a/b/memcgfs.workload"
sleep 0.2
expect "rmdir busy" "$(err rmdir "$M/a/b")" EBUSY
expect "populated" "$(sed -n 1p "$M/a/cgroup.events")" "populated 1"
expect "one process" "$(wc -l < "$M/a/b/cgroup.procs")" 1
expect "a thread per CPU" "$(wc -l < "$M/a/b/cgroup.threads")" 3
[ "$(cat "$M/a/b/cgroup.procs")" -gt 4194304 ] || fail "task id within host pids"
# cgroup.kill: the tasks exit, their anon and kernel memory with them;
# page cache stays; then rmdir: the parent keeps every charge
anon_before=$(key_of "$M/a/b/memory.stat" anon)
[ "$anon_before" -gt 0 ] || fail "no anon before kill"
echo 1 > "$M/a/b/cgroup.kill" || fail "cgroup.kill"
expect "killed: no process" "$(wc -c < "$M/a/b/cgroup.procs")" 0
expect "unpopulated" "$(sed -n 1p "$M/a/b/cgroup.events")" "populated 0"
sleep 0.1
expect "anon freed on exit" "$(key_of "$M/a/b/memory.stat" anon)" 0
expect "stacks freed on exit" "$(key_of "$M/a/b/memory.stat" kernel_stack)" 0
rmdir "$M/a/b" || fail "rmdir after kill"
echo preset=idle > "$M/a/memcgfs.workload"
settle "$M/a"
s=$TMP/stat
cat "$M/a/memory.stat" > "$s"
stocked "after rmdir" "$(cat "$M/a/memory.current")" \
	$(( $(key_of "$s" anon) + $(key_of "$s" file) + $(key_of "$s" kernel) ))

# preset=idle is the tasks' exit: exit_mmap() frees their anonymous memory
# (unmap_vmas()) and page tables (free_pgtables()), do_exit() uncharges
# the stacks (exit_task_stack_account(); 5.10: release_task_stack()); the
# page cache they read stays charged to the memcg (mem_cgroup_uncharge()
# only when a folio is freed), the cgroup empties (cgroup_exit()) and
# cgroup.events says so
mkdir "$M/x" || fail mkdir
echo "anon=4000 file_read=4000 footprint=16M" > "$M/x/memcgfs.workload" || fail profile
i=0
while :; do
	cat "$M/x/memory.stat" > "$TMP/stat"
	[ "$(key_of "$TMP/stat" anon)" -gt 0 ] && [ "$(key_of "$TMP/stat" file)" -gt 0 ] && break
	i=$((i + 1))
	[ $i -gt 100 ] && fail "no anon and file after 10 s: $(cat "$TMP/stat")"
	sleep 0.1
done
[ "$(key_of "$TMP/stat" kernel_stack)" -gt 0 ] || fail "running tasks without stacks"
[ "$(key_of "$TMP/stat" pagetables)" -gt 0 ] || fail "running tasks without page tables"
echo preset=idle > "$M/x/memcgfs.workload" || fail "set idle"
expect "exited: no process" "$(wc -c < "$M/x/cgroup.procs")" 0
expect "exited: unpopulated" "$(sed -n 1p "$M/x/cgroup.events")" "populated 0"
i=0
while :; do
	cat "$M/x/memory.stat" > "$TMP/stat"
	gone=$(awk '$1 == "anon" || $1 == "kernel_stack" || $1 == "pagetables" { print $2 }' \
		"$TMP/stat" | tr '\n' ' ')
	[ "$gone" = "0 0 0 " ] && break
	i=$((i + 1))
	[ $i -gt 50 ] && fail "anon, kernel_stack, pagetables after the exit: $gone"
	sleep 0.1
done
[ "$(key_of "$TMP/stat" file)" -gt 0 ] || fail "page cache uncharged at the exit"

# v1: mlocked memory cannot be reclaimed, so a lower limit is refused.
mount_fs "$TMP/v1" --hierarchy=v1 --cpus=2 --flush_period_ms=50
M=$TMP/v1
mkdir "$M/m" || fail mkdir
echo "anon=20000 mlock=100 footprint=8M" > "$M/m/memcgfs.workload" || fail "profile"
sleep 0.5
echo preset=sleep > "$M/m/memcgfs.workload"
[ "$(work_of m page_events steps | cut -d' ' -f1)" -gt 0 ] || fail "v1 workload_stat"
usage=$(cat "$M/m/memory.usage_in_bytes")
[ "$usage" -gt 1048576 ] || fail "v1 usage $usage"
expect "v1 limit below mlocked" "$(err write "$M/m/memory.limit_in_bytes" $((usage / 2)))" EBUSY
expect "v1 limit kept" "$(cat "$M/m/memory.limit_in_bytes")" 9223372036854771712
# mem_cgroup_force_empty() returns 0 when pages stay
expect "v1 force_empty" "$(err write "$M/m/memory.force_empty" 0)" OK
[ "$(cat "$M/m/memory.usage_in_bytes")" -gt 0 ] || fail "mlocked pages gone after force_empty"
sleep 0.2
expect "v1 rss" "$(key_of "$M/m/memory.stat" rss)" "$(key_of "$M/m/memory.stat" unevictable)"
stocked "v1 pgpg" "$usage" \
	$(( ($(key_of "$M/m/memory.stat" pgpgin) - $(key_of "$M/m/memory.stat" pgpgout)) * 4096 ))
# v1 lists the sleeping tasks as well: cgroup.procs the process, tasks its
# threads (cgroup1_base_files[]), the leader among them; rmdir is EBUSY
# while they live (cgroup_destroy_locked()), and they exit on idle
expect "v1 one process" "$(wc -l < "$M/m/cgroup.procs")" 1
expect "v1 a thread per CPU" "$(wc -l < "$M/m/tasks")" 2
[ "$(cat "$M/m/cgroup.procs")" -gt 4194304 ] || fail "v1 task id within host pids"
grep -qx "$(cat "$M/m/cgroup.procs")" "$M/m/tasks" || fail "v1 tasks without the leader"
expect "v1 rmdir busy" "$(err rmdir "$M/m")" EBUSY
echo preset=idle > "$M/m/memcgfs.workload" || fail "v1 idle"
expect "v1 exited: no task" "$(wc -c < "$M/m/tasks")" 0
expect "v1 rmdir after the exit" "$(err rmdir "$M/m")" OK
# A dying memcg before 7.x (6.1, v1): rmdir leaves the pages charged to
# it, so the parent's usage keeps them while its local counts do not; the
# dead cgroup counts as dying until a reclaim empties it.
mount_fs "$TMP/v61" --kernel=6.1 --hierarchy=v1 --cpus=2 --flush_period_ms=50
M=$TMP/v61
mkdir "$M/p" "$M/p/c" || fail mkdir
echo "file_read=20000 footprint=4M" > "$M/p/c/memcgfs.workload" || fail "profile"
sleep 0.5
echo preset=idle > "$M/p/c/memcgfs.workload"
sleep 0.3	# reads leave nothing to write back
usage=$(cat "$M/p/memory.usage_in_bytes")
[ "$usage" -gt 1048576 ] || fail "6.1 usage $usage"
rmdir "$M/p/c" || fail "rmdir"
# Offline drains the charge stocks (mem_cgroup_css_offline() ->
# drain_all_stock()); the pages stay charged.
kept=$(cat "$M/p/memory.usage_in_bytes")
stocked "6.1 usage kept" "$usage" "$kept"
sleep 0.2
expect "6.1 local cache" "$(key_of "$M/p/memory.stat" cache)" 0
# the rest of p's usage is kernel memory: the dying memcg's own objects,
# charged to p until it is freed (mem_cgroup_css_alloc())
kmem=$(cat "$M/p/memory.kmem.usage_in_bytes")
[ "$kmem" -gt 0 ] || fail "the dying memcg's objects are not charged to p"
expect "6.1 total_cache" "$(key_of "$M/p/memory.stat" total_cache)" "$((kept - kmem))"
expect "6.1 force_empty" "$(err write "$M/p/memory.force_empty" 0)" OK
stocked "6.1 emptied" "$(cat "$M/p/memory.usage_in_bytes")" 0

# The same on v2, where cgroup.stat counts the dying cgroup until
# memory.reclaim empties it; 7.3 hands the pages to the parent at once.
for k in 6.12 7.3; do
	mount_fs "$TMP/v2-$k" --kernel=$k --cpus=2 --flush_period_ms=50
	M=$TMP/v2-$k
	mkdir "$M/p" || fail mkdir
	echo +memory > "$M/p/cgroup.subtree_control" || fail "+memory"
	mkdir "$M/p/c" || fail mkdir
	echo "file_read=20000 footprint=4M" > "$M/p/c/memcgfs.workload" || fail "profile"
	sleep 0.5
	echo preset=idle > "$M/p/c/memcgfs.workload"
	sleep 0.3
	rmdir "$M/p/c" || fail "rmdir"
	dying=$(awk '$1 == "nr_dying_descendants" { print $2 }' "$M/p/cgroup.stat")
	expect "$k dying after rmdir" "$dying" "$([ $k = 6.12 ] && echo 1 || echo 0)"
	# the dying cgroup's memory css is what stays; its io css goes at
	# once (cgroup_stat_show(): nr_dying_subsys_<ss>)
	expect "$k dying memory css" \
		"$(awk '$1 == "nr_dying_subsys_memory" { print $2 }' "$M/p/cgroup.stat")" "$dying"
	expect "$k no dying io css" \
		"$(awk '$1 == "nr_dying_subsys_io" { print $2 }' "$M/p/cgroup.stat")" 0
	expect "$k reclaim" "$(err write "$M/p/memory.reclaim" 1G)" EAGAIN
	expect "$k dying after reclaim" \
		"$(awk '$1 == "nr_dying_descendants" { print $2 }' "$M/p/cgroup.stat")" 0
	# what stays is the charge stock of the kernel objects c's memcg took
	# from p (given back at rmdir, straight to the counters)
	stocked "$k emptied" "$(cat "$M/p/memory.current")" 0
done
echo "PASS: fs-workload"
