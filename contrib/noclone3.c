/* SPDX-License-Identifier: GPL-2.0-or-later */
/* noclone3 COMMAND [ARG]...: runs COMMAND with clone3(2) answering ENOSYS,
 * as a kernel before 5.3 or a container's seccomp profile does.
 *
 * The kernel's cgroup selftests start children with
 * clone3(CLONE_INTO_CGROUP) when the kernel has it and fall back to fork()
 * and a write to cgroup.procs on ENOSYS.  A directory of a FUSE mount is
 * no cgroup, so the kernel answers EBADF, which they take for a failure.
 * contrib/selftests.sh runs each test unmodified and, through this, with
 * that one fallback.  glibc's fork() and pthread_create() fall back to
 * clone(2) on ENOSYS themselves. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	if (argc < 2) {
		fprintf(stderr, "usage: noclone3 COMMAND [ARG]...\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		fprintf(stderr, "noclone3: seccomp: %s\n", strerror(errno));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "noclone3: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
