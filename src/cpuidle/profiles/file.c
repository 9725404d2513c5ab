/*
 * "file:PATH": a custom driver table in the small text format of docs/idle-profile-format.md,
 * and its writer (sl_idle_profile_write), so that any table can be dumped, edited and loaded
 * back. The parser reads bounded lines (SL_PROFILE_LINE_MAX characters), at most
 * SL_CPUIDLE_MAX_STATES states, checks every number for range, and reports the first problem
 * as "PATH:LINE: what was expected".
 */
#include "cpuidle/profiles/profile.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#define SL_PROFILE_LINE_MAX 256
#define MAX_TOKENS	    (SL_PROFILE_LINE_MAX / 2 + 1)
#define MAX_US		    1000000000ULL /* 1000 s: beyond any idle state */
#define MAX_MW		    100000000ULL  /* 100 kW */
#define MAX_NJ		    (1ULL << 50)

enum line_status { LINE_OK, LINE_EOF, LINE_LONG, LINE_NUL };

/* One line without its newline into buf (SL_PROFILE_LINE_MAX + 1 bytes). A long line is
 * refused as soon as it is too long: the rest is not read (file:/dev/zero would never end). */
static enum line_status read_line(FILE *f, char *buf)
{
	size_t n = 0;
	bool nul = false, any = false;
	int c;

	while ((c = getc(f)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (c == '\0')
			nul = true;
		if (n == SL_PROFILE_LINE_MAX)
			return LINE_LONG;
		buf[n++] = (char)c;
	}
	if (!any)
		return LINE_EOF;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\r')
		buf[n - 1] = '\0';
	return nul ? LINE_NUL : LINE_OK;
}

/* Split in place: blanks separate, "..." quotes (no escapes), # starts a comment. Returns the
 * token count, or -1 for an unterminated quote. */
static int tokenize(char *s, char **tok)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			return n;
		if (*s == '"') {
			char *q = strchr(s + 1, '"');

			if (!q)
				return -1;
			*q = '\0';
			tok[n++] = s + 1;
			s = q + 1;
			if (*s && *s != ' ' && *s != '\t')
				return -1;
			continue;
		}
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A plain decimal integer no larger than max. */
static int parse_uint(const char *s, u64 max, u64 *v)
{
	u64 x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		x = x * 10 + (u64)(*s - '0');
		if (x > max)
			return -1;
	}
	*v = x;
	return 0;
}

/* Microseconds with up to three decimals ("20", "0.1"), exactly into nanoseconds. */
static int parse_us(const char *s, u64 *ns)
{
	char ip[16];
	const char *dot = strchr(s, '.');
	size_t il = dot ? (size_t)(dot - s) : strlen(s);
	u64 us, frac = 0;

	if (!il || il >= sizeof(ip))
		return -1;
	memcpy(ip, s, il);
	ip[il] = '\0';
	if (parse_uint(ip, MAX_US, &us))
		return -1;
	if (dot) {
		const char *d = dot + 1;
		size_t fl = strlen(d);

		if (!fl || fl > 3 || parse_uint(d, 999, &frac))
			return -1;
		for (size_t k = fl; k < 3; k++)
			frac *= 10;
	}
	*ns = us * NSEC_PER_USEC + frac;
	return 0;
}

/*
 * A name is written back as it was read, so it must survive the line reading: a control
 * character (a carriage return would be taken as a CRLF's) cannot.
 */
static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

struct parse {
	const char *path;
	int line;
	char *err;
	size_t errlen;
};

static int fail(const struct parse *p, const char *fmt, const char *a, const char *b)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, a ? a : "", b ? b : "");
	snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->line, msg);
	return -1;
}

