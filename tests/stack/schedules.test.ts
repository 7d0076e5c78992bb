import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ScheduleFailure } from '../../devstack/src/gateway/scheduler';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { loadProject, type FunctionSchedule } from '../../devstack/src/project';
import { changePassword, connect, createUser } from '../support/db';

/**
 * The local stand-in for Supabase Cron: the gateway calls a function on an interval with the service-role
 * key, as `cron.schedule` + `net.http_post` do hosted. Here a gateway over the shared database runs the
 * project's e-mail schedule (every second rather than every 30, to keep the test short) and a job whose
 * function does not exist. The shared test stack itself runs no schedule, so no other test meets a mail
 * it did not send.
 */
let pool: pg.Pool;
let scheduled: RunningGateway;
let projectSchedule: FunctionSchedule | undefined;
const failures: ScheduleFailure[] = [];

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  projectSchedule = (await loadProject()).config.schedules?.['send-security-emails'];
  scheduled = await startGateway({
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    schedules: {
      'send-security-emails': { function: 'send-security-emails', everySeconds: 1 },
      'missing-function': { function: 'no-such-function', everySeconds: 1 },
    },
    onScheduleFailure: (failure) => failures.push(failure),
  });
});

afterAll(async () => {
  await scheduled?.stop();
  await pool?.end();
});

describe('schedules (Supabase Cron locally)', () => {
  it('npm start sends the security e-mails at least every minute', () => {
    expect(projectSchedule).toEqual({ function: 'send-security-emails', everySeconds: expect.any(Number) });
    expect(projectSchedule?.everySeconds).toBeLessThanOrEqual(60);
  });

  it('drain the outbox on their own: a changed password reaches the mailbox with no one calling the function', async () => {
    const person = await createUser(pool);
    await changePassword(pool, person.id);
    await expect
      .poll(() => scheduled.mailbox.list(person.email).map(({ subject }) => subject), { timeout: 60_000 })
      .toEqual(['Password changed']);
    // Marked sent once the provider took it (just after the mailbox has it).
    await expect
      .poll(async () => {
        const { rows } = await pool.query<{ sent: boolean }>(
          'select sent_at is not null as sent from private.security_emails where user_id = $1',
          [person.id],
        );
        return rows;
      })
      .toEqual([{ sent: true }]);
  });

  it('log a failed call and keep the stack and the other jobs running', async () => {
    await expect.poll(() => failures.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(failures[0]).toEqual({
      job: 'missing-function',
      reason: expect.stringMatching(/^POST \/functions\/v1\/no-such-function answered 404: /),
    });
    expect(failures.every(({ job }) => job === 'missing-function')).toBe(true);
    expect((await fetch(`${scheduled.url}/auth/v1/health`)).status).toBe(200);
  });
});
