package page

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// boardView is the leaderboard the compare page shows when its link holds
// "board=" (share.Leaderboard, what `flakegate compare A B C -site` writes):
// three or more models ranked on the questions they share, with the
// options the link carries.
type boardView struct {
	models []compare.Model
	opt    compare.BoardOptions
	res    *compare.Board
	err    error
	md     string            // the leaderboard's Markdown, without its link
	keys   []string          // the result's JSON members but models and pairs, for All figures
	raw    []json.RawMessage // their JSON
}

// boardShown are the Board's members the page shows in its own tables;
// All figures holds the rest.
var boardShown = map[string]bool{"models": true, "pairs": true}

// loadBoard shows the leaderboard of a link's "board=" data, or the
// reason it cannot be read, in place of any comparison.
func (c *Compare) loadBoard(data string) {
	c.sides = [2]cmpSide{{gen: c.sides[0].gen + 1}, {gen: c.sides[1].gen + 1}}
	c.res, c.err, c.md, c.keys, c.raw = nil, nil, "", nil, nil
	s, err := share.DecodeBoard(data)
	if err != nil {
		c.linkErr, c.board = err, nil
		return
	}
	b := &boardView{}
	b.models, b.opt = s.Board()
	b.res, b.err = compare.Leaderboard(b.models, b.opt)
	if b.res != nil {
		b.md = words.BoardMarkdown(b.res, words.Link{})
		var buf bytes.Buffer
		core.WriteJSON(&buf, b.res)
		keys, raw := orderedObject(buf.Bytes())
		for i, k := range keys {
			if !boardShown[k] {
				b.keys, b.raw = append(b.keys, k), append(b.raw, raw[i])
			}
		}
	}
	c.board = b
}

// Board is the leaderboard on the page (nil unless a link holds one).
func (c *Compare) Board() *compare.Board {
	if c.board == nil {
		return nil
	}
	return c.board.res
}

// boardLink is the view of the leaderboard shown, for the address bar.
func (c *Compare) boardLink() (share.View, error) {
	return share.Leaderboard(c.board.models, c.board.opt)
}

// renderBoard is the leaderboard: the answer, the table of models, the
// picture of their intervals, the story, the pairs, the caveats, Share and
// every other figure. Its figures are under the scope "board", the JSON
// of `flakegate compare A B C -json`.
func (c *Compare) renderBoard() app.UI {
	v := c.board
	if v.err != nil {
		return app.P().Class("error").Role("alert").DataSet("error", "compare").Text(errString(v.err))
	}
	b := v.res
	story := words.BoardStory(b)
	head := append(words.BoardRows(b, nil).Head, "tied with")
	pairHead := append(words.PairRows(b, nil).Head, "test")
	bh := len(b.Pairs) > 0 && b.Pairs[0].BH != nil
	return app.Section().Class("result").ID("result").Aria("label", "Result").DataSet("scope", "board").Body(
		app.Div().ID("answer").Class("answer").Aria("live", "polite").Body(
			app.P().Class("answer-text").ID("answer-text").Text(words.BoardAnswer(b)),
		),
		app.Div().Class("table-wrap").Body(app.Table().ID("leaderboard").Body(
			app.Caption().Text("Leaderboard on "+words.Nouns(b.Questions, "shared question")),
			app.THead().Body(app.Tr().Body(app.Range(head).Slice(func(k int) app.UI { return th(head[k]) }))),
			app.TBody().DataSet("scope", "models").Body(app.Range(b.Models).Slice(func(k int) app.UI {
				return boardRow(k, b.Models[k])
			})),
		)),
		app.Figure().Body(app.Raw(BoardPlot(b)),
			app.FigCaption().Text("Each model's accuracy (dot) and its "+words.Level(b.Level)+" interval (line), highest first; one colour a tied group.")),
		app.Ul().Class("story").ID("story").Body(app.Range(story).Slice(func(k int) app.UI { return app.Li().Text(story[k]) })),
		app.Div().Class("table-wrap").Body(app.Table().ID("pairs").Body(
			app.Caption().Text("Every pair, Holm's p corrected over "+words.Nouns(b.Comparisons, "comparison")),
			app.THead().Body(app.Tr().Body(app.Range(pairHead).Slice(func(k int) app.UI { return th(pairHead[k]) }))),
			app.TBody().DataSet("scope", "pairs").Body(app.Range(b.Pairs).Slice(func(k int) app.UI {
				return pairRow(k, b.Pairs[k], bh)
			})),
		)),
		app.If(len(b.Warnings) > 0, func() app.UI {
			return app.Ul().Class("caveats").Body(app.Range(b.Warnings).Slice(func(k int) app.UI { return app.Li().Text(b.Warnings[k]) }))
		}),
		c.copyButtons(func(link string) string { return words.BoardMarkdown(b, c.link(link)) }),
		app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(v.md)),
		app.Details().ID("all-figures").Body(app.Summary().Text("All other figures (the JSON of flakegate compare A B C -json)"),
			app.Range(v.keys).Slice(func(k int) app.UI { return genericField(v.keys[k], v.raw[k]) }),
		),
	)
}

