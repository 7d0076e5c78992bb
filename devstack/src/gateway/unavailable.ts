import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Service } from './admission';
import { KeyError } from './api-keys';
import { AuthError, sendAuthError } from './auth/errors';
import { retryAfterHeader, unavailableReason, type UnavailableReason } from './database';
import { BodyTooLargeError, sendJson } from './http';
import { RestError, restUnavailable } from './rest/errors';

/** A 503 with `Retry-After` in the shape of the service that could not answer. */
export function sendUnavailable(
  request: IncomingMessage,
  response: ServerResponse,
  service: Service | undefined,
  reason: UnavailableReason,
) {
  // An unread body is not drained: the connection closes after the answer. A request without a body
  // keeps its connection: under overload, a closed connection per refusal makes every client connect
  // again, and the flood of new connections overflows the listen queue (SYNs dropped, retried after
  // seconds, connections reset), which is where the longest waits and the unanswered requests were.
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (hasBody) response.setHeader('Connection', 'close');
  if (service === 'auth') {
    response.setHeader('Retry-After', retryAfterHeader['Retry-After']);
    return sendAuthError(
      request,
      response,
      new AuthError(503, 'request_timeout', 'The service is busy or its database unavailable; retry shortly'),
    );
  }
  if (service === 'functions') {
    return sendJson(
      response,
      503,
      { code: 'SERVICE_UNAVAILABLE', message: 'Too many function calls at once; retry shortly' },
      retryAfterHeader,
    );
  }
  sendJson(response, 503, restUnavailable(reason).body(), retryAfterHeader);
}

/**
 * What a request that failed answers: a refused key as the gateway refuses it, an unavailable database as
 * 503, a body too large as 413, anything else 500 in its service's shape (the reason goes to the gateway's
 * log, never to the caller: it may name internals). A failure after the answer began cuts the connection.
 */
export function answerFailure(
  request: IncomingMessage,
  response: ServerResponse,
  service: Service | undefined,
  error: unknown,
) {
  if (response.headersSent) return response.destroy();
  if (error instanceof KeyError) return sendJson(response, error.status, error.body);
  const reason = unavailableReason(error);
  if (reason) return sendUnavailable(request, response, service, reason);
  if (error instanceof BodyTooLargeError) {
    return sendJson(response, 413, {
      code: 'PGRST413',
      message: 'Payload Too Large',
      details: null,
      hint: null,
    });
  }
  console.error('[gateway]', error);
  if (service === 'auth')
    return sendAuthError(request, response, new AuthError(500, 'unexpected_failure', 'Unexpected failure'));
  sendJson(response, 500, new RestError(500, 'GATEWAY_ERROR', 'Internal server error').body());
}
