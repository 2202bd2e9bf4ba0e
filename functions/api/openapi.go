package api

import _ "embed"

// openAPIDoc is the OpenAPI 3.1 description served at /v1/openapi.json. It
// is generated from the route table and the core's result types by
// `go test ./functions/api -run TestOpenAPI -update`, and a test fails when
// it is stale.
//
//go:embed openapi.json
var openAPIDoc []byte
