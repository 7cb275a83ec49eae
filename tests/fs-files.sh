#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The file sets and modes of v1 and v2 directories, root and child, and the
# first bytes of every v1 file of an empty memcg (golden/v1-memcg-files.tsv).
. "${top_srcdir:-.}/tests/fs-lib.sh"

SPEC=$top_srcdir/../shared/spec/golden
[ -d "$SPEC" ] || SPEC=$top_srcdir/tests/golden

listing() {	# mode and name of every entry, sorted by name
	(cd "$1" && for f in *; do [ -f "$f" ] && echo "$(stat -c %A "$f") $f"; done)
}

mount_fs "$TMP/v1" --hierarchy=v1
M=$TMP/v1
mkdir "$M/x" || fail mkdir
if [ -f "$SPEC/v1-memcg-dir-listing.txt" ]; then
	# the kernel's files, less the vendor one, plus the emulator's own
	{ grep -v '^memory.shown_ram_in_bytes$' "$SPEC/v1-memcg-dir-listing.txt"
	  echo memcgfs.workload; echo memcgfs.workload_stat; echo memcgfs.charge; } |
		LC_ALL=C sort > "$TMP/want"
	ls "$M/x" | LC_ALL=C sort > "$TMP/got"
	diff -u "$TMP/want" "$TMP/got" || fail "v1 child file set"
fi
if [ -f "$SPEC/v1-memcg-files.tsv" ]; then
	tab=$(printf '\t')
	while IFS="$tab" read -r mode name first; do
		[ "$name" = memory.shown_ram_in_bytes ] && continue
		expect "mode of $name" "$(stat -c %A "$M/x/$name")" "$mode"
		case $mode in
		-r*)
			got=$(head -c 300 "$M/x/$name" 2>&1 | tr '\n' '|' | sed "s#$M/x/##")
			case $got in "$first"*) ;; *) fail "$name starts '$got', want '$first'" ;; esac
			;;
		esac
	done < "$SPEC/v1-memcg-files.tsv"
fi
# the root: the same files plus cgroup.sane_behavior and release_agent, and
# the emulator's memcgfs.flush_stats, memcgfs.read_stats, memcgfs.clock,
# memcgfs.accuracy, memcgfs.trace, memcgfs.lock_stat, memcgfs.audit and
# memcgfs.proc_cgroups
listing "$M/x" > "$TMP/child"
{ cat "$TMP/child"; echo "-r--r--r-- cgroup.sane_behavior"; echo "-rw-r--r-- release_agent"
  echo "-r--r--r-- memcgfs.flush_stats"; echo "-r--r--r-- memcgfs.read_stats"
  echo "-rw-r--r-- memcgfs.clock"; echo "-rw-r--r-- memcgfs.accuracy"
  echo "-rw-r--r-- memcgfs.trace"; echo "-rw-r--r-- memcgfs.lock_stat"
  echo "-r-------- memcgfs.audit"; echo "-r--r--r-- memcgfs.proc_cgroups"; } |
	sort -k2 > "$TMP/want"
listing "$M" | sort -k2 > "$TMP/got"
diff -u "$TMP/want" "$TMP/got" || fail "v1 root file set"
expect "sane_behavior" "$(cat "$M/cgroup.sane_behavior")" 0
expect "release_agent" "$(od -An -c "$M/release_agent" | tr -d ' ')" '\n'
expect "child dir mode" "$(stat -c %A "$M/x")" drwxr-xr-x
expect "v1 workload" "$(sed -n 1p "$M/x/memcgfs.workload")" "anon=0"

