import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { prepareDatabase } from '../../devstack/src/db/prepare';

/**
 * A database of its own in the stack's server, migrated and seeded as the stack's own is: the ledger tests
 * tamper with the books as an attacker would and reconcile the whole database, so no other test file may
 * share it. Dropped by the function this answers.
 */
export async function createLedgerDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ledger_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  url.searchParams.set('sslmode', 'disable');
  await prepareDatabase(url.toString());
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database ${name}`);
      await admin.end();
    },
  };
}
