// SPDX-License-Identifier: MIT
/*
 * jsonfast.h: simdjson's DOM parser, its tree copied into jansson values. The one C++ file of
 * ssdbench, built without exceptions or RTTI: simdjson's error-code interface, nothing thrown.
 */
#include <cstdint>
#include <cstring>

#include <simdjson.h>

#include "jsonfast.h"

static_assert(JSONFAST_PADDING >= simdjson::SIMDJSON_PADDING, "simdjson reads further past the end");

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

/*
 * The jansson value of e, or NULL where json_loadb(..., JSON_REJECT_DUPLICATES) would have refused
 * the document (or memory ran out). What jansson refuses and simdjson takes: a NUL in a string or a
 * key (without JSON_ALLOW_NUL), a key given twice, an integer above INT64_MAX (simdjson has uint64).
 */
json_t *convert(element e)
{
	switch (e.type()) {
	case element_type::OBJECT: {
		simdjson::dom::object fields = e.get_object().value_unsafe();
		json_t *o = json_object();
		size_t n = 0;

		if (!o)
			return nullptr;
		for (auto field : fields) {
			std::string_view k = field.key;
			json_t *v;

			if (memchr(k.data(), '\0', k.size()) ||
			    !(v = convert(field.value)) ||
			    json_object_setn_new_nocheck(o, k.data(), k.size(), v) ||
			    json_object_size(o) != ++n) {
				json_decref(o);
				return nullptr;
			}
		}
		return o;
	}
	case element_type::ARRAY: {
		simdjson::dom::array items = e.get_array().value_unsafe();
		json_t *a = json_array();

		if (!a)
			return nullptr;
		for (element x : items) {
			if (json_array_append_new(a, convert(x))) {
				json_decref(a);
				return nullptr;
			}
		}
		return a;
	}
	case element_type::INT64:
		return json_integer(static_cast<json_int_t>(e.get_int64().value_unsafe()));
	case element_type::UINT64:
		return nullptr;   /* json_loadb: "too big integer" */
	case element_type::DOUBLE:
		return json_real(e.get_double().value_unsafe());
	case element_type::STRING: {
		std::string_view s = e.get_string().value_unsafe();

		if (memchr(s.data(), '\0', s.size()))
			return nullptr;
		return json_stringn_nocheck(s.data(), s.size());
	}
	case element_type::BOOL:
		return json_boolean(e.get_bool().value_unsafe());
	case element_type::NULL_VALUE:
		return json_null();
	}
	return nullptr;
}

} // namespace

extern "C" json_t *jsonfast_loadb(const char *buf, size_t len, size_t cap)
{
	static thread_local simdjson::dom::parser parser;
	element root;

	if (parser.parse(buf, len, cap < len + JSONFAST_PADDING).get(root))
		return nullptr;
	// json_loadb takes an object or an array only (no JSON_DECODE_ANY).
	if (root.type() != element_type::OBJECT && root.type() != element_type::ARRAY)
		return nullptr;
	return convert(root);
}
