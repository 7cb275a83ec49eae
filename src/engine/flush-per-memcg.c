/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-memcg flush policy (6.12 and 7.3 mm/memcontrol.c:
 * memcg_rstat_updated(), memcg_vmstats_needs_flush(), mem_cgroup_flush_stats(),
 * mem_cgroup_flush_stats_ratelimited(), flush_memcg_stats_dwork()).
 *
 * Each memcg counts, in `vmstats->stats_updates`, how many page-sized
 * changes its subtree saw since its last flush.  To keep that shared atomic
 * off the hot path, a CPU first counts in its own per-CPU slot and publishes
 * in batches of the era's MEMCG_CHARGE_BATCH, at every level up to the root.  A level
 * already over the threshold stops the walk: its ancestors, which count a
 * superset, are over it too.
 *
 * A reader flushes its own subtree only if more than MEMCG_CHARGE_BATCH x
 * nr_cpus changes are pending there, otherwise it accepts the slightly
 * stale aggregates.  Two things bound the staleness: that threshold (in
 * size) and the periodic flusher, which forces a flush of the whole tree
 * every period (in time).  Some kernel paths (reclaim, refault) use the
 * ratelimited variant, which does not flush at all unless the periodic
 * flusher is a full period late.  Forced flushes (zswap limits, v1
 * reparenting, the periodic worker) ignore the threshold.
 */
#include "engine/internal.h"

bool flush_per_memcg_needed(const struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	if (e->cfg.kernel.flush_count == MCG_COUNT_NONE)
		return true;	/* a patch's choice: nothing counted, all flush */
	return atomic_load_explicit(&cg->vmstats.stats_updates, memory_order_relaxed) >
	       e->flush_threshold;
}

/* Records a request of the per-memcg policy in the flush trace. */
static void trace_per_memcg(struct mcg_engine *e, const struct mcg_cgroup *cg, long count,
			    bool force, bool needs, enum mcg_skip_reason why, unsigned long pairs,
			    uint64_t ns)
{
	if (trace_on(e))
		trace_flush(e, cg, count, force, needs, why, pairs, ns);
}

static long memcg_count(const struct mcg_cgroup *cg)
{
	return (long)atomic_load_explicit(&cg->vmstats.stats_updates, memory_order_relaxed);
}

/* __mem_cgroup_flush_stats() (7.3 mm/memcontrol.c; trace_memcg_flush_stats()
 * fires here, before the decision). */
bool flush_per_memcg(struct mcg_engine *e, struct mcg_cgroup *cg, bool force)
{
	long count = memcg_count(cg);
	bool needs = flush_per_memcg_needed(e, cg);
	uint64_t start;
	unsigned long pairs;

	if (!force && !needs) {
		atomic_fetch_add_explicit(&e->nr_skipped, 1, memory_order_relaxed);
		trace_per_memcg(e, cg, count, force, needs, MCG_SKIP_THRESHOLD, 0, 0);
		return false;
	}
	start = mcg_now_ns();
	if (!cg->parent)
		atomic_store_explicit(&e->flush_last_time_ns, engine_now_ns(e),
				      memory_order_relaxed);
	atomic_fetch_add_explicit(&e->nr_flushes, 1, memory_order_relaxed);
	if (force)
		atomic_fetch_add_explicit(&e->nr_forced, 1, memory_order_relaxed);
	pairs = memcg_flush_tree(e, cg, true);
	trace_per_memcg(e, cg, count, force, needs, MCG_SKIP_NONE, pairs, mcg_now_ns() - start);
	return true;
}

bool flush_per_memcg_ratelimited(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	unsigned period_ms = e->cfg.flush_period_ms ? e->cfg.flush_period_ms
						    : MCG_DEFAULT_FLUSH_PERIOD_MS;
	int64_t last = atomic_load_explicit(&e->flush_last_time_ns, memory_order_relaxed);

	if (engine_now_ns(e) <= last + 2 * (int64_t)period_ms * 1000000) {
		trace_per_memcg(e, cg, memcg_count(cg), false, flush_per_memcg_needed(e, cg),
				MCG_SKIP_RATELIMIT, 0, 0);
		return false;
	}
	return flush_per_memcg(e, cg, false);
}
