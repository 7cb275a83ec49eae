/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel layouts of memcg statistic items, built once from the kernel's own lists. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <pthread.h>
#include <string.h>

#include <glib.h>

#include "kernel/items.h"

/*
 * How a layout is made.
 *
 * The kernel does not store "which slot holds which item" anywhere: it keeps
 * a few ordered lists (memcg_node_stat_items[], memcg_stat_items[],
 * memcg_vm_event_stat[], memory_stats[]) and derives the slot maps from them at
 * boot (init_memcg_stats(), init_memcg_events()).  We do the same.  Each
 * layout below is a transcription of those lists for one kernel version with
 * the config options the emulation models switched on as Debian's amd64
 * config has them (SWAP, ZSWAP, TRANSPARENT_HUGEPAGE, NUMA_BALANCING,
 * HUGETLB_PAGE), and CONFIG_MEMCG_V1 (6.11+) either way: a layout_desc's
 * no_memcg_v1 builds its lists without the entries that option guards (6.12
 * and 7.3 have both builds, mcg_layout_build()).  layout_build() turns the
 * lists into the maps of struct mcg_layout:
 *
 *   node items     -> kind NODE,  state slots 0 .. nr_node_slots-1
 *   memcg items    -> kind MEMCG, state slots nr_node_slots .. nr_state_slots-1
 *   events         -> kind EVENT, event slots 0 .. nr_event_slots-1
 *   everything else stays ABSENT (slot MCG_SLOT_NONE): updates are dropped
 *
 * There is one table per tabulated release: 7.3, 6.12, 6.1 and 5.10 read
 * from Debian's source, 6.6, 5.15 and 5.4 derived from the commits between
 * them (each list says which).  Adding a kernel means adding its lists, its
 * layout_descs[] entry and its row in kernel.c's layout_of[].
 *
 * The lists are kept verbatim rather than generated from flags so that a diff
 * against a new kernel's memcontrol.c is a line-by-line comparison.  The
 * item counts are checked at compile time against the totals the spec
 * verified by counting the kernel arrays, so a slip in a transcription fails
 * the build instead of shifting every slot after it.
 *
 * The tables are built on first use under pthread_once, then never written
 * again: readers on any thread see a fully built, immutable layout.
 */

/* ---- Item names ---------------------------------------------------------- */

/* /proc/vmstat names (vmstat_text[]) where the kernel has one; the memcg-only
 * items have no vmstat name, so they get their enum name in lower case.  The
 * v2 event rows print these names (vm_event_name()), so the event entries
 * must match vmstat_text exactly ("numa_pages_migrated", not the enum). */
static const char *const item_names[MCG_NR_ITEMS] = {
	[MCG_INACTIVE_ANON] = "nr_inactive_anon",
	[MCG_ACTIVE_ANON] = "nr_active_anon",
	[MCG_INACTIVE_FILE] = "nr_inactive_file",
	[MCG_ACTIVE_FILE] = "nr_active_file",
	[MCG_UNEVICTABLE] = "nr_unevictable",
	[MCG_SLAB_RECLAIMABLE_B] = "nr_slab_reclaimable",
	[MCG_SLAB_UNRECLAIMABLE_B] = "nr_slab_unreclaimable",
	[MCG_WORKINGSET_REFAULT_ANON] = "workingset_refault_anon",
	[MCG_WORKINGSET_REFAULT_FILE] = "workingset_refault_file",
	[MCG_WORKINGSET_ACTIVATE_ANON] = "workingset_activate_anon",
	[MCG_WORKINGSET_ACTIVATE_FILE] = "workingset_activate_file",
	[MCG_WORKINGSET_RESTORE_ANON] = "workingset_restore_anon",
	[MCG_WORKINGSET_RESTORE_FILE] = "workingset_restore_file",
	[MCG_WORKINGSET_NODERECLAIM] = "workingset_nodereclaim",
	[MCG_ANON_MAPPED] = "nr_anon_pages",
	[MCG_FILE_MAPPED] = "nr_mapped",
	[MCG_FILE_PAGES] = "nr_file_pages",
	[MCG_FILE_DIRTY] = "nr_dirty",
	[MCG_WRITEBACK] = "nr_writeback",
	[MCG_SHMEM] = "nr_shmem",
	[MCG_SHMEM_THPS] = "nr_shmem_hugepages",
	[MCG_FILE_THPS] = "nr_file_hugepages",
	[MCG_ANON_THPS] = "nr_anon_transparent_hugepages",
	[MCG_VMSCAN_WRITE] = "nr_vmscan_write",
	[MCG_VMALLOC] = "nr_vmalloc",
	[MCG_KERNEL_STACK_KB] = "nr_kernel_stack",
	[MCG_PAGETABLE] = "nr_page_table_pages",
	[MCG_SECONDARY_PAGETABLE] = "nr_sec_page_table_pages",
	[MCG_SWAPCACHE] = "nr_swapcached",
	[MCG_PGPROMOTE_SUCCESS] = "pgpromote_success",
	[MCG_PGDEMOTE_KSWAPD] = "pgdemote_kswapd",
	[MCG_PGDEMOTE_DIRECT] = "pgdemote_direct",
	[MCG_PGDEMOTE_KHUGEPAGED] = "pgdemote_khugepaged",
	[MCG_PGDEMOTE_PROACTIVE] = "pgdemote_proactive",
	[MCG_PGSTEAL_KSWAPD] = "pgsteal_kswapd",
	[MCG_PGSTEAL_DIRECT] = "pgsteal_direct",
	[MCG_PGSTEAL_KHUGEPAGED] = "pgsteal_khugepaged",
	[MCG_PGSTEAL_PROACTIVE] = "pgsteal_proactive",
	[MCG_PGSTEAL_ANON] = "pgsteal_anon",
	[MCG_PGSTEAL_FILE] = "pgsteal_file",
	[MCG_PGSCAN_KSWAPD] = "pgscan_kswapd",
	[MCG_PGSCAN_DIRECT] = "pgscan_direct",
	[MCG_PGSCAN_KHUGEPAGED] = "pgscan_khugepaged",
	[MCG_PGSCAN_PROACTIVE] = "pgscan_proactive",
	[MCG_PGSCAN_ANON] = "pgscan_anon",
	[MCG_PGSCAN_FILE] = "pgscan_file",
	[MCG_PGROTATE_ANON] = "pgrotate_anon",
	[MCG_PGROTATE_FILE] = "pgrotate_file",
	[MCG_PGREFILL] = "pgrefill",
	[MCG_HUGETLB] = "nr_hugetlb",
	[MCG_MEMCG_SWAP] = "memcg_swap",
	[MCG_MEMCG_SOCK] = "memcg_sock",
	[MCG_MEMCG_PERCPU_B] = "memcg_percpu_b",
	[MCG_MEMCG_KMEM] = "memcg_kmem",
	[MCG_MEMCG_ZSWAP_B] = "memcg_zswap_b",
	[MCG_MEMCG_ZSWAPPED] = "memcg_zswapped",
	[MCG_MEMCG_ZSWAP_INCOMP] = "memcg_zswap_incomp",
	[MCG_PGPGIN] = "pgpgin",
	[MCG_PGPGOUT] = "pgpgout",
	[MCG_PSWPIN] = "pswpin",
	[MCG_PSWPOUT] = "pswpout",
	[MCG_PGFAULT] = "pgfault",
	[MCG_PGMAJFAULT] = "pgmajfault",
	[MCG_PGACTIVATE] = "pgactivate",
	[MCG_PGDEACTIVATE] = "pgdeactivate",
	[MCG_PGLAZYFREE] = "pglazyfree",
	[MCG_PGLAZYFREED] = "pglazyfreed",
	[MCG_SWPIN_ZERO] = "swpin_zero",
	[MCG_SWPOUT_ZERO] = "swpout_zero",
	[MCG_ZSWPIN] = "zswpin",
	[MCG_ZSWPOUT] = "zswpout",
	[MCG_ZSWPWB] = "zswpwb",
	[MCG_THP_FAULT_ALLOC] = "thp_fault_alloc",
	[MCG_THP_COLLAPSE_ALLOC] = "thp_collapse_alloc",
	[MCG_THP_SWPOUT] = "thp_swpout",
	[MCG_THP_SWPOUT_FALLBACK] = "thp_swpout_fallback",
	[MCG_NUMA_PAGE_MIGRATE] = "numa_pages_migrated",
	[MCG_NUMA_PTE_UPDATES] = "numa_pte_updates",
	[MCG_NUMA_HINT_FAULTS] = "numa_hint_faults",
};

/* A slot of a kernel array that the emulation never updates or prints: the
 * kernels that index their memcg arrays by the full enums (6.1, 5.10) have
 * slots for node_stat_item entries no memcg counts (NR_ISOLATED_ANON ...),
 * and their flush and free loops walk them all the same.  Lists name such a
 * slot UNUSED_SLOT; it holds no item, and reads as 0 forever. */
#define UNUSED_SLOT MCG_NR_ITEMS

/* Lines of a v2 memory.stat written out by hand (5.4, 5.10, 5.15). */
#define LINE(name, item) { (name), MCG_LINE_ITEM, (item) }
#define SLAB_LINE { "slab", MCG_LINE_SLAB, MCG_NR_ITEMS }
#define PGSCAN_LINE { "pgscan", MCG_LINE_PGSCAN, MCG_NR_ITEMS }
#define PGSTEAL_LINE { "pgsteal", MCG_LINE_PGSTEAL, MCG_NR_ITEMS }

/* ---- Units (identical in both layouts) ------------------------------------ */

/* memcg_page_state_unit(): bytes for the byte-accounted items, KiB for the
 * kernel stack, pages for everything else. */
static enum mcg_storage_unit item_storage_unit(enum mcg_item item)
{
	switch (item) {
	case MCG_MEMCG_PERCPU_B:
	case MCG_MEMCG_ZSWAP_B:
	case MCG_SLAB_RECLAIMABLE_B:
	case MCG_SLAB_UNRECLAIMABLE_B:
		return MCG_STORE_BYTES;
	case MCG_KERNEL_STACK_KB:
		return MCG_STORE_KB;
	default:
		return MCG_STORE_PAGES;
	}
}

/* ---- Linux 7.3 (mm/memcontrol.c) ------------------------------------------ */

/* memcg_node_stat_items[] */
static const enum mcg_item node_items_7_3[] = {
	MCG_INACTIVE_ANON,
	MCG_ACTIVE_ANON,
	MCG_INACTIVE_FILE,
	MCG_ACTIVE_FILE,
	MCG_UNEVICTABLE,
	MCG_SLAB_RECLAIMABLE_B,
	MCG_SLAB_UNRECLAIMABLE_B,
	MCG_WORKINGSET_REFAULT_ANON,
	MCG_WORKINGSET_REFAULT_FILE,
	MCG_WORKINGSET_ACTIVATE_ANON,
	MCG_WORKINGSET_ACTIVATE_FILE,
	MCG_WORKINGSET_RESTORE_ANON,
	MCG_WORKINGSET_RESTORE_FILE,
	MCG_WORKINGSET_NODERECLAIM,
	MCG_ANON_MAPPED,
	MCG_FILE_MAPPED,
	MCG_FILE_PAGES,
	MCG_FILE_DIRTY,
	MCG_WRITEBACK,
	MCG_SHMEM,
	MCG_SHMEM_THPS,
	MCG_FILE_THPS,
	MCG_ANON_THPS,
	MCG_VMSCAN_WRITE,
	MCG_VMALLOC,
	MCG_KERNEL_STACK_KB,
	MCG_PAGETABLE,
	MCG_SECONDARY_PAGETABLE,
	MCG_SWAPCACHE,			/* CONFIG_SWAP */
	MCG_PGPROMOTE_SUCCESS,		/* CONFIG_NUMA_BALANCING */
	MCG_PGDEMOTE_KSWAPD,
	MCG_PGDEMOTE_DIRECT,
	MCG_PGDEMOTE_KHUGEPAGED,
	MCG_PGDEMOTE_PROACTIVE,
	MCG_PGSTEAL_KSWAPD,
	MCG_PGSTEAL_DIRECT,
	MCG_PGSTEAL_KHUGEPAGED,
	MCG_PGSTEAL_PROACTIVE,
	MCG_PGSTEAL_ANON,
	MCG_PGSTEAL_FILE,
	MCG_PGSCAN_KSWAPD,
	MCG_PGSCAN_DIRECT,
	MCG_PGSCAN_KHUGEPAGED,
	MCG_PGSCAN_PROACTIVE,
	MCG_PGSCAN_ANON,
	MCG_PGSCAN_FILE,
	MCG_PGROTATE_ANON,
	MCG_PGROTATE_FILE,
	MCG_PGREFILL,
	MCG_HUGETLB,			/* CONFIG_HUGETLB_PAGE */
};

