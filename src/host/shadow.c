/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shadow cgroups of a host memory hierarchy: see internal.h. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "host/internal.h"

/*
 * Shadow cgroups
 * --------------
 * With --host_cgroup=DIR the host kernel itself accounts and limits the
 * placed processes.  The daemon makes DIR/memcgfs.PID (its base) and,
 * below it, a shadow cgroup for each emulated cgroup that has had a
 * process, nested as the emulated ones are and named by their ids (a
 * rename moves nothing): emulated /a/b with ids 5 and 9 is base/5/9.  A
 * process placed in an emulated cgroup runs in its shadow (its pid
 * written to the shadow's cgroup.procs), so that every page it or the
 * kernel on its behalf charges, page cache read or written included, is
 * charged to the shadow by the host's own charge path, under limits that
 * mirror the emulated ones level by level.  A process placed back in the
 * emulated root runs in DIR itself.
 *
 * Every HOST_SAMPLE_MS, and before a read of a memory file of the subtree
 * (mcg_host_sync()), the daemon mirrors each shadow:
 *  - limits: the emulated memcg's memory max (v1 limit_in_bytes, v2
 *    memory.max) to the shadow's memory.limit_in_bytes, and its memsw
 *    max (v1) or memory max + swap max (v2) to memory.memsw.limit_in_bytes
 *    where the host has it, in the order v1 accepts (the memory limit
 *    never above memsw's: mem_cgroup_resize_max());
 *  - socket accounting: switched on in the shadow (mirror_limits());
 *  - pages: the changes of the shadow's own (local, not total_) rss,
 *    cache less shmem, shmem, swap (mm/memcontrol-v1.c
 *    memcg1_stat_format()), memory.kmem.usage_in_bytes and
 *    memory.kmem.tcp.usage_in_bytes are charged to the emulated memcg as
 *    anon, page cache, shmem, anon swapped out, kernel memory (stacks,
 *    page tables, the rest as unreclaimable slab: kernel_split()) and
 *    socket buffers, or freed, through a task group of the shadow's
 *    (mcg_workload_host_group_new() with no pidfd: the host's to reclaim
 *    and OOM-kill, so the emulation's reclaim and OOM killer leave it
 *    alone), on the emulated CPUs in turn;
 *  - events: memory.failcnt's and memory.memsw.failcnt's increase as
 *    "max" events (try_charge_memcg() tries memsw first, and a limit that
 *    is memsw's too fails there), memory.oom_control
 *    oom_kill's as "oom" and "oom_kill" (a v1 host counts no OOM that
 *    killed nothing).
 * What a v1 host cannot do is not done: memory.low and min (v2) are not
 * enforced on host processes (memory.high is the daemon's: it throttles
 * them, host_throttle_cgroup()), nor memory.max on their socket buffers.
 * A removed emulated cgroup's shadow is removed on
 * the host (its page cache then charged to a dying memcg there, as here).
 *
 * Nothing outside DIR is written.  At the daemon's end every process of a
 * shadow goes to DIR and the shadows and base are removed; a daemon that
 * was killed leaves them, and the next one with the same DIR removes every
 * memcgfs.PID whose PID is no running memcgfs.
 */

#define CGROUP_SUPER_MAGIC 0x27e0eb	/* include/uapi/linux/magic.h */

enum shadow_kind {
	SH_ANON, SH_FILE, SH_SHMEM, SH_KERNEL_STACK, SH_PAGETABLES, SH_SLAB, SH_SOCK, SH_NR_KINDS
};

static const enum mcg_page_kind shadow_page_kind[SH_NR_KINDS] = {
	[SH_ANON] = MCG_PAGES_ANON,
	[SH_FILE] = MCG_PAGES_FILE,
	[SH_SHMEM] = MCG_PAGES_SHMEM,
	[SH_KERNEL_STACK] = MCG_PAGES_KERNEL_STACK,
	[SH_PAGETABLES] = MCG_PAGES_PAGETABLES,
	[SH_SLAB] = MCG_PAGES_SLAB_UNRECLAIMABLE,
	[SH_SOCK] = MCG_PAGES_SOCK,
};

struct host_shadow {
	struct mcg_cgroup *cg;		/* held */
	char *path;
	struct mcg_host_group *group;	/* its pages here; NULL until the first */
	long held[SH_NR_KINDS];		/* pages charged for, by kind */
	long swapped;			/* pages swapped out for */
	unsigned long long failcnt, oom_kill;	/* the host's counts mirrored */
	long long limit, memsw, tcp;	/* bytes last written (-1: none) */
};

