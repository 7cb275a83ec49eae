/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Notification: poll(2) on the files the kernel notifies, and v1
 * cgroup.event_control with the caller's own eventfds (see internal.h). */
#define FUSE_USE_VERSION 314
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <linux/kcmp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fs/internal.h"

/*
 * Notification
 * ------------
 * The kernel tells a reader that a cgroup file changed in two ways.
 *
 * poll(2).  cgroup_file_notify() (kernel/cgroup/cgroup.c) bumps the file's
 * kernfs event count when cgroup.events, memory.events, memory.events.local
 * or memory.swap.events change, at most once per CGROUP_FILE_NOTIFY_MIN_INTV
 * (10 ms).  kernfs_generic_poll() (fs/kernfs/file.c) answers POLLERR|POLLPRI
 * on top of the default mask when the count moved since the fd last read
 * the file (or opened it), and waits otherwise.  Here a file's count is its
 * text, and for cgroup.events, whose populated and frozen can change and
 * change back, the changes its show function counted too (fs_call
 * changes): an fd remembers a hash of what it last read (of->seen), poll
 * compares it with a fresh rendering, and a notifier thread, every 10 ms,
 * re-renders the files that have a waiting poll and wakes the waiter
 * (fuse_lowlevel_notify_poll()) when the text differs.  Only files with a
 * waiter are rendered, so the thread costs nothing without pollers.  PSI
 * files poll as psi_trigger_poll() does: without a trigger POLLERR|POLLPRI
 * at once; with one, POLLPRI once it fired.  The thread watches every
 * trigger as update_triggers() (kernel/sched/psi.c) does: the stall time
 * (some or full) that grew since its window started; at the threshold an
 * event, at most one per window, wakes the poll.  It also runs the
 * groups' periodic PSI collection (mcg_workload_psi_update()).  Every other
 * file polls ready, as a file whose count never moves.
 *
 * cgroup.event_control (v1, memcg_write_event_control() in
 * mm/memcontrol-v1.c): "<eventfd> <fd of a control file> [args]" binds an
 * eventfd to memory.usage_in_bytes or memory.memsw.usage_in_bytes
 * (a usage threshold), memory.oom_control (OOM in this memcg or an
 * ancestor) or memory.pressure_level (vmpressure).  The numbers are the
 * writer's fds: the daemon checks them as the kernel does (EBADF, an
 * eventfd, read permission on the control file, a regular file of this
 * mount in the same cgroup), takes its own copy of the eventfd with
 * pidfd_getfd(2), and the notifier thread signals it (writes 1) as the
 * kernel would:
 *  - a threshold, when usage crosses it either way (__mem_cgroup_threshold());
 *  - oom_control, at each OOM of the memcg or an ancestor
 *    (mem_cgroup_oom_notify());
 *  - pressure_level, when vmpressure's work for a reclaim target runs
 *    (mcg_workload_vmpressure_work(), each notifier tick): the target's
 *    listeners of that level or lower, then each ancestor's, where "local"
 *    ones hear only their own memcg's reclaim and "default" ones only what
 *    no listener below heard (vmpressure_work_fn(), vmpressure_event());
 *  - and once more when the cgroup goes (memcg_event_remove()).
 * The kernel unbinds an event when the writer closes its eventfd, which
 * the daemon's copy hides; the daemon drops an event when the fd the
 * writer registered no longer holds that eventfd (kcmp(2), every
 * EVENT_LIVENESS_NS), when the writer exits (a pidfd, one per writer), or
 * when the cgroup goes.
 *
 * A writer controls its fds, so no request may wait on one.  Closing a
 * copy of a file of a FUSE mount sends that server a FLUSH and waits for
 * it: a writer that passes a file of its own stopped server as "eventfd"
 * would pin the thread serving it for ever.  So the request looks at the
 * writer's fds through /proc/TGID/fd, which opens nothing (readlink(2) for
 * the eventfd; statx(2) without sync for the control file, whose cached
 * attributes are all it needs), takes a copy only of an eventfd, and a
 * copy that turns out not to be one (the writer swapped the fd meanwhile)
 * is closed on a thread of its own, off the request path.  What one user
 * holds is bounded: at most event_limit registrations per uid (each one
 * daemon fd), beyond which a write fails with ENOMEM as the kernel's
 * kzalloc() of the event would under the writer's memcg limit.
 */

#define NOTIFY_INTERVAL_NS (10 * 1000 * 1000)	/* CGROUP_FILE_NOTIFY_MIN_INTV */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

