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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool is_v1(const struct mcg_workload *wl)
{
	return wl->hierarchy == MCG_HIERARCHY_V1;
}

/* ---- per-cgroup data ---- */

/*
 * Memory csses.
 *
 * On cgroup2 a cgroup's tasks charge the memory css of the nearest
 * cgroup, itself or an ancestor, whose parent enables memory (engine:
 * cgroup.c, "Memory csses"), and a page stays charged to the css it was
 * charged to (folio->memcg_data) when the tasks move on to another.  A
 * task group's ledgers hold only pages of its css now: when a
 * subtree_control write gives its tasks another css, what the ledgers
 * hold moves to a holder, a wl_cgroup with no tasks that keeps the old
 * css (wl_split()), unless the old css's pages are reparented to the new
 * one, as 7.3's offline does (but for swap: wl_reparent()).  The holder
 * stays the tasks' (w->holders): their footprint counts it, their
 * turnover frees its pages first, their exit frees its task memory.  It
 * belongs to its css's cgroup, so it keeps no removed cgroup dying.
 * Everything that acts on a memcg's pages goes by the css: charges,
 * statistics, reclaim (the holders and task groups whose css is in the
 * subtree), the OOM killer's victims; what belongs to a cgroup (cpu, io,
 * PSI, populated, the tasks' exit) goes by the cgroup.
 *
 * A wl_css is counted by the wl_cgroups that hold pages of it (refs,
 * under list_lock): its cgroup's task group while it is the live css,
 * those of descendants without a css of their own, holders.  The last one
 * going frees it (wl_css_unref(), wl_css_free()): the memcg's objects go
 * back and its css pin goes, which releases a killed css.  A killed css
 * therefore stays dying while pages that pin it are charged to it
 * (wl_ledger_pins_css()); a holder left with kernel memory alone moves to
 * the css its obj_cgroup charges now, and one left empty goes, at the
 * next sweep (wl_sweep_holders(): after every rmdir, css change, reclaim
 * write and exit, and at a worker's round's end once a holder emptied).
 */

/* A new wl_css for css (a new pin), objs_parent its objects' (held). */
static struct wl_css *wl_css_new(struct mcg_cgroup *css, struct mcg_cgroup *objs_parent)
{
	struct wl_css *c = g_new0(struct wl_css, 1);

	mcg_memcg_css_get(css);
	c->css = css;
	c->objs_parent = objs_parent ? mcg_cgroup_get(objs_parent) : NULL;
	return c;
}

/* A reference; the first one lists c in the pool.  Caller holds list_lock
 * for writing. */
static struct wl_css *wl_css_ref(struct mcg_workload *wl, struct wl_css *c)
{
	if (c->refs++ == 0)
		g_ptr_array_add(wl->csses, c);
	return c;
}

/* Drops a reference; returns c if it was the last one, for wl_css_free()
 * once list_lock is dropped.  Caller holds list_lock for writing. */
static struct wl_css *wl_css_unref(struct mcg_workload *wl, struct wl_css *c)
{
	if (--c->refs)
		return NULL;
	g_ptr_array_remove(wl->csses, c);
	return c;
}

static void memcg_objects_uncharge(struct mcg_workload *wl, struct mcg_cgroup *objs_parent);

/* An unreferenced wl_css freed: its objects back, its pin dropped.
 * Outside list_lock and every CPU window. */
static void wl_css_free(struct mcg_workload *wl, struct wl_css *c)
{
	if (!c)
		return;
	if (c->objs_parent) {
		memcg_objects_uncharge(wl, c->objs_parent);
		mcg_cgroup_put(c->objs_parent);
	}
	mcg_memcg_css_put(c->css);
	g_free(c);
}

static struct wl_cgroup *wl_cgroup_new(struct mcg_workload *wl, struct mcg_cgroup *cg,
				       struct mcg_profile *profile)
{
	struct wl_cgroup *w = g_new0(struct wl_cgroup, 1);

	w->cg = mcg_cgroup_get(cg);
	atomic_init(&w->profile, profile);
	atomic_init(&w->idle, mcg_profile_is_idle(profile));
	atomic_init(&w->frozen, false);
	w->ledger_size = (sizeof(struct wl_ledger) + wl->nr_nodes * sizeof(struct wl_node) + 63) &
			 ~(size_t)63;
	w->ledgers = g_malloc0(w->ledger_size * wl->nr_cpus);
	w->psi = wl_psi_new(wl->nr_cpus, mcg_engine_clock_ns(wl->e));
	return w;
}

/* Frees w, whose css reference the caller has dropped (wl_css_unref()). */
static void wl_cgroup_free(struct wl_cgroup *w)
{
	if (w->holders)
		g_ptr_array_free(w->holders, TRUE);
	wl_psi_free(w->psi);
	mcg_profile_free(atomic_load(&w->profile));
	g_free(w->ledgers);
	mcg_cgroup_put(w->cg);
	g_free(w);
}

