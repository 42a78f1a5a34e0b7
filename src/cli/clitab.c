// SPDX-License-Identifier: MIT
/* The table options of every command (clitab.h), parsed and said one way. */
#include <errno.h>
#include <stdio.h>

#include "cli.h"
#include "cliopts.h"
#include "clitab.h"

int cli_table_option(struct cli_table *t, int ch, const char *arg, const char *cmd)
{
	switch (ch) {
	case OPT_FORMAT:
		if (!coltab_format_parse(arg, &t->o.format)) {
			cli_error("%s: unknown format '%s' (text, csv, json)", cmd, arg);
			return -1;
		}
		break;
	case OPT_FIELDS_O:
	case OPT_FIELDS:
		t->o.columns = arg;
		break;
	case OPT_NOHEADINGS:
		t->o.noheadings = true;
		break;
	case OPT_RAW:
		t->o.raw = true;
		break;
	default:
		return 0;
	}
	t->asked = true;
	return 1;
}

int cli_table_start(struct coltab *tab, const char *name, const struct coltab_col *cols, size_t ncols,
		    const struct cli_table *t, const char *cmd)
{
	char err[1280];
	int ret = coltab_init(tab, name, cols, ncols, &t->o, err, sizeof(err));

	if (ret) {
		cli_error("%s: %s", cmd, err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	return EXIT_OK;
}

int cli_table_finish(struct coltab *tab)
{
	int ret = coltab_print(tab, stdout);

	coltab_release(tab);
	if (ret)
		cli_error("cannot write the table to stdout");
	return ret ? EXIT_FAILED : EXIT_OK;
}
