package share

import (
	"errors"

	"github.com/flakegate/flakegate/core/history"
)

// HistoryPath is the history's view.
const HistoryPath = "/history"

// LeftHistory: a history's figures are past MaxFragment; there is no link,
// the reports go to the view instead.
const LeftHistory = "history"

// HistoryState is the shareable state of a history: its result, which
// holds every figure the view shows (the per-test counts, rates, intervals,
// trends and budgets, the incidents and their evidence). The reports are
// not needed; the view shows the result as it is. A link carries it as
// "history=" + Pack(it).
type HistoryState struct {
	Version int             `json:"v"` // format version, 1
	Result  *history.Result `json:"result"`
}

// History is the view of a history's result. Past MaxFragment the view has
// no link (LeftHistory).
func History(r *history.Result) (View, error) {
	if r == nil {
		return View{}, errors.New("share: a history view needs a result")
	}
	c := *r
	c.Link, c.LinkNote = "", ""
	enc, err := Pack(HistoryState{Version: 1, Result: &c})
	if err != nil {
		return View{}, err
	}
	return packedView(HistoryPath, "history", enc, LeftHistory), nil
}