mount_fs "$TMP/v2"
M=$TMP/v2
mkdir "$M/x" || fail mkdir
cat > "$TMP/want" <<'LIST'
-r--r--r-- cgroup.controllers
-r--r--r-- cgroup.events
-rw-r--r-- cgroup.freeze
--w------- cgroup.kill
-rw-r--r-- cgroup.max.depth
-rw-r--r-- cgroup.max.descendants
-rw-r--r-- cgroup.pressure
-rw-r--r-- cgroup.procs
-r--r--r-- cgroup.stat
-r--r--r-- cgroup.stat.local
-rw-r--r-- cgroup.subtree_control
-rw-r--r-- cgroup.threads
-rw-r--r-- cgroup.type
-rw-r--r-- cpu.pressure
-r--r--r-- cpu.stat
-r--r--r-- cpu.stat.local
-rw-r--r-- io.max
-rw-r--r-- io.pressure
-r--r--r-- io.stat
-rw-r--r-- io.weight
--w------- memcgfs.charge
-rw-r--r-- memcgfs.workload
-r--r--r-- memcgfs.workload_stat
-r--r--r-- memory.current
-r--r--r-- memory.events
-r--r--r-- memory.events.local
-rw-r--r-- memory.high
-rw-r--r-- memory.low
-rw-r--r-- memory.max
-rw-r--r-- memory.min
-r--r--r-- memory.numa_stat
-rw-r--r-- memory.oom.group
-rw-r--r-- memory.peak
-rw-r--r-- memory.pressure
--w------- memory.reclaim
-r--r--r-- memory.stat
-r--r--r-- memory.swap.current
-r--r--r-- memory.swap.events
-rw-r--r-- memory.swap.high
-rw-r--r-- memory.swap.max
-rw-r--r-- memory.swap.peak
-r--r--r-- memory.zswap.current
-rw-r--r-- memory.zswap.max
-rw-r--r-- memory.zswap.writeback
LIST
listing "$M/x" > "$TMP/got"
diff -u "$TMP/want" "$TMP/got" || fail "v2 child file set"
cp "$TMP/want" "$TMP/want-7.3"
cat > "$TMP/want" <<'LIST'
-r--r--r-- cgroup.controllers
-rw-r--r-- cgroup.max.depth
-rw-r--r-- cgroup.max.descendants
-rw-r--r-- cgroup.pressure
-rw-r--r-- cgroup.procs
-r--r--r-- cgroup.stat
-rw-r--r-- cgroup.subtree_control
-rw-r--r-- cgroup.threads
-rw-r--r-- cpu.pressure
-r--r--r-- cpu.stat
-r--r--r-- cpu.stat.local
-rw-r--r-- io.cost.model
-rw-r--r-- io.cost.qos
-rw-r--r-- io.pressure
-r--r--r-- io.stat
-rw-r--r-- memcgfs.accuracy
-r-------- memcgfs.audit
--w------- memcgfs.charge
-rw-r--r-- memcgfs.clock
-r--r--r-- memcgfs.flush_stats
-rw-r--r-- memcgfs.lock_stat
-r--r--r-- memcgfs.proc_cgroups
-r--r--r-- memcgfs.read_stats
-rw-r--r-- memcgfs.trace
-rw-r--r-- memcgfs.workload
-r--r--r-- memcgfs.workload_stat
-r--r--r-- memory.numa_stat
-rw-r--r-- memory.pressure
--w------- memory.reclaim
-r--r--r-- memory.stat
-rw-r--r-- memory.zswap.writeback
LIST
listing "$M" > "$TMP/got"
diff -u "$TMP/want" "$TMP/got" || fail "v2 root file set"
# The kernel's v2 root is dr-xr-xr-x, as the v1 root (Linux 6.18).
expect "root dir mode" "$FS_ROOT_MODE" dr-xr-xr-x

# values of an empty v2 cgroup
expect controllers "$(cat "$M/x/cgroup.controllers")" "io memory"
expect subtree_control "$(wc -c < "$M/x/cgroup.subtree_control")" 0
expect type "$(cat "$M/x/cgroup.type")" domain
expect events "$(cat "$M/x/cgroup.events" | tr '\n' '|')" "populated 0|frozen 0|"
expect max.depth "$(cat "$M/x/cgroup.max.depth")" max
expect memory.max "$(cat "$M/x/memory.max")" max
expect memory.high "$(cat "$M/x/memory.high")" max
expect memory.low "$(cat "$M/x/memory.low")" 0
expect memory.current "$(cat "$M/x/memory.current")" 0
expect memory.peak "$(cat "$M/x/memory.peak")" 0
# memory.peak per fd (peak_write(), peak_show()): a written fd follows the
# local watermark from its write; another fd's write starts that again from
# the usage, raising its peers only to that; an fd never written shows the
# global watermark
expect "memory.peak per fd" "$("$SEQREAD" "$M/x/memory.peak" w:reset p:32:0 \
	"x:echo 'anon 8M' > $M/x/memcgfs.charge" p:32:0 \
	"x:echo 'anon -8M' > $M/x/memcgfs.charge" p:32:0 \
	"x:$SEQREAD $M/x/memory.peak w:reset > /dev/null" p:32:0 | tr -d '[]' | tr -s '\n' ' ')" \
	"+5 0 8388608 8388608 0 "
