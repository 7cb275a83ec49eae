/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The life of the pages a cgroup's tasks hold: faults, page cache, writeback,
 * aging, reclaim, swap, refaults and frees, with every engine counter that
 * the kernel moves along the way.
 *
 * All functions run as the CPU of `x` (entered) on that CPU's ledger of a
 * cgroup, so nothing here locks.  Page counts are kept per node in the
 * ledger; every change to them is mirrored by the engine update that the
 * kernel would make, which is what keeps the published numbers coherent:
 *
 *   anon     = anon LRU pages + mlocked           (NR_ANON_MAPPED)
 *   file     = file LRU pages + shmem              (NR_FILE_PAGES)
 *   LRU sum  = anon + file                         (shmem sits on the anon LRU)
 *   kernel   = slab + kernel stacks + page tables  (MEMCG_KMEM)
 *   charged  = anon + file + kernel                (memory.current)
 *
 * where slab is what its objects charge, the ledger's pages' worths less
 * their unfilled slots, plus or minus what the object stocks hold ("Slab,
 * charged by the object" below; mcg_workload_memcg_objects()).
 */
#include "workload/internal.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

#define THP_PAGES 512
#define KB_PER_PAGE (MCG_PAGE_SIZE / 1024)
/* Pages per emulated block I/O request (128 KiB). */
#define IO_CHUNK 32
/* The kernel's LRU paths move pages in batches, not one by one: reclaim
 * isolates SWAP_CLUSTER_MAX (32, include/linux/swap.h) folios at a time
 * (shrink_lruvec() -> shrink_list()), activations drain a per-CPU
 * folio_batch of 15 (PAGEVEC_SIZE, 6.1) to 31 folios, and unmapping frees
 * through an mmu_gather of up to MAX_GATHER_BATCH pages (release_pages()),
 * though its rmap stats move per folio.  memcgfs moves LRU_BATCH pages
 * per update in all three. */
#define LRU_BATCH 32

static long lmin(long a, long b)
{
	return a < b ? a : b;
}

/* The workload's counts of one update of w's on this CPU: the pool's and
 * the ledger's, and the window the ledger was last touched in. */
static void stat_count(struct wl_ctx *x, struct wl_cgroup *w)
{
	struct wl_ledger *l;
	uint64_t window;

	x->stat_updates++;
	l = wl_ledger(w, x->cpu_id);
	per_cpu_count(&l->stat_updates, 1);
	/* After the update, so that a pair counted in a window was marked
	 * before the window closed (mcg_workload_touch_window()). */
	window = atomic_load_explicit(&x->wl->touch_window, memory_order_seq_cst);
	if (l->touch_window != window) {
		l->touch_prev_window = l->touch_window;
		l->touch_window = window;
	}
}

/* One update of a statistic of cg on this CPU, as the kernel makes it,
 * and the workload's counts of it. */
static void stat_apply(struct wl_ctx *x, struct wl_cgroup *w, struct mcg_cgroup *cg, int nid,
		       enum mcg_item item, long val)
{
	if (!val)
		return;
	mcg_stat_mod(x->cpu, cg, nid, item, val);
	stat_count(x, w);
}

/*
 * The LRU add batch.
 *
 * A new folio does not go onto its LRU list at once: folio_add_lru() puts
 * it in the CPU's lru_add batch (cpu_fbatches.lru_add; lru_pvecs.lru_add
 * in 5.10), and only when the batch is full (PAGEVEC_SIZE 15 in 5.10 and
 * 6.1, 31 from 6.12: mcg_kernel.lru_add_batch), or the folio is large
 * (folio_test_large(); folio_may_be_lru_cached() in 7.3), does
 * folio_batch_move_lru() add them all, each moving its list's size
 * (lruvec_add_folio() -> update_lru_size() -> __mod_lruvec_state(),
 * NR_INACTIVE_ANON ... NR_UNEVICTABLE).  (__folio_batch_add_and_move(),
 * mm/swap.c in 6.1 and 6.12, mm/folio.c in 7.3; lru_cache_add() in 5.10.)
 * So a fault moves NR_ANON_MAPPED and PGFAULT, and the LRU size only once
 * a batch: most faults change two memcg-wide items, not three (seed 001
 * counts what a flush finds changed).  Reclaim first empties the batch on
 * its CPU (lru_add_drain() in shrink_inactive_list() and
 * shrink_active_list(), mm/vmscan.c), and so does force_empty
 * (lru_add_drain_all()) on every CPU; freeing does up to 6.12
 * (free_pages_and_swap_cache(), mm/swap_state.c), 7.3 only on truncation
 * (__folio_batch_release(), mm/folio.c), where a freed folio still in the
 * batch leaves the lists at the drain.
 *
 * Here the batch is the ledger's (this cgroup on this CPU), not the CPU's:
 * a worker steps every cgroup of its CPU in turn, a few events each, where
 * a kernel CPU runs one task for a slice and fills its batch with that
 * memcg's folios; a batch shared by the worker's cgroups would be a batch
 * of a folio of each, and the kernel's batching would be lost.  The pages
 * are in the ledger's lists at once (the ledger counts what the tasks
 * hold); lru_add_pages says which of them the statistics do not count yet.
 * Any update of an LRU list's size of the ledger drains it first, except
 * activation, which the kernel batches apart (folio_activate(): its own
 * lru_activate batch, and a folio not yet on the LRU is not activated) and
 * which here activates drained pages only, and 7.3's frees of anon pages,
 * which leave the batch alone (lru_free()).  That is the kernel's rule for
 * its own CPU's reclaim; it is not for a reclaim of another CPU's ledger
 * (reclaim_cpus()), which in the kernel cannot take folios that wait in
 * that CPU's batch and leaves the batch alone.
 */
static const enum mcg_item lru_items[WL_NR_LRU] = {
	[WL_LRU_INACTIVE_ANON] = MCG_INACTIVE_ANON, [WL_LRU_ACTIVE_ANON] = MCG_ACTIVE_ANON,
	[WL_LRU_INACTIVE_FILE] = MCG_INACTIVE_FILE, [WL_LRU_ACTIVE_FILE] = MCG_ACTIVE_FILE,
	[WL_LRU_UNEVICTABLE] = MCG_UNEVICTABLE,
};

static bool is_lru_item(enum mcg_item item)
{
	return item == MCG_INACTIVE_ANON || item == MCG_ACTIVE_ANON || item == MCG_INACTIVE_FILE ||
	       item == MCG_ACTIVE_FILE || item == MCG_UNEVICTABLE;
}

static long lru_add_batched(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	long folios = 0;

	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		folios += l->node[nid].lru_add_folios;
	return folios;
}

static long munlock_batched(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	long folios = 0;

	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		folios += l->node[nid].munlock_pending;
	return folios;
}

/* Anything waiting for lru_add_drain(): the LRU add batch or 7.3's
 * munlocked folios (lru_free()). */
static bool lru_drain_due(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	return lru_add_batched(wl, l) || munlock_batched(wl, l);
}

void wl_lru_add_drain(struct wl_ctx *x, struct wl_cgroup *w)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);

	for (unsigned nid = 0; nid < x->wl->nr_nodes; nid++) {
		struct wl_node *node = &l->node[nid];

		/* mlock_drain_local(), which lru_add_drain() calls */
		if (node->munlock_pending) {
			stat_apply(x, w, wl_memcg(w), (int)nid, MCG_UNEVICTABLE,
				   -node->munlock_pending);
			node->munlock_pending = 0;
		}
		if (!node->lru_add_folios)
			continue;
		node->lru_add_folios = 0;
		for (unsigned k = 0; k < WL_NR_LRU; k++) {
			long pages = node->lru_add_pages[k];

			node->lru_add_pages[k] = 0;
			stat_apply(x, w, wl_memcg(w), (int)nid, lru_items[k], pages);
		}
	}
}

/* folio_add_lru() of a new folio of `pages` bound for list k. */
static void lru_add(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum wl_lru k, long pages)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	unsigned batch = mcg_engine_config(x->e)->kernel.lru_add_batch;

	l->node[nid].lru_add_pages[k] += pages;
	l->node[nid].lru_add_folios++;
	if (pages > 1 || batch <= 1 || lru_add_batched(x->wl, l) >= (long)batch)
		wl_lru_add_drain(x, w);
}

void wl_stat(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_item item, long val)
{
	wl_stat_to(x, w, wl_memcg(w), nid, item, val);
}

void wl_stat_to(struct wl_ctx *x, struct wl_cgroup *w, struct mcg_cgroup *cg, int nid,
		enum mcg_item item, long val)
{
	if (val && is_lru_item(item) && lru_drain_due(x->wl, wl_ledger(w, x->cpu_id)))
		wl_lru_add_drain(x, w);
	stat_apply(x, w, cg, nid, item, val);
}

/* ceil(v * frac) for v >= 0, at most v: slow drains still finish. */
static long part_of(long v, double frac)
{
	if (v <= 0 || frac <= 0)
		return 0;
	if (frac >= 1)
		return v;
	return lmin(v, (long)ceil((double)v * frac));
}

long wl_ledger_resident(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	long sum = 0;

	for (unsigned nid = 0; nid < wl->nr_nodes; nid++) {
		const struct wl_node *n = &l->node[nid];

		sum += n->anon_inactive + n->anon_active + n->mlocked + n->shmem + n->file_inactive +
		       n->file_active + n->slab_reclaimable + n->slab_unreclaimable +
		       n->kernel_stack + n->pagetables;
	}
	return sum;
}

long wl_ledger_held(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	long sum = wl_ledger_resident(wl, l);

	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		sum += l->node[nid].swapped;
	return sum;
}

bool wl_ledger_pins_css(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	const struct mcg_kernel *k = &mcg_engine_config(wl->e)->kernel;

	for (unsigned nid = 0; nid < wl->nr_nodes; nid++) {
		const struct wl_node *n = &l->node[nid];

		/* swap entries: a memcg id reference, which holds the css
		 * (__mem_cgroup_try_charge_swap(): mem_cgroup_id_get_online()
		 * in 6.12, mem_cgroup_private_id_get_online() in 7.3) */
		if (n->swapped > 0)
			return true;
		/* sockets: mem_cgroup_sk_alloc()'s css_tryget(), put when the
		 * socket is freed, whatever the css's fate */
		if (n->sock > 0)
			return true;
		if (k->reparent_local)
			continue;	/* 7.3: the folios were reparented */
		/* charged folios (mem_cgroup_commit_charge(): css_get()) */
		if (n->anon_inactive + n->anon_active + n->mlocked + n->shmem + n->file_inactive +
			    n->file_active > 0)
			return true;
		/* 5.10's kernel pages keep page->mem_cgroup */
		if (!k->kmem_pages_objcg && n->kernel_stack + n->pagetables > 0)
			return true;
	}
	return false;
}

