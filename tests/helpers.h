/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers shared by the Check suites: they abort the test on failure. */
#ifndef MEMCGFS_TESTS_HELPERS_H
#define MEMCGFS_TESTS_HELPERS_H

#include <check.h>

#include "engine/engine.h"
#include "patches/patches.h"
#include "kernel/kernel.h"

/* An engine of kernel `version` (NULL: the default) with `seed` applied
 * (NULL: none), no periodic flush. */
static inline struct mcg_engine *test_engine_make(unsigned cpus, unsigned nodes,
						   const char *version, enum mcg_hierarchy h,
						   const char *seed)
{
	struct mcg_engine_config cfg;
	struct mcg_engine *e;
	const char *why = NULL;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = cpus;
	cfg.nr_nodes = nodes;
	ck_assert_msg(mcg_patch_resolve(version, seed, &cfg.kernel, &why) == 0, "%s", why);
	cfg.hierarchy = h;
	cfg.flush_period_ms = 0;
	e = mcg_engine_new(&cfg);
	ck_assert_ptr_nonnull(e);
	return e;
}

/* The plain era whose layout is `id`. */
static inline const struct mcg_kernel *test_kernel_of_layout(enum mcg_layout_id id)
{
	unsigned nr;
	const struct mcg_kernel *const *eras = mcg_kernel_list(&nr);

	for (unsigned i = 0; i < nr; i++)
		if (eras[i]->layout == id)
			return eras[i];
	ck_abort_msg("no era has layout %d", (int)id);
	return NULL;
}

/* Creates child `name` of parent; returns the new reference.  Since
 * mcg_engine_free() frees online cgroups whatever their references, a test
 * must put only the ones it destroys. */
static inline struct mcg_cgroup *test_cgroup_make(struct mcg_engine *e, struct mcg_cgroup *parent,
						  const char *name)
{
	struct mcg_cgroup *cg = NULL;

	ck_assert_int_eq(mcg_cgroup_create(e, parent, name, &cg), 0);
	ck_assert_ptr_nonnull(cg);
	return cg;
}

/* One update as emulated CPU `cpu`, inside its enter/exit window. */
static inline void test_stat_mod(struct mcg_engine *e, unsigned cpu, struct mcg_cgroup *cg,
				 int nid, enum mcg_item item, long val)
{
	struct mcg_cpu *c = mcg_engine_cpu(e, cpu);

	mcg_cpu_enter(c);
	mcg_stat_mod(c, cg, nid, item, val);
	mcg_cpu_exit(c);
}

#endif
