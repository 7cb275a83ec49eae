/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Seed 000: "mm: memcg: use rstat for non-hierarchical stats" (Linux 6.6),
 * on its base 6.1.
 *
 * Before, a v1 "local" (non-hierarchical) value is summed over every
 * possible CPU at read time (memcg_page_state_local(),
 * lruvec_page_state_local(), 6.1 mm/memcontrol.c); after, the rstat flush
 * keeps state_local/events_local beside the hierarchical counters
 * (mem_cgroup_css_rstat_flush() in 6.6), so a read of a v1 memory.stat
 * costs no per-CPU loop.  The knob is struct mcg_kernel's `local`.
 *
 * The experiment follows.
 */
#include "patches/patches.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <sys/stat.h>
#include <unistd.h>

#define SOURCE "seed 000 (000_9262c5599c5d289b.txt)"

static void seed000_before(struct mcg_kernel *k)
{
	k->local = MCG_LOCAL_PERCPU_SUM;
}

static void seed000_after(struct mcg_kernel *k)
{
	k->local = MCG_LOCAL_FLUSHED;
}

/* ---- seed 000: memory.stat of 1000 v1 memcgs against CPUs ----
 *
 * Before (6.1) a v1 memory.stat sums every local counter over every
 * possible CPU; after (6.6) the flush keeps the locals.
 *
 * Like for like.  The seed's `sys` time per file (120 us before, 27 us
 * after at 256 CPUs) is the patch's work plus what any read of a cgroupfs
 * file costs the kernel: open, read and close of a seq_file, the other
 * lines' formatting.  The daemon's time per read has no such fixed part
 * (the FUSE round trip is the reader's, not the daemon's), so its ratio is
 * not the seed's ratio.  What both measure alike is the work the patch
 * removes: the saving per file, before - after (93 us published), and that
 * saving per per-CPU counter load the before makes (memcgfs.flush_stats'
 * percpu_loads; the seed's 93 us over the same count of loads).  A ratio is
 * given only with a fixed per-file cost added to both sides: the CPU time
 * per file of reading memory.stat on this machine's own v1 cgroupfs
 * (real_cgroupfs_us_per_file()), a calibration from this machine's kernel,
 * where there is one to read.  The reader's wall time carries a FUSE round
 * trip per file on both sides, so its saving too is like for like with the
 * seed's `real` (0.125 s -> 0.032 s). */

#define CGROUP_SUPER_MAGIC 0x27e0eb

/* Removes the real cgroups cg1..cgN under dir, then dir; quiet. */
static void real_cgroups_remove(const char *dir, unsigned n)
{
	for (unsigned i = 1; i <= n; i++) {
		char *path = g_strdup_printf("%s/cg%u", dir, i);

		rmdir(path);
		g_free(path);
	}
	rmdir(dir);
}

/* The median thread CPU time, in us per file, of reading memory.stat of
 * ncg empty memcgs of this machine's v1 memory hierarchy, made in a
 * directory of our own (/sys/fs/cgroup/memory/memcgfs-experiment.PID) and
 * removed after; NAN where there is no writable v1 memory hierarchy. */
static double real_cgroupfs_us_per_file(unsigned ncg)
{
	const char *root = "/sys/fs/cgroup/memory";
	char *dir, *buf = NULL, *stat_path = g_strdup_printf("%s/memory.stat", root);
	double us[7] = { 0 }, result = NAN;
	unsigned made = 0, rounds = 0;
	struct statfs st;

	if (geteuid() != 0 || statfs(root, &st) || (unsigned long)st.f_type != CGROUP_SUPER_MAGIC ||
	    access(stat_path, R_OK)) {
		g_free(stat_path);
		return NAN;
	}
	g_free(stat_path);
	dir = g_strdup_printf("%s/memcgfs-experiment.%d", root, (int)getpid());
	if (mkdir(dir, 0755)) {
		g_free(dir);
		return NAN;
	}
	for (made = 0; made < ncg; made++) {
		char *path = g_strdup_printf("%s/cg%u", dir, made + 1);
		int rc = mkdir(path, 0755);

		g_free(path);
		if (rc)
			goto out;
	}
	buf = g_malloc(65536);
	/* One round to warm up, then the measured ones. */
	for (int round = -1; round < (int)G_N_ELEMENTS(us); round++) {
		double t0 = exp_thread_cpu_ns();

		for (unsigned i = 1; i <= ncg; i++) {
			char path[256];

			g_snprintf(path, sizeof(path), "%s/cg%u/memory.stat", dir, i);
			if (exp_read(path, buf, 65536) <= 0)
				goto out;
		}
		if (round >= 0)
			us[rounds++] = (exp_thread_cpu_ns() - t0) / 1e3 / ncg;
	}
	result = exp_median(us, rounds);
out:
	g_free(buf);
	real_cgroups_remove(dir, made);
	g_free(dir);
	return result;
}

