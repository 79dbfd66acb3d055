// The page of `rulecraft serve`: edit a ruleset (checked as you type), see the board,
// play by clicking. The server keeps nothing: every request sends the ruleset's text and
// the plies made so far (see interpreter/apps/web/api.py).
"use strict";

const MACHINES = ["random", "mcts:200", "mcts:1000", "alphabeta:2", "alphabeta:4", "perfect"];
const CHECK_DELAY = 300; // ms after the last keystroke
const MIN_CELL = 28;  // px between neighbouring cells, at least: a fingertip's target

const $ = (id) => document.getElementById(id);
const game = {
  text: "",          // the ruleset's text, as last checked
  ruleset: null,     // the bundled ruleset chosen (the server tells whether the text is still it)
  bundledText: "",   // its text as bundled: an edit differs from it
  plies: [],         // the plies made, in notation
  sides: [],         // who plays each side: "human" or a machine
  names: [],         // the players' names
  seed: 1,
  view: null,        // the server's last view
  selected: null,    // the cell clicked
  generation: 0,     // bumped by every change, so that late answers are dropped
  ok: false,         // whether the text checks
};
let checkTimer = null;
let checkWaiting = false;  // a check scheduled after an edit: the page counts as busy till it runs
let checkNumber = 0;
let pending = 0;  // requests under way, and a check scheduled: the body's data-busy says whether any

function working(change) {
  pending += change;
  document.body.dataset.busy = pending > 0 ? "true" : "false";
}

async function call(op, body) {
  working(+1);
  try {
    const response = await fetch(`/api/${op}`, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
    });
    try {
      return await response.json();
    } catch (e) {
      return {error: `the server answered ${response.status} without JSON`};
    }
  } catch (e) {
    return {error: `the server cannot be reached (${e.message})`};
  } finally {
    setTimeout(() => working(-1), 0);  // after the caller has shown the answer
  }
}

function request(extra) {
  return Object.assign({text: game.text, ruleset: game.ruleset, plies: game.plies}, extra);
}

function say(text) {
  $("message").textContent = text || "";
}

// ------------------------------------------------------------------ the editor

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return starts;
}

function offsetOf(starts, text, line, col) {
  const start = starts[Math.min(Math.max(line, 1), starts.length) - 1];
  return Math.min(start + col - 1, text.length);
}

function escapeHtml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function spansOf(diagnostics, text) {
  const starts = lineStarts(text);
  return diagnostics.filter((d) => d.in_text && d.line !== null).map((d) => {
    const from = offsetOf(starts, text, d.line, d.col);
    const to = Math.max(offsetOf(starts, text, d.end_line, d.end_col), from + 1);
    return [from, Math.min(to, text.length), d];
  });
}

function drawEditor(diagnostics) {
  const text = $("source").value;
  const bad = new Set(diagnostics.filter((d) => d.in_text && d.line).map((d) => d.line));
  const count = lineStarts(text).length;
  const numbers = [];
  for (let n = 1; n <= count; n++) {
    numbers.push(`<span class="ln${bad.has(n) ? " err" : ""}">${n}</span>`);
  }
  $("gutter").innerHTML = numbers.join("\n") + "\n";
  const spans = spansOf(diagnostics, text).sort((a, b) => a[0] - b[0]);
  let html = "", at = 0;
  for (const [from, to] of spans) {
    if (to <= at) continue;
    const start = Math.max(from, at);
    html += escapeHtml(text.slice(at, start));
    html += `<mark>${escapeHtml(text.slice(start, to)) || " "}</mark>`;
    at = to;
  }
  $("backdrop").innerHTML = html + escapeHtml(text.slice(at)) + "\n ";
  syncScroll();
}

function syncScroll() {
  const src = $("source");
  $("backdrop").scrollTop = src.scrollTop;
  $("backdrop").scrollLeft = src.scrollLeft;
  $("gutter").scrollTop = src.scrollTop;
}

function showSpan(d) {
  const src = $("source");
  const [[from, to]] = spansOf([d], src.value);
  src.focus();
  src.setSelectionRange(from, to);
  const lineHeight = parseFloat(getComputedStyle(src).lineHeight) || 18;
  src.scrollTop = Math.max(0, (d.line - 3) * lineHeight);
  syncScroll();
}

