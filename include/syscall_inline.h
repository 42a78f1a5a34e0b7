/* SPDX-License-Identifier: MIT */
/*
 * A system call made where it is written: the instruction itself, inlined into its caller, never a
 * function (glibc's syscall(), a library's wrapper) that the caller calls before the system call and
 * that returns to it after. Measured on an AMD EPYC VM (docs/performance.md): when the system call
 * sleeps, a return across it costs about 0.7 us per call, some 10 % of a request that io_uring punts
 * to its workers; a call made after it costs nothing. The worker's hot loop makes its engine's waits
 * this way (engine.h, reap_call).
 */
#ifndef SSDBENCH_SYSCALL_INLINE_H
#define SSDBENCH_SYSCALL_INLINE_H

#include <errno.h>
#include <unistd.h>

/* A system call's number and its six arguments (unused ones 0). */
struct sys_call {
	long nr;
	long arg[6];
};

/* Makes call; returns what the kernel returned: >= 0, or -errno. */
static inline __attribute__((always_inline)) long sys_call_inline(const struct sys_call *call)
{
#if defined(__x86_64__)
	long ret;
	register long r10 __asm__("r10") = call->arg[3];
	register long r8 __asm__("r8") = call->arg[4];
	register long r9 __asm__("r9") = call->arg[5];

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(call->nr), "D"(call->arg[0]), "S"(call->arg[1]), "d"(call->arg[2]), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = call->nr;
	register long x0 __asm__("x0") = call->arg[0];
	register long x1 __asm__("x1") = call->arg[1];
	register long x2 __asm__("x2") = call->arg[2];
	register long x3 __asm__("x3") = call->arg[3];
	register long x4 __asm__("x4") = call->arg[4];
	register long x5 __asm__("x5") = call->arg[5];

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
	return x0;
#else
	/* Elsewhere through libc: correct, with the return across the call. */
	long ret = syscall(call->nr, call->arg[0], call->arg[1], call->arg[2], call->arg[3], call->arg[4],
			   call->arg[5]);

	return ret < 0 ? -errno : ret;
#endif
}

#endif
