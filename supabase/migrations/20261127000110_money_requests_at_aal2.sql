-- A stolen password alone cannot trade (issue 26): a person with a verified second factor asks to buy, sell or
-- withdraw only from a session that verified it (aal2); before, only withdrawals asked, and an aal1 session
-- could spend the whole balance on coins or sell every coin. And at aal1 such a person reads their balance
-- (the profile) only: the money tables already refuse them (20261126000320, 20261126000330); their
-- notifications (amounts, sign-in addresses) and their sessions list now do too.

create function private.assert_aal2_for_money(p_user_id uuid, p_aal text, p_verb text) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_aal is distinct from 'aal2' and exists (
    select from auth.mfa_factors where mfa_factors.user_id = p_user_id and mfa_factors.status = 'verified'
  ) then
    raise exception 'Enter a code from your authenticator app to %', p_verb using errcode = '42501';
  end if;
end;
$$;
comment on function private.assert_aal2_for_money(uuid, text, text) is
  'Refuses (42501) a money request of a person with a verified factor made from a session below aal2; p_verb '
  'names the step in the refusal ("buy", "sell", "withdraw").';
revoke execute on function private.assert_aal2_for_money(uuid, text, text) from public;

create function private.require_aal2_for_money_request() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Requests made with a person's token. The withdrawals function calls with the service role and checks the
  -- person's Auth session itself (create_withdraw_request); the database operator has no session.
  if (select auth.role()) = 'authenticated' then
    perform private.assert_aal2_for_money(new.user_id, (select auth.jwt()) ->> 'aal', tg_argv[0]);
  end if;
  return new;
end;
$$;
comment on function private.require_aal2_for_money_request() is
  'Step-up on every request table: refuses a request by a person with a verified factor from an aal1 session '
  '(the trigger''s argument names the step).';
revoke execute on function private.require_aal2_for_money_request() from public;

drop trigger require_aal2_for_withdrawal_before_insert on public.withdraw_requests;
drop function private.require_aal2_for_withdrawal();

create trigger require_aal2_before_insert
  before insert on public.withdraw_requests
  for each row execute function private.require_aal2_for_money_request('withdraw');
comment on trigger require_aal2_before_insert on public.withdraw_requests is
  'Step-up: two-factor people withdraw only from an aal2 session.';
create trigger require_aal2_before_insert
  before insert on public.buy_requests
  for each row execute function private.require_aal2_for_money_request('buy');
comment on trigger require_aal2_before_insert on public.buy_requests is
  'Step-up: two-factor people ask to buy only from an aal2 session.';
create trigger require_aal2_before_insert
  before insert on public.sell_requests
  for each row execute function private.require_aal2_for_money_request('sell');
comment on trigger require_aal2_before_insert on public.sell_requests is
  'Step-up: two-factor people ask to sell only from an aal2 session.';

create policy "Notifications are read at aal2 or without a factor"
  on public.notifications as restrictive for all to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()))
  with check ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Notifications are read at aal2 or without a factor" on public.notifications is
  'A person with a verified factor reads and marks their notifications (amounts, sign-in addresses) only at '
  'aal2: a log-in left at the code step sees none.';

create or replace function public.list_my_sessions()
returns table (
  id uuid,
  user_agent text,
  ip text,
  signed_in_at timestamptz,
  last_active_at timestamptz,
  aal text,
  is_current boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select
    session.id,
    session.user_agent,
    host(session.ip),
    session.created_at,
    -- GoTrue keeps refreshed_at without a zone, in UTC.
    greatest(session.refreshed_at at time zone 'UTC', session.updated_at, session.created_at),
    session.aal::text,
    session.id = nullif((select auth.jwt()) ->> 'session_id', '')::uuid
  from auth.sessions as session
  where session.user_id = (select auth.uid())
    and (session.not_after is null or session.not_after > now())
    -- A person with a verified factor sees where they are signed in only from a session that verified it.
    and ((select private.session_is_aal2()) or not (select private.has_verified_factor()))
  order by 7 desc, 5 desc;
$$;

-- Asking to sell checks the holdings before its insert: the step-up and the money gate come first, so an aal1
-- session learns nothing of the coins held and a locked person reads why.
create or replace function public.create_sell_request(
  cryptocurrency text,
  quantity numeric,
  idempotency_key uuid default null,
  limit_price numeric default null,
  expires_at timestamptz default null
)
returns public.sell_requests
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  held record;
  created public.sell_requests;
begin
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_sell_request',
    jsonb_build_object(
      'cryptocurrency', cryptocurrency, 'quantity', quantity, 'limit_price', limit_price, 'expires_at', expires_at
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.sell_requests, earlier);
  end if;
  perform private.assert_aal2_for_money((select auth.uid()), (select auth.jwt()) ->> 'aal', 'sell');
  perform private.assert_money_gate((select auth.uid()), 'sell', 'person');
  -- The coin and quantity texts first (the insert's trigger says them too), then the reservation.
  if create_sell_request.cryptocurrency is null or btrim(create_sell_request.cryptocurrency) = '' then
    raise exception 'Please select a cryptocurrency' using errcode = 'P0001';
  end if;
  if create_sell_request.quantity is null or create_sell_request.quantity <= 0 then
    raise exception 'Quantity must be greater than 0' using errcode = 'P0001';
  end if;
  perform private.assert_price_protection(create_sell_request.limit_price, create_sell_request.expires_at);

  perform private.lock_wallet((select auth.uid()));
  select * into held from private.held_quantity((select auth.uid()), create_sell_request.cryptocurrency);
  if held.available < create_sell_request.quantity then
    raise exception 'Insufficient % (including all sell requests)', create_sell_request.cryptocurrency
      using errcode = 'P0001';
  end if;

  insert into public.sell_requests (user_id, cryptocurrency, quantity, limit_price, expires_at)
  values (
    (select auth.uid()),
    create_sell_request.cryptocurrency,
    create_sell_request.quantity,
    create_sell_request.limit_price,
    coalesce(create_sell_request.expires_at, now() + interval '24 hours')
  )
  returning * into created;
  perform private.write_audit(
    'sell_request.create',
    'sell_requests',
    created.id,
    jsonb_build_object(
      'user_id', created.user_id,
      'cryptocurrency', created.cryptocurrency,
      'quantity', created.quantity,
      'limit_price', created.limit_price,
      'expires_at', created.expires_at
    )
  );
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