static int parse_flag(const struct parse *p, const char *t, struct sl_idle_state *st,
		      bool *has_energy)
{
	static const struct {
		const char *name;
		unsigned flag;
	} flags[] = {
		{"poll", CPUIDLE_FLAG_POLL},
		{"time_valid", CPUIDLE_FLAG_TIME_VALID},
		{"tlb_flushed", CPUIDLE_FLAG_TLB_FLUSHED},
		{"timer_stop", CPUIDLE_FLAG_TIMER_STOP},
		{"check_bm", CPUIDLE_FLAG_CHECK_BM},
	};

	for (size_t i = 0; i < SL_ARRAY_SIZE(flags); i++)
		if (!strcasecmp(t, flags[i].name)) {
			st->flags |= flags[i].flag;
			return 0;
		}
	if (!strncasecmp(t, "energy_nj=", 10)) {
		if (parse_uint(t + 10, MAX_NJ, &st->entry_energy_nj))
			return fail(p, "energy_nj: expected a whole number of nJ, got '%s'", t + 10,
				    NULL);
		*has_energy = true;
		return 0;
	}
	return fail(p,
		    "unknown flag '%s' (expected poll, time_valid, tlb_flushed, timer_stop, "
		    "check_bm or energy_nj=N)",
		    t, NULL);
}

#define STATE_USAGE "state NAME LATENCY_US RESIDENCY_US POWER_MW [FLAG...]"

static int parse_state(const struct parse *p, char **tok, int ntok, struct sl_cpuidle_driver *drv,
		       bool *has_energy)
{
	struct sl_idle_state *st;
	int i = drv->state_count;

	if (i >= SL_CPUIDLE_MAX_STATES) {
		char max[16];

		snprintf(max, sizeof(max), "%d", SL_CPUIDLE_MAX_STATES);
		return fail(p, "too many states (at most %s)", max, NULL);
	}
	if (ntok < 5)
		return fail(p, "expected '%s'", STATE_USAGE, NULL);
	st = &drv->states[i];
	memset(st, 0, sizeof(*st));
	if (!*tok[1] || strlen(tok[1]) >= sizeof(st->name) || !printable(tok[1]))
		return fail(p, "state name '%s': expected 1 to 15 printable characters", tok[1],
			    NULL);
	/* A quoted field cannot hold '"' (no escapes), so a name with one could not be written
	 * back in this format when it also needs quotes: refused here, as in every name. */
	if (strchr(tok[1], '"'))
		return fail(p, "state name '%s': a double quote is not allowed in a name", tok[1],
			    NULL);
	/* --cpuidle-disable and the reports name a state: two of one name would be one */
	for (int k = 0; k < i; k++)
		if (!strcmp(drv->states[k].name, tok[1]))
			return fail(p,
				    "state '%s' given twice (state names are unique, as in sysfs)",
				    tok[1], NULL);
	snprintf(st->name, sizeof(st->name), "%s", tok[1]);
	if (parse_us(tok[2], &st->exit_latency_ns))
		return fail(p, "LATENCY_US: expected microseconds (e.g. 20 or 0.5), got '%s'",
			    tok[2], NULL);
	if (parse_us(tok[3], &st->target_residency_ns))
		return fail(p, "RESIDENCY_US: expected microseconds (e.g. 80 or 0.5), got '%s'",
			    tok[3], NULL);
	if (parse_uint(tok[4], MAX_MW, &st->power_mw))
		return fail(p, "POWER_MW: expected a whole number of mW, got '%s'", tok[4], NULL);
	for (int k = 5; k < ntok; k++)
		if (parse_flag(p, tok[k], st, &has_energy[i]))
			return -1;
	if (i > 0 && (st->flags & CPUIDLE_FLAG_POLL))
		return fail(p, "state '%s': only state 0 may have the poll flag", st->name, NULL);
	if (i > 0 && st->exit_latency_ns < drv->states[i - 1].exit_latency_ns)
		return fail(p,
			    "state '%s': exit latency below the previous state's '%s' (order "
			    "the states shallowest first)",
			    st->name, drv->states[i - 1].name);
	if (i > 0 && st->target_residency_ns < drv->states[i - 1].target_residency_ns)
		return fail(p,
			    "state '%s': target residency below the previous state's '%s' "
			    "(order the states shallowest first)",
			    st->name, drv->states[i - 1].name);
	drv->state_count++;
	return 0;
}

