/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel objects charged in bytes: the obj_cgroup and its per-CPU object
 * stock (mm/memcontrol.c: obj_cgroup_charge(), consume_obj_stock(),
 * refill_obj_stock(), drain_obj_stock(), mod_objcg_state(); 7.3's
 * __account_obj_stock()).
 *
 * Slab objects and per-CPU areas are smaller than a page, and a memcg is
 * charged in pages.  So a charge of `size` bytes goes through a second
 * stock, of bytes: the CPU's stock covers it if it holds enough bytes of
 * the same obj_cgroup; otherwise the charge takes whole pages,
 * PAGE_ALIGN(size), through the page charge (the page stock, the counters,
 * reclaim: the caller's part) and puts the rest of the last page into the
 * object stock.  A freed object's bytes go back into the stock.  Bytes
 * over a page are given back as pages, except right after a charge
 * (allow_uncharge false, 6.1 on), so that a charge does not uncharge at
 * once what it just took.  When the stock turns to another obj_cgroup, or
 * is drained, its whole pages are uncharged and the remainder is parked in
 * the obj_cgroup (nr_charged_bytes), which the next stock to take the
 * obj_cgroup picks up.  So a memcg's memory.current holds its objects'
 * bytes rounded up once per stock, not once per object; and MEMCG_KMEM
 * ("kernel") counts the pages, not the bytes.
 *
 * From 5.14 the stock also holds back the slab statistics of its
 * obj_cgroup on one node, up to a page's worth, so that a run of small
 * allocations makes one statistics update (mod_objcg_state()).  The memcg
 * then shows its slab late by up to a page until the stock moves on.
 *
 * 5.10 to 6.x keep one obj_cgroup per CPU, in the page stock's struct;
 * 7.3 keeps NR_OBJ_STOCK (5) in a struct of their own, each with a
 * uint16_t count, replacing them round robin.
 *
 * An obj_cgroup here is the cgroup it was made for, whose struct it keeps
 * (not its css: engine_objcg_get()), and it charges the cgroup's nearest
 * live ancestor once the cgroup is offline (memcg_reparent_objcgs():
 * mcg_memcg_objcg_owner()).
 *
 * Parked bytes.  Objects are charged on many CPUs (the workload's slab), so
 * a stock that drains parks a part of a page in the obj_cgroup, and
 * another CPU's stock that takes the obj_cgroup over picks it up.  The
 * kernel's objects each hold their obj_cgroup, so its parked bytes add up
 * to whole pages once they are all freed, which obj_cgroup_release() gives
 * back.  memcgfs frees an object through the obj_cgroup of the cgroup
 * whose ledger holds it, which is not always the one that charged it:
 * 7.3's reparenting (the workload's wl_reparent()) hands a dying cgroup's
 * ledgers to the parent, and in every era a dying cgroup's pages held for
 * a removed one, or a removed cgroup's own, may be merged into another
 * ledger (wl_sweep_holders(), cgroup_destroy_locked()): the same memcg
 * charged, another obj_cgroup.  So when a struct is freed
 * (engine_objcg_put()) its parked bytes, whole pages or not, go to its
 * parent's obj_cgroup, which charges the same memcg (both reach the same
 * nearest live ancestor), and the next stock to take that one over gives
 * the whole pages back.  No byte is lost; a few pages may be given back
 * earlier or later than the kernel's, whose objects pin their obj_cgroup
 * until the last one is freed.
 *
 * Every field of a CPU's object stock is touched only by the thread in
 * that CPU's window; an obj_cgroup's parked bytes are an atomic.
 */
#include <stdlib.h>

#include "engine/internal.h"

#define OBJ_PAGE_SIZE 4096u

static bool obj_stock_7_3(const struct mcg_engine *e)
{
	return e->cfg.kernel.obj_stock == MCG_OBJ_STOCK_7_3;
}

/* Pages the object stock gives back to objcg's memcg: MEMCG_KMEM and v1's
 * kmem counter, then the page counters.  What a refill gives back goes
 * through obj_cgroup_uncharge_pages() (refill_stock(); 5.10's
 * __memcg_kmem_uncharge() alike); a drain in 7.3 uncharges the counters
 * directly (memcg_uncharge_kmem()), before it refilled the page stock
 * (6.x __refill_stock()). */