enum fs_event_kind { EVENT_USAGE, EVENT_MEMSW, EVENT_OOM, EVENT_PRESSURE };
enum vmpressure_mode { VMP_DEFAULT, VMP_HIERARCHY, VMP_LOCAL };

/* How often an event looks whether its writer still holds the eventfd. */
#define EVENT_LIVENESS_NS (100 * 1000 * 1000)
/* Copies of fds that were not eventfds, being closed off the request path:
 * beyond this many a registration waits (EAGAIN) rather than copying. */
#define MAX_LATE_CLOSES 16

/* A process that registered events: the pidfd that tells its exit, one
 * daemon fd for all its events.  Protected by fs->notify_lock. */
struct fs_writer {
	pid_t tgid;
	uid_t uid;
	int pidfd;
	unsigned refs;			/* events holding it */
	bool listed;			/* in fs->writers (not seen to exit) */
};

/* One cgroup.event_control registration.  Protected by fs->notify_lock. */
struct fs_event {
	uint64_t id;			/* the memcg's cgroup id */
	int efd;			/* the daemon's copy of the eventfd */
	struct fs_writer *writer;	/* a reference */
	int writer_fd;			/* the eventfd's number in the writer */
	uint64_t next_liveness_ns;	/* monotonic: when to look again */
	enum fs_event_kind kind;
	unsigned long threshold;	/* pages: EVENT_USAGE, EVENT_MEMSW */
	unsigned long last_usage;	/* pages, at the last check */
	uint64_t last_count;		/* OOMs seen */
	unsigned level;			/* vmpressure: 0 low, 1 medium, 2 critical */
	enum vmpressure_mode mode;
};

/* What an fd saw: its text and the changes its show function counted. */
static uint64_t text_hash(const GString *s, uint64_t changes)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < s->len; i++)
		h = (h ^ (unsigned char)s->str[i]) * 1099511628211ull;
	for (unsigned i = 0; i < 8; i++)
		h = (h ^ (unsigned char)(changes >> (8 * i))) * 1099511628211ull;
	return h;
}

bool fs_file_notifies(const struct fs_file *f)
{
	return f->flags & FS_NOTIFY;
}

/* The hash of a fresh rendering of of's file, or 0 if it cannot be
 * rendered (the cgroup or the file went). */
static uint64_t render_hash(struct mcgfs *fs, struct fs_open *of)
{
	struct fs_call call = { .fs = fs, .node = of->node, .of = of };
	g_autoptr(GString) text = g_string_sized_new(256);
	int err;

	if (!fs_file_visible(fs, of->node, of->file))
		return 0;
	err = fs_call_begin(fs, &call);
	if (!err && !mcg_cgroup_online(call.cg))
		err = -ENODEV;
	if (!err)
		err = of->file->show(&call, text);
	fs_call_done(&call);
	return err ? 0 : text_hash(text, call.changes);
}

void fs_notify_opened(struct mcgfs *fs, struct fs_open *of)
{
	if (fs_file_notifies(of->file))
		atomic_store(&of->seen, render_hash(fs, of));
}

void fs_notify_read(struct fs_open *of, uint64_t changes)
{
	if (fs_file_notifies(of->file))
		atomic_store(&of->seen, text_hash(of->text, changes));
}

/* The stall total a trigger watches, in ns, in *total, as the last
 * collection left it: false if there is none to watch (cpu and io: no
 * stalls emulated; the cgroup went). */
static bool psi_trigger_total(struct mcgfs *fs, struct fs_open *of, uint64_t *total)
{
	struct mcg_psi psi;
	int err;

	if (strcmp(of->file->name, "memory.pressure") || !fs_node_get_active(of->node))
		return false;
	err = mcg_workload_psi_read(fs->wl, of->node->cg, &psi);
	fs_node_put_active(of->node);
	if (err)
		return false;
	*total = psi.total_ns[of->psi_full];
	return true;
}

void fs_notify_psi_trigger(struct mcgfs *fs, struct fs_open *of)
{
	uint64_t total = 0;

	mcg_workload_psi_collect(fs->wl);
	psi_trigger_total(fs, of, &total);
	pthread_mutex_lock(&fs->notify_lock);
	/* psi_trigger_create(): window_reset(now, total, 0) */
	of->psi_win_start_ns = mcg_engine_clock_ns(fs->e);
	of->psi_win_start_value = total;
	of->psi_win_prev_growth = 0;
	of->psi_seen_total = total;
	of->psi_last_event_ns = 0;
	of->psi_next_check_ns = 0;
	of->psi_pending = of->psi_event = false;
	g_ptr_array_add(fs->psi_triggers, of);
	pthread_mutex_unlock(&fs->notify_lock);
}

