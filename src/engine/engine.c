/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Engine construction, emulated CPUs and the periodic flusher. */
#include "engine/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void mcg_engine_config_init(struct mcg_engine_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nr_cpus = 1;
	cfg->nr_nodes = 1;
	cfg->kernel = *mcg_kernel_default();
	cfg->hierarchy = MCG_HIERARCHY_V2;
	cfg->flush_period_ms = MCG_DEFAULT_FLUSH_PERIOD_MS;
}

const struct mcg_engine_config *mcg_engine_config(const struct mcg_engine *e)
{
	return &e->cfg;
}

const struct mcg_layout *mcg_engine_layout(const struct mcg_engine *e)
{
	return e->layout;
}

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/* Lays out one CPU's block: memcg header and counters, base, io, then one
 * rstat record per tree.  Update arrays first, the flusher's prev arrays on
 * their own cache lines after them. */
static void engine_plan_pcpu(struct mcg_engine *e)
{
	const struct mcg_layout *l = e->layout;
	size_t nodes = e->cfg.nr_nodes;
	size_t off = 0;

	e->off_memcg = off;
	off += sizeof(struct memcg_pcpu);
	e->off_state = off;
	off += sizeof(acount_t) * l->nr_state_slots;
	e->off_events = off;
	off += sizeof(acount_t) * l->nr_event_slots;
	e->off_lstate = off;
	off += sizeof(acount_t) * nodes * l->nr_node_slots;
	off = align_up(off, 64);
	e->off_state_prev = off;
	off += sizeof(acount_t) * l->nr_state_slots;
	e->off_events_prev = off;
	off += sizeof(acount_t) * l->nr_event_slots;
	e->off_lstate_prev = off;
	off += sizeof(acount_t) * nodes * l->nr_node_slots;
	off = align_up(off, 64);
	e->off_base = off;
	off += sizeof(struct base_pcpu);
	e->off_io = off;
	off += sizeof(struct io_pcpu);
	for (int p = 0; p < MCG_NR_PARTS; p++) {
		e->off_rstat[p] = off;
		off += sizeof(struct rstat_node_cpu);
	}
	/* The record the memcg hot path marks (cgroup.c's node_of[]). */
	e->off_memory_rstat = e->off_rstat[e->cfg.kernel.split_trees ? MCG_PART_MEMORY : 0];
	e->node_stride = (uint32_t)(sizeof(acount_t) * l->nr_node_slots);
	for (int i = 0; i < MCG_NR_ITEMS; i++) {
		struct memcg_item_path *ip = &e->item_path[i];
		size_t slot_off = sizeof(acount_t) * l->slot[i];

		ip->kind = l->kind[i];
		ip->unit_bytes = (uint16_t)mcg_storage_unit_bytes(
			(enum mcg_storage_unit)l->storage_unit[i]);
		if (ip->kind == MCG_KIND_EVENT)
			ip->off = (uint32_t)(e->off_events + slot_off);
		else if (ip->kind != MCG_KIND_ABSENT)
			ip->off = (uint32_t)(e->off_state + slot_off);
		if (ip->kind == MCG_KIND_NODE)
			ip->node_off = (uint32_t)(e->off_lstate + slot_off);
	}
	e->pcpu_stride = align_up(off, 64);
	pcpu_plan(e);
	/* state, local and pending for state, events, per node */
	e->nr_aggregates = 3 * (l->nr_state_slots + l->nr_event_slots + nodes * l->nr_node_slots);
}

size_t mcg_engine_pcpu_unit_size(const struct mcg_engine *e)
{
	return e->pcpu_unit_size;
}

size_t mcg_engine_pcpu_bytes(const struct mcg_engine *e, size_t *memcg)
{
	*memcg = e->off_base - e->off_memcg;
	return e->pcpu_stride;
}

size_t mcg_engine_cgroup_footprint(const struct mcg_engine *e)
{
	return sizeof(struct mcg_cgroup) + e->pcpu_stride * e->cfg.nr_cpus +
	       sizeof(acount_t) * e->nr_aggregates;
}

