// xfbtrace web UI: views routed by location.pathname (runs, a run, a diff of
// two runs, a bisect session), data from /api/.
// Plain DOM code written for this project; no libraries, no network beyond
// this server.
"use strict";

const main = () => document.getElementById("main");
const where = () => document.getElementById("where");

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(k === null || k === undefined ? "" : String(k)));
  return e;
}

async function api(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: ${r.status} ${(await r.text()).trim()}`);
  return r.json();
}

function fail(e) {
  main().replaceChildren(el("p", { class: "err" }, String(e.message || e)));
}

function runName(r) {
  return `run ${r.id} (${r.backend} ${r.revision}${r.label ? ", " + r.label : ""})`;
}

function callClass(fn) {
  if (/SwapBuffers/.test(fn)) return "frame";
  if (/TransformFeedback/.test(fn) && !/Draw/.test(fn)) return "tf";
  if (/Query/.test(fn)) return "query";
  if (/Draw/.test(fn)) return "draw";
  return "";
}

// A timeline square's label: what kind of call it is, in one letter
// (the legend says which), so that a row of squares reads without hovering.
function callLetter(fn) {
  const m = /(Begin|Pause|Resume|End)TransformFeedback/.exec(fn || "");
  if (m) return m[1][0];
  const c = callClass(fn);
  return c === "draw" ? "D" : c === "query" ? "Q" : c === "tf" ? "T" : "";
}

// ---- runs ----------------------------------------------------------------
async function viewRuns() {
  where().textContent = "runs";
  const data = await api("/api/runs");
  // Two host runs on different drivers must not look the same: the driver
  // column is the renderer and its version; the verdict is the run's summary.
  for (const r of data.runs) {
    r.driver = [r.gl_renderer, r.gl_version].filter(Boolean).join(", ");
    r.verdict = r.golden ? "golden (the capture)" : (r.summary || r.status);
  }
  const cols = [["id", "run"], ["trace_hash", "trace"], ["program", "program"], ["backend", "backend"],
    ["driver", "driver"], ["revision", "revision"], ["label", "label"], ["status", "status"],
    ["verdict", "verdict"], ["observations", "observations"], ["data_bytes", "bytes"], ["started_at", "started"]];
  let sortKey = "id", sortDir = 1;
  const picked = [];
  const filter = el("input", { type: "search", id: "filter", placeholder: "filter (any column)" });
  const compare = el("button", { id: "compare", disabled: "" }, "Compare the two picked runs");
  const note = el("span", { id: "picknote" }, " pick two runs of one trace");
  const table = el("table", { id: "runs" });
  function draw() {
    const q = filter.value.toLowerCase();
    const rows = data.runs.filter(r => !q || cols.some(([k]) => String(r[k] ?? "").toLowerCase().includes(q)));
    rows.sort((a, b) => (a[sortKey] > b[sortKey] ? 1 : a[sortKey] < b[sortKey] ? -1 : 0) * sortDir);
    const head = el("tr", {}, el("th", {}, "pick"), ...cols.map(([k, t]) => el("th", {
      onclick: () => { sortDir = sortKey === k ? -sortDir : 1; sortKey = k; draw(); } }, t + (sortKey === k ? (sortDir > 0 ? " ▲" : " ▼") : ""))));
    table.replaceChildren(head, ...rows.map(r => el("tr", { "data-run": r.id },
      el("td", {}, el("input", { type: "checkbox", class: "pick", "data-run": r.id, ...(picked.includes(r.id) ? { checked: "" } : {}),
        onchange: (ev) => { const i = picked.indexOf(r.id); if (ev.target.checked && i < 0) picked.push(r.id); if (!ev.target.checked && i >= 0) picked.splice(i, 1); while (picked.length > 2) picked.shift(); update(); draw(); } })),
      ...cols.map(([k]) => k === "id" ? el("td", {}, el("a", { href: `/run/${r.id}` }, r.id + (r.golden ? "*" : "")))
        : k === "trace_hash" ? el("td", {}, String(r[k]).slice(0, 12))
        : el("td", { class: typeof r[k] === "number" ? "num" : "" }, r[k] ?? "–")))));
  }
  function update() {
    const runs = picked.map(id => data.runs.find(r => r.id === id));
    const ok = runs.length === 2 && runs[0].trace_id === runs[1].trace_id;
    compare.disabled = !ok;
    note.textContent = ok ? ` ${runName(runs[0])} vs ${runName(runs[1])}` : runs.length === 2 ? " the two runs are of different traces" : " pick two runs of one trace";
  }
  compare.addEventListener("click", () => { location.href = `/diff/${picked[0]}/${picked[1]}`; });
  filter.addEventListener("input", draw);
  draw();
  main().replaceChildren(el("h2", {}, `Runs (${data.runs.length})`), el("p", {}, filter, " ", compare, note), table,
    el("p", {}, "* golden run: the capture's own observations"));
  const sessions = await api("/api/bisect");
  if (sessions.length)
    main().append(el("h2", {}, `Bisect sessions (${sessions.length})`), el("table", { id: "bisects" },
      el("tr", {}, ...["session", "program", "good", "bad", "backend", "status", "culprit"].map(t => el("th", {}, t))),
      ...sessions.map(b => el("tr", {},
        el("td", {}, el("a", { href: `/bisect/${b.id}` }, b.id)),
        el("td", {}, b.trace ? b.trace.program : "–"),
        el("td", {}, String(b.good).slice(0, 12)), el("td", {}, String(b.bad).slice(0, 12)),
        el("td", {}, b.backend), el("td", { class: `verdict ${b.status}` }, b.status),
        el("td", {}, b.culprit ? `${b.culprit.commit.slice(0, 12)} ${b.culprit.subject}` : "–")))));
}

// ---- a bisect session ------------------------------------------------------
async function viewBisect(id) {
  where().textContent = `bisect ${id}`;
  const b = await api(`/api/bisect/${id}`);
  const kids = [el("h2", {}, `Bisect session ${b.id}: ${b.status}`),
    el("p", {}, `trace ${b.trace ? b.trace.program : "?"}, ${b.backend} backend, comparing ${b.compare}; `,
      `good ${b.good.slice(0, 12)}, bad ${b.bad.slice(0, 12)}`)];
  if (b.culprit)
    kids.push(el("p", { id: "culprit" }, "first bad commit: ",
      el("code", {}, b.culprit.commit.slice(0, 12)), ` ${b.culprit.subject} (${b.culprit.author})`));
  if (b.first_difference)
    kids.push(el("p", {}, `first difference: ${b.first_difference.text}`));
  if (b.diff)
    kids.push(el("p", {}, el("a", { id: "culprit-diff", href: `/diff/${b.diff.run_a}/${b.diff.run_b}` },
      `diff of run ${b.diff.run_a} (good) and run ${b.diff.run_b} (culprit)`)));
  if (b.message)
    kids.push(el("p", {}, b.message));
  kids.push(el("table", { id: "steps" },
    el("tr", {}, ...["step", "commit", "subject", "verdict", "why", "run", "cached"].map(t => el("th", {}, t))),
    ...(b.steps || []).map(s => el("tr", {},
      el("td", { class: "num" }, s.seq), el("td", {}, el("code", {}, s.commit.slice(0, 12))),
      el("td", {}, s.subject || ""), el("td", { class: `verdict ${s.verdict}` }, s.verdict),
      el("td", {}, s.reason || ""),
      el("td", {}, s.run ? el("a", { href: `/run/${s.run}` }, s.run) : "–"),
      el("td", {}, s.run_cached ? "run" : s.build_cached ? "build" : "")))));
  main().replaceChildren(...kids);
}

// ---- one run ---------------------------------------------------------------
// A TF value as text: sentinel-like values (0xdeadbeef read as a float is
// -6.26e18) also in hex, floats to float precision, not as 19 digits.
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
function num(x) {
  if (x === null || x === undefined) return "–";
  if (typeof x !== "number") return String(x);
  // Integers (int / uint components): large ones, such as 0xdeadbeef, also in hex.
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 32)
    return Math.abs(x) >= 0x10000000 ? `${x} (0x${(x >>> 0).toString(16)})` : String(x);
  const a = Math.abs(x);
  const text = Number.isNaN(x) ? "NaN" : (a >= 1e15 || (a > 0 && a < 1e-6))
    ? x.toPrecision(9).replace(/\.?0+e/, "e") : String(Number(x.toPrecision(9)));
  if (!(Number.isNaN(x) || a >= 1e15 || (a > 0 && a < 1e-30))) return text;
  f32[0] = x;   // a float component: its bits, rounded to float as it was
  return `${text} (0x${u32[0].toString(16).padStart(8, "0")})`;
}

// What `replay --check --db` said of an observation against the golden
// data: its class as a label, the reason beside it.
function verdictLabel(o) {
  if (!o.verdict_class) return "";
  return el("span", { class: `verdict v-${o.verdict_class}`, title: o.verdict_reason || "" }, o.verdict_class);
}
function verdictLine(o, who) {
  return el("p", { class: "verdictline" }, who ? `${who}: ` : "", `call ${o.call} ${o.kind} #${o.index} `, verdictLabel(o), ` ${o.verdict_reason || ""}`);
}

