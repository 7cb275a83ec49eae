/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private structures of the workload module. */
#ifndef MEMCGFS_WORKLOAD_INTERNAL_H
#define MEMCGFS_WORKLOAD_INTERNAL_H

#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "kernel/kernel.h"
#include "workload/workload.h"

/* A parsed profile; immutable once published. */
struct mcg_profile {
	unsigned long anon, file_read, file_write, shmem, slab, kernel, reclaim; /* pages/s */
	unsigned thp, mlock, mapped, turnover, swapin;				  /* percent */
	uint64_t footprint;							  /* bytes */
	unsigned long fault_work;	/* loop iterations per anonymous fault (ledger.c) */
	bool swap;
	bool tasks;		/* tasks even when every rate is 0 (sleeping) */
	bool all_nodes;
	uint64_t nodes;		/* bit per node when !all_nodes */
	unsigned cpus;		/* the tasks run on CPUs 0..cpus-1 (0: all) */
};

/* The LRU lists, as the statistics name them (ledger.c lru_items[]). */
enum wl_lru {
	WL_LRU_INACTIVE_ANON,
	WL_LRU_ACTIVE_ANON,
	WL_LRU_INACTIVE_FILE,
	WL_LRU_ACTIVE_FILE,
	WL_LRU_UNEVICTABLE,
	WL_NR_LRU
};

/* What one CPU's tasks of one cgroup hold on one node, in pages.  The
 * subsets say which of the pages counted above carry a property. */
struct wl_node {
	long anon_inactive, anon_active;	/* evictable anonymous pages */
	long thp;				/*   of which in THPs */
	long mlocked;				/* anonymous, unevictable */
	long shmem;				/* on the anon LRU, counted as file */
	long file_inactive, file_active;	/* page cache */
	long dirty, writeback;			/*   of which (inactive list) */
	long mapped;				/*   of which mapped */
	long slab_reclaimable, slab_unreclaimable, kernel_stack, pagetables;
	/* Of the slab pages' worths above, the object slots not allocated
	 * yet (ledger.c, "Slab, charged by the object"). */
	long slab_reclaimable_unfilled, slab_unreclaimable_unfilled;
	long swapped;				/* anonymous pages out in swap */
	long sock;				/* socket buffers (accounted) */
	long shadow_anon, shadow_file;		/* evicted, may refault */
	/* Of the LRU pages above, those still in the CPU's LRU add batch
	 * (ledger.c, "The LRU add batch"), by list (enum wl_lru), whose
	 * list sizes the statistics do not count yet; and their folios. */
	long lru_add_pages[WL_NR_LRU];
	long lru_add_folios;
	/* 7.3: mlocked pages freed, waiting in the CPU's mlock batch for
	 * NR_UNEVICTABLE to drop (ledger.c lru_free()). */
	long munlock_pending;
};

/* Rates left over from earlier steps, so slow rates still happen. */
enum wl_rate {
	WL_ANON, WL_FILE_READ, WL_FILE_WRITE, WL_SHMEM, WL_SLAB, WL_KERNEL, WL_RECLAIM,
	WL_NR_RATES
};

/* Fractions carried over: the rates, the shares of pages or faults that
 * have a property (THP, mlocked, mapped, reclaimable slab, kernel stack,
 * swap-in, file refault, workingset restore), the aging of the LRU lists. */
enum wl_carry {
	WL_CARRY_THP = WL_NR_RATES,
	WL_CARRY_SWAPIN,
	WL_CARRY_REFAULT_FILE,
	WL_CARRY_RESTORE_FILE,
	WL_CARRY_RESTORE_ANON,
	WL_CARRY_MLOCK,
	WL_CARRY_MAPPED,
	WL_CARRY_SLAB_RECLAIMABLE,
	WL_CARRY_KERNEL_STACK,
	WL_CARRY_ACTIVATE_FILE,
	WL_CARRY_ACTIVATE_ANON,
	WL_NR_CARRIES
};

/* Reclaim starts on the next node each time. */
enum wl_rotor {
	WL_ROT_RECLAIM,
	WL_NR_ROTORS
};

