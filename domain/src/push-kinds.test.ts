import { describe, expect, it } from 'vitest';
import { PUSH_KINDS, PUSH_KINDS_BY_ROLE } from './push-kinds.ts';

describe('push kinds', () => {
  it('are each some one role’s, so each has its switch on that role’s profile page', () => {
    const listed = Object.values(PUSH_KINDS_BY_ROLE).flat();
    expect([...listed].sort()).toEqual([...PUSH_KINDS].sort());
  });
});
