# The in-browser calculator: app.wasm, the pre-rendered static site
# in dist/site, the headless-Chromium tools its end-to-end tests need, and the
# web benchmarks.
#
#   make site        build dist/site (what Workers serves as assets)
#   make tools-web   install Debian's chromium if missing (idempotent)
#   make web-bench   measure app.wasm sizes, load times (and go-app's smallest page's), the 1M-row CSV, keystrokes

WEB_OUT      ?= dist/site
WEB_VERSION  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo dev)
# Debian bookworm's security-updated chromium; the version is checked, not
# forced, because Debian replaces security builds in place.
CHROMIUM_PKG ?= chromium
CHROMIUM_MIN ?= 150
# app.wasm's build tag: "calculator" leaves out code the page never runs
# (core/quarantine's run identities, with crypto/sha256). The same tag is in
# wasm/page/webtest (BuildSite), bench/web/floor (Build) and wasm/main_test.go.
WEB_TAGS     := calculator

TEST_DEPS += tools-web site

.PHONY: site tools-web web-bench web-test

# The site is written to $(WEB_OUT).next and then takes $(WEB_OUT)'s place
# in one step, so a server running on $(WEB_OUT) (make run) never sends new
# pages beside old files while brotli works (docs/WEB.md, "Compressed assets").
site:
	@rm -rf $(WEB_OUT).next && mkdir -p $(WEB_OUT).next/web
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -tags $(WEB_TAGS) -o $(WEB_OUT).next/web/app.wasm.tmp ./wasm
	$(GO) run -trimpath ./site -out $(WEB_OUT).next -wasm $(WEB_OUT).next/web/app.wasm.tmp -version $(WEB_VERSION)
	@rm -f $(WEB_OUT).next/web/app.wasm.tmp
	@rm -rf $(WEB_OUT).old && if [ -d $(WEB_OUT) ]; then mv $(WEB_OUT) $(WEB_OUT).old; fi && \
		mv $(WEB_OUT).next $(WEB_OUT) && rm -rf $(WEB_OUT).old
	@ls -l $(WEB_OUT)/web/app.wasm $(WEB_OUT)/web/app.wasm.br

tools-web:
	@if ! command -v chromium >/dev/null 2>&1; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(CHROMIUM_PKG) fonts-dejavu-core; \
	fi
	@v=$$(chromium --version 2>/dev/null | grep -o '[0-9]\+' | head -1); \
	if [ -z "$$v" ] || [ "$$v" -lt $(CHROMIUM_MIN) ]; then echo "chromium $$v is older than $(CHROMIUM_MIN)"; exit 1; fi

# The browser tests alone (they are also part of `make test`).
web-test: tools-web
	$(GO) test -count=1 -tags integration ./wasm/... ./site/...

web-bench: tools-web site
	$(GO) run ./bench/web -site $(WEB_OUT)
