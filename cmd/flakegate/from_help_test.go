package main

import (
	"strings"
	"testing"
)

// Every -from flag takes a report in any format the readers read, and its
// help says so rather than naming the three formats first read.
func TestFromHelpNamesEveryFormat(t *testing.T) {
	for _, args := range [][]string{{"budget", "-h"}, {"quarantine", "add", "-h"}, {"quarantine", "check", "-h"}} {
		code, _, errs := cli(t, "", args...)
		i := strings.Index(errs, "\n  -from ")
		if code != exitOK || i < 0 {
			t.Errorf("%s: exit %d, no -from in %q", strings.Join(args, " "), code, errs)
			continue
		}
		help := errs[i:]
		if j := strings.Index(help[1:], "\n  -"); j >= 0 {
			help = help[:j+1]
		}
		if strings.Contains(help, "JUnit or a JSONL ledger") || !strings.Contains(help, "any format") {
			t.Errorf("%s: -from's help %q does not say it takes any format", strings.Join(args, " "), help)
		}
	}
}
