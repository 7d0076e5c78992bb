-- Recurring buys: a person's standing instruction to buy X USD of a coin every day, week (a day of the week),
-- twice a month (the 1st and the 15th) or month (a day of the month, the month's last day when it is shorter) at a
-- time of day in their time zone. A scheduler calls run_recurring_buys every minute (hosted: Supabase Cron,
-- `select public.run_recurring_buys()` with pg_cron; locally the gateway's schedule calls the run-recurring-buys
-- Edge Function, which calls it). Each due occurrence is one run, keyed by (schedule, occurrence): the run row
-- and the buy request it makes commit together, so a repeated or overlapping scheduler call never makes a second
-- request. A batch's runs are decided and written together (a morning's thousands of 09:00 schedules in
-- seconds); each places an ordinary pending buy with a manual buy's reservation, limits and money gate, limited to
-- the price at that moment plus the schedule's tolerance and expiring after the schedule's hours; it is skipped,
-- with the reason recorded and notified, when there is no fresh price, the price is above the person's ceiling,
-- or the buy is refused (balance short, account locked or frozen, limits). A change of terms applies from the
-- next run; the runs stay as they were.
-- Step-up: nobody signs in for a run, so the schedule is the consent. Creating, changing or resuming one needs
-- aal2 from a person who holds a factor, as a buy does; runs then pass without a session, as the operator's
-- calls do.

create table public.recurring_buys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  cryptocurrency text not null,
  amount numeric not null,
  frequency text not null,
  day_of_week smallint,
  day_of_month smallint,
  time_of_day time not null,
  time_zone text not null,
  tolerance_percent numeric not null default 2,
  price_ceiling numeric,
  next_run_at timestamptz,
  created_at timestamptz not null default now(),
  expiry_hours integer not null default 24,
  constraint recurring_buys_frequency_known check (frequency in ('daily', 'weekly', 'twice_monthly', 'monthly')),
  constraint recurring_buys_day_fits_frequency check (
    (day_of_week is not null) = (frequency = 'weekly') and (day_of_month is not null) = (frequency = 'monthly')
  ),
  constraint recurring_buys_day_of_week_range check (day_of_week between 1 and 7),
  constraint recurring_buys_day_of_month_range check (day_of_month between 1 and 31),
  constraint recurring_buys_tolerance_range check (tolerance_percent > 0 and tolerance_percent <= 10),
  constraint recurring_buys_price_ceiling_positive check (price_ceiling > 0),
  constraint recurring_buys_expiry_hours_range check (expiry_hours between 1 and 720)
);
comment on table public.recurring_buys is
  'A person''s recurring buy: amount USD of a coin at time_of_day in time_zone, daily, weekly, twice a month or '
  'monthly; '
  'made, changed and resumed through create_recurring_buy, update_recurring_buy and set_recurring_buy_paused, run '
  'by run_recurring_buys.';
comment on column public.recurring_buys.amount is 'USD each run asks to buy.';
comment on column public.recurring_buys.frequency is
  'daily, weekly (on day_of_week), twice_monthly (the 1st and the 15th) or monthly (on day_of_month).';
comment on column public.recurring_buys.day_of_week is 'ISO day of the week for a weekly buy: 1 Monday to 7 Sunday.';
comment on column public.recurring_buys.day_of_month is
  'Day of the month for a monthly buy, 1 to 31; in a shorter month the run falls on its last day.';
comment on column public.recurring_buys.time_of_day is
  'Wall-clock time of the run in time_zone. On the night clocks spring forward a time that does not exist runs '
  'an hour later; on the night they fall back a time that happens twice runs once (the later one).';
comment on column public.recurring_buys.time_zone is 'IANA time zone the time of day is read in (pg_timezone_names).';
comment on column public.recurring_buys.tolerance_percent is
  'Each run''s limit price: the price when it runs plus this percentage (over 0, at most 10).';
comment on column public.recurring_buys.price_ceiling is
  'Skip a run when the price is above this many USD per coin; null: no ceiling.';
comment on column public.recurring_buys.expiry_hours is
  'Each run''s buy request expires this many hours after it is placed (1 to 720, 30 days, as a manual buy''s).';