function showDiagnostics(diagnostics) {
  const list = $("diagnostics");
  list.replaceChildren();
  for (const d of diagnostics) {
    const item = document.createElement("li");
    const where = d.line === null ? `${d.file}` : d.in_text ? `${d.line}:${d.col}` : `${d.file}:${d.line}:${d.col}`;
    const head = document.createElement("span");
    head.className = "diagnostic";
    head.textContent = `${where}: ${d.message}`;
    item.append(head);
    if (d.hint) {
      const hint = document.createElement("span");
      hint.className = "hint";
      hint.textContent = `hint: ${d.hint}`;
      item.append(hint);
    }
    if (d.in_text && d.line !== null) {
      item.tabIndex = 0;
      item.classList.add("clickable");
      item.addEventListener("click", () => showSpan(d));
      item.addEventListener("keydown", (e) => { if (e.key === "Enter") showSpan(d); });
    }
    list.append(item);
  }
  drawEditor(diagnostics);
}

async function checkNow() {
  clearTimeout(checkTimer);
  const text = $("source").value;
  const number = ++checkNumber;
  $("check-status").textContent = "checking…";
  const checking = call("check", {text});  // busy from here, so the scheduled check may let go
  if (checkWaiting) {
    checkWaiting = false;
    working(-1);
  }
  const answer = await checking;
  if (number !== checkNumber) return;  // the text changed since
  if (answer.error) {
    $("check-status").textContent = answer.error;
    showDiagnostics([]);
    return;
  }
  showDiagnostics(answer.diagnostics);
  game.ok = answer.ok;
  document.body.classList.toggle("broken", !answer.ok);
  if (!answer.ok) {
    const n = answer.diagnostics.length;
    $("check-status").textContent = `${n} error${n === 1 ? "" : "s"}: fix ${n === 1 ? "it" : "them"} to play`;
    return;
  }
  $("check-status").textContent = `ok: ${answer.title}`;
  const changed = text !== game.text;
  game.text = text;
  perfectKnown(text, answer.perfect);
  if (changed || !game.view) await gameChanged(answer.players);
}

function textEdited() {
  saveLocal();
  clearTimeout(checkTimer);
  drawEditor([]);
  if (!checkWaiting) {  // a click made before the edit is checked would be on the old rules
    checkWaiting = true;
    working(+1);
  }
  checkTimer = setTimeout(checkNow, CHECK_DELAY);
}

// ------------------------------------------------------------------ sides

function drawSides(names) {
  const same = names.length === game.names.length && names.every((n, k) => n === game.names[k]);
  if (!same) {
    game.sides = names.map((_, k) => (k === 0 ? "human" : "random"));
  }
  game.names = names;
  const box = $("sides");
  box.replaceChildren();
  names.forEach((name, k) => {
    const label = document.createElement("label");
    label.textContent = `${name} `;
    const select = document.createElement("select");
    select.id = `side-${k}`;
    select.dataset.side = String(k);
    for (const spec of ["human", ...MACHINES]) {
      const option = document.createElement("option");
      option.value = option.textContent = spec;
      select.append(option);
    }
    select.value = game.sides[k];
    select.addEventListener("change", () => {
      game.sides[k] = select.value;
      game.generation++;
      machineTurn();
    });
    label.append(select);
    box.append(label);
  });
  drawPerfect();
}

// `perfect` is offered where it can play: the server knows for two-player bundled rulesets
// (worked out ahead); an edited ruleset shows "perfect (solves first)", and is solved when
// chosen. Where it cannot play it is not offered, and the note under the players says why.
const perfect = {text: null, offered: null, why: "", solved: null};

function perfectKnown(text, known) {
  Object.assign(perfect, {text, offered: known.offered, why: known.why});
  drawPerfect();
}

// The game solved for `perfect` (once a text): whether it can play.
async function solveForPerfect(text) {
  if (perfect.solved === text) return true;
  const answer = await call("perfect", {text});
  if (perfect.text !== text) return false;
  perfect.offered = answer.perfect === true;
  perfect.why = perfect.offered ? "" : answer.why || `perfect play is not offered: ${answer.error}`;
  if (perfect.offered) perfect.solved = text;
  drawPerfect();
  return perfect.offered;
}

