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
 */
#include "workload/internal.h"

#include <math.h>

#define THP_PAGES 512
#define KB_PER_PAGE (MCG_PAGE_SIZE / 1024)
/* Pages per emulated block I/O request (128 KiB). */
#define IO_CHUNK 32

void wl_stat(struct wl_ctx *x, struct mcg_cgroup *cg, int nid, enum mcg_item item, long val)
{
	if (!val)
		return;
	mcg_stat_mod(x->cpu, cg, nid, item, val);
	x->stat_updates++;
}

static long lmin(long a, long b)
{
	return a < b ? a : b;
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

bool wl_ledger_holds_pages(const struct mcg_workload *wl, const struct wl_ledger *l)
{
	if (wl_ledger_resident(wl, l) > 0)
		return true;
	for (unsigned nid = 0; nid < wl->nr_nodes; nid++)
		if (l->node[nid].swapped > 0)
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

/* A random node among those the profile allows. */
static int pick_node(const struct wl_ctx *x, const struct mcg_profile *p, struct wl_ledger *l)
{
	unsigned nodes = x->wl->nr_nodes, allowed = 0, k;

	if (!l->rng)
		l->rng = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)x->cpu_id << 32) ^ (uintptr_t)l;
	l->rng ^= l->rng >> 12;
	l->rng ^= l->rng << 25;
	l->rng ^= l->rng >> 27;
	k = (unsigned)((l->rng * 0x2545f4914f6cdd1dULL) >> 33);
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

/* The pages of a batch of n that have a property held by pct percent of
 * pages, exactly over time however small the batches. */
static long share_of(struct wl_ledger *l, enum wl_carry c, long n, double pct)
{
	long k = carried(&l->carry[c], (double)n * pct / 100.0);

	return k > n ? n : k;
}

/* ---- faults ---- */

/* Swap-ins: faults on anonymous pages that reclaim pushed out. */
static long anon_swapin(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	struct mcg_cgroup *cg = w->cg;
	long k = lmin(node->swapped, n / 4);
	long refault;

	if (k <= 0 || !wl_charge(x, w, k, 0))
		return 0;
	/* The charge may have OOM-killed this very ledger, swap and all:
	 * only what is still swapped comes back in. */
	if (node->swapped < k) {
		wl_uncharge(x, w, k - lmin(node->swapped, k), 0);
		k = lmin(node->swapped, k);
		if (k <= 0)
			return 0;
	}
	wl_uncharge_swap(x, w, k, false);
	node->swapped -= k;
	refault = lmin(node->shadow_anon, k);
	node->shadow_anon -= refault;
	/* Shadow entries found: workingset_test_recent() flushes first. */
	if (refault)
		mcg_memcg_flush_for_refault(x->e, cg);
	node->anon_active += refault;
	node->anon_inactive += k - refault;
	wl_stat(x, cg, nid, MCG_MEMCG_SWAP, -k);
	wl_stat(x, cg, nid, MCG_ANON_MAPPED, k);
	wl_stat(x, cg, nid, MCG_INACTIVE_ANON, k - refault);
	wl_stat(x, cg, nid, MCG_ACTIVE_ANON, refault);
	wl_stat(x, cg, nid, MCG_WORKINGSET_REFAULT_ANON, refault);
	wl_stat(x, cg, nid, MCG_WORKINGSET_ACTIVATE_ANON, refault);
	wl_stat(x, cg, nid, MCG_PSWPIN, k);
	wl_stat(x, cg, nid, MCG_PGFAULT, k);
	wl_stat(x, cg, nid, MCG_PGMAJFAULT, k);
	wl_stat(x, cg, nid, MCG_PGPGIN, k);
	return k;
}

static void anon_fault(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p,
		       long n)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct mcg_cgroup *cg = w->cg;
	int nid;
	struct wl_node *node;
	long thp_folios, small, mlocked;

	if (n <= 0)
		return;
	nid = pick_node(x, p, l);
	node = &l->node[nid];
	n -= anon_swapin(x, w, nid, n);
	/* THPs come whole: the carry gathers THP-bound pages until a folio
	 * is due, and keeps what does not fill one (or does not fit now). */
	{
		long thp_pages = carried(&l->carry[WL_CARRY_THP], (double)n * p->thp / 100.0);

		thp_folios = lmin(thp_pages, n) / THP_PAGES;
		l->carry[WL_CARRY_THP] += (double)(thp_pages - thp_folios * THP_PAGES);
	}
	small = n - thp_folios * THP_PAGES;
	if (!wl_charge(x, w, n, WL_MEMSW))
		return;
	mlocked = share_of(l, WL_CARRY_MLOCK, small, p->mlock);
	node->mlocked += mlocked;
	node->anon_inactive += n - mlocked;
	node->thp += thp_folios * THP_PAGES;
	wl_stat(x, cg, nid, MCG_ANON_MAPPED, n);
	wl_stat(x, cg, nid, MCG_INACTIVE_ANON, n - mlocked);
	wl_stat(x, cg, nid, MCG_UNEVICTABLE, mlocked);
	wl_stat(x, cg, nid, MCG_ANON_THPS, thp_folios * THP_PAGES);
	wl_stat(x, cg, nid, MCG_THP_FAULT_ALLOC, thp_folios);
	/* One fault and one pgpgin per folio. */
	wl_stat(x, cg, nid, MCG_PGFAULT, small + thp_folios);
	wl_stat(x, cg, nid, MCG_PGPGIN, small + thp_folios);
}

