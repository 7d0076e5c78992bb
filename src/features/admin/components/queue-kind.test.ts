import { describe, expect, it } from 'vitest';
import { moneySafetyNote, moneySafetyState, queueRowState, type QueueRequest } from './queue-kind';

const me = 'admin-me';
const lock =
  'Locked: this person reported a change they did not make ("this wasn\'t me"). Nothing but deposits moves until ' +
  'an admin ends the lock on Settings.';

const free = { heldBecause: null, proposedBy: null };

describe('what an open row leaves this admin (a request or a transaction not yet complete)', () => {
  it('a row the money gate holds is held, and says why in the database words', () => {
    const held = { heldBecause: lock, proposedBy: null };
    expect(moneySafetyState(held, me)).toBe('held');
    expect(moneySafetyNote(held, me)).toBe(lock);
  });

  it('a row this admin approved above the threshold awaits a second admin', () => {
    const proposed = { heldBecause: null, proposedBy: me };
    expect(moneySafetyState(proposed, me)).toBe('awaiting-second-admin');
    expect(moneySafetyNote(proposed, me)).toBe('Awaiting a second admin: you approved it');
  });

  it("another admin's proposal is open to this admin, who confirms it, and says whose it is", () => {
    const proposed = { heldBecause: null, proposedBy: 'admin-other' };
    expect(moneySafetyState(proposed, me)).toBe('open');
    expect(moneySafetyNote(proposed, me)).toBe('Awaiting a second admin: another admin approved it');
  });

  it('a row with nothing against it is open and says nothing', () => {
    expect(moneySafetyState(free, me)).toBe('open');
    expect(moneySafetyNote(free, me)).toBeUndefined();
  });

  it('a queue request is decided or expired before any of that', () => {
    const request: QueueRequest = {
      ...free,
      heldBecause: lock,
      id: 'r',
      userId: 'u',
      userName: 'Jane',
      email: 'jane@example.com',
      available: 0,
      status: 'pending',
      date: '2026-11-26T00:00:00Z',
    };
    expect(queueRowState(request, me)).toBe('held');
    expect(queueRowState({ ...request, expired: true }, me)).toBe('expired');
    expect(queueRowState({ ...request, status: 'approved' }, me)).toBe('decided');
  });
});
