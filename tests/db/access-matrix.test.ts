import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  addBuyRequest,
  addSellRequest,
  anon,
  connect,
  createUser,
  createWithdrawRequest,
  onlyRow,
  queryAs,
  signedIn,
  signedInWithPasswordOnly,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * Cell by cell: every table (and every view the app reads) × {anon, the owner, another user, an admin
 * signed in with the password only (aal1), an admin who also verified a code (aal2)} × {select, insert,
 * update, delete}, run the way PostgREST runs a request. Admins work at aal2 only: at aal1 an admin is
 * just another user.
 *
 * - allowed: the row comes back, or the write touches it;
 * - hidden: row-level security filters the row out (an empty answer, nothing changed);
 * - refused: Postgres answers permission denied or "violates row-level security policy" (42501).
 */
type Outcome = 'allowed' | 'hidden' | 'refused';
type Who = 'anon' | 'owner' | 'another user' | 'admin at aal1' | 'admin at aal2';
type Operation = 'select' | 'insert' | 'update' | 'delete';

interface Fixture {
  owner: CreatedUser;
  transactionId: string;
  buyRequestId: string;
  sellRequestId: string;
  withdrawRequestId: string;
  statusTypeId: string;
  auditEntryId: string;
  notificationId: string;
  snapshotCoin: string;
  /** The withdrawal whose approval an admin proposed, awaiting a second admin. */
  proposedRequestId: string;
  /** A destination in the owner's address book. */
  destinationId: string;
  /** Someone else who froze their account (the owner's must stay open for the other probes). */
  frozenPersonId: string;
  /** The owner's recurring buy, and its one run. */
  recurringBuyId: string;
  recurringBuyRunId: string;
  priceAlertId: string;
}

interface Probe {
  sql: string;
  params: (fixture: Fixture) => unknown[];
  /** Run as the database owner first, in the probe's own rolled-back transaction: state no other test sees. */
  ownerFirst?: string;
}

type Row = Record<Who, Outcome>;
const everyone = (outcome: Outcome): Row => ({
  anon: outcome,
  owner: outcome,
  'another user': outcome,
  'admin at aal1': outcome,
  'admin at aal2': outcome,
});
const ownOrAdmin: Row = {
  anon: 'refused',
  owner: 'allowed',
  'another user': 'hidden',
  'admin at aal1': 'hidden',
  'admin at aal2': 'allowed',
};
const signedInOnly: Row = { ...everyone('allowed'), anon: 'refused' };
const adminOnlyWrite: Row = { ...everyone('refused'), 'admin at aal2': 'allowed' };
const ownOnly: Row = { ...everyone('hidden'), anon: 'refused', owner: 'allowed' };
/** Own rows through a function that refuses a factor holder below aal2 (the admins here hold factors). */
const ownOnlyAtAal2: Row = { ...ownOnly, 'admin at aal1': 'refused' };
const ownerOnlyWrite: Row = { ...everyone('refused'), owner: 'allowed' };
const adminOnlyFiltered: Row = {
  anon: 'refused',
  owner: 'hidden',
  'another user': 'hidden',
  'admin at aal1': 'hidden',
  'admin at aal2': 'allowed',
};

const byId = (key: keyof Omit<Fixture, 'owner'>) => (fixture: Fixture) => [fixture[key]];
const ownerId = (fixture: Fixture) => [fixture.owner.id];