static void io_account(struct wl_ctx *x, struct mcg_cgroup *cg, enum mcg_io_op op, long pages)
{
	for (long done = 0; done < pages; done += IO_CHUNK)
		mcg_io_account(x->cpu, cg, 0, op, (uint64_t)lmin(IO_CHUNK, pages - done) * MCG_PAGE_SIZE);
}

static void file_read(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p, long n)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct mcg_cgroup *cg = w->cg;
	int nid;
	struct wl_node *node;
	long refault, mapped;

	if (n <= 0 || !wl_charge(x, w, n, WL_MEMSW))
		return;
	nid = pick_node(x, p, l);
	node = &l->node[nid];
	/* Pages evicted earlier come back: refaults, activated at once. */
	refault = lmin(node->shadow_file, n / 2);
	node->shadow_file -= refault;
	if (refault)
		mcg_memcg_flush_for_refault(x->e, cg);
	mapped = share_of(l, WL_CARRY_MAPPED, n, p->mapped);
	node->file_inactive += n - refault;
	node->file_active += refault;
	node->mapped += mapped;
	wl_stat(x, cg, nid, MCG_FILE_PAGES, n);
	wl_stat(x, cg, nid, MCG_INACTIVE_FILE, n - refault);
	wl_stat(x, cg, nid, MCG_ACTIVE_FILE, refault);
	wl_stat(x, cg, nid, MCG_WORKINGSET_REFAULT_FILE, refault);
	wl_stat(x, cg, nid, MCG_WORKINGSET_ACTIVATE_FILE, refault);
	wl_stat(x, cg, nid, MCG_WORKINGSET_RESTORE_FILE, refault / 4);
	wl_stat(x, cg, nid, MCG_FILE_MAPPED, mapped);
	/* Mapped pages are read through a fault that waits for the disk. */
	wl_stat(x, cg, nid, MCG_PGFAULT, mapped);
	wl_stat(x, cg, nid, MCG_PGMAJFAULT, mapped);
	wl_stat(x, cg, nid, MCG_PGPGIN, n);
	io_account(x, cg, MCG_IO_READ, n);
}

static void file_write(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p, long n)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	int nid;
	struct wl_node *node;

	if (n <= 0 || !wl_charge(x, w, n, WL_MEMSW))
		return;
	nid = pick_node(x, p, l);
	node = &l->node[nid];
	node->file_inactive += n;
	node->dirty += n;
	ledger_in_flight_add(l, n);
	wl_stat(x, w->cg, nid, MCG_FILE_PAGES, n);
	wl_stat(x, w->cg, nid, MCG_INACTIVE_FILE, n);
	wl_stat(x, w->cg, nid, MCG_FILE_DIRTY, n);
	wl_stat(x, w->cg, nid, MCG_PGPGIN, n);
}

