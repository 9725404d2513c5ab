/*
 * The cpuidle part of a configuration: which machine's state table (--machine), which governor
 * (--cpuidle-governor), idle=poll, the PM QoS limit, per-state disable and the tunables
 * (--cpuidle-param), with errors that name the option and list what is valid.
 */
#include "config/config.h"
#include "core/parse.h"
#include "cpuidle/profiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void governor_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < sl_cpuidle_ngovernors; i++)
		sl_append(buf, len, &off, "%s%s", i ? ", " : "", sl_cpuidle_governors[i]->name);
}

static int state_index(const struct sl_cpuidle_driver *drv, const char *name)
{
	for (int i = 0; i < drv->state_count; i++)
		if (!strcmp(drv->states[i].name, name))
			return i;
	return -1;
}

/* --cpuidle-disable: the state as sysfs shows it: its directory stateN, N, or its name */
static int state_arg(const struct sl_cpuidle_driver *drv, const char *s)
{
	int k = state_index(drv, s);
	const char *p = !strncmp(s, "state", 5) ? s + 5 : s;
	char *end;
	long n;

	if (k >= 0 || *p < '0' || *p > '9')
		return k;
	n = strtol(p, &end, 10);
	return !*end && n >= 0 && n < drv->state_count ? (int)n : -1;
}

static void state_names(const struct sl_cpuidle_driver *drv, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < drv->state_count; i++)
		sl_append(buf, len, &off, "%s%s", i ? ", " : "", drv->states[i].name);
}

/* NAME=VALUE for the governor tunables, the busy power, and power_mw.STATE / entry_energy_nj.STATE
 */
static int set_param(struct sl_config *cfg, const char *s, char *err, size_t errlen)
{
	const char *eq = strchr(s, '=');
	char name[64], e[200], names[256];
	u64 v;

	if (!eq || (size_t)(eq - s) >= sizeof(name)) {
		snprintf(err, errlen, "--cpuidle-param '%s': expected NAME=VALUE", s);
		return -1;
	}
	memcpy(name, s, (size_t)(eq - s));
	name[eq - s] = '\0';
	if (sl_parse_u64(eq + 1, &v, e, sizeof(e))) {
		snprintf(err, errlen, "--cpuidle-param %s: %s", name, e);
		return -1;
	}
	int r = sl_gov_param_set(&cfg->gp, name, v, err, errlen);

	if (r != -2)
		return r;
	if (!strcmp(name, "bm_check") || !strcmp(name, "latency_factor")) {
		/* acpi_idle's: the bus-master check, and processor.latency_factor (each
		 * non-poll state's target residency = exit latency x factor, in microseconds as
		 * acpi_processor_setup_cpuidle computed it) */
		if (!cfg->drv.latency_factor) {
			snprintf(err, errlen,
				 "--cpuidle-param %s: machine %s is not an acpi_idle table", name,
				 cfg->drv.name);
			return -1;
		}
		if (name[0] == 'b') {
			if (v > 1) {
				snprintf(err, errlen, "--cpuidle-param bm_check: expected 0 or 1");
				return -1;
			}
			cfg->drv.bm_check = v;
			return 0;
		}
		if (v < 1 || v > 1000) {
			snprintf(err, errlen, "--cpuidle-param latency_factor: expected 1..1000");
			return -1;
		}
		cfg->drv.latency_factor = (unsigned)v;
		for (int i = 0; i < cfg->drv.state_count; i++) {
			struct sl_idle_state *st = &cfg->drv.states[i];

			if (!(st->flags & CPUIDLE_FLAG_POLL))
				st->target_residency_ns =
					st->exit_latency_ns / NSEC_PER_USEC * v * NSEC_PER_USEC;
		}
		return 0;
	}
	if (!strcmp(name, "busy_power_mw"))
		cfg->drv.busy_power_mw = v;
	else if (!strncmp(name, "power_mw.", 9) || !strncmp(name, "entry_energy_nj.", 16)) {
		const char *st = strchr(name, '.') + 1;
		int i = state_index(&cfg->drv, st);

		if (i < 0) {
			state_names(&cfg->drv, names, sizeof(names));
			snprintf(err, errlen,
				 "--cpuidle-param %s: machine %s has no state '%s' (%s)", name,
				 cfg->drv.name, st, names);
			return -1;
		}
		if (name[0] == 'p')
			cfg->drv.states[i].power_mw = v;
		else
			cfg->drv.states[i].entry_energy_nj = v;
	} else {
		sl_gov_param_names(names, sizeof(names));
		snprintf(err, errlen,
			 "--cpuidle-param: unknown '%s' (valid: %s, bm_check, latency_factor, "
			 "busy_power_mw, power_mw.STATE, "
			 "entry_energy_nj.STATE)",
			 name, names);
		return -1;
	}
	return 0;
}

