/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The list of eras, the releases memcgfs models, and the resolution of
 * "--kernel" into one kernel (a patch goes on top: src/patches/). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "kernel/eras.h"

static const struct mcg_kernel *const eras[] = {
	&mcg_era_5_10,
	&mcg_era_6_1,
	&mcg_era_6_12,
	&mcg_era_7_3,
};

#define NR_ERAS (sizeof(eras) / sizeof(eras[0]))

/*
 * Every release from 5.4 to 7.3, and what it is made of.
 *
 * A release has two halves, taken independently:
 *
 *   its layout (which files, which lines, in which order): the table of the
 *     newest tabulated release at or before it.  Tables exist for every LTS
 *     release from 5.4 (5.4, 5.10, 5.15, 6.1, 6.6, 6.12) and for 7.3
 *     (src/kernel/items.c); 6.3 prints 6.1's layout, 7.1 prints 6.12's.
 *     Adding a release's exact layout means adding its table there and its
 *     row in layout_of[] below.
 *
 *   its mechanisms (how stats travel from an update to a reader): the era
 *     whose stats machinery the release already has, i.e. the nearest
 *     modelled era in mechanism.  The boundaries are the commits that
 *     replaced one machinery by the next:
 *
 *       5.4  .. 5.12  5.10's  batched atomics; memcg joined rstat in 5.13
 *                             (2d146aa3aa84 "mm: memcontrol: switch to rstat")
 *       5.13 .. 6.7   6.1's   rstat, one global flush threshold; per-memcg
 *                             thresholds came in 6.8 (8d59d2214c23 "mm: memcg:
 *                             make stats flushing threshold per-memcg")
 *       6.8  .. 6.16  6.12's  per-memcg thresholds, per-CPU locked updater;
 *                             the lockless llist updater came in 6.17
 *       6.17 .. 7.3   7.3's
 *
 *     What a release differs in from its era is not modelled: 5.4 still
 *     walked the subtree for v1 numa_stat (seed 003 before), 5.15 had a
 *     MEMCG_CHARGE_BATCH of 32 (64 since 6.1, 1813e51eece0) and flushed
 *     on every request (flush-only-if-updated before), 6.6 kept v1
 *     locals in the flush (seed 000 after), 6.7 counted updates in pages
 *     (per-memcg-threshold before): a patch sets these where its
 *     experiment needs them.
 *
 *   its build: CONFIG_MEMCG_V1 and CONFIG_LRU_GEN_ENABLED as Debian
 *     configures the release (debian_configs[] below), which a mount may
 *     change (mcg_kernel_configure()).  The layout is printed in the
 *     CONFIG_MEMCG_V1 build the kernel has (mcg_layout_build()).
 */
struct release_range {
	unsigned major, first_minor, last_minor;
};

static const struct release_range releases[] = {
	{ 5, 4, 19 },
	{ 6, 0, 19 },	/* 6.19 was followed by 7.0 */
	{ 7, 0, 3 },
};

static const struct {
	unsigned since;
	enum mcg_layout_id layout;
} layout_of[] = {
	{ MCG_KVER(5, 4), MCG_LAYOUT_5_4 },
	{ MCG_KVER(5, 10), MCG_LAYOUT_5_10 },
	{ MCG_KVER(5, 15), MCG_LAYOUT_5_15 },
	{ MCG_KVER(6, 1), MCG_LAYOUT_6_1 },
	{ MCG_KVER(6, 6), MCG_LAYOUT_6_6 },
	{ MCG_KVER(6, 12), MCG_LAYOUT_6_12 },
	{ MCG_KVER(7, 3), MCG_LAYOUT_7_3 },
};

