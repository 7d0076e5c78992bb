-- The advisors' unindexed foreign key: an entry's corrections are found, and its foreign key checked, by index.
create index entries_corrects_idx on ledger.entries (corrects) where corrects is not null;
comment on index ledger.entries_corrects_idx is 'The entries that correct a given one (and the foreign key''s checks).';
