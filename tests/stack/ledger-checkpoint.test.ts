import { describe, expect, inject, it } from 'vitest';
import { loadProject } from '../../devstack/src/project';
import { apiClient, callApi, signInAdmin, signInSeededUser } from '../support/api';

/**
 * The daily checkpoint goes through the ledger-checkpoint function, which the schedule (Supabase Cron; the
 * local stack's `schedules`) calls with the service-role key; the root it makes is public through the API,
 * and an admin at aal2 asks for one on demand.
 */
function makeCheckpoint(token: string) {
  return callApi('/functions/v1/ledger-checkpoint', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
}

describe('ledger-checkpoint', () => {
  it('is scheduled daily by npm start', async () => {
    const schedule = (await loadProject()).config.schedules?.['ledger-checkpoint'];
    expect(schedule).toEqual({ function: 'ledger-checkpoint', everySeconds: 86_400 });
  });

  it('makes a checkpoint for the scheduler, whose root anyone then reads through the API', async () => {
    const response = await makeCheckpoint(inject('serviceRoleKey'));
    expect(response.status).toBe(200);
    const made = (await response.json()) as { id: number; root: string };
    expect(made.root).toMatch(/^[0-9a-f]{64}$/);
    const { data, error } = await apiClient().rpc('latest_ledger_checkpoint');
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: made.id, root: made.root });
  });

  it('refuses anyone calling with a key other than the service role', async () => {
    const response = await makeCheckpoint(inject('anonKey'));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Only the scheduler makes the daily checkpoint' });
  });

  it('lets an admin at aal2 make one on demand, and not a person', async () => {
    const admin = await signInAdmin();
    const { data, error } = await admin.client.rpc('create_ledger_checkpoint');
    expect(error).toBeNull();
    expect(data).toMatchObject({ root: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const user = await signInSeededUser();
    const refused = await user.client.rpc('create_ledger_checkpoint');
    expect(refused.error?.message).toBe('Only admins can do this');
  });

  it('gives the seeded user their own proof through the API', async () => {
    const user = await signInSeededUser();
    const { data, error } = await user.client.rpc('my_liability_proof');
    expect(error).toBeNull();
    expect(data).toMatchObject({ leaf: { person: user.id } });
  });
});