/* memcg_stat_items[] */
static const enum mcg_item memcg_items_7_3[] = {
	MCG_MEMCG_SWAP,
	MCG_MEMCG_SOCK,
	MCG_MEMCG_PERCPU_B,
	MCG_MEMCG_KMEM,
	MCG_MEMCG_ZSWAP_B,
	MCG_MEMCG_ZSWAPPED,
	MCG_MEMCG_ZSWAP_INCOMP,
};

/* memcg_vm_event_stat[] */
static const enum mcg_item events_7_3[] = {
	MCG_PGPGIN,			/* CONFIG_MEMCG_V1 */
	MCG_PGPGOUT,			/* CONFIG_MEMCG_V1 */
	MCG_PSWPIN,
	MCG_PSWPOUT,
	MCG_PGFAULT,
	MCG_PGMAJFAULT,
	MCG_PGACTIVATE,
	MCG_PGDEACTIVATE,
	MCG_PGLAZYFREE,
	MCG_PGLAZYFREED,
	MCG_SWPIN_ZERO,			/* CONFIG_SWAP */
	MCG_SWPOUT_ZERO,
	MCG_ZSWPIN,			/* CONFIG_ZSWAP */
	MCG_ZSWPOUT,
	MCG_ZSWPWB,
	MCG_THP_FAULT_ALLOC,		/* CONFIG_TRANSPARENT_HUGEPAGE */
	MCG_THP_COLLAPSE_ALLOC,
	MCG_THP_SWPOUT,
	MCG_THP_SWPOUT_FALLBACK,
	MCG_NUMA_PAGE_MIGRATE,		/* CONFIG_NUMA_BALANCING */
	MCG_NUMA_PTE_UPDATES,
	MCG_NUMA_HINT_FAULTS,
};

/* The entries of the lists above that 7.3 (and 6.12) compile only with
 * CONFIG_MEMCG_V1 (mm/memcontrol.c, memcg_vm_event_stat[]: "#ifdef
 * CONFIG_MEMCG_V1 PGPGIN, PGPGOUT #endif"; they are counted only by
 * memcg1_charge_statistics() and memcg1_uncharge_batch() of
 * mm/memcontrol-v1.c, which such a kernel does not build).  memory_stats[],
 * memcg_node_stat_items[] and memcg_stat_items[] have no CONFIG_MEMCG_V1
 * entry, and v2's memcg_stat_format() skips PGPGIN/PGPGOUT anyway, so a
 * CONFIG_MEMCG_V1=n kernel prints the same v2 memory.stat with two event
 * slots fewer: 57 state + 20 events, as seed 001 counts them. */
static const enum mcg_item memcg_v1_only[] = {
	MCG_PGPGIN,
	MCG_PGPGOUT,
};

/* memcg_page_state_output_unit() cases that print raw counts. */
static const enum mcg_item count_items_7_3[] = {
	MCG_WORKINGSET_REFAULT_ANON,
	MCG_WORKINGSET_REFAULT_FILE,
	MCG_WORKINGSET_ACTIVATE_ANON,
	MCG_WORKINGSET_ACTIVATE_FILE,
	MCG_WORKINGSET_RESTORE_ANON,
	MCG_WORKINGSET_RESTORE_FILE,
	MCG_WORKINGSET_NODERECLAIM,
	MCG_PGDEMOTE_KSWAPD,
	MCG_PGDEMOTE_DIRECT,
	MCG_PGDEMOTE_KHUGEPAGED,
	MCG_PGDEMOTE_PROACTIVE,
	MCG_PGSTEAL_KSWAPD,
	MCG_PGSTEAL_DIRECT,
	MCG_PGSTEAL_KHUGEPAGED,
	MCG_PGSTEAL_PROACTIVE,
	MCG_PGSCAN_KSWAPD,
	MCG_PGSCAN_DIRECT,
	MCG_PGSCAN_KHUGEPAGED,
	MCG_PGSCAN_PROACTIVE,
	MCG_PGREFILL,
	MCG_PGPROMOTE_SUCCESS,
};

