package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/flakegate/flakegate/internal/testfile"
)

var update = flag.Bool("update", false, "rewrite openapi.json and the golden responses in testdata/")

// obj is a JSON object that keeps its members in insertion order, so the
// generated document reads top-down and is byte-stable.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(e.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping, so "<error>" reads as
// written.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func (o obj) with(k string, v any) obj { return append(o, kv{k, v}) }

// filesOf is the schema of a multipart part given once or repeated: one
// file of media type mt, or several.
func filesOf(mt string) obj {
	file := obj{{"type", "string"}, {"contentMediaType", mt}}
	return obj{{"anyOf", []any{file, obj{{"type", "array"}, {"items", file}}}}}
}

// fileOf is the schema of one file of media type mt: a body, or a part
// given once.
func fileOf(mt, description string) obj {
	return obj{{"type", "string"}, {"contentMediaType", mt}, {"description", description}}
}

// withMultipart is content with a multipart/form-data body of the parts
// props, the ones named in required required, and no others.
func withMultipart(content, props obj, required ...string) obj {
	form := obj{{"type", "object"}, {"properties", props}}
	if len(required) > 0 {
		form = form.with("required", required)
	}
	return content.with("multipart/form-data", obj{{"schema", form.with("additionalProperties", false)}})
}

// goTypes are the struct declarations of the packages the API exposes,
// with their doc comments, read from source so the document carries them.
// Types are keyed by package and name ("gate.BudgetResult"); docs by schema
// name (and Schema.Field).
type goTypes map[string]*ast.StructType

type goDocs map[string]string // schema name (and Schema.Field) → doc

// legacySchemas names the schemas of Go types whose names alone would not
// say what they are beside the other packages' types, as the document named
// them before the core was split into packages: the names are part of the
// published document and stay.
var legacySchemas = map[string]string{
	"aa.Result":         "AAResult",
	"aa.Options":        "AAOptions",
	"aa.Side":           "AASide",
	"aa.Depth":          "AADepth",
	"ledger.Result":     "LedgerResult",
	"ledger.Options":    "LedgerOptions",
	"ledger.RunCounts":  "LedgerRuns",
	"ledger.Test":       "LedgerTest",
	"ledger.Summary":    "LedgerSummary",
	"ledger.TestCounts": "LedgerTestCounts",
	"sim.Result":        "SimResult",
	"sim.Options":       "SimOptions",
	"sim.Shape":         "SimShape",
	"sim.Gate":          "SimGate",

	"quarantine.Result": "QuarantineResult",

	"compare.Result":  "CompareResult",
	"compare.Side":    "CompareSide",
	"compare.Flip":    "CompareFlip",
	"compare.McNemar": "CompareMcNemar",
	"compare.Noise":   "CompareNoise",
	"compare.Cluster": "CompareCluster",
	"compare.Plan":    "ComparePlan",
	"compare.PlanRow": "ComparePlanRow",

	"history.Result": "HistoryResult",
	"history.Trend":  "HistoryTrend",
	"history.RunRef": "HistoryRun",
	"history.Past":   "HistoryPast",

	"triage.Result":  "TriageResult",
	"triage.Failure": "TriageFailure",
	"triage.Outage":  "TriageOutage",
	"triage.Release": "TriageRelease",
}

// legacyNames writes, in a doc comment of package pkg, the Go names of
// types that have a legacy schema name as the document names them: the
// name that opens a type's doc ("Result is ...") and a field reference
// such as "Options.Simulate".
func legacyNames(pkg, doc string) string {
	for q, schema := range legacySchemas {
		p, name, _ := strings.Cut(q, ".")
		if p != pkg {
			continue
		}
		if strings.HasPrefix(doc, name+" ") {
			doc = schema + doc[len(name):]
		}
		doc = regexp.MustCompile(`\b`+name+`\.([A-Z])`).ReplaceAllString(doc, schema+".$1")
	}
	return doc
}

// schemaOf is the OpenAPI name of the Go struct type pkg.name.
func schemaOf(qualified string) string {
	if s, ok := legacySchemas[qualified]; ok {
		return s
	}
	return schemaName(qualified[strings.IndexByte(qualified, '.')+1:])
}

