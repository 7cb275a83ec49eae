/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The standard battery: what any flushing patch is argued on, measured
 * base against base + patch for a patch without an experiment of its own.
 *
 *   reads     a reader of a busy parent's memory.stat in a loop (a parent
 *             of 20 children with a page-cache and anonymous workload), at
 *             64, 256 and 512 CPUs: the daemon's time per read (its flush
 *             and render, memcgfs.read_stats), the flush callbacks per
 *             read (memcgfs.flush_stats' visited), and what the read is
 *             worth (--accuracy: the 99th percentile of the largest error
 *             in pages and in percent, the median and 99th percentile age)
 *   numa      the root's memory.numa_stat with 10,000 memcgs (1,000 in
 *             --quick), 64 CPUs: reader and daemon ms per read
 *   updates   the workers' CPU per page event of a busy memcg at 8 CPUs,
 *             no reader: the update side
 *   periodic  the periodic flush alone, 100 busy memcgs at 64 CPUs with a
 *             500 ms period: us per periodic flush
 *
 * Every figure comes from daemon pairs (experiment.h): full mode 4 pairs
 * of daemons, each measured in 6 interleaved pairs; --quick 2 and 2.  A
 * patch may give published figures for any row (struct exp_figure, by the
 * start of the row's measure): those get verdicts, and the first given is
 * the headline.  Without figures the battery has no headline and no
 * verdict: it measures, and the reader judges.
 */
#include "experiment/experiment.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHILD_PROFILE "anon=300 file_read=300 slab=20 footprint=16M turnover=10"

struct battery {
	const char *patch;
	const struct exp_options *o;
	const char *tmp;
	struct exp_report *r;
	unsigned blocks, per;
};

/* Pairs of samples of up to 8 quantities, over all daemon pairs. */
/* The reads' rows: cost, callbacks, accuracy (4), flush time by
 * initiator (2), the writer side (2). */
#define NR_READ_ROWS 10

struct samples {
	double v[NR_READ_ROWS][2][EXP_MAX_PAIRS];
};

/* Starts daemon pair `blk` of the patch with opts.  0 or -1. */
static int start(struct battery *b, struct exp_daemon d[2], const char *const *opts, unsigned blk)
{
	return exp_pair_start(d, b->o, b->tmp, b->patch, opts, blk);
}

static int set_workload(const struct exp_daemon *d, const char *rel, const char *profile)
{
	char path[96];

	g_snprintf(path, sizeof(path), "%s/memcgfs.workload", rel);
	return exp_write(d, path, profile);
}

/* ---- reads: a busy parent's memory.stat in a loop ---- */

static int reads_setup(struct exp_daemon d[2], int s)
{
	exp_pair_turn(d, s);
	if (exp_mkdir(&d[s], "p") || exp_write(&d[s], "p/cgroup.subtree_control", "+memory") ||
	    exp_mkdirs(&d[s], "p/c", 1, 21))
		return -1;
	for (unsigned i = 1; i <= 20; i++) {
		char rel[32];

		g_snprintf(rel, sizeof(rel), "p/c%u", i);
		if (set_workload(&d[s], rel, CHILD_PROFILE))
			return -1;
	}
	g_usleep(300 * 1000);
	return 0;
}

static int battery_reads(struct battery *b)
{
	static const unsigned full[] = { 64, 256, 512 }, quick[] = { 64 };
	static const char *const what[NR_READ_ROWS] = {
		"daemon us per memory.stat read of a busy parent",
		"flush callbacks per memory.stat read",
		"error of a read, p99 of the largest, pages",
		"error of a read, p99 of the largest, percent",
		"age of a read's data, median, ms",
		"age of a read's data, p99, ms",
		"memcg flush us per read, the reader's own",
		"periodic flush us per second, meanwhile",
		"updater slow paths (links) per read",
		"updater waits for a flusher's CPU lock per read",
	};
	static const char *const unit[NR_READ_ROWS] = { "us", "calls", "pages", "%", "ms", "ms",
						       "us", "us/s", "links", "waits" };
	const unsigned *cpus = b->o->quick ? quick : full;
	unsigned ncpus = b->o->quick ? G_N_ELEMENTS(quick) : G_N_ELEMENTS(full);
	struct samples *sm = g_new0(struct samples, 1);
	int rc = -1;

	for (unsigned k = 0; k < ncpus; k++) {
		char cpus_opt[32];
		const char *opts[] = { cpus_opt, "--accuracy", NULL };

		g_snprintf(cpus_opt, sizeof(cpus_opt), "--cpus=%u", cpus[k]);
		for (unsigned blk = 0; blk < b->blocks; blk++) {
			struct exp_daemon d[2];

			exp_progress("%s: reads at %u CPUs, daemon pair %u/%u", b->patch, cpus[k],
				     blk + 1, b->blocks);
			if (start(b, d, opts, blk))
				goto out;
			if (reads_setup(d, 0) || reads_setup(d, 1)) {
				exp_pair_stop(d);
				goto out;
			}
			for (unsigned i = 0; i < b->per + 1; i++)
				for (int j = 0; j < 2; j++) {
					int s = (int)(i % 2) ^ j;
					struct exp_read_window w;
					double v[NR_READ_ROWS];

					/* --quick: a shorter settle, ages not the
					 * steady state's */
					exp_read_window(d, s, "p/memory.stat",
							b->o->quick ? 0.05 : 2.1,
							b->o->quick ? 0.2 : 0.3, &w);
					v[0] = w.us;
					v[1] = w.callbacks;
					v[2] = w.err_pages_p99;
					v[3] = w.err_pct_p99;
					v[4] = w.age_ms_p50;
					v[5] = w.age_ms_p99;
					v[6] = w.own_us;
					v[7] = w.periodic_us_per_s;
					v[8] = w.links;
					v[9] = w.link_waits;
					for (unsigned q = 0; i && q < NR_READ_ROWS; q++)
						sm->v[q][s][blk * b->per + i - 1] = v[q];
				}
			exp_pair_stop(d);
		}
		for (unsigned q = 0; q < NR_READ_ROWS; q++) {
			char m[128];
			struct exp_result *row;

			g_snprintf(m, sizeof(m), "%s, %u CPUs", what[q], cpus[k]);
			/* Callbacks, errors, flush times and links may be 0
			 * on a side: their savings, not ratios. */
			row = (q == 0 || q == 4 || q == 5 ? exp_add_pairs : exp_add_pair_savings)(
				b->r, m, unit[q], sm->v[q][0], sm->v[q][1], b->blocks * b->per);
			if (q == 0) {
				b->r->x[b->r->npoints] = cpus[k];
				b->r->yb[b->r->npoints] = row->before;
				b->r->ya[b->r->npoints++] = row->after;
			}
		}
	}
	rc = 0;
out:
	g_free(sm);
	return rc;
}

/* ---- numa: the root's memory.numa_stat with many memcgs ---- */

static int battery_numa(struct battery *b)
{
	const unsigned ncg = b->o->quick ? 1000 : 10000, blocks = b->o->quick ? 1 : 2;
	const char *opts[] = { "--cpus=64", NULL };
	struct samples *sm = g_new0(struct samples, 1);
	char *buf = g_malloc(1 << 20), m[96];
	int rc = -1;

	for (unsigned blk = 0; blk < blocks; blk++) {
		struct exp_daemon d[2];
		char path[2][256];

		exp_progress("%s: root memory.numa_stat, %u memcgs, daemon pair %u/%u", b->patch, ncg,
			     blk + 1, blocks);
		if (start(b, d, opts, blk))
			goto out;
		for (int s = 0; s < 2; s++) {
			g_snprintf(path[s], sizeof(path[s]), "%s/memory.numa_stat", d[s].mnt);
			if (exp_mkdirs(&d[s], "cg", 1, ncg + 1)) {
				exp_pair_stop(d);
				goto out;
			}
		}
		if (exp_read(path[0], buf, 1 << 20) < 0) {
			/* the release has no root numa_stat: no row */
			exp_pair_stop(d);
			rc = 0;
			goto out;
		}
		for (unsigned i = 0; i < b->per + 1; i++)
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				double r0, n0, r1, n1, t0;
				unsigned at = blk * b->per + i - 1;

				exp_read_stats(&d[s], "memory.numa_stat", &r0, &n0);
				t0 = exp_now_ns();
				exp_read(path[s], buf, 1 << 20);
				if (i == 0)
					continue;
				sm->v[0][s][at] = (exp_now_ns() - t0) / 1e6;
				exp_read_stats(&d[s], "memory.numa_stat", &r1, &n1);
				sm->v[1][s][at] = r1 > r0 ? (n1 - n0) / (r1 - r0) / 1e6 : NAN;
			}
		exp_pair_stop(d);
	}
	b->r->blocks = blocks;
	g_snprintf(m, sizeof(m), "reader ms per root memory.numa_stat read, %u memcgs", ncg);
	exp_add_pairs(b->r, m, "ms", sm->v[0][0], sm->v[0][1], blocks * b->per);
	g_snprintf(m, sizeof(m), "daemon ms per root memory.numa_stat read, %u memcgs", ncg);
	exp_add_pairs(b->r, m, "ms", sm->v[1][0], sm->v[1][1], blocks * b->per);
	b->r->blocks = b->blocks;
	rc = 0;
out:
	g_free(buf);
	g_free(sm);
	return rc;
}

