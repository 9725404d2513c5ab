/*
 * `schedlab replay-idle TRACE`: real idle patterns through every governor. From the trace, per
 * CPU: each idle interval (cpu_idle entry to exit) and, at its entry, the time to the CPU's next
 * timer event as its hrtimer events give it (the earliest expiry among the timers started on
 * that CPU and not yet expired or cancelled; hrtimer times are CLOCK_MONOTONIC, mapped to the
 * trace clock by the (now=, timestamp) pairs of hrtimer_expire_entry). Each governor is fed that
 * sequence over a chosen state table and asked for a state at every entry; it then sees the
 * interval as it really lasted (plus the chosen state's exit latency, as a driver measures it).
 *
 * It is an open-loop estimate: on the replayed machine a different state would have changed the
 * future (a later wake-up, a task that ran late); the trace cannot say how. The oracle here knows
 * each real interval and takes the least-energy state for it within the latency limit.
 */
#include "core/json_out.h"
#include "trace/replay_idle.h"
#include "trace/format.h"
#include "cpuidle/profiles.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS   256
#define MAX_TIMERS 64
/*
 * Idle intervals kept for the replay, all CPUs together (24 bytes each: 192 MB): every governor
 * is fed the whole sequence, so it is stored; a longer trace is refused with this limit named
 * rather than read into memory without bound (an hour of a busy 8-CPU capture is ~10^7).
 */
#define SL_REPLAY_MAX_INTERVALS (8u << 20)

struct interval {
	u64 start, len, next_timer;
};

struct cpu_trace {
	struct interval *iv;
	size_t n, cap;
	u64 idle_since;
	bool idle;
	struct {
		u64 id, expires;
	} timers[MAX_TIMERS];
	int ntimers;
};

static void timer_set(struct cpu_trace *c, u64 id, u64 expires)
{
	for (int i = 0; i < c->ntimers; i++)
		if (c->timers[i].id == id) {
			c->timers[i].expires = expires;
			return;
		}
	if (c->ntimers < MAX_TIMERS) {
		c->timers[c->ntimers].id = id;
		c->timers[c->ntimers].expires = expires;
		c->ntimers++;
	}
}

static void timer_del(struct cpu_trace *c, u64 id)
{
	for (int i = 0; i < c->ntimers; i++)
		if (c->timers[i].id == id) {
			c->timers[i] = c->timers[--c->ntimers];
			return;
		}
}

/* What the trace holds besides its idle intervals, for the report. */
struct replay_info {
	u64 timer_events; /* hrtimer_start / expire_entry / cancel */
	u64 malformed;	  /* skipped with --lenient */
};

static int collect(const char *path, bool lenient, struct cpu_trace *cpus, int *ncpu,
		   struct replay_info *info, char *err, size_t errlen)
{
	struct sl_trace_reader r;
	struct sl_trace_record rec;
	s64 offset = 0; /* trace clock - hrtimer clock */
	bool have_offset = false;
	size_t total = 0;
	int rc;

