import { describe, expect, it } from 'vitest';
import { projectConfigFromToml } from './project-config';

const refusal = (setting: string) =>
  `supabase/config.toml: the local stack does not support ${setting} (see devstack/README.md, Auth)`;

describe('config.toml settings the local Auth does not implement stop it at start, by name', () => {
  it.each([
    ['[auth.sms]\nenable_signup = true\n', '[auth.sms] enable_signup = true'],
    [
      '[auth.email.template.welcome]\nsubject = "Join us"\n',
      '[auth.email.template.welcome] subject = "Join us"',
    ],
    [
      '[auth.email.template.invite]\ncontent = "<p>Join us</p>"\n',
      '[auth.email.template.invite] content = "<p>Join us</p>"',
    ],
    ['[auth]\n"enable_anonymous_sign_ins" = true\n', '[auth] enable_anonymous_sign_ins = true'],
    ['[auth."hook".custom_access_token]\nenabled = true\n', '[auth.hook.custom_access_token] enabled = true'],
    [
      '[auth.email.notification.mfa_factor_enrolled]\nenabled = true\n',
      '[auth.email.notification.mfa_factor_enrolled] enabled = true',
    ],
    [
      '[auth.email.notification.welcome]\nenabled = false\n',
      '[auth.email.notification.welcome] enabled = false',
    ],
  ])('%j', (toml, setting) => {
    expect(() => projectConfigFromToml(toml)).toThrow(refusal(setting));
  });

  it('takes the CLI template’s switched-off SMS settings and quoted keys it implements', () => {
    const config = projectConfigFromToml(
      '[auth.sms]\nenable_signup = false\ntemplate = "Your code is {{ .Code }}"\nmax_frequency = "5s"\n' +
        '[auth.email]\n"require_current_password" = true\nsecure_password_change = true\n',
    );
    expect(config).toMatchObject({ requireCurrentPassword: true, securePasswordChange: true });
  });

  it('reads the Auth e-mail templates as the Supabase CLI names them', () => {
    expect(
      projectConfigFromToml(
        '[auth.email.template.recovery]\nsubject = "Reset"\ncontent_path = "./supabase/templates/recovery.html"\n',
      ).mailTemplates,
    ).toEqual({ recovery: { subject: 'Reset', contentPath: './supabase/templates/recovery.html' } });
  });

  it('reads the account-change notifications it sends, off unless enabled', () => {
    expect(
      projectConfigFromToml(
        '[auth.email.notification.password_changed]\nenabled = true\nsubject = "Changed"\n' +
          '[auth.email.notification.email_changed]\nenabled = false\n' +
          '[auth.email.notification.phone_changed]\nenabled = false\n',
      ).mailNotifications,
    ).toEqual({
      password_changed: { enabled: true, subject: 'Changed', contentPath: undefined },
      email_changed: { enabled: false, subject: undefined, contentPath: undefined },
    });
  });

  it('reads session limits as Go durations, off when unset', () => {
    expect(
      projectConfigFromToml('[auth.sessions]\ntimebox = "24h"\ninactivity_timeout = "30m"\n'),
    ).toMatchObject({
      sessionTimeboxSeconds: 86_400,
      sessionInactivityTimeoutSeconds: 1800,
    });
    expect(projectConfigFromToml('').sessionTimeboxSeconds).toBe(0);
  });

  it("reads [api] schemas and extra_search_path, the Supabase CLI's defaults when unset", () => {
    expect(
      projectConfigFromToml('[api]\nschemas = ["public", "personal"]\nextra_search_path = ["extensions"]\n'),
    ).toMatchObject({ apiSchemas: ['public', 'personal'], apiExtraSearchPath: ['extensions'] });
    expect(projectConfigFromToml('')).toMatchObject({
      apiSchemas: ['public', 'graphql_public'],
      apiExtraSearchPath: ['public', 'extensions'],
    });
  });

  it('names the line it cannot read', () => {
    expect(() => projectConfigFromToml('[auth]\nsite_url: "x"\n')).toThrow(
      'config.toml line 2: unsupported syntax: site_url: "x"',
    );
  });
});
