// The page of both games: pick a game, start one, draw the board, play by clicking,
// replay and continue saved games. Everything it knows comes from the server's JSON API
// (apps/serve.py); each game's own drawing and move controls are window.GAME_UI[name]
// (asara.js, basari.js).
"use strict";

const $ = (id) => document.getElementById(id);
const UI = window.GAME_UI;
let options = null; // GET /api/options: {games: {name: options}}
let choice = "asara"; // the game the setup form is for
let game = null; // the game shown: GET /api/games/{id}
let busy = false; // a move is on its way: no second one
let seenDecisions = null; // the decisions the person had seen before the last move
let replay = null; // {game, url, frames, back: game id or null, token}
let loaded = null; // the upload shown: POST /api/uploads
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
    init.body = typeof body === "string" ? body : JSON.stringify(body);
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
  for (const id of ["setup", "loaded", "game", "replayer"]) $(id).hidden = id !== section;
}

// ------------------------------------------------------------------ choosing opponents
function agentOf(gameName, name) {
  return options.games[gameName].agents.find((a) => a.name === name);
}

function opponentRow(gameName, k, value) {
  // one opponent: an agent, and for a search agent its budget
  const opts = options.games[gameName];
  const row = document.createElement("div");
  row.className = "opponent-row";
  const label = document.createElement("label");
  label.textContent = `Opponent ${k + 1} `;
  const select = document.createElement("select");
  select.className = "opponent";
  for (const agent of opts.agents) {
    const text = agent.kind === "baseline" ? agent.name : `${agent.name} (${agent.kind})`;
    select.add(new Option(text, agent.name));
  }
  const [name, budgetText] = (value || opts.default_opponent).split(":");
  select.value = agentOf(gameName, name) ? name : opts.default_opponent;
  label.append(select);
  const budget = document.createElement("label");
  budget.className = "budget";
  budget.textContent = "budget (simulations) ";
  const number = document.createElement("input");
  number.type = "number";
  number.min = "1";
  number.className = "budget-value";
  number.value = (budgetText || "").replace(/^sims=/, "") || "64";
  budget.append(number);
  const sync = () => {
    budget.hidden = agentOf(gameName, select.value).kind !== "search";
  };
  select.addEventListener("change", sync);
  sync();
  row.append(label, budget);
  return row;
}

function opponentSpecs(box, gameName) {
  return [...box.querySelectorAll(".opponent-row")].map((row) => {
    const name = row.querySelector("select").value;
    const agent = agentOf(gameName, name);
    return agent && agent.kind === "search" ? `${name}:${agent.budget}=${row.querySelector(".budget-value").value}` : name;
  });
}

function fillOpponents(box, gameName, count, values) {
  box.querySelectorAll(".opponent-row").forEach((r) => r.remove());
  for (let k = 0; k < count; k++) box.append(opponentRow(gameName, k, values[k]));
}

function fillSeats(select, players, keep) {
  select.innerHTML = "";
  for (let s = 0; s < players; s++) select.add(new Option(`P${s}${s === 0 ? " (starts)" : ""}`, s));
  select.value = Math.min(keep, players - 1);
}

// ------------------------------------------------------------------ setting up a game
function chooseGame(name) {
  choice = name;
  $("game-choice").value = name;
  const opts = options.games[name];
  const players = $("players");
  players.innerHTML = "";
  for (const n of opts.players) players.add(new Option(n, n));
  players.value = opts.default_players || opts.players[0];
  const fields = $("game-fields");
  fields.querySelectorAll(":scope > :not(legend)").forEach((el) => el.remove());
  UI[name].setupFields(fields, opts);
  $("opponents").querySelectorAll(".opponent-row").forEach((r) => r.remove()); // another game's
  $("setup-title").textContent = `Start a game of ${name.toUpperCase()}`;
  fillSetup();
}

function fillSetup() {
  const players = Number($("players").value);
  fillSeats($("seat"), players, Number($("seat").value || 0));
  const before = opponentSpecs($("opponents"), choice);
  fillOpponents($("opponents"), choice, players - 1, before);
}

function seedValue() {
  const text = $("seed").value.trim();
  if (text === "") return null;
  return /^-?\d+$/.test(text) ? Number(text) : text; // the server names what is wrong
}

async function withProgress(button, work) {
  button.disabled = true;
  $("starting").hidden = false;
  try {
    await work();
    showError("");
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
    $("starting").hidden = true;
  }
}

