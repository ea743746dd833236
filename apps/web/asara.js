// ASARA's part of the page: its rules choices, its board (an SVG drawn by the server,
// asara_env/asara/render_svg.py) and its moves, placed on the board or listed.
"use strict";

window.GAME_UI = window.GAME_UI || {};

window.GAME_UI.asara = {
  setupFields(box, options) {
    const variant = document.createElement("label");
    variant.textContent = "Rules ";
    const select = document.createElement("select");
    select.id = "variant";
    for (const name of options.variants) select.add(new Option(name === "pro" ? "professional" : name, name));
    variant.append(select);
    box.append(variant);
    const names = { genie: "the Bottle Genie (professional)", gifts: "the Gifts of the Caliph" };
    for (const expansion of options.expansions) {
      const label = document.createElement("label");
      const check = document.createElement("input");
      check.type = "checkbox";
      check.id = `exp-${expansion}`;
      check.value = expansion;
      check.className = "expansion";
      label.append(check, ` ${names[expansion] || expansion}`);
      box.append(label);
    }
  },

  setupRequest() {
    const expansions = [...document.querySelectorAll("#game-fields .expansion")].filter((c) => c.checked).map((c) => c.value);
    return { variant: document.getElementById("variant").value, expansions };
  },

  drawBoard(element, board) {
    element.innerHTML = board.svg;
  },

  showMoves(g, ui) {
    // placements grouped by where they go (one line each), every other move on its own line
    if (g.moves.length) {
      const filter = document.createElement("input");
      filter.id = "filter";
      filter.placeholder = "filter moves (e.g. bank, red, tower #2)";
      filter.setAttribute("aria-label", "filter your moves");
      filter.addEventListener("input", () => {
        const text = filter.value.toLowerCase();
        filterMoves(ui.list, (button) => button.dataset.name.toLowerCase().includes(text));
      });
      ui.panel.append(filter);
      ui.hint.textContent = "Click a highlighted place on the board, or a move below.";
    }
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
        ui.list.append(item);
        head = move.head;
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.action = move.id;
      button.dataset.name = move.name;
      button.title = move.name;
      button.setAttribute("aria-label", move.name);
      button.textContent = move.label;
      button.addEventListener("click", () => ui.play(move.id));
      item.append(button);
    }
  },

  boardClick(spot, g, ui) {
    const matching = g.moves.filter((m) => m.spots.includes(spot));
    if (matching.length === 1) {
      ui.play(matching[0].id);
    } else if (matching.length > 1) {
      const ids = new Set(matching.map((m) => String(m.id)));
      filterMoves(ui.list, (button) => ids.has(button.dataset.action));
      ui.hint.textContent = `${matching.length} moves there: choose one below.`;
    } else {
      ui.hint.textContent = "No move of yours there now.";
    }
  },
};

function filterMoves(list, keep) {
  for (const item of list.children) {
    let shown = 0;
    for (const button of item.querySelectorAll("button.move")) {
      const keepIt = keep(button);
      button.classList.toggle("dim", !keepIt);
      shown += keepIt;
    }
    item.classList.toggle("dim", shown === 0);
  }
}
