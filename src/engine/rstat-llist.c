/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lockless updater of Linux 6.17+ (css_rstat_updated(),
 * css_process_update_tree() in kernel/cgroup/rstat.c): a per-CPU llist of
 * updated (node, CPU) records, linked into the tree by the flusher. */
#include "engine/rstat.h"

/* Queues rc on cpu's llist: true if this call queued it.  Only one marker
 * wins against a flusher re-arming the record (lnext == self means "not
 * queued"). */
bool rstat_llist_queue(struct rstat_tree *t, struct rstat_node_cpu *rc, unsigned cpu)
{
	struct rstat_node_cpu *self = rc;
	struct rstat_node_cpu *first;

	if (!atomic_compare_exchange_strong_explicit(&rc->lnext, &self, NULL,
						     memory_order_relaxed, memory_order_relaxed))
		return false;
	first = atomic_load_explicit(&t->lhead[cpu].first, memory_order_relaxed);
	do {
		atomic_store_explicit(&rc->lnext, first, memory_order_relaxed);
	} while (!atomic_compare_exchange_weak_explicit(&t->lhead[cpu].first, &first, rc,
							memory_order_release,
							memory_order_relaxed));
	return true;
}

/* The updater's slow path, counted: only the thread acting as cpu pushes
 * here, so its count has one writer. */
void rstat_llist_push(struct rstat_tree *t, struct rstat_node_cpu *rc, unsigned cpu)
{
	if (rstat_llist_queue(t, rc, cpu))
		u64_add_single_writer(&t->lhead[cpu].links, 1);
}

/* Moves every record queued on cpu's llist into cpu's tree, re-arming each
 * record so that the next update queues it again.  Tree lock held. */
void rstat_llist_process(struct rstat_tree *t, unsigned cpu)
{
	struct rstat_node_cpu *rc =
		atomic_exchange_explicit(&t->lhead[cpu].first, NULL, memory_order_acquire);

	while (rc) {
		struct rstat_node_cpu *next = atomic_load_explicit(&rc->lnext, memory_order_relaxed);

		atomic_store_explicit(&rc->lnext, rc, memory_order_relaxed);
		rstat_link(rc->owner, cpu);
		rc = next;
	}
}
