/* SPDX-License-Identifier: MIT */
/*
 * Sets of CPUs and their text, the kernel's cpulist ("0-3,8", as sysfs and /proc write them): parsed,
 * written back canonically, combined, and to and from the C library's cpu_set_t. No I/O but
 * cpuset_allowed's system call; the online set is the caller's to read.
 */
#ifndef SSDBENCH_CPULIST_H
#define SSDBENCH_CPULIST_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPUs 0..CPUSET_MAX-1: as many as glibc's cpu_set_t holds. */
#define CPUSET_MAX 1024
#define CPUSET_WORDS (CPUSET_MAX / 64)
/* The longest canonical text of a set: every other CPU, "0,2,4,...,1022", with its NUL. */
#define CPUSET_TEXT_MAX 4096

struct cpuset {
	uint64_t bits[CPUSET_WORDS];
};

/*
 * Parses a cpulist: items "N" or "N-M" (N <= M) separated by commas, blanks and a final newline
 * allowed (what sysfs writes), every CPU below CPUSET_MAX. Returns 0, or -EINVAL with err saying
 * what is wrong ("'5-2': a range from high to low"). An empty text is -EINVAL unless allow_empty
 * (sysfs writes an empty line for a node without CPUs).
 */
int cpuset_parse(const char *text, bool allow_empty, struct cpuset *s, char *err, size_t errlen);

/* The canonical text of s ("0-3,8"; "" for an empty set) into buf. Returns buf. */
const char *cpuset_format(const struct cpuset *s, char *buf, size_t len);

void cpuset_clear(struct cpuset *s);
void cpuset_add(struct cpuset *s, unsigned cpu);   /* cpu >= CPUSET_MAX is ignored */
bool cpuset_has(const struct cpuset *s, unsigned cpu);
unsigned cpuset_count(const struct cpuset *s);
bool cpuset_empty(const struct cpuset *s);
bool cpuset_equal(const struct cpuset *a, const struct cpuset *b);
/* The CPU of rank n (0-based, in ascending order) of s, or -1 where s has n or fewer. */
int cpuset_nth(const struct cpuset *s, unsigned n);
/* a becomes a AND b, or a OR b. */
void cpuset_and(struct cpuset *a, const struct cpuset *b);
void cpuset_or(struct cpuset *a, const struct cpuset *b);
/* The lowest CPU of a that b lacks, or -1 where a is a subset of b. */
int cpuset_first_missing(const struct cpuset *a, const struct cpuset *b);
/* The first CPU of a that b lacks from CPU from upward, around past the last to 0 and on; -1 where none. */
int cpuset_next_missing(const struct cpuset *a, const struct cpuset *b, unsigned from);

/* The C library's sets (CPU_SET's, sched_setaffinity's) from and to ours; CPUSET_MAX bits either way. */
void cpuset_from_cpu_set(struct cpuset *s, const cpu_set_t *set);
void cpuset_to_cpu_set(const struct cpuset *s, cpu_set_t *set);

/* The CPUs the calling thread may run on (sched_getaffinity). Returns 0 or -errno. */
int cpuset_allowed(struct cpuset *s);

#endif