struct host_shadows {
	char *dir;			/* DIR */
	char *base;			/* DIR/memcgfs.PID */
	bool has_memsw;			/* the host has memory.memsw.* */
	bool host_swap;			/* /proc/swaps lists a device at open */
	GHashTable *by_id;		/* cgroup id -> struct host_shadow */
	unsigned next_cpu;		/* the CPU the next charges go on */
};

#define NO_LIMIT LLONG_MAX

/* ---- files ---------------------------------------------------------------- */

static int write_text(const char *dir, const char *file, const char *text)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static bool read_ull(const char *dir, const char *file, unsigned long long *v)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autofree char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return false;
	*v = g_ascii_strtoull(text, NULL, 10);
	return true;
}

/* "key value" of a flat keyed file (memory.stat, memory.oom_control), or
 * "Key:\tvalue" of /proc/PID/status. */
static bool read_key(const char *text, const char *key, unsigned long long *v)
{
	size_t n = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!strncmp(l, key, n) && (l[n] == ' ' || l[n] == ':')) {
			*v = g_ascii_strtoull(l + n + 1, NULL, 10);
			return true;
		}
	}
	return false;
}

static bool read_keys(const char *dir, const char *file, const char *const *keys,
		      unsigned long long *v, unsigned nr)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autofree char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return false;
	for (unsigned i = 0; i < nr; i++)
		if (!read_key(text, keys[i], &v[i]))
			v[i] = 0;
	return true;
}

/* Moves every process of cgroup dir `from` into `to` (v1: no rule
 * against it). */
static void move_all(const char *from, const char *to)
{
	g_autofree char *path = g_build_filename(from, "cgroup.procs", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) pids = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	pids = g_strsplit(text, "\n", -1);
	for (char **p = pids; *p; p++)
		if (**p)
			(void)write_text(to, "cgroup.procs", *p);
}

/* Removes a tree of cgroups, deepest first, its processes moved to dir. */
static void remove_tree(const char *path, const char *dir)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d))) {
			if (de->d_type == DT_DIR && de->d_name[0] != '.') {
				g_autofree char *sub = g_build_filename(path, de->d_name, NULL);

				remove_tree(sub, dir);
			}
		}
		closedir(d);
	}
	move_all(path, dir);
	if (rmdir(path) != 0 && errno != ENOENT)
		fprintf(stderr, "memcgfs: cannot remove host cgroup %s: %s\n", path,
			strerror(errno));
}

/* Is pid a running memcgfs? */
static bool is_memcgfs(pid_t pid)
{
	char path[64];
	g_autofree char *comm = NULL;

	g_snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	return g_file_get_contents(path, &comm, NULL, NULL) && !strcmp(g_strstrip(comm), "memcgfs");
}

/* Does /proc/swaps list any swap area (a line after its header)? */
static bool host_has_swap(void)
{
	g_autofree char *text = NULL;
	const char *nl;

	return g_file_get_contents("/proc/swaps", &text, NULL, NULL) && (nl = strchr(text, '\n')) &&
	       nl[1] != '\0';
}

/* ---- open and close ------------------------------------------------------------ */

int host_shadows_open(struct mcg_host *h, const char *dir)
{
	struct host_shadows *s;
	struct statfs sfs;
	DIR *d;
	struct dirent *de;
	g_autofree char *probe = g_build_filename(dir, "memory.limit_in_bytes", NULL);

	if (statfs(dir, &sfs) != 0) {
		int err = errno;

		fprintf(stderr, "memcgfs: --host_cgroup=%s: %s\n", dir, strerror(err));
		return -err;
	}
	if (sfs.f_type != CGROUP_SUPER_MAGIC || access(probe, W_OK) != 0) {
		fprintf(stderr, "memcgfs: --host_cgroup=%s: not a writable directory of a cgroup v1 "
				"memory hierarchy\n", dir);
		return -EINVAL;
	}
	/* what killed daemons left */
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "memcgfs.", 8))
			continue;
		pid = strtol(de->d_name + 8, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || is_memcgfs((pid_t)pid))
			continue;
		g_autofree char *old = g_build_filename(dir, de->d_name, NULL);

		remove_tree(old, dir);
	}
	if (d)
		closedir(d);
	s = g_new0(struct host_shadows, 1);
	s->dir = g_strdup(dir);
	s->base = g_strdup_printf("%s/memcgfs.%d", dir, (int)getpid());
	if (mkdir(s->base, 0755) != 0 && errno != EEXIST) {
		int err = errno;

		fprintf(stderr, "memcgfs: cannot make host cgroup %s: %s\n", s->base, strerror(err));
		g_free(s->dir);
		g_free(s->base);
		g_free(s);
		return -err;
	}
	probe = (g_free(probe), g_build_filename(s->base, "memory.memsw.limit_in_bytes", NULL));
	s->has_memsw = access(probe, W_OK) == 0;
	s->host_swap = host_has_swap();
	s->by_id = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	h->shadows = s;
	return 0;
}