void wl_ledger_move_pinning(const struct mcg_workload *wl, struct wl_ledger *dst,
			    struct wl_ledger *src)
{
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++) {
		dst->node[nid].swapped += src->node[nid].swapped;
		dst->node[nid].sock += src->node[nid].sock;
		src->node[nid].swapped = 0;
		src->node[nid].sock = 0;
	}
}

bool wl_ledger_holds_pages(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	if (wl_ledger_resident(wl, l) > 0)
		return true;
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		if (l->node[nid].swapped > 0 || l->node[nid].sock > 0)
			return true;
	return false;
}

bool wl_ledger_shadows(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		if (l->node[nid].shadow_anon > 0 || l->node[nid].shadow_file > 0)
			return true;
	return false;
}

bool wl_ledger_in_flight(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	return atomic_load_explicit(&l->in_flight, memory_order_relaxed) > 0;
}

/* Single writer (the CPU holder): a load and a store. */
static void ledger_in_flight_add(struct wl_ledger *l, long pages)
{
	atomic_store_explicit(&l->in_flight,
			      atomic_load_explicit(&l->in_flight, memory_order_relaxed) + pages,
			      memory_order_relaxed);
}

void wl_ledger_merge(const struct mcg_workload *wl, struct wl_ledger *dst,
		     const struct wl_ledger *src)
{
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++) {
		const long *s = (const long *)&src->node[nid];
		long *d = (long *)&dst->node[nid];

		for (size_t i = 0; i < sizeof(struct wl_node) / sizeof(long); i++)
			d[i] += s[i];
	}
	ledger_in_flight_add(dst, atomic_load_explicit(&src->in_flight, memory_order_relaxed));
}

void wl_ledger_move(const struct mcg_workload *wl, struct wl_ledger *dst, struct wl_ledger *src)
{
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++) {
		struct wl_node *s = &src->node[nid];
		struct wl_node shadows = { .shadow_anon = s->shadow_anon,
					   .shadow_file = s->shadow_file };

		s->shadow_anon = s->shadow_file = 0;
		for (size_t i = 0; i < sizeof(struct wl_node) / sizeof(long); i++)
			((long *)&dst->node[nid])[i] += ((const long *)s)[i];
		*s = shadows;
	}
	ledger_in_flight_add(dst, atomic_load_explicit(&src->in_flight, memory_order_relaxed));
	atomic_store_explicit(&src->in_flight, 0, memory_order_relaxed);
}

/* The first state of a ledger's generator: splitmix64 of the pool's seed,
 * the cgroup's id and the CPU, never 0 (xorshift's fixed point). */
static uint64_t ledger_seed(uint64_t seed, uint64_t cgroup_id, unsigned cpu)
{
	uint64_t z = seed + cgroup_id * 0x9e3779b97f4a7c15ULL + cpu * 0xbf58476d1ce4e5b9ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 1;
}

/* 31 random bits from w's generator on this CPU (xorshift64*). */
static unsigned ledger_random(const struct wl_ctx *x, struct wl_cgroup *w)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);

	if (!l->rng)
		l->rng = ledger_seed(x->wl->seed, mcg_cgroup_id(w->cg), x->cpu_id);
	l->rng ^= l->rng >> 12;
	l->rng ^= l->rng << 25;
	l->rng ^= l->rng >> 27;
	return (unsigned)((l->rng * 0x2545f4914f6cdd1dULL) >> 33);
}

/* A random node among those the profile allows. */
static int pick_node(const struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	unsigned nodes = x->wl->nr_nodes, allowed = 0, k;

	if (nodes == 1)
		return 0;
	k = ledger_random(x, w);
	if (p->all_nodes)
		return (int)(k % nodes);
	for (unsigned nid = 0; nid < nodes; nid++)
		allowed += !!(p->nodes & (1ULL << nid));
	k %= allowed ? allowed : 1;
	for (unsigned nid = 0; nid < nodes; nid++)
		if ((p->nodes & (1ULL << nid)) && k-- == 0)
			return (int)nid;
	return 0;
}

/* floor(v + carry), keeping the fraction for next time. */
static long carried(double *carry, double v)
{
	long whole;

	v += *carry;
	whole = (long)v;
	*carry = v - (double)whole;
	return whole;
}

/* As carried(), but nothing until the carry holds a whole batch. */
static long batched(double *carry, double v, long batch)
{
	if (*carry + v < (double)batch) {
		*carry += v;
		return 0;
	}
	return carried(carry, v);
}

/* The pages of a batch of n that have a property held by pct percent of
 * pages, exactly over time however small the batches. */
static long share_of(struct wl_ledger *l, enum wl_carry c, long n, double pct)
{
	long k = carried(&l->carry[c], (double)n * pct / 100.0);

	return k > n ? n : k;
}

/* ---- faults ---- */

static bool fault_pte_alloc(struct wl_ctx *x, struct wl_cgroup *w, int nid, long pages);
static bool fault_upper_alloc(struct wl_ctx *x, struct wl_cgroup *w, int nid, long pages);

/* Is this fault of a kind that `pct` percent of faults are?  An exact share
 * over time (the carry), held at one pending hit while `possible` is false,
 * so that a share cannot pile up while there is nothing to take it from. */
static bool fault_is(struct wl_ledger *l, enum wl_carry c, double pct, bool possible)
{
	l->carry[c] += pct / 100.0;
	if (l->carry[c] < 1.0)
		return false;
	if (!possible) {
		l->carry[c] = 1.0;
		return false;
	}
	l->carry[c] -= 1.0;
	return true;
}

/*
 * The workingset counts of a refault, a folio read back whose shadow entry
 * was found (workingset_refault(), mm/workingset.c), its memory stall, and
 * whether it goes onto the LRU active.  The model's refaults are all
 * recent, and a quarter of them were in the workingset when evicted
 * (PG_workingset).
 *
 * - The classic LRU counts the refault, activates it (WORKINGSET_ACTIVATE)
 *   and restores a workingset folio (PG_workingset, WORKINGSET_RESTORE).
 * - The multi-gen LRU (CONFIG_LRU_GEN_ENABLED: lru_gen_refault()) counts
 *   the refault and, in a fault (lru_gen_in_fault(): a swap-in, a mapped
 *   read; not read(2)), makes the folio active (folio_add_lru()).  6.12
 *   counts every recent refault activated and restores one in a fault or
 *   read often through a file (refs saturated: here the workingset
 *   quarter); 7.3 restores only a workingset folio, counts its activation
 *   only in a fault, and only such a folio is made active
 *   (mcg_kernel.lru_gen_refault_workingset_only).
 *
 * Reading a folio back is a memory stall (PSI) only for a workingset
 * folio (swap_read_folio(), filemap_read_folio()), which the refault
 * check marks before the read.
 */
static bool refault_count(struct wl_ctx *x, struct wl_cgroup *w, int nid, bool file, bool in_fault)
{
	const struct mcg_kernel *k = &mcg_engine_config(x->e)->kernel;
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	bool workingset = share_of(l, file ? WL_CARRY_RESTORE_FILE : WL_CARRY_RESTORE_ANON, 1, 25);
	bool activated, restored, active;

	if (!k->lru_gen_enabled) {
		activated = active = true;
		restored = workingset;
	} else if (k->lru_gen_refault_workingset_only) {
		activated = active = workingset && in_fault;
		restored = workingset;
	} else {
		activated = true;
		restored = in_fault || workingset;
		active = in_fault;
	}
	wl_stat(x, w, nid, file ? MCG_WORKINGSET_REFAULT_FILE : MCG_WORKINGSET_REFAULT_ANON, 1);
	if (activated)
		wl_stat(x, w, nid,
			file ? MCG_WORKINGSET_ACTIVATE_FILE : MCG_WORKINGSET_ACTIVATE_ANON, 1);
	if (restored) {
		wl_stat(x, w, nid, file ? MCG_WORKINGSET_RESTORE_FILE : MCG_WORKINGSET_RESTORE_ANON,
			1);
		wl_memstall(x, w, WL_PSI_REFAULT_NS);
	}
	return active;
}

/* A swap-in: a fault on an anonymous page that reclaim pushed out.  Returns
 * the pages brought in (0 or 1). */
static long anon_swapin(struct wl_ctx *x, struct wl_cgroup *w, int nid)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long refault;
	bool active;

	if (!wl_charge(x, w, 1, 0))
		return 0;
	/* The charge may have OOM-killed this very ledger, swap and all. */
	if (node->swapped <= 0) {
		wl_uncharge(x, w, 1, 0);
		return 0;
	}
	wl_uncharge_swap(x, w, 1, false);
	node->swapped--;
	refault = node->shadow_anon > 0;
	node->shadow_anon -= refault;
	/* A shadow entry found: the refault check flushes first
	 * (workingset_test_recent() in 6.12 and 7.3, ratelimited, on the
	 * eviction memcg; the delayed flush in 6.1's workingset_refault();
	 * none in 5.10: mcg_memcg_flush_for_refault() knows the era). */
	if (refault)
		mcg_memcg_flush_for_refault(x->e, wl_memcg(w));
	active = refault && refault_count(x, w, nid, false, true);
	node->anon_active += active;
	node->anon_inactive += !active;
	wl_stat(x, w, nid, MCG_MEMCG_SWAP, -1);
	wl_stat(x, w, nid, MCG_ANON_MAPPED, 1);
	lru_add(x, w, nid, active ? WL_LRU_ACTIVE_ANON : WL_LRU_INACTIVE_ANON, 1);
	wl_stat(x, w, nid, MCG_PSWPIN, 1);
	wl_stat(x, w, nid, MCG_PGFAULT, 1);
	wl_stat(x, w, nid, MCG_PGMAJFAULT, 1);
	wl_stat(x, w, nid, MCG_PGPGIN, 1);
	return 1;
}

/* A new anonymous folio of `pages` (1 or a THP) on a node, `mlocked` of
 * them mlocked: do_anonymous_page() or do_huge_pmd_anonymous_page() after
 * the charge. */
static void anon_folio_add(struct wl_ctx *x, struct wl_cgroup *w, int nid, long pages, bool thp,
			   long mlocked)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];

	node->mlocked += mlocked;
	node->anon_inactive += pages - mlocked;
	node->thp += thp ? THP_PAGES : 0;
	wl_stat(x, w, nid, MCG_ANON_MAPPED, pages);
	/* A folio of a VM_LOCKED vma goes to the unevictable list, through
	 * mlock's own batch of the same size (folio_add_lru_vma() ->
	 * mlock_new_folio(), mm/mlock.c); a small folio is one or the other. */
	if (mlocked)
		lru_add(x, w, nid, WL_LRU_UNEVICTABLE, mlocked);
	if (pages - mlocked)
		lru_add(x, w, nid, WL_LRU_INACTIVE_ANON, pages - mlocked);
	wl_stat(x, w, nid, MCG_ANON_THPS, thp ? THP_PAGES : 0);
	wl_stat(x, w, nid, MCG_THP_FAULT_ALLOC, thp);
	/* One fault and one pgpgin per folio. */
	wl_stat(x, w, nid, MCG_PGFAULT, 1);
	wl_stat(x, w, nid, MCG_PGPGIN, 1);
}

