/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cgroup's memory css in the workload: its making and its memcg
 * objects, enabling and disabling the controller, moves of task groups
 * between csses (splits into holders, reparenting), the sweep of holders
 * and the destruction of a cgroup (see internal.h, "Task groups and
 * csses"). */
#include "workload/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-cgroup data ---- */

/*
 * Memory csses.
 *
 * On cgroup2 a cgroup's tasks charge the memory css of the nearest
 * cgroup, itself or an ancestor, whose parent enables memory (engine:
 * cgroup.c, "Memory csses"), and a page stays charged to the css it was
 * charged to (folio->memcg_data) when the tasks move on to another.  A
 * task group's ledgers hold only pages of its css now: when a
 * subtree_control write gives its tasks another css, what the ledgers
 * hold moves to a holder, a wl_cgroup with no tasks that keeps the old
 * css (wl_split()), unless the old css's pages are reparented to the new
 * one, as 7.3's offline does (but for swap: wl_reparent()).  The holder
 * stays the tasks' (w->holders): their footprint counts it, their
 * turnover frees its pages first, their exit frees its task memory.  It
 * belongs to its css's cgroup, so it keeps no removed cgroup dying.
 * Everything that acts on a memcg's pages goes by the css: charges,
 * statistics, reclaim (the holders and task groups whose css is in the
 * subtree), the OOM killer's victims; what belongs to a cgroup (cpu, io,
 * PSI, populated, the tasks' exit) goes by the cgroup.
 *
 * A wl_css is counted by the wl_cgroups that hold pages of it (refs,
 * under list_lock): its cgroup's task group while it is the live css,
 * those of descendants without a css of their own, holders.  The last one
 * going frees it (wl_css_unref(), wl_css_free()): the memcg's objects go
 * back and its css pin goes, which releases a killed css.  A killed css
 * therefore stays dying while pages that pin it are charged to it
 * (wl_ledger_pins_css()); a holder left with kernel memory alone moves to
 * the css its obj_cgroup charges now, and one left empty goes, at the
 * next sweep (wl_sweep_holders(): after every rmdir, css change, reclaim
 * write and exit, and at a worker's round's end once a holder emptied).
 */

/* A new wl_css for css (a new pin), objs_parent its objects' (held). */
struct wl_css *wl_css_new(struct mcg_cgroup *css, struct mcg_cgroup *objs_parent)
{
	struct wl_css *c = g_new0(struct wl_css, 1);

	mcg_memcg_css_get(css);
	c->css = css;
	c->objs_parent = objs_parent ? mcg_cgroup_get(objs_parent) : NULL;
	return c;
}

/* A reference; the first one lists c in the pool.  Caller holds list_lock
 * for writing. */
struct wl_css *wl_css_ref(struct mcg_workload *wl, struct wl_css *c)
{
	if (c->refs++ == 0)
		g_ptr_array_add(wl->csses, c);
	return c;
}

/* Drops a reference; returns c if it was the last one, for wl_css_free()
 * once list_lock is dropped.  Caller holds list_lock for writing. */
struct wl_css *wl_css_unref(struct mcg_workload *wl, struct wl_css *c)
{
	if (--c->refs)
		return NULL;
	g_ptr_array_remove(wl->csses, c);
	return c;
}


/* An unreferenced wl_css freed: its objects back, its pin dropped.
 * Outside list_lock and every CPU window. */
void wl_css_free(struct mcg_workload *wl, struct wl_css *c)
{
	if (!c)
		return;
	if (c->objs_parent) {
		wl_memcg_objects_uncharge(wl, c->objs_parent);
		mcg_cgroup_put(c->objs_parent);
	}
	mcg_memcg_css_put(c->css);
	g_free(c);
}

struct wl_cgroup *wl_cgroup_new(struct mcg_workload *wl, struct mcg_cgroup *cg,
				struct mcg_profile *profile)
{
	struct wl_cgroup *w = g_new0(struct wl_cgroup, 1);

	w->cg = mcg_cgroup_get(cg);
	atomic_init(&w->profile, profile);
	atomic_init(&w->idle, mcg_profile_is_idle(profile));
	atomic_init(&w->frozen, false);
	w->ledger_size = (sizeof(struct wl_ledger) + wl->nr_nodes * sizeof(struct wl_node) + 63) &
			 ~(size_t)63;
	w->ledgers = g_malloc0(w->ledger_size * wl->nr_cpus);
	w->psi = wl_psi_new(wl->nr_cpus, mcg_engine_clock_ns(wl->e));
	return w;
}

/* Frees w, whose css reference the caller has dropped (wl_css_unref()). */
void wl_cgroup_free(struct wl_cgroup *w)
{
	if (w->holders)
		g_ptr_array_free(w->holders, TRUE);
	wl_psi_free(w->psi);
	mcg_profile_free(atomic_load(&w->profile));
	g_free(w->ledgers);
	mcg_cgroup_put(w->cg);
	g_free(w);
}

struct mcg_profile *wl_profile_copy(const struct mcg_profile *p)
{
	return g_memdup2(p, sizeof(*p));
}


/* ---- hierarchy ---- */


/* The statistics of one object charged to objcg (sign 1) or freed (-1),
 * on CPU 0: slab through the object stock (mod_objcg_state()), per-CPU
 * areas straight to the memcg (pcpu_memcg_post_alloc_hook(),
 * pcpu_memcg_free_hook()).  The kernel's updates, not the tasks', so
 * straight to the engine, left out of the workload's figures. */
static void memcg_object_stats(struct mcg_cpu *cpu, struct mcg_cgroup *objcg,
			       const struct mcg_memcg_object *o, int sign)
{
	if (o->kind == MCG_OBJECT_SLAB)
		mcg_objcg_mod_slab(cpu, objcg, (int)o->nid, MCG_SLAB_UNRECLAIMABLE_B,
				   sign * (long)o->bytes);
	else
		mcg_stat_mod(cpu, mcg_memcg_objcg_owner(objcg), 0, MCG_MEMCG_PERCPU_B,
			     sign * (long)o->bytes);
}

/* Frees the first `nr` objects of a memcg (all of them: wl->memcg_objs.nr)
 * charged to objcg, in __mem_cgroup_free()'s order: obj_cgroup_uncharge(),
 * then the statistics.  On CPU 0, entered. */
static void memcg_objects_free(struct mcg_workload *wl, struct mcg_cpu *cpu,
			       struct mcg_cgroup *objcg, unsigned nr)
{
	const struct mcg_memcg_objects *o = &wl->memcg_objs;

	for (unsigned k = 0; k < o->nr; k++) {
		const struct mcg_memcg_object *obj = &o->obj[o->free_order[k]];

		if (o->free_order[k] >= nr)
			continue;
		mcg_objcg_uncharge(cpu, objcg, obj->bytes);
		memcg_object_stats(cpu, objcg, obj, -1);
	}
}

/* mem_cgroup_alloc() under pw's css, on CPU 0, with it the active memcg
 * (mem_cgroup_css_alloc(): set_active_memcg(parent)): each
 * __GFP_ACCOUNT object in turn charged to its obj_cgroup, through CPU
 * 0's object stock, the pages it lacks charged as a GFP_KERNEL_ACCOUNT
 * charge is (it may reclaim and OOM-kill).  false if one cannot be
 * charged even so: the ones before are freed (mem_cgroup_alloc()'s
 * __mem_cgroup_free()), and mkdir fails with ENOMEM.  Caller holds
 * hier_mutex and list_lock for reading. */
static bool memcg_objects_charge(struct mcg_workload *wl, struct wl_cgroup *pw)
{
	const struct mcg_memcg_objects *o = &wl->memcg_objs;
	struct wl_ctx x = { wl, wl->e, mcg_engine_cpu(wl->e, 0), 0, 0, NULL };
	unsigned i;

	mcg_cpu_enter(x.cpu);
	for (i = 0; i < o->nr; i++) {
		size_t bytes = o->obj[i].bytes;

		if (!mcg_objcg_consume(x.cpu, wl_memcg(pw), bytes)) {
			if (!wl_charge(&x, pw, (long)mcg_objcg_pages(bytes),
				       WL_MEMSW | WL_KMEM | WL_NOT_TASKS))
				break;
			mcg_objcg_charged(x.cpu, wl_memcg(pw), bytes);
		}
		memcg_object_stats(x.cpu, wl_memcg(pw), &o->obj[i], 1);
	}
	if (i < o->nr)
		memcg_objects_free(wl, x.cpu, wl_memcg(pw), i);
	mcg_cpu_exit(x.cpu);
	return i == o->nr;
}

/* Gives a memcg's objects back to objs_parent's obj_cgroup, when the
 * memcg is freed: at rmdir, or for one left dying when it is released
 * (the kernel frees them with the memcg).  objs_parent may be dying by
 * then: its obj_cgroup charges its nearest live ancestor. */
void wl_memcg_objects_uncharge(struct mcg_workload *wl, struct mcg_cgroup *objs_parent)
{
	struct mcg_cpu *cpu = mcg_engine_cpu(wl->e, 0);

	mcg_cpu_enter(cpu);
	memcg_objects_free(wl, cpu, objs_parent, wl->memcg_objs.nr);
	mcg_cpu_exit(cpu);
}

/*
 * cgroup_update_populated() (kernel/cgroup/cgroup.c): a cgroup whose tasks
 * come (delta 1) or all go (-1) changes the count of each ancestor, and
 * each whose count becomes or stops being 0 changes its populated, which
 * the kernel notifies (cgroup_file_notify() on cgroup.events).  Caller
 * holds hier_mutex.
 */
void wl_populated_update(struct mcg_cgroup *cg, int delta)
{
	for (; cg; cg = mcg_cgroup_parent(cg)) {
		struct wl_cgroup *w = mcg_cgroup_workload(cg);
		unsigned was;

		if (!w)
			continue;
		was = atomic_fetch_add(&w->nr_populated, (unsigned)delta);
		if (!was != !(was + (unsigned)delta))
			atomic_fetch_add(&w->populated_flips, 1);
	}
}

/* Does `test` hold of w's ledger on some CPU (wl_ledger_holds_pages(): w
 * still holds memory; wl_ledger_pins_css(), ledger_pins_own_css(),
 * ledger_resident())?  Caller holds list_lock for writing: every ledger
 * writer holds it for reading, so the ledgers stand still and their last
 * writes are visible. */
bool wl_any_ledger_locked(const struct mcg_workload *wl, const struct wl_cgroup *w,
			  wl_ledger_test *test)
{
	for (unsigned c = 0; c < wl->nr_cpus; c++)
		if (test(wl, wl_ledger(w, c)))
			return true;
	return false;
}

/* Any swap entry or socket buffer in the ledger? */
static bool ledger_pins_own_css(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		if (l->node[nid].swapped > 0 || l->node[nid].sock > 0)
			return true;
	return false;
}

/* Any resident page? */
static bool ledger_resident(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	return wl_ledger_resident(wl, l) > 0;
}

void wl_release_init(struct wl_release *rel)
{
	rel->csses = g_ptr_array_new();
	rel->cgroups = g_ptr_array_new();
}

/* Outside list_lock and every CPU window. */
void wl_release_done(struct mcg_workload *wl, struct wl_release *rel)
{
	for (unsigned i = 0; i < rel->csses->len; i++)
		wl_css_free(wl, rel->csses->pdata[i]);
	for (unsigned i = 0; i < rel->cgroups->len; i++)
		mcg_cgroup_put(rel->cgroups->pdata[i]);
	g_ptr_array_free(rel->csses, TRUE);
	g_ptr_array_free(rel->cgroups, TRUE);
}

/* w's css becomes `to`: a reference taken, the old one let go. */
static void css_switch(struct mcg_workload *wl, struct wl_cgroup *w, struct wl_css *to,
		       struct wl_release *rel)
{
	struct wl_css *old = w->css;

	w->css = wl_css_ref(wl, to);
	g_ptr_array_add(rel->csses, wl_css_unref(wl, old));
	/* a holder's cpu, io and random stream are its css's cgroup's */
	if (w->holder) {
		g_ptr_array_add(rel->cgroups, w->cg);
		w->cg = mcg_cgroup_get(mcg_memcg_cgroup(to->css));
	}
}

/* A new, empty holder of css c for the tasks of owner (NULL: gone), in
 * the pool and in owner's holders.  It belongs to the css's cgroup: its
 * existence pins no other.  Caller holds list_lock for writing. */
static struct wl_cgroup *holder_new(struct mcg_workload *wl, struct wl_css *c,
				    struct wl_cgroup *owner)
{
	struct mcg_profile *idle = NULL;
	struct wl_cgroup *h;

	mcg_profile_parse("preset=idle", wl->nr_nodes, &idle);
	h = wl_cgroup_new(wl, mcg_memcg_cgroup(c->css), idle);
	h->holder = true;
	h->owner = owner;
	h->css = wl_css_ref(wl, c);
	h->order = wl->next_order++;
	g_ptr_array_add(wl->cgroups, h);
	if (owner) {
		if (!owner->holders)
			owner->holders = g_ptr_array_new();
		g_ptr_array_add(owner->holders, h);
	}
	return h;
}

/* Gives task group w the css `to`: its tasks charge it from now on.  What
 * its ledgers hold stays charged where it was (folio->memcg_data), in a
 * new holder of the old css, which stays the tasks' (their footprint,
 * their turnover's frees, their exit).  Caller holds hier_mutex and
 * list_lock for writing, which no ledger writer passes: nothing is
 * charged between the move and the switch. */
void wl_split(struct mcg_workload *wl, struct wl_cgroup *w, struct wl_css *to,
	      struct wl_release *rel)
{
	if (w->css == to)
		return;
	if (wl_any_ledger_locked(wl, w, wl_ledger_holds_pages)) {
		struct wl_cgroup *h = holder_new(wl, w->css, w);

		for (unsigned c = 0; c < wl->nr_cpus; c++)
			wl_ledger_move(wl, wl_ledger(h, c), wl_ledger(w, c));
		if (wl_in_flight_anywhere(wl, h))
			wl_active_add(wl, h);
	}
	css_switch(wl, w, to, rel);
}

/* 7.3 reparents an offlined css's folios and obj_cgroups to its parent
 * css at once (memcg_reparent_objcgs()): every wl_cgroup holding pages of
 * `from` holds them of `to` from then on, the counters needing no change
 * (the parent's hierarchical counts hold them already; the engine moves
 * the local ones).  Not the swap entries: each holds a reference on the
 * memcg's private id (__mem_cgroup_try_charge_swap():
 * mem_cgroup_private_id_get_online()), which keeps the css until the
 * entry is freed (7.3 mm/memcontrol.c); nor the socket buffers, whose
 * sockets keep sk_memcg and its css reference (mem_cgroup_sk_alloc()) until
 * they are freed.  Both move to a holder that stays with `from`.  Caller
 * holds list_lock for writing. */
static void wl_reparent(struct mcg_workload *wl, struct wl_css *from, struct wl_css *to,
			struct wl_release *rel)
{
	unsigned n = wl->cgroups->len;	/* not the holders made here */

	for (unsigned i = 0; i < n; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		if (w->css != from)
			continue;
		if (wl_any_ledger_locked(wl, w, ledger_pins_own_css)) {
			struct wl_cgroup *h;

			if (w->holder && !wl_any_ledger_locked(wl, w, ledger_resident))
				continue;	/* swap and sockets alone: they stay */
			h = holder_new(wl, from, w->holder ? w->owner : w);
			for (unsigned c = 0; c < wl->nr_cpus; c++)
				wl_ledger_move_pinning(wl, wl_ledger(h, c), wl_ledger(w, c));
		}
		css_switch(wl, w, to, rel);
	}
}

int mcg_workload_cgroup_create(struct mcg_workload *wl, struct mcg_cgroup *parent,
			       const char *name, bool memory_css, struct mcg_cgroup **out)
{
	struct mcg_cgroup *cg, *css, *objcg = NULL;
	struct wl_cgroup *w, *pw;
	struct wl_css *c = NULL;
	/* Nothing is charged to the root: get_obj_cgroup_from_current()
	 * stops below it (kmem of the root memcg is not accounted). */
	bool objs = memory_css && !mcg_cgroup_is_root(parent);
	int err;

	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	pw = mcg_cgroup_workload(parent);
	err = !pw ? -ENODEV : !objs || memcg_objects_charge(wl, pw) ? 0 : -ENOMEM;
	if (!err && objs)
		objcg = mcg_cgroup_get(wl_memcg(pw));
	pthread_rwlock_unlock(&wl->list_lock);
	if (!err) {
		err = memory_css ? mcg_cgroup_create(wl->e, parent, name, &cg)
				 : mcg_cgroup_create_without_memcg(wl->e, parent, name, &cg);
		if (err && objcg)	/* given straight back */
			wl_memcg_objects_uncharge(wl, objcg);
	}
	if (!err && memory_css) {
		css = mcg_cgroup_memcg(wl->e, cg);
		c = wl_css_new(css, objcg);
		mcg_cgroup_put(css);
	}
	if (!err) {
		w = wl_cgroup_new(wl, cg, wl_profile_copy(wl->default_profile));
		pthread_rwlock_wrlock(&wl->list_lock);
		/* its own css, or its parent's tasks' */
		w->css = wl_css_ref(wl, c ? c : pw->css);
		w->order = wl->next_order++;
		g_ptr_array_add(wl->cgroups, w);
		if (!atomic_load(&w->idle))
			wl_active_add(wl, w);
		mcg_cgroup_set_workload(cg, w);
		pthread_rwlock_unlock(&wl->list_lock);
		if (!atomic_load(&w->idle))
			wl_populated_update(cg, 1);
		*out = cg;
	}
	mcg_cgroup_put(objcg);
	pthread_mutex_unlock(&wl->hier_mutex);
	return err;
}


int mcg_workload_memory_css(struct mcg_workload *wl, struct mcg_cgroup *cg, bool on)
{
	bool reparent = mcg_engine_config(wl->e)->kernel.reparent_local;
	struct mcg_cgroup *parent = mcg_cgroup_parent(cg), *css, *objcg = NULL;
	struct wl_cgroup *w, *pw;
	struct wl_css *c = NULL;
	struct wl_release rel;
	int err = 0;

	if (!parent)
		return -EPERM;
	wl_release_init(&rel);
	pthread_mutex_lock(&wl->hier_mutex);
	pthread_rwlock_rdlock(&wl->list_lock);
	w = mcg_cgroup_workload(cg);
	pw = mcg_cgroup_workload(parent);
	css = mcg_cgroup_memcg(wl->e, cg);
	if (!w || !pw)
		err = -ENODEV;
	else if (on == (css != NULL))
		err = 1;	/* already so */
	else if (on && !mcg_cgroup_is_root(parent)) {
		/* mem_cgroup_css_alloc(): its objects, to the parent css */
		if (memcg_objects_charge(wl, pw))
			objcg = mcg_cgroup_get(wl_memcg(pw));
		else
			err = -ENOMEM;
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (!err && on) {
		err = mcg_memcg_css_create(wl->e, cg, &css);
		if (err && objcg)
			wl_memcg_objects_uncharge(wl, objcg);
		if (!err)
			c = wl_css_new(css, objcg);
	}
	if (!err) {
		/* The tasks of cg's subtree move: none below cg has a css of
		 * its own (cg's children cannot have memory while cg has
		 * none, nor be given it while cg is losing it: EBUSY first),
		 * so all of them charged the old css. */
		pthread_rwlock_wrlock(&wl->list_lock);
		if (!on && reparent) {
			wl_reparent(wl, w->css, pw->css, &rel);
		} else {
			unsigned n = wl->cgroups->len;	/* not the holders made here */

			for (unsigned i = 0; i < n; i++) {
				struct wl_cgroup *t = wl->cgroups->pdata[i];

				if (!t->holder && mcg_cgroup_is_descendant(t->cg, cg))
					wl_split(wl, t, on ? c : pw->css, &rel);
			}
		}
		pthread_rwlock_unlock(&wl->list_lock);
		/* a killed css that nothing pins goes at once */
		if (!on) {
			mcg_memcg_css_kill(wl->e, cg);
			wl_sweep_holders(wl);
		}
	}
	pthread_mutex_unlock(&wl->hier_mutex);
	wl_release_done(wl, &rel);
	mcg_cgroup_put(objcg);
	mcg_cgroup_put(css);
	return err > 0 ? 0 : err;
}

void mcg_workload_memcg_objects(struct mcg_workload *wl, struct mcg_cgroup *cg,
				struct mcg_workload_objects *sum)
{
	unsigned long nr = 0;
	size_t charged, unfilled = 0;
	long slab_held;

	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->csses->len; i++) {
		struct wl_css *c = wl->csses->pdata[i];

		if (c->objs_parent && mcg_cgroup_is_descendant(c->objs_parent, cg))
			nr++;
	}
	/* The tasks' slab objects were charged to their ledger's memcg's
	 * obj_cgroup, which charges its nearest live ancestor (a 7.3
	 * reparenting changes the one, not the other). */
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		if (!mcg_cgroup_is_descendant(mcg_memcg_objcg_owner(wl_memcg(w)), cg))
			continue;
		for (unsigned c = 0; c < wl->nr_cpus; c++)
			unfilled += wl_ledger_slab_unfilled_bytes(wl, wl_ledger(w, c));
	}
	pthread_rwlock_unlock(&wl->list_lock);
	mcg_objcg_held(wl->e, cg, &charged, &slab_held);
	sum->slab = (long)(nr * wl->memcg_objs.slab) - slab_held;
	sum->percpu = nr * wl->memcg_objs.percpu;
	sum->tasks_slab_unfilled = unfilled;
	charged += nr * (wl->memcg_objs.slab + wl->memcg_objs.percpu);
	/* The unfilled slots are whole pages' worths less the objects in
	 * them; their bytes may be in the stocks or used by other ledgers'
	 * objects of the same obj_cgroup, so the difference may be < 0. */
	g_assert(((long)charged - (long)unfilled) % MCG_PAGE_SIZE == 0);
	sum->pages = ((long)charged - (long)unfilled) / MCG_PAGE_SIZE;
}

