# Build, code generation and test entry points for the inventory service.
# Run `make help` for the list of targets.

GO ?= go
BIN := bin/inventory
# Extra flags for `go test`, e.g. `make test TESTFLAGS='-v -run TestFoo'`.
TESTFLAGS ?=
# The server package takes about 20 minutes on 2 idle cores; on a loaded
# machine it passed 30, so the bound leaves room for load (it is there to
# end a hang, not to time the suite).
TEST_TIMEOUT ?= 50m
# Parallel tests per package (go test -parallel, default GOMAXPROCS): the
# per-model suites wait on the database more than they compute.
TEST_PARALLEL ?= 12
# Packages for `make test-update`.
UPDATE_PKGS ?= ./...
GOFMT ?= $(shell $(GO) env GOROOT)/bin/gofmt
# Dev and test builds compile the root ent package (~100k generated lines,
# rebuilt after every schema change) without inlining and without DWARF:
# about half the CPU and memory of that compile, for no runtime cost we could
# measure (ent/doc.go, Compile budget); only a debugger loses ent's generated
# code. Release builds (`make release`, `make bench`) keep both: `make
# release` runs the build with DEV_GCFLAGS empty.
ENT_PKG := github.com/inventory/inventory/ent
ENT_GCFLAGS ?= -l -dwarf=false
DEV_GCFLAGS ?= '-gcflags=$(ENT_PKG)=$(ENT_GCFLAGS)'

# go-sqlite3 compiles SQLite's FTS5 in only under this build tag: the
# trigram indexes that serve q and the ic/isw/iew/ie lookups on SQLite
# (filters/trigram.go). A build without it gives the same results by
# scanning (and logs so at start). Every go command below gets it.
ifeq ($(findstring sqlite_fts5,$(GOFLAGS)),)
export GOFLAGS := -tags=sqlite_fts5 $(GOFLAGS)
endif

.DEFAULT_GOAL := help
.PHONY: help build release run generate generate-check scale-check lint test test-update bench conformance clean

help: ## Show this help
	@echo 'Usage: make <target>'
	@echo
	@awk 'BEGIN { FS = ":[^#]*## " } /^[a-zA-Z0-9_.-]+:[^#]*## / { printf "  %-16s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

build: ## Build the inventory binary into bin/inventory (dev flags: root ent package not inlined)
	$(GO) build $(DEV_GCFLAGS) -ldflags "-X main.release=$(RELEASE)" -o $(BIN) ./cmd/inventory

# RELEASE is the service's version reported by status, metrics and
# `inventory version`: the closest tag, or the commit when there is none.
RELEASE ?= $(shell git describe --tags --always --dirty 2>/dev/null)

release: ## Build bin/inventory for release (full inlining everywhere)
	$(MAKE) build DEV_GCFLAGS=

run: build ## Build, ensure the admin superuser exists, and serve (LISTEN=host:port to choose the address)
	./$(BIN) createsuperuser --username admin --password admin --token 0123456789abcdef0123456789abcdef01234567 --if-not-exists
	./$(BIN) serve $(if $(LISTEN),--listen $(LISTEN))

generate: ## Regenerate the ent code (go run ./ent/entc.go)
	$(GO) run ./ent/entc.go

generate-check: generate ## Regenerate ent code and fail if ent/ differs from git
	@git rev-parse --is-inside-work-tree >/dev/null || { echo 'generate-check: not inside a git work tree' >&2; exit 1; }
	@git diff --exit-code --stat -- ent/ >&2 || { \
		git diff -- ent/ | head -n 200 >&2; \
		echo 'generate-check: generated code in ent/ is out of date; run `make generate` and commit the result' >&2; \
		exit 1; }
	@untracked="$$(git status --porcelain --untracked-files=all -- ent/ | grep '^??' || true)"; \
	if [ -n "$$untracked" ]; then \
		echo "$$untracked" >&2; \
		echo 'generate-check: `make generate` created untracked files under ent/; commit them' >&2; \
		exit 1; \
	fi
	@echo 'generate-check: ent/ is up to date'

