/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seed experiments, rerun through a mounted memcgfs (memcgfs-bench
 * experiment seedNNN).
 *
 * Each experiment mounts a "before" and an "after" daemon of the seed's
 * kernel, builds the seed's setup with mkdir and the file interface, and
 * measures through the mount: the reading process's wall time, and the
 * daemon's own cost of the same reads (memcgfs.read_stats), the analogue
 * of the seed's `sys` time, which FUSE round trips do not drown.  Before
 * and after are measured in interleaved pairs; every figure is reported as
 * the median of each side, the median paired ratio with an exact 95%
 * order-statistic interval, and the number of pairs, beside the figure the
 * seed published and a verdict.
 *
 * The module uses no engine: it drives the daemon binary, as a user's
 * script would.
 */
#ifndef MEMCGFS_EXPERIMENT_EXPERIMENT_H
#define MEMCGFS_EXPERIMENT_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct exp_options {
	bool quick;		/* under a minute per experiment, direction only */
	const char *out_dir;	/* where seedNNN.tsv and seedNNN.png go */
	const char *memcgfs;	/* the daemon binary */
};

/* Runs experiment `name` ("seed000" ... "seed004", or "all").  0 on
 * success, 2 on a usage error (printed), 1 on a failure (printed). */
int exp_main(const char *name, const struct exp_options *o);

/* ---- statistics (stats.c) ---- */

double exp_median(const double *v, unsigned n);
/* The exact distribution-free 95% interval of the median of v[0..n): the
 * order statistics whose ranks a Binomial(n, 1/2) puts 2.5% outside
 * either side.  For n < 6 no such interval exists: lo and hi are then the
 * smallest and largest value. */
void exp_median_interval(const double *v, unsigned n, double *lo, double *hi);

/* ---- daemons (daemon.c) ---- */

struct exp_daemon {
	char *mnt;		/* mount point (created, removed on stop) */
	pid_t pid;		/* memcgfs -f */
	bool stopped;		/* SIGSTOPped to keep it off the CPUs */
};

/* Mounts a memcgfs with argv-style options (NULL-terminated) on a fresh
 * directory under `parent`.  0, or -1 after a message. */
int exp_daemon_start(struct exp_daemon *d, const struct exp_options *o, const char *parent,
		     const char *tag, const char *const *opts);
void exp_daemon_stop(struct exp_daemon *d);
/* SIGSTOP / SIGCONT, so that a daemon whose turn it is not takes no CPU. */
void exp_daemon_pause(struct exp_daemon *d, bool stop);
/* CPU time of the daemon's threads whose name starts with prefix (NULL:
 * all; "wl-cpu": the workers), in ns (/proc/PID/task/N/schedstat).  A
 * thread that exited takes its time with it. */
uint64_t exp_daemon_cpu_ns(const struct exp_daemon *d, const char *prefix);

/* Paths and files under a mount; all return -1 after a message on failure. */
int exp_mkdir(const struct exp_daemon *d, const char *rel);
int exp_write(const struct exp_daemon *d, const char *rel, const char *text);
/* Reads a whole file (open, read to EOF, close) into buf (NUL-terminated,
 * truncated at size - 1).  Returns the bytes read, or -1. */
ssize_t exp_read(const char *path, char *buf, size_t size);
/* Value of key `key` in a "key value" file under the mount (the first
 * number after it), or NAN. */
double exp_keyed(const struct exp_daemon *d, const char *rel, const char *key);
/* memcgfs.read_stats: renders and ns so far of file `name`. */
void exp_read_stats(const struct exp_daemon *d, const char *name, double *renders, double *ns);

double exp_now_ns(void);
/* The 1-minute load average, and a warning on stderr if the machine is
 * busier than its CPUs. */
double exp_loadavg(void);

/* ---- results (report.c) ---- */

struct exp_result {
	char measure[96];
	char unit[16];
	double before, after;	/* medians */
	double ratio, lo, hi;	/* median paired before/after, its 95% interval */
	unsigned n;
	char published[160];	/* the seed's figure and where it is, or "-" */
	double published_ratio;	/* before/after published, 0 if none */
	bool headline;
	char verdict[192];
};

struct exp_report {
	const char *seed;	/* "seed000" */
	const char *title;
	struct exp_result rows[48];
	unsigned nr;
	/* The plot: curves of before and after against x, or paired values. */
	char xlabel[48], ylabel[48];
	bool logx, logy;
	double x[16], yb[16], ya[16];
	unsigned npoints;
	double deltas[128];	/* when npoints == 0: paired deltas, in percent */
	unsigned ndeltas;
};

/* Adds a row from paired samples b[i], a[i] (i < n), leaving out pairs with
 * a side that is not a finite number (a window where nothing happened): n
 * is the pairs kept.  Returns the row. */
struct exp_result *exp_add_pairs(struct exp_report *r, const char *measure, const char *unit,
				 const double *b, const double *a, unsigned n);
/* Writes DIR/seedNNN.tsv and DIR/seedNNN.png (if gnuplot is there) and
 * prints the table.  0, or -1 after a message. */
int exp_report_finish(struct exp_report *r, const struct exp_options *o);

#endif
