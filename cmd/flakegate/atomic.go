package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writeFileAtomic replaces the file at path with data so that a crash or
// an error at any point leaves either the old file or the new one, never
// part of either: the bytes go to a temporary file in the same directory,
// which is synced to disk and then renamed over path; the directory is
// synced so the rename itself survives a crash. A symbolic link is
// followed, and an existing file keeps its permissions. On an error the
// temporary file is removed and path is untouched.
func writeFileAtomic(path string, data []byte) (err error) {
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: cannot write beside it: %w", path, unwrapPathError(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("%s: writing: %w", path, unwrapPathError(err))
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("%s: syncing to disk: %w", path, unwrapPathError(err))
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("%s: replacing it: %w", path, unwrapPathError(err))
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // best effort: some file systems cannot sync a directory
		d.Close()
	}
	return nil
}
