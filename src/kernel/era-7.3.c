/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux 7.3: the newest era, and the default.
 *
 * One rstat tree per subsystem with its own lock (rstat_ss_lock()), and a
 * lockless updater: css_rstat_updated() pushes the (css, CPU) record on the
 * CPU's llist unless it is queued already; the flusher links the tree
 * (css_process_update_tree()) and detaches the subtree as a list
 * (css_rstat_updated_list()).
 *
 * Per-memcg thresholds as in 6.12; locals kept by the flush; on offline a
 * v1 memcg's locals move to its parent (reparent_state_local()) and updates
 * aimed at the dying memcg go to its nearest online ancestor
 * (get_non_dying_memcg_start()).  This is seed 001's base.
 *
 * This plain era (mcg_kernel_get("7.3"), the engine's default) is built as
 * the kernel the v1 goldens (tests/golden) were captured on, a 6.18
 * with CONFIG_MEMCG_V1=y and no CONFIG_LRU_GEN, hence classic
 * reclaim with its ratelimited flushes.  The release 7.3 a mount runs is
 * Debian's 7.3.4 instead (config.amd64_none_amd64 of linux-config-7.3:
 * "# CONFIG_MEMCG_V1 is not set", CONFIG_LRU_GEN_ENABLED=y; kernel.c).
 */
#include "kernel/eras.h"

const struct mcg_kernel mcg_era_7_3 = {
	.version = "7.3",
	.era = "7.3",
	.layout = MCG_LAYOUT_7_3,
	.memcg_v1 = true,
	.memcg_v1_chosen = true,
	.stats = MCG_STATS_RSTAT,
	.updater = MCG_UPDATER_LLIST,
	.walk = MCG_WALK_DETACH_LIST,
	.rstat_lock_per_cpu = true,
	.split_trees = true,
	.flush = MCG_FLUSH_PER_MEMCG,
	/* As 6.12: pages counted; reclaim and refault ratelimited. */
	.flush_count = MCG_COUNT_PAGES,
	.flush_threshold_pct = 100,
	.reclaim_flush = MCG_CALL_RATELIMITED,
	.refault_flush = MCG_CALL_RATELIMITED,
	.shadow_count_flush = MCG_CALL_RATELIMITED,
	.dirty_throttle_flush = MCG_CALL_RATELIMITED,
	.rstat_lock_tracepoints = true,
	.pending_stop_at_flushable = true,
	.local = MCG_LOCAL_FLUSHED,
	.reparent_local = true,
	.kmem_pages_objcg = true,
	.numa_stat = MCG_NUMA_STAT_COUNTERS,
	.css_ref = MCG_CSS_REF_PERCPU,
	.lru_gen_enabled = false,
	.lru_gen_refault_workingset_only = true,
	.preemption = true,
	.reclaim_slab_global_only = true,
	.nr_memcg_stock = 7,
	.obj_stock = MCG_OBJ_STOCK_7_3,
	.charge_batch = 64,
	.lru_add_batch = 31,
	.free_drains_lru_add = false,
};
