/**
 * The money gate's refusals as the person reads them (`private.money_gate(…, 'person')`: a lock after "this
 * wasn't me", a freeze, a security hold after a security change). They say why and what to do, so a refused
 * buy, sell, withdrawal or cancellation shows them as they are rather than a generic failure.
 */
export function isMoneyGateRefusal(message: string): boolean {
  return (
    /^(Buying and selling|Withdrawals) are (locked|on hold until [^.]+) because /.test(message) ||
    message.startsWith('Your account is frozen: ') ||
    message.startsWith('Requests cannot be cancelled while your account is locked because ')
  );
}
