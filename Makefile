# Canvass: `make run` serves the demo tenants on http://localhost:3000; `make test` runs every test.
GO      ?= go
NPM     ?= npm
# Race detection needs cgo; use it whenever a C compiler is present (the SQLite driver is pure Go either way).
# The SQLite engine (modernc.org/sqlite, C translated to Go, pointer arithmetic throughout) is
# built without the detector's instrumentation and pointer checks: it is not our code, runs
# one statement per connection at a time, and instrumented it took a third of the race runs'
# CPU (parsing SQL under checkptr). Our code and every other library stay instrumented; the
# race runtime still sees the locks and channels around every call into it.
RACE    := $(shell command -v gcc >/dev/null 2>&1 && echo "-race -gcflags=modernc.org/...=-race=false\ -d=checkptr=0")
TESTENV := $(if $(RACE),CGO_ENABLED=1,)

# Tests run side by side (t.Parallel; app/parallel_test.go lists the few that run alone): at
# most PARALLEL at once within a package, two packages at once (go test's -p, the cores). A
# test mostly waits (for a database, a page, a mail), so more tests than cores keep both busy;
# measured on the non-browser tests of both dialects, -parallel 4 and 6 took alike (96-101 s and
# 99-114 s), 10 longer (106-109 s); 6 keeps both cores busy 99% of a whole run and lets the
# nine accessibility walks all start at once (docs/contributing.md, Tests).
PARALLEL ?= 6

# The race detector where races can live. Every package but app runs under -race: each is
# small, and most have goroutines of their own (job workers, caches, pools, fakes). In the app
# package, -race runs the tests whose names say they do things at once, move money or run jobs
# and processes (RACE_APP_TESTS: requests sent together, AtOnce, Concurrently, ManyTimes, Twice;
# money and its once-only rules, Redeem, Ledger, Paid, Credit, Balance, Draw, Once; Job, Queue,
# Process, Backup), but not the browser tests among them (TestInChromium...). Everything else
# in app, page after page and request after request, and every browser test, runs without it:
# the code it reaches runs under -race in the race set and in the modules' own tests, and
# -race made it several times slower (docs/contributing.md, Tests).
RACE_APP_TESTS := AtOnce|Concurrent|ManyTimes|Twice|Once|Redeem|Redemption|Ledger|Paid|Pays|Credit|Balance|Money|Draw|Job|Queue|Process|Backup
# The app's race set as an exact list of names (go test -list), for -run and -skip.
APP_RACE_SET = $(GO) test -list . ./app | grep '^Test' | grep -E '$(RACE_APP_TESTS)' | grep -v '^TestInChromium' | paste -sd'|' -
# The accessibility walks are the longest tests by far (minutes each tenant and language): they
# start first, in a go test of their own beside the others, so none is left to run last.
APP_WALKS := ^TestInChromiumAxeFindsNoWCAGViolationOnAny(Page|ConsolePage)InAnyLanguageOrWidth$$
# Test databases and Chromium's profile in memory where there is room: SQLite's writes and
# Chromium's files then never wait for the disk (a test's files are thrown away at its end).
TEST_TMPDIR := $(shell d=/dev/shm; [ -d $$d ] && [ "$$(df -Pk $$d | awk 'NR==2 {print $$4}')" -gt 4000000 ] 2>/dev/null && mkdir -p $$d/canvass-test && echo $$d/canvass-test || echo $${TMPDIR:-/tmp})
GOTEST   = $(GO) tool gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg
# Said at the end of a test run without a PostgreSQL test database: its half of the Go tests
# did not run (CI sets CANVASS_REQUIRE_POSTGRES=1, so there a missing one fails instead).
PG_NOTICE = if [ -z "$$CANVASS_TEST_POSTGRES_URL" ]; then echo; echo "NOTE: PostgreSQL skipped: CANVASS_TEST_POSTGRES_URL is not set, so the Go tests ran on SQLite only (docs/contributing.md, Tests on PostgreSQL)."; fi
# What CI and `make test` print at the end: each package's wall time and the slowest tests.
REPORT   = $(GO) run ./.ci/testreport

.PHONY: run dev build release go-deps islands generate check-generated check check-layout screenshots test test-go test-islands bench profile fuzz clean

node_modules/.installed: package.json package-lock.json
	$(NPM) install --no-audit --no-fund
	@touch $@

# Island bundles (not committed) go to static/dist, which the binary embeds; built again when
# an island, the build's configuration or the packages change.
# The hand-written CSS and images count too: their precompressed variants are made in the same
# step (islands/precompress.mjs), and a variant older than its file is not served.
ISLAND_SOURCES := $(shell find islands static/css static/img -type f -not -name '*.test.ts' -not -name '*.test.tsx' 2>/dev/null) \
	vite.config.ts vite.console.config.ts tsconfig.json package.json package-lock.json
