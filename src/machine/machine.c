/*
 * The machine model. Each CPU has four timers: the periodic tick (stopped while idle, NO_HZ),
 * `work` (the running task's current CPU burst ends), `resched` (a reschedule request takes
 * effect: at once locally, after an IPI remotely) and `hrtick`. A task's progress is its
 * sum_exec_runtime plus the time its policy has not charged yet (sl_task_progress): a burst
 * ends when it reaches run_target, so preemption, ticks and migrations never need to recompute
 * the remaining work, and switch and cache costs are simply CPU time added to the burst.
 *
 * Why schedule() never runs a task's program directly: a program step that blocks calls
 * schedule(), and schedule() only arms the next task's `work` timer (at now + its switch cost).
 * So there is no recursion however many tasks block in a row at one instant, and events at the
 * same time run in the order they were raised. The programs themselves run in task_prog.c.
 */
#include "machine/machine.h"

#include "sched/common.h"
#include "sched/release.h"
#include "sched/class.h"
#include "cpuidle/cpuidle.h"
#include "machine/blockdev.h"
#include "machine/irq_bg.h"
#include "machine/sleep_timers.h"
#include "machine/task_prog.h"
#include "machine/vcpu_pack.h"
#include "machine/vcpu_util.h"
#include "machine/wake_rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void enter_idle(struct sl_sim *sim, struct sl_cpu *rq);

/* ---- the class stack (class.h) ---- */

static void class_update_curr(struct sl_sim *sim, struct sl_cpu *rq)
{
	if (rq->curr)
		rq->curr->sched_class->update_curr(sim, rq);
}

void sl_machine_update_curr(struct sl_sim *sim, struct sl_cpu *rq)
{
	class_update_curr(sim, rq);
}

/* NO_HZ: the first class with a tick policy decides; none: the tick stops on idle */
bool sl_class_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop)
{
	for (int i = 0; i < sim->nclasses; i++)
		if (sim->classes[i]->nohz_stop_tick)
			return sim->classes[i]->nohz_stop_tick(sim, rq, stop);
	return false;
}

static void task_woken(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	if (p->sched_class->task_woken)
		p->sched_class->task_woken(sim, rq, p);
}

static void set_task_cpu(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	p->sched_class->set_task_cpu(sim, p, cpu);
}

/* ---- rescheduling ---- */

/*
 * The wake_local/wake_remote parameters: an idle CPU that must run a woken task takes, from the
 * wake-up to the switch, a time drawn (normal, drawn values below 0 are 0) from the path
 * calibrate measured in a trace of this machine: woken from its own interrupt (local), or from
 * another CPU, beyond the IPI and the idle state's exit latency the model already charges. 0:
 * none (the default), and no draw.
 */
static u64 wake_path_normal(struct sl_sim *sim, const struct sl_cpu *rq, bool local)
{
	const struct sl_params *p = sl_machine_of(sim)->p;
	struct sl_dist d = {SL_DIST_NORMAL, local ? p->wake_local : p->wake_remote,
			    local ? p->wake_local_sd : p->wake_remote_sd};
	u64 decade = local ? p->wake_local_decade : p->wake_remote_decade;

	/* wake_*_decade: the mean moves with log10 of how long the CPU has been idle, in ms */
	if (decade && sim->now > sl_mcpu(sim, rq->id)->idle_dev.enter_time) {
		double idle_ms =
			(double)(sim->now - sl_mcpu(sim, rq->id)->idle_dev.enter_time) / 1e6;
		double mean = (double)d.a + (double)decade * log10(idle_ms);

		d.a = mean > 0 ? (u64)mean : 0;
	}
	if (!d.a)
		return 0;
	if (!d.b)
		return d.a;
	return sl_dist_draw(&d, &sim->sched_rng);
}

/*
 * wake_*_tail: the recorded path has a long tail a normal spread lacks (docs/validate.md, the
 * wake-up path's tail): of 1000 wake-ups, wake_*_tail wait an extra delay, exponential of mean
 * wake_*_tail_mean, on top of the normal draw. Off (0): no draw, the stream of numbers as before.
 */
u64 sl_wake_path(struct sl_sim *sim, const struct sl_cpu *rq)
{
	const struct sl_params *p = sl_machine_of(sim)->p;
	bool local = rq->id == sim->this_cpu;
	u64 tail = local ? p->wake_local_tail : p->wake_remote_tail;
	struct sl_dist extra = {SL_DIST_EXP,
				local ? p->wake_local_tail_mean : p->wake_remote_tail_mean, 0};
	u64 lat;

	if (rq->curr)
		return 0;
	lat = wake_path_normal(sim, rq, local);
	if (tail && extra.a && sl_rng_double(&sim->sched_rng) * 1000 < (double)tail)
		lat += sl_dist_draw(&extra, &sim->sched_rng);
	return lat;
}

static void resched_cpu(struct sl_sim *sim, struct sl_cpu *rq)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	u64 delay = 0;

	if (rq->need_resched || sl_wake_held(sim, rq))
		return;
	sl_set_need_resched(sim, rq, true);
	/*
	 * a remote CPU needs an IPI, unless it polls on need_resched (TIF_POLLING_NRFLAG); one that
	 * runs a task takes ipi_busy when set (a VM's IPI into a running vCPU, measured)
	 */
	if (rq->id != sim->this_cpu && !sl_cpuidle_polling(sim, rq))
		delay = rq->curr && mp->ipi_busy_ns ? mp->ipi_busy_ns : mp->ipi_ns;
	/* ipi_busy counts from the wake-up's call: a deferred enqueue's time is in it */
	if (delay && rq->curr && mp->ipi_busy_ns && rq->id != sim->this_cpu)
		delay = delay > sl_machine_of(sim)->wake_since
				? delay - sl_machine_of(sim)->wake_since
				: 0;
	delay += sl_wake_path(sim, rq);
	sl_arm(sim, &rq->resched, sim->now + delay);
}

static void tick_restart(struct sl_sim *sim, struct sl_cpu *rq)
{
	if (!rq->tick_stopped)
		return;
	sl_set_tick_stopped(sim, rq, false);
	sl_class_nohz_stop_tick(sim, rq, false);
	/* tick_nohz_restart: forward to the next period boundary of the jiffy grid */
	sl_arm(sim, &sl_mcpu(sim, rq->id)->tick, sl_tick_next(sim));
}

static void resched_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_cpu *rq = sl_container_of(t, struct sl_cpu, resched);
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	sim->this_cpu = rq->id;
	if (mc->idle) {
		u64 lat = sl_cpuidle_exit(sim, rq, SL_WAKE_RESCHED);

		mc->exit_until = sim->now + lat;
		if (lat) {
			/* the wake-up waits for the exit latency */
			struct sl_event ev = {
				.type = SL_EV_WAKE_DELAY, .cpu = rq->id, .latency = lat};

			sl_emit(sim, &ev);
			sl_arm(sim, &rq->resched, sim->now + lat);
			return;
		}
	}
	tick_restart(sim, rq);
	sl_schedule(sim, rq);
}

/*
 * Every event goes through here. An interrupt (a timer of the CPU, its tick, the poll limit, a
 * device interrupt routed to it) on an idle CPU first takes the CPU out of its C-state: the
 * handler runs only after the exit latency. Afterwards, if nothing was queued on the CPU, it
 * goes back to idle, and the governor selects again (irq_exit's tick_nohz_stop_sched_tick).
 */
