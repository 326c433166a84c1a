"""The deployment files that name each game, rendered from one template per kind.

A new game needs no hand-written manifest: name it in ``engines.GAMES`` (with its engine
present, so ``engines.available()`` lists it) and run

    python -m deploy.manifests           # rewrite the files below
    python -m deploy.manifests --check   # exit 1 if any of them is stale (CI runs this test)

Rendered: ``deploy/k8s/engines.yaml`` (a Deployment and a Service per game),
``deploy/k8s/configmap.yaml`` (``BW_ENGINE_ADDRS``) and ``deploy/docker-compose.yml``.
Everything else under ``deploy/`` is written by hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import engines

__all__ = ["ENGINE_PORT", "render", "rendered_files"]

DEPLOY = Path(__file__).resolve().parent
ENGINE_PORT = 50051

_HEADER = "# Rendered by `python -m deploy.manifests` from engines.available(); do not edit.\n"

_K8S_ENGINE = """\
# The {game} rules engine: stateless gRPC replicas; the version check in the append
# script settles races between them.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: engine-{game}
  labels: {{app: engine-{game}, part: engine}}
spec:
  replicas: 3
  selector:
    matchLabels: {{app: engine-{game}}}
  template:
    metadata:
      labels: {{app: engine-{game}, part: engine}}
    spec:
      containers:
        - name: engine
          image: boardwright:latest
          command:
            [python, -m, services.engine, --game, {game}, --host, 0.0.0.0, --port, "{port}"]
          envFrom: [{{configMapRef: {{name: boardwright}}}}]
          ports: [{{containerPort: {port}, name: grpc}}]
          readinessProbe:
            # The Engine service turns NOT_SERVING while Redis does not answer.
            grpc: {{port: {port}, service: boardwright.v1.Engine}}
          livenessProbe:
            grpc: {{port: {port}}}
          resources:
            requests: {{cpu: 250m, memory: 256Mi}}
---
apiVersion: v1
kind: Service
metadata:
  name: engine-{game}
spec:
  selector: {{app: engine-{game}}}
  ports: [{{port: {port}, targetPort: grpc, name: grpc}}]
"""

_K8S_CONFIGMAP = """\
# Shared settings. REDIS_URL points at any node of the Redis Cluster; clients discover the rest.
apiVersion: v1
kind: ConfigMap
metadata:
  name: boardwright
data:
  REDIS_URL: redis://redis-cluster:6379/0
  BW_SHARDS: "64"
  BW_ENGINE_ADDRS: {addrs}
  # Where the ingress controller's pods live (your pod network): the gateways then take the
  # client address the rate limits count from the entry the ingress appended to
  # X-Forwarded-For. Never "*": that trusts the left-most entry, which the client writes.
  BW_FORWARDED_ALLOW_IPS: "10.0.0.0/8"
"""

_COMPOSE = """\
# Several replicas of every service against one Redis (for Redis Cluster see k8s/).
#   docker compose -f deploy/docker-compose.yml up --build --scale engine-freunde=2
x-boardwright: &boardwright
  build:
    context: ..
    dockerfile: deploy/Dockerfile
  environment:
    REDIS_URL: redis://redis:6379/0
    BW_SHARDS: "64"
    BW_ENGINE_ADDRS: {addrs}
  depends_on: [redis]
  restart: unless-stopped

services:
  redis:
    image: redis:7.4
    command: ["redis-server", "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""]
    volumes: ["redis-data:/data"]
{engines}
  projector:
    <<: *boardwright
    command: ["python", "-m", "services.projector"]
    deploy: {{replicas: 2}}

  scheduler:
    <<: *boardwright
    command: ["python", "-m", "services.scheduler"]
    deploy: {{replicas: 2}}

  notifier:
    <<: *boardwright
    command: ["python", "-m", "services.notifier"]
    deploy: {{replicas: 2}}

  gateway:
    <<: *boardwright
    command: ["python", "-m", "gateway", "--host", "0.0.0.0", "--port", "8000"]
    ports: ["8000:8000"]
    deploy: {{replicas: 1}}

  # The Discord bot, with `docker compose --profile discord up` (needs DISCORD_TOKEN,
  # DISCORD_APPLICATION_ID, DISCORD_PUBLIC_KEY and BW_DISCORD_APP_KEY; README › Discord bot).
  discord:
    <<: *boardwright
    profiles: [discord]
    command: ["python", "-m", "services.discord"]
    environment:
      REDIS_URL: redis://redis:6379/0
      BW_URL: http://gateway:8000
      BW_DISCORD_HOST: 0.0.0.0
      BW_DISCORD_PORT: "8100"
      BW_PUBLIC_URL: ${{BW_PUBLIC_URL:-}}
      DISCORD_TOKEN: ${{DISCORD_TOKEN:-}}
      DISCORD_APPLICATION_ID: ${{DISCORD_APPLICATION_ID:-}}
      DISCORD_PUBLIC_KEY: ${{DISCORD_PUBLIC_KEY:-}}
      BW_DISCORD_APP_KEY: ${{BW_DISCORD_APP_KEY:-}}
    ports: ["8100:8100"]

volumes:
  redis-data:
"""

_COMPOSE_ENGINE = """
  engine-{game}:
    <<: *boardwright
    command:
      [python, -m, services.engine, --game, {game}, --host, 0.0.0.0, --port, "{port}"]
    deploy: {{replicas: 2}}
"""


def _addrs(games: list[str]) -> str:
    return ",".join(f"{game}=engine-{game}:{ENGINE_PORT}" for game in games)


def render(games: list[str]) -> dict[Path, str]:
    """Each rendered file's path and text for ``games``."""
    return {
        DEPLOY / "k8s" / "engines.yaml": _HEADER
        + "---\n".join(_K8S_ENGINE.format(game=g, port=ENGINE_PORT) for g in games),
        DEPLOY / "k8s" / "configmap.yaml": _HEADER + _K8S_CONFIGMAP.format(addrs=_addrs(games)),
        DEPLOY / "docker-compose.yml": _HEADER
        + _COMPOSE.format(
            addrs=_addrs(games),
            engines="".join(_COMPOSE_ENGINE.format(game=g, port=ENGINE_PORT) for g in games),
        ),
    }


def rendered_files() -> dict[Path, str]:
    """The files as they should be for the games present now."""
    return render(engines.available())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.manifests", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    stale = [path for path, text in rendered_files().items() if _read(path) != text]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(DEPLOY.parent)}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in rendered_files().items():
        path.write_text(text)
    return 0


def _read(path: Path) -> str | None:
    return path.read_text() if path.exists() else None


if __name__ == "__main__":
    sys.exit(main())
