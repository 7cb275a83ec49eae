/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux 6.1 (LTS): memcg on rstat, one global flush threshold.
 *
 * memcg keeps per-CPU counters and marks (memcg, CPU) in the one rstat tree
 * shared with the base and io stats (cgroup_rstat_updated(), under the
 * per-CPU cgroup_rstat_cpu_lock unless already linked).  The flush folds
 * per-CPU deltas into vmstats->state[] (mem_cgroup_css_rstat_flush()).
 *
 * When to flush (mm/memcontrol.c, "memcg and lruvec stats flushing"):
 *  - memcg_rstat_updated() counts |val| in the per-CPU stats_updates; past
 *    MEMCG_CHARGE_BATCH it adds x / MEMCG_CHARGE_BATCH to the one global
 *    stats_flush_threshold (skipping the add once that is over
 *    num_online_cpus());
 *  - mem_cgroup_flush_stats() flushes only if stats_flush_threshold >
 *    num_online_cpus(), and __mem_cgroup_flush_stats() always flushes the
 *    *root*, under spin_trylock(&stats_flush_lock): a reader that finds a
 *    flush running returns at once with what is there;
 *  - mem_cgroup_flush_stats_delayed() (workingset_refault()) flushes only
 *    if jiffies passed flush_next_time (2 x FLUSH_TIME after the last);
 *  - flush_memcg_stats_dwork() runs __mem_cgroup_flush_stats() every
 *    FLUSH_TIME (2 s).
 *
 * The rstat flush (cgroup_rstat_flush_locked(), kernel/cgroup/rstat.c) pops
 * each CPU's tree post-order with cgroup_rstat_cpu_pop_updated() and runs
 * every subsystem's callback with that CPU's lock held.
 *
 * Locals are per-CPU sums at read time (memcg_page_state_local() and
 * lruvec_page_state_local() loop for_each_possible_cpu); an offlined memcg's
 * locals stay with it.  This is seed 000's before.
 *
 * Built as Debian builds it (the .config of linux-headers-6.1.0-50-amd64,
 * 6.1.176, and config.amd64_none_amd64 of linux-config-6.1): CONFIG_LRU_GEN=y
 * but "# CONFIG_LRU_GEN_ENABLED is not set", so reclaim runs the classic LRU
 * and flushes (prepare_scan_count()) unless a mount says lru_gen=y;
 * no CONFIG_MEMCG_V1 yet (6.11), the v1 controller is always built;
 * CONFIG_PREEMPT_VOLUNTARY=y; CONFIG_PSI=y; no CONFIG_IRQ_TIME_ACCOUNTING.
 */
#include "kernel/eras.h"

const struct mcg_kernel mcg_era_6_1 = {
	.version = "6.1",
	.era = "6.1",
	.layout = MCG_LAYOUT_6_1,
	.memcg_v1 = true,
	.memcg_v1_chosen = true,
	.stats = MCG_STATS_RSTAT,
	.updater = MCG_UPDATER_LOCKED,
	.walk = MCG_WALK_POP_LOCKED,
	.split_trees = false,
	.flush = MCG_FLUSH_GLOBAL,
	/* |val| counted (memcg_rstat_updated()); prepare_scan_count() takes
	 * mem_cgroup_flush_stats(), workingset_refault() the _delayed() one. */
	.flush_count = MCG_COUNT_VALUES,
	.flush_threshold_pct = 100,
	.reclaim_flush = MCG_CALL_FLUSH,
	.refault_flush = MCG_CALL_RATELIMITED,
	.shadow_count_flush = MCG_CALL_FLUSH,
	.dirty_throttle_flush = MCG_CALL_FLUSH,
	.pending_stop_at_flushable = false,
	.local = MCG_LOCAL_PERCPU_SUM,
	.reparent_local = false,
	.kmem_pages_objcg = true,
	.numa_stat = MCG_NUMA_STAT_COUNTERS,
	.css_ref = MCG_CSS_REF_PERCPU,
	.lru_gen_enabled = false,
	.lru_gen_refault_workingset_only = false,
	.preemption = true,
	.reclaim_slab_global_only = false,
	.nr_memcg_stock = 1,
	.obj_stock = MCG_OBJ_STOCK_6_1,
	.charge_batch = 64,
	.lru_add_batch = 15,
	.free_drains_lru_add = true,
};
