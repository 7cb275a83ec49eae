/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renderers of the cgroup v1 memory.stat and memory.numa_stat (mm/memcontrol-v1.c
 * of 6.12 and 7.3, mm/memcontrol.c of 5.10 and 6.1). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "render/format.h"
#include "render/format_v1.h"

/*
 * v1 memory.stat is three blocks around a pair of limits:
 *
 *   local block     "key value"         this cgroup only   (state_local, events_local)
 *   limits          "hierarchical_memory_limit", "hierarchical_memsw_limit"
 *   total block     "total_key value"   cgroup + subtree   (state, events)
 *
 * and each block is the same three tables: memcg1_stats[] (sizes in bytes,
 * refaults as counts, by the memory.stat unit rules), memcg1_events[] (raw
 * counts) and the five LRU lists (pages x PAGE_SIZE).  The kernel writes the
 * local lines with "%s %lu" and the totals with "total_%s %llu"; on LP64 the
 * two print the same digits, but the formats are kept as the kernel has them.
 *
 * The memcg1_stats[] rows depend on the kernel (layout->v1_stats, from
 * src/kernel/items.c): 5.4 and 5.10 have no workingset_refault_* rows, 5.14
 * added them (5.15, 6.1, 6.6), and 6.12 and 7.3 add swapcached after swap.
 * The events, the LRU lines and the two limits are the same in every
 * release modelled (memcg_stat_show() in 5.10 and 6.1 mm/memcontrol.c,
 * memcg1_stat_format() in 6.12 and 7.3 mm/memcontrol-v1.c; 5.4, 5.15 and
 * 6.6 derived, see items.c), so those tables live here.  hierarchical_memsw_limit
 * and the swap rows are gated by do_memsw_account(), true on every v1
 * hierarchy with swap accounting (Debian's default), as emulated.
 */

struct mcg1_row {
	const char *name;
	enum mcg_item item;
};

/* memcg1_events[], "original sort order"; named by vm_event_name(). */
static const enum mcg_item mcg1_events[] = {
	MCG_PGPGIN,
	MCG_PGPGOUT,
	MCG_PGFAULT,
	MCG_PGMAJFAULT,
};

/* enum lru_list order with lru_list_name(); the bit of an entry in an LRU
 * mask is its index here (BIT(LRU_INACTIVE_ANON) ...). */
static const struct mcg1_row mcg1_lrus[] = {
	{ "inactive_anon",		MCG_INACTIVE_ANON },
	{ "active_anon",		MCG_ACTIVE_ANON },
	{ "inactive_file",		MCG_INACTIVE_FILE },
	{ "active_file",		MCG_ACTIVE_FILE },
	{ "unevictable",		MCG_UNEVICTABLE },
};

#define LRU_BIT(i) (1U << (i))
#define LRU_ALL_ANON (LRU_BIT(0) | LRU_BIT(1))
#define LRU_ALL_FILE (LRU_BIT(2) | LRU_BIT(3))
#define LRU_ALL ((1U << G_N_ELEMENTS(mcg1_lrus)) - 1)

/* One line of a block: the local block and the totals differ in prefix and
 * in the kernel's format. */
static void mcg1_line_append(GString *out, enum mcg_scope scope, const char *name,
			     unsigned long value)
{
	if (scope == MCG_LOCAL)
		g_string_append_printf(out, "%s %lu\n", name, value);
	else
		g_string_append_printf(out, "total_%s %llu\n", name, (unsigned long long)value);
}

static void mcg1_block_append(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out,
			      enum mcg_scope scope)
{
	const struct mcg_layout *l = mcg_engine_layout(e);

	/* memcg_page_state_local_output() / memcg_page_state_output() */
	for (unsigned i = 0; i < l->nr_v1_stats; i++) {
		enum mcg_item item = l->v1_stats[i].item;
		long stored = (long)mcg_stat_read(e, cg, item, scope);

		mcg1_line_append(out, scope, l->v1_stats[i].name,
				 (unsigned long)mcg_layout_output_value(l, item, stored));
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(mcg1_events); i++)
		mcg1_line_append(out, scope, mcg_item_name(mcg1_events[i]),
				 mcg_stat_read(e, cg, mcg1_events[i], scope));
	/* LRU sizes are always pages, so the kernel multiplies by PAGE_SIZE
	 * directly instead of going through the output unit. */
	for (unsigned i = 0; i < G_N_ELEMENTS(mcg1_lrus); i++)
		mcg1_line_append(out, scope, mcg1_lrus[i].name,
				 mcg_stat_read(e, cg, mcg1_lrus[i].item, scope) * MCG_PAGE_SIZE);
}

static const struct mcg1_limit_row {
	const char *name;
	enum mcg_counter counter;
} mcg1_limits[] = {
	{ "hierarchical_memory_limit",	MCG_COUNTER_MEMORY },
	{ "hierarchical_memsw_limit",	MCG_COUNTER_MEMSW },
};

/* memcg1_stat_format() */
void mcg1_stat_format(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	mcg_memcg_flush_stats(e, cg);

	mcg1_block_append(e, cg, out, MCG_LOCAL);
	for (unsigned i = 0; i < G_N_ELEMENTS(mcg1_limits); i++)
		g_string_append_printf(out, "%s %llu\n", mcg1_limits[i].name,
				       mcg_format_hierarchical_limit(cg, mcg1_limits[i].counter));
	mcg1_block_append(e, cg, out, MCG_HIERARCHICAL);
}