static struct mcg_profile *profile_copy(const struct mcg_profile *p)
{
	return g_memdup2(p, sizeof(*p));
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
		if (w->holder || wl_host_mirror(w) || !mcg_cgroup_is_descendant(wl_memcg(w), top))
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

/* mem_cgroup_out_of_memory(): kills the biggest task group of the subtree
 * on this CPU.  Returns pages freed. */
static long oom_kill(struct wl_ctx *x, struct mcg_cgroup *top)
{
	struct wl_cgroup *victim = oom_victim(x, top);

	mcg_memory_event(top, MCG_MEMORY_OOM);
	if (!victim)
		return 0;
	/* on the victim task's memcg (mem_cgroup_from_task()), its css */
	mcg_memory_event(wl_memcg(victim), MCG_MEMORY_OOM_KILL);
	x->oom_killed = victim;
	/* A host process dies for real (oom_kill_process(): SIGKILL); its
	 * memory goes here at once, as the OOM reaper takes it. */
	if (victim->host) {
		(void)syscall(SYS_pidfd_send_signal, victim->host_pidfd, SIGKILL, NULL, 0);
		atomic_store(&victim->host_oom_killed, true);
	}
	return tasks_exit_with_holders(x, victim);
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
		per_cpu_count(&wl_ledger(w, x->cpu_id)->charge_stall_ns, now_ns() - stall_start);
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
	if (!(flags & WL_NOT_TASKS)) {
		per_cpu_count(&wl->workers[x->cpu_id].pages_charged, (uint64_t)pages);
		per_cpu_count(&wl_ledger(w, x->cpu_id)->pages_charged, (uint64_t)pages);
	}
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
			stall_start = now_ns();
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
		if (killed || oom_kill(x, over) == 0)
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

void wl_uncharge(struct wl_ctx *x, struct wl_cgroup *w, long pages, unsigned flags)
{
	struct mcg_workload *wl = x->wl;

	if (pages <= 0)
		return;
	mcg_memcg_uncharge(wl_memcg(w), (unsigned long)pages, is_v1(wl) && (flags & WL_MEMSW));
	if (flags & WL_NOT_TASKS)
		return;
	per_cpu_count(&wl->workers[x->cpu_id].pages_uncharged, (uint64_t)pages);
	per_cpu_count(&wl_ledger(w, x->cpu_id)->pages_uncharged, (uint64_t)pages);
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
	per_cpu_count(&wl->workers[x->cpu_id].pages_uncharged, (uint64_t)pages);
	per_cpu_count(&wl_ledger(w, x->cpu_id)->pages_uncharged, (uint64_t)pages);
}

bool wl_charge_swap(struct wl_ctx *x, struct wl_cgroup *w, long pages)
{
	struct mcg_cgroup *over = NULL;

	if (is_v1(x->wl))
		return true;
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
 * memcgfs.workload does not wait for one.  As call_rcu() hands the free to RCU's kthreads, profile_retire()
 * queues the old profile and the reaper thread frees every queued one
 * after one grace period of its own.  A swap whose later steps must all
 * see the new profile (tasks that exit, a freeze) still waits itself.
 * Without a reaper (a manual clock, whose steps run on the request thread
 * that advances it, or a pool not started) the writer waits for the grace
 * period itself: no worker thread is preempted inside a window, and it is
 * short.
 */
static void profile_retire(struct mcg_workload *wl, struct mcg_profile *old)
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
static void active_add(struct mcg_workload *wl, struct wl_cgroup *w)
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
static void active_remove(struct mcg_workload *wl, struct wl_cgroup *w)
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
static bool wl_in_flight_anywhere(const struct mcg_workload *wl, const struct wl_cgroup *w)
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
static void active_add_if_in_flight(struct mcg_workload *wl, struct mcg_cgroup *cg)
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
		active_add(wl, w);
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

static void sweep_if_due(struct mcg_workload *wl);

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
		t0 = account_cputime ? now_ns() : 0;
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
			uint64_t spent = now_ns() - t0;

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
	sweep_if_due(wl);
	return behind;
}

static void *worker_main(void *arg)
{
	struct wl_worker *wk = arg;
	struct mcg_workload *wl = wk->wl;
	struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, wk->cpu), wk->cpu, 0, NULL };
	uint64_t last = now_ns();

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
		uint64_t start = now_ns();
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
	/* Before the workers, and before any request: profile_retire()
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
	 * and its obj_cgroup must hold nothing by then (engine_objcg_put()). */
	for (unsigned i = 0; i < wl->csses->len; i++) {
		struct wl_css *c = wl->csses->pdata[i];

		if (c->objs_parent) {
			memcg_objects_uncharge(wl, c->objs_parent);
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

static bool charge_args_valid(const struct mcg_workload *wl, enum mcg_page_kind kind,
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
static long charge_pages(struct mcg_workload *wl, struct wl_cgroup *w, enum mcg_page_kind kind,
			 unsigned cpu, int nid, long pages, bool *killed)
{
	struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, cpu), cpu, 0, NULL };
	long done = 0;

	mcg_cpu_enter(x.cpu);
	while (done < pages && x.oom_killed != w && wl_page_add(&x, w, nid, kind))
		done++;
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

	if (!charge_args_valid(wl, kind, cpu, nid) || pages == 0)
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

		if (charge_pages(wl, w, kind, cpu, nid, pages, &killed) < pages || killed)
			err = -ENOMEM;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	/* Dirty pages of a stopped cgroup: its workers write them back. */
	if (kind == MCG_PAGES_FILE_DIRTY && pages > 0)
		active_add_if_in_flight(wl, cg);
	return err;
}

/* ---- hierarchy ---- */

/* The statistics of one object charged to objcg (sign 1) or freed (-1),
 * on CPU 0: slab through the object stock (mod_objcg_state()), per-CPU
 * areas straight to the memcg (pcpu_memcg_post_alloc_hook(),
 * pcpu_memcg_free_hook()).  The kernel's updates, not the tasks', so
 * straight to the engine, left out of the workload's figures. */
static void memcg_object_stats(struct mcg_cpu *cpu, struct mcg_cgroup *objcg,
			       const struct mcg_memcg_object *o, int sign)
{
	if (o->kind == MCG_OBJECT_SLAB)
		mcg_objcg_mod_slab(cpu, objcg, (int)o->nid, MCG_SLAB_UNRECLAIMABLE_B,
				   sign * (long)o->bytes);
	else
		mcg_stat_mod(cpu, mcg_memcg_objcg_owner(objcg), 0, MCG_MEMCG_PERCPU_B,
			     sign * (long)o->bytes);
}

/* Frees the first `nr` objects of a memcg (all of them: wl->memcg_objs.nr)
 * charged to objcg, in __mem_cgroup_free()'s order: obj_cgroup_uncharge(),
 * then the statistics.  On CPU 0, entered. */
static void memcg_objects_free(struct mcg_workload *wl, struct mcg_cpu *cpu,
			       struct mcg_cgroup *objcg, unsigned nr)
{
	const struct mcg_memcg_objects *o = &wl->memcg_objs;

	for (unsigned k = 0; k < o->nr; k++) {
		const struct mcg_memcg_object *obj = &o->obj[o->free_order[k]];

		if (o->free_order[k] >= nr)
			continue;
		mcg_objcg_uncharge(cpu, objcg, obj->bytes);
		memcg_object_stats(cpu, objcg, obj, -1);
	}
}

/* mem_cgroup_alloc() under pw's css, on CPU 0, with it the active memcg
 * (mem_cgroup_css_alloc(): set_active_memcg(parent)): each
 * __GFP_ACCOUNT object in turn charged to its obj_cgroup, through CPU
 * 0's object stock, the pages it lacks charged as a GFP_KERNEL_ACCOUNT
 * charge is (it may reclaim and OOM-kill).  false if one cannot be
 * charged even so: the ones before are freed (mem_cgroup_alloc()'s
 * __mem_cgroup_free()), and mkdir fails with ENOMEM.  Caller holds
 * hier_mutex and list_lock for reading. */
static bool memcg_objects_charge(struct mcg_workload *wl, struct wl_cgroup *pw)
{
	const struct mcg_memcg_objects *o = &wl->memcg_objs;
	struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, 0), 0, 0, NULL };
	unsigned i;

