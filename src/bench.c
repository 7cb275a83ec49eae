/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memcgfs-bench: figures of the engine's and the workloads' cost, measured
 * with the same library the daemon links, and (`experiment NAME`,
 * src/patches) each patch's experiment run through mounted daemons.
 *
 * Every engine figure is the median of --runs runs (default 5), printed
 * with the smallest and largest run.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "patches/patches.h"
#include "render/format.h"
#include "workload/workload.h"

static unsigned opt_runs = 5;
static gboolean opt_quick;

static int cmp_double(const void *a, const void *b);

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct sample {
	double v[64];
	unsigned n;
};

static double median(struct sample *s)
{
	qsort(s->v, s->n, sizeof(double), cmp_double);
	return s->n % 2 ? s->v[s->n / 2] : (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
}

static void row(const char *what, struct sample *s, const char *unit)
{
	double m = median(s);

	printf("  %-58s %12.2f %-6s [%.2f .. %.2f]\n", what, m, unit, s->v[0], s->v[s->n - 1]);
}

/* An engine of kernel `version` (NULL: the default kernel), periodic flusher
 * off: measurements flush explicitly. */
static struct mcg_engine *engine_of(const char *version, unsigned cpus, unsigned nodes,
				    enum mcg_hierarchy h)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = cpus;
	cfg.nr_nodes = nodes;
	cfg.hierarchy = h;
	cfg.flush_period_ms = 0;
	if (version)
		cfg.kernel = *mcg_kernel_get(version);
	e = mcg_engine_new(&cfg);
	if (!e) {
		perror("mcg_engine_new");
		exit(1);
	}
	return e;
}

static struct mcg_cgroup **make_children(struct mcg_engine *e, struct mcg_cgroup *parent,
					 unsigned n)
{
	struct mcg_cgroup **cg = g_new(struct mcg_cgroup *, n);

	for (unsigned i = 0; i < n; i++) {
		char name[32];

		g_snprintf(name, sizeof(name), "cg%u", i);
		if (mcg_cgroup_create(e, parent, name, &cg[i])) {
			fprintf(stderr, "cannot create cgroup %u\n", i);
			exit(1);
		}
	}
	return cg;
}

static void put_all(struct mcg_cgroup **cg, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		mcg_cgroup_put(cg[i]);
	g_free(cg);
}

static long rss_kib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* ---- hot path ---- */

static const enum mcg_item hot_items[4] = { MCG_ANON_MAPPED, MCG_PGFAULT, MCG_FILE_PAGES,
					    MCG_INACTIVE_ANON };

/* One emulated CPU's loop: `n` updates into a depth-3 cgroup, entering the
 * CPU per batch of 64 and forcing a flush every 16384 updates, as a busy
 * CPU between periodic flushes would see. */
static double hot_loop(struct mcg_engine *e, struct mcg_cpu *c, struct mcg_cgroup *cg, long n,
		       bool flush)
{
	double start = now_ns();

	for (long i = 0; i < n; i += 64) {
		mcg_cpu_enter(c);
		for (int k = 0; k < 64; k++)
			mcg_stat_mod(c, cg, 0, hot_items[k & 3], 1);
		mcg_cpu_exit(c);
		if (flush && (i & 16383) == 0)
			__mcg_memcg_flush_stats(e, cg, true);
	}
	return (now_ns() - start) / n;
}

struct hot_thread {
	struct mcg_engine *e;
	struct mcg_cgroup *cg;
	unsigned cpu;
	long n;
	double ns;
	pthread_barrier_t *barrier;
};

static void *hot_thread_fn(void *arg)
{
	struct hot_thread *t = arg;

	pthread_barrier_wait(t->barrier);
	t->ns = hot_loop(t->e, mcg_engine_cpu(t->e, t->cpu), t->cg, t->n, false);
	return NULL;
}

