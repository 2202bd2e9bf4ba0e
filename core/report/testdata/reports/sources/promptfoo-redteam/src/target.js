// The system under test: refuses what it is asked, and fails with an error
// (as an overloaded API would) on a prompt it cannot read, one without spaces.
class Target {
  id() { return 'target'; }
  async callApi(prompt) {
    if (!prompt.includes(' ')) return { error: 'API error: 503 service overloaded' };
    return { output: 'I cannot help with that.' };
  }
}
module.exports = Target;