expect "memory.peak global" "$(cat "$M/x/memory.peak")" 8388608
expect swap.max "$(cat "$M/x/memory.swap.max")" max
expect zswap.max "$(cat "$M/x/memory.zswap.max")" max
expect oom.group "$(cat "$M/x/memory.oom.group")" 0
# 7.3 __memory_events_show() (mm/memcontrol.c) ends with sock_throttled
expect memory.events "$(cat "$M/x/memory.events" | tr '\n' '|')" \
	"low 0|high 0|max 0|oom 0|oom_kill 0|oom_group_kill 0|sock_throttled 0|"
expect swap.events "$(cat "$M/x/memory.swap.events" | tr '\n' '|')" "high 0|max 0|fail 0|"
expect pressure "$(cat "$M/x/memory.pressure" | tr '\n' '|')" \
	"some avg10=0.00 avg60=0.00 avg300=0.00 total=0|full avg10=0.00 avg60=0.00 avg300=0.00 total=0|"
expect cgroup.stat "$(cat "$M/x/cgroup.stat" | tr '\n' '|')" \
	"nr_descendants 0|nr_subsys_io 1|nr_subsys_memory 1|nr_dying_descendants 0|nr_dying_subsys_io 0|nr_dying_subsys_memory 0|"
# memory.events of older kernels (__memory_events_show(), mm/memcontrol.c):
# 6.1 and 6.12 stop at oom_group_kill, 5.10 at oom_kill.
mount_fs "$TMP/v2-61" --kernel=6.1
mkdir "$TMP/v2-61/x" || fail mkdir
expect "6.1 memory.events" "$(cat "$TMP/v2-61/x/memory.events" | tr '\n' '|')" \
	"low 0|high 0|max 0|oom 0|oom_kill 0|oom_group_kill 0|"
expect "6.1 memory.events.local" "$(cat "$TMP/v2-61/x/memory.events.local" | tr '\n' '|')" \
	"low 0|high 0|max 0|oom 0|oom_kill 0|oom_group_kill 0|"
mount_fs "$TMP/v2-510" --kernel=5.10
mkdir "$TMP/v2-510/x" || fail mkdir
expect "5.10 memory.events" "$(cat "$TMP/v2-510/x/memory.events" | tr '\n' '|')" \
	"low 0|high 0|max 0|oom 0|oom_kill 0|"
expect "5.10 swap.events" "$(cat "$TMP/v2-510/x/memory.swap.events" | tr '\n' '|')" \
	"high 0|max 0|fail 0|"
# Each kernel's v2 file set: 7.3's less what that version's
# cgroup_base_files[], cgroup_psi_files[] (kernel/cgroup/cgroup.c),
# memory_files[], swap_files[] and zswap_files[] (mm/memcontrol.c) lack.
# 6.12: no cgroup.stat.local; 6.1: no memory.swap.peak,
# memory.zswap.writeback, cpu.stat.local either, and a read-only
# memory.peak; 5.10: no cgroup.kill,
# cgroup.pressure, memory.peak, memory.reclaim, memory.swap.peak, zswap files.
mount_fs "$TMP/v2-612" --kernel=6.12
mkdir "$TMP/v2-612/x" || fail mkdir
for k in 6.12 6.1 5.10; do
	case $k in
	6.12) drop=' cgroup\.stat\.local$' ;;
	6.1) drop=' cgroup\.stat\.local$| cpu\.stat\.local$| memory\.swap\.peak$| memory\.zswap\.writeback$' ;;
	5.10) drop=' cgroup\.stat\.local$| cpu\.stat\.local$| cgroup\.kill$| cgroup\.pressure$| memory\.peak$| memory\.reclaim$| memory\.swap\.peak$| memory\.zswap\.' ;;
	esac
	grep -Ev "$drop" "$TMP/want-7.3" > "$TMP/want"
	# memory.peak is read-only before 6.12 (no peak_write())
	[ $k = 6.1 ] && sed -i 's/^-rw-r--r-- memory\.peak$/-r--r--r-- memory.peak/' "$TMP/want"
	listing "$TMP/v2-$(echo $k | tr -d .)/x" > "$TMP/got"
	diff -u "$TMP/want" "$TMP/got" || fail "$k v2 child file set"