/*
 * What a fault costs besides memcg (the profile's fault_work).
 *
 * An emulated fault does only what the engine models: the charge, the
 * statistics, the LRU and page-table bookkeeping of the ledgers.  A real
 * one also clears the page, takes it from the allocator, fills the page
 * table and holds mmap_lock, and that fixed cost is most of it (seed 004's
 * profile: clear_page_c alone is 25.7% of the cycles).  Comparing a memcg
 * change per fault without it overstates the change by the ratio of the
 * two.  fault_work puts it back as CPU work that touches no shared line: so
 * many iterations of a register-only loop, a count, not a time, so that
 * two daemons given the same count do the same work (a calibration per
 * daemon differed by a tenth between two), and a worker preempted midway
 * still does all of it when it runs again.  mcg_fault_work_per_ns()
 * converts a time into a count, once, for whoever sets the profiles.
 */
static void spin(uint64_t iterations)
{
	for (uint64_t i = 0; i < iterations; i++)
		__asm__ __volatile__("" : "+r"(i));
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The fastest of five runs of 2^22 iterations: the one least disturbed. */
double mcg_fault_work_per_ns(void)
{
	const uint64_t n = 1u << 22;
	uint64_t best = UINT64_MAX;

	for (int round = 0; round < 5; round++) {
		uint64_t t0 = thread_cpu_ns(), t;

		spin(n);
		t = thread_cpu_ns() - t0;
		if (t && t < best)
			best = t;
	}
	return best != UINT64_MAX ? (double)n / (double)best : 1.0;
}

static void fault_work(const struct mcg_profile *p)
{
	spin(p->fault_work);
}

/* One anonymous fault (do_anonymous_page() or a THP fault): the profile's
 * swapin share (a quarter by default) find a swapped page while there are
 * any (do_swap_page()); otherwise the fault
 * brings a new folio, a THP whenever the THP share of pages is due.
 * Returns the pages of the fault rate it used up (a THP's 512 may go
 * beyond this step's share: the caller carries the debt). */
static long anon_fault(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	int nid = pick_node(x, w, p);
	struct wl_node *node = &l->node[nid];
	long pages = 1, mlocked;
	bool thp;

	fault_work(p);
	if (fault_is(l, WL_CARRY_SWAPIN, p->swapin, node->swapped > 0)) {
		anon_swapin(x, w, nid);
		return 1;
	}
	/* The carry gains the THP share of every page faulted; a THP is due
	 * once it holds a whole folio. */
	thp = l->carry[WL_CARRY_THP] >= THP_PAGES;
	/* The upper levels first, for whichever page the fault maps;
	 * refused, the fault is VM_FAULT_OOM and the THP stays due. */
	if (!fault_upper_alloc(x, w, nid, thp ? THP_PAGES : 1))
		return 1;
	if (thp) {
		l->carry[WL_CARRY_THP] -= THP_PAGES;
		pages = THP_PAGES;
	}
	/* A THP that cannot be charged falls back to a small page
	 * (do_huge_pmd_anonymous_page(): THP_FAULT_FALLBACK_CHARGE). */
	if (thp && !wl_charge(x, w, THP_PAGES, WL_MEMSW | WL_NO_RECLAIM)) {
		thp = false;
		pages = 1;
		l->carry[WL_CARRY_THP] += THP_PAGES;
	}
	l->carry[WL_CARRY_THP] += (double)pages * p->thp / 100.0;
	/* The THP's deposit after its charge; a small page's PTE page
	 * before it.  Without it the fault is VM_FAULT_OOM. */
	if (thp && !fault_pte_alloc(x, w, nid, THP_PAGES)) {
		wl_uncharge(x, w, THP_PAGES, WL_MEMSW);
		return pages;
	}
	if (!thp && (!fault_pte_alloc(x, w, nid, 1) || !wl_charge(x, w, 1, WL_MEMSW)))
		return 1;
	mlocked = thp ? 0 : share_of(l, WL_CARRY_MLOCK, 1, p->mlock);
	anon_folio_add(x, w, nid, pages, thp, mlocked);
	return pages;
}

static void io_account(struct wl_ctx *x, struct mcg_cgroup *cg, enum mcg_io_op op, long pages)
{
	for (long done = 0; done < pages; done += IO_CHUNK)
		mcg_io_account(x->cpu, cg, 0, op, (uint64_t)lmin(IO_CHUNK, pages - done) * MCG_PAGE_SIZE);
}

/* A page read into the page cache on a node, a refault (refault_count())
 * or not, mapped or not, after the charge. */
static void file_page_add(struct wl_ctx *x, struct wl_cgroup *w, int nid, long refault,
			  long mapped)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct wl_node *node = &l->node[nid];
	bool active;

	node->shadow_file -= refault;
	if (refault)
		mcg_memcg_flush_for_refault(x->e, wl_memcg(w));
	/* a mapped read is a fault */
	active = refault && refault_count(x, w, nid, true, mapped);
	node->file_inactive += !active;
	node->file_active += active;
	node->mapped += mapped;
	wl_stat(x, w, nid, MCG_FILE_PAGES, 1);
	lru_add(x, w, nid, active ? WL_LRU_ACTIVE_FILE : WL_LRU_INACTIVE_FILE, 1);
	wl_stat(x, w, nid, MCG_FILE_MAPPED, mapped);
	/* Mapped pages are read through a fault that waits for the disk. */
	wl_stat(x, w, nid, MCG_PGFAULT, mapped);
	wl_stat(x, w, nid, MCG_PGMAJFAULT, mapped);
	wl_stat(x, w, nid, MCG_PGPGIN, 1);
	if (++l->reads_unsubmitted == IO_CHUNK) {
		io_account(x, w->cg, MCG_IO_READ, IO_CHUNK);
		l->reads_unsubmitted = 0;
	}
}

/* One page read into the page cache (filemap_add_folio() from readahead):
 * half of them find a shadow entry while there are any and refault
 * (refault_count()).  The reads go to the disk a request of IO_CHUNK pages
 * at a time. */
static long file_read(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	int nid;
	long refault;

	long mapped = share_of(l, WL_CARRY_MAPPED, 1, p->mapped);

	nid = pick_node(x, w, p);
	/* A mapped read is a fault: its page table first (__do_fault()
	 * preallocates it before ->fault() reads and charges the folio);
	 * refused, the fault is VM_FAULT_OOM and reads nothing. */
	if (mapped && !fault_pte_alloc(x, w, nid, 1))
		return 1;
	if (!wl_charge(x, w, 1, WL_MEMSW))
		return 1;
	refault = fault_is(l, WL_CARRY_REFAULT_FILE, 50, l->node[nid].shadow_file > 0);
	file_page_add(x, w, nid, refault, mapped);
	return 1;
}

/* One page written into the page cache, dirty (filemap_add_folio() and
 * folio_account_dirtied()). */
static void file_dirty_add(struct wl_ctx *x, struct wl_cgroup *w, int nid)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct wl_node *node = &l->node[nid];

	node->file_inactive++;
	node->dirty++;
	ledger_in_flight_add(l, 1);
	wl_stat(x, w, nid, MCG_FILE_PAGES, 1);
	lru_add(x, w, nid, WL_LRU_INACTIVE_FILE, 1);
	wl_stat(x, w, nid, MCG_FILE_DIRTY, 1);
	wl_stat(x, w, nid, MCG_PGPGIN, 1);
}

/* A task that dirtied its nr_dirtied_pause pages goes to
 * balance_dirty_pages(), which looks at its memcg's dirty pages
 * (mem_cgroup_wb_stats()).  The pause starts at 32 pages (128 KiB,
 * mm/page-writeback.c) and grows while far below the dirty limits: here it
 * stays at its start. */
#define DIRTY_RATELIMIT_PAGES 32

static long file_write(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);

	if (wl_charge(x, w, 1, WL_MEMSW))
		file_dirty_add(x, w, pick_node(x, w, p));
	if (++l->nr_dirtied >= DIRTY_RATELIMIT_PAGES) {
		l->nr_dirtied = 0;
		mcg_memcg_flush_for_dirty_throttle(x->e, wl_memcg(w));
	}
	return 1;
}

/* One shmem page faulted in: swap-backed, counted as file, kept on the
 * anon LRU. */
static void shmem_add(struct wl_ctx *x, struct wl_cgroup *w, int nid)
{
	wl_ledger(w, x->cpu_id)->node[nid].shmem++;
	wl_stat(x, w, nid, MCG_SHMEM, 1);
	wl_stat(x, w, nid, MCG_FILE_PAGES, 1);
	lru_add(x, w, nid, WL_LRU_INACTIVE_ANON, 1);
	wl_stat(x, w, nid, MCG_PGFAULT, 1);
	wl_stat(x, w, nid, MCG_PGPGIN, 1);
}

static long shmem_fault(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	int nid = pick_node(x, w, p);

	/* The page table before shmem_fault() charges the folio
	 * (__do_fault()'s preallocation). */
	if (fault_pte_alloc(x, w, nid, 1) && wl_charge(x, w, 1, WL_MEMSW))
		shmem_add(x, w, nid);
	return 1;
}

/* Kernel pages in one cgroup: kernel stacks and page tables (a quarter and
 * the rest of `kernel`), n pages of one item on node nid, after their
 * charge. */
static void kernel_part(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_item item, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];

	if (item == MCG_KERNEL_STACK_KB) {
		node->kernel_stack += n;
		wl_stat(x, w, nid, MCG_KERNEL_STACK_KB, n * KB_PER_PAGE);
	} else {
		node->pagetables += n;
		wl_stat(x, w, nid, MCG_PAGETABLE, n);
	}
	wl_stat(x, w, nid, MCG_MEMCG_KMEM, n);
}

