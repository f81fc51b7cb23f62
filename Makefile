# Everything a fresh machine needs is done by these targets; `make test` and `make run` set up on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
COMPILED := $(VENV)/.compiled
# the engine modules mypyc compiles (judge/speedups.py lists them); a change to one rebuilds the compiled path
HOT := $(wildcard judge/engine/*.py judge/engine/refusals/*.py judge/notation/*.py judge/contract/*.py) judge/board/model.py judge/value.py judge/variants/descriptor.py judge/variants/hepta_terms.py

.PHONY: install test test-fast fuzz lint bench run clean

# the bytecode of every module, written ahead: where PYTHONDONTWRITEBYTECODE is set (as on these machines) Python
# never writes it itself and would compile the judge's modules again at every start (17 ms of judge adjudicate's);
# then the shipped maps parsed, which the first case of every start would parse again (judge/kept.py)
install: $(STAMP) $(COMPILED)
	@$(BIN)/python -m compileall -q judge
	@$(BIN)/python -c "from judge.kept import build; build()"

# where a C compiler exists, the compiled hot path (mypyc); otherwise, or with JUDGE_PURE=1, pure Python
$(COMPILED): $(STAMP) $(HOT) judge/speedups.py
	@if command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then \
		$(BIN)/python -m judge.speedups build; \
	else \
		echo "no C compiler: the pure-Python path runs"; $(BIN)/python -m judge.speedups clean; \
	fi
	touch $(COMPILED)

# PyICU (names that look alike) builds against the system's ICU: where its headers are missing and apt-get can
# install them (as root on Debian, as on these machines), they are installed first
$(STAMP): pyproject.toml
	@pkg-config --exists icu-i18n 2>/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		libicu-dev pkg-config g++ >/dev/null; } || echo "ICU's headers (libicu-dev, pkg-config) are needed to build PyICU"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: install
	$(BIN)/pytest -q

# the quick part: everything but the end-to-end tests marked slow (real servers, whole games, wheels)
test-fast: install
	$(BIN)/pytest -q -m "not slow"

# the property tests (hypothesis) ten times over, at random (CI runs them derandomized): a counter-example found
# becomes an @example line of its test
fuzz: install
	for i in 1 2 3 4 5 6 7 8 9 10; do env -u CI $(BIN)/pytest -q -p no:cacheprovider $$(grep -l "from hypothesis" tests/*.py) || exit 1; done

lint: install
	$(BIN)/ruff check judge tests bench migrations
	$(BIN)/ruff format --check judge tests bench migrations
	$(BIN)/mypy

bench: install
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python -m bench $(if $(BENCH_BASELINE),--baseline $(BENCH_BASELINE))

# the daemon on embedded defaults: SQLite in var/, SMTP intake on 127.0.0.1:2525, outgoing mail to var/outbox/
run: install
	$(BIN)/judge serve

clean:
	-$(BIN)/python -m judge.speedups clean
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
