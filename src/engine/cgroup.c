/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cgroup hierarchy: creation, lookup, renaming, and destruction with the
 * kernel's offline semantics (nothing a cgroup was charged is ever lost). */
#include "engine/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cgroup_name_check(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/'))
		return -EINVAL;
	if (len > MCG_NAME_MAX)
		return -ENAMETOOLONG;
	return 0;
}

struct mcg_cgroup *engine_cgroup_alloc(struct mcg_engine *e, struct mcg_cgroup *parent)
{
	struct mcg_cgroup *cg = aligned_alloc(64, align_up_64(sizeof(*cg)));

	if (!cg)
		return NULL;
	memset(cg, 0, sizeof(*cg));
	cg->engine = e;
	cg->parent = parent ? mcg_cgroup_get(parent) : NULL;
	cg->depth = parent ? parent->depth + 1 : 0;
	cg->id = atomic_fetch_add(&e->next_id, 1);
	atomic_init(&cg->refcount, 1);
	atomic_init(&cg->objcg_refs, 1);	/* the css's */
	atomic_init(&cg->online, true);
	cg->home = cg;
	/* its own css from the start; cgroup_create() may say otherwise */
	cg->css = cg;
	atomic_init(&cg->memcg_online, true);
	atomic_init(&cg->css_pins, 1);
	/* calloc: large blocks come zeroed straight from the kernel. */
	cg->pcpu = pcpu_alloc(e, &cg->pcpu_chunk, &cg->pcpu_slot);
	cg->aggregates = calloc(e->nr_aggregates, sizeof(acount_t));
	if (!cg->pcpu || !cg->aggregates) {
		engine_cgroup_free(cg);
		return NULL;
	}

	for (int p = 0; p < MCG_NR_PARTS; p++) {
		/* With one shared tree a cgroup is one node in it. */
		int idx = e->cfg.kernel.split_trees ? p : 0;

		cg->node_of[p] = &cg->rnode[idx];
		if (idx != p)
			continue;
		rstat_node_init(&cg->rnode[p], parent ? parent->node_of[p] : NULL, cg,
				(struct rstat_node_cpu *)(cg->pcpu + e->off_rstat[p]),
				(unsigned)e->pcpu_unit_size, e->cfg.nr_cpus);
	}
	memcg_init_cgroup(e, cg);
	counters_init(cg);
	return cg;
}

/* The struct itself; the caller puts what it held on the parent. */
static void cgroup_free_struct(struct mcg_cgroup *cg)
{
	if (cg->children_by_name)
		g_hash_table_destroy(cg->children_by_name);
	g_free(cg->name);
	if (cg->pcpu)
		pcpu_free(cg->engine, cg->pcpu_chunk, cg->pcpu_slot);
	free(cg->aggregates);
	free(cg);
}

void engine_cgroup_free(struct mcg_cgroup *cg)
{
	struct mcg_cgroup *parent = cg->parent;

	cgroup_free_struct(cg);
	if (parent)
		mcg_cgroup_put(parent);
}

/*
 * A cgroup as an obj_cgroup outlives its css: the kernel's object stock
 * holds the obj_cgroup, not the memcg (obj_cgroup_get()), so a stock
 * that still caches a removed memcg's obj_cgroup does not keep the memcg
 * dying.  Here the struct is both, with two counts: `refcount` (css
 * references; at zero the cgroup is released: folded, counted out of the
 * dying) and `objcg_refs` (one held by the css until its release, one by
 * each object stock slot; at zero the struct is freed).  A released cgroup
 * still reached through a stock holds its parent's struct the same way,
 * so the walk to the nearest live ancestor (mcg_memcg_objcg_owner()) stays
 * on live memory.
 */
void engine_objcg_get(struct mcg_cgroup *cg)
{
	atomic_fetch_add_explicit(&cg->objcg_refs, 1, memory_order_relaxed);
}

void engine_objcg_put(struct mcg_cgroup *cg)
{
	while (cg && atomic_fetch_sub_explicit(&cg->objcg_refs, 1, memory_order_acq_rel) == 1) {
		struct mcg_cgroup *parent = cg->parent;

		/* What is parked here goes to the parent's obj_cgroup, which
		 * charges the same memcg (objcg.c, "Parked bytes"). */
		unsigned long parked = atomic_exchange_explicit(&cg->objcg_charged_bytes, 0,
								memory_order_relaxed);

		if (parent)
			atomic_fetch_add_explicit(&parent->objcg_charged_bytes, parked,
						  memory_order_relaxed);
		cgroup_free_struct(cg);
		cg = parent;
	}
}

