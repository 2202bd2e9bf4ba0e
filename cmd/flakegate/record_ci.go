package main

import (
	"strconv"
	"strings"
)

// ciRun is what a CI system's environment says of the run in progress.
type ciRun struct {
	system              string // "github", "gitlab", "buildkite", "jenkins"; "" outside CI
	commit, branch, job string
	runID               string // the system's run, prefixed with the system: "github:123"
	attempt             int64  // the run's attempt, 1-based; 0 when not known
}

// ciEnv reads the run's metadata from the environment of GitHub Actions,
// GitLab CI, Buildkite or Jenkins (the first whose marker variable is set).
func ciEnv(getenv func(string) string) ciRun {
	first := func(names ...string) string {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	num := func(name string) int64 {
		n, err := strconv.ParseInt(getenv(name), 10, 64)
		if err != nil || n < 0 {
			return 0
		}
		return n
	}
	switch {
	case getenv("GITHUB_ACTIONS") == "true" || getenv("GITHUB_RUN_ID") != "":
		job := getenv("GITHUB_JOB")
		if w := getenv("GITHUB_WORKFLOW"); w != "" && job != "" {
			job = w + "/" + job
		}
		c := ciRun{system: "github", commit: getenv("GITHUB_SHA"), branch: first("GITHUB_HEAD_REF", "GITHUB_REF_NAME"), job: job, attempt: num("GITHUB_RUN_ATTEMPT")}
		if id := getenv("GITHUB_RUN_ID"); id != "" {
			c.runID = "github:" + id
		}
		return c
	case getenv("GITLAB_CI") != "" || getenv("CI_PIPELINE_ID") != "":
		// A retried GitLab job is a new job id in the same pipeline: the
		// run is the pipeline and the job's id.
		c := ciRun{system: "gitlab", commit: getenv("CI_COMMIT_SHA"), branch: first("CI_COMMIT_REF_NAME", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"), job: getenv("CI_JOB_NAME")}
		if id := getenv("CI_PIPELINE_ID"); id != "" {
			c.runID = "gitlab:" + id + "/" + getenv("CI_JOB_ID")
		}
		return c
	case getenv("BUILDKITE") == "true" || getenv("BUILDKITE_BUILD_ID") != "":
		c := ciRun{system: "buildkite", commit: getenv("BUILDKITE_COMMIT"), branch: getenv("BUILDKITE_BRANCH"), job: getenv("BUILDKITE_LABEL"), attempt: num("BUILDKITE_RETRY_COUNT") + 1}
		if id := getenv("BUILDKITE_BUILD_ID"); id != "" {
			c.runID = "buildkite:" + id
		}
		return c
	case getenv("JENKINS_URL") != "" || getenv("BUILD_NUMBER") != "" && getenv("JOB_NAME") != "":
		c := ciRun{system: "jenkins", commit: getenv("GIT_COMMIT"), branch: first("BRANCH_NAME", "GIT_BRANCH"), job: getenv("JOB_NAME")}
		c.branch = strings.TrimPrefix(c.branch, "origin/")
		if n := getenv("BUILD_NUMBER"); n != "" {
			c.runID = "jenkins:" + c.job + "#" + n
		}
		return c
	}
	return ciRun{}
}
