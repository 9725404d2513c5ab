/* Machine descriptions for validate, calibrate and the trace replay (see machine_conf.h). */
#include "machine/machine_conf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/parse.h"
#include "cpuidle/profiles.h"
#include "machine/params.h"
#include "sched/release.h"

/* The model of the release (sl_release_of_uname), the governor and the idle profile. */
static void derive(struct sl_machine_conf *mc, const char *dir)
{
	const struct sl_release *rel = sl_release_of_uname(mc->kernel_release);

	snprintf(mc->model_kernel, sizeof(mc->model_kernel), "%s", rel ? rel->name : "");
	/* the governors the model has under the real names; another one: the release's own */
	static const char *const same[] = {"menu", "teo", "ladder", "haltpoll"};

	mc->governor = NULL;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (!strcmp(mc->cpuidle_governor, same[i]))
			mc->governor = same[i];
	mc->builtin_profile[0] = '\0';
	if (mc->idle_profile[0] && mc->idle_profile[0] != '/' && dir) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", dir, mc->idle_profile);
		snprintf(mc->idle_profile, sizeof(mc->idle_profile), "%s", p);
	}
	if (mc->idle_profile[0])
		return;
	const struct sl_idle_profile *ip = sl_idle_profile_for_driver(mc->cpuidle_driver);

	if (!ip)
		return;
	snprintf(mc->builtin_profile, sizeof(mc->builtin_profile), "%s", ip->name);
	if (!ip->no_poll)
		return;
	for (int i = 0; i < mc->ndisable; i++)
		if (!strcmp(mc->disable[i], "POLL"))
			return;
	if (mc->ndisable < SL_MC_MAX_DISABLE)
		snprintf(mc->disable[mc->ndisable++], sizeof(mc->disable[0]), "POLL");
}

/* The directory of path ("." for a bare name): where its relative names point. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash)
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, len, ".");
}

/* the keys a description gives once: a second line of one is a contradiction, not an update */
static const char *const once_keys[] = {"cpus",
					"kernel_release",
					"cpuidle_driver",
					"cpuidle_governor",
					"idle_profile",
					"background_rate",
					"background_run",
					"background_long_rate",
					"background_long_run",
					"background_runs",
					"background_long_free",
					"background_pinned",
					"background_phase_random"};

/* val as a whole decimal number in [lo, hi] into *v: 0, or -1 (empty, other text, out of range) */
static int whole_in(const char *val, long lo, long hi, long *v)
{
	char *end;

	*v = strtol(val, &end, 10);
	return !*val || *end || *v < lo || *v > hi ? -1 : 0;
}

