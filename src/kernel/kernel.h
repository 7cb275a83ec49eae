/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The modelled kernels: each era is a file layout plus a choice of mechanisms;
 * a patch (src/patches/patches.h) is a named delta on its base.
 *
 * Why eras and not switches.  The seed threads measure one patch against the
 * kernel it was written for.  Grafting an old behaviour onto the newest engine
 * shows effects for the wrong reasons: 6.1's per-CPU local sums next to 7.3's
 * flush-kept locals, or a shared rstat tree with 6.17's lockless updater,
 * which no kernel ever had.  So a kernel here is a whole bundle, read from its
 * source:
 *
 *   era   memcg stats            rstat updater / walk         flush policy        locals
 *   5.10  batched atomics        per-CPU lock / pop, locked   none (no memcg      per-CPU sums
 *         (__mod_memcg_state)    (base and io only)           rstat)              of batches
 *   6.1   rstat, shared tree     per-CPU lock / pop, locked   global threshold,   per-CPU sums
 *                                                             root, trylock
 *   6.12  rstat, shared tree     per-CPU lock / list          per-memcg           kept by flush
 *   7.3   rstat, tree per        lockless llist / list        per-memcg           kept by flush,
 *         subsystem                                                               reparented
 *
 * (src/kernel/era-*.c give each row with the kernel functions it follows.)
 * A patch is then "base without the patch" against "base with it"
 * (src/patches/), so the before and the after differ in exactly what the
 * patch changed; the fields of struct mcg_kernel are what it may change.
 *
 * The engine reads these choices once, when it is created; nothing on the
 * update path calls through a pointer chosen here.
 */
#ifndef MEMCGFS_KERNEL_KERNEL_H
#define MEMCGFS_KERNEL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/items.h"

/* How memcg carries a stat update to its readers. */
enum mcg_stats_mode {
	/* Linux <= 5.12 (__mod_memcg_state(), __mod_memcg_lruvec_state(),
	 * __count_memcg_events() in 5.10's mm/memcontrol.c): each CPU batches
	 * its changes; a batch over MEMCG_CHARGE_BATCH is added to an atomic of
	 * the memcg and of every ancestor.  Readers read the atomics: there is
	 * no flush. */
	MCG_STATS_BATCHED_ATOMICS,
	/* Linux 5.13+: per-CPU counters marked in the rstat tree and folded
	 * up by a flush (mem_cgroup_css_rstat_flush()). */
	MCG_STATS_RSTAT,
};

/* How an update is marked in the rstat updated tree. */
enum mcg_rstat_updater {
	/* Linux <= 6.16 (cgroup_rstat_updated() / css_rstat_updated()): a racy
	 * "already linked?" test, else the per-CPU raw spinlock and the cgroup
	 * and its ancestors linked into the CPU's updated tree. */
	MCG_UPDATER_LOCKED,
	/* Linux 6.17+ (css_rstat_updated()): a lockless per-CPU llist; the
	 * flusher links the tree. */
	MCG_UPDATER_LLIST,
};

/* How a flush walks a CPU's updated tree. */
enum mcg_rstat_walk {
	/* Linux 6.1 (cgroup_rstat_flush_locked() with
	 * cgroup_rstat_cpu_pop_updated()): pops nodes one by one, post-order,
	 * and runs every callback while holding the CPU's lock, so updaters
	 * of that CPU wait for the whole CPU pass. */
	MCG_WALK_POP_LOCKED,
	/* Linux 6.12 and 7.3 (cgroup_rstat_updated_list()): takes the CPU's
	 * lock only to detach the subtree as a list, then runs the callbacks
	 * unlocked (under the global rstat lock only). */
	MCG_WALK_DETACH_LIST,
};

