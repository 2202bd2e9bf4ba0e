# The history store on a data branch, for action/run.sh (sourced, not run):
# the store is one file on a branch of the repository itself (by default
# flakegate-data), kept the way benchmark actions keep their data on
# gh-pages, so a team needs no server and no secret beyond the job's own
# GITHUB_TOKEN.
#
# Only git plumbing is used: the branch is fetched into
# refs/remotes/$remote/$branch at depth 1, the store read out of it with git
# show, and a new commit made from a private index and pushed. The job's
# checkout (its working tree, index and HEAD) is never touched, and the
# remote is the one actions/checkout left, with the token it configured.
#
# Concurrency: a push that is not a fast-forward is refused by the remote,
# so two jobs recording at once cannot overwrite each other. The loser
# fetches the branch again, records its reports onto the store it now
# holds (a run already recorded counts once), and pushes again, after a
# random wait that doubles each time, up to a bounded number of attempts.
#
# Environment:
#   FLAKEGATE_REMOTE         the remote (default origin)
#   FLAKEGATE_PUSH_ATTEMPTS  pushes tried before record gives up (default 10)
#   FLAKEGATE_BACKOFF_MS     the first wait's upper bound in milliseconds
#                            (default 1000); the k-th wait is uniform in
#                            [0, FLAKEGATE_BACKOFF_MS × 2^(k-1))

remote=${FLAKEGATE_REMOTE:-origin}
# data_dir holds the private index (run.sh sets it to its output folder).
data_dir=${data_dir:-${TMPDIR:-/tmp}}

# data_fetch fetches branch $1 at depth 1 and prints its commit, or
# nothing when the remote has no such branch yet. It fails when the remote
# cannot be read at all.
data_fetch() {
	local branch=$1 ref=refs/remotes/$remote/$1 err code
	err=$(git fetch --quiet --no-tags --depth=1 "$remote" "+refs/heads/$branch:$ref" 2>&1) && {
		git rev-parse --verify --quiet "$ref^{commit}"
		return 0
	}
	# ls-remote exits 2 when the remote answers and the branch is not there.
	git ls-remote --exit-code --heads "$remote" "$branch" >/dev/null 2>&1
	code=$?
	if [ "$code" -eq 2 ]; then
		return 0
	fi
	printf 'fetching the data branch %s from %s: %s\n' "$branch" "$remote" "$err" >&2
	return 1
}

# data_read writes file $3 of commit $1 (the data branch's tip, or empty)
# to $2; it removes $2 when the commit has no such file. It sets data_blob
# to the file's object, empty without one. $4 names the branch in messages.
data_read() {
	local commit=$1 dest=$2 path=$3
	rm -f "$dest"
	data_blob=
	[ -n "$commit" ] || return 0
	data_blob=$(git rev-parse --verify --quiet "$commit:$path") || {
		data_blob=
		return 0
	}
	git cat-file blob "$data_blob" >"$dest" || {
		printf 'reading %s from the data branch %s\n' "$path" "$4" >&2
		return 1
	}
}

# data_commit prints a new commit: the tree of parent $1 (none for a new,
# orphan branch) with file $3 set to blob $2, and message $4. It builds the
# tree in an index of its own in $data_dir.
data_commit() {
	local parent=$1 blob=$2 path=$3 msg=$4 index tree
	index=$data_dir/index
	rm -f "$index"
	if [ -n "$parent" ]; then
		GIT_INDEX_FILE=$index git read-tree "$parent"
	else
		GIT_INDEX_FILE=$index git read-tree --empty
	fi &&
		GIT_INDEX_FILE=$index git update-index --add --cacheinfo "100644,$blob,$path" &&
		tree=$(GIT_INDEX_FILE=$index git write-tree)
	local ok=$?
	rm -f "$index"
	[ "$ok" -eq 0 ] || return 1
	bot_commit "$tree" "$parent" "$msg"
}

# bot_commit prints a new commit of tree $1 with parent $2 (none when
# empty) and message $3. The commit is the job's bot's, as GitHub's own
# actions sign theirs, unless the workflow set an identity in the
# environment.
bot_commit() {
	local tree=$1 parent=$2 msg=$3
	GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-github-actions[bot]} \
		GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com} \
		GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-github-actions[bot]} \
		GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com} \
		git commit-tree "$tree" ${parent:+-p "$parent"} -m "$msg"
}

# backoff waits a random time below FLAKEGATE_BACKOFF_MS × 2^($1-1)
# milliseconds.
backoff() {
	local base=${FLAKEGATE_BACKOFF_MS:-1000} k=$1 cap ms
	cap=$((base << (k - 1)))
	[ "$cap" -gt 0 ] || return 0
	ms=$(((RANDOM * 32768 + RANDOM) % cap))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}

# data_record appends to the store $2 on branch $1 with the command
# "$3" (a function given the local store file's path as its one argument,
# which records the job's reports into it), commits and pushes, retrying
# as above. It sets data_tip to the commit pushed and data_attempts to the
# pushes it took, or, when the store came out unchanged (the run was
# recorded already), data_unchanged to 1, data_tip to the branch's commit
# and pushes nothing; the local store file is left at $4.
data_record() {
	local branch=$1 path=$2 append=$3 local_store=$4 attempts=${FLAKEGATE_PUSH_ATTEMPTS:-10} k parent blob commit err msg
	msg="flakegate record: ${GITHUB_WORKFLOW:-workflow} run ${GITHUB_RUN_ID:-?} attempt ${GITHUB_RUN_ATTEMPT:-1}, job ${GITHUB_JOB:-?}, ${GITHUB_SHA:-?}"
	for ((k = 1; k <= attempts; k++)); do
		parent=$(data_fetch "$branch") || return 1
		data_read "$parent" "$local_store" "$path" "$branch" || return 1
		"$append" "$local_store" || return 2
		blob=$(git hash-object -w -- "$local_store") || return 1
		# Nothing new (this job's run was already recorded): no commit.
		if [ "$blob" = "$data_blob" ]; then
			data_tip=$parent
			data_attempts=$k
			data_unchanged=1
			return 0
		fi
		data_unchanged=
		commit=$(data_commit "$parent" "$blob" "$path" "$msg") || {
			printf 'committing the store to the data branch %s failed\n' "$branch" >&2
			return 1
		}
		if err=$(git -c advice.pushUpdateRejected=false push --quiet "$remote" "$commit:refs/heads/$branch" 2>&1); then
			data_tip=$commit
			data_attempts=$k
			return 0
		fi
		# Another job pushed first (or the push failed for another reason,
		# which the next attempts meet again and the last one reports).
		[ "$k" -lt "$attempts" ] && backoff "$k"
	done
	printf 'pushing the store to the data branch %s failed %d times; the last time: %s\n' "$branch" "$attempts" "$err" >&2
	return 1
}
