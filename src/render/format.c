/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renderers of the cgroup v2 stat files; v1 files are dispatched to format_v1.c. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stddef.h>
#include <stdint.h>

#include "render/format.h"
#include "render/format_v1.h"

#define NSEC_PER_USEC 1000ULL

/*
 * How memory.stat and memory.numa_stat are printed.
 *
 * Nothing here knows a key.  The layout carries v2 memory.stat as a list of
 * lines in the kernel's order, and the renderers are loops over them:
 *
 *   memory.stat   = for each line of the layout:
 *                     item line:     "key value"   (bytes, or a count)
 *                     slab line:     "slab sum"    (derived, bytes)
 *                     pgscan line:   "pgscan sum"  (raw pages or counts)
 *                     pgsteal line:  "pgsteal sum"
 *                     the hugetlb line only with memory_hugetlb_accounting
 *   numa_stat     = for each memory_stats[] row whose item is per-node:
 *                     "key N0=v N1=v ..."          (same units)
 *
 * From 6.1 on the lines are built from memory_stats[] and
 * memcg_vm_event_stat[] as memcg_stat_format() loops over them; up to 5.15
 * memory_stat_format() wrote them by hand, in an order that moved from
 * release to release (5.4 prints "slab" after kernel_stack and its
 * workingset lines after pgmajfault), and the layout lists them as written.
 * Which numbers a line prints is the layout's business too: the unit of an
 * item (pages, bytes, KiB, count) and whether the summaries read state or
 * events differ between kernels, and mcg_stat_read() hides the difference
 * between the two kinds.  So one renderer serves every kernel, and a new
 * kernel is a new table, not a new renderer.
 *
 * Staleness is also the kernel's: each render first asks for the
 * thresholded flush of the cgroup being read (mem_cgroup_flush_stats()), and
 * only that.  Below the threshold the file shows the values of the last
 * flush, up to MEMCG_CHARGE_BATCH x nr_cpus page updates behind, and the
 * periodic flush bounds how long; forcing a flush here would hide exactly the
 * behaviour the emulation exists to reproduce.
 */

/* A state or event value of cg in the unit memory.stat prints. */
static unsigned long long stat_output(struct mcg_engine *e, const struct mcg_layout *l,
				      struct mcg_cgroup *cg, enum mcg_item item)
{
	return mcg_layout_output_value(l, item, (long)mcg_stat_read(e, cg, item, MCG_HIERARCHICAL));
}

/* A reclaim summary: the raw sum of its items, pages for 7.3 state and
 * counts for 6.12 events alike, no unit scaling (the kernel sums
 * memcg_page_state() / memcg_events() directly). */
static unsigned long long summary_sum(struct mcg_engine *e, struct mcg_cgroup *cg,
				      const enum mcg_item *items, unsigned nr_items)
{
	unsigned long sum = 0;

	for (unsigned i = 0; i < nr_items; i++)
		sum += mcg_stat_read(e, cg, items[i], MCG_HIERARCHICAL);
	return sum;
}

/* memcg_stat_format(); memory_stat_format() up to 6.1 */
static void memcg_stat_format(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	const struct mcg_engine_config *cfg = mcg_engine_config(e);
	const struct mcg_layout *l = mcg_engine_layout(e);

	mcg_memcg_flush_stats(e, cg);

	for (unsigned i = 0; i < l->nr_v2_lines; i++) {
		const struct mcg_stat_line *line = &l->v2_lines[i];
		unsigned long long value = 0;

		switch (line->kind) {
		case MCG_LINE_ITEM:
			/* memcg_accounts_hugetlb(): a mount option of cgroup2,
			 * so memory.stat hides the row unless hugetlb is
			 * charged at all (numa_stat does not; see below). */
			if (line->item == MCG_HUGETLB && !cfg->hugetlb_accounting)
				continue;
			value = stat_output(e, l, cg, line->item);
			break;
		case MCG_LINE_SLAB:
			value = stat_output(e, l, cg, MCG_SLAB_RECLAIMABLE_B) +
				stat_output(e, l, cg, MCG_SLAB_UNRECLAIMABLE_B);
			break;
		case MCG_LINE_PGSCAN:
			value = summary_sum(e, cg, l->pgscan_items, l->nr_pgscan_items);
			break;
		case MCG_LINE_PGSTEAL:
			value = summary_sum(e, cg, l->pgsteal_items, l->nr_pgsteal_items);
			break;
		}
		g_string_append_printf(out, "%s %llu\n", line->name, value);
	}
}

