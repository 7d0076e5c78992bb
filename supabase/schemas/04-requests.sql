-- Buy and withdraw requests. People create buy requests themselves (pending, within the limits);
-- withdraw requests come only from the withdrawals Edge Function through create_withdraw_request.
-- Decisions are made only by the admin RPCs (06-money-rpcs.sql).

create function private.is_rejection_reason_shape(p_status text, p_reason text) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return p_reason is null or (p_status = 'rejected' and char_length(p_reason) between 1 and 500);
end;
$$;
comment on function private.is_rejection_reason_shape(text, text) is
  'Whether a request''s rejection reason fits its status: none, or 1 to 500 characters on a rejected request.';

create table public.buy_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete restrict,
  cryptocurrency text not null,
  amount numeric not null,
  status public.request_status not null default 'pending',
  date timestamptz not null default now(),
  decided_at timestamptz,
  decided_by uuid references public.profiles (id) on delete set null,
  limit_price numeric,
  expires_at timestamptz not null default now() + interval '24 hours',
  rejection_reason text,
  recurring boolean not null default false,
  -- numeric(14,2) in range and scale, declared as a check so that 3 decimals are refused, not rounded.
  constraint buy_requests_amount_is_usd check (private.is_usd_amount(amount)),
  constraint buy_requests_cryptocurrency_not_blank check (btrim(cryptocurrency) <> '' and length(cryptocurrency) <= 100),
  constraint buy_requests_decision_recorded check ((status = 'pending') = (decided_at is null)),
  constraint buy_requests_limit_price_positive check (limit_price is null or limit_price > 0),
  constraint buy_requests_rejection_reason_shape check (private.is_rejection_reason_shape(status::text, rejection_reason))
);
comment on table public.buy_requests is 'A person''s request to buy a coin for USD; an admin approves or rejects it.';
comment on column public.buy_requests.cryptocurrency is 'The coin''s market-data id (e.g. bitcoin), never its symbol.';
comment on column public.buy_requests.recurring is
  'Placed by a run of the person''s recurring buy (run_recurring_buys), not by the person at that moment.';
comment on column public.buy_requests.amount is 'USD to spend; positive, at most 2 decimals, within the limits.';
comment on column public.buy_requests.status is
  'pending until decided by approve_buy_request or reject_buy_request, or cancelled by its owner (cancel_request); '
  'while pending and unexpired it reserves its amount from the available balance.';
comment on column public.buy_requests.rejection_reason is 'Why the admin rejected it, shown to the person (1 to 500 characters).';
comment on column public.buy_requests.decided_at is 'When an admin approved or rejected the request, or its owner cancelled it.';
comment on column public.buy_requests.decided_by is 'The admin who decided, or the owner who cancelled.';
comment on column public.buy_requests.limit_price is
  'Most USD per coin the person accepts: approval is refused when the current price is above it (null: no limit).';
comment on column public.buy_requests.expires_at is
  'When the request expires (default 24 hours after it was made): a pending request past it cannot be approved.';
create index buy_requests_user_id_date_idx on public.buy_requests (user_id, date desc);
comment on index public.buy_requests_user_id_date_idx is 'A person''s buy requests, newest first.';
create index buy_requests_date_idx on public.buy_requests (date desc);
comment on index public.buy_requests_date_idx is 'The admin buy request queue, newest first.';
create index buy_requests_status_date_idx on public.buy_requests (status, date desc);
comment on index public.buy_requests_status_date_idx is 'Requests by status (the pending queue), newest first.';
create index buy_requests_decided_by_idx on public.buy_requests (decided_by);
comment on index public.buy_requests_decided_by_idx is 'Supports the foreign key when an admin is deleted.';
create index buy_requests_pending_idx on public.buy_requests (user_id)
  include (amount, expires_at) where status = 'pending';
