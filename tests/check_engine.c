/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Check suite of the engine: hierarchy, rstat tree walk, update/flush
 * conservation in every era, heuristics, the eras' mechanisms, the seed
 * patches and a threaded stress run. */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <glib.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "patches/patches.h"
#include "engine/internal.h"	/* the eras' locks, to hold them in tests */
#include "engine/rstat.h"
#include "helpers.h"

/* MEMCG_CHARGE_BATCH of 7.3, the era most tests run. */
#define BATCH_7_3 (mcg_kernel_get("7.3")->charge_batch)

/* An engine of kernel `version` (NULL: the seed's base or the default) with
 * seed `seed` ("NNN:before|after" or NULL). */
/* ---- hierarchy ---- */

START_TEST(test_hierarchy_errors)
{
	struct mcg_engine *e = test_engine_make(2, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e), *a, *b, *x = NULL, *found;
	char name[MCG_NAME_MAX + 2];
	g_autofree char *got = NULL;

	a = test_cgroup_make(e, root, "a");
	b = test_cgroup_make(e, a, "b");
	ck_assert_int_eq(mcg_cgroup_create(e, root, "a", &x), -EEXIST);
	ck_assert_int_eq(mcg_cgroup_create(e, root, ".", &x), -EINVAL);
	ck_assert_int_eq(mcg_cgroup_create(e, root, "..", &x), -EINVAL);
	ck_assert_int_eq(mcg_cgroup_create(e, root, "x/y", &x), -EINVAL);
	ck_assert_int_eq(mcg_cgroup_create(e, root, "", &x), -EINVAL);
	/* kernfs takes any name the VFS passes, up to PATH_MAX - 1 bytes */
	memset(name, 'n', MCG_NAME_MAX + 1);
	name[MCG_NAME_MAX + 1] = 0;
	ck_assert_int_eq(mcg_cgroup_create(e, root, name, &x), -ENAMETOOLONG);
	name[MCG_NAME_MAX] = 0;
	ck_assert_int_eq(mcg_cgroup_create(e, root, name, &x), 0);
	ck_assert_int_eq(mcg_cgroup_destroy(e, x), 0);
	mcg_cgroup_put(x);

	ck_assert_uint_eq(mcg_cgroup_nr_children(e, root), 1);
	ck_assert_uint_eq(mcg_cgroup_nr_descendants(e, root), 2);
	ck_assert_uint_eq(mcg_cgroup_depth(b), 2);
	ck_assert_int_eq(mcg_cgroup_destroy(e, a), -EBUSY);
	ck_assert_int_eq(mcg_cgroup_destroy(e, root), -EPERM);

	found = mcg_cgroup_lookup(e, "/a/b");
	ck_assert_ptr_eq(found, b);
	mcg_cgroup_put(found);
	ck_assert_ptr_null(mcg_cgroup_lookup(e, "/a/c"));
	found = mcg_cgroup_lookup(e, "/");
	ck_assert_ptr_eq(found, root);
	mcg_cgroup_put(found);

	ck_assert_int_eq(mcg_cgroup_rename(e, b, "c"), 0);
	got = mcg_cgroup_name(e, b);
	ck_assert_str_eq(got, "c");
	found = mcg_cgroup_lookup_child(e, a, "c");
	ck_assert_ptr_eq(found, b);
	mcg_cgroup_put(found);
	ck_assert_ptr_null(mcg_cgroup_lookup_child(e, a, "b"));
	x = test_cgroup_make(e, a, "d");
	ck_assert_int_eq(mcg_cgroup_rename(e, b, "d"), -EEXIST);
	ck_assert_int_eq(mcg_cgroup_rename(e, b, "a/b"), -EINVAL);

	ck_assert_int_eq(mcg_cgroup_destroy(e, b), 0);
	ck_assert(!mcg_cgroup_online(b));
	ck_assert_int_eq(mcg_cgroup_destroy(e, b), -ENODEV);
	ck_assert_int_eq(mcg_cgroup_create(e, b, "under-dead", &found), -ENODEV);
	ck_assert_int_eq(mcg_cgroup_destroy(e, x), 0);
	ck_assert_int_eq(mcg_cgroup_destroy(e, a), 0);
	ck_assert_uint_eq(mcg_cgroup_nr_descendants(e, root), 0);
	mcg_cgroup_put(x);
	mcg_cgroup_put(b);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

START_TEST(test_children_order)
{
	struct mcg_engine *e = test_engine_make(1, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e), **kids;
	const char *names[] = { "z", "a", "m" };
	unsigned nr;

	for (unsigned i = 0; i < 3; i++)
		mcg_cgroup_put(test_cgroup_make(e, root, names[i]));
	kids = mcg_cgroup_children(e, root, &nr);
	ck_assert_uint_eq(nr, 3);
	for (unsigned i = 0; i < 3; i++) {
		g_autofree char *name = mcg_cgroup_name(e, kids[i]);

		ck_assert_str_eq(name, names[i]);
		mcg_cgroup_put(kids[i]);
	}
	g_free(kids);
	mcg_engine_free(e);
}
END_TEST

/* ---- rstat walk order ---- */

struct order_rec {
	GPtrArray *visited;
};

static void record_visit(void *owner, unsigned cpu, void *arg)
{
	struct order_rec *rec = arg;

	g_ptr_array_add(rec->visited, owner);
}

struct test_node {
	struct rstat_node node;
	struct rstat_node_cpu cpu[2];
	const char *name;
};

/* The kernel's own example (css_rstat_push_children()): with P: C1 -> C2,
 * C1: G11 -> G12, C2: G21 -> G22 the flush order is G12 G11 G22 G21 C2 C1 P. */
START_TEST(test_rstat_kernel_example_order)
{
	struct rstat_tree t;
	struct order_rec rec = { g_ptr_array_new() };
	static struct test_node n[7];
	const char *names[] = { "P", "C1", "C2", "G11", "G12", "G21", "G22" };
	const int parent[] = { -1, 0, 0, 1, 1, 2, 2 };
	const char *expect[] = { "G12", "G11", "G22", "G21", "C2", "C1", "P" };

	ck_assert_int_eq(rstat_tree_init(&t, 2, MCG_UPDATER_LLIST, MCG_WALK_DETACH_LIST), 0);
	rstat_tree_add_callback(&t, record_visit, &rec);
	for (int i = 0; i < 7; i++) {
		n[i].name = names[i];
		rstat_node_init(&n[i].node, parent[i] < 0 ? NULL : &n[parent[i]].node, &n[i], n[i].cpu,
				sizeof(struct rstat_node_cpu), 2);
	}
	/* The llist pops in reverse marking order and each link prepends, so
	 * marking G11, G12, G21, G22 builds P: C1 -> C2, C1: G11 -> G12,
	 * C2: G21 -> G22. */
	rstat_updated(&t, &n[3].node, 1);
	rstat_updated(&t, &n[4].node, 1);
	rstat_updated(&t, &n[5].node, 1);
	rstat_updated(&t, &n[6].node, 1);
	ck_assert_uint_eq(rstat_flush(&t, &n[0].node, false), 7);
	ck_assert_uint_eq(rec.visited->len, 7);
	for (int i = 0; i < 7; i++)
		ck_assert_str_eq(((struct test_node *)rec.visited->pdata[i])->name, expect[i]);
	for (int i = 0; i < 7; i++)
		ck_assert(!rstat_node_busy(&t, &n[i].node));
	g_ptr_array_free(rec.visited, TRUE);
	rstat_tree_destroy(&t);
}
END_TEST

/* Random trees, random marks: every visited node comes after all of its
 * visited descendants, exactly the marked nodes and their ancestors inside
 * the flushed subtree are visited, and ancestors above stay linked. */
START_TEST(test_rstat_children_first_random)
{
	enum { N = 200 };
	static struct rstat_node nodes[N];
	static struct rstat_node_cpu cpus[N][3];
	int parent[N];
	/* Loop index: the updater and walk (_i % 3), then the random seed. */
	static const struct { enum mcg_rstat_updater u; enum mcg_rstat_walk w; } variants[] = {
		{ MCG_UPDATER_LLIST, MCG_WALK_DETACH_LIST },	/* 7.3 */
		{ MCG_UPDATER_LOCKED, MCG_WALK_DETACH_LIST },	/* 6.12 */
		{ MCG_UPDATER_LOCKED, MCG_WALK_POP_LOCKED },	/* 6.1, 5.10 */
	};
	GRand *rnd = g_rand_new_with_seed(42 + _i / 3);

	for (int round = 0; round < 20; round++) {
		struct rstat_tree t;
		struct order_rec rec = { g_ptr_array_new() };
		bool marked[N] = { false }, expected[N] = { false };
		int target;
		unsigned cpu = g_rand_int_range(rnd, 0, 3);

		ck_assert_int_eq(rstat_tree_init(&t, 3, variants[_i % 3].u, variants[_i % 3].w), 0);
		rstat_tree_add_callback(&t, record_visit, &rec);
		for (int i = 0; i < N; i++) {
			parent[i] = i ? g_rand_int_range(rnd, 0, i) : -1;
			rstat_node_init(&nodes[i], i ? &nodes[parent[i]] : NULL,
					GINT_TO_POINTER(i + 1), cpus[i],
					sizeof(struct rstat_node_cpu), 3);
		}
		for (int k = 0; k < 40; k++) {
			int i = g_rand_int_range(rnd, 0, N);

			marked[i] = true;
			rstat_updated(&t, &nodes[i], cpu);
		}
		target = g_rand_int_range(rnd, 0, 10);
		for (int i = 0; i < N; i++) {
			bool in_subtree = false;

			for (int a = i; a >= 0; a = parent[a])
				if (a == target)
					in_subtree = true;
			if (!marked[i] || !in_subtree)
				continue;
			for (int a = i; a != parent[target]; a = parent[a])
				expected[a] = true;
		}
		rstat_flush(&t, &nodes[target], false);
		{
			int pos[N];
			unsigned nexpected = 0;

			for (int i = 0; i < N; i++) {
				pos[i] = -1;
				nexpected += expected[i];
			}
			for (unsigned k = 0; k < rec.visited->len; k++) {
				int i = GPOINTER_TO_INT(rec.visited->pdata[k]) - 1;

				ck_assert_msg(expected[i], "node %d visited without update", i);
				ck_assert_int_eq(pos[i], -1);
				pos[i] = (int)k;
			}
			ck_assert_uint_eq(rec.visited->len, nexpected);
			for (int i = 0; i < N; i++)
				if (pos[i] >= 0 && i != target)
					ck_assert_int_lt(pos[i], pos[parent[i]]);
		}
		/* A flush of the root then visits exactly what stayed linked: the
		 * marked nodes outside the subtree with their ancestors, and the
		 * ancestors above target if the first flush found anything. */
		{
			bool expected2[N] = { false };
			bool any = false;
			unsigned nexpected2 = 0;

			for (int i = 0; i < N; i++) {
				any |= expected[i];
				if (marked[i] && !expected[i])
					for (int a = i; a >= 0; a = parent[a])
						expected2[a] = true;
			}
			if (any)
				for (int a = parent[target]; a >= 0; a = parent[a])
					expected2[a] = true;
			g_ptr_array_set_size(rec.visited, 0);
			rstat_flush(&t, &nodes[0], false);
			for (int i = 0; i < N; i++)
				nexpected2 += expected2[i];
			ck_assert_uint_eq(rec.visited->len, nexpected2);
			for (unsigned k = 0; k < rec.visited->len; k++)
				ck_assert(expected2[GPOINTER_TO_INT(rec.visited->pdata[k]) - 1]);
		}
		for (int i = 0; i < N; i++)
			ck_assert(!rstat_node_busy(&t, &nodes[i]));
		g_ptr_array_free(rec.visited, TRUE);
		rstat_tree_destroy(&t);
	}
	g_rand_free(rnd);
}
END_TEST

/* ---- conservation ---- */

/* Items whose kind the layout knows, for random updates. */
static unsigned layout_items(const struct mcg_layout *l, enum mcg_item *out)
{
	unsigned n = 0;

	for (int i = 0; i < MCG_NR_ITEMS; i++)
		if (mcg_layout_has(l, i))
			out[n++] = i;
	return n;
}

enum { CONS_MAX_CG = 40, CONS_NODES = 3 };

struct model {
	struct mcg_cgroup *cg[CONS_MAX_CG];
	int parent[CONS_MAX_CG];
	bool alive[CONS_MAX_CG];
	long own[CONS_MAX_CG][MCG_NR_ITEMS];
	long own_node[CONS_MAX_CG][CONS_NODES][MCG_NR_ITEMS];
	/* The local (non-hierarchical) values the kernel shows, moved by 7.3's
	 * reparenting where it moves them. */
	long local[CONS_MAX_CG][MCG_NR_ITEMS];
	long local_node[CONS_MAX_CG][CONS_NODES][MCG_NR_ITEMS];
	int n;
};

static bool model_is_ancestor_or_self(const struct model *m, int a, int d)
{
	for (; d >= 0; d = m->parent[d])
		if (d == a)
			return true;
	return false;
}

/* Does 7.3's reparent_state_local() move item's local count, memcg-wide or
 * per node?  v1: memcg1_stats[] memcg-wide, the LRU lists both ways; v2:
 * the LRU lists and the slab counts, both ways (a lruvec move is a memcg
 * move too). */
static bool reparent_moves(const struct mcg_layout *l, enum mcg_item item, bool v1, bool per_node)
{
	bool lru = item == MCG_INACTIVE_ANON || item == MCG_ACTIVE_ANON ||
		   item == MCG_INACTIVE_FILE || item == MCG_ACTIVE_FILE || item == MCG_UNEVICTABLE;
	bool slab = item == MCG_SLAB_RECLAIMABLE_B || item == MCG_SLAB_UNRECLAIMABLE_B;

	if (lru)
		return true;
	if (!v1)
		return slab;
	if (per_node)
		return false;
	for (unsigned i = 0; i < l->nr_v1_stats; i++)
		if (l->v1_stats[i].item == item)
			return true;
	return false;
}

/* 7.3's reparent_state_local() in the model: a dying d hands its parent
 * the clamped local value of each count that moves (see reparent_moves()),
 * the lruvec counts per node, which moves the memcg-wide count too. */
static void model_reparent(struct model *m, const struct mcg_layout *l, bool v1, int d,
			   const enum mcg_item *items, unsigned nr_items)
{
	int p = m->parent[d];

	for (unsigned k = 0; k < nr_items; k++) {
		enum mcg_item item = items[k];

		if (reparent_moves(l, item, v1, false) && !reparent_moves(l, item, v1, true)) {
			long v = m->local[d][item] > 0 ? m->local[d][item] : 0;

			m->local[d][item] -= v;
			m->local[p][item] += v;
		}
	}
	for (unsigned k = 0; k < nr_items; k++) {
		enum mcg_item item = items[k];

		if (!reparent_moves(l, item, v1, true) || l->kind[item] != MCG_KIND_NODE)
			continue;
		for (int nid = 0; nid < CONS_NODES; nid++) {
			long v = m->local_node[d][nid][item] > 0 ? m->local_node[d][nid][item] : 0;

			m->local_node[d][nid][item] -= v;
			m->local_node[p][nid][item] += v;
			m->local[d][item] -= v;
			m->local[p][item] += v;
		}
	}
}

static void check_conservation(const char *version, const char *seed_patch, enum mcg_hierarchy h,
			       unsigned seed)
{
	static struct model m;
	struct mcg_engine *e = test_engine_make(4, CONS_NODES, version, h, seed_patch);
	const struct mcg_layout *l = mcg_engine_layout(e);
	enum mcg_item items[MCG_NR_ITEMS];
	unsigned nr_items = layout_items(l, items);
	GRand *rnd = g_rand_new_with_seed(seed);
	bool reparent = mcg_engine_config(e)->kernel.reparent_local;
	bool v1 = h == MCG_HIERARCHY_V1;

	memset(&m, 0, sizeof(m));
	m.cg[0] = mcg_engine_root(e);
	m.parent[0] = -1;
	m.alive[0] = true;
	m.n = 1;
	for (int i = 1; i < CONS_MAX_CG; i++) {
		char name[16];
		int p;

		do
			p = g_rand_int_range(rnd, 0, i);
		while (!m.alive[p]);
		g_snprintf(name, sizeof(name), "c%d", i);
		m.cg[i] = test_cgroup_make(e, m.cg[p], name);
		m.parent[i] = p;
		m.alive[i] = true;
		m.n++;
	}
	for (int step = 0; step < 6000; step++) {
		int i = g_rand_int_range(rnd, 0, m.n);
		enum mcg_item item = items[g_rand_int_range(rnd, 0, nr_items)];
		int nid = g_rand_int_range(rnd, 0, CONS_NODES);
		unsigned cpu = g_rand_int_range(rnd, 0, 4);
		long val;

		if (!m.alive[i])
			continue;
		if (l->kind[item] == MCG_KIND_EVENT)
			val = g_rand_int_range(rnd, 0, 20);
		else
			val = g_rand_int_range(rnd, -8, 40);
		test_stat_mod(e, cpu, m.cg[i], nid, item, val);
		m.own[i][item] += val;
		m.local[i][item] += val;
		if (l->kind[item] == MCG_KIND_NODE) {
			m.own_node[i][nid][item] += val;
			m.local_node[i][nid][item] += val;
		}
		/* Now and then a thresholded flush somewhere, and a destroy of
		 * a live leaf with unflushed updates. */
		if (step % 97 == 0)
			mcg_memcg_flush_stats(e, m.cg[g_rand_int_range(rnd, 0, m.n)]);
		if (step % 500 == 499) {
			int victim = g_rand_int_range(rnd, 1, m.n);
			bool leaf = m.alive[victim];

			for (int k = 0; k < m.n && leaf; k++)
				if (m.alive[k] && m.parent[k] == victim)
					leaf = false;
			if (leaf) {
				ck_assert_int_eq(mcg_cgroup_destroy(e, m.cg[victim]), 0);
				m.alive[victim] = false;
				if (reparent)
					model_reparent(&m, l, v1, victim, items, nr_items);
			}
		}
	}
	__mcg_memcg_flush_stats(e, m.cg[0], true);

	for (int a = 0; a < m.n; a++) {
		if (!m.alive[a])
			continue;
		for (unsigned k = 0; k < nr_items; k++) {
			enum mcg_item item = items[k];
			long hier = 0, local = m.local[a][item];
			/* What no flush folded yet (5.10's batches; per-CPU
			 * changes elsewhere): the subtree's for hierarchical
			 * values (a dead cgroup keeps its own until its last
			 * reference goes), a's own for its local. */
			long unpub = 0;

			for (int d = 0; d < m.n; d++) {
				if (model_is_ancestor_or_self(&m, a, d)) {
					hier += m.own[d][item];
					unpub += mcg_stat_unflushed(e, m.cg[d], -1, item,
								    MCG_HIERARCHICAL);
				}
			}
			ck_assert_msg(mcg_stat_read_raw(e, m.cg[a], item, MCG_HIERARCHICAL) + unpub == hier,
				      "cg %d item %s: hierarchical %ld + %ld, expected %ld", a,
				      mcg_item_name(item),
				      mcg_stat_read_raw(e, m.cg[a], item, MCG_HIERARCHICAL), unpub, hier);
			ck_assert_msg(mcg_stat_read_raw(e, m.cg[a], item, MCG_LOCAL) +
						      mcg_stat_unflushed(e, m.cg[a], -1, item, MCG_LOCAL) ==
					      local,
				      "cg %d item %s: local %ld, expected %ld", a, mcg_item_name(item),
				      mcg_stat_read_raw(e, m.cg[a], item, MCG_LOCAL), local);
			if (l->kind[item] != MCG_KIND_NODE)
				continue;
			for (int nid = 0; nid < CONS_NODES; nid++) {
				long nhier = 0, nlocal = m.local_node[a][nid][item], nunpub = 0;

				for (int d = 0; d < m.n; d++) {
					if (model_is_ancestor_or_self(&m, a, d)) {
						nhier += m.own_node[d][nid][item];
						nunpub += mcg_stat_unflushed(e, m.cg[d], nid, item,
									     MCG_HIERARCHICAL);
					}
				}
				ck_assert_int_eq(mcg_stat_read_node_raw(e, m.cg[a], nid, item,
									MCG_HIERARCHICAL) + nunpub,
						 nhier);
				ck_assert_int_eq(mcg_stat_read_node_raw(e, m.cg[a], nid, item,
									MCG_LOCAL) +
							 mcg_stat_unflushed(e, m.cg[a], nid, item,
									    MCG_LOCAL),
						 nlocal);
			}
		}
	}
	for (int i = 1; i < m.n; i++)
		mcg_cgroup_put(m.cg[i]);
	g_rand_free(rnd);
	mcg_engine_free(e);
}

/* Every era and every seed's before and after, on both hierarchies. */
static const struct { const char *version, *seed; } cons_kernels[] = {
	{ "5.10", NULL }, { "6.1", NULL }, { "6.12", NULL }, { "7.3", NULL },
	{ NULL, "000:before" }, { NULL, "000:after" }, { NULL, "001:before" },
	{ NULL, "001:after" }, { NULL, "002:before" }, { NULL, "002:after" },
	{ NULL, "003:before" }, { NULL, "003:after" }, { "7.3", "004:before" },
	{ "6.1", "004:after" },
};

/* Loop index: bit 0 hierarchy, bits 1.. the kernel (seed 001's kernel has
 * no v1 hierarchy: that pair is refused, and checked so). */
START_TEST(test_conservation)
{
	unsigned k = (unsigned)_i >> 1;
	struct mcg_kernel kernel;
	const char *why = NULL;

	ck_assert_int_eq(mcg_patch_resolve(cons_kernels[k].version, cons_kernels[k].seed, &kernel,
					    &why), 0);
	if (mcg_kernel_check_hierarchy(&kernel, _i & 1, &why) != 0) {
		ck_assert(!kernel.memcg_v1 && (_i & 1));
		return;
	}
	check_conservation(cons_kernels[k].version, cons_kernels[k].seed,
			   _i & 1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2, 1000 + (unsigned)_i);
}
END_TEST

/* Without destruction, hierarchical = local + children's hierarchical. */
START_TEST(test_local_vs_hierarchical)
{
	struct mcg_engine *e = test_engine_make(3, 2, "7.3", MCG_HIERARCHY_V1, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e);
	struct mcg_cgroup *a = test_cgroup_make(e, root, "a"), *b = test_cgroup_make(e, a, "b"), *c = test_cgroup_make(e, a, "c");
	struct mcg_cgroup *all[] = { root, a, b, c };
	GRand *rnd = g_rand_new_with_seed(7);

	for (int k = 0; k < 3000; k++)
		test_stat_mod(e, g_rand_int_range(rnd, 0, 3), all[g_rand_int_range(rnd, 0, 4)],
		    g_rand_int_range(rnd, 0, 2), MCG_FILE_PAGES, g_rand_int_range(rnd, -2, 9));
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_FILE_PAGES, MCG_HIERARCHICAL),
			 mcg_stat_read_raw(e, a, MCG_FILE_PAGES, MCG_LOCAL) +
				 mcg_stat_read_raw(e, b, MCG_FILE_PAGES, MCG_HIERARCHICAL) +
				 mcg_stat_read_raw(e, c, MCG_FILE_PAGES, MCG_HIERARCHICAL));
	ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_FILE_PAGES, MCG_HIERARCHICAL),
			 mcg_stat_read_raw(e, b, MCG_FILE_PAGES, MCG_LOCAL));
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_FILE_PAGES, MCG_HIERARCHICAL),
			 mcg_stat_read_raw(e, root, MCG_FILE_PAGES, MCG_LOCAL) +
				 mcg_stat_read_raw(e, a, MCG_FILE_PAGES, MCG_HIERARCHICAL));
	for (int nid = 0; nid < 2; nid++)
		ck_assert_int_eq(mcg_stat_read_node_raw(e, a, nid, MCG_FILE_PAGES, MCG_HIERARCHICAL),
				 mcg_stat_read_node_raw(e, a, nid, MCG_FILE_PAGES, MCG_LOCAL) +
					 mcg_stat_read_node_raw(e, b, nid, MCG_FILE_PAGES,
								MCG_HIERARCHICAL) +
					 mcg_stat_read_node_raw(e, c, nid, MCG_FILE_PAGES,
								MCG_HIERARCHICAL));
	/* A negative aggregate reads as 0 through the clamping reader. */
	test_stat_mod(e, 0, c, 0, MCG_SHMEM, -5);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_int_eq(mcg_stat_read_raw(e, c, MCG_SHMEM, MCG_HIERARCHICAL), -5);
	ck_assert_uint_eq(mcg_stat_read(e, c, MCG_SHMEM, MCG_HIERARCHICAL), 0);
	ck_assert_uint_eq(mcg_stat_read_node(e, c, 0, MCG_SHMEM, MCG_HIERARCHICAL), 0);
	mcg_cgroup_put(a);
	mcg_cgroup_put(b);
	mcg_cgroup_put(c);
	g_rand_free(rnd);
	mcg_engine_free(e);
}
END_TEST

