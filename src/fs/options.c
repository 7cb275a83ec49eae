/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line of memcgfs: its own options (each both as --key=value and
 * as -o key=value, so an fstab line works), then libfuse's (-f, -d, -s,
 * -o max_threads=N, mount options), then the mount point.
 *
 * Errors are one line on stderr and the caller exits 2.
 */
#define FUSE_USE_VERSION 314
#include <config.h>

#include <errno.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/internal.h"
#include "kernel/kernel.h"
#include "patches/patches.h"

enum {
	KEY_HIERARCHY,
	KEY_CPUS,
	KEY_NODES,
	KEY_KERNEL,
	KEY_FLUSH_PERIOD,
	KEY_HUGETLB,
	KEY_TIMEOUT,
	KEY_MAX_READ,
	KEY_WORKLOAD,
	KEY_SEED,
	KEY_PATCH,
	KEY_TICK,
	KEY_CLOCK,
	KEY_RANDOM_SEED,
	KEY_PAGECACHE,
	KEY_ACCURACY,
	KEY_MEMCG_V1,
	KEY_LRU_GEN,
	KEY_EVENT_LIMIT,
	KEY_MAX_CGROUPS,
	KEY_HOST_CGROUP,
};

/* Options that take a value, by key name. */
static const struct { const char *name; int key; } valued[] = {
	{ "hierarchy", KEY_HIERARCHY },
	{ "cpus", KEY_CPUS },
	{ "nodes", KEY_NODES },
	{ "kernel", KEY_KERNEL },
	{ "flush_period_ms", KEY_FLUSH_PERIOD },
	{ "timeout", KEY_TIMEOUT },
	{ "max_read", KEY_MAX_READ },
	{ "workload", KEY_WORKLOAD },
	{ "seed", KEY_SEED },
	{ "patch", KEY_PATCH },
	{ "tick_ms", KEY_TICK },
	{ "clock", KEY_CLOCK },
	{ "random_seed", KEY_RANDOM_SEED },
	{ "memcg_v1", KEY_MEMCG_V1 },
	{ "lru_gen", KEY_LRU_GEN },
	{ "event_limit", KEY_EVENT_LIMIT },
	{ "max_cgroups", KEY_MAX_CGROUPS },
	{ "host_cgroup", KEY_HOST_CGROUP },
};

static bool parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	guint64 v;

	if (!g_ascii_string_to_unsigned(s, 10, min, max, &v, NULL))
		return false;
	*out = (unsigned)v;
	return true;
}

/* The value as given, cut at 64 bytes: an error line stays a line. */
static int bad(const char *what, const char *value, const char *expected)
{
	int len = (int)strnlen(value, 65);

	fprintf(stderr, "memcgfs: bad %s '%.*s%s' (expected %s)\n", what, len > 64 ? 64 : len,
		value, len > 64 ? "..." : "", expected);
	return -1;
}

/* fusermount3 lets a user other than root mount with allow_other only
 * where /etc/fuse.conf says user_allow_other (fuse.conf(5)). */
static bool user_allow_other(void)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents("/etc/fuse.conf", &text, NULL, NULL))
		return false;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++)
		if (!strcmp(g_strstrip(*l), "user_allow_other"))
			return true;
	return false;
}

/* libfuse's options that memcgfs checks before libfuse takes them: -1 for
 * a bad one (printed), 1 to pass it on. */
static int fuse_opt_check(const char *arg)
{
	unsigned threads;

	if (g_str_has_prefix(arg, "max_threads=") &&
	    !parse_uint(arg + strlen("max_threads="), 1, 100000, &threads))
		return bad("max_threads", arg + strlen("max_threads="), "1..100000");
	if (!strcmp(arg, "allow_other") && geteuid() != 0 && !user_allow_other()) {
		fprintf(stderr, "memcgfs: allow_other needs user_allow_other in /etc/fuse.conf "
				"(or root)\n");
		return -1;
	}
	/* One of memcgfs's own options without its value. */
	for (unsigned i = 0; i < G_N_ELEMENTS(valued); i++)
		if (!strcmp(arg, valued[i].name))
			return bad(valued[i].name, "", "a value: -o NAME=VALUE or --NAME=VALUE");
	return 1;
}

/* A kernel build option's value, as Kconfig writes it. */
static bool parse_kconfig(const char *s, enum mcg_kconfig_choice *out)
{
	if (strcmp(s, "y") == 0)
		*out = MCG_KCONFIG_Y;
	else if (strcmp(s, "n") == 0)
		*out = MCG_KCONFIG_N;
	else
		return false;
	return true;
}


