/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of patches, the resolution of --patch into one kernel, and
 * memcgfs-bench experiment's choice of what to run.
 *
 * The registry is generated: src/patches/local.mk lists each patch's file
 * once, and the build turns that list into src/patches/list.h, one
 * MCG_PATCH(symbol) line per file, which this file expands twice. */
#include "patches/patches.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#define MCG_PATCH(sym) extern const struct mcg_patch mcg_patch_##sym;
#include "patches/list.h"
#undef MCG_PATCH

static const struct mcg_patch *const patches[] = {
#define MCG_PATCH(sym) &mcg_patch_##sym,
#include "patches/list.h"
#undef MCG_PATCH
};

const struct mcg_patch *const *mcg_patch_list(unsigned *nr)
{
	*nr = G_N_ELEMENTS(patches);
	return patches;
}

const struct mcg_patch *mcg_patch_get(const char *name)
{
	char seed[16];

	/* --seed's "NNN" is seedNNN. */
	if (strlen(name) == 3 && g_ascii_isdigit(name[0]) && g_ascii_isdigit(name[1]) &&
	    g_ascii_isdigit(name[2])) {
		g_snprintf(seed, sizeof(seed), "seed%s", name);
		name = seed;
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(patches); i++)
		if (strcmp(patches[i]->name, name) == 0)
			return patches[i];
	return NULL;
}

int mcg_patch_resolve(const char *version, const char *spec, struct mcg_kernel *out,
		      const char **why)
{
	const struct mcg_patch *p = NULL;
	bool after = true;

	if (spec) {
		const char *colon = strchr(spec, ':');
		char name[64];
		size_t len = colon ? (size_t)(colon - spec) : strlen(spec);

		if (len == 0 || len >= sizeof(name)) {
			*why = "a patch is given as NAME, NAME:before or NAME:after";
			return -1;
		}
		memcpy(name, spec, len);
		name[len] = '\0';
		if (colon && strcmp(colon + 1, "before") == 0)
			after = false;
		else if (colon && strcmp(colon + 1, "after") != 0) {
			*why = "a patch is given as NAME, NAME:before or NAME:after";
			return -1;
		}
		p = mcg_patch_get(name);
		if (!p) {
			*why = "unknown patch (memcgfs --help lists them, as does "
			       "memcgfs-bench experiment --list)";
			return -1;
		}
		if (version && p->base && strcmp(p->base, version) != 0) {
			*why = "this patch was written for another kernel: --kernel must be "
			       "its base, or be left out (memcgfs --help gives each patch's "
			       "base)";
			return -1;
		}
		if (!version)
			version = p->base ? p->base : p->any_base;
	}
	if (mcg_kernel_resolve(version, out, why) != 0)
		return -1;
	if (p) {
		void (*delta)(struct mcg_kernel *) = after ? p->after : p->before;

		if (delta)
			delta(out);
		out->patch = p;
		out->patch_after = after;
		/* A delta that sets what the engine cannot run. */
		if (out->flush_threshold_pct == 0 || out->charge_batch == 0) {
			*why = "this patch sets flush_threshold_pct or charge_batch to 0 "
			       "(each must be at least 1)";
			return -1;
		}
	}
	return 0;
}

/* ---- memcgfs-bench experiment ---- */

static int run_patch(const void *arg, const struct exp_options *o, const char *tmp,
		     struct exp_report *r)
{
	const struct mcg_patch *p = arg;

	if (p->experiment && !o->battery)
		return p->experiment(p, o, tmp, r);
	return exp_battery(p->name, p->figures, o, tmp, r);
}

void mcg_patch_print_list(void)
{
	for (unsigned i = 0; i < G_N_ELEMENTS(patches); i++) {
		const struct mcg_patch *p = patches[i];

		printf("%s\n", p->name);
		printf("    %s\n", p->title);
		printf("    base: %s%s%s; upstream: %s\n", p->base ? p->base : "any release (",
		       p->base ? "" : p->any_base, p->base ? "" : " by default)", p->upstream);
		printf("    before: %s\n    after:  %s\n", p->before_help, p->after_help);
		printf("    experiment: %s\n", p->experiment ? "its own" : "the standard battery");
		printf("    published: %s\n", p->published ? p->published : "nothing");
	}
}

int mcg_patch_experiment_main(const char *name, const struct exp_options *o)
{
	bool all = name && strcmp(name, "all") == 0;
	int rc = 0, found = 0;

	for (unsigned i = 0; i < G_N_ELEMENTS(patches); i++) {
		const struct mcg_patch *p = patches[i];

		if (!all && (!name || strcmp(name, p->name) != 0))
			continue;
		found = 1;
		rc |= exp_run(p->name, p->title, run_patch, p, o);
	}
	if (!found) {
		fprintf(stderr,
			"memcgfs-bench: experiment: unknown patch '%s' (--list lists them; "
			"all runs every patch's own)\n",
			name ? name : "");
		return 2;
	}
	return rc;
}
