package runner

import "testing"

// TestGoTestCause: the cause is read from go test -json events with the
// fields test2json and the go command document, keys matched exactly and
// other keys left unread. The
// streams are real (go1.26.8, go test -json -count=1 on a module with one
// test: with a mistyped flag, the flag listing cut; with a syntax error).
func TestGoTestCause(t *testing.T) {
	const badFlag = `{"Time":"2026-12-03T15:26:43.324522525Z","Action":"start","Package":"jt"}
{"Time":"2026-12-03T15:26:43.333049667Z","Action":"output","Package":"jt","Output":"flag provided but not defined: -bogus\n"}
{"Time":"2026-12-03T15:26:43.333125383Z","Action":"output","Package":"jt","Output":"Usage of /tmp/go-build3046689870/b001/jt.test:\n"}
{"Time":"2026-12-03T15:26:43.333739742Z","Action":"output","Package":"jt","Output":"exit status 2\n"}
{"Time":"2026-12-03T15:26:43.333759262Z","Action":"output","Package":"jt","Output":"FAIL\tjt\t0.009s\n"}
{"Time":"2026-12-03T15:26:43.333770935Z","Action":"fail","Package":"jt","Elapsed":0.009}
`
	const badBuild = `{"ImportPath":"jt [jt.test]","Action":"build-output","Output":"# jt [jt.test]\n"}
{"ImportPath":"jt [jt.test]","Action":"build-output","Output":"./b.go:2:9: syntax error: unexpected {, expected )\n"}
{"ImportPath":"jt [jt.test]","Action":"build-fail"}
{"Time":"2026-12-03T15:26:43.890020444Z","Action":"start","Package":"jt"}
{"Time":"2026-12-03T15:26:43.890135201Z","Action":"output","Package":"jt","Output":"FAIL\tjt [build failed]\n"}
{"Time":"2026-12-03T15:26:43.890140942Z","Action":"fail","Package":"jt","Elapsed":0,"FailedBuild":"jt [jt.test]"}
`
	for _, c := range []struct {
		name, in, want string
		ok             bool
	}{
		{"mistyped flag", badFlag, "flag provided but not defined: -bogus", true},
		{"syntax error", badBuild, "./b.go:2:9: syntax error: unexpected {, expected )", true},
		// A key a later Go may add is left unread, as core/report's reader leaves it.
		{"added key", `{"Action":"output","Output":"x\n","OutputType":"frame"}`, "x", true},
		// Not events: a key in another case is another key; a key twice.
		{"key case", `{"Action":"start"}` + "\n" + `{"action":"output","Output":"x\n"}` + "\n" + `{"Action":"output","OUTPUT":"y\n"}`, "", false},
		{"key twice", `{"Action":"output","Output":"x\n","Output":"y\n"}`, "", false},
		{"not go test", `{"run":"b1"}`, "", false},
	} {
		got, ok := goTestCause([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("%s: got %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
