/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The memcgfs engine: cgroup hierarchy, emulated CPUs and the rstat machinery
 * behind the memory controller's statistics (no FUSE here).
 *
 * Data flows one way:
 *
 *   updater on emulated CPU c --> per-CPU counters of (cgroup, c)
 *                             --> "updated" mark on CPU c's rstat list
 *   reader --> heuristic flush --> rstat tree walk, children before parents
 *          --> flush callbacks fold per-CPU deltas into aggregated counters
 *          --> formatter reads aggregated counters
 *
 * Threads.  An emulated CPU (struct mcg_cpu) is driven by at most one thread at
 * a time, between mcg_cpu_enter() and mcg_cpu_exit(); only inside that window
 * may the thread call the update functions for that CPU.  Update functions take
 * no lock shared between CPUs and never allocate.  Everything else (create,
 * destroy, lookup, flush, read) may be called from any thread at any time.
 *
 * Lifetime.  Every struct mcg_cgroup pointer handed out by a function whose
 * contract says "new reference" must be released with mcg_cgroup_put().  A
 * destroyed cgroup stays readable through held references (reads return its
 * last values; the file system answers ENODEV as the kernel does) and is
 * folded and freed on its last put (a CPU's charge stock may hold that
 * reference, and drop it inside the CPU's window).  An updater may keep
 * using a cgroup pointer across
 * mcg_cpu_exit()/mcg_cpu_enter() only if it holds a reference.  Updates
 * aimed at a destroyed cgroup land in it, as in kernels before 7.x, or (7.3)
 * state updates go to its nearest online ancestor.
 */
#ifndef MEMCGFS_ENGINE_H
#define MEMCGFS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "kernel/kernel.h"

struct mcg_engine;
struct mcg_cgroup;
struct mcg_cpu;

#define MCG_MAX_CPUS 1024
#define MCG_MAX_NODES 64
/* FLUSH_TIME in the kernel: period of the forced root flush. */
#define MCG_DEFAULT_FLUSH_PERIOD_MS 2000
/* Unlimited page counter: PAGE_COUNTER_MAX = LONG_MAX / PAGE_SIZE. */
#define MCG_PAGE_COUNTER_MAX (INT64_MAX / MCG_PAGE_SIZE)
/* The longest cgroup name: kernfs sets no limit of its own, so a name may
 * be as long as the VFS passes one (PATH_MAX - 1; FUSE's name_max once
 * max_pages is negotiated, fs/fuse/inode.c). */
#define MCG_NAME_MAX 4095

enum mcg_hierarchy {
	MCG_HIERARCHY_V2 = 0,
	MCG_HIERARCHY_V1,
};

struct mcg_engine_config {
	unsigned nr_cpus;		/* 1..MCG_MAX_CPUS emulated CPUs */
	unsigned nr_nodes;		/* 1..MCG_MAX_NODES NUMA nodes, all with memory */
	/* The kernel modelled: its layouts and mechanisms (src/kernel). */
	struct mcg_kernel kernel;
	enum mcg_hierarchy hierarchy;
	unsigned flush_period_ms;	/* periodic forced root flush; 0 = off */
	bool hugetlb_accounting;	/* cgroup2 memory_hugetlb_accounting */
	/* Emulated time (see "Clock" below) instead of CLOCK_MONOTONIC. */
	bool manual_clock;
};

/* Defaults: 1 CPU, 1 node, the default kernel (7.3), v2, 2 s period. */
void mcg_engine_config_init(struct mcg_engine_config *cfg);

/* Creates an engine with its root cgroup and, if the period is non-zero, the
 * periodic flusher thread.  Returns NULL and sets errno (EINVAL for a bad
 * config, a v1 hierarchy on a kernel chosen without CONFIG_MEMCG_V1
 * included, mcg_kernel_check_hierarchy(); ENOMEM) on failure. */
struct mcg_engine *mcg_engine_new(const struct mcg_engine_config *cfg);
/* Stops the flusher and frees the engine and every online cgroup, whatever
 * its reference count.  No other thread may be using the engine, and every
 * reference to a destroyed cgroup must have been put before: those cgroups
 * are no longer reachable from the hierarchy. */
void mcg_engine_free(struct mcg_engine *e);
const struct mcg_engine_config *mcg_engine_config(const struct mcg_engine *e);
/* The layout of the engine's kernel (immutable). */
const struct mcg_layout *mcg_engine_layout(const struct mcg_engine *e);

/* ---- Clock ----------------------------------------------------------------
 *
 * The time the flush heuristics follow: the periodic flush of the whole
 * tree every flush_period_ms, and the ratelimited (6.12, 7.3) and delayed
 * (6.1) flushes, which skip unless the last root flush is two periods old.
 * By default that is CLOCK_MONOTONIC and the periodic flush is a thread.
 * With cfg.manual_clock the time is emulated: it starts at 0 and moves
 * only by mcg_engine_clock_set(), which runs the periodic flushes that fall
 * due on the way, each at its own deadline, in the caller's thread; no
 * flusher thread runs.  Two engines given the same calls then flush at the
 * same moments.  (The daemon's own timings, flush_ns and the like, stay on
 * CLOCK_MONOTONIC: they measure this machine, not the emulation.)
 */

/* Nanoseconds since the engine was created: emulated, or real. */
uint64_t mcg_engine_clock_ns(const struct mcg_engine *e);
/* Manual clock only: moves the time forward to now_ns, first running each
 * periodic flush due at or before it.  Not inside a CPU window.  0, or
 * -EINVAL (a real clock, or now_ns before the current time). */
int mcg_engine_clock_set(struct mcg_engine *e, uint64_t now_ns);

/* ---- Hierarchy ---------------------------------------------------------- */

/* The root cgroup (no new reference; lives as long as the engine). */
struct mcg_cgroup *mcg_engine_root(struct mcg_engine *e);

/* Creates child `name` of `parent`.  0 and a new reference in *out, or
 * -EINVAL (empty, ".", "..", contains '/'), -ENAMETOOLONG (> 255 bytes),
 * -EEXIST, -ENODEV (parent destroyed), -ENOMEM. */
int mcg_cgroup_create(struct mcg_engine *e, struct mcg_cgroup *parent, const char *name,
		      struct mcg_cgroup **out);
/* The same for a cgroup2 child whose parent does not enable memory: no
 * memory css (mcg_cgroup_memcg() NULL) until mcg_memcg_css_create(). */
int mcg_cgroup_create_without_memcg(struct mcg_engine *e, struct mcg_cgroup *parent,
				    const char *name, struct mcg_cgroup **out);
/* Destroys a childless cgroup (see cgroup.c for what each era does with a
 * dying memcg), killing its memory css: the ancestors keep every charge it
 * received.  Charged pages stay charged to the ancestors' page counters.
 * 0, -EBUSY (has children), -EPERM (root, or a hidden css), -ENODEV
 * (already destroyed). */
int mcg_cgroup_destroy(struct mcg_engine *e, struct mcg_cgroup *cg);

/* Memory csses (cgroup.c, "Memory csses").  A memcg is a css of the
 * memory controller: every mcg_memcg_*, mcg_counter_*, mcg_stat_* and
 * mcg_memory_event* call takes one, which is a cgroup's own struct or a
 * hidden struct that no name, listing or count of cgroups shows.  Its
 * parent is the parent css. */
/* A new reference to cg's memory css now, or NULL (no css: the parent does
 * not enable memory, or cg is destroyed). */
struct mcg_cgroup *mcg_cgroup_memcg(struct mcg_engine *e, const struct mcg_cgroup *cg);
/* Makes cg a new memory css (css_create() -> mem_cgroup_css_alloc()): a
 * fresh memcg, with nothing charged, no events, default limits.  0 and a
 * new reference in *css, -EEXIST (cg has one), -ENOENT (its parent has
 * none), -ENODEV, -ENOMEM. */
int mcg_memcg_css_create(struct mcg_engine *e, struct mcg_cgroup *cg, struct mcg_cgroup **css);
/* Kills cg's memory css (kill_css() -> mem_cgroup_css_offline()): offline,
 * drained from the stocks, in 7.3 its local counts reparented; dying
 * (counted in nr_dying_memcg) until its last pin goes.  0, -ENOENT (no
 * css), -EPERM (root).  Not inside a CPU window. */
int mcg_memcg_css_kill(struct mcg_engine *e, struct mcg_cgroup *cg);
/* A css reference (css_get()/css_put()) on a memcg, with a struct
 * reference: what keeps a killed css dying.  NULL is put as nothing. */
void mcg_memcg_css_get(struct mcg_cgroup *css);
void mcg_memcg_css_put(struct mcg_cgroup *css);
/* The cgroup whose css this memcg is (no new reference: valid while css
 * is referenced; a hidden css holds its cgroup). */
struct mcg_cgroup *mcg_memcg_cgroup(const struct mcg_cgroup *css);
/* Is the memcg a live css (not killed, not destroyed)? */
bool mcg_memcg_online(const struct mcg_cgroup *css);
/* Killed memory csses of cg and below not yet released
 * (cgroup->nr_dying_subsys[memory_cgrp_id]). */
unsigned mcg_cgroup_nr_dying_memcg(struct mcg_engine *e, const struct mcg_cgroup *cg);
/* Renames within the same parent: 0, -EINVAL, -ENAMETOOLONG, -EEXIST,
 * -ENODEV, -EPERM (root). */
int mcg_cgroup_rename(struct mcg_engine *e, struct mcg_cgroup *cg, const char *new_name);

/* New reference to the online child `name` of parent, or NULL. */
struct mcg_cgroup *mcg_cgroup_lookup_child(struct mcg_engine *e, struct mcg_cgroup *parent,
					   const char *name);
/* New reference to the cgroup at "/a/b" ("/" or "" is the root), or NULL. */
struct mcg_cgroup *mcg_cgroup_lookup(struct mcg_engine *e, const char *path);
/* New references to the online children, in creation order; the caller
 * puts each and frees the array with g_free().  *nr receives the count. */
struct mcg_cgroup **mcg_cgroup_children(struct mcg_engine *e, struct mcg_cgroup *cg,
					unsigned *nr);
/* Calls fn on cg and every descendant still referenced, online or dying, as
 * mem_cgroup_iter() visits them (css_tryget() takes a dying css), parents
 * before children, under the hierarchy read lock (fn must not create or
 * destroy cgroups, nor put a reference). */
void mcg_cgroup_walk(struct mcg_engine *e, struct mcg_cgroup *cg,
		     void (*fn)(struct mcg_cgroup *cg, void *arg), void *arg);

struct mcg_cgroup *mcg_cgroup_get(struct mcg_cgroup *cg);
void mcg_cgroup_put(struct mcg_cgroup *cg);

bool mcg_cgroup_online(const struct mcg_cgroup *cg);
bool mcg_cgroup_is_root(const struct mcg_cgroup *cg);
/* Parent (no new reference; valid while cg is referenced), NULL at the root. */
struct mcg_cgroup *mcg_cgroup_parent(const struct mcg_cgroup *cg);
/* cgroup_is_descendant(): cg is ancestor or below it (a cgroup is its own
 * descendant).  NULL ancestor: false. */
bool mcg_cgroup_is_descendant(const struct mcg_cgroup *cg, const struct mcg_cgroup *ancestor);
/* Unique id, stable for the cgroup's life; the root is 1. */
uint64_t mcg_cgroup_id(const struct mcg_cgroup *cg);
/* A copy of the current name ("" for the root); g_free() it. */
char *mcg_cgroup_name(struct mcg_engine *e, const struct mcg_cgroup *cg);
/* Depth below the root (root 0). */
unsigned mcg_cgroup_depth(const struct mcg_cgroup *cg);
unsigned mcg_cgroup_nr_children(struct mcg_engine *e, const struct mcg_cgroup *cg);
/* Online descendants (cgroup.stat nr_descendants). */
unsigned mcg_cgroup_nr_descendants(struct mcg_engine *e, const struct mcg_cgroup *cg);
/* Destroyed descendants whose last reference is not gone yet
 * (nr_dying_descendants). */
unsigned mcg_cgroup_nr_dying_descendants(struct mcg_engine *e, const struct mcg_cgroup *cg);

/* One pointer of the workload layer per cgroup (NULL initially); atomic. */
void *mcg_cgroup_workload(const struct mcg_cgroup *cg);
void mcg_cgroup_set_workload(struct mcg_cgroup *cg, void *workload);

/* ---- Emulated CPUs -------------------------------------------------------- */

struct mcg_cpu *mcg_engine_cpu(struct mcg_engine *e, unsigned cpu);
unsigned mcg_cpu_id(const struct mcg_cpu *c);
/* Take and release emulated CPU c.  Blocks while another thread has it.
 * Keep the window short (a batch of updates): a grace period
 * (mcg_engine_sync_cpus(), every destroy) waits for it to end. */
void mcg_cpu_enter(struct mcg_cpu *c);
void mcg_cpu_exit(struct mcg_cpu *c);

/* Returns once every emulated CPU has left the window it was in at the call
 * (an RCU-like grace period: whatever an updater read before, it no longer
 * uses; what the caller wrote before, every later window sees), waiting
 * for all of them at once.  Not from inside a CPU window. */
void mcg_engine_sync_cpus(struct mcg_engine *e);

/* Runs fn(cpu, arg) once on every emulated CPU, inside a window of that
 * CPU, and returns when all have run: the kernel's on_each_cpu().  Each
 * runs at the CPU's next enter, by whichever thread enters it, or by the
 * caller on a CPU nobody holds, so the waits overlap as a grace period's
 * do; the call is a grace period too.  fn may run on any thread, holding
 * whatever locks the enterer holds: it must not enter a CPU, wait for a
 * grace period, or take a lock an enterer may hold.  Callers run one at
 * a time.  Not from inside a CPU window. */
void mcg_engine_on_each_cpu(struct mcg_engine *e, void (*fn)(struct mcg_cpu *cpu, void *arg),
			    void *arg);

/* ---- Update path (inside mcg_cpu_enter/exit of c) ------------------------- */

/* Adds val (in the item's storage unit; events: a count >= 0) to `item` of cg
 * as CPU c.  Node items go to node nid (0 <= nid < nr_nodes) and memcg-wide;
 * other kinds ignore nid; items the layout lacks are dropped.  Marks cg
 * updated on c and feeds the flush threshold (memcg_rstat_updated()). */
void mcg_stat_mod(struct mcg_cpu *c, struct mcg_cgroup *cg, int nid, enum mcg_item item,
		  long val);

enum mcg_cputime_kind { MCG_CPUTIME_USER, MCG_CPUTIME_NICE, MCG_CPUTIME_SYSTEM };
/* Base stats: ns of CPU time spent by cg's tasks on c (cpu.stat). */
void mcg_cputime_account(struct mcg_cpu *c, struct mcg_cgroup *cg, enum mcg_cputime_kind kind,
			 uint64_t ns);

#define MCG_IO_NR_DEVS 2
enum mcg_io_op { MCG_IO_READ, MCG_IO_WRITE, MCG_IO_DISCARD, MCG_IO_NR_OPS };
struct mcg_io_dev { unsigned major, minor; };
extern const struct mcg_io_dev mcg_io_devs[MCG_IO_NR_DEVS];
/* io controller: one request of `bytes` on device dev (io.stat). */
void mcg_io_account(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned dev, enum mcg_io_op op,
		    uint64_t bytes);

/* ---- Page counters (charges and limits) ---------------------------------- */

/* The kernel's page_counters of a memcg: memory (v1 and v2), swap (v2),
 * memsw (v1 memory+swap), kmem and tcpmem (v1 accounting only). */
enum mcg_counter {
	MCG_COUNTER_MEMORY,
	MCG_COUNTER_SWAP,
	MCG_COUNTER_MEMSW,
	MCG_COUNTER_KMEM,
	MCG_COUNTER_TCPMEM,
	MCG_NR_COUNTERS
};

/* Charges nr_pages to counter of cg and every ancestor unless that would take
 * one over its max; then nothing changes, that counter's failcnt is raised,
 * *over (if non-NULL) is set to the limiting cgroup and false is returned.
 * The raw page counter: memory charges of tasks go through
 * mcg_memcg_try_charge(). */
bool mcg_counter_try_charge(struct mcg_cgroup *cg, enum mcg_counter counter,
			    unsigned long nr_pages, struct mcg_cgroup **over);
/* Charges ignoring limits (page_counter_charge). */
void mcg_counter_charge(struct mcg_cgroup *cg, enum mcg_counter counter, unsigned long nr_pages);
void mcg_counter_uncharge(struct mcg_cgroup *cg, enum mcg_counter counter, unsigned long nr_pages);

enum mcg_counter_field {
	MCG_FIELD_USAGE,	/* read only */
	MCG_FIELD_WATERMARK,	/* peak usage; set to reset */
	MCG_FIELD_LOCAL_WATERMARK, /* peak usage since last set (memory.peak writes) */
	MCG_FIELD_FAILCNT,	/* set to reset */
	MCG_FIELD_MAX,
	MCG_FIELD_HIGH,
	MCG_FIELD_LOW,
	MCG_FIELD_MIN,
	MCG_NR_COUNTER_FIELDS
};
/* In pages (failcnt: a count). */
unsigned long mcg_counter_read(const struct mcg_cgroup *cg, enum mcg_counter counter,
			       enum mcg_counter_field field);
/* page_counter_set_max(): sets max if the usage fits under it: 0, or
 * -EBUSY with the old max kept.  No charge can slip in between the check
 * and the store. */
int mcg_counter_set_max(struct mcg_cgroup *cg, enum mcg_counter counter, unsigned long max);
/* Stores a value (no reclaim here: that is the workload layer's job); a
 * watermark's store sets the local watermark too. */
void mcg_counter_set(struct mcg_cgroup *cg, enum mcg_counter counter,
		     enum mcg_counter_field field, unsigned long value);
/* Shared css reference count (moves only with seed 004's before). */
long mcg_cgroup_css_refs(const struct mcg_cgroup *cg);

/* try_charge_memcg() of the era, as CPU c (inside its window): nr_pages of
 * memory, and with memsw of v1's memory+swap, charged to cg through c's
 * per-CPU charge stock (charge.c).  Says where the pages came from: the
 * stock (the kernel then returns at once), or the page counters (the kernel
 * then checks memory.high up the hierarchy); or MCG_CHARGE_FAILED when even
 * nr_pages do not fit, with *over the limiting cgroup and *limited the
 * counter that refused: the caller reclaims, may drain the stocks, and
 * retries.  From the counters, *charged (if not NULL) says how many pages
 * went to them: the batch (MEMCG_CHARGE_BATCH, or nr_pages if more), or
 * nr_pages where the batch did not fit; what memory.high's penalty is
 * scaled by (memcg_nr_pages_over_high += batch).  Seed 004's before also
 * takes nr_pages shared css references. */
enum mcg_charge_result {
	MCG_CHARGE_FAILED = 0,
	MCG_CHARGE_FROM_STOCK,
	MCG_CHARGE_FROM_COUNTERS,
};
/* try_charge_memcg()'s force: path: nr_pages (and memsw) charged to cg's
 * page counters whatever their limits (page_counter_charge()). */
void mcg_memcg_charge_force(struct mcg_cgroup *cg, unsigned long nr_pages, bool memsw);
enum mcg_charge_result mcg_memcg_try_charge(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned long nr_pages,
			  bool memsw, struct mcg_cgroup **over, enum mcg_counter *limited,
			  unsigned long *charged);
/* uncharge_batch(): straight to the counters, never to the stock. */
void mcg_memcg_uncharge(struct mcg_cgroup *cg, unsigned long nr_pages, bool memsw);
/* refill_stock(): nr_pages of cg given back through CPU c's stock, as
 * mem_cgroup_sk_uncharge() (7.3; mem_cgroup_uncharge_skmem() before) does
 * with socket memory; they reach the counters when the stock drains.  The
 * caller must be in c. */
void mcg_memcg_refill_stock(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned long nr_pages,
			    bool memsw);
/* Kernel memory freed on CPU c (obj_cgroup_uncharge_pages(); 5.10
 * __memcg_kmem_uncharge()): the pages go to c's stock for cg, as
 * refill_stock() takes them, and reach the counters when the stock drains;
 * in 7.3, which has no refill_stock() for the root, the root's go straight
 * to its counters.  cg is the memcg the pages are charged to now: for memory
 * charged through an obj_cgroup, mcg_memcg_objcg_owner().  The caller must
 * be in c.  The v1 kmem counter is the caller's. */
void mcg_memcg_uncharge_kmem(struct mcg_cpu *c, struct mcg_cgroup *cg, unsigned long nr_pages,
			     bool memsw);
/* The memcg an obj_cgroup of cg uncharges to now: cg while it is online,
 * else its nearest online ancestor, since every offline hands the dying
 * memcg's objcgs to its parent (memcg_reparent_objcgs() in
 * mm/memcontrol.c).  No reference is taken: valid while cg is referenced. */
struct mcg_cgroup *mcg_memcg_objcg_owner(struct mcg_cgroup *cg);
/* drain_all_stock(top): drains whole every CPU's stocks that hold pages
 * or objects of top's subtree.  From inside CPU self's window: self's at
 * once, every other CPU's at its next enter (the kernel's work item) if
 * they hold the subtree then.  With self NULL (outside any window): all
 * of them before it returns, after a grace period
 * (mcg_engine_sync_cpus()) that it is too. */
void mcg_memcg_drain_all_stock(struct mcg_engine *e, struct mcg_cpu *self,
			       struct mcg_cgroup *top);
/* Pages the stocks hold charged to top's subtree, with memsw only those
 * charged to memory+swap too (enters every CPU; for tests and exact
 * accounting when the workers are paused). */
unsigned long mcg_memcg_stocked(struct mcg_engine *e, const struct mcg_cgroup *top, bool memsw);

/* ---- Kernel objects charged in bytes (objcg.c) -----------------------------
 *
 * obj_cgroup_charge(objcg, bytes), split where it charges pages, which the
 * caller does (it may reclaim): objcg is the cgroup whose obj_cgroup the
 * object is charged to; its memcg is mcg_memcg_objcg_owner(objcg).  All
 * inside CPU c's window.
 *
 *   if (!mcg_objcg_consume(c, objcg, bytes)) {
 *           charge mcg_objcg_pages(bytes) pages to the memcg's memory (v1:
 *           memsw and kmem) counters, or fail;
 *           mcg_objcg_charged(c, objcg, bytes);
 *   }
 */
/* consume_obj_stock(): c's stock covers bytes of objcg. */
bool mcg_objcg_consume(struct mcg_cpu *c, struct mcg_cgroup *objcg, size_t bytes);
/* PAGE_ALIGN(bytes) in pages. */
unsigned long mcg_objcg_pages(size_t bytes);
/* The pages for bytes were charged (obj_cgroup_charge_pages()): counts them
 * in MEMCG_KMEM and puts the last page's rest into c's object stock. */
void mcg_objcg_charged(struct mcg_cpu *c, struct mcg_cgroup *objcg, size_t bytes);
/* obj_cgroup_uncharge(): the bytes of a freed object back to c's stock,
 * whose whole pages over one go back to the memcg (MEMCG_KMEM, v1 kmem,
 * the page stock). */
void mcg_objcg_uncharge(struct mcg_cpu *c, struct mcg_cgroup *objcg, size_t bytes);
/* mod_objcg_state(): bytes (may be negative) of slab (item
 * MCG_SLAB_RECLAIMABLE_B or MCG_SLAB_UNRECLAIMABLE_B) on node nid, held
 * back in c's stock up to a page's worth from 6.1, as the era does. */
void mcg_objcg_mod_slab(struct mcg_cpu *c, struct mcg_cgroup *objcg, int nid, enum mcg_item item,
			long bytes);
/* What objects leave charged beyond their bytes to top's subtree: *charged
 * the bytes the object stocks hold and the obj_cgroups have parked, and
 * *slab_held the slab bytes the stocks hold back from the statistics.
 * Enters every CPU (for tests and exact accounting when paused). */
void mcg_objcg_held(struct mcg_engine *e, const struct mcg_cgroup *top, size_t *charged,
		    long *slab_held);

/* memory.events and memory.swap.events. */
enum mcg_memory_event {
	MCG_MEMORY_LOW,
	MCG_MEMORY_HIGH,
	MCG_MEMORY_MAX,
	MCG_MEMORY_OOM,
	MCG_MEMORY_OOM_KILL,
	MCG_MEMORY_OOM_GROUP_KILL,
	MCG_MEMORY_SWAP_HIGH,
	MCG_MEMORY_SWAP_MAX,
	MCG_MEMORY_SWAP_FAIL,
	MCG_NR_MEMORY_EVENTS
};
/* memcg_memory_event(): raises cg's local count and the hierarchical count
 * of cg and every ancestor. */
void mcg_memory_event(struct mcg_cgroup *cg, enum mcg_memory_event ev);
unsigned long mcg_memory_event_read(const struct mcg_cgroup *cg, enum mcg_memory_event ev,
				    bool local);

/* memory.oom.group of a memcg (css): whether its OOM kills take its whole
 * subtree.  A new css starts at false. */
void mcg_memcg_set_oom_group(struct mcg_cgroup *memcg, bool on);
bool mcg_memcg_oom_group(const struct mcg_cgroup *memcg);
/* v1 socket accounting of a memcg (memcg->tcpmem_active): off in a new
 * css, on for good once memory.kmem.tcp.limit_in_bytes is written. */
void mcg_memcg_activate_tcpmem(struct mcg_cgroup *memcg);
bool mcg_memcg_tcpmem_active(const struct mcg_cgroup *memcg);
/* mem_cgroup_get_oom_group(): the memcg whose tasks an OOM kill of a task
 * charging `victim` (a css) must all go with, the highest css from victim
 * up to `domain` (the memcg out of memory; NULL: the root) with oom.group
 * set; NULL, and nothing to do beyond the victim, on a v1 hierarchy, for a
 * victim in the root, or for one outside the domain.  Held: put it. */
struct mcg_cgroup *mcg_memcg_get_oom_group(struct mcg_engine *e, struct mcg_cgroup *victim,
					   struct mcg_cgroup *domain);

/* ---- Flush ----------------------------------------------------------------- */

/* mem_cgroup_flush_stats() of the engine's era: 6.12 and 7.3 flush cg's
 * subtree if its pending updates exceed the era's MEMCG_CHARGE_BATCH x
 * nr_cpus; 6.1 flushes the whole root if the global count is over nr_cpus
 * batches and no other flush runs; 5.10 has nothing to flush. */
void mcg_memcg_flush_stats(struct mcg_engine *e, struct mcg_cgroup *cg);
/* __mem_cgroup_flush_stats(cg, force): force ignores the threshold (in 6.1
 * a flush already running still makes it return at once). */
void __mcg_memcg_flush_stats(struct mcg_engine *e, struct mcg_cgroup *cg, bool force);
/* mem_cgroup_flush_stats_ratelimited() (6.12, 7.3) or _delayed() (6.1):
 * only if the last root flush is more than two periods old, then
 * thresholded. */
void mcg_memcg_flush_stats_ratelimited(struct mcg_engine *e, struct mcg_cgroup *cg);
/* The flushes the kernel's reclaim and refault paths make, by era (5.10,
 * and a multi-gen LRU kernel such as Debian's 6.12: none).  Reclaim: at the start of each pass over a node, 6.12 and 7.3
 * prepare_scan_control() call mem_cgroup_flush_stats_ratelimited(target),
 * 6.1 prepare_scan_count() the thresholded global mem_cgroup_flush_stats().
 * Refault: 6.12 and 7.3 workingset_test_recent() call the ratelimited
 * flush of the eviction memcg, 6.1 workingset_refault() the _delayed one.
 * May be called inside a CPU window. */
void mcg_memcg_flush_for_reclaim(struct mcg_engine *e, struct mcg_cgroup *target);
void mcg_memcg_flush_for_refault(struct mcg_engine *e, struct mcg_cgroup *memcg);
/* Two more readers that flush: the shadow-node shrinker's count of a memcg
 * with shadow entries, in every memcg reclaim (count_shadow_nodes(): 6.12
 * and 7.3, and 6.1 with seed 000's patch; ratelimited), and dirty
 * throttling's look at a memcg (mem_cgroup_wb_stats(), cgroup2 only: 6.1
 * thresholded, 6.12 and 7.3 ratelimited).  May be called inside a CPU
 * window. */
void mcg_memcg_flush_for_shadow_count(struct mcg_engine *e, struct mcg_cgroup *memcg);
void mcg_memcg_flush_for_dirty_throttle(struct mcg_engine *e, struct mcg_cgroup *memcg);
/* Would mcg_memcg_flush_stats() flush now? */
bool mcg_memcg_needs_flush(const struct mcg_engine *e, const struct mcg_cgroup *cg);
/* Flushes of the base (cpu.stat) and io (io.stat) trees, as their readers do.
 * With shared_rstat_tree these also run memcg's callback. */
void mcg_cputime_flush(struct mcg_engine *e, struct mcg_cgroup *cg);
void mcg_io_flush(struct mcg_engine *e, struct mcg_cgroup *cg);

/* ---- the flush trace (trace.c) ----
 *
 * One record per memcg flush request, flushed or skipped, with what asked
 * for it: the root's memcgfs.trace. */
enum mcg_flush_trigger {
	MCG_TRIGGER_KERNEL,		/* a kernel path's forced flush (reparenting ...) */
	MCG_TRIGGER_READ,		/* a reader of a file (mcg_trace_reader()) */
	MCG_TRIGGER_PERIODIC,		/* the periodic worker */
	MCG_TRIGGER_RECLAIM,		/* mcg_memcg_flush_for_reclaim() */
	MCG_TRIGGER_REFAULT,		/* mcg_memcg_flush_for_refault() */
	MCG_TRIGGER_SHADOW_COUNT,	/* mcg_memcg_flush_for_shadow_count() */
	MCG_TRIGGER_DIRTY_THROTTLE,	/* mcg_memcg_flush_for_dirty_throttle() */
	MCG_TRIGGER_SIDE,		/* a cpu.stat or io.stat flush of a shared tree */
	MCG_NR_TRIGGERS
};
#define MCG_TRACE_RECORDS 16384
/* What a trace records: nothing (it stops, keeping its records), the
 * flushes and the locks flushers take, or those and the CPU locks the
 * updaters take (6.12's _fastpath tracepoints: one pair per link, which
 * the kernel lets one enable apart).  Any level but off clears the
 * records and starts. */
enum mcg_trace_level { MCG_TRACE_OFF, MCG_TRACE_FLUSHES, MCG_TRACE_UPDATERS };
void mcg_trace_set(struct mcg_engine *e, enum mcg_trace_level level);
bool mcg_trace_enabled(const struct mcg_engine *e);
/* A header line, then the last MCG_TRACE_RECORDS records, oldest first. */
void mcg_trace_format(struct mcg_engine *e, GString *out);
/* The file the calling thread renders (a string that outlives the
 * engine), NULL when done: its flushes are that file's reads. */
void mcg_trace_reader(const char *file);

/* ---- lock statistics (lockstat.h, lockstat.c) ----
 *
 * What /proc/lock_stat gives for the locks a patch can move: per class,
 * contentions, the longest and total wait, acquisitions, the longest and
 * total hold.  Counted only while on (two clock reads per acquisition). */
/* on: clears every class and starts; off: stops, keeping the counts. */
void mcg_lock_stat_set(struct mcg_engine *e, bool on);
/* A header, then one line per class: the rstat tree locks and their
 * per-CPU locks by the kernels' names, stats_flush_lock, the stock drain. */
void mcg_lock_stat_format(struct mcg_engine *e, GString *out);

/* ---- accuracy (accuracy.c) ----
 *
 * How far a read of memory.stat is from the exact sum at that moment, and
 * how old its data is: the other side of every flushing patch's cost. */
struct mcg_accuracy_sample {
	double err_pages;	/* largest |shown - exact| over the items, in pages */
	double err_pct;		/* largest |shown - exact| / |exact|, percent */
	double age_ns;		/* since the flush that produced it (or cg's
				 * creation); NAN: an era without a flush */
};
/* Samples cg's hierarchical memcg-wide items now (after a read's flush). */
void mcg_accuracy_measure(struct mcg_engine *e, struct mcg_cgroup *cg,
			  struct mcg_accuracy_sample *out);
/* mcg_accuracy_measure(), kept among the last MCG_ACCURACY_SAMPLES. */
#define MCG_ACCURACY_SAMPLES 65536
void mcg_accuracy_record(struct mcg_engine *e, struct mcg_cgroup *cg);
/* Forgets the samples (reads counts from 0 again). */
void mcg_accuracy_reset(struct mcg_engine *e);
/* Percentiles (nearest rank) of the samples kept: NAN where none; ages
 * over the samples that have one. */
struct mcg_accuracy_summary {
	uint64_t reads;		/* samples recorded since the last reset */
	uint64_t samples;	/* of which kept */
	double err_pages_p50, err_pages_p99, err_pages_max;
	double err_pct_p50, err_pct_p99, err_pct_max;
	double age_ns_p50, age_ns_p99, age_ns_max;
};
void mcg_accuracy_summary(struct mcg_engine *e, struct mcg_accuracy_summary *out);

#define MCG_CHANGED_HIST 17
struct mcg_flush_counters {
	uint64_t flushes;	/* memcg flushes performed (forced or over threshold) */
	uint64_t forced;	/* of which forced */
	uint64_t periodic;	/* of which by the periodic flusher */
	uint64_t skipped;	/* thresholded requests that returned early */
	uint64_t side_flushes;	/* base/io flushes that ran memcg's callback (shared tree) */
	uint64_t reclaim;	/* memcg flushes by reclaim (of flushes) */
	uint64_t refault;	/* memcg flushes by refaults (of flushes) */
	uint64_t shadow_count;	/* by the shadow-node shrinker's count (of flushes) */
	uint64_t dirty_throttle;	/* by dirty throttling's mem_cgroup_wb_stats() */
	uint64_t visited;	/* memcg callback invocations: (cgroup, cpu) pairs folded */
	uint64_t ns;		/* time spent in memcg flushes (all kinds) */
	/* Readers' flushes of the base (cpu.stat) tree: mcg_cputime_flush()
	 * calls, the flush callbacks they ran (nodes visited times the
	 * tree's participants: with a shared tree base, memory (not in 5.10)
	 * and io, else base alone) and the time in them, memcg's callbacks
	 * included when the tree is shared. */
	uint64_t base_flushes, base_visited, base_ns;
	/* The same for the io (io.stat) tree: mcg_io_flush() calls. */
	uint64_t io_flushes, io_visited, io_ns;
	/* Time inside memcg's flush callback (mem_cgroup_css_rstat_flush()),
	 * whichever flush ran it (memcg, shared base or io, a release's
	 * fold), and of it in the memcg-wide aggregation (the state and
	 * event loops, not the per-node one), as seed 001 timed them.  Each
	 * includes a constant per callback for its own clock reads. */
	uint64_t callback_ns, aggregate_ns;
	/* Memcg-wide items (state and events) with a non-zero CPU delta, over
	 * all callbacks: per visited pair, seed 001's "items that actually
	 * changed" at each flush. */
	uint64_t changed_items;
	/* Callbacks that took over MCG_CALLBACK_PREEMPTED_NS: preempted or
	 * stopped midway, which the kernel's callback cannot be; they are
	 * counted here and not in callback_ns or aggregate_ns, so those sums
	 * cover visited - callbacks_untimed callbacks. */
	uint64_t callbacks_untimed;
	/* Per-CPU counter loads made by readers summing a counter over every
	 * CPU (a local before 6.6, seed 000; 5.10's reads). */
	uint64_t percpu_loads;
	/* Visited pairs by the memcg-wide items they had changed:
	 * changed_hist[k] for k items, the last bucket for
	 * MCG_CHANGED_HIST - 1 or more.  Its median is seed 001's. */
	uint64_t changed_hist[MCG_CHANGED_HIST];
	/* The time in memcg flushes (ns, all kinds) by what asked for them:
	 * a reader of memory.stat and the like (read: memcg's own heuristic
	 * decided), another controller's flush of a shared tree (side: it
	 * did not), the periodic worker, reclaim, refaults ... */
	uint64_t trigger_ns[MCG_NR_TRIGGERS];
	/* The writer side: updater slow paths (a node linked into a CPU's
	 * updated tree, or queued on its llist) over every distinct tree,
	 * and those of the locked updater that found the CPU's lock held by
	 * a flusher.  A flush unlinks what it folds, so every flush makes
	 * the next update of each folded (cgroup, CPU) link again. */
	uint64_t links, link_waits;
	uint64_t memory_links;	/* of links, the memory tree's (shared or not) */
};
#define MCG_CALLBACK_PREEMPTED_NS 100000
void mcg_engine_flush_counters(const struct mcg_engine *e, struct mcg_flush_counters *out);

/* ---- Reading (after a flush; any thread) ----------------------------------- */

enum mcg_scope {
	MCG_HIERARCHICAL,	/* cg and all descendants */
	MCG_LOCAL,		/* cg only */
};
/* Memcg-wide value of item in its storage unit, negative state clamped to 0
 * as the kernel does.  0 for items the layout lacks. */
unsigned long mcg_stat_read(const struct mcg_engine *e, const struct mcg_cgroup *cg,
			    enum mcg_item item, enum mcg_scope scope);
/* Per-node value of a node item (0 for other kinds). */
unsigned long mcg_stat_read_node(const struct mcg_engine *e, const struct mcg_cgroup *cg,
				 int nid, enum mcg_item item, enum mcg_scope scope);
/* The same without clamping, for checks of exact sums. */
long mcg_stat_read_raw(const struct mcg_engine *e, const struct mcg_cgroup *cg,
		       enum mcg_item item, enum mcg_scope scope);
long mcg_stat_read_node_raw(const struct mcg_engine *e, const struct mcg_cgroup *cg, int nid,
			    enum mcg_item item, enum mcg_scope scope);

/* What reads do not show yet of item, on node nid or memcg-wide (nid < 0),
 * because no flush has folded it: with MCG_LOCAL, what cg's own local read
 * misses; with MCG_HIERARCHICAL, what sits in cg (its own per-CPU changes
 * and, in the rstat eras, what its children pushed into its pending
 * counts) and so is missing from the hierarchical read of cg and every
 * ancestor.  5.10: its per-CPU batches.  The rstat eras: per-CPU changes a
 * flush has not visited, as after an update that found its (cgroup, CPU)
 * already marked while a flush was unmarking it, which the kernel leaves
 * for the next update to mark again.  For exact accounting in tests; reads
 * the per-CPU counters of every CPU. */
long mcg_stat_unflushed(const struct mcg_engine *e, const struct mcg_cgroup *cg, int nid,
			enum mcg_item item, enum mcg_scope scope);

struct mcg_cputime {
	uint64_t usage_ns;	/* sum_exec_runtime */
	uint64_t user_ns;	/* utime, nice included */
	uint64_t system_ns;
	uint64_t nice_ns;
};
/* Hierarchical CPU time of cg (after mcg_cputime_flush). */
void mcg_cputime_read(const struct mcg_cgroup *cg, struct mcg_cputime *out);
/* cgroup_base_stat_cputime_show() of a non-root cgroup: its flush, then
 * the read, which 7.3 makes under the base tree's lock
 * (__css_rstat_lock(&cgrp->self, -1)); 6.12 and 6.1 hold the lock from
 * the flush on (cgroup_rstat_flush_hold()), here through the flush only. */
void mcg_cputime_show(struct mcg_engine *e, struct mcg_cgroup *cg, struct mcg_cputime *out);
/* The root's: every CPU's kcpustat summed, no flush (cgroup_base_stat_cputime_show()
 * reads root_cgroup_cputime() for the root, 5.10 to 7.3). */
void mcg_cputime_read_root(const struct mcg_engine *e, struct mcg_cputime *out);

struct mcg_iostat {
	uint64_t bytes[MCG_IO_NR_OPS];
	uint64_t ios[MCG_IO_NR_OPS];
};
/* Hierarchical io of cg on dev (after mcg_io_flush). */
void mcg_io_read(const struct mcg_cgroup *cg, unsigned dev, struct mcg_iostat *out);
/* The root's: the disk's per-CPU counts summed, no flush (blkcg_print_stat()
 * fills the root from the disks, blkcg_fill_root_iostats(), 5.10 to 7.3). */
void mcg_io_read_root(const struct mcg_engine *e, unsigned dev, struct mcg_iostat *out);

/* Bytes the engine allocated for one cgroup with this config (per-CPU,
 * per-node and rstat data included). */
size_t mcg_engine_cgroup_footprint(const struct mcg_engine *e);
/* Bytes of one (cgroup, CPU) block, all of it and, in *memcg, the memcg
 * counters' share (the kernel's memcg_vmstats_percpu and
 * lruvec_stats_percpu). */
size_t mcg_engine_pcpu_bytes(const struct mcg_engine *e, size_t *memcg);
/* Bytes between one CPU's copy of a per-CPU block and the next CPU's: the
 * percpu unit the kernel would pick for this CPU and node count
 * (pcpu_build_alloc_info(), see percpu.c). */
size_t mcg_engine_pcpu_unit_size(const struct mcg_engine *e);

#endif
