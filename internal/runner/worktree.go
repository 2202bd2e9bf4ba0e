package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// git runs git in dir and returns its trimmed standard output; a failure
// carries git's own message.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = startErr(err)
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return strings.TrimSpace(out.String()), nil
}

// resolveRef returns the commit ref names in dir's repository.
func resolveRef(ctx context.Context, dir, ref string) (string, error) {
	c, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil || c == "" {
		return "", fmt.Errorf("%q is not a commit, branch or tag of the repository at %s", ref, dir)
	}
	return c, nil
}

// addWorktree checks commit out, detached, in a new worktree under parent
// ("" is the system's temporary directory) of dir's repository. It returns
// the directory in the worktree that corresponds to dir, and a function
// that removes the worktree.
func addWorktree(ctx context.Context, dir, commit, parent, arm string) (string, func(), error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", nil, err
	}
	prefix, err := git(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", nil, err
	}
	tmp, err := os.MkdirTemp(parent, "flakegate-"+arm+"-")
	if err != nil {
		return "", nil, err
	}
	wt := filepath.Join(tmp, "worktree")
	if _, err := git(ctx, top, "worktree", "add", "--detach", "--quiet", wt, commit); err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	remove := func() {
		git(context.Background(), top, "worktree", "remove", "--force", wt)
		os.RemoveAll(tmp)
		git(context.Background(), top, "worktree", "prune")
	}
	return filepath.Join(wt, filepath.FromSlash(prefix)), remove, nil
}