static void shmem_fault(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p,
			long n)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	int nid;

	if (n <= 0 || !wl_charge(x, w, n, WL_MEMSW))
		return;
	nid = pick_node(x, p, l);
	l->node[nid].shmem += n;
	/* Swap-backed: counted as file, kept on the anon LRU. */
	wl_stat(x, w->cg, nid, MCG_SHMEM, n);
	wl_stat(x, w->cg, nid, MCG_FILE_PAGES, n);
	wl_stat(x, w->cg, nid, MCG_INACTIVE_ANON, n);
	wl_stat(x, w->cg, nid, MCG_PGFAULT, n);
	wl_stat(x, w->cg, nid, MCG_PGPGIN, n);
}

/* Kernel memory in one cgroup: slab (half of it reclaimable), kernel stacks
 * and page tables (a quarter and the rest of `kernel`).  Each part picks
 * its own node. */
static void kernel_part(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p,
			enum mcg_item item, long n)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	int nid;
	struct wl_node *node;

	if (n <= 0)
		return;
	nid = pick_node(x, p, l);
	node = &l->node[nid];
	switch (item) {
	case MCG_SLAB_RECLAIMABLE_B:
		node->slab_reclaimable += n;
		wl_stat(x, w->cg, nid, MCG_SLAB_RECLAIMABLE_B, n * MCG_PAGE_SIZE);
		break;
	case MCG_SLAB_UNRECLAIMABLE_B:
		node->slab_unreclaimable += n;
		wl_stat(x, w->cg, nid, MCG_SLAB_UNRECLAIMABLE_B, n * MCG_PAGE_SIZE);
		break;
	case MCG_KERNEL_STACK_KB:
		node->kernel_stack += n;
		wl_stat(x, w->cg, nid, MCG_KERNEL_STACK_KB, n * KB_PER_PAGE);
		break;
	default:
		node->pagetables += n;
		wl_stat(x, w->cg, nid, MCG_PAGETABLE, n);
		break;
	}
	wl_stat(x, w->cg, nid, MCG_MEMCG_KMEM, n);
}

static void slab_alloc(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p, long n)
{
	long reclaimable;

	if (n <= 0 || !wl_charge(x, w, n, WL_MEMSW | WL_KMEM))
		return;
	reclaimable = share_of(wl_ledger(w, x->cpu_id), WL_CARRY_SLAB_RECLAIMABLE, n, 50);
	kernel_part(x, w, p, MCG_SLAB_RECLAIMABLE_B, reclaimable);
	kernel_part(x, w, p, MCG_SLAB_UNRECLAIMABLE_B, n - reclaimable);
}

static void kernel_alloc(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p,
			 long n)
{
	long stack;

	if (n <= 0 || !wl_charge(x, w, n, WL_MEMSW | WL_KMEM))
		return;
	stack = share_of(wl_ledger(w, x->cpu_id), WL_CARRY_KERNEL_STACK, n, 25);
	kernel_part(x, w, p, MCG_KERNEL_STACK_KB, stack);
	kernel_part(x, w, p, MCG_PAGETABLE, n - stack);
}

/* ---- aging and writeback ---- */

static void age_node(struct wl_ctx *x, struct wl_cgroup *w, int nid, double dt)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	struct wl_node *node = &l->node[nid];
	struct mcg_cgroup *cg = w->cg;
	long cleaned, started, activated;

	/* Writeback completes within ~0.2 s, dirty pages expire within ~0.5 s. */
	cleaned = part_of(node->writeback, dt / 0.2);
	node->writeback -= cleaned;
	ledger_in_flight_add(l, -cleaned);
	wl_stat(x, cg, nid, MCG_WRITEBACK, -cleaned);
	io_account(x, cg, MCG_IO_WRITE, cleaned);
	started = part_of(node->dirty, dt / 0.5);
	node->dirty -= started;
	node->writeback += started;
	wl_stat(x, cg, nid, MCG_FILE_DIRTY, -started);
	wl_stat(x, cg, nid, MCG_WRITEBACK, started);

	/* A tenth of clean inactive pages get touched again each second. */
	activated = carried(&l->carry[WL_CARRY_ACTIVATE_FILE],
			    (double)(node->file_inactive - node->dirty - node->writeback) * dt * 0.1);
	if (activated > 0) {
		node->file_inactive -= activated;
		node->file_active += activated;
		wl_stat(x, cg, nid, MCG_INACTIVE_FILE, -activated);
		wl_stat(x, cg, nid, MCG_ACTIVE_FILE, activated);
		wl_stat(x, cg, nid, MCG_PGACTIVATE, activated);
	}
	activated = carried(&l->carry[WL_CARRY_ACTIVATE_ANON], (double)node->anon_inactive * dt * 0.05);
	if (activated > 0) {
		node->anon_inactive -= activated;
		node->anon_active += activated;
		wl_stat(x, cg, nid, MCG_INACTIVE_ANON, -activated);
		wl_stat(x, cg, nid, MCG_ACTIVE_ANON, activated);
		wl_stat(x, cg, nid, MCG_PGACTIVATE, activated);
	}
}

