-- Recurring buys (issue 28). A manual buy and a schedule's run place their request through one function,
-- private.place_buy_request; the rest is new (supabase/schemas/29-automation.sql).
alter table public.notifications drop constraint notifications_kind_known;
alter table public.notifications add constraint notifications_kind_known check (kind in (
    'buy_request.approved', 'buy_request.rejected', 'sell_request.approved', 'sell_request.rejected',
    'withdraw_request.approved', 'withdraw_request.rejected', 'deposit.completed', 'security.password',
    'security.email', 'security.factor_added', 'security.factor_removed', 'security.sign_in',
    'security.withdrawals_locked', 'admin.person_locked', 'security.frozen', 'security.unfreeze_asked',
    'recurring_buy.placed', 'recurring_buy.skipped'
));

create function private.place_buy_request(
  p_user_id uuid,
  p_cryptocurrency text,
  p_amount numeric,
  p_limit_price numeric,
  p_expires_at timestamptz,
  p_recurring_buy_id uuid default null
)
returns public.buy_requests
language plpgsql
security definer
set search_path = ''
as $$
declare
  created public.buy_requests;
  left_over numeric;
begin
  -- Under the person's lock, as a withdrawal: the request reserves its amount the moment it exists, so two
  -- buys submitted at once (or a person's and a schedule's) cannot both count on the same dollars.
  perform private.lock_wallet(p_user_id);
  -- Pending; the triggers check the amount, the limits, the step-up and the money gate.
  insert into public.buy_requests (user_id, cryptocurrency, amount, limit_price, expires_at)
  values (p_user_id, p_cryptocurrency, p_amount, p_limit_price, coalesce(p_expires_at, now() + interval '24 hours'))
  returning * into created;
  select available into left_over from public.wallet_balances where user_id = created.user_id;
  if left_over < 0 then
    raise exception 'Insufficient balance (including all pending requests)' using errcode = 'P0001';
  end if;
  perform private.write_audit(
    'buy_request.create',
    'buy_requests',
    created.id,
    jsonb_build_object(
      'user_id', created.user_id,
      'cryptocurrency', created.cryptocurrency,
      'amount', created.amount,
      'limit_price', created.limit_price,
      'expires_at', created.expires_at
    ) || case when p_recurring_buy_id is null then '{}'::jsonb
      else jsonb_build_object('recurring_buy_id', p_recurring_buy_id) end
  );
  return created;
end;
$$;
comment on function private.place_buy_request(uuid, text, numeric, numeric, timestamptz, uuid) is
  'The one way a pending buy request is made, by the person (create_buy_request) or their recurring buy '
  '(run_recurring_buys): under the person''s lock it reserves the amount, refused with ''Insufficient balance '
  '(including all pending requests)'' when the available balance does not cover it; the table''s triggers check '
  'the amount, the limits, the step-up and the money gate. Expiry defaults to 24 hours.';
revoke execute on function private.place_buy_request(uuid, text, numeric, numeric, timestamptz, uuid) from public;
create or replace function public.create_buy_request(
  cryptocurrency text,
  amount numeric,
  idempotency_key uuid default null,
  limit_price numeric default null,
  expires_at timestamptz default null
)
returns public.buy_requests
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  created public.buy_requests;
begin
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_buy_request',
    jsonb_build_object(
      'cryptocurrency', cryptocurrency, 'amount', amount, 'limit_price', limit_price, 'expires_at', expires_at
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.buy_requests, earlier);
  end if;
  perform private.assert_price_protection(create_buy_request.limit_price, create_buy_request.expires_at);
  created := private.place_buy_request(
    (select auth.uid()),
    create_buy_request.cryptocurrency,
    create_buy_request.amount,
    create_buy_request.limit_price,
    create_buy_request.expires_at
  );
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
comment on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz) is
  'A signed-in person''s pending buy request, once per idempotency key (required; a repeat returns the request '
  'it created), with an optional limit price (most USD per coin) and expiry (default 24 hours). It reserves its '
  'amount at once: under the person''s lock, refused with ''Insufficient balance (including all pending '
  'requests)'' when the available balance (after open withdrawals and pending buys) does not cover it. Amount '
  'and limits are checked by the table''s trigger.';

