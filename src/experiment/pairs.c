/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Daemon pairs and the driver of one experiment: what every patch's
 * experiment (src/patches/) builds on.
 *
 * Pairs interleave: pair i measures before then after when i is even,
 * after then before when it is odd, so that a drift of the machine hits
 * both sides alike.  Experiments with a workload stop (SIGSTOP) the daemon
 * whose turn it is not, so the two never compete for the CPUs.  Those
 * whose effects are a few percent run several daemon pairs in turn, each
 * started and set up afresh, so that their intervals hold the spread
 * between daemon starts (experiment.h, "Daemon pairs"). */
#include "experiment/experiment.h"

#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const sides[2] = { "before", "after" };

int exp_pair_start(struct exp_daemon d[2], const struct exp_options *o, const char *tmp,
		   const char *patch, const char *const *opts, unsigned block)
{
	/* Both cleared first: a failure leaves nothing for exp_pair_stop(). */
	memset(d, 0, 2 * sizeof(*d));
	for (int j = 0; j < 2; j++) {
		int s = j ^ (int)(block % 2);
		const char *argv[16];
		char patch_opt[96];
		unsigned n = 0;

		g_snprintf(patch_opt, sizeof(patch_opt), "--patch=%s:%s", patch,
			   o->same ? sides[0] : sides[s]);
		argv[n++] = patch_opt;
		for (const char *const *p = opts; *p && n < G_N_ELEMENTS(argv) - 1; p++)
			argv[n++] = *p;
		argv[n] = NULL;
		if (exp_daemon_start(&d[s], o, tmp, sides[s], argv)) {
			if (j)
				exp_daemon_stop(&d[!s]);
			return -1;
		}
	}
	return 0;
}

void exp_pair_stop(struct exp_daemon d[2])
{
	exp_daemon_stop(&d[0]);
	exp_daemon_stop(&d[1]);
}

void exp_pair_turn(struct exp_daemon d[2], int s)
{
	exp_daemon_pause(&d[s], false);
	exp_daemon_pause(&d[!s], true);
}

void exp_progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("  .. ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
}

/* Thousands of mkdirs take seconds through FUSE: a line every 2000. */
int exp_mkdirs(const struct exp_daemon *d, const char *prefix, unsigned from, unsigned to)
{
	for (unsigned i = from; i < to; i++) {
		char rel[64];

		g_snprintf(rel, sizeof(rel), "%s%u", prefix, i);
		if (exp_mkdir(d, rel))
			return -1;
		if (to - from >= 4000 && (i + 1 - from) % 2000 == 0)
			exp_progress("%s: %u of %u cgroups made", d->mnt, i + 1 - from, to - from);
	}
	return 0;
}

void exp_warm_up(struct exp_daemon d[2], int s, const char *rel, double value, double cap)
{
	double end = exp_now_ns() + cap * 1e9;

	exp_pair_turn(d, s);
	/* (NAN >= value is false: an unreadable file waits out the cap.) */
	while (exp_now_ns() < end && !(exp_value(&d[s], rel) >= value))
		g_usleep(100 * 1000);
}

double exp_children_stat(const struct exp_daemon *d, const char *parent, unsigned n,
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

double exp_fault_window(struct exp_daemon d[2], int s, const char *rel, double secs)
{
	char stat[256];
	double e0, e1, c0, c1;

	g_snprintf(stat, sizeof(stat), "%s/memcgfs.workload_stat", rel);
	exp_pair_turn(d, s);
	g_usleep(100 * 1000);
	e0 = exp_keyed(&d[s], stat, "page_events");
	c0 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
	g_usleep((gulong)(secs * 1e6));
	c1 = (double)exp_daemon_cpu_ns(&d[s], "wl-cpu");
	e1 = exp_keyed(&d[s], stat, "page_events");
	return e1 > e0 ? (c1 - c0) / (e1 - e0) : NAN;
}

void exp_read_window(struct exp_daemon d[2], int s, const char *rel, double settle, double secs,
		     struct exp_read_window *out)
{
	char path[256], *buf = g_malloc(65536);
	static const char *const keys[] = { "visited", "read_usec", "periodic_usec", "links",
					    "link_waits" };
	double r0, n0, r1, n1, k0[5], k1[5], t0, t1, end;

	exp_pair_turn(d, s);
	g_usleep((gulong)(settle * 1e6));
	exp_write(&d[s], "memcgfs.accuracy", "0");
	exp_read_stats(&d[s], "memory.stat", &r0, &n0);
	for (unsigned k = 0; k < 5; k++)
		k0[k] = exp_keyed(&d[s], "memcgfs.flush_stats", keys[k]);
	g_snprintf(path, sizeof(path), "%s/%s", d[s].mnt, rel);
	t0 = exp_now_ns();
	for (end = t0 + secs * 1e9; exp_now_ns() < end;)
		exp_read(path, buf, 65536);
	t1 = exp_now_ns();
	exp_read_stats(&d[s], "memory.stat", &r1, &n1);
	for (unsigned k = 0; k < 5; k++)
		k1[k] = exp_keyed(&d[s], "memcgfs.flush_stats", keys[k]);
	out->us = r1 > r0 ? (n1 - n0) / (r1 - r0) / 1e3 : NAN;
	out->callbacks = r1 > r0 ? (k1[0] - k0[0]) / (r1 - r0) : NAN;
	out->own_us = r1 > r0 ? (k1[1] - k0[1]) / (r1 - r0) : NAN;
	out->periodic_us_per_s = (k1[2] - k0[2]) / ((t1 - t0) / 1e9);
	out->links = r1 > r0 ? (k1[3] - k0[3]) / (r1 - r0) : NAN;
	out->link_waits = r1 > r0 ? (k1[4] - k0[4]) / (r1 - r0) : NAN;
	out->err_pages_p99 = exp_keyed(&d[s], "memcgfs.accuracy", "error_pages_p99");
	out->err_pct_p99 = exp_keyed(&d[s], "memcgfs.accuracy", "error_pct_p99");
	out->age_ms_p50 = exp_keyed(&d[s], "memcgfs.accuracy", "age_usec_p50") / 1e3;
	out->age_ms_p99 = exp_keyed(&d[s], "memcgfs.accuracy", "age_usec_p99") / 1e3;
	g_free(buf);
}

int exp_run(const char *name, const char *title, exp_run_fn run, const void *arg,
	    const struct exp_options *o)
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
	r->name = name;
	r->title = title;
	r->file_tag = o->battery ? (o->same ? "-battery-aa" : "-battery") : o->same ? "-aa" : "";
	printf("%s: %s mode%s%s; load average %.2f\n", r->name, o->quick ? "quick" : "full",
	       o->battery ? ", the standard battery" : "",
	       o->same ? ", A/A (before on both sides)" : "", load0 = exp_loadavg());
	fflush(stdout);
	rc = run(arg, o, tmp, r);
	/* Two identical daemons have no published figure to meet. */
	for (unsigned i = 0; o->same && i < r->nr; i++) {
		r->rows[i].has_published = false;
		g_strlcpy(r->rows[i].published, "-", sizeof(r->rows[i].published));
	}
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
