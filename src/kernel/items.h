/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistic items of the memory controller and the kernel layouts that arrange them.
 *
 * The kernel keeps memcg statistics in compact arrays: a u8 map turns an enum
 * item into a slot, node (lruvec) items first, then memcg-only items, and a
 * separate event array.  Which items exist, whether an item is a per-node
 * state, a memcg-wide state or an event, its storage unit and its output unit
 * all changed between kernel versions (pgscan and pgsteal were events in 6.12
 * and are per-node state in 7.3; vmalloc moved from memcg-only to per-node).
 *
 * memcgfs therefore names every item that any supported layout has in one
 * enum, and a layout (struct mcg_layout) says, for its kernel version, what
 * each item is.  Updaters speak in items and never care about the layout;
 * the engine sizes and indexes its arrays from the layout; formatters print
 * the layout's tables.  Nothing downstream hard-codes a key.
 *
 * Layouts are immutable after construction and shared by all threads.
 */
#ifndef MEMCGFS_KERNEL_ITEMS_H
#define MEMCGFS_KERNEL_ITEMS_H

#include <stdbool.h>
#include <stdint.h>

#define MCG_PAGE_SIZE 4096L
#define MCG_PAGE_SHIFT 12
/* HPAGE_PMD_NR on amd64: base pages in a PMD-mapped THP. */
#define MCG_HPAGE_PMD_NR 512L

/* Every statistic item of every supported layout (kernel enum names without
 * the NR_ prefix).  Order here is irrelevant to output: layouts own order. */
enum mcg_item {
	/* node_stat_item */
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
	MCG_SWAPCACHE,
	MCG_PGPROMOTE_SUCCESS,
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
	MCG_HUGETLB,
	/* memcg_stat_item */
	MCG_MEMCG_SWAP,
	MCG_MEMCG_SOCK,
	MCG_MEMCG_PERCPU_B,
	MCG_MEMCG_KMEM,
	MCG_MEMCG_ZSWAP_B,
	MCG_MEMCG_ZSWAPPED,
	MCG_MEMCG_ZSWAP_INCOMP,
	/* vm_event_item counted per memcg */
	MCG_PGPGIN,
	MCG_PGPGOUT,
	MCG_PSWPIN,
	MCG_PSWPOUT,
	MCG_PGFAULT,
	MCG_PGMAJFAULT,
	MCG_PGACTIVATE,
	MCG_PGDEACTIVATE,
	MCG_PGLAZYFREE,
	MCG_PGLAZYFREED,
	MCG_SWPIN_ZERO,
	MCG_SWPOUT_ZERO,
	MCG_ZSWPIN,
	MCG_ZSWPOUT,
	MCG_ZSWPWB,
	MCG_THP_FAULT_ALLOC,
	MCG_THP_COLLAPSE_ALLOC,
	MCG_THP_SWPOUT,
	MCG_THP_SWPOUT_FALLBACK,
	MCG_NUMA_PAGE_MIGRATE,
	MCG_NUMA_PTE_UPDATES,
	MCG_NUMA_HINT_FAULTS,
	MCG_NR_ITEMS
};

/* What an item is in one layout. */
enum mcg_item_kind {
	MCG_KIND_ABSENT = 0,	/* not tracked by this kernel: updates are dropped */
	MCG_KIND_NODE,		/* per-node (lruvec) state, also summed memcg-wide */
	MCG_KIND_MEMCG,		/* memcg-wide state only */
	MCG_KIND_EVENT,		/* monotonic event counter, memcg-wide */
};

/* Unit a state item is stored in (memcg_page_state_unit()). */
enum mcg_storage_unit {
	MCG_STORE_PAGES = 0,
	MCG_STORE_BYTES,
	MCG_STORE_KB,
};

/* Unit the kernel counts an item's updates in, where that is not its storage
 * unit.  Updaters always pass pages (a THP is MCG_HPAGE_PMD_NR of them) and
 * the emulation stores pages, which prints the same bytes; what the unit
 * changes is 5.10's per-CPU batch, which compares the kernel's count with
 * MEMCG_CHARGE_BATCH (memcg-batched.c). */
enum mcg_update_unit {
	MCG_UPDATE_AS_STORED = 0,
	/* One per huge page: 5.10's NR_ANON_THPS
	 * (__inc_lruvec_page_state(page, NR_ANON_THPS) in mm/rmap.c). */
	MCG_UPDATE_HPAGES,
};

/* Unit a state item is printed in (memcg_page_state_output_unit()). */
enum mcg_output_unit {
	MCG_OUT_BYTES = 0,	/* stored value converted to bytes */
	MCG_OUT_COUNT,		/* printed raw, as a count of events/pages */
};

