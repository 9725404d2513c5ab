/*
 * A CPU's idle loop, as the machine runs it: enter asks the governor for a state (with the
 * inputs the kernel's framework gathers: the next timer, the tick, the load, iowait), exit
 * measures the residency, keeps the sysfs counters and the run's figures, and lets the governor
 * reflect. The governors and drivers themselves are the cpuidle library (src/cpuidle/), which
 * knows nothing of the simulation.
 */
#include "machine/idle.h"
#include "machine/machine.h"
#include "machine/blockdev.h"
#include "machine/params.h"
#include "sched/release.h"
#include "sched/sched.h"

#include <stdlib.h>
#include <string.h>

/* The 2.6.3x acpi_idle entry path applies: the release ran it and the table is an ACPI one. */
static bool acpi_path(const struct sl_sim *sim)
{
	return sim->rel && sim->rel->acpi_idle && sl_machine_of(sim)->idle_drv->latency_factor;
}

/*
 * acpi_idle's safe state (acpi_processor_setup_cpuidle): the last C1- or C2-type state of the
 * table, i.e. the deepest state below the first CHECK_BM one that is not the poll state.
 * -1 when there is none (the kernel then halts: acpi_safe_halt, the C1 of the table).
 */
static int safe_state(const struct sl_cpuidle_driver *drv)
{
	int safe = -1;

	for (int i = 0; i < drv->state_count; i++) {
		if (drv->states[i].flags & CPUIDLE_FLAG_CHECK_BM)
			break;
		if (!(drv->states[i].flags & CPUIDLE_FLAG_POLL))
			safe = i;
	}
	return safe;
}

/*
 * One clockevents_notify(BROADCAST_ENTER or _EXIT) wanting the global lock at `t`: it holds
 * the lock bcast_lock ns from the first moment at or after t that no other holder has
 * reserved; returns when it releases it. The holders are a calendar of reserved intervals
 * (an exit asks when its wake-up is dispatched, for the moment after its exit latency, so a
 * later-dispatched entry may still take the lock before it); out of memory, the request
 * queues behind every reservation.
 */
u64 sl_bcast_notify(struct sl_sim *sim, u64 t)
{
	struct sl_machine *m = sl_machine_of(sim);
	u64 hold = m->p->bcast_lock_ns, start = t;
	int keep = 0, at;

	/* forget the intervals that ended */
	for (int i = 0; i < m->nbcast; i++) {
		if (m->bcast_busy[2 * i + 1] <= sim->now)
			continue;
		m->bcast_busy[2 * keep] = m->bcast_busy[2 * i];
		m->bcast_busy[2 * keep + 1] = m->bcast_busy[2 * i + 1];
		keep++;
	}
	m->nbcast = keep;
	/* the first gap of `hold` at or after t */
	for (at = 0; at < m->nbcast; at++) {
		u64 s = m->bcast_busy[2 * at], e = m->bcast_busy[2 * at + 1];

		if (e <= start)
			continue;
		if (s >= start + hold)
			break;
		start = e;
	}
	if (m->nbcast == m->capbcast) {
		int cap = m->capbcast ? 2 * m->capbcast : 16;
		u64 *b = realloc(m->bcast_busy, sizeof(*b) * 2 * (size_t)cap);

		if (!b) {
			sim->oom = true;
			return (m->nbcast ? m->bcast_busy[2 * m->nbcast - 1] : start) + hold;
		}
		m->bcast_busy = b;
		m->capbcast = cap;
	}
	memmove(&m->bcast_busy[2 * at + 2], &m->bcast_busy[2 * at],
		sizeof(u64) * 2 * (size_t)(m->nbcast - at));
	m->bcast_busy[2 * at] = start;
	m->bcast_busy[2 * at + 1] = start + hold;
	m->nbcast++;
	return start + hold;
}

/*
 * The state a CPU's core resolved to (smt_resolve; docs/model/cpuidle.md §7.7): the shallowest
 * of its threads' states, state 1 (C1) when a sibling runs, never deeper than the CPU's own.
 */
static int core_state(const struct sl_sim *sim, const struct sl_cpu *rq, int own)
{
	int idx = own;

	if (!sl_machine_of(sim)->p->smt_resolve)
		return own;
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_cpu *o = &sim->cpus[c];
		const struct sl_machine_cpu *mo;
		int s;

		if (o == rq || o->socket != rq->socket || o->core != rq->core)
			continue;
		mo = sl_mcpu(sim, o->id);
		s = mo->idle ? mo->idle_state : 1;
		if (s < idx)
			idx = s;
	}
	return idx;
}