struct wl_ledger {
	double carry[WL_NR_CARRIES];
	unsigned next_node[WL_NR_ROTORS];
	/* Allocations pick their node at random (xorshift64*): a rotation
	 * would alias with the periodic shares above and pile, say, every
	 * mlocked page on one node.  Seeded at first use from the pool's
	 * seed, the cgroup's id and the CPU (0: not yet). */
	uint64_t rng;
	/* Pages read since the last read request went to the disk. */
	long reads_unsubmitted;
	/* Pages dirtied since dirty throttling last looked (the task's
	 * nr_dirtied, balance_dirty_pages_ratelimited_flags()). */
	long nr_dirtied;
	/* The page's worth of slab objects being filled: its node and kind
	 * (while that node's count of that kind's unfilled slots is not 0). */
	int slab_open_nid;
	bool slab_open_reclaimable;
	/* The last two touch windows (mcg_workload_touch_window()) in which
	 * this ledger's pair was updated: written by its CPU, read while the
	 * pool is paused. */
	uint64_t touch_window, touch_prev_window;
	/* Dirty plus writeback pages of all nodes: changed only as this
	 * ledger's CPU, read by anyone (the worker's idle check, reclaim
	 * waiting for writeback) without entering the CPU. */
	_Atomic long in_flight;
	/* The workload's progress on this pair (mcg_workload_cgroup_stat()):
	 * written only by the thread inside this CPU's window, a load and a
	 * store (per_cpu_count()), read by anyone summing over CPUs.  Not
	 * carried over by wl_ledger_merge(). */
	_Atomic uint64_t page_events;		/* wl_step() events done */
	_Atomic uint64_t pages_charged, pages_uncharged;
	_Atomic uint64_t stat_updates;		/* wl_stat() calls that updated */
	_Atomic uint64_t reclaim_batches;	/* reclaim_batch() passes */
	_Atomic uint64_t charge_stall_ns;	/* wl_charge() after a failed try */
	/* PSI (psi.c): emulated time the tasks ran (not idle, not frozen)
	 * and were stalled on memory; and the memory.high sleep still to
	 * serve, which the next steps spend asleep (written by the CPU's
	 * window only). */
	_Atomic uint64_t run_ns, memstall_ns;
	uint64_t throttle_ns;
	_Atomic uint64_t steps;			/* wl_step() calls */
	struct wl_node node[];			/* [nr_nodes] */
};

/* A memory css as the workload holds it (css.c, "Memory csses"):
 * the css (a pin held) and what mem_cgroup_alloc() charged for it. */
struct wl_css {
	struct mcg_cgroup *css;
	/* The css its objects (the pool's memcg_objs) were charged to at
	 * its creation, held; NULL below the root.  Given back when this
	 * css is freed (wl_css_free()), as __mem_cgroup_free() does. */
	struct mcg_cgroup *objs_parent;
	/* The wl_cgroups whose pages are charged to it (their css).
	 * Changed under list_lock held for writing. */
	unsigned refs;
};

/* The workload's view of a cgroup: its tasks (a task group), or pages
 * that tasks charged to a css they no longer charge (a holder). */
