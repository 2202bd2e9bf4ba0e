#!/usr/bin/env bash
# go-only.sh COMMAND [ARG...]: run COMMAND (`go test -count=1 ./...` in
# `make gotest`) the way a machine with nothing but Go would, to prove that
# the tests without the integration tag need nothing else:
#
#   - PATH is a fresh folder of links to go, gofmt, sh, bash, git and the
#     coreutils, so chromium, node, npm, wrangler, wrk, aws-lambda-rie, a C
#     compiler and anything else are not found;
#   - the module is a copy of the files git tracks (and the untracked ones it
#     does not ignore) in a temporary folder outside this one, so a test that
#     reads a build output (bin/, dist/, node_modules/) or reaches outside the
#     repository by a relative path fails;
#   - HOME is an empty folder. Go's own settings and caches (GOENV, GOPATH,
#     GOMODCACHE, GOCACHE) are kept, as a machine with Go has them.
#
# The temporary folder is removed on exit; the status is COMMAND's.
set -euo pipefail

if [ $# -eq 0 ]; then
	echo "usage: $0 COMMAND [ARG...]" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
go=${GO:-go}
goroot=$("$go" env GOROOT)
for v in GOENV GOPATH GOMODCACHE GOCACHE; do
	export "$v=$("$go" env "$v")"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flakegate-go-only.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/home" "$tmp/src"

ln -s "$goroot/bin/go" "$goroot/bin/gofmt" "$tmp/bin/"
# The coreutils a script or a test may call, plus the shells and git.
for c in sh bash git '[' basename cat chmod cp cut date dirname echo env expr false head id ln ls mkdir \
	mktemp mv nproc od printf pwd readlink realpath rm rmdir seq sleep sort stat tail tee test touch tr \
	true uname uniq wc; do
	if p=$(type -P "$c"); then
		ln -s "$p" "$tmp/bin/$c"
	fi
done

# The files git knows, as they are in the working tree (a file deleted but
# not yet committed is left out).
cd "$root"
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		[ -f "$f" ] && printf '%s\0' "$f"
	done |
	tar --null -T - -cf - | tar -xf - -C "$tmp/src"

cd "$tmp/src"
status=0
env PATH="$tmp/bin" HOME="$tmp/home" "$@" || status=$?
exit "$status"