/* memory_numa_stat_show(): the memory.stat rows of per-node items, one
 * column per node with memory.  The hugetlb row is not gated here: the
 * kernel checks the mount option only in memcg_stat_format(). */
static void memcg_numa_stat_format(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	const struct mcg_engine_config *cfg = mcg_engine_config(e);
	const struct mcg_layout *l = mcg_engine_layout(e);

	mcg_memcg_flush_stats(e, cg);

	for (unsigned i = 0; i < l->nr_v2_stats; i++) {
		const struct mcg_stat_row *row = &l->v2_stats[i];

		if (l->kind[row->item] != MCG_KIND_NODE)
			continue;
		g_string_append(out, row->name);
		for (unsigned nid = 0; nid < cfg->nr_nodes; nid++) {
			long stored = (long)mcg_stat_read_node(e, cg, (int)nid, row->item,
							       MCG_HIERARCHICAL);

			g_string_append_printf(out, " N%d=%llu", (int)nid,
					       mcg_layout_output_value(l, row->item, stored));
		}
		g_string_append_c(out, '\n');
	}
}

void mcg_format_memory_stat(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	if (mcg_engine_config(e)->hierarchy == MCG_HIERARCHY_V1)
		mcg1_stat_format(e, cg, out);
	else
		memcg_stat_format(e, cg, out);
}

void mcg_format_numa_stat(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	if (mcg_engine_config(e)->hierarchy == MCG_HIERARCHY_V1)
		mcg1_numa_stat_format(e, cg, out);
	else
		memcg_numa_stat_format(e, cg, out);
}

/* ---- memory.events, memory.events.local, memory.swap.events ------------------ */

/*
 * __memory_events_show() and swap_events_show() are hand-written seq_printf
 * lines in every kernel; what changed is which lines there are:
 *
 *   oom_group_kill  since 5.17 ("mm/memcg: Add oom_group_kill memory
 *                   event"): absent in 5.15, present in 6.1
 *   sock_throttled  present in 7.3's __memory_events_show(), absent in
 *                   6.12's: gated at the first modelled release that has it
 *   swap "high"     since 5.8 (4b82ab4f2850 "mm: memcontrol: add
 *                   memory.swap.high"): 5.4's swap_events_show() prints
 *                   max and fail only
 */
#define EVENT_NONE MCG_NR_MEMORY_EVENTS

static const struct memory_event_row {
	const char *name;
	enum mcg_memory_event event;	/* EVENT_NONE: not counted, see below */
	unsigned since;			/* MCG_KVER(); 0: in every era */
} memory_event_rows[] = {
	{ "low",		MCG_MEMORY_LOW,			0 },
	{ "high",		MCG_MEMORY_HIGH,		0 },
	{ "max",		MCG_MEMORY_MAX,			0 },
	{ "oom",		MCG_MEMORY_OOM,			0 },
	{ "oom_kill",		MCG_MEMORY_OOM_KILL,		0 },
	{ "oom_group_kill",	MCG_MEMORY_OOM_GROUP_KILL,	MCG_KVER(5, 17) },
	/* MEMCG_SOCK_THROTTLED is raised when the network stack throttles a
	 * socket of the memcg under memory pressure; the emulation has no
	 * sockets to throttle, so the engine keeps no such counter and the
	 * line reads 0, as it does on a kernel whose sockets never stall. */
	{ "sock_throttled",	EVENT_NONE,			MCG_KVER(7, 3) },
}, swap_event_rows[] = {
	{ "high",		MCG_MEMORY_SWAP_HIGH,		MCG_KVER(5, 8) },
	{ "max",		MCG_MEMORY_SWAP_MAX,		0 },
	{ "fail",		MCG_MEMORY_SWAP_FAIL,		0 },
};

