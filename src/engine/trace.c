/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flush trace: one record per memcg flush request, flushed or skipped.
 *
 * The kernel's tracepoint for this is memcg_flush_stats (7.3
 * include/trace/events/memcg.h, fired in __mem_cgroup_flush_stats()):
 * "memcg_id=%llu stats_updates=%lld force=%d needs_flush=%d".  A developer
 * measuring a flushing patch wants that and more: what asked for the flush
 * (a read of which file, the periodic worker, reclaim, a refault ...),
 * whether it flushed and, if not, why (under the threshold, the trylock of
 * a running flush, the ratelimit of a late periodic flush), and what the
 * flush cost: the (memcg, CPU) pairs it folded and its time.  So a record
 * prints the time since the mount (the engine's clock, manual or not), the
 * tracepoint's fields under its name, so that scripts written for the
 * kernel's trace read it, then the emulator's:
 *
 *   <sec>.<usec>: memcg_flush_stats: memcg_id=1 stats_updates=4 force=0
 *   needs_flush=1 trigger=read file=memory.stat flushed=1 reason=-
 *   pairs=12 usec=3.250
 *
 * (one line).  stats_updates is the count the policy compares with its
 * threshold: the memcg's pending updates (6.8+), or 6.1's global
 * stats_flush_threshold in batches, which has no tracepoint of its own; the
 * memcg of a global flush is the root it flushes.  6.1 and 6.12 also lack
 * the tracepoint; the records are the emulator's view of the same events.
 *
 * A flush's record is written once it is done, after the lock events it
 * caused; the kernel fires memcg_flush_stats before it flushes.
 *
 * Beside them, where the kernel has them (6.12, 7.3: kernel/cgroup/rstat.c's
 * lock helpers), the cgroup rstat lock tracepoints, fired by the rstat
 * trees at the kernel's places (trace_rstat(), rstat.h) and printed as
 * their TP_printk(): "cgroup_rstat_locked: root=0 id=2 level=1 cpu=-1
 * lock contended:0".
 *
 * Who asked is a property of the calling thread: a reader sets the file it
 * renders (mcg_trace_reader()), a kernel path its trigger (flush_trigger
 * below) around the flush it makes.  Records go into a ring of
 * MCG_TRACE_RECORDS under trace_lock, only while tracing is on (one relaxed
 * load otherwise): the oldest are dropped and counted.
 */
#include "engine/internal.h"

#include <stdio.h>

static _Thread_local const char *reader_file;
static _Thread_local enum mcg_flush_trigger thread_trigger = MCG_TRIGGER_KERNEL;

void mcg_trace_reader(const char *file)
{
	reader_file = file;
}

enum mcg_flush_trigger trace_trigger_swap(enum mcg_flush_trigger t)
{
	enum mcg_flush_trigger old = thread_trigger;

	thread_trigger = t;
	return old;
}

enum mcg_flush_trigger trace_current_trigger(void)
{
	return reader_file && thread_trigger == MCG_TRIGGER_KERNEL ? MCG_TRIGGER_READ
								   : thread_trigger;
}

static const char *const trigger_names[] = {
	[MCG_TRIGGER_KERNEL] = "kernel",	[MCG_TRIGGER_READ] = "read",
	[MCG_TRIGGER_PERIODIC] = "periodic",	[MCG_TRIGGER_RECLAIM] = "reclaim",
	[MCG_TRIGGER_REFAULT] = "refault",	[MCG_TRIGGER_SHADOW_COUNT] = "shadow_count",
	[MCG_TRIGGER_DIRTY_THROTTLE] = "dirty_throttle", [MCG_TRIGGER_SIDE] = "side",
};

static const char *const rstat_event_names[] = {
	[RSTAT_TRACE_LOCK_CONTENDED] = "cgroup_rstat_lock_contended",
	[RSTAT_TRACE_LOCKED] = "cgroup_rstat_locked",
	[RSTAT_TRACE_UNLOCK] = "cgroup_rstat_unlock",
	[RSTAT_TRACE_CPU_LOCK_CONTENDED] = "cgroup_rstat_cpu_lock_contended",
	[RSTAT_TRACE_CPU_LOCKED] = "cgroup_rstat_cpu_locked",
	[RSTAT_TRACE_CPU_UNLOCK] = "cgroup_rstat_cpu_unlock",
	[RSTAT_TRACE_CPU_LOCK_CONTENDED_FASTPATH] = "cgroup_rstat_cpu_lock_contended_fastpath",
	[RSTAT_TRACE_CPU_LOCKED_FASTPATH] = "cgroup_rstat_cpu_locked_fastpath",
	[RSTAT_TRACE_CPU_UNLOCK_FASTPATH] = "cgroup_rstat_cpu_unlock_fastpath",
};

static const char *const reason_names[] = {
	[MCG_SKIP_NONE] = "-",
	[MCG_SKIP_THRESHOLD] = "below_threshold",
	[MCG_SKIP_TRYLOCK] = "trylock",
	[MCG_SKIP_RATELIMIT] = "ratelimited",
};

void mcg_trace_set(struct mcg_engine *e, enum mcg_trace_level level)
{
	pthread_mutex_lock(&e->trace_lock);
	if (level != MCG_TRACE_OFF) {
		if (!e->trace)
			e->trace = g_new0(struct trace_record, MCG_TRACE_RECORDS);
		e->trace_next = 0;
		e->trace_dropped = 0;
	}
	atomic_store_explicit(&e->trace_updaters, level == MCG_TRACE_UPDATERS,
			      memory_order_relaxed);
	atomic_store_explicit(&e->trace_on, level != MCG_TRACE_OFF, memory_order_relaxed);
	pthread_mutex_unlock(&e->trace_lock);
}

bool mcg_trace_enabled(const struct mcg_engine *e)
{
	return atomic_load_explicit(&e->trace_on, memory_order_relaxed);
}

/* The next record, cleared and stamped, with trace_lock held; NULL (and
 * the lock let go) if tracing went off meanwhile. */
static struct trace_record *record_start(struct mcg_engine *e)
{
	struct trace_record *t;

	pthread_mutex_lock(&e->trace_lock);
	if (!atomic_load_explicit(&e->trace_on, memory_order_relaxed)) {
		pthread_mutex_unlock(&e->trace_lock);
		return NULL;
	}
	if (e->trace_next >= MCG_TRACE_RECORDS)
		e->trace_dropped++;
	t = &e->trace[e->trace_next++ % MCG_TRACE_RECORDS];
	*t = (struct trace_record){ .ts_ns = (int64_t)mcg_engine_clock_ns(e) };
	return t;
}

void trace_rstat(void *arg, enum rstat_trace_event ev, const struct rstat_node *who, int cpu,
		 bool contended)
{
	struct mcg_engine *e = arg;
	const struct mcg_cgroup *cg = who->owner;
	struct trace_record *t = record_start(e);

	if (!t)
		return;
	t->memcg_id = mcg_cgroup_id(cg);
	t->rstat_event = (uint8_t)(1 + ev);
	t->cpu = (int16_t)cpu;
	t->level = (uint16_t)mcg_cgroup_depth(cg);
	t->contended = contended;
	pthread_mutex_unlock(&e->trace_lock);
}

void trace_flush(struct mcg_engine *e, const struct mcg_cgroup *cg, long stats_updates,
		 bool force, bool needs_flush, enum mcg_skip_reason reason, unsigned long pairs,
		 uint64_t ns)
{
	struct trace_record *t = record_start(e);

	if (!t)
		return;
	t->memcg_id = mcg_cgroup_id(cg);
	t->stats_updates = stats_updates;
	t->force = force;
	t->needs_flush = needs_flush;
	t->reason = reason;
	t->trigger = trace_current_trigger();
	t->file = t->trigger == MCG_TRIGGER_READ ? reader_file : NULL;
	t->pairs = pairs;
	t->ns = ns;
	pthread_mutex_unlock(&e->trace_lock);
}

void mcg_trace_format(struct mcg_engine *e, GString *out)
{
	uint64_t first, n;

	pthread_mutex_lock(&e->trace_lock);
	n = e->trace_next < MCG_TRACE_RECORDS ? e->trace_next : MCG_TRACE_RECORDS;
	first = e->trace_next - n;
	g_string_append_printf(out, "# tracing %s; %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT
				    " dropped\n",
			       atomic_load_explicit(&e->trace_on, memory_order_relaxed) ? "on" : "off",
			       n, e->trace_dropped);
	for (uint64_t i = first; i < e->trace_next; i++) {
		const struct trace_record *t = &e->trace[i % MCG_TRACE_RECORDS];

		if (t->rstat_event) {
			/* TP_printk() of the cgroup_rstat event class; the
			 * hierarchy is cgroup2's (0) or the first v1 one (1) */
			g_string_append_printf(
				out,
				"%" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT ": %s: root=%d id=%" G_GUINT64_FORMAT
				" level=%u cpu=%d lock contended:%d\n",
				t->ts_ns / 1000000000, t->ts_ns % 1000000000 / 1000,
				rstat_event_names[t->rstat_event - 1],
				e->cfg.hierarchy == MCG_HIERARCHY_V1, t->memcg_id, t->level, t->cpu,
				t->contended);
			continue;
		}
		g_string_append_printf(
			out,
			"%" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT ": memcg_flush_stats: memcg_id=%" G_GUINT64_FORMAT
			" stats_updates=%ld force=%d needs_flush=%d trigger=%s file=%s flushed=%d "
			"reason=%s pairs=%lu usec=%.3f\n",
			t->ts_ns / 1000000000, t->ts_ns % 1000000000 / 1000, t->memcg_id,
			t->stats_updates, t->force, t->needs_flush, trigger_names[t->trigger],
			t->file ? t->file : "-", t->reason == MCG_SKIP_NONE, reason_names[t->reason],
			t->pairs, (double)t->ns / 1e3);
	}
	pthread_mutex_unlock(&e->trace_lock);
}
