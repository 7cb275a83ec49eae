/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memcg statistics: the update path, the flush callback, the flush
 * heuristics and the readers (mm/memcontrol.c, spec sections 5 and 6). */
#include "engine/flush.h"
#include "engine/internal.h"

#include <stdlib.h>

void memcg_init_cgroup(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	const struct mcg_layout *l = e->layout;
	size_t nr_lstate = (size_t)e->cfg.nr_nodes * l->nr_node_slots;
	acount_t *a = cg->aggregates;
	struct memcg_vmstats *vs = &cg->vmstats;

	vs->state = a;
	vs->state_local = a += l->nr_state_slots;
	vs->state_pending = a += l->nr_state_slots;
	vs->events = a += l->nr_state_slots;
	vs->events_local = a += l->nr_event_slots;
	vs->events_pending = a += l->nr_event_slots;
	vs->lstate = a += l->nr_event_slots;
	vs->lstate_local = a += nr_lstate;
	vs->lstate_pending = a += nr_lstate;
	atomic_init(&vs->stats_updates, 0);
	/* Its data is as of its creation until a flush folds some. */
	atomic_init(&cg->flushed_ns, engine_now_ns(e));

	for (unsigned cpu = 0; cpu < e->cfg.nr_cpus; cpu++) {
		struct memcg_pcpu *pc = cg_memcg_pcpu(cg, cpu);

		atomic_init(&pc->stats_updates, 0);
		pc->parent_pcpu = cg->parent ? cg_memcg_pcpu(cg->parent, cpu) : NULL;
		pc->vmstats = vs;
	}
}

/*
 * The update side (__mod_memcg_state(), __mod_memcg_lruvec_state(),
 * __count_memcg_events(), then memcg_rstat_updated()).
 *
 * A stat update is a single-writer add to the CPU's own counter, then the
 * rstat mark (so that a flush visits this (cgroup, CPU) pair and no other)
 * and the flush policy's bookkeeping (flush.h).  Which updater and which
 * policy depends on the era; to keep that choice off the hot path, the body
 * is one always-inline function specialised per combination, and
 * mcg_stat_mod() picks the specialisation with a single switch on a field
 * fixed at engine creation.  5.10 has its own path (memcg-batched.c).
 *
 * Cost follows the kernel's shape: the CPU's block is found once from the
 * CPU's cached unit offset (this_cpu_ptr()), the rstat record and the
 * memcg_vmstats_percpu sit at fixed offsets in it (css_rstat_cpu(),
 * memcg->vmstats_percpu), an item's offsets and unit come from one
 * precomputed entry (struct memcg_item_path), and every engine offset is
 * read before the first counter store so the compiler need not reload
 * them.  On the 7.3 path this took an update from 5.6 to 4.7 ns
 * (contrib/bench-hotpath-ab.sh); out-of-line specialisations reached by a
 * tail call were slower (6.7 ns), so they stay inlined here.
 */
static inline __attribute__((always_inline)) void
stat_mod_rstat(struct mcg_engine *e, struct mcg_cpu *c, struct mcg_cgroup *cg, int nid,
	       enum mcg_item item, long val, enum mcg_rstat_updater updater,
	       enum mcg_flush_policy flush, enum mcg_flush_count count, bool stop_at_flushable)
{
	const struct memcg_item_path *ip = &e->item_path[item];
	unsigned cpu = c->id;
	/* this_cpu_ptr(): the CPU's block of this cgroup, computed once.  The
	 * engine's offsets are immutable, but the counter stores below may
	 * alias them as far as the compiler knows: read them all first, as the
	 * kernel's are link-time constants. */
	char *pcpu = this_cpu_pcpu(c, cg);
	struct memcg_pcpu *pc = (struct memcg_pcpu *)(pcpu + e->off_memcg);
	struct rstat_node_cpu *rc = (struct rstat_node_cpu *)(pcpu + e->off_memory_rstat);
	struct rstat_tree *t = e->tree_of[MCG_PART_MEMORY];
	unsigned long abs_val = val < 0 ? 0UL - (unsigned long)val : (unsigned long)val;
	/* 6.1 counts |val| as given (bytes for byte items); 6.7+ count
	 * pages (memcg_state_val_in_pages()). */
	unsigned long pages = count != MCG_COUNT_PAGES || ip->kind == MCG_KIND_EVENT
				      ? abs_val
				      : mcg_state_val_in_pages(ip->unit_bytes, abs_val);

