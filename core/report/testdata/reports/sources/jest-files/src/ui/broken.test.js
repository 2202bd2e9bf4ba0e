// Fails to run: the module it requires does not exist, so no test of it runs.
const missing = require('./does-not-exist');
test('never runs', () => { expect(missing).toBeDefined(); });
