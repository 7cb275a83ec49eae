/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machinery of the patch experiments (memcgfs-bench experiment NAME),
 * each rerun through a mounted memcgfs; the experiments themselves are
 * their patches' (src/patches/).
 *
 * Each experiment mounts a "before" and an "after" daemon of the patch's
 * kernel, builds the patch's setup with mkdir and the file interface, and
 * measures through the mount: the reading process's wall time, and the
 * daemon's own cost of the same reads (memcgfs.read_stats), the analogue
 * of the seed's `sys` time, which FUSE round trips do not drown.  Before
 * and after are measured in interleaved pairs; every figure is reported as
 * the median of each side, the median paired ratio with an exact 95%
 * order-statistic interval, and the number of pairs, beside the figure the
 * seed published and a verdict.
 *
 * The module uses no engine: it drives the daemon binary, as a user's
 * script would (seed 004 borrows only the workload's fault_work
 * calibration, mcg_fault_work_per_ns(), to turn a time into a count).
 */
#ifndef MEMCGFS_EXPERIMENT_EXPERIMENT_H
#define MEMCGFS_EXPERIMENT_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <glib.h>

struct exp_options {
	bool quick;		/* under a minute per experiment, direction only */
	const char *out_dir;	/* where NAME.tsv and NAME.png go */
	const char *memcgfs;	/* the daemon binary */
	/* An A/A run: the before kernel on both sides, so every effect is
	 * the noise floor of two identical daemons; no verdicts, and the
	 * files are NAME-aa.tsv and .png. */
	bool same;
	/* The standard battery (exp_battery()) even for a patch with an
	 * experiment of its own: the same cost-against-accuracy rows for
	 * every patch; the files are NAME-battery.tsv and .png. */
	bool battery;
};

struct exp_report;

/* One experiment: measures into r, with scratch directory tmp; arg is the
 * caller's (the patch).  0, 1 for a run whose check failed (its report
 * says which), -1 if it could not run. */
typedef int (*exp_run_fn)(const void *arg, const struct exp_options *o, const char *tmp,
			  struct exp_report *r);
/* Runs one experiment called `name` (the files' stem) with its title,
 * then writes its report (exp_report_finish()).  0, or 1 after a message
 * on a failure. */
int exp_run(const char *name, const char *title, exp_run_fn run, const void *arg,
	    const struct exp_options *o);

/* ---- statistics (stats.c) ---- */

double exp_median(const double *v, unsigned n);
/* The exact distribution-free 95% interval of the median of v[0..n): the
 * order statistics whose ranks a Binomial(n, 1/2) puts 2.5% outside
 * either side.  For n < 6 no such interval exists: lo and hi are then the
 * smallest and largest value. */
void exp_median_interval(const double *v, unsigned n, double *lo, double *hi);
/* The mean of v[0..n) and its 95% interval from Student's t with n - 1
 * degrees of freedom (NAN bounds for n < 2): for the effects of a few
 * daemon pairs, each already a median (see "Daemon pairs" below). */
void exp_mean_interval(const double *v, unsigned n, double *mean, double *lo, double *hi);

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
/* The number a one-value file under the mount holds, or NAN. */
double exp_value(const struct exp_daemon *d, const char *rel);
/* memcgfs.read_stats: renders and ns so far of file `name`. */
void exp_read_stats(const struct exp_daemon *d, const char *name, double *renders, double *ns);

double exp_now_ns(void);
/* The calling thread's CPU time, in ns. */
double exp_thread_cpu_ns(void);
/* A calibration: the median CPU time, in ns per page, of faulting in and
 * unmapping 64 MiB of private anonymous memory in small pages on this
 * machine (the kernel's fixed cost of a fault, its own memcg charge
 * included); NAN if the mapping fails. */
double exp_real_fault_ns(void);
/* The 1-minute load average, and a warning on stderr if the machine is
 * busier than its CPUs. */
double exp_loadavg(void);

/* ---- daemon pairs (pairs.c) ---- */

/* Full mode: at least 30 pairs per figure; --quick only shows the
 * direction.  No row takes more. */
#define EXP_MAX_PAIRS 128

/* Mounts patch `patch`'s before (d[0]) and after (d[1]) with the same
 * options (--patch=NAME:before|after, then opts, NULL-terminated); the
 * after first in odd daemon pairs (`block`), so that which starts first
 * is not always the same side.  With o->same both are the before.  0, or
 * -1 after a message with nothing left mounted. */
int exp_pair_start(struct exp_daemon d[2], const struct exp_options *o, const char *tmp,
		   const char *patch, const char *const *opts, unsigned block);
void exp_pair_stop(struct exp_daemon d[2]);
/* Only side s runs: the other is stopped (exp_daemon_pause()). */
void exp_pair_turn(struct exp_daemon d[2], int s);
/* Runs side s alone until file `rel` of its mount reads at least `value`
 * (a workload filling up to its limit), or `cap` seconds pass. */
