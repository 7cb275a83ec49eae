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
 * CPU's copy is on another cache line, and usually another page.
 *
 * memcgfs keeps chunks of MCG_PCPU_CHUNK_UNIT bytes per unit (the kernel's
 * minimum unit is 32 KiB, PCPU_MIN_UNIT_SIZE), each holding as many cgroup
 * blocks as fit; cg_pcpu(cg, cpu) is cg->pcpu + cpu x unit size.  A chunk
 * is freed when its last block goes.  The allocator's lock is taken on
 * create and free only, never on the update path.
 */
#include "engine/internal.h"

#include <stdlib.h>
#include <string.h>

/* PCPU_MIN_UNIT_SIZE (include/linux/percpu.h): 32 KiB. */
#define MCG_PCPU_CHUNK_UNIT (32u << 10)

struct pcpu_chunk {
	char *base;			/* nr_cpus units of unit_size */
	uint64_t used;			/* bit per block slot */
	unsigned nr_used;
	struct pcpu_chunk *next;	/* pcpu_lock */
};

void pcpu_plan(struct mcg_engine *e)
{
	size_t per_unit = MCG_PCPU_CHUNK_UNIT / e->pcpu_stride;

	if (per_unit < 1)
		per_unit = 1;
	if (per_unit > 64)
		per_unit = 64;
	e->pcpu_blocks_per_chunk = (unsigned)per_unit;
	/* A unit is whole pages, as the kernel's are. */
	e->pcpu_unit_size = (per_unit * e->pcpu_stride + 4095) & ~(size_t)4095;
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
		chunk = calloc(1, sizeof(*chunk));
		if (chunk)
			chunk->base = aligned_alloc(4096, e->pcpu_unit_size * e->cfg.nr_cpus);
		if (!chunk || !chunk->base) {
			free(chunk);
			pthread_mutex_unlock(&e->pcpu_lock);
			return NULL;
		}
		chunk->next = e->pcpu_chunks;
		e->pcpu_chunks = chunk;
	}
	for (slot = 0; chunk->used & (1ull << slot); slot++)
		;
	chunk->used |= 1ull << slot;
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
	chunk->used &= ~(1ull << slot);
	if (--chunk->nr_used == 0) {
		for (pp = &e->pcpu_chunks; *pp != chunk; pp = &(*pp)->next)
			;
		*pp = chunk->next;
		free(chunk->base);
		free(chunk);
	}
	pthread_mutex_unlock(&e->pcpu_lock);
}
