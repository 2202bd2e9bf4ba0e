package webtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// LocalServer is cmd/flakegate-serve, the local server, running on a free
// port of 127.0.0.1 with the site folder dir: the server that renders a
// calculator link's answer into the page it sends (package render), as
// the browser tests of a link's first paint and the benchmarks need.
type LocalServer struct {
	URL  string // http://127.0.0.1:PORT, without a trailing slash
	cmd  *exec.Cmd
	done chan error
}

// StartLocalServer builds cmd/flakegate-serve from the module at root into
// bin (a folder) and starts it on dir. Stop it with Stop.
func StartLocalServer(root, bin, dir string) (*LocalServer, error) {
	goBin := "go"
	if g := os.Getenv("GO"); g != "" {
		goBin = g
	}
	exe := filepath.Join(bin, "flakegate-serve")
	build := exec.Command(goBin, "build", "-o", exe, "./cmd/flakegate-serve")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building flakegate-serve: %v\n%s", err, b)
	}
	cmd := exec.Command(exe, "-addr", "127.0.0.1:0", "-site", dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &LocalServer{cmd: cmd, done: make(chan error, 1)}
	// It says "flakegate: serving http://ADDR/ (…)" once it listens.
	first := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case first <- sc.Text():
			default:
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case line := <-first:
		_, rest, ok := strings.Cut(line, "serving ")
		u, _, _ := strings.Cut(rest, " ")
		if !ok || !strings.HasPrefix(u, "http://") {
			s.Stop()
			return nil, fmt.Errorf("flakegate-serve said %q, not where it serves", line)
		}
		s.URL = strings.TrimSuffix(u, "/")
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("flakegate-serve stopped: %v", err)
	case <-time.After(30 * time.Second):
		s.Stop()
		return nil, errors.New("flakegate-serve did not start in 30 s")
	}
}

// Stop ends the server (an interrupt, as a person's Ctrl-C) and waits for
// it.
func (s *LocalServer) Stop() {
	if s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(os.Interrupt)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case <-s.done:
	case <-ctx.Done():
		s.cmd.Process.Kill()
		<-s.done
	}
}
