-- Recovery without the phone: the person asks an admin, who checks who they are outside the app and removes
-- their factors; they sign in with the password alone and enrol again. As GoTrue's admin API
-- (DELETE /admin/users/{id}/factors/{factor_id}) it removes factors only; it is audited like every admin step.
create function public.remove_two_factor(user_id uuid) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.profiles;
  removed integer;
  ended integer;
begin
  perform private.assert_admin();
  select * into target from public.profiles where id = remove_two_factor.user_id and closed_at is null;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  delete from auth.mfa_factors where mfa_factors.user_id = target.id;
  get diagnostics removed = row_count;
  -- As Auth's own sign-out does: the session rows go (their refresh tokens with them), so no session raised
  -- to aal2 by the removed factor can be refreshed.
  delete from auth.sessions where sessions.user_id = target.id;
  get diagnostics ended = row_count;
  perform private.write_audit(
    'user.remove_two_factor',
    'profiles',
    target.id,
    jsonb_build_object('email', target.email, 'factors_removed', removed, 'sessions_ended', ended)
  );
  return removed;
end;
$$;
comment on function public.remove_two_factor(uuid) is
  'Admin only (aal2). Removes every two-factor factor of a person who lost their authenticator and ends their '
  'sessions (they sign in again), recorded in audit_log; answers how many factors were removed. Unknown ids: '
  'P0002.';
revoke execute on function public.remove_two_factor(uuid) from public, anon, authenticated, service_role;
grant execute on function public.remove_two_factor(uuid) to authenticated;
-- Step-up before money moves: a person who has enrolled a second factor asks to buy, sell or withdraw only
-- from a session that verified it (aal2), so a stolen password alone cannot trade or send their balance away.
-- Triggers on the request tables, so every path obeys it; the withdrawals function checks the same first for a
-- clear 403, and create_withdraw_request reads the person's Auth session itself.

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
