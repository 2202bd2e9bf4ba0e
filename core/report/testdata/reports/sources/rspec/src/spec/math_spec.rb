RSpec.describe 'math' do
  it('adds') { expect(1 + 1).to eq(2) }
  it('fails always') { expect(1 + 1).to eq(3) }
  it('flaky') { expect(ENV.fetch('FLAKY_ATTEMPT', '1').to_i.even?).to be(true) }
  it('is pending') do
    pending('not done')
    expect(1).to eq(2)
  end
  xit('is skipped') { }
  context 'nested' do
    it('works') { expect([1, 2]).to include(2) }
    it('raises') { raise ArgumentError, 'bad input' }
  end
  describe 'shared' do
    [1, 2].each { |n| it("handles #{n}") { expect(n).to be > 0 } }
  end
end
