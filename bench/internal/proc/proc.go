// Package proc holds what the benchmark commands share: running a command
// until it fails or is interrupted, starting the local server, and reading
// a process's memory and CPU time from /proc (Linux) or getrusage.
package proc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Main runs a command's run with its arguments and standard output, under
// a context that ends at an interrupt, and exits 1 with the error, after
// the command's name, when it fails.
func Main(name string, run func(ctx context.Context, args []string, stdout io.Writer) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	Exit(name, err)
}

// Exit exits 1 with err, after the command's name, when err is not nil.
func Exit(name string, err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// Finish ends a command's run: it writes results as indented JSON to the
// file out (unless out is "") and returns the failures, joined by "; ", as
// its error.
func Finish(out string, results any, failed []string) error {
	if out != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "; "))
	}
	return nil
}

// StartServer starts a local server binary (flakegate-serve) on a free
// loopback port serving the site in dir site, and returns its URL, its
// process id and how to stop it. The server's standard error goes to
// stderr when that is not nil.
func StartServer(ctx context.Context, bin, site string, stderr io.Writer) (string, int, func(), error) {
	srv := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0", "-site", site)
	pipe, err := srv.StdoutPipe()
	if err != nil {
		return "", 0, nil, err
	}
	srv.Stderr = stderr
	if err := srv.Start(); err != nil {
		return "", 0, nil, err
	}
	stop := func() {
		srv.Process.Signal(syscall.SIGINT)
		srv.Wait()
	}
	line, err := bufio.NewReader(pipe).ReadString('\n')
	if err != nil {
		stop()
		return "", 0, nil, fmt.Errorf("reading the server's URL: %v", err)
	}
	m := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	if m == nil {
		stop()
		return "", 0, nil, fmt.Errorf("the server printed %q, not its URL", line)
	}
	go io.Copy(io.Discard, pipe)
	return m[1], srv.Process.Pid, stop, nil
}

// Status is a field of /proc/<pid>/status (pid "self" for this process)
// as written there, such as "1234 kB" for VmRSS.
func Status(pid, field string) (string, error) {
	raw, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", errors.New("no " + field)
}

// RSS is the resident memory of process pid, in bytes.
func RSS(pid int) (int64, error) {
	v, err := Status(strconv.Itoa(pid), "VmRSS")
	if err != nil {
		return 0, err
	}
	kb, err := strconv.ParseInt(strings.TrimSuffix(v, " kB"), 10, 64)
	return kb << 10, err
}

// TreeRSS is the resident memory of pid and its children, in bytes.
func TreeRSS(pid int) (int64, error) {
	total, err := RSS(pid)
	if err != nil {
		return 0, err
	}
	raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	for _, f := range strings.Fields(string(raw)) {
		if c, err := strconv.Atoi(f); err == nil {
			if n, err := TreeRSS(c); err == nil {
				total += n
			}
		}
	}
	return total, nil
}

// MiB is a size in bytes in mebibytes.
func MiB(b int64) float64 { return float64(b) / (1 << 20) }

// CPUTicks is the user and system time of process pid, in clock ticks
// (USER_HZ, 100 a second on Linux).
func CPUTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("unreadable /proc stat")
	}
	return u + s, nil
}

// MainThreadCPU is the time the main thread of process pid has run on a
// CPU, in nanoseconds as the scheduler counts them
// (/proc/pid/task/pid/schedstat): finer than CPUTicks' hundredths of a
// second, so that one request's CPU time can be told apart. workerd runs
// its isolates' JavaScript and wasm on its main thread; V8's compiler and
// collector threads beside it are not counted.
func MainThreadCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/schedstat", pid, pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, errors.New("empty schedstat")
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("unreadable schedstat %q", b)
	}
	return time.Duration(ns), nil
}