static int parse_file(FILE *f, const struct parse *pp, struct sl_cpuidle_driver *drv)
{
	struct parse p = *pp;
	char buf[SL_PROFILE_LINE_MAX + 1];
	char *tok[MAX_TOKENS];
	bool has_energy[SL_CPUIDLE_MAX_STATES] = {false};
	bool has_busy = false, has_name = false;
	enum line_status ls;
	int ntok, bm_line = 0, bm_state = 0; /* the first check_bm state and its line */

	while ((ls = read_line(f, buf)) != LINE_EOF) {
		p.line++;
		if (ls == LINE_LONG) {
			char max[16];

			snprintf(max, sizeof(max), "%d", SL_PROFILE_LINE_MAX);
			return fail(&p, "line longer than %s characters", max, NULL);
		}
		if (ls == LINE_NUL)
			return fail(&p, "a NUL byte: expected text", NULL, NULL);
		ntok = tokenize(buf, tok);
		if (ntok < 0)
			return fail(&p, "unterminated or misplaced \" in a quoted name", NULL,
				    NULL);
		if (!ntok)
			continue;
		if (!strcmp(tok[0], "state")) {
			if (parse_state(&p, tok, ntok, drv, has_energy))
				return -1;
			if (!bm_line &&
			    (drv->states[drv->state_count - 1].flags & CPUIDLE_FLAG_CHECK_BM)) {
				bm_line = p.line;
				bm_state = drv->state_count - 1;
			}
		} else if (!strcmp(tok[0], "busy_power_mw")) {
			if (has_busy)
				return fail(&p, "busy_power_mw given twice", NULL, NULL);
			if (ntok != 2 || parse_uint(tok[1], MAX_MW, &drv->busy_power_mw))
				return fail(&p, "expected 'busy_power_mw MW' (a whole number)",
					    NULL, NULL);
			has_busy = true;
		} else if (!strcmp(tok[0], "name")) {
			if (has_name)
				return fail(&p, "name given twice", NULL, NULL);
			if (ntok != 2 || !*tok[1] || strlen(tok[1]) >= sizeof(drv->name) ||
			    !printable(tok[1]))
				return fail(&p,
					    "expected 'name NAME' (1 to 31 printable characters)",
					    NULL, NULL);
			snprintf(drv->name, sizeof(drv->name), "%s", tok[1]);
			has_name = true;
		} else if (!strcmp(tok[0], "acpi_idle")) {
			u64 lf, bm;

			if (drv->latency_factor)
				return fail(&p, "acpi_idle given twice", NULL, NULL);
			if (ntok != 3 || parse_uint(tok[1], 1000, &lf) || !lf ||
			    parse_uint(tok[2], 1, &bm))
				return fail(
					&p,
					"expected 'acpi_idle LATENCY_FACTOR BM_CHECK' (1..1000, "
					"0 or 1)",
					NULL, NULL);
			drv->latency_factor = (unsigned)lf;
			drv->bm_check = bm;
		} else {
			return fail(&p,
				    "unknown keyword '%s' (expected state, busy_power_mw, name or "
				    "acpi_idle)",
				    tok[0], NULL);
		}
	}
	if (ferror(f)) {
		snprintf(p.err, p.errlen, "%s: read error: %s", p.path, strerror(errno));
		return -1;
	}
	if (!drv->state_count) {
		snprintf(p.err, p.errlen, "%s: no state lines (expected at least one '%s')", p.path,
			 STATE_USAGE);
		return -1;
	}
	/* acpi_idle's bus-master check: without its line no entry path reads the flag */
	if (bm_line && !drv->latency_factor) {
		p.line = bm_line;
		return fail(&p,
			    "state '%s': check_bm is acpi_idle's bus-master check: expected an "
			    "'acpi_idle LATENCY_FACTOR BM_CHECK' line",
			    drv->states[bm_state].name, NULL);
	}
	for (int i = 0; i < drv->state_count; i++) {
		struct sl_idle_state *st = &drv->states[i];

		if (has_energy[i])
			continue;
		/* latency (up to 10^15 ns) x busy power (up to 10^8 mW) can pass 2^64: the rule's
		 * result is held to energy_nj='s own bound instead of wrapping */
		if (drv->busy_power_mw &&
		    st->exit_latency_ns > MAX_NJ * 1000 / drv->busy_power_mw) {
			snprintf(p.err, p.errlen,
				 "%s: state '%s': exit latency x busy_power_mw gives an entry "
				 "energy above %llu nJ: give energy_nj=N",
				 p.path, st->name, (unsigned long long)MAX_NJ);
			return -1;
		}
		st->entry_energy_nj = SL_ENTRY_NJ(st->exit_latency_ns, drv->busy_power_mw);
	}
	if (!has_name) {
		const char *base = strrchr(p.path, '/');

		snprintf(drv->name, sizeof(drv->name), "%s", base ? base + 1 : p.path);
	}
	return 0;
}