/* What fuse_opt_parse() fills: the options, and what it leaves to us. */
struct parse_ctx {
	struct mcgfs_options *o;
	char *args[2];		/* [SOURCE] MOUNTPOINT, owned */
	unsigned nr_args;	/* positional arguments seen */
	bool has_fsname, has_subtype;
};

static int opt_proc(void *data, const char *arg, int key, struct fuse_args *outargs)
{
	struct parse_ctx *ctx = data;
	struct mcgfs_options *o = ctx->o;
	const char *eq = strchr(arg, '=');
	const char *v = eq ? eq + 1 : "";
	char *end;

	if (key == FUSE_OPT_KEY_NONOPT) {
		/* mount.fuse3 runs `memcgfs SOURCE MOUNTPOINT -o ...`: the
		 * positional arguments are ours, not fuse_parse_cmdline()'s. */
		if (ctx->nr_args < G_N_ELEMENTS(ctx->args))
			ctx->args[ctx->nr_args] = g_strdup(arg);
		ctx->nr_args++;
		return 0;
	}
	if (key == FUSE_OPT_KEY_OPT) {
		ctx->has_fsname |= g_str_has_prefix(arg, "fsname=");
		ctx->has_subtype |= g_str_has_prefix(arg, "subtype=");
		return fuse_opt_check(arg);	/* libfuse's */
	}
	switch (key) {
	case KEY_HIERARCHY:
		if (strcmp(v, "v1") == 0)
			o->engine.hierarchy = MCG_HIERARCHY_V1;
		else if (strcmp(v, "v2") == 0)
			o->engine.hierarchy = MCG_HIERARCHY_V2;
		else
			return bad("hierarchy", v, "v1 or v2");
		return 0;
	case KEY_CPUS:
		if (!parse_uint(v, 1, MCG_MAX_CPUS, &o->engine.nr_cpus))
			return bad("cpus", v, "1..1024");
		return 0;
	case KEY_NODES:
		if (!parse_uint(v, 1, MCG_MAX_NODES, &o->engine.nr_nodes))
			return bad("nodes", v, "1..64");
		return 0;
	case KEY_KERNEL:
		if (!mcg_kernel_release_known(v))
			return bad("kernel", v, MCG_KERNEL_RELEASES);
		g_free(o->kernel_version);
		o->kernel_version = g_strdup(v);
		return 0;
	case KEY_SEED:
		/* The seeds' own form, NNN:before|after, of --patch=seedNNN:... */
		if (strlen(v) < 5 || v[3] != ':' || !g_ascii_isdigit(v[0]))
			return bad("seed", v, "NNN:before or NNN:after");
		/* fall through */
	case KEY_PATCH:
		if (o->patch && strcmp(o->patch, v) != 0) {
			fprintf(stderr, "memcgfs: --patch and --seed name one patch: '%s' was "
					"given already\n", o->patch);
			return -1;
		}
		g_free(o->patch);
		o->patch = g_strdup(v);
		return 0;
	case KEY_MEMCG_V1:
		if (!parse_kconfig(v, &o->kconfig.memcg_v1))
			return bad("memcg_v1", v, "y or n");
		return 0;
	case KEY_LRU_GEN:
		if (!parse_kconfig(v, &o->kconfig.lru_gen))
			return bad("lru_gen", v, "y or n");
		return 0;
	case KEY_FLUSH_PERIOD:
		if (!parse_uint(v, 0, UINT_MAX, &o->engine.flush_period_ms))
			return bad("flush_period_ms", v, "milliseconds, 0 for none");
		return 0;
	case KEY_HUGETLB:
		o->engine.hugetlb_accounting = true;
		return 0;
	case KEY_ACCURACY:
		o->accuracy = true;
		return 0;
	case KEY_PAGECACHE:
		o->pagecache = true;
		return 0;
	case KEY_TIMEOUT:
		o->timeout = strtod(v, &end);
		if (!*v || *end || !(o->timeout >= 0 && o->timeout <= 1e9))
			return bad("timeout", v, "seconds >= 0");
		return 0;
	case KEY_WORKLOAD:
		/* A bare name is a preset; it is checked once the nodes are known. */
		g_free(o->workload);
		o->workload = strchr(v, '=') ? g_strdup(v) : g_strdup_printf("preset=%s", v);
		return 0;
	case KEY_TICK:
		if (!parse_uint(v, 1, MCG_WORKLOAD_MAX_TICK_MS, &o->tick_ms))
			return bad("tick_ms", v, "1..100 milliseconds");
		return 0;
	case KEY_CLOCK:
		if (strcmp(v, "manual") == 0)
			o->engine.manual_clock = true;
		else if (strcmp(v, "real") == 0)
			o->engine.manual_clock = false;
		else
			return bad("clock", v, "real or manual");
		return 0;
	case KEY_RANDOM_SEED: {
		guint64 seed;

		if (!g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT64, &seed, NULL))
			return bad("random_seed", v, "a number, 0..18446744073709551615");
		o->random_seed = seed;
		o->has_random_seed = true;
		return 0;
	}
	case KEY_EVENT_LIMIT:
		if (!parse_uint(v, 1, 1000000, &o->event_limit))
			return bad("event_limit", v, "1..1000000 registrations per user");
		return 0;
	case KEY_MAX_CGROUPS:
		if (!parse_uint(v, 1, 10000000, &o->max_cgroups))
			return bad("max_cgroups", v, "1..10000000 cgroups");
		return 0;
	case KEY_HOST_CGROUP:
		if (v[0] != '/')
			return bad("host_cgroup", v, "an absolute path in a host memory hierarchy");
		g_free(o->host_cgroup);
		o->host_cgroup = g_strdup(v);
		return 0;
	case KEY_MAX_READ:
		if (!parse_uint(v, 512, 1 << 20, &o->max_read))
			return bad("max_read", v, "512..1048576 bytes");
		return 0;
	default:
		return 1;
	}
}

