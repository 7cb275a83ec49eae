/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload profiles: parsing, canonical text, presets. */
#include "workload/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct preset {
	const char *name;
	const char *text;
};

/* Rates are per cgroup, pages per second, spread over all emulated CPUs. */
static const struct preset presets[] = {
	{ "idle", "" },
	/* Tasks that hold what they have and make no page events. */
	{ "sleep", "tasks=on" },
	/* Seed 001's benchmark: "dirties anon, file, dirty/writeback, slab,
	 * kmem, mlock, and reclaim counters". */
	{ "seed001", "anon=4000 mlock=5 file_read=2000 file_write=2000 mapped=20 slab=400 "
		     "kernel=100 footprint=64M turnover=50 reclaim=500 swap=on" },
	/* Seed 004's multi-fault-all: threads fault anonymous pages and unmap
	 * them again, as fast as they can. */
	{ "multi-fault", "anon=200000 footprint=16M turnover=2000" },
	/* A reader streaming through files larger than its cache share. */
	{ "file-reader", "file_read=50000 mapped=10 footprint=512M turnover=20" },
};

static const char *const preset_names[] = { "idle", "sleep", "seed001", "multi-fault",
					    "file-reader", NULL };

const char *const *mcg_profile_presets(void)
{
	return preset_names;
}

enum key_kind { K_RATE, K_PERCENT, K_SIZE, K_BOOL, K_NODES, K_CPUS };

struct key {
	const char *name;
	enum key_kind kind;
	size_t offset;
};

#define FIELD(f) offsetof(struct mcg_profile, f)
static const struct key keys[] = {
	{ "anon", K_RATE, FIELD(anon) },
	{ "thp", K_PERCENT, FIELD(thp) },
	{ "mlock", K_PERCENT, FIELD(mlock) },
	{ "file_read", K_RATE, FIELD(file_read) },
	{ "file_write", K_RATE, FIELD(file_write) },
	{ "mapped", K_PERCENT, FIELD(mapped) },
	{ "shmem", K_RATE, FIELD(shmem) },
	{ "slab", K_RATE, FIELD(slab) },
	{ "kernel", K_RATE, FIELD(kernel) },
	{ "footprint", K_SIZE, FIELD(footprint) },
	{ "fault_work", K_RATE, FIELD(fault_work) },
	{ "turnover", K_PERCENT, FIELD(turnover) },
	{ "swapin", K_PERCENT, FIELD(swapin) },
	{ "reclaim", K_RATE, FIELD(reclaim) },
	{ "swap", K_BOOL, FIELD(swap) },
	{ "tasks", K_BOOL, FIELD(tasks) },
	{ "nodes", K_NODES, FIELD(nodes) },
	{ "cpus", K_CPUS, FIELD(cpus) },
};

/* Rates beyond this are not a profile but a typo. */
#define MAX_RATE 100000000UL

