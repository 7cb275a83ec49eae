/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux 5.10 (LTS): memcg statistics before rstat.
 *
 * memcg does not take part in rstat yet.  __mod_memcg_state() adds a change
 * to the CPU's own batch (vmstats_percpu->stat[]); when the batch passes
 * MEMCG_CHARGE_BATCH pages (<< PAGE_SHIFT for byte items), the whole batch is
 * added with atomic_long_add() to vmstats[] of the memcg *and of every
 * ancestor*, and to the CPU's local counter (vmstats_local).
 * __mod_memcg_lruvec_state() does the same for the per-node counters, except
 * that its local counter (lruvec_stat_local) takes every change unbatched;
 * __count_memcg_events() batches events the same way.  So:
 *
 *  - a hierarchical read is one atomic load, off by up to a batch per CPU per
 *    level; nothing flushes;
 *  - a local read (memcg_page_state_local(), lruvec_page_state_local()) sums
 *    the per-CPU locals over for_each_possible_cpu;
 *  - when the memcg is freed, memcg_flush_percpu_vmstats() and
 *    memcg_flush_percpu_vmevents() (mem_cgroup_css_free()) add what is left
 *    in the batches to the atomics of the memcg and its ancestors; its locals
 *    are not handed to anyone.
 *
 * rstat exists for the base CPU-time stats and blkcg's io.stat: one tree,
 * cgroup_rstat_updated() under the per-CPU cgroup_rstat_cpu_lock, and a
 * flush that pops the tree post-order with that lock held
 * (cgroup_rstat_flush_locked(), kernel/cgroup/rstat.c).
 *
 * v1 memory.numa_stat already reads the hierarchical counters here
 * (memcg_numa_stat_show() with mem_cgroup_node_nr_lru_pages(..., tree)):
 * seed 003's patch went into 5.8, and its before is this era with it
 * reverted.
 *
 * Built as Debian builds it (config.amd64_none_amd64 of linux-config-5.10,
 * 5.10.223): CONFIG_SWAP, ZSWAP, TRANSPARENT_HUGEPAGE, NUMA_BALANCING and
 * HUGETLB_PAGE on; 5.10 has no CONFIG_LRU_GEN nor CONFIG_MEMCG_V1 (v1 is
 * always built).
 */
#include "kernel/eras.h"

const struct mcg_kernel mcg_era_5_10 = {
	.version = "5.10",
	.era = "5.10",
	.layout = MCG_LAYOUT_5_10,
	.memcg_v1 = true,
	.memcg_v1_chosen = true,
	.stats = MCG_STATS_BATCHED_ATOMICS,
	.updater = MCG_UPDATER_LOCKED,
	.walk = MCG_WALK_POP_LOCKED,
	.split_trees = false,
	.flush = MCG_FLUSH_NONE,
	/* No memcg flush: nothing counts, nothing flushes. */
	.flush_count = MCG_COUNT_NONE,
	.flush_threshold_pct = 100,
	.reclaim_flush = MCG_CALL_NONE,
	.refault_flush = MCG_CALL_NONE,
	.shadow_count_flush = MCG_CALL_NONE,
	.dirty_throttle_flush = MCG_CALL_NONE,
	.pending_stop_at_flushable = false,
	.local = MCG_LOCAL_PERCPU_SUM,
	.reparent_local = false,
	.kmem_pages_objcg = false,
	.numa_stat = MCG_NUMA_STAT_COUNTERS,
	.css_ref = MCG_CSS_REF_PERCPU,
	.lru_gen_enabled = false,
	.lru_gen_refault_workingset_only = false,
	.preemption = false,
	.reclaim_slab_global_only = false,
	.nr_memcg_stock = 1,
	.obj_stock = MCG_OBJ_STOCK_5_10,
	.charge_batch = 32,
	.lru_add_batch = 15,
	.free_drains_lru_add = true,
};