function tfTable(t, idx) {
  if (!t) return el("p", {}, `TF buffer ${idx}: not decodable`);
  if (t.error) return el("p", { class: "error" }, `TF buffer ${idx}: ${t.error}`);
  return el("table", { class: "tf" }, el("tr", {}, el("th", {}, "vertex"), ...t.columns.map(c => el("th", {}, c))),
    ...t.rows.map((row, v) => el("tr", {}, el("td", { class: "num" }, v), ...row.map(x => el("td", { class: "num" }, num(x))))));
}

async function viewRun(id) {
  const data = await api(`/api/runs/${id}`);
  where().textContent = runName(data.run);
  const tl = el("div", { class: "timeline", id: "timeline" });
  const detail = el("div", { id: "detail" });
  const calls = new Map();
  for (const c of data.calls) calls.set(c.call, { call: c.call, function: c.function, art: c });
  for (const o of data.observations) if (!calls.has(o.call)) calls.set(o.call, { call: o.call, function: o.function || "?" });
  const list = [...calls.values()].sort((a, b) => a.call - b.call);
  async function pick(n) {
    history.replaceState(null, "", `/run/${id}?call=${n}`);
    for (const b of tl.children) b.classList.toggle("sel", Number(b.dataset.call) === n);
    const c = await api(`/api/runs/${id}/calls/${n}`);
    const kids = [el("h3", {}, `call ${n} ${c.function || ""}`)];
    for (const o of c.observations) kids.push(el("p", {}, `${o.kind} #${o.index}: ${o.fields} `, verdictLabel(o), o.verdict_reason ? ` ${o.verdict_reason}` : ""));
    c.tf.forEach((t, i) => { if (t) kids.push(el("h4", {}, `TF buffer ${i}`), tfTable(t, i)); });
    if (c.pm4) kids.push(el("h4", {}, "PM4 packets"), el("pre", { id: "pm4" }, c.pm4));
    if (c.regs_changed) kids.push(el("h4", {}, "registers changed by this call"), el("pre", {}, c.regs_changed));
    if (c.regs) kids.push(el("details", {}, el("summary", {}, "all registers"), el("pre", { id: "regs" }, c.regs)));
    if (c.shader) kids.push(el("h4", {}, `shaders of program ${c.program}`), el("pre", { id: "shader" }, c.shader));
    detail.replaceChildren(...kids);
  }
  for (const c of list)
    tl.append(el("div", { class: `call ${callClass(c.function)}`, title: `${c.call} ${c.function}`, "data-call": c.call, onclick: () => pick(c.call).catch(fail) }, callLetter(c.function)));
  main().replaceChildren(el("h2", {}, runName(data.run)),
    el("p", {}, `trace ${data.run.trace_hash.slice(0, 12)} ${data.run.program || ""}; status ${data.run.status}; ${data.observations.length} observations, ${data.calls.length} calls with artefacts`),
    el("p", { class: "legend" }, el("span", { class: "call draw" }, "D draw"), el("span", {}, "B / P / R / E: TF begin, pause, resume, end"), el("span", {}, "Q query"), el("span", {}, "dark: frame end")),
    el("div", { id: "verdicts" }, ...data.observations.filter(o => o.verdict_class).map(o => verdictLine(o))),
    tl, detail);
  const q = new URLSearchParams(location.search).get("call");
  if (q !== null) await pick(Number(q));
}

