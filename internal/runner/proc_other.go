//go:build !unix

package runner

import (
	"os"
	"os/exec"
)

// newGroup does nothing where there are no process groups.
func newGroup(*exec.Cmd) {}

// terminate and kill stop the command itself.
func terminate(cmd *exec.Cmd) { kill(cmd) }
func kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// lockFile does nothing where flock is not available.
func lockFile(*os.File) error { return nil }
