// The replay page: steps through one table's events on the public HTTP API.
//
// Everything comes from /v1: the events (each with its `text`), the view and outcome at
// a version (/replay?at=N), the board picture at that version (board.svg?at=N), the
// audit, and, while the game runs, the table's SSE stream. A seat token typed in once is
// kept in sessionStorage (this tab only) and sent as an Authorization header; the picture
// is fetched with it and shown from a blob URL, so no secret ever sits in a URL.
"use strict";

const parts = location.pathname.split("/").filter(Boolean);
const TABLE = decodeURIComponent(parts[parts.length - 1] || "");
const API = `/v1/tables/${encodeURIComponent(TABLE)}`;
const TOKEN_KEY = `boardwright.seat-token.${TABLE}`;

const page = {
  token: sessionStorage.getItem(TOKEN_KEY),
  seat: null,
  names: [],
  events: new Map(), // version -> rendered event
  head: 0,
  at: 0,
  finished: false,
  shown: -1,
  request: 0, // the newest show(); older answers are dropped
  picture: null, // the blob URL on screen
  stream: null, // AbortController of the live stream
};

const $ = (id) => document.getElementById(id);

class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

function headers(extra = {}) {
  return page.token ? { ...extra, Authorization: `Bearer ${page.token}` } : extra;
}

async function fetched(path, accept = "application/json", signal = undefined) {
  const reply = await fetch(path, { headers: headers({ Accept: accept }), signal });
  if (!reply.ok) {
    let body = {};
    try {
      body = await reply.json();
    } catch (_) {
      // Not JSON: the status says enough.
    }
    throw new ApiError(reply.status, body.code, body.message);
  }
  return reply;
}

async function api(path) {
  return (await fetched(path)).json();
}

function showError(error) {
  const box = $("error");
  box.hidden = !error;
  box.textContent = error ? `${error.message}${error.code ? ` (${error.code})` : ""}` : "";
}

function seatName(seat) {
  const name = page.names[seat];
  const who = seat === page.seat ? "you" : name && name !== `Seat ${seat}` ? name : "";
  return who ? `Seat ${seat} (${who})` : `Seat ${seat}`;
}

// -- loading ------------------------------------------------------------------------------

async function loadTable() {
  const table = await api(API);
  page.names = (table.seating || []).map((s) => s.name || (s.bot ? `bot: ${s.bot}` : ""));
  page.seat = table.seat;
  page.finished = Boolean(table.status && table.status.finished);
  $("game").textContent = `· ${table.game}`;
  $("table-state").textContent = page.finished ? "finished" : "in play";
  $("viewing").textContent =
    table.seat === null || table.seat === undefined
      ? "Viewing as a spectator (the public view)."
      : `Viewing as seat ${table.seat}: its own view, with what only it may see.`;
  $("forget-token").hidden = !page.token;
  return table.version;
}

async function loadEvents(after) {
  for (;;) {
    const pageOf = await api(`${API}/events?after=${after}`);
    for (const event of pageOf.events) {
      page.events.set(event.version, event);
      after = event.version;
    }
    page.head = Math.max(page.head, pageOf.head, after);
    if (!pageOf.events.length || after >= pageOf.head) return;
  }
}

function eventWords(version) {
  if (version === 0) return "Before set-up.";
  const event = page.events.get(version);
  if (!event) return "";
  if (event.seed_revealed) return "The seed is revealed: anyone can now re-check every event.";
  return event.text || "Something happens that you may not see.";
}

function renderLog() {
  const log = $("log");
  const items = [];
  for (let version = 1; version <= page.head; version++) {
    const item = document.createElement("li");
    item.value = version;
    item.dataset.version = String(version);
    item.textContent = eventWords(version);
    items.push(item);
  }
  log.replaceChildren(...items);
}

function appendLog(version) {
  const item = document.createElement("li");
  item.value = version;
  item.dataset.version = String(version);
  item.textContent = eventWords(version);
  $("log").append(item);
}

// -- one version on screen ----------------------------------------------------------------