void sl_machine_dispatch(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_cpu *rq = t->cpu >= 0 ? &sim->cpus[t->cpu] : NULL;

	if (!rq || t == &rq->resched) {
		t->fn(sim, t);
		return;
	}
	struct sl_machine_cpu *mc = sl_mcpu(sim, t->cpu);
	/* an interrupt raised while its CPU is still leaving a C-state is handled when the exit
	 * is done, behind the one that woke it: a device's with hba_mbps (the controller's one
	 * vector), a timer's with exit_irq_wait (the CPU runs no handler before it is out) */
	if ((t->irq ? sl_machine_of(sim)->p->hba_mbps : sl_machine_of(sim)->p->exit_irq_wait) &&
	    !mc->idle && !t->exit_delayed && mc->exit_until > sim->now) {
		sl_arm(sim, t, mc->exit_until);
		t->exit_delayed = true;
		mc->irq_busy++;
		return;
	}
	if (mc->idle) {
		enum sl_wake_reason why = t == &mc->tick	 ? SL_WAKE_TICK
					  : t == &mc->idle_timer ? SL_WAKE_POLL_LIMIT
					  : t->irq		 ? SL_WAKE_IRQ
								 : SL_WAKE_TIMER;
		u64 lat = sl_cpuidle_exit(sim, rq, why);

		mc->exit_until = sim->now + lat;
		mc->irq_wake = true;
		mc->irq_exit_latency = lat;
		if (lat) {
			/* the CPU is waking for this handler: nothing else may idle it meanwhile
			 * (sl_arm and sl_cancel undo this if the timer is moved or dropped) */
			sl_arm(sim, t, sim->now + lat);
			t->exit_delayed = true;
			mc->irq_busy++;
			if (t->irq)
				sl_hba_irq_held(sim, t, sim->now + lat);
			return;
		}
	}
	if (t->exit_delayed) {
		t->exit_delayed = false;
		mc->irq_busy--;
	}
	t->fn(sim, t);
	if (mc->irq_wake) {
		mc->irq_wake = false;
		/* the handler, late by the exit latency, queued a task here */
		if (rq->need_resched && mc->irq_exit_latency) {
			struct sl_event ev = {.type = SL_EV_WAKE_DELAY,
					      .cpu = rq->id,
					      .latency = mc->irq_exit_latency};

			sl_emit(sim, &ev);
		}
	}
	/* back to idle once the interrupts are handled and nothing was queued */
	if (!rq->curr && !mc->idle && !rq->need_resched && !mc->irq_busy) {
		sim->this_cpu = rq->id;
		enter_idle(sim, rq);
	}
}

void sl_machine_idle_if_done(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	if (!rq->curr && !mc->idle && !rq->need_resched && !mc->irq_busy) {
		sim->this_cpu = rq->id;
		enter_idle(sim, rq);
	}
}

/*
 * The same without bringing the task's accounting up to date first: its burst's end moves ns
 * later, as its timer stands (the policy's update_curr may reschedule; an interrupt that wakes
 * nothing runs no scheduler code). A burst with a wall-clock end keeps it.
 */
/*
 * When p's burst, due to end at `when` by its CPU time, ends: earlier for an OP_RUNTIME burst,
 * which ends at its wall-clock end however much CPU it got (never before now)
 */
static u64 burst_end(const struct sl_sim *sim, const struct sl_task *p, u64 when)
{
	u64 end = sl_task_runtime_end(p);

	if (end && end < when)
		when = end > sim->now ? end : sim->now;
	return when;
}

void sl_machine_steal_quiet(struct sl_sim *sim, struct sl_cpu *rq, u64 ns)
{
	struct sl_task *p = rq->curr;
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	if (!p || sl_mtask(p)->spinning)
		return;
	if (!sl_mtask(p)->in_run || !sl_timer_armed(&mc->work)) {
		/* no burst under way: one of ns starts, measured from the same sum */
		sl_add_run(sim, p, ns);
		sl_arm_work(sim, rq, p);
		return;
	}
	if (sl_mtask(p)->run_target == RUN_FOREVER)
		return;
	sl_mtask(p)->run_target += ns;
	sl_arm(sim, &mc->work, burst_end(sim, p, mc->work.expires + ns));
}

void sl_machine_steal(struct sl_sim *sim, struct sl_cpu *rq, u64 ns)
{
	struct sl_task *p = rq->curr;

	if (!p || sl_mtask(p)->spinning)
		return;
	sl_add_run(sim, p, ns);
	sl_arm_work(sim, rq, p);
}

static void idle_timer_fn(struct sl_sim *sim, struct sl_timer *t)
{
	/* the work is in the dispatch: leave idle, then select again */
	(void)sim;
	(void)t;
}

/* ---- busy accounting and idle ---- */

static void set_busy(struct sl_sim *sim, struct sl_cpu *rq, bool busy)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);
	bool was = rq->curr != NULL;

	if (was && !busy)
		mc->busy_ns += sim->now - mc->busy_since;
	if (!was && busy)
		mc->busy_since = sim->now;
}

void sl_machine_finish(struct sl_sim *sim)
{
	for (int c = 0; c < sim->ncpu; c++) {
		struct sl_cpu *rq = &sim->cpus[c];

		if (rq->curr) {
			sl_mcpu(sim, rq->id)->busy_ns +=
				sim->now - sl_mcpu(sim, rq->id)->busy_since;
			sl_mcpu(sim, rq->id)->busy_since = sim->now;
			class_update_curr(sim, rq);
		}
		/* the idle period still open counts in the state's time and energy */
		struct sl_cpuidle_dev *dev = &sl_mcpu(sim, rq->id)->idle_dev;

		if (sl_mcpu(sim, rq->id)->idle && dev->in_idle) {
			u64 d = sim->now - dev->enter_time;

			dev->time_ns[dev->entered] += d;
			dev->idle_energy_pj +=
				sl_machine_of(sim)->idle_drv->states[dev->entered].power_mw * d;
			dev->oracle_energy_pj +=
				sl_machine_of(sim)
					->idle_drv
					->states[sl_cpuidle_oracle_choice(
						sl_machine_of(sim)->idle_drv, dev, d)]
					.power_mw *
				d;
			dev->enter_time = sim->now;
		}
		sl_core_power_mark(sim, rq, -1);
	}
}

/*
 * tick_keep: tick_nohz_next_event keeps a running tick while rcu_needs_cpu() (RCU callbacks
 * queued on this CPU and not offloaded), before any timer is looked at, whatever the idle
 * policy. The model has no RCU: of tick_keep per 1000 idle entries of a CPU that ran a task
 * since its last one (the busy period queued callbacks) while another CPU runs a task (whose
 * quiescent state the grace period still waits for; with every other CPU idle it ends at once
 * and the callbacks run before the entry, and the recordings show no kept tick then), the tick
 * runs tick_keep_ticks more ticks; each runs as any tick (tick_fn: the policy's tick hook, an
 * idle periodic balance). The draw is made only when the parameter is set, so the run is
 * otherwise unchanged.
 */
static void tick_keep_draw(struct sl_sim *sim, struct sl_cpu *rq, struct sl_machine_cpu *mc)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	bool other_busy = false;

	if (!mc->ran_task)
		return;
	mc->ran_task = false;
	if (!mp->tick_keep)
		return;
	/* the first other CPU found running a task settles it (the walk is read only here) */
	for (int c = 0; c < sim->ncpu && !other_busy; c++)
		if (c != rq->id && sim->cpus[c].curr)
			other_busy = true;
	if (other_busy && sl_rng_next(&sim->sched_rng) % 1000 < mp->tick_keep &&
	    mc->tick_keep_left < mp->tick_keep_ticks)
		mc->tick_keep_left = mp->tick_keep_ticks;
}

