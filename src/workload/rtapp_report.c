/*
 * The rt-app threads' figures in the run's table and JSON (the rt-app workload's report ops,
 * which the report calls for each group): per thread, the phases it logged and the mean and p95
 * of the run, period, slack and wake-up latency columns of its rt-app log (microseconds), so a
 * simulated run and a real rt-app run can be set side by side.
 */
#include "workload/rtapp.h"

#include <json-c/json.h>

/* Group g's threads, after the section's heading when *head is still false. */
void sl_rta_report_table(FILE *f, const struct sl_group *g, bool *head)
{
	int n = sl_rta_group_threads(g);

	for (int i = 0; i < n; i++) {
		struct rta_summary m;

		if (sl_rta_group_summary(g, i, &m))
			continue;
		if (!*head) {
			fprintf(f, "\nrt-app threads (us; mean / p95 of the log's columns)\n");
			fprintf(f, "%-16s %4s %7s %10s %8s %11s %8s %10s %8s %8s %8s\n", "thread",
				"idx", "phases", "run mean", "p95", "period mean", "p95",
				"slack mean", "p95", "min", "wu_lat p95");
			*head = true;
		}
		fprintf(f,
			"%-16.16s %4d %7llu %10.1f %8lld %11.1f %8lld %10.1f %8lld %8lld %8lld\n",
			m.name, m.idx, (unsigned long long)m.phases, m.run.mean,
			(long long)m.run.p95, m.period.mean, (long long)m.period.p95, m.slack.mean,
			(long long)m.slack.p95, (long long)m.slack.min, (long long)m.wu_lat.p95);
	}
}

static json_object *stat_json(const struct rta_stat *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mean", json_object_new_double(s->mean));
	json_object_object_add(o, "p95", json_object_new_int64(s->p95));
	json_object_object_add(o, "min", json_object_new_int64(s->min));
	json_object_object_add(o, "max", json_object_new_int64(s->max));
	return o;
}

/* The group's "rtapp_threads" array, or NULL when it is not an rt-app group. */
json_object *sl_rta_report_json(const struct sl_group *g)
{
	int n = sl_rta_group_threads(g);
	json_object *arr;

	if (n < 0)
		return NULL;
	arr = json_object_new_array();
	for (int i = 0; i < n; i++) {
		struct rta_summary m;
		json_object *o;

		if (sl_rta_group_summary(g, i, &m))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(m.name));
		json_object_object_add(o, "idx", json_object_new_int(m.idx));
		json_object_object_add(o, "phases", json_object_new_int64((int64_t)m.phases));
		if (m.phases) {
			json_object_object_add(o, "run_us", stat_json(&m.run));
			json_object_object_add(o, "period_us", stat_json(&m.period));
			json_object_object_add(o, "slack_us", stat_json(&m.slack));
			json_object_object_add(o, "wu_lat_us", stat_json(&m.wu_lat));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}