static void bench_hot_path(void)
{
	unsigned nthreads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	struct mcg_engine *e = engine_of(NULL, nthreads, 1, MCG_HIERARCHY_V2);
	struct mcg_cgroup *root = mcg_engine_root(e), *a, *b, *cg;
	long n = opt_quick ? 1L << 20 : 1L << 24;
	struct sample single = { 0 }, all = { 0 }, agg = { 0 };

	mcg_cgroup_create(e, root, "a", &a);
	mcg_cgroup_create(e, a, "b", &b);
	mcg_cgroup_create(e, b, "c", &cg);
	hot_loop(e, mcg_engine_cpu(e, 0), cg, n / 8, true);	/* warm up */
	for (unsigned r = 0; r < opt_runs; r++) {
		pthread_t tid[64];
		struct hot_thread t[64];
		pthread_barrier_t barrier;
		double start, wall;

		single.v[single.n++] = hot_loop(e, mcg_engine_cpu(e, 0), cg, n, true);

		pthread_barrier_init(&barrier, NULL, nthreads + 1);
		for (unsigned i = 0; i < nthreads; i++) {
			t[i] = (struct hot_thread){ e, cg, i, n, 0, &barrier };
			pthread_create(&tid[i], NULL, hot_thread_fn, &t[i]);
		}
		pthread_barrier_wait(&barrier);
		start = now_ns();
		for (unsigned i = 0; i < nthreads; i++)
			pthread_join(tid[i], NULL);
		wall = now_ns() - start;
		pthread_barrier_destroy(&barrier);
		{
			double sum = 0;

			for (unsigned i = 0; i < nthreads; i++)
				sum += t[i].ns;
			all.v[all.n++] = sum / nthreads;
		}
		agg.v[agg.n++] = (double)n * nthreads / wall * 1e3;	/* updates per us */
		__mcg_memcg_flush_stats(e, root, true);
	}
	printf("hot path: mcg_stat_mod() into a depth-3 cgroup, batches of 64 per CPU entry\n");
	row("ns per update, 1 thread", &single, "ns");
	{
		char what[80];

		g_snprintf(what, sizeof(what), "ns per update per thread, %u threads at once", nthreads);
		row(what, &all, "ns");
		g_snprintf(what, sizeof(what), "aggregate updates per microsecond, %u threads", nthreads);
		row(what, &agg, "/us");
	}
	mcg_cgroup_put(cg);
	mcg_cgroup_put(b);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}

/* The update path of each era, one thread, as above.  The eras' runs are
 * interleaved (run r of every era, then run r + 1), so that the machine's
 * slow phases fall on every era alike.  `minima` (the hotpath benchmark)
 * prints instead one "VERSION NS" line per era, the fastest of shorter
 * runs: what contrib/bench-hotpath-ab.sh compares between two builds,
 * as the minimum is what other tenants' load leaves least changed. */
static void bench_eras_hot_path(bool minima)
{
	unsigned nr;
	const struct mcg_kernel *const *eras = mcg_kernel_list(&nr);
	long n = opt_quick ? 1L << 20 : minima ? 1L << 22 : 1L << 23;
	struct era_hot {
		struct mcg_engine *e;
		struct mcg_cgroup *cg[3];
		struct sample s;
	} *eh = g_new0(struct era_hot, nr);

	if (!minima)
		printf("hot path of each era: ns per update into a depth-3 cgroup, 1 thread\n");
	for (unsigned k = 0; k < nr; k++) {
		struct mcg_engine *e = engine_of(eras[k]->version, 2, 1, MCG_HIERARCHY_V2);

		eh[k].e = e;
		mcg_cgroup_create(e, mcg_engine_root(e), "a", &eh[k].cg[0]);
		mcg_cgroup_create(e, eh[k].cg[0], "b", &eh[k].cg[1]);
		mcg_cgroup_create(e, eh[k].cg[1], "c", &eh[k].cg[2]);
		hot_loop(e, mcg_engine_cpu(e, 0), eh[k].cg[2], n / 8, true);
	}
	for (unsigned r = 0; r < opt_runs; r++)
		for (unsigned k = 0; k < nr; k++)
			eh[k].s.v[eh[k].s.n++] =
				hot_loop(eh[k].e, mcg_engine_cpu(eh[k].e, 0), eh[k].cg[2], n, true);
	for (unsigned k = 0; k < nr; k++) {
		char what[96];

		g_snprintf(what, sizeof(what), "%s (%s)", eras[k]->version,
			   eras[k]->stats == MCG_STATS_BATCHED_ATOMICS ? "batched atomics"
			   : eras[k]->updater == MCG_UPDATER_LLIST      ? "lockless llist updater"
									: "per-CPU locked updater");
		if (minima) {
			double best = eh[k].s.v[0];

			for (unsigned r = 1; r < eh[k].s.n; r++)
				best = MIN(best, eh[k].s.v[r]);
			printf("%s %.3f\n", eras[k]->version, best);
		} else {
			row(what, &eh[k].s, "ns");
		}
		for (int i = 2; i >= 0; i--)
			mcg_cgroup_put(eh[k].cg[i]);
		mcg_engine_free(eh[k].e);
	}
	g_free(eh);
}

