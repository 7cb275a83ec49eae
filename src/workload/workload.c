/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The worker pool: one thread per emulated CPU, the charge path with its
 * limit handling, and the control operations of a cgroup's files. */
#define _GNU_SOURCE	/* pthread_setname_np() */
#include "workload/internal.h"

#include <errno.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* How much the workers defer to the threads serving requests. */
#define WORKER_NICE 10

/* A busy worker wakes every tick (MCG_WORKLOAD_DEFAULT_TICK_MS unless
 * set) to do its share of every busy cgroup; the tick is only the pacing
 * clock, the events themselves go one page at a time (ledger.c). */
/* MAX_RECLAIM_RETRIES in the kernel. */
#define MAX_RECLAIM_RETRIES 16
/* Reclaim at least SWAP_CLUSTER_MAX pages per attempt. */
#define SWAP_CLUSTER_MAX 32

static bool is_v1(const struct mcg_workload *wl)
{
	return wl->hierarchy == MCG_HIERARCHY_V1;
}

/* ---- charging ---- */

/* How a reclaim counts (pgscan/pgsteal of direct, kswapd or proactive
 * reclaim) and whether it may swap: not at a v1 memsw limit, where a page
 * moved to swap stays in the counter that refused. */
struct reclaim_kind {
	enum mcg_item scan, steal;
	bool may_swap;
	bool proactive;		/* memory.reclaim (sc->proactive) */
};

static const struct reclaim_kind direct_reclaim = { MCG_PGSCAN_DIRECT, MCG_PGSTEAL_DIRECT, true,
						    false };
static const struct reclaim_kind direct_reclaim_noswap = { MCG_PGSCAN_DIRECT, MCG_PGSTEAL_DIRECT,
							   false, false };

/*
 * vmpressure (mm/vmpressure.c), for v1's memory.pressure_level.
 *
 * shrink_node() tells the reclaim's target memcg how efficient the pass
 * over its subtree was (vmpressure(gfp, target, true, scanned,
 * reclaimed)): the counts add up in the target's tree counters, and once a
 * window of vmpressure_win (512) pages is scanned, a work item is
 * scheduled (once: a pending one takes what comes meanwhile).  The work
 * (mcg_workload_vmpressure_work(), run by the file system's notifier)
 * takes the counts, turns them into a level, and signals the listeners of
 * the target and its ancestors.  scanned is what reclaim met on the
 * inactive lists, dirty pages included, which it starts writing back
 * instead of freeing: a limit full of dirty page cache is "medium" or
 * "critical".  reclaimed holds the slab the shrinkers freed, for global
 * reclaim only from 6.5 (flush_reclaim_state()).  Proactive reclaim
 * (memory.reclaim) tells nothing (6.1 on).
 *
 * do_try_to_free_pages() also reports each scan priority from 3 down as a
 * critical window of its own (vmpressure_prio()).  It scans lru_size >>
 * priority of each list at each priority from DEF_PRIORITY (12) down,
 * until it has reclaimed its target.  The emulated reclaim scans what it
 * needs at once, so the priority it would have stopped at is worked out
 * (reclaim_stop_priority()) from the target's LRU pages and this
 * reclaim's yield: a memcg with little on its lists reaches the critical
 * priorities even when it gets what it wants, and a reclaim that falls
 * short went down all of them.  kswapd (the profiles' reclaim rate) works
 * for the whole machine: its windows are the root's, with no priority
 * loop.
 *
 * Only a v1 hierarchy has listeners (7.3 skips the v2 tree counts
 * altogether); with v2 nothing is counted.
 */
#define VMPRESSURE_WIN 512			/* SWAP_CLUSTER_MAX * 16 */
#define VMPRESSURE_LEVEL_CRITICAL_PRIO 3	/* ilog2(100 / 10) */

/* vmpressure(gfp, target, true, scanned, reclaimed) */
static void vmpressure_tree(struct mcg_workload *wl, struct mcg_cgroup *target,
			    unsigned long scanned, unsigned long reclaimed)
{
	struct wl_cgroup *w = mcg_cgroup_workload(target);

	if (!scanned || !w)
		return;
	pthread_mutex_lock(&wl->vmpr_lock);
	w->vmpr_scanned += scanned;
	w->vmpr_reclaimed += reclaimed;
	if (w->vmpr_scanned >= VMPRESSURE_WIN)
		w->vmpr_due = true;	/* schedule_work() */
	pthread_mutex_unlock(&wl->vmpr_lock);
}

#define DEF_PRIORITY 12	/* include/linux/mmzone.h */

/* The priority do_try_to_free_pages() would have stopped at: the first,
 * from DEF_PRIORITY down, by which lru >> priority pages scanned at each,
 * yielding reclaimed/scanned, add up to want; -1 if none does. */
static int reclaim_stop_priority(long lru, long want, long scanned, long reclaimed)
{
	double yield = scanned > 0 ? (double)reclaimed / (double)scanned : 0, got = 0;

	for (int prio = DEF_PRIORITY; prio >= 0; prio--) {
		got += yield * (double)(lru >> prio);
		if (got >= (double)want)
			return prio;
	}
	return -1;
}

/* The priority a direct reclaim of target that got `reclaimed` of `want`
 * stopped at, -1 if it fell short.  The pages on the lists it scans: the
 * kernel reads the exact LRU sizes (lruvec_lru_size()); here the user
 * pages are the memory counter less the kernel memory (v1's kmem counter,
 * exact; v2's statistics, maybe late), and anon is out of reach without
 * swap (get_scan_count()), which the statistics tell, maybe late. */
static int reclaim_stop(struct mcg_workload *wl, struct mcg_cgroup *target, long want,
			long reclaimed, const struct wl_reclaim_count *rc)
{
	long lru = (long)mcg_counter_read(target, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);

	if (reclaimed < want)
		return -1;
	if (wl->hierarchy == MCG_HIERARCHY_V1)
		lru -= (long)mcg_counter_read(target, MCG_COUNTER_KMEM, MCG_FIELD_USAGE);
	else
		lru -= mcg_stat_read_raw(wl->e, target, MCG_MEMCG_KMEM, MCG_HIERARCHICAL);
	if (!rc->may_swap)
		lru -= mcg_stat_read_raw(wl->e, target, MCG_ANON_MAPPED, MCG_HIERARCHICAL);
	return reclaim_stop_priority(MAX(lru, 0), want, rc->scanned, reclaimed);
}

void wl_vmpressure(struct wl_ctx *x, struct mcg_cgroup *target, long want, long reclaimed,
		   const struct wl_reclaim_count *rc, bool direct)
{
	struct mcg_workload *wl = x->wl;
	int stop;

	if (wl->hierarchy != MCG_HIERARCHY_V1)
		return;
	if (mcg_engine_config(wl->e)->kernel.reclaim_slab_global_only && !mcg_cgroup_is_root(target))
		reclaimed -= rc->slab;
	reclaimed = MAX(reclaimed, 0);
	vmpressure_tree(wl, target, (unsigned long)rc->scanned, (unsigned long)reclaimed);
	if (!direct)
		return;
	stop = reclaim_stop(wl, target, want, reclaimed, rc);
	/* vmpressure_prio() at each priority from 3 down to where it stopped */
	for (int prio = VMPRESSURE_LEVEL_CRITICAL_PRIO; prio >= MAX(stop, 0); prio--)
		vmpressure_tree(wl, target, VMPRESSURE_WIN, 0);
}

/* vmpressure_calc_level() */
static enum mcg_vmpressure_level vmpressure_calc_level(unsigned long scanned,
						       unsigned long reclaimed)
{
	unsigned long scale = scanned + reclaimed, pressure = 0;

	if (reclaimed < scanned) {
		pressure = scale - (reclaimed * scale / scanned);
		pressure = pressure * 100 / scale;
	}
	if (pressure >= 95)		/* vmpressure_level_critical */
		return MCG_VMPRESSURE_CRITICAL;
	if (pressure >= 60)		/* vmpressure_level_med */
		return MCG_VMPRESSURE_MEDIUM;
	return MCG_VMPRESSURE_LOW;
}

struct vmpressure_window {
	struct mcg_cgroup *cg;		/* referenced */
	enum mcg_vmpressure_level level;
};

void mcg_workload_vmpressure_work(struct mcg_workload *wl,
				  void (*fn)(struct mcg_cgroup *cg, enum mcg_vmpressure_level level,
					     void *arg),
				  void *arg)
{
	GArray *due = g_array_new(FALSE, FALSE, sizeof(struct vmpressure_window));

	pthread_rwlock_rdlock(&wl->list_lock);
	pthread_mutex_lock(&wl->vmpr_lock);
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];
		struct vmpressure_window win;

		if (!w->vmpr_due)
			continue;
		/* vmpressure_work_fn(): the counts so far, then zero. */
		win.cg = mcg_cgroup_get(w->cg);
		win.level = vmpressure_calc_level(w->vmpr_scanned, w->vmpr_reclaimed);
		g_array_append_val(due, win);
		w->vmpr_scanned = w->vmpr_reclaimed = 0;
		w->vmpr_due = false;
	}
	pthread_mutex_unlock(&wl->vmpr_lock);
	pthread_rwlock_unlock(&wl->list_lock);
	for (unsigned i = 0; i < due->len; i++) {
		struct vmpressure_window *win = &g_array_index(due, struct vmpressure_window, i);

		fn(win->cg, win->level, arg);
		mcg_cgroup_put(win->cg);
	}
	g_array_free(due, TRUE);
}

/* A host cgroup's task group (shadow.c): the host kernel reclaims its
 * pages and kills its tasks; the emulation only mirrors them. */
static bool wl_host_mirror(const struct wl_cgroup *w)
{
	return w->host && w->host_pidfd < 0;
}

/* Reclaims up to `want` pages from every ledger of this CPU in top's subtree
 * (top first).  Caller holds list_lock and has entered x's CPU. */
static long reclaim_subtree(struct wl_ctx *x, struct mcg_cgroup *top, long want,
			    const struct reclaim_kind *kind, struct wl_reclaim_count *rc)
{
	GPtrArray *list = x->wl->cgroups;
	long total = 0;

	/* shrink_node() reads the stats of the memcgs it scans, after the
	 * era's flush (prepare_scan_control()/prepare_scan_count()). */
	mcg_memcg_flush_for_reclaim(x->wl->e, top);
	for (int pass = 0; pass < 2 && total < want; pass++) {
		for (unsigned i = 0; i < list->len && total < want; i++) {
			struct wl_cgroup *w = list->pdata[i];
			const struct mcg_profile *p;
			long got;

			/* Pass 0 is top's own lruvecs, pass 1 the rest of its
			 * subtree's: the pages charged to each css, whoever's
			 * tasks made them. */
			if (pass == 0 ? wl_memcg(w) != top
				      : wl_memcg(w) == top || !mcg_cgroup_is_descendant(wl_memcg(w), top))
				continue;
			/* a host cgroup's pages are the host kernel's to reclaim */
			if (wl_host_mirror(w))
				continue;
			p = atomic_load_explicit(&w->profile, memory_order_acquire);
			got = wl_reclaim_ledger(x, w, want - total, p->swap && kind->may_swap,
						kind->scan, kind->steal, rc);
			/* shrink_slab() after the lruvec: the shadow-node
			 * shrinker counts this memcg's shadow entries. */
			if (wl_ledger_shadows(x->wl, wl_ledger(w, x->cpu_id)))
				mcg_memcg_flush_for_shadow_count(x->wl->e, wl_memcg(w));
			wl_holder_freed(x, w, got);
			total += got;
			rc->lruvecs += x->wl->nr_nodes;
			rc->may_swap = rc->may_swap || (p->swap && kind->may_swap);
		}
	}
	return total;
}

