-- The account page lists the person's signed-in sessions. auth.sessions is Auth's own table (not reachable
-- through the API), so one security-definer function answers each person about their own sessions only:
-- the device (user agent), address and last activity GoTrue records for each (supabase/auth's migration
-- that added refreshed_at, user_agent and ip to sessions), and which one is asking.

create function public.list_my_sessions()
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
comment on function public.list_my_sessions() is
  'The caller''s own signed-in sessions (device, address, sign-in and last activity, assurance level), the '
  'session asking first (is_current). Ending sessions is Auth''s: POST /logout?scope=others.';
revoke execute on function public.list_my_sessions() from public, anon, authenticated, service_role;
grant execute on function public.list_my_sessions() to authenticated;