const matrix: Record<string, Record<Operation, { expected: Row; probe: Probe }>> = {
  profiles: {
    select: {
      expected: ownOrAdmin,
      probe: { sql: 'select id from public.profiles where id = $1', params: ownerId },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.profiles (id, wallet_code) values ($1, 'bc1x') returning id`,
        params: ownerId,
      },
    },
    update: {
      // Only the owner may rename themselves; admins do not edit people's names either.
      expected: { ...everyone('hidden'), anon: 'refused', owner: 'allowed' },
      probe: {
        sql: `update public.profiles set full_name = 'Renamed' where id = $1 returning id`,
        params: ownerId,
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: { sql: 'delete from public.profiles where id = $1 returning id', params: ownerId },
    },
  },
  transactions: {
    select: {
      expected: ownOrAdmin,
      probe: { sql: 'select id from public.transactions where id = $1', params: byId('transactionId') },
    },
    insert: {
      // Deposits come only from create_deposit, with an idempotency key; the ledger takes no plain writes.
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 25, 'pending')
              returning id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.transactions set status = 'complete' where id = $1 returning id`,
        params: byId('transactionId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.transactions where id = $1 returning id',
        params: byId('transactionId'),
      },
    },
  },
  buy_requests: {
    select: {
      expected: ownOrAdmin,
      probe: { sql: 'select id from public.buy_requests where id = $1', params: byId('buyRequestId') },
    },
    insert: {
      // Buy requests come only from create_buy_request, with an idempotency key.
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 50)
              returning id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.buy_requests set status = 'approved' where id = $1 returning id`,
        params: byId('buyRequestId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.buy_requests where id = $1 returning id',
        params: byId('buyRequestId'),
      },
    },
  },
  sell_requests: {
    select: {
      expected: ownOrAdmin,
      probe: { sql: 'select id from public.sell_requests where id = $1', params: byId('sellRequestId') },
    },
    insert: {
      // Sell requests come only from create_sell_request, with an idempotency key, under the person's lock.
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.sell_requests (user_id, cryptocurrency, quantity) values ($1, 'bitcoin', 0.0001)
              returning id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.sell_requests set status = 'approved' where id = $1 returning id`,
        params: byId('sellRequestId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.sell_requests where id = $1 returning id',
        params: byId('sellRequestId'),
      },
    },
  },
  withdraw_requests: {
    select: {
      expected: ownOrAdmin,
      probe: {
        sql: 'select id, amount, withdraw_method, status, date from public.withdraw_requests where id = $1',
        params: byId('withdrawRequestId'),
      },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
              values ($1, 20, 'bank', 'a.b.c') returning id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.withdraw_requests set status = 'approved' where id = $1 returning id`,
        params: byId('withdrawRequestId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.withdraw_requests where id = $1 returning id',
        params: byId('withdrawRequestId'),
      },
    },
  },
  status_types: {
    select: {
      expected: signedInOnly,
      probe: { sql: 'select id from public.status_types where id = $1', params: byId('statusTypeId') },
    },
    insert: {
      expected: adminOnlyWrite,
      probe: {
        sql: `insert into public.status_types (name) values ('on hold ' || $1::text) returning id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.status_types set name = 'renamed' where id = $1 returning id`,
        params: byId('statusTypeId'),
      },
    },
    delete: {
      expected: adminOnlyFiltered,
      probe: {
        sql: 'delete from public.status_types where id = $1 returning id',
        params: byId('statusTypeId'),
      },
    },
  },
  transaction_limits: {
    select: {
      expected: signedInOnly,
      probe: { sql: 'select id from public.transaction_limits', params: () => [] },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: 'insert into public.transaction_limits (id, min_amount, max_amount) values (true, 1, 2) returning id',
        params: () => [],
      },
    },
    update: {
      expected: adminOnlyFiltered,
      probe: {
        sql: 'update public.transaction_limits set min_amount = 20, max_amount = 500 returning id',
        params: () => [],
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: { sql: 'delete from public.transaction_limits returning id', params: () => [] },
    },
  },
  notifications: {
    select: {
      expected: ownOnly,
      probe: { sql: 'select id from public.notifications where id = $1', params: byId('notificationId') },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.notifications (user_id, kind, title, body)
              values ($1, 'deposit.completed', 'Forged', 'Forged') returning id`,
        params: ownerId,
      },
    },
    update: {
      // read_at alone is granted: the owner marks read, nobody rewrites what happened.
      expected: ownOnly,
      probe: {
        sql: 'update public.notifications set read_at = now() where id = $1 returning id',
        params: byId('notificationId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.notifications where id = $1 returning id',
        params: byId('notificationId'),
      },
    },
  },
  second_approvals: {
    // Written only by the decision functions; read by admins at aal2.
    select: {
      expected: adminOnlyFiltered,
      probe: {
        sql: 'select target_id from public.second_approvals where target_id = $1',
        params: byId('proposedRequestId'),
      },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.second_approvals (target_table, target_id, amount, proposed_by)
              values ('buy_requests', gen_random_uuid(), 5000, $1) returning target_id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.second_approvals set confirmed_by = proposed_by where target_id = $1 returning target_id`,
        params: byId('proposedRequestId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.second_approvals where target_id = $1 returning target_id',
        params: byId('proposedRequestId'),
      },
    },
  },
  price_snapshots: {
    select: {
      expected: everyone('allowed'),
      probe: {
        sql: 'select cryptocurrency from public.price_snapshots where cryptocurrency = $1',
        params: byId('snapshotCoin'),
      },
    },
    insert: {
      // Only the market function writes prices, through record_price_snapshots (service role).
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
              values ($1, 1, date_trunc('minute', now()) - interval '1 hour', false) returning cryptocurrency`,
        params: byId('snapshotCoin'),
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: 'update public.price_snapshots set price = 1 where cryptocurrency = $1 returning cryptocurrency',
        params: byId('snapshotCoin'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.price_snapshots where cryptocurrency = $1 returning cryptocurrency',
        params: byId('snapshotCoin'),
      },
    },
  },
  audit_log: {
    select: {
      expected: adminOnlyFiltered,
      probe: { sql: 'select id from public.audit_log where id = $1', params: byId('auditEntryId') },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.audit_log (action, target_table) values ('forged', 'profiles') returning id`,
        params: () => [],
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.audit_log set action = 'forged' where id = $1 returning id`,
        params: byId('auditEntryId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: { sql: 'delete from public.audit_log where id = $1 returning id', params: byId('auditEntryId') },
    },
  },
  // Stars are nobody's business but their owner's, not even an admin's.
  watchlist: {
    select: {
      expected: ownOnly,
      probe: { sql: `select coin_id from public.watchlist where user_id = $1`, params: ownerId },
    },
    insert: {
      expected: ownerOnlyWrite,
      probe: {
        sql: `insert into public.watchlist (user_id, coin_id) values ($1, 'dogecoin') returning coin_id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.watchlist set coin_id = 'forged' where user_id = $1 returning coin_id`,
        params: ownerId,
      },
    },
    delete: {
      expected: ownOnly,
      probe: { sql: 'delete from public.watchlist where user_id = $1 returning coin_id', params: ownerId },
    },
  },
  // The address book: its owner and admins read labels and last 4 characters; nobody writes it but the
  // payout-destinations function and the owner's RPCs (security definer).
  payout_destinations: {
    select: {
      expected: ownOrAdmin,
      probe: {
        sql: 'select id, label, last4, usable_at from public.payout_destinations where id = $1',
        params: byId('destinationId'),
      },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.payout_destinations (id, user_id, label, withdraw_method, last4, encrypted_data,
              details_key_version, details_digest, usable_at)
              values (gen_random_uuid(), $1, 'Forged', 'bank', '1234', 'a.b.c', 1, repeat('a', 64), now())
              returning id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.payout_destinations set usable_at = now() where id = $1 returning id`,
        params: byId('destinationId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.payout_destinations where id = $1 returning id',
        params: byId('destinationId'),
      },
    },
  },
  // A schedule and its history: the owner's alone (admins see the requests it places in their queue).
  recurring_buys: {
    select: {
      expected: ownOnly,
      probe: { sql: 'select id from public.recurring_buys where id = $1', params: byId('recurringBuyId') },
    },
    insert: {
      // Schedules come only from create_recurring_buy (step-up, limits, time zone checked).
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.recurring_buys (user_id, cryptocurrency, amount, frequency, time_of_day, time_zone)
              values ($1, 'bitcoin', 10, 'daily', '09:00', 'UTC') returning id`,
        params: ownerId,
      },
    },
    update: {
      // Pausing and resuming go through set_recurring_buy_paused; nobody moves a run's time by hand.
      expected: everyone('refused'),
      probe: {
        sql: `update public.recurring_buys set next_run_at = now() where id = $1 returning id`,
        params: byId('recurringBuyId'),
      },
    },
    delete: {
      expected: ownOnly,
      probe: {
        sql: 'delete from public.recurring_buys where id = $1 returning id',
        params: byId('recurringBuyId'),
      },
    },
  },
  recurring_buy_runs: {
    select: {
      expected: ownOnly,
      probe: {
        sql: 'select id from public.recurring_buy_runs where id = $1',
        params: byId('recurringBuyRunId'),
      },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.recurring_buy_runs (recurring_buy_id, user_id, scheduled_for, skip_reason)
              select id, user_id, now() + interval '1 day', 'Forged' from public.recurring_buys where user_id = $1
              returning id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.recurring_buy_runs set skip_reason = 'Forged' where id = $1 returning id`,
        params: byId('recurringBuyRunId'),
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.recurring_buy_runs where id = $1 returning id',
        params: byId('recurringBuyRunId'),
      },
    },
  },
  // Alerts are set and deleted by their owner; only the snapshots' trigger arms or fires them.
  price_alerts: {
    select: {
      expected: ownOnly,
      probe: { sql: 'select id from public.price_alerts where id = $1', params: byId('priceAlertId') },
    },
    insert: {
      expected: {
        ...everyone('refused'),
        owner: 'allowed',
        'another user': 'allowed',
        'admin at aal2': 'allowed',
      },
      probe: {
        sql: `insert into public.price_alerts (cryptocurrency, direction, price) values ('bitcoin', 'below', 5)
              returning id`,
        params: () => [],
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: 'update public.price_alerts set armed = true where id = $1 returning id',
        params: byId('priceAlertId'),
      },
    },
    delete: {
      expected: ownOnly,
      probe: {
        sql: 'delete from public.price_alerts where id = $1 returning id',
        params: byId('priceAlertId'),
      },
    },
  },
  payout_protection: {
    select: {
      expected: ownOnly,
      probe: { sql: 'select allowlist_on from public.payout_protection where user_id = $1', params: ownerId },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: 'insert into public.payout_protection (user_id) values (gen_random_uuid()) returning user_id',
        params: () => [],
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: 'update public.payout_protection set allowlist_on = false where user_id = $1 returning user_id',
        params: ownerId,
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.payout_protection where user_id = $1 returning user_id',
        params: ownerId,
      },
    },
  },
  // The freeze: its owner and admins read it; only the freeze functions write it.
  account_freezes: {
    select: {
      expected: ownOrAdmin,
      probe: { sql: 'select frozen_at from public.account_freezes where user_id = $1', params: ownerId },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: 'insert into public.account_freezes (user_id) values (gen_random_uuid()) returning user_id',
        params: () => [],
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: 'update public.account_freezes set unfreeze_at = now() where user_id = $1 returning user_id',
        params: ownerId,
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.account_freezes where user_id = $1 returning user_id',
        params: ownerId,
      },
    },
  },
  // The security log: its owner and admins read it; only its triggers write it, and nobody rewrites it.
  security_log: {
    select: {
      expected: ownOrAdmin,
      probe: { sql: 'select seq from public.security_log where user_id = $1', params: ownerId },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.security_log (user_id, seq, recorded_at, event, detail, prev_hash, hash)
              values ($1, 1000, now(), 'sign_in', 'x', sha256(''), sha256('')) returning seq`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.security_log set detail = 'x' where user_id = $1 returning seq`,
        params: ownerId,
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: { sql: 'delete from public.security_log where user_id = $1 returning seq', params: ownerId },
    },
  },
  // Tax settings and method choices are the person's own; they change only through their RPCs.
  tax_settings: {
    select: {
      expected: ownOnly,
      probe: { sql: 'select time_zone from public.tax_settings where user_id = $1', params: ownerId },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.tax_settings (user_id, time_zone) values ($1, 'UTC') returning user_id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.tax_settings set time_zone = 'UTC' where user_id = $1 returning user_id`,
        params: ownerId,
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: { sql: 'delete from public.tax_settings where user_id = $1 returning user_id', params: ownerId },
    },
  },
  cost_basis_elections: {
    select: {
      expected: ownOnly,
      probe: { sql: 'select method from public.cost_basis_elections where user_id = $1', params: ownerId },
    },
    insert: {
      expected: everyone('refused'),
      probe: {
        sql: `insert into public.cost_basis_elections (user_id, from_tax_year, method) values ($1, 2001, 'hifo')
              returning user_id`,
        params: ownerId,
      },
    },
    update: {
      expected: everyone('refused'),
      probe: {
        sql: `update public.cost_basis_elections set method = 'fifo' where user_id = $1 returning user_id`,
        params: ownerId,
      },
    },
    delete: {
      expected: everyone('refused'),
      probe: {
        sql: 'delete from public.cost_basis_elections where user_id = $1 returning user_id',
        params: ownerId,
      },
    },
  },
};