static void cgroup_release(struct mcg_cgroup *cg);

struct mcg_cgroup *mcg_cgroup_get(struct mcg_cgroup *cg)
{
	atomic_fetch_add_explicit(&cg->refcount, 1, memory_order_relaxed);
	return cg;
}

void mcg_cgroup_put(struct mcg_cgroup *cg)
{
	if (!cg)
		return;
	if (atomic_fetch_sub_explicit(&cg->refcount, 1, memory_order_acq_rel) != 1)
		return;
	if (!mcg_cgroup_online(cg))
		cgroup_release(cg);	/* destroyed */
	else
		engine_cgroup_free(cg);	/* never linked, or the engine's teardown */
}

struct mcg_cgroup *mcg_engine_root(struct mcg_engine *e)
{
	return e->root;
}

bool mcg_cgroup_online(const struct mcg_cgroup *cg)
{
	return atomic_load_explicit(&cg->online, memory_order_acquire);
}

bool mcg_cgroup_is_root(const struct mcg_cgroup *cg)
{
	return cg->parent == NULL;
}

bool mcg_cgroup_is_descendant(const struct mcg_cgroup *cg, const struct mcg_cgroup *ancestor)
{
	for (; cg; cg = cg->parent)
		if (cg == ancestor)
			return true;
	return false;
}

struct mcg_cgroup *mcg_cgroup_parent(const struct mcg_cgroup *cg)
{
	return cg->parent;
}

uint64_t mcg_cgroup_id(const struct mcg_cgroup *cg)
{
	return cg->id;
}

unsigned mcg_cgroup_depth(const struct mcg_cgroup *cg)
{
	return cg->depth;
}

void *mcg_cgroup_workload(const struct mcg_cgroup *cg)
{
	return atomic_load_explicit(&cg->workload, memory_order_acquire);
}

void mcg_cgroup_set_workload(struct mcg_cgroup *cg, void *workload)
{
	atomic_store_explicit(&cg->workload, workload, memory_order_release);
}

char *mcg_cgroup_name(struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	char *name;

	pthread_rwlock_rdlock(&e->hier_lock);
	name = g_strdup(cg->name ? cg->name : "");
	pthread_rwlock_unlock(&e->hier_lock);
	return name;
}

unsigned mcg_cgroup_nr_children(struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	unsigned n;

	pthread_rwlock_rdlock(&e->hier_lock);
	n = cg->nr_children;
	pthread_rwlock_unlock(&e->hier_lock);
	return n;
}

unsigned mcg_cgroup_nr_dying_descendants(struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	unsigned n;

	pthread_rwlock_rdlock(&e->hier_lock);
	n = cg->nr_dying_descendants;
	pthread_rwlock_unlock(&e->hier_lock);
	return n;
}

unsigned mcg_cgroup_nr_descendants(struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	unsigned n;

	pthread_rwlock_rdlock(&e->hier_lock);
	n = cg->nr_descendants;
	pthread_rwlock_unlock(&e->hier_lock);
	return n;
}

/* Caller holds hier_lock. */
static struct mcg_cgroup *cgroup_find_child(struct mcg_cgroup *parent, const char *name)
{
	return parent->children_by_name ? g_hash_table_lookup(parent->children_by_name, name)
					: NULL;
}

/* Caller holds hier_lock for writing. */
static void cgroup_link(struct mcg_cgroup *parent, struct mcg_cgroup *cg)
{
	if (!parent->children_by_name)
		parent->children_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	g_hash_table_insert(parent->children_by_name, cg->name, cg);
	cg->prev_sibling = parent->last_child;
	if (parent->last_child)
		parent->last_child->next_sibling = cg;
	else
		parent->first_child = cg;
	parent->last_child = cg;
	parent->nr_children++;
	for (struct mcg_cgroup *a = parent; a; a = a->parent)
		a->nr_descendants++;
}

