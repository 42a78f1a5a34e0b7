// SPDX-License-Identifier: MIT
/* The table of the report's optional sections, in the order the writers show them. */
#include <string.h>

#include "report_section.h"

/* Each defined in its own file (report_NAME.c). A new section: its file, a line here, a row below. */
extern const struct report_section report_section_trim_flush;
extern const struct report_section report_section_verify;
extern const struct report_section report_section_health;
extern const struct report_section report_section_search;
extern const struct report_section report_section_groups;
extern const struct report_section report_section_streams;
extern const struct report_section report_section_realized;
extern const struct report_section report_section_setup;
extern const struct report_section report_section_zones;
extern const struct report_section report_section_overtime;
extern const struct report_section report_section_outliers;

const struct report_section *const report_sections[] = {
	&report_section_trim_flush,
	&report_section_verify,
	&report_section_health,
	&report_section_search,
	&report_section_groups,
	&report_section_streams,
	&report_section_realized,
	&report_section_setup,
	&report_section_zones,
	&report_section_overtime,
	&report_section_outliers,
};
const size_t report_nsections = sizeof(report_sections) / sizeof(report_sections[0]);

bool report_has_section(const struct report *r, const char *id)
{
	for (size_t i = 0; i < report_nsections; i++)
		if (!strcmp(report_sections[i]->id, id))
			return report_sections[i]->present(r);
	return false;
}
