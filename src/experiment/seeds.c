/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The five seed experiments (../shared/seeds/), each through mounted
 * daemons of the seed's kernel, before and after side by side.
 *
 * Pairs interleave: pair i measures before then after when i is even,
 * after then before when it is odd, so that a drift of the machine hits
 * both sides alike.  Experiments with a workload stop (SIGSTOP) the daemon
 * whose turn it is not, so the two never compete for the CPUs. */
#include "experiment/experiment.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Full mode: at least 30 pairs per figure, 70 for seed 001 (as the seed
 * took 70 samples); --quick only shows the direction. */
#define MAX_PAIRS 128

/* Where each published figure comes from. */
#define SRC000 "seed 000 (000_9262c5599c5d289b.txt)"
#define SRC001 "seed 001 (001_81eb96957b7169e7.txt)"
#define SRC002 "seed 002 (002_1e0dda548804a34a.txt)"
#define SRC003 "seed 003 (003_7d5ceeed4dba1cf5.txt)"
#define SRC004 "seed 004 (004_1f72ee0d30b3a5a7.txt)"

static const char *const sides[2] = { "before", "after" };

/* Mounts seed `seed`'s before and after with the same options. */
static int start_pair(struct exp_daemon d[2], const struct exp_options *o, const char *tmp,
		      const char *seed, const char *const *opts)
{
	/* Both cleared first: a failure leaves nothing for stop_pair(). */
	memset(d, 0, 2 * sizeof(*d));
	for (int s = 0; s < 2; s++) {
		const char *argv[16];
		char seed_opt[32];
		unsigned n = 0;

		g_snprintf(seed_opt, sizeof(seed_opt), "--seed=%s:%s", seed, sides[s]);
		argv[n++] = seed_opt;
		for (const char *const *p = opts; *p && n < G_N_ELEMENTS(argv) - 1; p++)
			argv[n++] = *p;
		argv[n] = NULL;
		if (exp_daemon_start(&d[s], o, tmp, sides[s], argv)) {
			if (s)
				exp_daemon_stop(&d[0]);
			return -1;
		}
	}
	return 0;
}

static void stop_pair(struct exp_daemon d[2])
{
	exp_daemon_stop(&d[0]);
	exp_daemon_stop(&d[1]);
}

/* Only side s runs. */
static void turn(struct exp_daemon d[2], int s)
{
	exp_daemon_pause(&d[s], false);
	exp_daemon_pause(&d[!s], true);
}

