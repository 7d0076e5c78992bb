import { describe, expect, it } from 'vitest';
import { objectField, parseJsonObject, stringField } from './request-body';

describe('reading a request body as GoTrue does', () => {
  it('takes an empty body as no fields', () => {
    expect(parseJsonObject('  ')).toEqual({});
  });

  it.each(['[1]', '"text"', '{not json', 'null'])('refuses %s with bad_json', (raw) => {
    expect(() => parseJsonObject(raw)).toThrow(expect.objectContaining({ status: 400, code: 'bad_json' }));
  });

  it('reads a string field and an object field, nothing else of those names', () => {
    const body = parseJsonObject('{"email":"a@b.co","data":{"x":1},"list":[1],"count":3}');
    expect(stringField(body, 'email')).toBe('a@b.co');
    expect(stringField(body, 'count')).toBeUndefined();
    expect(objectField(body, 'data')).toEqual({ x: 1 });
    expect(objectField(body, 'list')).toBeUndefined();
  });
});
