// SPDX-License-Identifier: MIT
/* An NVMe drive's power state, APST and write cache: read, set for a job, restored after (nvmelife.h). */
#include "nvmelife.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvme/ioctl.h>
#include <nvme/linux.h>
#include <nvme/util.h>

#include "errmsg.h"

static int nvme_get(int fd, uint8_t fid, void *data, uint32_t len, uint32_t *result)
{
	return nvme_get_features_data(fd, (enum nvme_features_id)fid, 0, len, data, result);
}

static int nvme_set(int fd, uint8_t fid, uint32_t cdw11, void *data, uint32_t len, uint32_t *result)
{
	return nvme_set_features_data(fd, fid, 0, cdw11, false, len, data, result);
}

static int nvme_log(int fd, uint8_t lid, void *buf, uint32_t len)
{
	return nvme_get_log_simple(fd, (enum nvme_cmd_get_log_lid)lid, len, buf);
}

static int nvme_telemetry(int fd, void **buf, size_t *len)
{
	struct nvme_telemetry_log *log = NULL;
	int ret = nvme_get_new_host_telemetry(fd, &log, NVME_TELEMETRY_DA_3, len);

	*buf = ret ? NULL : log;
	if (ret)
		free(log);
	return ret;
}

const struct nvmelife_ops nvmelife_nvme_ops = { .get = nvme_get, .set = nvme_set, .log = nvme_log,
						.telemetry = nvme_telemetry };

uint32_t nvmelife_ps_cdw11(uint32_t cur, unsigned ps)
{
	return (cur & 0xe0u) | (ps & 0x1fu);
}

unsigned nvmelife_ps_of(uint32_t v)
{
	return v & 0x1fu;
}

uint32_t nvmelife_wc_cdw11(bool on)
{
	return on ? 1u : 0u;
}

int nvmelife_check(const struct nvmelife_want *want, const struct nvmelife_caps *caps, char *err, size_t errlen)
{
	if (want->power_state > (int)caps->npss)
		return errmsg_set(err, errlen, -EINVAL,
				  "power_state=%d, but the controller's highest power state is %u (NPSS %u)",
				  want->power_state, caps->npss, caps->npss);
	if (want->write_cache >= 0 && !caps->vwc)
		return errmsg_set(err, errlen, -EINVAL,
				  "write_cache=%s, but the controller has no volatile write cache (VWC 0)",
				  want->write_cache ? "on" : "off");
	return 0;
}

/* A libnvme outcome (> 0 the drive's status, -1 with errno) as -errno with a message. */
static int cmd_fail(char *err, size_t errlen, const char *what, uint8_t fid, int ret)
{
	if (ret < 0)
		return errmsg_set(err, errlen, errno ? -errno : -EIO, "%s Features %02Xh: %s", what, fid,
				  strerror(errno ? errno : EIO));
	return errmsg_set(err, errlen, -EIO, "%s Features %02Xh: the drive refused it (NVMe status 0x%x)", what,
			  fid, (unsigned)ret);
}

/* The current power state, APST and write cache into r. */
static int read_state(const struct nvmelife_ops *ops, int fd, const struct nvmelife_caps *caps,
		      struct nvmelife_rec *r, char *err, size_t errlen)
{
	unsigned char apst[NVMELIFE_APST_DATA_LEN];
	uint32_t v = 0;
	int ret;

	if ((ret = ops->get(fd, NVMELIFE_FID_POWER_MGMT, NULL, 0, &v)))
		return cmd_fail(err, errlen, "Get", NVMELIFE_FID_POWER_MGMT, ret);
	r->power_state = (int)nvmelife_ps_of(v);
	r->apst = 0;
	if (caps->apst) {
		if ((ret = ops->get(fd, NVMELIFE_FID_APST, apst, sizeof(apst), &v)))
			return cmd_fail(err, errlen, "Get", NVMELIFE_FID_APST, ret);
		r->apst = v & 1;
	}
	/* Feature 06h is reserved where there is no cache: asked only where there is one. */
	r->write_cache = 0;
	if (caps->vwc) {
		if ((ret = ops->get(fd, NVMELIFE_FID_VWC, NULL, 0, &v)))
			return cmd_fail(err, errlen, "Get", NVMELIFE_FID_VWC, ret);
		r->write_cache = v & 1;
	}
	return 0;
}

/* Sets fid to cdw11 where it is not cur already, remembering cur in c. */
static int change(const struct nvmelife_ops *ops, int fd, uint8_t fid, uint32_t cur, uint32_t cdw11,
		  struct nvmelife_change *c, char *err, size_t errlen)
{
	uint32_t res = 0;
	int ret;

	if (cdw11 == cur)
		return 0;
	if ((ret = ops->set(fd, fid, cdw11, NULL, 0, &res)))
		return cmd_fail(err, errlen, "Set", fid, ret);
	c->done = true;
	c->was = cur;
	c->set = cdw11;
	return 0;
}

