-- The admin buy queue marks the requests a recurring buy placed: buy_requests.recurring, set by the scheduler
-- and shown by buy_requests_with_user. A column rather than a look-up of recurring_buy_runs: admins cannot read a
-- person's runs, and a deleted schedule takes its runs with it while its requests stay.
alter table public.buy_requests add column recurring boolean not null default false;
comment on column public.buy_requests.recurring is
  'Placed by a run of the person''s recurring buy (run_recurring_buys), not by the person at that moment.';
-- The requests already placed by runs, with the table's triggers off while the migration holds it (decided
-- requests are otherwise final, and nothing here is news to broadcast).
alter table public.buy_requests disable trigger user;
update public.buy_requests set recurring = true
where id in (select buy_request_id from public.recurring_buy_runs where buy_request_id is not null);
alter table public.buy_requests enable trigger user;
create or replace view public.buy_requests_with_user
with (security_invoker = true)
as
select
  buy_requests.id,
  buy_requests.user_id,
  buy_requests.cryptocurrency,
  buy_requests.amount,
  buy_requests.status,
  buy_requests.date,
  buy_requests.decided_at,
  buy_requests.decided_by,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = buy_requests.user_id)
    + case when buy_requests.status = 'pending' and buy_requests.expires_at > now() then buy_requests.amount else 0 end
    as available,
  buy_requests.limit_price,
  buy_requests.expires_at,
  buy_requests.status = 'pending' and buy_requests.expires_at <= now() as expired,
  case when buy_requests.status = 'pending' then private.fresh_price(buy_requests.cryptocurrency) end as price,
  case when buy_requests.status = 'pending' then private.money_gate(buy_requests.user_id, 'buy') end
    as held_because,
  proposal.proposed_by,
  buy_requests.rejection_reason,
  buy_requests.recurring
from public.buy_requests
left join public.profiles on profiles.id = buy_requests.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'buy_requests' and proposal.target_id = buy_requests.id
  and proposal.confirmed_at is null;

comment on column public.buy_requests_with_user.recurring is 'Placed by a run of the person''s recurring buy.';

create or replace function private.run_recurring_occurrences(
  p_schedule_ids uuid[],
  p_occurrences timestamptz[],
  p_missed boolean[]
) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  candidate record;
  amount_refusals jsonb := '{}';
  amount_text text;
  person uuid;
  available numeric;
  refusal text;
  run_limit_price numeric;
  decided_ord bigint[] := '{}';
  decided_request_id uuid[] := '{}';
  decided_limit_price numeric[] := '{}';
  decided_reason text[] := '{}';
  recorded_count integer;