	mcg_cpu_enter(x.cpu);
	for (i = 0; i < o->nr; i++) {
		size_t bytes = o->obj[i].bytes;

		if (!mcg_objcg_consume(x.cpu, wl_memcg(pw), bytes)) {
			if (!wl_charge(&x, pw, (long)mcg_objcg_pages(bytes),
				       WL_MEMSW | WL_KMEM | WL_NOT_TASKS))
				break;
			mcg_objcg_charged(x.cpu, wl_memcg(pw), bytes);
		}
		memcg_object_stats(x.cpu, wl_memcg(pw), &o->obj[i], 1);
	}
	if (i < o->nr)
		memcg_objects_free(wl, x.cpu, wl_memcg(pw), i);
	mcg_cpu_exit(x.cpu);
	return i == o->nr;
}

/* Gives a memcg's objects back to objs_parent's obj_cgroup, when the
 * memcg is freed: at rmdir, or for one left dying when it is released
 * (the kernel frees them with the memcg).  objs_parent may be dying by
 * then: its obj_cgroup charges its nearest live ancestor. */
static void memcg_objects_uncharge(struct mcg_workload *wl, struct mcg_cgroup *objs_parent)
{
	struct mcg_cpu *cpu = mcg_engine_cpu(wl->e, 0);

	mcg_cpu_enter(cpu);
	memcg_objects_free(wl, cpu, objs_parent, wl->memcg_objs.nr);
	mcg_cpu_exit(cpu);
}

/*
 * cgroup_update_populated() (kernel/cgroup/cgroup.c): a cgroup whose tasks
 * come (delta 1) or all go (-1) changes the count of each ancestor, and
 * each whose count becomes or stops being 0 changes its populated, which
 * the kernel notifies (cgroup_file_notify() on cgroup.events).  Caller
 * holds hier_mutex.
 */
static void populated_update(struct mcg_cgroup *cg, int delta)
{
	for (; cg; cg = mcg_cgroup_parent(cg)) {
		struct wl_cgroup *w = mcg_cgroup_workload(cg);
		unsigned was;

		if (!w)
			continue;
		was = atomic_fetch_add(&w->nr_populated, (unsigned)delta);
		if (!was != !(was + (unsigned)delta))
			atomic_fetch_add(&w->populated_flips, 1);
	}
}

typedef bool wl_ledger_test(const struct mcg_workload *wl, const struct wl_ledger *l);

/* Does `test` hold of w's ledger on some CPU (wl_ledger_holds_pages(): w
 * still holds memory; wl_ledger_pins_css(), ledger_swapped(),
 * ledger_resident())?  Caller holds list_lock for writing: every ledger
 * writer holds it for reading, so the ledgers stand still and their last
 * writes are visible. */
static bool any_ledger_locked(const struct mcg_workload *wl, const struct wl_cgroup *w,
			      wl_ledger_test *test)
{
	for (unsigned c = 0; c < wl->nr_cpus; c++)
		if (test(wl, wl_ledger(w, c)))
			return true;
	return false;
}

/* Any swap entry in the ledger? */
static bool ledger_swapped(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		if (l->node[nid].swapped > 0)
			return true;
	return false;
}

/* Any resident page? */
static bool ledger_resident(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	return wl_ledger_resident(wl, l) > 0;
}

/* What a change under list_lock lets go, for after the lock: wl_css
 * references that were the last (wl_css_free()), cgroup references. */
struct wl_release {
	GPtrArray *csses, *cgroups;
};

static void release_init(struct wl_release *rel)
{
	rel->csses = g_ptr_array_new();
	rel->cgroups = g_ptr_array_new();
}

/* Outside list_lock and every CPU window. */
static void release_done(struct mcg_workload *wl, struct wl_release *rel)
{
	for (unsigned i = 0; i < rel->csses->len; i++)
		wl_css_free(wl, rel->csses->pdata[i]);
	for (unsigned i = 0; i < rel->cgroups->len; i++)
		mcg_cgroup_put(rel->cgroups->pdata[i]);
	g_ptr_array_free(rel->csses, TRUE);
	g_ptr_array_free(rel->cgroups, TRUE);
}

/* w's css becomes `to`: a reference taken, the old one let go. */
static void css_switch(struct mcg_workload *wl, struct wl_cgroup *w, struct wl_css *to,
		       struct wl_release *rel)
{
	struct wl_css *old = w->css;

	w->css = wl_css_ref(wl, to);
	g_ptr_array_add(rel->csses, wl_css_unref(wl, old));
	/* a holder's cpu, io and random stream are its css's cgroup's */
	if (w->holder) {
		g_ptr_array_add(rel->cgroups, w->cg);
		w->cg = mcg_cgroup_get(mcg_memcg_cgroup(to->css));
	}
}

