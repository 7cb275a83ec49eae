#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Derives the per-kernel goldens of tests/golden/kernels/ from kernel source:
# what an empty cgroup and the root print in memory.stat, memory.numa_stat,
# memory.events(.local), memory.swap.events, cgroup.stat, and which files
# their directories hold, for every tabulated release, v1 and v2.
#
#   tests/golden/derive.sh [OUTDIR]      (default: tests/golden/kernels)
#
# 5.10, 6.1, 6.12 and 7.3 are read from Debian's source packages
# (/work/shared/tools/kernel-source VERSION, or $KSRC/VERSION): the
# memory_stats[], memcg_vm_event_stat[], memcg1_stat_names[] and
# memcg1_events[] arrays, the hand-written lines of memory_stat_format()
# (5.10), __memory_events_show(), swap_events_show(), cgroup_stat_show() and
# the cftype arrays, with every #ifdef evaluated under Debian's amd64 config
# (CONFIG_Y below).  CONFIG_MEMCG_V1 (6.11+), unset in Debian's 6.12 and 7.3,
# changes no v2 golden: it adds PGPGIN/PGPGOUT to memcg_vm_event_stat[],
# which memcg_stat_format() skips, and legacy cftypes only.  The v1 goldens
# of 6.12 and 7.3 are of the CONFIG_MEMCG_V1=y build a v1 mount runs (as
# the 6.18 of the captured v1 goldens is built).  5.4, 5.15 and 6.6 have no
# source here: each is the nearest source's lists with the commits between
# them applied, one edit per commit, named where it is made (the same
# commits src/kernel/items.c cites).
#
# The script is run by hand when a kernel is added; the test
# (tests/fs-golden.sh) only compares the committed files with a mount.
set -eu

OUT=${1:-$(dirname "$0")/kernels}
KSRC=${KSRC:-$HOME/.cache/kernel-source}

# Debian's amd64 configuration, for the options these arrays test.
CONFIG_Y="CONFIG_SWAP CONFIG_ZSWAP CONFIG_TRANSPARENT_HUGEPAGE CONFIG_NUMA_BALANCING
CONFIG_NUMA CONFIG_HUGETLB_PAGE CONFIG_MEMCG_KMEM CONFIG_SLUB_DEBUG CONFIG_PSI
CONFIG_CGROUP_WRITEBACK CONFIG_MEMCG_SWAP CONFIG_INET"

src() {
	[ -d "$KSRC/$1" ] || /work/shared/tools/kernel-source "$1" >/dev/null
	echo "$KSRC/$1"
}

# block FILE REGEX [EXTRA_CONFIG]: the lines of the initializer that starts at
# the first line matching REGEX, up to its closing "};", with the
# preprocessor conditionals evaluated under CONFIG_Y (+ EXTRA_CONFIG).
block() {
	awk -v start="$2" -v config="$CONFIG_Y ${3:-}" '
	# A condition of defined() / IS_ENABLED() terms with !, &&, || and
	# parentheses: each term becomes 1 or 0, then the expression is reduced
	# (&& before ||, innermost parentheses first).
	function on(c,   t, old) {
		gsub(/[ \t]/, "", c)
		while (match(c, /(defined|IS_ENABLED)\([A-Z0-9_]*\)/)) {
			t = substr(c, RSTART, RLENGTH)
			sub(/^(defined|IS_ENABLED)\(/, "", t); sub(/\)$/, "", t)
			c = substr(c, 1, RSTART - 1) ((t in y) ? "1" : "0") substr(c, RSTART + RLENGTH)
		}
		do {
			old = c
			gsub(/!1/, "0", c); gsub(/!0/, "1", c)
			gsub(/1&&1/, "1", c); gsub(/0&&[01]/, "0", c); gsub(/1&&0/, "0", c)
			if (c == old) {
				gsub(/1\|\|[01]/, "1", c); gsub(/0\|\|1/, "1", c); gsub(/0\|\|0/, "0", c)
			}
			gsub(/\(1\)/, "1", c); gsub(/\(0\)/, "0", c)
		} while (c != old)
		return c == "1"
	}
	# Joins a conditional continued with backslashes.
	/^#if/ { while ($0 ~ /\\$/ && (getline nxt) > 0) { sub(/\\$/, "", $0); $0 = $0 " " nxt } }
	BEGIN { n = split(config, c, /[ \t\n]+/); for (i = 1; i <= n; i++) y[c[i]] = 1; depth = 0; live[0] = 1 }
	!inside && $0 ~ start { inside = 1 }
	!inside { next }
	/^#ifdef/  { depth++; cond[depth] = ($2 in y); live[depth] = live[depth-1] && cond[depth]; next }
	/^#ifndef/ { depth++; cond[depth] = !($2 in y); live[depth] = live[depth-1] && cond[depth]; next }
	/^#if /    { depth++; c2 = $0; sub(/^#if[ \t]+/, "", c2); cond[depth] = on(c2); live[depth] = live[depth-1] && cond[depth]; next }
	/^#else/   { live[depth] = live[depth-1] && !cond[depth]; next }
	/^#endif/  { depth--; next }
	live[depth] { print }
	/^};/ { exit }
	' "$1"
}