void exp_warm_up(struct exp_daemon d[2], int s, const char *rel, double value, double cap);
/* mkdir PREFIXfrom ... PREFIX(to - 1) under the mount.  0, or -1. */
int exp_mkdirs(const struct exp_daemon *d, const char *prefix, unsigned from, unsigned to);
/* The sum of memcgfs.workload_stat key `key` over PARENT/c1 ... cN. */
double exp_children_stat(const struct exp_daemon *d, const char *parent, unsigned n,
			 const char *key);
/* Side s alone, 100 ms to settle, then `secs`: the workers' CPU ns per
 * page event of the cgroup at rel (its memcgfs.workload_stat), NAN if it
 * made none. */
double exp_fault_window(struct exp_daemon d[2], int s, const char *rel, double secs);
/* What a reader of one memory.stat got in a window (exp_read_window()). */
struct exp_read_window {
	double us;			/* the daemon's time per read */
	double callbacks;		/* memcg flush callbacks per read */
	double err_pages_p99, err_pct_p99;	/* --accuracy: p99 of a read's error */
	double age_ms_p50, age_ms_p99;		/* --accuracy: its data's age */
	/* Flush time by initiator: the reader's own memcg flushes per read,
	 * and the periodic flusher's per second meanwhile.  The writer side
	 * per read: the updaters' slow paths (a flush unlinks what it folds,
	 * the next update links it again) and their waits for a flusher's
	 * CPU lock. */
	double own_us, periodic_us_per_s, links, link_waits;
};
/* Side s alone: `settle` seconds (a daemon resumed from its pause runs the
 * periodic flushes it missed at once: a period later the ages are the
 * steady state's), then a reader of rel (a memory.stat) in a loop for
 * `secs`.  NAN where no read was counted. */
void exp_read_window(struct exp_daemon d[2], int s, const char *rel, double settle, double secs,
		     struct exp_read_window *out);