scale-check: ## Compile a temporary copy with ~100 synthetic models added; fail over the compile budget
	GO=$(GO) SCALE_ENT_GCFLAGS='$(ENT_GCFLAGS)' .ci/scale-check.sh

lint: ## Check formatting (gofmt -l) and run go vet
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		files="$$(git ls-files --cached --others --exclude-standard -- '*.go' ':!:testdata/**' ':!:**/testdata/**')"; \
	else \
		files="$$(find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*')"; \
	fi; \
	unformatted="$$(if [ -n "$$files" ]; then $(GOFMT) -l $$files; fi)" || exit 1; \
	if [ -n "$$unformatted" ]; then \
		echo 'lint: these files need gofmt -w:' >&2; echo "$$unformatted" >&2; exit 1; \
	fi
	$(GO) vet ./...

test: ## Run all tests (SQLite; PostgreSQL too when INVENTORY_TEST_POSTGRES is set)
	@if [ -n "$$INVENTORY_TEST_POSTGRES" ]; then \
		echo "PostgreSQL: $$INVENTORY_TEST_POSTGRES"; \
	elif [ "$$CI" = true ] || [ "$$CI" = 1 ]; then \
		echo 'PostgreSQL: INVENTORY_TEST_POSTGRES is empty but CI=true; refusing to skip the PostgreSQL tests' >&2; \
		echo '  start one with: eval "$$(.ci/pg.sh)"' >&2; \
		exit 1; \
	else \
		echo 'PostgreSQL: INVENTORY_TEST_POSTGRES not set; PostgreSQL tests are skipped (start one with: eval "$$(.ci/pg.sh)")'; \
	fi
	$(GO) test $(DEV_GCFLAGS) -count=1 -parallel $(TEST_PARALLEL) -timeout $(TEST_TIMEOUT) $(TESTFLAGS) ./...

test-update: ## Run the tests rewriting golden files and query-count baselines (testdata/)
	INVENTORY_UPDATE_GOLDEN=1 $(GO) test $(DEV_GCFLAGS) -count=1 -parallel $(TEST_PARALLEL) -timeout $(TEST_TIMEOUT) $(TESTFLAGS) $(UPDATE_PKGS)

bench: release ## Run the benchmark against SQLite, then PostgreSQL if INVENTORY_TEST_POSTGRES is set (and list/detail reads spread over a hot standby if INVENTORY_TEST_POSTGRES_STANDBY is: .ci/pg.sh standby)
	./$(BIN) bench --database sqlite
	@if [ -n "$$INVENTORY_TEST_POSTGRES" ]; then \
		echo "./$(BIN) bench --database \"\$$INVENTORY_TEST_POSTGRES\""; \
		./$(BIN) bench --database "$$INVENTORY_TEST_POSTGRES"; \
	else \
		echo 'bench: INVENTORY_TEST_POSTGRES not set; skipping the PostgreSQL benchmark'; \
	fi
	@if [ -n "$$INVENTORY_TEST_POSTGRES" ] && [ -n "$$INVENTORY_TEST_POSTGRES_STANDBY" ]; then \
		echo "./$(BIN) bench --database \"\$$INVENTORY_TEST_POSTGRES\" --read-database \"\$$INVENTORY_TEST_POSTGRES_STANDBY\" --scenarios 'detail GET,list '"; \
		./$(BIN) bench --database "$$INVENTORY_TEST_POSTGRES" --read-database "$$INVENTORY_TEST_POSTGRES_STANDBY" --scenarios 'detail GET,list '; \
	else \
		echo 'bench: INVENTORY_TEST_POSTGRES_STANDBY not set (eval "$$(.ci/pg.sh standby)"); skipping reads spread over a standby'; \
	fi

conformance: ## Fuzz a live server against /api/schema/ with schemathesis (pinned; SQLite, and PostgreSQL when INVENTORY_TEST_POSTGRES is set)
	.ci/conformance.sh

clean: ## Remove build output and local data (bin/, data/)
	rm -rf bin data
