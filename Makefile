# Boardwright: `make run` starts the whole stack, `make test` runs the suite.
# Both need only Python 3.11+ and make: the virtualenv, the install and the stubs
# are made here on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PROTOS := $(sort $(wildcard proto/*.proto))
STUBS  := $(PROTOS:.proto=_pb2.py)
PYTEST_ARGS ?=

.PHONY: run test lint proto bench loadtest manifests clean help

help:
	@echo "make run    - Redis (private unless REDIS_URL is set), engine services, projector, gateway on :8000"
	@echo "make test   - the whole suite (unit, property, integration, end-to-end)"
	@echo "make lint   - ruff and mypy"
	@echo "make proto  - regenerate the gRPC/protobuf stubs from proto/*.proto"
	@echo "make bench  - benchmarks, printed as figures (a few minutes; BW_BENCH_QUICK=1 for shorter runs)"
	@echo "make loadtest - open-loop load test: 3,000 tables, rates stepped up to the knee (long)"
	@echo "make manifests - render deploy/ files that name each game (engines.available())"
	@echo "make clean  - remove the virtualenv, caches and .data/"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# Stubs are committed (so a stale one is caught by tests/unit/test_proto_stubs.py)
# and rebuilt here whenever a .proto is newer than its stub.
# Order-only on the install: a reinstall alone must not regenerate the stubs.
proto/%_pb2.py: proto/%.proto | $(STAMP)
	$(BIN)/python -m grpc_tools.protoc -I. \
		--plugin=protoc-gen-mypy=$(BIN)/protoc-gen-mypy \
		--plugin=protoc-gen-mypy_grpc=$(BIN)/protoc-gen-mypy_grpc \
		--python_out=. --mypy_out=. --grpc_python_out=. --mypy_grpc_out=. $<

proto: $(STAMP)
	$(BIN)/python -m grpc_tools.protoc -I. \
		--plugin=protoc-gen-mypy=$(BIN)/protoc-gen-mypy \
		--plugin=protoc-gen-mypy_grpc=$(BIN)/protoc-gen-mypy_grpc \
		--python_out=. --mypy_out=. --grpc_python_out=. --mypy_grpc_out=. $(PROTOS)

run: $(STAMP) $(STUBS)
	$(BIN)/python -m services.launcher

test: $(STAMP) $(STUBS)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

lint: $(STAMP) $(STUBS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engines services gateway benchmarks tests deploy

bench: $(STAMP) $(STUBS)
	$(BIN)/python -m benchmarks

loadtest: $(STAMP) $(STUBS)
	$(BIN)/python -m benchmarks.loadtest

manifests: $(STAMP) $(STUBS)
	$(BIN)/python -m deploy.manifests

clean:
	rm -rf $(VENV) .data .pytest_cache .mypy_cache .ruff_cache .hypothesis build *.egg-info