/** The views the app reads: as the table underneath (security invoker), never to anon. */
const views: Record<string, { expected: Row; probe: Probe }> = {
  wallet_balances: {
    expected: ownOrAdmin,
    probe: { sql: 'select user_id from public.wallet_balances where user_id = $1', params: ownerId },
  },
  transactions_with_user: {
    expected: ownOrAdmin,
    probe: {
      sql: 'select id, full_name from public.transactions_with_user where id = $1',
      params: byId('transactionId'),
    },
  },
  buy_requests_with_user: {
    expected: ownOrAdmin,
    probe: {
      sql: 'select id, full_name from public.buy_requests_with_user where id = $1',
      params: byId('buyRequestId'),
    },
  },
  sell_requests_with_user: {
    expected: ownOrAdmin,
    probe: {
      sql: 'select id, full_name from public.sell_requests_with_user where id = $1',
      params: byId('sellRequestId'),
    },
  },
  withdraw_requests_with_user: {
    expected: ownOrAdmin,
    probe: {
      sql: 'select id, full_name from public.withdraw_requests_with_user where id = $1',
      params: byId('withdrawRequestId'),
    },
  },
  buy_requests_with_fill: {
    expected: ownOrAdmin,
    probe: {
      sql: 'select id from public.buy_requests_with_fill where id = $1',
      params: byId('buyRequestId'),
    },
  },
  sell_requests_with_fill: {
    expected: ownOrAdmin,
    probe: {
      sql: 'select id from public.sell_requests_with_fill where id = $1',
      params: byId('sellRequestId'),
    },
  },
  frozen_accounts: {
    expected: adminOnlyFiltered,
    probe: {
      sql: 'select id from public.frozen_accounts where id = $1',
      params: byId('frozenPersonId'),
    },
  },
  users_with_balance: {
    expected: ownOrAdmin,
    probe: { sql: 'select id, available from public.users_with_balance where id = $1', params: ownerId },
  },
  // The security columns (private.account_restrictions): admins at aal2 only; the person sees nulls.
  'users_with_balance (two-factor, hold, lock, freeze)': {
    expected: adminOnlyFiltered,
    probe: {
      sql: 'select id from public.users_with_balance where id = $1 and two_factor is not null and frozen is not null',
      params: ownerId,
    },
  },
  holdings: {
    expected: ownOrAdmin,
    probe: { sql: 'select quantity from public.holdings where user_id = $1', params: ownerId },
  },
  latest_prices: {
    expected: everyone('allowed'),
    probe: {
      sql: 'select price from public.latest_prices where cryptocurrency = $1',
      params: byId('snapshotCoin'),
    },
  },
  audit_log_with_actor: {
    expected: adminOnlyFiltered,
    probe: {
      sql: 'select id, actor_name from public.audit_log_with_actor where id = $1',
      params: byId('auditEntryId'),
    },
  },
};

