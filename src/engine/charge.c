/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Charging memory to a memcg: the per-CPU charge stock and the era's
 * try_charge (mm/memcontrol.c: consume_stock(), refill_stock(),
 * drain_stock(), drain_all_stock(), try_charge_memcg(), uncharge_batch()).
 *
 * A charge of nr_pages does not go to the shared page counters each time.
 * Each CPU keeps a stock of pages already charged to a memcg: a charge the
 * stock can cover takes from it and touches nothing shared.  Otherwise the
 * charge takes a whole batch, max(MEMCG_CHARGE_BATCH, nr_pages), from the
 * page counters of the memcg and every ancestor (memsw first on v1), and
 * leaves what it did not need in the stock; if the batch does not fit
 * under a limit, it retries with exactly nr_pages.  A stock over
 * MEMCG_CHARGE_BATCH, or one that a charge of another memcg replaces, is
 * drained: its pages go back to the counters.  Uncharges of user pages go
 * straight to the counters (uncharge_batch()); kernel memory freed goes to
 * the freeing CPU's stock (obj_cgroup_uncharge_pages() and 5.10's
 * __memcg_kmem_uncharge() call refill_stock()).  So memory.current runs
 * ahead of the pages in use by up to a batch per CPU, as the kernel's does.
 *
 * Until 7.x a stock caches one memcg; 7.3 caches NR_MEMCG_STOCK (7), each
 * with its own count, replacing them round robin (drain_idx) and dropping
 * a slot once it is used up.
 *
 * drain_all_stock() drains the local stock at once, whole, if it holds
 * pages of the subtree, and has every other CPU whose stock holds the
 * subtree drain whole at its next chance (a work item in the kernel,
 * scheduled for the CPUs whose stock it reads under RCU as caching the
 * subtree).  A remote stock is its owner's alone here, so the request
 * carries the subtree, and the owner, entering its CPU, looks at its
 * stock then and drains it whole if it holds the subtree of a request:
 * the kernel's test, made when the work would run rather than when it
 * was queued.
 * Outside any CPU window memcgfs drains every CPU at once instead:
 * offline, limit changes and reclaim from the file system then see the
 * counters settle.  Kernel objects charged in bytes have a stock of their
 * own beside this one (objcg.c), drained with it.
 *
 * The stock holds a reference on each cached memcg (css_get()), which a
 * drain puts.  Every field of a CPU's stock is touched only by the thread
 * in that CPU's window, except the drain request (see struct mcg_cpu).
 */
#include "engine/internal.h"

/* drain_stock(): the slot's pages back to the counters. */
static void stock_drain_slot(struct mcg_cpu *c, unsigned i)
{
	struct mcg_cgroup *old = c->stock_cached[i];
	unsigned long pages = c->stock_pages[i];

	if (!old)
		return;
	if (pages) {
		mcg_counter_uncharge(old, MCG_COUNTER_MEMORY, pages);
		if (c->stock_memsw[i])
			mcg_counter_uncharge(old, MCG_COUNTER_MEMSW, pages);
	}
	c->stock_pages[i] = 0;
	c->stock_cached[i] = NULL;
	mcg_cgroup_put(old);
}

/* drain_all_stock()'s test for one CPU: does a slot of c's stock hold
 * pages of top's subtree?  NULL: does it cache any memcg at all (a full
 * drain, which drops the references too). */
static bool page_stock_drain_needed(struct mcg_cpu *c, const struct mcg_cgroup *top)
{
	for (unsigned i = 0; i < c->engine->nr_stock; i++)
		if (c->stock_cached[i] &&
		    (!top || (c->stock_pages[i] && mcg_cgroup_is_descendant(c->stock_cached[i], top))))
			return true;
	return false;
}

/* The stocks of c, drained as drain_local_stock() does when
 * drain_all_stock(top) picks the CPU (top NULL: every stock).  Until 7.x
 * the page and object stocks are one struct memcg_stock_pcp, drained
 * whole (objects first, their pages into the page stock, then the page
 * stock) when either holds top's subtree; 7.3 keeps them apart and drains
 * each that does, every slot of it (drain_stock_fully(),
 * drain_obj_stock()).  Inside c's window. */
static void stock_drain_subtree(struct mcg_cpu *c, const struct mcg_cgroup *top)
{
	bool pages = page_stock_drain_needed(c, top), objs = objcg_stock_drain_needed(c, top);

	if (c->engine->cfg.kernel.obj_stock != MCG_OBJ_STOCK_7_3) {
		if (!pages && !objs)
			return;
		objcg_stock_drain(c);
		pages = true;
	} else if (objs) {
		objcg_stock_drain(c);
	}
	for (unsigned i = 0; pages && i < c->engine->nr_stock; i++)
		stock_drain_slot(c, i);
}

