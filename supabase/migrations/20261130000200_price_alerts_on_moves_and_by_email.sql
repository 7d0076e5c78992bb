-- Price alerts on a move of more than N % in 24 h, and every fired alert also e-mailed through the app's one
-- outbox, without a "this wasn't me" link (issue 28; supabase/schemas/30-price-alerts.sql, 21-sign-in-emails.sql).
alter table private.security_emails alter column not_me_token drop not null;
comment on table private.security_emails is
  'Outbox of the app''s e-mails (security e-mails, and price alerts): written with the change or price that '
  'caused them, claimed and sent once by the '
  'send-security-emails Edge Function (again only when a sender died mid-send). Not reachable through the '
  'API but by the function''s RPCs.';
comment on column private.security_emails.not_me_token is
  'The secret of the e-mail''s "this wasn''t me" link (report_not_me), valid for 30 days; null for a mail about '
  'no change to the account (a price alert), which has no such link.';
drop function private.queue_security_email(uuid, text, text, text, text, timestamptz);
create function private.queue_security_email(
  user_id uuid,
  subject text,
  body text,
  action_text text default null,
  action_path text default null,
  not_before timestamptz default null,
  with_not_me_link boolean default true
) returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into private.security_emails (
    user_id, recipient, subject, body, action_text, action_path, not_before, not_me_token
  )
  select users.id, users.email, queue_security_email.subject, queue_security_email.body,
    queue_security_email.action_text, queue_security_email.action_path, queue_security_email.not_before,
    case when queue_security_email.with_not_me_link then gen_random_uuid() end
  from auth.users
  where users.id = queue_security_email.user_id and users.email is not null and users.email_confirmed_at is not null
  returning id;
$$;
comment on function private.queue_security_email(uuid, text, text, text, text, timestamptz, boolean) is
  'Queues an e-mail to the person''s address if they confirmed it (none otherwise: an unproven address may be '
  'anyone''s), with an optional link of its own (action_text before the app''s action_path), sent from '
  'not_before (null: at once); answers its id (null when none was queued). send-security-emails adds the '
  '"this wasn''t me" link unless with_not_me_link is false (a mail about no change to the account, such as a '
  'price alert).';
revoke execute on function private.queue_security_email(uuid, text, text, text, text, timestamptz, boolean) from public;

alter table public.price_alerts
  alter column price drop not null,
  add column percent numeric,
  drop constraint price_alerts_direction_known,
  add constraint price_alerts_direction_known check (direction in ('above', 'below', 'moves')),
  add constraint price_alerts_percent_positive check (percent > 0 and percent < 1000),
  add constraint price_alerts_price_or_percent check (
    case direction when 'moves' then price is null and percent is not null else price is not null and percent is null end
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
grant insert (percent) on table public.price_alerts to authenticated;

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

create or replace function private.prepare_price_alert() returns trigger
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

create or replace function private.judge_price_alerts() returns trigger
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