/* Updates to a destroyed cgroup land in its nearest live ancestor. */
START_TEST(test_destroyed_redirect)
{
	struct mcg_engine *e = test_engine_make(2, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e);
	struct mcg_cgroup *a = test_cgroup_make(e, root, "a"), *b = test_cgroup_make(e, a, "b");

	test_stat_mod(e, 1, b, 0, MCG_ANON_MAPPED, 10);
	ck_assert_int_eq(mcg_cgroup_destroy(e, b), 0);
	test_stat_mod(e, 0, b, 0, MCG_ANON_MAPPED, 5);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 15);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_LOCAL), 5);
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 15);
	mcg_cgroup_put(b);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* Memory csses (cgroup.c): a cgroup2 child without memory has no css; the
 * first "+memory" makes its own struct the css, a later one a hidden css
 * below the parent's, which starts from nothing while the killed css keeps
 * what was charged to it, dying (nr_dying_memcg) while pinned: before 7.3
 * its local counts stay, in 7.3 they move to the parent at the kill. */
static void css_life_cycle(const char *version)
{
	struct mcg_engine *e = test_engine_make(2, 1, version, MCG_HIERARCHY_V2, NULL);
	bool reparent = mcg_engine_config(e)->kernel.reparent_local;
	struct mcg_cgroup *root = mcg_engine_root(e), *a = test_cgroup_make(e, root, "a");
	struct mcg_cgroup *c, *css, *css2, *d;

	ck_assert_int_eq(mcg_cgroup_create_without_memcg(e, a, "c", &c), 0);
	ck_assert_ptr_null(mcg_cgroup_memcg(e, c));
	ck_assert_int_eq(mcg_memcg_css_kill(e, c), -ENOENT);
	/* a child of a cgroup without a css cannot have one */
	ck_assert_int_eq(mcg_cgroup_create_without_memcg(e, c, "d", &d), 0);
	ck_assert_int_eq(mcg_memcg_css_create(e, d, &css), -ENOENT);
	ck_assert_int_eq(mcg_cgroup_destroy(e, d), 0);
	mcg_cgroup_put(d);

	/* the first css is c itself */
	ck_assert_int_eq(mcg_memcg_css_create(e, c, &css), 0);
	ck_assert_ptr_eq(css, c);
	ck_assert_int_eq(mcg_memcg_css_create(e, c, &css2), -EEXIST);
	ck_assert(mcg_memcg_online(css));
	test_stat_mod(e, 1, css, 0, MCG_ACTIVE_ANON, 10);
	mcg_counter_charge(css, MCG_COUNTER_MEMORY, 10);
	mcg_memcg_css_get(css);			/* a holder of its pages */
	ck_assert_int_eq(mcg_memcg_css_kill(e, c), 0);
	ck_assert(!mcg_memcg_online(css));
	ck_assert(mcg_cgroup_online(c));	/* the cgroup lives on */
	ck_assert_ptr_null(mcg_cgroup_memcg(e, c));
	ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, c), 1);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 1);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 0);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ACTIVE_ANON, MCG_HIERARCHICAL), 10);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ACTIVE_ANON, MCG_LOCAL), reparent ? 10 : 0);
	ck_assert_int_eq(mcg_stat_read_raw(e, css, MCG_ACTIVE_ANON, MCG_LOCAL), reparent ? 0 : 10);

	/* a second css is hidden: below a's css, fresh, not a cgroup */
	ck_assert_int_eq(mcg_memcg_css_create(e, c, &css2), 0);
	ck_assert_ptr_ne(css2, c);
	ck_assert_ptr_eq(mcg_cgroup_parent(css2), a);
	ck_assert_uint_eq(mcg_cgroup_nr_children(e, a), 1);
	ck_assert_uint_eq(mcg_cgroup_nr_descendants(e, root), 2);
	ck_assert_uint_eq(mcg_counter_read(css2, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 0);
	ck_assert_int_eq(mcg_stat_read_raw(e, css2, MCG_ACTIVE_ANON, MCG_HIERARCHICAL), 0);
	test_stat_mod(e, 0, css2, 0, MCG_ACTIVE_ANON, 4);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ACTIVE_ANON, MCG_HIERARCHICAL), 14);
	ck_assert_int_eq(mcg_stat_read_raw(e, css2, MCG_ACTIVE_ANON, MCG_HIERARCHICAL), 4);

	/* the old css is released with its last pin */
	mcg_counter_uncharge(css, MCG_COUNTER_MEMORY, 10);
	mcg_memcg_css_put(css);
	mcg_cgroup_put(css);			/* mcg_memcg_css_create()'s */
	ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 0);

	/* rmdir kills the hidden css; pinned, it keeps the cgroup dying */
	mcg_memcg_css_get(css2);
	ck_assert_int_eq(mcg_cgroup_destroy(e, c), 0);
	ck_assert(!mcg_memcg_online(css2));
	ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 1);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 1);
	ck_assert_uint_eq(mcg_cgroup_nr_descendants(e, root), 1);
	mcg_cgroup_put(c);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 1);
	mcg_memcg_css_put(css2);
	mcg_cgroup_put(css2);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_memcg(e, root), 0);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, root), 0);
	__mcg_memcg_flush_stats(e, root, true);
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_ACTIVE_ANON, MCG_HIERARCHICAL), 14);

	/* a hidden css at teardown goes with the engine */
	ck_assert_int_eq(mcg_cgroup_create_without_memcg(e, a, "g", &c), 0);
	ck_assert_int_eq(mcg_memcg_css_create(e, c, &css), 0);
	ck_assert_int_eq(mcg_memcg_css_kill(e, c), 0);
	mcg_cgroup_put(css);
	ck_assert_int_eq(mcg_memcg_css_create(e, c, &css), 0);
	ck_assert_ptr_ne(css, c);
	mcg_cgroup_put(css);
	mcg_cgroup_put(c);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}

START_TEST(test_memcg_css_life_cycle)
{
	css_life_cycle("6.12");
	css_life_cycle("7.3");
}
END_TEST

/* ---- heuristics ---- */

START_TEST(test_threshold)
{
	struct mcg_engine *e = test_engine_make(2, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e), *a = test_cgroup_make(e, root, "a");
	struct mcg_flush_counters fc;
	const unsigned threshold = BATCH_7_3 * 2;

	/* Exactly at the threshold (published in two full batches): no flush. */
	for (unsigned k = 0; k < threshold; k++)
		test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1);
	ck_assert(!mcg_memcg_needs_flush(e, a));
	mcg_memcg_flush_stats(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.skipped, 1);
	ck_assert_uint_eq(fc.flushes, 0);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 0);

	/* 63 more pages stay in the per-CPU batch: still not published. */
	for (unsigned k = 0; k < BATCH_7_3 - 1; k++)
		test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1);
	ck_assert(!mcg_memcg_needs_flush(e, a));
	/* The 64th completes a batch: over the threshold, the read flushes. */
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1);
	ck_assert(mcg_memcg_needs_flush(e, a));
	ck_assert(mcg_memcg_needs_flush(e, root));
	mcg_memcg_flush_stats(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.flushes, 1);
	ck_assert_uint_eq(fc.forced, 0);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL),
			 threshold + BATCH_7_3);
	/* The flush reset a's count but not the root's, which still needs one
	 * and has a's delta pending. */
	ck_assert(!mcg_memcg_needs_flush(e, a));
	ck_assert(mcg_memcg_needs_flush(e, root));
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 0);
	mcg_memcg_flush_stats(e, root);
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_ANON_MAPPED, MCG_HIERARCHICAL),
			 threshold + BATCH_7_3);

	/* Byte items count in pages toward the threshold, at least one each. */
	for (unsigned k = 0; k < threshold + BATCH_7_3; k++)
		test_stat_mod(e, 1, a, 0, MCG_SLAB_RECLAIMABLE_B, 8);
	ck_assert(mcg_memcg_needs_flush(e, a));
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* A thresholded reader is never behind by more than the threshold plus
 * what each CPU holds in its unpublished batch. */
START_TEST(test_staleness_bound)
{
	enum { CPUS = 4 };
	struct mcg_engine *e = test_engine_make(CPUS, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e), *a = test_cgroup_make(e, root, "a");
	GRand *rnd = g_rand_new_with_seed(3);
	long truth = 0, max_lag = 0;
	const long bound = BATCH_7_3 * CPUS + CPUS * (BATCH_7_3 - 1);

	for (int k = 0; k < 20000; k++) {
		long val = g_rand_int_range(rnd, 1, 4);

		test_stat_mod(e, g_rand_int_range(rnd, 0, CPUS), a, 0, MCG_FILE_PAGES, val);
		truth += val;
		if (k % 13 == 0) {
			long lag;

			mcg_memcg_flush_stats(e, a);
			lag = truth - mcg_stat_read_raw(e, a, MCG_FILE_PAGES, MCG_HIERARCHICAL);
			ck_assert_int_ge(lag, 0);
			ck_assert_int_le(lag, bound);
			if (lag > max_lag)
				max_lag = lag;
		}
	}
	/* The heuristic did let reads go stale: it is not flushing every time. */
	ck_assert_int_gt(max_lag, 0);
	mcg_cgroup_put(a);
	g_rand_free(rnd);
	mcg_engine_free(e);
}
END_TEST

