/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lock statistics of an engine (lockstat.h says what is counted and why):
 * switching them on and off, and the root's memcgfs.lock_stat. */
#include "engine/internal.h"

static void lock_stats_each(struct mcg_engine *e, void (*fn)(struct lock_stat *s, const char *name,
							      void *arg),
			    void *arg)
{
	/* The kernels' names: one cgroup_rstat_lock for a shared tree (<=
	 * 6.15), rstat_base_lock and each subsystem's rstat_ss_lock once
	 * split (7.3 kernel/cgroup/rstat.c), with their per-CPU locks. */
	static const char *const split_names[MCG_NR_PARTS][2] = {
		[MCG_PART_MEMORY] = { "rstat_ss_lock(memory)", "rstat_ss_cpu_lock(memory)" },
		[MCG_PART_IO] = { "rstat_ss_lock(io)", "rstat_ss_cpu_lock(io)" },
		[MCG_PART_BASE] = { "rstat_base_lock", "rstat_base_cpu_lock" },
	};

	for (int p = 0; p < MCG_NR_PARTS; p++) {
		struct rstat_tree *t = e->tree_of[p];
		bool shared = !e->cfg.kernel.split_trees;

		if (shared && p != MCG_PART_MEMORY)
			continue;	/* one tree: counted once */
		fn(&t->lock_stat, shared ? "cgroup_rstat_lock" : split_names[p][0], arg);
		fn(&t->cpu_lock_stat, shared ? "cgroup_rstat_cpu_lock" : split_names[p][1], arg);
	}
	fn(&e->stats_flush_lock_stat, "stats_flush_lock", arg);
	fn(&e->stock_drain_lock_stat, "memcg_stock.drain", arg);
}

static void lock_stat_clear_one(struct lock_stat *s, const char *name, void *arg)
{
	(void)name;
	(void)arg;
	lock_stat_clear(s);
}

void mcg_lock_stat_set(struct mcg_engine *e, bool on)
{
	if (on)
		lock_stats_each(e, lock_stat_clear_one, NULL);
	atomic_store_explicit(&e->lock_stat_on, on, memory_order_relaxed);
}

static void lock_stat_line(struct lock_stat *s, const char *name, void *arg)
{
	GString *out = arg;

	g_string_append_printf(
		out, "%-28s %12" G_GUINT64_FORMAT " %13.2f %15.2f %13" G_GUINT64_FORMAT " %13.2f %15.2f\n",
		name, atomic_load_explicit(&s->contentions, memory_order_relaxed),
		atomic_load_explicit(&s->wait_max_ns, memory_order_relaxed) / 1e3,
		atomic_load_explicit(&s->wait_ns, memory_order_relaxed) / 1e3,
		atomic_load_explicit(&s->acquisitions, memory_order_relaxed),
		atomic_load_explicit(&s->hold_max_ns, memory_order_relaxed) / 1e3,
		atomic_load_explicit(&s->hold_ns, memory_order_relaxed) / 1e3);
}

void mcg_lock_stat_format(struct mcg_engine *e, GString *out)
{
	g_string_append_printf(out, "# lock_stat: counting %s; times in usec\n",
			       atomic_load_explicit(&e->lock_stat_on, memory_order_relaxed) ? "on"
											   : "off");
	g_string_append_printf(out, "%-28s %12s %13s %15s %13s %13s %15s\n", "class name",
			       "contentions", "waittime-max", "waittime-total", "acquisitions",
			       "holdtime-max", "holdtime-total");
	lock_stats_each(e, lock_stat_line, out);
}
