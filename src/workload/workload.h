/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workloads: worker threads, one per emulated CPU, that charge memory into
 * the cgroups the way tasks running a given profile would.
 *
 * Every cgroup carries a profile (which memory its tasks touch and how fast);
 * each worker does its CPU's share of every cgroup's profile in short steps,
 * moving the engine's counters together as the kernel does (a faulted
 * anonymous page raises anon, an LRU list, pgfault and pgpgin; dirty pages
 * become writeback, then clean; reclaim scans, steals, refills, evicts and
 * later refaults), and charging the page counters, whose limits it enforces
 * by reclaim and, failing that, OOM.
 *
 * Ownership.  The pages a cgroup holds are kept in ledgers, one per (cgroup,
 * CPU): only the thread that has entered CPU c (mcg_cpu_enter) touches the
 * ledgers of CPU c, so the charge path shares no lock between CPUs.  Control
 * operations (limits, memory.reclaim, removal) enter each CPU in turn and act
 * as that CPU.
 *
 * Locking order: the workload's cgroup list lock, then an emulated CPU.
 */
#ifndef MEMCGFS_WORKLOAD_H
#define MEMCGFS_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "kernel/kernel.h"

struct mcg_workload;
struct mcg_profile;

/* ---- Profiles ----------------------------------------------------------------
 *
 * Text form: tokens `key=value` separated by blanks or newlines, an optional
 * leading `preset=NAME` giving the starting values (otherwise all zero), later
 * keys overriding.  Rates are pages per second per cgroup (spread over all
 * CPUs); sizes take K, M, G suffixes; percentages are 0..100.  Every key
 * is 0 or off unless given, but swapin.
 *
 *   anon=N        anonymous page faults per second
 *   thp=P         percent of anonymous faults served by 2 MiB THPs
 *   mlock=P       percent of anonymous pages mlocked (unevictable)
 *   file_read=N   file pages read into the page cache per second
 *   file_write=N  file pages dirtied per second (then written back)
 *   mapped=P      percent of file pages also mapped
 *   shmem=N       shmem/tmpfs pages per second
 *   slab=N        slab pages per second (half reclaimable)
 *   kernel=N      kernel stack and page-table pages per second
 *   footprint=S   memory the tasks keep, resident or swapped out (0: grow
 *                 without bound)
 *   fault_work=N  iterations of a register-only loop each anonymous fault
 *                 does besides memcg, touching no shared line: what a real
 *                 fault spends clearing the page, in the allocator, page
 *                 tables and mmap_lock (0: nothing; mcg_fault_work_per_ns()
 *                 converts a time)
 *   turnover=P    once at footprint, percent of it freed and faulted anew
 *                 per second (0: keep the fault rates)
 *   swapin=P      percent of anonymous faults that find a swapped-out page
 *                 while there are any, and read it back (default 25; 100
 *                 reads all of it back before faulting anything new)
 *   reclaim=N     background (kswapd) reclaim, pages per second
 *   swap=on|off   whether reclaim may swap anonymous pages out
 *   tasks=on|off  tasks even when every rate is 0: they sleep, holding their
 *                 memory (a profile with any rate has tasks anyway)
 *   nodes=LIST    NUMA nodes to allocate on: "all" or e.g. "0,2-3"
 *   cpus=N        the tasks run on the first N emulated CPUs only (0, the
 *                 default: on all), as N threads pinned there would: one
 *                 reader of a file is cpus=1
 *
 * Presets: idle (no tasks); sleep (tasks that hold their memory and make no
 * page events); seed001 (the seed 001 mix: anon, file, dirty/writeback,
 * slab, kmem, mlock and reclaim counters); multi-fault (seed 004's
 * multi-threaded page-fault program); file-reader (a page-cache heavy
 * reader).
 */

/* Parses a profile for an engine with nr_nodes nodes: 0 and *out, or
 * -EINVAL for any malformed token, unknown key or preset, or out-of-range
 * value. */