START_TEST(test_periodic_flusher)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_cgroup *a;
	struct mcg_flush_counters fc;
	int waited_ms = 0;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 2;
	cfg.flush_period_ms = 30;
	e = mcg_engine_new(&cfg);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");
	test_stat_mod(e, 1, a, 0, MCG_ANON_MAPPED, 10);
	/* Below the threshold a reader would not flush; the period will. */
	ck_assert(!mcg_memcg_needs_flush(e, a));
	while (mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL) != 10 && waited_ms < 5000) {
		g_usleep(10000);
		waited_ms += 10;
	}
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 10);
	ck_assert_int_eq(mcg_stat_read_raw(e, mcg_engine_root(e), MCG_ANON_MAPPED, MCG_HIERARCHICAL),
			 10);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_ge(fc.periodic, 1);
	ck_assert_uint_ge(fc.forced, 1);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* Right after a root flush the ratelimited variant does nothing, even with
 * the threshold exceeded. */
START_TEST(test_ratelimited)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_cgroup *a;
	struct mcg_flush_counters fc;

	mcg_engine_config_init(&cfg);
	cfg.flush_period_ms = 10000;
	e = mcg_engine_new(&cfg);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	for (int k = 0; k < 10; k++)
		test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, BATCH_7_3);
	ck_assert(mcg_memcg_needs_flush(e, a));
	mcg_memcg_flush_stats_ratelimited(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.flushes, 1);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 0);
	mcg_memcg_flush_stats(e, a);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL),
			 10 * BATCH_7_3);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* A manual clock moves only when told: every periodic flush due on the way
 * runs (two in 4.5 s at a 2 s period), a clock never goes back, and the
 * ratelimited flush waits for two periods without a root flush, in
 * emulated time.  A real clock cannot be set. */
START_TEST(test_manual_clock)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_cgroup *a;
	struct mcg_flush_counters fc;

	mcg_engine_config_init(&cfg);
	cfg.manual_clock = true;
	e = mcg_engine_new(&cfg);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");
	g_usleep(20000);
	ck_assert_uint_eq(mcg_engine_clock_ns(e), 0);
	for (int k = 0; k < 10; k++)
		test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, BATCH_7_3);
	ck_assert_int_eq(mcg_engine_clock_set(e, 1999999999), 0);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.periodic, 0);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 0);
	ck_assert_int_eq(mcg_engine_clock_set(e, 4500000000u), 0);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.periodic, 2);
	ck_assert_uint_eq(mcg_engine_clock_ns(e), 4500000000u);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL),
			 10 * BATCH_7_3);
	ck_assert_int_eq(mcg_engine_clock_set(e, 4499999999u), -EINVAL);
	ck_assert_uint_eq(mcg_engine_clock_ns(e), 4500000000u);
	mcg_cgroup_put(a);
	mcg_engine_free(e);

	/* No periodic flush: the ratelimit's two default periods pass. */
	cfg.flush_period_ms = 0;
	e = mcg_engine_new(&cfg);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");
	for (int k = 0; k < 10; k++)
		test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, BATCH_7_3);
	ck_assert_int_eq(mcg_engine_clock_set(e, 2 * 2000000000u), 0);
	mcg_memcg_flush_stats_ratelimited(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.flushes, 0);
	ck_assert_int_eq(mcg_engine_clock_set(e, 2 * 2000000000u + 1), 0);
	mcg_memcg_flush_stats_ratelimited(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.flushes, 1);
	mcg_cgroup_put(a);
	mcg_engine_free(e);

	cfg.manual_clock = false;
	e = mcg_engine_new(&cfg);
	ck_assert_int_eq(mcg_engine_clock_set(e, 1), -EINVAL);
	mcg_engine_free(e);
}
END_TEST

/* Accuracy on a manual clock, 7.3 at 2 CPUs (threshold 2 x 64 pages):
 * 100 pages of a grandchild b, unflushed, are missing from a's read, 100%
 * of it; the data's age is the time since the flush of a or of an
 * ancestor began (the periodic one at 2 s); the root's flush at 2.5 s
 * makes a's read exact and new.  5.10 has no flush: no age. */
START_TEST(test_accuracy)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	struct mcg_cgroup *a, *b;
	struct mcg_accuracy_sample s;
	struct mcg_accuracy_summary sum;

	mcg_engine_config_init(&cfg);
	cfg.manual_clock = true;
	cfg.nr_cpus = 2;
	e = mcg_engine_new(&cfg);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");
	b = test_cgroup_make(e, a, "b");
	test_stat_mod(e, 1, b, 0, MCG_ANON_MAPPED, 50);
	ck_assert_int_eq(mcg_engine_clock_set(e, 2100000000u), 0);	/* periodic at 2 s */
	test_stat_mod(e, 1, b, 0, MCG_ANON_MAPPED, 100);
	test_stat_mod(e, 0, b, 0, MCG_PGFAULT, 7);
	ck_assert_int_eq(mcg_engine_clock_set(e, 2300000000u), 0);
	mcg_memcg_flush_stats(e, a);	/* under the threshold: no flush */
	mcg_accuracy_measure(e, a, &s);
	ck_assert_double_eq(s.err_pages, 100);
	/* anon 150 exact, 50 shown: 66.7%; pgfault 7 exact, 0 shown: 100%. */
	ck_assert_double_eq(s.err_pct, 100);
	ck_assert_double_eq(s.age_ns, 300000000.0);
	mcg_accuracy_record(e, a);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	ck_assert_int_eq(mcg_engine_clock_set(e, 2500000000u), 0);
	mcg_accuracy_measure(e, a, &s);
	ck_assert_double_eq(s.err_pages, 0);
	ck_assert_double_eq(s.err_pct, 0);
	ck_assert_double_eq(s.age_ns, 200000000.0);
	mcg_accuracy_record(e, a);
	mcg_accuracy_summary(e, &sum);
	ck_assert_uint_eq(sum.reads, 2);
	ck_assert_double_eq(sum.err_pages_max, 100);
	ck_assert_double_eq(sum.err_pages_p50, 0);
	ck_assert_double_eq(sum.age_ns_max, 300000000.0);
	mcg_accuracy_reset(e);
	mcg_accuracy_summary(e, &sum);
	ck_assert_uint_eq(sum.reads, 0);
	ck_assert(isnan(sum.err_pages_max));
	mcg_cgroup_put(b);
	mcg_cgroup_put(a);
	mcg_engine_free(e);

	e = test_engine_make(2, 1, "5.10", MCG_HIERARCHY_V2, NULL);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");
	test_stat_mod(e, 1, a, 0, MCG_ANON_MAPPED, 10);
	mcg_accuracy_measure(e, a, &s);
	ck_assert_double_eq(s.err_pages, 10);	/* in the CPU's batch */
	ck_assert(isnan(s.age_ns));
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* The flush trace, 6.1's global policy at 2 CPUs: a read under the
 * threshold, one that finds a flush running (the trylock), a refault's
 * _delayed() before 2 x FLUSH_TIME, a reclaim flush; nothing while off. */