	switch (ip->kind) {
	case MCG_KIND_NODE:
		g_assert((unsigned)nid < e->cfg.nr_nodes);
		/* A node item is also counted memcg-wide. */
		acount_add_single_writer((acount_t *)(pcpu + ip->node_off +
						      (size_t)nid * e->node_stride), val);
		/* fall through */
	case MCG_KIND_MEMCG:
	case MCG_KIND_EVENT:
		acount_add_single_writer((acount_t *)(pcpu + ip->off), val);
		break;
	default:
		return;		/* this kernel does not track the item */
	}
	if (updater == MCG_UPDATER_LLIST)
		rstat_cpu_updated_llist(t, rc, cpu);
	else
		rstat_cpu_updated_locked(t, rc, cpu);
	/* 5.13-5.15 count nothing; 5.16 counts each update as one. */
	if (count == MCG_COUNT_NONE)
		return;
	if (count == MCG_COUNT_EVENTS)
		pages = 1;
	if (flush == MCG_FLUSH_GLOBAL && count == MCG_COUNT_EVENTS)
		flush_global_updated_event(e, c);
	else if (flush == MCG_FLUSH_GLOBAL)
		flush_global_updated(e, pages, c);
	else if (stop_at_flushable)
		flush_per_memcg_updated_stop(e, pc, pages);
	else
		flush_per_memcg_updated_all(e, pc, pages);
}

void mcg_stat_mod(struct mcg_cpu *c, struct mcg_cgroup *cg, int nid, enum mcg_item item,
		  long val)
{
	struct mcg_engine *e = c->engine;

	if (val == 0)
		return;
	/* 7.3 sends state updates aimed at a dying memcg to its nearest live
	 * ancestor (get_non_dying_memcg_start(), used by mod_memcg_state()
	 * and mod_memcg_lruvec_state(), not by count_memcg_events()); older
	 * kernels update the dying memcg.  The root is always online. */
	if (!atomic_load_explicit(&cg->memcg_online, memory_order_relaxed) &&
	    e->cfg.kernel.reparent_local && e->layout->kind[item] != MCG_KIND_EVENT)
		while (!atomic_load_explicit(&cg->memcg_online, memory_order_relaxed))
			cg = cg->parent;
	switch (e->update_path) {
	case MCG_PATH_LLIST_PER_MEMCG_STOP:
		stat_mod_rstat(e, c, cg, nid, item, val, MCG_UPDATER_LLIST, MCG_FLUSH_PER_MEMCG,
			       MCG_COUNT_PAGES, true);
		break;
	case MCG_PATH_LOCKED_PER_MEMCG_ALL:
		stat_mod_rstat(e, c, cg, nid, item, val, MCG_UPDATER_LOCKED, MCG_FLUSH_PER_MEMCG,
			       MCG_COUNT_PAGES, false);
		break;
	case MCG_PATH_LOCKED_GLOBAL:
		stat_mod_rstat(e, c, cg, nid, item, val, MCG_UPDATER_LOCKED, MCG_FLUSH_GLOBAL,
			       MCG_COUNT_VALUES, false);
		break;
	case MCG_PATH_BATCHED:
		memcg_batched_mod(e, cg, c->id, nid, item, val);
		break;
	case MCG_PATH_ANY:
		stat_mod_rstat(e, c, cg, nid, item, val, e->cfg.kernel.updater, e->cfg.kernel.flush,
			       e->cfg.kernel.flush_count, e->cfg.kernel.pending_stop_at_flushable);
		break;
	}
}

