package api

// historyContent describes the request bodies of /v1/history in the
// OpenAPI document.
func historyContent(b bodyKind, content obj) obj {
	switch b {
	case bodyHistoryZip:
		return content.with("application/zip", obj{{"schema", fileOf("application/zip",
			"a zip archive of test reports (a CI artifact), each file one run, read in the order of their names; also read as application/x-zip-compressed")}})
	case bodyMultipartHistory:
		return withMultipart(content, obj{
			{"manifest", fileOf("text/csv",
				"optional, before the reports: a CSV with the columns file,run,commit,branch,time,job saying what run each report file is")},
			{"report", filesOf("application/octet-stream").with("description",
				"test reports in any format flakegate reads, one part per run, zip archives of them, or history stores (flakegate record)")}},
			"report")
	}
	return content
}
