// Package store reads and writes a history store: one append-only file
// that remembers every recorded CI run, so that flakegate history,
// quarantine check and budget -from can read months of runs without the
// reports (docs/STORE.md describes the format byte by byte).
//
// A store is a 17-byte header (Magic, then the version byte) and records.
// A record is its body's length (4 bytes, little-endian), the body, and the
// CRC-32C (Castagnoli) of length and body (4 bytes, little-endian). One
// record holds one entry: what one `flakegate record` read (the report
// files of one run, as package history parsed them), its identity, the new
// test names it brings (the name table is the union of these, in order) and
// its results, column by column, compressed with DEFLATE.
//
// The contract:
//   - Reading gives back exactly what was encoded: run metas, per-test
//     passed and trials, the reader's notes and the per-test run times
//     (sums of seconds, bit for bit), so history.AddParsed gives the same
//     figures from a store as from the reports.
//   - A record is appended with one write of its bytes; a reader that
//     meets a record whose length runs past the end of the file, or whose
//     checksum does not match, stops there with a *Damage naming the byte
//     offset and the record, and everything before it stays readable.
//   - Nothing here touches a file system: the command does the locking,
//     the syncing and the truncating (the package builds for js/wasm).
package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"

	"github.com/flakegate/flakegate/core"
)

// Magic opens every store; the version byte follows it.
const Magic = "flakegate store\n"

// Version is the format version this package writes: 2 keeps, beside
// what version 1 keeps, each run's arm and identity for quarantine check
// and each result's retry history (Recorded). Version 1 stores are read,
// and appended to as version 1.
const Version = 2

// HeaderSize is the bytes before the first record: Magic and the version.
const HeaderSize = len(Magic) + 1

// Limits that bound what a reader allocates before it checks a record.
const (
	MaxRecord = 64 << 20  // bytes of one record's body
	MaxRaw    = 256 << 20 // bytes of one record's results, uncompressed
	MaxNames  = 1_000_000 // distinct test names in one store
)

// frame is the bytes of a record besides its body: length and checksum.
const frame = 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header is the header every store begins with.
func Header() []byte { return append([]byte(Magic), Version) }

// IsStore reports whether head (a file's first bytes) begins a store.
func IsStore(head []byte) bool {
	return len(head) >= len(Magic) && string(head[:len(Magic)]) == Magic
}

// checkHeader says what is wrong with a store's header, or "".
func checkHeader(head []byte) string {
	if !IsStore(head) {
		return "not a flakegate store (it does not begin with " + strconv.Quote(Magic) + ")"
	}
	if len(head) < HeaderSize {
		return "the header is cut short"
	}
	if v := head[len(Magic)]; v < 1 || v > Version {
		return "a store of format version " + strconv.Itoa(int(v)) + "; this flakegate reads versions 1 to " + strconv.Itoa(Version)
	}
	return ""
}

// frameRecord wraps body in its length and checksum.
func frameRecord(body []byte) []byte {
	out := make([]byte, 4, len(body)+frame)
	binary.LittleEndian.PutUint32(out, uint32(len(body)))
	out = append(out, body...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// Damage is where a store stops being readable: a torn record (the file
// ends inside it, as after a killed append) or a corrupt one (its checksum
// does not match, or its content is not a record of this version). Every
// record before Offset is intact.
type Damage struct {
	File    string
	Offset  int64  // byte offset of the damaged record's start (or the header's)
	Record  int    // 1-based number of the damaged record; 0 for the header
	Entries int    // entries intact before it
	Runs    int    // runs intact before it
	Torn    bool   // the file ends inside the record: an append cut short
	What    string // what is wrong, in the user's words
}

func (d *Damage) Error() string { return d.err().Error() }

// Unwrap makes a Damage an invalid-input *core.Error.
func (d *Damage) Unwrap() error { return d.err() }

func (d *Damage) err() *core.Error {
	var msg string
	if d.Record == 0 {
		msg = d.What // not a store, a version this flakegate does not read, or nothing recorded
	} else {
		msg = fmt.Sprintf("damaged at byte %d, record %d: %s; the %s before it (%s) are intact", d.Offset, d.Record, d.What, plural(d.Entries, "record"), plural(d.Runs, "run"))
		if d.Torn {
			msg += " (an append was cut short: `flakegate record` removes the torn tail before it appends)"
		} else {
			msg += " (`flakegate record -store FILE -repair` keeps them and sets the rest aside)"
		}
	}
	return &core.Error{Kind: core.Invalid, File: d.File, Msg: msg}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// IsDamage reports whether err is a *Damage, and returns it.
func IsDamage(err error) (*Damage, bool) {
	var d *Damage
	ok := errors.As(err, &d)
	return d, ok
}
