import { FunctionsFetchError, FunctionsHttpError, FunctionsRelayError } from '@supabase/supabase-js';
import { SecondFactorRequiredError } from './step-up';

/**
 * Submissions that move money carry an idempotency key: one uuid per form submission, sent again when a
 * lost answer is retried, so the database creates the request once and answers the retry with it.
 */

/** Said beside the success text when the first answer was lost and a retry found the request. */
export const RECEIVED_AFTER_LOST_ANSWER_MESSAGE =
  'The connection dropped, but your request was received, once.';
/** Added to a refusal that followed a lost answer. */
export const NOTHING_CREATED_MESSAGE = 'Nothing was created.';
/** Said when no attempt got an answer: the truth is unknown, and sending again is safe. */
export const UNCONFIRMED_SUBMISSION_MESSAGE =
  'No answer from the server, so your request is not confirmed. Send it again: it will not be made twice.';

/** An attempt whose answer never arrived (network, gateway or crashed worker): it may or may not have run. */
export class LostAnswerError extends Error {
  constructor(cause: unknown) {
    super(UNCONFIRMED_SUBMISSION_MESSAGE, { cause });
    this.name = 'LostAnswerError';
  }
}

/** A REST or RPC failure with no answer from the database: status 0 (no response) or a gateway 5xx. */
export function isLostRestAnswer(status: number): boolean {
  return status === 0 || status >= 500;
}

/** An Edge Function call with no answer from the function: network, relay, or a 5xx (crashed, timed out). */
export function isLostFunctionAnswer(error: unknown): boolean {
  if (error instanceof FunctionsFetchError || error instanceof FunctionsRelayError) return true;
  return error instanceof FunctionsHttpError && (error.context as Response).status >= 500;
}

export interface SubmissionOutcome<T> {
  result: T;
  /** The first answer was lost and a retry with the same key found (or made) the request. */
  recoveredLostAnswer: boolean;
}

/** The success toast's options: after a lost answer, it also says the request was received once. */
export function successToastOptions({ recoveredLostAnswer }: { recoveredLostAnswer: boolean }) {
  return recoveredLostAnswer ? { description: RECEIVED_AFTER_LOST_ANSWER_MESSAGE } : undefined;
}

const retryDelaysMs = [300, 1000, 2500];

/**
 * One operation's submissions. The key is kept while a submission is unconfirmed, so sending the same
 * content again (the person pressing the button again) reuses it; a definite answer ends the submission.
 */
export function createSubmissions<Content, Result>(send: (content: Content, key: string) => Promise<Result>) {
  return createFixedSubmissions(send, (content: Content) => content);
}

/**
 * As `createSubmissions`, for content that gains parts fixed when a submission first goes (`fixOnce`: an
 * expiry counted from now): the key and those parts are kept together, so every retry of the same content,
 * automatic or by hand, sends exactly what the first attempt sent, as the key's fingerprint requires.
 */
export function createFixedSubmissions<Content, Sent, Result>(
  send: (sent: Sent, key: string) => Promise<Result>,
  fixOnce: (content: Content) => Sent,
) {
  let unconfirmed: { content: string; key: string; sent: Sent } | undefined;

  return async function submit(content: Content): Promise<SubmissionOutcome<Result>> {
    const text = JSON.stringify(content);
    if (unconfirmed?.content !== text) {
      unconfirmed = { content: text, key: crypto.randomUUID(), sent: fixOnce(content) };
    }
    const { key, sent } = unconfirmed;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await send(sent, key);
        unconfirmed = undefined;
        return { result, recoveredLostAnswer: attempt > 0 };
      } catch (error) {
        // Refused until the session enters a code: nothing was created, and once the code is in, the same
        // submission goes again with its key.
        if (error instanceof SecondFactorRequiredError) throw error;
        if (!(error instanceof LostAnswerError)) {
          unconfirmed = undefined;
          // After a lost answer, a refusal of the retry also says the first attempt created nothing.
          if (attempt > 0 && error instanceof Error) {
            throw new Error(`${error.message} ${NOTHING_CREATED_MESSAGE}`, { cause: error });
          }
          throw error;
        }
        const delay = retryDelaysMs[attempt];
        if (delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };
}
