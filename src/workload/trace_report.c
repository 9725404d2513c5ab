/*
 * What the trace workload extracted from a trace (schedlab trace-workload): a human table or
 * JSON, and the same task programs as an rt-app JSON file (docs/workloads.md, "trace
 * workload").
 */
#include "core/json_out.h"
#include "machine/group.h"
#include "workload/trace.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

static double ms(u64 ns)
{
	return (double)ns / 1e6;
}

struct pair {
	int waker, wakee;
	u64 n;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	if (x->waker != y->waker)
		return x->waker < y->waker ? -1 : 1;
	return x->wakee < y->wakee ? -1 : x->wakee > y->wakee;
}

/* who woke whom, most frequent first; NULL and *n = -1 when out of memory */
static struct pair *pairs(const struct sl_tw *tw, int *np)
{
	struct pair *p = NULL;
	int n = 0, cap = 0;

	for (int i = 0; i < tw->n; i++) {
		const struct sl_tw_task *t = &tw->t[i];
		int first = n;

		for (int k = 0; k < t->nops; k++) {
			const struct sl_tw_op *o = &t->ops[k];
			int j;

			if (o->kind != TW_WAIT)
				continue;
			for (j = first; j < n && p[j].waker != o->arg; j++)
				;
			if (j < n) {
				p[j].n++;
				continue;
			}
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				struct pair *q = realloc(p, sizeof(*q) * (size_t)cap);

				if (!q) {
					free(p);
					*np = -1;
					return NULL;
				}
				p = q;
			}
			p[n++] = (struct pair){.waker = o->arg, .wakee = i, .n = 1};
		}
	}
	if (n)
		qsort(p, (size_t)n, sizeof(*p), pair_cmp);
	*np = n;
	return p;
}

static const char *policy_name(int prio)
{
	return prio < 100 ? "fifo" : "normal";
}

#define UNATTR(X)                                                                                  \
	X(irq_wake,                                                                                \
	  "S woken by an interrupt with no hrtimer of the task (replayed as a timed sleep)")       \
	X(idle_wake, "S woken from an idle CPU, no timer or interrupt seen (a timed sleep)")       \
	X(no_wake, "switched in while blocked, no wake-up seen (a timed sleep)")                   \
	X(missed_switch_in, "seen running, no switch-in traced (charged from that record)")        \
	X(missing_switch, "a task on two CPUs, or replacing one still running: a switch missing")  \
	X(first_burst, "burst begun before the trace (charged from its first record)")             \
	X(blocked_at_end, "blocked when the trace ended (the last sleep is dropped)")              \
	X(wake_not_blocked, "wake-up of a task not blocked (ignored)")                             \
	X(rt_deadline, "SCHED_DEADLINE tasks (replayed as SCHED_FIFO 99)")

/* the run account's corrections (run_account.h): trace-stats charges CPU time the same way */
#define ACCOUNT(X)                                                                                 \
	X(at_start, ra.at_start,                                                                   \
	  "runs begun by a CPU's first record (running at the trace's start)")                     \
	X(sighted, ra.sighted,                                                                     \
	  "runs begun by a record in the task's context, no switch-in traced")                     \
	X(late_cpus, ra.late_cpus, "CPUs whose records begin after the trace's first")             \
	X(late_ns, ra.late_ns, "how much later, summed (their earlier time is not in the trace)")  \
	X(lost_switches, ra.lost_switches, "another task seen on a CPU with no switch traced")     \
	X(unattributed_ns, ra.unattributed_ns, "CPU time around those, charged to no task")        \
	X(lost_events, lost_events, "events the ring buffer lost (LOST EVENTS lines)")             \
	X(pid_reuse, pid_reuse, "pids that came back after their task died (a new task each)")     \
	X(woken_only, woken_only, "tasks never seen running (only woken or forked): no CPU time")

/* an idle wake-up latency's table line and JSON object (struct sl_tw_wake_lat) */
static void wake_lat_row(FILE *f, const char *what, const char *param,
			 const struct sl_tw_wake_lat *w)
{
	fprintf(f, "  %-22s %8llu", what, (unsigned long long)w->n);
	if (w->n >= SL_TW_WAKE_MIN)
		fprintf(f, "  p50 %.1f us, sd %.1f us (%s)", (double)w->p50 / 1e3,
			(double)w->sd / 1e3, param);
	fputc('\n', f);
}

static void wake_lat_json(FILE *f, const struct sl_tw_wake_lat *w)
{
	fprintf(f, "{\"n\": %llu, \"p50_ns\": %llu, \"sd_ns\": %llu}", (unsigned long long)w->n,
		(unsigned long long)w->p50, (unsigned long long)w->sd);
}

