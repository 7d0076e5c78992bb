-- The watchlist: the coins a person starred on the market table, shown first there. Each person's own,
-- kept per person on the server so it follows them to another browser; nobody else reads it, admins
-- included (it says nothing about money).

create table public.watchlist (
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  coin_id text not null,
  starred_at timestamptz not null default now(),
  primary key (user_id, coin_id),
  -- A market-data id as CoinGecko writes them (bitcoin, usd-coin, matic-network).
  constraint watchlist_coin_id_is_market_id check (coin_id ~ '^[a-z0-9][a-z0-9-]{0,99}$')
);
comment on table public.watchlist is 'Coins a person starred on the market table; theirs alone.';
comment on column public.watchlist.user_id is 'Whose star; the signed-in person unless given (and then only them).';
comment on column public.watchlist.coin_id is 'The coin''s market-data id (e.g. bitcoin), never its symbol.';
comment on column public.watchlist.starred_at is 'When the coin was starred.';
alter table public.watchlist enable row level security;
revoke all on table public.watchlist from anon, authenticated, service_role;
grant select, insert (user_id, coin_id), delete on table public.watchlist to authenticated;
create policy "People can read their own watchlist"
  on public.watchlist for select to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can read their own watchlist" on public.watchlist is
  'Own stars only; admins do not see anyone''s.';
create policy "People can star coins for themselves"
  on public.watchlist for insert to authenticated
  with check (user_id = (select auth.uid()));
comment on policy "People can star coins for themselves" on public.watchlist is
  'Nobody stars a coin in someone else''s watchlist.';
create policy "People can unstar coins of their own watchlist"
  on public.watchlist for delete to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can unstar coins of their own watchlist" on public.watchlist is
  'Nobody removes someone else''s stars.';
-- The market table shows the top coins; a bound keeps one person from filling the table without end.
create function private.watchlist_within_bound() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select count(*) from public.watchlist where user_id = new.user_id) >= 100 then
    raise exception 'A watchlist holds at most 100 coins' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.watchlist_within_bound() is 'Refuses a star past the 100th of a person''s watchlist.';
revoke execute on function private.watchlist_within_bound() from public;
create trigger watchlist_within_bound
  before insert on public.watchlist
  for each row execute function private.watchlist_within_bound();
comment on trigger watchlist_within_bound on public.watchlist is 'At most 100 stars per person.';
