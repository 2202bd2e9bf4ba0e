# The quarantine registry kept for the team, for action/run.sh (sourced
# after store.sh, not run): triage wrote the registry's change as a
# unified diff (flakegate triage -registry FILE -diff-out DIFF: the
# entries it proposes added, the releases it proved removed); with
# registry-pr and a GH_TOKEN it becomes a pull request, else the job's
# summary shows it.
#
# The pull request's branch is made with git plumbing alone, as the data
# branch is: the base branch fetched at depth 1, the diff applied to its
# tree in a private index (git apply --cached), a commit of that tree on
# the base's tip, force-pushed to the registry branch, so the job's
# checkout is never touched and a pull request's own changes never reach
# the registry's. The branch is one per base, so each night's triage
# updates the same pull request; gh pr create opens it once.
#
# Environment:
#   INPUT_REGISTRY_PR      "true": open a pull request with the change
#   INPUT_REGISTRY_BRANCH  the pull request's branch (default
#                          flakegate-registry/<base>)
#   INPUT_REGISTRY_BASE    the branch the change is made on and proposed to
#                          (default: the pull request's base, GITHUB_BASE_REF,
#                          else the branch tested, GITHUB_REF_NAME)
#   GH_TOKEN               the token gh uses (the job's github.token with
#                          pull-requests: write); without it the summary
#                          shows the diff and nothing is pushed

# registry_summary appends markdown $1 to the job's summary.
registry_summary() {
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		printf '%s\n' "$1" >>"$GITHUB_STEP_SUMMARY"
	fi
}

# registry_show puts the diff $1 in the job's summary, saying why ($2).
registry_show() {
	registry_summary "$2 Apply it with \`git apply\` (or \`patch -p1\`) at the repository's root:

\`\`\`diff
$(cat "$1")
\`\`\`"
}

# registry_publish makes the change in diff $1 a pull request, its body
# the words of markdown file $2 (triage's summary, from its registry
# section on), or shows it in the summary. It sets registry_pr_branch and
# registry_pr_url when it pushed and opened (or updated) one.
registry_publish() {
	local diff=$1 words=$2 base branch prefix parent index tree commit body err url
	registry_pr_branch= registry_pr_url=
	if [ "${INPUT_REGISTRY_PR:-false}" != true ]; then
		registry_show "$diff" "The registry's change is this diff (set \`registry-pr: true\` and \`GH_TOKEN\` for a pull request)."
		return 0
	fi
	if [ -z "${GH_TOKEN:-}" ]; then
		registry_show "$diff" "No \`GH_TOKEN\` to open the registry's pull request with: the change is this diff."
		return 0
	fi
	base=${INPUT_REGISTRY_BASE:-${GITHUB_BASE_REF:-${GITHUB_REF_NAME:-main}}}
	branch=${INPUT_REGISTRY_BRANCH:-flakegate-registry/$base}
	# The diff names the registry from the working directory; the
	# repository's tree wants it from the root.
	prefix=$(git rev-parse --show-prefix) &&
		git fetch --quiet --no-tags --depth=1 "$remote" "+refs/heads/$base:refs/remotes/$remote/$base" &&
		parent=$(git rev-parse --verify --quiet "refs/remotes/$remote/$base^{commit}") || {
		registry_show "$diff" "The base branch $base could not be fetched, so no pull request: the change is this diff."
		return 0
	}
	index=$data_dir/registry-index
	rm -f "$index"
	if ! err=$(GIT_INDEX_FILE=$index git read-tree "$parent" 2>&1 &&
		GIT_INDEX_FILE=$index git apply --cached ${prefix:+"--directory=$prefix"} "$diff" 2>&1); then
		rm -f "$index"
		printf '::warning title=flakegate registry::%s\n' "$(escape_data "the registry's change does not apply to $base: $err")"
		registry_show "$diff" "The registry's change does not apply to $base (it changed since): the change is this diff, against this run's checkout."
		return 0
	fi
	tree=$(GIT_INDEX_FILE=$index git write-tree)
	rm -f "$index"
	commit=$(bot_commit "$tree" "$parent" "flakegate: keep the quarantine registry

The change triage proposes in ${GITHUB_WORKFLOW:-workflow} run ${GITHUB_RUN_ID:-?}, job ${GITHUB_JOB:-?}: the flaky tests beyond the
gate's reruns quarantined, the entries proven fixed released.") &&
		err=$(git push --quiet --force "$remote" "$commit:refs/heads/$branch" 2>&1) || {
		printf '::warning title=flakegate registry::%s\n' "$(escape_data "pushing the registry's change to $branch failed: $err")"
		registry_show "$diff" "Pushing the registry's change to $branch failed: the change is this diff."
		return 0
	}
	registry_pr_branch=$branch
	body=$data_dir/registry-pr.md
	{
		sed -n '/^#### The quarantine registry (/,$p' "$words"
		printf '\nMade by flakegate triage in %s run %s (job %s); the next triage updates this branch.\n' "${GITHUB_WORKFLOW:-workflow}" "${GITHUB_RUN_ID:-?}" "${GITHUB_JOB:-?}"
	} >"$body"
	if url=$(gh pr create ${GITHUB_REPOSITORY:+--repo "$GITHUB_REPOSITORY"} --base "$base" --head "$branch" \
		--title "flakegate: keep the quarantine registry" --body-file "$body" 2>&1); then
		registry_pr_url=$(printf '%s\n' "$url" | tail -n 1)
		registry_summary "flakegate opened a pull request with the registry's change on branch $branch: $registry_pr_url"
	elif [[ $url == *"already exists"* ]]; then
		registry_pr_url=$(printf '%s\n' "$url" | grep -o 'https://[^ ]*' | tail -n 1)
		registry_summary "flakegate updated the registry's pull request on branch $branch${registry_pr_url:+: $registry_pr_url}"
	else
		printf '::warning title=flakegate registry::%s\n' "$(escape_data "gh pr create: $url")"
		registry_summary "flakegate pushed the registry's change to branch $branch, but could not open its pull request: $url"
	fi
	return 0
}