/* memory_stats[] */
static const struct mcg_stat_row v2_stats_7_3[] = {
	{ "anon",			MCG_ANON_MAPPED },
	{ "file",			MCG_FILE_PAGES },
	{ "kernel",			MCG_MEMCG_KMEM },
	{ "kernel_stack",		MCG_KERNEL_STACK_KB },
	{ "pagetables",			MCG_PAGETABLE },
	{ "sec_pagetables",		MCG_SECONDARY_PAGETABLE },
	{ "percpu",			MCG_MEMCG_PERCPU_B },
	{ "sock",			MCG_MEMCG_SOCK },
	{ "vmalloc",			MCG_VMALLOC },
	{ "shmem",			MCG_SHMEM },
	{ "zswap",			MCG_MEMCG_ZSWAP_B },
	{ "zswapped",			MCG_MEMCG_ZSWAPPED },
	{ "zswap_incomp",		MCG_MEMCG_ZSWAP_INCOMP },
	{ "file_mapped",		MCG_FILE_MAPPED },
	{ "file_dirty",			MCG_FILE_DIRTY },
	{ "file_writeback",		MCG_WRITEBACK },
	{ "swapcached",			MCG_SWAPCACHE },
	{ "anon_thp",			MCG_ANON_THPS },
	{ "file_thp",			MCG_FILE_THPS },
	{ "shmem_thp",			MCG_SHMEM_THPS },
	{ "inactive_anon",		MCG_INACTIVE_ANON },
	{ "active_anon",		MCG_ACTIVE_ANON },
	{ "inactive_file",		MCG_INACTIVE_FILE },
	{ "active_file",		MCG_ACTIVE_FILE },
	{ "unevictable",		MCG_UNEVICTABLE },
	{ "slab_reclaimable",		MCG_SLAB_RECLAIMABLE_B },
	{ "slab_unreclaimable",		MCG_SLAB_UNRECLAIMABLE_B },
	{ "hugetlb",			MCG_HUGETLB },
	{ "workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON },
	{ "workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE },
	{ "workingset_activate_anon",	MCG_WORKINGSET_ACTIVATE_ANON },
	{ "workingset_activate_file",	MCG_WORKINGSET_ACTIVATE_FILE },
	{ "workingset_restore_anon",	MCG_WORKINGSET_RESTORE_ANON },
	{ "workingset_restore_file",	MCG_WORKINGSET_RESTORE_FILE },
	{ "workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM },
	{ "pgdemote_kswapd",		MCG_PGDEMOTE_KSWAPD },
	{ "pgdemote_direct",		MCG_PGDEMOTE_DIRECT },
	{ "pgdemote_khugepaged",	MCG_PGDEMOTE_KHUGEPAGED },
	{ "pgdemote_proactive",		MCG_PGDEMOTE_PROACTIVE },
	{ "pgsteal_kswapd",		MCG_PGSTEAL_KSWAPD },
	{ "pgsteal_direct",		MCG_PGSTEAL_DIRECT },
	{ "pgsteal_khugepaged",		MCG_PGSTEAL_KHUGEPAGED },
	{ "pgsteal_proactive",		MCG_PGSTEAL_PROACTIVE },
	{ "pgscan_kswapd",		MCG_PGSCAN_KSWAPD },
	{ "pgscan_direct",		MCG_PGSCAN_DIRECT },
	{ "pgscan_khugepaged",		MCG_PGSCAN_KHUGEPAGED },
	{ "pgscan_proactive",		MCG_PGSCAN_PROACTIVE },
	{ "pgrefill",			MCG_PGREFILL },
	{ "pgpromote_success",		MCG_PGPROMOTE_SUCCESS },
};

/* The "pgscan"/"pgsteal" summaries, summed in the kernel's order. */
static const enum mcg_item pgscan_7_3[] = {
	MCG_PGSCAN_KSWAPD, MCG_PGSCAN_DIRECT, MCG_PGSCAN_PROACTIVE, MCG_PGSCAN_KHUGEPAGED,
};
static const enum mcg_item pgsteal_7_3[] = {
	MCG_PGSTEAL_KSWAPD, MCG_PGSTEAL_DIRECT, MCG_PGSTEAL_PROACTIVE, MCG_PGSTEAL_KHUGEPAGED,
};

/* ---- Linux 6.12 LTS (mm/memcontrol.c of 6.12.y) ---------------------------- */

static const enum mcg_item node_items_6_12[] = {
	MCG_INACTIVE_ANON,
	MCG_ACTIVE_ANON,
	MCG_INACTIVE_FILE,
	MCG_ACTIVE_FILE,
	MCG_UNEVICTABLE,
	MCG_SLAB_RECLAIMABLE_B,
	MCG_SLAB_UNRECLAIMABLE_B,
	MCG_WORKINGSET_REFAULT_ANON,
	MCG_WORKINGSET_REFAULT_FILE,
	MCG_WORKINGSET_ACTIVATE_ANON,
	MCG_WORKINGSET_ACTIVATE_FILE,
	MCG_WORKINGSET_RESTORE_ANON,
	MCG_WORKINGSET_RESTORE_FILE,
	MCG_WORKINGSET_NODERECLAIM,
	MCG_ANON_MAPPED,
	MCG_FILE_MAPPED,
	MCG_FILE_PAGES,
	MCG_FILE_DIRTY,
	MCG_WRITEBACK,
	MCG_SHMEM,
	MCG_SHMEM_THPS,
	MCG_FILE_THPS,
	MCG_ANON_THPS,
	MCG_KERNEL_STACK_KB,
	MCG_PAGETABLE,
	MCG_SECONDARY_PAGETABLE,
	MCG_SWAPCACHE,			/* CONFIG_SWAP */
	MCG_PGPROMOTE_SUCCESS,		/* CONFIG_NUMA_BALANCING */
	MCG_PGDEMOTE_KSWAPD,
	MCG_PGDEMOTE_DIRECT,
	MCG_PGDEMOTE_KHUGEPAGED,
};

/* vmalloc is a memcg-wide item here, between percpu and kmem. */
static const enum mcg_item memcg_items_6_12[] = {
	MCG_MEMCG_SWAP,
	MCG_MEMCG_SOCK,
	MCG_MEMCG_PERCPU_B,
	MCG_VMALLOC,			/* MEMCG_VMALLOC */
	MCG_MEMCG_KMEM,
	MCG_MEMCG_ZSWAP_B,
	MCG_MEMCG_ZSWAPPED,
};

/* Reclaim counters (pgscan, pgsteal, pgrefill) are still vm events here. */
static const enum mcg_item events_6_12[] = {
	MCG_PGPGIN,			/* CONFIG_MEMCG_V1 */
	MCG_PGPGOUT,			/* CONFIG_MEMCG_V1 */
	MCG_PGSCAN_KSWAPD,
	MCG_PGSCAN_DIRECT,
	MCG_PGSCAN_KHUGEPAGED,
	MCG_PGSTEAL_KSWAPD,
	MCG_PGSTEAL_DIRECT,
	MCG_PGSTEAL_KHUGEPAGED,
	MCG_PGFAULT,
	MCG_PGMAJFAULT,
	MCG_PGREFILL,
	MCG_PGACTIVATE,
	MCG_PGDEACTIVATE,
	MCG_PGLAZYFREE,
	MCG_PGLAZYFREED,
	MCG_SWPIN_ZERO,			/* CONFIG_SWAP */
	MCG_SWPOUT_ZERO,
	MCG_ZSWPIN,			/* CONFIG_ZSWAP */
	MCG_ZSWPOUT,
	MCG_ZSWPWB,
	MCG_THP_FAULT_ALLOC,		/* CONFIG_TRANSPARENT_HUGEPAGE */
	MCG_THP_COLLAPSE_ALLOC,
	MCG_THP_SWPOUT,
	MCG_THP_SWPOUT_FALLBACK,
	MCG_NUMA_PAGE_MIGRATE,		/* CONFIG_NUMA_BALANCING */
	MCG_NUMA_PTE_UPDATES,
	MCG_NUMA_HINT_FAULTS,
};

static const enum mcg_item count_items_6_12[] = {
	MCG_WORKINGSET_REFAULT_ANON,
	MCG_WORKINGSET_REFAULT_FILE,
	MCG_WORKINGSET_ACTIVATE_ANON,
	MCG_WORKINGSET_ACTIVATE_FILE,
	MCG_WORKINGSET_RESTORE_ANON,
	MCG_WORKINGSET_RESTORE_FILE,
	MCG_WORKINGSET_NODERECLAIM,
	MCG_PGDEMOTE_KSWAPD,
	MCG_PGDEMOTE_DIRECT,
	MCG_PGDEMOTE_KHUGEPAGED,
	MCG_PGPROMOTE_SUCCESS,
};

/* No zswap_incomp, hugetlb, *_proactive or reclaim rows: 37 rows. */
static const struct mcg_stat_row v2_stats_6_12[] = {
	{ "anon",			MCG_ANON_MAPPED },
	{ "file",			MCG_FILE_PAGES },
	{ "kernel",			MCG_MEMCG_KMEM },
	{ "kernel_stack",		MCG_KERNEL_STACK_KB },
	{ "pagetables",			MCG_PAGETABLE },
	{ "sec_pagetables",		MCG_SECONDARY_PAGETABLE },
	{ "percpu",			MCG_MEMCG_PERCPU_B },
	{ "sock",			MCG_MEMCG_SOCK },
	{ "vmalloc",			MCG_VMALLOC },
	{ "shmem",			MCG_SHMEM },
	{ "zswap",			MCG_MEMCG_ZSWAP_B },
	{ "zswapped",			MCG_MEMCG_ZSWAPPED },
	{ "file_mapped",		MCG_FILE_MAPPED },
	{ "file_dirty",			MCG_FILE_DIRTY },
	{ "file_writeback",		MCG_WRITEBACK },
	{ "swapcached",			MCG_SWAPCACHE },
	{ "anon_thp",			MCG_ANON_THPS },
	{ "file_thp",			MCG_FILE_THPS },
	{ "shmem_thp",			MCG_SHMEM_THPS },
	{ "inactive_anon",		MCG_INACTIVE_ANON },
	{ "active_anon",		MCG_ACTIVE_ANON },
	{ "inactive_file",		MCG_INACTIVE_FILE },
	{ "active_file",		MCG_ACTIVE_FILE },
	{ "unevictable",		MCG_UNEVICTABLE },
	{ "slab_reclaimable",		MCG_SLAB_RECLAIMABLE_B },
	{ "slab_unreclaimable",		MCG_SLAB_UNRECLAIMABLE_B },
	{ "workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON },
	{ "workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE },
	{ "workingset_activate_anon",	MCG_WORKINGSET_ACTIVATE_ANON },
	{ "workingset_activate_file",	MCG_WORKINGSET_ACTIVATE_FILE },
	{ "workingset_restore_anon",	MCG_WORKINGSET_RESTORE_ANON },
	{ "workingset_restore_file",	MCG_WORKINGSET_RESTORE_FILE },
	{ "workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM },
	{ "pgdemote_kswapd",		MCG_PGDEMOTE_KSWAPD },
	{ "pgdemote_direct",		MCG_PGDEMOTE_DIRECT },
	{ "pgdemote_khugepaged",	MCG_PGDEMOTE_KHUGEPAGED },
	{ "pgpromote_success",		MCG_PGPROMOTE_SUCCESS },
};

static const enum mcg_item pgscan_6_12[] = {
	MCG_PGSCAN_KSWAPD, MCG_PGSCAN_DIRECT, MCG_PGSCAN_KHUGEPAGED,
};
static const enum mcg_item pgsteal_6_12[] = {
	MCG_PGSTEAL_KSWAPD, MCG_PGSTEAL_DIRECT, MCG_PGSTEAL_KHUGEPAGED,
};

/* memcg1_stats[] with memcg1_stat_names[] (mm/memcontrol-v1.c of 7.3,
 * memcg1_stat_format()); 6.12's mm/memcontrol-v1.c has the same list, the
 * same memcg1_stat_format() (but for the lruvec fields its CONFIG_DEBUG_VM
 * anon_cost/file_cost lines read; Debian does not set it) and the same
 * memcg1_events[], so
 * its CONFIG_MEMCG_V1=y build prints these rows too.  The swap rows need
 * CONFIG_SWAP. */
static const struct mcg_stat_row v1_stats_7_3[] = {
	{ "cache",			MCG_FILE_PAGES },
	{ "rss",			MCG_ANON_MAPPED },
	{ "rss_huge",			MCG_ANON_THPS },	/* CONFIG_TRANSPARENT_HUGEPAGE */
	{ "shmem",			MCG_SHMEM },
	{ "mapped_file",		MCG_FILE_MAPPED },
	{ "dirty",			MCG_FILE_DIRTY },
	{ "writeback",			MCG_WRITEBACK },
	{ "workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON },
	{ "workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE },
	{ "swap",			MCG_MEMCG_SWAP },	/* CONFIG_SWAP */
	{ "swapcached",			MCG_SWAPCACHE },	/* CONFIG_SWAP */
};

/* ---- Linux 6.1 LTS (mm/memcontrol.c of 6.1.y) ------------------------------
 *
 * 6.1 has no memcg_node_stat_items[]: its memcg arrays are indexed by the
 * kernel enums themselves.  struct memcg_vmstats_percpu and struct
 * memcg_vmstats hold state[MEMCG_NR_STAT] (mm/memcontrol.c), struct
 * lruvec_stats_percpu and struct lruvec_stats hold
 * state[NR_VM_NODE_STAT_ITEMS] (include/linux/memcontrol.h), and
 * mem_cgroup_css_rstat_flush() loops over every one of them ("for (i = 0;
 * i < MEMCG_NR_STAT; i++)", then "for (i = 0; i < NR_VM_NODE_STAT_ITEMS;
 * i++)" per node); only the events are compact (NR_MEMCG_EVENTS =
 * ARRAY_SIZE(memcg_vm_event_stat)).  So the slot of an item is its enum
 * value, and the node list below is enum node_stat_item of
 * include/linux/mmzone.h in full, with Debian's amd64 config:
 *
 *   NR_KERNEL_SCS_KB     #if IS_ENABLED(CONFIG_SHADOW_CALL_STACK): absent,
 *                        only arm64 selects ARCH_SUPPORTS_SHADOW_CALL_STACK
 *   NR_SWAPCACHE         #ifdef CONFIG_SWAP: present
 *   PGPROMOTE_SUCCESS,   #ifdef CONFIG_NUMA_BALANCING: present
 *   PGPROMOTE_CANDIDATE
 *
 * (6.1 has no LRU_GEN or demotion entries in node_stat_item), which makes
 * NR_VM_NODE_STAT_ITEMS = 43, and enum memcg_stat_item starts at it
 * (MEMCG_SWAP = NR_VM_NODE_STAT_ITEMS ... MEMCG_ZSWAPPED = 49), so
 * MEMCG_NR_STAT = 50.
 *
 * Entries no emulated workload touches keep their slots as UNUSED_SLOT:
 * NR_ISOLATED_*, WORKINGSET_NODES, NR_WRITEBACK_TEMP, NR_*_PMDMAPPED,
 * NR_VMSCAN_IMMEDIATE, NR_DIRTIED, NR_WRITTEN, NR_THROTTLED_WRITTEN,
 * NR_KERNEL_MISC_RECLAIMABLE, NR_FOLL_PIN_*, PGPROMOTE_CANDIDATE; and so do
 * two items that have a memcg slot but are only ever updated at node level,
 * so a memcg reads 0 forever: NR_VMSCAN_WRITE (node_stat_add_folio() in
 * pageout(), mm/vmscan.c) and PGPROMOTE_SUCCESS (mod_node_page_state() in
 * migrate_misplaced_page(), mm/migrate.c).  The emulation drops updates of
 * those two, as the kernel never makes them.
 */
static const enum mcg_item node_items_6_1[] = {
	MCG_INACTIVE_ANON,		/*  0 NR_INACTIVE_ANON = NR_LRU_BASE */
	MCG_ACTIVE_ANON,		/*  1 */
	MCG_INACTIVE_FILE,		/*  2 */
	MCG_ACTIVE_FILE,		/*  3 */
	MCG_UNEVICTABLE,		/*  4 */
	MCG_SLAB_RECLAIMABLE_B,		/*  5 */
	MCG_SLAB_UNRECLAIMABLE_B,	/*  6 */
	UNUSED_SLOT,			/*  7 NR_ISOLATED_ANON */
	UNUSED_SLOT,			/*  8 NR_ISOLATED_FILE */
	UNUSED_SLOT,			/*  9 WORKINGSET_NODES */
	MCG_WORKINGSET_REFAULT_ANON,	/* 10 = WORKINGSET_REFAULT_BASE */
	MCG_WORKINGSET_REFAULT_FILE,	/* 11 */
	MCG_WORKINGSET_ACTIVATE_ANON,	/* 12 = WORKINGSET_ACTIVATE_BASE */
	MCG_WORKINGSET_ACTIVATE_FILE,	/* 13 */
	MCG_WORKINGSET_RESTORE_ANON,	/* 14 = WORKINGSET_RESTORE_BASE */
	MCG_WORKINGSET_RESTORE_FILE,	/* 15 */
	MCG_WORKINGSET_NODERECLAIM,	/* 16 */
	MCG_ANON_MAPPED,		/* 17 */
	MCG_FILE_MAPPED,		/* 18 */
	MCG_FILE_PAGES,			/* 19 */
	MCG_FILE_DIRTY,			/* 20 */
	MCG_WRITEBACK,			/* 21 */
	UNUSED_SLOT,			/* 22 NR_WRITEBACK_TEMP */
	MCG_SHMEM,			/* 23 */
	MCG_SHMEM_THPS,			/* 24 */
	UNUSED_SLOT,			/* 25 NR_SHMEM_PMDMAPPED */
	MCG_FILE_THPS,			/* 26 */
	UNUSED_SLOT,			/* 27 NR_FILE_PMDMAPPED */
	MCG_ANON_THPS,			/* 28 */
	UNUSED_SLOT,			/* 29 NR_VMSCAN_WRITE: node level only */
	UNUSED_SLOT,			/* 30 NR_VMSCAN_IMMEDIATE */
	UNUSED_SLOT,			/* 31 NR_DIRTIED */
	UNUSED_SLOT,			/* 32 NR_WRITTEN */
	UNUSED_SLOT,			/* 33 NR_THROTTLED_WRITTEN */
	UNUSED_SLOT,			/* 34 NR_KERNEL_MISC_RECLAIMABLE */
	UNUSED_SLOT,			/* 35 NR_FOLL_PIN_ACQUIRED */
	UNUSED_SLOT,			/* 36 NR_FOLL_PIN_RELEASED */
	MCG_KERNEL_STACK_KB,		/* 37 */
	MCG_PAGETABLE,			/* 38 */
	MCG_SECONDARY_PAGETABLE,	/* 39 */
	MCG_SWAPCACHE,			/* 40 CONFIG_SWAP */
	UNUSED_SLOT,			/* 41 PGPROMOTE_SUCCESS (CONFIG_NUMA_BALANCING): node level only */
	UNUSED_SLOT,			/* 42 PGPROMOTE_CANDIDATE */
};

/* enum memcg_stat_item (include/linux/memcontrol.h); vmalloc memcg-wide. */
static const enum mcg_item memcg_items_6_1[] = {
	MCG_MEMCG_SWAP,			/* 43 = NR_VM_NODE_STAT_ITEMS */
	MCG_MEMCG_SOCK,			/* 44 */
	MCG_MEMCG_PERCPU_B,		/* 45 */
	MCG_VMALLOC,			/* 46 MEMCG_VMALLOC */
	MCG_MEMCG_KMEM,			/* 47 */
	MCG_MEMCG_ZSWAP_B,		/* 48 */
	MCG_MEMCG_ZSWAPPED,		/* 49; MEMCG_NR_STAT = 50 */
};

/* memcg_vm_event_stat[]: no PGSCAN/PGSTEAL_KHUGEPAGED, no swpin/swpout_zero,
 * zswpwb, thp_swpout* or NUMA balancing events yet. */
static const enum mcg_item events_6_1[] = {
	MCG_PGPGIN,
	MCG_PGPGOUT,
	MCG_PGSCAN_KSWAPD,
	MCG_PGSCAN_DIRECT,
	MCG_PGSTEAL_KSWAPD,
	MCG_PGSTEAL_DIRECT,
	MCG_PGFAULT,
	MCG_PGMAJFAULT,
	MCG_PGREFILL,
	MCG_PGACTIVATE,
	MCG_PGDEACTIVATE,
	MCG_PGLAZYFREE,
	MCG_PGLAZYFREED,
	MCG_ZSWPIN,			/* CONFIG_MEMCG_KMEM && CONFIG_ZSWAP */
	MCG_ZSWPOUT,
	MCG_THP_FAULT_ALLOC,		/* CONFIG_TRANSPARENT_HUGEPAGE */
	MCG_THP_COLLAPSE_ALLOC,
};

/* memcg_page_state_unit() returns 1 for the workingset items: their stored
 * page counts print raw. */
static const enum mcg_item count_items_6_1[] = {
	MCG_WORKINGSET_REFAULT_ANON,
	MCG_WORKINGSET_REFAULT_FILE,
	MCG_WORKINGSET_ACTIVATE_ANON,
	MCG_WORKINGSET_ACTIVATE_FILE,
	MCG_WORKINGSET_RESTORE_ANON,
	MCG_WORKINGSET_RESTORE_FILE,
	MCG_WORKINGSET_NODERECLAIM,
};

/* memory_stats[]: 6.12's rows less pgdemote_* and pgpromote_success. */
static const struct mcg_stat_row v2_stats_6_1[] = {
	{ "anon",			MCG_ANON_MAPPED },
	{ "file",			MCG_FILE_PAGES },
	{ "kernel",			MCG_MEMCG_KMEM },
	{ "kernel_stack",		MCG_KERNEL_STACK_KB },
	{ "pagetables",			MCG_PAGETABLE },
	{ "sec_pagetables",		MCG_SECONDARY_PAGETABLE },
	{ "percpu",			MCG_MEMCG_PERCPU_B },
	{ "sock",			MCG_MEMCG_SOCK },
	{ "vmalloc",			MCG_VMALLOC },
	{ "shmem",			MCG_SHMEM },
	{ "zswap",			MCG_MEMCG_ZSWAP_B },	/* CONFIG_MEMCG_KMEM && CONFIG_ZSWAP */
	{ "zswapped",			MCG_MEMCG_ZSWAPPED },
	{ "file_mapped",		MCG_FILE_MAPPED },
	{ "file_dirty",			MCG_FILE_DIRTY },
	{ "file_writeback",		MCG_WRITEBACK },
	{ "swapcached",			MCG_SWAPCACHE },	/* CONFIG_SWAP */
	{ "anon_thp",			MCG_ANON_THPS },	/* CONFIG_TRANSPARENT_HUGEPAGE */
	{ "file_thp",			MCG_FILE_THPS },
	{ "shmem_thp",			MCG_SHMEM_THPS },
	{ "inactive_anon",		MCG_INACTIVE_ANON },
	{ "active_anon",		MCG_ACTIVE_ANON },
	{ "inactive_file",		MCG_INACTIVE_FILE },
	{ "active_file",		MCG_ACTIVE_FILE },
	{ "unevictable",		MCG_UNEVICTABLE },
	{ "slab_reclaimable",		MCG_SLAB_RECLAIMABLE_B },
	{ "slab_unreclaimable",		MCG_SLAB_UNRECLAIMABLE_B },
	{ "workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON },
	{ "workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE },
	{ "workingset_activate_anon",	MCG_WORKINGSET_ACTIVATE_ANON },
	{ "workingset_activate_file",	MCG_WORKINGSET_ACTIVATE_FILE },
	{ "workingset_restore_anon",	MCG_WORKINGSET_RESTORE_ANON },
	{ "workingset_restore_file",	MCG_WORKINGSET_RESTORE_FILE },
	{ "workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM },
};

/* memory_stat_format(): "pgscan" is PGSCAN_KSWAPD + PGSCAN_DIRECT. */
static const enum mcg_item pgscan_6_1[] = {
	MCG_PGSCAN_KSWAPD, MCG_PGSCAN_DIRECT,
};
static const enum mcg_item pgsteal_6_1[] = {
	MCG_PGSTEAL_KSWAPD, MCG_PGSTEAL_DIRECT,
};

/* memcg1_stats[] (mm/memcontrol.c, memcg_stat_show()): no swapcached row
 * yet, and swap is the last row. */
static const struct mcg_stat_row v1_stats_6_1[] = {
	{ "cache",			MCG_FILE_PAGES },
	{ "rss",			MCG_ANON_MAPPED },
	{ "rss_huge",			MCG_ANON_THPS },	/* CONFIG_TRANSPARENT_HUGEPAGE */
	{ "shmem",			MCG_SHMEM },
	{ "mapped_file",		MCG_FILE_MAPPED },
	{ "dirty",			MCG_FILE_DIRTY },
	{ "writeback",			MCG_WRITEBACK },
	{ "workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON },
	{ "workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE },
	{ "swap",			MCG_MEMCG_SWAP },	/* do_memsw_account() */
};

/* ---- Linux 5.10 LTS (mm/memcontrol.c of 5.10.y) ----------------------------
 *
 * 5.10 keeps memcg->vmstats[MEMCG_NR_STAT] and per-node lruvec_stat[] indexed
 * by the enums, and events[NR_VM_EVENT_ITEMS] indexed by enum vm_event_item,
 * with no slot maps (struct mem_cgroup, struct memcg_vmstats_percpu,
 * struct lruvec_stat and struct mem_cgroup_per_node in
 * include/linux/memcontrol.h of 5.10).  The state slots below are therefore
 * enum node_stat_item (include/linux/mmzone.h) in full, then enum
 * memcg_stat_item, at their enum values; with Debian's amd64 config
 * (CONFIG_SHADOW_CALL_STACK=n: no NR_KERNEL_SCS_KB) that is
 * NR_VM_NODE_STAT_ITEMS = 37 node slots and MEMCG_NR_STAT = 40.  5.10 has
 * no flush; the slot count matters to memcg_flush_percpu_vmstats() at free,
 * which loops over all of them, and keeps the arrays the kernel's size.
 * The items placed are those 5.10 actually accounts to a memcg:
 *
 *   node items: those updated through the lruvec (__mod_lruvec_state() and
 *     friends).  Not NR_SHMEM_THPS or NR_FILE_THPS, which 5.10 counts per
 *     node only (__inc_node_page_state() in shmem_add_to_page_cache(),
 *     mm/shmem.c, and collapse_file(), mm/khugepaged.c), nor NR_VMSCAN_WRITE
 *     (inc_node_page_state() in pageout()): their slots stay unused.
 *     NR_PAGETABLE is still a zone item (inc_zone_page_state() in
 *     pgtable_pte_page_ctor()), and there is no vmalloc, kmem, swapcache,
 *     secondary pagetable or zswap item at all.
 *   memcg items: enum memcg_stat_item is MEMCG_SWAP, MEMCG_SOCK and
 *     MEMCG_PERCPU_B.
 *   events: the vm events 5.10 counts per memcg (count_memcg_events(),
 *     __count_memcg_events() and count_memcg_event_mm() callers), i.e.
 *     PGPGIN/PGPGOUT (mem_cgroup_charge_statistics()), the reclaim events of
 *     mm/vmscan.c, the fault events, the LRU and lazyfree events of
 *     mm/swap.c, and the THP allocation events.  These stay compact: 5.10's
 *     events[] has NR_VM_EVENT_ITEMS slots, most of them never counted per
 *     memcg, and only memcg_flush_percpu_vmevents() at free walks them.
 *
 * NR_ANON_THPS counts huge pages in 5.10: one per THP
 * (__inc_lruvec_page_state(page, NR_ANON_THPS) in page_add_anon_rmap() and
 * page_add_new_anon_rmap(), mm/rmap.c), printed x HPAGE_PMD_SIZE (v2 ratio,
 * memory_stats_init()) or x HPAGE_PMD_NR x PAGE_SIZE (v1 rss_huge).  The
 * layout marks its update unit MCG_UPDATE_HPAGES (hpage_items_5_10 below)
 * so that the per-CPU batch, which compares huge pages with
 * MEMCG_CHARGE_BATCH, publishes at the same THP as 5.10's; the emulation
 * stores pages, which prints the same bytes.
 */
static const enum mcg_item node_items_5_10[] = {
	MCG_INACTIVE_ANON,		/*  0 NR_INACTIVE_ANON = NR_LRU_BASE */
	MCG_ACTIVE_ANON,		/*  1 */
	MCG_INACTIVE_FILE,		/*  2 */
	MCG_ACTIVE_FILE,		/*  3 */
	MCG_UNEVICTABLE,		/*  4 */
	MCG_SLAB_RECLAIMABLE_B,		/*  5 */
	MCG_SLAB_UNRECLAIMABLE_B,	/*  6 */
	UNUSED_SLOT,			/*  7 NR_ISOLATED_ANON */
	UNUSED_SLOT,			/*  8 NR_ISOLATED_FILE */
	UNUSED_SLOT,			/*  9 WORKINGSET_NODES */
	MCG_WORKINGSET_REFAULT_ANON,	/* 10 = WORKINGSET_REFAULT_BASE */
	MCG_WORKINGSET_REFAULT_FILE,	/* 11 */
	MCG_WORKINGSET_ACTIVATE_ANON,	/* 12 = WORKINGSET_ACTIVATE_BASE */
	MCG_WORKINGSET_ACTIVATE_FILE,	/* 13 */
	MCG_WORKINGSET_RESTORE_ANON,	/* 14 = WORKINGSET_RESTORE_BASE */
	MCG_WORKINGSET_RESTORE_FILE,	/* 15 */
	MCG_WORKINGSET_NODERECLAIM,	/* 16 */
	MCG_ANON_MAPPED,		/* 17 */
	MCG_FILE_MAPPED,		/* 18 */
	MCG_FILE_PAGES,			/* 19 */
	MCG_FILE_DIRTY,			/* 20 */
	MCG_WRITEBACK,			/* 21 */
	UNUSED_SLOT,			/* 22 NR_WRITEBACK_TEMP */
	MCG_SHMEM,			/* 23 */
	UNUSED_SLOT,			/* 24 NR_SHMEM_THPS: node level only */
	UNUSED_SLOT,			/* 25 NR_SHMEM_PMDMAPPED */
	UNUSED_SLOT,			/* 26 NR_FILE_THPS: node level only */
	UNUSED_SLOT,			/* 27 NR_FILE_PMDMAPPED */
	MCG_ANON_THPS,			/* 28 CONFIG_TRANSPARENT_HUGEPAGE; in THPs */
	UNUSED_SLOT,			/* 29 NR_VMSCAN_WRITE: node level only */
	UNUSED_SLOT,			/* 30 NR_VMSCAN_IMMEDIATE */
	UNUSED_SLOT,			/* 31 NR_DIRTIED */
	UNUSED_SLOT,			/* 32 NR_WRITTEN */
	UNUSED_SLOT,			/* 33 NR_KERNEL_MISC_RECLAIMABLE */
	UNUSED_SLOT,			/* 34 NR_FOLL_PIN_ACQUIRED */
	UNUSED_SLOT,			/* 35 NR_FOLL_PIN_RELEASED */
	MCG_KERNEL_STACK_KB,		/* 36 */
};

/* Items 5.10 counts per memcg in huge pages.  Only NR_ANON_THPS: the
 * other THP items are node-level only here (see above), and every other
 * lruvec update in 5.10 passes base pages (thp_nr_pages() /
 * hpage_nr_pages() for a THP). */
static const enum mcg_item hpage_items_5_10[] = {
	MCG_ANON_THPS,
};

static const enum mcg_item memcg_items_5_10[] = {
	MCG_MEMCG_SWAP,			/* 37 = NR_VM_NODE_STAT_ITEMS */
	MCG_MEMCG_SOCK,			/* 38 */
	MCG_MEMCG_PERCPU_B,		/* 39; MEMCG_NR_STAT = 40 */
};

/* enum vm_event_item order (include/linux/vm_event_item.h of 5.10). */
static const enum mcg_item events_5_10[] = {
	MCG_PGPGIN,
	MCG_PGPGOUT,
	MCG_PGACTIVATE,
	MCG_PGDEACTIVATE,
	MCG_PGLAZYFREE,
	MCG_PGFAULT,
	MCG_PGMAJFAULT,
	MCG_PGLAZYFREED,
	MCG_PGREFILL,
	MCG_PGSTEAL_KSWAPD,
	MCG_PGSTEAL_DIRECT,
	MCG_PGSCAN_KSWAPD,
	MCG_PGSCAN_DIRECT,
	MCG_THP_FAULT_ALLOC,		/* CONFIG_TRANSPARENT_HUGEPAGE */
	MCG_THP_COLLAPSE_ALLOC,
};

/* memory_stats[] ratio 1 on a page-stored item: the workingset counts. */
static const enum mcg_item count_items_5_10[] = {
	MCG_WORKINGSET_REFAULT_ANON,
	MCG_WORKINGSET_REFAULT_FILE,
	MCG_WORKINGSET_ACTIVATE_ANON,
	MCG_WORKINGSET_ACTIVATE_FILE,
	MCG_WORKINGSET_RESTORE_ANON,
	MCG_WORKINGSET_RESTORE_FILE,
	MCG_WORKINGSET_NODERECLAIM,
};

/* memory_stats[] of 5.10, each row with its ratio: the ratio is exactly what
 * the storage and output units give (PAGE_SIZE for pages, 1024 for the KiB
 * stack, 1 for bytes and for the workingset counts, HPAGE_PMD_SIZE for
 * anon_thp counted in huge pages, which is PAGE_SIZE per page stored here),
 * so no ratio column is needed here. */
static const struct mcg_stat_row v2_stats_5_10[] = {
	{ "anon",			MCG_ANON_MAPPED },		/* PAGE_SIZE */
	{ "file",			MCG_FILE_PAGES },		/* PAGE_SIZE */
	{ "kernel_stack",		MCG_KERNEL_STACK_KB },		/* 1024 */
	{ "percpu",			MCG_MEMCG_PERCPU_B },		/* 1 */
	{ "sock",			MCG_MEMCG_SOCK },		/* PAGE_SIZE */
	{ "shmem",			MCG_SHMEM },			/* PAGE_SIZE */
	{ "file_mapped",		MCG_FILE_MAPPED },		/* PAGE_SIZE */
	{ "file_dirty",			MCG_FILE_DIRTY },		/* PAGE_SIZE */
	{ "file_writeback",		MCG_WRITEBACK },		/* PAGE_SIZE */
	{ "anon_thp",			MCG_ANON_THPS },		/* HPAGE_PMD_SIZE, THP */
	{ "inactive_anon",		MCG_INACTIVE_ANON },
	{ "active_anon",		MCG_ACTIVE_ANON },
	{ "inactive_file",		MCG_INACTIVE_FILE },
	{ "active_file",		MCG_ACTIVE_FILE },
	{ "unevictable",		MCG_UNEVICTABLE },
	{ "slab_reclaimable",		MCG_SLAB_RECLAIMABLE_B },	/* 1 */
	{ "slab_unreclaimable",		MCG_SLAB_UNRECLAIMABLE_B },	/* 1, then "slab" */
	{ "workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON },	/* 1 */
	{ "workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE },
	{ "workingset_activate_anon",	MCG_WORKINGSET_ACTIVATE_ANON },
	{ "workingset_activate_file",	MCG_WORKINGSET_ACTIVATE_FILE },
	{ "workingset_restore_anon",	MCG_WORKINGSET_RESTORE_ANON },
	{ "workingset_restore_file",	MCG_WORKINGSET_RESTORE_FILE },
	{ "workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM },
};

static const enum mcg_item pgscan_5_10[] = {
	MCG_PGSCAN_KSWAPD, MCG_PGSCAN_DIRECT,
};
static const enum mcg_item pgsteal_5_10[] = {
	MCG_PGSTEAL_KSWAPD, MCG_PGSTEAL_DIRECT,
};

/* memcg1_stats[] (memcg_stat_show()): no workingset_refault rows yet. */
static const struct mcg_stat_row v1_stats_5_10[] = {
	{ "cache",			MCG_FILE_PAGES },
	{ "rss",			MCG_ANON_MAPPED },
	{ "rss_huge",			MCG_ANON_THPS },	/* x HPAGE_PMD_NR x PAGE_SIZE */
	{ "shmem",			MCG_SHMEM },
	{ "mapped_file",		MCG_FILE_MAPPED },
	{ "dirty",			MCG_FILE_DIRTY },
	{ "writeback",			MCG_WRITEBACK },
	{ "swap",			MCG_MEMCG_SWAP },	/* do_memsw_account() */
};

/* memory_stat_format() of 5.10, line by line: the memory_stats[] loop with
 * "slab" after slab_unreclaimable, then the event lines it writes by hand,
 * pgfault, pgmajfault and pgrefill before the pgscan and pgsteal sums. */
static const struct mcg_stat_line v2_lines_5_10[] = {
	LINE("anon",			MCG_ANON_MAPPED),
	LINE("file",			MCG_FILE_PAGES),
	LINE("kernel_stack",		MCG_KERNEL_STACK_KB),
	LINE("percpu",			MCG_MEMCG_PERCPU_B),
	LINE("sock",			MCG_MEMCG_SOCK),
	LINE("shmem",			MCG_SHMEM),
	LINE("file_mapped",		MCG_FILE_MAPPED),
	LINE("file_dirty",		MCG_FILE_DIRTY),
	LINE("file_writeback",		MCG_WRITEBACK),
	LINE("anon_thp",		MCG_ANON_THPS),
	LINE("inactive_anon",		MCG_INACTIVE_ANON),
	LINE("active_anon",		MCG_ACTIVE_ANON),
	LINE("inactive_file",		MCG_INACTIVE_FILE),
	LINE("active_file",		MCG_ACTIVE_FILE),
	LINE("unevictable",		MCG_UNEVICTABLE),
	LINE("slab_reclaimable",	MCG_SLAB_RECLAIMABLE_B),
	LINE("slab_unreclaimable",	MCG_SLAB_UNRECLAIMABLE_B),
	SLAB_LINE,
	LINE("workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON),
	LINE("workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE),
	LINE("workingset_activate_anon", MCG_WORKINGSET_ACTIVATE_ANON),
	LINE("workingset_activate_file", MCG_WORKINGSET_ACTIVATE_FILE),
	LINE("workingset_restore_anon",	MCG_WORKINGSET_RESTORE_ANON),
	LINE("workingset_restore_file",	MCG_WORKINGSET_RESTORE_FILE),
	LINE("workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM),
	LINE("pgfault",			MCG_PGFAULT),
	LINE("pgmajfault",		MCG_PGMAJFAULT),
	LINE("pgrefill",		MCG_PGREFILL),
	PGSCAN_LINE,
	PGSTEAL_LINE,
	LINE("pgactivate",		MCG_PGACTIVATE),
	LINE("pgdeactivate",		MCG_PGDEACTIVATE),
	LINE("pglazyfree",		MCG_PGLAZYFREE),
	LINE("pglazyfreed",		MCG_PGLAZYFREED),
	LINE("thp_fault_alloc",		MCG_THP_FAULT_ALLOC),	/* CONFIG_TRANSPARENT_HUGEPAGE */
	LINE("thp_collapse_alloc",	MCG_THP_COLLAPSE_ALLOC),
};

/* ---- Linux 6.6 LTS, derived from history ----------------------------------
 *
 * No 6.6 source can be had here (Debian ships 6.1 and 6.12).  Each list
 * below is 6.1's with the commits that changed it between 6.1 and 6.6, and
 * was checked against a 6.6.14 mm/memcontrol.c read from the tool library
 * (memory_stats[], memcg_vm_event_stat[], memcg1_stats[], memory_files[],
 * __memory_events_show()):
 *
 *   enum node_stat_item, enum memcg_stat_item: unchanged from 6.1 (the
 *     demotion counters became node items, and memcg counts them, only
 *     after 6.6, as 6.12 has them; the vmalloc and zswap_incomp items came
 *     later still), so the state slots are 6.1's.
 *   memory_stats[]: unchanged from 6.1 (33 rows; the 6.6.14 copy has no
 *     pgdemote_* nor pgpromote_success row, which 6.12 has).
 *   memcg_vm_event_stat[]: 6.1's plus PGSCAN_KHUGEPAGED and
 *     PGSTEAL_KHUGEPAGED (57e9cc50f4dd "mm: vmscan: split khugepaged stats
 *     from direct reclaim stats", 6.2).  No zswpwb (7108cc3f765c "mm: memcg:
 *     add per-memcg zswap writeback stat", 6.8), and none of 6.12's
 *     thp_swpout*, swpin/swpout_zero or NUMA balancing events: the
 *     6.6.14 copy lacks them all.
 *   "pgscan"/"pgsteal": kswapd + direct + khugepaged (the same 6.2 commit).
 *   memcg1_stats[]: 6.1's (swapcached joined in 6.11's memcontrol-v1.c).
 */
static const enum mcg_item events_6_6[] = {
	MCG_PGPGIN,
	MCG_PGPGOUT,
	MCG_PGSCAN_KSWAPD,
	MCG_PGSCAN_DIRECT,
	MCG_PGSCAN_KHUGEPAGED,		/* 57e9cc50f4dd (6.2) */
	MCG_PGSTEAL_KSWAPD,
	MCG_PGSTEAL_DIRECT,
	MCG_PGSTEAL_KHUGEPAGED,		/* 57e9cc50f4dd (6.2) */
	MCG_PGFAULT,
	MCG_PGMAJFAULT,
	MCG_PGREFILL,
	MCG_PGACTIVATE,
	MCG_PGDEACTIVATE,
	MCG_PGLAZYFREE,
	MCG_PGLAZYFREED,
	MCG_ZSWPIN,			/* CONFIG_MEMCG_KMEM && CONFIG_ZSWAP */
	MCG_ZSWPOUT,
	MCG_THP_FAULT_ALLOC,		/* CONFIG_TRANSPARENT_HUGEPAGE */
	MCG_THP_COLLAPSE_ALLOC,
};

static const enum mcg_item pgscan_6_6[] = {
	MCG_PGSCAN_KSWAPD, MCG_PGSCAN_DIRECT, MCG_PGSCAN_KHUGEPAGED,
};
static const enum mcg_item pgsteal_6_6[] = {
	MCG_PGSTEAL_KSWAPD, MCG_PGSTEAL_DIRECT, MCG_PGSTEAL_KHUGEPAGED,
};

/* ---- Linux 5.15 LTS, derived from history ---------------------------------
 *
 * No 5.15 source can be had here.  5.15 is 5.10's structure (the memcg
 * arrays indexed by the full enums, memory_stat_format() writing the event
 * lines by hand) with the commits of 5.11 to 5.15, and 6.1's lists less the
 * commits of 5.16 to 6.1:
 *
 *   node items: 6.1's enum node_stat_item less NR_THROTTLED_WRITTEN (5.16,
 *     "mm/vmscan: throttle reclaim until some writeback completes if
 *     congested"), NR_SECONDARY_PAGETABLE (ebc97a52b5d6, 6.0) and
 *     PGPROMOTE_SUCCESS/PGPROMOTE_CANDIDATE (5.18 / 6.1): 39 slots.  Against
 *     5.10: NR_PAGETABLE became a node item (f0c0c115fb81 "mm: memcontrol:
 *     account pagetables per node", 5.11), NR_SWAPCACHE was added
 *     (b6038942480e "mm: memcg: add swapcache stat for memcg v2", 5.12), and
 *     the THP items count pages per lruvec (69473e5de873, 5.12, and the
 *     file/shmem THP conversions of 5.11-5.12), so no item counts huge
 *     pages any more.
 *   memcg items: MEMCG_SWAP, MEMCG_SOCK, MEMCG_PERCPU_B, as in 5.10: MEMCG_KMEM
 *     ("kernel", a8c49af3be5f, 5.18), MEMCG_VMALLOC (5.19) and the zswap
 *     items (f4840ccfca25, 5.19) came later.
 *   memory_stats[]: 6.1's rows less kernel (5.18), sec_pagetables (6.0),
 *     vmalloc (5.19), zswap and zswapped (5.19); against 5.10 it adds
 *     pagetables (5.11), swapcached (5.12), file_thp and shmem_thp (5.11).
 *   the event lines: 5.10's hand-written ones (memcg_vm_event_stat[] and its
 *     loop came with 6.0's "memcg: reduce size of memcg vmstats
 *     structures"), zswpin/zswpout not yet (5.19).
 *   memcg1_stats[]: 6.1's, with workingset_refault_anon/file ("mm:
 *     memcontrol: add workingset refault stats for cgroup v1", 5.14).
 */
static const enum mcg_item node_items_5_15[] = {
	MCG_INACTIVE_ANON,		/*  0 NR_INACTIVE_ANON = NR_LRU_BASE */
	MCG_ACTIVE_ANON,		/*  1 */
	MCG_INACTIVE_FILE,		/*  2 */
	MCG_ACTIVE_FILE,		/*  3 */
	MCG_UNEVICTABLE,		/*  4 */
	MCG_SLAB_RECLAIMABLE_B,		/*  5 */
	MCG_SLAB_UNRECLAIMABLE_B,	/*  6 */
	UNUSED_SLOT,			/*  7 NR_ISOLATED_ANON */
	UNUSED_SLOT,			/*  8 NR_ISOLATED_FILE */
	UNUSED_SLOT,			/*  9 WORKINGSET_NODES */
	MCG_WORKINGSET_REFAULT_ANON,	/* 10 */
	MCG_WORKINGSET_REFAULT_FILE,	/* 11 */
	MCG_WORKINGSET_ACTIVATE_ANON,	/* 12 */
	MCG_WORKINGSET_ACTIVATE_FILE,	/* 13 */
	MCG_WORKINGSET_RESTORE_ANON,	/* 14 */
	MCG_WORKINGSET_RESTORE_FILE,	/* 15 */
	MCG_WORKINGSET_NODERECLAIM,	/* 16 */
	MCG_ANON_MAPPED,		/* 17 */
	MCG_FILE_MAPPED,		/* 18 */
	MCG_FILE_PAGES,			/* 19 */
	MCG_FILE_DIRTY,			/* 20 */
	MCG_WRITEBACK,			/* 21 */
	UNUSED_SLOT,			/* 22 NR_WRITEBACK_TEMP */
	MCG_SHMEM,			/* 23 */
	MCG_SHMEM_THPS,			/* 24 */
	UNUSED_SLOT,			/* 25 NR_SHMEM_PMDMAPPED */
	MCG_FILE_THPS,			/* 26 */
	UNUSED_SLOT,			/* 27 NR_FILE_PMDMAPPED */
	MCG_ANON_THPS,			/* 28 */
	UNUSED_SLOT,			/* 29 NR_VMSCAN_WRITE: node level only */
	UNUSED_SLOT,			/* 30 NR_VMSCAN_IMMEDIATE */
	UNUSED_SLOT,			/* 31 NR_DIRTIED */
	UNUSED_SLOT,			/* 32 NR_WRITTEN */
	UNUSED_SLOT,			/* 33 NR_KERNEL_MISC_RECLAIMABLE */
	UNUSED_SLOT,			/* 34 NR_FOLL_PIN_ACQUIRED */
	UNUSED_SLOT,			/* 35 NR_FOLL_PIN_RELEASED */
	MCG_KERNEL_STACK_KB,		/* 36 */
	MCG_PAGETABLE,			/* 37 f0c0c115fb81 (5.11) */
	MCG_SWAPCACHE,			/* 38 CONFIG_SWAP, b6038942480e (5.12) */
};

static const enum mcg_item memcg_items_5_15[] = {
	MCG_MEMCG_SWAP,			/* 39 = NR_VM_NODE_STAT_ITEMS */
	MCG_MEMCG_SOCK,			/* 40 */
	MCG_MEMCG_PERCPU_B,		/* 41; MEMCG_NR_STAT = 42 */
};

/* memory_stat_format() of 5.15, line by line. */
static const struct mcg_stat_line v2_lines_5_15[] = {
	LINE("anon",			MCG_ANON_MAPPED),
	LINE("file",			MCG_FILE_PAGES),
	LINE("kernel_stack",		MCG_KERNEL_STACK_KB),
	LINE("pagetables",		MCG_PAGETABLE),		/* 5.11 */
	LINE("percpu",			MCG_MEMCG_PERCPU_B),
	LINE("sock",			MCG_MEMCG_SOCK),
	LINE("shmem",			MCG_SHMEM),
	LINE("file_mapped",		MCG_FILE_MAPPED),
	LINE("file_dirty",		MCG_FILE_DIRTY),
	LINE("file_writeback",		MCG_WRITEBACK),
	LINE("swapcached",		MCG_SWAPCACHE),		/* 5.12, CONFIG_SWAP */
	LINE("anon_thp",		MCG_ANON_THPS),		/* CONFIG_TRANSPARENT_HUGEPAGE */
	LINE("file_thp",		MCG_FILE_THPS),		/* 5.11 */
	LINE("shmem_thp",		MCG_SHMEM_THPS),	/* 5.11 */
	LINE("inactive_anon",		MCG_INACTIVE_ANON),
	LINE("active_anon",		MCG_ACTIVE_ANON),
	LINE("inactive_file",		MCG_INACTIVE_FILE),
	LINE("active_file",		MCG_ACTIVE_FILE),
	LINE("unevictable",		MCG_UNEVICTABLE),
	LINE("slab_reclaimable",	MCG_SLAB_RECLAIMABLE_B),
	LINE("slab_unreclaimable",	MCG_SLAB_UNRECLAIMABLE_B),
	SLAB_LINE,
	LINE("workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON),
	LINE("workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE),
	LINE("workingset_activate_anon", MCG_WORKINGSET_ACTIVATE_ANON),
	LINE("workingset_activate_file", MCG_WORKINGSET_ACTIVATE_FILE),
	LINE("workingset_restore_anon",	MCG_WORKINGSET_RESTORE_ANON),
	LINE("workingset_restore_file",	MCG_WORKINGSET_RESTORE_FILE),
	LINE("workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM),
	LINE("pgfault",			MCG_PGFAULT),
	LINE("pgmajfault",		MCG_PGMAJFAULT),
	LINE("pgrefill",		MCG_PGREFILL),
	PGSCAN_LINE,
	PGSTEAL_LINE,
	LINE("pgactivate",		MCG_PGACTIVATE),
	LINE("pgdeactivate",		MCG_PGDEACTIVATE),
	LINE("pglazyfree",		MCG_PGLAZYFREE),
	LINE("pglazyfreed",		MCG_PGLAZYFREED),
	LINE("thp_fault_alloc",		MCG_THP_FAULT_ALLOC),	/* CONFIG_TRANSPARENT_HUGEPAGE */
	LINE("thp_collapse_alloc",	MCG_THP_COLLAPSE_ALLOC),
};

/* memory_stats[] of 5.15: what v2 numa_stat loops over (the line list above
 * less the derived and event lines). */
static const struct mcg_stat_row v2_stats_5_15[] = {
	{ "anon",			MCG_ANON_MAPPED },
	{ "file",			MCG_FILE_PAGES },
	{ "kernel_stack",		MCG_KERNEL_STACK_KB },
	{ "pagetables",			MCG_PAGETABLE },
	{ "percpu",			MCG_MEMCG_PERCPU_B },
	{ "sock",			MCG_MEMCG_SOCK },
	{ "shmem",			MCG_SHMEM },
	{ "file_mapped",		MCG_FILE_MAPPED },
	{ "file_dirty",			MCG_FILE_DIRTY },
	{ "file_writeback",		MCG_WRITEBACK },
	{ "swapcached",			MCG_SWAPCACHE },
	{ "anon_thp",			MCG_ANON_THPS },
	{ "file_thp",			MCG_FILE_THPS },
	{ "shmem_thp",			MCG_SHMEM_THPS },
	{ "inactive_anon",		MCG_INACTIVE_ANON },
	{ "active_anon",		MCG_ACTIVE_ANON },
	{ "inactive_file",		MCG_INACTIVE_FILE },
	{ "active_file",		MCG_ACTIVE_FILE },
	{ "unevictable",		MCG_UNEVICTABLE },
	{ "slab_reclaimable",		MCG_SLAB_RECLAIMABLE_B },
	{ "slab_unreclaimable",		MCG_SLAB_UNRECLAIMABLE_B },
	{ "workingset_refault_anon",	MCG_WORKINGSET_REFAULT_ANON },
	{ "workingset_refault_file",	MCG_WORKINGSET_REFAULT_FILE },
	{ "workingset_activate_anon",	MCG_WORKINGSET_ACTIVATE_ANON },
	{ "workingset_activate_file",	MCG_WORKINGSET_ACTIVATE_FILE },
	{ "workingset_restore_anon",	MCG_WORKINGSET_RESTORE_ANON },
	{ "workingset_restore_file",	MCG_WORKINGSET_RESTORE_FILE },
	{ "workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM },
};

/* ---- Linux 5.4 LTS, derived from history ----------------------------------
 *
 * No 5.4 source can be had here.  Its memory_stat_format() was read from a
 * copy in the tool library (the seq_buf version of c8713d0b2312 "mm:
 * memcontrol: dump memory.stat during cgroup OOM", 5.3, with
 * mem_cgroup_lru_names[], which ebc5d83d0443 replaced in 5.5); the rest is
 * 5.10's lists less the commits of 5.5 to 5.10:
 *
 *   v2 memory.stat is all hand-written lines, in another order than 5.10:
 *     "slab" (reclaimable + unreclaimable, pages) right after kernel_stack,
 *     and the workingset lines between pgmajfault and pgrefill.  There is no
 *     percpu (772616b031f0, 5.9), no workingset_restore (5.9) and one
 *     workingset_refault and workingset_activate, of file pages only: anon
 *     pages joined the workingset in 5.9 (170b04b7ae49 "mm: workingset: age
 *     nonresident information alongside anonymous pages"), so those two
 *     lines print the file items here.
 *   anon, file, anon_thp and kernel_stack are memcg_stat_item counters
 *     (MEMCG_RSS, MEMCG_CACHE, MEMCG_RSS_HUGE, MEMCG_KERNEL_STACK_KB), not
 *     per-node items: NR_ANON_MAPPED etc. became the memcg's counters with
 *     the 5.8 charge rework (0d1c20722ab3 "mm: memcontrol: switch to native
 *     NR_ANON_MAPPED counter") and NR_KERNEL_STACK_KB a node item in 5.9
 *     (991e7673859e).  MEMCG_RSS_HUGE counts pages (HPAGE_PMD_NR per THP,
 *     printed x PAGE_SIZE).
 *   slab is in pages (NR_SLAB_RECLAIMABLE; bytes since d42f3245c7e2, 5.9);
 *     the emulation keeps bytes, which print the same for whole pages.
 *   enum node_stat_item of 5.4 (include/linux/mmzone.h): 32 entries, with
 *     NR_UNSTABLE_NFS (removed in 5.8) and without NR_FOLL_PIN_* (5.7) and
 *     NR_KERNEL_STACK_KB (5.9); enum memcg_stat_item: MEMCG_CACHE, MEMCG_RSS,
 *     MEMCG_RSS_HUGE, MEMCG_SWAP, MEMCG_SOCK, MEMCG_KERNEL_STACK_KB.
 *   memcg1_stats[]: 5.10's names (cache, rss, rss_huge, shmem, mapped_file,
 *     dirty, writeback, swap).
 *   no v2 memory.numa_stat (5f9a4f4a7096, 5.10): no memory_stats[] rows.
 */
static const enum mcg_item node_items_5_4[] = {
	MCG_INACTIVE_ANON,		/*  0 NR_INACTIVE_ANON = NR_LRU_BASE */
	MCG_ACTIVE_ANON,		/*  1 */
	MCG_INACTIVE_FILE,		/*  2 */
	MCG_ACTIVE_FILE,		/*  3 */
	MCG_UNEVICTABLE,		/*  4 */
	MCG_SLAB_RECLAIMABLE_B,		/*  5 NR_SLAB_RECLAIMABLE, pages */
	MCG_SLAB_UNRECLAIMABLE_B,	/*  6 NR_SLAB_UNRECLAIMABLE, pages */
	UNUSED_SLOT,			/*  7 NR_ISOLATED_ANON */
	UNUSED_SLOT,			/*  8 NR_ISOLATED_FILE */
	UNUSED_SLOT,			/*  9 WORKINGSET_NODES */
	MCG_WORKINGSET_REFAULT_FILE,	/* 10 WORKINGSET_REFAULT (file pages only) */
	MCG_WORKINGSET_ACTIVATE_FILE,	/* 11 WORKINGSET_ACTIVATE */
	MCG_WORKINGSET_RESTORE_FILE,	/* 12 WORKINGSET_RESTORE */
	MCG_WORKINGSET_NODERECLAIM,	/* 13 */
	UNUSED_SLOT,			/* 14 NR_ANON_MAPPED: memory.stat prints MEMCG_RSS */
	MCG_FILE_MAPPED,		/* 15 */
	UNUSED_SLOT,			/* 16 NR_FILE_PAGES: memory.stat prints MEMCG_CACHE */
	MCG_FILE_DIRTY,			/* 17 */
	MCG_WRITEBACK,			/* 18 */
	UNUSED_SLOT,			/* 19 NR_WRITEBACK_TEMP */
	MCG_SHMEM,			/* 20 */
	UNUSED_SLOT,			/* 21 NR_SHMEM_THPS: node level only */
	UNUSED_SLOT,			/* 22 NR_SHMEM_PMDMAPPED */
	UNUSED_SLOT,			/* 23 NR_FILE_THPS: node level only */
	UNUSED_SLOT,			/* 24 NR_FILE_PMDMAPPED */
	UNUSED_SLOT,			/* 25 NR_ANON_THPS: memory.stat prints MEMCG_RSS_HUGE */
	UNUSED_SLOT,			/* 26 NR_UNSTABLE_NFS */
	UNUSED_SLOT,			/* 27 NR_VMSCAN_WRITE */
	UNUSED_SLOT,			/* 28 NR_VMSCAN_IMMEDIATE */
	UNUSED_SLOT,			/* 29 NR_DIRTIED */
	UNUSED_SLOT,			/* 30 NR_WRITTEN */
	UNUSED_SLOT,			/* 31 NR_KERNEL_MISC_RECLAIMABLE */
};

/* enum memcg_stat_item of 5.4 (include/linux/memcontrol.h). */
static const enum mcg_item memcg_items_5_4[] = {
	MCG_FILE_PAGES,			/* 32 MEMCG_CACHE = NR_VM_NODE_STAT_ITEMS */
	MCG_ANON_MAPPED,		/* 33 MEMCG_RSS */
	MCG_ANON_THPS,			/* 34 MEMCG_RSS_HUGE, in pages */
	MCG_MEMCG_SWAP,			/* 35 */
	MCG_MEMCG_SOCK,			/* 36 */
	MCG_KERNEL_STACK_KB,		/* 37 MEMCG_KERNEL_STACK_KB; MEMCG_NR_STAT = 38 */
};

/* 5.4 prints refaults and activations as counts, like 5.10. */
static const enum mcg_item count_items_5_4[] = {
	MCG_WORKINGSET_REFAULT_FILE,
	MCG_WORKINGSET_ACTIVATE_FILE,
	MCG_WORKINGSET_RESTORE_FILE,
	MCG_WORKINGSET_NODERECLAIM,
};

/* memory_stat_format() of 5.4, line by line. */
static const struct mcg_stat_line v2_lines_5_4[] = {
	LINE("anon",			MCG_ANON_MAPPED),	/* MEMCG_RSS */
	LINE("file",			MCG_FILE_PAGES),	/* MEMCG_CACHE */
	LINE("kernel_stack",		MCG_KERNEL_STACK_KB),
	SLAB_LINE,
	LINE("sock",			MCG_MEMCG_SOCK),
	LINE("shmem",			MCG_SHMEM),
	LINE("file_mapped",		MCG_FILE_MAPPED),
	LINE("file_dirty",		MCG_FILE_DIRTY),
	LINE("file_writeback",		MCG_WRITEBACK),
	LINE("anon_thp",		MCG_ANON_THPS),		/* MEMCG_RSS_HUGE */
	LINE("inactive_anon",		MCG_INACTIVE_ANON),	/* mem_cgroup_lru_names[] */
	LINE("active_anon",		MCG_ACTIVE_ANON),
	LINE("inactive_file",		MCG_INACTIVE_FILE),
	LINE("active_file",		MCG_ACTIVE_FILE),
	LINE("unevictable",		MCG_UNEVICTABLE),
	LINE("slab_reclaimable",	MCG_SLAB_RECLAIMABLE_B),
	LINE("slab_unreclaimable",	MCG_SLAB_UNRECLAIMABLE_B),
	LINE("pgfault",			MCG_PGFAULT),
	LINE("pgmajfault",		MCG_PGMAJFAULT),
	LINE("workingset_refault",	MCG_WORKINGSET_REFAULT_FILE),
	LINE("workingset_activate",	MCG_WORKINGSET_ACTIVATE_FILE),
	LINE("workingset_nodereclaim",	MCG_WORKINGSET_NODERECLAIM),
	LINE("pgrefill",		MCG_PGREFILL),
	PGSCAN_LINE,
	PGSTEAL_LINE,
	LINE("pgactivate",		MCG_PGACTIVATE),
	LINE("pgdeactivate",		MCG_PGDEACTIVATE),
	LINE("pglazyfree",		MCG_PGLAZYFREE),
	LINE("pglazyfreed",		MCG_PGLAZYFREED),
	LINE("thp_fault_alloc",		MCG_THP_FAULT_ALLOC),	/* CONFIG_TRANSPARENT_HUGEPAGE */
	LINE("thp_collapse_alloc",	MCG_THP_COLLAPSE_ALLOC),
};

/* The totals the spec verified by counting the kernel arrays (spec 7.3):
 * state slots = node + memcg items, event slots include PGPGIN/PGPGOUT. */
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_7_3) == 50);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_7_3) + G_N_ELEMENTS(memcg_items_7_3) == 57);
G_STATIC_ASSERT(G_N_ELEMENTS(events_7_3) == 22);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_stats_7_3) == 49);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_6_12) == 31);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_6_12) + G_N_ELEMENTS(memcg_items_6_12) == 38);
G_STATIC_ASSERT(G_N_ELEMENTS(events_6_12) == 27);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_stats_6_12) == 37);
G_STATIC_ASSERT(G_N_ELEMENTS(v1_stats_7_3) == 11);
/* Counted from the 6.1 and 5.10 sources: memory_stats[] with Debian's
 * config, memcg_vm_event_stat[] (6.1), the hand-written event lines (5.10),
 * memcg1_stats[]. */
/* 6.1 and 5.10 list the full enums: NR_VM_NODE_STAT_ITEMS and
 * MEMCG_NR_STAT as counted in their comments. */
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_6_1) == 43);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_6_1) + G_N_ELEMENTS(memcg_items_6_1) == 50);
G_STATIC_ASSERT(G_N_ELEMENTS(events_6_1) == 17);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_stats_6_1) == 33);
G_STATIC_ASSERT(G_N_ELEMENTS(v1_stats_6_1) == 10);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_5_10) == 37);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_5_10) + G_N_ELEMENTS(memcg_items_5_10) == 40);
G_STATIC_ASSERT(G_N_ELEMENTS(events_5_10) == 15);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_stats_5_10) == 24);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_lines_5_10) == 36);
G_STATIC_ASSERT(G_N_ELEMENTS(v1_stats_5_10) == 8);
/* The history-derived layouts, counted from the lists of their comments. */
G_STATIC_ASSERT(G_N_ELEMENTS(events_6_6) == 19);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_5_15) == 39);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_5_15) + G_N_ELEMENTS(memcg_items_5_15) == 42);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_stats_5_15) == 28);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_lines_5_15) == 40);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_5_4) == 32);
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_5_4) + G_N_ELEMENTS(memcg_items_5_4) == 38);
G_STATIC_ASSERT(G_N_ELEMENTS(v2_lines_5_4) == 31);
/* Slots are u8 with 0xff as "none", and the inverse maps hold 64. */
G_STATIC_ASSERT(G_N_ELEMENTS(node_items_7_3) + G_N_ELEMENTS(memcg_items_7_3) <= 64);
G_STATIC_ASSERT(G_N_ELEMENTS(events_6_12) <= 64);
G_STATIC_ASSERT(MCG_NR_ITEMS < MCG_SLOT_NONE);