done
# A release between two layouts has its own release's files, not its
# layout's: 6.18 (6.12's memory.stat) has cgroup.stat.local (the kernel the
# differential test ran), 6.17 not; 5.19 (5.15's memory.stat) has
# memory.reclaim, memory.peak and the zswap files of 5.19, 5.18 not.
for k in 6.17 6.18 5.18 5.19; do
	mount_fs "$TMP/v2-$k" --kernel=$k
	mkdir "$TMP/v2-$k/x" || fail mkdir
	listing "$TMP/v2-$k/x" | grep -E ' cgroup\.stat\.local$| memory\.peak$| memory\.reclaim$| memory\.zswap\.(current|max)$' |
		awk '{print $2}' | tr '\n' ' ' > "$TMP/got"
	case $k in
	6.17) want="memory.peak memory.reclaim memory.zswap.current memory.zswap.max " ;;
	6.18) want="cgroup.stat.local memory.peak memory.reclaim memory.zswap.current memory.zswap.max " ;;
	5.18) want="" ;;
	5.19) want="memory.peak memory.reclaim memory.zswap.current memory.zswap.max " ;;
	esac
	expect "$k files of its release" "$(cat "$TMP/got")" "$want"
done
expect "7.3 zswap.writeback" "$(cat "$M/x/memory.zswap.writeback")" 1
expect "7.3 zswap.writeback 2" "$(err write "$M/x/memory.zswap.writeback" 2)" EINVAL
expect "7.3 zswap.writeback 0x0" "$(err write "$M/x/memory.zswap.writeback" 0x0)" OK
expect "7.3 zswap.writeback read" "$(cat "$M/x/memory.zswap.writeback")" 0
expect "7.3 root zswap.writeback" "$(cat "$M/memory.zswap.writeback")" 1
expect "6.1 cgroup.stat" "$(cat "$TMP/v2-61/x/cgroup.stat" | tr '\n' '|')" \
	"nr_descendants 0|nr_dying_descendants 0|"
# v1 modes that follow the version (cgroup_file_mode()): cgroup.event_control
# is CFTYPE_WORLD_WRITABLE in the 5.10, 6.1 and 6.12 sources, 0200 in 7.3's
# (checked above against the 6.18 host); memory.pressure_level has no
# handler in 5.10 and 6.1 (mode 0), a dummy seq_show from 6.12 on (0444), and
# a read of it is EINVAL
for k in 5.10 6.1; do
	mount_fs "$TMP/v1-$k" --kernel=$k --hierarchy=v1
	mkdir "$TMP/v1-$k/x" || fail mkdir
	expect "$k event_control mode" "$(stat -c %A "$TMP/v1-$k/x/cgroup.event_control")" \
		--w--w--w-
	expect "$k pressure_level mode" "$(stat -c %A "$TMP/v1-$k/x/memory.pressure_level")" \
		----------
	# (root passes the mode by CAP_DAC_OVERRIDE, others do not)
	expect "$k pressure_level read" "$(err read "$TMP/v1-$k/x/memory.pressure_level")" \
		"$([ "$(id -u)" -eq 0 ] && echo EINVAL || echo EACCES)"
done
# 6.12 with v1 (mem_cgroup_legacy_files[] of 6.12's mm/memcontrol-v1.c, built
# with CONFIG_MEMCG_V1=y for a v1 mount, though Debian builds it without)
mount_fs "$TMP/v1-612" --kernel=6.12 --hierarchy=v1
mkdir "$TMP/v1-612/x" || fail mkdir
expect "6.12 event_control mode" "$(stat -c %A "$TMP/v1-612/x/cgroup.event_control")" --w--w--w-
expect "6.12 pressure_level mode" "$(stat -c %A "$TMP/v1-612/x/memory.pressure_level")" -r--r--r--
fusermount3 -u "$TMP/v1-612" || fail "umount 6.12 v1"