/*
 * How Debian configures each release: CONFIG_MEMCG_V1 and
 * CONFIG_LRU_GEN_ENABLED as config.amd64_none_amd64 of the package
 * linux-config-VERSION has them (the .config of linux-image-*-amd64, made
 * from debian/config/ of Debian's linux source package), for every Linux
 * source Debian has (../shared/tools/kernel-source lists them):
 *
 *   source    CONFIG_MEMCG_V1                 CONFIG_LRU_GEN  CONFIG_LRU_GEN_ENABLED
 *   5.10.223  (no such option)                (no such option)
 *   6.1.176   (no such option)                =y              "is not set"
 *   6.12.117  "# CONFIG_MEMCG_V1 is not set"  =y              =y
 *   7.2.13    "# CONFIG_MEMCG_V1 is not set"  =y              =y
 *   7.3.4     "# CONFIG_MEMCG_V1 is not set"  =y              =y
 *
 * A release Debian has no source of is configured as the nearest source at
 * or before it, carried forward as `make olddefconfig` carries a .config: an
 * option that config does not name takes its Kconfig default.  The options
 * exist from:
 *   CONFIG_LRU_GEN  6.1 (mm/Kconfig, "mm: multi-gen LRU: groundwork");
 *                   before, the classic LRU only;
 *   CONFIG_MEMCG_V1 6.11 (init/Kconfig, e93d4166b40a "mm: memcg: put
 *                   cgroup v1-specific code under a config option"),
 *                   "default n"; before, the v1 controller is always built.
 * So 5.4 .. 5.9 (before Debian's oldest source) and 5.10 .. 6.0 have v1 and
 * the classic LRU; 6.1 .. 6.10 v1 and the classic LRU (6.1's config leaves
 * CONFIG_LRU_GEN_ENABLED off); 6.11 the same LRU and, its 6.1 config not
 * naming CONFIG_MEMCG_V1, no v1 controller by default; 6.12 .. 7.3 no v1
 * controller and the multi-gen LRU.
 */
static const struct {
	unsigned since;		/* the release of the Debian source */
	bool memcg_v1;		/* from 6.11 on */
	bool lru_gen_enabled;	/* from 6.1 on */
} debian_configs[] = {
	{ MCG_KVER(5, 4), true, false },	/* none: no option exists */
	{ MCG_KVER(5, 10), true, false },
	{ MCG_KVER(6, 1), false, false },	/* CONFIG_MEMCG_V1 not named: default n */
	{ MCG_KVER(6, 12), false, true },
	{ MCG_KVER(7, 2), false, true },
	{ MCG_KVER(7, 3), false, true },
};

#define MEMCG_V1_SINCE MCG_KVER(6, 11)
#define LRU_GEN_SINCE MCG_KVER(6, 1)

static const struct {
	unsigned since;
	const struct mcg_kernel *era;
} era_of[] = {
	{ MCG_KVER(5, 4), &mcg_era_5_10 },
	{ MCG_KVER(5, 13), &mcg_era_6_1 },
	{ MCG_KVER(6, 8), &mcg_era_6_12 },
	{ MCG_KVER(6, 17), &mcg_era_7_3 },
};

/* The canonical names of the releases, "5.4" ... "7.3": mcg_kernel.version
 * points into this, so it outlives every caller. */
static char release_names[64][6];

static void release_names_fill(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < G_N_ELEMENTS(releases); i++)
		for (unsigned minor = releases[i].first_minor; minor <= releases[i].last_minor;
		     minor++) {
			g_assert(n < G_N_ELEMENTS(release_names));
			snprintf(release_names[n++], sizeof(release_names[0]), "%u.%u",
				 releases[i].major, minor);
		}
}

const struct mcg_kernel *const *mcg_kernel_list(unsigned *nr)
{
	*nr = NR_ERAS;
	return eras;
}

const struct mcg_kernel *mcg_kernel_get(const char *version)
{
	if (!version)
		return NULL;
	for (unsigned i = 0; i < NR_ERAS; i++)
		if (strcmp(eras[i]->version, version) == 0)
			return eras[i];
	return NULL;
}