function drawPerfect() {
  for (const select of $("sides").querySelectorAll("select")) {
    const option = select.querySelector('option[value="perfect"]');
    if (!option) continue;
    if (perfect.offered === false) {
      if (select.value === "perfect") select.value = game.sides[Number(select.dataset.side)] = "human";
      option.remove();
    } else {
      option.textContent = perfect.offered === true ? "perfect" : "perfect (solves first)";
    }
  }
  $("machines-note").textContent = perfect.why;
}

async function gameChanged(names) {
  drawSides(names);
  game.generation++;
  game.selected = null;
  const answer = await call("view", request({lenient: true}));
  if (answer.error) return say(answer.error);
  show(answer);
  if (answer.dropped) say(`${answer.dropped} of the plies made are not legal under the new rules: the game goes on from before them`);
  machineTurn();
}

// ------------------------------------------------------------------ the board

function sideToMove() {
  const view = game.view;
  if (!view || view.result !== null) return null;
  return game.sides[view.players.indexOf(view.to_move)];
}

// The text and the game survive a reload: kept in the browser's storage as they change.
const STORE = "rulecraft.page";

function saveLocal() {
  try {
    localStorage.setItem(STORE, JSON.stringify({ruleset: game.ruleset, text: $("source").value,
                                                plies: game.plies, names: game.names, sides: game.sides}));
  } catch (e) { /* storage full or refused: the page works on without it */ }
}

function savedLocal() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    return saved && typeof saved.text === "string" && Array.isArray(saved.plies) ? saved : null;
  } catch (e) { return null; }
}

// The board fills its pane; on a narrow screen a large board keeps legible cells and
// scrolls sideways (the picture's data-unit: its units between neighbouring cells).
function drawBoard(svg) {
  $("board").innerHTML = svg;
  const picture = $("board").querySelector("svg");
  if (!picture) return;
  const unit = Number(picture.dataset.unit) || 48;
  picture.style.minWidth = `${Math.round(picture.viewBox.baseVal.width * MIN_CELL / unit)}px`;
}

function show(view) {
  game.view = view;
  game.plies = view.plies;
  saveLocal();
  toAddress();
  $("title").textContent = view.title;
  drawBoard(view.svg);
  for (const el of $("board").querySelectorAll("[data-cell]")) {
    const cell = el.getAttribute("data-cell");
    if (cell === view.selected) el.classList.add("selected");
  }
  const cause = view.cause ? ` (${view.cause})` : "";
  $("status").textContent = view.result !== null ? `Game over: ${view.result}${cause}` : `${view.to_move} to move`;
  $("status").classList.remove("thinking");
  const legal = $("legal");
  legal.replaceChildren();
  for (const p of view.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ply";
    button.textContent = p.ply;
    button.addEventListener("click", () => humanPly(p.ply));
    legal.append(button);
  }
  const moves = $("moves");
  moves.replaceChildren();
  let turn = 0;  // one item a turn, its plies together, as records number them
  view.moves.forEach((m, k) => {
    if (m.number === turn) {
      moves.lastChild.textContent += ` ${m.ply}`;
      moves.lastChild.dataset.plies = String(k + 1);
      return;
    }
    turn = m.number;
    const item = document.createElement("li");
    item.textContent = `${m.player} ${m.ply}`;
    item.dataset.plies = String(k + 1);  // the plies made up to the end of this turn
    item.tabIndex = 0;
    item.addEventListener("click", () => review(Number(item.dataset.plies), item));
    moves.append(item);
  });
  game.reviewing = false;
  moves.scrollTop = moves.scrollHeight;
  hideChooser();
}

function humanToMove() {
  return game.ok && !game.reviewing && sideToMove() === "human";
}

// A click on the move list shows the position after that turn; the last turn, the game.
async function review(plies, item) {
  if (plies >= game.plies.length) {
    game.reviewing = false;
    return gameChanged(game.names);
  }
  const answer = await call("view", request({plies: game.plies.slice(0, plies)}));
  if (answer.error) return say(answer.error);
  game.reviewing = true;
  drawBoard(answer.svg);
  for (const li of $("moves").children) li.classList.toggle("reviewed", li === item);
  $("status").textContent = `After move ${[...$("moves").children].indexOf(item) + 1} (click the last move to play on)`;
  say("");
}

// Why a click on the board makes no ply (said, rather than nothing happening).
function whyNoPly() {
  if (game.reviewing) return "an earlier position is shown: click the last move to play on";
  if (!game.ok) return "the ruleset has errors: fix them (listed beside the text) to play";
  if (!game.view || game.view.result !== null) return "the game is over: start a new game to play again";
  return `${game.view.to_move} is played by the machine (${sideToMove()}): wait for its ply`;
}