static void progress(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Thousands of mkdirs take seconds through FUSE: a line every 2000. */
static int mkdirs(const struct exp_daemon *d, const char *fmt_parent, unsigned from,
		  unsigned to)
{
	for (unsigned i = from; i < to; i++) {
		char rel[64];

		g_snprintf(rel, sizeof(rel), "%s%u", fmt_parent, i);
		if (exp_mkdir(d, rel))
			return -1;
		if (to - from >= 4000 && (i + 1 - from) % 2000 == 0)
			progress("%s: %u of %u cgroups made", d->mnt, i + 1 - from, to - from);
	}
	return 0;
}

static void progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("  .. ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
}

static void published(struct exp_result *row, double ratio, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
static void published(struct exp_result *row, double ratio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_vsnprintf(row->published, sizeof(row->published), fmt, ap);
	va_end(ap);
	row->published_ratio = ratio;
}

/* ---- seed 000: memory.stat of 1000 v1 memcgs against CPUs ----
 *
 * Before (6.1) a v1 memory.stat sums every local counter over every
 * possible CPU; after (6.6) the flush keeps the locals.  The daemon-side
 * cost of a read is the seed's `sys` time. */
static int seed000(const struct exp_options *o, const char *tmp, struct exp_report *r)
{
	static const unsigned full[] = { 64, 128, 256, 512 }, quick[] = { 64, 256 };
	const unsigned *cpus = o->quick ? quick : full;
	unsigned ncpus = o->quick ? G_N_ELEMENTS(quick) : G_N_ELEMENTS(full);
	const unsigned ncg = 1000;

	r->title = "cat cg*/memory.stat over 1000 v1 memcgs: locals summed per CPU (6.1) "
		   "vs kept by the flush (6.6)";
	g_strlcpy(r->xlabel, "emulated CPUs", sizeof(r->xlabel));
	g_strlcpy(r->ylabel, "daemon-side us per memory.stat read", sizeof(r->ylabel));
	r->logx = true;
	for (unsigned k = 0; k < ncpus; k++) {
		struct exp_daemon d[2];
		char cpus_opt[32], what[96];
		const char *opts[] = { "--hierarchy=v1", cpus_opt, NULL };
		unsigned pairs = cpus[k] == 256 ? (o->quick ? 8 : 30) : (o->quick ? 4 : 30);
		double dn[2][MAX_PAIRS], wall[2][MAX_PAIRS];
		char *buf;
		struct exp_result *row;

		g_snprintf(cpus_opt, sizeof(cpus_opt), "--cpus=%u", cpus[k]);
		progress("seed000: %u CPUs: mounting and making %u cgroups on each side", cpus[k],
			 ncg);
		if (start_pair(d, o, tmp, "000", opts))
			return -1;
		for (int s = 0; s < 2; s++)
			if (mkdirs(&d[s], "cg", 1, ncg + 1)) {
				stop_pair(d);
				return -1;
			}
		buf = g_malloc(65536);
		for (unsigned i = 0; i < pairs + 1; i++) {
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				double r0, n0, r1, n1, t0;

				exp_read_stats(&d[s], "memory.stat", &r0, &n0);
				t0 = exp_now_ns();
				for (unsigned c = 1; c <= ncg; c++) {
					char path[256];

					g_snprintf(path, sizeof(path), "%s/cg%u/memory.stat", d[s].mnt, c);
					exp_read(path, buf, 65536);
				}
				/* The first round warms both daemons up. */
				if (i == 0)
					continue;
				wall[s][i - 1] = (exp_now_ns() - t0) / 1e6;
				exp_read_stats(&d[s], "memory.stat", &r1, &n1);
				dn[s][i - 1] = (n1 - n0) / (r1 - r0) / 1e3;
			}
		}
		g_free(buf);
		stop_pair(d);
		g_snprintf(what, sizeof(what), "daemon us per memory.stat read, %u CPUs", cpus[k]);
		row = exp_add_pairs(r, what, "us", dn[0], dn[1], pairs);
		r->x[r->npoints] = cpus[k];
		r->yb[r->npoints] = row->before;
		r->ya[r->npoints++] = row->after;
		if (cpus[k] == 256) {
			row->headline = true;
			published(row, 0.120 / 0.027,
				  "sys 0m0.120s -> 0m0.027s for cat of 1000 memory.stat at 256 CPUs, "
				  SRC000);
		}
		g_snprintf(what, sizeof(what), "reader ms for cat of %u memory.stat, %u CPUs", ncg,
			   cpus[k]);
		row = exp_add_pairs(r, what, "ms", wall[0], wall[1], pairs);
		if (cpus[k] == 256)
			published(row, 0.125 / 0.032, "real 0m0.125s -> 0m0.032s, " SRC000);
		progress("seed000: %u CPUs: daemon us per read before %.1f after %.1f", cpus[k],
			 r->yb[r->npoints - 1], r->ya[r->npoints - 1]);
	}
	return 0;
}

/* ---- seed 003: root memory.numa_stat against the number of memcgs ----
 *
 * Before (the 5.7 v1 numa_stat) the read walks the whole subtree and sums
 * every memcg's per-CPU counters; after, it prints the flushed
 * hierarchical counters.  The same text both ways. */
static int seed003(const struct exp_options *o, const char *tmp, struct exp_report *r)
{
	static const unsigned full[] = { 1000, 2000, 5000, 10000 }, quick[] = { 1000, 10000 };
	const unsigned *sizes = o->quick ? quick : full;
	unsigned nsizes = o->quick ? G_N_ELEMENTS(quick) : G_N_ELEMENTS(full), have = 0;
	const char *opts[] = { "--hierarchy=v1", "--cpus=64", NULL };
	struct exp_daemon d[2];
	char *buf[2] = { g_malloc(1 << 20), g_malloc(1 << 20) };
	int rc = -1;

	r->title = "root memory.numa_stat at 64 CPUs: subtree walk of per-CPU sums (5.7) vs "
		   "hierarchical counters (5.8)";
	g_strlcpy(r->xlabel, "memcgs", sizeof(r->xlabel));
	g_strlcpy(r->ylabel, "reader ms per read of root memory.numa_stat", sizeof(r->ylabel));
	r->logx = r->logy = true;
	if (start_pair(d, o, tmp, "003", opts))
		goto out;
	for (unsigned k = 0; k < nsizes; k++) {
		unsigned pairs = sizes[k] == 10000 ? (o->quick ? 6 : 30) : (o->quick ? 3 : 30);
		double wall[2][MAX_PAIRS], dn[2][MAX_PAIRS];
		char path[2][256], what[96];
		struct exp_result *row;

		progress("seed003: growing both sides to %u memcgs", sizes[k]);
		for (int s = 0; s < 2; s++) {
			if (mkdirs(&d[s], "cg", have, sizes[k]))
				goto out;
			g_snprintf(path[s], sizeof(path[s]), "%s/memory.numa_stat", d[s].mnt);
		}
		have = sizes[k];
		for (unsigned i = 0; i < pairs + 1; i++) {
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				double r0, n0, r1, n1, t0;

				exp_read_stats(&d[s], "memory.numa_stat", &r0, &n0);
				t0 = exp_now_ns();
				exp_read(path[s], buf[s], 1 << 20);
				if (i == 0)
					continue;
				wall[s][i - 1] = (exp_now_ns() - t0) / 1e6;
				exp_read_stats(&d[s], "memory.numa_stat", &r1, &n1);
				dn[s][i - 1] = (n1 - n0) / (r1 - r0) / 1e6;
			}
		}
		g_snprintf(what, sizeof(what), "reader ms per root numa_stat read, %u memcgs",
			   sizes[k]);
		row = exp_add_pairs(r, what, "ms", wall[0], wall[1], pairs);
		r->x[r->npoints] = sizes[k];
		r->yb[r->npoints] = row->before;
		r->ya[r->npoints++] = row->after;
		if (sizes[k] == 10000) {
			row->headline = true;
			published(row, 0.700 / 0.001,
				  "real 0m0.700s -> 0m0.001s for root numa_stat with 10000 memcgs, "
				  SRC003);
		}
		g_snprintf(what, sizeof(what), "daemon ms per root numa_stat read, %u memcgs",
			   sizes[k]);
		row = exp_add_pairs(r, what, "ms", dn[0], dn[1], pairs);
		if (sizes[k] == 10000)
			published(row, 0.697 / 0.001,
				  "sys 0m0.697s -> 0m0.000s (below the 1 ms resolution: the ratio "
				  "is at least ~700), " SRC003);
		progress("seed003: %u memcgs: reader ms before %.2f after %.3f", sizes[k],
			 r->yb[r->npoints - 1], r->ya[r->npoints - 1]);
	}
	{
		struct exp_result *row = &r->rows[r->nr++];
		bool same = !strcmp(buf[0], buf[1]);

		memset(row, 0, sizeof(*row));
		g_strlcpy(row->measure, "root numa_stat text, bytes (diff before/after)",
			  sizeof(row->measure));
		g_strlcpy(row->unit, "bytes", sizeof(row->unit));
		row->before = (double)strlen(buf[0]);
		row->after = (double)strlen(buf[1]);
		row->ratio = row->lo = row->hi = row->after ? row->before / row->after : 1;
		row->n = 1;
		g_strlcpy(row->published, "-", sizeof(row->published));
		g_strlcpy(row->verdict, same ? "identical text" : "TEXT DIFFERS",
			  sizeof(row->verdict));
		/* Reported either way; a difference fails the experiment. */
		rc = same ? 0 : 1;
		goto out;
	}
	rc = 0;
out:
	stop_pair(d);
	g_free(buf[0]);
	g_free(buf[1]);
	return rc;
}

