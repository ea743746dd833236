// BASARI's part of the page: its rules choices, its board (drawn here as an SVG from the
// position the server sends: archways with their points and gems, merchants, start disks,
// the carpet, the running barter) and its moves: start archways, cards, barter steps.
"use strict";

window.GAME_UI = window.GAME_UI || {};

const GEM_FILL = ["#c0392b", "#f1c40f", "#27ae60", "#2980b9"];
const SEAT_FILL = ["#8e44ad", "#e67e22", "#16a085", "#34495e"];
const CELL = 84; // one archway's square on the board
const SIDE = 8; // archways per side of the square board (28 = the perimeter of 8 x 8)
const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, value);
  if (text !== undefined) el.textContent = text;
  return el;
}

function archwayCell(k, n) {
  // the square's perimeter clockwise from the top left corner; other boards on a circle
  if (n !== 4 * (SIDE - 1)) {
    const angle = (2 * Math.PI * k) / n - Math.PI / 2;
    const r = (SIDE * CELL) / 2 - CELL / 2;
    return [SIDE * CELL / 2 + r * Math.cos(angle) - CELL / 2, SIDE * CELL / 2 + r * Math.sin(angle) - CELL / 2];
  }
  const last = SIDE - 1;
  if (k < last) return [k * CELL, 0];
  if (k < 2 * last) return [last * CELL, (k - last) * CELL];
  if (k < 3 * last) return [(3 * last - k) * CELL, last * CELL];
  return [0, (4 * last - k) * CELL];
}

function seatName(s, viewer) {
  return `P${s}${s === viewer ? " (you)" : ""}`;
}

function gemDots(group, x, y, counts, size) {
  let i = 0;
  counts.forEach((count, colour) => {
    for (let j = 0; j < count; j++) {
      group.append(svgEl("circle", { cx: x + i * (size * 2 + 2), cy: y, r: size, fill: GEM_FILL[colour], stroke: "#333", "stroke-width": 0.8 }));
      i += 1;
    }
  });
}

function bundleText(bundle, colours) {
  const parts = bundle.map((n, c) => (n ? `${n} ${colours[c]}` : "")).filter(Boolean);
  return parts.length ? parts.join(" + ") : "nothing";
}

