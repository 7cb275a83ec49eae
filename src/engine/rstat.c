/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rstat trees: the shared tree operations and the flush driver (see rstat.h). */
#include "engine/rstat.h"

#include <sched.h>

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Until its owner points it at a switch of its own, a tree counts nothing. */
static const _Atomic bool lock_stat_off;

int rstat_tree_init(struct rstat_tree *t, unsigned nr_cpus, enum mcg_rstat_updater updater,
		    enum mcg_rstat_walk walk)
{
	memset(t, 0, sizeof(*t));
	t->lock_stat_on = &lock_stat_off;
	/* The pop walk is the locked updater's partner: an llist era never
	 * popped under a CPU lock. */
	assert(!(updater == MCG_UPDATER_LLIST && walk == MCG_WALK_POP_LOCKED));
	t->nr_cpus = nr_cpus;
	t->updater = updater;
	t->walk = walk;
	t->lhead = aligned_alloc(64, sizeof(*t->lhead) * nr_cpus);
	if (!t->lhead)
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < nr_cpus; cpu++) {
		atomic_init(&t->lhead[cpu].first, NULL);
		pthread_mutex_init(&t->lhead[cpu].cpu_lock, NULL);
		t->lhead[cpu].cpu_lock_since = 0;
		atomic_init(&t->lhead[cpu].links, 0);
		atomic_init(&t->lhead[cpu].link_waits, 0);
	}
	pthread_mutex_init(&t->lock, NULL);
	return 0;
}

void rstat_tree_destroy(struct rstat_tree *t)
{
	if (!t->lhead)
		return;
	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++)
		pthread_mutex_destroy(&t->lhead[cpu].cpu_lock);
	pthread_mutex_destroy(&t->lock);
	free(t->lhead);
	t->lhead = NULL;
}

void rstat_tree_links(const struct rstat_tree *t, uint64_t *links, uint64_t *waits)
{
	*links = *waits = 0;
	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
		*links += atomic_load_explicit(&t->lhead[cpu].links, memory_order_relaxed);
		*waits += atomic_load_explicit(&t->lhead[cpu].link_waits, memory_order_relaxed);
	}
}

void rstat_tree_add_callback(struct rstat_tree *t, rstat_flush_fn fn, void *arg)
{
	assert(t->nr_callbacks < RSTAT_MAX_CALLBACKS);
	t->callbacks[t->nr_callbacks] = fn;
	t->callback_args[t->nr_callbacks] = arg;
	t->nr_callbacks++;
}

void rstat_node_init(struct rstat_node *n, struct rstat_node *parent, void *owner,
		     struct rstat_node_cpu *cpu, unsigned cpu_stride, unsigned nr_cpus)
{
	n->parent = parent;
	n->flush_next = NULL;
	n->owner = owner;
	n->cpu = cpu;
	n->cpu_stride = cpu_stride;
	for (unsigned c = 0; c < nr_cpus; c++) {
		struct rstat_node_cpu *rc = rstat_node_cpu(n, c);

		rc->updated_children = n;
		atomic_init(&rc->updated_next, NULL);
		rc->owner = n;
		atomic_init(&rc->lnext, rc);
	}
}

/* Links n and its not-yet-linked ancestors into cpu's updated tree: both
 * additions and removals are bottom-up, so if a node is linked, all its
 * ancestors are. */
struct rstat_node *rstat_link(struct rstat_node *n, unsigned cpu)
{
	for (;;) {
		struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);
		struct rstat_node_cpu *prc;

		if (rstat_next(rc))
			return n;
		if (!n->parent) {
			rstat_set_next(rc, n);	/* the root marks itself busy */
			return n;
		}
		prc = rstat_node_cpu(n->parent, cpu);
		rstat_set_next(rc, prc->updated_children);
		prc->updated_children = n;
		n = n->parent;
	}
}