/* window_update(): the growth in the window, the last window's carried
 * over pro rata while the new one fills. */
static uint64_t psi_window_update(struct fs_open *of, uint64_t now, uint64_t value)
{
	uint64_t elapsed = now - of->psi_win_start_ns;
	uint64_t growth = value - of->psi_win_start_value;

	if (elapsed > of->psi_window_ns) {
		of->psi_win_start_ns = now;
		of->psi_win_start_value = value;
		of->psi_win_prev_growth = growth;
	} else {
		growth += of->psi_win_prev_growth * (of->psi_window_ns - elapsed) /
			  of->psi_window_ns;
	}
	return growth;
}

/* update_triggers() for one trigger: on new stall, the window's growth; at
 * the threshold an event is pending, delivered once the last is a window
 * old.  A privileged trigger is looked at every tick (the rtpoll
 * aggregator), another with the 2 s averages (PSI_AVGS).  Returns whether
 * one was delivered.  notify_lock held. */
static bool psi_trigger_check(struct mcgfs *fs, struct fs_open *of, uint64_t now)
{
	uint64_t total;
	bool new_stall;

	if (!of->psi_privileged) {
		if (now < of->psi_next_check_ns)
			return false;
		of->psi_next_check_ns = now + 2000000000ull;
	}
	if (!psi_trigger_total(fs, of, &total))
		return false;
	new_stall = total != of->psi_seen_total;
	of->psi_seen_total = total;
	if (!new_stall && !of->psi_pending)
		return false;
	if (new_stall) {
		uint64_t growth = psi_window_update(of, now, total);

		if (!of->psi_pending) {
			if (growth < of->psi_threshold_ns)
				return false;
			of->psi_pending = true;
		}
	}
	if (now < of->psi_last_event_ns + of->psi_window_ns)
		return false;
	of->psi_event = true;
	of->psi_last_event_ns = now;
	of->psi_pending = false;
	return true;
}

void fs_notify_released(struct mcgfs *fs, struct fs_open *of)
{
	pthread_mutex_lock(&fs->notify_lock);
	g_ptr_array_remove_fast(fs->psi_triggers, of);
	if (of->ph) {
		g_ptr_array_remove_fast(fs->pollers, of);
		fuse_pollhandle_destroy(of->ph);
		of->ph = NULL;
	}
	pthread_mutex_unlock(&fs->notify_lock);
}

unsigned fs_notify_poll(struct mcgfs *fs, struct fs_open *of, struct fuse_pollhandle *ph)
{
	unsigned revents = DEFAULT_POLLMASK;

	/* kernfs_generic_poll(): a deactivated node is always ready. */
	if (!fs_node_online(of->node) || !fs_file_visible(fs, of->node, of->file)) {
		revents |= POLLERR | POLLPRI;
	} else if (of->file->flags & FS_PSI) {
		/* psi_trigger_poll(): a trigger reports its event once. */
		bool trigger;

		pthread_mutex_lock(&of->lock);
		trigger = of->psi_trigger;
		pthread_mutex_unlock(&of->lock);
		if (!trigger) {
			revents |= POLLERR | POLLPRI;
		} else {
			/* the default mask, POLLPRI once for each event */
			pthread_mutex_lock(&fs->notify_lock);
			if (of->psi_event)
				revents |= POLLPRI;
			of->psi_event = false;
			pthread_mutex_unlock(&fs->notify_lock);
		}
	} else if (fs_file_notifies(of->file)) {
		pthread_mutex_lock(&fs->notify_lock);
		if (render_hash(fs, of) != atomic_load(&of->seen))
			revents |= POLLERR | POLLPRI;
		pthread_mutex_unlock(&fs->notify_lock);
	}
	if (ph && !(revents & POLLPRI) && (of->file->flags & (FS_PSI | FS_NOTIFY))) {
		pthread_mutex_lock(&fs->notify_lock);
		if (of->ph)
			fuse_pollhandle_destroy(of->ph);
		else
			g_ptr_array_add(fs->pollers, of);
		of->ph = ph;
		ph = NULL;
		pthread_mutex_unlock(&fs->notify_lock);
	}
	if (ph)
		fuse_pollhandle_destroy(ph);
	return revents;
}

/* ---- cgroup.event_control -------------------------------------------------- */