static void shadow_free(struct mcg_host *h, struct host_shadow *sh)
{
	if (sh->group)
		mcg_workload_host_group_exit(h->wl, sh->group);
	mcg_cgroup_put(sh->cg);
	g_free(sh->path);
	g_free(sh);
}

static gint deeper_first(gconstpointer a, gconstpointer b)
{
	const struct host_shadow *x = *(struct host_shadow *const *)a;
	const struct host_shadow *y = *(struct host_shadow *const *)b;

	return (int)mcg_cgroup_depth(y->cg) - (int)mcg_cgroup_depth(x->cg);
}

void host_shadows_close(struct mcg_host *h)
{
	struct host_shadows *s = h->shadows;
	g_autoptr(GPtrArray) all = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;

	if (!s)
		return;
	g_hash_table_iter_init(&it, s->by_id);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(all, v);
	g_ptr_array_sort(all, deeper_first);
	for (unsigned i = 0; i < all->len; i++) {
		struct host_shadow *sh = all->pdata[i];

		move_all(sh->path, s->dir);
		if (rmdir(sh->path) != 0)
			fprintf(stderr, "memcgfs: cannot remove host cgroup %s: %s\n", sh->path,
				strerror(errno));
		g_hash_table_remove(s->by_id, &(uint64_t){ mcg_cgroup_id(sh->cg) });
		shadow_free(h, sh);
	}
	remove_tree(s->base, s->dir);
	g_hash_table_destroy(s->by_id);
	g_free(s->dir);
	g_free(s->base);
	g_free(s);
	h->shadows = NULL;
}

/* ---- shadows ---------------------------------------------------------------------- */

static void mirror_limits(struct mcg_host *h, struct host_shadow *sh);

/* cg's shadow, and its ancestors', made if need be; NULL (errno) if a
 * directory cannot be made. */
static struct host_shadow *shadow_get(struct mcg_host *h, struct mcg_cgroup *cg)
{
	struct host_shadows *s = h->shadows;
	struct mcg_cgroup *parent = mcg_cgroup_parent(cg);
	uint64_t id = mcg_cgroup_id(cg);
	struct host_shadow *sh = g_hash_table_lookup(s->by_id, &id), *up = NULL;

	if (sh)
		return sh;
	if (parent && mcg_cgroup_parent(parent) && !(up = shadow_get(h, parent)))
		return NULL;
	sh = g_new0(struct host_shadow, 1);
	sh->path = g_strdup_printf("%s/%" PRIu64, up ? up->path : s->base, id);
	if (mkdir(sh->path, 0755) != 0 && errno != EEXIST) {
		int err = errno;

		g_free(sh->path);
		g_free(sh);
		errno = err;
		return NULL;
	}
	sh->cg = mcg_cgroup_get(cg);
	sh->limit = sh->memsw = sh->tcp = -1;
	g_hash_table_insert(s->by_id, g_memdup2(&id, sizeof(id)), sh);
	/* its limits before any process runs in it: one that faults its
	 * memory faster than the next look must meet them */
	mirror_limits(h, sh);
	return sh;
}

int host_shadows_place(struct mcg_host *h, pid_t tid, bool whole, struct mcg_cgroup *cg)
{
	struct host_shadows *s = h->shadows;
	char text[32];
	const char *dir = s->dir;

	if (cg && mcg_cgroup_parent(cg)) {
		struct host_shadow *sh = shadow_get(h, cg);

		if (!sh)
			return -errno;
		dir = sh->path;
	}
	g_snprintf(text, sizeof(text), "%d", (int)tid);
	return write_text(dir, whole ? "cgroup.procs" : "tasks", text);
}

void host_shadows_removed(struct mcg_host *h, struct mcg_cgroup *cg)
{
	struct host_shadows *s = h->shadows;
	uint64_t id = mcg_cgroup_id(cg);
	struct host_shadow *sh = s ? g_hash_table_lookup(s->by_id, &id) : NULL;

	if (!sh)
		return;
	g_hash_table_remove(s->by_id, &id);
	if (rmdir(sh->path) != 0)
		fprintf(stderr, "memcgfs: cannot remove host cgroup %s: %s\n", sh->path,
			strerror(errno));
	shadow_free(h, sh);
}

