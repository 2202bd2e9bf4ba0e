package triage

import (
	"strconv"
	"strings"
)

// DiffContext is the lines of context around each change of UnifiedDiff,
// as diff -u and git diff give them.
const DiffContext = 3

// MaxDiffEdits bounds the work of UnifiedDiff: past this many inserted and
// deleted lines between the first and the last change, the lines between
// them are given as all deleted and all inserted (a correct diff, only a
// longer one), so a diff of two files of n lines takes O(n·MaxDiffEdits)
// steps and O(MaxDiffEdits²) memory at most.
const MaxDiffEdits = 1000

// UnifiedDiff is the unified diff that turns before into after, the file
// at path (slash-separated, relative to where the diff is applied: the
// repository's root), in the form git diff writes and both git apply and
// patch -p1 apply: a "diff --git a/path b/path" header, "--- a/path" (or
// "--- /dev/null" and "new file mode 100644" when existed is false: the
// file is created), "+++ b/path", then hunks of DiffContext lines of
// context; a last line without a newline is marked "\ No newline at end of
// file". It is "" when there is nothing to change. The lines between the
// first and the last change are matched by Myers' shortest edit script,
// bounded by MaxDiffEdits.
func UnifiedDiff(path string, before, after []byte, existed bool) string {
	if existed && string(before) == string(after) {
		return ""
	}
	a, b := splitLines(string(before)), splitLines(string(after))
	ops := diffLines(a, b)
	var w strings.Builder
	w.WriteString("diff --git a/" + path + " b/" + path + "\n")
	if existed {
		w.WriteString("--- a/" + path + "\n")
	} else {
		w.WriteString("new file mode 100644\n--- /dev/null\n")
	}
	w.WriteString("+++ b/" + path + "\n")
	writeHunks(&w, ops)
	return w.String()
}

// splitLines splits s into lines, each with its "\n" but the last when s
// does not end in one.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// diffOp is one line of a diff: kept (' '), deleted ('-') or inserted
// ('+').
type diffOp struct {
	kind byte
	line string
}

// diffLines is the edit script from a to b: the common head and tail
// kept, the middle by Myers' algorithm.
func diffLines(a, b []string) []diffOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []diffOp
	for _, l := range a[:head] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, myers(a[head:len(a)-tail], b[head:len(b)-tail], MaxDiffEdits)...)
	for _, l := range a[len(a)-tail:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// myers is the shortest edit script from a to b (E. W. Myers, "An O(ND)
// difference algorithm and its variations", 1986), deletions before
// insertions where both could come first; past maxD edits, a deleted
// whole and b inserted whole.
func myers(a, b []string, maxD int) []diffOp {
	n, m := len(a), len(b)
	lim := min(maxD, n+m)
	off := lim + 1
	v := make([]int, 2*lim+3)
	// trace[d] is v after step d, for k in [-d, d].
	var trace [][]int
	for d := 0; d <= lim; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, d, k)
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	ops := make([]diffOp, 0, n+m)
	for _, l := range a {
		ops = append(ops, diffOp{'-', l})
	}
	for _, l := range b {
		ops = append(ops, diffOp{'+', l})
	}
	return ops
}

// backtrack walks Myers' trace back from the end, reached at step d on
// diagonal k, and returns the script in order.
func backtrack(a, b []string, trace [][]int, d, k int) []diffOp {
	x, y := len(a), len(b)
	var rev []diffOp
	for ; d > 0; d-- {
		prev := trace[d-1] // k' in [-(d-1), d-1] at prev[k'+d-1]
		at := func(k int) int { return prev[k+d-1] }
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py && (pk == k+1 && y > py+1 || pk == k-1 && x > px+1) {
			x--
			y--
			rev = append(rev, diffOp{' ', a[x]})
		}
		if pk == k+1 {
			y--
			rev = append(rev, diffOp{'+', b[y]})
		} else {
			x--
			rev = append(rev, diffOp{'-', a[x]})
		}
		k = pk
	}
	for x > 0 {
		x--
		rev = append(rev, diffOp{' ', a[x]})
	}
	out := make([]diffOp, len(rev))
	for i, op := range rev {
		out[len(rev)-1-i] = op
	}
	return out
}

// writeHunks writes the hunks of ops: each change with DiffContext lines
// of context, changes whose contexts meet in one hunk.
func writeHunks(w *strings.Builder, ops []diffOp) {
	// apos[i], bpos[i]: the lines of before and after ahead of ops[i].
	apos, bpos := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for i, op := range ops {
		apos[i+1], bpos[i+1] = apos[i], bpos[i]
		if op.kind != '+' {
			apos[i+1]++
		}
		if op.kind != '-' {
			bpos[i+1]++
		}
	}
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-DiffContext)
		j := i
		for {
			for j < len(ops) && ops[j].kind != ' ' {
				j++
			}
			k := j
			for k < len(ops) && ops[k].kind == ' ' {
				k++
			}
			if k < len(ops) && k-j <= 2*DiffContext {
				j = k
				continue
			}
			break
		}
		end := min(len(ops), j+DiffContext)
		w.WriteString("@@ -" + hunkRange(apos[start], apos[end]-apos[start]) + " +" + hunkRange(bpos[start], bpos[end]-bpos[start]) + " @@\n")
		for _, op := range ops[start:end] {
			w.WriteByte(op.kind)
			w.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				w.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
}

// hunkRange is a hunk's range of lines: its first line (1-based; for no
// lines, the line before them) and count.
func hunkRange(before, count int) string {
	first := before + 1
	if count == 0 {
		first = before
	}
	return strconv.Itoa(first) + "," + strconv.Itoa(count)
}
