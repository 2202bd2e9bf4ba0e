const test = require('node:test');
const assert = require('node:assert');

test('adds', () => { assert.strictEqual(1 + 1, 2); });
test('fails always', () => { assert.strictEqual(1 + 1, 3); });
test('flaky', () => { assert.ok(Number(process.env.FLAKY_ATTEMPT || 1) % 2 === 0, 'odd attempt'); });
test('skipped', { skip: 'not here' }, () => {});
test('todo', { todo: 'later' }, () => { assert.fail('not done'); });
test.describe('group', () => {
  test.it('inner pass', () => {});
  test.it('inner fail', () => { assert.fail('inner'); });
});
