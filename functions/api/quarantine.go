package api

import (
	"bufio"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/core/ledger"
	schema "github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
)

// The quarantine routes work on a registry sent in the request (the JSON
// file a team commits, docs/QUARANTINE.md) and answer with the check's
// result or the registry as the CLI would write it, byte for byte.

// Uploads of the quarantine routes.
const (
	bodyRegistry          bodyKind = 100 + iota // the registry's JSON as the body
	bodyMultipartRegistry                       // parts registry, report (repeated) and renames
)

// maxRenamesBytes caps the renames part: a JSON object of old and new ids.
const maxRenamesBytes = 1 << 20

// marksPerEntry bounds the JSON marks (jsonShape.Marks) of one registry
// entry with every field given: 42, and the comma before the next.
const marksPerEntry = 48

var todayParam = param{name: "today", kind: kDate,
	doc: "the date of the check, YYYY-MM-DD: tests expire by it and no date in the registry may be after it; default: the server's date (UTC)"}

func quarantineRoutes() []*route {
	registryOnly := []bodyKind{bodyRegistry}
	withReports := []bodyKind{bodyRegistry, bodyMultipartRegistry}
	checkParams := append([]param{todayParam}, inputs(schema.QuarantineCheck, "comparable", "target", "cap")...)
	return []*route{
		{
			path:    "quarantine/check",
			summary: "Check every quarantined test against new reports: still flaky, stale, released, expired or missing",
			params:  checkParams,
			post:    postQuarantineCheck(false), body: withReports,
			results: "QuarantineResult",
		},
		{
			path:    "quarantine/write",
			summary: "The registry a writing check stores: new counts recorded, released tests gone, stale claims measured again",
			params:  checkParams,
			post:    postQuarantineCheck(true), body: withReports,
			results: "Registry",
		},
		{
			path:    "quarantine/add",
			summary: "Quarantine tests: from reports (each a run) or from a count, into the registry sent (or a new one)",
			params: append([]param{
				todayParam,
				{name: "test", kind: kString, doc: "the test to quarantine; with reports and no test, every test that both failed and passed in them"},
				{name: "claim", kind: kCount, keys: [2]string{"passed", "trials"}, doc: "the test's measured passes as passed/trials, instead of reports"},
				{name: "owner", kind: kString, required: true, doc: "who answers for the tests: a person or a team"},
				{name: "reason", kind: kString, required: true, doc: "why they are quarantined, in a sentence"},
				{name: "expires", kind: kString, doc: "the last day of the quarantine, YYYY-MM-DD; default: 30 days after today"},
			}, inputs(schema.QuarantineAdd)...),
			post: postQuarantineAdd, body: withReports,
			results: "Registry",
		},
		{
			path:    "quarantine/renew",
			summary: "Move a quarantined test's expiry date, and optionally its owner or reason",
			params: []param{
				todayParam,
				{name: "test", kind: kString, required: true, doc: "the quarantined test"},
				{name: "expires", kind: kString, required: true, doc: "the new last day, YYYY-MM-DD, not before today"},
				{name: "owner", kind: kString, doc: "a new owner; default: keep it"},
				{name: "reason", kind: kString, doc: "a new reason; default: keep it"},
			},
			post: postQuarantineEdit(func(a *args, reg *quarantine.Registry, today string) (*quarantine.Registry, error) {
				var test, expires, owner, reason string
				a.str("test", &test)
				a.str("expires", &expires)
				a.str("owner", &owner)
				a.str("reason", &reason)
				if a.err != nil {
					return nil, a.err
				}
				return quarantine.Renew(reg, today, test, expires, owner, reason)
			}),
			body: registryOnly, results: "Registry",
		},
		{
			path:    "quarantine/remove",
			summary: "Take a test out of the registry",
			params:  []param{todayParam, {name: "test", kind: kString, required: true, doc: "the quarantined test"}},
			post: postQuarantineEdit(func(a *args, reg *quarantine.Registry, today string) (*quarantine.Registry, error) {
				var test string
				a.str("test", &test)
				if a.err != nil {
					return nil, a.err
				}
				return quarantine.Remove(reg, today, test)
			}),
			body: registryOnly, results: "Registry",
		},
		{
			path:    "quarantine/rename",
			summary: "Move a test's entry to its new id, keeping its claim and trials",
			params: []param{todayParam,
				{name: "from", kind: kString, required: true, doc: "the test's id in the registry"},
				{name: "to", kind: kString, required: true, doc: "its new id, as the reports name it now"}},
			post: postQuarantineEdit(func(a *args, reg *quarantine.Registry, today string) (*quarantine.Registry, error) {
				var from, to string
				a.str("from", &from)
				a.str("to", &to)
				if a.err != nil {
					return nil, a.err
				}
				return quarantine.Rename(reg, today, from, to)
			}),
			body: registryOnly, results: "Registry",
		},
		{
			path:    "quarantine/release",
			summary: "Clean runs in a row that prove a failure rate below a target",
			params:  inputs(schema.QuarantineRelease),
			get:     paramsRoute(quarantineRelease), post: paramsRoute(quarantineRelease),
			results: "CleanRunsResult",
		},
	}
}