static void eventfd_signal_one(int efd)
{
	uint64_t one = 1;

	/* eventfd_signal(): a full counter drops the signal, as the kernel's. */
	if (write(efd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		g_debug("eventfd write: %s", g_strerror(errno));
}

int fs_task_status(pid_t pid, const char *key, unsigned nth, unsigned base,
		   unsigned long long *val)
{
	char path[64], line[256];
	size_t len = strlen(key);
	int found = 0;
	FILE *f;

	g_snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + len + 1, *end;

		if (strncmp(line, key, len) || line[len] != ':')
			continue;
		for (unsigned i = 0;; i++, p = end) {
			while (*p == ' ' || *p == '\t')
				p++;
			*val = fs_simple_strtoull(p, base, &end);
			if (end == p || i == nth) {
				found = end != p;
				break;
			}
		}
		break;
	}
	fclose(f);
	return found;
}

bool fs_task_capable(pid_t pid, uid_t uid, unsigned cap)
{
	unsigned long long eff = 0;
	int found = fs_task_status(pid, "CapEff", 0, 16, &eff);

	if (found < 0)
		return uid == 0;
	return found && (eff >> cap) & 1;
}

/* FUSE reports the writing thread, and pidfd_open() before Linux 6.9
 * takes only a thread group leader. */
pid_t fs_task_tgid(pid_t tid)
{
	unsigned long long tgid;

	return fs_task_status(tid, "Tgid", 0, 10, &tgid) == 1 ? (pid_t)tgid : tid;
}

int fs_task_stat(pid_t pid, unsigned long long *ppid, unsigned long long *flags)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	g_snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: the fields follow the last
	 * ')': state, ppid, pgrp, session, tty_nr, tpgid, flags (fields 3
	 * to 9 of proc_pid_stat(5)). */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %llu %*d %*d %*d %*d %llu", ppid, flags) != 2)
		return -1;
	return 0;
}

/* The path of fd `fd` of process tgid in /proc, or false if fd is no fd
 * number at all. */
static bool writer_fd_path(pid_t tgid, unsigned long fd, char *path, size_t size)
{
	if (fd > INT_MAX)
		return false;
	g_snprintf(path, size, "/proc/%d/fd/%lu", (int)tgid, fd);
	return true;
}

/* Is the fd at /proc path `path` an eventfd (its link names one)?  1, 0
 * for any other file, -1 if there is no such fd. */
static int link_is_eventfd(const char *path)
{
	char target[64];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return -1;
	target[n] = '\0';
	return strcmp(target, "anon_inode:[eventfd]") == 0;
}

/* fdget(efd) and eventfd_ctx_fileget() of the writer's fd, from its link
 * alone: 0 for an eventfd, -EBADF if the fd is not open, -EINVAL for any
 * other file.  Opens nothing. */
static int writer_fd_eventfd(pid_t tgid, unsigned long fd)
{
	char path[64];

	if (!writer_fd_path(tgid, fd, path, sizeof(path)))
		return -EBADF;
	switch (link_is_eventfd(path)) {
	case 1:
		return 0;
	case 0:
		return -EINVAL;
	default:
		return -EBADF;
	}
}

/* fdget(cfd) and the file's attributes, as cached: 0, -EBADF if the fd is
 * not open, -EINVAL if its file cannot be looked at (another FUSE mount
 * that lets no other user in), which cannot be this mount's.  Opens
 * nothing and asks no file system: AT_STATX_DONT_SYNC. */
static int writer_fd_statx(pid_t tgid, unsigned long fd, struct statx *stx)
{
	char path[64];

	if (!writer_fd_path(tgid, fd, path, sizeof(path)))
		return -EBADF;
	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_MODE | STATX_INO | STATX_UID | STATX_GID, stx) == 0)
		return 0;
	return errno == ENOENT ? -EBADF : -EINVAL;
}

static bool is_eventfd(int fd)
{
	char path[64];

	g_snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return link_is_eventfd(path) == 1;
}

static atomic_uint late_closes;

static void *close_late_thread(void *arg)
{
	close(GPOINTER_TO_INT(arg));
	atomic_fetch_sub(&late_closes, 1);
	return NULL;
}

/* Closes fd on a thread of its own: its close may wait on a FUSE server
 * the writer controls.  Counted in late_closes, which the caller raised. */
static void close_late(int fd)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, close_late_thread, GINT_TO_POINTER(fd)) != 0) {
		/* No thread to spare: keep the fd rather than block. */
		g_warning("cannot close fd %d off the request path; kept open", fd);
		atomic_fetch_sub(&late_closes, 1);
	}
	pthread_attr_destroy(&attr);
}

