import { readFile } from 'node:fs/promises';
import {
  isMailTemplateKind,
  isNotificationKind,
  type MailTemplateKind,
  type MailTemplateSetting,
  type NotificationKind,
  type NotificationSetting,
} from './auth/mail-templates';

type TomlValue = string | number | boolean | string[];
type TomlTables = Map<string, Map<string, TomlValue>>;

/**
 * The small part of TOML that `supabase/config.toml` uses: `[table.names]` (parts bare or quoted), and
 * `key = value` (the key bare or quoted) with strings, numbers, booleans and one-line string arrays.
 * Anything else is a clear error.
 */
export function parseToml(text: string): TomlTables {
  let current = new Map<string, TomlValue>();
  const tables: TomlTables = new Map([['', current]]);
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.replace(/\s+#.*$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    const table = line.match(/^\[((?:[\w-]+|"[^"]*")(?:\.(?:[\w-]+|"[^"]*"))*)\]$/);
    if (table) {
      current = new Map();
      tables.set((table[1] ?? '').replaceAll('"', ''), current);
      return;
    }
    const pair = line.match(/^([\w-]+|"[^"]*")\s*=\s*(.+)$/);
    if (!pair) throw new Error(`config.toml line ${index + 1}: unsupported syntax: ${line}`);
    const [, key = '', value = ''] = pair;
    current.set(key.replace(/^"(.*)"$/, '$1'), parseTomlValue(value, index + 1));
  });
  return tables;
}

function parseTomlValue(text: string, line: number): TomlValue {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^"[^"]*"$/.test(text)) return text.slice(1, -1);
  if (/^\[.*\]$/.test(text)) {
    const inner = text.slice(1, -1).trim();
    if (inner === '') return [];
    return inner.split(',').map((item) => {
      const value = parseTomlValue(item.trim(), line);
      if (typeof value !== 'string')
        throw new Error(`config.toml line ${line}: only string arrays are supported`);
      return value;
    });
  }
  throw new Error(`config.toml line ${line}: unsupported value ${text}`);
}

export interface ProjectConfig {
  siteUrl: string;
  additionalRedirectUrls: string[];
  jwtExpirySeconds: number;
  /** `[auth] signing_keys_path`: a JWK array (`supabase gen signing-key`), relative to `supabase/`. */
  signingKeysPath?: string;
  /** `refresh_token_reuse_interval`: seconds a just-rotated refresh token still returns the current one. */
  refreshTokenReuseIntervalSeconds: number;
  minimumPasswordLength: number;
  /** `[auth] enable_signup`: false answers sign-ups with GoTrue's `signup_disabled`. */
  enableSignup: boolean;
  /** `[auth.email] enable_signup`: GoTrue's e-mail provider (sign-ups and log-ins by e-mail). */
  enableEmailProvider: boolean;
  /** `[auth.email] enable_confirmations`: a new address must be confirmed by its mailed link first. */
  enableConfirmations: boolean;
  /**
   * `[auth.sessions] timebox` and `inactivity_timeout` in seconds (0: off): a session ends that long after
   * it began, or after its last refresh.
   */
  sessionTimeboxSeconds: number;
  sessionInactivityTimeoutSeconds: number;
  /** `[auth.email] require_current_password`: `PUT /user` needs `current_password` to set a password. */
  requireCurrentPassword: boolean;
  /** `[auth.email] secure_password_change`: a session older than 24 h needs a mailed nonce to set one. */
  securePasswordChange: boolean;
  /** `[auth.email] max_frequency`: least seconds between two mails of one kind to one user. */
  emailMaxFrequencySeconds: number;
  /** `[auth.email] otp_expiry`: seconds a mailed link stays valid. */
  emailLinkExpirySeconds: number;
  /** GoTrue's `GOTRUE_EXTERNAL_FLOW_STATE_EXPIRY_DURATION` (300 s): how long a PKCE flow can be completed. */
  flowStateExpirySeconds: number;
  /** Functions whose `[functions.<name>] verify_jwt = false`. */
  functionsWithoutJwt: Set<string>;
  /**
   * `[auth.rate_limit]`, per client address: sign-ins and sign-ups (GoTrue's OTP bucket: sign-up, recover,
   * user update), token requests and verifications per 5 minutes; e-mails sent per hour (all addresses).
   */
  signInSignUpsPer5Minutes: number;
  tokenRefreshPer5Minutes: number;
  tokenVerificationsPer5Minutes: number;
  emailSentPerHour: number;
  /** `[api] max_rows`: the most rows one REST read returns. */
  maxRows: number;
  /** `[api] schemas`: the schemas REST serves, the first by default (PostgREST's `db-schemas`). */
  apiSchemas: string[];
  /** `[api] extra_search_path`: after the request's schema in its `search_path`. */
  apiExtraSearchPath: string[];
  /** `[auth.mfa] max_enrolled_factors` and `[auth.mfa.totp] enroll_enabled / verify_enabled`. */
  mfaMaxEnrolledFactors: number;
  mfaTotpEnrollEnabled: boolean;
  mfaTotpVerifyEnabled: boolean;
  /** `[auth.email.template.<kind>]` `subject` and `content_path` (loaded by `loadMailTemplates`). */
  mailTemplates: Partial<Record<MailTemplateKind, MailTemplateSetting>>;
  /** `[auth.email.notification.<kind>]` `enabled`, `subject`, `content_path` (off unless enabled). */
  mailNotifications: Partial<Record<NotificationKind, NotificationSetting>>;
}

