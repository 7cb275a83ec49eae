/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Check suite of the workload module: profiles, conservation of charges,
 * the relations between counters, limits, reclaim and OOM under load. */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <glib.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "patches/patches.h"
#include "kernel/kernel.h"
#include "workload/workload.h"
/* White box: the long-run test drives steps of emulated time itself. */
#include "workload/internal.h"

/* ---- profiles ---- */

START_TEST(test_profile_parse)
{
	struct mcg_profile *p = NULL, *q = NULL;
	char *text, *again;
	const char *bad[] = {
		"anon", "anon=", "=5", "anon=-1", "anon=1x", "thp=101", "mlock=200",
		"footprint=12Q", "footprint=M", "nodes=4", "nodes=1-0", "nodes=", "swap=maybe",
		"bogus=1", "anon=1 preset=idle", "preset=nope", "preset=idle preset=idle",
		"anon=100000001", "anon=5\x01", "fault_work=-1", "fault_work=1.5",
		"swapin=101", "cpus=1025", "cpus=-1",
	};

	ck_assert_int_eq(mcg_profile_parse("", 2, &p), 0);
	ck_assert(mcg_profile_is_idle(p));
	mcg_profile_free(p);

	ck_assert_int_eq(mcg_profile_parse("preset=seed001 anon=7\nnodes=1 footprint=2M", 2, &p), 0);
	ck_assert(!mcg_profile_is_idle(p));
	text = mcg_profile_format(p);
	ck_assert_ptr_nonnull(strstr(text, "anon=7\n"));
	ck_assert_ptr_nonnull(strstr(text, "file_write=2000\n"));
	ck_assert_ptr_nonnull(strstr(text, "footprint=2097152\n"));
	ck_assert_ptr_nonnull(strstr(text, "nodes=1\n"));
	ck_assert_ptr_nonnull(strstr(text, "swap=on\n"));
	/* Every key is 0 unless given, but swapin's quarter. */
	ck_assert_ptr_nonnull(strstr(text, "swapin=25\n"));
	ck_assert_ptr_nonnull(strstr(text, "cpus=0\n"));
	/* The canonical text parses back to the same profile. */
	ck_assert_int_eq(mcg_profile_parse(text, 2, &q), 0);
	again = mcg_profile_format(q);
	ck_assert_str_eq(text, again);
	g_free(text);
	g_free(again);
	mcg_profile_free(p);
	mcg_profile_free(q);

	ck_assert_int_eq(mcg_profile_parse("preset=multi-fault fault_work=1200", 1, &p), 0);
	text = mcg_profile_format(p);
	ck_assert_ptr_nonnull(strstr(text, "fault_work=1200\n"));
	ck_assert_ptr_nonnull(strstr(text, "anon=200000\n"));
	g_free(text);
	mcg_profile_free(p);

	ck_assert_int_eq(mcg_profile_parse("nodes=0,2-3 thp=50", 4, &p), 0);
	text = mcg_profile_format(p);
	ck_assert_ptr_nonnull(strstr(text, "nodes=0,2-3\n"));
	ck_assert_ptr_nonnull(strstr(text, "thp=50\n"));
	g_free(text);
	mcg_profile_free(p);

	for (const char *const *name = mcg_profile_presets(); *name; name++) {
		char *spec = g_strdup_printf("preset=%s", *name);

		ck_assert_int_eq(mcg_profile_parse(spec, 1, &p), 0);
		ck_assert(mcg_profile_is_idle(p) == !strcmp(*name, "idle"));
		mcg_profile_free(p);
		g_free(spec);
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
		p = NULL;
		ck_assert_msg(mcg_profile_parse(bad[i], 2, &p) == -EINVAL, "accepted \"%s\"", bad[i]);
		ck_assert_ptr_null(p);
	}
}
END_TEST

/* ---- helpers ---- */

/*
 * Seed 004's two charge paths under a real multi-fault load on two CPUs.
 * Before, every page charged holds one css reference until its uncharge:
 * once the tasks are gone and the stocks drained, the count is what is
 * still charged, page for page.  After, no page holds one, and every
 * charge took and released the process's task_lock(mm->owner).
 */
START_TEST(test_seed004_charge_paths)
{
	for (int after = 0; after < 2; after++) {
		struct mcg_engine_config cfg;
		struct mcg_workload *wl;
		struct mcg_cgroup *cg;
		struct mcg_workload_cgroup_stat st;
		const char *why = NULL;
		long usage;
		int err = 0;

		mcg_engine_config_init(&cfg);
		cfg.nr_cpus = 2;
		cfg.hierarchy = MCG_HIERARCHY_V1;
		ck_assert_msg(mcg_patch_resolve(NULL, after ? "004:after" : "004:before",
						 &cfg.kernel, &why) == 0, "%s", why);
		struct mcg_engine *e = mcg_engine_new(&cfg);

		wl = mcg_workload_new(e, NULL, &err);
		ck_assert_ptr_nonnull(wl);
		ck_assert_int_eq(mcg_workload_start(wl), 0);
		ck_assert_int_eq(mcg_workload_cgroup_create(wl, mcg_engine_root(e), "m", true, &cg), 0);
		ck_assert_int_eq(mcg_workload_set_profile(wl, cg, "anon=200000 footprint=2M "
								  "turnover=500 fault_work=100"), 0);
		g_usleep(300 * 1000);
		ck_assert_int_eq(mcg_workload_set_profile(wl, cg, "preset=sleep"), 0);
		ck_assert_int_eq(mcg_workload_cgroup_stat(wl, cg, &st), 0);
		ck_assert_uint_gt(st.pages_charged, 1000);
		ck_assert_uint_gt(st.pages_uncharged, 0);
		mcg_memcg_drain_all_stock(e, NULL, cg);
		usage = (long)mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
		ck_assert_int_gt(usage, 0);
		ck_assert_int_eq(mcg_cgroup_css_refs(cg), (after ? 0 : usage));
		mcg_workload_free(wl);
		mcg_cgroup_put(cg);
		mcg_engine_free(e);
	}
}
END_TEST

struct rig {
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *cg[16];
	unsigned n;
};

static void rig_up(struct rig *r, enum mcg_hierarchy h, unsigned cpus, unsigned nodes,
		   const char *profile, unsigned ncg)
{
	struct mcg_engine_config cfg;
	int err = 0;

	memset(r, 0, sizeof(*r));
	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = cpus;
	cfg.nr_nodes = nodes;
	cfg.hierarchy = h;
	cfg.flush_period_ms = 100;
	r->e = mcg_engine_new(&cfg);
	ck_assert_ptr_nonnull(r->e);
	r->wl = mcg_workload_new(r->e, profile, &err);
	ck_assert_ptr_nonnull(r->wl);
	for (unsigned i = 0; i < ncg; i++) {
		char name[16];
		struct mcg_cgroup *parent = i >= 2 ? r->cg[i % 2] : mcg_engine_root(r->e);

		g_snprintf(name, sizeof(name), "w%u", i);
		ck_assert_int_eq(mcg_workload_cgroup_create(r->wl, parent, name, true, &r->cg[i]), 0);
	}
	r->n = ncg;
	ck_assert_int_eq(mcg_workload_start(r->wl), 0);
}

static void rig_down(struct rig *r)
{
	mcg_workload_free(r->wl);
	for (unsigned i = 0; i < r->n; i++)
		mcg_cgroup_put(r->cg[i]);
	mcg_engine_free(r->e);
}

static long hs(struct rig *r, struct mcg_cgroup *cg, enum mcg_item item)
{
	return mcg_stat_read_raw(r->e, cg, item, MCG_HIERARCHICAL);
}

/* Pages of a state item whatever its storage unit. */
static long hs_pages(struct rig *r, struct mcg_cgroup *cg, enum mcg_item item, long unit)
{
	return hs(r, cg, item) * unit / MCG_PAGE_SIZE;
}

/* The relations a kernel keeps between counters, checked after a flush. */
static void check_relations(struct rig *r, struct mcg_cgroup *cg, unsigned nodes, bool v1)
{
	/* The LRU lists count the CPUs' LRU add batches once drained. */
	mcg_workload_lru_add_drain_all(r->wl);
	__mcg_memcg_flush_stats(r->e, cg, true);
	long anon = hs(r, cg, MCG_ANON_MAPPED), file = hs(r, cg, MCG_FILE_PAGES);
	long kernel = hs(r, cg, MCG_MEMCG_KMEM);
	long lru = hs(r, cg, MCG_INACTIVE_ANON) + hs(r, cg, MCG_ACTIVE_ANON) +
		   hs(r, cg, MCG_INACTIVE_FILE) + hs(r, cg, MCG_ACTIVE_FILE) +
		   hs(r, cg, MCG_UNEVICTABLE);
	/* memory.current runs ahead by what the CPUs' charge stocks hold
	 * (counted first: counting enters each CPU, which carries out a
	 * pending drain). */
	long stocked = (long)mcg_memcg_stocked(r->e, cg, false);
	long stocked_memsw = (long)mcg_memcg_stocked(r->e, cg, true);
	long usage = (long)mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) - stocked;
	const enum mcg_item node_items[] = { MCG_ANON_MAPPED, MCG_FILE_PAGES, MCG_FILE_DIRTY,
					     MCG_WRITEBACK, MCG_INACTIVE_FILE, MCG_SLAB_RECLAIMABLE_B,
					     MCG_PGSCAN_KSWAPD, MCG_WORKINGSET_REFAULT_FILE };

	ck_assert_int_ge(anon, 0);
	ck_assert_int_ge(file, 0);
	ck_assert_int_eq(lru, anon + file);
	struct mcg_workload_objects objs;

	ck_assert_int_eq(usage, anon + file + kernel);
	/* Kernel memory: the tasks' slab (pages' worths of objects, some
	 * not full), stacks and page tables, and the objects of the memcgs below
	 * (mem_cgroup_alloc()), whose percpu bytes the statistics count
	 * exactly.  Slab of both the statistics count but for what the
	 * object stocks hold back; the pages charged through the stocks
	 * beyond the tasks' page-worths are objs.pages. */
	mcg_workload_memcg_objects(r->wl, cg, &objs);
	ck_assert_int_eq(hs(r, cg, MCG_MEMCG_PERCPU_B), (long)objs.percpu);
	long tasks_slab = hs(r, cg, MCG_SLAB_RECLAIMABLE_B) + hs(r, cg, MCG_SLAB_UNRECLAIMABLE_B) -
			  objs.slab + (long)objs.tasks_slab_unfilled;

	ck_assert_int_eq(tasks_slab % MCG_PAGE_SIZE, 0);
	ck_assert_int_eq(kernel, tasks_slab / MCG_PAGE_SIZE +
					 hs_pages(r, cg, MCG_KERNEL_STACK_KB, 1024) +
					 hs(r, cg, MCG_PAGETABLE) + objs.pages);
	ck_assert_int_le(hs(r, cg, MCG_FILE_DIRTY) + hs(r, cg, MCG_WRITEBACK), file);
	ck_assert_int_le(hs(r, cg, MCG_FILE_MAPPED), file);
	ck_assert_int_le(hs(r, cg, MCG_ANON_THPS), anon);
	ck_assert_int_le(hs(r, cg, MCG_PGSTEAL_KSWAPD), hs(r, cg, MCG_PGSCAN_KSWAPD));
	ck_assert_uint_ge(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK),
			  (unsigned long)(usage + stocked));
	for (unsigned k = 0; k < G_N_ELEMENTS(node_items); k++) {
		long sum = 0;

		/* per node in this era's layout (6.12's pgscan is memcg-wide) */
		if (mcg_engine_layout(r->e)->kind[node_items[k]] != MCG_KIND_NODE)
			continue;

		for (unsigned nid = 0; nid < nodes; nid++)
			sum += mcg_stat_read_node_raw(r->e, cg, (int)nid, node_items[k], MCG_HIERARCHICAL);
		ck_assert_int_eq(sum, hs(r, cg, node_items[k]));
	}
	/* Without THPs every page charged in counts one pgpgin, every one
	 * leaving one pgpgout. */
	if (v1 && !hs(r, cg, MCG_ANON_THPS))
		ck_assert_int_eq(hs(r, cg, MCG_PGPGIN) - hs(r, cg, MCG_PGPGOUT), anon + file);
	if (v1)
		ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_MEMSW, MCG_FIELD_USAGE) -
					  (unsigned long)stocked_memsw,
				  (unsigned long)(usage + hs(r, cg, MCG_MEMCG_SWAP)));
	else
		ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_SWAP, MCG_FIELD_USAGE),
				  (unsigned long)hs(r, cg, MCG_MEMCG_SWAP));
}

/* ---- page events ---- */

/* Workers act per page event, as the kernel's fault path does: every
 * fault charges and makes its own stat updates (anon: NR_ANON_MAPPED,
 * PGFAULT, PGPGIN, and the LRU once per LRU add batch), so the updates
 * number at least three per fault, where a step's batch would make four
 * per step. */
