/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The five seed patches (../shared/seeds) as deltas on their base eras.
 *
 * Each seed is one patch: its before and its after are the base era without
 * and with it, so the two kernels of an experiment differ in what the patch
 * changed and in nothing else.  Where the base era already carries the patch
 * (5.10 has seed 003's 5.8 change), the before reverts it.
 *
 *   seed  base   before                                  after
 *   000   6.1    locals summed per CPU at read           locals kept by the flush (6.6)
 *   001   7.3    memcg-wide locals kept on v2 too        only with a v1 hierarchy (proposed);
 *                (both: CONFIG_MEMCG_V1=n, v2 only)
 *   002   6.12   one rstat tree for all subsystems       one tree per subsystem (6.16)
 *   003   5.10   numa_stat walks the subtree, per-CPU    hierarchical counters (5.8)
 *                local sums at every memcg (5.7)
 *   004   any    a css_tryget per page charge and a      no reference per page; the charge
 *                css_put per page uncharge on one        reads mm->owner's memcg under
 *                shared atomic (2.6.35)                  task_lock(mm->owner) (the RFC)
 *
 * Seed 004's own kernel, 2.6.35, is not modelled: its before and after graft
 * the RFC's two charge paths onto the chosen era's; the default era for it is
 * the oldest, 5.10.  What a 2.6.35 fault costs besides memcg (clearing the
 * page, the allocator, mmap_sem) the experiment adds as a measured fixed
 * cost per fault (the profile's fault_cost_ns, src/experiment/seeds.c).
 */
#include <string.h>

#include "kernel/eras.h"

static void seed000_before(struct mcg_kernel *k)
{
	k->local = MCG_LOCAL_PERCPU_SUM;
}

static void seed000_after(struct mcg_kernel *k)
{
	k->local = MCG_LOCAL_FLUSHED;
}

/* Seed 001 was measured on CONFIG_MEMCG_V1=n kernels on both sides ("57
 * state + 20 events": memcg_vm_event_stat[] without the PGPGIN and PGPGOUT
 * that 7.3's mm/memcontrol.c keeps under #ifdef CONFIG_MEMCG_V1), so the
 * before and the after share that kernel and differ only in the patch.
 * Debian's 7.3 is such a kernel already; the seed chooses it, so that
 * neither a v1 hierarchy nor memcg_v1=y can build it otherwise
 * (mcg_kernel_configure()).  CONFIG_LRU_GEN_ENABLED stays Debian's (on). */
static void seed001_kernel(struct mcg_kernel *k)
{
	k->memcg_v1 = false;
	k->memcg_v1_chosen = true;
	k->layout = MCG_LAYOUT_7_3_NO_V1;
}

static void seed001_before(struct mcg_kernel *k)
{
	seed001_kernel(k);
	k->local = MCG_LOCAL_FLUSHED;
}

static void seed001_after(struct mcg_kernel *k)
{
	seed001_kernel(k);
	k->local = MCG_LOCAL_FLUSHED_V1_ONLY;
}

static void seed002_before(struct mcg_kernel *k)
{
	k->split_trees = false;
}

static void seed002_after(struct mcg_kernel *k)
{
	k->split_trees = true;
}

static void seed003_before(struct mcg_kernel *k)
{
	k->numa_stat = MCG_NUMA_STAT_SUBTREE_WALK;
}

static void seed003_after(struct mcg_kernel *k)
{
	k->numa_stat = MCG_NUMA_STAT_COUNTERS;
}

static void seed004_before(struct mcg_kernel *k)
{
	k->css_ref = MCG_CSS_REF_PER_PAGE_ATOMIC;
}

static void seed004_after(struct mcg_kernel *k)
{
	k->css_ref = MCG_CSS_REF_OWNER_TASK_LOCK;
}

static const struct mcg_seed seeds[] = {
	{ "000", "6.1", "mm: memcg: use rstat for non-hierarchical stats",
	  "6.1: v1 local stats summed over every CPU at read time",
	  "6.1 + patch: local stats kept by the rstat flush",
	  seed000_before, seed000_after },
	{ "001", "7.3", "mm/memcontrol: drop non-hierarchical memcg-wide stats in non-v1 kernels",
	  "7.3, CONFIG_MEMCG_V1=n (v2 only): the flush keeps memcg-wide local arrays",
	  "7.3, CONFIG_MEMCG_V1=n + patch: no memcg-wide local arrays",
	  seed001_before, seed001_after },
	{ "002", "6.12", "cgroup: separate rstat trees",
	  "6.12: memory, io and cpu stats share one rstat tree",
	  "6.12 + patch: one rstat tree and lock per subsystem",
	  seed002_before, seed002_after },
	{ "003", "5.10", "memcg: optimize memory.numa_stat like memory.stat",
	  "5.10 - patch: v1 numa_stat walks the subtree summing per-CPU locals",
	  "5.10: v1 numa_stat reads the hierarchical counters",
	  seed003_before, seed003_after },
	{ "004", NULL, "memcg remove css_get/put per pages",
	  "2.6.35: css_tryget per page charge, css_put per page uncharge, one shared atomic",
	  "the RFC: no reference per page; task_lock(mm->owner) per charge",
	  seed004_before, seed004_after },
};

const struct mcg_seed *mcg_seed_list(unsigned *nr)
{
	*nr = sizeof(seeds) / sizeof(seeds[0]);
	return seeds;
}

const struct mcg_seed *mcg_seed_get(const char *id)
{
	for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		if (strcmp(seeds[i].id, id) == 0)
			return &seeds[i];
	return NULL;
}
