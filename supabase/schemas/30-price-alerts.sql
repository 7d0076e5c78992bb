-- Price alerts: "tell me when bitcoin goes above / below P" or "moves more than N % in 24 h" (up or down),
-- judged on the server's price snapshots (the market function records them; never the browser's prices) as
-- each is recorded, and told through the notifications centre and by e-mail. Once per crossing: an alert
-- fires when a snapshot is past its price (or its move past N %) and then rests (disarmed) until the price
-- has come back more than 1 % to the other side, so a price hovering at P does not fire at every tick. An
-- alert set while the price is already past waits for the next crossing.
--
-- A move is the snapshot's price against the coin's price 24 h before it: the latest snapshot at or before
-- then (minute snapshots are kept a day, hourly ones a year), or, for a coin recorded for less than a day,
-- its oldest snapshot. A move alert's band is [day-before price × (1 - N %), × (1 + N %)]: it fires outside,
-- and re-arms once the price is back more than 1 % inside both ends.

create table public.price_alerts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  cryptocurrency text not null,
  direction text not null,
  price numeric,
  armed boolean not null default true,
  last_fired_at timestamptz,
  created_at timestamptz not null default now(),
  percent numeric,
  constraint price_alerts_direction_known check (direction in ('above', 'below', 'moves')),
  constraint price_alerts_price_positive check (price > 0 and price < 1e12),
  constraint price_alerts_percent_positive check (percent > 0 and percent < 1000),
  constraint price_alerts_price_or_percent check (
    case direction when 'moves' then price is null and percent is not null else price is not null and percent is null end
  ),
  constraint price_alerts_cryptocurrency_is_id check (cryptocurrency ~ '^[a-z0-9][a-z0-9-]{0,99}$')
);
comment on table public.price_alerts is
  'A person''s price alerts: notify when the coin''s snapshot price goes above or below price, or moves more '
  'than percent in 24 h, once per crossing.';
comment on column public.price_alerts.direction is
  'above: fires when the price goes over price; below: under it; moves: when it moves more than percent in 24 h.';
comment on column public.price_alerts.price is
  'USD per coin the snapshot price is compared with (above and below; null for moves).';
comment on column public.price_alerts.percent is
  'How far, in percent up or down, the price must move from 24 h before (moves; null otherwise).';
comment on column public.price_alerts.armed is
  'Whether the next snapshot past price fires it: false from a firing until the price is back more than 1 % on '
  'the other side (and at creation when the price is already past).';
comment on column public.price_alerts.last_fired_at is 'When it last fired; null if never.';
create index price_alerts_cryptocurrency_idx on public.price_alerts (cryptocurrency);
comment on index public.price_alerts_cryptocurrency_idx is 'The alerts a new snapshot of a coin is judged against.';
create index price_alerts_user_id_idx on public.price_alerts (user_id);
comment on index public.price_alerts_user_id_idx is 'A person''s alerts.';
alter table public.price_alerts enable row level security;
revoke all on table public.price_alerts from anon, authenticated, service_role;
grant select, delete on table public.price_alerts to authenticated;
grant insert (cryptocurrency, direction, price, percent) on table public.price_alerts to authenticated;
create policy "People can read, set and delete their own price alerts"
  on public.price_alerts for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
comment on policy "People can read, set and delete their own price alerts" on public.price_alerts is
  'Alerts are private to their person; only the price snapshots'' trigger changes them after they are set.';
create policy "Price alerts are used at aal2 or without a factor"
  on public.price_alerts as restrictive for all to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()))
  with check ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Price alerts are used at aal2 or without a factor" on public.price_alerts is
  'A person with a verified factor reads and sets alerts only at aal2, as the rest of their account.';

create function private.price_a_day_before(p_cryptocurrency text, p_at timestamptz) returns numeric
language sql
stable
set search_path = ''
as $$
  select coalesce(
    (select price from public.price_snapshots
     where cryptocurrency = p_cryptocurrency and captured_at <= p_at - interval '24 hours'
     order by captured_at desc limit 1),
    (select price from public.price_snapshots
     where cryptocurrency = p_cryptocurrency and captured_at <= p_at
     order by captured_at limit 1)
  );
$$;
comment on function private.price_a_day_before(text, timestamptz) is
  'The coin''s price 24 h before p_at that a move is measured from: the latest snapshot at or before then, or '
  'the coin''s oldest when it was first recorded less than a day before; null when it has none.';
revoke execute on function private.price_a_day_before(text, timestamptz) from public;

create function private.prepare_price_alert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  latest public.price_snapshots;
  day_before numeric;
