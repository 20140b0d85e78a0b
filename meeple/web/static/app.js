// meeple serve: the page. Plain ES module, no framework and no build step: the server sends
// JSON (a seat's view of the game, check results) and this file builds the DOM from it with
// textContent only, so rule text is never parsed as HTML.

const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text nodes, never HTML). */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function say(text, kind = "error") {
  const m = $("message");
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
}

/** fetch JSON; a refused request shows its error (with file:line:col) and rejects. */
async function api(path, body) {
  // a string body is sent as it is (a saved game's text: JSON.parse would round its 64-bit
  // random-generator state to a double)
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: text,
  };
  const r = await fetch(path, opts);
  let data;
  try { data = await r.json(); } catch { data = { error: `error: ${r.status} ${r.statusText}` }; }
  if (!r.ok) {
    const err = new Error(data.error || `error ${r.status}`);
    err.data = data;
    throw err;
  }
  return data;
}

function show(view) {
  for (const v of ["new", "table", "edit"]) $(`view-${v}`).hidden = v !== view;
}

// ------------------------------------------------------------------------------- new game
let games = [];

async function loadGames() {
  if (!games.length) games = await api("/api/games");
  return games;
}

function fillSelect(select, items, value) {
  select.replaceChildren(...items.map(([v, label]) => el("option", { value: v }, label)));
  if (value !== undefined) select.value = value;
}

async function showNew() {
  show("new");
  const list = await loadGames();
  const sel = $("new-game");
  if (!sel.options.length) {
    fillSelect(sel, list.map((g) => [g.id, `${g.name} (${g.min_players}-${g.max_players})`]));
    sel.addEventListener("change", newGameChanged);
    $("new-players").addEventListener("input", seatBoxes);
  }
  newGameChanged();
}

function newGameChanged() {
  const g = games.find((x) => x.id === $("new-game").value);
  fillSelect($("new-variant"), [["", "(the rules as written)"], ...g.variants.map((v) => [v, v])]);
  const p = $("new-players");
  p.min = g.min_players;
  p.max = g.max_players;
  p.value = Math.max(g.min_players, Math.min(4, g.max_players));
  seatBoxes();
}

function seatBoxes() {
  const n = Number($("new-players").value) || 0;
  const box = $("new-seats");
  const legend = box.querySelector("legend");
  const boxes = [];
  for (let p = 0; p < Math.min(n, 16); p++) {
    boxes.push(el("label", {}, el("input", {
      type: "checkbox", class: "seat-human", "data-seat": p, checked: p === 0,
    }), ` P${p + 1} is played by a person`));
  }
  box.replaceChildren(legend, ...boxes);
}

async function startGame(ev) {
  ev.preventDefault();
  const humans = [...document.querySelectorAll(".seat-human")].map((b) => b.checked);
  try {
    const view = await api("/api/tables", {
      game: $("new-game").value,
      variant: $("new-variant").value || null,
      players: Number($("new-players").value),
      seed: Number($("new-seed").value) || 0,
      computers: humans.map((h) => !h),
    });
    say("");
    location.hash = `table=${view.table}`;
  } catch (e) { say(e.message); }
}

async function loadSave(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  try {
    const view = await api("/api/load", await file.text());
    say("");
    location.hash = `table=${view.table}`;
  } catch (e) { say(e.message); }
  ev.target.value = "";
}

// ------------------------------------------------------------------------------- the table
let table = null; // the last view the server sent

async function showTable(id) {
  show("table");
  try { render(await api(`/api/tables/${encodeURIComponent(id)}`)); } catch (e) { say(e.message); }
}

async function post(path, body = {}) {
  try {
    const view = await api(`/api/tables/${table.table}/${path}`, body);
    say("");
    render(view);
  } catch (e) { say(e.message); }
}

function editLink(where) {
  // "shadow-of-the-sun/game.yaml:40" -> the editor at that line
  const m = /^([^/]+)\/(.+):(\d+)$/.exec(where || "");
  if (!m) return where || "";
  const href = `#edit=${encodeURIComponent(m[1])}&file=${encodeURIComponent(m[2])}&line=${m[3]}`;
  return el("a", { href, class: "rule-link" }, where);
}

