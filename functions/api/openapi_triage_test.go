package api

// triageContent describes the request body of /v1/triage in the OpenAPI
// document.
func triageContent(b bodyKind, content obj) obj {
	if b != bodyMultipartTriage {
		return content
	}
	return withMultipart(content, obj{
		{"manifest", fileOf("text/csv",
			"optional, before the reports: a CSV with the columns file,run,commit,branch,time,job saying what run each past report file is")},
		{"report", filesOf("application/octet-stream").with("description",
			"the past: test reports in any format flakegate reads, one part per run, zip archives of them, or history stores (flakegate record)")},
		{"run", filesOf("application/octet-stream").with("description",
			"this run: its test reports (a sharded job's several), read together as the one run to triage, or a zip archive of them")},
		{"quarantine", fileOf("application/json",
			"optional: the quarantine registry; a test it holds, unexpired, is quarantined")}},
		"report", "run")
}