int mcg_profile_parse(const char *text, unsigned nr_nodes, struct mcg_profile **out);
/* Canonical text, one `key=value` per line, parseable again; g_free() it. */
char *mcg_profile_format(const struct mcg_profile *p);
void mcg_profile_free(struct mcg_profile *p);
/* NULL-terminated list of preset names. */
const char *const *mcg_profile_presets(void);
/* Iterations of fault_work's loop per nanosecond of CPU on this machine,
 * measured now (some 20 ms): how a caller turns a real fault's cost into a
 * fault_work count that every daemon it starts then does alike. */
double mcg_fault_work_per_ns(void);
/* Has the profile no tasks (no rate, tasks=off)? */
bool mcg_profile_is_idle(const struct mcg_profile *p);

/* ---- The worker pool ------------------------------------------------------- */

/* Creates the pool for an engine; new cgroups get `default_profile` (NULL:
 * idle), the root starts idle.  NULL and *err = -EINVAL for a bad profile. */
struct mcg_workload *mcg_workload_new(struct mcg_engine *e, const char *default_profile,
				      int *err);
/* The workers' pacing clock: a busy worker wakes every tick to do what its
 * cgroups' rates ask for since the last.  A finer tick spreads the page
 * events of a second over more moments, so that a (cgroup, CPU) pair is
 * marked updated again soon after each flush, as the kernel's continuous
 * faults mark it; it costs a wakeup and a pass over the cgroups per tick
 * and CPU.  Before mcg_workload_start() only: 0, or -EINVAL (out of
 * 1..MCG_WORKLOAD_MAX_TICK_MS, or started). */
#define MCG_WORKLOAD_DEFAULT_TICK_MS 10
#define MCG_WORKLOAD_MAX_TICK_MS 100
int mcg_workload_set_tick_ms(struct mcg_workload *wl, unsigned ms);
/* Starts one worker thread per emulated CPU: 0 or -errno. */
int mcg_workload_start(struct mcg_workload *wl);
/* Stops the workers (if started) and frees the pool and its ledgers; the
 * engine and its charges stay. */
void mcg_workload_free(struct mcg_workload *wl);

/* Stops every worker between steps and waits until all are parked; resume
 * lets them go on.  For tests and consistent snapshots.  Nestable. */
void mcg_workload_pause(struct mcg_workload *wl);
void mcg_workload_resume(struct mcg_workload *wl);

/* ---- Repeatable runs ---------------------------------------------------------
 *
 * Two things make a run's files differ from the next run's: when things
 * happen (threads, the wall clock) and the workers' random choices.  On an
 * engine with a manual clock (mcg_engine_config.manual_clock) the pool
 * starts no threads: time moves only by mcg_workload_clock_advance(), which
 * does, in the caller's thread, every step the workers would have made in
 * that time, a tick at a time (each CPU in turn, each cgroup in creation
 * order, dt = one tick), and the periodic flushes due between them (a flush
 * due at a tick runs before that tick's steps).  A fixed seed fixes the
 * random choices.  The same calls then give the same counters.
 */

/* Seeds the workers' random choices (which node each allocation takes):
 * each (cgroup, CPU) ledger draws from its own generator, seeded with
 * `seed`, the cgroup's id and the CPU.  Without a call the seed is random.
 * Before mcg_workload_start() and any charge. */
void mcg_workload_set_seed(struct mcg_workload *wl, uint64_t seed);
/* Manual clock only: moves the emulated time forward by ns, doing the
 * steps and periodic flushes due on the way.  Steps done this way account
 * no CPU time (cpu.stat): the workers' CPU time is this machine's.  0;
 * -EINVAL (a real clock, or more than MCG_WORKLOAD_MAX_ADVANCE_NS: an
 * advance runs every tick in the caller's thread, and a file write must
 * end); or -EINTR when interrupted(arg) (may be NULL), asked before each
 * tick, says the writer has a signal pending: the time stays at the last
 * tick done. */