/**
 * The Auth settings of `config.toml` the stack honours, each with the values it supports (`undefined`:
 * any value). A setting not listed, or set to a value the stack does not implement, stops the stack at
 * start with its name: a switch silently ignored would make local tests pass that fail on Supabase.
 */
const supportedAuthSettings: Record<string, Record<string, readonly TomlValue[] | undefined>> = {
  auth: {
    enabled: [true],
    site_url: undefined,
    additional_redirect_urls: undefined,
    jwt_expiry: undefined,
    // The CLI's default secret only: the stack's keys and every test token are signed with it.
    jwt_secret: ['super-secret-jwt-token-with-at-least-32-characters-long'],
    signing_keys_path: undefined,
    enable_refresh_token_rotation: [true],
    refresh_token_reuse_interval: undefined,
    enable_signup: undefined,
    enable_anonymous_sign_ins: [false],
    enable_manual_linking: [false],
    minimum_password_length: undefined,
    password_requirements: [''],
  },
  'auth.rate_limit': {
    email_sent: undefined,
    sms_sent: undefined,
    anonymous_users: undefined,
    token_refresh: undefined,
    sign_in_sign_ups: undefined,
    token_verifications: undefined,
    web3: undefined,
  },
  'auth.mfa': { max_enrolled_factors: undefined },
  // Phone sign-ups and SMS are not implemented; the CLI's template keeps them off with these values.
  'auth.sms': {
    enable_signup: [false],
    enable_confirmations: [false],
    template: undefined,
    max_frequency: undefined,
  },
  'auth.sessions': { timebox: undefined, inactivity_timeout: undefined },
  'auth.mfa.totp': { enroll_enabled: undefined, verify_enabled: undefined },
  'auth.email': {
    enable_signup: undefined,
    double_confirm_changes: [true],
    enable_confirmations: undefined,
    secure_password_change: undefined,
    require_current_password: undefined,
    max_frequency: undefined,
    otp_length: [6],
    otp_expiry: undefined,
  },
};

/** Auth tables the stack does not implement: allowed only while switched off. */
const switchKeys = ['enabled', 'enroll_enabled', 'verify_enabled'];
const templateTable = /^auth\.email\.template\.(.+)$/;
const notificationTable = /^auth\.email\.notification\.(.+)$/;
/** GoTrue's notification kinds (templatemailer.go); those the stack does not send may only be off. */
const goTrueNotificationKinds = [
  'password_changed',
  'email_changed',
  'phone_changed',
  'identity_linked',
  'identity_unlinked',
  'mfa_factor_enrolled',
  'mfa_factor_unenrolled',
];

function isRefusedSetting(table: string, key: string, value: TomlValue): boolean {
  const template = templateTable.exec(table)?.[1];
  if (template !== undefined) {
    return (
      !isMailTemplateKind(template) || !['subject', 'content_path'].includes(key) || typeof value !== 'string'
    );
  }
  const notification = notificationTable.exec(table)?.[1];
  if (notification !== undefined) {
    if (!goTrueNotificationKinds.includes(notification)) return true;
    if (key === 'enabled') return value !== false && !(value === true && isNotificationKind(notification));
    return !['subject', 'content_path'].includes(key) || typeof value !== 'string';
  }
  const supported = supportedAuthSettings[table];
  if (!supported) return switchKeys.includes(key) && value === true;
  if (!(key in supported)) return true;
  const values = supported[key];
  return values !== undefined && !values.includes(value);
}

function unsupportedAuthSettings(tables: TomlTables): string[] {
  const refused: string[] = [];
  for (const [table, values] of tables) {
    if (table !== 'auth' && !table.startsWith('auth.')) continue;
    for (const [key, value] of values) {
      const setting = `[${table}] ${key} = ${JSON.stringify(value)}`;
      if (isRefusedSetting(table, key, value)) refused.push(setting);
    }
  }
  return refused;
}

