// BASARI's part of the page: its rules choices, its board (an SVG drawn by the server,
// asara_env/basari/render_svg.py, clickable where a move can be chosen) and its moves:
// start archways, cards, barter steps.
"use strict";

window.GAME_UI = window.GAME_UI || {};

const GEM_FILL = ["#d62728", "#f2c230", "#2ca02c", "#1f77b4"]; // as the board draws them
function bundleText(bundle, colours) {
  const parts = bundle.map((n, c) => (n ? `${n} ${colours[c]}` : "")).filter(Boolean);
  return parts.length ? parts.join(" + ") : "nothing";
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

  drawBoard(element, board) {
    element.innerHTML = board.svg;
  },

  showMoves(g, ui) {
    const board = g.position;
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
      ui.hint.textContent = "Choose your card (here or on the board): the others choose at the same time. Two on one card barter for it; three or more cancel it.";
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
      ui.hint.textContent = "Build an offer gem by gem (here or on your gems on the board) and submit it (higher than the standing offer), accept the standing offer, or forfeit.";
    }
  },

  boardClick(spot, g, ui) {
    const move = g.moves.find((m) => (m.spots || []).includes(spot));
    if (move) ui.play(move.id);
    else ui.hint.textContent = "No move of yours there now.";
  },
};
