/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The emulator files that put a hierarchy in an exact state (the kernel has
 * none of them): the root's memcgfs.clock, which moves a manual clock, and
 * each cgroup's memcgfs.charge, which charges and frees pages and raises
 * memory events directly.
 *
 * With --clock=manual and --random_seed=N, nothing moves the counters but
 * these writes and the control files, so a script that makes the same
 * writes reads the same memory.stat, numa_stat and memory.events on every
 * run (see memcgfs(8), REPEATABLE STATES).  Bad input is EINVAL and changes
 * nothing: a request is parsed whole before anything is done.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fs/internal.h"

/* ---- memcgfs.clock ----------------------------------------------------------- */

static const struct {
	const char *suffix;
	uint64_t ns;
} clock_units[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "ms", 1000000 },
	{ "s", 1000000000 },
};

/* The emulated time in nanoseconds (the real time since the mount with
 * --clock=real). */
int fs_show_clock(struct fs_call *c, GString *out)
{
	g_string_append_printf(out, "%" G_GUINT64_FORMAT "\n", mcg_engine_clock_ns(c->fs->e));
	return 0;
}

static bool clock_interrupted(void *unused)
{
	(void)unused;
	return fs_write_interrupted();
}

/* "<N><unit>", unit ns, us, ms or s: advances the manual clock by that much,
 * doing the workers' steps and the periodic flushes due on the way; a
 * signal to the writer (FUSE_INTERRUPT) ends it with EINTR where it got. */
int fs_write_clock(struct fs_call *c, char *buf)
{
	char *s = fs_strstrip(buf), *end;
	guint64 n;

	if (!g_ascii_isdigit(*s))
		return -EINVAL;
	errno = 0;
	n = g_ascii_strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	for (unsigned i = 0; i < G_N_ELEMENTS(clock_units); i++) {
		if (strcmp(end, clock_units[i].suffix) != 0)
			continue;
		if (n > UINT64_MAX / clock_units[i].ns)
			return -EINVAL;
		return mcg_workload_clock_advance(c->fs->wl, n * clock_units[i].ns,
						  clock_interrupted, NULL);
	}
	return -EINVAL;
}

/* ---- memcgfs.charge ---------------------------------------------------------- */

/* Memory events by the name memory.events (and, swap_ prefixed,
 * memory.swap.events) prints. */
static const struct {
	const char *name;
	enum mcg_memory_event event;
} charge_events[] = {
	{ "low", MCG_MEMORY_LOW },
	{ "high", MCG_MEMORY_HIGH },
	{ "max", MCG_MEMORY_MAX },
	{ "oom", MCG_MEMORY_OOM },
	{ "oom_kill", MCG_MEMORY_OOM_KILL },
	{ "oom_group_kill", MCG_MEMORY_OOM_GROUP_KILL },
	{ "swap_high", MCG_MEMORY_SWAP_HIGH },
	{ "swap_max", MCG_MEMORY_SWAP_MAX },
	{ "swap_fail", MCG_MEMORY_SWAP_FAIL },
};

/* Events one write may raise: each is a few atomic adds up the tree. */
#define FS_CHARGE_MAX_EVENTS 1000000

/* A byte count with an optional K, M, G or T suffix (binary), no overflow. */
static bool parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	guint64 v;
	unsigned shift = 0;

	if (!g_ascii_isdigit(*s))
		return false;
	errno = 0;
	v = g_ascii_strtoull(s, &end, 10);
	if (errno)
		return false;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	default: break;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = v << shift;
	return true;
}

static bool parse_uint_key(const char *tok, const char *key, unsigned *out)
{
	size_t len = strlen(key);
	guint64 v;

	if (strncmp(tok, key, len) != 0 || tok[len] != '=')
		return false;
	if (!g_ascii_string_to_unsigned(tok + len + 1, 10, 0, UINT_MAX, &v, NULL))
		return false;
	*out = (unsigned)v;
	return true;
}

/*
 * One request a write:
 *
 *   KIND [-]SIZE [node=N] [cpu=N]   pages of a kind (memory.stat's name:
 *                                   anon, file, file_dirty, shmem,
 *                                   slab_reclaimable, slab_unreclaimable,
 *                                   kernel_stack, pagetables), charged, or
 *                                   freed with a minus sign; SIZE in bytes
 *                                   (K, M, G, T), a whole number of pages;
 *                                   node and CPU default to 0
 *   EVENT COUNT                     a memory event raised COUNT times
 *                                   (1..1000000): low, high, max, oom,
 *                                   oom_kill, oom_group_kill, swap_high,
 *                                   swap_max, swap_fail
 *
 * Charges go through the workload's charge path (mcg_workload_charge()):
 * at a limit, what the kernel's try_charge_memcg() does, reclaim and OOM
 * kills included; a charge that still fails is ENOMEM, with the pages
 * before it charged.  An event is memcg_memory_event(): the cgroup's local
 * count and the hierarchical count of it and every ancestor.
 */
int fs_write_charge(struct fs_call *c, char *buf)
{
	char *save = NULL, *name, *amount, *tok;
	unsigned cpu = 0, node = 0;
	bool minus;
	uint64_t bytes;
	int kind = -1;

	name = strtok_r(fs_strstrip(buf), " \t", &save);
	amount = name ? strtok_r(NULL, " \t", &save) : NULL;
	if (!amount)
		return -EINVAL;

	for (unsigned i = 0; i < G_N_ELEMENTS(charge_events); i++) {
		guint64 count;

		if (strcmp(name, charge_events[i].name) != 0)
			continue;
		if (strtok_r(NULL, " \t", &save) ||
		    !g_ascii_string_to_unsigned(amount, 10, 1, FS_CHARGE_MAX_EVENTS, &count, NULL))
			return -EINVAL;
		while (count--)
			mcg_memory_event(c->cg, charge_events[i].event);
		return 0;
	}

	for (int k = 0; k < MCG_NR_PAGE_KINDS; k++)
		if (strcmp(name, mcg_page_kind_name(k)) == 0)
			kind = k;
	if (kind < 0)
		return -EINVAL;
	minus = *amount == '-';
	if (!parse_bytes(amount + minus, &bytes) || bytes == 0 || bytes % MCG_PAGE_SIZE ||
	    bytes / MCG_PAGE_SIZE > LONG_MAX)
		return -EINVAL;
	while ((tok = strtok_r(NULL, " \t", &save)))
		if (!parse_uint_key(tok, "node", &node) && !parse_uint_key(tok, "cpu", &cpu))
			return -EINVAL;
	if (node > INT_MAX)
		return -EINVAL;
	return mcg_workload_charge(c->fs->wl, c->cg, kind, cpu, (int)node,
				   minus ? -(long)(bytes / MCG_PAGE_SIZE)
					 : (long)(bytes / MCG_PAGE_SIZE));
}
