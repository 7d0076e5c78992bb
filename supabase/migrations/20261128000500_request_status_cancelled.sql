-- A person may cancel their pending buy or sell request (issue 30): a fourth, final state. Its own migration, so
-- the next one (a new transaction) may use the value.
alter type public.request_status add value 'cancelled';
