"""A webhook receiver for tests: a real HTTP server on loopback, in a thread, that records
every request and answers what the test says (by path and by how often it saw that
delivery id)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Received", "Receiver"]


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    status: int
    at: float


@dataclass
class Receiver:
    """``answer(path, tries of this delivery id so far)`` gives each status."""

    server: ThreadingHTTPServer
    answer: Callable[[str, int], int]
    got: list[Received] = field(default_factory=list)
    tries: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def record(self, path: str, headers: dict[str, str], body: bytes) -> int:
        with self.lock:
            delivery = headers.get("x-boardwright-delivery", "")
            self.tries[delivery] = self.tries.get(delivery, 0) + 1
            status = self.answer(path, self.tries[delivery])
            self.got.append(Received(path, headers, body, status, time.time()))
            return status

    def on(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.got if r.path == path]

    @classmethod
    @contextmanager
    def serving(cls, answer: Callable[[str, int], int]) -> Iterator[Receiver]:
        holder: list[Receiver] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                self.send_response(holder[0].record(self.path, headers, body))
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                return

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        holder.append(cls(server, answer))
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield holder[0]
        finally:
            server.shutdown()
            server.server_close()