START_TEST(test_flush_trace)
{
	struct mcg_engine *e = test_engine_make(2, 1, "6.1", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
	GString *out = g_string_new(NULL);
	gchar **lines;

	mcg_memcg_flush_stats(e, a);	/* tracing off: no record */
	mcg_trace_set(e, MCG_TRACE_FLUSHES);
	mcg_trace_reader("memory.stat");
	mcg_memcg_flush_stats(e, a);
	mcg_trace_reader(NULL);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	pthread_mutex_lock(&e->stats_flush_lock);
	mcg_memcg_flush_stats(e, a);
	pthread_mutex_unlock(&e->stats_flush_lock);
	mcg_memcg_flush_for_refault(e, a);
	mcg_memcg_flush_for_reclaim(e, a);
	mcg_trace_set(e, MCG_TRACE_OFF);
	mcg_memcg_flush_stats(e, a);
	mcg_trace_format(e, out);
	lines = g_strsplit(out->str, "\n", -1);
	ck_assert_uint_eq(g_strv_length(lines), 6);	/* header, 4 records, "" */
	ck_assert_str_eq(lines[0], "# tracing off; 4 records, 0 dropped");
	ck_assert_str_eq(strchr(lines[1], ':'), ": memcg_flush_stats: memcg_id=1 stats_updates=0 force=0 "
				   "needs_flush=0 trigger=read file=memory.stat flushed=0 "
				   "reason=below_threshold pairs=0 usec=0.000");
	/* 1000 pages are 1000 / 64 = 15 batches, over 2 CPUs. */
	ck_assert_str_eq(strchr(lines[2], ':'), ": memcg_flush_stats: memcg_id=1 stats_updates=15 force=0 "
				   "needs_flush=1 trigger=kernel file=- flushed=0 reason=trylock "
				   "pairs=0 usec=0.000");
	ck_assert_str_eq(strchr(lines[3], ':'), ": memcg_flush_stats: memcg_id=1 stats_updates=15 force=0 "
				   "needs_flush=1 trigger=refault file=- flushed=0 reason=ratelimited "
				   "pairs=0 usec=0.000");
	ck_assert(g_str_has_prefix(strchr(lines[4], ':'), ": memcg_flush_stats: memcg_id=1 stats_updates=15 "
					     "force=0 needs_flush=1 trigger=reclaim file=- flushed=1 "
					     "reason=- pairs=2 usec="));
	g_strfreev(lines);
	g_string_free(out, TRUE);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* Flush time by initiator and the writer side (memcgfs.flush_stats), on
 * 6.12's shared tree and 7.3's split ones at 2 CPUs: an update links its
 * (cgroup, CPU) node once until a flush unlinks it; cpu.stat's flush of a
 * shared tree folds memcg as a side flush, timed as such; a reader's
 * forced flush is timed as a read.  On 7.3 cpu.stat's flush leaves memory's
 * tree as it was. */
START_TEST(test_flush_initiators_and_links)
{
	const char *version = _i ? "7.3" : "6.12";
	struct mcg_engine *e = test_engine_make(2, 1, version, MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
	struct mcg_flush_counters c0, c1;

	mcg_engine_flush_counters(e, &c0);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1);	/* linked: the fast path */
	test_stat_mod(e, 1, a, 0, MCG_ANON_MAPPED, 1);
	mcg_engine_flush_counters(e, &c1);
	/* one slow path per CPU, which links a's ancestors too */
	ck_assert_uint_eq(c1.memory_links - c0.memory_links, 2);
	ck_assert_uint_eq(c1.links - c0.links, c1.memory_links - c0.memory_links);
	ck_assert_uint_eq(c1.link_waits, 0);

	mcg_cputime_flush(e, a);
	mcg_engine_flush_counters(e, &c0);
	ck_assert_uint_eq(c0.side_flushes - c1.side_flushes, _i ? 0 : 1);
	if (_i)
		ck_assert_uint_eq(c0.trigger_ns[MCG_TRIGGER_SIDE], 0);
	else
		ck_assert_uint_gt(c0.trigger_ns[MCG_TRIGGER_SIDE], 0);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1);
	mcg_engine_flush_counters(e, &c1);
	/* 6.12: the side flush unlinked a, which links again; 7.3: memory's
	 * tree still holds it */
	ck_assert_uint_eq(c1.memory_links - c0.memory_links, _i ? 0 : 1);

	mcg_trace_reader("memory.stat");
	__mcg_memcg_flush_stats(e, a, true);
	mcg_trace_reader(NULL);
	mcg_engine_flush_counters(e, &c0);
	ck_assert_uint_gt(c0.trigger_ns[MCG_TRIGGER_READ], c1.trigger_ns[MCG_TRIGGER_READ]);
	ck_assert_uint_eq(c0.trigger_ns[MCG_TRIGGER_PERIODIC], 0);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* Lock statistics, 6.1 at 2 CPUs: off, nothing counts; on, a flush takes
 * stats_flush_lock (try), cgroup_rstat_lock once (irqsafe: held
 * throughout) and each CPU's cgroup_rstat_cpu_lock; a reader that finds
 * stats_flush_lock held counts a contention without a wait; one that
 * waits for cgroup_rstat_lock, held by another thread for 50 ms, counts a
 * contention and its wait. */
struct hold_arg {
	pthread_mutex_t *lock;
	_Atomic bool held;
};

static void *hold_50ms(void *p)
{
	struct hold_arg *h = p;

	pthread_mutex_lock(h->lock);
	atomic_store(&h->held, true);
	g_usleep(50000);
	pthread_mutex_unlock(h->lock);
	return NULL;
}

static uint64_t lock_stat_field(struct mcg_engine *e, const char *cls, unsigned col)
{
	GString *out = g_string_new(NULL);
	gchar **lines;
	uint64_t v = UINT64_MAX;

	mcg_lock_stat_format(e, out);
	lines = g_strsplit(out->str, "\n", -1);
	for (gchar **l = lines; *l; l++) {
		gchar **f = g_strsplit_set(*l, " ", -1);
		unsigned k = 0;

		if (f[0] && strcmp(f[0], cls) == 0)
			for (gchar **x = f + 1; *x; x++)
				if (**x && ++k == col)
					v = (uint64_t)g_ascii_strtod(*x, NULL);
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_string_free(out, TRUE);
	return v;
}

START_TEST(test_lock_stat)
{
	struct mcg_engine *e = test_engine_make(2, 1, "6.1", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
	struct hold_arg h = { .lock = &e->trees[0].lock };
	pthread_t thr;

	/* columns: contentions, wait max, wait total, acquisitions, ... */
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_stats(e, a);
	ck_assert_uint_eq(lock_stat_field(e, "cgroup_rstat_lock", 4), 0);
	mcg_lock_stat_set(e, true);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	test_stat_mod(e, 1, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_stats(e, a);
	ck_assert_uint_eq(lock_stat_field(e, "stats_flush_lock", 4), 1);
	ck_assert_uint_eq(lock_stat_field(e, "cgroup_rstat_lock", 4), 1);
	/* the two links of the updates, the flush's two CPU passes */
	ck_assert_uint_eq(lock_stat_field(e, "cgroup_rstat_cpu_lock", 4), 4);
	ck_assert_uint_eq(lock_stat_field(e, "cgroup_rstat_lock", 1), 0);

	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	pthread_mutex_lock(&e->stats_flush_lock);
	mcg_memcg_flush_stats(e, a);
	pthread_mutex_unlock(&e->stats_flush_lock);
	ck_assert_uint_eq(lock_stat_field(e, "stats_flush_lock", 1), 1);
	ck_assert_uint_eq(lock_stat_field(e, "stats_flush_lock", 3), 0);

	ck_assert_int_eq(pthread_create(&thr, NULL, hold_50ms, &h), 0);
	while (!atomic_load(&h.held))
		g_usleep(1000);
	mcg_memcg_flush_stats(e, a);
	pthread_join(thr, NULL);
	ck_assert_uint_eq(lock_stat_field(e, "cgroup_rstat_lock", 1), 1);
	/* waited for most of the 50 ms, in usec */
	ck_assert_uint_ge(lock_stat_field(e, "cgroup_rstat_lock", 3), 20000);

	mcg_lock_stat_set(e, false);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_stats(e, a);
	ck_assert_uint_eq(lock_stat_field(e, "cgroup_rstat_lock", 4), 2);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* The rstat lock tracepoints in memcgfs.trace, 6.12 at 2 CPUs: an update
 * that links its cgroup takes the CPU's lock on the fastpath, traced at
 * MCG_TRACE_UPDATERS only, its unlock naming where the walk up stopped;
 * a flush of a
 * takes the tree lock with cpu_in_loop -1, then drops and takes it again
 * after each CPU, whose lock it takes to detach the list
 * (cgroup_rstat_flush(), cgroup_rstat_updated_list()); a flush that finds
 * the tree lock held says so first.  Every line as the kernel's
 * TP_printk() prints it.  6.1 has none of them. */
START_TEST(test_rstat_lock_trace)
{
	struct mcg_engine *e = test_engine_make(2, 1, _i ? "6.1" : "6.12", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
	struct hold_arg h = { .lock = &e->trees[0].lock };
	GString *out = g_string_new(NULL), *want = g_string_new(NULL);
	uint64_t id = mcg_cgroup_id(a);
	pthread_t thr;
	gchar **lines;

	/* at the flushes' level, an updater's lock is not traced */
	mcg_trace_set(e, MCG_TRACE_FLUSHES);
	test_stat_mod(e, 1, a, 0, MCG_ANON_MAPPED, 1);
	mcg_trace_format(e, out);
	ck_assert_ptr_null(strstr(out->str, "fastpath"));
	g_string_truncate(out, 0);
	__mcg_memcg_flush_stats(e, a, true);

	mcg_trace_set(e, MCG_TRACE_UPDATERS);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1);
	__mcg_memcg_flush_stats(e, a, true);
	ck_assert_int_eq(pthread_create(&thr, NULL, hold_50ms, &h), 0);
	while (!atomic_load(&h.held))
		g_usleep(1000);
	__mcg_memcg_flush_stats(e, a, true);
	pthread_join(thr, NULL);
	mcg_trace_set(e, MCG_TRACE_OFF);
	mcg_trace_format(e, out);
	lines = g_strsplit(out->str, "\n", -1);
	for (gchar **l = lines + 1; *l && **l; l++) {
		if (strstr(*l, "cgroup_rstat_"))
			g_string_append_printf(want, "%s\n", strchr(*l, ':') + 2);
		/* the contention is traced before the wait, as the kernel
		 * does: its lock comes most of the 50 ms later */
		if (strstr(*l, "cgroup_rstat_lock_contended"))
			ck_assert_double_ge(g_ascii_strtod(l[1], NULL) - g_ascii_strtod(*l, NULL), 0.02);
	}
	g_strfreev(lines);
	if (_i) {
		ck_assert_str_eq(want->str, "");
		goto out;
	}
	g_string_truncate(out, 0);
	/* the unlock names where the walk up stopped: the root, linked last */
	g_string_append_printf(out,
			       "cgroup_rstat_cpu_locked_fastpath: root=0 id=%" PRIu64 " level=1 cpu=0 lock contended:0\n"
			       "cgroup_rstat_cpu_unlock_fastpath: root=0 id=1 level=0 cpu=0 lock contended:0\n",
			       id);
	for (int flush = 0; flush < 2; flush++) {
		if (flush)
			g_string_append_printf(out, "cgroup_rstat_lock_contended: root=0 id=%" PRIu64
					       " level=1 cpu=-1 lock contended:1\n", id);
		g_string_append_printf(out, "cgroup_rstat_locked: root=0 id=%" PRIu64
				       " level=1 cpu=-1 lock contended:%d\n", id, flush);
		for (int cpu = 0; cpu < 2; cpu++)
			g_string_append_printf(
				out,
				"cgroup_rstat_cpu_locked: root=0 id=%" PRIu64 " level=1 cpu=%d lock contended:0\n"
				"cgroup_rstat_cpu_unlock: root=0 id=%" PRIu64 " level=1 cpu=%d lock contended:0\n"
				"cgroup_rstat_unlock: root=0 id=%" PRIu64 " level=1 cpu=%d lock contended:0\n"
				"cgroup_rstat_locked: root=0 id=%" PRIu64 " level=1 cpu=%d lock contended:0\n",
				id, cpu, id, cpu, id, cpu, id, cpu);
		g_string_append_printf(out, "cgroup_rstat_unlock: root=0 id=%" PRIu64
				       " level=1 cpu=-1 lock contended:0\n", id);
	}
	ck_assert_str_eq(want->str, out->str);
out:
	g_string_free(out, TRUE);
	g_string_free(want, TRUE);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* A flush costs the updated pairs, not the tree: 1000 idle cgroups and 10
 * updated ones on one CPU make 11 visits (the 10 and the root). */
START_TEST(test_flush_visits_only_updated)
{
	struct mcg_engine *e = test_engine_make(4, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e), *cg[1000];
	struct mcg_flush_counters before, after;

	for (int i = 0; i < 1000; i++) {
		char name[16];

		g_snprintf(name, sizeof(name), "cg%d", i);
		cg[i] = test_cgroup_make(e, root, name);
	}
	for (int i = 0; i < 1000; i += 100)
		test_stat_mod(e, 2, cg[i], 0, MCG_ANON_MAPPED, 1);
	mcg_engine_flush_counters(e, &before);
	__mcg_memcg_flush_stats(e, root, true);
	mcg_engine_flush_counters(e, &after);
	ck_assert_uint_eq(after.visited - before.visited, 11);
	/* Each callback was timed, its memcg-wide aggregation within it. */
	ck_assert_uint_gt(after.callback_ns, before.callback_ns);
	ck_assert_uint_gt(after.aggregate_ns, before.aggregate_ns);
	ck_assert_uint_ge(after.callback_ns - before.callback_ns,
			  after.aggregate_ns - before.aggregate_ns);
	/* Nothing changed since: the next flush visits nothing. */
	__mcg_memcg_flush_stats(e, root, true);
	mcg_engine_flush_counters(e, &before);
	ck_assert_uint_eq(before.visited, after.visited);
	for (int i = 0; i < 1000; i++)
		mcg_cgroup_put(cg[i]);
	mcg_engine_free(e);
}
END_TEST

/* ---- eras and seed patches ---- */

static void apply_fixed_workload(struct mcg_engine *e, struct mcg_cgroup **cgs, unsigned ncg)
{
	const struct mcg_layout *l = mcg_engine_layout(e);
	enum mcg_item items[MCG_NR_ITEMS];
	unsigned nr_items = layout_items(l, items);
	GRand *rnd = g_rand_new_with_seed(99);

	for (int k = 0; k < 5000; k++) {
		enum mcg_item item = items[g_rand_int_range(rnd, 0, nr_items)];
		struct mcg_cgroup *cg = cgs[g_rand_int_range(rnd, 0, ncg)];
		unsigned cpu = g_rand_int_range(rnd, 0, 3);
		struct mcg_cpu *c = mcg_engine_cpu(e, cpu);
		unsigned long pages = g_rand_int_range(rnd, 1, 5);

		mcg_cpu_enter(c);
		mcg_stat_mod(c, cg, g_rand_int_range(rnd, 0, 2), item,
			     g_rand_int_range(rnd, 0, 30));
		mcg_cpu_exit(c);
		if (mcg_counter_try_charge(cg, MCG_COUNTER_MEMORY, pages, NULL) && k % 3)
			mcg_counter_uncharge(cg, MCG_COUNTER_MEMORY, pages);
		if (k % 50 == 0)
			mcg_memcg_flush_stats(e, cgs[0]);
	}
	g_rand_free(rnd);
}

/* A seed's before and after print the same values after a forced flush:
 * the patches change costs, not results (5.10's batches aside, which
 * neither seed 003 nor 004 touches). */
START_TEST(test_seed_equivalence)
{
	enum mcg_hierarchy h = _i & 1 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2;
	struct mcg_engine *e[2];
	struct mcg_cgroup *cgs[2][5];
	const struct mcg_layout *l;
	unsigned nr_patches;
	const struct mcg_patch *const *patches = mcg_patch_list(&nr_patches);

	for (unsigned s = 0; s < nr_patches; s++) {
		struct mcg_kernel k;
		const char *why;
		char spec[80];

		g_snprintf(spec, sizeof(spec), "%s:before", patches[s]->name);
		ck_assert_int_eq(mcg_patch_resolve(NULL, spec, &k, &why), 0);
		if (mcg_kernel_check_hierarchy(&k, h == MCG_HIERARCHY_V1, &why) != 0)
			continue;	/* seed 001 has no v1 */
		for (int v = 0; v < 2; v++) {
			g_snprintf(spec, sizeof(spec), "%s:%s", patches[s]->name,
				   v ? "after" : "before");
			e[v] = test_engine_make(3, 2, NULL, h, spec);
			cgs[v][0] = mcg_engine_root(e[v]);
			cgs[v][1] = test_cgroup_make(e[v], cgs[v][0], "a");
			cgs[v][2] = test_cgroup_make(e[v], cgs[v][1], "b");
			cgs[v][3] = test_cgroup_make(e[v], cgs[v][1], "c");
			cgs[v][4] = test_cgroup_make(e[v], cgs[v][0], "d");
			apply_fixed_workload(e[v], cgs[v], 5);
			__mcg_memcg_flush_stats(e[v], cgs[v][0], true);
		}
		l = mcg_engine_layout(e[0]);
		for (int i = 0; i < 5; i++) {
			for (int item = 0; item < MCG_NR_ITEMS; item++) {
				ck_assert_int_eq(mcg_stat_read_raw(e[0], cgs[0][i], item, MCG_HIERARCHICAL),
						 mcg_stat_read_raw(e[1], cgs[1][i], item, MCG_HIERARCHICAL));
				ck_assert_int_eq(mcg_stat_read_raw(e[0], cgs[0][i], item, MCG_LOCAL),
						 mcg_stat_read_raw(e[1], cgs[1][i], item, MCG_LOCAL));
				if (l->kind[item] != MCG_KIND_NODE)
					continue;
				for (int nid = 0; nid < 2; nid++) {
					ck_assert_int_eq(
						mcg_stat_read_node_raw(e[0], cgs[0][i], nid, item, MCG_LOCAL),
						mcg_stat_read_node_raw(e[1], cgs[1][i], nid, item, MCG_LOCAL));
					ck_assert_int_eq(
						mcg_stat_read_node_raw(e[0], cgs[0][i], nid, item,
								       MCG_HIERARCHICAL),
						mcg_stat_read_node_raw(e[1], cgs[1][i], nid, item,
								       MCG_HIERARCHICAL));
				}
			}
			ck_assert_uint_eq(mcg_counter_read(cgs[0][i], MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
					  mcg_counter_read(cgs[1][i], MCG_COUNTER_MEMORY, MCG_FIELD_USAGE));
		}
		for (int v = 0; v < 2; v++) {
			for (int i = 1; i < 5; i++)
				mcg_cgroup_put(cgs[v][i]);
			mcg_engine_free(e[v]);
		}
	}
}
END_TEST

/* 6.1 (seed 000 before): a local value is a sum over the per-CPU counters,
 * current without any flush; 6.1 with the patch needs a flush to see it. */
START_TEST(test_era_6_1_local_percpu_sum)
{
	struct mcg_engine *e0 = test_engine_make(2, 1, NULL, MCG_HIERARCHY_V1, "000:after");
	struct mcg_engine *e1 = test_engine_make(2, 1, NULL, MCG_HIERARCHY_V1, "000:before");
	struct mcg_cgroup *a0 = test_cgroup_make(e0, mcg_engine_root(e0), "a");
	struct mcg_cgroup *a1 = test_cgroup_make(e1, mcg_engine_root(e1), "a");

	ck_assert_str_eq(mcg_engine_config(e1)->kernel.version, "6.1");
	test_stat_mod(e0, 1, a0, 0, MCG_FILE_DIRTY, 7);
	test_stat_mod(e1, 1, a1, 0, MCG_FILE_DIRTY, 7);
	ck_assert_int_eq(mcg_stat_read_raw(e0, a0, MCG_FILE_DIRTY, MCG_LOCAL), 0);
	ck_assert_int_eq(mcg_stat_read_raw(e1, a1, MCG_FILE_DIRTY, MCG_LOCAL), 7);
	ck_assert_int_eq(mcg_stat_read_node_raw(e1, a1, 0, MCG_FILE_DIRTY, MCG_LOCAL), 7);
	mcg_cgroup_put(a0);
	mcg_cgroup_put(a1);
	mcg_engine_free(e0);
	mcg_engine_free(e1);
}
END_TEST

/* Per-CPU copies sit one percpu unit apart, the unit pcpu_build_alloc_info()
 * (mm/percpu.c) picks: 59 pages of first chunk rounded to the 2 MiB atom,
 * cut into the most units that waste at most a third of the CPUs per node
 * group.  This machine's kernel (2 CPUs) prints u1048576. */
START_TEST(test_percpu_unit_size)
{
	static const struct {
		unsigned cpus, nodes;
		size_t unit;
	} cases[] = {
		{ 1, 1, 2u << 20 },   { 2, 1, 1u << 20 },    { 3, 1, 512u << 10 },
		{ 8, 1, 256u << 10 }, { 256, 1, 256u << 10 }, { 6, 2, 512u << 10 },
		{ 64, 4, 256u << 10 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct mcg_engine *e = test_engine_make(cases[i].cpus, cases[i].nodes, NULL,
						   MCG_HIERARCHY_V2, NULL);

		ck_assert_msg(mcg_engine_pcpu_unit_size(e) == cases[i].unit,
			      "%u CPUs, %u nodes: unit %zu, want %zu", cases[i].cpus,
			      cases[i].nodes, mcg_engine_pcpu_unit_size(e), cases[i].unit);
		mcg_engine_free(e);
	}
}
END_TEST

/* Seed 002 on 6.12: with one shared tree a cpu.stat or io.stat flush runs
 * memcg's callback as well, regardless of memcg's threshold. */
START_TEST(test_seed002_shared_tree_side_flush)
{
	for (int shared = 0; shared < 2; shared++) {
		struct mcg_engine *e = test_engine_make(2, 1, NULL, MCG_HIERARCHY_V2,
						   shared ? "002:before" : "002:after");
		struct mcg_cgroup *root = mcg_engine_root(e), *a = test_cgroup_make(e, root, "a");
		struct mcg_cpu *c = mcg_engine_cpu(e, 0);
		struct mcg_flush_counters fc;
		struct mcg_cputime ct;
		struct mcg_iostat io;

		mcg_cpu_enter(c);
		mcg_stat_mod(c, a, 0, MCG_ANON_MAPPED, 3);
		mcg_cputime_account(c, a, MCG_CPUTIME_USER, 5000);
		mcg_cputime_account(c, a, MCG_CPUTIME_NICE, 1000);
		mcg_cputime_account(c, a, MCG_CPUTIME_SYSTEM, 2000);
		mcg_io_account(c, a, 1, MCG_IO_WRITE, 4096);
		mcg_cpu_exit(c);
		ck_assert(!mcg_memcg_needs_flush(e, a));

		mcg_cputime_flush(e, root);
		mcg_cputime_read(root, &ct);
		ck_assert_uint_eq(ct.usage_ns, 8000);
		ck_assert_uint_eq(ct.user_ns, 6000);
		ck_assert_uint_eq(ct.nice_ns, 1000);
		ck_assert_uint_eq(ct.system_ns, 2000);
		mcg_cputime_read(a, &ct);
		ck_assert_uint_eq(ct.usage_ns, 8000);
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL),
				 shared ? 3 : 0);
		mcg_engine_flush_counters(e, &fc);
		ck_assert_uint_eq(fc.side_flushes, shared ? 1 : 0);
		/* a and the root on CPU 0: base, memory and io callbacks on
		 * each when shared, the base one alone otherwise */
		ck_assert_uint_eq(fc.base_flushes, 1);
		ck_assert_uint_eq(fc.base_visited, shared ? 6 : 2);
		ck_assert_uint_eq(fc.visited, shared ? 2 : 0);
		ck_assert(shared ? fc.callback_ns > 0 : fc.callback_ns == 0);
		ck_assert_uint_ge(fc.callback_ns, fc.aggregate_ns);
		ck_assert_uint_eq(fc.io_flushes, 0);

		mcg_io_flush(e, root);
		mcg_io_read(root, 1, &io);
		ck_assert_uint_eq(io.bytes[MCG_IO_WRITE], 4096);
		ck_assert_uint_eq(io.ios[MCG_IO_WRITE], 1);
		mcg_io_read(root, 0, &io);
		ck_assert_uint_eq(io.ios[MCG_IO_WRITE], 0);
		/* the shared tree was flushed by cpu.stat already */
		mcg_engine_flush_counters(e, &fc);
		ck_assert_uint_eq(fc.io_flushes, 1);
		ck_assert_uint_eq(fc.io_visited, shared ? 0 : 2);
		ck_assert_uint_eq(fc.side_flushes, shared ? 2 : 0);
		mcg_cgroup_put(a);
		mcg_engine_free(e);
	}
}
END_TEST

/* Seed 004: before, the shared css reference count takes one per page
 * charged (stock or no stock) and gives one per page uncharged, and a
 * charge that fails gives its reference back; after, no reference. */
START_TEST(test_seed004_css_ref)
{
	for (int on = 0; on < 2; on++) {
		struct mcg_engine *e = test_engine_make(1, 1, NULL, MCG_HIERARCHY_V2,
						   on ? "004:before" : "004:after");
		struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
		struct mcg_cpu *c = mcg_engine_cpu(e, 0);
		struct mcg_cgroup *over;
		enum mcg_counter limited;

		mcg_cpu_enter(c);
		ck_assert(mcg_memcg_try_charge(c, a, 5, false, &over, &limited, NULL));
		ck_assert(mcg_memcg_try_charge(c, a, 2, false, &over, &limited, NULL));
		ck_assert_int_eq(mcg_cgroup_css_refs(a), on ? 7 : 0);
		/* Over max: refused, and the reference goes back. */
		ck_assert_int_eq(mcg_counter_set_max(a, MCG_COUNTER_MEMORY, 100), 0);
		ck_assert_int_eq(mcg_memcg_try_charge(c, a, 1000, false, &over, &limited, NULL),
				 MCG_CHARGE_FAILED);
		mcg_cpu_exit(c);
		ck_assert_int_eq(mcg_cgroup_css_refs(a), on ? 7 : 0);
		mcg_memcg_uncharge(a, 3, false);
		ck_assert_int_eq(mcg_cgroup_css_refs(a), on ? 4 : 0);
		/* Only memory charges pin the css. */
		mcg_counter_charge(a, MCG_COUNTER_SWAP, 2);
		ck_assert_int_eq(mcg_cgroup_css_refs(a), on ? 4 : 0);
		mcg_cgroup_put(a);
		mcg_engine_free(e);
	}
}
END_TEST

/* The charge stock (consume_stock(), refill_stock(), drain_stock()): 5.10
 * charges a batch of 32 and keeps the rest on the CPU, serves the next
 * charges from it without touching the counters, uncharges straight to
 * the counters, gives the stock back when another memcg's charge replaces
 * it, or when asked; a batch that does not fit under a limit becomes an
 * exact charge.  7.3 keeps 7 memcgs per CPU. */
START_TEST(test_charge_stock)
{
	struct mcg_engine *e = test_engine_make(2, 1, "5.10", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e);
	struct mcg_cgroup *a = test_cgroup_make(e, root, "a"), *b = test_cgroup_make(e, root, "b");
	struct mcg_cpu *c0 = mcg_engine_cpu(e, 0), *c1 = mcg_engine_cpu(e, 1);
	struct mcg_cgroup *over = NULL;
	enum mcg_counter limited;

	mcg_cpu_enter(c0);
	ck_assert(mcg_memcg_try_charge(c0, a, 5, false, &over, &limited, NULL));
	mcg_cpu_exit(c0);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 32);
	ck_assert_uint_eq(mcg_counter_read(root, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 32);
	ck_assert_uint_eq(mcg_memcg_stocked(e, a, false), 27);
	mcg_cpu_enter(c0);
	ck_assert(mcg_memcg_try_charge(c0, a, 27, false, &over, &limited, NULL));	/* from the stock */
	mcg_cpu_exit(c0);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 32);
	ck_assert_uint_eq(mcg_memcg_stocked(e, a, false), 0);
	mcg_memcg_uncharge(a, 10, false);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 22);

	/* b's charge on CPU 0 replaces a in the one-memcg stock. */
	mcg_cpu_enter(c0);
	ck_assert(mcg_memcg_try_charge(c0, a, 1, false, &over, &limited, NULL));
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 54);
	ck_assert(mcg_memcg_try_charge(c0, b, 1, false, &over, &limited, NULL));
	mcg_cpu_exit(c0);
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 23);
	ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 32);

	/* Under a limit the batch shrinks to the charge. */
	ck_assert_int_eq(mcg_counter_set_max(a, MCG_COUNTER_MEMORY, 30), 0);
	mcg_cpu_enter(c1);
	ck_assert(mcg_memcg_try_charge(c1, a, 4, false, &over, &limited, NULL));
	ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 27);
	ck_assert(!mcg_memcg_try_charge(c1, a, 4, false, &over, &limited, NULL));
	ck_assert_ptr_eq(over, a);
	ck_assert_int_eq(limited, MCG_COUNTER_MEMORY);
	/* A drain from inside a CPU: its own stock now, the others' later. */
	mcg_memcg_drain_all_stock(e, c1, root);
	mcg_cpu_exit(c1);
	ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 32);
	ck_assert_uint_eq(mcg_memcg_stocked(e, root, false), 0);	/* CPU 0 drained on enter */
	ck_assert_uint_eq(mcg_counter_read(b, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 1);
	/* Only the CPUs whose stock holds the subtree drain: CPU 0's stock
	 * of b outlives a drain of a's, and of a's and d's asked before its
	 * next enter; one of b's drains it. */
	{
		struct mcg_cgroup *d = test_cgroup_make(e, root, "d");

		mcg_cpu_enter(c0);
		ck_assert(mcg_memcg_try_charge(c0, b, 1, false, &over, &limited, NULL));
		mcg_cpu_exit(c0);
		ck_assert_uint_eq(mcg_memcg_stocked(e, b, false), 31);
		mcg_cpu_enter(c1);
		mcg_memcg_drain_all_stock(e, c1, a);
		mcg_cpu_exit(c1);
		ck_assert_uint_eq(mcg_memcg_stocked(e, b, false), 31);
		mcg_cpu_enter(c1);
		mcg_memcg_drain_all_stock(e, c1, a);
		mcg_memcg_drain_all_stock(e, c1, d);
		mcg_cpu_exit(c1);
		ck_assert_uint_eq(mcg_memcg_stocked(e, b, false), 31);
		mcg_cpu_enter(c1);
		mcg_memcg_drain_all_stock(e, c1, d);
		mcg_memcg_drain_all_stock(e, c1, b);
		mcg_cpu_exit(c1);
		ck_assert_uint_eq(mcg_memcg_stocked(e, b, false), 0);
		mcg_cgroup_put(d);
	}
	mcg_cgroup_put(a);
	mcg_cgroup_put(b);
	mcg_engine_free(e);

	/* 7.3: seven memcgs share a CPU's stock. */
	e = test_engine_make(1, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	{
		struct mcg_cgroup *cg[8];
		struct mcg_cpu *c = mcg_engine_cpu(e, 0);

		for (int i = 0; i < 8; i++) {
			char name[8];

			g_snprintf(name, sizeof(name), "c%d", i);
			cg[i] = test_cgroup_make(e, mcg_engine_root(e), name);
		}
		mcg_cpu_enter(c);
		for (int i = 0; i < 7; i++)
			ck_assert(mcg_memcg_try_charge(c, cg[i], 1, false, &over, &limited, NULL));
		mcg_cpu_exit(c);
		ck_assert_uint_eq(mcg_memcg_stocked(e, mcg_engine_root(e), false), 7 * 63);
		/* The eighth evicts the first slot, round robin. */
		mcg_cpu_enter(c);
		ck_assert(mcg_memcg_try_charge(c, cg[7], 1, false, &over, &limited, NULL));
		mcg_cpu_exit(c);
		ck_assert_uint_eq(mcg_counter_read(cg[0], MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 1);
		ck_assert_uint_eq(mcg_counter_read(cg[1], MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 64);
		mcg_memcg_drain_all_stock(e, NULL, mcg_engine_root(e));
		ck_assert_uint_eq(mcg_memcg_stocked(e, mcg_engine_root(e), false), 0);
		ck_assert_uint_eq(mcg_counter_read(mcg_engine_root(e), MCG_COUNTER_MEMORY,
						   MCG_FIELD_USAGE), 8);
		for (int i = 0; i < 8; i++)
			mcg_cgroup_put(cg[i]);
	}
	mcg_engine_free(e);
}
END_TEST

/* Kernel memory freed goes back through the freeing CPU's stock
 * (obj_cgroup_uncharge_pages() calls refill_stock()), not straight to the
 * counters as a user page's uncharge does: memory.current lags the free by
 * up to a batch, and a stock over the batch drains.  6.12's one-memcg stock
 * takes any refill and drains past 64; 7.3's uint8_t stock sends a refill
 * over the batch straight to the counters. */
START_TEST(test_charge_kmem_uncharge_refills_stock)
{
	static const char *const kernels[] = { "6.12", "7.3" };

	for (unsigned k = 0; k < G_N_ELEMENTS(kernels); k++) {
		struct mcg_engine *e = test_engine_make(1, 1, kernels[k], MCG_HIERARCHY_V2, NULL);
		struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
		struct mcg_cpu *c = mcg_engine_cpu(e, 0);
		struct mcg_cgroup *over = NULL;
		enum mcg_counter limited;

		mcg_cpu_enter(c);
		ck_assert(mcg_memcg_try_charge(c, a, 200, false, &over, &limited, NULL));
		mcg_cpu_exit(c);
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 200);
		ck_assert_uint_eq(mcg_memcg_stocked(e, a, false), 0);

		/* 10 pages of slab freed: into the stock, usage unchanged. */
		mcg_cpu_enter(c);
		mcg_memcg_uncharge_kmem(c, a, 10, false);
		mcg_cpu_exit(c);
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 200);
		ck_assert_uint_eq(mcg_memcg_stocked(e, a, false), 10);

		/* 60 more: the stock passes the batch of 64 and drains. */
		mcg_cpu_enter(c);
		mcg_memcg_uncharge_kmem(c, a, 60, false);
		mcg_cpu_exit(c);
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 130);
		ck_assert_uint_eq(mcg_memcg_stocked(e, a, false), 0);

		/* A refill of 100 at once, with 5 in the stock. */
		mcg_cpu_enter(c);
		mcg_memcg_uncharge_kmem(c, a, 5, false);
		mcg_memcg_uncharge_kmem(c, a, 100, false);
		mcg_cpu_exit(c);
		if (k == 0) {	/* 6.12: into the stock, which drains whole */
			ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
					  25);
			ck_assert_uint_eq(mcg_memcg_stocked(e, a, false), 0);
		} else {	/* 7.3: straight to the counters, the stock kept */
			ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE),
					  30);
			ck_assert_uint_eq(mcg_memcg_stocked(e, a, false), 5);
		}
		mcg_memcg_drain_all_stock(e, NULL, mcg_engine_root(e));
		ck_assert_uint_eq(mcg_counter_read(a, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 25);
		mcg_cgroup_put(a);
		mcg_engine_free(e);
	}
}
END_TEST