/*
 * The flush callback (mem_cgroup_css_rstat_flush()), run for one (cgroup,
 * CPU) pair under the tree lock, children before parents.
 *
 * For each counter slot it takes what the children pushed up (`pending`,
 * which is global: the first CPU pass that visits the cgroup takes it all),
 * adds this CPU's change since its last visit (counter minus `prev`), folds
 * the sum into the hierarchical aggregate and pushes it into the parent's
 * pending.  The CPU's own change alone also goes to the local counter.
 * Because a child always precedes its parent on the same CPU, a child's push
 * is consumed later in the same pass; what the flush root pushes waits in its
 * parent until a flush covers the parent.
 */
struct aggregate_control {
	acount_t *aggregate, *local, *pending, *ppending;
	const acount_t *cstat;
	acount_t *cstat_prev;
	unsigned size;
};

/* Returns the number of items whose CPU delta was not zero. */
static unsigned memcg_stat_aggregate(const struct aggregate_control *ac)
{
	unsigned changed = 0;

	for (unsigned i = 0; i < ac->size; i++) {
		long delta = acount_read(&ac->pending[i]);
		long delta_cpu = 0;
		long v = acount_read(&ac->cstat[i]);
		long prev = acount_read(&ac->cstat_prev[i]);

		if (delta)
			acount_set(&ac->pending[i], 0);
		if (v != prev) {
			changed++;
			delta_cpu = v - prev;
			delta += delta_cpu;
			acount_set(&ac->cstat_prev[i], v);
		}
		if (delta_cpu && ac->local)
			acount_add_single_writer(&ac->local[i], delta_cpu);
		if (delta) {
			acount_add_single_writer(&ac->aggregate[i], delta);
			if (ac->ppending)
				acount_add_single_writer(&ac->ppending[i], delta);
		}
	}
	return changed;
}

/* The memcg-wide half of the callback: state and events (memcg_vmstats).
 * Returns the items that changed on this CPU. */
static unsigned memcg_flush_memcg_wide(struct mcg_engine *e, struct mcg_cgroup *cg, unsigned cpu)
{
	const struct mcg_layout *l = e->layout;
	struct memcg_vmstats *vs = &cg->vmstats;
	struct memcg_vmstats *pvs = cg->parent ? &cg->parent->vmstats : NULL;
	struct aggregate_control ac;
	unsigned changed;

	ac = (struct aggregate_control){
		.aggregate = vs->state,
		.local = e->maintain_local ? vs->state_local : NULL,
		.pending = vs->state_pending,
		.ppending = pvs ? pvs->state_pending : NULL,
		.cstat = pcpu_array(cg, cpu, e->off_state),
		.cstat_prev = pcpu_array(cg, cpu, e->off_state_prev),
		.size = l->nr_state_slots,
	};
	changed = memcg_stat_aggregate(&ac);

	ac = (struct aggregate_control){
		.aggregate = vs->events,
		.local = e->maintain_local ? vs->events_local : NULL,
		.pending = vs->events_pending,
		.ppending = pvs ? pvs->events_pending : NULL,
		.cstat = pcpu_array(cg, cpu, e->off_events),
		.cstat_prev = pcpu_array(cg, cpu, e->off_events_prev),
		.size = l->nr_event_slots,
	};
	return changed + memcg_stat_aggregate(&ac);
}

/* The per-node half: every node's lruvec_stats.  Per-node counters keep
 * their locals since 6.6 in every configuration (the shadow-node shrinker
 * reads them on v2 too); 6.1's lruvec_stats has no state_local, its
 * readers sum per CPU. */