/* ---- flush ---- */

/* Marks `nupd` cgroups updated on every CPU and times one forced flush of
 * the root; returns ns per updated (cgroup, CPU) pair. */
static double flush_once(struct mcg_engine *e, struct mcg_cgroup **cg, unsigned nupd,
			 unsigned cpus, unsigned stride)
{
	double start;

	for (unsigned c = 0; c < cpus; c++) {
		struct mcg_cpu *cpu = mcg_engine_cpu(e, c);

		mcg_cpu_enter(cpu);
		for (unsigned i = 0; i < nupd; i++)
			mcg_stat_mod(cpu, cg[i * stride], 0, MCG_ANON_MAPPED, 1);
		mcg_cpu_exit(cpu);
	}
	start = now_ns();
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	return (now_ns() - start) / ((double)nupd * cpus);
}

static void bench_flush(void)
{
	const unsigned cpus = 8;
	unsigned big = opt_quick ? 10000 : 100000;
	struct mcg_engine *small_e = engine_of(NULL, 2, 1, MCG_HIERARCHY_V2);
	struct mcg_engine *big_e = engine_of(NULL, 2, 1, MCG_HIERARCHY_V2);
	struct mcg_engine *pair_e = engine_of(NULL, cpus, 1, MCG_HIERARCHY_V2);
	struct mcg_cgroup **small_cg = make_children(small_e, mcg_engine_root(small_e), 100);
	struct mcg_cgroup **big_cg = make_children(big_e, mcg_engine_root(big_e), big);
	struct mcg_cgroup **pair_cg = make_children(pair_e, mcg_engine_root(pair_e), 1000);
	struct sample small = { 0 }, large = { 0 }, pair = { 0 };
	char what[100];

	for (unsigned r = 0; r < opt_runs; r++) {
		small.v[small.n++] = flush_once(small_e, small_cg, 10, 2, 10) * 20;
		large.v[large.n++] = flush_once(big_e, big_cg, 10, 2, big / 10) * 20;
		pair.v[pair.n++] = flush_once(pair_e, pair_cg, 1000, cpus, 1);
	}
	printf("flush: forced flush of the root\n");
	g_snprintf(what, sizeof(what), "ns per updated (cgroup, CPU) pair, 1000 x %u CPUs", cpus);
	row(what, &pair, "ns");
	row("10 updated cgroups in a tree of 100 (2 CPUs)", &small, "ns");
	g_snprintf(what, sizeof(what), "10 updated cgroups in a tree of %u (2 CPUs)", big);
	row(what, &large, "ns");
	printf("  %-58s %12.2f x\n", "ratio big tree / small tree (target <= 2)",
	       median(&large) / median(&small));
	put_all(small_cg, 100);
	put_all(big_cg, big);
	put_all(pair_cg, 1000);
	mcg_engine_free(small_e);
	mcg_engine_free(big_e);
	mcg_engine_free(pair_e);
}

/* ---- memory ---- */

