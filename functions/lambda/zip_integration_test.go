//go:build integration

package main

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/functions/lambda/lambdatest"
)

// zipMachines are Lambda's architectures, as the archives are named, and
// the machine each one's bootstrap is built for.
var zipMachines = map[string]elf.Machine{"arm64": elf.EM_AARCH64, "x86_64": elf.EM_X86_64}

// TestLambdaZip runs `make lambda-zip` as the README gives it, into a
// temporary directory, and checks what a provided.al2023 function takes:
// each archive holds one file, bootstrap, executable, a static Linux ELF
// binary for its architecture, and is under Lambda's 50 MB for a direct
// upload. It then unzips this machine's archive and runs the bootstrap
// from it under the runtime emulator: a request is answered as the
// handler answers it in process.
func TestLambdaZip(t *testing.T) {
	out := t.TempDir()
	cmd := exec.Command("make", "--no-print-directory", "lambda-zip", "LAMBDA_OUT="+out)
	cmd.Dir = root
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make lambda-zip: %v\n%s", err, log)
	}
	host := map[string]string{"arm64": "arm64", "amd64": "x86_64"}[runtime.GOARCH]
	var hostBootstrap string
	for arch, machine := range zipMachines {
		path := filepath.Join(out, "flakegate-lambda-"+arch+".zip")
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		const directUpload = 50_000_000
		if st.Size() > directUpload {
			t.Errorf("%s: %d bytes, over Lambda's %d for a direct upload", path, st.Size(), directUpload)
		}
		z, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(z.File) != 1 || z.File[0].Name != "bootstrap" {
			var names []string
			for _, f := range z.File {
				names = append(names, f.Name)
			}
			t.Fatalf("%s holds %q, want only bootstrap", path, names)
		}
		f := z.File[0]
		if m := f.Mode(); !m.IsRegular() || m.Perm()&0o111 != 0o111 {
			t.Errorf("%s: bootstrap's mode is %v, want a regular file executable by all", path, m)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		bin, err := io.ReadAll(rc)
		rc.Close()
		z.Close()
		if err != nil {
			t.Fatal(err)
		}
		ef, err := elf.NewFile(bytes.NewReader(bin))
		if err != nil {
			t.Fatalf("%s: bootstrap is not ELF: %v", path, err)
		}
		if ef.Machine != machine || ef.Class != elf.ELFCLASS64 || ef.Type != elf.ET_EXEC {
			t.Errorf("%s: bootstrap is %v %v %v, want %v ELFCLASS64 ET_EXEC", path, ef.Machine, ef.Class, ef.Type, machine)
		}
		for _, p := range ef.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s: bootstrap asks for a dynamic loader; it must be static (CGO_ENABLED=0)", path)
			}
		}
		t.Logf("%s: %d bytes zipped, bootstrap %d bytes (%v)", filepath.Base(path), st.Size(), len(bin), ef.Machine)
		if arch == host {
			dir := t.TempDir()
			hostBootstrap = filepath.Join(dir, "bootstrap")
			if err := os.WriteFile(hostBootstrap, bin, f.Mode().Perm()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if hostBootstrap == "" {
		t.Fatalf("no archive for this machine (%s)", runtime.GOARCH)
	}

	e, err := lambdatest.StartBinary(root, hostBootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	h := api.New(api.LambdaOptions())
	for _, c := range []apitest.Case{
		{Name: "health", Method: "GET", URL: "/v1/health", Status: 200},
		{Name: "budget", Method: "GET", URL: "/v1/budget?target=0.95&cost=8&cap=3&observe=1/120&rates=0.05,0.02", Status: 200},
	} {
		want, err := apitest.InProcess(h, c, corpusDir, api.LambdaMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		got := invoke(t, c.Name, e.URL, event(t, c, false))
		if d := apitest.Diff(want, got); d != "" || got.Status != c.Status {
			t.Errorf("%s from the zip's bootstrap: %d %s\nemulator log:\n%s", c.Name, got.Status, d, e.Logs.String())
		}
	}
}