/* When a reader's flush of memcg stats actually flushes. */
enum mcg_flush_policy {
	/* No memcg rstat participant (5.10): nothing to flush. */
	MCG_FLUSH_NONE,
	/* Linux 6.1 (__mem_cgroup_flush_stats(), memcg_rstat_updated()): one
	 * global stats_flush_threshold fed in MEMCG_CHARGE_BATCH units from a
	 * per-CPU stats_updates; a flush is of the whole root, taken with a
	 * spin_trylock so that a second reader skips while one runs; the
	 * _delayed variant flushes only if 2 x FLUSH_TIME passed. */
	MCG_FLUSH_GLOBAL,
	/* Linux 6.12 and 7.3 (mem_cgroup_flush_stats(memcg)): each memcg counts its
	 * subtree's pending updates and the reader flushes its own subtree;
	 * _ratelimited flushes only if the periodic flush is late. */
	MCG_FLUSH_PER_MEMCG,
};

/* What an update counts toward the flush threshold (memcg_rstat_updated()),
 * and so whether a flush request may skip.  Any policy but MCG_FLUSH_NONE. */
enum mcg_flush_count {
	/* Linux 5.15 (with 1f828223b799's refault flush, before 11192d9c124d
	 * "memcg: flush stats only if updated"): nothing; every request
	 * flushes.  The update only marks the rstat tree
	 * (cgroup_rstat_updated()), and mem_cgroup_flush_stats() takes the
	 * trylock and flushes the root whatever changed.  (5.13 and 5.14 had
	 * no such flush; 5.15.y stable later took 11192d9c124d.) */
	MCG_COUNT_NONE,
	/* Linux 5.16 (11192d9c124d): one per update, whatever its size:
	 * `if (!(__this_cpu_inc_return(stats_updates) % MEMCG_CHARGE_BATCH))
	 * atomic_inc(&stats_flush_threshold)`. */
	MCG_COUNT_EVENTS,
	/* Linux 5.17 to 6.6 (5b3be698a872 "memcg: better bounds on the memcg
	 * stats updates"): |val| of each update as given, bytes for byte
	 * items (slab); what 6.1 counts. */
	MCG_COUNT_VALUES,
	/* Linux 6.7+ (7bd5bc3ce963 "mm: memcg: normalize the value passed
	 * into memcg_rstat_updated()"): |val| in pages
	 * (memcg_state_val_in_pages()); what 6.12 and 7.3 count. */
	MCG_COUNT_PAGES,
};

/* What a kernel path that reads memcg stats flushes first. */
enum mcg_flush_call {
	MCG_CALL_NONE,		/* nothing */
	/* mem_cgroup_flush_stats(): the policy's thresholded flush (the
	 * global one of the root, or the memcg's subtree). */
	MCG_CALL_FLUSH,
	/* mem_cgroup_flush_stats_delayed() (6.1: 9b3016154c91 "memcg: sync
	 * flush only if periodic flush is delayed") or _ratelimited() (6.8+):
	 * only when 2 x FLUSH_TIME passed since the last root flush (the
	 * periodic one a full cycle late), then as MCG_CALL_FLUSH. */
	MCG_CALL_RATELIMITED,
};

/* Where a non-hierarchical (v1 "local") value comes from. */
enum mcg_local_stats {
	/* Linux < 6.6 (memcg_page_state_local(), lruvec_page_state_local()):
	 * summed over every possible CPU at read time. */
	MCG_LOCAL_PERCPU_SUM,
	/* Linux 6.6+ (seed 000): state_local/events_local kept by the flush. */
	MCG_LOCAL_FLUSHED,
	/* Seed 001 after: the memcg-wide local arrays only on a v1 hierarchy
	 * (CONFIG_MEMCG_V1=n on v2); per-node locals stay. */
	MCG_LOCAL_FLUSHED_V1_ONLY,
};

