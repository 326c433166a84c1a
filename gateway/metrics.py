"""Prometheus metrics of one gateway (its own registry, so several apps can coexist)."""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

__all__ = ["GatewayMetrics"]

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class GatewayMetrics:
    """Commands by game and outcome, latencies, and the projector's reported lag."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.commands = Counter(
            "bw_gateway_commands",
            "Commands submitted over HTTP, by game and outcome.",
            ["game", "outcome"],
            registry=self.registry,
        )
        self.rejections = Counter(
            "bw_gateway_rejections",
            "Rejected commands, by game and rejection code.",
            ["game", "code"],
            registry=self.registry,
        )
        self.command_seconds = Histogram(
            "bw_gateway_command_seconds",
            "Time from receiving a command to answering it, by game.",
            ["game"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.request_seconds = Histogram(
            "bw_gateway_request_seconds",
            "HTTP request latency by method, route template and status class.",
            ["method", "route", "status"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.live = Gauge(
            "bw_gateway_live",
            "Live streaming: feed readers running (table and player shards), tables and"
            " players followed, SSE subscribers, open SSE responses (streams).",
            ["what"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "bw_gateway_rate_limited",
            "Requests refused with 429, by budget (address, seat, create).",
            ["budget"],
            registry=self.registry,
        )
        self.views_lost = Counter(
            "bw_gateway_views_lost",
            "Reads that found their view behind the table's status (lost by a Redis restart"
            " or failover) and were answered by the engine service, by game.",
            ["game"],
            registry=self.registry,
        )
        self.projector_lag = Gauge(
            "bw_projector_lag",
            "The projector's lag as it last reported it, one series per reported figure.",
            ["figure"],
            registry=self.registry,
        )

    def record_live(
        self,
        tables: tuple[int, int, int],
        players: tuple[int, int, int],
        streams: int,
    ) -> None:
        """``tables`` and ``players``: (readers, followed, subscribers) of each kind."""
        self.live.labels(what="streams").set(streams)
        self.live.labels(what="readers").set(tables[0] + players[0])
        self.live.labels(what="tables").set(tables[1])
        self.live.labels(what="players").set(players[1])
        self.live.labels(what="subscribers").set(tables[2] + players[2])

    def record_projector_lag(self, lag: dict[str, Any]) -> None:
        for figure, value in _numbers(lag):
            self.projector_lag.labels(figure=figure).set(value)


def _numbers(data: dict[str, Any], prefix: str = "") -> list[tuple[str, float]]:
    """Every numeric leaf of a small JSON object, with dotted names."""
    found: list[tuple[str, float]] = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float):
            found.append((name, float(value)))
        elif isinstance(value, dict):
            found.extend(_numbers(value, f"{name}."))
    return found[:256]
