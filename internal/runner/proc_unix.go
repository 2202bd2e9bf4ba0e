//go:build unix

package runner

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// newGroup makes the command the leader of a process group of its own, so
// that a stop reaches every process it started (go test's test binaries,
// a shell's children) and a terminal's Ctrl-C reaches flakegate alone.
func newGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd.SysProcAttr)
}

// signalGroup sends sig to the process group led by the command.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, sig)
	}
}

// terminate asks the group to stop (SIGTERM) and kill makes it stop.
func terminate(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGTERM) }
func kill(cmd *exec.Cmd)      { signalGroup(cmd, syscall.SIGKILL) }

// lockFile takes an exclusive lock on the ledger for the life of the
// process, so that two starts never append to one ledger at once.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("another flakegate run is appending to this ledger")
	}
	if err != nil {
		return fmt.Errorf("locking the ledger: %w", err)
	}
	return nil
}
