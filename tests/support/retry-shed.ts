/** How often a call the gateway shed is sent again before its 503 is the answer. */
const shedRetries = 5;

/**
 * The answer to `send`, sent again after the time named while the gateway sheds the call: a 503 with
 * `Retry-After` is its promise that nothing was done (refused at admission, no pooled connection, a lock
 * timeout rolled back), and the machine running the tests is loaded (about two runs per core), so a
 * call may be shed as under any overload. Helpers and crowds ask again, as a client should; tests of
 * the 503 itself send theirs once.
 */
export async function retryingShed<Answer extends { status: number; headers: Headers }>(
  send: () => Promise<Answer>,
  discard: (answer: Answer) => Promise<void> = () => Promise.resolve(),
): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    const retryAfter = answer.headers.get('retry-after');
    if (answer.status !== 503 || retryAfter === null || attempt > shedRetries) return answer;
    await discard(answer);
    await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
  }
}

/** `fetch`, asking again while the gateway sheds the call (see `retryingShed`). */
export const fetchRetryingShed = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  retryingShed(
    () => fetch(input, init),
    (answer) => answer.body?.cancel() ?? Promise.resolve(),
  );
