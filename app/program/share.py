"""ShareExport: the Share button (copies a deep link) and PNG/SVG export of the graph, all in the browser."""

from __future__ import annotations

import param
from panel.custom import JSComponent


class ShareExport(JSComponent):
    query = param.String(default="", doc="Query part of the share link, kept current by Python.")
    figure = param.String(default="", doc="Bokeh model id of the graph figure to export.")

    _esm = """
export function render({ model }) {
  const bar = document.createElement('div')
  bar.className = 'share-export'
  const button = (label, cls, title, onclick) => {
    const b = document.createElement('button')
    b.textContent = label; b.className = cls; b.title = title; b.onclick = onclick
    bar.appendChild(b)
    return b
  }
  const share = button('Share', 'share', 'Copy a link to this program at this step', () => {
    const url = window.location.origin + window.location.pathname + '?' + model.query
    try { window.history.replaceState(null, '', url) } catch (e) {}
    const done = () => { share.textContent = 'Copied ✓'; setTimeout(() => { share.textContent = 'Share' }, 1800) }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, () => window.prompt('Copy this link:', url))
    } else { window.prompt('Copy this link:', url) }
    bar.dataset.link = url
  })
  // The whole graph, not the camera's view: the ranges are set to the extent of every box (at the view's aspect,
  // one scale on both axes) for the export, then put back. None of it is sent to Python ({sync: false}).
  const wholeGraph = (view) => {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity
    for (const r of view.model.renderers) {
      const d = r.data_source && r.data_source.data
      if (!d || !d.key || !d.x || !d.y) { continue }
      const w = r.glyph && r.glyph.width && r.glyph.width.value, h = r.glyph && r.glyph.height && r.glyph.height.value
      for (let i = 0; i < d.key.length; i++) {
        const hw = (d.w ? d.w[i] : w || 1) / 2, hh = (d.h ? d.h[i] : h || 0.5) / 2
        x0 = Math.min(x0, d.x[i] - hw); x1 = Math.max(x1, d.x[i] + hw)
        y0 = Math.min(y0, d.y[i] - hh); y1 = Math.max(y1, d.y[i] + hh)
      }
    }
    if (!Number.isFinite(x0)) { return null }
    const W = view.frame.bbox.width, H = view.frame.bbox.height, pad = 0.4
    x0 -= pad; x1 += pad; y0 -= pad; y1 += pad
    const s = Math.min(W / (x1 - x0), H / (y1 - y0)), cx = (x0 + x1) / 2, cy = (y0 + y1) / 2
    return [cx - W / s / 2, cx + W / s / 2, cy - H / s / 2, cy + H / s / 2]
  }
  const exportAs = (kind) => async () => {
    const view = window.Bokeh.index.find_one_by_id(model.figure)
    if (view == null) { return }
    const xr = view.model.x_range, yr = view.model.y_range
    const kept = [xr.start, xr.end, yr.start, yr.end], whole = wholeGraph(view)
    if (whole) {
      xr.setv({start: whole[0], end: whole[1]}, {sync: false})
      yr.setv({start: whole[2], end: whole[3]}, {sync: false})
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
      bar.dataset.exported = whole.join(',')
    }
    let blob
    try {
      blob = await view.export(kind).to_blob()
    } finally {
      if (whole) {
        xr.setv({start: kept[0], end: kept[1]}, {sync: false})
        yr.setv({start: kept[2], end: kept[3]}, {sync: false})
      }
    }
    const a = document.createElement('a')
    a.href = URL.createObjectURL(blob)
    a.download = 'autograd-graph.' + kind
    document.body.appendChild(a); a.click(); a.remove()
    setTimeout(() => URL.revokeObjectURL(a.href), 5000)
  }
  button('⤓ PNG', 'export-png', 'Download the graph as a PNG image', exportAs('png'))
  button('⤓ SVG', 'export-svg', 'Download the graph as an SVG image', exportAs('svg'))
  return bar
}
"""

    _stylesheets = ["""
.share-export { display: flex; gap: 6px; }
.share-export button { white-space: nowrap; flex: none; }
.share-export button.share { min-width: 84px; }
.share-export button { font: inherit; font-size: 13px; padding: 6px 12px; border-radius: 4px; cursor: pointer;
  border: 1px solid #c9ced6; background: #f6f7f9; color: #1f2d3d; }
.share-export button:hover { background: #e9edf3; }
.share-export button.share { border-color: #3b5b92; color: #3b5b92; background: white; font-weight: 600; }
"""]
