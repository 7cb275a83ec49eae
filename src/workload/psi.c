/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pressure stall information of the emulated tasks (see workload.h). */
#include "workload/internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * PSI from the emulated stalls
 * ----------------------------
 * The kernel (kernel/sched/psi.c) keeps, per cgroup and CPU, the time its
 * tasks were non-idle and the time some (at least one) or all of them were
 * stalled on memory (psi_memstall_enter()/leave()).  collect_percpu_times()
 * folds the CPUs together weighting each by its non-idle time, total= is the
 * running sum, and every 2 s (psi_period) update_averages() turns the
 * period's share of stalled time into the decaying avg10/avg60/avg300
 * (calc_avgs(): fixed point, EXP_10s/60s/300s).  A task's stall shows in its
 * cgroup and every ancestor's group.
 *
 * The emulated tasks are a cgroup's program, one thread per emulated CPU
 * (workload.h).  Each step of a worker is emulated time on that CPU: a busy
 * cgroup's thread runs (run_ns) the whole step, and stalls (memstall_ns)
 * where the kernel calls psi_memstall_enter():
 *  - direct reclaim of a charge over a limit, and memory.high's reclaim
 *    (try_to_free_mem_cgroup_pages()): WL_PSI_SCAN_NS_PER_PAGE per page
 *    scanned, a cost model of shrink_folio_list()'s work, and
 *    WL_PSI_LRUVEC_PASS_NS per lruvec walked at each priority, all 13 of
 *    them when it falls short (reclaim_stall_ns() in workload.c), so a
 *    reclaim that finds nothing stalls too;
 *  - memory.high's throttle sleep (__mem_cgroup_handle_over_high(), the
 *    penalty of calculate_high_delay() at HZ=250, at most 2 s): the task
 *    sleeps, so its next steps make no page events for that long;
 *  - the read of a workingset refault, anonymous or file
 *    (swap_read_folio(), filemap's workingset read): WL_PSI_REFAULT_NS each.
 * A stall is capped by the time the step covers.
 *
 * A group's per-CPU figures come from its subtree's threads on that CPU:
 * non-idle is the time its k busy threads ran (each the whole step), some
 * the stalls summed (the threads take turns on the CPU), at most the
 * non-idle time, full what is left when the k stalls overlap as little as
 * they can (sum - (k - 1) x non-idle), for one thread the same as some.
 * The pool's collection runs on every read of a pressure file and every 2 s
 * of emulated time (the fs notifier, or mcg_workload_clock_advance()), as
 * psi_avgs_work() does; the averages take the kernel's fixed-point decay
 * (calc_avgs()), in 64-bit arithmetic throughout and with the CPUs
 * weighted by non-idle nanoseconds rather than jiffies.
 * cpu.pressure and io.pressure stay 0: no CPU or I/O contention is emulated.
 */

#define PSI_PERIOD_NS 2000000000ull	/* psi_period: PSI_FREQ, 2 s */
#define FSHIFT 11
#define FIXED_1 (1ul << FSHIFT)
#define EXP_10s 1677
#define EXP_60s 1981
#define EXP_300s 2034

struct wl_psi {
	uint64_t *last_run, *last_stall;	/* [nr_cpus]: own ledgers at the last collection */
	uint64_t total[2];			/* some, full: ns */
	uint64_t avg_total[2];
	unsigned long avg[2][3];		/* FIXED_1 fixed point */
	uint64_t avg_last_update, avg_next_update;
	/* Scratch of a collection: the subtree's threads on each CPU. */
	uint64_t *sum_run, *sum_stall;
	unsigned *busy;
};

struct wl_psi *wl_psi_new(unsigned nr_cpus, uint64_t now)
{
	struct wl_psi *psi = g_new0(struct wl_psi, 1);

	psi->last_run = g_new0(uint64_t, nr_cpus);
	psi->last_stall = g_new0(uint64_t, nr_cpus);
	psi->sum_run = g_new0(uint64_t, nr_cpus);
	psi->sum_stall = g_new0(uint64_t, nr_cpus);
	psi->busy = g_new0(unsigned, nr_cpus);
	/* group_init(): the first averaging a period from now */
	psi->avg_last_update = now;
	psi->avg_next_update = now + PSI_PERIOD_NS;
	return psi;
}

void wl_psi_free(struct wl_psi *psi)
{
	if (!psi)
		return;
	g_free(psi->last_run);
	g_free(psi->last_stall);
	g_free(psi->sum_run);
	g_free(psi->sum_stall);
	g_free(psi->busy);
	g_free(psi);
}

void wl_memstall(struct wl_ctx *x, struct wl_cgroup *w, uint64_t ns)
{
	per_cpu_count(&wl_ledger(w, x->cpu_id)->memstall_ns, ns);
}

/* calc_load() and calc_load_n() (include/linux/sched/loadavg.h,
 * kernel/sched/loadavg.c). */
static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

static unsigned long fixed_power_int(unsigned long x, unsigned n)
{
	unsigned long result = FIXED_1;

	if (n) {
		for (;;) {
			if (n & 1) {
				result *= x;
				result += 1ul << (FSHIFT - 1);
				result >>= FSHIFT;
			}
			n >>= 1;
			if (!n)
				break;
			x *= x;
			x += 1ul << (FSHIFT - 1);
			x >>= FSHIFT;
		}
	}
	return result;
}

static void calc_avgs(unsigned long avg[3], unsigned missed, uint64_t time, uint64_t period)
{
	static const unsigned long exps[3] = { EXP_10s, EXP_60s, EXP_300s };
	unsigned long pct;

	for (int i = 0; i < 3; i++)
		if (missed)
			avg[i] = calc_load(avg[i], fixed_power_int(exps[i], missed), 0);
	pct = (unsigned long)(time * 100 / period) * FIXED_1;
	for (int i = 0; i < 3; i++)
		avg[i] = calc_load(avg[i], exps[i], pct);
}

/* update_averages(): the periods since the last, zeroes for the missed. */
static void update_averages(struct wl_psi *psi, uint64_t now)
{
	uint64_t expires = psi->avg_next_update, period;
	unsigned missed = 0;

	if (now - expires >= PSI_PERIOD_NS)
		missed = (unsigned)((now - expires) / PSI_PERIOD_NS);
	psi->avg_next_update = expires + (1 + (uint64_t)missed) * PSI_PERIOD_NS;
	period = now - (psi->avg_last_update + (uint64_t)missed * PSI_PERIOD_NS);
	psi->avg_last_update = now;
	for (int s = 0; s < 2; s++) {
		uint64_t sample = psi->total[s] - psi->avg_total[s];

		if (sample > period)
			sample = period;
		psi->avg_total[s] += sample;
		calc_avgs(psi->avg[s], missed, sample, period ? period : 1);
	}
}

/* collect_percpu_times() for every group at once.  Caller holds psi_lock
 * and list_lock for reading. */
static void collect(struct mcg_workload *wl, uint64_t now)
{
	GPtrArray *list = wl->cgroups;
	unsigned cpus = wl->nr_cpus;

	for (unsigned i = 0; i < list->len; i++) {
		struct wl_psi *psi = ((struct wl_cgroup *)list->pdata[i])->psi;

		memset(psi->sum_run, 0, cpus * sizeof(*psi->sum_run));
		memset(psi->sum_stall, 0, cpus * sizeof(*psi->sum_stall));
		memset(psi->busy, 0, cpus * sizeof(*psi->busy));
	}
	/* Each thread's time since the last collection, into its group and
	 * every ancestor's. */
	for (unsigned i = 0; i < list->len; i++) {
		struct wl_cgroup *w = list->pdata[i];

		for (unsigned c = 0; c < cpus; c++) {
			const struct wl_ledger *l = wl_ledger(w, c);
			uint64_t run = atomic_load_explicit(&l->run_ns, memory_order_relaxed);
			uint64_t stall = atomic_load_explicit(&l->memstall_ns, memory_order_relaxed);
			uint64_t d_run = run - w->psi->last_run[c];
			uint64_t d_stall = stall - w->psi->last_stall[c];

			w->psi->last_run[c] = run;
			w->psi->last_stall[c] = stall;
			if (!d_run && !d_stall)
				continue;
			for (struct mcg_cgroup *a = w->cg; a; a = mcg_cgroup_parent(a)) {
				struct wl_cgroup *aw = mcg_cgroup_workload(a);

				if (!aw)
					continue;	/* a removed ancestor's */
				aw->psi->sum_run[c] += d_run;
				aw->psi->sum_stall[c] += d_stall;
				aw->psi->busy[c] += d_run > 0;
			}
		}
	}
	for (unsigned i = 0; i < list->len; i++) {
		struct wl_psi *psi = ((struct wl_cgroup *)list->pdata[i])->psi;
		double weighted[2] = { 0, 0 }, nonidle_total = 0;

		for (unsigned c = 0; c < cpus; c++) {
			unsigned k = psi->busy[c];
			double nonidle, some, full;

			if (!k)
				continue;
			nonidle = (double)psi->sum_run[c] / k;
			some = MIN((double)psi->sum_stall[c], nonidle);
			full = (double)psi->sum_stall[c] - (double)(k - 1) * nonidle;
			full = CLAMP(full, 0.0, some);
			weighted[0] += some * nonidle;
			weighted[1] += full * nonidle;
			nonidle_total += nonidle;
		}
		if (nonidle_total > 0)
			for (int s = 0; s < 2; s++)
				psi->total[s] += (uint64_t)(weighted[s] / nonidle_total);
		if (now >= psi->avg_next_update)
			update_averages(psi, now);
	}
}

void mcg_workload_psi_update(struct mcg_workload *wl)
{
	uint64_t now = mcg_engine_clock_ns(wl->e);

	pthread_mutex_lock(&wl->psi_lock);
	if (now >= wl->psi_next_update) {
		pthread_rwlock_rdlock(&wl->list_lock);
		collect(wl, now);
		pthread_rwlock_unlock(&wl->list_lock);
		wl->psi_next_update = now + PSI_PERIOD_NS;
	}
	pthread_mutex_unlock(&wl->psi_lock);
}

void mcg_workload_psi_collect(struct mcg_workload *wl)
{
	uint64_t now = mcg_engine_clock_ns(wl->e);

	pthread_mutex_lock(&wl->psi_lock);
	pthread_rwlock_rdlock(&wl->list_lock);
	collect(wl, now);
	pthread_rwlock_unlock(&wl->list_lock);
	pthread_mutex_unlock(&wl->psi_lock);
}

int mcg_workload_psi_read(struct mcg_workload *wl, struct mcg_cgroup *cg, struct mcg_psi *out)
{
	struct wl_cgroup *w;
	int err = -ENODEV;

	pthread_mutex_lock(&wl->psi_lock);
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	if (w) {
		for (int s = 0; s < 2; s++) {
			out->total_ns[s] = w->psi->total[s];
			for (int i = 0; i < 3; i++)
				out->avg[s][i] = w->psi->avg[s][i];
		}
		err = 0;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	pthread_mutex_unlock(&wl->psi_lock);
	return err;
}

int mcg_workload_psi(struct mcg_workload *wl, struct mcg_cgroup *cg, struct mcg_psi *out)
{
	mcg_workload_psi_collect(wl);
	return mcg_workload_psi_read(wl, cg, out);
}
