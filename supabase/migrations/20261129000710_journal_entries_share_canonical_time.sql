-- The security log (20261129000200) gave every chain one canonical moment, ledger.canonical_time; sealing after
-- commit (20261129000500, 20261129000510) then redefined the entry's canonical form in PL/pgSQL from the version
-- before it. This is both: PL/pgSQL, and the shared moment (the same text, so no hash changes).
create or replace function ledger.canonical_entry(
  p_seq bigint,
  p_prev_hash bytea,
  p_recorded_at timestamptz,
  p_transaction_id uuid,
  p_transaction_type public.transaction_type,
  p_transaction_status text,
  p_corrects bigint,
  p_postings text
) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return '["coinvault-ledger-entry-v1",' || p_seq || ',"' || encode(p_prev_hash, 'hex') || '","'
    || ledger.canonical_time(p_recorded_at) || '",'
    || coalesce(to_json(p_transaction_id::text)::text, 'null') || ','
    || coalesce(to_json(p_transaction_type::text)::text, 'null') || ','
    || to_json(p_transaction_status)::text || ','
    || coalesce(p_corrects::text, 'null') || ','
    || p_postings || ']';
end;
$$;

comment on function ledger.entry_hash(text) is
  'SHA-256 of a canonical form''s UTF-8 bytes: the hash of every chain (the journal''s entries, each person''s '
  'security log).';
