/**
 * The proof checker (and Zod, which reads the proof file), loaded when a proof is checked rather than with
 * the wallet; a page for checking proofs loads it on opening, so the check itself sends no request.
 */
export const loadProofChecker = () => import('@domain/liability-proof.ts');
