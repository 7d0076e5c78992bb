import { randomInt, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { cardDetailsSchema } from '@domain/withdrawal.ts';
import { callApi, signUpNewPerson, type Person } from './api';
import { addDeposit } from './db';

/** A new person signed up through Auth, with a completed deposit added as the database operator would. */
export async function fundedPerson(pool: pg.Pool, deposit: number): Promise<Person> {
  const person = await signUpNewPerson('Withdraw Tester');
  await addDeposit(pool, person.id, deposit);
  return person;
}

export type WithdrawalFunction = 'withdrawals' | 'withdrawal-details' | 'payout-destinations';

export interface FunctionAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A raw POST to an Edge Function through the gateway: any body, any size, as an attacker would send it.
 * Each call is a new submission (a fresh idempotency key) unless the key of an earlier one is given.
 */
export async function postFunction(
  name: WithdrawalFunction,
  accessToken: string | undefined,
  body: string,
  idempotencyKey: string = randomUUID(),
): Promise<FunctionAnswer> {
  const response = await callApi(`/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Idempotency-Key': idempotencyKey,
      ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
    },
    body,
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: response.status, body: { text } };
  }
}

export const postJson = (
  name: WithdrawalFunction,
  person: Person | undefined,
  body: unknown,
  idempotencyKey?: string,
) => postFunction(name, person?.accessToken, JSON.stringify(body), idempotencyKey);

const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');

/** Card details whose number and PIN are unique to this call, so a search of the database finds only them. */
export function uniqueCard() {
  const digits = `4${String(Date.now()).slice(-11)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  // The check digit the card form's own rule accepts (Luhn), so the number is one a payments form takes.
  const cardNumber = Array.from({ length: 10 }, (_, digit) => `${digits}${digit}`).find(
    (candidate) => cardDetailsSchema.shape.cardNumber.safeParse(candidate).success,
  );
  if (!cardNumber) throw new Error('no check digit passes the card rule');
  return {
    cardNumber,
    expirationDate: `11/${nextYear}`,
    cvv: '739',
    pin: String(100000 + Math.floor(Math.random() * 899999)),
  };
}

/** Bank details with an account number unique to this call. */
export function uniqueBank() {
  return {
    accountNumber: String(randomInt(10 ** 11, 10 ** 12)),
    accountName: 'Withdraw Tester',
    bankName: 'First Test Bank',
    bankAddress: '1 Test Street',
    routingNumber: '021000021',
    swiftCode: 'FTBKUS33',
  };
}