static void memcg_flush_lruvec(struct mcg_engine *e, struct mcg_cgroup *cg, unsigned cpu)
{
	const struct mcg_layout *l = e->layout;
	struct memcg_vmstats *vs = &cg->vmstats;
	struct memcg_vmstats *pvs = cg->parent ? &cg->parent->vmstats : NULL;
	acount_t *lstate_local =
		e->cfg.kernel.local == MCG_LOCAL_PERCPU_SUM ? NULL : vs->lstate_local;

	for (unsigned nid = 0; nid < e->cfg.nr_nodes; nid++) {
		size_t off = (size_t)nid * l->nr_node_slots;
		struct aggregate_control ac = {
			.aggregate = vs->lstate + off,
			.local = lstate_local ? lstate_local + off : NULL,
			.pending = vs->lstate_pending + off,
			.ppending = pvs ? pvs->lstate_pending + off : NULL,
			.cstat = pcpu_array(cg, cpu, e->off_lstate) + off,
			.cstat_prev = pcpu_array(cg, cpu, e->off_lstate_prev) + off,
			.size = l->nr_node_slots,
		};

		memcg_stat_aggregate(&ac);
	}
}

/*
 * The callback itself, timed for memcgfs.flush_stats: callback_ns is the
 * whole of it, aggregate_ns the memcg-wide aggregation alone, the two
 * figures seed 001 took in-kernel ("overall flush function" and "memcg-wide
 * aggregation"; its patch changes only the memcg-wide loops, the per-node
 * one is left out of the second figure as it was there).
 *
 * The timing is three clock_gettime(CLOCK_MONOTONIC) reads per callback
 * (vDSO, some 20 ns each), on the flush side only: the update path is not
 * touched.  They add the same constant to every callback on both sides of
 * an experiment, as the seed's TSC reads did, so only differences between
 * two runs mean something, not the absolute figures.
 *
 * The kernel runs the callback under a spinlock with interrupts off
 * (css_rstat_flush() holds the rstat lock), so nothing stretches it.  Here
 * the flushing thread may be preempted by the emulated CPUs' workers, or
 * stopped by an experiment, midway; a callback that took longer than
 * MCG_CALLBACK_PREEMPTED_NS (100 us, some fifty times a cold callback of
 * the largest layout) is counted in callbacks_untimed instead of the sums,
 * which would otherwise be dominated by the scheduler.  The sums are
 * single-writer adds: every caller holds the lock of the tree that holds
 * the memory participant (rstat_run_callbacks()).
 */
void memcg_flush_cpu(void *owner, unsigned cpu, void *arg)
{
	struct mcg_cgroup *cg = owner;
	struct mcg_engine *e = arg;
	struct memcg_pcpu *pc = cg_memcg_pcpu(cg, cpu);
	struct memcg_vmstats *vs = &cg->vmstats;
	uint64_t start, aggregated, end;
	unsigned changed;

	start = mcg_now_ns();
	changed = memcg_flush_memcg_wide(e, cg, cpu);
	aggregated = mcg_now_ns();
	memcg_flush_lruvec(e, cg, cpu);

	/* The per-memcg pending counts exist only with that policy (6.1
	 * has one global count, reset by __mem_cgroup_flush_stats()). */
	if (e->cfg.kernel.flush == MCG_FLUSH_PER_MEMCG) {
		atomic_store_explicit(&pc->stats_updates, 0, memory_order_relaxed);
		if (atomic_load_explicit(&vs->stats_updates, memory_order_relaxed))
			atomic_store_explicit(&vs->stats_updates, 0, memory_order_relaxed);
	}
	end = mcg_now_ns();
	if (end - start < MCG_CALLBACK_PREEMPTED_NS) {
		u64_add_single_writer(&e->callback_ns, end - start);
		u64_add_single_writer(&e->aggregate_ns, aggregated - start);
	} else {
		u64_add_single_writer(&e->callbacks_untimed, 1);
	}
	u64_add_single_writer(&e->changed_items, changed);
	u64_add_single_writer(
		&e->changed_hist[changed < MCG_CHANGED_HIST ? changed : MCG_CHANGED_HIST - 1], 1);
	atomic_fetch_add_explicit(&e->nr_visited, 1, memory_order_relaxed);
}