/* ---- Building ------------------------------------------------------------ */

/* One kernel version's lists, as transcribed above. */
struct layout_desc {
	const char *name;
	unsigned version;
	const enum mcg_item *node_items, *memcg_items, *events, *count_items;
	unsigned nr_node_items, nr_memcg_items, nr_events, nr_count_items;
	const struct mcg_stat_row *v2_stats;
	unsigned nr_v2_stats;
	const enum mcg_item *pgscan_items, *pgsteal_items;
	unsigned nr_pgscan_items, nr_pgsteal_items;
	/* v2 memory.stat line by line where the kernel wrote it by hand (up
	 * to 5.15); NULL: built from v2_stats and events, as
	 * memcg_stat_format() loops over them. */
	const struct mcg_stat_line *v2_lines;
	unsigned nr_v2_lines;
	const struct mcg_stat_row *v1_stats;
	unsigned nr_v1_stats;
	/* A CONFIG_MEMCG_V1=n build of the same lists: the entries of
	 * memcg_v1_only are left out (no slot, updates dropped) and there
	 * are no v1 rows. */
	bool no_memcg_v1;
	const enum mcg_item *memcg_v1_only;
	unsigned nr_memcg_v1_only;
	/* State items whose updates the kernel counts in huge pages. */
	const enum mcg_item *hpage_items;
	unsigned nr_hpage_items;
};

