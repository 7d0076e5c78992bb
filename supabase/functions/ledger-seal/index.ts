/**
 * POST /functions/v1/ledger-seal — seals the journal's committed entries into the hash chain (seal_ledger):
 * writers that found the chain's head busy queued theirs, and the next writer or this call seals them. Called
 * with the service-role key every second by a schedule (the local stack's `schedules`; hosted, Supabase Cron,
 * docs/deploying.md); answers how many it sealed, the head's seq and how many await the next seal.
 */
import { environment, HttpError, jsonResponse, serveJson, serviceClient } from '../_shared/http.ts';

Deno.serve(
  serveJson('Failed to seal the ledger', async (request) => {
    const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (token !== environment('SUPABASE_SERVICE_ROLE_KEY')) {
      throw new HttpError(403, 'Only the scheduler seals the ledger');
    }
    const { data, error } = await serviceClient().rpc('seal_ledger');
    if (error) throw error;
    return jsonResponse(200, data);
  }),
);