/* ---- mirroring ---------------------------------------------------------------------- */

static long long pages_to_limit(unsigned long pages)
{
	return pages >= MCG_PAGE_COUNTER_MAX / 2 ? NO_LIMIT : (long long)pages * 4096;
}

static int write_limit(struct host_shadow *sh, const char *file, long long v)
{
	char text[32];

	if (v == NO_LIMIT)
		g_strlcpy(text, "-1", sizeof(text));
	else
		g_snprintf(text, sizeof(text), "%lld", v);
	return write_text(sh->path, file, text);
}

static struct mcg_cgroup *event_memcg(struct mcg_host *h, struct mcg_cgroup *cg);

/* The resident memory of process tgid, in kB (VmRSS), or 0. */
static unsigned long long proc_rss_kb(const char *tgid)
{
	g_autofree char *path = g_strdup_printf("/proc/%s/status", tgid);
	g_autofree char *text = NULL;
	const char *l;

	if (!g_file_get_contents(path, &text, NULL, NULL) || !(l = strstr(text, "\nVmRSS:")))
		return 0;
	return g_ascii_strtoull(l + 7, NULL, 10);
}

/* The processes of a shadow and its descendants' cgroups (their
 * cgroup.procs), appended as "tgid" strings. */
static void tree_procs(const char *path, GPtrArray *out)
{
	g_autofree char *procs = g_build_filename(path, "cgroup.procs", NULL);
	g_autofree char *text = NULL;
	DIR *d = opendir(path);
	struct dirent *de;

	if (g_file_get_contents(procs, &text, NULL, NULL)) {
		g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

		for (char **l = lines; *l; l++)
			if (**l)
				g_ptr_array_add(out, g_strdup(*l));
	}
	while (d && (de = readdir(d))) {
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			g_autofree char *sub = g_build_filename(path, de->d_name, NULL);

			tree_procs(sub, out);
		}
	}
	if (d)
		closedir(d);
}

/* out_of_memory() for the shadow's subtree, as the daemon must make it
 * for a v2 limit a v1 host will not enforce: SIGKILL to the process of
 * the subtree with the most resident memory (oom_badness() without its
 * adjustments), an "oom" and an "oom_kill" event. */
static void oom_kill_biggest(struct mcg_host *h, struct host_shadow *sh)
{
	g_autoptr(GPtrArray) procs = g_ptr_array_new_with_free_func(g_free);
	unsigned long long most = 0;
	const char *victim = NULL;
	struct mcg_cgroup *memcg;

	tree_procs(sh->path, procs);
	for (unsigned i = 0; i < procs->len; i++) {
		unsigned long long rss = proc_rss_kb(procs->pdata[i]);

		if (rss > most) {
			most = rss;
			victim = procs->pdata[i];
		}
	}
	memcg = event_memcg(h, sh->cg);
	if (memcg)
		mcg_memory_event(memcg, MCG_MEMORY_OOM);
	if (victim && kill((pid_t)atoi(victim), SIGKILL) == 0 && memcg)
		mcg_memory_event(memcg, MCG_MEMORY_OOM_KILL);
	if (memcg)
		mcg_cgroup_put(memcg);
}

/* The emulated memcg's limits to the shadow.  mem_cgroup_resize_max()
 * refuses (EINVAL) a memory limit above memsw's and a memsw limit below
 * memory's: memory first, then memsw, then memory again if memsw was in
 * its way.  A write the host refuses otherwise (EBUSY: usage that reclaim
 * could not bring under) is not tried again until the emulated limit
 * changes.
 *
 * Socket buffers: a v1 host accounts a cgroup's sockets, those made in it
 * from then on, once a limit is written to its memory.kmem.tcp.limit_in_bytes
 * (memcg_update_tcp_max(), mm/memcontrol-v1.c), and outside its memory
 * counter.  Under an emulated v2, which accounts every non-root memcg's
 * sockets (mem_cgroup_sk_alloc()), the shadow's accounting goes on at
 * once and unlimited: memory.max then holds the emulated charge of the
 * buffers but the host does not limit them.  Under an emulated v1 it goes
 * on with the emulated memcg's, and the limit follows. */