async function show(version) {
  version = Math.max(0, Math.min(page.head, Math.trunc(version)));
  const ticket = ++page.request;
  page.at = version;
  $("slider").max = String(page.head);
  $("slider").value = String(version);
  $("jump-to").max = String(page.head);
  $("jump-to").value = String(version);
  $("version").textContent = `Version ${version} of ${page.head}`;
  $("event-text").textContent = eventWords(version);
  for (const item of $("log").querySelectorAll(".current")) item.classList.remove("current");
  const current = $("log").querySelector(`li[data-version="${version}"]`);
  if (current) {
    current.classList.add("current");
    current.scrollIntoView({ block: "nearest" });
  }
  try {
    const [replay, picture] = await Promise.all([
      api(`${API}/replay?at=${version}`),
      fetched(`${API}/board.svg?at=${version}`, "image/svg+xml").then((r) => r.blob()),
    ]);
    if (ticket !== page.request) return;
    const url = URL.createObjectURL(picture);
    const board = $("board");
    board.src = url;
    board.alt = `The board at version ${version}`;
    if (page.picture) URL.revokeObjectURL(page.picture);
    page.picture = url;
    renderOutcome(replay.outcome || {});
    page.shown = version;
    document.body.dataset.shown = String(version);
    showError(null);
  } catch (error) {
    if (ticket === page.request) showError(error);
  }
}