static void enter_idle(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	if (mc->idle)
		return;
	tick_keep_draw(sim, rq, mc);
	/* tick_nohz_stop_sched_tick runs before the governor selects, so it sees the tick
	 * only where the tick keeps running (the idle load balancer); the governor is told
	 * whether the tick was already stopped before this entry (back to idle after an
	 * interrupt), as tick_nohz_tick_stopped() tells the modern ones */
	mc->idle_dev.tick_stopped = rq->tick_stopped;
	if (!sl_class_nohz_stop_tick(sim, rq, true)) {
		/* only a running tick is kept (a stopped one would be re-programmed) */
		if (!mc->tick_keep_left || rq->tick_stopped) {
			sl_cancel(sim, &mc->tick);
			sl_set_tick_stopped(sim, rq, true);
		}
	} else if (rq->tick_stopped) {
		/* it became the idle load balancer while tickless: its tick runs again */
		sl_set_tick_stopped(sim, rq, false);
		sl_arm(sim, &mc->tick, sl_tick_next(sim));
	}
	sl_cpuidle_enter(sim, rq);
}

/* ---- cache warmth and switch costs ---- */

static u64 switch_in_cost(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);
	u64 cost = sl_machine_of(sim)->p->ctx_switch_ns;

	if (sl_mtask(p)->cache_cold) {
		cost += sl_machine_of(sim)->p->exec_cold_ns;
		sl_mtask(p)->cache_cold = false;
	} else if (sl_mtask(p)->last_cpu == rq->id) {
		u64 seen = sl_mtask(p)->last_switch_seq;

		if (mc->switch_seq != seen)
			cost += sl_machine_of(sim)->p->cache_refill_ns;
		/* a task of another group switched in here since its own last switch-in */
		if (mc->seq_group != sl_mtask(p)->group ? mc->seq_group_at > seen
							: mc->seq_other_at > seen)
			cost += sl_machine_of(sim)->p->cache_refill_foreign_ns;
	} else if (sl_mtask(p)->last_cpu >= 0) {
		const struct sl_cpu *o = &sim->cpus[sl_mtask(p)->last_cpu];

		if (o->socket != rq->socket)
			cost += sl_machine_of(sim)->p->migrate_socket_ns;
		else if (o->core != rq->core)
			cost += sl_machine_of(sim)->p->migrate_core_ns;
		else
			cost += sl_machine_of(sim)->p->migrate_smt_ns;
	}
	mc->switch_seq++;
	if (mc->seq_group != sl_mtask(p)->group) {
		mc->seq_other_at = mc->seq_group_at;
		mc->seq_group = sl_mtask(p)->group;
	}
	mc->seq_group_at = mc->switch_seq;
	sl_mtask(p)->last_switch_seq = mc->switch_seq;
	sl_mtask(p)->last_cpu = rq->id;
	if (sl_mtask(p)->ext && sl_mtask(p)->ext->switch_credit) {
		/* a recorded switch's cost the task's burst already holds: not charged twice */
		cost = cost > sl_mtask(p)->ext->switch_credit
			       ? cost - sl_mtask(p)->ext->switch_credit
			       : 0;
		sl_mtask(p)->ext->switch_credit = 0;
	}
	if (sl_mtask(p)->group) {
		sl_mtask(p)->group->switch_ins++;
		sl_mtask(p)->group->switch_cost_ns += cost;
	}
	return cost;
}

/*
 * sib_idle_rate: rq's running task does rate/1000 of its work per ns while the other CPU of
 * its pair (id xor 1) is idle (no task current there). Its burst's remaining CPU time is
 * converted when that changes: left x 1000 / rate when the sibling goes idle, left x rate /
 * 1000 when it runs again (rounded to the nearest ns), its progress read as the policy's
 * sum_exec_runtime plus the time since its exec_start (the policy's accounting is not brought
 * up to date: no scheduler decision here). With arm, the CPU's work timer is moved to the
 * new end if it was armed (a wall-clock end, OP_RUNTIME, stays the earlier).
 */
static void sib_sync(struct sl_sim *sim, struct sl_cpu *rq, bool arm)
{
	u64 rate = sl_machine_of(sim)->p->sib_idle_rate;
	struct sl_task *p = rq->curr;
	int sib = rq->id ^ 1;
	struct sl_machine_task *mt;

	if (!rate || !p)
		return;
	mt = sl_mtask(p);
	bool slow = sib < sim->ncpu && !sim->cpus[sib].curr;

	if (mt->sib_slow == slow)
		return;
	mt->sib_slow = slow;
	if (!mt->in_run || mt->run_target == RUN_FOREVER || mt->spinning)
		return;
	u64 done = sl_task_progress(sim, p);
	u64 left = mt->run_target > done ? mt->run_target - done : 0;

	left = slow ? (left * 1000 + rate / 2) / rate : (left * rate + 500) / 1000;
	mt->run_target = done + left;
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	if (!arm || !sl_timer_armed(&mc->work))
		return;
	sl_arm(sim, &mc->work, burst_end(sim, p, sim->now + left));
}

void sl_arm_work(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	if (p == rq->curr)
		sib_sync(sim, rq, false);
	if (!sl_mtask(p)->in_run) {
		sl_arm(sim, &mc->work, sim->now);
		return;
	}
	if (sl_mtask(p)->run_target == RUN_FOREVER) {
		sl_cancel(sim, &mc->work);
		return;
	}
	u64 done = sl_task_progress(sim, p);
	u64 left = sl_mtask(p)->run_target > done ? sl_mtask(p)->run_target - done : 0;

	sl_arm(sim, &mc->work, burst_end(sim, p, sim->now + left));
}

/*
 * The CPU time p has had: its policy's sum_exec_runtime and, while p runs, the time since the
 * policy last charged it (exec_start). The policy charges at its own events only (the kernel's
 * update_curr: a tick, a wake-up or sleep on the CPU, a switch), and the machine's bursts end
 * in between, so a burst's progress is read here, not from sum_exec_runtime alone.
 */
u64 sl_task_progress(const struct sl_sim *sim, const struct sl_task *p)
{
	u64 done = p->se.sum_exec_runtime;

	if (p->on_cpu && p->se.exec_start && sim->now > p->se.exec_start)
		done += sim->now - p->se.exec_start;
	return done;
}

void sl_add_run(struct sl_sim *sim, struct sl_task *p, u64 ns)
{
	if (!ns)
		return;
	if (sl_mtask(p)->in_run) {
		if (sl_mtask(p)->run_target != RUN_FOREVER)
			sl_mtask(p)->run_target += ns;
	} else {
		sl_mtask(p)->in_run = true;
		sl_mtask(p)->run_target = sl_task_progress(sim, p) + ns;
		/* a new run's CPU time is at the full rate until sib_sync says otherwise */
		sl_mtask(p)->sib_slow = false;
	}
}

/* ---- mutexes (OWNER_SPIN) ---- */

int sl_push_task(struct sl_sim *sim, struct sl_task ***arr, int *n, int *cap, struct sl_task *p)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 4;
		struct sl_task **a = realloc(*arr, sizeof(*a) * (size_t)nc);

		if (!a) {
			sim->oom = true;
			return -1;
		}
		*arr = a;
		*cap = nc;
	}
	(*arr)[(*n)++] = p;
	return 0;
}

struct sl_task *sl_pop_first(struct sl_task **arr, int *n)
{
	struct sl_task *p = arr[0];

	memmove(arr, arr + 1, sizeof(*arr) * (size_t)(*n - 1));
	(*n)--;
	return p;
}