# Quoted names of a block, one a line ("anon", ...), from { "name", or .name = "name".
names() { grep -o '"[a-z0-9_.]*"' | tr -d '"'; }

# vm_event_name() of an enum vm_event_item: its vmstat_text[] string, the
# enum in lower case except where vmstat.c names it otherwise.
event_name() {
	case $1 in
	NUMA_PAGE_MIGRATE) echo numa_pages_migrated ;;
	*) echo "$1" | tr 'A-Z' 'a-z' ;;
	esac
}

# memory_stats[] of SRC: "name idx" lines.
memory_stats() {
	block "$1/mm/memcontrol.c" 'struct memory_stat memory_stats\[\] = \{' |
		sed -n 's/^[ \t]*{ *"\([a-z_]*\)",.*[ \t,]\([A-Z_][A-Z0-9_]*\)[ \t]*},*.*$/\1 \2/p'
}

# memcg_vm_event_stat[] of SRC as enum names, one a line.
vm_event_stat() {
	block "$1/mm/memcontrol.c" 'memcg_vm_event_stat\[\] = \{' "${2:-}" |
		sed -n 's/^[ \t]*\([A-Z_][A-Z0-9_]*\),.*$/\1/p'
}

# v2 memory.stat keys of a kernel with memory_stats[] and memcg_vm_event_stat[]
# (6.1 on): memcg_stat_format() - the rows (hugetlb only with the
# memory_hugetlb_accounting mount option, off here), "slab" after
# slab_unreclaimable, "pgscan", "pgsteal", the events less PGPGIN/PGPGOUT.
v2_keys_loop() {	# STATS_FILE EVENTS_FILE
	while read -r name idx; do
		[ "$idx" = NR_HUGETLB ] && continue
		echo "$name"
		[ "$idx" = NR_SLAB_UNRECLAIMABLE_B ] && echo slab
	done < "$1"
	echo pgscan
	echo pgsteal
	while read -r ev; do
		case $ev in PGPGIN|PGPGOUT) continue ;; esac
		event_name "$ev"
	done < "$2"
}

# v2 numa_stat keys: the memory_stats[] rows of node items (memory_numa_stat_show()
# skips idx >= NR_VM_NODE_STAT_ITEMS, i.e. the MEMCG_* items).
numa_keys() {
	while read -r name idx; do
		case $idx in MEMCG_*) continue ;; esac
		echo "$name"
	done < "$1"
}

# The hand-written event lines of 5.10's memory_stat_format(), after its loop.
v2_tail_5_10() {
	block "$1/mm/memcontrol.c" '^static char \*memory_stat_format' |
		sed -n '/Accumulated memory events/,$p' |
		sed -n 's/.*"\(pg[a-z]*\) %lu.*/\1/p; s/.*vm_event_name(\([A-Z_]*\)).*/\1/p' |
		while read -r w; do
			case $w in [A-Z]*) event_name "$w" ;; *) echo "$w" ;; esac
		done
}

