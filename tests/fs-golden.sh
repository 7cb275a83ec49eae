#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v1: an empty memcg's memory.stat and memory.numa_stat byte for byte as the
# real kernel's (tests/golden, captured on Linux); v2: key order of
# memory.stat and memory.numa_stat as the spec's tables (7.3 and 6.12).
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
echo "PASS: fs-golden"