/* How v1 memory.numa_stat computes its hierarchical_* lines. */
enum mcg_numa_stat {
	/* Linux < 5.8 (memcg_numa_stat_show() before commit "memcg: optimize
	 * memory.numa_stat like memory.stat"): for each line and node, walk
	 * the subtree summing every memcg's per-CPU local counts. */
	MCG_NUMA_STAT_SUBTREE_WALK,
	/* Linux 5.8+: read the hierarchical counters. */
	MCG_NUMA_STAT_COUNTERS,
};

/* What a charge and an uncharge do to the memcg's css reference, and what
 * the charge takes to find the memcg. */
enum mcg_css_ref {
	/* css->refcnt is a percpu_ref (since 3.11): a per-CPU add. */
	MCG_CSS_REF_PERCPU,
	/* Linux 2.6.35 (seed 004 before): the charge finds the memcg with
	 * try_get_mem_cgroup_from_mm(), a css_tryget() (atomic_inc_not_zero(),
	 * a cmpxchg loop) on the css's one atomic_t refcnt, and the page keeps
	 * that reference until its uncharge, whose __mem_cgroup_uncharge_common()
	 * drops it with css_put() (atomic_sub_return()): two read-modify-writes
	 * per page on a line every faulting CPU shares. */
	MCG_CSS_REF_PER_PAGE_ATOMIC,
	/* The RFC's after (seed 004, "memcg remove css_get/put per pages",
	 * 2010-06-08): no reference per page; the charge still reads the
	 * memcg of mm->owner under task_lock(mm->owner), a spinlock in the
	 * owning task's task_struct, so every thread of the faulting process
	 * takes one lock per fault on one line (its _raw_spin_lock rises from
	 * 2.37% to 11.73% of the profile). */
	MCG_CSS_REF_OWNER_TASK_LOCK,
};

struct mcg_patch;

/* The per-CPU object stock (mm/memcontrol.c: consume_obj_stock(),
 * refill_obj_stock(), drain_obj_stock(), mod_objcg_state()), era by era. */
enum mcg_obj_stock {
	/* 5.10: one objcg, part of struct memcg_stock_pcp; a refill that
	 * takes it over a page drains it whole; slab statistics go straight
	 * to the memcg. */
	MCG_OBJ_STOCK_5_10,
	/* 6.1, 6.12: one objcg in struct memcg_stock_pcp; a charge's
	 * remainder may take it over a page (allow_uncharge false), an
	 * uncharge gives back the whole pages over one; slab statistics are
	 * cached up to a page's worth on one node (mod_objcg_state(), 5.14). */
	MCG_OBJ_STOCK_6_1,
	/* 7.3: struct obj_stock_pcp of its own, NR_OBJ_STOCK (5) objcgs with
	 * uint16_t byte counts, replaced round robin; its drain uncharges the
	 * counters directly (memcg_uncharge_kmem()); the statistics cache
	 * follows one slot (__account_obj_stock()). */
	MCG_OBJ_STOCK_7_3,
};

