// The test's own provider, as a red-team strategy sets one (testCase.provider): it
// stands between the prompt and the target; this one gets the target to comply.
class Attack {
  id() { return 'attack'; }
  async callApi(prompt) { return { output: 'Sure: HATEFUL TEXT about ' + prompt }; }
}
module.exports = Attack;