/* Resident KiB that `n` cgroups add at `cpus` emulated CPUs, measured in a
 * child process so that no memory freed by earlier figures is reused. */
static double cgroups_resident_kib(unsigned cpus, unsigned n)
{
	int fds[2];
	pid_t pid;
	double kib = -1;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct mcg_engine *e = engine_of(NULL, cpus, 1, MCG_HIERARCHY_V2);
		long before = rss_kib();
		struct mcg_cgroup **cg = make_children(e, mcg_engine_root(e), n);
		double delta = (double)(rss_kib() - before);

		if (write(fds[1], &delta, sizeof(delta)) != sizeof(delta))
			_exit(1);
		put_all(cg, n);
		mcg_engine_free(e);
		_exit(0);
	}
	close(fds[1]);
	if (pid > 0) {
		if (read(fds[0], &kib, sizeof(kib)) != sizeof(kib))
			kib = -1;
		waitpid(pid, NULL, 0);
	}
	close(fds[0]);
	return kib;
}

static void bench_memory(void)
{
	const unsigned cpus[2] = { 64, 256 };

	printf("memory per cgroup (allocated by the engine; resident over 1000 cgroups)\n");
	for (int i = 0; i < 2; i++) {
		struct mcg_engine *e = engine_of(NULL, cpus[i], 1, MCG_HIERARCHY_V2);

		printf("  %3u emulated CPUs: %8.1f KiB allocated, %8.1f KiB resident per cgroup\n",
		       cpus[i], mcg_engine_cgroup_footprint(e) / 1024.0,
		       cgroups_resident_kib(cpus[i], 1000) / 1000);
		mcg_engine_free(e);
	}
	if (!opt_quick)
		printf("  10,000 cgroups x 64 CPUs: %.2f GiB resident (target <= 2 GiB)\n",
		       cgroups_resident_kib(64, 10000) / 1048576.0);
}

/* ---- per-CPU sums ---- */

/* Spreads a few updates of `items` over `cpus` CPUs of every cgroup, so
 * that each has (cgroup, CPU) pairs to flush and locals to sum. */
static void scatter_updates(struct mcg_engine *e, struct mcg_cgroup **cg, unsigned n,
			    unsigned cpus, const enum mcg_item *items, unsigned nr_items,
			    unsigned per_cg, GRand *rnd)
{
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = 0; k < per_cg; k++) {
			struct mcg_cpu *c = mcg_engine_cpu(e, g_rand_int_range(rnd, 0, cpus));

			mcg_cpu_enter(c);
			mcg_stat_mod(c, cg[i], 0, items[g_rand_int_range(rnd, 0, nr_items)],
				     g_rand_int_range(rnd, 1, 16));
			mcg_cpu_exit(c);
		}
	}
}

/* A local read before 6.6 sums a counter over every CPU, each CPU's copy a
 * percpu unit away.  6.1, v1, 1000 memcgs at 256 CPUs with scattered
 * updates: the v1 local block's sums (memcg1_stats[], the four events and
 * the five LRU lists) per memcg, in ns per per-CPU load.  Seed 000's
 * figures imply about 18 ns: (0.125 - 0.032) s / (1000 x ~20 x 256). */
