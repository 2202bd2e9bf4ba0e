# Determinism on AWS Lambda's architecture: the tests of every core package,
# including the exact-bits golden of the special functions
# (core/stat/testdata/special), built for linux/arm64 and run under
# qemu-user (go test -exec), one test binary per package, in its own folder.
# arm64 fuses x*y+z into one multiply-add unless the product is rounded with
# float64(...), so this is where a missed conversion shows up (as it did for
# Wilson's bounds).
#
#   make arm64test

QEMU_USER_VERSION := 1:7.2+dfsg-7+deb12u18+b3

.PHONY: tools-qemu arm64test

## tools-qemu: install qemu-user (pinned) for running arm64 test binaries
tools-qemu:
	@if ! command -v qemu-aarch64 >/dev/null 2>&1; then \
		apt-get update && { apt-get install -y --no-install-recommends qemu-user=$(QEMU_USER_VERSION) || \
			{ echo "qemu-user $(QEMU_USER_VERSION) is gone from the mirror; taking the current one"; \
			  apt-get install -y --no-install-recommends qemu-user; }; }; \
	fi

## arm64test: the core packages' tests for linux/arm64 under qemu-aarch64
# -short: the seeded simulations run at full size natively (gotest); here the
# same code runs them at a smaller size.
# ARM64_SKIP: the validation simulations whose checks are rates and
# tolerances (coverage, error rates under repeated use, agreement with a
# reference to 1e-9). A multiply-add fused on arm64 moves a result by an ulp,
# which none of them can see; the exact-bits goldens, the exact-arithmetic
# tests (CleanRuns at its knife edges) and every golden output can, and they
# run here. The skipped ones were half of this suite's time under qemu
# (about 15 times native); they run natively in gotest and in WebAssembly.
ARM64_SKIP := ^(TestTriageSimulation|TestReleaseUnderNightlyUse|TestClusteredAgainstOLS|TestBoardRankCoverage|TestCheckNightlyIsTheRule|TestReleaseAtTarget|TestConfSeqCoverage)$$
arm64test: tools-qemu
	mk/timed.sh arm64test env GOARCH=arm64 CGO_ENABLED=0 $(GO) test -short -count=1 -skip '$(ARM64_SKIP)' -exec qemu-aarch64 ./core/...

TEST_DEPS += tools-qemu
TEST_SUITES += arm64test
