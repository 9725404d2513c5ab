/*
 * `schedlab demo`: the three results of 2009 in one screen, each simulated here (one run per
 * setting, the experiments of `repro sleepers`, `repro fork` and `repro fio`), side by side, with
 * a verdict computed from the figures against the rule each 2009 report states:
 *   sleepers: xmodmap took 10 s with NEW_FAIR_SLEEPERS and 0.020 s without (500x): the model
 *     matches when the client takes at least 10x as long with the flag (a stall, not noise);
 *   fork: parent-runs-first (child_runs_first=0) built faster: matches when its build is faster;
 *   fio: menu-2.6.31 lost 21% of idle=poll's MB/s, menu-tng 2%: matches when menu-2.6.31 loses
 *     more than 5% and menu-tng wins back more than half of that loss.
 * The table gives times in ms or s; the JSON keeps nanoseconds (integers) and MB/s.
 */
#include "core/json_out.h"
#include "experiment/repro.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SLEEPER_STALL_RATIO 10.0 /* "a stall": the client at least 10x as long */
#define FIO_MENU_LOSS	    0.05 /* menu-2.6.31 must lose more than 5% to idle=poll */

static const char *const govs[3] = {"poll", "menu-2.6.31", "menu-tng"};

struct demo {
	struct sl_sleepers_one sl[2]; /* NEW_FAIR_SLEEPERS on, off */
	double build[2], csw[2];      /* child first (1), parent first (0) */
	double mbps[3], power[3], seed_mbps[3];
	bool sl_match, fork_match, fio_match;
	double sl_ratio, fork_gain, menu_loss, tng_loss, recovered;
};

static int measure(struct demo *d, u64 seed, char *err, size_t errlen)
{
	char sbuf[24];

	snprintf(sbuf, sizeof(sbuf), "%llu", (unsigned long long)seed);
	for (int i = 0; i < 2; i++)
		if (sl_repro_sleepers_one(i == 0, seed, &d->sl[i], err, errlen) ||
		    sl_repro_fork_one(2, i == 0, seed, &d->build[i], &d->csw[i], err, errlen))
			return -1;
	for (int g = 0; g < 3; g++)
		if (sl_repro_fio_one(1, govs[g], sbuf, &d->mbps[g], &d->power[g], &d->seed_mbps[g],
				     err, errlen))
			return -1;
	d->sl_ratio = d->sl[1].xmodmap_ms > 0 ? d->sl[0].xmodmap_ms / d->sl[1].xmodmap_ms : 0;
	d->sl_match = d->sl_ratio >= SLEEPER_STALL_RATIO;
	d->fork_gain = d->build[0] > 0 ? 1 - d->build[1] / d->build[0] : 0;
	d->fork_match = d->build[1] < d->build[0];
	d->menu_loss = d->mbps[0] > 0 ? 1 - d->mbps[1] / d->mbps[0] : 0;
	d->tng_loss = d->mbps[0] > 0 ? 1 - d->mbps[2] / d->mbps[0] : 0;
	d->recovered = d->menu_loss > 0 ? (d->menu_loss - d->tng_loss) / d->menu_loss : 0;
	d->fio_match = d->menu_loss > FIO_MENU_LOSS && d->recovered > 0.5;
	return 0;
}

static json_object *jd(double v, const char *fmt)
{
	char buf[40];

	snprintf(buf, sizeof(buf), fmt, v);
	return json_object_new_double_s(v, buf);
}

static json_object *jns(double ms)
{
	return json_object_new_int64((int64_t)llround(ms * 1e6));
}

