// The Python side of the site: Pyodide, the packages and the app run here, off the page's thread.
//
// Messages (page -> worker):  init {manifest, base, query} · patch {patch} · record {query}: record the link's
//                             prelude (answered with prelude {json} unless the program is not one to record)
//                             carry {carry}, the answer to carry?, and rendered {carry}: carry is null or
//                             {example, k, source, selected, predicting}, what the page shows while it steps
//                             without Python
// Messages (worker -> page):  progress {phase, loaded, total} · carry? · render {docs_json, render_items, root_ids}
//                             query {query: the share query of the program and step shown}
//                             ready {timings} · patch {patch, buffers} · idle · log {text} · error {message}
//                             wall {runs, stopped, why}: after each program (why: null, or why the wall
//                             stopped it: {type, message})
//
// Pyodide starts from the site's own files (static/python.mjs). Learner programs never run here: they run
// in the program worker, behind the wall (static/wall.mjs), which this worker starts first.

const T0 = performance.now();
const timings = {};
// mark(name): ms from this worker's start; mark(name, ms): a duration
const mark = (name, ms) => { timings[name] = Math.round(ms ?? performance.now() - T0); };

let pyodide, boot, wall;
let lastPatch = 0; // when the page last sent a change
const QUIET_MS = 1500;
let carried = null; // resolves the page's answer to 'carry?'

let bytes = [0, 0];
function progress(phase, loaded = bytes[0], total = bytes[1]) {
  bytes = [loaded, total];
  self.postMessage({ type: 'progress', phase, loaded, total });
}

async function start(msg) {
  const { manifest, base } = msg;
  // The program worker starts first and runs the query's program as soon as it can (from this worker's
  // downloads and compiled wasm): its timeline is ready before the app, which takes longer to start (Panel).
  const { Wall, programFiles } = await import(new URL(`static/wall.mjs?v=${manifest.version}`, base).href);
  wall = new Wall({
    manifest, base, seconds: msg.programSeconds, shared: true, unguarded: msg.unguarded === true,
    report: (why) => self.postMessage({ type: 'wall', runs: wall.runs, stopped: wall.stopped, why }),
    started: (phases) => { if (!timings.program_ready) { mark('program_ready'); timings.program_worker = phases; } },
  });
  wall.start(msg.query).then(() => mark('program'));
  const { startPython } = await import(new URL(`static/python.mjs?v=${manifest.version}`, base).href);
  let take;
  ({ pyodide, take } = await startPython({
    manifest, base, files: manifest.preload, packages: manifest.packages, progress, mark,
    share: { files: programFiles(manifest), to: (shared) => wall.provide(shared) },
    env: { PANEL_CDN_ROOT: new URL(manifest.panel_cdn_root, base).href },
    stdout: (text) => self.postMessage({ type: 'log', text }),
    stderr: (text) => self.postMessage({ type: 'log', text, error: true }),
  }));

  progress('Starting the app');
  const source = new TextDecoder().decode(await take(new URL('static/boot.py', base).href));
  const ns = pyodide.globals.get('dict')();
  pyodide.runPython(source, { globals: ns, filename: 'boot.py' });
  boot = ns;
  // A teacher's own lessons (build.py --lessons), offered beside the built-in ones before the page is built.
  const lessons = Object.values(manifest.lessons || {});
  if (lessons.length) {
    const texts = await Promise.all(lessons.map(async ({ file }) => {
      const response = await fetch(new URL(`${file}?v=${manifest.files[file].sha256.slice(0, 12)}`, base));
      if (!response.ok) throw new Error(`could not load ${file}: HTTP ${response.status}`);
      return response.text();
    }));
    ns.get('add_lessons')(JSON.stringify(lessons.map(({ name }, i) => [name, texts[i]])));
  }
  mark('boot');
  const postQuery = (query) => self.postMessage({ type: 'query', query });
  // Where the page got to while it stepped without Python: the page is built there.
  const carry = await new Promise((resolve) => {
    carried = resolve;
    self.postMessage({ type: 'carry?' });
  });
  const runProgram = (program) => wall.program(program);
  const stopProgram = () => wall.stopRunning();
  const result = await ns.get('render')(JSON.stringify(msg.query), postQuery,
    carry ? JSON.stringify(carry) : null, runProgram, stopProgram);
  const [docs_json, render_items, root_ids, imported] = result.toJs();
  result.destroy();
  timings.import = imported;
  mark('render');
  self.postMessage({ type: 'render', docs_json, render_items, root_ids });
}

function sendPatch(patch, buffers) {
  self.postMessage({ type: 'patch', patch, buffers });
}

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.type === 'init') {
      await start(msg);
    } else if (msg.type === 'rendered') {
      boot.get('link')(sendPatch);
      if (msg.carry) {
        try {
          boot.get('carry_over')(JSON.stringify(msg.carry));
        } catch (err) { // the live app works anyway, at the step it was built at
          self.postMessage({ type: 'log', text: `could not carry the step over: ${err}`, error: true });
        }
      }
      mark('linked');
      timings.heap = pyodide._module.HEAPU8.length;
      self.postMessage({ type: 'ready', timings });
      wall.allowSpare(); // the page is up: a spare program worker may boot now
    } else if (msg.type === 'carry') {
      if (carried) carried(msg.carry);
      carried = null;
    } else if (msg.type === 'patch') {
      lastPatch = performance.now();
      try {
        await boot.get('apply_patch')(msg.patch);
      } finally {
        self.postMessage({ type: 'idle' });
      }
    } else if (msg.type === 'record') {
      // Once the learner has left the page alone for a moment, Python records its link's steps (in pieces,
      // between the page's changes), for the next visit to step at once.
      while (performance.now() - lastPatch < QUIET_MS) await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      const json = await boot.get('record_link')(JSON.stringify(msg.query));
      if (json) self.postMessage({ type: 'prelude', json });
    }
  } catch (err) {
    self.postMessage({ type: 'error', message: String(err && err.message ? err.message : err) });
    throw err;
  }
};
