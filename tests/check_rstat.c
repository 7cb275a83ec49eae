/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rstat tree's flush against the kernel's: 6.1's sleepable flush lets
 * the lock go between CPUs to a waiter (cgroup_rstat_flush_locked()), its
 * irqsafe flush does not; and what feeds the trees: a v1 memory hierarchy
 * takes no CPU time or I/O. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "patches/patches.h"
#include "engine/internal.h"
#include "engine/rstat.h"
#include "helpers.h"
#include "kernel/kernel.h"

/* ---- 6.1: a sleepable flush yields the lock to a waiter ---- */

struct waiter_rig {
	struct rstat_tree t;
	struct rstat_node root, leaf;
	struct rstat_node_cpu root_cpu[2], leaf_cpu[2];
	pthread_t waiter;
	bool started;
	/* When the waiter got the lock: how many CPUs the flusher had done. */
	_Atomic unsigned cpus_done, waiter_saw;
};

static void leaf_callback(void *owner, unsigned cpu, void *arg)
{
	struct waiter_rig *r = arg;

	if (owner != &r->leaf)
		return;
	atomic_store(&r->cpus_done, cpu + 1);
}

/* Waits for the tree lock as any flusher does (counted in lock_waiters,
 * rstat.c's rstat_lock()) and notes how far the flush had got. */
static void *waiter_main(void *arg)
{
	struct waiter_rig *r = arg;

	atomic_fetch_add(&r->t.lock_waiters, 1);
	pthread_mutex_lock(&r->t.lock);
	atomic_fetch_sub(&r->t.lock_waiters, 1);
	atomic_store(&r->waiter_saw, atomic_load(&r->cpus_done));
	pthread_mutex_unlock(&r->t.lock);
	return NULL;
}

/* On CPU 0's pass, start a thread that wants the lock and wait until it
 * waits. */
static void start_waiter(void *owner, unsigned cpu, void *arg)
{
	struct waiter_rig *r = arg;

	if (owner != &r->leaf || cpu != 0 || r->started)
		return;
	r->started = true;
	ck_assert_int_eq(pthread_create(&r->waiter, NULL, waiter_main, r), 0);
	while (!atomic_load_explicit(&r->t.lock_waiters, memory_order_relaxed))
		sched_yield();
}

static unsigned flush_with_waiter(bool may_sleep)
{
	struct waiter_rig *r = calloc(1, sizeof(*r));
	unsigned saw;
	uint64_t breaks;

	ck_assert_int_eq(rstat_tree_init(&r->t, 2, MCG_UPDATER_LOCKED, MCG_WALK_POP_LOCKED), 0);
	r->t.needbreak = true;	/* 6.1's CONFIG_PREEMPTION */
	rstat_tree_add_callback(&r->t, start_waiter, r);
	rstat_tree_add_callback(&r->t, leaf_callback, r);
	rstat_node_init(&r->root, NULL, &r->root, r->root_cpu, sizeof(r->root_cpu[0]), 2);
	rstat_node_init(&r->leaf, &r->root, &r->leaf, r->leaf_cpu, sizeof(r->leaf_cpu[0]), 2);
	rstat_updated(&r->t, &r->leaf, 0);
	rstat_updated(&r->t, &r->leaf, 1);
	ck_assert_uint_eq(rstat_flush(&r->t, &r->leaf, may_sleep), 2);
	ck_assert(r->started);
	pthread_join(r->waiter, NULL);
	saw = atomic_load(&r->waiter_saw);
	breaks = atomic_load(&r->t.lock_breaks);
	ck_assert_uint_eq(breaks, may_sleep ? 1 : 0);
	rstat_tree_destroy(&r->t);
	free(r);
	return saw;
}

START_TEST(test_sleepable_flush_yields)
{
	/* Sleepable: the waiter runs between CPU 0 and CPU 1. */
	ck_assert_uint_eq(flush_with_waiter(true), 1);
	/* irqsafe: only once both CPUs are done. */
	ck_assert_uint_eq(flush_with_waiter(false), 2);
}
END_TEST

/* ---- v1: CPU time and I/O go to other hierarchies ---- */