/* The worker the calling thread is or, in mcg_workload_clock_advance(),
 * acts as; NULL for any other thread. */
static _Thread_local struct wl_worker *tl_worker;

/*
 * Reclaim sees every page of the subtree.  A memcg's LRU lists are per
 * node, not per CPU: try_to_free_mem_cgroup_pages() takes what any task
 * of the subtree faulted, on whichever CPU.  Here each CPU's tasks keep
 * their own ledgers, so a CPU whose share is used up, while another's
 * fills the limit, would find nothing and go to the OOM killer on clean
 * page cache.  reclaim_cpus() reclaims from x's CPU first and, if that
 * falls short, leaves it to reclaim from each other CPU in turn, entered
 * alone (one window per thread; workers hold at most one, so none waits
 * on another in a cycle), then enters x's CPU again.  x->cpu NULL: from
 * outside any window, every CPU in turn.  The walk is one reclaim's: rc
 * counts the lruvecs of one CPU's visit (the kernel's lists are one set).
 * Caller holds list_lock (and x's CPU, if any).
 */
static long reclaim_cpus(struct wl_ctx *x, struct mcg_cgroup *top, long want,
			 const struct reclaim_kind *kind, struct wl_reclaim_count *rc)
{
	struct mcg_workload *wl = x->wl;
	long total = 0, lruvecs = -1;
	unsigned first = x->cpu ? 1 : 0;

	if (x->cpu) {
		total = reclaim_subtree(x, top, want, kind, rc);
		if (total >= want || wl->nr_cpus == 1)
			return total;
		lruvecs = rc->lruvecs;
		/* A worker's step leaves its window: say so first (see
		 * wl_sync_steps()). */
		if (tl_worker && !(atomic_load_explicit(&tl_worker->step_seq, memory_order_relaxed) & 1))
			atomic_fetch_add(&tl_worker->step_seq, 1);
		mcg_cpu_exit(x->cpu);
	}
	for (unsigned i = first; i < wl->nr_cpus && total < want; i++) {
		unsigned c = (x->cpu_id + i) % wl->nr_cpus;
		struct wl_ctx y = { wl, wl->e, mcg_engine_cpu(wl->e, c), c, 0, NULL };

		mcg_cpu_enter(y.cpu);
		total += reclaim_subtree(&y, top, want - total, kind, rc);
		mcg_cpu_exit(y.cpu);
		x->stat_updates += y.stat_updates;
		if (lruvecs < 0)
			lruvecs = rc->lruvecs;
	}
	rc->lruvecs = lruvecs;
	if (x->cpu)
		mcg_cpu_enter(x->cpu);
	return total;
}

/*
 * The time a direct reclaim (try_to_free_mem_cgroup_pages(), inside
 * psi_memstall_enter()/leave() in try_charge_memcg() and reclaim_high())
 * kept its task stalled: shrink_folio_list()'s work on every page it
 * scanned, and the walks themselves.  do_try_to_free_pages() stops at the
 * first priority that got what it wanted (reclaim_stop()); one that falls
 * short went through all DEF_PRIORITY + 1 of them, each a shrink_node() over every
 * lruvec of the subtree (shrink_node_memcgs(), shrink_slab()), so a
 * reclaim that finds nothing to take, anonymous memory without swap, the
 * OOM path's MAX_RECLAIM_RETRIES, still stalls: oomd's case.
 */
static uint64_t reclaim_stall_ns(struct mcg_workload *wl, struct mcg_cgroup *target, long want,
				 long reclaimed, const struct wl_reclaim_count *rc)
{
	int stop = reclaim_stop(wl, target, want, reclaimed, rc);
	uint64_t passes = stop < 0 ? DEF_PRIORITY + 1 : (uint64_t)(DEF_PRIORITY - stop + 1);

	return (uint64_t)rc->scanned * WL_PSI_SCAN_NS_PER_PAGE +
	       passes * (uint64_t)rc->lruvecs * WL_PSI_LRUVEC_PASS_NS;
}

/* The ledger of this CPU in top's subtree holding the most pages: the OOM
 * killer's victim.  Caller holds list_lock. */
static struct wl_cgroup *oom_victim(struct wl_ctx *x, struct mcg_cgroup *top)
{
	GPtrArray *list = x->wl->cgroups;
	struct wl_cgroup *victim = NULL;
	long most = 0;

	for (unsigned i = 0; i < list->len; i++) {
		struct wl_cgroup *w = list->pdata[i];
		const struct wl_node *n;
		long killable = 0;

		/* A holder has no tasks to kill; a task group is in the
		 * subtree by its css (mem_cgroup_scan_tasks()); a host
		 * cgroup's tasks are the host kernel's to kill. */
		if (w->holder || wl_host_mirror(w) || !mcg_cgroup_is_descendant(wl_memcg(w), top) ||
		    atomic_load(&w->host_oom_unkillable))
			continue;
		for (unsigned nid = 0; nid < x->wl->nr_nodes; nid++) {
			n = &wl_ledger(w, x->cpu_id)->node[nid];
			killable += n->anon_inactive + n->anon_active + n->mlocked + n->shmem;
		}
		if (killable > most) {
			most = killable;
			victim = w;
		}
	}
	return victim;
}

/* The tasks of w exit on x's CPU: their memory in w's ledger, and in the
 * holders of what they charged to csses they no longer charge (a task's
 * pages are freed at its exit whatever memcg they are charged to).
 * Returns pages freed.  Caller holds list_lock. */
static long tasks_exit_with_holders(struct wl_ctx *x, struct wl_cgroup *w)
{
	long freed = wl_tasks_exit_ledger(x, w);

	for (unsigned i = 0; w->holders && i < w->holders->len; i++) {
		struct wl_cgroup *h = w->holders->pdata[i];

		freed += wl_tasks_exit_ledger(x, h);
		/* swap entries too, which the count leaves out */
		wl_holder_freed(x, h, 1);
	}
	return freed;
}

/* __oom_kill_process() of w's tasks on x's CPU: "oom_kill" on their memcg
 * (memcg_memory_event_mm()), and a host process dies for real (SIGKILL),
 * its memory going here at once, as the OOM reaper takes it.  Returns
 * pages freed.  Caller holds list_lock. */
static long oom_kill_tasks(struct wl_ctx *x, struct wl_cgroup *w)
{
	mcg_memory_event(wl_memcg(w), MCG_MEMORY_OOM_KILL);
	if (w->host) {
		(void)syscall(SYS_pidfd_send_signal, w->host_pidfd, SIGKILL, NULL, 0);
		atomic_store(&w->host_oom_killed, true);
	}
	return tasks_exit_with_holders(x, w);
}

/* Whether w has tasks an OOM kill could take on x's CPU. */
static bool has_killable_tasks(const struct wl_ctx *x, const struct wl_cgroup *w)
{
	if (w->host)
		return !atomic_load(&w->host_oom_killed);
	return !atomic_load(&w->idle) || wl_ledger_held(x->wl, wl_ledger(w, x->cpu_id)) > 0;
}

/* mem_cgroup_out_of_memory() -> oom_kill_process() (7.3 mm/oom_kill.c):
 * kills the biggest task group of the subtree on this CPU; and if
 * memory.oom.group makes a memcg between the victim's and the domain go
 * as one (mem_cgroup_get_oom_group()), "oom_group_kill" there and every
 * task group below it killed too (mem_cgroup_scan_tasks() with
 * oom_kill_memcg_member()), the victim's again, as the kernel's scan meets
 * the victim before it has exited, and none whose oom_score_adj is
 * OOM_SCORE_ADJ_MIN.  Sets x->oom_killed to `charger` if its tasks went,
 * else to the victim.  Returns pages freed. */
static long oom_kill(struct wl_ctx *x, struct mcg_cgroup *top, struct wl_cgroup *charger)
{
	struct wl_cgroup *victim = oom_victim(x, top);
	struct mcg_cgroup *group;
	long freed;

	mcg_memory_event(top, MCG_MEMORY_OOM);
	if (!victim)
		return 0;
	/* before the victim goes (oom_kill_process()) */
	group = mcg_memcg_get_oom_group(x->wl->e, wl_memcg(victim), top);
	x->oom_killed = victim;
	freed = oom_kill_tasks(x, victim);
	if (!group)
		return freed;
	mcg_memory_event(group, MCG_MEMORY_OOM_GROUP_KILL);
	for (unsigned i = 0; i < x->wl->cgroups->len; i++) {
		struct wl_cgroup *w = x->wl->cgroups->pdata[i];

		if (w->holder || wl_host_mirror(w) || !mcg_cgroup_is_descendant(wl_memcg(w), group) ||
		    atomic_load(&w->host_oom_unkillable) || (w != victim && !has_killable_tasks(x, w)))
			continue;
		if (w == victim)
			mcg_memory_event(wl_memcg(w), MCG_MEMORY_OOM_KILL);
		else
			freed += oom_kill_tasks(x, w);
		if (w == charger)
			x->oom_killed = charger;
	}
	mcg_cgroup_put(group);
	return freed;
}

/* memory.high (__mem_cgroup_handle_over_high()): each level over its high
 * mark reclaims the charge's pages (reclaim_high(), SWAP_CLUSTER_MAX on a
 * retry), the task stalling in it; if a level stays over by enough for a
 * penalty (calculate_high_delay() at HZ=250, Debian's, at most
 * MEMCG_MAX_HIGH_DELAY_JIFFIES, none at HZ/100 or less), it retries while
 * reclaim makes progress and MAX_RECLAIM_RETRIES times more, then sleeps
 * the penalty, which the next steps serve: the tasks make no page events
 * meanwhile, while writeback and kswapd go on (wl_step()). */
