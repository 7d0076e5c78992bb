import {
  createClient,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { invalidateOnTopicChanges, liveTopics } from '@/lib/table-changes';
import { seededAccounts } from '../../supabase/seed-accounts';
import { createNodeClient } from '../support/node-client';
import { signInWithTotp, type TwoFactorAccount } from '../support/two-factor-sign-in';
import { approveBuyRequest, idOf, requestBuy, setWithdrawRequestStatus } from '../support/keyed-calls';

/**
 * The app's live tables through the whole local stack: people sign in with Auth, write through REST
 * and RPC, and listen with Realtime, all with supabase-js as the app does.
 */
type Row = Record<string, unknown>;
type Change = RealtimePostgresChangesPayload<Row>;

const apiUrl = inject('apiUrl');
const anonKey = inject('anonKey');
const databaseUrl = inject('databaseUrl');
const clients: SupabaseClient[] = [];
let db: pg.Client;

/** Signs in as the person; an account with a TOTP secret (the seeded admin) goes on to aal2 with a code. */
async function signIn(account: { email: string; password: string } | TwoFactorAccount) {
  const client = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; browsers use theirs.
    realtime: { transport: WebSocket as never },
  });
  clients.push(client);
  if ('totpSecret' in account) return { client, userId: (await signInWithTotp(client, account)).user.id };
  const { data, error } = await client.auth.signInWithPassword(account);
  if (error) throw error;
  return { client, userId: data.user.id };
}

/**
 * A fresh person with a completed deposit, signed up the way the seed does it, so that these tests
 * never change the seeded accounts other tests count on.
 */
async function newPerson() {
  const id = crypto.randomUUID();
  const account = { email: `realtime-${id}@example.com`, password: 'realtime-pass-123' };
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
       email_change_token_new, email_change, email_change_token_current, reauthentication_token)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       extensions.crypt($3, extensions.gen_salt('bf')), now(), '{"provider": "email", "providers": ["email"]}',
       '{"full_name": "Realtime Person"}', now(), now(), '', '', '', '', '', '')`,
    [id, account.email, account.password],
  );
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     select users.id::text, users.id,
       jsonb_build_object('sub', users.id::text, 'email', users.email, 'email_verified', true),
       'email', now(), now(), now()
     from auth.users as users where users.id = $1`,
    [id],
  );
  await db.query(
    `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 1000, 'complete')`,
    [id],
  );
  return account;
}

async function listen(client: SupabaseClient, table: string, filter?: string) {
  const changes: Change[] = [];
  await new Promise<void>((resolve, reject) => {
    client
      .channel(`app-${table}-${crypto.randomUUID()}`)
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table, ...(filter ? { filter } : {}) },
        (change: Change) => changes.push(change),
      )
      .subscribe((status, error) => {
        if (status === 'SUBSCRIBED') resolve();
        if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
      });
  });
  return changes;
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function rowOf(change: Change): Row {
  return change.eventType === 'DELETE' ? change.old : change.new;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  await db?.end();
});