START_TEST(test_per_page_events)
{
	struct rig r;
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	int err;

	/* The pacing clock: 1..100 ms, before the start only. */
	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 1;
	e = mcg_engine_new(&cfg);
	wl = mcg_workload_new(e, NULL, &err);
	ck_assert_int_eq(mcg_workload_set_tick_ms(wl, 0), -EINVAL);
	ck_assert_int_eq(mcg_workload_set_tick_ms(wl, MCG_WORKLOAD_MAX_TICK_MS + 1), -EINVAL);
	ck_assert_int_eq(mcg_workload_set_tick_ms(wl, 1), 0);
	ck_assert_int_eq(mcg_workload_start(wl), 0);
	ck_assert_int_eq(mcg_workload_set_tick_ms(wl, 5), -EINVAL);
	mcg_workload_free(wl);
	mcg_engine_free(e);

	struct mcg_workload_counters wc;
	long faults;

	rig_up(&r, MCG_HIERARCHY_V2, 2, 1, "anon=20000", 1);
	g_usleep(300 * 1000);
	mcg_workload_pause(r.wl);
	__mcg_memcg_flush_stats(r.e, mcg_engine_root(r.e), true);
	mcg_workload_counters(r.wl, &wc);
	faults = hs(&r, r.cg[0], MCG_PGFAULT);
	ck_assert_int_gt(faults, 1000);
	ck_assert_int_eq(faults, hs(&r, r.cg[0], MCG_ANON_MAPPED));
	ck_assert_uint_ge(wc.stat_updates, 3 * (uint64_t)faults);
	/* About 100 faults a step: a batch per step would make ~4 updates. */
	ck_assert_uint_ge(wc.steps, 2);
	ck_assert_uint_gt(wc.stat_updates, 50 * wc.steps);
	mcg_workload_resume(r.wl);
	rig_down(&r);
}
END_TEST

/* mcg_workload_cgroup_stat(): one cgroup's own progress.  A busy cgroup's
 * counts grow and agree with the engine's and the pool's, an idle one's
 * stay 0; a limit makes charges stall in reclaim and OOM kills. */
START_TEST(test_cgroup_stat)
{
	struct rig r;
	struct mcg_workload_counters wc;
	struct mcg_workload_cgroup_stat busy, idle, root, later;
	struct mcg_cgroup *cg;

	rig_up(&r, MCG_HIERARCHY_V2, 2, 1, NULL, 2);
	cg = r.cg[0];
	ck_assert_int_eq(mcg_workload_set_profile(r.wl, cg, "anon=20000"), 0);
	g_usleep(300 * 1000);
	mcg_workload_pause(r.wl);
	__mcg_memcg_flush_stats(r.e, mcg_engine_root(r.e), true);
	ck_assert_int_eq(mcg_workload_cgroup_stat(r.wl, cg, &busy), 0);
	ck_assert_int_eq(mcg_workload_cgroup_stat(r.wl, r.cg[1], &idle), 0);
	ck_assert_int_eq(mcg_workload_cgroup_stat(r.wl, mcg_engine_root(r.e), &root), 0);
	mcg_workload_counters(r.wl, &wc);
	/* 20000 faults a second for 300 ms, no THP, no limit: one page
	 * charged per event, each with its own pgfault and two more
	 * updates at least, and the tasks' stacks and page tables. */
	ck_assert_uint_ge(busy.page_events, 1000);
	ck_assert_uint_eq(busy.pages_charged, busy.page_events +
						      (uint64_t)hs(&r, cg, MCG_KERNEL_STACK_KB) / 4 +
						      (uint64_t)hs(&r, cg, MCG_PAGETABLE));
	ck_assert_uint_eq(busy.pages_uncharged, 0);
	ck_assert_int_eq(hs(&r, cg, MCG_PGFAULT), (long)busy.page_events);
	ck_assert_uint_ge(busy.stat_updates, 3 * busy.page_events);
	ck_assert_uint_ge(busy.steps, 2);
	ck_assert_uint_eq(busy.reclaim_batches, 0);
	ck_assert_uint_eq(busy.charge_stall_ns, 0);
	/* Nothing else worked: the pool's totals are the busy cgroup's. */
	ck_assert_uint_eq(wc.stat_updates, busy.stat_updates);
	ck_assert_uint_eq(wc.pages_charged, busy.pages_charged);
	ck_assert_uint_eq(wc.steps, busy.steps);
	ck_assert_uint_eq(idle.page_events + idle.pages_charged + idle.stat_updates + idle.steps, 0);
	/* The root's own progress, not its subtree's. */
	ck_assert_uint_eq(root.page_events + root.pages_charged + root.stat_updates + root.steps,
			  0);
	mcg_workload_resume(r.wl);

	/* Anonymous memory without swap: at the limit, charges reclaim in
	 * vain, drain the stocks and OOM-kill. */
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 1024,
						false), 0);
	g_usleep(200 * 1000);
	ck_assert_int_eq(mcg_workload_cgroup_stat(r.wl, cg, &later), 0);
	ck_assert_uint_gt(later.page_events, busy.page_events);
	ck_assert_uint_gt(later.pages_charged, busy.pages_charged);
	ck_assert_uint_gt(later.pages_uncharged, 0);
	ck_assert_uint_gt(later.steps, busy.steps);
	ck_assert_uint_gt(later.reclaim_batches, 0);
	ck_assert_uint_gt(later.charge_stall_ns, 0);
	ck_assert_uint_gt(mcg_memory_event_read(cg, MCG_MEMORY_OOM_KILL, false), 0);

	/* A removed cgroup has no counts to give. */
	ck_assert_int_eq(mcg_workload_cgroup_destroy(r.wl, r.cg[1]), 0);
	ck_assert_int_eq(mcg_workload_cgroup_stat(r.wl, r.cg[1], &idle), -ENODEV);
	rig_down(&r);
}
END_TEST

/* A flush under a running workload visits at least every (cgroup, CPU)
 * pair the workload updated since the previous flush, in every era that
 * flushes (5.10 has no rstat flush).  Nothing else flushes here: no
 * periodic flusher, no reclaim, no refaults. */
/* An engine of kernel era `era` on hierarchy h without the periodic flush
 * (cpus and nodes: 0 keeps the default) and a pool whose cgroups start
 * with profile; *cfg is what the engine was made with. */
static struct mcg_workload *era_pool_on(const char *era, enum mcg_hierarchy h, unsigned cpus,
					unsigned nodes, const char *profile,
					struct mcg_engine_config *cfg, struct mcg_engine **e)
{
	const char *why = NULL;
	struct mcg_workload *wl;
	int err = 0;

	mcg_engine_config_init(cfg);
	if (cpus)
		cfg->nr_cpus = cpus;
	if (nodes)
		cfg->nr_nodes = nodes;
	cfg->flush_period_ms = 0;
	cfg->hierarchy = h;
	ck_assert_int_eq(mcg_patch_resolve(era, NULL, &cfg->kernel, &why), 0);
	*e = mcg_engine_new(cfg);
	ck_assert_ptr_nonnull(*e);
	wl = mcg_workload_new(*e, profile, &err);
	ck_assert_ptr_nonnull(wl);
	return wl;
}

/* The four eras, for the loop tests that run each (_i 0 to 3). */
static const char *const four_eras[] = { "5.10", "6.1", "6.12", "7.3" };

/* era_pool_on() on the default hierarchy, v2. */
static struct mcg_workload *era_pool(const char *era, unsigned cpus, unsigned nodes,
				     const char *profile, struct mcg_engine_config *cfg,
				     struct mcg_engine **e)
{
	return era_pool_on(era, MCG_HIERARCHY_V2, cpus, nodes, profile, cfg, e);
}

/* A memcg's own objects (mem_cgroup_alloc()) are charged to its parent's
 * obj_cgroup in bytes, through the CPU's object stock (obj_cgroup_charge(),
 * refill_obj_stock()): the memcgs made under one parent share pages, which
 * then hold their bytes plus less than a page and the largest object, not
 * a page's rounding per memcg.  "kernel" counts those pages.  From 6.1 the
 * stock holds back up to a page of slab statistics (mod_objcg_state(),
 * 7.3 __account_obj_stock()), which a drain gives to the memcg.  Freed, the
 * bytes return to the stock, which keeps at most a page. */
START_TEST(test_memcg_objects_charged_in_bytes)
{
	enum { NR = 100, CPUS = 4, NODES = 2 };
	struct mcg_engine_config cfg;
	struct mcg_memcg_objects o;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *root, *p, *kids[NR];
	size_t max_obj = 0, bytes;
	unsigned long charged;
	long slab;

	wl = era_pool(four_eras[_i], CPUS, NODES, "preset=idle", &cfg, &e);
	root = mcg_engine_root(e);
	mcg_memcg_objects(&mcg_engine_config(e)->kernel, CPUS, NODES, &o);
	for (unsigned i = 0; i < o.nr; i++)
		max_obj = o.obj[i].bytes > max_obj ? o.obj[i].bytes : max_obj;
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "p", true, &p), 0);
	for (unsigned k = 0; k < NR; k++) {
		char name[16];

		snprintf(name, sizeof(name), "k%u", k);
		ck_assert_int_eq(mcg_workload_cgroup_create(wl, p, name, true, &kids[k]), 0);
	}
	bytes = NR * (o.slab + o.percpu);
	charged = mcg_counter_read(p, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) -
		  mcg_memcg_stocked(e, p, false);
	ck_assert_uint_ge(charged * MCG_PAGE_SIZE, bytes);
	ck_assert_uint_lt(charged * MCG_PAGE_SIZE, bytes + max_obj + MCG_PAGE_SIZE);
	__mcg_memcg_flush_stats(e, root, true);
	/* (5.10's statistics wait in per-CPU batches: no flush to read.) */
	if (mcg_engine_layout(e)->version >= MCG_KVER(6, 1)) {
		ck_assert_int_eq(mcg_stat_read_raw(e, p, MCG_MEMCG_KMEM, MCG_HIERARCHICAL),
				 (long)charged);
		ck_assert_int_eq(mcg_stat_read_raw(e, p, MCG_MEMCG_PERCPU_B, MCG_HIERARCHICAL),
				 (long)(NR * o.percpu));
	}
	slab = mcg_stat_read_raw(e, p, MCG_SLAB_UNRECLAIMABLE_B, MCG_HIERARCHICAL);
	ck_assert_int_le(slab, (long)(NR * o.slab));
	ck_assert_int_ge(slab, (long)(NR * o.slab) - MCG_PAGE_SIZE);
	if (o.slab)	/* 6.12, 7.3: the last memcg's are still held back */
		ck_assert_int_lt(slab, (long)(NR * o.slab));
	mcg_memcg_drain_all_stock(e, NULL, root);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_int_eq(mcg_stat_read_raw(e, p, MCG_SLAB_UNRECLAIMABLE_B, MCG_HIERARCHICAL),
			 (long)(NR * o.slab));
	for (unsigned k = 0; k < NR; k++) {
		ck_assert_int_eq(mcg_workload_cgroup_rmdir(wl, kids[k]), 0);
		mcg_cgroup_put(kids[k]);
	}
	ck_assert_uint_le(mcg_counter_read(p, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) -
				  mcg_memcg_stocked(e, p, false), 1);
	mcg_memcg_drain_all_stock(e, NULL, root);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_uint_eq(mcg_counter_read(p, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 0);
	if (mcg_engine_layout(e)->version >= MCG_KVER(6, 1)) {
		ck_assert_int_eq(mcg_stat_read_raw(e, p, MCG_MEMCG_KMEM, MCG_HIERARCHICAL), 0);
		ck_assert_int_eq(mcg_stat_read_raw(e, p, MCG_MEMCG_PERCPU_B, MCG_HIERARCHICAL), 0);
		ck_assert_int_eq(mcg_stat_read_raw(e, p, MCG_SLAB_UNRECLAIMABLE_B, MCG_HIERARCHICAL),
				 0);
	}
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 0);
	mcg_memcg_objects_clear(&o);
	mcg_workload_free(wl);
	mcg_cgroup_put(p);
	mcg_engine_free(e);
}
END_TEST

/* A dying memcg still holding pages keeps its objects charged to its
 * parent's obj_cgroup, the parent dying too; once the CPU's object stock
 * turns elsewhere, the parent's spare bytes are parked in it.  Freeing the
 * pool gives the objects back before the parent goes, so nothing is left
 * parked when its struct is freed (engine_objcg_put() asserts it). */
START_TEST(test_free_with_dying_parents_objects)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *root, *p, *c, *q, *d;

	wl = era_pool(four_eras[_i], 0, 0, "preset=idle", &cfg, &e);
	root = mcg_engine_root(e);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "p", true, &p), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, p, "c", true, &c), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, c, MCG_PAGES_SLAB_RECLAIMABLE, 0, 0, 4), 0);
	ck_assert_int_eq(mcg_workload_cgroup_rmdir(wl, c), 0);
	ck_assert_int_eq(mcg_workload_cgroup_rmdir(wl, p), 0);
	/* Before 7.3 both stay dying: c holds its slab. */
	if (!cfg.kernel.reparent_local)
		ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 2);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "q", true, &q), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, q, "d", true, &d), 0);
	mcg_cgroup_put(c);
	mcg_cgroup_put(p);
	mcg_workload_free(wl);
	mcg_cgroup_put(d);
	mcg_cgroup_put(q);
	mcg_engine_free(e);
}
END_TEST

/*
 * What mkdir charges the parent for a new memcg on a v1 hierarchy at 2
 * possible CPUs and one node, release by release: the objects' bytes
 * (mem_cgroup_alloc(); kzalloc objects by obj_full_size(), per-CPU ones by
 * pcpu_obj_full_size() from 6.1, size x CPUs before), the smallest limit
 * at which a child's mkdir succeeds under a fresh parent, and the v1 kmem
 * pages after each of eight children made in turn under one parent, the
 * object stock carrying the remainders (obj_cgroup_charge(),
 * refill_obj_stock()).  6.18 is this machine's kernel: it accepts a child
 * under 12288 bytes, refuses it under 8192 and 4096, and its kmem pages
 * after four children are 3 5 8 10, as its kernel's were (its own item
 * counts, 40 state slots, 31 events and 33 node slots in its BTF, part
 * from 6.12's from the fifth child on: 13 there, 12 here).
 */
