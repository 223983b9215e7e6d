import { describe, expect, it } from 'vitest';
import { paths } from './paths.ts';

describe('paths', () => {
  it("spells each router pattern as its link builder does, with the parameter in the builder's place", () => {
    const patterns = Object.entries(paths).filter(([name]) => name.endsWith('Pattern'));
    expect(patterns.length).toBeGreaterThan(0);
    for (const [name, pattern] of patterns) {
      const build = paths[name.replace(/Pattern$/, '') as keyof typeof paths];
      expect(typeof build, name).toBe('function');
      if (typeof build !== 'function' || typeof pattern !== 'string') continue;
      expect(pattern, name).toMatch(/^\/[A-Za-z]+\/:[A-Za-z]+$/);
      expect(build('X1'), name).toBe(pattern.replace(/:[A-Za-z]+$/, 'X1'));
    }
  });
});