function renderOutcome(outcome) {
  const toAct = outcome.to_act || [];
  let turn;
  if (outcome.finished) {
    const winners = (outcome.winners || []).map(seatName);
    turn = winners.length ? `Game over. Won by ${winners.join(" and ")}.` : "Game over.";
  } else if (toAct.length) {
    turn = `To act: ${toAct.map(seatName).join(", ")}`;
  } else {
    turn = "Nobody is to act yet.";
  }
  $("turn").textContent = turn;
  const rows = (outcome.scores || []).map((score, seat) => {
    const row = document.createElement("tr");
    if (toAct.includes(seat)) row.classList.add("to-act");
    for (const text of [String(seat), page.names[seat] || "", String(score)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  $("scores").tBodies[0].replaceChildren(...rows);
}

// -- the audit ----------------------------------------------------------------------------

async function loadAudit() {
  try {
    const audit = await api(`${API}/audit`);
    const seedPending = audit.seed === null || audit.seed === undefined;
    const failed = audit.checks.filter((c) => !c.ok && !(c.name === "seed" && seedPending));
    let verdict;
    if (failed.length) verdict = `✘ The log does NOT check out: ${failed.map((c) => c.name).join(", ")}.`;
    else if (seedPending) verdict = "✔ Everything checkable so far checks out; the seed and the re-execution are checked once the game has ended.";
    else verdict = "✔ Verified: the hash chain, the seed commitment and the re-execution of every command all check out.";
    $("verdict").textContent = verdict;
    $("verdict").className = failed.length ? "bad" : "good";
    const rows = [
      ["Hash chain", audit.chain_ok, audit.chain_ok
        ? `${audit.head_version} events linked, head ${audit.head_hash.slice(0, 16)}…`
        : `broken at version ${audit.first_bad_version}`],
      ["Seed commitment", seedPending ? null : checkOk(audit, "seed"), seedPending
        ? "the seed stays secret until the game ends"
        : checkDetail(audit, "seed")],
      ["Re-execution", audit.reexecution_checked ? audit.reexecution_ok : null,
        audit.reexecution_checked
          ? audit.reexecution_ok ? "every command gives the same events again" : audit.detail
          : "needs the seed: done once the game has ended"],
    ];
    const shown = new Set(["hash chain", "seed", "re-execution"]);
    for (const check of audit.checks) {
      if (!shown.has(check.name)) rows.push([check.name, check.ok, check.detail]);
    }
    $("audit").replaceChildren(...rows.map(([name, ok, detail]) => {
      const item = document.createElement("li");
      item.className = ok === null ? "pending" : ok ? "good" : "bad";
      item.dataset.check = name;
      item.textContent = `${ok === null ? "○" : ok ? "✔" : "✘"} ${name}: ${detail}`;
      return item;
    }));
  } catch (error) {
    $("verdict").textContent = `The audit could not be read: ${error.message}`;
  }
}

function checkOk(audit, name) {
  const check = audit.checks.find((c) => c.name === name);
  return check ? check.ok : null;
}

function checkDetail(audit, name) {
  const check = audit.checks.find((c) => c.name === name);
  return check ? check.detail : "";
}

// -- following a live table ---------------------------------------------------------------

function sseBlocks(text) {
  const blocks = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n\n", start);
    if (end < 0) return [blocks, text.slice(start)];
    blocks.push(text.slice(start, end));
    start = end + 2;
  }
}

function sseFields(block) {
  const fields = {};
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    fields[name] = name in fields ? `${fields[name]}\n${value}` : value;
  }
  return fields;
}

async function follow() {
  // fetch() rather than EventSource: EventSource cannot send the seat's header.
  while (!page.finished) {
    const control = new AbortController();
    page.stream = control;
    try {
      const reply = await fetched(`${API}/events/stream?after=${page.head}`, "text/event-stream", control.signal);
      const reader = reply.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        // Lines may end in CRLF; a CR at the very end may be half of one.
        const held = buffer.endsWith("\r") ? "\r" : "";
        const text = (held ? buffer.slice(0, -1) : buffer).replace(/\r\n?/g, "\n");
        const [blocks, rest] = sseBlocks(text);
        buffer = rest + held;
        for (const block of blocks) received(sseFields(block));
      }
    } catch (error) {
      if (control.signal.aborted) return;
    }
    if (page.stream !== control) return;
    if (!page.finished) await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function received(fields) {
  if (fields.event === "end") {
    page.finished = true;
    $("table-state").textContent = "finished";
    loadAudit();
    return;
  }
  if (fields.event !== "event" || !fields.data) return;
  const event = JSON.parse(fields.data);
  if (page.events.has(event.version)) return;
  const wasAtHead = page.at === page.head;
  page.events.set(event.version, event);
  page.head = Math.max(page.head, event.version);
  appendLog(event.version);
  $("slider").max = String(page.head);
  $("jump-to").max = String(page.head);
  if (wasAtHead && $("follow").checked) show(page.head);
  else $("version").textContent = `Version ${page.at} of ${page.head}`;
}

// -- start, and the controls --------------------------------------------------------------

async function start() {
  if (page.stream) page.stream.abort();
  page.stream = null;
  page.events.clear();
  page.head = 0;
  $("table-id").textContent = TABLE;
  try {
    await loadTable();
    await loadEvents(0);
  } catch (error) {
    showError(error);
    if (error.code === "auth.invalid" && page.token) {
      // A token that names no seat here: forget it and show the public view.
      sessionStorage.removeItem(TOKEN_KEY);
      page.token = null;
      return start().then(() => showError(error));
    }
    return;
  }
  renderLog();
  const wanted = Number(new URLSearchParams(location.hash.slice(1)).get("v"));
  await show(Number.isFinite(wanted) && location.hash ? wanted : page.head);
  loadAudit();
  if (!page.finished) follow();
}

function go(version) {
  history.replaceState(null, "", `#v=${Math.max(0, Math.min(page.head, version))}`);
  show(version);
}

$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(page.at - 1));
$("forward").addEventListener("click", () => go(page.at + 1));
$("last").addEventListener("click", () => go(page.head));
$("slider").addEventListener("input", (e) => go(Number(e.target.value)));
$("jump-form").addEventListener("submit", (e) => {
  e.preventDefault();
  go(Number($("jump-to").value));
});
$("log").addEventListener("click", (e) => {
  const item = e.target.closest("li[data-version]");
  if (item) go(Number(item.dataset.version));
});
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement) return;
  const moves = { ArrowLeft: page.at - 1, ArrowRight: page.at + 1, Home: 0, End: page.head };
  if (e.key in moves) {
    e.preventDefault();
    go(moves[e.key]);
  }
});
$("seat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const typed = $("token").value.trim();
  $("token").value = "";
  if (!typed) return;
  sessionStorage.setItem(TOKEN_KEY, typed);
  page.token = typed;
  start();
});
$("forget-token").addEventListener("click", () => {
  sessionStorage.removeItem(TOKEN_KEY);
  page.token = null;
  start();
});

start();