/* "MAJOR.MINOR", both plain decimal without leading zeros or signs, of a
 * release in releases[]: its MCG_KVER() and its index among the names, or
 * false. */
static bool release_parse(const char *version, unsigned *kver, unsigned *index)
{
	unsigned major = 0, minor = 0, n = 0;
	const char *p = version;

	if (!p)
		return false;
	for (unsigned *field = &major;; field = &minor, p++) {
		const char *start = p;

		while (*p >= '0' && *p <= '9' && p - start < 3)
			*field = *field * 10 + (unsigned)(*p++ - '0');
		if (p == start || (*start == '0' && p - start > 1))
			return false;
		if (field == &minor)
			break;
		if (*p != '.')
			return false;
	}
	if (*p != '\0')
		return false;
	for (unsigned i = 0; i < G_N_ELEMENTS(releases); i++) {
		const struct release_range *r = &releases[i];

		if (major == r->major && minor >= r->first_minor && minor <= r->last_minor) {
			*kver = MCG_KVER(major, minor);
			*index = n + minor - r->first_minor;
			return true;
		}
		n += r->last_minor - r->first_minor + 1;
	}
	return false;
}

bool mcg_kernel_release_known(const char *version)
{
	unsigned kver, index;

	return release_parse(version, &kver, &index);
}

unsigned mcg_kernel_release(const struct mcg_kernel *k)
{
	unsigned kver = 0, index;

	if (!release_parse(k->version, &kver, &index))
		g_assert_not_reached();
	return kver;
}

/* The kernel of a release: its era's mechanisms with its layout, built as
 * Debian builds it. */
static void release_kernel(const char *version, struct mcg_kernel *out)
{
	static pthread_once_t named = PTHREAD_ONCE_INIT;
	unsigned kver = 0, index = 0, i;

	pthread_once(&named, release_names_fill);
	if (!release_parse(version, &kver, &index))
		g_assert_not_reached();
	for (i = G_N_ELEMENTS(era_of); i-- > 0;)
		if (kver >= era_of[i].since)
			break;
	*out = *era_of[i].era;
	for (i = G_N_ELEMENTS(layout_of); i-- > 0;)
		if (kver >= layout_of[i].since)
			break;
	out->version = release_names[index];
	out->layout = layout_of[i].layout;
	for (i = G_N_ELEMENTS(debian_configs); i-- > 0;)
		if (kver >= debian_configs[i].since)
			break;
	out->memcg_v1 = kver < MEMCG_V1_SINCE || debian_configs[i].memcg_v1;
	out->memcg_v1_chosen = false;
	out->lru_gen_enabled = kver >= LRU_GEN_SINCE && debian_configs[i].lru_gen_enabled;
}

const struct mcg_kernel *mcg_kernel_default(void)
{
	return &mcg_era_7_3;
}

int mcg_kernel_resolve(const char *version, struct mcg_kernel *out, const char **why)
{
	if (!version)
		version = mcg_kernel_default()->version;
	if (!mcg_kernel_release_known(version)) {
		*why = "unknown kernel version (known: " MCG_KERNEL_RELEASES ")";
		return -1;
	}
	release_kernel(version, out);
	return 0;
}

