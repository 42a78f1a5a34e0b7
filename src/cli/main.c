// SPDX-License-Identifier: MIT
/* ssdbench: parse, dispatch, exit code. */
#include "cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
