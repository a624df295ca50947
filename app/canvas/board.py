"""CanvasBoard: the builder's palette and canvas, drawn in the browser from `view` (canvas_board_model.board).

It draws state and reports what the person did as `action` ({"kind": …}); builder.py decides what it means.
Nodes and ports are buttons: a mouse drags a node or a wire (output port onto an input port), or clicks an output
port and then an input port; a keyboard Tabs to them: Enter selects a node, arrow keys move it, Delete removes
it, Enter on an output port and then on an input port wires them, Escape drops the wire. Palette items are
clicked (the node appears in a free place) or dragged onto the canvas.
"""

from __future__ import annotations

import param
from panel.custom import JSComponent

from app.canvas import board_model as bm


class CanvasBoard(JSComponent):
    view = param.Dict(default={"nodes": [], "palette": []})
    action = param.Dict(default={}, doc="What the person did last (with a unique `n`, so a repeat is seen).")
    enabled = param.Boolean(default=True, doc="False: the program is not a canvas; the board only shows why.")
    why = param.String(default="", doc="Why the program is not drawn.")

    _debounce = 0

    _esm = (
        f"const W = {bm.NODE_W}, H = {bm.NODE_H}\n"
        + """
const PALETTE_NAMES = {leaf: 'leaf tensor', '+': 'sum (a + b)', '−': 'difference (a − b)', '×': 'product (a × b)',
  '÷': 'quotient (a ÷ b)', pow: 'power (a ** b)', '@': 'matrix product (a @ b)'}
// "a sum node", "an exp() node"
const aNode = (name) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name} node`

function el(tag, cls, text) {
  const e = document.createElement(tag)
  if (cls) { e.className = cls }
  if (text !== undefined) { e.textContent = text }
  return e
}

export function render({ model }) {
  const root = el('div', 'cb')
  const palette = el('div', 'palette')
  palette.setAttribute('role', 'toolbar')
  palette.setAttribute('aria-label', 'Palette: click or drag onto the canvas to add a node')
  const board = el('div', 'board')
  board.setAttribute('role', 'group')
  board.setAttribute('aria-label', 'Canvas: the graph the program builds')
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
  svg.setAttribute('class', 'wires')
  svg.setAttribute('aria-hidden', 'true')
  const why = el('div', 'why')
  root.append(palette, board, why)
  let pending = null  // the output port a wire is being drawn from
  let drawing = null  // {x1, y1, x2, y2} of the wire following the pointer
  const act = (a) => { model.action = { ...a, n: Date.now() + Math.random() } }

  function portXY(node, i, n) {
    return [node.x, node.y + (H * (i + 1)) / (n + 1)]
  }
  function wires() {
    const nodes = Object.fromEntries(model.view.nodes.map((d) => [d.name, d]))
    let s = '<defs><marker id="cb-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" ' +
      'orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>'
    for (const d of model.view.nodes) {
      d.ports.forEach((p, i) => {
        const src = p.from && nodes[p.from]
        if (!src) { return }
        const x1 = src.x + W, y1 = src.y + H / 2
        const [x2, y2] = portXY(d, i, d.ports.length)
        const c = Math.max(24, Math.abs(x2 - x1) / 2)
        s += `<path d="M${x1},${y1} C${x1 + c},${y1} ${x2 - c},${y2} ${x2 - 6},${y2}" stroke="#555" ` +
          `stroke-width="1.6" fill="none" marker-end="url(#cb-arrow)"/>`
      })
    }
    if (drawing) {
      s += `<line x1="${drawing.x1}" y1="${drawing.y1}" x2="${drawing.x2}" y2="${drawing.y2}" ` +
        'stroke="#3b5b92" stroke-width="2" stroke-dasharray="5 3"/>'
    }
    let w = 0, h = 0
    for (const d of model.view.nodes) { w = Math.max(w, d.x + W + 20); h = Math.max(h, d.y + H + 20) }
    svg.setAttribute('width', w)
    svg.setAttribute('height', h)
    svg.innerHTML = s
    board.style.setProperty('--content-w', w + 'px')
    board.style.setProperty('--content-h', h + 'px')
  }
  function boardXY(e) {
    const r = board.getBoundingClientRect()
    return [e.clientX - r.left + board.scrollLeft, e.clientY - r.top + board.scrollTop]
  }

  function drawPalette() {
    palette.replaceChildren()
    for (const op of model.view.palette) {
      const text = op === 'leaf' ? '+ leaf' : op
      const b = el('button', 'pal', text)
      b.dataset.op = op
      b.draggable = true
      b.disabled = !model.enabled
      const name = PALETTE_NAMES[op] || op + '()'
      b.setAttribute('aria-label', `${text}: add ${aNode(name)}`)
      b.title = `Add ${aNode(name)} (click, or drag onto the canvas)`
      b.onclick = () => act({ kind: 'add', op })
      b.ondragstart = (e) => { e.dataTransfer.setData('text/plain', op); e.dataTransfer.effectAllowed = 'copy' }
      palette.append(b)
    }
  }

  function drawNode(d) {
    const box = el('div', 'node ' + d.kind + (d.waiting ? ' waiting' : '') + (d.selected ? ' selected' : '') +
      (d.backward ? ' backward' : ''))
    box.style.left = d.x + 'px'
    box.style.top = d.y + 'px'
    box.dataset.name = d.name
    const body = el('button', 'body')
    body.dataset.key = 'node:' + d.name
    body.setAttribute('aria-pressed', d.selected ? 'true' : 'false')
    const note = d.backward ? '.backward()' : d.note
    body.setAttribute('aria-label', `${d.formula} ${note}: node ${d.name}. Enter selects, arrow keys move, ` +
      'Delete removes')
    body.title = d.formula
    body.append(el('span', 'formula', d.formula), ' ', el('span', 'note', note))
    box.append(body)
    d.ports.forEach((p, i) => {
      const port = el('button', 'in-port' + (p.text === '?' ? ' open' : ''), p.label)
      port.dataset.key = `in:${d.name}:${i}`
      port.dataset.node = d.name
      port.dataset.port = i
      port.style.top = (H * (i + 1)) / (d.ports.length + 1) - 9 + 'px'
      port.setAttribute('aria-label', `input ${p.label} of ${d.name}: ${p.text === '?' ? 'not connected' : p.text}`)
      port.title = pending ? `wire ${pending} into ${p.label} of ${d.name}` : `input ${p.label}: ${p.text}`
      port.onclick = () => {
        if (pending) { act({ kind: 'connect', source: pending, target: d.name, port: i }); pending = null; draw() }
        else { act({ kind: 'select', name: d.name }) }
      }
      box.append(port)
    })
    const out = el('button', 'out-port' + (pending === d.name ? ' pending' : ''), '▸')
    out.dataset.key = 'out:' + d.name
    out.setAttribute('aria-label', pending === d.name ? `wiring from ${d.name}: now choose an input port`
      : `output of ${d.name}: wire it into an input`)
    out.title = `drag (or click, then click an input) to wire ${d.name} into an op`
    out.onclick = () => { pending = pending === d.name ? null : d.name; draw(); focusKey('out:' + d.name) }
    out.onpointerdown = (e) => {
      if (e.button !== 0) { return }
      const [x, y] = [d.x + W, d.y + H / 2]
      let moved = false
      out.setPointerCapture(e.pointerId)
      out.onpointermove = (m) => {
        const [x2, y2] = boardXY(m)
        if (!moved && Math.hypot(x2 - x, y2 - y) < 8) { return }
        moved = true
        drawing = { x1: x, y1: y, x2, y2 }
        wires()
      }
      out.onpointerup = (u) => {
        out.onpointermove = out.onpointerup = null
        if (!moved) { return }
        drawing = null
        wires()
        const target = (root.getRootNode().elementsFromPoint ? root.getRootNode() : document)
          .elementsFromPoint(u.clientX, u.clientY).find((t) => t.classList && t.classList.contains('in-port'))
        if (target) {
          act({ kind: 'connect', source: d.name, target: target.dataset.node, port: +target.dataset.port })
        }
        out.dataset.dragged = '1'
      }
    }
    out.addEventListener('click', (e) => {
      if (out.dataset.dragged) { delete out.dataset.dragged; e.stopImmediatePropagation() }
    }, true)
    box.append(out)

    body.onpointerdown = (e) => {
      if (e.button !== 0) { return }
      const [sx, sy, ox, oy] = [e.clientX, e.clientY, d.x, d.y]
      let moved = false
      body.setPointerCapture(e.pointerId)
      body.onpointermove = (m) => {
        if (!moved && Math.hypot(m.clientX - sx, m.clientY - sy) < 4) { return }
        moved = true
        d.x = Math.max(0, Math.round(ox + m.clientX - sx))
        d.y = Math.max(0, Math.round(oy + m.clientY - sy))
        box.style.left = d.x + 'px'
        box.style.top = d.y + 'px'
        wires()
      }
      body.onpointerup = () => {
        body.onpointermove = body.onpointerup = null
        if (moved) { body.dataset.dragged = '1'; act({ kind: 'move', name: d.name, x: d.x, y: d.y }) }
      }
    }
    body.onclick = () => {
      if (body.dataset.dragged) { delete body.dataset.dragged; return }
      if (pending && pending !== d.name && d.ports.length) {
        const free = d.ports.findIndex((p) => p.text === '?')
        act({ kind: 'connect', source: pending, target: d.name, port: free < 0 ? 0 : free })
        pending = null
        return
      }
      act({ kind: 'select', name: d.name })
    }
    body.onkeydown = (e) => {
      const step = e.shiftKey ? 40 : 10
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }
      if (moves[e.key]) {
        e.preventDefault()
        e.stopPropagation()  // the page's ← → step the program; here they move the node
        act({ kind: 'move', name: d.name, x: Math.max(0, d.x + moves[e.key][0]),
              y: Math.max(0, d.y + moves[e.key][1]) })
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault()
        e.stopPropagation()
        act({ kind: 'delete', name: d.name })
      }
    }
    return box
  }

  function focusKey(key) {
    const t = key && board.querySelector(`[data-key="${CSS.escape(key)}"]`)
    if (t) { t.focus() }
  }

  function draw() {
    const active = root.getRootNode().activeElement
    const key = active && board.contains(active) ? active.dataset.key : null
    drawPalette()
    board.replaceChildren(svg)
    for (const d of model.view.nodes) { board.append(drawNode(d)) }
    if (!model.view.nodes.length && model.enabled) {
      board.append(el('p', 'empty', 'Click a palette item (or drag it here) to add a node.'))
    }
    wires()
    why.textContent = model.why
    why.style.display = model.why ? '' : 'none'
    // a program the canvas cannot draw: only why (and the room the board took goes to the sidebar's others)
    palette.style.display = board.style.display = model.enabled ? '' : 'none'
    focusKey(key)
  }

  board.ondragover = (e) => { if (model.enabled) { e.preventDefault(); e.dataTransfer.dropEffect = 'copy' } }
  board.ondrop = (e) => {
    e.preventDefault()
    const op = e.dataTransfer.getData('text/plain')
    if (!op || !model.enabled) { return }
    const [x, y] = boardXY(e)
    act({ kind: 'add', op, x: Math.max(0, x - W / 2), y: Math.max(0, y - H / 2) })
  }
  root.onkeydown = (e) => { if (e.key === 'Escape' && pending) { pending = null; draw() } }
  model.on('view', draw)
  model.on('enabled', draw)
  model.on('why', draw)
  draw()
  return root
}
"""
    )