# CONFIG_MEMCG_V1 on v2 (kernel.c, debian_configs[]): Debian's 7.3 is built
# without it, memcg_v1=y with it.  memory.stat prints the same keys either
# way, without pgpgin/pgpgout: memcg_stat_format() (7.3 mm/memcontrol.c)
# skips the two events memcg_vm_event_stat[] has only "#ifdef
# CONFIG_MEMCG_V1".  What differs is a child's own memory, charged to its
# parent's percpu (mem_cgroup_alloc()): with it, memcg1_alloc_events()
# (mm/memcontrol-v1.c) allocates struct memcg1_events_percpu, 24 bytes per
# CPU, and struct memcg_vmstats_percpu holds 2 events more (16 bytes each,
# 1344 bytes per CPU instead of 1280 after its cache-line rounding); each
# per-CPU area also charges an obj_cgroup pointer per 4 bytes
# (pcpu_obj_full_size()): 2 x (24 + 64) + (24 + 64) / 4 x 8 = 352 bytes
# more with 2 CPUs.
percpu_of() {	# KERNEL OPTIONS...: p's percpu with one child c, 2 CPUs
	m=$TMP/pc$#
	mount_fs "$m" --cpus=2 --flush_period_ms=50 "$@"
	mkdir "$m/p" || fail "mkdir p"
	echo +memory > "$m/p/cgroup.subtree_control" || fail "+memory"
	mkdir "$m/p/c" || fail "mkdir p/c"
	sleep 0.3	# periodic flushes
	grep -c '^pgpg' "$m/p/memory.stat" > "$TMP/pgpg"
	cut -d' ' -f1 "$m/p/memory.stat" > "$TMP/keys$#"
	awk '$1 == "percpu" { print $2 }' "$m/p/memory.stat"
	rmdir "$m/p/c" "$m/p" || fail "rmdir p"
	fusermount3 -u "$m" || fail "umount $*"
	wait "$FS_PID"
}
off=$(percpu_of --kernel=7.3)
expect "v2 pgpgin/pgpgout without CONFIG_MEMCG_V1" "$(cat "$TMP/pgpg")" 0
on=$(percpu_of --kernel=7.3 --memcg_v1=y)
expect "v2 pgpgin/pgpgout with CONFIG_MEMCG_V1" "$(cat "$TMP/pgpg")" 0
cmp -s "$TMP/keys1" "$TMP/keys2" || fail "memory.stat keys differ with memcg_v1=y"
[ "$off" -gt 0 ] || fail "no percpu charged for a child: $off"
expect "percpu of memcg1_events_percpu and 2 events" "$((on - off))" 352
expect "memcg_v1=n is 7.3's default" "$(percpu_of --kernel=7.3 -o memcg_v1=n)" "$off"
# 6.12: the same structures (6.12 mm/memcontrol.c), but with its 38 states
# struct memcg_vmstats_percpu rounds to 1088 bytes with 25 events or 27: only
# memcg1_events_percpu differs, 2 x 24 + 24 / 4 x 8 = 96 bytes
off=$(percpu_of --kernel=6.12)
on=$(percpu_of --kernel=6.12 -o memcg_v1=y)
expect "6.12 percpu with memcg_v1=y" "$((on - off))" 96

# CONFIG_LRU_GEN_ENABLED (kernel.c, debian_configs[]): reclaim and refault
# flush with the classic LRU and never with the multi-gen LRU
# (prepare_scan_control() of mm/vmscan.c and workingset_test_recent() of
# mm/workingset.c return before their flush in 6.12 and 7.3, as
# prepare_scan_count() and workingset_refault() do in 6.1).  A file reader
# over its limit reclaims and refaults; on the manual clock 10 s pass, and
# with no periodic flush the ratelimited flushes are late from 4 s on.
# Whatever the LRU, the shadow-node shrinker's count_shadow_nodes()
# flushes in each memcg reclaim (6.12, 7.3: ratelimited; 6.1 sums its
# locals per CPU and flushes nothing).
flushes_of() {	# OPTIONS...: "reclaim refault shadow_count" flushes
	m=$TMP/lg$#
	mount_fs "$m" --clock=manual --random_seed=1 --cpus=2 --flush_period_ms=0 "$@"
	mkdir "$m/a" || fail "mkdir a"
	echo 16M > "$m/a/memory.max" || fail "memory.max"
	echo "file_read=20000 footprint=64M" > "$m/a/memcgfs.workload" || fail workload
	echo 10s > "$m/memcgfs.clock" || fail clock
	[ "$(awk '$1 == "workingset_refault_file" { print $2 }' "$m/a/memory.stat")" -gt 0 ] ||
		fail "$*: no refaults"
	awk '$1 == "reclaim" { r = $2 } $1 == "refault" { f = $2 } $1 == "shadow_count" { s = $2 }
		END { print r, f, s }' "$m/memcgfs.flush_stats"
	fusermount3 -u "$m" || fail "umount $*"
	wait "$FS_PID"
}
for opts in "--kernel=7.3" "--kernel=7.3 --lru_gen=y" "--kernel=6.12" "--kernel=6.1 --lru_gen=y"; do
	set -- $(flushes_of $opts)
	expect "flushes with the multi-gen LRU ($opts)" "$1 $2" "0 0"
	case $opts in
	*=6.1\ *) expect "6.1's count_shadow_nodes() flushes ($opts)" "$3" 0 ;;
	*) [ "$3" -gt 0 ] || fail "$opts: no count_shadow_nodes() flush" ;;
	esac
