// The ASARA page: start a game, draw the board, play moves by clicking, replay games.
// Everything it knows comes from the server's JSON API (apps/serve.py).
"use strict";

const $ = (id) => document.getElementById(id);
let options = null; // GET /api/options
let game = null; // the game shown: GET /api/games/{id}
let busy = false; // a move is on its way: no second one
let replay = null; // {url: frame URL prefix, frames: count, back: game id or null, token}
let timer = null; // the replay's play timer

// ------------------------------------------------------------------ this browser's games
// The server lists no games and opens one only with the token it gave its creator (the
// X-Game-Token header): this browser keeps its games' ids, tokens and labels here.
const STORE = "asara-games";

function myGames() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}

function keepGame(id, fields) {
  const games = myGames();
  games[id] = { ...games[id], ...fields };
  localStorage.setItem(STORE, JSON.stringify(games));
}

function forgetGame(id) {
  const games = myGames();
  delete games[id];
  localStorage.setItem(STORE, JSON.stringify(games));
}

function tokenOf(id) {
  return (myGames()[id] || {}).token;
}

// ------------------------------------------------------------------ talking to the server
async function request(method, path, body, token) {
  const init = { method, headers: {} };
  if (token) init.headers["X-Game-Token"] = token;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch(path, init);
}

async function api(method, path, body, token) {
  const response = await request(method, path, body, token);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(data, response.status));
  return data;
}

async function download(path, name, token) {
  // a link cannot send a header: fetch the file with the token, then save it
  const response = await request("GET", path, undefined, token);
  if (!response.ok) {
    return showError(errorText(await response.json().catch(() => ({})), response.status));
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function errorText(data, status) {
  const detail = data.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((e) => `${(e.loc || []).slice(1).join(".") || "request"}: ${e.msg}`).join("; ");
  }
  return `the request failed (HTTP ${status})`;
}

function showError(text) {
  $("error").textContent = text || "";
  $("error").hidden = !text;
}

function show(section) {
  for (const id of ["setup", "game", "replayer"]) $(id).hidden = id !== section;
}

// ------------------------------------------------------------------ setting up a game
function opponentChoices() {
  return [...options.agents, ...options.models];
}

function fillSetup() {
  const players = Number($("players").value);
  const seat = $("seat");
  const keep = Math.min(Number(seat.value || 0), players - 1);
  seat.innerHTML = "";
  for (let s = 0; s < players; s++) seat.add(new Option(`P${s}${s === 0 ? " (starts)" : ""}`, s));
  seat.value = keep;
  const box = $("opponents");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let k = 0; k < players - 1; k++) {
    const label = document.createElement("label");
    label.textContent = `Opponent ${k + 1} `;
    const select = document.createElement("select");
    select.className = "opponent";
    for (const name of opponentChoices()) select.add(new Option(name, name));
    select.value = before[k] || (options.agents.includes("greedy") ? "greedy" : options.agents[0]);
    label.append(select);
    box.append(label);
  }
}

function seedValue() {
  const text = $("seed").value.trim();
  if (text === "") return null;
  return /^-?\d+$/.test(text) ? Number(text) : text; // the server names what is wrong
}

async function startGame(event) {
  event.preventDefault();
  const expansions = ["exp-genie", "exp-gifts"].filter((id) => $(id).checked).map((id) => $(id).value);
  const request = {
    players: Number($("players").value),
    variant: $("variant").value,
    expansions,
    opponents: [...document.querySelectorAll("#opponents select")].map((s) => s.value),
    seat: Number($("seat").value),
    seed: seedValue(),
  };
  $("start").disabled = true;
  try {
    showGame(await api("POST", "/api/games", request));
    showError("");
  } catch (error) {
    showError(error.message);
  } finally {
    $("start").disabled = false;
  }
}

// ------------------------------------------------------------------ the game
function showGame(g) {
  if (g.token) keepGame(g.id, { token: g.token }); // given once, when the game is created
  game = g;
  keepGame(g.id, { label: gameLabel(g) });
  history.replaceState(null, "", `#${g.id}`);
  show("game");
  const board = $("board");
  board.innerHTML = g.svg;
  board.dataset.decisions = g.decisions;
  board.dataset.gameId = g.id;
  $("status").textContent = statusText(g);
  showMoves(g);
  showLog(g);
  showFinal(g);
  $("download").hidden = !g.over; // the record tells every hidden card: only at the end
  $("download-replay").hidden = !g.over;
  refreshGames();
}

