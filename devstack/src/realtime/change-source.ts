import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import pg from 'pg';
import { PgoutputDecoder, type RowChange } from './pgoutput';

export interface CommittedChange extends RowChange {
  commitTime: Date;
  /** The transaction's id (32 bits, as the stream gives it). */
  xid: number;
}

export interface ReplicationStream {
  /** Stops streaming; the temporary slot goes with the connection. */
  close(): Promise<void>;
}

interface ReplicationConnection extends EventEmitter {
  sendCopyFromChunk(chunk: Buffer): void;
}

/** The publication of `postgres_changes`, and the name its replication connection goes by. */
export const changesStream = { publication: 'supabase_realtime', applicationName: 'coinvault-realtime' };
const feedbackIntervalMs = 1000;
/**
 * Changes received but not yet delivered (or deliberately skipped) before reading stops: the rest waits
 * in the replication slot, not in this process's memory. Reading resumes below half of it.
 */
export const maxPendingChanges = 2_000;
// Milliseconds between the Unix epoch and Postgres's epoch (2000-01-01).
const postgresEpochMillis = 946_684_800_000;

/**
 * Streams the committed changes of a publication (`supabase_realtime`, or the messages of Broadcast) over logical replication
 * (pgoutput). The slot is TEMPORARY: Postgres drops it when this connection ends, however it ends
 * (stop, crash, kill -9), so no forgotten slot can hold WAL back. The price is that changes committed
 * while nobody streams are never sent, which is also what Supabase Realtime promises.
 *
 * `onTransaction` is called once per committed transaction, in commit order, as soon as it arrives (so
 * that checks of consecutive transactions overlap); its promise settles once the transaction has been
 * delivered or deliberately skipped, and only then, in commit order, is its position confirmed to
 * Postgres. A rejected delivery ends the stream (`onEnd`) without confirming.
 */
export async function streamChanges(
  databaseUrl: string,
  { publication, applicationName }: { publication: string; applicationName: string },
  onTransaction: (changes: CommittedChange[]) => Promise<void>,
  onEnd: (error?: Error) => void,
): Promise<ReplicationStream> {
  const config: pg.ClientConfig & { replication: string } = {
    connectionString: databaseUrl,
    replication: 'database',
    application_name: applicationName,
  };
  const client = new pg.Client(config);
  // Listened to from the start: Postgres may end the connection in the very chunk that answers `connect`
  // or the slot's creation, before the code awaiting that answer runs (an 'error' with no listener would
  // end the process). Until the stream runs, the next statement's rejection reports it.
  let failure: (error: Error) => void = () => undefined;
  client.on('error', (error) => failure(error));
  await client.connect();
  const slot = `realtime_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await client.query(`CREATE_REPLICATION_SLOT ${slot} TEMPORARY LOGICAL pgoutput (SNAPSHOT 'nothing')`);
  } catch (error) {
    await client.end();
    throw error;
  }

  const connection = (client as unknown as { connection: ReplicationConnection }).connection;
  const decoder = new PgoutputDecoder();
  let closing = false;
  let receivedLsn = 0n;
  let confirmedLsn = 0n;
  let pendingTransactions = 0;
  let pendingChanges = 0;
  let current: { commitTime: Date; xid: number; changes: CommittedChange[] } | null = null;
  let confirmations = Promise.resolve();
  const stream = (connection as unknown as { stream: { pause(): void; resume(): void } }).stream;

  function sendFeedback(replyRequested = false) {
    if (closing) return;
    // With nothing in flight, everything received so far is done with (keepalives move it on too).
    const position = pendingTransactions === 0 && current === null ? receivedLsn : confirmedLsn;
    const message = Buffer.alloc(34);
    message.write('r', 0);
    message.writeBigUInt64BE(position, 1); // written
    message.writeBigUInt64BE(position, 9); // flushed
    message.writeBigUInt64BE(position, 17); // applied
    message.writeBigInt64BE(BigInt(Date.now() - postgresEpochMillis) * 1000n, 25);
    message.writeUInt8(replyRequested ? 1 : 0, 33);
    connection.sendCopyFromChunk(message);
  }

  function handleXLogData(data: Buffer) {
    const message = decoder.decode(data);
    if (message.tag === 'begin') {
      current = { commitTime: message.commitTime, xid: message.xid, changes: [] };
    } else if (message.tag === 'change' && current) {
      current.changes.push({ ...message.change, commitTime: current.commitTime, xid: current.xid });
    } else if (message.tag === 'commit' && current) {
      const { changes } = current;
      current = null;
      if (changes.length === 0) return;
      pendingTransactions++;
      pendingChanges += changes.length;
      if (pendingChanges >= maxPendingChanges) stream.pause();
      const endLsn = message.endLsn;
      const delivered = onTransaction(changes);
      confirmations = confirmations
        .then(() => delivered)
        .then(
          () => {
            pendingTransactions--;
            pendingChanges -= changes.length;
            if (endLsn > confirmedLsn) confirmedLsn = endLsn;
            if (pendingChanges < maxPendingChanges / 2) stream.resume();
          },
          // Nothing from an undelivered transaction on is confirmed: the stream ends (its temporary slot
          // with it) and restarts, and subscribers are told of the gap.
          (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
        );
    }
  }

  connection.on('copyData', ({ chunk }: { chunk: Buffer }) => {
    const kind = String.fromCharCode(chunk[0] ?? 0);
    if (kind === 'w') {
      const walEnd = chunk.readBigUInt64BE(9);
      if (walEnd > receivedLsn) receivedLsn = walEnd;
      try {
        handleXLogData(chunk.subarray(25));
      } catch (error) {
        // A change that cannot be read cannot be delivered: restart rather than skip it unnoticed.
        fail(new Error(`could not decode a replication message: ${String(error)}`));
      }
    } else if (kind === 'k') {
      const walEnd = chunk.readBigUInt64BE(1);
      if (walEnd > receivedLsn) receivedLsn = walEnd;
      if (chunk.readUInt8(17) === 1) sendFeedback();
    }
  });

  const feedbackTimer = setInterval(() => sendFeedback(), feedbackIntervalMs);
  feedbackTimer.unref();

  function fail(error: Error) {
    if (closing) return;
    closing = true;
    clearInterval(feedbackTimer);
    onEnd(error);
    void client.end().catch(() => undefined);
  }
  failure = fail;
  client.on('end', () => fail(new Error('replication connection ended')));

  client
    .query(
      `START_REPLICATION SLOT ${slot} LOGICAL 0/0 (proto_version '1', publication_names '${publication}')`,
    )
    .catch(fail);

  return {
    async close() {
      closing = true;
      clearInterval(feedbackTimer);
      await client.end().catch(() => undefined);
    },
  };
}
