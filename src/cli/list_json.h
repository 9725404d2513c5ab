/*
 * The --json of the listing commands (features, sysctl, params, workloads, machines, governors):
 * the facts of each one's table as one json-c object, in the table's order, for
 * core/json_out.h's sl_json_print. Each returns NULL when out of memory. docs/json.md lists
 * the keys.
 */
#ifndef SCHEDLAB_CLI_LIST_JSON_H
#define SCHEDLAB_CLI_LIST_JSON_H

#include "config/config.h"

#include <json-c/json.h>

/* the flags of cfg's release in debugfs order, each on or off after the writes given */
json_object *sl_list_features_json(const struct sl_config *cfg);
/* the release's scheduler sysctls after boot scaling for cfg's CPUs and the writes given */
json_object *sl_list_sysctl_json(const struct sl_config *cfg);
json_object *sl_list_params_json(void);
json_object *sl_list_workloads_json(void);
json_object *sl_list_machines_json(void);
json_object *sl_list_governors_json(void);

#endif