static void remove_task(struct sl_task **arr, int *n, struct sl_task *p)
{
	for (int i = 0; i < *n; i++) {
		if (arr[i] == p) {
			memmove(arr + i, arr + i + 1, sizeof(*arr) * (size_t)(*n - i - 1));
			(*n)--;
			return;
		}
	}
}

/* A spinner gives up (owner stopped running, or it must reschedule) and sleeps on the lock. */
void sl_spinner_to_sleeper(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_mutex *m = sl_mtask(p)->ext->lock_wait; /* a spinner: it went through op_lock */

	remove_task(m->spinners, &m->nspin, p);
	sl_mtask(p)->spinning = false;
	sl_mtask(p)->in_run = false;
	p->state = TS_UNINTERRUPTIBLE;
	sl_mtask(p)->blocked = BLK_MUTEX;
	sl_push_task(sim, &m->waiters, &m->nwait, &m->capw, p);
	sl_group_sync_sleep(sim, p);
}

void sl_group_sync_sleep(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_group *g = sl_mtask(p)->group;

	if (!g)
		return;
	g->sync_blocked++;
	if (g->deadlock && g->sync_blocked >= g->live && !sim->error[0])
		g->deadlock(sim, g, NULL);
}

/* The owner left its CPU: mutex_spin_on_owner returns 0 in every spinner. */
static void owner_descheduled(struct sl_sim *sim, struct sl_task *owner)
{
	struct sl_group *g = sl_mtask(owner)->group;

	if (!g)
		return;
	for (int i = 0; i < g->nmutex; i++) {
		struct sl_mutex *m = &g->mutexes[i];

		if (m->owner != owner)
			continue;
		for (int k = 0; k < m->nspin; k++)
			sl_arm(sim, &sl_mcpu(sim, m->spinners[k]->cpu)->work, sim->now);
	}
}

/* mutex_unlock by its owner: a spinner takes the lock at once, else the first sleeper wakes */
void sl_mutex_release(struct sl_sim *sim, struct sl_task *p, struct sl_mutex *m)
{
	if (m->owner != p)
		return;
	m->owner = NULL;
	if (m->nspin) {
		/* a spinner sees the release first and takes the lock */
		struct sl_task *s = sl_pop_first(m->spinners, &m->nspin);

		sl_mtask(s)->spinning = false;
		sl_mtask(s)->in_run = false;
		sl_mtask(s)->ext->lock_wait = NULL;
		sl_mtask(s)->pc++;
		m->owner = s;
		sl_arm(sim, &sl_mcpu(sim, s->cpu)->work, sim->now);
	} else if (m->nwait) {
		struct sl_task *w = sl_pop_first(m->waiters, &m->nwait);

		sl_mtask(w)->ext->lock_wait = NULL;
		sl_try_to_wake_up(sim, w, p, 0);
	}
}

/* ---- schedule() ---- */

/* the switch-out a newidle balance with a cost holds, written now (to the idle task) */
static void ni_switch_flush(struct sl_sim *sim, int cpu)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, cpu);

	if (!mc->ni_switch_held)
		return;
	mc->ni_switch_held = false;
	sl_emit(sim, &mc->ni_switch);
}

/*
 * The wake_cold parameters: on the measured guest a task's first step after a sleep of a
 * millisecond or more is slow, its caches and TLB cold, the more so where its vCPU was idle
 * for long (the host had the core): 10 us from a busy vCPU, 11-25 us after 0.1-10 ms of idle,
 * where a task that slept under 1 ms goes on in 4 us (docs/validate.md, issue 28 step 20). At
 * a switch-in the cost is set, to be run before the task's next step (task_prog.c); one not
 * run yet (the task slept on a mutex first) stays unless a new one replaces it.
 */
static void wake_cold(struct sl_sim *sim, const struct sl_cpu *rq, struct sl_task *next,
		      bool from_idle)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	struct sl_machine_task *mt = sl_mtask(next);
	double cost;

	if (!mp->wake_cold_ns || !mt->out_asleep)
		return;
	mt->out_asleep = false;
	if (sim->now - mt->slept_at < mp->wake_cold_sleep_ns)
		return;
	cost = (double)mp->wake_cold_ns;
	if (from_idle && sim->now > sl_mcpu(sim, rq->id)->idle_dev.enter_time) {
		double idle_ms =
			(double)(sim->now - sl_mcpu(sim, rq->id)->idle_dev.enter_time) / 1e6;
		double more = (double)mp->wake_cold_idle_ns +
			      (double)mp->wake_cold_idle_decade_ns * log10(idle_ms);

		if (more > 0)
			cost += more;
	}
	mt->cold_due = (u64)cost;
}

void sl_schedule(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_task *prev = rq->curr, *next;
	char prev_state = 'R';

	sl_set_need_resched(sim, rq, false);
	sl_cancel(sim, &rq->resched);
	if (sched_feat(sim, F_HRTICK))
		sl_cancel(sim, &rq->hrtick);
	if (prev) {
		class_update_curr(sim, rq);
		/* a preempted spinner takes the sleeping slow path */
		if (sl_mtask(prev)->spinning)
			sl_spinner_to_sleeper(sim, prev);
		if (prev->state != TS_RUNNING) {
			prev_state = prev->state == TS_DEAD		 ? 'X'
				     : prev->state == TS_UNINTERRUPTIBLE ? 'D'
									 : 'S';
			sl_mtask(prev)->slept_at = sim->now;
			sl_mtask(prev)->out_asleep = true;
			prev->sched_class->dequeue_task(sim, rq, prev, 1);
		}
		if (prev->sched_class->pre_schedule)
			prev->sched_class->pre_schedule(sim, rq, prev);
	}
	if (!rq->nr_running)
		for (int i = 0; i < sim->nclasses; i++)
			if (sim->classes[i]->newidle_balance)
				sim->classes[i]->newidle_balance(sim, rq);
	if (prev) {
		prev->sched_class->put_prev_task(sim, rq, prev);
		sl_cancel(sim, &sl_mcpu(sim, rq->id)->work);
		prev->on_cpu = false; /* back in the tree: an active balance may take it */
	}
	if (rq->active_balance)
		for (int i = 0; i < sim->nclasses; i++)
			if (sim->classes[i]->active_balance)
				sim->classes[i]->active_balance(sim, rq, rq->push_cpu);
	next = NULL;
	for (int i = 0; i < sim->nclasses && !next; i++)
		next = sim->classes[i]->pick_next_task(sim, rq);
	if (next != prev) {
		struct sl_event ev = {.type = SL_EV_SWITCH,
				      .cpu = rq->id,
				      .pid = prev ? prev->pid : 0,
				      .group = sl_gid(prev),
				      .next_pid = next ? next->pid : 0,
				      .next_group = sl_gid(next),
				      .prev_state = prev ? prev_state : 'R'};

		if (prev)
			owner_descheduled(sim, prev);
		set_busy(sim, rq, next != NULL);
		sl_vcpu_util_switch(sim, rq, prev, next);
		sl_set_curr(sim, rq, next);
		if (next) {
			sl_mtask(next)->switched_in = sim->now;
			wake_cold(sim, rq, next, !prev);
			sl_mcpu(sim, rq->id)->ran_task = true;
		}
		/* the balance reads curr only as idle or not (balance.c first_idle_cpu): one task
		 * after another leaves its kept sums as they were */
		if (!prev != !next) {
			sl_lb_touch(rq);
			/* the pair sibling's work rate follows this CPU's idleness */
			if ((rq->id ^ 1) < sim->ncpu)
				sib_sync(sim, &sim->cpus[rq->id ^ 1], true);
		}
		if (!next && rq->in_newidle) {
			/* the balance takes time: the switch is written at its end */
			sl_mcpu(sim, rq->id)->ni_switch = ev;
			sl_mcpu(sim, rq->id)->ni_switch_held = true;
		} else {
			if (!prev && sl_mcpu(sim, rq->id)->ni_switch_held) {
				const struct sl_event *h = &sl_mcpu(sim, rq->id)->ni_switch;

				ev.pid = h->pid;
				ev.group = h->group;
				ev.prev_state = h->prev_state;
				sl_mcpu(sim, rq->id)->ni_switch_held = false;
			}
			sl_emit(sim, &ev);
		}
		if (next) {
			next->on_cpu = true;
			sl_add_run(sim, next, switch_in_cost(sim, rq, next));
			/* io_schedule's atomic_dec(&rq->nr_iowait) runs when the task runs again */
			if (sl_mtask(next)->iowait_cpu >= 0) {
				sl_mcpu(sim, sl_mtask(next)->iowait_cpu)->nr_iowait--;
				sl_mtask(next)->iowait_cpu = -1;
			}
		}
	}
	if (!next && !rq->in_newidle)
		ni_switch_flush(sim, rq->id); /* the balance ended with no task */
	if (next) {
		next->on_cpu = true;
		sl_arm_work(sim, rq, next);
		if (next->sched_class->post_schedule)
			next->sched_class->post_schedule(sim, rq);
	} else if (!rq->in_newidle) {
		enter_idle(sim, rq);
	}
}