-- Recurring buys: a person's standing instruction to buy X USD of a coin every day, week (a day of the week)
-- or month (a day of the month, the month's last day when it is shorter) at a time of day in their time zone.
-- A scheduler calls run_recurring_buys every minute (hosted: Supabase Cron, `select public.run_recurring_buys()`
-- with pg_cron; locally the gateway's schedule calls the run-recurring-buys Edge Function, which calls it).
-- Each due occurrence is one run, keyed by (schedule, occurrence): the run row and the buy request it makes
-- commit together, so a repeated or overlapping scheduler call never makes a second request. A run places an
-- ordinary pending buy through private.place_buy_request (the reservation, the limits and the money gate of a
-- manual buy) with a limit price of the price at that moment plus the schedule's tolerance and a 24-hour
-- expiry; it is skipped, with the reason recorded and notified, when there is no fresh price, the price is
-- above the person's ceiling, or the buy is refused (balance short, account locked or frozen, limits).
-- Step-up: nobody signs in for a run, so the schedule is the consent. Creating or resuming one needs aal2 from
-- a person who holds a factor, as a buy does; runs then pass without a session, as the operator's calls do.

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
  constraint recurring_buys_frequency_known check (frequency in ('daily', 'weekly', 'monthly')),
  constraint recurring_buys_day_fits_frequency check (
    (day_of_week is not null) = (frequency = 'weekly') and (day_of_month is not null) = (frequency = 'monthly')
  ),
  constraint recurring_buys_day_of_week_range check (day_of_week between 1 and 7),
  constraint recurring_buys_day_of_month_range check (day_of_month between 1 and 31),
  constraint recurring_buys_tolerance_range check (tolerance_percent > 0 and tolerance_percent <= 10),
  constraint recurring_buys_price_ceiling_positive check (price_ceiling > 0)
);
comment on table public.recurring_buys is
  'A person''s recurring buy: amount USD of a coin at time_of_day in time_zone, daily, weekly or monthly; '
  'made and resumed through create_recurring_buy and set_recurring_buy_paused, run by run_recurring_buys.';
comment on column public.recurring_buys.amount is 'USD each run asks to buy.';
comment on column public.recurring_buys.frequency is 'daily, weekly (on day_of_week) or monthly (on day_of_month).';
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
      ((p_after at time zone p_time_zone)::date + 62)::timestamp,
      interval '1 day'
    ) as local_day
    where case p_frequency
      when 'daily' then true
      when 'weekly' then extract(isodow from local_day) = p_day_of_week
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
  'time zone (a monthly day past the month''s end falls on its last day).';
revoke execute on function private.next_recurring_run(text, smallint, smallint, time, text, timestamptz) from public;

create function private.assert_recurring_buy_shape(
  p_frequency text,
  p_day_of_week smallint,
  p_day_of_month smallint,
  p_time_zone text,
  p_tolerance_percent numeric,
  p_price_ceiling numeric
) returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_frequency is null or p_frequency not in ('daily', 'weekly', 'monthly') then
    raise exception 'Choose daily, weekly or monthly' using errcode = 'P0001';
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
end;
$$;
comment on function private.assert_recurring_buy_shape(text, smallint, smallint, text, numeric, numeric) is
  'Refuses a schedule''s frequency, day, time zone, tolerance or ceiling that is not usable, with clear texts.';
revoke execute on function private.assert_recurring_buy_shape(text, smallint, smallint, text, numeric, numeric)
  from public;

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
  price_ceiling numeric default null
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
      'tolerance_percent', tolerance_percent, 'price_ceiling', price_ceiling
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.recurring_buys, earlier);
  end if;
  perform private.assert_aal2_for_money(owner_id, (select auth.jwt()) ->> 'aal', 'schedule a buy');
  perform private.assert_money_gate(owner_id, 'buy', 'person');
  if create_recurring_buy.cryptocurrency is null or btrim(create_recurring_buy.cryptocurrency) = '' then
    raise exception 'Please select a cryptocurrency' using errcode = 'P0001';
  end if;
  perform private.assert_usd_amount(create_recurring_buy.amount);
  perform private.assert_within_limits(create_recurring_buy.amount, 'transaction');
  perform private.assert_recurring_buy_shape(
    create_recurring_buy.frequency, create_recurring_buy.day_of_week, create_recurring_buy.day_of_month,
    create_recurring_buy.time_zone, create_recurring_buy.tolerance_percent, create_recurring_buy.price_ceiling
  );
  if create_recurring_buy.time_of_day is null then
    raise exception 'Choose the time of day' using errcode = 'P0001';
  end if;
  -- Under the person's lock, so two creations at once cannot both pass the count.
  perform private.lock_wallet(owner_id);
  if (select count(*) from public.recurring_buys where user_id = owner_id) >= 20 then
    raise exception 'A person can have at most 20 recurring buys' using errcode = 'P0001';
  end if;
  insert into public.recurring_buys (
    user_id, cryptocurrency, amount, frequency, day_of_week, day_of_month, time_of_day, time_zone,
    tolerance_percent, price_ceiling, next_run_at
  )
  values (
    owner_id, create_recurring_buy.cryptocurrency, create_recurring_buy.amount, create_recurring_buy.frequency,
    create_recurring_buy.day_of_week, create_recurring_buy.day_of_month, create_recurring_buy.time_of_day,
    create_recurring_buy.time_zone, create_recurring_buy.tolerance_percent, create_recurring_buy.price_ceiling,
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
  text, numeric, text, time, text, uuid, smallint, smallint, numeric, numeric
) is
  'A signed-in person''s recurring buy, once per idempotency key (a repeat returns the schedule it made): '
  'amount USD of the coin daily, weekly (ISO day_of_week) or monthly (day_of_month) at time_of_day in '
  'time_zone, each run limited to the price then plus tolerance_percent and skipped above price_ceiling. '
  'Refused below aal2 for a factor holder, when the money gate stops buying, outside the limits, and past 20 '
  'schedules.';