#define WL_HZ 250
static uint64_t high_penalty_jiffies(struct wl_ctx *x, struct wl_cgroup *w, long nr_pages)
{
	uint64_t max_overage = 0, penalty;

	/* mem_find_max_overage(): calculate_overage() up to below the root */
	for (struct mcg_cgroup *a = wl_memcg(w); a && !mcg_cgroup_is_root(a); a = mcg_cgroup_parent(a)) {
		unsigned long usage = mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
		unsigned long high = mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_HIGH);

		if (usage > high)
			max_overage = MAX(max_overage, ((uint64_t)(usage - high) << 20) / MAX(high, 1ul));
	}
	if (!max_overage)
		return 0;
	penalty = (max_overage * max_overage * WL_HZ) >> 20 >> 14;
	penalty = penalty * (uint64_t)nr_pages / mcg_engine_config(x->e)->kernel.charge_batch;
	return MIN(penalty, 2 * WL_HZ);
}

static void charge_over_high(struct wl_ctx *x, struct wl_cgroup *w, long nr_pages)
{
	int retries = MAX_RECLAIM_RETRIES;
	bool in_retry = false;
	uint64_t penalty;

	for (;;) {
		long reclaimed = 0;
		uint64_t stall = 0;

		for (struct mcg_cgroup *a = wl_memcg(w); a; a = mcg_cgroup_parent(a)) {
			struct wl_reclaim_count rc = { 0 };
			/* try_to_free_mem_cgroup_pages(): nr_to_reclaim is
			 * at least SWAP_CLUSTER_MAX */
			long want = in_retry ? SWAP_CLUSTER_MAX : MAX(nr_pages, SWAP_CLUSTER_MAX), got;

			if (mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) <=
			    mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_HIGH))
				continue;
			mcg_memory_event(a, MCG_MEMORY_HIGH);
			got = reclaim_cpus(x, a, want, &direct_reclaim, &rc);
			wl_vmpressure(x, a, want, got, &rc, true);
			stall += reclaim_stall_ns(x->wl, a, want, got, &rc);
			reclaimed += got;
		}
		wl_memstall(x, w, stall);
		penalty = high_penalty_jiffies(x, w, nr_pages);
		if (penalty <= WL_HZ / 100)
			return;
		if (!reclaimed && retries-- <= 0)
			break;
		in_retry = true;
	}
	/* One sleep per handling, at most MEMCG_MAX_HIGH_DELAY_JIFFIES; the
	 * tasks sleep it before they charge again (wl_step() stops their
	 * events), so penalties never add up. */
	{
		struct wl_ledger *l = wl_ledger(w, x->cpu_id);

		l->throttle_ns = MAX(l->throttle_ns, penalty * (1000000000ull / WL_HZ));
	}
}

/*
 * try_charge(), reduced to what shows in the files.
 *
 * A charge that would take any level over its max fails without effect and
 * raises that level's "max" event (and failcnt); the charging CPU then
 * reclaims from that level's subtree and retries.  When reclaim makes no
 * progress the level is out of memory: an "oom" event, and the OOM killer
 * frees the biggest group of anonymous memory in the subtree ("oom_kill" on
 * its cgroup).  A charge never succeeds over a limit, so usage never exceeds
 * max.  After a charge that went to the page counters (not one the stock
 * covered), every level over its high mark is reclaimed back down, with a
 * "high" event (try_charge_memcg()'s done_restock path).
 *
 * The time from the first failed try to the return is the charge's stall
 * (the ledger's charge_stall_ns): reclaim, the stock drain and the OOM
 * retries.  The clock is read only once a try has failed.
 */