int mcg_kernel_configure(struct mcg_kernel *k, const struct mcg_kernel_config *c, bool v1,
			 const char **why)
{
	unsigned kver = mcg_kernel_release(k);

	if (c->memcg_v1 != MCG_KCONFIG_DEFAULT) {
		bool on = c->memcg_v1 == MCG_KCONFIG_Y;

		if (!on && kver < MEMCG_V1_SINCE) {
			*why = "memcg_v1=n needs a kernel of 6.11 or later: CONFIG_MEMCG_V1 "
			       "came in 6.11, before it the v1 memory controller is always built";
			return -1;
		}
		if (k->memcg_v1_chosen && on != k->memcg_v1) {
			/* a patch chose the build (seed 001's) */
			*why = "this patch runs a kernel built without CONFIG_MEMCG_V1 on both "
			       "sides: memcg_v1=y is not its experiment";
			return -1;
		}
		k->memcg_v1 = on;
		k->memcg_v1_chosen = true;
	}
	if (c->lru_gen != MCG_KCONFIG_DEFAULT) {
		bool on = c->lru_gen == MCG_KCONFIG_Y;

		if (on && kver < LRU_GEN_SINCE) {
			*why = "lru_gen=y needs a kernel of 6.1 or later: the multi-gen LRU "
			       "(CONFIG_LRU_GEN) came in 6.1";
			return -1;
		}
		k->lru_gen_enabled = on;
	}
	if (v1 && c->memcg_v1 == MCG_KCONFIG_N) {
		*why = "memcg_v1=n builds no v1 memory controller (CONFIG_MEMCG_V1=n): "
		       "--hierarchy=v1 needs memcg_v1=y, or no memcg_v1 option";
		return -1;
	}
	if (mcg_kernel_check_hierarchy(k, v1, why) != 0)
		return -1;
	mcg_kernel_set_hierarchy(k, v1);
	return 0;
}

int mcg_kernel_check_hierarchy(const struct mcg_kernel *k, bool v1, const char **why)
{
	if (v1 && !k->memcg_v1 && k->memcg_v1_chosen) {
		*why = "this kernel is built without CONFIG_MEMCG_V1 (by its patch, as "
		       "seed 001's, or memcg_v1=n): there is no v1 memory controller, use "
		       "--hierarchy=v2";
		return -1;
	}
	return 0;
}

/* A v1 hierarchy is mounted on a kernel built with CONFIG_MEMCG_V1=y, as
 * the 6.18 the v1 goldens were captured on is: the release's default
 * gives way. */
void mcg_kernel_set_hierarchy(struct mcg_kernel *k, bool v1)
{
	if (v1)
		k->memcg_v1 = true;
}

const struct mcg_layout *mcg_kernel_layout(const struct mcg_kernel *k)
{
	return mcg_layout_get(mcg_layout_build(k->layout, k->memcg_v1));
}

/* kmalloc_size_roundup() for SLUB's kmalloc caches: the power-of-two classes
 * with 96 and 192 between; beyond KMALLOC_MAX_CACHE_SIZE (8 KiB) the page
 * allocator's order. */
static size_t kmalloc_class(size_t size)
{
	size_t c = 8;

	if (size > 8192) {
		for (c = 4096; c < size; c <<= 1)
			;
		return c;
	}
	while (c < size) {
		if (c == 64 && size <= 96)
			return 96;
		if (c == 128 && size <= 192)
			return 192;
		c <<= 1;
	}
	return c;
}

/* obj_full_size(): the object's slot plus its obj_cgroup pointer. */
static size_t slab_charge(size_t size)
{
	return kmalloc_class(size) + sizeof(void *);
}

/* What a per-CPU allocation charges: every CPU's copy; from 6.1,
 * pcpu_obj_full_size() (mm/percpu-internal.h) adds an obj_cgroup pointer
 * per PCPU_MIN_ALLOC_SIZE (4) bytes (5.10 charges size * nr_cpus,
 * pcpu_memcg_pre_alloc_hook()). */
static size_t percpu_charge(size_t size, unsigned nr_cpus, bool objcg_slots)
{
	return size * nr_cpus + (objcg_slots ? size / 4 * sizeof(void *) : 0);
}

/* Appends one object to o. */
static void object_add(struct mcg_memcg_objects *o, enum mcg_memcg_object_kind kind,
		       unsigned nid, size_t bytes)
{
	o->obj[o->nr++] = (struct mcg_memcg_object){ kind, nid, bytes };
	if (kind == MCG_OBJECT_SLAB)
		o->slab += bytes;
	else
		o->percpu += bytes;
}