/* The mcg_stat_mod() specialisation of a kernel's mechanisms (memcg.c). */
static enum mcg_update_path engine_update_path(const struct mcg_kernel *k)
{
	if (k->stats == MCG_STATS_BATCHED_ATOMICS)
		return MCG_PATH_BATCHED;
	if (k->updater == MCG_UPDATER_LLIST && k->flush == MCG_FLUSH_PER_MEMCG &&
	    k->pending_stop_at_flushable && k->flush_count == MCG_COUNT_PAGES)
		return MCG_PATH_LLIST_PER_MEMCG_STOP;
	if (k->updater == MCG_UPDATER_LOCKED && k->flush == MCG_FLUSH_PER_MEMCG &&
	    !k->pending_stop_at_flushable && k->flush_count == MCG_COUNT_PAGES)
		return MCG_PATH_LOCKED_PER_MEMCG_ALL;
	if (k->updater == MCG_UPDATER_LOCKED && k->flush == MCG_FLUSH_GLOBAL &&
	    k->flush_count == MCG_COUNT_VALUES)
		return MCG_PATH_LOCKED_GLOBAL;
	return MCG_PATH_ANY;
}

/* flush_memcg_stats_dwork(): forced on purpose, whole tree. */
static void periodic_flush(struct mcg_engine *e)
{
	enum mcg_flush_trigger old = trace_trigger_swap(MCG_TRIGGER_PERIODIC);

	atomic_fetch_add_explicit(&e->nr_periodic, 1, memory_order_relaxed);
	__mcg_memcg_flush_stats(e, e->root, true);
	trace_trigger_swap(old);
}

static bool periodic_flush_runs(const struct mcg_engine *e)
{
	/* 5.10 has no memcg flush to run. */
	return e->cfg.flush_period_ms && e->cfg.kernel.flush != MCG_FLUSH_NONE;
}

static void *periodic_flusher(void *arg)
{
	struct mcg_engine *e = arg;
	struct timespec deadline;

	pthread_mutex_lock(&e->flusher_lock);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	while (!e->flusher_stop) {
		timespec_add_ns(&deadline, (uint64_t)e->cfg.flush_period_ms * 1000000u);
		while (!e->flusher_stop &&
		       pthread_cond_timedwait(&e->flusher_cond, &e->flusher_lock, &deadline) != ETIMEDOUT)
			;
		if (e->flusher_stop)
			break;
		pthread_mutex_unlock(&e->flusher_lock);
		periodic_flush(e);
		pthread_mutex_lock(&e->flusher_lock);
		/* A deferrable work does not catch up on missed periods. */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec && now.tv_nsec > deadline.tv_nsec))
			deadline = now;
	}
	pthread_mutex_unlock(&e->flusher_lock);
	return NULL;
}

struct mcg_engine *mcg_engine_new(const struct mcg_engine_config *cfg)
{
	struct mcg_engine *e;
	pthread_condattr_t cattr;
	const char *why;