static void objcg_uncharge_pages(struct mcg_cpu *c, struct mcg_cgroup *objcg,
				 unsigned long nr_pages, bool drain)
{
	struct mcg_engine *e = c->engine;
	struct mcg_cgroup *memcg = mcg_memcg_objcg_owner(objcg);
	bool v1 = e->cfg.hierarchy == MCG_HIERARCHY_V1;

	mcg_stat_mod(c, memcg, 0, MCG_MEMCG_KMEM, -(long)nr_pages);
	if (v1)
		mcg_counter_uncharge(memcg, MCG_COUNTER_KMEM, nr_pages);
	if (drain && obj_stock_7_3(e))
		mcg_memcg_uncharge(memcg, nr_pages, v1);
	else
		mcg_memcg_uncharge_kmem(c, memcg, nr_pages, v1);
}

/* Held-back slab statistics to their memcg and node. */
static void obj_stock_flush_stats(struct mcg_cpu *c)
{
	struct mcg_cgroup *objcg;
	struct mcg_cgroup *memcg;

	if (c->obj_stat_slot < 0)
		return;
	objcg = c->obj_cached[c->obj_stat_slot];
	memcg = mcg_memcg_objcg_owner(objcg);
	mcg_stat_mod(c, memcg, c->obj_stat_nid, MCG_SLAB_RECLAIMABLE_B, c->obj_slab_reclaimable_b);
	mcg_stat_mod(c, memcg, c->obj_stat_nid, MCG_SLAB_UNRECLAIMABLE_B,
		     c->obj_slab_unreclaimable_b);
	c->obj_slab_reclaimable_b = c->obj_slab_unreclaimable_b = 0;
	c->obj_stat_slot = -1;
}

/* drain_obj_stock() (7.3: drain_obj_stock_slot()). */
static void obj_stock_drain_slot(struct mcg_cpu *c, unsigned i)
{
	struct mcg_cgroup *old = c->obj_cached[i];

	if (!old)
		return;
	if (c->obj_bytes[i]) {
		unsigned long nr_pages = c->obj_bytes[i] / OBJ_PAGE_SIZE;

		if (nr_pages)
			objcg_uncharge_pages(c, old, nr_pages, true);
		atomic_fetch_add_explicit(&old->objcg_charged_bytes,
					  c->obj_bytes[i] % OBJ_PAGE_SIZE, memory_order_relaxed);
		c->obj_bytes[i] = 0;
	}
	if (c->obj_stat_slot == (int)i)
		obj_stock_flush_stats(c);
	c->obj_cached[i] = NULL;
	engine_objcg_put(old);
}

bool objcg_stock_drain_needed(struct mcg_cpu *c, const struct mcg_cgroup *top)
{
	for (unsigned i = 0; i < c->engine->nr_obj_stock; i++)
		if (c->obj_cached[i] &&
		    (!top || mcg_cgroup_is_descendant(mcg_memcg_objcg_owner(c->obj_cached[i]), top)))
			return true;
	return false;
}

void objcg_stock_drain(struct mcg_cpu *c)
{
	for (unsigned i = 0; i < c->engine->nr_obj_stock; i++)
		obj_stock_drain_slot(c, i);
}

/* The slot caching objcg, or -1. */
static int obj_stock_slot(const struct mcg_cpu *c, const struct mcg_cgroup *objcg)
{
	for (unsigned i = 0; i < c->engine->nr_obj_stock; i++)
		if (c->obj_cached[i] == objcg)
			return (int)i;
	return -1;
}

/* Makes a slot cache objcg, as refill_obj_stock() and mod_objcg_state() do
 * when the stock holds another: 6.x drains the one slot, 7.3 takes an
 * empty slot or drains the next one round robin; the new slot starts with
 * what objcg had parked.  Returns the slot. */
static unsigned obj_stock_take(struct mcg_cpu *c, struct mcg_cgroup *objcg)
{
	unsigned slot = c->engine->nr_obj_stock;

	for (unsigned i = 0; i < c->engine->nr_obj_stock && slot == c->engine->nr_obj_stock; i++)
		if (!c->obj_cached[i])
			slot = i;
	if (slot == c->engine->nr_obj_stock) {
		slot = c->obj_drain_idx;
		c->obj_drain_idx = (c->obj_drain_idx + 1) % c->engine->nr_obj_stock;
		obj_stock_drain_slot(c, slot);
	}
	engine_objcg_get(objcg);
	c->obj_cached[slot] = objcg;
	c->obj_bytes[slot] = (unsigned)atomic_exchange_explicit(&objcg->objcg_charged_bytes, 0,
								 memory_order_relaxed);
	return slot;
}