done
# With the classic LRU reclaim flushes at the start of each pass
# (prepare_scan_control()) and count_shadow_nodes() after each memcg: both
# ratelimited and thresholded, so whichever comes first after the
# threshold is crossed flushes (tests/check_engine.c and check_rstat.c
# take each alone).
for opts in "--kernel=7.3 --lru_gen=n" "-o kernel=6.12,lru_gen=n"; do
	set -- $(flushes_of $opts)
	[ "$(($1 + $3))" -gt 0 ] && [ "$2" -gt 0 ] ||
		fail "classic LRU ($opts): reclaim $1, refault $2, shadow count $3 flushes"
done
# Seed 000's patch adds the flush to count_shadow_nodes() (its after keeps
# the locals flushed)
set -- $(flushes_of --seed=000:after --lru_gen=y)
[ "$3" -gt 0 ] || fail "seed 000 after: no count_shadow_nodes() flush"
set -- $(flushes_of --seed=000:before --lru_gen=y)
expect "seed 000 before: count_shadow_nodes() flushes" "$3" 0
# Dirty throttling looks at the memcg every 32 pages a task dirties
# (mem_cgroup_wb_stats(): 6.1 thresholded, 6.12 and 7.3 ratelimited): a
# writer alone, 10 s on the manual clock, no periodic flush; a v1
# hierarchy has no cgroup writeback, so no memcg domain to look at.
dirty_flushes_of() {	# OPTIONS...: dirty_throttle flushes
	m=$TMP/dt$#
	mount_fs "$m" --clock=manual --random_seed=1 --cpus=2 --flush_period_ms=0 "$@"
	mkdir "$m/a" || fail "mkdir a"
	echo "file_write=2000 footprint=64M" > "$m/a/memcgfs.workload" || fail workload
	echo 10s > "$m/memcgfs.clock" || fail clock
	awk '$1 == "dirty_throttle" { print $2 }' "$m/memcgfs.flush_stats"
	fusermount3 -u "$m" || fail "umount $*"
	wait "$FS_PID"
}
for opts in --kernel=7.3 --kernel=6.12 --kernel=6.1; do
	[ "$(dirty_flushes_of $opts)" -gt 0 ] || fail "$opts: no dirty throttling flush"
