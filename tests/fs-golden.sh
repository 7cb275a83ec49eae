#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v1: an empty memcg's memory.stat and memory.numa_stat byte for byte as the
# real kernel's (tests/golden, captured on Linux); v2: key order of
# memory.stat and memory.numa_stat as the spec's tables (7.3 and 6.12); then
# every tabulated release, v1 and v2, an empty cgroup and the root, byte for
# byte as tests/golden/kernels (derived from source by
# tests/golden/derive.sh, see tests/golden/README.md).
. "${top_srcdir:-.}/tests/fs-lib.sh"

GOLDEN=$top_srcdir/tests/golden
[ -f "$GOLDEN/v1-empty-memcg.memory.stat" ] || GOLDEN=$top_srcdir/../shared/spec/golden
[ -f "$GOLDEN/v1-empty-memcg.memory.stat" ] || fail "no golden files"

mount_fs "$TMP/v1" --hierarchy=v1
mkdir "$TMP/v1/empty" || fail mkdir
for f in memory.stat memory.numa_stat; do
	cmp "$GOLDEN/v1-empty-memcg.$f" "$TMP/v1/empty/$f" ||
		{ diff -u "$GOLDEN/v1-empty-memcg.$f" "$TMP/v1/empty/$f"; fail "v1 $f"; }
done

keys() { cut -d' ' -f1 "$1" | tr '\n' ' '; }

V2_73_HEAD="anon file kernel kernel_stack pagetables sec_pagetables percpu sock vmalloc shmem zswap zswapped zswap_incomp file_mapped file_dirty file_writeback swapcached anon_thp file_thp shmem_thp inactive_anon active_anon inactive_file active_file unevictable slab_reclaimable slab_unreclaimable slab"
V2_73_TAIL="workingset_refault_anon workingset_refault_file workingset_activate_anon workingset_activate_file workingset_restore_anon workingset_restore_file workingset_nodereclaim pgdemote_kswapd pgdemote_direct pgdemote_khugepaged pgdemote_proactive pgsteal_kswapd pgsteal_direct pgsteal_khugepaged pgsteal_proactive pgscan_kswapd pgscan_direct pgscan_khugepaged pgscan_proactive pgrefill pgpromote_success pgscan pgsteal pswpin pswpout pgfault pgmajfault pgactivate pgdeactivate pglazyfree pglazyfreed swpin_zero swpout_zero zswpin zswpout zswpwb thp_fault_alloc thp_collapse_alloc thp_swpout thp_swpout_fallback numa_pages_migrated numa_pte_updates numa_hint_faults "
V2_612="anon file kernel kernel_stack pagetables sec_pagetables percpu sock vmalloc shmem zswap zswapped file_mapped file_dirty file_writeback swapcached anon_thp file_thp shmem_thp inactive_anon active_anon inactive_file active_file unevictable slab_reclaimable slab_unreclaimable slab workingset_refault_anon workingset_refault_file workingset_activate_anon workingset_activate_file workingset_restore_anon workingset_restore_file workingset_nodereclaim pgdemote_kswapd pgdemote_direct pgdemote_khugepaged pgpromote_success pgscan pgsteal pgscan_kswapd pgscan_direct pgscan_khugepaged pgsteal_kswapd pgsteal_direct pgsteal_khugepaged pgfault pgmajfault pgrefill pgactivate pgdeactivate pglazyfree pglazyfreed swpin_zero swpout_zero zswpin zswpout zswpwb thp_fault_alloc thp_collapse_alloc thp_swpout thp_swpout_fallback numa_pages_migrated numa_pte_updates numa_hint_faults "
NUMA_73="anon file kernel_stack pagetables sec_pagetables vmalloc shmem file_mapped file_dirty file_writeback swapcached anon_thp file_thp shmem_thp inactive_anon active_anon inactive_file active_file unevictable slab_reclaimable slab_unreclaimable hugetlb workingset_refault_anon workingset_refault_file workingset_activate_anon workingset_activate_file workingset_restore_anon workingset_restore_file workingset_nodereclaim pgdemote_kswapd pgdemote_direct pgdemote_khugepaged pgdemote_proactive pgsteal_kswapd pgsteal_direct pgsteal_khugepaged pgsteal_proactive pgscan_kswapd pgscan_direct pgscan_khugepaged pgscan_proactive pgrefill pgpromote_success "
NUMA_612="anon file kernel_stack pagetables sec_pagetables shmem file_mapped file_dirty file_writeback swapcached anon_thp file_thp shmem_thp inactive_anon active_anon inactive_file active_file unevictable slab_reclaimable slab_unreclaimable workingset_refault_anon workingset_refault_file workingset_activate_anon workingset_activate_file workingset_restore_anon workingset_restore_file workingset_nodereclaim pgdemote_kswapd pgdemote_direct pgdemote_khugepaged pgpromote_success "

