#!/usr/bin/env bash
# The step of flakegate's GitHub Action (action.yml at the repository's
# root): run one flakegate command on the test reports that match the given
# globs, append its Markdown summary to the job's summary, annotate every
# test that blocks (on the report that showed it), set the step's outputs,
# and exit with the gate's status:
#   0  the gate passes      1  it blocks      2  bad input or usage
#   3  flakegate run stopped at a budget
#
# Environment (the action sets it from its inputs):
#   FLAKEGATE            the flakegate binary (default: flakegate on PATH)
#   INPUT_COMMAND        the command and its flags, words split on spaces
#                        (no quoting): "budget -cap 3", "ledger -min-trials 20",
#                        "run -n 20 -baseline-ref main -- go test -json -count=1 ./..."
#                        (the action's own flags go before the "--")
#   INPUT_REPORTS        globs of report files, one per line (** matches
#                        directories): budget reads each with -from, ledger
#                        and aa as a baseline run, quarantine check as a run,
#                        compare as side A's eval logs (-a)
#   INPUT_PATCHED        globs of the second arm's reports: ledger -patched,
#                        aa -candidate, compare side B's eval logs (-b)
#   INPUT_SITE           the calculator's address for links (optional)
#   INPUT_FAIL_ON_BLOCK  "false" to exit 0 when the gate blocks (default true)
#   INPUT_STORE          record and triage: the history store's file, a path
#                        on the data branch (default flakegate.store), or in
#                        the working directory when INPUT_STORE_BRANCH is empty
#   INPUT_STORE_BRANCH   the data branch that holds the store (default
#                        flakegate-data; "" for a file the workflow keeps, with
#                        the Actions cache or an artifact): record appends the
#                        job's reports to it and pushes, retrying when another
#                        job pushed first (action/store.sh); triage reads it
#   INPUT_REGISTRY       triage: the quarantine registry (a path from the
#                        working directory); triage writes the registry's
#                        change, its proposals added and proven releases
#                        removed, as one diff (action/registry.sh)
#   INPUT_REGISTRY_PR    triage: "true" to open a pull request with that
#                        change when GH_TOKEN is set (the registry defaults
#                        to quarantine.json); else the summary shows the diff
#   INPUT_REGISTRY_BRANCH, INPUT_REGISTRY_BASE, GH_TOKEN  see action/registry.sh
#   FLAKEGATE_OUT        where the JSON result goes (default $RUNNER_TEMP/flakegate)
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT  as GitHub Actions sets them
#
# Outputs: verdict (pass, block, error or stopped; recorded for record;
# no-history for triage when there is no store yet),
# blocks (true or false), link (the calculator view of the result, when
# INPUT_SITE is set) and json (the path of the JSON result; empty when
# flakegate could not produce one); record and triage set store (the path
# of the store file as the step left it) and store-commit (the data
# branch's commit it was read from or pushed as; empty without one);
# triage with a registry sets registry-diff (the path of the registry's
# diff, empty when it needs no change), registry-branch and registry-pr
# (the pull request's branch and address, when one was opened or updated).
set -uo pipefail
shopt -s globstar nullglob

FLAKEGATE=${FLAKEGATE:-flakegate}
out=${FLAKEGATE_OUT:-${RUNNER_TEMP:-/tmp}/flakegate}
mkdir -p "$out" || exit 2
json=$out/result.json
errors=$out/stderr.txt
registry_diff=$out/registry.diff
markdown=$out/summary.md
rm -f "$json" "$errors" "$registry_diff" "$markdown"