/* One printed row of a v2 table: key and the item behind it. */
struct mcg_stat_row {
	const char *name;
	enum mcg_item item;
};

/* What a line of v2 memory.stat prints. */
enum mcg_line_kind {
	MCG_LINE_ITEM = 0,	/* "name value": a state item in its output unit, or an event */
	MCG_LINE_SLAB,		/* "slab": slab_reclaimable + slab_unreclaimable, in bytes */
	MCG_LINE_PGSCAN,	/* "pgscan": the raw sum of the layout's pgscan items */
	MCG_LINE_PGSTEAL,	/* "pgsteal": the raw sum of its pgsteal items */
};

/* One line of v2 memory.stat, in the order the kernel prints it. */
struct mcg_stat_line {
	const char *name;
	enum mcg_line_kind kind;
	enum mcg_item item;	/* MCG_LINE_ITEM only */
};

/* The layouts: one per tabulated kernel release (src/kernel/items.c), and
 * for 6.12 and 7.3, whose source has the CONFIG_MEMCG_V1 option, a second
 * build of the same tables: 6.12 as Debian builds it (without) and with it,
 * 7.3 with it and without (seed 001's, and Debian's).  A release between two
 * tables prints the older table (mcg_kernel_resolve()); which build it
 * prints follows its CONFIG_MEMCG_V1 (mcg_layout_build()). */
enum mcg_layout_id {
	MCG_LAYOUT_7_3 = 0,	/* Linux 7.3 with CONFIG_MEMCG_V1=y */
	MCG_LAYOUT_6_12,	/* Linux 6.12 LTS, CONFIG_MEMCG_V1=n as Debian's */
	MCG_LAYOUT_6_1,		/* Linux 6.1 LTS */
	MCG_LAYOUT_5_10,	/* Linux 5.10 LTS */
	MCG_LAYOUT_7_3_NO_V1,	/* Linux 7.3 with CONFIG_MEMCG_V1=n (Debian's, seed 001) */
	MCG_LAYOUT_6_6,		/* Linux 6.6 LTS, derived from history */
	MCG_LAYOUT_5_15,	/* Linux 5.15 LTS, derived from history */
	MCG_LAYOUT_5_4,		/* Linux 5.4 LTS, derived from history */
	MCG_LAYOUT_6_12_V1,	/* Linux 6.12 with CONFIG_MEMCG_V1=y */
	MCG_NR_LAYOUTS
};

#define MCG_SLOT_NONE 0xff

/* A kernel version as one comparable number: MCG_KVER(6, 1) < MCG_KVER(6, 12). */
#define MCG_KVER(major, minor) (((unsigned)(major) << 8) | (unsigned)(minor))

/* A kernel layout.  All arrays are built once by mcg_layout_get(). */
struct mcg_layout {
	enum mcg_layout_id id;
	const char *name;		/* "7.3", "6.12", "7.3-no-v1", "6.12-v1" */
	unsigned version;		/* MCG_KVER() of the kernel: files and event
					 * lines are gated on it */

	/* Per item: kind, slot in its array, storage and output unit. */
	uint8_t kind[MCG_NR_ITEMS];
	uint8_t slot[MCG_NR_ITEMS];	/* MCG_SLOT_NONE when absent */
	uint8_t storage_unit[MCG_NR_ITEMS];
	uint8_t output_unit[MCG_NR_ITEMS];
	uint8_t update_unit[MCG_NR_ITEMS];	/* enum mcg_update_unit */

	/* Array sizes: state = node slots first, then memcg-only slots. */
	unsigned nr_node_slots;
	unsigned nr_state_slots;	/* MEMCG_VMSTAT_SIZE */
	unsigned nr_event_slots;	/* NR_MEMCG_EVENTS */
	/* Inverse maps: which item sits in a slot. */
	enum mcg_item state_item[64];
	enum mcg_item event_item[64];

	/* memory_stats[] rows in order: what v2 numa_stat prints (its per-node
	 * rows).  None for 5.4, which has no memory_stats[] and no v2
	 * numa_stat.  The MCG_HUGETLB row prints only with hugetlb accounting on
	 * (in memory.stat; numa_stat prints it always). */
	const struct mcg_stat_row *v2_stats;
	unsigned nr_v2_stats;
	/* Items summed into the "pgscan" and "pgsteal" summary lines. */
	const enum mcg_item *pgscan_items, *pgsteal_items;
	unsigned nr_pgscan_items, nr_pgsteal_items;
	/* v2 memory.stat, line by line.  From 6.1 on built from memory_stats[]
	 * as memcg_stat_format() loops: the rows (with "slab" after
	 * slab_unreclaimable), "pgscan", "pgsteal", then memcg_vm_event_stat[]
	 * less PGPGIN and PGPGOUT.  Up to 5.15 the kernel wrote the lines by
	 * hand (memory_stat_format()), and the layout lists them as written. */
	const struct mcg_stat_line *v2_lines;
	unsigned nr_v2_lines;

