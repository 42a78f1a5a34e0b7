// SPDX-License-Identifier: MIT
/* `ssdbench store DB RESULT...`: result files into a database, in one transaction (docs/store.md). */
#include <errno.h>
#include <getopt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cliopts.h"
#include "guard.h"
#include "results_cli.h"
#include "resultset.h"
#include "store.h"

/* Each document read: stored, unless SIGINT or SIGTERM came (then the transaction is undone). */
static int put_doc(void *st, const json_t *root, const char *path, char *err, size_t errlen)
{
	if (atomic_load(cli_stop_flag())) {
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	return store_put(st, root, path, err, errlen);
}

int cmd_store(int argc, char **argv)
{
	struct store_db db;
	struct store st;
	struct rs_set s;
	char err[1024] = "";
	size_t added, present;
	int ch, ret = 0;

	optind = 1;
	while ((ch = cli_getopt(cli_optset("store"), argc, argv)) != -1)
		return cli_option_error(ch, argv, "store");
	if (argc - optind < 2) {
		cli_error("store: expected a database and the results to store (ssdbench store DB RESULT...)");
		return EXIT_USAGE;
	}
	if (!store_db_parse(argv[optind], &db)) {
		db.ops = &store_sqlite_ops;   /* a plain file name is a SQLite file */
		db.where = argv[optind];
	}
	if (db.ops == &store_sqlite_ops && (guard_output(db.where, GUARD_OUT_REGULAR, err, sizeof(err)) ||
					    cli_check_writable(db.where, "store", false))) {
		if (*err)
			cli_error("store: %s (nothing written)", err);
		return EXIT_USAGE;
	}
	cli_install_signals();
	if (store_open(&st, &db, true, err, sizeof(err))) {
		cli_error("store: %s", err);
		return EXIT_FAILED;
	}
	rs_init(&s);
	s.on_doc = put_doc;
	s.on_doc_arg = &st;
	for (int i = optind + 1; i < argc && !ret; i++)
		if ((ret = rs_add_path(&s, argv[i], err, sizeof(err))))
			cli_error("store: %s (nothing stored)", err);
	rs_release(&s);
	if (ret) {
		store_close(&st, false, NULL, 0);
		return ret == -EINTR ? EXIT_INTERRUPTED : ret == -EIO || ret == -ENOSPC ? EXIT_FAILED : EXIT_USAGE;
	}
	added = st.added;
	present = st.present;
	if (store_close(&st, true, err, sizeof(err))) {
		cli_error("store: %s", err);
		return EXIT_FAILED;
	}
	printf("%zu run%s stored, %zu stored already\n", added, added == 1 ? "" : "s", present);
	return fflush(stdout) ? EXIT_FAILED : EXIT_OK;
}