static void mirror_limits(struct mcg_host *h, struct host_shadow *sh)
{
	struct mcg_cgroup *memcg = mcg_cgroup_memcg(h->e, sh->cg);
	bool v2 = mcg_engine_config(h->e)->hierarchy == MCG_HIERARCHY_V2;
	long long mem = NO_LIMIT, memsw = NO_LIMIT, tcp = v2 ? NO_LIMIT : -1;

	if (memcg && !v2 && mcg_memcg_tcpmem_active(memcg))
		tcp = pages_to_limit(mcg_counter_read(memcg, MCG_COUNTER_TCPMEM, MCG_FIELD_MAX));
	/* a limit the host refuses (EBUSY: sockets hold more) is not asked
	 * again until the emulated one changes, as for memory's */
	if (tcp != -1 && tcp != sh->tcp) {
		(void)write_limit(sh, "memory.kmem.tcp.limit_in_bytes", tcp);
		sh->tcp = tcp;
	}
	if (memcg) {
		mem = pages_to_limit(mcg_counter_read(memcg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX));
		if (!v2) {
			memsw = pages_to_limit(mcg_counter_read(memcg, MCG_COUNTER_MEMSW,
								MCG_FIELD_MAX));
		} else {
			long long swap = pages_to_limit(mcg_counter_read(memcg, MCG_COUNTER_SWAP,
									  MCG_FIELD_MAX));

			memsw = mem == NO_LIMIT || swap == NO_LIMIT ? NO_LIMIT : mem + swap;
		}
		mcg_cgroup_put(memcg);
	}
	/* Without swap on the host a memsw limit equal to the memory limit
	 * limits nothing more; left unset, the memory counter is the one a
	 * charge fails on, whose failcnt a v1 host counts (this machine's
	 * Linux 6.18 counts no memsw failcnt, measured: 0 after 10M of
	 * writes against equal 10M limits, 307 with the memory limit alone). */
	if (memsw == mem && !h->shadows->host_swap)
		memsw = NO_LIMIT;
	if (!h->shadows->has_memsw)
		memsw = sh->memsw;
	if (mem != sh->limit) {
		int err = write_limit(sh, "memory.limit_in_bytes", mem), err_sw = 0;

		if (memsw != sh->memsw)
			err_sw = write_limit(sh, "memory.memsw.limit_in_bytes", memsw);
		if (err == -EINVAL) {
			err = write_limit(sh, "memory.limit_in_bytes", mem);
			if (!err && err_sw == -EINVAL)
				err_sw = write_limit(sh, "memory.memsw.limit_in_bytes", memsw);
		}
		/* v2's memory_max_write() reclaims, then OOM-kills until the
		 * usage fits; v1's mem_cgroup_resize_max() gives up (EBUSY).
		 * Under an emulated v2 the daemon kills as v2 would, and
		 * tries both again at the next look. */
		if (err == -EBUSY && v2) {
			oom_kill_biggest(h, sh);
			return;
		}
		/* what the host refused otherwise is not asked again */
	} else if (memsw != sh->memsw) {
		(void)write_limit(sh, "memory.memsw.limit_in_bytes", memsw);
	}
	sh->limit = mem;
	sh->memsw = memsw;
}

/* The memcg events of cg go to: its own css, else the nearest
 * ancestor's (whose css its tasks charge). */
static struct mcg_cgroup *event_memcg(struct mcg_host *h, struct mcg_cgroup *cg)
{
	for (; cg; cg = mcg_cgroup_parent(cg)) {
		struct mcg_cgroup *memcg = mcg_cgroup_memcg(h->e, cg);

		if (memcg)
			return memcg;
	}
	return NULL;
}

/* The memcg whose events process tgid's kill goes to: its shadow's (the
 * last component of its memory line in /proc/TGID/cgroup, an emulated
 * cgroup's id), its css or the nearest ancestor's.  Held, or NULL. */
static struct mcg_cgroup *proc_memcg(struct mcg_host *h, const char *tgid)
{
	g_autofree char *path = g_strdup_printf("/proc/%s/cgroup", tgid);
	g_autofree char *text = NULL;
	const char *l, *end, *slash;
	struct host_shadow *sh;
	uint64_t id;

	if (!g_file_get_contents(path, &text, NULL, NULL) || !(l = strstr(text, ":memory:")))
		return NULL;
	end = strchr(l, '\n');
	if (!end)
		end = l + strlen(l);
	for (slash = end; slash > l && *slash != '/'; slash--)
		;
	id = g_ascii_strtoull(slash + 1, NULL, 10);
	sh = g_hash_table_lookup(h->shadows->by_id, &id);
	return sh ? event_memcg(h, sh->cg) : NULL;
}

