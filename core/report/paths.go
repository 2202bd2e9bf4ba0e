package report

import "strings"

// Reports that name test files by absolute path (Jest's and Vitest's JSON)
// would give a test another name in every checkout. commonDir and relPath
// turn such paths into paths relative to the folder all of one report's
// files share, written with forward slashes.

// slashPath is p with Windows separators turned into forward slashes.
func slashPath(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// commonDir is the deepest folder that holds every one of paths (empty ones
// left out), with forward slashes and no trailing slash; "" when they share
// none. One path's folder is its own directory.
func commonDir(paths []string) string {
	var root []string
	first := true
	for _, p := range paths {
		if p == "" {
			continue
		}
		dir := strings.Split(slashPath(p), "/")
		dir = dir[:len(dir)-1]
		if first {
			root, first = dir, false
			continue
		}
		n := 0
		for n < len(root) && n < len(dir) && root[n] == dir[n] {
			n++
		}
		root = root[:n]
	}
	return strings.Join(root, "/")
}

// relPath is p relative to root (from commonDir), with forward slashes.
func relPath(p, root string) string {
	p = slashPath(p)
	if root == "" {
		return strings.TrimPrefix(p, "/")
	}
	return strings.TrimPrefix(p, root+"/")
}