#define LIST(field, array) .field = (array), .nr_##field = G_N_ELEMENTS(array)

static const struct layout_desc layout_descs[MCG_NR_LAYOUTS] = {
	[MCG_LAYOUT_7_3] = {
		.name = "7.3",
		.version = MCG_KVER(7, 3),
		LIST(node_items, node_items_7_3),
		LIST(memcg_items, memcg_items_7_3),
		LIST(events, events_7_3),
		LIST(count_items, count_items_7_3),
		LIST(v2_stats, v2_stats_7_3),
		LIST(pgscan_items, pgscan_7_3),
		LIST(pgsteal_items, pgsteal_7_3),
		LIST(v1_stats, v1_stats_7_3),
	},
	[MCG_LAYOUT_6_12] = {
		.name = "6.12",
		.version = MCG_KVER(6, 12),
		LIST(node_items, node_items_6_12),
		LIST(memcg_items, memcg_items_6_12),
		LIST(events, events_6_12),
		LIST(count_items, count_items_6_12),
		LIST(v2_stats, v2_stats_6_12),
		LIST(pgscan_items, pgscan_6_12),
		LIST(pgsteal_items, pgsteal_6_12),
		/* Debian's 6.12 (config.amd64_none_amd64 of linux-config-6.12,
		 * 6.12.117): "# CONFIG_MEMCG_V1 is not set" - no v1 rows, and
		 * no PGPGIN/PGPGOUT (6.12 memcg_vm_event_stat[] has them under
		 * #ifdef CONFIG_MEMCG_V1, like 7.3's). */
		.no_memcg_v1 = true,
		LIST(memcg_v1_only, memcg_v1_only),
	},
	/* 6.12 built with CONFIG_MEMCG_V1=y (a v1 mount, or memcg_v1=y): the
	 * same lists with PGPGIN/PGPGOUT in memcg_vm_event_stat[] (27 events;
	 * memcg_stat_format() skips them in v2, so v2 prints the same lines)
	 * and memcg1_stats[] of mm/memcontrol-v1.c, as 7.3's. */
	[MCG_LAYOUT_6_12_V1] = {
		.name = "6.12-v1",
		.version = MCG_KVER(6, 12),
		LIST(node_items, node_items_6_12),
		LIST(memcg_items, memcg_items_6_12),
		LIST(events, events_6_12),
		LIST(count_items, count_items_6_12),
		LIST(v2_stats, v2_stats_6_12),
		LIST(pgscan_items, pgscan_6_12),
		LIST(pgsteal_items, pgsteal_6_12),
		LIST(v1_stats, v1_stats_7_3),
	},
	[MCG_LAYOUT_6_1] = {
		.name = "6.1",
		.version = MCG_KVER(6, 1),
		LIST(node_items, node_items_6_1),
		LIST(memcg_items, memcg_items_6_1),
		LIST(events, events_6_1),
		LIST(count_items, count_items_6_1),
		LIST(v2_stats, v2_stats_6_1),
		LIST(pgscan_items, pgscan_6_1),
		LIST(pgsteal_items, pgsteal_6_1),
		LIST(v1_stats, v1_stats_6_1),
	},
	[MCG_LAYOUT_5_10] = {
		.name = "5.10",
		.version = MCG_KVER(5, 10),
		LIST(node_items, node_items_5_10),
		LIST(memcg_items, memcg_items_5_10),
		LIST(events, events_5_10),
		LIST(count_items, count_items_5_10),
		LIST(v2_stats, v2_stats_5_10),
		LIST(pgscan_items, pgscan_5_10),
		LIST(pgsteal_items, pgsteal_5_10),
		LIST(v2_lines, v2_lines_5_10),
		LIST(v1_stats, v1_stats_5_10),
		LIST(hpage_items, hpage_items_5_10),
	},
	[MCG_LAYOUT_6_6] = {
		.name = "6.6",
		.version = MCG_KVER(6, 6),
		LIST(node_items, node_items_6_1),
		LIST(memcg_items, memcg_items_6_1),
		LIST(events, events_6_6),
		LIST(count_items, count_items_6_1),
		LIST(v2_stats, v2_stats_6_1),
		LIST(pgscan_items, pgscan_6_6),
		LIST(pgsteal_items, pgsteal_6_6),
		LIST(v1_stats, v1_stats_6_1),
	},
	[MCG_LAYOUT_5_15] = {
		.name = "5.15",
		.version = MCG_KVER(5, 15),
		LIST(node_items, node_items_5_15),
		LIST(memcg_items, memcg_items_5_15),
		LIST(events, events_5_10),
		LIST(count_items, count_items_5_10),
		LIST(v2_stats, v2_stats_5_15),
		LIST(pgscan_items, pgscan_5_10),
		LIST(pgsteal_items, pgsteal_5_10),
		LIST(v2_lines, v2_lines_5_15),
		LIST(v1_stats, v1_stats_6_1),
	},
	[MCG_LAYOUT_5_4] = {
		.name = "5.4",
		.version = MCG_KVER(5, 4),
		LIST(node_items, node_items_5_4),
		LIST(memcg_items, memcg_items_5_4),
		LIST(events, events_5_10),
		LIST(count_items, count_items_5_4),
		LIST(pgscan_items, pgscan_5_10),
		LIST(pgsteal_items, pgsteal_5_10),
		LIST(v2_lines, v2_lines_5_4),
		LIST(v1_stats, v1_stats_5_10),
	},
	/* 7.3's lists built as CONFIG_MEMCG_V1=n builds them: Debian's 7.3
	 * (config.amd64_none_amd64 of linux-config-7.3, 7.3.4: "# CONFIG_MEMCG_V1
	 * is not set") and seed 001's kernel.  Same version, so the same v2
	 * files (7.3's memory_files[] has no CONFIG_MEMCG_V1 entry; only
	 * legacy_cftypes and memsw_files, mem_cgroup_swap_init(), are v1-only). */
	[MCG_LAYOUT_7_3_NO_V1] = {
		.name = "7.3-no-v1",
		.version = MCG_KVER(7, 3),
		LIST(node_items, node_items_7_3),
		LIST(memcg_items, memcg_items_7_3),
		LIST(events, events_7_3),
		LIST(count_items, count_items_7_3),
		LIST(v2_stats, v2_stats_7_3),
		LIST(pgscan_items, pgscan_7_3),
		LIST(pgsteal_items, pgsteal_7_3),
		.no_memcg_v1 = true,
		LIST(memcg_v1_only, memcg_v1_only),
	},
};

