# The JSON API on its platforms: AWS Lambda and Cloudflare Workers,
# and the tools their tests run them under.
#
#   make lambda           dist/lambda/bootstrap for provided.al2023 on arm64 (SAM's CodeUri)
#   make lambda-local     bin/lambda/bootstrap for this machine, to run under aws-lambda-rie
#   make lambda-zip       dist/lambda/flakegate-lambda-{arm64,x86_64}.zip, the code a provided.al2023 function takes
#   make worker           dist/worker/: app.wasm, the shim (functions/workers/shim) and Go's wasm_exec.js
#   make dev-worker       the Worker and the site under `wrangler dev` on 127.0.0.1:8787
#   make tools-functions  wrangler (npm ci, from package-lock.json), aws-lambda-rie, wrk
#   make bench-api        the 30 s wrk load check of the local server (bench/api)
#   make bench-worker     the Worker under wrangler dev against a plain JavaScript Worker (bench/worker), then bench-worker-cpu
#   make bench-worker-cpu the Worker's CPU time per request of each route and its cold start, per plan (bench/workercpu)
#   make bench-limits     the worst accepted requests on all three platforms (bench/limits)

SITE_DIR       ?= dist/site
WORKER_OUT     ?= dist/worker
LAMBDA_OUT     ?= dist/lambda
TOOLS_BIN      := $(CURDIR)/bin/tools
# WORKER_TAGS builds the Worker with extra tags; the tests use workertest,
# never the deployed build.
WORKER_TAGS    ?=
RIE_VERSION    := v0.0.0-20261030222936-bef5c4ba774d
WRK_PKG        ?= wrk
DEV_WORKER_PORT ?= 8787

TEST_DEPS += tools-functions lambda-local worker

.PHONY: lambda lambda-local lambda-zip worker dev-worker site-ready tools-functions npm-tools rie wrk bench-api bench-worker bench-worker-cpu bench-limits

## lambda: the Lambda binary for deployment (template.yaml points at it)
lambda:
	@mkdir -p $(LAMBDA_OUT)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -trimpath -ldflags="-s -w" -tags lambda.norpc \
		-o $(LAMBDA_OUT)/bootstrap ./functions/lambda
	@ls -l $(LAMBDA_OUT)/bootstrap

# The same binary for this machine's architecture, for the emulator.
lambda-local:
	@mkdir -p bin/lambda
	CGO_ENABLED=0 GOOS=linux GOARCH=$$($(GO) env GOHOSTARCH) $(GO) build -trimpath -ldflags="-s -w" -tags lambda.norpc \
		-o bin/lambda/bootstrap ./functions/lambda

## lambda-zip: the function's code as Lambda takes it: a zip holding bootstrap, one per architecture
# (Lambda's names: arm64, x86_64). The integration test runs this target,
# unzips the archives and starts this machine's under the emulator.
lambda-zip:
	@mkdir -p $(LAMBDA_OUT)
	@set -e; for arch in arm64:arm64 x86_64:amd64; do \
		name=$${arch%%:*}; goarch=$${arch#*:}; dir=$$(mktemp -d); \
		echo "bootstrap linux/$$goarch → $(LAMBDA_OUT)/flakegate-lambda-$$name.zip"; \
		CGO_ENABLED=0 GOOS=linux GOARCH=$$goarch $(GO) build -trimpath -ldflags="-s -w" -tags lambda.norpc \
			-o $$dir/bootstrap ./functions/lambda; \
		$(GO) run ./functions/lambda/lambdazip -o $(LAMBDA_OUT)/flakegate-lambda-$$name.zip $$dir/bootstrap; \
		rm -rf $$dir; \
	done
	@ls -l $(LAMBDA_OUT)/*.zip

## worker: the Worker's wasm and its JavaScript shim, for wrangler
# wasm_exec.js comes from the toolchain that builds app.wasm: the two must match.
# Under `make test`, which builds the site itself (mk/web.mk), the Worker
# waits for that build rather than running a second one.
worker: $(if $(filter test,$(MAKECMDGOALS)),site,site-ready)
	rm -rf $(WORKER_OUT) && mkdir -p $(WORKER_OUT)
	cp functions/workers/shim/worker.mjs "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WORKER_OUT)/
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -tags '$(WORKER_TAGS)' -o $(WORKER_OUT)/app.wasm ./functions/workers
	@ls -l $(WORKER_OUT)/app.wasm

## dev-worker: run the Worker locally under wrangler dev (offline, loopback)
# wrangler.toml's [build] runs `make worker` (and so the site) first.
dev-worker: npm-tools
	WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true CLOUDFLARE_CF_FETCH_ENABLED=false \
		./node_modules/.bin/wrangler dev --ip 127.0.0.1 --port $(DEV_WORKER_PORT) --show-interactive-dev-session=false

# The static site: the web target's build when it works, else (or until it
# exists) a placeholder page, so the API never waits on the calculator.
site-ready:
	@if $(MAKE) -n site >/dev/null 2>&1 && $(MAKE) --no-print-directory site; then :; \
	elif [ -f $(SITE_DIR)/index.html ]; then echo "site: keeping the existing $(SITE_DIR)"; \
	else echo "site: writing a placeholder $(SITE_DIR)/index.html"; mkdir -p $(SITE_DIR); \
		printf '%s\n' '<!doctype html>' '<meta charset="utf-8">' '<title>flakegate</title>' \
		'<h1>flakegate</h1>' '<p>The calculator is not built yet (<code>make site</code>). The API is live: try' \
		'<a href="/v1/budget?target=0.95&amp;cost=8&amp;cap=3&amp;observe=1/120&amp;rates=0.05,0.02">/v1/budget</a>' \
		'or read <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>' > $(SITE_DIR)/index.html; fi

## tools-functions: what the platform tests run: wrangler, aws-lambda-rie, wrk
tools-functions: npm-tools rie wrk

# npm ci from the lock file, redone only when the lock changes.
npm-tools: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

rie: $(TOOLS_BIN)/aws-lambda-rie
$(TOOLS_BIN)/aws-lambda-rie:
	GOBIN=$(TOOLS_BIN) $(GO) install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@$(RIE_VERSION)

wrk:
	@command -v wrk >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(WRK_PKG); }

## bench-api: 30 s of wrk against the local server (GET /v1/budget, POST /v1/aa)
bench-api: wrk serve-bin
	$(GO) run ./bench/api -server ./bin/flakegate-serve -duration 30s

## bench-worker: GET /v1/budget under wrangler dev, the Worker against a plain JavaScript Worker with the same bytes: p50, p99, CPU per request, memory over 10,000 requests
bench-worker: npm-tools
	$(GO) run ./bench/worker -n 2000 -memory 10000
	$(MAKE) --no-print-directory bench-worker-cpu

## bench-worker-cpu: the Worker's CPU time under workerd per request of each route, typical and at the most each plan accepts, and its cold start (module, Go start, first answer), on the Free and the Paid plan
bench-worker-cpu: npm-tools
	$(GO) run ./bench/workercpu -plan free
	$(GO) run ./bench/workercpu -plan paid -starts 1

## bench-limits: the worst request each route accepts, on the local server, Lambda (emulator) and the Worker (wrangler dev): answer size, req/s, p50, p99, peak memory
bench-limits: npm-tools rie
	$(GO) run ./bench/limits -duration 10s -clients 2
