/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Seed 004: "memcg remove css_get/put per pages" (an RFC against 2.6.35),
 * on any release (5.10 by default).
 *
 * Before, each charged page took a css reference with css_tryget() on the
 * css's one atomic and dropped it at its uncharge with css_put(); the
 * RFC's after takes no reference per page but reads mm->owner's memcg
 * under task_lock(mm->owner), a spinlock the process's threads share.
 * 2.6.35 itself is not modelled: both charge paths are grafted onto the
 * chosen release's (the knob `css_ref`), and what a 2.6.35 fault costs
 * besides memcg (clearing the page, the allocator, mmap_sem) the
 * experiment adds as a measured fixed cost per fault (fault_work).
 *
 * The experiment follows.
 */
#include "patches/patches.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/workload.h"

#define SOURCE "seed 004 (004_1f72ee0d30b3a5a7.txt)"

static void seed004_before(struct mcg_kernel *k)
{
	k->css_ref = MCG_CSS_REF_PER_PAGE_ATOMIC;
}

static void seed004_after(struct mcg_kernel *k)
{
	k->css_ref = MCG_CSS_REF_OWNER_TASK_LOCK;
}

/* ---- seed 004: the multi-fault workload against threads ----
 *
 * Before (2.6.35) each charged page took a css reference with
 * try_get_mem_cgroup_from_mm()'s css_tryget() and dropped it at its
 * uncharge with css_put(): two read-modify-writes per page on the one
 * atomic every faulting CPU shares.  The RFC's after takes no reference
 * per page but reads the memcg of mm->owner under task_lock(mm->owner), a
 * spinlock every thread of the process takes per fault (its
 * _raw_spin_lock rises from 2.37% to 11.73% of the profile).  Both charge
 * paths are modelled (MCG_CSS_REF_PER_PAGE_ATOMIC and _OWNER_TASK_LOCK).
 *
 * Like for like.  The seed gives two profiles, not a time: with a fixed
 * run on busy CPUs the samples are a fixed total, so a symbol doing fixed
 * work per fault takes a share proportional to the faults done.
 * clear_page_c, the largest and a pure per-fault cost, goes from 25.72% to
 * 26.16%: the after faults 1.017x as fast; the refcounting the patch
 * removes (17.2% of cycles) bounds any gain at 1.21x.  An emulated fault
 * has none of the fixed work (no page to clear, no allocator, no
 * mmap_sem), so its shared atomic would be nearly half its cost: the
 * profile's fault_work adds, per fault, the CPU time a real anonymous
 * fault and its unmap take on this machine (exp_real_fault_ns()), measured
 * before the pairs and turned into one loop count for both daemons
 * (mcg_fault_work_per_ns()).  That real fault also pays this kernel's own memcg charge,
 * so the fixed part is overstated by that much and the ratio, if
 * anything, understated. */

