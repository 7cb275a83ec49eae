/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Daemons and files of an experiment: a memcgfs mounted in the foreground
 * as our child, so that its CPU time can be read and it can be stopped
 * while the other side of a pair runs. */
#include "experiment/experiment.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FUSE_SUPER_MAGIC 0x65735546

double exp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double exp_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double exp_loadavg(void)
{
	double load = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	if (load > (double)sysconf(_SC_NPROCESSORS_ONLN))
		fprintf(stderr, "experiment: warning: load average %.2f exceeds the %ld CPUs; "
				"figures may be noisy\n",
			load, sysconf(_SC_NPROCESSORS_ONLN));
	return load;
}

static bool is_mounted(const char *mnt)
{
	struct statfs st;

	return statfs(mnt, &st) == 0 && (unsigned long)st.f_type == FUSE_SUPER_MAGIC;
}

int exp_daemon_start(struct exp_daemon *d, const struct exp_options *o, const char *parent,
		     const char *tag, const char *const *opts)
{
	GPtrArray *argv = g_ptr_array_new();
	int status;

	memset(d, 0, sizeof(*d));
	d->mnt = g_strdup_printf("%s/%s", parent, tag);
	if (mkdir(d->mnt, 0755) && errno != EEXIST) {
		fprintf(stderr, "experiment: mkdir %s: %s\n", d->mnt, strerror(errno));
		goto fail;
	}
	g_ptr_array_add(argv, (char *)o->memcgfs);
	g_ptr_array_add(argv, (char *)"-f");
	g_ptr_array_add(argv, d->mnt);
	for (; *opts; opts++)
		g_ptr_array_add(argv, (char *)*opts);
	g_ptr_array_add(argv, NULL);
	d->pid = fork();
	if (d->pid < 0) {
		perror("experiment: fork");
		goto fail;
	}
	if (d->pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		/* Killed with us, even stopped: an interrupted experiment
		 * leaves a dead mount (ENOTCONN), never a hanging one. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execvp(o->memcgfs, (char **)argv->pdata);
		fprintf(stderr, "experiment: %s: %s\n", o->memcgfs, strerror(errno));
		_exit(127);
	}
	for (int tries = 0; tries < 1000; tries++) {
		if (is_mounted(d->mnt)) {
			/* A v1 root is 0555, as the kernel's: root makes the
			 * seed's cgroups whatever the mode; a normal user gives
			 * the top to itself, as root delegating would.  The
			 * stat first: until the root's first GETATTR the FUSE
			 * kernel holds it as root's (fuse_get_root_inode()),
			 * and chmod by its owner would get EPERM. */
			struct stat st;

			if (geteuid() != 0 && (stat(d->mnt, &st) != 0 || chmod(d->mnt, 0755) != 0))
				fprintf(stderr, "experiment: chmod %s: %s\n", d->mnt, strerror(errno));
			g_ptr_array_free(argv, TRUE);
			return 0;
		}
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			fprintf(stderr, "experiment: %s did not mount %s\n", o->memcgfs, d->mnt);
			d->pid = 0;
			goto fail;
		}
		g_usleep(10 * 1000);
	}
	fprintf(stderr, "experiment: %s: no mount after 10 s\n", d->mnt);
	exp_daemon_stop(d);
	g_ptr_array_free(argv, TRUE);
	return -1;
fail:
	g_ptr_array_free(argv, TRUE);
	if (d->mnt)
		rmdir(d->mnt);
	g_free(d->mnt);
	d->mnt = NULL;
	return -1;
}

void exp_daemon_stop(struct exp_daemon *d)
{
	if (!d->mnt)
		return;
	if (d->pid > 0) {
		exp_daemon_pause(d, false);
		/* The daemon ends its session when the mount goes. */
		if (umount2(d->mnt, 0) != 0) {
			char *cmd = g_strdup_printf("fusermount3 -u '%s' 2>/dev/null", d->mnt);

			if (system(cmd) != 0)
				kill(d->pid, SIGTERM);
			g_free(cmd);
		}
		waitpid(d->pid, NULL, 0);
	}
	rmdir(d->mnt);
	g_free(d->mnt);
	memset(d, 0, sizeof(*d));
}

void exp_daemon_pause(struct exp_daemon *d, bool stop)
{
	if (d->pid <= 0 || d->stopped == stop)
		return;
	kill(d->pid, stop ? SIGSTOP : SIGCONT);
	d->stopped = stop;
}

