-- Profiles: one per Auth user, created by a trigger on auth.users. The role, the ledger balance and
-- the wallet code belong to the database; a person may change only their full name.

create table public.profiles (
  -- No foreign key to auth.users: a closed account keeps its profile, without its sign-in.
  id uuid primary key,
  email text,
  full_name text,
  role public.app_role not null default 'user',
  balance numeric(14, 2) not null default 0,
  wallet_code text not null,
  registration_date timestamptz not null default now(),
  closed_at timestamptz,
  constraint profiles_wallet_code_key unique (wallet_code),
  constraint profiles_full_name_length check (char_length(full_name) <= 200),
  constraint profiles_wallet_code_is_bech32 check (wallet_code ~ '^bc1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{39,59}$'),
  constraint profiles_balance_not_negative check (balance >= 0)
);
comment on table public.profiles is 'One row per Auth user: identity shown in the app, role, ledger balance, wallet code.';
comment on column public.profiles.email is 'Copy of auth.users.email, kept in step by triggers, for admin lists.';
comment on column public.profiles.full_name is 'From the sign-up metadata; the only column a person may change.';
comment on column public.profiles.role is 'Always user at sign-up; admins are made by a database operator.';
comment on column public.profiles.closed_at is
  'When the account was closed (delete_user): the row stays, without name or e-mail, as the pseudonymous owner '
  'of its ledger entries and requests.';
comment on column public.profiles.balance is
  'Ledger balance: complete deposits + sells - complete withdraws - buys. Kept by the transactions trigger.';
comment on column public.profiles.wallet_code is 'bc1 + 39 to 59 bech32 characters from a cryptographic source.';
comment on column public.profiles.registration_date is 'When the Auth user was created.';
create index profiles_registration_date_idx on public.profiles (registration_date desc);
comment on index public.profiles_registration_date_idx is 'The admin user list, newest first.';
alter table public.profiles enable row level security;
revoke all on table public.profiles from anon, authenticated, service_role;
grant select, update (full_name) on table public.profiles to authenticated;
grant select on table public.profiles to service_role;
create function private.is_admin() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return private.session_is_aal2() and exists (
    select 1 from public.profiles where id = (select auth.uid()) and role = 'admin'
  );
end;
$$;
comment on function private.is_admin() is
  'True only when the signed-in person''s stored role is admin and their session is at aal2. Security definer so '
  'policies on profiles do not recurse.';
revoke execute on function private.is_admin() from public;
grant execute on function private.is_admin() to authenticated, service_role;
-- The audit log (01-foundation.sql) is read through is_admin(), defined here.
create policy "Admins can read the audit log"
  on public.audit_log for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the audit log" on public.audit_log is 'Nobody else sees who did what.';
create policy "Only aal2 sessions can read the audit log"
  on public.audit_log as restrictive for select to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the audit log" on public.audit_log is
  'Who did what (and audit_log_with_actor) needs a second factor.';
create policy "People can read their own profile and admins can read every profile"
  on public.profiles for select to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People can read their own profile and admins can read every profile" on public.profiles is
  'A person sees only their own profile; admins manage every user.';
create policy "People can update their own profile"
  on public.profiles for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));
comment on policy "People can update their own profile" on public.profiles is
  'Rows: only one''s own. Columns: the update grant allows full_name only (not role, balance or wallet_code).';
-- Restrictive policies: AND-ed with the permissive ones, per command.
create policy "Only aal2 sessions can read other people's profiles"
  on public.profiles as restrictive for select to authenticated
  using (id = (select auth.uid()) or ((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read other people's profiles" on public.profiles is
  'An admin signed in with a password only sees their own profile (enough for the app to send them to the code step).';
create function private.generate_wallet_code() returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  bech32_alphabet constant text := 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  length_byte integer;
  code_length integer;
  random_bytes bytea;
  code text := 'bc1';
begin
  -- Bytes of 252 and above are redrawn so that every length from 39 to 59 is equally likely.
  loop
    length_byte := get_byte(extensions.gen_random_bytes(1), 0);
    exit when length_byte < 252;
  end loop;
  code_length := 39 + length_byte % 21;
  random_bytes := extensions.gen_random_bytes(code_length);
  -- 256 is a multiple of 32, so byte % 32 picks every character equally often.
  for character_index in 0 .. code_length - 1 loop
    code := code || substr(bech32_alphabet, get_byte(random_bytes, character_index) % 32 + 1, 1);
  end loop;
  return code;
end;
$$;
comment on function private.generate_wallet_code() is
  'A new wallet code: bc1 + 39 to 59 characters of the bech32 alphabet from pgcrypto''s random bytes.';
revoke execute on function private.generate_wallet_code() from public;
create function private.create_profile_for_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  violated_constraint text;
begin
  -- A clash of two random wallet codes is astronomically rare; still, retry rather than fail a sign-up.
  for attempt in 1 .. 5 loop
    begin
      insert into public.profiles (id, email, full_name, role, wallet_code, registration_date)
      values (
        new.id,
        new.email,
        nullif(btrim(new.raw_user_meta_data ->> 'full_name'), ''),
        'user',
        private.generate_wallet_code(),
        coalesce(new.created_at, now())
      );
      return new;
    exception when unique_violation then
      get stacked diagnostics violated_constraint = constraint_name;
      if violated_constraint <> 'profiles_wallet_code_key' or attempt = 5 then
        raise;
      end if;
    end;
  end loop;
  return new;
end;
$$;
comment on function private.create_profile_for_new_user() is
  'Creates the profile of a new Auth user: role user whatever the sign-up metadata says, a fresh unique wallet code.';
revoke execute on function private.create_profile_for_new_user() from public;
create trigger create_profile_after_sign_up
  after insert on auth.users
  for each row execute function private.create_profile_for_new_user();
comment on trigger create_profile_after_sign_up on auth.users is 'Every Auth user gets a profile.';
create function private.sync_profile_email() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = new.email where id = new.id;
  return new;
end;
$$;
comment on function private.sync_profile_email() is 'Copies a changed Auth e-mail address to the profile.';
revoke execute on function private.sync_profile_email() from public;
create trigger sync_profile_email_after_change
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.sync_profile_email();
comment on trigger sync_profile_email_after_change on auth.users is 'Keeps profiles.email equal to auth.users.email.';
