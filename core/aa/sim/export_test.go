package sim

// PairedFires is pairedFires, for the tests that hold it to the in-depth
// analyses' paired t-test (package aa, which imports this one).
var PairedFires = pairedFires