int sl_config_build_idle(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen)
{
	char e[1024], names[512];

	sl_gov_params_default(&cfg->gp);
	cfg->pm_qos_ns = SL_PM_QOS_DEFAULT_NS;
	const char *machine = a->machine;

	if (a->idle_driver && strcmp(a->idle_driver, "acpi_idle") &&
	    strcmp(a->idle_driver, "intel_idle")) {
		snprintf(err, errlen, "--idle-driver '%s': expected acpi_idle or intel_idle",
			 a->idle_driver);
		return -1;
	}
	/* Nehalem before 2.6.35 ran acpi_idle on the BIOS _CST (docs/model/cpuidle.md §7.4) */
	if (machine && !strcmp(machine, "nehalem") &&
	    (a->idle_driver ? !strcmp(a->idle_driver, "acpi_idle") : cfg->rel->acpi_idle))
		machine = "nehalem-acpi";
	if (machine) {
		if (sl_idle_profile_load(machine, &cfg->drv, e, sizeof(e))) {
			snprintf(err, errlen, "--machine %s: %s", a->machine, e);
			return -1;
		}
		/* no cpuidle driver: the kernel never polls, it halts (sysfs.c) */
		if (!strcmp(cfg->drv.name, "sysfs:none"))
			cfg->disabled[0] = true;
	} else {
		cfg->drv = sl_cpuidle_poll_driver;
	}
	/* the kernel picks the highest-rated governor built in: the release's menu */
	const char *def = cfg->drv.state_count < 2 ? "poll" : cfg->rel->idle_governor;

	cfg->gov = sl_cpuidle_find_governor(a->governor ? a->governor : def);
	if (!cfg->gov) {
		char hint[128];

		governor_names(names, sizeof(names));
		snprintf(err, errlen, "--cpuidle-governor '%s': unknown%s (valid: %s)", a->governor,
			 sl_cpuidle_governor_hint(a->governor, hint, sizeof(hint)), names);
		return -1;
	}
	if (a->idle) {
		if (strcmp(a->idle, "poll")) {
			snprintf(err, errlen, "--idle '%s': only idle=poll is modelled", a->idle);
			return -1;
		}
		/* idle=poll: the idle loop spins in C0; cpuidle is not used */
		cfg->drv.state_count = 1;
		cfg->gov = sl_cpuidle_find_governor("poll");
	}
	if (a->pm_qos_us) {
		u64 us;

		if (sl_parse_u64(a->pm_qos_us, &us, e, sizeof(e)) || us > 2000000000ULL) {
			snprintf(err, errlen,
				 "--pm-qos-latency-us '%s': expected 0..2000000000 microseconds",
				 a->pm_qos_us);
			return -1;
		}
		cfg->pm_qos_ns = us * 1000;
	}
	for (int i = 0; i < a->ncpuidle_disable; i++) {
		int k = state_arg(&cfg->drv, a->cpuidle_disable[i]);

		if (k < 0) {
			state_names(&cfg->drv, names, sizeof(names));
			snprintf(err, errlen,
				 "--cpuidle-disable %s: machine %s has no such state "
				 "(state0..state%d, "
				 "0..%d or a name: %s)",
				 a->cpuidle_disable[i], cfg->drv.name, cfg->drv.state_count - 1,
				 cfg->drv.state_count - 1, names);
			return -1;
		}
		cfg->disabled[k] = true;
	}
	for (int i = 0; i < a->ncpuidle_params; i++)
		if (set_param(cfg, a->cpuidle_params[i], err, errlen))
			return -1;
	return 0;
}