int sl_machine_conf_read(struct sl_machine_conf *mc, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned long n = 0, first[SL_ARRAY_SIZE(once_keys)] = {0};
	int rc = -1;

	memset(mc, 0, sizeof(*mc));
	if (!f) {
		snprintf(err, errlen,
			 "%s: %s (a real run's directory holds machine.conf: cpus, kernel_release, "
			 "cpuidle_driver, cpuidle_governor; see schedlab validate --help)",
			 path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char key[64], val[400], extra[8];

		n++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%lu: line longer than %zu characters", path, n,
				 sizeof(line) - 2);
			goto out;
		}
		char *hash = strchr(line, '#');

		if (hash)
			*hash = '\0';
		int k = sscanf(line, "%63s %399s %7s", key, val, extra);

		if (k <= 0)
			continue;
		if (k != 2) {
			snprintf(err, errlen, "%s:%lu: expected 'KEY VALUE'", path, n);
			goto out;
		}
		for (size_t i = 0; i < SL_ARRAY_SIZE(once_keys); i++) {
			if (strcmp(key, once_keys[i]))
				continue;
			if (first[i]) {
				snprintf(err, errlen, "%s:%lu: %s given twice (first on line %lu)",
					 path, n, key, first[i]);
				goto out;
			}
			first[i] = n;
		}
		if (!strcmp(key, "cpus")) {
			long v;

			if (whole_in(val, 1, 4096, &v)) {
				snprintf(err, errlen, "%s:%lu: cpus: expected 1 to 4096, got '%s'",
					 path, n, val);
				goto out;
			}
			mc->cpus = (int)v;
		} else if (!strcmp(key, "kernel_release")) {
			snprintf(mc->kernel_release, sizeof(mc->kernel_release), "%s", val);
		} else if (!strcmp(key, "cpuidle_driver")) {
			snprintf(mc->cpuidle_driver, sizeof(mc->cpuidle_driver), "%s", val);
		} else if (!strcmp(key, "cpuidle_governor")) {
			snprintf(mc->cpuidle_governor, sizeof(mc->cpuidle_governor), "%s", val);
		} else if (!strcmp(key, "idle_profile")) {
			snprintf(mc->idle_profile, sizeof(mc->idle_profile), "%s", val);
		} else if (!strcmp(key, "cpuidle_disable")) {
			if (mc->ndisable == SL_MC_MAX_DISABLE) {
				snprintf(err, errlen, "%s:%lu: at most %d cpuidle_disable lines",
					 path, n, SL_MC_MAX_DISABLE);
				goto out;
			}
			snprintf(mc->disable[mc->ndisable++], sizeof(mc->disable[0]), "%s", val);
		} else if (!strcmp(key, "background_rate") ||
			   !strcmp(key, "background_long_rate")) {
			long v;

			if (whole_in(val, 0, 100000, &v)) {
				snprintf(err, errlen,
					 "%s:%lu: %s: expected 0 to 100000 wake-ups "
					 "per "
					 "second, got '%s'",
					 path, n, key, val);
				goto out;
			}
			if (!strcmp(key, "background_rate"))
				mc->bg.rate = (unsigned long)v;
			else
				mc->bg.long_rate = (unsigned long)v;
		} else if (!strcmp(key, "background_run") || !strcmp(key, "background_long_run")) {
			char e[128];

			if (sl_parse_duration(val,
					      !strcmp(key, "background_run") ? &mc->bg.run_ns
									     : &mc->bg.long_run_ns,
					      e, sizeof(e))) {
				snprintf(err, errlen, "%s:%lu: %s: %s", path, n, key, e);
				goto out;
			}
		} else if (!strcmp(key, "background_long_free")) {
			if (strcmp(val, "0") && strcmp(val, "1")) {
				snprintf(err, errlen,
					 "%s:%lu: background_long_free: expected 0 or 1, got '%s'",
					 path, n, val);
				goto out;
			}
			mc->bg.long_free = val[0] == '1';
		} else if (!strcmp(key, "background_pinned")) {
			long v;

			if (whole_in(val, 0, 1000, &v)) {
				snprintf(err, errlen,
					 "%s:%lu: background_pinned: expected 0 to 1000 (per 1000 "
					 "of "
					 "the background pinned to its CPU), got '%s'",
					 path, n, val);
				goto out;
			}
			mc->bg.pinned_set = true;
			mc->bg.pinned = (unsigned)v;
		} else if (!strcmp(key, "background_phase_random")) {
			if (strcmp(val, "0") && strcmp(val, "1")) {
				snprintf(err, errlen,
					 "%s:%lu: background_phase_random: expected 0 or 1, got "
					 "'%s'",
					 path, n, val);
				goto out;
			}
			mc->bg.phase_random = val[0] == '1';
		} else if (!strcmp(key, "background_runs")) {
			char e[128], item[64];
			const char *p = val;

			while (*p) {
				size_t k = strcspn(p, ",");

				if (mc->bg.nruns == SL_MC_MAX_BG_RUNS || !k || k >= sizeof(item) ||
				    (p[k] == ',' && !p[k + 1])) {
					snprintf(err, errlen,
						 "%s:%lu: background_runs: expected 1 to %d "
						 "durations separated by commas, got '%s'",
						 path, n, SL_MC_MAX_BG_RUNS, val);
					goto out;
				}
				memcpy(item, p, k);
				item[k] = '\0';
				if (sl_parse_duration(item, &mc->bg.runs_ns[mc->bg.nruns], e,
						      sizeof(e))) {
					snprintf(err, errlen, "%s:%lu: background_runs: '%s': %s",
						 path, n, item, e);
					goto out;
				}
				if (!mc->bg.runs_ns[mc->bg.nruns]) {
					snprintf(err, errlen,
						 "%s:%lu: background_runs: '%s': expected more "
						 "than 0",
						 path, n, item);
					goto out;
				}
				mc->bg.nruns++;
				p += k + (p[k] == ',');
			}
		} else if (!strcmp(key, "param")) {
			struct sl_params scratch;
			char e[1200];

			if (mc->nparams == SL_MC_MAX_PARAMS) {
				snprintf(err, errlen, "%s:%lu: at most %d param lines", path, n,
					 SL_MC_MAX_PARAMS);
				goto out;
			}
			/* checked here, where the file and line are known (the run would name a
			 * command-line --param that was never typed) */
			sl_params_default(&scratch);
			if (sl_params_set(&scratch, val, e, sizeof(e))) {
				snprintf(err, errlen, "%s:%lu: param: %s", path, n, e);
				goto out;
			}
			snprintf(mc->param[mc->nparams++], sizeof(mc->param[0]), "%s", val);
		} else {
			snprintf(err, errlen,
				 "%s:%lu: unknown key '%s' (cpus, kernel_release, cpuidle_driver, "
				 "cpuidle_governor, idle_profile, cpuidle_disable, param, "
				 "background_rate, background_run, background_runs, "
				 "background_long_rate, background_long_run, background_long_free, "
				 "background_pinned, background_phase_random)",
				 path, n, key);
			goto out;
		}
	}
	if (ferror(f)) { /* a directory opens, and reads as EISDIR */
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	rc = 0;
out:
	fclose(f);
	return rc;
}