/* 5.10: an update fills the CPU's batch; the batch that passes
 * MEBATCH_7_3 goes to the atomic of the memcg and of every ancestor
 * at once, and to the memcg-wide local, while the lruvec local takes every
 * change.  Nothing is flushed, ever. */
START_TEST(test_era_5_10_batch_overflow)
{
	struct mcg_engine *e = test_engine_make(2, 1, "5.10", MCG_HIERARCHY_V1, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e);
	struct mcg_cgroup *a = test_cgroup_make(e, root, "a");
	struct mcg_cgroup *b = test_cgroup_make(e, a, "b");
	struct mcg_cgroup *c = test_cgroup_make(e, b, "c");
	struct mcg_cgroup *chain[] = { root, a, b, c };
	struct mcg_flush_counters fc;

	/* 5.10's MEMCG_CHARGE_BATCH is 32: a batch of exactly 32 stays. */
	ck_assert_uint_eq(mcg_engine_config(e)->kernel.charge_batch, 32);
	test_stat_mod(e, 1, c, 0, MCG_FILE_PAGES, 32);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(mcg_stat_read_raw(e, chain[i], MCG_FILE_PAGES, MCG_HIERARCHICAL), 0);
	ck_assert_int_eq(mcg_stat_read_raw(e, c, MCG_FILE_PAGES, MCG_LOCAL), 0);
	ck_assert_int_eq(mcg_stat_read_node_raw(e, c, 0, MCG_FILE_PAGES, MCG_LOCAL), 32);
	ck_assert_int_eq(mcg_stat_unflushed(e, c, -1, MCG_FILE_PAGES, MCG_HIERARCHICAL), 32);
	ck_assert(!mcg_memcg_needs_flush(e, root));

	test_stat_mod(e, 1, c, 0, MCG_FILE_PAGES, 1);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(mcg_stat_read_raw(e, chain[i], MCG_FILE_PAGES, MCG_HIERARCHICAL), 33);
		ck_assert_int_eq(mcg_stat_read_node_raw(e, chain[i], 0, MCG_FILE_PAGES,
							MCG_HIERARCHICAL), 33);
	}
	ck_assert_int_eq(mcg_stat_read_raw(e, c, MCG_FILE_PAGES, MCG_LOCAL), 33);
	ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_FILE_PAGES, MCG_LOCAL), 0);
	ck_assert_int_eq(mcg_stat_unflushed(e, c, -1, MCG_FILE_PAGES, MCG_HIERARCHICAL), 0);

	/* A batch on another CPU stays there until the memcg is freed
	 * (mem_cgroup_free(), not offline): a dying memcg still takes
	 * updates. */
	test_stat_mod(e, 0, c, 0, MCG_FILE_PAGES, 5);
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_FILE_PAGES, MCG_HIERARCHICAL), 33);
	ck_assert_int_eq(mcg_cgroup_destroy(e, c), 0);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, a), 1);
	test_stat_mod(e, 0, c, 0, MCG_FILE_PAGES, 2);
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_FILE_PAGES, MCG_HIERARCHICAL), 33);
	ck_assert_int_eq(mcg_stat_unflushed(e, c, -1, MCG_FILE_PAGES, MCG_HIERARCHICAL), 7);
	mcg_cgroup_put(c);
	ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, a), 0);
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_FILE_PAGES, MCG_HIERARCHICAL), 40);
	ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_FILE_PAGES, MCG_HIERARCHICAL), 40);
	/* Its locals went with it (no reparenting before 7.x). */
	ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_FILE_PAGES, MCG_LOCAL), 0);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.flushes, 0);
	ck_assert_uint_eq(fc.visited, 0);
	mcg_cgroup_put(b);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* 6.1: one global threshold, so updates in a make a reader of an unrelated
 * b flush, and the flush is of the whole root; a reader that finds a flush
 * running skips it.  6.12 thresholds per memcg. */
START_TEST(test_era_6_1_global_flush)
{
	struct mcg_engine *e = test_engine_make(2, 1, "6.1", MCG_HIERARCHY_V2, NULL);
	struct mcg_engine *e12 = test_engine_make(2, 1, "6.12", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e);
	struct mcg_cgroup *a = test_cgroup_make(e, root, "a");
	struct mcg_cgroup *b = test_cgroup_make(e, root, "b");
	struct mcg_cgroup *a12 = test_cgroup_make(e12, mcg_engine_root(e12), "a");
	struct mcg_cgroup *b12 = test_cgroup_make(e12, mcg_engine_root(e12), "b");
	struct mcg_flush_counters fc;

	/* 64 pages add nothing (x > MEBATCH_7_3 is needed); 200 more
	 * add 264 / 64 = 4 > nr_cpus. */
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 64);
	ck_assert(!mcg_memcg_needs_flush(e, b));
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 200);
	ck_assert(mcg_memcg_needs_flush(e, b));
	test_stat_mod(e12, 0, a12, 0, MCG_ANON_MAPPED, 264);
	ck_assert(!mcg_memcg_needs_flush(e12, b12));
	ck_assert(mcg_memcg_needs_flush(e12, a12));

	/* A flush running elsewhere: the reader goes away empty-handed. */
	pthread_mutex_lock(&e->stats_flush_lock);
	mcg_memcg_flush_stats(e, b);
	pthread_mutex_unlock(&e->stats_flush_lock);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.flushes, 0);
	ck_assert_uint_eq(fc.skipped, 1);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 0);

	/* b's reader flushes the root: a's update shows, the threshold resets. */
	mcg_memcg_flush_stats(e, b);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.flushes, 1);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 264);
	ck_assert_int_eq(mcg_stat_read_raw(e, root, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 264);
	ck_assert(!mcg_memcg_needs_flush(e, b));

	mcg_cgroup_put(a);
	mcg_cgroup_put(b);
	mcg_cgroup_put(a12);
	mcg_cgroup_put(b12);
	mcg_engine_free(e);
	mcg_engine_free(e12);
}
END_TEST

/* Reclaim's flush per release as Debian builds it: 6.1's (classic LRU) is
 * the thresholded global flush, 6.12's none (the multi-gen LRU), 5.10 has
 * none; refault's is 6.1's _delayed, which waits 2 x FLUSH_TIME.  Both
 * LRUs of each: test_lru_gen_reclaim_refault_flush. */
START_TEST(test_era_reclaim_refault_flush)
{
	static const char *const versions[] = { "5.10", "6.1", "6.12" };
	static const unsigned reclaim_flushes[] = { 0, 1, 0 };

	for (unsigned v = 0; v < G_N_ELEMENTS(versions); v++) {
		struct mcg_engine *e = test_engine_make(2, 1, versions[v], MCG_HIERARCHY_V2, NULL);
		struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
		struct mcg_flush_counters fc;

		test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
		mcg_memcg_flush_for_refault(e, a);
		mcg_engine_flush_counters(e, &fc);
		ck_assert_uint_eq(fc.flushes, 0);
		mcg_memcg_flush_for_reclaim(e, a);
		mcg_engine_flush_counters(e, &fc);
		ck_assert_msg(fc.flushes == reclaim_flushes[v], "%s: %lu reclaim flushes",
			      versions[v], (unsigned long)fc.flushes);
		ck_assert_uint_eq(fc.reclaim, reclaim_flushes[v]);
		ck_assert_uint_eq(fc.refault, 0);
		mcg_cgroup_put(a);
		mcg_engine_free(e);
	}
}
END_TEST

/* The knobs of "memcg: flush stats only if updated" (5.15 -> 5.16), through
 * the patch's two kernels: before, nothing counts and every request
 * flushes the root, refault and reclaim alike; after, each update counts
 * one, whatever its size, and a request flushes once more than nr_cpus
 * batches of MEMCG_CHARGE_BATCH (32) updates were counted.  And
 * flush_threshold_pct scales the threshold. */
