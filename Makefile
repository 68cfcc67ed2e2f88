# ops-data-gateway. Every target installs what it needs; `make run` and `make test` are all a new
# machine needs. Targets run on Node 24: the machine's own, or one scripts/toolchain.sh fetches into
# .toolchain/ (first on PATH here, then the project's node_modules/.bin).
SHELL := /bin/bash
NODE_VERSION := 24.9.0
export PATH := $(CURDIR)/.toolchain/bin:$(CURDIR)/node_modules/.bin:$(PATH)
NPM_STAMP := node_modules/.install-stamp
TOOLCHAIN := .toolchain/.node-$(NODE_VERSION)

.PHONY: install ci generate fixtures check-generated openapi-diff scaffold packages build typecheck lint format release test test-tools run dev sandbox-init bench bench-shared bench-catalogue bench-smoke check-erp erp-diff test-live live-latency live-dashboard live-feed-cost live-watch-mix live-cache-watch clean

install: $(NPM_STAMP)

$(TOOLCHAIN):
	scripts/toolchain.sh $(NODE_VERSION)
	@touch $@

# The toolchain is order-only: fetching it does not make the installed packages stale.
$(NPM_STAMP): package.json package-lock.json | $(TOOLCHAIN)
	npm ci --no-audit --no-fund
	@touch $(NPM_STAMP)

# Compiled afresh: a module moved (a file that became a folder) must not leave its old .js to shadow it.
dist/codegen/.stamp: $(NPM_STAMP) $(shell find codegen packages/gateway/runtime/resource-spec.ts packages/gateway/runtime/route-kinds.ts -name '*.ts') tsconfig.codegen.json
	rm -rf dist/codegen
	tsc -p tsconfig.codegen.json
	@touch $@

## generate: write packages/gateway/generated/ from catalogue/*.yaml
generate: dist/codegen/.stamp
	node dist/codegen/index.js