comment on column public.recurring_buys.next_run_at is 'The next occurrence to run; null while paused.';
create index recurring_buys_user_id_idx on public.recurring_buys (user_id);
comment on index public.recurring_buys_user_id_idx is 'A person''s recurring buys.';
create index recurring_buys_next_run_at_idx on public.recurring_buys (next_run_at) where next_run_at is not null;
comment on index public.recurring_buys_next_run_at_idx is 'The schedules due, for run_recurring_buys.';
alter table public.recurring_buys enable row level security;
revoke all on table public.recurring_buys from anon, authenticated, service_role;
grant select, delete on table public.recurring_buys to authenticated;
create policy "People can read and delete their own recurring buys"
  on public.recurring_buys for all to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can read and delete their own recurring buys" on public.recurring_buys is
  'Schedules are private to their person; only select and delete are granted, the rest goes through functions.';
create policy "Recurring buys are read at aal2 or without a factor"
  on public.recurring_buys as restrictive for all to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Recurring buys are read at aal2 or without a factor" on public.recurring_buys is
  'A person with a verified factor sees and deletes their schedules (amounts) only at aal2, as their requests.';

create table public.recurring_buy_runs (
  id uuid primary key default gen_random_uuid(),
  recurring_buy_id uuid not null references public.recurring_buys (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  scheduled_for timestamptz not null,
  ran_at timestamptz not null default now(),
  buy_request_id uuid references public.buy_requests (id),
  skip_reason text,
  constraint recurring_buy_runs_run_key unique (recurring_buy_id, scheduled_for),
  constraint recurring_buy_runs_placed_or_skipped check ((buy_request_id is null) <> (skip_reason is null))
);
comment on table public.recurring_buy_runs is
  'What each occurrence of a recurring buy did: the buy request it placed, or why it was skipped. One row per '
  'schedule and occurrence (the run key), written with the request in one transaction.';
comment on column public.recurring_buy_runs.scheduled_for is 'The occurrence this run is for.';
comment on column public.recurring_buy_runs.ran_at is 'When the scheduler ran it (later than scheduled_for when late).';
comment on column public.recurring_buy_runs.buy_request_id is 'The pending buy request placed; null when skipped.';
comment on column public.recurring_buy_runs.skip_reason is 'Why no request was placed, in the person''s words.';
comment on constraint recurring_buy_runs_run_key on public.recurring_buy_runs is
  'The run key: a schedule runs each occurrence once, however often or late the scheduler calls.';
create index recurring_buy_runs_user_id_idx on public.recurring_buy_runs (user_id);
comment on index public.recurring_buy_runs_user_id_idx is 'A person''s runs.';
create index recurring_buy_runs_buy_request_id_idx on public.recurring_buy_runs (buy_request_id);
comment on index public.recurring_buy_runs_buy_request_id_idx is 'The run that placed a request.';
alter table public.recurring_buy_runs enable row level security;
revoke all on table public.recurring_buy_runs from anon, authenticated, service_role;
grant select on table public.recurring_buy_runs to authenticated;
create policy "People can read the runs of their own recurring buys"
  on public.recurring_buy_runs for select to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can read the runs of their own recurring buys" on public.recurring_buy_runs is
  'A schedule''s history is private to its person; only the scheduler writes it.';
create policy "Recurring buy runs are read at aal2 or without a factor"
  on public.recurring_buy_runs as restrictive for select to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Recurring buy runs are read at aal2 or without a factor" on public.recurring_buy_runs is
  'A person with a verified factor reads their runs (amounts) only at aal2, as their requests.';

create function private.next_recurring_run(
  p_frequency text,
  p_day_of_week smallint,
  p_day_of_month smallint,
  p_time_of_day time,
  p_time_zone text,
  p_after timestamptz
) returns timestamptz
language sql
stable
set search_path = ''
as $$
  -- One candidate per local calendar day, so a day whose clock jumps still runs once.
  select candidate
  from (
    select (local_day + p_time_of_day) at time zone p_time_zone as candidate
    from generate_series(
      ((p_after at time zone p_time_zone)::date - 1)::timestamp,
      -- Far enough for the next matching day (a month's last day at most 62 days on), no farther.
      ((p_after at time zone p_time_zone)::date
        + case p_frequency when 'daily' then 2 when 'weekly' then 8 else 62 end)::timestamp,
      interval '1 day'
    ) as local_day
    where case p_frequency
      when 'daily' then true
      when 'weekly' then extract(isodow from local_day) = p_day_of_week
      when 'twice_monthly' then extract(day from local_day) in (1, 15)
      else extract(day from local_day) = least(
        p_day_of_month,
        extract(day from date_trunc('month', local_day) + interval '1 month - 1 day')
      )
    end
  ) as candidates
  where candidate > p_after
  order by candidate
  limit 1;
$$;
comment on function private.next_recurring_run(text, smallint, smallint, time, text, timestamptz) is
  'The first occurrence of a schedule strictly after p_after: the wall-clock time on the next matching day in the '
  'time zone (twice a month: the 1st and the 15th; a monthly day past the month''s end falls on its last day).';
revoke execute on function private.next_recurring_run(text, smallint, smallint, time, text, timestamptz) from public;

create function private.assert_recurring_buy_terms(
  p_cryptocurrency text,
  p_amount numeric,
  p_frequency text,
  p_day_of_week smallint,
  p_day_of_month smallint,
  p_time_of_day time,
  p_time_zone text,
  p_tolerance_percent numeric,
  p_price_ceiling numeric,
  p_expiry_hours integer
) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_cryptocurrency is null or btrim(p_cryptocurrency) = '' then
    raise exception 'Please select a cryptocurrency' using errcode = 'P0001';
  end if;
  perform private.assert_usd_amount(p_amount);
  perform private.assert_within_limits(p_amount, 'transaction');
  if p_frequency is null or p_frequency not in ('daily', 'weekly', 'twice_monthly', 'monthly') then
    raise exception 'Choose daily, weekly, twice a month or monthly' using errcode = 'P0001';
  end if;
  if p_frequency = 'weekly' and (p_day_of_week is null or p_day_of_week not between 1 and 7) then
    raise exception 'Choose the day of the week' using errcode = 'P0001';
  end if;
  if p_frequency = 'monthly' and (p_day_of_month is null or p_day_of_month not between 1 and 31) then
    raise exception 'Choose a day of the month from 1 to 31' using errcode = 'P0001';
  end if;
  if p_time_zone is null or not exists (select from pg_catalog.pg_timezone_names where name = p_time_zone) then
    raise exception 'Unknown time zone: %', coalesce(p_time_zone, 'none') using errcode = 'P0001';
  end if;
  if p_tolerance_percent is null or p_tolerance_percent <= 0 or p_tolerance_percent > 10 then
    raise exception 'Price tolerance must be over 0 %% and at most 10 %%' using errcode = 'P0001';
  end if;
  if p_price_ceiling is not null and p_price_ceiling <= 0 then
    raise exception 'Price ceiling must be greater than 0' using errcode = 'P0001';
  end if;
  if p_expiry_hours is null or p_expiry_hours not between 1 and 720 then
    raise exception 'Each buy must expire after 1 hour to 30 days (720 hours)' using errcode = 'P0001';
  end if;
  if p_time_of_day is null then
    raise exception 'Choose the time of day' using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_recurring_buy_terms(
  text, numeric, text, smallint, smallint, time, text, numeric, numeric, integer
) is
  'Refuses a schedule''s coin, amount (and the limits), frequency, day, time zone, tolerance, ceiling, expiry or '
  'time that is not usable, with clear texts: the checks of creating and of changing a schedule.';
revoke execute on function private.assert_recurring_buy_terms(
  text, numeric, text, smallint, smallint, time, text, numeric, numeric, integer
) from public;

create function public.create_recurring_buy(
  cryptocurrency text,
  amount numeric,
  frequency text,
  time_of_day time,
  time_zone text,
  idempotency_key uuid default null,
  day_of_week smallint default null,
  day_of_month smallint default null,
  tolerance_percent numeric default 2,
  price_ceiling numeric default null,
  expiry_hours integer default 24
)
returns public.recurring_buys
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  created public.recurring_buys;
  owner_id uuid := (select auth.uid());
begin
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_recurring_buy',
    jsonb_build_object(
      'cryptocurrency', cryptocurrency, 'amount', amount, 'frequency', frequency, 'time_of_day', time_of_day,
      'time_zone', time_zone, 'day_of_week', day_of_week, 'day_of_month', day_of_month,
      'tolerance_percent', tolerance_percent, 'price_ceiling', price_ceiling, 'expiry_hours', expiry_hours
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.recurring_buys, earlier);
  end if;
  perform private.assert_aal2_for_money(owner_id, (select auth.jwt()) ->> 'aal', 'schedule a buy');
  perform private.assert_money_gate(owner_id, 'buy', 'person');
  perform private.assert_recurring_buy_terms(
    create_recurring_buy.cryptocurrency, create_recurring_buy.amount, create_recurring_buy.frequency,
    create_recurring_buy.day_of_week, create_recurring_buy.day_of_month, create_recurring_buy.time_of_day,
    create_recurring_buy.time_zone, create_recurring_buy.tolerance_percent, create_recurring_buy.price_ceiling,
    create_recurring_buy.expiry_hours
  );
  -- Under the person's lock, so two creations at once cannot both pass the count.
  perform private.lock_wallet(owner_id);
  if (select count(*) from public.recurring_buys where user_id = owner_id) >= 20 then
    raise exception 'A person can have at most 20 recurring buys' using errcode = 'P0001';
  end if;
  insert into public.recurring_buys (
    user_id, cryptocurrency, amount, frequency, day_of_week, day_of_month, time_of_day, time_zone,
    tolerance_percent, price_ceiling, expiry_hours, next_run_at
  )
  values (
    owner_id, create_recurring_buy.cryptocurrency, create_recurring_buy.amount, create_recurring_buy.frequency,
    create_recurring_buy.day_of_week, create_recurring_buy.day_of_month, create_recurring_buy.time_of_day,
    create_recurring_buy.time_zone, create_recurring_buy.tolerance_percent, create_recurring_buy.price_ceiling,
    create_recurring_buy.expiry_hours,
    private.next_recurring_run(
      create_recurring_buy.frequency, create_recurring_buy.day_of_week, create_recurring_buy.day_of_month,
      create_recurring_buy.time_of_day, create_recurring_buy.time_zone, now()
    )
  )
  returning * into created;
  perform private.write_audit('recurring_buy.create', 'recurring_buys', created.id, to_jsonb(created));
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
comment on function public.create_recurring_buy(
  text, numeric, text, time, text, uuid, smallint, smallint, numeric, numeric, integer
) is
  'A signed-in person''s recurring buy, once per idempotency key (a repeat returns the schedule it made): '
  'amount USD of the coin daily, weekly (ISO day_of_week), twice a month (the 1st and 15th) or monthly '
  '(day_of_month) at time_of_day in time_zone, each run limited to the price then plus tolerance_percent, '
  'expiring after expiry_hours, and skipped above price_ceiling. Refused below aal2 for a factor holder, when '
  'the money gate stops buying, outside the limits, and past 20 schedules.';
revoke execute on function public.create_recurring_buy(
  text, numeric, text, time, text, uuid, smallint, smallint, numeric, numeric, integer
) from public, anon, authenticated, service_role;
grant execute on function public.create_recurring_buy(
  text, numeric, text, time, text, uuid, smallint, smallint, numeric, numeric, integer
) to authenticated;

create function public.update_recurring_buy(
  recurring_buy_id uuid,
  cryptocurrency text,
  amount numeric,
  frequency text,
  time_of_day time,
  time_zone text,
  day_of_week smallint default null,
  day_of_month smallint default null,
  tolerance_percent numeric default 2,
  price_ceiling numeric default null,
  expiry_hours integer default 24
)
returns public.recurring_buys
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier public.recurring_buys;
  changed public.recurring_buys;
  owner_id uuid := (select auth.uid());
begin
  perform private.assert_aal2_for_money(owner_id, (select auth.jwt()) ->> 'aal', 'change a recurring buy');
  perform private.assert_money_gate(owner_id, 'buy', 'person');
  perform private.assert_recurring_buy_terms(
    update_recurring_buy.cryptocurrency, update_recurring_buy.amount, update_recurring_buy.frequency,
    update_recurring_buy.day_of_week, update_recurring_buy.day_of_month, update_recurring_buy.time_of_day,
    update_recurring_buy.time_zone, update_recurring_buy.tolerance_percent, update_recurring_buy.price_ceiling,
    update_recurring_buy.expiry_hours
  );
  -- The schedule's row lock waits for a scheduler running it, so the change applies from the next run.
  select * into earlier from public.recurring_buys
  where id = update_recurring_buy.recurring_buy_id and user_id = owner_id
  for update;
  if not found then
    raise exception 'No such recurring buy' using errcode = 'P0001';
  end if;
  update public.recurring_buys
  set cryptocurrency = update_recurring_buy.cryptocurrency,
      amount = update_recurring_buy.amount,
      frequency = update_recurring_buy.frequency,
      day_of_week = case when update_recurring_buy.frequency = 'weekly' then update_recurring_buy.day_of_week end,
      day_of_month = case when update_recurring_buy.frequency = 'monthly' then update_recurring_buy.day_of_month end,
      time_of_day = update_recurring_buy.time_of_day,
      time_zone = update_recurring_buy.time_zone,
      tolerance_percent = update_recurring_buy.tolerance_percent,
      price_ceiling = update_recurring_buy.price_ceiling,
      expiry_hours = update_recurring_buy.expiry_hours,
      -- A paused schedule stays paused; an occurrence due and not run yet runs, on the new terms; otherwise the
      -- schedule moves to the new terms' next occurrence after now.
      next_run_at = case when earlier.next_run_at > now() then private.next_recurring_run(
        update_recurring_buy.frequency,
        case when update_recurring_buy.frequency = 'weekly' then update_recurring_buy.day_of_week end,
        case when update_recurring_buy.frequency = 'monthly' then update_recurring_buy.day_of_month end,
        update_recurring_buy.time_of_day, update_recurring_buy.time_zone, now()
      ) else earlier.next_run_at end
  where id = earlier.id
  returning * into changed;
  perform private.write_audit(
    'recurring_buy.update', 'recurring_buys', changed.id,
    jsonb_build_object('before', to_jsonb(earlier), 'after', to_jsonb(changed))
  );
  return changed;
end;
$$;
comment on function public.update_recurring_buy(
  uuid, text, numeric, text, time, text, smallint, smallint, numeric, numeric, integer
) is
  'Changes the caller''s recurring buy to the given terms (every one, checked as create_recurring_buy checks '
  'them, step-up and money gate included); they apply from the next run: a running schedule moves to the new '
  'terms'' next occurrence after now (one already due runs, on the new terms), a paused one stays paused, and '
  'its runs stay as they were. A retry sets the same terms again. Not the caller''s: ''No such recurring buy''.';
revoke execute on function public.update_recurring_buy(
  uuid, text, numeric, text, time, text, smallint, smallint, numeric, numeric, integer
) from public, anon, authenticated, service_role;
grant execute on function public.update_recurring_buy(
  uuid, text, numeric, text, time, text, smallint, smallint, numeric, numeric, integer
) to authenticated;

create function public.set_recurring_buy_paused(recurring_buy_id uuid, paused boolean)
returns public.recurring_buys
language plpgsql
security definer
set search_path = ''
as $$
declare
  schedule public.recurring_buys;
  owner_id uuid := (select auth.uid());
begin
  if paused is null then
    raise exception 'Say whether to pause or resume' using errcode = 'P0001';
  end if;
  select * into schedule from public.recurring_buys
  where id = set_recurring_buy_paused.recurring_buy_id and user_id = owner_id
  for update;
  if not found then
    raise exception 'No such recurring buy' using errcode = 'P0001';
  end if;
  if paused then
    update public.recurring_buys set next_run_at = null where id = schedule.id returning * into schedule;
  elsif schedule.next_run_at is null then
    -- Resuming starts money moving again: the step-up of a new schedule. Occurrences while paused never run.
    perform private.assert_aal2_for_money(owner_id, (select auth.jwt()) ->> 'aal', 'resume a recurring buy');
    update public.recurring_buys
    set next_run_at = private.next_recurring_run(
      frequency, day_of_week, day_of_month, time_of_day, time_zone, now()
    )
    where id = schedule.id
    returning * into schedule;
  end if;
  return schedule;
end;
$$;
comment on function public.set_recurring_buy_paused(uuid, boolean) is
  'Pauses the caller''s recurring buy (no occurrence runs) or resumes it from its next occurrence after now '
  '(refused below aal2 for a factor holder); a schedule that is not the caller''s is ''No such recurring buy''.';
revoke execute on function public.set_recurring_buy_paused(uuid, boolean)
  from public, anon, authenticated, service_role;
grant execute on function public.set_recurring_buy_paused(uuid, boolean) to authenticated;

create function private.run_recurring_occurrences(
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
comment on function private.run_recurring_occurrences(uuid[], timestamptz[], boolean[]) is
  'Runs the given occurrences of schedules (the arrays side by side) together: each places an ordinary pending buy '
  'at the price now plus the tolerance (reserving its USD, within the limits and the money gate of a manual buy, '
  'audited), or records why not (missed, no fresh price, above the ceiling, the amount, the gate or the balance, '
  'in a manual buy''s words); every run is notified. Returns the runs recorded.';
revoke execute on function private.run_recurring_occurrences(uuid[], timestamptz[], boolean[]) from public;

create function public.run_recurring_buys(batch_size integer default 1000) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  schedule public.recurring_buys;
  occurrence timestamptz;
  following timestamptz;
  run_schedule_ids uuid[] := '{}';
  run_occurrences timestamptz[] := '{}';
  run_missed boolean[] := '{}';
  moved_ids uuid[] := '{}';
  moved_to timestamptz[] := '{}';
  recorded_count integer;
begin
  if batch_size is null or batch_size < 1 then
    raise exception 'Batch size must be at least 1' using errcode = 'P0001';
  end if;
  -- Skip locked: a second scheduler call at the same time takes other schedules, never the same occurrence.
  for schedule in
    select * from public.recurring_buys
    where next_run_at <= now()
    order by next_run_at
    limit batch_size
    for update skip locked
  loop
    occurrence := schedule.next_run_at;
    loop
      following := private.next_recurring_run(
        schedule.frequency, schedule.day_of_week, schedule.day_of_month, schedule.time_of_day,
        schedule.time_zone, occurrence
      );
      -- A scheduler late past the next occurrence buys once, for the latest one due, and records the others.
      run_schedule_ids := run_schedule_ids || schedule.id;
      run_occurrences := run_occurrences || occurrence;
      run_missed := run_missed || (following <= now());
      exit when following > now();
      occurrence := following;
    end loop;
    moved_ids := moved_ids || schedule.id;
    moved_to := moved_to || following;
  end loop;
  -- An occurrence already recorded (an old one brought back) is not run again.
  select coalesce(array_agg(due.schedule_id order by due.ord), '{}'),
         coalesce(array_agg(due.occurrence order by due.ord), '{}'),
         coalesce(array_agg(due.missed order by due.ord), '{}')
  into run_schedule_ids, run_occurrences, run_missed
  from unnest(run_schedule_ids, run_occurrences, run_missed) with ordinality as due (schedule_id, occurrence, missed, ord)
  where not exists (
    select from public.recurring_buy_runs
    where recurring_buy_id = due.schedule_id and scheduled_for = due.occurrence
  );
  recorded_count := private.run_recurring_occurrences(run_schedule_ids, run_occurrences, run_missed);
  update public.recurring_buys set next_run_at = moved.next_run_at
  from unnest(moved_ids, moved_to) as moved (id, next_run_at)
  where recurring_buys.id = moved.id;
  return recorded_count;
end;
$$;
comment on function public.run_recurring_buys(integer) is
  'Service role only (the scheduler, every minute): runs every due occurrence of up to batch_size schedules '
  'together (private.run_recurring_occurrences), each once (the run key), and moves each schedule to its next '
  'occurrence; returns the runs recorded.';
revoke execute on function public.run_recurring_buys(integer) from public, anon, authenticated, service_role;
grant execute on function public.run_recurring_buys(integer) to service_role;
