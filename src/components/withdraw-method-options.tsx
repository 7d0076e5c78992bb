import { withdrawMethodLabels, withdrawMethods } from '@domain/withdrawal.ts';

/** A withdraw-method select's options: a prompt with no value, then every method by its label. */
export function WithdrawMethodOptions() {
  return (
    <>
      <option value="">Select a withdraw method</option>
      {withdrawMethods.map((option) => (
        <option key={option} value={option}>
          {withdrawMethodLabels[option]}
        </option>
      ))}
    </>
  );
}
