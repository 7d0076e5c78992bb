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

/** Counts the requests each service holds; `admit` answers a release function, or undefined when full. */
export function createAdmission(limits: Record<Service, number>) {
  const held: Record<Service, number> = { rest: 0, auth: 0, functions: 0 };
  return {
    admit(service: Service): (() => void) | undefined {
      if (held[service] >= limits[service]) return undefined;
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