async function select(cell) {
  const generation = ++game.generation;
  const answer = await call("view", request({select: cell}));
  if (generation !== game.generation) return;
  if (answer.error) return say(answer.error);
  game.selected = answer.selected;
  show(answer);
}

function cellClicked(cell) {
  if (!humanToMove()) return say(whyNoPly());
  say("");
  const legal = game.view.legal;
  if (game.selected !== null) {
    const moves = legal.filter((p) => p.from.includes(game.selected) && p.to.includes(cell));
    if (moves.length) return choose(moves);
  }
  if (legal.some((p) => p.from.includes(cell))) {
    return select(cell === game.selected ? null : cell);
  }
  const placed = legal.filter((p) => p.from.length === 0 && p.to.includes(cell));
  if (placed.length) return choose(placed);
  if (game.selected !== null) select(null);
  say(`no legal ply from or to ${cell}`);
}

function choose(plies) {
  if (plies.length === 1) return humanPly(plies[0].ply);
  const box = $("chooser-plies");
  box.replaceChildren();
  for (const p of plies) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.textContent = p.ply;
    button.addEventListener("click", () => humanPly(p.ply));
    box.append(button);
  }
  $("chooser").hidden = false;
}

function hideChooser() {
  $("chooser").hidden = true;
}

async function humanPly(ply) {
  if (!humanToMove()) return;
  const generation = ++game.generation;
  game.selected = null;
  const answer = await call("play", request({ply}));
  if (generation !== game.generation) return;
  if (answer.error) return say(answer.error);
  say("");
  show(answer);
  machineTurn();
}

async function machineTurn() {
  const side = sideToMove();
  if (!game.ok || side === null || side === "human") return;
  const generation = game.generation;
  $("status").classList.add("thinking");
  if (side === "perfect" && perfect.solved !== game.text) {
    $("status").textContent = `${game.view.to_move} (perfect) is solving the game first…`;
    const solved = await solveForPerfect(game.text);
    if (generation !== game.generation) return;
    if (!solved) return handToPerson(perfect.why);
  }
  $("status").textContent = `${game.view.to_move} (${side}) is thinking…`;
  const answer = await call("machine", request({player: side, seed: game.seed}));
  if (generation !== game.generation) return;
  if (answer.error) return handToPerson(answer.error);
  game.generation++;
  show(answer);
  setTimeout(machineTurn, 0);
}

// A machine that cannot play here gives its side to a person, saying why: no stalled game.
function handToPerson(why) {
  const k = game.names.indexOf(game.view.to_move);
  game.sides[k] = "human";
  $(`side-${k}`).value = "human";
  saveLocal();
  $("status").classList.remove("thinking");
  $("status").textContent = `${game.view.to_move} to move`;
  say(`${why}; ${game.view.to_move} is played by a person now: choose another machine to let one play`);
}

// ------------------------------------------------------------------ buttons

async function undo() {
  if (!game.ok || !game.plies.length) return;
  const generation = ++game.generation;
  game.selected = null;
  const answer = await call("undo", request({players: game.sides}));
  if (generation !== game.generation) return;
  if (answer.error) return say(answer.error);
  say("");
  show(answer);
  machineTurn();
}

async function newGame() {
  game.plies = [];
  game.seed = 1 + Math.floor(Math.random() * 1e9);
  game.selected = null;
  say("");
  if (game.ok) await gameChanged(game.names);
}

async function download() {
  if (!game.ok) return;
  const answer = await call("record", request({players: game.sides}));
  if (answer.error) return say(answer.error);
  saveAs(answer.record, answer.filename);
}