/* The memcg out of memory when a host process of memcg's was OOM-killed,
 * as the daemon can tell it: a v1 host tells only where the victim was
 * (memory.oom_control's oom_kill is local), so the domain is the nearest
 * memcg from memcg up with a memory limit, whose charge the host refused
 * (mem_cgroup_out_of_memory(memcg) of try_charge_memcg()); NULL: none, a
 * global OOM.  Held. */
static struct mcg_cgroup *oom_domain(struct mcg_cgroup *memcg)
{
	for (; memcg && mcg_cgroup_parent(memcg); memcg = mcg_cgroup_parent(memcg))
		if (pages_to_limit(mcg_counter_read(memcg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX)) !=
		    NO_LIMIT)
			return mcg_cgroup_get(memcg);
	return NULL;
}

/* What oom_kill_process() does after the host killed the victim, which
 * a v1 host does not: memory.oom.group (mem_cgroup_get_oom_group()), an
 * "oom_group_kill", then mem_cgroup_scan_tasks(group,
 * oom_kill_memcg_member): SIGKILL and "oom_kill" for every process of the
 * group's subtree but those at OOM_SCORE_ADJ_MIN, and the victim's
 * "oom_kill" again (the scan meets it before it has exited).  Here the
 * victim may be gone already: the processes on their way out are taken
 * for it and passed by. */
static void oom_group_kill(struct mcg_host *h, struct mcg_cgroup *victim, struct mcg_cgroup *domain)
{
	struct mcg_cgroup *group = mcg_memcg_get_oom_group(h->e, victim, domain);
	g_autoptr(GPtrArray) procs = g_ptr_array_new_with_free_func(g_free);
	uint64_t id;
	struct host_shadow *gs;

	if (!group)
		return;
	mcg_memory_event(group, MCG_MEMORY_OOM_GROUP_KILL);
	mcg_memory_event(victim, MCG_MEMORY_OOM_KILL);
	id = mcg_cgroup_id(mcg_memcg_cgroup(group));
	gs = g_hash_table_lookup(h->shadows->by_id, &id);
	if (gs)
		tree_procs(gs->path, procs);
	for (unsigned i = 0; i < procs->len; i++) {
		pid_t pid = (pid_t)atoi(procs->pdata[i]);
		struct mcg_cgroup *memcg;

		if (pid <= 0 || host_proc_oom_unkillable(pid) || host_proc_exiting(pid))
			continue;
		memcg = proc_memcg(h, procs->pdata[i]);
		if (kill(pid, SIGKILL) == 0 && memcg)
			mcg_memory_event(memcg, MCG_MEMORY_OOM_KILL);
		if (memcg)
			mcg_cgroup_put(memcg);
	}
	mcg_cgroup_put(group);
}

static void mirror_events(struct mcg_host *h, struct host_shadow *sh)
{
	static const char *const oom_key[] = { "oom_kill" };
	unsigned long long failcnt, oom_kill, memsw_failcnt = 0;
	struct mcg_cgroup *memcg, *domain;

	if (!read_ull(sh->path, "memory.failcnt", &failcnt) ||
	    !read_keys(sh->path, "memory.oom_control", oom_key, &oom_kill, 1))
		return;
	if (h->shadows->has_memsw && read_ull(sh->path, "memory.memsw.failcnt", &memsw_failcnt))
		failcnt += memsw_failcnt;
	if (failcnt == sh->failcnt && oom_kill == sh->oom_kill)
		return;
	memcg = event_memcg(h, sh->cg);
	for (; memcg && sh->failcnt < failcnt; sh->failcnt++)
		mcg_memory_event(memcg, MCG_MEMORY_MAX);
	domain = memcg ? oom_domain(memcg) : NULL;
	/* "oom" on the memcg out of memory (mem_cgroup_oom()), "oom_kill"
	 * on the victim's (__oom_kill_process()) */
	for (; memcg && sh->oom_kill < oom_kill; sh->oom_kill++) {
		mcg_memory_event(domain ? domain : memcg, MCG_MEMORY_OOM);
		mcg_memory_event(memcg, MCG_MEMORY_OOM_KILL);
		oom_group_kill(h, memcg, domain);
	}
	if (domain)
		mcg_cgroup_put(domain);
	if (memcg)
		mcg_cgroup_put(memcg);
}

/* memory.kmem.usage_in_bytes and memory.kmem.tcp.usage_in_bytes are
 * hierarchical (page_counter_charge() and page_counter_try_charge() charge
 * every ancestor: memcg1_account_kmem(), memcg1_charge_skmem()), where
 * memory.stat's rss, cache and shmem are the cgroup's own: its own part is
 * its usage less its children's. */
