/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lock statistics: what /proc/lock_stat gives (CONFIG_LOCK_STAT,
 * kernel/locking/lockdep.c), for the locks a flushing patch can move.
 *
 * Per lock class (every instance of a lock counts in its class, as lockdep
 * groups them): acquisitions, contentions (an acquisition that found the
 * lock held and waited), the time waited and the time held, total and
 * largest.  The classes are the rstat tree locks (cgroup_rstat_lock, or a
 * subsystem's rstat_ss_lock and rstat_base_lock once trees are split),
 * the per-CPU locks of their updated trees (cgroup_rstat_cpu_lock, taken
 * by a locked updater that links a node and by the flusher of that CPU),
 * 6.1's stats_flush_lock (only ever try-locked: a failed try is its
 * contention, with no wait) and the per-CPU stock-drain request lock.
 *
 * Counting costs two clock reads per acquisition, so it runs only while
 * asked for (the root's memcgfs.lock_stat): otherwise a lock costs one
 * relaxed load of the engine's switch more than pthread_mutex_lock().
 * The one lock on the stat update path, cgroup_rstat_cpu_lock, is taken
 * there only on its slow path, an update that links its node.
 */
#ifndef MEMCGFS_ENGINE_LOCKSTAT_H
#define MEMCGFS_ENGINE_LOCKSTAT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* One class's counts: relaxed atomics, any thread adds. */
struct lock_stat {
	_Atomic uint64_t acquisitions, contentions;
	_Atomic uint64_t wait_ns, wait_max_ns, hold_ns, hold_max_ns;
};

static inline uint64_t lock_stat_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void lock_stat_max(_Atomic uint64_t *max, uint64_t v)
{
	uint64_t old = atomic_load_explicit(max, memory_order_relaxed);

	while (v > old &&
	       !atomic_compare_exchange_weak_explicit(max, &old, v, memory_order_relaxed,
						      memory_order_relaxed))
		;
}

/* An acquisition of a lock taken by a try that succeeded, counted in s
 * while *on: returns when (0 when not counting), for lock_stat_unlock(). */
static inline uint64_t lock_stat_acquired(struct lock_stat *s, const _Atomic bool *on)
{
	if (!atomic_load_explicit(on, memory_order_relaxed))
		return 0;
	atomic_fetch_add_explicit(&s->acquisitions, 1, memory_order_relaxed);
	return lock_stat_now_ns();
}

/* After a try that failed: waits for m, counted in s while *on as a
 * contention with its wait.  Returns when it was acquired (0 when not
 * counting). */
static inline uint64_t lock_stat_lock_contended(pthread_mutex_t *m, struct lock_stat *s,
						const _Atomic bool *on)
{
	uint64_t t0, t1;

	if (!atomic_load_explicit(on, memory_order_relaxed)) {
		pthread_mutex_lock(m);
		return 0;
	}
	t0 = lock_stat_now_ns();
	pthread_mutex_lock(m);
	t1 = lock_stat_now_ns();
	atomic_fetch_add_explicit(&s->contentions, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->wait_ns, t1 - t0, memory_order_relaxed);
	lock_stat_max(&s->wait_max_ns, t1 - t0);
	atomic_fetch_add_explicit(&s->acquisitions, 1, memory_order_relaxed);
	return t1;
}

/* pthread_mutex_lock(m), counted in s while *on; returns when it was
 * acquired (0 when not counting), for lock_stat_unlock().  Not counting,
 * it is pthread_mutex_lock() and one relaxed load. */
static inline uint64_t lock_stat_lock(pthread_mutex_t *m, struct lock_stat *s,
				      const _Atomic bool *on)
{
	if (!atomic_load_explicit(on, memory_order_relaxed)) {
		pthread_mutex_lock(m);
		return 0;
	}
	if (pthread_mutex_trylock(m) == 0)
		return lock_stat_acquired(s, on);
	return lock_stat_lock_contended(m, s, on);
}

/* A pthread_mutex_trylock(m) counted in s while *on: a failure is a
 * contention that did not wait.  Returns the acquisition time (1 when not
 * counting), or 0 if the lock was held. */
static inline uint64_t lock_stat_trylock(pthread_mutex_t *m, struct lock_stat *s,
					 const _Atomic bool *on)
{
	bool counting = atomic_load_explicit(on, memory_order_relaxed);

	if (pthread_mutex_trylock(m) != 0) {
		if (counting)
			atomic_fetch_add_explicit(&s->contentions, 1, memory_order_relaxed);
		return 0;
	}
	if (!counting)
		return 1;
	atomic_fetch_add_explicit(&s->acquisitions, 1, memory_order_relaxed);
	return lock_stat_now_ns();
}

/* pthread_mutex_unlock(m), adding the time held since `since` (from
 * lock_stat_lock() or _trylock(); 0 or 1: not counted). */
static inline void lock_stat_unlock(pthread_mutex_t *m, struct lock_stat *s, uint64_t since)
{
	if (since > 1) {
		uint64_t held = lock_stat_now_ns() - since;

		atomic_fetch_add_explicit(&s->hold_ns, held, memory_order_relaxed);
		lock_stat_max(&s->hold_max_ns, held);
	}
	pthread_mutex_unlock(m);
}

static inline void lock_stat_clear(struct lock_stat *s)
{
	atomic_store_explicit(&s->acquisitions, 0, memory_order_relaxed);
	atomic_store_explicit(&s->contentions, 0, memory_order_relaxed);
	atomic_store_explicit(&s->wait_ns, 0, memory_order_relaxed);
	atomic_store_explicit(&s->wait_max_ns, 0, memory_order_relaxed);
	atomic_store_explicit(&s->hold_ns, 0, memory_order_relaxed);
	atomic_store_explicit(&s->hold_max_ns, 0, memory_order_relaxed);
}

#endif