/* What a CPU does to ledgers of that CPU, in its window, for a caller on
 * every CPU (mcg_engine_on_each_cpu(): the waits overlap).  The runner
 * may hold list_lock for reading; the calls take no lock. */
struct ledgers_call {
	struct mcg_workload *wl;
	struct wl_cgroup **w;		/* [n] */
	unsigned n;
	struct wl_cgroup *into;		/* ledger_merge_on_cpu(): w[0] into it */
	_Atomic bool *holds, *pins;	/* ledgers_hold_on_cpu(): [n] each */
};

static void ledgers_hold_on_cpu(struct mcg_cpu *cpu, void *arg)
{
	struct ledgers_call *t = arg;

	for (unsigned i = 0; i < t->n; i++) {
		const struct wl_ledger *l = wl_ledger(t->w[i], mcg_cpu_id(cpu));

		if (wl_ledger_holds_pages(t->wl, l))
			atomic_store_explicit(&t->holds[i], true, memory_order_relaxed);
		if (wl_ledger_pins_css(t->wl, l))
			atomic_store_explicit(&t->pins[i], true, memory_order_relaxed);
	}
}

static void ledger_merge_on_cpu(struct mcg_cpu *cpu, void *arg)
{
	struct ledgers_call *t = arg;
	unsigned c = mcg_cpu_id(cpu);

	wl_ledger_merge(t->wl, wl_ledger(t->into, c), wl_ledger(t->w[0], c));
}

