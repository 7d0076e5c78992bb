/**
 * The status vocabulary, as the database spells it. The database keeps its own checks (enums, the built-in
 * names a status type may not take, the statuses `set_transaction_status` and the withdraw-request RPCs
 * accept); `tests/db/domain-vocabulary.test.ts` reads them from the database and fails when this file and
 * the migrations stop naming the same sets.
 */

/** `request_status`: buy, sell and withdraw requests start pending, and are decided or cancelled once. */
export const requestStatuses = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

/** A closed request never changes again (the database's `keep_decided_requests_final` triggers). */
export const decidedRequestStatuses = [
  'approved',
  'rejected',
  'cancelled',
] as const satisfies readonly RequestStatus[];

export function isDecided(status: string): boolean {
  return (decidedRequestStatuses as readonly string[]).includes(status);
}

/** `transaction_type`. */
export const transactionTypes = ['deposit', 'sell', 'withdraw', 'buy'] as const;
export type TransactionType = (typeof transactionTypes)[number];

/** The built-in statuses of a ledger entry; admins add their own status types beside them. */
export const transactionStatuses = ['pending', 'complete'] as const;

/** Only a complete entry counts in the balance: a change to or from it moves money. */
export const countedTransactionStatus = 'complete' satisfies (typeof transactionStatuses)[number];

/**
 * The names no admin-defined status type may take (`status_types_name_not_built_in`). Not 'cancelled': it is
 * also the seeded status type admins give a ledger entry (on a withdrawal it closes it, as the owner's
 * cancellation does).
 */
export const builtInStatusNames = [
  ...new Set([...transactionStatuses, ...requestStatuses.filter((status) => status !== 'cancelled')]),
];

/** `app_role`. */
export const appRoles = ['user', 'admin'] as const;
export type AppRole = (typeof appRoles)[number];