# escape_data escapes a workflow command's message as GitHub reads it:
# % CR LF become %25 %0D %0A.
escape_data() {
	local s=$1
	s=${s//'%'/%25}
	s=${s//$'\r'/%0D}
	s=${s//$'\n'/%0A}
	printf '%s' "$s"
}

# output appends name=value to the step's outputs.
output() {
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
	fi
}

# fail reports that the gate could not run: an annotation, a summary
# section, the outputs, and exit status 2.
fail() {
	local msg=$1
	printf '::error title=flakegate could not run::%s\n' "$(escape_data "$msg")"
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		{
			printf '**flakegate could not run: its input is unusable.**\n\n'
			printf '```\n%s\n```\n\n' "$msg"
		} >>"$GITHUB_STEP_SUMMARY"
	fi
	output verdict error
	output blocks false
	output link ""
	output json ""
	exit 2
}

read -r -a command <<<"${INPUT_COMMAND:-budget}"
if [ ${#command[@]} -eq 0 ]; then
	command=(budget)
fi

# expand prints the files matching the globs in $1, one per line, and
# fails when a glob matches none.
expand() {
	local line f n
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		[ -z "$line" ] && continue
		n=0
		# shellcheck disable=SC2206 # the glob is meant to expand
		local IFS=$'\n'
		for f in $line; do
			[ -f "$f" ] || continue
			printf '%s\n' "$f"
			n=$((n + 1))
		done
		if [ "$n" -eq 0 ]; then
			echo "no report file matches $line" >&2
			return 1
		fi
	done <<<"$1"
}

reports=()
patched=()
if [ -n "${INPUT_REPORTS:-}" ]; then
	list=$(expand "$INPUT_REPORTS" 2>"$errors") || fail "$(cat "$errors")"
	mapfile -t reports <<<"$list"
fi
if [ -n "${INPUT_PATCHED:-}" ]; then
	list=$(expand "$INPUT_PATCHED" 2>"$errors") || fail "$(cat "$errors")"
	mapfile -t patched <<<"$list"
fi

args=()
registry=
if [ "${INPUT_REGISTRY_PR:-false}" = true ] || [ -n "${INPUT_REGISTRY:-}" ]; then
	registry=${INPUT_REGISTRY:-quarantine.json}
fi
verb=${command[0]}
if [ "$verb" = triage ] && [[ " ${command[*]} " =~ \ --?history[=\ ] ]]; then
	verb=triage-history
fi
case $verb in
budget)
	for f in "${reports[@]}"; do args+=(-from "$f"); done
	[ ${#patched[@]} -eq 0 ] || fail "budget reads one set of reports: give them as reports, not patched"
	;;
ledger)
	args+=("${reports[@]}")
	for f in "${patched[@]}"; do args+=(-patched "$f"); done
	;;
aa)
	args+=("${reports[@]}")
	for f in "${patched[@]}"; do args+=(-candidate "$f"); done
	;;
compare)
	# side A (the model compared against) is reports, side B patched: one
	# eval log a run, several for epochs or repeats.
	[ ${#reports[@]} -gt 0 ] && [ ${#patched[@]} -gt 0 ] ||
		fail "flakegate compare needs both sides: side A's eval logs as reports, side B's as patched"
	for f in "${reports[@]}"; do args+=(-a "$f"); done
	for f in "${patched[@]}"; do args+=(-b "$f"); done
	;;
quarantine)
	# quarantine check reads each report as a run; the registry is named
	# in the command (-registry), and -write records the night in it.
	args+=("${reports[@]}")
	[ ${#patched[@]} -eq 0 ] || fail "flakegate quarantine reads one set of reports: give them as reports, not patched"
	;;
history)
	# history reads every report as one run of the CI history (zip
	# archives too, each file inside one run).
	args+=("${reports[@]}")
	[ ${#patched[@]} -eq 0 ] || fail "flakegate history reads one set of reports: give them as reports, not patched"
	;;
record | triage)
	# Both read the history store: record appends the job's reports to it
	# (each report one run of the job), triage classifies the job's
	# failures against it. See action/store.sh for the data branch.
	[ ${#reports[@]} -gt 0 ] || fail "flakegate ${command[0]} needs this job's test reports: give them as reports"
	[ ${#patched[@]} -eq 0 ] || fail "flakegate ${command[0]} reads one set of reports: give them as reports, not patched"
	data_dir=$out
	# shellcheck source=store.sh
	. "${BASH_SOURCE[0]%/*}/store.sh"
	store_path=${INPUT_STORE:-flakegate.store}
	branch=${INPUT_STORE_BRANCH-flakegate-data}
	tip=
	if [ -n "$branch" ]; then
		store_file=$out/${store_path##*/}
	else
		store_file=$store_path
	fi
	if [ "${command[0]}" = record ]; then
		record_into() {
			"$FLAKEGATE" "${command[@]}" -store "$1" "${reports[@]}" 2>>"$errors"
		}
		if [ -z "$branch" ]; then
			record_into "$store_file" || fail "$(cat "$errors")"
			where="$store_file"
		else
			data_record "$branch" "$store_path" record_into "$store_file" 2>>"$errors" || fail "$(cat "$errors")"
			tip=$data_tip
			if [ -n "$data_unchanged" ]; then
				where="$store_path on the data branch $branch, which held them already (commit ${tip:0:12}: nothing pushed)"
			else
				where="$store_path on the data branch $branch (commit ${tip:0:12}, pushed at attempt $data_attempts)"
			fi
		fi
		cat "$errors" >&2
		if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
			printf 'flakegate recorded %d report(s) of job %s (run %s, attempt %s) into %s.\n\n' \
				${#reports[@]} "${GITHUB_JOB:-?}" "${GITHUB_RUN_ID:-?}" "${GITHUB_RUN_ATTEMPT:-1}" "$where" >>"$GITHUB_STEP_SUMMARY"
		fi
		output verdict recorded
		output blocks false
		output link ""
		output json ""
		output store "$store_file"
		output store-commit "$tip"
		exit 0
	fi
	if [ -n "$branch" ]; then
		tip=$(data_fetch "$branch" 2>"$errors") || fail "$(cat "$errors")"
		data_read "$tip" "$store_file" "$store_path" "$branch" 2>"$errors" || fail "$(cat "$errors")"
	fi
	output store "$store_file"
	output store-commit "$tip"
	if [ ! -f "$store_file" ]; then
		# No store yet (main has not recorded a run): nothing to judge the
		# failures by. The step says so and leaves the verdict to the
		# tests' own status (verdict no-history).
		if [ -n "$branch" ]; then
			msg="no history to triage against yet: the data branch $branch holds no $store_path; the first run of command record on the default branch makes it"
		else
			msg="no history to triage against yet: there is no store at $store_file"
		fi
		printf '::warning title=flakegate triage::%s\n' "$(escape_data "$msg")"
		if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
			printf '**flakegate did not triage this run: %s.** The tests'"'"' own status decides.\n\n' "$msg" >>"$GITHUB_STEP_SUMMARY"
		fi
		output verdict no-history
		output blocks false
		output link ""
		output json ""
		exit 0
	fi
	args+=(-history "$store_file" "${reports[@]}")
	[ -z "$registry" ] || args+=(-registry "$registry" -diff-out "$registry_diff")
	;;
triage-history)
	# triage judges this run's reports against the past runs the command
	# names (-history, a folder, glob or zip archive of their reports, or a
	# store): no store is fetched.
	args+=("${reports[@]}")
	[ ${#patched[@]} -eq 0 ] || fail "flakegate triage reads this run's reports: give them as reports, and the past in the command with -history"
	[ -z "$registry" ] || args+=(-registry "$registry" -diff-out "$registry_diff")
	;;
*)
	[ ${#reports[@]} -eq 0 ] && [ ${#patched[@]} -eq 0 ] ||
		fail "flakegate ${command[0]} reads no reports: leave reports and patched empty"
	;;
esac
if [ -n "${INPUT_SITE:-}" ]; then
	args+=(-site "$INPUT_SITE")
fi
if [ -n "$registry" ]; then
	# The summary is kept apart first: the registry's pull request takes
	# its words from it.
	args+=(-markdown-out "$markdown")
elif [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	args+=(-markdown-out "$GITHUB_STEP_SUMMARY")
fi

args+=(-json-out "$json" -annotations)
# The action's flags go before a "--" in the command: what follows it is
# the test command flakegate run runs, not flakegate's.
head=("${command[@]}")
tail=()
for i in "${!command[@]}"; do
	if [ "${command[$i]}" = -- ]; then
		head=("${command[@]:0:i}")
		tail=("${command[@]:i}")
		break
	fi
done
"$FLAKEGATE" "${head[@]}" "${args[@]}" "${tail[@]}" 2>"$errors"
status=$?
cat "$errors" >&2

case $status in
0) verdict=pass ;;
1) verdict=block ;;
3) verdict=stopped ;;
*) fail "$(cat "$errors")" ;;
esac
if [ -n "$registry" ]; then
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$markdown" ]; then
		cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
	fi
	registry_pr_branch= registry_pr_url=
	if [ -s "$registry_diff" ]; then
		data_dir=$out
		# shellcheck source=store.sh
		. "${BASH_SOURCE[0]%/*}/store.sh"
		# shellcheck source=registry.sh
		. "${BASH_SOURCE[0]%/*}/registry.sh"
		registry_publish "$registry_diff" "$markdown"
		output registry-diff "$registry_diff"
	else
		output registry-diff ""
	fi
	output registry-branch "$registry_pr_branch"
	output registry-pr "$registry_pr_url"
fi
# The result's own link: the top-level member of the indented JSON (read
# in bash alone: the step needs nothing but bash and flakegate).
link=
re='^  "link": "([^"]*)",?$'
while IFS= read -r line; do
	if [[ $line =~ $re ]]; then
		link=${BASH_REMATCH[1]}
		break
	fi
done <"$json"
output verdict "$verdict"
if [ "$status" -eq 1 ]; then output blocks true; else output blocks false; fi
output link "$link"
output json "$json"
if [ "$status" -eq 1 ] && [ "${INPUT_FAIL_ON_BLOCK:-true}" = false ]; then
	exit 0
fi
exit "$status"