START_TEST(test_flush_count_knobs)
{
	struct mcg_engine *b = test_engine_make(2, 1, NULL, MCG_HIERARCHY_V1,
						"flush-only-if-updated:before");
	struct mcg_engine *a = test_engine_make(2, 1, NULL, MCG_HIERARCHY_V1,
						"flush-only-if-updated");
	struct mcg_cgroup *bm = test_cgroup_make(b, mcg_engine_root(b), "m");
	struct mcg_cgroup *am = test_cgroup_make(a, mcg_engine_root(a), "m");
	struct mcg_flush_counters fc;
	struct mcg_kernel k;
	const char *why;

	/* Before: no update at all, and still every call flushes. */
	ck_assert(mcg_memcg_needs_flush(b, bm));
	mcg_memcg_flush_for_refault(b, bm);
	mcg_memcg_flush_for_refault(b, bm);
	mcg_memcg_flush_for_reclaim(b, bm);
	mcg_engine_flush_counters(b, &fc);
	ck_assert_uint_eq(fc.flushes, 3);
	ck_assert_uint_eq(fc.refault, 2);
	ck_assert_uint_eq(fc.reclaim, 1);

	/* After: 3 x 32 updates of 1000 pages each are 3 batches, one over
	 * the 2 CPUs: the 95th update leaves it at 2, not over. */
	for (unsigned i = 0; i < 95; i++)
		test_stat_mod(a, 0, am, 0, MCG_ANON_MAPPED, 1000);
	ck_assert(!mcg_memcg_needs_flush(a, am));
	mcg_memcg_flush_for_refault(a, am);
	mcg_engine_flush_counters(a, &fc);
	ck_assert_uint_eq(fc.flushes, 0);
	ck_assert_uint_eq(fc.skipped, 1);
	test_stat_mod(a, 0, am, 0, MCG_ANON_MAPPED, 1);
	ck_assert(mcg_memcg_needs_flush(a, am));
	mcg_memcg_flush_for_refault(a, am);
	mcg_engine_flush_counters(a, &fc);
	ck_assert_uint_eq(fc.refault, 1);
	ck_assert_int_eq(mcg_stat_read_raw(a, am, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 95001);
	ck_assert(!mcg_memcg_needs_flush(a, am));

	/* Twice the threshold: 4 batches are not over 2 x 2 CPUs, 5 are. */
	ck_assert_int_eq(mcg_patch_resolve(NULL, "flush-only-if-updated", &k, &why), 0);
	ck_assert_int_eq(k.charge_batch, 32);
	ck_assert_int_eq(k.flush_count, MCG_COUNT_EVENTS);
	mcg_cgroup_put(am);
	mcg_engine_free(a);
	{
		struct mcg_engine_config cfg;

		mcg_engine_config_init(&cfg);
		cfg.nr_cpus = 2;
		cfg.hierarchy = MCG_HIERARCHY_V1;
		cfg.flush_period_ms = 0;
		cfg.kernel = k;
		cfg.kernel.flush_threshold_pct = 200;
		a = mcg_engine_new(&cfg);
		ck_assert_ptr_nonnull(a);
	}
	am = test_cgroup_make(a, mcg_engine_root(a), "m");
	for (unsigned i = 0; i < 4 * 32; i++)
		test_stat_mod(a, 1, am, 0, MCG_ANON_MAPPED, 1);
	ck_assert(!mcg_memcg_needs_flush(a, am));
	for (unsigned i = 0; i < 32; i++)
		test_stat_mod(a, 1, am, 0, MCG_ANON_MAPPED, 1);
	ck_assert(mcg_memcg_needs_flush(a, am));

	mcg_cgroup_put(am);
	mcg_cgroup_put(bm);
	mcg_engine_free(a);
	mcg_engine_free(b);

	/* Half the per-memcg threshold of 7.3 at 2 CPUs: 64 pages, not 128. */
	ck_assert_int_eq(mcg_patch_resolve("7.3", NULL, &k, &why), 0);
	{
		struct mcg_engine_config cfg;

		mcg_engine_config_init(&cfg);
		cfg.nr_cpus = 2;
		cfg.flush_period_ms = 0;
		cfg.kernel = k;
		cfg.kernel.flush_threshold_pct = 50;
		a = mcg_engine_new(&cfg);
		ck_assert_ptr_nonnull(a);
	}
	am = test_cgroup_make(a, mcg_engine_root(a), "m");
	test_stat_mod(a, 0, am, 0, MCG_ANON_MAPPED, 64);
	ck_assert(!mcg_memcg_needs_flush(a, am));
	test_stat_mod(a, 1, am, 0, MCG_ANON_MAPPED, 64);
	ck_assert(mcg_memcg_needs_flush(a, am));
	mcg_cgroup_put(am);
	mcg_engine_free(a);
}
END_TEST

static void count_one(struct mcg_cgroup *cg, void *arg)
{
	(void)cg;
	(*(unsigned *)arg)++;
}

/* A dying memcg, v1: in 6.1 (and 6.12, 5.10) updates still land in it and its
 * local counts stay with it, so the parent's local is untouched; 7.3
 * redirects state updates to the parent and moves the v1 stats there, but
 * events stay with the dying memcg. */
START_TEST(test_era_dying_memcg)
{
	for (int v = 0; v < 2; v++) {
		bool v73 = v == 1;
		struct mcg_engine *e = test_engine_make(2, 1, v73 ? "7.3" : "6.1", MCG_HIERARCHY_V1, NULL);
		struct mcg_cgroup *a = test_cgroup_make(e, mcg_engine_root(e), "a");
		struct mcg_cgroup *b = test_cgroup_make(e, a, "b");

		test_stat_mod(e, 0, a, 0, MCG_FILE_PAGES, 10);
		test_stat_mod(e, 1, b, 0, MCG_FILE_PAGES, 1000);
		test_stat_mod(e, 1, b, 0, MCG_INACTIVE_FILE, 1000);
		test_stat_mod(e, 1, b, 0, MCG_PGFAULT, 1000);
		ck_assert_int_eq(mcg_cgroup_destroy(e, b), 0);
		ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, a), 1);
		/* The pages are freed, through the dead memcg. */
		test_stat_mod(e, 1, b, 0, MCG_FILE_PAGES, -1000);
		test_stat_mod(e, 1, b, 0, MCG_INACTIVE_FILE, -1000);
		test_stat_mod(e, 1, b, 0, MCG_PGFAULT, 5);
		__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);

		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_FILE_PAGES, MCG_LOCAL), 10);
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_FILE_PAGES, MCG_HIERARCHICAL), 10);
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_INACTIVE_FILE, MCG_LOCAL), 0);
		ck_assert_int_eq(mcg_stat_read_node_raw(e, a, 0, MCG_INACTIVE_FILE, MCG_LOCAL), 0);
		/* Events: never reparented, never redirected. */
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_PGFAULT, MCG_LOCAL), 0);
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_PGFAULT, MCG_HIERARCHICAL), 1005);
		ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_PGFAULT, MCG_LOCAL), 1005);
		/* The dying memcg's own local view: 6.1 saw the frees, 7.3
		 * handed its counts over and then saw nothing. */
		ck_assert_int_eq(mcg_stat_read_raw(e, b, MCG_FILE_PAGES, MCG_LOCAL), 0);
		/* mem_cgroup_iter() still visits it. */
		{
			unsigned n = 0;

			mcg_cgroup_walk(e, mcg_engine_root(e), count_one, &n);
			ck_assert_uint_eq(n, 3);
			mcg_cgroup_put(b);
			n = 0;
			mcg_cgroup_walk(e, mcg_engine_root(e), count_one, &n);
			ck_assert_uint_eq(n, 2);
		}
		ck_assert_uint_eq(mcg_cgroup_nr_dying_descendants(e, a), 0);
		ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_PGFAULT, MCG_HIERARCHICAL), 1005);
		mcg_cgroup_put(a);
		mcg_engine_free(e);
	}
}
END_TEST

struct lock_probe {
	struct rstat_tree *t;
	struct rstat_node *n;
	_Atomic int done;
};

static void *probe_update(void *arg)
{
	struct lock_probe *p = arg;

	rstat_updated(p->t, p->n, 1);
	atomic_store(&p->done, 1);
	return NULL;
}

/* The updaters: 6.12's (locked) waits for the CPU's lock to link a node off
 * the tree and does not touch it for a node already linked; 7.3's (llist)
 * never takes it. */
START_TEST(test_rstat_updater_cpu_lock)
{
	enum mcg_rstat_updater u = _i ? MCG_UPDATER_LOCKED : MCG_UPDATER_LLIST;
	struct rstat_node_cpu cpus[2][2];
	struct rstat_node nodes[2];
	struct rstat_tree t;
	struct lock_probe p = { &t, &nodes[1], 0 };
	pthread_t th;

	ck_assert_int_eq(rstat_tree_init(&t, 2, u, MCG_WALK_DETACH_LIST), 0);
	rstat_node_init(&nodes[0], NULL, NULL, cpus[0], sizeof(struct rstat_node_cpu), 2);
	rstat_node_init(&nodes[1], &nodes[0], NULL, cpus[1], sizeof(struct rstat_node_cpu), 2);

	pthread_mutex_lock(&t.lhead[1].cpu_lock);
	pthread_create(&th, NULL, probe_update, &p);
	usleep(100 * 1000);
	ck_assert_int_eq(atomic_load(&p.done), u == MCG_UPDATER_LLIST);
	pthread_mutex_unlock(&t.lhead[1].cpu_lock);
	pthread_join(th, NULL);
	ck_assert_int_eq(atomic_load(&p.done), 1);
	if (u == MCG_UPDATER_LOCKED) {
		/* Linked now, with its parent; a second update returns on the
		 * racy test even with the lock held (or this would hang). */
		ck_assert_ptr_eq(rstat_next(rstat_node_cpu(&nodes[1], 1)), &nodes[0]);
		ck_assert_ptr_eq(rstat_next(rstat_node_cpu(&nodes[0], 1)), &nodes[0]);
		pthread_mutex_lock(&t.lhead[1].cpu_lock);
		rstat_updated(&t, &nodes[1], 1);
		pthread_mutex_unlock(&t.lhead[1].cpu_lock);
	}
	ck_assert_uint_eq(rstat_flush(&t, &nodes[0], false), 2);
	rstat_tree_destroy(&t);
}
END_TEST

static void probe_cpu_lock(void *owner, unsigned cpu, void *arg)
{
	struct rstat_tree *t = arg;
	int *held = owner;

	/* Owners are ints: 1 if the CPU's lock was held during the callback. */
	if (pthread_mutex_trylock(&t->lhead[cpu].cpu_lock) == 0) {
		pthread_mutex_unlock(&t->lhead[cpu].cpu_lock);
		*held = 0;
	} else {
		*held = 1;
	}
}

/* The walks: 6.1's pop walk runs the callbacks under the CPU's lock, 6.12's
 * detached list runs them without it. */
START_TEST(test_rstat_walk_cpu_lock)
{
	enum mcg_rstat_walk w = _i ? MCG_WALK_POP_LOCKED : MCG_WALK_DETACH_LIST;
	struct rstat_node_cpu cpus[2][1];
	struct rstat_node nodes[2];
	int held[2] = { -1, -1 };
	struct rstat_tree t;

	ck_assert_int_eq(rstat_tree_init(&t, 1, MCG_UPDATER_LOCKED, w), 0);
	rstat_tree_add_callback(&t, probe_cpu_lock, &t);
	rstat_node_init(&nodes[0], NULL, &held[0], cpus[0], sizeof(struct rstat_node_cpu), 1);
	rstat_node_init(&nodes[1], &nodes[0], &held[1], cpus[1], sizeof(struct rstat_node_cpu),
			1);
	rstat_updated(&t, &nodes[1], 0);
	ck_assert_uint_eq(rstat_flush(&t, &nodes[0], false), 2);
	ck_assert_int_eq(held[0], w == MCG_WALK_POP_LOCKED);
	ck_assert_int_eq(held[1], w == MCG_WALK_POP_LOCKED);
	rstat_tree_destroy(&t);
}
END_TEST

/* Each seed implies its base era, refuses another, and changes only what
 * its patch changes. */
