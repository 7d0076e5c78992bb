import { describe, expect, it } from 'vitest';
import { closestMatch, parameterList } from './fuzzy-hint';

/** PostgREST's own examples (src/library/PostgREST/Error.hs `noRpcHint` and test/spec RpcSpec, ErrorSpec). */
describe('the closest name for a hint', () => {
  const functions = ['test', 'another'];
  it.each([
    ['testt', 'test'],
    ['other', undefined],
    ['noclosealternative', undefined],
  ])('a function called %s suggests %s', (query, expected) => {
    expect(closestMatch(functions, query, 0.75)).toBe(expected);
  });

  it('suggests the closest table', () => {
    const tables = ['projects', 'clients', 'tasks', 'users'];
    expect(closestMatch(tables, 'projectx', 0.75)).toBe('projects');
    expect(closestMatch(tables, 'projecxx', 0.75)).toBe('projects');
  });

  it('suggests sayhello for sayhell', () => {
    expect(closestMatch(['sayhello', 'add_them', 'overloaded'], 'sayhell', 0.75)).toBe('sayhello');
  });

  const overloads = [parameterList(['val', 'param', 'name']), parameterList(['id', 'attr'])];
  it.each([
    [['vall', 'pqaram', 'nam'], '(name, param, val)'],
    [['val', 'param'], '(name, param, val)'],
    [['id', 'attrs'], '(attr, id)'],
    [['id'], '(attr, id)'],
    [['noclosealternative'], undefined],
  ])('parameters %j suggest %s', (given, expected) => {
    expect(closestMatch(overloads, parameterList(given), 0.33)).toBe(expected);
  });

  it('parameters of the spec: add_them and the overloads', () => {
    expect(closestMatch(['(a, b)'], parameterList(['a', 'b', 'smthelse']), 0.33)).toBe('(a, b)');
    // overloaded(), overloaded(json) (an unnamed parameter), overloaded(a, b), overloaded(a, b, c).
    const overloaded = ['()', '()', '(a, b)', '(a, b, c)'];
    expect(closestMatch(overloaded, parameterList(['wrong_arg']), 0.33)).toBeUndefined();
    expect(closestMatch(overloaded, parameterList(['a', 'b', 'wrong_arg']), 0.33)).toBe('(a, b, c)');
    expect(closestMatch(['(name)'], parameterList(['nam']), 0.33)).toBe('(name)');
  });
});