struct wl_cgroup {
	/* The cgroup of the tasks (of the task group that made a holder),
	 * holding a reference: cpu.stat, io.stat, PSI, populated. */
	struct mcg_cgroup *cg;
	/* The css every page of the ledgers is charged to (a reference
	 * counted in it): a task group's effective css (its cgroup's, or
	 * the nearest ancestor's with one); a holder's for good, or until a
	 * 7.3 offline reparents it.  list_lock: written with it held for
	 * writing, read with it held. */
	struct wl_css *css;
	_Atomic(struct mcg_profile *) profile;	/* swapped by set_profile; read only
						 * inside a CPU window */
	_Atomic bool idle;			/* mirrors the profile, for skipping */
	_Atomic bool frozen;			/* cgroup.freeze: the tasks stay, stopped */
	/* Its place in creation order, the order of the pool's lists
	 * (immutable), and whether it is on the active list (list_lock). */
	uint64_t order;
	bool active;
	char *ledgers;				/* nr_cpus ledgers, ledger_size each */
	size_t ledger_size;
	/* A holder: no tasks, an idle profile, pages only reclaimed, and
	 * freed by the exit of `owner`'s tasks, which made them (NULL once
	 * that cgroup is gone).  Made by an rmdir that leaves a dying memcg
	 * its pages, or by a subtree_control write that moves the tasks to
	 * another css.  Both list_lock. */
	bool holder;
	struct wl_cgroup *owner;
	/* A task group's holders (owner == this), oldest first; NULL until
	 * it has had one.  list_lock. */
	GPtrArray *holders;
	/* cgroup.events populated, kept as cgroup_update_populated() keeps
	 * nr_populated_*: the cgroups of this subtree, itself included,
	 * that have tasks; and how many times that became or stopped being 0
	 * (what cgroup_file_notify() would have told).  Written under
	 * hier_mutex, read by anyone. */
	_Atomic unsigned nr_populated;
	_Atomic uint64_t populated_flips;
	/* Host tasks placed here (mcg_workload_host_tasks()): hier_mutex. */
	unsigned nr_host_tasks;
	/* A host process's task group (mcg_workload_host_group_new()), with
	 * its pidfd, which the OOM killer signals when it picks the group:
	 * both written with list_lock held for writing, read with it held.
	 * Whether the OOM killer did: atomic. */
	bool host;
	int host_pidfd;
	_Atomic bool host_oom_killed;
	/* Its oom_score_adj is OOM_SCORE_ADJ_MIN: no OOM kill takes it
	 * (oom_badness(), oom_kill_memcg_member()).  Set by the host module
	 * from /proc; atomic. */
	_Atomic bool host_oom_unkillable;
	/* task_lock(mm->owner) of the task group's process, which seed 004's
	 * after takes on every charge (wl_charge()): a spinlock on a line of
	 * its own that every CPU's tasks of the group share. */
	_Alignas(64) _Atomic int mm_owner_lock;
	/* Its PSI group (psi.c): protected by the pool's psi_lock. */
	struct wl_psi *psi;
	/* vmpressure's tree counters (struct vmpressure tree_scanned,
	 * tree_reclaimed) and its work pending: the pool's vmpr_lock. */
	unsigned long vmpr_scanned, vmpr_reclaimed;
	bool vmpr_due;
};

struct wl_worker {
	struct mcg_workload *wl;
	unsigned cpu;
	pthread_t thread;
	uint64_t last_ns;
	_Atomic uint64_t stat_updates, steps;	/* written by the worker */
	/* Odd from when a step leaves the CPU's window to reclaim from other
	 * CPUs (reclaim_cpus()) until it ends: the CPU's lock then does not
	 * tell that no step runs, and wl_sync_steps() waits on this.
	 * Written by the worker; a step that stays in its window leaves it
	 * alone. */
	_Atomic unsigned step_seq;
	/* Pages charged and uncharged as this CPU: written by whoever is in
	 * the CPU's window (a load and a store), read by anyone. */
	_Atomic uint64_t pages_charged, pages_uncharged;
};

struct mcg_workload {
	struct mcg_engine *e;			/* immutable */
	unsigned nr_cpus, nr_nodes;		/* immutable */
	enum mcg_hierarchy hierarchy;		/* immutable */
	struct mcg_profile *default_profile;	/* immutable */
	struct mcg_profile *frozen_profile;	/* immutable: what frozen tasks do (nothing) */
	/* What mem_cgroup_alloc() charges for each memcg (immutable). */
	struct mcg_memcg_objects memcg_objs;
	unsigned tick_ms;			/* immutable once started */