comment on index public.buy_requests_pending_idx is 'The USD a person''s pending buys reserve (wallet_balances).';
create index buy_requests_amount_idx on public.buy_requests (amount);
comment on index public.buy_requests_amount_idx is 'Admin buy request queue sorted by amount.';
alter table public.buy_requests enable row level security;
-- Realtime sends old rows of updates and deletes only with replica identity full; a subscriber gets
-- a change only when RLS lets them select the row (and only the columns they may select).
alter table public.buy_requests replica identity full;
revoke all on table public.buy_requests from anon, authenticated, service_role;
grant select on table public.buy_requests to authenticated;
grant select on table public.buy_requests to service_role;
create policy "People can read their own buy requests and admins can read all"
  on public.buy_requests for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People can read their own buy requests and admins can read all" on public.buy_requests is
  'Own rows for people; the whole queue for admins.';
create policy "Buy requests are read at aal2 or own ones without a factor"
  on public.buy_requests as restrictive for select to authenticated
  using (
    (select coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false))
    or (user_id = (select auth.uid()) and not (select private.has_verified_factor()))
  );
comment on policy "Buy requests are read at aal2 or own ones without a factor" on public.buy_requests is
  'Other people''s buy requests only at aal2 (admins), and a person with a verified factor reads their own '
  'only at aal2 too: a log-in left at the code step reads none.';
create function private.assert_within_limits(p_amount numeric, p_kind text) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  limits public.transaction_limits;
begin
  select * into limits from public.transaction_limits where id;
  -- Both limits at 0 means none are set (the app's default until an admin sets them).
  if limits.max_amount is null or limits.max_amount = 0 then
    return;
  end if;
  if p_amount < limits.min_amount then
    raise exception 'Minimum % amount is $%', p_kind, private.format_usd(limits.min_amount) using errcode = 'P0001';
  end if;
  if p_amount > limits.max_amount then
    raise exception 'Maximum % amount is $%', p_kind, private.format_usd(limits.max_amount) using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_within_limits(numeric, text) is
  'Raises ''Minimum/Maximum <kind> amount is $X'' (kind: transaction or withdrawal) when outside the global limits.';
revoke execute on function private.assert_within_limits(numeric, text) from public;
create function private.validate_buy_request() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.cryptocurrency is null or btrim(new.cryptocurrency) = '' then
    raise exception 'Please select a cryptocurrency' using errcode = 'P0001';
  end if;
  perform private.assert_usd_amount(new.amount);
  perform private.assert_within_limits(new.amount, 'transaction');
  return new;
end;
$$;
comment on function private.validate_buy_request() is
  'Refuses a new buy request with a bad amount or outside the limits, with the app''s texts.';
revoke execute on function private.validate_buy_request() from public;
create trigger validate_buy_request_before_insert
  before insert on public.buy_requests
  for each row execute function private.validate_buy_request();
comment on trigger validate_buy_request_before_insert on public.buy_requests is
  'Amount and limit checks for every new buy request.';
create table public.withdraw_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete restrict,
  amount numeric not null,
  withdraw_method public.withdraw_method not null,
  status text not null default 'pending',
  date timestamptz not null default now(),
  encrypted_data text,
  decided_at timestamptz,
  decided_by uuid references public.profiles (id) on delete set null,
  details_key_version smallint,
  payout_destination_id uuid,
  rejection_reason text,
  -- numeric(14,2) in range and scale, declared as a check so that 3 decimals are refused, not rounded.
  constraint withdraw_requests_amount_is_usd check (private.is_usd_amount(amount)),
  constraint withdraw_requests_status_not_blank check (btrim(status) <> ''),
  constraint withdraw_requests_status_length check (char_length(status) <= 50),
  constraint withdraw_requests_encrypted_data_length check (char_length(encrypted_data) <= 20000),
  constraint withdraw_requests_details_key_version_positive check (details_key_version > 0),
  constraint withdraw_requests_rejection_reason_shape check (private.is_rejection_reason_shape(status, rejection_reason))
);
comment on table public.withdraw_requests is
  'A person''s request to be paid out; open (reserving its amount) until approved or rejected.';
comment on column public.withdraw_requests.amount is 'USD to pay out; reserved from the available balance while open.';
comment on column public.withdraw_requests.status is
  'pending, approved, rejected, cancelled (by its owner or an admin) or an admin-defined status type; approved, '
  'rejected and cancelled are final, and only the others reserve the amount.';
comment on column public.withdraw_requests.rejection_reason is
  'Why the admin rejected it, shown to the person (1 to 500 characters).';