START_TEST(test_kernel_resolve)
{
	struct mcg_kernel k, base;
	const char *why = NULL;

	ck_assert_int_eq(mcg_patch_resolve(NULL, NULL, &k, &why), 0);
	ck_assert_str_eq(k.version, "7.3");
	ck_assert_ptr_null(k.patch);
	ck_assert_int_eq(mcg_patch_resolve("6.1", NULL, &k, &why), 0);
	ck_assert_int_eq(k.flush, MCG_FLUSH_GLOBAL);
	ck_assert_int_eq(k.local, MCG_LOCAL_PERCPU_SUM);

	ck_assert_int_eq(mcg_patch_resolve(NULL, "000:after", &k, &why), 0);
	ck_assert_int_eq(mcg_patch_resolve("6.1", NULL, &base, &why), 0);
	ck_assert_str_eq(k.version, "6.1");
	ck_assert(k.patch == mcg_patch_get("seed000") && k.patch_after);
	ck_assert(k.patch == mcg_patch_get("000"));
	ck_assert_int_eq(k.local, MCG_LOCAL_FLUSHED);
	k.local = base.local;
	k.patch = NULL;
	k.patch_after = false;
	ck_assert_int_eq(memcmp(&k, &base, sizeof(k)), 0);

	ck_assert_int_eq(mcg_patch_resolve(NULL, "002:before", &k, &why), 0);
	ck_assert_str_eq(k.version, "6.12");
	ck_assert(!k.split_trees);
	ck_assert_int_eq(mcg_patch_resolve(NULL, "002:after", &k, &why), 0);
	ck_assert(k.split_trees && k.updater == MCG_UPDATER_LOCKED);
	ck_assert_int_eq(mcg_patch_resolve(NULL, "003:before", &k, &why), 0);
	ck_assert_str_eq(k.version, "5.10");
	ck_assert_int_eq(k.numa_stat, MCG_NUMA_STAT_SUBTREE_WALK);
	ck_assert_int_eq(mcg_patch_resolve("6.12", "004:before", &k, &why), 0);
	ck_assert_int_eq(k.css_ref, MCG_CSS_REF_PER_PAGE_ATOMIC);
	ck_assert_int_eq(mcg_patch_resolve("6.12", "004:after", &k, &why), 0);
	ck_assert_int_eq(k.css_ref, MCG_CSS_REF_OWNER_TASK_LOCK);

	/* Combinations that never existed, and malformed specs. */
	ck_assert_int_eq(mcg_patch_resolve("7.3", "000:before", &k, &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_int_eq(mcg_patch_resolve("6.1", "003:after", &k, &why), -1);
	ck_assert_int_eq(mcg_patch_resolve("4.19", NULL, &k, &why), -1);
	ck_assert_int_eq(mcg_patch_resolve(NULL, "000:during", &k, &why), -1);
	ck_assert_int_eq(mcg_patch_resolve(NULL, "009:after", &k, &why), -1);
	ck_assert_int_eq(mcg_patch_resolve(NULL, ":after", &k, &why), -1);
	ck_assert_int_eq(mcg_patch_resolve(NULL, "nosuchpatch", &k, &why), -1);
	/* A patch's name alone is its after; its before is the base less it. */
	ck_assert_int_eq(mcg_patch_resolve(NULL, "seed003", &k, &why), 0);
	ck_assert(k.patch_after && k.numa_stat == MCG_NUMA_STAT_COUNTERS);
	ck_assert_int_eq(mcg_patch_resolve(NULL, "seed004:before", &k, &why), 0);
	ck_assert_str_eq(k.version, "5.10");
	ck_assert(!k.patch_after && k.css_ref == MCG_CSS_REF_PER_PAGE_ATOMIC);
}
END_TEST

/* Every release from 5.4 to 7.3 resolves to the newest layout table at or
 * before it, to the era of its stats machinery and to the build Debian
 * configures (kernel.c: config.amd64_none_amd64 of linux-config-5.10, 6.1,
 * 6.12, 7.2, 7.3 for the nearest source at or before it; CONFIG_MEMCG_V1
 * from 6.11, CONFIG_LRU_GEN from 6.1); anything else is refused. */
START_TEST(test_kernel_releases)
{
	static const struct {
		const char *release;
		enum mcg_layout_id layout;
		const char *era;
		bool memcg_v1, lru_gen;
		enum mcg_layout_id printed;	/* the build of the table */
	} cases[] = {
		{ "5.4", MCG_LAYOUT_5_4, "5.10", true, false, MCG_LAYOUT_5_4 },
		{ "5.8", MCG_LAYOUT_5_4, "5.10", true, false, MCG_LAYOUT_5_4 },
		{ "5.10", MCG_LAYOUT_5_10, "5.10", true, false, MCG_LAYOUT_5_10 },
		{ "5.12", MCG_LAYOUT_5_10, "5.10", true, false, MCG_LAYOUT_5_10 },
		/* rstat from 5.13 */
		{ "5.13", MCG_LAYOUT_5_10, "6.1", true, false, MCG_LAYOUT_5_10 },
		{ "5.15", MCG_LAYOUT_5_15, "6.1", true, false, MCG_LAYOUT_5_15 },
		{ "6.0", MCG_LAYOUT_5_15, "6.1", true, false, MCG_LAYOUT_5_15 },
		/* Debian 6.1: CONFIG_LRU_GEN=y, CONFIG_LRU_GEN_ENABLED not set */
		{ "6.1", MCG_LAYOUT_6_1, "6.1", true, false, MCG_LAYOUT_6_1 },
		{ "6.3", MCG_LAYOUT_6_1, "6.1", true, false, MCG_LAYOUT_6_1 },
		{ "6.6", MCG_LAYOUT_6_6, "6.1", true, false, MCG_LAYOUT_6_6 },
		{ "6.8", MCG_LAYOUT_6_6, "6.12", true, false, MCG_LAYOUT_6_6 },
		{ "6.10", MCG_LAYOUT_6_6, "6.12", true, false, MCG_LAYOUT_6_6 },
		/* 6.1's config carried to 6.11: CONFIG_MEMCG_V1 "default n" */
		{ "6.11", MCG_LAYOUT_6_6, "6.12", false, false, MCG_LAYOUT_6_6 },
		/* Debian 6.12 .. 7.3: no CONFIG_MEMCG_V1, CONFIG_LRU_GEN_ENABLED=y */
		{ "6.12", MCG_LAYOUT_6_12, "6.12", false, true, MCG_LAYOUT_6_12 },
		{ "6.16", MCG_LAYOUT_6_12, "6.12", false, true, MCG_LAYOUT_6_12 },
		{ "6.17", MCG_LAYOUT_6_12, "7.3", false, true, MCG_LAYOUT_6_12 },
		{ "6.19", MCG_LAYOUT_6_12, "7.3", false, true, MCG_LAYOUT_6_12 },
		{ "7.1", MCG_LAYOUT_6_12, "7.3", false, true, MCG_LAYOUT_6_12 },
		{ "7.2", MCG_LAYOUT_6_12, "7.3", false, true, MCG_LAYOUT_6_12 },
		{ "7.3", MCG_LAYOUT_7_3, "7.3", false, true, MCG_LAYOUT_7_3_NO_V1 },
	};
	static const char *const unknown[] = {
		"4.19", "5.3", "5.20", "6.20", "7.4", "8.0", "9.0", "6", "6.", ".6", "6.1.2",
		"06.1", "6.01", "6.1x", " 6.1", "-6.1", "+6.1", "", "garbage", "6,1", "1234.1",
	};
	struct mcg_kernel k;
	const char *why = NULL;

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		const struct mcg_kernel *era = mcg_kernel_get(cases[i].era);

		ck_assert_msg(mcg_kernel_release_known(cases[i].release), "%s", cases[i].release);
		ck_assert_int_eq(mcg_patch_resolve(cases[i].release, NULL, &k, &why), 0);
		ck_assert_str_eq(k.version, cases[i].release);
		ck_assert_str_eq(k.era, cases[i].era);
		ck_assert_msg(k.layout == cases[i].layout, "%s: layout %d", cases[i].release,
			      (int)k.layout);
		ck_assert_msg(k.memcg_v1 == cases[i].memcg_v1, "%s: memcg_v1", cases[i].release);
		ck_assert_msg(k.lru_gen_enabled == cases[i].lru_gen, "%s: lru_gen",
			      cases[i].release);
		ck_assert(!k.memcg_v1_chosen);
		ck_assert_int_eq(mcg_kernel_layout(&k)->id, cases[i].printed);
		/* the mechanisms are the era's, whole */
		ck_assert_int_eq(k.stats, era->stats);
		ck_assert_int_eq(k.updater, era->updater);
		ck_assert_int_eq(k.flush, era->flush);
		ck_assert_int_eq(k.local, era->local);
		ck_assert_uint_eq(k.charge_batch, era->charge_batch);
		/* every release mounts v1, built with CONFIG_MEMCG_V1 */
		ck_assert_int_eq(mcg_kernel_check_hierarchy(&k, true, &why), 0);
		ck_assert_int_eq(mcg_kernel_check_hierarchy(&k, false, &why), 0);
		mcg_kernel_set_hierarchy(&k, true);
		ck_assert(k.memcg_v1);
		ck_assert(mcg_kernel_layout(&k)->has_v1);
		ck_assert_uint_gt(mcg_kernel_layout(&k)->nr_v1_stats, 0);
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(unknown); i++) {
		why = NULL;
		ck_assert_msg(!mcg_kernel_release_known(unknown[i]), "'%s'", unknown[i]);
		ck_assert_int_eq(mcg_patch_resolve(unknown[i], NULL, &k, &why), -1);
		ck_assert_ptr_nonnull(why);
		ck_assert_ptr_null(strchr(why, '\n'));
	}
	ck_assert(!mcg_kernel_release_known(NULL));
	/* a seed's base is a release, not an era: 6.3 runs 6.1's mechanisms
	 * but is not the kernel seed 000 was written for */
	ck_assert_int_eq(mcg_patch_resolve("6.3", "000:after", &k, &why), -1);
	ck_assert_int_eq(mcg_patch_resolve("6.3", "004:after", &k, &why), 0);
	ck_assert_str_eq(k.version, "6.3");
}
END_TEST

/* resolve + configure, as a mount does it. */
static int kernel_of(const char *version, const char *seed, enum mcg_kconfig_choice memcg_v1,
		     enum mcg_kconfig_choice lru_gen, bool v1, struct mcg_kernel *k,
		     const char **why)
{
	const struct mcg_kernel_config c = { .memcg_v1 = memcg_v1, .lru_gen = lru_gen };

	ck_assert_int_eq(mcg_patch_resolve(version, seed, k, why), 0);
	return mcg_kernel_configure(k, &c, v1, why);
}

/* memcg_v1= and lru_gen= (mcg_kernel_configure()): each changes its option
 * and nothing else; a v1 hierarchy builds CONFIG_MEMCG_V1 unless memcg_v1=n
 * or seed 001 chose it off; an option the release does not have (memcg_v1=n
 * before 6.11, lru_gen=y before 6.1) is refused with one line. */
START_TEST(test_kernel_configure)
{
	const enum mcg_kconfig_choice D = MCG_KCONFIG_DEFAULT, N = MCG_KCONFIG_N,
				      Y = MCG_KCONFIG_Y;
	struct mcg_kernel k, plain;
	const char *why = NULL;

	/* the default: Debian's 7.3, v2 without the v1 controller */
	ck_assert_int_eq(kernel_of(NULL, NULL, D, D, false, &k, &why), 0);
	ck_assert_str_eq(k.version, "7.3");
	ck_assert(!k.memcg_v1 && k.lru_gen_enabled);
	ck_assert_int_eq(mcg_kernel_layout(&k)->id, MCG_LAYOUT_7_3_NO_V1);
	ck_assert_uint_eq(mcg_kernel_layout(&k)->nr_event_slots, 20);
	plain = k;
	/* memcg_v1=y on v2: the 22 events, with PGPGIN/PGPGOUT; only that */
	ck_assert_int_eq(kernel_of("7.3", NULL, Y, D, false, &k, &why), 0);
	ck_assert(k.memcg_v1 && k.memcg_v1_chosen && k.lru_gen_enabled);
	ck_assert_int_eq(mcg_kernel_layout(&k)->id, MCG_LAYOUT_7_3);
	ck_assert(mcg_layout_has(mcg_kernel_layout(&k), MCG_PGPGIN));
	k.memcg_v1 = plain.memcg_v1;
	k.memcg_v1_chosen = plain.memcg_v1_chosen;
	ck_assert_int_eq(memcmp(&k, &plain, sizeof(k)), 0);
	/* lru_gen=n: only that */
	ck_assert_int_eq(kernel_of("7.3", NULL, D, N, false, &k, &why), 0);
	ck_assert(!k.lru_gen_enabled);
	k.lru_gen_enabled = true;
	ck_assert_int_eq(memcmp(&k, &plain, sizeof(k)), 0);

	/* a v1 hierarchy: CONFIG_MEMCG_V1=y at every release */
	static const char *const v1_releases[] = { "5.4", "6.1", "6.11", "6.12", "6.18", "7.3" };
	for (unsigned i = 0; i < G_N_ELEMENTS(v1_releases); i++) {
		ck_assert_int_eq(kernel_of(v1_releases[i], NULL, D, D, true, &k, &why), 0);
		ck_assert_msg(k.memcg_v1, "%s", v1_releases[i]);
		ck_assert(mcg_kernel_layout(&k)->has_v1);
		ck_assert_int_eq(kernel_of(v1_releases[i], NULL, Y, D, true, &k, &why), 0);
		ck_assert(k.memcg_v1);
	}
	ck_assert_int_eq(kernel_of("6.12", NULL, D, D, true, &k, &why), 0);
	ck_assert_int_eq(mcg_kernel_layout(&k)->id, MCG_LAYOUT_6_12_V1);
	ck_assert_uint_eq(mcg_kernel_layout(&k)->nr_event_slots, 27);
	ck_assert(k.lru_gen_enabled);	/* the v1 build keeps Debian's LRU */

	/* memcg_v1=n with v1: refused, one line */
	why = NULL;
	ck_assert_int_eq(kernel_of("7.3", NULL, N, D, true, &k, &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "memcg_v1=n"));
	ck_assert_ptr_null(strchr(why, '\n'));
	ck_assert_int_eq(kernel_of("6.12", NULL, N, D, true, &k, &why), -1);
	/* and a kernel so chosen refuses v1 by itself, as the engine asks */
	ck_assert_int_eq(kernel_of("6.12", NULL, N, D, false, &k, &why), 0);
	ck_assert(!k.memcg_v1 && k.memcg_v1_chosen);
	ck_assert_int_eq(mcg_kernel_check_hierarchy(&k, true, &why), -1);

	/* options a release does not have */
	why = NULL;
	ck_assert_int_eq(kernel_of("6.10", NULL, N, D, false, &k, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "6.11"));
	ck_assert_int_eq(kernel_of("6.11", NULL, N, D, false, &k, &why), 0);
	ck_assert_int_eq(kernel_of("5.10", NULL, Y, N, false, &k, &why), 0);
	why = NULL;
	ck_assert_int_eq(kernel_of("6.0", NULL, D, Y, false, &k, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "6.1"));
	ck_assert_int_eq(kernel_of("6.1", NULL, D, Y, false, &k, &why), 0);
	ck_assert(k.lru_gen_enabled);

	/* seed 001: CONFIG_MEMCG_V1=n on both sides, whatever is asked */
	for (int after = 0; after <= 1; after++) {
		const char *seed = after ? "001:after" : "001:before";

		ck_assert_int_eq(kernel_of(NULL, seed, D, D, false, &k, &why), 0);
		ck_assert(!k.memcg_v1 && k.memcg_v1_chosen);
		ck_assert_int_eq(mcg_kernel_layout(&k)->id, MCG_LAYOUT_7_3_NO_V1);
		ck_assert_int_eq(kernel_of(NULL, seed, N, D, false, &k, &why), 0);
		ck_assert_int_eq(kernel_of(NULL, seed, Y, D, false, &k, &why), -1);
		ck_assert_int_eq(kernel_of(NULL, seed, D, D, true, &k, &why), -1);
		ck_assert_int_eq(kernel_of(NULL, seed, D, N, false, &k, &why), 0);
		ck_assert(!k.lru_gen_enabled && !k.memcg_v1);
	}
	/* seed 002 runs Debian's 6.12 */
	ck_assert_int_eq(kernel_of(NULL, "002:after", D, D, false, &k, &why), 0);
	ck_assert(!k.memcg_v1 && k.lru_gen_enabled && k.split_trees);
	ck_assert_int_eq(mcg_kernel_layout(&k)->id, MCG_LAYOUT_6_12);
}
END_TEST

/* The engine builds a v1 hierarchy's kernel with CONFIG_MEMCG_V1: a release
 * whose Debian default is n mounts v1 with the v1 build of its tables; one
 * chosen n is refused (EINVAL). */
START_TEST(test_engine_v1_build)
{
	static const char *const releases[] = { "6.12", "6.18", "7.3" };
	struct mcg_engine_config cfg;
	const char *why = NULL;

	for (unsigned i = 0; i < G_N_ELEMENTS(releases); i++) {
		struct mcg_engine *e = test_engine_make(2, 1, releases[i], MCG_HIERARCHY_V1, NULL);
		const struct mcg_engine_config *got = mcg_engine_config(e);

		ck_assert(got->kernel.memcg_v1);
		ck_assert(mcg_engine_layout(e)->has_v1);
		ck_assert(mcg_layout_has(mcg_engine_layout(e), MCG_PGPGIN));
		mcg_engine_free(e);
		e = test_engine_make(2, 1, releases[i], MCG_HIERARCHY_V2, NULL);
		ck_assert(!mcg_engine_config(e)->kernel.memcg_v1);
		ck_assert(!mcg_layout_has(mcg_engine_layout(e), MCG_PGPGIN));
		mcg_engine_free(e);
	}
	mcg_engine_config_init(&cfg);
	ck_assert_int_eq(kernel_of("7.3", NULL, MCG_KCONFIG_N, MCG_KCONFIG_DEFAULT, false,
				   &cfg.kernel, &why), 0);
	cfg.hierarchy = MCG_HIERARCHY_V1;
	errno = 0;
	ck_assert_ptr_null(mcg_engine_new(&cfg));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* Reclaim and refault with and without the multi-gen LRU, as the source
 * has them.  CONFIG_LRU_GEN_ENABLED=y: prepare_scan_control() (6.12, 7.3;
 * prepare_scan_count() in 6.1) of mm/vmscan.c and workingset_test_recent()
 * (workingset_refault() in 6.1) of mm/workingset.c return before their
 * flush: none, however late the periodic flush is.  Off: 6.1's reclaim
 * takes mem_cgroup_flush_stats() (the global threshold, now) and its
 * refault mem_cgroup_flush_stats_delayed() (2 x FLUSH_TIME after the last
 * flush); 6.12's and 7.3's both take mem_cgroup_flush_stats_ratelimited(),
 * which flushes only once the periodic flush is 2 x FLUSH_TIME late. */
START_TEST(test_lru_gen_reclaim_refault_flush)
{
	static const char *const versions[] = { "6.1", "6.12", "7.3" };
	/* lru_gen off: flushes at t = 0, then at 5 s (refault), 10 s (reclaim) */
	static const unsigned reclaim_now[] = { 1, 0, 0 };
	const unsigned v = (unsigned)_i / 2;
	const bool lru_gen = _i & 1;
	struct mcg_engine_config cfg;
	struct mcg_flush_counters fc;
	struct mcg_engine *e;
	struct mcg_cgroup *a;
	const char *why = NULL;
	long seen;

	mcg_engine_config_init(&cfg);
	ck_assert_int_eq(kernel_of(versions[v], NULL, MCG_KCONFIG_DEFAULT,
				   lru_gen ? MCG_KCONFIG_Y : MCG_KCONFIG_N, false, &cfg.kernel,
				   &why), 0);
	ck_assert(cfg.kernel.lru_gen_enabled == lru_gen);
	cfg.nr_cpus = 2;
	cfg.flush_period_ms = 0;	/* FLUSH_TIME stays 2 s for the rate limits */
	cfg.manual_clock = true;
	e = mcg_engine_new(&cfg);
	ck_assert_ptr_nonnull(e);
	a = test_cgroup_make(e, mcg_engine_root(e), "a");

	/* t = 0: over every threshold, the last flush recent */
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_for_refault(e, a);
	mcg_memcg_flush_for_reclaim(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.refault, 0);
	ck_assert_uint_eq(fc.reclaim, lru_gen ? 0 : reclaim_now[v]);
	ck_assert_uint_eq(fc.flushes, fc.reclaim);
	seen = mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL);
	ck_assert_int_eq(seen, fc.reclaim ? 1000 : 0);

	/* t = 5 s: two periods late; a refault */
	ck_assert_int_eq(mcg_engine_clock_set(e, 5000000000ull), 0);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_for_refault(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.refault, lru_gen ? 0 : 1);
	seen = mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL);
	ck_assert_int_eq(seen, lru_gen ? 0 : 2000);

	/* t = 10 s: late again; a reclaim */
	ck_assert_int_eq(mcg_engine_clock_set(e, 10000000000ull), 0);
	test_stat_mod(e, 0, a, 0, MCG_ANON_MAPPED, 1000);
	mcg_memcg_flush_for_reclaim(e, a);
	mcg_engine_flush_counters(e, &fc);
	ck_assert_uint_eq(fc.reclaim, lru_gen ? 0 : reclaim_now[v] + 1);
	ck_assert_uint_eq(fc.refault, lru_gen ? 0 : 1);
	ck_assert_uint_eq(fc.flushes, fc.reclaim + fc.refault);
	seen = mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL);
	ck_assert_int_eq(seen, lru_gen ? 0 : 3000);

	/* whatever the LRU, a reader still flushes */
	mcg_memcg_flush_stats(e, a);
	ck_assert_int_eq(mcg_stat_read_raw(e, a, MCG_ANON_MAPPED, MCG_HIERARCHICAL), 3000);
	mcg_cgroup_put(a);
	mcg_engine_free(e);
}
END_TEST

/* ---- page counters and events ---- */

START_TEST(test_page_counters)
{
	struct mcg_engine *e = test_engine_make(1, 1, "7.3", MCG_HIERARCHY_V2, NULL);
	struct mcg_cgroup *root = mcg_engine_root(e), *p = test_cgroup_make(e, root, "p"), *c = test_cgroup_make(e, p, "c");
	struct mcg_cgroup *over = NULL;

	ck_assert_uint_eq(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_MAX),
			  MCG_PAGE_COUNTER_MAX);
	mcg_counter_set(p, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, 100);
	ck_assert(mcg_counter_try_charge(c, MCG_COUNTER_MEMORY, 60, &over));
	ck_assert(!mcg_counter_try_charge(c, MCG_COUNTER_MEMORY, 50, &over));
	ck_assert_ptr_eq(over, p);
	ck_assert_uint_eq(mcg_counter_read(p, MCG_COUNTER_MEMORY, MCG_FIELD_FAILCNT), 1);
	ck_assert_uint_eq(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_FAILCNT), 0);
	ck_assert_uint_eq(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 60);
	ck_assert_uint_eq(mcg_counter_read(p, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 60);
	ck_assert_uint_eq(mcg_counter_read(root, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 60);
	mcg_counter_uncharge(c, MCG_COUNTER_MEMORY, 20);
	ck_assert_uint_eq(mcg_counter_read(root, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), 40);
	ck_assert_uint_eq(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK), 60);
	mcg_counter_set(c, MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK, 0);
	ck_assert(mcg_counter_try_charge(c, MCG_COUNTER_MEMORY, 1, NULL));
	ck_assert_uint_eq(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK), 41);

	/* page_counter_set_max(): refused while usage does not fit. */
	ck_assert_int_eq(mcg_counter_set_max(c, MCG_COUNTER_MEMORY, 40), -EBUSY);
	ck_assert_uint_eq(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_MAX),
			  MCG_PAGE_COUNTER_MAX);
	ck_assert_int_eq(mcg_counter_set_max(c, MCG_COUNTER_MEMORY, 41), 0);
	ck_assert_uint_eq(mcg_counter_read(c, MCG_COUNTER_MEMORY, MCG_FIELD_MAX), 41);
	ck_assert(!mcg_counter_try_charge(c, MCG_COUNTER_MEMORY, 1, NULL));
	mcg_counter_set(c, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, MCG_PAGE_COUNTER_MAX);

	mcg_memory_event(c, MCG_MEMORY_MAX);
	ck_assert_uint_eq(mcg_memory_event_read(c, MCG_MEMORY_MAX, true), 1);
	ck_assert_uint_eq(mcg_memory_event_read(p, MCG_MEMORY_MAX, false), 1);
	ck_assert_uint_eq(mcg_memory_event_read(p, MCG_MEMORY_MAX, true), 0);
	mcg_cgroup_put(c);
	mcg_cgroup_put(p);
	mcg_engine_free(e);
}
END_TEST