START_TEST(test_v1_takes_no_cputime_or_io)
{
	for (int v1 = 0; v1 < 2; v1++) {
		struct mcg_engine *e = test_engine_make(
			2, 1, "6.1", v1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2, NULL);
		struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
		struct mcg_cpu *c;
		struct mcg_flush_counters fc;
		struct mcg_cputime t;

		c = mcg_engine_cpu(e, 1);
		mcg_cpu_enter(c);
		mcg_cputime_account(c, a, MCG_CPUTIME_USER, 5000);
		mcg_io_account(c, a, 0, MCG_IO_READ, 4096);
		mcg_cpu_exit(c);
		/* 6.1's one tree: the flush of a's cpu.stat visits a on CPU 1
		 * with its three participants (base, memory, io), if marked. */
		mcg_cputime_flush(e, a);
		mcg_engine_flush_counters(e, &fc);
		ck_assert_uint_eq(fc.base_visited, v1 ? 0 : 3);
		mcg_cputime_read(a, &t);
		ck_assert_uint_eq(t.usage_ns, v1 ? 0 : 5000);
		mcg_cputime_read_root(e, &t);
		ck_assert_uint_eq(t.usage_ns, v1 ? 0 : 5000);
		mcg_cgroup_put(a);
		mcg_engine_free(e);
	}
}
END_TEST

/* ---- readers that flush whatever the LRU ---- */

/*
 * count_shadow_nodes() and mem_cgroup_wb_stats(), each alone on a manual
 * clock: with the last flush recent, 6.12's and 7.3's ratelimited flush
 * waits and 6.1's thresholded ones (dirty; the shadow count with seed
 * 000's patch) do not; two periods later all flush.  6.1 without seed 000's patch sums its locals per CPU and never
 * flushes for the shadow count; a v1 hierarchy has no cgroup writeback.
 */
START_TEST(test_shadow_count_and_dirty_throttle)
{
	static const struct {
		const char *version, *seed;
		bool v1;
		unsigned shadow_now, shadow_late, dirty_now, dirty_late;
	} cases[] = {
		{ "6.1", NULL, false, 0, 0, 1, 1 },
		{ "6.1", "000:after", false, 1, 1, 1, 1 },
		{ "6.12", NULL, false, 0, 1, 0, 1 },
		{ "7.3", NULL, false, 0, 1, 0, 1 },
		{ "7.3", NULL, true, 0, 1, 0, 0 },
	};
	const unsigned k = (unsigned)_i;
	struct mcg_engine_config cfg;
	struct mcg_flush_counters fc;
	struct mcg_engine *e;
	struct mcg_cgroup *a;
	const char *why = NULL;

	mcg_engine_config_init(&cfg);
	ck_assert_msg(mcg_patch_resolve(cases[k].seed ? NULL : cases[k].version, cases[k].seed,
					 &cfg.kernel, &why) == 0, "%s", why);
	cfg.nr_cpus = 2;
	cfg.hierarchy = cases[k].v1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2;
	cfg.flush_period_ms = 0;
	cfg.manual_clock = true;
	e = mcg_engine_new(&cfg);
	ck_assert_ptr_nonnull(e);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");

	/* t = 0: over every threshold, the last flush recent. */
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_for_shadow_count(e, a);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_for_dirty_throttle(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.shadow_count, cases[k].shadow_now);
	ck_assert_uint_eq(fc.dirty_throttle, cases[k].dirty_now);
	/* t = 10 s: five periods late, over the thresholds again. */
	ck_assert_int_eq(mcg_engine_clock_set(e, 10000000000ull), 0);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_for_shadow_count(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.shadow_count, cases[k].shadow_now + cases[k].shadow_late);
	ck_assert_int_eq(mcg_engine_clock_set(e, 20000000000ull), 0);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_for_dirty_throttle(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.dirty_throttle, cases[k].dirty_now + cases[k].dirty_late);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

static Suite *make_rstat_suite(void)
{
	Suite *s = suite_create("rstat");
	TCase *tc = tcase_create("flush");

	tcase_add_test(tc, test_sleepable_flush_yields);
	tcase_add_test(tc, test_v1_takes_no_cputime_or_io);
	tcase_add_loop_test(tc, test_shadow_count_and_dirty_throttle, 0, 5);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(make_rstat_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