/* The writer of tgid (uid), a reference; NULL if it cannot be watched.
 * A listed writer seen to have exited is unlisted (its pid may be
 * another process's now).  notify_lock held. */
static struct fs_writer *writer_get(struct mcgfs *fs, pid_t tgid, uid_t uid)
{
	struct fs_writer *w = g_hash_table_lookup(fs->writers, GINT_TO_POINTER(tgid));

	if (w) {
		struct pollfd exited = { .fd = w->pidfd, .events = POLLIN };

		if (poll(&exited, 1, 0) == 0) {
			w->refs++;
			return w;
		}
		g_hash_table_remove(fs->writers, GINT_TO_POINTER(tgid));
		w->listed = false;
	}
	w = g_new0(struct fs_writer, 1);
	w->pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	if (w->pidfd < 0) {
		g_free(w);
		return NULL;
	}
	w->tgid = tgid;
	w->uid = uid;
	w->refs = 1;
	w->listed = true;
	g_hash_table_insert(fs->writers, GINT_TO_POINTER(tgid), w);
	return w;
}

/* notify_lock held. */
static void writer_put(struct mcgfs *fs, struct fs_writer *w)
{
	if (--w->refs)
		return;
	if (w->listed)
		g_hash_table_remove(fs->writers, GINT_TO_POINTER(w->tgid));
	close(w->pidfd);
	g_free(w);
}

/* An event's end: its eventfd copy closed (an eventfd's close waits on
 * nothing), its writer let go.  notify_lock held. */
static void event_free(struct mcgfs *fs, struct fs_event *ev)
{
	close(ev->efd);
	writer_put(fs, ev->writer);
}

/* Registrations of uid's processes.  notify_lock held. */
static unsigned events_of_uid(struct mcgfs *fs, uid_t uid)
{
	unsigned n = 0;

	for (unsigned i = 0; i < fs->events->len; i++)
		n += g_array_index(fs->events, struct fs_event, i).writer->uid == uid;
	return n;
}

/* file_permission(cfile, MAY_READ) for the writer, from the file's mode
 * and owner (supplementary groups are not known here). */
static bool may_read(mode_t mode, uid_t uid, gid_t gid, const struct fs_call *c)
{
	if (c->uid == 0)
		return true;
	if (c->uid == uid)
		return mode & 0400;
	if (c->gid == gid)
		return mode & 0040;
	return mode & 0004;
}

static unsigned long usage_pages(struct mcg_cgroup *cg, bool memsw)
{
	return mcg_counter_read(cg, memsw ? MCG_COUNTER_MEMSW : MCG_COUNTER_MEMORY,
				MCG_FIELD_USAGE);
}

/* OOMs of cg and its ancestors: mem_cgroup_oom_notify() signals a memcg's
 * listeners and those of every memcg below it. */
static uint64_t ooms_above(struct mcg_cgroup *cg)
{
	uint64_t n = 0;

	for (; cg; cg = mcg_cgroup_parent(cg))
		n += mcg_memory_event_read(cg, MCG_MEMORY_OOM, true);
	return n;
}

/* vmpressure_register_event(): "level[,mode]". */
static int parse_vmpressure(const char *args, struct fs_event *ev)
{
	static const char *const levels[] = { "low", "medium", "critical" };
	static const char *const modes[] = { "default", "hierarchy", "local" };
	/* MAX_VMPRESSURE_ARGS_LEN: kstrndup() keeps that much. */
	g_autofree char *spec = g_strndup(args, strlen("critical") + strlen("hierarchy") + 2);
	char *rest = spec, *tok = strsep(&rest, ",");
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(levels) && strcmp(tok, levels[i]); i++)
		;
	if (i == G_N_ELEMENTS(levels))
		return -EINVAL;
	ev->level = i;
	ev->mode = VMP_DEFAULT;
	tok = strsep(&rest, ",");
	if (tok) {
		for (i = 0; i < G_N_ELEMENTS(modes) && strcmp(tok, modes[i]); i++)
			;
		if (i == G_N_ELEMENTS(modes))
			return -EINVAL;
		ev->mode = (enum vmpressure_mode)i;
	}
	return 0;
}

