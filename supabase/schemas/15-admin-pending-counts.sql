-- The admin navigation's live pending counts: one call answers every queue, counted in SQL from the
-- (status, date desc) index of each request table (only the 'pending' range is read), so the
-- count stays cheap however many decided requests pile up, and no request rows travel to the browser.

create function public.admin_pending_counts()
returns table (buy_requests bigint, withdraw_requests bigint, sell_requests bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
  select
    (select count(*) from public.buy_requests where status = 'pending'),
    (select count(*) from public.withdraw_requests where status = 'pending'),
    (select count(*) from public.sell_requests where status = 'pending');
end;
$$;
comment on function public.admin_pending_counts() is
  'How many buy, withdraw and sell requests wait for a decision (status pending); admins only (42501 otherwise).';
revoke execute on function public.admin_pending_counts() from public, anon;
grant execute on function public.admin_pending_counts() to authenticated, service_role;
