// A local provider that echoes the prompt but drops it on every 3rd call: a flaky "model".
let calls = 0;
class FlakyProvider {
  id() { return 'flaky'; }
  async callApi(prompt) {
    calls++;
    const k = calls + Number(process.env.FLAKY_OFFSET || 0);
    return { output: k % 3 === 0 ? 'no idea' : prompt };
  }
}
module.exports = FlakyProvider;
