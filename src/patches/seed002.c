/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Seed 002: "cgroup: separate rstat trees" (Linux 6.16), on its base 6.12.
 *
 * Before, memory, io and the base (cpu) stats share one updated tree per
 * CPU and one lock (cgroup_rstat_updated(), cgroup_rstat_flush_locked(),
 * 6.12 kernel/cgroup/rstat.c): any flush, of cpu.stat or io.stat too, runs
 * every subsystem's callback on every updated cgroup, memcg's included,
 * whatever memcg's own threshold.  After, each subsystem has its own tree
 * and lock (css_rstat_updated(), css_rstat_flush()).  The knob is
 * `split_trees`.
 *
 * The experiment follows.
 */
#include "patches/patches.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOURCE "seed 002 (002_1e0dda548804a34a.txt)"

static void seed002_before(struct mcg_kernel *k)
{
	k->split_trees = false;
}

/* Only the split: the tree lock keeps 6.12's shape (taken around the
 * CPUs), which 6.15 had already changed apart from this series. */
static void seed002_after(struct mcg_kernel *k)
{
	k->split_trees = true;
}

/* ---- seed 002: a parent's readers against 26 children doing file I/O ----
 *
 * Before (6.12 with one shared rstat tree) a reader of cpu.stat or io.stat
 * flushes every participant, memcg's callback included, whatever memcg's
 * threshold; after (6.16) each controller has its own tree, and memcg
 * flushes only when its own updates pass the threshold.  The children are
 * a kernel build's shape (the seed's workload): a few hundred page events
 * a second each, cut back by reclaim under the parent's memory.max, CPU
 * time and block I/O all the while.  The workers tick every millisecond
 * (--tick_ms=1) so that a pair is marked again soon after each flush, as
 * a build's continuous faults mark it.
 *
 * The seed's own measure is the workload's `sys` time with constant
 * readers (5m20.163s -> 5m3.454s) and without (5m4.996s -> 5m0.943s): the
 * CPU the workload itself spends, not the readers'.  Here that is the
 * workers' CPU time per 1000 page events (the work a build does is fixed;
 * the emulated one is counted in page events), with the four readers
 * running and, in the same pair, without them.  The flush callback counts
 * and times are the mechanism, kept as supporting rows, with the two
 * halves of the thread's explanation (Michal Koutný, in the seed file):
 * the memcg flush time by initiator, memcg's own heuristic (a read of
 * memory.stat) against the flushes other controllers' readers made of the
 * shared tree, which bypass it; and the writer side, "no unnecessary tree
 * updates": the updaters' slow paths (a node linked again after a flush
 * unlinked it) and their waits for a flusher's CPU lock, per 1000 page
 * events.  What the seed file does not give (the build, its threads, the
 * machine) is chosen here and said so in the rows. */
/* One side's figures of one pair of seed 002 (per reader iteration, per
 * second, per 1000 page events). */
struct seed002_window {
	double cb, rd, mf, bf, io, tput_r, tput_q, cpu_r, cpu_q;
	double own, side, links, waits;
};

/* The memcgfs.flush_stats keys a window reads, before and after. */
static const char *const seed002_keys[] = {
	"visited", "flush_usec", "base_flush_usec", "io_flush_usec",
	"read_usec", "side_usec", "links", "link_waits",
};
enum { K_VISITED, K_FLUSH, K_BASE, K_IO, K_READ, K_SIDE, K_LINKS, K_WAITS, K_NR };

static void seed002_keyed(struct exp_daemon *d, double v[K_NR])
{
	for (unsigned k = 0; k < K_NR; k++)
		v[k] = exp_keyed(d, "memcgfs.flush_stats", seed002_keys[k]);
}

/* Parent p with memory.max 256M and nchild children building in it, on
 * side s alone, run until p is at its limit: the seed's build runs under
 * reclaim. */