begin
  -- Under a lock on the person's alerts, so two at once cannot both pass the count.
  perform pg_advisory_xact_lock(hashtextextended('price_alerts:' || new.user_id::text, 0));
  if (select count(*) from public.price_alerts where user_id = new.user_id) >= 20 then
    raise exception 'A person can have at most 20 price alerts' using errcode = 'P0001';
  end if;
  select * into latest from public.price_snapshots
  where cryptocurrency = new.cryptocurrency
  order by captured_at desc
  limit 1;
  day_before := private.price_a_day_before(new.cryptocurrency, latest.captured_at);
  new.armed := latest.price is null
    or (new.direction = 'above' and latest.price <= new.price)
    or (new.direction = 'below' and latest.price >= new.price)
    or (new.direction = 'moves' and abs(latest.price / day_before - 1) * 100 <= new.percent);
  new.last_fired_at := null;
  return new;
end;
$$;
comment on function private.prepare_price_alert() is
  'Refuses a 21st alert of a person, and arms a new alert only when the latest price (or its move in 24 h) is '
  'not already past it.';
revoke execute on function private.prepare_price_alert() from public;
create trigger prepare_price_alert_before_insert
  before insert on public.price_alerts
  for each row execute function private.prepare_price_alert();
comment on trigger prepare_price_alert_before_insert on public.price_alerts is
  'The limit of 20 per person and the alert''s first arming.';

create function private.judge_price_alerts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  fired record;
  title text;
  body text;
begin
  for fired in
    with judged as (
      select recorded.cryptocurrency, recorded.price as seen,
        private.price_a_day_before(recorded.cryptocurrency, recorded.captured_at) as day_before
      from recorded
    )
    update public.price_alerts as alert
    set armed = false, last_fired_at = now()
    from judged
    where alert.cryptocurrency = judged.cryptocurrency
      and alert.armed
      and case alert.direction
        when 'above' then judged.seen > alert.price
        when 'below' then judged.seen < alert.price
        else abs(judged.seen / judged.day_before - 1) * 100 > alert.percent
      end
    returning alert.user_id, alert.cryptocurrency, alert.direction, alert.price, alert.percent, judged.seen,
      judged.day_before
  loop
    if fired.direction = 'moves' then
      title := format('%s moved %s %s %% in 24 h', fired.cryptocurrency,
        case when fired.seen > fired.day_before then 'up' else 'down' end,
        trim_scale(round(abs(fired.seen / fired.day_before - 1) * 100, 1)));
      body := format('The price of %s is $%s, from $%s 24 hours before: more than your alert''s %s %%.',
        fired.cryptocurrency, private.format_usd(fired.seen), private.format_usd(fired.day_before),
        trim_scale(fired.percent));
    else
      title := format('%s is %s $%s', fired.cryptocurrency, fired.direction, private.format_usd(fired.price));
      body := format('The price of %s is $%s, %s your alert at $%s.', fired.cryptocurrency,
        private.format_usd(fired.seen), fired.direction, private.format_usd(fired.price));
    end if;
    perform private.notify(fired.user_id, 'price_alert.triggered', title, body);
    -- A price tells nothing about the account: no "this wasn't me" link, which would freeze it.
    perform private.queue_security_email(fired.user_id, title, body, 'Your price alerts:', '/user/price-alerts',
      null, false);
  end loop;
  -- Re-armed only once the price is back more than 1 % on the other side: no flapping around the price.
  with judged as (
    select recorded.cryptocurrency, recorded.price as seen,
      private.price_a_day_before(recorded.cryptocurrency, recorded.captured_at) as day_before
    from recorded
  )
  update public.price_alerts as alert
  set armed = true
  from judged
  where alert.cryptocurrency = judged.cryptocurrency
    and not alert.armed
    and case alert.direction
      when 'above' then judged.seen < alert.price * 0.99
      when 'below' then judged.seen > alert.price * 1.01
      else judged.seen > judged.day_before * (1 - alert.percent / 100) * 1.01
        and judged.seen < judged.day_before * (1 + alert.percent / 100) * 0.99
    end;
  return null;
end;
$$;
comment on function private.judge_price_alerts() is
  'Judges the alerts of the coins just recorded: fires those the price (or its move in 24 h) passed — '
  'disarms them, notifies and e-mails the person — and re-arms those it left by more than 1 %.';
revoke execute on function private.judge_price_alerts() from public;
create trigger judge_price_alerts_after_insert
  after insert on public.price_snapshots
  referencing new table as recorded
  for each statement execute function private.judge_price_alerts();
comment on trigger judge_price_alerts_after_insert on public.price_snapshots is
  'Price alerts fire as the server records a price, never from a browser.';
