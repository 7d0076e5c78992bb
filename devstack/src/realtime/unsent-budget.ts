import type { WebSocket } from 'ws';

/**
 * Unsent frames all sockets together may hold. One process serves every socket here (Supabase Realtime
 * gives each its own process with its own heap limit), so a per-socket bound alone lets memory grow with
 * the number of slow clients: 50 sockets at 8 MB each is 400 MB. Past this budget the clients holding
 * most are cut off first, as Supabase Realtime cuts off a socket past its heap limit.
 */
export const defaultMaxUnsentBytes = 64 * 1024 * 1024;

/** The budget on unsent frames shared by every socket of one Realtime. */
export class UnsentBudget {
  private readonly sockets = new Set<WebSocket>();
  private checkQueued = false;

  constructor(readonly maxBytes: number) {}

  add(ws: WebSocket) {
    this.sockets.add(ws);
    ws.once('close', () => this.sockets.delete(ws));
  }

  /**
   * A socket's frames of this event-loop turn went to the kernel: what it could not take yet is counted
   * once every socket's have gone (an immediate queued now runs after those already queued).
   */
  written() {
    if (this.checkQueued) return;
    this.checkQueued = true;
    setImmediate(() => {
      this.checkQueued = false;
      this.cutOffSlowest();
    });
  }

  private cutOffSlowest() {
    let total = 0;
    for (const ws of this.sockets) total += ws.bufferedAmount;
    if (total <= this.maxBytes) return;
    const mostUnsentFirst = [...this.sockets].sort((a, b) => b.bufferedAmount - a.bufferedAmount);
    for (const ws of mostUnsentFirst) {
      if (total <= this.maxBytes) return;
      total -= ws.bufferedAmount;
      console.error(
        `realtime: a client read too slowly (${ws.bufferedAmount} bytes unsent while all clients' passed ${this.maxBytes}); closed`,
      );
      this.sockets.delete(ws);
      ws.terminate();
    }
  }
}
