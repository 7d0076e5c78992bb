import { withdrawRequestsErrorMessage } from './withdraw-messages';

describe('withdraw list errors', () => {
  it.each([
    ['a missing table', '42P01'],
    ['a missing function', '42883'],
    ['a function PostgREST does not know', 'PGRST202'],
    ['a table PostgREST does not know', 'PGRST205'],
  ])('asks the person to wait while the system updates for %s', (_case, code) => {
    expect(withdrawRequestsErrorMessage({ code, message: 'relation does not exist' })).toBe(
      'The system is currently updating. Please try again in a few minutes.',
    );
  });

  it('names the reason for any other failure', () => {
    expect(
      withdrawRequestsErrorMessage({
        code: '57014',
        message: 'canceling statement due to statement timeout',
      }),
    ).toBe('Failed to fetch withdraw requests: canceling statement due to statement timeout');
  });
});
