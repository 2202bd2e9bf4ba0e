// The same names as api/util.test.js; here "parses" fails.
describe('util', () => {
  test('formats', () => { expect(String(1)).toBe('1'); });
  test('parses', () => { expect(Number('2')).toBe(3); });
});