/* A new, empty holder of css c for the tasks of owner (NULL: gone), in
 * the pool and in owner's holders.  It belongs to the css's cgroup: its
 * existence pins no other.  Caller holds list_lock for writing. */
static struct wl_cgroup *holder_new(struct mcg_workload *wl, struct wl_css *c,
				    struct wl_cgroup *owner)
{
	struct mcg_profile *idle = NULL;
	struct wl_cgroup *h;

	mcg_profile_parse("preset=idle", wl->nr_nodes, &idle);
	h = wl_cgroup_new(wl, mcg_memcg_cgroup(c->css), idle);
	h->holder = true;
	h->owner = owner;
	h->css = wl_css_ref(wl, c);
	h->order = wl->next_order++;
	g_ptr_array_add(wl->cgroups, h);
	if (owner) {
		if (!owner->holders)
			owner->holders = g_ptr_array_new();
		g_ptr_array_add(owner->holders, h);
	}
	return h;
}

/* Gives task group w the css `to`: its tasks charge it from now on.  What
 * its ledgers hold stays charged where it was (folio->memcg_data), in a
 * new holder of the old css, which stays the tasks' (their footprint,
 * their turnover's frees, their exit).  Caller holds hier_mutex and
 * list_lock for writing, which no ledger writer passes: nothing is
 * charged between the move and the switch. */
static void wl_split(struct mcg_workload *wl, struct wl_cgroup *w, struct wl_css *to,
		     struct wl_release *rel)
{
	if (w->css == to)
		return;
	if (any_ledger_locked(wl, w, wl_ledger_holds_pages)) {
		struct wl_cgroup *h = holder_new(wl, w->css, w);

		for (unsigned c = 0; c < wl->nr_cpus; c++)
			wl_ledger_move(wl, wl_ledger(h, c), wl_ledger(w, c));
		if (wl_in_flight_anywhere(wl, h))
			active_add(wl, h);
	}
	css_switch(wl, w, to, rel);
}

/* 7.3 reparents an offlined css's folios and obj_cgroups to its parent
 * css at once (memcg_reparent_objcgs()): every wl_cgroup holding pages of
 * `from` holds them of `to` from then on, the counters needing no change
 * (the parent's hierarchical counts hold them already; the engine moves
 * the local ones).  Not the swap entries: each holds a reference on the
 * memcg's private id (__mem_cgroup_try_charge_swap():
 * mem_cgroup_private_id_get_online()), which keeps the css until the
 * entry is freed (7.3 mm/memcontrol.c), so they move to a holder that
 * stays with `from`.  Caller holds list_lock for writing. */
static void wl_reparent(struct mcg_workload *wl, struct wl_css *from, struct wl_css *to,
			struct wl_release *rel)
{
	unsigned n = wl->cgroups->len;	/* not the holders made here */

	for (unsigned i = 0; i < n; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		if (w->css != from)
			continue;
		if (any_ledger_locked(wl, w, ledger_swapped)) {
			struct wl_cgroup *h;

			if (w->holder && !any_ledger_locked(wl, w, ledger_resident))
				continue;	/* swap alone: it stays */
			h = holder_new(wl, from, w->holder ? w->owner : w);
			for (unsigned c = 0; c < wl->nr_cpus; c++)
				wl_ledger_move_swap(wl, wl_ledger(h, c), wl_ledger(w, c));
		}
		css_switch(wl, w, to, rel);
	}
}

int mcg_workload_cgroup_create(struct mcg_workload *wl, struct mcg_cgroup *parent,
			       const char *name, bool memory_css, struct mcg_cgroup **out)
{
	struct mcg_cgroup *cg, *css, *objcg = NULL;
	struct wl_cgroup *w, *pw;
	struct wl_css *c = NULL;
	/* Nothing is charged to the root: get_obj_cgroup_from_current()
	 * stops below it (kmem of the root memcg is not accounted). */
	bool objs = memory_css && !mcg_cgroup_is_root(parent);
	int err;

	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	pw = mcg_cgroup_workload(parent);
	err = !pw ? -ENODEV : !objs || memcg_objects_charge(wl, pw) ? 0 : -ENOMEM;
	if (!err && objs)
		objcg = mcg_cgroup_get(wl_memcg(pw));
	pthread_rwlock_unlock(&wl->list_lock);
	if (!err) {
		err = memory_css ? mcg_cgroup_create(wl->e, parent, name, &cg)
				 : mcg_cgroup_create_without_memcg(wl->e, parent, name, &cg);
		if (err && objcg)	/* given straight back */
			memcg_objects_uncharge(wl, objcg);
	}
	if (!err && memory_css) {
		css = mcg_cgroup_memcg(wl->e, cg);
		c = wl_css_new(css, objcg);
		mcg_cgroup_put(css);
	}
	if (!err) {
		w = wl_cgroup_new(wl, cg, profile_copy(wl->default_profile));
		pthread_rwlock_wrlock(&wl->list_lock);
		/* its own css, or its parent's tasks' */
		w->css = wl_css_ref(wl, c ? c : pw->css);
		w->order = wl->next_order++;
		g_ptr_array_add(wl->cgroups, w);
		if (!atomic_load(&w->idle))
			active_add(wl, w);
		mcg_cgroup_set_workload(cg, w);
		pthread_rwlock_unlock(&wl->list_lock);
		if (!atomic_load(&w->idle))
			populated_update(cg, 1);
		*out = cg;
	}
	mcg_cgroup_put(objcg);
	pthread_mutex_unlock(&wl->hier_mutex);
	return err;
}

static void wl_sweep_holders(struct mcg_workload *wl);

