-- Sell requests follow the other money tables (20261126000320_code_for_people_with_a_factor.sql): other
-- people's only at aal2, and a person with a verified factor reads their own only at aal2, so a log-in left
-- at the code step reads none. One restrictive policy replaces the aal2 one sell requests were made with.

drop policy "Only aal2 sessions can read other people's sell requests" on public.sell_requests;

create policy "Sell requests are read at aal2 or own ones without a factor"
  on public.sell_requests as restrictive for select to authenticated
  using (
    (select coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false))
    or (user_id = (select auth.uid()) and not (select private.has_verified_factor()))
  );
comment on policy "Sell requests are read at aal2 or own ones without a factor" on public.sell_requests is
  'Other people''s sell requests only at aal2 (admins), and a person with a verified factor reads their own '
  'only at aal2 too: a log-in left at the code step reads none.';