	/* v1 memory.stat: memcg1_stats[] with memcg1_stat_names[], in order.
	 * The memcg1_events[] and LRU lines are the same in every layout.
	 * None in a CONFIG_MEMCG_V1=n layout, which has no v1 memory.stat. */
	const struct mcg_stat_row *v1_stats;
	unsigned nr_v1_stats;
	/* The legacy (v1) memory controller is built: false for a layout built
	 * with CONFIG_MEMCG_V1=n (Debian's 6.12 and 7.3, seed 001). */
	bool has_v1;
};

/* The layout for an id; never NULL for a valid id.  Thread-safe. */
const struct mcg_layout *mcg_layout_get(enum mcg_layout_id id);
/* The layout named "7.3", "6.12", "6.6", "6.1", "5.15", "5.10", "5.4",
 * "7.3-no-v1" or "6.12-v1", or NULL. */
const struct mcg_layout *mcg_layout_by_name(const char *name);
/* The build of layout id's tables with (memcg_v1) or without CONFIG_MEMCG_V1:
 * MCG_LAYOUT_7_3 <-> MCG_LAYOUT_7_3_NO_V1, MCG_LAYOUT_6_12 <->
 * MCG_LAYOUT_6_12_V1.  The tables of the releases before the option (6.11,
 * "mm: memcg: put cgroup v1-specific code under a config option") have one
 * build, with v1, and are returned as they are: 6.6's table, which 6.11
 * prints, keeps its PGPGIN/PGPGOUT slots either way (see kernel.c). */
enum mcg_layout_id mcg_layout_build(enum mcg_layout_id id, bool memcg_v1);

/* Is the item tracked by this layout at all? */
static inline bool mcg_layout_has(const struct mcg_layout *l, enum mcg_item item)
{
	return l->kind[item] != MCG_KIND_ABSENT;
}

/* Stored units (pages) per unit the kernel counts the item's updates in:
 * MCG_HPAGE_PMD_NR for an item counted in huge pages, else 1. */
static inline long mcg_layout_update_scale(const struct mcg_layout *l, enum mcg_item item)
{
	return l->update_unit[item] == MCG_UPDATE_HPAGES ? MCG_HPAGE_PMD_NR : 1;
}

/* Bytes in one unit of storage. */
static inline unsigned long mcg_storage_unit_bytes(enum mcg_storage_unit unit)
{
	switch (unit) {
	case MCG_STORE_BYTES:
		return 1;
	case MCG_STORE_KB:
		return 1024;
	case MCG_STORE_PAGES:
	default:
		return MCG_PAGE_SIZE;
	}
}

/* memcg_state_val_in_pages(): the flush threshold counts page-sized changes,
 * so a byte or KiB change is scaled to pages and rounded up to one page,
 * because a change that rounds to 0 would not count at all and a stream of
 * small slab updates would never trigger a flush.  `unit` is the item's
 * storage unit in bytes.  Inline: every stat update of the 6.12 and 7.3
 * eras runs it, as the kernel's is inline. */
static inline unsigned long mcg_state_val_in_pages(unsigned long unit, unsigned long abs_val)
{
	unsigned long pages;

	if (unit == MCG_PAGE_SIZE || abs_val == 0)
		return abs_val;
	/* mult_frac(): no overflow for any |val| */
	pages = (abs_val / MCG_PAGE_SIZE) * unit + (abs_val % MCG_PAGE_SIZE) * unit / MCG_PAGE_SIZE;
	return pages ? pages : 1;
}

/* The same for any item of a layout: events count as themselves, absent
 * items for nothing. */
static inline unsigned long mcg_layout_val_in_pages(const struct mcg_layout *l, enum mcg_item item,
						    long val)
{
	unsigned long abs_val = val < 0 ? 0UL - (unsigned long)val : (unsigned long)val;

	if (l->kind[item] == MCG_KIND_ABSENT)
		return 0;
	if (l->kind[item] == MCG_KIND_EVENT)
		return abs_val;
	return mcg_state_val_in_pages(
		mcg_storage_unit_bytes((enum mcg_storage_unit)l->storage_unit[item]), abs_val);
}

/* A stored state value converted for output (memory.stat, numa_stat). */
unsigned long long mcg_layout_output_value(const struct mcg_layout *l, enum mcg_item item,
					    long stored);

/* Kernel name of an item ("nr_inactive_anon", "pgfault"), for diagnostics. */
const char *mcg_item_name(enum mcg_item item);

#endif
