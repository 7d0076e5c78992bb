-- Admin lists filtered and sorted on the server: the person's available balance beside each request and
-- transaction (so a decision is taken knowing it), and indexes for the filters and sorts the lists offer.

-- The balance is a scalar subquery rather than a join: Postgres drops it from any statement that does not
-- read the column (the `count(*)` of a page), and computes it for the page's rows only.
create or replace view public.transactions_with_user
with (security_invoker = true)
as
select
  transactions.id,
  transactions.user_id,
  transactions.type,
  transactions.amount,
  transactions.status,
  transactions.cryptocurrency,
  transactions.buy_request_id,
  transactions.withdraw_request_id,
  transactions.date,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = transactions.user_id) as available
from public.transactions
left join public.profiles on profiles.id = transactions.user_id;
comment on column public.transactions_with_user.available is
  'The person''s available balance now (wallet_balances.available), shown beside the transaction.';

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
   where wallet_balances.user_id = buy_requests.user_id) as available
from public.buy_requests
left join public.profiles on profiles.id = buy_requests.user_id;
comment on column public.buy_requests_with_user.available is
  'The person''s available balance now (wallet_balances.available): what an approval would take from.';

create or replace view public.withdraw_requests_with_user
with (security_invoker = true)
as
select
  withdraw_requests.id,
  withdraw_requests.user_id,
  withdraw_requests.amount,
  withdraw_requests.withdraw_method,
  withdraw_requests.status,
  withdraw_requests.date,
  withdraw_requests.decided_at,
  withdraw_requests.decided_by,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = withdraw_requests.user_id) as available
from public.withdraw_requests
left join public.profiles on profiles.id = withdraw_requests.user_id;
comment on column public.withdraw_requests_with_user.available is
  'The person''s available balance now (wallet_balances.available; open withdraw requests already reserved).';

-- Sorting a list by amount, and filtering transactions by type or status and withdrawals by method, newest
-- first within the filter; the person filter uses the existing (user_id, date desc) indexes.
create index transactions_amount_idx on public.transactions (amount);
comment on index public.transactions_amount_idx is 'Admin transaction list sorted by amount.';
create index transactions_type_date_idx on public.transactions (type, date desc);
comment on index public.transactions_type_date_idx is 'Admin transaction list filtered by type, newest first.';
create index transactions_status_date_idx on public.transactions (status, date desc);
comment on index public.transactions_status_date_idx is 'Admin transaction list filtered by status, newest first.';
create index buy_requests_amount_idx on public.buy_requests (amount);
comment on index public.buy_requests_amount_idx is 'Admin buy request queue sorted by amount.';
create index withdraw_requests_amount_idx on public.withdraw_requests (amount);
comment on index public.withdraw_requests_amount_idx is 'Admin withdraw request queue sorted by amount.';
create index withdraw_requests_method_date_idx on public.withdraw_requests (withdraw_method, date desc);
comment on index public.withdraw_requests_method_date_idx is
  'Admin withdraw request queue filtered by method, newest first.';