/* ---- the tick ---- */

static void tick_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_cpu *rq = &sim->cpus[t->cpu];
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	sim->this_cpu = rq->id;
	for (int i = 0; i < sim->nclasses; i++)
		if (sim->classes[i]->tick_load)
			sim->classes[i]->tick_load(sim, rq);
	if (rq->curr)
		rq->curr->sched_class->task_tick(sim, rq, 0);
	rq->idle_at_tick = rq->curr == NULL;
	for (int i = 0; i < sim->nclasses; i++)
		if (sim->classes[i]->tick_balance)
			sim->classes[i]->tick_balance(sim, rq);
	/* tick_keep: this tick is one of those kept */
	if (mc->tick_keep_left)
		mc->tick_keep_left--;
	/* an idle CPU's tick runs only while it is the idle load balancer, or kept for RCU */
	if (!rq->curr && !rq->need_resched && !sl_class_nohz_stop_tick(sim, rq, true) &&
	    !mc->tick_keep_left) {
		sl_set_tick_stopped(sim, rq, true);
		return;
	}
	/* tick_grid: tick_sched_timer's hrtimer_forward keeps the jiffy grid, also when the
	 * tick ran late behind its CPU's C-state exit */
	sl_arm(sim, &mc->tick,
	       sl_machine_of(sim)->p->tick_grid ? sl_tick_next(sim) : sim->now + sim->tick_ns);
}

/* bg_wakeup: the CPU's background timer; the dispatch has done the waking, this re-arms it */
static void bg_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_cpu *rq = &sim->cpus[t->cpu];
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	if (mc->bg_next <= sim->now)
		mc->bg_next +=
			((sim->now - mc->bg_next) / sl_machine_of(sim)->p->bg_wakeup_ns + 1) *
			sl_machine_of(sim)->p->bg_wakeup_ns;
	sl_arm(sim, t, mc->bg_next);
}

/*
 * Of the model's timers only the background timer (bg_wakeup: non-deferrable kernel timers,
 * the vmstat and cache-reaping work) is a timer of the kernel's timer wheel; a task's sleep
 * (clock_nanosleep), the tick and the hrtick are hrtimers, which high-resolution mode leaves
 * out of NO_HZ's next timer event (docs/model/eevdf.md, 5.4)
 */
static u64 next_wheel_timer(const struct sl_sim *sim, int cpu)
{
	const struct sl_timer *t = &sl_mcpu(sim, cpu)->bg;

	return sl_timer_armed(t) ? t->expires : UINT64_MAX;
}

static void hrtick_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_cpu *rq = sl_container_of(t, struct sl_cpu, hrtick);

	sim->this_cpu = rq->id;
	if (rq->curr)
		rq->curr->sched_class->task_tick(sim, rq, 1);
}

/*
 * The burst_quiet parameter: the end of a burst is the task's own code going on (a run loop's
 * end, the call into the kernel that follows), not a kernel event: no tick, no interrupt, no
 * wake-up on this CPU. So the policy's accounting is not brought up to date there (the burst's
 * progress is read without it, sl_task_progress): the running task's vruntime stays as the
 * last scheduler event left it, as the kernel's does. With burst_account it is brought up to
 * date (the model before issue 28 step 32), and a reschedule it asks for (EEVDF's update_curr
 * once the slice's protection has lapsed) is left to the next real event, which asks again.
 * Without burst_quiet the burst's end is a preemption point: accounted, and a reschedule taken.
 */
static void work_fn(struct sl_sim *sim, struct sl_timer *t)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	struct sl_cpu *rq = &sim->cpus[t->cpu];
	struct sl_task *p = rq->curr;
	bool quiet;

	sim->this_cpu = rq->id;
	if (!p)
		return;
	if (mp->burst_quiet && !mp->burst_account) {
		sl_task_continue(sim, rq, p);
		return;
	}
	quiet = mp->burst_quiet && !rq->need_resched;
	class_update_curr(sim, rq);
	if (quiet && rq->need_resched) {
		sl_set_need_resched(sim, rq, false);
		sl_cancel(sim, &rq->resched);
	}
	sl_task_continue(sim, rq, p);
}

/*
 * The machine before the first event: every CPU idle in the poll loop with its tick stopped,
 * all in the NO_HZ mask with no idle load balancer (the state an idle machine settles in), and
 * each marked as recently tickless so the first busy tick kicks an idle balancer awake.
 */
void sl_machine_start(struct sl_sim *sim)
{
	for (int c = 0; c < sim->ncpu; c++) {
		struct sl_cpu *rq = &sim->cpus[c];

		sim->this_cpu = c;
		/* background wake-ups phased evenly over the CPUs: CPU c first at
		 * (2c + 1) / (2 ncpu) of the interval (armed first: the governor sees it) */
		if (sl_machine_of(sim)->p->bg_wakeup_ns) {
			sl_mcpu(sim, rq->id)->bg_next = sl_machine_of(sim)->p->bg_wakeup_ns *
							(2 * (u64)c + 1) / (2 * (u64)sim->ncpu);
			sl_arm(sim, &sl_mcpu(sim, rq->id)->bg,
			       sl_mcpu(sim, rq->id)->bg_next ? sl_mcpu(sim, rq->id)->bg_next : 1);
		}
		sl_irq_bg_start(sim, rq);
		sl_cpuidle_enter(sim, rq);
		sl_set_tick_stopped(sim, rq, true);
		rq->in_nohz_mask = true;
		rq->in_nohz_recently = true;
	}
	sim->nohz_count = sim->ncpu;
	sim->nohz_balancer = -1;
	sim->this_cpu = -1;
}