int sl_idle_profile_parse(FILE *f, const char *name, struct sl_cpuidle_driver *drv, char *err,
			  size_t errlen)
{
	struct parse p = {name, 0, err, errlen};

	memset(drv, 0, sizeof(*drv));
	return parse_file(f, &p, drv);
}

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	FILE *f;
	int ret;

	if (!arg || !*arg) {
		snprintf(err, errlen, "idle profile file: expected file:PATH");
		return -1;
	}
	f = fopen(arg, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", arg, strerror(errno));
		return -1;
	}
	ret = sl_idle_profile_parse(f, arg, drv, err, errlen);
	fclose(f);
	return ret;
}

static void write_us(FILE *f, u64 ns)
{
	if (ns % NSEC_PER_USEC)
		fprintf(f, " %llu.%03llu", (unsigned long long)(ns / NSEC_PER_USEC),
			(unsigned long long)(ns % NSEC_PER_USEC));
	else
		fprintf(f, " %llu", (unsigned long long)(ns / NSEC_PER_USEC));
}

int sl_idle_profile_write(FILE *f, const struct sl_cpuidle_driver *drv)
{
	fprintf(f, "# schedlab idle profile (docs/idle-profile-format.md)\n");
	if (drv->name[0] && !strpbrk(drv->name, " \t\"#"))
		fprintf(f, "name %s\n", drv->name);
	fprintf(f, "busy_power_mw %llu\n", (unsigned long long)drv->busy_power_mw);
	if (drv->latency_factor)
		fprintf(f, "acpi_idle %u %d\n", drv->latency_factor, drv->bm_check ? 1 : 0);
	fprintf(f, "# state NAME LATENCY_US RESIDENCY_US POWER_MW [FLAG...]\n");
	for (int i = 0; i < drv->state_count && i < SL_CPUIDLE_MAX_STATES; i++) {
		const struct sl_idle_state *st = &drv->states[i];

		if (strpbrk(st->name, " \t#"))
			fprintf(f, "state \"%s\"", st->name);
		else
			fprintf(f, "state %s", st->name);
		write_us(f, st->exit_latency_ns);
		write_us(f, st->target_residency_ns);
		fprintf(f, " %llu", (unsigned long long)st->power_mw);
		if (st->flags & CPUIDLE_FLAG_POLL)
			fprintf(f, " poll");
		if (st->flags & CPUIDLE_FLAG_TIME_VALID)
			fprintf(f, " time_valid");
		if (st->flags & CPUIDLE_FLAG_TLB_FLUSHED)
			fprintf(f, " tlb_flushed");
		if (st->flags & CPUIDLE_FLAG_TIMER_STOP)
			fprintf(f, " timer_stop");
		if (st->flags & CPUIDLE_FLAG_CHECK_BM)
			fprintf(f, " check_bm");
		if (st->entry_energy_nj != SL_ENTRY_NJ(st->exit_latency_ns, drv->busy_power_mw))
			fprintf(f, " energy_nj=%llu", (unsigned long long)st->entry_energy_nj);
		fprintf(f, "\n");
	}
	return ferror(f) ? -1 : 0;
}

const struct sl_idle_profile sl_profile_file = {
	.name = "file",
	.help = "a custom table: file:PATH (format: docs/idle-profile-format.md)",
	.load = load,
};
