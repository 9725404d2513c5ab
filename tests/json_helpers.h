/* Reading the JSON the experiments print, in tests. */
#ifndef SCHEDLAB_TEST_JSON_HELPERS_H
#define SCHEDLAB_TEST_JSON_HELPERS_H

#include <json-c/json.h>

/* The member k of o, which must exist. */
static inline json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, k, &v));
	return v;
}

#endif