/* Which of w[n] still hold memory on some CPU (holds[i]), and pages that
 * pin a killed css (pins[i]): set or left. */
static void wl_cgroups_hold_pages(struct mcg_workload *wl, struct wl_cgroup **w, unsigned n,
				  _Atomic bool *holds, _Atomic bool *pins)
{
	struct ledgers_call t = { wl, w, n, NULL, holds, pins };

	if (n)
		mcg_engine_on_each_cpu(wl->e, ledgers_hold_on_cpu, &t);
}

/* The wl_css of a live css, if the pool holds one.  Caller holds
 * list_lock. */
static struct wl_css *wl_css_find(struct mcg_workload *wl, const struct mcg_cgroup *css)
{
	for (unsigned i = 0; i < wl->csses->len; i++) {
		struct wl_css *c = wl->csses->pdata[i];

		if (c->css == css)
			return c;
	}
	return NULL;
}

/*
 * The holders' sweep.  A holder that holds nothing goes, and its css
 * reference with it: a killed css nothing else holds is released.  A
 * holder of a killed css that holds only pages that do not pin it (kernel
 * memory charged through an obj_cgroup, which mem_cgroup_css_offline()
 * handed to the parent: memcg_reparent_objcgs()) moves to the css its
 * obj_cgroup charges now, the nearest live one (mcg_memcg_objcg_owner()),
 * and lets the killed css go.  Holders only lose pages, so what the look
 * finds stays true.  Caller holds hier_mutex.
 */
