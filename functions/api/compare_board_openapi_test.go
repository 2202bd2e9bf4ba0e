package api

// boardContent describes /v1/compare/board's request body in the OpenAPI
// document (b is the route's body kind; other kinds pass content through).
func boardContent(b bodyKind, content obj) obj {
	if b != bodyMultipartBoard {
		return content
	}
	form := obj{{"type", "object"}, {"description", "one part a model, named after it: its eval logs (inspect_ai, lm-evaluation-harness samples, promptfoo, a samples file), several parts of one name being several runs of it (epochs, repeats); 2 to 50 models, on the same questions"},
		{"minProperties", 2}, {"maxProperties", 50},
		{"additionalProperties", filesOf("application/octet-stream")}}
	return content.with("multipart/form-data", obj{{"schema", form}})
}