static bool charge_done(struct wl_ctx *x, struct wl_cgroup *w, uint64_t stall_start, bool ok)
{
	if (stall_start)
		per_cpu_count(&wl_ledger(w, x->cpu_id)->charge_stall_ns, wl_now_ns() - stall_start);
	return ok;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * task_lock(mm->owner) around the charge's memcg lookup: seed 004's after
 * (MCG_CSS_REF_OWNER_TASK_LOCK).  The RFC stopped taking a css reference
 * per page but still read the memcg of mm->owner under the owning task's
 * alloc_lock, so each fault of each thread takes one spinlock of the
 * process.  The kernel holds it with preemption off; a worker thread
 * holding it can be preempted, and spinning on it then would wait out a
 * time slice that no kernel lock holder takes, so a waiter yields after a
 * few thousand tries (contended only; uncontended it is the kernel's
 * cmpxchg and release store).
 */
static struct mcg_cgroup *mm_owner_memcg(struct wl_cgroup *w)
{
	struct mcg_cgroup *memcg;
	unsigned tries = 0;
	int unlocked = 0;

	while (!atomic_compare_exchange_weak_explicit(&w->mm_owner_lock, &unlocked, 1,
						      memory_order_acquire, memory_order_relaxed)) {
		unlocked = 0;
		while (atomic_load_explicit(&w->mm_owner_lock, memory_order_relaxed)) {
			if (++tries % 4096 == 0)
				sched_yield();
			else
				cpu_relax();
		}
	}
	memcg = wl_memcg(w);
	atomic_store_explicit(&w->mm_owner_lock, 0, memory_order_release);
	return memcg;
}

/* What a charge that went through does besides the memory counter: v1's
 * memsw given back for pages that are not memory+swap, the kmem counter,
 * and the pool's counts. */
static void charge_account(struct wl_ctx *x, struct wl_cgroup *w, long pages, unsigned flags,
			   bool memsw)
{
	struct mcg_workload *wl = x->wl;

	if (memsw && !(flags & WL_MEMSW))
		mcg_counter_uncharge(wl_memcg(w), MCG_COUNTER_MEMSW, (unsigned long)pages);
	if (is_v1(wl) && (flags & WL_KMEM))
		mcg_counter_charge(wl_memcg(w), MCG_COUNTER_KMEM, (unsigned long)pages);
	if (!(flags & (WL_NOT_TASKS | WL_OBJECTS)))
		wl_count_charged(x, w, pages);
}

bool wl_charge(struct wl_ctx *x, struct wl_cgroup *w, long pages, unsigned flags)
{
	struct mcg_workload *wl = x->wl;
	/* v1 charges memory+swap with every charge (do_memsw_account()); a
	 * swap-in, whose page is in memsw already, then gives the swap
	 * entry's share back (mem_cgroup_swapin_uncharge_swap()). */
	bool memsw = is_v1(wl);
	struct mcg_cgroup *over = NULL;
	bool killed = false, drained = false;
	uint64_t stall_start = 0;

	/* The memcg read under the lock is wl_memcg(w), which the charge
	 * below uses: the lock is the cost the model adds, not a new answer. */
	if (mcg_engine_config(x->e)->kernel.css_ref == MCG_CSS_REF_OWNER_TASK_LOCK &&
	    !(flags & WL_NOT_TASKS))
		(void)mm_owner_memcg(w);
	/* try_charge_memcg(): the stock, then the counters, then reclaim,
	 * then the other CPUs' stocks, then the OOM killer. */
	for (int retry = 0; retry < MAX_RECLAIM_RETRIES; retry++) {
		enum mcg_counter limited = MCG_COUNTER_MEMORY;
		long want = pages > SWAP_CLUSTER_MAX ? pages : SWAP_CLUSTER_MAX;

		unsigned long batch = 0;
		enum mcg_charge_result got = mcg_memcg_try_charge(x->cpu, wl_memcg(w),
								  (unsigned long)pages, memsw,
								  &over, &limited, &batch);

		if (got != MCG_CHARGE_FAILED) {
			charge_account(x, w, pages, flags, memsw);
			/* Only a charge that went to the counters looks at
			 * memory.high, for the batch it charged
			 * (memcg_nr_pages_over_high += batch); one from the
			 * stock returns at once. */
			if (got == MCG_CHARGE_FROM_COUNTERS && !(flags & WL_NOT_TASKS))
				charge_over_high(x, w, (long)batch);
			return charge_done(x, w, stall_start, true);
		}
		if (flags & WL_NO_RECLAIM || wl_host_mirror(w))
			break;
		if (!stall_start)
			stall_start = wl_now_ns();
		mcg_memory_event(over, MCG_MEMORY_MAX);
		/* At the memsw limit swapping does not help: only real frees.
		 * The charging task stalls in the reclaim (PSI). */
		struct wl_reclaim_count rc = { 0 };
		long reclaimed = reclaim_cpus(x, over, want,
						 limited == MCG_COUNTER_MEMSW ? &direct_reclaim_noswap
									      : &direct_reclaim,
						 &rc);

		wl_vmpressure(x, over, want, reclaimed, &rc, true);
		if (!(flags & WL_NOT_TASKS))
			wl_memstall(x, w, reclaim_stall_ns(wl, over, want, reclaimed, &rc));
		if (reclaimed > 0)
			continue;
		if (!drained) {
			mcg_memcg_drain_all_stock(wl->e, x->cpu, over);
			drained = true;
			continue;
		}
		if (killed || oom_kill(x, over, w) == 0)
			break;
		killed = true;
	}
	/* A host cgroup's pages were charged by the host kernel under its
	 * own limits: the mirror takes them whatever the emulated ones say,
	 * as try_charge_memcg()'s force: path charges, without a "max" event
	 * of its own (src/host/shadow.c mirrors the host's). */
	if (wl_host_mirror(w)) {
		mcg_memcg_charge_force(wl_memcg(w), (unsigned long)pages, memsw);
		charge_account(x, w, pages, flags, memsw);
		return true;
	}
	return charge_done(x, w, stall_start, false);
}

void wl_count_charged(struct wl_ctx *x, struct wl_cgroup *w, long pages)
{
	per_cpu_count(&x->wl->workers[x->cpu_id].pages_charged, (uint64_t)pages);
	per_cpu_count(&wl_ledger(w, x->cpu_id)->pages_charged, (uint64_t)pages);
}

void wl_count_uncharged(struct wl_ctx *x, struct wl_cgroup *w, long pages)
{
	per_cpu_count(&x->wl->workers[x->cpu_id].pages_uncharged, (uint64_t)pages);
	per_cpu_count(&wl_ledger(w, x->cpu_id)->pages_uncharged, (uint64_t)pages);
}

void wl_uncharge(struct wl_ctx *x, struct wl_cgroup *w, long pages, unsigned flags)
{
	struct mcg_workload *wl = x->wl;

	if (pages <= 0)
		return;
	mcg_memcg_uncharge(wl_memcg(w), (unsigned long)pages, is_v1(wl) && (flags & WL_MEMSW));
	if (flags & WL_NOT_TASKS)
		return;
	wl_count_uncharged(x, w, pages);
}

void wl_uncharge_kmem(struct wl_ctx *x, struct wl_cgroup *w, struct mcg_cgroup *cg, long pages)
{
	struct mcg_workload *wl = x->wl;

	if (pages <= 0)
		return;
	/* v1 charges memsw with every charge, kernel memory included;
	 * memcg1_account_kmem() then uncharges the kmem counter. */
	mcg_memcg_uncharge_kmem(x->cpu, cg, (unsigned long)pages, is_v1(wl));
	if (is_v1(wl))
		mcg_counter_uncharge(cg, MCG_COUNTER_KMEM, (unsigned long)pages);
	wl_count_uncharged(x, w, pages);
}

bool wl_charge_swap(struct wl_ctx *x, struct wl_cgroup *w, long pages)
{
	struct mcg_cgroup *over = NULL;

	if (is_v1(x->wl))
		return true;
	/* the host swapped a host cgroup's pages out under its own limits */
	if (wl_host_mirror(w)) {
		mcg_counter_charge(wl_memcg(w), MCG_COUNTER_SWAP, (unsigned long)pages);
		return true;
	}
	if (mcg_counter_try_charge(wl_memcg(w), MCG_COUNTER_SWAP, (unsigned long)pages, &over))
		return true;
	/* __mem_cgroup_try_charge_swap(): both events on the folio's own
	 * memcg, whichever level refused (memcg_memory_event() carries
	 * them up the hierarchical files). */
	mcg_memory_event(wl_memcg(w), MCG_MEMORY_SWAP_MAX);
	mcg_memory_event(wl_memcg(w), MCG_MEMORY_SWAP_FAIL);
	return false;
}

void wl_uncharge_swap(struct wl_ctx *x, struct wl_cgroup *w, long pages, bool freed)
{
	if (pages <= 0)
		return;
	if (!is_v1(x->wl))
		mcg_counter_uncharge(wl_memcg(w), MCG_COUNTER_SWAP, (unsigned long)pages);
	else if (freed)
		mcg_counter_uncharge(wl_memcg(w), MCG_COUNTER_MEMSW, (unsigned long)pages);
}

/*
 * Socket memory.  A socket belongs to the memcg of the task that made it
 * (mem_cgroup_sk_alloc(), 7.3 mm/memcontrol.c): none in the root, none on
 * v1 until the memcg's kmem.tcp limit was written (tcpmem_active).  Its
 * buffers are charged by mem_cgroup_sk_charge(): v2 through
 * try_charge_memcg() (reclaim, "max", OOM as any charge) plus MEMCG_SOCK,
 * v1 to the tcpmem page counter alone (memcg1_charge_skmem(),
 * mm/memcontrol-v1.c).  A charge here is one a task makes in process
 * context (GFP_KERNEL) that may fail: at the limit the socket layer
 * suppresses the allocation (__sk_mem_raise_allocated(), net/core/sock.c)
 * and nothing stays charged.  Not modelled: the charges the socket layer
 * forces (a stream send at its sndbuf, __GFP_NOFAIL; a receive in softirq,
 * GFP_ATOMIC), and 5.10's charge, which went through whatever the limit
 * (a second "max" event on v2, the tcp watermark past the limit on v1)
 * before the suppress path gave it back, on v2 into the CPU's stock.  A
 * host cgroup's mirror was charged by the host under its own limits and is
 * forced, as any of its pages.  Freed: v2 mem_cgroup_sk_uncharge() through
 * refill_stock(), v1 memcg1_uncharge_skmem() from tcpmem.
 */
enum wl_sock_charge wl_charge_sock(struct wl_ctx *x, struct wl_cgroup *w, long pages)
{
	struct mcg_cgroup *memcg = wl_memcg(w);

	if (mcg_cgroup_is_root(memcg) || (is_v1(x->wl) && !mcg_memcg_tcpmem_active(memcg)))
		return WL_SOCK_UNACCOUNTED;
	if (!is_v1(x->wl))
		return wl_charge(x, w, pages, 0) ? WL_SOCK_CHARGED : WL_SOCK_REFUSED;
	if (wl_host_mirror(w)) {
		mcg_counter_charge(memcg, MCG_COUNTER_TCPMEM, (unsigned long)pages);
		return WL_SOCK_CHARGED;
	}
	return mcg_counter_try_charge(memcg, MCG_COUNTER_TCPMEM, (unsigned long)pages, NULL)
		       ? WL_SOCK_CHARGED
		       : WL_SOCK_REFUSED;
}

void wl_uncharge_sock(struct wl_ctx *x, struct wl_cgroup *w, long pages)
{
	struct mcg_workload *wl = x->wl;

	if (pages <= 0)
		return;
	if (is_v1(wl)) {
		mcg_counter_uncharge(wl_memcg(w), MCG_COUNTER_TCPMEM, (unsigned long)pages);
		return;
	}
	mcg_memcg_refill_stock(x->cpu, wl_memcg(w), (unsigned long)pages, false);
	wl_count_uncharged(x, w, pages);
}

/* ---- workers ---- */

/* Parks the calling worker while a pause is in effect.  Returns false when
 * the pool stops. */
static bool worker_wait(struct mcg_workload *wl, uint64_t deadline_ns)
{
	struct timespec ts = { (time_t)(deadline_ns / 1000000000u),
			       (long)(deadline_ns % 1000000000u) };
	bool go_on;

	pthread_mutex_lock(&wl->park_lock);
	if (wl->pause_depth && !wl->stop) {
		/* Count in once and tell the pauser; wait without waking the
		 * other parked workers in turn. */
		wl->parked++;
		pthread_cond_broadcast(&wl->park_cond);
		while (wl->pause_depth && !wl->stop)
			pthread_cond_wait(&wl->park_cond, &wl->park_lock);
		wl->parked--;
	}
	if (deadline_ns && !wl->stop && !wl->pause_depth)
		pthread_cond_timedwait(&wl->park_cond, &wl->park_lock, &ts);
	go_on = !wl->stop;
	pthread_mutex_unlock(&wl->park_lock);
	return go_on;
}

/* Returns once no step that began before the call runs: every CPU's
 * window passed (mcg_engine_sync_cpus()), and every step that left its
 * window to reclaim (reclaim_cpus()) ended.  A step marks its leaving
 * before it unlocks the CPU, so a sync that locks the CPU after it sees
 * the mark, and one that locked it before the step began made its
 * change visible to the step.  What the caller changed before (a
 * profile, a flag) is then what every later step sees.  Not from a
 * worker. */
static void wl_sync_steps(struct mcg_workload *wl)
{
	mcg_engine_sync_cpus(wl->e);
	for (unsigned c = 0; c < wl->nr_cpus; c++) {
		struct wl_worker *wk = &wl->workers[c];
		unsigned seq = atomic_load(&wk->step_seq);

		while ((seq & 1) && atomic_load(&wk->step_seq) == seq)
			g_usleep(20);
	}
}

/*
 * Retired profiles.  Every reader of a cgroup's profile holds a CPU
 * window while it uses it (a worker's step, a reclaim walking the
 * subtree, mcg_workload_get_profile()), as the kernel reads an
 * RCU-protected pointer under rcu_read_lock(); the profile a swap
 * replaced may be freed only after a grace period, once every window
 * open at the swap has closed (wl_sync_steps()).  Emulating 80 CPUs on a
 * machine with 2 cores, the workers are preempted inside their windows
 * and a grace period lasts until the slowest of 80 workers gets its next
 * turn: a second or more (contrib/bench-hier.sh).  So a writer of
 * memcgfs.workload does not wait for one.  As call_rcu() hands the free to RCU's kthreads, wl_profile_retire()
 * queues the old profile and the reaper thread frees every queued one
 * after one grace period of its own.  A swap whose later steps must all
 * see the new profile (tasks that exit, a freeze) still waits itself.
 * Without a reaper (a manual clock, whose steps run on the request thread
 * that advances it, or a pool not started) the writer waits for the grace
 * period itself: no worker thread is preempted inside a window, and it is
 * short.
 */
void wl_profile_retire(struct mcg_workload *wl, struct mcg_profile *old)
{
	if (!wl->reaper_started) {
		wl_sync_steps(wl);
		mcg_profile_free(old);
		return;
	}
	pthread_mutex_lock(&wl->reap_lock);
	g_ptr_array_add(wl->retired, old);
	pthread_cond_signal(&wl->reap_cond);
	pthread_mutex_unlock(&wl->reap_lock);
}

static void *reaper_main(void *arg)
{
	struct mcg_workload *wl = arg;

	(void)pthread_setname_np(pthread_self(), "wl-reaper");
	pthread_mutex_lock(&wl->reap_lock);
	while (!wl->reap_stop) {
		GPtrArray *batch;

		if (wl->retired->len == 0) {
			pthread_cond_wait(&wl->reap_cond, &wl->reap_lock);
			continue;
		}
		batch = wl->retired;
		wl->retired = g_ptr_array_new_with_free_func((GDestroyNotify)mcg_profile_free);
		pthread_mutex_unlock(&wl->reap_lock);
		/* Every profile of the batch was swapped out before this. */
		wl_sync_steps(wl);
		g_ptr_array_free(batch, TRUE);
		pthread_mutex_lock(&wl->reap_lock);
	}
	pthread_mutex_unlock(&wl->reap_lock);
	return NULL;
}

/* Stops the reaper and frees what it had not: no worker steps any more. */
static void reaper_stop(struct mcg_workload *wl)
{
	if (!wl->reaper_started)
		return;
	pthread_mutex_lock(&wl->reap_lock);
	wl->reap_stop = true;
	pthread_cond_signal(&wl->reap_cond);
	pthread_mutex_unlock(&wl->reap_lock);
	pthread_join(wl->reaper, NULL);
	wl->reaper_started = false;
	wl->reap_stop = false;
	g_ptr_array_set_size(wl->retired, 0);
}

/*
 * The active list.  A worker's round visits only the cgroups that may
 * need a step: those whose tasks run (a busy profile, not frozen) and
 * those with dirty or writeback pages on some CPU (a stopped cgroup still
 * finishes its writeback).  A pool of 10,000 idle memcgs then costs the
 * workers nothing, as it costs a kernel's CPUs nothing.  Visiting them all
 * at every tick of 64 emulated CPUs kept this machine's two cores busy,
 * and kept list_lock read-held so long that every mkdir waited behind
 * whole rounds: seed 003's set-up took time quadratic in the memcgs.
 *
 * The invariant: a cgroup off the list is stopped (idle or frozen) and
 * has nothing in flight on any CPU, or is about to be put on it by the
 * one who broke that.  Whoever lets a cgroup's tasks run puts it on first
 * (set_profile, thaw, mkdir with a busy default); the two things that give
 * a stopped cgroup pages in flight, the merge of a removed child's ledgers
 * into its parent and a direct charge of dirty pages, put it on after.
 * Leaving is lazy: a round that skips a stopped cgroup with nothing in
 * flight on its CPU raises prune_due, and the next round's end drops the
 * cgroups found clean on every CPU, rechecked under hier_mutex (no profile
 * write between its put and its swap) and the write lock (no step runs,
 * nothing in flight can appear).
 *
 * The list keeps creation order (w->order), the order of wl->cgroups, so
 * a round steps its cgroups in the order a walk of the whole pool would:
 * the list changes what a round costs, never what it does (a manual-clock
 * run's figures are the same).
 */

/* Puts w on the active list.  Caller holds list_lock for writing. */
void wl_active_add(struct mcg_workload *wl, struct wl_cgroup *w)
{
	unsigned lo = 0, hi = wl->active->len;

	if (w->active)
		return;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (((struct wl_cgroup *)wl->active->pdata[mid])->order < w->order)
			lo = mid + 1;
		else
			hi = mid;
	}
	g_ptr_array_insert(wl->active, (gint)lo, w);
	w->active = true;
}

