/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cgroup v1 renderers, private to src/render: format.c dispatches to them
 * when the engine runs a v1 hierarchy (memory_stat_format() and the v1
 * cftype of memory.numa_stat in the kernel).
 *
 * Same contract as the public renderers in format.h: flush first (the
 * thresholded memcg flush, once), then append the whole file to `out`; any
 * thread, concurrently.
 */
#ifndef MEMCGFS_RENDER_FORMAT_V1_H
#define MEMCGFS_RENDER_FORMAT_V1_H

#include <glib.h>

#include "engine/engine.h"

/* v1 memory.stat (memcg1_stat_format()). */
void mcg1_stat_format(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out);
/* v1 memory.numa_stat (memcg_numa_stat_show()), in pages; with the
 * numa_stat_walk switch the hierarchical lines walk the subtree as before
 * v5.8. */
void mcg1_numa_stat_format(struct mcg_engine *e, struct mcg_cgroup *cg, GString *out);

#endif