static int seed002_setup(struct exp_daemon d[2], int s, unsigned nchild, bool quick)
{
	exp_pair_turn(d, s);
	/* The children have memory files once p enables memory. */
	if (exp_mkdir(&d[s], "p") || exp_write(&d[s], "p/memory.max", "256M") ||
	    exp_write(&d[s], "p/cgroup.subtree_control", "+memory") ||
	    exp_mkdirs(&d[s], "p/c", 1, nchild + 1))
		return -1;
	for (unsigned i = 1; i <= nchild; i++) {
		char rel[64];

		g_snprintf(rel, sizeof(rel), "p/c%u/memcgfs.workload", i);
		if (exp_write(&d[s], rel,
			      "anon=150 file_read=200 file_write=100 slab=20 kernel=10 "
			      "footprint=32M swap=on"))
			return -1;
	}
	exp_warm_up(d, s, "p/memory.current", 0.95 * 256 * 1048576, quick ? 5 : 20);
	return 0;
}

/* A window of `secs` with the four readers of p's files, then as long
 * without them, on side s alone. */
static void seed002_measure(struct exp_daemon d[2], int s, unsigned nchild, double secs,
			    char *buf, struct seed002_window *w)
{
	static const char *const files[] = { "cgroup.stat", "cpu.stat", "io.stat", "memory.stat" };
	double k0[K_NR], k1[K_NR], e0, e1, e2, t0, t1, c0, c1, c2;
	unsigned iters = 0;

	exp_pair_turn(d, s);
	g_usleep(200 * 1000);
	seed002_keyed(&d[s], k0);
	e0 = exp_children_stat(&d[s], "p", nchild, "page_events");
	c0 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
	t0 = exp_now_ns();
	for (; exp_now_ns() < t0 + secs * 1e9; iters++)
		for (unsigned f = 0; f < G_N_ELEMENTS(files); f++) {
			char path[256];

			g_snprintf(path, sizeof(path), "%s/p/%s", d[s].mnt, files[f]);
			exp_read(path, buf, 65536);
		}
	t1 = exp_now_ns();
	c1 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
	e1 = exp_children_stat(&d[s], "p", nchild, "page_events");
	seed002_keyed(&d[s], k1);
	/* Without: the same time, no reader. */
	g_usleep((gulong)((t1 - t0) / 1e3));
	c2 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
	e2 = exp_children_stat(&d[s], "p", nchild, "page_events");
	w->cb = (k1[K_VISITED] - k0[K_VISITED]) / iters;
	w->rd = (t1 - t0) / 1e6 / iters;
	w->mf = (k1[K_FLUSH] - k0[K_FLUSH]) / iters;
	w->bf = (k1[K_BASE] - k0[K_BASE]) / iters;
	w->io = (k1[K_IO] - k0[K_IO]) / iters;
	w->own = (k1[K_READ] - k0[K_READ]) / iters;
	w->side = (k1[K_SIDE] - k0[K_SIDE]) / iters;
	w->links = (k1[K_LINKS] - k0[K_LINKS]) / ((e1 - e0) / 1e3);
	w->waits = (k1[K_WAITS] - k0[K_WAITS]) / ((e1 - e0) / 1e3);
	w->tput_r = (e1 - e0) / ((t1 - t0) / 1e9);
	w->tput_q = (e2 - e1) / ((exp_now_ns() - t1) / 1e9);
	w->cpu_r = (c1 - c0) / 1e3 / ((e1 - e0) / 1e3);
	w->cpu_q = (c2 - c1) / 1e3 / ((e2 - e1) / 1e3);
}