/*
 * enum vm_event_item's NR_VM_EVENT_ITEMS (include/linux/vm_event_item.h)
 * with Debian's amd64 config (linux-config-5.10's config.amd64_none_amd64:
 * FOR_ALL_ZONES over DMA, DMA32, NORMAL and MOVABLE, NUMA, NUMA balancing,
 * migration, compaction, hugetlb, balloon compaction, THP, swap, the x86
 * direct map and TLB items; not CMA, DEBUG_TLBFLUSH or DEBUG_VM_VMACACHE;
 * counted by compiling the header with that config): the size of the events
 * arrays of the memcg's per-CPU statistics before 6.1.  The other releases
 * before 6.1 have no Debian source and take it from 5.10, the nearest one.
 */
#define NR_VM_EVENT_ITEMS_5_10 96

void mcg_memcg_objects(const struct mcg_kernel *k, unsigned nr_cpus, unsigned nr_nodes,
		       struct mcg_memcg_objects *out)
{
	const struct mcg_layout *l = mcg_kernel_layout(k);
	const unsigned release = mcg_kernel_release(k);
	const bool memcg_v1 = k->memcg_v1;
	const size_t S = l->nr_state_slots, N = l->nr_node_slots;
	/* events[NR_VM_EVENT_ITEMS] before 6.1, events[NR_MEMCG_EVENTS]
	 * from it (memcg_vm_event_stat[]: the layout's event slots) */
	const size_t E = l->version < MCG_KVER(6, 1) ? NR_VM_EVENT_ITEMS_5_10 : l->nr_event_slots;
	const size_t ntargets = 2;	/* MEM_CGROUP_NTARGETS: THRESH, SOFTLIMIT */
	const bool objcg = l->version >= MCG_KVER(6, 1);
	unsigned n = 0, events = 0;

