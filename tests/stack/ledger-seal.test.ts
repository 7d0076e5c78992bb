import { describe, expect, inject, it } from 'vitest';
import { loadProject } from '../../devstack/src/project';
import { callApi } from '../support/api';

/**
 * The sealer: the local stack's schedule (hosted, pg_cron) calls the ledger-seal function every second with the
 * service-role key, so entries queued while the chain's head was busy are sealed soon after a burst ends.
 */
function seal(token: string) {
  return callApi('/functions/v1/ledger-seal', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
}

describe('ledger-seal', () => {
  it('is scheduled every second by npm start', async () => {
    const schedule = (await loadProject()).config.schedules?.['ledger-seal'];
    expect(schedule).toEqual({ function: 'ledger-seal', everySeconds: 1 });
  });

  it('seals for the scheduler and says where the head is and how many await the next seal', async () => {
    const response = await seal(inject('serviceRoleKey'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      sealed: expect.any(Number),
      head_seq: expect.any(Number),
      awaiting_seal: expect.any(Number),
    });
  });

  it('refuses anyone calling with a key other than the service role', async () => {
    const response = await seal(inject('anonKey'));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Only the scheduler seals the ledger' });
  });
});