func quarantineRelease(_ *handler, a *args) (any, error) {
	rel, err := schemaArgs(a, schema.QuarantineRelease)
	if err != nil {
		return nil, err
	}
	return quarantine.CleanRunsFor(rel.Below, rel.Confidence)
}

// The registry and the reports of a quarantine request.
var (
	quarantineUpload = registryUpload(
		"application/json (the registry alone) or multipart/form-data with a part registry, parts report (one run each) and an optional part renames",
		"send a part registry, parts report (one run each) and an optional part renames",
		true, "registry", "report", "renames")
	quarantineAddUpload = registryUpload(
		"application/json (the registry) or multipart/form-data with an optional part registry and parts report (one run each)",
		"send an optional part registry and parts report, one run each",
		false, "registry", "report")
	quarantineEditUpload = registryUpload(
		"application/json: the registry",
		"send the registry as the body, or as a part registry",
		true, "registry")
)

// registryUpload is a quarantine route's upload: the registry as an
// application/json body, or a multipart body of the parts named (report
// repeated, each one run), which must hold a part registry when
// needRegistry.
func registryUpload(media, hint string, needRegistry bool, parts ...string) *upload {
	u := &upload{
		media:   media,
		body:    func(mt string) bool { return mt == "application/json" },
		bodyAs:  "registry",
		parts:   map[string]bool{},
		hint:    hint,
		missing: invalid("registry", "the multipart body has no part"),
	}
	for _, p := range parts {
		u.parts[p] = p == "report"
	}
	if needRegistry {
		u.need = "registry"
		u.missing = invalid("registry", "the multipart body has no registry part")
	}
	return u
}

// quarantineIn is what a quarantine request sent: the registry (nil when
// none), the reports as a ledger (nil when none), the renames.
type quarantineIn struct {
	reg     *quarantine.Registry
	reports *ledger.Ledger
	ids     map[string]string // each baseline run's identity (quarantine.RunHash), by run name
	renames map[string]string
}

// readIdentified reads one report part into in.reports as a run (a JSONL
// ledger holds its own runs) and records the identity of each run it adds,
// so that a run the registry has counted, or one sent twice, is counted
// once. A report that carries no time of its own is told apart by its file
// name and the day of the check: the API knows no CI run or file on disk
// (docs/QUARANTINE.md).
func (in *quarantineIn) readIdentified(part string, body io.Reader, run, file, today string) error {
	br := bufio.NewReaderSize(body, 64<<10)
	head, _ := br.Peek(4 << 10)
	isLedger := report.DetectFormat(head) == report.FormatLedger
	h := quarantine.NewRunHash(isLedger)
	before := map[string]bool{}
	for _, r := range in.reports.Runs(ledger.ArmBaseline) {
		before[r] = true
	}
	err := reportReader(in.reports, formatAuto, run, func(string) string { return ledger.ArmBaseline })(part, io.TeeReader(br, h))
	if err != nil {
		return err
	}
	if _, err := io.Copy(h, br); err != nil { // what the reader left unread is the report's too
		return err
	}
	var ledgerIDs map[string]string
	if isLedger {
		ledgerIDs = h.LedgerIDs()
	}
	for _, r := range in.reports.Runs(ledger.ArmBaseline) {
		switch {
		case before[r]:
		case isLedger:
			in.ids[r] = ledgerIDs[ledger.ArmBaseline+"\x00"+r]
		default:
			in.ids[r] = h.ID("api:" + file + "@" + today)
		}
	}
	return nil
}

// reportsOf is what in's reports say of reg's tests, each run counted
// once: a run reg has counted already, or one sent twice, is left out
// and named in a warning.
func (in *quarantineIn) reportsOf(reg *quarantine.Registry) *quarantine.Reports {
	if reg == nil {
		reg = &quarantine.Registry{Version: quarantine.Version}
	}
	return quarantine.FromLedgerRuns(in.reports, in.ids, reg)
}