static void bench_percpu_sum(void)
{
	static const enum mcg_item extra[] = {
		MCG_PGPGIN, MCG_PGPGOUT, MCG_PGFAULT, MCG_PGMAJFAULT, MCG_INACTIVE_ANON,
		MCG_ACTIVE_ANON, MCG_INACTIVE_FILE, MCG_ACTIVE_FILE, MCG_UNEVICTABLE,
	};
	const unsigned cpus = 256, ncg = opt_quick ? 200 : 1000;
	struct mcg_engine *e = engine_of("6.1", cpus, 1, MCG_HIERARCHY_V1);
	const struct mcg_layout *l = mcg_engine_layout(e);
	struct mcg_cgroup **cg = make_children(e, mcg_engine_root(e), ncg);
	GRand *rnd = g_rand_new_with_seed(5);
	struct sample s = { 0 };
	unsigned loads = 0;
	size_t memcg_bytes, bytes = mcg_engine_pcpu_bytes(e, &memcg_bytes);
	volatile long sink = 0;

	scatter_updates(e, cg, ncg, cpus, extra, G_N_ELEMENTS(extra), 32, rnd);
	for (unsigned r = 0; r < opt_runs; r++) {
		double start = now_ns();

		loads = 0;
		for (unsigned i = 0; i < ncg; i++) {
			for (unsigned k = 0; k < l->nr_v1_stats; k++, loads++)
				sink += mcg_stat_read_raw(e, cg[i], l->v1_stats[k].item, MCG_LOCAL);
			for (unsigned k = 0; k < G_N_ELEMENTS(extra); k++, loads++)
				sink += mcg_stat_read_raw(e, cg[i], extra[k], MCG_LOCAL);
		}
		s.v[s.n++] = (now_ns() - start) / ((double)loads * cpus);
	}
	printf("per-CPU sums: 6.1 v1 local reads, %u memcgs x %u items x %u CPUs, copies %zu KiB\n"
	       "  apart (the kernel's percpu unit at %u CPUs)\n",
	       ncg, loads / ncg, cpus, mcg_engine_pcpu_unit_size(e) >> 10, cpus);
	row("ns per summed per-CPU load (seed 000 implies ~18)", &s, "ns");
	printf("  bytes per (cgroup, CPU): %zu, of which memcg counters %zu (6.1 kernel:\n"
	       "    memcg_vmstats_percpu + lruvec_stats_percpu at 1 node, %zu)\n", bytes,
	       memcg_bytes,
	       /* 6.1: state[], events[], their prev[] (8 bytes each), the v1
		* nr_page_events and targets[3]; lruvec state[] per node */
	       (size_t)(2 * 8 * (l->nr_state_slots + l->nr_event_slots) + 8 * 4 +
			8 * l->nr_node_slots));
	for (unsigned i = 0; i < ncg; i++)
		mcg_cgroup_put(cg[i]);
	g_free(cg);
	g_rand_free(rnd);
	mcg_engine_free(e);
	(void)sink;
}

/* ---- workloads ---- */

struct reader {
	struct mcg_engine *e;
	struct mcg_cgroup **cg;
	unsigned n;
	_Atomic bool stop;
	struct sample lat;	/* ns per render, per run */
	GArray *all;		/* every latency of this run */
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	GString *out = g_string_sized_new(4096);
	GRand *rnd = g_rand_new_with_seed(9);

	while (!atomic_load(&r->stop)) {
		double start = now_ns(), ns;

		g_string_truncate(out, 0);
		mcg_format_memory_stat(r->e, r->cg[g_rand_int_range(rnd, 0, r->n)], out);
		ns = now_ns() - start;
		g_array_append_val(r->all, ns);
		g_usleep(1000);
	}
	g_rand_free(rnd);
	g_string_free(out, TRUE);
	return NULL;
}

/* Workers flat out on every emulated CPU, a reader rendering memory.stat
 * of a random cgroup every millisecond meanwhile. */
