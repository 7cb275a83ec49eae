/* rstat: per-CPU "updated" trees that let a flush visit only what changed.
 *
 * This is a user-space rendering of kernel/cgroup/rstat.c as of Linux 6.17+
 * (spec 4.3, 4.4).  Each participant (memory, io, base CPU time) keeps its own
 * per-CPU counters; rstat only remembers *which* (node, CPU) pairs changed and
 * hands them to the participants' flush callbacks, children before parents.
 *
 * Marking an update is lockless and allocation-free: the updater pushes the
 * (node, CPU) record onto that CPU's lock-free list (an llist), unless it is
 * already queued.  Nothing is linked into a tree on the update side.
 *
 * A flush of node R takes the tree's lock and, for every CPU:
 *
 *   1. pops the CPU's whole llist (all nodes of the tree, not only R's
 *      subtree) and links each popped node and its ancestors into the
 *      CPU's updated tree, stopping at the first ancestor already linked:
 *
 *        updated_children: head of the list of children updated on this
 *                          CPU; a node with none points at itself.
 *        updated_next:     next sibling in the parent's list; the last
 *                          sibling points at the parent; NULL = off tree;
 *                          a parentless root points at itself.
 *
 *   2. if R is on the tree, unlinks R from its parent's list and builds a
 *      flush list from R's captured subtree, level by level, each level
 *      pushed in front of the previous one, so that every child precedes
 *      its parent.  For   P: C1 -> C2 -> P,  C1: G11 -> G12 -> C1,
 *      C2: G21 -> G22 -> C2  the list is G12 G11 G22 G21 C2 C1 P.
 *      Every node taken into the list is reset to "off tree".
 *
 *   3. walks the list calling each participant's flush callback.
 *
 * Nodes above R stay linked, so a later flush of an ancestor still finds
 * them: removal from the tree is bottom-up.
 *
 * The one ordering subtlety: an updater that finds its record already queued
 * returns at once, trusting the flusher to fold its counters.  If the flusher
 * dequeued the record just before and read the counters just before the
 * updater's store became visible, the delta would sit unflushed until the
 * next update on that (node, CPU).  The kernel accepts that (see the comment
 * in its css_process_update_tree()); an emulator whose tests demand exact
 * conservation does not, so the updater issues a full barrier between its
 * counter stores and the queued check, and the flusher one between
 * re-arming a record and reading counters (rstat_smp_mb()).
 *
 * Locking: `lock` of the tree protects updated_children, updated_next and
 * flush_next of every node in it, and serialises the callbacks (which is
 * what protects the participants' aggregated counters).  The llist heads and
 * `lnext` are atomics shared by the owning CPU's updater and flushers.
 */
#ifndef MEMCGFS_ENGINE_RSTAT_H
#define MEMCGFS_ENGINE_RSTAT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct rstat_node;

/* Per (node, CPU) record. */
struct rstat_node_cpu {
	struct rstat_node *updated_children;	/* tree lock */
	struct rstat_node *updated_next;	/* tree lock; NULL = off tree */
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

/* A flush callback: fold `cpu`'s deltas of the node's owner. */
typedef void (*rstat_flush_fn)(void *owner, unsigned cpu, void *arg);

#define RSTAT_MAX_CALLBACKS 3

/* Per-CPU llist head, on its own cache line. */
struct rstat_lhead {
	_Alignas(64) _Atomic(struct rstat_node_cpu *) first;
};

struct rstat_tree {
	pthread_mutex_t lock;			/* rstat_ss_lock */
	unsigned nr_cpus;			/* immutable */
	struct rstat_lhead *lhead;		/* [nr_cpus]; atomics */
	unsigned nr_callbacks;			/* immutable after setup */
	rstat_flush_fn callbacks[RSTAT_MAX_CALLBACKS];
	void *callback_args[RSTAT_MAX_CALLBACKS];
};

/* A full memory barrier, as cheap as the architecture allows.  TSan does
 * not take fences; a seq_cst read-modify-write of a thread's own variable
 * orders the same and stays off shared cache lines. */
static inline void rstat_smp_mb(void)
{
#if defined(__SANITIZE_THREAD__)
	static _Thread_local _Atomic int rstat_mb_word;

	atomic_fetch_add_explicit(&rstat_mb_word, 0, memory_order_seq_cst);
#elif defined(__x86_64__)
	__asm__ __volatile__("lock; addl $0,-4(%%rsp)" ::: "memory", "cc");
#else
	atomic_thread_fence(memory_order_seq_cst);
#endif
}

static inline struct rstat_node_cpu *rstat_node_cpu(const struct rstat_node *n, unsigned cpu)
{
	return (struct rstat_node_cpu *)((char *)n->cpu + (size_t)cpu * n->cpu_stride);
}

int rstat_tree_init(struct rstat_tree *t, unsigned nr_cpus);
void rstat_tree_destroy(struct rstat_tree *t);
void rstat_tree_add_callback(struct rstat_tree *t, rstat_flush_fn fn, void *arg);

/* Prepares a node whose per-CPU records live at cpu[0..nr_cpus) with the given
 * stride (storage owned by the caller). */
void rstat_node_init(struct rstat_node *n, struct rstat_node *parent, void *owner,
		     struct rstat_node_cpu *cpu, unsigned cpu_stride, unsigned nr_cpus);

/* css_rstat_updated(): marks n updated on cpu.  Lockless; the caller must be
 * the thread acting as `cpu` and must have stored its counter updates before
 * the call (the barrier inside orders them against the flusher). */
static inline void rstat_updated(struct rstat_tree *t, struct rstat_node *n, unsigned cpu)
{
	struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);
	struct rstat_node_cpu *first;
	struct rstat_node_cpu *self = rc;

	rstat_smp_mb();
	if (atomic_load_explicit(&rc->lnext, memory_order_relaxed) != rc)
		return;		/* queued: the next flush of this CPU sees our stores */
	/* Only one marker wins against a flusher re-arming the record. */
	if (!atomic_compare_exchange_strong_explicit(&rc->lnext, &self, NULL,
						     memory_order_relaxed, memory_order_relaxed))
		return;
	first = atomic_load_explicit(&t->lhead[cpu].first, memory_order_relaxed);
	do {
		atomic_store_explicit(&rc->lnext, first, memory_order_relaxed);
	} while (!atomic_compare_exchange_weak_explicit(&t->lhead[cpu].first, &first, rc,
							memory_order_release,
							memory_order_relaxed));
}

/* css_rstat_flush(): flushes n's subtree on every CPU, calling the tree's
 * callbacks children first.  Returns the number of nodes visited (summed over
 * CPUs).  Takes and drops the tree lock once per CPU. */
unsigned long rstat_flush(struct rstat_tree *t, struct rstat_node *n);

/* True if n is linked into any CPU's tree or queued on any llist (for
 * assertions before freeing).  Takes the tree lock. */
bool rstat_node_busy(struct rstat_tree *t, struct rstat_node *n);

#endif