/* Sum of a workload_stat key over children c1..cN of `parent`. */
static double children_stat(const struct exp_daemon *d, const char *parent, unsigned n,
			    const char *key)
{
	double sum = 0;

	for (unsigned i = 1; i <= n; i++) {
		char rel[96];

		g_snprintf(rel, sizeof(rel), "%s/c%u/memcgfs.workload_stat", parent, i);
		sum += exp_keyed(d, rel, key);
	}
	return sum;
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
 * a build's continuous faults mark it. */
static int seed002(const struct exp_options *o, const char *tmp, struct exp_report *r)
{
	static const char *const files[] = { "cgroup.stat", "cpu.stat", "io.stat", "memory.stat" };
	const char *opts[] = { "--cpus=8", "--tick_ms=1", NULL };
	const unsigned nchild = 26;
	const double window = o->quick ? 0.25 : 0.5;
	unsigned pairs = o->quick ? 6 : 30;
	double cb[2][MAX_PAIRS], rd[2][MAX_PAIRS], mf[2][MAX_PAIRS], bf[2][MAX_PAIRS],
		io[2][MAX_PAIRS], tput_r[2][MAX_PAIRS], tput_q[2][MAX_PAIRS], cpu_r[2][MAX_PAIRS];
	struct exp_daemon d[2];
	char *buf = g_malloc(65536);
	struct exp_result *row;
	int rc = -1;

	r->title = "reader of a parent's {cgroup,cpu,io,memory}.stat, 26 children building "
		   "under reclaim, 8 CPUs: shared rstat tree (6.12) vs split (6.16)";
	g_strlcpy(r->ylabel, "paired delta of memcg flush callbacks, %", sizeof(r->ylabel));
	g_strlcpy(r->xlabel, "pair", sizeof(r->xlabel));
	progress("seed002: mounting; parent p with memory.max 256M and %u children", nchild);
	if (start_pair(d, o, tmp, "002", opts))
		goto out;
	for (int s = 0; s < 2; s++) {
		/* The children have memory files once p enables memory. */
		if (exp_mkdir(&d[s], "p") || exp_write(&d[s], "p/memory.max", "256M") ||
		    exp_write(&d[s], "p/cgroup.subtree_control", "+memory") ||
		    mkdirs(&d[s], "p/c", 1, nchild + 1))
			goto out;
		for (unsigned i = 1; i <= nchild; i++) {
			char rel[64];

			g_snprintf(rel, sizeof(rel), "p/c%u/memcgfs.workload", i);
			if (exp_write(&d[s], rel,
				      "anon=150 file_read=200 file_write=100 slab=20 kernel=10 "
				      "footprint=32M swap=on"))
				goto out;
		}
	}
	for (unsigned i = 0; i < pairs + 1; i++) {
		for (int j = 0; j < 2; j++) {
			int s = (int)(i % 2) ^ j;
			double v0, v1, m0, m1, b0, b1, i0, i1, e0, e1, e2, t0, t1, c0, c1;
			unsigned iters = 0;

			turn(d, s);
			g_usleep(200 * 1000);
			/* With the reader. */
			v0 = exp_keyed(&d[s], "memcgfs.flush_stats", "visited");
			m0 = exp_keyed(&d[s], "memcgfs.flush_stats", "flush_usec");
			b0 = exp_keyed(&d[s], "memcgfs.flush_stats", "base_flush_usec");
			i0 = exp_keyed(&d[s], "memcgfs.flush_stats", "io_flush_usec");
			e0 = children_stat(&d[s], "p", nchild, "page_events");
			c0 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
			t0 = exp_now_ns();
			for (; exp_now_ns() < t0 + window * 1e9; iters++)
				for (unsigned f = 0; f < G_N_ELEMENTS(files); f++) {
					char path[256];

					g_snprintf(path, sizeof(path), "%s/p/%s", d[s].mnt, files[f]);
					exp_read(path, buf, 65536);
				}
			t1 = exp_now_ns();
			c1 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
			e1 = children_stat(&d[s], "p", nchild, "page_events");
			v1 = exp_keyed(&d[s], "memcgfs.flush_stats", "visited");
			m1 = exp_keyed(&d[s], "memcgfs.flush_stats", "flush_usec");
			b1 = exp_keyed(&d[s], "memcgfs.flush_stats", "base_flush_usec");
			i1 = exp_keyed(&d[s], "memcgfs.flush_stats", "io_flush_usec");
			/* Without: the same time, no reader. */
			g_usleep((gulong)((t1 - t0) / 1e3));
			e2 = children_stat(&d[s], "p", nchild, "page_events");
			if (i == 0)
				continue;
			cb[s][i - 1] = (v1 - v0) / iters;
			rd[s][i - 1] = (t1 - t0) / 1e6 / iters;
			mf[s][i - 1] = (m1 - m0) / iters;
			bf[s][i - 1] = (b1 - b0) / iters;
			io[s][i - 1] = (i1 - i0) / iters;
			tput_r[s][i - 1] = (e1 - e0) / ((t1 - t0) / 1e9);
			tput_q[s][i - 1] = (e2 - e1) / ((exp_now_ns() - t1) / 1e9);
			cpu_r[s][i - 1] = (c1 - c0) / 1e3 / ((e1 - e0) / 1e3);
		}
		if (i)
			progress("seed002: pair %u/%u: memcg callbacks per iteration before %.0f after %.0f",
				 i, pairs, cb[0][i - 1], cb[1][i - 1]);
	}
	row = exp_add_pairs(r, "memcg flush callbacks per reader iteration", "calls", cb[0], cb[1],
			    pairs);
	row->headline = true;
	published(row, 0, "no count in the seed; the reader went 1m13.7s -> 42.5s in the v3 "
			  "cover letter (not in the seed file)");
	row = exp_add_pairs(r, "reader ms per iteration (4 files)", "ms", rd[0], rd[1], pairs);
	published(row, 73.7 / 42.5,
		  "reader 1m13.7s -> 42.5s, the series' v3 cover letter (not in the seed file)");
	exp_add_pairs(r, "memcg flush us per iteration", "us", mf[0], mf[1], pairs);
	exp_add_pairs(r, "base (cpu.stat) flush us per iteration", "us", bf[0], bf[1], pairs);
	exp_add_pairs(r, "io flush us per iteration", "us", io[0], io[1], pairs);
	row = exp_add_pairs(r, "workers' CPU us per 1000 page events, with readers", "us",
			    cpu_r[0], cpu_r[1], pairs);
	published(row, 320.163 / 303.454,
		  "workload sys 5m20.163s -> 5m3.454s with constant readers, " SRC002);
	exp_add_pairs(r, "workload page events/s with readers", "/s", tput_r[0], tput_r[1], pairs);
	row = exp_add_pairs(r, "workload page events/s without readers", "/s", tput_q[0],
			    tput_q[1], pairs);
	for (unsigned i = 0; i < pairs; i++)
		r->deltas[r->ndeltas++] = cb[0][i] > 0 ? 100 * (cb[1][i] - cb[0][i]) / cb[0][i] : 0;
	rc = 0;
out:
	stop_pair(d);
	g_free(buf);
	return rc;
}

/* ---- seed 004: the multi-fault workload against threads ----
 *
 * Before (2.6.35) every charged page took a css reference, an atomic on
 * one cache line that every faulting CPU shares; after, none.  The cost
 * of a fault is the workers' CPU time per page event while one cgroup
 * faults flat out on every emulated CPU (a rate no step can meet, so no
 * worker sleeps) and unmaps down to its 16M footprint. */
static int seed004(const struct exp_options *o, const char *tmp, struct exp_report *r)
{
	static const unsigned full[] = { 1, 2, 4, 8 }, quick[] = { 1, 2 };
	const unsigned *threads = o->quick ? quick : full;
	unsigned nthreads = o->quick ? G_N_ELEMENTS(quick) : G_N_ELEMENTS(full);

	r->title = "multi-fault: one cgroup faulting and unmapping flat out: a css reference per "
		   "page (2.6.35) vs none";
	g_strlcpy(r->xlabel, "threads (emulated CPUs)", sizeof(r->xlabel));
	g_strlcpy(r->ylabel, "workers' CPU ns per page fault", sizeof(r->ylabel));
	r->logx = true;
	for (unsigned k = 0; k < nthreads; k++) {
		struct exp_daemon d[2];
		char cpus_opt[32], what[96];
		const char *opts[] = { "--hierarchy=v1", cpus_opt, NULL };
		unsigned pairs = threads[k] == 2 ? (o->quick ? 8 : 30) : (o->quick ? 4 : 30);
		double ns[2][MAX_PAIRS];
		struct exp_result *row;

		g_snprintf(cpus_opt, sizeof(cpus_opt), "--cpus=%u", threads[k]);
		progress("seed004: %u threads", threads[k]);
		if (start_pair(d, o, tmp, "004", opts))
			return -1;
		for (int s = 0; s < 2; s++)
			if (exp_mkdir(&d[s], "m") ||
			    exp_write(&d[s], "m/memcgfs.workload", "anon=100000000 footprint=16M")) {
				stop_pair(d);
				return -1;
			}
		for (unsigned i = 0; i < pairs + 1; i++) {
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				double e0, e1, c0, c1;

				turn(d, s);
				g_usleep(100 * 1000);
				e0 = exp_keyed(&d[s], "m/memcgfs.workload_stat", "page_events");
				c0 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
				g_usleep(o->quick ? 250 * 1000 : 500 * 1000);
				c1 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
				e1 = exp_keyed(&d[s], "m/memcgfs.workload_stat", "page_events");
				if (i)
					ns[s][i - 1] = (c1 - c0) / (e1 - e0);
			}
		}
		stop_pair(d);
		g_snprintf(what, sizeof(what), "CPU ns per page fault, %u threads", threads[k]);
		row = exp_add_pairs(r, what, "ns", ns[0], ns[1], pairs);
		if (threads[k] == 2) {
			row->headline = true;
			published(row, 1.0 / (1.0 - 0.0546 - 0.0359),
				  "__css_put 5.46%% + css_put 3.59%% of the profile before, gone "
				  "after (ratio if that time is saved), " SRC004);
		}
		r->x[r->npoints] = threads[k];
		r->yb[r->npoints] = row->before;
		r->ya[r->npoints++] = row->after;
		progress("seed004: %u threads: ns per fault before %.0f after %.0f", threads[k],
			 row->before, row->after);
	}
	return 0;
}