int nvmelife_apply(const struct nvmelife_ops *ops, int fd, const struct nvmelife_caps *caps,
		   const struct nvmelife_want *want, struct nvmelife_rec *r, char *err, size_t errlen)
{
	uint32_t pm = 0;
	int ret;

	*r = (struct nvmelife_rec){ .power_state = -1, .apst = -1, .write_cache = -1 };
	if ((ret = read_state(ops, fd, caps, r, err, errlen)))
		return ret;
	r->read = true;
	if (want->power_state >= 0) {
		/* The whole value, so that the restore puts back the workload hint too. */
		if ((ret = ops->get(fd, NVMELIFE_FID_POWER_MGMT, NULL, 0, &pm)))
			return cmd_fail(err, errlen, "Get", NVMELIFE_FID_POWER_MGMT, ret);
		if ((ret = change(ops, fd, NVMELIFE_FID_POWER_MGMT, pm,
				  nvmelife_ps_cdw11(pm, (unsigned)want->power_state), &r->ps, err, errlen)))
			return ret;
	}
	if (want->write_cache >= 0 &&
	    (ret = change(ops, fd, NVMELIFE_FID_VWC, nvmelife_wc_cdw11(r->write_cache == 1),
			  nvmelife_wc_cdw11(want->write_cache == 1), &r->wc, err, errlen)))
		return ret;
	if (r->ps.done || r->wc.done)
		return read_state(ops, fd, caps, r, err, errlen);
	return 0;
}

/* Puts c back (fid), recording how that went. */
static void undo(const struct nvmelife_ops *ops, int fd, uint8_t fid, struct nvmelife_change *c)
{
	uint32_t res = 0;
	int ret;

	if (!c->done || c->restored)
		return;
	if ((ret = ops->set(fd, fid, c->was, NULL, 0, &res)))
		cmd_fail(c->restore_error, sizeof(c->restore_error), "Set", fid, ret);
	else
		c->restored = true;
}

int nvmelife_restore(const struct nvmelife_ops *ops, int fd, struct nvmelife_rec *r, char *err, size_t errlen)
{
	undo(ops, fd, NVMELIFE_FID_VWC, &r->wc);
	undo(ops, fd, NVMELIFE_FID_POWER_MGMT, &r->ps);
	if (r->wc.done && !r->wc.restored)
		return errmsg_set(err, errlen, -EIO, "the write cache is left %s (it was %s): %s",
				  r->wc.set & 1 ? "on" : "off", r->wc.was & 1 ? "on" : "off", r->wc.restore_error);
	if (r->ps.done && !r->ps.restored)
		return errmsg_set(err, errlen, -EIO, "the drive is left in power state %u (it was in %u): %s",
				  nvmelife_ps_of(r->ps.set), nvmelife_ps_of(r->ps.was), r->ps.restore_error);
	return 0;
}

static json_t *tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *change_json(const struct nvmelife_change *c, json_t *was, json_t *set)
{
	json_t *o = json_pack("{s:o, s:o, s:b}", "was", was, "set", set, "restored", c->restored);

	if (o && c->restore_error[0])
		json_object_set_new(o, "restore_error", json_string(c->restore_error));
	return o;
}

void nvmelife_json(json_t *o, const struct nvmelife_rec *r)
{
	json_t *s;

	if (!r->read)
		return;
	json_object_set_new(o, "power_state", r->power_state < 0 ? json_null() : json_integer(r->power_state));
	json_object_set_new(o, "apst", tristate(r->apst));
	json_object_set_new(o, "write_cache", tristate(r->write_cache));
	if (!r->ps.done && !r->wc.done)
		return;
	s = json_object();
	if (r->ps.done)
		json_object_set_new(s, "power_state",
				    change_json(&r->ps, json_integer(nvmelife_ps_of(r->ps.was)),
						json_integer(nvmelife_ps_of(r->ps.set))));
	if (r->wc.done)
		json_object_set_new(s, "write_cache", change_json(&r->wc, json_boolean(r->wc.was & 1),
								  json_boolean(r->wc.set & 1)));
	json_object_set_new(o, "settings", s);
}

/* Log C3h into *l where it is the monitor's; else a reason. */
static int read_c3(const struct nvmelife_ops *ops, int fd, struct ocplm_log *l, char *err, size_t errlen)
{
	unsigned char buf[OCPLM_LOG_LEN];
	int ret;

	if ((ret = ops->log(fd, OCPLM_LID, buf, sizeof(buf)))) {
		if (ret < 0)
			return errmsg_set(err, errlen, errno ? -errno : -EIO, "Get Log Page C3h: %s",
					  strerror(errno ? errno : EIO));
		return errmsg_set(err, errlen, -EIO, "Get Log Page C3h: the drive refused it (NVMe status 0x%x)",
				  (unsigned)ret);
	}
	return ocplm_decode_log(l, buf, sizeof(buf), err, errlen);
}