islands: static/dist/.vite/manifest.json
static/dist/.vite/manifest.json: node_modules/.installed $(ISLAND_SOURCES)
	rm -rf static/dist/assets static/dist/.vite static/dist/precompressed
	$(NPM) run build

generate:
	$(GO) tool templ generate -path views

# Fails when a committed *_templ.go differs from what `templ generate` writes.
check-generated:
	@rm -rf .tmp/generated && mkdir -p .tmp/generated && cp -r views .tmp/generated/views
	@$(GO) tool templ generate -path .tmp/generated/views >/dev/null 2>&1
	@diff -r views .tmp/generated/views || (echo "generated templ code is stale: run 'make generate' and commit" && exit 1)
	@rm -rf .tmp/generated

# The Go dependencies compile while npm installs and Vite builds (neither needs the other; on a
# fresh clone both take minutes), then the binary, which embeds what Vite built. Built with the
# flags the tests use, so `make run` after `make check` or `make test` compiles nothing again
# (the release build, with -trimpath and without cgo, is the Containerfile's).
build:
	@$(MAKE) --no-print-directory -j2 islands go-deps
	$(GO) build -o bin/canvass ./app

# The binary to install on a server: static (no cgo), without build paths, stripped.
release: islands
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags="-s -w" -o bin/canvass ./app

# Every module the binary needs but ours, compiled into the build cache.
go-deps:
	@$(GO) build $$($(GO) list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./app | grep -v '^github.com/canvass/canvass')

run: build
	CANVASS_ENV=development CANVASS_DEMO=1 ./bin/canvass serve

# The designers' command (docs/contributing.md, Designing): the demo with live reload through
# templ's proxy on http://localhost:7331 (the gallery: /_dev/gallery). A saved .templ reloads the
# open tabs at once (templ's watch mode reads its text from _templ.txt files, no rebuild); a .go
# file rebuilds and restarts the server; a stylesheet, image or island is served from disk
# (CANVASS_STATIC_DIR) and reloads the tabs once saved or re-bundled (islands/dev.mjs).
# Stop it with Ctrl-C: templ then writes the production *_templ.go files back.
DEV_PORT ?= 3000
dev: islands
	@trap 'kill 0' INT TERM EXIT; \
	node islands/dev.mjs & \
	CANVASS_ENV=development CANVASS_DEMO=1 CANVASS_STATIC_DIR=static CANVASS_ADDR=:$(DEV_PORT) \
	$(GO) tool templ generate --watch --proxy=http://localhost:$(DEV_PORT) --proxyport=7331 --open-browser=false \
		--watch-pattern='(.+\.go$$)|(.+\.templ$$)|(.+_templ\.txt$$)|(locales/.+\.yaml$$)' \
		--ignore-pattern='(_test\.go$$)|(/static/dist/)|(/node_modules/)' \
		--cmd='$(GO) run ./app serve'

# Every test, as CI runs it: 12 to 18 minutes on a 2-core machine of this kind, more on a slower one (docs/contributing.md, Tests).
test: islands check-generated test-islands test-go

test-islands: node_modules/.installed
	$(NPM) test

# The Go tests: the accessibility walks (APP_WALKS) in the background from the start; the
# modules under -race; the app package's race set under -race; the rest of app without it.
# Each run's `go test -json` is kept in .tmp/test, and the report at the end reads all four. A
# failing run fails the target after the report.
test-go:
	$(GO) vet ./...
	@rm -rf .tmp/test && mkdir -p .tmp/test
	@set=$$($(APP_RACE_SET)); [ -n "$$set" ] || { echo "test-go: no app race set (go test -list ./app failed?)"; exit 1; }; \
	status=0; race="^($$set)\$$"; export TMPDIR="$(TEST_TMPDIR)" CANVASS_CONTRACT_LIST=1; \
	$(GOTEST) --jsonfile .tmp/test/app-walks.json -- -count=1 -timeout 45m -parallel $(PARALLEL) \
		-run '$(APP_WALKS)' ./app > .tmp/test/app-walks.log 2>&1 & walks=$$!; \
	$(TESTENV) $(GOTEST) --jsonfile .tmp/test/modules.json -- $(RACE) -count=1 -timeout 30m -parallel $(PARALLEL) \
		$$($(GO) list ./... | grep -v '/app$$') || status=1; \
	$(TESTENV) $(GOTEST) --jsonfile .tmp/test/app-race.json -- $(RACE) -count=1 -timeout 45m -parallel $(PARALLEL) \
		-run "$$race" ./app || status=1; \
	$(GOTEST) --jsonfile .tmp/test/app.json -- -count=1 -timeout 45m -parallel $(PARALLEL) \
		-skip "$$race|$(APP_WALKS)" ./app || status=1; \
	wait $$walks || status=1; cat .tmp/test/app-walks.log; \
	$(REPORT) .tmp/test/modules.json .tmp/test/app-race.json .tmp/test/app.json .tmp/test/app-walks.json; \
	$(PG_NOTICE); exit $$status