/*
 * The package C-state the CPU's socket is in while the CPU is idle (docs/model/cpuidle.md
 * §7.7): the package follows its shallowest core, and reaches package C3/C6 only when every
 * CPU of the socket idles in a state that flushed its caches (TLB_FLUSHED: hardware C3 or
 * deeper). Returns the extra exit latency of that package state: pkg_c6_exit when the
 * shallowest state is the table's deepest, pkg_c3_exit otherwise; 0 when some CPU runs.
 */
static u64 package_exit(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	const struct sl_machine *m = sl_machine_of(sim);
	const struct sl_cpuidle_driver *drv = m->idle_drv;
	int shallowest = drv->state_count;

	if (!m->p->pkg_c3_exit_ns && !m->p->pkg_c6_exit_ns)
		return 0;
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_cpu *o = &sim->cpus[c];
		const struct sl_machine_cpu *mo;

		if (o->socket != rq->socket)
			continue;
		mo = sl_mcpu(sim, o->id);
		if (!mo->idle || !(drv->states[mo->idle_state].flags & CPUIDLE_FLAG_TLB_FLUSHED))
			return 0;
		if (mo->idle_state < shallowest)
			shallowest = mo->idle_state;
	}
	return shallowest == drv->state_count - 1 ? m->p->pkg_c6_exit_ns : m->p->pkg_c3_exit_ns;
}

/*
 * c2_as_c6: the PCU resolves acpi_idle's C2-type request (the safe state when it flushes the
 * caches, hardware C3) to the table's deepest hardware state, whose exit it then pays; the
 * governors keep reading the _CST figure.
 */
static u64 hw_exit_ns(const struct sl_sim *sim, int idx)
{
	const struct sl_cpuidle_driver *drv = sl_machine_of(sim)->idle_drv;

	if (sl_machine_of(sim)->p->c2_as_c6 && acpi_path(sim) && idx < drv->state_count - 1 &&
	    idx == safe_state(drv) && (drv->states[idx].flags & CPUIDLE_FLAG_TLB_FLUSHED))
		return drv->states[drv->state_count - 1].exit_latency_ns;
	return drv->states[idx].exit_latency_ns;
}

static u64 thread_power(const struct sl_sim *sim, const struct sl_machine_cpu *mc)
{
	return mc->idle ? sl_machine_of(sim)->idle_drv->states[mc->idle_state].power_mw
			: sl_machine_of(sim)->idle_drv->busy_power_mw;
}

/*
 * core_power: the energy of rq's core up to now, at the power of its most active thread (the
 * core runs at the shallowest state any of its threads is in), kept on the core's first CPU.
 * Called before any thread of the core changes state. exiting: rq is leaving state e, so the
 * core pays the transition of the state it was in, the shallower of e and its idle siblings'
 * (none when a sibling ran: the core never left C0).
 */
void sl_core_power_mark(struct sl_sim *sim, const struct sl_cpu *rq, int exiting)
{
	struct sl_cpu *holder = NULL;
	u64 p = 0;
	int cs = exiting;

	if (!sl_machine_of(sim)->p->core_power)
		return;
	for (int c = 0; c < sim->ncpu; c++) {
		struct sl_cpu *o = &sim->cpus[c];
		const struct sl_machine_cpu *mo;
		u64 op;

		if (o->socket != rq->socket || o->core != rq->core)
			continue;
		if (!holder)
			holder = o;
		mo = sl_mcpu(sim, o->id);
		op = thread_power(sim, mo);
		p = op > p ? op : p;
		if (o != rq && cs >= 0)
			cs = !mo->idle ? -1 : mo->idle_state < cs ? mo->idle_state : cs;
	}
	if (!holder)
		return; /* not reached: rq is a thread of its own core */
	struct sl_machine_cpu *mh = sl_mcpu(sim, holder->id);

	mh->core_energy_pj += p * (sim->now - mh->core_mark);
	mh->core_mark = sim->now;
	if (cs >= 0)
		mh->core_energy_pj +=
			sl_machine_of(sim)->idle_drv->states[cs].entry_energy_nj * 1000;
}