mount_fs "$TMP/v2"
mkdir "$TMP/v2/c" || fail mkdir
expect "7.3 memory.stat keys" "$(keys "$TMP/v2/c/memory.stat")" "$V2_73_HEAD $V2_73_TAIL"
expect "7.3 memory.numa_stat keys" "$(keys "$TMP/v2/c/memory.numa_stat")" "$NUMA_73"
expect "root memory.stat keys" "$(keys "$TMP/v2/memory.stat")" "$V2_73_HEAD $V2_73_TAIL"
grep -qv '^[a-z_]* [0-9][0-9]*$' "$TMP/v2/c/memory.stat" && fail "v2 line format"

mount_fs "$TMP/v2h" --hugetlb_accounting
mkdir "$TMP/v2h/c" || fail mkdir
expect "7.3 hugetlb keys" "$(keys "$TMP/v2h/c/memory.stat")" "$V2_73_HEAD hugetlb $V2_73_TAIL"

mount_fs "$TMP/v612" --kernel=6.12 --nodes=3
mkdir "$TMP/v612/c" || fail mkdir
expect "6.12 memory.stat keys" "$(keys "$TMP/v612/c/memory.stat")" "$V2_612"
expect "6.12 numa_stat keys" "$(keys "$TMP/v612/c/memory.numa_stat")" "$NUMA_612"
expect "numa_stat nodes" "$(head -n1 "$TMP/v612/c/memory.numa_stat")" "anon N0=0 N1=0 N2=0"
# 6.1 through a mount: memory_stat_format() and memcg_stat_show() of 6.1's
# mm/memcontrol.c (memory_stats[] 1472-1514, memcg_vm_event_stat[] 659-681,
# memcg1_stats[] 4035-4063: no swapcached row in v1)
V2_61="anon file kernel kernel_stack pagetables sec_pagetables percpu sock vmalloc shmem zswap zswapped file_mapped file_dirty file_writeback swapcached anon_thp file_thp shmem_thp inactive_anon active_anon inactive_file active_file unevictable slab_reclaimable slab_unreclaimable slab workingset_refault_anon workingset_refault_file workingset_activate_anon workingset_activate_file workingset_restore_anon workingset_restore_file workingset_nodereclaim pgscan pgsteal pgscan_kswapd pgscan_direct pgsteal_kswapd pgsteal_direct pgfault pgmajfault pgrefill pgactivate pgdeactivate pglazyfree pglazyfreed zswpin zswpout thp_fault_alloc thp_collapse_alloc "
mount_fs "$TMP/v61" --kernel=6.1
mkdir "$TMP/v61/c" || fail mkdir
expect "6.1 memory.stat keys" "$(keys "$TMP/v61/c/memory.stat")" "$V2_61"
mount_fs "$TMP/v61v1" --kernel=6.1 --hierarchy=v1
mkdir "$TMP/v61v1/c" || fail mkdir
expect "6.1 v1 memory.stat keys" "$(keys "$TMP/v61v1/c/memory.stat" | cut -d' ' -f1-12)" \
	"cache rss rss_huge shmem mapped_file dirty writeback workingset_refault_anon workingset_refault_file swap pgpgin pgpgout"