/*
 * Slab, charged by the object.
 *
 * Since 5.9 a memcg is charged not a slab page but each object its tasks
 * allocate, in bytes, obj_full_size() (the object and its obj_cgroup
 * pointer), through the CPU's object stock: most objects are covered by
 * what the stock holds; one in a page's worth charges a whole page
 * (obj_cgroup_charge_pages(): MEMCG_KMEM), and the slab statistics are
 * held back in the stock until a page's worth has gathered, or the stock
 * turns to another obj_cgroup or node (mod_objcg_state(); 7.3's
 * __account_obj_stock()).  A free gives the bytes back to the stock, which
 * gives whole pages back over a page (refill_obj_stock()).  7.3 charges and
 * accounts each object in turn (__memcg_slab_post_alloc_hook(),
 * __memcg_slab_free_hook(), mm/memcontrol.c); 6.12 charges an allocation's
 * objects at once in the same hook, 5.10 and 6.1 before the allocation
 * (memcg_slab_pre_alloc_hook(), mm/slab.h), then the statistics of each
 * (memcg_slab_post_alloc_hook(); 5.10's go straight through): the same for
 * the tasks' single objects, and memcgfs.charge's pages' worths are
 * charged object by object in every era.  The engine's objcg.c has each
 * era's stock.  The slab page itself is only counted node-wide
 * (account_slab()).
 *
 * So slab activity changes one memcg-wide item at a time, MEMCG_KMEM or a
 * slab count, and most objects change none; seed 001's count of items
 * changed per flush is low for that reason among others.
 *
 * The ledger counts slab in pages' worths of objects, SLAB_OBJECTS_PER_PAGE
 * objects of SLAB_OBJECT_BYTES each, a page's bytes exactly (a 248-byte
 * object with its 8-byte pointer).  The tasks allocate one object at a
 * time (the `slab` rate, in pages a second, is 16 objects a page): the
 * first object of a page's worth counts the page in the ledger, with the
 * slots it has left (slab_*_unfilled), the others fill them.  What is
 * charged for the tasks' slab is then the ledger's pages less the unfilled
 * slots, and the stocks hold the rest (mcg_workload_memcg_objects()); the
 * charged and uncharged counts of the audit count these pages' worths
 * (WL_OBJECTS).  As before, the root's tasks' slab is charged to the root,
 * which the kernel does not charge (current_obj_cgroup() is NULL or the
 * root's, which __memcg_slab_post_alloc_hook() skips).
 */
#define SLAB_OBJECT_BYTES 256
#define SLAB_OBJECTS_PER_PAGE (MCG_PAGE_SIZE / SLAB_OBJECT_BYTES)

/* n objects of w's obj_cgroup freed, counted as item on nid
 * (__memcg_slab_free_hook(): the bytes back to the stock, then the
 * statistics). */
static void slab_objects_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_item item,
			      long n)
{
	struct mcg_cgroup *objcg = wl_memcg(w);

	for (long i = 0; i < n; i++) {
		mcg_objcg_uncharge(x->cpu, objcg, SLAB_OBJECT_BYTES);
		mcg_objcg_mod_slab(x->cpu, objcg, nid, item, -(long)SLAB_OBJECT_BYTES);
		stat_count(x, w);
	}
}

/* n objects allocated by w's tasks on node nid, counted as item
 * (__memcg_slab_post_alloc_hook(): each charged through the stock, then
 * its statistics).  false if a page they need cannot be charged: the ones
 * allocated are freed again. */
static bool slab_objects_alloc(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_item item,
			       long n)
{
	struct mcg_cgroup *objcg = wl_memcg(w);
	long i;

	for (i = 0; i < n; i++) {
		if (!mcg_objcg_consume(x->cpu, objcg, SLAB_OBJECT_BYTES)) {
			if (!wl_charge(x, w, (long)mcg_objcg_pages(SLAB_OBJECT_BYTES),
				       WL_MEMSW | WL_KMEM | WL_OBJECTS))
				break;
			mcg_objcg_charged(x->cpu, objcg, SLAB_OBJECT_BYTES);
		}
		mcg_objcg_mod_slab(x->cpu, objcg, nid, item, SLAB_OBJECT_BYTES);
		stat_count(x, w);
	}
	if (i < n) {
		slab_objects_free(x, w, nid, item, i);
		return false;
	}
	return true;
}

static long *slab_pages(struct wl_node *node, bool reclaimable)
{
	return reclaimable ? &node->slab_reclaimable : &node->slab_unreclaimable;
}

static long *slab_unfilled(struct wl_node *node, bool reclaimable)
{
	return reclaimable ? &node->slab_reclaimable_unfilled : &node->slab_unreclaimable_unfilled;
}

static enum mcg_item slab_item(bool reclaimable)
{
	return reclaimable ? MCG_SLAB_RECLAIMABLE_B : MCG_SLAB_UNRECLAIMABLE_B;
}

/* A whole page's worth of slab objects on node nid (memcgfs.charge). */
static bool slab_page_add(struct wl_ctx *x, struct wl_cgroup *w, int nid, bool reclaimable)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];

	if (!slab_objects_alloc(x, w, nid, slab_item(reclaimable), SLAB_OBJECTS_PER_PAGE))
		return false;
	(*slab_pages(node, reclaimable))++;
	wl_count_charged(x, w, 1);
	return true;
}

/* Frees k of node nid's pages' worths of one kind of slab, and the objects
 * in them: empty ones first (a merge of ledgers may leave some: their
 * slots add up past a page's), then whole ones, the unfilled slots last,
 * so that what is left keeps what it held. */
static void slab_pages_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, bool reclaimable,
			    long k)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long *pages = slab_pages(node, reclaimable), *unfilled = slab_unfilled(node, reclaimable);
	long allocated = *pages * SLAB_OBJECTS_PER_PAGE - *unfilled;
	long empty = lmin(k, *unfilled / SLAB_OBJECTS_PER_PAGE);
	long objects = lmin((k - empty) * SLAB_OBJECTS_PER_PAGE, allocated);

	if (k <= 0)
		return;
	*pages -= k;
	*unfilled = *pages * SLAB_OBJECTS_PER_PAGE - (allocated - objects);
	slab_objects_free(x, w, nid, slab_item(reclaimable), objects);
	wl_count_uncharged(x, w, k);
}

/* One slab object, into the page's worth being filled or a new one (half
 * of them reclaimable over time). */
static long slab_alloc(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	long *unfilled = slab_unfilled(&l->node[l->slab_open_nid], l->slab_open_reclaimable);

	if (*unfilled <= 0) {
		l->slab_open_reclaimable = share_of(l, WL_CARRY_SLAB_RECLAIMABLE, 1, 50);
		l->slab_open_nid = pick_node(x, w, p);
		unfilled = slab_unfilled(&l->node[l->slab_open_nid], l->slab_open_reclaimable);
	}
	if (!slab_objects_alloc(x, w, l->slab_open_nid, slab_item(l->slab_open_reclaimable), 1))
		return 1;
	if (*unfilled > 0) {
		(*unfilled)--;
	} else {
		(*slab_pages(&l->node[l->slab_open_nid], l->slab_open_reclaimable))++;
		*unfilled = SLAB_OBJECTS_PER_PAGE - 1;
		wl_count_charged(x, w, 1);
	}
	return 1;
}

size_t wl_ledger_slab_unfilled_bytes(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	size_t sum = 0;

	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		sum += (size_t)(l->node[nid].slab_reclaimable_unfilled +
				l->node[nid].slab_unreclaimable_unfilled) *
		       SLAB_OBJECT_BYTES;
	return sum;
}

/* One page of kernel stack (a quarter over time) or page table. */
static long kernel_alloc(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	long stack;

	if (!wl_charge(x, w, 1, WL_MEMSW | WL_KMEM))
		return 1;
	stack = share_of(wl_ledger(w, x->cpu_id), WL_CARRY_KERNEL_STACK, 1, 25);
	kernel_part(x, w, pick_node(x, w, p), stack ? MCG_KERNEL_STACK_KB : MCG_PAGETABLE, 1);
	return 1;
}

/*
 * The kernel memory the tasks cannot be without, whatever their profile's
 * `kernel` rate: every thread has its kernel stack, and the process its
 * page tables, for as long as they live.
 *
 * - A thread's stack is THREAD_SIZE, 16 KiB on x86-64 (THREAD_SIZE_ORDER 2,
 *   arch/x86/include/asm/page_64_types.h), vmalloc'ed and charged by
 *   memcg_charge_kernel_stack(), counted in kernel_stack
 *   (alloc_thread_stack_node(), account_kernel_stack() in kernel/fork.c).
 *   The model's process runs one thread per emulated CPU (cgroup.threads
 *   lists them), so each CPU's ledger holds one stack.
 * - Page tables come with GFP_PGTABLE_USER, accounted (pte_alloc_one();
 *   memory.stat shows them as pagetables from 5.11, 5.10 only charges):
 *   one PTE page maps PTRS_PER_PTE (512) pages, one PMD page 512 PTE
 *   pages.  Resident anonymous memory, shmem, mapped page cache and the
 *   swap entries of swapped-out pages all sit in PTEs; a THP's mapping
 *   deposits a PTE page as well (pgtable_trans_huge_deposit()), so it
 *   costs the same.  The process's fixed part (text, libraries, stack,
 *   the upper levels) is what sleep(1) has on the 6.18 host, VmPTE
 *   52 kB: 13 pages, held in CPU 0's ledger as the mm is one.
 *
 * A fault that maps a page past what the tables hold allocates the next
 * table where the kernel does (fault_pte_alloc()), so no page is ever
 * mapped without one, even on a CPU whose first step this is.  Tasks exit
 * with both (wl_tasks_exit_ledger()); turnover trims them in proportion
 * with the rest, as threads come and go, and the next step makes what is
 * missing again.  A charge the limits refuse is tried again
 * the next step, as a fault or a clone would be.
 */
#define TASK_STACK_PAGES 4
#define TASK_PAGETABLES_BASE 13
#define PTRS_PER_TABLE 512

static long div_up(long a, long b)
{
	return (a + b - 1) / b;
}

/* What this CPU's ledger holds of stacks, page tables and pages that sit
 * in PTEs. */
struct task_kernel {
	long stack, pagetables, mapped;
};

static void task_kernel_add(const struct wl_ctx *x, const struct wl_ledger *l,
			    struct task_kernel *t)
{
	for (unsigned nid = 0; nid < x->wl->nr_nodes; nid++) {
		const struct wl_node *n = &l->node[nid];

		t->stack += n->kernel_stack;
		t->pagetables += n->pagetables;
		t->mapped += n->anon_inactive + n->anon_active + n->mlocked + n->shmem +
			     n->mapped + n->swapped;
	}
}

/* The tasks' on this CPU: w's ledger and its holders' (what they charged
 * to a css they no longer charge is still theirs, mapped and in tables). */
static struct task_kernel task_kernel_held(const struct wl_ctx *x, const struct wl_cgroup *w)
{
	struct task_kernel t = { 0, 0, 0 };

	task_kernel_add(x, wl_ledger(w, x->cpu_id), &t);
	for (unsigned i = 0; w->holders && i < w->holders->len; i++)
		task_kernel_add(x, wl_ledger(w->holders->pdata[i], x->cpu_id), &t);
	return t;
}

/* The page tables this CPU's ledger needs for `mapped` pages: PTE pages,
 * the tables above them, and on CPU 0 the address space's base. */
