/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Page counters (mm/page_counter.c) and memory events of a cgroup.
 *
 * A page counter is hierarchical by construction: a charge adds to the
 * cgroup's counter and every ancestor's, so each level's usage is its
 * subtree's.  The adds are atomics shared by every CPU charging into the
 * subtree; memory charges reach them through the per-CPU charge stock
 * (charge.c), a batch at a time.
 */
#include "engine/internal.h"

#include <errno.h>

void counters_init(struct mcg_cgroup *cg)
{
	for (int i = 0; i < MCG_NR_COUNTERS; i++) {
		struct page_counter *pc = &cg->counters[i];

		atomic_init(&pc->usage, 0);
		atomic_init(&pc->watermark, 0);
		atomic_init(&pc->local_watermark, 0);
		atomic_init(&pc->failcnt, 0);
		atomic_init(&pc->max, MCG_PAGE_COUNTER_MAX);
		atomic_init(&pc->high, MCG_PAGE_COUNTER_MAX);
		atomic_init(&pc->low, 0);
		atomic_init(&pc->min, 0);
	}
	atomic_init(&cg->css_refs, 0);
}

/* page_counter_try_charge() (6.12 and 7.3 mm/page_counter.c): the local
 * watermark first, which is never above the global one, so the global is
 * looked at only when the local moves.  Racy by design, like the kernel: a
 * lost race only delays a peak. */
static void counter_propagate_watermark(struct page_counter *pc, long usage)
{
	if ((unsigned long)usage > atomic_load_explicit(&pc->local_watermark, memory_order_relaxed)) {
		atomic_store_explicit(&pc->local_watermark, (unsigned long)usage,
				      memory_order_relaxed);
		if ((unsigned long)usage > atomic_load_explicit(&pc->watermark, memory_order_relaxed))
			atomic_store_explicit(&pc->watermark, (unsigned long)usage,
					      memory_order_relaxed);
	}
}

/* Adds n to the usage unless that would exceed max.  The kernel adds first
 * and takes the charge back when over, so a reader can briefly see usage
 * above max; a compare-and-swap keeps "usage <= max" true at every instant.
 * An unlimited level takes a plain add.  Either way the max is read again
 * after the add: with mcg_counter_set_max() storing the max before reading
 * the usage, one of the two always sees the other (both sides seq_cst). */
static bool counter_add_within(struct page_counter *pc, long n)
{
	unsigned long max = atomic_load_explicit(&pc->max, memory_order_seq_cst);
	long usage;

	if (max >= MCG_PAGE_COUNTER_MAX) {
		usage = atomic_fetch_add_explicit(&pc->usage, n, memory_order_seq_cst) + n;
	} else {
		usage = atomic_load_explicit(&pc->usage, memory_order_relaxed);
		do {
			if ((unsigned long)(usage + n) > max)
				return false;
		} while (!atomic_compare_exchange_weak_explicit(&pc->usage, &usage, usage + n,
								memory_order_seq_cst,
								memory_order_relaxed));
		usage += n;
	}
	if ((unsigned long)usage > atomic_load_explicit(&pc->max, memory_order_seq_cst)) {
		atomic_fetch_sub_explicit(&pc->usage, n, memory_order_relaxed);
		return false;
	}
	return true;
}

int mcg_counter_set_max(struct mcg_cgroup *cg, enum mcg_counter counter, unsigned long max)
{
	struct page_counter *pc = &cg->counters[counter];

	for (;;) {
		unsigned long old = atomic_exchange_explicit(&pc->max, max, memory_order_seq_cst);
		long usage = atomic_load_explicit(&pc->usage, memory_order_seq_cst);

		if (usage <= (long)max)
			return 0;
		/* Over: put the old limit back, unless the usage is moving,
		 * in which case it may fit on the next try. */
		atomic_store_explicit(&pc->max, old, memory_order_seq_cst);
		if (usage == atomic_load_explicit(&pc->usage, memory_order_relaxed))
			return -EBUSY;
	}
}

bool mcg_counter_try_charge(struct mcg_cgroup *cg, enum mcg_counter counter,
			    unsigned long nr_pages, struct mcg_cgroup **over)
{
	struct mcg_cgroup *a;

	for (a = cg; a; a = a->parent) {
		if (!counter_add_within(&a->counters[counter], (long)nr_pages)) {
			atomic_fetch_add_explicit(&a->counters[counter].failcnt, 1,
						  memory_order_relaxed);
			if (over)
				*over = a;
			/* Undo the levels below the one that refused. */
			for (struct mcg_cgroup *b = cg; b != a; b = b->parent)
				atomic_fetch_sub_explicit(&b->counters[counter].usage, (long)nr_pages,
							  memory_order_relaxed);
			return false;
		}
	}
	/* Peaks only move once every level took the charge: the kernel raises
	 * them level by level and can leave a peak above the limit that
	 * refused; an emulator whose users check peak <= max should not. */
	for (a = cg; a; a = a->parent) {
		struct page_counter *pc = &a->counters[counter];

		counter_propagate_watermark(pc, atomic_load_explicit(&pc->usage, memory_order_relaxed));
	}
	return true;
}