void sl_machine_init_cpu(struct sl_sim *sim, struct sl_cpu *rq, int id)
{
	memset(rq, 0, sizeof(*rq));
	memset(sl_mcpu(sim, id), 0, sizeof(struct sl_machine_cpu));
	rq->id = id;
	sl_class_init_rq(sim, rq);
	sl_timer_init(&sl_mcpu(sim, rq->id)->tick, tick_fn, id);
	sl_timer_init(&sl_mcpu(sim, rq->id)->work, work_fn, id);
	sl_timer_init(&rq->resched, resched_fn, id);
	sl_timer_init(&rq->hrtick, hrtick_fn, id);
	sl_timer_init(&sl_mcpu(sim, rq->id)->idle_timer, idle_timer_fn, id);
	sl_timer_init(&sl_mcpu(sim, rq->id)->bg, bg_fn, id);
	sl_irq_bg_init_cpu(sim, rq);
	sl_mcpu(sim, rq->id)->idle_state = 0;
	/* every CPU starts idle with its tick stopped; the first task restarts it */
	sl_set_tick_stopped(sim, rq, true);
	sl_cpu_free_update(sim, rq);
}

const struct sl_machine_ops sl_machine_ops = {
	.resched_cpu = resched_cpu,
	.next_wheel_timer = next_wheel_timer,
};

/* ---- tasks ---- */

static void task_timer_fn(struct sl_sim *sim, struct sl_timer *t);
static void enqueue_fn(struct sl_sim *sim, struct sl_timer *t);

/*
 * The next task's slot (pid ntasks + 1), zeroed: a new chunk when the last one is full. A task
 * lives until the simulation ends (its statistics are read then), so nothing is recycled during
 * a run; the slot is taken for good when new_task counts the task.
 */
#define HEAP_CHUNKS 8 /* 4096 tasks */

static struct sl_task *task_alloc(struct sl_sim *sim)
{
	struct sl_machine *m = sl_machine_of(sim);
	int k = m->ntasks / SL_TASK_CHUNK;

	if (k == m->nchunks) {
		if (m->nchunks == m->capchunks) {
			int cap = m->capchunks ? m->capchunks * 2 : 16;
			struct sl_task_chunk **a =
				realloc(m->task_chunks, sizeof(*a) * (size_t)cap);

			if (!a)
				return NULL;
			m->task_chunks = a;
			m->capchunks = cap;
		}
		/* the first HEAP_CHUNKS from the heap, the others from the arena's huge pages:
		 * a sweep makes thousands of runs of a few hundred tasks in one process, and
		 * for those a 2 MB page zeroed per run was dearer than the faults it saves */
		m->task_chunks[k] =
			k >= HEAP_CHUNKS
				? sl_arena_zalloc(&m->task_arena, sizeof(struct sl_task_chunk),
						  sizeof(struct sl_task_chunk) *
							  (SL_MAX_TASKS / SL_TASK_CHUNK + 1))
				: calloc(1, sizeof(struct sl_task_chunk));
		if (!m->task_chunks[k])
			return NULL;
		m->nchunks++;
	}
	return sl_sim_task(sim, m->ntasks);
}

void sl_task_chunks_free(struct sl_sim *sim)
{
	struct sl_machine *m = sl_machine_of(sim);

	for (int k = 0; k < m->nchunks && k < HEAP_CHUNKS; k++)
		free(m->task_chunks[k]);
	sl_arena_free(&m->task_arena);
	free(m->task_chunks);
	m->task_chunks = NULL;
	m->nchunks = m->capchunks = 0;
}

/*
 * Whether a program has a counted loop (OP_LOOP with arg2 > 0): only those keep a counter (a
 * loop for ever has none), so a task whose program has none gets no counter array.
 */
static bool prog_counts_loops(const struct sl_prog *prog)
{
	for (int i = 0; i < prog->n; i++)
		if (prog->steps[i].op == OP_LOOP && prog->steps[i].arg2 != 0)
			return true;
	return false;
}

/* whether a program needs struct sl_task_ext from its start: a lock, a wall-clock burst, a
 * switch credit */
static bool prog_needs_ext(const struct sl_prog *prog)
{
	for (int i = 0; i < prog->n; i++)
		if (prog->steps[i].op == OP_LOCK || prog->steps[i].op == OP_RUNTIME ||
		    prog->steps[i].op == OP_CREDIT)
			return true;
	return prog->switch_credit_ns > 0;
}

struct sl_task_ext *sl_task_ext(struct sl_sim *sim, struct sl_task *p)
{
	if (!sl_mtask(p)->ext && !(sl_mtask(p)->ext = calloc(1, sizeof(*sl_mtask(p)->ext))))
		sim->oom = true;
	return sl_mtask(p)->ext;
}

static struct sl_task *new_task(struct sl_sim *sim, struct sl_group *g, const struct sl_prog *prog)
{
	if (sl_machine_of(sim)->ntasks >= SL_MAX_TASKS) {
		snprintf(sim->error, sizeof(sim->error),
			 "more than %d tasks created (SL_MAX_TASKS)", SL_MAX_TASKS);
		return NULL;
	}
	struct sl_task *p = task_alloc(sim);
	bool loops = p && prog_counts_loops(prog);

	if (!p ||
	    ((loops || prog_needs_ext(prog)) &&
	     (!sl_task_ext(sim, p) ||
	      (loops && !(sl_mtask(p)->ext->loopcnt = calloc((size_t)prog->n, sizeof(int))))))) {
		if (p) {
			free(sl_mtask(p)->ext);
			sl_mtask(p)->ext = NULL;
			/* the slot stays the next task's, zeroed again */
		}
		sim->oom = true;
		return NULL;
	}
	if (prog->switch_credit_ns && sl_mtask(p)->ext) /* made above: prog_needs_ext */
		sl_mtask(p)->ext->switch_credit = prog->switch_credit_ns;
	sl_machine_of(sim)->ntasks++;
	p->pid = sl_machine_of(sim)->ntasks; /* pids are dense, from 1; 0 is the idle task */
	sl_mtask(p)->comm = prog->comm;
	p->nice = prog->nice;
	p->policy = (uint8_t)prog->policy;
	p->rt_priority = prog->rt_priority;
	p->cpus_allowed = prog->cpus_allowed;
	sl_mtask(p)->prog = prog;
	p->sched_runtime = prog->sched_runtime;
	p->group_id = g ? g->id : -1;
	p->uid = prog->uid_root ? 0 : prog->uid > 0 ? prog->uid : g ? g->uid : 0;
	/* USER_SCHED: every task (any class) joins its uid's group, made on its first task */
	if (sim->group_sched && !(p->se.tg = sim->rel->fair->uid_group(sim, p->uid))) {
		sim->oom = true;
		return NULL;
	}
	p->state = TS_NEW;
	sl_mtask(p)->last_cpu = -1;
	sl_mtask(p)->iowait_cpu = -1;
	sl_mtask(p)->start_time = sim->now;
	p->sched_class = sl_class_for(sim, p);
	p->sched_class->init_task(sim, p);
	sl_timer_init(&sl_mtask(p)->timer, task_timer_fn, -1);
	sl_timer_init(&sl_mtask(p)->enqueue, enqueue_fn, -1);
	sl_mtask(p)->group = g;
	if (g) {
		g->ntasks++;
		g->live++;
	}
	return p;
}

void sl_task_free(struct sl_task *p)
{
	if (!p)
		return;
	if (sl_mtask(p)->ext) {
		free(sl_mtask(p)->ext->loopcnt);
		free(sl_mtask(p)->ext->io);
		free(sl_mtask(p)->ext);
		sl_mtask(p)->ext = NULL;
	}
	/* the task itself is the arena's (sl_task_chunks_free) */
}