revoke execute on function public.create_recurring_buy(
  text, numeric, text, time, text, uuid, smallint, smallint, numeric, numeric
) from public, anon, authenticated, service_role;
grant execute on function public.create_recurring_buy(
  text, numeric, text, time, text, uuid, smallint, smallint, numeric, numeric
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

create function private.run_recurring_buy(p_schedule public.recurring_buys, p_occurrence timestamptz, p_missed boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  price numeric;
  placed public.buy_requests;
  refusal text;
begin
  if p_missed then
    refusal := 'Missed: the scheduler did not run in time and a later run took its place';
  else
    price := private.fresh_price(p_schedule.cryptocurrency);
    if price is null then
      refusal := format('No current price of %s: market data is late', p_schedule.cryptocurrency);
    elsif price > p_schedule.price_ceiling then
      refusal := format(
        'The price of %s was $%s, above your ceiling of $%s',
        p_schedule.cryptocurrency, private.format_usd(price), private.format_usd(p_schedule.price_ceiling)
      );
    else
      begin
        placed := private.place_buy_request(
          p_schedule.user_id,
          p_schedule.cryptocurrency,
          p_schedule.amount,
          round(price * (1 + p_schedule.tolerance_percent / 100), 2),
          now() + interval '24 hours',
          p_schedule.id
        );
      exception when sqlstate 'P0001' then
        -- A refusal worded for the person (balance short, locked, frozen, limits): the run is skipped with it.
        refusal := sqlerrm;
      end;
    end if;
  end if;
  -- No "on conflict": a second run of one occurrence must fail and take its request with it.
  insert into public.recurring_buy_runs (recurring_buy_id, user_id, scheduled_for, buy_request_id, skip_reason)
  values (p_schedule.id, p_schedule.user_id, p_occurrence, placed.id, refusal);
  if refusal is null then
    perform private.notify(
      p_schedule.user_id,
      'recurring_buy.placed',
      'Recurring buy placed',
      format(
        'Your recurring buy of $%s of %s is waiting for approval, at most $%s per coin.',
        private.format_usd(placed.amount), placed.cryptocurrency, private.format_usd(placed.limit_price)
      )
    );
  else
    perform private.notify(
      p_schedule.user_id,
      'recurring_buy.skipped',
      'Recurring buy skipped',
      format('Your recurring buy of $%s of %s was skipped. %s', private.format_usd(p_schedule.amount),
        p_schedule.cryptocurrency, refusal)
    );
  end if;
end;
$$;
comment on function private.run_recurring_buy(public.recurring_buys, timestamptz, boolean) is
  'Runs one occurrence of a schedule: places its buy request at the price now plus the tolerance, or records '
  'why not (missed, no fresh price, above the ceiling, or the buy''s own refusal), and notifies the person.';
revoke execute on function private.run_recurring_buy(public.recurring_buys, timestamptz, boolean) from public;

create function public.run_recurring_buys(batch_size integer default 1000) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  schedule public.recurring_buys;
  occurrence timestamptz;
  following timestamptz;
  runs integer := 0;
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
      if not exists (
        select from public.recurring_buy_runs
        where recurring_buy_id = schedule.id and scheduled_for = occurrence
      ) then
        perform private.run_recurring_buy(schedule, occurrence, following <= now());
        runs := runs + 1;
      end if;
      exit when following > now();
      occurrence := following;
    end loop;
    update public.recurring_buys set next_run_at = following where id = schedule.id;
  end loop;
  return runs;
end;
$$;
comment on function public.run_recurring_buys(integer) is
  'Service role only (the scheduler, every minute): runs every due occurrence of up to batch_size schedules, '
  'each once (the run key), and moves each schedule to its next occurrence; returns the runs recorded.';
revoke execute on function public.run_recurring_buys(integer) from public, anon, authenticated, service_role;
grant execute on function public.run_recurring_buys(integer) to service_role;