done
expect "v1 dirty throttling flushes" "$(dirty_flushes_of --kernel=7.3 --hierarchy=v1)" 0
# 6.1 (Debian: CONFIG_LRU_GEN_ENABLED not set): reclaim's flush is
# mem_cgroup_flush_stats(), thresholded but not rate-limited, of the root;
# its refault's _delayed() waits 2 x FLUSH_TIME after the last root flush,
# which those keep renewing (tests/check_engine.c shows it on its own)
set -- $(flushes_of --kernel=6.1)
[ "$1" -gt 0 ] || fail "classic LRU (6.1): reclaim $1 flushes"
# --accuracy on a manual clock: 7.3 at 8 CPUs flushes a's subtree past
# 8 x 64 pages; the anonymous faults of 100 ms at 1000/s stay under it, so
# a's read shows none of them: each fault's page and pgfault event are
# missing, all of them (100% off), and nothing was ever flushed (its data
# is as old as a);
# 2 s more and the read flushes: exact and new.  Writing 0 resets;
# anything else is EINVAL.
m=$TMP/acc
mount_fs "$m" --clock=manual --random_seed=1 --cpus=8 --flush_period_ms=0 --accuracy
mkdir "$m/a" || fail "mkdir a"
echo "anon=1000 footprint=64M" > "$m/a/memcgfs.workload" || fail workload
echo 100ms > "$m/memcgfs.clock" || fail clock
acc() { awk -v k="$1" '$1 == k { print $2 }' "$m/memcgfs.accuracy"; }
grep -q "^anon 0$" "$m/a/memory.stat" || fail "a's anon flushed under the threshold"
faults=$(awk '$1 == "page_events" { print $2 }' "$m/a/memcgfs.workload_stat")
[ "$faults" -gt 50 ] || fail "$faults faults in 100 ms at 1000/s"
expect "accuracy reads" "$(acc reads)" 1
expect "accuracy error pages" "$(acc error_pages_max)" "$faults"
expect "accuracy error pct" "$(acc error_pct_max)" 100
expect "accuracy age before any flush" "$(acc age_usec_max)" 100000
echo 2s > "$m/memcgfs.clock" || fail clock
cat "$m/a/memory.stat" >/dev/null
expect "accuracy reads" "$(acc reads)" 2
expect "accuracy error p50" "$(acc error_pages_p50)" 0
expect "accuracy age of a flushing read (the smaller)" "$(acc age_usec_p50)" 0
expect "accuracy age of the first read (the larger)" "$(acc age_usec_max)" 100000
echo 0 > "$m/memcgfs.accuracy" || fail "accuracy reset"
expect "accuracy reads after a reset" "$(acc reads)" 0
echo 1 > "$m/memcgfs.accuracy" 2>/dev/null && fail "accuracy accepted 1"
fusermount3 -u "$m" || fail "umount accuracy"
wait "$FS_PID"
# memcgfs.trace on a manual clock, 7.3 at 2 CPUs (threshold 128 pages,
# periodic flush every 2 s): a read 10 ms in finds nothing published and
# skips; one 500 ms later flushes a's 2 (memcg, CPU) pairs; the periodic
# flush at 2 s forces the root's.  Each flush takes the memory tree's lock
# once per CPU (css_rstat_flush()), traced by the kernel's names with
# cpu_in_loop the CPU; 7.3's lockless updater takes no CPU lock, so none
# of those is traced.  Off, it records nothing more.
m=$TMP/trace
mount_fs "$m" --clock=manual --random_seed=1 --cpus=2
echo 1 > "$m/memcgfs.trace" || fail "trace on"
mkdir "$m/a" || fail "mkdir a"
echo "anon=1000 footprint=64M" > "$m/a/memcgfs.workload" || fail workload
echo 10ms > "$m/memcgfs.clock" || fail clock
cat "$m/a/memory.stat" >/dev/null
echo 500ms > "$m/memcgfs.clock" || fail clock
cat "$m/a/memory.stat" >/dev/null
echo 1490ms > "$m/memcgfs.clock" || fail clock
echo 0 > "$m/memcgfs.trace" || fail "trace off"
cat "$m/a/memory.stat" >/dev/null
sed 1d "$m/memcgfs.trace" > "$TMP/trace.txt"
expect "trace records" "$(wc -l < "$TMP/trace.txt")" 11
expect "trace header" "$(head -n 1 "$m/memcgfs.trace")" "# tracing off; 11 records, 0 dropped"
a_id=$(sed -n 's/^0\.010000: memcg_flush_stats: memcg_id=\([0-9]*\) .*/\1/p' "$TMP/trace.txt")
expect "trace: the rstat lock events" "$(grep rstat "$TMP/trace.txt")" \
"0.510000: cgroup_rstat_locked: root=0 id=$a_id level=1 cpu=0 lock contended:0
0.510000: cgroup_rstat_unlock: root=0 id=$a_id level=1 cpu=0 lock contended:0
0.510000: cgroup_rstat_locked: root=0 id=$a_id level=1 cpu=1 lock contended:0
0.510000: cgroup_rstat_unlock: root=0 id=$a_id level=1 cpu=1 lock contended:0
2.000000: cgroup_rstat_locked: root=0 id=1 level=0 cpu=0 lock contended:0
2.000000: cgroup_rstat_unlock: root=0 id=1 level=0 cpu=0 lock contended:0
2.000000: cgroup_rstat_locked: root=0 id=1 level=0 cpu=1 lock contended:0
2.000000: cgroup_rstat_unlock: root=0 id=1 level=0 cpu=1 lock contended:0"
grep -q "^0\.010000: memcg_flush_stats: memcg_id=[0-9]* stats_updates=0 force=0 needs_flush=0 trigger=read file=memory.stat flushed=0 reason=below_threshold pairs=0 usec=0\.000$" \
	"$TMP/trace.txt" || fail "trace: the skipped read: $(cat "$TMP/trace.txt")"