static int seed004_experiment(const struct mcg_patch *patch, const struct exp_options *o,
			      const char *tmp, struct exp_report *r)
{
	/* Each thread count with the fixed cost; at 2 threads (this
	 * machine's cores, the headline) also without it, the memcg part
	 * alone. */
	static const struct { unsigned threads; bool fixed; } full[] = {
		{ 1, true }, { 2, true }, { 2, false }, { 4, true }, { 8, true },
	}, quick[] = { { 1, true }, { 2, true }, { 2, false } };
	const __typeof__(full[0]) *runs = o->quick ? quick : full;
	unsigned nruns = o->quick ? G_N_ELEMENTS(quick) : G_N_ELEMENTS(full);
	double fault_ns = exp_real_fault_ns(), work;

	if (isnan(fault_ns)) {
		fprintf(stderr, "seed004: cannot map 64 MiB to time a real fault\n");
		return -1;
	}
	work = fault_ns * mcg_fault_work_per_ns();
	exp_progress("seed004: a real anonymous fault and its unmap take %.0f ns of CPU here: "
		 "fault_work=%.0f", fault_ns, work);
	r->title = "multi-fault: one process faulting and unmapping flat out: css_tryget/css_put "
		   "per page (2.6.35) vs task_lock(mm->owner) per charge (the RFC)";
	g_strlcpy(r->xlabel, "threads (emulated CPUs)", sizeof(r->xlabel));
	g_strlcpy(r->ylabel, "workers' CPU ns per page fault", sizeof(r->ylabel));
	r->logx = true;
	for (unsigned k = 0; k < nruns; k++) {
		unsigned threads = runs[k].threads;
		bool fixed = runs[k].fixed;
		struct exp_daemon d[2];
		char cpus_opt[32], what[128], profile[96];
		const char *opts[] = { "--hierarchy=v1", cpus_opt, NULL };
		/* Daemon pairs (experiment.h), each measured in `per` pairs. */
		const unsigned blocks = o->quick ? 2 : 6;
		unsigned per = threads == 2 ? (o->quick ? 4 : 5) : (o->quick ? 2 : 5);
		unsigned pairs = blocks * per;
		double ns[2][EXP_MAX_PAIRS];
		struct exp_result *row;

		g_snprintf(cpus_opt, sizeof(cpus_opt), "--cpus=%u", threads);
		g_snprintf(profile, sizeof(profile), "anon=100000000 footprint=16M fault_work=%.0f",
			   fixed ? work : 0);
		exp_progress("seed004: %u threads, %s, %u daemon pairs", threads,
			 fixed ? "fixed cost" : "memcg alone", blocks);
		r->blocks = blocks;
		for (unsigned blk = 0; blk < blocks; blk++) {
			if (exp_pair_start(d, o, tmp, patch->name, opts, blk))
				return -1;
			for (int s = 0; s < 2; s++)
				if (exp_mkdir(&d[s], "m") ||
				    exp_write(&d[s], "m/memcgfs.workload", profile)) {
					exp_pair_stop(d);
					return -1;
				}
			for (unsigned i = 0; i < per + 1; i++) {
				for (int j = 0; j < 2; j++) {
					int s = (int)(i % 2) ^ j;
					double v = exp_fault_window(d, s, "m",
								    o->quick ? 0.25 : 0.5);

					if (i)
						ns[s][blk * per + i - 1] = v;
				}
			}
			exp_pair_stop(d);
		}
		if (!fixed) {
			g_snprintf(what, sizeof(what), "memcg alone: CPU ns per fault, %u threads",
				   threads);
			exp_add_pairs(r, what, "ns", ns[0], ns[1], pairs);
			continue;
		}
		g_snprintf(what, sizeof(what), "CPU ns per fault (%.0f ns fixed + memcg), %u threads",
			   fault_ns, threads);
		row = exp_add_pairs(r, what, "ns", ns[0], ns[1], pairs);
		r->x[r->npoints] = threads;
		r->yb[r->npoints] = row->before;
		r->ya[r->npoints++] = row->after;
		if (threads == 2) {
			double p, lo, hi;

			row->headline = true;
			/* The shares are printed to 0.01%. */
			exp_published_ratio(26.16, 25.72, 0.005, &p, &lo, &hi);
			exp_publish(row, EXP_EFFECT_RATIO, p, lo, hi,
				    "faults per cycle after/before from clear_page_c's share, 25.72%% "
				    "-> 26.16%%; refcounting's 17.2%% bounds the gain at 1.21x; the "
				    "seed's machine and threads are not given, 2 threads = this "
				    "machine's cores, " SOURCE);
			g_snprintf(what, sizeof(what), "ns saved per fault (before - after), %u threads",
				   threads);
			exp_add_pairs(r, what, "ns", ns[0], ns[1], pairs)->effect = EXP_EFFECT_SAVING;
		}
		exp_progress("seed004: %u threads: ns per fault before %.0f after %.0f", threads,
			 row->before, row->after);
	}
	return 0;
}

const struct mcg_patch mcg_patch_seed004 = {
	.name = "seed004",
	.base = NULL,
	.any_base = "5.10",
	.title = "memcg remove css_get/put per pages",
	.upstream = "KAMEZAWA Hiroyuki, [RFC][PATCH] 2010-06-08 (against 2.6.35); "
		"linux-mm, \"Re: [RFC][PATCH] memcg remove css_get/put per pages\" "
		"(Balbir Singh, 2010-06-08)",
	.published = "a multi-threaded page-fault program: clear_page_c 25.72% -> 26.16% of "
		"cycles, refcounting 17.2% of cycles before, _raw_spin_lock 2.37% -> 11.73% "
		"(seed 004 (004_1f72ee0d30b3a5a7.txt))",
	.before_help = "2.6.35: css_tryget per page charge, css_put per page uncharge, one shared "
		"atomic",
	.after_help = "the RFC: no reference per page; task_lock(mm->owner) per charge",
	.before = seed004_before,
	.after = seed004_after,
	.experiment = seed004_experiment,
};