static void memory_events_append(const struct mcg_layout *l, struct mcg_cgroup *cg, GString *out,
				 const struct memory_event_row *rows, unsigned nr, bool local)
{
	for (unsigned i = 0; i < nr; i++) {
		unsigned long v = 0;

		if (l->version < rows[i].since)
			continue;
		if (rows[i].event != EVENT_NONE)
			v = mcg_memory_event_read(cg, rows[i].event, local);
		g_string_append_printf(out, "%s %lu\n", rows[i].name, v);
	}
}

void mcg_format_memory_events(struct mcg_engine *e, struct mcg_cgroup *cg, bool local,
			      GString *out)
{
	memory_events_append(mcg_engine_layout(e), cg, out, memory_event_rows,
			     G_N_ELEMENTS(memory_event_rows), local);
}

/* swap_events_show() reads the hierarchical counts only. */
void mcg_format_swap_events(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	memory_events_append(mcg_engine_layout(e), cg, out, swap_event_rows,
			     G_N_ELEMENTS(swap_event_rows), false);
}

/* ---- cpu.stat -------------------------------------------------------------- */

/* cgroup_base_stat_cputime_show(): the base stats in microseconds (the
 * kernel divides each nanosecond total with do_div, i.e. truncates):
 * usage, user and system, and nice_usec since "cgroup/rstat: Tracking
 * cgroup-level niced CPU time" (aefa398d93d5; in Debian's 6.12 and 7.3
 * sources, not in 6.1's or 5.10's; placed at 6.12 here, the first release
 * whose source shows it). */
static const struct cputime_row {
	const char *name;
	size_t offset;		/* of a uint64_t in struct mcg_cputime */
	unsigned since;		/* MCG_KVER() of the first release printing it */
} cputime_rows[] = {
	{ "usage_usec",		offsetof(struct mcg_cputime, usage_ns), 0 },
	{ "user_usec",		offsetof(struct mcg_cputime, user_ns), 0 },
	{ "system_usec",	offsetof(struct mcg_cputime, system_ns), 0 },
	{ "nice_usec",		offsetof(struct mcg_cputime, nice_ns), MCG_KVER(6, 12) },
};

void mcg_format_cpu_stat(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out)
{
	unsigned release = mcg_kernel_release(&mcg_engine_config(e)->kernel);
	struct mcg_cputime t;

	/* The root reads the scheduler's totals and flushes nothing (so a
	 * root cpu.stat never runs memcg's callback, shared tree or not). */
	if (mcg_cgroup_is_root(cg)) {
		mcg_cputime_read_root(e, &t);
	} else {
		mcg_cputime_show(e, cg, &t);
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(cputime_rows); i++) {
		const uint64_t *ns = (const uint64_t *)((const char *)&t + cputime_rows[i].offset);

		if (release < cputime_rows[i].since)
			continue;
		g_string_append_printf(out, "%s %llu\n", cputime_rows[i].name,
				       (unsigned long long)(*ns / NSEC_PER_USEC));
	}
}

/* ---- io.stat --------------------------------------------------------------- */

/*
 * blkcg_print_stat() prints one line per blkg of the cgroup, i.e. per device
 * the subtree has issued I/O to: "MAJ:MIN " and then the counters, but the
 * counters only if a read or write was seen (a discard-only device shows just
 * its name).  The emulation has no blkg objects, so "any counter non-zero"
 * stands for "a blkg exists"; the counter block keeps the kernel's own
 * condition, so both cases print as the kernel would.
 */