int fs_event_control(struct fs_call *c, unsigned long efd, unsigned long cfd, const char *args)
{
	struct mcgfs *fs = c->fs;
	struct fs_event ev = { .id = c->node->id, .efd = -1, .writer_fd = (int)efd };
	pid_t tgid = fs_task_tgid(c->pid);
	struct fs_writer *w;
	struct statx stx;
	const char *name;
	unsigned idx;
	int err, copy;

	/* The kernel's order (memcg_write_event_control()): the eventfd,
	 * then the control file; each looked at in the writer's fd table
	 * (see "Notification" above), nothing opened. */
	err = writer_fd_eventfd(tgid, efd);
	if (err)
		return err;
	err = writer_fd_statx(tgid, cfd, &stx);
	if (err)
		return err;
	/* file_permission(cfile, MAY_READ) first, whatever the file. */
	if (!may_read(stx.stx_mode, stx.stx_uid, stx.stx_gid, c))
		return -EACCES;
	/* A regular file of this mount (the kernel: of cgroup_fs_type). */
	if (!S_ISREG(stx.stx_mode) || makedev(stx.stx_dev_major, stx.stx_dev_minor) != fs->dev)
		return -EINVAL;
	idx = (unsigned)(stx.stx_ino & (FS_IDX_LIMIT - 1));
	if (idx == 0 || idx > fs->nr_files)
		return -EINVAL;
	name = fs->files[idx - 1].name;
	if (!strcmp(name, "memory.usage_in_bytes") || !strcmp(name, "memory.memsw.usage_in_bytes"))
		ev.kind = strstr(name, "memsw") ? EVENT_MEMSW : EVENT_USAGE;
	else if (!strcmp(name, "memory.oom_control"))
		ev.kind = EVENT_OOM;
	else if (!strcmp(name, "memory.pressure_level"))
		ev.kind = EVENT_PRESSURE;
	else
		return -EINVAL;
	/* css_tryget_online_from_dir(): the control file's own cgroup. */
	if ((stx.stx_ino >> FS_IDX_BITS) != c->node->id)
		return -EINVAL;
	switch (ev.kind) {
	case EVENT_USAGE:
	case EVENT_MEMSW:
		/* __mem_cgroup_usage_register_event() */
		err = fs_page_counter_memparse(args, "-1", &ev.threshold);
		if (err)
			return err;
		ev.last_usage = usage_pages(c->cg, ev.kind == EVENT_MEMSW);
		break;
	case EVENT_OOM:
		/* mem_cgroup_oom_register_event() signals at once a memcg
		 * under OOM; the emulated OOM killer acts at once, so none is
		 * (memory.oom_control reads under_oom 0). */
		ev.last_count = ooms_above(c->cg);
		break;
	case EVENT_PRESSURE:
		err = parse_vmpressure(args, &ev);
		if (err)
			return err;
		break;
	}
	pthread_mutex_lock(&fs->notify_lock);
	if (events_of_uid(fs, c->uid) >= fs->opt->event_limit) {
		err = -ENOMEM;
		goto out;
	}
	if (atomic_load(&late_closes) >= MAX_LATE_CLOSES) {
		err = -EAGAIN;
		goto out;
	}
	w = writer_get(fs, tgid, c->uid);
	if (!w) {
		err = -ESRCH;
		goto out;
	}
	copy = (int)syscall(SYS_pidfd_getfd, w->pidfd, (int)efd, 0);
	if (copy < 0) {
		err = -EBADF;
	} else if (!is_eventfd(copy)) {
		/* Swapped since it was looked at: not ours to wait on. */
		atomic_fetch_add(&late_closes, 1);
		close_late(copy);
		err = -EINVAL;
	} else {
		ev.efd = copy;
		ev.writer = w;
		w = NULL;
		ev.next_liveness_ns = fs_monotonic_ns() + EVENT_LIVENESS_NS;
		g_array_append_val(fs->events, ev);
		err = 0;
	}
	if (w)
		writer_put(fs, w);
out:
	pthread_mutex_unlock(&fs->notify_lock);
	return err;
}

/* Does the writer still hold ev's eventfd at the number it registered, and
 * live?  kcmp(2) compares the two files; where it cannot tell (a kernel
 * without it), the event stays until the writer exits. */
static bool event_writer_holds(struct fs_event *ev)
{
	struct pollfd exited = { .fd = ev->writer->pidfd, .events = POLLIN };
	long same;

	if (poll(&exited, 1, 0) == 1)
		return false;
	same = syscall(SYS_kcmp, (pid_t)getpid(), ev->writer->tgid, KCMP_FILE, ev->efd,
		       ev->writer_fd);
	if (same == 0)
		return true;
	return same < 0 && errno != EBADF && errno != ESRCH;
}