async function startGame(event) {
  event.preventDefault();
  const body = {
    game: choice,
    players: Number($("players").value),
    opponents: opponentSpecs($("opponents"), choice),
    seat: Number($("seat").value),
    seed: seedValue(),
    ...UI[choice].setupRequest(),
  };
  await withProgress($("start"), async () => showGame(await api("POST", "/api/games", body)));
}

// ------------------------------------------------------------------ the game
function showGame(g) {
  if (g.token) keepGame(g.id, { token: g.token }); // given once, when the game is created
  const fresh = !game || game.id !== g.id;
  game = g;
  keepGame(g.id, { label: gameLabel(g) });
  history.replaceState(null, "", `#${g.id}`);
  show("game");
  const board = $("board");
  board.dataset.game = g.game;
  UI[g.game].drawBoard(board, g.board, g);
  board.dataset.decisions = g.decisions;
  board.dataset.gameId = g.id;
  board.dataset.game = g.game;
  $("status").textContent = `${g.status} (${g.game.toUpperCase()} game ${g.id}${g.seed === null ? "" : `, seed ${g.seed}`})`;
  showMoves(g);
  showLog(g, fresh);
  showFinal(g);
  $("downloads").hidden = !g.over; // the record tells every hidden card: only at the end
  $("download-replay").hidden = !g.animation;
  refreshGames();
}

function gameLabel(g) {
  const state = g.over ? `over, seed ${g.seed}` : `decision ${g.decisions}`;
  return `${g.game.toUpperCase()} ${g.id}: ${g.config.num_players}p, ${state}`;
}

function showMoves(g) {
  $("your-moves").hidden = g.over;
  $("move-count").textContent = g.moves.length ? `(${g.moves.length})` : "";
  $("hint").textContent = "";
  $("moves").innerHTML = "";
  $("move-panel").innerHTML = "";
  UI[g.game].showMoves(g, { play, panel: $("move-panel"), list: $("moves"), hint: $("hint"), board: $("board") });
  const spots = new Set(g.moves.flatMap((m) => m.spots || []));
  for (const el of $("board").querySelectorAll("[data-spot]")) {
    const on = spots.has(el.dataset.spot);
    el.classList.toggle("clickable", on);
    if (on) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", g.moves.filter((m) => (m.spots || []).includes(el.dataset.spot)).map((m) => m.name).join(" or "));
    }
  }
}

function entryText(g, entry) {
  return entry.seat === undefined ? entry.text : `${g.players[entry.seat]}: ${entry.text}`;
}

function showLog(g, fresh) {
  const log = $("log");
  log.innerHTML = "";
  for (const entry of g.log) {
    const item = document.createElement("li");
    item.className = entry.kind;
    item.value = entry.decision;
    item.textContent = entryText(g, entry);
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
  // what happened since the person's last move (on opening a game: its last events)
  const since = fresh || seenDecisions === null ? -1 : seenDecisions;
  const others = g.log.filter((e) => e.seat !== g.seat);
  const recent = since < 0 ? others.slice(-8) : others.filter((e) => e.decision > since);
  const list = $("recent").querySelector("ul");
  list.innerHTML = "";
  for (const entry of recent) {
    const item = document.createElement("li");
    item.className = entry.kind;
    item.textContent = entryText(g, entry);
    list.append(item);
  }
  $("recent").hidden = recent.length === 0;
}

function showFinal(g) {
  const box = $("final");
  box.hidden = !g.final;
  if (!g.final) return;
  const names = { most_towers: "towers", total: "final" };
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const column of g.final.columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = names[column] || column.replaceAll("_", " ");
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of g.final.rows) {
    const tr = body.insertRow();
    for (const column of g.final.columns) tr.insertCell().textContent = row[column];
  }
  const title = document.createElement("h3");
  title.textContent = "Final scoring";
  const winners = document.createElement("p");
  winners.className = "winners";
  winners.textContent = `Winner(s): ${g.final.winners.join(", ")}`;
  box.replaceChildren(title, table, winners);
}

async function play(action) {
  if (busy || !game || !game.your_turn) return;
  busy = true;
  document.querySelectorAll("#game button.move").forEach((b) => (b.disabled = true));
  try {
    const body = { action, decision: game.decisions };
    seenDecisions = game.decisions;
    showGame(await api("POST", `/api/games/${game.id}/moves`, body, tokenOf(game.id)));
    showError("");
  } catch (error) {
    showError(error.message);
    document.querySelectorAll("#game button.move").forEach((b) => (b.disabled = false));
  } finally {
    busy = false;
  }
}