/**
 * The read-only RPCs, called as PostgREST calls them: `allowed` when rows come back, `hidden` when the
 * caller's answer is empty. Signed-in people only; each person's portfolio history is their own alone.
 */
const functions: Record<string, { expected: Row; probe: Probe }> = {
  price_history: {
    expected: signedInOnly,
    probe: { sql: `select price from public.price_history($1, '24h')`, params: byId('snapshotCoin') },
  },
  portfolio_history: {
    expected: ownOnly,
    probe: { sql: `select value from public.portfolio_history('24h')`, params: () => [] },
  },
  // The latest checkpoint's root and totals are public; a proof is the person's own.
  latest_ledger_checkpoint: {
    expected: everyone('allowed'),
    probe: {
      sql: `select public.latest_ledger_checkpoint() ->> 'root' as root`,
      params: () => [],
    },
  },
  my_liability_proof: {
    expected: ownOnly,
    probe: {
      sql: 'select proof from public.my_liability_proof() as proof where proof is not null',
      params: () => [],
    },
  },
  // Cost basis: each person's own matching, read from the journal they cannot read directly.
  open_lots: {
    expected: ownOnlyAtAal2,
    probe: { sql: 'select lot_id from public.open_lots()', params: () => [] },
  },
  disposals: {
    expected: ownOnlyAtAal2,
    probe: { sql: `select sale_id from public.disposals('-infinity', 'infinity')`, params: () => [] },
  },
  realised_gains: {
    expected: ownOnlyAtAal2,
    probe: {
      sql: `select sale_id from public.realised_gains(extract(year from now() at time zone 'UTC')::integer)`,
      params: () => [],
    },
  },
  // The caller's own restrictions: every signed-in person gets their own rows, a factor holder only at aal2.
  my_restrictions: {
    expected: { ...signedInOnly, 'admin at aal1': 'hidden' },
    probe: { sql: 'select movement from public.my_restrictions()', params: () => [] },
  },
  // The scheduler's call (service role): no person, admin or not, runs the schedules.
  run_recurring_buys: {
    expected: everyone('refused'),
    probe: { sql: 'select public.run_recurring_buys()', params: () => [] },
  },
  ledger_reconciliation: {
    expected: adminOnlyWrite,
    probe: { sql: 'select public.ledger_reconciliation()', params: () => [] },
  },
  create_ledger_checkpoint: {
    expected: adminOnlyWrite,
    probe: { sql: 'select public.create_ledger_checkpoint()', params: () => [] },
  },
  seal_ledger: {
    expected: adminOnlyWrite,
    probe: { sql: 'select public.seal_ledger()', params: () => [] },
  },
  // Checking a person's security log chain: admins at aal2 only; the person checks theirs in the browser.
  verify_security_log: {
    expected: adminOnlyWrite,
    probe: { sql: 'select count(*) from public.verify_security_log($1)', params: ownerId },
  },
};