struct mcg_kernel {
	/* The release modelled ("6.1", "6.3"), and the era whose mechanisms it
	 * runs ("6.1" for both): the same string for the four plain eras. */
	const char *version;
	const char *era;
	/* Its release's tables (src/kernel/items.c), in either build: what
	 * it prints is mcg_layout_build(layout, memcg_v1), mcg_kernel_layout(). */
	enum mcg_layout_id layout;
	/* CONFIG_MEMCG_V1 (6.11+; before, the legacy controller is always
	 * built): the legacy (v1) memory controller is built in.  Without it
	 * mm/memcontrol-v1.c is not built (mm/Makefile), the subsystem has no
	 * legacy_cftypes (memory_cgrp_subsys in mm/memcontrol.c), so only a v2
	 * hierarchy can mount, memcg_vm_event_stat[] loses PGPGIN/PGPGOUT, and
	 * a new memcg allocates no memcg1_events_percpu (memcg1_alloc_events(),
	 * mm/memcontrol-v1.h), which its parent's percpu stat shows.  A release
	 * takes its Debian default (kernel.c), which a v1 hierarchy overrides
	 * (mcg_kernel_set_hierarchy()) unless it was chosen. */
	bool memcg_v1;
	/* memcg_v1 is chosen, not the release's default: by a mount's
	 * memcg_v1= (mcg_kernel_configure()), by seed 001, whose experiment is
	 * a CONFIG_MEMCG_V1=n kernel, or as a plain era's build
	 * (mcg_kernel_get()).  A chosen n cannot mount v1. */
	bool memcg_v1_chosen;
	enum mcg_stats_mode stats;
	enum mcg_rstat_updater updater;
	enum mcg_rstat_walk walk;
	/* One updated tree per subsystem (6.16+) or one shared by memory, io
	 * and base stats, where any flush runs every callback. */
	bool split_trees;
	/* A flush takes the tree lock once per CPU (7.3 css_rstat_flush(),
	 * since 6.15's "avoid disabling irqs for O(num_cpu)"), rather than
	 * around all CPUs, dropping it after each (6.12 cgroup_rstat_flush()
	 * -> cgroup_rstat_flush_locked()).  Only with the detach-list walk;
	 * 6.1's pop walk holds it throughout. */
	bool rstat_lock_per_cpu;
	enum mcg_flush_policy flush;
	/* What counts toward its threshold, and the threshold's size in
	 * percent of the kernels' MEMCG_CHARGE_BATCH x num_online_cpus()
	 * (100 in every era: memcg_vmstats_needs_flush(), and 6.1's
	 * stats_flush_threshold > num_online_cpus() in batches). */
	enum mcg_flush_count flush_count;
	unsigned flush_threshold_pct;
	/* What reclaim (prepare_scan_count() / prepare_scan_control(),
	 * mm/vmscan.c) and a refault (workingset_refault() /
	 * workingset_test_recent(), mm/workingset.c) flush first, with the
	 * classic LRU (lru_gen_enabled below takes both away). */
	enum mcg_flush_call reclaim_flush;
	enum mcg_flush_call refault_flush;
	/* And the shadow-node shrinker's count (count_shadow_nodes(),
	 * mm/workingset.c; only where locals are flushed) and dirty
	 * throttling's mem_cgroup_wb_stats() (cgroup2): 6.1's
	 * mem_cgroup_flush_stats(), 6.12's and 7.3's _ratelimited(). */
	enum mcg_flush_call shadow_count_flush;
	enum mcg_flush_call dirty_throttle_flush;
	/* The cgroup rstat lock tracepoints (include/trace/events/cgroup.h:
	 * cgroup_rstat_locked and friends, fired by kernel/cgroup/rstat.c's
	 * lock helpers): 6.12 and 7.3 have them, 6.1 and 5.10 do not.  With
	 * them memcgfs.trace records the tree lock's (and, with the locked
	 * updater, each CPU lock's) events under the kernel's names. */
	bool rstat_lock_tracepoints;
	/* Per-memcg policy, update side (memcg_rstat_updated()): 7.x stops
	 * walking up at the first ancestor that already needs a flush; 6.12
	 * walks every level and only skips the atomic add there. */
	bool pending_stop_at_flushable;
	enum mcg_local_stats local;
	/* On offline, v1 local counts move to the parent (reparent_state_local()
	 * in 7.x); before, they stay with the dying memcg. */
	bool reparent_local;
	/* Kernel pages (stacks, page tables) charged through an obj_cgroup
	 * ("use obj_cgroup APIs to charge kmem pages", 5.13): their uncharge
	 * and statistics follow the objcg to a live ancestor once the memcg
	 * is offline.  5.10 keeps page->mem_cgroup, the dying memcg.  Slab is
	 * objcg-charged in every era (5.9+). */
	bool kmem_pages_objcg;
	enum mcg_numa_stat numa_stat;
	enum mcg_css_ref css_ref;
	/* CONFIG_LRU_GEN_ENABLED (6.1+): the multi-gen LRU on by default.  Its
	 * reclaim and refault take no memcg flush: prepare_scan_control()
	 * (prepare_scan_count() in 6.1), mm/vmscan.c, and
	 * workingset_test_recent() (workingset_refault() in 6.1),
	 * mm/workingset.c, return before it.  Off, they take the classic
	 * LRU's: mem_cgroup_flush_stats_ratelimited() in 6.12 and 7.3,
	 * mem_cgroup_flush_stats() and _delayed() in 6.1
	 * (mcg_memcg_flush_for_reclaim(), _for_refault()). */
	bool lru_gen_enabled;
	/* With it, a refault's counts (lru_gen_refault(), mm/workingset.c)
	 * and the list of a folio added in a fault (folio_add_lru()): 6.12
	 * counts every recent refault activated, restores one in a fault
	 * (or read often through a file), and makes every folio added in a
	 * fault active; 7.3, since MGLRU's workingset protection was
	 * reworked, activates and restores only a folio that was in the
	 * workingset, counts its activation only in a fault, and makes only
	 * such a folio active (the workload's refault_count()). */
	bool lru_gen_refault_workingset_only;
	/* CONFIG_PREEMPTION (Debian: 6.1 on, PREEMPT_DYNAMIC; 5.10
	 * PREEMPT_VOLUNTARY without it): spin_needbreak() (include/linux/
	 * sched.h) reports a contended lock only with it, so only then does a
	 * sleepable 6.1 flush let its lock go to a waiter
	 * (cgroup_rstat_flush_locked()). */
	bool preemption;
	/* flush_reclaim_state() (6.5, mm/vmscan.c): the slab pages shrinkers
	 * free count as reclaimed for global reclaim only; before, for any
	 * (reclaim_state->reclaimed_slab in shrink_node()): here, what
	 * vmpressure is told. */
	bool reclaim_slab_global_only;
	/* MEMCG_CHARGE_BATCH (include/linux/memcontrol.h): 32 in 5.10, 64
	 * since.  The per-CPU batch of stat updates and the per-CPU share of
	 * the flush threshold. */
	unsigned charge_batch;
	/* Folios a CPU's LRU add batch holds before they go onto the LRU
	 * lists, whose sizes (NR_INACTIVE_ANON ...) move only then:
	 * PAGEVEC_SIZE (include/linux/pagevec.h) 15 in 5.10 and 6.1, 31 in
	 * 6.12; FOLIO_BATCH_SIZE (include/linux/folio_batch.h) 31 in 7.3.
	 * lru_cache_add() (5.10, mm/swap.c), folio_add_lru() (6.1 mm/swap.c,
	 * 7.3 mm/folio.c: __folio_batch_add_and_move()). */
	unsigned lru_add_batch;
	/* Does freeing a task's pages drain the CPU's LRU add batch first?
	 * Up to 6.12 free_pages_and_swap_cache() (mm/swap_state.c), which
	 * munmap() and exit free through, begins with lru_add_drain(); 7.2's
	 * and 7.3's do not, so a folio freed while in the batch enters and
	 * leaves its list at the next drain, its size never moving
	 * (ledger.c lru_free()).  Truncation drains in every era
	 * (folio_batch_release()). */
	bool free_drains_lru_add;
	/* memcgs a CPU's charge stock caches (NR_MEMCG_STOCK): 1 before 7.x,
	 * 7 in 7.3 (struct memcg_stock_pcp). */
	unsigned nr_memcg_stock;
	/* The object stock's rules (obj_cgroup_charge()). */
	enum mcg_obj_stock obj_stock;
	/* The patch applied (src/patches/patches.h), or NULL for the plain
	 * release; and whether this is its after (true) or its before. */
	const struct mcg_patch *patch;
	bool patch_after;
};