#define MCG_WORKLOAD_MAX_ADVANCE_NS (3600 * 1000000000ULL)
int mcg_workload_clock_advance(struct mcg_workload *wl, uint64_t ns,
			       bool (*interrupted)(void *arg), void *arg);

/* Kinds of pages a direct charge makes, named as memory.stat names them. */
enum mcg_page_kind {
	MCG_PAGES_ANON,			/* anon: faulted anonymous pages (inactive anon) */
	MCG_PAGES_FILE,			/* file: page cache read from disk, clean */
	MCG_PAGES_FILE_DIRTY,		/* file_dirty: page cache written, dirty */
	MCG_PAGES_SHMEM,		/* shmem: tmpfs pages (file, on the anon LRU) */
	MCG_PAGES_SLAB_RECLAIMABLE,	/* slab_reclaimable */
	MCG_PAGES_SLAB_UNRECLAIMABLE,	/* slab_unreclaimable */
	MCG_PAGES_KERNEL_STACK,		/* kernel_stack */
	MCG_PAGES_PAGETABLES,		/* pagetables */
	/* sock: socket buffers, charged as the kernel's socket layer does
	 * (mem_cgroup_sk_charge(), 7.3 mm/memcontrol.c): v2 to the memory
	 * counter and "sock"; v1 to kmem.tcp only, and only once its limit
	 * was written (tcpmem_active; before, the memcg's sockets are not
	 * accounted and the charge does nothing); never to the root.  The
	 * sockets keep their memcg: a move or a css kill leaves them. */
	MCG_PAGES_SOCK,
	MCG_NR_PAGE_KINDS
};
/* The memory.stat name of a kind. */
const char *mcg_page_kind_name(enum mcg_page_kind kind);

/*
 * memcgfs.charge: `pages` pages of `kind` made by cg's tasks on CPU cpu,
 * node nid, or freed (pages < 0).  A charge goes page by page through the
 * workload's own charge path: the CPU's stock, the page counters, and at a
 * limit what try_charge_memcg() does (a "max" event, reclaim of the
 * subtree, the stock drain, then an OOM kill), with the stat updates of the
 * kernel path that makes such a page (a fault: anon, inactive_anon, pgfault,
 * pgpgin; a read: file, inactive_file, io.stat reads ...).  A free takes
 * pages of that kind from what CPU cpu's ledger of cg holds on nid, with
 * the updates of the kernel path that frees them (pgpgout ...).
 *
 * 0; -EINVAL for a cpu, nid or kind out of range, pages == 0, or a free of
 * more than the ledger holds (nothing changes); -ENODEV once cg is removed;
 * -ENOMEM when a page cannot be charged even after reclaim and an OOM kill,
 * or the OOM killer chose this very ledger (the faulting task is dead): the
 * pages charged before stay, as a task's faults before it failed.
 */
int mcg_workload_charge(struct mcg_workload *wl, struct mcg_cgroup *cg, enum mcg_page_kind kind,
			unsigned cpu, int nid, long pages);

/* ---- vmpressure (v1 memory.pressure_level) -------------------------------
 *
 * Reclaim reports its efficiency to the target memcg (workload.c); a memcg
 * that has seen a window of it scanned has a work item due.
 */
enum mcg_vmpressure_level {
	MCG_VMPRESSURE_LOW,
	MCG_VMPRESSURE_MEDIUM,
	MCG_VMPRESSURE_CRITICAL,
};
/* vmpressure_work_fn() of every memcg with work due: its level from the
 * counts so far, which restart.  fn(cg, level, arg) is called for each,
 * outside the pool's locks, to signal the listeners of cg and its
 * ancestors (vmpressure_event()). */
