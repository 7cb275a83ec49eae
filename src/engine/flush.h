/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The update-side halves of the flush policies (flush-per-memcg.c and
 * flush-global.c explain them), inline because every stat update runs one. */
#ifndef MEMCGFS_ENGINE_FLUSH_H
#define MEMCGFS_ENGINE_FLUSH_H

#include "engine/internal.h"

/* 7.3 memcg_rstat_updated(): per-CPU batch, published up the hierarchy,
 * stopping at the first level that needs a flush already. */
static inline void flush_per_memcg_updated_stop(struct mcg_engine *e, struct memcg_pcpu *pc,
						unsigned long val)
{
	/* Immutable; read before the stores below, which the compiler must
	 * otherwise assume alias them (the kernel's are constants). */
	unsigned long threshold = e->flush_threshold;
	unsigned long charge_batch = e->charge_batch;

	for (; pc; pc = pc->parent_pcpu) {
		unsigned long batch;

		if (atomic_load_explicit(&pc->vmstats->stats_updates, memory_order_relaxed) >
		    threshold)
			break;
		batch = atomic_load_explicit(&pc->stats_updates, memory_order_relaxed) + val;
		if (batch < charge_batch) {
			atomic_store_explicit(&pc->stats_updates, batch, memory_order_relaxed);
			continue;
		}
		atomic_store_explicit(&pc->stats_updates, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(&pc->vmstats->stats_updates, batch, memory_order_relaxed);
	}
}

/* 6.12 memcg_rstat_updated(): every level counts in its per-CPU slot; a
 * full batch is published unless that level needs a flush already, and
 * the slot is reset either way. */
static inline void flush_per_memcg_updated_all(struct mcg_engine *e, struct memcg_pcpu *pc,
					       unsigned long val)
{
	unsigned long threshold = e->flush_threshold;	/* immutable: see above */
	unsigned long charge_batch = e->charge_batch;

	for (; pc; pc = pc->parent_pcpu) {
		unsigned long batch = atomic_load_explicit(&pc->stats_updates,
							   memory_order_relaxed) + val;

		atomic_store_explicit(&pc->stats_updates, batch, memory_order_relaxed);
		if (batch < charge_batch)
			continue;
		if (atomic_load_explicit(&pc->vmstats->stats_updates, memory_order_relaxed) <=
		    threshold)
			atomic_fetch_add_explicit(&pc->vmstats->stats_updates, batch,
						  memory_order_relaxed);
		atomic_store_explicit(&pc->stats_updates, 0, memory_order_relaxed);
	}
}

/* 6.1 memcg_rstat_updated(): one per-CPU count feeding the global threshold. */
static inline void flush_global_updated(struct mcg_engine *e, unsigned long val,
					struct mcg_cpu *c)
{
	unsigned long x = c->stats_updates + val;

	if (x > e->charge_batch) {
		if (atomic_load_explicit(&e->stats_flush_threshold, memory_order_relaxed) <=
		    e->global_flush_threshold)
			atomic_fetch_add_explicit(&e->stats_flush_threshold,
						  (long)(x / e->charge_batch), memory_order_relaxed);
		x = 0;
	}
	c->stats_updates = x;
}

/* 5.16 memcg_rstat_updated() (11192d9c124d): every update counts one, and
 * each MEMCG_CHARGE_BATCH-th of a CPU adds one to the global count,
 * unguarded (the guard came with 873f64b791a2). */
static inline void flush_global_updated_event(struct mcg_engine *e, struct mcg_cpu *c)
{
	if (++c->stats_updates % e->charge_batch == 0)
		atomic_fetch_add_explicit(&e->stats_flush_threshold, 1, memory_order_relaxed);
}

#endif