u64 sl_machine_energy_pj(const struct sl_sim *sim)
{
	u64 pj = 0;

	for (int c = 0; c < sim->ncpu; c++)
		pj += sl_machine_of(sim)->p->core_power ? sl_mcpu(sim, c)->core_energy_pj
							: sl_cpuidle_cpu_energy_pj(sim, c);
	return pj;
}

/*
 * The time to the CPU's next timer event (the sleep length), and to the next event already
 * known to wake it (timers and interrupts routed to it: the oracle's knowledge).
 */
static void next_events(struct sl_sim *sim, int cpu, u64 *timer, u64 *wake)
{
	u64 t_best, w_best;

	sl_engine_next_for_cpu(&sim->eng, cpu, &w_best, &t_best);
	*timer = t_best == UINT64_MAX ? UINT64_MAX : t_best - sim->now;
	*wake = w_best == UINT64_MAX ? UINT64_MAX : w_best - sim->now;
}

int sl_cpuidle_enter(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);
	struct sl_machine *m = sl_machine_of(sim);
	const struct sl_cpuidle_driver *drv = m->idle_drv;
	struct sl_cpuidle_dev *dev = &mc->idle_dev;
	int idx;

	dev->cpu = rq->id;
	dev->gp = &m->gov_params;
	dev->now_ns = sim->now;
	dev->tick_ns = sim->tick_ns;
	next_events(sim, rq->id, &dev->next_timer_ns, &dev->next_wake_ns);
	dev->next_tick_ns = sl_tick_next(sim) - sim->now;
	dev->latency_req_ns = m->pm_qos_latency_ns;
	dev->cpu_load0 = rq->cpu_load[0];
	dev->nr_iowait = mc->nr_iowait;
	dev->stop_tick = true;
	dev->poll_limit_ns = 0;
	dev->predicted_ns = 0;
	idx = m->idle_gov->select(dev, drv);
	if (idx < 0 || idx >= drv->state_count)
		idx = 0;
	dev->enter_ready = sim->now;
	if (acpi_path(sim)) {
		/* acpi_idle_enter_bm: BM_STS read (and cleared) first; DMA since the last read
		 * sends the entry to the safe state, which cpuidle accounts (dev->last_state) but
		 * the 2.6.3x menu, reflecting on its own choice, never learns of */
		if (drv->bm_check && (drv->states[idx].flags & CPUIDLE_FLAG_CHECK_BM) &&
		    sl_bm_check(sim)) {
			int safe = safe_state(drv);

			if (safe >= 0) {
				idx = safe;
				dev->bm_demotions++;
			}
		}
		/* lapic_timer_state_broadcast(pr, cx, 1) before the state is entered */
		if ((drv->states[idx].flags & CPUIDLE_FLAG_TIMER_STOP) && m->p->bcast_lock_ns) {
			dev->enter_ready = sl_bcast_notify(sim, sim->now);
			dev->bcast_wait_ns += dev->enter_ready - sim->now;
		}
	}
	dev->in_idle = true;
	dev->entered = idx;
	dev->enter_time = sim->now;
	sl_core_power_mark(sim, rq, -1);
	mc->idle = true;
	mc->idle_state = idx;
	/* the poll loop gives up after the governor's limit (haltpoll, modern poll_idle) */
	if ((drv->states[idx].flags & CPUIDLE_FLAG_POLL) && dev->poll_limit_ns)
		sl_arm(sim, &mc->idle_timer, sim->now + dev->poll_limit_ns);
	struct sl_event ev = {.type = SL_EV_IDLE, .cpu = rq->id, .state = idx};

	sl_emit(sim, &ev);
	return idx;
}

/* sysfs above/below (drivers/cpuidle/cpuidle.c, ns form): too deep, or too shallow */
static void above_below(const struct sl_cpuidle_driver *drv, struct sl_cpuidle_dev *dev, int e,
			u64 diff)
{
	const struct sl_idle_state *s = &drv->states[e];

	if (diff < s->target_residency_ns) {
		for (int j = e - 1; j >= 0; j--) {
			if (!dev->disabled[j]) {
				dev->above[e]++;
				break;
			}
		}
	} else if (diff > s->exit_latency_ns) {
		for (int j = e + 1; j < drv->state_count; j++) {
			if (dev->disabled[j])
				continue;
			if (diff - s->exit_latency_ns >= drv->states[j].target_residency_ns)
				dev->below[e]++;
			break;
		}
	}
}