unsigned long memcg_flush_tree(struct mcg_engine *e, struct mcg_cgroup *cg, bool may_sleep)
{
	uint64_t start = mcg_now_ns();
	unsigned long visited;

	atomic_store_explicit(&cg->flushed_ns, engine_now_ns(e), memory_order_relaxed);
	visited =
		rstat_flush(e->tree_of[MCG_PART_MEMORY], cg->node_of[MCG_PART_MEMORY], may_sleep);

	start = mcg_now_ns() - start;
	atomic_fetch_add_explicit(&e->flush_ns, start, memory_order_relaxed);
	atomic_fetch_add_explicit(&e->trigger_flush_ns[trace_current_trigger()], start,
				  memory_order_relaxed);
	return visited;
}

/* A per-CPU counter summed over every CPU: the cgroup's own updates
 * (memcg_page_state_local() before 6.6: for_each_possible_cpu() of
 * per_cpu()). */
static long percpu_sum(const struct mcg_engine *e, const struct mcg_cgroup *cg, size_t off,
		       size_t index)
{
	long sum = 0;

	/* The engine is the reader's to count in, not to change. */
	atomic_fetch_add_explicit((_Atomic uint64_t *)&e->percpu_sums, 1, memory_order_relaxed);
	for (unsigned cpu = 0; cpu < e->cfg.nr_cpus; cpu++)
		sum += acount_read((const acount_t *)(cg_per_cpu(cg, cpu) + off) + index);
	return sum;
}

/* One move of a local count from child to parent (reparent_memcg_state_local()
 * and reparent_memcg_lruvec_state_local(), 7.3 mm/memcontrol.c): minus on the
 * child, plus on the parent, as ordinary per-CPU updates of CPU c, bypassing
 * the redirect (the kernel calls the __mod_* variants).  A node item with
 * nid < 0 moves memcg-wide only. */
static void reparent_move(struct mcg_engine *e, struct mcg_cpu *c, struct mcg_cgroup *cg,
			  int nid, enum mcg_item item, long value)
{
	const struct mcg_layout *l = e->layout;
	unsigned slot = l->slot[item];
	struct mcg_cgroup *to[2] = { cg, cg->parent };

	if (value == 0 || l->kind[item] == MCG_KIND_ABSENT || l->kind[item] == MCG_KIND_EVENT)
		return;
	for (int k = 0; k < 2; k++) {
		long v = k ? value : -value;

		acount_add_single_writer(pcpu_array(to[k], c->id, e->off_state) + slot, v);
		if (nid >= 0)
			acount_add_single_writer(pcpu_array(to[k], c->id, e->off_lstate) +
						 (size_t)nid * l->nr_node_slots + slot, v);
		rstat_updated(e->tree_of[MCG_PART_MEMORY], to[k]->node_of[MCG_PART_MEMORY], c->id);
	}
}

/* reparent_state_local() (7.3 mm/memcontrol.c): after a forced flush of the
 * child, move the non-hierarchical counts that follow the reparented folios
 * - on v1 the memcg1_stats[] items memcg-wide and the LRU lists per node
 * (reparent_memcg1_state_local(), reparent_memcg1_lruvec_state_local()), on
 * v2 the LRU lists and the two slab counts per node
 * (reparent_v2_lruvec_state_local()) - then force a flush of the parent.
 * Events and everything else stay with the dying memcg.  The values moved
 * are what the readers return, negative ones clamped to 0
 * (memcg_page_state_local(), lruvec_page_state_local()).  The caller has
 * drained the updaters. */