static void check_conserved(struct mcg_workload *wl);

START_TEST(test_memcg_objects_at_two_cpus)
{
	static const struct {
		const char *release;
		unsigned nr;
		size_t bytes[5];
		unsigned long first;	/* pages: the smallest limit that takes one */
		unsigned long kmem[8];
	} want[] = {
		{ "5.4", 0, { 0 }, 0, { 0 } },
		{ "5.10", 4, { 2224, 2224, 592, 592 }, 2, { 2, 3, 5, 6, 7, 9, 10, 11 } },
		{ "6.1", 2, { 4384, 2752 }, 2, { 2, 4, 6, 8, 10, 11, 13, 15 } },
		{ "6.12", 5, { 2056, 4352, 96, 1032, 1984 }, 3, { 3, 5, 8, 10, 12, 15, 17, 19 } },
		{ "6.18", 5, { 2056, 4352, 96, 1032, 1984 }, 3, { 3, 5, 8, 10, 12, 15, 17, 19 } },
		{ "7.3", 5, { 2056, 5376, 96, 2056, 3200 }, 4, { 4, 7, 10, 13, 16, 19, 22, 25 } },
	};
	struct mcg_engine_config cfg;
	struct mcg_memcg_objects o;
	struct mcg_engine *e;
	struct mcg_workload *wl = era_pool_on(want[_i].release, MCG_HIERARCHY_V1, 2, 1,
					      "preset=idle", &cfg, &e);
	struct mcg_cgroup *root = mcg_engine_root(e), *p, *kid;
	unsigned n = 0;

	mcg_memcg_objects(&mcg_engine_config(e)->kernel, 2, 1, &o);
	ck_assert_uint_eq(o.nr, want[_i].nr);
	for (unsigned i = 0; i < o.nr; i++)
		ck_assert_uint_eq(o.obj[i].bytes, want[_i].bytes[i]);
	mcg_memcg_objects_clear(&o);

	/* A fresh parent per limit: one page short refuses, the limit takes. */
	for (unsigned long pages = want[_i].first ? want[_i].first - 1 : 0;
	     pages <= want[_i].first; pages++) {
		char name[16];
		int rc;

		g_snprintf(name, sizeof(name), "p%u", n++);
		ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, name, true, &p), 0);
		ck_assert_int_eq(mcg_workload_set_limit(wl, p, MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
							pages, true), 0);
		rc = mcg_workload_cgroup_create(wl, p, "c", true, &kid);
		ck_assert_msg(rc == (pages < want[_i].first ? -ENOMEM : 0),
			      "%s: a child under %lu pages: %d", want[_i].release, pages, rc);
		if (rc == 0) {
			ck_assert_uint_eq(mcg_counter_read(p, MCG_COUNTER_KMEM, MCG_FIELD_USAGE),
					  want[_i].first);
			mcg_cgroup_put(kid);
		}
		mcg_cgroup_put(p);
	}

	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "seq", true, &p), 0);
	for (unsigned k = 0; k < G_N_ELEMENTS(want[_i].kmem); k++) {
		char name[16];

		g_snprintf(name, sizeof(name), "k%u", k);
		ck_assert_int_eq(mcg_workload_cgroup_create(wl, p, name, true, &kid), 0);
		mcg_cgroup_put(kid);
		ck_assert_msg(mcg_counter_read(p, MCG_COUNTER_KMEM, MCG_FIELD_USAGE) ==
				      want[_i].kmem[k],
			      "%s: kmem %lu pages after %u children, want %lu", want[_i].release,
			      mcg_counter_read(p, MCG_COUNTER_KMEM, MCG_FIELD_USAGE), k + 1,
			      want[_i].kmem[k]);
	}
	mcg_cgroup_put(p);
	__mcg_memcg_flush_stats(e, root, true);
	check_conserved(wl);
	mcg_workload_free(wl);
	mcg_engine_free(e);
}
END_TEST

/* A removed memcg's kernel memory is uncharged through its obj_cgroup,
 * which offline handed to the parent (memcg_reparent_objcgs()): the
 * refill goes to a live ancestor's stock (obj_cgroup_uncharge_pages()), so
 * no CPU's stock pins the dead memcg and it is released once its pages
 * are gone.  7.3 gives the root no refill_stock() at all. */
START_TEST(test_dying_kmem_uncharge_goes_to_live_ancestor)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *root, *a, *b;
	unsigned long a_usage, stocked;
	size_t obj_stocked;
	long slab_held;

	wl = era_pool(four_eras[_i], 2, 0, "preset=idle", &cfg, &e);
	root = mcg_engine_root(e);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "a", true, &a), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, a, "b", true, &b), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SLAB_RECLAIMABLE, 1, 0, 20), 0);
	/* b leaves a dying memcg holding its slab (7.3: reparented to a). */
	ck_assert_int_eq(mcg_workload_cgroup_rmdir(wl, b), 0);
	mcg_cgroup_put(b);
	/* Empty stocks, so that the reclaim's refill is all they hold. */
	mcg_memcg_drain_all_stock(e, NULL, root);
	ck_assert_uint_eq(mcg_memcg_stocked(e, root, false), 0);
	a_usage = mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	ck_assert_uint_ge(a_usage, 20);
	/* a's reclaim frees the slab: the 20 pages go to a's stocks (the
	 * object stock keeps up to a page of the objects' bytes,
	 * refill_obj_stock(), and gives the rest to the page stock), b is
	 * released without any drain, and (before 7.3, where b is released
	 * only now) b's own objects, charged to a, follow into a's stocks. */
	ck_assert_int_ge(mcg_workload_reclaim(wl, a, 20, NULL, NULL), -EAGAIN);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 0);
	stocked = mcg_memcg_stocked(e, a, false);
	mcg_objcg_held(e, a, &obj_stocked, &slab_held);
	ck_assert_uint_le(obj_stocked, 2 * MCG_PAGE_SIZE);
	ck_assert_uint_ge(stocked * MCG_PAGE_SIZE + obj_stocked, 20 * MCG_PAGE_SIZE);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), a_usage);
	/* Drained, the page stock gives back those pages and the object
	 * stock the pages b's objects took: nothing below a is charged. */
	mcg_memcg_drain_all_stock(e, NULL, root);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 0);
	mcg_workload_free(wl);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* The tasks' slab is charged by the object (ledger.c, "Slab, charged by
 * the object"): a page's worth of objects charges one page through the
 * object stock, which holds back its slab statistics until drained (6.1
 * on); objects allocated on two CPUs, then reparented (7.3) and reclaimed
 * through another obj_cgroup, leave nothing charged and lose no charge. */
START_TEST(test_slab_by_object)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *root, *a, *b;
	bool flushed_stats;

	wl = era_pool(four_eras[_i], 2, 0, "preset=idle", &cfg, &e);
	root = mcg_engine_root(e);
	/* (5.10's statistics wait in per-CPU batches: no flush to read.) */
	flushed_stats = mcg_engine_layout(e)->version >= MCG_KVER(6, 1);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "a", true, &a), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, a, "b", true, &b), 0);
	mcg_memcg_drain_all_stock(e, NULL, root);
	ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SLAB_UNRECLAIMABLE, 0, 0, 1), 0);
	__mcg_memcg_flush_stats(e, root, true);
	if (flushed_stats) {
		ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_MEMCG_KMEM, MCG_HIERARCHICAL), 1);
		ck_assert_int_eq(
			mcg_stat_read_raw(e, b, MCG_SLAB_UNRECLAIMABLE_B, MCG_HIERARCHICAL), 0);
	}
	mcg_memcg_drain_all_stock(e, NULL, root);
	__mcg_memcg_flush_stats(e, root, true);
	if (flushed_stats)
		ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_SLAB_UNRECLAIMABLE_B,
						   MCG_HIERARCHICAL),
				 MCG_PAGE_SIZE);
	ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SLAB_UNRECLAIMABLE, 0, 0, -1), 0);
	/* The tasks allocate one object at a time, on both CPUs, of both
	 * kinds, pages' worths part filled. */
	ck_assert_int_eq(mcg_workload_set_profile(wl, b, "slab=20000"), 0);
	g_usleep(150 * 1000);
	check_conserved(wl);
	/* Their exit frees the unreclaimable; b leaves its reclaimable slab
	 * in a dying memcg (7.3: reparented to a, freed through a's
	 * obj_cgroup), which a's reclaim frees. */
	ck_assert_int_eq(mcg_workload_set_profile(wl, b, "preset=idle"), 0);
	ck_assert_int_eq(mcg_workload_cgroup_rmdir(wl, b), 0);
	mcg_cgroup_put(b);
	check_conserved(wl);
	while (mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) >
	       mcg_memcg_stocked(e, a, false) + 1)
		ck_assert_int_ge(mcg_workload_reclaim(wl, a, 1024, NULL, NULL), -EAGAIN);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 0);
	mcg_memcg_drain_all_stock(e, NULL, root);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 0);
	__mcg_memcg_flush_stats(e, root, true);
	if (flushed_stats) {
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_MEMCG_KMEM, MCG_HIERARCHICAL), 0);
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_SLAB_RECLAIMABLE_B, MCG_HIERARCHICAL),
				 0);
		ck_assert_int_eq(
			mcg_stat_read_raw(e, a, MCG_SLAB_UNRECLAIMABLE_B, MCG_HIERARCHICAL), 0);
	}
	check_conserved(wl);
	mcg_workload_free(wl);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

START_TEST(test_flush_visits_touched_pairs)
{
	static const char *const eras[] = { "6.1", "6.12", "7.3" };
	struct mcg_engine_config cfg;
	struct mcg_flush_counters before, after;
	struct mcg_cgroup *cg[8], *root;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	unsigned long touched;
	uint64_t window;

	wl = era_pool(eras[_i], 4, 0, "anon=20000 file_write=4000", &cfg, &e);
	root = mcg_engine_root(e);
	for (unsigned i = 0; i < G_N_ELEMENTS(cg); i++) {
		char name[16];

		g_snprintf(name, sizeof(name), "w%u", i);
		ck_assert_int_eq(mcg_workload_cgroup_create(wl, i < 4 ? root : cg[i - 4], name, true,
							    &cg[i]), 0);
	}
	ck_assert_int_eq(mcg_workload_start(wl), 0);
	g_usleep(100 * 1000);
	__mcg_memcg_flush_stats(e, root, true);
	/* Every flush from here on counts: the workers' own (dirty
	 * throttling's) may visit a pair before the last one does. */
	mcg_engine_flush_counters(e, &before);
	window = mcg_workload_touch_window(wl) + 1;
	g_usleep(200 * 1000);
	ck_assert_uint_eq(mcg_workload_touch_window(wl), window);
	__mcg_memcg_flush_stats(e, root, true);
	mcg_engine_flush_counters(e, &after);
	mcg_workload_pause(wl);
	touched = mcg_workload_pairs_touched(wl, window);
	mcg_workload_resume(wl);
	/* Every busy cgroup on every CPU, in 200 ms of 10 ms steps. */
	ck_assert_uint_ge(touched, G_N_ELEMENTS(cg));
	ck_assert_msg(after.visited - before.visited >= touched,
		      "%s: the flush visited %llu pairs, the workload touched %lu", eras[_i],
		      (unsigned long long)(after.visited - before.visited), touched);
	mcg_workload_free(wl);
	for (unsigned i = G_N_ELEMENTS(cg); i-- > 0;)
		mcg_cgroup_put(cg[i]);
	mcg_engine_free(e);
}
END_TEST

/* ---- conservation and relations ---- */

/* ---- workloads stay physically possible ---- */

/*
 * Every preset and a written profile, with a limit and without, over 3
 * emulated minutes: the workers are parked and the test steps each cgroup
 * on each CPU itself (wl_step(), 100 ms at a time, no sleeping), sampling
 * memory.stat's counters every emulated 10 s.  On every sample the
 * kernel's invariants hold (check_relations(): LRU lists = anon + file,
 * usage = anon + file + kernel, ...), and the mix stays the profile's:
 * mlocked pages are freed
 * as they are made, so unevictable stays near the mlocked share of anon;
 * unreclaimable slab is freed as it is made, so it stays within its share;
 * the tasks' kernel memory (stacks, page tables, unreclaimable slab) exists
 * as long as they fault.
 */