/* Unlinks n from its parent's updated_children list, which is singly
 * linked: walk it to the removal point.  Then n is off the tree. */
void rstat_unlink_from_parent(struct rstat_node *n, unsigned cpu)
{
	struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);

	if (n->parent) {
		struct rstat_node_cpu *prc = rstat_node_cpu(n->parent, cpu);

		if (prc->updated_children == n) {
			prc->updated_children = rstat_next(rc);
		} else {
			struct rstat_node *pos = prc->updated_children;

			for (;;) {
				struct rstat_node_cpu *prev = rstat_node_cpu(pos, cpu);
				struct rstat_node *next = rstat_next(prev);

				assert(next != n->parent);	/* n must be on the list */
				if (next == n) {
					rstat_set_next(prev, rstat_next(rc));
					break;
				}
				pos = next;
			}
		}
	}
	rstat_set_next(rc, NULL);
}

/* Pushes the subtree whose first child is `child` onto `head`, level by
 * level (css_rstat_push_children()).  Within one level every sibling chain
 * is pushed in turn; a node's children are queued for the next level, which
 * ends up in front of this one, so descendants always precede ancestors. */
static struct rstat_node *rstat_push_children(struct rstat_node *head, struct rstat_node *child,
					      unsigned cpu)
{
	struct rstat_node *level = child;	/* first children of this level */
	struct rstat_node *next_level = NULL;

	child->flush_next = NULL;
	while (level) {
		while (level) {
			struct rstat_node *pos = level;
			struct rstat_node *parent = pos->parent;

			level = pos->flush_next;
			/* Sibling chains end at the parent. */
			while (pos != parent) {
				struct rstat_node_cpu *rc = rstat_node_cpu(pos, cpu);
				struct rstat_node *grandchild = rc->updated_children;
				struct rstat_node *sibling = rstat_next(rc);

				pos->flush_next = head;
				head = pos;
				if (grandchild != pos) {
					rc->updated_children = pos;
					grandchild->flush_next = next_level;
					next_level = grandchild;
				}
				rstat_set_next(rc, NULL);
				pos = sibling;
			}
		}
		level = next_level;
		next_level = NULL;
	}
	return head;
}

/* Detaches n's updated subtree on cpu and returns it as a flush list,
 * children first, n last; NULL if n has nothing on this cpu
 * (css_rstat_updated_list()).  Caller holds what protects the links. */
struct rstat_node *rstat_updated_list(struct rstat_node *n, unsigned cpu)
{
	struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);
	struct rstat_node *head = n;
	struct rstat_node *child;

	if (!rstat_next(rc))
		return NULL;
	rstat_unlink_from_parent(n, cpu);

	n->flush_next = NULL;
	child = rc->updated_children;
	rc->updated_children = n;
	if (child != n)
		head = rstat_push_children(head, child, cpu);
	return head;
}

void rstat_run_callbacks(struct rstat_tree *t, struct rstat_node *pos, unsigned cpu)
{
	for (unsigned i = 0; i < t->nr_callbacks; i++)
		t->callbacks[i](pos->owner, cpu, t->callback_args[i]);
}

/* One CPU pass of the detach-list walk: the links are taken under the tree
 * lock (llist) or the CPU's lock (locked updater), the callbacks run under
 * the tree lock only. */
static unsigned long rstat_list_flush_cpu(struct rstat_tree *t, struct rstat_node *n,
					  unsigned cpu)
{
	unsigned long visited = 0;
	struct rstat_node *pos;

	if (t->updater == MCG_UPDATER_LLIST) {
		rstat_llist_process(t, cpu);
		pos = rstat_updated_list(n, cpu);
	} else {
		rstat_cpu_lock_as(t, cpu, n, false);
		pos = rstat_updated_list(n, cpu);
		rstat_cpu_unlock_as(t, cpu, n, false);
	}
	for (; pos; pos = pos->flush_next) {
		rstat_run_callbacks(t, pos, cpu);
		visited++;
	}
	return visited;
}