// boardRow is row k of the leaderboard: place, name, accuracy and its
// interval, the rank interval, the groups and the models tied with it.
func boardRow(k int, m compare.BoardModel) app.UI {
	rankHigh := app.UI(app.Span().Body(app.Text("–"), fieldInt("rank_high", int64(m.RankHigh))))
	if m.RankLow == m.RankHigh {
		rankHigh = hidden().Body(fieldInt("rank_high", int64(m.RankHigh)))
	}
	return app.Tr().DataSet("scope", strconv.Itoa(k)).Body(
		app.Td().Body(fieldInt("place", int64(m.Place))),
		app.Td().Class("id").Body(fieldStr("name", m.Name)),
		app.Td().Body(fieldNum("accuracy", m.Accuracy, words.Percent(m.Accuracy))),
		app.Td().Body(fieldNum("low", m.Low, words.Percent(m.Low)), app.Text(" to "), fieldNum("high", m.High, words.Percent(m.High))),
		app.Td().Body(fieldInt("rank_low", int64(m.RankLow)), rankHigh),
		app.Td().Body(fieldStr("groups", m.Groups)),
		app.Td().DataSet("scope", "tied").Body(app.Range(m.Tied).Slice(func(j int) app.UI {
			sep := ""
			if j > 0 {
				sep = ", "
			}
			return app.Span().Body(app.Text(sep), fieldStr(strconv.Itoa(j), m.Tied[j]))
		})),
	)
}

// pairRow is row k of the pairs: the two models, the difference and its
// interval, p, Holm's p (and BH's when asked for), whether the eval tells
// them apart, and the test.
func pairRow(k int, p compare.BoardPair, bh bool) app.UI {
	// Without BH asked for, its null is kept beside Holm's p, unseen.
	holm := app.Td().Body(fieldNum("holm", p.Holm, words.PValue(p.Holm)), hidden().Body(fieldOptNum("bh", p.BH, words.PValue)))
	var bhCell app.UI
	if bh {
		holm = app.Td().Body(fieldNum("holm", p.Holm, words.PValue(p.Holm)))
		bhCell = app.Td().Body(fieldOptNum("bh", p.BH, words.PValue))
	}
	return app.Tr().DataSet("scope", strconv.Itoa(k)).Body(
		app.Td().Class("id").Body(fieldStr("higher", p.Higher)),
		app.Td().Class("id").Body(fieldStr("lower", p.Lower)),
		app.Td().Body(fieldNum("diff", p.Diff, words.Points(p.Diff))),
		app.Td().Body(fieldNum("low", p.Low, words.Points(p.Low)), app.Text(" to "), fieldNum("high", p.High, words.Points(p.High))),
		app.Td().Body(fieldNum("p_value", p.PValue, words.PValue(p.PValue))),
		holm,
		bhCell,
		app.Td().Body(fieldBool("significant", p.Significant, "yes", "no")),
		app.Td().Body(fieldStr("test", p.Test)),
	)
}
