/**
 * POST /functions/v1/ledger-checkpoint — the daily checkpoint of the books (create_ledger_checkpoint): the chain
 * head, the totals owed per currency and the root of the Merkle sum tree over every person's balances, which
 * the public proof page then shows. Called with the service-role key by a schedule (Supabase Cron, daily; the
 * local stack's `schedules`); answers the checkpoint's published summary.
 */
import { jsonResponse, requireScheduler, serveJson, serviceClient } from '../_shared/http.ts';

Deno.serve(
  serveJson('Failed to make the ledger checkpoint', async (request) => {
    requireScheduler(request, 'Only the scheduler makes the daily checkpoint');
    const { data, error } = await serviceClient().rpc('create_ledger_checkpoint');
    if (error) throw error;
    return jsonResponse(200, data);
  }),
);