enum local_file { LOCAL_KMEM, LOCAL_TCP, LOCAL_NR };
static const char *const local_files[LOCAL_NR] = {
	[LOCAL_KMEM] = "memory.kmem.usage_in_bytes",
	[LOCAL_TCP] = "memory.kmem.tcp.usage_in_bytes",
};

/* The shadow's own part of each of local_files, in one walk of its
 * children. */
static void local_usage(const char *path, unsigned long long usage[LOCAL_NR])
{
	DIR *d = opendir(path);
	struct dirent *de;

	for (unsigned i = 0; i < LOCAL_NR; i++)
		if (!read_ull(path, local_files[i], &usage[i]))
			usage[i] = 0;
	while (d && (de = readdir(d))) {
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			g_autofree char *sub = g_build_filename(path, de->d_name, NULL);
			unsigned long long child;

			for (unsigned i = 0; i < LOCAL_NR; i++)
				if (read_ull(sub, local_files[i], &child))
					usage[i] -= MIN(usage[i], child);
		}
	}
	if (d)
		closedir(d);
}

/* A v1 host counts a cgroup's kernel memory as one kmem counter; the
 * stacks and page tables of the shadow's own processes are known from
 * /proc (their threads x THREAD_SIZE, VmPTE), so those parts of it are
 * charged as kernel_stack and pagetables, as far as kmem holds them (a
 * process placed after it made its threads or tables has them charged
 * where it was), and the rest as unreclaimable slab. */
static void kernel_split(const char *path, long kmem, long now[SH_NR_KINDS])
{
	static const char *const keys[] = { "Threads", "VmPTE" };
	g_autofree char *procs = g_build_filename(path, "cgroup.procs", NULL);
	g_autofree char *text = NULL;
	long stacks = 0, tables = 0;

	if (g_file_get_contents(procs, &text, NULL, NULL)) {
		g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

		for (char **l = lines; *l; l++) {
			g_autofree char *dir = NULL;
			unsigned long long v[2];

			if (!**l)
				continue;
			dir = g_strdup_printf("/proc/%s", *l);
			if (!read_keys(dir, "status", keys, v, 2))
				continue;
			stacks += (long)v[0] * HOST_THREAD_STACK_PAGES;
			tables += (long)v[1] / (4096 / 1024);
		}
	}
	now[SH_KERNEL_STACK] = MIN(stacks, kmem);
	now[SH_PAGETABLES] = MIN(tables, kmem - now[SH_KERNEL_STACK]);
	now[SH_SLAB] = kmem - now[SH_KERNEL_STACK] - now[SH_PAGETABLES];
}

/* The shadow's swap ("swap" of its memory.stat, local, shown where the
 * host accounts memory+swap: memcg1_stat_format()).  Pages the host
 * swapped out leave anon for swap (the group's anon swapped out, as
 * reclaim does: its anon charged first if it came and went between two
 * looks); entries it freed, by a swap-in or a free, are freed, a swap-in
 * then charged again as anon by the look at rss.  The host raises "swap"
 * when the folio leaves the swap cache (__memcg1_swapout()), after rss
 * fell at the unmap: a look in between frees the anon, and the next swaps
 * out anon it then charges again; the counts end right, pgfault and
 * pswpout a little high.  False if the charge that must come first was
 * refused. */
static bool mirror_swap(struct mcg_host *h, struct host_shadow *sh, long swap, unsigned cpu,
			int nid)
{
	long d = swap - sh->swapped, got;

	if (d > 0 && sh->held[SH_ANON] < d) {
		got = mcg_workload_host_group_charge(h->wl, sh->group, MCG_PAGES_ANON, cpu, nid,
						     d - sh->held[SH_ANON], NULL);
		if (got > 0)
			sh->held[SH_ANON] += got;
		if (sh->held[SH_ANON] < d)
			return false;
	}
	if (!d)
		return true;
	got = mcg_workload_host_group_swap(h->wl, sh->group, d);
	if (got > 0)
		sh->held[SH_ANON] -= got;
	/* entries the ledgers no longer hold are not charged either */
	sh->swapped = d < 0 ? swap : sh->swapped + got;
	return true;
}

