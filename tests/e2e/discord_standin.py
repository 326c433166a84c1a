"""Discord's side of a conversation with the bot, stood in for on loopback.

Discord cannot be reached from the test machines, so the tests play Discord's part and
nothing else, in Discord's own formats:

- :class:`Discord` sends interactions as Discord does: JSON bodies of interaction
  objects (slash commands, button clicks, select choices), signed with Ed25519 over
  ``timestamp + body`` by a key generated here (its public half is the bot's
  ``DISCORD_PUBLIC_KEY``), to the bot's ``/interactions``. It reads the interaction
  responses (JSON, or multipart with an attached picture) and keeps the messages they
  create or update, so a later click is on a message the bot really sent.
- :class:`RestStandIn` is Discord's REST API on a loopback port (the bot's
  ``BW_DISCORD_REST_URL``): it records the messages the bot posts to channels and the
  commands it registers, and answers with Discord's message and command objects.
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
from nacl.signing import SigningKey

__all__ = ["Discord", "Message", "RestStandIn", "User"]

_SNOWFLAKES = itertools.count(1_300_000_000_000_000_000)
_NOW = "2026-11-30T12:00:00.000000+00:00"
BOT_USER = {
    "id": "1200000000000000001",
    "username": "boardwright",
    "discriminator": "0",
    "global_name": "Boardwright",
    "avatar": None,
    "bot": True,
}


def snowflake() -> str:
    return str(next(_SNOWFLAKES))


@dataclass(frozen=True)
class User:
    id: str
    name: str

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.name.lower(),
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
        }


@dataclass
class Message:
    """A message as Discord keeps it: who sees it (``ephemeral_for``), its text, its
    components, the users it may ping, its attachments."""

    id: str
    channel_id: str
    content: str
    components: list[dict[str, Any]] = field(default_factory=list)
    pings: list[str] = field(default_factory=list)
    ephemeral_for: str | None = None
    files: list[bytes] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "channel_id": self.channel_id,
            "author": BOT_USER,
            "content": self.content,
            "timestamp": _NOW,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 64 if self.ephemeral_for else 0,
            "components": self.components,
        }

    def controls(self) -> list[dict[str, Any]]:
        """Every button and select menu, row by row."""
        return [c for row in self.components for c in row.get("components", [])]

    def button(self, label: str) -> dict[str, Any]:
        found = [c for c in self.controls() if c["type"] == 2 and c.get("label") == label]
        assert found, f"no button {label!r} in {self.content!r}: {self.controls()}"
        return found[0]


def _message_from(
    data: dict[str, Any],
    channel_id: str,
    ephemeral_for: str | None,
    files: list[bytes],
    message_id: str | None = None,
) -> Message:
    allowed = data.get("allowed_mentions") or {}
    return Message(
        id=message_id or snowflake(),
        channel_id=channel_id,
        content=data.get("content") or "",
        components=_numbered(list(data.get("components") or [])),
        pings=[str(u) for u in allowed.get("users") or []],
        ephemeral_for=ephemeral_for,
        files=files,
    )


def _numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The components as Discord stores them: each (rows too) numbered in order."""
    counter = itertools.count(1)
    numbered = []
    for row in components:
        children = [{**child, "id": next(counter)} for child in row.get("components", [])]
        numbered.append({**row, "id": next(counter), "components": children})
    return numbered


def _parts(content_type: str, body: bytes) -> tuple[dict[str, Any], list[bytes]]:
    """A JSON body, or a multipart one: its ``payload_json`` and its files."""
    if not content_type.startswith("multipart/"):
        return json.loads(body), []
    parsed = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    payload: dict[str, Any] = {}
    files: list[bytes] = []
    for part in parsed.iter_parts():
        raw = part.get_payload(decode=True)
        assert isinstance(raw, bytes)
        if part.get_param("name", header="content-disposition") == "payload_json":
            payload = json.loads(raw)
        else:
            files.append(raw)
    return payload, files