START_TEST(test_long_run_invariants)
{
	/* Every preset, and a profile a user might write, heavy in what the
	 * kernel cannot reclaim (mlock, unreclaimable slab, shmem, THPs),
	 * run on v1. */
	static const char *const profiles[] = {
		"preset=seed001", "preset=multi-fault", "preset=file-reader", "preset=sleep",
		"anon=3000 thp=30 mlock=40 shmem=500 slab=3000 file_write=1000 kernel=200 "
		"footprint=24M turnover=30 swap=on"
	};
	const char *profile = profiles[_i / 2];
	bool limited = _i % 2, v1 = _i / 2 == 4;
	struct mcg_profile *p = NULL;
	struct rig r;
	struct mcg_cgroup *cg;
	struct wl_cgroup *w;
	long slab_bound = 0;

	rig_up(&r, v1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2, 2, 2, profile, 1);
	cg = r.cg[0];
	if (limited)
		ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
							4096, false), 0);	/* 16 MiB */
	ck_assert_int_eq(mcg_profile_parse(profile, 2, &p), 0);
	/* Unreclaimable slab is freed by its owners: the turnover frees
	 * every kind in proportion, so it keeps at most its share of the
	 * faults reclaim cannot drop (anonymous, shmem, itself) of the
	 * footprint, with half again and 128 pages to spare. */
	if (p->slab && p->footprint)
		slab_bound = (long)(p->footprint / MCG_PAGE_SIZE) * (long)(p->slab / 2) * 3 /
				     (2 * (long)(p->anon + p->shmem + p->slab / 2)) +
			     128;
	mcg_workload_pause(r.wl);
	w = mcg_cgroup_workload(cg);
	for (unsigned step = 1; step <= 1800; step++) {
		for (unsigned c = 0; c < 2; c++) {
			struct wl_ctx x = { r.wl, r.e, mcg_engine_cpu(r.e, c), c, 0, NULL };

			mcg_cpu_enter(x.cpu);
			wl_step(&x, w, p, 0.1);
			mcg_cpu_exit(x.cpu);
		}
		if (step % 100)
			continue;
		__mcg_memcg_flush_stats(r.e, cg, true);
		check_relations(&r, cg, 2, v1);
		long anon = hs(&r, cg, MCG_ANON_MAPPED);
		long swapped = hs(&r, cg, MCG_MEMCG_SWAP);
		long unevictable = hs(&r, cg, MCG_UNEVICTABLE);

		/* mlock=5 in seed001: the mlocked share of the tasks'
		 * anonymous memory (resident or swapped out: under a limit
		 * reclaim swaps the rest out and mlocked pages stay) stays
		 * near the share faulted mlocked. */
		if (p->mlock < 100 && anon > 1000)
			ck_assert_msg(unevictable * 100 <= (anon + swapped) * (long)(p->mlock + 10),
				      "%s%s, %u s: unevictable %ld of anon %ld + swapped %ld", profile,
				      limited ? " limited" : "", step / 10, unevictable, anon, swapped);
		/* Kernel memory exists while tasks do, whatever the profile's
		 * kernel rate: a stack per thread, a PTE page per 512 pages
		 * mapped or swapped out (less what turnover trimmed since the
		 * last step: a few pages per CPU). */
		ck_assert_msg(hs(&r, cg, MCG_KERNEL_STACK_KB) > 0 &&
				      hs(&r, cg, MCG_PAGETABLE) + 8 >= (anon + swapped) / 512 &&
				      hs(&r, cg, MCG_PAGETABLE) > 0,
			      "%s%s, %u s: %ld kB of stacks, %ld pages of page tables under %ld "
			      "anon pages", profile, limited ? " limited" : "", step / 10,
			      hs(&r, cg, MCG_KERNEL_STACK_KB), hs(&r, cg, MCG_PAGETABLE), anon);
		if (p->slab && anon > 1000)
			ck_assert_msg(hs(&r, cg, MCG_SLAB_UNRECLAIMABLE_B) > 0,
				      "%s%s, %u s: no unreclaimable slab", profile,
				      limited ? " limited" : "", step / 10);
		if (slab_bound)
			ck_assert_msg(hs(&r, cg, MCG_SLAB_UNRECLAIMABLE_B) / MCG_PAGE_SIZE <=
					      slab_bound,
				      "%s%s, %u s: %ld pages of unreclaimable slab, over %ld",
				      profile, limited ? " limited" : "", step / 10,
				      hs(&r, cg, MCG_SLAB_UNRECLAIMABLE_B) / MCG_PAGE_SIZE,
				      slab_bound);
		if (limited)
			ck_assert_uint_le(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
					  4096);
	}
	mcg_workload_resume(r.wl);
	mcg_profile_free(p);
	rig_down(&r);
}
END_TEST

/*
 * A fault maps its page with a page table allocated for it: a CPU whose
 * tasks fault for the first time (no step of CPU 0, which holds the mm's
 * fixed part, before it) never has pages mapped without the PTE pages
 * that map them (do_anonymous_page() allocates the PTE page before the
 * folio, finish_fault() before it maps a file page), after any of its
 * steps, whatever the preset.  With one node, every page table is node 0's.
 */
START_TEST(test_fault_maps_with_page_tables)
{
	static const char *const presets[] = { "seed001", "multi-fault", "file-reader" };
	g_autofree char *profile = g_strdup_printf("preset=%s nodes=0", presets[_i]);
	struct mcg_profile *p = NULL;
	struct rig r;
	struct wl_cgroup *w;

	/* The cgroup's own profile is idle: only the steps below run it. */
	rig_up(&r, MCG_HIERARCHY_V2, 2, 1, "preset=idle", 1);
	ck_assert_int_eq(mcg_profile_parse(profile, 1, &p), 0);
	mcg_workload_pause(r.wl);
	w = mcg_cgroup_workload(r.cg[0]);
	for (unsigned step = 1; step <= 20; step++) {
		struct wl_ctx x = { r.wl, r.e, mcg_engine_cpu(r.e, 1), 1, 0, NULL };
		const struct wl_node *n = &wl_ledger(w, 1)->node[0];
		long mapped;

		mcg_cpu_enter(x.cpu);
		wl_step(&x, w, p, 0.01);
		mapped = n->anon_inactive + n->anon_active + n->mlocked + n->shmem + n->mapped +
			 n->swapped;
		ck_assert_msg(mapped > 0 && n->pagetables * 512 >= mapped,
			      "%s, step %u: %ld pages mapped on CPU 1 with %ld page tables",
			      presets[_i], step, mapped, n->pagetables);
		mcg_cpu_exit(x.cpu);
	}
	mcg_workload_resume(r.wl);
	mcg_profile_free(p);
	rig_down(&r);
}
END_TEST

/* No charge lost (mcg_workload_audit()), with the pool paused and the
 * stats flushed. */
static void check_conserved(struct mcg_workload *wl)
{
	struct mcg_workload_audit a;

	mcg_workload_audit(wl, &a);
	ck_assert_msg(a.lost == 0,
		      "usage %lu - stocked %lu != charged %" PRIu64 " - uncharged %" PRIu64
		      " + objects %ld: %" PRId64 " lost",
		      a.usage, a.stocked, a.charged, a.uncharged, a.objects, a.lost);
}

START_TEST(test_conservation_under_load)
{
	bool v1 = _i == 1;
	struct rig r;
	struct mcg_workload_counters wc;
	struct mcg_cgroup *root;

	rig_up(&r, v1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2, 4, 2, "preset=seed001 footprint=8M", 8);
	root = mcg_engine_root(r.e);
	/* A limit on one branch makes reclaim, swap and refaults happen. */
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, r.cg[3], MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
						300, v1), 0);
	for (int round = 0; round < 3; round++) {
		g_usleep(300 * 1000);
		mcg_workload_pause(r.wl);
		__mcg_memcg_flush_stats(r.e, root, true);
		check_conserved(r.wl);
		check_relations(&r, root, 2, v1);
		for (unsigned i = 0; i < r.n; i++)
			if (mcg_cgroup_online(r.cg[i]))
				check_relations(&r, r.cg[i], 2, v1);
		mcg_workload_resume(r.wl);
		/* Remove leaves while the workers are busy with them. */
		if (round < 2) {
			ck_assert_int_eq(mcg_workload_cgroup_destroy(r.wl, r.cg[7 - round]), 0);
			ck_assert_int_eq(mcg_workload_cgroup_destroy(r.wl, r.cg[0]), -EBUSY);
		}
	}
	/* Activations move a batch at a time (ledger.c age_node()): the
	 * workers make their first within seconds. */
	for (int tries = 0; tries < 100; tries++) {
		__mcg_memcg_flush_stats(r.e, root, true);
		if (hs(&r, root, MCG_PGACTIVATE) > 0)
			break;
		g_usleep(100 * 1000);
	}
	mcg_workload_counters(r.wl, &wc);
	ck_assert_uint_gt(wc.stat_updates, 1000);
	ck_assert_uint_gt(wc.pages_charged, 1000);
	/* Everything the workers did shows up in the root. */
	ck_assert_int_gt(hs(&r, root, MCG_PGFAULT), 0);
	ck_assert_int_gt(hs(&r, root, MCG_PGSCAN_KSWAPD), 0);
	ck_assert_int_gt(hs(&r, root, MCG_PGSTEAL_DIRECT), 0);
	ck_assert_int_gt(hs(&r, root, MCG_WORKINGSET_REFAULT_FILE), 0);
	ck_assert_int_gt(hs(&r, root, MCG_PGACTIVATE), 0);
	/* Every kind of memory spreads over both nodes. */
	{
		const enum mcg_item spread[] = { MCG_ANON_MAPPED, MCG_FILE_PAGES, MCG_UNEVICTABLE,
						 MCG_SLAB_RECLAIMABLE_B, MCG_PAGETABLE };

		__mcg_memcg_flush_stats(r.e, root, true);
		for (unsigned k = 0; k < G_N_ELEMENTS(spread); k++)
			for (int nid = 0; nid < 2; nid++)
				ck_assert_msg(mcg_stat_read_node_raw(r.e, root, nid, spread[k],
								     MCG_HIERARCHICAL) * 5 >=
						      hs(&r, root, spread[k]),
					      "%s: node %d holds under a fifth", mcg_item_name(spread[k]),
					      nid);
	}
	ck_assert_uint_gt(mcg_memory_event_read(r.cg[3], MCG_MEMORY_MAX, false), 0);
	ck_assert_uint_gt(mcg_counter_read(r.cg[3], MCG_COUNTER_MEMORY, MCG_FIELD_FAILCNT), 0);
	rig_down(&r);
}
END_TEST

/* Memory csses made and killed (subtree_control writes) while the tasks of
 * the children run, and a limit on their parent reclaims: at every pause
 * the root's usage is still what the pool charged less what it uncharged,
 * plus the memcgs' objects (those of killed csses still dying included),
 * and the counters keep their relations.  A css made again is fresh.  At
 * the end the tasks exit and a reclaim empties every killed css: none is
 * left dying.  Then the children go and the root holds nothing of
 * theirs. */
START_TEST(test_memory_css_under_load)
{
	const char *era = _i ? "7.3" : "6.12";
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl = era_pool(era, 4, 2, "preset=idle", &cfg, &e);
	struct mcg_cgroup *root = mcg_engine_root(e), *p, *kids[4];
	struct rig r = { .e = e, .wl = wl };
	unsigned max_dying = 0;

	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "p", true, &p), 0);
	for (unsigned k = 0; k < 4; k++) {
		char name[8];

		g_snprintf(name, sizeof(name), "c%u", k);
		ck_assert_int_eq(mcg_workload_cgroup_create(wl, p, name, false, &kids[k]), 0);
		ck_assert_ptr_null(mcg_cgroup_memcg(e, kids[k]));
		ck_assert_int_eq(mcg_workload_set_profile(wl, kids[k],
							  "preset=seed001 footprint=4M swap=on"), 0);
	}
	ck_assert_int_eq(mcg_workload_set_limit(wl, p, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 3000,
						false), 0);
	ck_assert_int_eq(mcg_workload_start(wl), 0);
	for (unsigned round = 0; round < 8; round++) {
		struct mcg_cgroup *kid = kids[round % 4], *css;
		bool on = (round / 4) % 2 == 0;

		g_usleep(150 * 1000);
		/* +memory for each child, then -memory, the tasks running */
		ck_assert_int_eq(mcg_workload_memory_css(wl, kid, on), 0);
		css = mcg_cgroup_memcg(e, kid);
		ck_assert(on == (css != NULL));
		if (on)	/* fresh: no limit of its own was ever hit */
			ck_assert_uint_eq(mcg_memory_event_read(css, MCG_MEMORY_MAX, false), 0);
		mcg_cgroup_put(css);
		max_dying = MAX(max_dying, mcg_cgroup_nr_dying_memcg(e, root));
		mcg_workload_pause(wl);
		__mcg_memcg_flush_stats(e, root, true);
		check_conserved(wl);
		check_relations(&r, root, 2, false);
		check_relations(&r, p, 2, false);
		mcg_workload_resume(wl);
	}
	/* Every child lost its css again by round 7: before 7.3 the pages
	 * of the last ones are still charged to them, dying; in 7.3 only
	 * their swap entries keep them (a swap=on profile under a limit may
	 * have none yet). */
	if (!mcg_engine_config(e)->kernel.reparent_local)
		ck_assert_uint_gt(max_dying, 0);
	for (unsigned k = 0; k < 4; k++)
		ck_assert_int_eq(mcg_workload_set_profile(wl, kids[k], "preset=idle"), 0);
	/* page cache and reclaimable slab stay until reclaimed */
	for (int i = 0; i < 10 && mcg_cgroup_nr_dying_memcg(e, root); i++)
		mcg_workload_reclaim(wl, p, 1 << 20, NULL, NULL);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 0);
	for (unsigned k = 0; k < 4; k++) {
		ck_assert_int_eq(mcg_workload_cgroup_rmdir(wl, kids[k]), 0);
		mcg_cgroup_put(kids[k]);
	}
	mcg_workload_pause(wl);
	__mcg_memcg_flush_stats(e, root, true);
	check_conserved(wl);
	mcg_workload_resume(wl);
	mcg_workload_free(wl);
	mcg_cgroup_put(p);
	mcg_engine_free(e);
}
END_TEST

