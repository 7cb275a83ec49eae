/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rstat: per-CPU "updated" trees that let a flush visit only what changed.
 *
 * A user-space rendering of kernel/cgroup/rstat.c in the three shapes the
 * modelled kernels had (spec 4.3, 4.4; src/kernel/kernel.h says which era
 * has which).  Each participant (memory, io, base CPU time) keeps its own
 * per-CPU counters; rstat only remembers *which* (node, CPU) pairs changed
 * and hands them to the participants' flush callbacks, children before
 * parents.
 *
 * The updated tree of one CPU:
 *
 *   updated_children: head of the list of children updated on this CPU; a
 *                     node with none points at itself.
 *   updated_next:     next sibling in the parent's list; the last sibling
 *                     points at the parent; NULL = off tree; a parentless
 *                     root points at itself.
 *
 * Marking an update, two ways (rstat-locked.c, rstat-llist.c):
 *
 *   locked (Linux <= 6.16, cgroup_rstat_updated()): if the node's
 *     updated_next is set it is linked already and the updater returns;
 *     otherwise it takes the CPU's lock and links the node and each
 *     not-yet-linked ancestor into the tree.  The lock is shared with the
 *     flusher of that CPU, so an updater can wait for a flush.
 *   llist (Linux 6.17+, css_rstat_updated()): lockless; the updater pushes
 *     the (node, CPU) record onto the CPU's llist unless it is queued, and
 *     the flusher links the popped records into the tree before walking it.
 *
 * Walking it for a flush of node R, two ways:
 *
 *   pop, locked (Linux 6.1, cgroup_rstat_cpu_pop_updated()): with the
 *     CPU's lock held for the whole CPU pass, repeatedly descend to the
 *     first leaf of R's subtree, unlink it and run the callbacks on it, so
 *     that every child precedes its parent and R comes last.
 *   detach a list (6.12, 7.3: cgroup_rstat_updated_list()): with the
 *     CPU's lock held (locked updater) or under the tree lock (llist),
 *     unlink R from its parent and build a flush list from R's subtree,
 *     level by level, each level pushed in front of the previous one.  For
 *     P: C1 -> C2 -> P,  C1: G11 -> G12 -> C1,  C2: G21 -> G22 -> C2  the
 *     list is G12 G11 G22 G21 C2 C1 P.  The callbacks then run without the
 *     CPU's lock.
 *
 * Nodes above R stay linked, so a later flush of an ancestor still finds
 * them: removal from the tree is bottom-up.
 *
 * The one ordering subtlety: an updater that finds its node already linked
 * (or queued) returns at once, trusting the flusher to fold its counters.
 * If the flusher unlinked it just before and read the counters just before
 * the updater's store became visible, the delta sits unflushed until the
 * next update on that (node, CPU) marks it again.  The kernel accepts that
 * and has no barrier on either side (the comments of __css_rstat_updated()
 * and css_process_update_tree(); 6.1 and 6.12 likewise), so neither has
 * memcgfs: a barrier per update would cost it what the kernel does not
 * pay.  mcg_stat_unflushed() tells tests what reads miss, and a cgroup's
 * release folds what is left on every CPU (rstat_fold_node()).
 *
 * Locking: the tree's `lock` (cgroup_rstat_lock, or a subsystem's
 * rstat_ss_lock) serialises flushers and their callbacks, which is what
 * protects the participants' aggregated counters.  The tree links
 * (updated_children, updated_next writes) are protected by the tree lock
 * with the llist updater, and by the CPU's `cpu_lock` with the locked one.
 * updated_next is also read without a lock by the locked updater's fast
 * path, hence atomic.  The llist heads and `lnext` are atomics shared by the
 * owning CPU's updater and flushers.
 */
#ifndef MEMCGFS_ENGINE_RSTAT_H
#define MEMCGFS_ENGINE_RSTAT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "engine/lockstat.h"
#include "kernel/kernel.h"

struct rstat_node;

/* Per (node, CPU) record. */
struct rstat_node_cpu {
	struct rstat_node *updated_children;	/* tree lock (llist) or cpu_lock */
	/* tree lock (llist) or cpu_lock to write; NULL = off tree */
	_Atomic(struct rstat_node *) updated_next;
	_Atomic(struct rstat_node_cpu *) lnext;	/* llist link; self = not queued */
	struct rstat_node *owner;		/* immutable */
};

