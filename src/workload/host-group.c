/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host task groups: the workload's side of src/host, a host process's
 * pages charged through the emulated tasks' charge path. */
#include "workload/internal.h"

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

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

	wl_release_init(&rel);
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
	wl_release_done(wl, &rel);
	return err;
}

long mcg_workload_host_group_charge(struct mcg_workload *wl, struct mcg_host_group *g,
				    enum mcg_page_kind kind, unsigned cpu, int nid, long pages,
				    uint64_t *throttle_ns)
{
	struct wl_cgroup *w = host_wl(g);
	bool killed = false;
	long done = 0;

	if (throttle_ns)
		*throttle_ns = 0;
	if (!wl_charge_args_valid(wl, kind, cpu, nid) || pages < 0)
		return -EINVAL;
	if (atomic_load(&w->host_oom_killed))
		return -ESRCH;
	pthread_rwlock_rdlock(&wl->list_lock);
	if (pages)
		done = wl_charge_pages(wl, w, kind, cpu, nid, pages, &killed, throttle_ns);
	pthread_rwlock_unlock(&wl->list_lock);
	return killed || atomic_load(&w->host_oom_killed) ? -ESRCH : done;
}

/* What a host process gives back or has swapped: op(x, w, nid, n, arg)
 * over the group's own ledgers, then its holders' from the newest, each
 * on every CPU it charged on and every node, until `pages` are done; the
 * pages done.  Holders that op empties are swept. */
typedef long host_group_op(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n,
			   const void *arg);

static long host_group_each(struct mcg_workload *wl, struct wl_cgroup *w, long pages,
			    host_group_op *op, const void *arg)
{
	long done = 0;

	pthread_rwlock_rdlock(&wl->list_lock);
	/* list_lock keeps the holders */
	for (unsigned i = 0, nh = w->holders ? w->holders->len : 0; i <= nh && done < pages; i++) {
		struct wl_cgroup *from = i == 0 ? w : w->holders->pdata[nh - i];

		for (unsigned c = 0; c < wl->nr_cpus && done < pages; c++) {
			struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, c), c, 0, NULL };
			long got = 0;

			mcg_cpu_enter(x.cpu);
			for (unsigned nid = 0; nid < wl->nr_nodes && done + got < pages; nid++)
				got += op(&x, from, (int)nid, pages - done - got, arg);
			if (from->holder)
				wl_holder_freed(&x, from, got);
			mcg_cpu_exit(x.cpu);
			done += got;
		}
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (atomic_load_explicit(&wl->sweep_due, memory_order_relaxed))
		wl_release_emptied_holders(wl);
	return done;
}

static long free_op(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n, const void *arg)
{
	return wl_page_free(x, w, nid, *(const enum mcg_page_kind *)arg, n);
}

long mcg_workload_host_group_free(struct mcg_workload *wl, struct mcg_host_group *g,
				  enum mcg_page_kind kind, long pages)
{
	if ((unsigned)kind >= MCG_NR_PAGE_KINDS || pages < 0)
		return -EINVAL;
	return host_group_each(wl, host_wl(g), pages, free_op, &kind);
}

static long swap_out_op(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n, const void *arg)
{
	(void)arg;
	return wl_page_swap_out(x, w, nid, n);
}

static long swap_free_op(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n, const void *arg)
{
	(void)arg;
	return wl_page_swap_free(x, w, nid, n);
}

long mcg_workload_host_group_swap(struct mcg_workload *wl, struct mcg_host_group *g, long pages)
{
	if (pages > 0)
		return host_group_each(wl, host_wl(g), pages, swap_out_op, NULL);
	return -host_group_each(wl, host_wl(g), -pages, swap_free_op, NULL);
}

void mcg_workload_host_group_exit(struct mcg_workload *wl, struct mcg_host_group *g)
{
	struct wl_cgroup *w = host_wl(g);
	struct wl_release rel;
	bool keep;

	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	wl_tasks_exit_all_cpus(wl, w);
	pthread_rwlock_unlock(&wl->list_lock);
	wl_release_init(&rel);
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
	keep = wl_any_ledger_locked(wl, w, wl_ledger_holds_pages);
	if (keep) {
		/* page cache: a holder of its css, which belongs to the css's
		 * cgroup and pins no other (holder_new()) */
		w->holder = true;
		g_ptr_array_add(rel.cgroups, w->cg);
		w->cg = mcg_cgroup_get(mcg_memcg_cgroup(w->css->css));
		if (wl_in_flight_anywhere(wl, w))
			wl_active_add(wl, w);
	} else {
		g_ptr_array_remove(wl->cgroups, w);
		wl_active_remove(wl, w);
		g_ptr_array_add(rel.csses, wl_css_unref(wl, w->css));
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (!keep)
		wl_cgroup_free(w);
	wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
	wl_release_done(wl, &rel);
}

void mcg_workload_host_group_set_unkillable(struct mcg_host_group *g, bool unkillable)
{
	atomic_store(&host_wl(g)->host_oom_unkillable, unkillable);
}
