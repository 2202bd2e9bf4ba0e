package quarantine

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// Read reads a registry and checks it strictly: the JSON must be the
// registry's format (an unknown or repeated field is an error, not
// ignored), its version one this package reads, and its content
// consistent (see Validate), with today, YYYY-MM-DD, as the latest date an
// entry may carry. At most MaxBytes are read.
//
// Errors are *core.Error values of Kind Invalid (TooLarge past the limits)
// that name the JSON path of the fault ("tests[3].claim.upper") and its
// line and column; the caller adds the file name with core.WithFile.
func Read(r io.Reader, today string) (*Registry, error) {
	if _, err := parseDate(today); err != nil {
		return nil, core.FieldErrorf("today", "must be a date YYYY-MM-DD, got %q", today)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf("the registry is larger than %d bytes", MaxBytes)}
	}
	return Parse(data, today)
}

// Parse is Read of a registry held in memory.
func Parse(data []byte, today string) (*Registry, error) {
	if len(data) > MaxBytes {
		return nil, &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf("the registry is larger than %d bytes", MaxBytes)}
	}
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	d := &decoder{data: data, at: map[string]int{}}
	reg, err := d.registry(root)
	if err != nil {
		return nil, err
	}
	if err := validate(reg, today); err != nil {
		var pe *pathError
		if errors.As(err, &pe) {
			off, ok := d.at[pe.path]
			for p := pe.path; !ok && p != ""; {
				p = parentPath(p)
				off, ok = d.at[p]
			}
			line, col := position(data, off)
			return nil, &core.Error{Kind: pe.kind, Line: line, Column: col, Msg: pe.path + ": " + pe.msg}
		}
		return nil, err
	}
	return reg, nil
}

// parentPath drops the last step of a JSON path: "tests[2].claim" is the
// parent of "tests[2].claim.lower", "tests[2]" of "tests[2].claim".
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

// decoder reads the registry's fields from parsed nodes and remembers the
// offset of every value by its JSON path, for later errors.
type decoder struct {
	data []byte
	at   map[string]int
}

func (d *decoder) errAt(off int, path, format string, args ...any) error {
	line, col := position(d.data, off)
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	return core.PosErrorf(core.Invalid, line, col, "%s", msg)
}