void mcg_workload_vmpressure_work(struct mcg_workload *wl,
				  void (*fn)(struct mcg_cgroup *cg, enum mcg_vmpressure_level level,
					     void *arg),
				  void *arg);

/* ---- The hierarchy, through the pool ------------------------------------ */

/* mcg_cgroup_create() plus the default profile, after charging the new
 * memcg's own objects (mcg_memcg_objects()) to parent's css if the new
 * cgroup has a memory css (memory_css: its parent enables memory, or v1;
 * else mcg_cgroup_create_without_memcg(), its tasks charging the nearest
 * ancestor's css): same returns, and -ENOMEM when the parent css's limits
 * cannot take them even after reclaim. */
int mcg_workload_cgroup_create(struct mcg_workload *wl, struct mcg_cgroup *parent,
			       const char *name, bool memory_css, struct mcg_cgroup **out);
/* The memory css of cg made (on: mem_cgroup_css_alloc(), a fresh css, its
 * objects charged to the parent css; -ENOMEM if they cannot be) or killed
 * (mcg_memcg_css_kill()), as the parent's subtree_control enables or
 * disables memory.  The tasks of cg's subtree charge the new css, or the
 * parent's, from then on; what they charged before stays with the old css
 * (dying while it holds pages), or in 7.3 is reparented at a kill.
 * Nothing changes if cg already is so.  -ENODEV once cg is removed. */
int mcg_workload_memory_css(struct mcg_workload *wl, struct mcg_cgroup *cg, bool on);
/* The objects of the memcgs below cg (charged to cg or a descendant),
 * summed: what memory.current and the slab, percpu and kernel counts of
 * cg hold besides its tasks' memory.  slab is what the statistics show
 * of them, less what the object stocks hold back of any slab (the tasks'
 * too); pages what is charged for them and for the spare bytes of the
 * object stocks and obj_cgroups, less the slots the tasks' slab pages'
 * worths have left (tasks_slab_unfilled), which their ledgers count as
 * pages.  Enters every CPU: for tests, with the pool paused. */
struct mcg_workload_objects {
	long slab;		/* bytes, as slab_unreclaimable counts them */
	size_t percpu;		/* bytes */
	long pages;		/* charged, as "kernel" counts them (may be < 0) */
	size_t tasks_slab_unfilled;	/* bytes */
};
void mcg_workload_memcg_objects(struct mcg_workload *wl, struct mcg_cgroup *cg,
				struct mcg_workload_objects *sum);
/* mcg_cgroup_destroy() plus what becomes of the pages charged by the
 * cgroup's tasks (css.c, cgroup_destroy_locked()): same returns. */
int mcg_workload_cgroup_destroy(struct mcg_workload *wl, struct mcg_cgroup *cg);
/* rmdir: mcg_workload_cgroup_destroy() of a cgroup whose subtree has no
 * tasks, else -EBUSY (cgroup_destroy_locked()), atomically. */
int mcg_workload_cgroup_rmdir(struct mcg_workload *wl, struct mcg_cgroup *cg);

/* ---- Files of a cgroup ---------------------------------------------------- */

/* ---- Tasks ----------------------------------------------------------------
 *
 * A cgroup whose profile is not idle has tasks: the program the profile
 * describes, one thread per emulated CPU.  Setting the profile idle is the
 * tasks exiting: their anonymous memory (mlocked too), shmem, swap, stacks,
 * page tables and unreclaimable slab are freed; page cache and reclaimable
 * slab stay charged, as in the kernel.  A dying cgroup has none.
 */

/* memcgfs.workload: 0 or -EINVAL (old profile kept).  A busy profile
 * replaced by an idle one: the tasks exit. */
int mcg_workload_set_profile(struct mcg_workload *wl, struct mcg_cgroup *cg, const char *text);
/* Has cg itself tasks?  Has cg or a descendant (cgroup.events populated)?
 * flips (may be NULL): how many times populated changed, so that a
 * change and its undoing still tell a poller (cgroup_file_notify()). */