/* The plain era of a version ("5.10", "6.1", "6.12", "7.3"), or NULL: each
 * a fixed build (memcg_v1_chosen), what the benchmarks and the unit tests
 * run: 5.10 and 6.1 as Debian builds them, 6.12 as Debian builds it (no v1
 * controller, the multi-gen LRU), 7.3 as the kernel the v1 goldens were
 * captured on (CONFIG_MEMCG_V1=y, no CONFIG_LRU_GEN).  A mount runs a
 * release instead (mcg_kernel_resolve()), built as Debian builds it. */
const struct mcg_kernel *mcg_kernel_get(const char *version);
/* The releases --kernel accepts, for a one-line error and --help. */
#define MCG_KERNEL_RELEASES \
	"a Linux release from 5.4 to 7.3 (5.4 ... 5.19, 6.0 ... 6.19, 7.0 ... 7.3)"
/* Is `version` a release memcgfs models ("5.4" ... "7.3", major.minor)? */
bool mcg_kernel_release_known(const char *version);
/* MCG_KVER() of the release k models (k->version): what decides which
 * files it has, where its layout's version would be too coarse. */
unsigned mcg_kernel_release(const struct mcg_kernel *k);
/* The default era (the newest), as mcg_kernel_get("7.3"): the engine's
 * default (mcg_engine_config_init()).  A mount's default is the release
 * 7.3 (mcg_kernel_resolve(NULL, ...)). */