static void add(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static int demo_json(const struct demo *d, u64 seed, FILE *out, char *err, size_t errlen)
{
	json_object *root = json_object_new_object(), *s = json_object_new_object(),
		    *f = json_object_new_object(), *io = json_object_new_object();

	add(root, "seed", json_object_new_int64((int64_t)seed));
	for (int i = 0; i < 2; i++) {
		json_object *r = json_object_new_object();

		add(r, "xmodmap_ns", jns(d->sl[i].xmodmap_ms));
		add(r, "wakeup_latency_p99_ns", jns(d->sl[i].wake_p99_ms));
		add(r, "runqueue_wait_max_ns", jns(d->sl[i].wait_max_ms));
		add(s, i ? "NO_NEW_FAIR_SLEEPERS" : "NEW_FAIR_SLEEPERS", r);
	}
	add(s, "ratio", jd(d->sl_ratio, "%.4f"));
	add(s, "ratio_2009", jd(500, "%.0f"));
	add(s, "matches_2009", json_object_new_boolean(d->sl_match));
	add(root, "sleepers", s);
	for (int i = 0; i < 2; i++) {
		json_object *r = json_object_new_object();

		add(r, "build_ns", jns(d->build[i] * 1e3));
		add(r, "context_switches", json_object_new_int64((int64_t)llround(d->csw[i])));
		add(f, i ? "parent_first" : "child_first", r);
	}
	add(f, "parent_first_gain", jd(d->fork_gain, "%.4f"));
	add(f, "matches_2009", json_object_new_boolean(d->fork_match));
	add(root, "fork", f);
	for (int g = 0; g < 3; g++) {
		json_object *r = json_object_new_object();

		add(r, "bw_mb_s", jd(d->mbps[g], "%.2f"));
		add(r, "bw_mb_s_2009", jd(d->seed_mbps[g], "%.0f"));
		add(r, "average_power_w", jd(d->power[g], "%.2f"));
		add(io, govs[g], r);
	}
	add(io, "menu_loss", jd(d->menu_loss, "%.4f"));
	add(io, "menu_tng_loss", jd(d->tng_loss, "%.4f"));
	add(io, "matches_2009", json_object_new_boolean(d->fio_match));
	add(root, "fio", io);
	if (sl_json_print(out, root)) {
		snprintf(err, errlen, "out of memory writing JSON");
		return -1;
	}
	return 0;
}

/* a time in ms below 1 s, else in s */
static const char *hms(double ms, char *buf, size_t len)
{
	if (ms < 1000)
		snprintf(buf, len, "%.2f ms", ms);
	else
		snprintf(buf, len, "%.3f s", ms / 1000);
	return buf;
}

static void demo_table(const struct demo *d, u64 seed, FILE *out)
{
	char a[32], b[32];

	fprintf(out, "schedlab demo: three results of 2009, simulated (seed %llu)\n\n",
		(unsigned long long)seed);
	fprintf(out, "1. NEW_FAIR_SLEEPERS: a desktop beside nice -n 19 make -j20 (2.6.31, 2 CPUs, "
		     "8 s)\n");
	fprintf(out, "   %-22s %20s %22s\n", "", "NEW_FAIR_SLEEPERS", "NO_NEW_FAIR_SLEEPERS");
	fprintf(out, "   %-22s %20s %22s   2009: 10 s / 20 ms\n", "xmodmap completes",
		hms(d->sl[0].xmodmap_ms, a, sizeof(a)), hms(d->sl[1].xmodmap_ms, b, sizeof(b)));
	fprintf(out, "   %-22s %20s %22s\n", "wake-up latency p99",
		hms(d->sl[0].wake_p99_ms, a, sizeof(a)), hms(d->sl[1].wake_p99_ms, b, sizeof(b)));
	fprintf(out, "   %-22s %20s %22s\n", "longest runqueue wait",
		hms(d->sl[0].wait_max_ms, a, sizeof(a)), hms(d->sl[1].wait_max_ms, b, sizeof(b)));
	fprintf(out, "   verdict: xmodmap %.2fx as long with the flag (2009: 500x): %s\n\n",
		d->sl_ratio,
		d->sl_match ? "a stall, matches 2009" : "no stall, does NOT match 2009");

	fprintf(out, "2. fork: child- against parent-runs-first, make -j4, 400 compiles (2.6.31, 2 "
		     "CPUs)\n");
	fprintf(out, "   %-22s %20s %22s\n", "", "child first (1)", "parent first (0)");
	fprintf(out, "   %-22s %18.3f s %20.3f s\n", "build time", d->build[0], d->build[1]);
	fprintf(out, "   %-22s %20.0f %22.0f\n", "context switches", d->csw[0], d->csw[1]);
	fprintf(out, "   verdict: parent-runs-first builds %.1f%% %s: %s\n\n",
		fabs(d->fork_gain) * 100, d->fork_gain >= 0 ? "faster" : "slower",
		d->fork_match ? "matches 2009 (parent first was faster)"
			      : "does NOT match 2009 (parent first was faster)");

	fprintf(out, "3. fio under idle governors (Nehalem-EP 2x4x2, 1 disk, 128k direct reads, 2 "
		     "s)\n");
	fprintf(out, "   %-22s %11s %11s %11s\n", "", "idle=poll", "menu-2.6.31", "menu-tng");
	fprintf(out, "   %-22s %11.1f %11.1f %11.1f\n", "MB/s", d->mbps[0], d->mbps[1], d->mbps[2]);
	fprintf(out, "   %-22s %11.0f %11.0f %11.0f\n", "MB/s in 2009", d->seed_mbps[0],
		d->seed_mbps[1], d->seed_mbps[2]);
	fprintf(out, "   %-22s %11.1f %11.1f %11.1f\n", "power W", d->power[0], d->power[1],
		d->power[2]);
	fprintf(out,
		"   verdict: menu-2.6.31 loses %.1f%%, menu-tng %.1f%% to poll (2009: 21%%,"
		" 2%%): %s\n",
		d->menu_loss * 100, d->tng_loss * 100,
		d->fio_match ? "matches 2009" : "does NOT match 2009");
}

int sl_demo(u64 seed, bool json, FILE *out, char *err, size_t errlen)
{
	struct demo d;

	memset(&d, 0, sizeof(d));
	if (measure(&d, seed, err, errlen))
		return -1;
	if (json)
		return demo_json(&d, seed, out, err, errlen);
	demo_table(&d, seed, out);
	return 0;
}