/* ---- seed 001: the flush callback with and without the v1-only locals ----
 *
 * 7.3 without CONFIG_MEMCG_V1: before, the flush still updates
 * state_local and events_local; after, it does not.  500 memcgs at 80
 * CPUs run the seed001 workload; the daemon times every memcg flush
 * callback and its aggregation loops (memcgfs.flush_stats), in two
 * regimes: a reader of root memory.stat in a loop, and the 2 s periodic
 * flusher alone. */
static void flush_window(struct exp_daemon *d, bool reader, double secs, double *cb_ns,
			 double *agg_ns, double *changed)
{
	double c0 = exp_keyed(d, "memcgfs.flush_stats", "callback_nsec");
	double a0 = exp_keyed(d, "memcgfs.flush_stats", "aggregate_nsec");
	double v0 = exp_keyed(d, "memcgfs.flush_stats", "visited");
	double x0 = exp_keyed(d, "memcgfs.flush_stats", "changed_items");
	double u0 = exp_keyed(d, "memcgfs.flush_stats", "callbacks_untimed");
	double end = exp_now_ns() + secs * 1e9, c1, a1, v1, x1, u1, timed;
	char path[256], *buf = g_malloc(65536);

	g_snprintf(path, sizeof(path), "%s/memory.stat", d->mnt);
	while (exp_now_ns() < end) {
		if (reader)
			exp_read(path, buf, 65536);
		else
			g_usleep(50 * 1000);
	}
	g_free(buf);
	c1 = exp_keyed(d, "memcgfs.flush_stats", "callback_nsec");
	a1 = exp_keyed(d, "memcgfs.flush_stats", "aggregate_nsec");
	v1 = exp_keyed(d, "memcgfs.flush_stats", "visited");
	x1 = exp_keyed(d, "memcgfs.flush_stats", "changed_items");
	u1 = exp_keyed(d, "memcgfs.flush_stats", "callbacks_untimed");
	/* The times cover the callbacks that were not preempted midway. */
	timed = (v1 - v0) - (u1 - u0);
	*cb_ns = timed > 0 ? (c1 - c0) / timed : NAN;
	*agg_ns = timed > 0 ? (a1 - a0) / timed : NAN;
	*changed = v1 > v0 ? (x1 - x0) / (v1 - v0) : NAN;
}

