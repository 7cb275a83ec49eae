/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The list of eras and the resolution of "--kernel" and "--seed" into one kernel. */
#include <string.h>

#include "kernel/eras.h"

static const struct mcg_kernel *const eras[] = {
	&mcg_era_5_10,
	&mcg_era_6_1,
	&mcg_era_6_12,
	&mcg_era_7_3,
};

#define NR_ERAS (sizeof(eras) / sizeof(eras[0]))

const struct mcg_kernel *const *mcg_kernel_list(unsigned *nr)
{
	*nr = NR_ERAS;
	return eras;
}

const struct mcg_kernel *mcg_kernel_get(const char *version)
{
	if (!version)
		return NULL;
	for (unsigned i = 0; i < NR_ERAS; i++)
		if (strcmp(eras[i]->version, version) == 0)
			return eras[i];
	return NULL;
}

const struct mcg_kernel *mcg_kernel_default(void)
{
	return &mcg_era_7_3;
}

int mcg_kernel_resolve(const char *version, const char *seed, struct mcg_kernel *out,
		       const char **why)
{
	const struct mcg_kernel *era = NULL;
	const struct mcg_seed *s = NULL;
	bool after = false;

	if (version) {
		era = mcg_kernel_get(version);
		if (!era) {
			*why = "unknown kernel version (known: 5.10, 6.1, 6.12, 7.3)";
			return -1;
		}
	}
	if (seed) {
		const char *colon = strchr(seed, ':');
		char id[8];

		if (!colon || (size_t)(colon - seed) >= sizeof(id)) {
			*why = "a seed is given as NNN:before or NNN:after";
			return -1;
		}
		memcpy(id, seed, (size_t)(colon - seed));
		id[colon - seed] = '\0';
		s = mcg_seed_get(id);
		if (!s) {
			*why = "unknown seed (known: 000, 001, 002, 003, 004)";
			return -1;
		}
		if (strcmp(colon + 1, "after") == 0)
			after = true;
		else if (strcmp(colon + 1, "before") != 0) {
			*why = "a seed is given as NNN:before or NNN:after";
			return -1;
		}
		if (era && s->base && strcmp(s->base, era->version) != 0) {
			*why = "this seed's patch was written for another kernel: "
			       "000 runs on 6.1, 001 on 7.3, 002 on 6.12, 003 on 5.10";
			return -1;
		}
		if (!era)
			era = mcg_kernel_get(s->base ? s->base : "5.10");
	}
	if (!era)
		era = mcg_kernel_default();
	*out = *era;
	if (s) {
		(after ? s->after : s->before)(out);
		out->seed = s;
		out->seed_after = after;
	}
	return 0;
}

int mcg_kernel_check_hierarchy(const struct mcg_kernel *k, bool v1, const char **why)
{
	if (v1 && !k->memcg_v1) {
		*why = "this kernel is built without CONFIG_MEMCG_V1 (Debian's 6.12, "
		       "seed 001): there is no v1 memory controller, use --hierarchy=v2";
		return -1;
	}
	return 0;
}