uint64_t exp_daemon_cpu_ns(const struct exp_daemon *d, const char *prefix)
{
	char dir[64];
	DIR *tasks;
	struct dirent *t;
	uint64_t sum = 0;

	g_snprintf(dir, sizeof(dir), "/proc/%d/task", (int)d->pid);
	tasks = opendir(dir);
	if (!tasks)
		return 0;
	while ((t = readdir(tasks))) {
		char path[128], buf[128];
		unsigned long long ns;

		if (t->d_name[0] == '.')
			continue;
		if (prefix) {
			g_snprintf(path, sizeof(path), "%s/%s/comm", dir, t->d_name);
			if (exp_read(path, buf, sizeof(buf)) <= 0 ||
			    strncmp(buf, prefix, strlen(prefix)))
				continue;
		}
		g_snprintf(path, sizeof(path), "%s/%s/schedstat", dir, t->d_name);
		if (exp_read(path, buf, sizeof(buf)) > 0 && sscanf(buf, "%llu", &ns) == 1)
			sum += ns;
	}
	closedir(tasks);
	return sum;
}

int exp_mkdir(const struct exp_daemon *d, const char *rel)
{
	char *path = g_strdup_printf("%s/%s", d->mnt, rel);
	int rc = mkdir(path, 0755);

	if (rc)
		fprintf(stderr, "experiment: mkdir %s: %s\n", path, strerror(errno));
	g_free(path);
	return rc ? -1 : 0;
}

int exp_write(const struct exp_daemon *d, const char *rel, const char *text)
{
	char *path = g_strdup_printf("%s/%s", d->mnt, rel);
	int fd = open(path, O_WRONLY);
	ssize_t len = (ssize_t)strlen(text);
	int rc = 0;

	if (fd < 0 || write(fd, text, (size_t)len) != len) {
		fprintf(stderr, "experiment: write '%s' to %s: %s\n", text, path, strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	g_free(path);
	return rc;
}

ssize_t exp_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t got;

	if (fd < 0)
		return -1;
	/* To EOF, as cat does: the last read returns 0. */
	while ((got = read(fd, buf + len, size - 1 - len)) > 0) {
		len += (size_t)got;
		if (len == size - 1) {
			char sink[4096];

			while ((got = read(fd, sink, sizeof(sink))) > 0)
				;
			break;
		}
	}
	close(fd);
	if (got < 0)
		return -1;
	buf[len] = '\0';
	return (ssize_t)len;
}

/* Reads file rel of the mount into buf and returns what follows "key " at
 * the start of a line, or NULL (a failed read is reported). */
static const char *keyed_line(const struct exp_daemon *d, const char *rel, const char *key,
			      char *buf, size_t size)
{
	char *path = g_strdup_printf("%s/%s", d->mnt, rel);
	size_t klen = strlen(key);
	const char *found = NULL;

	if (exp_read(path, buf, size) >= 0) {
		for (char *line = buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
			if (!strncmp(line, key, klen) && line[klen] == ' ') {
				found = line + klen + 1;
				break;
			}
	} else {
		fprintf(stderr, "experiment: read %s: %s\n", path, strerror(errno));
	}
	g_free(path);
	return found;
}

double exp_keyed(const struct exp_daemon *d, const char *rel, const char *key)
{
	char buf[16384];
	const char *v = keyed_line(d, rel, key, buf, sizeof(buf));

	return v ? strtod(v, NULL) : NAN;
}

double exp_value(const struct exp_daemon *d, const char *rel)
{
	char *path = g_strdup_printf("%s/%s", d->mnt, rel), buf[64];
	double v = exp_read(path, buf, sizeof(buf)) > 0 ? strtod(buf, NULL) : NAN;

	g_free(path);
	return v;
}

void exp_read_stats(const struct exp_daemon *d, const char *name, double *renders, double *ns)
{
	char buf[16384];
	const char *v = keyed_line(d, "memcgfs.read_stats", name, buf, sizeof(buf));

	*renders = *ns = 0;
	if (v)
		sscanf(v, "%lf %lf", renders, ns);
}

/* The median thread CPU time, in ns per page, of faulting in and unmapping
 * 64 MiB of private anonymous memory in small pages on this machine. */
double exp_real_fault_ns(void)
{
	const size_t len = 64u << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	double ns[7];
	unsigned n = 0;

	for (int round = -1; round < (int)G_N_ELEMENTS(ns); round++) {
		double t0 = exp_thread_cpu_ns();
		char *m;

		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return NAN;
		madvise(m, len, MADV_NOHUGEPAGE);
		for (size_t off = 0; off < len; off += page)
			((volatile char *)m)[off] = 1;
		munmap(m, len);
		if (round >= 0)
			ns[n++] = (exp_thread_cpu_ns() - t0) / (double)(len / page);
	}
	return exp_median(ns, n);
}