/* ---- frees ---- */

/* Frees up to n evictable anon pages of a node (THPs whole); returns pages. */
static long free_anon(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long small = node->anon_inactive + node->anon_active - node->thp;
	long k_small = lmin(small, n);
	long thp_folios = 0, k, from_inactive;

	if (k_small < n && node->thp)
		thp_folios = lmin(node->thp / THP_PAGES, (n - k_small + THP_PAGES - 1) / THP_PAGES);
	k = k_small + thp_folios * THP_PAGES;
	if (k <= 0)
		return 0;
	from_inactive = lmin(node->anon_inactive, k);
	node->anon_inactive -= from_inactive;
	node->anon_active -= k - from_inactive;
	node->thp -= thp_folios * THP_PAGES;
	wl_stat(x, w->cg, nid, MCG_ANON_MAPPED, -k);
	wl_stat(x, w->cg, nid, MCG_INACTIVE_ANON, -from_inactive);
	wl_stat(x, w->cg, nid, MCG_ACTIVE_ANON, -(k - from_inactive));
	wl_stat(x, w->cg, nid, MCG_ANON_THPS, -thp_folios * THP_PAGES);
	wl_stat(x, w->cg, nid, MCG_PGPGOUT, k_small + thp_folios);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
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
	long total = node->file_inactive + node->file_active;
	long unmapped;

	if (k <= 0)
		return 0;
	/* Mapped pages leave in proportion. */
	unmapped = total ? (long)((double)node->mapped * k / total) : 0;
	node->mapped -= unmapped;
	node->file_inactive -= from_inactive;
	node->file_active -= from_active;
	if (evict)
		node->shadow_file += k;
	wl_stat(x, w->cg, nid, MCG_FILE_PAGES, -k);
	wl_stat(x, w->cg, nid, MCG_INACTIVE_FILE, -from_inactive);
	wl_stat(x, w->cg, nid, MCG_ACTIVE_FILE, -from_active);
	wl_stat(x, w->cg, nid, MCG_FILE_MAPPED, -unmapped);
	wl_stat(x, w->cg, nid, MCG_PGPGOUT, k);
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
	wl_stat(x, w->cg, nid, MCG_SHMEM, -k);
	wl_stat(x, w->cg, nid, MCG_FILE_PAGES, -k);
	wl_stat(x, w->cg, nid, MCG_INACTIVE_ANON, -k);
	wl_stat(x, w->cg, nid, MCG_PGPGOUT, k);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
}

static long free_kernel(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n,
			bool reclaimable_only)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long rec = lmin(node->slab_reclaimable, n);
	long unrec = reclaimable_only ? 0 : lmin(node->slab_unreclaimable, n - rec);
	long stack = reclaimable_only ? 0 : lmin(node->kernel_stack, n - rec - unrec);
	long pt = reclaimable_only ? 0 : lmin(node->pagetables, n - rec - unrec - stack);
	long k = rec + unrec + stack + pt;

	if (k <= 0)
		return 0;
	node->slab_reclaimable -= rec;
	node->slab_unreclaimable -= unrec;
	node->kernel_stack -= stack;
	node->pagetables -= pt;
	wl_stat(x, w->cg, nid, MCG_SLAB_RECLAIMABLE_B, -rec * MCG_PAGE_SIZE);
	wl_stat(x, w->cg, nid, MCG_SLAB_UNRECLAIMABLE_B, -unrec * MCG_PAGE_SIZE);
	wl_stat(x, w->cg, nid, MCG_KERNEL_STACK_KB, -stack * KB_PER_PAGE);
	wl_stat(x, w->cg, nid, MCG_PAGETABLE, -pt);
	wl_stat(x, w->cg, nid, MCG_MEMCG_KMEM, -k);
	wl_uncharge(x, w, k, WL_MEMSW | WL_KMEM);
	return k;
}