/* ---- updates: the workers' cost per page event ---- */

static int battery_updates(struct battery *b)
{
	const char *opts[] = { "--cpus=8", NULL };
	struct samples *sm = g_new0(struct samples, 1);
	int rc = -1;

	for (unsigned blk = 0; blk < b->blocks; blk++) {
		struct exp_daemon d[2];

		exp_progress("%s: updates, daemon pair %u/%u", b->patch, blk + 1, b->blocks);
		if (start(b, d, opts, blk))
			goto out;
		for (int s = 0; s < 2; s++)
			if (exp_mkdir(&d[s], "m") ||
			    set_workload(&d[s], "m", "anon=20000 file_read=10000 slab=500 "
						      "footprint=64M turnover=20")) {
				exp_pair_stop(d);
				goto out;
			}
		for (unsigned i = 0; i < b->per + 1; i++)
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				double v = exp_fault_window(d, s, "m", b->o->quick ? 0.2 : 0.4);

				if (i)
					sm->v[0][s][blk * b->per + i - 1] = v;
			}
		exp_pair_stop(d);
	}
	exp_add_pairs(b->r, "workers' CPU ns per page event, 8 CPUs, no reader", "ns", sm->v[0][0],
		      sm->v[0][1], b->blocks * b->per);
	rc = 0;