#undef LIST

/* Built layouts, and the storage of the v2 lines built from memory_stats[]
 * and the event list.  Written once, under pthread_once. */
#define MAX_V2_LINES 128
static struct mcg_layout layouts[MCG_NR_LAYOUTS];
static struct mcg_stat_line v2_lines_built[MCG_NR_LAYOUTS][MAX_V2_LINES];

/* Is `item` left out of this build: an entry the kernel compiles only with
 * CONFIG_MEMCG_V1, in a layout built without it? */
static bool desc_drops(const struct layout_desc *d, enum mcg_item item)
{
	if (!d->no_memcg_v1)
		return false;
	for (unsigned i = 0; i < d->nr_memcg_v1_only; i++)
		if (d->memcg_v1_only[i] == item)
			return true;
	return false;
}

/* Gives item `item` the next slot of its kind; an item listed twice would
 * silently steal a slot, so that is a bug in the tables above. */
static void layout_place(struct mcg_layout *l, enum mcg_item item, enum mcg_item_kind kind,
			 unsigned slot)
{
	g_assert(l->kind[item] == MCG_KIND_ABSENT);
	l->kind[item] = kind;
	l->slot[item] = slot;
	if (kind == MCG_KIND_EVENT)
		l->event_item[slot] = item;
	else
		l->state_item[slot] = item;
}

