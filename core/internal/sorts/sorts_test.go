package sorts

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

type rec struct {
	key int // few distinct values, so most elements tie with others
	id  int // where the element started, to tell tied elements apart
	pad [3]float64
}

// inputs are the slices the sorts are tried on: every length to 200 and
// some longer, in the orders that steer pdqsort down its other paths
// (sorted, reversed, all equal, sawtooth, organ pipe, random with many
// ties), seeded so a failure repeats.
func inputs() [][]rec {
	r := rand.New(rand.NewPCG(7, 11))
	var out [][]rec
	lengths := []int{}
	for n := 0; n <= 200; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000, 4096, 20000)
	for _, n := range lengths {
		for pattern := range 6 {
			s := make([]rec, n)
			for i := range s {
				switch pattern {
				case 0:
					s[i].key = i
				case 1:
					s[i].key = n - i
				case 2:
					s[i].key = 5
				case 3:
					s[i].key = i % 17
				case 4:
					s[i].key = min(i, n-i)
				default:
					s[i].key = r.IntN(1 + n/8)
				}
				s[i].id = i
			}
			out = append(out, s)
		}
	}
	return out
}

// The reference is the standard library itself: the index sorts must give
// slices.SortFunc's and slices.SortStableFunc's order element for element,
// ties included, for a consistent comparison, a reversed one and one that
// is not even transitive (the order the standard sort then leaves is
// arbitrary but fixed, and the index sort must leave the same).
func TestSameOrderAsTheStandardSorts(t *testing.T) {
	cmps := map[string]func(a, b rec) int{
		"by key":       func(a, b rec) int { return cmp.Compare(a.key, b.key) },
		"by key, desc": func(a, b rec) int { return cmp.Compare(b.key, a.key) },
		"cyclic":       func(a, b rec) int { return (a.key-b.key+300)%3 - 1 },
	}
	sorts := []struct {
		name      string
		std, ours func([]rec, func(a, b rec) int)
	}{
		{"index sort", slices.SortFunc[[]rec, rec], indexFunc[[]rec, rec]},
		{"index stable sort", slices.SortStableFunc[[]rec, rec], indexStableFunc[[]rec, rec]},
		{"Func", slices.SortFunc[[]rec, rec], Func[[]rec, rec]},
		{"Stable", slices.SortStableFunc[[]rec, rec], Stable[[]rec, rec]},
	}
	checked := 0
	for _, in := range inputs() {
		for cname, c := range cmps {
			for _, s := range sorts {
				want, got := slices.Clone(in), slices.Clone(in)
				s.std(want, c)
				s.ours(got, c)
				if !slices.Equal(got, want) {
					t.Fatalf("%s %s of %d elements: %v, want %v", s.name, cname, len(in), ids(got), ids(want))
				}
				checked++
			}
		}
	}
	if checked < 4000 {
		t.Fatalf("checked only %d sorts", checked)
	}
}

func ids(s []rec) string {
	if len(s) > 20 {
		s = s[:20]
	}
	out := ""
	for _, r := range s {
		out += fmt.Sprintf("%d:%d ", r.key, r.id)
	}
	return out
}

func ExampleStable() {
	runs := []struct {
		Name string
		Day  int
	}{{"c", 2}, {"a", 1}, {"b", 2}, {"d", 1}}
	Stable(runs, func(a, b struct {
		Name string
		Day  int
	}) int {
		return cmp.Compare(a.Day, b.Day)
	})
	fmt.Println(runs)
	// Output: [{a 1} {d 1} {c 2} {b 2}]
}
