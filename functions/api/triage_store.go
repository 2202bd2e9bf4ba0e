package api

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/store"
)

// The runs of /v1/history and a triage's past may come as a history store
// (flakegate record, docs/STORE.md): a report part whose bytes begin with
// the store's header is read as the store, its recorded runs in order, as
// flakegate history and triage read one.

// readStorePart reads a store part (held in memory: the body limit bounds
// it) into hr's history. Before anything is inflated, the records' stated
// results are summed against the request's unzip limit, so a store cannot
// make the reader allocate more than a zip archive may unpack to.
func (hr *historyReader) readStorePart(name string, r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	raw := storeRawBytes(data)
	if hr.unzipped+raw > hr.unzipLimit {
		return &core.Error{Kind: core.TooLarge, File: name, Msg: fmt.Sprintf(
			"the store's results unpack to more than this server's limit of %s%s; run the CLI, which has no such limit",
			byteSize(hr.unzipLimit), hr.note)}
	}
	hr.unzipped += raw
	return store.Each(bytes.NewReader(data), name, func(e store.Entry) error {
		before := hr.h.Results()
		if err := hr.h.AddParsed(e.Report); err != nil {
			return core.WithFile(err, name)
		}
		hr.results += hr.h.Results() - before
		if hr.h.Runs() > MaxHistoryRuns {
			return tooMany("", hr.h.Runs(), MaxHistoryRuns, "runs", "run the CLI, which has no such limit")
		}
		if hr.results > MaxHistoryResults {
			return tooMany("", int(hr.results), MaxHistoryResults, "test results (a test in a run)", "run the CLI, which has no such limit")
		}
		return nil
	})
}

// storeRawBytes sums the uncompressed length every record of a store
// states for its results (docs/STORE.md, "Format, version 1"), reading no
// more than each record's fields before it. A record it cannot walk is
// left to the store's reader, which refuses it with where: its stated
// length counts as nothing here.
func storeRawBytes(data []byte) int64 {
	if len(data) < store.HeaderSize {
		return 0
	}
	var total int64
	rest := data[store.HeaderSize:]
	for len(rest) >= 8 {
		size := int64(binary.LittleEndian.Uint32(rest))
		if size > int64(len(rest)-8) {
			break // torn: the reader says so
		}
		total += recordRawLen(rest[4 : 4+size])
		rest = rest[8+size:]
	}
	return total
}

// recordRawLen is the results' uncompressed length a record body states
// ('R', identity, new names, run id, attempt, recorded, file, notes, runs,
// raw length), or 0 when the body ends before it.
func recordRawLen(body []byte) int64 {
	br := bufio.NewReader(bytes.NewReader(body))
	if k, err := br.ReadByte(); err != nil || k != 'R' {
		return 0
	}
	if _, err := br.Discard(16); err != nil {
		return 0
	}
	ok := true
	uv := func() uint64 {
		v, err := binary.ReadUvarint(br)
		ok = ok && err == nil
		return v
	}
	str := func() {
		n := uv()
		if ok && n <= uint64(len(body)) {
			_, err := br.Discard(int(n))
			ok = err == nil
		} else {
			ok = false
		}
	}
	tm := func() {
		b, err := br.ReadByte()
		if err != nil || b == 0 {
			ok = ok && err == nil
			return
		}
		_, err = binary.ReadVarint(br)
		ok = ok && err == nil
		uv()
		_, err = binary.ReadVarint(br)
		ok = ok && err == nil
	}
	strs := func(each func()) {
		n := uv()
		for i := uint64(0); ok && i < n; i++ {
			each()
		}
	}
	strs(str) // new names
	str()     // run id
	uv()      // attempt
	tm()      // recorded
	str()     // file
	strs(str) // notes
	strs(func() {
		str()
		str()
		str()
		str()
		str()
		tm()
	})
	raw := uv()
	if !ok || raw > store.MaxRaw {
		return 0
	}
	return int64(raw)
}