CSS = (
    """
:host { display: block; }
.cb { display: flex; flex-direction: column; gap: 6px; height: 100%; font: 12px system-ui, sans-serif; }
.palette { display: flex; flex-wrap: wrap; gap: 4px; }
.pal { min-width: 34px; height: 28px; padding: 0 8px; border: 1px solid #8a94a6; border-radius: 4px;
  background: white; color: #1f2d4a; font: 600 13px system-ui, sans-serif; cursor: grab; }
.pal:hover:not(:disabled) { background: #eef2f9; }
.pal:disabled { color: #767676; cursor: not-allowed; }
.board { position: relative; flex: 1; min-height: 220px; overflow: auto; background: #fcfcfc;
  border: 1px solid #d0d4da; border-radius: 4px;
  background-image: radial-gradient(#e1e4e8 1px, transparent 1px); background-size: 16px 16px; }
.wires { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
.node { position: absolute; width: """ + str(bm.NODE_W) + "px; height: " + str(bm.NODE_H) + """px; }
.node .body { position: absolute; inset: 0; width: 100%; height: 100%; padding: 2px 12px 2px 12px;
  border: 1.5px solid #555; border-radius: 6px; background: #d3d3d3; color: #111; cursor: move;
  display: flex; flex-direction: column; justify-content: center; align-items: center; touch-action: none;
  font: 12px system-ui, sans-serif; overflow: hidden; }
.node.leaf .body { background: #add8e6; }
.node.waiting .body { border-style: dashed; background: #f1f1f1; }
.node.backward .body { background: #caff70; }
.node.selected .body { outline: 3px solid #3b5b92; outline-offset: 1px; }
.node .formula { font-weight: 600; white-space: nowrap; max-width: 100%; overflow: hidden;
  text-overflow: ellipsis; }
.node .note { font-size: 10.5px; color: #333; white-space: nowrap; }
.in-port, .out-port { position: absolute; width: 18px; height: 18px; padding: 0; border-radius: 9px;
  border: 1.5px solid #555; background: white; color: #111; font: 600 10px system-ui, sans-serif;
  cursor: crosshair; line-height: 14px; touch-action: none; }
.in-port { left: -9px; }
.in-port.open { background: #fff4e5; border-color: #b35c00; }
.out-port { right: -9px; top: """ + str(bm.NODE_H // 2 - 9) + """px; }
.out-port.pending { background: #3b5b92; color: white; }
.body:focus-visible, .in-port:focus-visible, .out-port:focus-visible, .pal:focus-visible {
  outline: 3px solid #f0a500; outline-offset: 1px; }
.empty { color: #555; margin: 40px 16px; text-align: center; }
.why { color: #663c00; background: #fff4e5; border: 1px solid #f0a500; border-radius: 4px; padding: 6px 8px; }
"""
)
