/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-CPU locked updater of Linux <= 6.16 (cgroup_rstat_updated() in
 * 6.1 and 6.12 kernel/cgroup/rstat.c) and the pop walk of Linux 6.1
 * (cgroup_rstat_cpu_pop_updated(), cgroup_rstat_flush_locked() in 6.1).
 *
 * With these, an update that finds its node off the tree takes the CPU's
 * lock, cgroup_rstat_cpu_lock, to link the node and its ancestors.  The
 * flusher takes the same lock: in 6.12 only while it detaches the subtree,
 * in 6.1 for the whole CPU pass, callbacks included.  That shared lock is
 * the writer-side cost seed 002's thread names: every flush, of any
 * subsystem on a shared tree, unlinks nodes that the next update on that
 * CPU must link again under the lock, and a 6.1 updater may wait for a
 * whole CPU's worth of callbacks.
 */
#include "engine/rstat.h"

void rstat_locked_link(struct rstat_tree *t, struct rstat_node *n, unsigned cpu)
{
	struct rstat_percpu *h = &t->lhead[cpu];
	bool waited = rstat_cpu_lock_as(t, cpu, n, true);
	struct rstat_node *stop = rstat_link(n, cpu);

	u64_add_single_writer(&h->links, 1);
	if (waited)
		u64_add_single_writer(&h->link_waits, 1);
	rstat_cpu_unlock_as(t, cpu, stop, true);
}

/* cgroup_rstat_cpu_pop_updated(): the next node of root's updated subtree
 * on cpu in post-order (a child before its parent, root last), unlinked
 * from the tree; NULL when done.  pos is the previous return (NULL to
 * start).  The CPU's lock is held. */
static struct rstat_node *rstat_pop_updated(struct rstat_node *pos, struct rstat_node *root,
					    unsigned cpu)
{
	struct rstat_node_cpu *rc;

	if (pos == root)
		return NULL;
	if (!pos) {
		pos = root;
		if (!rstat_next(rstat_node_cpu(pos, cpu)))
			return NULL;	/* this subtree is not on the tree */
	} else {
		pos = pos->parent;
	}
	/* Walk down to the first leaf. */
	for (;;) {
		rc = rstat_node_cpu(pos, cpu);
		if (rc->updated_children == pos)
			break;
		pos = rc->updated_children;
	}
	/* Unlink it; thanks to the descent it is the first child of its
	 * parent, except for root. */
	rstat_unlink_from_parent(pos, cpu);
	return pos;
}

unsigned long rstat_pop_flush_cpu(struct rstat_tree *t, struct rstat_node *n, unsigned cpu)
{
	unsigned long visited = 0;
	struct rstat_node *pos = NULL;

	rstat_cpu_lock(t, cpu);
	while ((pos = rstat_pop_updated(pos, n, cpu))) {
		rstat_run_callbacks(t, pos, cpu);
		visited++;
	}
	rstat_cpu_unlock(t, cpu);
	return visited;
}