	/* A kernel chosen without CONFIG_MEMCG_V1 has no v1 controller. */
	if (!cfg || !cfg->kernel.version || cfg->kernel.nr_memcg_stock < 1 ||
	    cfg->kernel.nr_memcg_stock > MCG_MAX_MEMCG_STOCK ||
	    cfg->nr_cpus < 1 || cfg->nr_cpus > MCG_MAX_CPUS ||
	    cfg->nr_nodes < 1 || cfg->nr_nodes > MCG_MAX_NODES ||
	    mcg_kernel_check_hierarchy(&cfg->kernel, cfg->hierarchy == MCG_HIERARCHY_V1,
				       &why) != 0) {
		errno = EINVAL;
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		goto err_nomem;
	e->cfg = *cfg;
	/* One whose CONFIG_MEMCG_V1=n is its release's default mounts v1 built
	 * with it: the engine, the layout and the workload (which reads this
	 * copy) see that build. */
	mcg_kernel_set_hierarchy(&e->cfg.kernel, cfg->hierarchy == MCG_HIERARCHY_V1);
	pthread_mutex_init(&e->clock_lock, NULL);
	pthread_mutex_init(&e->accuracy_lock, NULL);
	pthread_mutex_init(&e->trace_lock, NULL);
	e->layout = mcg_kernel_layout(&e->cfg.kernel);
	e->charge_batch = cfg->kernel.charge_batch;
	e->nr_stock = cfg->kernel.nr_memcg_stock;
	e->nr_obj_stock = cfg->kernel.obj_stock == MCG_OBJ_STOCK_7_3 ? MCG_MAX_OBJ_STOCK : 1;
	e->update_path = engine_update_path(&cfg->kernel);
	g_assert(cfg->kernel.flush_threshold_pct > 0);
	e->flush_threshold = e->charge_batch * cfg->nr_cpus * cfg->kernel.flush_threshold_pct / 100;
	e->global_flush_threshold = (long)cfg->nr_cpus * cfg->kernel.flush_threshold_pct / 100;
	/* Does the flush keep memcg-wide locals?  Not before 6.6, and not
	 * with seed 001's patch unless on v1 (which its CONFIG_MEMCG_V1=n
	 * kernel does not have: see mcg_kernel_check_hierarchy()). */
	e->maintain_local = cfg->kernel.local == MCG_LOCAL_FLUSHED ||
			    (cfg->kernel.local == MCG_LOCAL_FLUSHED_V1_ONLY &&
			     cfg->hierarchy == MCG_HIERARCHY_V1);
	e->pcpu_offset = calloc(cfg->nr_cpus, sizeof(*e->pcpu_offset));
	if (!e->pcpu_offset)
		goto err_free;
	engine_plan_pcpu(e);
	atomic_init(&e->next_id, 1);

	/* One tree per participant (6.16+), or one shared tree. */
	for (int p = 0; p < MCG_NR_PARTS; p++) {
		if (rstat_tree_init(&e->trees[p], cfg->nr_cpus, cfg->kernel.updater,
				    cfg->kernel.walk))
			goto err_free;
		e->trees[p].needbreak = cfg->kernel.preemption;
		e->trees[p].lock_stat_on = &e->lock_stat_on;
		if (cfg->kernel.rstat_lock_tracepoints) {
			e->trees[p].trace = trace_rstat;
			e->trees[p].trace_arg = e;
			e->trees[p].trace_on = &e->trace_on;
			e->trees[p].trace_fastpath_on = &e->trace_updaters;
		}
		e->trees[p].outer_lock = !cfg->kernel.rstat_lock_per_cpu &&
					 cfg->kernel.walk == MCG_WALK_DETACH_LIST;
		e->tree_of[p] = cfg->kernel.split_trees ? &e->trees[p] : &e->trees[0];
	}
	/* Callback order of the old shared tree: base stats, then every css
	 * (memory before io, by subsystem id). */
	rstat_tree_add_callback(e->tree_of[MCG_PART_BASE], base_flush_cpu, e);
	/* memcg joined rstat in 5.13; 5.10 batches into atomics instead. */
	if (cfg->kernel.stats == MCG_STATS_RSTAT)
		rstat_tree_add_callback(e->tree_of[MCG_PART_MEMORY], memcg_flush_cpu, e);
	rstat_tree_add_callback(e->tree_of[MCG_PART_IO], io_flush_cpu, e);

	pthread_rwlock_init(&e->hier_lock, NULL);
	pthread_mutex_init(&e->sync_lock, NULL);
	pthread_mutex_init(&e->call_mutex, NULL);
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&e->sync_cond, &cattr);
	pthread_condattr_destroy(&cattr);
	pthread_mutex_init(&e->stats_flush_lock, NULL);
	pthread_mutex_init(&e->pcpu_lock, NULL);
	e->cpus = aligned_alloc(64, sizeof(*e->cpus) * cfg->nr_cpus);
	if (!e->cpus)
		goto err_free;
	for (unsigned c = 0; c < cfg->nr_cpus; c++) {
		memset(&e->cpus[c], 0, sizeof(e->cpus[c]));
		pthread_mutex_init(&e->cpus[c].lock, NULL);
		pthread_mutex_init(&e->cpus[c].stock_drain_lock, NULL);
		e->cpus[c].engine = e;
		e->cpus[c].id = c;
		e->cpus[c].pcpu_offset = e->pcpu_offset[c];
		e->cpus[c].obj_stat_slot = -1;
	}
	e->root = engine_cgroup_alloc(e, NULL);
	if (!e->root)
		goto err_free;

