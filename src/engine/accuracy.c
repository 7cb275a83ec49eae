/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accuracy: how far what a reader of memory.stat is shown lies from the
 * exact sum at that moment, and how old it is.
 *
 * Every flushing patch trades cost against accuracy: a threshold, a
 * ratelimit or a skipped flush saves work by showing older numbers.  The
 * kernel cannot say how old or how wrong; the emulation can, because it
 * holds every per-CPU count.  The hierarchical value of item i in cgroup
 * cg that a read shows is the aggregate the flushes built; the exact one
 * adds what no flush has folded into cg yet, anywhere in its subtree:
 *
 *     exact(cg, i) = shown(cg, i) + sum over d in subtree(cg), cg included,
 *                    of mcg_stat_unflushed(d, i, MCG_HIERARCHICAL)
 *
 * (d's per-CPU changes no flush visited, plus what d's children pushed
 * into d's pending counts and d has not folded).  A sample is taken right
 * after a read's flush and render, over every memcg-wide state and event
 * item of the layout (the memory.stat items; the v1 locals summed per CPU
 * are exact by construction): the largest error in pages (events count
 * one each, byte items are converted), the largest relative error among
 * items whose exact value is not 0, and the data's age, the time since the
 * last flush of cg or of an ancestor (which covers cg) began, or since cg
 * was made if none has (its data is then its first, all zero).  Eras
 * without a memcg flush (5.10's batched atomics) have no age; their
 * errors are the per-CPU batches.
 *
 * On a live mount updates land between the read and the sample, so the
 * error is the read's plus what changed meanwhile (microseconds of the
 * workload), and a flush that lands in between (the sample takes no lock)
 * folds some of what it counts as missing; on a manual clock nothing
 * moves and the figures are exact.  The percent error of a rare counter
 * (pgmajfault at 7 shown 0) is 100% however few pages it is: read it with
 * the error in pages.
 * A sample costs a walk of the subtree over every CPU and item, which is
 * why it is taken only on request (--accuracy) and outside the read's
 * timing.
 *
 * The samples go into a ring of the last MCG_ACCURACY_SAMPLES reads,
 * under accuracy_lock (readers only; never the update path), from which
 * mcg_accuracy_summary() takes percentiles.
 */
#include "engine/internal.h"

#include <math.h>
#include <stdlib.h>

struct accuracy_walk {
	const struct mcg_engine *e;
	double err[MCG_NR_ITEMS];	/* sum of unflushed, per item */
};

static void add_unflushed(struct mcg_cgroup *d, void *arg)
{
	struct accuracy_walk *w = arg;
	const struct mcg_layout *l = w->e->layout;

	for (unsigned i = 0; i < MCG_NR_ITEMS; i++)
		if (l->kind[i] == MCG_KIND_NODE || l->kind[i] == MCG_KIND_MEMCG ||
		    l->kind[i] == MCG_KIND_EVENT)
			w->err[i] += (double)mcg_stat_unflushed(w->e, d, -1, (enum mcg_item)i,
								MCG_HIERARCHICAL);
}

void mcg_accuracy_measure(struct mcg_engine *e, struct mcg_cgroup *cg,
			  struct mcg_accuracy_sample *out)
{
	const struct mcg_layout *l = e->layout;
	struct accuracy_walk *w = g_new0(struct accuracy_walk, 1);
	int64_t flushed = INT64_MIN;

	w->e = e;
	mcg_cgroup_walk(e, cg, add_unflushed, w);
	out->err_pages = 0;
	out->err_pct = 0;
	for (unsigned i = 0; i < MCG_NR_ITEMS; i++) {
		double shown, exact, pages;

		if (l->kind[i] != MCG_KIND_NODE && l->kind[i] != MCG_KIND_MEMCG &&
		    l->kind[i] != MCG_KIND_EVENT)
			continue;
		shown = (double)mcg_stat_read_raw(e, cg, (enum mcg_item)i, MCG_HIERARCHICAL);
		exact = shown + w->err[i];
		pages = fabs(w->err[i]);
		if (l->kind[i] != MCG_KIND_EVENT)
			pages = pages * (double)e->item_path[i].unit_bytes / MCG_PAGE_SIZE;
		out->err_pages = fmax(out->err_pages, pages);
		if (exact != 0)
			out->err_pct = fmax(out->err_pct, 100 * fabs(w->err[i]) / fabs(exact));
	}
	g_free(w);
	for (const struct mcg_cgroup *a = cg; a; a = a->parent) {
		int64_t t = atomic_load_explicit(&a->flushed_ns, memory_order_relaxed);

		if (t > flushed)
			flushed = t;
	}
	out->age_ns = e->cfg.kernel.flush == MCG_FLUSH_NONE ? NAN
							    : (double)(engine_now_ns(e) - flushed);
}

void mcg_accuracy_record(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	struct mcg_accuracy_sample s;

	mcg_accuracy_measure(e, cg, &s);
	pthread_mutex_lock(&e->accuracy_lock);
	e->accuracy[e->accuracy_reads % MCG_ACCURACY_SAMPLES] = s;
	e->accuracy_reads++;
	pthread_mutex_unlock(&e->accuracy_lock);
}

void mcg_accuracy_reset(struct mcg_engine *e)
{
	pthread_mutex_lock(&e->accuracy_lock);
	e->accuracy_reads = 0;
	pthread_mutex_unlock(&e->accuracy_lock);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of v[0..n), sorted: nearest rank, NAN for none. */
static double quantile(const double *v, size_t n, double q)
{
	size_t k;

	if (n == 0)
		return NAN;
	k = (size_t)ceil(q * (double)n);
	return v[k ? k - 1 : 0];
}

void mcg_accuracy_summary(struct mcg_engine *e, struct mcg_accuracy_summary *out)
{
	size_t n, nage = 0;
	double *pages, *pct, *age;

	pthread_mutex_lock(&e->accuracy_lock);
	out->reads = e->accuracy_reads;
	n = out->reads < MCG_ACCURACY_SAMPLES ? out->reads : MCG_ACCURACY_SAMPLES;
	pages = g_new(double, n + 1);
	pct = g_new(double, n + 1);
	age = g_new(double, n + 1);
	for (size_t i = 0; i < n; i++) {
		pages[i] = e->accuracy[i].err_pages;
		pct[i] = e->accuracy[i].err_pct;
		if (!isnan(e->accuracy[i].age_ns))
			age[nage++] = e->accuracy[i].age_ns;
	}
	pthread_mutex_unlock(&e->accuracy_lock);
	out->samples = n;
	qsort(pages, n, sizeof(double), cmp_double);
	qsort(pct, n, sizeof(double), cmp_double);
	qsort(age, nage, sizeof(double), cmp_double);
	out->err_pages_p50 = quantile(pages, n, 0.5);
	out->err_pages_p99 = quantile(pages, n, 0.99);
	out->err_pages_max = quantile(pages, n, 1);
	out->err_pct_p50 = quantile(pct, n, 0.5);
	out->err_pct_p99 = quantile(pct, n, 0.99);
	out->err_pct_max = quantile(pct, n, 1);
	out->age_ns_p50 = quantile(age, nage, 0.5);
	out->age_ns_p99 = quantile(age, nage, 0.99);
	out->age_ns_max = quantile(age, nage, 1);
	g_free(pages);
	g_free(pct);
	g_free(age);
}
