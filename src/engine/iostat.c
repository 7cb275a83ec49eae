/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io stats per device (io.stat), a minimal blkcg rstat participant
 * (block/blk-cgroup.c, blkcg_rstat_flush()). */
#include "engine/internal.h"

const struct mcg_io_dev mcg_io_devs[MCG_IO_NR_DEVS] = { { 8, 0 }, { 8, 16 } };

void mcg_io_account(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned dev, enum mcg_io_op op,
		    uint64_t bytes)
{
	struct mcg_engine *e = c->engine;
	struct io_pcpu *ic;

	g_assert(dev < MCG_IO_NR_DEVS && (unsigned)op < MCG_IO_NR_OPS);
	/* I/O goes to the bio's blkcg (blkcg_iostat_update() on its blkg),
	 * a css of the io (v1: blkio) controller: on a v1 memory hierarchy,
	 * another hierarchy, so nothing here. */
	if (e->cfg.hierarchy == MCG_HIERARCHY_V1)
		return;
	while (!atomic_load_explicit(&cg->online, memory_order_relaxed))
		cg = cg->parent;
	ic = (struct io_pcpu *)(this_cpu_pcpu(c, cg) + e->off_io);
	acount_add_single_writer(&ic->cur.bytes[dev][op], (long)bytes);
	acount_add_single_writer(&ic->cur.ios[dev][op], 1);
	/* The disk's own per-CPU part_stat, which the root reads. */
	acount_add_single_writer(&c->diskstats.bytes[dev][op], (long)bytes);
	acount_add_single_writer(&c->diskstats.ios[dev][op], 1);
	rstat_updated(e->tree_of[MCG_PART_IO], cg->node_of[MCG_PART_IO], c->id);
}

/* dst += a - b for every counter, then b = a when `advance`. */
static void io_counts_fold(struct io_counts *dst, struct io_counts *a, struct io_counts *b)
{
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++) {
		for (unsigned op = 0; op < MCG_IO_NR_OPS; op++) {
			long bytes = acount_read(&a->bytes[d][op]);
			long ios = acount_read(&a->ios[d][op]);

			acount_add_single_writer(&dst->bytes[d][op], bytes - acount_read(&b->bytes[d][op]));
			acount_add_single_writer(&dst->ios[d][op], ios - acount_read(&b->ios[d][op]));
			acount_set(&b->bytes[d][op], bytes);
			acount_set(&b->ios[d][op], ios);
		}
	}
}

/* Same shape as the base-stat flush: this CPU's delta into the cgroup, the
 * cgroup's unpropagated growth into the parent. */
void io_flush_cpu(void *owner, unsigned cpu, void *arg)
{
	struct mcg_cgroup *cg = owner;
	struct mcg_engine *e = arg;
	struct io_pcpu *ic = (struct io_pcpu *)(cg_pcpu(cg, cpu) + e->off_io);

	io_counts_fold(&cg->iostat, &ic->cur, &ic->last);
	if (cg->parent)
		io_counts_fold(&cg->parent->iostat, &cg->iostat, &cg->last_iostat);
}

void mcg_io_flush(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	engine_flush_part(e, cg, MCG_PART_IO);
}

void mcg_io_read_root(const struct mcg_engine *e, unsigned dev, struct mcg_iostat *out)
{
	g_assert(dev < MCG_IO_NR_DEVS);
	*out = (struct mcg_iostat){ 0 };
	for (unsigned cpu = 0; cpu < e->cfg.nr_cpus; cpu++)
		for (unsigned op = 0; op < MCG_IO_NR_OPS; op++) {
			const struct io_counts *d = &e->cpus[cpu].diskstats;

			out->bytes[op] += (uint64_t)acount_read(&d->bytes[dev][op]);
			out->ios[op] += (uint64_t)acount_read(&d->ios[dev][op]);
		}
}

void mcg_io_read(const struct mcg_cgroup *cg, unsigned dev, struct mcg_iostat *out)
{
	g_assert(dev < MCG_IO_NR_DEVS);
	for (unsigned op = 0; op < MCG_IO_NR_OPS; op++) {
		out->bytes[op] = (uint64_t)acount_read(&cg->iostat.bytes[dev][op]);
		out->ios[op] = (uint64_t)acount_read(&cg->iostat.ios[dev][op]);
	}
}