/* Appends one template (owned by strings) with its key. */
static void spec_add(GArray *spec, GPtrArray *strings, char *templ, int key)
{
	struct fuse_opt opt = FUSE_OPT_KEY(NULL, key);

	g_ptr_array_add(strings, templ);
	opt.templ = templ;
	g_array_append_val(spec, opt);
}

/* The option table: every key as "-o key" and "--key", valued keys with
 * "=" (their value is read by opt_proc).  Zero-terminated. */
static struct fuse_opt *build_spec(GPtrArray *strings)
{
	GArray *spec = g_array_new(TRUE, TRUE, sizeof(struct fuse_opt));

	for (unsigned i = 0; i < G_N_ELEMENTS(valued); i++) {
		spec_add(spec, strings, g_strdup_printf("%s=", valued[i].name), valued[i].key);
		spec_add(spec, strings, g_strdup_printf("--%s=", valued[i].name), valued[i].key);
	}
	spec_add(spec, strings, g_strdup("hugetlb_accounting"), KEY_HUGETLB);
	spec_add(spec, strings, g_strdup("--hugetlb_accounting"), KEY_HUGETLB);
	spec_add(spec, strings, g_strdup("pagecache"), KEY_PAGECACHE);
	spec_add(spec, strings, g_strdup("--pagecache"), KEY_PAGECACHE);
	spec_add(spec, strings, g_strdup("accuracy"), KEY_ACCURACY);
	spec_add(spec, strings, g_strdup("--accuracy"), KEY_ACCURACY);
	return (struct fuse_opt *)(void *)g_array_free(spec, FALSE);
}

/* The eras and the patches, from their tables. */
static void usage_kernels(void)
{
	static const char *const eras_help[] = {
		"5.10", "memcg stats batched into hierarchical atomics; no memcg flush",
		"6.1", "rstat, one shared tree, per-CPU locked updater; one global flush\n"
		"                           threshold, whole-root flush under a trylock",
		"6.12", "rstat, one shared tree, per-CPU locked updater; per-memcg\n"
		"                           thresholds; locals kept by the flush",
		"7.3", "rstat, a tree per subsystem, lockless updater; per-memcg\n"
		"                           thresholds; locals kept and reparented",
	};
	const struct mcg_patch *const *patches;
	unsigned nr;

	printf("    --kernel takes any release from 5.4 to 7.3.  It prints the layout of the\n"
	       "    newest table at or before it (5.4, 5.10, 5.15, 6.1, 6.6, 6.12, 7.3) and\n"
	       "    runs the mechanisms of the era its stats machinery belongs to:\n"
	       "    5.4-5.12 the 5.10 era, 5.13-6.7 6.1, 6.8-6.16 6.12, 6.17-7.3 7.3.\n\n");
	for (unsigned i = 0; i < G_N_ELEMENTS(eras_help); i += 2)
		printf("    %-22s %s\n", eras_help[i], eras_help[i + 1]);
	printf("\nPatches (--patch=NAME[:before|after]; the seeds also as --seed=NNN:...):\n");
	patches = mcg_patch_list(&nr);
	for (unsigned i = 0; i < nr; i++) {
		const struct mcg_patch *p = patches[i];

		printf("    %s on %s%s\n", p->name, p->base ? p->base : "any kernel, default ",
		       p->base ? "" : p->any_base);
		printf("    %-22s %s\n", "", p->title);
		printf("    %-22s before: %s\n", "", p->before_help);
		printf("    %-22s after:  %s\n", "", p->after_help);
	}
}

