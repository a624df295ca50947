"""ArrowKeys: counts presses of ← and → anywhere on the page (not while typing in the editor or a field; the
prediction field, once emptied by its guess, steps on), and of Ctrl+. (⌘. on a Mac: Stop), anywhere. `scoped`
(in a notebook, where several explorers and the cells' editors share the page): only while this explorer's output
was the last place clicked or focused."""

from __future__ import annotations

import param
from panel.custom import JSComponent


class ArrowKeys(JSComponent):
    left = param.Integer(default=0)
    right = param.Integer(default=0)
    stops = param.Integer(default=0)
    scoped = param.Boolean(default=False)

    _debounce = 0  # handled at once, not after Panel's 50 ms debounce

    _esm = """
// The notebook output (JupyterLab's, Notebook 7's, the classic one's) or else the page this element is in.
const OUTPUT = ['jp-OutputArea-output', 'output_subarea']
function outputOf(el) {
  for (let n = el; n; n = n.parentNode || n.host) {
    if (n.classList && OUTPUT.some((c) => n.classList.contains(c))) { return n }
  }
  return document
}

export function render({ model }) {
  const span = document.createElement('span')
  let here = !model.scoped
  const mark = (e) => { if (model.scoped) { here = e.composedPath().includes(outputOf(span)) } }
  const path = (e) => e.composedPath()
  const emptyGuess = (e) => path(e).some((el) => el.classList && el.classList.contains('predict-guess')) &&
    path(e)[0].tagName === 'INPUT' && path(e)[0].value === ''
  const typing = (e) => !emptyGuess(e) && path(e).some((el) => el.classList && (
    el.classList.contains('ace_editor') || (el.tagName === 'INPUT' && el.type !== 'checkbox') ||
    el.tagName === 'TEXTAREA' || el.isContentEditable ||
    el.tagName === 'SELECT'))
  const onKey = (e) => {
    if (here && (e.ctrlKey || e.metaKey) && e.key === '.') { model.stops += 1; e.preventDefault(); return }
    if (!here || e.altKey || e.ctrlKey || e.metaKey || typing(e)) { return }
    if (e.key === 'ArrowLeft') { model.left += 1; e.preventDefault() }
    else if (e.key === 'ArrowRight') { model.right += 1; e.preventDefault() }
  }
  document.addEventListener('keydown', onKey)
  document.addEventListener('pointerdown', mark, true)
  document.addEventListener('focusin', mark, true)
  model.on('remove', () => {
    document.removeEventListener('keydown', onKey)
    document.removeEventListener('pointerdown', mark, true)
    document.removeEventListener('focusin', mark, true)
  })
  return span
}
"""