begin
  -- The batch's people under their locks, taken in one order, as a buy takes its person's: their balances
  -- cannot change under the checks below. Then each amount's refusal by the buy trigger's own checks.
  perform from public.profiles
  where id in (select user_id from public.recurring_buys where id = any(p_schedule_ids))
  order by id
  for update;
  for amount_text in select distinct amount::text from public.recurring_buys where id = any(p_schedule_ids) loop
    begin
      perform private.assert_usd_amount(amount_text::numeric);
      perform private.assert_within_limits(amount_text::numeric, 'transaction');
    exception when sqlstate 'P0001' then
      amount_refusals := amount_refusals || jsonb_build_object(amount_text, sqlerrm);
    end;
  end loop;
  -- Each run's outcome, checked in a manual buy's order (the amount, the money gate, the balance), the balance
  -- being what the person's earlier runs of this batch left, in the batch's order.
  for candidate in
    with runs as (
      select runs.ord, runs.missed, schedules.user_id, schedules.cryptocurrency, schedules.amount,
             schedules.tolerance_percent, schedules.price_ceiling
      from unnest(p_schedule_ids, p_missed) with ordinality as runs (schedule_id, missed, ord)
      join public.recurring_buys as schedules on schedules.id = runs.schedule_id
    ),
    -- Materialized: each coin's price and each person's balance and state are read once, not once a run.
    prices as materialized (
      select coins.cryptocurrency, private.fresh_price(coins.cryptocurrency) as price
      from (select distinct cryptocurrency from runs) as coins
    ),
    people as materialized (
      select wallets.user_id, wallets.available, private.money_gate(wallets.user_id, 'buy', 'person') as gate
      from public.wallet_balances as wallets
      where wallets.user_id in (select user_id from runs)
    )
    select runs.*, prices.price, people.available, people.gate
    from runs
    join prices using (cryptocurrency)
    join people using (user_id)
    order by runs.user_id, runs.ord
  loop
    if person is distinct from candidate.user_id then
      person := candidate.user_id;
      available := candidate.available;
    end if;
    refusal := case
      when candidate.missed then 'Missed: the scheduler did not run in time and a later run took its place'
      when candidate.price is null then
        format('No current price of %s: market data is late', candidate.cryptocurrency)
      when candidate.price > candidate.price_ceiling then
        format(
          'The price of %s was $%s, above your ceiling of $%s',
          candidate.cryptocurrency, private.format_usd(candidate.price), private.format_usd(candidate.price_ceiling)
        )
      else coalesce(
        amount_refusals ->> candidate.amount::text,
        candidate.gate,
        case when available < candidate.amount then 'Insufficient balance (including all pending requests)' end
      )
    end;
    run_limit_price := case
      when refusal is null then round(candidate.price * (1 + candidate.tolerance_percent / 100), 2)
    end;
    if refusal is null then
      available := available - candidate.amount;
    end if;
    decided_ord := decided_ord || candidate.ord;
    decided_request_id := decided_request_id || case when refusal is null then gen_random_uuid() end;
    decided_limit_price := decided_limit_price || run_limit_price;
    decided_reason := decided_reason || refusal;
  end loop;
  -- One statement writes the batch: requests (their triggers check the amount, limits and money gate again; a
  -- person's state changed since the checks makes them refuse, and the whole batch rolls back for the next call),
  -- their audit rows, the runs (the run key refuses a second run of an occurrence, with its request) and the
  -- notifications.
  with decided as (
    select decided.ord, decided.request_id, decided.limit_price, decided.reason, runs.occurrence,
           schedules.id as schedule_id, schedules.user_id, schedules.cryptocurrency, schedules.amount,
           now() + make_interval(hours => schedules.expiry_hours) as expires_at
    from unnest(decided_ord, decided_request_id, decided_limit_price, decided_reason)
      as decided (ord, request_id, limit_price, reason)
    join unnest(p_schedule_ids, p_occurrences) with ordinality as runs (schedule_id, occurrence, ord)
      on runs.ord = decided.ord
    join public.recurring_buys as schedules on schedules.id = runs.schedule_id
  ),
  placed as (
    insert into public.buy_requests (id, user_id, cryptocurrency, amount, limit_price, expires_at, recurring)
    select request_id, user_id, cryptocurrency, amount, limit_price, expires_at, true
    from decided
    where request_id is not null
    order by ord
  ),
  audited as (
    insert into public.audit_log (action, target_table, target_id, details)
    select 'buy_request.create', 'buy_requests', request_id, jsonb_build_object(
      'user_id', user_id, 'cryptocurrency', cryptocurrency, 'amount', amount, 'limit_price', limit_price,
      'expires_at', expires_at, 'recurring_buy_id', schedule_id
    )
    from decided
    where request_id is not null
  ),
  recorded as (
    -- No "on conflict": a second run of one occurrence must fail and take its request with it.
    insert into public.recurring_buy_runs (recurring_buy_id, user_id, scheduled_for, buy_request_id, skip_reason)
    select schedule_id, user_id, occurrence, request_id, reason from decided order by ord
  ),
  notified as (
    insert into public.notifications (user_id, kind, title, body)
    select user_id,
      case when reason is null then 'recurring_buy.placed' else 'recurring_buy.skipped' end,
      case when reason is null then 'Recurring buy placed' else 'Recurring buy skipped' end,
      case when reason is null then format(
        'Your recurring buy of $%s of %s is waiting for approval, at most $%s per coin.',
        private.format_usd(amount), cryptocurrency, private.format_usd(limit_price)
      ) else format(
        'Your recurring buy of $%s of %s was skipped. %s', private.format_usd(amount), cryptocurrency, reason
      ) end
    from decided
    order by ord
  )
  select count(*) into recorded_count from decided;
  return recorded_count;
end;
$$;