static int seed000_experiment(const struct mcg_patch *patch, const struct exp_options *o,
			      const char *tmp, struct exp_report *r)
{
	static const unsigned full[] = { 64, 128, 256, 512 }, quick[] = { 64, 256 };
	const unsigned *cpus = o->quick ? quick : full;
	unsigned ncpus = o->quick ? G_N_ELEMENTS(quick) : G_N_ELEMENTS(full);
	const unsigned ncg = 1000;
	/* The seed's figures at 256 CPUs, per file; time(1) prints ms, so
	 * each total is known to 0.5 ms, each per-file figure to 0.5 us. */
	const double sys_saving = (0.120 - 0.027) / ncg * 1e6, real_saving =
		(0.125 - 0.032) / ncg * 1e6, res = 2 * 0.0005 / ncg * 1e6;
	double fixed_us;

	r->title = "cat cg*/memory.stat over 1000 v1 memcgs: locals summed per CPU (6.1) "
		   "vs kept by the flush (6.6)";
	g_strlcpy(r->xlabel, "emulated CPUs", sizeof(r->xlabel));
	g_strlcpy(r->ylabel, "daemon-side us per memory.stat read", sizeof(r->ylabel));
	r->logx = true;
	/* --quick times 50 real files: the path, not the figure. */
	fixed_us = real_cgroupfs_us_per_file(o->quick ? 50 : ncg);
	if (isnan(fixed_us))
		exp_progress("seed000: no writable v1 memory hierarchy at /sys/fs/cgroup/memory: "
			 "no calibrated ratio");
	else
		exp_progress("seed000: this machine's cgroupfs: %.1f us of CPU per memory.stat read",
			 fixed_us);
	for (unsigned k = 0; k < ncpus; k++) {
		struct exp_daemon d[2];
		char cpus_opt[32], what[128];
		const char *opts[] = { "--hierarchy=v1", cpus_opt, NULL };
		unsigned pairs = cpus[k] == 256 ? (o->quick ? 8 : 30) : (o->quick ? 4 : 30);
		double dn[2][EXP_MAX_PAIRS], wall[2][EXP_MAX_PAIRS], loads[2][EXP_MAX_PAIRS];
		double per_load[EXP_MAX_PAIRS], fixed[2][EXP_MAX_PAIRS], loads_before;
		char *buf;
		struct exp_result *row;

		g_snprintf(cpus_opt, sizeof(cpus_opt), "--cpus=%u", cpus[k]);
		exp_progress("seed000: %u CPUs: mounting and making %u cgroups on each side", cpus[k],
			 ncg);
		if (exp_pair_start(d, o, tmp, patch->name, opts, 0))
			return -1;
		for (int s = 0; s < 2; s++)
			if (exp_mkdirs(&d[s], "cg", 1, ncg + 1)) {
				exp_pair_stop(d);
				return -1;
			}
		buf = g_malloc(65536);
		for (unsigned i = 0; i < pairs + 1; i++) {
			for (int j = 0; j < 2; j++) {
				int s = (int)(i % 2) ^ j;
				double r0, n0, r1, n1, t0, l0, l1;

				exp_read_stats(&d[s], "memory.stat", &r0, &n0);
				l0 = exp_keyed(&d[s], "memcgfs.flush_stats", "percpu_loads");
				t0 = exp_now_ns();
				for (unsigned c = 1; c <= ncg; c++) {
					char path[256];

					g_snprintf(path, sizeof(path), "%s/cg%u/memory.stat", d[s].mnt, c);
					exp_read(path, buf, 65536);
				}
				/* The first round warms both daemons up. */
				if (i == 0)
					continue;
				wall[s][i - 1] = (exp_now_ns() - t0) / 1e3 / ncg;
				exp_read_stats(&d[s], "memory.stat", &r1, &n1);
				l1 = exp_keyed(&d[s], "memcgfs.flush_stats", "percpu_loads");
				dn[s][i - 1] = (n1 - n0) / (r1 - r0) / 1e3;
				loads[s][i - 1] = (l1 - l0) / (r1 - r0);
			}
		}
		g_free(buf);
		exp_pair_stop(d);
		for (unsigned i = 0; i < pairs; i++) {
			double dl = loads[0][i] - loads[1][i];

			per_load[i] = dl > 0 ? (dn[0][i] - dn[1][i]) * 1e3 / dl : NAN;
			fixed[0][i] = fixed_us + dn[0][i];
			fixed[1][i] = fixed_us + dn[1][i];
		}
		loads_before = exp_median(loads[0], pairs);

		g_snprintf(what, sizeof(what), "daemon us per memory.stat read, %u CPUs", cpus[k]);
		row = exp_add_pairs(r, what, "us", dn[0], dn[1], pairs);
		r->x[r->npoints] = cpus[k];
		r->yb[r->npoints] = row->before;
		r->ya[r->npoints++] = row->after;
		if (cpus[k] == 256) {
			row->headline = true;
			g_snprintf(row->measure, sizeof(row->measure),
				   "daemon us saved per memory.stat read (before - after), 256 CPUs");
			exp_publish(row, EXP_EFFECT_SAVING, sys_saving, sys_saving - res,
				    sys_saving + res,
				    "sys 0m0.120s -> 0m0.027s for 1000 files at 256 CPUs: %.0f us "
				    "saved per file, " SOURCE, sys_saving);
		}
		g_snprintf(what, sizeof(what), "ns saved per per-CPU load (%.0f loads per read), %u CPUs",
			   loads_before, cpus[k]);
		row = exp_add_values(r, what, "ns", per_load, pairs);
		if (cpus[k] == 256 && loads_before > 0) {
			double p = sys_saving * 1e3 / loads_before;

			exp_publish(row, EXP_EFFECT_SAVING, p, (sys_saving - res) * 1e3 / loads_before,
				    (sys_saving + res) * 1e3 / loads_before,
				    "%.0f us over the %.0f per-CPU loads 6.1 makes per file at 256 "
				    "CPUs and one node (counted here), " SOURCE,
				    sys_saving, loads_before);
		}
		if (!isnan(fixed_us)) {
			g_snprintf(what, sizeof(what),
				   "(F + daemon us) per read, F = %.1f us of this machine's cgroupfs, "
				   "%u CPUs", fixed_us, cpus[k]);
			row = exp_add_pairs(r, what, "us", fixed[0], fixed[1], pairs);
			if (cpus[k] == 256) {
				double p, lo, hi;

				exp_published_ratio(0.120, 0.027, 0.0005, &p, &lo, &hi);
				exp_publish(row, EXP_EFFECT_RATIO, p, lo, hi,
					    "sys 0m0.120s -> 0m0.027s (%.2fx); F calibrates the fixed "
					    "cost per file on this machine's kernel, not the seed's, "
					    SOURCE, p + 1);
			}
		}
		g_snprintf(what, sizeof(what), "reader us per file for cat of %u memory.stat, %u CPUs",
			   ncg, cpus[k]);
		row = exp_add_pairs(r, what, "us", wall[0], wall[1], pairs);
		if (cpus[k] == 256)
			exp_publish(row, EXP_EFFECT_SAVING, real_saving, real_saving - res,
				    real_saving + res,
				    "real 0m0.125s -> 0m0.032s: %.0f us saved per file (the FUSE "
				    "round trip is on both sides here), " SOURCE, real_saving);
		exp_progress("seed000: %u CPUs: daemon us per read before %.1f after %.1f", cpus[k],
			 r->yb[r->npoints - 1], r->ya[r->npoints - 1]);
	}
	return 0;
}

const struct mcg_patch mcg_patch_seed000 = {
	.name = "seed000",
	.base = "6.1",
	.title = "mm: memcg: use rstat for non-hierarchical stats",
	.upstream = "Yosry Ahmed, 2023-07 (Linux 6.6); the thread: "
		"https://lore.kernel.org/r/20230724113104.6994bd471fb926ceeaf46707@linux-foundation.org",
	.published = "cat memory.stat of 1000 v1 memcgs at 256 CPUs: sys 0m0.120s -> 0m0.027s, "
		"real 0m0.125s -> 0m0.032s (seed 000 (000_9262c5599c5d289b.txt))",
	.before_help = "6.1: v1 local stats summed over every CPU at read time",
	.after_help = "6.1 + patch: local stats kept by the rstat flush",
	.before = seed000_before,
	.after = seed000_after,
	.experiment = seed000_experiment,
};