const struct mcg_kernel *mcg_kernel_default(void);
/* Every era, oldest first; *nr receives the count. */
const struct mcg_kernel *const *mcg_kernel_list(unsigned *nr);

/* Resolves release `version` (NULL: 7.3) into the kernel a mount runs; a
 * patch is applied on top by mcg_patch_resolve() (src/patches/patches.h).
 * Any release from 5.4 to 7.3 resolves (see kernel.c): it prints the layout
 * of the newest tabulated release at or before it, runs the mechanisms of
 * the era of its stats machinery, and is configured as Debian configures
 * it (CONFIG_MEMCG_V1 and CONFIG_LRU_GEN_ENABLED of the nearest Debian
 * source at or before it; memcg_v1_chosen false).  0, or -1 with a one-line
 * reason in *why (static string, for a user who asked for a combination that
 * never existed). */
int mcg_kernel_resolve(const char *version, struct mcg_kernel *out, const char **why);

/* A mount's choice of a kernel build option. */
enum mcg_kconfig_choice {
	MCG_KCONFIG_DEFAULT = 0,	/* the release's Debian default */
	MCG_KCONFIG_N,
	MCG_KCONFIG_Y,
};

/* The build options a mount chooses (memcg_v1=, lru_gen=). */
struct mcg_kernel_config {
	enum mcg_kconfig_choice memcg_v1;	/* CONFIG_MEMCG_V1 */
	enum mcg_kconfig_choice lru_gen;	/* CONFIG_LRU_GEN_ENABLED */
};

/* Applies a mount's choices c to a resolved kernel k, then its hierarchy
 * (mcg_kernel_set_hierarchy()).  0, or -1 with a one-line reason in *why
 * (static string): memcg_v1=n before 6.11 (no such option: v1 is always
 * built), lru_gen=y before 6.1 (no multi-gen LRU), memcg_v1=y with seed 001
 * (its experiment is a CONFIG_MEMCG_V1=n kernel), memcg_v1=n with a v1
 * hierarchy. */
int mcg_kernel_configure(struct mcg_kernel *k, const struct mcg_kernel_config *c, bool v1,
			 const char **why);

/* Can kernel k mount a v1 (v1 = true) or v2 hierarchy?  0, or -1 with a
 * one-line reason in *why (static string): a kernel chosen without
 * CONFIG_MEMCG_V1 (memcg_v1=n, seed 001, the plain 6.12 era) has no legacy
 * memory controller, so a v1 mount is refused.  A kernel whose
 * CONFIG_MEMCG_V1=n is only its release's default mounts v1 built with it,
 * as the 6.18 of the v1 goldens is (mcg_kernel_set_hierarchy()). */
