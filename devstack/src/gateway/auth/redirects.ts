import type { ProjectConfig } from '../project-config';

/**
 * Where a mailed link may send the browser, as GoTrue's `IsRedirectURLValid` (utilities/request.go): the
 * site URL's host name (any port), a loopback IP address (any port) or an allow-listed URL; anything else,
 * or nothing, is the site URL.
 */
export function allowedRedirect(
  project: Pick<ProjectConfig, 'siteUrl' | 'additionalRedirectUrls'>,
  requested: string | null | undefined,
): string {
  if (!requested) return project.siteUrl;
  const allowed = [project.siteUrl, ...project.additionalRedirectUrls];
  try {
    const target = new URL(requested);
    const loopbackIp = /^127(\.\d{1,3}){3}$/.test(target.hostname) || target.hostname === '[::1]';
    if (target.hostname === new URL(project.siteUrl).hostname || loopbackIp) return requested;
    if (allowed.some((url) => url === requested || new URL(url).origin === target.origin)) return requested;
  } catch {
    // Not a URL: fall back to the site URL.
  }
  return project.siteUrl;
}
