package store

import (
	"errors"
	"io"
	"slices"
	"time"

	"github.com/flakegate/flakegate/core/history"
)

// State is what appending to a store needs: its name table, the
// identities of its entries and where its intact records end.
type State struct {
	names *Names
	// ids are the entries' identities in order; byID indexes them once
	// more than a few are looked up (a scan never needs to).
	ids     []ID
	byID    map[ID]bool
	lookups int
	// End is the byte offset past the last intact record: 0 for an empty
	// file (the header is still to be written), else at least HeaderSize.
	End     int64
	version int // the store's format version; 0 while it is empty
	Entries int // intact entries
	Runs    int // runs in them
	// Damage is where the store stops being readable; nil when every byte
	// is an intact record. Bytes past End are not the store's.
	Damage *Damage
}

// Scan reads a store for appending: an empty r is an empty store. Damage
// past the header is State.Damage, not an error; a file that is not a
// store, or whose header is damaged, is a *Damage error.
func Scan(r io.Reader, file string) (*State, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return ScanBytes(data, file)
}

// ScanBytes is Scan of a store in memory (or mapped from its file). Its
// cost is a pass over the bytes, checking each record's checksum, and the
// name table: it keeps nothing else of the records.
func ScanBytes(data []byte, file string) (*State, error) {
	s := NewState()
	s.ids = make([]ID, 0, len(data)/64) // records are rarely smaller
	rd, err := NewBytesReader(data, file)
	if err != nil {
		if d, ok := IsDamage(err); ok && d.Torn && d.Offset == 0 {
			// An empty file, or a header cut short: nothing was recorded.
			return s, nil
		}
		return nil, err
	}
	if err := s.read(rd); err != nil {
		return nil, err
	}
	return s, nil
}

// read skims rd's entries into s: their identities and names, nothing
// else kept, so that scanning costs a pass over the store's bytes.
func (s *State) read(rd *Reader) error {
	rd.ids = true
	s.End = rd.Offset()
	for {
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if d, ok := IsDamage(err); ok {
			s.Damage = d
			break
		}
		if err != nil {
			return err
		}
		s.ids = append(s.ids, e.ID)
	}
	names := rd.Names()
	s.names = &Names{list: names, index: make(map[string]uint32, len(names))}
	for i, n := range names {
		s.names.index[n] = uint32(i)
	}
	s.End, s.Entries, s.Runs, s.version = rd.Offset(), rd.Entries(), rd.Runs(), rd.version
	return nil
}

// Has reports whether the store holds an entry of identity id.
func (s *State) Has(id ID) bool {
	if s.byID == nil && s.lookups < 8 {
		s.lookups++
		return slices.Contains(s.ids, id)
	}
	if s.byID == nil {
		s.byID = make(map[ID]bool, len(s.ids))
		for _, x := range s.ids {
			s.byID[x] = true
		}
	}
	return s.byID[id]
}

// mark notes that the store now holds id.
func (s *State) mark(id ID) {
	s.ids = append(s.ids, id)
	if s.byID != nil {
		s.byID[id] = true
	}
}

// Add returns the bytes that append e to the store (the header first when
// the store is empty) and true, or nil and false when the store holds e
// already (the same identity). The bytes are to be written at End; after
// that, End counts them.
func (s *State) Add(e Entry) ([]byte, bool) {
	secs := e.Report.Seconds()
	if e.ID == (ID{}) {
		e.ID = identity(e, secs)
	}
	if s.Has(e.ID) {
		return nil, false
	}
	var out []byte
	if s.End == 0 {
		out = Header()
		s.version = Version
	}
	out = append(out, encode(s.names, e, secs, s.version)...)
	s.mark(e.ID)
	s.End += int64(len(out))
	s.Entries++
	metas, _ := e.Report.Runs()
	s.Runs += len(metas)
	return out, true
}

// NewState is the state of an empty store.
func NewState() *State { return &State{names: NewNames()} }

// When is the time retention judges an entry by: its latest run's time,
// else when it was recorded; zero when neither is known.
func When(e Entry) time.Time {
	var t time.Time
	metas, _ := e.Report.Runs()
	for _, m := range metas {
		if m.Time.After(t) {
			t = m.Time
		}
	}
	if t.IsZero() {
		return e.Recorded
	}
	return t
}

// Each calls fn with every entry of a store in order, each identity once
// (an entry recorded twice is given the first time). It stops at fn's
// first error, and at damage with the *Damage. The entry's results and run
// times are valid until fn returns (Reader.Reuse): fn copies what it
// keeps, as history.AddParsed does.
func Each(r io.Reader, file string, fn func(Entry) error) error {
	rd, err := NewReader(r, file)
	if err != nil {
		return err
	}
	rd.Reuse()
	return rd.once(nil, fn)
}

// once calls fn with each entry rd reads, each identity once; check, when
// not nil, before each.
func (rd *Reader) once(check func() error, fn func(Entry) error) error {
	seen := map[ID]bool{}
	for {
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if seen[e.ID] {
			continue
		}
		seen[e.ID] = true
		if err := fn(e); err != nil {
			return err
		}
	}
}

// AddHistory adds every entry of a store to h in order, each identity
// once, as h.AddParsed of each entry Each gives would, with the same
// figures, but without looking each result's test up by name: the
// store's name table is resolved to h's tests once (history.Table). check,
// when not nil, is called before each entry; its error stops the reading.
func AddHistory(h *history.History, r io.Reader, file string, check func() error) error {
	rd, err := NewReader(r, file)
	if err != nil {
		return err
	}
	rd.indexed = true
	t := h.Table()
	return rd.once(check, func(Entry) error {
		t.Extend(rd.names[t.Len():]...)
		return t.AddIndexed(rd.efile, rd.metas, rd.iruns, rd.notes, rd.isecs)
	})
}