void memcg_reparent_state_local(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	static const enum mcg_item lrus[] = {
		MCG_INACTIVE_ANON, MCG_ACTIVE_ANON, MCG_INACTIVE_FILE, MCG_ACTIVE_FILE,
		MCG_UNEVICTABLE,
	};
	const struct mcg_layout *l = e->layout;
	struct mcg_cpu *c = mcg_engine_cpu(e, 0);
	bool v1 = e->cfg.hierarchy == MCG_HIERARCHY_V1;

	__mcg_memcg_flush_stats(e, cg, true);
	mcg_cpu_enter(c);
	if (v1)
		for (unsigned i = 0; i < l->nr_v1_stats; i++)
			reparent_move(e, c, cg, -1, l->v1_stats[i].item,
				      (long)mcg_stat_read(e, cg, l->v1_stats[i].item, MCG_LOCAL));
	for (int nid = 0; nid < (int)e->cfg.nr_nodes; nid++) {
		for (unsigned i = 0; i < G_N_ELEMENTS(lrus); i++)
			reparent_move(e, c, cg, nid, lrus[i],
				      (long)mcg_stat_read_node(e, cg, nid, lrus[i], MCG_LOCAL));
		if (!v1) {
			reparent_move(e, c, cg, nid, MCG_SLAB_RECLAIMABLE_B,
				      (long)mcg_stat_read_node(e, cg, nid, MCG_SLAB_RECLAIMABLE_B,
							       MCG_LOCAL));
			reparent_move(e, c, cg, nid, MCG_SLAB_UNRECLAIMABLE_B,
				      (long)mcg_stat_read_node(e, cg, nid, MCG_SLAB_UNRECLAIMABLE_B,
							       MCG_LOCAL));
		}
	}
	mcg_cpu_exit(c);
	__mcg_memcg_flush_stats(e, cg->parent, true);
}

/* When to flush: the era's policy (flush-per-memcg.c, flush-global.c); 5.10
 * has no memcg participant in rstat, so nothing to flush. */
bool mcg_memcg_needs_flush(const struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	switch (e->cfg.kernel.flush) {
	case MCG_FLUSH_GLOBAL:
		return flush_global_needed(e);
	case MCG_FLUSH_PER_MEMCG:
		return flush_per_memcg_needed(e, cg);
	default:
		return false;
	}
}

void __mcg_memcg_flush_stats(struct mcg_engine *e, struct mcg_cgroup *cg, bool force)
{
	switch (e->cfg.kernel.flush) {
	case MCG_FLUSH_GLOBAL:
		flush_global(e, force);
		break;
	case MCG_FLUSH_PER_MEMCG:
		flush_per_memcg(e, cg, force);
		break;
	default:
		break;
	}
}

void mcg_memcg_flush_stats(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	__mcg_memcg_flush_stats(e, cg, false);
}

void mcg_memcg_flush_stats_ratelimited(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	switch (e->cfg.kernel.flush) {
	case MCG_FLUSH_GLOBAL:
		flush_global_delayed(e);
		break;
	case MCG_FLUSH_PER_MEMCG:
		flush_per_memcg_ratelimited(e, cg);
		break;
	default:
		break;
	}
}

/*
 * A flush a kernel path makes before it reads memcg stats, counted in
 * *count when it flushed: the path's call (struct mcg_kernel's
 * reclaim_flush, refault_flush, shadow_count_flush, dirty_throttle_flush), made
 * with the era's policy: 6.1's global root flush, or the memcg's subtree
 * from 6.8 on; 5.10 has none.
 */
static void reader_flush(struct mcg_engine *e, struct mcg_cgroup *memcg, enum mcg_flush_call call,
			 enum mcg_flush_trigger trigger, _Atomic uint64_t *count)
{
	bool global = e->cfg.kernel.flush == MCG_FLUSH_GLOBAL, flushed = false;
	enum mcg_flush_trigger old;

	if (e->cfg.kernel.flush == MCG_FLUSH_NONE || call == MCG_CALL_NONE)
		return;
	old = trace_trigger_swap(trigger);
	if (call == MCG_CALL_FLUSH)
		flushed = global ? flush_global(e, false) : flush_per_memcg(e, memcg, false);
	else
		flushed = global ? flush_global_delayed(e) : flush_per_memcg_ratelimited(e, memcg);
	trace_trigger_swap(old);
	if (flushed)
		atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
}