void mcg_counter_charge(struct mcg_cgroup *cg, enum mcg_counter counter, unsigned long nr_pages)
{
	for (struct mcg_cgroup *a = cg; a; a = a->parent) {
		struct page_counter *pc = &a->counters[counter];
		long usage = atomic_fetch_add_explicit(&pc->usage, (long)nr_pages,
						       memory_order_relaxed) + (long)nr_pages;

		counter_propagate_watermark(pc, usage);
	}
}

void mcg_counter_uncharge(struct mcg_cgroup *cg, enum mcg_counter counter, unsigned long nr_pages)
{
	for (struct mcg_cgroup *a = cg; a; a = a->parent) {
		long old = atomic_fetch_sub_explicit(&a->counters[counter].usage, (long)nr_pages,
						     memory_order_relaxed);

		g_warn_if_fail(old >= (long)nr_pages);
	}
}

static _Atomic unsigned long *counter_field(struct page_counter *pc, enum mcg_counter_field f)
{
	switch (f) {
	case MCG_FIELD_WATERMARK: return &pc->watermark;
	case MCG_FIELD_LOCAL_WATERMARK: return &pc->local_watermark;
	case MCG_FIELD_FAILCNT: return &pc->failcnt;
	case MCG_FIELD_MAX: return &pc->max;
	case MCG_FIELD_HIGH: return &pc->high;
	case MCG_FIELD_LOW: return &pc->low;
	case MCG_FIELD_MIN: return &pc->min;
	default: return NULL;
	}
}

unsigned long mcg_counter_read(const struct mcg_cgroup *cg, enum mcg_counter counter,
			       enum mcg_counter_field field)
{
	struct page_counter *pc = (struct page_counter *)&cg->counters[counter];
	long usage;

	if (field == MCG_FIELD_USAGE) {
		usage = atomic_load_explicit(&pc->usage, memory_order_relaxed);
		return usage < 0 ? 0 : (unsigned long)usage;
	}
	return atomic_load_explicit(counter_field(pc, field), memory_order_relaxed);
}

void mcg_counter_set(struct mcg_cgroup *cg, enum mcg_counter counter,
		     enum mcg_counter_field field, unsigned long value)
{
	_Atomic unsigned long *f = counter_field(&cg->counters[counter], field);

	g_return_if_fail(f != NULL);
	/* page_counter_reset_watermark(): the local one too, first, so that
	 * it is never above the global */
	if (field == MCG_FIELD_WATERMARK)
		atomic_store_explicit(&cg->counters[counter].local_watermark, value,
				      memory_order_relaxed);
	atomic_store_explicit(f, value, memory_order_relaxed);
}

long mcg_cgroup_css_refs(const struct mcg_cgroup *cg)
{
	return atomic_load_explicit(&cg->css_refs, memory_order_relaxed);
}

void mcg_memory_event(struct mcg_cgroup *cg, enum mcg_memory_event ev)
{
	atomic_fetch_add_explicit(&cg->memory_events_local[ev], 1, memory_order_relaxed);
	for (struct mcg_cgroup *a = cg; a; a = a->parent)
		atomic_fetch_add_explicit(&a->memory_events[ev], 1, memory_order_relaxed);
}

unsigned long mcg_memory_event_read(const struct mcg_cgroup *cg, enum mcg_memory_event ev,
				    bool local)
{
	return atomic_load_explicit(local ? &cg->memory_events_local[ev] : &cg->memory_events[ev],
				    memory_order_relaxed);
}

void mcg_memcg_set_oom_group(struct mcg_cgroup *memcg, bool on)
{
	atomic_store_explicit(&memcg->oom_group, on, memory_order_relaxed);
}

bool mcg_memcg_oom_group(const struct mcg_cgroup *memcg)
{
	return atomic_load_explicit(&memcg->oom_group, memory_order_relaxed);
}

/* memcg_update_tcp_max() (7.3 mm/memcontrol-v1.c): the first limit written
 * turns the accounting on, for good. */
void mcg_memcg_activate_tcpmem(struct mcg_cgroup *memcg)
{
	atomic_store_explicit(&memcg->tcpmem_active, true, memory_order_relaxed);
}

bool mcg_memcg_tcpmem_active(const struct mcg_cgroup *memcg)
{
	return atomic_load_explicit(&memcg->tcpmem_active, memory_order_relaxed);
}

/* 7.3 mm/memcontrol.c mem_cgroup_get_oom_group(): cgroup v1 has no
 * oom.group; from the victim's memcg up to the domain, the highest with
 * it set wins.  A css's parent is its parent css (cgroup.c, "Memory
 * csses"), as parent_mem_cgroup(). */
struct mcg_cgroup *mcg_memcg_get_oom_group(struct mcg_engine *e, struct mcg_cgroup *victim,
					   struct mcg_cgroup *domain)
{
	struct mcg_cgroup *group = NULL;

	if (e->cfg.hierarchy != MCG_HIERARCHY_V2 || !victim || !victim->parent)
		return NULL;
	if (domain && !mcg_cgroup_is_descendant(victim, domain))
		return NULL;
	/* parents are immutable and held by their children */
	for (struct mcg_cgroup *m = victim; m; m = m->parent) {
		if (mcg_memcg_oom_group(m))
			group = m;
		if (m == domain)
			break;
	}
	return group ? mcg_cgroup_get(group) : NULL;
}