# 5.10 memory_stat_format(): pgfault, pgmajfault, pgrefill before pgscan
mount_fs "$TMP/v510" --kernel=5.10
mkdir "$TMP/v510/c" || fail mkdir
expect "5.10 memory.stat tail" "$(keys "$TMP/v510/c/memory.stat" | tr ' ' '\n' | tail -n 12 | tr '\n' ' ')" \
	"workingset_nodereclaim pgfault pgmajfault pgrefill pgscan pgsteal pgactivate pgdeactivate pglazyfree pglazyfreed thp_fault_alloc thp_collapse_alloc "
# Every tabulated release: the goldens of tests/golden/kernels/VERSION, named
# HIERARCHY-{memcg,root}.FILE.  The root is read with one empty child "c"; a
# file without a golden must not exist (5.4's root has no memory.stat).
KGOLDEN=$top_srcdir/tests/golden/kernels
listing() { ls "$1" | grep -v '^memcgfs\.' | grep -vx c; }
for kdir in "$KGOLDEN"/*; do
	ver=${kdir##*/}
	for h in v1 v2; do
		if [ ! -f "$kdir/$h-memcg.ls" ]; then
			# no v1 memory controller in this build: one line, exit 2
			mkdir -p "$TMP/none"
			rc=0
			"$MEMCGFS" -f --kernel="$ver" --hierarchy="$h" "$TMP/none" 2>"$TMP/err" || rc=$?
			[ "$rc" = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ] ||
				fail "$ver $h: want exit 2 and one line, got $rc: $(cat "$TMP/err")"
			continue
		fi
		mnt=$TMP/k-$ver-$h
		mount_fs "$mnt" --kernel="$ver" --hierarchy="$h"
		mkdir "$mnt/c" || fail "mkdir $ver $h"
		for where in memcg root; do
			d=$mnt/c
			[ $where = root ] && d=$mnt
			listing "$d" > "$TMP/ls"
			cmp -s "$kdir/$h-$where.ls" "$TMP/ls" ||
				{ diff -u "$kdir/$h-$where.ls" "$TMP/ls"; fail "$ver $h $where: file set"; }
			for f in memory.stat memory.numa_stat memory.events memory.events.local \
				 memory.swap.events cgroup.stat; do
				if [ -f "$kdir/$h-$where.$f" ]; then
					# through cat: cmp -s trusts st_size, which
					# cgroupfs (and memcgfs) report as 4096
					cat "$d/$f" > "$TMP/got" || fail "read $ver $h $where $f"
					cmp -s "$kdir/$h-$where.$f" "$TMP/got" ||
						{ diff -u "$kdir/$h-$where.$f" "$TMP/got"; fail "$ver $h $where $f"; }
				elif [ -e "$d/$f" ]; then
					fail "$ver $h $where: $f exists, the kernel has none"
				fi
			done
		done
		rmdir "$mnt/c" || fail "rmdir $ver $h"
		fusermount3 -u "$mnt" || fail "umount $ver $h"
	done
done
[ -d "$KGOLDEN/7.3" ] && [ -d "$KGOLDEN/5.4" ] || fail "no goldens in $KGOLDEN"

# An unknown release: the daemon exits 2 with one line.
for ver in 4.19 5.3 6.20 9.0 garbage 6.01; do
	rc=0
	"$MEMCGFS" -f --kernel="$ver" "$TMP/none" 2>"$TMP/err" || rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "bad kernel '$ver'" "$TMP/err" ||
		fail "--kernel=$ver: want exit 2 and one line, got $rc: $(cat "$TMP/err")"
done
# A release between two tables mounts with the older table's layout.
mount_fs "$TMP/k63" --kernel=6.3
mkdir "$TMP/k63/c" || fail mkdir
cat "$TMP/k63/c/memory.stat" > "$TMP/got" || fail "read 6.3"
cmp -s "$KGOLDEN/6.1/v2-memcg.memory.stat" "$TMP/got" || fail "6.3 prints 6.1's layout"
echo "PASS: fs-golden"
