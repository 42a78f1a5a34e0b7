/* SPDX-License-Identifier: MIT */
/*
 * For the unit tests of what reads the drive's health back (test_aggregate_health, test_check_health,
 * test_report_health): a result's top-level health made by health_json itself from two snapshots, as
 * a run writes it, and a time series to align its temperature samples with. Include after
 * result_doc.h and health.h.
 */
#ifndef SSDBENCH_TESTS_HEALTH_DOC_H
#define SSDBENCH_TESTS_HEALTH_DOC_H

/* What the drive counted during one run; the snapshots around it start from fixed counts. */
struct health_spec {
	bool smartctl;              /* source smartctl (no physical writes), else nvme */
	bool ocp;                   /* nvme with the OCP C0 log: physical bytes written known */
	uint64_t units_written;     /* host data units of 512,000 bytes written (nvme), or bytes (smartctl) */
	uint64_t units_read;
	uint64_t physical;          /* physical bytes written during the run (ocp) */
	uint64_t media_errors, error_log_entries;
	unsigned used;              /* percentage_used grew by this */
	uint8_t warning_before, warning_after;
	int temp_before, temp_after;   /* C; 0: 45 and 47 */
	const double *samples;      /* C, NAN: no sample */
	size_t nsamples;
};

/* The two snapshots of spec (before: a drive with some history; after: before plus the run). */
static inline void health_snapshots(const struct health_spec *h, struct health_snapshot *b,
				    struct health_snapshot *a)
{
	uint64_t unit = h->smartctl ? 1 : 512000;

	health_init(b, h->smartctl ? HEALTH_SRC_SMARTCTL : HEALTH_SRC_NVME);
	health_set(b, HF_CRITICAL_WARNING, h->warning_before);
	health_set(b, HF_TEMPERATURE, (uint64_t)((h->temp_before ? h->temp_before : 45) + 273));
	health_set(b, HF_POWER_ON_HOURS, 1200);
	health_set(b, HF_MEDIA_ERRORS, 2);
	health_set(b, HF_HOST_BYTES_WRITTEN, 17587 * unit);
	health_set(b, HF_HOST_BYTES_READ, 9001 * unit);
	if (!h->smartctl) {
		health_set(b, HF_DATA_UNITS_WRITTEN, 17587);
		health_set(b, HF_DATA_UNITS_READ, 9001);
		health_set(b, HF_AVAILABLE_SPARE, 100);
		health_set(b, HF_AVAILABLE_SPARE_THRESHOLD, 10);
		health_set(b, HF_PERCENTAGE_USED, 3);
		health_set(b, HF_ERROR_LOG_ENTRIES, 7);
		health_set(b, HF_UNSAFE_SHUTDOWNS, 4);
	}
	if (h->ocp)
		health_set(b, HF_PHYSICAL_BYTES_WRITTEN, 31000000000ull);
	*a = *b;
	health_set(a, HF_CRITICAL_WARNING, h->warning_after);
	health_set(a, HF_TEMPERATURE, (uint64_t)((h->temp_after ? h->temp_after : 47) + 273));
	health_set(a, HF_MEDIA_ERRORS, 2 + h->media_errors);
	health_set(a, HF_HOST_BYTES_WRITTEN, (17587 + h->units_written) * unit);
	health_set(a, HF_HOST_BYTES_READ, (9001 + h->units_read) * unit);
	if (!h->smartctl) {
		health_set(a, HF_DATA_UNITS_WRITTEN, 17587 + h->units_written);
		health_set(a, HF_DATA_UNITS_READ, 9001 + h->units_read);
		health_set(a, HF_PERCENTAGE_USED, 3 + h->used);
		health_set(a, HF_ERROR_LOG_ENTRIES, 7 + h->error_log_entries);
	}
	if (h->ocp)
		health_set(a, HF_PHYSICAL_BYTES_WRITTEN, 31000000000ull + h->physical);
}

/* doc with the top-level health of spec, as health_json makes it. Returns doc. */
static inline json_t *doc_health(json_t *doc, const struct health_spec *h)
{
	struct health_snapshot b, a;
	json_t *o;

	health_snapshots(h, &b, &a);
	o = health_json(&b, &a, h->samples, h->nsamples);
	assert_non_null(o);
	json_object_set_new(doc, "health", o);
	return doc;
}

/* doc's time series made n samples of iops[i] I/Os per second (bandwidth of 4 KiB, mean latency 100 us). */
static inline json_t *doc_series(json_t *doc, const double *iops, size_t n)
{
	json_t *ts = json_object_get(json_object_get(doc, "results"), "timeseries");
	json_t *a = json_array(), *b = json_array(), *l = json_array();

	for (size_t i = 0; i < n; i++) {
		json_array_append_new(a, json_real(iops[i]));
		json_array_append_new(b, json_real(iops[i] * 4096));
		json_array_append_new(l, json_real(100000));
	}
	json_object_set_new(ts, "iops", a);
	json_object_set_new(ts, "bw_bytes", b);
	json_object_set_new(ts, "lat_mean_ns", l);
	return doc;
}

#endif