/* One event's check; false when its cgroup went (signalled, to drop). */
static bool event_check(struct mcgfs *fs, struct fs_event *ev)
{
	struct mcg_cgroup *cg;
	struct fs_node *n;
	uint64_t now = fs_monotonic_ns();

	/* The kernel drops an event when its eventfd is closed
	 * (memcg_event_wake() on EPOLLHUP), which the daemon's copy hides:
	 * the writer's fd closed or the writer gone show it. */
	if (now >= ev->next_liveness_ns) {
		ev->next_liveness_ns = now + EVENT_LIVENESS_NS;
		if (!event_writer_holds(ev))
			return false;
	}

	pthread_mutex_lock(&fs->lock);
	n = g_hash_table_lookup(fs->nodes, &ev->id);
	cg = n ? mcg_cgroup_get(n->cg) : NULL;
	pthread_mutex_unlock(&fs->lock);
	if (!cg || !mcg_cgroup_online(cg)) {
		eventfd_signal_one(ev->efd);	/* memcg_event_remove() */
		if (cg)
			mcg_cgroup_put(cg);
		return false;
	}
	switch (ev->kind) {
	case EVENT_USAGE:
	case EVENT_MEMSW: {
		unsigned long usage = usage_pages(cg, ev->kind == EVENT_MEMSW);

		if ((ev->threshold <= usage) != (ev->threshold <= ev->last_usage))
			eventfd_signal_one(ev->efd);
		ev->last_usage = usage;
		break;
	}
	case EVENT_OOM: {
		uint64_t ooms = ooms_above(cg);

		if (ooms != ev->last_count)
			eventfd_signal_one(ev->efd);
		ev->last_count = ooms;
		break;
	}
	case EVENT_PRESSURE:		/* vmpressure_dispatch() */
		break;
	}
	mcg_cgroup_put(cg);
	return true;
}

/* vmpressure_work_fn() after the level is known: vmpressure_event() for the
 * target, then for each ancestor, skipping an ancestor's "local" listeners,
 * and its "default" ones once a listener below was signalled.  Called with
 * notify_lock held. */
static void vmpressure_dispatch(struct mcg_cgroup *target, enum mcg_vmpressure_level level,
				void *arg)
{
	struct mcgfs *fs = arg;
	bool ancestor = false, signalled = false;

	for (struct mcg_cgroup *c = target; c; c = mcg_cgroup_parent(c)) {
		uint64_t id = mcg_cgroup_id(c);
		bool ret = false;

		for (unsigned i = 0; i < fs->events->len; i++) {
			struct fs_event *ev = &g_array_index(fs->events, struct fs_event, i);

			if (ev->kind != EVENT_PRESSURE || ev->id != id ||
			    (ancestor && ev->mode == VMP_LOCAL) ||
			    (signalled && ev->mode == VMP_DEFAULT) || level < ev->level)
				continue;
			eventfd_signal_one(ev->efd);
			ret = true;
		}
		signalled = signalled || ret;
		ancestor = true;
	}
}

/* ---- Removed directories ------------------------------------------------------ */

struct fs_removed {
	struct fs_node *node;	/* compared only: it may be gone */
	uint64_t dir;		/* its directory's inode */
};

void fs_notify_removed(struct mcgfs *fs, struct fs_node *n, uint64_t dir)
{
	struct fs_removed r = { n, dir };

	pthread_mutex_lock(&fs->notify_lock);
	g_array_append_val(fs->removed_dirs, r);
	pthread_mutex_unlock(&fs->notify_lock);
}

/* Drops the queued directories' entries, with notify_lock let go: the
 * kernel waits for each directory's inode lock, which a request in flight
 * there may hold until the daemon answers it. */
static void drop_removed(struct mcgfs *fs)
{
	GArray *q = fs->removed_dirs;

	if (!q->len)
		return;
	fs->removed_dirs = g_array_new(FALSE, FALSE, sizeof(struct fs_removed));
	pthread_mutex_unlock(&fs->notify_lock);
	for (unsigned i = 0; i < q->len; i++) {
		struct fs_removed *r = &g_array_index(q, struct fs_removed, i);

		fs_drop_removed_entries(fs, r->node, r->dir);
	}
	g_array_free(q, TRUE);
	pthread_mutex_lock(&fs->notify_lock);
}

/* ---- The notifier thread ------------------------------------------------------ */