void mcg_memcg_flush_for_reclaim(struct mcg_engine *e, struct mcg_cgroup *target)
{
	if (!e->cfg.kernel.lru_gen_enabled)
		reader_flush(e, target, e->cfg.kernel.reclaim_flush, MCG_TRIGGER_RECLAIM,
			     &e->nr_reclaim);
}

void mcg_memcg_flush_for_refault(struct mcg_engine *e, struct mcg_cgroup *memcg)
{
	if (!e->cfg.kernel.lru_gen_enabled)
		reader_flush(e, memcg, e->cfg.kernel.refault_flush, MCG_TRIGGER_REFAULT,
			     &e->nr_refault);
}

/* count_shadow_nodes() (mm/workingset.c), the shadow-node shrinker's
 * count for a memcg with shadow entries, in every memcg reclaim's
 * shrink_slab(), multi-gen LRU or not: 6.12 and 7.3 take
 * mem_cgroup_flush_stats_ratelimited(memcg) before they read
 * lruvec_page_state_local(); seed 000's patch added the flush with the
 * locals it made flushed, as 6.6 has it: the thresholded global
 * mem_cgroup_flush_stats() (which "mm: memcg: properly name and document
 * unified stats flushing", 2023, later made ratelimited there); before
 * it, 6.1 summed the local per CPU and flushed nothing. */
void mcg_memcg_flush_for_shadow_count(struct mcg_engine *e, struct mcg_cgroup *memcg)
{
	if (e->cfg.kernel.local != MCG_LOCAL_PERCPU_SUM)
		reader_flush(e, memcg, e->cfg.kernel.shadow_count_flush, MCG_TRIGGER_SHADOW_COUNT,
			     &e->nr_shadow_count);
}

/* mem_cgroup_wb_stats(), which balance_dirty_pages() asks for the memcg
 * domain of a cgroup writeback (cgroup2 only: inode_cgwb_enabled()):
 * 6.1 flushes with mem_cgroup_flush_stats() (the global threshold), 6.12
 * and 7.3 with mem_cgroup_flush_stats_ratelimited(memcg). */
void mcg_memcg_flush_for_dirty_throttle(struct mcg_engine *e, struct mcg_cgroup *memcg)
{
	if (e->cfg.hierarchy != MCG_HIERARCHY_V1)
		reader_flush(e, memcg, e->cfg.kernel.dirty_throttle_flush, MCG_TRIGGER_DIRTY_THROTTLE,
			     &e->nr_dirty_throttle);
}

/* ---- readers ---- */

/* Sum over CPUs of a per-CPU counter's change since the flusher last folded
 * it (counter minus prev). */
static long percpu_unfolded(const struct mcg_engine *e, const struct mcg_cgroup *cg, size_t off,
			    size_t off_prev, size_t index)
{
	return percpu_sum(e, cg, off, index) - percpu_sum(e, cg, off_prev, index);
}

long mcg_stat_unflushed(const struct mcg_engine *e, const struct mcg_cgroup *cg, int nid,
			enum mcg_item item, enum mcg_scope scope)
{
	const struct mcg_layout *l = e->layout;
	unsigned kind = l->kind[item], slot = l->slot[item];
	bool node = nid >= 0, event = kind == MCG_KIND_EVENT;
	size_t index = node ? (size_t)nid * l->nr_node_slots + slot : slot;