/* refill_obj_stock() */
static void obj_stock_refill(struct mcg_cpu *c, struct mcg_cgroup *objcg, unsigned long nr_bytes,
			     bool allow_uncharge)
{
	int slot = obj_stock_slot(c, objcg);
	unsigned long bytes, nr_pages = 0;

	if (slot < 0) {
		slot = (int)obj_stock_take(c, objcg);
		allow_uncharge = true;	/* "Allow uncharge when objcg changes" */
	}
	bytes = c->obj_bytes[slot] + nr_bytes;
	switch (c->engine->cfg.kernel.obj_stock) {
	case MCG_OBJ_STOCK_5_10:
		/* Over a page, the whole stock drains. */
		c->obj_bytes[slot] = (unsigned)bytes;
		if (bytes > OBJ_PAGE_SIZE)
			obj_stock_drain_slot(c, (unsigned)slot);
		return;
	case MCG_OBJ_STOCK_6_1:
		if (allow_uncharge && bytes > OBJ_PAGE_SIZE)
			nr_pages = bytes / OBJ_PAGE_SIZE;
		break;
	case MCG_OBJ_STOCK_7_3:
		/* The count is a uint16_t: past it, uncharge even now. */
		if ((allow_uncharge && bytes > OBJ_PAGE_SIZE) || bytes > UINT16_MAX)
			nr_pages = bytes / OBJ_PAGE_SIZE;
		break;
	}
	c->obj_bytes[slot] = (unsigned)(bytes - nr_pages * OBJ_PAGE_SIZE);
	if (nr_pages)
		objcg_uncharge_pages(c, objcg, nr_pages, false);
}

bool mcg_objcg_consume(struct mcg_cpu *c, struct mcg_cgroup *objcg, size_t bytes)
{
	int slot = obj_stock_slot(c, objcg);

	g_assert(engine_thread_in_cpu());
	if (slot < 0 || c->obj_bytes[slot] < bytes)
		return false;
	c->obj_bytes[slot] -= (unsigned)bytes;
	return true;
}

unsigned long mcg_objcg_pages(size_t bytes)
{
	return (bytes + OBJ_PAGE_SIZE - 1) / OBJ_PAGE_SIZE;
}

void mcg_objcg_charged(struct mcg_cpu *c, struct mcg_cgroup *objcg, size_t bytes)
{
	unsigned long nr_pages = mcg_objcg_pages(bytes);

	g_assert(engine_thread_in_cpu());
	/* obj_cgroup_charge_pages(): MEMCG_KMEM (none in 5.10's layouts). */
	mcg_stat_mod(c, mcg_memcg_objcg_owner(objcg), 0, MCG_MEMCG_KMEM, (long)nr_pages);
	if (nr_pages * OBJ_PAGE_SIZE > bytes)
		obj_stock_refill(c, objcg, nr_pages * OBJ_PAGE_SIZE - bytes, false);
}

void mcg_objcg_uncharge(struct mcg_cpu *c, struct mcg_cgroup *objcg, size_t bytes)
{
	g_assert(engine_thread_in_cpu());
	obj_stock_refill(c, objcg, bytes, true);
}

void mcg_objcg_mod_slab(struct mcg_cpu *c, struct mcg_cgroup *objcg, int nid, enum mcg_item item,
			long bytes)
{
	struct mcg_engine *e = c->engine;
	long *held;
	int slot;

	g_assert(engine_thread_in_cpu());
	g_assert(item == MCG_SLAB_RECLAIMABLE_B || item == MCG_SLAB_UNRECLAIMABLE_B);
	if (e->cfg.kernel.obj_stock == MCG_OBJ_STOCK_5_10) {
		mcg_stat_mod(c, mcg_memcg_objcg_owner(objcg), nid, item, bytes);
		return;
	}
	slot = obj_stock_slot(c, objcg);
	if (slot < 0) {
		if (obj_stock_7_3(e)) {	/* no slot of its own: straight through */
			mcg_stat_mod(c, mcg_memcg_objcg_owner(objcg), nid, item, bytes);
			return;
		}
		/* 6.x mod_objcg_state(): the stock turns to this objcg. */
		slot = (int)obj_stock_take(c, objcg);
	}
	/* Another slot's or node's figures held back go first. */
	if (c->obj_stat_slot >= 0 && (c->obj_stat_slot != slot || c->obj_stat_nid != nid))
		obj_stock_flush_stats(c);
	c->obj_stat_slot = slot;
	c->obj_stat_nid = nid;
	held = item == MCG_SLAB_RECLAIMABLE_B ? &c->obj_slab_reclaimable_b
					      : &c->obj_slab_unreclaimable_b;
	if (obj_stock_7_3(e)) {
		/* __account_obj_stock(): the sum is kept if it fits an
		 * int16_t and either nothing was held or it is within a page. */
		long sum = *held + bytes;

		if (labs(sum) <= INT16_MAX && (!*held || labs(sum) <= (long)OBJ_PAGE_SIZE)) {
			*held = sum;
			return;
		}
		*held = 0;
		bytes = sum;
	} else if (!*held) {
		/* mod_objcg_state(): even an object over a page is held once. */
		*held = bytes;
		return;
	} else {
		*held += bytes;
		if (labs(*held) <= (long)OBJ_PAGE_SIZE)
			return;
		bytes = *held;
		*held = 0;
	}
	mcg_stat_mod(c, mcg_memcg_objcg_owner(objcg), nid, item, bytes);
}