/* Takes w off the active list.  Caller holds list_lock for writing. */
void wl_active_remove(struct mcg_workload *wl, struct wl_cgroup *w)
{
	if (w->active)
		g_ptr_array_remove(wl->active, w);
	w->active = false;
}

static bool wl_stopped(const struct wl_cgroup *w)
{
	return atomic_load_explicit(&w->idle, memory_order_relaxed) ||
	       atomic_load_explicit(&w->frozen, memory_order_relaxed);
}

/* Any dirty or writeback page of w's on any CPU.  Exact under list_lock
 * held for writing; a hint otherwise. */
bool wl_in_flight_anywhere(const struct mcg_workload *wl, const struct wl_cgroup *w)
{
	for (unsigned c = 0; c < wl->nr_cpus; c++)
		if (wl_ledger_in_flight(wl, wl_ledger(w, c)))
			return true;
	return false;
}

/* After anything that may have given cg's cgroup pages in flight.  A look
 * under the read lock first: a cgroup already on the list (or with nothing
 * in flight) costs no write lock, and a prune after the look drops it only
 * if it finds it clean under the write lock. */
void wl_active_add_if_in_flight(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	struct wl_cgroup *w;
	bool add;

	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	add = w && !w->active && wl_in_flight_anywhere(wl, w);
	pthread_rwlock_unlock(&wl->list_lock);
	if (!add)
		return;
	pthread_rwlock_wrlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	if (w && wl_in_flight_anywhere(wl, w))
		wl_active_add(wl, w);
	pthread_rwlock_unlock(&wl->list_lock);
}

/* Drops the stopped cgroups with nothing in flight, if a round saw one.
 * A look under the read lock first: a cgroup whose writeback still runs
 * on another CPU costs no write lock. */
static void active_prune(struct mcg_workload *wl)
{
	bool any = false;

	if (!atomic_exchange_explicit(&wl->prune_due, false, memory_order_relaxed))
		return;
	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->active->len && !any; i++) {
		struct wl_cgroup *w = wl->active->pdata[i];

		any = wl_stopped(w) && !wl_in_flight_anywhere(wl, w);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (!any)
		return;
	/* hier_mutex: set_profile puts a cgroup on the list before it swaps
	 * the busy profile in, and must not find it dropped in between.
	 * Never waited for here: a profile write may be waiting for this
	 * worker's step (wl_sync_steps()); the next round tries again. */
	if (pthread_mutex_trylock(&wl->hier_mutex)) {
		atomic_store_explicit(&wl->prune_due, true, memory_order_relaxed);
		return;
	}
	pthread_rwlock_wrlock(&wl->list_lock);
	for (unsigned i = wl->active->len; i-- > 0;) {
		struct wl_cgroup *w = wl->active->pdata[i];

		if (wl_stopped(w) && !wl_in_flight_anywhere(wl, w)) {
			g_ptr_array_remove_index(wl->active, i);
			w->active = false;
		}
	}
	pthread_rwlock_unlock(&wl->list_lock);
	pthread_mutex_unlock(&wl->hier_mutex);
}


/* One round of a worker: a step of dt seconds of every cgroup whose profile
 * is busy (or whose writeback is not done), each inside the CPU's window.
 * With account_cputime, the time a step took goes to the cgroup's cpu.stat
 * (half user, half system).  Sets *busy if any step ran; returns whether
 * the CPU is behind (no sleeping). */
static bool worker_round(struct wl_worker *wk, struct wl_ctx *x, double dt, bool account_cputime,
			 bool *busy)
{
	struct mcg_workload *wl = wk->wl;
	bool behind = false;

	*busy = false;
	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->active->len; i++) {
		struct wl_cgroup *w = wl->active->pdata[i];
		const struct mcg_profile *p;
		uint64_t t0;
		bool stopped = wl_stopped(w);

		/* An idle or frozen cgroup still finishes its writeback. */
		if (stopped && !wl_ledger_in_flight(wl, wl_ledger(w, wk->cpu))) {
			atomic_store_explicit(&wl->prune_due, true, memory_order_relaxed);
			continue;
		}
		*busy = true;
		t0 = account_cputime ? wl_now_ns() : 0;
		mcg_cpu_enter(x->cpu);
		/* Loaded inside the CPU window: set_profile syncs on it.
		 * Frozen tasks make no page events. */
		p = atomic_load_explicit(&w->frozen, memory_order_relaxed)
			    ? wl->frozen_profile
			    : atomic_load_explicit(&w->profile, memory_order_acquire);
		behind |= wl_step(x, w, p, dt);
		/* The tasks ran (or stalled) the whole step: PSI's non-idle. */
		if (!stopped)
			per_cpu_count(&wl_ledger(w, wk->cpu)->run_ns, (uint64_t)(dt * 1e9));
		if (account_cputime) {
			uint64_t spent = wl_now_ns() - t0;

			mcg_cputime_account(x->cpu, w->cg, MCG_CPUTIME_USER, spent / 2);
			mcg_cputime_account(x->cpu, w->cg, MCG_CPUTIME_SYSTEM, spent - spent / 2);
		}
		mcg_cpu_exit(x->cpu);
		/* A step that left its window (reclaim_cpus()) is over. */
		if (atomic_load_explicit(&wk->step_seq, memory_order_relaxed) & 1)
			atomic_fetch_add(&wk->step_seq, 1);
		atomic_store_explicit(&wk->steps,
				      atomic_load_explicit(&wk->steps, memory_order_relaxed) + 1,
				      memory_order_relaxed);
		/* After each step, not each round: an overloaded round may
		 * take longer than a reader's window. */
		atomic_store_explicit(&wk->stat_updates, x->stat_updates, memory_order_relaxed);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	active_prune(wl);
	wl_sweep_if_due(wl);
	return behind;
}

static void *worker_main(void *arg)
{
	struct wl_worker *wk = arg;
	struct mcg_workload *wl = wk->wl;
	struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, wk->cpu), wk->cpu, 0, NULL };
	uint64_t last = wl_now_ns();

	tl_worker = wk;

	/* A kernel's reader runs its syscalls on its own CPU while the
	 * workload runs on the others; here the emulated CPUs' workers and
	 * the threads serving requests share this machine's few cores.  The
	 * workers yield to the requests (the reader's "CPU"): without it a
	 * cat competes with 80 busy workers for a 1/80 share.  Per thread on
	 * Linux; a refusal only costs the readers latency. */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WORKER_NICE);
	/* "wl-cpuN": an experiment sums the workers' CPU time by name. */
	{
		char name[16];

		snprintf(name, sizeof(name), "wl-cpu%u", wk->cpu);
		(void)pthread_setname_np(pthread_self(), name);
	}

	while (worker_wait(wl, 0)) {
		uint64_t start = wl_now_ns();
		double dt = (double)(start - last) / 1e9;
		bool busy, behind;

		last = start;
		/* After a pause or an overload, do not try to catch up. */
		if (dt > 0.1)
			dt = 0.1;
		behind = worker_round(wk, &x, dt, true, &busy);
		/* Busy workers tick every tick_ms, idle ones look again less
		 * often, and one that is behind runs flat out. */
		if (!behind &&
		    !worker_wait(wl, start + (uint64_t)(busy ? wl->tick_ms : 5 * wl->tick_ms) * 1000000u))
			break;
	}
	return NULL;
}

/* ---- the pool ---- */

