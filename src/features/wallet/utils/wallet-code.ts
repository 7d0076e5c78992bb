export const WALLET_CODE_PREVIEW_LENGTH = 12;

/** The first 12 characters and an ellipsis, as the specification shows a folded wallet code. */
export function previewWalletCode(code: string): string {
  return code.length > WALLET_CODE_PREVIEW_LENGTH ? `${code.slice(0, WALLET_CODE_PREVIEW_LENGTH)}...` : code;
}
