/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private structures of the engine, shared by its .c files only. */
#ifndef MEMCGFS_ENGINE_INTERNAL_H
#define MEMCGFS_ENGINE_INTERNAL_H

#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>

#include "engine/engine.h"
#include "engine/lockstat.h"
#include "engine/rstat.h"

/* Counters shared between one writer and concurrent readers are C11 atomics
 * accessed with relaxed loads and stores: on x86-64 these are plain moves, and
 * they keep the sanitizers' memory model honest.  A single-writer add is a
 * load and a store, not a locked read-modify-write. */
typedef _Atomic long acount_t;

static inline long acount_read(const acount_t *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static inline void acount_set(acount_t *p, long v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static inline void acount_add_single_writer(acount_t *p, long v)
{
	acount_set(p, acount_read(p) + v);
}

/* The participants of the rstat machinery. */
enum mcg_part {
	MCG_PART_MEMORY,
	MCG_PART_IO,
	MCG_PART_BASE,
	MCG_NR_PARTS
};

/* memcg's per-CPU header (struct memcg_vmstats_percpu), followed in the same
 * per-CPU block by the counter arrays, whose offsets the engine computes from
 * the layout:
 *
 *   updates since the last flush (written by the owning CPU only):
 *     state[nr_state_slots], events[nr_event_slots], lstate[nr_nodes][nr_node_slots]
 *   values seen at the last flush of this CPU (flusher only, tree lock):
 *     state_prev[], events_prev[], lstate_prev[][]
 */
struct memcg_pcpu {
	/* Update batching: pages changed on this CPU not yet published to
	 * vmstats->stats_updates.  Owner CPU adds, flusher zeroes: relaxed. */
	_Atomic unsigned long stats_updates;
	/* Cached for the upward walk of memcg_rstat_updated(); immutable. */
	struct memcg_pcpu *parent_pcpu;
	struct memcg_vmstats *vmstats;
};

/* memcg's per-cgroup aggregates (struct memcg_vmstats and the lruvec_stats of
 * every node).  Arrays written by the flush callback under the lock of the
 * tree holding the memory participant; read lock-free by readers. */
struct memcg_vmstats {
	acount_t *state;		/* hierarchical */
	acount_t *state_local;		/* this cgroup only */
	acount_t *state_pending;	/* pushed up by children, not yet folded */
	acount_t *events;
	acount_t *events_local;
	acount_t *events_pending;
	acount_t *lstate;		/* [nr_nodes][nr_node_slots] hierarchical */
	acount_t *lstate_local;
	acount_t *lstate_pending;
	/* Pages changed in the subtree since the last flush, published in
	 * per-CPU batches; any CPU adds, the flusher resets. */
	_Atomic unsigned long stats_updates;
};

/* Base CPU-time stats: per CPU (written by the owner) and aggregated. */
struct base_times {
	acount_t user, nice, system, sum;
};

struct base_pcpu {
	struct base_times bstat;	/* owner CPU */
	struct base_times last_bstat;	/* base tree lock */
};

struct io_counts {
	acount_t bytes[MCG_IO_NR_DEVS][MCG_IO_NR_OPS];
	acount_t ios[MCG_IO_NR_DEVS][MCG_IO_NR_OPS];
};

struct io_pcpu {
	struct io_counts cur;		/* owner CPU */
	struct io_counts last;		/* io tree lock */
};

/* What the readers' flushes of one rstat tree cost (memcgfs.flush_stats):
 * relaxed atomic adds, from any reader's thread. */
struct part_flush_counts {
	_Atomic uint64_t flushes;	/* mcg_cputime_flush() or mcg_io_flush() calls */
	_Atomic uint64_t visited;	/* callbacks run: nodes visited x the tree's callbacks */
	_Atomic uint64_t ns;		/* time in them, memcg's callback included if shared */
};

struct page_counter {
	_Atomic long usage;
	_Atomic unsigned long watermark;
	/* The highest usage since memory.peak was last written (6.12 on,
	 * page_counter.local_watermark); never reset before, so the
	 * watermark's twin there. */
	_Atomic unsigned long local_watermark;
	_Atomic unsigned long failcnt;
	_Atomic unsigned long max, high, low, min;
};

struct mcg_cgroup {
	struct mcg_engine *engine;		/* immutable */
	struct mcg_cgroup *parent;		/* immutable; holds a reference */
	uint64_t id;				/* immutable */
	unsigned depth;				/* immutable */
	_Atomic int refcount;
	_Atomic bool online;			/* cleared by destroy */
	/* A memory css that is not its cgroup's own memcg (cgroup.c, "Memory
	 * csses"): linked on its parent css's hidden list, never named nor
	 * counted as a cgroup.  Immutable. */
	bool hidden;
	/* The cgroup whose css this is (itself unless hidden; a hidden css
	 * holds a reference on it until its release).  Immutable. */
	struct mcg_cgroup *home;

	/* The memcg side, as a css (hier_lock for writing):
	 *  - css: the cgroup's memory css now (cgroup->subsys[memory]):
	 *    itself, a hidden css (holding its creation reference), or NULL
	 *    while the parent does not enable memory;
	 *  - memcg_online: this struct's memcg is a live css (atomic: the
	 *    update paths read it, as `online`);
	 *  - memcg_spent: it was a css and was killed, never to be one again;
	 *  - css_pins: references on it as a css (css_get()): one while it
	 *    is the cgroup's css, one per holder of pages charged to it; its
	 *    release is the last one going once it is offline;
	 *  - nr_dying_memcg: killed memory csses of this cgroup's subtree not
	 *    yet released (cgroup->nr_dying_subsys[memory]). */
	struct mcg_cgroup *css;
	_Atomic bool memcg_online;
	bool memcg_spent;
	_Atomic int css_pins;
	unsigned nr_dying_memcg;

	/* Hierarchy, protected by engine->hier_lock. */
	char *name;				/* g_strdup()ed; NULL for the root */
	struct mcg_cgroup *first_child, *last_child, *prev_sibling, *next_sibling;
	/* Destroyed children not yet released, linked by the same sibling
	 * pointers (a cgroup is on one list or the other). */
	struct mcg_cgroup *first_dying;
	/* Live hidden csses whose parent css this is (same sibling links;
	 * a killed one moves to first_dying). */
	struct mcg_cgroup *first_hidden;
	GHashTable *children_by_name;		/* name -> child; created lazily */
	unsigned nr_children;
	unsigned nr_dying_children;		/* unlinked, destroy still folding */
	unsigned nr_descendants;
	unsigned nr_dying_descendants;		/* destroyed, not yet released */

	_Atomic(void *) workload;

	/* rstat nodes; with a shared tree every participant uses node[0]. */
	struct rstat_node rnode[MCG_NR_PARTS];
	struct rstat_node *node_of[MCG_NR_PARTS];

	/* The per-CPU block for CPU 0; CPU c's is pcpu_unit_size x c further
	 * (percpu.c).  Immutable. */
	char *pcpu;
	struct pcpu_chunk *pcpu_chunk;
	unsigned pcpu_slot;

	struct memcg_vmstats vmstats;
	acount_t *aggregates;			/* backing store of vmstats arrays */

	/* Base stats aggregates (base tree lock for writers). */
	struct base_times bstat, last_bstat;
	/* io aggregates (io tree lock for writers). */
	struct io_counts iostat, last_iostat;

	struct page_counter counters[MCG_NR_COUNTERS];
	/* The cgroup as an obj_cgroup (objcg.c): bytes charged in whole pages
	 * and not yet used, parked by a stock drain (objcg->nr_charged_bytes).
	 * Atomic: any CPU's stock drains into it or takes it over. */
	_Atomic unsigned long objcg_charged_bytes;
	/* References on the struct as an obj_cgroup (cgroup.c). */
	_Atomic int objcg_refs;
	/* Released (css gone, off every list), the struct alive only as an
	 * obj_cgroup that stocks or children's structs hold.  Written by
	 * cgroup_release() under hier_lock for writing, read under it. */
	bool objcg_released;
	/* seed 004 before: the css's atomic_t refcnt, one css_tryget() per page
	 * charged and one css_put() per page uncharged (charge.c). */
	_Alignas(64) _Atomic long css_refs;
	_Atomic unsigned long memory_events[MCG_NR_MEMORY_EVENTS];
	_Atomic unsigned long memory_events_local[MCG_NR_MEMORY_EVENTS];
	/* memory.oom.group (memcg->oom_group): written by the file, read by
	 * the OOM killers; relaxed, as the kernel's WRITE_ONCE/READ_ONCE. */
	_Atomic bool oom_group;
	/* v1: a limit has been written to memory.kmem.tcp.limit_in_bytes
	 * (memcg->tcpmem_active): sockets made in the memcg from then on are
	 * charged to its tcpmem counter.  Set once, never cleared; relaxed,
	 * as the kernel's plain store behind a static key. */
	_Atomic bool tcpmem_active;
	/* When the last memcg flush of this subtree began, or the cgroup was
	 * made (engine clock): the age of what a read shows (accuracy.c).
	 * Any flusher stores, readers load; relaxed. */
	_Atomic int64_t flushed_ns;
};

#define MCG_MAX_MEMCG_STOCK 7
#define MCG_MAX_OBJ_STOCK 5	/* 7.3's NR_OBJ_STOCK */
#define MCG_MAX_DRAIN_TOPS 4	/* remote drain requests a CPU keeps apart */

struct mcg_cpu {
	_Alignas(64) pthread_mutex_t lock;	/* held between enter and exit */
	struct mcg_engine *engine;		/* immutable */
	/* The newest engine sync_gen an enter of this CPU has seen
	 * (mcg_engine_sync_cpus()): stored inside the window with release,
	 * after the enter's drains; syncers load it with acquire. */
	_Atomic uint64_t sync_acked;
	/* The last engine call_seq this CPU ran (mcg_engine_on_each_cpu()):
	 * the thread holding `lock`. */
	uint64_t call_served;
	unsigned id;				/* immutable */
	/* This CPU's unit offset (engine->pcpu_offset[id]), immutable: what
	 * this_cpu_ptr() adds, the kernel holding it in a segment register. */
	size_t pcpu_offset;
	/* The charge stock (memcg_stock_pcp, charge.c): the thread holding
	 * `lock` only.  Each cached cgroup holds a reference. */
	struct mcg_cgroup *stock_cached[MCG_MAX_MEMCG_STOCK];
	unsigned long stock_pages[MCG_MAX_MEMCG_STOCK];
	bool stock_memsw[MCG_MAX_MEMCG_STOCK];	/* charged to memsw too (v1) */
	unsigned stock_drain_idx;
	/* drain_all_stock(top) from another CPU: at the next enter, drain
	 * whole if the stocks then hold the subtree of a top asked for.  The
	 * flag is the enter's cheap test; the tops (referenced) are protected
	 * by stock_drain_lock, taken only when the flag is set.  More
	 * requests than slots before an enter, or one for every memcg, make
	 * it look for any (stock_drain_all). */
	_Atomic bool stock_drain_requested;
	pthread_mutex_t stock_drain_lock;
	struct mcg_cgroup *stock_drain_top[MCG_MAX_DRAIN_TOPS];
	unsigned stock_drain_nr;
	bool stock_drain_all;
	/* The object stock (obj_stock_pcp; before 7.x part of memcg_stock_pcp,
	 * objcg.c): the thread holding `lock` only.  An objcg is the cgroup
	 * it was made for; each cached one holds an engine_objcg_get() on it. */
	struct mcg_cgroup *obj_cached[MCG_MAX_OBJ_STOCK];
	unsigned obj_bytes[MCG_MAX_OBJ_STOCK];
	unsigned obj_drain_idx;
	/* Slab statistics held back (mod_objcg_state()): for the objcg in
	 * slot obj_stat_slot (-1: none), on node obj_stat_nid. */
	int obj_stat_slot, obj_stat_nid;
	long obj_slab_reclaimable_b, obj_slab_unreclaimable_b;
	/* The global policy's per-CPU stats_updates (flush.h): 6.1's |val|
	 * batch, or 5.16's running count of updates.  Written only by the
	 * thread holding `lock`. */
	unsigned long stats_updates;
	/* The machine-wide counters the root's cpu.stat and io.stat read
	 * without a flush: this CPU's kcpustat (every task's time) and its
	 * share of the disks' part_stat.  Written by the thread holding
	 * `lock` (single-writer adds), read by anyone. */
	struct base_times kcpustat;
	struct io_counts diskstats;
};

/* The specialisation of mcg_stat_mod() an engine runs (memcg.c). */
enum mcg_update_path {
	MCG_PATH_LLIST_PER_MEMCG_STOP,	/* 7.3 */
	MCG_PATH_LOCKED_PER_MEMCG_ALL,	/* 6.12 */
	MCG_PATH_LOCKED_GLOBAL,		/* 6.1 */
	MCG_PATH_BATCHED,		/* 5.10 */
	MCG_PATH_ANY,			/* another mix, unspecialised */
};

/* What a stat update needs of an item, precomputed at engine creation as
 * the kernel's compiler folds memcg_stats_index() and the offsets of
 * vmstats_percpu->state[i] into constants: one 12-byte load replaces three
 * layout bytes and the engine's array offsets.  Immutable. */
struct memcg_item_path {
	uint32_t off;		/* byte offset of the memcg-wide counter in a CPU
				 * block (state or events array) */
	uint32_t node_off;	/* node 0's lruvec counter (MCG_KIND_NODE) */
	uint16_t unit_bytes;	/* storage unit: memcg_state_val_in_pages() */
	uint8_t kind;		/* enum mcg_item_kind; ABSENT: not tracked */
};

struct mcg_engine {
	struct mcg_engine_config cfg;		/* immutable */
	enum mcg_update_path update_path;	/* immutable */
	const struct mcg_layout *layout;	/* immutable */
	unsigned long charge_batch;		/* the era's MEMCG_CHARGE_BATCH */
	unsigned nr_stock;			/* the era's NR_MEMCG_STOCK */
	unsigned nr_obj_stock;			/* 1, or 7.3's NR_OBJ_STOCK */
	/* The thresholds, flush_threshold_pct of the kernels': per memcg,
	 * charge_batch x nr_cpus updates; 6.1's global one, nr_cpus batches. */
	unsigned long flush_threshold;
	long global_flush_threshold;
	bool maintain_local;			/* memcg-wide local arrays kept */

	/* Per-CPU block layout (immutable). */
	size_t pcpu_stride;			/* one CPU's block */
	/* The percpu allocator (percpu.c): unit size and blocks per chunk are
	 * immutable; the chunk list is protected by pcpu_lock. */
	size_t pcpu_unit_size;
	/* Each CPU's unit offset, the kernel's __per_cpu_offset[] (immutable,
	 * [nr_cpus]): what per_cpu_ptr() reads to reach another CPU's copy. */
	size_t *pcpu_offset;
	unsigned pcpu_blocks_per_chunk;
	pthread_mutex_t pcpu_lock;
	struct pcpu_chunk *pcpu_chunks;
	size_t off_memcg, off_state, off_events, off_lstate;
	size_t off_state_prev, off_events_prev, off_lstate_prev;
	size_t off_base, off_io, off_rstat[MCG_NR_PARTS];
	size_t off_memory_rstat;		/* off_rstat[] of the memory node */
	uint32_t node_stride;			/* bytes between nodes' lruvec arrays */
	struct memcg_item_path item_path[MCG_NR_ITEMS];
	size_t nr_aggregates;

	/* Trees; with a shared tree all parts use trees[0]. */
	struct rstat_tree trees[MCG_NR_PARTS];
	struct rstat_tree *tree_of[MCG_NR_PARTS];

	/* cgroup_mutex: protects names, sibling lists, children tables. */
	pthread_rwlock_t hier_lock;
	struct mcg_cgroup *root;
	_Atomic uint64_t next_id;

	struct mcg_cpu *cpus;			/* [nr_cpus] */
	/* Grace periods (mcg_engine_sync_cpus()): the newest asked for,
	 * bumped by a syncer (a seq_cst read-modify-write), loaded with
	 * acquire at every enter.  An enter that sees a new one wakes the
	 * syncers through sync_cond (sync_lock guards no data: it orders the
	 * wakeup against a syncer's last check). */
	_Atomic uint64_t sync_gen;
	pthread_mutex_t sync_lock;
	pthread_cond_t sync_cond;
	/* The call every CPU runs at its next enter (mcg_engine_on_each_cpu()):
	 * call_fn and call_arg written under call_mutex before call_seq is
	 * bumped with release; an enter reads them after an acquire load of
	 * call_seq newer than the CPU's call_served. */
	pthread_mutex_t call_mutex;
	void (*call_fn)(struct mcg_cpu *cpu, void *arg);
	void *call_arg;
	_Atomic uint64_t call_seq;

	/* Flush heuristics state and counters. */
	_Atomic int64_t flush_last_time_ns;	/* last root flush */
	/* 6.1's global policy (flush-global.c): stats_flush_threshold, and
	 * stats_flush_lock, only ever try-locked around a root flush. */
	_Atomic long stats_flush_threshold;
	pthread_mutex_t stats_flush_lock;
	/* Lock statistics (lockstat.h): counted while lock_stat_on; the rstat
	 * trees keep their locks' own, these the other classes'. */
	_Atomic bool lock_stat_on;
	struct lock_stat stats_flush_lock_stat, stock_drain_lock_stat;
	_Atomic uint64_t nr_flushes, nr_forced, nr_periodic, nr_skipped, nr_side_flushes;
	/* Time in memcg flushes by what asked for them (memcg_flush_tree()):
	 * relaxed atomics, any thread. */
	_Atomic uint64_t trigger_flush_ns[MCG_NR_TRIGGERS];
	_Atomic uint64_t nr_reclaim, nr_refault, nr_shadow_count, nr_dirty_throttle;
	_Atomic uint64_t nr_visited, flush_ns;
	/* Readers' flushes of the base and io trees (engine_flush_part()),
	 * indexed by part (the memory slot stays 0): any thread adds. */
	struct part_flush_counts part_flushes[MCG_NR_PARTS];
	/* Time inside memcg's flush callback and, of it, in the memcg-wide
	 * aggregation (memcg_flush_cpu()): written only by the callback,
	 * which runs under the lock of the tree holding the memory
	 * participant, so a load and a store; read by anyone. */
	_Atomic uint64_t callback_ns, aggregate_ns;
	/* Memcg-wide items whose CPU delta was not zero, summed over the
	 * callbacks (same writer and lock as callback_ns). */
	_Atomic uint64_t changed_items;
	_Atomic uint64_t changed_hist[MCG_CHANGED_HIST];
	/* Callbacks left out of the two sums above (memcg_flush_cpu()). */
	_Atomic uint64_t callbacks_untimed;
	/* Per-CPU sums of one counter made by readers (percpu_sum() in
	 * memcg.c): what a read costs where locals are summed at read time
	 * (seed 000 before, 5.10).  Any reader adds. */
	_Atomic uint64_t percpu_sums;

	/* The clock (engine.c): with cfg.manual_clock, the emulated time and
	 * the next periodic flush's deadline, both moved under clock_lock
	 * (clock_ns is read by anyone); otherwise clock_origin_ns, the
	 * CLOCK_MONOTONIC time of creation (immutable). */
	pthread_mutex_t clock_lock;
	_Atomic uint64_t clock_ns;
	uint64_t next_periodic_ns;		/* clock_lock */
	uint64_t clock_origin_ns;

	/* Accuracy samples (accuracy.c): a ring of the last
	 * MCG_ACCURACY_SAMPLES, accuracy_reads in all; accuracy_lock. */
	pthread_mutex_t accuracy_lock;
	struct mcg_accuracy_sample accuracy[MCG_ACCURACY_SAMPLES];
	uint64_t accuracy_reads;

	/* The flush trace (trace.c): a ring of MCG_TRACE_RECORDS (allocated
	 * when first on), trace_next records in all since it was turned on,
	 * trace_dropped of them overwritten; trace_lock.  trace_on is read
	 * without it by every flush, trace_updaters (MCG_TRACE_UPDATERS) by
	 * every updater's slow path. */
	pthread_mutex_t trace_lock;
	_Atomic bool trace_on, trace_updaters;
	struct trace_record *trace;
	uint64_t trace_next, trace_dropped;

	/* Periodic flusher. */
	pthread_t flusher;
	bool flusher_running;			/* immutable after start */
	pthread_mutex_t flusher_lock;
	pthread_cond_t flusher_cond;
	bool flusher_stop;			/* flusher_lock */
};

static inline size_t align_up_64(size_t v)
{
	return (v + 63) & ~(size_t)63;
}

/* Per-CPU block of cg for cpu, as this_cpu_ptr() finds its own CPU's copy
 * (the kernel adds the CPU's segment base; here, its unit's place). */
static inline char *cg_pcpu(const struct mcg_cgroup *cg, unsigned cpu)
{
	return cg->pcpu + (size_t)cpu * cg->engine->pcpu_unit_size;
}

/* The same block as per_cpu_ptr() reaches it from any CPU: through the
 * offset table (__per_cpu_offset[cpu]), one more load per CPU visited, as
 * the kernel's sums over every CPU pay it. */
static inline char *cg_per_cpu(const struct mcg_cgroup *cg, unsigned cpu)
{
	return cg->pcpu + cg->engine->pcpu_offset[cpu];
}

/* this_cpu_ptr(): cg's block of the CPU the caller acts as. */
static inline char *this_cpu_pcpu(const struct mcg_cpu *c, const struct mcg_cgroup *cg)
{
	return cg->pcpu + c->pcpu_offset;
}

static inline struct memcg_pcpu *cg_memcg_pcpu(const struct mcg_cgroup *cg, unsigned cpu)
{
	return (struct memcg_pcpu *)(cg_pcpu(cg, cpu) + cg->engine->off_memcg);
}

static inline acount_t *pcpu_array(const struct mcg_cgroup *cg, unsigned cpu, size_t off)
{
	return (acount_t *)(cg_pcpu(cg, cpu) + off);
}

static inline uint64_t mcg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A condition variable's deadline, ns after *t, normalised. */
static inline void timespec_add_ns(struct timespec *t, uint64_t ns)
{
	t->tv_sec += (time_t)(ns / 1000000000u);
	t->tv_nsec += (long)(ns % 1000000000u);
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

/* What flush_last_time_ns and the ratelimits compare: the emulated time
 * with a manual clock, else CLOCK_MONOTONIC. */
static inline int64_t engine_now_ns(const struct mcg_engine *e)
{
	if (e->cfg.manual_clock)
		return (int64_t)atomic_load_explicit(&e->clock_ns, memory_order_acquire);
	return (int64_t)mcg_now_ns();
}

/* percpu.c */
struct pcpu_chunk;
void pcpu_plan(struct mcg_engine *e);
char *pcpu_alloc(struct mcg_engine *e, struct pcpu_chunk **chunk, unsigned *slot);
void pcpu_free(struct mcg_engine *e, struct pcpu_chunk *chunk, unsigned slot);
/* cgroup.c */
struct mcg_cgroup *engine_cgroup_alloc(struct mcg_engine *e, struct mcg_cgroup *parent);
void engine_cgroup_free(struct mcg_cgroup *cg);
/* engine.c: does this thread hold an emulated CPU? */
bool engine_thread_in_cpu(void);
/* memcg.c */
void memcg_init_cgroup(struct mcg_engine *e, struct mcg_cgroup *cg);
void memcg_flush_cpu(void *owner, unsigned cpu, void *arg);
void memcg_reparent_state_local(struct mcg_engine *e, struct mcg_cgroup *cg);
unsigned long memcg_flush_tree(struct mcg_engine *e, struct mcg_cgroup *cg, bool may_sleep);

/* ---- the flush trace (trace.c) ---- */

/* Why a flush request did not flush. */
enum mcg_skip_reason {
	MCG_SKIP_NONE,		/* it flushed */
	MCG_SKIP_THRESHOLD,	/* not forced, and not enough pending */
	MCG_SKIP_TRYLOCK,	/* 6.1: a flush was running (stats_flush_lock) */
	MCG_SKIP_RATELIMIT,	/* _delayed()/_ratelimited(): the periodic flush is not late */
};

struct trace_record {
	int64_t ts_ns;			/* engine clock */
	uint64_t memcg_id;		/* or the cgroup of an rstat lock event */
	/* 0: a memcg flush request; else an rstat lock event, 1 + enum
	 * rstat_trace_event, with its CPU, level and contention */
	uint8_t rstat_event;
	bool contended;
	int16_t cpu;
	uint16_t level;
	long stats_updates;
	unsigned long pairs;		/* (memcg, CPU) pairs folded */
	uint64_t ns;			/* the flush's time */
	const char *file;		/* a reader's file, or NULL */
	uint8_t trigger;		/* enum mcg_flush_trigger */
	uint8_t reason;			/* enum mcg_skip_reason */
	bool force, needs_flush;
};

/* Sets the calling thread's trigger, returning the previous one (kernel
 * paths set theirs around their flush and put the old one back). */
enum mcg_flush_trigger trace_trigger_swap(enum mcg_flush_trigger t);
/* What the calling thread's flush is for: its trigger, or a read of the
 * file it renders. */
enum mcg_flush_trigger trace_current_trigger(void);
/* The rstat trees' lock tracepoints (rstat_trace_fn, arg the engine):
 * recorded while tracing is on. */
void trace_rstat(void *arg, enum rstat_trace_event ev, const struct rstat_node *who, int cpu,
		 bool contended);
/* Records one request, if tracing is on (the caller checks trace_on()
 * first, to keep the cost off flushes when it is not). */
void trace_flush(struct mcg_engine *e, const struct mcg_cgroup *cg, long stats_updates,
		 bool force, bool needs_flush, enum mcg_skip_reason reason, unsigned long pairs,
		 uint64_t ns);
static inline bool trace_on(const struct mcg_engine *e)
{
	return atomic_load_explicit(&e->trace_on, memory_order_relaxed);
}


/* memcg-batched.c (5.10) */
void memcg_batched_mod(struct mcg_engine *e, struct mcg_cgroup *cg, unsigned cpu, int nid,
		       enum mcg_item item, long val);
void memcg_batched_release(struct mcg_engine *e, struct mcg_cgroup *cg);
/* charge.c: a CPU entered, and a CPU's stock given back at teardown */
void charge_stock_enter(struct mcg_cpu *c);
void charge_stock_teardown(struct mcg_cpu *c);
/* cgroup.c: a reference on cg as an obj_cgroup, which keeps the struct
 * (and its ancestors') but not the css. */
void engine_objcg_get(struct mcg_cgroup *cg);
void engine_objcg_put(struct mcg_cgroup *cg);
/* objcg.c: does c's object stock hold an objcg whose memcg is top or below
 * it (NULL: any)?  Drain all of it (drain_obj_stock()).  Inside c's window. */
bool objcg_stock_drain_needed(struct mcg_cpu *c, const struct mcg_cgroup *top);
void objcg_stock_drain(struct mcg_cpu *c);
/* flush-per-memcg.c (update side in flush.h) */
bool flush_per_memcg_needed(const struct mcg_engine *e, const struct mcg_cgroup *cg);
/* These return whether they flushed. */
bool flush_per_memcg(struct mcg_engine *e, struct mcg_cgroup *cg, bool force);
bool flush_per_memcg_ratelimited(struct mcg_engine *e, struct mcg_cgroup *cg);
/* flush-global.c (update side in flush.h) */
bool flush_global_needed(const struct mcg_engine *e);
bool flush_global(struct mcg_engine *e, bool force);
bool flush_global_delayed(struct mcg_engine *e);
/* basestat.c, iostat.c */
void base_flush_cpu(void *owner, unsigned cpu, void *arg);
void io_flush_cpu(void *owner, unsigned cpu, void *arg);
/* engine.c: a reader's flush of the base or io tree of cg's subtree,
 * counted in e->part_flushes[part]. */
void engine_flush_part(struct mcg_engine *e, struct mcg_cgroup *cg, enum mcg_part part);
/* counter.c */
void counters_init(struct mcg_cgroup *cg);

#endif