/* Caller holds hier_lock for writing. */
static void cgroup_unlink(struct mcg_cgroup *parent, struct mcg_cgroup *cg)
{
	g_hash_table_remove(parent->children_by_name, cg->name);
	if (cg->prev_sibling)
		cg->prev_sibling->next_sibling = cg->next_sibling;
	else
		parent->first_child = cg->next_sibling;
	if (cg->next_sibling)
		cg->next_sibling->prev_sibling = cg->prev_sibling;
	else
		parent->last_child = cg->prev_sibling;
	cg->prev_sibling = cg->next_sibling = NULL;
	parent->nr_children--;
	for (struct mcg_cgroup *a = parent; a; a = a->parent)
		a->nr_descendants--;
}

static int cgroup_create(struct mcg_engine *e, struct mcg_cgroup *parent, const char *name,
			 bool memcg, struct mcg_cgroup **out)
{
	struct mcg_cgroup *cg;
	int err = cgroup_name_check(name);

	if (err)
		return err;
	if (parent->hidden)
		return -EPERM;
	cg = engine_cgroup_alloc(e, parent);
	if (!cg)
		return -ENOMEM;
	cg->name = g_strdup(name);
	if (!memcg) {	/* no css until its parent enables memory */
		cg->css = NULL;
		atomic_store_explicit(&cg->memcg_online, false, memory_order_relaxed);
		atomic_store_explicit(&cg->css_pins, 0, memory_order_relaxed);
	}

	pthread_rwlock_wrlock(&e->hier_lock);
	if (!mcg_cgroup_online(parent))
		err = -ENODEV;
	else if (cgroup_find_child(parent, name))
		err = -EEXIST;
	else
		cgroup_link(parent, cg);
	pthread_rwlock_unlock(&e->hier_lock);
	if (err) {
		mcg_cgroup_put(cg);
		return err;
	}
	*out = mcg_cgroup_get(cg);
	return 0;
}

int mcg_cgroup_create(struct mcg_engine *e, struct mcg_cgroup *parent, const char *name,
		      struct mcg_cgroup **out)
{
	struct mcg_cgroup *css;
	bool own;
	int err;

	pthread_rwlock_rdlock(&e->hier_lock);
	own = parent->css == parent;
	pthread_rwlock_unlock(&e->hier_lock);
	err = cgroup_create(e, parent, name, own, out);
	/* Below a hidden css, a new css is hidden too. */
	if (!err && !own) {
		err = mcg_memcg_css_create(e, *out, &css);
		if (err) {
			mcg_cgroup_destroy(e, *out);
			mcg_cgroup_put(*out);
			return err;
		}
		mcg_cgroup_put(css);
	}
	return err;
}

int mcg_cgroup_create_without_memcg(struct mcg_engine *e, struct mcg_cgroup *parent,
				    const char *name, struct mcg_cgroup **out)
{
	return cgroup_create(e, parent, name, false, out);
}

/* Folds what is left of a dead cgroup into its parent, as css release does
 * (cgroup_rstat_exit() flushes the cgroup; 5.10's mem_cgroup_free() adds the
 * per-CPU batches up the hierarchy).  At a 7.3 offline (!final) that is a
 * flush of every tree it is on; an event may still land in it afterwards
 * (events are not redirected).  At release (final) no update can reach it
 * any more, so every CPU's remainder is folded, marked or not
 * (rstat_fold_node()): the kernel would leave a change that raced past a
 * flush unfolded; memcgfs loses no statistic. */
static void cgroup_fold(struct mcg_engine *e, struct mcg_cgroup *cg, bool final)
{
	if (e->cfg.kernel.stats == MCG_STATS_BATCHED_ATOMICS)
		memcg_batched_release(e, cg);
	for (int p = 0; p < MCG_NR_PARTS; p++) {
		struct rstat_tree *t = e->tree_of[p];

		if (p != MCG_PART_MEMORY && t == e->tree_of[MCG_PART_MEMORY])
			continue;	/* one shared tree: once is enough */
		if (final)
			rstat_fold_node(t, cg->node_of[p]);
		else if (p == MCG_PART_MEMORY)
			memcg_flush_tree(e, cg, false);
		else
			rstat_flush(t, cg->node_of[p], false);
	}
	for (int p = 0; p < MCG_NR_PARTS && final; p++)
		g_assert(!rstat_node_busy(e->tree_of[p], cg->node_of[p]));
}

/* The last reference of a destroyed cgroup is gone (css release and
 * free): fold it, count it out of its ancestors' dying descendants (a
 * hidden css is no cgroup: it lets its cgroup go instead). */