static void *notifier(void *arg)
{
	struct mcgfs *fs = arg;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&fs->notify_lock);
	while (!fs->notify_stop) {
		next.tv_nsec += NOTIFY_INTERVAL_NS;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		pthread_cond_timedwait(&fs->notify_cond, &fs->notify_lock, &next);
		if (fs->notify_stop)
			break;
		uint64_t now = mcg_engine_clock_ns(fs->e);

		/* The periodic averaging, and for triggers one collection a
		 * tick that every trigger reads. */
		mcg_workload_psi_update(fs->wl);
		if (fs->psi_triggers->len)
			mcg_workload_psi_collect(fs->wl);
		for (unsigned i = 0; i < fs->psi_triggers->len; i++)
			psi_trigger_check(fs, g_ptr_array_index(fs->psi_triggers, i), now);
		for (unsigned i = 0; i < fs->pollers->len;) {
			struct fs_open *of = g_ptr_array_index(fs->pollers, i);
			/* A cgroup removed wakes its pollers, a PSI trigger's
			 * too (psi_trigger_destroy(): wake_up_pollfree()),
			 * whose poll then answers POLLERR|POLLPRI. */
			bool woken = !fs_node_online(of->node) ||
				     (fs_file_notifies(of->file)
					      ? render_hash(fs, of) != atomic_load(&of->seen)
					      : of->psi_event);

			if (!woken) {
				i++;
				continue;
			}
			fuse_lowlevel_notify_poll(of->ph);
			fuse_pollhandle_destroy(of->ph);
			of->ph = NULL;
			g_ptr_array_remove_index_fast(fs->pollers, i);
		}
		drop_removed(fs);
		mcg_workload_vmpressure_work(fs->wl, vmpressure_dispatch, fs);
		for (unsigned i = 0; i < fs->events->len;) {
			struct fs_event *ev = &g_array_index(fs->events, struct fs_event, i);

			if (event_check(fs, ev)) {
				i++;
				continue;
			}
			event_free(fs, ev);
			g_array_remove_index_fast(fs->events, i);
		}
	}
	pthread_mutex_unlock(&fs->notify_lock);
	return NULL;
}

void fs_notify_init(struct mcgfs *fs)
{
	pthread_mutex_init(&fs->notify_lock, NULL);
	fs->pollers = g_ptr_array_new();
	fs->events = g_array_new(FALSE, FALSE, sizeof(struct fs_event));
	fs->writers = g_hash_table_new(NULL, NULL);
	fs->psi_triggers = g_ptr_array_new();
	fs->removed_dirs = g_array_new(FALSE, FALSE, sizeof(struct fs_removed));
}

void fs_notify_free(struct mcgfs *fs)
{
	fs_notify_stop(fs);
	g_ptr_array_free(fs->pollers, TRUE);
	g_array_free(fs->events, TRUE);
	g_hash_table_destroy(fs->writers);
	g_ptr_array_free(fs->psi_triggers, TRUE);
	g_array_free(fs->removed_dirs, TRUE);
	pthread_mutex_destroy(&fs->notify_lock);
}

int fs_notify_start(struct mcgfs *fs)
{
	pthread_condattr_t attr;
	int err;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&fs->notify_cond, &attr);
	pthread_condattr_destroy(&attr);
	fs->notify_stop = false;
	err = pthread_create(&fs->notify_thread, NULL, notifier, fs);
	if (err)
		return -err;
	pthread_setname_np(fs->notify_thread, "notify");
	fs->notify_running = true;
	return 0;
}

void fs_notify_stop(struct mcgfs *fs)
{
	if (!fs->notify_running)
		return;
	pthread_mutex_lock(&fs->notify_lock);
	fs->notify_stop = true;
	pthread_cond_signal(&fs->notify_cond);
	pthread_mutex_unlock(&fs->notify_lock);
	pthread_join(fs->notify_thread, NULL);
	fs->notify_running = false;
	pthread_cond_destroy(&fs->notify_cond);
	/* Listeners hear that their events go, as on cgroup removal. */
	for (unsigned i = 0; i < fs->events->len; i++) {
		struct fs_event *ev = &g_array_index(fs->events, struct fs_event, i);

		eventfd_signal_one(ev->efd);
		event_free(fs, ev);
	}
	g_array_set_size(fs->events, 0);
	for (unsigned i = 0; i < fs->pollers->len; i++) {
		struct fs_open *of = g_ptr_array_index(fs->pollers, i);

		fuse_pollhandle_destroy(of->ph);
		of->ph = NULL;
	}
	g_ptr_array_set_size(fs->pollers, 0);
	g_ptr_array_set_size(fs->psi_triggers, 0);
}
