-- Seed data (docs/architecture.md §5): the three accounts (two admins, for the four-eyes rule, and a user), a
-- completed deposit for the user, the limits, the status types and a few days of prices. Loads on the local stack and on `supabase start` alike; safe
-- to run again.

-- Auth users as GoTrue stores them: bcrypt hashes, confirmed e-mail, empty (not null) token columns,
-- and an `email` identity, without which GoTrue refuses a password sign-in.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, reauthentication_token
)
values
  (
    '00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-00000000a0a1', 'authenticated',
    'authenticated', 'admin@example.com', extensions.crypt('admin-pass-123', extensions.gen_salt('bf')), now(),
    '{"provider": "email", "providers": ["email"]}', '{"full_name": "Ada Admin"}', now(), now(),
    '', '', '', '', '', ''
  ),
  (
    '00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-00000000a0a2', 'authenticated',
    'authenticated', 'admin2@example.com', extensions.crypt('admin2-pass-123', extensions.gen_salt('bf')), now(),
    '{"provider": "email", "providers": ["email"]}', '{"full_name": "Abe Admin"}', now(), now(),
    '', '', '', '', '', ''
  ),
  (
    '00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-00000000a0b1', 'authenticated',
    'authenticated', 'user@example.com', extensions.crypt('user-pass-123', extensions.gen_salt('bf')), now(),
    '{"provider": "email", "providers": ["email"]}', '{"full_name": "Uma User"}', now(), now(),
    '', '', '', '', '', ''
  )
on conflict (id) do nothing;

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select
  users.id, users.id::text, users.id,
  jsonb_build_object('sub', users.id::text, 'email', users.email, 'email_verified', true),
  'email', now(), now(), now()
from auth.users as users
where users.id in (
  '00000000-0000-4000-8000-00000000a0a1', '00000000-0000-4000-8000-00000000a0a2', '00000000-0000-4000-8000-00000000a0b1'
)
on conflict do nothing;

-- The profile trigger made every user `user`; admins are made by a database operator, as here. Two, so a
-- decision above the four-eyes threshold can be proposed by one and confirmed by the other.
update public.profiles set role = 'admin'
where id in ('00000000-0000-4000-8000-00000000a0a1', '00000000-0000-4000-8000-00000000a0a2');

-- Admins work at aal2, so each seeded admin has a verified TOTP factor. Its secret is published in the README
-- for local use only: add it to an authenticator app (or let the tests compute codes from it). Never seed a
-- known secret into a production project.
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
values (
  '00000000-0000-4000-8000-00000000f2a1', '00000000-0000-4000-8000-00000000a0a1', 'Seeded authenticator',
  'totp', 'verified', now(), now(), 'COINVAULTLOCALADMINSECRETTOTPKEY'
), (
  '00000000-0000-4000-8000-00000000f2a2', '00000000-0000-4000-8000-00000000a0a2', 'Seeded authenticator',
  'totp', 'verified', now(), now(), 'COINVAULTLOCALSECONDADMINTOTPKEY'
)
on conflict (id) do nothing;

insert into public.transactions (id, user_id, type, amount, status)
values ('00000000-0000-4000-8000-0000000de901', '00000000-0000-4000-8000-00000000a0b1', 'deposit', 5000, 'complete')
on conflict (id) do nothing;

-- Only while the limits are still the migration's "none set", so a restart keeps an admin's limits.
update public.transaction_limits set min_amount = 10, max_amount = 10000
where min_amount = 0 and max_amount = 0;

insert into public.status_types (name) values ('processing'), ('cancelled')
on conflict (name) do nothing;

-- Three days of price history for the simulator's top 10 (around the simulator's reference prices), so the
-- portfolio chart has something to draw before the market function has recorded much: one snapshot an
-- hour (kept a year) and, for the last day, one a minute (kept a day), as the market function keeps them.
insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
select
  coins.id,
  round((coins.base * (1 + coins.swing * sin(extract(epoch from moments.at) / 20000 + coins.phase)))::numeric, 8),
  moments.at,
  moments.at = date_trunc('hour', moments.at)
from (
  values
    ('bitcoin', 95000, 0.05, 0.0), ('ethereum', 3400, 0.07, 1.0), ('tether', 1, 0.0005, 2.0),
    ('ripple', 2.3, 0.09, 3.0), ('binancecoin', 650, 0.06, 4.0), ('solana', 190, 0.1, 5.0),
    ('usd-coin', 1, 0.0003, 6.0), ('dogecoin', 0.32, 0.12, 0.5), ('cardano', 0.9, 0.1, 1.5),
    ('tron', 0.25, 0.06, 2.5)
) as coins (id, base, swing, phase)
cross join (
  select date_trunc('hour', now()) - make_interval(hours => n) as at from generate_series(24, 72) as n
  union all
  select date_trunc('minute', now()) - make_interval(mins => n) from generate_series(1, 24 * 60 - 1) as n
) as moments
on conflict do nothing;