comment on column public.withdraw_requests.encrypted_data is
  'iv.ciphertext.wrapped-key of the payout details. Never readable through the API by people (no column grant).';
comment on column public.withdraw_requests.decided_at is 'When the request was approved or rejected.';
comment on column public.withdraw_requests.decided_by is 'The admin who approved or rejected.';
comment on column public.withdraw_requests.details_key_version is
  'Version of the master key that sealed encrypted_data, bound into its additional authenticated data with the '
  'request id, user id and method; null for details sealed before that binding existed.';
create index withdraw_requests_user_id_date_idx on public.withdraw_requests (user_id, date desc);
comment on index public.withdraw_requests_user_id_date_idx is 'A person''s withdraw requests, newest first.';
create index withdraw_requests_date_idx on public.withdraw_requests (date desc);
comment on index public.withdraw_requests_date_idx is 'The admin withdraw request queue, newest first.';
create index withdraw_requests_status_date_idx on public.withdraw_requests (status, date desc);
comment on index public.withdraw_requests_status_date_idx is 'Requests by status, newest first.';
create index withdraw_requests_decided_by_idx on public.withdraw_requests (decided_by);
comment on index public.withdraw_requests_decided_by_idx is 'Supports the foreign key when an admin is deleted.';
create index withdraw_requests_amount_idx on public.withdraw_requests (amount);
comment on index public.withdraw_requests_amount_idx is 'Admin withdraw request queue sorted by amount.';
create index withdraw_requests_method_date_idx on public.withdraw_requests (withdraw_method, date desc);
comment on index public.withdraw_requests_method_date_idx is
  'Admin withdraw request queue filtered by method, newest first.';
alter table public.withdraw_requests enable row level security;
alter table public.withdraw_requests replica identity full;
revoke all on table public.withdraw_requests from anon, authenticated, service_role;
-- Every column but encrypted_data: select=* fails for people, so the app names its columns.
grant select (id, user_id, amount, withdraw_method, status, date, decided_at, decided_by, rejection_reason)
  on table public.withdraw_requests to authenticated;
-- The withdrawal-details function decrypts for admins with the service role.
grant select on table public.withdraw_requests to service_role;
create policy "People can read their own withdraw requests and admins can read all"
  on public.withdraw_requests for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People can read their own withdraw requests and admins can read all" on public.withdraw_requests is
  'Own rows for people; the whole queue for admins. encrypted_data is excluded by the column grant.';
create policy "Withdraw requests are read at aal2 or own ones without a factor"
  on public.withdraw_requests as restrictive for select to authenticated
  using (
    (select coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false))
    or (user_id = (select auth.uid()) and not (select private.has_verified_factor()))
  );
comment on policy "Withdraw requests are read at aal2 or own ones without a factor" on public.withdraw_requests is
  'Other people''s withdraw requests only at aal2 (admins), and a person with a verified factor reads their own '
  'only at aal2 too: a log-in left at the code step reads none.';
alter publication supabase_realtime add table public.buy_requests, public.withdraw_requests;
-- Decided (or cancelled) is final, for sell requests as for buy and withdraw requests: one rule over every column but the
-- decider (which "on delete set null" may clear), so a column added later is covered too.
create function private.keep_decided_requests_final() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status::text in ('approved', 'rejected', 'cancelled')
    and (
      (to_jsonb(new) - 'decided_by') is distinct from (to_jsonb(old) - 'decided_by')
      or (new.decided_by is not null and new.decided_by is distinct from old.decided_by)
    )
  then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.keep_decided_requests_final() is
  'Refuses any change to an approved, rejected or cancelled buy, sell or withdraw request (its decider may only '
  'be cleared).';
create trigger keep_decided_requests_final_before_update
  before update on public.buy_requests
  for each row execute function private.keep_decided_requests_final();
comment on trigger keep_decided_requests_final_before_update on public.buy_requests is
  'Approved and rejected buy requests are final for every writer.';
create trigger keep_decided_requests_final_before_update
  before update on public.withdraw_requests
  for each row execute function private.keep_decided_requests_final();
comment on trigger keep_decided_requests_final_before_update on public.withdraw_requests is
  'Approved and rejected withdraw requests are final for every writer.';