	if (sl_trace_open(&r, NULL, path, lenient, err, errlen))
		return -1;
	while ((rc = sl_trace_next(&r, &rec)) == 1) {
		if (rec.kind == SL_TR_HRTIMER_START || rec.kind == SL_TR_HRTIMER_EXPIRE_ENTRY ||
		    rec.kind == SL_TR_HRTIMER_CANCEL)
			info->timer_events++;
		if (rec.cpu < 0 || rec.cpu >= MAX_CPUS)
			continue;
		struct cpu_trace *c = &cpus[rec.cpu];

		if (rec.cpu + 1 > *ncpu)
			*ncpu = rec.cpu + 1;
		switch (rec.kind) {
		case SL_TR_HRTIMER_START:
			timer_set(c, rec.hrtimer, rec.expires);
			break;
		case SL_TR_HRTIMER_EXPIRE_ENTRY:
			offset = (s64)rec.time - (s64)rec.now;
			have_offset = true;
			timer_del(c, rec.hrtimer);
			break;
		case SL_TR_HRTIMER_CANCEL:
			timer_del(c, rec.hrtimer);
			break;
		case SL_TR_CPU_IDLE: {
			int cpu = rec.cpu_id >= 0 && rec.cpu_id < MAX_CPUS ? rec.cpu_id : rec.cpu;

			c = &cpus[cpu];
			if (cpu + 1 > *ncpu)
				*ncpu = cpu + 1;
			if (rec.state >= 0) {
				c->idle = true;
				c->idle_since = rec.time;
				break;
			}
			if (!c->idle)
				break; /* the state before the trace's first event is unknown */
			c->idle = false;
			if (++total > SL_REPLAY_MAX_INTERVALS) {
				snprintf(err, errlen,
					 "%s:%lu: more than %u idle intervals; the limit is %u "
					 "(SL_REPLAY_MAX_INTERVALS): replay a shorter part of the "
					 "trace",
					 path, rec.line, SL_REPLAY_MAX_INTERVALS,
					 SL_REPLAY_MAX_INTERVALS);
				sl_trace_close(&r);
				return -1;
			}
			if (c->n == c->cap) {
				size_t cap = c->cap ? c->cap * 2 : 256;
				struct interval *iv = realloc(c->iv, cap * sizeof(*iv));

				if (!iv) {
					snprintf(err, errlen, "out of memory");
					sl_trace_close(&r);
					return -1;
				}
				c->iv = iv;
				c->cap = cap;
			}
			u64 next = UINT64_MAX;

			for (int i = 0; i < c->ntimers && have_offset; i++) {
				s64 at = (s64)c->timers[i].expires + offset;

				if (at > (s64)c->idle_since && (u64)at - c->idle_since < next)
					next = (u64)at - c->idle_since;
			}
			c->iv[c->n].start = c->idle_since;
			c->iv[c->n].len = rec.time - c->idle_since;
			c->iv[c->n].next_timer = next;
			c->n++;
			break;
		}
		default:
			break;
		}
	}
	if (rc < 0)
		snprintf(err, errlen, "%s", r.err);
	/* a table of zeros for every governor would read as a result (an empty file, /dev/null,
	 * a trace without power:cpu_idle, or one whose idle lines --lenient skipped): refused
	 * here, before any governor replays nothing */
	if (rc >= 0 && !total) {
		snprintf(err, errlen,
			 "%s: no idle period in its %lu lines (a cpu_idle entry, then its exit): "
			 "nothing to replay; record power/cpu_idle (schedlab record does by "
			 "default)",
			 path, r.lines);
		rc = -1;
	}
	info->malformed = r.malformed;
	sl_trace_close(&r);
	return rc < 0 ? -1 : 0;
}

struct gov_result {
	const char *name;
	u64 usage[SL_CPUIDLE_MAX_STATES], above[SL_CPUIDLE_MAX_STATES],
		below[SL_CPUIDLE_MAX_STATES];
	u64 energy_pj, oracle_pj, exit_ns, agree, periods, pred_err, pred_n;
};

static int replay(const struct sl_cpuidle_governor *gov, const struct sl_cpuidle_driver *drv,
		  struct cpu_trace *cpus, int ncpu, u64 tick_ns, struct gov_result *g)
{
	struct sl_gov_params gp;

	sl_gov_params_default(&gp);

