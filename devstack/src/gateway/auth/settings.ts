import type { ProjectConfig } from '../project-config';
import type { AuthContext } from './context';
import type { AuthRoute } from './route';

/** GoTrue's `/settings`: what supabase-js and dashboards read about the enabled providers (api/settings.go). */
export function publicSettings(
  project: Pick<ProjectConfig, 'enableEmailProvider' | 'enableSignup' | 'enableConfirmations'>,
) {
  return {
    external: { email: project.enableEmailProvider, phone: false, anonymous_users: false },
    disable_signup: !project.enableSignup,
    mailer_autoconfirm: !project.enableConfirmations,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  };
}

/** GET /settings, GET /health and the public keys of GET /.well-known/jwks.json. */
export function settingsRoutes({ project, jwt }: AuthContext): AuthRoute[] {
  return [
    { method: 'GET', path: '/settings', handle: async () => publicSettings(project) },
    {
      method: 'GET',
      path: '/.well-known/jwks.json',
      // api/jwks.go: cached by clients for ten minutes.
      handle: async ({ response }) => {
        response.setHeader('Cache-Control', 'public, max-age=600');
        return jwt.publicJwks;
      },
    },
    {
      method: 'GET',
      path: '/health',
      handle: async () => ({
        version: 'devstack',
        name: 'GoTrue',
        description: 'GoTrue is a user registration and authentication API',
      }),
    },
  ];
}
