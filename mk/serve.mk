# The local server: the API under /v1/ and the calculator's static
# site on one loopback port.
#
#   make run                     build and start it; it prints the URL
#   make run SERVE_ADDR=127.0.0.1:9090

SERVE_ADDR ?= 127.0.0.1:8080

.PHONY: run serve-bin

## run: build the local server and the site (or a placeholder page), then serve them
run: serve-bin site-ready
	./bin/flakegate-serve -addr $(SERVE_ADDR) -site $(SITE_DIR)

serve-bin:
	$(GO) build -trimpath -o bin/flakegate-serve ./cmd/flakegate-serve