static int seed001(const struct exp_options *o, const char *tmp, struct exp_report *r)
{
	const char *opts[] = { "--cpus=80", NULL };
	const unsigned ncg = 500;
	struct exp_daemon d[2];
	int rc = -1;

	r->title = "memcg flush callback, 500 memcgs at 80 CPUs, seed001 workload, v2-only 7.3: "
		   "locals kept (before) vs dropped (after)";
	g_strlcpy(r->ylabel, "paired delta of ns per callback, reader loop, %", sizeof(r->ylabel));
	g_strlcpy(r->xlabel, "pair", sizeof(r->xlabel));
	progress("seed001: mounting and making %u memcgs on each side", ncg);
	if (start_pair(d, o, tmp, "001", opts))
		goto out;
	/* The cgroups first, idle, then their workload: mkdir is not slowed
	 * by 80 busy workers, and only one side runs at a time. */
	for (int s = 0; s < 2; s++) {
		turn(d, s);
		if (mkdirs(&d[s], "cg", 1, ncg + 1))
			goto out;
		for (unsigned i = 1; i <= ncg; i++) {
			char rel[64];

			g_snprintf(rel, sizeof(rel), "cg%u/memcgfs.workload", i);
			if (exp_write(&d[s], rel, "preset=seed001"))
				goto out;
		}
	}
	for (int regime = 0; regime < 2; regime++) {
		bool reader = regime == 0;
		unsigned pairs = reader ? (o->quick ? 10 : 70) : (o->quick ? 3 : 70);
		/* A periodic window holds at least one 2 s flush. */
		double secs = reader ? (o->quick ? 0.3 : 0.5) : 2.1;
		double cb[2][MAX_PAIRS], agg[2][MAX_PAIRS], ch[2][MAX_PAIRS];
		const char *name = reader ? "reader loop" : "periodic flusher only";
		struct exp_result *row;
		char what[96];

		for (unsigned i = 0; i < pairs; i++) {
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;

				turn(d, s);
				flush_window(&d[s], reader, secs, &cb[s][i], &agg[s][i], &ch[s][i]);
			}
			if (i % 10 == 9)
				progress("seed001: %s: %u/%u pairs", name, i + 1, pairs);
		}
		g_snprintf(what, sizeof(what), "ns per flush callback, %s", name);
		row = exp_add_pairs(r, what, "ns", cb[0], cb[1], pairs);
		{
			double delta[MAX_PAIRS], lo, hi, m;

			for (unsigned i = 0; i < pairs; i++)
				delta[i] = 100 * (cb[1][i] - cb[0][i]) / cb[0][i];
			m = exp_median(delta, pairs);
			exp_median_interval(delta, pairs, &lo, &hi);
			g_snprintf(row->verdict, sizeof(row->verdict),
				   "delta %+.1f%% [%+.1f%%, %+.1f%%]: %s", m, lo, hi,
				   hi < 0 ? "after cheaper, as published"
				   : lo > 0 ? "after dearer, opposite direction"
					    : "interval straddles 0");
			if (reader) {
				row->headline = true;
				memcpy(r->deltas, delta, sizeof(double) * pairs);
				r->ndeltas = pairs;
			}
		}
		published(row, 0,
			  reader ? "overall flush function 2452 -> 2397 TSC ticks, -2.2%%, 95%% "
				   "interval [-4.53%%, -0.14%%], " SRC001
				 : "no figure: \"the per-flush saving should be larger\", " SRC001);
		g_snprintf(what, sizeof(what), "ns in aggregation per callback, %s", name);
		row = exp_add_pairs(r, what, "ns", agg[0], agg[1], pairs);
		if (reader)
			published(row, 1231.0 / 1180.0,
				  "memcg-wide aggregation 1231 -> 1180, -4.1%%, interval [-5.41%%, "
				  "-1.76%%], " SRC001);
		g_snprintf(what, sizeof(what), "changed items per visited pair, %s", name);
		row = exp_add_pairs(r, what, "items", ch[0], ch[1], pairs);
		if (reader)
			published(row, 0, "a median of 1.5 of the 77 memcg-wide items, " SRC001);
	}
	rc = 0;
