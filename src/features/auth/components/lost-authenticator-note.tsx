/** Recovery without the phone: what a person can do, and what an admin may do for them. */
export function LostAuthenticatorNote() {
  return (
    <p className="text-muted-foreground text-sm">
      Lost your phone or authenticator app? Contact support. After checking who you are, an admin can remove
      two-factor authentication from your account (the removal is recorded in the audit log). You then log in
      with your password and set it up again.
    </p>
  );
}