/* Per (cgroup, tree) node. */
struct rstat_node {
	struct rstat_node *parent;		/* immutable; NULL at the root */
	struct rstat_node *flush_next;		/* tree lock; scratch during a flush */
	void *owner;				/* immutable: the struct mcg_cgroup */
	struct rstat_node_cpu *cpu;		/* immutable: cpu[nr_cpus] */
	unsigned cpu_stride;			/* bytes between cpu[i] and cpu[i+1] */
};

/* A counter with one writer at a time (its CPU's thread, or the holder of
 * a lock), read by anyone: a relaxed load and store, no atomic add (rstat
 * and the engine above it). */
static inline void u64_add_single_writer(_Atomic uint64_t *p, uint64_t v)
{
	atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

/* A flush callback: fold `cpu`'s deltas of the node's owner. */
typedef void (*rstat_flush_fn)(void *owner, unsigned cpu, void *arg);

#define RSTAT_MAX_CALLBACKS 3

/* The kernel's cgroup rstat lock tracepoints (include/trace/events/cgroup.h
 * in 6.12 and 7.3; none in 6.1): the tree lock's, and in 6.12 a CPU's lock's,
 * taken by a flusher or, on the updater's "fastpath", by
 * cgroup_rstat_updated().  A tree with a trace function fires them at the
 * kernel's places, with the kernel's arguments: the cgroup the kernel
 * names (the flush's root, the updated cgroup on the fastpath), the CPU
 * (cpu_in_loop for the tree lock: -1 for the flush's outer lock), and
 * whether the lock was contended. */
enum rstat_trace_event {
	RSTAT_TRACE_LOCK_CONTENDED,
	RSTAT_TRACE_LOCKED,
	RSTAT_TRACE_UNLOCK,
	RSTAT_TRACE_CPU_LOCK_CONTENDED,
	RSTAT_TRACE_CPU_LOCKED,
	RSTAT_TRACE_CPU_UNLOCK,
	RSTAT_TRACE_CPU_LOCK_CONTENDED_FASTPATH,
	RSTAT_TRACE_CPU_LOCKED_FASTPATH,
	RSTAT_TRACE_CPU_UNLOCK_FASTPATH,
};
typedef void (*rstat_trace_fn)(void *arg, enum rstat_trace_event ev, const struct rstat_node *who,
			       int cpu, bool contended);

/* Per-CPU data of a tree, on its own cache line: the llist head (llist
 * updater) or the lock of the CPU's updated tree (locked updater; the
 * kernel's raw spinlock cgroup_rstat_cpu_lock). */
struct rstat_percpu {
	_Alignas(64) _Atomic(struct rstat_node_cpu *) first;
	pthread_mutex_t cpu_lock;
	uint64_t cpu_lock_since;		/* cpu_lock: its holder's lock_stat time */
	/* The updater's slow paths on this CPU (a node linked, or queued on
	 * the llist) and, of the locked updater's, those that found cpu_lock
	 * held (by a flusher of this CPU): the writer-side cost of flushes
	 * that unlink what updaters must link again.  Written under cpu_lock
	 * (locked) or by the CPU's thread (llist), read by anyone: relaxed. */
	_Atomic uint64_t links, link_waits;
};

struct rstat_tree {
	pthread_mutex_t lock;			/* cgroup_rstat_lock / rstat_ss_lock */
	uint64_t lock_since;			/* lock: its holder's lock_stat time */
	/* Lock statistics of `lock` and of the CPUs' cpu_lock, counted while
	 * *lock_stat_on (the engine's switch; a false of rstat.c's own until
	 * the engine sets it, before any flush). */
	struct lock_stat lock_stat, cpu_lock_stat;
	const _Atomic bool *lock_stat_on;
	/* Threads waiting for `lock` (rstat_lock()), and the times a 6.1
	 * sleepable flush let it go to them: relaxed atomics, any thread. */
	_Atomic unsigned lock_waiters;
	_Atomic uint64_t lock_breaks;
	/* spin_needbreak() can say yes (CONFIG_PREEMPTION): set once, before
	 * any flush. */
	bool needbreak;
	unsigned nr_cpus;			/* immutable */
	enum mcg_rstat_updater updater;		/* immutable */
	enum mcg_rstat_walk walk;		/* immutable */
	struct rstat_percpu *lhead;		/* [nr_cpus] */
	unsigned nr_callbacks;			/* immutable after setup */
	rstat_flush_fn callbacks[RSTAT_MAX_CALLBACKS];
	void *callback_args[RSTAT_MAX_CALLBACKS];
	/* The lock tracepoints where the tree's kernel has them (NULL: none),
	 * fired while *trace_on; and whether a flush takes the tree lock once
	 * around its CPUs (6.12's cgroup_rstat_flush(): cpu_in_loop -1, then
	 * dropped and taken again after each CPU) rather than once per CPU
	 * (7.3's css_rstat_flush(); since 6.15).  Set once, before any flush. */
	rstat_trace_fn trace;
	void *trace_arg;
	const _Atomic bool *trace_on, *trace_fastpath_on;
	bool outer_lock;
};

/* Are the flushers' lock events traced now (or, fast_path, the updaters')? */
static inline bool rstat_tracing(const struct rstat_tree *t, bool fast_path)
{
	return t->trace && atomic_load_explicit(fast_path ? t->trace_fastpath_on : t->trace_on,
						memory_order_relaxed);
}

static inline struct rstat_node_cpu *rstat_node_cpu(const struct rstat_node *n, unsigned cpu)
{
	return (struct rstat_node_cpu *)((char *)n->cpu + (size_t)cpu * n->cpu_stride);
}

int rstat_tree_init(struct rstat_tree *t, unsigned nr_cpus, enum mcg_rstat_updater updater,
		    enum mcg_rstat_walk walk);

/* A CPU's updated-tree lock, counted in the tree's lock statistics and,
 * for `who` (NULL: a lock the kernel does not trace), traced as
 * _cgroup_rstat_cpu_lock() (6.12): by an updater (fast_path) or a
 * flusher, the contention between the failed try and the wait.  Returns
 * whether it found the lock held. */
static inline bool rstat_cpu_lock_as(struct rstat_tree *t, unsigned cpu,
				     const struct rstat_node *who, bool fast_path)
{
	struct rstat_percpu *h = &t->lhead[cpu];
	bool traced = who && rstat_tracing(t, fast_path);
	bool contended = pthread_mutex_trylock(&h->cpu_lock) != 0;

	if (!contended) {
		h->cpu_lock_since = lock_stat_acquired(&t->cpu_lock_stat, t->lock_stat_on);
	} else {
		if (traced)
			t->trace(t->trace_arg,
				 fast_path ? RSTAT_TRACE_CPU_LOCK_CONTENDED_FASTPATH
					   : RSTAT_TRACE_CPU_LOCK_CONTENDED,
				 who, (int)cpu, true);
		h->cpu_lock_since =
			lock_stat_lock_contended(&h->cpu_lock, &t->cpu_lock_stat, t->lock_stat_on);
	}
	if (traced)
		t->trace(t->trace_arg,
			 fast_path ? RSTAT_TRACE_CPU_LOCKED_FASTPATH : RSTAT_TRACE_CPU_LOCKED, who,
			 (int)cpu, contended);
	return contended;
}

/* Its unlock; `who` as the kernel names it there (an updater: where its
 * walk up the tree stopped). */
static inline void rstat_cpu_unlock_as(struct rstat_tree *t, unsigned cpu,
				       const struct rstat_node *who, bool fast_path)
{
	struct rstat_percpu *h = &t->lhead[cpu];

	if (who && rstat_tracing(t, fast_path))
		t->trace(t->trace_arg,
			 fast_path ? RSTAT_TRACE_CPU_UNLOCK_FASTPATH : RSTAT_TRACE_CPU_UNLOCK, who,
			 (int)cpu, false);
	lock_stat_unlock(&h->cpu_lock, &t->cpu_lock_stat, h->cpu_lock_since);
}

static inline void rstat_cpu_lock(struct rstat_tree *t, unsigned cpu)
{
	struct rstat_percpu *h = &t->lhead[cpu];

	h->cpu_lock_since = lock_stat_lock(&h->cpu_lock, &t->cpu_lock_stat, t->lock_stat_on);
}

static inline void rstat_cpu_unlock(struct rstat_tree *t, unsigned cpu)
{
	rstat_cpu_unlock_as(t, cpu, NULL, false);
}
void rstat_tree_destroy(struct rstat_tree *t);
void rstat_tree_add_callback(struct rstat_tree *t, rstat_flush_fn fn, void *arg);

/* Prepares a node whose per-CPU records live at cpu[0..nr_cpus) with the given
 * stride (storage owned by the caller). */
void rstat_node_init(struct rstat_node *n, struct rstat_node *parent, void *owner,
		     struct rstat_node_cpu *cpu, unsigned cpu_stride, unsigned nr_cpus);

static inline struct rstat_node *rstat_next(const struct rstat_node_cpu *rc)
{
	return atomic_load_explicit(&rc->updated_next, memory_order_relaxed);
}

static inline void rstat_set_next(struct rstat_node_cpu *rc, struct rstat_node *next)
{
	atomic_store_explicit(&rc->updated_next, next, memory_order_relaxed);
}

/* The updaters' slow paths on every CPU, and those that waited for a
 * CPU's lock (struct rstat_percpu), summed. */
void rstat_tree_links(const struct rstat_tree *t, uint64_t *links, uint64_t *waits);

/* rstat-llist.c and rstat-locked.c: the slow paths of the two updaters. */
void rstat_llist_push(struct rstat_tree *t, struct rstat_node_cpu *rc, unsigned cpu);
bool rstat_llist_queue(struct rstat_tree *t, struct rstat_node_cpu *rc, unsigned cpu);
void rstat_locked_link(struct rstat_tree *t, struct rstat_node *n, unsigned cpu);

/* Marks a (node, CPU) record updated (css_rstat_updated() /
 * cgroup_rstat_updated()), with the tree's updater.  The caller must be the
 * thread acting as `cpu` (or, for the locked updater, any thread: the CPU's
 * lock serialises).  It passes the record itself, as the kernel's
 * css_rstat_cpu(css, cpu) finds it: the memcg hot path reaches it at a fixed
 * offset in the CPU's block.  The common case (already queued or linked)
 * returns inline. */
static inline void rstat_cpu_updated_llist(struct rstat_tree *t, struct rstat_node_cpu *rc,
					   unsigned cpu)
{
	if (atomic_load_explicit(&rc->lnext, memory_order_relaxed) != rc)
		return;	/* queued: the next flush of this CPU sees our stores */
	rstat_llist_push(t, rc, cpu);
}

static inline void rstat_cpu_updated_locked(struct rstat_tree *t, struct rstat_node_cpu *rc,
					    unsigned cpu)
{
	if (rstat_next(rc))
		return;	/* linked: the kernel's data_race() test */
	rstat_locked_link(t, rc->owner, cpu);
}

/* Either, by the tree's updater, for node n (callers off the memcg hot
 * path). */
static inline void rstat_updated(struct rstat_tree *t, struct rstat_node *n, unsigned cpu)
{
	struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);

	if (t->updater == MCG_UPDATER_LLIST)
		rstat_cpu_updated_llist(t, rc, cpu);
	else
		rstat_cpu_updated_locked(t, rc, cpu);
}

