/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The global flush policy of Linux 6.1 (6.1 mm/memcontrol.c, "memcg and
 * lruvec stats flushing": memcg_rstat_updated(), __mem_cgroup_flush_stats(),
 * mem_cgroup_flush_stats(), mem_cgroup_flush_stats_delayed(),
 * flush_memcg_stats_dwork()).
 *
 * There is one threshold for the whole machine.  Each CPU counts |val| of
 * its updates, whatever memcg they hit, in its own stats_updates; past
 * MEMCG_CHARGE_BATCH it adds x / MEMCG_CHARGE_BATCH to the global atomic
 * stats_flush_threshold, unless that is already over num_online_cpus().
 * A reader of any memcg flushes only when the global count is over
 * num_online_cpus(), and then flushes the *root*, all of it: there is no
 * subtree flush.  The flush is taken with spin_trylock(&stats_flush_lock),
 * so a reader that arrives while another flush runs returns at once and
 * reads what the aggregates hold (and the threshold stays high until the
 * running flush resets it).  The _delayed variant, used by refault
 * (workingset_refault()), flushes only once flush_next_time, set to
 * 2 x FLUSH_TIME after each flush, has passed.  The periodic worker calls
 * __mem_cgroup_flush_stats() directly: no threshold, but still the trylock.
 */
#include "engine/internal.h"

bool flush_global_needed(const struct mcg_engine *e)
{
	/* 5.15's mem_cgroup_flush_stats() had no threshold to check. */
	if (e->cfg.kernel.flush_count == MCG_COUNT_NONE)
		return true;
	return atomic_load_explicit(&e->stats_flush_threshold, memory_order_relaxed) >
	       e->global_flush_threshold;
}

/* Records a request of the global policy in the flush trace: the count it
 * found (stats_flush_threshold), what it did, what that cost. */
static void trace_global(struct mcg_engine *e, long count, bool force, bool needs,
			 enum mcg_skip_reason why, unsigned long pairs, uint64_t ns)
{
	if (trace_on(e))
		trace_flush(e, e->root, count, force, needs, why, pairs, ns);
}

static long global_count(const struct mcg_engine *e)
{
	return atomic_load_explicit(&e->stats_flush_threshold, memory_order_relaxed);
}

/* __mem_cgroup_flush_stats(): force is the periodic worker's or an internal
 * caller's unconditional request; it still yields to a running flush. */
bool flush_global(struct mcg_engine *e, bool force)
{
	long count = global_count(e);
	bool needs = flush_global_needed(e);
	uint64_t start, held;
	unsigned long pairs;

	if (!force && !needs) {
		atomic_fetch_add_explicit(&e->nr_skipped, 1, memory_order_relaxed);
		trace_global(e, count, force, needs, MCG_SKIP_THRESHOLD, 0, 0);
		return false;
	}
	held = lock_stat_trylock(&e->stats_flush_lock, &e->stats_flush_lock_stat, &e->lock_stat_on);
	if (!held) {
		atomic_fetch_add_explicit(&e->nr_skipped, 1, memory_order_relaxed);
		trace_global(e, count, force, needs, MCG_SKIP_TRYLOCK, 0, 0);
		return false;
	}
	start = mcg_now_ns();
	atomic_store_explicit(&e->flush_last_time_ns, engine_now_ns(e), memory_order_relaxed);
	atomic_fetch_add_explicit(&e->nr_flushes, 1, memory_order_relaxed);
	if (force)
		atomic_fetch_add_explicit(&e->nr_forced, 1, memory_order_relaxed);
	/* cgroup_rstat_flush_irqsafe(): it never lets the lock go. */
	pairs = memcg_flush_tree(e, e->root, false);
	atomic_store_explicit(&e->stats_flush_threshold, 0, memory_order_relaxed);
	lock_stat_unlock(&e->stats_flush_lock, &e->stats_flush_lock_stat, held);
	trace_global(e, count, force, needs, MCG_SKIP_NONE, pairs, mcg_now_ns() - start);
	return true;
}

/* mem_cgroup_flush_stats_delayed(): flush_next_time is the last flush plus
 * 2 x FLUSH_TIME (the period). */
bool flush_global_delayed(struct mcg_engine *e)
{
	unsigned period_ms = e->cfg.flush_period_ms ? e->cfg.flush_period_ms
						    : MCG_DEFAULT_FLUSH_PERIOD_MS;
	int64_t last = atomic_load_explicit(&e->flush_last_time_ns, memory_order_relaxed);

	if (engine_now_ns(e) <= last + 2 * (int64_t)period_ms * 1000000) {
		trace_global(e, global_count(e), false, flush_global_needed(e), MCG_SKIP_RATELIMIT,
			     0, 0);
		return false;
	}
	return flush_global(e, false);
}