static long pagetables_needed(const struct wl_ctx *x, long mapped)
{
	long need = div_up(mapped, PTRS_PER_TABLE);

	return need + div_up(need, PTRS_PER_TABLE) + (x->cpu_id == 0 ? TASK_PAGETABLES_BASE : 0);
}

/* Charges page tables on node nid until this CPU's ledger has those that
 * `mapped` pages need; false when a charge failed. */
static bool pagetables_for(struct wl_ctx *x, struct wl_cgroup *w, int nid, long have,
			   long mapped)
{
	for (long need = pagetables_needed(x, mapped); have < need; have++) {
		if (!wl_charge(x, w, 1, WL_MEMSW | WL_KMEM))
			return false;
		kernel_part(x, w, nid, MCG_PAGETABLE, 1);
	}
	return true;
}

/*
 * The page table a fault maps `pages` more pages with, allocated where the
 * kernel allocates it: before the folio of an anonymous fault
 * (do_anonymous_page(): pte_alloc() first, mm/memory.c) and of a file or
 * shmem fault (__do_fault(): pte_alloc_one() into prealloc_pte before
 * ->fault() reads and charges the folio), after the folio of a THP
 * (__do_huge_pmd_anonymous_page(), mm/huge_memory.c: pte_alloc_one() for
 * the deposit after mem_cgroup_charge()).  False when its charge failed:
 * the fault is VM_FAULT_OOM and maps nothing.
 */
static bool fault_pte_alloc(struct wl_ctx *x, struct wl_cgroup *w, int nid, long pages)
{
	struct task_kernel t = task_kernel_held(x, w);

	return pagetables_for(x, w, nid, t.pagetables, t.mapped + pages);
}

/* The upper-level tables of a fault that maps `pages` more pages, before
 * anything of the fault is charged: __handle_mm_fault() (mm/memory.c)
 * runs pud_alloc() and pmd_alloc() before create_huge_pmd() or
 * handle_pte_fault() picks a huge or a small page (6.12).
 * Every table but the new PTE pages, which fault_pte_alloc() charges.
 * False when a charge failed (VM_FAULT_OOM). */
static bool fault_upper_alloc(struct wl_ctx *x, struct wl_cgroup *w, int nid, long pages)
{
	struct task_kernel t = task_kernel_held(x, w);
	long new_ptes = div_up(t.mapped + pages, PTRS_PER_TABLE) - div_up(t.mapped, PTRS_PER_TABLE);

	for (long have = t.pagetables,
		  need = pagetables_needed(x, t.mapped + pages) - new_ptes;
	     have < need; have++) {
		if (!wl_charge(x, w, 1, WL_MEMSW | WL_KMEM))
			return false;
		kernel_part(x, w, nid, MCG_PAGETABLE, 1);
	}
	return true;
}

static void tasks_kernel_floor(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p)
{
	struct task_kernel t = task_kernel_held(x, w);

	for (; t.stack < TASK_STACK_PAGES; t.stack++) {
		if (!wl_charge(x, w, 1, WL_MEMSW | WL_KMEM))
			return;
		kernel_part(x, w, pick_node(x, w, p), MCG_KERNEL_STACK_KB, 1);
	}
	/* A node is picked (a random number spent) only for a table due. */
	if (t.pagetables < pagetables_needed(x, t.mapped))
		pagetables_for(x, w, pick_node(x, w, p), t.pagetables, t.mapped);
}

/* ---- aging and writeback ---- */

/* Moves n pages from an inactive list to its active list (folio_activate(),
 * drained a batch at a time), of the pages on the lists: not those still in
 * the LRU add batch, which it leaves there. */
static void activate(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n, bool file)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long on_list = (file ? node->file_inactive - node->lru_add_pages[WL_LRU_INACTIVE_FILE]
			     : node->anon_inactive - node->lru_add_pages[WL_LRU_INACTIVE_ANON]);

	n = lmin(n, on_list);
	for (long done = 0; done < n; done += LRU_BATCH) {
		long k = lmin(LRU_BATCH, n - done);

		*(file ? &node->file_inactive : &node->anon_inactive) -= k;
		*(file ? &node->file_active : &node->anon_active) += k;
		stat_apply(x, w, wl_memcg(w), nid, file ? MCG_INACTIVE_FILE : MCG_INACTIVE_ANON, -k);
		stat_apply(x, w, wl_memcg(w), nid, file ? MCG_ACTIVE_FILE : MCG_ACTIVE_ANON, k);
		wl_stat(x, w, nid, MCG_PGACTIVATE, k);
	}
}

static void age_node(struct wl_ctx *x, struct wl_cgroup *w, int nid, double dt)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct wl_node *node = &l->node[nid];
	struct mcg_cgroup *cg = w->cg;
	long cleaned, started, activated;
	long lru_batch = (long)mcg_engine_config(x->e)->kernel.lru_add_batch;

	/* Writeback completes within ~0.2 s, dirty pages expire within ~0.5 s.
	 * Both move one page at a time, as the flusher accounts each folio
	 * (folio_clear_dirty_for_io() takes NR_FILE_DIRTY,
	 * folio_start_writeback() and folio_end_writeback() move
	 * NR_WRITEBACK); the completions reach the disk's statistics a
	 * request of IO_CHUNK pages at a time.  Reclaim starts writeback of
	 * the dirty pages it meets a batch at a time (reclaim_batch()). */
	cleaned = part_of(node->writeback, dt / 0.2);
	node->writeback -= cleaned;
	ledger_in_flight_add(l, -cleaned);
	for (long i = 0; i < cleaned; i++)
		wl_stat(x, w, nid, MCG_WRITEBACK, -1);
	io_account(x, cg, MCG_IO_WRITE, cleaned);
	started = part_of(node->dirty, dt / 0.5);
	node->dirty -= started;
	node->writeback += started;
	for (long i = 0; i < started; i++) {
		wl_stat(x, w, nid, MCG_FILE_DIRTY, -1);
		wl_stat(x, w, nid, MCG_WRITEBACK, 1);
	}

	/* A tenth of clean inactive pages get touched again each second, a
	 * twentieth of inactive anonymous ones.  folio_activate() queues each
	 * in the CPU's lru_activate batch, and the lists and PGACTIVATE move
	 * when it is full (lru_activate(), mm/swap.c; mm/folio.c in 7.3):
	 * the touches wait in the carry until they make a batch. */
	activated = batched(&l->carry[WL_CARRY_ACTIVATE_FILE],
			    (double)(node->file_inactive - node->dirty - node->writeback) * dt * 0.1,
			    lru_batch);
	activate(x, w, nid, activated, true);
	activated = batched(&l->carry[WL_CARRY_ACTIVATE_ANON], (double)node->anon_inactive * dt * 0.05,
			    lru_batch);
	activate(x, w, nid, activated, false);
}

/* ---- frees ---- */

/* A task's free of `pages` pages of list k, whose ledger size was `size`
 * before it (anon and mlocked memory: munmap() and exit free through
 * free_pages_and_swap_cache()).  Up to 6.12 the free drains the CPU's LRU
 * add batch first, as any list update here does (wl_stat_to()).  7.3's
 * does not (kernel.free_drains_lru_add):
 *  - the pages the lists count come off at once (__page_cache_release():
 *    lruvec_del_folio());
 *  - a folio freed while still in the batch, which holds a reference to
 *    it, never reaches its list: the drain's folio_batch_move_lru() filters
 *    it out (folio_ref_freeze(), 7.3 mm/folio.c) and frees it.  It keeps
 *    its slot until then, so the batch fills as soon as in the kernel;
 *  - an mlocked folio is munlocked into the CPU's mlock batch
 *    (munlock_folio(), mm/mlock.c), which drains with lru_add_drain()
 *    (mlock_drain_local()) or once full; NR_UNEVICTABLE falls then
 *    (munlock_pending).
 * The lists' pages go first: a task frees what it faulted earlier, the
 * batch holds the CPU's newest folios (single pages: a large folio never
 * waits in it).  The kernel uncharges a folio held by a batch at the
 * drain; here the charge goes at once. */
static void lru_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum wl_lru k, long pages,
		     long size)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct wl_node *node = &l->node[nid];
	long from_batch;

	if (pages <= 0)
		return;
	if (mcg_engine_config(x->e)->kernel.free_drains_lru_add) {
		wl_stat(x, w, nid, lru_items[k], -pages);
		return;
	}
	from_batch = lmin(node->lru_add_pages[k], pages - lmin(pages, size - node->lru_add_pages[k]));
	node->lru_add_pages[k] -= from_batch;
	if (k != WL_LRU_UNEVICTABLE) {
		stat_apply(x, w, wl_memcg(w), nid, lru_items[k], -(pages - from_batch));
		return;
	}
	node->munlock_pending += pages - from_batch;
	if (munlock_batched(x->wl, l) >= (long)mcg_engine_config(x->e)->kernel.lru_add_batch)
		wl_lru_add_drain(x, w);
}

/* Frees `small` small evictable anon pages and `thp_folios` THPs of a node
 * (as many as it has); returns pages. */
static long free_anon(struct wl_ctx *x, struct wl_cgroup *w, int nid, long small,
		      long thp_folios)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long k_small = lmin(small, node->anon_inactive + node->anon_active - node->thp);
	long k, from_inactive;

	thp_folios = lmin(thp_folios, node->thp / THP_PAGES);
	k = k_small + thp_folios * THP_PAGES;
	if (k <= 0)
		return 0;
	from_inactive = lmin(node->anon_inactive, k);
	/* shmem waits in the inactive anon batch too (shmem_add()) */
	lru_free(x, w, nid, WL_LRU_INACTIVE_ANON, from_inactive, node->anon_inactive + node->shmem);
	lru_free(x, w, nid, WL_LRU_ACTIVE_ANON, k - from_inactive, node->anon_active);
	node->anon_inactive -= from_inactive;
	node->anon_active -= k - from_inactive;
	node->thp -= thp_folios * THP_PAGES;
	wl_stat(x, w, nid, MCG_ANON_MAPPED, -k);
	wl_stat(x, w, nid, MCG_ANON_THPS, -thp_folios * THP_PAGES);
	wl_stat(x, w, nid, MCG_PGPGOUT, k_small + thp_folios);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
}

/* The turnover's share of a node's THPs, n pages: a THP goes whole
 * (zap_huge_pmd()), so the part of a folio left over takes one with the
 * odds of its share of the folio, which frees them in proportion on
 * average, neither one per batch nor none. */
static long free_thps(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	long folios = n / THP_PAGES;

	if ((double)ledger_random(x, w) / 2147483648.0 * THP_PAGES < (double)(n % THP_PAGES))
		folios++;
	return free_anon(x, w, nid, 0, folios);
}

/* k of the node's file pages leave the page cache: the mapped among them
 * go in proportion to all file pages.  Takes them off node->mapped and
 * returns how many. */
