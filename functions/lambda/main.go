// Command bootstrap serves flakegate's JSON API on AWS Lambda behind a
// Function URL with InvokeMode RESPONSE_STREAM (lambdaurl answers nothing
// else). Build it for the provided.al2023 runtime:
//
//	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -tags lambda.norpc -o bootstrap ./functions/lambda
//
// or run `make lambda`, and deploy with template.yaml beside this file. The
// body limit is Lambda's 6 MB payload limit (api.LambdaOptions).
package main

import (
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambdaurl"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/share"
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
	lambdaurl.Start(api.New(opt))
}
