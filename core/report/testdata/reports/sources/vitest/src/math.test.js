import { describe, test, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
// A counter file makes the flaky test fail on its 1st attempt and pass on the retry.
const counter = path.join(import.meta.dirname, '.flaky.count');

describe('math', () => {
  test('adds', () => { expect(1 + 1).toBe(2); });
  test('fails always', () => { expect(1 + 1).toBe(3); });
  test('flaky', () => {
    const n = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 0) + 1;
    fs.writeFileSync(counter, String(n));
    expect(n % 3).not.toBe(1);
  });
  test.skip('skipped', () => {});
  test.todo('to do later');
});