	memset(g, 0, sizeof(*g));
	g->name = gov->name;
	for (int c = 0; c < ncpu; c++) {
		struct sl_cpuidle_dev dev;

		memset(&dev, 0, sizeof(dev));
		dev.cpu = c;
		dev.gp = &gp;
		dev.tick_ns = tick_ns;
		dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
		if (gov->enable && gov->enable(&dev, drv))
			return -1;
		for (size_t k = 0; k < cpus[c].n; k++) {
			const struct interval *iv = &cpus[c].iv[k];

			dev.now_ns = iv->start;
			dev.next_timer_ns = iv->next_timer;
			dev.next_wake_ns = iv->len; /* the oracle governor is told the truth */
			dev.next_tick_ns = tick_ns - iv->start % tick_ns;
			dev.tick_stopped = true;
			dev.stop_tick = true;
			dev.poll_limit_ns = 0;
			dev.predicted_ns = 0;
			int e = gov->select(&dev, drv);

			if (e < 0 || e >= drv->state_count)
				e = 0;
			/* a poll state with a time limit returns early: the rest of the interval is
			 * spent in the next selection, which the replay folds into this one */
			u64 d = iv->len + drv->states[e].exit_latency_ns;
			int o = sl_cpuidle_oracle_choice(drv, &dev, iv->len);

			g->usage[e]++;
			g->periods++;
			g->agree += o == e;
			g->energy_pj += sl_cpuidle_energy_pj(drv, e, iv->len);
			g->oracle_pj += sl_cpuidle_energy_pj(drv, o, iv->len);
			g->exit_ns += drv->states[e].exit_latency_ns;
			if (iv->len < drv->states[e].target_residency_ns && e > 0)
				g->above[e]++;
			else if (e + 1 < drv->state_count &&
				 iv->len >= drv->states[e + 1].target_residency_ns +
						    drv->states[e].exit_latency_ns)
				g->below[e]++;
			/* a period with no known next timer (no timer events before it) gives
			 * the governors an infinite sleep length: what they predict then is
			 * their cap, not a prediction, and is not scored */
			if (dev.predicted_ns && iv->next_timer != UINT64_MAX) {
				g->pred_err += dev.predicted_ns > iv->len
						       ? dev.predicted_ns - iv->len
						       : iv->len - dev.predicted_ns;
				g->pred_n++;
			}
			dev.last_state_idx = e;
			dev.last_residency_ns = d;
			dev.poll_time_limit = false;
			dev.timer_wakeup =
				iv->next_timer != UINT64_MAX && iv->len + 20000 >= iv->next_timer;
			dev.tick_wakeup = false;
			dev.now_ns = iv->start + iv->len;
			if (gov->reflect)
				gov->reflect(&dev, drv, e);
		}
		if (gov->disable)
			gov->disable(&dev);
	}
	return 0;
}

static const char no_timer_note[] =
	"the trace has no hrtimer events: every idle period's next timer is unknown (an infinite "
	"sleep length). menu, menu-tng and teo bound their prediction by it and so predict from "
	"their history alone, and teo/menu's timer-based choices do not happen; ladder, haltpoll "
	"and poll do not use it. Record timer:hrtimer_start, hrtimer_expire_entry and "
	"hrtimer_cancel for a faithful replay";

