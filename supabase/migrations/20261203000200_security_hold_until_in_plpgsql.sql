-- The hold's end, read by the money gate and the admin Users list once per row, in PL/pgSQL: its statement's
-- plan is kept for the session, where a SQL function called inside another function's statement is parsed
-- and planned again on every call.
create or replace function private.security_hold_until(p_user_id uuid)
returns table (hold_until timestamptz, change text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select hold.changed_at + make_interval(hours => limits.security_hold_hours), hold.change
  from private.security_holds as hold
  cross join public.transaction_limits as limits
  where hold.user_id = p_user_id
    and hold.ended_early_at is null
    and hold.changed_at + make_interval(hours => limits.security_hold_hours) > now();
end;
$$;
