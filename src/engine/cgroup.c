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

		/* obj_cgroup_release() would give back whole pages parked
		 * here; objects are charged and freed on one CPU, so none
		 * are (objcg.c). */
		g_assert(atomic_load_explicit(&cg->objcg_charged_bytes, memory_order_relaxed) == 0);
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

int mcg_cgroup_create(struct mcg_engine *e, struct mcg_cgroup *parent, const char *name,
		      struct mcg_cgroup **out)
{
	struct mcg_cgroup *cg;
	int err = cgroup_name_check(name);

	if (err)
		return err;
	cg = engine_cgroup_alloc(e, parent);
	if (!cg)
		return -ENOMEM;
	cg->name = g_strdup(name);

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
			memcg_flush_tree(e, cg);
		else
			rstat_flush(t, cg->node_of[p]);
	}
	for (int p = 0; p < MCG_NR_PARTS && final; p++)
		g_assert(!rstat_node_busy(e->tree_of[p], cg->node_of[p]));
}

/* The last reference of a destroyed cgroup is gone (css release and
 * free): fold it, count it out of its ancestors' dying descendants. */
static void cgroup_release(struct mcg_cgroup *cg)
{
	struct mcg_engine *e = cg->engine;

	cgroup_fold(e, cg, true);
	pthread_rwlock_wrlock(&e->hier_lock);
	if (cg->prev_sibling)
		cg->prev_sibling->next_sibling = cg->next_sibling;
	else
		cg->parent->first_dying = cg->next_sibling;
	if (cg->next_sibling)
		cg->next_sibling->prev_sibling = cg->prev_sibling;
	for (struct mcg_cgroup *a = cg->parent; a; a = a->parent)
		a->nr_dying_descendants--;
	pthread_rwlock_unlock(&e->hier_lock);
	/* The parent's css reference becomes a struct one, then the css's
	 * own hold on the struct goes. */
	engine_objcg_get(cg->parent);
	mcg_cgroup_put(cg->parent);
	engine_objcg_put(cg);
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
	struct mcg_cgroup *parent = cg->parent;
	bool reparent = e->cfg.kernel.reparent_local;
	int err = 0;

	g_assert(!engine_thread_in_cpu());	/* the drain would wait for ourselves */
	if (!parent)
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
	}
	pthread_rwlock_unlock(&e->hier_lock);
	if (err)
		return err;

	/* mem_cgroup_css_offline(): drain_all_stock() (asynchronous in the
	 * kernel; done here at once, so nothing pins the dying memcg's
	 * charges in a stock).  Its grace period is also the drain of the
	 * updaters that read `online` before we cleared it. */
	mcg_memcg_drain_all_stock(e, NULL, cg);
	if (reparent) {
		memcg_reparent_state_local(e, cg);
		cgroup_fold(e, cg, false);
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
