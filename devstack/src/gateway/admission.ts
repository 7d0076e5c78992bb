/** The parts of the gateway that each get their own bound, so one flooded service never starves another. */
export type Service = 'rest' | 'auth' | 'functions';

/**
 * Requests each service holds at once (running or waiting for a pooled connection). Past it a request is
 * answered 503 with `Retry-After` at once, before its body is read, so the gateway's memory is bounded by
 * these counts times the largest body a service reads (1 MB for REST and Auth; Functions stream bodies).
 * The figures and reasons are in devstack/README.md ("Timeouts and limits").
 */
export const defaultAdmissionLimits: Record<Service, number> = { rest: 100, auth: 40, functions: 200 };

export function serviceOf(pathname: string): Service | undefined {
  if (pathname.startsWith('/rest/v1/')) return 'rest';
  if (pathname.startsWith('/auth/v1/') && pathname !== '/auth/v1/health') return 'auth';
  if (pathname.startsWith('/functions/v1/')) return 'functions';
  return undefined;
}

/**
 * Past this much sustained lag of the event loop, new requests are refused while others are held. A
 * request waits unread (in socket buffers) for as long as the loop is late, where no count of held
 * requests sees it: when the gateway's own CPU is the bottleneck (every request admitted, each costing
 * a full answer), refusing early is what keeps the time from arrival to answer bounded.
 */
export const maxLoopLagMs = 200;
const lagTickMs = 20;
/** The window over which lateness must last to count. */
export const lagWindowMs = 500;

/**
 * How late the event loop has been throughout the last half second (the least lateness of its timer
 * ticks there): one late tick (garbage collection, the process descheduled on a busy machine) does not
 * count, a loop that stays late does.
 */
export function createLoopLagMonitor(now: () => number = () => performance.now()) {
  const ticks: { at: number; lag: number }[] = [];
  let expected = now() + lagTickMs;
  const tick = () => {
    const at = now();
    ticks.push({ at, lag: Math.max(0, at - expected) });
    expected = at + lagTickMs;
    while ((ticks[0]?.at ?? at) < at - lagWindowMs) ticks.shift();
  };
  const timer = setInterval(tick, lagTickMs);
  timer.unref();
  return {
    sustainedLagMs(): number {
      // A loop blocked for longer than the window has not ticked since: that block counts too. A
      // shorter one is one late turn (a pause for garbage collection, the process descheduled on a busy
      // machine), which a request arriving during it sees first: it counts no more than a late tick.
      const sinceLastTick = now() - (ticks.at(-1)?.at ?? now()) - lagTickMs;
      const blocked = sinceLastTick >= lagWindowMs ? sinceLastTick : 0;
      return Math.max(blocked, ticks.length === 0 ? 0 : Math.min(...ticks.map(({ lag }) => lag)));
    },
    /** One turn of the timer, as the interval runs it (tests drive it with their own clock). */
    tick,
    stop: () => clearInterval(timer),
  };
}

/**
 * Counts the requests each service holds; `admit` answers a release function, or undefined when the
 * service is full, or when the loop has been late past `maxLoopLagMs` and the gateway holds requests.
 */
export function createAdmission(limits: Record<Service, number>, sustainedLagMs: () => number = () => 0) {
  const held: Record<Service, number> = { rest: 0, auth: 0, functions: 0 };
  return {
    admit(service: Service): (() => void) | undefined {
      if (held[service] >= limits[service]) return undefined;
      const busy = held.rest + held.auth + held.functions > 0;
      if (busy && sustainedLagMs() > maxLoopLagMs) return undefined;
      held[service]++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held[service]--;
      };
    },
    held: (service: Service) => held[service],
  };
}