int sl_machine_conf_load(struct sl_machine_conf *mc, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];

	if (sl_machine_conf_read(mc, path, err, errlen))
		return -1;
	if (!mc->cpus || !mc->kernel_release[0] || !mc->cpuidle_driver[0]) {
		snprintf(err, errlen, "%s: cpus, kernel_release and cpuidle_driver are required",
			 path);
		return -1;
	}
	dir_of(path, dir, sizeof(dir));
	derive(mc, dir);
	return 0;
}

/* a sysfs attribute's first line, or def when it cannot be read */
static void read_line(const char *path, char *buf, size_t len, const char *def)
{
	if (sl_read_first_line(path, buf, len))
		snprintf(buf, len, "%s", def);
}

int sl_machine_conf_live(struct sl_machine_conf *mc, char *err, size_t errlen)
{
	struct utsname u;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(mc, 0, sizeof(*mc));
	if (uname(&u) || n < 1) {
		snprintf(err, errlen, "cannot read this machine's kernel release or CPU count");
		return -1;
	}
	mc->cpus = (int)n;
	snprintf(mc->kernel_release, sizeof(mc->kernel_release), "%s", u.release);
	read_line("/sys/devices/system/cpu/cpuidle/current_driver", mc->cpuidle_driver,
		  sizeof(mc->cpuidle_driver), "none");
	read_line("/sys/devices/system/cpu/cpuidle/current_governor", mc->cpuidle_governor,
		  sizeof(mc->cpuidle_governor), "none");
	derive(mc, NULL);
	return 0;
}

