// SPDX-License-Identifier: MIT
/* A tiny scanner of valid JSON that records the line of each key path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "jsonlines.h"

struct scan {
	const char *p;
	int line;
	struct jsonlines *jl;
	int err;
};

static void skip_ws(struct scan *s)
{
	for (; *s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'; s->p++)
		if (*s->p == '\n')
			s->line++;
}

static void record(struct scan *s, const char *path)
{
	struct jsonlines *jl = s->jl;
	size_t pcap = jl->cap, lcap = jl->cap;

	/* Two arrays of one capacity: both grow from it to the same new one. */
	if (GROW(jl->paths, pcap, jl->n + 1) || GROW(jl->lines, lcap, jl->n + 1) ||
	    !(jl->paths[jl->n] = strdup(path))) {
		s->err = -ENOMEM;
		return;
	}
	jl->cap = pcap;
	jl->lines[jl->n++] = s->line;
}

/* Copies a string's raw text (escapes kept) into buf; leaves p past the closing quote. */
static void read_string(struct scan *s, char *buf, size_t len)
{
	size_t n = 0;

	s->p++;
	while (*s->p && *s->p != '"') {
		if (*s->p == '\\' && s->p[1])
			s->p++;
		if (n + 1 < len)
			buf[n++] = *s->p;
		s->p++;
	}
	buf[n] = '\0';
	if (*s->p)
		s->p++;
}

static void scan_value(struct scan *s, const char *path);

static void scan_container(struct scan *s, const char *path, char close)
{
	char key[256], sub[1024];
	size_t idx = 0;

	s->p++;
	for (;;) {
		skip_ws(s);
		if (!*s->p || *s->p == close)
			break;
		if (close == '}') {
			read_string(s, key, sizeof(key));
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
			record(s, sub);
			skip_ws(s);
			if (*s->p == ':')
				s->p++;
		} else {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, idx++);
			record(s, sub);
		}
		scan_value(s, sub);
		skip_ws(s);
		if (*s->p == ',')
			s->p++;
	}
	if (*s->p)
		s->p++;
}

static void scan_value(struct scan *s, const char *path)
{
	char tmp[2];

	skip_ws(s);
	if (*s->p == '{' || *s->p == '[')
		scan_container(s, path, *s->p == '{' ? '}' : ']');
	else if (*s->p == '"')
		read_string(s, tmp, sizeof(tmp));
	else
		while (*s->p && !strchr(",]} \t\r\n", *s->p))
			s->p++;
}

int jsonlines_scan(struct jsonlines *jl, const char *text)
{
	struct scan s = { text, 1, jl, 0 };

	memset(jl, 0, sizeof(*jl));
	scan_value(&s, "");
	return s.err;
}

int jsonlines_line(const struct jsonlines *jl, const char *path)
{
	for (size_t i = 0; i < jl->n; i++)
		if (!strcmp(jl->paths[i], path))
			return jl->lines[i];
	return 0;
}

void jsonlines_release(struct jsonlines *jl)
{
	for (size_t i = 0; i < jl->n; i++)
		free(jl->paths[i]);
	free(jl->paths);
	free(jl->lines);
	memset(jl, 0, sizeof(*jl));
}
