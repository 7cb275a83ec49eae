/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux 6.12 (LTS): per-memcg flush thresholds on one shared rstat tree.
 *
 * memcg_rstat_updated() batches per CPU in vmstats_percpu->stats_updates and
 * publishes to every ancestor's vmstats->stats_updates; a reader flushes its
 * own subtree when that count passes MEMCG_CHARGE_BATCH x num_online_cpus()
 * (memcg_vmstats_needs_flush(), mem_cgroup_flush_stats(memcg));
 * mem_cgroup_flush_stats_ratelimited() waits for a late periodic flush.
 *
 * The tree is still the one cgroup_rstat tree: cgroup_rstat_updated() takes
 * the per-CPU cgroup_rstat_cpu_lock to link a cgroup and its ancestors, and
 * any flush - of cpu.stat, io.stat or memory.stat - runs every subsystem's
 * callback on every updated cgroup (cgroup_rstat_flush_locked()), which
 * bypasses memcg's threshold.  The walk takes the CPU's lock only to detach
 * the subtree (cgroup_rstat_updated_list()).  This is seed 002's before.
 *
 * Locals are kept by the flush (state_local, events_local; lruvec
 * state_local), and stay with a memcg that goes offline.
 *
 * Built as Debian builds it (the .config of linux-headers-6.12.107+deb12-amd64,
 * and config.amd64_none_amd64 of linux-config-6.12, 6.12.117):
 *   # CONFIG_MEMCG_V1 is not set   - no v1 hierarchy, no pgpgin/pgpgout
 *   CONFIG_LRU_GEN_ENABLED=y       - reclaim and refault take no memcg flush
 *   CONFIG_PSI=y, # CONFIG_IRQ_TIME_ACCOUNTING is not set, CONFIG_SWAP=y,
 *   CONFIG_ZSWAP=y, CONFIG_TRANSPARENT_HUGEPAGE=y, CONFIG_NUMA_BALANCING=y
 * That is this plain era's fixed build (mcg_kernel_get("6.12")); the release
 * 6.12 a mount runs has the same defaults, and a v1 hierarchy or memcg_v1=y
 * builds it with CONFIG_MEMCG_V1 (kernel.c).
 */
#include "kernel/eras.h"

const struct mcg_kernel mcg_era_6_12 = {
	.version = "6.12",
	.era = "6.12",
	.layout = MCG_LAYOUT_6_12,
	.memcg_v1 = false,
	.memcg_v1_chosen = true,
	.stats = MCG_STATS_RSTAT,
	.updater = MCG_UPDATER_LOCKED,
	.walk = MCG_WALK_DETACH_LIST,
	.split_trees = false,
	.flush = MCG_FLUSH_PER_MEMCG,
	/* Pages counted (memcg_state_val_in_pages()); prepare_scan_control()
	 * and workingset_test_recent() take mem_cgroup_flush_stats_ratelimited(). */
	.flush_count = MCG_COUNT_PAGES,
	.flush_threshold_pct = 100,
	.reclaim_flush = MCG_CALL_RATELIMITED,
	.refault_flush = MCG_CALL_RATELIMITED,
	.shadow_count_flush = MCG_CALL_RATELIMITED,
	.dirty_throttle_flush = MCG_CALL_RATELIMITED,
	.rstat_lock_tracepoints = true,
	.pending_stop_at_flushable = false,
	.local = MCG_LOCAL_FLUSHED,
	.reparent_local = false,
	.kmem_pages_objcg = true,
	.numa_stat = MCG_NUMA_STAT_COUNTERS,
	.css_ref = MCG_CSS_REF_PERCPU,
	.lru_gen_enabled = true,
	.lru_gen_refault_workingset_only = false,
	.preemption = true,
	.reclaim_slab_global_only = true,
	.nr_memcg_stock = 1,
	.obj_stock = MCG_OBJ_STOCK_6_1,
	.charge_batch = 64,
	.lru_add_batch = 31,
	.free_drains_lru_add = true,
};
