import { vi } from 'vitest';
import {
  createFixedSubmissions,
  createSubmissions,
  LostAnswerError,
  NOTHING_CREATED_MESSAGE,
  UNCONFIRMED_SUBMISSION_MESSAGE,
} from './idempotent-submission';
import { SecondFactorRequiredError } from './step-up';

/** A server stand-in: answers each call as the script says, recording the key it was sent. */
function server(script: ('lost' | 'ok' | 'refused' | 'code needed')[]) {
  const keys: string[] = [];
  const send = vi.fn(async (_content: string, key: string) => {
    keys.push(key);
    const step = script.shift() ?? 'ok';
    if (step === 'lost') throw new LostAnswerError(new TypeError('Failed to fetch'));
    if (step === 'refused') throw new Error('Insufficient balance');
    if (step === 'code needed')
      throw new SecondFactorRequiredError('Enter a code from your authenticator app to withdraw');
    return `created with ${key}`;
  });
  return { keys, send };
}

async function settle<T>(promise: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return promise;
}

describe('a submission that moves money', () => {
  it('keeps its key when refused until a code is entered, so sending it again after the code reuses it', async () => {
    const { keys, send } = server(['code needed', 'ok']);
    const submit = createSubmissions(send);
    await expect(submit('withdraw 120')).rejects.toBeInstanceOf(SecondFactorRequiredError);
    const outcome = await submit('withdraw 120');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(outcome).toEqual({ result: `created with ${keys[0]}`, recoveredLostAnswer: false });
  });

  it('retries a lost answer with the same key and says the request was received', async () => {
    vi.useFakeTimers();
    const { keys, send } = server(['lost', 'ok']);
    const outcome = await settle(createSubmissions(send)('buy 120'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(outcome).toEqual({ result: `created with ${keys[0]}`, recoveredLostAnswer: true });
  });

  it('says a refusal after a lost answer created nothing', async () => {
    vi.useFakeTimers();
    const { send } = server(['lost', 'refused']);
    const failure = settle(createSubmissions(send)('buy 120').catch((error: Error) => error.message));
    expect(await failure).toBe(`Insufficient balance ${NOTHING_CREATED_MESSAGE}`);
  });

  it('gives up after four lost answers, says so, and reuses the key when the same form is sent again', async () => {
    vi.useFakeTimers();
    const { keys, send } = server(['lost', 'lost', 'lost', 'lost', 'ok']);
    const submit = createSubmissions(send);
    const failure = settle(submit('buy 120').catch((error: Error) => error.message));
    expect(await failure).toBe(UNCONFIRMED_SUBMISSION_MESSAGE);
    await settle(submit('buy 120'));
    expect(new Set(keys).size).toBe(1);
  });

  it('makes a new key for a new submission once the last one was answered, or for other content', async () => {
    const { keys, send } = server(['ok', 'ok', 'ok']);
    const submit = createSubmissions(send);
    await submit('buy 120');
    await submit('buy 120');
    await submit('buy 80');
    expect(new Set(keys).size).toBe(3);
  });

  it('sends again exactly what the first attempt sent, parts fixed then included, when the same form goes again', async () => {
    vi.useFakeTimers();
    const sent: { content: string; expiresAt: number; key: string }[] = [];
    let answer: 'lost' | 'ok' = 'lost';
    const submit = createFixedSubmissions(
      async (order: { content: string; expiresAt: number }, key: string) => {
        sent.push({ ...order, key });
        if (answer === 'lost') throw new LostAnswerError(new TypeError('Failed to fetch'));
        return 'created';
      },
      (content: string) => ({ content, expiresAt: Date.now() + 24 * 60 * 60 * 1000 }),
    );
    await settle(submit('buy 120').catch(() => undefined));
    vi.advanceTimersByTime(60_000);
    answer = 'ok';
    await settle(submit('buy 120'));
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map(({ key }) => key)).size).toBe(1);
    expect(new Set(sent.map(({ expiresAt }) => expiresAt)).size).toBe(1);
  });
});
