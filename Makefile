# Canvass: `make run` serves the demo tenants on http://localhost:3000; `make test` runs every test.
GO      ?= go
NPM     ?= npm
# Race detection needs cgo; use it whenever a C compiler is present (the SQLite driver is pure Go either way).
RACE    := $(shell command -v gcc >/dev/null 2>&1 && echo -race)
TESTENV := $(if $(RACE),CGO_ENABLED=1,)

.PHONY: run build islands generate check-generated test test-go test-islands bench profile fuzz clean

node_modules/.installed: package.json package-lock.json
	$(NPM) install --no-audit --no-fund
	@touch $@

# Island bundles (not committed) go to static/dist, which the binary embeds.
islands: node_modules/.installed
	rm -rf static/dist/assets static/dist/.vite
	$(NPM) run build

generate:
	$(GO) tool templ generate -path views

# Fails when a committed *_templ.go differs from what `templ generate` writes.
check-generated:
	@rm -rf .tmp/generated && mkdir -p .tmp/generated && cp -r views .tmp/generated/views
	@$(GO) tool templ generate -path .tmp/generated/views >/dev/null 2>&1
	@diff -r views .tmp/generated/views || (echo "generated templ code is stale: run 'make generate' and commit" && exit 1)
	@rm -rf .tmp/generated

build: islands
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/canvass ./app

run: build
	CANVASS_ENV=development CANVASS_DEMO=1 ./bin/canvass serve

test: islands check-generated test-islands test-go

test-islands: node_modules/.installed
	$(NPM) test

# The app package holds every HTTP, browser and accessibility test of both databases (the
# member app's and the operator console's), the three-process test and the sweeps: about an
# hour under the race detector on two cores, so the limit per package is generous.
test-go:
	$(GO) vet ./...
	$(TESTENV) $(GO) test $(RACE) -count=1 -timeout 150m ./...

# Benchmarks, the page-weight budgets (bytes on the wire as Chromium receives them, one line
# per page), load runs against the real server (64 connections):
# TestLoadRun, TestFeedLoadRun (the feed of a panel with 500 campaigns and 10,000
# participants), TestTransactionsLoadRun (a member with 10,000 ledger entries) and
# TestSurveyLoadRun (64 members answering a 40-question survey at once), on SQLite
# and, when CANVASS_TEST_POSTGRES_URL is set, on PostgreSQL too; then Lighthouse 13
# (mobile defaults, /usr/bin/chromium) on login, feed, survey box and transactions of both
# tenants (TestLighthouseRun, some 20-40 s a page).
bench: islands
	@mkdir -p .tmp
	CANVASS_BENCH=1 $(GO) test -count=1 -timeout 30m -run '^TestCeilingRun$$' -v ./app/ > .tmp/ceiling.log 2>&1; status=$$?; \
		grep -vE '^(=== |--- |    --- |PASS$$)' .tmp/ceiling.log; exit $$status
	$(GO) test -count=1 -run 'TestInChromiumPagesStayWithinTheirWeightBudgetsOnTheWire|TestLoadRun' -v ./app/ > .tmp/weight.log 2>&1; status=$$?; \
		grep -E 'on the wire|heaviest answer control|req/s|^(ok|FAIL|---)|^    --- FAIL' .tmp/weight.log; \
		if [ $$status -ne 0 ]; then cat .tmp/weight.log; fi; exit $$status
	@if [ -z "$$CANVASS_TEST_POSTGRES_URL" ]; then echo "PostgreSQL skipped: set CANVASS_TEST_POSTGRES_URL to load-test it too (README, Benchmarks)"; fi
	CANVASS_LOAD=1 $(GO) test -count=1 -timeout 30m -run 'TestLoadRun|TestFeedLoadRun|TestTransactionsLoadRun|TestSurveyLoadRun' -v ./app/ > .tmp/load.log 2>&1; status=$$?; \
		grep -E 'req/s|seeded|^(ok|FAIL)' .tmp/load.log; \
		if [ $$status -ne 0 ]; then cat .tmp/load.log; fi; exit $$status
	CANVASS_LIGHTHOUSE=1 $(GO) test -count=1 -timeout 30m -run '^TestLighthouseRun$$' -v ./app/ > .tmp/lighthouse.log 2>&1; status=$$?; \
		grep -E 'Lighthouse |^(ok|FAIL)' .tmp/lighthouse.log; \
		if [ $$status -ne 0 ]; then cat .tmp/lighthouse.log; fi; exit $$status
	$(GO) test -run '^$$' -bench . -benchmem ./...

# CPU and allocation profiles of one target of the ceiling run under load (on PostgreSQL when
# CANVASS_TEST_POSTGRES_URL is set, else SQLite), with the top functions printed; the
# profiles stay in .tmp/profile for `go tool pprof`. TARGET is one of: ceiling login balance
# feed-api transactions feed survey go answer.
TARGET ?= feed
profile: islands
	@mkdir -p .tmp/profile
	CANVASS_BENCH=1 CANVASS_PROFILE_TARGET=$(TARGET) CANVASS_PROFILE_DIR=$(CURDIR)/.tmp/profile CANVASS_BENCH_SECONDS=10 \
		$(GO) test -count=1 -timeout 30m -run '^TestCeilingRun$$' -v ./app/ > .tmp/profile.log 2>&1; status=$$?; \
		grep -vE '^(=== |--- |    --- |PASS$$)' .tmp/profile.log; exit $$status

# Every Go fuzzer (func FuzzXxx in a *_test.go, found anew each run) for FUZZTIME each, one
# at a time; the first crash stops the run (the failing input lands in the package's
# testdata/fuzz/FuzzXxx/, where `make test` replays it). `make test` runs only the seeds.
FUZZTIME ?= 30s
fuzz:
	@for file in $$(grep -rl --include='*_test.go' --exclude-dir=node_modules --exclude-dir=.tmp --exclude-dir=testdata '^func Fuzz' . | sort); do \
		pkg=./$$(dirname $${file#./}); \
		for name in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
			echo "== $$pkg $$name ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

clean:
	rm -rf bin static/dist/assets static/dist/.vite static/dist/precompressed .tmp