	pthread_mutex_init(&e->flusher_lock, NULL);
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&e->flusher_cond, &cattr);
	pthread_condattr_destroy(&cattr);
	e->clock_origin_ns = mcg_now_ns();
	e->next_periodic_ns = (uint64_t)cfg->flush_period_ms * 1000000u;
	atomic_store(&e->flush_last_time_ns, engine_now_ns(e));
	/* flush_memcg_stats_dwork(), unless the clock is manual: then
	 * mcg_engine_clock_set() runs it. */
	if (periodic_flush_runs(e) && !cfg->manual_clock) {
		if (pthread_create(&e->flusher, NULL, periodic_flusher, e))
			goto err_free;
		e->flusher_running = true;
	}
	return e;

err_free:
	mcg_engine_free(e);
err_nomem:
	errno = ENOMEM;
	return NULL;
}

/* Live hidden csses first: each holds its cgroup, a child freed after. */
static void engine_free_subtree(struct mcg_cgroup *cg)
{
	struct mcg_cgroup *lists[] = { cg->first_hidden, cg->first_child };

	for (unsigned i = 0; i < G_N_ELEMENTS(lists); i++) {
		for (struct mcg_cgroup *child = lists[i]; child;) {
			struct mcg_cgroup *next = child->next_sibling;

			engine_free_subtree(child);
			child = next;
		}
	}
	if (cg->hidden)
		mcg_cgroup_put(cg->home);
	engine_cgroup_free(cg);
}

void mcg_engine_free(struct mcg_engine *e)
{
	if (!e)
		return;
	if (e->flusher_running) {
		pthread_mutex_lock(&e->flusher_lock);
		e->flusher_stop = true;
		pthread_cond_signal(&e->flusher_cond);
		pthread_mutex_unlock(&e->flusher_lock);
		pthread_join(e->flusher, NULL);
		pthread_mutex_destroy(&e->flusher_lock);
		pthread_cond_destroy(&e->flusher_cond);
	}
	pthread_mutex_destroy(&e->clock_lock);
	pthread_mutex_destroy(&e->accuracy_lock);
	pthread_mutex_destroy(&e->trace_lock);
	g_free(e->trace);
	/* The stocks' references go first: a destroyed cgroup they pin is
	 * released now.  Online cgroups are freed whatever their count;
	 * destroyed ones were unlinked and go with their last reference. */
	if (e->cpus)
		for (unsigned c = 0; c < e->cfg.nr_cpus; c++)
			charge_stock_teardown(&e->cpus[c]);
	if (e->root)
		engine_free_subtree(e->root);
	if (e->cpus) {
		for (unsigned c = 0; c < e->cfg.nr_cpus; c++) {
			pthread_mutex_destroy(&e->cpus[c].lock);
			pthread_mutex_destroy(&e->cpus[c].stock_drain_lock);
		}
		free(e->cpus);
	}
	pthread_rwlock_destroy(&e->hier_lock);
	pthread_mutex_destroy(&e->sync_lock);
	pthread_mutex_destroy(&e->call_mutex);
	pthread_cond_destroy(&e->sync_cond);
	pthread_mutex_destroy(&e->stats_flush_lock);
	g_assert(e->pcpu_chunks == NULL || !e->root);	/* every cgroup gave its block back */
	pthread_mutex_destroy(&e->pcpu_lock);
	free(e->pcpu_offset);
	for (int p = 0; p < MCG_NR_PARTS; p++)
		rstat_tree_destroy(&e->trees[p]);
	free(e);
}

uint64_t mcg_engine_clock_ns(const struct mcg_engine *e)
{
	if (e->cfg.manual_clock)
		return atomic_load_explicit(&e->clock_ns, memory_order_acquire);
	return mcg_now_ns() - e->clock_origin_ns;
}