/* What keeps a killed css dying (wl_ledger_pins_css()).  6.12: its tasks'
 * kernel memory does not (it is charged through an obj_cgroup, which
 * mem_cgroup_css_offline() hands to the parent): a css with slab alone is
 * released at the kill, the slab still charged, now to the parent.  7.3:
 * its swap entries do (mem_cgroup_private_id_get_online()), until the
 * tasks' exit frees them. */
START_TEST(test_killed_css_pins)
{
	const char *era = _i ? "7.3" : "6.12";
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl = era_pool(era, 2, 1, "preset=idle", &cfg, &e);
	struct mcg_cgroup *root = mcg_engine_root(e), *p, *c;
	unsigned long before;

	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "p", true, &p), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, p, "c", true, &c), 0);
	if (_i) {	/* anonymous memory over c's limit, swapped out */
		ck_assert_int_eq(mcg_workload_set_limit(wl, c, MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
							 256, false), 0);
		ck_assert_int_eq(mcg_workload_set_profile(wl, c, "anon=4000 footprint=4M swap=on"),
				 0);
	} else {	/* kernel memory alone: slab and the tasks' stacks */
		ck_assert_int_eq(mcg_workload_set_profile(wl, c, "slab=2000 footprint=4M"), 0);
	}
	ck_assert_int_eq(mcg_workload_start(wl), 0);
	/* 6.12: well over the 256 pages checked below, as the CPUs' stocks
	 * (MEMCG_CHARGE_BATCH each) may give some back in between */
	for (int i = 0; i < 250; i++) {
		g_usleep(20 * 1000);
		if (_i ? mcg_counter_read(c, MCG_COUNTER_SWAP, MCG_FIELD_USAGE) > 64
		       : mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) > 640)
			break;
	}
	if (_i)
		ck_assert_uint_gt(mcg_counter_read(c, MCG_COUNTER_SWAP, MCG_FIELD_USAGE), 64);
	else
		ck_assert_uint_gt(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 640);
	/* the tasks stay, holding what they have: their turnover would
	 * free the old css's pages first */
	ck_assert_int_eq(mcg_workload_set_profile(wl, c, "preset=sleep"), 0);
	before = mcg_counter_read(p, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	ck_assert_uint_gt(before, 256);
	ck_assert_int_eq(mcg_workload_memory_css(wl, c, false), 0);
	if (_i) {
		ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 1);
		ck_assert_int_eq(mcg_workload_set_profile(wl, c, "preset=idle"), 0);
		/* the exit freed the swap: the sweep let the css go */
		ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 0);
	} else {
		ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 0);
		/* the slab is still charged, to p */
		ck_assert_uint_gt(mcg_counter_read(p, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 256);
		ck_assert_int_eq(mcg_workload_set_profile(wl, c, "preset=idle"), 0);
	}
	ck_assert_int_eq(mcg_workload_cgroup_rmdir(wl, c), 0);
	mcg_workload_free(wl);
	mcg_cgroup_put(c);
	mcg_cgroup_put(p);
	mcg_engine_free(e);
}
END_TEST

/* ---- limits ---- */

START_TEST(test_limit_holds_under_load)
{
	struct rig r;
	unsigned long max = 2048;	/* 8 MiB */

	rig_up(&r, MCG_HIERARCHY_V2, 2, 1, "preset=multi-fault footprint=64M", 1);
	g_usleep(100 * 1000);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, r.cg[0], MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
						max, false), 0);
	ck_assert_uint_le(mcg_counter_read(r.cg[0], MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), max);
	for (int k = 0; k < 200; k++) {
		ck_assert_uint_le(mcg_counter_read(r.cg[0], MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), max);
		g_usleep(2000);
	}
	/* Anonymous memory without swap cannot be reclaimed: OOM kills. */
	ck_assert_uint_gt(mcg_memory_event_read(r.cg[0], MCG_MEMORY_MAX, false), 0);
	ck_assert_uint_gt(mcg_memory_event_read(r.cg[0], MCG_MEMORY_OOM, false), 0);
	ck_assert_uint_gt(mcg_memory_event_read(r.cg[0], MCG_MEMORY_OOM_KILL, false), 0);
	/* The peaks are racy by design, as the kernel's (counter.c: each
	 * level's is raised from its usage read after the charge): an
	 * uncharge between the child's read and the root's can leave the
	 * root's one charge batch per CPU in flight below the child's. */
	ck_assert_uint_le(mcg_counter_read(r.cg[0], MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK),
			  mcg_counter_read(mcg_engine_root(r.e), MCG_COUNTER_MEMORY,
					   MCG_FIELD_WATERMARK) +
				  mcg_engine_config(r.e)->nr_cpus *
					  mcg_engine_config(r.e)->kernel.charge_batch);
	rig_down(&r);
}
END_TEST

static bool always_interrupted(void *arg)
{
	return true;
}

START_TEST(test_high_and_reclaim)
{
	struct rig r;
	struct mcg_cgroup *cg;
	unsigned long before, after;

	rig_up(&r, MCG_HIERARCHY_V2, 2, 1, "file_read=20000", 1);
	cg = r.cg[0];
	g_usleep(300 * 1000);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_HIGH, 512,
						false), 0);
	g_usleep(200 * 1000);
	ck_assert_uint_gt(mcg_memory_event_read(cg, MCG_MEMORY_HIGH, false), 0);
	ck_assert_int_eq(mcg_workload_set_profile(r.wl, cg, "preset=idle"), 0);
	mcg_workload_pause(r.wl);
	__mcg_memcg_flush_stats(r.e, cg, true);
	ck_assert_int_gt(hs(&r, cg, MCG_PGSTEAL_DIRECT), 0);
	before = mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	ck_assert_uint_gt(before, 100);
	ck_assert_int_eq(mcg_workload_reclaim(r.wl, cg, 100, NULL, NULL), 0);
	after = mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	ck_assert_uint_le(after, before - 100);
	__mcg_memcg_flush_stats(r.e, cg, true);
	ck_assert_int_ge(hs(&r, cg, MCG_PGSTEAL_PROACTIVE), 100);
	ck_assert_int_le(hs(&r, cg, MCG_PGSTEAL_PROACTIVE), hs(&r, cg, MCG_PGSCAN_PROACTIVE));
	/* More than there is: what could be done is done, then EAGAIN. */
	ck_assert_int_eq(mcg_workload_reclaim(r.wl, cg, 1UL << 30, NULL, NULL), -EAGAIN);
	/* A signal pending before a pass: -EINTR, nothing reclaimed. */
	before = mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	ck_assert_int_eq(mcg_workload_reclaim(r.wl, cg, 100, always_interrupted, NULL), -EINTR);
	ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), before);
	/* memory_reclaim() drains no charge stock: what the CPUs hold in
	 * stock stays charged. */
	ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
			  mcg_memcg_stocked(r.e, cg, false));
	mcg_workload_resume(r.wl);
	rig_down(&r);
}
END_TEST

START_TEST(test_v1_limits)
{
	struct rig r;
	struct mcg_cgroup *cg;
	unsigned long usage;

	rig_up(&r, MCG_HIERARCHY_V1, 2, 1, "anon=20000 mlock=100 footprint=4M", 1);
	cg = r.cg[0];
	g_usleep(300 * 1000);
	ck_assert_int_eq(mcg_workload_set_profile(r.wl, cg, "preset=sleep"), 0);
	usage = mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	ck_assert_uint_gt(usage, 200);
	/* mlocked memory cannot be reclaimed: the limit is refused. */
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
						usage / 2, true), -EBUSY);
	ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX),
			  MCG_PAGE_COUNTER_MAX);
	/* A signal pending before the first pass: -EINTR, nothing reclaimed
	 * (mem_cgroup_force_empty() checks signal_pending() in its loop,
	 * after drain_all_stock()). */
	usage = mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) -
		mcg_memcg_stocked(r.e, cg, false);
	ck_assert_int_eq(mcg_workload_force_empty(r.wl, cg, always_interrupted, NULL), -EINTR);
	ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), usage);
	/* force_empty succeeds, and the mlocked pages stay */
	ck_assert_int_eq(mcg_workload_force_empty(r.wl, cg, NULL, NULL), 0);
	ck_assert_uint_ge(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), usage / 2);
	/* memsw below memory, memory above memsw: EINVAL. */
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
						usage * 4, true), 0);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMSW, MCG_FIELD_MAX,
						usage * 2, true), -EINVAL);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMSW, MCG_FIELD_MAX,
						usage * 8, true), 0);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX,
						usage * 16, true), -EINVAL);
	ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX), usage * 4);
	rig_down(&r);
}
END_TEST

START_TEST(test_profile_files)
{
	struct rig r;
	char *text;

	rig_up(&r, MCG_HIERARCHY_V2, 1, 2, "preset=file-reader", 1);
	text = mcg_workload_get_profile(r.wl, r.cg[0]);
	ck_assert_ptr_nonnull(strstr(text, "file_read=50000\n"));
	g_free(text);
	ck_assert_int_eq(mcg_workload_set_profile(r.wl, r.cg[0], "anon=10 nodes=5"), -EINVAL);
	text = mcg_workload_get_profile(r.wl, r.cg[0]);
	ck_assert_ptr_nonnull(strstr(text, "file_read=50000\n"));
	g_free(text);
	ck_assert_int_eq(mcg_workload_set_profile(r.wl, r.cg[0], "anon=10 nodes=1"), 0);
	text = mcg_workload_get_profile(r.wl, r.cg[0]);
	ck_assert_ptr_nonnull(strstr(text, "file_read=0\n"));
	ck_assert_ptr_nonnull(strstr(text, "nodes=1\n"));
	g_free(text);
	/* The root starts idle whatever the default. */
	text = mcg_workload_get_profile(r.wl, mcg_engine_root(r.e));
	ck_assert_ptr_nonnull(strstr(text, "file_read=0\n"));
	g_free(text);
	rig_down(&r);
}
END_TEST

/* At the v1 memsw limit reclaim may not swap (the page would stay in
 * memsw): it OOMs instead, and every counter stays within its limit. */
START_TEST(test_memsw_limit)
{
	struct rig r;
	struct mcg_cgroup *cg;

	rig_up(&r, MCG_HIERARCHY_V1, 2, 1, "anon=20000 footprint=64M swap=on", 1);
	cg = r.cg[0];
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 1000,
						true), 0);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMSW, MCG_FIELD_MAX, 1200,
						true), 0);
	g_usleep(500 * 1000);
	mcg_workload_pause(r.wl);
	__mcg_memcg_flush_stats(r.e, mcg_engine_root(r.e), true);
	ck_assert_uint_le(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 1000);
	ck_assert_uint_le(mcg_counter_read(cg, MCG_COUNTER_MEMSW, MCG_FIELD_USAGE), 1200);
	ck_assert_int_le(hs(&r, cg, MCG_MEMCG_SWAP) +
				 (long)mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
			 1200);
	ck_assert_uint_gt(mcg_counter_read(cg, MCG_COUNTER_MEMSW, MCG_FIELD_FAILCNT), 0);
	ck_assert_uint_gt(mcg_memory_event_read(cg, MCG_MEMORY_OOM_KILL, false), 0);
	check_relations(&r, cg, 1, true);
	mcg_workload_resume(r.wl);
	rig_down(&r);
}
END_TEST

/* Swap-ins under a swap.max that the swapped pages already fill: the
 * charge of a swap-in may OOM-kill the very pages coming in; no page may
 * leave swap twice. */
START_TEST(test_swap_limits)
{
	struct rig r;
	struct mcg_cgroup *cg;

	rig_up(&r, MCG_HIERARCHY_V2, 2, 1, "anon=100000 footprint=64M swap=on", 1);
	cg = r.cg[0];
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 1000,
						false), 0);
	g_usleep(300 * 1000);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_SWAP, MCG_FIELD_MAX,
						mcg_counter_read(cg, MCG_COUNTER_SWAP,
								 MCG_FIELD_USAGE), false), 0);
	g_usleep(300 * 1000);
	mcg_workload_pause(r.wl);
	__mcg_memcg_flush_stats(r.e, mcg_engine_root(r.e), true);
	check_relations(&r, cg, 1, false);
	ck_assert_uint_le(mcg_counter_read(cg, MCG_COUNTER_SWAP, MCG_FIELD_USAGE),
			  mcg_counter_read(cg, MCG_COUNTER_SWAP, MCG_FIELD_MAX));
	ck_assert_int_gt(hs(&r, cg, MCG_PSWPOUT), 0);
	mcg_workload_resume(r.wl);
	rig_down(&r);
}
END_TEST

/* A profile bound to some nodes allocates there only. */
START_TEST(test_profile_nodes)
{
	struct rig r;
	const enum mcg_item items[] = { MCG_ANON_MAPPED, MCG_FILE_PAGES, MCG_SLAB_UNRECLAIMABLE_B };

	rig_up(&r, MCG_HIERARCHY_V2, 2, 3, "anon=20000 file_read=20000 slab=2000 nodes=1-2", 1);
	g_usleep(300 * 1000);
	mcg_workload_pause(r.wl);
	__mcg_memcg_flush_stats(r.e, mcg_engine_root(r.e), true);
	for (unsigned k = 0; k < G_N_ELEMENTS(items); k++) {
		ck_assert_int_eq(mcg_stat_read_node_raw(r.e, r.cg[0], 0, items[k], MCG_HIERARCHICAL), 0);
		ck_assert_int_gt(mcg_stat_read_node_raw(r.e, r.cg[0], 1, items[k], MCG_HIERARCHICAL), 0);
		ck_assert_int_gt(mcg_stat_read_node_raw(r.e, r.cg[0], 2, items[k], MCG_HIERARCHICAL), 0);
	}
	mcg_workload_resume(r.wl);
	rig_down(&r);
}
END_TEST