/* What remote drain_all_stock() calls asked c to look for, taken: the
 * referenced tops into tops[] (returns how many), or *all. */
static unsigned stock_drain_request_take(struct mcg_cpu *c, struct mcg_cgroup **tops, bool *all)
{
	struct mcg_engine *e = c->engine;
	unsigned nr;
	uint64_t held = lock_stat_lock(&c->stock_drain_lock, &e->stock_drain_lock_stat,
				       &e->lock_stat_on);

	nr = c->stock_drain_nr;
	memcpy(tops, c->stock_drain_top, nr * sizeof(*tops));
	*all = c->stock_drain_all;
	c->stock_drain_nr = 0;
	c->stock_drain_all = false;
	atomic_store_explicit(&c->stock_drain_requested, false, memory_order_relaxed);
	lock_stat_unlock(&c->stock_drain_lock, &e->stock_drain_lock_stat, held);
	return nr;
}

/* Asks c to drain whole at its next enter if its stocks then hold top's
 * subtree (top NULL: any memcg), as the kernel's per-CPU test does for
 * each request's own root_memcg. */
static void stock_drain_request(struct mcg_cpu *c, struct mcg_cgroup *top)
{
	struct mcg_engine *e = c->engine;
	uint64_t held = lock_stat_lock(&c->stock_drain_lock, &e->stock_drain_lock_stat,
				       &e->lock_stat_on);

	if (!c->stock_drain_all) {
		bool have = false;

		for (unsigned i = 0; i < c->stock_drain_nr && !have; i++)
			have = c->stock_drain_top[i] == top;
		if (!top || (!have && c->stock_drain_nr == MCG_MAX_DRAIN_TOPS)) {
			for (unsigned i = 0; i < c->stock_drain_nr; i++)
				mcg_cgroup_put(c->stock_drain_top[i]);
			c->stock_drain_nr = 0;
			c->stock_drain_all = true;
		} else if (!have) {
			c->stock_drain_top[c->stock_drain_nr++] = mcg_cgroup_get(top);
		}
	}
	atomic_store_explicit(&c->stock_drain_requested, true, memory_order_relaxed);
	lock_stat_unlock(&c->stock_drain_lock, &e->stock_drain_lock_stat, held);
}

void charge_stock_enter(struct mcg_cpu *c)
{
	struct mcg_cgroup *tops[MCG_MAX_DRAIN_TOPS];
	unsigned nr;
	bool all;

	if (!atomic_load_explicit(&c->stock_drain_requested, memory_order_relaxed))
		return;
	nr = stock_drain_request_take(c, tops, &all);
	if (all)
		stock_drain_subtree(c, NULL);
	for (unsigned i = 0; i < nr; i++) {
		stock_drain_subtree(c, tops[i]);
		mcg_cgroup_put(tops[i]);
	}
}

void charge_stock_teardown(struct mcg_cpu *c)
{
	struct mcg_cgroup *tops[MCG_MAX_DRAIN_TOPS];
	bool all;
	unsigned nr = stock_drain_request_take(c, tops, &all);

	/* Requests still pending hold their references. */
	for (unsigned i = 0; i < nr; i++)
		mcg_cgroup_put(tops[i]);
	/* The object stock's drain updates statistics: as the CPU. */
	mcg_cpu_enter(c);
	stock_drain_subtree(c, NULL);
	mcg_cpu_exit(c);
}

/* 7.3's stock functions differ from the older eras' in ways that come
 * with its multi-memcg stock, the one thing that tells the eras apart
 * here: consume_stock() frees an emptied slot, counts are uint8_t so a
 * refill over a batch bypasses the stock (refill_stock()), and the root
 * never enters it (obj_cgroup_uncharge_pages()). */
static bool stock_7_3(const struct mcg_engine *e)
{
	return e->nr_stock > 1;
}

/* consume_stock().  A slot serves charges of its memcg with the same memsw
 * accounting (in practice: all of a v1 hierarchy's, none of v2's). */
static bool stock_consume(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned long nr_pages,
			  bool memsw)
{
	struct mcg_engine *e = c->engine;

	if (nr_pages > e->charge_batch)
		return false;
	for (unsigned i = 0; i < e->nr_stock; i++) {
		if (c->stock_cached[i] != cg || c->stock_memsw[i] != memsw)
			continue;
		if (c->stock_pages[i] < nr_pages)
			return false;
		c->stock_pages[i] -= nr_pages;
		/* 7.3 frees an emptied slot; one-slot stocks keep the memcg. */
		if (!c->stock_pages[i] && stock_7_3(e))
			stock_drain_slot(c, i);
		return true;
	}
	return false;
}