	*out = (struct mcg_memcg_objects){ 0 };
	out->obj = g_new(struct mcg_memcg_object, MCG_MEMCG_OBJECTS_MAX(nr_nodes));
	out->free_order = g_new(unsigned, MCG_MEMCG_OBJECTS_MAX(nr_nodes));
	if (release < MCG_KVER(5, 9)) {
		/* 5.4 mem_cgroup_alloc(): alloc_percpu(), not accounted. */
	} else if (l->version < MCG_KVER(5, 13)) {
		/* 5.10 mem_cgroup_alloc(): vmstats_local and vmstats_percpu,
		 * each a struct memcg_vmstats_percpu (stat[MEMCG_NR_STAT],
		 * events[NR_VM_EVENT_ITEMS], nr_page_events, targets[]); per
		 * node (alloc_mem_cgroup_per_node_info()) lruvec_stat_local
		 * and lruvec_stat_cpu (struct lruvec_stat,
		 * count[NR_VM_NODE_STAT_ITEMS]), all alloc_percpu_gfp(...,
		 * GFP_KERNEL_ACCOUNT) (include/linux/memcontrol.h,
		 * mm/memcontrol.c of 5.10).  At 2 CPUs: 2224 bytes each of
		 * the two, 592 each of the node's two.
		 * __mem_cgroup_free() frees the nodes' (cpu, then local) first,
		 * then vmstats_percpu and vmstats_local. */
		size_t vmstats = percpu_charge(8 * (S + E + 1 + ntargets), nr_cpus, objcg);

		object_add(out, MCG_OBJECT_PERCPU, 0, vmstats);
		object_add(out, MCG_OBJECT_PERCPU, 0, vmstats);
		for (unsigned nid = 0; nid < nr_nodes; nid++) {
			object_add(out, MCG_OBJECT_PERCPU, 0, percpu_charge(8 * N, nr_cpus, objcg));
			object_add(out, MCG_OBJECT_PERCPU, 0, percpu_charge(8 * N, nr_cpus, objcg));
		}
		for (unsigned nid = 0; nid < nr_nodes; nid++) {
			out->free_order[n++] = 2 + 2 * nid + 1;
			out->free_order[n++] = 2 + 2 * nid;
		}
		out->free_order[n++] = 1;
		out->free_order[n++] = 0;
	} else if (l->version < MCG_KVER(6, 8)) {
		/* 6.1: struct memcg_vmstats_percpu (state[MEMCG_NR_STAT],
		 * events[NR_MEMCG_EVENTS], their _prev[], nr_page_events,
		 * targets[]); per node struct lruvec_stats_percpu
		 * (state[NR_VM_NODE_STAT_ITEMS], state_prev[]), both
		 * GFP_KERNEL_ACCOUNT (mm/memcontrol.c,
		 * include/linux/memcontrol.h of 6.1); 5.13 to 6.0 the same
		 * with events[NR_VM_EVENT_ITEMS].  struct memcg_vmstats is
		 * plain GFP_KERNEL.  At 2 CPUs: 4384 and 2752 bytes.
		 * __mem_cgroup_free(): the nodes', then vmstats_percpu. */
		object_add(out, MCG_OBJECT_PERCPU, 0,
			   percpu_charge(8 * (2 * S + 2 * E + 1 + ntargets), nr_cpus, objcg));
		for (unsigned nid = 0; nid < nr_nodes; nid++)
			object_add(out, MCG_OBJECT_PERCPU, 0, percpu_charge(16 * N, nr_cpus, objcg));
		for (unsigned nid = 0; nid < nr_nodes; nid++)
			out->free_order[n++] = 1 + nid;
		out->free_order[n++] = 0;
	} else {
		/* 6.12 and 7.3 mem_cgroup_alloc(): the slab object struct
		 * memcg_vmstats (state[], events[], their _local[] and
		 * _pending[], stats_updates); struct memcg_vmstats_percpu (a
		 * cache line aligned header of the update count and two
		 * pointers, state[], events[], their _prev[]); with
		 * CONFIG_MEMCG_V1 memcg1_alloc_events()' struct
		 * memcg1_events_percpu; per node the slab object struct
		 * lruvec_stats (state[], state_local[], state_pending[]) on
		 * that node and lruvec_stats_percpu.  __mem_cgroup_free():
		 * each node's (percpu, then slab), the v1 events, vmstats,
		 * vmstats_percpu. */
		size_t vmstats_percpu = (24 + 16 * (S + E) + 63) / 64 * 64;
		unsigned first_node;

		object_add(out, MCG_OBJECT_SLAB, 0, slab_charge(24 * (S + E) + 8));
		object_add(out, MCG_OBJECT_PERCPU, 0, percpu_charge(vmstats_percpu, nr_cpus, objcg));
		if (memcg_v1) {
			events = out->nr;
			object_add(out, MCG_OBJECT_PERCPU, 0,
				   percpu_charge(8 * (1 + ntargets), nr_cpus, objcg));
		}
		first_node = out->nr;
		for (unsigned nid = 0; nid < nr_nodes; nid++) {
			object_add(out, MCG_OBJECT_SLAB, nid, slab_charge(24 * N));
			object_add(out, MCG_OBJECT_PERCPU, 0, percpu_charge(16 * N, nr_cpus, objcg));
		}
		for (unsigned nid = 0; nid < nr_nodes; nid++) {
			out->free_order[n++] = first_node + 2 * nid + 1;
			out->free_order[n++] = first_node + 2 * nid;
		}
		if (memcg_v1)
			out->free_order[n++] = events;
		out->free_order[n++] = 0;
		out->free_order[n++] = 1;
	}
	g_assert(n == out->nr && n <= MCG_MEMCG_OBJECTS_MAX(nr_nodes));
}

void mcg_memcg_objects_clear(struct mcg_memcg_objects *o)
{
	g_free(o->obj);
	g_free(o->free_order);
	*o = (struct mcg_memcg_objects){ 0 };
}
