// SPDX-License-Identifier: MIT
/* The drive's health read from the device: libnvme's log pages, or smartctl --json; a run's record of it. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libnvme.h>

#include "errmsg.h"
#include "grow.h"
#include "health_dev.h"

#define OCP_C0_LID 0xc0
/* smartctl -a of a disk is some tens of KiB; more than this is not smartctl's output. */
#define SMARTCTL_MAX (4u << 20)

unsigned health_smartctl_timeout_ms = 30000;

enum health_source health_source_of(const struct devinfo *di)
{
	static const char *const smartctl[] = { "sata", "sas", "scsi" };

	if (!strcmp(di->transport, "nvme"))
		return HEALTH_SRC_NVME;
	for (size_t i = 0; i < sizeof(smartctl) / sizeof(smartctl[0]); i++)
		if (!strcmp(di->transport, smartctl[i]))
			return HEALTH_SRC_SMARTCTL;
	return HEALTH_SRC_NONE;
}

/* A libnvme return (>0 an NVMe status, -1 with errno) as -errno, with a message. */
static int nvme_fail(const struct health_dev *hd, const char *what, int ret, char *err, size_t errlen)
{
	int e = ret < 0 ? errno : 0;

	if (ret > 0)
		return errmsg_set(err, errlen, -EIO,
				  "'%s': the drive refused the %s (NVMe status 0x%x)", hd->path, what, ret);
	if (e == EACCES || e == EPERM)
		snprintf(err, errlen, "'%s': reading the %s needs CAP_SYS_ADMIN (run as root)", hd->path, what);
	else
		snprintf(err, errlen, "'%s': cannot read the %s: %s", hd->path, what, strerror(e ? e : EIO));
	return e ? -e : -EIO;
}

/* The SMART / Health Information log (02h) of the controller, decoded into s. */
static int read_smart(struct health_dev *hd, struct health_snapshot *s, char *err, size_t errlen)
{
	struct nvme_smart_log log;
	int ret;

	/* rae: leave the drive's asynchronous events to the kernel, which reads this log too. */
	ret = nvme_get_log_smart(hd->fd, NVME_NSID_ALL, true, &log);
	if (ret)
		return nvme_fail(hd, "SMART log (02h)", ret, err, errlen);
	return health_decode_smart(s, &log, sizeof(log), err, errlen);
}

/* Log C0h, added to s where it is OCP's page. */
static int read_c0(struct health_dev *hd, struct health_snapshot *s, char *err, size_t errlen)
{
	unsigned char buf[HEALTH_LOG_LEN];
	int ret = nvme_get_log_simple(hd->fd, (enum nvme_cmd_get_log_lid)OCP_C0_LID, sizeof(buf), buf);

	if (ret)
		return nvme_fail(hd, "OCP extended SMART log (C0h)", ret, err, errlen);
	return health_decode_ocp_c0(s, buf, sizeof(buf), err, errlen);
}