void wl_sweep_holders(struct mcg_workload *wl)
{
	GPtrArray *holders = g_ptr_array_new(), *gone = g_ptr_array_new();
	_Atomic bool *holds, *pins;
	struct wl_release rel;

	atomic_store_explicit(&wl->sweep_due, false, memory_order_relaxed);
	pthread_rwlock_rdlock(&wl->list_lock);
	for (unsigned i = 0; i < wl->cgroups->len; i++) {
		struct wl_cgroup *w = wl->cgroups->pdata[i];

		if (w->holder)
			g_ptr_array_add(holders, w);
	}
	pthread_rwlock_unlock(&wl->list_lock);
	if (!holders->len) {
		g_ptr_array_free(holders, TRUE);
		g_ptr_array_free(gone, TRUE);
		return;
	}
	holds = g_new0(_Atomic bool, holders->len);
	pins = g_new0(_Atomic bool, holders->len);
	wl_cgroups_hold_pages(wl, (struct wl_cgroup **)holders->pdata, holders->len, holds, pins);
	wl_release_init(&rel);
	pthread_rwlock_wrlock(&wl->list_lock);
	for (unsigned i = 0; i < holders->len; i++) {
		struct wl_cgroup *h = holders->pdata[i];
		struct wl_css *to;

		if (!atomic_load_explicit(&holds[i], memory_order_relaxed)) {
			g_ptr_array_remove(wl->cgroups, h);
			wl_active_remove(wl, h);
			if (h->owner)
				g_ptr_array_remove(h->owner->holders, h);
			g_ptr_array_add(rel.csses, wl_css_unref(wl, h->css));
			g_ptr_array_add(gone, h);
		} else if (!atomic_load_explicit(&pins[i], memory_order_relaxed) &&
			   !mcg_memcg_online(wl_memcg(h)) &&
			   (to = wl_css_find(wl, mcg_memcg_objcg_owner(wl_memcg(h))))) {
			css_switch(wl, h, to, &rel);
		}
	}
	pthread_rwlock_unlock(&wl->list_lock);
	g_free(holds);
	g_free(pins);
	g_ptr_array_free(holders, TRUE);
	/* No worker reaches them any more: the last put folds each memcg
	 * (outside every CPU window), and their objects go. */
	for (unsigned i = 0; i < gone->len; i++)
		wl_cgroup_free(gone->pdata[i]);
	g_ptr_array_free(gone, TRUE);
	wl_release_done(wl, &rel);
}