	/* Serialises mkdir and rmdir through the pool. */
	pthread_mutex_t hier_mutex;
	/* Every cgroup's wl_cgroup, root first, in creation order; and
	 * those a worker's round may have to step (workload.c, "The active
	 * list"), in the same order. */
	pthread_rwlock_t list_lock;
	GPtrArray *cgroups;			/* list_lock */
	GPtrArray *active;			/* list_lock */
	/* Every wl_css, live or held by holders (list_lock). */
	GPtrArray *csses;
	/* A holder's ledger became empty on some CPU: a sweep may release
	 * its css (wl_sweep_holders(), at a worker round's end). */
	_Atomic bool sweep_due;
	_Atomic uint64_t last_sweep_ns;		/* a worker's last sweep */
	uint64_t next_order;			/* list_lock, for writing */
	/* A round skipped a stopped cgroup with nothing in flight on its CPU:
	 * the active list may have one to drop. */
	_Atomic bool prune_due;

	struct wl_worker *workers;		/* [nr_cpus] */
	bool started;

	/* Pause/stop handshake. */
	pthread_mutex_t park_lock;
	pthread_cond_t park_cond;
	unsigned pause_depth;			/* park_lock */
	unsigned parked;			/* park_lock */
	bool stop;				/* park_lock */
	_Atomic bool pausing;			/* fast check for workers */

	/* The open touch window; bumped by mcg_workload_touch_window(). */
	_Atomic uint64_t touch_window;

	/* Repeatable runs (workload.h): the ledgers' random seed (set before
	 * any step), and with a manual clock, the emulated time of the next
	 * tick's steps, moved under clock_lock. */
	uint64_t seed;
	bool manual_clock;			/* immutable */
	pthread_mutex_t clock_lock;
	/* PSI (psi.c): serialises collections and averaging. */
	pthread_mutex_t psi_lock;
	/* vmpressure: every wl_cgroup's vmpr_* (the kernel's per-memcg
	 * sr_lock; reclaim, not the stat path, takes it). */
	pthread_mutex_t vmpr_lock;
	uint64_t psi_next_update;		/* psi_lock: the pool's 2 s grid */
	uint64_t next_tick_ns;			/* clock_lock */

	/* Profiles swapped out and not yet freed (profile_retire()): the
	 * reaper thread frees them after a grace period. */
	pthread_mutex_t reap_lock;
	pthread_cond_t reap_cond;
	GPtrArray *retired;			/* reap_lock */
	bool reap_stop;				/* reap_lock */
	bool reaper_started;			/* immutable once started */
	pthread_t reaper;
};

/* The memcg w's pages are charged to.  Caller holds list_lock. */
static inline struct mcg_cgroup *wl_memcg(const struct wl_cgroup *w)
{
	return w->css->css;
}

static inline struct wl_ledger *wl_ledger(const struct wl_cgroup *w, unsigned cpu)
{
	return (struct wl_ledger *)(w->ledgers + (size_t)cpu * w->ledger_size);
}

