/* SPDX-License-Identifier: MIT */
/*
 * For the unit tests of check (test_check, test_check_health): criteria documents parsed, or refused
 * with a message that names what is wrong. Include after cmocka.h and check.h.
 */
#ifndef SSDBENCH_TESTS_CRITERIA_DOC_H
#define SSDBENCH_TESTS_CRITERIA_DOC_H

/* A list of words a message must hold, and a criteria document of one criterion's body. */
#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define ONE(body) "{\"criteria\": [{" body "}]}"

/* Parses text (named crit.json); a refusal fails the test with its message. */
static inline void parse_ok(struct criteria *cr, const char *text)
{
	char err[512] = "";

	if (criteria_parse(cr, "crit.json", text, err, sizeof(err)))
		fail_msg("criteria_parse: %s", err);
}

/* The document must be refused with -EINVAL, nothing kept, and a message holding every one of words. */
static inline void refused(const char *text, const char *const *words)
{
	struct criteria cr;
	char err[512] = "";

	if (criteria_parse(&cr, "crit.json", text, err, sizeof(err)) != -EINVAL)
		fail_msg("accepted: %s", text);
	assert_null(cr.root);
	assert_null(cr.c);
	for (; *words; words++)
		if (!strstr(err, *words))
			fail_msg("for %s: message \"%s\" does not name \"%s\"", text, err, *words);
}

#endif
