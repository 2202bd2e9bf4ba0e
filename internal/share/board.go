package share

import (
	"errors"
	"fmt"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
)

// BoardKey is the link's key of a leaderboard's state: the leaderboard is
// shown on the comparison's view (ComparePath) as "board=" + Pack(it).
const BoardKey = "board"

// LeftBoard: a leaderboard's questions are past MaxFragment; there is no
// link.
const LeftBoard = "leaderboard"

// BoardVersion is the version of the leaderboard state BoardStateOf writes.
const BoardVersion = 1

// BoardModelState is one model of a leaderboard's state: its name and its
// questions (passes of trials), in the order its logs gave them.
type BoardModelState struct {
	Name      string     `json:"name"`
	Questions []aa.Tally `json:"q"`
}

// BoardState is the shareable state of a leaderboard: each model's
// questions and the options. compare.Leaderboard on it gives every figure
// of `flakegate compare A B C -json` but the logs' reading notes.
type BoardState struct {
	Version int               `json:"v"` // format version, BoardVersion
	Models  []BoardModelState `json:"models"`
	// Level is the confidence level, in (0,1).
	Level float64 `json:"level"`
	BH    bool    `json:"bh,omitempty"`
	// CategoryField names the categories; with it, Categories maps the
	// first model's question ids to their category (ids without one are
	// left out, as they are of the per-category rows).
	CategoryField string            `json:"category_field,omitempty"`
	Categories    map[string]string `json:"categories,omitempty"`
}

// BoardStateOf is the leaderboard of models with opt as a BoardState:
// only the categories of the first model's questions are kept, the only
// ones Leaderboard reads.
func BoardStateOf(models []compare.Model, opt compare.BoardOptions) BoardState {
	s := BoardState{Version: BoardVersion, Level: opt.Level, BH: opt.BH, Models: make([]BoardModelState, len(models))}
	for i, m := range models {
		s.Models[i] = BoardModelState{Name: m.Name, Questions: m.Side.Scenarios}
	}
	if opt.Categories != nil {
		s.CategoryField = opt.CategoryField
		if len(models) > 0 {
			for _, t := range models[0].Side.Scenarios {
				if c, ok := opt.Categories[t.ID]; ok {
					if s.Categories == nil {
						s.Categories = map[string]string{}
					}
					s.Categories[t.ID] = c
				}
			}
		}
	}
	return s
}

// Board is the leaderboard a BoardState holds: its models and options,
// for compare.Leaderboard. A state with a category field has categories
// (none when the map is absent), as the CLI's -category gives.
func (s BoardState) Board() ([]compare.Model, compare.BoardOptions) {
	models := make([]compare.Model, len(s.Models))
	for i, m := range s.Models {
		models[i] = compare.Model{Name: m.Name, Side: &aa.Side{Scenarios: m.Questions}}
	}
	opt := compare.BoardOptions{Level: s.Level, BH: s.BH}
	if s.CategoryField != "" {
		opt.CategoryField, opt.Categories = s.CategoryField, s.Categories
		if opt.Categories == nil {
			opt.Categories = map[string]string{}
		}
	}
	return models, opt
}

// Leaderboard is the leaderboard's view: the comparison's view holding
// "board=". Past MaxFragment the view has no link (LeftBoard).
func Leaderboard(models []compare.Model, opt compare.BoardOptions) (View, error) {
	for _, m := range models {
		if m.Side == nil {
			return View{}, errors.New("share: a leaderboard's model has no questions")
		}
	}
	enc, err := Pack(BoardStateOf(models, opt))
	if err != nil {
		return View{}, err
	}
	return packedView(ComparePath, BoardKey, enc, LeftBoard), nil
}

// DecodeBoard reverses Leaderboard's fragment value. It refuses an unknown
// field, another version, fewer than 2 or more than compare.MaxBoardModels
// models, categories without their field, and tallies no log could give;
// the leaderboard checks the rest (names, duplicate ids, the level).
func DecodeBoard(text string) (BoardState, error) {
	raw, err := Unpack(text)
	if err != nil {
		return BoardState{}, err
	}
	var s BoardState
	if err := decodeState(raw, &s); err != nil {
		return BoardState{}, err
	}
	switch k := len(s.Models); {
	case s.Version != BoardVersion:
		return BoardState{}, fmt.Errorf("share data: unknown version %d", s.Version)
	case k < 2 || k > compare.MaxBoardModels:
		return BoardState{}, fmt.Errorf("share data: %d models; a leaderboard has 2 to %d", k, compare.MaxBoardModels)
	case s.Categories != nil && s.CategoryField == "":
		return BoardState{}, errors.New("share data: categories without a category field")
	}
	for i, m := range s.Models {
		if len(m.Questions) == 0 {
			return BoardState{}, fmt.Errorf("share data: models[%d] has no questions", i)
		}
		for _, t := range m.Questions {
			if t.Total < 1 || t.Passed < 0 || t.Passed > t.Total {
				return BoardState{}, fmt.Errorf("share data: models[%d]: question %q: passed %d of %d", i, t.ID, t.Passed, t.Total)
			}
		}
	}
	return s, nil
}