function rulebookHref(anchor) {
  const q = new URLSearchParams({ table: table.table });
  if (table.variant) q.set("variant", table.variant);
  return `/rulebook/${encodeURIComponent(table.game)}?${q}` + (anchor ? `#${anchor}` : "");
}

function render(v) {
  table = v;
  const over = v.over ? " · game over" : "";
  $("table-name").textContent = `${v.name} · ${v.players} players · seed ${v.seed}${over}`;
  $("hist-pos").textContent = `action ${v.cursor} of ${v.length}`;
  $("hist-first").disabled = $("hist-back").disabled = v.cursor === 0;
  $("hist-forward").disabled = $("hist-last").disabled = v.cursor === v.length;
  $("hist-resume").hidden = v.cursor === v.length;
  $("save-link").href = `/api/tables/${v.table}/save`;
  $("rulebook-link").href = rulebookHref("");
  $("nav-rulebook").href = rulebookHref("");
  const blank = Boolean(v.handover);
  $("handover").hidden = !blank;
  $("board").hidden = blank;
  $("stands").replaceChildren();
  for (const id of ["decision", "result", "zones", "variables", "log"]) $(id).replaceChildren();
  if (blank) {
    // hot-seat: nothing of the previous seat's view stays on the page
    $("handover-text").textContent = `Hand the screen to ${v.handover.name}.`;
    $("handover-take").textContent = `I am ${v.handover.name}: show my view`;
    return;
  }
  renderStands(v);
  renderDecision(v);
  renderZones(v);
  renderVariables(v);
  $("log").replaceChildren(...v.log.map((line) => el("li", {}, line)));
  $("log").scrollTop = $("log").scrollHeight;
}

function renderStands(v) {
  const parts = Object.entries(v.stands).map(([k, x]) => el("span", {}, `${k}: ${x}`));
  if (v.viewer) parts.unshift(el("span", { id: "viewer" }, `you are ${v.viewer.name}`));
  else parts.unshift(el("span", { id: "viewer" }, "spectator view (public information only)"));
  $("stands").replaceChildren(...parts);
}

function renderDecision(v) {
  if (v.result) {
    const r = v.result;
    $("result").replaceChildren(
      el("h2", {}, "The game is over"),
      el("p", { id: "winners" }, `Winner: ${r.winners.join(", ")}`),
      el("p", {}, "Scores: " + r.scores.map((s, p) => `P${p + 1} ${s}`).join(", ")),
      r.end_reason ? el("p", { id: "end-reason" }, `Why it ended: ${r.end_reason}`) : null,
    );
    return;
  }
  if (v.waiting) {
    const who = v.waiting.computer ? `${v.waiting.name} (computer)` : v.waiting.name;
    $("decision").replaceChildren(el("p", {}, `${who} is to act.`),
      v.cursor < v.length ? el("p", {}, "You are looking at an earlier position.") : null);
    return;
  }
  const d = v.decision;
  if (!d) return;
  const r = d.rule || {};
  const rule = el("div", { class: "rule", id: "decision-rule" },
    "Asked by the rule at ", editLink(r.where),
    r.procedure ? ` (procedure ${r.procedure})` : "",
    el("br"),
    "Rulebook: ",
    el("a", { href: rulebookHref(r.anchor), id: "rule-source" }, r.source || "(no citation)"));
  const options = d.options.map((o) => el("button", {
    class: o.legal ? "option legal" : "option illegal",
    type: "button",
    "data-label": o.label,
    onclick: () => choose(o),
  }, o.label, o.legal ? null : el("span", { class: "why" }, `not legal: ${o.reason}`),
  o.legal ? null : el("span", { class: "where" }, editLink(o.rule))));
  $("decision").replaceChildren(el("h2", { id: "prompt" }, `${v.viewer.name}: ${d.prompt}`),
    rule, ...options);
}

