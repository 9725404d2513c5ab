#include "experiment/spread.h"
#include "core/json_out.h"

#include <stdio.h>

void sl_spread_add(struct sl_spread *s, double v)
{
	if (s->n < SL_SPREAD_MAX)
		s->v[s->n++] = v;
}

double sl_spread_mean(const struct sl_spread *s)
{
	double t = 0;

	for (int i = 0; i < s->n; i++)
		t += s->v[i];
	return s->n ? t / s->n : 0;
}

double sl_spread_min(const struct sl_spread *s)
{
	double m = s->n ? s->v[0] : 0;

	for (int i = 1; i < s->n; i++)
		m = s->v[i] < m ? s->v[i] : m;
	return m;
}

double sl_spread_max(const struct sl_spread *s)
{
	double m = s->n ? s->v[0] : 0;

	for (int i = 1; i < s->n; i++)
		m = s->v[i] > m ? s->v[i] : m;
	return m;
}

json_object *sl_spread_json(const struct sl_spread *s)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "mean", sl_json_fixed6(sl_spread_mean(s)));
	json_object_object_add(o, "min", sl_json_fixed6(sl_spread_min(s)));
	json_object_object_add(o, "max", sl_json_fixed6(sl_spread_max(s)));
	for (int i = 0; i < s->n; i++)
		json_object_array_add(a, sl_json_fixed6(s->v[i]));
	json_object_object_add(o, "per_seed", a);
	return o;
}