/* The manual clock: each periodic flush runs with the clock at its own
 * deadline, and the next is due a period later, as the kernel's work
 * requeues itself FLUSH_TIME after it ran (flush_memcg_stats_dwork()):
 * time that passes with nothing else happening still has its flushes. */
int mcg_engine_clock_set(struct mcg_engine *e, uint64_t now_ns)
{
	uint64_t period_ns = (uint64_t)e->cfg.flush_period_ms * 1000000u;

	if (!e->cfg.manual_clock)
		return -EINVAL;
	g_assert(!engine_thread_in_cpu());
	pthread_mutex_lock(&e->clock_lock);
	if (now_ns < atomic_load_explicit(&e->clock_ns, memory_order_relaxed)) {
		pthread_mutex_unlock(&e->clock_lock);
		return -EINVAL;
	}
	while (periodic_flush_runs(e) && e->next_periodic_ns <= now_ns) {
		atomic_store_explicit(&e->clock_ns, e->next_periodic_ns, memory_order_release);
		periodic_flush(e);
		e->next_periodic_ns += period_ns;
	}
	atomic_store_explicit(&e->clock_ns, now_ns, memory_order_release);
	pthread_mutex_unlock(&e->clock_lock);
	return 0;
}

struct mcg_cpu *mcg_engine_cpu(struct mcg_engine *e, unsigned cpu)
{
	g_return_val_if_fail(cpu < e->cfg.nr_cpus, NULL);
	return &e->cpus[cpu];
}

unsigned mcg_cpu_id(const struct mcg_cpu *c)
{
	return c->id;
}

/*
 * CPU windows and grace periods.
 *
 * A thread updates a CPU's statistics and stocks only between
 * mcg_cpu_enter() and mcg_cpu_exit(), holding the CPU's lock: the kernel's
 * preemption-off section around this_cpu operations.  Every reader of
 * what a destroy or a profile swap retires, and every updater that read a
 * cgroup's `online`, does so inside a window, as the kernel's do under
 * rcu_read_lock(); a grace period is over once every CPU has left the
 * window it was in when the period began.
 *
 * Taking each CPU's lock in turn proves that, but adds the waits up.
 * Emulating 80 CPUs on 2 cores, each lock is held by a preempted worker,
 * and their turns come one after another: an rmdir under the load of
 * contrib/bench-hier.sh spent seconds in it.  synchronize_rcu() waits for
 * every CPU at once, each reporting its own quiescent state
 * (rcu_report_qs_rdp() in kernel/rcu/tree.c).  So does
 * mcg_engine_sync_cpus(): it bumps the engine's sync_gen, and a CPU has
 * passed once
 *  - an enter has seen the new generation (sync_acked): its lock orders
 *    it after the window in progress at the bump; or
 *  - the syncer takes the CPU's lock itself, with a trylock that cannot
 *    wait behind a preempted holder (a CPU nobody holds, or one its
 *    holder left).
 * The enter loads sync_gen with acquire, pairing with the bump: what the
 * syncer wrote before (an offline, a drain request, a new profile) is
 * visible in that window and every later one of the CPU.  It stores
 * sync_acked with release after the window's drain requests are served,
 * so a syncer that loads it with acquire finds them done.  Only these
 * two plain-move accesses are added to an enter; a CPU's first enter
 * after a bump also wakes the syncers.  A syncer sleeps on sync_cond and
 * retries its trylocks each millisecond, for CPUs whose holder left
 * without coming back.  The waits overlap: a grace period lasts as long
 * as its slowest CPU.
 *
 * mcg_engine_on_each_cpu() rides on the same acknowledgement, as the
 * kernel's on_each_cpu() has each CPU run the function itself: the caller
 * publishes the call (call_seq, with release), then waits for a grace
 * period.  Every enter that acknowledges it, and every trylock pass, runs
 * the call first if the CPU has not run it yet: an enter whose acquire of
 * sync_gen sees the bump sees the call.  An enter that finds an older
 * grace period may run a call published meanwhile early, which is as
 * good.  The check costs nothing on the common path: only an enter that
 * finds a new generation looks at call_seq.
 */

/* The CPU a thread has entered, to catch misuse in debug builds. */
static _Thread_local struct mcg_cpu *current_cpu;

