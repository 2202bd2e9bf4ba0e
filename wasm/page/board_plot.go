package page

import (
	"strconv"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/words"
)

// boardRowH is a leaderboard plot's row height, and boardNameW the room
// its model names take left of the axis (names past boardNameRunes are
// cut with an ellipsis; the table beside it names them in full): 18 at
// the phone stylesheet's 22-unit font take about 220 units, the room left
// of the axis.
const (
	boardRowH      = 28.0
	boardNameW     = 190.0
	boardNameRunes = 18
)

// BoardPlot draws each model of a leaderboard as a row, highest accuracy
// first: a dot at its accuracy and a line across its interval, on one axis
// from 0 to 100%, coloured by its first tied group (six colours, then
// again) and labelled with its group letters.
func BoardPlot(b *compare.Board) string {
	h := padT + float64(len(b.Models))*boardRowH + padB
	s := newSVG("Each model's accuracy and "+words.Level(b.Level)+" interval, highest first", h)
	x0, x1 := padL+boardNameW-40, plotW-padR-30
	x := func(f float64) float64 { return x0 + (x1-x0)*clamp(f, 0, 1) }
	for i := 0; i <= 10; i++ {
		f := float64(i) / 10
		s.line("pl-grid", x(f), padT, x(f), h-padB)
		if i%2 == 0 {
			s.text("pl-tick", x(f), h-padB+16, "middle", strconv.Itoa(10*i)+"%")
		}
	}
	s.line("pl-axis", x(0), h-padB, x(1), h-padB)
	group := map[string]int{}
	for i, g := range b.Groups {
		group[g.Letter] = i
	}
	for i, m := range b.Models {
		y := padT + boardRowH*(float64(i)+0.5)
		first, _ := utf8.DecodeRuneInString(m.Groups)
		class := seriesClass(group[string(first)] % 6)
		s.text("pl-tick", x0-10, y+4, "end", shortName(m.Name))
		s.line("pl-curve "+class, x(m.Low), y, x(m.High), y)
		s.circle("pl-mark "+class, x(m.Accuracy), y, 5)
		s.text("pl-tick", x1+8, y+4, "start", m.Groups)
	}
	s.text("pl-label", (x0+x1)/2, h-4, "middle", "accuracy, "+words.Level(b.Level)+" interval")
	return s.String()
}

// shortName is a model's name cut to boardNameRunes, with an ellipsis.
func shortName(name string) string {
	if utf8.RuneCountInString(name) <= boardNameRunes {
		return name
	}
	return string([]rune(name)[:boardNameRunes-1]) + "…"
}