/**
 * The journal (schema ledger): admins at aal2 read it; nobody writes it through the API (the trigger on
 * transactions and the checkpoint function do, as the owner).
 */
const accountOf = (fixture: Fixture) => [`person:${fixture.owner.id}:USD`];
const journal: Record<string, { read: Probe; write: Probe }> = {
  accounts: {
    read: { sql: 'select name from ledger.accounts where name = $1', params: accountOf },
    write: {
      sql: `insert into ledger.accounts (name, kind, currency) values ('x', 'bank', 'USD')`,
      params: () => [],
    },
  },
  entries: {
    read: { sql: 'select seq from ledger.entries where transaction_id = $1', params: byId('transactionId') },
    write: { sql: 'delete from ledger.entries where transaction_id = $1', params: byId('transactionId') },
  },
  postings: {
    read: { sql: 'select entry_seq from ledger.postings where account = $1', params: accountOf },
    write: { sql: 'update ledger.postings set amount = amount * 2 where account = $1', params: accountOf },
  },
  // The queue is empty but for a moment; each probe queues an entry of its own, seen by nobody else.
  unsealed_entries: {
    read: {
      ownerFirst: `insert into ledger.unsealed_entries (transaction_status, accounts, currencies, amounts)
        values ('complete', array['house:bank:USD', 'house:trading:USD'], array['USD', 'USD'], array[1, -1])`,
      sql: 'select id from ledger.unsealed_entries',
      params: () => [],
    },
    write: { sql: 'delete from ledger.unsealed_entries', params: () => [] },
  },
  head: {
    read: { sql: 'select seq from ledger.head', params: () => [] },
    write: { sql: 'update ledger.head set seq = seq + 1', params: () => [] },
  },
  checkpoints: {
    read: { sql: 'select id from ledger.checkpoints', params: () => [] },
    write: { sql: 'delete from ledger.checkpoints', params: () => [] },
  },
  checkpoint_leaves: {
    read: { sql: 'select position from ledger.checkpoint_leaves where person_id = $1', params: ownerId },
    write: {
      sql: 'update ledger.checkpoint_leaves set balances = array[0] where person_id = $1',
      params: ownerId,
    },
  },
  checkpoint_nodes: {
    read: { sql: 'select hash from ledger.checkpoint_nodes where level = 0', params: () => [] },
    write: { sql: 'delete from ledger.checkpoint_nodes', params: () => [] },
  },
  checkpoint_verifications: {
    read: { sql: 'select checkpoint_id from ledger.checkpoint_verifications', params: () => [] },
    write: { sql: 'delete from ledger.checkpoint_verifications', params: () => [] },
  },
};