// ---- diff of two runs ---------------------------------------------------------
// A TF buffer of both runs, TF_PAGE vertices at a time (tens of thousands of
// rows would not be read anyway), opening on the page of the first
// differing vertex; "next difference" walks the differing vertices.
const TF_PAGE = 256;
function pagedTfDiff(t) {
  const box = el("div", { class: "tfpaged", id: `tfbox${t.index}` });
  const differing = t.rows.map((r, i) => (r.d.length ? i : -1)).filter(i => i >= 0);
  const pages = Math.max(1, Math.ceil(t.rows.length / TF_PAGE));
  let page = differing.length ? Math.floor(differing[0] / TF_PAGE) : 0, mark = differing.length ? differing[0] : -1;
  function draw() {
    const rows = t.rows.slice(page * TF_PAGE, (page + 1) * TF_PAGE);
    const next = differing.find(i => i > mark);
    const nav = el("div", { class: "tfnav" },
      el("button", { class: "prev", ...(page ? {} : { disabled: "" }), onclick: () => { page--; draw(); } }, "◀ previous"),
      el("span", { class: "page" }, ` vertices ${page * TF_PAGE}–${page * TF_PAGE + rows.length - 1} of ${t.rows.length}${t.vertices > t.rows.length ? ` decoded (the buffer holds ${t.vertices}; the rest is not shown)` : ""} (page ${page + 1} of ${pages}); ${differing.length} differing vertices `),
      el("button", { class: "next", ...(page + 1 < pages ? {} : { disabled: "" }), onclick: () => { page++; draw(); } }, "next ▶"),
      el("button", { class: "nextdiff", ...(next !== undefined ? {} : { disabled: "" }),
        onclick: () => { mark = next; page = Math.floor(next / TF_PAGE); draw(); box.querySelector(`tr[data-v="${t.rows[next].v}"]`)?.scrollIntoView({ block: "center" }); } }, "next difference"));
    const table = el("table", { class: "tf", id: `tf${t.index}` }, el("tr", {}, el("th", {}, "vertex"), el("th", {}, "run"), ...t.columns.map(x => el("th", {}, x))),
      ...rows.flatMap(r => [
        el("tr", { "data-v": r.v }, el("td", { class: "num", rowspan: "2" }, r.v), el("td", {}, "A"), ...t.columns.map((_, i) => el("td", { class: "num" + (r.d.includes(i) ? " diff" : "") }, num(r.a[i])))),
        el("tr", {}, el("td", {}, "B"), ...t.columns.map((_, i) => el("td", { class: "num" + (r.d.includes(i) ? " diff" : "") }, num(r.b[i]))))]));
    box.replaceChildren(...(pages > 1 || differing.length > 1 ? [nav] : []), table);
  }
  draw();
  return box;
}