function choose(o) {
  // an illegal option is sent too: the server refuses it and says why (nothing changes)
  post("act", o.legal ? { action: o.action } : { label: o.label });
}

function renderZones(v) {
  const boxes = v.zones.map((z) => {
    const mine = v.viewer && z.owner === v.viewer.seat;
    const vis = { public: "open", owner: mine ? "yours, hidden from the others" : "hidden",
      hidden: "face down", top: "top card open" }[z.visibility] || z.visibility;
    let body;
    if (z.cards) {
      body = z.cards.length ? grouped(z.cards).map(([c, n]) => el("span",
        { class: "card", "data-count": n }, n > 1 ? `${c} ×${n}` : c))
        : [el("span", { class: "facedown" }, "empty")];
    } else {
      body = [el("span", { class: "facedown count" }, `${z.count} card${z.count === 1 ? "" : "s"} face down`)];
      if (z.top) body.push(el("div", {}, "on top: ", el("span", { class: "card" }, z.top)));
    }
    return el("div", { class: mine ? "zone mine" : "zone", "data-zone": z.name },
      el("h3", {}, z.name, " ", el("span", { class: "vis" }, `(${vis})`)), ...body);
  });
  $("zones").replaceChildren(...boxes);
}

/** Identical cards as [name, how many], in first-seen order ("Ghoul ×2"). */
function grouped(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts];
}

function renderVariables(v) {
  const per = v.variables.filter((x) => x.per_player);
  const single = v.variables.filter((x) => !x.per_player);
  const head = el("tr", {}, el("th", {}, "variable"),
    ...Array.from({ length: v.players }, (_, p) => el("th", {}, `P${p + 1}`)));
  const rows = per.map((x) => el("tr", {}, el("td", {}, x.name),
    ...x.value.map((val) => el("td", {}, Array.isArray(val) ? val.join(", ") : val))));
  const singles = single.map((x) => el("tr", {}, el("td", {}, x.name),
    el("td", { colspan: v.players }, Array.isArray(x.value) ? x.value.join(", ") : x.value)));
  $("variables").replaceChildren(el("h2", {}, "Tracks and variables"),
    v.position ? el("p", { id: "position" }, v.position) : null,
    el("table", { class: "vars" }, head, ...rows, ...singles));
}

// ------------------------------------------------------------------------------- rules editor
// edits: the texts changed on this page, per game and file (kept when another file is opened;
// the scenarios run on all of them)
const editor = { game: null, file: null, timer: null, seq: 0, edits: {} };

async function showEdit(params) {
  show("edit");
  const list = await loadGames();
  const gameSel = $("edit-game");
  if (!gameSel.options.length) {
    fillSelect(gameSel, list.map((g) => [g.id, g.name]));
    gameSel.addEventListener("change", () => openFile(gameSel.value, "game.yaml"));
    $("edit-file").addEventListener("change", () => openFile(gameSel.value, $("edit-file").value));
    $("source").addEventListener("input", () => {
      (editor.edits[editor.game] ||= {})[editor.file] = $("source").value;
      drawGutter();
      scheduleCheck();
    });
    $("source").addEventListener("scroll", () => { $("gutter").scrollTop = $("source").scrollTop; });
    $("run-scenarios").addEventListener("click", runScenarios);
  }
  const game = params.get("edit") || editor.game || list[0].id;
  const file = params.get("file") || "game.yaml";
  if (game !== editor.game || file !== editor.file) await openFile(game, file);
  const line = Number(params.get("line"));
  if (line) goToLine(line);
}

async function openFile(game, file) {
  try {
    const files = await api(`/api/rules/${encodeURIComponent(game)}`);
    $("edit-game").value = game;
    fillSelect($("edit-file"), files.files.map((f) => [f, f]), file);
    const data = await api(`/api/rules/${encodeURIComponent(game)}/file?name=${encodeURIComponent(file)}`);
    editor.game = game;
    editor.file = file;
    $("source").value = (editor.edits[game] || {})[file] ?? data.text;
    $("scenario-results").replaceChildren();
    drawGutter();
    check();
  } catch (e) { say(e.message); }
}

