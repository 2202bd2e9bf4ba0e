// No browser: these tests use no page, so Playwright launches none.
// maxFailures stops the run at the first failed test; the test still running
// in the other worker then ends "interrupted".
const { defineConfig } = require('@playwright/test');
module.exports = defineConfig({
  testDir: '.',
  retries: 1,
  workers: 2,
  fullyParallel: true,
  maxFailures: 1,
  reporter: [['json', { outputFile: '../playwright-expected.json' }], ['list']],
});
