// SPDX-License-Identifier: MIT
/* The prepare steps' names and settings, from a profile's JSON or run's --prepare (prepstep.h). */
#include "prepstep.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"

static const char *const ses_names[] = { "none", "user-data", "crypto", NULL };
static const char *const san_names[] = { "block", "crypto", "overwrite", NULL };
static const char *const purge_names[] = { "auto", NULL };

/* One row a kind: its name, its settings, and the key its setting takes in an object (NULL: a string). */
static const struct {
	const char *name;
	const char *const *settings;
	const char *key;
	unsigned dflt;
} kinds[] = {
	[PREPSTEP_FORMAT] = { "format", ses_names, "ses", PREPSTEP_SES_NONE },
	[PREPSTEP_SANITIZE] = { "sanitize", san_names, NULL, 0 },
	[PREPSTEP_PURGE] = { "purge", purge_names, NULL, 0 },
};
_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == PREPSTEP_NKINDS, "a row for every prepare step");

const char *prepstep_kind_name(enum prepstep_kind k)
{
	return k < PREPSTEP_NKINDS ? kinds[k].name : "?";
}

const char *prepstep_setting_name(const struct prepstep *s)
{
	return s->kind < PREPSTEP_NKINDS ? kinds[s->kind].settings[s->setting] : "?";
}

void prepstep_describe(const struct prepstep *s, char *buf, size_t len)
{
	const char *key = s->kind < PREPSTEP_NKINDS ? kinds[s->kind].key : NULL;

	snprintf(buf, len, "%s (%s%s%s)", prepstep_kind_name(s->kind), key ? key : "", key ? "=" : "",
		 prepstep_setting_name(s));
}

/* "the one of a, b or c" for messages. */
static void list_names(const char *const *names, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; names[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? (names[i + 1] ? ", " : " or ") : "", names[i]);
}

static int find_kind(const char *name, size_t nlen)
{
	for (int k = 0; k < PREPSTEP_NKINDS; k++)
		if (strlen(kinds[k].name) == nlen && !strncmp(kinds[k].name, name, nlen))
			return k;
	return -1;
}

static int set_setting(struct prepstep *s, const char *val, char *err, size_t errlen)
{
	const char *const *names = kinds[s->kind].settings;
	char all[96];

	for (unsigned i = 0; names[i]; i++) {
		if (!strcmp(names[i], val)) {
			s->setting = i;
			return 0;
		}
	}
	list_names(names, all, sizeof(all));
	return errmsg_set(err, errlen, -EINVAL, "prepare step %s: '%s' is not a%s setting (%s)", kinds[s->kind].name,
			  val, kinds[s->kind].key ? "n ses" : "", all);
}

int prepstep_from_json(json_t *o, struct prepstep *s, char *err, size_t errlen)
{
	const char *key;
	json_t *v;
	int k = -1;

	if (!json_is_object(o))
		return 0;
	json_object_foreach(o, key, v) {
		if (find_kind(key, strlen(key)) >= 0)
			k = find_kind(key, strlen(key));
	}
	if (k < 0)
		return 0;
	if (json_object_size(o) != 1)
		return errmsg_set(err, errlen, -EINVAL, "a prepare step is an object of one key (\"%s\"), not a job's "
				  "parameters", kinds[k].name);
	*s = (struct prepstep){ .kind = (enum prepstep_kind)k, .setting = kinds[k].dflt };
	v = json_object_get(o, kinds[k].name);
	if (!kinds[k].key) {
		if (!json_is_string(v))
			return errmsg_set(err, errlen, -EINVAL, "prepare step %s: expected a string", kinds[k].name);
		return set_setting(s, json_string_value(v), err, errlen) ? -EINVAL : 1;
	}
	if (!json_is_object(v))
		return errmsg_set(err, errlen, -EINVAL, "prepare step %s: expected an object ({\"%s\": ...})",
				  kinds[k].name, kinds[k].key);
	json_object_foreach(v, key, o) {
		if (strcmp(key, kinds[k].key))
			return errmsg_set(err, errlen, -EINVAL, "prepare step %s: unknown key '%s' (%s)", kinds[k].name,
					  key, kinds[k].key);
		if (!json_is_string(o))
			return errmsg_set(err, errlen, -EINVAL, "prepare step %s: %s: expected a string", kinds[k].name,
					  key);
		if (set_setting(s, json_string_value(o), err, errlen))
			return -EINVAL;
	}
	return 1;
}

int prepstep_parse(const char *arg, struct prepstep *s, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':'), *val;
	size_t nlen = colon ? (size_t)(colon - arg) : strlen(arg);
	int k = find_kind(arg, nlen);
	char all[96];

	if (k < 0) {
		const char *names[PREPSTEP_NKINDS + 1];

		for (int i = 0; i < PREPSTEP_NKINDS; i++)
			names[i] = kinds[i].name;
		names[PREPSTEP_NKINDS] = NULL;
		list_names(names, all, sizeof(all));
		return errmsg_set(err, errlen, -EINVAL, "--prepare '%s': not a prepare step (%s)", arg, all);
	}
	*s = (struct prepstep){ .kind = (enum prepstep_kind)k, .setting = kinds[k].dflt };
	if (!colon)
		return 0;
	val = colon + 1;
	if (kinds[k].key) {
		size_t kl = strlen(kinds[k].key);

		if (strncmp(val, kinds[k].key, kl) || val[kl] != '=')
			return errmsg_set(err, errlen, -EINVAL, "--prepare '%s': expected %s:%s=VALUE", arg,
					  kinds[k].name, kinds[k].key);
		val += kl + 1;
	}
	return set_setting(s, val, err, errlen);
}