void mcg_format_io_stat(struct mcg_engine *e, struct mcg_cgroup *cg, const char *const *tail,
			GString *out)
{
	mcg_io_flush_for_read(e, cg);
	mcg_format_io_stat_flushed(e, cg, tail, out);
}

void mcg_io_flush_for_read(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	if (!mcg_cgroup_is_root(cg))
		mcg_io_flush(e, cg);
}

void mcg_io_read_for_show(const struct mcg_engine *e, const struct mcg_cgroup *cg, unsigned dev,
			  struct mcg_iostat *st)
{
	if (mcg_cgroup_is_root(cg))
		mcg_io_read_root(e, dev, st);
	else
		mcg_io_read(cg, dev, st);
}

/*
 * Which devices get a line.  blkcg_print_stat() prints one per blkg of the
 * cgroup, and the root has a blkg on every disk from its start
 * (blkcg_init_disk()); another cgroup gets one with its first I/O to the
 * disk.  6.1's blkcg_print_one_stat() prints a line for every online blkg,
 * counters or not; 5.10's blkcg_print_stat() only one with something to
 * say (has_stats: read or write counters, or a policy's pd_stat_fn()
 * output), so a discard-only device has none.  The change lies between the
 * two sources here; it is placed at 6.1.
 */
void mcg_format_io_stat_flushed(const struct mcg_engine *e, struct mcg_cgroup *cg,
				const char *const *tail, GString *out)
{
	bool every_blkg = mcg_kernel_release(&mcg_engine_config(e)->kernel) >= MCG_KVER(6, 1);

	for (unsigned dev = 0; dev < MCG_IO_NR_DEVS; dev++) {
		struct mcg_iostat st;
		uint64_t rbytes, wbytes, dbytes, rios, wios, dios;

		mcg_io_read_for_show(e, cg, dev, &st);
		rbytes = st.bytes[MCG_IO_READ];
		wbytes = st.bytes[MCG_IO_WRITE];
		dbytes = st.bytes[MCG_IO_DISCARD];
		rios = st.ios[MCG_IO_READ];
		wios = st.ios[MCG_IO_WRITE];
		dios = st.ios[MCG_IO_DISCARD];
		bool rw = rbytes || wbytes || rios || wios, pd = tail && tail[dev] && tail[dev][0];
		bool blkg = mcg_cgroup_is_root(cg) || rw || dbytes || dios;

		if (!blkg || (!every_blkg && !(rw || pd)))
			continue;

		g_string_append_printf(out, "%u:%u ", mcg_io_devs[dev].major, mcg_io_devs[dev].minor);
		if (rw)
			g_string_append_printf(out,
				"rbytes=%llu wbytes=%llu rios=%llu wios=%llu dbytes=%llu dios=%llu",
				(unsigned long long)rbytes, (unsigned long long)wbytes,
				(unsigned long long)rios, (unsigned long long)wios,
				(unsigned long long)dbytes, (unsigned long long)dios);
		/* blkcg_print_one_stat(): each policy's pd_stat_fn() */
		if (tail && tail[dev])
			g_string_append(out, tail[dev]);
		g_string_append_c(out, '\n');
	}
}

/* ---- Limits ---------------------------------------------------------------- */

/* memcg1_stat_format()'s "Hierarchical information": with use_hierarchy
 * always on, a charge fails at the tightest max on the way to the root, so
 * that is the limit that applies to cg. */
unsigned long long mcg_format_hierarchical_limit(const struct mcg_cgroup *cg,
						 enum mcg_counter counter)
{
	unsigned long limit = MCG_PAGE_COUNTER_MAX;

	for (const struct mcg_cgroup *mi = cg; mi != NULL; mi = mcg_cgroup_parent(mi)) {
		unsigned long max = mcg_counter_read(mi, counter, MCG_FIELD_MAX);

		if (max < limit)
			limit = max;
	}
	return (unsigned long long)limit * MCG_PAGE_SIZE;
}