/* The start of c's window, its lock taken: serve the drain requests, and
 * acknowledge a grace period begun since the last enter, after the call
 * of mcg_engine_on_each_cpu() published before it. */
static void cpu_window_open(struct mcg_cpu *c)
{
	struct mcg_engine *e = c->engine;
	uint64_t gen = atomic_load_explicit(&e->sync_gen, memory_order_acquire);

	current_cpu = c;
	charge_stock_enter(c);
	if (gen != atomic_load_explicit(&c->sync_acked, memory_order_relaxed)) {
		uint64_t call = atomic_load_explicit(&e->call_seq, memory_order_acquire);

		if (call != c->call_served) {
			e->call_fn(c, e->call_arg);
			c->call_served = call;
		}
		atomic_store_explicit(&c->sync_acked, gen, memory_order_release);
		pthread_mutex_lock(&e->sync_lock);
		pthread_cond_broadcast(&e->sync_cond);
		pthread_mutex_unlock(&e->sync_lock);
	}
}

void mcg_cpu_enter(struct mcg_cpu *c)
{
	g_assert(current_cpu == NULL);
	pthread_mutex_lock(&c->lock);
	cpu_window_open(c);
}

void mcg_cpu_exit(struct mcg_cpu *c)
{
	g_assert(current_cpu == c);
	current_cpu = NULL;
	pthread_mutex_unlock(&c->lock);
}

/* Has an enter of c acknowledged grace period gen?  An acquire of what
 * that enter released. */
static bool cpu_acked(struct mcg_cpu *c, uint64_t gen)
{
	return atomic_load_explicit(&c->sync_acked, memory_order_acquire) >= gen;
}

/* Has c passed grace period gen: acknowledged, or taken by the caller
 * now, in a window of its own? */
static bool cpu_passed(struct mcg_cpu *c, uint64_t gen)
{
	if (cpu_acked(c, gen))
		return true;
	if (pthread_mutex_trylock(&c->lock) != 0)
		return false;
	cpu_window_open(c);
	mcg_cpu_exit(c);
	return true;
}

void mcg_engine_sync_cpus(struct mcg_engine *e)
{
	unsigned nr = e->cfg.nr_cpus, left = nr;
	g_autofree bool *passed = g_new0(bool, nr);
	uint64_t gen;

	g_assert(current_cpu == NULL);	/* would wait for ourselves */
	gen = atomic_fetch_add(&e->sync_gen, 1) + 1;
	for (;;) {
		struct timespec deadline;
		bool acked = false;

		for (unsigned c = 0; c < nr; c++)
			if (!passed[c] && cpu_passed(&e->cpus[c], gen)) {
				passed[c] = true;
				left--;
			}
		if (!left)
			return;
		/* Sleep until an enter acknowledges (it broadcasts under
		 * sync_lock, so one after this check wakes us) or a
		 * millisecond passes. */
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		timespec_add_ns(&deadline, 1000000);
		pthread_mutex_lock(&e->sync_lock);
		for (unsigned c = 0; c < nr && !acked; c++)
			acked = !passed[c] && cpu_acked(&e->cpus[c], gen);
		if (!acked)
			pthread_cond_timedwait(&e->sync_cond, &e->sync_lock, &deadline);
		pthread_mutex_unlock(&e->sync_lock);
	}
}

void mcg_engine_on_each_cpu(struct mcg_engine *e, void (*fn)(struct mcg_cpu *cpu, void *arg),
			    void *arg)
{
	pthread_mutex_lock(&e->call_mutex);
	e->call_fn = fn;
	e->call_arg = arg;
	atomic_fetch_add_explicit(&e->call_seq, 1, memory_order_release);
	mcg_engine_sync_cpus(e);
	pthread_mutex_unlock(&e->call_mutex);
}

bool engine_thread_in_cpu(void)
{
	return current_cpu != NULL;
}

/* cpu.stat's and io.stat's flush (cgroup_rstat_flush(), and the blkcg
 * flush of io.stat), counted by part.  With one shared tree (before 6.16,
 * seed 002 before) the walk runs every participant's callback, memcg's
 * included: it goes through memcg_flush_tree() and is a side flush too,
 * whose time then also shows in the memcg flush time. */