static void cgroup_release(struct mcg_cgroup *cg)
{
	struct mcg_engine *e = cg->engine;

	cgroup_fold(e, cg, true);
	pthread_rwlock_wrlock(&e->hier_lock);
	cg->objcg_released = true;
	if (cg->prev_sibling)
		cg->prev_sibling->next_sibling = cg->next_sibling;
	else
		cg->parent->first_dying = cg->next_sibling;
	if (cg->next_sibling)
		cg->next_sibling->prev_sibling = cg->prev_sibling;
	for (struct mcg_cgroup *a = cg->parent; a && !cg->hidden; a = a->parent)
		a->nr_dying_descendants--;
	pthread_rwlock_unlock(&e->hier_lock);
	if (cg->hidden)
		mcg_cgroup_put(cg->home);
	/* The parent's css reference becomes a struct one, then the css's
	 * own hold on the struct goes. */
	engine_objcg_get(cg->parent);
	mcg_cgroup_put(cg->parent);
	engine_objcg_put(cg);
}

/*
 * Memory csses.
 *
 * On cgroup2 a cgroup has a memory css only while its parent enables
 * memory in cgroup.subtree_control; without one, its tasks are charged to
 * the css of the nearest ancestor that has one (the css_set's effective
 * css, task_css(task, memory_cgrp_id)).  "-memory" kills the children's
 * csses (kill_css()); "+memory" makes new ones (css_create() ->
 * mem_cgroup_css_alloc()), which start from nothing.  A killed css lives
 * on, offline, until its last reference goes (css_release_work_fn()):
 * before 7.3 the folios charged to it hold it; 7.3 reparents them at
 * offline.  Meanwhile it counts in nr_dying_subsys_memory of its cgroup
 * and every ancestor (kill_css() up, css_release_work_fn() down,
 * kernel/cgroup/cgroup.c).
 *
 * The engine's struct is a cgroup and its memcg at once, so one struct
 * can be a css once: a cgroup's first css is its own struct, born with it
 * (or at the first "+memory" if its parent did not enable memory yet),
 * and once that css is killed (memcg_spent) every later one is a hidden
 * struct: a memcg with no name, linked below its parent css (every charge
 * and flush runs up the css hierarchy, as the kernel's do), holding its
 * cgroup (`home`) until its release as the kernel's css pins its cgroup.
 * A cgroup's own struct is a css only while its parent's css is the
 * parent's own struct too; otherwise its css would hang below the wrong
 * parent, and a hidden one is made instead.
 *
 * css_pins is the css's reference count: one while it is its cgroup's
 * css (cg->css), one for each holder of pages charged to it (the
 * workload's ledgers).  Its release is the last pin going once it is
 * offline: it counts out of nr_dying_memcg, and a hidden css then drops
 * its creation reference, so the struct goes once nothing else holds it.
 */

/* Caller holds hier_lock for writing. */
static void dying_memcg_count(struct mcg_cgroup *css, int delta)
{
	for (struct mcg_cgroup *a = css->home; a; a = a->parent)
		a->nr_dying_memcg += (unsigned)delta;
}

static void css_release(struct mcg_cgroup *css)
{
	struct mcg_engine *e = css->engine;

	pthread_rwlock_wrlock(&e->hier_lock);
	dying_memcg_count(css, -1);
	pthread_rwlock_unlock(&e->hier_lock);
	if (css->hidden)
		mcg_cgroup_put(css);	/* its creation reference */
}

static void css_pin(struct mcg_cgroup *css)
{
	atomic_fetch_add_explicit(&css->css_pins, 1, memory_order_relaxed);
}

static void css_unpin(struct mcg_cgroup *css)
{
	if (atomic_fetch_sub_explicit(&css->css_pins, 1, memory_order_acq_rel) == 1)
		css_release(css);
}

void mcg_memcg_css_get(struct mcg_cgroup *css)
{
	mcg_cgroup_get(css);
	css_pin(css);
}

void mcg_memcg_css_put(struct mcg_cgroup *css)
{
	if (!css)
		return;
	css_unpin(css);
	mcg_cgroup_put(css);
}

struct mcg_cgroup *mcg_cgroup_memcg(struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	struct mcg_cgroup *css;

	pthread_rwlock_rdlock(&e->hier_lock);
	css = cg->css ? mcg_cgroup_get(cg->css) : NULL;
	pthread_rwlock_unlock(&e->hier_lock);
	return css;
}