function drawArchways(svg, board, viewer) {
  const n = board.archways.length;
  board.archways.forEach(([points, ...gems], k) => {
    const [x, y] = archwayCell(k, n);
    const g = svgEl("g", { class: "archway", "data-spot": `archway:${k}`, "data-archway": k });
    g.append(svgEl("title", {}, `archway ${k}: ${points} points, gems ${bundleText(gems, board.colours)}`));
    g.append(svgEl("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6, fill: "#f7ecd2", stroke: "#8a7a5a" }));
    g.append(svgEl("text", { x: x + 6, y: y + 15, "font-size": 10, fill: "#666" }, `#${k}`));
    g.append(svgEl("text", { x: x + CELL - 8, y: y + 22, "font-size": 18, "font-weight": "bold", "text-anchor": "end" }, `${points}`));
    gemDots(g, x + 10, y + 34, gems, 4);
    svg.append(g);
  });
  board.seats.forEach((seat, s) => {
    if (seat.start >= 0) {
      const [x, y] = archwayCell(seat.start, n);
      svg.append(svgEl("rect", { x: x + 6 + s * 18, y: y + CELL - 16, width: 12, height: 8, fill: "none", stroke: SEAT_FILL[s], "stroke-width": 2, class: "start-disk" }));
    }
    if (seat.position >= 0) {
      const [x, y] = archwayCell(seat.position, n);
      const cx = x + 14 + s * 18;
      const cy = y + CELL - 30;
      const merchant = svgEl("g", { class: "merchant", "data-seat": s });
      merchant.append(svgEl("title", {}, `${seatName(s, viewer)}'s merchant`));
      merchant.append(svgEl("circle", { cx, cy, r: 8, fill: SEAT_FILL[s], stroke: s === viewer ? "#000" : "white", "stroke-width": 2 }));
      merchant.append(svgEl("text", { x: cx, y: cy + 4, "font-size": 10, fill: "white", "text-anchor": "middle" }, `${s}`));
      svg.append(merchant);
    }
  });
}

function drawCentre(svg, board, viewer) {
  const left = CELL + 16;
  let y = CELL + 30;
  const line = (text, attrs) => {
    svg.append(svgEl("text", { x: left, y, "font-size": 14, ...(attrs || {}) }, text));
    y += 20;
  };
  line(`BASARI · round ${board.round}/${board.rounds} · turn ${board.turn} · ${board.phase.toLowerCase()}`, { "font-weight": "bold", "font-size": 16, class: "status" });
  line(viewer === null ? "everything shown (a replay)" : `as seen by ${seatName(viewer, viewer)}`, { fill: "#666", "font-size": 12 });
  const carpet = svgEl("g", { class: "carpet" });
  carpet.append(svgEl("text", { x: left, y, "font-size": 13 }, "carpet:"));
  board.carpet.forEach((count, c) => {
    carpet.append(svgEl("circle", { cx: left + 70 + c * 60, cy: y - 5, r: 7, fill: GEM_FILL[c], stroke: "#333" }));
    carpet.append(svgEl("text", { x: left + 82 + c * 60, y, "font-size": 13 }, `${count}`));
  });
  svg.append(carpet);
  y += 26;
  // the seats: score, gems, progress, this turn's roll and card
  const head = ["seat", "score", "gems", "moved", "roll", "card"];
  const xs = [0, 90, 150, 330, 385, 425];
  head.forEach((h, i) => svg.append(svgEl("text", { x: left + xs[i], y, "font-size": 12, fill: "#555" }, h)));
  y += 18;
  board.seats.forEach((seat, s) => {
    const row = svgEl("g", { class: "seat-row", "data-seat": s });
    row.append(svgEl("circle", { cx: left + 6, cy: y - 5, r: 6, fill: SEAT_FILL[s] }));
    row.append(svgEl("text", { x: left + 16, y, "font-size": 13, "font-weight": s === viewer ? "bold" : "normal" }, seatName(s, viewer)));
    row.append(svgEl("text", { x: left + xs[1], y, "font-size": 13 }, `${seat.score}`));
    seat.gems.forEach((count, c) => {
      row.append(svgEl("circle", { cx: left + xs[2] + 6 + c * 44, cy: y - 5, r: 6, fill: GEM_FILL[c], stroke: "#333" }));
      row.append(svgEl("text", { x: left + xs[2] + 16 + c * 44, y, "font-size": 13 }, `${count}`));
    });
    row.append(svgEl("text", { x: left + xs[3], y, "font-size": 12 }, `${seat.progress}/${board.archways.length}`));
    row.append(svgEl("text", { x: left + xs[4], y, "font-size": 12 }, seat.move_roll ? `${seat.move_roll}` : "–"));
    row.append(svgEl("text", { x: left + xs[5], y, "font-size": 12 }, seat.revealed >= 0 ? board.cards[seat.revealed] : "–"));
    svg.append(row);
    y += 22;
  });
  y += 10;
  const barter = board.barter;
  if (barter) {
    const box = svgEl("g", { class: "barter" });
    box.append(svgEl("rect", { x: left - 6, y: y - 16, width: (SIDE - 2) * CELL - 20, height: 84, rx: 6, fill: "#f1ecfa", stroke: "#3b2f5c" }));
    const text = (t, dy, bold) => box.append(svgEl("text", { x: left, y: y + dy, "font-size": 13, "font-weight": bold ? "bold" : "normal" }, t));
    text(`Barter for ${barter.card}: ${seatName(barter.opener, viewer)} opens, ${seatName(barter.responder, viewer)} responds; ${seatName(barter.to_act, viewer)} to act`, 0, true);
    text(barter.offer ? `standing offer: ${bundleText(barter.offer, board.colours)} by ${seatName(barter.offer_by, viewer)} (offer ${barter.offers})` : "no offer yet", 22);
    text(barter.pending ? `bundle being built: ${bundleText(barter.pending, board.colours)}` : "", 44);
    svg.append(box);
  }
}

window.GAME_UI.basari = {
  setupFields(box, options) {
    const label = document.createElement("label");
    label.textContent = "Start archways ";
    const select = document.createElement("select");
    select.id = "start-mode";
    const names = { choose: "chosen by each player", random: "drawn at random" };
    for (const mode of options.start_modes) select.add(new Option(names[mode] || mode, mode));
    label.append(select);
    box.append(label);
  },

  setupRequest() {
    return { start_mode: document.getElementById("start-mode").value };
  },

  drawBoard(element, board, g) {
    const viewer = g ? g.seat : null;
    const size = SIDE * CELL;
    const svg = svgEl("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": "the BASARI board" });
    svg.append(svgEl("rect", { x: 0, y: 0, width: size, height: size, fill: "#fffdf6" }));
    drawArchways(svg, board, viewer);
    drawCentre(svg, board, viewer);
    element.replaceChildren(svg);
  },

  showMoves(g, ui) {
    const board = g.board;
    const button = (move, text) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.dataset.action = move.id;
      b.dataset.group = move.group;
      b.dataset.name = move.name;
      b.title = move.name;
      b.setAttribute("aria-label", move.name);
      b.textContent = text;
      b.addEventListener("click", () => ui.play(move.id));
      return b;
    };
    const row = (moves, text) => {
      const box = document.createElement("div");
      box.className = "choices";
      for (const move of moves) box.append(button(move, text(move)));
      ui.panel.append(box);
      return box;
    };
    const of = (group) => g.moves.filter((m) => m.group === group);
    if (of("start").length) {
      ui.hint.textContent = "Click a highlighted archway on the board, or an archway below.";
      row(of("start"), (m) => `${m.arg}`).classList.add("starts");
    }
    if (of("card").length) {
      const me = board.seats[g.seat];
      const archway = board.archways[me.position];
      const texts = [
        "Die: roll, move on and score 6 − the roll",
        `Points: +${archway[0]}`,
        `Gemstones: ${bundleText(archway.slice(1), board.colours)}`,
      ];
      ui.hint.textContent = "Choose your card: the others choose at the same time. Two on one card barter for it; three or more cancel it.";
      row(of("card"), (m) => texts[m.arg]);
    }
    const barterMoves = ["add", "submit", "accept", "forfeit"].flatMap(of);
    if (barterMoves.length) {
      const bundle = board.barter && board.barter.pending ? bundleText(board.barter.pending, board.colours) : "nothing";
      const p = document.createElement("p");
      p.className = "bundle";
      p.textContent = `Your bundle so far: ${bundle}.`;
      ui.panel.append(p);
      const adds = row(of("add"), (m) => `+ ${board.colours[m.arg]}`);
      adds.querySelectorAll("button").forEach((b, i) => {
        const dot = document.createElement("span");
        dot.className = "gem";
        dot.style.background = GEM_FILL[of("add")[i].arg];
        b.prepend(dot, " ");
      });
      const names = { submit: "Submit the offer", accept: "Accept the offer", forfeit: "Forfeit (offer nothing)" };
      row(["submit", "accept", "forfeit"].flatMap(of), (m) => names[m.group]);
      ui.hint.textContent = "Build an offer gem by gem and submit it (higher than the standing offer), accept the standing offer, or forfeit.";
    }
  },

  boardClick(spot, g, ui) {
    const move = g.moves.find((m) => (m.spots || []).includes(spot));
    if (move) ui.play(move.id);
    else ui.hint.textContent = "No move of yours there now.";
  },
};
