/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU memory laid out as the kernel's percpu allocator lays it out
 * (mm/percpu.c: chunks of one unit per CPU, an allocation at the same offset
 * in every unit).
 *
 * A cgroup's per-CPU block (memcg counters, rstat records, base and io
 * stats) is not one array of nr_cpus blocks side by side: the kernel gives
 * each CPU its own unit, and this_cpu_ptr() of an allocation is that unit's
 * base plus the allocation's offset.  Consecutive allocations sit next to
 * each other inside a unit, and a cgroup's copies for CPU 0, 1, 2 ... are a
 * whole unit apart.  That is what makes a sum over CPUs expensive
 * (memcg_page_state_local() before 6.6, the pre-5.8 numa_stat walk): each
 * CPU's copy is on another page, and with units a power of two apart, in
 * the same L1 and L2 cache set as every other CPU's copy.
 *
 * The unit size is the one pcpu_build_alloc_info() (mm/percpu.c) picks at
 * boot for the emulated CPU count: the first chunk's size rounded up to the
 * 2 MiB atom of x86-64 (PMD_SIZE, arch/x86/kernel/setup_percpu.c), cut into
 * the most units per atom that waste no more than a third of the CPUs: 256
 * KiB (8 units per 2 MiB atom) wherever a third of the CPUs absorbs the
 * waste of rounding a node's CPUs up to 8 (64 or 256 CPUs; but 9 to 11
 * CPUs get 512 KiB), 1 MiB at 2 CPUs (this machine's dmesg: "percpu:
 * Embedded 57 pages/cpu s202520 r0 d30952 u1048576").
 * Later chunks have the same unit size and are mapped with 4 KiB pages
 * (pcpu_create_chunk() -> vmalloc areas), so memcgfs asks for no huge pages.
 *
 * A chunk holds as many cgroup blocks as fit in a unit; cg_pcpu(cg, cpu) is
 * cg->pcpu + cpu x unit size.  A chunk is freed when its last block goes.
 * The allocator's lock is taken on create and free only, never on the
 * update path.
 */
#include "engine/internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The first chunk: the static per-CPU variables of this machine's 6.18
 * kernel (s202520 in the dmesg line above; it is built without modules,
 * hence r0), PERCPU_MODULE_RESERVE (8 KiB, as a Debian kernel with modules
 * has) and PERCPU_DYNAMIC_RESERVE (28 KiB) (include/linux/percpu.h): 59
 * pages.  57 or 59 pages round to the same units. */
#define PCPU_STATIC_SIZE	202520u
#define PCPU_RESERVED_SIZE	(8u << 10)
#define PCPU_DYNAMIC_SIZE	(28u << 10)
#define PCPU_ATOM_SIZE		(2u << 20)
#define PCPU_MIN_UNIT_SIZE	(32u << 10)
#define PCPU_PAGE_SIZE		4096u

struct pcpu_chunk {
	char *base;			/* nr_cpus units of unit_size */
	unsigned nr_used;
	struct pcpu_chunk *next;	/* pcpu_lock */
	uint64_t used[];		/* bit per block slot */
};

/* pcpu_build_alloc_info() (mm/percpu.c, 6.1): CPUs grouped by node, the
 * largest units-per-allocation that divides the atom into whole pages and
 * wastes at most a third of the possible CPUs, and no more allocations than
 * a larger one needs. */
static size_t pcpu_kernel_unit_size(unsigned nr_cpus, unsigned nr_nodes)
{
	size_t size_sum = PCPU_STATIC_SIZE + PCPU_RESERVED_SIZE + PCPU_DYNAMIC_SIZE;
	size_t min_unit, alloc_size;
	unsigned upa, max_upa, best_upa = 0, last_allocs = ~0u;

	size_sum = (size_sum + PCPU_PAGE_SIZE - 1) / PCPU_PAGE_SIZE * PCPU_PAGE_SIZE;
	min_unit = size_sum > PCPU_MIN_UNIT_SIZE ? size_sum : PCPU_MIN_UNIT_SIZE;
	alloc_size = (min_unit + PCPU_ATOM_SIZE - 1) / PCPU_ATOM_SIZE * PCPU_ATOM_SIZE;
	for (max_upa = (unsigned)(alloc_size / min_unit);
	     alloc_size % max_upa || (alloc_size / max_upa) % PCPU_PAGE_SIZE; max_upa--)
		;
	for (upa = max_upa; upa; upa--) {
		unsigned allocs = 0, wasted = 0;

		if (alloc_size % upa || (alloc_size / upa) % PCPU_PAGE_SIZE)
			continue;
		for (unsigned node = 0; node < nr_nodes; node++) {
			/* the emulated CPUs spread evenly over nodes */
			unsigned cnt = nr_cpus / nr_nodes + (node < nr_cpus % nr_nodes);
			unsigned this_allocs = (cnt + upa - 1) / upa;

			allocs += this_allocs;
			wasted += this_allocs * upa - cnt;
		}
		if (wasted > nr_cpus / 3)
			continue;
		if (allocs > last_allocs)
			break;
		last_allocs = allocs;
		best_upa = upa;
	}
	return alloc_size / best_upa;
}

void pcpu_plan(struct mcg_engine *e)
{
	size_t unit = pcpu_kernel_unit_size(e->cfg.nr_cpus, e->cfg.nr_nodes);

	/* The kernel refuses an allocation larger than a unit; no memcgfs
	 * block comes near one, but keep a block whole if it ever does. */
	if (unit < e->pcpu_stride)
		unit = (e->pcpu_stride + PCPU_PAGE_SIZE - 1) / PCPU_PAGE_SIZE * PCPU_PAGE_SIZE;
	e->pcpu_unit_size = unit;
	e->pcpu_blocks_per_chunk = (unsigned)(unit / e->pcpu_stride);
	/* One group of units in CPU order: CPU c's unit starts c units in
	 * (pcpu_setup_first_chunk()'s unit_off[] for a single group). */
	for (unsigned cpu = 0; cpu < e->cfg.nr_cpus; cpu++)
		e->pcpu_offset[cpu] = (size_t)cpu * unit;
}

static struct pcpu_chunk *pcpu_chunk_new(struct mcg_engine *e)
{
	size_t words = (e->pcpu_blocks_per_chunk + 63) / 64;
	size_t bytes = e->pcpu_unit_size * e->cfg.nr_cpus;
	struct pcpu_chunk *chunk = calloc(1, sizeof(*chunk) + words * sizeof(uint64_t));

	if (!chunk)
		return NULL;
	chunk->base = aligned_alloc(PCPU_PAGE_SIZE, bytes);
	if (!chunk->base) {
		free(chunk);
		return NULL;
	}
	/* 4 KiB pages, as vmalloc maps the kernel's chunks; advice only, so
	 * a refusal changes nothing but the TLB cost. */
	(void)madvise(chunk->base, bytes, MADV_NOHUGEPAGE);
	return chunk;
}

char *pcpu_alloc(struct mcg_engine *e, struct pcpu_chunk **chunk_out, unsigned *slot_out)
{
	struct pcpu_chunk *chunk;
	unsigned slot;
	char *block;

	pthread_mutex_lock(&e->pcpu_lock);
	for (chunk = e->pcpu_chunks; chunk; chunk = chunk->next)
		if (chunk->nr_used < e->pcpu_blocks_per_chunk)
			break;
	if (!chunk) {
		chunk = pcpu_chunk_new(e);
		if (!chunk) {
			pthread_mutex_unlock(&e->pcpu_lock);
			return NULL;
		}
		chunk->next = e->pcpu_chunks;
		e->pcpu_chunks = chunk;
	}
	for (slot = 0; chunk->used[slot / 64] & (1ull << (slot % 64)); slot++)
		;
	chunk->used[slot / 64] |= 1ull << (slot % 64);
	chunk->nr_used++;
	pthread_mutex_unlock(&e->pcpu_lock);

	block = chunk->base + (size_t)slot * e->pcpu_stride;
	for (unsigned cpu = 0; cpu < e->cfg.nr_cpus; cpu++)
		memset(block + (size_t)cpu * e->pcpu_unit_size, 0, e->pcpu_stride);
	*chunk_out = chunk;
	*slot_out = slot;
	return block;
}

void pcpu_free(struct mcg_engine *e, struct pcpu_chunk *chunk, unsigned slot)
{
	struct pcpu_chunk **pp;

	pthread_mutex_lock(&e->pcpu_lock);
	chunk->used[slot / 64] &= ~(1ull << (slot % 64));
	if (--chunk->nr_used == 0) {
		for (pp = &e->pcpu_chunks; *pp != chunk; pp = &(*pp)->next)
			;
		*pp = chunk->next;
		free(chunk->base);
		free(chunk);
	}
	pthread_mutex_unlock(&e->pcpu_lock);
}