int health_dev_open(struct health_dev *hd, const struct target *t, char *err, size_t errlen)
{
	struct health_snapshot s;
	char e2[256];
	int ret;

	*hd = (struct health_dev){ .source = HEALTH_SRC_NONE, .fd = -1 };
	if (!t->has_devinfo)
		return errmsg_set(err, errlen, -ENODEV, "'%s': no disk behind it (%s)", t->path,
				  t->kind == TARGET_FILE ? "a file on a filesystem without one, such as tmpfs" :
				  "sysfs has no entry for the device");
	hd->source = health_source_of(&t->di);
	snprintf(hd->path, sizeof(hd->path), "/dev/%.60s", t->di.disk);
	if (hd->source == HEALTH_SRC_NONE)
		return errmsg_set(err, errlen, -ENODEV,
				  "'%s': %s%s is not a drive that reports its health (only NVMe, and SATA or "
				  "SAS through smartctl)", t->path, t->di.transport[0] ? t->di.transport : "the disk ",
				  t->di.transport[0] ? " device" : t->di.disk);
	if (hd->source == HEALTH_SRC_SMARTCTL)
		return 0;
	if ((hd->fd = open(hd->path, O_RDONLY | O_CLOEXEC)) < 0) {
		ret = -errno;
		return errmsg_set(err, errlen, ret, "'%s': %s", hd->path, strerror(-ret));
	}
	health_init(&s, HEALTH_SRC_NVME);
	if ((ret = read_smart(hd, &s, err, errlen))) {
		health_dev_close(hd);
		return ret;
	}
	hd->c0 = read_c0(hd, &s, e2, sizeof(e2)) == 0;
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Runs `smartctl --json -a DEV` (no shell) and returns its standard output, NUL-terminated; kills it
 * after health_smartctl_timeout_ms.
 */
static int run_smartctl(const char *dev, char **out, size_t *len, char *err, size_t errlen)
{
	char a0[] = "smartctl", a1[] = "--json", a2[] = "-a", a3[80];
	char *const argv[] = { a0, a1, a2, a3, NULL };
	posix_spawn_file_actions_t fa;
	extern char **environ;
	size_t cap = 0, n = 0;
	uint64_t deadline;
	char *buf = NULL;
	int p[2], st, ret;
	pid_t pid;
	ssize_t r;

	snprintf(a3, sizeof(a3), "%s", dev);
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	ret = -posix_spawnp(&pid, "smartctl", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (ret) {
		close(p[0]);
		return errmsg_set(err, errlen, ret, "cannot run smartctl for '%s': %s%s", dev, strerror(-ret),
				  ret == -ENOENT ? " (install smartmontools)" : "");
	}
	deadline = mono_ns() + health_smartctl_timeout_ms * 1000000ull;
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		uint64_t now = mono_ns();

		if (n + 1 >= cap && (n >= SMARTCTL_MAX || GROW(buf, cap, n + 65536))) {
			ret = n >= SMARTCTL_MAX ? -EFBIG : -ENOMEM;
			break;
		}
		if (now >= deadline || (r = poll(&pfd, 1, (int)((deadline - now + 999999) / 1000000))) == 0) {
			ret = -ETIMEDOUT;
			break;
		}
		if (r < 0 && errno == EINTR)
			continue;
		r = read(p[0], buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : 0;
			break;
		}
		n += (size_t)r;
	}
	close(p[0]);
	if (ret)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!ret && WIFEXITED(st) && WEXITSTATUS(st) == 127)
		ret = -ENOENT;   /* the shell's "not found" of a wrapper */
	if (ret == -ETIMEDOUT) {
		free(buf);
		return errmsg_set(err, errlen, ret, "smartctl --json -a '%s' did not finish in %u ms; killed", dev,
				  health_smartctl_timeout_ms);
	}
	if (ret) {
		free(buf);
		return errmsg_set(err, errlen, ret, "smartctl --json -a '%s': %s", dev, strerror(-ret));
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int health_dev_snapshot(struct health_dev *hd, struct health_snapshot *s, char *err, size_t errlen)
{
	char e2[256], *text = NULL;
	size_t len = 0;
	int ret;

	if (hd->source == HEALTH_SRC_SMARTCTL) {
		if ((ret = run_smartctl(hd->path, &text, &len, err, errlen)))
			return ret;
		ret = health_parse_smartctl(s, text, len, e2, sizeof(e2));
		if (ret)
			snprintf(err, errlen, "'%s': %s", hd->path, e2);
		free(text);
		return ret;
	}
	if (hd->source != HEALTH_SRC_NVME || hd->fd < 0)
		return errmsg_set(err, errlen, -EBADF, "no drive open for health reads");
	health_init(s, HEALTH_SRC_NVME);
	/* C0 first: so the SMART log's counters are the later of the two reads. */
	if (hd->c0 && (ret = read_c0(hd, s, err, errlen)))
		return ret;
	return read_smart(hd, s, err, errlen);
}

int health_dev_temperature(struct health_dev *hd, double *celsius)
{
	struct health_snapshot s;
	char err[256];
	int ret;

	if (hd->source != HEALTH_SRC_NVME || hd->fd < 0)
		return -EOPNOTSUPP;
	if ((ret = read_smart(hd, &s, err, sizeof(err))))
		return ret;
	if (!s.has[HF_TEMPERATURE])
		return -ENODATA;
	*celsius = health_celsius(s.v[HF_TEMPERATURE]);
	return 0;
}

void health_dev_close(struct health_dev *hd)
{
	if (hd->fd >= 0)
		close(hd->fd);
	hd->fd = -1;
}

int health_dev_read(const struct target *t, struct health_snapshot *s, char *err, size_t errlen)
{
	struct health_dev hd;
	int ret = health_dev_open(&hd, t, err, errlen);

	if (!ret)
		ret = health_dev_snapshot(&hd, s, err, errlen);
	health_dev_close(&hd);
	return ret;
}

static void note(struct health_rec *r, const char *what, int ret, const char *err)
{
	if (!r->warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s: %.200s", what, err[0] ? err : strerror(-ret));
}

int health_rec_sample(struct health_rec *r, struct health_dev *hd, size_t n)
{
	double c = NAN;
	uint64_t t0;
	int ret;

	if (!n || GROW(r->samples, r->cap, n))
		return n ? -ENOMEM : 0;
	while (r->n < n - 1)
		r->samples[r->n++] = NAN;
	if (r->n >= n)
		return 0;
	if (hd->source == HEALTH_SRC_NVME) {
		t0 = mono_ns();
		ret = health_dev_temperature(hd, &c);
		r->read_ns += mono_ns() - t0;
		r->reads++;
		if (ret) {
			c = NAN;
			note(r, "temperature", ret, "");
		}
	}
	r->samples[r->n++] = c;
	return 0;
}

void health_rec_snapshot(struct health_rec *r, struct health_dev *hd, bool after)
{
	char err[256] = "";
	struct health_snapshot *s = after ? &r->after : &r->before;
	int ret = health_dev_snapshot(hd, s, err, sizeof(err));

	if (ret) {
		health_init(s, r->source);
		note(r, after ? "after the run" : "before the run", ret, err);
		return;
	}
	if (after)
		r->has_after = true;
	else
		r->has_before = true;
}

json_t *health_rec_json(const struct health_rec *r, size_t n)
{
	double *s = n ? malloc(n * sizeof(*s)) : NULL;
	json_t *o, *temp;

	if (n && !s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		s[i] = i < r->n ? r->samples[i] : NAN;
	o = health_json(&r->before, &r->after, s, n);
	free(s);
	temp = json_object_get(o, "temperature");
	if (temp)
		json_object_set_new(temp, "read_ns", r->reads ? json_integer((json_int_t)(r->read_ns / r->reads))
								 : json_null());
	return o;
}

void health_rec_free(struct health_rec *r)
{
	if (!r)
		return;
	free(r->samples);
	free(r);
}
