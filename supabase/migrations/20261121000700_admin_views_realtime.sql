-- Admin lists with the person's name and e-mail (so the REST layer needs no resource embedding),
-- and the live tables of Realtime.

create view public.transactions_with_user
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
  profiles.email
from public.transactions
left join public.profiles on profiles.id = transactions.user_id;
comment on view public.transactions_with_user is
  'Transactions with the person''s full name and e-mail, for the admin list. Security invoker: same rows as transactions.';

create view public.buy_requests_with_user
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
  profiles.email
from public.buy_requests
left join public.profiles on profiles.id = buy_requests.user_id;
comment on view public.buy_requests_with_user is
  'Buy requests with the person''s full name and e-mail, for the admin queue. Security invoker: same rows as buy_requests.';

create view public.withdraw_requests_with_user
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
  profiles.email
from public.withdraw_requests
left join public.profiles on profiles.id = withdraw_requests.user_id;
comment on view public.withdraw_requests_with_user is
  'Withdraw requests (without encrypted_data) with the person''s full name and e-mail, for the admin queue. '
  'Security invoker: same rows as withdraw_requests.';

revoke all on table public.transactions_with_user, public.buy_requests_with_user, public.withdraw_requests_with_user
  from anon, authenticated, service_role;
grant select on table public.transactions_with_user, public.buy_requests_with_user, public.withdraw_requests_with_user
  to authenticated, service_role;

-- Realtime sends old rows of updates and deletes only with replica identity full; a subscriber gets
-- a change only when RLS lets them select the row (and only the columns they may select).
alter table public.buy_requests replica identity full;
alter table public.withdraw_requests replica identity full;
alter table public.transactions replica identity full;
alter publication supabase_realtime add table public.buy_requests, public.withdraw_requests, public.transactions;