static void usage(const char *prog)
{
	printf("usage: %s [options] MOUNTPOINT\n"
	       "\n"
	       "Mounts an emulated cgroup memory hierarchy (see memcgfs(8)).\n"
	       "Every option is also accepted as -o KEY[=VALUE].\n"
	       "\n"
	       "    --hierarchy=v1|v2      cgroup v1 memory hierarchy or cgroup v2 (default v2)\n"
	       "    --cpus=N               emulated CPUs, 1..1024 (default: online CPUs)\n"
	       "    --nodes=N              NUMA nodes, 1..64 (default 1)\n"
	       "    --kernel=VERSION       the kernel modelled, 5.4 to 7.3: its files and its\n"
	       "                           statistics machinery (default 7.3, or the patch's\n"
	       "                           base); see Kernels below\n"
	       "    --patch=NAME[:before|after]  a patch on its base kernel: with it (NAME,\n"
	       "                           NAME:after) or without it (NAME:before); see\n"
	       "                           Patches below\n"
	       "    --seed=NNN:before|after  the same for seed NNN (--patch=seedNNN:...)\n"
	       "    --memcg_v1=y|n         CONFIG_MEMCG_V1, the v1 memory controller (6.11+;\n"
	       "                           default: as Debian builds the release, n from\n"
	       "                           6.11, y before; y with --hierarchy=v1)\n"
	       "    --lru_gen=y|n          CONFIG_LRU_GEN_ENABLED, the multi-gen LRU, whose\n"
	       "                           reclaim and refault do not flush (6.1+; default:\n"
	       "                           as Debian builds the release, y from 6.12)\n"
	       "    --flush_period_ms=N    periodic statistics flush, 0 = off (default %u)\n"
	       "    --hugetlb_accounting   cgroup2 memory_hugetlb_accounting\n"
	       "    --accuracy             after each read of memory.stat, how far it is\n"
	       "                           from the exact sums and how old: the root's\n"
	       "                           memcgfs.accuracy (costs a subtree walk per read)\n"
	       "    --timeout=SECONDS      entry and attribute cache (default %.0f)\n"
	       "    --max_read=BYTES       bytes per READ request (default %u)\n"
	       "    --pagecache            read-only files through the page cache: one\n"
	       "                           request per cat, but stat shows the text's\n"
	       "                           size and an fd re-read after lseek(0) keeps\n"
	       "                           its open's text (see memcgfs(8))\n"
	       "    --workload=PROFILE     profile of new cgroups: a preset (idle, seed001,\n"
	       "                           multi-fault, file-reader) or \"key=value ...\"\n"
	       "                           (see memcgfs(8)); default idle\n"
	       "    --tick_ms=N            the workers' pacing clock, 1..100 (default %u)\n"
	       "    --clock=real|manual    manual: time moves only by writes to the root's\n"
	       "                           memcgfs.clock (repeatable runs; default real)\n"
	       "    --random_seed=N        seed of the workers' random choices (default:\n"
	       "                           a random seed)\n"
	       "    --event_limit=N        cgroup.event_control registrations one user may\n"
	       "                           hold, each a daemon fd; more fail with ENOMEM\n"
	       "                           (default %u)\n"
	       "    --max_cgroups=N        cgroups, live and dying, the daemon holds; a\n"
	       "                           mkdir beyond fails with ENOMEM (default: what a\n"
	       "                           quarter of this machine's memory holds at the\n"
	       "                           emulated CPUs)\n"
	       "    --host_cgroup=DIR      a directory of a host memory hierarchy (v1) in\n"
	       "                           which host processes placed in emulated cgroups\n"
	       "                           run, limited and accounted by the host kernel\n"
	       "                           (default: none, their memory read from /proc)\n"
	       "\n"
	       "From fstab or mount -t fuse.memcgfs, mount.fuse3 runs\n"
	       "`%s SOURCE MOUNTPOINT -o OPTIONS`: SOURCE names the mount.\n"
	       "\n"
	       "Kernels:\n",
	       prog, (unsigned)MCG_DEFAULT_FLUSH_PERIOD_MS, MCGFS_DEFAULT_TIMEOUT,
	       MCGFS_DEFAULT_MAX_READ, MCG_WORKLOAD_DEFAULT_TICK_MS, MCGFS_DEFAULT_EVENT_LIMIT, prog);
	usage_kernels();
	/* libfuse's fuse_cmdline_help() prints its own defaults (10 threads),
	 * not memcgfs's: the same options, with the values memcgfs uses. */
	printf("\nFUSE options:\n"
	       "    -h   --help            print help\n"
	       "    -V   --version         print version\n"
	       "    -d   -o debug          trace every FUSE request (implies -f)\n"
	       "    -f                     stay in the foreground\n"
	       "    -s                     serve requests on one thread\n"
	       "    -o max_threads=N       at most N worker threads (default %u)\n"
	       "    -o max_idle_threads=N  idle worker threads kept (default: all)\n",
	       MCGFS_DEFAULT_MAX_THREADS);
	fuse_lowlevel_help();
}