func parseTypes(t *testing.T, dirs ...string) (goTypes, goDocs) {
	types, docs := goTypes{}, goDocs{}
	for _, dir := range dirs {
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					q := f.Name.Name + "." + ts.Name.Name
					types[q] = st
					schema := schemaOf(q)
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					docs[schema] = legacyNames(f.Name.Name, clean(doc))
					for _, fld := range st.Fields.List {
						text := clean(fld.Doc)
						if c := clean(fld.Comment); c != "" {
							text = strings.TrimSpace(text + " " + c)
						}
						for _, n := range fld.Names {
							docs[schema+"."+n.Name] = legacyNames(f.Name.Name, text)
						}
					}
				}
			}
		}
	}
	return types, docs
}

func clean(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	return strings.Join(strings.Fields(cg.Text()), " ")
}

// schemaName is the OpenAPI name of a Go struct type.
func schemaName(goName string) string {
	r := []rune(goName)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

type schemaGen struct {
	t      *testing.T
	types  goTypes
	docs   goDocs
	out    map[string]any
	goName map[string]string // schema name → the Go type it was made from
	queued []string          // Go types, qualified
}

func ref(name string) obj { return obj{{"$ref", "#/components/schemas/" + name}} }

// typeSchema converts a Go type expression in package pkg to a JSON Schema.
func (g *schemaGen) typeSchema(pkg string, e ast.Expr) obj {
	switch x := e.(type) {
	case *ast.StarExpr:
		inner := g.typeSchema(pkg, x.X)
		if len(inner) > 0 && inner[0].k == "type" {
			if s, ok := inner[0].v.(string); ok {
				inner[0].v = []string{s, "null"}
				return inner
			}
		}
		return obj{{"anyOf", []any{inner, obj{{"type", "null"}}}}}
	case *ast.ArrayType:
		return obj{{"type", "array"}, {"items", g.typeSchema(pkg, x.Elt)}}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return g.typeSchema(id.Name, x.Sel)
		}
	case *ast.Ident:
		switch x.Name {
		case "string", "Kind":
			return obj{{"type", "string"}}
		case "bool":
			return obj{{"type", "boolean"}}
		case "int", "int64", "int32", "uint64", "uint32", "uint":
			return obj{{"type", "integer"}}
		case "float64":
			return obj{{"type", "number"}}
		}
		if q := pkg + "." + x.Name; g.types[q] != nil {
			g.queue(q)
			return ref(schemaOf(q))
		}
	}
	g.t.Fatalf("openapi: no schema for Go type %T %v in package %s", e, e, pkg)
	return nil
}

// queueResult queues the Go type whose schema is named schema.
func (g *schemaGen) queueResult(schema string) {
	var found []string
	for q := range g.types {
		if schemaOf(q) == schema {
			found = append(found, q)
		}
	}
	if len(found) != 1 {
		g.t.Fatalf("openapi: want one Go struct for the schema %s, found %v", schema, found)
	}
	g.queue(found[0])
}

func (g *schemaGen) queue(q string) {
	name := schemaOf(q)
	if prev, ok := g.goName[name]; ok && prev != q {
		g.t.Fatalf("openapi: %s and %s would both be the schema %s: name one in legacySchemas", prev, q, name)
	}
	if g.goName == nil {
		g.goName = map[string]string{}
	}
	g.goName[name] = q
	if _, done := g.out[name]; done {
		return
	}
	g.out[name] = nil // reserve
	g.queued = append(g.queued, q)
}

func (g *schemaGen) run() {
	for len(g.queued) > 0 {
		q := g.queued[0]
		g.queued = g.queued[1:]
		g.out[schemaOf(q)] = g.structSchema(q)
	}
}

func (g *schemaGen) structSchema(q string) obj {
	props := obj{}
	var required []string
	g.fields(q, &props, &required, true)
	s := obj{{"type", "object"}}
	if d := g.docs[schemaOf(q)]; d != "" {
		s = s.with("description", d)
	}
	s = s.with("properties", props)
	if required != nil {
		s = s.with("required", required)
	}
	return s.with("additionalProperties", false)
}