/** `"60s"`, `"1m"`, `"1h"` (Go durations as config.toml writes them) in seconds. */
function durationSeconds(value: TomlValue | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const match = String(value).match(/^(\d+)(ms|s|m|h)$/);
  if (!match) throw new Error(`config.toml: unsupported duration ${String(value)}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
}

function stringList(value: TomlValue | undefined, fallback: string[]): string[] {
  return Array.isArray(value) && value.length ? value.map(String) : fallback;
}

/** Each `[<table>.<kind>]` of a kind the stack knows, with its subject and body file, and its keys. */
function templateTables<K extends string>(
  tables: TomlTables,
  table: RegExp,
  isKind: (name: string) => name is K,
): [K, MailTemplateSetting, Map<string, TomlValue>][] {
  const found: [K, MailTemplateSetting, Map<string, TomlValue>][] = [];
  for (const [name, values] of tables) {
    const kind = table.exec(name)?.[1];
    if (kind === undefined || !isKind(kind)) continue;
    const subject = values.get('subject');
    const contentPath = values.get('content_path');
    found.push([
      kind,
      {
        subject: typeof subject === 'string' ? subject : undefined,
        contentPath: typeof contentPath === 'string' ? contentPath : undefined,
      },
      values,
    ]);
  }
  return found;
}

export function projectConfigFromToml(text: string): ProjectConfig {
  const tables = parseToml(text);
  const refused = unsupportedAuthSettings(tables);
  if (refused.length > 0) {
    throw new Error(
      `supabase/config.toml: the local stack does not support ${refused.join(', ')} (see devstack/README.md, Auth)`,
    );
  }
  const auth = tables.get('auth') ?? new Map<string, TomlValue>();
  const email = tables.get('auth.email') ?? new Map<string, TomlValue>();
  const api = tables.get('api') ?? new Map<string, TomlValue>();
  const functionsWithoutJwt = new Set<string>();
  for (const [name, values] of tables) {
    const fn = name.match(/^functions\.([\w-]+)$/);
    if (fn && values.get('verify_jwt') === false) functionsWithoutJwt.add(fn[1] ?? '');
  }
  const redirects = auth.get('additional_redirect_urls');
  const rateLimit = tables.get('auth.rate_limit') ?? new Map<string, TomlValue>();
  return {
    siteUrl: String(auth.get('site_url') ?? 'http://localhost:5173'),
    additionalRedirectUrls: Array.isArray(redirects) ? redirects : [],
    jwtExpirySeconds: Number(auth.get('jwt_expiry') ?? 3600),
    signingKeysPath: auth.has('signing_keys_path') ? String(auth.get('signing_keys_path')) : undefined,
    refreshTokenReuseIntervalSeconds: Number(auth.get('refresh_token_reuse_interval') ?? 10),
    minimumPasswordLength: Number(auth.get('minimum_password_length') ?? 6),
    enableSignup: auth.get('enable_signup') !== false,
    enableEmailProvider: email.get('enable_signup') !== false,
    enableConfirmations: email.get('enable_confirmations') === true,
    sessionTimeboxSeconds: durationSeconds(tables.get('auth.sessions')?.get('timebox'), 0),
    sessionInactivityTimeoutSeconds: durationSeconds(
      tables.get('auth.sessions')?.get('inactivity_timeout'),
      0,
    ),
    requireCurrentPassword: email.get('require_current_password') === true,
    securePasswordChange: email.get('secure_password_change') === true,
    emailMaxFrequencySeconds: durationSeconds(email.get('max_frequency'), 60),
    emailLinkExpirySeconds: Number(email.get('otp_expiry') ?? 3600),
    flowStateExpirySeconds: 300,
    functionsWithoutJwt,
    signInSignUpsPer5Minutes: Number(rateLimit.get('sign_in_sign_ups') ?? 30),
    tokenRefreshPer5Minutes: Number(rateLimit.get('token_refresh') ?? 150),
    tokenVerificationsPer5Minutes: Number(rateLimit.get('token_verifications') ?? 30),
    emailSentPerHour: Number(rateLimit.get('email_sent') ?? 2),
    maxRows: Number(api.get('max_rows') ?? 1000),
    // The Supabase CLI's defaults (its config.toml template), which it passes on to PostgREST.
    apiSchemas: stringList(api.get('schemas'), ['public', 'graphql_public']),
    apiExtraSearchPath: stringList(api.get('extra_search_path'), ['public', 'extensions']),
    mfaMaxEnrolledFactors: Number(tables.get('auth.mfa')?.get('max_enrolled_factors') ?? 10),
    // Off unless config.toml turns them on, as the Supabase CLI reads it (hosted projects have TOTP on).
    mfaTotpEnrollEnabled: tables.get('auth.mfa.totp')?.get('enroll_enabled') === true,
    mfaTotpVerifyEnabled: tables.get('auth.mfa.totp')?.get('verify_enabled') === true,
    mailTemplates: Object.fromEntries(
      templateTables(tables, templateTable, isMailTemplateKind).map(([kind, setting]) => [kind, setting]),
    ),
    mailNotifications: Object.fromEntries(
      templateTables(tables, notificationTable, isNotificationKind).map(([kind, setting, values]) => [
        kind,
        { ...setting, enabled: values.get('enabled') === true },
      ]),
    ),
  };
}

export async function loadProjectConfig(path: string): Promise<ProjectConfig> {
  return projectConfigFromToml(await readFile(path, 'utf8'));
}
