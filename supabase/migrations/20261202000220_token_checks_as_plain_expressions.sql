-- Three checks of every money step wrapped the caller's token in a subquery, `(select auth.uid())`: right in a
-- policy (evaluated once per statement), but in PL/pgSQL it makes the expression a statement of its own, planned
-- and started through the executor each time (five per buy approval).
-- Called plainly, PL/pgSQL evaluates them as expressions; the values are the same.

create or replace function private.session_is_aal2() returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce((auth.jwt() ->> 'aal') = 'aal2', false);
end;
$$;

create or replace function private.replay_idempotent_call(p_key uuid, p_operation text, p_request jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := auth.uid();
  earlier private.idempotency_keys;
begin
  if p_key is null then
    raise exception 'Idempotency key is required' using errcode = 'P0001';
  end if;
  if actor is null then
    raise exception 'Sign in to continue' using errcode = '42501';
  end if;
  -- A concurrent call with the same key waits here until the first one commits (then replays it) or
  -- rolls back (then this call goes ahead): never two rows for one key.
  insert into private.idempotency_keys (actor_id, key, operation, request)
  values (actor, p_key, p_operation, p_request)
  on conflict do nothing;
  if found then
    return null;
  end if;
  select * into earlier from private.idempotency_keys where actor_id = actor and key = p_key;
  if earlier.operation <> p_operation or earlier.request <> p_request then
    raise exception 'This request was already submitted with different details' using errcode = 'P0001';
  end if;
  return coalesce(earlier.response, 'null'::jsonb);
end;
$$;

create or replace function private.assert_not_own_account(p_user_id uuid) returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_user_id = auth.uid() then
    raise exception 'This is your own account: another admin must decide this' using errcode = 'P0001';
  end if;
end;
$$;
