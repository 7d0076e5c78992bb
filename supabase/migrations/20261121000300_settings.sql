-- Settings managed by admins: the status types they add to the fixed statuses, and the single row
-- of global transaction limits. Every admin change is recorded in the audit log.

create table public.status_types (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamptz not null default now(),
  constraint status_types_name_key unique (name),
  constraint status_types_name_not_blank check (btrim(name) <> ''),
  constraint status_types_name_length check (char_length(name) <= 50),
  constraint status_types_name_trimmed check (name = btrim(name)),
  constraint status_types_name_not_built_in check (lower(name) not in ('pending', 'complete', 'approved', 'rejected'))
);
comment on table public.status_types is
  'Statuses admins add to pending/complete (transactions) and pending/approved/rejected (withdraw requests).';
comment on column public.status_types.name is 'The status text as stored on transactions and withdraw requests.';

create index status_types_created_at_idx on public.status_types (created_at desc);
comment on index public.status_types_created_at_idx is 'The admin status type list, newest first.';

alter table public.status_types enable row level security;
revoke all on table public.status_types from anon, authenticated, service_role;
grant select, insert (name), delete on table public.status_types to authenticated;
grant select on table public.status_types to service_role;

create policy "Signed-in people can read the status types"
  on public.status_types for select to authenticated
  using (true);
comment on policy "Signed-in people can read the status types" on public.status_types is
  'Status types are labels every signed-in screen may show.';

create policy "Admins can create status types"
  on public.status_types for insert to authenticated
  with check ((select private.is_admin()));
comment on policy "Admins can create status types" on public.status_types is 'Only admins add statuses.';

create policy "Admins can delete status types"
  on public.status_types for delete to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can delete status types" on public.status_types is
  'Only admins remove statuses; rows already carrying the status keep their text.';

create function private.normalise_status_type() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  if new.name is null or new.name = '' then
    raise exception 'Status type name is required' using errcode = 'P0001';
  end if;
  if lower(new.name) in ('pending', 'complete', 'approved', 'rejected') then
    raise exception 'Status "%" is built in', new.name using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.normalise_status_type() is
  'Trims a new status type name and refuses blank or built-in names with the app''s texts.';

create trigger normalise_status_type_before_write
  before insert or update on public.status_types
  for each row execute function private.normalise_status_type();
comment on trigger normalise_status_type_before_write on public.status_types is
  'Clear errors before the check constraints.';

create table public.transaction_limits (
  id boolean primary key default true,
  -- numeric(14,2) in range and scale, declared as checks so that 3 decimals are refused, not rounded.
  min_amount numeric not null default 0,
  max_amount numeric not null default 0,
  updated_at timestamptz not null default now(),
  constraint transaction_limits_single_row check (id),
  constraint transaction_limits_not_negative check (min_amount >= 0 and max_amount >= 0),
  constraint transaction_limits_are_usd check (
    min_amount < 1e12 and max_amount < 1e12 and min_amount = round(min_amount, 2) and max_amount = round(max_amount, 2)
  ),
  constraint transaction_limits_min_below_max check (min_amount < max_amount or (min_amount = 0 and max_amount = 0))
);
comment on table public.transaction_limits is
  'The single row of global limits for buy and withdraw amounts (USD). Both 0 means no limits are set.';
comment on column public.transaction_limits.id is 'Always true: the primary key that keeps this table to one row.';
comment on column public.transaction_limits.min_amount is 'Smallest amount of a buy or withdraw request.';
comment on column public.transaction_limits.max_amount is 'Largest amount of a buy or withdraw request.';

insert into public.transaction_limits (id) values (true);

alter table public.transaction_limits enable row level security;
revoke all on table public.transaction_limits from anon, authenticated, service_role;
grant select, update (min_amount, max_amount) on table public.transaction_limits to authenticated;
grant select on table public.transaction_limits to service_role;

create policy "Signed-in people can read the transaction limits"
  on public.transaction_limits for select to authenticated
  using (true);
comment on policy "Signed-in people can read the transaction limits" on public.transaction_limits is
  'Every signed-in screen with an amount field shows the limits.';

create policy "Admins can update the transaction limits"
  on public.transaction_limits for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
comment on policy "Admins can update the transaction limits" on public.transaction_limits is 'Only admins set limits.';

create function private.validate_transaction_limits() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.min_amount is null or new.max_amount is null
    or new.min_amount = 'NaN'::numeric or new.max_amount = 'NaN'::numeric then
    raise exception 'Amounts must be numbers' using errcode = 'P0001';
  end if;
  if new.min_amount <> round(new.min_amount, 2) or new.max_amount <> round(new.max_amount, 2) then
    raise exception 'Amounts must have at most 2 decimal places' using errcode = 'P0001';
  end if;
  if new.max_amount >= 1e12 then
    raise exception 'Amount is too large' using errcode = 'P0001';
  end if;
  if new.min_amount < 0 or new.max_amount < 0 then
    raise exception 'Amounts cannot be negative' using errcode = 'P0001';
  end if;
  if new.min_amount >= new.max_amount and not (new.min_amount = 0 and new.max_amount = 0) then
    raise exception 'Minimum amount must be less than maximum amount' using errcode = 'P0001';
  end if;
  new.updated_at := now();
  return new;
end;
$$;
comment on function private.validate_transaction_limits() is
  'Refuses negative or inverted limits with the app''s own texts before the check constraints.';

create trigger validate_transaction_limits_before_update
  before update on public.transaction_limits
  for each row execute function private.validate_transaction_limits();
comment on trigger validate_transaction_limits_before_update on public.transaction_limits is
  'Clear errors for bad limits.';

create function private.audit_settings_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'status_types' then
    perform private.write_audit(
      'status_type.' || lower(tg_op),
      'status_types',
      coalesce(new.id, old.id),
      jsonb_build_object('name', coalesce(new.name, old.name))
    );
  else
    perform private.write_audit(
      'transaction_limits.update',
      'transaction_limits',
      null,
      jsonb_build_object(
        'old', jsonb_build_object('min_amount', old.min_amount, 'max_amount', old.max_amount),
        'new', jsonb_build_object('min_amount', new.min_amount, 'max_amount', new.max_amount)
      )
    );
  end if;
  return null;
end;
$$;
comment on function private.audit_settings_change() is 'Records status type and limit changes in audit_log.';
revoke execute on function private.audit_settings_change() from public;

create trigger audit_status_type_change
  after insert or delete on public.status_types
  for each row execute function private.audit_settings_change();
comment on trigger audit_status_type_change on public.status_types is 'Every status type change is audited.';

create trigger audit_transaction_limits_change
  after update on public.transaction_limits
  for each row execute function private.audit_settings_change();
comment on trigger audit_transaction_limits_change on public.transaction_limits is 'Every limit change is audited.';