/*
 * The affinity mask over the policy's placement: its choice when allowed, else the allowed CPU
 * with the fewest runnable tasks (the lowest on ties). The kernel searches within the mask
 * (select_task_rq_fair, select_fallback_rq); this keeps the policy's rules untouched and is
 * an approximation for masked tasks only.
 */
static int allowed_cpu(struct sl_sim *sim, const struct sl_task *p, int cpu)
{
	int best = -1;

	if (sl_cpu_allowed(p, cpu))
		return cpu;
	for (int c = 0; c < sim->ncpu; c++)
		if (sl_cpu_allowed(p, c) &&
		    (best < 0 || sim->cpus[c].nr_running < sim->cpus[best].nr_running))
			best = c;
	return best < 0 ? cpu : best;
}

/* wake_up_new_task */
static void wake_up_new_task(struct sl_sim *sim, struct sl_task *p, bool parent_on_rq)
{
	struct sl_cpu *rq = &sim->cpus[p->cpu];
	struct sl_event ev = {
		.type = SL_EV_WAKEUP_NEW, .cpu = p->cpu, .pid = p->pid, .group = sl_gid(p)};

	p->state = TS_RUNNING;
	sl_vcpu_pack_runnable(sim, p);
	p->sched_class->wake_up_new(sim, rq, p, parent_on_rq);
	sl_emit(sim, &ev);
	sl_check_preempt_curr(
		sim, rq, p,
		WF_FORK | (sl_machine_of(sim)->p->wake_skip_delayed ? WF_SKIP_DELAYED : 0));
	task_woken(sim, rq, p);
}

struct sl_task *sl_spawn(struct sl_sim *sim, struct sl_group *g, const struct sl_prog *prog)
{
	struct sl_task *p = new_task(sim, g, prog);
	int saved = sim->this_cpu;

	if (!p)
		return NULL;
	/* forked by a shell on CPU 0 that sleeps in wait(): fork balancing from CPU 0, the
	 * task_new placement of the target runqueue, and no child-runs-first */
	p->cpu = allowed_cpu(sim, p, p->sched_class->select_task_rq(sim, p, 0, SD_BALANCE_FORK, 0));
	p->sched_class->task_fork(sim, p, NULL);
	sim->this_cpu = -1;
	wake_up_new_task(sim, p, true);
	sim->this_cpu = saved;
	return p;
}

void sl_do_fork(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *parent,
		const struct sl_prog *prog, int pipe)
{
	struct sl_task *p = new_task(sim, sl_mtask(parent)->group, prog);

	if (!p)
		return;
	/* fork with a pipe between them (cc1 | as): each is the other's peer */
	if (pipe) {
		if (!sl_task_ext(sim, p) || !sl_task_ext(sim, parent))
			return;
		sl_mtask(p)->ext->peer = parent;
		sl_mtask(parent)->ext->peer = p;
	}
	class_update_curr(sim, rq);
	p->parent = parent;
	sl_mtask(parent)->live_children++;
	p->sched_class->task_fork(sim, p, parent);
	p->cpu = rq->id;
	if (!p->cpus_allowed)
		p->cpus_allowed = parent->cpus_allowed; /* fork copies the affinity */
	sl_mtask(p)->last_cpu = rq->id; /* the child shares the parent's (warm) pages */
	sl_mtask(p)->last_switch_seq = sl_mcpu(sim, rq->id)->switch_seq;
	struct sl_event ev = {.type = SL_EV_FORK,
			      .cpu = rq->id,
			      .pid = parent->pid,
			      .group = sl_gid(parent),
			      .next_pid = p->pid,
			      .next_group = sl_gid(p)};

	sl_emit(sim, &ev);
	/* sched_fork: SD_BALANCE_FORK placement, then set_task_cpu */
	int cpu = allowed_cpu(sim, p,
			      p->sched_class->select_task_rq(sim, p, rq->id, SD_BALANCE_FORK, 0));

	if (cpu != p->cpu)
		set_task_cpu(sim, p, cpu);
	wake_up_new_task(sim, p, parent->se.on_rq);
}

/*
 * The wake_ipi parameter: waking a task onto another CPU that is idle and not polling sends
 * it an IPI, and the waker pays for sending it (in a VM the APIC write exits to the host,
 * which kicks the halted vCPU). Charged as CPU time of the waker's current burst; a polling
 * CPU needs no IPI (it watches its need_resched flag), a busy one is preempted or not by
 * the policy and is not counted here.
 */
static void wake_ipi_cost(struct sl_sim *sim, struct sl_task *waker, int from, int cpu)
{
	u64 ns = sl_machine_of(sim)->p->wake_ipi_ns;

	if (!ns || !waker || from < 0 || from == cpu || !sl_rq_idle(&sim->cpus[cpu]) ||
	    sl_cpuidle_polling(sim, &sim->cpus[cpu]))
		return;
	sl_add_run(sim, waker, ns);
}

/*
 * The wake_tail parameter: a task that wakes another from task context (a futex wake) runs on
 * for this long before its next step; a wakee kept on its CPU and not let run first waits that
 * long. Charged as CPU time of the waker's current burst, as wake_ipi's.
 */
static void wake_tail_cost(struct sl_sim *sim, struct sl_task *waker, u64 enqueue)
{
	u64 ns = sl_machine_of(sim)->p->wake_tail_ns;

	/* wake_enqueue_busy: the waker cannot leave the call before its enqueue */
	if (ns < enqueue)
		ns = enqueue;

	if (!ns || !waker || !waker->on_cpu)
		return;
	if (sl_machine_of(sim)->p->wake_tail_unlock)
		sl_mtask(waker)->tail_due += ns;
	else
		sl_add_run(sim, waker, ns);
}

/*
 * The irq_preempt parameter: an interrupt's wake-up that set need_resched on the CPU it came
 * on, which runs a task, switches irq_preempt_ns later; the CPU's time meanwhile is the
 * interrupt's, so the running task's burst ends that much later too.
 */
static void irq_preempt_delay(struct sl_sim *sim, struct sl_cpu *rq, const struct sl_task *waker,
			      int from, bool had_resched)
{
	u64 ns = sl_machine_of(sim)->p->irq_preempt_ns;

	if (!ns || waker || had_resched || rq->id != from || !rq->curr || !rq->need_resched)
		return;
	sl_arm(sim, &rq->resched, sim->now + ns);
	sl_machine_steal(sim, rq, ns);
}

/*
 * The task_preempt parameter: a task's wake-up that set need_resched on its own CPU switches
 * task_preempt_ns later, at the return to user mode of the waker's system call; the waker
 * runs meanwhile (its program does not step: it is in the kernel), and that time comes out of
 * the tail it owes after the call (wake_tail_unlock's tail_due).
 */
static void task_preempt_delay(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *waker,
			       int from, bool had_resched)
{
	u64 ns = sl_machine_of(sim)->p->task_preempt_ns;
	struct sl_machine_task *m;

	if (!ns || !waker || had_resched || rq->id != from || rq->curr != waker ||
	    !rq->need_resched)
		return;
	sl_arm(sim, &rq->resched, sim->now + ns);
	m = sl_mtask(waker);
	m->tail_due = m->tail_due > ns ? m->tail_due - ns : 0;
}

/*
 * The wake_enqueue_busy parameter: a task's wake-up of a task onto another CPU that runs a
 * task enqueues it that much after the call (in a VM the waker's select_task_rq, the remote
 * runqueue's lock and the enqueue take 12 us before sched_wakeup, docs/validate.md). The
 * waker runs on meanwhile (wake_tail_cost: at least this long); the wakee is on no runqueue
 * and a second wake-up of it does nothing, as TASK_WAKING's.
 */