struct mcg_workload *mcg_workload_new(struct mcg_engine *e, const char *default_profile,
				      int *err)
{
	const struct mcg_engine_config *cfg = mcg_engine_config(e);
	struct mcg_workload *wl;
	struct mcg_profile *def = NULL, *idle = NULL, *frozen = NULL;
	pthread_rwlockattr_t attr;
	pthread_condattr_t cattr;
	int rc;

	rc = mcg_profile_parse(default_profile ? default_profile : "", cfg->nr_nodes, &def);
	if (!rc)
		rc = mcg_profile_parse("", cfg->nr_nodes, &idle);
	if (!rc)
		rc = mcg_profile_parse("", cfg->nr_nodes, &frozen);
	if (rc) {
		mcg_profile_free(def);
		mcg_profile_free(idle);
		*err = rc;
		return NULL;
	}
	wl = g_new0(struct mcg_workload, 1);
	wl->e = e;
	wl->nr_cpus = cfg->nr_cpus;
	wl->nr_nodes = cfg->nr_nodes;
	wl->hierarchy = cfg->hierarchy;
	mcg_memcg_objects(&cfg->kernel, cfg->nr_cpus, cfg->nr_nodes, &wl->memcg_objs);
	wl->default_profile = def;
	wl->frozen_profile = frozen;
	wl->tick_ms = MCG_WORKLOAD_DEFAULT_TICK_MS;
	wl->seed = (uint64_t)g_random_int() << 32 | g_random_int();
	wl->manual_clock = cfg->manual_clock;
	pthread_mutex_init(&wl->clock_lock, NULL);
	wl->next_tick_ns = mcg_engine_clock_ns(e) + (uint64_t)wl->tick_ms * 1000000u;
	/* Window 0 is the one a fresh ledger records: never opened. */
	atomic_init(&wl->touch_window, 1);
	/* Writers (mkdir, rmdir) must not starve behind a stream of workers. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&wl->list_lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	pthread_mutex_init(&wl->hier_mutex, NULL);
	pthread_mutex_init(&wl->psi_lock, NULL);
	pthread_mutex_init(&wl->vmpr_lock, NULL);
	pthread_mutex_init(&wl->park_lock, NULL);
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&wl->park_cond, &cattr);
	pthread_condattr_destroy(&cattr);
	wl->cgroups = g_ptr_array_new();
	wl->active = g_ptr_array_new();
	wl->csses = g_ptr_array_new();
	pthread_mutex_init(&wl->reap_lock, NULL);
	pthread_cond_init(&wl->reap_cond, NULL);
	wl->retired = g_ptr_array_new_with_free_func((GDestroyNotify)mcg_profile_free);
	{
		struct wl_cgroup *root = wl_cgroup_new(wl, mcg_engine_root(e), idle);

		root->css = wl_css_ref(wl, wl_css_new(mcg_engine_root(e), NULL));
		root->order = wl->next_order++;
		g_ptr_array_add(wl->cgroups, root);
		mcg_cgroup_set_workload(mcg_engine_root(e), root);
	}
	wl->workers = g_new0(struct wl_worker, wl->nr_cpus);
	for (unsigned c = 0; c < wl->nr_cpus; c++) {
		wl->workers[c].wl = wl;
		wl->workers[c].cpu = c;
	}
	return wl;
}

int mcg_workload_set_tick_ms(struct mcg_workload *wl, unsigned ms)
{
	if (wl->started || ms < 1 || ms > MCG_WORKLOAD_MAX_TICK_MS)
		return -EINVAL;
	pthread_mutex_lock(&wl->clock_lock);
	wl->next_tick_ns += (uint64_t)ms * 1000000u - (uint64_t)wl->tick_ms * 1000000u;
	wl->tick_ms = ms;
	pthread_mutex_unlock(&wl->clock_lock);
	return 0;
}

void mcg_workload_set_seed(struct mcg_workload *wl, uint64_t seed)
{
	wl->seed = seed;
}

/*
 * The manual clock.  What the workers would do in the time given, done
 * here, in order: at each tick, first the periodic flushes due by then
 * (mcg_engine_clock_set()), then one round of every CPU's worker, CPU 0
 * first, each a step of one tick.  Between ticks nothing happens, so a
 * read between two advances sees what the last tick left; the time after
 * the last tick is not lost, the next advance reaches the next tick.
 */
int mcg_workload_clock_advance(struct mcg_workload *wl, uint64_t ns,
			       bool (*interrupted)(void *arg), void *arg)
{
	uint64_t now, target, tick_ns = (uint64_t)wl->tick_ms * 1000000u;
	int err;

	if (!wl->manual_clock || ns > MCG_WORKLOAD_MAX_ADVANCE_NS)
		return -EINVAL;
	pthread_mutex_lock(&wl->clock_lock);
	now = mcg_engine_clock_ns(wl->e);
	if (ns > UINT64_MAX - now) {
		pthread_mutex_unlock(&wl->clock_lock);
		return -EINVAL;
	}
	target = now + ns;
	while (wl->next_tick_ns <= target) {
		/* Asked before each tick: the time stays at the last one. */
		if (interrupted && interrupted(arg)) {
			pthread_mutex_unlock(&wl->clock_lock);
			return -EINTR;
		}
		mcg_engine_clock_set(wl->e, wl->next_tick_ns);
		for (unsigned c = 0; c < wl->nr_cpus; c++) {
			struct wl_worker *wk = &wl->workers[c];
			struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, c), c,
					    atomic_load_explicit(&wk->stat_updates,
								 memory_order_relaxed),
					    NULL };
			bool busy;

			/* as that CPU's worker: a step that leaves its
			 * window marks it (reclaim_cpus()) for a profile
			 * write on another request thread to wait on */
			tl_worker = wk;
			worker_round(wk, &x, (double)tick_ns / 1e9, false, &busy);
			tl_worker = NULL;
		}
		mcg_workload_psi_update(wl);
		wl->next_tick_ns += tick_ns;
	}
	err = mcg_engine_clock_set(wl->e, target);
	pthread_mutex_unlock(&wl->clock_lock);
	return err;
}

int mcg_workload_start(struct mcg_workload *wl)
{
	/* With a manual clock the steps run in mcg_workload_clock_advance(). */
	int rc;

	if (wl->manual_clock)
		return 0;
	/* Before the workers, and before any request: wl_profile_retire()
	 * reads reaper_started unlocked. */
	rc = pthread_create(&wl->reaper, NULL, reaper_main, wl);
	if (rc)
		return -rc;
	wl->reaper_started = true;
	for (unsigned c = 0; c < wl->nr_cpus; c++) {
		rc = pthread_create(&wl->workers[c].thread, NULL, worker_main, &wl->workers[c]);
		if (rc) {
			pthread_mutex_lock(&wl->park_lock);
			wl->stop = true;
			pthread_cond_broadcast(&wl->park_cond);
			pthread_mutex_unlock(&wl->park_lock);
			for (unsigned k = 0; k < c; k++)
				pthread_join(wl->workers[k].thread, NULL);
			wl->stop = false;
			reaper_stop(wl);
			return -rc;
		}
	}
	wl->started = true;
	return 0;
}

void mcg_workload_free(struct mcg_workload *wl)
{
	if (!wl)
		return;
	if (wl->started) {
		pthread_mutex_lock(&wl->park_lock);
		wl->stop = true;
		pthread_cond_broadcast(&wl->park_cond);
		pthread_mutex_unlock(&wl->park_lock);
		for (unsigned c = 0; c < wl->nr_cpus; c++)
			pthread_join(wl->workers[c].thread, NULL);
	}
	reaper_stop(wl);
	g_ptr_array_free(wl->retired, TRUE);
	/* Every memcg's objects go back first, while their parents' structs
	 * are all still held: a dying parent is released by the puts below,
	 * its obj_cgroup's parked bytes handed on (engine_objcg_put()). */
	for (unsigned i = 0; i < wl->csses->len; i++) {
		struct wl_css *c = wl->csses->pdata[i];

		if (c->objs_parent) {
			wl_memcg_objects_uncharge(wl, c->objs_parent);
			mcg_cgroup_put(c->objs_parent);
			c->objs_parent = NULL;
		}
	}
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		if (!w->holder && !w->host)
			mcg_cgroup_set_workload(w->cg, NULL);
		wl_cgroup_free(w);
	}
	for (unsigned i = 0; i < wl->csses->len; i++) {
		struct wl_css *c = wl->csses->pdata[i];

		mcg_memcg_css_put(c->css);
		g_free(c);
	}
	g_ptr_array_free(wl->csses, TRUE);
	g_ptr_array_free(wl->cgroups, TRUE);
	g_ptr_array_free(wl->active, TRUE);
	g_free(wl->workers);
	mcg_profile_free(wl->default_profile);
	mcg_profile_free(wl->frozen_profile);
	mcg_memcg_objects_clear(&wl->memcg_objs);
	pthread_rwlock_destroy(&wl->list_lock);
	pthread_mutex_destroy(&wl->hier_mutex);
	pthread_mutex_destroy(&wl->psi_lock);
	pthread_mutex_destroy(&wl->vmpr_lock);
	pthread_mutex_destroy(&wl->park_lock);
	pthread_mutex_destroy(&wl->clock_lock);
	pthread_cond_destroy(&wl->park_cond);
	pthread_mutex_destroy(&wl->reap_lock);
	pthread_cond_destroy(&wl->reap_cond);
	g_free(wl);
}

void mcg_workload_pause(struct mcg_workload *wl)
{
	pthread_mutex_lock(&wl->park_lock);
	wl->pause_depth++;
	pthread_cond_broadcast(&wl->park_cond);
	while (wl->started && wl->parked < wl->nr_cpus)
		pthread_cond_wait(&wl->park_cond, &wl->park_lock);
	pthread_mutex_unlock(&wl->park_lock);
}

void mcg_workload_resume(struct mcg_workload *wl)
{
	pthread_mutex_lock(&wl->park_lock);
	g_return_if_fail(wl->pause_depth > 0);
	if (--wl->pause_depth == 0)
		pthread_cond_broadcast(&wl->park_cond);
	pthread_mutex_unlock(&wl->park_lock);
}

void mcg_workload_counters(const struct mcg_workload *wl, struct mcg_workload_counters *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned c = 0; c < wl->nr_cpus; c++) {
		out->stat_updates += atomic_load(&wl->workers[c].stat_updates);
		out->steps += atomic_load(&wl->workers[c].steps);
		out->pages_charged += atomic_load(&wl->workers[c].pages_charged);
		out->pages_uncharged += atomic_load(&wl->workers[c].pages_uncharged);
	}
}

void mcg_workload_audit(struct mcg_workload *wl, struct mcg_workload_audit *out)
{
	struct mcg_cgroup *root = mcg_engine_root(wl->e);
	struct mcg_workload_objects objs;
	struct mcg_workload_counters wc;

	mcg_workload_pause(wl);
	/* Stocks first: counting them enters each CPU, which carries out a
	 * pending drain. */
	out->stocked = mcg_memcg_stocked(wl->e, root, false);
	mcg_workload_counters(wl, &wc);
	mcg_workload_memcg_objects(wl, root, &objs);
	out->usage = mcg_counter_read(root, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	mcg_workload_resume(wl);
	out->charged = wc.pages_charged;
	out->uncharged = wc.pages_uncharged;
	out->objects = objs.pages;
	out->lost = (int64_t)out->charged - (int64_t)out->uncharged + (int64_t)out->objects -
		    ((int64_t)out->usage - (int64_t)out->stocked);
}

int mcg_workload_cgroup_stat(struct mcg_workload *wl, struct mcg_cgroup *cg,
			     struct mcg_workload_cgroup_stat *out)
{
	struct wl_cgroup *w;

	memset(out, 0, sizeof(*out));
	/* The list lock keeps w and its ledgers from being freed; their
	 * counters are atomics, read without entering the CPUs. */
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	for (unsigned c = 0; w && c < wl->nr_cpus; c++) {
		const struct wl_ledger *l = wl_ledger(w, c);

		out->page_events += atomic_load_explicit(&l->page_events, memory_order_relaxed);
		out->pages_charged += atomic_load_explicit(&l->pages_charged, memory_order_relaxed);
		out->pages_uncharged += atomic_load_explicit(&l->pages_uncharged,
							     memory_order_relaxed);
		out->stat_updates += atomic_load_explicit(&l->stat_updates, memory_order_relaxed);
		out->reclaim_batches += atomic_load_explicit(&l->reclaim_batches,
							     memory_order_relaxed);
		out->charge_stall_ns += atomic_load_explicit(&l->charge_stall_ns,
							     memory_order_relaxed);
		out->steps += atomic_load_explicit(&l->steps, memory_order_relaxed);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	return w ? 0 : -ENODEV;
}

uint64_t mcg_workload_touch_window(struct mcg_workload *wl)
{
	return atomic_fetch_add_explicit(&wl->touch_window, 1, memory_order_seq_cst);
}

unsigned long mcg_workload_pairs_touched(struct mcg_workload *wl, uint64_t window)
{
	unsigned long pairs = 0;

	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		for (unsigned c = 0; c < wl->nr_cpus; c++) {
			const struct wl_ledger *l = wl_ledger(w, c);

			pairs += l->touch_window == window || l->touch_prev_window == window;
		}
	}
	pthread_rwlock_unlock(&wl->list_lock);
	return pairs;
}

/* ---- direct charges ---- */

bool wl_charge_args_valid(const struct mcg_workload *wl, enum mcg_page_kind kind,
			  unsigned cpu, int nid)
{
	return cpu < wl->nr_cpus && nid >= 0 && (unsigned)nid < wl->nr_nodes &&
	       (unsigned)kind < MCG_NR_PAGE_KINDS;
}

/* Charges up to `pages` pages of kind to w on CPU cpu, node nid, page by
 * page, stopping at the first that fails or once the OOM killer took w
 * (*killed): the pages charged.  As a control operation: the caller holds
 * the list lock, then the CPU is entered (reclaim and the OOM killer walk
 * the list as the workers' charges do). */
long wl_charge_pages(struct mcg_workload *wl, struct wl_cgroup *w, enum mcg_page_kind kind,
		     unsigned cpu, int nid, long pages, bool *killed, uint64_t *throttle_ns)
{
	struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, cpu), cpu, 0, NULL };
	struct wl_ledger *l = wl_ledger(w, cpu);
	long done = 0;

	mcg_cpu_enter(x.cpu);
	/* charge_over_high() leaves the sleep in the ledger, which only the
	 * CPU's window touches; a task group the workers step sleeps it
	 * there, a host process's caller has it served by the process */
	while (done < pages && x.oom_killed != w && !(throttle_ns && l->throttle_ns) &&
	       wl_page_add(&x, w, nid, kind))
		done++;
	if (throttle_ns) {
		*throttle_ns = l->throttle_ns;
		l->throttle_ns = 0;
	}
	mcg_cpu_exit(x.cpu);
	*killed = x.oom_killed == w;
	return done;
}

