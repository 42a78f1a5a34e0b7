/* SPDX-License-Identifier: MIT */
/*
 * The prepare steps a profile's "prepare" list (or run's --prepare) can name beside its prepare jobs:
 * `format` (NVMe Format NVM with a secure erase setting), `sanitize` (block, crypto, overwrite) and
 * `purge` (the strongest of those the drive has, else a whole-device discard). Parsing only: no I/O
 * (docs/lifecycle.md, "Prepare steps").
 */
#ifndef SSDBENCH_PREPSTEP_H
#define SSDBENCH_PREPSTEP_H

#include <stddef.h>

#include <jansson.h>

enum prepstep_kind {
	PREPSTEP_FORMAT,       /* setting: enum prepstep_ses */
	PREPSTEP_SANITIZE,     /* setting: enum prepstep_sanact */
	PREPSTEP_PURGE,        /* setting: 0 ("auto") */
	PREPSTEP_NKINDS,
};

/* Format NVM's Secure Erase Settings, as the SES field holds them. */
enum prepstep_ses {
	PREPSTEP_SES_NONE = 0,
	PREPSTEP_SES_USER = 1,
	PREPSTEP_SES_CRYPTO = 2,
};

/* The sanitize actions, in the order of their names ("block", "crypto", "overwrite"). */
enum prepstep_sanact {
	PREPSTEP_SAN_BLOCK,
	PREPSTEP_SAN_CRYPTO,
	PREPSTEP_SAN_OVERWRITE,
};

struct prepstep {
	enum prepstep_kind kind;
	unsigned setting;
	size_t before;         /* runs before the prepare job of this index (the number of jobs: after them all) */
};

/*
 * One entry of a profile's "prepare" list that is a step: {"format": {"ses": "none|user-data|crypto"}}
 * ({"format": {}} is ses none), {"sanitize": "block|crypto|overwrite"} or {"purge": "auto"}. Returns
 * 1 (a step, s filled), 0 (not a step: a prepare job), or -EINVAL with err naming the problem.
 */
int prepstep_from_json(json_t *o, struct prepstep *s, char *err, size_t errlen);

/*
 * run's --prepare STEP: "format", "format:ses=user-data", "sanitize:block", "purge" or "purge:auto".
 * Returns 0 or -EINVAL with err set.
 */
int prepstep_parse(const char *arg, struct prepstep *s, char *err, size_t errlen);

/* "format", "sanitize", "purge". */
const char *prepstep_kind_name(enum prepstep_kind k);
/* The setting's name: "user-data", "block", "auto"... */
const char *prepstep_setting_name(const struct prepstep *s);
/* "format (ses=user-data)", "sanitize (block)", "purge (auto)". */
void prepstep_describe(const struct prepstep *s, char *buf, size_t len);

#endif