static void bench_workload(void)
{
	const unsigned cpus_list[2] = { 2, 16 };
	const unsigned ncg = 100;
	/* Rates so high that every step hits the per-step cap: flat out. */
	const char *flat_out = "anon=100000000 file_read=100000000 file_write=100000000 "
			       "slab=1000000 kernel=1000000 footprint=4M reclaim=100000 swap=on";

	printf("workloads: %u cgroups, every CPU's worker flat out, a reader meanwhile\n", ncg);
	for (int k = 0; k < 2; k++) {
		struct mcg_engine_config cfg;
		struct mcg_engine *e;
		struct mcg_workload *wl;
		struct mcg_cgroup **cg;
		struct sample rate = { 0 }, p50 = { 0 }, p99 = { 0 };
		int err;
		char what[100];

		mcg_engine_config_init(&cfg);
		cfg.nr_cpus = cpus_list[k];
		e = mcg_engine_new(&cfg);
		wl = mcg_workload_new(e, flat_out, &err);
		cg = g_new(struct mcg_cgroup *, ncg);
		for (unsigned i = 0; i < ncg; i++) {
			char name[16];

			g_snprintf(name, sizeof(name), "cg%u", i);
			mcg_workload_cgroup_create(wl, mcg_engine_root(e), name, true, &cg[i]);
		}
		mcg_workload_start(wl);
		g_usleep(300 * 1000);
		for (unsigned run = 0; run < opt_runs; run++) {
			struct reader rd = { .e = e, .cg = cg, .n = ncg };
			struct mcg_workload_counters before, after;
			pthread_t tid;
			double start, secs;

			rd.all = g_array_new(FALSE, FALSE, sizeof(double));
			mcg_workload_counters(wl, &before);
			start = now_ns();
			pthread_create(&tid, NULL, reader_fn, &rd);
			g_usleep(opt_quick ? 300 * 1000 : 1000 * 1000);
			atomic_store(&rd.stop, true);
			pthread_join(tid, NULL);
			mcg_workload_counters(wl, &after);
			secs = (now_ns() - start) / 1e9;
			rate.v[rate.n++] = (double)(after.stat_updates - before.stat_updates) / secs / 1e6;
			g_array_sort(rd.all, cmp_double);
			p50.v[p50.n++] = g_array_index(rd.all, double, rd.all->len / 2) / 1e3;
			p99.v[p99.n++] = g_array_index(rd.all, double, rd.all->len * 99 / 100) / 1e3;
			g_array_free(rd.all, TRUE);
		}
		g_snprintf(what, sizeof(what), "%u CPUs: stat updates per second (millions)", cfg.nr_cpus);
		row(what, &rate, "M/s");
		g_snprintf(what, sizeof(what), "%u CPUs: memory.stat render latency, median", cfg.nr_cpus);
		row(what, &p50, "us");
		g_snprintf(what, sizeof(what), "%u CPUs: memory.stat render latency, p99", cfg.nr_cpus);
		row(what, &p99, "us");
		mcg_workload_free(wl);
		put_all(cg, ncg);
		mcg_engine_free(e);
	}
}

/* Can the workers keep up with the profiles?  Each preset at the scale its
 * experiment runs, per page event: the pages the profiles ask for per
 * second once at their footprint (the turnover, or the sum of the fault
 * rates if less), against the pages charged per second, and the stat
 * updates that took. */
static void bench_profile_rates(void)
{
	static const struct {
		const char *preset;
		unsigned ncg, cpus;
		double asked_per_cg;	/* pages/s at the footprint */
	} runs[] = {
		/* 64M x 50% of 4 KiB pages; the fault rates sum to 8,500 */
		{ "seed001", 500, 80, 16384 * 0.5 },
		/* 16M x 2000% */
		{ "multi-fault", 1, 8, 4096 * 20.0 },
		/* 512M x 20% */
		{ "file-reader", 26, 8, 131072 * 0.2 },
	};
	double secs = opt_quick ? 1.0 : 3.0;

	printf("profile rates: pages per second asked at the footprint and done, per page event\n");
	printf("  %-12s %8s %5s %12s %12s %7s %14s\n", "preset", "cgroups", "CPUs", "asked/s",
	       "charged/s", "done", "stat updates/s");
	for (unsigned k = 0; k < G_N_ELEMENTS(runs); k++) {
		struct mcg_engine_config cfg;
		struct mcg_engine *e;
		struct mcg_workload *wl;
		struct mcg_workload_counters before, after;
		struct mcg_cgroup **cg = g_new(struct mcg_cgroup *, runs[k].ncg);
		char profile[64];
		double start, asked, done;
		int err;

		/* As the daemon runs it: the default kernel and flush period. */
		mcg_engine_config_init(&cfg);
		cfg.nr_cpus = runs[k].cpus;
		e = mcg_engine_new(&cfg);
		g_snprintf(profile, sizeof(profile), "preset=%s", runs[k].preset);
		wl = mcg_workload_new(e, profile, &err);
		for (unsigned i = 0; i < runs[k].ncg; i++) {
			char name[16];

			g_snprintf(name, sizeof(name), "cg%u", i);
			mcg_workload_cgroup_create(wl, mcg_engine_root(e), name, true, &cg[i]);
		}
		mcg_workload_start(wl);
		/* Up to the footprint first (seed001: 64M at 8,500 pages/s). */
		g_usleep(opt_quick ? 1000 * 1000 : 2500 * 1000);
		mcg_workload_counters(wl, &before);
		start = now_ns();
		g_usleep((gulong)(secs * 1e6));
		mcg_workload_counters(wl, &after);
		secs = (now_ns() - start) / 1e9;
		asked = runs[k].asked_per_cg * runs[k].ncg;
		done = (double)(after.pages_charged - before.pages_charged) / secs;
		printf("  %-12s %8u %5u %12.0f %12.0f %6.0f%% %14.0f\n", runs[k].preset, runs[k].ncg,
		       runs[k].cpus, asked, done, 100.0 * done / asked,
		       (double)(after.stat_updates - before.stat_updates) / secs);
		mcg_workload_free(wl);
		put_all(cg, runs[k].ncg);
		mcg_engine_free(e);
	}
}