let pool: pg.Pool;
let fixture: Fixture;
let actors: Record<Who, Actor>;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  const owner = await createUser(pool, { fullName: 'Owner', deposit: 1000 });
  const otherUser = await createUser(pool, { fullName: 'Another User' });
  const admin = await createUser(pool, { fullName: 'Admin', admin: true });
  actors = {
    anon,
    owner: signedIn(owner.id),
    'another user': signedIn(otherUser.id),
    'admin at aal1': signedInWithPasswordOnly(admin.id),
    'admin at aal2': signedIn(admin.id),
  };

  const buyRequestId = await addBuyRequest(pool, owner.id, 100);
  const { rows: transactions } = await pool.query<{ id: string }>(
    `select id from public.transactions where user_id = $1 and type = 'deposit'`,
    [owner.id],
  );
  // A settled buy, so the owner holds a coin.
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
     values ($1, 'buy', 10, 'complete', 'bitcoin', 0.0002, 50000)`,
    [owner.id],
  );
  // A settled sale of part of it, so the owner has a disposal; and their tax settings.
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
     values ($1, 'sell', 1, 'complete', 'bitcoin', 0.00002, 50000)`,
    [owner.id],
  );
  await pool.query(`insert into public.tax_settings (user_id, time_zone) values ($1, 'UTC')`, [owner.id]);
  await pool.query(
    `insert into public.cost_basis_elections (user_id, from_tax_year, method) values ($1, 2030, 'hifo')`,
    [owner.id],
  );
  const { rows: sells } = await pool.query<{ id: string }>(
    `insert into public.sell_requests (user_id, cryptocurrency, quantity) values ($1, 'bitcoin', 0.0001) returning id`,
    [owner.id],
  );
  const { rows: withdrawals } = await pool.query<{ id: string }>(
    `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
     values ($1, 30, 'card', 'iv.ciphertext.key') returning id`,
    [owner.id],
  );
  const { rows: statusTypes } = await pool.query<{ id: string }>(
    `insert into public.status_types (name) values ('matrix ' || $1::text) returning id`,
    [owner.id],
  );
  await pool.query(`insert into public.watchlist (user_id, coin_id) values ($1, 'bitcoin')`, [owner.id]);
  // A sign-in, so the owner's security log has an entry.
  await pool.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values (gen_random_uuid(), $1, now(), now(), 'aal1')`,
    [owner.id],
  );
  const { rows: audit } = await pool.query<{ id: string }>(
    `select id from public.audit_log where target_id = $1`,
    [onlyRow(transactions).id],
  );
  const { rows: notifications } = await pool.query<{ id: string }>(
    `select id from public.notifications where user_id = $1 and kind = 'deposit.completed'`,
    [owner.id],
  );
  const snapshotCoin = `matrix-${owner.id}`;
  await pool.query(
    `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
     values ($1, 100, date_trunc('minute', now()), true)`,
    [snapshotCoin],
  );
  // The owner has held that coin for an hour: their portfolio history has a point.
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
     values ($1, 'buy', 10, 'complete', $2, 0.1, 100, now() - interval '1 hour')`,
    [owner.id, snapshotCoin],
  );
  await pool.query(
    `insert into public.second_approvals (target_table, target_id, amount, proposed_by)
     values ('withdraw_requests', $1, 30, $2)`,
    [onlyRow(withdrawals).id, admin.id],
  );
  const { rows: destinations } = await pool.query<{ id: string }>(
    `insert into public.payout_destinations (id, user_id, label, withdraw_method, last4, encrypted_data,
     details_key_version, details_digest, usable_at)
     values (gen_random_uuid(), $1, 'Salary', 'bank', '6789', 'iv.ciphertext.key', 1, repeat('0', 64), now())
     returning id`,
    [owner.id],
  );
  await pool.query('insert into public.payout_protection (user_id, allowlist_on) values ($1, true)', [
    owner.id,
  ]);
  await pool.query('insert into public.account_freezes (user_id, unfreeze_delay_hours) values ($1, 48)', [
    owner.id,
  ]);
  const frozenPerson = await createUser(pool, { fullName: 'Frozen Person' });
  await queryAs(pool, signedIn(frozenPerson.id), 'select public.freeze_my_account()');
  const { rows: recurringBuys } = await pool.query<{ id: string }>(
    `insert into public.recurring_buys (user_id, cryptocurrency, amount, frequency, time_of_day, time_zone)
     values ($1, 'bitcoin', 10, 'daily', '09:00', 'UTC') returning id`,
    [owner.id],
  );
  const { rows: priceAlerts } = await pool.query<{ id: string }>(
    `insert into public.price_alerts (user_id, cryptocurrency, direction, price) values ($1, 'bitcoin', 'above', 1e9)
     returning id`,
    [owner.id],
  );
  const { rows: recurringBuyRuns } = await pool.query<{ id: string }>(
    `insert into public.recurring_buy_runs (recurring_buy_id, user_id, scheduled_for, skip_reason)
     values ($1, $2, now(), 'No current price of bitcoin: market data is late') returning id`,
    [onlyRow(recurringBuys).id, owner.id],
  );
  // A checkpoint that includes the owner, so their proof exists.
  await pool.query('select ledger.create_checkpoint(null)');
  // A reconciliation over an intact chain records the checkpoint as verified.
  await pool.query('select ledger.reconcile()');
  fixture = {
    frozenPersonId: frozenPerson.id,
    recurringBuyId: onlyRow(recurringBuys).id,
    recurringBuyRunId: onlyRow(recurringBuyRuns).id,
    priceAlertId: onlyRow(priceAlerts).id,
    destinationId: onlyRow(destinations).id,
    proposedRequestId: onlyRow(withdrawals).id,
    snapshotCoin,
    owner,
    transactionId: onlyRow(transactions).id,
    buyRequestId,
    sellRequestId: onlyRow(sells).id,
    withdrawRequestId: onlyRow(withdrawals).id,
    statusTypeId: onlyRow(statusTypes).id,
    auditEntryId: onlyRow(audit).id,
    notificationId: onlyRow(notifications).id,
  };
});