/* Is a memcgfs mounted at path (canonical)?  /proc/self/mountinfo fields:
 * "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE
 * SUPER", the mount point with octal escapes (show_mountinfo()). */
static bool memcgfs_mounted_at(const char *path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	bool found = false;

	if (!g_file_get_contents("/proc/self/mountinfo", &text, NULL, NULL))
		return false;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l && !found; l++) {
		g_auto(GStrv) f = g_strsplit(*l, " ", -1);
		g_autofree char *mnt = NULL;
		const char *sep;

		if (g_strv_length(f) < 5)
			continue;
		mnt = g_strcompress(f[4]);	/* \040 and friends */
		sep = strstr(*l, " - ");
		found = sep && strcmp(mnt, path) == 0 && g_str_has_prefix(sep + 3, "fuse.memcgfs ");
	}
	return found;
}

/* The mount point: an existing directory, not a dead mount, with no memcgfs
 * on it (a second daemon would stack an empty hierarchy over the first).
 * Canonical path in *out, or -1 after a one-line error. */
static int check_mountpoint(const char *arg, char **out)
{
	struct stat st;
	char *path;

	if (stat(arg, &st) != 0) {
		if (errno == ENOTCONN)
			fprintf(stderr, "memcgfs: %s: %s: a daemon that died left its mount "
				"(remove it with fusermount3 -u %s)\n", arg, strerror(errno), arg);
		else
			fprintf(stderr, "memcgfs: mount point %s: %s\n", arg, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "memcgfs: mount point %s is not a directory\n", arg);
		return -1;
	}
	path = realpath(arg, NULL);
	if (!path) {
		fprintf(stderr, "memcgfs: mount point %s: %s\n", arg, strerror(errno));
		return -1;
	}
	if (memcgfs_mounted_at(path)) {
		fprintf(stderr, "memcgfs: %s already has a memcgfs mounted (unmount it with "
			"fusermount3 -u %s, or mount on another directory)\n", arg, arg);
		free(path);
		return -1;
	}
	*out = path;
	return 0;
}

/* The mount shows as `SOURCE MOUNTPOINT fuse.memcgfs` in /proc/mounts, as
 * an fstab line gives it (SOURCE defaults to memcgfs), and memcgfs finds
 * its own mounts by that type.  Options given explicitly win. */
static int add_mount_names(struct mcgfs_options *o, const struct parse_ctx *ctx)
{
	g_autofree char *fsname = g_strconcat("fsname=", o->source ? o->source : "memcgfs", NULL);
	g_autofree char *opts = NULL;

	if (!ctx->has_fsname && fuse_opt_add_opt_escaped(&opts, fsname) != 0)
		return -1;
	if (!ctx->has_subtype && fuse_opt_add_opt(&opts, "subtype=memcgfs") != 0)
		return -1;
	if (opts && (fuse_opt_add_arg(o->fuse_args, "-o") != 0 ||
		     fuse_opt_add_arg(o->fuse_args, opts) != 0))
		return -1;
	return 0;
}