static long free_mlocked(struct wl_ctx *x, struct wl_cgroup *w, int nid, long n)
{
	struct wl_node *node = &wl_ledger(w, x->cpu_id)->node[nid];
	long k = lmin(node->mlocked, n);

	if (k <= 0)
		return 0;
	node->mlocked -= k;
	wl_stat(x, w->cg, nid, MCG_ANON_MAPPED, -k);
	wl_stat(x, w->cg, nid, MCG_UNEVICTABLE, -k);
	wl_stat(x, w->cg, nid, MCG_PGPGOUT, k);
	wl_uncharge(x, w, k, WL_MEMSW);
	return k;
}

/* The tasks let go of their oldest memory down to `cap` pages: page cache
 * first, then anonymous, shmem, kernel and finally mlocked memory, each kind
 * over every node before the next kind, starting on the next node each time
 * so that no node drains first. */
static void trim_to(struct wl_ctx *x, struct wl_cgroup *w, long cap)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	long excess = wl_ledger_resident(x->wl, l) - cap;
	unsigned first = l->next_node[WL_ROT_TRIM]++;
	unsigned nodes = x->wl->nr_nodes;

	for (int kind = 0; kind < 5 && excess > 0; kind++) {
		for (unsigned i = 0; i < nodes && excess > 0; i++) {
			int nid = (int)((first + i) % nodes);
			/* An even share of what is left, per node still to visit. */
			long part = (excess + (long)(nodes - i) - 1) / (long)(nodes - i);

			switch (kind) {
			case 0: excess -= drop_file(x, w, nid, part, false); break;
			case 1: excess -= free_anon(x, w, nid, part); break;
			case 2: excess -= free_shmem(x, w, nid, part); break;
			case 3: excess -= free_kernel(x, w, nid, part, false); break;
			default: excess -= free_mlocked(x, w, nid, part); break;
			}
		}
	}
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
	wl_stat(x, w->cg, nid, file ? MCG_ACTIVE_FILE : MCG_ACTIVE_ANON, -k);
	wl_stat(x, w->cg, nid, file ? MCG_INACTIVE_FILE : MCG_INACTIVE_ANON, k);
	wl_stat(x, w->cg, nid, MCG_PGREFILL, k);
	wl_stat(x, w->cg, nid, MCG_PGDEACTIVATE, k);
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
	wl_stat(x, w->cg, nid, MCG_ANON_MAPPED, -k);
	wl_stat(x, w->cg, nid, MCG_INACTIVE_ANON, -k);
	wl_stat(x, w->cg, nid, MCG_ANON_THPS, -thp_folios * THP_PAGES);
	wl_stat(x, w->cg, nid, MCG_THP_SWPOUT, thp_folios);
	wl_stat(x, w->cg, nid, MCG_MEMCG_SWAP, k);
	wl_stat(x, w->cg, nid, MCG_PSWPOUT, k);
	wl_stat(x, w->cg, nid, MCG_PGPGOUT, k_small + thp_folios);
	/* v1: the page stays in memsw, now as swap. */
	wl_uncharge(x, w, k, 0);
	return k;
}

long wl_reclaim_ledger(struct wl_ctx *x, struct wl_cgroup *w, long want, bool swap,
		       enum mcg_item scan_item, enum mcg_item steal_item)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	long total = 0;

	/* Each call starts on the next node, so that no node is favoured. */
	unsigned first = l->next_node[WL_ROT_RECLAIM]++;

	for (unsigned i = 0; i < x->wl->nr_nodes && want > 0; i++) {
		int nid = (int)((first + i) % x->wl->nr_nodes);
		struct wl_node *node = &l->node[nid];
		long clean, evicted, swapped = 0, written, slab;

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
			wl_stat(x, w->cg, nid, MCG_FILE_DIRTY, -written);
			wl_stat(x, w->cg, nid, MCG_WRITEBACK, written);
			wl_stat(x, w->cg, nid, MCG_VMSCAN_WRITE, written);
		}
		if (swap && want - evicted > 0) {
			if (node->anon_inactive < want - evicted)
				refill(x, w, nid, want - evicted - node->anon_inactive, false);
			swapped = swap_out(x, w, nid, want - evicted);
		}
		wl_stat(x, w->cg, nid, scan_item, evicted + swapped + (written > 0 ? written : 0));
		wl_stat(x, w->cg, nid, steal_item, evicted + swapped);
		wl_stat(x, w->cg, nid, MCG_PGSCAN_FILE, evicted + (written > 0 ? written : 0));
		wl_stat(x, w->cg, nid, MCG_PGSTEAL_FILE, evicted);
		wl_stat(x, w->cg, nid, MCG_PGSCAN_ANON, swapped);
		wl_stat(x, w->cg, nid, MCG_PGSTEAL_ANON, swapped);
		/* Shrinkers free reclaimable slab alongside. */
		slab = free_kernel(x, w, nid, want - evicted - swapped, true);
		want -= evicted + swapped + slab;
		total += evicted + swapped + slab;
	}
	return total;
}