	if (kind == MCG_KIND_ABSENT || (node && (kind != MCG_KIND_NODE ||
						 (unsigned)nid >= e->cfg.nr_nodes)))
		return 0;
	if (e->cfg.kernel.stats == MCG_STATS_BATCHED_ATOMICS) {
		/* 5.10: the batches; the lruvec local takes every change. */
		if (node && scope == MCG_LOCAL)
			return 0;
		return percpu_sum(e, cg, node ? e->off_lstate : event ? e->off_events : e->off_state,
				  index);
	}
	/* Locals summed per CPU at read time miss nothing. */
	if (scope == MCG_LOCAL &&
	    (node ? e->cfg.kernel.local == MCG_LOCAL_PERCPU_SUM : !e->maintain_local))
		return 0;
	{
		long own = node ? percpu_unfolded(e, cg, e->off_lstate, e->off_lstate_prev, index)
			   : event ? percpu_unfolded(e, cg, e->off_events, e->off_events_prev, index)
				   : percpu_unfolded(e, cg, e->off_state, e->off_state_prev, index);
		const acount_t *pending = node ? cg->vmstats.lstate_pending
					: event ? cg->vmstats.events_pending : cg->vmstats.state_pending;

		return scope == MCG_LOCAL ? own : own + acount_read(&pending[index]);
	}
}


long mcg_stat_read_raw(const struct mcg_engine *e, const struct mcg_cgroup *cg,
		       enum mcg_item item, enum mcg_scope scope)
{
	const struct mcg_layout *l = e->layout;
	unsigned kind = l->kind[item], slot = l->slot[item];
	bool is_event = kind == MCG_KIND_EVENT;

	if (kind == MCG_KIND_ABSENT)
		return 0;
	if (scope == MCG_LOCAL && e->cfg.kernel.stats == MCG_STATS_BATCHED_ATOMICS)
		return percpu_sum(e, cg, is_event ? e->off_events_prev : e->off_state_prev, slot);
	if (scope == MCG_HIERARCHICAL)
		return acount_read(is_event ? &cg->vmstats.events[slot] : &cg->vmstats.state[slot]);
	/* Before 6.6, or locals not kept (seed 001 after): sum every CPU. */
	if (!e->maintain_local)
		return percpu_sum(e, cg, is_event ? e->off_events : e->off_state, slot);
	return acount_read(is_event ? &cg->vmstats.events_local[slot]
				    : &cg->vmstats.state_local[slot]);
}

long mcg_stat_read_node_raw(const struct mcg_engine *e, const struct mcg_cgroup *cg, int nid,
			    enum mcg_item item, enum mcg_scope scope)
{
	const struct mcg_layout *l = e->layout;
	size_t index;

	if (l->kind[item] != MCG_KIND_NODE || nid < 0 || (unsigned)nid >= e->cfg.nr_nodes)
		return 0;
	index = (size_t)nid * l->nr_node_slots + l->slot[item];
	if (scope == MCG_HIERARCHICAL)
		return acount_read(&cg->vmstats.lstate[index]);
	if (e->cfg.kernel.stats == MCG_STATS_BATCHED_ATOMICS)
		return percpu_sum(e, cg, e->off_lstate_prev, index);	/* lruvec_stat_local */
	if (e->cfg.kernel.local == MCG_LOCAL_PERCPU_SUM)
		return percpu_sum(e, cg, e->off_lstate, index);
	return acount_read(&cg->vmstats.lstate_local[index]);
}

/* State can be transiently negative in an aggregate; the kernel clamps it
 * to 0 for readers.  Events are unsigned and never clamped. */
unsigned long mcg_stat_read(const struct mcg_engine *e, const struct mcg_cgroup *cg,
			    enum mcg_item item, enum mcg_scope scope)
{
	long v = mcg_stat_read_raw(e, cg, item, scope);

	if (e->layout->kind[item] != MCG_KIND_EVENT && v < 0)
		return 0;
	return (unsigned long)v;
}

unsigned long mcg_stat_read_node(const struct mcg_engine *e, const struct mcg_cgroup *cg,
				 int nid, enum mcg_item item, enum mcg_scope scope)
{
	long v = mcg_stat_read_node_raw(e, cg, nid, item, scope);

	return v < 0 ? 0 : (unsigned long)v;
}