static void mirror_pages(struct mcg_host *h, struct host_shadow *sh)
{
	static const char *const keys[] = { "rss", "cache", "shmem", "swap" };
	struct host_shadows *s = h->shadows;
	unsigned long long v[4], local[LOCAL_NR];
	long now[SH_NR_KINDS];
	unsigned cpu;
	int nid;

	if (!read_keys(sh->path, "memory.stat", keys, v, 4))
		return;
	local_usage(sh->path, local);
	now[SH_ANON] = (long)(v[0] / 4096);
	now[SH_FILE] = (long)((v[1] > v[2] ? v[1] - v[2] : 0) / 4096);
	now[SH_SHMEM] = (long)(v[2] / 4096);
	kernel_split(sh->path, (long)(local[LOCAL_KMEM] / 4096), now);
	/* counted once the shadow's accounting is on (mirror_limits()) */
	now[SH_SOCK] = (long)(local[LOCAL_TCP] / 4096);
	cpu = s->next_cpu++ % h->nr_cpus;
	nid = (int)((unsigned long)cpu * h->nr_nodes / h->nr_cpus);
	if (v[3] / 4096 != (unsigned long long)sh->swapped) {
		if (!sh->group && mcg_workload_host_group_new(h->wl, sh->cg, -1, &sh->group) != 0)
			return;
		if (!mirror_swap(h, sh, (long)(v[3] / 4096), cpu, nid))
			return;
	}
	for (unsigned k = 0; k < SH_NR_KINDS; k++) {
		long d = now[k] - sh->held[k];

		if (d < 0) {
			if (sh->group)
				mcg_workload_host_group_free(h->wl, sh->group, shadow_page_kind[k], -d);
			sh->held[k] = now[k];
		} else if (d > 0) {
			uint64_t sleep;
			long got;

			if (!sh->group &&
			    mcg_workload_host_group_new(h->wl, sh->cg, -1, &sh->group) != 0)
				return;
			got = mcg_workload_host_group_charge(h->wl, sh->group, shadow_page_kind[k],
							     cpu, nid, d, &sleep);
			/* what the emulation refused is tried again next time */
			if (got > 0)
				sh->held[k] += got;
			if (sleep) {
				/* a v1 host has no memory.high: the daemon's */
				host_throttle_cgroup(h, sh->cg, sleep);
				return;
			}
		}
	}
}

/* Reclaim from the host pages of cg's subtree: a v1 host has no
 * memory.reclaim, but its limit write reclaims (mem_cgroup_resize_max(),
 * mm/memcontrol-v1.c: try_to_free_mem_cgroup_pages() until the usage fits
 * under the new limit, which is then set, or -EBUSY once reclaim stops
 * making progress).  So the shadow's limit is written `pages` under its
 * usage and at once put back: what the host reclaimed on the way is the
 * page cache, slab (the shrinkers) and, with swap, anon that the kernel's
 * memory.reclaim would take.  Returns the pages the usage fell by. */
unsigned long host_shadows_reclaim(struct mcg_host *h, struct mcg_cgroup *cg, unsigned long pages)
{
	struct host_shadows *s = h->shadows;
	struct host_shadow *sh = NULL;
	unsigned long long before, after;
	long long restore = NO_LIMIT;
	const char *path;
	char text[32];

	if (!s || !pages)
		return 0;
	if (mcg_cgroup_parent(cg)) {
		uint64_t id = mcg_cgroup_id(cg);

		if (!(sh = g_hash_table_lookup(s->by_id, &id)))
			return 0;
		path = sh->path;
		if (sh->limit >= 0)
			restore = sh->limit;
	} else {
		path = s->base;
	}
	if (!read_ull(path, "memory.usage_in_bytes", &before))
		return 0;
	g_snprintf(text, sizeof(text), "%llu",
		   before > (unsigned long long)pages * 4096 ? before - (unsigned long long)pages * 4096
							     : 0ull);
	(void)write_text(path, "memory.limit_in_bytes", text);
	if (restore == NO_LIMIT)
		g_strlcpy(text, "-1", sizeof(text));
	else
		g_snprintf(text, sizeof(text), "%lld", restore);
	(void)write_text(path, "memory.limit_in_bytes", text);
	if (!read_ull(path, "memory.usage_in_bytes", &after) || after >= before)
		return 0;
	return (unsigned long)((before - after) / 4096);
}

void host_shadows_sample(struct mcg_host *h, struct mcg_cgroup *top)
{
	GHashTableIter it;
	gpointer v;

	if (!h->shadows)
		return;
	g_hash_table_iter_init(&it, h->shadows->by_id);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct host_shadow *sh = v;

		if (top && mcg_cgroup_parent(top) && !mcg_cgroup_is_descendant(sh->cg, top))
			continue;
		mirror_limits(h, sh);
		mirror_pages(h, sh);
		mirror_events(h, sh);
	}
}
