/*
 * A figure measured over several seeds (the repro experiments give each as mean [min, max]).
 */
#ifndef SCHEDLAB_EXPERIMENT_SPREAD_H
#define SCHEDLAB_EXPERIMENT_SPREAD_H

#include <json-c/json.h>

#define SL_SPREAD_MAX 16 /* seeds kept per figure (the repro commands' --seeds bound) */

struct sl_spread {
	double v[SL_SPREAD_MAX];
	int n;
};

/* adds one seed's value (beyond SL_SPREAD_MAX values, ignored) */
void sl_spread_add(struct sl_spread *s, double v);
/* mean, least and greatest value; 0 for an empty spread */
double sl_spread_mean(const struct sl_spread *s);
double sl_spread_min(const struct sl_spread *s);
double sl_spread_max(const struct sl_spread *s);
/* {"mean", "min", "max", "per_seed": [...]} */
json_object *sl_spread_json(const struct sl_spread *s);

#endif