function saveAs(text, filename) {
  const url = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A ruleset file: saved as it stands in the editor, opened into it (and checked).
function saveRuleset() {
  const name = game.ruleset && $("source").value === game.bundledText ? game.ruleset : "my-variant";
  saveAs($("source").value, `${name}.game`);
}

async function openRuleset(e) {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  if ($("source").value !== game.bundledText && !confirm(`Discard your edits and open ${file.name}?`)) return;
  $("source").value = await file.text();
  game.plies = [];
  game.view = null;
  say(`opened ${file.name}`);
  textEdited();
}

// The address names the bundled ruleset and, to share a game, its plies: #3-spot/c1+c2-b3+c3
function fromAddress() {
  const [name, ...plies] = location.hash.slice(1).split("/").map(decodeURIComponent);
  return {name, plies: plies.filter((p) => p)};
}

function toAddress() {
  if (!game.ruleset || $("source").value !== game.bundledText) return;  // an edited text has no address
  const plies = game.plies.map((p) => "/" + encodeURIComponent(p)).join("");
  history.replaceState(null, "", `#${encodeURIComponent(game.ruleset)}${plies}`);
}

async function loadBundled(name, plies = []) {
  const response = await fetch(`/api/rulesets/${encodeURIComponent(name)}`);
  const answer = await response.json();
  if (answer.error) return say(answer.error);
  game.ruleset = name;
  game.bundledText = answer.text;
  game.plies = plies;
  game.view = null;
  game.selected = null;
  say("");
  $("source").value = answer.text;
  $("source").scrollTop = 0;
  history.replaceState(null, "", `#${name}`);
  await checkNow();
}

async function restore(saved, picker) {
  const answer = await (await fetch(`/api/rulesets/${encodeURIComponent(saved.ruleset)}`)).json();
  game.bundledText = answer.text;
  game.ruleset = picker.value = saved.ruleset;
  game.plies = saved.plies.filter((p) => typeof p === "string");
  const known = ["human", ...MACHINES];
  if (Array.isArray(saved.names) && Array.isArray(saved.sides) && saved.sides.every((s) => known.includes(s))) {
    game.names = saved.names;  // drawSides keeps the sides of the same players
    game.sides = saved.sides;
  }
  $("source").value = saved.text;
  history.replaceState(null, "", `#${saved.ruleset}`);
  await checkNow();
}

async function start() {
  const names = (await (await fetch("/api/rulesets")).json()).names;
  const picker = $("ruleset");
  for (const name of names) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    picker.append(option);
  }
  const address = fromAddress();
  const wanted = address.name;
  picker.value = names.includes(wanted) ? wanted : names.includes("tic-tac-toe") ? "tic-tac-toe" : names[0];
  picker.addEventListener("change", () => {
    const edited = $("source").value !== game.bundledText;
    if (edited && !confirm(`Discard your edits to ${game.ruleset} and open ${picker.value}?`)) {
      picker.value = game.ruleset;
      return;
    }
    loadBundled(picker.value);
  });
  window.addEventListener("hashchange", () => {
    const {name, plies} = fromAddress();
    if (names.includes(name) && (name !== game.ruleset || plies.join() !== game.plies.join())) {
      picker.value = name;
      loadBundled(name, plies);
    } else if (!names.includes(name)) {
      say(`no bundled ruleset '${name}': still playing ${game.ruleset}`);
    }
  });
  $("source").addEventListener("input", textEdited);
  $("source").addEventListener("scroll", syncScroll);
  $("board").addEventListener("click", (e) => {
    const target = e.target.closest("[data-cell]");
    if (target) cellClicked(target.getAttribute("data-cell"));
  });
  $("undo").addEventListener("click", undo);
  $("new-game").addEventListener("click", newGame);
  $("download").addEventListener("click", download);
  $("save-file").addEventListener("click", saveRuleset);
  $("flip").addEventListener("click", () => {
    const flipped = $("board").classList.toggle("flipped");
    $("flip").setAttribute("aria-pressed", String(flipped));
  });
  $("open-file").addEventListener("change", openRuleset);
  $("chooser-cancel").addEventListener("click", hideChooser);
  $("ply-input").addEventListener("keydown", (e) => {  // a ply typed in notation, any case
    if (e.key !== "Enter" || !e.target.value.trim()) return;
    if (!humanToMove()) return say(whyNoPly());
    humanPly(e.target.value.trim());
    e.target.value = "";
  });
  const saved = savedLocal();
  if (saved && names.includes(saved.ruleset) && (!wanted || wanted === saved.ruleset) && !address.plies.length) {
    await restore(saved, picker);  // the text and the game as they were before the reload
  } else {
    await loadBundled(picker.value, names.includes(wanted) ? address.plies : []);
  }
  if (wanted && !names.includes(wanted)) say(`no bundled ruleset '${wanted}': showing ${picker.value}`);
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
