"""The deployment files: every Kubernetes manifest is valid against the Kubernetes schemas,
and the per-game files are exactly what the one template renders for the games present."""

from __future__ import annotations

from pathlib import Path

import kubernetes_validate
import pytest
import yaml

import engines
from deploy.manifests import DEPLOY, render, rendered_files

K8S = DEPLOY / "k8s"
KUBERNETES_VERSION = kubernetes_validate.latest_version()


def _documents(path: Path) -> list[dict[str, object]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


@pytest.mark.parametrize("path", sorted(K8S.glob("*.yaml")), ids=lambda p: p.name)
def test_every_kubernetes_manifest_is_valid(path: Path) -> None:
    """Strict validation: an unknown or misplaced field fails, not only a missing one."""
    documents = _documents(path)
    assert documents, path
    for document in documents:
        kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)


def test_a_misplaced_field_is_caught_by_the_validation() -> None:
    """The check can fail: a probe at the pod level instead of the container is refused."""
    engine = _documents(K8S / "engines.yaml")[0]
    broken = yaml.safe_load(yaml.safe_dump(engine))
    broken["spec"]["template"]["spec"]["readinessProbe"] = {"grpc": {"port": 1}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_the_rendered_files_are_up_to_date() -> None:
    """Each game present has its engine Deployment, Service, compose service and address;
    `python -m deploy.manifests` rewrites them when a game is added."""
    for path, text in rendered_files().items():
        assert path.read_text() == text, f"{path.name} is stale: run python -m deploy.manifests"


def test_a_new_game_gets_its_manifests_from_the_template() -> None:
    """Rendering for one more game adds its Deployment, Service and compose service and
    names it in BW_ENGINE_ADDRS, with no file written by hand."""
    games = [*engines.available(), "newgame"]
    files = render(games)
    documents = list(yaml.safe_load_all(files[K8S / "engines.yaml"]))
    kinds = [(d["kind"], d["metadata"]["name"]) for d in documents]
    assert ("Deployment", "engine-newgame") in kinds and ("Service", "engine-newgame") in kinds
    config = yaml.safe_load(files[K8S / "configmap.yaml"])
    assert "newgame=engine-newgame:50051" in config["data"]["BW_ENGINE_ADDRS"]
    compose = yaml.safe_load(files[DEPLOY / "docker-compose.yml"])
    assert "--game" in compose["services"]["engine-newgame"]["command"]
    for document in documents:
        kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)