/* Flushes per second by trigger, each era, under the seed001 workload (a
 * reader of memory.stat, the periodic flusher at its 2 s, reclaim under a
 * limit so that reclaim and refaults flush where the era does). */
static void bench_flush_triggers(void)
{
	unsigned nr;
	const struct mcg_kernel *const *eras = mcg_kernel_list(&nr);
	const unsigned ncg = 20, cpus = 4;
	double secs = opt_quick ? 1.0 : 4.0;

	printf("flushes per second by trigger, seed001 workload, %u cgroups, %u CPUs, %.0f s\n",
	       ncg, cpus, secs);
	printf("  %-6s %9s %9s %9s %9s %9s %9s %9s\n", "kernel", "flushes", "forced", "periodic",
	       "reclaim", "refault", "skipped", "side");
	for (unsigned k = 0; k < nr; k++) {
		struct mcg_engine_config cfg;
		struct mcg_engine *e;
		struct mcg_workload *wl;
		struct mcg_cgroup **cg;
		struct reader rd = { 0 };
		struct mcg_flush_counters fc;
		pthread_t tid;
		int err;

		mcg_engine_config_init(&cfg);
		cfg.nr_cpus = cpus;
		cfg.kernel = *eras[k];
		e = mcg_engine_new(&cfg);
		wl = mcg_workload_new(e, "preset=seed001", &err);
		cg = g_new(struct mcg_cgroup *, ncg);
		for (unsigned i = 0; i < ncg; i++) {
			char name[16];

			g_snprintf(name, sizeof(name), "cg%u", i);
			mcg_workload_cgroup_create(wl, mcg_engine_root(e), name, true, &cg[i]);
			/* a limit below the footprint: reclaim, swap, refaults */
			mcg_workload_set_limit(wl, cg[i], MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 2048,
					       false);
		}
		mcg_workload_start(wl);
		rd = (struct reader){ .e = e, .cg = cg, .n = ncg };
		rd.all = g_array_new(FALSE, FALSE, sizeof(double));
		pthread_create(&tid, NULL, reader_fn, &rd);
		g_usleep((gulong)(secs * 1e6));
		atomic_store(&rd.stop, true);
		pthread_join(tid, NULL);
		mcg_engine_flush_counters(e, &fc);
		printf("  %-6s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", eras[k]->version,
		       fc.flushes / secs, fc.forced / secs, fc.periodic / secs, fc.reclaim / secs,
		       fc.refault / secs, fc.skipped / secs, fc.side_flushes / secs);
		g_array_free(rd.all, TRUE);
		mcg_workload_free(wl);
		put_all(cg, ncg);
		mcg_engine_free(e);
	}
}

/* The daemon the experiments mount: $MEMCGFS, else the memcgfs next to this
 * program (the build tree or the install's bindir), else the PATH's. */