static void layout_build(struct mcg_layout *l, enum mcg_layout_id id,
			 const struct layout_desc *d, struct mcg_stat_line *lines)
{
	unsigned i, slot = 0;

	memset(l, 0, sizeof(*l));
	l->id = id;
	l->name = d->name;
	l->version = d->version;

	for (i = 0; i < MCG_NR_ITEMS; i++) {
		l->kind[i] = MCG_KIND_ABSENT;
		l->slot[i] = MCG_SLOT_NONE;
		l->storage_unit[i] = item_storage_unit(i);
		l->output_unit[i] = MCG_OUT_BYTES;
		l->update_unit[i] = MCG_UPDATE_AS_STORED;
	}
	/* Unused slots of the inverse maps name no item. */
	for (i = 0; i < G_N_ELEMENTS(l->state_item); i++)
		l->state_item[i] = MCG_NR_ITEMS;
	for (i = 0; i < G_N_ELEMENTS(l->event_item); i++)
		l->event_item[i] = MCG_NR_ITEMS;

	/* init_memcg_stats(): node items first, then memcg-only items.  An
	 * UNUSED_SLOT entry takes its slot and names no item (the kernels that
	 * index by the full enums, 6.1 and 5.10); an entry the build drops
	 * takes none, as the kernel's #ifdef removes it from the list. */
	for (i = 0; i < d->nr_node_items; i++) {
		if (d->node_items[i] != UNUSED_SLOT && !desc_drops(d, d->node_items[i]))
			layout_place(l, d->node_items[i], MCG_KIND_NODE, slot);
		if (!desc_drops(d, d->node_items[i]))
			slot++;
	}
	l->nr_node_slots = slot;
	for (i = 0; i < d->nr_memcg_items; i++) {
		if (d->memcg_items[i] != UNUSED_SLOT && !desc_drops(d, d->memcg_items[i]))
			layout_place(l, d->memcg_items[i], MCG_KIND_MEMCG, slot);
		if (!desc_drops(d, d->memcg_items[i]))
			slot++;
	}
	l->nr_state_slots = slot;
	g_assert(l->nr_state_slots <= G_N_ELEMENTS(l->state_item));

	/* init_memcg_events(); an event is printed as the count it is. */
	slot = 0;
	for (i = 0; i < d->nr_events; i++) {
		if (desc_drops(d, d->events[i]))
			continue;
		layout_place(l, d->events[i], MCG_KIND_EVENT, slot++);
		l->output_unit[d->events[i]] = MCG_OUT_COUNT;
	}
	l->nr_event_slots = slot;
	g_assert(l->nr_event_slots <= G_N_ELEMENTS(l->event_item));

	/* Counted in huge pages: a page-stored state item printed in bytes,
	 * so that storing pages prints what the kernel's
	 * huge pages x HPAGE_PMD_SIZE prints. */
	for (i = 0; i < d->nr_hpage_items; i++) {
		enum mcg_item item = d->hpage_items[i];

		g_assert(l->kind[item] == MCG_KIND_NODE || l->kind[item] == MCG_KIND_MEMCG);
		g_assert(l->storage_unit[item] == MCG_STORE_PAGES);
		l->update_unit[item] = MCG_UPDATE_HPAGES;
	}

	/* State items the kernel exports as counts although stored in pages. */
	for (i = 0; i < d->nr_count_items; i++) {
		g_assert(l->kind[d->count_items[i]] == MCG_KIND_NODE);
		l->output_unit[d->count_items[i]] = MCG_OUT_COUNT;
	}

	for (i = 0; i < d->nr_v2_stats; i++)
		g_assert(mcg_layout_has(l, d->v2_stats[i].item));
	l->v2_stats = d->v2_stats;
	l->nr_v2_stats = d->nr_v2_stats;
	l->pgscan_items = d->pgscan_items;
	l->nr_pgscan_items = d->nr_pgscan_items;
	l->pgsteal_items = d->pgsteal_items;
	l->nr_pgsteal_items = d->nr_pgsteal_items;
	for (i = 0; i < d->nr_pgscan_items; i++)
		g_assert(mcg_layout_has(l, d->pgscan_items[i]));
	for (i = 0; i < d->nr_pgsteal_items; i++)
		g_assert(mcg_layout_has(l, d->pgsteal_items[i]));
	for (i = 0; i < d->nr_v1_stats; i++)
		g_assert(mcg_layout_has(l, d->v1_stats[i].item));
	/* memcg1_stats[] lives in mm/memcontrol-v1.c: no V1, no rows. */
	g_assert(!d->no_memcg_v1 || d->nr_v1_stats == 0);
	l->v1_stats = d->v1_stats;
	l->nr_v1_stats = d->nr_v1_stats;

	l->has_v1 = !d->no_memcg_v1;

	if (d->v2_lines != NULL) {
		for (i = 0; i < d->nr_v2_lines; i++)
			g_assert(d->v2_lines[i].kind != MCG_LINE_ITEM ||
				 mcg_layout_has(l, d->v2_lines[i].item));
		l->v2_lines = d->v2_lines;
		l->nr_v2_lines = d->nr_v2_lines;
		return;
	}

	/* memcg_stat_format(): the memory_stats[] rows with the derived "slab"
	 * after slab_unreclaimable, the two sums, then the events less
	 * PGPGIN/PGPGOUT, which exist only for v1's memory.stat.  Building the
	 * lines here keeps the formatter a plain loop. */
	l->v2_lines = lines;
	l->nr_v2_lines = 0;
	for (i = 0; i < d->nr_v2_stats; i++) {
		lines[l->nr_v2_lines++] = (struct mcg_stat_line)LINE(d->v2_stats[i].name,
								     d->v2_stats[i].item);
		if (d->v2_stats[i].item == MCG_SLAB_UNRECLAIMABLE_B)
			lines[l->nr_v2_lines++] = (struct mcg_stat_line)SLAB_LINE;
	}
	lines[l->nr_v2_lines++] = (struct mcg_stat_line)PGSCAN_LINE;
	lines[l->nr_v2_lines++] = (struct mcg_stat_line)PGSTEAL_LINE;
	for (i = 0; i < d->nr_events; i++) {
		enum mcg_item item = d->events[i];

		if (item == MCG_PGPGIN || item == MCG_PGPGOUT || desc_drops(d, item))
			continue;
		lines[l->nr_v2_lines++] = (struct mcg_stat_line)LINE(item_names[item], item);
	}
	g_assert(l->nr_v2_lines <= MAX_V2_LINES);
}