void nvmelife_lm_begin(const struct nvmelife_ops *ops, int fd, const unsigned threshold_ms[OCPLM_BUCKETS],
		       struct nvmelife_lm *lm)
{
	struct ocplm_config c = { .timer_threshold_min = 7 * 24 * 60, .enable = true };
	unsigned char feat[OCPLM_FEAT_LEN];
	uint32_t res = 0;
	int ret;

	lm->asked = true;
	memcpy(lm->threshold_ms, threshold_ms, sizeof(lm->threshold_ms));
	memcpy(c.threshold_ms, threshold_ms, sizeof(c.threshold_ms));
	if ((ret = ops->get(fd, OCPLM_FID, lm->saved, sizeof(lm->saved), &res))) {
		cmd_fail(lm->reason, sizeof(lm->reason), "Get", OCPLM_FID, ret);
		return;
	}
	if (read_c3(ops, fd, &lm->before, lm->reason, sizeof(lm->reason)))
		return;
	lm->supported = true;
	if (ocplm_encode_feature(&c, feat, sizeof(feat), lm->reason, sizeof(lm->reason)))
		return;
	if ((ret = ops->set(fd, OCPLM_FID, 0, feat, sizeof(feat), &res))) {
		cmd_fail(lm->reason, sizeof(lm->reason), "Set", OCPLM_FID, ret);
		return;
	}
	lm->set = true;
	/* Programming may reset the counters: the run's baseline is read after it. */
	lm->has_before = !read_c3(ops, fd, &lm->before, lm->reason, sizeof(lm->reason));
}

void nvmelife_lm_end(const struct nvmelife_ops *ops, int fd, struct nvmelife_lm *lm)
{
	uint32_t res = 0;
	int ret;

	if (!lm->set)
		return;
	if (lm->has_before)
		lm->has_after = !read_c3(ops, fd, &lm->after, lm->reason, sizeof(lm->reason));
	if ((ret = ops->set(fd, OCPLM_FID, 0, lm->saved, sizeof(lm->saved), &res)))
		cmd_fail(lm->reason, sizeof(lm->reason), "Set (restore)", OCPLM_FID, ret);
	else
		lm->restored = true;
}

json_t *nvmelife_lm_json(const struct nvmelife_lm *lm)
{
	uint32_t d[OCPLM_BUCKETS][OCPLM_NOPS];
	json_t *o;

	if (!lm->asked)
		return NULL;
	if (!lm->supported)
		return json_pack("{s:b, s:s}", "supported", 0, "reason", lm->reason);
	o = json_pack("{s:b, s:b}", "supported", 1, "restored", lm->restored);
	if (lm->has_before && lm->has_after) {
		ocplm_delta(&lm->before, &lm->after, d);
		json_object_set_new(o, "drive", ocplm_buckets_json(lm->threshold_ms, d));
	}
	if (lm->has_host) {
		uint32_t h[OCPLM_BUCKETS][OCPLM_NOPS];

		for (unsigned b = 0; b < OCPLM_BUCKETS; b++)
			for (unsigned op = 0; op < OCPLM_NOPS; op++)
				h[b][op] = lm->host[b][op] > UINT32_MAX ? UINT32_MAX : (uint32_t)lm->host[b][op];
		json_object_set_new(o, "host", ocplm_buckets_json(lm->threshold_ms, h));
	}
	if (lm->reason[0])
		json_object_set_new(o, "error", json_string(lm->reason));
	return o;
}

void nvmelife_telemetry_capture(const struct nvmelife_ops *ops, int fd, bool lpa_telemetry,
				struct nvmelife_telemetry *t)
{
	int ret;

	t->asked = true;
	if (!lpa_telemetry) {
		snprintf(t->reason, sizeof(t->reason),
			 "the controller has no telemetry log (Identify Controller LPA bit 3 is 0)");
		return;
	}
	t->supported = true;
	if ((ret = ops->telemetry(fd, &t->data, &t->bytes))) {
		if (ret < 0)
			snprintf(t->reason, sizeof(t->reason), "Get Log Page 07h (host-initiated telemetry): %s",
				 strerror(errno ? errno : EIO));
		else
			snprintf(t->reason, sizeof(t->reason),
				 "Get Log Page 07h (host-initiated telemetry): the drive refused it (NVMe status 0x%x)",
				 (unsigned)ret);
		t->data = NULL;
		t->bytes = 0;
	}
}

json_t *nvmelife_telemetry_json(const struct nvmelife_telemetry *t)
{
	if (!t->asked)
		return NULL;
	if (!t->data)
		return json_pack("{s:b, s:s}", "supported", t->supported, "reason", t->reason);
	return json_pack("{s:b, s:i, s:I}", "supported", 1, "data_area", 3, "bytes", (json_int_t)t->bytes);
}

void nvmelife_rec_release(struct nvmelife_rec *r)
{
	if (!r)
		return;
	free(r->tel.data);
	r->tel.data = NULL;
}