/* The tree lock, counting who waits for it where a flusher asks: the
 * pop walk with spin_needbreak() (6.1's sleepable flush asks
 * spin_is_contended() of the kernel's cgroup_rstat_lock); 6.12 and 7.3
 * drop the lock after every CPU anyway. */
static void rstat_lock(struct rstat_tree *t)
{
	uint64_t since;

	if (!t->needbreak || t->walk != MCG_WALK_POP_LOCKED) {
		since = lock_stat_lock(&t->lock, &t->lock_stat, t->lock_stat_on);
		t->lock_since = since;
		return;
	}
	atomic_fetch_add_explicit(&t->lock_waiters, 1, memory_order_relaxed);
	since = lock_stat_lock(&t->lock, &t->lock_stat, t->lock_stat_on);
	t->lock_since = since;
	atomic_fetch_sub_explicit(&t->lock_waiters, 1, memory_order_relaxed);
}

static void rstat_unlock(struct rstat_tree *t)
{
	lock_stat_unlock(&t->lock, &t->lock_stat, t->lock_since);
}

/* The tree lock of a flush of `who`, traced as __cgroup_rstat_lock() (6.12)
 * or __css_rstat_lock() (7.3): cpu_in_loop -1 for 6.12's outer lock, else
 * the CPU just flushed (6.12) or about to be (7.3).  Only the detach-list
 * walk's kernels have the tracepoints. */
static void rstat_lock_as(struct rstat_tree *t, const struct rstat_node *who, int cpu_in_loop)
{
	bool contended;

	if (!rstat_tracing(t, false)) {
		rstat_lock(t);
		return;
	}
	contended = pthread_mutex_trylock(&t->lock) != 0;
	if (!contended) {
		t->lock_since = lock_stat_acquired(&t->lock_stat, t->lock_stat_on);
	} else {
		t->trace(t->trace_arg, RSTAT_TRACE_LOCK_CONTENDED, who, cpu_in_loop, true);
		t->lock_since = lock_stat_lock_contended(&t->lock, &t->lock_stat, t->lock_stat_on);
	}
	t->trace(t->trace_arg, RSTAT_TRACE_LOCKED, who, cpu_in_loop, contended);
}

static void rstat_unlock_as(struct rstat_tree *t, const struct rstat_node *who, int cpu_in_loop)
{
	if (rstat_tracing(t, false))
		t->trace(t->trace_arg, RSTAT_TRACE_UNLOCK, who, cpu_in_loop, false);
	rstat_unlock(t);
}

/* Lets the tree lock go to a waiter and takes it again.  The kernel's
 * queued spinlock hands it to the first waiter; a mutex lets the thread
 * that unlocks take it straight back, so the flusher waits (yielding, a
 * bounded while) until a waiter has it. */
static void rstat_lock_break(struct rstat_tree *t)
{
	unsigned waiters = atomic_load_explicit(&t->lock_waiters, memory_order_relaxed);

	rstat_unlock(t);
	atomic_fetch_add_explicit(&t->lock_breaks, 1, memory_order_relaxed);
	for (int i = 0; i < 10000 &&
			atomic_load_explicit(&t->lock_waiters, memory_order_relaxed) >= waiters;
	     i++)
		sched_yield();
	rstat_lock(t);
}

/*
 * Whether the tree lock is dropped between CPUs differs.  6.12 and 7.3
 * always drop it (cgroup_rstat_flush_locked(), css_rstat_flush()).  6.1's
 * cgroup_rstat_flush_locked() keeps it for the whole flush, but a sleepable
 * flush (cgroup_rstat_flush(): cpu.stat, io.stat; may_sleep) drops it after
 * a CPU when need_resched() or spin_needbreak(&cgroup_rstat_lock) asks, and
 * spin_needbreak() is spin_is_contended() with CONFIG_PREEMPTION, which
 * Debian's 6.1 has (CONFIG_PREEMPT_DYNAMIC=y, voluntary by default) and
 * its 5.10 has not (t->needbreak): another flusher waiting for the lock
 * gets it between two CPUs.  memcg's
 * flushes are irqsafe in 6.1 (cgroup_rstat_flush_irqsafe(), may_sleep
 * false) and hold it throughout.  need_resched() is the scheduler's, which
 * is not emulated: here only a waiter makes a flusher yield.
 */