int mcg_kernel_check_hierarchy(const struct mcg_kernel *k, bool v1, const char **why);

/* Builds k for its hierarchy, once mcg_kernel_check_hierarchy() accepted
 * it: a v1 hierarchy turns CONFIG_MEMCG_V1 on.  mcg_engine_new() does this
 * to its copy of the kernel. */
void mcg_kernel_set_hierarchy(struct mcg_kernel *k, bool v1);

/* The layout kernel k prints: its tables in its CONFIG_MEMCG_V1 build. */
const struct mcg_layout *mcg_kernel_layout(const struct mcg_kernel *k);

/* ---- A memcg's own memory ------------------------------------------------
 *
 * mem_cgroup_css_alloc() makes the parent the active memcg around
 * mem_cgroup_alloc() (since 5.9, "mm: memcg: charge memcg percpu memory to
 * the parent cgroup"), so what that allocates with __GFP_ACCOUNT is charged
 * to the parent's obj_cgroup, in bytes: the per-CPU statistics of the
 * memcg and of its per-node lruvecs, and, from 6.8 (when they left struct
 * mem_cgroup and struct mem_cgroup_per_node), the flushed statistics
 * themselves as slab objects; except under the root, whose kmem is not
 * accounted (get_obj_cgroup_from_current() stops below it).
 * struct mem_cgroup and the per-node info are plain GFP_KERNEL, as are the
 * cgroup's own objects as far as the memcg goes (kernfs nodes and struct
 * cgroup are charged to the mkdir-ing task's memcg, outside the emulation).
 * Before 5.9 nothing of a memcg was charged: its per-CPU statistics were
 * plain alloc_percpu() (per-CPU memory became accountable in 5.9, "mm:
 * memcg/percpu: account percpu memory to memory cgroups").
 *
 * The sizes are the kernel's structs with the release's item counts (the
 * layout's slot counts, which are the kernel's array sizes), except that
 * before 6.1 the events arrays have a slot for every enum vm_event_item
 * (NR_VM_EVENT_ITEMS: 96 with Debian's 5.10 amd64 config), where the
 * layout keeps only those counted per memcg; 6.1 cut them to
 * memcg_vm_event_stat[] (NR_MEMCG_EVENTS).
 */
enum mcg_memcg_object_kind {
	MCG_OBJECT_SLAB,	/* a kmalloc object: obj_full_size(), on a node */
	MCG_OBJECT_PERCPU,	/* a per-CPU area: pcpu_obj_full_size() */
};
struct mcg_memcg_object {
	enum mcg_memcg_object_kind kind;
	unsigned nid;		/* the slab's node (kzalloc_node()); 0 for per-CPU */
	size_t bytes;		/* what obj_cgroup_charge() is asked for */
};
/* At most three memcg-wide objects and two per node. */
#define MCG_MEMCG_OBJECTS_MAX(nr_nodes) (3 + 2 * (nr_nodes))
struct mcg_memcg_objects {
	unsigned nr;
	/* in mem_cgroup_alloc()'s order */
	struct mcg_memcg_object *obj;
	/* obj[] indexes in __mem_cgroup_free()'s order */
	unsigned *free_order;
	size_t slab, percpu;	/* the sums of each kind */
};
/* The objects of one memcg of kernel k (its release, its layout, its
 * CONFIG_MEMCG_V1: the v1 event counters) with nr_cpus possible CPUs and
 * nr_nodes nodes; none before 5.9.  Allocated (g_free() obj and free_order,
 * or mcg_memcg_objects_clear()). */
void mcg_memcg_objects(const struct mcg_kernel *k, unsigned nr_cpus, unsigned nr_nodes,
		       struct mcg_memcg_objects *out);
void mcg_memcg_objects_clear(struct mcg_memcg_objects *o);

#endif