bool mcg_workload_cgroup_busy(struct mcg_workload *wl, struct mcg_cgroup *cg);
bool mcg_workload_cgroup_populated(struct mcg_workload *wl, struct mcg_cgroup *cg,
				   uint64_t *flips);
/* Host tasks (src/host/host.h): each placement of a host task in cg
 * (delta 1) and each end of one (-1) changes cg's count, whose first and
 * last make it and its ancestors populated or not, as emulated tasks do.
 * 0, or -ENODEV when cg is removed (nothing changes). */
int mcg_workload_host_tasks(struct mcg_workload *wl, struct mcg_cgroup *cg, int delta);
/* How many host-task placements cg has now (0 once removed). */
unsigned mcg_workload_cgroup_host_tasks(struct mcg_workload *wl, struct mcg_cgroup *cg);
/* A host process's task group (host-group.c): what
 * the host module charges for one process, which reclaim and the OOM
 * killer treat as a task group of cg (a kill sends SIGKILL to pidfd).
 * With pidfd -1 it mirrors a host cgroup whose kernel reclaims and kills
 * (src/host/shadow.c): reclaim and the OOM killer pass it by. */
struct mcg_host_group;
/* A group for a process in cg: 0 and *out, -ENODEV once cg is removed,
 * -ENOMEM. */
int mcg_workload_host_group_new(struct mcg_workload *wl, struct mcg_cgroup *cg, int pidfd,
				struct mcg_host_group **out);
/* The process moved to cg: later charges go to cg's css, what it holds
 * stays charged where it is.  0, or -ENODEV once cg is removed. */
int mcg_workload_host_group_move(struct mcg_workload *wl, struct mcg_host_group *g,
				 struct mcg_cgroup *cg);
/* Charges up to `pages` pages of kind on CPU cpu, node nid, as the
 * process's faults would: the pages charged (fewer when one could not be
 * even after reclaim and an OOM kill); -ESRCH once the OOM killer chose
 * this process (nothing more is charged); -EINVAL.  With throttle_ns, the
 * charging stops at the first charge over memory.high that earns the
 * process a sleep (mem_cgroup_handle_over_high(): more than 10 ms), which
 * *throttle_ns returns (0: none); the rest is for after the sleep. */
long mcg_workload_host_group_charge(struct mcg_workload *wl, struct mcg_host_group *g,
				    enum mcg_page_kind kind, unsigned cpu, int nid, long pages,
				    uint64_t *throttle_ns);
/* The process freed `pages` pages of kind: frees up to that many of what
 * it holds (reclaim may have taken some), its current css's first.  The
 * pages freed, or -EINVAL. */
long mcg_workload_host_group_free(struct mcg_workload *wl, struct mcg_host_group *g,
				  enum mcg_page_kind kind, long pages);
/* The host swapped out `pages` > 0 of the process's anonymous pages, as
 * reclaim's swap-out does (the anon and LRU counts fall, "swap" and
 * pswpout rise, memory is uncharged, v2's swap counter charged: a host
 * cgroup's mirror whatever swap.max says, as the host did it; a /proc
 * group's up to swap.max, with its "max" and "fail" events), or freed
 * -pages of its swap entries: the pages moved, at most what its ledgers
 * hold (negative for frees). */
long mcg_workload_host_group_swap(struct mcg_workload *wl, struct mcg_host_group *g, long pages);
/* Whether the process's oom_score_adj is OOM_SCORE_ADJ_MIN, which keeps
 * every OOM kill off it (oom_badness(), oom_kill_memcg_member()). */
void mcg_workload_host_group_set_unkillable(struct mcg_host_group *g, bool unkillable);
/* The process exited: its task memory is freed, its page cache stays
 * charged (without it).  g is gone. */