function drawGutter(marks = editor.marks || {}) {
  editor.marks = marks;
  const n = $("source").value.split("\n").length;
  const lines = [];
  for (let i = 1; i <= n; i++) {
    const m = marks[i];
    lines.push(el("div", { class: m ? m.kind : null, "data-line": i, title: m ? m.text : null }, i));
  }
  $("gutter").replaceChildren(...lines);
  $("gutter").scrollTop = $("source").scrollTop;
}

function goToLine(line) {
  const ta = $("source");
  const lines = ta.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((a, l) => a + l.length + 1, 0);
  ta.focus();
  ta.setSelectionRange(start, start + (lines[line - 1] || "").length);
  ta.scrollTop = Math.max(0, (line - 5) * 18);
  $("gutter").scrollTop = ta.scrollTop;
}

function scheduleCheck() {
  clearTimeout(editor.timer);
  editor.timer = setTimeout(check, 350); // debounced: one check when typing pauses
}

async function check() {
  const seq = ++editor.seq;
  const status = $("check-status");
  status.textContent = "checking…";
  status.className = "";
  let res;
  try {
    res = await api("/api/check", { game: editor.game, file: editor.file, text: $("source").value });
  } catch (e) {
    res = { ok: false, errors: [e.data && e.data.error ? e.data : { error: e.message }], warnings: [] };
  }
  if (seq !== editor.seq) return; // an older answer: the text changed since
  const own = `${editor.game}/${editor.file}`;
  const marks = {};
  const items = [];
  for (const [kind, list] of [["error", res.errors], ["warning", res.warnings]]) {
    for (const p of list) {
      const text = p.error || p.text;
      if (p.line && p.file === own) {
        marks[p.line] = marks[p.line] && marks[p.line].kind === "bad" ? marks[p.line]
          : { kind: kind === "error" ? "bad" : "warn", text };
      }
      items.push(el("li", {
        class: kind, "data-line": p.line, "data-file": p.file,
        onclick: () => p.line && p.file === own && goToLine(p.line),
      }, text));
    }
  }
  drawGutter(marks);
  $("problems").replaceChildren(...items);
  status.textContent = res.ok ? res.summary : `${res.errors.length} error`;
  status.className = res.ok ? "ok" : "bad";
}

async function runScenarios() {
  const out = $("scenario-results");
  out.replaceChildren(el("li", {}, "running the scenarios…"));
  try {
    const res = await api("/api/scenarios", {
      game: editor.game, edits: { ...(editor.edits[editor.game] || {}) },
    });
    out.replaceChildren(
      el("li", { id: "scenario-summary" }, `${res.passed} of ${res.results.length} scenarios pass`),
      ...res.results.map((r) => el("li", { class: r.passed ? "pass" : "fail" },
        `${r.passed ? "pass" : "FAIL"} ${r.file}: ${r.name}`,
        r.error ? ` — ${r.error.error}` : "",
        ...(r.failures || []).map((f) => el("div", {}, f)))));
  } catch (e) { out.replaceChildren(el("li", { class: "fail" }, e.message)); }
}

// ------------------------------------------------------------------------------- routing
function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("table")) showTable(params.get("table"));
  else if (location.hash.startsWith("#edit")) showEdit(params);
  else showNew();
}

$("new-form").addEventListener("submit", startGame);
$("load-file").addEventListener("change", loadSave);
$("hist-first").addEventListener("click", () => post("goto", { cursor: 0 }));
$("hist-back").addEventListener("click", () => post("goto", { cursor: table.cursor - 1 }));
$("hist-forward").addEventListener("click", () => post("goto", { cursor: table.cursor + 1 }));
$("hist-last").addEventListener("click", () => post("goto", { cursor: table.length }));
$("hist-resume").addEventListener("click", () => post("resume"));
$("handover-take").addEventListener("click", () => post("screen", { seat: table.handover.seat }));
window.addEventListener("hashchange", route);
route();