/* ---- repeatable runs ---- */

struct manual_run {
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *cg;
};

/* A manual-clock pool of 2 CPUs and 2 nodes, seeded, one busy cgroup,
 * three emulated seconds, a direct charge and a free. */
static void manual_run(struct manual_run *r, uint64_t seed)
{
	struct mcg_engine_config cfg;
	int err;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 2;
	cfg.nr_nodes = 2;
	cfg.manual_clock = true;
	r->e = mcg_engine_new(&cfg);
	r->wl = mcg_workload_new(r->e, NULL, &err);
	ck_assert_ptr_nonnull(r->wl);
	mcg_workload_set_seed(r->wl, seed);
	ck_assert_int_eq(mcg_workload_start(r->wl), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(r->wl, mcg_engine_root(r->e), "a", true, &r->cg), 0);
	ck_assert_int_eq(mcg_workload_set_profile(r->wl, r->cg,
						  "anon=5000 file_read=3000 file_write=500 slab=200 "
						  "footprint=8M turnover=20 nodes=all"), 0);
	ck_assert_int_eq(mcg_workload_clock_advance(r->wl, 1500000000u, NULL, NULL), 0);
	ck_assert_int_eq(mcg_workload_charge(r->wl, r->cg, MCG_PAGES_ANON, 1, 1, 256), 0);
	ck_assert_int_eq(mcg_workload_clock_advance(r->wl, 1500000000u, NULL, NULL), 0);
	ck_assert_int_eq(mcg_workload_charge(r->wl, r->cg, MCG_PAGES_ANON, 1, 1, -100), 0);
	__mcg_memcg_flush_stats(r->e, mcg_engine_root(r->e), true);
}

static void manual_run_free(struct manual_run *r)
{
	mcg_workload_cgroup_destroy(r->wl, r->cg);
	mcg_cgroup_put(r->cg);
	mcg_workload_free(r->wl);
	mcg_engine_free(r->e);
}

/* cpus=1: the tasks fault on CPU 0 alone, so a flush of their memcg folds
 * one (cgroup, CPU) pair per level; swapin=100: once force_empty pushed
 * everything out, every fault reads a page back (a refault) until none is
 * left in swap, and only then faults a new one.  Each refault is counted
 * as the LRU does (ledger.c, refault_count()), a quarter of them having
 * been in the workingset: the classic LRU (_i 0) activates all and
 * restores those; 7.3's multi-gen LRU (_i 1) activates and restores those
 * alone (a swap-in is a fault); 6.12's (_i 2) activates all and, in a
 * fault, restores all. */
START_TEST(test_profile_cpus_swapin)
{
	const bool lru_gen = _i >= 1;
	const struct mcg_kernel_config kc = { .lru_gen = lru_gen ? MCG_KCONFIG_Y : MCG_KCONFIG_N };
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *cg;
	struct mcg_flush_counters f0, f1;
	unsigned long swapped, refaults, activated, restored, n;
	const char *why = NULL;
	int err;

	mcg_engine_config_init(&cfg);
	ck_assert_int_eq(mcg_patch_resolve(_i == 2 ? "6.12" : "7.3", NULL, &cfg.kernel, &why), 0);
	ck_assert_int_eq(mcg_kernel_configure(&cfg.kernel, &kc, true, &why), 0);
	ck_assert(cfg.kernel.lru_gen_enabled == lru_gen);
	cfg.nr_cpus = 4;
	cfg.manual_clock = true;
	cfg.hierarchy = MCG_HIERARCHY_V1;
	e = mcg_engine_new(&cfg);
	wl = mcg_workload_new(e, NULL, &err);
	ck_assert_ptr_nonnull(wl);
	ck_assert_int_eq(mcg_workload_start(wl), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, mcg_engine_root(e), "m", true, &cg), 0);
	ck_assert_int_eq(mcg_workload_set_profile(wl, cg, "anon=4000 cpus=1 swap=on footprint=4M"), 0);
	ck_assert_int_eq(mcg_workload_clock_advance(wl, 1000000000u, NULL, NULL), 0);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	mcg_engine_flush_counters(e, &f0);
	ck_assert_int_eq(mcg_workload_clock_advance(wl, 10000000u, NULL, NULL), 0);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	mcg_engine_flush_counters(e, &f1);
	/* m and the root, on CPU 0 only. */
	ck_assert_uint_eq(f1.visited - f0.visited, 2);

	ck_assert_int_eq(mcg_workload_set_profile(wl, cg, "tasks=on cpus=1 swap=on footprint=4M"),
			 0);
	ck_assert_int_eq(mcg_workload_force_empty(wl, cg, NULL, NULL), 0);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	swapped = mcg_stat_read(e, cg, MCG_MEMCG_SWAP, MCG_HIERARCHICAL);
	ck_assert_uint_ge(swapped, 1000);
	refaults = mcg_stat_read(e, cg, MCG_WORKINGSET_REFAULT_ANON, MCG_HIERARCHICAL);
	activated = mcg_stat_read(e, cg, MCG_WORKINGSET_ACTIVATE_ANON, MCG_HIERARCHICAL);
	restored = mcg_stat_read(e, cg, MCG_WORKINGSET_RESTORE_ANON, MCG_HIERARCHICAL);
	/* Half of what is in swap read back: all of it refaults. */
	ck_assert_int_eq(mcg_workload_set_profile(wl, cg, "anon=1000 swapin=100 cpus=1 swap=on "
						  "footprint=4M"), 0);
	ck_assert_int_eq(mcg_workload_clock_advance(wl, (uint64_t)swapped / 2 * 1000000u, NULL,
						    NULL), 0);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	n = mcg_stat_read(e, cg, MCG_WORKINGSET_REFAULT_ANON, MCG_HIERARCHICAL) - refaults;
	ck_assert_uint_eq(n, swapped - mcg_stat_read(e, cg, MCG_MEMCG_SWAP, MCG_HIERARCHICAL));
	ck_assert_uint_gt(mcg_stat_read(e, cg, MCG_MEMCG_SWAP, MCG_HIERARCHICAL), 0);
	restored = mcg_stat_read(e, cg, MCG_WORKINGSET_RESTORE_ANON, MCG_HIERARCHICAL) - restored;
	activated = mcg_stat_read(e, cg, MCG_WORKINGSET_ACTIVATE_ANON, MCG_HIERARCHICAL) - activated;
	if (_i == 2) {
		ck_assert_uint_eq(restored, n);
	} else {
		ck_assert_uint_ge(restored, n / 4 - 1);
		ck_assert_uint_le(restored, n / 4 + 1);
	}
	ck_assert_uint_eq(activated, _i == 1 ? restored : n);

	mcg_workload_cgroup_destroy(wl, cg);
	mcg_cgroup_put(cg);
	mcg_workload_free(wl);
	mcg_engine_free(e);
}
END_TEST

/* PSI's arithmetic, with the stalls put in by hand on a manual clock.
 * Averages: update_averages() and calc_avgs() of kernel/sched/psi.c, the
 * expected figures worked out apart from psi.c with the kernel's
 * fixed-point calc_load() and fixed_power_int() (FSHIFT 11, EXP_10s 1677,
 * EXP_60s 1981, EXP_300s 2034): one 2 s period half stalled gives avg10
 * 18550 (9.05%), avg60 3350, avg300 700; a quiet period decays them; two
 * missed periods are zeroes before the next sample (calc_load_n()).
 * some and full in a parent of two threads on one CPU follow the model of
 * psi.c's essay: some is the stalls summed up to the non-idle time, full
 * what is left of their sum once they overlap as little as they can. */
static void psi_put(struct mcg_cgroup *cg, unsigned cpu, uint64_t run, uint64_t stall)
{
	struct wl_ledger *l = wl_ledger(mcg_cgroup_workload(cg), cpu);

	atomic_fetch_add(&l->run_ns, run);
	atomic_fetch_add(&l->memstall_ns, stall);
}

static void psi_expect(struct mcg_workload *wl, struct mcg_cgroup *cg, uint64_t some,
		       uint64_t full, const unsigned long avg_some[3],
		       const unsigned long avg_full[3])
{
	struct mcg_psi p;

	ck_assert_int_eq(mcg_workload_psi_read(wl, cg, &p), 0);
	ck_assert_uint_eq(p.total_ns[0], some);
	ck_assert_uint_eq(p.total_ns[1], full);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(p.avg[0][i], avg_some[i]);
		ck_assert_uint_eq(p.avg[1][i], avg_full[i]);
	}
}

START_TEST(test_psi_arithmetic)
{
	const uint64_t s = 1000000000u;
	struct mcg_engine_config cfg;
	struct mcg_workload *wl;
	struct mcg_engine *e;
	struct mcg_cgroup *a, *b, *c;
	int err;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 2;
	cfg.nr_nodes = 1;
	cfg.manual_clock = true;
	e = mcg_engine_new(&cfg);
	wl = mcg_workload_new(e, "preset=idle", &err);
	ck_assert_ptr_nonnull(wl);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, mcg_engine_root(e), "a", true, &a), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, a, "b", true, &b), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, a, "c", true, &c), 0);

	/* Period 1: b's and c's threads run all of it on CPU 0, b stalled
	 * 1 s, c 1.5 s.  a: non-idle 2 s, some min(2.5, 2) = 2 s, full
	 * 2.5 - 2 = 0.5 s. */
	psi_put(b, 0, 2 * s, s);
	psi_put(c, 0, 2 * s, 3 * s / 2);
	ck_assert_int_eq(mcg_engine_clock_set(e, 2 * s), 0);
	mcg_workload_psi_collect(wl);
	psi_expect(wl, b, s, s, (const unsigned long[]){ 18550, 3350, 700 },
		   (const unsigned long[]){ 18550, 3350, 700 });
	psi_expect(wl, a, 2 * s, s / 2, (const unsigned long[]){ 37100, 6700, 1400 },
		   (const unsigned long[]){ 9275, 1675, 350 });
	psi_expect(wl, mcg_engine_root(e), 2 * s, s / 2,
		   (const unsigned long[]){ 37100, 6700, 1400 },
		   (const unsigned long[]){ 9275, 1675, 350 });

	/* Period 2, quiet: the averages decay, the totals stay. */
	ck_assert_int_eq(mcg_engine_clock_set(e, 4 * s), 0);
	mcg_workload_psi_collect(wl);
	psi_expect(wl, b, s, s, (const unsigned long[]){ 15189, 3240, 695 },
		   (const unsigned long[]){ 15189, 3240, 695 });

	/* Nobody collects until 10 s: two periods missed, then a quarter
	 * stalled on CPU 1. */
	psi_put(b, 1, 2 * s, s / 2);
	ck_assert_int_eq(mcg_engine_clock_set(e, 10 * s), 0);
	mcg_workload_psi_collect(wl);
	psi_expect(wl, b, 3 * s / 2, 3 * s / 2, (const unsigned long[]){ 17613, 4607, 1031 },
		   (const unsigned long[]){ 17613, 4607, 1031 });

	mcg_workload_cgroup_destroy(wl, c);
	mcg_workload_cgroup_destroy(wl, b);
	mcg_workload_cgroup_destroy(wl, a);
	mcg_cgroup_put(c);
	mcg_cgroup_put(b);
	mcg_cgroup_put(a);
	mcg_workload_free(wl);
	mcg_engine_free(e);
}
END_TEST

/* The same calls on a manual clock with one seed give the same counters,
 * node by node; another seed other node choices.  Time moved only by the
 * calls: 3 s, a periodic flush at 2 s. */