grep -q "^0\.510000: memcg_flush_stats: memcg_id=[0-9]* stats_updates=[0-9]* force=0 needs_flush=1 trigger=read file=memory.stat flushed=1 reason=- pairs=2 usec=" \
	"$TMP/trace.txt" || fail "trace: the flushing read: $(cat "$TMP/trace.txt")"
grep -q "^2\.000000: memcg_flush_stats: memcg_id=1 stats_updates=[0-9]* force=1 needs_flush=[01] trigger=periodic file=- flushed=1 reason=- pairs=[0-9]* usec=" \
	"$TMP/trace.txt" || fail "trace: the periodic flush: $(cat "$TMP/trace.txt")"
# memcgfs.lock_stat: off by default, counting once on; 7.3's trees are
# split, so its classes are the kernel's rstat_ss_lock(memory) and
# rstat_base_lock with their per-CPU locks; a read of a's memory.stat
# that flushes takes rstat_ss_lock(memory) once per CPU.
expect "lock_stat off" "$(head -n 1 "$m/memcgfs.lock_stat")" "# lock_stat: counting off; times in usec"
echo 1 > "$m/memcgfs.lock_stat" || fail "lock_stat on"
echo 2s > "$m/memcgfs.clock" || fail clock
cat "$m/a/memory.stat" >/dev/null
awk '$1 == "rstat_ss_lock(memory)" { print $5 }' "$m/memcgfs.lock_stat" > "$TMP/acq"
[ "$(cat "$TMP/acq")" -ge 2 ] || fail "lock_stat: $(cat "$m/memcgfs.lock_stat")"
for c in "rstat_ss_cpu_lock(memory)" rstat_base_lock rstat_base_cpu_lock "rstat_ss_lock(io)" \
	 stats_flush_lock memcg_stock.drain; do
	grep -q "^$c " "$m/memcgfs.lock_stat" || fail "lock_stat: no $c"
done
echo x > "$m/memcgfs.lock_stat" 2>/dev/null && fail "lock_stat accepted x"
# a's cpu.stat (cgroup_base_stat_cputime_show()): the base tree's flush,
# a lock per CPU, then its read under the lock again with cpu_in_loop -1
echo 1 > "$m/memcgfs.trace" || fail "trace on"
cat "$m/a/cpu.stat" >/dev/null
echo 0 > "$m/memcgfs.trace" || fail "trace off"
expect "trace: cpu.stat's locks" \
	"$(sed 1d "$m/memcgfs.trace" | sed 's/^[0-9.]*: //; s/ root=0 id=[0-9]* level=1 / /')" \
"cgroup_rstat_locked: cpu=0 lock contended:0
cgroup_rstat_unlock: cpu=0 lock contended:0
cgroup_rstat_locked: cpu=1 lock contended:0
cgroup_rstat_unlock: cpu=1 lock contended:0
cgroup_rstat_locked: cpu=-1 lock contended:0
cgroup_rstat_unlock: cpu=-1 lock contended:0"
expect "trace 3" "$(err write "$m/memcgfs.trace" 3)" ERANGE
expect "trace x" "$(err write "$m/memcgfs.trace" x)" EINVAL
# memcgfs.audit: what a's workload charged, every page of it still on the
# root's counter or uncharged (mcg_workload_audit()); root's only.
expect "audit keys" "$(cut -d' ' -f1 "$m/memcgfs.audit" | tr '\n' ' ')" \
	"usage stocked charged uncharged objects lost "
[ "$(key_of "$m/memcgfs.audit" charged)" -gt 0 ] || fail "audit: $(cat "$m/memcgfs.audit")"
expect "audit lost" "$(key_of "$m/memcgfs.audit" lost)" 0
fusermount3 -u "$m" || fail "umount trace"
wait "$FS_PID"
echo "PASS: fs-files"
