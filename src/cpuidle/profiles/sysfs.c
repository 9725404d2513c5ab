/*
 * "sysfs[:ROOT]": the idle states of THIS machine, read at load time from
 * ROOT/cpu0/cpuidle/stateN/{name,latency,residency,power} (docs/model/cpuidle.md §9.1), ROOT
 * defaulting to /sys/devices/system/cpu (tests pass a fake tree). cpu0 stands for every CPU.
 *
 * What sysfs does not say is filled in as follows:
 *   - flags: every state TIME_VALID (modern kernels measure every state); POLL for the state
 *     named "POLL". TLB_FLUSHED and TIMER_STOP are not exported, so they are left clear.
 *   - residency missing (kernels before the file existed): the exit latency.
 *   - power: drivers mostly report 0 (intel_idle) or -1 (poll, 4294967295 as read); both mean
 *     unknown and give 0 mW. busy_power_mw and the entry energies are unknown too: 0. Runs that
 *     need energy figures should use a built-in profile or a file:PATH table.
 *   - the driver name: "sysfs:" plus ROOT/cpuidle/current_driver when readable.
 * A machine without a cpuidle driver (current_driver "none", no cpu0/cpuidle: a VM idling with
 * HLT, or cpuidle.off=1) idles through the kernel's default_idle_call, the architecture's
 * default idle: HLT on x86 (docs/model/cpuidle.md). That machine loads as the vm-hlt table, named
 * "sysfs:none", with POLL disabled by the configuration, as `validate` models it.
 */
#include "cpuidle/profiles/profile.h"
#include "core/parse.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SYSFS_CPU_ROOT "/sys/devices/system/cpu"

extern const struct sl_idle_profile sl_profile_vm_hlt;

/* A decimal integer, possibly negative (power -1); -1 if the text is not one. */
static int parse_int(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	if (end == s || errno)
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	return *end ? -1 : 0;
}

static int read_number(const char *dir, const char *file, long long *v, bool *present, char *err,
		       size_t errlen)
{
	char path[4096], buf[64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (sl_read_first_line(path, buf, sizeof(buf))) {
		if (present && errno == ENOENT) {
			*present = false;
			return 0;
		}
		snprintf(err, errlen, "sysfs: cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (parse_int(buf, v)) {
		snprintf(err, errlen, "sysfs: %s: expected a number, got '%s'", path, buf);
		return -1;
	}
	if (present)
		*present = true;
	return 0;
}

static int load_state(struct sl_idle_state *st, const char *dir, char *err, size_t errlen)
{
	char path[4096], name[64];
	long long lat, res, pw;
	bool has_res, has_pw;

	snprintf(path, sizeof(path), "%s/name", dir);
	if (sl_read_first_line(path, name, sizeof(name))) {
		snprintf(err, errlen, "sysfs: cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (read_number(dir, "latency", &lat, NULL, err, errlen) ||
	    read_number(dir, "residency", &res, &has_res, err, errlen) ||
	    read_number(dir, "power", &pw, &has_pw, err, errlen))
		return -1;
	if (lat < 0 || (has_res && res < 0)) {
		snprintf(err, errlen, "sysfs: %s: negative latency or residency", dir);
		return -1;
	}
	if (!has_res)
		res = lat;
	snprintf(st->name, sizeof(st->name), "%s", name);
	st->exit_latency_ns = (u64)lat * NSEC_PER_USEC;
	st->target_residency_ns = (u64)res * NSEC_PER_USEC;
	/* 0 and -1 (4294967295 as an unsigned int) mean "not given" */
	st->power_mw = (has_pw && pw > 0 && pw < 4294967295LL) ? (u64)pw : 0;
	st->flags = CPUIDLE_FLAG_TIME_VALID;
	if (!strcmp(st->name, "POLL"))
		st->flags |= CPUIDLE_FLAG_POLL;
	st->entry_energy_nj = 0;
	return 0;
}

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	const char *root = arg ? arg : SYSFS_CPU_ROOT;
	char dir[4096], sdir[4200], drvname[32];
	struct stat sb;
	DIR *d;
	int n;

	if (!*root) {
		snprintf(err, errlen, "sysfs: empty directory in 'sysfs:' (sysfs[:DIR])");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/cpu0/cpuidle", root);
	d = opendir(dir);
	int oerr = errno;

	snprintf(sdir, sizeof(sdir), "%s/cpuidle/current_driver", root);
	if (!d && oerr == ENOENT && !sl_read_first_line(sdir, drvname, sizeof(drvname)) &&
	    !strcmp(drvname, "none")) {
		if (sl_profile_vm_hlt.load(drv, NULL, err, errlen))
			return -1;
		snprintf(drv->name, sizeof(drv->name), "sysfs:none");
		return 0;
	}
	if (!d) {
		snprintf(err, errlen, "sysfs: cannot open %s: %s (no cpuidle states to read)", dir,
			 strerror(oerr));
		return -1;
	}
	closedir(d);
	for (n = 0;; n++) {
		snprintf(sdir, sizeof(sdir), "%s/state%d", dir, n);
		if (stat(sdir, &sb) || !S_ISDIR(sb.st_mode))
			break;
		if (n >= SL_CPUIDLE_MAX_STATES) {
			snprintf(err, errlen, "sysfs: %s has more than %d states", dir,
				 SL_CPUIDLE_MAX_STATES);
			return -1;
		}
		if (load_state(&drv->states[n], sdir, err, errlen))
			return -1;
	}
	if (!n) {
		snprintf(err, errlen, "sysfs: %s has no state0 directory", dir);
		return -1;
	}
	drv->state_count = n;
	drv->busy_power_mw = 0;
	snprintf(sdir, sizeof(sdir), "%s/cpuidle/current_driver", root);
	if (!sl_read_first_line(sdir, drvname, sizeof(drvname)) && drvname[0])
		snprintf(drv->name, sizeof(drv->name), "sysfs:%s", drvname);
	else
		snprintf(drv->name, sizeof(drv->name), "sysfs");
	return 0;
}

const struct sl_idle_profile sl_profile_sysfs = {
	.name = "sysfs",
	.help = "this machine's states from /sys/devices/system/cpu/cpu0/cpuidle (sysfs:DIR: DIR "
		"replaces /sys/devices/system/cpu)",
	.load = load,
};
