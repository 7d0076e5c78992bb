import { cn } from './utils';

describe('cn', () => {
  it('joins class names like clsx, skipping falsy ones', () => {
    expect(cn('p-2', false, undefined, { 'font-medium': true, hidden: false }, ['text-sm'])).toBe(
      'p-2 font-medium text-sm',
    );
  });

  it('keeps classes of different variants of one property', () => {
    expect(cn('h-10', 'sm:h-8')).toBe('h-10 sm:h-8');
  });

  it('throws in tests when a class overrides another, naming the overridden one', () => {
    expect(() => cn('p-2', 'p-4')).toThrow(/override "p-2"/);
  });

  it('throws in tests when a class is repeated', () => {
    expect(() => cn('rounded-md', 'rounded-md')).toThrow(/override "rounded-md"/);
  });
});
