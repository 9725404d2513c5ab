#include "experiment/row_figs.h"
#include "experiment/row_stats.h"

#include <stddef.h>

void sl_row_figs_add(struct sl_row_figs *f, const struct sl_stats *st, int g)
{
	const struct sl_group_stat *gs = &st->g[g];

	sl_spread_add(&f->cpu_ms, (double)gs->cpu_ns / 1e6);
	sl_spread_add(&f->switches, (double)sl_row_stats_switches(st, g));
	sl_spread_add(&f->wakeups, (double)gs->wakeups);
	sl_spread_add(&f->p50_ms, (double)sl_hist_percentile(&gs->lat, 50) / 1e6);
	sl_spread_add(&f->p95_ms, (double)sl_hist_percentile(&gs->lat, 95) / 1e6);
	sl_spread_add(&f->max_ms, (double)gs->lat.max / 1e6);
}

static const struct {
	const char *key;
	size_t off;
} fig_keys[] = {
	[SL_FIG_TASKS] = {"tasks", offsetof(struct sl_row_figs, tasks)},
	[SL_FIG_CPU_MS] = {"cpu_ms", offsetof(struct sl_row_figs, cpu_ms)},
	[SL_FIG_SHARE] = {"cpu_share_pct", offsetof(struct sl_row_figs, share)},
	[SL_FIG_SWITCHES] = {"context_switches", offsetof(struct sl_row_figs, switches)},
	[SL_FIG_WAKEUPS] = {"wakeups", offsetof(struct sl_row_figs, wakeups)},
	[SL_FIG_P50] = {"wakeup_latency_p50_ms", offsetof(struct sl_row_figs, p50_ms)},
	[SL_FIG_P95] = {"wakeup_latency_p95_ms", offsetof(struct sl_row_figs, p95_ms)},
	[SL_FIG_MAX] = {"wakeup_latency_max_ms", offsetof(struct sl_row_figs, max_ms)},
};

void sl_row_figs_json(json_object *o, const struct sl_row_figs *f, const enum sl_row_fig *which,
		      int n)
{
	for (int i = 0; i < n; i++) {
		const void *fig = (const char *)f + fig_keys[which[i]].off;

		json_object_object_add(o, fig_keys[which[i]].key, sl_spread_json(fig));
	}
	/* no seed at all is as unfinished: no completion to give */
	json_object_object_add(o, "completion_ms",
			       f->unfinished || !f->comp_ms.n ? NULL : sl_spread_json(&f->comp_ms));
}
