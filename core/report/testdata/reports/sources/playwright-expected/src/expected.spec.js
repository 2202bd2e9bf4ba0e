const { test, expect } = require('@playwright/test');

// Still running in the second worker when maxFailures stops the run: its attempt is interrupted.
test('slow', async () => { await new Promise(r => setTimeout(r, 3000)); });
test('passes', async () => { expect(1 + 1).toBe(2); });
// test.fail(): expected to fail. It fails, so Playwright counts it as expected (a pass of the test).
test('known bug', async () => { test.fail(); expect(1 + 1).toBe(3); });
// test.fail() on a test that passes: unexpected; Playwright retries it and counts it failed.
test('fixed bug', async () => { test.fail(); await new Promise(r => setTimeout(r, 300)); expect(1 + 1).toBe(2); });