/* Is cg top or below it, or an obj_cgroup whose memcg is? */
static bool objcg_in(struct mcg_cgroup *cg, const struct mcg_cgroup *top)
{
	return mcg_cgroup_is_descendant(mcg_memcg_objcg_owner(cg), top);
}

/* Parked bytes of the obj_cgroups in cg's subtree, the dying included,
 * that top's memcgs own.  Caller holds hier_lock. */
static unsigned long parked_bytes(struct mcg_cgroup *cg, const struct mcg_cgroup *top)
{
	unsigned long sum = 0;

	if (objcg_in(cg, top))
		sum += atomic_load_explicit(&cg->objcg_charged_bytes, memory_order_relaxed);
	for (struct mcg_cgroup *k = cg->first_child; k; k = k->next_sibling)
		sum += parked_bytes(k, top);
	for (struct mcg_cgroup *k = cg->first_hidden; k; k = k->next_sibling)
		sum += parked_bytes(k, top);
	for (struct mcg_cgroup *k = cg->first_dying; k; k = k->next_sibling)
		sum += parked_bytes(k, top);
	return sum;
}

/* Parked bytes of the released structs (off every list: parked_bytes()
 * does not see them) that top's memcgs own.  Each is a stock's or, through
 * its children's structs, an ancestor of a stock's; cached[n] are the
 * stocks' obj_cgroups.  Caller holds hier_lock. */
static unsigned long parked_released(struct mcg_cgroup *const *cached, unsigned n,
				     const struct mcg_cgroup *top)
{
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	unsigned long sum = 0;

	for (unsigned i = 0; i < n; i++)
		for (struct mcg_cgroup *s = cached[i]; s && s->objcg_released; s = s->parent)
			if (g_hash_table_add(seen, s) && objcg_in(s, top))
				sum += atomic_load_explicit(&s->objcg_charged_bytes,
							    memory_order_relaxed);
	g_hash_table_destroy(seen);
	return sum;
}

void mcg_objcg_held(struct mcg_engine *e, const struct mcg_cgroup *top, size_t *charged,
		    long *slab_held)
{
	GPtrArray *cached = g_ptr_array_new();

	*charged = 0;
	*slab_held = 0;
	for (unsigned n = 0; n < e->cfg.nr_cpus; n++) {
		struct mcg_cpu *c = &e->cpus[n];

		mcg_cpu_enter(c);
		for (unsigned i = 0; i < e->nr_obj_stock; i++) {
			if (!c->obj_cached[i])
				continue;
			/* held: they outlive the window */
			engine_objcg_get(c->obj_cached[i]);
			g_ptr_array_add(cached, c->obj_cached[i]);
			if (objcg_in(c->obj_cached[i], top))
				*charged += c->obj_bytes[i];
		}
		if (c->obj_stat_slot >= 0 && objcg_in(c->obj_cached[c->obj_stat_slot], top))
			*slab_held += c->obj_slab_reclaimable_b + c->obj_slab_unreclaimable_b;
		mcg_cpu_exit(c);
	}
	pthread_rwlock_rdlock(&e->hier_lock);
	*charged += parked_bytes(e->root, top) +
		    parked_released((struct mcg_cgroup *const *)cached->pdata, cached->len, top);
	pthread_rwlock_unlock(&e->hier_lock);
	for (unsigned i = 0; i < cached->len; i++)
		engine_objcg_put(cached->pdata[i]);
	g_ptr_array_free(cached, TRUE);
}
