/**
 * POST /functions/v1/ledger-seal — seals the journal's committed entries into the hash chain (seal_ledger):
 * writers that found the chain's head busy queued theirs, and the next writer or this call seals them. Called
 * with the service-role key every second by a schedule (the local stack's `schedules`; hosted, Supabase Cron,
 * docs/deploying.md); answers how many it sealed, the head's seq and how many await the next seal.
 */
import { jsonResponse, requireScheduler, serveJson, serviceClient } from '../_shared/http.ts';

Deno.serve(
  serveJson('Failed to seal the ledger', async (request) => {
    requireScheduler(request, 'Only the scheduler seals the ledger');
    const { data, error } = await serviceClient().rpc('seal_ledger');
    if (error) throw error;
    return jsonResponse(200, data);
  }),
);