static int seed002_experiment(const struct mcg_patch *patch, const struct exp_options *o,
			      const char *tmp, struct exp_report *r)
{
	const char *opts[] = { "--cpus=8", "--tick_ms=1", NULL };
	const unsigned nchild = 26;
	const double window = o->quick ? 0.25 : 0.5;
	/* Daemon pairs (experiment.h), each measured in `per` pairs after
	 * one to settle. */
	const unsigned blocks = o->quick ? 2 : 8, per = o->quick ? 3 : 4, pairs = blocks * per;
	double cb[2][EXP_MAX_PAIRS], rd[2][EXP_MAX_PAIRS], mf[2][EXP_MAX_PAIRS], bf[2][EXP_MAX_PAIRS],
		io[2][EXP_MAX_PAIRS], tput_r[2][EXP_MAX_PAIRS], tput_q[2][EXP_MAX_PAIRS], cpu_r[2][EXP_MAX_PAIRS],
		cpu_q[2][EXP_MAX_PAIRS], own[2][EXP_MAX_PAIRS], side[2][EXP_MAX_PAIRS],
		links[2][EXP_MAX_PAIRS], waits[2][EXP_MAX_PAIRS], p, lo, hi;
	struct exp_daemon d[2] = { { 0 } };
	char *buf = g_malloc(65536);
	struct exp_result *row;
	int rc = -1;

	r->title = "reader of a parent's {cgroup,cpu,io,memory}.stat, 26 children building "
		   "under reclaim, 8 CPUs: shared rstat tree (6.12) vs split (6.16)";
	g_strlcpy(r->ylabel, "paired delta of workers' CPU per page event with readers, %",
		  sizeof(r->ylabel));
	g_strlcpy(r->xlabel, "pair", sizeof(r->xlabel));
	r->blocks = blocks;
	for (unsigned blk = 0; blk < blocks; blk++) {
		exp_progress("seed002: daemon pair %u/%u: a parent p with memory.max 256M and %u "
			 "children, each side run until p is at its limit",
			 blk + 1, blocks, nchild);
		if (exp_pair_start(d, o, tmp, patch->name, opts, blk) ||
		    seed002_setup(d, 0, nchild, o->quick) || seed002_setup(d, 1, nchild, o->quick))
			goto out;
		for (unsigned i = 0; i < per + 1; i++) {
			unsigned at = blk * per + i - 1;

			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				struct seed002_window w;

				seed002_measure(d, s, nchild, window, buf, &w);
				if (i == 0)
					continue;
				cb[s][at] = w.cb;
				rd[s][at] = w.rd;
				mf[s][at] = w.mf;
				bf[s][at] = w.bf;
				io[s][at] = w.io;
				tput_r[s][at] = w.tput_r;
				tput_q[s][at] = w.tput_q;
				cpu_r[s][at] = w.cpu_r;
				cpu_q[s][at] = w.cpu_q;
				own[s][at] = w.own;
				side[s][at] = w.side;
				links[s][at] = w.links;
				waits[s][at] = w.waits;
			}
			if (i)
				exp_progress("seed002: pair %u/%u: workers' us per 1000 page events "
					 "before %.0f after %.0f", at + 1, pairs, cpu_r[0][at],
					 cpu_r[1][at]);
		}
		exp_pair_stop(d);
	}
	row = exp_add_pairs(r, "workers' CPU us per 1000 page events, with readers", "us",
			    cpu_r[0], cpu_r[1], pairs);
	row->headline = true;
	exp_published_ratio(320.163, 303.454, 0.0005, &p, &lo, &hi);
	exp_publish(row, EXP_EFFECT_RATIO, p, lo, hi,
		    "workload sys 5m20.163s -> 5m3.454s with constant readers of "
		    "{memory,io,cpu,cgroup}.stat, a kernel build in a nested cgroup, " SOURCE
		    "; here 26 children of a 256M parent at 8 CPUs, not in the seed file");
	row = exp_add_pairs(r, "workers' CPU us per 1000 page events, no readers", "us", cpu_q[0],
			    cpu_q[1], pairs);
	exp_published_ratio(304.996, 300.943, 0.0005, &p, &lo, &hi);
	exp_publish(row, EXP_EFFECT_RATIO, p, lo, hi,
		    "workload sys 5m4.996s -> 5m0.943s with no readers, " SOURCE);
	/* What the readers add to the workers (with - without, each side
	 * alone): the seed's 5m20.163s - 5m4.996s = 15.2 s before and
	 * 5m3.454s - 5m0.943s = 2.5 s after, per build. */
	for (int s = 0; s < 2; s++) {
		double added[EXP_MAX_PAIRS];

		for (unsigned i = 0; i < pairs; i++)
			added[i] = cpu_r[s][i] - cpu_q[s][i];
		row = exp_add_values(r, s ? "readers' added workers' CPU, us per 1000 events, after"
					  : "readers' added workers' CPU, us per 1000 events, before",
				     "us", added, pairs);
		row->effect = EXP_EFFECT_LEVEL;
	}
	exp_add_pairs(r, "workload page events/s with readers", "/s", tput_r[0], tput_r[1], pairs);
	exp_add_pairs(r, "workload page events/s without readers", "/s", tput_q[0], tput_q[1],
		      pairs);
	/* The mechanism: what each reader iteration flushed and what it cost. */
	exp_add_pairs(r, "memcg flush callbacks per reader iteration", "calls", cb[0], cb[1],
		      pairs);
	row = exp_add_pairs(r, "reader ms per iteration (4 files)", "ms", rd[0], rd[1], pairs);
	exp_published_ratio(73.7, 42.5, 0.05, &p, &lo, &hi);
	exp_publish(row, EXP_EFFECT_RATIO, p, lo, hi,
		    "reader 1m13.7s -> 42.5s, the series' v3 cover letter (not in the seed file; "
		    "its readers and set-up are not these)");
	exp_add_pairs(r, "memcg flush us per iteration", "us", mf[0], mf[1], pairs);
	exp_add_pairs(r, "base (cpu.stat) flush us per iteration", "us", bf[0], bf[1], pairs);
	exp_add_pairs(r, "io flush us per iteration", "us", io[0], io[1], pairs);
	/* By initiator: memcg's own flushes (its heuristic decided) and those
	 * another controller's reader made of the shared tree (it did not). */
	exp_add_pair_savings(r, "memcg flush us per iteration, memory.stat's own (heuristic)",
			     "us", own[0], own[1], pairs);
	exp_add_pair_savings(r, "memcg flush us per iteration, by cpu.stat/io.stat (shared tree)",
			     "us", side[0], side[1], pairs);
	/* The writer side: what every unneeded flush costs the updaters. */
	/* Over every tree: the shared one before, the three after (memory's
	 * alone would set the shared tree's links against memory's only). */
	exp_add_pairs(r, "updater slow paths (links) per 1000 page events, all trees", "links",
		      links[0], links[1], pairs);
	exp_add_pairs(r, "updater waits for a flusher's CPU lock per 1000 page events", "waits",
		      waits[0], waits[1], pairs);
	for (unsigned i = 0; i < pairs; i++)
		r->deltas[r->ndeltas++] =
			cpu_r[0][i] > 0 ? 100 * (cpu_r[1][i] - cpu_r[0][i]) / cpu_r[0][i] : 0;
	rc = 0;
out:
	exp_pair_stop(d);
	g_free(buf);
	return rc;
}

const struct mcg_patch mcg_patch_seed002 = {
	.name = "seed002",
	.base = "6.12",
	.title = "cgroup: separate rstat trees",
	.upstream = "JP Kobryn, [PATCH 0/4 v2] (Linux 6.16); "
		"linux-mm, \"Re: [PATCH 0/4 v2] cgroup: separate rstat trees\" (Michal Koutny, 2025-03)",
	.published = "a kernel build in a nested cgroup with constant readers of "
		"{memory,io,cpu,cgroup}.stat: workload sys 5m20.163s -> 5m3.454s; without "
		"readers 5m4.996s -> 5m0.943s (seed 002 (002_1e0dda548804a34a.txt))",
	.before_help = "6.12: memory, io and cpu stats share one rstat tree",
	.after_help = "6.12 + patch: one rstat tree and lock per subsystem",
	.before = seed002_before,
	.after = seed002_after,
	.experiment = seed002_experiment,
};