static long unmap_share(struct wl_node *node, long k)
{
	long total = node->file_inactive + node->file_active;
	long unmapped = total ? (long)((double)node->mapped * k / total) : 0;

	node->mapped -= unmapped;
	return unmapped;
}

/* Drops up to n clean file pages (inactive first), e.g. on truncate or
 * eviction; `evict` leaves shadow entries behind.  Returns pages. */
static long drop_file(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n, bool evict)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long clean_inactive = node->file_inactive - node->dirty - node->writeback;
	long from_inactive = lmin(clean_inactive, n);
	long from_active = evict ? 0 : lmin(node->file_active, n - from_inactive);
	long k = from_inactive + from_active;
	long unmapped;

	if (k <= 0)
		return 0;
	unmapped = unmap_share(node, k);
	node->file_inactive -= from_inactive;
	node->file_active -= from_active;
	if (evict)
		node->shadow_file += k;
	wl_stat(x, w, nid, MCG_FILE_PAGES, -k);
	wl_stat(x, w, nid, MCG_INACTIVE_FILE, -from_inactive);
	wl_stat(x, w, nid, MCG_ACTIVE_FILE, -from_active);
	wl_stat(x, w, nid, MCG_FILE_MAPPED, -unmapped);
	wl_stat(x, w, nid, MCG_PGPGOUT, k);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
}

static long free_shmem(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long k = lmin(node->shmem, n);

	if (k <= 0)
		return 0;
	node->shmem -= k;
	wl_stat(x, w, nid, MCG_SHMEM, -k);
	wl_stat(x, w, nid, MCG_FILE_PAGES, -k);
	wl_stat(x, w, nid, MCG_INACTIVE_ANON, -k);
	wl_stat(x, w, nid, MCG_PGPGOUT, k);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
}

/* Kinds of kernel memory free_kernel() may take, taken in this order. */
enum kmem_kinds {
	KMEM_SLAB_RECLAIMABLE = 1,
	KMEM_SLAB_UNRECLAIMABLE = 2,
	KMEM_KERNEL_STACK = 4,
	KMEM_PAGETABLES = 8,
	KMEM_ALL = 15,
};

/* The memcg a kernel page (stack, page table) of w's is charged to now.
 * From 5.13 kernel pages are charged through an obj_cgroup, which each
 * offline hands to the parent (memcg_reparent_objcgs()): a dying cgroup's
 * kernel memory is uncharged, and its statistics moved, at its nearest
 * live ancestor (obj_cgroup_uncharge_pages()).  5.10's keep
 * page->mem_cgroup, the dying memcg (__memcg_kmem_uncharge_page()).
 * Slab objects go through the obj_cgroup in every era (slab_objects_free()). */
static struct mcg_cgroup *kmem_owner(const struct wl_ctx *x, const struct wl_cgroup *w)
{
	if (!mcg_engine_config(x->e)->kernel.kmem_pages_objcg)
		return wl_memcg(w);
	return mcg_memcg_objcg_owner(wl_memcg(w));
}

/* Frees up to n pages of the given kinds of kernel memory, in that order. */
static long free_kernel(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n, unsigned kinds)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long rec = kinds & KMEM_SLAB_RECLAIMABLE ? lmin(node->slab_reclaimable, n) : 0;
	long unrec = kinds & KMEM_SLAB_UNRECLAIMABLE ? lmin(node->slab_unreclaimable, n - rec) : 0;
	long stack = kinds & KMEM_KERNEL_STACK ? lmin(node->kernel_stack, n - rec - unrec) : 0;
	long pt = kinds & KMEM_PAGETABLES ? lmin(node->pagetables, n - rec - unrec - stack) : 0;
	long k = rec + unrec + stack + pt;
	struct mcg_cgroup *page_cg;

	if (k <= 0)
		return 0;
	slab_pages_free(x, w, nid, true, rec);
	slab_pages_free(x, w, nid, false, unrec);
	node->kernel_stack -= stack;
	node->pagetables -= pt;
	if (stack + pt <= 0)
		return k;
	page_cg = kmem_owner(x, w);
	wl_stat_to(x, w, page_cg, nid, MCG_KERNEL_STACK_KB, -stack * KB_PER_PAGE);
	wl_stat_to(x, w, page_cg, nid, MCG_PAGETABLE, -pt);
	wl_stat_to(x, w, page_cg, nid, MCG_MEMCG_KMEM, -(stack + pt));
	wl_uncharge_kmem(x, w, page_cg, stack + pt);
	return k;
}

static long free_mlocked(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long k = lmin(node->mlocked, n);

	if (k <= 0)
		return 0;
	lru_free(x, w, nid, WL_LRU_UNEVICTABLE, k, node->mlocked);
	node->mlocked -= k;
	wl_stat(x, w, nid, MCG_ANON_MAPPED, -k);
	wl_stat(x, w, nid, MCG_PGPGOUT, k);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
}

/* Truncates up to n dirty page-cache pages of a node: truncate_cleanup_folio()
 * cancels the dirty state (folio_cancel_dirty() -> folio_account_cleaned():
 * file_dirty) and the folio leaves the page cache (filemap_unaccount_folio():
 * file), mapped pages in proportion as in drop_file().  Returns pages. */
static long truncate_dirty(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct wl_node *node = &l->node[nid];
	long k = lmin(node->dirty, n);
	long unmapped;

	if (k <= 0)
		return 0;
	unmapped = unmap_share(node, k);
	node->dirty -= k;
	node->file_inactive -= k;
	ledger_in_flight_add(l, -k);
	wl_stat(x, w, nid, MCG_FILE_DIRTY, -k);
	wl_stat(x, w, nid, MCG_FILE_PAGES, -k);
	wl_stat(x, w, nid, MCG_INACTIVE_FILE, -k);
	wl_stat(x, w, nid, MCG_FILE_MAPPED, -unmapped);
	wl_stat(x, w, nid, MCG_PGPGOUT, k);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
}

/* Socket buffers: see wl_charge_sock().  MEMCG_SOCK is a memcg item
 * (mod_memcg_state()), raised on v2 only. */
static bool sock_add(struct wl_ctx *x, struct wl_cgroup *w, int nid)
{
	switch (wl_charge_sock(x, w, 1)) {
	case WL_SOCK_UNACCOUNTED:
		return true;
	case WL_SOCK_REFUSED:
		return false;
	case WL_SOCK_CHARGED:
		break;
	}
	wl_ledger(w, x->cpu_id)->node[nid].sock++;
	if (x->wl->hierarchy != MCG_HIERARCHY_V1)
		wl_stat(x, w, nid, MCG_MEMCG_SOCK, 1);
	return true;
}

static long free_sock(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long k = lmin(node->sock, n);

	if (k <= 0)
		return 0;
	node->sock -= k;
	if (x->wl->hierarchy != MCG_HIERARCHY_V1)
		wl_stat(x, w, nid, MCG_MEMCG_SOCK, -k);
	wl_uncharge_sock(x, w, k);
	return k;
}

/* ---- pages of one kind (memcgfs.charge) ---- */

static const struct {
	const char *name;		/* memory.stat's */
	unsigned charge_flags;		/* enum wl_charge_flags */
	enum mcg_item kernel_item;	/* kernel memory: its item */
	unsigned kmem_kind;		/* kernel memory: enum kmem_kinds */
} page_kinds[MCG_NR_PAGE_KINDS] = {
	[MCG_PAGES_ANON] = { "anon", WL_MEMSW, 0, 0 },
	[MCG_PAGES_FILE] = { "file", WL_MEMSW, 0, 0 },
	[MCG_PAGES_FILE_DIRTY] = { "file_dirty", WL_MEMSW, 0, 0 },
	[MCG_PAGES_SHMEM] = { "shmem", WL_MEMSW, 0, 0 },
	/* charged by the object: slab_page_add() */
	[MCG_PAGES_SLAB_RECLAIMABLE] = { "slab_reclaimable", 0, MCG_SLAB_RECLAIMABLE_B,
					 KMEM_SLAB_RECLAIMABLE },
	[MCG_PAGES_SLAB_UNRECLAIMABLE] = { "slab_unreclaimable", 0, MCG_SLAB_UNRECLAIMABLE_B,
					   KMEM_SLAB_UNRECLAIMABLE },
	[MCG_PAGES_KERNEL_STACK] = { "kernel_stack", WL_MEMSW | WL_KMEM, MCG_KERNEL_STACK_KB,
				     KMEM_KERNEL_STACK },
	[MCG_PAGES_PAGETABLES] = { "pagetables", WL_MEMSW | WL_KMEM, MCG_PAGETABLE,
				   KMEM_PAGETABLES },
	[MCG_PAGES_SOCK] = { "sock", 0, 0, 0 },	/* sock_add() */
};

const char *mcg_page_kind_name(enum mcg_page_kind kind)
{
	return (unsigned)kind < MCG_NR_PAGE_KINDS ? page_kinds[kind].name : NULL;
}

bool wl_page_add(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_page_kind kind)
{
	if (kind == MCG_PAGES_SOCK)
		return sock_add(x, w, nid);
	if (kind == MCG_PAGES_SLAB_RECLAIMABLE || kind == MCG_PAGES_SLAB_UNRECLAIMABLE)
		return slab_page_add(x, w, nid, kind == MCG_PAGES_SLAB_RECLAIMABLE);
	if (!wl_charge(x, w, 1, page_kinds[kind].charge_flags))
		return false;
	switch (kind) {
	case MCG_PAGES_ANON:
		anon_folio_add(x, w, nid, 1, false, 0);
		break;
	case MCG_PAGES_FILE:
		file_page_add(x, w, nid, 0, 0);
		break;
	case MCG_PAGES_FILE_DIRTY:
		file_dirty_add(x, w, nid);
		break;
	case MCG_PAGES_SHMEM:
		shmem_add(x, w, nid);
		break;
	default:
		kernel_part(x, w, nid, page_kinds[kind].kernel_item, 1);
		break;
	}
	return true;
}

long wl_page_held(const struct wl_ledger *l, int nid, enum mcg_page_kind kind)
{
	const struct wl_node *n = &l->node[nid];

	switch (kind) {
	case MCG_PAGES_ANON:		/* small evictable pages: free_anon() */
		return n->anon_inactive + n->anon_active - n->thp;
	case MCG_PAGES_FILE:		/* clean page cache: drop_file() */
		return n->file_inactive - n->dirty - n->writeback + n->file_active;
	case MCG_PAGES_FILE_DIRTY:
		return n->dirty;
	case MCG_PAGES_SHMEM:
		return n->shmem;
	case MCG_PAGES_SLAB_RECLAIMABLE:
		return n->slab_reclaimable;
	case MCG_PAGES_SLAB_UNRECLAIMABLE:
		return n->slab_unreclaimable;
	case MCG_PAGES_KERNEL_STACK:
		return n->kernel_stack;
	case MCG_PAGES_PAGETABLES:
		return n->pagetables;
	case MCG_PAGES_SOCK:
		return n->sock;
	default:
		return 0;
	}
}