int mcg_workload_charge(struct mcg_workload *wl, struct mcg_cgroup *cg, enum mcg_page_kind kind,
			unsigned cpu, int nid, long pages)
{
	struct wl_ctx x = { wl, wl->e, NULL, cpu, 0, NULL };
	struct wl_cgroup *w;
	int err = 0;

	if (!wl_charge_args_valid(wl, kind, cpu, nid) || pages == 0)
		return -EINVAL;
	x.cpu = mcg_engine_cpu(wl->e, cpu);
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	if (!w) {
		pthread_rwlock_unlock(&wl->list_lock);
		return -ENODEV;
	}
	if (pages < 0) {
		mcg_cpu_enter(x.cpu);
		if (wl_page_held(wl_ledger(w, cpu), nid, kind) < -pages)
			err = -EINVAL;
		else
			wl_page_free(&x, w, nid, kind, -pages);
		mcg_cpu_exit(x.cpu);
	} else {
		bool killed;

		if (wl_charge_pages(wl, w, kind, cpu, nid, pages, &killed, NULL) < pages || killed)
			err = -ENOMEM;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	/* Dirty pages of a stopped cgroup: its workers write them back. */
	if (kind == MCG_PAGES_FILE_DIRTY && pages > 0)
		wl_active_add_if_in_flight(wl, cg);
	return err;
}

/* ---- files ---- */

struct tasks_exit_call {
	struct mcg_workload *wl;
	struct wl_cgroup *w;
};

static void tasks_exit_on_cpu(struct mcg_cpu *cpu, void *arg)
{
	const struct tasks_exit_call *t = arg;
	struct wl_ctx x = { t->wl, t->wl->e, cpu, mcg_cpu_id(cpu), 0, NULL };

	tasks_exit_with_holders(&x, t->w);
}

/* The tasks of w exit, each thread on its CPU as do_exit() runs on the
 * exiting thread's: at each CPU's next enter (mcg_engine_on_each_cpu()),
 * so that the waits for 80 preempted workers overlap instead of adding
 * up.  Whoever runs it there may hold list_lock for reading, and takes no
 * lock.  Caller holds list_lock for reading, which keeps w. */
void wl_tasks_exit_all_cpus(struct mcg_workload *wl, struct wl_cgroup *w)
{
	struct tasks_exit_call t = { wl, w };

	mcg_engine_on_each_cpu(wl->e, tasks_exit_on_cpu, &t);
}

/* Swaps w's profile for p (taking it) and, when a busy profile becomes
 * idle, lets the tasks exit.  Caller holds list_lock for reading. */
void wl_profile_swap(struct mcg_workload *wl, struct wl_cgroup *w, struct mcg_profile *p)
{
	struct mcg_profile *old = atomic_exchange_explicit(&w->profile, p, memory_order_acq_rel);
	bool now_idle = mcg_profile_is_idle(p);
	bool was_idle = atomic_exchange_explicit(&w->idle, now_idle, memory_order_relaxed);

	if (was_idle != now_idle)
		wl_populated_update(w->cg, was_idle ? 1 : -1);
	if (was_idle || !now_idle) {
		wl_profile_retire(wl, old);
		return;
	}
	/* The tasks exit: no step may run the busy profile after them. */
	wl_sync_steps(wl);
	mcg_profile_free(old);
	wl_tasks_exit_all_cpus(wl, w);
}

int mcg_workload_set_profile(struct mcg_workload *wl, struct mcg_cgroup *cg, const char *text)
{
	struct mcg_profile *p;
	struct wl_cgroup *w;
	int err = mcg_profile_parse(text, wl->nr_nodes, &p);

	if (err)
		return err;
	/* hier_mutex: one profile change at a time, none during an rmdir */
	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	/* On the active list before it runs.  Only a prune takes it off,
	 * and a prune needs hier_mutex: one on the list now stays. */
	if (w && !w->active && !mcg_profile_is_idle(p)) {
		pthread_rwlock_unlock(&wl->list_lock);
		pthread_rwlock_wrlock(&wl->list_lock);
		w = mcg_cgroup_workload(cg);
		if (w)
			wl_active_add(wl, w);
		pthread_rwlock_unlock(&wl->list_lock);
		pthread_rwlock_rdlock(&wl->list_lock);
		w = mcg_cgroup_workload(cg);
	}
	if (w)
		wl_profile_swap(wl, w, p);
	pthread_rwlock_unlock(&wl->list_lock);
	/* tasks that exited may have emptied their holders */
	if (atomic_load_explicit(&wl->sweep_due, memory_order_relaxed))
		wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
	if (!w) {
		mcg_profile_free(p);
		return -ENODEV;
	}
	return 0;
}

bool mcg_workload_cgroup_busy(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	struct wl_cgroup *w;
	bool busy;

	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	busy = w && !w->holder && !atomic_load_explicit(&w->idle, memory_order_relaxed);
	pthread_rwlock_unlock(&wl->list_lock);
	return busy;
}

bool mcg_workload_cgroup_populated(struct mcg_workload *wl, struct mcg_cgroup *cg,
				   uint64_t *flips)
{
	struct wl_cgroup *w;
	bool populated = false;
	uint64_t n = 0;

	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	if (w) {
		/* the flips first: a flip between the two loads shows as one
		 * more for the next reader, never as one missed */
		n = atomic_load(&w->populated_flips);
		populated = atomic_load(&w->nr_populated) > 0;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (flips)
		*flips = n;
	return populated;
}

/*
 * Host tasks (src/host): the host module tells each placement of a host
 * task in cg, and each end of one.  Like emulated tasks they make cg and
 * its ancestors populated (cgroup_update_populated() as a css_set of cg
 * gains its first task or loses its last), so rmdir answers EBUSY while
 * one is there: under hier_mutex, which rmdir's check holds.
 */
int mcg_workload_host_tasks(struct mcg_workload *wl, struct mcg_cgroup *cg, int delta)
{
	struct wl_cgroup *w;
	int err = 0;

	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	if (!w || w->holder) {
		err = -ENODEV;
	} else if (delta > 0) {
		if (w->nr_host_tasks++ == 0)
			wl_populated_update(cg, 1);
	} else if (w->nr_host_tasks > 0) {
		if (--w->nr_host_tasks == 0)
			wl_populated_update(cg, -1);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	pthread_mutex_unlock(&wl->hier_mutex);
	return err;
}

unsigned mcg_workload_cgroup_host_tasks(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	struct wl_cgroup *w;
	unsigned n = 0;

	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	if (w && !w->holder)
		n = w->nr_host_tasks;
	pthread_rwlock_unlock(&wl->list_lock);
	pthread_mutex_unlock(&wl->hier_mutex);
	return n;
}

bool mcg_workload_cgroup_frozen(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	struct wl_cgroup *w;
	bool frozen;

	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	frozen = w && atomic_load_explicit(&w->frozen, memory_order_relaxed);
	pthread_rwlock_unlock(&wl->list_lock);
	return frozen;
}

int mcg_workload_set_frozen(struct mcg_workload *wl, struct mcg_cgroup *cg, bool frozen)
{
	struct wl_cgroup *w;

	/* Freezing changes no list: the next step sees it.  A thaw puts the
	 * cgroup on the active list with no prune between the two (a prune
	 * holds the write lock): under the read lock if it is on already. */
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	if (w && !frozen && !w->active) {
		pthread_rwlock_unlock(&wl->list_lock);
		pthread_rwlock_wrlock(&wl->list_lock);
		w = mcg_cgroup_workload(cg);
		if (w)
			wl_active_add(wl, w);
	}
	if (w)
		atomic_store_explicit(&w->frozen, frozen, memory_order_relaxed);
	pthread_rwlock_unlock(&wl->list_lock);
	if (!w)
		return -ENODEV;
	/* Returns once no step runs as if unfrozen. */
	wl_sync_steps(wl);
	return 0;
}

int mcg_workload_kill(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];
		struct mcg_profile *idle;

		if (w->holder || atomic_load_explicit(&w->idle, memory_order_relaxed) ||
		    !mcg_cgroup_is_descendant(w->cg, cg))
			continue;
		if (mcg_profile_parse("preset=idle", wl->nr_nodes, &idle) == 0)
			wl_profile_swap(wl, w, idle);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (atomic_load_explicit(&wl->sweep_due, memory_order_relaxed))
		wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
	return 0;
}

char *mcg_workload_get_profile(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	struct wl_cgroup *w;
	char *text = NULL;

	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	/* A swapped-out profile is freed once every CPU window open at the
	 * swap has closed (wl_profile_retire()): read it inside one, like the
	 * workers. */
	if (w) {
		struct mcg_cpu *cpu = mcg_engine_cpu(wl->e, 0);
		struct mcg_profile *copy;

		mcg_cpu_enter(cpu);
		copy = wl_profile_copy(atomic_load_explicit(&w->profile, memory_order_acquire));
		mcg_cpu_exit(cpu);
		text = mcg_profile_format(copy);
		mcg_profile_free(copy);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	return text;
}

/* Has any ledger of cg's subtree dirty or writeback pages?  Caller holds
 * list_lock; the ledgers are read racily, as a hint. */
static bool subtree_in_flight(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		if (!mcg_cgroup_is_descendant(wl_memcg(w), cg))
			continue;
		for (unsigned c = 0; c < wl->nr_cpus; c++)
			if (wl_ledger_in_flight(wl, wl_ledger(w, c)))
				return true;
	}
	return false;
}

/* Reclaims up to `want` pages from cg's subtree, entering each CPU in turn.
 * Caller holds list_lock. */
static long reclaim_all_cpus(struct mcg_workload *wl, struct mcg_cgroup *cg, long want,
			     const struct reclaim_kind *kind)
{
	struct wl_reclaim_count rc = { 0 };
	struct wl_ctx x = { wl, wl->e, NULL, 0, 0, NULL };
	long total = reclaim_cpus(&x, cg, want, kind, &rc);

	/* One try_to_free_mem_cgroup_pages(); memory.reclaim's is proactive
	 * and tells vmpressure nothing (6.1 on: shrink_node()). */
	if (!kind->proactive)
		wl_vmpressure(&x, cg, want, total, &rc, true);
	return total;
}

static long oom_kill_all_cpus(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	long freed = 0;

	for (unsigned c = 0; c < wl->nr_cpus && !freed; c++) {
		struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, c), c, 0, NULL };

		mcg_cpu_enter(x.cpu);
		if (oom_victim(&x, cg))
			freed = oom_kill(&x, cg, NULL);
		mcg_cpu_exit(x.cpu);
	}
	return freed;
}