/* ---- threads ---- */

enum { STRESS_CPUS = 4, STRESS_SLOTS = 16 };

struct stress {
	struct mcg_engine *e;
	pthread_mutex_t lock;			/* slots */
	struct mcg_cgroup *slot[STRESS_SLOTS];	/* live cgroups, referenced */
	_Atomic bool stop;
	long applied[STRESS_CPUS][3];		/* per updater thread */
	_Atomic unsigned long churn;
};

static const enum mcg_item stress_items[3] = { MCG_ANON_MAPPED, MCG_PGFAULT, MCG_MEMCG_KMEM };

static struct mcg_cgroup *stress_pick(struct stress *s, GRand *rnd)
{
	struct mcg_cgroup *cg;

	pthread_mutex_lock(&s->lock);
	cg = s->slot[g_rand_int_range(rnd, 0, STRESS_SLOTS)];
	cg = cg ? mcg_cgroup_get(cg) : mcg_cgroup_get(mcg_engine_root(s->e));
	pthread_mutex_unlock(&s->lock);
	return cg;
}

static void *stress_updater(void *arg)
{
	struct stress *s = ((void **)arg)[0];
	unsigned cpu = GPOINTER_TO_UINT(((void **)arg)[1]);
	struct mcg_cpu *c = mcg_engine_cpu(s->e, cpu);
	GRand *rnd = g_rand_new_with_seed(cpu);

	while (!atomic_load(&s->stop)) {
		struct mcg_cgroup *cg = stress_pick(s, rnd);

		mcg_cpu_enter(c);
		for (int k = 0; k < 64; k++) {
			int which = g_rand_int_range(rnd, 0, 3);
			long val = g_rand_int_range(rnd, which == 1 ? 0 : -3, 9);

			mcg_stat_mod(c, cg, g_rand_int_range(rnd, 0, 2), stress_items[which], val);
			s->applied[cpu][which] += val;
		}
		mcg_cpu_exit(c);
		mcg_cgroup_put(cg);
	}
	g_rand_free(rnd);
	return NULL;
}

static void *stress_flusher(void *arg)
{
	struct stress *s = arg;
	GRand *rnd = g_rand_new_with_seed(77);

	while (!atomic_load(&s->stop)) {
		struct mcg_cgroup *cg = stress_pick(s, rnd);

		switch (g_rand_int_range(rnd, 0, 4)) {
		case 0:
			__mcg_memcg_flush_stats(s->e, cg, true);
			break;
		case 1:
			mcg_cputime_flush(s->e, cg);
			break;
		default:
			mcg_memcg_flush_stats(s->e, cg);
		}
		(void)mcg_stat_read(s->e, cg, MCG_ANON_MAPPED, MCG_HIERARCHICAL);
		(void)mcg_stat_read_node(s->e, cg, 1, MCG_ANON_MAPPED, MCG_LOCAL);
		mcg_cgroup_put(cg);
	}
	g_rand_free(rnd);
	return NULL;
}

static void *stress_churn(void *arg)
{
	struct stress *s = arg;
	GRand *rnd = g_rand_new_with_seed(5);
	unsigned serial = 0;

	while (!atomic_load(&s->stop)) {
		int i = g_rand_int_range(rnd, 0, STRESS_SLOTS);
		struct mcg_cgroup *old, *parent, *cg = NULL;
		char name[32];

		pthread_mutex_lock(&s->lock);
		old = s->slot[i];
		s->slot[i] = NULL;
		pthread_mutex_unlock(&s->lock);
		if (old) {
			/* Children of old may live in other slots: only leaves go. */
			if (mcg_cgroup_destroy(s->e, old) == -EBUSY) {
				pthread_mutex_lock(&s->lock);
				s->slot[i] = old;
				pthread_mutex_unlock(&s->lock);
				continue;
			}
			mcg_cgroup_put(old);
			atomic_fetch_add(&s->churn, 1);
			continue;
		}
		parent = stress_pick(s, rnd);
		g_snprintf(name, sizeof(name), "s%u", serial++);
		if (mcg_cgroup_create(s->e, parent, name, &cg) == 0) {
			pthread_mutex_lock(&s->lock);
			if (!s->slot[i])
				s->slot[i] = cg;
			else
				g_assert_not_reached();
			pthread_mutex_unlock(&s->lock);
		}
		mcg_cgroup_put(parent);
	}
	g_rand_free(rnd);
	return NULL;
}

/* mcg_engine_on_each_cpu(): each CPU runs the call once, in a window of its
 * own, after the window it was in at the call ended.  One thread holds CPU
 * 2 across the call; another enters and leaves CPU 5 in a loop and so runs
 * CPU 5's call itself; the caller passes the rest. */
struct each_cpu_probe {
	struct mcg_engine *e;
	_Atomic unsigned ran[8];
	_Atomic bool cpu2_left, stop, in_window_ok;
	_Atomic bool holding;
};

static void each_cpu_record(struct mcg_cpu *cpu, void *arg)
{
	struct each_cpu_probe *p = arg;
	unsigned id = mcg_cpu_id(cpu);

	/* inside the CPU's window: its lock is held */
	if (pthread_mutex_trylock(&cpu->lock) == 0) {
		pthread_mutex_unlock(&cpu->lock);
		atomic_store(&p->in_window_ok, false);
	}
	if (id == 2 && !atomic_load(&p->cpu2_left))
		atomic_store(&p->in_window_ok, false);
	atomic_fetch_add(&p->ran[id], 1);
}

static void *each_cpu_holder(void *arg)
{
	struct each_cpu_probe *p = arg;
	struct mcg_cpu *c2 = mcg_engine_cpu(p->e, 2);

	mcg_cpu_enter(c2);
	atomic_store(&p->holding, true);
	usleep(100 * 1000);
	atomic_store(&p->cpu2_left, true);
	mcg_cpu_exit(c2);
	return NULL;
}

static void *each_cpu_churn(void *arg)
{
	struct each_cpu_probe *p = arg;
	struct mcg_cpu *c5 = mcg_engine_cpu(p->e, 5);

	while (!atomic_load(&p->stop)) {
		mcg_cpu_enter(c5);
		mcg_cpu_exit(c5);
	}
	return NULL;
}

START_TEST(test_on_each_cpu)
{
	struct each_cpu_probe p = { .e = test_engine_make(8, 1, NULL, MCG_HIERARCHY_V2, NULL) };
	pthread_t holder, churn;

	atomic_store(&p.in_window_ok, true);
	pthread_create(&holder, NULL, each_cpu_holder, &p);
	pthread_create(&churn, NULL, each_cpu_churn, &p);
	while (!atomic_load(&p.holding))
		usleep(1000);
	for (int round = 1; round <= 3; round++) {
		mcg_engine_on_each_cpu(p.e, each_cpu_record, &p);
		for (unsigned c = 0; c < 8; c++)
			ck_assert_uint_eq(atomic_load(&p.ran[c]), (unsigned)round);
	}
	ck_assert(atomic_load(&p.cpu2_left));
	ck_assert(atomic_load(&p.in_window_ok));
	atomic_store(&p.stop, true);
	pthread_join(holder, NULL);
	pthread_join(churn, NULL);
	/* A plain grace period runs no call again. */
	mcg_engine_sync_cpus(p.e);
	for (unsigned c = 0; c < 8; c++)
		ck_assert_uint_eq(atomic_load(&p.ran[c]), 3);
	mcg_engine_free(p.e);
}
END_TEST

START_TEST(test_stress_threads)
{
	struct stress *s = g_new0(struct stress, 1);
	struct mcg_engine_config cfg;
	pthread_t upd[STRESS_CPUS], fl, ch;
	void *args[STRESS_CPUS][2];
	struct mcg_cgroup *root;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = STRESS_CPUS;
	cfg.nr_nodes = 2;
	/* 7.3 v2, 6.12 v2 (shared tree, locked updater), 6.1 v1 (global
	 * policy, pop walk), 7.3 v1, 5.10 v1 (batched atomics). */
	cfg.hierarchy = _i >= 2 ? MCG_HIERARCHY_V1 : MCG_HIERARCHY_V2;
	cfg.kernel = *mcg_kernel_get((const char *[]){ "7.3", "6.12", "6.1", "7.3", "5.10" }[_i]);
	cfg.flush_period_ms = 5;
	s->e = mcg_engine_new(&cfg);
	root = mcg_engine_root(s->e);
	pthread_mutex_init(&s->lock, NULL);
	for (int c = 0; c < STRESS_CPUS; c++) {
		args[c][0] = s;
		args[c][1] = GUINT_TO_POINTER(c);
		pthread_create(&upd[c], NULL, stress_updater, args[c]);
	}
	pthread_create(&fl, NULL, stress_flusher, s);
	pthread_create(&ch, NULL, stress_churn, s);
	/* 1.5 s, longer on a machine too busy to churn enough meanwhile. */
	g_usleep(1500 * 1000);
	for (int waited = 0; atomic_load(&s->churn) <= 10 && waited < 200; waited++)
		g_usleep(100 * 1000);
	atomic_store(&s->stop, true);
	for (int c = 0; c < STRESS_CPUS; c++)
		pthread_join(upd[c], NULL);
	pthread_join(fl, NULL);
	pthread_join(ch, NULL);
	ck_assert_uint_gt(atomic_load(&s->churn), 10);

	/* Destroy what is left, deepest first, then check the root. */
	for (bool progress = true; progress;) {
		progress = false;
		for (int i = 0; i < STRESS_SLOTS; i++) {
			if (s->slot[i] && mcg_cgroup_destroy(s->e, s->slot[i]) == 0) {
				mcg_cgroup_put(s->slot[i]);
				s->slot[i] = NULL;
				progress = true;
			}
		}
	}
	__mcg_memcg_flush_stats(s->e, root, true);
	for (int which = 0; which < 3; which++) {
		long total = 0;

		for (int c = 0; c < STRESS_CPUS; c++)
			total += s->applied[c][which];
		/* 5.10 has no MEMCG_KMEM: its updates were dropped. */
		if (!mcg_layout_has(mcg_engine_layout(s->e), stress_items[which]))
			total = 0;
		/* 5.10: the root's own batches are not in its atomics yet
		 * (every other cgroup was released, its batches folded). */
		ck_assert_int_eq(mcg_stat_read_raw(s->e, root, stress_items[which], MCG_HIERARCHICAL) +
					 mcg_stat_unflushed(s->e, root, -1, stress_items[which],
							    MCG_HIERARCHICAL),
				 total);
		if (which == 0)
			ck_assert_int_eq(
				mcg_stat_read_node_raw(s->e, root, 0, stress_items[0], MCG_HIERARCHICAL) +
					mcg_stat_read_node_raw(s->e, root, 1, stress_items[0],
							       MCG_HIERARCHICAL) +
					mcg_stat_unflushed(s->e, root, 0, stress_items[0],
							   MCG_HIERARCHICAL) +
					mcg_stat_unflushed(s->e, root, 1, stress_items[0],
							   MCG_HIERARCHICAL),
				total);
		/* Locals are not checked here: 7.3 moves clamped local values
		 * read at offline, racing with updaters as in the kernel
		 * (test_conservation checks the moves exactly). */
	}
	mcg_engine_free(s->e);
	pthread_mutex_destroy(&s->lock);
	g_free(s);
}
END_TEST

START_TEST(test_config_limits)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 0;
	ck_assert_ptr_null(mcg_engine_new(&cfg));
	ck_assert_int_eq(errno, EINVAL);
	cfg.nr_cpus = MCG_MAX_CPUS + 1;
	ck_assert_ptr_null(mcg_engine_new(&cfg));
	cfg.nr_cpus = MCG_MAX_CPUS;
	cfg.nr_nodes = MCG_MAX_NODES + 1;
	ck_assert_ptr_null(mcg_engine_new(&cfg));
	cfg.nr_nodes = MCG_MAX_NODES;
	/* No v1 hierarchy on a CONFIG_MEMCG_V1=n kernel (seed 001). */
	{
		const char *why;

		ck_assert_int_eq(mcg_patch_resolve(NULL, "001:after", &cfg.kernel, &why), 0);
		cfg.hierarchy = MCG_HIERARCHY_V1;
		ck_assert_ptr_null(mcg_engine_new(&cfg));
		ck_assert_int_eq(errno, EINVAL);
		cfg.hierarchy = MCG_HIERARCHY_V2;
		cfg.kernel = *mcg_kernel_default();
	}
	cfg.flush_period_ms = 0;
	e = mcg_engine_new(&cfg);
	ck_assert_ptr_nonnull(e);
	test_stat_mod(e, MCG_MAX_CPUS - 1, mcg_engine_root(e), MCG_MAX_NODES - 1, MCG_ACTIVE_FILE, 3);
	__mcg_memcg_flush_stats(e, mcg_engine_root(e), true);
	ck_assert_int_eq(mcg_stat_read_node_raw(e, mcg_engine_root(e), MCG_MAX_NODES - 1,
						MCG_ACTIVE_FILE, MCG_HIERARCHICAL), 3);
	mcg_engine_free(e);
}
END_TEST

static Suite *make_engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc;

	tc = tcase_create("hierarchy");
	tcase_add_test(tc, test_hierarchy_errors);
	tcase_add_test(tc, test_children_order);
	tcase_add_test(tc, test_config_limits);
	suite_add_tcase(s, tc);

	tc = tcase_create("rstat");
	tcase_add_test(tc, test_rstat_kernel_example_order);
	tcase_add_loop_test(tc, test_rstat_children_first_random, 0, 15);
	suite_add_tcase(s, tc);

	tc = tcase_create("conservation");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_conservation, 0, 2 * (int)G_N_ELEMENTS(cons_kernels));
	tcase_add_test(tc, test_local_vs_hierarchical);
	tcase_add_test(tc, test_destroyed_redirect);
	tcase_add_test(tc, test_memcg_css_life_cycle);
	suite_add_tcase(s, tc);

	tc = tcase_create("heuristics");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_threshold);
	tcase_add_test(tc, test_staleness_bound);
	tcase_add_test(tc, test_periodic_flusher);
	tcase_add_test(tc, test_ratelimited);
	tcase_add_test(tc, test_manual_clock);
	tcase_add_test(tc, test_accuracy);
	tcase_add_test(tc, test_flush_trace);
	tcase_add_loop_test(tc, test_flush_initiators_and_links, 0, 2);
	tcase_add_test(tc, test_lock_stat);
	tcase_add_loop_test(tc, test_rstat_lock_trace, 0, 2);
	tcase_add_test(tc, test_flush_visits_only_updated);
	suite_add_tcase(s, tc);

	tc = tcase_create("eras");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_seed_equivalence, 0, 2);
	tcase_add_test(tc, test_era_6_1_local_percpu_sum);
	tcase_add_test(tc, test_percpu_unit_size);
	tcase_add_test(tc, test_era_5_10_batch_overflow);
	tcase_add_test(tc, test_era_6_1_global_flush);
	tcase_add_test(tc, test_era_reclaim_refault_flush);
	tcase_add_test(tc, test_flush_count_knobs);
	tcase_add_test(tc, test_era_dying_memcg);
	tcase_add_loop_test(tc, test_rstat_updater_cpu_lock, 0, 2);
	tcase_add_loop_test(tc, test_rstat_walk_cpu_lock, 0, 2);
	tcase_add_test(tc, test_seed002_shared_tree_side_flush);
	tcase_add_test(tc, test_seed004_css_ref);
	tcase_add_test(tc, test_charge_stock);
	tcase_add_test(tc, test_charge_kmem_uncharge_refills_stock);
	tcase_add_test(tc, test_kernel_resolve);
	tcase_add_test(tc, test_kernel_releases);
	tcase_add_test(tc, test_kernel_configure);
	tcase_add_test(tc, test_engine_v1_build);
	tcase_add_loop_test(tc, test_lru_gen_reclaim_refault_flush, 0, 6);
	suite_add_tcase(s, tc);

	tc = tcase_create("counters");
	tcase_add_test(tc, test_page_counters);
	suite_add_tcase(s, tc);

	tc = tcase_create("threads");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_stress_threads, 0, 5);
	tcase_add_test(tc, test_on_each_cpu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(make_engine_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