## fixtures: rewrite the expected generated/ tree of every fixture catalogue of the generator's golden
## tests (tests/fixtures/<case>/catalogue → tests/fixtures/<case>/generated), after changing the
## generator on purpose: review the diff, it is what the change does to the output
fixtures: dist/codegen/.stamp
	@for catalogue in tests/fixtures/*/catalogue; do node dist/codegen/index.js --catalogue "$$catalogue" --out "$${catalogue%/catalogue}/generated" || exit 1; done

## check-generated: fail when a committed build output is not what its sources produce: generated/
## (from the catalogue) and the release bundle (from runtime/ and generated/, `make release`)
GENERATED := packages/gateway/generated/ packages/gateway/release/
check-generated: release
	@git diff --exit-code --stat -- $(GENERATED) && test -z "$$(git status --porcelain -- $(GENERATED))" \
	  || (echo "$(GENERATED) differ from what catalogue/ and runtime/ produce: run 'make release' (it generates first) and commit them" >&2; exit 1)

## openapi-diff: the breaking-change gate: the OpenAPI document committed at BASE (a git ref; default
## HEAD~1) against the one the catalogue generates now, as a changelog classed breaking or additive.
## Exit 1 on a breaking change without a major bump in catalogue/api.yaml or an acknowledgement added
## to catalogue/acknowledged-changes.yaml since BASE; 0 with nothing to compare (first commit, shallow clone)
BASE ?= HEAD~1
openapi-diff: build
	node dist/tools/openapi-diff/cli.js --base '$(BASE)'

## scaffold: draft a catalogue resource from the ERP's fields_get: MODEL (ERP model), DOMAIN, RESOURCE;
## the ERP from the gateway's settings (ERP_URL, ERP_DATABASE, ERP_TRANSPORT, ERP_LOGIN) and ERP_CHECK_KEY.
## Writes into catalogue/DOMAIN.yaml (or CATALOGUE=<dir>/DOMAIN.yaml) (created if new), never over an existing resource, only what generates
scaffold: build
	node dist/tools/scaffold/cli.js --model '$(MODEL)' --domain '$(DOMAIN)' --resource '$(RESOURCE)' $(if $(CATALOGUE),--catalogue '$(CATALOGUE)')

## packages: the workspace packages (packages/*), compiled in dependency order (tsc -b); the gateway
## from its generated/, so after `make generate`
packages: $(NPM_STAMP)
	tsc -b packages/codec packages/gateway packages/sandbox

build: generate packages
	tsc -p tsconfig.build.json

typecheck: generate packages
	tsc -p tsconfig.json --noEmit

## lint: the guardrails, each a tool the TypeScript world knows: Biome (lint rules, and the format
## check), dependency-cruiser (which folder may import which, no cycles: .dependency-cruiser.cjs) and
## knip (no dead file, export or dependency: knip.jsonc)
lint: $(NPM_STAMP) generate packages
	biome check --error-on-warnings .
	depcruise packages/codec/src packages/gateway/runtime packages/gateway/generated packages/sandbox/src codegen live bench tools --config .dependency-cruiser.cjs
	knip --no-progress

## format: rewrite the sources as the formatter wants them (`make lint` fails otherwise)
format: $(NPM_STAMP)
	biome check --write .

## release: what production runs, packages/gateway/release/gateway.js: the gateway's runtime/ and
## generated/ (and the codec) bundled by esbuild into one file, committed like generated/ (a test fails
## when it is stale). On the server, from a clone: `npm ci --omit=dev`, then `npm start -w
## @ops-data-gateway/gateway` on Node 22.12+ or 24
release: generate $(NPM_STAMP)
	node scripts/bundle-release.mjs

## system packages the tests drive: python3 (a real xmlrpc.client), Debian's chromium (docs page) and
## redis-server (the shared-state suites start their own), prometheus (its promtool checks the
## /metrics exposition) and libreoffice-calc (a CSV export opened in a real spreadsheet, headless)
test-tools:
	@command -v python3 >/dev/null && [ -x /usr/bin/chromium ] && command -v redis-server >/dev/null && command -v promtool >/dev/null && command -v soffice >/dev/null || (apt-get update -qq && apt-get install -y -qq python3 chromium redis-server prometheus libreoffice-calc)

## test: every test suite (unit, end to end over real HTTP against the sandbox, python client, browser)
test: test-tools build typecheck lint
	jest --ci

## ci: what CI runs (.ci/run is this target): the system packages the tests drive, the install, the
## committed outputs checked against their sources, the breaking-change gate against the previous
## commit, then every test suite (make test)
ci: test-tools install
	$(MAKE) check-generated
	$(MAKE) openapi-diff BASE=HEAD~1
	$(MAKE) test

## run: the gateway on the sandbox ERP; prints the base URL and a demo API key (Ctrl-C stops both).
## Builds only what it serves, with esbuild (no tsc): the launcher (scripts/bundle-tools.mjs), the
## generated tree and the gateway bundle, each skipped when its inputs did not change (tools/dev/)
run: $(NPM_STAMP)
	node scripts/bundle-tools.mjs
	node --disable-warning=ExperimentalWarning dist/run/run-demo.js

## dev: `make run` watching catalogue/: each save validated, regenerated, bundled and served in
## seconds by a new gateway that takes over the port from the old one; a catalogue error is printed
## with its file, line, key and what is allowed, and the last good version keeps serving
dev: $(NPM_STAMP)
	node scripts/bundle-tools.mjs
	node --disable-warning=ExperimentalWarning dist/run/run-demo.js --watch

## bench: the gateway against the ERP it fronts, 1,000,000 rows (several minutes; see BENCHMARKS.md)
bench: build
	node --disable-warning=ExperimentalWarning dist/bench/run.js

## bench-shared: three gateway processes with Redis (the cap of key checks holds across them) and the CPU a per-key limit adds, in memory and in Redis (needs redis-server; about 1 minute)
bench-shared: build
	node --disable-warning=ExperimentalWarning dist/bench/shared-state.js

## bench-catalogue: a catalogue change served: the dev loop (10 saves, save to the first answer with
## the new field; a broken save) and the production reload (SIGHUP, WORKERS=2, 32 connections for 30 s)
bench-catalogue: build
	node --disable-warning=ExperimentalWarning dist/bench/catalogue-loop.js $(ARGS)

## bench-smoke: the same benchmark on demo data, a few seconds (the test suite runs it too)
bench-smoke: build
	node --disable-warning=ExperimentalWarning dist/bench/run.js --smoke

## check-erp: compare the catalogue with the ERP's fields_get (gateway environment + ERP_CHECK_KEY;
## ARGS=--json for JSON). Exit status of the check: 0 no drift, 1 drift, 2 configuration or ERP error
check-erp: build
	node packages/gateway/dist/runtime/drift/check-erp.js $(ARGS)

## erp-diff: send the same calls to the sandbox and to a live Odoo (LIVE_ERP_URL, LIVE_ERP_DATABASE,
## LIVE_ERP_LOGIN, LIVE_ERP_KEY, LIVE_ERP_ADMIN_LOGIN/KEY, optional LIVE_ERP_*_KEY; see live/settings.ts)
## and print every difference; ARGS=--json or --version-only. Exit 0 none, 1 differences, 2 cannot run
erp-diff: build
	node --disable-warning=ExperimentalWarning dist/live/differential/cli.js $(ARGS)

## test-live: the live-ERP suites against the Odoo given by LIVE_ERP_* (docs/compatibility.md); skipped without
test-live: build
	jest --ci tests/live/odoo.live tests/live/expand.live tests/live/aggregate.live --testTimeout=120000

## live-latency: what the gateway adds on that live Odoo, per transport (Markdown table; docs/compatibility.md)
live-latency: build
	node --disable-warning=ExperimentalWarning dist/live/latency.js

## live-dashboard: the response cache's dashboard and request coalescing on that live Odoo, timed by a
## closed-loop client (LIVE_DASHBOARD_SECONDS, LIVE_DASHBOARD_CLIENTS, LIVE_DASHBOARD_BURSTS; docs/compatibility.md)
live-dashboard: build
	node --disable-warning=ExperimentalWarning dist/live/dashboard.js

## live-feed-cost: what the change feed costs that live Odoo (JSON-2): its ERP calls timed alone, and a first
## sync and caught-up polls through a gateway, ERP time per page (Markdown; BENCHMARKS.md). Read-only
live-feed-cost: build
	node --disable-warning=ExperimentalWarning dist/live/feed-cost.js

## live-watch-mix: the dashboard mix with a writer on that live Odoo (TTL 300 s, change detection on, one write a
## second to the first picking's origin by LIVE_ERP_ADMIN_*, put back at the end): answers from the cache and the
## gateway against Odoo directly, closed loop (Markdown; BENCHMARKS.md)
live-watch-mix: build
	node --disable-warning=ExperimentalWarning dist/live/watch-mix.js

## live-cache-watch: how soon renames in that live Odoo reach cached answers, and the share of the ERP the
## change checks take (needs LIVE_ERP_ADMIN_*; creates one analytic account and deletes it, or with
## LIVE_WATCH_RESOURCE=stock/pickings LIVE_WATCH_MODEL=stock.picking LIVE_WATCH_FIELD=origin rewrites one picking and restores it)
live-cache-watch: build
	node --disable-warning=ExperimentalWarning dist/live/cache-watch.js

sandbox-init: build
	node --disable-warning=ExperimentalWarning packages/sandbox/dist/cli.js init

clean:
	rm -rf dist .sandbox .toolchain packages/*/dist
