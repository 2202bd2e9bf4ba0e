package triage

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestUnifiedDiffListings holds UnifiedDiff to the listings git diff
// --no-index -U3 writes for the same files (git 2.x, run by hand on each
// pair; the index line, which names blobs, left out): a change in the
// middle, an insertion at the end of a file without its newline, a new
// file, two changes far apart (two hunks) and close (one hunk).
func TestUnifiedDiffListings(t *testing.T) {
	lines := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "l%d\n", i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, before, after string
		existed             bool
		want                string
	}{
		{"middle", "a\nb\nc\nd\ne\n", "a\nb\nC\nd\ne\n", true,
			"diff --git a/r.json b/r.json\n--- a/r.json\n+++ b/r.json\n@@ -1,5 +1,5 @@\n a\n b\n-c\n+C\n d\n e\n"},
		{"no newline", "a\nb", "a\nb\nc\n", true,
			"diff --git a/r.json b/r.json\n--- a/r.json\n+++ b/r.json\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n"},
		{"new file", "", "x\ny\n", false,
			"diff --git a/r.json b/r.json\nnew file mode 100644\n--- /dev/null\n+++ b/r.json\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"two hunks", lines(1, 20), strings.Replace(strings.Replace(lines(1, 20), "l2\n", "L2\n", 1), "l18\n", "", 1), true,
			"diff --git a/r.json b/r.json\n--- a/r.json\n+++ b/r.json\n@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n@@ -15,6 +15,5 @@\n l15\n l16\n l17\n-l18\n l19\n l20\n"},
		{"one hunk", lines(1, 12), strings.Replace(strings.Replace(lines(1, 12), "l3\n", "L3\n", 1), "l9\n", "l9\nnew\n", 1), true,
			"diff --git a/r.json b/r.json\n--- a/r.json\n+++ b/r.json\n@@ -1,12 +1,13 @@\n l1\n l2\n-l3\n+L3\n l4\n l5\n l6\n l7\n l8\n l9\n+new\n l10\n l11\n l12\n"},
		{"same", "a\n", "a\n", true, ""},
	} {
		if got := UnifiedDiff("r.json", []byte(tc.before), []byte(tc.after), tc.existed); got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
}

// applyUnified applies a diff UnifiedDiff wrote to before, strictly: each
// hunk's context and deleted lines must be before's lines at the hunk's
// place. It is the test's own reader of the format (the integration test
// applies the same diffs with patch and git apply).
func applyUnified(before, diff string) (string, error) {
	a := splitLines(before)
	var out []string
	lines := strings.SplitAfter(diff, "\n")
	at := 0 // lines of a consumed
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
		i++
	}
	for i < len(lines) && lines[i] != "" {
		h := lines[i]
		var as, ac, bs, bc int
		if _, err := fmt.Sscanf(h, "@@ -%d,%d +%d,%d @@\n", &as, &ac, &bs, &bc); err != nil {
			return "", fmt.Errorf("hunk header %q: %v", h, err)
		}
		first := as - 1
		if ac == 0 {
			first = as
		}
		if first < at || first > len(a) {
			return "", fmt.Errorf("hunk %q out of order", h)
		}
		out = append(out, a[at:first]...)
		at = first
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i][1:]
			kind := lines[i][0]
			i++
			if i < len(lines) && lines[i] == "\\ No newline at end of file\n" {
				l = strings.TrimSuffix(l, "\n")
				i++
			}
			switch kind {
			case ' ', '-':
				if at >= len(a) || a[at] != l {
					return "", fmt.Errorf("line %d: %q, the diff says %q", at+1, strings.Join(a[at:min(at+1, len(a))], ""), l)
				}
				at++
				if kind == ' ' {
					out = append(out, l)
				}
			case '+':
				out = append(out, l)
			default:
				return "", fmt.Errorf("line %q", lines[i-1])
			}
		}
	}
	out = append(out, a[at:]...)
	return strings.Join(out, ""), nil
}

// randomEdit is a seeded random file of n lines from a small alphabet
// (many equal lines: the hard case for matching) and an edit of it.
func randomEdit(rng *rand.Rand, n int) (before, after string) {
	var a, b strings.Builder
	for range n {
		l := "x" + strconv.Itoa(rng.IntN(6)) + "\n"
		a.WriteString(l)
		switch rng.IntN(8) {
		case 0: // deleted
		case 1:
			b.WriteString("y" + strconv.Itoa(rng.IntN(6)) + "\n")
		case 2:
			b.WriteString(l + "z\n")
		default:
			b.WriteString(l)
		}
	}
	before, after = a.String(), b.String()
	if rng.IntN(4) == 0 {
		before = strings.TrimSuffix(before, "\n")
	}
	if rng.IntN(4) == 0 {
		after = strings.TrimSuffix(after, "\n")
	}
	return before, after
}

// TestUnifiedDiffApplies: 2,000 seeded random edits, each diff applied
// back gives the file after; a diff past MaxDiffEdits still applies.
func TestUnifiedDiffApplies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 2000 {
		before, after := randomEdit(rng, rng.IntN(60))
		d := UnifiedDiff("f", []byte(before), []byte(after), true)
		got, err := applyUnified(before, d)
		if err != nil || got != after {
			t.Fatalf("case %d: %v\nbefore %q\nafter %q\ngot %q\ndiff:\n%s", i, err, before, after, got, d)
		}
	}
	var a, b strings.Builder
	for i := range 3 * MaxDiffEdits {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	d := UnifiedDiff("f", []byte(a.String()), []byte(b.String()), true)
	if got, err := applyUnified(a.String(), d); err != nil || got != b.String() {
		t.Fatalf("past MaxDiffEdits: %v", err)
	}
}

// TestMyersShortest: the script's edits are as few as the longest common
// subsequence allows, by the textbook dynamic program, on 500 seeded
// random pairs.
func TestMyersShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for i := range 500 {
		before, after := randomEdit(rng, rng.IntN(40))
		a, b := splitLines(before), splitLines(after)
		edits := 0
		for _, op := range myers(a, b, MaxDiffEdits) {
			if op.kind != ' ' {
				edits++
			}
		}
		lcs := make([][]int, len(a)+1)
		for x := range lcs {
			lcs[x] = make([]int, len(b)+1)
		}
		for x := len(a) - 1; x >= 0; x-- {
			for y := len(b) - 1; y >= 0; y-- {
				if a[x] == b[y] {
					lcs[x][y] = lcs[x+1][y+1] + 1
				} else {
					lcs[x][y] = max(lcs[x+1][y], lcs[x][y+1])
				}
			}
		}
		if want := len(a) + len(b) - 2*lcs[0][0]; edits != want {
			t.Fatalf("case %d: %d edits, the shortest has %d", i, edits, want)
		}
	}
}

// FuzzUnifiedDiff: any two texts give a diff that turns the first into
// the second.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd", true)
	f.Add("", "x\n", false)
	f.Fuzz(func(t *testing.T, before, after string, existed bool) {
		if !existed {
			before = ""
		}
		d := UnifiedDiff("f", []byte(before), []byte(after), existed)
		if d == "" {
			if before != after {
				t.Fatalf("no diff for %q → %q", before, after)
			}
			return
		}
		got, err := applyUnified(before, d)
		if err != nil || got != after {
			t.Fatalf("%v: got %q want %q\n%s", err, got, after, d)
		}
	})
}