/* A progress line ("  .. text"), flushed. */
void exp_progress(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* ---- results (report.c) ---- */

/*
 * Effect sizes and the verdict.
 *
 * A row compares a before with an after through its effect size, the
 * quantity a reviewer sets beside the published one:
 *   EXP_EFFECT_RATIO   before / after - 1, for a cost that the patch
 *                      divides (0.055 for "5m20.2s -> 5m03.5s");
 *   EXP_EFFECT_SAVING  before - after in the row's unit, for work that
 *                      the patch removes (93 us per file for "0.120 s ->
 *                      0.027 s over 1000 files"), when the two sides
 *                      carry fixed costs that differ from the source's;
 *   EXP_EFFECT_LEVEL   the measured quantity itself, where the source
 *                      gives a regime rather than a change (seed 001's
 *                      1.5 items changed per flushed pair).
 * Both come from the paired samples: the median of the paired ratios or
 * differences and its exact 95% interval [lo, hi].
 *
 * A published figure is a point p, or a range [p_lo, p_hi] where the
 * source's own resolution leaves one (time(1) prints milliseconds, so
 * "0m0.001s" is 0.5 to 1.5 ms; "0m0.000s" leaves only a lower bound on
 * the ratio).  The verdict (exp_judge()):
 *   reproduced      the published figure lies inside the measured
 *                   interval widened by EXP_TOLERANCE of the published
 *                   effect on either side, the interval shows an effect
 *                   (it excludes zero, unless the published range holds
 *                   zero: a claim of no effect; a level has no zero to
 *                   exclude) and pins its size (it is no wider than twice
 *                   the published effect); for a published lower bound,
 *                   the whole interval lies above it (less the
 *                   tolerance);
 *   same direction  not reproduced, but the whole measured interval lies
 *                   on the published figure's side of zero (not for a
 *                   level, which has no direction);
 *   differs         otherwise: the opposite sign, or an interval that
 *                   does not exclude zero (the effect is not shown).
 * Nothing else passes: 1.74x against a published 1.10x is "same
 * direction", effect sizes 0.74 and 0.10.
 */
enum exp_effect {
	EXP_EFFECT_RATIO,
	EXP_EFFECT_SAVING,
	EXP_EFFECT_LEVEL,
};

enum exp_verdict {
	EXP_NO_FIGURE,		/* nothing published to compare with */
	EXP_REPRODUCED,
	EXP_SAME_DIRECTION,
	EXP_DIFFERS,
};

/* A quarter of the published effect: the measured interval is of this
 * machine, the published figure of another, under another load. */
#define EXP_TOLERANCE 0.25

/* The verdict of a measured effect interval [lo, hi] against a published
 * effect p known to lie in [p_lo, p_hi] (p_lo = p_hi = p for a point;
 * p_hi = INFINITY for a lower bound), with tolerance tol (a fraction of
 * |p|); level: the row is an EXP_EFFECT_LEVEL.  Pure:
 * tests/check_experiment.c gives it constructed inputs. */
enum exp_verdict exp_judge(double lo, double hi, double p, double p_lo, double p_hi, double tol,
			   bool level);
const char *exp_verdict_name(enum exp_verdict v);

/*
 * Daemon pairs.
 *
 * Two daemons of the same binary and the same kernel, measured in
 * interleaved pairs, differ by a few percent, and by a different few
 * percent at each start: seed 002's A/A offset was -4.2% [-6.4, -2.3] in
 * one run, then +1.1%, +0.0% and +5% [+2, +7] in three more.  Where each
 * daemon's heap, stacks and libraries land (ASLR) sets how its hot lines
 * share the caches; it is fixed for a daemon's life and drawn anew at
 * each start.  An interval from the pairs of one daemon pair leaves that
 * out, so an effect of a few percent could be one draw of it.
 *
 * So an experiment with small effects runs several daemon pairs in turn
 * (exp_report.blocks), each started afresh (the side started first
 * alternating) and set up anew, each measured in its own interleaved
 * pairs.  A row's effect is then the mean over the daemon pairs of each
 * one's median paired effect, and its interval Student's t over them:
 * the spread between daemon starts is in it.  With one daemon pair (the
 * experiments whose effects dwarf it) the row is the order-statistic
 * median and interval of its pairs, as before.
 */
struct exp_result {
	char measure[96];
	char unit[16];
	double before, after;	/* medians */
	double ratio, lo, hi;	/* paired before/after, its 95% interval */
	double diff, diff_lo, diff_hi;	/* paired before - after, its interval */
	unsigned n;		/* pairs kept, over all daemon pairs */
	unsigned blocks;	/* daemon pairs they came from (>= 1) */
	enum exp_effect effect;	/* which of the two is the row's effect size */
	char published[320];	/* the source's figure and where it is, or "-" */
	bool has_published;
	double pub, pub_lo, pub_hi;	/* the published effect, and its range */
	bool headline;
	enum exp_verdict v;
	char verdict[256];
};

struct exp_report {
	const char *name;	/* "seed000": the files' stem */
	const char *file_tag;	/* "", "-aa", "-battery" ...: after the name in file names */
	const char *title;
	struct exp_result rows[48];
	unsigned nr;
	/* The daemon pairs the samples of the next rows come from, in equal
	 * consecutive blocks of the n samples given (1: one pair). */
	unsigned blocks;
	/* The plot: curves of before and after against x, or paired values. */
	char xlabel[48], ylabel[48];
	bool logx, logy;
	double x[32], yb[32], ya[32];
	unsigned npoints;
	double deltas[128];	/* when npoints == 0: paired deltas, in percent */
	unsigned ndeltas;
};

/* Adds a row from paired samples b[i], a[i] (i < n), leaving out pairs with
 * a side that is not a finite number (a window where nothing happened): n
 * is the pairs kept.  With r->blocks > 1 the samples are r->blocks
 * consecutive blocks of n / r->blocks, one per daemon pair (above).  Its
 * effect is a ratio until exp_publish() or the caller says otherwise.
 * Returns the row. */
struct exp_result *exp_add_pairs(struct exp_report *r, const char *measure, const char *unit,
				 const double *b, const double *a, unsigned n);
/* As exp_add_pairs(), for a count that may be 0 on either side (flush
 * callbacks per read): its effect is the saving, before - after, and its
 * ratio only over the pairs with an after above 0. */
struct exp_result *exp_add_pair_savings(struct exp_report *r, const char *measure,
					const char *unit, const double *b, const double *a, unsigned n);
/* Adds a row of one derived saving per pair, v[i] (i < n), non-finite
 * values left out: its effect is their median (a saving, in unit), before
 * and after are NAN. */
struct exp_result *exp_add_values(struct exp_report *r, const char *measure, const char *unit,
				  const double *v, unsigned n);
/* The published figure of a row: its effect of kind `effect` (see above),
 * p in [p_lo, p_hi], and the text that says what it is and where from. */
void exp_publish(struct exp_result *row, enum exp_effect effect, double p, double p_lo,
		 double p_hi, const char *fmt, ...) G_GNUC_PRINTF(6, 7);
/* The effect of a published before -> after pair, each known to +-res
 * (half the source's last digit; 0 for exact figures): p and its range. */
void exp_published_ratio(double before, double after, double res, double *p, double *p_lo,
			 double *p_hi);
/* A published figure for a row found by the start of its measure (the
 * standard battery's rows, whose measures battery.c lists). */
struct exp_figure {
	const char *measure;
	enum exp_effect effect;
	double p, p_lo, p_hi;	/* as exp_publish() takes them */
	const char *text;	/* what it is and where it is from */
};

/* The standard battery (battery.c): base against base + patch `patch`,
 * for a patch without an experiment of its own.  figures (NULL, or ended
 * by a NULL measure) publish figures for its rows; the first is the
 * headline.  0, or -1 after a message. */
int exp_battery(const char *patch, const struct exp_figure *figures, const struct exp_options *o,
		const char *tmp, struct exp_report *r);

/* Writes DIR/NAME.tsv and DIR/NAME.png (if gnuplot is there) and
 * prints the table.  0, or -1 after a message. */
int exp_report_finish(struct exp_report *r, const struct exp_options *o);

#endif