int mcgfs_options_parse(int argc, char *argv[], struct mcgfs_options *o)
{
	g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func(g_free);
	g_autofree struct fuse_opt *spec = build_spec(strings);
	struct fuse_cmdline_opts cmd = { 0 };
	struct parse_ctx ctx = { .o = o };
	long ncpu;

	memset(o, 0, sizeof(*o));
	mcg_engine_config_init(&o->engine);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->engine.nr_cpus = ncpu < 1 ? 1 : ncpu > MCG_MAX_CPUS ? MCG_MAX_CPUS : (unsigned)ncpu;
	o->engine.hierarchy = MCG_HIERARCHY_V2;
	o->timeout = MCGFS_DEFAULT_TIMEOUT;
	o->max_read = MCGFS_DEFAULT_MAX_READ;
	o->event_limit = MCGFS_DEFAULT_EVENT_LIMIT;
	o->tick_ms = MCG_WORKLOAD_DEFAULT_TICK_MS;
	o->fuse_args = g_new0(struct fuse_args, 1);
	*o->fuse_args = (struct fuse_args)FUSE_ARGS_INIT(0, NULL);
	for (int i = 0; i < argc; i++)
		if (fuse_opt_add_arg(o->fuse_args, argv[i]) != 0)
			goto fail;

	if (fuse_opt_parse(o->fuse_args, &ctx, spec, opt_proc) != 0)
		goto fail;
	if (fuse_parse_cmdline(o->fuse_args, &cmd) != 0)
		goto fail;
	if (cmd.show_help) {
		usage(argv[0]);
		goto done;
	}
	if (cmd.show_version) {
		printf("memcgfs %s\n", PACKAGE_VERSION);
		fflush(stdout);
		fuse_lowlevel_version();
		goto done;
	}
	{
		const char *why;

		/* The release as Debian configures it, then the mount's
		 * choices and its hierarchy (a v1 one builds CONFIG_MEMCG_V1). */
		if (mcg_patch_resolve(o->kernel_version, o->patch, &o->engine.kernel, &why) != 0 ||
		    mcg_kernel_configure(&o->engine.kernel, &o->kconfig,
					 o->engine.hierarchy == MCG_HIERARCHY_V1, &why) != 0) {
			fprintf(stderr, "memcgfs: kernel %s, patch %s: %s\n",
				o->kernel_version ? o->kernel_version : "(default)",
				o->patch ? o->patch : "(none)", why);
			goto fail;
		}
	}
	if (!o->max_cgroups)
		o->max_cgroups = mcgfs_default_max_cgroups(o->engine.nr_cpus);
	if (o->workload) {
		struct mcg_profile *p;

		if (mcg_profile_parse(o->workload, o->engine.nr_nodes, &p) != 0) {
			bad("workload", o->workload, "a preset or key=value profile");
			goto fail;
		}
		mcg_profile_free(p);
	}
	if (ctx.nr_args == 0) {
		fprintf(stderr, "memcgfs: no mount point given (try --help)\n");
		goto fail;
	}
	if (ctx.nr_args > 2) {
		fprintf(stderr, "memcgfs: %u arguments, at most 2 ([SOURCE] MOUNTPOINT) (try --help)\n",
			ctx.nr_args);
		goto fail;
	}
	if (ctx.nr_args == 2)
		o->source = g_steal_pointer(&ctx.args[0]);
	if (check_mountpoint(ctx.args[ctx.nr_args - 1], &cmd.mountpoint) != 0)
		goto fail;
	if (add_mount_names(o, &ctx) != 0)
		goto fail;
	o->mountpoint = cmd.mountpoint;
	o->foreground = cmd.foreground;
	o->debug = cmd.debug;
	o->max_threads = cmd.max_threads ? cmd.max_threads : MCGFS_DEFAULT_MAX_THREADS;
	o->max_idle_threads = cmd.max_idle_threads;
	o->single_thread = cmd.singlethread;
	o->clone_fd = cmd.clone_fd;
	g_free(ctx.args[1]);
	g_free(ctx.args[0]);
	return 0;

done:
	free(cmd.mountpoint);
	g_free(ctx.args[0]);
	g_free(ctx.args[1]);
	mcgfs_options_free(o);
	return 1;
fail:
	free(cmd.mountpoint);
	g_free(ctx.args[0]);
	g_free(ctx.args[1]);
	mcgfs_options_free(o);
	return -1;
}

void mcgfs_options_free(struct mcgfs_options *o)
{
	if (o->fuse_args) {
		fuse_opt_free_args(o->fuse_args);
		g_free(o->fuse_args);
	}
	free(o->mountpoint);
	g_free(o->source);
	g_free(o->workload);
	g_free(o->kernel_version);
	g_free(o->patch);
	g_free(o->host_cgroup);
	memset(o, 0, sizeof(*o));
}