unsigned long rstat_flush(struct rstat_tree *t, struct rstat_node *n, bool may_sleep)
{
	unsigned long visited = 0;

	if (t->walk == MCG_WALK_POP_LOCKED) {
		rstat_lock(t);
		for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
			visited += rstat_pop_flush_cpu(t, n, cpu);
			if (may_sleep && t->needbreak && cpu + 1 < t->nr_cpus &&
			    atomic_load_explicit(&t->lock_waiters, memory_order_relaxed))
				rstat_lock_break(t);
		}
		rstat_unlock(t);
		return visited;
	}
	if (t->outer_lock) {
		/* 6.12: cgroup_rstat_flush() -> cgroup_rstat_flush_locked() */
		rstat_lock_as(t, n, -1);
		for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
			visited += rstat_list_flush_cpu(t, n, cpu);
			rstat_unlock_as(t, n, (int)cpu);
			rstat_lock_as(t, n, (int)cpu);
		}
		rstat_unlock_as(t, n, -1);
		return visited;
	}
	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
		rstat_lock_as(t, n, (int)cpu);
		visited += rstat_list_flush_cpu(t, n, cpu);
		rstat_unlock_as(t, n, (int)cpu);
	}
	return visited;
}

static bool rstat_read_locks(const struct rstat_tree *t)
{
	return t->walk == MCG_WALK_DETACH_LIST && !t->outer_lock;
}

void rstat_read_lock(struct rstat_tree *t, const struct rstat_node *n)
{
	if (rstat_read_locks(t))
		rstat_lock_as(t, n, -1);
}

void rstat_read_unlock(struct rstat_tree *t, const struct rstat_node *n)
{
	if (rstat_read_locks(t))
		rstat_unlock_as(t, n, -1);
}

/* 6.1's css_release_work_fn() flushes with the sleepable
 * cgroup_rstat_flush(). */
void rstat_fold_node(struct rstat_tree *t, struct rstat_node *n)
{
	rstat_flush(t, n, true);
	rstat_lock(t);
	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++)
		rstat_run_callbacks(t, n, cpu);
	rstat_unlock(t);
	/* The parent takes what was folded into it at the next flush: marked
	 * on CPU 0 from whatever thread releases n, which no kernel updater
	 * is, so neither counted nor traced as one. */
	if (n->parent) {
		struct rstat_node_cpu *prc = rstat_node_cpu(n->parent, 0);

		if (t->updater == MCG_UPDATER_LLIST) {
			if (atomic_load_explicit(&prc->lnext, memory_order_relaxed) == prc)
				rstat_llist_queue(t, prc, 0);
		} else if (!rstat_next(prc)) {
			rstat_cpu_lock(t, 0);
			rstat_link(n->parent, 0);
			rstat_cpu_unlock(t, 0);
		}
	}
}

bool rstat_node_busy(struct rstat_tree *t, struct rstat_node *n)
{
	bool busy = false;

	rstat_lock(t);
	for (unsigned cpu = 0; cpu < t->nr_cpus && !busy; cpu++) {
		struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);

		rstat_cpu_lock(t, cpu);
		busy = rstat_next(rc) || rc->updated_children != n ||
		       atomic_load_explicit(&rc->lnext, memory_order_relaxed) != rc;
		rstat_cpu_unlock(t, cpu);
	}
	rstat_unlock(t);
	return busy;
}
