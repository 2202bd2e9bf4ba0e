module github.com/flakegate/flakegate

go 1.26.8

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/aws/aws-lambda-go v1.55.1
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/creack/pty v1.1.24
	github.com/maxence-charriere/go-app/v10 v10.1.11
	golang.org/x/term v0.48.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/uuid v1.6.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/maxence-charriere/go-app/v10 => ./third_party/go-app
