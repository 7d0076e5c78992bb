import { describe, expect, it } from 'vitest';
import { publicSettings } from './settings';

// supabase/auth internal/api/settings.go
describe('GET /settings', () => {
  it('tells clients which providers are on and whether sign-ups confirm at once', () => {
    expect(
      publicSettings({ enableEmailProvider: true, enableSignup: false, enableConfirmations: true }),
    ).toMatchObject({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: true,
      mailer_autoconfirm: false,
    });
  });
});