/* A counter only the thread in a CPU's window writes: no locked add. */
static inline void per_cpu_count(_Atomic uint64_t *counter, uint64_t n)
{
	atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

/* The per-step context of a CPU acting on the pool. */
struct wl_ctx {
	struct mcg_workload *wl;
	struct mcg_engine *e;
	struct mcg_cpu *cpu;
	unsigned cpu_id;
	uint64_t stat_updates;
	struct wl_cgroup *oom_killed;	/* the last OOM victim of this context */
};

/* ledger.c: page life cycle, as CPU ctx->cpu (entered). */
/* One stat update of w's memcg, which marks the (cgroup, CPU) pair. */
void wl_stat(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_item item, long val);
/* The same for a page of w's whose statistics go to memcg cg (an objcg's
 * owner: mcg_memcg_objcg_owner()). */
void wl_stat_to(struct wl_ctx *x, struct wl_cgroup *w, struct mcg_cgroup *cg, int nid,
		enum mcg_item item, long val);
/* lru_add_drain() of w's ledger on this CPU: the batched folios go onto
 * their lists, and the lists' statistics move. */
void wl_lru_add_drain(struct wl_ctx *x, struct wl_cgroup *w);
/* Does one step of w's profile for dt seconds; true if the profile asks
 * for more than one step may do (the CPU is behind: no sleeping). */
bool wl_step(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p, double dt);
/* What a reclaim scanned (sc->nr_scanned: the inactive pages it met) and
 * how much of what it reclaimed was slab, for vmpressure. */
struct wl_reclaim_count {
	long scanned, slab;
	long lruvecs;		/* lruvecs walked: (memcg, node) pairs */
	bool may_swap;		/* it may have swapped (anon lists in reach) */
};
/* Reclaims up to `want` pages from one ledger; scan_item/steal_item name the
 * kind (kswapd, direct, proactive).  Returns pages reclaimed; adds to *rc. */
long wl_reclaim_ledger(struct wl_ctx *x, struct wl_cgroup *w, long want, bool swap,
		       enum mcg_item scan_item, enum mcg_item steal_item,
		       struct wl_reclaim_count *rc);
/* workload.c: a reclaim of `want` pages with target as its target memcg
 * got `reclaimed` (rc: what it scanned, and its slab), reported to
 * vmpressure as shrink_node() and do_try_to_free_pages() report it; kswapd
 * (direct false) has no priority loop of do_try_to_free_pages(). */
void wl_vmpressure(struct wl_ctx *x, struct mcg_cgroup *target, long want, long reclaimed,
		   const struct wl_reclaim_count *rc, bool direct);
/* psi.c: the tasks of w on ctx's CPU stall on memory for ns (emulated). */
void wl_memstall(struct wl_ctx *x, struct wl_cgroup *w, uint64_t ns);
/* PSI's cost model (psi.c). */
#define WL_PSI_SCAN_NS_PER_PAGE 1000		/* direct reclaim, per page scanned */
#define WL_PSI_LRUVEC_PASS_NS 2000		/* a priority's walk of one lruvec */
#define WL_PSI_REFAULT_NS 100000		/* a workingset refault's read */
/* psi.c: the group's state, made and freed with its wl_cgroup. */
struct wl_psi *wl_psi_new(unsigned nr_cpus, uint64_t now);
void wl_psi_free(struct wl_psi *psi);

/* The tasks exit (an OOM kill, cgroup.kill, an idle profile): frees the
 * ledger's anonymous (mlocked too) and shmem memory, swap, stacks, page
 * tables, unreclaimable slab and socket buffers; page cache and
 * reclaimable slab stay.  Returns pages freed. */
long wl_tasks_exit_ledger(struct wl_ctx *x, struct wl_cgroup *w);
/* Resident pages of a ledger. */
long wl_ledger_resident(const struct mcg_workload *wl, const struct wl_ledger *l);
/* Resident plus swapped out: the tasks' memory, which a footprint bounds
 * (a page reclaim swapped out is still theirs until they free it); not
 * their socket buffers, which the workers never make or trim (as
 * oom_badness() counts no socket memory). */
long wl_ledger_held(const struct mcg_workload *wl, const struct wl_ledger *l);
/* Does the ledger hold pages that keep a killed css dying: swap entries,
 * socket buffers, and before 7.3 folios on the LRU and 5.10's kernel
 * pages (kernel memory charged through an obj_cgroup is reparented at
 * offline)?  As its CPU. */
bool wl_ledger_pins_css(const struct mcg_workload *wl, const struct wl_ledger *l);
/* Moves src's swap entries and socket buffers, which no reparenting
 * takes, into dst (no stat changes: same css). */
void wl_ledger_move_pinning(const struct mcg_workload *wl, struct wl_ledger *dst,
			    struct wl_ledger *src);
/* After h freed `freed` pages on x's CPU: if h is a holder now empty
 * there, or with nothing there that pins its killed css, asks for a
 * sweep (wl->sweep_due).  Caller holds list_lock. */
void wl_holder_freed(struct wl_ctx *x, struct wl_cgroup *h, long freed);
/* Does the ledger still hold charged memory (resident or swapped)?  As
 * its CPU. */
bool wl_ledger_holds_pages(const struct mcg_workload *wl, const struct wl_ledger *l);
/* Has it shadow entries of evicted pages (workingset), the shadow-node
 * shrinker's to count?  As its CPU. */
bool wl_ledger_shadows(const struct mcg_workload *wl, const struct wl_ledger *l);
/* Pages under dirty or writeback state, still to be written out? */
bool wl_ledger_in_flight(const struct mcg_workload *wl, const struct wl_ledger *l);
/* Moves a dead cgroup's ledger into its parent's (no stat changes). */
void wl_ledger_merge(const struct mcg_workload *wl, struct wl_ledger *dst,
		     const struct wl_ledger *src);
/* Moves the pages of src (resident, swapped, in flight; not the shadows,
 * which stay with the tasks that may refault them) into dst, leaving src
 * none (no stat changes: both are charged to the same css). */
void wl_ledger_move(const struct mcg_workload *wl, struct wl_ledger *dst, struct wl_ledger *src);

/* One page of a kind on node nid, every choice made: charged through
 * wl_charge() with the counters its kind covers, then the ledger and the
 * stat updates of the kernel path that makes such a page.  The workload's
 * page events and memcgfs.charge share it.  false if the charge failed
 * (nothing changed). */
bool wl_page_add(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_page_kind kind);
/* Pages of a kind the ledger holds on nid that wl_page_free() can free. */
long wl_page_held(const struct wl_ledger *l, int nid, enum mcg_page_kind kind);
/* Frees up to n pages of a kind on nid; returns the pages freed. */
long wl_page_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_page_kind kind, long n);
/* Swaps out up to n anonymous pages of nid (the active list deactivated
 * first as far as needed), or frees up to n swap entries: the pages. */
