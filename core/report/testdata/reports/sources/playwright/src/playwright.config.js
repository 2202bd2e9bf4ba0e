const { defineConfig } = require('@playwright/test');
module.exports = defineConfig({
  testDir: '.',
  retries: 2,
  workers: 1,
  reporter: [
    ['json', { outputFile: '../playwright.json' }],
    ['junit', { outputFile: '../playwright-junit.xml' }],
    ['junit', { outputFile: '../playwright-junit-retries.xml', includeRetries: true }],
    ['playwright-ctrf-json-reporter', { outputFile: 'playwright-ctrf.json', outputDir: '../../ctrf' }],
    ['list'],
  ],
  use: {
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
