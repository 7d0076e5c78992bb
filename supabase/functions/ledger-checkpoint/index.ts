/**
 * POST /functions/v1/ledger-checkpoint — the daily checkpoint of the books (create_ledger_checkpoint): the chain
 * head, the totals owed per currency and the root of the Merkle sum tree over every person's balances, which
 * the public proof page then shows. Called with the service-role key by a schedule (Supabase Cron, daily; the
 * local stack's `schedules`); answers the checkpoint's published summary.
 */
import { environment, HttpError, jsonResponse, serveJson, serviceClient } from '../_shared/http.ts';

Deno.serve(
  serveJson('Failed to make the ledger checkpoint', async (request) => {
    const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (token !== environment('SUPABASE_SERVICE_ROLE_KEY')) {
      throw new HttpError(403, 'Only the scheduler makes the daily checkpoint');
    }
    const { data, error } = await serviceClient().rpc('create_ledger_checkpoint');
    if (error) throw error;
    return jsonResponse(200, data);
  }),
);
