# Every target sets up .venv on first use, so a fresh clone needs nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow soak lint format bench lock messages clean

# The suite runs side by side in a few processes (pytest-xdist; tests/conftest.py picks how
# many): its end-to-end tests mostly wait on Discord's real rate limits. Tests that share a
# costly fixture are kept on one process by their xdist_group. TEST_WORKERS= runs them in one.
TEST_WORKERS ?= -n auto --dist loadgroup

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP) lint
	@command -v chromium >/dev/null 2>&1 || [ -n "$$TAPIS_CHROMIUM" ] || \
		echo "NOTE: no Chromium found: the browser tests (tests/bot/web/test_browser.py) will be SKIPPED. Install it with: apt-get install chromium"
	$(BIN)/python -m pytest $(TEST_WORKERS) -m "not slow"

# The whole matches at Discord's pace that `make test` leaves out (marked slow); CI runs both.
test-slow: $(STAMP)
	$(BIN)/python -m pytest $(TEST_WORKERS) -m slow

# The service's state machine (tests/bot/service/test_machine.py) at length: many long runs
# of moves, strangers, double presses, clock passes, restarts and crashes on every game.
soak: $(STAMP)
	TAPIS_SOAK=1 $(BIN)/python -m pytest tests/bot/service/test_machine.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict games ai rendering bot bench
	$(BIN)/lint-imports --no-cache
	$(BIN)/hadolint Dockerfile

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python -m bench

# Lists every message the source marks into the catalogs (bot/locales); the tests then say
# which still need a translation.
messages: $(STAMP)
	$(BIN)/python tools/messages.py

# The exact versions the Docker image installs, from pyproject.toml's dependencies.
lock:
	$(PYTHON) tools/lock.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
