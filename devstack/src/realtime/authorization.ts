import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { RealtimeClaims } from './tokens';

/** Who joins which topic: the person's claims and the `x-` headers of their socket's upgrade request. */
export interface AuthorizationContext {
  /** The topic without `realtime:`, as `realtime.topic()` answers it. */
  topic: string;
  claims: RealtimeClaims;
  headers: Record<string, string>;
}

/** A join or token refresh the database could not decide: refused, as Supabase Realtime refuses it. */
export class AuthorizationError extends Error {}

export function unauthorizedReason(topic: string) {
  return `You do not have permissions to read from this Channel topic: ${topic}`;
}

/**
 * Whether the person may read broadcasts of a private channel's topic, decided by the policies on
 * `realtime.messages` as Supabase Realtime decides it (lib/realtime/tenants/authorization.ex): in one
 * transaction a probe message of the topic is written with the API's privileges, then, as the person
 * (role, `request.jwt.claims`, `request.jwt.claim.sub`/`.role`, `request.headers`, `realtime.topic`),
 * the probe is read back under row-level security; the transaction is rolled back, so nothing stays.
 * A policy that errs is a refusal (hosted logs `RlsPolicyError` and refuses), a missing partition says so.
 */
export async function canReadBroadcasts(pool: pg.Pool, context: AuthorizationContext): Promise<boolean> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    const probe = randomUUID();
    try {
      await client.query(
        `insert into realtime.messages (id, topic, extension) values ($1, $2, 'broadcast')`,
        [probe, context.topic],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23514')
        throw new AuthorizationError(
          'MissingPartition: Realtime was unable to find the expected messages partition',
        );
      throw error;
    }
    const role = context.claims.role;
    try {
      await client.query(
        `select set_config('role', $1, true), set_config('realtime.topic', $2, true),
              set_config('request.jwt.claims', $3, true), set_config('request.jwt.claim.sub', $4, true),
              set_config('request.jwt.claim.role', $1, true), set_config('request.headers', $5, true)`,
        [
          role,
          context.topic,
          JSON.stringify(context.claims),
          typeof context.claims.sub === 'string' ? context.claims.sub : '',
          JSON.stringify(context.headers),
        ],
      );
      const { rowCount } = await client.query('select id from realtime.messages where id = $1', [probe]);
      return rowCount === 1;
    } catch (error) {
      // A role that does not exist, or a policy that fails (a bad cast of the topic): refused.
      console.error(`realtime: RlsPolicyError: ${(error as Error).message}`);
      return false;
    }
  } catch (error) {
    broken = !(error instanceof AuthorizationError);
    throw error;
  } finally {
    await client.query('rollback').catch(() => {
      broken = true;
    });
    client.release(broken);
  }
}