void mcg_workload_host_group_exit(struct mcg_workload *wl, struct mcg_host_group *g);
/* Is cg frozen, as mcg_workload_set_frozen() last set it? */
bool mcg_workload_cgroup_frozen(struct mcg_workload *wl, struct mcg_cgroup *cg);
/* cgroup.freeze (cg's effective state): frozen tasks stay, holding their
 * memory, and make no page events until thawed; writeback still ends.
 * 0, or -ENODEV once cg is removed. */
int mcg_workload_set_frozen(struct mcg_workload *wl, struct mcg_cgroup *cg, bool frozen);
/* cgroup.kill: every task of cg's subtree exits (their profiles become
 * idle).  0. */
int mcg_workload_kill(struct mcg_workload *wl, struct mcg_cgroup *cg);
/* Canonical text of cg's profile; g_free() it. */
char *mcg_workload_get_profile(struct mcg_workload *wl, struct mcg_cgroup *cg);

/* The next three act on a memcg: cg is a memory css (mcg_cgroup_memcg()),
 * and -ENODEV once it is offline.
 *
 * Sets a page-counter field as the kernel's control files do.  For
 * MCG_FIELD_MAX and MCG_FIELD_HIGH of the memory counter this reclaims the
 * subtree down to the new value; a v2 max that reclaim cannot reach is
 * enforced by OOM kills (the write still succeeds), a v1 limit (v1 true)
 * is refused with -EBUSY and the old value kept.  v1 also refuses (-EINVAL)
 * a memory limit above the memsw limit and a memsw limit below the memory
 * limit. */
int mcg_workload_set_limit(struct mcg_workload *wl, struct mcg_cgroup *cg,
			   enum mcg_counter counter, enum mcg_counter_field field,
			   unsigned long pages, bool v1);
/* memory.reclaim: proactively reclaims `pages` from the subtree, in the
 * kernel's batches: 0; -EAGAIN once more than MAX_RECLAIM_RETRIES (16)
 * passes brought no progress (less could be reclaimed); or -EINTR when
 * interrupted(arg) (may be NULL), asked before each pass, says the writer
 * has a signal pending.  Bounded in time: see workload.c. */
int mcg_workload_reclaim(struct mcg_workload *wl, struct mcg_cgroup *cg, unsigned long pages,
			 bool (*interrupted)(void *arg), void *arg);
/* Every CPU's LRU add batch of every cgroup onto the LRU lists, whose
 * sizes in the statistics then count every page the lists hold
 * (lru_add_drain_all(); ledger.c, "The LRU add batch"). */
void mcg_workload_lru_add_drain_all(struct mcg_workload *wl);
/* v1 memory.force_empty: reclaims all it can, then 0 whatever stays
 * charged (mem_cgroup_force_empty()); -ENODEV once cg is removed; -EINTR
 * when interrupted(arg) (may be NULL), asked before each pass as the
 * kernel checks signal_pending(), says the writer has a signal pending. */
int mcg_workload_force_empty(struct mcg_workload *wl, struct mcg_cgroup *cg,
			     bool (*interrupted)(void *arg), void *arg);

/* ---- Figures ------------------------------------------------------------- */

struct mcg_workload_counters {
	uint64_t stat_updates;		/* mcg_stat_mod() calls by workers */
	uint64_t pages_charged;		/* memory pages charged ... */
	uint64_t pages_uncharged;	/* ... and uncharged, by the pool */
	uint64_t steps;			/* (cgroup, CPU) steps done */
};
void mcg_workload_counters(const struct mcg_workload *wl, struct mcg_workload_counters *out);

/* The conservation audit (memcgfs.audit): every page the pool charged is
 * on the root's memory counter until the pool uncharges it, and so are the
 * pages of the memcgs' own objects, whatever was removed, reclaimed,
 * reparented or moved meanwhile; what the per-CPU stocks hold is charged
 * but not yet used.  So
 *
 *     lost = charged - uncharged + objects - (usage - stocked)
 *
 * is 0 unless a charge was lost (> 0) or made twice (< 0).  Pauses the
 * pool and enters every CPU: exact when nothing else charges meanwhile
 * (no request, no reclaim in flight). */
