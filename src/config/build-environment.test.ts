import { requireBuildEnvironment } from './build-environment';

const anonKey = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9.signature';

describe('a production build', () => {
  it('refuses to build without the Supabase URL and anon key, naming both', () => {
    expect(() => requireBuildEnvironment({})).toThrow(
      /production build needs[\s\S]*VITE_SUPABASE_URL must be the project URL[\s\S]*VITE_SUPABASE_ANON_KEY must be the project's anon key/,
    );
  });

  it('refuses a URL that is not one and an empty key', () => {
    expect(() =>
      requireBuildEnvironment({ VITE_SUPABASE_URL: 'my-project', VITE_SUPABASE_ANON_KEY: '' }),
    ).toThrow(/VITE_SUPABASE_URL must be the project URL[\s\S]*VITE_SUPABASE_ANON_KEY/);
  });

  it('accepts the project settings, with or without a market data URL', () => {
    const project = { VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: anonKey };
    expect(requireBuildEnvironment(project)).toEqual(project);
    expect(() => requireBuildEnvironment({ ...project, VITE_MARKET_API_URL: 'prices' })).toThrow(
      /VITE_MARKET_API_URL must be a URL when set/,
    );
  });
});