// A register field's value: its enum name, the float text the API gives
// for registers the database types f32, else the number.
function valueText(v, name, text) { return name ? `${name} (${v})` : text || String(v); }

// Register fields of two states (/api/diff/A/B/calls/N "fields"), A beside B.
function fieldTable(fields, id) {
  return el("table", { id }, el("tr", {}, el("th", {}, "field"), el("th", {}, "A"), el("th", {}, "B")),
    ...fields.map(f => el("tr", { class: "field" }, el("td", {}, f.name), el("td", { class: "old" }, f.in_a ? valueText(f.a, f.a_name, f.a_text) : "(unset)"), el("td", { class: "new" }, f.in_b ? valueText(f.b, f.b_name, f.b_text) : "(unset)"))));
}

// The images two runs read back after one call (/api/diff/A/B/calls/N
// "images"): A, B and their difference side by side, scaled up without
// smoothing (each pixel a square of `zoom` screen pixels), the window
// coordinates and both runs' values under the pointer, the first
// differing pixels named and the first one outlined.  `drawLink`: a link
// to the register state of the draw before the read, when the runs have
// one (sim runs); `drawRegs`: the register fields that differ between the
// runs at that draw, when both are sim runs (a `replay --set-reg`
// experiment shows the register it changed next to the pixels it moved).
function imageDiff(im, a, b, n, drawLink, drawRegs) {
  const zoomFor = () => Math.max(1, Math.min(16, Math.floor(360 / Math.max(im.width, im.height))));
  let zoom = zoomFor();
  const fmt = v => v.map(x => Number.isInteger(x) ? x : x.toPrecision(6)).join(" ");
  const pixels = {};   // side -> ImageData of the PNG, for the values under the pointer
  const hover = el("p", { class: "pixelhover", id: "pixelhover" }, "point at a pixel");
  const frames = [];
  function frame(side, src, title) {
    const img = el("img", { class: "pixels", alt: title, src, "data-side": side });
    const mark = el("div", { class: "pixelmark" });
    const box = el("div", { class: "pixelbox" }, img, mark);
    img.addEventListener("load", () => {
      const cv = document.createElement("canvas");
      cv.width = im.width; cv.height = im.height;
      const ctx = cv.getContext("2d");
      ctx.drawImage(img, 0, 0);
      pixels[side] = ctx.getImageData(0, 0, im.width, im.height);
    });
    img.addEventListener("mousemove", ev => {
      const col = Math.floor(ev.offsetX / zoom), row = Math.floor(ev.offsetY / zoom);
      if (col < 0 || row < 0 || col >= im.width || row >= im.height) return;
      const x = im.x + col, y = im.y + (im.height - 1 - row);
      const rgb = s => pixels[s] ? Array.from(pixels[s].data.slice((row * im.width + col) * 4, (row * im.width + col) * 4 + 3)).join(" ") : "?";
      hover.textContent = `pixel (${x}, ${y}) as shown (8-bit RGB): A ${rgb("a")}, B ${rgb("b")}`;
    });
    frames.push({ img, mark });
    return el("figure", { class: "pixelfig" }, box, el("figcaption", {}, title));
  }
  function layout() {
    for (const f of frames) {
      f.img.style.width = `${im.width * zoom}px`;
      f.img.style.height = `${im.height * zoom}px`;
      const p = im.first && im.first[0];
      f.mark.style.display = p ? "block" : "none";
      if (p) {
        const col = p.x - im.x, row = im.height - 1 - (p.y - im.y);
        Object.assign(f.mark.style, { left: `${col * zoom - 4}px`, top: `${row * zoom - 4}px`, width: `${zoom + 8}px`, height: `${zoom + 8}px` });
      }
    }
  }
  const figs = [];
  if (im.png_a) figs.push(frame("a", im.png_a, `A (run ${a})`));
  if (im.png_b) figs.push(frame("b", im.png_b, `B (run ${b})`));
  if (im.png_diff) figs.push(frame("d", im.png_diff, "difference: dimmed equal, red differs, blue outside the buffer read (undefined)"));
  const zooms = el("p", { class: "zooms" }, "zoom ", ...[1, 2, 4, 8, 16].map(z =>
    el("button", { class: "zoom", "data-zoom": z, onclick: () => { zoom = z; layout(); } }, `${z}×`)));
  const head = `image ${im.width}×${im.height} at (${im.x}, ${im.y}), read after call ${n}`;
  const kids = [el("h4", { id: "imagehead" }, head)];
  if (!im.in_a || !im.in_b) kids.push(el("p", {}, `only in run ${im.in_a ? a : b}`));
  else if (im.note) kids.push(el("p", { class: "err" }, `not compared pixel by pixel: ${im.note}`));
  else if (!im.pixels_differ) kids.push(el("p", { id: "firstpixel" }, im.pixels_undefined ?
    `all defined pixels equal; ${im.pixels_undefined} outside the buffer read differ (GL leaves them undefined)` : "all pixels equal"));
  else {
    const p = im.first[0];
    kids.push(el("p", { id: "firstpixel", class: "diff" },
      `${im.pixels_differ} of ${im.width * im.height} pixels differ (largest difference ${im.largest_difference}); ` +
      `first differing pixel (${p.x}, ${p.y}): A ${fmt(p.a)}, B ${fmt(p.b)}`));
    if (im.first.length > 1)
      kids.push(el("p", { class: "morepixels" }, "next: " + im.first.slice(1).map(q => `(${q.x}, ${q.y}): A ${fmt(q.a)}, B ${fmt(q.b)}`).join("; ")));
  }
  if (drawLink) kids.push(drawLink);
  if (drawRegs) kids.push(drawRegs);
  kids.push(zooms, el("div", { class: "pixelside" }, ...figs), hover);
  layout();
  return el("section", { class: "imagediff" }, ...kids);
}