afterAll(async () => {
  await pool.end();
});

/** Runs the probe as `who` in a transaction that is always rolled back, and classifies the answer. */
async function outcomeOf(who: Who, probe: Probe): Promise<Outcome> {
  try {
    const result = await actAs(
      pool,
      actors[who],
      async (db) => {
        if (probe.ownerFirst) {
          // The session's login is the owner, so it may step back into that role and out again.
          await db.query('set local role none');
          await db.query(probe.ownerFirst);
          await db.query(`set local role ${actors[who].role}`);
        }
        return db.query(probe.sql, probe.params(fixture));
      },
      { rollback: true },
    );
    return result.rowCount === 0 ? 'hidden' : 'allowed';
  } catch (error) {
    if ((error as { code?: string }).code === '42501') return 'refused';
    throw error;
  }
}

const whos: Who[] = ['anon', 'owner', 'another user', 'admin at aal1', 'admin at aal2'];

describe.each(Object.entries(matrix))('%s', (_table, operations) => {
  const cells = Object.entries(operations).flatMap(([operation, { expected, probe }]) =>
    whos.map((who) => ({ operation, who, outcome: expected[who], probe })),
  );
  it.each(cells)('$operation by $who is $outcome', async ({ who, outcome, probe }) => {
    expect(await outcomeOf(who, probe)).toBe(outcome);
  });
});

describe.each([
  ...Object.entries(views).map(([view, cells]) => [`view ${view}`, cells] as const),
  ...Object.entries(functions).map(([rpc, cells]) => [`function ${rpc}`, cells] as const),
])('%s', (_read, { expected, probe }) => {
  it.each(whos.map((who) => ({ who, outcome: expected[who] })))(
    'select by $who is $outcome',
    async ({ who, outcome }) => {
      expect(await outcomeOf(who, probe)).toBe(outcome);
    },
  );
});

describe.each(Object.entries(journal))('journal table ledger.%s', (_table, { read, write }) => {
  it.each(whos.map((who) => ({ who, outcome: adminOnlyFiltered[who] })))(
    'select by $who is $outcome',
    async ({ who, outcome }) => {
      expect(await outcomeOf(who, read)).toBe(outcome);
    },
  );
  it.each(whos)('a write by %s is refused', async (who) => {
    expect(await outcomeOf(who, write)).toBe('refused');
  });
});