describe('live app tables through the local stack', () => {
  it('shows an admin a user’s new buy request, then its approval as an UPDATE from pending to approved', async () => {
    const admin = await signIn(seededAccounts.admin);
    const user = await signIn(await newPerson());
    const queue = await listen(admin.client, 'buy_requests');
    const ownList = await listen(user.client, 'buy_requests', `user_id=eq.${user.userId}`);

    const id = await idOf(requestBuy(user.client, 'bitcoin', 25));
    const created = await waitFor(
      () => queue.find((c) => c.eventType === 'INSERT' && c.new.id === id),
      'the new request',
    );
    expect(created.new).toMatchObject({
      user_id: user.userId,
      cryptocurrency: 'bitcoin',
      amount: 25,
      status: 'pending',
    });

    expect((await approveBuyRequest(admin.client, id)).error).toBeNull();
    const approved = await waitFor(
      () => queue.find((c) => c.eventType === 'UPDATE' && c.new.id === id),
      'the approval',
    );
    expect(approved.old).toMatchObject({ id, status: 'pending' });
    expect(approved.new).toMatchObject({ id, status: 'approved', decided_by: admin.userId });
    await waitFor(() => (ownList.length === 2 ? true : undefined), 'the user’s own two changes');
    expect(ownList.map((c) => [c.eventType, rowOf(c).status])).toEqual([
      ['INSERT', 'pending'],
      ['UPDATE', 'approved'],
    ]);
  });

  it('never sends encrypted_data of withdraw requests to the user or to the admin queue', async () => {
    const admin = await signIn(seededAccounts.admin);
    const user = await signIn(await newPerson());
    const queue = await listen(admin.client, 'withdraw_requests');
    const ownList = await listen(user.client, 'withdraw_requests');
    const ciphertext = `iv-${crypto.randomUUID()}.ciphertext.wrapped-key`;

    // As the `withdrawals` Edge Function stores it (with the service role, past the API's column grants).
    const { rows } = await db.query<{ id: string }>(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
       values ($1, 10, 'bank', $2) returning id`,
      [user.userId, ciphertext],
    );
    const id = rows[0]?.id;
    expect((await setWithdrawRequestStatus(admin.client, id ?? '', 'rejected')).error).toBeNull();

    for (const changes of [queue, ownList]) {
      await waitFor(
        () => (changes.filter((c) => rowOf(c).id === id).length === 2 ? true : undefined),
        'both changes',
      );
      const mine = changes.filter((c) => rowOf(c).id === id);
      expect(mine.map((c) => c.eventType)).toEqual(['INSERT', 'UPDATE']);
      for (const change of mine) {
        expect(Object.keys(change.new)).not.toContain('encrypted_data');
        expect(Object.keys(change.old)).not.toContain('encrypted_data');
      }
      expect(JSON.stringify(changes)).not.toContain(ciphertext);
    }
  });
});

describe('the app’s live queries (invalidateOnTopicChanges)', () => {
  /** A person's own buy requests as the app reads them, through a query kept live the app's way. */
  async function ownBuyRequests(read: (ids: () => Promise<string[]>) => Promise<string[]>) {
    const account = await newPerson();
    const client = createNodeClient(apiUrl, anonKey);
    const { data, error } = await client.auth.signInWithPassword(account);
    if (error) throw error;
    const userId = data.user.id;
    const queryClient = new QueryClient();
    const queryKey = ['buy-requests', userId];
    const idsNow = async () => {
      const rows = await client.from('buy_requests').select('id').eq('user_id', userId).throwOnError();
      return rows.data.map((row) => row.id);
    };
    const observer = new QueryObserver(queryClient, { queryKey, queryFn: () => read(idsNow) });
    /** Every list the page showed, in order. */
    const shownLists: string[][] = [];
    const stopObserving = observer.subscribe(({ data: list }) => {
      if (list && list !== shownLists.at(-1)) shownLists.push(list);
    });
    const insertRequest = async () => {
      const { rows } = await db.query<{ id: string }>(
        `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 25) returning id`,
        [userId],
      );
      const [row] = rows;
      if (!row) throw new Error('no request was inserted');
      return row.id;
    };
    const follow = () =>
      invalidateOnTopicChanges(client, queryClient, {
        topic: liveTopics.wallet(userId),
        tables: ['buy_requests'],
        queryKeys: [queryKey],
      });
    const joined = () =>
      waitFor(() => (client.getChannels()[0]?.state === 'joined' ? true : undefined), 'the join');
    const shown = () => observer.getCurrentResult().data;
    const cleanUp = async () => {
      stopObserving();
      queryClient.clear();
      await client.removeAllChannels();
      client.realtime.disconnect();
    };
    // The socket goes down as a lost network takes it: the server sees it close, nothing is said to the channel.
    const disconnect = () => client.realtime.disconnect();
    const reconnect = () => client.realtime.connect();
    return { insertRequest, follow, joined, shown, shownLists, cleanUp, disconnect, reconnect };
  }

  it('shows a request committed after the page read its list but before its channel joined', async () => {
    const live = await ownBuyRequests((ids) => ids());
    await waitFor(() => live.shown(), 'the first read');
    expect(live.shown()).toEqual([]);
    const id = await live.insertRequest();
    const stop = live.follow();
    try {
      await waitFor(() => (live.shown()?.includes(id) ? true : undefined), 'the request in the list');
    } finally {
      stop();
      await live.cleanUp();
    }
  });

  it('shows a request committed while its connection was down, once the connection is back', async () => {
    const live = await ownBuyRequests((ids) => ids());
    const stop = live.follow();
    try {
      await live.joined();
      await waitFor(() => live.shown(), 'the first read');
      await live.disconnect();
      const id = await live.insertRequest();
      live.reconnect();
      await waitFor(() => (live.shown()?.includes(id) ? true : undefined), 'the request in the list', 15_000);
    } finally {
      stop();
      await live.cleanUp();
    }
  });

  it('lets a read under way when the channel joins finish (its rows show), then reads again', async () => {
    let releaseFirstRead = () => {};
    const firstReadHeld = new Promise<void>((resolve) => (releaseFirstRead = resolve));
    let reads = 0;
    let firstReadTaken = false;
    const live = await ownBuyRequests(async (ids) => {
      reads += 1;
      const found = await ids();
      if (reads === 1) {
        firstReadTaken = true;
        // The rows were read; the answer is still on its way when the channel joins.
        await firstReadHeld;
      }
      return found;
    });
    await waitFor(() => (firstReadTaken ? true : undefined), 'the first read');
    const id = await live.insertRequest();
    const stop = live.follow();
    try {
      await live.joined();
      releaseFirstRead();
      await waitFor(() => (live.shown()?.includes(id) ? true : undefined), 'the request in the list');
      // Not cancelled: the first rows were shown as soon as they came, then the fresh list.
      expect(live.shownLists).toEqual([[], [id]]);
      expect(reads).toBe(2);
    } finally {
      stop();
      await live.cleanUp();
    }
  });
});
