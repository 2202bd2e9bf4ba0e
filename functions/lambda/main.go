// Command bootstrap serves flakegate's JSON API on AWS Lambda behind a
// Function URL with InvokeMode RESPONSE_STREAM (lambdaurl answers nothing
// else). Build it for the provided.al2023 runtime:
//
//	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -tags lambda.norpc -o bootstrap ./functions/lambda
//
// or run `make lambda`, and deploy with template.yaml beside this file. The
// body limit is Lambda's 6 MB payload limit (api.LambdaOptions).
//
// A request's context ends deadlineMargin before the function's timeout,
// so that work the API stops when its context ends (the A/A check) is
// answered with the API's own 503 problem while there is time to send it,
// rather than cut off by the platform's timeout.
package main

import (
	"context"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambdaurl"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/internal/share"
)

func main() {
	opt := api.LambdaOptions()
	// A Function URL serves no calculator: results link to the one at
	// FLAKEGATE_SITE, or carry no link.
	if s := os.Getenv("FLAKEGATE_SITE"); s != "" {
		site, err := share.ParseSite(s)
		if err != nil {
			log.Fatalf("FLAKEGATE_SITE: %v", err)
		}
		opt.Site, opt.NoLinks = site, false
	}
	lambdaurl.Start(beforeDeadline(api.New(opt), deadlineMargin))
}

// deadlineMargin is how long before Lambda's deadline a request's context
// ends: time to write a problem and for the runtime to stream it.
const deadlineMargin = 500 * time.Millisecond

// beforeDeadline gives each request a context that ends margin before the
// one Lambda's runtime set (the invocation's deadline), or at half the
// time left when that is less than twice margin.
func beforeDeadline(h http.Handler, margin time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, ok := r.Context().Deadline(); ok {
			left := time.Until(d)
			ctx, cancel := context.WithDeadline(r.Context(), d.Add(-min(margin, left/2)))
			defer cancel()
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	})
}
