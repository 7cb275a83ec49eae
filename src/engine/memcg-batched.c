/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memcg statistics of Linux 5.10: per-CPU batches added to hierarchical
 * atomics (5.10 mm/memcontrol.c: __mod_memcg_state(),
 * __mod_memcg_lruvec_state(), __count_memcg_events(), memcg_page_state(),
 * memcg_page_state_local(), lruvec_page_state_local(),
 * memcg_flush_percpu_vmstats(), memcg_flush_percpu_vmevents()).
 *
 * Before memcg moved to rstat (5.13), an update never marked anything.  It
 * added to the CPU's batch; once the batch passed MEMCG_CHARGE_BATCH (pages,
 * or MEMCG_CHARGE_BATCH << PAGE_SHIFT for byte-sized items) in absolute
 * value, the CPU added the whole batch with an atomic to the memcg's counter
 * *and every ancestor's*, and to its own local counter, and started a new
 * batch.  So the update path pays one shared atomic per level of the
 * hierarchy every batch, and a reader pays nothing: hierarchical values are
 * the atomics, off by up to a batch per CPU in each descendant.  The
 * per-node (lruvec) local counter is the exception: it takes every update,
 * unbatched.  Local values are sums over every CPU at read time.  When the
 * memcg goes, the batches left are added up the hierarchy; its locals go
 * with it.
 *
 * Storage: the engine's per-CPU blocks serve as in the rstat eras, renamed
 * by role: the update arrays (off_state, off_events, off_lstate) hold the
 * batches (vmstats_percpu->stat[], ->events[], lruvec_stat_cpu), the
 * flusher's prev arrays, which no flush uses here, hold the per-CPU locals
 * (vmstats_local->stat[], ->events[], lruvec_stat_local).  The aggregated
 * state and events arrays are the atomics (vmstats[], vmevents[],
 * lruvec_stat[]).  No memcg callback is registered with rstat in this era.
 */
#include "engine/internal.h"

#include <stdlib.h>

/* The batch limit in the units the emulation stores.  5.10 compares the
 * batch in the kernel's own units with MEMCG_CHARGE_BATCH (<< PAGE_SHIFT for
 * byte items: vmstat_item_in_bytes() in __mod_memcg_state() and
 * __mod_memcg_lruvec_state()).  NR_ANON_THPS is counted there in huge pages
 * (+1 per THP, mm/rmap.c) while updates here come in pages, 512 per THP, so
 * its limit is MEMCG_CHARGE_BATCH huge pages: with every update a whole
 * number of THPs, |pages| > 32 x 512 exactly when |THPs| > 32, and the batch
 * publishes at the 33rd THP as 5.10's does, not at the first.  Scaling the
 * limit rather than the value keeps the stored pages exact for any update
 * (a partial huge page cannot happen in the kernel; the workload never
 * passes one, and nothing is lost if a test does). */
static long batch_threshold(const struct mcg_engine *e, enum mcg_item item)
{
	if (e->layout->storage_unit[item] == MCG_STORE_BYTES)
		return (long)e->charge_batch << MCG_PAGE_SHIFT;
	return (long)e->charge_batch * mcg_layout_update_scale(e->layout, item);
}

/* One counter's batch: x = val + batch; over the threshold it goes to the
 * local and up the chain of atomics. */
static void batch_add(struct mcg_cgroup *cg, unsigned cpu, size_t off_batch, size_t off_local,
		      size_t index, size_t agg_index, bool is_event, long val, long threshold)
{
	acount_t *batch = pcpu_array(cg, cpu, off_batch) + index;
	long x = acount_read(batch) + val;

	if (labs(x) > threshold) {
		if (off_local)
			acount_add_single_writer(pcpu_array(cg, cpu, off_local) + index, x);
		for (struct mcg_cgroup *mi = cg; mi; mi = mi->parent) {
			acount_t *a = is_event ? &mi->vmstats.events[agg_index]
					       : &mi->vmstats.state[agg_index];

			atomic_fetch_add_explicit(a, x, memory_order_relaxed);
		}
		x = 0;
	}
	acount_set(batch, x);
}

void memcg_batched_mod(struct mcg_engine *e, struct mcg_cgroup *cg, unsigned cpu, int nid,
		       enum mcg_item item, long val)
{
	const struct mcg_layout *l = e->layout;
	unsigned slot = l->slot[item];
	long threshold = batch_threshold(e, item);

	switch (l->kind[item]) {
	case MCG_KIND_NODE: {
		size_t index = (size_t)nid * l->nr_node_slots + slot;

		g_assert((unsigned)nid < e->cfg.nr_nodes);
		/* __mod_memcg_lruvec_state(): the memcg, then the lruvec,
		 * whose local takes every change. */
		batch_add(cg, cpu, e->off_state, e->off_state_prev, slot, slot, false, val,
			  threshold);
		acount_add_single_writer(pcpu_array(cg, cpu, e->off_lstate_prev) + index, val);
		{
			acount_t *batch = pcpu_array(cg, cpu, e->off_lstate) + index;
			long x = acount_read(batch) + val;

			if (labs(x) > threshold) {
				for (struct mcg_cgroup *pi = cg; pi; pi = pi->parent)
					atomic_fetch_add_explicit(&pi->vmstats.lstate[index], x,
								  memory_order_relaxed);
				x = 0;
			}
			acount_set(batch, x);
		}
		break;
	}
	case MCG_KIND_MEMCG:
		batch_add(cg, cpu, e->off_state, e->off_state_prev, slot, slot, false, val,
			  threshold);
		break;
	case MCG_KIND_EVENT:
		/* __count_memcg_events(): unsigned, so no abs() */
		batch_add(cg, cpu, e->off_events, e->off_events_prev, slot, slot, true, val,
			  (long)e->charge_batch);
		break;
	default:
		break;
	}
}

/* memcg_flush_percpu_vmstats() and memcg_flush_percpu_vmevents(), at
 * destroy once the updates have drained: every batch left goes up the
 * hierarchy. */
void memcg_batched_release(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	const struct mcg_layout *l = e->layout;
	size_t nr_lstate = (size_t)e->cfg.nr_nodes * l->nr_node_slots;

	for (unsigned cpu = 0; cpu < e->cfg.nr_cpus; cpu++) {
		acount_t *state = pcpu_array(cg, cpu, e->off_state);
		acount_t *events = pcpu_array(cg, cpu, e->off_events);
		acount_t *lstate = pcpu_array(cg, cpu, e->off_lstate);

		for (struct mcg_cgroup *mi = cg; mi; mi = mi->parent) {
			for (unsigned i = 0; i < l->nr_state_slots; i++)
				atomic_fetch_add_explicit(&mi->vmstats.state[i], acount_read(&state[i]),
							  memory_order_relaxed);
			for (unsigned i = 0; i < l->nr_event_slots; i++)
				atomic_fetch_add_explicit(&mi->vmstats.events[i],
							  acount_read(&events[i]),
							  memory_order_relaxed);
			for (size_t i = 0; i < nr_lstate; i++)
				atomic_fetch_add_explicit(&mi->vmstats.lstate[i],
							  acount_read(&lstate[i]),
							  memory_order_relaxed);
		}
		for (unsigned i = 0; i < l->nr_state_slots; i++)
			acount_set(&state[i], 0);
		for (unsigned i = 0; i < l->nr_event_slots; i++)
			acount_set(&events[i], 0);
		for (size_t i = 0; i < nr_lstate; i++)
			acount_set(&lstate[i], 0);
	}
}
