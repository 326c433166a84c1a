"""The committed protobuf/gRPC stubs are exactly what `make proto` makes of proto/*.proto."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", "_pb2_grpc.pyi")


def _plugin(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail(f"{name} is not installed beside {sys.executable}; run `make` to install")
    return found


def test_generated_stubs_match_the_proto_files(tmp_path: Path) -> None:
    """Regenerating every stub into a scratch folder gives the committed files byte for byte."""
    protos = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "proto").glob("*.proto"))
    assert protos, "no .proto files found"
    (tmp_path / "proto").mkdir()
    subprocess.run(
        [
            sys.executable, "-m", "grpc_tools.protoc", "-I.",
            f"--plugin=protoc-gen-mypy={_plugin('protoc-gen-mypy')}",
            f"--plugin=protoc-gen-mypy_grpc={_plugin('protoc-gen-mypy_grpc')}",
            f"--python_out={tmp_path}", f"--mypy_out={tmp_path}",
            f"--grpc_python_out={tmp_path}", f"--mypy_grpc_out={tmp_path}",
            *protos,
        ],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    stale = []
    for proto in protos:
        stem = proto.removesuffix(".proto")
        for suffix in SUFFIXES:
            fresh = tmp_path / f"{stem}{suffix}"
            committed = ROOT / f"{stem}{suffix}"
            if not committed.exists() or committed.read_bytes() != fresh.read_bytes():
                stale.append(committed.relative_to(ROOT).as_posix())
    assert not stale, f"stale generated stubs (run `make proto`): {stale}"