static void layouts_build(void)
{
	for (unsigned i = 0; i < MCG_NR_LAYOUTS; i++)
		layout_build(&layouts[i], i, &layout_descs[i], v2_lines_built[i]);
}

/* pthread_once rather than g_once: both publish the tables safely, but
 * ThreadSanitizer cannot see the release inside an uninstrumented libglib and
 * reports every first concurrent use as a race. */
const struct mcg_layout *mcg_layout_get(enum mcg_layout_id id)
{
	static pthread_once_t built = PTHREAD_ONCE_INIT;

	pthread_once(&built, layouts_build);
	g_return_val_if_fail((unsigned)id < MCG_NR_LAYOUTS, NULL);
	return &layouts[id];
}

enum mcg_layout_id mcg_layout_build(enum mcg_layout_id id, bool memcg_v1)
{
	switch (id) {
	case MCG_LAYOUT_7_3:
	case MCG_LAYOUT_7_3_NO_V1:
		return memcg_v1 ? MCG_LAYOUT_7_3 : MCG_LAYOUT_7_3_NO_V1;
	case MCG_LAYOUT_6_12:
	case MCG_LAYOUT_6_12_V1:
		return memcg_v1 ? MCG_LAYOUT_6_12_V1 : MCG_LAYOUT_6_12;
	default:
		return id;
	}
}

const struct mcg_layout *mcg_layout_by_name(const char *name)
{
	if (name == NULL)
		return NULL;
	for (unsigned i = 0; i < MCG_NR_LAYOUTS; i++)
		if (strcmp(layout_descs[i].name, name) == 0)
			return mcg_layout_get(i);
	return NULL;
}

/* memcg_page_state_output(): the reader already clamped negative state to 0
 * (memcg_page_state()); clamp here too so a raw value never wraps. */
unsigned long long mcg_layout_output_value(const struct mcg_layout *l, enum mcg_item item,
					    long stored)
{
	if (stored <= 0)
		return 0;
	if (l->output_unit[item] == MCG_OUT_COUNT)
		return (unsigned long long)stored;
	return (unsigned long long)stored * mcg_storage_unit_bytes(l->storage_unit[item]);
}

const char *mcg_item_name(enum mcg_item item)
{
	if ((unsigned)item >= MCG_NR_ITEMS)
		return "?";
	return item_names[item];
}