#define SWEEP_PERIOD_NS 100000000ull	/* 100 ms */

/* A worker's round left a holder empty, or holding nothing that pins its
 * killed css: sweep, unless hier_mutex is busy
 * (an rmdir or a profile write, which may wait for this worker's step;
 * the next round tries again). */
void wl_sweep_if_due(struct mcg_workload *wl)
{
	uint64_t now = wl_now_ns(), last = atomic_load_explicit(&wl->last_sweep_ns,
							       memory_order_relaxed);

	/* Once per SWEEP_PERIOD_NS at most: a sweep waits for every CPU. */
	if (!atomic_load_explicit(&wl->sweep_due, memory_order_relaxed) ||
	    now - last < SWEEP_PERIOD_NS || pthread_mutex_trylock(&wl->hier_mutex))
		return;
	atomic_store_explicit(&wl->last_sweep_ns, now, memory_order_relaxed);
	wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
}

/* After a reclaim that may have emptied holders. */
void wl_release_emptied_holders(struct mcg_workload *wl)
{
	pthread_mutex_lock(&wl->hier_mutex);
	wl_sweep_holders(wl);
	pthread_mutex_unlock(&wl->hier_mutex);
}

/*
 * rmdir.  The engine takes the cgroup and its css offline (and, in 7.3,
 * folds the css's statistics into the parent css).  What becomes of the
 * pages its tasks held follows the era:
 *
 *  - 7.3 reparents a dead memcg's folios (memcg_reparent_objcgs()): the
 *    pages become the parent css's, ledger by ledger, and so do the
 *    holders' of the css.  Their counters need no change: the parent's
 *    hierarchical counters and page counters include them already, and
 *    the local counts that must follow them were moved by the engine.
 *  - Earlier kernels leave them charged to the dying memcg until they are
 *    freed: the cgroup's tasks' ledgers stay in the pool as a holder of
 *    the css (no tasks, never an OOM victim), its pages reclaimed only by
 *    its ancestors' reclaim, its statistics updated in the dead memcg.
 *    Once it holds nothing it is released (swept at every rmdir, and
 *    after memory.reclaim and force_empty).  A cgroup that holds nothing
 *    at rmdir goes at once.
 *
 * The pages of a cgroup without a css of its own are charged to the
 * nearest ancestor's, its parent's tasks' css: they move to the parent's
 * ledgers in every era.  Holders the cgroup's tasks made stay, ownerless.
 */