long wl_page_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum mcg_page_kind kind, long n)
{
	switch (kind) {
	case MCG_PAGES_ANON:
		return free_anon(x, w, nid, n, 0);
	case MCG_PAGES_FILE:
		return drop_file(x, w, nid, n, false);
	case MCG_PAGES_FILE_DIRTY:
		return truncate_dirty(x, w, nid, n);
	case MCG_PAGES_SHMEM:
		return free_shmem(x, w, nid, n);
	case MCG_PAGES_SOCK:
		return free_sock(x, w, nid, n);
	default:
		return free_kernel(x, w, nid, n, page_kinds[kind].kmem_kind);
	}
}

/*
 * The tasks let go of memory down to `cap` pages, every kind in proportion
 * to what it holds of the resident set, on every node: page cache, evictable
 * and mlocked anonymous memory, shmem, reclaimable and unreclaimable slab,
 * stacks and page tables.  Tasks that turn their memory over free what they
 * faulted, whatever it was (munmap() munlocks; the objects of a freed slab
 * and the stacks of exited threads go too), so the mix a profile keeps is
 * the mix of its fault rates, at every instant and however long it runs.
 * Freeing one kind before another would let the last kind pile up until it
 * is all that is left (all anon mlocked) or the first vanish (no kernel
 * memory under a mapped heap), states no kernel shows.
 */
enum trim_kind {
	TRIM_FILE, TRIM_ANON, TRIM_THP, TRIM_MLOCKED, TRIM_SHMEM, TRIM_SLAB_RECLAIMABLE,
	TRIM_SLAB_UNRECLAIMABLE, TRIM_STACK, TRIM_PAGETABLES, TRIM_SWAPPED, TRIM_NR
};

/* The tasks free anonymous pages that reclaim had swapped out: the swap
 * entries go (free_swap_and_cache()). */
static long free_swapped(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long k = lmin(node->swapped, n);

	if (k <= 0)
		return 0;
	node->swapped -= k;
	wl_stat(x, w, nid, MCG_MEMCG_SWAP, -k);
	wl_uncharge_swap(x, w, k, true);
	return k;
}

static long trim_held(const struct wl_node *n, enum trim_kind k)
{
	switch (k) {
	case TRIM_FILE: return n->file_inactive + n->file_active - n->dirty - n->writeback;
	case TRIM_ANON: return n->anon_inactive + n->anon_active - n->thp;
	case TRIM_THP: return n->thp;
	case TRIM_MLOCKED: return n->mlocked;
	case TRIM_SHMEM: return n->shmem;
	case TRIM_SLAB_RECLAIMABLE: return n->slab_reclaimable;
	case TRIM_SLAB_UNRECLAIMABLE: return n->slab_unreclaimable;
	case TRIM_STACK: return n->kernel_stack;
	case TRIM_PAGETABLES: return n->pagetables;
	default: return n->swapped;
	}
}

static long trim_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, enum trim_kind k, long n)
{
	switch (k) {
	case TRIM_FILE: return drop_file(x, w, nid, n, false);
	case TRIM_ANON: return free_anon(x, w, nid, n, 0);
	case TRIM_THP: return free_thps(x, w, nid, n);
	case TRIM_MLOCKED: return free_mlocked(x, w, nid, n);
	case TRIM_SHMEM: return free_shmem(x, w, nid, n);
	case TRIM_SLAB_RECLAIMABLE: return free_kernel(x, w, nid, n, KMEM_SLAB_RECLAIMABLE);
	case TRIM_SLAB_UNRECLAIMABLE: return free_kernel(x, w, nid, n, KMEM_SLAB_UNRECLAIMABLE);
	case TRIM_STACK: return free_kernel(x, w, nid, n, KMEM_KERNEL_STACK);
	case TRIM_PAGETABLES: return free_kernel(x, w, nid, n, KMEM_PAGETABLES);
	default: return free_swapped(x, w, nid, n);
	}
}

/* What the tasks of w hold on this CPU: w's ledger and its holders'. */
static long tasks_held(const struct wl_ctx *x, const struct wl_cgroup *w)
{
	long held = wl_ledger_held(x->wl, wl_ledger(w, x->cpu_id));

	for (unsigned i = 0; w->holders && i < w->holders->len; i++)
		held += wl_ledger_held(x->wl, wl_ledger(w->holders->pdata[i], x->cpu_id));
	return held;
}

void wl_holder_freed(struct wl_ctx *x, struct wl_cgroup *h, long freed)
{
	const struct wl_ledger *l = wl_ledger(h, x->cpu_id);

	if (!h->holder || freed <= 0)
		return;
	if (!wl_ledger_holds_pages(x->wl, l) ||
	    (!mcg_memcg_online(wl_memcg(h)) && !wl_ledger_pins_css(x->wl, l)))
		atomic_store_explicit(&x->wl->sweep_due, true, memory_order_relaxed);
}

/* Frees `excess` of one ledger's pages, every kind in proportion. */
static void trim_ledger(struct wl_ctx *x, struct wl_cgroup *w, long excess)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	long held = wl_ledger_held(x->wl, l), freed = 0;
	double frac;

	if (excess <= 0 || held <= 0)
		return;
	frac = excess >= held ? 1.0 : (double)excess / (double)held;
	for (unsigned nid = 0; nid < x->wl->nr_nodes; nid++) {
		for (int k = 0; k < TRIM_NR; k++) {
			/* Rounded at random, up with the odds of the fraction:
			 * on average exactly the share, so a kind of a few
			 * pages is neither kept whole (floor) nor drained
			 * first (ceil). */
			double want = (double)trim_held(&l->node[nid], (enum trim_kind)k) * frac;
			long part = (long)want;

			if ((double)ledger_random(x, w) / 2147483648.0 < want - (double)part)
				part++;

			/* A batch at a time, as the LRU lists move; THPs in
			 * one call, so that the part of a folio left over is
			 * drawn once (free_thps()). */
			while (part > 0) {
				long got = trim_free(x, w, (int)nid, (enum trim_kind)k,
						     k == TRIM_THP ? part : lmin(part, LRU_BATCH));

				if (got <= 0)
					break;
				part -= got;
				freed += got;
			}
		}
	}
	wl_holder_freed(x, w, freed);
}

/* The turnover's frees down to the footprint: the pages the tasks charged
 * to a css they left go first (the oldest), then the current css's.
 *
 * A task gives memory back by the run, not a page per fault: munmap() or
 * exit frees a range through one mmu_gather (up to MAX_GATHER_BATCH
 * pages), and up to 6.12 free_pages_and_swap_cache() drains the CPU's LRU
 * add batch once for all of it (mm/swap_state.c; lru_free()).  So the
 * frees wait until the excess is a run: LRU_BATCH pages, or an eighth of
 * the CPU's share of the footprint where that is less, which bounds how
 * far the tasks go past it.  Freeing a page after every fault would make
 * each fault's visit by a flush find the free's items changed too, and
 * (up to 6.12) drain the LRU add batch at every fault. */
static void trim_to(struct wl_ctx *x, struct wl_cgroup *w, long cap)
{
	long excess = tasks_held(x, w) - cap;

	if (excess < lmin(LRU_BATCH, cap / 8 > 1 ? cap / 8 : 1))
		return;

	for (unsigned i = 0; excess > 0 && w->holders && i < w->holders->len; i++) {
		struct wl_cgroup *h = w->holders->pdata[i];
		long before = wl_ledger_held(x->wl, wl_ledger(h, x->cpu_id));

		trim_ledger(x, h, excess);
		excess -= before - wl_ledger_held(x->wl, wl_ledger(h, x->cpu_id));
	}
	trim_ledger(x, w, excess);
}

/* ---- reclaim ---- */

/* Moves up to n pages from an active list to its inactive list, as
 * shrink_active_list() does when the inactive list runs short. */
static void refill(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n, bool file)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long *active = file ? &node->file_active : &node->anon_active;
	long *inactive = file ? &node->file_inactive : &node->anon_inactive;
	long k = lmin(*active, n);

	if (k <= 0)
		return;
	*active -= k;
	*inactive += k;
	wl_stat(x, w, nid, file ? MCG_ACTIVE_FILE : MCG_ACTIVE_ANON, -k);
	wl_stat(x, w, nid, file ? MCG_INACTIVE_FILE : MCG_INACTIVE_ANON, k);
	wl_stat(x, w, nid, MCG_PGREFILL, k);
	wl_stat(x, w, nid, MCG_PGDEACTIVATE, k);
}

/* Swaps out up to n inactive anonymous pages (small pages first). */
static long swap_out(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long small = node->anon_inactive + node->anon_active - node->thp;
	long k_small = lmin(lmin(small, node->anon_inactive), n);
	long thp_folios = 0, k;

	if (k_small < n && node->thp && node->anon_inactive - k_small >= THP_PAGES)
		thp_folios = lmin(lmin(node->thp, node->anon_inactive - k_small) / THP_PAGES,
				  (n - k_small + THP_PAGES - 1) / THP_PAGES);
	k = k_small + thp_folios * THP_PAGES;
	if (k <= 0 || !wl_charge_swap(x, w, k))
		return 0;
	node->anon_inactive -= k;
	node->thp -= thp_folios * THP_PAGES;
	node->swapped += k;
	node->shadow_anon += k;
	wl_stat(x, w, nid, MCG_ANON_MAPPED, -k);
	wl_stat(x, w, nid, MCG_INACTIVE_ANON, -k);
	wl_stat(x, w, nid, MCG_ANON_THPS, -thp_folios * THP_PAGES);
	wl_stat(x, w, nid, MCG_THP_SWPOUT, thp_folios);
	wl_stat(x, w, nid, MCG_MEMCG_SWAP, k);
	wl_stat(x, w, nid, MCG_PSWPOUT, k);
	wl_stat(x, w, nid, MCG_PGPGOUT, k_small + thp_folios);
	/* v1: the page stays in memsw, now as swap. */
	wl_uncharge(x, w, k, 0);
	return k;
}

long wl_page_swap_out(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];

	if (node->anon_inactive < n)
		refill(x, w, nid, n - node->anon_inactive, false);
	return swap_out(x, w, nid, n);
}

long wl_page_swap_free(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	return free_swapped(x, w, nid, n);
}