struct mcg_workload_audit {
	unsigned long usage;		/* the root's memory counter, pages */
	unsigned long stocked;		/* held by the charge stocks, pages */
	uint64_t charged, uncharged;	/* by the pool for tasks, pages */
	/* charged for memcg objects and the object stocks' spare bytes,
	 * less the tasks' unfilled slab slots (may be < 0), pages */
	long objects;
	int64_t lost;
};
void mcg_workload_audit(struct mcg_workload *wl, struct mcg_workload_audit *out);

/* The workload's own progress in one cgroup, not its subtree, summed over
 * CPUs (memcgfs.workload_stat): what an outside script measures the
 * workload's throughput with, with and without readers.  Counted from the
 * cgroup's creation; the counts of a removed child do not move to its
 * parent. */
struct mcg_workload_cgroup_stat {
	uint64_t page_events;		/* faults, reads, writes and allocations of its
					 * steps (an event, charged or not, counts 1) */
	uint64_t pages_charged;		/* memory pages charged to it by the pool ... */
	uint64_t pages_uncharged;	/* ... and uncharged */
	uint64_t stat_updates;		/* stat updates made for it (mcg_stat_mod()) */
	uint64_t reclaim_batches;	/* reclaim passes over its pages, any reclaimer */
	uint64_t charge_stall_ns;	/* time its charges spent after a failed try:
					 * reclaim, stock drains, OOM kills */
	uint64_t steps;			/* worker steps of its profile */
};
/* Fills *out for cg: 0, or -ENODEV once cg is removed.  Any thread, no CPU
 * entered; the counts of one CPU may be a step behind. */
int mcg_workload_cgroup_stat(struct mcg_workload *wl, struct mcg_cgroup *cg,
			     struct mcg_workload_cgroup_stat *out);

/* ---- Pressure stall information (psi.c) ----------------------------------
 *
 * Memory stalls of the emulated tasks (reclaim, memory.high throttling,
 * workingset refaults), as kernel/sched/psi.c aggregates them.
 */
struct mcg_psi {
	uint64_t total_ns[2];		/* some, full: stalled time, emulated ns */
	unsigned long avg[2][3];	/* avg10, avg60, avg300: FIXED_1 (2048) = 100% */
};
/* memory.pressure of cg's group: collects what the tasks did since the
 * last collection, averages if a 2 s period is due.  0, or -ENODEV once cg
 * is removed.  Any thread. */
int mcg_workload_psi(struct mcg_workload *wl, struct mcg_cgroup *cg, struct mcg_psi *out);
/* Its two halves, for a caller reading many groups at one instant: one
 * collection of every group, then reads of what it left. */
void mcg_workload_psi_collect(struct mcg_workload *wl);
int mcg_workload_psi_read(struct mcg_workload *wl, struct mcg_cgroup *cg, struct mcg_psi *out);
/* The periodic collection and averaging (psi_avgs_work()): does nothing
 * unless 2 s of the engine's clock passed since the last.  Call often. */
void mcg_workload_psi_update(struct mcg_workload *wl);

/* Touch windows, to compare what the workload updated with what a flush
 * visits.  mcg_workload_touch_window() closes the open window and opens the
 * next, returning the one it closed; every stat update a worker makes
 * records the open window in its (cgroup, CPU) ledger after marking the
 * pair.  mcg_workload_pairs_touched(), called while the pool is paused and
 * with no window closed since `window` but the one after it, counts the
 * (cgroup, CPU) pairs updated in `window`. */
uint64_t mcg_workload_touch_window(struct mcg_workload *wl);
unsigned long mcg_workload_pairs_touched(struct mcg_workload *wl, uint64_t window);

#endif