# memcg1_stat_names[] and memcg1_events[] of SRC (FILE: memcontrol.c or -v1.c).
v1_names() { block "$1" 'memcg1_stat_names\[\] = \{' | names; }
v1_events() {
	block "$1" 'memcg1_events\[\] = \{' | sed -n 's/^[ \t]*\([A-Z_]*\),.*$/\1/p' |
		while read -r ev; do event_name "$ev"; done
}

# The lines of __memory_events_show() / swap_events_show(): "low", "high" ...
events_show() {
	awk -v fn="$2" '$0 ~ fn"\\(" && /^static/ { on = 1 } on { print } on && /^}/ { exit }' "$1" |
		sed -n 's/.*"\([a-z_]*\) %lu.*/\1/p'
}

# cftype names of an array of FILE, with their flags: "name NOT_ON_ROOT|-".
cftypes() {
	block "$1" "$2" | awk '
		/\.name *=/ { if (name != "") print name, flag; match($0, /"[^"]*"/); name = substr($0, RSTART+1, RLENGTH-2); flag = "-" }
		/CFTYPE_NOT_ON_ROOT/ { flag = "NOT_ON_ROOT" }
		/CFTYPE_ONLY_ON_ROOT/ { flag = "ONLY_ON_ROOT" }
		END { if (name != "") print name, flag }'
}

zeros() { sed 's/$/ 0/'; }

# v1 memory.stat of an empty cgroup (memcg1_stat_format()): the local block,
# the two limits, the total_ block; LRU lines are lru_list_name() order.
v1_stat() {	# NAMES_FILE EVENTS_FILE
	{ cat "$1" "$2"; printf '%s\n' inactive_anon active_anon inactive_file active_file unevictable; } > "$TMPD/v1keys"
	zeros < "$TMPD/v1keys"
	echo "hierarchical_memory_limit 9223372036854771712"
	echo "hierarchical_memsw_limit 9223372036854771712"
	sed 's/^/total_/; s/$/ 0/' "$TMPD/v1keys"
}

# v1 numa_stat (memcg_numa_stat_show()) of an empty cgroup on one node.
v1_numa() {
	for s in total file anon unevictable; do echo "$s=0 N0=0"; done
	for s in total file anon unevictable; do echo "hierarchical_$s=0 N0=0"; done
}

# The v2 core files, "name flag": cgroup_base_files[] and (from 6.1)
# cgroup_psi_files[] of SRC's kernel/cgroup/cgroup.c, under Debian's config
# (no CONFIG_IRQ_TIME_ACCOUNTING: no irq.pressure); then the io
# controller's files: io.stat (blkcg_files[], block/blk-cgroup.c), io.max
# (throtl_files[], blk-throttle.c) and ioc_files[] of blk-iocost.c read
# with their flags (io.weight not on the root, io.cost.qos and
# io.cost.model only there; CONFIG_BLK_CGROUP_IOCOST=y in Debian);
# io.latency and io.prio.class need options Debian leaves unset, io.bfq.* a
# loaded module.
core_files() {	# SRC
	cftypes "$1/kernel/cgroup/cgroup.c" 'static struct cftype cgroup_base_files\[\] = \{'
	if grep -q 'static struct cftype cgroup_psi_files\[\] = {' "$1/kernel/cgroup/cgroup.c"; then
		cftypes "$1/kernel/cgroup/cgroup.c" 'static struct cftype cgroup_psi_files\[\] = \{'
	fi
	printf '%s\n' "io.stat -" "io.max NOT_ON_ROOT"
	cftypes "$1/block/blk-iocost.c" 'static struct cftype ioc_files\[\] = \{' | sed 's/^/io./'
}

# memory_files[], swap_files[], zswap_files[] of SRC as "memory.NAME flag".
memory_files() {
	for a in memory_files swap_files zswap_files; do
		grep -q "static struct cftype $a\[\]" "$1/mm/memcontrol.c" || continue
		cftypes "$1/mm/memcontrol.c" "static struct cftype $a\\[\\] = \\{" | sed 's/^/memory./'
	done
}

# The v1 files: mem_cgroup_legacy_files[] and memsw_files[] as memory.NAME
# (cgroup.event_control keeps its name), cgroup1_base_files[] of
# kernel/cgroup/cgroup-v1.c as they are (CFTYPE_NO_PREFIX).
v1_files() {	# SRC LEGACY_FILE
	cftypes "$2" 'mem_cgroup_legacy_files\[\] = \{' | sed 's/^/memory./; s/^memory\.cgroup\./cgroup./'
	cftypes "$2" 'memsw_files\[\] = \{' | sed 's/^/memory./'
	cftypes "$1/kernel/cgroup/cgroup-v1.c" 'cgroup1_base_files\[\] = \{'
}

# Directory listings of the memcg and the root from "name flag" lines.
listings() {	# FILES PREFIX
	grep -v ' ONLY_ON_ROOT$' "$1" | cut -d' ' -f1 | LC_ALL=C sort > "$2-memcg.ls"
	grep -v ' NOT_ON_ROOT$' "$1" | cut -d' ' -f1 | LC_ALL=C sort > "$2-root.ls"
}

# cgroup.stat of an empty cgroup (CHILD=1) or of the root above one child,
# cgroup_stat_show(): two counts up to 6.6, with per-subsystem lines for the
# io and memory controllers memcgfs binds since (read from the source).
cgroup_stat() {	# SRC|'' PREFIX
	if [ -n "$1" ] && grep -q nr_subsys_ "$1/kernel/cgroup/cgroup.c"; then
		printf 'nr_descendants 0\nnr_subsys_io 1\nnr_subsys_memory 1\nnr_dying_descendants 0\nnr_dying_subsys_io 0\nnr_dying_subsys_memory 0\n' > "$2-memcg.cgroup.stat"
		printf 'nr_descendants 1\nnr_subsys_io 2\nnr_subsys_memory 2\nnr_dying_descendants 0\nnr_dying_subsys_io 0\nnr_dying_subsys_memory 0\n' > "$2-root.cgroup.stat"
	else
		printf 'nr_descendants 0\nnr_dying_descendants 0\n' > "$2-memcg.cgroup.stat"
		printf 'nr_descendants 1\nnr_dying_descendants 0\n' > "$2-root.cgroup.stat"
	fi
}

# Writes one release's v2 goldens from its key lists in $TMPD.
write_v2() {	# DIR ROOT_HAS_STAT(yes|no) HAS_NUMA(yes|no)
	zeros < "$TMPD/v2keys" > "$1/v2-memcg.memory.stat"
	[ "$2" = yes ] && cp "$1/v2-memcg.memory.stat" "$1/v2-root.memory.stat"
	if [ "$3" = yes ]; then
		sed 's/$/ N0=0/' "$TMPD/numakeys" > "$1/v2-memcg.memory.numa_stat"
		cp "$1/v2-memcg.memory.numa_stat" "$1/v2-root.memory.numa_stat"
	fi
	zeros < "$TMPD/events" > "$1/v2-memcg.memory.events"
	cp "$1/v2-memcg.memory.events" "$1/v2-memcg.memory.events.local"
	zeros < "$TMPD/swapevents" > "$1/v2-memcg.memory.swap.events"
	listings "$TMPD/v2files" "$1/v2"
}

write_v1() {	# DIR
	v1_stat "$TMPD/v1names" "$TMPD/v1events" > "$1/v1-memcg.memory.stat"
	cp "$1/v1-memcg.memory.stat" "$1/v1-root.memory.stat"
	v1_numa > "$1/v1-memcg.memory.numa_stat"
	cp "$1/v1-memcg.memory.numa_stat" "$1/v1-root.memory.numa_stat"
	listings "$TMPD/v1files" "$1/v1"
}

TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# ---- Releases read from source ------------------------------------------------

for ver in 5.10 6.1 6.12 7.3; do
	S=$(src "$ver")
	D=$OUT/$ver
	rm -rf "$D"
	mkdir -p "$D"
	memory_stats "$S" > "$TMPD/stats"
	if [ "$ver" = 5.10 ]; then
		{ while read -r name idx; do
			echo "$name"
			[ "$idx" = NR_SLAB_UNRECLAIMABLE_B ] && echo slab
		  done < "$TMPD/stats"
		  v2_tail_5_10 "$S"; } > "$TMPD/v2keys"
	else
		extra=
		[ "$ver" = 7.3 ] && extra=CONFIG_MEMCG_V1
		vm_event_stat "$S" "$extra" > "$TMPD/vmev"
		v2_keys_loop "$TMPD/stats" "$TMPD/vmev" > "$TMPD/v2keys"
	fi
	numa_keys "$TMPD/stats" > "$TMPD/numakeys"
	events_show "$S/mm/memcontrol.c" __memory_events_show > "$TMPD/events"
	events_show "$S/mm/memcontrol.c" swap_events_show > "$TMPD/swapevents"
	{ core_files "$S"; memory_files "$S"; } > "$TMPD/v2files"
	write_v2 "$D" yes yes
	cgroup_stat "$S" "$D/v2"
	cp "$TMPD/v2keys" "$TMPD/v2keys.$ver"
	cp "$TMPD/stats" "$TMPD/stats.$ver"
	cp "$TMPD/v2files" "$TMPD/v2files.$ver"
	cp "$TMPD/events" "$TMPD/events.$ver"
	cp "$TMPD/swapevents" "$TMPD/swapevents.$ver"
	[ "$ver" = 5.10 ] || cp "$TMPD/vmev" "$TMPD/vmev.$ver"

	# v1: 6.12 and 7.3 built with CONFIG_MEMCG_V1=y (mm/memcontrol-v1.c).
	L=$S/mm/memcontrol.c
	[ -f "$S/mm/memcontrol-v1.c" ] && L=$S/mm/memcontrol-v1.c
	v1_names "$L" > "$TMPD/v1names"
	v1_events "$L" > "$TMPD/v1events"
	v1_files "$S" "$L" > "$TMPD/v1files"
	write_v1 "$D"
	for f in v1names v1events v1files; do cp "$TMPD/$f" "$TMPD/$f.$ver"; done
done

# ---- 6.6: 6.1's lists and the commits of 6.2 to 6.6 ----------------------------
# (each edit checked against a 6.6.14 mm/memcontrol.c found in the tool library)

D=$OUT/6.6; rm -rf "$D"; mkdir -p "$D"
# memory_stats[]: unchanged (no pgdemote_*/pgpromote_success rows yet).
cp "$TMPD/stats.6.1" "$TMPD/stats"
# memcg_vm_event_stat[]: 57e9cc50f4dd "mm: vmscan: split khugepaged stats from
# direct reclaim stats" (6.2) adds PGSCAN_KHUGEPAGED and PGSTEAL_KHUGEPAGED
# after the direct ones.
sed '/^PGSCAN_DIRECT$/a PGSCAN_KHUGEPAGED
/^PGSTEAL_DIRECT$/a PGSTEAL_KHUGEPAGED' "$TMPD/vmev.6.1" > "$TMPD/vmev"
v2_keys_loop "$TMPD/stats" "$TMPD/vmev" > "$TMPD/v2keys"
numa_keys "$TMPD/stats" > "$TMPD/numakeys"
cp "$TMPD/events.6.1" "$TMPD/events"
cp "$TMPD/swapevents.6.1" "$TMPD/swapevents"
# swap_files[] gained "swap.peak" (not on root) in 6.5 (b6c1a8af5b1e "mm:
# memcg: introduce memory.swap.peak"); memory.zswap.writeback came in 6.8.
{ cat "$TMPD/v2files.6.1"; echo "memory.swap.peak NOT_ON_ROOT"; } > "$TMPD/v2files"
write_v2 "$D" yes yes
cgroup_stat "" "$D/v2"		# nr_subsys_* lines: 6.9 ("cgroup: Show # of subsystem CSSes in cgroup.stat")
# v1: memcg1_stats[] as 6.1 (NR_SWAPCACHE joined with 6.11's memcontrol-v1.c).
for f in v1names v1events v1files; do cp "$TMPD/$f.6.1" "$TMPD/$f"; done
write_v1 "$D"

# ---- 5.15: 5.10's structure, 6.1's rows less the commits of 5.16 to 6.1 ----------

D=$OUT/5.15; rm -rf "$D"; mkdir -p "$D"
# memory_stats[]: 6.1's less "kernel" (MEMCG_KMEM, a8c49af3be5f, 5.18),
# "sec_pagetables" (ebc97a52b5d6, 6.0), "vmalloc" (5.19) and "zswap",
# "zswapped" (f4840ccfca25, 5.19).
grep -v '^\(kernel\|sec_pagetables\|vmalloc\|zswap\|zswapped\) ' "$TMPD/stats.6.1" > "$TMPD/stats"
# The event lines: 5.10's hand-written ones (memcg_vm_event_stat[] and its
# loop came with 6.0's "memcg: reduce size of memcg vmstats structures").
{ while read -r name idx; do
	echo "$name"
	[ "$idx" = NR_SLAB_UNRECLAIMABLE_B ] && echo slab
  done < "$TMPD/stats"
  sed -n '/^pgfault$/,$p' "$TMPD/v2keys.5.10"; } > "$TMPD/v2keys"
numa_keys "$TMPD/stats" > "$TMPD/numakeys"
cp "$TMPD/events.5.10" "$TMPD/events"		# oom_group_kill: 5.17
cp "$TMPD/swapevents.5.10" "$TMPD/swapevents"
# cgroup.kill: 661ee6280931 (5.14); memory.peak, memory.reclaim and the
# zswap files came in 5.19.
{ cat "$TMPD/v2files.5.10"; echo "cgroup.kill NOT_ON_ROOT"; } > "$TMPD/v2files"
write_v2 "$D" yes yes
cgroup_stat "" "$D/v2"
# v1: 6.1's memcg1_stats[] (workingset_refault_anon/file: "mm: memcontrol:
# add workingset refault stats for cgroup v1", 5.14).
for f in v1names v1events v1files; do cp "$TMPD/$f.6.1" "$TMPD/$f"; done
write_v1 "$D"

# ---- 5.4: memory_stat_format() of 5.3/5.4, and 5.10's lists less 5.5 to 5.10 ----

D=$OUT/5.4; rm -rf "$D"; mkdir -p "$D"
# Every line hand-written (read from a 5.4-era copy in the tool library):
printf '%s\n' anon file kernel_stack slab sock shmem file_mapped file_dirty file_writeback \
	anon_thp inactive_anon active_anon inactive_file active_file unevictable \
	slab_reclaimable slab_unreclaimable pgfault pgmajfault workingset_refault \
	workingset_activate workingset_nodereclaim pgrefill pgscan pgsteal pgactivate \
	pgdeactivate pglazyfree pglazyfreed thp_fault_alloc thp_collapse_alloc > "$TMPD/v2keys"
cp "$TMPD/events.5.10" "$TMPD/events"
# swap_events_show(): "high" came with memory.swap.high (4b82ab4f2850, 5.8).
grep -v '^high$' "$TMPD/swapevents.5.10" > "$TMPD/swapevents"
# No memory.numa_stat (5f9a4f4a7096, 5.10), no memory.swap.high (5.8), and
# memory.stat is CFTYPE_NOT_ON_ROOT until 54b512e96d8d (5.8).
grep -v '^memory\.\(numa_stat\|swap\.high\|stat\) ' "$TMPD/v2files.5.10" > "$TMPD/v2files"
echo "memory.stat NOT_ON_ROOT" >> "$TMPD/v2files"
write_v2 "$D" no no
cgroup_stat "" "$D/v2"
# v1: 5.10's memcg1_stats[] names (MEMCG_CACHE ... under the same names).
for f in v1names v1events v1files; do cp "$TMPD/$f.5.10" "$TMPD/$f"; done
write_v1 "$D"

echo "derived: $(ls "$OUT" | tr '\n' ' ')"