// readQuarantine reads the upload of a quarantine request, with today the
// date the registry's dates are checked against.
func (h *handler) readQuarantine(w http.ResponseWriter, r *http.Request, up *upload, today string) (*quarantineIn, error) {
	in := &quarantineIn{ids: map[string]string{}}
	runNames := map[string]bool{}
	read := func(part string, body io.Reader) error {
		switch part {
		case "registry":
			reg, err := readRegistry(body, today)
			if err != nil {
				return err
			}
			in.reg = reg
		case "report":
			if in.reports == nil {
				in.reports = ledger.New()
				in.reports.SetCellLimit(MaxCells)
			}
			// A run is named after its file, as the CLI names it, unless
			// two parts share a file name: then they are numbered.
			run, file := "", ""
			if p, ok := body.(*multipart.Part); ok && p.FileName() != "" {
				file = p.FileName()
				if !runNames[file] {
					run = file
					runNames[run] = true
				}
			}
			return in.readIdentified(part, body, run, file, today)
		case "renames":
			m, err := readRenames(body)
			if err != nil {
				return err
			}
			in.renames = m
		}
		return nil
	}
	if err := h.readUpload(w, r, up, nil, read); err != nil {
		return nil, err
	}
	if in.reports != nil {
		if err := checkLedger(in.reports, false, ""); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// registryInstead is what to do with a registry over the API's limits.
const registryInstead = "split the registry, or run the CLI (flakegate quarantine), which has no such limit"

// readRegistry reads a registry of at most MaxTests tests. Its shape is
// checked before it is parsed, so that a registry of too many tests, or of
// anything else in numbers, is refused before the parser's tree of it
// takes memory: quarantine.MaxBytes of small values would take hundreds
// of MB.
func readRegistry(r io.Reader, today string) (*quarantine.Registry, error) {
	data, err := io.ReadAll(io.LimitReader(r, quarantine.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) <= quarantine.MaxBytes { // Parse refuses a longer one
		shape := scanJSON(data)
		if shape.Entries > MaxTests {
			return nil, tooMany("", shape.Entries, MaxTests, "quarantined tests", registryInstead)
		}
		if limit := MaxTests*marksPerEntry + marksPerEntry; shape.Marks > limit {
			return nil, &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf(
				"the registry holds more JSON values (about %s) than %s quarantined tests take (at most %s); this server answers at most %s quarantined tests per request: %s",
				count(shape.Marks), count(MaxTests), count(limit), count(MaxTests), registryInstead)}
		}
	}
	reg, err := quarantine.Parse(data, today)
	if err != nil {
		return nil, err
	}
	if len(reg.Tests) > MaxTests {
		return nil, tooMany("", len(reg.Tests), MaxTests, "quarantined tests", registryInstead)
	}
	return reg, nil
}

// readRenames reads the renames part: a JSON object of old id to new id.
func readRenames(r io.Reader) (map[string]string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxRenamesBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxRenamesBytes {
		return nil, &core.Error{Kind: core.TooLarge, Field: "renames", Msg: fmt.Sprintf("more than %s bytes of renames", count(maxRenamesBytes))}
	}
	if n := scanJSON(b).Members; n > MaxTests {
		return nil, tooMany("", n, MaxTests, "renames", "send fewer")
	}
	// The core's scanner: no repeated old id, each new id a string.
	var s jsonscan.Scanner
	s.Reset(b, 1, "renames")
	if k, err := s.Kind(); err != nil {
		return nil, scanError(err)
	} else if k != jsonscan.Object {
		return nil, invalid("renames", `want a JSON object of the old id to the new one, such as {"pkg.TestOld": "pkg.TestNew"}`)
	}
	m := map[string]string{}
	err = wholeObject(&s, func(old []byte) error {
		if k, err := s.Kind(); err != nil || k != jsonscan.String {
			if err != nil {
				return err
			}
			return invalid("renames", "the new id of %q must be a string", old)
		}
		nw, err := s.Text()
		m[string(old)] = nw
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// quarantineToday reads the today parameter: a date (param.QuarantineCheck's
// today); not given or blank, the server's in UTC.
func quarantineToday(a *args) (string, error) {
	f, _ := schema.QuarantineCheck.Field("today")
	text, _ := a.text(f)
	if a.err != nil {
		return "", a.err
	}
	v, absent, err := f.Read(text)
	if err != nil {
		return "", err
	}
	if absent {
		return time.Now().UTC().Format(time.DateOnly), nil
	}
	return v.(string), nil
}

// postQuarantineCheck answers a check: its result, or with write the
// registry that a writing check stores.
func postQuarantineCheck(write bool) handlerFunc {
	return func(h *handler, w http.ResponseWriter, r *http.Request) error {
		path := "quarantine/check"
		if write {
			path = "quarantine/write"
		}
		a := queryArgs(h.routes[path].params, r.URL.RawQuery)
		today, err := quarantineToday(a)
		if err != nil {
			return err
		}
		opt, err := schemaArgs(a, schema.QuarantineCheck)
		if err != nil {
			return err
		}
		opt.Today = today
		in, err := h.readQuarantine(w, r, quarantineUpload, today)
		if err != nil {
			return err
		}
		opt.Renames = in.renames
		var rep *quarantine.Reports
		if in.reports != nil {
			rep = in.reportsOf(in.reg)
		}
		res, next, err := quarantine.Check(in.reg, rep, opt)
		if err != nil {
			return err
		}
		if write {
			return h.writeResult(w, r, next, cacheNone)
		}
		if err := h.addQuarantineLink(r, res, share.NewQuarantineState(in.reg, rep, opt)); err != nil {
			return err
		}
		return h.writeResult(w, r, res, cacheNone)
	}
}

func postQuarantineAdd(h *handler, w http.ResponseWriter, r *http.Request) error {
	a := queryArgs(h.routes["quarantine/add"].params, r.URL.RawQuery)
	today, err := quarantineToday(a)
	if err != nil {
		return err
	}
	var test, owner, reason, expires string
	var claim *core.Count
	a.str("test", &test)
	a.count("claim", &claim)
	a.str("owner", &owner)
	a.str("reason", &reason)
	a.str("expires", &expires)
	nums, err := schemaArgs(a, schema.QuarantineAdd) // a.err first, if an argument above set it
	if err != nil {
		return err
	}
	rel, confidence := nums.Release, nums.Confidence
	if expires == "" {
		t, _ := time.Parse(time.DateOnly, today)
		expires = t.AddDate(0, 0, 30).Format(time.DateOnly)
	}
	in, err := h.readQuarantine(w, r, quarantineAddUpload, today)
	if err != nil {
		return err
	}
	reg := in.reg
	if reg == nil {
		reg = &quarantine.Registry{Version: quarantine.Version}
	}
	var tests, measured []string
	counts := map[string]core.Count{}
	switch {
	case claim != nil && in.reports != nil:
		return invalid("claim", "give a claim or reports, not both")
	case claim != nil:
		if test == "" {
			return invalid("test", "a claim is the count of one test: name it")
		}
		tests, counts[test] = []string{test}, *claim
	case in.reports != nil:
		// The claims are measured on these runs, as the CLI's add -from
		// measures them: a later check counts them no more.
		rep := quarantine.FromLedger(in.reports)
		for _, run := range in.reports.Runs(ledger.ArmBaseline) {
			if id := in.ids[run]; id != "" {
				measured = append(measured, id)
			}
		}
		tests = rep.Flaky()
		if test != "" {
			tests = []string{test}
		}
		if len(tests) == 0 {
			return &core.Error{Kind: core.Unusable, Field: "report", Msg: fmt.Sprintf(
				"no test both failed and passed in the %s: nothing to quarantine (name a test to quarantine it anyway)", core.Nouns(rep.Runs, "run"))}
		}
		for _, t := range tests {
			c, ok := rep.Count(t)
			if !ok {
				return invalid("test", "%s is not in the reports: name a test as they do", t)
			}
			counts[t] = c
		}
	default:
		return invalid("claim", "give reports (parts report) or a claim passed/trials and a test")
	}
	if len(reg.Tests)+len(tests) > MaxTests {
		return tooMany("", len(reg.Tests)+len(tests), MaxTests, "quarantined tests", "split the registry, or run the CLI (flakegate quarantine add), which has no such limit")
	}
	var entries []quarantine.Entry
	for _, t := range tests {
		entries = append(entries, quarantine.NewEntry(t, owner, reason, today, expires, counts[t], confidence, rel))
	}
	next, err := quarantine.Add(reg, today, entries...)
	if err != nil {
		return err
	}
	// The runs the claims were measured on are counted: a later check
	// does not count them again.
	if next, err = quarantine.Remember(next, today, measured...); err != nil {
		return err
	}
	return h.writeResult(w, r, next, cacheNone)
}

// postQuarantineEdit answers an edit of the registry sent as the body.
func postQuarantineEdit(edit func(a *args, reg *quarantine.Registry, today string) (*quarantine.Registry, error)) handlerFunc {
	return func(h *handler, w http.ResponseWriter, r *http.Request) error {
		a := queryArgs(h.routes[r.URL.Path[len(Prefix):]].params, r.URL.RawQuery)
		today, err := quarantineToday(a)
		if err != nil {
			return err
		}
		in, err := h.readQuarantine(w, r, quarantineEditUpload, today)
		if err != nil {
			return err
		}
		next, err := edit(a, in.reg, today)
		if err != nil {
			return err
		}
		return h.writeResult(w, r, next, cacheNone)
	}
}