out:
	stop_pair(d);
	return rc;
}

/* ---- the driver ---- */

static const struct {
	const char *name;
	int (*run)(const struct exp_options *, const char *, struct exp_report *);
} experiments[] = {
	{ "seed000", seed000 }, { "seed001", seed001 }, { "seed002", seed002 },
	{ "seed003", seed003 }, { "seed004", seed004 },
};

static int run_one(unsigned k, const struct exp_options *o)
{
	struct exp_report *r = g_new0(struct exp_report, 1);
	char tmpl[] = "/tmp/memcgfs-experiment.XXXXXX";
	char *tmp = mkdtemp(tmpl);
	double start = exp_now_ns(), load0, load1;
	int rc;

	if (!tmp) {
		perror("experiment: mkdtemp");
		g_free(r);
		return 1;
	}
	r->seed = experiments[k].name;
	printf("%s: %s mode; load average %.2f\n", r->seed, o->quick ? "quick" : "full",
	       load0 = exp_loadavg());
	fflush(stdout);
	rc = experiments[k].run(o, tmp, r);
	load1 = exp_loadavg();
	/* -1: the experiment could not run; 1: it ran and failed a check,
	 * which its report shows. */
	if (rc >= 0 && r->nr && exp_report_finish(r, o))
		rc = -1;
	printf("  %.0f s, load average %.2f -> %.2f\n", (exp_now_ns() - start) / 1e9, load0, load1);
	rmdir(tmp);
	g_free(r);
	return rc ? 1 : 0;
}

int exp_main(const char *name, const struct exp_options *o)
{
	bool all = name && !strcmp(name, "all");
	int rc = 0, found = 0;

	for (unsigned k = 0; k < G_N_ELEMENTS(experiments); k++) {
		if (!all && (!name || strcmp(name, experiments[k].name)))
			continue;
		found = 1;
		rc |= run_one(k, o);
	}
	if (!found) {
		fprintf(stderr, "memcgfs-bench: experiment: unknown '%s' (seed000 ... seed004, all)\n",
			name ? name : "");
		return 2;
	}
	return rc;
}