static bool parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!g_ascii_isdigit(*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

/* memparse(): a number with an optional K/M/G/T suffix. */
static bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!g_ascii_isdigit(*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	switch (g_ascii_toupper(*end)) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	case 'T': shift = 40; end++; break;
	case '\0': break;
	default: return false;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

/* "all" or a list like "0,2-3" of nodes below nr_nodes. */
static bool parse_nodes(const char *s, unsigned nr_nodes, struct mcg_profile *p)
{
	g_auto(GStrv) parts = NULL;
	uint64_t mask = 0;

	if (strcmp(s, "all") == 0) {
		p->all_nodes = true;
		p->nodes = 0;
		return true;
	}
	parts = g_strsplit(s, ",", -1);
	for (unsigned i = 0; parts[i]; i++) {
		char *dash = strchr(parts[i], '-');
		unsigned long lo, hi;

		if (dash)
			*dash = '\0';
		if (!parse_ulong(parts[i], nr_nodes - 1, &lo))
			return false;
		hi = lo;
		if (dash && (!parse_ulong(dash + 1, nr_nodes - 1, &hi) || hi < lo))
			return false;
		for (unsigned long n = lo; n <= hi; n++)
			mask |= 1ULL << n;
	}
	if (!mask)
		return false;
	p->all_nodes = false;
	p->nodes = mask;
	return true;
}

static bool parse_token(const char *tok, unsigned nr_nodes, struct mcg_profile *p)
{
	const char *eq = strchr(tok, '=');
	g_autofree char *name = NULL;
	const char *val;

	if (!eq || eq == tok)
		return false;
	name = g_strndup(tok, eq - tok);
	val = eq + 1;
	for (unsigned i = 0; i < G_N_ELEMENTS(keys); i++) {
		void *field = (char *)p + keys[i].offset;
		unsigned long v;

		if (strcmp(keys[i].name, name))
			continue;
		switch (keys[i].kind) {
		case K_RATE:
			if (!parse_ulong(val, MAX_RATE, &v))
				return false;
			*(unsigned long *)field = v;
			return true;
		case K_PERCENT:
			/* turnover may exceed 100: the footprint turns over
			 * more than once a second. */
			if (!parse_ulong(val, strcmp(name, "turnover") ? 100 : 100000, &v))
				return false;
			*(unsigned *)field = (unsigned)v;
			return true;
		case K_SIZE:
			return parse_size(val, (uint64_t *)field);
		case K_BOOL:
			if (!strcmp(val, "on") || !strcmp(val, "1"))
				*(bool *)field = true;
			else if (!strcmp(val, "off") || !strcmp(val, "0"))
				*(bool *)field = false;
			else
				return false;
			return true;
		case K_NODES:
			return parse_nodes(val, nr_nodes, p);
		case K_CPUS:
			/* the most --cpus takes */
			if (!parse_ulong(val, 1024, &v))
				return false;
			*(unsigned *)field = (unsigned)v;
			return true;
		}
	}
	return false;
}

static bool parse_into(const char *text, unsigned nr_nodes, struct mcg_profile *p, bool top)
{
	g_auto(GStrv) tokens = g_strsplit_set(text, " \t\n", -1);
	bool first = true;

	for (unsigned i = 0; tokens[i]; i++) {
		if (!tokens[i][0])
			continue;
		if (g_str_has_prefix(tokens[i], "preset=")) {
			const char *name = tokens[i] + 7;
			const struct preset *found = NULL;

			/* A preset sets the starting point: only first, only once. */
			if (!first || !top)
				return false;
			for (unsigned k = 0; k < G_N_ELEMENTS(presets); k++)
				if (!strcmp(presets[k].name, name))
					found = &presets[k];
			if (!found || !parse_into(found->text, nr_nodes, p, false))
				return false;
		} else if (!parse_token(tokens[i], nr_nodes, p)) {
			return false;
		}
		first = false;
	}
	return true;
}

int mcg_profile_parse(const char *text, unsigned nr_nodes, struct mcg_profile **out)
{
	struct mcg_profile *p = g_new0(struct mcg_profile, 1);

	p->all_nodes = true;
	p->swap = false;
	p->swapin = 25;
	if (nr_nodes < 1 || nr_nodes > 64 || !g_utf8_validate(text, -1, NULL) ||
	    !parse_into(text, nr_nodes, p, true)) {
		g_free(p);
		return -EINVAL;
	}
	*out = p;
	return 0;
}

void mcg_profile_free(struct mcg_profile *p)
{
	g_free(p);
}

bool mcg_profile_is_idle(const struct mcg_profile *p)
{
	return !p->tasks && !p->anon && !p->file_read && !p->file_write && !p->shmem && !p->slab &&
	       !p->kernel && !p->reclaim;
}

static void format_nodes(GString *s, const struct mcg_profile *p)
{
	bool first = true;

	if (p->all_nodes) {
		g_string_append(s, "all");
		return;
	}
	for (unsigned n = 0; n < 64; n++) {
		unsigned end = n;

		if (!(p->nodes & (1ULL << n)))
			continue;
		while (end + 1 < 64 && (p->nodes & (1ULL << (end + 1))))
			end++;
		g_string_append_printf(s, first ? "%u" : ",%u", n);
		if (end > n)
			g_string_append_printf(s, "-%u", end);
		first = false;
		n = end;
	}
}

char *mcg_profile_format(const struct mcg_profile *p)
{
	GString *s = g_string_new(NULL);

	for (unsigned i = 0; i < G_N_ELEMENTS(keys); i++) {
		const void *field = (const char *)p + keys[i].offset;

		g_string_append_printf(s, "%s=", keys[i].name);
		switch (keys[i].kind) {
		case K_RATE:
			g_string_append_printf(s, "%lu", *(const unsigned long *)field);
			break;
		case K_PERCENT:
			g_string_append_printf(s, "%u", *(const unsigned *)field);
			break;
		case K_SIZE:
			g_string_append_printf(s, "%" G_GUINT64_FORMAT, *(const uint64_t *)field);
			break;
		case K_BOOL:
			g_string_append(s, *(const bool *)field ? "on" : "off");
			break;
		case K_NODES:
			format_nodes(s, p);
			break;
		case K_CPUS:
			g_string_append_printf(s, "%u", *(const unsigned *)field);
			break;
		}
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}
