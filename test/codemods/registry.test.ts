/** The version order `upgrade` chains transforms in. */
import { describe, expect, it } from 'vitest';
import { compareVersions, transforms, upgradePath } from '../../codemods/registry.js';

const names = (from: string, to: string) => upgradePath(from, to).map((t) => t.name);

describe('upgradePath', () => {
  it('chains every step from 3 to 5.5 in order', () => {
    expect(names('3', '5.5')).toEqual(['v3-to-v4', 'v4-to-v5', 'v5.4-to-v5.5']);
  });

  it('picks steps by where they land, federation-config before v5-to-v6', () => {
    expect(names('5.5', '6')).toEqual(['federation-config', 'v5-to-v6']);
    expect(names('3', '6')).toEqual(['v3-to-v4', 'v4-to-v5', 'v5.4-to-v5.5', 'federation-config', 'v5-to-v6']);
    expect(names('4', '5.4')).toEqual(['v4-to-v5']);
    expect(names('5', '5.5')).toEqual(['v5.4-to-v5.5']);
  });

  it('rejects versions that are not versions or go backwards', () => {
    expect(() => upgradePath('6', '3')).toThrow(RangeError);
    expect(() => upgradePath('three', '4')).toThrow(/not a version: three/);
  });

  it('compares dotted versions numerically', () => {
    expect(compareVersions('5.10', '5.5')).toBeGreaterThan(0);
    expect(compareVersions('v5', '5.0')).toBe(0);
  });

  it('has unique names', () => {
    expect(new Set(transforms.map((t) => t.name)).size).toBe(transforms.length);
  });
});