function gameLabel(g) {
  const state = g.over ? `over, seed ${g.seed}` : `decision ${g.decisions}`;
  return `${g.id}: ${g.config.num_players}p ${g.config.variant}, ${state}`;
}

function statusText(g) {
  const config = g.config;
  const rules = `${config.num_players} players, ${config.variant}${config.expansions.map((e) => " + " + e).join("")}`;
  const seed = g.seed === null ? "" : `, seed ${g.seed}`;
  const where = `game ${g.id}${seed}, ${rules}`;
  if (g.over) return `Game over after ${g.decisions} decisions (${where}).`;
  return `Year ${g.year}, your turn: ${g.phase.toLowerCase().replace("_", " ")} (${where}).`;
}

function showMoves(g) {
  // placements grouped by where they go (one line each), every other move on its own line
  const list = $("moves");
  list.innerHTML = "";
  let item = null;
  let head = null;
  for (const move of g.moves) {
    if (item === null || move.head === "" || move.head !== head) {
      item = document.createElement("li");
      if (move.head) {
        const span = document.createElement("span");
        span.className = "head";
        span.textContent = `${move.head}: `;
        item.append(span);
      }
      list.append(item);
      head = move.head;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.action = move.id;
    button.dataset.name = move.name;
    button.title = move.name;
    button.textContent = move.label;
    button.addEventListener("click", () => play(move.id));
    item.append(button);
  }
  $("move-count").textContent = g.moves.length ? `(${g.moves.length})` : "";
  $("your-moves").hidden = g.over;
  $("filter").value = "";
  $("hint").textContent = g.moves.length ? "Click a highlighted place on the board, or a move below." : "";
  const spots = new Set(g.moves.flatMap((m) => m.spots));
  for (const el of $("board").querySelectorAll("[data-spot]")) {
    el.classList.toggle("clickable", spots.has(el.dataset.spot));
  }
}

function filterMoves(keep) {
  for (const item of $("moves").children) {
    let shown = 0;
    for (const button of item.querySelectorAll("button.move")) {
      const keepIt = keep(button);
      button.classList.toggle("dim", !keepIt);
      shown += keepIt;
    }
    item.classList.toggle("dim", shown === 0);
  }
}

function showLog(g) {
  const log = $("log");
  log.innerHTML = "";
  for (const entry of g.log) {
    const item = document.createElement("li");
    item.className = entry.kind;
    item.value = entry.decision;
    item.textContent = entry.kind === "move" ? `${g.players[entry.seat]}: ${entry.text}` : entry.text;
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
  showRecent(g);
}

function showRecent(g) {
  // the opponents' moves and the scoring since the person's last move, on top
  const mine = g.log.map((e) => e.kind === "move" && e.seat === g.seat);
  const recent = g.log.slice(mine.lastIndexOf(true) + 1);
  const list = $("recent").querySelector("ul");
  list.innerHTML = "";
  for (const entry of recent) {
    const item = document.createElement("li");
    item.className = entry.kind;
    item.textContent = entry.kind === "move" ? `${g.players[entry.seat]}: ${entry.text}` : entry.text;
    list.append(item);
  }
  $("recent").hidden = recent.length === 0;
}

function showFinal(g) {
  const box = $("final");
  box.hidden = !g.final;
  if (!g.final) return;
  const heads = ["player", ...g.final.categories, "prestige"];
  const names = { most_towers: "towers", total: "final" };
  const rows = g.final.rows.map((row) => `<tr>${heads.map((h) => `<td>${row[h]}</td>`).join("")}</tr>`);
  const cells = heads.map((h) => `<th>${names[h] || h}</th>`).join("");
  box.innerHTML =
    `<h3>Final scoring</h3><table><thead><tr>${cells}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table><p class="winners">Winner(s): ${g.final.winners.join(", ")}</p>`;
}

async function play(action) {
  if (busy || !game || !game.your_turn) return;
  busy = true;
  document.querySelectorAll(".move").forEach((b) => (b.disabled = true));
  try {
    const body = { action, decision: game.decisions };
    showGame(await api("POST", `/api/games/${game.id}/moves`, body, tokenOf(game.id)));
    showError("");
  } catch (error) {
    showError(error.message);
    document.querySelectorAll(".move").forEach((b) => (b.disabled = false));
  } finally {
    busy = false;
  }
}

function boardClick(event) {
  const el = event.target.closest("[data-spot]");
  if (!el || !game || !game.your_turn) return;
  const spot = el.dataset.spot;
  const matching = game.moves.filter((m) => m.spots.includes(spot));
  if (matching.length === 1) {
    play(matching[0].id);
  } else if (matching.length > 1) {
    const ids = new Set(matching.map((m) => String(m.id)));
    filterMoves((button) => ids.has(button.dataset.action));
    $("hint").textContent = `${matching.length} moves there: choose one below.`;
  } else {
    $("hint").textContent = "No move of yours there now.";
  }
}

function refreshGames() {
  const games = Object.entries(myGames());
  const select = $("games");
  select.innerHTML = "";
  select.add(new Option(`your games (${games.length})…`, ""));
  for (const [id, g] of games) select.add(new Option(g.label || id, id));
  select.value = game ? game.id : "";
}

async function openGame(id) {
  const token = tokenOf(id);
  try {
    if (!token) throw new Error(`game ${id} is not one of this browser's games`);
    showGame(await api("GET", `/api/games/${id}`, undefined, token));
    showError("");
  } catch (error) {
    if (token) forgetGame(id); // gone: the server evicted it after a long idle time
    refreshGames();
    showError(error.message);
  }
}

// ------------------------------------------------------------------ replays
async function showFrame(k) {
  const frame = Math.max(0, Math.min(k, replay.frames - 1));
  $("frame").value = frame;
  $("frame-label").textContent = `position ${frame} of ${replay.frames - 1}`;
  const response = await request("GET", `${replay.url}/${frame}`, undefined, replay.token);
  if (!response.ok) return showError(errorText(await response.json(), response.status));
  $("replay-board").innerHTML = await response.text();
  $("replay-board").dataset.frame = frame;
}

function openReplay(url, frames, back, token) {
  stopTimer();
  replay = { url, frames, back, token };
  $("frame").max = frames - 1;
  $("back").hidden = back === null;
  show("replayer");
  showFrame(0);
}

function stopTimer() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $("play").textContent = "play";
}

function playReplay() {
  if (timer !== null) return stopTimer();
  let frame = Number($("frame").value);
  const tick = async () => {
    if (frame >= replay.frames - 1) return stopTimer();
    frame += 1;
    await showFrame(frame);
  };
  timer = setInterval(tick, 700);
  $("play").textContent = "pause";
}

async function uploadReplay(event) {
  const file = event.target.files[0];
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (error) {
    return showError(`${file.name} is not JSON: ${error.message}`);
  } finally {
    event.target.value = "";
  }
  try {
    const loaded = await api("POST", "/api/replays", record);
    showError("");
    openReplay(`/api/replays/${loaded.id}/frames`, loaded.frames, null, loaded.token);
  } catch (error) {
    showError(error.message);
  }
}

// ------------------------------------------------------------------ wiring
async function init() {
  options = await api("GET", "/api/options");
  fillSetup();
  $("players").addEventListener("change", fillSetup);
  $("setup-form").addEventListener("submit", startGame);
  $("board").addEventListener("click", boardClick);
  $("filter").addEventListener("input", () => {
    const text = $("filter").value.toLowerCase();
    filterMoves((button) => button.dataset.name.toLowerCase().includes(text));
  });
  $("new-game").addEventListener("click", () => {
    stopTimer();
    show("setup");
  });
  $("games").addEventListener("change", () => $("games").value && openGame($("games").value));
  $("replay").addEventListener("click", () =>
    openReplay(`/api/games/${game.id}/frames`, game.decisions + 1, game.id, tokenOf(game.id)),
  );
  $("download").addEventListener("click", (event) => {
    event.preventDefault();
    download(`/api/games/${game.id}/record`, `asara-${game.seed}.json`, tokenOf(game.id));
  });
  $("download-replay").addEventListener("click", (event) => {
    event.preventDefault();
    download(`/api/games/${game.id}/replay.svg`, `asara-${game.seed}-replay.svg`, tokenOf(game.id));
  });
  $("replay-file").addEventListener("change", uploadReplay);
  const step = (frame) => () => {
    stopTimer();
    showFrame(frame());
  };
  $("frame").addEventListener("input", step(() => Number($("frame").value)));
  $("first").addEventListener("click", step(() => 0));
  $("prev").addEventListener("click", step(() => Number($("frame").value) - 1));
  $("next").addEventListener("click", step(() => Number($("frame").value) + 1));
  $("last").addEventListener("click", step(() => replay.frames - 1));
  $("play").addEventListener("click", playReplay);
  $("back").addEventListener("click", () => {
    stopTimer();
    openGame(replay.back);
  });
  const id = location.hash.slice(1);
  if (id) await openGame(id);
  else refreshGames();
  document.body.dataset.ready = "1";
}

init().catch((error) => showError(error.message));
