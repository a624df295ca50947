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
    const done = () => { share.textContent = 'Link copied ✓'; setTimeout(() => { share.textContent = 'Share' }, 1800) }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, () => window.prompt('Copy this link:', url))
    } else { window.prompt('Copy this link:', url) }
    bar.dataset.link = url
  })
  const exportAs = (kind) => () => {
    const view = window.Bokeh.index.find_one_by_id(model.figure)
    if (view == null) { return }
    view.export(kind).to_blob().then((blob) => {
      const a = document.createElement('a')
      a.href = URL.createObjectURL(blob)
      a.download = 'autograd-graph.' + kind
      document.body.appendChild(a); a.click(); a.remove()
      setTimeout(() => URL.revokeObjectURL(a.href), 5000)
    })
  }
  button('⤓ PNG', 'export-png', 'Download the graph as a PNG image', exportAs('png'))
  button('⤓ SVG', 'export-svg', 'Download the graph as an SVG image', exportAs('svg'))
  return bar
}
"""

    _stylesheets = ["""
.share-export { display: flex; gap: 6px; }
.share-export button { font: inherit; font-size: 13px; padding: 6px 12px; border-radius: 4px; cursor: pointer;
  border: 1px solid #c9ced6; background: #f6f7f9; color: #1f2d3d; }
.share-export button:hover { background: #e9edf3; }
.share-export button.share { border-color: #3b5b92; color: #3b5b92; background: white; font-weight: 600; }
"""]