START_TEST(test_manual_clock_repeatable)
{
	static const enum mcg_item items[] = {
		MCG_ANON_MAPPED, MCG_FILE_PAGES, MCG_INACTIVE_FILE, MCG_ACTIVE_FILE, MCG_FILE_DIRTY,
		MCG_WRITEBACK, MCG_SLAB_RECLAIMABLE_B, MCG_PGFAULT,
	};
	struct manual_run a, b, c;
	struct mcg_flush_counters fc;
	bool differ = false;

	manual_run(&a, 5);
	manual_run(&b, 5);
	manual_run(&c, 6);
	ck_assert_uint_eq(mcg_engine_clock_ns(a.e), 3000000000u);
	mcg_engine_flush_counters(a.e, &fc);
	ck_assert_uint_eq(fc.periodic, 1);
	ck_assert_uint_gt(mcg_stat_read(a.e, a.cg, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 0);
	for (unsigned i = 0; i < G_N_ELEMENTS(items); i++) {
		if (items[i] == MCG_PGFAULT) {
			ck_assert_uint_eq(mcg_stat_read(a.e, a.cg, items[i], MCG_HIERARCHICAL),
					  mcg_stat_read(b.e, b.cg, items[i], MCG_HIERARCHICAL));
			continue;
		}
		for (int nid = 0; nid < 2; nid++) {
			unsigned long va = mcg_stat_read_node(a.e, a.cg, nid, items[i], MCG_HIERARCHICAL);

			ck_assert_uint_eq(va, mcg_stat_read_node(b.e, b.cg, nid, items[i],
								 MCG_HIERARCHICAL));
			differ |= va != mcg_stat_read_node(c.e, c.cg, nid, items[i], MCG_HIERARCHICAL);
		}
	}
	ck_assert(differ);
	ck_assert_uint_eq(mcg_counter_read(a.cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
			  mcg_counter_read(b.cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE));
	manual_run_free(&a);
	manual_run_free(&b);
	manual_run_free(&c);
}
END_TEST

/* A manual clock's advance asks before each tick whether the writer was
 * interrupted, and stops there: an hour's advance ends on a signal. */
static bool interrupt_after(void *arg)
{
	unsigned *ticks_left = arg;

	return (*ticks_left)-- == 0;
}

START_TEST(test_clock_advance_interrupted)
{
	struct manual_run r;
	unsigned ticks_left = 3;
	uint64_t t0;

	manual_run(&r, 1);
	t0 = mcg_engine_clock_ns(r.e);
	ck_assert_int_eq(mcg_workload_clock_advance(r.wl, MCG_WORKLOAD_MAX_ADVANCE_NS,
						    interrupt_after, &ticks_left), -EINTR);
	ck_assert_uint_gt(mcg_engine_clock_ns(r.e), t0);
	ck_assert_uint_le(mcg_engine_clock_ns(r.e) - t0,
			  3 * (uint64_t)MCG_WORKLOAD_DEFAULT_TICK_MS * 1000000u);
	manual_run_free(&r);
}
END_TEST

/* memcgfs.charge's path: pages of a kind land on the node and in the
 * counters; bad requests change nothing; a charge at the limit reclaims
 * page cache, then the OOM killer ends it with ENOMEM.  A real clock
 * cannot be advanced. */
START_TEST(test_direct_charge)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *cg;
	int err;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 2;
	cfg.nr_nodes = 2;
	e = mcg_engine_new(&cfg);
	wl = mcg_workload_new(e, NULL, &err);
	ck_assert_int_eq(mcg_workload_clock_advance(wl, 1, NULL, NULL), -EINVAL);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, mcg_engine_root(e), "a", true, &cg), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 1, 1000), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_FILE, 1, 0, 500), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_KERNEL_STACK, 0, 0, 4), 0);
	/* Bad requests: nothing changes. */
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 2, 0, 1), -EINVAL);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 2, 1), -EINVAL);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_NR_PAGE_KINDS, 0, 0, 1), -EINVAL);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 1, -1001), -EINVAL);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 1, 1, -1), -EINVAL);
	mcg_memcg_drain_all_stock(e, NULL, cg);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	/* In the items' storage units: pages, kB for kernel stacks. */
	ck_assert_uint_eq(mcg_stat_read_node(e, cg, 1, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 1000);
	ck_assert_uint_eq(mcg_stat_read_node(e, cg, 0, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 0);
	ck_assert_uint_eq(mcg_stat_read(e, cg, MCG_PGFAULT, MCG_HIERARCHICAL), 1000);
	ck_assert_uint_eq(mcg_stat_read(e, cg, MCG_FILE_PAGES, MCG_HIERARCHICAL), 500);
	ck_assert_uint_eq(mcg_stat_read(e, cg, MCG_KERNEL_STACK_KB, MCG_HIERARCHICAL),
			  4 * MCG_PAGE_SIZE / 1024);
	ck_assert_uint_eq(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 1504);
	/* A free of what CPU 0 holds on node 1. */
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 1, -400), 0);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	ck_assert_uint_eq(mcg_stat_read(e, cg, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 600);
	ck_assert_uint_eq(mcg_stat_read(e, cg, MCG_PGPGOUT, MCG_HIERARCHICAL), 400);
	/* 1104 pages under a limit of 1200: 200 more anon pages reclaim the
	 * page cache, then 96 more kill the task that faults. */
	ck_assert_int_eq(mcg_workload_set_limit(wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 1200,
						false), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 1, 0, 200), 0);
	ck_assert_uint_gt(mcg_memory_event_read(cg, MCG_MEMORY_MAX, false), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 1, 0, 1000), -ENOMEM);
	ck_assert_uint_eq(mcg_memory_event_read(cg, MCG_MEMORY_OOM_KILL, false), 1);
	ck_assert_uint_le(mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 1200);
	mcg_workload_cgroup_destroy(wl, cg);
	mcg_cgroup_put(cg);
	mcg_workload_free(wl);
	mcg_engine_free(e);
}
END_TEST

/* The LRU add batch (ledger.c): a new folio's LRU list size moves when its
 * CPU's batch is full (15 in 6.1, 31 in 7.3), a large folio at once, a free
 * first drains the batch (6.1) or leaves it (7.3), and lru_add_drain_all()
 * settles every CPU. */
START_TEST(test_lru_add_batch)
{
	const char *version = _i ? "6.1" : "7.3";
	const long batch = _i ? 15 : 31;
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_cgroup *cg;
	int err;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 2;
	cfg.kernel = *mcg_kernel_get(version);
	e = mcg_engine_new(&cfg);
	wl = mcg_workload_new(e, NULL, &err);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, mcg_engine_root(e), "a", true, &cg), 0);
#define LRU_AFTER_FLUSH(item)                                      \
	(__mcg_memcg_flush_stats(e, mcg_engine_root(e), true),     \
	 (long)mcg_stat_read(e, cg, (item), MCG_HIERARCHICAL))
	/* One short of a batch on CPU 0: mapped, not yet on a list. */
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 0, batch - 1), 0);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_ANON_MAPPED), batch - 1);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_ANON), 0);
	/* The folio that fills it moves them all. */
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 0, 1), 0);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_ANON), batch);
	/* Page cache on CPU 1 waits in CPU 1's batch, whatever CPU 0 does. */
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_FILE, 1, 0, 3), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 0, 2), 0);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_FILE_PAGES), 3);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_FILE), 0);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_ANON), batch);
	/* 6.1: a free drains its CPU's batch before it takes pages off; 7.3
	 * takes them off the list and leaves the batch. */
	ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 0, -1), 0);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_ANON), _i ? batch + 1 : batch - 1);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_FILE), 0);
	/* 7.3: with the list's own pages gone, a free takes the batch's,
	 * whose list size never moves; the freed folio keeps its slot to the
	 * drain, which comes when the slots are full */
	if (!_i) {
		ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 0, -batch), 0);
		ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_ANON), 0);
		ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_ANON_MAPPED), 1);
		ck_assert_int_eq(mcg_workload_charge(wl, cg, MCG_PAGES_ANON, 0, 0, batch - 2), 0);
		ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_ANON), batch - 1);
		ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_ANON_MAPPED), batch - 1);
	}
	/* lru_add_drain_all(): every list counts every page. */
	mcg_workload_lru_add_drain_all(wl);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_FILE), 3);
	ck_assert_int_eq(LRU_AFTER_FLUSH(MCG_INACTIVE_ANON), LRU_AFTER_FLUSH(MCG_ANON_MAPPED));
#undef LRU_AFTER_FLUSH
	mcg_workload_cgroup_destroy(wl, cg);
	mcg_cgroup_put(cg);
	mcg_workload_free(wl);
	mcg_engine_free(e);
}
END_TEST

/* memory.high's penalty (__mem_cgroup_handle_over_high()): one sleep per
 * return to user space, at most MEMCG_MAX_HIGH_DELAY_JIFFIES (2 s), which
 * the tasks sleep before they charge again; writeback goes on meanwhile,
 * and once they go idle what they owe is served within those 2 s. */
START_TEST(test_high_penalty_bounded)
{
	const uint64_t max_delay_ns = 2000000000ull;
	struct mcg_profile *busy = NULL, *idle = NULL;
	struct rig r;
	struct mcg_cgroup *cg;
	struct wl_cgroup *w;
	struct wl_ctx x;
	uint64_t max_seen = 0;

	rig_up(&r, MCG_HIERARCHY_V2, 1, 1, NULL, 1);
	cg = r.cg[0];
	ck_assert_int_eq(mcg_profile_parse("anon=50000 file_write=20000 swap=off", 1, &busy), 0);
	ck_assert_int_eq(mcg_profile_parse("preset=idle", 1, &idle), 0);
	ck_assert_int_eq(mcg_workload_set_limit(r.wl, cg, MCG_COUNTER_MEMORY, MCG_FIELD_HIGH, 256,
						false), 0);
	mcg_workload_pause(r.wl);
	w = mcg_cgroup_workload(cg);
	x = (struct wl_ctx){ r.wl, r.e, mcg_engine_cpu(r.e, 0), 0, 0, NULL };
	for (int step = 0; step < 40; step++) {
		mcg_cpu_enter(x.cpu);
		wl_step(&x, w, busy, 0.1);
		mcg_cpu_exit(x.cpu);
		ck_assert_uint_le(wl_ledger(w, 0)->throttle_ns, max_delay_ns);
		max_seen = MAX(max_seen, wl_ledger(w, 0)->throttle_ns);
	}
	/* Far over high, the clamp is what bounds it. */
	ck_assert_uint_ge(max_seen, max_delay_ns * 9 / 10);
	/* Idle: the sleep is served, and the dirty pages are written back
	 * (a page expires within 0.5 s, its writeback ends within 0.2 s). */
	for (int step = 0; step < 40; step++) {
		mcg_cpu_enter(x.cpu);
		wl_step(&x, w, idle, 0.1);
		mcg_cpu_exit(x.cpu);
	}
	__mcg_memcg_flush_stats(r.e, cg, true);
	ck_assert_uint_eq(wl_ledger(w, 0)->throttle_ns, 0);
	ck_assert_int_gt(hs(&r, cg, MCG_FILE_PAGES), 0);
	ck_assert_int_eq(hs(&r, cg, MCG_FILE_DIRTY), 0);
	ck_assert_int_eq(hs(&r, cg, MCG_WRITEBACK), 0);
	mcg_profile_free(busy);
	mcg_profile_free(idle);
	mcg_workload_resume(r.wl);
	rig_down(&r);
}
END_TEST

/* Usage of cg's memory counter less what the stocks hold: its pages. */
static unsigned long pages_of(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	return mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) -
	       mcg_memcg_stocked(e, cg, false);
}

/* A child that sleeps until killed, and a pidfd of it. */
static pid_t sleeper(int *pidfd)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	*pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	ck_assert_int_ge(*pidfd, 0);
	return pid;
}

/* A host process's task group (workload.c, "Host task groups"): its
 * pages are charged where it is when it makes them and stay there across
 * a move; its frees take its current css's first, then the older ones'
 * newest first; its exit frees anon and leaves page cache charged; and at
 * a limit the OOM killer chooses it and kills the process itself.  In an
 * era that keeps a removed memcg's pages (6.1) and one that reparents
 * them (7.3). */
START_TEST(test_host_groups)
{
	static const char *const eras[] = { "6.1", "7.3" };
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl = era_pool(eras[_i], 2, 1, NULL, &cfg, &e);
	struct mcg_cgroup *root = mcg_engine_root(e), *a = NULL, *b = NULL;
	struct mcg_host_group *g, *g2;
	int pidfd, status;
	pid_t pid;

	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "a", true, &a), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "b", true, &b), 0);
	ck_assert_int_eq(mcg_workload_host_group_new(wl, a, -1, &g), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_ANON, 0, 0, 100, NULL), 100);
	ck_assert_uint_eq(pages_of(e, a), 100);
	/* moved: what it made stays in a, what it makes goes to b */
	ck_assert_int_eq(mcg_workload_host_group_move(wl, g, b), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_ANON, 1, 0, 50, NULL), 50);
	ck_assert_uint_eq(pages_of(e, a), 100);
	ck_assert_uint_eq(pages_of(e, b), 50);
	/* b's first, then a's */
	ck_assert_int_eq(mcg_workload_host_group_free(wl, g, MCG_PAGES_ANON, 120), 120);
	ck_assert_uint_eq(pages_of(e, b), 0);
	ck_assert_uint_eq(pages_of(e, a), 30);
	/* no more than it holds */
	ck_assert_int_eq(mcg_workload_host_group_free(wl, g, MCG_PAGES_ANON, 1000), 30);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_ANON, 0, 0, 20, NULL), 20);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_FILE, 0, 0, 40, NULL), 40);
	/* the exit: anon goes, page cache stays */
	mcg_workload_host_group_exit(wl, g);
	ck_assert_uint_eq(pages_of(e, b), 40);
	ck_assert_uint_eq(pages_of(e, a), 0);
	mcg_workload_pause(wl);
	check_conserved(wl);
	mcg_workload_resume(wl);

	/* at b's limit, the OOM killer takes the biggest task group: this
	 * process, which dies for real */
	ck_assert_int_eq(mcg_workload_set_limit(wl, b, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 100,
						false), 0);
	pid = sleeper(&pidfd);
	ck_assert_int_eq(mcg_workload_host_group_new(wl, b, pidfd, &g2), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g2, MCG_PAGES_ANON, 0, 0, 200, NULL),
			 -ESRCH);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_uint_eq(mcg_memory_event_read(b, MCG_MEMORY_OOM_KILL, true), 1);
	/* nothing more once killed */
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g2, MCG_PAGES_ANON, 0, 0, 1, NULL), -ESRCH);
	ck_assert_uint_le(pages_of(e, b), 100);
	mcg_workload_host_group_exit(wl, g2);
	close(pidfd);
	mcg_workload_pause(wl);
	check_conserved(wl);
	mcg_workload_resume(wl);
	mcg_workload_free(wl);
	mcg_engine_free(e);
}
END_TEST

/* Socket buffers (MCG_PAGES_SOCK, wl_charge_sock()): v2 charges memory
 * and "sock", never the root's; v1 only tcpmem, and only once its limit
 * was written, refusing at it.  The exit closes the sockets; in 7.3 a
 * killed css keeps them (no reparenting) and stays dying until they go. */