/* The destroy of a cgroup, hier_mutex held. */
static int cgroup_destroy_locked(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	bool reparent = mcg_engine_config(wl->e)->kernel.reparent_local;
	struct mcg_profile *idle = NULL;
	struct mcg_cgroup *own = mcg_cgroup_memcg(wl->e, cg);
	struct wl_cgroup *w, *pw;
	struct wl_release rel;
	bool own_css, keep;
	int err;

	err = mcg_cgroup_destroy(wl->e, cg);
	if (err) {
		mcg_cgroup_put(own);
		return err;
	}
	w = mcg_cgroup_workload(cg);
	pw = mcg_cgroup_workload(mcg_cgroup_parent(cg));
	/* Tasks that a destroy other than rmdir found go with the cgroup. */
	if (!atomic_load(&w->idle))
		wl_populated_update(cg, -1);
	/* Decided under the write lock, which no charge to w can pass: a
	 * charge landing between a look and the merge below would move into
	 * the parent's ledger and be uncharged one day from a memcg it was
	 * never charged to. */
	mcg_profile_parse("preset=idle", wl->nr_nodes, &idle);
	wl_release_init(&rel);
	pthread_rwlock_wrlock(&wl->list_lock);
	own_css = own && wl_memcg(w) == own;
	keep = !reparent && own_css && wl_any_ledger_locked(wl, w, wl_ledger_pins_css);
	/* 7.3: the pages of w's css go to the parent css, all but swap */
	if (reparent && own_css)
		wl_reparent(wl, w->css, pw->css, &rel);
	/* The tasks are gone; their holders stay, ownerless. */
	for (unsigned i = 0; w->holders && i < w->holders->len; i++)
		((struct wl_cgroup *)w->holders->pdata[i])->owner = NULL;
	if (w->holders) {
		g_ptr_array_free(w->holders, TRUE);
		w->holders = NULL;
	}
	mcg_cgroup_set_workload(cg, NULL);
	if (keep) {
		struct mcg_profile *old;

		w->holder = true;
		/* Unreachable from cg from now on: a direct charge's dirty
		 * pages must not wait for wl_active_add_if_in_flight(cg).
		 * Exact here: every ledger writer holds list_lock. */
		if (wl_in_flight_anywhere(wl, w))
			wl_active_add(wl, w);
		old = atomic_exchange_explicit(&w->profile, idle, memory_order_acq_rel);
		atomic_store_explicit(&w->idle, true, memory_order_relaxed);
		pthread_rwlock_unlock(&wl->list_lock);
		wl_profile_retire(wl, old);
	} else {
		struct ledgers_call t = { wl, &w, 1, pw, NULL, NULL };

		/* What w holds is charged to pw's css now: the one w shared
		 * (no css of its own), the reparenting's, or, before 7.3, the
		 * obj_cgroup's parent for the kernel memory of a css nothing
		 * pins (memcg_reparent_objcgs()). */
		g_assert(!own_css || reparent || !wl_any_ledger_locked(wl, w, wl_ledger_pins_css));
		mcg_profile_free(idle);
		g_ptr_array_remove(wl->cgroups, w);
		wl_active_remove(wl, w);
		g_ptr_array_add(rel.csses, wl_css_unref(wl, w->css));
		pthread_rwlock_unlock(&wl->list_lock);
		/* No worker reaches w any more; each CPU's ledger moves as that
		 * CPU (a no-op for an empty one). */
		mcg_engine_on_each_cpu(wl->e, ledger_merge_on_cpu, &t);
		/* w's writeback goes on in the parent, which may be stopped. */
		wl_active_add_if_in_flight(wl, pw->cg);
		wl_cgroup_free(w);
	}
	wl_release_done(wl, &rel);
	mcg_cgroup_put(own);
	wl_sweep_holders(wl);
	return 0;
}

int mcg_workload_cgroup_destroy(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	int err;

	pthread_mutex_lock(&wl->hier_mutex);
	err = cgroup_destroy_locked(wl, cg);
	pthread_mutex_unlock(&wl->hier_mutex);
	return err;
}

int mcg_workload_cgroup_rmdir(struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	int err;

	/* Under hier_mutex, which profile changes take too: no task can
	 * arrive between the check and the removal. */
	pthread_mutex_lock(&wl->hier_mutex);
	err = mcg_workload_cgroup_populated(wl, cg, NULL) ? -EBUSY : cgroup_destroy_locked(wl, cg);
	pthread_mutex_unlock(&wl->hier_mutex);
	return err;
}