u64 sl_cpuidle_exit(struct sl_sim *sim, struct sl_cpu *rq, enum sl_wake_reason why)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);
	struct sl_machine *m = sl_machine_of(sim);
	const struct sl_cpuidle_driver *drv = m->idle_drv;
	struct sl_cpuidle_dev *dev = &mc->idle_dev;
	const struct sl_idle_state *st;
	u64 diff;
	int e;

	if (!mc->idle)
		return 0;
	e = dev->entered;
	/* the hardware's exit is the state the core reached; the software path is the thread's */
	const struct sl_idle_state *hw = &drv->states[core_state(sim, rq, e)];

	st = &drv->states[e];
	/*
	 * What the waker waits: an entry still holding or waiting for the broadcast lock ends
	 * first; then the state's exit latency, plus the package's when the socket was in a
	 * package C-state; then acpi_idle's BROADCAST_EXIT takes the lock again.
	 */
	u64 ready = dev->enter_ready > sim->now ? dev->enter_ready : sim->now;
	u64 pkg = package_exit(sim, rq);
	u64 lat = ready - sim->now + hw_exit_ns(sim, (int)(hw - drv->states)) + pkg;

	if (pkg)
		dev->pkg_exits++;
	if (acpi_path(sim) && (st->flags & CPUIDLE_FLAG_TIMER_STOP) && m->p->bcast_lock_ns) {
		u64 t = sim->now + lat, done = sl_bcast_notify(sim, t);

		dev->bcast_wait_ns += done - t;
		lat = done - sim->now;
	}
	/* the driver measures after the hardware has left the state: the exit latency is part
	 * of the residency (and of the state's time), and the CPU runs again only after it */
	diff = sim->now - dev->enter_time + lat;
	sl_core_power_mark(sim, rq, core_state(sim, rq, e));
	mc->idle = false;
	dev->in_idle = false;
	sl_cancel(sim, &mc->idle_timer);
	dev->last_state_idx = e;
	dev->last_residency_ns = diff;
	dev->poll_time_limit = why == SL_WAKE_POLL_LIMIT;
	dev->tick_wakeup = why == SL_WAKE_TICK;
	dev->timer_wakeup = why == SL_WAKE_TIMER || why == SL_WAKE_TICK;
	dev->usage[e]++;
	dev->time_ns[e] += diff;
	/* a state that flushes the TLB (C3 and C6 on Nehalem) has also flushed the core's L1/L2
	 * to L3 or lost them (docs/model/cpuidle.md §7.5): whoever runs next refills a cold
	 * cache */
	if (hw->flags & CPUIDLE_FLAG_TLB_FLUSHED)
		mc->switch_seq++;
	above_below(drv, dev, e, diff);
	/* the run's figures */
	int oracle = sl_cpuidle_oracle_choice(drv, dev, diff);

	dev->periods++;
	dev->oracle_agree += oracle == e;
	dev->idle_energy_pj += sl_cpuidle_energy_pj(drv, e, diff);
	dev->oracle_energy_pj += sl_cpuidle_energy_pj(drv, oracle, diff);
	dev->exit_latency_paid_ns += lat;
	if (dev->predicted_ns) {
		dev->pred_abs_err_ns += dev->predicted_ns > diff ? dev->predicted_ns - diff
								 : diff - dev->predicted_ns;
		dev->pred_count++;
	}
	dev->now_ns = sim->now;
	struct sl_event ev = {.type = SL_EV_IDLE,
			      .cpu = rq->id,
			      .state = -1,
			      .reason = (int)why,
			      .latency = lat,
			      .predicted = dev->predicted_ns,
			      .measured = diff};

	sl_emit(sim, &ev);
	if (m->idle_gov->reflect)
		m->idle_gov->reflect(dev, drv, e);
	return lat;
}

u64 sl_cpuidle_cpu_energy_pj(const struct sl_sim *sim, int cpu)
{
	return sl_mcpu(sim, cpu)->busy_ns * sl_machine_of(sim)->idle_drv->busy_power_mw +
	       sl_mcpu(sim, cpu)->idle_dev.idle_energy_pj;
}

bool sl_cpuidle_polling(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	const struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	return mc->idle &&
	       (sl_machine_of(sim)->idle_drv->states[mc->idle_state].flags & CPUIDLE_FLAG_POLL);
}