/* css_rstat_flush(): flushes n's subtree on every CPU, calling the tree's
 * callbacks children first.  Returns the number of nodes visited (summed over
 * CPUs).  Takes the tree lock once per CPU, or (pop walk, 6.1) once, which a
 * sleepable flush (may_sleep: cgroup_rstat_flush()) lets go between two
 * CPUs while another thread waits for it. */
unsigned long rstat_flush(struct rstat_tree *t, struct rstat_node *n, bool may_sleep);

/* The tree lock for a read of what a flush of n folded, where the kernel
 * takes it apart from the flush (7.3's cgroup_base_stat_cputime_show():
 * __css_rstat_lock(css, -1), traced); the kernels that hold it from the
 * flush on (cgroup_rstat_flush_hold(), 6.12 and 6.1) take nothing here. */
void rstat_read_lock(struct rstat_tree *t, const struct rstat_node *n);
void rstat_read_unlock(struct rstat_tree *t, const struct rstat_node *n);

/* True if n is linked into any CPU's tree or queued on any llist (for
 * assertions before freeing).  Takes the tree lock. */
bool rstat_node_busy(struct rstat_tree *t, struct rstat_node *n);

/* Shared by the walks and updaters (rstat.c). */
/* Links n and its ancestors into cpu's tree up to the first one already
 * linked, or the root; returns that one (where __cgroup_rstat_updated()'s
 * walk stops, the cgroup its unlock names). */
struct rstat_node *rstat_link(struct rstat_node *n, unsigned cpu);
void rstat_unlink_from_parent(struct rstat_node *n, unsigned cpu);
struct rstat_node *rstat_updated_list(struct rstat_node *n, unsigned cpu);
void rstat_run_callbacks(struct rstat_tree *t, struct rstat_node *pos, unsigned cpu);
/* rstat-llist.c: moves cpu's queued records into its tree (tree lock held). */
void rstat_llist_process(struct rstat_tree *t, unsigned cpu);
/* Runs the callbacks on n for every CPU, linked or not, then marks n's
 * parent so that a later flush folds what n pushed up: a released cgroup
 * leaves nothing behind (emulator guarantee; see the ordering note). */
void rstat_fold_node(struct rstat_tree *t, struct rstat_node *n);
/* rstat-locked.c: one CPU pass of the pop walk (tree lock held). */
unsigned long rstat_pop_flush_cpu(struct rstat_tree *t, struct rstat_node *n, unsigned cpu);

#endif