struct mcg_cgroup *mcg_memcg_cgroup(const struct mcg_cgroup *css)
{
	return css->home;
}

bool mcg_memcg_online(const struct mcg_cgroup *css)
{
	return atomic_load_explicit(&css->memcg_online, memory_order_acquire);
}

unsigned mcg_cgroup_nr_dying_memcg(struct mcg_engine *e, const struct mcg_cgroup *cg)
{
	unsigned n;

	pthread_rwlock_rdlock(&e->hier_lock);
	n = cg->nr_dying_memcg;
	pthread_rwlock_unlock(&e->hier_lock);
	return n;
}

int mcg_memcg_css_create(struct mcg_engine *e, struct mcg_cgroup *cg, struct mcg_cgroup **out)
{
	struct mcg_cgroup *parent = cg->parent, *pcss, *h = NULL;
	bool own;
	int err = 0;

	if (!parent)
		return -EEXIST;	/* the root's css is for ever */
	pthread_rwlock_rdlock(&e->hier_lock);
	pcss = parent->css ? mcg_cgroup_get(parent->css) : NULL;
	own = !cg->memcg_spent && pcss == parent;
	pthread_rwlock_unlock(&e->hier_lock);
	if (!pcss)
		return -ENOENT;
	if (!own && !(h = engine_cgroup_alloc(e, pcss))) {
		mcg_cgroup_put(pcss);
		return -ENOMEM;
	}
	pthread_rwlock_wrlock(&e->hier_lock);
	if (!mcg_cgroup_online(cg))
		err = -ENODEV;
	else if (cg->css)
		err = -EEXIST;
	else if (parent->css != pcss)
		err = -EAGAIN;	/* the parent's changed meanwhile: callers serialise */
	else if (own) {
		cg->css = cg;
		atomic_store_explicit(&cg->css_pins, 1, memory_order_relaxed);
		atomic_store_explicit(&cg->memcg_online, true, memory_order_release);
	} else {
		h->hidden = true;
		h->home = mcg_cgroup_get(cg);
		h->next_sibling = pcss->first_hidden;
		if (h->next_sibling)
			h->next_sibling->prev_sibling = h;
		pcss->first_hidden = h;
		cg->css = h;
		h = NULL;
	}
	if (!err)
		*out = mcg_cgroup_get(cg->css);
	pthread_rwlock_unlock(&e->hier_lock);
	if (h)
		mcg_cgroup_put(h);	/* never linked: freed at once */
	mcg_cgroup_put(pcss);
	return err;
}

/* Takes css offline (the kernel's kill_css(), then offline_css():
 * mem_cgroup_css_offline()).  Caller holds hier_lock for writing and has
 * cleared cg->css.  A hidden css leaves its parent's hidden list for its
 * dying list; a fold to come (7.3) keeps the parent css from going. */
static void css_offline_locked(struct mcg_engine *e, struct mcg_cgroup *css)
{
	struct mcg_cgroup *pcss = css->parent;

	if (css->hidden) {
		atomic_store_explicit(&css->online, false, memory_order_release);
		if (css->prev_sibling)
			css->prev_sibling->next_sibling = css->next_sibling;
		else
			pcss->first_hidden = css->next_sibling;
		if (css->next_sibling)
			css->next_sibling->prev_sibling = css->prev_sibling;
		css->prev_sibling = NULL;
		css->next_sibling = pcss->first_dying;
		if (css->next_sibling)
			css->next_sibling->prev_sibling = css;
		pcss->first_dying = css;
		if (e->cfg.kernel.reparent_local)
			pcss->nr_dying_children++;
	}
	atomic_store_explicit(&css->memcg_online, false, memory_order_release);
	css->memcg_spent = true;
	dying_memcg_count(css, +1);
}

/* What an offline does after the lock: protection gone, the stocks
 * drained of css (its grace period also waits out updaters that read it
 * online), and in 7.3 its local counts reparented and its trees flushed;
 * then the pin it held as its cgroup's css goes. */
