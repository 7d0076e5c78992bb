-- Price alerts: "tell me when bitcoin goes above / below P", judged on the server's price snapshots (the
-- market function records them; never the browser's prices) as each is recorded, and told through the
-- notifications centre. Once per crossing: an alert fires when a snapshot is past its price and then rests
-- (disarmed) until the price has come back more than 1 % to the other side, so a price hovering at P does
-- not fire at every tick. An alert set while the price is already past P waits for the next crossing.

create table public.price_alerts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  cryptocurrency text not null,
  direction text not null,
  price numeric not null,
  armed boolean not null default true,
  last_fired_at timestamptz,
  created_at timestamptz not null default now(),
  constraint price_alerts_direction_known check (direction in ('above', 'below')),
  constraint price_alerts_price_positive check (price > 0 and price < 1e12),
  constraint price_alerts_cryptocurrency_is_id check (cryptocurrency ~ '^[a-z0-9][a-z0-9-]{0,99}$')
);
comment on table public.price_alerts is
  'A person''s price alerts: notify when the coin''s snapshot price goes above or below price, once per crossing.';
comment on column public.price_alerts.direction is 'above: fires when the price goes over price; below: under it.';
comment on column public.price_alerts.price is 'USD per coin the snapshot price is compared with.';
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
grant insert (cryptocurrency, direction, price) on table public.price_alerts to authenticated;
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

create function private.prepare_price_alert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  latest numeric;
begin
  -- Under a lock on the person's alerts, so two at once cannot both pass the count.
  perform pg_advisory_xact_lock(hashtextextended('price_alerts:' || new.user_id::text, 0));
  if (select count(*) from public.price_alerts where user_id = new.user_id) >= 20 then
    raise exception 'A person can have at most 20 price alerts' using errcode = 'P0001';
  end if;
  select price into latest from public.price_snapshots
  where cryptocurrency = new.cryptocurrency
  order by captured_at desc
  limit 1;
  new.armed := latest is null
    or (new.direction = 'above' and latest <= new.price)
    or (new.direction = 'below' and latest >= new.price);
  new.last_fired_at := null;
  return new;
end;
$$;
comment on function private.prepare_price_alert() is
  'Refuses a 21st alert of a person, and arms a new alert only when the latest price is not already past it.';
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
begin
  with fired as (
    update public.price_alerts as alert
    set armed = false, last_fired_at = now()
    from recorded
    where alert.cryptocurrency = recorded.cryptocurrency
      and alert.armed
      and case alert.direction
        when 'above' then recorded.price > alert.price
        else recorded.price < alert.price
      end
    returning alert.user_id, alert.cryptocurrency, alert.direction, alert.price, recorded.price as seen
  )
  insert into public.notifications (user_id, kind, title, body)
  select
    fired.user_id,
    'price_alert.triggered',
    format('%s is %s $%s', fired.cryptocurrency, fired.direction, private.format_usd(fired.price)),
    format('The price of %s is $%s, %s your alert at $%s.', fired.cryptocurrency, private.format_usd(fired.seen),
      fired.direction, private.format_usd(fired.price))
  from fired;
  -- Re-armed only once the price is back more than 1 % on the other side: no flapping around the price.
  update public.price_alerts as alert
  set armed = true
  from recorded
  where alert.cryptocurrency = recorded.cryptocurrency
    and not alert.armed
    and case alert.direction
      when 'above' then recorded.price < alert.price * 0.99
      else recorded.price > alert.price * 1.01
    end;
  return null;
end;
$$;
comment on function private.judge_price_alerts() is
  'Judges the alerts of the coins just recorded: fires (notifies and disarms) those the price passed, re-arms '
  'those it left by more than 1 %.';
revoke execute on function private.judge_price_alerts() from public;
create trigger judge_price_alerts_after_insert
  after insert on public.price_snapshots
  referencing new table as recorded
  for each statement execute function private.judge_price_alerts();
comment on trigger judge_price_alerts_after_insert on public.price_snapshots is
  'Price alerts fire as the server records a price, never from a browser.';
