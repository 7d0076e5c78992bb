-- Restrictions shown before the work (issue 30): the person reads what the money gate would refuse them (a
-- lock, a freeze, a security hold and its end) before filling a buy, sell or withdraw form.
create function public.my_restrictions()
returns table (movement text, refusal text)
language sql
stable
security definer
set search_path = ''
as $$
  select movement, private.money_gate((select auth.uid()), movement, 'person')
  from unnest(array['buy', 'sell', 'withdraw']) as movement
  where (select auth.uid()) is not null
    -- A log-in left at the code step reads nothing of a factor holder's money, this included.
    and (coalesce((select auth.jwt()) ->> 'aal', '') = 'aal2' or not (select private.has_verified_factor()));
$$;
comment on function public.my_restrictions() is
  'What the caller cannot do now and why, in their words, before they fill a form: per movement (buy, sell, '
  'withdraw) the money gate''s refusal (a lock, a freeze, a security hold with its end), null when allowed. '
  'Only ever the caller''s own; nothing at aal1 for a person with a verified factor.';
revoke execute on function public.my_restrictions() from public, anon, authenticated, service_role;
grant execute on function public.my_restrictions() to authenticated;