describe('the matrix', () => {
  it('covers every table and view of the public schema', async () => {
    const { rows } = await pool.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    // A view may be probed more than once: `name (what the probe reads)`.
    const probed = new Set([...Object.keys(matrix), ...Object.keys(views)].map((key) => key.split(' (')[0]));
    expect(rows.map((row) => row.name)).toEqual([...probed].sort());
  });

  it('covers every table of the journal', async () => {
    const { rows } = await pool.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'ledger' order by 1`,
    );
    expect(rows.map((row) => row.name)).toEqual(Object.keys(journal).sort());
  });
});

describe('withdraw_requests.encrypted_data', () => {
  it.each(whos)('cannot be read through the API by %s', async (who) => {
    const probe = {
      sql: 'select encrypted_data from public.withdraw_requests where id = $1',
      params: byId('withdrawRequestId'),
    };
    expect(await outcomeOf(who, probe)).toBe('refused');
  });

  it('is not behind select=* either: people name their columns', async () => {
    const probe = {
      sql: 'select * from public.withdraw_requests where id = $1',
      params: byId('withdrawRequestId'),
    };
    expect(await outcomeOf('owner', probe)).toBe('refused');
  });
});

/**
 * A person who set up two-factor authentication reads their money only once this session entered a code
 * (Supabase's "enforce MFA for users who have opted in"): a log-in left at the code step (aal1) gets nothing
 * back from their money tables, whatever the main matrix's owner (no factor) may read. Their profile stays
 * readable (the app reads the role there to know which code step to show).
 */
describe('a person with two-factor authentication', () => {
  type Session = 'without a code (aal1)' | 'after a code (aal2)';
  const ownMoney: Record<string, { sql: string; expected: Record<Session, Outcome> }> = {
    transactions: {
      sql: 'select id from public.transactions where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    buy_requests: {
      sql: 'select id from public.buy_requests where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    withdraw_requests: {
      sql: 'select id from public.withdraw_requests where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    sell_requests: {
      sql: 'select id from public.sell_requests where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    'portfolio_history (function)': {
      sql: "select value from public.portfolio_history('24h') where $1::uuid is not null",
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    'holdings (view)': {
      sql: 'select quantity from public.holdings where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    'wallet_balances (view): reserved': {
      sql: 'select reserved from public.wallet_balances where user_id = $1 and reserved > 0',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    tax_settings: {
      sql: 'select time_zone from public.tax_settings where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    cost_basis_elections: {
      sql: 'select method from public.cost_basis_elections where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    price_alerts: {
      sql: 'select id from public.price_alerts where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    recurring_buys: {
      sql: 'select id from public.recurring_buys where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    recurring_buy_runs: {
      sql: 'select id from public.recurring_buy_runs where user_id = $1',
      expected: { 'without a code (aal1)': 'hidden', 'after a code (aal2)': 'allowed' },
    },
    profiles: {
      sql: 'select role from public.profiles where id = $1',
      expected: { 'without a code (aal1)': 'allowed', 'after a code (aal2)': 'allowed' },
    },
  };
  let person: CreatedUser;

  beforeAll(async () => {
    person = await createUser(pool, { twoFactor: true, deposit: 1000 });
    await addBuyRequest(pool, person.id, 100);
    await pool.query(
      // Bought an hour ago, so this minute's price snapshot (addSellRequest's) values it in the history.
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
       values ($1, 'buy', 10, 'complete', 'bitcoin', 0.0002, 50000, now() - interval '1 hour')`,
      [person.id],
    );
    await pool.query(`insert into public.tax_settings (user_id, time_zone) values ($1, 'UTC')`, [person.id]);
    await pool.query(
      `insert into public.cost_basis_elections (user_id, from_tax_year, method) values ($1, 2030, 'average')`,
      [person.id],
    );
    await pool.query(
      `insert into public.price_alerts (user_id, cryptocurrency, direction, price) values ($1, 'bitcoin', 'above', 1e9)`,
      [person.id],
    );
    const { rows: schedules } = await pool.query<{ id: string }>(
      `insert into public.recurring_buys (user_id, cryptocurrency, amount, frequency, time_of_day, time_zone)
       values ($1, 'bitcoin', 10, 'daily', '09:00', 'UTC') returning id`,
      [person.id],
    );
    await pool.query(
      `insert into public.recurring_buy_runs (recurring_buy_id, user_id, scheduled_for, skip_reason)
       values ($1, $2, now(), 'No current price of bitcoin: market data is late')`,
      [onlyRow(schedules).id, person.id],
    );
    await createWithdrawRequest(pool, signedIn(person.id), { amount: 50 });
    await addSellRequest(pool, person.id);
  });

  const sessions: [Session, (userId: string) => Actor][] = [
    ['without a code (aal1)', signedInWithPasswordOnly],
    ['after a code (aal2)', signedIn],
  ];
  describe.each(Object.entries(ownMoney))('reading their own %s', (_table, { sql, expected }) => {
    it.each(sessions)('%s', async (session, actor) => {
      const result = await actAs(pool, actor(person.id), (db) => db.query(sql, [person.id]), {
        rollback: true,
      });
      expect(result.rowCount === 0 ? 'hidden' : 'allowed').toBe(expected[session]);
    });
  });
});
