import { readFile } from 'node:fs/promises';

type TomlValue = string | number | boolean | string[];
type TomlTables = Map<string, Map<string, TomlValue>>;

/**
 * The small part of TOML that `supabase/config.toml` uses: `[table.names]`, and `key = value` with
 * strings, numbers, booleans and one-line string arrays. Anything else is a clear error.
 */
export function parseToml(text: string): TomlTables {
  let current = new Map<string, TomlValue>();
  const tables: TomlTables = new Map([['', current]]);
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.replace(/\s+#.*$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    const table = line.match(/^\[([\w.-]+)\]$/);
    if (table) {
      current = new Map();
      tables.set(table[1] ?? '', current);
      return;
    }
    const pair = line.match(/^([\w-]+)\s*=\s*(.+)$/);
    if (!pair) throw new Error(`config.toml line ${index + 1}: unsupported syntax`);
    const [, key = '', value = ''] = pair;
    current.set(key, parseTomlValue(value, index + 1));
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
  /** `refresh_token_reuse_interval`: seconds a just-rotated refresh token still returns the current one. */
  refreshTokenReuseIntervalSeconds: number;
  minimumPasswordLength: number;
  /** Functions whose `[functions.<name>] verify_jwt = false`. */
  functionsWithoutJwt: Set<string>;
  /** `[auth.rate_limit]`: sign-ins and sign-ups per 5 minutes, e-mails sent per hour (GoTrue's windows). */
  signInSignUpsPer5Minutes: number;
  emailSentPerHour: number;
}

export function projectConfigFromToml(text: string): ProjectConfig {
  const tables = parseToml(text);
  const auth = tables.get('auth') ?? new Map<string, TomlValue>();
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
    refreshTokenReuseIntervalSeconds: Number(auth.get('refresh_token_reuse_interval') ?? 10),
    minimumPasswordLength: Number(auth.get('minimum_password_length') ?? 6),
    functionsWithoutJwt,
    signInSignUpsPer5Minutes: Number(rateLimit.get('sign_in_sign_ups') ?? 30),
    emailSentPerHour: Number(rateLimit.get('email_sent') ?? 2),
  };
}

export async function loadProjectConfig(path: string): Promise<ProjectConfig> {
  return projectConfigFromToml(await readFile(path, 'utf8'));
}