/* ---- memory.numa_stat ------------------------------------------------------ */

/*
 * v1 numa_stat prints LRU sizes in pages for four masks, first this cgroup
 * alone, then its subtree:
 *
 *   total=<memcg-wide> N0=<node 0> N1=<node 1> ...      local: state_local
 *   ...
 *   hierarchical_total=<memcg-wide> N0=... N1=...       subtree
 *
 * The memcg-wide number is read from the memcg's own counters, not summed
 * from the printed nodes (they agree only without memoryless nodes).
 *
 * Where the subtree numbers come from is what seed 003 is about.  Since v5.8
 * (dd8657b6c1cb, "memcg: optimize memory.numa_stat like memory.stat") they
 * are read from the hierarchical counters the rstat flush keeps: O(1) per
 * number.  Before it the kernel walked the whole subtree
 * (for_each_mem_cgroup_tree) and summed each memcg's local LRU counts, and did
 * that once for the memcg-wide number and once more per node, for each of
 * the four masks:
 *
 *   walks per read = 4 masks x (1 + nr_nodes), each visiting every
 *                    descendant and summing the LRUs of the mask
 *
 * so reading the root's numa_stat with 10,000 memcgs took 0.7 s.  With the
 * numa_stat_walk switch on, the emulation repeats that walk literally; the
 * numbers are the same as the hierarchical counters give, only slower, which
 * is the cost being reproduced.
 */

static const struct mcg1_numa_stat {
	const char *name;
	unsigned lru_mask;
} mcg1_numa_stats[] = {
	{ "total",		LRU_ALL },
	{ "file",		LRU_ALL_FILE },
	{ "anon",		LRU_ALL_ANON },
	{ "unevictable",	LRU_BIT(4) },
};

/* Pages on the LRUs of lru_mask: memcg-wide when nid < 0, else on node nid
 * (mem_cgroup_nr_lru_pages(), mem_cgroup_node_nr_lru_pages()). */
static unsigned long mcg1_lru_pages(struct mcg_engine *e, struct mcg_cgroup *cg, int nid,
				    unsigned lru_mask, enum mcg_scope scope)
{
	unsigned long nr = 0;

	for (unsigned i = 0; i < G_N_ELEMENTS(mcg1_lrus); i++) {
		if (!(lru_mask & LRU_BIT(i)))
			continue;
		if (nid < 0)
			nr += mcg_stat_read(e, cg, mcg1_lrus[i].item, scope);
		else
			nr += mcg_stat_read_node(e, cg, nid, mcg1_lrus[i].item, scope);
	}
	return nr;
}

struct mcg1_walk_sum {
	struct mcg_engine *e;
	int nid;
	unsigned lru_mask;
	unsigned long nr;
};

static void mcg1_walk_sum_one(struct mcg_cgroup *iter, void *arg)
{
	struct mcg1_walk_sum *ws = arg;

	ws->nr += mcg1_lru_pages(ws->e, iter, ws->nid, ws->lru_mask, MCG_LOCAL);
}

/* A hierarchical number: the maintained counter, or (seed 003 before) the
 * pre-v5.8 sum of local counters over a fresh walk of the subtree. */
static unsigned long mcg1_tree_lru_pages(struct mcg_engine *e, struct mcg_cgroup *cg, int nid,
					 unsigned lru_mask)
{
	struct mcg1_walk_sum ws = { .e = e, .nid = nid, .lru_mask = lru_mask, .nr = 0 };

	if (mcg_engine_config(e)->kernel.numa_stat != MCG_NUMA_STAT_SUBTREE_WALK)
		return mcg1_lru_pages(e, cg, nid, lru_mask, MCG_HIERARCHICAL);
	mcg_cgroup_walk(e, cg, mcg1_walk_sum_one, &ws);
	return ws.nr;
}

/* memcg_numa_stat_show() */
void mcg1_numa_stat_format(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	unsigned nr_nodes = mcg_engine_config(e)->nr_nodes;

	mcg_memcg_flush_stats(e, cg);

	for (unsigned i = 0; i < G_N_ELEMENTS(mcg1_numa_stats); i++) {
		const struct mcg1_numa_stat *stat = &mcg1_numa_stats[i];

		g_string_append_printf(out, "%s=%lu", stat->name,
				       mcg1_lru_pages(e, cg, -1, stat->lru_mask, MCG_LOCAL));
		for (unsigned nid = 0; nid < nr_nodes; nid++)
			g_string_append_printf(out, " N%d=%lu", (int)nid,
					       mcg1_lru_pages(e, cg, (int)nid, stat->lru_mask,
							      MCG_LOCAL));
		g_string_append_c(out, '\n');
	}

	for (unsigned i = 0; i < G_N_ELEMENTS(mcg1_numa_stats); i++) {
		const struct mcg1_numa_stat *stat = &mcg1_numa_stats[i];

		g_string_append_printf(out, "hierarchical_%s=%lu", stat->name,
				       mcg1_tree_lru_pages(e, cg, -1, stat->lru_mask));
		for (unsigned nid = 0; nid < nr_nodes; nid++)
			g_string_append_printf(out, " N%d=%lu", (int)nid,
					       mcg1_tree_lru_pages(e, cg, (int)nid,
								   stat->lru_mask));
		g_string_append_c(out, '\n');
	}
}
