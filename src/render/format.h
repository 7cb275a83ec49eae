/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renderers of the memory controller's stat files, byte for byte as the
 * kernel prints them for the engine's layout and hierarchy.
 *
 * Each renderer first does what the kernel's seq_show does before printing
 * (the thresholded memcg flush for memory.stat and memory.numa_stat; the base
 * or io tree flush for cpu.stat and io.stat), then appends the whole text to
 * `out`.  They may be called from any thread, concurrently.
 */
#ifndef MEMCGFS_RENDER_FORMAT_H
#define MEMCGFS_RENDER_FORMAT_H

#include <glib.h>

#include "engine/engine.h"

/* memory.stat: v2 (memcg_stat_format) or v1 (memcg1_stat_format). */
void mcg_format_memory_stat(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out);
/* memory.numa_stat: v2 (memory_numa_stat_show) or v1 (memcg_numa_stat_show). */
void mcg_format_numa_stat(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out);
/* memory.events (local false) or memory.events.local (local true), with the
 * lines of the engine's kernel (__memory_events_show()). */
void mcg_format_memory_events(struct mcg_engine *e, struct mcg_cgroup *cg, bool local,
			      GString *out);
/* memory.swap.events (swap_events_show()). */
void mcg_format_swap_events(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out);
/* cpu.stat (base stats only: usage, user, system, nice). */
void mcg_format_cpu_stat(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out);
/* io.stat: one line per device with any I/O; tail (NULL, or one string or
 * NULL per device) ends a device's line: the policies' pd_stat_fn fields. */
void mcg_format_io_stat(struct mcg_engine *e, struct mcg_cgroup *cg, const char *const *tail,
			GString *out);
/* The same without the flush, for a caller that flushed
 * (mcg_io_flush_for_read()) to read the counters itself
 * (mcg_io_read_for_show()): one flush per read, as the kernel's. */
void mcg_format_io_stat_flushed(const struct mcg_engine *e, struct mcg_cgroup *cg,
				const char *const *tail, GString *out);
/* blkcg_print_stat(): a cgroup's io.stat flushes its subtree first; the
 * root's flushes nothing and reads the disks' own counters
 * (blkcg_fill_root_iostats(), 5.10 to 7.3). */
void mcg_io_flush_for_read(struct mcg_engine *e, struct mcg_cgroup *cg);
void mcg_io_read_for_show(const struct mcg_engine *e, const struct mcg_cgroup *cg, unsigned dev,
			  struct mcg_iostat *st);

/* The v1 hierarchical_memory_limit / hierarchical_memsw_limit value in bytes:
 * the smallest max of the counter over cg and its ancestors. */
unsigned long long mcg_format_hierarchical_limit(const struct mcg_cgroup *cg,
						 enum mcg_counter counter);

#endif