// fields adds the JSON members of struct q (package.Name). An embedded
// struct's members sit at the top level, as encoding/json writes them;
// embedded by pointer, they are absent when it is nil, so not required.
func (g *schemaGen) fields(q string, props *obj, required *[]string, req bool) {
	st, ok := g.types[q]
	if !ok {
		g.t.Fatalf("openapi: no struct %s", q)
	}
	pkg := q[:strings.IndexByte(q, '.')]
	for _, f := range st.Fields.List {
		var js string
		if f.Tag != nil {
			tag, _ := strconv.Unquote(f.Tag.Value)
			js = reflect.StructTag(tag).Get("json")
		}
		if len(f.Names) == 0 && js == "" {
			typ, ptr := f.Type, false
			if st, ok := typ.(*ast.StarExpr); ok {
				typ, ptr = st.X, true
			}
			id, ok := typ.(*ast.Ident)
			if !ok {
				g.t.Fatalf("openapi: %s embeds %T", q, f.Type)
			}
			g.fields(pkg+"."+id.Name, props, required, req && !ptr)
			continue
		}
		if len(f.Names) == 0 || !f.Names[0].IsExported() {
			continue
		}
		parts := strings.Split(js, ",")
		if parts[0] == "-" {
			continue
		}
		key := parts[0]
		if key == "" {
			key = f.Names[0].Name
		}
		s := g.typeSchema(pkg, f.Type)
		if d := g.docs[schemaOf(q)+"."+f.Names[0].Name]; d != "" {
			if s[0].k == "$ref" || s[0].k == "anyOf" {
				s = obj{{"description", d}, {"allOf", []any{s}}}
			} else {
				s = s.with("description", d)
			}
		}
		*props = props.with(key, s)
		if req && !strings.Contains(js, ",omitempty") {
			*required = append(*required, key)
		}
	}
}

// paramSchema is a parameter's schema in a query string (text) or a JSON
// body.
func paramSchema(p param, inJSON bool) obj {
	var s obj
	switch p.kind {
	case kNumber:
		s = obj{{"type", "number"}}
	case kFraction, kSeconds:
		// The one grammar: a number, or a string such as "95%" or "8s".
		text := obj{{"type", "string"}, {"description", "a fraction such as 0.95, or a percentage such as 95%"}, {"examples", []string{"0.95", "95%"}}}
		if p.kind == kSeconds {
			text = obj{{"type", "string"}, {"description", "seconds such as 8, or a duration such as 8s or 1m30s"}, {"examples", []string{"8", "8s", "1m30s"}}}
		}
		s = obj{{"oneOf", []any{obj{{"type", "number"}}, text}}}
	case kInteger:
		s = obj{{"type", "integer"}}
		if inJSON { // also a string of the one grammar, as in a query
			s = obj{{"oneOf", []any{s, obj{{"type", "string"}, {"description", "a whole number in decimal"}, {"examples", []string{"3"}}}}}}
		}
	case kString:
		s = obj{{"type", "string"}}
		if p.enum != nil {
			s = s.with("enum", p.enum)
		}
		if p.joined != "" { // a choice, or a choice=N giving the joined parameter
			s = obj{{"anyOf", []any{s, obj{{"type", "string"}, {"pattern", "^(" + strings.Join(p.enum, "|") + ")=[0-9]+$"}}}}}
		}
	case kDate:
		s = obj{{"type", "string"}, {"format", "date"}}
	case kCount:
		text := obj{{"type", "string"}, {"pattern", `^[ \t]*(0|[1-9][0-9]*)[ \t]*/[ \t]*(0|[1-9][0-9]*)[ \t]*$`},
			{"examples", []string{"17/20"}}}
		if !inJSON {
			return text.with("description", docOf(p))
		}
		s = obj{{"oneOf", []any{text, obj{{"type", "object"},
			{"properties", obj{{p.keys[0], obj{{"type", "integer"}}}, {p.keys[1], obj{{"type", "integer"}}}}},
			{"required", []string{p.keys[0], p.keys[1]}}, {"additionalProperties", false}}}}}
	case kNumbers, kIntegers:
		item, ex := "number", "0.05,0.02"
		if p.kind == kIntegers {
			item, ex = "integer", "1,2,4,8"
		}
		text := obj{{"type", "string"}, {"examples", []string{ex}}}
		if !inJSON {
			return text.with("description", docOf(p))
		}
		arr := obj{{"type", "array"}, {"items", obj{{"type", item}}}}
		if p.most > 0 {
			arr = arr.with("maxItems", p.most)
		}
		s = obj{{"oneOf", []any{arr, text}}}
	}
	return s.with("description", docOf(p))
}