/* refill_stock() */
static void stock_refill(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned long nr_pages,
			 bool memsw)
{
	struct mcg_engine *e = c->engine;
	int slot = -1, empty = -1;

	/* 7.3: a refill over a batch goes straight to the counters
	 * (memcg_uncharge()).  Before, it entered the stock and the stock
	 * drained at once. */
	if (stock_7_3(e) && nr_pages > e->charge_batch) {
		mcg_counter_uncharge(cg, MCG_COUNTER_MEMORY, nr_pages);
		if (memsw)
			mcg_counter_uncharge(cg, MCG_COUNTER_MEMSW, nr_pages);
		return;
	}

	for (unsigned i = 0; i < e->nr_stock && slot < 0; i++) {
		if (c->stock_cached[i] == cg && c->stock_memsw[i] == memsw)
			slot = (int)i;
		else if (!c->stock_cached[i] && empty < 0)
			empty = (int)i;
	}
	if (slot < 0) {
		if (e->nr_stock == 1 || empty < 0) {
			/* One slot: replace it; 7.3: round robin. */
			slot = (int)c->stock_drain_idx;
			c->stock_drain_idx = (c->stock_drain_idx + 1) % e->nr_stock;
			stock_drain_slot(c, (unsigned)slot);
		} else {
			slot = empty;
		}
		c->stock_cached[slot] = mcg_cgroup_get(cg);
		c->stock_memsw[slot] = memsw;
	}
	c->stock_pages[slot] += nr_pages;
	if (c->stock_pages[slot] > e->charge_batch)
		stock_drain_slot(c, (unsigned)slot);
}

/* Takes n pages from the memory counter (and memsw) of cg and its
 * ancestors, or nothing. */
static bool counters_try(struct mcg_cgroup *cg, unsigned long n, bool memsw,
			 struct mcg_cgroup **over, enum mcg_counter *limited)
{
	if (memsw && !mcg_counter_try_charge(cg, MCG_COUNTER_MEMSW, n, over)) {
		*limited = MCG_COUNTER_MEMSW;
		return false;
	}
	if (!mcg_counter_try_charge(cg, MCG_COUNTER_MEMORY, n, over)) {
		if (memsw)
			mcg_counter_uncharge(cg, MCG_COUNTER_MEMSW, n);
		*limited = MCG_COUNTER_MEMORY;
		return false;
	}
	return true;
}

/*
 * The css reference of a charged page, as 2.6.35 took it (seed 004
 * before, MCG_CSS_REF_PER_PAGE_ATOMIC): try_get_mem_cgroup_from_mm() does a
 * css_tryget() per charge, atomic_inc_not_zero() on the css's atomic_t, a
 * cmpxchg loop; the page keeps the reference until
 * __mem_cgroup_uncharge_common() drops it with css_put(), an
 * atomic_sub_return().  Every CPU charging into the memcg writes that one
 * line, twice per page.  In every other mode a charge takes no reference of
 * its own here: the percpu_ref of 3.11+ is per CPU, and the RFC's after
 * (MCG_CSS_REF_OWNER_TASK_LOCK) takes a lock of the faulting process
 * instead, which the workload models (wl_charge()).
 *
 * The engine's count starts at 0 where the kernel's holds the base
 * reference, so the not-zero test of atomic_inc_not_zero() is left out.
 */
static bool css_ref_per_page(const struct mcg_cgroup *cg)
{
	return cg->engine->cfg.kernel.css_ref == MCG_CSS_REF_PER_PAGE_ATOMIC;
}

static void css_tryget_pages(struct mcg_cgroup *cg, unsigned long nr_pages)
{
	if (!css_ref_per_page(cg))
		return;
	for (unsigned long i = 0; i < nr_pages; i++) {
		long old = atomic_load_explicit(&cg->css_refs, memory_order_relaxed);

		while (!atomic_compare_exchange_weak_explicit(&cg->css_refs, &old, old + 1,
							      memory_order_relaxed,
							      memory_order_relaxed))
			;
	}
}

static void css_put_pages(struct mcg_cgroup *cg, unsigned long nr_pages)
{
	if (!css_ref_per_page(cg))
		return;
	for (unsigned long i = 0; i < nr_pages; i++)
		atomic_fetch_sub_explicit(&cg->css_refs, 1, memory_order_relaxed);
}