static void css_offline_finish(struct mcg_engine *e, struct mcg_cgroup *css)
{
	/* mem_cgroup_css_offline() (6.12 mm/memcontrol.c): no protection */
	mcg_counter_set(css, MCG_COUNTER_MEMORY, MCG_FIELD_MIN, 0);
	mcg_counter_set(css, MCG_COUNTER_MEMORY, MCG_FIELD_LOW, 0);
	mcg_memcg_drain_all_stock(e, NULL, css);
	if (e->cfg.kernel.reparent_local) {
		memcg_reparent_state_local(e, css);
		cgroup_fold(e, css, false);
		if (css->hidden) {
			pthread_rwlock_wrlock(&e->hier_lock);
			css->parent->nr_dying_children--;
			pthread_rwlock_unlock(&e->hier_lock);
		}
	}
	css_unpin(css);
}

int mcg_memcg_css_kill(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	struct mcg_cgroup *css;

	g_assert(!engine_thread_in_cpu());	/* the drain would wait for ourselves */
	pthread_rwlock_wrlock(&e->hier_lock);
	css = cg->parent ? cg->css : NULL;
	if (css) {
		cg->css = NULL;
		css_offline_locked(e, css);
	}
	pthread_rwlock_unlock(&e->hier_lock);
	if (!css)
		return cg->parent ? -ENOENT : -EPERM;
	mcg_cgroup_get(css);	/* across its release */
	css_offline_finish(e, css);
	mcg_cgroup_put(css);
	return 0;
}

/*
 * Destroying a cgroup (the kernel's rmdir -> css offline -> css release).
 *
 * The kernel never loses a charge when a memcg goes away, but where the
 * dying memcg's pages and counts go depends on the era:
 *
 *  - Linux 7.3 reparents at offline (memcg_reparent_objcgs()): the folios
 *    move to the parent (the workload layer moves its ledgers), the
 *    non-hierarchical counts that must follow them move with them
 *    (reparent_state_local(): v1 the memcg1_stats[] items and the LRU
 *    lists, v2 the LRU and slab lruvec counts, between two forced
 *    flushes), and state updates still aimed at the memcg go to its
 *    nearest live ancestor (get_non_dying_memcg_start()).  memcgfs does it
 *    in three steps: offline (unlink, clear `online`), drain (an updater
 *    may have read `online` just before; every update runs inside a CPU
 *    window, so a grace period waits it out), and fold (the
 *    reparenting, then a flush at the cgroup of every tree it is on).
 *    Until the fold is done the parent cannot be destroyed (EBUSY), as the
 *    kernel keeps a parent online while a child is offlining.
 *  - Earlier eras only take the memcg offline.  Its pages stay charged to
 *    it, updates keep landing in it, its local counts stay with it; the
 *    hierarchical counts reach the ancestors through flushes (5.10: the
 *    batches' atomics) as for any memcg.  It is folded when its last
 *    reference goes (cgroup_release()).  A parent may go offline while
 *    such dying children live on, as in the kernel.
 *
 * Either way the struct lives on until the last reference goes; meanwhile
 * it counts in its ancestors' nr_dying_descendants.
 */
int mcg_cgroup_destroy(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	struct mcg_cgroup *parent = cg->parent, *css = NULL;
	bool reparent = e->cfg.kernel.reparent_local;
	int err = 0;

	g_assert(!engine_thread_in_cpu());	/* the drain would wait for ourselves */
	if (!parent || cg->hidden)
		return -EPERM;
	pthread_rwlock_wrlock(&e->hier_lock);
	if (!mcg_cgroup_online(cg))
		err = -ENODEV;
	else if (cg->nr_children || cg->nr_dying_children)
		err = -EBUSY;	/* a child still folding into us counts too */
	else {
		atomic_store_explicit(&cg->online, false, memory_order_release);
		cgroup_unlink(parent, cg);
		cg->next_sibling = parent->first_dying;
		if (cg->next_sibling)
			cg->next_sibling->prev_sibling = cg;
		parent->first_dying = cg;
		for (struct mcg_cgroup *a = parent; a; a = a->parent)
			a->nr_dying_descendants++;
		if (reparent)
			parent->nr_dying_children++;
		/* cgroup_destroy_locked() kills every css of the cgroup */
		css = cg->css;
		cg->css = NULL;
		if (css)
			css_offline_locked(e, css);
	}
	pthread_rwlock_unlock(&e->hier_lock);
	if (err)
		return err;

	/* mem_cgroup_css_offline(): drain_all_stock() (asynchronous in the
	 * kernel; done here at once, so nothing pins the dying memcg's
	 * charges in a stock).  Its grace period is also the drain of the
	 * updaters that read `online` before we cleared it.  The css is the
	 * cgroup's own struct, or a hidden one (its own drain and fold). */
	if (css) {
		mcg_cgroup_get(css);	/* across its release */
		css_offline_finish(e, css);
	}
	if (css != cg) {
		mcg_memcg_drain_all_stock(e, NULL, cg);
		if (reparent)
			cgroup_fold(e, cg, false);
	}
	mcg_cgroup_put(css);
	if (reparent) {
		/* Only now may the parent go: it has all we had to hand it. */
		pthread_rwlock_wrlock(&e->hier_lock);
		parent->nr_dying_children--;
		pthread_rwlock_unlock(&e->hier_lock);
	}
	mcg_cgroup_put(cg);	/* the hierarchy's reference */
	return 0;
}