static u64 wake_enqueue_delay(struct sl_sim *sim, const struct sl_task *waker, int from, int cpu)
{
	u64 ns = sl_machine_of(sim)->p->wake_enqueue_busy_ns;

	if (!ns || !waker || from < 0 || from == cpu || sl_rq_idle(&sim->cpus[cpu]))
		return 0;
	return ns;
}

static void ttwu_enqueue(struct sl_sim *sim, struct sl_task *p, struct sl_task *waker, int cpu,
			 int from, int prev, int wake_flags, bool again, u64 since);

/* p no longer waits for what it slept on (a deferred enqueue's wakee from the call: the
 * futex's waiter is taken off its queue there, and a group's deadlock check must know) */
static void wake_unblock(struct sl_task *p)
{
	if (sl_mtask(p)->group &&
	    (sl_mtask(p)->blocked == BLK_MUTEX || sl_mtask(p)->blocked == BLK_COND))
		sl_mtask(p)->group->sync_blocked--;
	sl_mtask(p)->blocked = BLK_NONE;
}

static void enqueue_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_machine_task *m = sl_container_of(t, struct sl_machine_task, enqueue);

	sim->this_cpu = m->enq_from;
	m->enq_pending = false;
	ttwu_enqueue(sim, &m->task, m->enq_waker, m->enq_cpu, m->enq_from, m->enq_prev,
		     m->enq_flags, m->enq_again, sl_machine_of(sim)->p->wake_enqueue_busy_ns);
}

void sl_try_to_wake_up(struct sl_sim *sim, struct sl_task *p, struct sl_task *waker, int wake_flags)
{
	int cpu;

	if (p->state != TS_SLEEPING && p->state != TS_UNINTERRUPTIBLE)
		return;
	if (sl_mtask(p)->enq_pending)
		return;
	/* woken while its CPU's newidle balance still holds its switch-out: written first */
	if (sl_mcpu(sim, p->cpu)->ni_switch_held && sl_mcpu(sim, p->cpu)->ni_switch.pid == p->pid)
		ni_switch_flush(sim, p->cpu);
	int from = sim->this_cpu;
	/*
	 * wake_preempt_again: a mutex's waiter that slept on the releasing task's CPU got there
	 * by running while the holder was preempted (a hand-off's bounce); whatever let it run
	 * first then lets it again
	 */
	bool again = waker && sl_mtask(p)->blocked == BLK_MUTEX && p->cpu == from;
	int prev = p->cpu;

	/*
	 * SYNC_WAKEUPS is a sched_features bit of 2.6.31/2.6.32 (off: the sync hint is
	 * dropped). A release without that flag keeps WF_SYNC: BFS, whose try_to_wake_up
	 * passes sync as is, and 6.18, whose select_task_rq_fair takes sync = WF_SYNC and
	 * not PF_EXITING (kernel/sched/fair.c) for wake_affine.
	 */
	if ((wake_flags & WF_SYNC) && sim->rel && sl_feat_known(&sim->rel->feats, F_SYNC_WAKEUPS) &&
	    !sched_feat(sim, F_SYNC_WAKEUPS))
		wake_flags &= ~WF_SYNC;
	cpu = allowed_cpu(
		sim, p,
		p->sched_class->select_task_rq(sim, p, sim->this_cpu, SD_BALANCE_WAKE, wake_flags));
	cpu = sl_vcpu_place(sim, p, waker, from, cpu);
	u64 later = wake_enqueue_delay(sim, waker, from, cpu);

	wake_ipi_cost(sim, waker, from, cpu);
	wake_tail_cost(sim, waker, later ? later + sl_machine_of(sim)->p->wake_enqueue_tail_ns : 0);
	if (later) {
		struct sl_machine_task *m = sl_mtask(p);
		struct sl_event ev = {.type = SL_EV_WAKING,
				      .cpu = cpu,
				      .pid = p->pid,
				      .group = sl_gid(p),
				      .orig_cpu = from,
				      .reason = SL_WAKE_SRC_TASK};

		sl_emit(sim, &ev);
		wake_unblock(p);
		m->enq_waker = waker;
		m->enq_cpu = cpu;
		m->enq_from = from;
		m->enq_prev = prev;
		m->enq_flags = wake_flags;
		m->enq_again = again;
		m->enq_pending = true;
		sl_arm(sim, &m->enqueue, sim->now + later);
		return;
	}
	ttwu_enqueue(sim, p, waker, cpu, from, prev, wake_flags, again, 0);
}

/* the rest of a wake-up: the enqueue onto cpu, chosen at the call `since` ns ago */
static void ttwu_enqueue(struct sl_sim *sim, struct sl_task *p, struct sl_task *waker, int cpu,
			 int from, int prev, int wake_flags, bool again, u64 since)
{
	struct sl_cpu *rq;
	bool had_resched;
	/* the task's own sleep timer (hrtimer_wakeup), a device's interrupt, or a task */
	int src = waker				      ? SL_WAKE_SRC_TASK
		  : sl_mtask(p)->blocked == BLK_TIMER ? SL_WAKE_SRC_TIMER
						      : SL_WAKE_SRC_IRQ;

	if (cpu != p->cpu) {
		sim->migrating_wakee = true;
		set_task_cpu(sim, p, cpu);
		sim->migrating_wakee = false;
	}
	rq = &sim->cpus[cpu];
	had_resched = rq->need_resched;
	if (!since)
		wake_unblock(p);
	p->state = TS_RUNNING;
	sl_vcpu_pack_runnable(sim, p);
	sim->wake_flags = wake_flags;
	sl_machine_of_mut(sim)->in_wakeup = true;
	sl_machine_of_mut(sim)->wake_since = since;
	p->sched_class->enqueue_task(sim, rq, p, 1);
	sim->wake_flags = 0;
	/* the waker's statistics, only from task context (2.6.3x CFS's avg_wakeup) */
	if (waker && sim->rel->fair->waker_done)
		sim->rel->fair->waker_done(sim, waker);
	struct sl_event ev = {.type = SL_EV_WAKEUP,
			      .cpu = cpu,
			      .pid = p->pid,
			      .group = sl_gid(p),
			      .orig_cpu = from,
			      .latency = since,
			      .reason = src};

	sl_emit(sim, &ev);
	struct sl_wake w = {.rq = rq,
			    .p = p,
			    .waker = waker,
			    .from = from,
			    .prev = prev,
			    .wake_flags = wake_flags,
			    .again = again && cpu == from};

	sl_wake_rules(sim, &w);
	irq_preempt_delay(sim, rq, waker, from, had_resched);
	task_preempt_delay(sim, rq, waker, from, had_resched);
	task_woken(sim, rq, p);
	sl_machine_of_mut(sim)->wake_since = 0;
}

/* A sleep timer or an I/O completion: an interrupt on the CPU that owns the timer. */
static void task_timer_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_task *p = &sl_container_of(t, struct sl_machine_task, timer)->task;
	bool sleep = sl_mtask(p)->blocked == BLK_TIMER && !t->irq;

	sim->this_cpu = sl_mtask(p)->blocked == BLK_IO ? sl_mtask(p)->iowait_cpu : t->cpu;
	sl_try_to_wake_up(sim, p, NULL, 0);
	if (!sleep || !sl_machine_of(sim)->p->timer_coalesce)
		return;
	while ((p = sl_next_expired_sleep(sim, t->cpu))) {
		sl_cancel(sim, &sl_mtask(p)->timer);
		sim->this_cpu = t->cpu;
		sl_try_to_wake_up(sim, p, NULL, 0);
	}
}