function boardClick(event) {
  const el = event.target.closest("[data-spot]");
  if (!el || !game || !game.your_turn) return;
  UI[game.game].boardClick(el.dataset.spot, game, { play, list: $("moves"), hint: $("hint") });
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
    seenDecisions = null;
    game = null;
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
  $("frame-text").textContent = `${frame} of ${replay.frames - 1}`;
  const response = await request("GET", `${replay.url}/${frame}`, undefined, replay.token);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) return showError(errorText(data, response.status));
  $("replay-board").dataset.game = replay.game;
  UI[replay.game].drawBoard($("replay-board"), data, null);
  $("replay-board").dataset.frame = frame;
}

function openReplay(gameName, url, frames, back, token) {
  stopTimer();
  replay = { game: gameName, url, frames, back, token };
  $("frame").max = frames - 1;
  $("back").hidden = back === null;
  show("replayer");
  showFrame(0);
}

function stopTimer() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $("play").classList.remove("playing");
  $("play").setAttribute("aria-label", "play");
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
  $("play").classList.add("playing");
  $("play").setAttribute("aria-label", "pause");
}

// ------------------------------------------------------------------ saved games
async function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  let text;
  try {
    text = await file.text();
  } finally {
    event.target.value = "";
  }
  const players = Number($("players").value);
  try {
    // the server reads the file: it names what is wrong with it (not JSON included)
    loaded = await api("POST", `/api/uploads?game=${choice}&players=${players}`, text);
    showError("");
    showLoaded(file.name);
  } catch (error) {
    showError(`${file.name}: ${error.message}`);
  }
}

function showLoaded(name) {
  const who = loaded.lineup ? `, played by ${loaded.lineup.map((n, s) => `P${s} (${n || "you"})`).join(", ")}` : "";
  const end = loaded.over ? "a finished" : "an unfinished";
  $("loaded-text").textContent = `${name}: ${end} ${loaded.players}-player ${loaded.game.toUpperCase()} ${loaded.kind}, ${loaded.frames - 1} decisions${who}.`;
  $("continue-form").hidden = loaded.over;
  const seat = loaded.seat === null ? Number($("seat").value) : loaded.seat;
  fillSeats($("continue-seat"), loaded.players, seat);
  const same = loaded.lineup ? loaded.lineup.filter((n) => n !== null) : opponentSpecs($("opponents"), choice);
  fillOpponents($("continue-opponents"), loaded.game, loaded.players - 1, same);
  show("loaded");
}

async function continueGame(event) {
  event.preventDefault();
  const body = { opponents: opponentSpecs($("continue-opponents"), loaded.game), seat: Number($("continue-seat").value) };
  $("starting").hidden = false;
  $("continue").disabled = true;
  try {
    game = null;
    seenDecisions = null;
    showGame(await api("POST", `/api/uploads/${loaded.id}/continue`, body, loaded.token));
    showError("");
  } catch (error) {
    showError(error.message);
  } finally {
    $("continue").disabled = false;
    $("starting").hidden = true;
  }
}

// ------------------------------------------------------------------ wiring
async function init() {
  options = await api("GET", "/api/options");
  const asked = new URLSearchParams(location.search).get("game");
  chooseGame(options.games[asked] ? asked : "asara");
  $("game-choice").addEventListener("change", () => {
    chooseGame($("game-choice").value);
    show("setup");
  });
  $("players").addEventListener("change", fillSetup);
  $("setup-form").addEventListener("submit", startGame);
  $("continue-form").addEventListener("submit", continueGame);
  $("board").addEventListener("click", boardClick);
  $("board").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      boardClick(event);
    }
  });
  $("new-game").addEventListener("click", () => {
    stopTimer();
    show("setup");
  });
  $("games").addEventListener("change", () => $("games").value && openGame($("games").value));
  $("replay").addEventListener("click", () =>
    openReplay(game.game, `/api/games/${game.id}/frames`, game.decisions + 1, game.id, tokenOf(game.id)),
  );
  $("loaded-replay").addEventListener("click", () =>
    openReplay(loaded.game, `/api/uploads/${loaded.id}/frames`, loaded.frames, null, loaded.token),
  );
  $("download").addEventListener("click", (event) => {
    event.preventDefault();
    download(`/api/games/${game.id}/record`, `${game.game}-${game.seed}.json`, tokenOf(game.id));
  });
  $("download-replay").addEventListener("click", (event) => {
    event.preventDefault();
    download(`/api/games/${game.id}/replay.svg`, `${game.game}-${game.seed}-replay.svg`, tokenOf(game.id));
  });
  $("upload-file").addEventListener("change", upload);
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