long wl_page_swap_out(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n);
long wl_page_swap_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n);

/* What a charge covers besides the memory counter (v1 only). */
enum wl_charge_flags {
	WL_MEMSW = 1,		/* memory+swap counter: memory that is not swap */
	WL_KMEM = 2,		/* kernel memory counter */
	/* A THP fault's charge: the default defrag=madvise gives it
	 * GFP_TRANSHUGE_LIGHT (vma_thp_gfp_mask()), which may not reclaim,
	 * so try_charge_memcg() fails at once, before the "max" event; nor
	 * would mem_cgroup_oom() kill for an order above
	 * PAGE_ALLOC_COSTLY_ORDER.  The fault falls back to a small page. */
	WL_NO_RECLAIM = 4,
	/* Memory of the kernel, not of the tasks: left out of the pool's
	 * and the cgroup's pages_charged/uncharged. */
	WL_NOT_TASKS = 16,
	/* Pages for objects charged in bytes (the tasks' slab): counted as
	 * the page-worths of objects the ledger holds (slab_page_add()),
	 * not as the pages the object stock charges. */
	WL_OBJECTS = 32,
};
/* workload.c: charges `pages` to w's memory counter (and, on v1, the
 * counters in flags), reclaiming or OOM-killing on a limit as the kernel's
 * try_charge() does, as ctx's CPU.  false if the charge could not be made. */
bool wl_charge(struct wl_ctx *x, struct wl_cgroup *w, long pages, unsigned flags);
void wl_uncharge(struct wl_ctx *x, struct wl_cgroup *w, long pages, unsigned flags);
/* ledger.c: the bytes of the slab objects l's pages' worths have room for
 * but do not hold (charged nowhere). */
size_t wl_ledger_slab_unfilled_bytes(const struct mcg_workload *wl, const struct wl_ledger *l);
/* The pool's and w's counts of the tasks' pages charged and given back
 * (the audit's charged and uncharged), which wl_charge() and the
 * uncharges keep, for pages charged otherwise (WL_OBJECTS). */
void wl_count_charged(struct wl_ctx *x, struct wl_cgroup *w, long pages);
void wl_count_uncharged(struct wl_ctx *x, struct wl_cgroup *w, long pages);
/* Kernel pages of w's freed, charged now to memcg cg: through the CPU's
 * charge stock (mcg_memcg_uncharge_kmem()), and v1's kmem counter. */
void wl_uncharge_kmem(struct wl_ctx *x, struct wl_cgroup *w, struct mcg_cgroup *cg, long pages);
/* Pages enter swap: v2 charges the swap counter (false at swap.max, with a
 * swap "max" and "fail" event); v1 needs nothing, they stay in memsw. */
