// The same describe and test names as ui/util.test.js: Jest tells them apart by file.
describe('util', () => {
  test('formats', () => { expect(String(1)).toBe('1'); });
  test('parses', () => { expect(Number('2')).toBe(2); });
});