func docOf(p param) string {
	d := p.doc
	if p.alias != "" {
		d += "; also accepted as " + p.alias
	}
	if p.def != "" {
		d += "; default " + p.def
	}
	if p.required {
		d += "; required"
	}
	return d
}

func problemResponse(desc string) obj {
	return obj{{"description", desc},
		{"content", obj{{"application/problem+json", obj{{"schema", ref("Problem")}}}}}}
}

var problemStatuses = []struct {
	code string
	desc string
}{
	{"400", "malformed input: the problem names the field, or the file, line and column"},
	{"404", "no such route"},
	{"405", "method not allowed; the Allow header lists the methods"},
	{"408", "the request body arrived too slowly (the local server reads bodies at a pace of at least 64 KiB/s after 10 s)"},
	{"413", "the body is over this deployment's limit (stated in the detail)"},
	{"415", "a media type this route does not read"},
	{"422", "well-formed input the statistics cannot use"},
	{"500", "the server failed; logged, never caused by input"},
}

func responses(result string, cache string, post bool) obj {
	ok := obj{{"description", "the result, exactly as the CLI's -json prints it"},
		{"headers", obj{{"Cache-Control", obj{{"schema", obj{{"type", "string"}, {"const", cache}}}}}}},
		{"content", obj{{"application/json", obj{{"schema", ref(result)}}}}}}
	rs := obj{{"200", ok}}
	for _, p := range problemStatuses {
		if !post && (p.code == "408" || p.code == "413" || p.code == "415") {
			continue
		}
		rs = rs.with(p.code, obj{{"$ref", "#/components/responses/Problem" + p.code}})
	}
	return rs
}

