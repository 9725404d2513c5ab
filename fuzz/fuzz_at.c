/*
 * --at TIME:sched-features=WORDS and --at TIME:sysctl=NAME=VALUE, one per line, through the
 * configuration builder that the CLI and the sweep call (each change is validated there).
 */
#include "config/config.h"
#include "fuzz.h"

SL_FUZZ_TARGET(at)
{
	char *s = sl_fuzz_str(data, size), *rest = s, *line;
	struct sl_args a;
	struct sl_config *cfg = malloc(sizeof(*cfg));
	int rc;

	if (!cfg)
		abort();
	memset(&a, 0, sizeof(a));
	while (a.nats < SL_MAX_LIST && (line = sl_fuzz_line(&rest)))
		a.ats[a.nats++] = line;
	rc = sl_config_build(cfg, &a, err, errlen);
	if (!rc)
		sl_config_free(cfg);
	free(cfg);
	free(s);
	return rc;
}