bool wl_charge_swap(struct wl_ctx *x, struct wl_cgroup *w, long pages);
/* Pages leave swap, back into memory or `freed` altogether. */
void wl_uncharge_swap(struct wl_ctx *x, struct wl_cgroup *w, long pages, bool freed);
/* Socket memory (enum mcg_page_kind MCG_PAGES_SOCK): a charge the socket
 * layer makes for w's tasks' sockets, or none where their sockets are not
 * the memcg's. */
enum wl_sock_charge { WL_SOCK_UNACCOUNTED, WL_SOCK_CHARGED, WL_SOCK_REFUSED };
enum wl_sock_charge wl_charge_sock(struct wl_ctx *x, struct wl_cgroup *w, long pages);
void wl_uncharge_sock(struct wl_ctx *x, struct wl_cgroup *w, long pages);

/* ---- shared by workload.c, css.c and host-group.c ----------------------- */

static inline uint64_t wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What a change under list_lock lets go, for after the lock: wl_css
 * references that were the last (wl_css_free()), cgroup references.
 * wl_release_init() before, wl_release_done() once list_lock is dropped. */
struct wl_release {
	GPtrArray *csses, *cgroups;
};
void wl_release_init(struct wl_release *rel);
void wl_release_done(struct mcg_workload *wl, struct wl_release *rel);

/* css.c: memory csses, task groups and their holders, the memcg objects
 * of a css (contracts, locks included, at each definition). */
struct wl_css *wl_css_new(struct mcg_cgroup *css, struct mcg_cgroup *objs_parent);
struct wl_css *wl_css_ref(struct mcg_workload *wl, struct wl_css *c);
struct wl_css *wl_css_unref(struct mcg_workload *wl, struct wl_css *c);
void wl_css_free(struct mcg_workload *wl, struct wl_css *c);
struct wl_cgroup *wl_cgroup_new(struct mcg_workload *wl, struct mcg_cgroup *cg,
				struct mcg_profile *profile);
void wl_cgroup_free(struct wl_cgroup *w);
struct mcg_profile *wl_profile_copy(const struct mcg_profile *p);
void wl_memcg_objects_uncharge(struct mcg_workload *wl, struct mcg_cgroup *objs_parent);
void wl_populated_update(struct mcg_cgroup *cg, int delta);
typedef bool wl_ledger_test(const struct mcg_workload *wl, const struct wl_ledger *l);
bool wl_any_ledger_locked(const struct mcg_workload *wl, const struct wl_cgroup *w,
			  wl_ledger_test *test);
void wl_split(struct mcg_workload *wl, struct wl_cgroup *w, struct wl_css *to,
	      struct wl_release *rel);
void wl_sweep_holders(struct mcg_workload *wl);
void wl_sweep_if_due(struct mcg_workload *wl);
void wl_release_emptied_holders(struct mcg_workload *wl);

/* workload.c: the active list the workers step, profiles, the tasks'
 * exit and direct charges (contracts at each definition). */
void wl_active_add(struct mcg_workload *wl, struct wl_cgroup *w);
void wl_active_remove(struct mcg_workload *wl, struct wl_cgroup *w);
bool wl_in_flight_anywhere(const struct mcg_workload *wl, const struct wl_cgroup *w);
void wl_active_add_if_in_flight(struct mcg_workload *wl, struct mcg_cgroup *cg);
void wl_profile_retire(struct mcg_workload *wl, struct mcg_profile *old);
void wl_profile_swap(struct mcg_workload *wl, struct wl_cgroup *w, struct mcg_profile *p);
void wl_tasks_exit_all_cpus(struct mcg_workload *wl, struct wl_cgroup *w);
bool wl_charge_args_valid(const struct mcg_workload *wl, enum mcg_page_kind kind,
			  unsigned cpu, int nid);
long wl_charge_pages(struct mcg_workload *wl, struct wl_cgroup *w, enum mcg_page_kind kind,
		     unsigned cpu, int nid, long pages, bool *killed, uint64_t *throttle_ns);

#endif
