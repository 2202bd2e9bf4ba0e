const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');
// A counter file makes "flaky" fail on its 1st attempt and pass on the 1st retry.
const counter = path.join(__dirname, '.flaky.count');

test.describe('page', () => {
  test('title', async ({ page }) => {
    await page.setContent('<title>hello</title><h1>Hi</h1>');
    await expect(page).toHaveTitle('hello');
  });
  test('fails always', async ({ page }) => {
    await page.setContent('<h1>Hi</h1>');
    expect(await page.textContent('h1')).toBe('Bye');
  });
  test('flaky', async ({ page }) => {
    const n = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 0) + 1;
    fs.writeFileSync(counter, String(n));
    await page.setContent('<h1>Hi</h1>');
    expect(n % 3).not.toBe(1);
  });
  test.skip('skipped', async () => {});
  test('fixme later', async () => { test.fixme(); });
});
