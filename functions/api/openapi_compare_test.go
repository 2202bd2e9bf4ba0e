package api

// compareContent describes /v1/compare's request body in the OpenAPI
// document.
func compareContent(content obj) obj {
	files := filesOf("application/octet-stream")
	return withMultipart(content, obj{
		{"a", files.with("description", "side A, the model compared against: one eval log per part (inspect_ai, lm-evaluation-harness samples, promptfoo, a samples file); several parts are several runs (epochs, repeats)")},
		{"b", files.with("description", "side B, the model compared: the same questions, the same shapes")}},
		"a", "b")
}
