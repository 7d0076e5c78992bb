-- PostgreSQL reads a table's check constraints back from their stored expression trees for every statement that
-- writes the table; a buy approval wrote three long ones (the notification kinds 4.6 kB, a transaction's coin fill
-- 3.2 kB, a request's rejection reason 1.9 kB), about a tenth of its instructions. Each is now one call of a
-- PL/pgSQL function, whose plan the session keeps: the same rows are refused, under the same constraint names.

create function private.is_notification_kind(p_kind text) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return p_kind in (
    'buy_request.approved', 'buy_request.rejected', 'sell_request.approved', 'sell_request.rejected',
    'withdraw_request.approved', 'withdraw_request.rejected', 'deposit.completed', 'security.password',
    'security.email', 'security.factor_added', 'security.factor_removed', 'security.sign_in',
    'security.withdrawals_locked', 'admin.person_locked', 'security.frozen', 'security.unfreeze_asked',
    'recurring_buy.placed', 'recurring_buy.skipped', 'price_alert.triggered'
  );
end;
$$;
comment on function private.is_notification_kind(text) is
  'Whether a notification kind is one the app writes and shows (notifications_kind_known).';

create function private.is_coin_fill(p_type public.transaction_type, p_quantity numeric, p_price numeric)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case
    when p_type in ('deposit', 'withdraw') then p_quantity is null and p_price is null
    else (p_quantity is null) = (p_price is null) and (p_quantity is null or (p_quantity > 0 and p_price > 0))
  end;
end;
$$;
comment on function private.is_coin_fill(public.transaction_type, numeric, numeric) is
  'Whether a transaction''s quantity and price fit its type: none for deposits and withdrawals; for buys and '
  'sells both or neither, both positive (transactions_coin_fill).';

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

alter table public.notifications drop constraint notifications_kind_known;
alter table public.notifications add constraint notifications_kind_known check (private.is_notification_kind(kind));

alter table public.transactions drop constraint transactions_coin_fill;
alter table public.transactions add constraint transactions_coin_fill
  check (private.is_coin_fill(type, quantity, price));
comment on constraint transactions_coin_fill on public.transactions is
  'Only buy and sell entries carry a quantity and a price, both positive, both or neither.';

alter table public.buy_requests drop constraint buy_requests_rejection_reason_shape;
alter table public.buy_requests add constraint buy_requests_rejection_reason_shape
  check (private.is_rejection_reason_shape(status::text, rejection_reason));
alter table public.sell_requests drop constraint sell_requests_rejection_reason_shape;
alter table public.sell_requests add constraint sell_requests_rejection_reason_shape
  check (private.is_rejection_reason_shape(status::text, rejection_reason));
alter table public.withdraw_requests drop constraint withdraw_requests_rejection_reason_shape;
alter table public.withdraw_requests add constraint withdraw_requests_rejection_reason_shape
  check (private.is_rejection_reason_shape(status, rejection_reason));