int sl_machine_conf_print(FILE *f, const struct sl_machine_conf *mc)
{
	fprintf(f, "# schedlab machine description (docs: schedlab validate --help)\n");
	fprintf(f, "cpus %d\nkernel_release %s\ncpuidle_driver %s\ncpuidle_governor %s\n", mc->cpus,
		mc->kernel_release, mc->cpuidle_driver, mc->cpuidle_governor);
	if (mc->idle_profile[0])
		fprintf(f, "idle_profile %s\n", mc->idle_profile);
	for (int i = 0; i < mc->ndisable; i++)
		fprintf(f, "cpuidle_disable %s\n", mc->disable[i]);
	for (int i = 0; i < mc->nparams; i++)
		fprintf(f, "param %s\n", mc->param[i]);
	if (mc->bg.rate)
		fprintf(f, "background_rate %lu\nbackground_run %lluns\n", mc->bg.rate,
			(unsigned long long)mc->bg.run_ns);
	if (mc->bg.nruns) {
		fprintf(f, "background_runs ");
		for (int i = 0; i < mc->bg.nruns; i++)
			fprintf(f, "%s%lluns", i ? "," : "", (unsigned long long)mc->bg.runs_ns[i]);
		fprintf(f, "\n");
	}
	if (mc->bg.long_rate)
		fprintf(f, "background_long_rate %lu\nbackground_long_run %lluns\n",
			mc->bg.long_rate, (unsigned long long)mc->bg.long_run_ns);
	if (mc->bg.long_free)
		fprintf(f, "background_long_free 1\n");
	if (mc->bg.pinned_set)
		fprintf(f, "background_pinned %u\n", mc->bg.pinned);
	if (mc->bg.phase_random)
		fprintf(f, "background_phase_random 1\n");
	return ferror(f) ? -1 : 0;
}

int sl_machine_conf_write(const char *path, const struct sl_machine_conf *mc, char *err,
			  size_t errlen)
{
	struct sl_outfile o;

	if (sl_outfile_open(&o, path, err, errlen))
		return -1;
	if (sl_machine_conf_print(o.f, mc)) {
		sl_outfile_abort(&o);
		snprintf(err, errlen, "%s: write error", path);
		return -1;
	}
	return sl_outfile_commit(&o, err, errlen);
}

int sl_machine_conf_write_live(const char *path, char *err, size_t errlen)
{
	struct sl_machine_conf mc;
	struct sl_outfile o;

	if (sl_machine_conf_live(&mc, err, errlen))
		return -1;
	/* a driver the model has no table for: this machine's sysfs table, kept beside */
	if (strcmp(mc.cpuidle_driver, "none") && strcmp(mc.cpuidle_driver, "haltpoll")) {
		struct sl_cpuidle_driver drv;
		char prof[PATH_MAX + 16], dir[PATH_MAX];

		if (sl_idle_profile_load("sysfs", &drv, err, errlen))
			return -1;
		dir_of(path, dir, sizeof(dir));
		snprintf(prof, sizeof(prof), "%s/machine.profile", dir);
		if (sl_outfile_open(&o, prof, err, errlen))
			return -1;
		if (sl_idle_profile_write(o.f, &drv)) {
			sl_outfile_abort(&o);
			snprintf(err, errlen, "%s: write error", prof);
			return -1;
		}
		if (sl_outfile_commit(&o, err, errlen))
			return -1;
		snprintf(mc.idle_profile, sizeof(mc.idle_profile), "machine.profile");
	}
	mc.ndisable = 0; /* derived again on load */
	return sl_machine_conf_write(path, &mc, err, errlen);
}

int sl_machine_conf_same_machine(const struct sl_machine_conf *cal, const char *path,
				 const struct sl_machine_conf *mc, const char *whose,
				 const char *advice, char *err, size_t errlen)
{
	if (cal->cpus == mc->cpus && !strcmp(cal->kernel_release, mc->kernel_release))
		return 0;
	snprintf(err, errlen, "%s describes %d CPUs running %s; %s %d running %s: %s", path,
		 cal->cpus, cal->kernel_release, whose, mc->cpus, mc->kernel_release, advice);
	return -1;
}

int sl_machine_conf_for_trace(struct sl_machine_conf *mc, const char *calib_dir, char *err,
			      size_t errlen)
{
	struct sl_machine_conf cal;
	char conf[PATH_MAX + 16];

	snprintf(conf, sizeof(conf), "%s/machine.conf", calib_dir);
	if (sl_machine_conf_load(&cal, conf, err, errlen) || sl_machine_conf_live(mc, err, errlen))
		return -1;
	if (sl_machine_conf_same_machine(&cal, conf, mc, "this machine has",
					 "its costs are not this machine's", err, errlen))
		return -1;
	memcpy(mc->param, cal.param, sizeof(cal.param));
	mc->nparams = cal.nparams;
	mc->idle_profile[0] = 0; /* the costs are what a recording's replay reads */
	mc->ndisable = 0;
	return 0;
}