int mcg_workload_memory_css(struct mcg_workload *wl, struct mcg_cgroup *cg, bool on)
{
	bool reparent = mcg_engine_config(wl->e)->kernel.reparent_local;
	struct mcg_cgroup *parent = mcg_cgroup_parent(cg), *css, *objcg = NULL;
	struct wl_cgroup *w, *pw;
	struct wl_css *c = NULL;
	struct wl_release rel;
	int err = 0;

	if (!parent)
		return -EPERM;
	release_init(&rel);
	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	pw = mcg_cgroup_workload(parent);
	css = mcg_cgroup_memcg(wl->e, cg);
	if (!w || !pw)
		err = -ENODEV;
	else if (on == (css != NULL))
		err = 1;	/* already so */
	else if (on && !mcg_cgroup_is_root(parent)) {
		/* mem_cgroup_css_alloc(): its objects, to the parent css */
		if (memcg_objects_charge(wl, pw))
			objcg = mcg_cgroup_get(wl_memcg(pw));
		else
			err = -ENOMEM;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (!err && on) {
		err = mcg_memcg_css_create(wl->e, cg, &css);
		if (err && objcg)
			memcg_objects_uncharge(wl, objcg);
		if (!err)
			c = wl_css_new(css, objcg);
	}
	if (!err) {
		/* The tasks of cg's subtree move: none below cg has a css of
		 * its own (cg's children cannot have memory while cg has
		 * none, nor be given it while cg is losing it: EBUSY first),
		 * so all of them charged the old css. */
		pthread_rwlock_wrlock(&wl->list_lock);
		if (!on && reparent) {
			wl_reparent(wl, w->css, pw->css, &rel);
		} else {
			unsigned n = wl->cgroups->len;	/* not the holders made here */

			for (unsigned i = 0; i < n; i++) {
				struct wl_cgroup *t = wl->cgroups->pdata[i];

				if (!t->holder && mcg_cgroup_is_descendant(t->cg, cg))
					wl_split(wl, t, on ? c : pw->css, &rel);
			}
		}
		pthread_rwlock_unlock(&wl->list_lock);
		/* a killed css that nothing pins goes at once */
		if (!on) {
			mcg_memcg_css_kill(wl->e, cg);
			wl_sweep_holders(wl);
		}
	}
	pthread_mutex_unlock(&wl->hier_mutex);
	release_done(wl, &rel);
	mcg_cgroup_put(objcg);
	mcg_cgroup_put(css);
	return err > 0 ? 0 : err;
}

void mcg_workload_memcg_objects(struct mcg_workload *wl, struct mcg_cgroup *cg,
				struct mcg_workload_objects *sum)
{
	unsigned long nr = 0;
	size_t charged;
	long slab_held;

	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->csses->len; i++) {
		struct wl_css *c = wl->csses->pdata[i];

		if (c->objs_parent && mcg_cgroup_is_descendant(c->objs_parent, cg))
			nr++;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	mcg_objcg_held(wl->e, cg, &charged, &slab_held);
	sum->slab = (long)(nr * wl->memcg_objs.slab) - slab_held;
	sum->percpu = nr * wl->memcg_objs.percpu;
	charged += nr * (wl->memcg_objs.slab + wl->memcg_objs.percpu);
	g_assert(charged % MCG_PAGE_SIZE == 0);
	sum->pages = charged / MCG_PAGE_SIZE;
}

/* What a CPU does to ledgers of that CPU, in its window, for a caller on
 * every CPU (mcg_engine_on_each_cpu(): the waits overlap).  The runner
 * may hold list_lock for reading; the calls take no lock. */
struct ledgers_call {
	struct mcg_workload *wl;
	struct wl_cgroup **w;		/* [n] */
	unsigned n;
	struct wl_cgroup *into;		/* ledger_merge_on_cpu(): w[0] into it */
	_Atomic bool *holds, *pins;	/* ledgers_hold_on_cpu(): [n] each */
};

static void ledgers_hold_on_cpu(struct mcg_cpu *cpu, void *arg)
{
	struct ledgers_call *t = arg;

	for (unsigned i = 0; i < t->n; i++) {
		const struct wl_ledger *l = wl_ledger(t->w[i], mcg_cpu_id(cpu));

		if (wl_ledger_holds_pages(t->wl, l))
			atomic_store_explicit(&t->holds[i], true, memory_order_relaxed);
		if (wl_ledger_pins_css(t->wl, l))
			atomic_store_explicit(&t->pins[i], true, memory_order_relaxed);
	}
}

static void ledger_merge_on_cpu(struct mcg_cpu *cpu, void *arg)
{
	struct ledgers_call *t = arg;
	unsigned c = mcg_cpu_id(cpu);

	wl_ledger_merge(t->wl, wl_ledger(t->into, c), wl_ledger(t->w[0], c));
}

/* Which of w[n] still hold memory on some CPU (holds[i]), and pages that
 * pin a killed css (pins[i]): set or left. */
static void wl_cgroups_hold_pages(struct mcg_workload *wl, struct wl_cgroup **w, unsigned n,
				  _Atomic bool *holds, _Atomic bool *pins)
{
	struct ledgers_call t = { wl, w, n, NULL, holds, pins };

	if (n)
		mcg_engine_on_each_cpu(wl->e, ledgers_hold_on_cpu, &t);
}

/* The wl_css of a live css, if the pool holds one.  Caller holds
 * list_lock. */
static struct wl_css *wl_css_find(struct mcg_workload *wl, const struct mcg_cgroup *css)
{
	for (unsigned i = 0; i < wl->csses->len; i++) {
		struct wl_css *c = wl->csses->pdata[i];

		if (c->css == css)
			return c;
	}
	return NULL;
}

/*
 * The holders' sweep.  A holder that holds nothing goes, and its css
 * reference with it: a killed css nothing else holds is released.  A
 * holder of a killed css that holds only pages that do not pin it (kernel
 * memory charged through an obj_cgroup, which mem_cgroup_css_offline()
 * handed to the parent: memcg_reparent_objcgs()) moves to the css its
 * obj_cgroup charges now, the nearest live one (mcg_memcg_objcg_owner()),
 * and lets the killed css go.  Holders only lose pages, so what the look
 * finds stays true.  Caller holds hier_mutex.
 */
static void wl_sweep_holders(struct mcg_workload *wl)
{
	GPtrArray *holders = g_ptr_array_new(), *gone = g_ptr_array_new();
	_Atomic bool *holds, *pins;
	struct wl_release rel;

	atomic_store_explicit(&wl->sweep_due, false, memory_order_relaxed);
	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		if (w->holder)
			g_ptr_array_add(holders, w);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (!holders->len) {
		g_ptr_array_free(holders, TRUE);
		g_ptr_array_free(gone, TRUE);
		return;
	}
	holds = g_new0(_Atomic bool, holders->len);
	pins = g_new0(_Atomic bool, holders->len);
	wl_cgroups_hold_pages(wl, (struct wl_cgroup **)holders->pdata, holders->len, holds, pins);
	release_init(&rel);
	pthread_rwlock_wrlock(&wl->list_lock);
	for (unsigned i = 0; i < holders->len; i++) {
		struct wl_cgroup *h = holders->pdata[i];
		struct wl_css *to;

		if (!atomic_load_explicit(&holds[i], memory_order_relaxed)) {
			g_ptr_array_remove(wl->cgroups, h);
			active_remove(wl, h);
			if (h->owner)
				g_ptr_array_remove(h->owner->holders, h);
			g_ptr_array_add(rel.csses, wl_css_unref(wl, h->css));
			g_ptr_array_add(gone, h);
		} else if (!atomic_load_explicit(&pins[i], memory_order_relaxed) &&
			   !mcg_memcg_online(wl_memcg(h)) &&
			   (to = wl_css_find(wl, mcg_memcg_objcg_owner(wl_memcg(h))))) {
			css_switch(wl, h, to, &rel);
		}
	}
	pthread_rwlock_unlock(&wl->list_lock);
	g_free(holds);
	g_free(pins);
	g_ptr_array_free(holders, TRUE);
	/* No worker reaches them any more: the last put folds each memcg
	 * (outside every CPU window), and their objects go. */
	for (unsigned i = 0; i < gone->len; i++)
		wl_cgroup_free(gone->pdata[i]);
	g_ptr_array_free(gone, TRUE);
	release_done(wl, &rel);
}

#define SWEEP_PERIOD_NS 100000000ull	/* 100 ms */

/* A worker's round left a holder empty, or holding nothing that pins its
 * killed css: sweep, unless hier_mutex is busy
 * (an rmdir or a profile write, which may wait for this worker's step;
 * the next round tries again). */
static void sweep_if_due(struct mcg_workload *wl)
{
	uint64_t now = now_ns(), last = atomic_load_explicit(&wl->last_sweep_ns,
							       memory_order_relaxed);

	/* Once per SWEEP_PERIOD_NS at most: a sweep waits for every CPU. */
	if (!atomic_load_explicit(&wl->sweep_due, memory_order_relaxed) ||
	    now - last < SWEEP_PERIOD_NS || pthread_mutex_trylock(&wl->hier_mutex))
		return;
	atomic_store_explicit(&wl->last_sweep_ns, now, memory_order_relaxed);
	wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
}

/* After a reclaim that may have emptied holders. */
static void release_emptied_holders(struct mcg_workload *wl)
{
	pthread_mutex_lock(&wl->hier_mutex);
	wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
}

/*
 * rmdir.  The engine takes the cgroup and its css offline (and, in 7.3,
 * folds the css's statistics into the parent css).  What becomes of the
 * pages its tasks held follows the era:
 *
 *  - 7.3 reparents a dead memcg's folios (memcg_reparent_objcgs()): the
 *    pages become the parent css's, ledger by ledger, and so do the
 *    holders' of the css.  Their counters need no change: the parent's
 *    hierarchical counters and page counters include them already, and
 *    the local counts that must follow them were moved by the engine.
 *  - Earlier kernels leave them charged to the dying memcg until they are
 *    freed: the cgroup's tasks' ledgers stay in the pool as a holder of
 *    the css (no tasks, never an OOM victim), its pages reclaimed only by
 *    its ancestors' reclaim, its statistics updated in the dead memcg.
 *    Once it holds nothing it is released (swept at every rmdir, and
 *    after memory.reclaim and force_empty).  A cgroup that holds nothing
 *    at rmdir goes at once.
 *
 * The pages of a cgroup without a css of its own are charged to the
 * nearest ancestor's, its parent's tasks' css: they move to the parent's
 * ledgers in every era.  Holders the cgroup's tasks made stay, ownerless.
 */
/* The destroy of a cgroup, hier_mutex held. */
static int cgroup_destroy_locked(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	bool reparent = mcg_engine_config(wl->e)->kernel.reparent_local;
	struct mcg_profile *idle = NULL;
	struct mcg_cgroup *own = mcg_cgroup_memcg(wl->e, cg);
	struct wl_cgroup *w, *pw;
	struct wl_release rel;
	bool own_css, keep;
	int err;

	err = mcg_cgroup_destroy(wl->e, cg);
	if (err) {
		mcg_cgroup_put(own);
		return err;
	}
	w = mcg_cgroup_workload(cg);
	pw = mcg_cgroup_workload(mcg_cgroup_parent(cg));
	/* Tasks that a destroy other than rmdir found go with the cgroup. */
	if (!atomic_load(&w->idle))
		populated_update(cg, -1);
	/* Decided under the write lock, which no charge to w can pass: a
	 * charge landing between a look and the merge below would move into
	 * the parent's ledger and be uncharged one day from a memcg it was
	 * never charged to. */
	mcg_profile_parse("preset=idle", wl->nr_nodes, &idle);
	release_init(&rel);
	pthread_rwlock_wrlock(&wl->list_lock);
	own_css = own && wl_memcg(w) == own;
	keep = !reparent && own_css && any_ledger_locked(wl, w, wl_ledger_pins_css);
	/* 7.3: the pages of w's css go to the parent css, all but swap */
	if (reparent && own_css)
		wl_reparent(wl, w->css, pw->css, &rel);
	/* The tasks are gone; their holders stay, ownerless. */
	for (unsigned i = 0; w->holders && i < w->holders->len; i++)
		((struct wl_cgroup *)w->holders->pdata[i])->owner = NULL;
	if (w->holders) {
		g_ptr_array_free(w->holders, TRUE);
		w->holders = NULL;
	}
	mcg_cgroup_set_workload(cg, NULL);
	if (keep) {
		struct mcg_profile *old;

		w->holder = true;
		/* Unreachable from cg from now on: a direct charge's dirty
		 * pages must not wait for active_add_if_in_flight(cg).
		 * Exact here: every ledger writer holds list_lock. */
		if (wl_in_flight_anywhere(wl, w))
			active_add(wl, w);
		old = atomic_exchange_explicit(&w->profile, idle, memory_order_acq_rel);
		atomic_store_explicit(&w->idle, true, memory_order_relaxed);
		pthread_rwlock_unlock(&wl->list_lock);
		profile_retire(wl, old);
	} else {
		struct ledgers_call t = { wl, &w, 1, pw, NULL, NULL };

		/* What w holds is charged to pw's css now: the one w shared
		 * (no css of its own), the reparenting's, or, before 7.3, the
		 * obj_cgroup's parent for the kernel memory of a css nothing
		 * pins (memcg_reparent_objcgs()). */
		g_assert(!own_css || reparent || !any_ledger_locked(wl, w, wl_ledger_pins_css));
		mcg_profile_free(idle);
		g_ptr_array_remove(wl->cgroups, w);
		active_remove(wl, w);
		g_ptr_array_add(rel.csses, wl_css_unref(wl, w->css));
		pthread_rwlock_unlock(&wl->list_lock);
		/* No worker reaches w any more; each CPU's ledger moves as that
		 * CPU (a no-op for an empty one). */
		mcg_engine_on_each_cpu(wl->e, ledger_merge_on_cpu, &t);
		/* w's writeback goes on in the parent, which may be stopped. */
		active_add_if_in_flight(wl, pw->cg);
		wl_cgroup_free(w);
	}
	release_done(wl, &rel);
	mcg_cgroup_put(own);
	wl_sweep_holders(wl);
	return 0;
}

int mcg_workload_cgroup_destroy(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	int err;

	pthread_mutex_lock(&wl->hier_mutex);
	err = cgroup_destroy_locked(wl, cg);
	pthread_mutex_unlock(&wl->hier_mutex);
	return err;
}

int mcg_workload_cgroup_rmdir(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	int err;

	/* Under hier_mutex, which profile changes take too: no task can
	 * arrive between the check and the removal. */
	pthread_mutex_lock(&wl->hier_mutex);
	err = mcg_workload_cgroup_populated(wl, cg, NULL) ? -EBUSY : cgroup_destroy_locked(wl, cg);
	pthread_mutex_unlock(&wl->hier_mutex);
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
static void tasks_exit_all_cpus(struct mcg_workload *wl, struct wl_cgroup *w)
{
	struct tasks_exit_call t = { wl, w };

	mcg_engine_on_each_cpu(wl->e, tasks_exit_on_cpu, &t);
}

/* Swaps w's profile for p (taking it) and, when a busy profile becomes
 * idle, lets the tasks exit.  Caller holds list_lock for reading. */
static void profile_swap(struct mcg_workload *wl, struct wl_cgroup *w, struct mcg_profile *p)
{
	struct mcg_profile *old = atomic_exchange_explicit(&w->profile, p, memory_order_acq_rel);
	bool now_idle = mcg_profile_is_idle(p);
	bool was_idle = atomic_exchange_explicit(&w->idle, now_idle, memory_order_relaxed);

	if (was_idle != now_idle)
		populated_update(w->cg, was_idle ? 1 : -1);
	if (was_idle || !now_idle) {
		profile_retire(wl, old);
		return;
	}
	/* The tasks exit: no step may run the busy profile after them. */
	wl_sync_steps(wl);
	mcg_profile_free(old);
	tasks_exit_all_cpus(wl, w);
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
			active_add(wl, w);
		pthread_rwlock_unlock(&wl->list_lock);
		pthread_rwlock_rdlock(&wl->list_lock);
		w = mcg_cgroup_workload(cg);
	}
	if (w)
		profile_swap(wl, w, p);
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
			populated_update(cg, 1);
	} else if (w->nr_host_tasks > 0) {
		if (--w->nr_host_tasks == 0)
			populated_update(cg, -1);
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

/*
 * Host task groups.  A host process's memory (src/host) is charged to a
 * task group of its own, a wl_cgroup the workers never step: the host
 * module charges what the process gained since it last looked and frees
 * what it gave back, page by page through the same charge path as the
 * emulated tasks' pages (the CPU's stock, the page counters, at a limit
 * "max", reclaim, the stock drain and the OOM killer, the statistics of
 * the kernel path that makes such a page).  So the process is a task
 * group like any other: reclaim takes from its ledgers (page cache; anon
 * only where its profile would swap, which a host group's, idle, does
 * not), and the OOM killer may choose it, which then kills the process
 * itself.  A move to another cgroup is wl_split(): what the ledgers hold
 * stays charged to the old css in a holder the group owns (v2 and v1
 * without move_charge_at_immigrate), later charges go to the new css; a
 * free takes the group's own pages first, then its holders' from the
 * newest.  The process's exit is tasks_exit_with_holders(), as an
 * emulated task group's: anon, shmem, stacks and page tables go, page
 * cache stays charged, in an ownerless holder that reclaim or a sweep
 * ends.
 */
struct mcg_host_group;

static struct wl_cgroup *host_wl(struct mcg_host_group *g)
{
	return (struct wl_cgroup *)g;
}

int mcg_workload_host_group_new(struct mcg_workload *wl, struct mcg_cgroup *cg, int pidfd,
				struct mcg_host_group **out)
{
	struct mcg_profile *idle = NULL;
	struct wl_cgroup *tw, *w = NULL;

	if (mcg_profile_parse("preset=idle", wl->nr_nodes, &idle))
		return -ENOMEM;
	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_wrlock(&wl->list_lock);
	tw = mcg_cgroup_workload(cg);
	if (tw && !tw->holder) {
		w = wl_cgroup_new(wl, cg, idle);
		w->host = true;
		w->host_pidfd = pidfd;
		/* the css cg's tasks charge: its own, or an ancestor's */
		w->css = wl_css_ref(wl, tw->css);
		w->order = wl->next_order++;
		g_ptr_array_add(wl->cgroups, w);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	pthread_mutex_unlock(&wl->hier_mutex);
	if (!w) {
		mcg_profile_free(idle);
		return -ENODEV;
	}
	*out = (struct mcg_host_group *)w;
	return 0;
}

int mcg_workload_host_group_move(struct mcg_workload *wl, struct mcg_host_group *g,
				 struct mcg_cgroup *cg)
{
	struct wl_cgroup *w = host_wl(g), *tw;
	struct wl_release rel;
	int err = 0;

	release_init(&rel);
	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_wrlock(&wl->list_lock);
	tw = mcg_cgroup_workload(cg);
	if (!tw || tw->holder) {
		err = -ENODEV;
	} else if (w->cg != cg) {
		wl_split(wl, w, tw->css, &rel);
		g_ptr_array_add(rel.cgroups, w->cg);
		w->cg = mcg_cgroup_get(cg);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	pthread_mutex_unlock(&wl->hier_mutex);
	release_done(wl, &rel);
	return err;
}

long mcg_workload_host_group_charge(struct mcg_workload *wl, struct mcg_host_group *g,
				    enum mcg_page_kind kind, unsigned cpu, int nid, long pages)
{
	struct wl_cgroup *w = host_wl(g);
	bool killed = false;
	long done = 0;

	if (!charge_args_valid(wl, kind, cpu, nid) || pages < 0)
		return -EINVAL;
	if (atomic_load(&w->host_oom_killed))
		return -ESRCH;
	pthread_rwlock_rdlock(&wl->list_lock);
	if (pages)
		done = charge_pages(wl, w, kind, cpu, nid, pages, &killed);
	pthread_rwlock_unlock(&wl->list_lock);
	return killed || atomic_load(&w->host_oom_killed) ? -ESRCH : done;
}

long mcg_workload_host_group_free(struct mcg_workload *wl, struct mcg_host_group *g,
				  enum mcg_page_kind kind, long pages)
{
	struct wl_cgroup *w = host_wl(g);
	long freed = 0;

	if ((unsigned)kind >= MCG_NR_PAGE_KINDS || pages < 0)
		return -EINVAL;
	pthread_rwlock_rdlock(&wl->list_lock);
	/* the group's own pages, then its holders', newest first; each on
	 * every CPU it charged them on (list_lock keeps the holders) */
	for (unsigned i = 0, nh = w->holders ? w->holders->len : 0; i <= nh && freed < pages; i++) {
		struct wl_cgroup *from = i == 0 ? w : w->holders->pdata[nh - i];

		for (unsigned c = 0; c < wl->nr_cpus && freed < pages; c++) {
			struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, c), c, 0, NULL };
			long got = 0;

			mcg_cpu_enter(x.cpu);
			for (unsigned nid = 0; nid < wl->nr_nodes && freed + got < pages; nid++)
				got += wl_page_free(&x, from, (int)nid, kind, pages - freed - got);
			if (from->holder)
				wl_holder_freed(&x, from, got);
			mcg_cpu_exit(x.cpu);
			freed += got;
		}
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (atomic_load_explicit(&wl->sweep_due, memory_order_relaxed))
		release_emptied_holders(wl);
	return freed;
}

void mcg_workload_host_group_exit(struct mcg_workload *wl, struct mcg_host_group *g)
{
	struct wl_cgroup *w = host_wl(g);
	struct wl_release rel;
	bool keep;

	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	tasks_exit_all_cpus(wl, w);
	pthread_rwlock_unlock(&wl->list_lock);
	release_init(&rel);
	pthread_rwlock_wrlock(&wl->list_lock);
	/* its holders stay, ownerless, until emptied */
	for (unsigned i = 0; w->holders && i < w->holders->len; i++)
		((struct wl_cgroup *)w->holders->pdata[i])->owner = NULL;
	if (w->holders) {
		g_ptr_array_free(w->holders, TRUE);
		w->holders = NULL;
	}
	w->host = false;
	w->host_pidfd = -1;
	keep = any_ledger_locked(wl, w, wl_ledger_holds_pages);
	if (keep) {
		/* page cache: a holder of its css, which belongs to the css's
		 * cgroup and pins no other (holder_new()) */
		w->holder = true;
		g_ptr_array_add(rel.cgroups, w->cg);
		w->cg = mcg_cgroup_get(mcg_memcg_cgroup(w->css->css));
		if (wl_in_flight_anywhere(wl, w))
			active_add(wl, w);
	} else {
		g_ptr_array_remove(wl->cgroups, w);
		active_remove(wl, w);
		g_ptr_array_add(rel.csses, wl_css_unref(wl, w->css));
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (!keep)
		wl_cgroup_free(w);
	wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
	release_done(wl, &rel);
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
			active_add(wl, w);
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
			profile_swap(wl, w, idle);
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
	 * swap has closed (profile_retire()): read it inside one, like the
	 * workers. */
	if (w) {
		struct mcg_cpu *cpu = mcg_engine_cpu(wl->e, 0);
		struct mcg_profile *copy;

		mcg_cpu_enter(cpu);
		copy = profile_copy(atomic_load_explicit(&w->profile, memory_order_acquire));
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
			freed = oom_kill(&x, cg);
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
	release_emptied_holders(wl);
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
	release_emptied_holders(wl);
	return err;
}