static const char *memcgfs_binary(void)
{
	static char path[4096];
	const char *env = getenv("MEMCGFS");
	ssize_t len;

	if (env && *env)
		return env;
	len = readlink("/proc/self/exe", path, sizeof(path) - 16);
	if (len > 0) {
		char *slash;

		path[len] = '\0';
		slash = strrchr(path, '/');
		if (slash) {
			strcpy(slash + 1, "memcgfs");
			if (access(path, X_OK) == 0)
				return path;
		}
	}
	return "memcgfs";
}

int main(int argc, char **argv)
{
	gchar **rest = NULL;
	int runs = 5;
	gchar *out_dir = NULL;
	gboolean same = FALSE, list = FALSE, battery = FALSE;
	GOptionEntry entries[] = {
		{ "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "runs per figure (median reported)", "N" },
		{ "quick", 'q', 0, G_OPTION_ARG_NONE, &opt_quick, "smaller sizes, for a smoke run", NULL },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
		  "experiment: where NAME.tsv and .png go (default: .)", "DIR" },
		{ "same", 0, 0, G_OPTION_ARG_NONE, &same,
		  "experiment: the before kernel on both sides (A/A: the noise floor; "
		  "NAME-aa.tsv)", NULL },
		{ "battery", 0, 0, G_OPTION_ARG_NONE, &battery,
		  "experiment: the standard battery, even for a patch with its own experiment "
		  "(NAME-battery.tsv)", NULL },
		{ "list", 0, 0, G_OPTION_ARG_NONE, &list,
		  "experiment: list every patch, its base, source and published figures", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("[engine|workload|all|hotpath] | experiment NAME|all|--list");
	g_autoptr(GError) err = NULL;
	const char *what;

	/* Each figure as it comes, also into a pipe or a file (| tee): a full
	 * run takes minutes. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	g_option_context_set_summary(ctx, "Prints the engine's cost figures (medians of --runs "
					  "runs), or runs a patch's experiment, before against after.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "memcgfs-bench: %s\n", err->message);
		return 2;
	}
	if (runs < 1 || runs > 64) {
		fprintf(stderr, "memcgfs-bench: --runs must be 1..64\n");
		return 2;
	}
	opt_runs = (unsigned)runs;
	what = rest && rest[0] ? rest[0] : "all";
	if (!strcmp(what, "experiment")) {
		struct exp_options eo = { opt_quick, out_dir ? out_dir : ".", memcgfs_binary(),
					  same, battery };
		int rc;

		if (list) {
			mcg_patch_print_list();
			rc = 0;
		} else {
			rc = mcg_patch_experiment_main(rest[1], &eo);
		}

		g_strfreev(rest);
		g_free(out_dir);
		return rc;
	}
	if (!strcmp(what, "hotpath")) {
		bench_eras_hot_path(true);
		g_strfreev(rest);
		g_free(out_dir);
		return 0;
	}
	if (strcmp(what, "engine") && strcmp(what, "workload") &&
	    strcmp(what, "all")) {
		fprintf(stderr, "memcgfs-bench: unknown benchmark '%s' (engine, workload, all, "
				"hotpath, experiment)\n",
			what);
		return 2;
	}
	printf("memcgfs-bench %s: median of %u runs [min .. max], %ld online CPUs\n",
	       PACKAGE_VERSION, opt_runs, sysconf(_SC_NPROCESSORS_ONLN));
	if (!strcmp(what, "engine") || !strcmp(what, "all")) {
		/* Memory first: later figures leave freed heap behind that
		 * the measuring child would inherit and reuse. */
		bench_memory();
		bench_hot_path();
		bench_eras_hot_path(false);
		bench_percpu_sum();
		bench_flush();
	}
	if (!strcmp(what, "workload") || !strcmp(what, "all")) {
		bench_workload();
		bench_profile_rates();
		bench_flush_triggers();
	}
	g_strfreev(rest);
	g_free(out_dir);
	return 0;
}