int mcg_cgroup_rename(struct mcg_engine *e, struct mcg_cgroup *cg, const char *new_name)
{
	int err = cgroup_name_check(new_name);

	if (err)
		return err;
	if (!cg->parent)
		return -EPERM;
	pthread_rwlock_wrlock(&e->hier_lock);
	if (!mcg_cgroup_online(cg))
		err = -ENODEV;
	else if (strcmp(cg->name, new_name) == 0)
		err = 0;
	else if (cgroup_find_child(cg->parent, new_name))
		err = -EEXIST;
	else {
		char *old = cg->name;

		g_hash_table_remove(cg->parent->children_by_name, old);
		cg->name = g_strdup(new_name);
		g_hash_table_insert(cg->parent->children_by_name, cg->name, cg);
		g_free(old);
	}
	pthread_rwlock_unlock(&e->hier_lock);
	return err;
}

struct mcg_cgroup *mcg_cgroup_lookup_child(struct mcg_engine *e, struct mcg_cgroup *parent,
					   const char *name)
{
	struct mcg_cgroup *cg;

	pthread_rwlock_rdlock(&e->hier_lock);
	cg = cgroup_find_child(parent, name);
	if (cg)
		mcg_cgroup_get(cg);
	pthread_rwlock_unlock(&e->hier_lock);
	return cg;
}

struct mcg_cgroup *mcg_cgroup_lookup(struct mcg_engine *e, const char *path)
{
	g_auto(GStrv) parts = g_strsplit(path, "/", -1);
	struct mcg_cgroup *cg = e->root;

	pthread_rwlock_rdlock(&e->hier_lock);
	for (unsigned i = 0; parts[i] && cg; i++)
		if (parts[i][0])
			cg = cgroup_find_child(cg, parts[i]);
	if (cg)
		mcg_cgroup_get(cg);
	pthread_rwlock_unlock(&e->hier_lock);
	return cg;
}

struct mcg_cgroup **mcg_cgroup_children(struct mcg_engine *e, struct mcg_cgroup *cg,
					unsigned *nr)
{
	struct mcg_cgroup **array;
	unsigned i = 0;

	pthread_rwlock_rdlock(&e->hier_lock);
	array = g_new(struct mcg_cgroup *, cg->nr_children + 1);
	for (struct mcg_cgroup *child = cg->first_child; child; child = child->next_sibling)
		array[i++] = mcg_cgroup_get(child);
	array[i] = NULL;
	pthread_rwlock_unlock(&e->hier_lock);
	*nr = i;
	return array;
}

static void cgroup_walk_locked(struct mcg_cgroup *cg, void (*fn)(struct mcg_cgroup *, void *),
			       void *arg)
{
	fn(cg, arg);
	for (struct mcg_cgroup *child = cg->first_child; child; child = child->next_sibling)
		cgroup_walk_locked(child, fn, arg);
	for (struct mcg_cgroup *child = cg->first_hidden; child; child = child->next_sibling)
		cgroup_walk_locked(child, fn, arg);
	for (struct mcg_cgroup *child = cg->first_dying; child; child = child->next_sibling)
		cgroup_walk_locked(child, fn, arg);
}

void mcg_cgroup_walk(struct mcg_engine *e, struct mcg_cgroup *cg,
		     void (*fn)(struct mcg_cgroup *cg, void *arg), void *arg)
{
	pthread_rwlock_rdlock(&e->hier_lock);
	cgroup_walk_locked(cg, fn, arg);
	pthread_rwlock_unlock(&e->hier_lock);
}