int sl_tw_report(const struct sl_tw *tw, bool json, FILE *f)
{
	int np;
	struct pair *pp = pairs(tw, &np);
	u64 start = 0, forked = 0;

	if (np < 0)
		return -1;
	for (int i = 0; i < tw->n; i++) {
		if (tw->t[i].parent >= 0)
			forked++;
		else if (!tw->t[i].created)
			start++;
	}
	if (json) {
		fprintf(f, "{\"trace\": \"");
		sl_json_put_escaped(f, tw->path);
		fprintf(f,
			"\", \"records\": %llu, \"cpus\": %d, \"duration_ns\": %llu, "
			"\"ops\": %llu,\n \"wakeups\": {\"by_task\": %llu, \"by_own_timer\": %llu, "
			"\"io\": %llu, \"preemption\": %llu, \"to_other_idle_cpu\": %llu, "
			"\"early\": %llu}, \"yields\": %llu, "
			"\"exec\": %llu, "
			"\"exits\": %llu,\n \"handoffs\": {\"replayed\": %d, \"fixed_reply\": "
			"%llu, "
			"\"fixed_waker_off\": %llu, \"fixed_one_way\": %llu, \"fixed_channel\": "
			"%llu},\n "
			"\"unattributed\": {",
			(unsigned long long)tw->records, tw->ncpu,
			(unsigned long long)(tw->tend - tw->t0), (unsigned long long)tw->nops,
			(unsigned long long)tw->deps, (unsigned long long)tw->timed,
			(unsigned long long)tw->io, (unsigned long long)tw->preempt_deps,
			(unsigned long long)tw->ipi_wakes, (unsigned long long)tw->early,
			(unsigned long long)tw->yields, (unsigned long long)tw->exec,
			(unsigned long long)tw->exits, tw->nho, (unsigned long long)tw->fixed.reply,
			(unsigned long long)tw->fixed.waker_off,
			(unsigned long long)tw->fixed.one_way,
			(unsigned long long)tw->fixed.channel);
		const char *sep = "";
#define JU(name, help)                                                                             \
	fprintf(f, "%s\"" #name "\": %llu", sep, (unsigned long long)tw->un.name);                 \
	sep = ", ";
		UNATTR(JU)
#undef JU
		fprintf(f, "},\n \"accounting\": {");
		sep = "";
#define JA(name, field, help)                                                                      \
	fprintf(f, "%s\"" #name "\": %llu", sep, (unsigned long long)tw->field);                   \
	sep = ", ";
		ACCOUNT(JA)
#undef JA
		fprintf(f, "},\n \"switch_costs\": {\"prices\": \"");
		sl_json_put_escaped(f, tw->cost_from);
		fprintf(f,
			"\", \"recorded_ns\": %llu, \"beyond_bursts_ns\": %llu, "
			"\"tasks_beyond\": %d},\n \"wake_ipi_costs\": {\"recorded_ns\": %llu, "
			"\"beyond_bursts_ns\": %llu, \"bursts_beyond\": %llu},\n "
			"\"idle_wake_latency\": {\"remote\": ",
			(unsigned long long)tw->cost_ns, (unsigned long long)tw->cost_left_ns,
			tw->cost_left_tasks, (unsigned long long)tw->ipi_cost_ns,
			(unsigned long long)tw->ipi_left_ns,
			(unsigned long long)tw->ipi_left_bursts);
		wake_lat_json(f, &tw->wake_remote);
		fprintf(f, ", \"local\": ");
		wake_lat_json(f, &tw->wake_local);
		fprintf(f,
			"},\n \"irq_wake_placement\": {\"n\": %llu, \"stayed\": %llu},\n "
			"\"per_task\": [",
			(unsigned long long)tw->irq_pack_n, (unsigned long long)tw->irq_pack_stay);
		for (int i = 0; i < tw->n; i++) {
			const struct sl_tw_task *t = &tw->t[i];

			fprintf(f, "%s\n  {\"pid\": %d, \"comm\": \"", i ? "," : "", t->pid);
			sl_json_put_escaped(f, t->comm);
			fprintf(f,
				"\", \"prio\": %d, \"policy\": \"%s\", \"parent\": %d, "
				"\"created_ns\": %llu, \"bursts\": %llu, \"cpu_time_ns\": %llu, "
				"\"switch_ins\": %llu, \"timed_sleeps\": {\"n\": %llu, \"ns\": "
				"%llu}, "
				"\"waits\": {\"n\": %llu, \"ns\": %llu}, \"io\": {\"n\": %llu, "
				"\"ns\": %llu, \"requests\": %llu}, \"open_sleeps\": {\"n\": %llu, "
				"\"ns\": %llu}, \"wakes_given\": %llu, \"forks\": %llu, "
				"\"exited\": %s}",
				t->prio, policy_name(t->prio),
				t->parent >= 0 ? tw->t[t->parent].pid : -1,
				(unsigned long long)t->created, (unsigned long long)t->bursts,
				(unsigned long long)t->cpu_ns, (unsigned long long)t->switch_in,
				(unsigned long long)t->n_sleep, (unsigned long long)t->ns_sleep,
				(unsigned long long)t->n_wait, (unsigned long long)t->ns_wait,
				(unsigned long long)t->n_io, (unsigned long long)t->ns_io,
				(unsigned long long)t->io_reqs, (unsigned long long)t->n_open,
				(unsigned long long)t->ns_open, (unsigned long long)t->wakes_given,
				(unsigned long long)t->forks, t->exited ? "true" : "false");
		}
		fprintf(f, "\n ],\n \"dependencies\": [");
		for (int i = 0; i < np; i++)
			fprintf(f, "%s\n  {\"waker\": %d, \"wakee\": %d, \"count\": %llu}",
				i ? "," : "", tw->t[pp[i].waker].pid, tw->t[pp[i].wakee].pid,
				(unsigned long long)pp[i].n);
		fprintf(f, "\n ]}\n");
		free(pp);
		return 0;
	}
	fprintf(f, "trace: %s, %llu records, %d CPUs, %.3f ms\n", tw->path,
		(unsigned long long)tw->records, tw->ncpu, ms(tw->tend - tw->t0));
	fprintf(f,
		"tasks: %d (%llu there at the start, %llu forked, %llu appearing later); %llu "
		"program ops\n",
		tw->n, (unsigned long long)start, (unsigned long long)forked,
		(unsigned long long)((u64)tw->n - start - forked), (unsigned long long)tw->nops);
	fprintf(f,
		"wake-ups: %llu by a task (closed loop), %llu by the task's own hrtimer, %llu "
		"ending a D sleep (I/O); %llu exec, %llu exit; %llu preemption dependencies, %llu "
		"yields\n",
		(unsigned long long)tw->deps, (unsigned long long)tw->timed,
		(unsigned long long)tw->io, (unsigned long long)tw->exec,
		(unsigned long long)tw->exits, (unsigned long long)tw->preempt_deps,
		(unsigned long long)tw->yields);
	fprintf(f, "wake-ups by a task traced before the switch-out of the block they end: %llu\n",
		(unsigned long long)tw->early);
	fprintf(f,
		"wake-ups by a task: %d replayed as lock hand-offs (the wakee blocks only while "
		"the waker holds); as fixed dependencies: %llu replies (the waker last woken by "
		"the wakee), %llu with no switch-in of the waker since it blocked, %llu one way "
		"(one of the two wakes the other less than half as often as the reverse), %llu of "
		"pairs whose wake-ups are mostly replies\n\n",
		tw->nho, (unsigned long long)tw->fixed.reply,
		(unsigned long long)tw->fixed.waker_off, (unsigned long long)tw->fixed.one_way,
		(unsigned long long)tw->fixed.channel);
	fprintf(f, "%8s %-16s %4s %8s %9s %7s %10s %15s %15s %15s %15s %6s %5s %4s\n", "pid",
		"comm", "prio", "parent", "start ms", "bursts", "cpu ms", "timed n/ms", "wait n/ms",
		"io n/ms", "open n/ms", "wakes", "forks", "exit");
	for (int i = 0; i < tw->n; i++) {
		const struct sl_tw_task *t = &tw->t[i];
		char a[32], b[32], c[32], d[32];

		snprintf(a, sizeof(a), "%llu/%.3f", (unsigned long long)t->n_sleep,
			 ms(t->ns_sleep));
		snprintf(b, sizeof(b), "%llu/%.3f", (unsigned long long)t->n_wait, ms(t->ns_wait));
		snprintf(c, sizeof(c), "%llu/%.3f", (unsigned long long)t->n_io, ms(t->ns_io));
		snprintf(d, sizeof(d), "%llu/%.3f", (unsigned long long)t->n_open, ms(t->ns_open));
		fprintf(f,
			"%8d %-16s %4d %8d %9.3f %7llu %10.3f %15s %15s %15s %15s %6llu %5llu "
			"%4s\n",
			t->pid, t->comm, t->prio, t->parent >= 0 ? tw->t[t->parent].pid : -1,
			ms(t->created), (unsigned long long)t->bursts, ms(t->cpu_ns), a, b, c, d,
			(unsigned long long)t->wakes_given, (unsigned long long)t->forks,
			t->exited ? "yes" : "no");
	}
	fprintf(f, "\nwho woke whom (task to task, most frequent first%s):\n",
		np > 20 ? "; the first 20" : "");
	fprintf(f, "%8s %-16s %8s %-16s %8s\n", "waker", "comm", "wakee", "comm", "count");
	for (int i = 0; i < np && i < 20; i++)
		fprintf(f, "%8d %-16s %8d %-16s %8llu\n", tw->t[pp[i].waker].pid,
			tw->t[pp[i].waker].comm, tw->t[pp[i].wakee].pid, tw->t[pp[i].wakee].comm,
			(unsigned long long)pp[i].n);
	fprintf(f, "\nnot attributed:\n");
#define HU(name, help)                                                                             \
	fprintf(f, "  %-18s %8llu  %s\n", #name, (unsigned long long)tw->un.name, help);
	UNATTR(HU)
#undef HU
	fprintf(f, "\nCPU time accounting (the same as trace-stats'):\n");
#define HA(name, field, help)                                                                      \
	fprintf(f, "  %-18s %8llu  %s\n", #name, (unsigned long long)tw->field, help);
	ACCOUNT(HA)
#undef HA
	fprintf(f,
		"\nswitch costs at the prices of %s: %.3f ms in the recorded bursts (taken out, "
		"and charged again at each simulated switch-in); %.3f ms beyond the bursts of %d "
		"task%s (not charged again: the credit of the simulated switch-in that begins "
		"each such burst)\n",
		tw->cost_from, ms(tw->cost_ns), ms(tw->cost_left_ns), tw->cost_left_tasks,
		tw->cost_left_tasks == 1 ? "" : "s");
	fprintf(f,
		"wake-ups by a task onto another CPU idle since before them: %llu; their IPIs at "
		"those prices' wake_ipi: %.3f ms in the bursts after them (taken out: the "
		"simulation charges its own where it wakes onto an idle CPU), %.3f ms beyond %llu "
		"bursts (charged again)\n",
		(unsigned long long)tw->ipi_wakes, ms(tw->ipi_cost_ns), ms(tw->ipi_left_ns),
		(unsigned long long)tw->ipi_left_bursts);
	fprintf(f,
		"wake-ups of a CPU idle since before them, sched_waking to the switch-in there "
		"(a replay's wake_remote and wake_local unless the machine.conf or --param sets "
		"them; fewer than %d: not measured):\n",
		SL_TW_WAKE_MIN);
	wake_lat_row(f, "from another CPU", "wake_remote, less the model's IPI and exit",
		     &tw->wake_remote);
	wake_lat_row(f, "by its own interrupt", "wake_local", &tw->wake_local);
	fprintf(f,
		"wake-ups by an interrupt of a task last on that idle CPU, another woken task "
		"waiting there, another CPU idle: %llu, %llu stayed (a replay's vcpu_pack_irq, per "
		"1000, from %d on, unless the machine.conf or --param sets it)\n",
		(unsigned long long)tw->irq_pack_n, (unsigned long long)tw->irq_pack_stay,
		SL_TW_WAKE_MIN);
	free(pp);
	return 0;
}

/* a task's rt-app name: comm-pid, a character other than [A-Za-z0-9._-] as '_' (a task name
 * names its log file) */
static void rt_name(FILE *f, const struct sl_tw_task *t)
{
	for (const char *s = t->comm; *s; s++) {
		char c = *s;

		fputc((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				      c == '.' || c == '_' || c == '-'
			      ? c
			      : '_',
		      f);
	}
	fprintf(f, "-%d", t->pid);
}

static u64 us(u64 ns)
{
	return (ns + 500) / 1000;
}

int sl_tw_write_rtapp(const struct sl_tw *tw, FILE *f)
{
	fprintf(f,
		"{\n\t\"global\": {\"default_policy\": \"SCHED_OTHER\", \"calibration\": \"CPU0\"},"
		"\n\t\"tasks\": {");
	for (int i = 0; i < tw->n; i++) {
		const struct sl_tw_task *t = &tw->t[i];
		int ev = 0;

		fprintf(f, "%s\n\t\t\"", i ? "," : "");
		rt_name(f, t);
		fprintf(f, "\": {\"instance\": %d, \"loop\": 1, ", t->parent >= 0 ? 0 : 1);
		if (t->prio < 100)
			fprintf(f, "\"policy\": \"SCHED_FIFO\", \"priority\": %d, ",
				t->prio < 0 ? 99 : 99 - t->prio);
		else
			fprintf(f, "\"priority\": %d, ", t->prio - 120 > 19 ? 19 : t->prio - 120);
		if (t->parent < 0 && t->created)
			fprintf(f, "\"delay\": %llu, ", (unsigned long long)us(t->created));
		fprintf(f, "\"phases\": {\"p0\": {\"loop\": 1");
		for (int k = 0; k < t->nops; k++) {
			const struct sl_tw_op *o = &t->ops[k];

			switch (o->kind) {
			case TW_RUN:
				fprintf(f, ", \"run%d\": %llu", ev++,
					(unsigned long long)us(o->ns));
				break;
			case TW_SLEEP:
			case TW_OPEN:
			case TW_IO:
				fprintf(f, ", \"sleep%d\": %llu", ev++,
					(unsigned long long)us(o->ns));
				break;
			case TW_WAIT:
				fprintf(f, ", \"suspend%d\": \"\"", ev++);
				break;
			case TW_WAKE:
				fprintf(f, ", \"resume%d\": \"", ev++);
				rt_name(f, &tw->t[o->arg]);
				fputc('"', f);
				break;
			case TW_YIELD:
				fprintf(f, ", \"yield%d\": \"\"", ev++);
				break;
			case TW_FORK:
				fprintf(f, ", \"fork%d\": \"", ev++);
				rt_name(f, &tw->t[o->arg]);
				fputc('"', f);
				break;
			default:
				break;
			}
		}
		if (!ev)
			fprintf(f, ", \"run0\": 0");
		fprintf(f, "}}}");
	}
	fprintf(f, "\n\t}\n}\n");
	return ferror(f) ? -1 : 0;
}

void sl_tw_run_table(FILE *f, const struct sl_group *g, bool *head)
{
	const struct sl_handoffs *h = &g->handoffs;

	(void)head; /* rt-app's heading: not these lines' */
	if (h->n)
		fprintf(f,
			"\n%s: %d lock hand-offs: %llu waits released (the waker not yet "
			"holding), %llu found the wake-up made, %llu waited for it\n",
			g->name, h->n, (unsigned long long)h->released,
			(unsigned long long)h->given, (unsigned long long)h->waited);
	if (g->yields)
		fprintf(f,
			"\n%s: %llu yields, %llu of them with nothing else to run on the CPU (no "
			"switch: the recorded switch cost their next bursts gave back, %.3f ms, "
			"is not charged again)\n",
			g->name, (unsigned long long)g->yields, (unsigned long long)g->yields_kept,
			(double)g->yields_kept_ns / 1e6);
	if (g->waits_kept)
		fprintf(f,
			"\n%s: %llu waits for a task's wake-up did not block (made before, or the "
			"lock free: no switch; the recorded switch cost their next bursts gave "
			"back, %.3f ms, is not charged again)\n",
			g->name, (unsigned long long)g->waits_kept, (double)g->waits_kept_ns / 1e6);
}

json_object *sl_tw_run_waits_json(const struct sl_group *g)
{
	json_object *o;

	if (!g->waits_kept)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "count", json_object_new_int64((int64_t)g->waits_kept));
	json_object_object_add(o, "recorded_ns", json_object_new_int64((int64_t)g->waits_kept_ns));
	return o;
}

json_object *sl_tw_run_yields_json(const struct sl_group *g)
{
	json_object *o;

	if (!g->yields)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "replayed", json_object_new_int64((int64_t)g->yields));
	json_object_object_add(o, "no_switch", json_object_new_int64((int64_t)g->yields_kept));
	json_object_object_add(o, "no_switch_recorded_ns",
			       json_object_new_int64((int64_t)g->yields_kept_ns));
	return o;
}

json_object *sl_tw_run_json(const struct sl_group *g)
{
	const struct sl_handoffs *h = &g->handoffs;
	json_object *o;

	if (!h->n)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "replayed", json_object_new_int(h->n));
	json_object_object_add(o, "released", json_object_new_int64((int64_t)h->released));
	json_object_object_add(o, "given", json_object_new_int64((int64_t)h->given));
	json_object_object_add(o, "waited", json_object_new_int64((int64_t)h->waited));
	return o;
}
