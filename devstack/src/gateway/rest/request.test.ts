import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { acceptedMedia, profileOf } from './request';

function requestWith(method: string, headers: Record<string, string>): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage;
}

/** PostgREST's `getSchema` (src/library/PostgREST/ApiRequest.hs). */
describe('the schema a request is for', () => {
  const exposed = ['public', 'personal'];

  it('reads Accept-Profile on GET and HEAD, Content-Profile on POST, PATCH and DELETE', () => {
    expect(profileOf(requestWith('GET', { 'accept-profile': 'personal' }), exposed).schema).toBe('personal');
    expect(profileOf(requestWith('GET', { 'content-profile': 'personal' }), exposed).schema).toBe('public');
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      expect(profileOf(requestWith(method, { 'content-profile': 'personal' }), exposed).schema).toBe(
        'personal',
      );
      expect(profileOf(requestWith(method, { 'accept-profile': 'personal' }), exposed).schema).toBe('public');
    }
  });

  it('is negotiated (named in the answer) only when more than one schema is exposed', () => {
    expect(profileOf(requestWith('GET', {}), exposed)).toEqual({ schema: 'public', negotiated: true });
    expect(profileOf(requestWith('GET', {}), ['public'])).toEqual({ schema: 'public', negotiated: false });
  });

  it('refuses a schema not exposed with 406 PGRST106 naming the exposed ones', () => {
    expect(() => profileOf(requestWith('GET', { 'accept-profile': 'auth' }), exposed)).toThrow(
      expect.objectContaining({
        status: 406,
        code: 'PGRST106',
        message: 'Invalid schema: auth',
        hint: 'Only the following schemas are exposed: public, personal',
      }),
    );
  });
});

/** PostgREST's media types (src/library/PostgREST/MediaType.hs): the first of Accept it can write. */
describe('the media type of the answer', () => {
  it.each([
    ['', 'json'],
    ['*/*', 'json'],
    ['application/vnd.pgrst.object+json', 'object'],
    ['text/csv', 'csv'],
    ['text/csv, application/json', 'csv'],
    ['image/png, application/json;q=0.5', 'json'],
    ['application/vnd.pgrst.array+json', 'json'],
    ['application/vnd.pgrst.array+json;nulls=stripped', 'json-stripped'],
    ['application/vnd.pgrst.object+json;nulls=stripped', 'object-stripped'],
  ])('Accept: %s is %s', (accept, media) => {
    expect(acceptedMedia(requestWith('GET', { accept }))).toBe(media);
  });

  it('refuses GeoJSON and plans by name, 406', () => {
    for (const accept of ['application/geo+json', 'application/vnd.pgrst.plan+text']) {
      expect(() => acceptedMedia(requestWith('GET', { accept }))).toThrow(
        expect.objectContaining({
          status: 406,
          message: expect.stringMatching(/^Unsupported by the local stack/),
        }),
      );
    }
  });
});