out:
	g_free(sm);
	return rc;
}

/* ---- periodic: the periodic flush alone ---- */

static int battery_periodic(struct battery *b)
{
	const char *opts[] = { "--cpus=64", "--flush_period_ms=500", NULL };
	struct samples *sm = g_new0(struct samples, 1);
	int rc = -1;

	for (unsigned blk = 0; blk < b->blocks; blk++) {
		struct exp_daemon d[2];

		exp_progress("%s: periodic flush, daemon pair %u/%u", b->patch, blk + 1, b->blocks);
		if (start(b, d, opts, blk))
			goto out;
		for (int s = 0; s < 2; s++) {
			exp_pair_turn(d, s);
			if (exp_mkdirs(&d[s], "cg", 1, 101)) {
				exp_pair_stop(d);
				goto out;
			}
			for (unsigned i = 1; i <= 100; i++) {
				char rel[32];

				g_snprintf(rel, sizeof(rel), "cg%u", i);
				if (set_workload(&d[s], rel, "anon=500 slab=20 footprint=8M turnover=10")) {
					exp_pair_stop(d);
					goto out;
				}
			}
		}
		for (unsigned i = 0; i < b->per + 1; i++)
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				double p0, p1, t0, t1;

				exp_pair_turn(d, s);
				p0 = exp_keyed(&d[s], "memcgfs.flush_stats", "periodic");
				t0 = exp_keyed(&d[s], "memcgfs.flush_stats", "flush_usec");
				g_usleep(b->o->quick ? 1100 * 1000 : 2100 * 1000);
				p1 = exp_keyed(&d[s], "memcgfs.flush_stats", "periodic");
				t1 = exp_keyed(&d[s], "memcgfs.flush_stats", "flush_usec");
				if (i)
					sm->v[0][s][blk * b->per + i - 1] =
						p1 > p0 ? (t1 - t0) / (p1 - p0) : NAN;
			}
		exp_pair_stop(d);
	}
	exp_add_pairs(b->r, "us per periodic flush, 100 busy memcgs at 64 CPUs (500 ms period)",
		      "us", sm->v[0][0], sm->v[0][1], b->blocks * b->per);
	rc = 0;
out:
	g_free(sm);
	return rc;
}

int exp_battery(const char *patch, const struct exp_figure *figures, const struct exp_options *o,
		const char *tmp, struct exp_report *r)
{
	struct battery b = { patch, o, tmp, r, o->quick ? 2 : 4, o->quick ? 2 : 6 };
	bool headline = false;

	g_strlcpy(r->xlabel, "emulated CPUs", sizeof(r->xlabel));
	g_strlcpy(r->ylabel, "daemon us per memory.stat read of a busy parent", sizeof(r->ylabel));
	r->logx = true;
	r->blocks = b.blocks;
	if (battery_reads(&b) || battery_numa(&b) || battery_updates(&b) || battery_periodic(&b))
		return -1;
	for (const struct exp_figure *f = figures; f && f->measure; f++)
		for (unsigned i = 0; i < r->nr; i++) {
			struct exp_result *row = &r->rows[i];

			if (strncmp(row->measure, f->measure, strlen(f->measure)) != 0)
				continue;
			exp_publish(row, f->effect, f->p, f->p_lo, f->p_hi, "%s", f->text);
			if (!headline)
				row->headline = headline = true;
			break;
		}
	return 0;
}
