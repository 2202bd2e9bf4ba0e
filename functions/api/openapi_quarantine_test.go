package api

// quarantineContent describes the request bodies of the quarantine routes
// in the OpenAPI document.
func quarantineContent(b bodyKind, content obj) obj {
	registry := obj{{"$ref", "#/components/schemas/Registry"}}
	switch b {
	case bodyRegistry:
		return content.with("application/json", obj{{"schema", registry.with("description",
			"the registry alone: its JSON file as flakegate quarantine writes it (docs/QUARANTINE.md)")}})
	case bodyMultipartRegistry:
		return withMultipart(content, obj{
			{"registry", fileOf("application/json", "the registry's JSON file (for add, optional: without it a new registry)")},
			{"report", filesOf("application/octet-stream").with("description",
				"test reports (go test -json, JUnit XML, a seed JSONL ledger, ...), one part per run, in the order run")},
			{"renames", fileOf("application/json",
				"check and write: a JSON object of a renamed test's old id to its new one, so its trials are kept")}})
	}
	return content
}
