package triage_test

import (
	"fmt"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/triage"
)

// A past of 400 runs in which TestFlaky failed every 20th run and TestA
// and TestB never failed; in the new run TestFlaky and TestA fail.
func Example() {
	h := history.New()
	for i := range 400 {
		flaky := int64(1)
		if i%20 == 7 {
			flaky = 0
		}
		h.AddRun(history.RunMeta{Name: fmt.Sprint("run", i)}, []history.TestResult{
			{Test: "pkg.TestFlaky", Passed: flaky, Trials: 1},
			{Test: "pkg.TestA", Passed: 1, Trials: 1},
			{Test: "pkg.TestB", Passed: 1, Trials: 1},
		})
	}
	res, err := triage.Triage(h, nil, history.RunMeta{Name: "pr"}, []history.TestResult{
		{Test: "pkg.TestFlaky", Passed: 0, Trials: 1},
		{Test: "pkg.TestA", Passed: 0, Trials: 1},
		{Test: "pkg.TestB", Passed: 1, Trials: 1},
	}, triage.DefaultOptions)
	if err != nil {
		panic(err)
	}
	for _, f := range res.Failures {
		fmt.Printf("%s: %s, blocks %v, failed %d of %d before\n", f.Test, f.Class, f.Blocks, f.Past.Failures, f.Past.Runs)
	}
	fmt.Println("blocks:", res.Blocks)
	// Output:
	// pkg.TestA: new, blocks true, failed 0 of 400 before
	// pkg.TestFlaky: known-flake, blocks false, failed 20 of 400 before
	// blocks: true
}

// UnifiedDiff writes the registry's change as git diff does, for git
// apply or patch -p1.
func ExampleUnifiedDiff() {
	before := "{\n  \"tests\": [\n    \"a\",\n    \"b\"\n  ]\n}\n"
	after := "{\n  \"tests\": [\n    \"b\",\n    \"c\"\n  ]\n}\n"
	fmt.Print(triage.UnifiedDiff("quarantine.json", []byte(before), []byte(after), true))
	// Output:
	// diff --git a/quarantine.json b/quarantine.json
	// --- a/quarantine.json
	// +++ b/quarantine.json
	// @@ -1,6 +1,6 @@
	//  {
	//    "tests": [
	// -    "a",
	// -    "b"
	// +    "b",
	// +    "c"
	//    ]
	//  }
}