/* One shrink_list() pass over a node: up to `want` pages (a batch). */
static long reclaim_batch(struct wl_ctx *x, struct wl_cgroup *w, int nid, long want, bool swap,
			  enum mcg_item scan_item, enum mcg_item steal_item,
			  struct wl_reclaim_count *rc)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct wl_node *node = &l->node[nid];
	long clean, evicted, swapped = 0, written, slab;

	per_cpu_count(&l->reclaim_batches, 1);
	/* File first: clean inactive pages go, refilled from active. */
	clean = node->file_inactive - node->dirty - node->writeback;
	if (clean < want)
		refill(x, w, nid, want - clean, true);
	evicted = drop_file(x, w, nid, want, true);
	/* Dirty pages met on the way get their writeback started. */
	written = lmin(node->dirty, want - evicted);
	if (written > 0) {
		node->dirty -= written;
		node->writeback += written;
		wl_stat(x, w, nid, MCG_FILE_DIRTY, -written);
		wl_stat(x, w, nid, MCG_WRITEBACK, written);
		wl_stat(x, w, nid, MCG_VMSCAN_WRITE, written);
	}
	if (swap && want - evicted > 0) {
		if (node->anon_inactive < want - evicted)
			refill(x, w, nid, want - evicted - node->anon_inactive, false);
		swapped = swap_out(x, w, nid, want - evicted);
	}
	wl_stat(x, w, nid, scan_item, evicted + swapped + (written > 0 ? written : 0));
	wl_stat(x, w, nid, steal_item, evicted + swapped);
	wl_stat(x, w, nid, MCG_PGSCAN_FILE, evicted + (written > 0 ? written : 0));
	wl_stat(x, w, nid, MCG_PGSTEAL_FILE, evicted);
	wl_stat(x, w, nid, MCG_PGSCAN_ANON, swapped);
	wl_stat(x, w, nid, MCG_PGSTEAL_ANON, swapped);
	/* Shrinkers free reclaimable slab alongside. */
	slab = free_kernel(x, w, nid, want - evicted - swapped, KMEM_SLAB_RECLAIMABLE);
	/* sc->nr_scanned counts the dirty pages met, not reclaimed. */
	rc->scanned += evicted + swapped + (written > 0 ? written : 0);
	rc->slab += slab;
	return evicted + swapped + slab;
}

/* Is there swap to reclaim anonymous pages to?  get_scan_count() scans
 * anon only if can_reclaim_anon_pages(): mem_cgroup_get_nr_swap_pages() >
 * 0, on v2 the room left under swap.max of the memcg and each ancestor
 * below the root (the machine's swap is unbounded here); v1 asks the
 * machine's alone.  Without room, reclaim does not try, so no swap charge
 * fails (no max or fail event). */
static bool swap_room(const struct mcg_workload *wl, struct mcg_cgroup *cg)
{
	if (wl->hierarchy == MCG_HIERARCHY_V1)
		return true;
	for (; !mcg_cgroup_is_root(cg); cg = mcg_cgroup_parent(cg))
		if (mcg_counter_read(cg, MCG_COUNTER_SWAP, MCG_FIELD_USAGE) >=
		    mcg_counter_read(cg, MCG_COUNTER_SWAP, MCG_FIELD_MAX))
			return false;
	return true;
}

long wl_reclaim_ledger(struct wl_ctx *x, struct wl_cgroup *w, long want, bool swap,
		       enum mcg_item scan_item, enum mcg_item steal_item,
		       struct wl_reclaim_count *rc)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	long total = 0;

	swap = swap && swap_room(x->wl, wl_memcg(w));

	/* Each call starts on the next node, so that no node is favoured. */
	unsigned first = l->next_node[WL_ROT_RECLAIM]++;

	for (unsigned i = 0; i < x->wl->nr_nodes && want > 0; i++) {
		int nid = (int)((first + i) % x->wl->nr_nodes);

		while (want > 0) {
			long got = reclaim_batch(x, w, nid, lmin(want, LRU_BATCH), swap, scan_item,
						 steal_item, rc);

			if (got <= 0)
				break;
			want -= got;
			total += got;
		}
	}
	return total;
}

long wl_tasks_exit_ledger(struct wl_ctx *x, struct wl_cgroup *w)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	long freed = 0;

	for (unsigned i = 0; i < x->wl->nr_nodes; i++) {
		int nid = (int)i;
		struct wl_node *node = &l->node[nid];

		freed += free_anon(x, w, nid, node->anon_inactive + node->anon_active - node->thp,
				   node->thp / THP_PAGES);
		freed += free_mlocked(x, w, nid, node->mlocked);
		/* Shared anonymous memory goes with its last mapper. */
		freed += free_shmem(x, w, nid, node->shmem);
		/* Stacks, page tables and the tasks' own slab go with them;
		 * reclaimable slab (dentries, inodes) stays with the page
		 * cache, as it outlives the tasks in the kernel. */
		freed += free_kernel(x, w, nid,
				     node->slab_unreclaimable + node->kernel_stack + node->pagetables,
				     KMEM_SLAB_UNRECLAIMABLE | KMEM_KERNEL_STACK | KMEM_PAGETABLES);
		if (node->swapped) {
			wl_stat(x, w, nid, MCG_MEMCG_SWAP, -node->swapped);
			wl_uncharge_swap(x, w, node->swapped, true);
			node->swapped = 0;
		}
		/* exit closes the tasks' sockets */
		freed += free_sock(x, w, nid, node->sock);
	}
	/* The kernel's batches are the CPU's, which the next tasks it runs
	 * fill and drain; the ledger's would wait for ever once its tasks
	 * are gone. */
	wl_lru_add_drain(x, w);
	return freed;
}

/* ---- one step ---- */

/* One page event of each rate (the pages of the rate it used up). */
static long (*const page_event[WL_RECLAIM])(struct wl_ctx *, struct wl_cgroup *,
					    const struct mcg_profile *) = {
	[WL_ANON] = anon_fault,	  [WL_FILE_READ] = file_read, [WL_FILE_WRITE] = file_write,
	[WL_SHMEM] = shmem_fault, [WL_SLAB] = slab_alloc,      [WL_KERNEL] = kernel_alloc,
};

bool wl_step(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p, double dt)
{
	bool behind = false, more;
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	/* The tasks' CPUs (cpus=N: the first N) share the rates and the
	 * footprint; the others' ledgers keep nothing. */
	const unsigned ncpu = p->cpus && p->cpus < x->wl->nr_cpus ? p->cpus : x->wl->nr_cpus;
	const double share = x->cpu_id < ncpu ? 1.0 / ncpu : 0.0;
	const unsigned long rates[WL_NR_RATES] = {
		[WL_ANON] = p->anon,   [WL_FILE_READ] = p->file_read, [WL_FILE_WRITE] = p->file_write,
		[WL_SHMEM] = p->shmem, [WL_SLAB] = p->slab,	      [WL_KERNEL] = p->kernel,
		[WL_RECLAIM] = p->reclaim,
	};
	double footprint = (double)p->footprint / MCG_PAGE_SIZE * share;
	double scale = 1.0, total_rate = 0, task_dt = dt;
	long n[WL_NR_RATES];
	uint64_t events = 0;

	/* A memory.high throttle sleep in progress: the tasks spend it
	 * asleep, stalled on memory, and fault only in what is left of the
	 * step; writeback and kswapd, which are not theirs, go on. */
	if (l->throttle_ns) {
		uint64_t sleep = MIN(l->throttle_ns, (uint64_t)(dt * 1e9));

		l->throttle_ns -= sleep;
		wl_memstall(x, w, sleep);
		task_dt = MAX(dt - (double)sleep / 1e9, 0.0);
	}
	if (!mcg_profile_is_idle(p) && share > 0)
		tasks_kernel_floor(x, w, p);
	for (int r = 0; r < WL_RECLAIM; r++)
		total_rate += (double)rates[r];
	/* At the footprint, the fault rates follow the turnover. */
	if (p->footprint && p->turnover && total_rate > 0 &&
	    (double)tasks_held(x, w) >= 0.95 * footprint)
		scale = (double)p->turnover / 100.0 * (double)p->footprint / MCG_PAGE_SIZE / total_rate;
	for (int r = 0; r < WL_NR_RATES; r++) {
		/* slab_alloc() makes one object, a page's worth a batch */
		double per_page = r == WL_SLAB ? SLAB_OBJECTS_PER_PAGE : 1;
		double want = r == WL_RECLAIM
				      ? (double)rates[r] * share * dt + l->carry[r]
				      : (double)rates[r] * per_page * share * task_dt * scale + l->carry[r];

		/* A CPU that fell behind catches up in bounded steps. */
		if (want > 8192) {
			want = 8192;
			behind = true;
		}
		n[r] = (long)want;
		l->carry[r] = want - (double)n[r];
	}
	/*
	 * The step's page events, one at a time and interleaved, as the
	 * tasks of the cgroup would fault, read, write and allocate: each
	 * one charges through the CPU's stock and makes the stat updates of
	 * its kernel path, so every event marks this (cgroup, CPU) pair
	 * updated again, and a flush that runs meanwhile finds the pair
	 * changed since its last visit.  The step is only the pacing clock.
	 * The events are counted (page_events) whether or not their charge
	 * went through: what was attempted is the workload's throughput.
	 */
	do {
		more = false;
		for (int r = 0; r < WL_RECLAIM; r++) {
			if (n[r] <= 0)
				continue;
			n[r] -= page_event[r](x, w, p);
			events++;
			more = true;
			/* The OOM killer took these tasks; the ones that
			 * fault next are new and need their stacks. */
			if (x->oom_killed == w) {
				x->oom_killed = NULL;
				tasks_kernel_floor(x, w, p);
			}
		}
		/* A memory.high penalty: the tasks go to sleep, and what
		 * they had left of the step they do not do. */
		if (l->throttle_ns) {
			for (int r = 0; r < WL_RECLAIM; r++)
				n[r] = MIN(n[r], 0);
			break;
		}
	} while (more);
	/* Published once a step: readers see progress a step at a time. */
	per_cpu_count(&l->page_events, events);
	per_cpu_count(&l->steps, 1);
	/* A THP fault that took more than the step's share is a debt. */
	l->carry[WL_ANON] += (double)n[WL_ANON];
	for (unsigned nid = 0; nid < x->wl->nr_nodes; nid++)
		age_node(x, w, (int)nid, dt);
	if (n[WL_RECLAIM]) {
		struct wl_reclaim_count rc = { 0 };
		long got = wl_reclaim_ledger(x, w, n[WL_RECLAIM], p->swap, MCG_PGSCAN_KSWAPD,
					     MCG_PGSTEAL_KSWAPD, &rc);

		/* kswapd reclaims for the whole machine: the root's window. */
		wl_vmpressure(x, mcg_engine_root(x->e), n[WL_RECLAIM], got, &rc, false);
	}
	if (p->footprint)
		trim_to(x, w, (long)footprint);
	/* The turnover trims stacks and page tables with the rest, as
	 * threads go; the threads that replace them come with their own
	 * before the step ends, so no sample finds running tasks without. */
	if (!mcg_profile_is_idle(p) && share > 0)
		tasks_kernel_floor(x, w, p);
	return behind;
}