START_TEST(test_sock)
{
	const bool v1 = _i == 2;
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl = era_pool_on(_i == 0 ? "6.1" : "7.3",
					      v1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2, 2, 1,
					      "preset=idle", &cfg, &e);
	struct mcg_cgroup *root = mcg_engine_root(e), *a, *b;
	struct mcg_host_group *g;
	unsigned long base;

	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "a", true, &a), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, a, "b", true, &b), 0);
	base = pages_of(e, a);	/* b's own objects (mcg_memcg_objects()) */

	/* the root's sockets are no memcg's (mem_cgroup_sk_alloc()) */
	ck_assert_int_eq(mcg_workload_charge(wl, root, MCG_PAGES_SOCK, 0, 0, 5), 0);
	ck_assert_int_eq(mcg_workload_charge(wl, root, MCG_PAGES_SOCK, 0, 0, -1), -EINVAL);
	if (v1) {
		/* not accounted until kmem.tcp.limit_in_bytes is written */
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 0, 0, 10), 0);
		ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 0);
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 0, 0, -1), -EINVAL);
		ck_assert_int_eq(mcg_counter_set_max(b, MCG_COUNTER_TCPMEM, 20), 0);
		mcg_memcg_activate_tcpmem(b);
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 0, 0, 10), 0);
		ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 10);
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 10);
		/* tcpmem alone: no memory, memsw or "sock" */
		ck_assert_uint_eq(pages_of(e, b), 0);
		ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_MEMSW, MCG_FIELD_USAGE), 0);
		/* at the limit the charge fails (memcg1_charge_skmem()) */
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 1, 0, 15), -ENOMEM);
		ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 20);
		ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_TCPMEM, MCG_FIELD_FAILCNT), 1);
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 0, 0, -10), 0);
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 1, 0, -10), 0);
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 0);
	} else {
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 0, 0, 10), 0);
		ck_assert_uint_eq(pages_of(e, b), 10);
		__mcg_memcg_flush_stats(e, root, true);
		ck_assert_uint_eq(mcg_stat_read(e, b, MCG_MEMCG_SOCK, MCG_HIERARCHICAL), 10);
		ck_assert_uint_eq(mcg_stat_read(e, root, MCG_MEMCG_SOCK, MCG_HIERARCHICAL), 10);
		/* freed through the CPU's stock (refill_stock()) */
		unsigned long stocked = mcg_memcg_stocked(e, b, false);

		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 0, 0, -4), 0);
		ck_assert_uint_eq(mcg_memcg_stocked(e, b, false), stocked + 4);
		ck_assert_uint_eq(pages_of(e, b), 6);
		ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
				  6 + mcg_memcg_stocked(e, b, false));
		__mcg_memcg_flush_stats(e, root, true);
		ck_assert_uint_eq(mcg_stat_read(e, b, MCG_MEMCG_SOCK, MCG_HIERARCHICAL), 6);
		ck_assert_int_eq(mcg_workload_charge(wl, b, MCG_PAGES_SOCK, 0, 0, -6), 0);
	}

	/* a host process's sockets: they stay with the memcg they were made
	 * in across a move, and go at its exit */
	ck_assert_int_eq(mcg_workload_host_group_new(wl, b, -1, &g), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_SOCK, 0, 0, 8, NULL), 8);
	ck_assert_int_eq(mcg_workload_host_group_move(wl, g, a), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_SOCK, 1, 0, 2, NULL), 2);
	if (v1) {
		/* a's accounting is off: its new sockets count nowhere */
		ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 8);
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 8);
	} else {
		ck_assert_uint_eq(pages_of(e, b), 8);
		ck_assert_uint_eq(pages_of(e, a) - base, 10);
	}
	if (!v1 && _i == 1) {
		/* 7.3 reparents b's folios at the kill, not its sockets */
		ck_assert_int_eq(mcg_workload_memory_css(wl, b, false), 0);
		ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 1);
	}
	mcg_workload_host_group_exit(wl, g);
	/* ... and the dying css, released once the stocks let it go
	 * (7.3's refill_stock() holds a css reference), takes its own
	 * objects with it */
	mcg_memcg_drain_all_stock(e, NULL, root);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 0);
	ck_assert_uint_eq(pages_of(e, a), !v1 && _i == 1 ? 0 : base);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), 0);
	mcg_workload_pause(wl);
	check_conserved(wl);
	mcg_workload_resume(wl);
	mcg_workload_free(wl);
	mcg_cgroup_put(b);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* A host cgroup's swap (mcg_workload_host_group_swap()): anon swapped out
 * leaves memory for swap (v2's swap counter, forced past swap.max as the
 * host did it; v1's memsw keeps it), entries freed go. */
START_TEST(test_host_group_swap)
{
	const bool v1 = _i == 1;
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl = era_pool_on("7.3", v1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2, 2,
					      1, "preset=idle", &cfg, &e);
	struct mcg_cgroup *root = mcg_engine_root(e), *a;
	struct mcg_host_group *g;

	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "a", true, &a), 0);
	if (!v1)
		ck_assert_int_eq(mcg_workload_set_limit(wl, a, MCG_COUNTER_SWAP, MCG_FIELD_MAX, 10,
							false), 0);
	ck_assert_int_eq(mcg_workload_host_group_new(wl, a, -1, &g), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_ANON, 0, 0, 60, NULL), 60);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g, MCG_PAGES_ANON, 1, 0, 40, NULL), 40);
	ck_assert_int_eq(mcg_workload_host_group_swap(wl, g, 70), 70);
	ck_assert_uint_eq(pages_of(e, a), 30);
	if (v1)
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMSW, MCG_FIELD_USAGE) -
					  mcg_memcg_stocked(e, a, true),
				  100);
	else
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_SWAP, MCG_FIELD_USAGE), 70);
	mcg_workload_lru_add_drain_all(wl);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_uint_eq(mcg_stat_read(e, a, MCG_MEMCG_SWAP, MCG_HIERARCHICAL), 70);
	ck_assert_uint_eq(mcg_stat_read(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 30);
	ck_assert_uint_eq(mcg_stat_read(e, a, MCG_PSWPOUT, MCG_HIERARCHICAL), 70);
	/* no more than there is */
	ck_assert_int_eq(mcg_workload_host_group_swap(wl, g, 50), 30);
	ck_assert_int_eq(mcg_workload_host_group_swap(wl, g, -60), -60);
	ck_assert_int_eq(mcg_workload_host_group_swap(wl, g, -100), -40);
	ck_assert_uint_eq(pages_of(e, a), 0);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_uint_eq(mcg_stat_read(e, a, MCG_MEMCG_SWAP, MCG_HIERARCHICAL), 0);
	if (!v1)
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_SWAP, MCG_FIELD_USAGE), 0);
	mcg_workload_host_group_exit(wl, g);
	mcg_workload_pause(wl);
	check_conserved(wl);
	mcg_workload_resume(wl);
	mcg_workload_free(wl);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* memory.oom.group (7.3 oom_kill_process(), mem_cgroup_get_oom_group()):
 * the OOM killer's victim, then every other task group below the highest
 * memcg with oom.group set up to the one out of memory, but one at
 * OOM_SCORE_ADJ_MIN; "oom_group_kill" there, "oom_kill" for each, the
 * victim's twice. */
START_TEST(test_oom_group)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_workload *wl = era_pool("7.3", 2, 1, NULL, &cfg, &e);
	struct mcg_cgroup *root = mcg_engine_root(e), *p = NULL, *c1 = NULL, *c2 = NULL;
	struct mcg_host_group *g[3];
	int fd[3], status;
	pid_t pid[3];

	ck_assert_int_eq(mcg_workload_cgroup_create(wl, root, "p", true, &p), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, p, "c1", true, &c1), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(wl, p, "c2", true, &c2), 0);
	ck_assert_int_eq(mcg_workload_set_limit(wl, p, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 100,
						false), 0);
	mcg_memcg_set_oom_group(p, true);
	for (int i = 0; i < 3; i++)
		pid[i] = sleeper(&fd[i]);
	/* in c2: a member, and one the OOM killer passes by */
	ck_assert_int_eq(mcg_workload_host_group_new(wl, c2, fd[1], &g[1]), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g[1], MCG_PAGES_ANON, 0, 0, 10, NULL), 10);
	ck_assert_int_eq(mcg_workload_host_group_new(wl, c2, fd[2], &g[2]), 0);
	mcg_workload_host_group_set_unkillable(g[2], true);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g[2], MCG_PAGES_ANON, 0, 0, 10, NULL), 10);
	/* in c1, the biggest: the victim */
	ck_assert_int_eq(mcg_workload_host_group_new(wl, c1, fd[0], &g[0]), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g[0], MCG_PAGES_ANON, 0, 0, 200, NULL),
			 -ESRCH);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(waitpid(pid[i], &status, 0), pid[i]);
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	ck_assert_int_eq(waitpid(pid[2], &status, WNOHANG), 0);
	ck_assert_uint_eq(mcg_memory_event_read(p, MCG_MEMORY_OOM, true), 1);
	ck_assert_uint_eq(mcg_memory_event_read(p, MCG_MEMORY_OOM_GROUP_KILL, true), 1);
	ck_assert_uint_eq(mcg_memory_event_read(c1, MCG_MEMORY_OOM_KILL, true), 2);
	ck_assert_uint_eq(mcg_memory_event_read(c2, MCG_MEMORY_OOM_KILL, true), 1);
	ck_assert_uint_eq(mcg_memory_event_read(p, MCG_MEMORY_OOM_KILL, false), 3);
	/* without oom.group, the victim alone */
	mcg_memcg_set_oom_group(p, false);
	mcg_workload_host_group_exit(wl, g[0]);
	close(fd[0]);
	pid[0] = sleeper(&fd[0]);
	mcg_workload_host_group_set_unkillable(g[2], false);
	ck_assert_int_eq(mcg_workload_host_group_new(wl, c1, fd[0], &g[0]), 0);
	ck_assert_int_eq(mcg_workload_host_group_charge(wl, g[0], MCG_PAGES_ANON, 0, 0, 200, NULL),
			 -ESRCH);
	ck_assert_int_eq(waitpid(pid[0], &status, 0), pid[0]);
	ck_assert_int_eq(waitpid(pid[2], &status, WNOHANG), 0);
	ck_assert_uint_eq(mcg_memory_event_read(p, MCG_MEMORY_OOM_GROUP_KILL, true), 1);
	kill(pid[2], SIGKILL);
	ck_assert_int_eq(waitpid(pid[2], &status, 0), pid[2]);
	for (int i = 0; i < 3; i++) {
		mcg_workload_host_group_exit(wl, g[i]);
		close(fd[i]);
	}
	mcg_workload_pause(wl);
	check_conserved(wl);
	mcg_workload_resume(wl);
	mcg_workload_free(wl);
	mcg_engine_free(e);
}
END_TEST

static Suite *make_workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc;

	tc = tcase_create("profiles");
	tcase_add_test(tc, test_profile_parse);
	tcase_add_loop_test(tc, test_profile_cpus_swapin, 0, 3);
	tcase_add_test(tc, test_seed004_charge_paths);
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_conservation_under_load, 0, 2);
	tcase_add_loop_test(tc, test_memory_css_under_load, 0, 2);
	tcase_add_loop_test(tc, test_killed_css_pins, 0, 2);
	tcase_add_test(tc, test_limit_holds_under_load);
	tcase_add_test(tc, test_high_and_reclaim);
	tcase_add_test(tc, test_high_penalty_bounded);
	tcase_add_test(tc, test_per_page_events);
	tcase_add_test(tc, test_cgroup_stat);
	tcase_add_loop_test(tc, test_flush_visits_touched_pairs, 0, 3);
	tcase_add_loop_test(tc, test_dying_kmem_uncharge_goes_to_live_ancestor, 0, G_N_ELEMENTS(four_eras));
	tcase_add_loop_test(tc, test_slab_by_object, 0, G_N_ELEMENTS(four_eras));
	tcase_add_loop_test(tc, test_memcg_objects_charged_in_bytes, 0, G_N_ELEMENTS(four_eras));
	tcase_add_loop_test(tc, test_free_with_dying_parents_objects, 0, G_N_ELEMENTS(four_eras));
	tcase_add_loop_test(tc, test_memcg_objects_at_two_cpus, 0, 6);
	tcase_add_test(tc, test_v1_limits);
	tcase_add_test(tc, test_profile_files);
	tcase_add_test(tc, test_profile_nodes);
	tcase_add_test(tc, test_memsw_limit);
	tcase_add_test(tc, test_swap_limits);
	tcase_add_test(tc, test_manual_clock_repeatable);
	tcase_add_test(tc, test_clock_advance_interrupted);
	tcase_add_test(tc, test_psi_arithmetic);
	tcase_add_test(tc, test_direct_charge);
	tcase_add_loop_test(tc, test_host_groups, 0, 2);
	tcase_add_loop_test(tc, test_sock, 0, 3);
	tcase_add_loop_test(tc, test_host_group_swap, 0, 2);
	tcase_add_test(tc, test_oom_group);
	tcase_add_loop_test(tc, test_lru_add_batch, 0, 2);
	suite_add_tcase(s, tc);
	/* Minutes of emulated time per preset, stepped flat out: slow under
	 * the sanitizers, hence a case of its own with room to run. */
	tc = tcase_create("long run");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_long_run_invariants, 0, 10);
	tcase_add_loop_test(tc, test_fault_maps_with_page_tables, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(make_workload_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