void engine_flush_part(struct mcg_engine *e, struct mcg_cgroup *cg, enum mcg_part part)
{
	struct rstat_tree *t = e->tree_of[part];
	struct part_flush_counts *pf = &e->part_flushes[part];
	uint64_t start = mcg_now_ns();
	unsigned long visited;

	if (t == e->tree_of[MCG_PART_MEMORY]) {
		/* What memcg's own policy would have said, before the flush. */
		bool needs = trace_on(e) && mcg_memcg_needs_flush(e, cg);
		enum mcg_flush_trigger old = trace_trigger_swap(MCG_TRIGGER_SIDE);

		atomic_fetch_add_explicit(&e->nr_side_flushes, 1, memory_order_relaxed);
		/* cgroup_rstat_flush(): sleepable. */
		visited = memcg_flush_tree(e, cg, true);
		if (trace_on(e))
			trace_flush(e, cg, -1, true, needs, MCG_SKIP_NONE, visited,
				    mcg_now_ns() - start);
		trace_trigger_swap(old);
	} else {
		visited = rstat_flush(t, cg->node_of[part], true);
	}
	atomic_fetch_add_explicit(&pf->flushes, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&pf->visited, (uint64_t)visited * t->nr_callbacks,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&pf->ns, mcg_now_ns() - start, memory_order_relaxed);
}

void mcg_engine_flush_counters(const struct mcg_engine *e, struct mcg_flush_counters *out)
{
	out->flushes = atomic_load(&e->nr_flushes);
	out->forced = atomic_load(&e->nr_forced);
	out->periodic = atomic_load(&e->nr_periodic);
	out->skipped = atomic_load(&e->nr_skipped);
	out->side_flushes = atomic_load(&e->nr_side_flushes);
	out->reclaim = atomic_load(&e->nr_reclaim);
	out->refault = atomic_load(&e->nr_refault);
	out->shadow_count = atomic_load(&e->nr_shadow_count);
	out->dirty_throttle = atomic_load(&e->nr_dirty_throttle);
	out->visited = atomic_load(&e->nr_visited);
	out->ns = atomic_load(&e->flush_ns);
	out->base_flushes = atomic_load(&e->part_flushes[MCG_PART_BASE].flushes);
	out->base_visited = atomic_load(&e->part_flushes[MCG_PART_BASE].visited);
	out->base_ns = atomic_load(&e->part_flushes[MCG_PART_BASE].ns);
	out->io_flushes = atomic_load(&e->part_flushes[MCG_PART_IO].flushes);
	out->io_visited = atomic_load(&e->part_flushes[MCG_PART_IO].visited);
	out->io_ns = atomic_load(&e->part_flushes[MCG_PART_IO].ns);
	out->callback_ns = atomic_load(&e->callback_ns);
	out->aggregate_ns = atomic_load(&e->aggregate_ns);
	out->changed_items = atomic_load(&e->changed_items);
	out->callbacks_untimed = atomic_load(&e->callbacks_untimed);
	out->percpu_loads = atomic_load(&e->percpu_sums) * e->cfg.nr_cpus;
	for (unsigned k = 0; k < MCG_CHANGED_HIST; k++)
		out->changed_hist[k] = atomic_load(&e->changed_hist[k]);
	for (unsigned k = 0; k < MCG_NR_TRIGGERS; k++)
		out->trigger_ns[k] = atomic_load(&e->trigger_flush_ns[k]);
	out->links = out->link_waits = 0;
	for (unsigned p = 0; p < MCG_NR_PARTS; p++) {
		uint64_t links, waits;
		bool seen = false;

		for (unsigned q = 0; q < p; q++)
			seen |= e->tree_of[q] == e->tree_of[p];
		if (seen)
			continue;	/* a shared tree, counted once */
		rstat_tree_links(e->tree_of[p], &links, &waits);
		out->links += links;
		out->link_waits += waits;
		if (p == MCG_PART_MEMORY)
			out->memory_links = links;
	}
}
