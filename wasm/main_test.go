package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The browser build must not link the generator's server code nor the test
// tools: the generator (GenerateStaticWebsite, httptest) is ./site, another program, and
// go-app's Handler (net/http, crypto/tls) and regexp routes stay out of
// third_party/go-app's wasm build; nor go-app's uuid and encryption, which
// brought Go's cryptography (crypto/rand, AES-GCM, MD5, SHA-1) for ids and a
// feature the calculator does not use (third_party/go-app/README.md); nor
// core/quarantine's run identities (crypto/sha256), which the page never
// computes: left out by the build tag calculator, as mk/web.mk builds it.
func TestWasmBuildHasNoServerCode(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-tags", "calculator", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"net/http", "net/http/httptest", "crypto/tls", "crypto/x509", "regexp", "mime/multipart",
		"github.com/google/uuid", "crypto/rand", "crypto/aes", "crypto/md5", "crypto/sha1", "crypto/sha256",
		"github.com/chromedp/chromedp", "github.com/flakegate/flakegate/wasm/page/webtest"} {
		for _, line := range strings.Split(string(out), "\n") {
			if line == pkg {
				t.Errorf("app.wasm links %s", pkg)
			}
		}
	}
}