async function viewDiff(a, b) {
  const data = await api(`/api/diff/${a}/${b}`);
  where().textContent = `diff: ${runName(data.run_a)} vs ${runName(data.run_b)}`;
  const cs = data.calls_summary, os = data.observations;
  const tl = el("div", { class: "timeline", id: "timeline" });
  const detail = el("div", { id: "detail" });
  async function pick(n) {
    history.replaceState(null, "", `/diff/${a}/${b}?call=${n}`);
    for (const x of tl.children) x.classList.toggle("sel", Number(x.dataset.call) === n);
    const c = await api(`/api/diff/${a}/${b}/calls/${n}`);
    const kids = [el("h3", {}, `call ${n}`)];
    for (const [who, obs] of [[`A (run ${a})`, c.observations_a], [`B (run ${b})`, c.observations_b]])
      for (const o of obs) if (o.verdict_class) kids.push(verdictLine(o, who));
    // Images first: the differing pixel is what such a page is opened for.
    for (const im of c.images || []) {
      if (im.error) { kids.push(el("h4", {}, "image"), el("p", { class: "err", id: "imageerror" }, im.error)); continue; }
      // The draw that produced it: the last one before the read, in the
      // register view of each sim run (the runs that have register state).
      const draw = data.timeline.filter(t => t.call < n && /^glDraw/.test(t.function)).pop();
      const sims = [[a, data.run_a], [b, data.run_b]].filter(([, r]) => r.backend === "sim");
      const link = draw && sims.length ? el("p", { class: "drawlink" }, "register state of the draw that produced it: ",
        ...sims.map(([id], i) => el("a", { href: `/run/${id}?call=${draw.call}`, id: i ? "drawlink_b" : "drawlink" }, `call ${draw.call} ${draw.function} (run ${id})`))) : null;
      let regs = null;
      if (draw && sims.length === 2) {
        const dc = await api(`/api/diff/${a}/${b}/calls/${draw.call}`);
        const what = `at call ${draw.call} ${draw.function}, the draw that produced it`;
        regs = dc.fields.length ? el("div", { class: "drawregs" },
          el("p", { id: "drawregshead" }, `register fields that differ ${what} (A → B):`),
          fieldTable(dc.fields, "drawfields"))
          : el("p", { class: "drawregs", id: "drawregshead" }, `register state equal ${what}`);
      }
      kids.push(imageDiff(im, a, b, n, link, regs));
    }
    kids.push(el("h4", {}, "register fields (A → B)"));
    kids.push(c.fields.length ? fieldTable(c.fields, "fields") : el("p", {}, "register state equal"));
    if (c.packets.some(p => p.op !== "same")) {
      kids.push(el("h4", {}, "packets side by side"));
      kids.push(el("table", { id: "packets" }, el("tr", {}, el("th", {}, ""), el("th", {}, `A (run ${a})`), el("th", {}, `B (run ${b})`)),
        ...c.packets.map(p => el("tr", { class: p.op }, el("td", {}, { same: "", changed: "~", only_a: "−", only_b: "+" }[p.op]),
          el("td", { class: "a pk" }, p.a ?? ""), el("td", { class: "b pk" }, p.b ?? "")))));
    } else if (c.packets.length) kids.push(el("p", {}, `${c.packets.length} packets, all equal`));
    for (const t of c.tf) {
      if (t.error) {
        kids.push(el("h4", {}, `TF buffer ${t.index}`), el("p", { class: "error", id: `tferror${t.index}` }, t.error));
        continue;
      }
      kids.push(el("h4", {}, `TF buffer ${t.index} (differing components highlighted)`));
      kids.push(pagedTfDiff(t));
      // The plots come after the table: its highlighted cells stay on the first screen.
      kids.push(el("img", { class: "plot", alt: "positions", src: `/plot/positions/${a}/${b}/${n}/${t.index}.png`, title: "positions: A blue squares, B red crosses" }),
        el("img", { class: "plot", alt: "per-vertex error", src: `/plot/error/${a}/${b}/${n}/${t.index}.png`, title: "per-vertex error: grey equal, yellow→red larger" }),
        el("p", { class: "plotlegend" }, `left: positions, x against y, run A (${a}) blue squares, run B (${b}) red crosses (the legend above the plot), ticks at round values, darker grid lines through 0; ` +
          "values beyond ±1e6, NaN or infinite are hollow squares just outside the frame on the side where they lie. " +
          "Right: one cell per vertex, row by row: grey equal bit for bit, yellow (|a−b| ≈ 1e-7) to red (1e3 and more, or present in one run only)."));
    }
    // Query results field by field, A beside B, differing values marked
    // (not the raw JSON of the rows).
    const qa = c.observations_a.filter(o => o.kind === "query"), qb = c.observations_b.filter(o => o.kind === "query");
    if (qa.length || qb.length) {
      const parse = o => { try { return JSON.parse(o.fields); } catch (e) { return { fields: o.fields }; } };
      const rows = [];
      for (let i = 0; i < Math.max(qa.length, qb.length); i++) {
        const fa = qa[i] ? parse(qa[i]) : {}, fb = qb[i] ? parse(qb[i]) : {};
        // Named by target (derived from the trace's calls: db_obs_from_value).
        const target = fa.target ?? fb.target, stream = fa.stream ?? fb.stream;
        const name = `${fa.query ?? fb.query ?? i}` + (target ? `: ${target}` : "") +
          (stream !== undefined ? `, stream ${stream}` : "");
        for (const k of [...new Set([...Object.keys(fa), ...Object.keys(fb)])]) {
          if (k === "target" || k === "stream") continue;
          const va = k in fa ? num(fa[k]) : "–", vb = k in fb ? num(fb[k]) : "–";
          rows.push(el("tr", { class: va !== vb ? "qdiff" : "" }, el("td", {}, `query ${name}`), el("td", {}, k),
            el("td", { class: "num" + (va !== vb ? " diff" : "") }, va), el("td", { class: "num" + (va !== vb ? " diff" : "") }, vb)));
        }
      }
      kids.push(el("h4", {}, "query results"));
      kids.push(el("table", { id: "queries" }, el("tr", {}, el("th", {}, "query"), el("th", {}, "field"), el("th", {}, `A (run ${a})`), el("th", {}, `B (run ${b})`)), ...rows));
    }
    if (c.shader_differs) kids.push(el("h4", {}, "shaders"), el("div", { class: "side" }, el("pre", {}, c.shader_a || ""), el("pre", {}, c.shader_b || "")));
    detail.replaceChildren(...kids);
    // The first differing component is what the page is opened for.
    const d = detail.querySelector("td.diff");
    if (d) d.scrollIntoView({ block: "center", inline: "nearest" });
  }
  // The page opens on the first real difference: an observation, or PM4 /
  // registers / shaders both runs have.  A call with artefacts in one run
  // only (every sim call against a golden or host run) is no divergence.
  const whatOf = c => [c.pm4 && "PM4", c.regs && "registers", c.shader && "shader", c.obs && "observations", c.one_sided && "one run only"].filter(Boolean).join(", ");
  const firstDiff = data.timeline.find(c => c.obs || ((c.pm4 || c.regs || c.shader) && !c.one_sided));
  for (const c of data.timeline) {
    const differs = c.pm4 || c.regs || c.shader || c.obs || c.one_sided;
    const what = whatOf(c);
    const cls = differs ? "differs" : c.classified ? "classified" : "same";
    tl.append(el("div", { class: `call ${callClass(c.function)} ${cls}`, title: `${c.call} ${c.function}${differs ? ": " + what + " differ" : ""}${c.verdict_class ? `; ${c.verdict_class}: ${c.verdict_reason}` : ""}`,
      "data-call": c.call, onclick: () => pick(c.call).catch(fail) }, callLetter(c.function)));
  }
  main().replaceChildren(el("h2", {}, `${runName(data.run_a)} vs ${runName(data.run_b)}`),
    el("p", { id: "summary" }, `observations: ${os.different} of ${os.pairs} differ (${os.components_differ} TF components), ${os.only_a} only in A, ${os.only_b} only in B${os.classified ? `, ${os.classified} classified by replay --check (not counted)` : ""}; calls: ${cs.differ} differ`),
    el("div", { id: "verdicts" }, ...data.timeline.filter(c => c.verdict_class).map(c => el("p", { class: "verdictline" }, `call ${c.call} ${c.function} `, verdictLabel(c), ` ${c.verdict_reason}`))),
    el("p", { id: "first" }, firstDiff ? `first difference: call ${firstDiff.call} ${firstDiff.function}: ${whatOf(firstDiff)} differ` : "no difference"),
    el("p", { class: "legend" }, el("span", { class: "call differs" }, "differs"), el("span", {}, "same"), el("span", {}, "D draw, B / P / R / E TF begin / pause / resume / end, Q query")),
    tl, detail);
  const q = new URLSearchParams(location.search).get("call");
  if (q !== null) await pick(Number(q));
  else if (firstDiff) await pick(firstDiff.call);
}

function route() {
  const p = location.pathname.split("/").filter(Boolean);
  if (p[0] === "run" && p.length === 2) return viewRun(Number(p[1]));
  if (p[0] === "diff" && p.length === 3) return viewDiff(Number(p[1]), Number(p[2]));
  if (p[0] === "bisect" && p.length === 2) return viewBisect(Number(p[1]));
  return viewRuns();
}

document.addEventListener("DOMContentLoaded", () => route().catch(fail));
