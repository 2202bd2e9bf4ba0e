package lambdatest

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestEvent: a case becomes the event a Function URL sends (the shape
// documented for Lambda Function URL payloads, version 2.0): path and
// query apart, header names lower-cased, a text body as is and a
// multipart one base64-encoded, with its length.
func TestEvent(t *testing.T) {
	decode := func(c apitest.Case, force bool) events.LambdaFunctionURLRequest {
		t.Helper()
		raw, err := Event(c, t.TempDir(), 1<<20, force)
		if err != nil {
			t.Fatal(err)
		}
		var ev events.LambdaFunctionURLRequest
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		return ev
	}
	text := apitest.Case{Method: "POST", URL: "/v1/aa?seed=3", Header: map[string]string{"Content-Type": "text/csv", "X-Two": "a,b"},
		Body: "scenario,run,passed\ns,r,1\n"}
	ev := decode(text, false)
	if ev.RawPath != "/v1/aa" || ev.RawQueryString != "seed=3" || ev.RequestContext.HTTP.Method != "POST" ||
		ev.Headers["content-type"] != "text/csv" || ev.Headers["x-two"] != "a,b" || ev.Headers["content-length"] != strconv.Itoa(len(text.Body)) ||
		ev.IsBase64Encoded || ev.Body != text.Body {
		t.Errorf("text body: %+v", ev)
	}
	ev = decode(text, true)
	if b, err := base64.StdEncoding.DecodeString(ev.Body); !ev.IsBase64Encoded || err != nil || string(b) != text.Body {
		t.Errorf("text body, forced to base64: %v %q", ev.IsBase64Encoded, ev.Body)
	}
	parts := apitest.Case{Method: "POST", URL: "/v1/aa", Parts: []apitest.Part{{Name: "baseline", Text: "scenario,run,passed\n"}}}
	ev = decode(parts, false)
	b, err := base64.StdEncoding.DecodeString(ev.Body)
	if !ev.IsBase64Encoded || err != nil || ev.Headers["content-type"] != "multipart/form-data; boundary="+apitest.Boundary ||
		ev.Headers["content-length"] != strconv.Itoa(len(b)) {
		t.Errorf("multipart body: base64 %v (%v), headers %v", ev.IsBase64Encoded, err, ev.Headers)
	}
}