// fields checks that n is an object with only the named fields, each at
// most once, and all of the required ones (those not ending in "?"), and
// returns them by name.
func (d *decoder) fields(n *node, path, what string, names ...string) (map[string]*node, error) {
	if n.kind != '{' {
		return nil, d.errAt(n.off, path, "want %s (a JSON object), got %s", what, n.kindName())
	}
	known := make([]string, len(names))
	for i, name := range names {
		known[i] = strings.TrimSuffix(name, "?")
	}
	out := map[string]*node{}
	for i, k := range n.keys {
		if !slices.Contains(known, k) {
			return nil, d.errAt(n.koffs[i], join(path, k), "unknown field %q in %s; its fields are %s", k, what, strings.Join(known, ", "))
		}
		out[k] = n.vals[i]
		d.at[join(path, k)] = n.vals[i].off
	}
	for i, name := range names {
		if strings.HasSuffix(name, "?") {
			continue
		}
		if _, ok := out[known[i]]; !ok {
			return nil, d.errAt(n.off, path, "%s has no field %q", what, known[i])
		}
	}
	return out, nil
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func (d *decoder) registry(root *node) (*Registry, error) {
	f, err := d.fields(root, "", "the registry", "version", "tests", "counted?")
	if err != nil {
		return nil, err
	}
	v, err := d.integer(f["version"], "version")
	if err != nil {
		return nil, err
	}
	if v != Version {
		if v > Version {
			return nil, d.errAt(f["version"].off, "version", "the registry is version %d, newer than this flakegate reads (%d): upgrade flakegate", v, Version)
		}
		return nil, d.errAt(f["version"].off, "version", "want %d, got %d", Version, v)
	}
	tn := f["tests"]
	if tn.kind != '[' {
		return nil, d.errAt(tn.off, "tests", "want a list of tests (a JSON array), got %s", tn.kindName())
	}
	reg := &Registry{Version: Version, Tests: make([]Entry, 0, len(tn.items))}
	for i, item := range tn.items {
		path := fmt.Sprintf("tests[%d]", i)
		d.at[path] = item.off
		e, err := d.entry(item, path)
		if err != nil {
			return nil, err
		}
		reg.Tests = append(reg.Tests, e)
	}
	if cn, ok := f["counted"]; ok {
		if cn.kind != '[' {
			return nil, d.errAt(cn.off, "counted", "want a list of runs (a JSON array), got %s", cn.kindName())
		}
		for i, item := range cn.items {
			path := fmt.Sprintf("counted[%d]", i)
			d.at[path] = item.off
			c, err := d.fields(item, path, "a counted run", "run", "date")
			if err != nil {
				return nil, err
			}
			var r CountedRun
			if r.Run, err = d.str(c["run"], path+".run"); err != nil {
				return nil, err
			}
			if r.Date, err = d.str(c["date"], path+".date"); err != nil {
				return nil, err
			}
			reg.Counted = append(reg.Counted, r)
		}
	}
	return reg, nil
}

func (d *decoder) entry(n *node, path string) (Entry, error) {
	var e Entry
	f, err := d.fields(n, path, "a test", "test", "owner", "reason", "opened", "expires", "claim", "release", "since?")
	if err != nil {
		return e, err
	}
	for _, s := range []struct {
		name string
		dst  *string
	}{{"test", &e.Test}, {"owner", &e.Owner}, {"reason", &e.Reason}, {"opened", &e.Opened}, {"expires", &e.Expires}} {
		if *s.dst, err = d.str(f[s.name], join(path, s.name)); err != nil {
			return e, err
		}
	}
	cpath := join(path, "claim")
	c, err := d.fields(f["claim"], cpath, "a claim", "passed", "trials", "rate", "lower", "upper", "confidence", "date")
	if err != nil {
		return e, err
	}
	for _, x := range []struct {
		name string
		dst  *int64
	}{{"passed", &e.Claim.Passed}, {"trials", &e.Claim.Trials}} {
		if *x.dst, err = d.integer(c[x.name], join(cpath, x.name)); err != nil {
			return e, err
		}
	}
	for _, x := range []struct {
		name string
		dst  *float64
	}{{"rate", &e.Claim.Rate}, {"lower", &e.Claim.Lower}, {"upper", &e.Claim.Upper}, {"confidence", &e.Claim.Confidence}} {
		if *x.dst, err = d.number(c[x.name], join(cpath, x.name)); err != nil {
			return e, err
		}
	}
	if e.Claim.Date, err = d.str(c["date"], join(cpath, "date")); err != nil {
		return e, err
	}
	rpath := join(path, "release")
	r, err := d.fields(f["release"], rpath, "a release rule", "below", "confidence", "runs?", "failed?")
	if err != nil {
		return e, err
	}
	if e.Release.Below, err = d.number(r["below"], join(rpath, "below")); err != nil {
		return e, err
	}
	if e.Release.Confidence, err = d.number(r["confidence"], join(rpath, "confidence")); err != nil {
		return e, err
	}
	for _, x := range []struct {
		name string
		dst  *int64
	}{{"runs", &e.Release.Runs}, {"failed", &e.Release.Failed}} {
		if n, ok := r[x.name]; ok {
			if *x.dst, err = d.integer(n, join(rpath, x.name)); err != nil {
				return e, err
			}
		}
	}
	if sn, ok := f["since"]; ok {
		spath := join(path, "since")
		s, err := d.fields(sn, spath, "the evidence since the claim", "passed", "trials", "runs?", "clean", "checked?")
		if err != nil {
			return e, err
		}
		if rn, ok := s["runs"]; ok {
			if e.Since.Runs, err = d.integer(rn, join(spath, "runs")); err != nil {
				return e, err
			}
		}
		for _, x := range []struct {
			name string
			dst  *int64
		}{{"passed", &e.Since.Passed}, {"trials", &e.Since.Trials}, {"clean", &e.Since.Clean}} {
			if *x.dst, err = d.integer(s[x.name], join(spath, x.name)); err != nil {
				return e, err
			}
		}
		if cn, ok := s["checked"]; ok {
			if e.Since.Checked, err = d.str(cn, join(spath, "checked")); err != nil {
				return e, err
			}
			if e.Since.Checked == "" {
				return e, d.errAt(cn.off, join(spath, "checked"), "must be a date YYYY-MM-DD; leave the field out before the first check")
			}
		}
	}
	return e, nil
}

func (d *decoder) str(n *node, path string) (string, error) {
	if n.kind != '"' {
		return "", d.errAt(n.off, path, "want a string, got %s", n.kindName())
	}
	return n.text, nil
}

// integer reads a whole number in [0, 2^53]: the counts of a registry.
func (d *decoder) integer(n *node, path string) (int64, error) {
	if n.kind != '0' {
		return 0, d.errAt(n.off, path, "want a whole number, got %s", n.kindName())
	}
	if strings.ContainsAny(n.text, ".eE-") {
		return 0, d.errAt(n.off, path, "must be a whole number >= 0 written without a fraction or exponent, got %s", n.text)
	}
	v, err := strconv.ParseInt(n.text, 10, 64)
	if err != nil || v > 1<<53 {
		return 0, d.errAt(n.off, path, "%s is too large: at most 2^53", n.text)
	}
	return v, nil
}

func (d *decoder) number(n *node, path string) (float64, error) {
	if n.kind != '0' {
		return 0, d.errAt(n.off, path, "want a number, got %s", n.kindName())
	}
	v, err := strconv.ParseFloat(n.text, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, d.errAt(n.off, path, "%s is out of the range of a float64", n.text)
	}
	return v, nil
}
