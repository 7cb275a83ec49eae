/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Patches: a change to the statistics machinery of a kernel, one file each,
 * mounted with --patch=NAME and measured with memcgfs-bench experiment NAME.
 *
 * A patch is a delta on its base release.  The base is a whole kernel
 * (src/kernel/kernel.h: a release resolved to the mechanisms of its era and
 * configured as Debian builds it); the patch's before() and after() turn a
 * copy of it into the two kernels its experiment sets side by side, so that
 * they differ in what the patch changes and in nothing else.  Where the base
 * already carries the change (5.10 has seed 003's 5.8 commit), before()
 * reverts it.
 *
 * What a delta may change is the contract of struct mcg_kernel: every field
 * there is one mechanism, documented with the kernel functions it follows,
 * and read once when an engine is made (the update path never calls through
 * anything a patch chose; mcg_engine_new() picks a specialised update path).
 * The groups, as doc/writing-a-patch.md walks through them:
 *
 *   when a reader's flush flushes, and what   flush (root or subtree,
 *                                             trylock or wait), flush_count,
 *                                             flush_threshold_pct
 *   what the kernel paths flush first         reclaim_flush, refault_flush,
 *                                             shadow_count_flush,
 *                                             dirty_throttle_flush
 *                                             (thresholded, or _delayed() /
 *                                             _ratelimited())
 *   how an update is marked and counted       updater, pending_stop_at_flushable,
 *                                             charge_batch, split_trees,
 *                                             lru_add_batch, free_drains_lru_add
 *   the flush's walk and its callback         walk, local, reparent_local
 *   numa_stat                                 numa_stat
 *   the charge path                           css_ref, nr_memcg_stock, obj_stock
 *   the build                                 memcg_v1 (with memcg_v1_chosen),
 *                                             lru_gen_enabled, preemption
 *
 * A change that no field expresses is a new mechanism: a new value of a
 * field, with its engine code, documented in kernel.h; then any patch can
 * choose it.
 *
 * Adding a patch (doc/writing-a-patch.md walks through one).  Write
 * src/patches/NAME.c (NAME in [a-z0-9-]) defining
 *
 *     const struct mcg_patch mcg_patch_NAME = { .name = "NAME", ... };
 *
 * with '-' in NAME written '_' in the symbol, and add its one line to
 * src/patches/local.mk.  The registry (mcg_patch_list()) is generated from
 * that line; nothing else is edited.  A patch without an experiment of its
 * own is measured by the standard battery (src/experiment/battery.c),
 * against the figures it publishes for the battery's rows.
 */
#ifndef MEMCGFS_PATCHES_PATCHES_H
#define MEMCGFS_PATCHES_PATCHES_H

#include <stdbool.h>

#include "experiment/experiment.h"
#include "kernel/kernel.h"

struct mcg_patch {
	/* --patch=NAME, memcgfs-bench experiment NAME */
	const char *name;
	/* The release the patch was written for ("6.1"), which a mount of it
	 * runs unless --kernel names another: NULL for a patch that applies
	 * to any release, whose mounts default to any_base. */
	const char *base;
	const char *any_base;
	/* Its subject line, and where it is: an upstream commit, a thread,
	 * a seed file. */
	const char *title;
	const char *upstream;
	/* What its authors measured and published, with the source: the
	 * figures its experiment's verdicts compare with (one paragraph,
	 * for --list and the docs). */
	const char *published;
	/* One line each: the base without and with the patch. */
	const char *before_help;
	const char *after_help;
	/* The deltas on a copy of the base (NULL: the base as it is). */
	void (*before)(struct mcg_kernel *k);
	void (*after)(struct mcg_kernel *k);
	/* Its experiment (NULL: the standard battery).  It measures the two
	 * sides through mounted daemons (experiment.h: exp_pair_start() and
	 * the rows of r), with scratch directory tmp; returns 0, 1 for a run
	 * whose check failed (its report says which), -1 if it could not
	 * run. */
	int (*experiment)(const struct mcg_patch *p, const struct exp_options *o,
			  const char *tmp, struct exp_report *r);
	/* For the standard battery: published figures of its rows (NULL, or
	 * ended by a NULL measure); the first is the headline. */
	const struct exp_figure *figures;
};

/* Every patch, in src/patches/local.mk's order; *nr receives the count. */
const struct mcg_patch *const *mcg_patch_list(unsigned *nr);
/* The patch called `name`, or NULL.  "NNN" (a seed's number, as --seed
 * takes it) finds seedNNN. */
const struct mcg_patch *mcg_patch_get(const char *name);

/* Resolves the kernel a mount runs: release `version` (NULL: the patch's
 * base, or 7.3 without a patch) with patch `spec` applied, spec being
 * "NAME" or "NAME:after" (the after), "NAME:before" (the before), or NULL
 * for none.  0, or -1 with a one-line reason in *why (static string): an
 * unknown release or patch, or a patch asked of a release it was not
 * written for. */
int mcg_patch_resolve(const char *version, const char *spec, struct mcg_kernel *out,
		      const char **why);

/* memcgfs-bench experiment: runs patch `name`'s experiment ("all": every
 * patch's).  0, 1 if one failed, 2 on a usage error (printed). */
int mcg_patch_experiment_main(const char *name, const struct exp_options *o);
/* memcgfs-bench experiment --list: every patch, its base, where it is
 * from, its two sides and what its authors published. */
void mcg_patch_print_list(void);

#endif
