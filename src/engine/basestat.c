/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Base stats: CPU time per cgroup (cpu.stat), the cgroup core's own rstat
 * participant (kernel/cgroup/rstat.c, cgroup_base_stat_flush()). */
#include "engine/internal.h"

static void base_times_add(struct base_times *dst, const struct base_times *a,
			   const struct base_times *b, long sign)
{
	acount_add_single_writer(&dst->user, sign * (acount_read(&a->user) - acount_read(&b->user)));
	acount_add_single_writer(&dst->nice, sign * (acount_read(&a->nice) - acount_read(&b->nice)));
	acount_add_single_writer(&dst->system,
				 sign * (acount_read(&a->system) - acount_read(&b->system)));
	acount_add_single_writer(&dst->sum, sign * (acount_read(&a->sum) - acount_read(&b->sum)));
}

static void base_times_copy(struct base_times *dst, const struct base_times *src)
{
	acount_set(&dst->user, acount_read(&src->user));
	acount_set(&dst->nice, acount_read(&src->nice));
	acount_set(&dst->system, acount_read(&src->system));
	acount_set(&dst->sum, acount_read(&src->sum));
}

/* Nice time is user time too, as in the kernel's cputime accounting. */
static void base_times_account(struct base_times *t, enum mcg_cputime_kind kind, uint64_t ns)
{
	if (kind == MCG_CPUTIME_SYSTEM)
		acount_add_single_writer(&t->system, (long)ns);
	else
		acount_add_single_writer(&t->user, (long)ns);
	if (kind == MCG_CPUTIME_NICE)
		acount_add_single_writer(&t->nice, (long)ns);
	acount_add_single_writer(&t->sum, (long)ns);
}

void mcg_cputime_account(struct mcg_cpu *c, struct mcg_cgroup *cg, enum mcg_cputime_kind kind,
			 uint64_t ns)
{
	struct mcg_engine *e = c->engine;
	struct base_pcpu *bc;

	/* A task's CPU time goes to its cgroup on the default hierarchy
	 * (cgroup_account_cputime() -> task_dfl_cgroup(), 7.3
	 * include/linux/cgroup.h; the same since 4.20): a v1 memory
	 * hierarchy's cgroups take none, and their rstat tree holds only
	 * memcg's updates. */
	if (!ns || e->cfg.hierarchy == MCG_HIERARCHY_V1)
		return;
	while (!atomic_load_explicit(&cg->online, memory_order_relaxed))
		cg = cg->parent;
	bc = (struct base_pcpu *)(this_cpu_pcpu(c, cg) + e->off_base);
	base_times_account(&bc->bstat, kind, ns);
	/* The scheduler's own count first (account_user_time() and
	 * account_system_index_time() add to kcpustat_this_cpu, then
	 * cgroup_account_cputime_field() to the cgroup). */
	base_times_account(&c->kcpustat, kind, ns);
	rstat_updated(e->tree_of[MCG_PART_BASE], cg->node_of[MCG_PART_BASE], c->id);
}

void mcg_cputime_read_root(const struct mcg_engine *e, struct mcg_cputime *out)
{
	*out = (struct mcg_cputime){ 0 };
	for (unsigned cpu = 0; cpu < e->cfg.nr_cpus; cpu++) {
		const struct base_times *k = &e->cpus[cpu].kcpustat;

		out->usage_ns += (uint64_t)acount_read(&k->sum);
		out->user_ns += (uint64_t)acount_read(&k->user);
		out->system_ns += (uint64_t)acount_read(&k->system);
		out->nice_ns += (uint64_t)acount_read(&k->nice);
	}
}

/* Folds cpu's new time into the cgroup, then the cgroup's not yet
 * propagated growth into its parent.  Children are visited first, so a
 * parent's own propagation carries its children's time upward.  Unlike the
 * kernel, whose root reads global kcpustat instead, the root aggregates its
 * subtree like any other cgroup: the emulator has no other source. */
void base_flush_cpu(void *owner, unsigned cpu, void *arg)
{
	struct mcg_cgroup *cg = owner;
	struct mcg_engine *e = arg;
	struct base_pcpu *bc = (struct base_pcpu *)(cg_pcpu(cg, cpu) + e->off_base);

	base_times_add(&cg->bstat, &bc->bstat, &bc->last_bstat, 1);
	base_times_copy(&bc->last_bstat, &bc->bstat);
	if (cg->parent) {
		base_times_add(&cg->parent->bstat, &cg->bstat, &cg->last_bstat, 1);
		base_times_copy(&cg->last_bstat, &cg->bstat);
	}
}

void mcg_cputime_flush(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	engine_flush_part(e, cg, MCG_PART_BASE);
}

void mcg_cputime_read(const struct mcg_cgroup *cg, struct mcg_cputime *out)
{
	out->usage_ns = (uint64_t)acount_read(&cg->bstat.sum);
	out->user_ns = (uint64_t)acount_read(&cg->bstat.user);
	out->system_ns = (uint64_t)acount_read(&cg->bstat.system);
	out->nice_ns = (uint64_t)acount_read(&cg->bstat.nice);
}

void mcg_cputime_show(struct mcg_engine *e, struct mcg_cgroup *cg, struct mcg_cputime *out)
{
	struct rstat_tree *t = e->tree_of[MCG_PART_BASE];
	struct rstat_node *n = cg->node_of[MCG_PART_BASE];

	mcg_cputime_flush(e, cg);
	rstat_read_lock(t, n);
	mcg_cputime_read(cg, out);
	rstat_read_unlock(t, n);
}
