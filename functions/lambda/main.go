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
	"github.com/aws/aws-lambda-go/lambdaurl"

	"github.com/flakegate/flakegate/functions/api"
)

func main() {
	lambdaurl.Start(api.New(api.LambdaOptions()))
}