/* Reclaim that found only pages under writeback waits a tick for them
 * (the kernel throttles on writeback) before it counts as no progress. */
static long reclaim_or_wait(struct mcg_workload *wl, struct mcg_cgroup *cg, long want,
			    const struct reclaim_kind *kind)
{
	long got = reclaim_all_cpus(wl, cg, want, kind);

	if (!got && subtree_in_flight(wl, cg)) {
		g_usleep(2 * MCG_WORKLOAD_DEFAULT_TICK_MS * 1000);
		got = reclaim_all_cpus(wl, cg, want, kind);
	}
	return got;
}

static long usage_over(struct mcg_cgroup *cg, enum mcg_counter counter, unsigned long limit)
{
	unsigned long usage = mcg_counter_read(cg, counter, MCG_FIELD_USAGE);

	return usage > limit ? (long)(usage - limit) : 0;
}

int mcg_workload_set_limit(struct mcg_workload *wl, struct mcg_cgroup *cg,
			   enum mcg_counter counter, enum mcg_counter_field field,
			   unsigned long pages, bool v1)
{
	bool reclaims = (counter == MCG_COUNTER_MEMORY || (v1 && counter == MCG_COUNTER_MEMSW)) &&
			(field == MCG_FIELD_MAX || (!v1 && field == MCG_FIELD_HIGH));
	bool drained = false;
	int err = 0;

	if (!reclaims) {
		mcg_counter_set(cg, counter, field, pages);
		return 0;
	}
	pthread_rwlock_rdlock(&wl->list_lock);
	if (!mcg_memcg_online(cg)) {
		err = -ENODEV;
	} else if (v1) {
		/* mem_cgroup_resize_max(): memory <= memsw, and the limit is
		 * only set once usage fits under it. */
		if (counter == MCG_COUNTER_MEMORY &&
		    pages > mcg_counter_read(cg, MCG_COUNTER_MEMSW, MCG_FIELD_MAX))
			err = -EINVAL;
		else if (counter == MCG_COUNTER_MEMSW &&
			 pages < mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX))
			err = -EINVAL;
		for (int retry = 0; !err; retry++) {
			long excess;

			if (mcg_counter_set_max(cg, counter, pages) == 0)
				break;
			/* The stocks' surplus goes back before any reclaim. */
			if (!drained) {
				mcg_memcg_drain_all_stock(wl->e, NULL, cg);
				drained = true;
				retry--;
				continue;
			}
			excess = usage_over(cg, counter, pages);
			if (retry >= MAX_RECLAIM_RETRIES ||
			    !reclaim_or_wait(wl, cg, excess,
					     counter == MCG_COUNTER_MEMSW ? &direct_reclaim_noswap
									  : &direct_reclaim))
				err = -EBUSY;
		}
	} else {
		/* memory_max_write(): set first, reclaim, then OOM-kill. */
		mcg_counter_set(cg, counter, field, pages);
		for (int retry = 0;; retry++) {
			long excess = usage_over(cg, counter, pages);

			if (!excess)
				break;
			if (!drained) {
				mcg_memcg_drain_all_stock(wl->e, NULL, cg);
				drained = true;
				continue;
			}
			if (retry < MAX_RECLAIM_RETRIES &&
			    reclaim_or_wait(wl, cg, excess, &direct_reclaim))
				continue;
			if (field == MCG_FIELD_HIGH) {
				mcg_memory_event(cg, MCG_MEMORY_HIGH);
				break;
			}
			if (!oom_kill_all_cpus(wl, cg))
				break;
		}
	}
	pthread_rwlock_unlock(&wl->list_lock);
	return err;
}

/*
 * memory.reclaim
 * --------------
 * The kernel's loop (memory_reclaim() in 6.12's mm/memcontrol.c,
 * user_proactive_reclaim() in 7.3's mm/vmscan.c):
 *
 *	while (nr_reclaimed < nr_to_reclaim) {
 *		batch_size = (nr_to_reclaim - nr_reclaimed) / 4;
 *		if (signal_pending(current))
 *			return -EINTR;		(7.3: -ERESTARTSYS)
 *		reclaimed = try_to_free_mem_cgroup_pages(memcg, batch_size, ...);
 *		if (!reclaimed && !nr_retries--)
 *			return -EAGAIN;
 *		nr_reclaimed += reclaimed;
 *	}
 *
 * with try_to_free_mem_cgroup_pages() reclaiming at least SWAP_CLUSTER_MAX.
 * The signal check is the caller's `interrupted` (a FUSE INTERRUPT: the
 * writer got a signal).
 *
 * What "reclaimed nothing" means needs care here.  A kernel pass takes
 * microseconds, in which the cgroup's tasks charge next to nothing: once
 * what was reclaimable is gone, passes come back empty and the retries run
 * out at once.  A pass here can take a tick: it waits for writeback
 * (reclaim_or_wait()), and for each emulated CPU's worker to end its step.
 * A busy cgroup's workers charge a few hundred pages meanwhile, the pass
 * reclaims them, and the loop, fed by its own waits, went on for seconds
 * (a 100M request on a seed001 cgroup: 1.6 to 3.4 s, each pass 20 ms).  So
 * a pass counts as progress only if the cgroup's usage went down over it:
 * reclaiming what the workers charged during the pass is what a kernel
 * would not have seen.  A request then ends within about
 * MAX_RECLAIM_RETRIES passes once nothing is left to take.
 */
int mcg_workload_reclaim(struct mcg_workload *wl, struct mcg_cgroup *cg, unsigned long pages,
			 bool (*interrupted)(void *arg), void *arg)
{
	const struct mcg_layout *l = mcg_engine_layout(wl->e);
	/* 6.12 counts proactive reclaim as direct. */
	const struct reclaim_kind proactive =
		mcg_layout_has(l, MCG_PGSCAN_PROACTIVE)
			? (struct reclaim_kind){ MCG_PGSCAN_PROACTIVE, MCG_PGSTEAL_PROACTIVE, true, true }
			: (struct reclaim_kind){ MCG_PGSCAN_DIRECT, MCG_PGSTEAL_DIRECT, true, true };
	unsigned retries = MAX_RECLAIM_RETRIES;
	long done = 0;
	int err = 0;

	pthread_rwlock_rdlock(&wl->list_lock);
	if (!mcg_memcg_online(cg))
		err = -ENODEV;
	while (!err && done < (long)pages) {
		/* Converges on zero; reclaim takes SWAP_CLUSTER_MAX at least. */
		long batch = MAX(((long)pages - done) / 4, SWAP_CLUSTER_MAX);
		unsigned long before, after;
		long got;

		if (interrupted && interrupted(arg)) {
			err = -EINTR;
			break;
		}
		before = mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
		got = reclaim_or_wait(wl, cg, batch, &proactive);
		after = mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
		if ((!got || after >= before) && !retries--) {
			err = -EAGAIN;
			break;
		}
		done += got;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	wl_release_emptied_holders(wl);
	return err;
}

static void lru_add_drain_on_cpu(struct mcg_cpu *cpu, void *arg)
{
	struct mcg_workload *wl = arg;
	struct wl_ctx x = { wl, wl->e, cpu, mcg_cpu_id(cpu), 0, NULL };

	for (unsigned i = 0; i < wl->cgroups->len; i++)
		wl_lru_add_drain(&x, wl->cgroups->pdata[i]);
}

/* lru_add_drain_all() (mm/swap.c, mm/folio.c in 7.3): every CPU's LRU add
 * batch onto the lists.  Caller holds list_lock, not a CPU window. */
static void lru_add_drain_all(struct mcg_workload *wl)
{
	mcg_engine_on_each_cpu(wl->e, lru_add_drain_on_cpu, wl);
}

void mcg_workload_lru_add_drain_all(struct mcg_workload *wl)
{
	pthread_rwlock_rdlock(&wl->list_lock);
	lru_add_drain_all(wl);
	pthread_rwlock_unlock(&wl->list_lock);
}

int mcg_workload_force_empty(struct mcg_workload *wl, struct mcg_cgroup *cg,
			     bool (*interrupted)(void *arg), void *arg)
{
	/* The dying check came with 7.3's reparenting (get_non_dying_memcg_start()). */
	bool stops_when_dying = mcg_engine_config(wl->e)->kernel.reparent_local;
	int err = 0;

	pthread_rwlock_rdlock(&wl->list_lock);
	if (!mcg_memcg_online(cg)) {
		err = -ENODEV;
	} else {
		/* mem_cgroup_force_empty(): lru_add_drain_all(), then
		 * drain_all_stock() */
		lru_add_drain_all(wl);
		mcg_memcg_drain_all_stock(wl->e, NULL, cg);
	}
	/* Reclaim until empty or MAX_RECLAIM_RETRIES passes without progress;
	 * what stays (mlocked pages, kernel objects) stays, and the write
	 * still succeeds: mem_cgroup_force_empty() returns 0 (5.10 to 7.3).
	 * Each pass asks for SWAP_CLUSTER_MAX pages
	 * (try_to_free_mem_cgroup_pages(memcg, 1, ...)).  A signal pending
	 * before a pass ends it with -EINTR.  7.3 also stops, with 0, once
	 * the memcg is dying (memcg_is_dying(): its rmdir waits for the write
	 * under cgroup_mutex); before, rmdir waited in kernfs for the write to
	 * finish, so removal never met a running force_empty. */
	for (int retries = MAX_RECLAIM_RETRIES; !err && retries > 0;) {
		if (!mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE))
			break;
		if (interrupted && interrupted(arg)) {
			err = -EINTR;
			break;
		}
		if (stops_when_dying && !mcg_cgroup_online(cg))
			break;
		if (!reclaim_or_wait(wl, cg, SWAP_CLUSTER_MAX, &direct_reclaim))
			retries--;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	wl_release_emptied_holders(wl);
	return err;
}