enum mcg_charge_result mcg_memcg_try_charge(struct mcg_cpu *c, struct mcg_cgroup *cg,
					    unsigned long nr_pages, bool memsw,
					    struct mcg_cgroup **over, enum mcg_counter *limited,
					    unsigned long *charged)
{
	unsigned long batch = c->engine->charge_batch > nr_pages ? c->engine->charge_batch
								   : nr_pages;

	/* 2.6.35 takes the reference before the stock is looked at, and a
	 * charge that fails drops it (__mem_cgroup_try_charge(): nomem). */
	css_tryget_pages(cg, nr_pages);
	if (stock_consume(c, cg, nr_pages, memsw))
		return MCG_CHARGE_FROM_STOCK;
	while (!counters_try(cg, batch, memsw, over, limited)) {
		if (batch == nr_pages) {
			css_put_pages(cg, nr_pages);
			return MCG_CHARGE_FAILED;
		}
		batch = nr_pages;	/* the batch did not fit: exactly */
	}
	if (batch > nr_pages)
		stock_refill(c, cg, batch - nr_pages, memsw);
	if (charged)
		*charged = batch;
	return MCG_CHARGE_FROM_COUNTERS;
}

void mcg_memcg_charge_force(struct mcg_cgroup *cg, unsigned long nr_pages, bool memsw)
{
	css_tryget_pages(cg, nr_pages);
	mcg_counter_charge(cg, MCG_COUNTER_MEMORY, nr_pages);
	if (memsw)
		mcg_counter_charge(cg, MCG_COUNTER_MEMSW, nr_pages);
}

void mcg_memcg_uncharge(struct mcg_cgroup *cg, unsigned long nr_pages, bool memsw)
{
	mcg_counter_uncharge(cg, MCG_COUNTER_MEMORY, nr_pages);
	if (memsw)
		mcg_counter_uncharge(cg, MCG_COUNTER_MEMSW, nr_pages);
	css_put_pages(cg, nr_pages);
}

void mcg_memcg_uncharge_kmem(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned long nr_pages,
			     bool memsw)
{
	if (!nr_pages)
		return;
	g_assert(engine_thread_in_cpu());
	/* 7.3's obj_cgroup_uncharge_pages() gives the root no refill_stock()
	 * (refill_stock() warns on it); 6.12's does.  The kernel then leaves
	 * the root's page counter charged, which nothing reads (no v2 root
	 * memory.current; v1's root usage comes from the statistics,
	 * mem_cgroup_usage()); memcgfs keeps it exact by uncharging at once,
	 * so that charges in still equal the root's usage. */
	if (stock_7_3(c->engine) && mcg_cgroup_is_root(cg)) {
		mcg_memcg_uncharge(cg, nr_pages, memsw);
		return;
	}
	mcg_memcg_refill_stock(c, cg, nr_pages, memsw);
}

void mcg_memcg_refill_stock(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned long nr_pages,
			    bool memsw)
{
	if (!nr_pages)
		return;
	g_assert(engine_thread_in_cpu());
	stock_refill(c, cg, nr_pages, memsw);
	css_put_pages(cg, nr_pages);
}

struct mcg_cgroup *mcg_memcg_objcg_owner(struct mcg_cgroup *cg)
{
	while (!atomic_load_explicit(&cg->memcg_online, memory_order_relaxed))
		cg = cg->parent;	/* the root is always online */
	return cg;
}

void mcg_memcg_drain_all_stock(struct mcg_engine *e, struct mcg_cpu *self,
			       struct mcg_cgroup *top)
{
	if (self) {
		stock_drain_subtree(self, top);
		for (unsigned c = 0; c < e->cfg.nr_cpus; c++)
			if (&e->cpus[c] != self)
				stock_drain_request(&e->cpus[c], top);
		return;
	}
	/* From outside: the same requests, served at each CPU's next enter
	 * (or the syncer's own, on a CPU nobody holds) within one grace
	 * period, whose enters serve them before they acknowledge.  Entering
	 * each CPU in turn would wait behind each preempted worker in turn. */
	g_assert(!engine_thread_in_cpu());
	for (unsigned c = 0; c < e->cfg.nr_cpus; c++)
		stock_drain_request(&e->cpus[c], top);
	mcg_engine_sync_cpus(e);
}

unsigned long mcg_memcg_stocked(struct mcg_engine *e, const struct mcg_cgroup *top, bool memsw)
{
	unsigned long sum = 0;

	for (unsigned c = 0; c < e->cfg.nr_cpus; c++) {
		struct mcg_cpu *cpu = &e->cpus[c];

		mcg_cpu_enter(cpu);
		for (unsigned i = 0; i < e->nr_stock; i++)
			if (cpu->stock_cached[i] && mcg_cgroup_is_descendant(cpu->stock_cached[i], top) &&
			    (!memsw || cpu->stock_memsw[i]))
				sum += cpu->stock_pages[i];
		mcg_cpu_exit(cpu);
	}
	return sum;
}