int sl_replay_idle(const char *path, const char *machine, const char *const *govs, int ngovs,
		   bool lenient, bool json, FILE *out, char *err, size_t errlen)
{
	struct replay_info info = {0};
	struct cpu_trace *cpus = calloc(MAX_CPUS, sizeof(*cpus));
	struct sl_cpuidle_driver drv;
	struct gov_result *res = NULL;
	int ncpu = 0, rc = -1, n = 0;
	const u64 tick_ns = 4000000; /* the shared traces' guest: HZ=250 */
	char e[1024];

	if (!cpus) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (sl_idle_profile_load(machine ? machine : "nehalem", &drv, e, sizeof(e))) {
		snprintf(err, errlen, "--machine %s: %s", machine ? machine : "nehalem", e);
		goto out;
	}
	if (collect(path, lenient, cpus, &ncpu, &info, err, errlen))
		goto out;
	res = calloc((size_t)(ngovs ? ngovs : sl_cpuidle_ngovernors), sizeof(*res));
	if (!res) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < (ngovs ? ngovs : sl_cpuidle_ngovernors); i++) {
		const struct sl_cpuidle_governor *g =
			ngovs ? sl_cpuidle_find_governor(govs[i]) : sl_cpuidle_governors[i];

		if (!g) {
			char hint[128];

			snprintf(err, errlen,
				 "--cpuidle-governor '%s': unknown%s (see schedlab governors)",
				 govs[i], sl_cpuidle_governor_hint(govs[i], hint, sizeof(hint)));
			goto out;
		}
		if (replay(g, &drv, cpus, ncpu, tick_ns, &res[n])) {
			snprintf(err, errlen, "%s: out of memory", g->name);
			goto out;
		}
		n++;
	}
	size_t periods = 0; /* at least one: collect() refuses a trace without */

	for (int c = 0; c < ncpu; c++)
		periods += cpus[c].n;
	if (json) {
		json_object *root = json_object_new_object(), *arr = json_object_new_array();

		json_object_object_add(root, "trace", json_object_new_string(path));
		json_object_object_add(root, "machine", json_object_new_string(drv.name));
		json_object_object_add(root, "cpus", json_object_new_int(ncpu));
		json_object_object_add(root, "idle_periods",
				       json_object_new_int64((int64_t)periods));
		json_object_object_add(root, "timer_events",
				       json_object_new_int64((int64_t)info.timer_events));
		json_object_object_add(root, "malformed_skipped",
				       json_object_new_int64((int64_t)info.malformed));
		if (!info.timer_events)
			json_object_object_add(root, "warning",
					       json_object_new_string(no_timer_note));
		json_object_object_add(
			root, "caveat",
			json_object_new_string(
				"open loop: the replayed machine's future would differ "
				"with its choices; the trace cannot say how"));
		for (int i = 0; i < n; i++) {
			json_object *o = json_object_new_object(), *st = json_object_new_array();

			json_object_object_add(o, "governor", json_object_new_string(res[i].name));
			for (int s = 0; s < drv.state_count; s++) {
				json_object *so = json_object_new_object();

				json_object_object_add(so, "name",
						       json_object_new_string(drv.states[s].name));
				json_object_object_add(
					so, "usage",
					json_object_new_int64((int64_t)res[i].usage[s]));
				json_object_object_add(
					so, "above",
					json_object_new_int64((int64_t)res[i].above[s]));
				json_object_object_add(
					so, "below",
					json_object_new_int64((int64_t)res[i].below[s]));
				json_object_array_add(st, so);
			}
			json_object_object_add(o, "states", st);
			json_object_object_add(
				o, "energy_j",
				json_object_new_double((double)res[i].energy_pj / 1e12));
			json_object_object_add(
				o, "oracle_energy_j",
				json_object_new_double((double)res[i].oracle_pj / 1e12));
			json_object_object_add(o, "exit_latency_ns",
					       json_object_new_int64((int64_t)res[i].exit_ns));
			json_object_object_add(
				o, "oracle_agreement",
				json_object_new_double(res[i].periods
							       ? (double)res[i].agree /
									 (double)res[i].periods
							       : 0));
			/* null: the governor predicts nothing */
			json_object_object_add(
				o, "prediction_mean_abs_error_ns",
				res[i].pred_n ? json_object_new_int64(
							(int64_t)(res[i].pred_err / res[i].pred_n))
					      : NULL);
			json_object_array_add(arr, o);
		}
		json_object_object_add(root, "governors", arr);
		sl_json_print(out, root);
	} else {
		fprintf(out,
			"replay-idle: %s, %d CPUs, %zu idle periods, over the %s states\n"
			"(open loop: the replayed machine's future would differ with its "
			"choices; the trace cannot say how)\n\n",
			path, ncpu, periods, drv.name);
		if (!info.timer_events)
			fprintf(out, "warning: %s.\n\n", no_timer_note);
		if (info.malformed)
			fprintf(out, "malformed lines skipped: %llu\n\n",
				(unsigned long long)info.malformed);
		fprintf(out, "%-12s %12s %12s %9s %12s  %s\n", "governor", "energy mJ", "exit us",
			"oracle", "|pred err| us", "entries per state");
		for (int i = 0; i < n; i++) {
			fprintf(out, "%-12s %12.3f %12.1f %8.1f%% ", res[i].name,
				(double)res[i].energy_pj / 1e9, (double)res[i].exit_ns / 1e3,
				res[i].periods
					? 100.0 * (double)res[i].agree / (double)res[i].periods
					: 0);
			if (res[i].pred_n) /* "-": the governor predicts nothing */
				fprintf(out, "%12.1f ",
					(double)res[i].pred_err / (double)res[i].pred_n / 1e3);
			else
				fprintf(out, "%12s ", "-");
			for (int s = 0; s < drv.state_count; s++)
				if (res[i].usage[s])
					fprintf(out, " %s %llu", drv.states[s].name,
						(unsigned long long)res[i].usage[s]);
			fputc('\n', out);
		}
		if (n)
			fprintf(out,
				"%-12s %12.3f   (the least-energy state for each real interval)\n",
				"(oracle)", (double)res[0].oracle_pj / 1e9);
	}
	rc = 0;
out:
	for (int c = 0; c < MAX_CPUS; c++)
		free(cpus[c].iv);
	free(cpus);
	free(res);
	return rc;
}