long wl_oom_kill_ledger(struct wl_ctx *x, struct wl_cgroup *w)
{
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	long freed = 0;

	for (unsigned i = 0; i < x->wl->nr_nodes; i++) {
		int nid = (int)i;
		struct wl_node *node = &l->node[nid];

		freed += free_anon(x, w, nid, node->anon_inactive + node->anon_active);
		freed += free_mlocked(x, w, nid, node->mlocked);
		freed += free_shmem(x, w, nid, node->shmem);
		/* The killed tasks' kernel memory goes with them. */
		freed += free_kernel(x, w, nid, node->slab_reclaimable + node->slab_unreclaimable +
						       node->kernel_stack + node->pagetables, false);
		if (node->swapped) {
			wl_stat(x, w->cg, nid, MCG_MEMCG_SWAP, -node->swapped);
			wl_uncharge_swap(x, w, node->swapped, true);
			node->swapped = 0;
		}
	}
	return freed;
}

/* ---- one step ---- */

bool wl_step(struct wl_ctx *x, struct wl_cgroup *w, const struct mcg_profile *p, double dt)
{
	bool behind = false;
	struct wl_ledger *l = wl_ledger(w, x->cpu_id);
	const double share = 1.0 / x->wl->nr_cpus;
	const unsigned long rates[WL_NR_RATES] = {
		[WL_ANON] = p->anon,   [WL_FILE_READ] = p->file_read, [WL_FILE_WRITE] = p->file_write,
		[WL_SHMEM] = p->shmem, [WL_SLAB] = p->slab,	      [WL_KERNEL] = p->kernel,
		[WL_RECLAIM] = p->reclaim,
	};
	double footprint = (double)p->footprint / MCG_PAGE_SIZE * share;
	double scale = 1.0, total_rate = 0;
	long n[WL_NR_RATES];

	for (int r = 0; r < WL_RECLAIM; r++)
		total_rate += (double)rates[r];
	/* At the footprint, the fault rates follow the turnover. */
	if (p->footprint && p->turnover && total_rate > 0 &&
	    (double)wl_ledger_resident(x->wl, l) >= 0.95 * footprint)
		scale = (double)p->turnover / 100.0 * (double)p->footprint / MCG_PAGE_SIZE / total_rate;
	for (int r = 0; r < WL_NR_RATES; r++) {
		double want = (double)rates[r] * share * dt * (r == WL_RECLAIM ? 1.0 : scale) +
			      l->carry[r];

		/* A CPU that fell behind catches up in bounded steps. */
		if (want > 8192) {
			want = 8192;
			behind = true;
		}
		n[r] = (long)want;
		l->carry[r] = want - (double)n[r];
	}
	anon_fault(x, w, p, n[WL_ANON]);
	file_read(x, w, p, n[WL_FILE_READ]);
	file_write(x, w, p, n[WL_FILE_WRITE]);
	shmem_fault(x, w, p, n[WL_SHMEM]);
	slab_alloc(x, w, p, n[WL_SLAB]);
	kernel_alloc(x, w, p, n[WL_KERNEL]);
	for (unsigned nid = 0; nid < x->wl->nr_nodes; nid++)
		age_node(x, w, (int)nid, dt);
	if (n[WL_RECLAIM])
		wl_reclaim_ledger(x, w, n[WL_RECLAIM], p->swap, MCG_PGSCAN_KSWAPD, MCG_PGSTEAL_KSWAPD);
	if (p->footprint)
		trim_to(x, w, (long)footprint);
	return behind;
}