func generateOpenAPI(t *testing.T) []byte {
	types, docs := parseTypes(t, "../../core", "../../core/gate", "../../core/ledger", "../../core/aa", "../../core/aa/sim", "../../core/quarantine", "../../core/compare", "../../core/history", "../../core/triage", ".")
	g := &schemaGen{t: t, types: types, docs: docs, out: map[string]any{}}
	g.queue("api.problem")
	paths := obj{}
	for _, rt := range routes() {
		item := obj{}
		id := strings.TrimSuffix(rt.path, ".json")
		var query []any
		for _, p := range rt.params {
			query = append(query, obj{{"name", p.name}, {"in", "query"}, {"required", p.required},
				{"schema", paramSchema(p, false)}})
		}
		result := rt.results
		switch result {
		case "OpenAPI":
			g.out["OpenAPI"] = obj{{"type", "object"}, {"description", "an OpenAPI 3.1 document: this one"}}
		default:
			g.queueResult(result)
		}
		if rt.get != nil {
			cache := cacheGET
			switch rt.path {
			case "health":
				cache = cacheNone
			case "openapi.json":
				cache = cacheOpenAPI
			}
			op := obj{{"operationId", id + "Get"}, {"summary", rt.summary}}
			if query != nil {
				op = op.with("parameters", query)
			}
			item = item.with("get", op.with("responses", responses(result, cache, false)))
		}
		if rt.post != nil {
			op := obj{{"operationId", id + "Post"}, {"summary", rt.summary}}
			var content obj
			if rt.body == nil {
				name := schemaName(id) + "Params"
				props := obj{}
				var req []string
				for _, p := range rt.params {
					props = props.with(p.name, paramSchema(p, true))
					if p.required {
						req = append(req, p.name)
					}
				}
				ps := obj{{"type", "object"}, {"description", "the parameters of GET " + Prefix + rt.path + " as a JSON object; null members mean not given"},
					{"properties", props}}
				if req != nil {
					ps = ps.with("required", req)
				}
				g.out[name] = ps.with("additionalProperties", false)
				content = obj{{"application/json", obj{{"schema", ref(name)}}},
					{"application/x-www-form-urlencoded", obj{{"schema", ref(name)}}}}
			} else {
				op = op.with("parameters", query)
				for _, b := range rt.body {
					switch b {
					case bodyCSV:
						content = content.with("text/csv", obj{{"schema", obj{{"type", "string"},
							{"description", "the baseline: a CSV with header scenario,run,passed (passed is 0 or 1), one row per scenario per run"}}}})
					case bodyMultipartAA:
						files := filesOf("text/csv")
						content = withMultipart(content, obj{
							{"baseline", files.with("description", "runs of the unchanged configuration: one A/A CSV, or with a report format one part per run")},
							{"candidate", files.with("description", "runs of the candidate, compared against the baseline (same shapes)")}},
							"baseline")
					case bodyJSONL:
						report := obj{{"type", "string"}, {"description", "a seed JSONL ledger (run, arm, nodeid, when, outcome per line) or a test report in JSON lines, JSON or text; also read as application/jsonl, application/json, text/plain and any +json type"}}
						content = content.with("application/x-ndjson", obj{{"schema", report}})
						content = content.with("application/xml", obj{{"schema", obj{{"type", "string"},
							{"description", "a test report in XML, such as JUnit XML; also read as text/xml and any +xml type"}}}})
					case bodyReport:
						content = content.with("application/x-ndjson", obj{{"schema", obj{{"type", "string"},
							{"description", "one test report in JSON lines, JSON or text, or a seed JSONL ledger; also read as application/jsonl, application/json, text/plain and any +json type"}}}})
						content = content.with("application/xml", obj{{"schema", obj{{"type", "string"},
							{"description", "one test report in XML, such as JUnit XML; also read as text/xml and any +xml type"}}}})
					case bodyMultipartReports:
						content = withMultipart(content, obj{{"report", filesOf("application/octet-stream").with("description",
							"test reports, one part per run; a test that failed and then passed on a rerun is flaky")}},
							"report")
					case bodyMultipartLedger:
						files := filesOf("application/octet-stream")
						content = withMultipart(content, obj{
							{"ledger", files.with("description", "reports of the arm the query names (a JSONL ledger names its own arms)")},
							{"baseline", files.with("description", "test reports of baseline runs, one part per run")},
							{"patched", files.with("description", "test reports of patched runs, one part per run")}})
					case bodyMultipartCompare:
						content = compareContent(content)
					default:
						content = triageContent(b, historyContent(b, quarantineContent(b, boardContent(b, content))))
					}
				}
			}
			op = op.with("requestBody", obj{{"required", true}, {"content", content}})
			item = item.with("post", op.with("responses", responses(result, cacheNone, true)))
		}
		paths = paths.with(Prefix+rt.path, item)
	}
	g.run()
	schemas := obj{}
	for _, k := range sortedKeys(g.out) {
		schemas = schemas.with(k, g.out[k])
	}
	resps := obj{}
	for _, p := range problemStatuses {
		resps = resps.with("Problem"+p.code, problemResponse(p.desc))
	}
	doc := obj{
		{"openapi", "3.1.0"},
		{"info", obj{{"title", "flakegate API"}, {"version", "1"},
			{"description", "Rerun budgets for flaky tests, Wilson-interval verdicts and sizing, frozen rate claims, per-test ledgers and A/A noise checks of eval suites. " +
				"Rates, powers and drops are fractions in [0,1]. Every path also answers OPTIONS (CORS preflight, any origin, no credentials), and every GET path answers HEAD. " +
				"Errors are RFC 9457 problem details. Request bodies are streamed through a limit that /v1/health reports (32 MiB by default, 6 MB on AWS Lambda, where base64 leaves about 4.5 MB of raw upload); " +
				"a body may be sent with Content-Encoding: gzip, and answers of 1 KiB or more are sent gzip-compressed to clients that accept it (Vary: Accept-Encoding) where the platform does not compress them itself. " +
				fmt.Sprintf("Every request is bounded before its work starts, on every platform: at most %s rates per budget request, %s tests listed per answer (ledger: every test; flakes: the flaky ones; quarantine: the registry's tests), "+
					"%s (run, test) pairs read from one request's reports, %s scenarios and %s runs per A/A file, and an answer of at most %s; an A/A check also has a budget of work, "+
					"in steps of about a nanosecond of one core (aa.Work: the trend test's permutations times runs, the simulation's draws), that /v1/health reports for the deployment. "+
					"A request over a limit is a 413 that names the limit and what to do instead (the CLI has none of these limits).",
					count(MaxRates), count(MaxTests), count(MaxCells), count(MaxScenarios), count(MaxRuns), byteSize(MaxAnswerBytes))}}},
		{"servers", []any{obj{{"url", "http://127.0.0.1:8080"}, {"description", "the local server (make run)"}}}},
		{"paths", paths},
		{"components", obj{{"schemas", schemas}, {"responses", resps}}},
	}
	raw, err := marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// TestOpenAPIUpToDate regenerates the document from the route table and the
// core's source and holds the embedded copy to it.
func TestOpenAPIUpToDate(t *testing.T) {
	got := generateOpenAPI(t)
	if *update {
		if err := os.WriteFile("openapi.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, openAPIDoc) {
		t.Fatalf("openapi.json is stale: run go test ./functions/api -run TestOpenAPIUpToDate -update (%d bytes generated, %d embedded)",
			len(got), len(openAPIDoc))
	}
}

// TestOpenAPIRoutes checks that every served route is described, and every
// described route is served with the methods described.
func TestOpenAPIRoutes(t *testing.T) {
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	described := map[string][]string{}
	for p, ops := range doc.Paths {
		for m := range ops {
			described[p] = append(described[p], strings.ToUpper(m))
		}
		sort.Strings(described[p])
	}
	served := Routes()
	for p := range served {
		sort.Strings(served[p])
	}
	if !reflect.DeepEqual(described, served) {
		t.Errorf("described routes %v\nserved routes    %v", described, served)
	}
	// And the handler really answers each described operation with
	// something other than 404 or 405.
	h := New(Options{})
	for p, ms := range described {
		for _, m := range ms {
			status := serve(h, m, p, "", "").Code
			if status == 404 || status == 405 {
				t.Errorf("%s %s: status %d, but the document describes it", m, p, status)
			}
		}
	}
	for _, p := range []string{"/v1/nope", "/v1/", "/v1/budget/"} {
		if status := serve(h, "GET", p, "", "").Code; status != 404 {
			t.Errorf("GET %s: status %d, want 404 for an undescribed path", p, status)
		}
	}
}

// TestDocListsEveryRoute holds the package doc (doc.go) to the route
// table: every served path is in its list of routes, with its methods
// when they are not the params routes' GET and POST.
func TestDocListsEveryRoute(t *testing.T) {
	raw := testfile.Read(t, "doc.go")
	doc := string(raw)
	for path, methods := range Routes() {
		name := strings.TrimPrefix(path, Prefix)
		// "//   - name", "//   - other, name" or "//   - other, name (POST)".
		item := regexp.MustCompile(`(?m)^//   - (?:[a-z/.]+, )*` + regexp.QuoteMeta(name) + `(?:[ ,:(]|$)(.*)`)
		m := item.FindStringSubmatch(doc)
		if m == nil {
			t.Errorf("doc.go does not list %s", path)
			continue
		}
		if slices.Equal(methods, []string{"POST"}) && !strings.Contains(m[0], "(POST)") {
			t.Errorf("doc.go does not say %s is POST only: %q", path, m[0])
		}
	}
}