class RestStandIn:
    """Discord's REST API on ``127.0.0.1:<port>/api/v10``: records what the bot sends."""

    def __init__(self) -> None:
        self.posts: list[Message] = []
        self.registered: list[dict[str, Any]] = []
        self.requests: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:
                pass

            def _body(self) -> bytes:
                return self.rfile.read(int(self.headers.get("content-length") or 0))

            def _reply(self, status: int, data: Any) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_POST(self) -> None:
                body = self._body()
                with standin.lock:
                    standin.requests.append(("POST", self.path))
                found = re.fullmatch(r"/api/v10/channels/(\d+)/messages", self.path)
                if found is None or self.headers.get("authorization") != "Bot test-token":
                    self._reply(404 if found is None else 401, {"message": "no", "code": 0})
                    return
                data, files = _parts(self.headers.get("content-type", ""), body)
                message = _message_from(data, found[1], None, files)
                with standin.lock:
                    standin.posts.append(message)
                self._reply(200, message.payload())

            def do_PUT(self) -> None:
                body = json.loads(self._body())
                with standin.lock:
                    standin.requests.append(("PUT", self.path))
                    standin.registered = body
                app = self.path.split("/")[4]
                self._reply(
                    200,
                    [
                        {
                            **command,
                            "id": snowflake(),
                            "application_id": app,
                            "version": snowflake(),
                            "type": command.get("type", 1),
                            "default_member_permissions": None,
                            "nsfw": False,
                        }
                        for command in body
                    ],
                )

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/api/v10"

    def start(self) -> RestStandIn:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Discord:
    """Sends signed interactions to the bot's replicas, one after another in turn, and
    keeps what the bot answered."""

    def __init__(self, urls: list[str], application_id: str) -> None:
        self.key = SigningKey.generate()
        self.urls = urls
        self.application_id = application_id
        self.guild_id = snowflake()
        self.command_ids = {
            name: snowflake()
            for name in ("games", "open", "join", "board", "play", "leave", "start", "rematch")
        }
        self.messages: dict[str, Message] = {}
        self.sent = 0
        self.http = httpx.Client(timeout=60)

    @property
    def public_key(self) -> str:
        return self.key.verify_key.encode().hex()

    def sign(self, body: bytes, timestamp: str | None = None) -> dict[str, str]:
        timestamp = timestamp or str(int(time.time()))
        signature = self.key.sign(timestamp.encode() + body).signature.hex()
        return {
            "X-Signature-Ed25519": signature,
            "X-Signature-Timestamp": timestamp,
            "content-type": "application/json",
        }

    def next_url(self) -> str:
        """The replica that gets the next interaction: they take turns."""
        url = self.urls[self.sent % len(self.urls)]
        self.sent += 1
        return url

    def base(self, kind: int, user: User, channel_id: str) -> dict[str, Any]:
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": kind,
            "token": f"interaction-token-{snowflake()}",
            "version": 1,
            "guild_id": self.guild_id,
            "channel_id": channel_id,
            "channel": {"id": channel_id, "type": 0, "name": "games", "permissions": "0"},
            "member": {
                "user": user.payload(),
                "roles": [],
                "joined_at": _NOW,
                "permissions": "0",
                "nick": None,
                "deaf": False,
                "mute": False,
                "flags": 0,
            },
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": "0",
            "entitlements": [],
            "authorizing_integration_owners": {"0": self.guild_id},
            "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }

    def slash(self, user: User, channel_id: str, name: str, **options: Any) -> Message:
        types = {bool: 5, int: 4, str: 3}
        interaction = self.base(2, user, channel_id)
        interaction["data"] = {
            "id": self.command_ids[name],
            "name": name,
            "type": 1,
            "options": [
                {"name": k, "type": types[type(v)], "value": v} for k, v in options.items()
            ],
        }
        return self.deliver(interaction, user, channel_id)

    def click(
        self, user: User, message: Message, custom_id: str, values: list[str] | None = None
    ) -> Message:
        interaction = self.base(3, user, message.channel_id)
        interaction["message"] = message.payload()
        interaction["data"] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            interaction["data"]["values"] = values
        return self.deliver(interaction, user, message.channel_id, message)

    def send(self, body: bytes, headers: dict[str, str]) -> httpx.Response:
        """One POST to the next replica's interactions endpoint, as it is."""
        return self.http.post(f"{self.next_url()}/interactions", content=body, headers=headers)

    def deliver(
        self,
        interaction: dict[str, Any],
        user: User,
        channel_id: str,
        clicked: Message | None = None,
    ) -> Message:
        """Sign and send one interaction; the message its response creates or updates."""
        body = json.dumps(interaction).encode()
        response = self.send(body, self.sign(body))
        assert response.status_code == 200, (response.status_code, response.text)
        payload, files = _parts(response.headers.get("content-type", ""), response.content)
        data = payload.get("data") or {}
        if payload["type"] == 4:
            ephemeral = user.id if int(data.get("flags") or 0) & 64 else None
            message = _message_from(data, channel_id, ephemeral, files)
        else:
            assert payload["type"] == 7 and clicked is not None, payload
            message = _message_from(data, channel_id, clicked.ephemeral_for, files, clicked.id)
        self.messages[message.id] = message
        return message