# The edit-test loop, in under 3 minutes with a warm build cache: vet, the island tests and
# every Go test on SQLite without the browser (-short) nor the race detector. `make test` stays
# the gate.
check: islands
	$(GO) vet ./...
	$(NPM) test
	@mkdir -p .tmp/test
	env -u CANVASS_TEST_POSTGRES_URL -u CANVASS_REQUIRE_POSTGRES -u CANVASS_REQUIRE_BROWSER TMPDIR="$(TEST_TMPDIR)" \
		$(GOTEST) --jsonfile .tmp/test/check.json -- -short -count=1 -parallel $(PARALLEL) ./... ; status=$$?; \
		$(REPORT) -n 10 .tmp/test/check.json; echo "make check ran the Go tests on SQLite only, without the browser; make test runs everything."; exit $$status

# The layout checks over the gallery's whole cross product: every state in every demo panel,
# layout and language at 320, 360 and 1280 px (`make test` takes languages and layouts in turn;
# docs/designing.md, Layout checks). About five times the pages: some 15 minutes here.
check-layout: islands
	TMPDIR="$(TEST_TMPDIR)" CANVASS_REQUIRE_BROWSER=1 CANVASS_GALLERY_ALL=1 \
		$(GO) test -count=1 -timeout 60m -run '^TestInChromiumEveryGalleryStateFitsEveryWidthInEveryPanelAndLanguage$$' ./app/

# Before and after: every gallery state from the work tree and from BASE (a git revision), a PNG
# of each, and one report of what changed (.tmp/screenshots/report/index.html; docs/designing.md).
BASE ?= main
screenshots: build
	$(GO) run ./.ci/screenshots -base $(BASE)

# Benchmarks, the page-weight budgets (bytes on the wire as Chromium receives them, one line
# per page), load runs against the real server (64 connections):
# TestLoadRun, TestFeedLoadRun (the feed of a panel with 500 campaigns and 10,000
# participants), TestTransactionsLoadRun (a member with 10,000 ledger entries) and
# TestSurveyLoadRun (64 members answering a 40-question survey at once), on SQLite
# and, when CANVASS_TEST_POSTGRES_URL is set, on PostgreSQL too; then Lighthouse 12
# (mobile defaults, /usr/bin/chromium) on login, feed, survey box and transactions of both
# tenants (TestLighthouseRun, some 20-40 s a page).
bench: islands
	@mkdir -p .tmp
	CANVASS_BENCH=1 $(GO) test -count=1 -timeout 30m -run '^TestCeilingRun$$' -v ./app/ > .tmp/ceiling.log 2>&1; status=$$?; \
		grep -vE '^(=== |--- |    --- |PASS$$)' .tmp/ceiling.log; exit $$status
	$(GO) test -count=1 -run 'TestInChromiumPagesStayWithinTheirWeightBudgetsOnTheWire|TestLoadRun' -v ./app/ > .tmp/weight.log 2>&1; status=$$?; \
		grep -E 'on the wire|heaviest answer control|req/s|^(ok|FAIL|---)|^    --- FAIL' .tmp/weight.log; \
		if [ $$status -ne 0 ]; then cat .tmp/weight.log; fi; exit $$status
	@if [ -z "$$CANVASS_TEST_POSTGRES_URL" ]; then echo "PostgreSQL skipped: set CANVASS_TEST_POSTGRES_URL to load-test it too (docs/contributing.md, Benchmarks)"; fi
	CANVASS_LOAD=1 $(GO) test -count=1 -timeout 30m -run 'TestLoadRun|TestFeedLoadRun|TestTransactionsLoadRun|TestSurveyLoadRun' -v ./app/ > .tmp/load.log 2>&1; status=$$?; \
		grep -E 'req/s|seeded|^(ok|FAIL)' .tmp/load.log; \
		if [ $$status -ne 0 ]; then cat .tmp/load.log; fi; exit $$status
	CANVASS_BENCH=1 $(GO) test -count=1 -timeout 30m -run '^TestResultsScaleRun$$' -v ./app/ > .tmp/results-scale.log 2>&1; status=$$?; \
		grep -E 'results at|seeded|^(ok|FAIL)' .tmp/results-scale.log; \
		if [ $$status -ne 0 ]; then cat .tmp/results-scale.log; fi; exit $$status
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
